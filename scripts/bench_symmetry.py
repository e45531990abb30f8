"""Time the whole essentially-different count of a shape: Burnside units and grid count.

Counts, in one pool of worker processes (spawned, ``--workers``, default 2):

* every Burnside unit of the shape except the identity
  (:func:`counting.group.burnside.symmetry_units`, ``count_unit``);
* the grid count (the units of the grid-count reduction, ``--reduction``),
  whose total over ``N!`` is the identity's unit — unless ``--grid-total``
  gives it.

Prints a Markdown report (machine, wall and CPU time of the whole process
tree, the Burnside table with per-unit times) and writes the units as CSV
(``--csv``, default ``results/SHAPE-symmetry-bench.csv``: the name
``results/SHAPE-symmetry.csv`` belongs to ``gridcount export`` of the store
of ``gridcount count SHAPE --up-to-symmetry``).  Record the report in
``results/bench_symmetry.md``.

    python scripts/bench_symmetry.py 3x3 --workers 2
"""
from __future__ import annotations

import argparse
import csv
import resource
import time
from pathlib import Path

from counting.reduction import get_reduction
from counting.run.counter import count_unit as count_grid_unit, hand_out
from counting.job import describe_machine
from counting.group.burnside import (CSV_HEADER, burnside_table, count_unit, csv_row,
                                        essentially_different, symmetry_units, type_label)
from counting.group.symmetries import conjugacy_classes, group_order
from dlx.pools import map_unordered


def _work(task):
    """One task in a worker: ("symmetry", unit) or ("grid", spec)."""
    kind, item = task
    t0 = time.process_time()
    result = count_unit(item) if kind == "symmetry" else count_grid_unit(item)
    return kind, item, result, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape", nargs="?", default="3x3")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reduction", default=None,
                    help="grid-count reduction (default: the shape's default)")
    ap.add_argument("--grid-total", type=int, default=None,
                    help="number of grids, if already counted (skips the grid count)")
    ap.add_argument("--csv", type=Path, default=None)
    args = ap.parse_args()
    units = symmetry_units(args.shape)
    shape = units[0].shape
    identity = units[0]
    tasks = [("symmetry", u) for u in units if not u.is_identity]
    grid_units = []
    if args.grid_total is None:
        grid_units = hand_out(get_reduction(shape, args.reduction).units())
        tasks += [("grid", u) for u in grid_units]

    results, seconds, grid_counts = {}, {}, {}
    t0 = time.perf_counter()
    for kind, item, result, cpu in map_unordered(_work, tasks, args.workers):
        if kind == "symmetry":
            results[item.unit_id], seconds[item.unit_id] = result, cpu
        else:
            grid_counts[item.unit_id] = result.count
    grid_total = args.grid_total
    if grid_total is None:
        grid_total = get_reduction(shape, args.reduction).total(grid_counts)
    results[identity.unit_id] = count_unit(identity, grid_total=grid_total)
    seconds[identity.unit_id] = 0.0
    wall = time.perf_counter() - t0
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    cpu = sum(u.ru_utime + u.ru_stime for u in usage)

    fixed = {u: r.fixed for u, r in results.items()}
    total = essentially_different(shape, fixed)
    path = args.csv or Path("results") / f"{shape}-symmetry-bench.csv"
    with open(path, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(CSV_HEADER)
        for u in units:
            out.writerow(csv_row(u, results[u.unit_id]))

    m = describe_machine()
    classes = conjugacy_classes(shape)
    sym_cpu = sum(seconds.values())
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}\n")
    print(f"shape {shape}: |G| = {group_order(shape):,}, {len(classes)} classes, "
          f"{len({u.class_id for u in units})} with units, {len(units)} units, "
          f"{sum(1 for r in results.values() if r.fixed)} units and "
          f"{sum(1 for row in burnside_table(shape, fixed) if row.fixed)} classes fixing grids\n")
    print(f"| workers | wall | CPU (process tree) | CPU of Burnside units | grid count units | "
          f"essentially different |")
    print("|---:|---:|---:|---:|---:|---:|")
    grid_note = f"{len(grid_units)} (`{args.reduction or 'default'}`)" if grid_units else \
        "given"
    print(f"| {args.workers} | {wall:.1f} s | {cpu:.1f} s | {sym_cpu:.1f} s | {grid_note} | "
          f"{total:,} |\n")
    print("| unit | class | size | representative | π type | A | std unit | relabellings | "
          "searches | nodes | CPU s |")
    print("|---:|---:|---:|---|---|---:|---|---:|---:|---:|---:|")
    for u in units:
        r = results[u.unit_id]
        print(f"| {u.unit_id} | {u.class_id} | {u.size:,} | {u.symmetry.describe()} | "
              f"{type_label(u.pi_type)} | {r.fixed:,} | {r.standard_unit} | {r.relabellings} | "
              f"{r.searches} | {r.nodes:,} | {seconds[u.unit_id]:.2f} |")
    print(f"\nCSV: {path}")


if __name__ == "__main__":
    main()
