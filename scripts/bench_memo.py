"""Plain vs memoized counting on a few 9×9 units: nodes, memo hits, seconds.

    python scripts/bench_memo.py [--units 0,5,13,355,709]
"""
from __future__ import annotations

import argparse

from counting import reducer
from counting.job import describe_machine
from counting.pool import count_unit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", default="0,5,13,355,709")
    ap.add_argument("--reduction", default="71")
    args = ap.parse_args()
    specs = reducer.units(args.reduction)
    m = describe_machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, "
          f"Python {m['python']}, engine {m['engine_version']}; one core, 16 MiB memo\n")
    print("| unit | count | plain nodes | plain s | memo nodes | memo hits | memo s | speed-up |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for u in (int(x) for x in args.units.split(",")):
        plain = count_unit(specs[u], memo=False)
        memo = count_unit(specs[u], memo=True, memo_mb=16, fresh_memo=True)
        assert plain.count == memo.count, (u, plain.count, memo.count)
        print(f"| {u} | {memo.count:,} | {plain.nodes:,} | {plain.seconds:.2f} | "
              f"{memo.nodes:,} | {memo.memo_hits:,} | {memo.seconds:.3f} | "
              f"{plain.seconds / memo.seconds:.0f}× |", flush=True)


if __name__ == "__main__":
    main()
