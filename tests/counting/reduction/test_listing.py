"""Specification of counting/reduction/listing.py: the wait of a slow
listing of units, read from the measurements scripts/measure_listing.py
writes (results/listing-seconds.json), and the line count says first."""
import pytest

from counting.reduction import listing
from counting.reduction.listing import FORMAT, NOTICE_SECONDS, listing_notice, measured_seconds
from listing_samples import measured


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
