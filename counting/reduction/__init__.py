"""Symmetry reductions of the grid count, for boxes of any shape R×C.

A reduction turns "count every grid" into a list of *work units* (partial
grids whose completions the engine counts) and an exact identity

    grids = factor · Σ_unit weight(unit) · count(unit)

The 9×9 reduction is written down in ``docs/REDUCTION.md``; this package
*computes* every number in it (no count, factor or weight is typed in) and
applies the same steps to every box shape.

The interface a reduction offers
--------------------------------
The job, the store and the pool see a reduction only through
:class:`~counting.reduction.base.Reduction`, obtained from the registry::

    r = get_reduction(shape, name=None)    # Shape or "RxC"; None: the shape's default

========================  ==================================================
``r.kind``                registry key: ``"moves"``, ``"patterns"``
``r.name``                stable stored name, carried by every unit and
                          store: ``"71"``/``"44"`` for 3x3, else the kind
``r.shape``               the :class:`grids.shape.Shape`
``r.factors``             exact factors in order, ``((label, int), ...)``,
                          labelled as ``gridcount count`` prints them
``r.factor``              their product
``r.classes()``           list of :class:`BandClass` (``class_id`` = position,
                          ``representative`` rows, ``weight``), for
                          ``gridcount classes``
``r.units()``             list of :class:`~counting.units.UnitSpec`, ``unit_id``
                          = position 0..n-1, stable across runs and releases;
                          each carries its class, weight and givens
``r.n_units()``           ``len(r.units())``
``r.unit(i)``             one unit; ValueError out of range
``r.class_totals(c)``     Σ count per class
``r.total(counts)``       ``factor · Σ weight · count`` (exact int) from a
                          mapping unit id → count; ValueError naming any
                          unit id missing, unknown or with a bad count
========================  ==================================================

Objects are immutable and shared (``get_reduction`` returns the same one
for the same shape and reduction); classes and units are computed on first
use and cached per shape.  :func:`reduction_name`, :func:`reduction_kind`,
:func:`default_reduction` and :func:`reduction_names` translate names
without computing anything; :func:`check_shape` applies the command line's
size rule (``N <= 16`` unless forced).

A new reduction (for instance Latin squares by the cycle type of row 2, or
symmetry classes for Burnside's lemma) is a ``Reduction`` subclass in a
sibling module: it sets ``kind`` (and ``name_3x3`` if 3×3 stores it under
another name), takes the shape as its one constructor argument, overrides
``applies_to(shape)`` if it is defined only for some shapes, implements
``factors``, ``classes()`` and ``units()``, and is added to the registry's
table (:mod:`counting.reduction.registry`).

The band reductions ("moves" and "patterns")
--------------------------------------------
For boxes of R rows × C columns, grids of side N = R·C:

1. Relabel the digits so that box 1 reads 1..N row by row (factor ``N!``;
   :mod:`~counting.reduction.factors`).
2. Reduce band 1 (rows 1..R) lexicographically: the C columns of each of
   the ``R - 1`` later boxes are sorted by their row-1 digit, and those
   boxes are ordered by their first row-1 digit (factor ``(C!)^(R-1)·(R-1)!``).
   What is left are the *reduced bands* (:mod:`~counting.reduction.bands`;
   normal forms in :mod:`~counting.reduction.normal_form`).
3. Merge reduced bands whose completion counts are provably equal into
   *classes* (:mod:`~counting.reduction.classes`): the ``"moves"`` reduction
   joins bands related by the five moves of REDUCTION.md
   (:mod:`~counting.reduction.moves`), the ``"patterns"`` reduction joins
   bands whose column-set patterns are equivalent
   (:mod:`~counting.reduction.patterns`).  For 3×3 these are the 71 and the
   44 classes.
4. Reduce column 1 below band 1 to one of the *column forms*
   (:mod:`~counting.reduction.forms`): the rows inside each of the ``C - 1``
   later bands are sorted by their column-1 digit and those bands are
   ordered by their first column-1 digit (factor ``(R!)^(C-1)·(C-1)!``).
5. A work unit is one (class representative, column form) pair,
   ``unit_id = class_id · n_forms + form_id``
   (:mod:`~counting.reduction.band_reduction`).

The steps need no special cases; they degenerate as follows.

* ``1xN`` (Latin squares of order N; a box is a row): band 1 *is* row 1 and
  box 1, so step 1 fixes row 1 (``N!``) and step 2 has nothing left (factor
  ``1``, one reduced band, one class).  Column 1 below it crosses ``N - 1``
  one-row bands, ordered by their digit (factor ``(N-1)!``): one column form.
  One unit, counting the reduced Latin squares.  Total ``N!·(N-1)!·L_N``, the
  classical ``L(N) = N!·(N-1)!·(reduced squares)``.
* ``Nx1`` (Latin squares again; a box is a column): band 1 is the whole
  grid and box 1 is column 1 (``N!``); step 2 orders the ``N - 1`` one-column
  boxes by their row-1 digit (``(N-1)!``), so the reduced bands *are* the
  reduced Latin squares, all enumerated here; nothing lies below band 1
  (factor ``1``, one empty column form) and every unit counts 1.  The
  enumeration limits this to small N (``bands.MAX_BANDS``).
* ``1x1``: one cell, every factor 1, one unit counting 1.

Conventions
-----------
A band is an ``(R, N)`` array of digits 1..N (row, column), a stack of bands
``(n, R, N)``; digits are ``uint8``.  Rows and columns are 0-based in code
and in unit givens; the prose uses the 1-based "row 1", "box 2" of the
documentation.  Functions take a :class:`grids.shape.Shape`; public ones also
accept the text ``"RxC"``, parsed once on entry.  Cached arrays are returned
read-only: copy them before modifying.
"""
from counting.reduction.base import BandClass, Reduction
from counting.reduction.factors import Factorisation, factorisation
from counting.reduction.registry import (
    MAX_N,
    check_shape,
    default_reduction,
    get_reduction,
    reduction_kind,
    reduction_name,
    reduction_names,
)

def __getattr__(name: str):
    # ALIASES_3X3 and REDUCTIONS import every reduction: made on first use (registry)
    if name in ("ALIASES_3X3", "REDUCTIONS"):
        from counting.reduction import registry
        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Reduction",
    "BandClass",
    "Factorisation",
    "factorisation",
    "MAX_N",
    "REDUCTIONS",
    "ALIASES_3X3",
    "check_shape",
    "reduction_kind",
    "reduction_name",
    "default_reduction",
    "reduction_names",
    "get_reduction",
]
