"""The charts of a store's report (matplotlib, drawn headless).

:func:`figures` draws, from the finished units: unit counts by class with the
class weights beneath, unit times, search nodes and memo hits per unit, and
units finished over time per worker and per host.  Log axes get readable
labelled ticks (:func:`log_ticks`: decades, or 1-3, 1-2-5 steps when the
values span less), whatever the range, so a chart whose values sit inside
one decade still says what its dots are.

matplotlib is an optional extra: :func:`pyplot` raises
:class:`ReportUnavailable` with the install command without it.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from counting.labels import labels_of

__all__ = ["Figure", "INSTALL", "ReportUnavailable", "pyplot", "figures", "log_ticks", "tick_label",
           "CHART_KEYS"]

#: Every chart :func:`figures` can draw, by key (its file stem for ``--format md``).
CHART_KEYS = ("unit-counts", "unit-seconds", "nodes-memo", "throughput")


#: How to install the charts' matplotlib, as the README says (the extra of the
#: checkout: gridcount is not on the package index).
INSTALL = "python -m pip install -e '.[report]' (in the gridcount checkout)"


class ReportUnavailable(RuntimeError):
    """matplotlib (the ``report`` extra) is not installed."""


@dataclass
class Figure:
    """One chart: a title, a caption and the matplotlib figure."""

    key: str       # file stem for --format md
    title: str
    caption: str
    figure: object  # matplotlib.figure.Figure


def pyplot():
    """matplotlib's pyplot, headless; :class:`ReportUnavailable` without it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "gridcount"  # same ids on every run
        import matplotlib.pyplot as plt
    except ImportError:
        raise ReportUnavailable(
            f"gridcount report draws its charts with matplotlib, which is not installed: "
            f"{INSTALL}") from None
    return plt


#: Steps between the labelled ticks of a log axis, coarsest first.
_MANTISSAS = ((1,), (1, 3), (1, 2, 5), (1, 1.5, 2, 3, 5, 7))
MOST_TICKS = 8   # labelled ticks on a log axis, at most
SPREAD = 100     # values spanning this ratio or more are drawn on a log axis
MOST_BARS = 100  # more classes than this: dots, not bars


