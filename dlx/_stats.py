"""Statistics of a search (private; :class:`SearchStats` is re-exported by
``dlx.api``)."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class SearchStats:
    """Statistics of the last search.

    Attributes
    ----------
    nodes : int
        Search-tree nodes entered (a found solution counts as a node; options
        counted from column lengths at the last level do not).
    solutions : int
        Solutions found (with memo: counted, including cached subtrees;
        after :meth:`ExactCover.solve_batch`: summed over the batch).
    dead_ends : int
        Nodes whose branching column had no rows left.
    updates : int
        Items (columns) covered: one per cover of an item, as the engine
        counts them (``_cover`` in ``dlx/_engine.pyx``).
    seconds : float
        Wall-clock seconds of the search.
    memo_lookups, memo_hits, memo_stores : int
        Memo table traffic (zero without memo).
    memo_entries, memo_bytes : int
        Entries held and bytes allocated by the memo table.
    tail_calls, tail_steps : int
        Subproblems counted in closed form by the tail (see
        :meth:`ExactCover.set_tail`) and the enumeration steps they took.
    """

    nodes: int = 0
    solutions: int = 0
    dead_ends: int = 0
    updates: int = 0
    seconds: float = 0.0
    memo_lookups: int = 0
    memo_hits: int = 0
    memo_stores: int = 0
    memo_entries: int = 0
    memo_bytes: int = 0
    tail_calls: int = 0
    tail_steps: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


def search_stats(engine, t0: float) -> SearchStats:
    """The statistics of ``engine``'s (a ``dlx._engine.Engine``) last search,
    timed from ``t0`` (a :func:`time.perf_counter` reading)."""
    return SearchStats(seconds=time.perf_counter() - t0,
                       **{k: v for k, v in engine.stats().items()
                          if k in SearchStats.__dataclass_fields__})
