"""The completions of a band-1 orbit by dancing links, without the kind band tables.

:class:`bandtables.kind_tables.KindBandTables` contracts tables of the two bands that are
not enumerated.  What a contraction counts depends on band 1 only through the digit set of
each column and of its house cells (all the other bands must avoid), so the same number is
the count of exact covers of the other two bands' cells alone:

* each cell one digit, each row and box of the two bands every digit once;
* each column the ``N - R`` digits band 1 left it, once each;
* the extra house's cells in the two bands the ``N - R`` digits band 1's house cells left.

That is a search on a matrix of its own (:class:`dlx.ExactCover`, memo at row ends), which
reads no table and shares with the contraction only the decoding of the key
(:meth:`~bandtables.kind_tables.KindBandTables.band1_sets`): ``gridcount recount``'s
independent count of a ``kind-tables`` unit.

Example
-------
>>> from bandtables.kind_tables import KindBandTables
>>> kt = KindBandTables("2x3")
>>> keys, mults = kt.orbits
>>> [search_completions(kt, k) for k in keys] == [kt.count([k], [1]) for k in keys]
True
"""
from __future__ import annotations

from dlx import ExactCover

__all__ = ["search_completions", "completion_matrix"]


def completion_matrix(kt, key: int) -> ExactCover:
    """The exact cover whose solutions are the fillings of the two bands ``kt`` does not
    enumerate that complete a band 1 of key ``key`` (module docstring)."""
    R, N = kt.R, 3 * kt.R
    cols, house = kt.band1_sets(key)
    primary: dict[tuple, int] = {}

    def column(*name) -> int:
        return primary.setdefault(name, len(primary))

    # every constraint a column first, so that one no row can meet leaves no solution
    for line in range(2 * R):
        for c in range(N):
            column("cell", line, c)
        for d in range(N):
            column("row", line, d)
    for i in range(2):
        for s in range(R):
            for d in range(N):
                column("box", i, s, d)
    for c in range(N):
        for d in range(N):
            if not cols[c] >> d & 1:
                column("col", c, d)
    if kt.has_house:
        for d in range(N):
            if not house >> d & 1:
                column("house", d)
    n_primary = len(primary)
    rows, priority_of = [], {}
    for i, b in enumerate(kt.others):
        cells = kt.cells[b]
        house_at = set() if cells is None else {(r, 3 * s + j) for s, (r, j) in enumerate(cells)}
        for r in range(R):
            line = i * R + r                                  # the search fills row by row
            for c in range(N):
                for d in range(N):
                    if cols[c] >> d & 1 or ((r, c) in house_at and house >> d & 1):
                        continue
                    row = [column("cell", line, c), column("row", line, d),
                           column("box", i, c // 3, d), column("col", c, d)]
                    if (r, c) in house_at:
                        row.append(column("house", d))
                    rows.append(row)
                    for name in (("cell", line, c), ("row", line, d)):
                        priority_of[primary[name]] = line
    if len(primary) != n_primary:      # pragma: no cover - a digit outside 0..N-1
        raise AssertionError("a row meets a constraint that was not listed")
    priority = [priority_of.get(k, 2 * R) for k in range(n_primary)]
    return ExactCover(rows, n_primary, priority=priority)


def search_completions(kt, key: int) -> int:
    """The completions of a band 1 of key ``key`` counted by dancing links: what
    ``kt.count([key], [1])`` contracts from the tables."""
    return completion_matrix(kt, key).count(memo=True)
