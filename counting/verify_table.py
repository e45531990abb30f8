"""The verification table: :func:`counting.verify.verify`'s rows as a
terminal table that fits :data:`TABLE_WIDTH` columns (:func:`format_table`)
and as Markdown with the machine (:func:`format_markdown`,
:func:`write_markdown`).  A row is a :class:`counting.verify.VerifyRow`
(named, not imported: :mod:`counting.verify` imports this module).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from counting.outputs import check_outputs, write_atomic

__all__ = ["format_table", "format_markdown", "write_markdown", "not_counted_line", "TABLE_WIDTH",
           "LONGEST_IN_TABLE"]

#: How a Latin-class row names what it counts, short enough for the table.
LATIN_SHORT = {"main classes": "main classes", "isomorphism classes": "iso. classes",
               "loops up to isomorphism": "loops (iso.)"}


_HEADER = ("shape", "grid", "counts", "computed total", "published total", "source", "match",
           "time")
_RIGHT = {1, 3, 4, 7}  # right-aligned columns


def _cells(row: VerifyRow) -> tuple[str, ...]:
    return (
        row.shape,
        f"{row.n}x{row.n}",
        row.counts,
        "—" if row.computed is None else f"{row.computed:,}",
        "—" if row.published is None else f"{row.published:,}",
        row.source or "—",
        row.status,
        f"{row.seconds:,.2f} s",
    )


#: The terminal table's columns: the published value and its source go to
#: numbered notes under the table, so a row fits 100 columns.
_TERM_HEADER = ("shape", "method", "counts", "computed total", "match", "ref.", "time")
_TERM_RIGHT = {3, 6}
TABLE_WIDTH = 100
LONGEST_IN_TABLE = 41   # a longer computed total is written in full under the table


def format_table(rows: list[VerifyRow]) -> str:
    """An aligned text table that fits :data:`TABLE_WIDTH` columns:
    thousands separators, seconds with their unit; each published total is
    a numbered note under the table with its source (the same value and
    source once for rows that share them), and failed counts are listed
    with their error."""
    notes: dict[tuple[int, str], int] = {}
    long_totals: list[str] = []
    body = [_TERM_HEADER]
    for r in rows:
        ref = "—"
        if r.published is not None:
            key = (r.published, r.source or "")
            ref = f"[{notes.setdefault(key, len(notes) + 1)}]"
        computed = "—" if r.computed is None else f"{r.computed:,}"
        if len(computed) > LONGEST_IN_TABLE:   # said in full under the table
            long_totals.append(f"{r.label}: computed {computed}")
            computed = "(below)"
        body.append((r.shape, r.method, LATIN_SHORT[r.latin_group] if r.latin_group else
                     "ess. diff. (full)" if r.full_group else
                     "ess. diff." if r.up_to_symmetry else
                     f"{r.rect_rows}x{r.n} rect." if r.rect_rows is not None else "grids",
                     computed, r.status, ref, f"{r.seconds:,.1f} s"))
    widths = [max(len(line[i]) for line in body) for i in range(len(_TERM_HEADER))]
    out = []
    for k, line in enumerate(body):
        cells = [c.rjust(w) if i in _TERM_RIGHT else c.ljust(w)
                 for i, (c, w) in enumerate(zip(line, widths))]
        out.append("  ".join(cells).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    if notes or long_totals:
        out.append("")
    for line in long_totals:
        out += textwrap.wrap(line, TABLE_WIDTH, subsequent_indent="  ")
    for (value, source), k in notes.items():
        out += textwrap.wrap(f"[{k}] {value:,} ({source})", TABLE_WIDTH,
                             subsequent_indent=" " * (len(str(k)) + 3))
    for r in rows:
        if r.error is not None:
            out += textwrap.wrap(f"{r.label}: count failed: {r.error}", TABLE_WIDTH,
                                 subsequent_indent="  ")
        if r.not_counted is not None:
            out += textwrap.wrap(f"{r.label}: not counted here: {r.not_counted}", TABLE_WIDTH,
                                 subsequent_indent="  ")
    return "\n".join(out)


def not_counted_line(rows: list[VerifyRow]) -> str | None:
    """The rows not counted, in one line: each with its reason in a few
    words and, for a long job, the command that counts it instead; None when
    every row was counted.  ``gridcount verify --shapes`` ends with it: a
    shape asked for by name and not counted is not verified.

    Example: ``6x2 (out of reach by layers), 1x10 (a long job: gridcount
    count 1x10 counts it)``."""
    missed = [r for r in rows if r.not_counted is not None]
    if not missed:
        return None
    return ", ".join(f"{r.label} ({r.not_counted_brief or 'not counted'}"
                     + (f": {r.instead} counts it" if r.instead else "") + ")" for r in missed)


def format_markdown(rows: list[VerifyRow], machine: dict, command: str) -> str:
    """A Markdown report of a run: the table, the command and the machine
    (``machine`` as :func:`counting.job.describe_machine` gives it, plus
    anything the caller adds, e.g. the load average)."""
    lines = [
        "# `gridcount verify`: computed totals beside published ones",
        "",
        "Written by `" + command + "`; every computed total comes from the normal",
        "counting path (default reduction, a temporary store, the process pool).",
        "Published values and their sources: `counting/published.py`.",
        "",
        "| " + " | ".join(_HEADER) + " |",
        "|" + "|".join("---:" if i in _RIGHT else "---" for i in range(len(_HEADER))) + "|",
    ]
    for r in rows:
        lines.append("| " + " | ".join(_cells(r)) + " |")
    failed = [r for r in rows if r.error is not None]
    if failed:
        lines += [""] + [f"* {r.label}: count failed: {r.error}" for r in failed]
    listed = [r for r in rows if r.not_counted is not None]
    if listed:
        lines += [""] + [f"* {r.label}: not counted here: {r.not_counted}" for r in listed]
    total_s = sum(r.seconds for r in rows)
    lines += [
        "",
        f"{sum(r.status == 'ok' for r in rows)} of {len(rows)} shapes agree; "
        f"{total_s:,.1f} s in all.",
        "",
        "## Machine",
        "",
    ]
    lines += [f"* {k}: {v}" for k, v in machine.items()]
    return "\n".join(lines) + "\n"


def write_markdown(path: Path, rows: list[VerifyRow], machine: dict, command: str) -> None:
    """Write :func:`format_markdown` to ``path`` atomically (temp file +
    rename, :func:`counting.outputs.write_atomic`); raises
    :class:`~counting.outputs.OutputError`."""
    check_outputs([], [path])
    write_atomic({path: format_markdown(rows, machine, command)})
