"""Latin rectangles (``gridcount count 1xN --rows K``): bounded, estimated, then counted.

The ``K × N`` Latin rectangles are counted by the 1-factorization kernel
(:func:`factorization.latin_rectangles`) row by row: row 1 is any of the
``N!`` permutations, and each later row is a perfect matching of what the
rows above leave of ``K_{N,N}``, enumerated one by one and sorted into
classes.  Row 2 alone enumerates every perfect matching of ``K_{N,N}``
minus one matching, the derangements of ``N`` (OEIS A000166: 1,334,961 for
``N = 10``, 2 CPU-s here; 14,684,570 for 11; 176,214,841 for 12), and holds
their canonical keys in memory at once (about 70 bytes a matching,
measured); each later row at least the perfect matchings of one
``(N - i)``-regular bipartite graph (Schrijver's bound).

So, as every job is, the count is estimated before it starts
(:func:`rectangles_cost`): those matchings (a lower bound) times the seconds
a matching takes on this machine (measured on ``K_8`` minus a matching,
:data:`SAMPLE_COLUMNS`: 14,833 matchings, a fortieth of a second), and their
memory.  A count estimated at more than :data:`counting.reach.REACH_DAYS`
days, or more memory than the machine has, is refused
(:class:`RectanglesOutOfReach`); one estimated at :data:`NOTE_SECONDS` or
more says its estimate first.  ``K ≥ N - 1`` rows are the Latin squares (the last row is
forced), estimated as ``gridcount count 1xN`` is
(:func:`counting.plan.check_reach`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from counting import reach
from counting.options import CountOptions
from counting.plan import OutOfReach, check_reach
from dlx.api import MEMO_MB_MAX
from dlx.estimate import sample_seconds
from factorization import MAX_N, latin_rectangles
from factorization.api import FactorizationCounter
from grids.kind import as_kind

__all__ = ["RectanglesCost", "RectanglesOutOfReach", "rectangles_cost", "count_rectangles",
           "check_rectangles", "derangements", "schrijver", "SAMPLE_COLUMNS", "KEY_COPIES", "NOTE_SECONDS"]

#: Columns of the sample whose row-2 matchings are timed (``K_8`` minus a
#: matching: 14,833 of them); a matching takes longer the more columns.
SAMPLE_COLUMNS = 8
#: A count estimated at this many CPU seconds or more says its estimate first.
NOTE_SECONDS = 10.0
#: Copies of a matching's canonical key held at once: the kernel's array and
#: ``np.unique``'s sorted one (70 bytes a matching measured for N = 10).
KEY_COPIES = 2


class RectanglesOutOfReach(ValueError):
    """Rectangles estimated to take more than :data:`counting.reach.REACH_DAYS`
    days, or more memory than this machine has: refused, with the estimate."""

    def __init__(self, what: str, estimate: str, why: str):
        super().__init__(f"{what} are out of reach: {estimate}; {why}, so they are refused")


@dataclass(frozen=True)
class RectanglesCost:
    """A lower bound on the work of counting the ``rows × n`` Latin rectangles.

    Attributes
    ----------
    rows, n : int
    matchings : int
        Perfect matchings the kernel enumerates, at least.
    matching_seconds : float
        CPU seconds a matching takes here (measured on :data:`SAMPLE_COLUMNS`).
    matching_bytes : int
        Bytes a matching of row 2 holds (its keys, :data:`KEY_COPIES` copies).
    first_row_matchings : int
        Matchings of row 2, all held in memory at once.
    """

    rows: int
    n: int
    matchings: int
    matching_seconds: float
    matching_bytes: int
    first_row_matchings: int

    @property
    def cpu_seconds(self) -> float:
        return self.matchings * self.matching_seconds

    @property
    def memory_mib(self) -> float:
        return self.first_row_matchings * self.matching_bytes / 2 ** 20

    def describe(self) -> str:
        """One line: the estimate and how it was made."""
        return (f"at least {reach.format_seconds(self.cpu_seconds)} of CPU (at least "
                f"{self.matchings:,} perfect matchings × "
                f"{self.matching_seconds * 1e6:,.1f} µs each, timed on {SAMPLE_COLUMNS} "
                f"columns) and {self.memory_mib:,.0f} MiB")


def check_rectangles(rows: int, n: int) -> None:
    """``ValueError`` (one line) for rectangles the kernel cannot count."""
    if n > MAX_N:
        raise ValueError(f"Latin rectangles are counted for at most {MAX_N} columns (the "
                         f"kernel's canonical keys hold {MAX_N} bits a row), not {n}")
    if rows > n:
        raise ValueError(f"a Latin rectangle of {n} columns has at most {n} rows, not {rows}")


def derangements(n: int) -> int:
    """The perfect matchings of ``K_{n,n}`` minus a perfect matching (OEIS A000166).

    >>> [derangements(n) for n in range(1, 8)]
    [0, 1, 2, 9, 44, 265, 1854]
    """
    a, b = 1, 0                       # D(0), D(1)
    for k in range(2, n + 1):
        a, b = b, (k - 1) * (a + b)
    return b if n >= 1 else a


def schrijver(d: int, n: int) -> int:
    """A lower bound on the perfect matchings of a ``d``-regular bipartite
    graph with ``n`` vertices a side (Schrijver 1998): ``((d-1)^(d-1) / d^(d-2))^n``."""
    if d <= 1:
        return 1
    return math.floor(((d - 1) ** (d - 1) / d ** (d - 2)) ** n)


def rectangles_cost(rows: int, n: int) -> RectanglesCost:
    """The lower bound of the module's docstring, for ``2 <= rows < n - 1``;
    ``rows`` of 1 and ``n - 1`` or more rows cost nothing here (1) or are
    squares (estimated as a job)."""
    first = derangements(n) if rows >= 2 else 0
    matchings = first + sum(schrijver(n - i + 1, n) for i in range(3, rows + 1))
    m = min(n, SAMPLE_COLUMNS)
    counter = FactorizationCounter(m, memo_mb=0)
    minus_identity = np.full(m, (1 << m) - 1, dtype=np.uint32) & \
        ~(np.uint32(1) << np.arange(m, dtype=np.uint32))
    t0 = sample_seconds()
    keys = counter.kernel.children(minus_identity, False)
    np.unique(keys, axis=0)
    seconds = (sample_seconds() - t0) / max(len(keys), 1)
    per_key = keys.nbytes // max(len(keys), 1) if len(keys) else 32
    return RectanglesCost(rows, n, matchings, seconds, KEY_COPIES * per_key, first)


def count_rectangles(shape, rows: int, *, note: Callable[[str], None] = lambda msg: None
                     ) -> int:
    """The ``rows × N`` Latin rectangles of the Latin shape ``shape`` (1xN or
    Nx1), once its cost is estimated (see the module); ``note`` is told the
    estimate of a count that could run long.

    Raises
    ------
    ValueError
        Not a Latin shape, more rows than columns, more columns than the kernel counts.
    RectanglesOutOfReach
        Estimated at more than :data:`counting.reach.REACH_DAYS` days, or
        more memory than this machine has.
    counting.plan.OutOfReach
        Latin squares (``rows >= N - 1``) that ``gridcount count 1xN`` refuses.
    """
    kind = as_kind(shape)
    if not (kind.shape.latin and kind.plain):
        raise ValueError(f"Latin rectangles need a Latin shape (1xN or Nx1), not {kind.name}")
    n = kind.shape.n
    check_rectangles(rows, n)
    what = f"{rows} x {n} Latin rectangles"
    if rows >= n - 1 and n > 2:
        try:
            costs = check_reach(kind.name, None, CountOptions(), 1, note=note)
        except OutOfReach as e:
            raise RectanglesOutOfReach(f"{what} (the Latin squares of order {n}, as "
                                       f"`gridcount count {kind.name}` counts them)",
                                       e.estimate, f"more than {reach.REACH_DAYS} days") from None
        for _, cost in costs:
            note(f"{what} are the Latin squares of order {n}: {cost.describe(1)}")
    elif rows >= 2:
        cost = rectangles_cost(rows, n)
        if cost.cpu_seconds > reach.REACH_DAYS * 86400:
            raise RectanglesOutOfReach(what, cost.describe(),
                                       f"more than {reach.REACH_DAYS} days")
        if cost.memory_mib > MEMO_MB_MAX:
            raise RectanglesOutOfReach(what, cost.describe(), f"more memory than this "
                                       f"machine's {MEMO_MB_MAX:,} MiB")
        if cost.cpu_seconds >= NOTE_SECONDS:
            note(f"{what}: {cost.describe()} ...")
    return latin_rectangles(rows, n)
