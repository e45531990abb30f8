"""Time the layer method (factorization.layers) for C stacks against the kernel.

For each ``C`` it counts the bands of every pattern class at once by
layers, prints the layer sizes, the rows enumerated and the seconds of each
transition, checks the grid total against the published one, and times the
kernel's per-class counts of the ``patterns2`` classes (one private counter,
as one worker counts them) for comparison.  It prints a Markdown report;
record it in ``results/layers.md``.

    python scripts/bench_layers.py 3 4 5 --threads 2
    python scripts/bench_layers.py 3 4 --engine numpy      # the NumPy reference
    python scripts/bench_layers.py 6 --sample 10 --after 2  # layer 2 -> 3 of C = 6 on 10 parents

With ``--sample N --after L`` it computes layers ``1..L`` and times the
transition ``L -> L+1`` parent by parent on ``N`` random parents (seed 1),
for a measured estimate of the whole transition.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import time

from counting.job import describe_machine
from counting.published import lookup
from counting.reduction.patterns2 import pattern_classes
from factorization import FactorizationCounter, count_factorizations
from factorization.layer_steps import next_layer_with_stats
from factorization.layers import ENGINES, layer_counts, pattern_form


def kernel_seconds(C: int, classes: dict) -> tuple[float, int]:
    """CPU seconds of the kernel over the patterns2 classes, and how many
    classes' counts differ from the layers' (0 expected)."""
    classes_ = pattern_classes(C)
    counter = FactorizationCounter(2 * C, memo_mb=256)
    t0 = time.process_time()
    counts = [(pc, count_factorizations(pc.representative, counter=counter)) for pc in classes_]
    seconds = time.process_time() - t0
    differ = sum(classes[pattern_form(pc.representative)].F != F for pc, F in counts)
    return seconds, differ


def sample_transition(C: int, L: int, n: int) -> None:
    """Time the transition ``L -> L+1`` of ``C`` stacks on ``n`` random
    parents, one at a time (one thread), and print the estimate."""
    t0, c0 = time.perf_counter(), time.process_time()
    r = layer_counts(C, upto=L)
    print(f"C = {C}: layer {L} has {len(r.last):,} states ({time.perf_counter() - t0:,.1f} s "
          f"wall, {time.process_time() - c0:,.1f} s CPU)\n")
    print("| parent | stabiliser | rows | children | admissible elements | CPU s |")
    print("|---:|---:|---:|---:|---:|---:|")
    forms = list(r.last)
    picked = random.Random(1).sample(range(len(forms)), min(n, len(forms)))
    cpu = []
    for i in picked:
        c0 = time.process_time()
        kids, stats = next_layer_with_stats({forms[i]: r.last[forms[i]]}, C,
                                            parents=slice(0, 1))
        cpu.append(time.process_time() - c0)
        print(f"| {i} | {r.last[forms[i]][1]:,} | {stats.rows:,} | {len(kids):,} "
              f"| {stats.leaves:,} | {cpu[-1]:,.1f} |", flush=True)
    mean = sum(cpu) / len(cpu)
    print(f"\nmean {mean:,.2f} s CPU a parent: the transition about "
          f"{mean * len(forms):,.0f} s CPU ({mean * len(forms) / 3600:,.2f} core-hours)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stacks", nargs="+", type=int)
    ap.add_argument("--no-kernel", action="store_true", help="skip the kernel's timing")
    ap.add_argument("--engine", choices=ENGINES, default="compiled")
    ap.add_argument("--threads", type=int, default=1, help="threads of a compiled transition")
    ap.add_argument("--sample", type=int, help="time this many random parents of one transition")
    ap.add_argument("--after", type=int, default=2, help="the sampled transition's layer L")
    args = ap.parse_args()
    if args.threads < 1:
        ap.error("--threads must be at least 1")
    if args.sample is not None:
        for C in args.stacks:
            sample_transition(C, args.after, args.sample)
        return
    m = describe_machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}; load average before {os.getloadavg()[0]:.1f}; "
          f"engine {args.engine}, {args.threads:,} thread(s) (the machine is shared: CPU "
          f"time is the figure to compare)\n")
    print("| C | grid | layer sizes (1..C) | rows enumerated per transition "
          "| seconds per transition (wall / CPU) | layers wall | layers CPU | kernel CPU "
          "| classes differing "
          "| total = published |")
    print("|---:|---|---|---|---|---:|---:|---:|---:|---|")
    for C in args.stacks:
        t0, c0 = time.perf_counter(), time.process_time()
        r = layer_counts(C, engine=args.engine, threads=args.threads)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if args.no_kernel:
            ks, differ = "not run", "-"
        else:
            s, d = kernel_seconds(C, r.classes)
            ks, differ = f"{s:,.1f} s", f"{d:,}"
        published = lookup(f"2x{C}")
        same = "yes" if published is not None and published.total == r.total else "NO"
        print(f"| {C} | 2x{C} ({2 * C}×{2 * C}) | {', '.join(f'{n:,}' for n in r.sizes)} "
              f"| {', '.join(f'{n:,}' for n in r.rows)} "
              f"| {', '.join(f'{s:,.2f} / {c:,.2f}' for s, c in zip(r.seconds, r.cpu))} "
              f"| {wall:,.1f} s | {cpu:,.1f} s | {ks} "
              f"| {differ} | {same} ({r.total:,}) |", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS {peak:,.0f} MiB; load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
