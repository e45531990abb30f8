"""Independent definitions of the variant kinds and a plain brute-force counter.

Nothing here calls :mod:`grids.variants` or the engine: houses are written
as predicates over 0-based cells ``(r, c)``, and :func:`brute_count` is a
backtracking over the cells in reading order, in plain Python, so a test
that compares it with the engine compares two independent programs.
"""
from __future__ import annotations

import itertools

from union_find import UnionFind


def basic_houses(R: int, C: int) -> list[list[tuple[int, int]]]:
    """Rows, columns and (unless Latin) boxes of R×C boxes."""
    n = R * C
    out = [[(r, c) for c in range(n)] for r in range(n)]
    out += [[(r, c) for r in range(n)] for c in range(n)]
    if R > 1 and C > 1:
        for br in range(0, n, R):
            for bc in range(0, n, C):
                out.append([(br + i, bc + j) for i in range(R) for j in range(C)])
    return out


def by_key(n: int, key) -> list[list[tuple[int, int]]]:
    """Group the cells with ``key(r, c)`` not None by that key."""
    groups: dict = {}
    for r in range(n):
        for c in range(n):
            k = key(r, c)
            if k is not None:
                groups.setdefault(k, []).append((r, c))
    return list(groups.values())


def extra_houses(name: str, R: int, C: int) -> list[list[tuple[int, int]]]:
    n = R * C
    if name == "x":
        return [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    if name == "disjoint":
        return by_key(n, lambda r, c: (r % R, c % C))
    if name == "windoku":
        return by_key(n, lambda r, c: None if r % 4 == 0 or c % 4 == 0 else (r // 4, c // 4))
    if name == "centre":
        return by_key(n, lambda r, c: 0 if (r % R, c % C) == (R // 2, C // 2) else None)
    if name == "asterisk":
        return [[(1, 4), (2, 2), (2, 6), (4, 1), (4, 4), (4, 7), (6, 2), (6, 6), (7, 4)]]
    if name == "girandola":
        return [[(0, 0), (0, 8), (1, 4), (4, 1), (4, 4), (4, 7), (7, 4), (8, 0), (8, 8)]]
    return []


def difference_pairs(name: str, n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    def near(a, b):
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        if name == "anti-king":
            return max(dr, dc) == 1
        if name == "anti-knight":
            return {dr, dc} == {1, 2}
        return False
    cells = [(r, c) for r in range(n) for c in range(n)]
    return [(a, b) for a in cells for b in cells if a < b and near(a, b)]


def peers_of(n: int, houses, pairs) -> dict:
    peers = {(r, c): set() for r in range(n) for c in range(n)}
    for h in houses:
        for a in h:
            peers[a].update(x for x in h if x != a)
    for a, b in pairs:
        peers[a].add(b)
        peers[b].add(a)
    return peers


def backtrack(n: int, peers: dict, cells: list, grid: dict, visit=None) -> int:
    """The ways to fill ``cells``, in that order, with digits 1..n, each
    different from its ``peers``' digits in ``grid`` (which holds the cells
    filled so far and any given ones); ``visit(grid)`` is called at every
    complete filling, while ``grid`` holds it."""
    total = 0

    def place(i: int) -> None:
        nonlocal total
        if i == len(cells):
            total += 1
            if visit is not None:
                visit(grid)
            return
        cell = cells[i]
        used = {grid.get(p) for p in peers[cell]}
        for d in range(1, n + 1):
            if d not in used:
                grid[cell] = d
                place(i + 1)
                del grid[cell]

    place(0)
    return total


def brute_count(n: int, houses, pairs=(), given: dict | None = None) -> int:
    """Fillings of the n×n grid with digits 1..n, different in every house
    and every pair, that agree with ``given`` ({(r, c): digit})."""
    peers = peers_of(n, houses, pairs)
    grid = dict(given or {})
    for cell, d in grid.items():
        if any(grid.get(p) == d for p in peers[cell]):
            return 0
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in grid]
    return backtrack(n, peers, free, grid)


def kind_parts(text: str):
    """``"2x3+x+anti-king"`` -> (R, C, houses, pairs) from the definitions above."""
    head, *names = text.split("+")
    R, C = (int(v) for v in head.split("x"))
    houses = basic_houses(R, C)
    pairs = []
    for name in names:
        houses += extra_houses(name, R, C)
        pairs += difference_pairs(name, R * C)
    return R, C, houses, pairs


def is_filling(n: int, houses, pairs, grid) -> bool:
    """Whether ``grid`` ({(r, c): digit}, complete) keeps every rule."""
    if len(grid) != n * n:
        return False
    for h in houses:
        if sorted(grid[x] for x in h) != list(range(1, n + 1)):
            return False
    return all(grid[a] != grid[b] for a, b in pairs)


def brute_fillings(n: int, houses, pairs=()) -> list[tuple[int, ...]]:
    """Every filling, as a tuple of n² digits in reading order."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    out: list = []
    backtrack(n, peers_of(n, houses, pairs), cells, {},
              lambda grid: out.append(tuple(grid[x] for x in cells)))
    return out


def block_permutations(size: int, count: int) -> list[tuple[int, ...]]:
    """The permutations of ``count`` blocks of ``size`` consecutive points
    that move whole blocks (one-line notation): a permutation of the blocks
    times one of the points inside each."""
    out = []
    for top in itertools.permutations(range(count)):
        for inner in itertools.product(itertools.permutations(range(size)), repeat=count):
            out.append(tuple(top[i] * size + inner[i][j] for i in range(count)
                             for j in range(size)))
    return out


def shape_moves(R: int, C: int) -> list[tuple[int, ...]]:
    """Every element of the shape's geometric group as a cell permutation
    (``out[k]`` = image of cell ``k``), built from its definition: permute the
    bands and the rows inside each band, the stacks and the columns inside
    each stack, and transpose when the boxes are square."""
    n = R * C
    out = []
    for x in block_permutations(R, C):
        for y in block_permutations(C, R):
            out.append(tuple(x[r] * n + y[c] for r in range(n) for c in range(n)))
            if R == C:
                out.append(tuple(x[c] * n + y[r] for r in range(n) for c in range(n)))
    return out


def rule_keeping_moves(text: str) -> list[tuple[int, ...]]:
    """The moves of :func:`shape_moves` that map the kind's rules (every pair
    of cells sharing a house or a difference rule) onto themselves."""
    R, C, houses, pairs = kind_parts(text)
    n = R * C
    flat = [[r * n + c for r, c in h] for h in houses]
    edges = {frozenset((a, b)) for h in flat for a in h for b in h if a != b}
    edges |= {frozenset((a[0] * n + a[1], b[0] * n + b[1])) for a, b in pairs}
    return [p for p in shape_moves(R, C)
            if {frozenset(p[x] for x in e) for e in edges} == edges]


def orbits_by_union_find(grids: list[tuple[int, ...]], moves) -> int:
    """Classes of ``grids`` (digit tuples in reading order) under the cell
    ``moves`` and every relabelling: union-find over the grids, each one
    joined to its image under each move, relabelled to first-appearance order."""
    def relabelled(grid):
        names: dict = {}
        return tuple(names.setdefault(d, len(names) + 1) for d in grid)

    index = {relabelled(g): i for i, g in enumerate(grids)}
    sets = UnionFind(range(len(grids)))
    for i, g in enumerate(grids):
        for p in moves:
            moved = [0] * len(g)
            for k, d in enumerate(g):
                moved[p[k]] = d
            sets.union(i, index[relabelled(moved)])
    return sets.count()


def standard_orbits(shape, grids, moves) -> int:
    """Orbits of the grids with box 1 standard under the cell ``moves`` and
    relabelling: each image is relabelled back to box 1 standard (``grids``
    a NumPy array, a grid a row; ``shape`` a :class:`grids.shape.Shape`)."""
    import numpy as np

    box1 = shape.box_cells[0]
    index = {g.tobytes(): i for i, g in enumerate(grids)}
    sets = UnionFind(range(len(grids)))
    rows = np.arange(len(grids))[:, None]
    for p in moves:
        moved = grids[:, np.asarray(p)]
        relabel = np.zeros((len(grids), shape.n + 1), dtype=grids.dtype)
        relabel[rows, moved[:, box1]] = np.arange(1, shape.n + 1)
        standard = np.take_along_axis(relabel, moved, axis=1)
        for i, image in enumerate(standard):
            sets.union(i, index[image.tobytes()])
    return sets.count()
