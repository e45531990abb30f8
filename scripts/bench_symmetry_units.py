"""Time every symmetry unit of 2x4 and 3x3 in one process, against the committed figures.

Counts each Burnside unit of each shape but the identity
(:func:`counting.group.burnside.count_unit`), one after another in this
process, and times it in CPU seconds.  Then compares, unit by unit, with the
committed figures in ``results/``:

* ``results/SHAPE-symmetry.csv`` (``gridcount export`` of the store of
  ``gridcount count SHAPE --up-to-symmetry``: ``count`` and ``seconds`` per
  unit id), where there is one (3x3);
* ``results/bench_symmetry_units.csv``, this script's own last recorded run
  (every shape), when it exists.

A unit whose A differs from a reference is an error; a unit slower than
``--factor`` times its reference, and by more than ``--floor`` seconds, is
flagged as a slowdown (the units are CPU-timed, so the load of the machine
moves them little; the floor keeps the noise of tiny units out).  The
essentially different total (identity from the grid total in
``results/SHAPE.json``) is checked against the published figure.

Prints a Markdown report (the machine first) and exits 1 on a wrong count, 3
on a slowdown.  To record a run: ``--csv results/bench_symmetry_units.csv``
and the report into ``results/bench_symmetry_units.md``.

    python scripts/bench_symmetry_units.py > /tmp/report.md
"""
from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import sys
import time
from pathlib import Path

from counting.group.burnside import count_unit, essentially_different, symmetry_units, type_label
from counting.job import describe_machine
from counting.published import lookup

RESULTS = Path(__file__).resolve().parents[1] / "results"
OWN = RESULTS / "bench_symmetry_units.csv"
HEADER = ("shape", "unit_id", "pi_type", "fixed", "searches", "nodes", "cpu_seconds")


def references(shape: str, own: Path) -> dict[str, dict[int, tuple[int, float]]]:
    """``{source: {unit_id: (A, seconds)}}`` of the committed figures of ``shape``."""
    out = {}
    export = RESULTS / f"{shape}-symmetry.csv"
    if export.exists():
        with open(export, newline="") as f:
            out[export.name] = {int(r["unit_id"]): (int(r["count"]), float(r["seconds"]))
                                for r in csv.DictReader(f)}
    if own.exists():
        with open(own, newline="") as f:
            rows = {int(r["unit_id"]): (int(r["fixed"]), float(r["cpu_seconds"]))
                    for r in csv.DictReader(f) if r["shape"] == shape}
        if rows:
            out[own.name] = rows
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shapes", nargs="*", default=["2x4", "3x3"])
    ap.add_argument("--factor", type=float, default=3.0,
                    help="a unit this many times slower than its reference is flagged (3)")
    ap.add_argument("--floor", type=float, default=0.5,
                    help="... and only when slower by more than this many seconds (0.5)")
    ap.add_argument("--csv", type=Path, default=None,
                    help="write the per-unit figures here (to record a run: "
                         "results/bench_symmetry_units.csv)")
    args = ap.parse_args()

    m = describe_machine()
    load = os.getloadavg()
    print("# Symmetry units in one process (`scripts/bench_symmetry_units.py`)\n")
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; machine: "
          f"{m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}; load average "
          f"{load[0]:.1f} at the start.  CPU seconds per unit, counted one after another.\n")
    rows, wrong, slow = [], [], []
    for shape in args.shapes:
        refs = references(shape, OWN)
        units = symmetry_units(shape)
        fixed, seconds = {}, {}
        for u in units:
            if u.is_identity:
                continue
            t0 = time.process_time()
            r = count_unit(u)
            seconds[u.unit_id] = time.process_time() - t0
            fixed[u.unit_id] = r.fixed
            rows.append((shape, u.unit_id, type_label(u.pi_type), r.fixed, r.searches,
                         r.nodes, f"{seconds[u.unit_id]:.3f}"))
        print(f"## {shape}: {len(seconds)} units, {sum(seconds.values()):.1f} CPU-s\n")
        print("| reference | its CPU-s (same units) | now | units flagged slower | "
              "slowest against it |")
        print("|---|---:|---:|---:|---|")
        for source, ref in refs.items():
            common = [i for i in seconds if i in ref]
            wrong += [(shape, source, i) for i in common if ref[i][0] != fixed[i]]
            ratios = sorted(((seconds[i] / max(ref[i][1], 1e-3), i) for i in common),
                            reverse=True)
            flagged = [i for i in common if seconds[i] > args.factor * ref[i][1]
                       and seconds[i] - ref[i][1] > args.floor]
            slow += [(shape, source, i) for i in flagged]
            worst = ", ".join(f"unit {i}: {ref[i][1]:.2f} → {seconds[i]:.2f} s"
                              for _, i in ratios[:3])
            print(f"| `{source}` | {sum(ref[i][1] for i in common):.1f} | "
                  f"{sum(seconds[i] for i in common):.1f} | {len(flagged)} | {worst} |")
        if not refs:
            print("| (none committed) | | | | |")
        ed = _essentially_different(shape, units, fixed)
        print(f"\nEssentially different: {ed}\n")
    print(f"Counts differing from a reference: {len(wrong)}"
          + (f" ({', '.join(f'{s} unit {i} vs {src}' for s, src, i in wrong)})" if wrong else ""))
    print(f"Units more than {args.factor:g}× and {args.floor:g} s slower than a reference: "
          f"{len(slow)}"
          + (f" ({', '.join(f'{s} unit {i} vs {src}' for s, src, i in slow)})" if slow else ""))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(HEADER)
            out.writerows(rows)
    return 1 if wrong else 3 if slow else 0


def _essentially_different(shape: str, units, fixed: dict[int, int]) -> str:
    """The total with the identity from ``results/SHAPE.json``'s grid total,
    against the published figure; or why it is not checked."""
    path = RESULTS / f"{shape}.json"
    if not path.exists():
        return f"not checked (no `{path.name}` for the grid total)"
    grid_total = json.loads(path.read_text())["total_int"]
    identity, = (u for u in units if u.is_identity)
    fixed = {**fixed, identity.unit_id: count_unit(identity, grid_total=grid_total).fixed}
    total = essentially_different(shape, fixed)
    published = lookup(shape, up_to_symmetry=True)
    if published is None:
        return f"{total:,} (nothing published)"
    verdict = "matches" if published.total == total else "DIFFERS FROM"
    return f"{total:,}, {verdict} {published.total:,} ({published.source})"


if __name__ == "__main__":
    sys.exit(main())
