"""How long listing a job's units takes, where it is slow: measured, not typed.

``scripts/measure_listing.py`` lists the units of the jobs it names, each in
a new process with an empty cache, and records their CPU seconds in
``results/listing-seconds.json``.  :func:`listing_notice` reads them: the
line ``count`` says at once, before anything is listed
(:meth:`~counting.reduction.base.Reduction.listing_notice`), for a job whose
listing took :data:`NOTICE_SECONDS` or more.  A job not measured there, or a
file missing, damaged or foreign, gets no line: the notice is advice, and
nothing is counted from it.

Example
-------
>>> listing_notice("3x3", "71") is None       # under a second
True
"""
from __future__ import annotations

import json
import math
from pathlib import Path

__all__ = ["FILE", "FORMAT", "NOTICE_SECONDS", "measured_seconds", "listing_notice"]

#: The measurements (written by ``scripts/measure_listing.py``).
FILE = Path(__file__).resolve().parents[2] / "results" / "listing-seconds.json"
#: The file's ``"format"``: any other is foreign.
FORMAT = "gridcount listing measurement"
#: A listing this long (CPU seconds of one core) or longer is said first.
NOTICE_SECONDS = 5.0


def measured_seconds(kind: str, reduction: str, path: Path | str | None = None) -> float | None:
    """The CPU seconds listing the units of ``kind`` under ``reduction`` (its
    stored name) took from an empty cache, as ``path`` (default :data:`FILE`)
    records them; None when it does not, or cannot be read."""
    try:
        doc = json.loads(Path(FILE if path is None else path).read_text())
        if doc["format"] != FORMAT:
            return None
        for row in doc["listings"]:
            if row["kind"] == kind and row["reduction"] == reduction:
                seconds = float(row["cpu_seconds"])
                return seconds if math.isfinite(seconds) and seconds >= 0 else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None


def listing_notice(kind: str, reduction: str, path: Path | str | None = None) -> str | None:
    """The line said before listing the units of ``kind`` under ``reduction``
    when its measured listing took :data:`NOTICE_SECONDS` or more, else None."""
    seconds = measured_seconds(kind, reduction, path)
    if seconds is None or seconds < NOTICE_SECONDS:
        return None
    return (f"listing the units of {kind} ({reduction}) first: about {seconds:,.0f} s of one "
            f"core, as measured from an empty cache (results/listing-seconds.json) ...")
