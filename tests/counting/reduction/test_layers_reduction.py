"""Specification of counting/reduction/layers.py: two-band grids counted by
layers (factorization/layers.py) as units of the count's store.

Published references (the only literal totals here), as in
counting/published.py: 2×3: 28,200,960 (Pettersen) and 2×4:
29,136,487,207,403,520 (Russell), the table of rectangular-box counts in
Wikipedia's "Mathematics of Sudoku"; 2×5:
1,903,816,047,972,624,930,994,913,280,000 (Pettersen and Russell, same
table), under ``--runslow``.
"""
from __future__ import annotations

import dataclasses
import json
import math
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

import counting.reduction.layers as layers
from cli_samples import invoke
from count_process import killed_and_resumed
from counting.reduction.layers import (LayerReduction, PARTS, forget_layers,
                                       layer_store_path)
from counting.reduction.cost import even_work
from counting.reduction.patterns2 import TwoBandPatternReduction
from counting.reduction.registry import get_reduction, reduction_names
from counting.run.counter import count_unit
from factorization.layer_job import part_ranges
from factorization.layer_steps import next_layer
from factorization.layer_store import LayerStoreError
from factorization.layers import layer_counts

PUBLISHED = {"2x3": 28_200_960, "2x4": 29_136_487_207_403_520,
             "2x5": 1_903_816_047_972_624_930_994_913_280_000}


