"""Loops up to isomorphism (OEIS A057771), by Burnside's lemma.

A *loop* of order n is a quasigroup on ``{0..n-1}`` (a Latin square read as
a multiplication table) with a two-sided identity ``e``: row ``e`` and
column ``e`` read ``0..n-1`` in order.  Two loops are isomorphic when one
permutation ``σ`` of the symbols, applied to rows, columns and symbols at
once, maps one table onto the other: the diagonal ``S_n`` of
:func:`~.latin_classes.isomorphism_classes`, acting on the loops only.

The terms
---------
Classes = ``(1/n!) Σ_σ Fix(σ)``, ``Fix(σ)`` the loops ``σ`` maps onto
themselves.  A loop's identity is unique, so ``σ`` maps a fixed loop's
identity ``e`` to the identity of the image, itself: ``σ(e) = e``.  So

    ``Fix(σ) = Σ_{e = σ(e)} #{squares fixed by (σ, σ, σ) with row e and column e in order}``

and the centraliser of ``σ`` (a permutation of the symbols commuting with
``σ`` maps a loop of identity ``e`` fixed by ``σ`` onto one of identity
``a(e)``, also fixed) moves any fixed point of ``σ`` to any other, so every
``e`` gives the same number, :func:`loop_fixed_at`:
``Fix(σ) = f(σ) · loop_fixed_at(σ, e)``, ``f(σ)`` the fixed points of
``σ`` (:func:`fixed_points`).  A ``σ`` with no fixed point fixes no loop.

``loop_fixed_at`` is an exact cover: the quotient of the Latin squares by
``⟨(σ, σ, σ)⟩`` (:func:`~.latin_classes.triple_quotient`, one option per
orbit of triples) with the orbits of the triples ``(e, c, c)`` and
``(r, e, r)`` given (σ fixes ``e``, so they are unions of orbits).

The identity's term is not the grid count: it fixes every loop, and there
are ``n · R_n`` of them, ``R_n`` the reduced Latin squares (row 0 and
column 0 in order, OEIS A000315), since relabelling by the transposition
``(0 e)`` maps the loops of identity ``e`` one-to-one onto those of
identity 0.  With ``L_n = n!·(n-1)!·R_n`` Latin squares (permuting the
columns puts row 0 in order, ``n!`` ways, then permuting rows 1..n-1 puts
column 0 in order, ``(n-1)!`` ways, each square reached once),
``R_n = L_n / (n!·(n-1)!)`` (:func:`reduced_from_grid_total`) and
``Fix(id) = L_n / (n-1)!²`` (:func:`loops_from_grid_total`).  Up to order
:data:`MAX_SEARCHED_LOOPS` it is searched (:func:`loop_fixed_at` of the
identity: ``R_n``); beyond, up to :data:`MAX_LOOPS`, it is the grid count's
(``grid_total``), order 8's ``R_8 = 535,281,401,856`` being hours of search.

Example
-------
>>> loop_class_count(5).classes
6
"""
from __future__ import annotations

import math
import time

import numpy as np

from counting.group.latin_classes import (LatinClass, LatinClasses, LatinTerm,
                                          isomorphism_classes, triple_quotient)
from counting.options import CountOptions
from counting.units import Tally
from dlx.api import ConflictingGivensError

__all__ = ["loop_classes", "fixed_points", "loop_givens", "loop_cover", "loop_fixed_at",
           "loop_fixed_search", "loop_term_fixed",
           "reduced_from_grid_total", "loops_from_grid_total", "loop_class_count",
           "MAX_SEARCHED_LOOPS", "MAX_LOOPS"]

#: Largest order whose identity term, ``R_n`` reduced Latin squares, is
#: searched: order 7's 16,942,080 take seconds; order 8's 535,281,401,856
#: would take hours.
MAX_SEARCHED_LOOPS = 7

#: Largest order counted: beyond :data:`MAX_SEARCHED_LOOPS` the identity
#: term is the grid count's (:func:`reduced_from_grid_total`); order 8's
#: other 14 terms take under a CPU-second (results/latin-classes.md).
MAX_LOOPS = 8


def loop_classes(n: int) -> tuple[LatinClass, ...]:
    """The conjugacy classes of ``S_n`` (the diagonal action, the identity
    first): those of :func:`~.latin_classes.isomorphism_classes`."""
    return isomorphism_classes(n)


def fixed_points(cls: LatinClass) -> tuple[int, ...]:
    """The symbols the class's representative ``σ`` fixes, in order."""
    sigma = cls.perms()[0]
    return tuple(x for x in range(cls.n) if sigma[x] == x)


def loop_givens(n: int, e: int) -> list[int]:
    """The triples (index ``(r·n + c)·n + s``) of a loop of identity ``e``
    fixed by its table: ``(e, c, c)`` and ``(r, e, r)``, ``2n - 1`` of them."""
    out = {(e * n + c) * n + c for c in range(n)} | {(r * n + e) * n + r for r in range(n)}
    return sorted(out)


def loop_cover(n: int, sigma, e: int):
    """``(cover, given)``: the quotient exact cover of the Latin squares of
    order ``n`` by ``⟨(σ, σ, σ)⟩`` and its options to give, the orbits of
    the identity's triples (:func:`loop_givens`); None when one of those
    orbits hits a pair twice (then no such square is fixed).  ``σ`` a tuple
    of images with ``σ(e) = e``; ValueError otherwise."""
    sigma = tuple(int(x) for x in sigma)
    if sorted(sigma) != list(range(n)) or not 0 <= e < n or sigma[e] != e:
        raise ValueError(f"σ must be a permutation of 0..{n - 1} fixing e = {e}, got {sigma}")
    a = np.asarray(sigma, dtype=np.int64)
    r, c, s = np.unravel_index(np.arange(n ** 3), (n, n, n))
    q = triple_quotient(n, (a[r] * n + a[c]) * n + a[s])
    given = {int(q.row_of[t]) for t in loop_givens(n, e)}
    if -1 in given:
        return None
    return q.cover(), sorted(given)


