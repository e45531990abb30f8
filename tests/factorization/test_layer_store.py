"""factorization/layer_store.py: a layer job's units are stored once, read
back only for the layer they were computed from, and a damaged or foreign
store is an error naming it, never a wrong total (issue 36)."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from factorization.layer_store import FORMAT, VERSION, LayerStore, LayerStoreError, layer_digest
from factorization.layers import layer_counts

ROOT = Path(__file__).resolve().parents[2]

PART = {(1, 2, 12, 48, 3, 3): (12, 2), (1, 4, 8, 48, 3, 3): (6, 4)}
PARENTS = "a" * 64


def test_a_unit_reads_back_as_written_and_writing_it_again_is_a_no_op(tmp_path):
    with LayerStore.open(tmp_path / "s.sqlite", C=3, unit_states=2) as s:
        assert s.get(1, 0, 2, PARENTS) is None
        s.put(1, 0, 2, PARENTS, PART, cpu=0.5)
        s.put(1, 0, 2, PARENTS, dict(reversed(list(PART.items()))))   # same records
        assert s.get(1, 0, 2, PARENTS) == PART and len(s) == 1 and s.cpu_seconds() == 0.5
        with pytest.raises(LayerStoreError, match="stored with other records"):
            s.put(1, 0, 2, PARENTS, {**PART, (1, 2, 4, 8, 16, 32): (1, 1)})
        assert s.get(1, 0, 2, PARENTS) == PART


def test_a_unit_of_other_parents_or_range_is_refused(tmp_path):
    with LayerStore.open(tmp_path / "s.sqlite", C=3, unit_states=2) as s:
        s.put(1, 0, 2, PARENTS, PART)
        with pytest.raises(LayerStoreError, match=r"unit \[0, 2\) of layer 1 was computed "
                                                  r"from other parents"):
            s.get(1, 0, 2, "b" * 64)
        with pytest.raises(LayerStoreError, match="other parents"):
            s.get(1, 0, 3, PARENTS)


def test_damaged_records_are_an_error(tmp_path):
    path = tmp_path / "s.sqlite"
    with LayerStore.open(path, C=3, unit_states=2) as s:
        s.put(1, 0, 2, PARENTS, PART)
    con = sqlite3.connect(path)

    con.execute("UPDATE unit SET records = ?", (zlib.compress(b"1 2 12 48 3 3 13 2\n"),))
    con.commit()
    con.close()
    with LayerStore.open(path, C=3, unit_states=2) as s:
        with pytest.raises(LayerStoreError, match="do not match their digest"):
            s.get(1, 0, 2, PARENTS)
    con = sqlite3.connect(path)
    con.execute("UPDATE unit SET records = ?", (b"not zlib",))
    con.commit()
    con.close()
    with LayerStore.open(path, C=3, unit_states=2) as s:
        with pytest.raises(LayerStoreError, match="do not decompress"):
            s.get(1, 0, 2, PARENTS)


def test_another_job_s_store_or_another_file_is_refused(tmp_path):
    path = tmp_path / "s.sqlite"
    LayerStore.open(path, C=3, unit_states=2).close()
    with pytest.raises(LayerStoreError, match=r"another layer job's store \(C '3'"):
        LayerStore.open(path, C=4, unit_states=2)
    with pytest.raises(LayerStoreError, match="unit_states '2'"):
        LayerStore.open(path, C=3, unit_states=5)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database, it is text" * 100)
    with pytest.raises(LayerStoreError, match="is not a layer job's store"):
        LayerStore.open(junk, C=3, unit_states=2)


def test_a_store_of_parts_and_one_of_unit_states_are_other_jobs(tmp_path):
    """The ``layers`` reduction's store (each layer cut into ``parts``) is not
    the layer job's (ranges of ``unit_states``): their ranges differ."""
    path = tmp_path / "p.sqlite"
    LayerStore.open(path, C=4, parts=4).close()
    LayerStore.open(path, C=4, parts=4).close()
    with pytest.raises(LayerStoreError, match="parts '4', unit_states None"):
        LayerStore.open(path, C=4, unit_states=4)
    with pytest.raises(LayerStoreError, match="parts '4'"):
        LayerStore.open(path, C=4, parts=16)
    for both in ({}, {"parts": 4, "unit_states": 4}):
        with pytest.raises(ValueError, match="exactly one of unit_states and parts"):
            LayerStore.open(tmp_path / "x.sqlite", C=4, **both)


