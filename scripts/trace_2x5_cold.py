"""Where a cold ``gridcount count 2x5 --workers 2`` spends its wall time, per process.

Issue 37: "find where the two workers wait (memo-file claims, the pool's
order of units, start-up)".  Each run is the whole command
(``python -m counting count 2x5 --workers 2 --json``) from an empty store
and an empty ``XDG_CACHE_HOME`` in a new temporary directory, as
``scripts/bench_2x5_cold.py`` runs it, with a ``sitecustomize`` module put
first on ``PYTHONPATH`` that every process (the parent and each spawned
worker) runs at start-up.  It changes no code of the library: after a
module is imported it wraps, in that process,

- ``dlx.pools._worker_loop`` (a worker's imports are done when it begins),
  the worker's ``recv`` (waiting for a unit) and each task (a unit's wall
  and CPU seconds);
- ``factorization.memo_file.open_memo`` (making, mapping and checking the
  shared memo file, under its ``flock``: inside a worker's first unit);
- ``counting.run.pool.run_units`` and ``dlx.pools.map_unordered`` (when the
  parent comes to the pool, when it has spawned the workers, when the last
  result is in),

and appends each event (wall clock, the process's CPU time) to a file of
its own.  The phases are then in seconds from the command's start.  The
library's modules must have their ``.pyc`` files (compiled here first, as
``bench_2x5_cold.py`` does): without them every process compiles the
sources again (``PYTHONDONTWRITEBYTECODE``), about 0.3 s of CPU each.

    python scripts/trace_2x5_cold.py --runs 5 >> results/bench_2x5_cold.md
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_2x5_cold import compile_packages, report_totals     # this script's directory

ROOT = Path(__file__).resolve().parents[1]
COMMAND = ["count", "2x5", "--workers", "2", "--json"]
LONG_WAIT = 0.02     # a wait for a unit longer than this is counted apart (seconds)

# Run by every process of the traced command (Python imports ``sitecustomize``
# at start-up from the first directory of the path that has one).
SITECUSTOMIZE = r'''
import functools, importlib.abc, json, os, sys, time

_DIR = os.environ["GRIDCOUNT_TRACE_DIR"]

def ev(name, **kw):
    kw.update(ev=name, t=time.time(), cpu=time.process_time())
    with open(os.path.join(_DIR, f"{os.getpid()}.jsonl"), "a") as f:
        f.write(json.dumps(kw) + "\n")

ev("start")

class _Conn:
    def __init__(self, conn):
        self._conn = conn
    def recv(self):
        ev("wait")
        task = self._conn.recv()
        ev("got")
        return task
    def __getattr__(self, name):
        return getattr(self._conn, name)

def _patch_pools(m):
    loop, mapper = m._worker_loop, m.map_unordered
    @functools.wraps(loop)
    def _worker_loop(conn, func, initializer, initargs):
        ev("loop")
        def task(item):
            result = func(item)
            ev("done", unit=getattr(item, "unit_id", None))
            return result
        return loop(_Conn(conn), task, initializer, initargs)
    @functools.wraps(mapper)
    def map_unordered(*a, **kw):
        ev("pool")
        yield from mapper(*a, **kw)
        ev("pool_end")
    m._worker_loop, m.map_unordered = _worker_loop, map_unordered

def _patch_memo(m):
    opener = m.open_memo
    @functools.wraps(opener)
    def open_memo(*a, **kw):
        ev("memo_open")
        try:
            return opener(*a, **kw)
        finally:
            ev("memo_opened")
    m.open_memo = open_memo

def _patch_run(m):
    runner = m.run_units
    @functools.wraps(runner)
    def run_units(*a, **kw):
        ev("run_units")
        yield from runner(*a, **kw)
    m.run_units = run_units

_PATCHES = {"dlx.pools": _patch_pools, "factorization.memo_file": _patch_memo,
            "counting.run.pool": _patch_run}

class _After(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in _PATCHES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                run = spec.loader.exec_module
                def exec_module(module, run=run, patch=_PATCHES[name]):
                    run(module)
                    patch(module)
                spec.loader.exec_module = exec_module
                return spec
        return None

sys.meta_path.insert(0, _After())
'''


def trace_once(checkout: Path) -> dict:
    """One cold traced run: the phases of the parent and of each worker."""
    with tempfile.TemporaryDirectory(prefix="trace-2x5-") as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "site").mkdir()
        (tmp_path / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
        (tmp_path / "events").mkdir()
        env = dict(os.environ, PYTHONPATH=f"{tmp_path / 'site'}{os.pathsep}{checkout}",
                   XDG_CACHE_HOME=str(tmp_path / "cache"),
                   GRIDCOUNT_TRACE_DIR=str(tmp_path / "events"))
        load = os.getloadavg()[0]
        t0 = time.time()
        done = subprocess.run([sys.executable, "-m", "counting", *COMMAND,
                               "--db", str(tmp_path / "store.sqlite")],
                              cwd=tmp, env=env, capture_output=True, text=True, timeout=900)
        wall = time.time() - t0
        if done.returncode != 0:
            raise SystemExit(f"exit {done.returncode}: {done.stderr.strip()[-500:]}")
        processes = [[json.loads(line) for line in f.read_text().splitlines()]
                     for f in sorted((tmp_path / "events").glob("*.jsonl"))]
    parent = next(p for p in processes if any(e["ev"] == "pool" for e in p))
    workers = [_worker(p, t0) for p in processes if any(e["ev"] == "loop" for e in p)]
    at = {e["ev"]: e for e in parent}
    return {"load": load, "wall": wall, "total": json.loads(done.stdout)["total"],
            "run_units": at["run_units"]["t"] - t0, "pool": at["pool"]["t"] - t0,
            "parent_cpu_before": at["pool"]["cpu"], "pool_end": at["pool_end"]["t"] - t0,
            "workers": workers}


def _worker(events: list[dict], t0: float) -> dict:
    """A worker's phases from its events."""
    waits, units, memo, got = [], [], 0.0, None
    for a, b in zip(events, events[1:]):
        if a["ev"] == "wait" and b["ev"] == "got":
            waits.append(b["t"] - a["t"])
        if a["ev"] == "memo_open" and b["ev"] == "memo_opened":
            memo += b["t"] - a["t"]
    for e in events:
        if e["ev"] == "got":
            got = e
        elif e["ev"] == "done":
            units.append({"unit": e["unit"], "wall": e["t"] - got["t"],
                          "cpu": e["cpu"] - got["cpu"], "at": got["t"] - t0})
    first = {e["ev"]: e for e in reversed(events)}    # the first event of each name
    started = first.get("start", first["loop"])    # a forked worker has no start of its own
    return {"start": started["t"] - t0, "loop": first["loop"]["t"] - t0,
            "import_cpu": first["loop"]["cpu"], "first_unit": units[0]["at"],
            "last_done": events[-1]["t"] - t0, "units": len(units),
            "unit_wall": sum(u["wall"] for u in units), "unit_cpu": sum(u["cpu"] for u in units),
            "wait": sum(waits[1:]), "long_waits": sum(w > LONG_WAIT for w in waits[1:]),
            "memo": memo, "first_units": units[:2],
            "longest": max(units, key=lambda u: u["wall"])}


