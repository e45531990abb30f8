"""Measure a speed pass of the ``layers`` method: this checkout against another, interleaved.

``BEFORE`` is a checkout of the commit before the pass (its compiled
extensions built in place).  Each round runs, for the other checkout and
then this one, in new processes:

* ``gridcount count SHAPE --reduction layers --workers W --force -q`` from a
  new empty count store and layer cache (``XDG_CACHE_HOME``): wall seconds,
  CPU seconds of the process and its workers (``RUSAGE_CHILDREN``), the
  1-minute load average before, the total printed;
* :func:`factorization.layers.layer_counts` of ``C`` whole in one process:
  CPU seconds of each transition.

The checkouts alternate within each round, so that a drift of the shared
machine's load falls on both; the medians over the rounds are quoted.  The
totals of every run must be equal (the script stops otherwise).

Writes (replaces) the section ``## Pass N`` of ``results/layers-count.md``
(:func:`scripts.measure_layers_count`'s note keeps such sections) and prints
one line a run.

    python scripts/measure_layers_pass.py /tmp/before --pass 1 --title "kernel colouring" --rounds 3
"""
from __future__ import annotations

import argparse
import datetime
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTE = ROOT / "results" / "layers-count.md"

WHOLE = ("import json, sys; from factorization.layers import layer_counts; "
         "print(json.dumps(layer_counts(int(sys.argv[1])).cpu))")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def count(root: Path, shape: str, workers: int) -> dict:
    """One fresh ``count`` with ``root``'s code."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(root), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        cmd = [sys.executable, "-m", "counting", "count", shape, "--reduction", "layers",
               "--db", os.path.join(tmp, "c.sqlite"), "--workers", str(workers), "--force",
               "-q", "--no-progress"]
        load, c0, t0 = os.getloadavg()[0], _children_cpu(), time.perf_counter()
        out = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True, check=True)
        return {"wall": time.perf_counter() - t0, "cpu": _children_cpu() - c0, "load": load,
                "total": int(out.stdout.split()[-1].replace(",", ""))}


def whole(root: Path, C: int) -> list[float]:
    """CPU seconds of each transition of ``layer_counts(C)`` with ``root``'s code."""
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", WHOLE, str(C)], env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    return [float(x) for x in out.stdout.strip().strip("[]").split(",")]


def _median_row(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def section(args, runs: dict, machine: dict, when: str) -> str:
    """The ``## Pass N`` section: medians and every round."""
    C = max(int(x) for x in args.shape.split("x"))
    lines = [f"## Pass {args.pass_no}: {args.title} ({when[:10]})", "",
             f"Written by `python scripts/measure_layers_pass.py BEFORE --pass {args.pass_no} "
             f"--rounds {args.rounds}` at {when} on {machine['cpu']}, {machine['cores']} cores, "
             f"{machine['memory_gib']} GiB, {machine['os']}, Python {machine['python']}; "
             f"BEFORE is commit {args.before_commit}, this checkout is {args.after_commit}; "
             f"the two run in turn, {args.rounds} rounds, medians (min - max).", "",
             f"| code | `count {args.shape} --reduction layers`, {args.workers} workers: wall "
             f"| its CPU | load before | "
             + " | ".join(f"{L} -> {L + 1} CPU" for L in range(1, C)) + " | `layer_counts` CPU |",
             "|---|---:|---:|---:|" + "---:|" * C]
    for name in ("before", "after"):
        cs, ws = runs[name]["count"], runs[name]["whole"]

        def fig(xs):
            return f"{statistics.median(xs):,.1f} s ({min(xs):,.1f} - {max(xs):,.1f})"
        per = [fig([w[L] for w in ws]) for L in range(C - 1)]
        lines.append(f"| {name} | {fig([c['wall'] for c in cs])} | {fig([c['cpu'] for c in cs])} "
                     f"| {_median_row(cs, 'load'):.1f} | " + " | ".join(per)
                     + f" | {fig([sum(w) for w in ws])} |")
    lines += ["", f"Every run's total: {runs['after']['count'][0]['total']:,}.", ""]
    return "\n".join(lines)


def write_section(note: Path, number: int, text: str) -> None:
    """Replace the note's section ``## Pass number`` by ``text`` (or add it at the end)."""
    old = note.read_text() if note.exists() else ""
    pattern = re.compile(rf"^## Pass {number}:.*?(?=^## |\Z)", re.S | re.M)
    new = pattern.sub(lambda _: text, old) if pattern.search(old) else \
        old.rstrip("\n") + "\n\n" + text
    note.write_text(new)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path, help="a checkout of the commit before the pass, built")
    ap.add_argument("--pass", dest="pass_no", type=int, required=True)
    ap.add_argument("--title", required=True)
    ap.add_argument("--shape", default="2x5")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--note", type=Path, default=NOTE)
    ap.add_argument("--before-commit", help="BEFORE's commit, when it is not a git checkout")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from counting.job import describe_machine

    def commit(root: Path) -> str:
        r = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h"],
                           capture_output=True, text=True)
        return r.stdout.strip() or "(not a git checkout)"
    args.before_commit = args.before_commit or commit(args.before)
    args.after_commit = commit(ROOT)
    C = max(int(x) for x in args.shape.split("x"))
    runs = {name: {"count": [], "whole": []} for name in ("before", "after")}
    for r in range(args.rounds):
        for name, root in (("before", args.before), ("after", ROOT)):
            c = count(root, args.shape, args.workers)
            w = whole(root, C)
            runs[name]["count"].append(c)
            runs[name]["whole"].append(w)
            print(f"round {r + 1} {name}: count wall {c['wall']:.1f} s, CPU {c['cpu']:.1f} s, "
                  f"load {c['load']:.1f}; layer_counts CPU {[round(x, 2) for x in w]}", flush=True)
    totals = {c["total"] for v in runs.values() for c in v["count"]}
    if len(totals) != 1:
        sys.exit(f"the runs' totals differ: {sorted(totals)}")
    when = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    write_section(args.note, args.pass_no, section(args, runs, describe_machine(), when))


if __name__ == "__main__":
    main()
