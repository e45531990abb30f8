"""Specification of scripts/bench_two_stack.py's report file: its rewrite
keeps the sections other scripts appended below the report (the independent
check of ``scripts/two_stack_couple_check.py --record``), which a rerun of the
benchmark used to drop."""
from __future__ import annotations

import pytest

REPORT = "# 2x5: Burnside terms\n\n| unit | A |\n|---:|---:|\n| 12 | 7 |\n\nTotal: 7.\n"
CHECK = "## An independent check\n\nWritten by another script.\n\n| unit | A |\n|---:|---:|\n| 12 | 7 |\n"


@pytest.fixture(scope="module")
def bench(load_script):
    return load_script("bench_two_stack")


def test_a_rewrite_keeps_the_sections_below_the_old_report(bench):
    old = REPORT.replace("7", "6") + "\n" + CHECK
    assert bench.with_kept_sections(REPORT, old) == REPORT + "\n" + CHECK


def test_a_report_with_no_sections_below_it_is_written_as_is(bench):
    assert bench.with_kept_sections(REPORT, REPORT.replace("7", "6")) == REPORT
    assert bench.with_kept_sections(REPORT, "") == REPORT
