"""The non-identity Burnside terms of ``count KIND --up-to-symmetry --group full``, counted and recounted.

For a kind whose grid count has no store yet (its total known from elsewhere,
e.g. the kind band tables of ``results/kind-band-tables.tsv``), ``gridcount
count KIND --up-to-symmetry --group full`` cannot start: it records its
identity from the grid store first.  This script counts every other unit of
that same job, by the job's own path (:func:`counting.job.run_count` on the
``symmetry-full`` job, into the store ``--db``, 1 worker by default), then
recounts every unit by ``gridcount recount``'s library call
(:func:`counting.recount.recount`: the reduction's ``count_independently``,
another element of the unit's class, or for a central element another unit
made standard, else a search with an empty memo), and prints a Markdown report: the machine,
the load, the group, one row per unit (class, size, representative,
relabelling type, A, its recount, nodes, the unit's seconds in its worker
(wall clock, as the store records them)), and, with
``--grid-total-from``, Burnside's sum with the identity = grid total / N!:
whether ``|C|`` divides it, and the quotient.  ``--csv`` writes the rows.
``--split`` (a kind whose full group is today's) counts the terms a second
way, by :mod:`counting.group.split_burnside` (``C`` listed from nauty's
generators, its own classes, representatives and exact covers), and compares
each stored unit with the term of its class.  Exit 1 when a recount or the
split route disagrees, or ``|C|`` does not divide the sum.

    nice -n 10 python scripts/count_full_terms.py 3x3+centre \\
        --grid-total-from results/kind-band-tables.tsv \\
        --db /tmp/3x3+centre-rsymmetry-full.sqlite \\
        --csv results/3x3+centre-full-symmetry.csv
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import time
from pathlib import Path

from counting.group.burnside import identity_fixed
from counting.group.split_burnside import (count_split_unit, disagreements_with_today,
                                           split_group, split_units)
from counting.job import Job, describe_machine, run_count
from counting.recount import recount
from counting.plan import open_store
from counting.store.format import StoreError
from grids.kind import as_kind

CSV_HEADER = ("unit_id", "class_id", "class_size", "representative", "pi_type", "fixed",
              "recount", "nodes", "seconds")


def grid_total_from(path: Path, kind: str) -> int:
    """The grid total of ``kind`` in a TSV with columns ``kind`` and
    ``grids`` (every row of the kind must give the same total)."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f, delimiter="\t")
        if not {"kind", "grids"} <= set(reader.fieldnames or ()):
            raise ValueError(f"{path} has no columns kind and grids")
        totals = {int(row["grids"]) for row in reader if row["kind"] == kind}
    if len(totals) != 1:
        raise ValueError(f"{path} gives {len(totals)} different grid totals of {kind} "
                         f"(one is needed)")
    return totals.pop()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind")
    ap.add_argument("--db", type=Path, required=True,
                    help="store of the symmetry-full job (its non-identity units)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--grid-total-from", type=Path, default=None,
                    help="TSV with columns kind, grids: the identity = grids / N!")
    ap.add_argument("--csv", type=Path, default=None)
    ap.add_argument("--split", action="store_true",
                    help="also count the terms by the split route (C listed from nauty's "
                         "generators, its own classes and representatives) and compare")
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error(f"--workers must be at least 1, got {args.workers}")
    load0 = os.getloadavg()[0]
    try:
        kind = as_kind(args.kind).name
        job = Job.load(kind, "symmetry-full", force=True)
        grid_total = None if args.grid_total_from is None \
            else grid_total_from(args.grid_total_from, kind)
        identity = None if grid_total is None else identity_fixed(kind, grid_total)
    except (ValueError, ArithmeticError, OSError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    red = job.reduction_object
    if args.split and not red.terms.same_as_today:
        print(f"error: --split: the --group full job of {kind} counts by the split route "
              f"already (its cell group is larger than today's)", file=sys.stderr)
        return 2
    units = red.units()
    others = [u.unit_id for u in units if not u.is_identity]
    t0 = time.perf_counter()
    try:
        store, lock, _ = open_store(args.db, job)
    except (StoreError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        with store:
            run_count(job, store, workers=args.workers, unit_ids=others, progress=False,
                      log=lambda msg: print(msg, file=sys.stderr, flush=True))
            count_wall = time.perf_counter() - t0
            c0 = time.process_time()
            checked = recount(store, len(others), seed=0, job=job).checked
            recount_cpu = time.process_time() - c0
            stored = {r.unit_id: r for r in store.results()}
    finally:
        lock.release()
    again_of = {u: again for u, _, again in checked}
    bad = [f"unit {u}: {first:,} counted, {again:,} recounted"
           for u, first, again in checked if first != again]
    rows = []
    for uid in others:
        spec, r = units[uid], stored[uid]
        rows.append((uid, spec.class_id, spec.size,
                     f"{red.class_label(spec.class_id)} ({spec.describe()})",
                     red.unit_columns(spec)["pi_type"], r.count, again_of.get(uid), r.nodes,
                     r.seconds))
    wall = time.perf_counter() - t0
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(CSV_HEADER)
            for row in rows:
                out.writerow((*row[:8], f"{row[8]:.3f}"))
    m = describe_machine()
    n = red.shape.n
    order = red.group_order
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}; load average {load0:.1f} at the "
          f"start, {os.getloadavg()[0]:.1f} at the end\n")
    print(f"kind {kind}: full group {order * math.factorial(n):,} = {order:,} × {n}!"
          f"{' (today’s group)' if red.terms.same_as_today else ''}, "
          f"{len(red.terms.classes)} classes of C, {len(units)} units "
          f"({len(others)} besides the identity); counted in {count_wall:,.1f} s wall, "
          f"{sum(r[8] for r in rows):,.1f} s in the units (their workers' wall clock); recounted "
          f"({len(checked)} units) in {recount_cpu:,.1f} CPU s; {wall:,.1f} s wall in all\n")
    print("| unit | class | size | representative | π type | A | recount | nodes | seconds |")
    print("|---:|---:|---:|---|---|---:|---:|---:|---:|")
    for uid, cid, size, label, t, a, again, nodes, cpu in rows:
        print(f"| {uid} | {cid} | {size:,} | {label} | {t} | {a:,} | "
              f"{'—' if again is None else f'{again:,}'} | {nodes:,} | {cpu:,.1f} s |")
    print(f"\nrecount ({red.recount_method()}): "
          + ("; ".join(bad) if bad else f"all {len(checked)} units agree"))
    if args.split:
        c0 = time.process_time()
        terms = [count_split_unit(kind, cls, t) for cls, t in split_units(kind)
                 if cls.class_id != 0]
        split_sum, here = sum(t.size * t.fixed for t in terms), sum(r[2] * r[5] for r in rows)
        wrong = disagreements_with_today(kind, terms, {u: r.count for u, r in stored.items()})
        wrong += [] if split_sum == here else [f"Σ size·A {split_sum:,} against {here:,} here"]
        bad += wrong
        print(f"\nsplit route (C listed: {len(split_group(kind).classes)} classes, "
              f"{len(terms)} non-identity terms, Σ size·A {split_sum:,}; "
              f"{time.process_time() - c0:,.1f} CPU s): "
              + ("; ".join(wrong) if wrong else "every unit agrees with its class's term"))
    if identity is None:
        return 1 if bad else 0
    weighted = identity + sum(size * a for _, _, size, _, _, a, *_ in rows)
    orbits, rest = divmod(weighted, order)
    print(f"\nidentity: {grid_total:,} grids / {n}! = {identity:,} ({args.grid_total_from})\n"
          f"Σ size·A = {weighted:,}; ÷ |C| = {order:,}: "
          + (f"**{orbits:,}** essentially different (divides exactly)" if not rest else
             f"remainder {rest:,}: does NOT divide, a count is wrong"))
    return 1 if bad or rest else 0


if __name__ == "__main__":
    sys.exit(main())
