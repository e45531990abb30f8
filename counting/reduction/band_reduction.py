"""The band reductions: classes of reduced bands × column forms.

Box 1 is relabelled, band 1 and column 1 reduced (three exact factors,
:mod:`counting.reduction.factors`); the reduced bands fall into classes of
equal completion counts; a work unit is one (class representative, column
form) pair.  :class:`BandReduction` does all of this for any way of forming
the classes; its subclasses only say how bands are labelled by class
(:meth:`BandReduction.labels`): by the five moves
(:class:`~counting.reduction.moves.MovesReduction`) or by column-set
patterns (:class:`~counting.reduction.patterns.PatternsReduction`).

Unit ids are ``unit_id = class_id · n_forms + form_id``: classes numbered by
their smallest reduced band, forms in lexicographic order.  Classes and
units are computed once per (reduction, shape) and cached.
"""
from __future__ import annotations

import abc
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from counting.reduction.bands import reduced_bands
from counting.reduction.base import BandClass, Reduction
from counting.reduction.classes import classes_from_labels
from counting.reduction.factors import Factorisation, column_factor, factorisation
from counting.reduction.forms import column_forms, unit_givens
from counting.units import UnitSpec
from grids.shape import Shape, as_shape

__all__ = ["MAX_UNITS", "BandReduction"]

MAX_UNITS = 100_000  # guard: work units of one reduction (each a few hundred bytes)


@dataclass(frozen=True)
class BandReduction(Reduction):
    """Units are (class of reduced bands, column form) pairs.

    Parameters
    ----------
    shape : Shape or str
        Box shape (text is parsed once, here).
    """

    shape: Shape

    def __post_init__(self):
        object.__setattr__(self, "shape", as_shape(self.shape))

    @abc.abstractmethod
    def labels(self) -> np.ndarray:
        """Per reduced band, the index of the smallest band of its class."""

    @property
    def factorisation(self) -> Factorisation:
        """Relabel box 1, reduce band 1, reduce column 1."""
        return factorisation(self.shape)

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return self.factorisation.factors

    def classes(self) -> list[BandClass]:
        """The classes of reduced bands, sorted by representative.

        Examples
        --------
        >>> from counting.reduction import get_reduction
        >>> cs = get_reduction("3x3", "71").classes()
        >>> len(cs), sum(c.weight for c in cs)
        (71, 36288)
        """
        return list(_classes(self)[0])

    def class_ids(self) -> np.ndarray:
        """Class id of every reduced band (read-only array aligned with
        :func:`~counting.reduction.bands.reduced_bands`)."""
        return _classes(self)[1]

    def units(self) -> list[UnitSpec]:
        """All work units, ordered by ``unit_id = class_id · n_forms + form_id``.

        Givens are the ``R·N`` band cells and the ``N - R`` cells of column 1
        below band 1 (27 and 6 for 3×3), as ``(row, col, digit)`` with 0-based
        row and column.  Every unit carries :attr:`name` as its reduction.

        Examples
        --------
        >>> from counting.reduction import get_reduction
        >>> u = get_reduction("3x3", "71").units()[-1]
        >>> u.unit_id, u.class_id, u.form_id
        (709, 70, 9)
        """
        return list(_units(self))


@lru_cache(maxsize=None)
def _classes(reduction: BandReduction) -> tuple[tuple[BandClass, ...], np.ndarray]:
    return classes_from_labels(reduced_bands(reduction.shape), reduction.labels())


@lru_cache(maxsize=None)
def _units(reduction: BandReduction) -> tuple[UnitSpec, ...]:
    s = reduction.shape
    name = reduction.name  # the stable name units carry
    out = []
    class_list = _classes(reduction)[0]
    # Every band has (N-R)! / column factor column forms (the factor is exact).
    n_forms = math.factorial(s.n - s.box_rows) // column_factor(s)
    if len(class_list) * n_forms > MAX_UNITS:
        raise ValueError(
            f"shape {s.name}: {len(class_list):,} classes x {n_forms:,} column forms = "
            f"{len(class_list) * n_forms:,} work units, more than {MAX_UNITS:,}; "
            f"this shape is out of reach"
        )
    for cls in class_list:
        forms = column_forms(cls.representative, s)
        n_forms = len(forms)
        for form_id, form in enumerate(forms):
            out.append(UnitSpec(
                shape=s.name,
                reduction=name,
                unit_id=cls.class_id * n_forms + form_id,
                class_id=cls.class_id,
                form_id=form_id,
                weight=cls.weight,
                givens=unit_givens(cls.array(), form, s),
            ))
    # Invariant: ids are 0..len-1 in order (every class has the same number of forms).
    assert [u.unit_id for u in out] == list(range(len(out)))
    return tuple(out)
