"""Write the committed reports in ``results/`` again with the current program.

Each report is made from a store rebuilt here: counted again from nothing
(the jobs of minutes; 1x10 about 1.3 hours on 2 loaded cores with a warm
memo file, more from an empty one; SudokuP by rows 1-3 about an hour), or
merged from the checked units export committed beside it (the long jobs:
their units keep the times of the runs that counted them).  A report whose
store can be had neither way (no units export, hours of counting) is listed
as left as it is.

    python scripts/regenerate_reports.py            # all that can be made
    python scripts/regenerate_reports.py 3x3 2x5    # only these reports
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"

#: report name -> how its store is made: ("count", argv) or ("merge", export)
REPORTS = {
    "3x3": ("count", ["3x3"]),
    "3x3-symmetry": ("count", ["3x3", "--up-to-symmetry"]),
    "2x4": ("count", ["2x4"]),
    "2x5": ("count", ["2x5"]),
    "1x8": ("count", ["1x8"]),
    "1x8+x": ("count", ["1x8+x"]),
    "3x3+x-rprefix-diagonals": ("merge", "3x3+x-rprefix-diagonals-done.json"),
    "1x10": ("count", ["1x10", "--memo-mb", "256"]),
    "3x3+disjoint-rprefix-rows=3": ("count", ["3x3+disjoint", "--prefix", "rows=3"]),
}
#: reports left as they are, and why
LEFT = {
}


def _gridcount(*args: str, cwd: Path, env: dict) -> str:
    res = subprocess.run([sys.executable, "-m", "counting", *args], cwd=cwd, env=env,
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"gridcount {' '.join(args)} failed: {res.stderr.strip()}")
    return res.stdout


def regenerate(name: str, tmp: Path, env: dict) -> Path:
    how, what = REPORTS[name]
    if how == "merge":
        store = tmp / f"{name}.sqlite"
        _gridcount("merge", str(store), str(RESULTS / what), cwd=tmp, env=env)
    else:
        _gridcount("count", *what, "-q", cwd=tmp, env=env)
        stores = sorted((tmp / "results").glob("*.sqlite"), key=lambda p: p.stat().st_mtime)
        store = stores[-1]          # the last written: a symmetry job's own store
    out = RESULTS / f"{name}-report.md"
    _gridcount("report", str(store), "-o", str(out), cwd=tmp, env=env)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help=f"reports to make (default: all of {list(REPORTS)})")
    args = ap.parse_args()
    for name in args.names or REPORTS:
        if name not in REPORTS:
            raise SystemExit(f"no recipe for report {name!r}: {LEFT.get(name, 'unknown')}")
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))
            print(f"wrote {regenerate(name, Path(tmp), env).relative_to(ROOT)}", flush=True)
    for name, why in LEFT.items():
        print(f"left as it is: results/{name}-report.md ({why})")


if __name__ == "__main__":
    main()
