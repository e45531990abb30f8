"""Every search the engine runs, recorded: the oracle of the tests that a
unit's nodes, dead ends and memo hits are the work of its searches
(tests/counting/group/test_fixed.py, tests/counting/reduction/test_latin_orbits.py,
test_reduction_orbits.py, test_full_orbits.py).

:func:`record_searches` wraps :meth:`dlx.api.ExactCover.count` and
:meth:`~dlx.api.ExactCover.solutions` (every count, limited or not, and
every listing, run to its end or closed early) and keeps each search's
statistics as the engine reports them, so the sums are the engine's own.
"""
from __future__ import annotations

from dlx.api import ExactCover, SearchStats


def record_searches(monkeypatch) -> list[SearchStats]:
    """From now on (until ``monkeypatch`` undoes it), the statistics of
    every search the engine runs, in order, in the returned list (clear it
    between units)."""
    runs: list[SearchStats] = []
    engine_count, engine_solutions = ExactCover.count, ExactCover.solutions

    def count(cover, **kwargs):
        out = engine_count(cover, **kwargs)
        runs.append(cover.stats)
        return out

    def solutions(cover, **kwargs):
        listing = engine_solutions(cover, **kwargs)
        try:
            yield from listing
        finally:
            listing.close()               # sets the statistics of an early stop too
            runs.append(cover.stats)

    monkeypatch.setattr(ExactCover, "count", count)
    monkeypatch.setattr(ExactCover, "solutions", solutions)
    return runs


def work(runs: list[SearchStats]) -> tuple[int, int, int]:
    """``(nodes, dead ends, memo hits)`` summed over ``runs``."""
    return (sum(r.nodes for r in runs), sum(r.dead_ends for r in runs),
            sum(r.memo_hits for r in runs))


def tally_work(tally) -> tuple[int, int, int]:
    """``(nodes, dead ends, memo hits)`` a unit reports (a Tally, or any
    value with those attributes)."""
    return tally.nodes, tally.dead_ends, tally.memo_hits


def assert_each_unit_reports_its_searches(red, monkeypatch) -> None:
    """Every unit of the reduction ``red`` reports, from ``count_directly``,
    the nodes, dead ends and memo hits the engine gave for the searches it
    ran (prefix probes included); and some unit had memo hits, so a unit
    that said 0 for them all would fail."""
    runs = record_searches(monkeypatch)
    memo_hits = 0
    for unit in red.units():
        runs.clear()
        tally = red.count_directly(unit)
        assert tally_work(tally) == work(runs), unit.unit_id
        memo_hits += tally.memo_hits
    assert memo_hits > 0
