"""Time the README's 30-second tour as a new user runs it: each command from
nothing (an empty store, an empty cache) in a fresh directory, as a whole
process, several times, interleaved.  Prints a Markdown table (median, min and
max wall time, and the line of the result) with the machine and its load;
record it in ``results/bench_tour.md``, which the README quotes
(``tests/layout/test_readme_figures.py`` checks that the README's tour times
are this file's).

    python scripts/bench_tour.py --repeat 3 > results/bench_tour.md
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from counting.job import describe_machine

#: The tour: the README shows these commands in this order, each with its time.
TOUR = [
    ("gridcount count 3x3", ["count", "3x3", "-q"]),
    ("gridcount count 3x3 --reduction patterns3", ["count", "3x3", "--reduction", "patterns3", "-q"]),
    ("gridcount count 2x3+x --up-to-symmetry", ["count", "2x3+x", "--up-to-symmetry", "-q"]),
    ("gridcount count 1x8", ["count", "1x8", "-q"]),
    ("gridcount verify", ["verify"]),
    ("gridcount solve PUZZLE", ["solve", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"]),
]


def run_once(args: list[str]) -> tuple[float, str]:
    """Wall seconds and what one command gave, from nothing: a count's last
    line (``-q``: the total alone), else its exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))
        t0 = time.perf_counter()
        res = subprocess.run([sys.executable, "-m", "counting", *args], cwd=tmp, env=env,
                             capture_output=True, text=True)
        wall = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({res.returncode}): {res.stderr.strip()}")
    if args[0] != "count":
        return wall, "exit code 0"
    lines = [s for s in res.stdout.splitlines() if s.strip()]
    return wall, lines[-1].strip() if lines else ""


def _s(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 60 else f"{int(seconds // 60)} min {seconds % 60:.0f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    m = describe_machine()
    load = os.getloadavg()[0]
    times: dict[str, list[float]] = {name: [] for name, _ in TOUR}
    last: dict[str, str] = {}
    for _ in range(args.repeat):           # interleaved: each round runs every command once
        for name, argv in TOUR:
            wall, line = run_once(argv)
            times[name].append(wall)
            last[name] = line
    print("# The README's tour, timed (`scripts/bench_tour.py`)\n")
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
          f"Python {m['python']}, engine {m['engine_version']}; load average "
          f"{load:.1f} before the run, {os.getloadavg()[0]:.1f} after; "
          f"{args.repeat} runs of each command, interleaved, each from an empty store and "
          f"cache in a fresh directory\n")
    print("| command | median wall | min | max | result (a count: the total printed) |")
    print("|---|---:|---:|---:|---|")
    for name, _ in TOUR:
        ts = times[name]
        print(f"| `{name}` | {_s(statistics.median(ts))} | {_s(min(ts))} | {_s(max(ts))} "
              f"| {last[name][:60]} |")


if __name__ == "__main__":
    main()
