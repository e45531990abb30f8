"""counting/store/exchange.py: finished units leave one store as a checked
units export and enter another from it (issue 26, item 3)."""
import json

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
    assert doc["format"] == "gridcount-units" and doc["format_version"] == 1
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
