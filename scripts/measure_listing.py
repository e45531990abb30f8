"""Measure how long listing a job's units, or making its tables, takes from an empty cache.

``count`` says at once when listing a job's units will take a while
(:meth:`counting.reduction.base.Reduction.listing_notice`), with the wait
this file measured (:mod:`counting.reduction.listing`).  For each (kind,
reduction) of :data:`JOBS` this script lists the units
(``get_reduction(kind, reduction).units()``) in a new process whose cache
(``XDG_CACHE_HOME``) is a new empty directory, so that whatever listing
makes once per machine (the band-1 orbits of the kind tables) is made, and
records the units, the CPU seconds of the listing (the process's own CPU
clock around ``units()``, what one core waits) and its wall seconds, with
the 1-minute load average before it.  The CPU seconds are what the notice says.

With ``--tables`` it measures instead the ``kind-tables`` reduction's band tables of
each kind of :data:`TABLE_KINDS` (``KindBandTables(kind).build_tables()``, made into
the new empty cache, as ``count`` makes them before its estimate: 9×9, 152 MB a table)
and writes ``results/kind-tables-seconds.json``, which
:func:`counting.reduction.listing.tables_notice` reads.

    python scripts/measure_listing.py > /dev/null     # writes results/listing-seconds.json
    python scripts/measure_listing.py --only 3x3+centre kind-tables --out /tmp/x.json
    python scripts/measure_listing.py --tables        # writes results/kind-tables-seconds.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "listing-seconds.json"
FORMAT = "gridcount listing measurement"
TABLES_OUT = ROOT / "results" / "kind-tables-seconds.json"
TABLES_FORMAT = "gridcount kind tables measurement"

#: The kinds whose ``kind-tables`` band tables are measured (those ``count`` makes them for).
TABLE_KINDS = ["3x3+centre", "3x3+girandola", "3x3+asterisk"]

#: The jobs measured: those whose listing was seen to take seconds (and a
#: quick one for contrast).  ``None``: the kind's default reduction.
JOBS = [
    ("3x3+centre", "kind-tables"),
    ("3x3+girandola", "kind-tables"),
    ("3x3+asterisk", "kind-tables"),
    ("3x3+disjoint", None),
    ("1x10", "symmetry"),
    ("1x9", "symmetry"),
    ("3x3", "71"),
]

CHILD = """
import json, sys, time
from counting.reduction.registry import get_reduction
red = get_reduction(sys.argv[1], None if sys.argv[2] == "-" else sys.argv[2])
c0, t0 = time.process_time(), time.perf_counter()
units = red.units()
print(json.dumps({"reduction": red.name, "units": len(units),
                  "cpu_seconds": round(time.process_time() - c0, 2),
                  "wall_seconds": round(time.perf_counter() - t0, 2)}))
"""


TABLES_CHILD = """
import json, sys, time
from bandtables.kind_tables import KindBandTables
tables = KindBandTables(sys.argv[1])
c0, t0 = time.process_time(), time.perf_counter()
tables.build_tables()
print(json.dumps({"tables": tables.n_tables, "table_bytes": tables.table_bytes,
                  "cpu_seconds": round(time.process_time() - c0, 2),
                  "wall_seconds": round(time.perf_counter() - t0, 2)}))
"""


def measure(kind: str, reduction: str | None, child: str = CHILD) -> dict:
    """One listing (or with ``child`` TABLES_CHILD, one making of the tables) from an
    empty cache, in a new process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache,
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        load = os.getloadavg()[0]
        out = subprocess.run([sys.executable, "-c", child, kind, reduction or "-"], env=env,
                             capture_output=True, text=True, check=True)
    return {"kind": kind, **json.loads(out.stdout), "load_average": round(load, 2)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs=2, metavar=("KIND", "REDUCTION"))
    ap.add_argument("--tables", action="store_true",
                    help="measure the kind tables of TABLE_KINDS instead of listings")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.tables:
        jobs = [(kind, "kind-tables") for kind in TABLE_KINDS]
    else:
        jobs = [tuple(args.only)] if args.only else JOBS
    rows = []
    for kind, reduction in jobs:
        rows.append(measure(kind, reduction, TABLES_CHILD if args.tables else CHILD))
        print(json.dumps(rows[-1]), flush=True)
    doc = {"format": TABLES_FORMAT if args.tables else FORMAT, "version": 1,
           "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(
               timespec="seconds"),
           "command": "python scripts/measure_listing.py" + " --tables" * args.tables,
           "machine": this_machine(),
           "tables" if args.tables else "listings": rows}
    out = args.out or (TABLES_OUT if args.tables else OUT)
    out.write_text(json.dumps(doc, indent=1) + "\n")


def this_machine() -> dict:
    """The machine the figures were measured on (as a count's summary records it)."""
    sys.path.insert(0, str(ROOT))
    from counting.job import describe_machine
    return describe_machine()


if __name__ == "__main__":
    main()
