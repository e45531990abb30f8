"""Puzzle toolkit throughput: solve / check every collection, generate, explain.

For each puzzle file in ``../shared/data/puzzles/`` (and ``nonunique/``), single
core (CPU seconds of this process, best of ``--repeat``):

  * read: parse the file (``grids.puzzles.read_puzzles``);
  * solve: ``solve_batch(limit=1)`` (first solution, no uniqueness check);
  * check: ``solve_batch(limit=2)`` (solution and uniqueness);
  * solutions are compared with ``solutions/<file>`` where it exists.

Then: the 17-clue file with the encoding's column order
(``Sudoku.solve_batch``) for comparison, and with two threads (wall clock);
the generator (``--gen-count`` puzzles of 25 clues, plain, symmetric, and
minimal; seconds per puzzle); the rule solver on the first ``--explain``
puzzles of each file (rule counts per puzzle, and puzzles/s).

Skips with a message when the data directory is absent.

    python scripts/bench_puzzles.py [--repeat 2] [--gen-count 50] [--explain 100] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from counting.job import describe_machine
from grids import puzzles as P

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "puzzles"


def best_cpu(fn, repeat: int):
    """(result, least CPU seconds) over ``repeat`` runs."""
    best, out = None, None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return out, best


def bench_file(path: Path, data: Path, repeat: int) -> dict:
    pf, t_read = best_cpu(lambda: P.read_puzzles(path), repeat)
    n = len(pf.grids)
    solved, t_solve = best_cpu(lambda: P.solve_batch(pf.grids, limit=1), repeat)
    checked, t_check = best_cpu(lambda: P.solve_batch(pf.grids, limit=2), repeat)
    status = checked.status
    row = {"file": str(path.relative_to(data)), "puzzles": n, "malformed": len(pf.errors),
           "read_per_s": n / t_read, "solve_per_s": n / t_solve, "check_per_s": n / t_check,
           "unique": int((status == "unique").sum()), "none": int((status == "none").sum()),
           "multiple": int((status == "multiple").sum()), "solutions_agree": None}
    ref = data / "solutions" / path.name
    if ref.exists():
        want = ref.read_text().split()
        got = [P.format_line(g) for g in checked.solutions]
        row["solutions_agree"] = f"{sum(a == b for a, b in zip(got, want)):,}/{len(want):,}"
    return row


def bench_variants(path: Path, repeat: int) -> list[dict]:
    """The 17-clue file: encoding column order, and threads."""
    pf = P.read_puzzles(path)
    n = len(pf.grids)
    s = P.get_sudoku("3x3")
    ec = s.exact_cover()
    rows = []
    for limit in (1, 2):
        _, t = best_cpu(lambda: s.solve_batch(pf.grids, limit=limit, ec=ec), repeat)
        rows.append({"run": f"encoding column order (Sudoku.solve_batch), limit {limit}",
                     "per_s": n / t, "clock": "CPU"})
    for limit in (1, 2):
        best = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            P.solve_batch(pf.grids, limit=limit, workers=2)
            dt = time.perf_counter() - t0
            best = dt if best is None else min(best, dt)
        rows.append({"run": f"solve_batch workers=2, limit {limit}", "per_s": n / best,
                     "clock": "wall"})
    return rows


def bench_generate(count: int) -> list[dict]:
    rows = []
    for label, kw in [("25 clues", dict(clues=25)),
                      ("25 clues, symmetric", dict(clues=25, symmetric=True)),
                      ("22 clues", dict(clues=22)),
                      ("minimal (any size)", dict(clues=None, minimal=True))]:
        made = list(P.generate_many(count, seed=2024, **kw))
        secs = [g.seconds for g in made]
        ok = [g for g in made if g.ok]
        assert all(P.is_unique(g.puzzle) for g in ok)
        rows.append({"run": label, "puzzles": count, "made": len(ok),
                     "mean_s": statistics.mean(secs), "median_s": statistics.median(secs),
                     "max_s": max(secs),
                     "grids_per_puzzle": sum(g.attempts for g in made) / count,
                     "checks_per_puzzle": sum(g.checks for g in made) / count,
                     "mean_clues": statistics.mean(g.clues for g in ok) if ok else None})
    return rows


def bench_explain(path: Path, data: Path, k: int) -> dict:
    grids = P.read_puzzles(path).grids[:k]
    t0 = time.process_time()
    st = P.explain_stats(grids)
    dt = time.process_time() - t0
    per = {r: c / st.puzzles for r, c in st.counts.items()}
    return {"file": str(path.relative_to(data)), "puzzles": st.puzzles, "per_s": st.puzzles / dt,
            "no_branch": st.no_branch, "branches_per_puzzle": st.branches / st.puzzles,
            "max_branches": st.max_branches, "rules_per_puzzle": per}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="puzzle collections")
    ap.add_argument("--repeat", type=int, default=2, help="runs per case; the best is kept")
    ap.add_argument("--gen-count", type=int, default=50, help="puzzles per generator case")
    ap.add_argument("--explain", type=int, default=100, help="puzzles per file for explain")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.data.is_dir():
        print(f"puzzle collections not found at {args.data}; nothing to measure", file=sys.stderr)
        return
    files = sorted(args.data.glob("*.txt")) + sorted((args.data / "nonunique").glob("*.txt"))
    files = [f for f in files if f.name != "README.md"]
    rows = [bench_file(f, args.data, args.repeat) for f in files]
    seventeen = args.data / "17clue_royle_47158.txt"
    variants = bench_variants(seventeen, args.repeat) if seventeen.exists() else []
    gen = bench_generate(args.gen_count) if args.gen_count else []
    expl = [bench_explain(f, args.data, args.explain) for f in files] if args.explain else []
    machine = describe_machine()
    if args.json:
        print(json.dumps({"machine": machine, "files": rows, "variants": variants,
                          "generate": gen, "explain": expl}, indent=2))
        return

    print("Solving, single core (CPU time), puzzles per second:\n")
    print("| file | puzzles | read/s | solve/s (limit 1) | check/s (limit 2) "
          "| unique / none / multiple | solutions agree |")
    print("|---|---:|---:|---:|---:|---|---|")
    for r in rows:
        print(f"| `{r['file']}` | {r['puzzles']:,} | {r['read_per_s']:,.0f} | "
              f"{r['solve_per_s']:,.0f} | {r['check_per_s']:,.0f} | "
              f"{r['unique']:,} / {r['none']:,} / {r['multiple']:,} | "
              f"{r['solutions_agree'] or '—'} |")
    if variants:
        print("\n17-clue file, other ways:\n")
        print("| run | puzzles/s | clock |")
        print("|---|---:|---|")
        for v in variants:
            print(f"| {v['run']} | {v['per_s']:,.0f} | {v['clock']} |")
    if gen:
        print(f"\nGenerator (seed 2024, {args.gen_count} puzzles each), seconds per puzzle:\n")
        print("| run | made | mean | median | max | grids tried / puzzle "
              "| uniqueness checks / puzzle | mean clues |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for g in gen:
            clues = f"{g['mean_clues']:.1f}" if g["mean_clues"] is not None else "—"
            print(f"| {g['run']} | {g['made']}/{g['puzzles']} | {g['mean_s'] * 1000:,.1f} ms | "
                  f"{g['median_s'] * 1000:,.1f} ms | {g['max_s'] * 1000:,.1f} ms | "
                  f"{g['grids_per_puzzle']:.1f} | {g['checks_per_puzzle']:.0f} | {clues} |")
    if expl:
        short = ["naked single", "hidden single (row)", "hidden single (column)",
                 "hidden single (box)", "pointing", "claiming", "naked pair", "hidden pair",
                 "naked triple", "hidden triple"]
        print(f"\nRule solver (`explain`), first {args.explain} puzzles of each file: "
              f"firings per puzzle\n")
        print("| file | puzzles/s | no branch | branches / puzzle | max | "
              + " | ".join(short) + " |")
        print("|---|---:|---:|---:|---:|" + "---:|" * len(short))
        for e in expl:
            print(f"| `{e['file']}` | {e['per_s']:,.0f} | {e['no_branch']}/{e['puzzles']} | "
                  f"{e['branches_per_puzzle']:.1f} | {e['max_branches']} | "
                  + " | ".join(f"{e['rules_per_puzzle'][r]:.2f}" for r in short) + " |")
    print(f"\nmachine: {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB, "
          f"{machine['os']}, Python {machine['python']}, NumPy {machine['numpy']}, "
          f"engine {machine['engine_version']}")


if __name__ == "__main__":
    main()
