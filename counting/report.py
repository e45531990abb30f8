"""A report of one store: the job, its units, its workers, as one page.

``gridcount report STORE`` writes a self-contained HTML page (charts inline
as SVG, no network needed to view it) or, with ``--format md``, Markdown
with PNG files beside it (for ``results/``).  The content is the same:

* **the job** — shape, reduction, factors, units done and remaining, the
  total (or the partial state), engine versions, machines, and the
  published value it is compared with (:mod:`counting.published`);
* **classes** — per class its weight, units done, Σ unit counts and its part
  of the weighted sum; for a symmetry job this is the Burnside table (class
  size, A, size × A and the elements of the class);
* **units by class** — every unit's count at its class (the class weights
  drawn beneath), unit seconds (distribution and by class), nodes and memo
  hits per unit, and the slowest units;
* **throughput** — units finished over time per worker and per host.

Everything shown is read from the store and recomputed from it; nothing is
typed in.  The charts need matplotlib, an optional extra
(``pip install 'gridcount[report]'``): without it :func:`build_report`
raises :class:`ReportUnavailable` with that instruction.

Example
-------
>>> from counting.report import write_report        # doctest: +SKIP
>>> write_report("results/2x3-rmoves.sqlite", "report.html")   # doctest: +SKIP
"""
from __future__ import annotations

import html
import io
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from counting import published
from grids.kind import as_kind
from counting.job import Job, summarise
from counting.outputs import write_atomic
from counting.store.database import Store
from counting.units import UnitResult
from counting.labels import labels_of

__all__ = ["Report", "ReportUnavailable", "build_report", "write_report", "FORMATS"]

FORMATS = ("html", "md")  # output formats of write_report
_SLOWEST = 10  # units listed in the "slowest units" table


class ReportUnavailable(RuntimeError):
    """matplotlib (the ``report`` extra) is not installed."""


@dataclass
class Figure:
    """One chart: a title, a caption and the matplotlib figure."""

    key: str       # file stem for --format md
    title: str
    caption: str
    figure: object  # matplotlib.figure.Figure


@dataclass
class Report:
    """Everything the page shows: tables as rows of strings, charts as figures."""

    title: str
    class_title: str
    job_rows: list[tuple[str, str]]
    class_rows: list[tuple[str, ...]]
    class_header: tuple[str, ...]
    slow_rows: list[tuple[str, ...]]
    slow_header: tuple[str, ...]
    worker_rows: list[tuple[str, ...]]
    worker_header: tuple[str, ...]
    figures: list[Figure] = field(default_factory=list)
    class_note: str = ""   # what the class table leaves out


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "gridcount"  # same ids on every run
        import matplotlib.pyplot as plt
    except ImportError:
        raise ReportUnavailable(
            "gridcount report draws its charts with matplotlib, which is not installed: "
            "pip install 'gridcount[report]'") from None
    return plt


def _n(x: int | None) -> str:
    return "—" if x is None else f"{x:,}"


def _s(seconds: float) -> str:
    return f"{seconds:,.3f} s" if seconds < 100 else f"{seconds:,.1f} s"


def _worker(r: UnitResult) -> str:
    """The worker that ran a unit: its id when the store records one, else its host."""
    w = getattr(r, "worker", None)
    return f"{r.host}/{w}" if w not in (None, "") else r.host


def _when(r: UnitResult) -> datetime | None:
    try:
        return datetime.fromisoformat(r.finished_at)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------------
# data

