"""Specification of the 4x3 tables' cache (bandtables/cache.py): built on
first use into a documented directory, once per machine, checked by digests.

The real build takes minutes, so these tests replace
:func:`bandtables.tables4.build` by one that writes small arrays under the
same names; what is tested is the cache around it.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bandtables.tables4
from bandtables.cache import (MANIFEST, DamagedTables, cache_root, cached_tables4, tables4_dir,
                              tables4_path, verify)
from bandtables.tables4 import ARRAYS, FORMAT
from cache_damage import DAMAGE, damage
from lock_waits import needs_proc_locks

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


@pytest.mark.parametrize("how", DAMAGE)
def test_every_kind_of_damage_is_refused_by_the_check(tmp_path, calls, how):
    d = tables4_dir(tmp_path, say=lambda m: None, progress=False)
    damage(d, "R4-LT.npy", how)
    with pytest.raises(DamagedTables) as e:
        verify(d)
    assert "\n" not in str(e.value)


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


# One of N processes asking for the tables (argv: root, log, N).  Its build
# goes on only once each of the others is seen building too (a missing lock)
# or blocked on the lock (tests/lock_waits.py), so the others have come to
# the cache while it was being built, on a machine of any speed: not a
# 1 s build that a process starting more than 1 s later never overlaps.
BUILDER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    import numpy as np
    import bandtables.tables4
    from bandtables.cache import tables4_dir
    from bandtables.tables4 import ARRAYS, FORMAT
    from lock_waits import meet_at_the_cache
    root, log, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    seen = log.parent / "processes"

    def build(directory, threads=1, log_=print, progress=None, **kw):
        with open(log, "a") as fh:
            fh.write("built\\n")
        meet_at_the_cache(seen, n)
        Path(directory).mkdir(parents=True, exist_ok=True)
        for name in ARRAYS:
            np.save(Path(directory) / f"R4-{name}.npy", np.arange(5, dtype=np.uint32))
    bandtables.tables4.build = build
    (seen / f"asking-{os.getpid()}").touch()
    print(tables4_dir(root, say=lambda m: None, progress=False))
""")


