"""What ``status`` and ``report`` say of the group a count is under beside the
kind's full group (counting/group/group_note.py): the orders and what the
full group adds, read from the cache; computed on a miss only when cheap;
never slow, never an exception."""
import builtins
import json
import math

import pytest

from counting.group.cover_automorphisms import Comparison
from counting.group.cover_cache import read_cached, write_cached
from counting.group.group_note import GroupNote, group_note, note_for
from counting.group.symmetries import group_order
from counting.reduction import get_reduction
from grids.kind import as_kind

NINE = math.factorial(9)


class Counting:
    """A stand-in for ``compare`` that counts its calls."""

    def __init__(self, result=None, error=None):
        self.calls, self.result, self.error = 0, result, error

    def __call__(self, kind):
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.result


@pytest.fixture
def no_pynauty(monkeypatch):
    real = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "pynauty":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)


def sudoku_p():
    return Comparison(as_kind("3x3+disjoint"), 10_368 * NINE, 2_592 * NINE,
                      (("rows", "boxes"), ("columns", "boxes")))


def test_sudokup_says_both_orders_the_index_and_what_it_adds(tmp_path):
    write_cached(sudoku_p(), tmp_path)
    note = group_note("3x3+disjoint", 2_592, tmp_path, compute=Counting(error=AssertionError))
    rows = dict(note.rows())
    assert rows["counted under"] == (
        "the kind's group H (the elements of the shape's geometric group that keep its rules) "
        "× relabelling, 940,584,960 (2,592 × 9!) (--group grid)")
    assert rows["full symmetry group"] == (
        "3,762,339,840 (10,368 × 9!): automorphisms of the kind's exact cover (nauty), "
        "4× larger: it also maps rows onto boxes; it also maps columns onto boxes; "
        "essentially different grids under the full group: count --up-to-symmetry "
        "--group full, where it is cells × relabelling (docs/symmetry.md)")
    assert note.as_json() == {
        "group": "grid", "counted_under": note.scope,
        "counted_order": str(2_592 * NINE), "counted_order_int": 2_592 * NINE,
        "full_order": str(10_368 * NINE), "full_order_int": 10_368 * NINE,
        "index": "4", "index_int": 4,
        "adds": ["it also maps rows onto boxes", "it also maps columns onto boxes"],
        "full_group_counted": False, "not_known_because": None}


def test_a_count_under_the_full_group_says_what_it_adds_beyond_today_s(tmp_path):
    # noticed (issue 34 audit): status of a --group full store gave the full
    # group's order but not today's beside it, nor what the full group adds
    write_cached(sudoku_p(), tmp_path)
    fake = type("Full", (), {"counts_orbits": True, "grid_kind": as_kind("3x3+disjoint"),
                             "group_name": "full", "group_order": 10_368})()
    note = note_for(fake, tmp_path)
    rows = dict(note.rows())
    assert rows["counted under"].endswith("3,762,339,840 (10,368 × 9!) (--group full)")
    assert rows["full symmetry group"] == (
        "the group counted under (above), 4× today's group (--group grid, "
        "940,584,960 = 2,592 × 9!): it also maps rows onto boxes; "
        "it also maps columns onto boxes")
    doc = note.as_json()
    assert (doc["full_order_int"], doc["index_int"]) == (10_368 * NINE, 4)
    assert doc["adds"] == ["it also maps rows onto boxes", "it also maps columns onto boxes"]
    assert doc["full_group_counted"] is True


def test_a_count_under_the_full_group_that_is_today_s_says_it_adds_nothing(tmp_path):
    write_cached(Comparison(as_kind("3x3"), 3_359_232 * NINE, 3_359_232 * NINE, ()), tmp_path)
    fake = type("Full", (), {"counts_orbits": True, "grid_kind": as_kind("3x3"),
                             "group_name": "full", "group_order": 3_359_232})()
    assert dict(note_for(fake, tmp_path).rows())["full symmetry group"] == (
        "the group counted under (above), the same as today's group (--group grid): "
        "it adds nothing")


def test_orders_past_2_to_the_53_are_given_in_json_as_strings_like_the_total(tmp_path):
    # noticed: status --json gave the orders as bare integers; 16x16's pass 2^53
    # (Number.MAX_SAFE_INTEGER), past which a reader of JSON numbers as doubles
    # (JavaScript) does not keep integers exact
    g = group_order("4x4")
    counted = g * math.factorial(16)
    write_cached(Comparison(as_kind("4x4"), 2 * counted, counted, ()), tmp_path)
    doc = group_note("4x4", g, tmp_path, Counting(error=AssertionError)).as_json()
    assert counted > 2 ** 53
    assert (doc["counted_order"], doc["counted_order_int"]) == (str(counted), counted)
    assert (doc["full_order"], doc["full_order_int"]) == (str(2 * counted), 2 * counted)
    assert json.loads(json.dumps(doc), parse_int=float)["counted_order"] == str(counted)


