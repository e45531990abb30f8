"""What every command that reads a store says when given something that is
not one (a text file, an empty file, a directory, a device, nothing), or the
store of a job this gridcount does not make: one line, exit code 2, like
every other refusal of the CLI (a store of another job for ``count``, a store
being counted), and nothing written.  A damaged store stays exit code 1 (a
failure to read what is there, not a refusal of what was given).

Issue 38 check: ``status``, ``export``, ``report`` and ``recount`` said these
with exit code 1, as did ``count --db`` and ``merge`` of a file that is not a
store, while ``count`` refused another job's store with exit code 2."""
import os
import stat

import pytest
from click.testing import CliRunner

from counting.cli import cli

from store_cli_samples import store_of_an_older_reduction

READERS = {
    "status": ["status"],
    "export": ["export", "--units", "u.json"],
    "report": ["report", "-o", "r.md"],
    "recount": ["recount", "-k", "1"],
    "merge": ["merge", "target.sqlite"],      # the input is merge's source
}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _not_a_store(tmp_path, given):
    """A path in ``tmp_path`` (or a device) that is not a store, and what the
    refusal says of it."""
    if given == "text":
        p = tmp_path / "notes.sqlite"
        p.write_text("hello, not a database\n")
        return p, "is not a gridcount store"
    if given == "empty":
        p = tmp_path / "empty.sqlite"
        p.write_bytes(b"")
        return p, "is an empty file"
    if given == "directory":
        p = tmp_path / "dir.sqlite"
        p.mkdir()
        return p, "is a directory"
    if given == "device":
        return "/dev/null", "is not a regular file"
    return tmp_path / "nope.sqlite", "no such"


@pytest.mark.parametrize("given", ["text", "empty", "directory", "device", "missing"])
@pytest.mark.parametrize("command", READERS)
def test_an_input_that_is_not_a_store_is_refused_in_one_line(tmp_path, monkeypatch,
                                                            command, given):
    monkeypatch.chdir(tmp_path)
    path, says = _not_a_store(tmp_path, given)
    if command == "merge" and given == "directory":
        says = "is a directory"     # click's own refusal of a directory source (exit 2 too)
    elif command == "merge" and given in ("text", "empty"):
        says = "is neither a gridcount store nor a units export"
    before = sorted(os.listdir(tmp_path))
    res = invoke(*READERS[command], path)
    assert res.exit_code == 2, res.output
    (line,) = res.output.strip().splitlines()[-1:]
    assert says in line and "Traceback" not in res.output
    if command != "merge" or given != "directory":
        assert len(res.output.strip().splitlines()) == 1, res.output
    assert sorted(os.listdir(tmp_path)) == before      # nothing written


@pytest.mark.parametrize("given", ["text", "directory", "device"])
def test_count_given_a_db_that_is_not_a_store_refuses_it(tmp_path, given):
    path, says = _not_a_store(tmp_path, given)
    if given == "directory":
        says = "is a directory"     # click's own refusal (exit 2 too)
    res = invoke("count", "2x3", "-q", "-w", "1", "--db", path)
    assert res.exit_code == 2 and says in res.output, res.output
    if given != "directory":
        assert stat.S_ISCHR(os.stat(path).st_mode) or \
            path.read_text() == "hello, not a database\n"     # left as it was


@pytest.mark.parametrize("command", ["status", "export", "report", "recount"])
def test_a_store_of_a_job_this_gridcount_makes_otherwise_is_refused(tmp_path, monkeypatch,
                                                                    command):
    # a store made when the reduction made another number of units: its unit
    # ids name other units now, so it is another job's (merge moves its rows
    # as they are, into a store of that same old job: it needs no reduction)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "old.sqlite"
    job = store_of_an_older_reduction(db)
    res = invoke(*READERS[command], db)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "the reduction has changed since" in res.output and "damaged" not in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]   # nothing written


@pytest.mark.parametrize("command", ["status", "export", "report", "recount"])
def test_a_layer_jobs_store_is_refused_by_name(tmp_path, monkeypatch, command):
    """Issue 36: the store of scripts/run_layer_job.py is gridcount's own
    file; the refusal names it and what runs it, not its tables."""
    from factorization.layer_store import LayerStore
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "2x3-layers.sqlite"
    with LayerStore.open(db, C=3, unit_states=2_000) as store:
        store.put(1, 0, 1, "p" * 64, {(3, 5, 48, 56, 15, 17): (6, 2)})
    res = invoke(*READERS[command], db)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert res.output.strip() == (
        f"Error: {db} is a layer job's store (C = 3 stacks, 2,000 states a unit: "
        f"scripts/run_layer_job.py runs and resumes it), not a gridcount count store")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2x3-layers.sqlite"]   # nothing written
