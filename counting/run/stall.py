"""When a local pool's worker counts a unit for too long: the stall rule.

A worker process that gives no result for its unit far beyond what the
unit should take, and then uses no CPU time for a few seconds, is taken for
stalled (stopped by ``SIGSTOP``, hung on a dead file system): the pool
kills it, says so in one line, and a new worker counts the unit again
(:func:`dlx.pools.map_unordered`, ``deadline``; a worker past its limit
that still computes, on a starved machine, is left to finish).  The limit
of a unit on its ``attempt``-th worker is

    max(FLOOR, FACTOR × expected seconds) × 2 ** (attempt − 1)

where the expected seconds are the unit's estimated work
(:meth:`~counting.reduction.base.Reduction.work_shares`, the shares the
progress bar advances by) at the rate this run has counted work so far:
Σ work of the finished units / Σ their seconds.  Until a unit has finished
there is no rate, and no limit.  The limit doubles with each attempt, so a
unit whose estimate is merely far off gets longer each time, and the pool's
attempts (:data:`counting.run.pool.ATTEMPTS`) bound the recounts.

``FLOOR`` is :data:`FLOOR_SECONDS`; the environment variable
``GRIDCOUNT_STALL_FLOOR`` (seconds) replaces it.  That is for tests, which
cannot wait two minutes for a stall; it is not an option for users.

Example
-------
>>> rule = Deadlines({1: 0.25, 2: 0.75}, floor=120)
>>> rule.limit(2, attempt=1) is None          # no unit finished: no rate yet
True
>>> rule.finished(1, seconds=10.0)            # 0.25 of the work in 10 s
>>> rule.expected(2), rule.limit(2, attempt=1), rule.limit(2, attempt=2)
(30.0, 600.0, 1200.0)
"""
from __future__ import annotations

import math
import os

__all__ = ["Deadlines", "FLOOR_SECONDS", "FACTOR", "FLOOR_VARIABLE", "floor_seconds"]

#: No unit is taken for stalled before it has run this long (seconds).
FLOOR_SECONDS = 120.0
#: ... nor before it has run this many times its expected seconds.
FACTOR = 20.0
#: The environment variable that replaces :data:`FLOOR_SECONDS` (tests only).
FLOOR_VARIABLE = "GRIDCOUNT_STALL_FLOOR"


def floor_seconds() -> float:
    """:data:`FLOOR_SECONDS`, or the seconds in ``$GRIDCOUNT_STALL_FLOOR``.

    ValueError (one line) for a value that is not a number of seconds > 0.
    """
    text = os.environ.get(FLOOR_VARIABLE)
    if text is None:
        return FLOOR_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{FLOOR_VARIABLE}={text!r} is not a number of seconds > 0")
    return value


class Deadlines:
    """The stall rule of one run (see the module docstring).

    ``work``: each unit's share of the work, by unit id (the shares of the
    units asked for); ``floor``: :data:`FLOOR_SECONDS` unless given.
    """

    def __init__(self, work: dict[int, float], *, floor: float | None = None):
        self.work = dict(work)
        self.floor = floor_seconds() if floor is None else floor
        self.work_done = 0.0
        self.seconds_done = 0.0
        self.finished_units = 0

    def finished(self, unit_id: int, seconds: float) -> None:
        """A unit came back after ``seconds`` of counting: the rate learns it."""
        self.work_done += self.work.get(unit_id, 0.0)
        self.seconds_done += max(seconds, 0.0)
        self.finished_units += 1

    def expected(self, unit_id: int) -> float | None:
        """The seconds ``unit_id`` should take at this run's rate; None
        before any unit has finished."""
        if not self.finished_units:
            return None
        if self.work_done <= 0.0:     # only units of no estimated work so far
            return 0.0
        return self.work.get(unit_id, 0.0) * self.seconds_done / self.work_done

    def limit(self, unit_id: int, attempt: int) -> float | None:
        """Seconds the ``attempt``-th worker (1 for the first) may count
        ``unit_id`` before it is taken for stalled; None: no limit yet."""
        expected = self.expected(unit_id)
        if expected is None:
            return None
        return max(self.floor, FACTOR * expected) * 2.0 ** (attempt - 1)
