"""Essentially different grids of a kind under its FULL symmetry group (cells × relabelling).

Counts every term of :func:`counting.group.split_burnside.split_orbit_count`
(a conjugacy class of the kind's cell group C and a relabelling type) in a
pool of spawned workers (``--workers``, default 2), and prints a Markdown
report: the machine, wall and CPU time, the order of C, Σ |K|·A and the
essentially different grids, and one row per term.  ``--csv`` writes the
terms.  The identity's term is the grid count / N!: beyond 6×6 it is read
from ``--identity-from``, a store or a units export (checked on reading) of
today's ``--up-to-symmetry`` job of the same kind, whose unit 0 is that
term recorded from the grid store (e.g. ``results/3x3+disjoint-rsymmetry-done.json``).

    python scripts/count_split_symmetry.py 3x3+windoku \\
        --identity-from results/3x3+windoku-rsymmetry-done.json --csv results/3x3+windoku-full-symmetry.csv
"""
from __future__ import annotations

import argparse
import csv
import math
import resource
import sys
import time
from pathlib import Path

from counting.group.burnside import type_label
from counting.group.split_burnside import (SplitBurnside, count_split_unit, split_group,
                                           split_units)
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


def identity_from(path: Path, kind: str) -> int:
    """The grid count of ``kind``: unit 0 of today's symmetry job at ``path`` × N!."""
    source = open_source(path)
    if source.job.shape != kind or source.job.reduction != "symmetry":
        raise StoreError(f"{path} holds the {source.job.reduction} job of {source.job.shape}, "
                         f"not the symmetry job of {kind}")
    unit = source.get(0) if hasattr(source, "get") else \
        next((r for r in source.results() if r.unit_id == 0), None)
    if unit is None:
        raise StoreError(f"{path} has no identity unit (unit 0)")
    return unit.count * math.factorial(as_kind(kind).shape.n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--identity-from", type=Path, default=None)
    ap.add_argument("--csv", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.perf_counter()
    try:
        group = split_group(args.kind)
        kind = group.kind.name
        grid_total = None if args.identity_from is None else identity_from(args.identity_from, kind)
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
    print("| class | size | representative | π type | A | searches | nodes | CPU |")
    print("|---:|---:|---|---|---:|---:|---:|---:|")
    for (cls, t), term in zip(units, ordered):
        if term.fixed:
            print(f"| {cls.class_id} | {cls.size:,} | {cls.label} | {type_label(t)} | "
                  f"{term.fixed:,} | {term.searches:,} | {term.nodes:,} | "
                  f"{cpu_of[(cls.class_id, t)]:,.1f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
