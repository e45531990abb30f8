"""factorization/layer_job.py: the layer method as a stored job of state-id
ranges gives layer_counts' classes exactly, and a job killed between units,
while writing one, or by SIGKILL resumes to the same totals, counting only
the missing units (issue 36)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from factorization.layer_job import layer_units, run_layer_job
from factorization.layers import layer_counts

ROOT = Path(__file__).resolve().parents[2]


class Killed(Exception):
    """The tests' stand-in for a process stopped at a chosen point."""


def stop_after(k: int):
    seen = []

    def on_unit(L, lo, hi):
        seen.append((L, lo, hi))
        if len(seen) == k:
            raise Killed()
    return on_unit


def test_units_cover_each_layer_once():
    assert layer_units(5, 2) == [(0, 2), (2, 4), (4, 5)]
    assert layer_units(4, 4) == [(0, 4)] and layer_units(0, 3) == []


@pytest.mark.parametrize("C, unit_states", [(2, 1), (3, 1), (3, 2), (4, 1), (4, 7), (4, 1000)])
def test_the_job_gives_layer_counts_classes_exactly(tmp_path, C, unit_states):
    r = run_layer_job(C, tmp_path / "job.sqlite", unit_states=unit_states)
    plain = layer_counts(C)
    assert r.sizes == plain.sizes and r.total == plain.total
    assert r.classes == plain.classes            # F, m, ℓ of every class
    assert r.computed == r.units and r.reused == 0


def test_a_job_stopped_between_units_resumes_to_the_same_totals(tmp_path):
    path = tmp_path / "job.sqlite"
    with pytest.raises(Killed):
        run_layer_job(4, path, unit_states=3, on_unit=stop_after(9))
    r = run_layer_job(4, path, unit_states=3)
    whole = run_layer_job(4, tmp_path / "whole.sqlite", unit_states=3)
    assert r.reused == 9 and r.computed == whole.units - 9
    assert r.classes == whole.classes and r.total == layer_counts(4).total


def test_a_unit_killed_while_it_is_written_is_absent_and_counted_again(tmp_path):
    path = tmp_path / "job.sqlite"
    writes = []

    def before_commit():
        writes.append(1)
        if len(writes) == 5:
            raise Killed()
    with pytest.raises(Killed):
        run_layer_job(4, path, unit_states=3, before_commit=before_commit)
    r = run_layer_job(4, path, unit_states=3)
    assert r.reused == 4 and r.computed == r.units - 4     # the fifth was rolled back
    assert r.total == layer_counts(4).total


def test_a_job_killed_by_sigkill_resumes_from_its_store(tmp_path):
    path = tmp_path / "job.sqlite"
    code = ("import os, signal, sys\n"
            "from factorization.layer_job import run_layer_job\n"
            "done = []\n"
            "def on_unit(*unit):\n"
            "    done.append(unit)\n"
            "    if len(done) == 6:\n"
            "        os.kill(os.getpid(), signal.SIGKILL)\n"
            "run_layer_job(4, sys.argv[1], unit_states=3, on_unit=on_unit)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code, str(path)], env=env, capture_output=True)
    assert p.returncode == -signal.SIGKILL, p.stderr
    r = run_layer_job(4, path, unit_states=3)
    assert r.reused == 6 and r.computed == r.units - 6
    assert r.classes == layer_counts(4).classes


def test_bad_arguments_are_one_line_errors(tmp_path):
    for C in (1, 6, "4", True):
        with pytest.raises(ValueError, match="stacks must be an integer in 2..5"):
            run_layer_job(C, tmp_path / "x.sqlite")
    with pytest.raises(ValueError, match="unit_states must be a positive integer"):
        run_layer_job(3, tmp_path / "x.sqlite", unit_states=0)


@pytest.mark.slow
def test_2x5_as_a_job_is_the_published_total(tmp_path):
    r = run_layer_job(5, tmp_path / "2x5.sqlite")
    assert r.total == 1_903_816_047_972_624_930_994_913_280_000     # Pettersen & Russell
    assert r.sizes == (1, 107, 16_150, 17_120, 355)
