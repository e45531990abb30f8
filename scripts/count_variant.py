"""Count the grids of a kind with the prefix reduction, in a pool of processes.

Every finished unit is appended to a CSV (``unit_id,weight,count,seconds``)
as it arrives, so an interrupted run resumes where it stopped (units already
in the CSV are skipped).  At the end the total is printed with the wall time.
With ``--shuffle SEED`` the units are counted in a seeded random order, so
the units done at any time are a uniform sample of all of them and the
partial report includes the sample estimate of the total,
``N!·(number of units)·mean(weight·count)``, with its standard error.
Until the reduction is registered with the job and store
(:mod:`counting.reduction.registry`), this script is how a variant count runs.

    nice python scripts/count_variant.py 3x3+windoku --prefix rows=2 --workers 2 \\
        --csv results/3x3+windoku-prefix.csv
"""
from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import math
import os
import random
import time

from counting.reduction.prefix import PrefixReduction

_RED: dict = {}


def _count(args):
    kind, prefix, order, unit = args
    key = (kind, prefix, order)
    if key not in _RED:
        _RED[key] = PrefixReduction(kind, prefix, order)
    t = time.perf_counter()
    count = _RED[key].count(unit, memo_mb=256)
    return unit.unit_id, unit.weight, count, time.perf_counter() - t


def report(red, units, done: dict, first: int) -> None:
    """The exact sum over units ``0..first-1`` plus the sample estimate of the rest."""
    exact = [u.weight * done[u.unit_id] for u in units[:first]]
    sample = [u.weight * done[u.unit_id] for u in units[first:] if u.unit_id in done]
    rest, m = len(units) - first, len(sample)
    mean = sum(sample) / m
    sd = math.sqrt(sum((t - mean) ** 2 for t in sample) / (m - 1))
    se = rest * sd / math.sqrt(m) * math.sqrt(1 - m / rest)
    print(f"{len(done)}/{len(units)} units: units 0..{first - 1} exact, {m} of the other {rest} "
          f"as a uniform sample")
    print(f"estimate {red.factor * (sum(exact) + rest * mean):,.0f} ± {red.factor * se:,.0f} "
          f"(1 s.e.)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind")
    ap.add_argument("--prefix", default="rows=2")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--row-order", default=None, help="rows in the order filled, 0-based: 0,1,8,4,2,3,5,6,7")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--limit", type=int, default=None, help="count at most this many new units")
    ap.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                    help="count the units in this seeded random order")
    ap.add_argument("--report", type=int, default=None, metavar="K",
                    help="count nothing: report the CSV, units 0..K-1 having been counted in "
                         "order (exact) and the rest in a random order (a uniform sample)")
    a = ap.parse_args()
    t0 = time.time()
    order = None if a.row_order is None else tuple(int(v) for v in a.row_order.split(","))
    red = PrefixReduction(a.kind, a.prefix, order)
    units = red.units()
    done = {}
    if os.path.exists(a.csv):
        with open(a.csv) as f:
            for row in csv.DictReader(f):
                done[int(row["unit_id"])] = int(row["count"])
    if a.report is not None:
        report(red, units, done, a.report)
        return
    todo = [u for u in units if u.unit_id not in done]
    if a.shuffle is not None:
        random.Random(a.shuffle).shuffle(todo)
    todo = todo[:a.limit]
    print(f"{a.kind} prefix {a.prefix}: {len(units)} units, {len(done)} done, {len(todo)} to count,"
          f" setup {time.time() - t0:.1f} s", flush=True)
    new = not os.path.exists(a.csv)
    with open(a.csv, "a", newline="") as f, mp.get_context("spawn").Pool(a.workers) as pool:
        w = csv.writer(f)
        if new:
            w.writerow(["unit_id", "weight", "count", "seconds"])
        for k, (uid, weight, count, secs) in enumerate(pool.imap_unordered(
                _count, [(a.kind, a.prefix, order, u) for u in todo], chunksize=1)):
            w.writerow([uid, weight, count, f"{secs:.2f}"])
            f.flush()
            done[uid] = count
            if k % 20 == 0:
                print(f"{len(done)}/{len(units)} units, {time.time() - t0:.0f} s", flush=True)
    if len(done) == len(units):
        print(f"total {red.total(done):,} ({time.time() - t0:.0f} s wall)")
    else:
        terms = [u.weight * done[u.unit_id] for u in units if u.unit_id in done]
        print(f"partial: {len(done)}/{len(units)} units, partial sum {red.factor * sum(terms):,}")
        if len(terms) > 1:
            mean = sum(terms) / len(terms)
            sd = math.sqrt(sum((t - mean) ** 2 for t in terms) / (len(terms) - 1))
            fpc = math.sqrt(1 - len(terms) / len(units))      # sampling without replacement
            scale = red.factor * len(units)
            print(f"sample estimate (valid if the units done are a uniform sample): "
                  f"{scale * mean:.6e} ± {scale * sd / math.sqrt(len(terms)) * fpc:.2e}")


if __name__ == "__main__":
    main()