@pytest.fixture(autouse=True)
def own_layer_store(tmp_path, monkeypatch):
    """Each test its own cache (so its own layer store) and no layers merged
    by an earlier test in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget_layers()
    yield
    forget_layers()


def layer_total(shape: str) -> int:
    red = LayerReduction(shape)
    return red.total({u.unit_id: count_unit(u).count for u in red.units()})


def patterns2_total(shape: str) -> int:
    red = TwoBandPatternReduction(shape)
    return red.total({u.unit_id: count_unit(u).count for u in red.units()})


@pytest.mark.parametrize("shape", ["2x3", "3x2", "2x4", "4x2"])
def test_the_total_is_the_published_one_and_patterns2_s(shape):
    published = PUBLISHED[min(shape, shape[::-1])]
    assert layer_total(shape) == published == patterns2_total(shape)


@pytest.mark.slow
def test_2x5_by_layers_is_the_published_total_and_patterns2_s():
    assert layer_total("2x5") == PUBLISHED["2x5"] == patterns2_total("2x5")


def test_a_dropped_multiplicity_gives_another_total(monkeypatch):
    """The planted bug: the Π k_j! of a child's equal masks dropped from the
    recurrence; the published total is then missed (the spec above fails)."""
    def dropped(layer, C, **kwargs):
        part, rows = next_layer(layer, C, **kwargs)
        return {form: (t // math.prod(math.factorial(k) for k in Counter(form).values()), st)
                for form, (t, st) in part.items()}, rows

    monkeypatch.setattr(layers, "next_layer", dropped)
    assert layer_total("2x3") != PUBLISHED["2x3"]
    assert layer_total("2x4") != PUBLISHED["2x4"]


@pytest.mark.parametrize("shape", ["2x3", "2x4", "4x2", "5x2"])
def test_units_are_known_before_any_layer_and_only_the_last_weighs(shape):
    red = LayerReduction(shape)
    C, P = red.C, PARTS[red.C]
    units = red.units()
    assert [u.unit_id for u in units] == list(range((C - 2) * P + 1)) == \
        list(range(red.n_units()))
    assert [u.weight for u in units] == [0] * ((C - 2) * P) + [1]
    assert [(u.layer, u.part) for u in units[:-1]] == \
        [(L, k) for L in range(1, C - 1) for k in range(P)]
    assert (units[-1].layer, units[-1].part, units[-1].parts) == (C - 1, 0, 1)
    assert not layer_store_path(C, P).exists()          # listing the units counted nothing


def test_layers_is_chosen_by_name_never_by_default():
    assert reduction_names("2x4")[-1] == "layers" and reduction_names("2x5")[0] == "patterns2"
    assert get_reduction("4x2", "layers").C == 4
    for shape in ("2x6", "3x3", "1x5"):
        with pytest.raises(ValueError, match="does not apply"):
            get_reduction(shape, "layers")


def test_units_counted_in_any_order_count_their_parents_once_and_agree():
    """The last unit first: it counts the stages it needs into the layer
    store; the stages then read their records back, to the same counts."""
    red = LayerReduction("2x4")
    units = red.units()
    last = count_unit(units[-1]).count
    assert last == PUBLISHED["2x4"]
    con = sqlite3.connect(layer_store_path(4, PARTS[4]))
    stored = con.execute("SELECT COUNT(*) FROM unit").fetchone()[0]
    sizes = layer_counts(4).sizes
    assert stored == 1 + sum(lo < hi for n in sizes[:-2] for lo, hi in part_ranges(n, PARTS[4]))
    forget_layers()
    stages = {u.unit_id: count_unit(u).count for u in units[:-1]}
    assert con.execute("SELECT COUNT(*) FROM unit").fetchone()[0] == stored   # none again
    assert red.total({**stages, units[-1].unit_id: last}) == PUBLISHED["2x4"]
    assert all(count_unit(u).count == red.count_independently(u) for u in units)


@pytest.mark.parametrize("shape, column, value, match", [
    # a stale record: computed from another parent layer (another version's
    # canonical form, a damaged earlier unit); it names itself, never summed in
    ("2x4", "parents", "0" * 64, "of layer 2 was computed from other parents"),
    ("2x3", "digest", "f" * 64, "of layer 1 is damaged"),      # records not of their digest
])
def test_a_stale_or_damaged_record_is_said_and_counted_again_never_merged(
        shape, column, value, match, capsys):
    """The layer store is this machine's cache: a bad record is said in one
    line, dropped and counted again (it used to stop the count with that
    error, and a user had no way on but to find and delete the file)."""
    red = LayerReduction(shape)
    good = count_unit(red.units()[-1]).count
    path = layer_store_path(red.C, PARTS[red.C])
    con = sqlite3.connect(path)
    with con:
        changed = con.execute(f"UPDATE unit SET {column} = ? WHERE layer = ?",
                              (value, red.C - 2)).rowcount
    assert changed > 0
    forget_layers()
    capsys.readouterr()
    assert count_unit(red.units()[-1]).count == good == PUBLISHED[shape]
    said = capsys.readouterr().err.splitlines()
    assert len(said) == changed and all(match in line and line.endswith(
        "dropped and counted again") for line in said)
    with con:       # the records written again are good: read back, nothing said
        assert con.execute(f"SELECT COUNT(*) FROM unit WHERE {column} = ?",
                           (value,)).fetchone()[0] == 0
    forget_layers()
    assert count_unit(red.units()[-1]).count == good and capsys.readouterr().err == ""


def count_json(*args) -> dict:
    res = invoke("count", "2x4", "--reduction", "layers", "--workers", 1, "--json", *args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_a_killed_count_resumes_counting_only_the_missing_units(here):
    """SIGKILL while a unit waits at the gate (a known point on any machine),
    then the same command: the published total, the stored units not counted again.
    (``--force``: no estimate, whose timed units would pass the gate too.)"""
    kept, doc = killed_and_resumed(["2x4", "--reduction", "layers", "--force"], here, hold=5,
                                   stored=5)
    assert len(kept) == len(set(kept)) == 5
    assert doc["run"]["units_counted"] == 9 - 5
    assert doc["total_int"] == PUBLISHED["2x4"]
    again = count_json("--db", here / "k.sqlite")
    assert again["run"]["units_counted"] == 0 and again["total_int"] == PUBLISHED["2x4"]


def test_status_export_and_recount_of_a_layers_store(here):
    count_json("--db", "s.sqlite")
    res = invoke("status", "s.sqlite")
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1].split()[-1] == f"{PUBLISHED['2x4']:,}"
    res = invoke("export", "s.sqlite", "--output-dir", "ex")
    assert res.exit_code == 0, res.output
    summary = json.loads((here / "ex" / "2x4-rlayers.json").read_text())
    assert summary["total_int"] == PUBLISHED["2x4"]
    res = invoke("recount", "s.sqlite")
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "all 9 recounted units agree"


def test_the_report_of_a_layers_store_compares_with_the_published_total(here):
    pytest.importorskip("matplotlib")
    count_json("--db", "s.sqlite")
    res = invoke("report", "s.sqlite", "--format", "md", "-o", "r.md")
    assert res.exit_code == 0, res.output
    assert f"matches the published {PUBLISHED['2x4']:,}" in (here / "r.md").read_text()


def measurement(kind: str, cpu: float, fmt: str = layers.MEASURED_FORMAT) -> dict:
    fresh = {"cpu_seconds": cpu, "wall_seconds": cpu / 2, "load_average_before": 1.0}
    return {"format": fmt, "measured_at": "2026-11-29T00:00:00+00:00",
            "counts": [{"kind": kind, "reduction": "layers", "workers": 2, "fresh": fresh}]}


def test_the_estimate_is_the_measured_job_spread_over_its_units(tmp_path, monkeypatch):
    """Timing two units would say 3.5 s for a 66 s 2x5 job (each unit counts
    the parents it lacks); the measured whole job is said instead."""
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    red = LayerReduction("4x2")
    assert red.cost_model() is None                       # no file: units are timed
    path.write_text(json.dumps(measurement("2x4", 18.0)))
    model = red.cost_model()
    assert model["units"] * model["unit_seconds"] == pytest.approx(18.0)
    assert "18.0 s CPU" in model["method"] and "m.json" in model["method"]
    assert LayerReduction("2x3").cost_model() is None     # another shape's row
    path.write_text(json.dumps(measurement("2x4", 18.0, fmt="something else")))
    assert red.cost_model() is None                       # a foreign file is not read



@pytest.mark.parametrize("where, key, bad", [
    ("fresh", "load_average_before", None), ("fresh", "load_average_before", "high"),
    ("fresh", "load_average_before", ...), ("row", "workers", None), ("row", "workers", 0),
    ("row", "workers", 2.5), ("row", "workers", ...), ("doc", "measured_at", 7)])
def test_a_measurement_with_a_figure_missing_or_damaged_is_not_used_and_never_a_traceback(
        tmp_path, monkeypatch, where, key, bad):
    """A null load or a missing worker count made ``cost_model`` raise a
    TypeError or KeyError while formatting its method line (``...``: the key left out)."""
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    doc = measurement("2x4", 18.0)
    target = {"doc": doc, "row": doc["counts"][0], "fresh": doc["counts"][0]["fresh"]}[where]
    if bad is ...:
        del target[key]
    else:
        target[key] = bad
    path.write_text(json.dumps(doc))
    assert LayerReduction("2x4").cost_model() is None

def test_a_unit_that_is_not_this_job_s_is_refused_before_anything_is_counted():
    """Part 0 of 1 of a stage would be stored under the key of part 0 of 4."""
    red = LayerReduction("2x4")
    stage = red.units()[4]
    with pytest.raises(ValueError, match="is not unit 4 of 2x4 by layers"):
        red.count_directly(dataclasses.replace(stage, parts=1))
    assert not layer_store_path(4, PARTS[4]).exists()


def test_the_run_table_adds_no_stage_sums_to_the_grids(here):
    """A layers unit's count is a stage's Σ T_{L+1} or the last unit's
    Σ m·ℓ·F²: added up they mean nothing, so the run table has no "unit
    solutions (unweighted)" row (it printed 29,136,487,209,061,884 beside
    2x4's 29,136,487,207,403,520 grids); a plain count keeps the row."""
    res = invoke("count", "2x4", "--reduction", "layers", "--workers", 1, "--no-progress")
    assert res.exit_code == 0, res.output
    assert f"2x4 grids {PUBLISHED['2x4']:,}".split() == [
        w for line in res.output.splitlines() if line.startswith("2x4 grids")
        for w in line.split()]
    assert "unit solutions" not in res.output
    res = invoke("count", "2x2", "--workers", 1, "--no-progress")
    assert res.exit_code == 0 and "unit solutions (unweighted)" in res.output