def log_ticks(lo: float, hi: float) -> list[float]:
    """Labelled ticks for a log axis over ``[lo, hi]`` (``0 < lo <= hi``): the
    coarsest steps (decades, then 1-3, then 1-2-5, ...) that put at least
    three ticks in the range, and the nearest step below and above it, so
    that every value lies between two labels (the axis is widened to show
    them); at most :data:`MOST_TICKS` of them (every other decade, ... over
    a wide range).  Values of 1 or more are counts: no tick between integers.

    >>> log_ticks(1, 2e6)
    [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000]
    >>> log_ticks(3.2e5, 9.1e5)
    [300000, 500000, 700000, 1000000]
    >>> log_ticks(600, 900)
    [500, 700, 1000]
    >>> log_ticks(1, 1)
    [1, 2]
    >>> log_ticks(1, 2e16)
    [1, 1000, 1000000, 1000000000, 1000000000000, 1000000000000000, 1000000000000000000]
    """
    if not (0 < lo <= hi) or not math.isfinite(hi):
        raise ValueError(f"a log axis needs 0 < lo <= hi, got {lo!r}, {hi!r}")
    first, last = math.floor(math.log10(lo)), math.floor(math.log10(hi))
    for mantissas in _MANTISSAS:
        steps = [_exact(m, k) for k in range(first - 1, last + 2) for m in mantissas]
        if lo >= 1:   # counts: no tick between integers (1.5 nodes)
            steps = [t for t in steps if float(t).is_integer()]
        inside = [t for t in steps if lo <= t <= hi]
        if len(inside) >= 3 or mantissas == _MANTISSAS[-1]:
            break
    few = len(inside) < 3
    below = [t for t in steps if t < lo][-1:] if few or inside[0] > lo else []
    above = [t for t in steps if t > hi][:1] if few or inside[-1] < hi else []
    ticks = below + inside + above
    every = -(-len(ticks) // MOST_TICKS)
    kept = ticks[::every]
    if kept[-1] < hi:   # thinned: one more step of the same ratio, above the values
        a, b = kept[-2], kept[-1]
        kept.append(b * b // a if isinstance(a, int) and isinstance(b, int) else b * b / a)
    return kept


def _exact(m: float, k: int):
    """``m · 10^k`` as an int where it is one (labels without ``.0``)."""
    v = m * 10 ** k if k >= 0 else m / 10 ** -k     # 0.15, not 0.15000000000000002
    return int(round(v)) if k >= 0 and float(v).is_integer() else v


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def tick_label(value: float) -> str:
    """A tick as people read it: ``"500"``, ``"1,500,000"``; from 10^10 on
    ``"2×10¹²"``; below 1 ``"0.05"``.

    >>> tick_label(1500000), tick_label(2e12), tick_label(0.05)
    ('1,500,000', '2×10¹²', '0.05')
    """
    if value >= 1e10:
        k = math.floor(math.log10(value))
        m = value / 10 ** k
        mant = f"{m:.2g}"
        return ("" if mant == "1" else f"{mant}×") + "10" + str(k).translate(_SUPERSCRIPT)
    if value >= 1:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,g}"
    return f"{value:g}"


def _log_y(ax, values) -> None:
    """A log y axis over ``values`` (all > 0) with :func:`log_ticks` labelled."""
    _log_axis(ax, "y", float(min(values)), float(max(values)))   # counts can pass 2**64


def _log_x(ax, lo: float, hi: float) -> None:
    """A log x axis over ``[lo, hi]`` (``lo > 0``) with :func:`log_ticks` labelled."""
    _log_axis(ax, "x", lo, hi)


def _log_axis(ax, which: str, lo: float, hi: float) -> None:
    """Axis ``which`` (``"x"`` or ``"y"``) of ``ax`` on a log scale over
    ``[lo, hi]``, widened so that every labelled tick of :func:`log_ticks` shows."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    getattr(ax, f"set_{which}scale")("log")
    ticks = [float(t) for t in log_ticks(lo, hi)]
    getattr(ax, f"set_{which}lim")(min(ticks[0], lo) / 1.2, max(ticks[-1], hi) * 1.2)
    axis = getattr(ax, f"{which}axis")
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FuncFormatter(lambda v, _: tick_label(v)))
    axis.set_minor_formatter(NullFormatter())


def _thousands(ax) -> None:
    """Plain numbers with thousands separators on the y axis (no 1e6 notation)."""
    from matplotlib.ticker import FuncFormatter
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:,.0f}"))


def _integer_y(ax, nbins="auto") -> None:
    from matplotlib.ticker import MaxNLocator
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=nbins))


def _class_ticks(ax, classes, most: int = 20) -> None:
    """At most about ``most`` class ids as tick labels."""
    step = max(1, -(-len(classes) // most))
    ax.set_xticks(range(0, len(classes), step))
    ax.set_xticklabels([str(classes[i]) for i in range(0, len(classes), step)])


def _finished_over_time(ax, title: str, times: dict[str, list[float]],
                        legend: bool = True) -> None:
    """Units finished (cumulative) against time, one step line per key of ``times``."""
    for name in sorted(times):
        pts = sorted(times[name])
        ax.step(pts, range(1, len(pts) + 1), where="post", label=name)
    ax.set_xlabel("busy time since the first unit started (s; pauses left out)")
    ax.set_ylabel("units finished")
    ax.set_title(title)
    _integer_y(ax)
    if legend:
        ax.legend(fontsize="small")


def figures(plt, job, results, weight, by_worker: dict[str, list],
            timed: list[tuple[datetime, str, str]],
            clock: Callable[[float], float]) -> list[Figure]:
    """The report's charts.

    ``results`` are the finished units, ``weight`` the class weights,
    ``by_worker`` the units each worker counted (units counted elsewhere,
    such as a symmetry job's identity, left out), ``timed`` those units'
    ``(finished at, worker, host)`` and ``clock`` the job's busy time at a
    POSIX time (:func:`counting.report.spans.busy_clock`).
    """
    figs = []
    labels = labels_of(job.reduction_object)
    classes = sorted(job.units_of_class)
    pos = {cid: i for i, cid in enumerate(classes)}

    f, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True,
                                    gridspec_kw={"height_ratios": [3, 1]})
    xs = [pos[r.class_id] for r in results]
    ys = [max(r.count, 1) for r in results]
    top.scatter(xs, ys, s=12, alpha=0.7)
    log = max(ys) >= 10 * min(ys)  # a log axis only when the counts span a decade
    if log:
        _log_y(top, ys)
    else:
        _thousands(top)
    top.set_ylabel("unit count" + (", log scale" if log else ""))
    top.grid(True, alpha=0.3)
    bottom.bar(range(len(classes)), [weight[c] for c in classes], color="tab:gray")
    bottom.set_ylabel("class weight")
    bottom.set_xlabel("class (by id)")
    _integer_y(bottom, nbins=4)
    _thousands(bottom)
    _class_ticks(bottom, classes)
    f.tight_layout()
    figs.append(Figure("unit-counts", "Unit counts by class",
                       f"Each dot is one unit's count ({labels.count_noun}), at its class; the "
                       f"bars beneath are the class weights ({labels.members} per class).", f))

    f, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    _time_histogram(left, [r.seconds for r in results])
    per_class = defaultdict(float)
    for r in results:
        per_class[r.class_id] += r.seconds
    in_ms = max(per_class.values()) < 1
    scale = 1000 if in_ms else 1
    xs = [pos[c] for c in classes if per_class.get(c, 0) > 0]
    ys = [per_class[c] * scale for c in classes if per_class.get(c, 0) > 0]
    if len(classes) > MOST_BARS:   # bars thinner than a pixel would not show: dots
        right.scatter(xs, ys, s=6, color="tab:orange")
    else:
        right.bar(xs, ys, color="tab:orange")
    spread = bool(ys) and max(ys) >= SPREAD * min(ys)
    if spread:
        _log_y(right, ys)
    right.set_xlabel("class (by id)")
    right.set_ylabel(("milliseconds in class" if in_ms else "seconds in class")
                     + (", log scale" if spread else ""))
    right.set_title("by class")
    _class_ticks(right, classes, most=10)
    f.tight_layout()
    figs.append(Figure("unit-seconds", "Unit times",
                       "Wall-clock time of each unit's engine run: their distribution (on "
                       "log-spaced bins when they span more than two decades), and their sum "
                       "per class.", f))

    searched = [r for r in results if r.searched]
    if searched:   # a kernel that counts without searching has no nodes to draw
        figs.append(_nodes_figure(plt, searched, len(searched) < len(results)))

    if timed:
        f, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
        _finished_over_time(left, "per worker", {w: [clock(t.timestamp()) for t, worker, _
                                                     in timed if worker == w]
                                                 for w in by_worker}, legend=len(by_worker) <= 12)
        _finished_over_time(right, "per host", {h: [clock(t.timestamp()) for t, _, host
                                                    in timed if host == h]
                                                for h in {host for _, _, host in timed}})
        f.tight_layout()
        figs.append(Figure("throughput", "Throughput over time",
                           "Units finished (cumulative) against the job's busy time: the "
                           "time during which some unit was counting, so the pauses between "
                           "runs (a job resumed another day) are left out; timestamps have "
                           "one-second resolution.", f))
    return figs


def _time_histogram(ax, secs: list[float]) -> None:
    """Unit times as a histogram: log-spaced bins on a log axis when they span
    more than :data:`SPREAD` (a few slow units among many fast ones would
    otherwise put every unit in the first bar)."""
    ms = max(secs) < 1      # milliseconds read better than 0.00006
    values = [x * 1000 for x in secs] if ms else secs
    bins = min(40, max(5, len(secs) // 5))
    positive = [v for v in values if v > 0]
    if positive and max(positive) >= SPREAD * min(positive):
        lo, hi = min(positive), max(positive)
        edges = [lo * (hi / lo) ** (i / bins) for i in range(bins + 1)]
        edges[-1] = hi * 1.0001
        ax.hist([max(v, lo) for v in values], bins=edges, color="tab:blue")
        _log_x(ax, lo, hi)
        ax.set_xlabel(("unit time (ms)" if ms else "unit time (s)") + ", log scale")
    else:
        from matplotlib.ticker import MaxNLocator
        ax.hist(values, bins=bins, color="tab:blue")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
        ax.set_xlabel("unit time (ms)" if ms else "unit time (s)")
    ax.set_ylabel("units")
    ax.set_title("distribution")
    _integer_y(ax)
    _thousands(ax)


def _nodes_figure(plt, results, some_left_out: bool) -> Figure:
    """Search nodes and memo hits of the searched units."""
    f, ax = plt.subplots(figsize=(10, 3.8))
    ids = [r.unit_id for r in results]
    nodes = [max(r.nodes, 1) for r in results]
    hits = [max(r.memo_hits, 1) for r in results]
    ax.scatter(ids, nodes, s=8, label="nodes")
    ax.scatter(ids, hits, s=8, label="memo hits")
    _log_y(ax, nodes + hits)
    ax.set_xlabel("unit id")
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("per unit (log scale)")
    ax.legend()
    ax.grid(True, alpha=0.3)
    f.tight_layout()
    return Figure("nodes-memo", "Search nodes and memo hits per unit",
                  "Nodes visited by the search and memo-table hits, per unit (log "
                  "scale; a zero is drawn at 1)" + ("; units counted by a kernel, without a "
                                                   "search, are left out." if some_left_out
                                                   else "."), f)
