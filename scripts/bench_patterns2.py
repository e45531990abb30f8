"""Benchmark the ``patterns2`` reduction: the 2×5 count, the tail's effect, a 2×6 estimate.

Standalone (a process pool of its own, no store): it calls
:mod:`counting.reduction.patterns2` and prints Markdown for
``results/bench_patterns2.md``.

    python scripts/bench_patterns2.py count 2x5 --workers 2 --csv results/5x2-units.csv
    python scripts/bench_patterns2.py tail 5x2 --classes 0,1,100,200,300
    python scripts/bench_patterns2.py depths 5x2 --classes 0,100,200,300
    python scripts/bench_patterns2.py estimate 2x6 --sample 12 --seed 1 --limit 3600

``count`` counts every unit (longest first: ascending class size, since the
most symmetric patterns have the most rectangles), then prints wall time,
CPU time (the workers' process time), peak memory, per-unit time statistics
and the total against the published one; ``--csv`` writes per-unit counts in
the columns of ``gridcount export``.  ``tail`` counts some classes with a
fresh memo table with memo + tail and with memo only; ``depths`` does so for
every number of rows handed to the tail (0: memo only).  ``estimate`` times the
class enumeration, counts a seeded uniform sample of classes (each stopped
after ``--limit`` seconds, reported as a lower bound), and extrapolates the
mean to every class in core-hours and Dask workers for one day.
"""
from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import platform
import random
import resource
import statistics
import sys
import time

from counting.options import CountOptions
from counting.reach import JobCost
from counting.reduction.patterns2 import TwoBandPatternReduction, pattern_classes
from counting.run.counter import count_unit
from dlx.estimate import estimate as knuth_estimate
from dlx.pools import map_unordered
from grids.rectangle import ColumnSetRectangles

#: Reference totals (Wikipedia "Mathematics of Sudoku", rectangular boxes;
#: Pettersen and Russell), for printing beside the computed ones.
PUBLISHED = {5: 1_903_816_047_972_624_930_994_913_280_000,
             6: 38_296_278_920_738_107_863_746_324_732_012_492_486_187_417_600_000}
CSV_FIELDS = ["unit_id", "class_id", "form_id", "weight", "count", "nodes", "dead_ends",
              "memo_hits", "seconds", "host", "engine_version", "finished_at"]


def _count(args):
    """Worker: count one unit; return its result and the CPU seconds it took."""
    shape, spec, options = args
    t = time.process_time()
    result = count_unit(spec, options)
    return result, time.process_time() - t


def _machine() -> str:
    return (f"{platform.processor() or platform.machine()}, {mp.cpu_count()} cores, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}")


