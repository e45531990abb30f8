"""Specification of the kind band tables' cache (bandtables/kind_cache.py, issue 35): the
tables and the band-1 orbits made once per machine, checked by digests, mapped read-only.

The kinds are 6×6 (plain 2x3 and a house of one cell per box from
``tests/one_house_samples.py``), whose tables take a fraction of a second: what is
tested is the cache around them, and each count against brute force.
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from bandtables.cache import MANIFEST, DamagedTables
from bandtables.kind_cache import (cached_arrays, entry_path, kind_cache_path,
                                   verify_entry)
import bandtables.kind_tables
from bandtables.kind_tables import METHOD, KindBandTables
from cache_damage import DAMAGE, damage
from lock_waits import needs_proc_locks
from one_house_samples import six, six_brute_total

REPO = Path(__file__).resolve().parents[2]
TOTAL_2X3 = 28_200_960
KINDS = {"2x3": ("'2x3'", TOTAL_2X3), "scattered": ("six('scattered')", None)}

# Count a kind in a fresh process with the cache under argv[1]; print the total
COUNT = textwrap.dedent("""
    import os, sys
    os.environ["XDG_CACHE_HOME"] = sys.argv[1]
    from bandtables.kind_tables import KindBandTables
    from one_house_samples import six
    kt = KindBandTables(eval(sys.argv[2]))
    print(kt.factor * kt.count(*kt.orbits))
""")


def env() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests")]))


def count_in_a_process(home: Path, kind: str) -> int:
    out = subprocess.run([sys.executable, "-c", COUNT, str(home), kind], env=env(),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def entries(home: Path) -> dict[str, tuple[int, int]]:
    """Each entry of the cache: (inode of its directory, mtime of its manifest)."""
    return {d.name: (d.stat().st_ino, (d / MANIFEST).stat().st_mtime_ns)
            for d in kind_cache_path(home / "gridcount").iterdir() if d.is_dir()}


def total(kind: str) -> int:
    text, known = KINDS[kind]
    return known if known is not None else six_brute_total(kind)


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_count_is_the_same_cold_and_warm_and_the_warm_one_makes_nothing(tmp_path, kind):
    cold = count_in_a_process(tmp_path, KINDS[kind][0])
    made = entries(tmp_path)
    assert {name.split("-")[0] for name in made} == {"table", "orbits"}
    warm = count_in_a_process(tmp_path, KINDS[kind][0])
    assert cold == warm == total(kind)
    assert entries(tmp_path) == made          # read, not made again (same files, untouched)
    assert not [p for p in kind_cache_path(tmp_path / "gridcount").iterdir()
                if ".build-" in p.name or ".old-" in p.name]


def test_the_tables_and_orbits_are_mapped_read_only(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kt = KindBandTables(six("scattered"))
    keys, mults = kt.orbits
    kt.build_tables()
    for a in (keys, mults, kt.tables["W2"], kt.tables["W3"]):
        assert isinstance(a, np.memmap) and not a.flags.writeable


def flip_a_byte(path: Path) -> None:
    """Flip one bit of the first non-zero entry of the array in ``path`` (read by any
    count that reads the file at all)."""
    at = np.load(path, mmap_mode="r")
    first = int(np.flatnonzero(at)[0]) * at.itemsize + path.stat().st_size - at.nbytes
    del at
    data = bytearray(path.read_bytes())
    data[first] ^= 1
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("what, array", [("table", "W"), ("orbits", "mults"),
                                         ("orbits", "keys")])
def test_a_damaged_entry_is_said_in_one_line_and_made_again_never_believed(
        tmp_path, monkeypatch, capsys, what, array):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a"))
    kt = KindBandTables(six("scattered"))
    assert kt.factor * kt.count(*kt.orbits) == six_brute_total("scattered")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    d = min(p for p in kind_cache_path(tmp_path / "b" / "gridcount").glob(f"{what}-*")
            if p.is_dir())
    flip_a_byte(d / f"{array}.npy")
    with pytest.raises(DamagedTables, match=f"{array}.npy does not match its SHA-256"):
        verify_entry(d, what, ast.literal_eval(json.loads((d / MANIFEST).read_text())["key"]),
                     method=METHOD)
    capsys.readouterr()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "b"))
    kt = KindBandTables(six("scattered"))
    assert kt.factor * kt.count(*kt.orbits) == six_brute_total("scattered")
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and f"the cached {what} is damaged" in said[0]
    assert f"{array}.npy" in said[0]
    assert not list(d.parent.glob("*.old-*")) and not list(d.parent.glob("*.build-*"))


def test_a_foreign_entry_in_the_place_of_another_is_made_again(tmp_path):
    said = []
    cached_arrays("demo", "one", lambda: {"x": np.arange(3)}, method=1, root=tmp_path)
    cached_arrays("demo", "two", lambda: {"x": np.arange(5)}, method=1, root=tmp_path / "b")
    shutil.rmtree(entry_path("demo", "two", tmp_path / "b", method=1))
    shutil.copytree(entry_path("demo", "one", tmp_path, method=1),
                    entry_path("demo", "two", tmp_path / "b", method=1))
    # a fresh root name, so this process has not checked it yet
    shutil.move(tmp_path / "b", tmp_path / "c")
    got = cached_arrays("demo", "two", lambda: {"x": np.arange(5)}, method=1, root=tmp_path / "c",
                        say=said.append)
    assert got["x"].tolist() == [0, 1, 2, 3, 4]
    assert len(said) == 1 and "is of key \"'one'\", not \"'two'\"" in said[0]


# --- review of issue 35: an entry is keyed by the version of the method that made it ---

def test_an_entry_of_another_version_of_the_method_is_another_entry(tmp_path):
    """The cache keyed an entry by what it was made from only: arrays made by an
    older version of the code, of another meaning, were read as this version's."""
    old = cached_arrays("demo", 7, lambda: {"x": np.arange(3)}, method=1, root=tmp_path)
    new = cached_arrays("demo", 7, lambda: {"x": np.arange(5)}, method=2, root=tmp_path)
    assert old["x"].tolist() == [0, 1, 2] and new["x"].tolist() == [0, 1, 2, 3, 4]
    assert entry_path("demo", 7, tmp_path, method=1) != entry_path("demo", 7, tmp_path, method=2)
    # method 1's entry in method 2's place is foreign: refused, never read as method 2's
    d2 = entry_path("demo", 7, tmp_path, method=2)
    shutil.rmtree(d2)
    shutil.copytree(entry_path("demo", 7, tmp_path, method=1), d2)
    with pytest.raises(DamagedTables, match="manifest.json is of method 1, not 2"):
        verify_entry(d2, "demo", 7, method=2)


