"""A job's estimated cost and the refusal of jobs out of reach
(counting/reach.py, and ``gridcount count`` before it starts)."""
import math
import time

import pytest
from click.testing import CliRunner

from counting import plan, reach, route_estimate
from counting.cli import cli
from counting.options import CountOptions
from counting.reach import (REACH_DAYS, JobCost, could_be_long, format_seconds, job_cost,
                            quick_cost)
from counting.reduction import get_reduction
from counting.reduction.base import knuth_method
from counting.reduction import patterns2
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


def test_a_searched_job_says_its_memo_table_and_process_as_memory_per_worker(monkeypatch):
    # 2x3 by moves has no memory estimate of its own: a worker holds its memo
    # table at the size asked plus what this process holds (measured; fixed here)
    monkeypatch.setattr(reach, "process_mib", lambda: 50.0)
    for options, mib in ((CountOptions(memo_mb=200), 250), (CountOptions(memo=False), 50)):
        c = job_cost(get_reduction("2x3"), options, max_seconds=0.1)
        assert c.memory == (mib * 2 ** 20, 0)
        assert f"memory per worker about {mib} MiB" in c.describe(2)


def test_the_description_gives_workers_for_a_day_and_memory_where_known():
    c = JobCost("4x3", "patterns3", 144_578, True, 3600.0, 2, 1.0, "one slice timed",
                (30 * 2 ** 20, 3 * 2 ** 29))
    text = c.describe(workers=2)
    assert c.workers_for_a_day() == 6_025 and "6,025 workers would finish it in a day" in text   # ⌈144,578 h / 24⌉
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


def test_the_quick_look_clears_a_small_job_and_not_a_long_one():
    # issue 26.14: every job is looked at, whatever its size; 2x3 counts in
    # well under a second, 3x3 takes a minute (its quick look: about ten)
    assert not could_be_long(quick_cost(get_reduction("2x3")), workers=2)
    assert not could_be_long(quick_cost(get_reduction("1x6")), workers=2)
    assert could_be_long(quick_cost(get_reduction("3x3")), workers=2)


def test_a_job_counted_by_a_kernel_without_its_own_estimate_is_estimated_by_timing_the_kernel(
        monkeypatch):
    # factor units are no exact cover: Knuth's estimator cannot walk them;
    # without the class model of its own, its units are counted and timed
    from counting.reduction import Reduction
    red = get_reduction("1x5", "factor")
    monkeypatch.setattr(type(red), "estimate_unit_seconds", Reduction.estimate_unit_seconds)
    c = job_cost(red, sample=2)
    assert c.sampled == 2 and c.unit_seconds > 0 and c.method == reach.timed_method(2)
    assert "the kernel's timed count from 2 sampled units" in c.describe(2)
    assert job_cost(get_reduction("1x5", "cycles2"), sample=2).method == knuth_method(2)


def test_the_estimate_samples_several_searched_units_and_two_counted_ones(monkeypatch):
    # two units put SudokuP's band job at 0.27, 3.1 or 0.51 core-hours by the seed
    # (it took 1.5): units differ more than one unit's estimate errs
    from counting.reduction import Reduction
    c = job_cost(get_reduction("2x4", "moves"), max_seconds=0.5)
    assert c.sampled == reach.SAMPLE > 2 and c.method == knuth_method(reach.SAMPLE)
    red = get_reduction("1x6", "factor")    # counted in full and timed: two units
    monkeypatch.setattr(type(red), "estimate_unit_seconds", Reduction.estimate_unit_seconds)
    c = job_cost(red)
    assert c.sampled == reach.TIMED_SAMPLE and c.method == reach.timed_method(reach.TIMED_SAMPLE)


