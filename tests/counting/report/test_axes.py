"""Specification of counting/report/axes.py: the ticks of the report's charts
and how they read (issue 33.11: charts seen in a browser)."""
import re

import pytest

from counting.report.axes import class_tick_step, log_ticks, tick_label, tick_labels

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def _power(label: str) -> bool:
    return any(c in SUPERSCRIPTS for c in label)


def test_log_ticks_are_readable_over_any_range():
    assert log_ticks(1, 2_000_000) == [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000,
                                       10_000_000]     # every value between two labels
    # inside one decade: finer steps, and the neighbours, so there are at least three
    assert log_ticks(320_000, 910_000) == [300_000, 500_000, 700_000, 1_000_000]
    assert log_ticks(2, 3) == [1, 2, 3, 5]          # counts: integer ticks only
    assert log_ticks(0.2, 0.3) == [0.15, 0.2, 0.3, 0.5]
    assert len(log_ticks(1, 1e30)) <= 9                   # a wide range: some decades,
    assert log_ticks(1, 2e16)[-1] >= 2e16                 # the largest value under a label
    assert log_ticks(7, 7)[0] <= 7 <= log_ticks(7, 7)[-1]
    assert [tick_label(t) for t in (1, 1_500, 2e12)] == ["1", "1,500", "2×10¹²"]


@pytest.mark.parametrize("lo, hi", [(1, 2e16), (1, 1e21), (1e-5, 1e3), (3e-5, 0.2), (1, 2e6),
                                    (0.2, 0.3), (3.2e5, 9.1e5), (1e-7, 1e-6), (0.5, 2e10)])
def test_an_axis_writes_all_its_ticks_in_one_notation(lo, hi):
    # 1x10's charts put 1,000,000,000 beside 10¹² and 1e-05 beside 1,000
    labels = tick_labels(log_ticks(lo, hi))
    assert len({_power(label) for label in labels}) == 1, labels
    assert not any(re.search(r"\de[-+]?\d", label) for label in labels), labels


def test_wide_or_tiny_axes_are_written_as_powers_of_ten_and_the_rest_plainly():
    assert tick_labels(log_ticks(1, 2e16)) == ["10⁰", "10³", "10⁶", "10⁹", "10¹²", "10¹⁵",
                                               "10¹⁸"]
    assert tick_labels([1e-5, 1e-3, 0.1, 10, 1000]) == ["10⁻⁵", "10⁻³", "10⁻¹", "10¹", "10³"]
    assert tick_labels([0.15, 0.2, 0.3, 0.5]) == ["0.15", "0.2", "0.3", "0.5"]
    assert tick_labels([1, 1_000, 1_000_000]) == ["1", "1,000", "1,000,000"]
    assert tick_label(9.999e11, power=True) == "10¹²"       # rounded up: not "10×10¹¹"


@pytest.mark.parametrize("n, widest, points, most, step", [
    (1155, 4, 576, 20, 100),   # 1x10's classes, the 10-inch chart: 1044 and 1102 touched
    (1155, 4, 288, 10, 200),   # the half-width chart of times by class
    (71, 2, 576, 20, 5),
    (71, 2, 288, 10, 10),
    (9, 1, 576, 20, 1),
])
def test_class_labels_are_at_a_round_step_that_fits_the_axis(n, widest, points, most, step):
    got = class_tick_step(n, widest, points, 10, most)
    assert got == step
    labels = -(-n // got)
    assert labels <= most
    assert labels * (widest + 2) * 0.6 * 10 <= points    # side by side, with a gap
