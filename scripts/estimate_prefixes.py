"""Estimate the counting time of candidate prefixes of grid kinds (Knuth's estimator).

For each kind and each candidate prefix, :func:`counting.reduction.prefix.choose_prefix`
enumerates the prefix's units, samples a few, runs Knuth's estimator on each and
multiplies the mean by the number of units.  Prints one aligned table and, with
``--markdown FILE``, writes it with the machine and its load average (the machine is
shared, so the figures are engine seconds under that load).

    nice python scripts/estimate_prefixes.py 3x3+windoku 3x3+disjoint \\
        --prefixes "rows=2;boxes=1,2;rows=1,cols=1" --markdown results/variants-prefixes.md
"""
from __future__ import annotations

import argparse
import os
import time

from counting.job import describe_machine
from counting.reduction.prefix import choose_prefix


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kinds", nargs="+")
    ap.add_argument("--prefixes", default="rows=1;rows=2;boxes=1,2;rows=1,cols=1",
                    help="candidate prefixes separated by ';'")
    ap.add_argument("--sample", type=int, default=6, help="units sampled per prefix")
    ap.add_argument("--probes", type=int, default=20, help="estimator paths per unit")
    ap.add_argument("--max-seconds", type=float, default=20.0, help="estimator time per unit")
    ap.add_argument("--markdown", default=None, help="also write the table here")
    a = ap.parse_args()
    candidates = [p for p in a.prefixes.split(";") if p.strip()]
    load0 = os.getloadavg()
    header = ("kind", "prefix", "normal fillings", "units", "est. engine time", "chosen")
    rows = []
    for kind in a.kinds:
        t0 = time.time()
        try:
            best, table = choose_prefix(kind, candidates, sample=a.sample, probes=a.probes,
                                        max_seconds=a.max_seconds)
        except ValueError as e:       # no candidate is usable: say so, go on
            rows.append((kind, "all", "—", "—", str(e)[:60], ""))
            continue
        for t in table:
            if "error" in t:
                rows.append((kind, t["prefix"], "—", "—", t["error"][:60], ""))
            elif "seconds" not in t:
                continue
            else:
                rows.append((kind, t["prefix"], f"{t['fillings']:,}", f"{t['units']:,}",
                             f"{t['seconds']:,.0f} s", "yes" if t["prefix"] == best else ""))
        print(f"{kind}: {time.time() - t0:,.0f} s to estimate", flush=True)
    load1 = os.getloadavg()
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in
                        enumerate(zip(r, widths))).rstrip())
    if a.markdown:
        m = describe_machine()
        lines = [f"Machine: {m}", "",
                 f"Load average (1, 5, 15 min) at start {load0[0]:.2f} {load0[1]:.2f} "
                 f"{load0[2]:.2f}, at end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}; "
                 f"{a.sample} units sampled per prefix, {a.probes} probes each, at most "
                 f"{a.max_seconds:g} s per unit.", "",
                 "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
