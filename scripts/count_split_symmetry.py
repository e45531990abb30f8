"""Essentially different grids of a kind under its FULL symmetry group (cells × relabelling).

Counts every term of :func:`counting.group.split_burnside.split_orbit_count`
(a conjugacy class of the kind's cell group C and a relabelling type) in a
pool of spawned workers (``--workers``, default 2), and prints a Markdown
report: the machine, wall and CPU time, the order of C, Σ |K|·A and the
essentially different grids, and one row per term.  ``--csv`` writes the
terms.  The identity's term is the grid count / N!: beyond 6×6 it is read
from ``--identity-from``, a store or a units export (checked on reading) of
today's ``--up-to-symmetry`` job of the same kind, whose unit 0 is that
term recorded from the grid store (e.g. ``results/3x3+disjoint-rsymmetry-done.json``);
its other units are checked against the terms (each unit of today's group is
a term of the class of the full group holding it, counted again here by
other elements), and any disagreement makes the exit code 1.  (The stored, resumable way to
count under the full group is ``gridcount count KIND --up-to-symmetry --group
full``; this script adds the timing report and the check against today's job.)

    python scripts/count_split_symmetry.py 3x3+windoku \\
        --identity-from results/3x3+windoku-rsymmetry-done.json \\
        --csv results/3x3+windoku-full-symmetry.csv
"""
from __future__ import annotations

import argparse
import csv
import math
import resource
import sys
import time
from pathlib import Path

from counting.group.burnside import symmetry_units, type_label
from counting.group.split_burnside import (SplitBurnside, count_split_unit,
                                           disagreements_with_today, split_group, split_units)
from counting.job import describe_machine
from counting.store.format import StoreError
from counting.store.exchange import open_source
from dlx.pools import map_unordered
from grids.kind import as_kind

CSV_HEADER = ("class_id", "class_size", "representative", "pi_type", "fixed", "searches",
              "nodes", "cpu_seconds")


def _work(task):
    """One term in a worker: (kind, class id, relabelling type)."""
    kind, class_id, pi_type = task
    group = split_group(kind)         # once per worker (cached), outside the term's time
    t0 = time.process_time()
    term = count_split_unit(kind, group.classes[class_id], pi_type)
    return term, time.process_time() - t0


def today_counts(path: Path, kind: str) -> dict[int, int]:
    """Unit id -> count of today's symmetry job of ``kind`` at ``path`` (a
    store or a units export, checked on reading)."""
    source = open_source(path)
    if source.job.shape != kind or source.job.reduction != "symmetry":
        raise StoreError(f"{path} holds the {source.job.reduction} job of {source.job.shape}, "
                         f"not the symmetry job of {kind}")
    return {r.unit_id: r.count for r in source.results()}


def identity_from(today: dict[int, int], path: Path, kind: str) -> int:
    """The grid count of ``kind``: today's unit 0 × N!."""
    if 0 not in today:
        raise StoreError(f"{path} has no identity unit (unit 0)")
    return today[0] * math.factorial(as_kind(kind).shape.n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--identity-from", type=Path, default=None)
    ap.add_argument("--csv", type=Path, default=None)
    args = ap.parse_args()
    if args.workers < 1:
        ap.error(f"--workers must be at least 1, got {args.workers}")
    t0 = time.perf_counter()
    try:
        group = split_group(args.kind)
        kind = group.kind.name
        today = None if args.identity_from is None else today_counts(args.identity_from, kind)
        grid_total = None if today is None else identity_from(today, args.identity_from, kind)
    except (ValueError, ArithmeticError, StoreError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    units = split_units(kind)
    terms = {}
    identity = (units[0][0].class_id, units[0][1])
    terms[identity] = count_split_unit(kind, units[0][0], units[0][1], grid_total=grid_total) \
        if grid_total is not None or group.kind.shape.n <= 6 else None
    if terms[identity] is None:
        print(f"error: {kind} needs --identity-from (the grid count / N!)", file=sys.stderr)
        return 2
    tasks = [(kind, cls.class_id, t) for cls, t in units[1:]]
    cpu_of = {identity: 0.0}
    for term, cpu in map_unordered(_work, tasks, args.workers):
        terms[(term.class_id, term.pi_type)] = term
        cpu_of[(term.class_id, term.pi_type)] = cpu
        print(f"  class {term.class_id} {type_label(term.pi_type)}: A = {term.fixed:,} "
              f"({cpu:.1f} CPU s; {len(terms)} of {len(units)})", file=sys.stderr, flush=True)
    ordered = tuple(terms[(cls.class_id, t)] for cls, t in units)
    result = SplitBurnside(group.kind, group.order, ordered)
    wall = time.perf_counter() - t0
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime + sum(cpu_of.values())
    orbits = result.orbits
    disagree = [] if today is None else disagreements_with_today(kind, ordered, today)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(CSV_HEADER)
            for (cls, t), term in zip(units, ordered):
                out.writerow((cls.class_id, cls.size, cls.label, type_label(t), term.fixed,
                              term.searches, term.nodes, f"{cpu_of[(cls.class_id, t)]:.3f}"))
    m = describe_machine()
    n = group.kind.shape.n
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}\n")
    print(f"kind {kind}: full group {result.full_order:,} = {group.order:,} × {n}!, "
          f"{len(group.classes)} classes of C, {len(units)} terms, "
          f"{sum(1 for t in ordered if t.fixed)} non-zero\n")
    print("| workers | wall | CPU (this process + terms) | Σ size·A | essentially different |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {args.workers} | {wall:,.1f} s | {cpu:,.1f} s | {result.total:,} | {orbits:,} |\n")
    if today is not None:
        met = {split_group(kind).class_of(u.symmetry.cell_permutation())
               for u in symmetry_units(kind)}
        print(f"Against today's group ({args.identity_from}, {len(today)} units): "
              + ("; ".join(disagree) if disagree else
                 f"every unit agrees with the term of the full group's class holding it "
                 f"({len(met)} of the {len(group.classes)} classes meet today's group)") + "\n")
    print("| class | size | representative | π type | A | searches | nodes | CPU |")
    print("|---:|---:|---|---|---:|---:|---:|---:|")
    for (cls, t), term in zip(units, ordered):
        if term.fixed:
            print(f"| {cls.class_id} | {cls.size:,} | {cls.label} | {type_label(t)} | "
                  f"{term.fixed:,} | {term.searches:,} | {term.nodes:,} | "
                  f"{cpu_of[(cls.class_id, t)]:,.1f} s |")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
