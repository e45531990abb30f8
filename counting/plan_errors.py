"""Why :mod:`counting.plan` refuses or stops a count: one exception each.

``plan`` re-exports them; the command line turns each into its one-line
error and exit status.
"""
from __future__ import annotations

from pathlib import Path

from counting import reach
from counting.route_estimate import RouteEstimate

__all__ = ["OutOfReach", "RouteUnusable", "NoGrids", "BadUnits", "TooMuchMemory", "NoDiskRoom",
           "ClusterUnavailable", "RunFailed", "Interrupted"]


class OutOfReach(ValueError):
    """A job estimated to take longer than :data:`counting.reach.REACH_DAYS`
    days: its reduction's name and the ``describe``d estimate; ``part``: which
    part of the job it is, when not all of it (a symmetry job's grid count)."""

    def __init__(self, shape: str, reduction: str, estimate: str, *,
                 refused_because: str | None = None, also: str | None = None,
                 route: RouteEstimate | None = None, part: str | None = None):
        why = refused_because or (f"more than {reach.REACH_DAYS} days, so it is refused "
                                  f"(--force runs it anyway)")
        job = f"{shape} by reduction {reduction}" if route is None else f"{shape} by layers"
        job += f" ({part})" if part else ""
        super().__init__(f"{job} is out of reach: {estimate}; {why}"
                         + (f"; {also}" if also else ""))
        self.reduction, self.estimate = reduction, estimate
        #: the measured estimate of a route not built yet, given instead of the search's
        self.route = route
        #: the lines :func:`count` had said before the refusal (``count --json``'s ``notes``)
        self.notes: list[str] = []

    def as_json(self, workers: int) -> dict:
        """``count --json``'s data beside the ``error``: ``route_estimate`` on ``workers``, ``notes``."""
        route = {} if self.route is None else {"route_estimate": self.route.as_json(workers)}
        return {**route, **({"notes": self.notes} if self.notes else {})}


class RouteUnusable(ValueError):
    """``count --force`` of a job a measured route replaces (2x6) whose
    measurement file is missing, unreadable, damaged or foreign: refused, not
    the per-class search started in the route's place."""


class NoGrids(ValueError):
    """A kind whose prefix has no filling that keeps its rules: it has no
    grid, the count is 0 (said so; no store is made for a job of no units)."""

    def __init__(self, shape: str, reduction: str, counts: str = "grids"):
        super().__init__(f"{shape} has no grid: no filling of the cells of {reduction} keeps "
                         f"its rules, so the count is 0")
        self.shape, self.reduction, self.counts = shape, reduction, counts


class BadUnits(ValueError):
    """A unit list that names no unit of the job."""


class TooMuchMemory(ValueError):
    """Worker processes and their memo tables that do not fit in this machine's memory;
    ``option``: the option that makes a worker's table smaller (None: only ``--workers``)."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


class NoDiskRoom(ValueError):
    """A memo file for this machine's workers that its disk has no room for
    (:class:`factorization.NoRoomForMemo`): nothing made."""


class ClusterUnavailable(ValueError):
    """A ``--scheduler`` run that cannot start: ``distributed`` is not
    installed, or no scheduler answered at the address.  Nothing was counted
    and only the user can mend it (install the extra, start the scheduler,
    correct the address), so it is a refusal like :class:`NoDiskRoom`, not a
    run that failed (:class:`RunFailed`)."""


class RunFailed(RuntimeError):
    """A run stopped by lost workers or a cluster without workers; its
    finished units are kept (the message says where)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a run (the original is the ``__cause__``);
    ``done`` of ``n_units`` units are safely in ``path``."""

    def __init__(self, done: int, n_units: int, path: Path):
        super().__init__(f"{done:,} of {n_units:,} units are safely in {path}")
        self.done, self.n_units, self.path = done, n_units, path
