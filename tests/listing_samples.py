"""Measurement files of slow listings (counting/reduction/listing.py) for tests."""
import json

from counting.reduction.listing import FORMAT, TABLES_FORMAT


def measured(path, *rows, fmt=FORMAT):
    """``path`` written as a measurement file of ``(kind, reduction,
    cpu_seconds)`` rows, as scripts/measure_listing.py writes them."""
    path.write_text(json.dumps({"format": fmt, "version": 1, "listings": [
        {"kind": k, "reduction": r, "units": 1, "cpu_seconds": s, "wall_seconds": s}
        for k, r, s in rows]}))
    return path


def measured_tables(path, *rows, fmt=TABLES_FORMAT):
    """``path`` written as a kind tables measurement file of ``(kind,
    cpu_seconds)`` rows, as scripts/measure_listing.py --tables writes them."""
    path.write_text(json.dumps({"format": fmt, "version": 1, "tables": [
        {"kind": k, "tables": 1, "table_bytes": 1, "cpu_seconds": s, "wall_seconds": s}
        for k, s in rows]}))
    return path
