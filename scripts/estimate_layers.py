"""The measured estimate of a whole job by layers (factorization.layer_estimate).

Computes layers 1..C-4, samples the three layers after (uniform parent and
labelled row, then children of the sampled states, each weighted to be
unbiased), times every sampled state's transition, and prints a Markdown
report: the machine and its load, each stage's parents, rows, distinct
children and CPU (with standard errors), memory and disk, and the sampled
layer-(C-2) units as CSV.  Record it in ``results/layers-2x6-estimate.md``.

    python scripts/estimate_layers.py 6 --samples 30 --children 2 --parents 6
    python scripts/estimate_layers.py 5 --samples 30 --children 3   # beside the exact 2x5 layers
    python scripts/estimate_layers.py 6 --shared 20   # 20 layer-3 units: own tables or one

With ``--shared N`` it only compares the CPU a row of N sampled layer-(C-3)
units timed each on its own table (as the estimate times them) with the
same units filling one table (as a whole layer's share would).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import resource

from counting.job import describe_machine
from factorization.layer_estimate import Figure, estimate_layers, record_bytes, table_bytes
from factorization.layer_sample import random_child
from factorization.layer_steps import children_of, next_layer_with_stats
from factorization.layers import layer_counts


def cpu_text(f) -> str:
    """CPU seconds below an hour, core-hours above."""
    return f.text("s") if f.value < 3600 else f.text("core-hours", 3600)


def shared_table_check(C: int, n: int, seed: int) -> None:
    """CPU a row of ``n`` sampled layer-(C-3) units, each on its own table
    and all on one table."""
    layer = layer_counts(C, upto=C - 4).last
    forms, rng, units = list(layer), random.Random(seed), {}
    while len(units) < n:
        s = random_child(layer, C, rng, forms)
        units[s.form] = (1, s.stab)
    alone = [children_of(f, stab, C)[2] for f, (_, stab) in units.items()]
    rows, cpu = sum(a.rows for a in alone), sum(a.cpu for a in alone)
    _, shared = next_layer_with_stats(units, C, parents=slice(0, n))
    print(f"{n:,} layer-{C - 3} units, {rows:,} rows (load average {os.getloadavg()[0]:.1f}): "
          f"each on its own table {cpu:,.2f} s CPU ({1e6 * cpu / rows:,.2f} µs a row, largest "
          f"table {max(a.table_bytes for a in alone) / 2 ** 20:,.0f} MiB); all on one table "
          f"{shared.cpu:,.2f} s ({1e6 * shared.cpu / shared.rows:,.2f} µs a row, "
          f"{shared.children:,} children, table {shared.table_bytes / 2 ** 20:,.0f} MiB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stacks", type=int, choices=(5, 6))
    ap.add_argument("--samples", type=int, default=30, help="layer C-3 states drawn")
    ap.add_argument("--children", type=int, default=2, help="children drawn of each, twice")
    ap.add_argument("--parents", type=int, default=6,
                    help="parents of layer C-4 timed for its stage (0: approximated)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv", help="write every sampled unit here (CSV)")
    ap.add_argument("--shared", type=int, help="only compare own tables with one shared table")
    args = ap.parse_args()
    if args.samples < 2 or args.children < 1 or args.parents < 0:
        ap.error("--samples must be at least 2, --children at least 1, --parents at least 0")
    C = args.stacks
    if args.shared is not None:
        shared_table_check(C, max(1, args.shared), args.seed)
        return
    m = describe_machine()
    load0 = os.getloadavg()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}; load average before {load0[0]:.1f} / {load0[1]:.1f} / "
          f"{load0[2]:.1f} (1 / 5 / 15 min); one thread; seed {args.seed}, "
          f"{args.samples:,} samples, {args.children:,} children each, "
          f"{args.parents:,} parents of layer {C - 4}\n")
    e = estimate_layers(C, samples=args.samples, children=args.children,
                        parents=args.parents, seed=args.seed)
    print("| stage | parents (states of the layer) | rows | distinct children (Σ over parents) "
          "| CPU | how |")
    print("|---|---:|---:|---:|---:|---|")
    for s in e.stages:
        kids = "—" if math.isnan(s.children.value) else s.children.text()
        print(f"| {s.step} → {s.step + 1} | {s.parents.text()} | {s.rows.text()} | {kids} "
              f"| {cpu_text(s.cpu)} | {s.how} |")
    ch = e.core_hours
    big = e.largest_stage()
    layer, states = e.largest_table()
    P = e.workers_for_memory()
    disk, sent = e.disk_gib()
    seconds = f"{cpu_text(Figure(3600 * ch.value))}; " if ch.value < 1 else ""
    print(f"\n* **total: {ch.text('core-hours')}** ({seconds}standard error), "
          f"{math.ceil(ch.value / 24):,} workers for a day; stage {big.step} → {big.step + 1} "
          f"dominates ({cpu_text(big.cpu)}, "
          f"{100 * big.cpu.value / (3600 * ch.value):.0f} %).")
    print(f"* the target of 500 core-hours: {'met' if ch.value <= 500 else 'missed'} "
          f"({ch.value / 500:,.2f} × the target).")
    print(f"* memory: the largest layer built, {layer}, about {states:,.0f} states; its table "
          f"({e.slot_bytes} B a slot, at least twice the states, a power of two) "
          f"{e.table_gib():,.1f} GiB on one machine; split by key over {P:,} workers "
          f"{e.table_gib(P):,.1f} GiB a worker (limit {e.memory_limit / 2 ** 30:,.0f} GiB): "
          f"{'met with' if P > 1 else 'met by'} {P:,} worker(s) holding a share each.")
    print(f"* largest unit table measured: "
          f"{max(table_bytes(u.children, e.slot_bytes) for u in e.units) / 2 ** 20:,.0f} MiB.")
    print(f"* disk: {record_bytes(C)} B a state; layer {layer} {disk:,.1f} GiB; a stage split "
          f"by key sends at most one record per distinct child of each parent: up to "
          f"{sent:,.0f} GiB for the largest.")
    print(f"\nsampling took {e.seconds:,.1f} s wall; load average after "
          f"{os.getloadavg()[0]:.1f}; peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB\n")
    print(f"Layer-{C - 2} units (each a sampled state's transition {C - 2} → {C - 1}; weight: "
          f"the states of the layer it stands for in its term):\n")
    print("```csv\nstate,stabiliser,rows,children,cpu_s,weight")
    for u in e.units:
        if u.layer == C - 2:
            print(f"{' '.join(map(str, u.form))},{u.stab},{u.rows},{u.children},"
                  f"{u.cpu:.6f},{u.weight:.6g}")
    print("```")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("layer,state,stabiliser,rows,children,cpu_s,weight\n")
            for u in e.units:
                f.write(f"{u.layer},{' '.join(map(str, u.form))},{u.stab},{u.rows},"
                        f"{u.children},{u.cpu:.6f},{u.weight:.6g}\n")


if __name__ == "__main__":
    main()
