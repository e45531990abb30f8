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
that shares nothing with it.

Unit 15 moves the columns of both stacks (the last two of each swapped):
the two stacks' parities then bind the same bits, so ``#fixed`` is
``Σ_{T_L, T_R} Π_p g_p`` with ``g_p`` the sign choices of pair ``p`` that obey
both: 8 when the two parities join different rows, 16 when they join the
same rows with the same parity, 0 with opposite ones.  With
``g_p = 8 (1 + d_p)`` the product is a sum over the sets ``Q`` of pairs of
``Π_{p∈Q} d_p``, each a sum over the marginals of the arrays' signatures on
``Q`` (``--unit-15``: every ``T`` listed, about 3 minutes)::

    python scripts/two_stack_row_swap_check.py [--unit-15]
"""
from __future__ import annotations

import argparse
import itertools
from collections import Counter

import numpy as np

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


def signatures() -> np.ndarray:
    """Every ``T`` whose columns 0-2 are fixed and 3, 4 swapped, as one row
    per ``T``: for each pair ``p`` the two rows holding it in columns 3-4
    (one of the 10 row pairs) and its parity (1: the same column), coded
    ``2·row_pair + parity``."""
    row_pair = {pr: i for i, pr in enumerate(itertools.combinations(range(5), 2))}
    out: list[list[int]] = []

    def grow(rows: list, used: list, uses: list) -> None:
        if len(rows) == 5:
            sig = []
            for p in range(5):
                (r1, c1), (r2, c2) = [(i, c) for i, row in enumerate(rows) for c in (3, 4)
                                      if row[c] == p]
                sig.append(2 * row_pair[(r1, r2)] + (c1 == c2))
            out.append(sig)
            return
        for row in ROWS:
            if any(used[c] >> row[c] & 1 for c in range(3)) or \
                    uses[row[3]] >= 2 or uses[row[4]] >= 2:
                continue
            more = list(uses)
            more[row[3]] += 1
            more[row[4]] += 1
            grow(rows + [row], [used[c] | 1 << row[c] for c in range(3)], more)

    grow([], [0, 0, 0], [0] * 5)
    return np.array(out, dtype=np.int64)


def unit_15() -> int:
    """``A`` of unit 15 (both stacks' last two columns swapped)."""
    sig = signatures()
    total = 0
    for k in range(6):
        for q in itertools.combinations(range(5), k):
            code = np.zeros(len(sig), dtype=np.int64)
            for p in q:
                code = code * 20 + sig[:, p]
            m = np.bincount(code, minlength=20 ** k).reshape((20,) * k)
            d = m.copy()
            for axis in range(k):       # d(e, par) = m(e, par) − m(e, 1 − par), axis by axis
                moved = np.moveaxis(d, axis, 0)
                flat = moved.reshape(10, 2, -1)
                d = np.moveaxis((flat - flat[:, ::-1, :]).reshape(moved.shape), 0, axis)
            total += int(np.sum(m.astype(object) * d.astype(object)))
    a, r = divmod(8 ** 5 * total, 2 ** 5 * 120)
    assert r == 0
    return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--unit-15", action="store_true", help="unit 15 too (about 3 minutes)")
    args = ap.parse_args()
    latin5, _ = arrays(tuple(range(5)))
    for unit, right in ((12, (0, 1, 2, 3, 4)), (13, (0, 1, 2, 4, 3)), (14, (0, 2, 1, 4, 3))):
        t, m = arrays(right)
        fixed, r = divmod(latin5 * 32 ** 5 * t, 2 ** (5 * m))
        assert r == 0
        a, r = divmod(fixed, 2 ** 5 * 120)
        assert r == 0
        print(f"unit {unit}: right stack's columns {right}: #T = {t:,}, A = {a:,}")
    if args.unit_15:
        print(f"unit 15: both stacks' columns (0, 1, 2, 4, 3): A = {unit_15():,}")


if __name__ == "__main__":
    main()
