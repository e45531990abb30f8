"""counting/store/exchange.py: finished units leave one store as a checked
units export and enter another from it (issue 26, item 3)."""
import hashlib
import json
from pathlib import Path

import pytest

from counting.store.database import Store
from counting.store.exchange import UnitsExport, merge_paths, units_export
from counting.store.format import ConflictError, CorruptStoreError, ForeignStoreError

from store_samples import BIG, assert_one_line_naming, make_job, make_result, write_store


@pytest.fixture
def exported(tmp_path, job):
    """A store of units 0-4 (one count > 2**72) and its units export."""
    db, path = tmp_path / "s.sqlite", tmp_path / "done.json"
    write_store(db, job, [0, 1, 2, 3])
    with Store.open(db, writable=True) as st:
        st.record(make_result(4, count=BIG))
        path.write_text(units_export(st))
    return db, path


def _units(path):
    with Store.open(path) as st:
        return st.results()


def test_an_export_carries_the_job_and_every_unit_with_its_checksum(exported, job):
    db, path = exported
    doc = json.loads(path.read_text())
    assert doc["format"] == "gridcount-units" and doc["format_version"] == 2
    assert doc["job"] == {"shape": job.shape, "reduction": job.reduction,
                          "n_units": job.n_units, "engine_version": job.engine_version}
    assert [u["unit_id"] for u in doc["units"]] == [0, 1, 2, 3, 4]
    assert doc["units"][4]["count"] == str(BIG)
    assert all(len(u["checksum"]) == 16 for u in doc["units"])
    export = UnitsExport.read(path)
    assert export.job == job and export.results() == _units(db)


def test_an_export_enters_a_missing_target_as_a_new_store_of_its_job(exported, tmp_path, job):
    db, path = exported
    target = tmp_path / "elsewhere.sqlite"
    assert merge_paths(target, [path]) == [(path, 5, 0)]
    with Store.open(target) as st:
        assert st.job == job and st.results() == _units(db)


def test_importing_twice_counts_nothing_twice(exported, tmp_path):
    db, path = exported
    target = tmp_path / "t.sqlite"
    write_store(target, make_job(), [3, 7])
    assert merge_paths(target, [path]) == [(path, 4, 1)]
    assert merge_paths(target, [path, path]) == [(path, 0, 5), (path, 0, 5)]
    assert [r.unit_id for r in _units(target)] == [0, 1, 2, 3, 4, 7]


def test_a_unit_with_another_count_in_the_target_is_refused(exported, tmp_path):
    db, path = exported
    target = tmp_path / "t.sqlite"
    write_store(target, make_job(), [2], count=5)
    with pytest.raises(ConflictError, match="unit 2: 5 here vs ") as exc:
        merge_paths(target, [path])
    assert_one_line_naming(exc, path)
    assert [r.unit_id for r in _units(target)] == [2]


def _edit(path, change):
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("damage, says", [
    (lambda d: d["units"][1].update(count=str(int(d["units"][1]["count"]) + 1)),
     "unit 1 in {path} is damaged or was edited"),
    (lambda d: d["units"].pop(2), "a unit was removed"),
    (lambda d: d["units"][0].pop("worker"), "unit 0 in {path} is damaged or was edited"),
    (lambda d: d["units"][3].update(nodes="-1"), "unit 3 in {path} has an unreadable nodes"),
    (lambda d: d["job"].update(n_units=-1), "its job is unreadable"),
    # issue 38 check: said "JobInfo.__init__() got an unexpected keyword argument 'note'"
    (lambda d: d["job"].update(note="x"),
     r"its job's fields are engine_version, n_units, note, reduction, shape \(not engine_"),
    (lambda d: d["job"].pop("shape"), r"its job's fields are engine_version, n_units, reduction "),
    (lambda d: d.update(job=["2x2"]), "its job is not an object"),
])
def test_a_damaged_export_is_refused_naming_what(exported, tmp_path, damage, says):
    db, path = exported
    _edit(path, damage)
    target = tmp_path / "t.sqlite"
    with pytest.raises(CorruptStoreError, match=says.format(path=path)) as exc:
        merge_paths(target, [path])
    assert_one_line_naming(exc, path)
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == \
        ["done.json", "s.sqlite"]


def test_a_truncated_export_is_refused(exported, tmp_path):
    db, path = exported
    path.write_text(path.read_text()[:-200])
    with pytest.raises(CorruptStoreError, match="damaged units export") as exc:
        merge_paths(tmp_path / "t.sqlite", [path])
    assert_one_line_naming(exc, path)


def test_an_export_of_another_job_is_refused(exported, tmp_path):
    db, path = exported
    target = tmp_path / "t.sqlite"
    write_store(target, make_job(n_units=41), [0])
    with pytest.raises(ForeignStoreError, match="n_units is 40 there but 41 here") as exc:
        merge_paths(target, [path])
    assert_one_line_naming(exc, path)


