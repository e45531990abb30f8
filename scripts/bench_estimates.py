"""Hold the estimates ``count`` prints against the runs: for each job, the
CPU time the estimator predicts (several seeds, as different runs of
``count`` would draw) and the CPU time the units then took when counted.
Prints a Markdown table with the machine and its load: the ratio measured /
estimated per job and the spread of the estimates over the seeds.  Record it
in ``results/bench_estimates.md``; the README's "How long a job takes"
quotes its spread.

    python scripts/bench_estimates.py 2x4 3x3 1x8 2x5 "2x4 --up-to-symmetry" > results/bench_estimates.md
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from counting.job import Job, describe_machine
from counting.reach import job_cost


def estimates(shape: str, symmetry: bool, seeds: int) -> list[float]:
    """Estimated CPU seconds of the whole job, one figure a seed."""
    job = Job.load(shape, reduction="symmetry" if symmetry else None)
    return [job_cost(job.reduction_object, seed=seed).cpu_seconds for seed in range(seeds)]


def measured(shape: str, symmetry: bool) -> tuple[float, float]:
    """(CPU seconds of the process tree, wall seconds) of one count from nothing
    (for a symmetry job, its grid count's store made first, untimed: the
    estimate is of the symmetry units)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))
        cmd = [sys.executable, "-m", "counting", "count", shape, "-q", "--force"]
        if symmetry:
            subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=tmp)
            cmd.append("--up-to-symmetry")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=tmp)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jobs", nargs="+", help="SHAPE or 'SHAPE --up-to-symmetry'")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--refusals", nargs="*", default=[],
                    help="jobs out of reach: run 'gridcount count JOB' --seeds times and "
                         "record the line each run prints")
    args = ap.parse_args()
    m = describe_machine()
    load = os.getloadavg()[0]
    rows = []
    for spec in args.jobs:
        shape, *rest = spec.split()
        symmetry = "--up-to-symmetry" in rest
        est = estimates(shape, symmetry, args.seeds)
        cpu, wall = measured(shape, symmetry)
        med = statistics.median(est)
        rows.append((spec, min(est), med, max(est), cpu, wall, cpu / med if med else float("nan")))
    print("# Estimates against runs (`scripts/bench_estimates.py`)\n")
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}; load average {load:.1f} "
          f"before, {os.getloadavg()[0]:.1f} after; {args.seeds} seeds a job (the estimate "
          f"`count` prints is one of them); each job then counted once from nothing\n")
    print("| job | estimated CPU (min) | (median) | (max) | counted: CPU of the process | wall | "
          "counted / median estimate |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec, lo, med, hi, cpu, wall, ratio in rows:
        print(f"| `count {spec}` | {lo:,.1f} s | {med:,.1f} s | {hi:,.1f} s | {cpu:,.1f} s | "
              f"{wall:,.1f} s | {ratio:.2f} |")
    for shape in args.refusals:
        print(f"\n## `gridcount count {shape}`, {args.seeds} runs\n\n```")
        for _ in range(args.seeds):
            res = subprocess.run([sys.executable, "-m", "counting", "count", shape],
                                 capture_output=True, text=True, stdin=subprocess.DEVNULL)
            print(f"$ gridcount count {shape}          # exit code {res.returncode}")
            print(res.stderr.strip() or res.stdout.strip())
        print("```")


if __name__ == "__main__":
    main()
