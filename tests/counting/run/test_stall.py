"""The stall rule of the local pool (counting/run/stall.py): no limit before
a rate is known; then max(floor, FACTOR × expected seconds), doubled per
attempt; the floor replaced only by a number of seconds in the environment."""
import pytest

from counting.run.stall import FACTOR, FLOOR_SECONDS, FLOOR_VARIABLE, Deadlines, floor_seconds


def test_no_unit_has_a_limit_before_one_has_finished():
    rule = Deadlines({1: 0.5, 2: 0.5}, floor=10)
    assert rule.expected(1) is None and rule.limit(1, attempt=1) is None


def test_the_expected_seconds_are_the_unit_s_work_at_the_run_s_rate():
    rule = Deadlines({1: 0.1, 2: 0.3, 3: 0.6}, floor=1)
    rule.finished(1, seconds=2.0)        # 0.1 of the work in 2 s
    rule.finished(2, seconds=2.0)        # 0.4 in 4 s: 10 s per unit of work
    assert rule.expected(3) == pytest.approx(6.0)
    assert rule.limit(3, attempt=1) == pytest.approx(FACTOR * 6.0)


def test_the_floor_holds_for_short_units_and_each_attempt_doubles_the_limit():
    rule = Deadlines({1: 0.5, 2: 0.5}, floor=120)
    rule.finished(1, seconds=0.01)
    assert [rule.limit(2, attempt=k) for k in (1, 2, 3)] == [120.0, 240.0, 480.0]


def test_units_of_no_estimated_work_get_the_floor():
    rule = Deadlines({1: 0.0, 2: 0.0}, floor=30)
    rule.finished(1, seconds=5.0)
    assert rule.expected(2) == 0.0 and rule.limit(2, attempt=1) == 30.0


def test_the_floor_is_two_minutes_unless_the_environment_says_otherwise(monkeypatch):
    monkeypatch.delenv(FLOOR_VARIABLE, raising=False)
    assert floor_seconds() == FLOOR_SECONDS == 120.0
    monkeypatch.setenv(FLOOR_VARIABLE, "2.5")
    assert floor_seconds() == 2.5 and Deadlines({}).floor == 2.5


@pytest.mark.parametrize("text", ["", "soon", "0", "-3", "nan", "inf"])
def test_a_floor_that_is_no_number_of_seconds_is_refused_in_one_line(monkeypatch, text):
    monkeypatch.setenv(FLOOR_VARIABLE, text)
    with pytest.raises(ValueError) as e:
        floor_seconds()
    assert str(e.value) == f"GRIDCOUNT_STALL_FLOOR={text!r} is not a number of seconds > 0"
