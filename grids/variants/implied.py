"""Houses a kind's houses imply (the "law of leftovers"), to make counting faster.

If ``k`` pairwise disjoint houses cover a set of cells ``U`` (``k`` rows, or
``k`` columns, here), every digit appears ``k`` times in ``U``.  If ``U`` also
contains ``k - 1`` pairwise disjoint houses, every digit appears ``k - 1``
times in them, so the ``N`` cells of ``U`` left over hold every digit exactly
once: they form an *implied house*.  Adding its ``N`` columns to the exact
cover changes no count (every grid already covers them once) but lets the
search see contradictions earlier.  Windoku's four windows imply five
houses (rows 1, 5, 9 × columns 2–4; × 6–8; rows 2–4 × columns 1, 5, 9;
6–8 × 1, 5, 9; rows 1, 5, 9 × columns 1, 5, 9), the second round using the
first; a jigsaw's regions imply one house wherever ``k`` rows hold ``k - 1``
whole regions.

:func:`implied_houses` iterates to a fixed point over unions of up to
``max_lines`` rows or columns.  The tests check that every implied house
holds every digit once in every brute-force grid of small kinds.

Example
-------
>>> len(implied_houses("3x3+windoku")), implied_houses("3x3")
(5, ())
"""
from __future__ import annotations

import itertools

from grids.kind import as_kind

__all__ = ["implied_houses"]


def implied_houses(kind, max_lines: int = 3) -> tuple[tuple[int, ...], ...]:
    """The houses implied by ``kind``'s houses and not among them (sorted
    cell tuples, in the order found)."""
    kind = as_kind(kind)
    n = kind.shape.n
    units = kind.unit_cells()
    lines = [frozenset(u) for u in units[:2 * n]]          # rows, then columns
    known = {frozenset(u) for u in units}
    houses = list(known)
    found: list[frozenset] = []
    grew = True
    while grew:
        grew = False
        for k in range(2, min(max_lines, n) + 1):
            for family in (lines[:n], lines[n:]):
                for chosen in itertools.combinations(family, k):
                    union = frozenset().union(*chosen)
                    inner = [h for h in houses if h <= union and h not in chosen]
                    for parts in itertools.combinations(inner, k - 1):
                        if sum(map(len, parts)) != len(frozenset().union(*parts)):
                            continue                        # not pairwise disjoint
                        rest = union.difference(*parts)
                        if rest not in known:
                            known.add(rest)
                            houses.append(rest)
                            found.append(rest)
                            grew = True
    return tuple(tuple(sorted(h)) for h in found)
