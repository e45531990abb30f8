"""A store's report as a page: self-contained HTML, or Markdown with PNGs.

The charts come first, then the tables; a class table longer than
:data:`FOLD_ROWS` is folded (HTML ``<details>``) or cut to its first rows
(Markdown: every unit is in the CSV of ``gridcount export``); a store with
no finished unit says so in one line instead of printing empty tables.
"""
from __future__ import annotations

import html
import io
from pathlib import Path

from counting.outputs import write_atomic
from counting.report.charts import CHART_KEYS, pyplot
from counting.report.content import Report, build_report
from counting.store.database import Store

__all__ = ["write_report", "FORMATS", "FOLD_ROWS"]

FORMATS = ("html", "md")  # output formats of write_report

#: Longer tables are folded (HTML) or cut to their first rows (Markdown):
#: the charts come first, and every unit is in the CSV of ``gridcount export``.
FOLD_ROWS = 20

_NOTHING_YET = "No unit is finished yet: no classes, units or workers to show."


def write_report(store_path, out_path, fmt: str = "html") -> Path:
    """Write the report of the store at ``store_path`` to ``out_path``.

    ``fmt="md"`` writes PNG files into ``<out stem>-files/`` beside it.
    Returns the path written.  Raises ``ValueError`` on an unknown format,
    :class:`~counting.report.charts.ReportUnavailable` without matplotlib,
    and the store's own errors for a missing or damaged store.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; use one of {', '.join(FORMATS)}")
    # The input first (a missing, damaged or foreign store is said as such, with
    # or without matplotlib: build_report reads the whole store before it draws)
    with Store.open(store_path) as store:
        rep = build_report(store)
    out = Path(out_path)
    try:
        text = _html(rep) if fmt == "html" else _markdown(rep, out)
        write_atomic({out: text})
    finally:
        if rep.figures:          # drawn, so matplotlib is there
            plt = pyplot()
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


def _table_html(header, rows, right_from: int = 1, foot=None) -> str:
    num = _numeric(header, right_from)

    def row_html(row, cell="td"):
        return "<tr>" + "".join(f'<{cell} class="{"num" if num[i] else ""}">{html.escape(c)}'
                                f'</{cell}>' for i, c in enumerate(row)) + "</tr>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(row_html(row) for row in rows)
    tail = f"<tfoot>{row_html(foot, 'th')}</tfoot>" if foot else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>{tail}</table>"


_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{padding:.2em .8em;
border-bottom:1px solid #ddd;text-align:left}td.num,th.num{text-align:right;
font-variant-numeric:tabular-nums}th{background:#f4f4f4}tfoot th{border-top:2px solid #999}
figure{margin:1em 0 2em}figcaption{color:#555;font-size:.9em}svg{max-width:100%;height:auto}"""


def _html(rep: Report) -> str:
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(rep.title)}"
             f"</title><style>{_CSS}</style></head><body><h1>{html.escape(rep.title)}</h1>",
             "<h2>The job</h2>", _table_html(("item", "value"), rep.job_rows, right_from=2)]
    if rep.empty:
        parts += [f"<p>{html.escape(_NOTHING_YET)}</p>", "</body></html>\n"]
        return "\n".join(parts)
    for f in rep.figures:
        parts.append(f"<h2>{html.escape(f.title)}</h2><figure>{_svg(f)}"
                     f"<figcaption>{html.escape(f.caption)}</figcaption></figure>")
    classes = _table_html(rep.class_header, rep.class_rows, foot=rep.class_sum)
    if len(rep.class_rows) > FOLD_ROWS:
        total = f"; {rep.class_sum[0]} {rep.class_header[4]} = {rep.class_sum[4]}" \
            if rep.class_sum else ""
        classes = (f"<details><summary>{len(rep.class_rows):,} classes{html.escape(total)} "
                   f"(show the table)</summary>{classes}</details>")
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
    parts = [f"# {rep.title}", "", "## The job", "",
             _table_md(("item", "value"), rep.job_rows, right_from=2), ""]
    if rep.empty:
        return "\n".join(parts + [_NOTHING_YET, ""])
    files = out.with_name(out.stem + "-files")
    files.mkdir(parents=True, exist_ok=True)
    for f in rep.figures:
        png = files / f"{f.key}.png"
        f.figure.savefig(png, format="png", dpi=100, metadata={"Software": None})
        parts += [f"## {f.title}", "", f"![{f.title}]({files.name}/{png.name})", "",
                  f.caption, ""]
    for key in set(CHART_KEYS) - {f.key for f in rep.figures}:   # a chart of an earlier
        (files / f"{key}.png").unlink(missing_ok=True)             # report, not drawn now
    shown = rep.class_rows[:FOLD_ROWS]
    parts += [f"## {rep.class_title}", "",
              _table_md(rep.class_header, shown + ([rep.class_sum] if rep.class_sum else [])),
              ""]
    if len(rep.class_rows) > len(shown):
        parts += [f"The first {len(shown):,} of {len(rep.class_rows):,} classes (and their Σ "
                  f"over all); every unit is in the CSV of `gridcount export`.", ""]
    if rep.class_note:
        parts += [rep.class_note, ""]
    parts += ["## Slowest units", "", _table_md(rep.slow_header, rep.slow_rows), "",
              "## Workers", "", _table_md(rep.worker_header, rep.worker_rows), ""]
    return "\n".join(parts)