def test_more_sampled_units_walk_fewer_paths_each_not_more_in_all(monkeypatch):
    # eight units of ten paths each took Sudoku X's estimate from 19 s to 75 s
    least = []
    monkeypatch.setattr(reach, "unit_seconds",
                        lambda *a, min_probes, **k: least.append(min_probes) or 1.0)
    job_cost(get_reduction("2x4", "moves"))
    assert len(least) == reach.SAMPLE
    assert reach.LEAST_PATHS <= sum(least) < reach.LEAST_PATHS + reach.SAMPLE


def test_units_far_apart_make_the_estimate_say_it_is_rough(monkeypatch):
    seconds = iter([0.5, 40.0, 2.0, 1.0, 3.0, 0.8, 1.5, 2.5])
    monkeypatch.setattr(reach, "unit_seconds", lambda *a, **k: next(seconds))
    c = job_cost(get_reduction("2x4", "moves"))
    assert c.unit_range == (0.5, 40.0) and c.as_json(2)["unit_cpu_seconds_range"] == [0.5, 40.0]
    assert c.describe(2).endswith("; the sampled units were estimated at 0.50 s to 40 s each: "
                                  "units this unequal can make the job take several times the "
                                  "estimate, either way")
    even = iter([1.0, 2.0] * 4)                     # within WIDE_SPREAD: nothing said
    monkeypatch.setattr(reach, "unit_seconds", lambda *a, **k: next(even))
    assert "unequal" not in job_cost(get_reduction("2x4", "moves")).describe(2)


def test_2x6_is_bounded_and_sampled_without_enumerating_its_classes(monkeypatch):
    def enumerate_classes(*args, **kwargs):     # minutes for 2x6: seen, not timed
        raise AssertionError("the classes of 2x6 were enumerated")
    monkeypatch.setattr(patterns2, "pattern_classes", enumerate_classes)
    red = TwoBandPatternReduction("2x6")
    n, exact = red.n_units_bound()
    units = red.sample_units(3, seed=5)
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


@pytest.mark.parametrize("args", [("6x2",), pytest.param(("2x5", "--reduction", "moves"), marks=pytest.mark.slow),
                                  pytest.param(("1x11",), marks=pytest.mark.slow)])
def test_count_refuses_a_job_out_of_reach_at_once_with_its_estimate(tmp_path, args):
    db = tmp_path / "x.sqlite"
    t = time.perf_counter()
    res = invoke("count", *args, "--db", db)
    assert time.perf_counter() - t < 60
    assert res.exit_code == 2   # a refusal, like every usage error (issue 26.1)
    line = res.stderr.strip()   # (6x2's stdout: the layer route's estimate as a table)
    assert "\n" not in line and "Traceback" not in line
    assert "out of reach" in line and "core-hours" in line and "--force" in line
    assert not db.exists()


def test_count_2x5_up_to_symmetry_refuses_in_one_line_within_its_estimate_s_budget(tmp_path):
    """Issue 33 item 5: "estimating its cost ..." for 9 minutes, the budget
    of each sampled unit spread over its hundreds of relabellings at ten
    paths each; now the estimate says how much of them it explored."""
    res = invoke("count", "2x5", "--up-to-symmetry", "--db", tmp_path / "s.sqlite")
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert "\n" not in line and "out of reach" in line
    assert "relabellings explored within the time budget" in line


