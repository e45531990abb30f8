"""Puzzles against tdoku, side by side in one run, one thread (issue 37).

tdoku (github.com/t-dillon/tdoku) is the anchor, not a dependency: give a
checkout of its public source with ``--tdoku-src``; this script compiles its
solver (``src/solver_dpll_triad_simd.cc``, ``src/util.cc``) with
``g++ -O3 -march=native``, its example program (``example/solve.c``), and a
small driver of its own (below) that calls tdoku's public ``SolveSudoku`` on
every puzzle of the file and reports CPU time.  No tdoku code is copied.

Each round runs, in turn (A B A B ...), on the same puzzle file:

  * rate, limit 1: tdoku's ``SolveSudoku(limit=1)`` on every puzzle, then
    ``grids.puzzles.solve_batch(limit=1, dtype=np.uint8)`` on the whole
    file as read (first solution; one byte a cell, as ``gridcount solve``
    runs it); puzzles per CPU second of the process;
  * rate, limit 2: the same with the uniqueness check (tdoku's count only:
    it returns no solution at limit 2; ``solve_batch`` returns both);
  * process: tdoku's example program (``solve 2``: count, then the solution
    of a unique puzzle) against ``python -m counting solve FILE``, and
    ``solve 1`` against ``solve --first FILE``: wall and CPU seconds of the
    whole process, start-up, reading and writing included.  Python runs
    with its byte-code cache (in a temporary ``PYTHONPYCACHEPREFIX``,
    filled by one warm-up run of each command), as an installed package
    does: with ``PYTHONDONTWRITEBYTECODE`` set, as on some development
    machines, every run compiles the package's modules again (~0.1 s).

The solutions of both whole-process runs are compared (first round).
Medians over the rounds, and the median of the per-round ratios
gridcount / tdoku (rates) or tdoku / gridcount (seconds), so a ratio of
0.5 means half tdoku's speed.

    python scripts/bench_tdoku.py --tdoku-src DIR [--file F] [--rounds 5] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from counting.job import describe_machine
from grids import puzzles as P

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "puzzles" / "17clue_royle_47158.txt"

# The driver: reads the file once, then times SolveSudoku over every puzzle
# (CPU time of the process) and prints "puzzles solutions unique seconds".
DRIVER = r"""
#include "tdoku.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r");
    size_t limit = (size_t)atoll(argv[2]), cap = 0, n = 0, size = 0, i, total = 0, unique = 0, g;
    char *buf = NULL, *line = NULL, sol[82];
    double t0;
    if (!f) return 2;
    while (getline(&line, &size, f) != -1) {
        if (strlen(line) < 81 || line[0] == '#') continue;
        if ((n + 1) * 82 > cap) { cap = 2 * cap + 82 * 1024; buf = realloc(buf, cap); }
        memcpy(buf + n * 82, line, 81);
        buf[n * 82 + 81] = '\n';
        n++;
    }
    t0 = cpu();
    for (i = 0; i < n; i++) {
        size_t c = SolveSudoku(buf + i * 82, limit, 0, sol, &g);
        total += c;
        unique += c == 1;
    }
    printf("%zu %zu %zu %.9f\n", n, total, unique, cpu() - t0);
    return 0;
}
"""


def build(src: Path, out: Path) -> tuple[Path, Path]:
    """Compile tdoku's solver, its example and the driver: (driver, example)."""
    objs = []
    for name in ("solver_dpll_triad_simd.cc", "util.cc"):
        obj = out / (name + ".o")
        subprocess.run(["g++", "-O3", "-march=native", "-fno-exceptions", "-fno-rtti", "-c",
                        str(src / "src" / name), "-o", str(obj)], check=True)
        objs.append(str(obj))
    (out / "rate.c").write_text(DRIVER)
    driver, example = out / "tdoku_rate", out / "tdoku_example"
    subprocess.run(["gcc", "-O3", "-march=native", "-I", str(src / "include"), str(out / "rate.c"),
                    *objs, "-lstdc++", "-o", str(driver)], check=True)
    subprocess.run(["gcc", "-O3", "-march=native", str(src / "example" / "solve.c"), *objs,
                    "-lstdc++", "-o", str(example)], check=True)
    return driver, example


def tdoku_rate(driver: Path, path: Path, limit: int) -> float:
    n, _, unique, secs = subprocess.run([str(driver), str(path), str(limit)], check=True,
                                        capture_output=True, text=True).stdout.split()
    assert int(unique) == int(n) or limit == 1 or "nonunique" in str(path)
    return int(n) / float(secs)


def gridcount_rate(grids, limit: int) -> float:
    """Puzzles per CPU second of ``solve_batch`` on the file's grids as read
    (one byte a cell), with byte solutions as ``gridcount solve`` asks: the
    default int64 solutions would time a 30 MB widening copy too."""
    t0 = time.process_time()
    P.solve_batch(grids, limit=limit, dtype=np.uint8)
    return len(grids) / (time.process_time() - t0)


