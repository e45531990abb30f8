"""Count a kind with one extra house of one cell per box by three-band tables (issue 35).

A thin wrapper over :func:`bandtables.kind_count.count_kind_by_band_tables`: prints the
total, the band enumerated, the band-1 orbits contracted, the wall time and the load
average before and after, and appends one tab-separated line of the same to ``--tsv``.
Run it once per enumerated band (``--first 0``, ``--first 1``): two sums that share the
code but read the bands' tables in other roles (see ``results/variants.md``).

    nice python scripts/count_kind_band_tables.py 3x3+centre --first 0 --workers 2 \\
        --tsv results/kind-band-tables.tsv
"""
from __future__ import annotations

import argparse
import os
import platform
import sys

from bandtables.kind_count import count_kind_by_band_tables


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind")
    ap.add_argument("--first", type=int, default=0, help="the band enumerated (0, 1, 2)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--columns", help="count the kind with its house moved by this "
                    "box-keeping column permutation, new column -> old, e.g. 1,0,2,4,3,5,7,6,8")
    ap.add_argument("--sample", type=int, help="contract only this many band-1 orbits, "
                    "drawn at random, and print the time the whole count would take")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tsv", help="append the result line to this file")
    a = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    try:
        columns = None if a.columns is None else [int(v) for v in a.columns.split(",")]
        r = count_kind_by_band_tables(a.kind, first=a.first, workers=a.workers, columns=columns,
                                      sample=a.sample, seed=a.seed)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    load1 = os.getloadavg()[0]
    if r.grids is None:
        est = r.estimate_seconds()
        print(f"{r.kind}: band {r.first + 1} enumerated, {r.contracted:,} of {r.band1_keys:,} "
              f"band-1 orbits contracted in {r.contract_seconds:,.1f} s wall on {a.workers} "
              f"workers (load {load0:.1f} -> {load1:.1f}): all of them would take "
              f"{est:,.0f} s = {est / 3600:,.2f} h wall ({est * a.workers / 3600:,.2f} "
              f"worker-hours), plus {r.seconds - r.contract_seconds:,.0f} s of tables")
        return 0
    line = (f"{r.kind}\t{r.grids}\t{r.first + 1}\t{a.columns or ''}\t{r.band1_keys}"
            f"\t{r.seconds:.1f}\t{a.workers}"
            f"\t{load0:.1f}\t{load1:.1f}\t{platform.processor() or platform.machine()}")
    moved = f", house moved by columns {a.columns}" if a.columns else ""
    print(f"{r.kind}: {r.grids:,} grids (band {r.first + 1} enumerated{moved}, {r.band1_keys:,} band-1 "
          f"orbits; {r.seconds:,.1f} s wall on {a.workers} workers; load {load0:.1f} -> {load1:.1f})")
    if a.tsv:
        new = not os.path.exists(a.tsv)
        with open(a.tsv, "a") as fh:
            if new:
                fh.write("kind\tgrids\tband_enumerated\tcolumns_moved\tband1_orbits\tseconds\tworkers"
                         "\tload_before\tload_after\tmachine\n")
            fh.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
