"""The 2x6 job by the 2-factor route (issue 36), measured: its CPU and memory.

Instead of the layer DP's stages 3 → 4 and 4 → 5, the route computes for
each pattern class Q at the top ``F_6(Q) = 6·Σ_{M∋e} F_5(Q − M)``, each
degree-5 class's ``F_5 = 5·Σ_{M∋e} F_4(· − M)`` once (memoised by the
kernel's canonical form), and each degree-4 class's ``F_4`` once by the
kernel's 2-factor search.  So its CPU is

    Σ_{degree-4 classes} t(F_4)  +  Σ_{degree-5 classes} t(F_5 | F_4 memoised)
    +  top classes × t(F_6 | F_5 memoised),

and its memory a memo of every degree-4 and degree-5 class.

The degree-4 and degree-5 graphs are the used graphs of 4- and 5-row band
states (4-/5-regular, a stack's two columns disjoint), i.e. the layer
method's layers 4 and 5, which the existing unbiased sampler has drawn
(``scripts/estimate_layers.py 6 --samples 30 --children 2 --csv
results/layers-2x6-units.csv``: 60 layer-4 and 120 layer-5 states, each with
the weight that makes ``Σ weight · g`` unbiased for ``Σ g`` over its layer).
This script reads those draws and, per state:

* layer 4: times ``F_4`` by 2-factors and by the rooted recurrence
  (interleaved, medians of ``--repeats``; no memo);
* layer 5: times the state's rooted children (the matchings through e and
  each child's key) two ways: A, the kernel's canonical forms
  (``Kernel.children``), memo keys of kernel classes; B, the layer method's
  forms (``layer_forms_of`` on the rooted un-rows, the forms alone timed),
  memo keys of layer classes; and, on ``--lookups`` states, the look-up a
  child costs beyond its form (the memo filled with every child's ``F_4``,
  then ``F_5`` timed);
* both: counts the layer classes ``P`` in the state's kernel class (the
  kernel's form is up to all column permutations, the layer's up to
  C₂ ≀ S₆: the stack pairings of the columns that keep each stack's columns
  disjoint, each taken to its layer form), so ``Σ weight / P`` estimates the
  kernel's classes and ``Σ weight · t / P`` a sum once per kernel class;
* top: ``--top`` pattern classes (layer-6 children of the first layer-5
  states, one each; a plain mean, not weighted) have their rooted children
  timed both ways; a look-up is charged as at layer 5.

Terms are grouped by the sampler's layer-3 draws (30 terms), so each sum
has a standard error.  Prints Markdown for ``results/layers-2x6-estimate.md``.

    python scripts/estimate_two_factor_route.py --repeats 3 --top 6 --lookups 4
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import statistics
import sys
import time
from datetime import datetime, timezone

import numpy as np

from counting import route_estimate
from counting.job import describe_machine
from factorization.kernel import Kernel, key_to_adj
from factorization.layer_estimate import Figure
from factorization.layer_sample import unrows
from factorization.layer_steps import children_of, layer_forms_of

C, N = 6, 12
SLOT_BYTES = 64         # a kernel memo slot (factorization._kernel.SLOT_BYTES)
TOP_CLASSES = 63_053    # gridcount's pattern classes of 2x6 (patterns2; the anchor's 63,199)
TARGET_HOURS, LIMIT_GIB = 500, 20


def graph(state) -> np.ndarray:
    """Column masks of the used graph of a band state (digit masks over columns)."""
    return np.array([sum(1 << d for d in range(N) if state[d] >> c & 1) for c in range(N)],
                    dtype=np.uint32)


def pairings(adj) -> list[list[int]]:
    """Every pairing of the columns into stacks of two disjoint columns, as
    column orders (stack s = positions 2s, 2s + 1)."""
    out: list[list[int]] = []

    def rec(left: int, order: list[int]) -> None:
        if not left:
            out.append(order.copy())
            return
        i = (left & -left).bit_length() - 1
        rest = left & ~(1 << i)
        m = rest
        while m:
            j = (m & -m).bit_length() - 1
            m &= m - 1
            if not int(adj[i]) & int(adj[j]):
                rec(rest & ~(1 << j), order + [i, j])

    rec((1 << N) - 1, [])
    return out


def layer_classes_in_kernel_class(adj, form) -> int:
    """Layer classes whose graphs are isomorphic to ``adj`` (columns and
    digits permuted freely): the distinct layer forms of its stack pairings."""
    states = [[sum(1 << j for j, c in enumerate(order) if int(adj[c]) >> d & 1)
               for d in range(N)] for order in pairings(adj)]
    forms, _ = layer_forms_of(np.array(states), C)
    got = {tuple(f) for f in forms.tolist()}
    assert tuple(form) in got, "the state's own form is among its pairings'"
    return len(got)


def read_units(path):
    """The sampler's draws, grouped into terms (one per layer-3 draw)."""
    terms, cur = [], None
    with open(path) as f:
        for r in csv.DictReader(f):
            L = int(r["layer"])
            if L == 3:
                cur = {4: [], 5: []}
                terms.append(cur)
            elif L in (4, 5) and cur is not None:
                cur[L].append((tuple(int(x) for x in r["state"].split()), float(r["weight"])))
    return terms


