"""Benchmark the 1-factorization counter (:mod:`factorization`).

Standalone; prints Markdown rows for ``results/bench_factorization.md``.
Run under ``nice`` on a shared machine.

    python scripts/bench_factorization.py squares 9 --workers 2
    python scripts/bench_factorization.py squares 8 --memo-min 5
    python scripts/bench_factorization.py units 9 5
    python scripts/bench_factorization.py patterns 2x5 --workers 2
    python scripts/bench_factorization.py estimate-pattern 2x6 --sample 3 --children 30
    python scripts/bench_factorization.py estimate-unit 10 7 --sample 3 --children 20
    python scripts/bench_factorization.py canon 9 4 --graphs 2000
    python scripts/bench_factorization.py model 10
    python scripts/bench_factorization.py estimates 1x9 --count
    python scripts/bench_factorization.py estimates 1x10 1x11 2x6

``squares`` counts ``L_n`` (one process, or a pool over :func:`latin_units`)
and prints wall, CPU (this process and its children), peak RSS and the memo
figures, with the published value beside it (:mod:`counting.published`,
never read by the counter).  ``units`` unfolds ``L_n`` to a degree and prints
the number of units.  ``patterns`` counts every ``patterns2`` unit of a
two-band shape as ``F_R(G_P) / R!`` (a pool of its own, one memo per worker)
and its total.  ``estimate-pattern`` and ``estimate-unit`` time a sample of
``F_{d-1}`` children of sampled units (``F_d = d · Σ_{M ∋ e} F_{d-1}``) and
extrapolate to the unit, with a fresh memo per unit (an upper bound when
units share classes).  ``canon`` times the kernel's canonical form against
pynauty's certificate (when installed) on random regular graphs.  ``model``
prints, per degree, the labelled regular graphs over ``(n!)^2`` (about the
number of classes: most have no automorphism) and the mean number of rooted
children, whose products estimate the work of ``L_n``.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import platform
import random
import resource
import statistics
import time

import sys
from pathlib import Path

import numpy as np

# this checkout's packages first (the installed gridcount may be another tree)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from counting.published import lookup
from factorization import FactorizationCounter, count_factorizations, latin_squares, latin_units
from factorization.kernel import Kernel, key_to_adj


def _cpu() -> float:
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def _rss_mib() -> float:
    """Peak RSS of this process and of its largest child (MiB)."""
    s = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(s, c) / 1024


def _machine() -> str:
    return (f"{platform.processor() or platform.machine()}, {mp.cpu_count()} cores, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
            f"load {os.getloadavg()[0]:.1f}")


def squares(args):
    stats: dict = {}
    t0, c0 = time.time(), _cpu()
    value = latin_squares(args.n, memo_mb=args.memo_mb, workers=args.workers, stats=stats,
                          unit_degree=args.unit_degree) if args.memo_min == 4 else \
        FactorizationCounter(args.n, args.memo_mb, args.memo_min).count(
            np.full(args.n, (1 << args.n) - 1, dtype=np.uint32), args.n)
    wall, cpu = time.time() - t0, _cpu() - c0
    pub = lookup(f"1x{args.n}")
    print(f"machine: {_machine()}")
    print("| n | workers | memo_min | wall s | CPU s | peak RSS MiB | memo entries | memo MiB "
          "| canon calls | matchings | units | = published |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| {args.n} | {args.workers} | {args.memo_min} | {wall:.1f} | {cpu:.1f} | "
          f"{_rss_mib():.0f} | {stats.get('entries', '-')} | "
          f"{stats.get('bytes', 0) / 2 ** 20:.0f} | {stats.get('canon_calls', '-')} | "
          f"{stats.get('matchings', '-')} | {stats.get('units', '-')} | "
          f"{pub is not None and pub.total == value} |")
    print(f"L_{args.n} = {value:,}")


def units(args):
    t0, c0 = time.time(), _cpu()
    us = latin_units(args.n, args.degree)
    print(f"n={args.n} degree={args.degree}: {len(us)} units, {time.time() - t0:.1f} s wall, "
          f"{_cpu() - c0:.1f} s CPU, weights sum {sum(u.weight for u in us):,}")


_W: FactorizationCounter | None = None


def _pattern_init(n, memo_mb):
    global _W
    _W = FactorizationCounter(n, memo_mb)


def _pattern_count(spec):
    t = time.process_time()
    value = count_factorizations(spec.column_sets, counter=_W)
    return spec.unit_id, value, time.process_time() - t


def patterns(args):
    from counting.reduction import get_reduction
    red = get_reduction(args.shape, "patterns2")
    R = red.rows
    specs = red.units()
    if args.limit:
        specs = specs[:args.limit]
    t0, c0 = time.time(), _cpu()
    with mp.get_context("fork").Pool(args.workers, _pattern_init,
                                     (2 * R, args.memo_mb / args.workers)) as pool:
        results = list(pool.imap_unordered(_pattern_count, specs, chunksize=4))
    wall, cpu = time.time() - t0, _cpu() - c0
    counts = {uid: v // math.factorial(R) for uid, v, _ in results}
    secs = sorted(s for _, _, s in results)
    pub = lookup(args.shape)
    total = red.total(counts) if len(counts) == red.n_units() else None
    print(f"machine: {_machine()}")
    print("| shape | units | workers | wall s | CPU s | peak RSS MiB | unit CPU s: median / mean "
          "/ max | total = published |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    print(f"| {args.shape} | {len(specs)} | {args.workers} | {wall:.1f} | {cpu:.1f} | "
          f"{_rss_mib():.0f} | {statistics.median(secs):.3f} / {statistics.mean(secs):.3f} / "
          f"{secs[-1]:.3f} | {None if total is None else (pub is not None and pub.total == total)} |")
    slow = sorted(results, key=lambda r: -r[2])[:3]
    print("slowest units:", ", ".join(f"{u} ({s:.2f} s)" for u, _, s in slow))
    if total is not None:
        print(f"total {total:,}")


def _estimate(counter: FactorizationCounter, adj, d, n_children, rng):
    """(children of the rooted recurrence, distinct classes among them, mean
    CPU s of F_{d-1} on a sample of the distinct ones, estimate of F_d's CPU s)."""
    t = time.process_time()
    kids, mult = counter.children(adj, rooted=True)
    t_children = time.process_time() - t
    pick = rng.sample(range(len(kids)), min(n_children, len(kids)))
    times = []
    for i in pick:
        t = time.process_time()
        counter.count(key_to_adj(tuple(int(w) for w in kids[i]), counter.n), d - 1)
        times.append(time.process_time() - t)
    mean = statistics.mean(times)
    return int(mult.sum()), len(kids), mean, t_children + mean * len(kids)


def estimate_pattern(args):
    from counting.reduction import get_reduction
    red = get_reduction(args.shape, "patterns2")
    R = red.rows
    rng = random.Random(args.seed)
    print(f"machine: {_machine()}")
    print("| sample | children (M ∋ e) | distinct | mean CPU s per child F_{R-1} | est. CPU s "
          "per unit | memo entries |")
    print("|---:|---:|---:|---:|---:|---:|")
    ests = []
    for j, spec in enumerate(red.sample_units(args.sample, seed=args.seed)):
        counter = FactorizationCounter(2 * R, args.memo_mb)
        adj = np.array([sum(1 << (x - 1) for x in s) for s in spec.column_sets], dtype=np.uint32)
        m, k, mean, est = _estimate(counter, adj, R, args.children, rng)
        ests.append(est)
        print(f"| {j} | {m} | {k} | {mean:.3f} | {est:.0f} | {counter.stats()['entries']} |")
    n_units, exact = red.n_units_bound()
    print(f"mean {statistics.mean(ests):.0f} CPU s per unit; units {'=' if exact else '>='} "
          f"{n_units}: {statistics.mean(ests) * n_units / 3600:.3g} core-hours")


def estimate_unit(args):
    rng = random.Random(args.seed)
    t = time.time()
    us = latin_units(args.n, args.degree)
    print(f"machine: {_machine()}")
    print(f"n={args.n}: {len(us)} units at degree {args.degree} ({time.time() - t:.1f} s)")
    print("| unit | weight | children | distinct | mean CPU s per child | est. CPU s | entries |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    ests = []
    for u in rng.sample(us, min(args.sample, len(us))):
        counter = FactorizationCounter(args.n, args.memo_mb)
        m, k, mean, est = _estimate(counter, key_to_adj(u.key, args.n), args.degree,
                                    args.children, rng)
        ests.append(est)
        print(f"| {u.unit_id} | {u.weight:.3g} | {m} | {k} | {mean:.3f} | {est:.0f} | "
              f"{counter.stats()['entries']} |")
    print(f"mean {statistics.mean(ests):.0f} CPU s per unit (fresh memo each) x {len(us)} units"
          f" = {statistics.mean(ests) * len(us) / 3600:.3g} core-hours (no sharing between units)")


def _labelled_regular(n: int, d: int) -> int:
    """Number of n x n 0-1 matrices with every line sum d (rows placed one at
    a time; the state is the sorted multiset of column sums still needed)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def rows(left: int, need: tuple) -> int:
        if left == 0:
            return int(all(x == 0 for x in need))
        # choose how many columns of each distinct remaining need get a 1
        values = sorted(set(need))
        mult = [need.count(v) for v in values]
        total = 0

        def pick(i, ones, new, ways):
            nonlocal total
            if i == len(values):
                if ones == d:
                    total += ways * rows(left - 1, tuple(sorted(new)))
                return
            v, m = values[i], mult[i]
            for t in range(0, min(m, d - ones) + 1):
                if t and v == 0:
                    break
                pick(i + 1, ones + t, new + [v - 1] * t + [v] * (m - t),
                     ways * math.comb(m, t))

        pick(0, 0, [], 1)
        return total

    return rows(n, (d,) * n)


def _random_regular(n: int, d: int, rng: random.Random) -> np.ndarray:
    """A random d-regular bipartite graph on n + n, as the kernel's uint32
    column masks: the union of d disjoint random permutations (each drawn
    again until it misses the edges so far)."""
    adj = [0] * n
    for _ in range(d):
        while True:
            p = rng.sample(range(n), n)
            if all(not adj[c] >> p[c] & 1 for c in range(n)):
                break
        for c in range(n):
            adj[c] |= 1 << p[c]
    return np.array(adj, dtype=np.uint32)


def model(args):
    """Work model of the top-down count: classes N_d at each degree times
    rooted children r_d, calibrated on what the kernel measures."""
    rng = random.Random(args.seed)
    n = args.n
    print(f"| d | labelled d-regular | labelled / (n!)^2 | rooted children r_d (mean of "
          f"{args.sample}) | N_d·r_d |")
    print("|---:|---:|---:|---:|---:|")
    kernel = Kernel(n, 0.0)
    work = 0.0
    for d in range(n - 1, 2, -1):
        lab = _labelled_regular(n, min(d, n - d))
        classes = max(1.0, lab / math.factorial(n) ** 2)
        kids = [len(kernel.children(_random_regular(n, d, rng), True)) for _ in range(args.sample)]
        r = statistics.mean(kids)
        if d >= 4:
            work += classes * r
        print(f"| {d} | {lab:,} | {classes:.3g} | {r:.0f} | {classes * r:.3g} |")
    print(f"child visits (degrees >= 4, canonical form + memo lookup each): {work:.3g}")


def canon(args):
    rng = random.Random(args.seed)
    n, d = args.n, args.degree
    kernel = Kernel(n, 0.0)
    graphs = [_random_regular(n, d, rng) for _ in range(args.graphs)]
    t = time.process_time()
    keys = {kernel.canonical(g) for g in graphs}
    own = (time.process_time() - t) / len(graphs)
    print(f"own canonical form: {own * 1e6:.1f} µs per graph (Python call included), "
          f"{len(keys)} classes among {len(graphs)}")
    try:
        import pynauty
    except ImportError:
        print("pynauty not installed (pip install gridcount[nauty])")
        return
    t = time.process_time()
    certs = set()
    for g in graphs:
        adjd = {c: [n + s for s in range(n) if int(g[c]) >> s & 1] for c in range(n)}
        gr = pynauty.Graph(2 * n, adjacency_dict=adjd,
                           vertex_coloring=[set(range(n)), set(range(n, 2 * n))])
        certs.add(pynauty.certificate(gr))
    nauty = (time.process_time() - t) / len(graphs)
    print(f"pynauty certificate: {nauty * 1e6:.1f} µs per graph (graph built in Python), "
          f"{len(certs)} classes")


def estimates(args):
    """The estimates ``gridcount count`` prints (:func:`counting.reach.job_cost`,
    the kernel's figures), one Markdown row a job; ``--count`` also counts
    the job (orders up to 9) to set the estimate beside the measured CPU."""
    from counting.options import CountOptions
    from counting.reach import job_cost
    from counting.reduction import get_reduction
    print(f"machine: {_machine()}")
    print("| job | units | CPU s a unit | core-hours | memo MiB a worker | workers for a day "
          "| estimate wall s | measured CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for shape in args.shapes:
        red = get_reduction(shape, args.reduction)
        t = time.perf_counter()
        c = job_cost(red, CountOptions(memo_mb=args.memo_mb), sample=args.sample,
                     seed=args.seed, max_seconds=args.max_seconds)
        wall = time.perf_counter() - t
        measured = "—"
        if args.count:
            before = _cpu()
            counter = FactorizationCounter(red.shape.n, args.memo_mb)
            total = sum(u.weight * count_factorizations(u.column_sets, counter=counter)
                        for u in red.units())
            measured = f"{_cpu() - before:,.1f}"
            assert total == lookup(shape).total
        memo = "—" if c.memory is None else f"{c.memory_mib(1):,.0f}"
        print(f"| {shape} {red.name} | {'' if c.units_exact else '≥ '}{c.units:,} | "
              f"{c.unit_seconds:.3g} | {c.cpu_seconds / 3600:,.3g} | {memo} | "
              f"{c.workers_for_a_day():,} | {wall:,.0f} | {measured} |", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("squares")
    p.add_argument("n", type=int)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--memo-mb", type=float, default=256.0)
    p.add_argument("--memo-min", type=int, default=4)
    p.add_argument("--unit-degree", type=int, default=None)
    p.set_defaults(func=squares)
    p = sub.add_parser("units")
    p.add_argument("n", type=int)
    p.add_argument("degree", type=int)
    p.set_defaults(func=units)
    p = sub.add_parser("patterns")
    p.add_argument("shape")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--memo-mb", type=float, default=256.0)
    p.add_argument("--limit", type=int, default=0)
    p.set_defaults(func=patterns)
    for name, func in (("estimate-pattern", estimate_pattern), ("estimate-unit", estimate_unit)):
        p = sub.add_parser(name)
        if name == "estimate-pattern":
            p.add_argument("shape")
        else:
            p.add_argument("n", type=int)
            p.add_argument("degree", type=int)
        p.add_argument("--sample", type=int, default=3)
        p.add_argument("--children", type=int, default=20)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--memo-mb", type=float, default=1024.0)
        p.set_defaults(func=func)
    p = sub.add_parser("estimates")
    p.add_argument("shapes", nargs="+")
    p.add_argument("--reduction", default=None)
    p.add_argument("--sample", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-seconds", type=float, default=6.0)
    p.add_argument("--memo-mb", type=float, default=256.0)
    p.add_argument("--count", action="store_true")
    p.set_defaults(func=estimates)
    p = sub.add_parser("model")
    p.add_argument("n", type=int)
    p.add_argument("--sample", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=model)
    p = sub.add_parser("canon")
    p.add_argument("n", type=int)
    p.add_argument("degree", type=int)
    p.add_argument("--graphs", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=canon)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
