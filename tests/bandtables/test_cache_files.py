"""Files of the cache opened without ever waiting (bandtables/cache_files.py):
a regular file is opened, anything else is refused in one line, never
waited on (issue 38: a FIFO at the memo path hung ``count 1x9``)."""
import os

import pytest

from bandtables.cache_files import NotARegularFile, open_regular


def test_a_regular_file_is_opened_for_reading_or_writing(tmp_path):
    path = tmp_path / "table.npy"
    path.write_bytes(b"abc")
    with open_regular(path) as f:
        assert f.read() == b"abc"
    with open_regular(path, "r+b") as f:
        f.write(b"x")
    assert path.read_bytes() == b"xbc"
    os.symlink(path, tmp_path / "link")                 # a link to one is one
    with open_regular(tmp_path / "link") as f:
        assert f.read() == b"xbc"


@pytest.mark.parametrize("what, make", [
    ("a FIFO", os.mkfifo),
    ("a directory", os.mkdir),
    ("a character device", lambda p: os.symlink("/dev/null", p)),
])
@pytest.mark.parametrize("mode", ["rb", "r+b"])
def test_anything_else_is_refused_in_one_line_without_waiting(
        tmp_path, fails_instead_of_hanging, what, make, mode):
    path = tmp_path / "manifest.json"
    make(path)
    with pytest.raises(NotARegularFile) as err:
        open_regular(path, mode)
    assert str(err.value) == f"{path} is {what}, not a regular file"


def test_nothing_there_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "missing")
