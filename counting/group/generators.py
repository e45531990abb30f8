"""A few elements that generate a permutation group listed in full.

What a group does to a set (its orbits on the items of an exact cover,
:func:`.cover_automorphisms.today_joined`) is what its generators do: the
orbits are the connected pieces of "``x`` and ``g(x)``" over the generators
``g``.  A 9×9 kind's group lists thousands of elements (4,608 for
``3x3+centre``), and applying each of them to every item took most of
``classes --group``; a dozen generators do the same work.

The generators are chosen greedily: an element outside the subgroup
generated so far is added and that subgroup closed again (breadth first,
every element times every generator).  Each addition at least doubles the
subgroup, so there are at most log₂ of the order, and the closures cost
about twice the order times their number of compositions.  Exact: no
sampling, and the closure is checked against the list (a list that is not
a group raises ``ArithmeticError``).

Example
-------
>>> import itertools
>>> s4 = [p for p in itertools.permutations(range(4))]
>>> chosen = generating_subset(s4)
>>> len(chosen) <= 4 and closure_size([s4[i] for i in chosen], 4) == 24
True
"""
from __future__ import annotations

import numpy as np

__all__ = ["generating_subset", "closure_size"]


def _close(elements: list[np.ndarray], seen: set[bytes], gens: np.ndarray,
           limit: int) -> None:
    """Add to ``elements``/``seen`` every product of them with ``gens``
    (the subgroup they generate); ArithmeticError past ``limit`` elements."""
    frontier = np.array(elements)
    while len(frontier):
        new = []
        for s in gens:
            for row in frontier[:, s]:          # e∘s: x -> e(s(x))
                key = row.tobytes()
                if key not in seen:
                    seen.add(key)
                    elements.append(row)
                    new.append(row)
        if len(elements) > limit:
            raise ArithmeticError(f"the elements listed generate more than {limit:,}: "
                                  f"they are not a group")
        frontier = np.array(new)


def generating_subset(perms) -> list[int]:
    """Indices of some of ``perms`` (every element of a group, each a
    permutation in one-line notation) that generate all of them."""
    perms = np.asarray(perms, dtype=np.int64)
    if perms.ndim != 2 or not len(perms):
        return []
    identity = np.arange(perms.shape[1], dtype=np.int64)
    elements, seen = [identity], {identity.tobytes()}
    chosen: list[int] = []
    for i, p in enumerate(perms):
        if p.tobytes() in seen:
            continue
        chosen.append(i)
        _close(elements, seen, perms[chosen], len(perms))
    if len(elements) != len({p.tobytes() for p in perms}):
        raise ArithmeticError(f"the {len(perms):,} elements listed generate "
                              f"{len(elements):,}: they are not a group")
    return chosen


def closure_size(gens, n: int) -> int:
    """The order of the group that ``gens`` (permutations of ``range(n)``) generate."""
    identity = np.arange(n, dtype=np.int64)
    elements, seen = [identity], {identity.tobytes()}
    gens = np.asarray(gens, dtype=np.int64).reshape(-1, n)
    if len(gens):
        _close(elements, seen, gens, float("inf"))
    return len(elements)
