"""Estimate the counting time of candidate prefixes of grid kinds, and time real units.

For each kind and each candidate prefix, :func:`counting.reduction.prefix.choose_prefix`
enumerates the prefix's units, samples a few, runs Knuth's estimator on each and
multiplies the mean by the number of units.  With ``--time-units K`` it also counts
``K`` of the prefix's units (drawn with ``--seed``) for real, one at a time, each in a
child process stopped after ``--timeout`` wall seconds, and reports each unit's CPU
seconds (a stopped unit is a lower bound, said with ``>``) and the job that the mean
implies.  Prints aligned tables and, with ``--markdown FILE``, writes them with the
machine and its load average (the machine is shared, so CPU seconds are the figure to
compare: wall times depend on the load).

    nice python scripts/estimate_prefixes.py 3x3+windoku 3x3+disjoint \\
        --prefixes "rows=2;boxes=1,2;rows=1,cols=1" --markdown results/variants-prefixes.md
    nice python scripts/estimate_prefixes.py 3x3+x --prefixes "rows=2;band" \\
        --time-units 3 --timeout 300 --no-estimate
    nice python scripts/estimate_prefixes.py 3x3+centre --prefixes "rows=2;rows=1,cols=1" \\
        --job-cost --sample 4 --max-seconds 20
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import time

from counting.job import describe_machine
from counting.options import CountOptions
from counting.reach import format_seconds, job_cost
from counting.reduction.prefix import PrefixReduction, choose_prefix


def _count_in_child(kind: str, prefix: str, unit_id: int, memo_mb: float, out) -> None:
    """Count one unit in this (child) process; send (count, CPU seconds)."""
    from counting.run.counter import count_unit
    spec = PrefixReduction(kind, prefix).unit(unit_id)
    t0 = time.process_time()
    result = count_unit(spec, CountOptions(memo_mb=memo_mb))
    out.put((result.count, time.process_time() - t0))


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid``."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_unit(kind: str, prefix: str, unit_id: int, timeout: float, memo_mb: float) -> dict:
    """Count one unit in a child process: its count and CPU seconds, or, when it
    runs past ``timeout`` wall seconds, the CPU seconds it had used (``stopped``)."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_count_in_child, args=(kind, prefix, unit_id, memo_mb, out))
    t0 = time.perf_counter()
    child.start()
    child.join(timeout)
    wall = time.perf_counter() - t0
    if child.is_alive():
        cpu = _cpu_seconds(child.pid)
        child.kill()
        child.join()
        return {"unit": unit_id, "stopped": True, "cpu": cpu, "wall": wall}
    count, cpu = out.get()
    return {"unit": unit_id, "stopped": False, "count": count, "cpu": cpu, "wall": wall}


def timed_units(kind: str, prefix: str, k: int, seed: int, timeout: float,
                memo_mb: float) -> tuple[int, list[dict]]:
    """The number of units of ``prefix`` and ``k`` of them (drawn with ``seed``) timed."""
    units = PrefixReduction(kind, prefix).units()
    picked = sorted(random.Random(seed).sample(range(len(units)), min(k, len(units))))
    rows = []
    for uid in picked:
        r = time_unit(kind, prefix, uid, timeout, memo_mb)
        print(f"  {kind} {prefix} unit {uid}: "
              + (f"stopped after {r['wall']:,.0f} s wall, {r['cpu']:,.1f} CPU-s" if r["stopped"]
                 else f"{r['count']:,} completions, {r['cpu']:,.1f} CPU-s"), flush=True)
        rows.append(r)
    return len(units), rows


