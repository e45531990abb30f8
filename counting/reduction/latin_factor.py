"""Latin squares counted, not searched: units of 1-factorizations (``factor``).

A Latin square of order n is an ordered 1-factorization of the complete
bipartite graph K_{n,n} (columns on one side, symbols on the other; row i is
a perfect matching, and the n rows partition the edges).  The kernel of
:mod:`factorization` counts F_d(G), the ordered 1-factorizations of a
d-regular bipartite G, by the rooted recurrence

    F_d(G) = d · Σ over perfect matchings M ∋ e of F_{d−1}(G − M)

memoised on canonical forms.  Unfolding it from K_{n,n} down to degree
``d = n//2 + 1`` and merging children with equal canonical forms
(:func:`factorization.latin_units`) gives

    L_n = Σ_unit weight(unit) · F_d(graph of the unit)

exactly: a work unit is one canonical d-regular graph (the column sets it
leaves), its weight is the number of ways the rooted recurrence reaches it
(computed, never typed), and its count is F_d of that graph.  The factor is
1 and the identity is linear, so the store, resume, merge and recount treat
these units like any others.

Units are the classes at degree ``d = n//2 + 1`` up to order 9 (order 9:
3,506 units at degree 5 with this kernel, in seconds).  At order 10 the classes at degree 6
(about 1.6·10⁵) take about 8 CPU minutes to enumerate, and every command that
opens the job would pay it; so a unit of order 10 is a *chunk* of one of the
1,155 classes at degree 7 (:data:`LAYOUT`): chunk ``j`` of ``K`` is

    7 · Σ m_i · F_6(child_i)   over the rooted children i ≡ j (mod K)

(:meth:`factorization.FactorizationCounter.count_chunk`), and the ``K``
chunks of a class sum to its ``F_7``.  ``unit_id = class_id · K + chunk``,
like the band reductions' (class, form) ids.

Example
-------
>>> red = LatinFactorReduction("1x5")
>>> from counting.run.counter import count_unit
>>> red.total({u.unit_id: count_unit(u).count for u in red.units()})
161280
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache

from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction
from counting.reduction.cost import even_work, smallest_class_first
from counting.units import Tally, WorkUnit
from factorization import (ENGINE_NAME, KERNEL_VERSION, FactorizationCounter, adjacency,
                           count_unit_chunk, count_unit_class, latin_units, process_counter, process_memo_mb, reserve_process_memo,
                           shared_memo_refusal)
from factorization.memo_file import describe as describe_memo_file
from factorization.estimate import (FactorCost, classes_bound, factor_cost, memo_bytes_needed,
                                    random_regular)
from grids.shape import as_shape

__all__ = ["LatinFactorReduction", "FactorUnitSpec", "NAME", "MAX_ORDER", "LAYOUT", "layout",
           "forget_classes"]

NAME = "factor"
MAX_ORDER = 11         # largest order the reduction is defined for (and estimated)
ENUMERATED = 10        # largest order whose units are enumerated here
#: order -> (degree of the classes, chunks a class is split into); other
#: orders: the classes at degree n//2 + 1, whole
LAYOUT = {10: (7, 256), 11: (7, 256)}
#: what stores of this reduction recorded as their engine before the kernel
#: version was (2026-11-24..26): the search engine's; their units were made by
#: the kernel's canonical form 1, the only one there was
BEFORE_KERNEL_VERSION = {"dlx1-memo-3": "factorization-1 canon-1"}


def layout(n: int) -> tuple[int, int]:
    """``(degree, chunks)`` of the units of order ``n``."""
    return LAYOUT.get(n, (n // 2 + 1, 1))


@dataclass(frozen=True)
class FactorUnitSpec(WorkUnit):
    """One unit: a canonical ``degree``-regular bipartite graph, by the
    column sets it leaves (column ``c`` may still take the symbols in
    ``column_sets[c]``).  ``class_id = unit_id``, ``form_id = 0``, ``weight``
    the unit's multiplicity in the recurrence."""

    degree: int = 0
    column_sets: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    chunk: int = 0
    chunks: int = 1


@lru_cache(maxsize=None)
def _classes(n: int) -> tuple:
    return tuple(latin_units(n, layout(n)[0]))


def forget_classes() -> None:
    """Forget the classes of each order enumerated so far (kept per process, at the
    degree of :data:`LAYOUT` then): the next use enumerates them at today's."""
    _classes.cache_clear()