def test_each_class_line_names_its_transition_and_the_one_quantity_its_count_is(here):
    """The run's log said ``class   0 complete: Σ over 4 units = 8,700 Σ T_{L+1},
    the next layer's sums (the last unit: Σ m·ℓ·F²) (weight 0)``: not which
    transition, and both meanings on every line.  Each line now names its
    rows and says one quantity: a stage's Σ T_{L+1}, the last one's grids."""
    red = LayerReduction("2x4")
    sums = Counter()
    for u in red.units():
        sums[u.class_id] += count_unit(u).count
    res = invoke("count", "2x4", "--reduction", "layers", "--workers", 1, "--no-progress")
    assert res.exit_code == 0, res.output
    stage = "Σ T_{L+1}: the next layer's sums; weight 0"
    assert [line for line in res.output.splitlines() if " complete: " in line] == [
        f"rows 1 -> 2 complete: Σ over 4 units = {sums[0]:,} ({stage})",
        f"rows 2 -> 3 complete: Σ over 4 units = {sums[1]:,} ({stage})",
        f"rows 3 -> 4 complete: {PUBLISHED['2x4']:,} grids (Σ m·ℓ·F²; weight 1)"]
    assert sums[2] == PUBLISHED["2x4"]

def with_growth(doc: dict, mib) -> dict:
    """``doc`` with its row's breakdown saying a process grew ``mib`` MiB counting every unit."""
    doc["counts"][0]["breakdown"] = {"units_growth_mib": mib}
    return doc


