"""Time the two-stack method on the Burnside units of a 2xC shape, and report.

Each unit (:func:`counting.group.burnside.symmetry_units`, the identity
aside: it is the grid count over N!) is counted by
:func:`counting.group.two_stack_fixed.two_stack_count` in its own process,
stopped after ``--cap`` seconds; one line per unit is appended to the TSV
(``--tsv``) as it finishes, so a rerun skips the units already there (a unit
that ran out of time is retried only with ``--retry``).  Then the Markdown
report is written (``--out``): per unit the count ``A_t(g)``, the seconds,
patterns and stack counts, beside the whole-grid search's estimate when
``--search-estimates`` names a table of them (a Markdown table with columns
``unit`` and ``estimated CPU``, as the term-estimate script prints), and,
when every unit is counted, the essentially different grids
(:func:`~counting.group.burnside.essentially_different`, the identity from
``--grid-total``, default the total of gridcount's own summary
``results/SHAPE.json``, a count, never a published figure).  Sections
(``## ``) that other scripts appended to the report are kept.

    nice python scripts/bench_two_stack.py 2x5 --units 43 39 20 --cap 90 \\
        --search-estimates results/2x5-symmetry-terms.md
"""
from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from pathlib import Path

from counting.group.burnside import essentially_different, symmetry_units, type_label
from counting.job import describe_machine
from counting.published import lookup

FIELDS = ("unit", "size", "type", "element", "count", "seconds", "patterns", "stack_counts",
          "group_order")

_ONE = """\
import sys, time
from counting.group.burnside import symmetry_units, type_label
from counting.group.two_stack_fixed import two_stack_count
u = symmetry_units(sys.argv[1])[int(sys.argv[2])]
t = time.perf_counter(); b = two_stack_count(sys.argv[1], u.symmetry, u.pi_type)
print(u.unit_id, u.size, type_label(u.pi_type), u.symmetry.describe(), b.count,
      f"{time.perf_counter() - t:.1f}", b.patterns, b.stack_counts, b.group_order, sep="\\t")
"""


def _read(tsv: Path) -> dict[int, list[str]]:
    out = {}
    if tsv.exists():
        for line in tsv.read_text().splitlines():
            cells = line.split("\t")
            if cells and cells[0].isdigit():
                out[int(cells[0])] = cells
    return out


def _run(shape: str, unit: int, cap: float) -> str:
    try:
        done = subprocess.run([sys.executable, "-c", _ONE, shape, str(unit)], capture_output=True,
                              text=True, timeout=cap, env=os.environ)
    except subprocess.TimeoutExpired:
        return f"{unit}\tTIMEOUT>{cap:g}"
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return f"{unit}\tERROR {last}"
    return done.stdout.strip()


def _estimates(path: Path | None) -> dict[int, str]:
    """``{unit: estimated CPU}`` from a Markdown table with those columns."""
    if path is None or not path.exists():
        return {}
    out, header = {}, None
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "unit" in cells and "estimated CPU" in cells:
            header = cells
        elif header and len(cells) == len(header) and cells[0].isdigit():
            out[int(cells[0])] = cells[header.index("estimated CPU")]
    return out


def _cap(cells: list[str]) -> float:
    """The time a unit ran out of (``TIMEOUT>90``), 0 for an error."""
    return float(cells[1].partition(">")[2] or 0)


def _seconds(estimate: str) -> float | None:
    """Seconds of an estimate written as ``83 days``, ``5.2 hours``, ``40 minutes`` or ``12 s``."""
    units = {"day": 86400, "days": 86400, "hour": 3600, "hours": 3600, "minute": 60,
             "minutes": 60, "s": 1, "seconds": 1, "years": 365.25 * 86400, "year": 365.25 * 86400}
    parts = estimate.replace(",", "").split()
    try:
        return float(parts[0]) * units[parts[1]]
    except (IndexError, KeyError, ValueError):
        return None


