"""The report's "published" row (counting/report/content.py over
counting/published.py): a store of ``--group full`` is compared with the
number of essentially different grids under the kind's *full* group, never
with today's group's (SudokuP: 53,666,689 under the full group against
214,038,113 under today's; Windoku: 68,239,994 against 136,439,416), and a
kind whose full group is today's (plain 9×9) with today's value."""
import pytest

from counting.job import Job
from counting.report.content import build_report
from counting.store.database import Store

pytest.importorskip("pynauty")


def published_row(tmp_path, kind: str, reduction: str) -> str:
    """The report's "published" row of an empty store of ``kind`` by
    ``reduction`` (no unit counted: the row names the value it will be
    compared with, read from the same lookup as a complete store's)."""
    job = Job.load(kind, reduction)
    with Store.create_or_open(tmp_path / "job.sqlite", job.info()) as store:
        rows = dict(build_report(store).job_rows)
    return rows["published"]


@pytest.mark.parametrize("kind, full, today", [
    ("3x3+windoku", "68,239,994", "136,439,416"),
    ("3x3+disjoint", "53,666,689", "214,038,113"),
])
def test_a_full_group_store_of_a_kind_with_rules_names_the_full_group_s_value(
        tmp_path, kind, full, today):
    row = published_row(tmp_path, kind, "symmetry-full")
    assert row.startswith(f"published {full} (")
    assert today not in row


def test_plain_9x9_s_full_group_is_today_s_so_its_store_names_today_s_value(tmp_path):
    row = published_row(tmp_path, "3x3", "symmetry-full")
    assert row.startswith("published 5,472,730,538 (")


def test_a_kind_with_rules_under_today_s_group_has_no_published_value(tmp_path):
    """The full group's value is not today's: a grid-group store of Windoku
    is not compared with 68,239,994."""
    assert published_row(tmp_path, "3x3+windoku", "symmetry") == "no published value"


def test_a_full_group_store_of_a_kind_no_source_lists_says_so(tmp_path):
    assert published_row(tmp_path, "2x2+disjoint", "symmetry-full") == "no published value"


def test_a_plain_kind_whose_full_group_were_larger_than_today_s_is_not_compared_with_today_s(
        tmp_path, monkeypatch):
    """Only because plain 4×4's full group *is* today's (checked by
    full_terms) does its full-group store name today's value; were ``C``
    larger, the grid group's published 2 would count other orbits."""
    from dataclasses import replace
    red = Job.load("2x2", "symmetry-full").reduction_object     # the one every job uses
    assert red.terms.same_as_today
    assert published_row(tmp_path, "2x2", "symmetry-full").startswith("published 2 (")
    monkeypatch.setattr(red, "terms", replace(red.terms, same_as_today=False))
    assert published_row(tmp_path / "..", "2x2", "symmetry-full") == "no published value"
