"""The charts of a store's report (matplotlib, drawn headless).

:func:`figures` draws, from the finished units: unit counts by class with the
class weights beneath, unit times, search nodes and memo hits per unit, and
units finished over time per worker and per host.  Log axes get readable
labelled ticks (:mod:`counting.report.axes`: decades, or 1-3, 1-2-5 steps
when the values span less, in one notation an axis), whatever the range, so
a chart whose values sit inside one decade still says what its dots are;
class axes span every class of the job, labelled at a round step that fits.

matplotlib is an optional extra: :func:`pyplot` raises
:class:`ReportUnavailable` with the install command without it.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from counting.labels import Labels, labels_of
from counting.report.axes import (set_class_ticks, set_integer_y, set_log_axis, set_thousands)

__all__ = ["Figure", "INSTALL", "ReportUnavailable", "pyplot", "figures", "CHART_KEYS",
           "unit_counts_caption", "line_styles"]

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


SPREAD = 100     # values spanning this ratio or more are drawn on a log axis
MOST_BARS = 100  # more classes than this: dots, not bars


def _log_y(ax, values) -> None:
    """A log y axis over ``values`` (all > 0), its ticks labelled."""
    set_log_axis(ax, "y", float(min(values)), float(max(values)))   # counts can pass 2**64


_DASHES = ("-", "--", "-.", ":")
WIDEST_LINE, NARROWEST_LINE = 3.5, 1.0   # points


def line_styles(n: int) -> list[dict]:
    """Matplotlib styles for ``n`` lines that may lie on one another (workers
    that finish units at one pace): each narrower than the one drawn before
    it, and dashed differently from its neighbours, so every line of the
    legend shows, beside or inside the wider lines beneath it.

    >>> [(s["linestyle"], s["linewidth"]) for s in line_styles(3)]
    [('-', 3.5), ('--', 2.25), ('-.', 1.0)]
    """
    step = (WIDEST_LINE - NARROWEST_LINE) / max(1, n - 1)
    return [{"linestyle": _DASHES[i % len(_DASHES)],
             "linewidth": round(WIDEST_LINE - i * step, 3) if n > 1 else 1.5}
            for i in range(n)]


def _finished_over_time(ax, title: str, times: dict[str, list[float]],
                        legend: bool = True) -> None:
    """Units finished (cumulative) against time, one step line per key of
    ``times``, styled apart (:func:`line_styles`)."""
    for name, style in zip(sorted(times), line_styles(len(times))):
        pts = sorted(times[name])
        ax.step(pts, range(1, len(pts) + 1), where="post", label=name, **style)
    ax.set_xlabel("busy time since the first unit started (s; pauses left out)")
    ax.set_ylabel("units finished")
    ax.set_title(title)
    set_integer_y(ax)
    set_thousands(ax)
    set_thousands(ax, "x")
    if legend:
        ax.legend(fontsize="small")


def figures(plt, job, results, weight: dict[int, int] | None, by_worker: dict[str, list],
            timed: list[tuple[datetime, str, str]],
            clock: Callable[[float], float]) -> list[Figure]:
    """The report's charts.

    ``results`` are the finished units, ``weight`` the class weights (None:
    not the store's units' weights, a store of another kernel, and not drawn),
    ``by_worker`` the units each worker counted (units counted elsewhere,
    such as a symmetry job's identity, left out), ``timed`` those units'
    ``(finished at, worker, host)`` and ``clock`` the job's busy time at a
    POSIX time (:func:`counting.report.spans.busy_clock`).
    """
    figs = []
    labels = labels_of(job.reduction_object)
    classes = sorted(job.units_of_class)
    pos = {cid: i for i, cid in enumerate(classes)}

    if weight is None:   # this gridcount's weights are of other units: counts alone
        f, top = plt.subplots(figsize=(10, 4.5))
        bottom = top
    else:
        f, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True,
                                        gridspec_kw={"height_ratios": [3, 1]})
    xs = [pos[r.class_id] for r in results]
    ys = [max(r.count, 1) for r in results]
    top.scatter(xs, ys, s=12, alpha=0.7)
    log = max(ys) >= 10 * min(ys)  # a log axis only when the counts span a decade
    if log:
        _log_y(top, ys)
    else:
        set_thousands(top)
    top.set_ylabel("unit count" + (", log scale" if log else ""))
    top.grid(True, alpha=0.3)
    if weight is not None:
        bottom.bar(range(len(classes)), [weight[c] for c in classes], color="tab:gray")
        bottom.set_ylabel("class weight")
        set_integer_y(bottom, nbins=4)
        set_thousands(bottom)
    bottom.set_xlabel("class (by id)")
    set_class_ticks(bottom, classes)
    f.tight_layout()
    figs.append(Figure("unit-counts", "Unit counts by class",
                       unit_counts_caption(labels, weighed=weight is not None), f))

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
    set_class_ticks(right, classes, most=10)
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
                           "one-second resolution.  Workers that kept one pace draw lines "
                           "on one another: each is narrower than the one beneath it and "
                           "dashed differently.", f))
    return figs


def unit_counts_caption(labels: Labels, weighed: bool = True) -> str:
    """The caption of the unit-counts chart, in the words of the job's reduction
    (``weighed`` False: drawn without the class weights, which are not the store's)."""
    dots = f"Each dot is one unit's count ({labels.count_noun}), at its class"
    if not weighed:
        return (f"{dots}; no class weights: the store's units are not this gridcount's, "
                f"whose weights are of other units.")
    return f"{dots}; the bars beneath are the class weights ({labels.weight_means})."


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
        set_log_axis(ax, "x", lo, hi)
        ax.set_xlabel(("unit time (ms)" if ms else "unit time (s)") + ", log scale")
    else:
        from matplotlib.ticker import MaxNLocator
        ax.hist(values, bins=bins, color="tab:blue")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
        ax.set_xlabel("unit time (ms)" if ms else "unit time (s)")
    ax.set_ylabel("units")
    ax.set_title("distribution")
    set_integer_y(ax)
    set_thousands(ax)


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
