"""Work units: small, picklable descriptions of one exact-cover count.

A work unit is one (class, column form) pair of a reduction.  Its id is
stable and documented: ``unit_id = class_id * n_forms + form_id`` where
``class_id`` numbers the band-1 classes in the order of their
representatives (lexicographically smallest first) and ``form_id`` numbers
the canonical column-1 forms in lexicographic order.

Workers receive a :class:`UnitSpec` (a few hundred bytes) and rebuild the
engine themselves; they send back a :class:`UnitResult`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


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
