"""Measure how long listing a job's units takes from an empty cache: results/listing-seconds.json.

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

    python scripts/measure_listing.py > /dev/null     # writes results/listing-seconds.json
    python scripts/measure_listing.py --only 3x3+centre kind-tables --out /tmp/x.json
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


def measure(kind: str, reduction: str | None) -> dict:
    """One listing from an empty cache, in a new process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache,
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        load = os.getloadavg()[0]
        out = subprocess.run([sys.executable, "-c", CHILD, kind, reduction or "-"], env=env,
                             capture_output=True, text=True, check=True)
    return {"kind": kind, **json.loads(out.stdout), "load_average": round(load, 2)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs=2, metavar=("KIND", "REDUCTION"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    jobs = [tuple(args.only)] if args.only else JOBS
    rows = []
    for kind, reduction in jobs:
        rows.append(measure(kind, reduction))
        print(json.dumps(rows[-1]), flush=True)
    doc = {"format": FORMAT, "version": 1,
           "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(
               timespec="seconds"),
           "command": "python scripts/measure_listing.py", "listings": rows}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
