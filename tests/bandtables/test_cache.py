"""Specification of the 4x3 tables' cache (bandtables/cache.py): built on
first use into a documented directory, once per machine, checked by digests.

The real build takes minutes, so these tests replace
:func:`bandtables.tables4.build` by one that writes small arrays under the
same names; what is tested is the cache around it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import bandtables.tables4
from bandtables.cache import (MANIFEST, DamagedTables, cache_root, cached_tables4, tables4_dir,
                              tables4_path, verify)
from bandtables.tables4 import ARRAYS, FORMAT

REPO = Path(__file__).resolve().parents[2]


def fake_build(calls):
    def build(directory, threads=1, log=print, progress=None):
        calls.append(Path(directory))
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        bar = progress(3) if progress else None
        for i, name in enumerate(ARRAYS):
            np.save(d / f"R4-{name}.npy", np.arange(10 + i, dtype=np.uint32))
            if bar and i < 3:
                bar()
        return {}
    return build


@pytest.fixture
def calls(monkeypatch):
    seen = []
    monkeypatch.setattr(bandtables.tables4, "build", fake_build(seen))
    return seen


def test_the_cache_is_under_xdg_cache_home_or_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_root() == tmp_path / "gridcount"
    assert tables4_path() == tmp_path / "gridcount" / f"bandtables4-v{FORMAT}"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert cache_root() == tmp_path / "h" / ".cache" / "gridcount"


def test_tables_are_built_on_first_use_then_reused_with_a_manifest(tmp_path, calls):
    said = []
    assert cached_tables4(tmp_path) is None
    d = tables4_dir(tmp_path, say=said.append, progress=False)
    assert d == tables4_path(tmp_path) and cached_tables4(tmp_path) == d
    assert len(calls) == 1 and calls[0] != d          # built beside, renamed into place
    assert sorted(p.name for p in d.iterdir()) == sorted(
        [MANIFEST] + [f"R4-{n}.npy" for n in ARRAYS])
    assert "building the 4x3 band tables once" in said[0] and str(d) in said[0]
    verify(d)
    assert tables4_dir(tmp_path, say=said.append) == d and len(calls) == 1
    assert not list(tmp_path.glob("*.build-*"))


def test_a_damaged_file_is_said_and_built_again(tmp_path, calls):
    built = tables4_dir(tmp_path / "a", say=lambda m: None, progress=False)
    d = tables4_path(tmp_path / "b")
    d.parent.mkdir(parents=True)
    shutil.copytree(built, d)
    data = bytearray((d / "R4-l.npy").read_bytes())
    data[-1] ^= 1                                      # one bit of one entry
    (d / "R4-l.npy").write_bytes(bytes(data))
    with pytest.raises(DamagedTables, match="R4-l.npy does not match its SHA-256"):
        verify(d)
    said = []
    assert tables4_dir(tmp_path / "b", say=said.append, progress=False) == d
    assert "damaged" in said[0] and "R4-l.npy" in said[0] and len(calls) == 2
    verify(d)
    assert not list(d.parent.glob("*.old-*"))


@pytest.mark.parametrize("damage", ["missing file", "truncated", "no manifest", "bad manifest"])
def test_every_kind_of_damage_is_refused_by_the_check(tmp_path, calls, damage):
    d = tables4_dir(tmp_path, say=lambda m: None, progress=False)
    if damage == "missing file":
        (d / "R4-LT.npy").unlink()
    elif damage == "truncated":
        with open(d / "R4-LT.npy", "r+b") as fh:
            fh.truncate(10)
    elif damage == "no manifest":
        (d / MANIFEST).unlink()
    else:
        (d / MANIFEST).write_text("{")
    with pytest.raises(DamagedTables):
        verify(d)


def test_a_failed_build_leaves_neither_a_cache_nor_a_temporary(tmp_path, monkeypatch):
    def broken(directory, **kw):
        Path(directory).mkdir(parents=True)
        (Path(directory) / "R4-act.npy").write_bytes(b"half")
        raise MemoryError("out of memory")
    monkeypatch.setattr(bandtables.tables4, "build", broken)
    with pytest.raises(MemoryError):
        tables4_dir(tmp_path, say=lambda m: None, progress=False)
    assert cached_tables4(tmp_path) is None
    assert [p.name for p in tmp_path.iterdir()] == [f"bandtables4-v{FORMAT}.lock"]


BUILDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import numpy as np
    import bandtables.tables4
    from bandtables.cache import tables4_dir
    from bandtables.tables4 import ARRAYS, FORMAT
    root, log = Path(sys.argv[1]), Path(sys.argv[2])
    def build(directory, threads=1, log_=print, progress=None, **kw):
        with open(log, "a") as fh:
            fh.write("built\\n")
        time.sleep(1.0)
        Path(directory).mkdir(parents=True, exist_ok=True)
        for name in ARRAYS:
            np.save(Path(directory) / f"R4-{name}.npy", np.arange(5, dtype=np.uint32))
    bandtables.tables4.build = build
    print(tables4_dir(root, say=lambda m: None, progress=False))
""")


def test_processes_of_one_machine_build_the_tables_once(tmp_path):
    log = tmp_path / "builds.log"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, "-c", BUILDER, str(tmp_path), str(log)],
                              stdout=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert len(set(outs)) == 1 and outs[0] == str(tables4_path(tmp_path))
    assert log.read_text() == "built\n"          # the others waited and mapped the result


@pytest.mark.parametrize("R", [2, 3])
def test_the_dense_tables_are_cached_beside_the_4x3_ones_and_checked_alike(tmp_path, monkeypatch,
                                                                          R):
    """Issue 25: 2x3 and 3x3 read their tables from the same cache (one copy
    per machine): their own directory and manifest, built once, checked, and
    a damaged file built again."""
    from bandtables.api import BandTables
    from bandtables.cache import cached_tables, tables_dir, tables_path
    from bandtables.tables import DENSE_ARRAYS, DENSE_FORMAT
    said = []
    assert cached_tables(R, tmp_path) is None
    d = tables_dir(R, tmp_path, say=said.append)
    assert d == tmp_path / f"bandtables{R}-v{DENSE_FORMAT}" == tables_path(R, tmp_path)
    assert sorted(p.name for p in d.iterdir()) == sorted(
        [MANIFEST] + [f"R{R}-{n}.npy" for n in DENSE_ARRAYS])
    assert said == []                       # a fraction of a second: built without a word
    verify(d, R)
    mapped, built = BandTables.load(R, d), BandTables.build(R)
    assert np.array_equal(mapped.T, built.T) and np.array_equal(mapped.act, built.act)
    assert mapped.classes.reps == built.classes.reps
    assert mapped.classes.sizes == built.classes.sizes
    data = bytearray((d / f"R{R}-T.npy").read_bytes())
    data[-1] ^= 1
    (d / f"R{R}-T.npy").write_bytes(bytes(data))
    with pytest.raises(DamagedTables, match=f"R{R}-T.npy does not match"):
        verify(d, R)
    with pytest.raises(DamagedTables, match="is of format|is not in the manifest"):
        verify(d, 4)                        # another R's files are not these
    assert tables_dir(R, tmp_path / "other", say=said.append) != d
    import bandtables.cache
    monkeypatch.setattr(bandtables.cache, "_CHECKED", set())     # a new process
    assert tables_dir(R, tmp_path, say=said.append) == d
    assert "damaged" in said[-1] and f"R{R}-T.npy" in said[-1]
    verify(d, R)