def _peak_rss_mib() -> float:
    """Largest resident set of this process or any finished child, MiB."""
    return max(resource.getrusage(who).ru_maxrss for who in
               (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024


def _run(red, specs, workers, options):
    """Count specs with a spawn pool; yield (result, cpu) as they finish."""
    jobs = [(red.shape.name, s, options) for s in specs]
    if workers == 1:
        yield from map(_count, jobs)
        return
    yield from map_unordered(_count, jobs, workers)


def count(args) -> None:
    red = TwoBandPatternReduction(args.shape)
    options = CountOptions(memo_mb=args.memo_mb)
    t0 = time.perf_counter()
    specs = sorted(red.units(), key=lambda u: (u.weight, u.unit_id))
    setup = time.perf_counter() - t0
    results = {}
    for k, (result, cpu) in enumerate(_run(red, specs, args.workers, options), 1):
        results[result.unit_id] = (result, cpu)
        if k % 25 == 0 or k == len(specs):
            print(f"  {k}/{len(specs)} units, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    wall = time.perf_counter() - t0
    total = red.total({u: r.count for u, (r, _) in results.items()})
    cpus = [cpu for _, cpu in results.values()]
    secs = sorted(r.seconds for r, _ in results.values())
    published = PUBLISHED.get(red.rows)
    print(f"machine: {_machine()}\n")
    print("| shape | units | workers | wall | classes | CPU (units) | peak RSS | "
          f"unit s: median / mean / max | total = published |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    print(f"| {red.shape.name} | {len(specs)} | {args.workers} | {wall:.1f} s | {setup:.1f} s | "
          f"{sum(cpus):.1f} s | {_peak_rss_mib():.0f} MiB | {statistics.median(secs):.2f} / "
          f"{statistics.fmean(secs):.2f} / {secs[-1]:.2f} | {total == published} |")
    print(f"\ntotal {total:,}\n")
    slow = sorted(results.values(), key=lambda rc: -rc[0].seconds)[:5]
    print("slowest units: " + ", ".join(f"{r.unit_id} ({r.seconds:.1f} s, count {r.count:,})"
                                        for r, _ in slow))
    if args.csv:
        weight = {u.unit_id: u.weight for u in specs}
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(CSV_FIELDS)
            for u in sorted(results):
                r = results[u][0]
                w.writerow([r.unit_id, r.class_id, r.form_id, weight[u], r.count, r.nodes,
                            r.dead_ends, r.memo_hits, f"{r.seconds:.6f}", r.host,
                            r.engine_version, r.finished_at])


def tail(args) -> None:
    red = TwoBandPatternReduction(args.shape)
    specs = [red.units()[int(i)] for i in args.classes.split(",")]
    print(f"machine: {_machine()}\n")
    print("| class | weight | count | memo + tail CPU | memo only CPU | speed-up |")
    print("|---:|---:|---:|---:|---:|---:|")
    for spec in specs:
        cpu = {}
        for label, options in (("both", CountOptions(memo_mb=args.memo_mb)),
                               ("memo", CountOptions(memo_mb=args.memo_mb, tail=False))):
            t = time.process_time()
            n = count_unit(spec, options, fresh_memo=True).count
            cpu[label] = (time.process_time() - t, n)
        assert cpu["both"][1] == cpu["memo"][1]
        print(f"| {spec.unit_id} | {spec.weight:,} | {cpu['both'][1]:,} | {cpu['both'][0]:.2f} s "
              f"| {cpu['memo'][0]:.2f} s | {cpu['memo'][0] / cpu['both'][0]:.1f}x |", flush=True)


def depths(args) -> None:
    red = TwoBandPatternReduction(args.shape)
    R = red.rows
    rect = ColumnSetRectangles(R, 2 * R)
    specs = [red.units()[int(i)] for i in args.classes.split(",")]
    print(f"machine: {_machine()}\n")
    print("| tail rows | " + " | ".join(f"class {s.unit_id}" for s in specs) + " |")
    print("|---:|" + "---:|" * len(specs))
    for tail_rows in range(R + 1):
        ec = rect.exact_cover(tail_rows=tail_rows)
        cells = []
        for spec in specs:
            ec.clear_memo()
            t = time.process_time()
            ec.count(given=rect.givens(spec.column_sets, order_rows=True), memo=True,
                     memo_mb=args.memo_mb, tail=tail_rows > 0)
            cells.append(f"{time.process_time() - t:.2f} s")
        print(f"| {tail_rows}{' (memo only)' if not tail_rows else ''} | "
              + " | ".join(cells) + " |", flush=True)


def _probe(args):
    """Worker: estimate one unit's count (Knuth), then count it for at most
    ``limit`` CPU seconds and extrapolate its CPU time from the share of
    the count found by then (a lower share than the time share if the memo
    table pays off later, so an overestimate)."""
    import signal
    spec, depth, probes, seed, limit, memo_mb = args
    R = len(spec.column_sets[0])
    rect = ColumnSetRectangles(R, 2 * R)
    ec = rect.exact_cover()
    guess = knuth_estimate(ec, given=rect.givens(spec.column_sets, order_rows=True),
                           probes=probes, seed=seed, memo=True, memo_mb=memo_mb, tail=True)
    estimate, error = guess.count, guess.count_se

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGPROF, stop)
    ec.clear_memo()
    t = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        found = ec.count(given=rect.givens(spec.column_sets, order_rows=True), memo=True,
                         memo_mb=memo_mb, tail=True)
        done = True
    except KeyboardInterrupt:
        found, done = ec.stats.solutions, False
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    cpu = time.process_time() - t
    return (spec.unit_id, estimate, error, found, done, cpu,
            cpu if done else cpu * estimate / max(found, 1), ec.stats.tail_calls)


def estimate(args) -> None:
    red = TwoBandPatternReduction(args.shape)
    t = time.process_time()
    classes = pattern_classes(red.rows)
    enum_cpu = time.process_time() - t
    rng = random.Random(args.seed)
    sample = sorted(rng.sample(range(len(classes)), min(args.sample, len(classes))))
    units = red.units()
    depth = max(red.rows - ColumnSetRectangles(red.rows, 2 * red.rows).default_tail_rows, 1)
    jobs = [(units[i], depth, args.probes, args.seed + i, args.limit, args.memo_mb)
            for i in sample]
    rows = sorted(map_unordered(_probe, jobs, args.workers))
    print(f"machine: {_machine()}\n")
    print(f"{red.shape.name}: {len(classes):,} classes ({len(pattern_classes(red.rows, False)):,} "
          f"before duality), enumerated in {enum_cpu:,.0f} s CPU; "
          f"{len(sample)} sampled (seed {args.seed}); count estimated from {args.probes} "
          f"probes (Knuth's estimator, dlx.estimate); each unit counted for at most {args.limit:g} s CPU\n")
    print("| class | weight | count (estimate ± s.e.) | found | CPU | CPU for the unit | "
          "tail calls |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for uid, est, err, found, done, cpu, full, calls in rows:
        print(f"| {uid} | {units[uid].weight:,} | {est:.3e} ± {err / est:.1%} | {found:,}"
              f"{'' if done else ' (stopped)'} | {cpu:,.1f} s | {full:,.0f} s"
              f"{'' if done else ' (extrapolated)'} | {calls:,} |")
    mean = statistics.fmean(r[6] for r in rows)
    cost = JobCost(red.shape.name, red.name, len(classes), True, mean, len(rows), 0.0,
                   "CPU of the sampled units, counted or extrapolated")
    core_hours = cost.cpu_seconds / 3600
    print(f"\nmean CPU per unit {mean:,.1f} s → all {len(classes):,} units: {core_hours:,.1f} "
          f"core-hours = {cost.wall_seconds(2) / 86400:,.1f} days on 2 cores; "
          f"{cost.workers_for_a_day():,} one-core Dask workers for a day")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("count", help="count every unit")
    c.add_argument("shape", nargs="?", default="2x5")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--csv", default=None)
    t = sub.add_parser("tail", help="memo + tail vs memo only, per class")
    t.add_argument("shape", nargs="?", default="5x2")
    t.add_argument("--classes", default="0,100,200,300")
    d = sub.add_parser("depths", help="CPU per class for each number of tail rows")
    d.add_argument("shape", nargs="?", default="5x2")
    d.add_argument("--classes", default="0,100,200,300")
    e = sub.add_parser("estimate", help="sample units and extrapolate")
    e.add_argument("shape", nargs="?", default="2x6")
    e.add_argument("--sample", type=int, default=12)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--limit", type=float, default=600.0)
    e.add_argument("--probes", type=int, default=100)
    e.add_argument("--workers", type=int, default=2)
    for p in (c, t, d, e):
        p.add_argument("--memo-mb", type=float, default=16.0)
    args = ap.parse_args()
    {"count": count, "tail": tail, "depths": depths, "estimate": estimate}[args.command](args)


if __name__ == "__main__":
    main()
