"""Plain vs memoized vs memo + tail counting on a few 9×9 units.

Nodes, memo hits, tail calls and seconds per unit, one core, 16 MiB memo
table emptied before each unit (so no unit profits from another).

    python scripts/bench_memo.py [--units 0,5,13,355,709] [--reduction 71]
"""
from __future__ import annotations

import argparse

from counting.reduction import get_reduction
from counting.job import describe_machine
from counting.options import CountOptions
from counting.run.counter import count_unit
from grids.sudoku import Sudoku


def _memo_tail(spec):
    """Memo + tail count of ``spec`` on a fresh matrix (so a fresh table):
    (count, SearchStats); the stats carry the tail calls, which
    ``count_unit``'s result does not."""
    sud = Sudoku.from_shape(spec.shape)
    ec = sud.exact_cover(priority="rows")
    given = [sud.row_index(r, c, d) for r, c, d in spec.givens]
    return ec.count(given=given, memo=True, memo_mb=16, tail=True), ec.stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", default="0,5,13,355,709")
    ap.add_argument("--reduction", default="71")
    args = ap.parse_args()
    specs = get_reduction("3x3", args.reduction).units()
    m = describe_machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, "
          f"Python {m['python']}, engine {m['engine_version']}; one core, 16 MiB memo\n")
    print("| unit | count | plain nodes | plain s | memo nodes | memo hits | memo s "
          "| memo+tail nodes | memo+tail hits | tail calls | memo+tail s "
          "| memo speed-up | memo+tail speed-up |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for u in (int(x) for x in args.units.split(",")):
        plain = count_unit(specs[u], CountOptions(memo=False))
        memo = count_unit(specs[u], CountOptions(memo=True, memo_mb=16, tail=False),
                          fresh_memo=True)
        count, tail = _memo_tail(specs[u])
        assert plain.count == memo.count == count, (u, plain.count, memo.count, count)
        print(f"| {u} | {memo.count:,} | {plain.nodes:,} | {plain.seconds:.2f} | "
              f"{memo.nodes:,} | {memo.memo_hits:,} | {memo.seconds:.3f} | "
              f"{tail.nodes:,} | {tail.memo_hits:,} | {tail.tail_calls:,} | "
              f"{tail.seconds:.3f} | {plain.seconds / memo.seconds:.0f}× | "
              f"{plain.seconds / tail.seconds:.0f}× |", flush=True)


if __name__ == "__main__":
    main()
