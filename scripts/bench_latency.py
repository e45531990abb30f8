"""Time short ``gridcount`` commands, before and after a change, interleaved.

Issue 37: a command of milliseconds of counting took seconds (imports, a
pool's spawned workers, a commit per unit).  This script runs each command
as a whole process (``python -m counting ...``) from two checkouts in turn,
``--before`` then ``--after`` then ``--before`` ... (the order flips every
round, so a drift of the machine's load falls on both), each count from an
empty store in a new temporary directory, and reports per command the
median wall and CPU seconds of each side and the median of the per-round
ratios after/before, with the load average at the start and the end.
Counts are compared: a command whose output differs between the sides
(the grid total printed by ``count -q``, the exit status) is an error.

Both checkouts are byte-compiled first (``compileall``), as an installed
package is, so neither side pays for compiling its sources.

    git worktree add /tmp/latency-before main   # and copy the .so files into it
    python scripts/bench_latency.py --before /tmp/latency-before > /tmp/bench_latency.md

Exit code 1 when a command fails or the two sides disagree.
"""
from __future__ import annotations

import argparse
import compileall
import datetime
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

#: (name, arguments, runs, target wall seconds or None); ``{db}`` is the empty store's path
COMMANDS = [
    ("--version", ["--version"], 9, 0.2),
    ("--help", ["--help"], 9, 0.2),
    ("count 3x3 --reduction patterns3", ["count", "3x3", "--reduction", "patterns3",
                                         "--db", "{db}", "-q"], 7, 1.0),
    ("count 2x3", ["count", "2x3", "--db", "{db}", "-q"], 7, None),
    ("count 1x8", ["count", "1x8", "--db", "{db}", "-q"], 3, None),
    ("verify", ["verify"], 3, None),
]


def run_once(checkout: Path, args: list[str]) -> tuple[float, float, int, str]:
    """Wall and CPU seconds (the process and its children), exit status and
    stdout of ``python -m counting ARGS`` from ``checkout``, in a new
    temporary directory (an empty store there)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        argv = [a.replace("{db}", str(Path(tmp) / "store.sqlite")) for a in args]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "counting", *argv], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=600)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, done.stdout


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, default=Path("/tmp/latency-before"),
                    help="checkout of the code before the change [default: %(default)s]")
    ap.add_argument("--after", type=Path, default=ROOT,
                    help="checkout of the code after it [default: this one]")
    ap.add_argument("--only", default=None, help="only the commands whose name contains this")
    ap.add_argument("--runs", type=int, default=None, help="runs of each side (default: per command)")
    args = ap.parse_args()
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for path in sides.values():
        for pkg in PACKAGES:
            compileall.compile_dir(str(path / pkg), quiet=2)

    sys.path.insert(0, str(sides["after"]))
    from counting.job import describe_machine
    machine = describe_machine()
    load_start = _load()
    rows, bad = [], []
    for name, cmd, runs, target in COMMANDS:
        if args.only and args.only not in name:
            continue
        runs = args.runs or runs
        run_once(sides["before"], cmd), run_once(sides["after"], cmd)    # warm-up, not counted
        figures: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
        outputs: dict[str, set] = {"before": set(), "after": set()}
        for i in range(runs):
            order = ("before", "after") if i % 2 == 0 else ("after", "before")
            for side in order:
                wall, cpu, code, out = run_once(sides[side], cmd)
                figures[side].append((wall, cpu))
                # verify's table carries its timings: its exit status is what must agree
                outputs[side].add((code, "" if name == "verify" else out.strip()))
        if len(outputs["before"] | outputs["after"]) != 1 or \
                any(code != 0 for code, _ in outputs["after"]):
            bad.append(f"{name}: before {sorted(outputs['before'])}, after {sorted(outputs['after'])}")
        ratios = [a[0] / b[0] for a, b in zip(figures["after"], figures["before"])]
        med = {s: (statistics.median(w for w, _ in f), statistics.median(c for _, c in f))
               for s, f in figures.items()}
        wall_after = med["after"][0]
        verdict = "" if target is None else \
            (f"met (≤ {target:g} s)" if wall_after <= target else f"missed (> {target:g} s)")
        rows.append(f"| `gridcount {name}` | {runs} | {med['before'][0]:.2f} s | "
                    f"{med['after'][0]:.2f} s | {statistics.median(ratios):.2f} | "
                    f"{med['before'][1]:.2f} s | {med['after'][1]:.2f} s | {verdict} |")
        print(rows[-1], file=sys.stderr)
    load_end = _load()

    print(f"# Latency of short commands (issue 37): before and after, interleaved\n")
    print(f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by "
          f"`python scripts/bench_latency.py --before {args.before}`; before = {sides['before']}, "
          f"after = {sides['after']}.\n")
    print(f"Machine: {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB, "
          f"{machine['os']}, Python {machine['python']}, numpy {machine['numpy']}.  "
          f"Load average (1, 5, 15 min) at the start {load_start}, at the end {load_end}: the "
          f"machine is shared, so wall seconds are inflated by the other work; compare the "
          f"medians of a row and the ratio of interleaved pairs.\n")
    print("Each run is a whole process (`python -m counting ...`) from an empty store in a new "
          "temporary directory; CPU is the process's and its children's (user + sys).\n")
    print("| command | runs each | wall before | wall after | after/before (median of pairs) "
          "| CPU before | CPU after | target |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    for line in bad:
        print(f"\n**Disagreement or failure:** {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
