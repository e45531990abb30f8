"""Summarise a per-unit CSV of a prefix count into results/variants.md.

Reads ``unit_id,weight,count,seconds`` rows (``scripts/count_variant.py``) or a
``gridcount export`` units CSV, checks them against the prefix reduction's units
(every unit present once, each weight the orbit size the reduction computes),
and computes the total ``N! · Σ weight · count`` with the engine time; for a CSV
that lacks units, a table of units and search nodes by orbit size instead.  With
``--into FILE`` the lines replace the block between
``<!-- summary CSV -->`` and ``<!-- end summary CSV -->`` in FILE (so the
figures there are this script's output, never typed).

    python scripts/summarise_variant_csv.py 3x3+windoku rows=2 \\
        results/3x3+windoku-prefix.csv --into results/variants.md
"""
from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path

from counting.published import lookup
from counting.reduction.prefix import PrefixReduction


def summary_lines(kind: str, prefix: str, path: Path) -> list[str]:
    red = PrefixReduction(kind, prefix)
    units = {u.unit_id: u for u in red.units()}
    counts, seconds, nodes = {}, [], {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            uid = int(row["unit_id"])
            if uid in counts:
                raise SystemExit(f"{path}: unit {uid} appears twice")
            if uid not in units or int(row["weight"]) != units[uid].weight:
                raise SystemExit(f"{path}: unit {uid} is not a unit of {kind} by {red.name} "
                                 f"with weight {row['weight']}")
            counts[uid] = int(row["count"])
            seconds.append(float(row["seconds"]))
            nodes[uid] = int(row["nodes"]) if row.get("nodes") else None
    lines = [f"Summary of `{path.as_posix()}` by `scripts/summarise_variant_csv.py {kind} "
             f"{red.prefix_text}`:", ""]
    rows = [("units in the CSV", f"{len(counts):,} of {len(units):,}"),
            ("engine time, all units", f"{sum(seconds):,.0f} s"),
            ("engine time per unit, median", f"{statistics.median(seconds):,.1f} s")]
    if len(counts) == len(units):
        total = red.total(counts)
        ref = lookup(red.grid_kind.name)
        rows += [("Σ orbit size × completions", f"{red.weighted_sum(counts):,}"),
                 (f"× {red.shape.n}! (relabel the first house)", f"{red.factor:,}"),
                 (f"{kind} grids", f"{total:,}")]
        if ref is not None:
            rows.append(("published", f"{ref.total:,} ({ref.source}): "
                                      f"{'equal' if ref.total == total else 'DIFFERENT'}"))
    else:
        rows.append(("total", "not yet: the total needs every unit"))
    lines += ["| | |", "|---|---:|"] + [f"| {a} | {b} |" for a, b in rows]
    if len(counts) < len(units) and None not in nodes.values():
        lines += ["", *progress_lines(units, nodes)]
    return lines


def progress_lines(units: dict, nodes: dict) -> list[str]:
    """Units and search nodes by orbit size, for a CSV that lacks units: what
    is done, and the nodes left if each unit left takes its group's mean
    (an extrapolation; a group with no unit done has none)."""
    groups: dict[int, list] = {}
    for uid, u in units.items():
        groups.setdefault(u.weight, []).append(uid)
    out = ["| orbit size | units done | search nodes, done | mean per unit done | "
           "nodes left at that mean |", "|---:|---:|---:|---:|---:|"]
    left_total, unknown = 0, 0
    for weight in sorted(groups):
        done = [nodes[uid] for uid in groups[weight] if uid in nodes]
        left = len(groups[weight]) - len(done)
        mean = sum(done) / len(done) if done else None
        if mean is None:
            unknown += left
        else:
            left_total += left * mean
        out.append(f"| {weight:,} | {len(done):,} of {len(groups[weight]):,} | {sum(done):,} | "
                   + (f"{mean:,.0f} | {left * mean:,.0f} |" if mean is not None else "— | — |"))
    out.append(f"| all | {len(nodes):,} of {len(units):,} | {sum(nodes.values()):,} | | "
               f"{left_total:,.0f}" + (f" (and {unknown:,} units with no mean)" if unknown else "")
               + " |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind")
    ap.add_argument("prefix")
    ap.add_argument("csv", type=Path)
    ap.add_argument("--into", type=Path, default=None)
    a = ap.parse_args()
    lines = summary_lines(a.kind, a.prefix, a.csv)
    if a.into is None:
        print("\n".join(lines))
        return
    text = a.into.read_text()
    begin, end = f"<!-- summary {a.csv.name} -->", f"<!-- end summary {a.csv.name} -->"
    if begin not in text or end not in text:
        sys.exit(f"{a.into}: no block {begin} ... {end} to replace")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    a.into.write_text(head + begin + "\n" + "\n".join(lines) + "\n" + end + tail)


if __name__ == "__main__":
    main()
