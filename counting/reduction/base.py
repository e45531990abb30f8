"""The interface a reduction offers the job, the store and the pool.

A reduction of the grids of one shape is an exact identity

    grids = factor · Σ_unit weight(unit) · count(unit)

where ``factor`` is a product of exact symmetry factors, each *work unit*
is a partial grid whose completions the engine counts, and a unit's
weight is the size of the class it stands for.  :class:`Reduction` states
what every reduction provides; :class:`BandClass` is the class record
``gridcount classes`` lists.  The generic parts (one unit by id, per-class
sums, the total) are written here once, from :meth:`Reduction.units`.
"""
from __future__ import annotations

import abc
import functools
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from counting.labels import ClassWords, labels_of
from counting.options import CountOptions
from counting.reduction.cost import estimate_work, longest_first
from counting.reduction.listing import listing_notice
from counting.units import Tally, UnitProblem, UnitSpec
from dlx import ENGINE_VERSION, ExactCover
from grids.shape import Shape, as_shape
from grids.sudoku import ALPHABET, Sudoku

__all__ = ["Reduction", "BandClass", "checked_counts"]


@dataclass(frozen=True)
class BandClass:
    """One class of partial grids with equal completion counts.

    For the band reductions the members are reduced bands (band 1).

    Attributes
    ----------
    class_id : int
        Position of the class in the order of representatives.
    representative : tuple of tuple of int
        The lexicographically smallest member, as row tuples (the R rows
        of band 1 for the band reductions: three for 3×3).
    weight : int
        Number of members of the class.
    """

    class_id: int
    representative: tuple[tuple[int, ...], ...]
    weight: int

    def array(self) -> np.ndarray:
        """The representative as a new uint8 array, one row per row tuple."""
        return np.array(self.representative, dtype=np.uint8)


def knuth_method(sampled: int) -> str:
    """How a job of ``sampled`` units walked by Knuth's estimator was
    estimated, in words (:meth:`Reduction.estimate_method`)."""
    return f"Knuth's estimate from {sampled} sampled unit{'s' * (sampled != 1)}"


