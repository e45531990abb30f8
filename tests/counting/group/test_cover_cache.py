"""A kind's full-group comparison kept on disk (counting/group/cover_cache.py):
computed once, read back as it was written, and never believed when the
file is damaged, edited, another kind's, or not a regular file."""
import json
import os

import pytest

from counting.group import cover_cache
from counting.group.cover_automorphisms import Comparison
from counting.group.cover_cache import cache_path, cached_compare, read_cached, write_cached
from grids.kind import as_kind

SUDOKU_P = Comparison(as_kind("3x3+disjoint"), 10_368 * 362_880, 2_592 * 362_880,
                      (("rows", "boxes"), ("columns", "boxes")))


class Counting:
    """A stand-in for ``compare`` that counts its calls."""

    def __init__(self, result=SUDOKU_P):
        self.calls, self.result = 0, result

    def __call__(self, kind):
        self.calls += 1
        return self.result


def test_a_comparison_is_computed_once_then_read(tmp_path):
    compute = Counting()
    assert cached_compare("3x3+disjoint", tmp_path, compute) == SUDOKU_P
    assert cached_compare("3x3+disjoint", tmp_path, compute) == SUDOKU_P
    assert compute.calls == 1


@pytest.mark.parametrize("c", [
    SUDOKU_P,
    Comparison(as_kind("3x3"), 3_359_232 * 362_880, 3_359_232 * 362_880, ()),
    Comparison(as_kind("4x4+x"), 123_456, None, None, "too large to search"),
])
def test_what_is_written_is_what_is_read(tmp_path, c):
    assert write_cached(c, tmp_path)
    assert read_cached(c.kind, tmp_path) == c


def test_the_file_is_named_by_the_kind_s_canonical_text(tmp_path):
    # "+x+windoku" and "+windoku+x" are one kind; "+x" another
    assert cache_path("3x3+x+windoku", tmp_path) == cache_path("3x3+windoku+x", tmp_path)
    assert cache_path("3x3+x", tmp_path) != cache_path("3x3+windoku+x", tmp_path)
    assert cache_path("3x3", tmp_path).parent == tmp_path / f"cover-groups-v{cover_cache.FORMAT}"


def _edit(path, **changes):
    doc = json.loads(path.read_text())
    doc.update(changes)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("damage", [
    "truncated", "not json", "edited order", "edited checksum", "another kind",
    "old format", "extra field", "empty", "too large", "order not a number", "nested deeply"])
def test_a_damaged_file_is_not_believed_and_is_computed_again(tmp_path, damage):
    write_cached(SUDOKU_P, tmp_path)
    path = cache_path("3x3+disjoint", tmp_path)
    text = path.read_text()
    if damage == "truncated":
        path.write_text(text[:len(text) // 2])
    elif damage == "not json":
        path.write_bytes(b"\xff\xfe not json")
    elif damage == "edited order":        # the checksum no longer matches
        _edit(path, full_order=str(20_736 * 362_880))
    elif damage == "edited checksum":
        _edit(path, sha256="0" * 64)
    elif damage == "another kind":        # a whole, checked file, of 3x3+x
        write_cached(Comparison(as_kind("3x3+x"), 96, 96, ()), tmp_path)
        path.write_text(cache_path("3x3+x", tmp_path).read_text())
    elif damage == "old format":
        doc = json.loads(text)
        doc["format"] = cover_cache.FORMAT + 1
        fields = {k: v for k, v in doc.items() if k != "sha256"}
        _edit(path, format=doc["format"], sha256=cover_cache.checksum(fields))
    elif damage == "extra field":
        _edit(path, note="hello")
    elif damage == "empty":
        path.write_text("")
    elif damage == "too large":
        path.write_text(text + " " * cover_cache.MAX_BYTES)
    elif damage == "nested deeply":       # within MAX_BYTES, too deep for the reader
        path.write_text("[" * 30_000 + "]" * 30_000)
    elif damage == "order not a number":
        doc = json.loads(text)
        doc["full_order"] = "-5"
        fields = {k: v for k, v in doc.items() if k != "sha256"}
        _edit(path, full_order="-5", sha256=cover_cache.checksum(fields))
    assert read_cached("3x3+disjoint", tmp_path) is None
    compute = Counting()
    assert cached_compare("3x3+disjoint", tmp_path, compute) == SUDOKU_P
    assert compute.calls == 1
    assert read_cached("3x3+disjoint", tmp_path) == SUDOKU_P     # written again, whole


def test_a_fifo_in_its_place_is_not_waited_on(tmp_path):
    path = cache_path("3x3+disjoint", tmp_path)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert read_cached("3x3+disjoint", tmp_path) is None


def test_a_cache_that_cannot_be_written_costs_only_the_computation(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    compute = Counting()
    assert cached_compare("3x3+disjoint", blocked, compute) == SUDOKU_P
    assert not write_cached(SUDOKU_P, blocked)
    assert compute.calls == 1


def test_the_cache_lives_in_the_user_s_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_path("3x3").is_relative_to(tmp_path / "gridcount")
