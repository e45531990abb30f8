"""Measurement files under ``results/``: read once a process, every figure checked.

A script under ``scripts/`` times a step and writes what it measured to a
small JSON file under ``results/`` whose ``"format"`` names what it is
(``results/listing-seconds.json``, ``results/layers-count-seconds.json``).
The code that uses such a figure (a notice said first, an estimate, a
worker's memory, the progress bar's shares) reads the file through
:func:`rows`, which reads it once a process and again only when it changes
on disk, and checks each figure with :func:`amount`.  The 2x6 layer route's
file (``results/layers-2x6-route.json``) is not advice: it has its own
strict reader, :func:`counting.route_estimate.load`, which refuses a damaged
one in one line; it checks its figures with :func:`required_amount`.

A file missing, unreadable, not JSON or of another ``"format"`` has no rows:
its measurements are advice, and nothing is counted from them.

Example
-------
>>> amount(2), amount(-1.0), amount(True), amount(float("nan")), amount("3")
(2.0, None, None, None, None)
"""
from __future__ import annotations

import json
import math
from pathlib import Path

__all__ = ["amount", "required_amount", "rows", "row_seconds"]

#: The files this process has read: by path, the file's ``(mtime_ns, size, inode)``
#: when it was read and its document (None: not JSON, or unreadable).
_READ: dict[str, tuple[tuple[int, int, int], object]] = {}


def amount(x) -> float | None:
    """``x`` as a float when it is a finite number >= 0 (not a bool), else None."""
    ok = isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
    return float(x) if ok and x >= 0 else None


def required_amount(x) -> float:
    """``x`` as a float when :func:`amount` accepts it, else ValueError saying why."""
    out = amount(x)
    if out is None:
        raise ValueError(f"{x!r} is not a non-negative number")
    return out


def _document(path: Path):
    """The JSON document of ``path``, read again only when the file changed
    (its time, size or inode); None when it is missing, unreadable or not JSON."""
    try:
        st = path.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    seen = _READ.get(str(path))
    if seen is not None and seen[0] == stamp:
        return seen[1]
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        doc = None
    _READ[str(path)] = (stamp, doc)
    return doc


def rows(path: Path | str, fmt: str, section: str) -> tuple[list[dict], dict]:
    """The rows (dicts) of ``section`` in the measurement file ``path`` of
    ``"format"`` ``fmt``, and the file's other fields; ``([], {})`` when the
    file is missing, unreadable, not JSON, foreign, or has no such list."""
    doc = _document(Path(path))
    if not isinstance(doc, dict) or doc.get("format") != fmt \
            or not isinstance(doc.get(section), list):
        return [], {}
    return ([r for r in doc[section] if isinstance(r, dict)],
            {k: v for k, v in doc.items() if k != section})


def row_seconds(path: Path | str, fmt: str, section: str, **match) -> float | None:
    """``cpu_seconds`` of the first row of ``section`` whose fields equal
    ``match`` (:func:`rows`); None when there is none, or its figure is not a
    non-negative number."""
    for row in rows(path, fmt, section)[0]:
        if all(row.get(k) == v for k, v in match.items()):
            return amount(row.get("cpu_seconds"))
    return None

