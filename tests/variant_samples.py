"""Independent definitions of the variant kinds and a plain brute-force counter.

Nothing here calls :mod:`grids.variants` or the engine: houses are written
as predicates over 0-based cells ``(r, c)``, and :func:`brute_count` is a
backtracking over the cells in reading order, in plain Python, so a test
that compares it with the engine compares two independent programs.
"""
from __future__ import annotations


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


def brute_count(n: int, houses, pairs=(), given: dict | None = None) -> int:
    """Fillings of the n×n grid with digits 1..n, different in every house
    and every pair, that agree with ``given`` ({(r, c): digit})."""
    peers = peers_of(n, houses, pairs)
    grid = dict(given or {})
    for cell, d in grid.items():
        if any(grid.get(p) == d for p in peers[cell]):
            return 0
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in grid]
    total = 0

    def place(i: int) -> None:
        nonlocal total
        if i == len(free):
            total += 1
            return
        cell = free[i]
        used = {grid.get(p) for p in peers[cell]}
        for d in range(1, n + 1):
            if d not in used:
                grid[cell] = d
                place(i + 1)
                del grid[cell]

    place(0)
    return total


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
    peers = peers_of(n, houses, pairs)
    cells = [(r, c) for r in range(n) for c in range(n)]
    grid: dict = {}
    out = []

    def place(i: int) -> None:
        if i == len(cells):
            out.append(tuple(grid[x] for x in cells))
            return
        used = {grid.get(p) for p in peers[cells[i]]}
        for d in range(1, n + 1):
            if d not in used:
                grid[cells[i]] = d
                place(i + 1)
                del grid[cells[i]]

    place(0)
    return out
