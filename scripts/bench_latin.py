"""Latin squares by the cycle-type reductions: order 8 in full, order 9 sampled.

Counts units of :mod:`counting.reduction.cycles` the way a counting job does
(``Sudoku(1, N).exact_cover(priority="rows")``, memo at row ends, the
closed-form tail), in a spawned process pool of its own, and prints wall
and CPU seconds (CPU matters on a shared machine), per-unit figures, and the
total beside the published one.

    python scripts/bench_latin.py order8 [--reduction cycles2] [--workers 2] [--csv FILE]
    python scripts/bench_latin.py sweep [--order 8] [--reduction cycles2]
    python scripts/bench_latin.py sample [--order 9] [--units 0,500,...] [--time-box 600]

``order8`` counts every unit of order 8 and checks the total; ``sweep``
counts every unit of one order in one process under each memo setting
(table size, memo points, tail); ``sample`` counts a few units of order 9
(or any order) and extrapolates the whole job from their CPU seconds,
giving up on units still running when the time box ends.
"""
from __future__ import annotations

import argparse
import csv
import os
import platform
import resource
import time

from counting import published
from dlx.pools import map_unordered
from counting.reduction.cycles import CycleTypeReduction, RowTripleReduction
from grids.sudoku import Sudoku

REDUCTIONS = {cls.kind: cls for cls in (CycleTypeReduction, RowTripleReduction)}
_ENGINE = {}


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f
                         if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores, {mem:.0f} GiB, Python "
            f"{platform.python_version()}; load average at start {load}")


def count_one(job):
    """Count one unit in this process (its engine and memo table are kept
    from one unit to the next, as in a counting job's worker)."""
    spec, memo_mb, memo_at, tail = job
    key = spec.shape
    if key not in _ENGINE:
        sud = Sudoku.from_shape(spec.shape)
        _ENGINE[key] = (sud, sud.exact_cover(priority="rows"))
    sud, ec = _ENGINE[key]
    given = [sud.row_index(r, c, d) for r, c, d in spec.givens]
    cpu0 = time.process_time()
    count = ec.count(given=given, memo=memo_mb > 0, memo_mb=max(memo_mb, 1),
                     memo_at=memo_at, tail=tail and ec.has_tail)
    cpu = time.process_time() - cpu0
    return spec.unit_id, count, cpu, ec.stats.seconds, ec.stats.as_dict(), os.getpid()


def run(specs, workers, memo_mb, memo_at="class", tail=True, time_box=None):
    """Count ``specs`` in the library's worker pool (:func:`dlx.pools.map_unordered`);
    return ({unit_id: result}, wall).  With ``time_box``, stop at the first
    result that arrives after that many seconds (the workers are ended)."""
    jobs = [(s, memo_mb, memo_at, tail) for s in specs]
    out = {}
    t0 = time.perf_counter()
    results = map_unordered(count_one, jobs, workers)
    try:
        for r in results:
            out[r[0]] = r
            print(f"  unit {r[0]:>5}: count {r[1]:,}  cpu {r[2]:.2f} s  wall {r[3]:.2f} s  "
                  f"nodes {r[4]['nodes']:,}  memo hits {r[4]['memo_hits']:,}  "
                  f"tail calls {r[4]['tail_calls']:,}", flush=True)
            if time_box is not None and time.perf_counter() - t0 > time_box:
                break
    finally:
        results.close()
    return out, time.perf_counter() - t0


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def cmd_order8(args) -> None:
    red = REDUCTIONS[args.reduction](f"1x{args.order}")
    specs = red.units()
    print(f"machine: {machine()}")
    print(f"order {args.order}, reduction {red.name}: {len(specs)} units, "
          f"{args.workers} processes, memo {args.memo_mb} MiB, memo at {args.memo_at}, "
          f"tail {'on' if args.tail else 'off'}")
    cpu0 = children_cpu()
    results, wall = run(specs, args.workers, args.memo_mb, _memo_at(args.memo_at), args.tail)
    cpu = children_cpu() - cpu0
    total = red.total({u: r[1] for u, r in results.items()})
    ref = published.lookup(f"1x{args.order}")
    unit_cpu = sum(r[2] for r in results.values())
    print(f"wall {wall:.2f} s (pool start included); CPU of the workers {cpu:.2f} s "
          f"(in the engine {unit_cpu:.2f} s)")
    print(f"total     {total:,}")
    if ref is not None:
        print(f"published {ref.total:,} ({ref.source}): "
              f"{'match' if total == ref.total else 'MISMATCH'}")
    if args.csv:
        classes = {c.class_id: c for c in red.classes()}
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            head = ["unit_id", "cycle_type", "weight", "count"]
            if red.fixed_rows == 3:
                head[2:2] = ["row2", "row3"]
            w.writerow(head)
            for u in sorted(results):
                c = classes[u]
                row = [u, "+".join(map(str, c.cycle_type)), c.weight, results[u][1]]
                if red.fixed_rows == 3:
                    row[2:2] = ["".join(map(str, c.representative[1])),
                                "".join(map(str, c.representative[2]))]
                w.writerow(row)
        print(f"per-unit counts written to {args.csv}")


