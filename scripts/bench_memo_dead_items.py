"""The memo key without dead items (issue 35's finding), before and after.

Counts one unit of ``3x3+anti-king`` (prefix ``band``) and one of
``3x3+anti-knight`` (prefix ``rows=2``) with the engine of this checkout
(after) and with the engine of another checkout given by ``--before`` (the
previous engine, built there), interleaved, each count in its own
subprocess with a fresh memo table of each size of ``--memo-mb`` (16 MiB
is ``count``'s default), and reports CPU seconds, nodes, memo hits and
stores; the counts must agree.

    nice python scripts/bench_memo_dead_items.py --before /tmp/old-tree \\
        --markdown results/bench_memo_dead_items.md
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CASES = [("3x3+anti-king", "band", 0), ("3x3+anti-knight", "rows=2", 0)]


def child(kind: str, prefix: str, index: int, memo_mb: float) -> None:
    """Count one unit with the engine on sys.path; print one JSON line."""
    from counting.reduction.prefix import PrefixReduction
    red = PrefixReduction(kind, prefix)
    unit = red.units()[index]
    problem = red.problem(unit)
    ec = problem.build()
    t = time.process_time()
    n = ec.count(given=list(problem.given), memo=True, memo_mb=memo_mb)
    cpu = time.process_time() - t
    s = ec.stats
    print(json.dumps({"unit": unit.unit_id, "count": n, "cpu": cpu, "nodes": s.nodes,
                      "hits": s.memo_hits, "stores": s.memo_stores}))


def run(tree: Path, case) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, __file__, "--child", *map(str, case)], env=env,
                         cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="a checkout with the previous engine built")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--memo-mb", default="16,256", help="memo table sizes, MiB (comma-separated)")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]), float(args.child[3]))
        return
    if args.before is None:
        ap.error("--before is required")
    sys.path.insert(0, str(HERE))
    from counting.job import describe_machine
    m = describe_machine()
    load0 = os.getloadavg()[0]
    start = time.time()
    rows = []
    sizes = [float(x) for x in args.memo_mb.split(",")]
    for case in [(k, p, i, mb) for k, p, i in CASES for mb in sizes]:
        runs = {"before": [], "after": []}
        for _ in range(args.repeats):           # interleaved: before, after, before, after
            runs["before"].append(run(args.before, case))
            runs["after"].append(run(HERE, case))
        counts = {r["count"] for v in runs.values() for r in v}
        if len(counts) != 1:
            sys.exit(f"counts differ for {case}: {sorted(counts)}")
        rows.append((case, runs))
    load1 = os.getloadavg()[0]
    lines = ["# The memo key without dead items: before and after", "",
             f"Written by `nice python scripts/bench_memo_dead_items.py --before <tree> "
             f"--markdown {args.markdown}` ({time.time() - start:.0f} s wall, load average "
             f"{load0:.1f} at the start, {load1:.1f} at the end; 2 cores shared with other "
             f"work). Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, "
             f"Python {m['python']}, engine version {m['engine_version']} (unchanged: counts "
             f"are). Before: the engine whose memo key is the whole live set; after: the key "
             f"without the secondary items no option still choosable covers "
             f"(`dlx/_memokey.pxi`). Each count in its own process with a fresh memo table, runs "
             f"interleaved (before, after, ...), {args.repeats} of each.", "",
             "| kind | prefix | unit | count | memo | engine | CPU s (each run) | nodes "
             "| memo hits | memo stores |", "|---|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for (kind, prefix, _, mb), runs in rows:
        for label in ("before", "after"):
            r = runs[label]
            cpu = ", ".join(f"{x['cpu']:.2f}" for x in r)
            lines.append(f"| `{kind}` | `{prefix}` | {r[0]['unit']} | {r[0]['count']:,} | "
                         f"{mb:g} MiB | {label} | {cpu} | {r[0]['nodes']:,} | {r[0]['hits']:,} | "
                         f"{r[0]['stores']:,} |")
    lines.append("")
    for (kind, prefix, _, mb), runs in rows:
        b = min(x["cpu"] for x in runs["before"])
        a = min(x["cpu"] for x in runs["after"])
        nb, na = runs["before"][0]["nodes"], runs["after"][0]["nodes"]
        lines.append(f"* `{kind}` (`{prefix}`, {mb:g} MiB memo): after/before, nodes "
                     f"{na / nb:.2f}×, best CPU {a / b:.2f}× ({a:.2f} s against {b:.2f} s).")
    text = "\n".join(lines) + "\n"
    if args.markdown:
        args.markdown.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
