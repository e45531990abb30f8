"""Two-band shapes by column-set patterns: the ``patterns2`` reduction.

Boxes of ``R`` rows × 2 columns (and, by transposing every grid, the
``2 × R`` boxes, with the same total) make ``2R × 2R`` grids of exactly two
bands of ``R`` rows and ``R`` stacks of two columns.  For them the count
splits into Latin rectangles; every step below is computed here and tested
in ``tests/counting/reduction/test_patterns2.py``.

The identity
------------
1. In band 1 each box holds all ``2R`` digits in its two columns, so the
   digit sets ``S``, ``S'`` of the two columns of a stack are complementary
   ``R``-sets.  Call the ``2R`` column sets of band 1 its *pattern* ``P``.
   Every digit lies in exactly one column of each stack, hence in ``R``
   columns.
2. Band 2's column ``c`` holds the digits missing from column ``c`` of band
   1, i.e. the set of the other column of its stack: band 2's pattern is
   ``P'``, ``P`` with the two columns of every stack swapped, and band 2's
   boxes are then complete automatically.  So a grid is exactly a pair
   (band 1, band 2) of ``R × 2R`` Latin rectangles with column sets ``P``
   and ``P'`` (:mod:`grids.rectangle`), and with ``L(P)`` the number of them,
   ``grids = Σ_P L(P)·L(P')``.  Swapping columns maps the rectangles of
   ``P`` onto those of ``P'``, so ``L(P') = L(P)`` and
   ``grids = Σ_P L(P)²``.
3. *Classes.*  ``L`` is unchanged by relabelling the digits, permuting the
   stacks and swapping the two columns of a stack (each maps rectangles to
   rectangles), and by *duality*: a rectangle is a set of triples
   (row, column, digit) with each (row, column), (row, digit) and
   (column, digit ∈ its set) pair once, so exchanging the roles of columns
   and digits is a bijection onto the rectangles whose "columns" are the
   digits, with sets ``{c : d ∈ P_c}``.  That is again a pattern exactly
   when the digits pair up into complementary sets (then the pairs are the
   new stacks).  The patterns fall into classes under these moves; a class
   has a ``size`` (its number of patterns) and one representative.
4. *Rows ordered by column 1.*  The ``R!`` row orders of a rectangle are
   distinct rectangles of the same pattern, exactly one of which reads
   column 1 in increasing order downwards (:mod:`grids.rectangle`), so
   ``L = R!·c`` where ``c`` counts those: the engine's count.

Hence, exactly, with ``c`` counted once per class::

    grids = (R!)² · Σ_class size · c(representative)²

:attr:`TwoBandPatternReduction.factors` are the two ``R!`` (one per band),
:meth:`TwoBandPatternReduction.total` squares the counts.

Counting the classes
--------------------
Relabelling digits away, a pattern is the multiset of the ``2R`` digits'
*codes*: bit ``s`` of a digit's code is 1 when it lies in the second column
of stack ``s``.  Stack moves act on codes as the hyperoctahedral group
``B_R`` (permute bits, complement bits; order ``2^R·R!``), and the pattern
condition is *balance*: every bit is 1 in exactly ``R`` codes.  Classes
(before duality) are the ``B_R``-orbits of balanced multisets; the number of
patterns in one is ``|B_R| / |stabiliser| · (2R)! / Π mult!`` (orbit of
the multiset times the labellings of its digits).  They are built one bit
(stack) at a time: every balanced multiset on ``k + 1`` bits is, after a
move, a balanced multiset on ``k`` bits (a canonical one) with the new bit
set in ``R`` of its codes, so the children of the canonical multisets on
``k`` bits, each reduced to canonical form, are all of them.  The canonical
form of a multiset is the lexicographically smallest of its images sorted in
the order (weight, code); only translates ``M ⊕ u`` (``u ∈ M``) with the
smallest sorted weights can give it, so only those are permuted
(:mod:`counting.group.balanced_codes`, the one home of the codes, shared
with the two-stack Burnside terms).

Work units
----------
One unit per class, ``unit_id = class_id``, classes numbered in the order of
their representatives' column sets.  A unit is a :class:`PatternUnitSpec`:
it carries the representative's column sets instead of givens, and its
count (:func:`counting.run.counter.count_unit`) is ``c``, the number of
rectangles with those column sets whose column 1 is increasing.

Example
-------
>>> red = TwoBandPatternReduction("3x2")
>>> red.factor, red.n_units()
(36, 4)
>>> from counting.run.counter import count_unit
>>> red.total({u.unit_id: count_unit(u).count for u in red.units()})
28200960
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from counting.group.balanced_codes import balanced_orbits, canonical_codes, pattern_from_codes
from counting.reduction.base import Reduction
from counting.reduction.cost import even_work, smallest_class_first
from counting.units import Tally, UnitProblem, WorkUnit
from factorization import (ENGINE_NAME, FactorizationCounter, adjacency, count_factorizations,
                           process_counter, process_memo_mb, reserve_process_memo,
                           shared_memo_refusal)
from factorization.estimate import distinct_share, tree_seconds
from grids.rectangle import ColumnSetRectangles
from grids.shape import as_shape

__all__ = ["TwoBandPatternReduction", "PatternClass", "PatternUnitSpec", "pattern_classes",
           "n_patterns", "pattern_from_codes", "dual_codes"]

NAME = "patterns2"
MAX_R = 6  # largest R enumerated: R = 7 has ~10^8 classes (C(14,7)^7 / (14!·7!·2^7))


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PatternClass:
    """One class of patterns with equal ``L``.

    Attributes
    ----------
    class_id : int
        Position in the order of representatives.
    representative : tuple of tuple of int
        The representative's ``2R`` column sets (sorted digits ``1..2R``)
        of band 1 of an ``R × 2`` grid; columns ``2s`` and ``2s + 1`` form
        stack ``s``.
    weight : int
        The class size: number of patterns in the class.
    """

    class_id: int
    representative: tuple[tuple[int, ...], ...]
    weight: int

    def array(self) -> np.ndarray:
        """The representative as a new ``(2R, R)`` uint8 array, one row per column set."""
        return np.array(self.representative, dtype=np.uint8)


@dataclass(frozen=True)
class PatternUnitSpec(WorkUnit):
    """Everything a worker needs to count one ``patterns2`` unit.

    It carries column sets where a :class:`counting.units.UnitSpec` carries
    givens.  Of the common fields (:class:`counting.units.WorkUnit`):
    ``shape`` is as asked (``"5x2"`` or ``"2x5"``: same units), ``unit_id``
    equals ``class_id`` (one unit per class), ``form_id`` is always 0 and
    ``weight`` is the size of the class (its number of patterns).

    Attributes
    ----------
    column_sets : tuple of tuple of int
        The representative pattern: ``2R`` sorted tuples of ``R`` digits
        ``1..2R``, the column sets of band 1 of an ``R × 2`` grid (for a
        ``2 × R`` grid read transposed: the row sets of stack 1).
    """

    column_sets: tuple[tuple[int, ...], ...] = field(repr=False)


# ---------------------------------------------------------------------------
# Classes: balanced multisets of codes under the hyperoctahedral group
# ---------------------------------------------------------------------------

def dual_codes(codes, R: int) -> tuple[int, ...] | None:
    """The dual pattern's codes (columns and digits exchanged), or None.

    Defined when the codes are closed under complement, so the digits pair
    into complementary sets: pair ``t`` (digits ``i_t``, ``i_t'``) becomes
    stack ``t``, and old column ``(s, b)`` becomes a digit lying in the
    first column of stack ``t`` exactly when digit ``i_t`` lies in it.
    """
    full = (1 << R) - 1
    rest = list(codes)
    firsts = []
    while rest:
        v = rest.pop(0)
        if v ^ full not in rest:
            return None
        rest.remove(v ^ full)
        firsts.append(v)
    return tuple(sum(1 << t for t, v in enumerate(firsts) if (v >> s) & 1 != b)
                 for s in range(R) for b in (0, 1))


def n_patterns(R: int) -> int:
    """Number of patterns: an ``R``-subset for the first column of each stack."""
    return math.comb(2 * R, R) ** R


@lru_cache(maxsize=None)
def pattern_classes(R: int, dual: bool = True) -> tuple[PatternClass, ...]:
    """The classes of the patterns of ``R × 2`` grids (cached).

    With ``dual`` (the default) classes related by duality are merged.

    Example
    -------
    >>> [c.weight for c in pattern_classes(2)]
    [12, 24]
    """
    if isinstance(R, bool) or not isinstance(R, int) or not 1 <= R <= MAX_R:
        raise ValueError(f"pattern classes are enumerated for R = 1..{MAX_R}, got {R!r}")
    orbits = balanced_orbits(R)
    group, labellings = 2 ** R * math.factorial(R), math.factorial(2 * R)
    size = {q: group // stab * labellings // math.prod(math.factorial(m) for m in
                                                      np.unique(q, return_counts=True)[1].tolist())
            for q, stab in orbits.items()}
    members: dict[tuple[int, ...], set] = {q: {q} for q in orbits}
    if dual:
        for q in orbits:
            d = dual_codes(q, R)
            if d is not None:
                form = tuple(canonical_codes(np.array([d]), R)[0][0].tolist())
                if form != q:
                    joined = members[q] | members[form]
                    for m in joined:
                        members[m] = joined
    classes = {min(pattern_from_codes(m, R) for m in group_):
               sum(size[m] for m in group_) for group_ in map(frozenset, members.values())}
    return tuple(PatternClass(i, rep, classes[rep]) for i, rep in enumerate(sorted(classes)))


# ---------------------------------------------------------------------------
# The reduction
# ---------------------------------------------------------------------------

class TwoBandPatternReduction(Reduction):
    """The ``patterns2`` reduction of one two-band shape (``R×2`` or ``2×R``).

    Parameters
    ----------
    shape : Shape or str
        ``R x 2`` (native) or ``2 x R`` (its transpose: the same units and
        total), ``1 <= R <= 6``.

    Attributes
    ----------
    name : str
        ``"patterns2"``.
    shape : Shape
    rows : int
        ``R``, the rows of a band of the ``R × 2`` orientation.
    """

    kind = NAME

    def __init__(self, shape):
        self.shape = as_shape(shape)
        if not self.applies_to(self.shape):
            raise ValueError(f"reduction {NAME!r} applies to boxes of R x 2 or 2 x R cells "
                             f"(R = 1..{MAX_R}), not {self.shape.name}")
        self.rows = self.shape.box_rows if self.shape.box_cols == 2 else self.shape.box_cols
        self._share: float | None = None      # children_share, once computed

    @classmethod
    def applies_to(cls, shape) -> bool:
        """Whether ``shape`` has two bands or two stacks, with ``R <= MAX_R``."""
        s = as_shape(shape)
        return 2 in (s.box_rows, s.box_cols) and max(s.box_rows, s.box_cols) <= MAX_R \
            and not s.latin

    @classmethod
    def default_for(cls, shape) -> bool:
        """The default from 10×10 on (2x5, 5x2, 2x6, 6x2), where the band
        reductions cannot finish; smaller two-band shapes keep ``moves``."""
        return cls.applies_to(shape) and as_shape(shape).n >= 10

    def term(self, weight: int, count: int) -> int:
        """``weight · count²``: a grid is a pair of rectangles of one pattern."""
        return weight * count * count

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """The two row orderings, one per band: ``R!`` each (stacks, for ``2×R``)."""
        R = self.rows
        what = "rows of band" if self.shape.box_cols == 2 else "columns of stack"
        first = "column" if self.shape.box_cols == 2 else "row"
        f = ColumnSetRectangles(R, 2 * R).row_order_factor
        return tuple((f"order the {what} {b} by {first} 1 ({R}!)", f) for b in (1, 2))

    def classes(self) -> list[PatternClass]:
        """The classes with their representatives and sizes (a new list)."""
        return list(pattern_classes(self.rows))

    def units(self) -> list[PatternUnitSpec]:
        """One unit per class, ``unit_id = class_id`` (a new list)."""
        return [PatternUnitSpec(self.shape.name, NAME, c.class_id, c.class_id, 0, c.weight,
                                c.representative) for c in pattern_classes(self.rows)]

    def n_units(self) -> int:
        return len(pattern_classes(self.rows))

    #: From this R on, the classes take minutes to enumerate (R = 6: 3 min),
    #: so the cost estimate does without them.
    ESTIMATE_WITHOUT_CLASSES = 6

    #: Measured minutes to enumerate the classes, by R (2x6: 63,053 classes).
    LISTING_MINUTES = {6: 3}

    #: From :attr:`ESTIMATE_WITHOUT_CLASSES` on (the only rows with a
    #: notice) the estimate does without the classes: said after it.
    estimate_lists_units = False

    def listing_notice(self) -> str | None:
        """From :attr:`ESTIMATE_WITHOUT_CLASSES` on: the classes take minutes."""
        R = self.rows
        if R < self.ESTIMATE_WITHOUT_CLASSES:
            return None
        minutes = self.LISTING_MINUTES.get(R)
        how_long = f"about {minutes:,} minutes" if minutes else "minutes or more"
        return (f"enumerating the pattern classes of {self.shape.name} before the first "
                f"unit: {how_long} ...")

    def n_units_bound(self) -> tuple[int, bool]:
        """The number of classes; from :attr:`ESTIMATE_WITHOUT_CLASSES` on a
        lower bound instead: patterns / (order of the moves' group), since
        no class is larger than the group (relabelling ``(2R)!``, stacks
        ``R!``, swaps ``2^R``, duality 2)."""
        R = self.rows
        if R < self.ESTIMATE_WITHOUT_CLASSES:
            return self.n_units(), True
        group = 2 * math.factorial(2 * R) * math.factorial(R) * 2 ** R
        return -(-n_patterns(R) // group), False

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        """``k`` units; from :attr:`ESTIMATE_WITHOUT_CLASSES` on, random
        patterns (each stack's first column a uniform ``R``-subset) standing
        for units without enumerating the classes (ids -1, weight 0; ``among``,
        ids of units never enumerated, is then not read)."""
        R = self.rows
        if R < self.ESTIMATE_WITHOUT_CLASSES:
            return super().sample_units(k, seed, among)
        rng = random.Random(seed)
        digits = range(1, 2 * R + 1)
        out = []
        for _ in range(k):
            sets = []
            for _ in range(R):
                first = sorted(rng.sample(digits, R))
                sets += [tuple(first), tuple(d for d in digits if d not in first)]
            out.append(PatternUnitSpec(self.shape.name, NAME, -1, -1, 0, 0, tuple(sets)))
        return out

    def _check_spec(self, spec: PatternUnitSpec) -> None:
        if as_shape(spec.shape) not in (self.shape, self.shape.transpose()) \
                or spec.reduction != NAME:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.shape.name}/{NAME}")

    def problem(self, spec: PatternUnitSpec) -> UnitProblem:
        """The matrix of ``R × 2R`` rectangles (memo and tail included) and
        the givens of the unit's column sets, column 1 increasing: the unit
        counts ``L / R!`` rectangles (:attr:`factors` hold the ``R!``)."""
        self._check_spec(spec)
        rect = ColumnSetRectangles(self.rows, 2 * self.rows)
        return UnitProblem(("rectangles", self.rows, 2 * self.rows), rect.exact_cover,
                           tuple(rect.givens(spec.column_sets, order_rows=True)))

    def count_by_kernel(self, spec: PatternUnitSpec, options) -> Tally:
        """The unit's count by the 1-factorization kernel: its rectangles are
        the ordered 1-factorizations of the R-regular graph column–digit of
        its column sets, F_R(G_P) = L(P), over the ``R!`` row orders
        (:mod:`factorization`; the process's counter, its memo table kept)."""
        self._check_spec(spec)
        counter = process_counter(2 * self.rows, options.memo_mb, options.shared_memo)
        t0 = time.perf_counter()
        L = count_factorizations(spec.column_sets, counter=counter)
        count, rest = divmod(L, ColumnSetRectangles(self.rows, 2 * self.rows).row_order_factor)
        if rest:
            raise ValueError(f"unit {spec.unit_id}: {L:,} rectangles are not a multiple of "
                             f"{self.rows}! row orders")
        return Tally(count, seconds=time.perf_counter() - t0, engine_version=ENGINE_NAME)

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float | None:
        """Where the kernel counts the units (not ``--kernel search``): Knuth's
        estimator on the kernel's recurrence tree of the unit's graph
        (:func:`factorization.estimate.tree_seconds`); else None, the search
        estimated on the unit's matrix."""
        if options.searching:
            return None
        adj, d = adjacency(spec.column_sets)
        return tree_seconds(2 * self.rows, adj, d, seed=seed, max_seconds=max_seconds,
                            min_paths=1, below_share=self.children_share(options))

    #: Units whose children are compared to estimate how many the job shares.
    SHARE_SAMPLE = 16

    def children_share(self, options) -> float:
        """The share of the units' children (graphs of degree ``R − 1``) that
        the job expands once, the others being memo hits of the shared memo
        file (:func:`factorization.estimate.distinct_share` over the children
        of :attr:`SHARE_SAMPLE` units drawn with seed 0; computed once).  1
        where the units are not enumerated (the sample is of random patterns,
        their number a bound) and with ``--private-memo``.  Without it the
        estimate of 2x5 counted each unit's children as if no other unit had
        met them: 8 to 12 times its CPU time, which had the job estimated
        (6 s of one core) before its workers started.  The share errs low
        when units share unequally, which matters little where it is used:
        the enumerated shapes (R ≤ 5) count in seconds (2x5: 9.6 CPU-s
        estimated, 13-15 counted)."""
        if not options.shared_memo or self.rows >= self.ESTIMATE_WITHOUT_CLASSES:
            return 1.0
        if self._share is None:
            counter = FactorizationCounter(2 * self.rows, memo_mb=0.0)
            sets = []
            for spec in self.sample_units(self.SHARE_SAMPLE, seed=0):
                keys, _ = counter.children(adjacency(spec.column_sets)[0], rooted=True)
                sets.append({row.tobytes() for row in keys})
            self._share = distinct_share(sets, self.n_units())
        return self._share

    def reserve_memo(self, options) -> None:
        """Where the kernel counts, its shared memo file
        (:func:`factorization.reserve_process_memo`)."""
        if options.shared_memo and not options.searching:
            reserve_process_memo(2 * self.rows, options.memo_mb)

    def describe_memo(self, options) -> str | None:
        """Where the kernel counts, why its shared memo file is not used
        here (:func:`factorization.shared_memo_refusal`), else None."""
        why = self._memo_refusal(options)
        return None if why is None else f"{why}: each worker keeps its own"

    def local_options(self, options):
        """Private tables when the kernel's shared memo file here is refused
        (:meth:`describe_memo` says why)."""
        return replace(options, shared_memo=False) if self._memo_refusal(options) else options

    def _memo_refusal(self, options) -> str | None:
        if not options.shared_memo or options.searching:
            return None
        return shared_memo_refusal(2 * self.rows, options.memo_mb)

    def worker_memory_mib(self, options) -> float:
        """The kernel's memo table where it counts (at least
        :data:`factorization.PROCESS_MEMO_MIN_MB`), else the search's."""
        return super().worker_memory_mib(options) if options.searching \
            else process_memo_mb(options.memo_mb)

    def estimate_memory(self, options=None) -> tuple[int, int] | None:
        """What a worker allocates where the kernel counts: a unit's classes
        rarely repeat, so a larger table would not save time."""
        if options is None or options.searching:
            return None
        return int(self.worker_memory_mib(options) * 2 ** 20), 0

    def hand_out(self, specs) -> list:
        """Smallest class first: the most symmetric patterns have the most
        rectangles and the longest counts (``results/5x2-units.csv``)."""
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)

    def __repr__(self) -> str:
        return f"TwoBandPatternReduction({self.shape.name!r})"
