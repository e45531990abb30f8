"""``gridcount classes KIND --group``: the kind's full symmetry group beside
today's (counting/cli/full_group.py over counting/group/cover_automorphisms.py)."""
import builtins
import json

import pytest
from click.testing import CliRunner

from counting.cli import cli

pytest.importorskip("pynauty")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_sudokup_prints_both_orders_the_index_and_what_it_adds():
    res = invoke("classes", "3x3+disjoint", "--group")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert any("full group" in line and line.endswith("3,762,339,840 (10,368 × 9!)")
               for line in lines)
    assert any("today's group" in line and line.endswith("940,584,960 (2,592 × 9!)")
               for line in lines)
    assert any(line.startswith("index") and line.endswith(" 4") for line in lines)
    assert "it also maps rows onto boxes" in lines


def test_plain_sudoku_says_today_has_the_whole_group():
    res = invoke("classes", "3x3", "--group")
    assert res.exit_code == 0, res.output
    assert "the full group is today's group" in res.output
    assert "it also maps" not in res.output


def test_json():
    res = invoke("classes", "1x3", "--group", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["full_order_int"] == 6 * 6 ** 3 and data["today_order_int"] == 6 ** 3
    assert (data["full_order"], data["today_order"], data["index"]) == ("1296", "216", "6")
    assert data["index_int"] == 6 and len(data["adds"]) == 3


def test_group_and_reduction_contradict_each_other():
    res = invoke("classes", "3x3", "--group", "--reduction", "44")
    assert res.exit_code == 2
    assert "--group and --reduction contradict each other" in res.output


@pytest.fixture
def no_pynauty(monkeypatch):
    real = builtins.__import__

    def refuse_pynauty(name, *args, **kwargs):
        if name == "pynauty":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse_pynauty)


def test_without_pynauty_one_line_says_how_to_install_it(no_pynauty):
    res = invoke("classes", "2x2", "--group")
    assert res.exit_code == 1
    assert res.output.strip().splitlines() == [
        "Error: the full symmetry group needs pynauty: pip install 'gridcount[nauty]' "
        "(in a source tree: pip install -e '.[nauty]')"]
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_bad_input_is_named_before_the_missing_pynauty(no_pynauty):
    res = invoke("classes", "3x3+nope", "--group")
    assert res.exit_code == 2
    assert "unknown grid kind 'nope'" in res.output
    assert "pynauty" not in res.output


def test_today_s_group_too_large_to_search_still_prints_the_full_group(monkeypatch):
    import counting.group.cover_automorphisms as ca

    def too_large(kind):
        raise ValueError("the symmetry group of 2x2+x is too large to search (7·7 parts)")

    monkeypatch.setattr(ca, "kind_group", too_large)
    res = invoke("classes", "2x2+x", "--group")
    assert res.exit_code == 0, res.output
    assert "384 (16 × 4!)" in res.output
    assert "today's group (" not in res.output and "index" not in res.output
    assert "what it adds is not known: the symmetry group of 2x2+x is too large" in res.output
