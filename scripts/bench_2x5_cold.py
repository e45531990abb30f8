"""Time ``gridcount count 2x5 --workers 2`` from an empty cache, before and after a change, interleaved.

Issue 37: on two workers the 10×10 count from nothing kept its cores idle
for much of its wall time.  This script runs the whole process
(``python -m counting count 2x5 --workers 2 --json``) from two checkouts in
turn, the order flipped every round so that a drift of the machine's load
falls on both, each run in a new temporary directory with an empty store
and an empty cache (``XDG_CACHE_HOME`` there: no memo file, no tables).  Per
run it records the wall and CPU seconds (the process and its workers), the
wall of the run on the pool (the ``run.wall_seconds`` of ``--json``) and so
the seconds before it (the quick look, an estimate, the units, the store),
and the 1-minute load average just before it; it reports the medians per
side, the median of the per-round ratios after/before, and wall / CPU, the
figure of the target (≤ 0.6 on an idle machine: both workers busy).
The totals printed must agree (exit code 1 otherwise, or when a run fails).

    git archive COMMIT | tar -x -C /tmp/before    # and copy the .so files into it
    python scripts/bench_2x5_cold.py --before /tmp/before --runs 5 > results/bench_2x5_cold.md
"""
from __future__ import annotations

import argparse
import compileall
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("counting", "dlx", "grids", "bandtables", "factorization")
COMMAND = ["count", "2x5", "--workers", "2", "--json", "--db", "{db}"]
TARGET = 0.6        # wall / CPU on an idle machine: both workers busy


def run_once(checkout: Path) -> dict:
    """One cold run from ``checkout``: its figures and the total it printed."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    with tempfile.TemporaryDirectory(prefix="bench-2x5-") as tmp:
        env["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        argv = [a.replace("{db}", str(Path(tmp) / "store.sqlite")) for a in COMMAND]
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "counting", *argv], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=900)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: exit {done.returncode}: {done.stderr.strip()[-500:]}")
    out = json.loads(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    run = out["run"]["wall_seconds"]
    return {"wall": wall, "cpu": cpu, "run": run, "before_run": wall - run,
            "units": out["run"]["unit_wall_seconds"], "load": load, "total": out["total"]}


def compile_packages(checkout: Path) -> None:
    """Write the ``.pyc`` files of ``checkout``'s packages, so that no run
    compiles them (``PYTHONDONTWRITEBYTECODE`` may be set)."""
    for pkg in PACKAGES:
        compileall.compile_dir(str(checkout / pkg), quiet=2)


def report_totals(totals: set) -> int:
    """Say the total every run printed, or that they disagree: the exit code (0, 1)."""
    if len(totals) != 1:
        print(f"\n**The totals disagree:** {sorted(totals)}")
        return 1
    print(f"\nEvery run printed the same total, {int(next(iter(totals))):,} grids.")
    return 0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _median(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True,
                    help="checkout of the code before the change (with its .so files)")
    ap.add_argument("--after", type=Path, default=ROOT,
                    help="checkout of the code after it [default: this one]")
    ap.add_argument("--runs", type=int, default=5, help="runs of each side [default: 5]")
    args = ap.parse_args()
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for path in sides.values():
        compile_packages(path)
    sys.path.insert(0, str(sides["after"]))
    from counting.job import describe_machine
    machine = describe_machine()
    load_start = _load()
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for i in range(args.runs):
        for side in (("before", "after") if i % 2 == 0 else ("after", "before")):
            r = run_once(sides[side])
            runs[side].append(r)
            print(f"{side}: {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU, "
                  f"{r['before_run']:.2f} s before the pool, load {r['load']:.2f}", file=sys.stderr)
    load_end = _load()
    totals = {r["total"] for side in runs.values() for r in side}

    print("# 2x5 from an empty cache on two workers (issue 37 item 4): before and after, "
          "interleaved\n")
    print(f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by "
          f"`python scripts/bench_2x5_cold.py --before {args.before} --runs {args.runs}`; "
          f"before = {sides['before']}, after = {sides['after']}.\n")
    print(f"Machine: {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB, "
          f"{machine['os']}, Python {machine['python']}, numpy {machine['numpy']}.  Load "
          f"average (1, 5, 15 min) at the start {load_start}, at the end {load_end}; the "
          f"machine is shared by other work, so wall seconds are inflated by it: compare "
          f"the medians of a column and the ratios of interleaved pairs.\n")
    print(f"Each run: `python -m counting {' '.join(COMMAND)}` from an empty store and an "
          f"empty `XDG_CACHE_HOME` in a new temporary directory.  CPU is the process's and "
          f"its workers' (user + sys); 'before the pool' is the wall time before the run "
          f"on the pool began (wall − the run's `wall_seconds`).\n")
    print("'workers in units' is Σ unit wall / (2 × the run on the pool): the share of the "
          "pool's time its two workers spent in a unit rather than starting or waiting for "
          "the next (a load of other work slows the units and the gaps alike).\n")
    print("| side | runs | wall | CPU | wall / CPU | before the pool | run on the pool | "
          "Σ unit wall | workers in units | load (1 min) before a run |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for side, rows in runs.items():
        ratio = statistics.median(r["wall"] / r["cpu"] for r in rows)
        busy = statistics.median(r["units"] / (2 * r["run"]) for r in rows)
        print(f"| {side} | {len(rows)} | {_median(rows, 'wall'):.2f} s | "
              f"{_median(rows, 'cpu'):.2f} s | {ratio:.2f} | {_median(rows, 'before_run'):.2f} s | "
              f"{_median(rows, 'run'):.2f} s | {_median(rows, 'units'):.2f} s | {busy:.2f} | "
              f"{min(r['load'] for r in rows):.2f}–{max(r['load'] for r in rows):.2f} |")
    pairs = list(zip(runs["after"], runs["before"]))
    print(f"\nAfter / before, median of the {len(pairs)} interleaved pairs: wall "
          f"{statistics.median(a['wall'] / b['wall'] for a, b in pairs):.2f}, CPU "
          f"{statistics.median(a['cpu'] / b['cpu'] for a, b in pairs):.2f}.  Target wall / CPU "
          f"≤ {TARGET} on an idle machine.\n")
    print("Every run, in order (wall s, CPU s, s before the pool, load):\n")
    for side, rows in runs.items():
        print(f"- {side}: " + "; ".join(f"{r['wall']:.1f}, {r['cpu']:.1f}, {r['before_run']:.1f}, "
                                       f"{r['load']:.1f}" for r in rows))
    return report_totals(totals)


if __name__ == "__main__":
    sys.exit(main())