def loop_fixed_at(n: int, sigma, e: int, options: CountOptions | None = None) -> int:
    """The Latin squares of order ``n`` with row ``e`` and column ``e`` in
    order that ``(σ, σ, σ)`` maps onto themselves (``σ`` a tuple of images
    with ``σ(e) = e``; ValueError otherwise): the exact covers of
    :func:`loop_cover`.

    Example
    -------
    >>> loop_fixed_at(4, (0, 1, 2, 3), 0)     # the reduced Latin squares of order 4
    4
    """
    return loop_fixed_search(n, sigma, e, options).count


def loop_fixed_search(n: int, sigma, e: int, options: CountOptions | None = None) -> Tally:
    """:func:`loop_fixed_at` with the work of its search: the count, and the
    dancing-links search's nodes, dead ends, memo hits and seconds (all 0
    when no search is made: an orbit of the identity's triples hits a pair
    twice, or the givens clash, and no square is fixed).

    Example
    -------
    >>> t = loop_fixed_search(4, (0, 1, 2, 3), 0)
    >>> t.count, t.nodes > 0
    (4, True)
    """
    problem = loop_cover(n, sigma, e)
    if problem is None:
        return Tally(0)
    options = CountOptions() if options is None else options
    cover, given = problem
    try:
        count = cover.count(given=given, memo=options.memo, memo_mb=options.memo_mb,
                            memo_at="all")
    except ConflictingGivensError:
        return Tally(0)
    return Tally.of_engine(count, cover)


def loop_term_fixed(cls: LatinClass, options: CountOptions | None = None) -> int:
    """``Fix(σ)``, the loops the class's representative ``σ`` maps onto
    themselves: ``f(σ) · loop_fixed_at(σ, e)`` at its first fixed point
    ``e`` (module docstring); 0 when ``σ`` fixes no point."""
    points = fixed_points(cls)
    if not points:
        return 0
    return len(points) * loop_fixed_at(cls.n, cls.perms()[0], points[0], options)


def reduced_from_grid_total(n: int, grid_total: int) -> int:
    """The reduced Latin squares ``R_n`` (OEIS A000315) from the Latin
    squares' count ``L_n`` (OEIS A002860): ``R_n = L_n / (n!·(n-1)!)``
    (module docstring), exact; ValueError in one line when ``grid_total``
    is no positive multiple of ``n!·(n-1)!`` (then it is not a count of
    Latin squares of order ``n``).

    Example
    -------
    >>> reduced_from_grid_total(4, 576)
    4
    """
    unit = math.factorial(n) * math.factorial(n - 1)
    if isinstance(grid_total, bool) or not isinstance(grid_total, int) or grid_total < 1 \
            or grid_total % unit:
        raise ValueError(f"grid total of 1x{n} must be a positive multiple of {n}!·{n - 1}!, "
                         f"got {grid_total!r}")
    return grid_total // unit


def loops_from_grid_total(n: int, grid_total: int) -> int:
    """The loops on ``{0..n-1}``, ``n · R_n = L_n / (n-1)!²`` from the Latin
    squares' count ``L_n``; ValueError as :func:`reduced_from_grid_total`.

    Example
    -------
    >>> loops_from_grid_total(4, 576)
    16
    """
    return n * reduced_from_grid_total(n, grid_total)


def loop_class_count(n: int, options: CountOptions | None = None, *,
                     grid_total: int | None = None, on_term=None) -> LatinClasses:
    """Loops of order ``n`` up to isomorphism (OEIS A057771), every term
    counted (``on_term(term)`` told each as it is done); ValueError in one
    line for an order above :data:`MAX_LOOPS`.  ``grid_total``, the Latin
    squares of order ``n``: up to :data:`MAX_SEARCHED_LOOPS` not used but
    checked (ArithmeticError when the identity's searched term is not
    :func:`loops_from_grid_total` of it); beyond, the identity's term
    (ValueError when it is missing or no multiple of ``n!·(n-1)!``)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"order must be a positive integer, got {n!r}")
    if n > MAX_LOOPS:
        raise ValueError(f"loops of order {n}: counted up to order {MAX_LOOPS} only")
    from_grid = n > MAX_SEARCHED_LOOPS
    if from_grid and grid_total is None:
        raise ValueError(f"loops of order {n}: the identity term is the 1x{n} grid count / "
                         f"(n-1)!², pass grid_total (from the grid count)")
    terms = []
    for cls in loop_classes(n):
        t0 = time.process_time()
        if from_grid and cls.is_identity:
            fixed = loops_from_grid_total(n, grid_total)
        else:
            fixed = loop_term_fixed(cls, options)
        term = LatinTerm(cls, fixed, time.process_time() - t0)
        if on_term is not None:
            on_term(term)
        terms.append(term)
    if not from_grid and grid_total is not None \
            and terms[0].fixed != loops_from_grid_total(n, grid_total):
        raise ArithmeticError(f"order {n}: {terms[0].fixed:,} loops searched, but the grid "
                              f"count {grid_total:,} / {n - 1}!² is "
                              f"{loops_from_grid_total(n, grid_total):,}")
    return LatinClasses(n, "loops up to isomorphism", math.factorial(n), tuple(terms))
