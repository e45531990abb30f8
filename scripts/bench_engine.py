"""Engine throughput: the 9×9 benchmark unit and the 6×6 full count.

Counts, single core:
  * the 9×9 unit with band 1 = 123456789 / 456789123 / 789123456 and
    column 1, rows 4–9 = 2,5,8,3,6,9 (6,696,000 completions), with plain
    minimum-remaining-values, with the row-by-row order, and memoized;
  * all 6×6 grids (2×3 boxes), plain and memoized.
Prints solutions/s, nodes/s and seconds per run, and the machine.

``--instructions`` instead runs a fixed small workload once, for an
instruction count that is repeatable on a shared machine (where wall
clocks are not):

    valgrind --tool=callgrind python scripts/bench_engine.py --instructions

    python scripts/bench_engine.py [--repeat 3] [--json] [--instructions]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from counting.job import describe_machine
from grids.sudoku import Sudoku

UNIT = "123456789456789123789123456" + "".join(d + "." * 8 for d in "258369")
PUZZLES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "puzzles" / "top1465_20.txt"


def fixed_workload() -> None:
    """Once each: memo + tail counts of three 9×9 units (band 1 as in UNIT,
    column 1 rows 4–9 = 258369, 235689, 893652; fresh 16 MiB table), plain
    counts of the 6×6 grids with row 1 = 123456 (minimum remaining values,
    then row order), and solve_batch(limit=2) over 20 hard 9×9 puzzles."""
    s9, s6 = Sudoku(3, 3), Sudoku(2, 3)
    for column in ("258369", "235689", "893652"):
        ec = s9.exact_cover("rows")
        grid = UNIT[:27] + "".join(d + "." * 8 for d in column)
        n = ec.count(given=s9.givens(grid), memo=True, memo_mb=16, tail=True)
        print(f"9x9 unit {column}: {n:,} ({ec.stats.nodes:,} nodes)")
    for order in (None, "rows"):
        ec = s6.exact_cover(order)
        n = ec.count(given=s6.givens("123456" + "." * 30))
        print(f"6x6 row 1 given, {order or 'MRV'}: {n:,} ({ec.stats.nodes:,} nodes)")
    counts, _ = s9.solve_batch(PUZZLES.read_text().split(), limit=2)
    print(f"20 puzzles, solutions found: {counts.tolist()}")


def bench(label: str, ec, given, memo: bool, repeat: int) -> dict:
    best = None
    for _ in range(repeat):
        if memo:
            ec.clear_memo()
        t0 = time.perf_counter()
        n = ec.count(given=given, memo=memo)
        dt = time.perf_counter() - t0
        if best is None or dt < best["seconds"]:
            st = ec.stats
            best = {"run": label, "solutions": n, "seconds": dt, "nodes": st.nodes,
                    "memo_hits": st.memo_hits, "solutions_per_s": n / dt,
                    "nodes_per_s": st.nodes / dt}
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per case; the best is kept")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--instructions", action="store_true",
                    help="run the fixed workload once (for valgrind --tool=callgrind)")
    args = ap.parse_args()
    if args.instructions:
        fixed_workload()
        return
    s9, s6 = Sudoku(3, 3), Sudoku(2, 3)
    given = s9.givens(UNIT)
    rows = [
        bench("9x9 unit, plain MRV", s9.exact_cover(), given, False, args.repeat),
        bench("9x9 unit, plain, row order", s9.exact_cover("rows"), given, False, args.repeat),
        bench("9x9 unit, memo, row order", s9.exact_cover("rows"), given, True, args.repeat),
        bench("6x6 all grids, plain MRV", s6.exact_cover(), [], False, args.repeat),
        bench("6x6 all grids, plain, row order", s6.exact_cover("rows"), [], False, args.repeat),
        bench("6x6 all grids, memo, row order", s6.exact_cover("rows"), [], True, args.repeat),
    ]
    if args.json:
        print(json.dumps({"machine": describe_machine(), "runs": rows}, indent=2))
        return
    print(f"{'run':<32} {'solutions':>12} {'seconds':>9} {'solutions/s':>14} {'nodes/s':>14}")
    for r in rows:
        print(f"{r['run']:<32} {r['solutions']:>12,} {r['seconds']:>8.3f}s "
              f"{r['solutions_per_s']:>12,.0f}/s {r['nodes_per_s']:>12,.0f}/s")
    m = describe_machine()
    print(f"\nmachine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, "
          f"{m['os']}, Python {m['python']}, engine {m['engine_version']}")


if __name__ == "__main__":
    main()
