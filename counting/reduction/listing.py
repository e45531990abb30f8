"""How long the slow steps before a job's first unit take: measured, not typed.

``scripts/measure_listing.py`` lists the units of the jobs it names, each in
a new process with an empty cache, and records their CPU seconds in
``results/listing-seconds.json``; with ``--tables`` it makes the
``kind-tables`` reduction's band tables of 9×9 kinds the same way and
records theirs in ``results/kind-tables-seconds.json``.  :func:`listing_notice`
and :func:`tables_notice` read them: the lines ``count`` says at once, before
anything is listed or made
(:meth:`~counting.reduction.base.Reduction.listing_notice`,
:meth:`~counting.reduction.base.Reduction.tables_notice`), for a step that
took :data:`NOTICE_SECONDS` or more.  A job not measured there, or a file
missing, damaged or foreign, gets no line: the notice is advice, and nothing
is counted from it.

Example
-------
>>> listing_notice("3x3", "71") is None       # under a second
True
"""
from __future__ import annotations

from pathlib import Path

from counting.measured import row_seconds

__all__ = ["FILE", "FORMAT", "TABLES_FILE", "TABLES_FORMAT", "NOTICE_SECONDS",
           "measured_seconds", "listing_notice", "measured_table_seconds", "tables_notice"]

#: The measurements of listings (written by ``scripts/measure_listing.py``).
FILE = Path(__file__).resolve().parents[2] / "results" / "listing-seconds.json"
#: The file's ``"format"``: any other is foreign.
FORMAT = "gridcount listing measurement"
#: The measurements of kind tables (``scripts/measure_listing.py --tables``).
TABLES_FILE = Path(__file__).resolve().parents[2] / "results" / "kind-tables-seconds.json"
#: That file's ``"format"``.
TABLES_FORMAT = "gridcount kind tables measurement"
#: A step this long (CPU seconds of one core) or longer is said first.
NOTICE_SECONDS = 5.0


def measured_seconds(kind: str, reduction: str, path: Path | str | None = None) -> float | None:
    """The CPU seconds listing the units of ``kind`` under ``reduction`` (its
    stored name) took from an empty cache, as ``path`` (default :data:`FILE`)
    records them; None when it does not, or cannot be read."""
    return row_seconds(FILE if path is None else path, FORMAT, "listings", kind=kind,
                        reduction=reduction)


def listing_notice(kind: str, reduction: str, path: Path | str | None = None) -> str | None:
    """The line said before listing the units of ``kind`` under ``reduction``
    when its measured listing took :data:`NOTICE_SECONDS` or more, else None."""
    seconds = measured_seconds(kind, reduction, path)
    if seconds is None or seconds < NOTICE_SECONDS:
        return None
    return (f"listing the units of {kind} ({reduction}) first: about {seconds:,.0f} s of one "
            f"core, as measured from an empty cache (results/listing-seconds.json) ...")


def measured_table_seconds(kind: str, path: Path | str | None = None) -> float | None:
    """The CPU seconds making the ``kind-tables`` band tables of ``kind`` took from
    an empty cache, as ``path`` (default :data:`TABLES_FILE`) records them; None
    when it does not, or cannot be read."""
    return row_seconds(TABLES_FILE if path is None else path, TABLES_FORMAT, "tables",
                        kind=kind)


def tables_notice(kind: str, tables: int, table_bytes: int, path: Path | str | None = None,
                  *, kept: bool = True) -> str | None:
    """The line said before making the ``tables`` band tables of ``kind``
    (``table_bytes`` in all) when their measured making took
    :data:`NOTICE_SECONDS` or more, else None; ``kept``: whether they are kept
    in this machine's cache (else each process makes its own)."""
    seconds = measured_table_seconds(kind, path)
    if seconds is None or seconds < NOTICE_SECONDS:
        return None
    where = "kept in this machine's cache" if kept else \
        "made by each process: no cache can be written here"
    size = f"{table_bytes / 1e6:,.0f} MB" if table_bytes >= 1e6 else f"{table_bytes:,} bytes"
    return (f"making the band tables of {kind} first ({tables:,} table{'s' * (tables != 1)}, "
            f"{size}, {where}): about "
            f"{seconds:,.0f} s of one core, as measured from an empty cache "
            f"(results/kind-tables-seconds.json) ...")
