"""How deep a prefix :class:`~counting.group.cover.OrbitCover` lists: its cost, measured.

A prefix (the orbits of the first rows) is listed filling by filling, its
fillings sorted into classes, and the completions of one filling per class
counted.  A deeper prefix cuts the search (fewer, shorter completions) but
costs its listing, about 30 µs of Python a filling: on unit 8 of 3×3
(rows ``1[111] 1[3] 1[3]``, columns ``3[111]``, π of type 3³) three rows have 288
fillings in 31 classes and the unit counts in 0.14 s; four rows have
67,776 fillings in 1,928 classes, the search takes 14 times fewer nodes,
and listing them takes 2 s.  On the 1x9 unit of rows and columns
(12)(34)(56)(78), one row (one filling, no symmetry used) leaves a search of
6–11 CPU-hours; two rows have 81,088 fillings in 217 classes and the unit
counts in 46 CPU-s.  No one bound on the fillings serves both, so the depth
is chosen unit by unit from what the deeper prefix costs:

* up to :data:`FREE_FILLINGS` fillings a prefix is listed without weighing
  (under a second: the limit of the published 3×3 and 2×4 runs);
* beyond that, up to :data:`PREFIX_LIMIT`, it is listed only when listing
  it (the seconds of listing :data:`SAMPLE_FILLINGS` of them, times their
  number) costs less than half the search it would shorten: the search
  with the prefix already chosen, estimated by Knuth's estimator
  (:func:`dlx.estimate.estimate`, at most :data:`ESTIMATE_SECONDS`);
  :func:`deeper_pays` is that comparison.

The count does not depend on the depth (any prefix closed under ``g`` gives
it); the searches and nodes a unit reports do, and since the depth follows
measured seconds, a unit near the balance may take one depth on one run
and the next on another.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from counting.options import CountOptions
from dlx.api import ExactCover
from dlx.estimate import Estimate, estimate, sample_seconds

__all__ = ["PREFIX_LIMIT", "FREE_FILLINGS", "SAMPLE_FILLINGS", "ESTIMATE_PROBES",
           "ESTIMATE_SECONDS", "ESTIMATE_LEAF_SOLUTIONS", "deeper_pays", "listing_seconds",
           "search_estimate"]

#: Most fillings of a prefix ever listed (the fillings are held in memory).
PREFIX_LIMIT = 100_000
#: Fillings listed without weighing their cost (well under a second).
FREE_FILLINGS = 20_000
#: Fillings listed to time the listing of a larger prefix.
SAMPLE_FILLINGS = 2_000
#: Random paths of the estimate of the search a deeper prefix would shorten.
ESTIMATE_PROBES = 30
#: Seconds that estimate may take (it walks at least 10 paths).
ESTIMATE_SECONDS = 1.0
#: Completions below a leaf of that estimate: few, so that a path is cheap
#: even where the search runs for hours (the estimate errs high, towards
#: listing the deeper prefix).
ESTIMATE_LEAF_SOLUTIONS = 10_000


def deeper_pays(fillings: int, seconds_per_filling: float, search: float) -> bool:
    """Whether to list a prefix of ``fillings`` fillings, at
    ``seconds_per_filling`` each, to shorten a search of ``search`` seconds:
    only when the listing costs less than half of it (it cannot save more
    than the whole search, and saves less).

    >>> deeper_pays(81_088, 30e-6, 6 * 3600.0)      # 1x9: hours of search
    True
    >>> deeper_pays(67_776, 30e-6, 0.14)            # 3x3 unit 8: 2 s to save 0.1 s
    False
    """
    return fillings * seconds_per_filling < search / 2


def listing_seconds(list_fillings: Callable[[int], int]) -> float:
    """CPU seconds a filling of ``list_fillings(limit)`` (which lists at most
    ``limit`` fillings and returns how many it listed) takes, measured on
    :data:`SAMPLE_FILLINGS` of them."""
    t0 = sample_seconds()
    listed = list_fillings(SAMPLE_FILLINGS)
    return (sample_seconds() - t0) / max(listed, 1)


def search_estimate(matrix: ExactCover, given: Sequence[int], options: CountOptions) -> Estimate:
    """Knuth's estimate of searching the completions of ``given`` in
    ``matrix``: its ``seconds`` are CPU seconds (scale them by the share
    of the completions searched: classes / fillings of the prefix chosen
    so far, one filling a class is searched); its ``leaf_nodes``,
    ``leaf_dead_ends`` and ``leaf_memo_hits`` the work it searched."""
    return estimate(matrix, given=given, probes=ESTIMATE_PROBES, seed=0,
                    max_seconds=ESTIMATE_SECONDS,
                    leaf_solutions=ESTIMATE_LEAF_SOLUTIONS, **options.engine_arguments(matrix))
