"""The 2-factor route end to end on 2x5 (issue 36): every pattern class's
``F_5`` by the kernel, ``F_4`` by 2-factors or by the rooted recurrence.

``grids = Σ_class weight · F_5(class)²`` (``counting.reduction.patterns2``:
its classes, their weights) with ``F_5 = 5·Σ_{M∋e} F_4(Q − M)`` memoised by
the kernel's canonical form, one process, one thread.  The two kernels run
in interleaved pairs (``--pairs``), each from an empty memo; the script
prints each run's CPU seconds, the medians and their ratio, and checks the
total against the published one.

    python scripts/bench_two_factor_2x5.py --pairs 3
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from counting.published import lookup
from counting.reduction.patterns2 import pattern_classes
from factorization import FactorizationCounter, count_factorizations
from factorization.kernel import Kernel


def total(two_factor: bool, classes, memo_mb: float) -> tuple[int, float]:
    """Grids of 2x5 and the CPU seconds of the counts (classes given)."""
    counter = FactorizationCounter(10, memo_mb=memo_mb)
    counter.kernel = Kernel(10, memo_mb, two_factor=two_factor)
    t0 = time.process_time()
    grids = sum(c.weight * count_factorizations(c.representative, counter=counter) ** 2
                for c in classes)
    return grids, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--memo-mb", type=float, default=256.0)
    args = ap.parse_args()
    t0 = time.process_time()
    classes = pattern_classes(5)
    print(f"{len(classes):,} pattern classes of 2x5 in {time.process_time() - t0:,.2f} s CPU; "
          f"load average {os.getloadavg()[0]:.1f}; memo {args.memo_mb:,.0f} MiB")
    times = {True: [], False: []}
    for i in range(args.pairs):
        for two_factor in (False, True):
            grids, t = total(two_factor, classes, args.memo_mb)
            assert grids == lookup("2x5").total, f"{grids:,} is not the published total"
            times[two_factor].append(t)
            print(f"pair {i + 1}: F_4 by {'2-factors ' if two_factor else 'recurrence'} "
                  f"{t:,.2f} s CPU, {grids:,} grids (the published total)")
    old, new = statistics.median(times[False]), statistics.median(times[True])
    print(f"medians: recurrence {old:,.2f} s, 2-factors {new:,.2f} s CPU: {old / new:,.2f} × "
          f"faster; load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
