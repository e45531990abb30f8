"""Specification of counting/rectangles.py: ``count 1xN --rows K`` bounded and
estimated before it counts (issue 38 item 3: ``1x40 --rows 2`` was a
traceback, ``1x11``/``1x12 --rows 2`` ran for minutes with nothing said)."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from counting import rectangles
from counting.cli import cli
from counting.rectangles import (RectanglesOutOfReach, count_rectangles, derangements,
                                 rectangles_cost, schrijver)
from factorization import FactorizationCounter


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_more_columns_than_the_kernel_counts_is_a_one_line_usage_error():
    res = invoke("count", "1x40", "--rows", "2")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.output.count("\n") == 1
    assert "at most 16 columns" in res.output and "not 40" in res.output


def test_rectangles_beyond_reach_are_refused_with_their_estimate():
    res = invoke("count", "1x16", "--rows", "2")
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "2 x 16 Latin rectangles are out of reach" in res.output
    assert f"{derangements(16):,} perfect matchings" in res.output


def test_rectangles_that_would_not_fit_in_memory_are_refused(monkeypatch):
    monkeypatch.setattr(rectangles, "MEMO_MB_MAX", 10)     # 2 x 10 holds about 80 MiB
    with pytest.raises(RectanglesOutOfReach, match="more memory than this machine's 10 MiB"):
        count_rectangles("1x10", 2)


def test_a_count_that_could_run_long_says_its_estimate_first(monkeypatch):
    monkeypatch.setattr(rectangles, "NOTE_SECONDS", 0.0)
    said = []
    assert count_rectangles("1x7", 3, note=said.append) == count_rectangles("1x7", 3) > 0
    assert len(said) == 1 and said[0].startswith("3 x 7 Latin rectangles: at least ")
    res = invoke("count", "1x7", "--rows", "3")
    assert res.exit_code == 0 and "perfect matchings" in res.stderr


def test_row_2_enumerates_the_derangements_and_later_rows_at_least_schrijver_s_bound():
    m = 9
    counter = FactorizationCounter(m, memo_mb=0)
    minus_identity = np.full(m, (1 << m) - 1, dtype=np.uint32) & \
        ~(np.uint32(1) << np.arange(m, dtype=np.uint32))
    _, mult = counter.children(minus_identity, rooted=False)
    assert int(mult.sum()) == derangements(9) == 133_496
    for n in range(3, 11):
        assert schrijver(n - 1, n) <= derangements(n)
    cost = rectangles_cost(4, 10)
    assert cost.matchings == derangements(10) + schrijver(8, 10) + schrijver(7, 10)
