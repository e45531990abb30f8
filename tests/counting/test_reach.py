"""A job's estimated cost and the refusal of jobs out of reach
(counting/reach.py, and ``gridcount count`` before it starts)."""
import math
import time

import pytest
from click.testing import CliRunner

from counting import reach
from counting.cli import cli
from counting.options import CountOptions
from counting.reach import REACH_DAYS, JobCost, format_seconds, job_cost, needs_estimate
from counting.reduction import get_reduction
from counting.reduction.patterns2 import TwoBandPatternReduction, n_patterns
from counting.run.counter import count_unit
from grids.rectangle import ColumnSetRectangles


def cost(units, unit_seconds, exact=True):
    return JobCost("2x6", "patterns2", units, exact, unit_seconds, 2, 1.0)


def test_a_job_is_out_of_reach_beyond_a_week_on_its_workers():
    week = REACH_DAYS * 86400
    assert not cost(2, week).out_of_reach(workers=2)          # a week on 2 workers
    assert cost(3, week).out_of_reach(workers=2)
    assert not cost(3, week).out_of_reach(workers=3)
    assert cost(2, week).cpu_seconds == 2 * week


def test_the_description_says_units_rate_and_wall_time_with_units():
    text = cost(14_098, 1.5e6, exact=False).describe(workers=2)
    assert "at least 14,098 units" in text and "17 days each" in text
    assert "core-hours" in text and "on 2 workers" in text and "years" in text
    assert "e+" not in text


def test_the_description_gives_workers_for_a_day_and_memory_where_known():
    c = JobCost("4x3", "patterns3", 144_578, True, 3600.0, 2, 1.0, "one slice timed",
                (30 * 2 ** 20, 3 * 2 ** 29))
    text = c.describe(workers=2)
    assert c.workers_for_a_day() == 6_025 and "a day on 6,025" in text   # ⌈144,578 h / 24⌉
    assert "memory per worker about 30 MiB plus 1.5 GiB of tables shared" in text
    assert "one slice timed" in text and "Knuth" not in text
    assert c.as_json(2)["memory_shared_bytes"] == 3 * 2 ** 29
    assert "memory" not in cost(2, 100).describe(2) and cost(2, 100).workers_for_a_day() == 1


@pytest.mark.parametrize("seconds, text", [
    (0.42, "0.42 s"), (42.4, "42 s"), (99.6, "1.7 min"), (7200, "2.0 h"),
    (3e5, "3.5 days"), (9.96, "10 s"), (86e12, "2,700,000 years"),
])
def test_durations_read_with_two_figures_and_a_unit(seconds, text):
    assert format_seconds(seconds) == text


def test_huge_figures_use_a_power_of_ten_not_e_notation():
    assert cost(1, 1e30).describe(2).startswith("2.8·10^26 core-hours")


def test_the_estimate_of_a_small_job_is_close_to_its_measured_time():
    red = get_reduction("2x4", "moves")
    c = job_cost(red, sample=3, seed=4, max_seconds=3)
    assert c.units == red.n_units() and c.units_exact
    # the same units, counted: an order of magnitude is what the decision needs
    measured = [count_unit(u, fresh_memo=True).seconds for u in red.sample_units(3, seed=4)]
    mean = sum(measured) / len(measured)
    assert mean / 10 < c.unit_seconds < mean * 10


def test_estimates_start_at_10x10():
    assert not needs_estimate(get_reduction("3x3"))
    assert not needs_estimate(get_reduction("1x9"))
    assert needs_estimate(get_reduction("2x5"))
    assert needs_estimate(get_reduction("1x10"))


def test_2x6_is_bounded_and_sampled_without_enumerating_its_classes():
    red = TwoBandPatternReduction("2x6")
    t = time.perf_counter()
    n, exact = red.n_units_bound()
    units = red.sample_units(3, seed=5)
    assert time.perf_counter() - t < 1.0
    assert not exact and n == -(-n_patterns(6) // (2 * math.factorial(12) * 720 * 64))
    rect = ColumnSetRectangles(6, 12)
    for u in units:
        rect.check_column_sets(u.column_sets)   # a valid pattern
    assert red.sample_units(3, seed=5) == units


def test_the_bound_is_below_the_true_number_of_classes(monkeypatch):
    red = TwoBandPatternReduction("5x2")
    exact = red.n_units()
    monkeypatch.setattr(TwoBandPatternReduction, "ESTIMATE_WITHOUT_CLASSES", 5)
    bound, is_exact = red.n_units_bound()
    assert not is_exact and 0 < bound <= exact


# ---------------------------------------------------------------------------
# the command

def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("args", [("6x2",), ("2x5", "--reduction", "moves"), ("1x11",)])
def test_count_refuses_a_job_out_of_reach_at_once_with_its_estimate(tmp_path, args):
    db = tmp_path / "x.sqlite"
    t = time.perf_counter()
    res = invoke("count", *args, "--db", db)
    assert time.perf_counter() - t < 60
    assert res.exit_code == 2   # a refusal, like every usage error (issue 26.1)
    line = res.output.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "out of reach" in line and "core-hours" in line and "--force" in line
    assert not db.exists()


def test_count_says_the_estimate_of_a_job_it_accepts(tmp_path):
    res = CliRunner().invoke(cli, ["count", "2x5", "--units", "300", "--db",
                                   str(tmp_path / "x.sqlite"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "estimated cost of this job: " in res.output and "346 units" in res.output


def test_force_skips_the_estimate(tmp_path, monkeypatch):
    def no_estimate(*a, **k):
        raise AssertionError("estimated despite --force")
    monkeypatch.setattr(reach, "job_cost", no_estimate)
    res = invoke("count", "2x5", "--force", "--units", "300", "--db", tmp_path / "x.sqlite",
                 "--workers", "1", "--json")
    assert res.exit_code == 0, res.output


def test_without_force_a_large_job_is_estimated(tmp_path, monkeypatch):
    calls = []
    real = reach.job_cost
    monkeypatch.setattr(reach, "job_cost", lambda *a, **k: calls.append(1) or real(*a, **k))
    res = invoke("count", "2x5", "--units", "300", "--db", tmp_path / "x.sqlite",
                 "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    assert calls == [1]


def test_a_provisional_bound_refuses_but_never_accepts_a_job(monkeypatch):
    """4x3 before its tables exist: a lower bound within reach is estimated
    again, on what the units need (bound_ok=False), before anything runs."""
    from counting import plan
    asked = []

    def fake(red, options, **kw):
        asked.append(kw.get("bound_ok", True))
        hours = 100 if kw.get("bound_ok", True) else 1_500
        return JobCost("4x3", "patterns3", 1, False, hours * 3600.0, 0, 0.0, "timed",
                       None, True, kw.get("bound_ok", True))
    monkeypatch.setattr(reach, "job_cost", fake)
    with pytest.raises(plan.OutOfReach, match="1,500 core-hours"):
        plan.check_reach("4x3", None, CountOptions(), 2)
    assert asked == [True, False]
    asked.clear()
    assert plan.check_reach("4x3", None, CountOptions(), 64)[0][1].cpu_seconds == 1_500 * 3600
    assert asked == [True, False]                   # accepted only on the measured figure
    monkeypatch.setattr(reach, "job_cost", lambda red, options, **kw: JobCost(
        "4x3", "patterns3", 1, False, 1e6 * 3600, 0, 0.0, "bound", None, True, True))
    with pytest.raises(plan.OutOfReach, match="1,000,000 core-hours"):
        plan.check_reach("4x3", None, CountOptions(), 2)    # refused on the bound at once