def test_a_plain_kind_counted_under_its_whole_group_says_so(tmp_path):
    write_cached(Comparison(as_kind("3x3"), 3_359_232 * NINE, 3_359_232 * NINE, ()), tmp_path)
    rows = dict(group_note("3x3", 3_359_232, tmp_path).rows())
    assert rows["counted under"].startswith("the shape's geometric group G × relabelling, ")
    assert rows["full symmetry group"].endswith(
        "the same group: the count is under the kind's full group")


def test_a_miss_is_computed_once_for_a_small_kind_and_kept(tmp_path):
    pytest.importorskip("pynauty")
    note = group_note("1x3", 36, tmp_path)        # Latin squares of order 3: 3!·3! cells
    assert note.comparison.full_order == 6 * 6 ** 3 and note.comparison.index == 6
    assert "6× larger: it also maps cells onto rows" in dict(note.rows())["full symmetry group"]
    assert read_cached("1x3", tmp_path) == note.comparison
    compute = Counting(error=AssertionError("computed again"))
    assert group_note("1x3", 36, tmp_path, compute).comparison == note.comparison
    assert compute.calls == 0


def test_a_large_kind_is_not_computed_on_the_spot(tmp_path):
    pytest.importorskip("pynauty")
    compute = Counting(error=AssertionError("nauty run on 16x16"))
    note = group_note("4x4", 1, tmp_path, compute)
    assert compute.calls == 0 and note.comparison is None
    assert dict(note.rows())["full symmetry group"] == (
        "not known here: not computed yet (nauty takes seconds to minutes on a 16×16 grid): "
        "'gridcount classes 4x4 --group' computes it once, and it is shown from then on")
    assert note.as_json()["full_order"] is None


def test_a_large_kind_already_kept_is_shown(tmp_path):
    write_cached(Comparison(as_kind("4x4"), 24, 24, ()), tmp_path)
    note = group_note("4x4", 1, tmp_path, Counting(error=AssertionError))
    assert note.comparison is not None


def test_without_pynauty_one_line_says_how_to_install_it(tmp_path, no_pynauty):
    compute = Counting(error=AssertionError)
    note = group_note("1x3", 36, tmp_path, compute)
    assert compute.calls == 0
    assert dict(note.rows())["full symmetry group"] == (
        "not known here: the full symmetry group needs pynauty: pip install 'gridcount[nauty]' "
        "(in a source tree: pip install -e '.[nauty]')")


def test_without_pynauty_a_kept_comparison_is_still_shown(tmp_path, no_pynauty):
    write_cached(sudoku_p(), tmp_path)
    assert group_note("3x3+disjoint", 2_592, tmp_path).comparison == sudoku_p()


def test_a_failing_computation_is_said_not_raised(tmp_path):
    pytest.importorskip("pynauty")
    note = group_note("1x3", 36, tmp_path, Counting(error=ArithmeticError("orders disagree")))
    assert dict(note.rows())["full symmetry group"] == "not known here: orders disagree"
    assert read_cached("1x3", tmp_path) is None


def test_a_comparison_that_disagrees_with_the_store_s_group_is_said():
    note = GroupNote(as_kind("3x3+disjoint"), 1_296 * NINE, sudoku_p())
    assert "not the store's 470,292,480: one of them is wrong" in note.full_text()
    assert note.as_json()["index"] is None and note.as_json()["index_int"] is None


def test_only_a_count_of_orbits_has_a_note(tmp_path):
    assert note_for(get_reduction("2x2"), tmp_path) is None
    write_cached(Comparison(as_kind("2x2"), 3_072, 3_072, ()), tmp_path)
    note = note_for(get_reduction("2x2", "symmetry"), tmp_path)
    assert note.counted_order == 128 * 24 and note.as_json()["index_int"] == 1


def test_the_1x1_grid_is_counted_under_the_trivial_group(tmp_path):
    write_cached(Comparison(as_kind("1x1"), 1, 1, ()), tmp_path)
    assert group_note("1x1", 1, tmp_path).counted_order == 1


@pytest.mark.parametrize("kind", ["2x3+x", "2x2+anti-king", "3x3+windoku"])
def test_a_symmetry_job_s_classes_spare_searching_its_group_again(tmp_path, monkeypatch, kind):
    """The classes' representatives generate H (their subgroup meets every
    class); the comparison made from them is the one made by searching H."""
    pytest.importorskip("pynauty")
    import counting.group.cover_automorphisms as ca
    searched = ca.compare(kind)
    reduction = get_reduction(kind, "symmetry")          # searches H once, as a job does

    def no_search(k):
        raise AssertionError(f"H of {k} searched again")

    monkeypatch.setattr(ca, "kind_group", no_search)
    assert note_for(reduction, tmp_path).comparison == searched


@pytest.mark.parametrize("error", [RuntimeError("nauty: out of memory"), MemoryError()])
def test_a_crashing_computation_is_said_not_raised(tmp_path, error):
    pytest.importorskip("pynauty")
    note = group_note("1x3", 36, tmp_path, Counting(error=error))
    assert note.comparison is None
    assert dict(note.rows())["full symmetry group"] == \
        f"not known here: {str(error) or type(error).__name__}"
