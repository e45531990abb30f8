"""Time the full count from an empty store: wall time, CPU time, peak memory.

Runs ``gridcount count SHAPE --reduction R --json`` in a subprocess on a
fresh temporary store and prints one Markdown table row per run, with the
machine.  Record the output in ``results/``.

    python scripts/bench_count.py 3x3 --reduction 71 --reduction 44
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from counting.job import describe_machine


def run(shape: str, reduction: str, workers: int | None, memo: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "counting", "count", shape, "--reduction", reduction,
               "--db", str(Path(tmp) / "bench.sqlite"), "--json"]
        if workers:
            cmd += ["--workers", str(workers)]
        if not memo:
            cmd.append("--no-memo")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    doc = json.loads(out)
    return {
        "shape": shape, "reduction": reduction, "memo": memo, "total": doc["total"],
        "units": doc["units_total"], "workers": doc["run"]["workers"], "wall_s": wall,
        "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        # ru_maxrss of children: the largest single process (KiB on Linux)
        "peak_rss_mib": after.ru_maxrss / 1024,
        "nodes": doc["run"]["nodes_int"], "memo_hits": doc["run"]["memo_hits_int"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape", nargs="?", default="3x3")
    ap.add_argument("--reduction", action="append", default=None)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--no-memo", action="store_true")
    args = ap.parse_args()
    m = describe_machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}\n")
    print("| shape | reduction | units | workers | memo | wall | CPU | peak RSS/process | nodes | memo hits | total |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for red in args.reduction or ["71"]:
        r = run(args.shape, red, args.workers, not args.no_memo)
        print(f"| {r['shape']} | {r['reduction']} | {r['units']} | {r['workers']} | "
              f"{'yes' if r['memo'] else 'no'} | {r['wall_s']:.1f} s | {r['cpu_s']:.1f} s | "
              f"{r['peak_rss_mib']:.0f} MiB | {r['nodes']:,} | {r['memo_hits']:,} | "
              f"{int(r['total']):,} |", flush=True)


if __name__ == "__main__":
    main()
