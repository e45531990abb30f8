"""Union-find (disjoint sets), the one used by the brute-force oracles of the
tests: orbits of grids, patterns, row pairs and group elements are the
classes left after joining each object to its images under a few generators
(``tests/`` is on ``sys.path`` through its conftest).

Example
-------
>>> sets = UnionFind(range(5))
>>> sets.union(0, 1); sets.union(3, 4); sets.union(1, 0)
>>> sets.count(), sorted(map(sorted, sets.classes()))
(3, [[0, 1], [2], [3, 4]])
"""
from __future__ import annotations

from typing import Hashable, Iterable


class UnionFind:
    """Disjoint sets of hashable items, each set named by its root item."""

    def __init__(self, items: Iterable[Hashable] = ()):
        self.parent = {x: x for x in items}

    def find(self, x):
        """The root of ``x``'s set (halving the path on the way)."""
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a, b) -> None:
        """Join the sets of ``a`` and ``b`` (``b``'s root stays the root)."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def classes(self) -> list[list]:
        """The sets, each a list in the order the items were given."""
        groups: dict = {}
        for x in self.parent:
            groups.setdefault(self.find(x), []).append(x)
        return list(groups.values())

    def count(self) -> int:
        """The number of sets."""
        return len({self.find(x) for x in self.parent})