def _med(values) -> str:
    values = list(values)
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkout", type=Path, default=ROOT,
                    help="checkout to trace (with its .so files) [default: this one]")
    ap.add_argument("--runs", type=int, default=5, help="runs [default: 5]")
    args = ap.parse_args()
    checkout = args.checkout.resolve()
    compile_packages(checkout)
    sys.path.insert(0, str(checkout))
    from counting.job import describe_machine
    machine = describe_machine()
    runs = []
    for _ in range(args.runs):
        runs.append(trace_once(checkout))
        r = runs[-1]
        print(f"{r['wall']:.2f} s wall, pool at {r['pool']:.2f} s, load {r['load']:.2f}",
              file=sys.stderr)
    ws = [w for r in runs for w in r["workers"]]
    now = datetime.datetime.now(datetime.timezone.utc)
    print(f"\n## Where the wall time goes, traced ({now:%Y-%m-%d %H:%M} UTC)\n")
    print(f"`python scripts/trace_2x5_cold.py --runs {args.runs}` on {checkout}: {args.runs} "
          f"cold runs of `python -m counting {' '.join(COMMAND)}`, each process traced "
          f"(the script's docstring says how).  Machine: {machine['cpu']}, {machine['cores']} "
          f"cores, {machine['memory_gib']} GiB, {machine['os']}, Python {machine['python']}; "
          f"load (1 min) before a run {min(r['load'] for r in runs):.2f}–"
          f"{max(r['load'] for r in runs):.2f}.  Median (min–max) over the runs, or over "
          f"the {len(ws)} workers, in seconds from the command's start:\n")
    rows = [
        ("the command's wall", _med(r["wall"] for r in runs)),
        ("the parent reaches `run_units`", _med(r["run_units"] for r in runs)),
        ("… and the pool (`map_unordered`)", _med(r["pool"] for r in runs)),
        ("the parent's CPU up to then", _med(r["parent_cpu_before"] for r in runs)),
        ("a worker's interpreter is up", _med(w["start"] for w in ws)),
        ("… its imports done (its CPU for them)",
         f"{_med(w['loop'] for w in ws)}; CPU {_med(w['import_cpu'] for w in ws)}"),
        ("its first unit begins", _med(w["first_unit"] for w in ws)),
        ("its last unit ends", _med(w["last_done"] for w in ws)),
        ("the two workers' last units end apart by",
         _med(abs(r["workers"][0]["last_done"] - r["workers"][1]["last_done"]) for r in runs)),
        ("the last result read by the parent", _med(r["pool_end"] for r in runs)),
        ("a worker's units (of 346)", _med(w["units"] for w in ws)),
        ("… their wall, Σ", _med(w["unit_wall"] for w in ws)),
        ("… their CPU, Σ", _med(w["unit_cpu"] for w in ws)),
        ("… CPU / wall in units: the share of a core a worker got",
         _med(w["unit_cpu"] / w["unit_wall"] for w in ws)),
        ("… beside 2 / (load + 2): its fair share beside the load",
         _med(min(1.0, 2 / (r["load"] + 2)) for r in runs for _ in r["workers"])),
        ("… of which opening the memo file (wall)", _med(w["memo"] for w in ws)),
        ("a worker waiting for its next unit, Σ", _med(w["wait"] for w in ws)),
        (f"… waits over {LONG_WAIT * 1000:.0f} ms (count)", _med(w["long_waits"] for w in ws)),
        ("the longest unit (wall)", _med(w["longest"]["wall"] for w in ws)),
        ("… begun at", _med(w["longest"]["at"] for w in ws)),
    ]
    print("| phase | seconds (count where said) |")
    print("| --- | ---: |")
    for name, value in rows:
        print(f"| {name} | {value} |")
    longest = sorted({w["longest"]["unit"] for w in ws})
    print(f"\nThe longest unit of a worker, over the runs: unit(s) {longest}; each worker's "
          f"first two units (id, wall s): " + "; ".join(
              ", ".join(f"{u['unit']} {u['wall']:.2f}" for u in w["first_units"]) for w in ws[:4])
          + ".")
    return report_totals({r["total"] for r in runs})


if __name__ == "__main__":
    sys.exit(main())
