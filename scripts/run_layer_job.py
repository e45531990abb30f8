"""Run the layer method for C stacks as a stored, resumable job (issue 36).

Thin over :func:`factorization.layer_job.run_layer_job`: units are state-id
ranges of a layer, each stored once with digests; a run finds the stored
units and counts only the missing ones.  ``--kill-after K`` sends the
process SIGKILL after its K-th committed unit (a killed run, to be resumed
by running the same command without it).  Prints the layer sizes, the units
counted and reused, their CPU and the grid total beside the published one.

    python scripts/run_layer_job.py 5 --store /tmp/2x5-layers.sqlite --kill-after 20
    python scripts/run_layer_job.py 5 --store /tmp/2x5-layers.sqlite
"""
from __future__ import annotations

import argparse
import os
import signal
import time

from counting.published import lookup
from factorization.layer_job import UNIT_STATES, run_layer_job


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("C", type=int, help="stacks (2..5)")
    ap.add_argument("--store", required=True, help="the job's SQLite store")
    ap.add_argument("--unit-states", type=int, default=UNIT_STATES, help="parents a unit")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--kill-after", type=int, default=None, metavar="K",
                    help="SIGKILL this process after its K-th committed unit")
    args = ap.parse_args()
    done = []

    def on_unit(L, lo, hi):
        done.append((L, lo, hi))
        print(f"unit [{lo:,}, {hi:,}) of layer {L} committed", flush=True)
        if args.kill_after is not None and len(done) == args.kill_after:
            print(f"SIGKILL after {len(done)} units", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)

    t0, c0 = time.perf_counter(), time.process_time()
    r = run_layer_job(args.C, args.store, unit_states=args.unit_states, threads=args.threads,
                      on_unit=on_unit)
    ref = lookup(f"2x{args.C}")
    print(f"2x{args.C} by layers as a job: layer sizes {', '.join(f'{s:,}' for s in r.sizes)}; "
          f"{r.units:,} units, {r.computed:,} counted now ({r.cpu_seconds:,.1f} s CPU), "
          f"{r.reused:,} read from {args.store}; {time.perf_counter() - t0:,.1f} s wall, "
          f"{time.process_time() - c0:,.1f} s CPU in all; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"grids {r.total:,} ({'the published total' if ref and ref.total == r.total else 'NOT the published total'})")


if __name__ == "__main__":
    main()
