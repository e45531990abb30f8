"""A second route to A_t(g) for a 2xC unit swapping the stacks with g² = 1 and π = 1.

:mod:`counting.group.two_stack_involution` counts such a unit by classes of
patterns under ``B_C × S_N`` and a fixed-point formula.  With ``π = 1`` the
valid patterns are those whose every digit's code is fixed by ``T``
(:func:`~counting.group.two_stack_involution.pattern_element`); this script
lists every balanced multiset of such codes (no classes, no stabilisers),
weights it by its ``N!/Π mult!`` labellings and multiplies by ``F`` from the
factorization kernel:  ``A = Σ_M N!/Π mult! · F(M) / N!``.

    nice python scripts/two_stack_direct.py 2x5 41      # about 7 s
"""
from __future__ import annotations

import argparse
import math
import time

from counting.group.burnside import symmetry_units
from counting.group.two_stack_fixed import two_stack_count
from counting.group.two_stack_involution import is_stack_swapping_involution, pattern_element
from factorization.api import FactorizationCounter, count_factorizations


def direct_fixed(c: int, allowed: list[int]) -> int:
    """Σ over balanced multisets of ``2c`` codes from ``allowed`` of labellings × F."""
    n = 2 * c
    counter = FactorizationCounter(n)
    total = 0

    def walk(i: int, left: int, ones: list[int], mult: list[tuple[int, int]]) -> None:
        nonlocal total
        if left == 0:
            if all(o == c for o in ones):
                codes = [v for v, k in mult for _ in range(k)]
                sets = [[d for d, v in enumerate(codes) if (v >> b & 1) == e]
                        for b in range(c) for e in (0, 1)]
                labellings = math.factorial(n) // math.prod(math.factorial(k) for _, k in mult)
                total += labellings * count_factorizations(sets, c, counter=counter)
            return
        if i == len(allowed):
            return
        x = allowed[i]
        for k in range(left, -1, -1):
            new = [o + k * (x >> b & 1) for b, o in enumerate(ones)]
            if all(o <= c and n - left + k - o <= c for o in new):
                walk(i + 1, left - k, new, mult + ([(x, k)] if k else []))

    walk(0, n, [0] * c, [])
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape", help="2xC")
    ap.add_argument("unit", type=int)
    args = ap.parse_args()
    u = symmetry_units(args.shape)[args.unit]
    rows, cols = tuple(u.symmetry.rows), tuple(u.symmetry.cols)
    n = len(rows)
    if set(u.pi_type) != {1} or not is_stack_swapping_involution(rows, cols, tuple(range(n))):
        raise SystemExit(f"error: unit {args.unit} is not a stack-swapping involution with π = 1")
    table = pattern_element(rows).table
    t = time.perf_counter()
    direct = direct_fixed(n // 2, [x for x in range(1 << (n // 2)) if table[x] == x])
    seconds = time.perf_counter() - t
    by_classes = two_stack_count(args.shape, u.symmetry, u.pi_type, method="classes").count
    print(f"unit {args.unit}: every valid pattern {direct // math.factorial(n):,} "
          f"({seconds:,.1f} s), pattern classes {by_classes:,}: "
          f"{'equal' if direct == by_classes * math.factorial(n) else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
