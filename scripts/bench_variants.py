"""Count grid kinds through ``gridcount count`` and record the totals, times and load.

For each kind: ``gridcount count KIND --json`` (and with ``--up-to-symmetry``
when asked) in a temporary directory, wall time measured around the command,
the load average before and after; the published total (counting/published.py)
beside the computed one.  Writes an aligned table and, with ``--markdown``,
the same as Markdown with the machine's description.

    nice python scripts/bench_variants.py 1x4+x 1x5+x 1x6+x 1x7+x --symmetry \\
        --markdown results/variants-diagonal-latin.md
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from counting.job import describe_machine
from counting.published import lookup


def run(kind: str, symmetry: bool, workers: int) -> dict:
    args = [os.path.join(os.path.dirname(sys.executable), "gridcount"), "count", kind, "--json", "-w", str(workers)]
    if symmetry:
        args.append("--up-to-symmetry")
    with tempfile.TemporaryDirectory(prefix="gridcount-bench-") as tmp:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        out = subprocess.run(args, cwd=tmp, capture_output=True, text=True)
        wall = time.perf_counter() - t0
    if out.returncode != 0:
        return {"kind": kind, "symmetry": symmetry, "error": out.stderr.strip()[-200:]}
    doc = json.loads(out.stdout)
    return {"kind": kind, "symmetry": symmetry, "total": doc["total_int"],
            "units": doc.get("units_total"), "reduction": doc.get("reduction"),
            "wall": wall, "unit_wall": doc.get("unit_wall_seconds", 0.0), "load": load}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kinds", nargs="+")
    ap.add_argument("--symmetry", action="store_true", help="also count the essentially different")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--markdown", default=None)
    a = ap.parse_args()
    rows = []
    for kind in a.kinds:
        for sym in ([False, True] if a.symmetry else [False]):
            r = run(kind, sym, a.workers)
            rows.append(r)
            print(r, flush=True)
    header = ("kind", "counts", "reduction", "units", "computed", "published", "wall", "load")
    table = []
    for r in rows:
        ref = None if r["symmetry"] else lookup(r["kind"])
        if "error" in r:
            table.append((r["kind"], "ess. diff." if r["symmetry"] else "grids", "—", "—",
                          "failed: " + r["error"][:40], "—", "—", "—"))
            continue
        match = "—" if ref is None else f"{ref.total:,} ({'equal' if ref.total == r['total'] else 'DIFFERENT'})"
        table.append((r["kind"], "ess. diff." if r["symmetry"] else "grids", r["reduction"],
                      f"{r['units']:,}", f"{r['total']:,}", match, f"{r['wall']:,.1f} s",
                      f"{r['load']:.1f}"))
    widths = [max(len(x[i]) for x in [header, *table]) for i in range(len(header))]
    for line in [header, *table]:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())
    if a.markdown:
        m = describe_machine()
        lines = [f"Machine: {m}; load average (1 min) before each run in the last column;",
                 f"wall time of the whole `gridcount count` command, {a.workers} workers.", "",
                 "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(line) + " |" for line in table]
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
