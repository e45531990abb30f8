"""Estimate every Burnside term of the main classes of Latin squares of one order, costliest first.

Every class of paratopy ``S_N ≀ S_3`` but the identity (whose term is the
grid count of ``1xN``) is estimated by
:func:`counting.group.latin_cost.estimate_term` within ``--max-seconds``
each: the terms a check rules out cost nothing; the others by Knuth's
estimator (module docstring of :mod:`counting.group.latin_cost`: high, by up
to the reductions the count makes).  The δ = id terms are the isotopy
classes' (``count 1xN --up-to-symmetry``); they are summed apart.  Prints a
Markdown report (the machine and its load first); ``--csv`` writes every term.

    nice python scripts/estimate_latin_terms.py 10 --csv results/1x10-main-class-terms.csv
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import time

from counting.group.burnside import type_label
from counting.group.latin_classes import paratopy_classes
from counting.group.latin_cost import METHOD_WORDS, costliest_count, estimate_terms
from counting.job import describe_machine
from counting.reach import format_seconds

CSV_HEADER = ("unit", "coset", "types", "class_size", "representative", "method", "candidates",
              "measured", "estimated_cpu_seconds", "estimated_fixed")


def table(rows, total: float, top: int, top90: int) -> list[str]:
    out = ["| rank | unit | class size | element (class; representative) | estimated by | "
           "candidates (explored) | estimated CPU | share | cumulative |",
           "|---:|---:|---:|---|---|---:|---:|---:|---:|"]
    running = 0.0
    for k, e in enumerate(rows[:top]):
        running += e.seconds
        mark = " ✱" if k < top90 else ""
        out.append(f"| {k + 1}{mark} | {e.unit_id} | {e.cls.size:,} | {e.cls.label()}; "
                   f"{e.cls.representative()} | {e.method} | {e.candidates:,} ({e.measured:,}) | "
                   f"{format_seconds(e.seconds)} | {e.seconds / total:.1%} | "
                   f"{running / total:.1%} |")
    return out


def part(title: str, rows, top: int) -> list[str]:
    rows = sorted(rows, key=lambda e: (-e.seconds, e.unit_id))
    total = math.fsum(e.seconds for e in rows)
    if total <= 0:
        return [f"## {title}\n", "No term needs a search.\n"]
    top90 = costliest_count([e.seconds for e in rows], 0.9)
    carrying = sum(1 for e in rows if e.method != "ruled out")
    out = [f"## {title}\n",
           f"{len(rows):,} terms besides the identity, {carrying:,} searched ({len(rows) - carrying:,} "
           f"ruled out); estimated **{format_seconds(total)} of CPU** ({total / 3600:,.0f} "
           f"core-hours, {total / 3600 / 24 / 2:,.0f} days on 2 cores). "
           f"The {top90:,} costliest terms make up 90 % of it (marked ✱):\n"]
    out += table(rows, total, top, top90)
    rest = rows[top:]
    if rest:
        out.append(f"\nThe other {len(rest):,} terms: {format_seconds(sum(e.seconds for e in rest))}"
                   f" in all.")
    return out + [""]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("order", type=int)
    p.add_argument("--max-seconds", type=float, default=1.0,
                   help="estimator budget per term (default 1 s, wall)")
    p.add_argument("--probes", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--top", type=int, default=25, help="terms listed per table (default 25)")
    p.add_argument("--csv", default=None, help="write every term here")
    args = p.parse_args(argv)
    if args.order < 2:
        p.error(f"order must be at least 2, got {args.order}")

    load0, t0, c0 = os.getloadavg(), time.time(), time.process_time()
    classes = paratopy_classes(args.order)
    rows = estimate_terms(classes, probes=args.probes, seed=args.seed,
                          max_seconds=args.max_seconds)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(CSV_HEADER)
            for e in rows:
                w.writerow((e.unit_id, e.cls.coset, " / ".join(type_label(t) for t in e.cls.types),
                            e.cls.size, e.cls.representative(), e.method, e.candidates, e.measured,
                            f"{e.seconds:.6g}", "" if e.fixed is None else f"{e.fixed:.6g}"))
    m = describe_machine()
    n = args.order
    print(f"# Burnside terms of the Latin squares of order {n} by estimated cost\n")
    print(f"Machine: {m.get('cpu', '?')}, {m.get('cores', '?')} cores; load average "
          f"{load0[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
          f"{time.time() - t0:,.0f} s wall, {time.process_time() - c0:,.0f} CPU s for the estimates "
          f"(`python scripts/estimate_latin_terms.py {n} --max-seconds {args.max_seconds:g} "
          f"--probes {args.probes} --seed {args.seed}`).\n")
    print(f"{len(classes):,} classes of paratopy S_{n} ≀ S_3 (order 6·{n}!³); the identity's term "
          f"is the grid count of `1x{n}`, not estimated here. How each term is estimated:\n")
    for key, words in METHOD_WORDS.items():
        print(f"- {key}: {words}")
    print("\nEvery figure errs high (the reductions the count makes are left out), and is an "
          "estimate of a search not made. A unit is the term's id in "
          f"`count 1x{n} --up-to-symmetry --group main-class`.\n")
    print("\n".join(part(f"Main classes (all {len(rows):,} terms)", rows, args.top)))
    iso = [e for e in rows if e.cls.coset == "id"]
    print("\n".join(part(f"Isotopy classes: the δ = id terms ({len(iso):,}; "
                         f"`count 1x{n} --up-to-symmetry` counts them as other units)",
                         iso, args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
