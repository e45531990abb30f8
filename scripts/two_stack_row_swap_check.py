"""A closed form for 2x5's Burnside terms whose element swaps the two rows of
every band, keeps the stacks, leaves the left stack's columns alone and
relabels by a fixed-point-free involution π (type 2^5): units 12, 13 and 14
of ``counting.group.burnside.symmetry_units("2x5")``.

Write a digit as (pair p, sign s), π flipping the sign.  A fixed grid has
each band's bottom row equal to π of its top row, columns moved by κ inside
each stack; so a stack is its five top rows ``T`` (each a permutation of the
five pairs, the signs given by the row's set ``S``: one digit of each pair),
and:

* a column κ fixes holds each pair once in ``T`` (it and its π-image make
  all ten digits);
* a pair of columns (a, b) κ swaps holds each pair exactly twice in ``T``
  (column a is ``T[:, a] ∪ π T[:, b]``), and the two signs obey one parity:
  different if both in a or both in b, equal if one in each.

The parities of different pairs and columns bind different bits, so over
the 32^5 choices of the rows' sets exactly 2^(-5m) of them satisfy a given
``T`` (m the swapped column pairs): ``Σ_S FL(S) = 32^5 · #T / 2^(5m)``.
With the left stack's columns fixed its count is the Latin squares of order
5 whatever S is, so ``#fixed = L_5 · Σ_S FL_R(S)`` and ``A = #fixed / (2^5·5!)``.
``#T`` is counted row by row below (each symbol's uses in each column
group).  This checks the pattern walk's values of units 12-14 by a route
that shares nothing with it::

    python scripts/two_stack_row_swap_check.py
"""
from __future__ import annotations

import itertools
from collections import Counter

ROWS = list(itertools.permutations(range(5)))


def arrays(kappa: tuple[int, ...]) -> tuple[int, int]:
    """``#T`` for the column involution ``kappa`` and its swapped pairs."""
    fixed = [c for c in range(5) if kappa[c] == c]
    pairs = sorted({tuple(sorted((c, kappa[c]))) for c in range(5) if kappa[c] != c})
    states = Counter({((0,) * len(fixed), ((0,) * 5,) * len(pairs)): 1})
    for _ in range(5):
        new: Counter = Counter()
        for (masks, uses), w in states.items():
            for row in ROWS:
                if any(masks[i] >> row[c] & 1 for i, c in enumerate(fixed)):
                    continue
                grown = []
                for j, (a, b) in enumerate(pairs):
                    v = list(uses[j])
                    v[row[a]] += 1
                    v[row[b]] += 1
                    grown.append(tuple(v))
                if any(max(v) > 2 for v in grown):
                    continue
                new[(tuple(m | 1 << row[c] for m, c in zip(masks, fixed)), tuple(grown))] += w
        states = new
    return sum(states.values()), len(pairs)


def main() -> None:
    latin5, _ = arrays(tuple(range(5)))
    for unit, right in ((12, (0, 1, 2, 3, 4)), (13, (0, 1, 2, 4, 3)), (14, (0, 2, 1, 4, 3))):
        t, m = arrays(right)
        fixed, r = divmod(latin5 * 32 ** 5 * t, 2 ** (5 * m))
        assert r == 0
        a, r = divmod(fixed, 2 ** 5 * 120)
        assert r == 0
        print(f"unit {unit}: right stack's columns {right}: #T = {t:,}, A = {a:,}")


if __name__ == "__main__":
    main()