def process(cmd: list[str], stdin: Path | None, out: Path, pycache: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``cmd``, its stdout to ``out``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(pycache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out, "w") as fout, (open(stdin) if stdin else open(os.devnull)) as fin:
        # cwd ROOT: `python -m` puts the working directory first on sys.path,
        # so another tree's directory would be the one that ran
        subprocess.run(cmd, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def same_solutions(tdoku_out: Path, gridcount_out: Path) -> bool:
    """tdoku's 'puzzle:count:solution' lines against gridcount's solution lines."""
    want = [line.split(":")[2] if line.split(":")[1] == "1" else None
            for line in tdoku_out.read_text().splitlines()]
    got = [None if line.startswith("#") else line for line in gridcount_out.read_text().splitlines()]
    return want == got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tdoku-src", type=Path, required=True, help="a checkout of t-dillon/tdoku")
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.file.exists():
        sys.exit(f"bench_tdoku: no puzzle file {args.file}")
    if not (args.tdoku_src / "src" / "solver_dpll_triad_simd.cc").exists():
        sys.exit(f"bench_tdoku: {args.tdoku_src} is not a tdoku checkout")
    grids = P.read_puzzles(args.file).grids
    py = [sys.executable, "-m", "counting", "solve", "--no-progress"]
    rows: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        driver, example = build(args.tdoku_src, tmp)
        pairs = {
            "rate, limit 1 (puzzles/s, CPU)": (lambda: tdoku_rate(driver, args.file, 1),
                                               lambda: gridcount_rate(grids, 1)),
            "rate, limit 2 (puzzles/s, CPU)": (lambda: tdoku_rate(driver, args.file, 2),
                                               lambda: gridcount_rate(grids, 2)),
        }
        procs = {
            "`solve FILE` vs `solve 2`": ([str(example), "2"], args.file, py + [str(args.file)]),
            "`solve --first FILE` vs `solve 1`": ([str(example), "1"], args.file,
                                                 py + ["--first", str(args.file)]),
        }
        agree = None
        for tcmd, stdin, gcmd in procs.values():      # warm-up: caches, byte code
            process(tcmd, stdin, tmp / "t.out", tmp / "pycache")
            process(gcmd, None, tmp / "g.out", tmp / "pycache")
        for r in range(args.rounds):
            for name, (a, b) in pairs.items():
                rows.setdefault(name, []).append((a(), b()))
            for name, (tcmd, stdin, gcmd) in procs.items():
                t = process(tcmd, stdin, tmp / "t.out", tmp / "pycache")
                g = process(gcmd, None, tmp / "g.out", tmp / "pycache")
                if r == 0 and name.startswith("`solve FILE`"):
                    agree = same_solutions(tmp / "t.out", tmp / "g.out")
                rows.setdefault(name + ": wall s", []).append((t[0], g[0]))
                rows.setdefault(name + ": CPU s", []).append((t[1], g[1]))
    table = []
    for name, vals in rows.items():
        t, g = [v[0] for v in vals], [v[1] for v in vals]
        rate = name.startswith("rate")
        ratio = statistics.median((gi / ti) if rate else (ti / gi) for ti, gi in vals)
        table.append({"run": name, "tdoku": statistics.median(t), "gridcount": statistics.median(g),
                      "tdoku_range": [min(t), max(t)], "gridcount_range": [min(g), max(g)],
                      "gridcount_speed_vs_tdoku": ratio})
    report = {"file": str(args.file), "puzzles": len(grids), "rounds": args.rounds,
              "solutions_agree": agree, "machine": describe_machine(),
              "load_average": os.getloadavg(), "rows": table}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{args.file.name}: {len(grids):,} puzzles, {args.rounds} rounds, interleaved, one thread; "
          f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("\n| run | tdoku (median, range) | gridcount (median, range) | gridcount speed / tdoku |")
    print("|---|---:|---:|---:|")
    for row in table:
        fmt = (lambda x: f"{x:,.0f}") if row["run"].startswith("rate") else (lambda x: f"{x:.3f}")
        print(f"| {row['run']} | {fmt(row['tdoku'])} ({fmt(row['tdoku_range'][0])}–"
              f"{fmt(row['tdoku_range'][1])}) | {fmt(row['gridcount'])} "
              f"({fmt(row['gridcount_range'][0])}–{fmt(row['gridcount_range'][1])}) | "
              f"{row['gridcount_speed_vs_tdoku']:.2f} |")
    print(f"\nsolutions of the two whole-process runs agree: {agree}")
    m = report["machine"]
    print("machine: " + ", ".join(f"{k} {v}" for k, v in m.items()))


if __name__ == "__main__":
    main()