def build_report(store: Store) -> Report:
    """Read ``store`` and lay out its report (raises ReportUnavailable without matplotlib)."""
    plt = _pyplot()
    job = Job.for_store(store)
    s = summarise(store, job)
    results = sorted(store.results(), key=lambda r: r.unit_id)
    weight = {c.class_id: c.weight for c in job.classes}
    red = job.reduction_object
    pub = published.lookup(job.shape, up_to_symmetry=red.counts_orbits)

    total_text = _n(s.total) if s.complete else \
        f"not yet: {job.n_units - s.done:,} of {job.n_units:,} units remain"
    if pub is None:
        match = "no published value"
    elif not s.complete:
        match = f"published {pub.total:,} ({pub.source}); the comparison needs every unit"
    else:
        match = ("matches" if s.total == pub.total else "DOES NOT MATCH") + \
            f" the published {pub.total:,} ({pub.source})"
    engines = sorted({r.engine_version for r in results}) or [s.engine_version]
    job_rows = [
        ("shape", f"{job.shape} ({_grid_side(job.shape)} grids)"),
        ("reduction", job.reduction),
        *[(label, f"{value:,}") for label, value in s.factors],
        *[(f"÷ {label}", f"{value:,}") for label, value in s.divisors],
        ("classes", f"{s.n_classes:,} ({s.classes_complete:,} complete)"),
        ("units done", f"{s.done:,} of {job.n_units:,}"),
        ("units remaining", f"{job.n_units - s.done:,}"),
        (s.total_label, total_text),
        ("published", match),
        ("engine versions", ", ".join(engines)),
        ("machines", ", ".join(s.hosts) or "—"),
        ("CPU time in units", _s(s.cpu_seconds)),
        ("nodes", f"{s.nodes:,}"),
        ("memo hits", f"{s.memo_hits:,}"),
    ]

    by_class: dict[int, list[UnitResult]] = defaultdict(list)
    for r in results:
        by_class[r.class_id].append(r)
    labels = {cid: red.class_label(cid) for cid in job.units_of_class}
    described = any(labels.values())
    class_header = ("class", labels_of(red).weight_label, "units done", labels_of(red).class_count_label, labels_of(red).term_label,
                    "seconds", *(("elements",) if described else ()))
    class_rows = []
    not_started = 0
    for cid in sorted(job.units_of_class):
        done = by_class.get(cid, [])
        if not done:   # a class with no unit counted yet has nothing to show
            not_started += 1
            continue
        members = job.units_of_class[cid]
        ssum = sum(r.count for r in done)
        complete = len(done) == len(members)
        class_rows.append((str(cid), f"{weight[cid]:,}", f"{len(done):,} / {len(members):,}",
                           "—" if not done else f"{ssum:,}" + ("" if complete else " (partial)"),
                           f"{sum(red.term(weight[cid], r.count) for r in done):,}"
                           if complete else "—",
                           _s(sum(r.seconds for r in done)),
                           *((labels[cid] or "",) if described else ())))

    slow = sorted(results, key=lambda r: (-r.seconds, r.unit_id))[:_SLOWEST]
    slow_header = ("unit", "class", "count", "seconds", "nodes", "memo hits", "worker")
    slow_rows = [(str(r.unit_id), str(r.class_id), f"{r.count:,}", _s(r.seconds),
                  f"{r.nodes:,}", f"{r.memo_hits:,}", _worker(r)) for r in slow]

    per_worker: dict[str, list[UnitResult]] = defaultdict(list)
    for r in results:
        per_worker[_worker(r)].append(r)
    worker_header = ("worker", "units", "CPU time", "median unit", "unit solutions / CPU s")
    worker_rows = []
    for w in sorted(per_worker):
        rs = per_worker[w]
        cpu = sum(r.seconds for r in rs)
        rate = sum(r.count for r in rs) / cpu if cpu > 0 else None
        worker_rows.append((w, f"{len(rs):,}", _s(cpu), _s(statistics.median(r.seconds for r in rs)),
                            "—" if rate is None else f"{rate:,.0f} sol/s"))

    rep = Report(
        title=f"gridcount report: {job.shape}, reduction {job.reduction}",
        class_title=labels_of(red).class_table_title,
        job_rows=job_rows, class_rows=class_rows, class_header=class_header,
        slow_rows=slow_rows, slow_header=slow_header,
        worker_rows=worker_rows, worker_header=worker_header,
        class_note=f"{not_started:,} of {len(job.units_of_class):,} classes not started yet "
                   f"(not listed)" if not_started else "")
    if results:
        rep.figures = _figures(plt, job, results, weight, per_worker)
    return rep


def _grid_side(kind: str) -> str:
    return as_kind(kind).side


# ---------------------------------------------------------------------------
# charts

