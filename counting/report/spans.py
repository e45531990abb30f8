"""When a store's units ran: their time spans, and the job's busy time.

A unit stored with ``finished_at`` (to the second) and ``seconds`` (the wall
time of its count) ran during ``(finished - seconds, finished + 1)``: the
``+ 1`` because the timestamp is cut to the second.  A job resumed on
another day has long pauses between its runs; the report's wall time and
its throughput chart measure *busy* time, during which at least one unit
was counting, so a pause neither counts nor stretches the chart.
"""
from __future__ import annotations

import bisect
from datetime import datetime, timezone
from typing import Callable, Iterable

from counting.units import UnitResult

__all__ = ["finished_at", "unit_spans", "busy_seconds", "busy_clock"]


def finished_at(r: UnitResult) -> datetime | None:
    """When ``r`` was stored (UTC when the store gave no zone); None if unreadable."""
    try:
        t = datetime.fromisoformat(r.finished_at)
    except (TypeError, ValueError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def unit_spans(results: Iterable[UnitResult]) -> list[tuple[float, float]]:
    """The ``(start, end)`` POSIX seconds during which each unit with a
    readable timestamp was counting."""
    spans = []
    for r in results:
        t = finished_at(r)
        if t is not None:
            spans.append((t.timestamp() - r.seconds, t.timestamp() + 1))
    return spans


def _merged(spans: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of ``spans`` as disjoint spans in increasing order."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def busy_seconds(spans: list[tuple[float, float]]) -> float:
    """Seconds during which at least one of the ``(start, end)`` spans runs:
    the wall time of a job's runs, however many workers, with the pauses
    between runs (a resumed job) left out.

    >>> busy_seconds([(0, 10), (5, 12), (100, 101)])
    13
    """
    return sum(b - a for a, b in _merged(spans))


def busy_clock(spans: list[tuple[float, float]]) -> Callable[[float], float]:
    """A clock that runs only while a span runs: ``clock(t)`` is the busy
    time (:func:`busy_seconds`) of ``spans`` before ``t``.

    >>> clock = busy_clock([(0, 10), (100, 105)])
    >>> clock(5), clock(50), clock(103), clock(200)
    (5, 10, 13, 15)
    """
    merged = _merged(spans)
    starts = [a for a, _ in merged]
    before = [0]   # busy time before each merged span
    for a, b in merged:
        before.append(before[-1] + (b - a))

    def clock(t: float) -> float:
        i = bisect.bisect_right(starts, t) - 1
        if i < 0:
            return 0
        a, b = merged[i]
        return before[i] + min(t, b) - a

    return clock
