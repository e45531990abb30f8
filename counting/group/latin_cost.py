"""What each Burnside term of the Latin-square classes would cost, estimated.

Where the main classes (or the isotopy classes, their δ = id terms) of an
order are out of reach, this says which terms put them there: every term of
:func:`~counting.group.latin_classes.paratopy_classes` but the identity (whose
term is the grid count of ``1xN``) gets an estimate of the CPU seconds its
count would take, each within a budget of seconds:

* a term :func:`~counting.group.latin_classes.ruled_out` fixes nothing, so
  costs nothing (no search);
* a δ = id or δ = (1 2) term, cells × relabelling
  (:func:`~counting.group.latin_classes.split_parts`): Knuth's estimator on
  the orbit cover of each candidate relabelling,
  :func:`~counting.group.fixed.estimate_fixed`, as
  ``scripts/estimate_symmetry_terms.py`` and ``count``'s estimate use it.
  It leaves out the classes of relabellings and prefixes the count reduces
  by (for δ = (1 2), the commuting diagonal elements of
  :func:`~counting.group.latin_classes.cell_commuting`), so it errs high by
  up to their factor;
* a δ = (1 2 3) term: Knuth's estimator (:func:`dlx.estimate.estimate`) on
  the quotient exact cover (:func:`~counting.group.latin_classes.triple_quotient`)
  searched whole, which also gives an estimate of its Fix.  The count splits
  such a quotient by first rows when it has many covers
  (:func:`~counting.group.latin_classes.quotient_fixed`), which at order 9
  made one of these terms about 100× cheaper than one search: high again.

Every figure is an estimate of a search that was not made, never a count.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from counting.group.fixed import estimate_fixed
from counting.group.latin_classes import LatinClass, ruled_out, split_parts, triple_quotient
from counting.options import CountOptions

__all__ = ["TermEstimate", "estimate_term", "estimate_terms", "costliest_count", "METHOD_WORDS"]

#: How a term was estimated, in words for a table.
METHOD_WORDS = {
    "ruled out": "fixes nothing (its relabelling type is ruled out): no search",
    "cells × relabelling": "Knuth's estimator on each candidate relabelling's orbit cover",
    "quotient": "Knuth's estimator on the quotient exact cover, searched whole",
}


@dataclass(frozen=True)
class TermEstimate:
    """The estimate of one term.

    Attributes
    ----------
    unit_id : int
        The term's position among the classes (its unit id in
        ``count 1xN --up-to-symmetry --group main-class``).
    cls : LatinClass
    seconds : float
        Estimated CPU seconds of counting the term (0: ruled out).
    method : str
        A key of :data:`METHOD_WORDS`.
    candidates, measured : int
        Relabellings (searches) the count would make, and how many the
        budget let the estimator explore (a quotient: 1 and 1).
    fixed : float or None
        A quotient term's estimated Fix (Knuth's estimate of its covers);
        None for the others.
    cpu_seconds : float
        What making the estimate took.
    """

    unit_id: int
    cls: LatinClass
    seconds: float
    method: str
    candidates: int
    measured: int
    fixed: float | None
    cpu_seconds: float


def estimate_term(cls: LatinClass, options: CountOptions | None = None, *, unit_id: int = -1,
                  probes: int = 20, seed: int = 0, max_seconds: float = 1.0) -> TermEstimate:
    """The estimated cost of counting one non-identity term (module
    docstring), exploring for about ``max_seconds`` (at least two paths per
    candidate).  ValueError for the identity, whose term is the grid count."""
    if cls.is_identity:
        raise ValueError("the identity's term is the grid count of 1x{n}, not estimated"
                         .format(n=cls.n))
    options = CountOptions() if options is None else options
    t0 = time.process_time()
    if ruled_out(cls):
        return TermEstimate(unit_id, cls, 0.0, "ruled out", 0, 0, None,
                            time.process_time() - t0)
    if cls.coset == "(123)":
        from dlx.estimate import estimate
        q = triple_quotient(cls.n, cls.triples())
        if not q.rows:
            return TermEstimate(unit_id, cls, 0.0, "quotient", 0, 0, 0.0,
                                time.process_time() - t0)
        ec = q.cover()
        e = estimate(ec, probes=probes, seed=seed, max_seconds=max_seconds, min_probes=2,
                     memo=options.memo, memo_mb=options.memo_mb)
        return TermEstimate(unit_id, cls, e.seconds, "quotient", 1, 1, e.count,
                            time.process_time() - t0)
    cells, pi_type = split_parts(cls)
    e = estimate_fixed(f"1x{cls.n}", cells, pi_type, options, probes=probes, seed=seed,
                       max_seconds=max_seconds)
    return TermEstimate(unit_id, cls, e.seconds, "cells × relabelling", e.candidates,
                        e.measured, None, time.process_time() - t0)


def estimate_terms(classes: Sequence[LatinClass], options: CountOptions | None = None, *,
                   probes: int = 20, seed: int = 0, max_seconds: float = 1.0,
                   on_term: Callable[[TermEstimate], None] | None = None
                   ) -> list[TermEstimate]:
    """:func:`estimate_term` of every class but the identity, in the
    classes' order (``unit_id`` their position); ``on_term`` is told each."""
    out = []
    for i, cls in enumerate(classes):
        if cls.is_identity:
            continue
        e = estimate_term(cls, options, unit_id=i, probes=probes, seed=seed,
                          max_seconds=max_seconds)
        if on_term is not None:
            on_term(e)
        out.append(e)
    return out


def costliest_count(seconds: Iterable[float], share: float = 0.9) -> int:
    """How many of the costliest terms make up ``share`` of the total
    (the fewest whose sum reaches it; 0 when the total is 0).

    Example
    -------
    >>> costliest_count([1.0, 5.0, 1.0, 3.0])        # 5 + 3 + 1 = 9 of 10
    3
    """
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1], got {share!r}")
    costs = sorted((float(s) for s in seconds), reverse=True)
    total = math.fsum(costs)
    if total <= 0:
        return 0
    running = 0.0
    for k, c in enumerate(costs, start=1):
        running += c
        if running >= share * total * (1 - 1e-12):
            return k
    return len(costs)
