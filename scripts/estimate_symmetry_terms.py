"""Estimate every Burnside term of a shape's ``--up-to-symmetry`` count, costliest first.

For each unit of ``gridcount count SHAPE --up-to-symmetry`` but the identity
(whose term is the grid count), Knuth's estimator
(:func:`counting.group.fixed.estimate_fixed`) is run on the orbit covers of
the unit's candidate relabellings within ``--max-seconds`` per unit, and the
units are listed by estimated CPU time: which terms make a shape's essentially
different count out of reach, and how much of the whole each one is.  The
estimate leaves out the prefix classes the count uses (it is high by up to
their factor: an order of magnitude), as the estimate ``count`` prints does.

Prints a Markdown report (the machine and its load first):

    nice python scripts/estimate_symmetry_terms.py 2x5 --top 25 > results/2x5-symmetry-terms.md
"""
from __future__ import annotations

import argparse
import os
import time

from counting.group.burnside import symmetry_units, type_label
from counting.group.fixed import estimate_fixed
from counting.group.latin_cost import costliest_count
from counting.job import describe_machine
from counting.reach import format_seconds


def element_words(unit) -> str:
    """The representative as row and column permutations (1-based cycles)."""
    def cycles(perm) -> str:
        seen, out = set(), []
        for start in range(len(perm)):
            if start in seen or perm[start] == start:
                seen.add(start)
                continue
            cycle, x = [], start
            while x not in seen:
                seen.add(x)
                cycle.append(x + 1)
                x = perm[x]
            out.append("(" + " ".join(map(str, cycle)) + ")")
        return "".join(out) or "id"
    words = f"rows {cycles(unit.rows)}, columns {cycles(unit.cols)}"
    return words + (", transposed" if unit.transpose else "")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("shape")
    p.add_argument("--max-seconds", type=float, default=1.0,
                   help="estimator budget per unit (default 1 s)")
    p.add_argument("--probes", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--top", type=int, default=25, help="units listed (default 25)")
    args = p.parse_args(argv)

    load0 = os.getloadavg()
    t0 = time.time()
    rows = []
    for unit in symmetry_units(args.shape):
        if unit.is_identity:
            continue
        e = estimate_fixed(args.shape, unit.symmetry, unit.pi_type, probes=args.probes,
                           seed=args.seed, max_seconds=args.max_seconds)
        rows.append((e.seconds, unit, e))
    rows.sort(key=lambda r: -r[0])
    total = sum(r[0] for r in rows)
    m = describe_machine()
    print(f"# Burnside terms of `{args.shape}` by estimated cost\n")
    print(f"Machine: {m.get('cpu', '?')}, {m.get('cores', '?')} cores; load average "
          f"{load0[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
          f"{time.time() - t0:,.0f} s wall for the estimates "
          f"(`python scripts/estimate_symmetry_terms.py {args.shape} --max-seconds "
          f"{args.max_seconds:g} --probes {args.probes} --seed {args.seed}`).\n")
    print(f"{len(rows):,} terms besides the identity; estimated **{format_seconds(total)} "
          f"of CPU** ({total / 3600:,.1f} core-hours) in all. Knuth's estimator per candidate relabelling, the "
          f"candidates past the budget taken at the mean of those explored; the prefix "
          f"classes of the count are left out (high by up to their factor).\n")
    top90 = costliest_count([r[0] for r in rows], 0.9)
    print(f"The {top90:,} costliest terms make up 90 % of the estimate (marked ✱).\n")
    print("| unit | class size | relabelling type | element | candidates (explored) "
          "| estimated CPU | share | cumulative |")
    print("|---:|---:|---|---|---:|---:|---:|---:|")
    running = 0.0
    for k, (seconds, unit, e) in enumerate(rows[:args.top]):
        running += seconds
        mark = " ✱" if k < top90 else ""
        print(f"| {unit.unit_id}{mark} | {unit.size:,} | {type_label(unit.pi_type)} | "
              f"{element_words(unit)} | {e.candidates:,} ({e.measured:,}) | "
              f"{format_seconds(seconds)} | {seconds / total:.1%} | {running / total:.1%} |")
    rest = rows[args.top:]
    if rest:
        print(f"\nThe other {len(rest):,} terms: {format_seconds(sum(r[0] for r in rest))} "
              f"in all.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
