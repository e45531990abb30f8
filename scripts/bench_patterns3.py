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
    """What 4x3 needs that exists: codes, the normalising table, K; and the
    kernel's seconds per term when each prefix reads its own table row from
    memory (synthetic tables of 4x3's sizes, fixed seed: the regime of a
    4x3 row table, which is far larger than any cache)."""
    import numpy as np

    from bandtables import _contract
    from bandtables.estimate import job_size
    from bandtables.partitions import compatible_pairs, normalisers, unordered_codes
    t0 = time.perf_counter()
    U = len(unordered_codes(4))
    _, act = normalisers(4)
    t1 = time.perf_counter()
    K = len(compatible_pairs(np.repeat(np.arange(3), 4), 4)[0])
    size = job_size(4)
    assert (U, K) == (size["U"], size["K"])
    rng = np.random.default_rng(2026)
    T = rng.integers(0, 1 << 26, size=U * U, dtype=np.uint64)      # one row per prefix
    b = rng.integers(0, U, size=(3, K), dtype=np.uint16)
    c = rng.integers(0, U, size=(3, K), dtype=np.uint16)
    n0 = 8
    t2 = time.perf_counter()
    _contract.contract(act, T, b, c, 0, n0)
    ns = (time.perf_counter() - t2) / (n0 * K * K) * 1e9
    return {"U": U, "K": K, "act_MiB": act.nbytes / 2 ** 20, "act_s": t1 - t0,
            "terms_per_unit": size["terms_per_unit"],
            "classes_lower_bound": size["classes_lower_bound"],
            "row_table_MiB": T.nbytes / 2 ** 20, "ns_per_term_rows_in_memory": ns,
            "core_hours_at_lower_bound": size["classes_lower_bound"]
            * size["terms_per_unit"] * ns * 1e-9 / 3600}


def r5_size() -> dict:
    """5x3: sizes only (nothing is built)."""
    from bandtables.estimate import job_size
    return job_size(5)


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
        print(json.dumps({k: str(v) for k, v in r5_size().items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