def cpu(f, *a) -> tuple[float, object]:
    t0 = time.process_time()
    v = f(*a)
    return time.process_time() - t0, v


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", default="results/layers-2x6-units.csv")
    ap.add_argument("--repeats", type=int, default=3, help="timings of each F_4 (medians)")
    ap.add_argument("--top", type=int, default=6, help="top pattern classes timed")
    ap.add_argument("--lookups", type=int, default=4,
                    help="layer-5 states whose look-up cost is timed (each fills a memo)")
    ap.add_argument("--lookup-mb", type=float, default=64.0, help="the look-ups' memo, MiB")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, metavar="PATH",
                    help="also write route A's measurement there (results/layers-2x6-route.json "
                         "is what `gridcount count 2x6` and `verify` read)")
    args = ap.parse_args()
    terms = read_units(args.units)
    m = describe_machine()
    load0 = os.getloadavg()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}; load average before {load0[0]:.1f} / {load0[1]:.1f} / "
          f"{load0[2]:.1f}; one thread; {len(terms)} terms from {args.units}\n")
    t_start = time.perf_counter()
    two, rec, plain = Kernel(N, 0.0), Kernel(N, 0.0, two_factor=False), Kernel(N, 0.0)
    # n: states (layer classes), k: kernel classes (Σ 1/P), t4/r4: F_4 by 2-factors /
    # by the recurrence once per kernel class (Σ t/P), c4: kernel forms of layer-4
    # classes, m5: rooted children, a5 (per kernel class) / b5 (per layer class):
    # their kernel / layer forms, ma5: children per kernel class (its look-ups)
    keys_ = ("n4", "k4", "t4", "r4", "c4", "n5", "k5", "m5", "ma5", "a5", "b5")
    sums = {k: [] for k in keys_}
    ratios, lookups = [], []
    for term in terms:
        acc = dict.fromkeys(keys_, 0.0)
        for state, w in term[4]:
            adj = graph(state)
            t2, t1, tc = [], [], []
            for _ in range(args.repeats):          # interleaved: 2-factors, recurrence
                a, v2 = cpu(two.count, adj, 4)
                b, v1 = cpu(rec.count, adj, 4)
                c, _ = cpu(plain.canonical, adj)
                assert v1 == v2
                t2.append(a)
                t1.append(b)
                tc.append(c)
            a, b = statistics.median(t2), statistics.median(t1)
            ratios.append(b / a)
            P = layer_classes_in_kernel_class(adj, state)
            acc["n4"] += w
            acc["k4"] += w / P
            acc["t4"] += w * a / P
            acc["r4"] += w * b / P
            acc["c4"] += w * statistics.median(tc)
        for state, w in term[5]:
            adj = graph(state)
            t_kernel, keys = cpu(plain.children, adj, True)
            t_layer, n_got = rooted_layer_forms(state)
            assert n_got == len(keys)
            if len(lookups) < args.lookups:
                lookups.append(lookup_cost(adj, keys, t_kernel, args.lookup_mb))
            P = layer_classes_in_kernel_class(adj, state)
            acc["n5"] += w
            acc["k5"] += w / P
            acc["m5"] += w * len(keys)
            acc["ma5"] += w * len(keys) / P
            acc["a5"] += w * t_kernel / P
            acc["b5"] += w * t_layer
        for key in keys_:
            sums[key].append(acc[key])
    F = {key: Figure.of(v) for key, v in sums.items()}
    lookup = statistics.median(lookups)

    # the top: layer-6 children of the first layer-5 states, one each
    rng = random.Random(args.seed)
    tops = []
    for term in terms:
        for state, _ in term[5]:
            if len(tops) < args.top:
                kids, _, _ = children_of(state, 1, C)
                tops.append(tuple(kids[rng.randrange(len(kids))].tolist()))
    top_k, top_l, top_m = [], [], []
    for q in tops:
        t, keys = cpu(plain.children, graph(q), True)
        top_k.append(t)
        top_m.append(len(keys))
        top_l.append(rooted_layer_forms(q)[0])
    mt = statistics.fmean(top_m)
    top_a = TOP_CLASSES * (statistics.fmean(top_k) + mt * lookup) / 3600
    top_b = TOP_CLASSES * (statistics.fmean(top_l) + mt * lookup) / 3600

    def h(f):
        return f.text("core-hours", 3600)

    def per(f, n, unit="ms", scale=1e3):       # a mean per class
        return f"{scale * F[f].value / F[n].value:,.2f} {unit}"

    def plus_lookups(f, m):
        return Figure(f.value + lookup * F[m].value, math.hypot(f.stderr, lookup * F[m].stderr))
    f4 = F["t4"]
    a5, b5 = plus_lookups(F["a5"], "ma5"), plus_lookups(F["b5"], "m5")
    a_parts, b_parts = [f4, a5], [f4, F["c4"], b5]
    print("| part | states (layer classes) | kernel classes | per class | CPU |")
    print("|---|---:|---:|---:|---:|")
    print(f"| F_4 by 2-factors, once per kernel class of degree 4 | {F['n4'].text()} "
          f"| {F['k4'].text()} | {per('t4', 'k4')} | {h(f4)} |")
    print(f"| (F_4 by the rooted recurrence) | | | {per('r4', 'k4')} | {h(F['r4'])} |")
    print(f"| kernel form of each layer-4 class (route B only) | {F['n4'].text()} | "
          f"| {per('c4', 'n4', 'µs', 1e6)} | {h(F['c4'])} |")
    print(f"| F_5 from {F['m5'].value / F['n5'].value:,.0f} memoised children a class, "
          f"A: kernel forms | {F['n5'].text()} | {F['k5'].text()} "
          f"| {per('a5', 'k5')} + look-ups | {h(a5)} |")
    print(f"| the same, B: layer forms (every layer class) | | | {per('b5', 'n5')} + look-ups "
          f"| {h(b5)} |")
    print(f"| F_6 of the {TOP_CLASSES:,} top classes from {mt:,.0f} memoised children each "
          f"({len(tops)} timed), A / B | {TOP_CLASSES:,} | | "
          f"{1e3 * statistics.fmean(top_k):,.0f} / {1e3 * statistics.fmean(top_l):,.0f} ms "
          f"+ look-ups | {top_a:,.2f} / {top_b:,.2f} core-hours |")
    print()
    for name, parts, top in (("A (kernel forms)", a_parts, top_a),
                             ("B (layer forms)", b_parts, top_b)):
        v = sum(p.value for p in parts) / 3600 + top
        se = math.sqrt(sum(p.stderr ** 2 for p in parts)) / 3600
        print(f"* **route {name}: {v:,.0f} ± {se:,.0f} core-hours** "
              f"({v / TARGET_HOURS:,.2f} × the target of {TARGET_HOURS}: "
              f"{'met' if v <= TARGET_HOURS else 'missed'}).")
    print(f"* F_4 by 2-factors against the recurrence, per state: median "
          f"{statistics.median(ratios):,.2f} × faster ({min(ratios):,.2f} to {max(ratios):,.2f}, "
          f"{len(ratios)} states, medians of {args.repeats} interleaved timings).")
    print(f"* a look-up: {1e6 * lookup:,.2f} µs a child (F_5's time beyond its children's "
          f"forms with every child's F_4 in a {args.lookup_mb:,.0f} MiB memo, median of "
          f"{len(lookups)} layer-5 "
          f"states; a whole memo's look-ups miss the caches more).")
    memo(F["k4"].value + F["k5"].value, "A: the kernel classes of degree 4 and 5", 64)
    memo(F["n4"].value + F["n5"].value, "B: the layer classes of degree 4 and 5", 48)
    print(f"\nmeasured in {time.perf_counter() - t_start:,.0f} s wall; load average after "
          f"{os.getloadavg()[0]:.1f}")
    if args.json:
        k = Figure(F["k4"].value + F["k5"].value, math.hypot(F["k4"].stderr, F["k5"].stderr))
        sample = {"terms": len(terms), "layer_4_states": sum(len(t[4]) for t in terms),
                  "layer_5_states": sum(len(t[5]) for t in terms), "top_classes_timed": len(tops),
                  "look_up_states_timed": len(lookups), "timings_a_state": args.repeats,
                  "units_file": args.units, "look_up_memo_mib": args.lookup_mb}
        write_measurement(args.json, m, load0, sample, [
            ("F_4", "by 2-factors, once per kernel class of degree 4", f4),
            ("F_5", "rooted, from memoised F_4 of its children, once per kernel class of "
                    "degree 5", a5),
            ("F_6", f"rooted, from memoised F_5, each of the {TOP_CLASSES:,} top classes",
             Figure(top_a * 3600, 0.0))], k)


