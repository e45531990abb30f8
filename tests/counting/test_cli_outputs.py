"""Every command that writes a file refuses, before writing anything, an
output that is its input, a store, a directory, a device or a FIFO, and
two outputs that are one file (counting/outputs.py through counting/cli/)."""
import os

import pytest
from click.testing import CliRunner

from counting.cli import cli
from counting.store.database import Store

from store_samples import make_job, write_store


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "s.sqlite"
    write_store(path, make_job(710), [0, 1, 2])
    return path


def assert_refused_and_intact(res, db, before):
    assert res.exit_code == 2, res.output
    assert res.output.startswith("Error: refusing to write ")
    assert len(res.output.strip().splitlines()) == 1
    assert db.read_bytes() == before
    with Store.open(db) as st:
        assert [r.unit_id for r in st.results()] == [0, 1, 2]


@pytest.mark.parametrize("args", [
    ["export", "{db}", "--csv", "{db}"],
    ["export", "{db}", "--summary", "{db}"],
    ["export", "{db}", "--csv", "{link}"],
    ["export", "{db}", "--summary", "{hard}"],
    ["report", "{db}", "-o", "{db}"],
    ["report", "{db}", "--format", "md", "-o", "{link}"],
    ["verify", "--shapes", "1x1", "--report", "{db}"],
])
def test_a_command_never_overwrites_the_store(tmp_path, db, args):
    (tmp_path / "link.sqlite").symlink_to(db)
    os.link(db, tmp_path / "hard.sqlite")
    before = db.read_bytes()
    names = {"db": db, "link": tmp_path / "link.sqlite", "hard": tmp_path / "hard.sqlite"}
    res = invoke(*[a.format(**names) for a in args])
    assert_refused_and_intact(res, db, before)


def test_csv_and_summary_in_one_file_are_refused(tmp_path, db):
    before = db.read_bytes()
    res = invoke("export", db, "--csv", tmp_path / "x", "--summary", tmp_path / "x")
    assert_refused_and_intact(res, db, before)
    assert not (tmp_path / "x").exists()


def test_a_fifo_or_a_directory_as_output_is_refused_at_once(tmp_path, db,
                                                           fails_instead_of_hanging):
    os.mkfifo(tmp_path / "fifo")
    before = db.read_bytes()
    assert_refused_and_intact(invoke("export", db, "--csv", tmp_path / "fifo"), db, before)
    assert_refused_and_intact(invoke("report", db, "-o", tmp_path / "fifo"), db, before)
    assert (tmp_path / "fifo").is_fifo()
    for command in (["export", db, "--csv"], ["report", db, "-o"]):  # click's own refusal
        res = invoke(*command, tmp_path)
        assert res.exit_code == 2 and "is a directory" in res.output
        assert db.read_bytes() == before


@pytest.mark.parametrize("place", ["/proc", "/sys"])
def test_output_to_proc_or_sys_is_one_line_and_leaves_nothing(db, place):
    before = set(os.listdir(place))
    res = invoke("export", db, "--csv", f"{place}/gridcount.csv")
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert place in res.output
    assert set(os.listdir(place)) == before