@needs_proc_locks
def test_processes_of_one_machine_build_the_tables_once(tmp_path):
    log = tmp_path / "builds.log"
    (tmp_path / "processes").mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests")]))
    procs = [subprocess.Popen([sys.executable, "-c", BUILDER, str(tmp_path), str(log), "3"],
                              stdout=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    outs = [p.communicate(timeout=300)[0].strip() for p in procs]
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
    bandtables.cache.forget_checked()     # a new process
    assert tables_dir(R, tmp_path, say=said.append) == d
    assert "damaged" in said[-1] and f"R{R}-T.npy" in said[-1]
    verify(d, R)


# --- issue 38: the manifest's shape is checked, not only its digests ---------

def _said_once_and_rebuilt(root, R, monkeypatch, what):
    """``tables_dir`` on a damaged cache: one line saying ``what``, then tables that verify."""
    import bandtables.cache
    from bandtables.cache import tables_dir
    bandtables.cache.forget_checked()     # a new process
    said = []
    d = tables_dir(R, root, say=said.append)
    assert len(said) == 1 and "\n" not in said[0]
    assert "damaged" in said[0] and what in said[0] and "building them again" in said[0]
    verify(d, R)
    return d


@pytest.mark.parametrize("edit, what", [
    (lambda text: text.replace('"bytes"', '"bytgs"', 1), "is not {\"bytes\""),   # KeyError
    (lambda text: '{"format": 1, "files": []}', "files that are not an object"),  # AttributeError
    (lambda text: text.replace('{\n   "bytes"', '7, "x": {\n   "bytes"', 1),     # TypeError
     "is not {\"bytes\""),
    (lambda text: text.replace('"format": 1', '"format": "1"'), "format that is not a number"),
    (lambda text: text.replace('"sha256": "', '"sha256": "z', 1), "is not {\"bytes\""),
    (lambda text: "[" * 100_000, "unreadable"),                                   # RecursionError
    (lambda text: "\"" + "\\ud800" * 3 + "\"", "not a manifest"),
])
def test_a_manifest_of_another_shape_is_said_in_one_line_and_the_tables_built_again(
        tmp_path, monkeypatch, edit, what):
    """Issue 38 item 2: one changed byte in the manifest of the 3x3 tables
    ("bytes" -> "bytgs") crashed every patterns3 count with a KeyError
    until the cache was deleted; "files": [] with an AttributeError and an
    entry that is not an object with a TypeError."""
    from bandtables.cache import tables_dir
    d = tables_dir(3, tmp_path)
    manifest = d / MANIFEST
    manifest.write_text(edit(manifest.read_text()))
    with pytest.raises(DamagedTables):
        verify(d, 3)
    assert _said_once_and_rebuilt(tmp_path, 3, monkeypatch, what) == d


def test_a_fifo_in_place_of_the_manifest_is_damage_not_a_wait(
        tmp_path, monkeypatch, fails_instead_of_hanging):
    from bandtables.cache import tables_dir
    d = tables_dir(2, tmp_path)
    (d / MANIFEST).unlink()
    os.mkfifo(d / MANIFEST)
    _said_once_and_rebuilt(tmp_path, 2, monkeypatch, "manifest.json is a FIFO, not a regular file")


def test_a_fifo_in_place_of_a_table_is_damage_not_a_wait(
        tmp_path, monkeypatch, fails_instead_of_hanging):
    from bandtables.cache import tables_dir
    d = tables_dir(2, tmp_path)
    manifest = json.loads((d / MANIFEST).read_text())
    manifest["files"]["R2-T.npy"]["bytes"] = 0   # a FIFO's size: only its digest would read it
    (d / MANIFEST).write_text(json.dumps(manifest))
    (d / "R2-T.npy").unlink()
    os.mkfifo(d / "R2-T.npy")
    _said_once_and_rebuilt(tmp_path, 2, monkeypatch, "R2-T.npy is a FIFO, not a regular file")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@pytest.fixture(scope="module")
def built_2x3(tmp_path_factory):
    """The real tables of 2x3 and their manifest's text, built once for the properties below."""
    from bandtables.cache import tables_dir
    d = tables_dir(2, tmp_path_factory.mktemp("tables"))
    return d, (d / MANIFEST).read_text()


def _is_refused_in_one_line(d):
    try:
        verify(d, 2)
    except DamagedTables as e:
        assert "\n" not in str(e)
        return True
    return False


# any JSON, and objects of a manifest's keys holding any JSON, or entries holding any JSON
MANIFESTS = JSON | st.fixed_dictionaries({
    "format": st.just(1) | JSON,
    "files": JSON | st.dictionaries(
        st.sampled_from([f"R2-{name}.npy" for name in ("act", "T", "l")]) | st.text(max_size=8),
        JSON | st.fixed_dictionaries({"bytes": st.integers() | JSON,
                                      "sha256": st.just("0" * 64) | JSON}), max_size=4)})


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(manifest=MANIFESTS)
def test_any_json_as_the_manifest_is_damage_said_in_one_line(built_2x3, manifest):
    d, original = built_2x3
    try:
        (d / MANIFEST).write_text(json.dumps(manifest))
        assert _is_refused_in_one_line(d)
    finally:
        (d / MANIFEST).write_text(original)


def _paths(value, path=()):
    """Every path of keys and indices into a JSON value, the value's own () first."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_one_part_of_a_real_manifest_replaced_or_renamed_is_damage_or_harmless(
        built_2x3, data):
    """A value anywhere in the manifest replaced by any JSON, or a key renamed:
    refused in one line, or (the same value put back) still verified."""
    d, original = built_2x3
    manifest = json.loads(original)
    path = data.draw(st.sampled_from(list(_paths(manifest))[1:]))
    parent = manifest
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        parent[path[-1]] = data.draw(JSON)
    else:
        parent[data.draw(st.text(max_size=8))] = parent.pop(path[-1])
    try:
        (d / MANIFEST).write_text(json.dumps(manifest))
        assert _is_refused_in_one_line(d) or manifest == json.loads(original)
    finally:
        (d / MANIFEST).write_text(original)


# --- issue 38 item 7: what a killed build leaves is removed -----------------

def _killed_while_replacing(root, at):
    """Rebuild the (damaged) 2x3 tables under ``root``, killed (SIGKILL) at ``at``."""
    import bandtables.cache
    real_rename, real_rmtree = Path.rename, shutil.rmtree

    def rename(self, target):
        if at == "between the two renames" and ".build-" in self.name:
            os.kill(os.getpid(), signal.SIGKILL)
        return real_rename(self, target)

    def rmtree(path, *args, **kwargs):
        if at == "before the old cache is removed" and ".old-" in Path(path).name:
            os.kill(os.getpid(), signal.SIGKILL)
        return real_rmtree(path, *args, **kwargs)
    Path.rename, shutil.rmtree = rename, rmtree
    bandtables.cache.forget_checked()
    bandtables.cache.tables_dir(2, root, say=lambda m: None)


@pytest.mark.parametrize("at", ["between the two renames", "before the old cache is removed"])
def test_the_old_cache_a_build_killed_while_replacing_it_left_is_removed(tmp_path, monkeypatch,
                                                                         at):
    """Issue 38: a kill between the build's two renames left
    ``bandtables3-v1.old-PID`` for ever."""
    import bandtables.cache
    from bandtables.cache import tables_dir
    d = tables_dir(2, tmp_path)
    data = bytearray((d / "R2-T.npy").read_bytes())
    data[-1] ^= 1
    (d / "R2-T.npy").write_bytes(bytes(data))
    ctx = multiprocessing.get_context("fork")
    p = ctx.Process(target=_killed_while_replacing, args=(tmp_path, at))
    p.start()
    p.join(timeout=60)
    assert p.exitcode == -signal.SIGKILL
    assert (tmp_path / f"{d.name}.old-{p.pid}").is_dir()
    bandtables.cache.forget_checked()     # the next run
    assert tables_dir(2, tmp_path, say=lambda m: None) == d
    verify(d, 2)
    assert sorted(q.name for q in tmp_path.iterdir()) == [d.name, f"{d.name}.lock"]


def test_a_file_in_place_of_the_cache_directory_is_replaced_and_leaves_nothing(tmp_path):
    from bandtables.cache import tables_dir, tables_path
    d = tables_path(2, tmp_path)
    d.parent.mkdir(parents=True, exist_ok=True)
    d.write_text("not a directory")
    said = []
    assert tables_dir(2, tmp_path, say=said.append) == d
    verify(d, 2)
    assert len(said) == 1 and "damaged" in said[0]
    assert sorted(q.name for q in tmp_path.iterdir()) == [d.name, f"{d.name}.lock"]
