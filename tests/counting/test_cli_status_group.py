"""``gridcount status`` and ``report`` of a ``--up-to-symmetry`` store say which
group the count is under and what the kind's full group adds
(counting/cli/store.py and counting/report/content.py over
counting/group/group_note.py); ``classes --group`` keeps what it computes
(counting/cli/full_group.py over counting/group/cover_cache.py)."""
import json
import math
import re

import pytest
from click.testing import CliRunner

from counting.cli import cli
from counting.group import cover_cache, group_note
from counting.group.cover_automorphisms import compare as real_compare

pytest.importorskip("pynauty")

LATIN_3 = 6 * math.factorial(3) ** 3       # paratopy of order 3: 1,296


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty directory, with a cache of its own (nothing computed yet)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture
def calls(monkeypatch):
    """How often the comparison (nauty and today's group) is computed."""
    made = []

    def counted(kind):
        made.append(kind.name)
        return real_compare(kind)

    monkeypatch.setattr(group_note, "compare", counted)
    monkeypatch.setattr(cover_cache, "compare", counted)
    return made


def _rows(output):
    return dict(re.split(r"  +", line.strip(), maxsplit=1)
                for line in output.splitlines() if "  " in line.strip())


def _symmetry_store(shape="1x3"):
    res = invoke("count", shape, "--up-to-symmetry", "--workers", "1", "-q")
    assert res.exit_code == 0, res.output
    return f"results/{shape}-rsymmetry.sqlite"


def test_status_of_a_latin_symmetry_store_says_the_full_group_is_six_times_larger(here, calls):
    res = invoke("status", _symmetry_store())
    assert res.exit_code == 0, res.output
    rows = _rows(res.output)
    assert rows["counted under"] == ("the shape's geometric group G × relabelling, 216 (36 × 3!) "
                                     "(--group grid)")
    assert rows["full symmetry group"] == (
        "1,296 (216 × 3!): automorphisms of the kind's exact cover (nauty), 6× larger: "
        "it also maps cells onto rows (columns and digits exchange roles); "
        "it also maps cells onto columns (rows and digits exchange roles); "
        "it also maps rows onto columns (rows and columns exchange roles); "
        "Latin squares' main classes (paratopy): count --up-to-symmetry --group main-class "
        "(docs/symmetry.md)")
    assert res.output.splitlines()[-1].startswith("total (essentially different grids)")


def test_status_computes_the_full_group_once_then_reads_it(here, calls):
    db = _symmetry_store()
    for _ in range(3):
        assert invoke("status", db).exit_code == 0
    assert calls == ["1x3"]


def test_status_json_adds_the_group_fields(here, calls):
    doc = json.loads(invoke("status", _symmetry_store(), "--json").output)
    assert doc["total_int"] == 1                   # the fields that were there stay
    group = doc["symmetry_group"]
    assert group["counted_order"] == "216" and group["full_order"] == str(LATIN_3)
    assert group["counted_order_int"] == 216 and group["full_order_int"] == LATIN_3
    assert (group["index"], group["index_int"]) == ("6", 6) and len(group["adds"]) == 3
    assert group["full_group_counted"] is False and group["not_known_because"] is None


def test_status_of_a_grid_store_says_nothing_of_groups_and_computes_nothing(here, calls):
    res = invoke("count", "1x3", "--workers", "1", "-q", "--db", "grid.sqlite")
    assert res.exit_code == 0, res.output
    assert "counted under" not in invoke("status", "grid.sqlite").output
    assert json.loads(invoke("status", "grid.sqlite", "--json").output)["symmetry_group"] is None
    assert calls == []


def test_status_without_pynauty_says_so_in_one_line_and_succeeds(here, monkeypatch):
    db = _symmetry_store()
    monkeypatch.setattr(group_note, "nauty_missing", lambda: "the full symmetry group "
                        "needs pynauty: pip install 'gridcount[nauty]'")
    res = invoke("status", db)
    assert res.exit_code == 0, res.output
    assert _rows(res.output)["full symmetry group"] == (
        "not known here: the full symmetry group needs pynauty: pip install 'gridcount[nauty]'")


def test_the_report_says_the_groups_in_its_job_table(here, calls):
    pytest.importorskip("matplotlib")
    res = invoke("report", _symmetry_store(), "--format", "md", "-o", "r.md")
    assert res.exit_code == 0, res.output
    text = (here / "r.md").read_text()
    assert ("| counted under | the shape's geometric group G × relabelling, 216 (36 × 3!) "
            "(--group grid) |") in text
    assert "| full symmetry group | 1,296 (216 × 3!): automorphisms" in text


def test_classes_group_keeps_what_it_computed_for_status(here, calls):
    assert invoke("classes", "1x3", "--group").exit_code == 0
    again = invoke("classes", "1x3", "--group")
    assert again.exit_code == 0 and "1,296 (216 × 3!)" in again.output
    assert invoke("status", _symmetry_store()).exit_code == 0
    assert calls == ["1x3"]