class LatinFactorReduction(Reduction):
    """The ``factor`` reduction of Latin squares ``1xN`` / ``Nx1``, N ≤ 10
    (order 11: its estimate only; its units are not enumerated here)."""

    kind = NAME
    engine_pinned = True     # unit ids are positions in the order of canonical keys
    engine_version = KERNEL_VERSION

    def __init__(self, shape):
        self.shape = as_shape(shape)
        if not self.applies_to(self.shape):
            raise ValueError(f"reduction {NAME!r} applies to Latin squares of order 2.."
                             f"{MAX_ORDER} (1xN or Nx1), not {self.shape.name}")

    @classmethod
    def applies_to(cls, shape) -> bool:
        s = as_shape(shape)
        return s.latin and 2 <= s.n <= MAX_ORDER

    @classmethod
    def default_for(cls, shape) -> bool:
        """The default for orders 9 and 10, where searching takes a day or
        more and this takes minutes or hours; smaller orders keep the
        classes of rows 1-3."""
        return cls.applies_to(shape) and as_shape(shape).n >= 9

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ()

    def _enumerated(self) -> tuple:
        n = self.shape.n
        if n > ENUMERATED:
            d = layout(n)[0]
            raise ValueError(f"the units of order {n} are not enumerated here (at least "
                             f"{classes_bound(n, d):,} classes at degree {d}); its estimate is "
                             f"what gridcount count {self.shape.name} gives")
        return _classes(n)

    def n_units_bound(self) -> tuple[int, bool]:
        """The units; beyond :data:`ENUMERATED` a lower bound (classes at the
        units' degree at least labelled graphs / (n!)²) without enumerating."""
        n = self.shape.n
        if n <= ENUMERATED:
            return self.n_units(), True
        d, k = layout(n)
        return classes_bound(n, d) * k, False

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        """``k`` units; beyond :data:`ENUMERATED` random graphs of the units'
        degree standing for them (ids -1, weight 0; ``among`` is then not read)."""
        n = self.shape.n
        if n <= ENUMERATED:
            return super().sample_units(k, seed, among)
        rng, d = random.Random(seed), layout(n)[0]
        out = []
        for _ in range(k):
            adj = random_regular(n, d, rng)
            sets = tuple(tuple(s + 1 for s in range(n) if int(a) >> s & 1) for a in adj)
            out.append(FactorUnitSpec(self.shape.name, NAME, -1, -1, 0, 0, d, sets))
        return out

    def _n_classes(self) -> int:
        n = self.shape.n
        return len(_classes(n)) if n <= ENUMERATED else classes_bound(n, layout(n)[0])

    def classes(self) -> list[BandClass]:
        """The classes at the units' degree: column sets as the representative."""
        return [BandClass(u.unit_id, u.column_sets, u.weight) for u in self._enumerated()]

    def units(self) -> list[FactorUnitSpec]:
        """``chunks`` units a class (one, up to order 9), ``unit_id =
        class_id · chunks + chunk``."""
        k = layout(self.shape.n)[1]
        return [FactorUnitSpec(self.shape.name, NAME, u.unit_id * k + j, u.unit_id, j, u.weight,
                               u.degree, sets, j, k)
                for u in self._enumerated() for sets in (u.column_sets,) for j in range(k)]

    def foreign_engine(self, stored: str) -> str | None:
        """None when a store recorded with engine ``stored`` holds units of
        this kernel and canonical form (:data:`BEFORE_KERNEL_VERSION` maps the
        stores that recorded the search engine); else why not, in one line."""
        if BEFORE_KERNEL_VERSION.get(stored, stored) == KERNEL_VERSION:
            return None
        return (f"it belongs to another kernel: its units were counted by engine {stored!r}, "
                f"this gridcount's is "
                f"{KERNEL_VERSION!r}; the unit ids follow the kernel's canonical form, so "
                f"the two cannot be mixed")

    def foreign_total_refused(self) -> str:
        """Why a complete store of another kernel has no total here: ``L_n = Σ weight ·
        count`` weighs each unit's count by the ways the recurrence reaches this kernel's
        graph of that id, and the store's kernel numbered the graphs by its own canonical
        form (1x5's two units, exchanged, would give 155,520 Latin squares, not 161,280)."""
        return ("L_n = Σ weight · count weighs each unit's count by this kernel's graph of "
                "that id, and the store's kernel gave its graphs ids by another canonical form")

    def problem(self, spec) -> None:
        """None: a unit is counted by the factorization kernel, not searched."""
        return None

    def count_directly(self, spec: FactorUnitSpec,
                       options: CountOptions = CountOptions()) -> Tally:
        """F_degree of the unit's graph, on this process's counter (its memo
        table kept from one unit to the next: its keys are canonical forms,
        so this is always correct)."""
        counter = process_counter(self.shape.n, options.memo_mb, options.shared_memo)
        t0 = time.perf_counter()
        count = self._count_on(counter, spec)
        return Tally(count, seconds=time.perf_counter() - t0, engine_version=ENGINE_NAME)

    def count_independently(self, spec: FactorUnitSpec,
                            options: CountOptions = CountOptions()) -> int:
        """``gridcount recount``'s count: F_degree of the unit's graph by the kernel
        again, on a new counter whose memo table is its own and empty (``options.memo``
        off: no memo table), never this process's counter nor the machine's shared memo
        file, which the count filled (:meth:`recount_method`)."""
        mb = process_memo_mb(options.memo_mb) if options.memo else 0
        return self._count_on(FactorizationCounter(self.shape.n, memo_mb=mb), spec)

    def recount_method(self) -> str:
        return ("the 1-factorization kernel again (not dancing links), on a new memo table "
                "of its own, not the machine's shared memo file that the count filled "
                "(--no-memo: no memo table)")

    def _count_on(self, counter, spec: FactorUnitSpec) -> int:
        """F_degree of ``spec``'s graph (its chunk) on ``counter``."""
        if as_shape(spec.shape) not in (self.shape, self.shape.transpose()) \
                or spec.reduction != NAME:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.shape.name}/{NAME}")
        if spec.chunks == 1:
            return count_unit_class(spec.column_sets, spec.degree, counter=counter)
        return count_unit_chunk(spec.column_sets, spec.degree, spec.chunk, spec.chunks,
                                counter=counter)

    def estimate_method(self, sampled: int) -> str:
        return f"the kernel's class model from {sampled} sampled unit{'s' * (sampled != 1)}"

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """A unit's share of the job's CPU time: the kernel's class model
        (:func:`factorization.estimate.factor_cost`: classes met × measured
        seconds to expand one, on random descents from this unit's graph)
        over the number of units.  Units share one memo, so a unit counted
        alone would take far longer than its share."""
        return self.cost(spec, seed=seed, max_seconds=max_seconds).cpu_seconds \
            / self.n_units_bound()[0]

    def cost(self, spec=None, *, seed: int = 0, max_seconds: float = 6.0) -> FactorCost:
        """The class model of the whole job, descending from ``spec``'s graph
        (default: a unit drawn with ``seed``)."""
        if spec is None:
            spec = self.sample_units(1, seed)[0]
        adj, _ = adjacency(spec.column_sets, spec.degree)
        return factor_cost(self.shape.n, spec.degree, self._n_classes(), [adj],
                           seed=seed, max_seconds=max_seconds, min_paths=1)

    def worker_memory_mib(self, options) -> float:
        """The kernel's memo table (always on): ``--memo-mb``, at least
        :data:`factorization.PROCESS_MEMO_MIN_MB`."""
        return process_memo_mb(options.memo_mb)

    def estimate_memory(self, options=None) -> tuple[int, int]:
        """The memo that holds every class below the units' degree
        (:func:`factorization.estimate.memo_bytes_needed`): shared by the
        workers of a machine (the memo file), or private to each with
        ``options.shared_memo`` off."""
        d = layout(self.shape.n)[0]
        need = int(memo_bytes_needed(self.shape.n, d, self._n_classes()))
        return (0, need) if options is None or options.shared_memo else (need, 0)

    def describe_memo(self, options) -> str:
        """The kernel's memo: the shared file (:func:`factorization.memo_file.describe`)
        or each worker's own table."""
        mb = process_memo_mb(options.memo_mb)
        if not options.shared_memo:
            return f"{mb:,g} MiB private to each worker (--private-memo)"
        return describe_memo_file(self.shape.n, mb)

    def reserve_memo(self, options) -> None:
        """The shared memo file (:func:`factorization.reserve_process_memo`)."""
        if options.shared_memo:
            reserve_process_memo(self.shape.n, options.memo_mb)

    def local_options(self, options):
        """Private tables when the shared memo file here is refused
        (:func:`factorization.shared_memo_refusal`; :meth:`describe_memo`
        says why)."""
        if options.shared_memo and shared_memo_refusal(self.shape.n, options.memo_mb):
            return replace(options, shared_memo=False)
        return options

    def hand_out(self, specs) -> list:
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)

    def __repr__(self) -> str:
        return f"LatinFactorReduction({self.shape.name!r})"