def table_lines(header: tuple, rows: list[tuple]) -> tuple[list[str], list[str]]:
    """The rows as an aligned text table and as Markdown."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    text = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in
                      enumerate(zip(r, widths))).rstrip() for r in [header, *rows]]
    md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return text, md + ["| " + " | ".join(r) + " |" for r in rows]


def estimate_rows(kinds, candidates, a) -> list[tuple]:
    rows = []
    for kind in kinds:
        t0 = time.time()
        try:
            best, table = choose_prefix(kind, candidates, sample=a.sample, probes=a.probes,
                                        max_seconds=a.max_seconds)
        except ValueError as e:       # no candidate is usable: say so, go on
            rows.append((kind, "all", "—", "—", str(e)[:60], ""))
            continue
        for t in table:
            if "error" in t:
                rows.append((kind, t["prefix"], "—", "—", t["error"][:60], ""))
            else:
                rows.append((kind, t["prefix"], f"{t['fillings']:,}", f"{t['units']:,}",
                             f"{t['seconds']:,.0f} s", "yes" if t["prefix"] == best else ""))
        print(f"{kind}: {time.time() - t0:,.0f} s to estimate", flush=True)
    return rows


def job_cost_rows(kinds, candidates, a) -> list[tuple]:
    """The estimate ``gridcount count KIND --prefix P`` prints before it starts
    (:func:`counting.reach.job_cost`), one row per kind and prefix, each printed
    as soon as it is made."""
    rows = []
    for kind in kinds:
        for prefix in candidates:
            try:
                red = PrefixReduction(kind, prefix)
                cost = job_cost(red, CountOptions(memo_mb=a.memo_mb), sample=a.sample,
                                seed=a.seed, max_seconds=a.max_seconds)
            except ValueError as e:
                rows.append((kind, prefix, "—", str(e)[:60], "—", "—"))
            else:
                rows.append((kind, prefix, f"{cost.units:,}",
                             f"{cost.cpu_seconds / 3600:,.1f} core-h",
                             format_seconds(cost.wall_seconds(2)),
                             f"{cost.workers_for_a_day():,}"))
            print("  ".join(rows[-1]), flush=True)
    return rows


def timing_rows(kinds, candidates, a) -> list[tuple]:
    rows = []
    for kind in kinds:
        for prefix in candidates:
            try:
                n, timed = timed_units(kind, prefix, a.time_units, a.seed, a.timeout, a.memo_mb)
            except ValueError as e:
                rows.append((kind, prefix, "—", str(e)[:60], "—", "—", "—"))
                continue
            cpu = [r["cpu"] for r in timed]
            stopped = sum(r["stopped"] for r in timed)
            mean = sum(cpu) / len(cpu)
            bound = ">" if stopped else ""
            rows.append((kind, prefix, f"{n:,}", " ".join(str(r["unit"]) for r in timed),
                         " / ".join(f"{'>' * r['stopped']}{r['cpu']:,.1f}" for r in timed),
                         f"{stopped} of {len(timed)}",
                         f"{bound}{n * mean / 3600:,.0f} core-h ({bound}{format_seconds(n * mean / 2)}"
                         f" on 2 cores)"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kinds", nargs="+")
    ap.add_argument("--prefixes", default="rows=1;rows=2;boxes=1,2;rows=1,cols=1",
                    help="candidate prefixes separated by ';'")
    ap.add_argument("--sample", type=int, default=6, help="units sampled per prefix")
    ap.add_argument("--probes", type=int, default=20, help="estimator paths per unit")
    ap.add_argument("--max-seconds", type=float, default=20.0, help="estimator time per unit")
    ap.add_argument("--no-estimate", action="store_true", help="skip Knuth's estimator")
    ap.add_argument("--job-cost", action="store_true",
                    help="instead, the estimate gridcount count prints (--sample units, "
                         "--max-seconds in all)")
    ap.add_argument("--time-units", type=int, default=0, help="units counted per prefix")
    ap.add_argument("--timeout", type=float, default=300.0, help="wall seconds per counted unit")
    ap.add_argument("--seed", type=int, default=0, help="seed of the counted units")
    ap.add_argument("--memo-mb", type=float, default=16.0, help="memo table of a counted unit")
    ap.add_argument("--markdown", default=None, help="also write the tables here")
    a = ap.parse_args()
    candidates = [p for p in a.prefixes.split(";") if p.strip()]
    load0 = os.getloadavg()
    out_md: list[str] = []
    if a.job_cost:
        header = ("kind", "prefix", "units", "estimate", "on 2 cores", "workers for a day")
        text, md = table_lines(header, job_cost_rows(a.kinds, candidates, a))
        print("\n".join(text))
        out_md += [f"The estimate `gridcount count` prints (Knuth's estimator, {a.sample} "
                   f"units sampled, {a.max_seconds:g} s in all, memo {a.memo_mb:g} MiB).", "",
                   *md, ""]
    elif not a.no_estimate:
        header = ("kind", "prefix", "normal fillings", "units", "est. engine time", "chosen")
        text, md = table_lines(header, estimate_rows(a.kinds, candidates, a))
        print("\n".join(text))
        out_md += [f"Knuth's estimator: {a.sample} units sampled per prefix, {a.probes} probes "
                   f"each, at most {a.max_seconds:g} s per unit.", "", *md, ""]
    if a.time_units:
        header = ("kind", "prefix", "units", "units counted (ids)", "CPU s each", "stopped",
                  "job at the mean")
        text, md = table_lines(header, timing_rows(a.kinds, candidates, a))
        print("\n".join(text))
        out_md += [f"Units counted for real (seed {a.seed}), one at a time, memo "
                   f"{a.memo_mb:g} MiB, each stopped after {a.timeout:g} s of wall time "
                   f"(`>`: a stopped unit's CPU seconds so far, a lower bound).", "", *md, ""]
    load1 = os.getloadavg()
    if a.markdown:
        m = describe_machine()
        head = [f"Machine: {m}", "",
                f"Load average (1, 5, 15 min) at start {load0[0]:.2f} {load0[1]:.2f} "
                f"{load0[2]:.2f}, at end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}.", ""]
        with open(a.markdown, "w") as f:
            f.write("\n".join(head + out_md))


if __name__ == "__main__":
    main()