def _figures(plt, job, results, weight, per_worker) -> list[Figure]:
    figs = []
    classes = sorted(job.units_of_class)
    pos = {cid: i for i, cid in enumerate(classes)}

    f, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True,
                                    gridspec_kw={"height_ratios": [3, 1]})
    xs = [pos[r.class_id] for r in results]
    ys = [max(r.count, 1) for r in results]
    top.scatter(xs, ys, s=12, alpha=0.7)
    log = max(ys) >= 10 * min(ys)  # a log axis only when the counts span a decade
    if log:
        top.set_yscale("log")
    top.set_ylabel("unit count" + (", log scale" if log else ""))
    _thousands(plt, top)
    top.grid(True, alpha=0.3)
    bottom.bar(range(len(classes)), [weight[c] for c in classes], color="tab:gray")
    bottom.set_ylabel("class weight")
    bottom.set_xlabel("class (by id)")
    _class_ticks(bottom, classes)
    f.tight_layout()
    figs.append(Figure("unit-counts", "Unit counts by class",
                       f"Each dot is one unit's count ({labels_of(job.reduction_object).count_noun}), "
                       f"at its class; the bars beneath are the class weights "
                       f"({labels_of(job.reduction_object).members} per class).", f))

    f, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    secs = [r.seconds for r in results]
    left.hist(secs, bins=min(40, max(5, len(secs) // 5)), color="tab:blue")
    left.set_xlabel("unit time (s)")
    left.set_ylabel("units")
    left.set_title("distribution")
    per_class = defaultdict(float)
    for r in results:
        per_class[r.class_id] += r.seconds
    right.bar(range(len(classes)), [per_class.get(c, 0.0) for c in classes], color="tab:orange")
    right.set_xlabel("class (by id)")
    right.set_ylabel("seconds in class")
    right.set_title("by class")
    _class_ticks(right, classes, most=10)
    f.tight_layout()
    figs.append(Figure("unit-seconds", "Unit times",
                       "Wall-clock seconds of each unit's engine run: their distribution, "
                       "and their sum per class.", f))

    f, ax = plt.subplots(figsize=(10, 3.8))
    ids = [r.unit_id for r in results]
    ax.scatter(ids, [max(r.nodes, 1) for r in results], s=8, label="nodes")
    ax.scatter(ids, [max(r.memo_hits, 1) for r in results], s=8, label="memo hits")
    ax.set_yscale("log")
    ax.set_xlabel("unit id")
    ax.set_ylabel("per unit (log scale)")
    _thousands(plt, ax)
    ax.legend()
    ax.grid(True, alpha=0.3)
    f.tight_layout()
    figs.append(Figure("nodes-memo", "Search nodes and memo hits per unit",
                       "Nodes visited by the search and memo-table hits, per unit (log "
                       "scale; a zero is drawn at 1).", f))

    timed = [(t, r) for r in results if (t := _when(r)) is not None]
    if timed:
        t0 = min(t for t, _ in timed)
        f, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
        for w in sorted(per_worker):
            pts = sorted((t - t0).total_seconds() for t, r in timed if _worker(r) == w)
            left.step(pts, range(1, len(pts) + 1), where="post", label=w)
        left.set_xlabel("time since the first unit finished (s)")
        left.set_ylabel("units finished")
        left.set_title("per worker")
        _integer_y(left)
        if len(per_worker) <= 12:
            left.legend(fontsize="small")
        hosts = sorted({r.host for _, r in timed})
        for h in hosts:
            pts = sorted((t - t0).total_seconds() for t, r in timed if r.host == h)
            right.step(pts, range(1, len(pts) + 1), where="post", label=h)
        right.set_xlabel("time since the first unit finished (s)")
        right.set_ylabel("units finished")
        right.set_title("per host")
        _integer_y(right)
        right.legend(fontsize="small")
        f.tight_layout()
        figs.append(Figure("throughput", "Throughput over time",
                           "Units finished (cumulative) against the time they were stored, "
                           "per worker and per host; timestamps have one-second resolution "
                           "and runs on different days share one axis.", f))
    return figs


def _thousands(plt, ax) -> None:
    """Plain integers with thousands separators on the y axis (no 1e6 notation)."""
    from matplotlib.ticker import FuncFormatter
    fmt = FuncFormatter(lambda y, _: f"{y:,.0f}")
    ax.yaxis.set_major_formatter(fmt)
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda y, _: ""))


def _integer_y(ax) -> None:
    from matplotlib.ticker import MaxNLocator
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def _class_ticks(ax, classes, most: int = 20) -> None:
    """At most about ``most`` class ids as tick labels."""
    step = max(1, -(-len(classes) // most))
    ax.set_xticks(range(0, len(classes), step))
    ax.set_xticklabels([str(classes[i]) for i in range(0, len(classes), step)])


# ---------------------------------------------------------------------------
# output

def write_report(store_path, out_path, fmt: str = "html") -> Path:
    """Write the report of the store at ``store_path`` to ``out_path``.

    ``fmt="md"`` writes PNG files into ``<out stem>-files/`` beside it.
    Returns the path written.  Raises ``ValueError`` on an unknown format,
    :class:`ReportUnavailable` without matplotlib, and the store's own
    errors for a missing or damaged store.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; use one of {', '.join(FORMATS)}")
    _pyplot()  # fail before opening anything
    with Store.open(store_path) as store:
        rep = build_report(store)
    out = Path(out_path)
    try:
        text = _html(rep) if fmt == "html" else _markdown(rep, out)
        write_atomic({out: text})
    finally:
        import matplotlib.pyplot as plt
        for fig in rep.figures:
            plt.close(fig.figure)
    return out


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.figure.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _numeric(header, right_from: int) -> list[bool]:
    """Right-align the number columns: from ``right_from`` on, except the text
    columns "worker" and "elements"."""
    return [right_from <= i and h not in ("worker", "elements") for i, h in enumerate(header)]


def _table_html(header, rows, right_from: int = 1) -> str:
    num = _numeric(header, right_from)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td class="{"num" if num[i] else ""}">{html.escape(c)}</td>'
                         for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{padding:.2em .8em;
border-bottom:1px solid #ddd;text-align:left}td.num{text-align:right;
font-variant-numeric:tabular-nums}th{background:#f4f4f4}figure{margin:1em 0 2em}
figcaption{color:#555;font-size:.9em}svg{max-width:100%;height:auto}"""


#: Longer tables are folded (HTML) or cut to their first rows (Markdown):
#: the charts come first, and every unit is in the CSV of ``gridcount export``.
FOLD_ROWS = 20


def _html(rep: Report) -> str:
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(rep.title)}"
             f"</title><style>{_CSS}</style></head><body><h1>{html.escape(rep.title)}</h1>",
             "<h2>The job</h2>", _table_html(("item", "value"), rep.job_rows, right_from=2)]
    for f in rep.figures:
        parts.append(f"<h2>{html.escape(f.title)}</h2><figure>{_svg(f)}"
                     f"<figcaption>{html.escape(f.caption)}</figcaption></figure>")
    classes = _table_html(rep.class_header, rep.class_rows)
    if len(rep.class_rows) > FOLD_ROWS:
        classes = (f"<details><summary>{len(rep.class_rows):,} classes (show the table)"
                   f"</summary>{classes}</details>")
    parts += [f"<h2>{html.escape(rep.class_title)}</h2>", classes]
    if rep.class_note:
        parts.append(f"<p>{html.escape(rep.class_note)}</p>")
    parts += ["<h2>Slowest units</h2>", _table_html(rep.slow_header, rep.slow_rows),
              "<h2>Workers</h2>", _table_html(rep.worker_header, rep.worker_rows)]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _table_md(header, rows, right_from: int = 1) -> str:
    align = ["---:" if num else "---" for num in _numeric(header, right_from)]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _markdown(rep: Report, out: Path) -> str:
    files = out.with_name(out.stem + "-files")
    files.mkdir(parents=True, exist_ok=True)
    parts = [f"# {rep.title}", "", "## The job", "",
             _table_md(("item", "value"), rep.job_rows, right_from=2), ""]
    for f in rep.figures:
        png = files / f"{f.key}.png"
        f.figure.savefig(png, format="png", dpi=100, metadata={"Software": None})
        parts += [f"## {f.title}", "", f"![{f.title}]({files.name}/{png.name})", "",
                  f.caption, ""]
    shown = rep.class_rows[:FOLD_ROWS]
    parts += [f"## {rep.class_title}", "", _table_md(rep.class_header, shown), ""]
    if len(rep.class_rows) > len(shown):
        parts += [f"The first {len(shown):,} of {len(rep.class_rows):,} classes; every unit is "
                  f"in the CSV of `gridcount export`.", ""]
    if rep.class_note:
        parts += [rep.class_note, ""]
    parts += ["## Slowest units", "", _table_md(rep.slow_header, rep.slow_rows), "",
              "## Workers", "", _table_md(rep.worker_header, rep.worker_rows), ""]
    return "\n".join(parts)