def _memo_at(text):
    if text in ("class", "all"):
        return text
    return {int(x) for x in text.split(":")}


def cmd_sweep(args) -> None:
    red = REDUCTIONS[args.reduction](f"1x{args.order}")
    specs = red.units()
    print(f"machine: {machine()}")
    print(f"order {args.order}, reduction {red.name}: {len(specs)} units in one process "
          f"per setting (a fresh process, so a fresh memo table, for each)\n")
    print("| memo MiB | memo at | tail | CPU s | nodes | memo lookups | memo hits | tail calls "
          "| tail steps | total ok |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---|")
    ref = published.lookup(f"1x{args.order}")
    for setting in args.settings.split(","):
        mb, at, tail = setting.split("/")
        cpu0 = children_cpu()
        results, _ = _quiet(run, specs, 1, float(mb), _memo_at(at), tail == "on")
        cpu = children_cpu() - cpu0
        st = {k: sum(r[4][k] for r in results.values())
              for k in ("nodes", "memo_lookups", "memo_hits", "tail_calls", "tail_steps")}
        ok = red.total({u: r[1] for u, r in results.items()}) == ref.total
        print(f"| {mb} | {at} | {tail} | {cpu:.2f} | {st['nodes']:,} | {st['memo_lookups']:,} "
              f"| {st['memo_hits']:,} | {st['tail_calls']:,} | {st['tail_steps']:,} "
              f"| {'yes' if ok else 'NO'} |", flush=True)


def _quiet(fn, *a):
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*a)


def cmd_sample(args) -> None:
    red = REDUCTIONS[args.reduction](f"1x{args.order}")
    t0 = time.process_time()
    specs = red.units()
    setup = time.process_time() - t0
    ids = [int(x) for x in args.units.split(",")] if args.units else \
        [round(i * (len(specs) - 1) / (args.n_sample - 1)) for i in range(args.n_sample)]
    print(f"machine: {machine()}")
    print(f"order {args.order}, reduction {red.name}: {len(specs):,} units (computed in "
          f"{setup:.1f} s CPU); counting units {ids} with {args.workers} processes, "
          f"memo {args.memo_mb} MiB, memo at {args.memo_at}, time box {args.time_box} s")
    results, wall = run([specs[i] for i in ids], args.workers, args.memo_mb,
                        _memo_at(args.memo_at), args.tail, args.time_box)
    done = [results[i] for i in ids if i in results]
    print(f"{len(done)} of {len(ids)} units finished in {wall:.0f} s wall")
    if done:
        mean = sum(r[2] for r in done) / len(done)
        est = mean * len(specs)
        print(f"mean CPU per unit {mean:.1f} s (min {min(r[2] for r in done):.1f}, "
              f"max {max(r[2] for r in done):.1f}); whole job ≈ {est:,.0f} CPU s = "
              f"{est / 3600:,.1f} CPU hours = {est / 7200:,.1f} h on 2 idle cores")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("order8", "sweep", "sample"):
        p = sub.add_parser(name)
        p.add_argument("--order", type=int, default=9 if name == "sample" else 8)
        p.add_argument("--reduction", choices=sorted(REDUCTIONS), default="cycles2")
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--memo-mb", type=float, default=64.0)
        p.add_argument("--memo-at", default="class")
        p.add_argument("--no-tail", dest="tail", action="store_false")
    sub.choices["order8"].add_argument("--csv")
    sub.choices["sweep"].add_argument(
        "--settings", default="16/class/on,64/class/on,256/class/on,1024/class/on,"
                              "64/class/off,64/all/on")
    sub.choices["sample"].add_argument("--units", default="")
    sub.choices["sample"].add_argument("--n-sample", type=int, default=4)
    sub.choices["sample"].add_argument("--time-box", type=float, default=600.0)
    args = ap.parse_args()
    {"order8": cmd_order8, "sweep": cmd_sweep, "sample": cmd_sample}[args.cmd](args)


if __name__ == "__main__":
    main()
