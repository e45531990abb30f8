"""Brute force over every Latin square of a small order, the oracle of the
Latin-square class tests (tests/counting/group/test_latin_classes.py,
tests/counting/reduction/test_latin_orbits.py,
tests/counting/test_cli_count_latin_group.py): the squares listed by a
backtracking search written here (not the exact cover under test), their
orbits found by union-find under generators of each group, the squares a
triple permutation fixes counted one by one.  No Burnside in it.
"""
from __future__ import annotations

from functools import cache

import numpy as np

from counting.group.latin_classes import paratopism
from union_find import UnionFind


@cache
def latin_squares(n: int) -> np.ndarray:
    """``(count, n²)``: every Latin square as its sorted triple indices ``(r·n + c)·n + s``."""
    out, grid = [], [[-1] * n for _ in range(n)]

    def fill(k):
        if k == n * n:
            out.append([(r * n + c) * n + grid[r][c] for r in range(n) for c in range(n)])
            return
        r, c = divmod(k, n)
        for s in range(n):
            if s not in grid[r][:c] and all(grid[i][c] != s for i in range(r)):
                grid[r][c] = s
                fill(k + 1)
        grid[r][c] = -1

    fill(0)
    return np.array(out, dtype=np.int64).reshape(len(out), n * n)


def brute_fixed(n: int, perm) -> int:
    """The squares the triple permutation ``perm`` maps onto themselves, one by one."""
    squares = latin_squares(n)
    return int((np.sort(np.asarray(perm)[squares], axis=1) == squares).all(axis=1).sum())


def generators(n: int, group: str) -> list[np.ndarray]:
    """Triple permutations generating S_n³ (``isotopy``), S_n ≀ S_3 (``main``)
    or the diagonal S_n (``isomorphism``)."""
    ident = tuple(range(n))
    moves = [tuple([1, 0] + list(range(2, n))) if n > 1 else ident,
             tuple(list(range(1, n)) + [0])]
    if group == "isomorphism":
        return [paratopism(n, a, a, a) for a in moves]
    out = [paratopism(n, *[a if i == j else ident for j in range(3)]) for a in moves
           for i in range(3)]
    if group == "main":
        out += [paratopism(n, ident, ident, ident, (1, 0, 2)),
                paratopism(n, ident, ident, ident, (1, 2, 0))]
    return out


def union_find_classes(n: int, group: str) -> int:
    """The orbits of the Latin squares of order ``n`` under ``group``
    (``"isotopy"``, ``"main"``, ``"isomorphism"``: :func:`generators`)."""
    squares = latin_squares(n)
    keys = [s.tobytes() for s in squares]
    sets = UnionFind(keys)
    for g in generators(n, group):
        images = np.sort(g[squares], axis=1)
        for key, image in zip(keys, images):
            sets.union(key, image.tobytes())
    return sets.count()