def test_orbits_cached_by_another_version_of_the_kind_tables_are_listed_again(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    keys, mults = KindBandTables(six("scattered")).orbits
    listed = []
    real = bandtables.kind_tables.band1_orbits
    monkeypatch.setattr(bandtables.kind_tables, "band1_orbits",
                        lambda *a: listed.append(1) or real(*a))
    KindBandTables(six("scattered")).orbits           # this version's entry: read
    assert listed == []
    monkeypatch.setattr(bandtables.kind_tables, "METHOD", METHOD + 1)
    again, _ = KindBandTables(six("scattered")).orbits
    assert listed == [1] and again.tolist() == keys.tolist()
    assert len([d for d in kind_cache_path(tmp_path / "gridcount").glob("orbits-*")
                if d.is_dir()]) == 2


@pytest.mark.parametrize("how", DAMAGE)
def test_every_kind_of_damage_is_refused_by_the_check(tmp_path, how):
    cached_arrays("demo", 7, lambda: {"x": np.arange(100)}, method=1, root=tmp_path)
    d = entry_path("demo", 7, tmp_path, method=1)
    damage(d, "x.npy", how)
    with pytest.raises(DamagedTables) as e:
        verify_entry(d, "demo", 7, method=1)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("field, value, said", [
    ("method", True, "has a method that is not a number"),     # True == 1 in Python
    ("format", 2.0, "has a format that is not a number"),
    ("key", 7, "has a key that is not a string"),
])
def test_a_manifest_field_of_another_type_is_refused_though_equal_in_python(
        tmp_path, field, value, said):
    """The kind cache compared its manifest's fields with ``!=`` only: an entry whose
    method read ``true`` was method 1's; it is checked as the band tables' manifest is
    (one read_manifest in bandtables/cache_files.py)."""
    cached_arrays("demo", 7, lambda: {"x": np.arange(4)}, method=1, root=tmp_path)
    d = entry_path("demo", 7, tmp_path, method=1)
    m = json.loads((d / MANIFEST).read_text())
    m[field] = value
    (d / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(DamagedTables, match=said):
        verify_entry(d, "demo", 7, method=1)


# One of two processes asking for one entry at once (argv: root, log).  Its build goes on
# only once the other is seen building too (a missing lock) or blocked on the lock, so
# the two have met at the cache on a machine of any speed.
BUILDER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    import numpy as np
    from bandtables.kind_cache import cached_arrays
    from lock_waits import meet_at_the_cache
    root, log = Path(sys.argv[1]), Path(sys.argv[2])
    seen = log.parent / "processes"

    def build():
        with open(log, "a") as fh:
            fh.write("built\\n")
        meet_at_the_cache(seen, 2)
        return {"W": np.arange(1000, dtype=np.uint16) * 3}
    (seen / f"asking-{os.getpid()}").touch()
    print(int(cached_arrays("table", (3, "x"), build, method=1, root=root)["W"].sum()))
""")


@needs_proc_locks
def test_two_processes_asking_at_once_make_one_good_entry(tmp_path):
    log = tmp_path / "builds.log"
    (tmp_path / "processes").mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", BUILDER, str(tmp_path / "c"), str(log)],
                              stdout=subprocess.PIPE, text=True, env=env()) for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs == [str(3 * 999 * 1000 // 2)] * 2
    assert log.read_text() == "built\n"          # the other waited and mapped the result
    d = entry_path("table", (3, "x"), tmp_path / "c", method=1)
    assert verify_entry(d, "table", (3, "x"), method=1) == ["W"]
    assert sorted(p.name for p in d.parent.iterdir()) == [d.name, f"{d.name}.lock"]


def test_where_no_cache_can_be_written_the_arrays_are_made_in_the_process_and_said(tmp_path):
    (tmp_path / "home").write_text("a file where the cache directory would be")
    said, made = [], []

    def build():
        made.append(1)
        return {"x": np.arange(4)}
    for _ in range(2):
        got = cached_arrays("demo", 1, build, method=1, root=tmp_path / "home",
                            say=said.append)
        assert got["x"].tolist() == [0, 1, 2, 3]
    assert len(made) == 1 and len(said) == 1
    assert "the kind tables' cache cannot be used" in said[0] and "in this process" in said[0]
