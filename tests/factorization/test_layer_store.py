"""factorization/layer_store.py: a layer job's units are stored once, read
back only for the layer they were computed from, and a damaged or foreign
store is an error naming it, never a wrong total (issue 36)."""
from __future__ import annotations

import sqlite3
import zlib

import pytest

from factorization.layer_store import LayerStore, LayerStoreError, layer_digest

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
