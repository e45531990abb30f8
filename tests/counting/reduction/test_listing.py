"""Specification of counting/reduction/listing.py: the wait of a slow
listing of units, read from the measurements scripts/measure_listing.py
writes (results/listing-seconds.json), and the line count says first."""
import pytest

from counting.reduction import listing
from counting.reduction.listing import (FORMAT, NOTICE_SECONDS, TABLES_FORMAT, listing_notice,
                                        measured_seconds, measured_table_seconds, tables_notice)
from listing_samples import measured, measured_tables


def test_a_listing_measured_slow_is_said_with_its_wait(tmp_path):
    path = measured(tmp_path / "m.json", ("3x3+centre", "kind-tables", 11.86))
    assert measured_seconds("3x3+centre", "kind-tables", path) == 11.86
    assert listing_notice("3x3+centre", "kind-tables", path) == (
        "listing the units of 3x3+centre (kind-tables) first: about 12 s of one core, as "
        "measured from an empty cache (results/listing-seconds.json) ...")


@pytest.mark.parametrize("text", ["", "{", '{"format": "other", "listings": []}',
                                  '{"format": "%s"}' % FORMAT, "[1, 2]",
                                  '{"format": "%s", "listings": [{"kind": "1x10"}]}' % FORMAT])
def test_a_damaged_or_foreign_file_says_nothing(tmp_path, text):
    (tmp_path / "m.json").write_text(text)
    assert listing_notice("1x10", "symmetry", tmp_path / "m.json") is None


def test_a_quick_or_unmeasured_listing_says_nothing(tmp_path):
    path = measured(tmp_path / "m.json", ("3x3", "71", NOTICE_SECONDS - 0.1),
                    ("1x10", "symmetry", float("nan")))
    assert listing_notice("3x3", "71", path) is None
    assert listing_notice("1x10", "symmetry", path) is None          # not a number of seconds
    assert listing_notice("3x3+x", "prefix-diagonals", path) is None  # not measured
    assert listing_notice("3x3", "71", tmp_path / "missing.json") is None


def test_the_measurements_kept_name_the_9x9_kind_tables_slow_and_3x3_quick():
    """results/listing-seconds.json, as the script wrote it."""
    assert measured_seconds("3x3+centre", "kind-tables", listing.FILE) >= NOTICE_SECONDS
    assert listing_notice("3x3+centre", "kind-tables") is not None
    assert listing_notice("3x3", "71") is None


def test_tables_measured_slow_are_said_with_their_wait_and_size(tmp_path):
    path = measured_tables(tmp_path / "t.json", ("3x3+centre", 30.25))
    assert measured_table_seconds("3x3+centre", path) == 30.25
    assert tables_notice("3x3+centre", 1, 152_409_600, path) == (
        "making the band tables of 3x3+centre first (1 table, 152 MB, kept in this "
        "machine's cache): about 30 s of one core, as measured from an empty cache "
        "(results/kind-tables-seconds.json) ...")


@pytest.mark.parametrize("text", ["", "{", '{"format": "%s", "tables": []}' % FORMAT,
                                  '{"format": "%s"}' % TABLES_FORMAT,
                                  '{"format": "%s", "tables": [{"kind": "3x3+centre"}]}'
                                  % TABLES_FORMAT])
def test_a_damaged_or_foreign_tables_file_says_nothing(tmp_path, text):
    (tmp_path / "t.json").write_text(text)
    assert tables_notice("3x3+centre", 1, 1, tmp_path / "t.json") is None


def test_quick_or_unmeasured_tables_say_nothing(tmp_path):
    path = measured_tables(tmp_path / "t.json", ("2x3", NOTICE_SECONDS - 0.1))
    assert tables_notice("2x3", 1, 180, path) is None
    assert tables_notice("3x3+asterisk", 1, 1, path) is None          # not measured
    assert tables_notice("2x3", 1, 1, tmp_path / "missing.json") is None
    assert tables_notice("2x3", 2, 1_440, measured_tables(tmp_path / "s.json", ("2x3", 6))) \
        .startswith("making the band tables of 2x3 first (2 tables, 1,440 bytes, ")


def test_the_measurements_kept_name_the_9x9_kind_tables_slow():
    """results/kind-tables-seconds.json, as the script wrote it (--tables)."""
    for kind in ("3x3+centre", "3x3+girandola", "3x3+asterisk"):
        assert measured_table_seconds(kind) >= NOTICE_SECONDS
        assert tables_notice(kind, 1, 152_409_600) is not None
