"""Guesses and printed lines of ``gridcount explain``, puzzle by puzzle.

For every puzzle of a file (default: the 375 forum-hardest puzzles of
``../shared/data/puzzles/forum_hardest_1106_375.txt``):

  * guesses, refuted guesses and the deepest nesting of the rule solver
    (``grids.puzzles.explain``, in ``--workers`` processes), and its
    solution compared with ``solutions/<file>`` when that file exists;
  * the lines ``gridcount explain FILE`` prints for it (the command is run
    once on the whole file; its ``# line N`` headers split the output).

It prints median, mean and maximum of each figure with the machine and the
load average, and ``--save FILE.json`` keeps every puzzle's figures so that
a later run can be compared with ``--baseline FILE.json`` (medians, means,
maxima side by side, and how many puzzles got better or worse).  The
figures are counts, not seconds: the same code gives the same numbers on any
machine.

    python scripts/bench_explain.py [FILE] [--workers 2] [--save out.json]
                                    [--baseline before.json] [--json]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tqdm import tqdm

from counting.job import describe_machine
from grids import puzzles as P

DEFAULT_FILE = (Path(__file__).resolve().parents[2] / "shared" / "data" / "puzzles"
                / "forum_hardest_1106_375.txt")
FIGURES = ("guesses", "refuted", "depth", "lines")


def _explain_one(puzzle: str) -> dict:
    e = P.explain(puzzle, steps=False)
    return {"guesses": e.branches, "refuted": e.backtracks, "depth": e.max_depth,
            "solution": P.format_line(e.solution) if e.solved else None,
            "rules": {r: c for r, c in e.counts.items() if c}}


def printed_lines(path: Path) -> list[int]:
    """Lines ``gridcount explain FILE`` prints for each puzzle, in file order."""
    out = subprocess.run([sys.executable, "-m", "counting", "explain", str(path)],
                         capture_output=True, text=True, check=False).stdout
    counts: list[int] = []
    for line in out.splitlines():
        if re.fullmatch(r"# line \d+", line):
            counts.append(0)
        if counts:
            counts[-1] += 1
    return counts


def measure(path: Path, workers: int) -> list[dict]:
    puzzles = path.read_text().split()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        rows = list(tqdm(pool.imap(_explain_one, puzzles, chunksize=4), total=len(puzzles),
                         unit="puzzle", file=sys.stderr, leave=False))
    ref = path.parent / "solutions" / path.name
    want = ref.read_text().split() if ref.exists() else [None] * len(rows)
    for row, sol in zip(rows, want):
        row["agrees"] = None if sol is None else row.pop("solution") == sol
        row.pop("solution", None)
    lines = printed_lines(path)
    if len(lines) != len(rows):
        raise SystemExit(f"the command printed {len(lines)} puzzles, the file has {len(rows)}")
    for row, k in zip(rows, lines):
        row["lines"] = k
    return rows


def summary(rows: list[dict]) -> dict:
    out = {}
    for f in FIGURES:
        xs = [r[f] for r in rows]
        out[f] = {"median": statistics.median(xs), "mean": statistics.fmean(xs),
                  "max": max(xs), "total": sum(xs)}
    out["without guessing"] = sum(r["guesses"] == 0 for r in rows)
    out["solutions agree"] = sum(bool(r["agrees"]) for r in rows)
    rules: dict[str, int] = {}
    for r in rows:
        for k, v in r["rules"].items():
            rules[k] = rules.get(k, 0) + v
    out["rules"] = rules
    return out


def table(now: dict, before: dict | None) -> str:
    head = ["figure per puzzle", "median", "mean", "max", "total"]
    rows = []
    for f in FIGURES:
        for label, s in ((("before", before[f]),) if before else ()) + (("now", now[f]),):
            name = f"{f} ({label})" if before else f
            rows.append([name, f"{s['median']:,.1f}", f"{s['mean']:,.1f}", f"{s['max']:,}",
                         f"{s['total']:,}"])
    w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w[0]) if i == 0 else c.rjust(w[i])  # noqa: E731
                              for i, c in enumerate(r))
    return "\n".join([fmt(head), fmt(["-" * x for x in w])] + [fmt(r) for r in rows])


def dump(doc: dict) -> str:
    """``doc`` as JSON, one line per puzzle (a file of a few hundred lines)."""
    head = json.dumps({k: v for k, v in doc.items() if k != "puzzle"}, indent=1)
    rows = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in doc["puzzle"])
    return head[:-2] + ',\n "puzzle": [\n' + rows + "\n ]\n}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--save", type=Path, help="write every puzzle's figures here (JSON)")
    ap.add_argument("--baseline", type=Path, help="a --save file to compare with")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not a.file.exists():
        print(f"skipped: {a.file} not found (the shared puzzle data lives next to the "
              f"checkout)", file=sys.stderr)
        sys.exit(0)
    load = os.getloadavg()
    t0 = time.perf_counter()
    rows = measure(a.file, a.workers)
    seconds = time.perf_counter() - t0
    doc = {"file": a.file.name, "puzzles": len(rows), "machine": describe_machine(),
           "load_average": [round(x, 2) for x in load], "seconds": round(seconds, 1),
           "summary": summary(rows), "puzzle": rows}
    if a.save:
        a.save.write_text(dump(doc))
    before = json.loads(a.baseline.read_text()) if a.baseline else None
    if a.json:
        print(json.dumps({k: v for k, v in doc.items() if k != "puzzle"}, indent=1))
        return
    s = doc["summary"]
    checked = (f"{s['solutions agree']:,} solutions agree with the file's"
               if any(r["agrees"] is not None for r in rows) else "no solutions file to check")
    print(f"{a.file.name}: {len(rows):,} puzzles, {checked}, {s['without guessing']:,} solved "
          f"without guessing")
    m = doc["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, shared; load average {load[0]:.2f} / {load[1]:.2f} / "
          f"{load[2]:.2f} (1/5/15 min); {seconds:,.1f} s wall\n")
    print(table(s, before["summary"] if before else None))
    if before:
        old = before["puzzle"]
        better = sum(n["guesses"] < o["guesses"] for n, o in zip(rows, old))
        worse = sum(n["guesses"] > o["guesses"] for n, o in zip(rows, old))
        print(f"\nguesses: fewer on {better:,} puzzles, more on {worse:,}, "
              f"the same on {len(rows) - better - worse:,}")
    print("\nrule firings over the file:")
    for k, v in sorted(s["rules"].items(), key=lambda kv: -kv[1]):
        print(f"  {k:<28}{v:>12,}")


if __name__ == "__main__":
    main()