def test_count_says_the_estimate_of_a_job_it_accepts(tmp_path):
    res = CliRunner().invoke(cli, ["count", "3x3", "--units", "300", "--db",
                                   str(tmp_path / "x.sqlite"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "estimated cost of this job: " in res.output and "710 units" in res.output


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
    res = invoke("count", "3x3", "--units", "300", "--db", tmp_path / "x.sqlite",
                 "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    assert len(calls) == 2    # the quick look, then the estimate


def events_of_a_count(tmp_path, shape="2x3", **request):
    """What plan.count says and logs, in order: ("say", line) / ("log", line)."""
    events = []
    request.setdefault("db", tmp_path / "x.sqlite")
    plan.count(plan.CountRequest(shape=shape, **request), progress=False,
               say=lambda m: events.append(("say", m)), log=lambda m: events.append(("log", m)),
               note=lambda m: events.append(("note", m)))
    return events


def test_a_small_job_starts_without_an_estimate(tmp_path):
    events = events_of_a_count(tmp_path)
    assert events and not [m for kind, m in events if "estimat" in m]
    res = invoke("count", "2x2", "--db", tmp_path / "y.sqlite", "--no-progress")
    assert res.exit_code == 0 and "estimat" not in res.output


def test_a_job_that_could_be_long_says_its_estimate_before_its_first_unit(tmp_path, monkeypatch):
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)   # every job could be long
    events = events_of_a_count(tmp_path)
    said = [i for i, (kind, m) in enumerate(events) if m.startswith("estimated cost of this job: ")]
    logged = [i for i, (kind, _) in enumerate(events) if kind == "log"]
    assert said and logged and said[0] < logged[0], events
    assert "9 units" in events[said[0]][1]
    assert events[said[0] - 1] == ("note", "this job could take more than 0 s on 1 worker: "
                                           "estimating its cost ...")


def test_a_complete_store_is_not_estimated_again_unless_fresh(tmp_path, monkeypatch):
    events_of_a_count(tmp_path)                          # complete now
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)
    calls = []
    real = reach.job_cost
    monkeypatch.setattr(reach, "job_cost", lambda *a, **k: calls.append(1) or real(*a, **k))
    again = events_of_a_count(tmp_path)
    assert calls == [] and not [m for _, m in again if "estimat" in m]
    events_of_a_count(tmp_path, fresh=True)              # --fresh counts it all again
    assert len(calls) == 2


def test_a_symmetry_job_with_a_complete_store_is_not_estimated_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # the grid count goes to results/ here
    events_of_a_count(tmp_path, shape="2x2", up_to_symmetry=True)
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)
    calls = []
    monkeypatch.setattr(reach, "job_cost", lambda *a, **k: calls.append(1))
    events_of_a_count(tmp_path, shape="2x2", up_to_symmetry=True)
    assert calls == []


def test_a_store_that_is_not_complete_is_estimated_for_the_units_left(tmp_path, monkeypatch):
    events_of_a_count(tmp_path, unit_list="0-3")
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)
    said = [m for _, m in events_of_a_count(tmp_path) if m.startswith("estimated cost")]
    assert len(said) == 1 and "(5 of 9 units left × " in said[0], said


def test_a_resumed_job_is_estimated_on_the_units_it_still_lacks(tmp_path, monkeypatch):
    # a symmetry job's last unit took 40 min where the units sampled from the
    # whole job said 29 s: the units left are the ones to time
    events_of_a_count(tmp_path, unit_list="0-3,5-8")        # unit 4 is left
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)
    timed = []
    real = reach.unit_seconds
    monkeypatch.setattr(reach, "unit_seconds",
                        lambda red, spec, *a, **k: timed.append(spec.unit_id) or real(red, spec, *a, **k))
    events_of_a_count(tmp_path)
    assert timed and set(timed) == {4}


@pytest.mark.parametrize("shape, reduction", [("2x3", None), ("1x6", "symmetry")])
def test_the_sample_is_drawn_from_the_ids_given(shape, reduction):
    red = get_reduction(shape, reduction)
    ids = {u.unit_id for u in red.units()[2:5]}
    assert {u.unit_id for u in red.sample_units(10, seed=3, among=ids)} == ids - {0}
    assert len(red.sample_units(2, seed=3, among=ids)) == 2


def test_units_already_done_are_left_out_of_the_cost():
    c = JobCost("2x3", "moves", 9, True, 2.0, 2, 0.1, done=4)
    assert c.cpu_seconds == 10.0 and "5 of 9 units left" in c.describe(1)
    assert cost(9, 2.0).cpu_seconds == 18.0