def test_a_worker_s_memory_is_the_growth_measured_for_its_C(tmp_path, monkeypatch):
    """It was 0 (the measured figure only in a docstring): the memory check
    counted a layers worker as a bare process."""
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    options = layers.CountOptions()
    path.write_text(json.dumps(with_growth(measurement("2x5", 30.0), 123.4)))
    assert LayerReduction("5x2").worker_memory_mib(options) == 123.4
    assert LayerReduction("2x4").worker_memory_mib(options) == 0.0   # not measured: the process only
    for damaged in (-1, "x", None, float("inf")):
        path.write_text(json.dumps(with_growth(measurement("2x5", 30.0), damaged)))
        assert LayerReduction("2x5").worker_memory_mib(options) == 0.0
    path.write_text(json.dumps(measurement("2x5", 30.0)))   # a file from before the figure
    assert LayerReduction("2x5").worker_memory_mib(options) == 0.0


def test_the_committed_measurement_gives_each_measured_C_its_own_figure():
    doc = json.loads(layers.MEASURED.read_text())
    for row in doc["counts"]:
        red = LayerReduction(row["kind"])
        assert red.worker_memory_mib(layers.CountOptions()) == \
            row["breakdown"]["units_growth_mib"] >= 0


def test_workers_whose_measured_layers_do_not_fit_are_refused_naming_them(tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    path.write_text(json.dumps(with_growth(measurement("2x4", 0.1), 10 ** 8)))
    res = invoke("count", "2x4", "--reduction", "layers", "--workers", 2,
                 "--db", tmp_path / "s.sqlite")
    assert res.exit_code == 2, res.output
    line = res.stderr.strip()
    assert line.startswith("Error: Invalid value for --workers: 2 workers × ")
    assert "(100,000,000 MiB layers and a transition's table, measured + " in line
    assert "memo table" not in line and "--memo-mb" not in line
    assert line.endswith("use fewer workers")
    assert not (tmp_path / "s.sqlite").exists()


def with_transitions(doc: dict, cpu) -> dict:
    """``doc`` with its row's breakdown giving each transition's CPU seconds."""
    doc["counts"][0]["breakdown"] = {"units_cpu_by_transition": cpu}
    return doc


def test_work_shares_are_each_transition_s_measured_cpu_split_over_its_units(tmp_path,
                                                                            monkeypatch):
    """Every unit had an equal share: 2x5's 16 units of transition 1 -> 2
    (one state between them) weighed as much as the 16 of 3 -> 4, which
    take over half the CPU, so the bar's estimate of time left was poor."""
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    red = LayerReduction("2x5")
    units = red.units()
    path.write_text(json.dumps(with_transitions(measurement("2x5", 30.0), [0.0, 4.0, 16.0, 4.0])))
    shares = red.work_shares(units)
    by_layer = Counter()
    for u in units:
        by_layer[u.layer] += shares[u.unit_id]
    assert by_layer == pytest.approx({1: 0.0, 2: 4 / 24, 3: 16 / 24, 4: 4 / 24})
    third = [u for u in units if u.layer == 3]
    assert [shares[u.unit_id] for u in third] == pytest.approx([1 / 24] * 16)   # equal parts
    left = red.work_shares(third + units[-1:])                          # the units still to do
    assert left[units[-1].unit_id] == pytest.approx(4 / 20)
    assert math.fsum(left.values()) == pytest.approx(1)


@pytest.mark.parametrize("cpu", [None, [1.0, 2.0], [1.0, -1.0, 2.0, 3.0], [0.0] * 4, "x"])
def test_work_shares_are_even_where_the_C_is_not_measured_or_its_figures_unusable(
        tmp_path, monkeypatch, cpu):
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    doc = measurement("2x5", 30.0)
    path.write_text(json.dumps(doc if cpu is None else with_transitions(doc, cpu)))
    red = LayerReduction("5x2")
    assert list(red.work_shares(red.units()).values()) == pytest.approx([1 / 49] * 49)


def test_a_count_reads_the_layers_measurement_file_once(tmp_path, monkeypatch):
    """The job's estimate, the workers' memory check and the progress bar's
    shares each read ``results/layers-count-seconds.json``: three reads of
    one file a command.  It is read once a process (again only when it
    changes: a file damaged since is refused, not remembered)."""
    path = tmp_path / "m.json"
    monkeypatch.setattr(layers, "MEASURED", path)
    path.write_text(json.dumps(with_transitions(measurement("2x4", 18.0), [1.0, 2.0, 3.0])))
    reads = []
    read_text = Path.read_text
    monkeypatch.setattr(Path, "read_text",
                        lambda p, *a, **k: (reads.append(p), read_text(p, *a, **k))[1])
    res = invoke("count", "2x4", "--reduction", "layers", "--workers", 1,
                 "--db", tmp_path / "s.sqlite")
    assert res.exit_code == 0, res.output
    assert reads.count(path) == 1
    red = LayerReduction("2x4")
    assert red.cost_model() is not None and reads.count(path) == 1
    path.write_text(json.dumps(measurement("2x4", 18.0))[:-3])      # cut short: not JSON
    assert red.cost_model() is None and red.work_shares(red.units()) == \
        even_work(red.units())
    assert reads.count(path) == 2


def test_classes_shows_each_transition_as_its_rows_as_the_run_s_class_lines_name_it():
    """``classes 2x3 --reduction layers`` showed the representative
    ``((1, 2),)`` as the digit row "12": a transition reads "1 -> 2" under
    its heading (the run's log names it "rows 1 -> 2"), in --json too."""
    res = invoke("classes", "2x4", "--reduction", "layers")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].split()[:5] == ["class", "transition:", "rows", "L", "->"]
    assert [line.split()[:4] for line in lines[1:4]] == [
        ["0", "1", "->", "2"], ["1", "2", "->", "3"], ["2", "3", "->", "4"]]
    rows = json.loads(invoke("classes", "2x4", "--reduction", "layers", "--json").output)
    assert [r["representative"] for r in rows] == [["1 -> 2"], ["2 -> 3"], ["3 -> 4"]]
