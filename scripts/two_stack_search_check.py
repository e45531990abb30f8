"""The whole-grid search as a second route for a 2xC shape's Burnside terms.

Each unit of :func:`counting.group.burnside.symmetry_units` (the identity
aside) is counted by :func:`counting.group.fixed.count_fixed` — the search over
the whole grid's cell orbits with a standard unit, which shares no code with
the two-stack method — in this process, stopped after ``--cap`` seconds, and
compared with the two-stack table ``results/SHAPE-symmetry-two-stack.tsv``
(column 5).  Units named by ``--skip`` (checked another way) are left out.
Prints one line a unit (equal / DIFFERENT / out of time) and exits 1 if any
differs::

    nice python scripts/two_stack_search_check.py 2x5 --cap 60
"""
from __future__ import annotations

import argparse
import signal
import time

from counting.group.burnside import symmetry_units
from counting.group.fixed import count_fixed
from two_stack_results import RESULTS, table   # scripts/: the two-stack table


class _OutOfTime(Exception):
    pass


def _alarm(*_):
    raise _OutOfTime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shape", help="a 2xC box shape with a two-stack table in results/")
    ap.add_argument("--cap", type=float, default=60.0, help="seconds a unit (default 60)")
    ap.add_argument("--skip", default="", help="comma-separated unit ids to leave out")
    args = ap.parse_args()
    path = RESULTS / f"{args.shape}-symmetry-two-stack.tsv"
    if not path.exists():
        ap.error(f"no two-stack table {path.name} in results/")
    try:
        skip = {int(x) for x in args.skip.split(",") if x.strip()}
    except ValueError:
        ap.error(f"--skip must be comma-separated unit ids, got {args.skip!r}")
    reference = table(args.shape)
    signal.signal(signal.SIGALRM, _alarm)
    equal = differ = late = 0
    for u in symmetry_units(args.shape)[1:]:
        if u.unit_id in skip or u.unit_id not in reference:
            continue
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, args.cap)
        try:
            value = count_fixed(args.shape, u.symmetry, u.pi_type).count
        except _OutOfTime:
            late += 1
            print(f"unit {u.unit_id:>4}  out of time after {args.cap:g} s", flush=True)
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        seconds = time.perf_counter() - start
        same = value == reference[u.unit_id]
        equal += same
        differ += not same
        verdict = "equal" if same else f"DIFFERENT: table {reference[u.unit_id]:,}"
        print(f"unit {u.unit_id:>4}  {value:>22,}  {seconds:6.1f} s  {verdict}", flush=True)
    print(f"{equal} equal, {differ} different, {late} out of time")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
