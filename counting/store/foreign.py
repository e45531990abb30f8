"""What an SQLite database that is not a count store is, said by name.

``status``, ``report``, ``recount``, ``export`` and ``count --db`` refuse a
database that is not a gridcount count store in one line (exit code 2).  A
layer job's store (:mod:`factorization.layer_store`, made by
``scripts/run_layer_job.py``) is one of gridcount's own files, so the line
names it and what reads it, instead of listing its tables (issue 36).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from factorization.layer_store import FORMAT as LAYER_FORMAT

__all__ = ["not_a_store_line"]


def not_a_store_line(conn: sqlite3.Connection, path: Path, app_id: int, tables: set) -> str:
    """The one line saying what the database at ``path`` (open as ``conn``,
    its ``application_id`` and table names read) is, not a count store."""
    if "meta" in tables:
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except (sqlite3.Error, ValueError):
            meta = {}
        if meta.get("format") == LAYER_FORMAT:
            return (f"{path} is a layer job's store (C = {_figure(meta.get('C'))} stacks, "
                    f"{_figure(meta.get('unit_states'))} states a unit: scripts/run_layer_job.py runs "
                    f"and resumes it), not a gridcount count store")
    return (f"{path} is an SQLite database but not a gridcount store "
            f"(application_id {app_id}, tables: {', '.join(sorted(tables)) or 'none'})")


def _figure(value) -> str:
    """A meta value as a figure with thousands separators (as it is, if not an integer)."""
    return f"{int(value):,}" if str(value).isascii() and str(value).isdigit() else str(value)
