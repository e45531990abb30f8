"""Main classes and isomorphism classes of Latin squares, every Burnside term printed.

For each order asked, counts the grid count of ``1xN`` first (the identity's
term: the ordinary grid job, counted into a temporary store), then every
term of :func:`counting.group.latin_classes.main_class_count` and/or
:func:`~counting.group.latin_classes.isomorphism_class_count`, and prints a
Markdown report: the machine and load, per order the classes, the CPU
seconds, the costliest terms, and the published value it is compared with
(OEIS A003090 main classes, A057991 isomorphism classes of quasigroups,
A040082 isotopy classes = the δ = id terms / n!³).  ``--csv`` writes every
term.  The exit code is 1 when a count differs from its published value.

    python scripts/count_latin_classes.py 1-8 --csv results/latin-classes-terms.csv
    python scripts/count_latin_classes.py 9 --group isomorphism
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import tempfile
import time
from pathlib import Path

from counting.group.latin_classes import isomorphism_class_count, main_class_count
from counting.job import Job, describe_machine, run_count
from counting.published import LATIN_CLASSES
from counting.store.database import Store

#: The largest order counted: order 10's grid count takes about 4 core-hours
#: (results/1x10-report.md) and its main-class terms are estimated out of reach
#: (scripts/estimate_latin_terms.py 10, results/latin-classes.md).
MAX_ORDER = 9
CSV_HEADER = ("n", "group", "class", "size", "representative", "fixed", "size_x_fixed",
              "cpu_seconds")


def grid_count(n: int) -> tuple[int, float]:
    """The number of Latin squares of order ``n`` by the grid job of ``1xn``, and its wall seconds."""
    t0 = time.perf_counter()
    job = Job.load(f"1x{n}")
    with tempfile.TemporaryDirectory() as tmp:
        with Store.create_or_open(Path(tmp) / "grids.sqlite", job.info()) as store:
            run_count(job, store, workers=1, progress=False, log=lambda msg: None)
            counts = {r.unit_id: r.count for r in store.results()}
    return job.total(counts), time.perf_counter() - t0


def orders(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if not (lo.isdigit() and (hi.isdigit() or not hi)):
            raise ValueError(f"orders are written like 1-8, 9 or 1,2,5; got {text!r}")
        out += range(int(lo), int(hi or lo) + 1)
    if not out:
        raise ValueError(f"no orders in {text!r} (a range runs upwards: 2-3)")
    if min(out) < 1:
        raise ValueError(f"orders must be positive, got {text!r}")
    if max(out) > MAX_ORDER:
        raise ValueError(f"orders up to {MAX_ORDER} only (order {max(out)}'s grid count takes "
                         f"hours and its terms are estimated at millions of core-hours: "
                         f"scripts/estimate_latin_terms.py, results/latin-classes.md), got {text!r}")
    return out


def published(group: str, n: int) -> tuple[str, int | None]:
    source, values = LATIN_CLASSES[group]
    return source, values.get(n)


def verdict(group: str, n: int, value: int) -> tuple[str, bool]:
    source, want = published(group, n)
    if want is None:
        return "no published value here", True
    return (f"= {source}" if want == value else f"**differs from {source} ({want:,})**",
            want == value)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("orders", help="e.g. 1-8 or 9 or 1,2,5")
    ap.add_argument("--group", choices=("main", "isomorphism", "both"), default="both")
    ap.add_argument("--csv", type=Path, default=None)
    ap.add_argument("--top", type=int, default=5, help="costliest terms listed per count")
    ap.add_argument("--terms", action="store_true", help="print every non-zero term")
    args = ap.parse_args()
    try:
        ns = orders(args.orders)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    m = describe_machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}; load average at start "
          f"{os.getloadavg()[0]:.2f} (CPU seconds below are this process's, measured "
          f"while other jobs shared the cores)\n")
    counts = []
    if args.group in ("main", "both"):
        counts.append(main_class_count)
    if args.group in ("isomorphism", "both"):
        counts.append(isomorphism_class_count)
    rows, ok = [], True
    print("| n | classes | count | Σ size·Fix | terms (non-zero) | CPU of terms | vs published |")
    print("|---:|---|---:|---:|---:|---:|---|")
    details = []
    for n in ns:
        total, grid_seconds = grid_count(n)
        details.append(f"order {n}: {total:,} Latin squares by the grid job of 1x{n} "
                       f"({grid_seconds:,.1f} s wall): the identity's term")
        for count in counts:
            result = count(n, grid_total=total)
            cpu = sum(t.cpu_seconds for t in result.terms)
            text, good = verdict(result.group, n, result.classes)
            ok &= good
            print(f"| {n} | {result.group} | {result.classes:,} | {result.total:,} | "
                  f"{len(result.terms):,} ({sum(1 for t in result.terms if t.fixed):,}) | "
                  f"{cpu:,.1f} s | {text} |", flush=True)
            if result.group == "main classes":
                iso_text, good = verdict("isotopy classes", n, result.isotopy_classes)
                ok &= good
                details.append(f"order {n}: δ = id terms / {n}!³ = {result.isotopy_classes:,} "
                               f"isotopy classes {iso_text}")
            top = sorted(result.terms, key=lambda t: -t.cpu_seconds)[:args.top]
            details.append(f"order {n}, {result.group}, costliest terms: " + "; ".join(
                f"{t.cls.label()} Fix {t.fixed:,} ({t.cpu_seconds:,.1f} s)" for t in top))
            rows += [(n, result.group, t.cls.label(), t.cls.size, t.cls.representative(),
                      t.fixed, t.weighted, f"{t.cpu_seconds:.3f}") for t in result.terms]
    print()
    for line in details:
        print(f"- {line}")
    if args.terms:
        print("\n| n | classes | class | size | representative | Fix | size·Fix | CPU |")
        print("|---:|---|---|---:|---|---:|---:|---:|")
        for n, group, label, size, rep, fixed, weighted, cpu in rows:
            if fixed:
                print(f"| {n} | {group} | {label} | {size:,} | {rep} | {fixed:,} | "
                      f"{weighted:,} | {cpu} s |")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(CSV_HEADER)
            out.writerows(rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
