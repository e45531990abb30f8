"""Measure ``gridcount count SHAPE --reduction layers`` from an empty layer store, and a
SIGKILLed run resumed.

Each run is a new ``gridcount`` process (this checkout) whose cache
(``XDG_CACHE_HOME``, where the layer store lives) and count store are new and
empty, with ``--force`` (no estimate before the job: its timed units would be
counted twice) and ``--json``.  Recorded for each: wall seconds, CPU seconds
of the process and its pool workers (``RUSAGE_CHILDREN`` around the run), the
1-minute load average before and after, units counted, the total.  Then the
same job is started again from empty stores and killed (SIGKILL) once its
store holds ``--kill-at`` units, and run again: the units the resumed run
counted and its total are recorded too.

Writes ``results/layers-count-seconds.json`` (format
:data:`FORMAT`, with the machine) and prints one line a run.

    python scripts/measure_layers_count.py 2x5             # writes results/layers-count-seconds.json
    python scripts/measure_layers_count.py 2x4 --out /tmp/x.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "layers-count-seconds.json"
FORMAT = "gridcount layers count measurement"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _units_in(db: Path) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def _command(shape: str, db: Path, workers: int) -> list[str]:
    return [sys.executable, "-m", "counting", "count", shape, "--reduction", "layers",
            "--db", str(db), "--workers", str(workers), "--force", "--json", "--no-progress"]


def run(shape: str, db: Path, env: dict, workers: int, kill_at: int | None = None) -> dict:
    """One ``count`` (killed once ``db`` holds ``kill_at`` units, when given)."""
    load, c0, t0 = os.getloadavg()[0], _children_cpu(), time.perf_counter()
    proc = subprocess.Popen(_command(shape, db, workers), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if kill_at is not None:
        while _units_in(db) < kill_at and proc.poll() is None:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate()
    row = {"wall_seconds": round(time.perf_counter() - t0, 2),
           "cpu_seconds": round(_children_cpu() - c0, 2),
           "load_average_before": round(load, 2),
           "load_average_after": round(os.getloadavg()[0], 2), "exit_status": proc.returncode}
    if kill_at is not None:
        return {**row, "killed_at_units": _units_in(db)}
    if proc.returncode != 0:
        raise SystemExit(f"count failed ({proc.returncode}): {err.strip()}")
    doc = json.loads(out)
    return {**row, "units_counted": doc["run"]["units_counted"], "total": doc["total"]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape", help="a two-band shape with C = 2..5 (2x5, 5x2, ...)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kill-at", type=int, default=20, help="units stored before SIGKILL")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT), os.environ.get("PYTHONPATH", "")]))
        fresh = dict(base, XDG_CACHE_HOME=os.path.join(tmp, "cache-a"))
        rows["fresh"] = run(args.shape, Path(tmp) / "a.sqlite", fresh, args.workers)
        print("fresh  ", json.dumps(rows["fresh"]), flush=True)
        killed = dict(base, XDG_CACHE_HOME=os.path.join(tmp, "cache-b"))
        rows["killed"] = run(args.shape, Path(tmp) / "b.sqlite", killed, args.workers,
                             kill_at=args.kill_at)
        print("killed ", json.dumps(rows["killed"]), flush=True)
        rows["resumed"] = run(args.shape, Path(tmp) / "b.sqlite", killed, args.workers)
        print("resumed", json.dumps(rows["resumed"]), flush=True)
    sys.path.insert(0, str(ROOT))
    from counting.job import describe_machine
    from counting.reduction.registry import get_reduction
    doc = {"format": FORMAT, "version": 1,
           "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(
               timespec="seconds"),
           "command": f"python scripts/measure_layers_count.py {args.shape} "
                      f"--workers {args.workers} --kill-at {args.kill_at}",
           "machine": describe_machine(),
           "counts": [{"kind": args.shape, "reduction": "layers", "workers": args.workers,
                       "units": get_reduction(args.shape, "layers").n_units(), **rows}]}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