def test_the_digest_of_a_layer_does_not_depend_on_its_order():
    assert layer_digest(PART) == layer_digest(dict(reversed(list(PART.items()))))
    assert layer_digest(PART) != layer_digest({**PART, (1, 2, 12, 48, 3, 3): (13, 2)})


# -- two processes opening a new store at the same moment

#: A process that opens ``argv[2]`` (new) as the store of the layer job of 4
#: stacks and runs the job, with a gate in ``LayerStore.open``: once it has
#: read the store's meta and found it empty, just before its transaction that
#: writes the meta, it writes ``GATE/waiting-PID`` and waits for ``GATE/open``.
#: Prints the job's total and how many units it counted and read.
GATED_OPEN = r"""
import json, os, sqlite3, sys, time
import factorization.layer_store as layer_store
from factorization.layer_job import run_layer_job

gate, path = sys.argv[1], sys.argv[2]


class Gated:
    def __init__(self, con):
        self._con = con

    def __getattr__(self, name):
        return getattr(self._con, name)

    def execute(self, sql, *args):
        if sql == "BEGIN IMMEDIATE" and \
                not self._con.execute("SELECT COUNT(*) FROM meta").fetchone()[0]:
            open(os.path.join(gate, f"waiting-{os.getpid()}"), "w").close()
            while not os.path.exists(os.path.join(gate, "open")):
                time.sleep(0.01)
        return self._con.execute(sql, *args)


class Sqlite3:        # the sqlite3 module as layer_store sees it: its connections gated
    def __getattr__(self, name):
        return getattr(sqlite3, name)

    def connect(self, *args, **kwargs):
        return Gated(sqlite3.connect(*args, **kwargs))


layer_store.sqlite3 = Sqlite3()
r = run_layer_job(4, path, unit_states=7)
print(json.dumps({"total": r.total, "computed": r.computed, "reused": r.reused}))
"""


def test_two_processes_opening_a_new_store_at_once_both_succeed_with_one_meta(tmp_path):
    """Both find the new store's meta empty before either writes it (each
    holds at a gate until both have): the second's write of the meta was a
    UNIQUE constraint failure, a traceback in a pool worker.  Both go on to
    the same total, the store holds one meta, and each unit once."""
    gate, path = tmp_path / "gate", tmp_path / "new.sqlite"
    gate.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get(
        "PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", GATED_OPEN, str(gate), str(path)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    try:
        deadline = time.monotonic() + 60
        while len(list(gate.glob("waiting-*"))) < 2:
            ended = [p for p in procs if p.poll() is not None]
            assert not ended, f"a process ended before the gate: {ended[0].communicate()}"
            assert time.monotonic() < deadline, "the two processes never both reached the gate"
            time.sleep(0.05)
        (gate / "open").touch()
        out = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert [p.returncode for p in procs] == [0, 0], out
    docs = [json.loads(stdout) for stdout, _ in out]
    assert docs[0]["total"] == docs[1]["total"] == layer_counts(4).total
    assert all(d["computed"] + d["reused"] == docs[0]["computed"] + docs[0]["reused"]
               for d in docs)
    con = sqlite3.connect(path)
    try:
        meta = con.execute("SELECT key, value FROM meta ORDER BY key").fetchall()
        units = con.execute("SELECT COUNT(*), COUNT(DISTINCT layer || ',' || lo) "
                            "FROM unit").fetchone()
    finally:
        con.close()
    assert meta == sorted({"format": FORMAT, "version": str(VERSION), "C": "4",
                           "unit_states": "7"}.items())
    assert units[0] == units[1] == docs[0]["computed"] + docs[0]["reused"]