class Reduction(abc.ABC):
    """One reduction of the grids of one shape: factors, classes, units.

    Subclasses set :attr:`kind` (and :attr:`name_3x3` if 3×3 stores it
    under another name), hold :attr:`shape`, and implement
    :attr:`factors`, :meth:`classes` and :meth:`units`.  Objects are
    immutable and cheap to make; the heavy results behind them are cached
    per shape.

    Attributes
    ----------
    kind : str
        The reduction's name in the registry (``"moves"``, ``"patterns"``).
    name_3x3 : str or None
        The stored name for 3×3, if it differs (``"71"``, ``"44"``).
    shape : Shape
        The box shape of the grids.
    """

    kind: str = ""
    name_3x3: str | None = None
    shape: Shape

    @classmethod
    def applies_to(cls, shape: Shape) -> bool:
        """Whether the reduction is defined for ``shape`` (default: every shape)."""
        return True

    #: The registry asks reductions with a lower rank first whether they are a shape's default.
    default_rank = 0

    @classmethod
    def default_for(cls, shape: Shape) -> bool:
        """Whether the reduction is the shape's default when it is the first
        in the registry that says so (default: wherever it applies)."""
        return cls.applies_to(shape)

    @property
    def name(self) -> str:
        """Stable stored name: what units, stores and file names carry."""
        if self.name_3x3 is not None and self.shape == Shape(3, 3):
            return self.name_3x3
        return self.kind

    @property
    @abc.abstractmethod
    def factors(self) -> tuple[tuple[str, int], ...]:
        """Exact factors, in order, as ``(label, factor)`` pairs."""

    @property
    def factor(self) -> int:
        """The product of :attr:`factors`: the multiplier of Σ weight · count."""
        return math.prod(value for _, value in self.factors)

    #: Exact divisors of ``factor · Σ``, as ``(label, divisor)`` pairs: none
    #: for the grid reductions, ``|G|`` for Burnside's lemma.
    divisors: tuple[tuple[str, int], ...] = ()

    #: Whether the total counts orbits of grids (essentially different
    #: grids, Burnside's lemma) rather than grids.
    counts_orbits: bool = False

    #: Whether a job that counts orbits takes its identity unit (unit 0)
    #: from the grid count's store (:func:`counting.plan.prepare_identity`);
    #: False when it counts it as any other unit (``--group loops``).
    identity_from_grid: bool = True

    def identity_divisor(self, n: int) -> str:
        """What the grid count is divided by to make the identity unit's
        count (``n`` the box shape's N), for messages: ``N!`` (the grids
        with box 1 standard; the loops' reduced squares: ``N!·(N-1)!``)."""
        return f"{n}!"

    @abc.abstractmethod
    def classes(self) -> list[BandClass]:
        """The classes, ``class_id`` = position (a new list each call)."""

    @abc.abstractmethod
    def units(self) -> list[UnitSpec]:
        """Every work unit, ``unit_id`` = position 0..n-1, stable from one
        run (and one release) to the next; a new list each call."""

    def class_label(self, class_id: int) -> str | None:
        """What a class is, in words, for the report (None: nothing to add)."""
        return None

    def representative_text(self, c: BandClass) -> list[str]:
        """How ``gridcount classes`` writes the representative of class ``c``:
        each of its rows as a grid writes it (1-9, then A-Z)."""
        return ["".join(ALPHABET[d - 1] for d in row) for row in c.representative]

    def class_words(self, class_id: int) -> ClassWords:
        """How a run's log names class ``class_id`` when its last unit is in,
        and what its count counts: ``class   N`` and the labels'
        :attr:`~counting.labels.Labels.count_noun` (the layer method: its
        transition, and which of its two quantities it counts)."""
        return ClassWords(f"class {class_id:>3}", labels_of(self).count_noun)

    def unit_columns(self, spec) -> dict[str, object]:
        """Columns of the per-unit CSV (``gridcount export``) beyond the
        common ones, in order: what describes a unit of this reduction
        (none by default; Burnside's units: their class and relabelling)."""
        return {}

    def n_units(self) -> int:
        """Number of work units."""
        return len(self.units())

    def n_units_bound(self) -> tuple[int, bool]:
        """``(n, exact)``: the number of units, or (``exact`` False) a lower
        bound on it where enumerating the units takes minutes; for the cost
        estimate of :mod:`counting.reach`."""
        return self.n_units(), True

    #: Whether the cost estimate of ``count`` lists the units (then their
    #: :meth:`listing_notice` is said before it; else before the units are
    #: listed, after the estimate).
    estimate_lists_units = True

    #: Whether :meth:`complete_total` lists the units (for their weights): all but a
    #: reduction whose units weigh 1 in any listing (``kind-tables``).
    total_lists_units = True

    def listing_notice(self) -> str | None:
        """The line said before this job's units are listed when listing them
        takes more than a few seconds (what, and how long), or None (quick,
        or said only if slow, on a terminal).  By default the wait measured
        from an empty cache (:func:`~counting.reduction.listing.listing_notice`),
        unless this machine keeps what the listing makes (:meth:`listing_cached`)."""
        if self.listing_cached():
            return None
        kind = getattr(self, "grid_kind", self.shape)      # a kind's reduction: its kind
        return listing_notice(kind.name, self.name)

    def tables_notice(self) -> str | None:
        """The line said before this job makes tables that take more than a few
        seconds before its first unit (what, and how long, as measured:
        :func:`~counting.reduction.listing.tables_notice`), or None (the
        default: it makes none, or they are quick, or this machine keeps them)."""
        return None

    def listing_cached(self) -> bool:
        """Whether this machine keeps what listing the units makes, which
        makes it quick (default: nothing is kept)."""
        return False

    def not_recountable(self, spec) -> str | None:
        """Why ``gridcount recount`` cannot count ``spec`` by itself (None:
        it can, the default)."""
        return self.recount_refused()

    def recount_refused(self) -> str | None:
        """Why ``gridcount recount`` can count no unit of this reduction at
        all, known before its units are enumerated (None: it may count some,
        the default)."""
        return None

    def engine_suffix(self) -> str:
        """What this installation adds to the engine's version in the results
        of this reduction's units (none by default; the band tables' kernel
        version for ``patterns3``): a worker whose results carry another
        runs another installation (:mod:`counting.run.dask_pool`)."""
        return ""

    def count_independently(self, spec, options: CountOptions = CountOptions()) -> int | None:
        """``spec``'s count by a method that shares nothing with the one a run
        counts it by, for ``gridcount recount`` (``options``: recount's, for a
        method that searches); None (the default): the unit searched again
        with an empty memo table is that method."""
        return None

    def recount_method(self) -> str:
        """How ``gridcount recount`` counts this reduction's units, in words
        (``recount`` and ``status`` say it)."""
        return "dancing links again, with an empty memo table"

    def problem(self, spec) -> UnitProblem | None:
        """What ``spec`` is to the engine: a matrix and its given rows.

        The default is a unit given on the grid (a :class:`UnitSpec`): its
        givens on the grid's own matrix, filled row by row
        (``Sudoku.row_priority``, memo points at row ends, the tail where
        the shape has one).  None: the unit is no single exact cover, and
        :meth:`count_directly` counts it.
        """
        shape = as_shape(spec.shape)
        sud = _sudoku(shape)
        return UnitProblem(("grid", shape.name, "rows"), functools.partial(_grid_matrix, shape),
                           tuple(sud.row_index(r, c, d) for r, c, d in spec.givens))

    def count_by_kernel(self, spec, options) -> Tally | None:
        """A unit's count by a kernel that counts it without search, where
        the reduction has one and ``options`` do not ask for the search;
        None (the default): count its :meth:`problem`."""
        return None

    def count_directly(self, spec, options) -> Tally:
        """Count a unit whose :meth:`problem` is None (not needed otherwise)."""
        raise NotImplementedError(f"{type(self).__name__} units are counted as exact covers")

    def hand_out(self, specs) -> list:
        """``specs`` in the order the pools hand them out (default: the
        costliest givens first, :func:`~counting.reduction.cost.longest_first`)."""
        return longest_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        """Each unit's share of the work, for the progress bar (default:
        :func:`~counting.reduction.cost.estimate_work`)."""
        return estimate_work(specs)

    #: whether a store of this job can only be continued by the engine that
    #: began it (its unit ids depend on that engine): see :meth:`foreign_engine`
    engine_pinned = False

    @property
    def engine_version(self) -> str:
        """What a store of this job records as its engine (default: the
        search engine's version; each unit row names its own as well)."""
        return ENGINE_VERSION

    def foreign_engine(self, stored: str) -> str | None:
        """Why a store that records ``stored`` as its engine cannot take the
        units this gridcount counts, or None when it can: always None unless
        :attr:`engine_pinned`.  One line that says what differs (another
        kernel, another listing of the units) after ``"STORE: "``, used whole
        by ``count``, ``merge``, ``recount``, ``status`` and ``report``."""
        return None

    def foreign_total_refused(self) -> str | None:
        """Why the total of a complete store whose units are not this gridcount's
        (:meth:`foreign_engine` not None) is not computed here, in words, or None
        when it is: its units' counts alone make it, whatever their listing.  By
        default it is not: the total weighs each stored count by this gridcount's
        unit of that id, which is another unit (``status``, ``report`` and
        ``export`` show no total, and say this)."""
        return ("it would weigh the store's counts by this gridcount's units of the same "
                "ids, which are other units")

    def total_refused_for(self, stored: str) -> str | None:
        """Why a store that records ``stored`` as its engine has no total (nor unit
        weights) here, or None: its units are this gridcount's, or
        :meth:`foreign_total_refused` says their counts make the total anyway (then
        the store's units are not compared with this gridcount's, nor listed)."""
        refused = self.foreign_total_refused()
        if refused is None or self.foreign_engine(stored) is None:
            return None
        return refused

    def describe_memo(self, options) -> str | None:
        """One line on a memo kept beyond the workers (printed before a
        count), or None (the default: each worker's memo is its own)."""
        return None

    def reserve_memo(self, options) -> None:
        """Make the memo kept beyond the workers, its disk space reserved,
        before the workers of this machine start (the kernel's memo file:
        :class:`factorization.NoRoomForMemo` when the disk has no room for
        it); nothing by default."""

    def local_options(self, options):
        """The options the workers of this machine count with: ``options``
        (the default), or where they would each refuse a memo kept beyond
        them (the kernel's memo file is a FIFO...), the same with that memo
        private to each: :meth:`describe_memo` has said why, once."""
        return options

    #: What :meth:`worker_memory_mib` is, as the memory check says it, and the
    #: option that makes it smaller (None: none does, only fewer workers).
    worker_memory_what = "memo table"
    worker_memory_option: str | None = "--memo-mb"

    def worker_memory_mib(self, options) -> float:
        """MiB a worker process allocates to count this reduction's units:
        by default the search engine's memo table, when the memo is on."""
        return float(options.memo_mb) if options.memo else 0.0

    def shared_memory_mib(self, options) -> float:
        """MiB mapped once per machine and shared by its workers (the page
        cache holds one copy), counted once beside :meth:`worker_memory_mib`:
        by default none."""
        return 0.0

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float | None:
        """Estimated seconds of a unit whose :meth:`problem` is None; None
        (the default): estimate the problem with Knuth's estimator
        (:mod:`counting.reach`)."""
        return None

    def estimate_method(self, sampled: int) -> str:
        """How the seconds of ``sampled`` units were measured, in words
        (:meth:`estimate_unit_seconds`, by default Knuth's estimator)."""
        return knuth_method(sampled)

    def cost_model(self, bound_ok: bool = True) -> dict | None:
        """A job estimate made without timing units (:func:`counting.reach.job_cost`
        then takes ``units``, ``units_exact``, ``unit_seconds``, ``sampled``,
        ``method``, ``memory``, ``countable`` and ``provisional`` from it);
        None (the default): units are sampled and timed.  With ``bound_ok``
        False, no provisional lower bound is wanted."""
        return None

    def estimate_memory(self, options=None) -> tuple[int, int] | None:
        """``(private, shared)``: bytes one worker needs for itself (all it
        memoises, where the reduction can say) and bytes of read-only tables
        shared by the workers of a machine, for the cost estimate; None (the
        default): the memo table is the worker's memory
        (:func:`counting.run.pool.check_memory`)."""
        return None

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        """``k`` units (all, if there are fewer) drawn uniformly without
        replacement; the same ``seed`` draws the same units.  For the cost
        estimate of :mod:`counting.reach`, which only counts them in part.
        ``among``: the ids to draw from (the units a store still lacks: the
        cost of what is left is estimated on what is left); None: all."""
        units = self.units_among(among)
        return random.Random(seed).sample(units, min(k, len(units)))

    def sample_shares(self, sample: list, among=None) -> list[float] | None:
        """How many of the units estimated (``among``, None: all) each unit
        of ``sample`` (drawn by :meth:`sample_units`) stands for, when they
        were not drawn uniformly (a stratified sample,
        :func:`~counting.reduction.cost.stratum_shares`); None (the
        default): each stands for an equal share, their mean for every unit."""
        return None

    def units_among(self, among=None) -> list:
        """The units whose ids are in ``among`` (None: every unit), in id order."""
        units = self.units()
        if among is None:
            return units
        wanted = set(among)
        return [u for u in units if u.unit_id in wanted]

    def unit(self, unit_id: int) -> UnitSpec:
        """One work unit by id.

        Raises
        ------
        ValueError
            If ``unit_id`` is not an int in ``0 .. n_units - 1``.
        """
        all_units = self.units()
        if isinstance(unit_id, bool) or not isinstance(unit_id, (int, np.integer)):
            raise ValueError(f"unit id must be an int, got {unit_id!r}")
        if not 0 <= unit_id < len(all_units):
            raise ValueError(
                f"unit id {unit_id} out of range for reduction {self.name!r}: "
                f"valid ids are 0..{len(all_units) - 1}"
            )
        return all_units[int(unit_id)]

    def class_totals(self, counts: Mapping[int, int]) -> dict[int, int]:
        """Σ of the unit counts per class: ``class_id -> Σ count`` (exact).

        ``counts`` must hold every unit id (see :func:`checked_counts`).
        """
        all_units = self.units()
        clean = checked_counts(counts, len(all_units))
        totals: dict[int, int] = {}
        for u in all_units:
            totals[u.class_id] = totals.get(u.class_id, 0) + clean[u.unit_id]
        return totals

    def term(self, weight: int, count: int) -> int:
        """A unit's term of the weighted sum: ``weight · count``.

        Reductions whose identity is not linear in the unit counts override
        it (two-band patterns: ``weight · count²``).
        """
        return weight * count

    def weighted_sum(self, counts: Mapping[int, int]) -> int:
        """``Σ term(weight, count)`` over the units present in ``counts``
        (a partial sum when some are missing; the ids must be known)."""
        all_units = self.units()
        n = len(all_units)
        out = 0
        for key, value in counts.items():
            if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < n:
                raise ValueError(f"unknown unit id {key!r}: valid ids are 0..{n - 1}")
            out += self.term(all_units[int(key)].weight, int(value))
        return out

    def total(self, counts: Mapping[int, int]) -> int:
        """Number of grids: ``factor · Σ_unit term(weight, count) / divisors``, exact.

        Parameters
        ----------
        counts : mapping of int to int
            Count of every unit id (all must be present).

        Raises
        ------
        ValueError
            Naming missing or unknown unit ids, or bad counts, or when the
            divisors do not divide the product (a count is wrong).
        """
        all_units = self.units()
        clean = checked_counts(counts, len(all_units))
        product = self.factor * sum(self.term(u.weight, clean[u.unit_id]) for u in all_units)
        divisor = math.prod(value for _, value in self.divisors)
        total, rest = divmod(product, divisor)
        if rest:
            raise ValueError(f"{product:,} is not a multiple of {divisor:,} "
                             f"({', '.join(label for label, _ in self.divisors)}): "
                             f"some unit count is wrong")
        return total

    def complete_total(self, counts: Mapping[int, int], n_units: int) -> int:
        """The total of a complete store's ``counts`` of its job's ``n_units`` units:
        :meth:`total`, which lists this gridcount's units for their weights; a
        reduction whose units all weigh 1 in any listing overrides it not to list
        them (``kind-tables``)."""
        return self.total(counts)


@functools.lru_cache(maxsize=None)
def _sudoku(shape: Shape) -> Sudoku:
    return Sudoku.from_shape(shape)


def _grid_matrix(shape: Shape) -> ExactCover:
    """The grid's matrix as units given on the grid are counted on it."""
    return _sudoku(shape).exact_cover(priority="rows")


def checked_counts(counts: Mapping[int, int], n: int) -> dict[int, int]:
    """Exact int counts for unit ids 0..n-1; ValueError naming any gap.

    Examples
    --------
    >>> checked_counts({1: 5, 0: 2}, 2)
    {1: 5, 0: 2}
    """
    clean = {}
    for key, value in counts.items():
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < n:
            raise ValueError(f"unknown unit id {key!r}: valid ids are 0..{n - 1}")
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"count of unit {key} must be a non-negative int, got {value!r}")
        clean[int(key)] = int(value)
    missing = [i for i in range(n) if i not in clean]
    if missing:
        shown = ", ".join(map(str, missing[:20])) + (", …" if len(missing) > 20 else "")
        raise ValueError(f"{len(missing):,} unit id(s) missing: {shown}")
    return clean