def test_a_store_the_run_will_refuse_is_refused_before_any_estimate(tmp_path, monkeypatch):
    events_of_a_count(tmp_path, shape="2x2")
    assert plan.store_state(tmp_path / "x.sqlite", "2x2", "moves") == ("complete", 2)
    assert plan.store_state(tmp_path / "x.sqlite", "2x3", "moves") == ("refused", 0)
    assert plan.store_state(tmp_path / "none.sqlite", "2x2", "moves") == ("to do", 0)
    (tmp_path / "junk.sqlite").write_text("not a store")
    assert plan.store_state(tmp_path / "junk.sqlite", "2x2", "moves") == ("refused", 0)
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)
    calls = []
    monkeypatch.setattr(reach, "job_cost", lambda *a, **k: calls.append(1))
    for db in ("x.sqlite", "junk.sqlite"):
        res = invoke("count", "2x3", "--db", tmp_path / db)
        assert res.exit_code != 0 and res.output.count("\n") == 1, res.output
    assert calls == []


def test_the_description_says_the_memo_a_worker_needs_and_the_workers_for_a_day():
    c = JobCost("1x10", "factor", 1000, True, 86.4 * 25.5, 2, 1.0,
                method="the kernel's class model from 2 sampled units",
                memory=(int(105.3 * 2 ** 20), 0))
    text = c.describe(workers=1)
    assert "the kernel's class model from 2 sampled units" in text
    assert "memory per worker about 110 MiB" in text and "26 workers would finish it in a day" in text
    assert c.as_json(1)["workers_for_a_day"] == 26 and c.as_json(1)["memory_private_bytes"] == int(105.3 * 2 ** 20)
    assert "1 worker would finish it in a day" in cost(1, 100).describe(1)


@pytest.mark.slow
def test_a_factor_job_whose_memo_exceeds_the_machine_is_refused_before_it_starts(
        tmp_path, monkeypatch):
    from counting import plan
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)    # estimate order 8 as order 10 is
    need = get_reduction("1x8", "factor").estimate_memory(
        CountOptions(shared_memo=False))[0] / 2 ** 20        # each worker's own memo
    monkeypatch.setattr(plan, "MEMO_MB_MAX", 1.5 * need)  # one worker's memo fits, two do not
    db = tmp_path / "x.sqlite"
    assert invoke("count", "1x8", "--reduction", "factor", "--db", db, "-w", "1",
                  "--units", "0", "-q", "--private-memo").exit_code == 0
    res = invoke("count", "1x8", "--reduction", "factor", "--db", db, "-w", "2", "--fresh",
                 "--private-memo")
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert "\n" not in line and "out of reach" in line and "memo" in line
    assert "more than this machine's memory" in line and "2 × " in line
    assert len(list(db.parent.glob("x.sqlite"))) == 1   # the store is kept, not deleted


def test_a_complete_store_at_the_default_path_is_not_estimated_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # results/2x3-rmoves.sqlite here
    events_of_a_count(tmp_path, db=None)
    assert (tmp_path / "results" / "2x3-rmoves.sqlite").exists()
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)
    calls = []
    monkeypatch.setattr(reach, "job_cost", lambda *a, **k: calls.append(1))
    events_of_a_count(tmp_path, db=None)
    assert calls == []


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
    assert asked == [True, True, False]             # the quick look, the bound, the tables
    asked.clear()
    assert plan.check_reach("4x3", None, CountOptions(), 64)[0][1].cpu_seconds == 1_500 * 3600
    assert asked == [True, True, False]             # accepted only on the measured figure
    monkeypatch.setattr(reach, "job_cost", lambda red, options, **kw: JobCost(
        "4x3", "patterns3", 1, False, 1e6 * 3600, 0, 0.0, "bound", None, True, True))
    with pytest.raises(plan.OutOfReach, match="1,000,000 core-hours"):
        plan.check_reach("4x3", None, CountOptions(), 2)    # refused on the bound at once