def rooted_layer_forms(state) -> tuple[float, int]:
    """CPU seconds of the layer forms of the un-rows of ``state`` through its
    root edge (column 0 and its lowest digit: the children of F's rooted
    recurrence, keyed as the layer method keys them), and how many.  Only the
    forms are timed (one compiled batch): the un-rows are listed in Python."""
    parents = unrows(state, C)
    d0 = min(d for d in range(N) if state[d] & 1)
    rooted = np.ascontiguousarray(parents[parents[:, d0] == state[d0] ^ 1])
    t, _ = cpu(layer_forms_of, rooted, C)
    return t, len(rooted)


def lookup_cost(adj, keys, t_children, memo_mb: float) -> float:
    """Seconds a child beyond its form: F_5 with every child's F_4 memoised
    (in a memo of ``memo_mb`` MiB: a larger one misses the caches more)."""
    k = Kernel(N, memo_mb)
    for key in np.unique(keys, axis=0):
        k.count(key_to_adj(tuple(int(x) for x in key), N), 4)
    before = k.stats()["hits"]
    t5, _ = cpu(k.count, adj, 5)
    assert k.stats()["hits"] - before == len(keys)
    return max(0.0, t5 - t_children) / len(keys)


def write_measurement(path, machine, load0, sample, stages, entries) -> None:
    """Write route A's measurement (:mod:`counting.route_estimate`'s format)."""
    doc = {"format": route_estimate.FORMAT, "version": route_estimate.VERSION, "shape": "2x6",
           "route": "the layer method's 2-factor route (F_4 by 2-factors; F_5, F_6 rooted; "
                    "memoised by kernel forms)",
           "stages": [{"name": n, "what": w, "cpu_seconds": f.value, "stderr_seconds": f.stderr}
                      for n, w, f in stages],
           "memo": {"entries": entries.value, "entries_stderr": entries.stderr,
                    "slot_bytes": SLOT_BYTES, "fill": 0.75},
           "worker_limit_gib": LIMIT_GIB, "sample": sample,
           "machine": {k: machine[k] for k in ("cpu", "cores", "memory_gib", "os", "python")},
           "load_average": {"before": [round(x, 2) for x in load0],
                            "after": [round(x, 2) for x in os.getloadavg()]},
           "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "command": "python scripts/estimate_two_factor_route.py " + " ".join(sys.argv[1:])}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {path}")


def memo(n: float, label: str, slot: int) -> None:
    """Print the memo's size on one machine and split by key."""
    def gib(states):
        return (1 << math.ceil(math.log2(states * 4 / 3))) * slot / 2 ** 30
    workers = next(w for w in range(1, 4097) if gib(n / w) <= LIMIT_GIB)
    print(f"* memory, route {label} ({n:,.0f} entries, {slot} B a slot, at most 3/4 full, "
          f"a power of two): {gib(n):,.1f} GiB on one machine"
          + (f"; split by key, {workers:,} workers of {gib(n / workers):,.1f} GiB "
             f"(limit {LIMIT_GIB} GiB)." if workers > 1 else f" (limit {LIMIT_GIB} GiB): met."))


if __name__ == "__main__":
    main()
