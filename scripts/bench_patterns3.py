"""Benchmark the patterns3 reduction (three bands at once, band tables).

Thin: it calls :mod:`bandtables` and :mod:`counting.reduction.patterns3`
and prints what it measured.  Run it under ``nice`` on a shared machine::

    nice python scripts/bench_patterns3.py            # 2x3 and 3x3, cold
    nice python scripts/bench_patterns3.py --r4       # also the 4x3 building blocks

Each shape is counted in a fresh process (``--one SHAPE``), so "tables"
includes building every table from nothing, and "whole" is the process's
wall time from interpreter start (imports included) to the exact total.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

T_START = time.perf_counter()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # this worktree's packages, not the shared install


def one(shape: str) -> dict:
    """Count one shape from nothing in this process; timings in seconds."""
    t_imp = time.perf_counter()
    from counting.reduction.patterns3 import ThreeBandPatternReduction, tables
    red = ThreeBandPatternReduction(shape)
    t0 = time.perf_counter()
    bt = tables(red.rows)                 # act, classes, l table
    units = red.units()
    t1 = time.perf_counter()
    counts, kernel = {}, 0.0
    for u in units:
        res = red.count_unit(u)
        counts[u.unit_id] = res.count
        kernel += res.seconds
    t2 = time.perf_counter()
    total = red.total(counts)
    return {"shape": shape, "units": len(units), "K": bt.K, "terms": len(units) * bt.K ** red.rows,
            "imports_s": t0 - t_imp, "tables_s": t1 - t0, "units_s": t2 - t1,
            "contraction_s": kernel, "whole_s": time.perf_counter() - T_START,
            "total": str(total)}


def r4_blocks() -> dict:
    """What 4x3 needs that exists: codes, the normalising table, K."""
    from bandtables.partitions import compatible_pairs, normalisers, unordered_codes
    import numpy as np
    t0 = time.perf_counter()
    U = len(unordered_codes(4))
    _, act = normalisers(4)
    t1 = time.perf_counter()
    K = len(compatible_pairs(np.repeat(np.arange(3), 4), 4)[0])
    return {"U": U, "K": K, "act_MiB": act.nbytes / 2 ** 20, "act_s": t1 - t0,
            "terms_per_unit": K ** 4}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one", help="count one shape in this process (internal)")
    ap.add_argument("--r4", action="store_true", help="also time the 4x3 building blocks")
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per shape")
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one)))
        return 0
    env = dict(os.environ, PYTHONHASHSEED="0")
    for shape in ("2x3", "3x3"):
        runs = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            out = subprocess.run([sys.executable, __file__, "--one", shape], env=env,
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out)
            r["process_wall_s"] = time.perf_counter() - t
            runs.append(r)
        best = min(runs, key=lambda r: r["process_wall_s"])
        print(json.dumps(best))
    if args.r4:
        print(json.dumps(r4_blocks()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
