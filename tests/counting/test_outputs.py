"""counting/outputs.py: what a command may write, and writing it all or not at all."""
import errno
import os

import pytest

from counting import outputs
from counting.outputs import OutputError, check_outputs, write_atomic

from store_samples import make_job, write_store


@pytest.fixture
def store_file(tmp_path):
    db = tmp_path / "s.sqlite"
    write_store(db, make_job(), [0, 1])
    return db


def test_an_output_that_is_the_input_is_refused_however_it_is_spelled(tmp_path, store_file):
    (tmp_path / "link.sqlite").symlink_to(store_file)
    os.link(store_file, tmp_path / "hard.sqlite")
    for spelling in (store_file, tmp_path / "." / "s.sqlite", tmp_path / "link.sqlite",
                     tmp_path / "hard.sqlite"):
        with pytest.raises(OutputError, match="which this command reads") as exc:
            check_outputs([store_file], [spelling])
        assert "\n" not in str(exc.value) and str(spelling) in str(exc.value)


def test_a_directory_a_fifo_and_a_device_are_refused(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OutputError, match="is a directory"):
        check_outputs([], [tmp_path])
    with pytest.raises(OutputError, match="not a regular file"):
        check_outputs([], [tmp_path / "fifo"])
    with pytest.raises(OutputError, match="kernel file system"):
        check_outputs([], ["/dev/null"])


def test_proc_and_sys_are_refused(tmp_path):
    for path in ("/proc/gridcount.csv", "/sys/gridcount.csv", "/proc/version"):
        with pytest.raises(OutputError, match="kernel file system"):
            check_outputs([], [path])


def test_a_store_is_never_replaced_by_a_text_output(store_file):
    with pytest.raises(OutputError, match="is an SQLite database"):
        check_outputs([], [store_file])


def test_two_outputs_naming_one_file_are_refused(tmp_path):
    (tmp_path / "x").symlink_to(tmp_path / "y")
    with pytest.raises(OutputError, match="also named as another output"):
        check_outputs([], [tmp_path / "a.csv", tmp_path / "a.csv"])
    with pytest.raises(OutputError, match="also named as another output"):
        check_outputs([], [tmp_path / "x", tmp_path / "y"])


def test_a_missing_directory_is_named(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        check_outputs([], [tmp_path / "no" / "a.csv"])


def test_ordinary_outputs_pass(tmp_path, store_file):
    (tmp_path / "old.csv").write_text("old")
    check_outputs([store_file, None], [tmp_path / "old.csv", tmp_path / "new.json", None])


def test_write_atomic_writes_every_file(tmp_path):
    write_atomic({tmp_path / "a": "A", tmp_path / "b": b"B"})
    assert (tmp_path / "a").read_text() == "A" and (tmp_path / "b").read_bytes() == b"B"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_a_full_disk_is_one_line_and_leaves_the_old_files_and_no_temporary(tmp_path,
                                                                            monkeypatch):
    (tmp_path / "a").write_text("old")
    real_write = os.write

    def write(fd, data):
        if len(data) > 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(outputs.os, "write", write)
    with pytest.raises(OutputError) as exc:
        write_atomic({tmp_path / "a": "new", tmp_path / "b": "much longer"})
    assert str(exc.value).startswith(f"cannot write {tmp_path / 'b'}: disk full (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]
    assert (tmp_path / "a").read_text() == "old"


def test_an_unwritable_place_is_one_line_and_leaves_nothing(tmp_path):
    with pytest.raises(OutputError, match="cannot write /proc/x.csv: "):
        write_atomic({"/proc/x.csv": "x"})
    assert not any(n.startswith(".x.csv") for n in os.listdir("/proc"))
