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
counted and its total are recorded too (the killed run's CPU seconds are its
process's alone: its workers, orphaned by the kill, are not waited for), and after each complete run the
largest resident set of any process waited for so far (``ru_maxrss`` of
``RUSAGE_CHILDREN``: the count's process or one of its workers), in MiB.

Last, where the CPU goes: in one new process with an empty layer store, every
unit counted in id order (``count_directly``), CPU seconds summed by
transition, against :func:`factorization.layers.layer_counts` (the same
transitions whole, nothing stored) in the same process after.  That process's
memory too: its resident set once the library is loaded and the reduction
made (``VmRSS``), its peak after every unit is counted (``VmHWM``), and the
growth between them (``units_growth_mib``: the layers and transition tables
a worker that counts every unit holds beyond a loaded process; the pre-count
memory check reads it, :meth:`counting.reduction.layers.LayerReduction.worker_memory_mib`).

Several shapes (``2x5 2x4``) make one row each in the same file.

Writes ``results/layers-count-seconds.json`` (format :data:`FORMAT`, with the
machine) and ``results/layers-count.md`` (the same figures as tables), and
prints one line a run.

    python scripts/measure_layers_count.py 2x3 2x4 2x5     # writes results/layers-count-seconds.json
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
NOTE = ROOT / "results" / "layers-count.md"
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
    # the largest resident set of any process waited for so far (the count or a worker)
    row["max_rss_mib_so_far"] = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                                      / 1024, 1)
    if proc.returncode != 0:
        raise SystemExit(f"count failed ({proc.returncode}): {err.strip()}")
    doc = json.loads(out)
    return {**row, "units_counted": doc["run"]["units_counted"], "total": doc["total"]}


BREAKDOWN = """
import json, sys, time
from counting.reduction.registry import get_reduction
from factorization.layers import layer_counts

def status_mib(key):
    with open("/proc/self/status") as f:
        return next(int(x.split()[1]) / 1024 for x in f if x.startswith(key))

red = get_reduction(sys.argv[1], "layers")
units, start = {}, status_mib("VmRSS:")
for u in red.units():
    c0 = time.process_time()
    red.count_directly(u)
    units[u.layer] = units.get(u.layer, 0.0) + time.process_time() - c0
peak = status_mib("VmHWM:")
whole = layer_counts(red.C)
print(json.dumps({"units_cpu_by_transition": [round(units[L], 2) for L in sorted(units)],
                  "layer_counts_cpu_by_transition": [round(t, 2) for t in whole.cpu],
                  "process_start_mib": round(start, 1), "units_peak_mib": round(peak, 1),
                  "units_growth_mib": round(peak - start, 1)}))
"""


def breakdown(shape: str, env: dict) -> dict:
    load = os.getloadavg()[0]
    out = subprocess.run([sys.executable, "-c", BREAKDOWN, shape], env=env,
                         capture_output=True, text=True, check=True)
    return {**json.loads(out.stdout), "load_average_before": round(load, 2),
            "load_average_after": round(os.getloadavg()[0], 2)}


def note(doc: dict) -> str:
    """``results/layers-count.md``: the measurement as tables, a section a shape."""
    m = doc["machine"]
    kinds = ", ".join(f"`{row['kind']}`" for row in doc["counts"])
    head = [f"# `gridcount count --reduction layers`, measured: {kinds}", "",
            f"Written by `{doc['command']}` at {doc['measured_at']} on {m['cpu']}, "
            f"{m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, Python {m['python']} "
            f"(the machine shared: see the load averages)."]
    return "\n".join(head + [line for row in doc["counts"] for line in _section(row)]) + "\n"


def _section(row: dict) -> list[str]:
    """One shape's tables."""
    lines = ["", f"## {row['kind']}", "", f"{row['units']:,} units, {row['workers']} workers, "
             f"new empty count and layer stores.", "",
             "| run | units counted | wall | CPU (process and workers) | load before / after "
             "| total |", "|---|---:|---:|---:|---|---|"]
    for name in ("fresh", "killed", "resumed"):
        r = row[name]
        counted = (f"SIGKILL at {r['killed_at_units']:,} stored" if name == "killed"
                   else f"{r['units_counted']:,}")
        total = f"{int(r['total']):,}" if "total" in r else "-"
        lines.append(f"| {name} | {counted} | {r['wall_seconds']:,.1f} s | "
                     f"{r['cpu_seconds']:,.1f} s | {r['load_average_before']:.1f} / "
                     f"{r['load_average_after']:.1f} | {total} |")
    b = row["breakdown"]
    lines += ["", f"Largest resident set of any process: {row['resumed']['max_rss_mib_so_far']:,.1f} "
              f"MiB (this shape's runs and those measured before them).  One process counting "
              f"every unit: {b['process_start_mib']:,.1f} MiB resident once loaded, "
              f"{b['units_peak_mib']:,.1f} MiB at its peak, {b['units_growth_mib']:,.1f} MiB "
              f"grown (what the pre-count memory check adds to each worker).", "",
              "Where the CPU goes (one process, every unit in id order, then "
              f"`layer_counts` whole; load {b['load_average_before']:.1f} / "
              f"{b['load_average_after']:.1f}):", "",
              "| transition | units' CPU | layer_counts CPU |", "|---|---:|---:|"]
    for L, (a, c) in enumerate(zip(b["units_cpu_by_transition"],
                                   b["layer_counts_cpu_by_transition"]), start=1):
        lines.append(f"| {L} -> {L + 1} | {a:,.2f} s | {c:,.2f} s |")
    lines.append(f"| all | {sum(b['units_cpu_by_transition']):,.2f} s | "
                 f"{sum(b['layer_counts_cpu_by_transition']):,.2f} s |")
    return lines


def measure(shape: str, workers: int, kill_at: int) -> dict:
    """One shape's runs (fresh, killed, resumed) and its breakdown, each in new stores."""
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT), os.environ.get("PYTHONPATH", "")]))
        fresh = dict(base, XDG_CACHE_HOME=os.path.join(tmp, "cache-a"))
        rows["fresh"] = run(shape, Path(tmp) / "a.sqlite", fresh, workers)
        print(shape, "fresh  ", json.dumps(rows["fresh"]), flush=True)
        killed = dict(base, XDG_CACHE_HOME=os.path.join(tmp, "cache-b"))
        rows["killed"] = run(shape, Path(tmp) / "b.sqlite", killed, workers, kill_at=kill_at)
        print(shape, "killed ", json.dumps(rows["killed"]), flush=True)
        rows["resumed"] = run(shape, Path(tmp) / "b.sqlite", killed, workers)
        print(shape, "resumed", json.dumps(rows["resumed"]), flush=True)
        rows["breakdown"] = breakdown(shape, dict(base, XDG_CACHE_HOME=os.path.join(
            tmp, "cache-c")))
        print(shape, "breakdown", json.dumps(rows["breakdown"]), flush=True)
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shapes", nargs="+", metavar="shape",
                    help="two-band shapes with C = 2..5 (2x5, 5x2, ...): a row each")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kill-at", type=int, default=20, help="units stored before SIGKILL (at most half a shape's units)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--note", type=Path, help="the Markdown note (default results/layers-count.md)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from counting.job import describe_machine
    from counting.reduction.registry import get_reduction
    counts = []
    for shape in args.shapes:
        units = get_reduction(shape, "layers").n_units()
        counts.append({"kind": shape, "reduction": "layers", "workers": args.workers,
                       "units": units,
                       **measure(shape, args.workers, min(args.kill_at, units // 2))})
    doc = {"format": FORMAT, "version": 1,
           "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(
               timespec="seconds"),
           "command": f"python scripts/measure_layers_count.py {' '.join(args.shapes)} "
                      f"--workers {args.workers} --kill-at {args.kill_at}",
           "machine": describe_machine(), "counts": counts}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    path = args.note or NOTE
    old = path.read_text() if path.exists() else ""
    passes = old[old.index("\n## Pass "):] if "\n## Pass " in old else ""
    path.write_text(note(doc) + passes)     # scripts/measure_layers_pass.py's sections kept


if __name__ == "__main__":
    main()