def test_a_file_that_is_no_export_is_refused(tmp_path):
    for text in ("hello", '{"format": "something else"}', "unit_id,count\n"):
        (tmp_path / "x.json").write_text(text)
        with pytest.raises(ForeignStoreError) as exc:
            merge_paths(tmp_path / "t.sqlite", [tmp_path / "x.json"])
        assert_one_line_naming(exc, tmp_path / "x.json")
    assert not (tmp_path / "t.sqlite").exists()


def test_a_store_of_format_1_is_not_exported_unchecked(tmp_path, job):
    from counting.store.format import StoreError
    from store_samples import write_format_1_store
    db = tmp_path / "old.sqlite"
    write_format_1_store(db, job, [make_result(0, worker="")])
    with Store.open(db) as st, pytest.raises(StoreError, match="no checksums") as exc:
        units_export(st)
    assert_one_line_naming(exc, db)


def test_a_merge_into_one_of_its_sources_is_refused(exported, tmp_path):
    from counting.store.exchange import SameFileError
    db, path = exported
    (tmp_path / "link.sqlite").symlink_to(db)
    for target in (db, tmp_path / "link.sqlite"):
        with pytest.raises(SameFileError, match="it is the target itself") as exc:
            merge_paths(target, [path, db])
        assert_one_line_naming(exc, db)


# ---------------------------------------------------------------------------
# Every field of the job is checked (issue 38, item 4).

def test_an_export_whose_job_engine_version_was_edited_is_refused(exported, tmp_path):
    # its engine_version was outside units_checksum: set to "zzz", the export
    # made a new store of engine zzz, which count then refused
    db, path = exported
    _edit(path, lambda d: d["job"].update(engine_version="zzz"))
    target = tmp_path / "t.sqlite"
    with pytest.raises(CorruptStoreError, match="its units_checksum does not match its job") \
            as exc:
        merge_paths(target, [path])
    assert_one_line_naming(exc, path)
    assert not target.exists()


def _as_format_1(path):
    """Rewrite the export at ``path`` as format 1 wrote it: its units_checksum
    the SHA-256 of the job without its engine_version and the row checksums."""
    doc = json.loads(path.read_text())
    job = doc["job"]
    text = json.dumps(["gridcount-units", job["shape"], job["reduction"], job["n_units"],
                       [u["checksum"] for u in doc["units"]]], separators=(",", ":"))
    doc["format_version"] = 1
    doc["units_checksum"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    path.write_text(json.dumps(doc))


@pytest.fixture
def format_1(tmp_path):
    """A format-1 export of units 0-2 of a 3x3 job recorded by this gridcount's engine."""
    from counting.reduction import get_reduction
    from counting.store.format import JobInfo
    job = JobInfo("3x3", "71", get_reduction("3x3", "71").engine_version, 40)
    db, path = tmp_path / "s.sqlite", tmp_path / "old.json"
    write_store(db, job, [0, 1, 2])
    with Store.open(db) as st:
        path.write_text(units_export(st))
    _as_format_1(path)
    return path


def test_an_export_of_format_1_is_still_read(format_1, tmp_path):
    assert merge_paths(tmp_path / "t.sqlite", [format_1]) == [(format_1, 3, 0)]


@pytest.mark.parametrize("engine", ["zzz", "1.0"])
def test_an_export_of_format_1_with_another_engine_version_is_refused(format_1, tmp_path,
                                                                       engine):
    # format 1's checksum does not cover engine_version: it is checked
    # against what this gridcount records for the job instead
    _edit(format_1, lambda d: d["job"].update(engine_version=engine))
    _as_format_1(format_1)          # its checksum right under the old rule
    target = tmp_path / "t.sqlite"
    with pytest.raises(CorruptStoreError, match=f"format 1.*{engine!r}, where this gridcount "
                                                f"records") as exc:
        merge_paths(target, [format_1])
    assert_one_line_naming(exc, format_1)
    assert not target.exists()


def _committed_exports():
    results = Path(__file__).resolve().parents[3] / "results"
    found = []
    for path in sorted(results.glob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except ValueError:
            continue
        if isinstance(doc, dict) and doc.get("format") == "gridcount-units":
            found.append(path)
    return found


def test_the_committed_exports_are_found():
    assert len(_committed_exports()) >= 6


@pytest.mark.parametrize("path", _committed_exports(), ids=lambda p: p.name)
def test_every_committed_units_export_still_merges(path, tmp_path):
    n = len(json.loads(path.read_text())["units"])
    assert merge_paths(tmp_path / "t.sqlite", [path]) == [(path, n, 0)]


# ---------------------------------------------------------------------------
# A file nested too deeply for the JSON reader (issue 38, item 5).

@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000,
                                  '{"format": "gridcount-units", "job": ' + "[" * 100_000,
                                  '{"a": ' * 100_000 + "1" + "}" * 100_000],
                         ids=["arrays", "an-export-cut-short", "objects"])
def test_a_deeply_nested_json_is_refused_in_one_line(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises((ForeignStoreError, CorruptStoreError)) as exc:
        merge_paths(tmp_path / "t.sqlite", [path])
    assert_one_line_naming(exc, path)
    assert not (tmp_path / "t.sqlite").exists()