def test_2x6_s_refusal_has_the_layer_method_s_measured_estimate_beside(monkeypatch, tmp_path):
    """Without the layer route's measurement file (the route's own refusal:
    tests/counting/test_cli_count_route.py), the search's estimate (faked
    here: minutes of sampling) and, clearly labelled, the layers' (stubbed:
    test_the_layers_estimate_is_measured... runs it); not for a symmetry
    job, nor for shapes the layers do not estimate."""
    monkeypatch.setitem(route_estimate.FILES, "2x6", tmp_path / "no-measurement.json")
    monkeypatch.setattr(reach, "job_cost", lambda red, options, **kw: JobCost(
        red.shape.name, red.name, 14_098, False, 1e9, 2, 1.0))
    monkeypatch.setattr(reach, "layers_estimate",
                        lambda kind: f"by layers: the estimate of {kind.name}")
    with pytest.raises(plan.OutOfReach) as e:
        plan.check_reach("2x6", None, CountOptions(), 2)
    assert str(e.value).startswith("2x6 by reduction patterns2 is out of reach: ")
    assert "so it is refused (--force runs it anyway); by layers: the estimate of 2x6" \
        in str(e.value)
    with pytest.raises(plan.OutOfReach) as e:
        plan.check_reach("2x6", None, CountOptions(), 2, up_to_symmetry=True,
                         grid_total_known=True)
    assert "by layers" not in str(e.value)


def test_2x6_is_refused_with_the_route_s_estimate_without_the_search_s(monkeypatch):
    """The committed measurement file read; the search not estimated; a
    symmetry job or another reduction still the search's."""
    def searched(*args, **kwargs):
        raise AssertionError("the search was estimated")
    monkeypatch.setattr(reach, "job_cost", searched)
    with pytest.raises(plan.OutOfReach) as e:
        plan.check_reach("6x2", None, CountOptions(), 2)
    assert e.value.route is not None and e.value.reduction == "patterns2"
    assert str(e.value) == (f"6x2 by layers is out of reach: {e.value.route.describe(2)}; "
                            f"{e.value.route.refusal('patterns2', 2)}")
    for kw in ({"up_to_symmetry": True, "grid_total_known": True}, {}):
        with pytest.raises(AssertionError, match="the search was estimated"):
            plan.check_reach("2x6", "moves" if not kw else None, CountOptions(), 2, **kw)


@pytest.mark.slow
def test_the_layers_estimate_is_measured_for_two_band_shapes_of_6_stacks_only():
    from grids.kind import as_kind
    text = reach.layers_estimate(as_kind("6x2"))
    assert text.startswith("by layers (issue 36; not runnable yet): ")
    for words in ("core-hours", "sampled layer-3 states", "workers for a day", "dominates",
                  "GiB a worker split by key over", "disk"):
        assert words in text
    assert all(reach.layers_estimate(as_kind(k)) is None
               for k in ("2x5", "3x3", "1x12", "2x3", "4x3"))


def test_a_symmetry_job_does_not_estimate_a_grid_count_whose_store_is_complete(tmp_path,
                                                                              monkeypatch):
    # noticed: `known = grid_total_known or not identity_from_grid` was False, never None,
    # so the grid store was never read and the grid count was always estimated (its
    # units listed: 12 s for a 9x9 kind), even when complete
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["count", "2x2", "-q", "-w", "1"]).exit_code == 0
    looked = []
    plan.check_reach("2x2", None, CountOptions(), 1, up_to_symmetry=True, quick=looked)
    assert [q.reduction for q in looked] == ["symmetry"]
    (tmp_path / "results" / "2x2-rmoves.sqlite").unlink()
    looked = []
    plan.check_reach("2x2", None, CountOptions(), 1, up_to_symmetry=True, quick=looked)
    assert [q.reduction for q in looked] == ["symmetry", "moves"]