def _report(shape: str, rows: dict[int, list[str]], estimates: dict[int, str],
            grid_total: int | None, cap: float) -> str:
    units = symmetry_units(shape)
    machine = describe_machine()
    lines = [f"# {shape}: Burnside terms by the two-stack method", "",
             f"Machine: {machine['cpu']}, {machine['cores']} cores.  Written by `scripts/bench_two_stack.py`; each unit "
             f"in its own process, wall seconds (the machine is shared: loaded), stopped after a "
             f"time cap ({cap:g} s in the last run; a unit not counted says its own).  `A_t(g)` by `counting.group.two_stack_fixed` (patterns × stack "
             "fillings, tested equal to the whole-grid search on every unit of 2x3, 3x2 and 2x4).",
             "", "| unit | class size | type | element | A_t(g) | seconds | patterns | stack counts "
             "| search estimate |", "|---:|---:|---|---|---:|---:|---:|---:|---:|"]
    done, seconds, out_of_time = {}, 0.0, []
    for u in units[1:]:
        cells = rows.get(u.unit_id)
        estimate = estimates.get(u.unit_id, "")
        if cells is None:
            continue
        if len(cells) < len(FIELDS):
            out_of_time.append(u.unit_id)
            lines.append(f"| {u.unit_id} | {u.size:,} | {type_label(u.pi_type)} | "
                         f"{u.symmetry.describe()} | not counted | > {_cap(cells):g} s | | | {estimate} |")
            continue
        done[u.unit_id] = int(cells[4])
        seconds += float(cells[5])
        lines.append(f"| {u.unit_id} | {u.size:,} | {cells[2]} | {cells[3]} | {int(cells[4]):,} | "
                     f"{float(cells[5]):,.1f} s | {int(cells[6]):,} | {int(cells[7]):,} | {estimate} |")
    missing = [u.unit_id for u in units[1:] if u.unit_id not in rows]
    searched = [_seconds(estimates[k]) for k in done if k in estimates]
    if searched:
        lines += ["", f"The {len(searched):,} counted units with a search estimate: "
                  f"{sum(s for s in searched if s is not None) / 86400:,.1f} days of CPU by the "
                  f"whole-grid search, {sum(float(rows[k][5]) for k in done if k in estimates):,.1f} s "
                  "by the two-stack method."]
    lines += ["", f"{len(done):,} of {len(units) - 1:,} non-identity units counted in "
              f"{seconds:,.1f} s in all; {len(out_of_time):,} ran out of time "
              f"({', '.join(f'{k} past {_cap(rows[k]):g} s' for k in out_of_time) or 'none'}, "
              f"so the units run take at least "
              f"{seconds + sum(_cap(rows[k]) for k in out_of_time):,.0f} s by this "
              f"method); {len(missing):,} not run "
              f"({', '.join(map(str, missing[:40]))}{' …' if len(missing) > 40 else ''})."]
    if not out_of_time and not missing and grid_total is not None:
        done[0] = grid_total // math.factorial(len(units[0].rows))
        total = essentially_different(shape, done)
        lines += ["", f"Essentially different grids: **{total:,}** (identity: the grid count "
                  f"{grid_total:,} over N!)."]
        published = lookup(shape, up_to_symmetry=True)
        if published is not None:
            gap = published.total - total
            same = "equal" if gap == 0 else (
                f"DIFFERENT: {abs(gap):,} {'short' if gap > 0 else 'over'}; some term is wrong "
                f"or missing, so this total is not a count to believe")
            lines.append(f"Published ({published.source}): {published.total:,} — {same}.")
    return "\n".join(lines) + "\n"


def with_kept_sections(report: str, old: str) -> str:
    """``report`` followed by the ``## `` sections of the file's ``old`` text:
    this script writes none, other scripts add theirs below its report (as
    ``scripts/two_stack_couple_check.py --record`` does), and a rerun keeps them."""
    at = old.find("\n## ")
    return report if at < 0 else report.rstrip("\n") + "\n\n" + old[at + 1:]


def _write(out: Path, report: str) -> None:
    out.write_text(with_kept_sections(report, out.read_text() if out.exists() else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape")
    ap.add_argument("--units", type=int, nargs="*", help="unit ids (default: every non-identity unit)")
    ap.add_argument("--cap", type=float, default=600.0, help="seconds per unit")
    ap.add_argument("--retry", action="store_true", help="rerun units that ran out of time")
    ap.add_argument("--tsv", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--search-estimates", type=Path, default=None)
    ap.add_argument("--grid-total", type=int, default=None)
    args = ap.parse_args()
    shape = args.shape
    tsv = args.tsv or Path(f"results/{shape}-symmetry-two-stack.tsv")
    out = args.out or Path(f"results/{shape}-symmetry-two-stack.md")
    grid_total = args.grid_total
    summary = Path(f"results/{shape}.json")
    if grid_total is None and summary.exists():
        import json
        doc = json.loads(summary.read_text())
        if doc.get("units_done") == doc.get("units_total"):
            grid_total = int(doc["total_int"])     # gridcount's count of the grids
    ids = args.units if args.units else [u.unit_id for u in symmetry_units(shape)[1:]]
    for unit in ids:
        rows = _read(tsv)
        if unit in rows and (len(rows[unit]) >= len(FIELDS) or not args.retry):
            continue
        line = _run(shape, unit, args.cap)
        kept = [v for k, v in sorted(rows.items()) if k != unit]
        tsv.write_text("".join("\t".join(v) + "\n" for v in kept) + line + "\n")
        print(line, flush=True)
        _write(out, _report(shape, _read(tsv), _estimates(args.search_estimates), grid_total,
                            args.cap))
    _write(out, _report(shape, _read(tsv), _estimates(args.search_estimates), grid_total, args.cap))


if __name__ == "__main__":
    main()
