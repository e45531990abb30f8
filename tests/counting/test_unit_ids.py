"""Unit lists as people type and read them (counting/unit_ids.py)."""
import pytest

from counting.unit_ids import format_unit_list, parse_unit_list


def test_unit_lists_read_ranges_and_print_them_back():
    ids = parse_unit_list("7, 0-2,9-10,2", 11)
    assert ids == [0, 1, 2, 7, 9, 10]
    assert format_unit_list(ids) == "0-2,7,9-10"
    assert format_unit_list([]) == ""
    assert parse_unit_list(format_unit_list([3, 5, 6, 7]), 8) == [3, 5, 6, 7]


@pytest.mark.parametrize("width", [1, 12, 30, 80, 200])
def test_a_unit_list_cut_to_a_width_keeps_whole_ranges_and_counts_the_rest(width):
    ids = [u for u in range(300_000) if u % 7 and u % 11]     # scattered: about 39,000 ranges
    whole = format_unit_list(ids)
    text = format_unit_list(ids, width=width)
    shown, tail = text.split(",… and ")
    assert len(text) <= width or shown.count(",") == 0           # at least one range, always
    assert whole.startswith(shown + ",")                          # whole ranges, in order
    assert tail == f"{len(ids) - len(parse_unit_list(shown, 300_000)):,} more"
    # one range more would not fit
    longer = whole[:whole.index(",", len(shown) + 1)]
    left = len(ids) - len(parse_unit_list(longer, 300_000))
    assert len(f"{longer},… and {left:,} more") > width
    assert format_unit_list(range(5), width=1) == format_unit_list(range(5)) == "0-4"


@pytest.mark.parametrize("text, match", [
    ("x", "bad unit list item 'x'"), ("5-2", "start after end"),
    ("0-11", r"out of range 0\.\.10"), (",", "empty unit list"), ("", "empty unit list"),
    (" , ", "empty unit list"),
    # int() reads all of these; a unit list takes ASCII digits only
    ("\u0663", "bad unit list item"), ("+3", "bad unit list item"), ("1_0", "bad unit list item"),
    ("2-+3", "bad unit list item"), ("0-\u0663", "bad unit list item"), ("-3", "bad unit list item"),
])
def test_bad_unit_lists_are_refused_in_one_line(text, match):
    with pytest.raises(ValueError, match=match):
        parse_unit_list(text, 11)
