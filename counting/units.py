"""Work units: small, picklable descriptions of one exact-cover count.

A work unit is one (class, column form) pair of a reduction.  Its id is
stable and documented: ``unit_id = class_id * n_forms + form_id`` where
``class_id`` numbers the band-1 classes in the order of their
representatives (lexicographically smallest first) and ``form_id`` numbers
the canonical column-1 forms in lexicographic order.

Workers receive a :class:`WorkUnit` (a few hundred bytes), ask its
reduction for the unit's :class:`UnitProblem` (which matrix, which given
rows), count it on their own cached engine and send back a
:class:`UnitResult`, made in one place (:meth:`UnitResult.made`) from the
unit and a :class:`Tally`.
"""
from __future__ import annotations

import dataclasses
import socket
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Callable, Iterable

from dlx import ENGINE_VERSION, ExactCover


@dataclass(frozen=True)
class WorkUnit:
    """What every work unit carries: where it belongs and what it weighs.

    Attributes
    ----------
    shape : str
        Box shape ``"RxC"`` (``"3x3"`` for 9×9 Sudoku).
    reduction : str
        Name of the reduction the unit belongs to (``"71"``, ``"patterns2"``, ...).
    unit_id, class_id, form_id : int
        Stable ids (``unit_id`` is the unit's position in its reduction).
    weight : int
        Weight of the class (the number of members it stands for).
    """

    shape: str
    reduction: str
    unit_id: int
    class_id: int
    form_id: int
    weight: int


@dataclass(frozen=True)
class UnitSpec(WorkUnit):
    """A unit counted on the grid's own matrix: a partial grid.

    For the band reductions ``unit_id = class_id * n_forms + form_id``.

    Attributes
    ----------
    givens : tuple of (row, col, digit)
        Cells fixed before the search: 0-based row and column, digit 1..N.
    """

    givens: tuple[tuple[int, int, int], ...] = field(repr=False)


@dataclass(frozen=True)
class UnitResult:
    """The outcome of one counted unit, as stored in the database.

    ``count`` is an exact Python int.  The statistics are those of the
    engine run that produced it.  ``worker`` names the worker process that
    counted it on ``host`` (``count_unit`` writes ``"NAME:PID"`` of the
    process; a pool may write something more telling, such as a cluster
    worker's address); ``""`` when unknown (stores of format 1).
    """

    unit_id: int
    class_id: int
    form_id: int
    count: int
    nodes: int
    dead_ends: int
    memo_hits: int
    seconds: float
    host: str
    engine_version: str
    finished_at: str
    worker: str = ""

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def searched(self) -> bool:
        """Whether the unit was counted by the dancing-links search, so that
        its ``nodes``, ``dead_ends`` and ``memo_hits`` are the search's.  A
        kernel that counts without searching keeps no such figures: the
        factorization kernel stores 0, the band tables (``...+bandtables``)
        their terms."""
        return self.engine_version.startswith("dlx") and "+" not in self.engine_version

    @staticmethod
    def search_rate(results: "Iterable[UnitResult]") -> float | None:
        """Solutions a second of the searched units among ``results``
        (:attr:`searched`): the search's throughput.  None when none was
        searched or they took no time: a kernel's units are counted, not
        searched, and their "solutions a second" (about 10^30 for Latin
        squares of order 10) measure nothing."""
        searched = [r for r in results if r.searched]
        seconds = sum(r.seconds for r in searched)
        return sum(r.count for r in searched) / seconds if seconds > 0 else None

    @classmethod
    def made(cls, unit: WorkUnit, tally: "Tally", worker: str = "") -> "UnitResult":
        """The result of ``unit`` counted as ``tally`` says, finished now: the
        one place a result is made from a count."""
        return cls(unit_id=unit.unit_id, class_id=unit.class_id, form_id=unit.form_id,
                   count=tally.count, nodes=tally.nodes, dead_ends=tally.dead_ends,
                   memo_hits=tally.memo_hits, seconds=round(tally.seconds, 6),
                   host=tally.host, engine_version=tally.engine_version,
                   finished_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   worker=worker)


@dataclass(frozen=True)
class UnitProblem:
    """What a unit is to the engine: a matrix and the unit's given rows in it.

    Attributes
    ----------
    matrix : tuple
        The matrix's key in a process's engine cache: units with the same
        key are counted on the same :class:`~dlx.ExactCover` (and share its
        memo table, which is always correct: its keys are exact states).
    build : callable
        Makes that matrix (priorities and tail included) when the process
        has none under ``matrix`` yet.
    given : tuple of int
        The unit's given rows.
    """

    matrix: tuple
    build: Callable[[], ExactCover] = field(compare=False, repr=False)
    given: tuple[int, ...] = field(repr=False)


@dataclass(frozen=True)
class Tally:
    """An exact count and the statistics of the work that produced it."""

    count: int
    nodes: int = 0
    dead_ends: int = 0
    memo_hits: int = 0
    seconds: float = 0.0
    engine_version: str = ENGINE_VERSION
    host: str = field(default_factory=socket.gethostname)

    @classmethod
    def of_engine(cls, count: int, ec: ExactCover) -> "Tally":
        """The count of a run of ``ec`` with that run's statistics."""
        st = ec.stats
        return cls(count, st.nodes, st.dead_ends, st.memo_hits, st.seconds)

    def plus(self, other: "Tally", weight: int = 1) -> "Tally":
        """This tally and ``other``'s work: the count plus ``weight`` ×
        ``other``'s (one search standing for ``weight`` equal ones), the
        nodes, dead ends, memo hits and seconds of both (the work done).

        Example
        -------
        >>> t = Tally(2, nodes=5).plus(Tally(3, nodes=7), weight=4)
        >>> t.count, t.nodes
        (14, 12)
        """
        return dataclasses.replace(self, count=self.count + weight * other.count,
                                   nodes=self.nodes + other.nodes,
                                   dead_ends=self.dead_ends + other.dead_ends,
                                   memo_hits=self.memo_hits + other.memo_hits,
                                   seconds=self.seconds + other.seconds)
