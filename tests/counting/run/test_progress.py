"""The progress bar of a counting run (counting/run/progress.py): it advances by
estimated work and reads as units, units per second and an ETA."""
import pytest

from counting.job import Job
from counting.run.progress import Progress, format_duration, status_text
from counting.reduction.cost import estimate_cost, estimate_work, longest_first


def test_durations_are_minutes_and_seconds_or_hours():
    assert format_duration(0) == "0:00"
    assert format_duration(59.6) == "1:00"
    assert format_duration(3599) == "59:59"
    assert format_duration(3600 * 26 + 61) == "26:01:01"
    assert format_duration(None) == format_duration(float("nan")) == "--:--"


def test_the_eta_is_the_work_left_at_the_rate_work_was_done():
    # a quarter of the work in 30 s; half is left -> 60 s
    assert status_text(10, 100, 10, 0.25, 0.5, 30.0) == "10/100 units · 0.3 units/s · ETA 1:00"
    assert status_text(1_000, 12_345, 0, 0.0, 1.0, 5.0).endswith("ETA --:--")
    assert "e+" not in status_text(10**6, 10**7, 10**6, 0.1, 0.9, 1.0)


def test_work_shares_sum_to_one_and_follow_the_cost():
    units = Job.load("3x3", "71").units
    share = estimate_work(units)
    assert sum(share.values()) == pytest.approx(1.0, abs=1e-12)
    a, b = sorted(units[:50], key=estimate_cost)[0], sorted(units[:50], key=estimate_cost)[-1]
    assert share[b.unit_id] > share[a.unit_id]


def test_units_go_out_class_by_class_largest_first():
    units = Job.load("3x3", "71").units
    order = longest_first(units)
    classes = [u.class_id for u in order]
    # each class's units are handed out together ...
    runs = [c for i, c in enumerate(classes) if i == 0 or classes[i - 1] != c]
    assert len(runs) == len(set(classes)) == 71
    # ... longest first inside a class, and the class with the largest unit first
    for cid in set(classes):
        costs = [estimate_cost(u) for u in order if u.class_id == cid]
        assert costs == sorted(costs, reverse=True)
    tops = [max(estimate_cost(u) for u in units if u.class_id == c) for c in runs]
    assert tops == sorted(tops, reverse=True)


def test_the_bar_advances_by_work_and_ends_full():
    shares = {0: 0.7, 1: 0.2, 2: 0.1}
    bar = Progress("t", shares, done=[2], enabled=False)
    assert bar.position == 100                     # the resumed unit's work
    bar.advance(0)
    assert bar.position == 800 and bar.text().startswith("2/3 units")
    bar.advance(1)
    assert bar.position == 1000 and bar.text().startswith("3/3 units")
    bar.close()
