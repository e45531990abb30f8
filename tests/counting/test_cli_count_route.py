"""``gridcount count 2x6``: the layer route's measured estimate, read from its
file under results/, in place of the search's (issue 36); the search's when
the file is missing, damaged or foreign, said in one line
(counting/cli/count.py, counting/plan.py, counting/route_estimate.py)."""
from __future__ import annotations

import json

import pytest

from counting import layer_route, plan, reach, route_estimate
from counting.reach import JobCost
from counting.route_estimate import example_document
from grids.kind import as_kind

from cli_samples import invoke


@pytest.fixture
def no_search(monkeypatch):
    """The search's estimate must not be made (it takes seconds and is not
    what is printed while the route's file can be read)."""
    def searched(*args, **kwargs):
        raise AssertionError("the search's estimate was made")
    monkeypatch.setattr(reach, "job_cost", searched)
    monkeypatch.setattr(reach, "layers_estimate", searched)


@pytest.fixture
def fake_search(monkeypatch):
    """A search estimate made at once (a million core-hours), and no live
    layer sampling beside it."""
    monkeypatch.setattr(reach, "job_cost", lambda red, options, **kw: JobCost(
        red.shape.name, red.name, 1_000, False, 3.6e6, 2, 1.0))
    monkeypatch.setattr(reach, "layers_estimate", lambda kind: None)


def plant(monkeypatch, tmp_path, text: str | None = None, f5_hours: float | None = None):
    """The 2x6 measurement file replaced by ``text``, or by the module's
    example with F_5 taking ``f5_hours``; None and None: no file at all."""
    path = tmp_path / "planted-route.json"
    if f5_hours is not None:
        doc = example_document()
        doc["stages"][1]["cpu_seconds"] = f5_hours * 3600
        text = json.dumps(doc)
    if text is not None:
        path.write_text(text)
    monkeypatch.setitem(route_estimate.FILES, "2x6", path)
    return path


def refusal_line(res) -> str:
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert lines[-1].startswith("Error: ") and "Traceback" not in res.output
    return lines[-1]


@pytest.mark.parametrize("f5_hours, total, day", [(140, "150 ± 5 core-hours", "7"),
                                                  (1_490, "1,500 ± 5 core-hours", "63")])
def test_count_2x6_prints_the_estimate_of_the_measurement_file(monkeypatch, tmp_path, no_search,
                                                               f5_hours, total, day):
    path = plant(monkeypatch, tmp_path, f5_hours=f5_hours)
    res = invoke("count", "2x6", "--db", tmp_path / "s.sqlite")
    rows = {line.split("  ", 1)[0]: line.split("  ", 1)[1].strip()
            for line in res.stdout.splitlines() if "  " in line}
    assert rows["core-hours"] == f"{total} (± one standard error)"
    assert rows["workers for a day"] == day and rows["dominant stage"].startswith("F_5 (")
    assert rows["memory"].startswith("32.0 GiB on one machine")
    assert "the target of 20 GiB a worker is not met" in rows["memory"]
    assert rows["disk"].startswith("17.9 GiB")
    assert rows["date"] == "2026-01-01T00:00:00Z" and rows["measurement file"] == str(path)
    assert "not runnable yet" in rows["route"] and rows["machine"].startswith("a CPU, 2 cores")
    line = refusal_line(res)
    assert line.startswith(f"Error: 2x6 by layers is out of reach: {total} by an example route")
    assert ("so it is refused (--force does not run the search in its place; --reduction patterns2 "
            "without --force gives the per-class count's own estimate)") in line
    assert not (tmp_path / "s.sqlite").exists()


def test_count_6x2_json_gives_the_same_estimate_as_data(monkeypatch, tmp_path, no_search):
    plant(monkeypatch, tmp_path, f5_hours=140)
    res = invoke("count", "6x2", "--json", "--db", tmp_path / "s.sqlite")
    doc = json.loads(res.stdout)
    assert doc["exit_code"] == 2 and doc["error"] == refusal_line(res)[len("Error: "):]
    est = doc["route_estimate"]
    assert est["core_hours"] == 150.0 and est["cpu_seconds"] == 540_000.0
    assert [s["name"] for s in est["stages"]] == ["F_4", "F_5"]
    assert est["runnable"] is False and est["memory_target_met"] is False
    assert est["workers_for_a_day"] == 7 and est["memory_one_machine_bytes"] == 32 * 2 ** 30


@pytest.mark.parametrize("text, says", [
    (None, "is missing"),
    ("[1, 2", "is damaged: not JSON"),
    (json.dumps({**example_document(), "shape": "2x5"}), "is a measurement of 2x5, not 2x6"),
    (json.dumps({"format": "a spreadsheet"}), "is not a route measurement"),
])
def test_a_missing_or_foreign_file_is_said_in_one_line_and_the_search_estimated(
        monkeypatch, tmp_path, fake_search, text, says):
    path = plant(monkeypatch, tmp_path, text)
    res = invoke("count", "2x6", "--db", tmp_path / "s.sqlite")
    line = refusal_line(res)
    assert line.startswith("Error: 2x6 by reduction patterns2 is out of reach: 1,000,000 "
                           "core-hours")
    said = [x for x in res.stderr.splitlines() if "the layer route's measurement" in x]
    assert len(said) == 1 and said[0].startswith(f"the layer route's measurement: {path} {says}")
    assert said[0].endswith("; the search's estimate instead")
    assert res.stdout == ""
    res = invoke("count", "2x6", "--json", "--db", tmp_path / "s.sqlite")
    doc = json.loads(res.stdout)
    assert doc["notes"] == said and "route_estimate" not in doc and doc["exit_code"] == 2


def test_the_committed_measurement_is_what_count_2x6_prints(tmp_path, no_search):
    e = route_estimate.load(as_kind("2x6"))
    res = invoke("count", "2x6", "--workers", "2", "--db", tmp_path / "s.sqlite")
    assert f"Error: 2x6 by layers is out of reach: {e.describe(2)}" in refusal_line(res)
    assert "results/layers-2x6-route.json" in res.stdout


# -- count 2x6 --force: the route is not runnable here, and the search is not run in its place


@pytest.fixture
def no_listing(monkeypatch):
    """The units must not be listed (2x6's pattern classes take minutes)."""
    def listed(*args, **kwargs):
        raise AssertionError("the units were listed")
    monkeypatch.setattr(plan.Job, "load", listed)


@pytest.mark.parametrize("memory_gib, says_memory", [(24, True), (64, False)])
def test_count_2x6_force_is_refused_in_one_line_naming_why_the_route_cannot_run(
        monkeypatch, tmp_path, no_search, no_listing, memory_gib, says_memory):
    plant(monkeypatch, tmp_path, f5_hours=140)       # its memo: 32.0 GiB on one machine
    monkeypatch.setattr(layer_route, "MEMO_MB_MAX", memory_gib * 1024)
    res = invoke("count", "2x6", "--force", "--db", tmp_path / "s.sqlite")
    line = refusal_line(res)
    assert line.startswith("Error: 2x6 by layers is out of reach: 150 ± 5 core-hours")
    assert ("--force: the layer route for 2x6 is measured but not runnable here: the layer "
            "job (scripts/run_layer_job.py) counts bands of at most 5 stacks, not 6") in line
    memory = f"its memo needs 32.0 GiB on one machine, more than this machine's {memory_gib}.0 GiB"
    assert (memory in line) is says_memory
    assert line.endswith("the per-class search by patterns2 is not started in its place "
                         "(--reduction patterns2 without --force gives its own estimate)")
    assert "memory" in res.stdout               # the route's table, as without --force
    assert not (tmp_path / "s.sqlite").exists()


def test_count_6x2_force_json_is_the_same_refusal_as_data(monkeypatch, tmp_path, no_search,
                                                         no_listing):
    plant(monkeypatch, tmp_path, f5_hours=140)
    res = invoke("count", "6x2", "--force", "--json", "--db", tmp_path / "s.sqlite")
    doc = json.loads(res.stdout)
    assert doc["exit_code"] == 2 and "measured but not runnable here" in doc["error"]
    assert doc["route_estimate"]["runnable"] is False


@pytest.mark.parametrize("text, what", [(None, "is missing"), ("{", "is damaged")])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_count_2x6_force_without_a_usable_route_file_is_refused_not_searched(
        monkeypatch, tmp_path, no_search, no_listing, text, what, json_flag):
    # the route's file missing or damaged: --force said "the search's estimate
    # instead" and went on to list the units of the 2.3-million-core-hour search
    path = plant(monkeypatch, tmp_path, text)
    res = invoke("count", "2x6", "--force", "--db", tmp_path / "s.sqlite", *json_flag)
    assert res.exit_code == 2, res.output
    line = res.stderr.strip().splitlines()[-1]
    assert res.stderr.count("Error:") == 1 and "Traceback" not in res.output
    assert line.startswith(f"Error: 2x6 --force: the layer route's measurement file {path} {what}")
    assert line.endswith("the per-class search by patterns2 is not started in its place "
                         "(--reduction patterns2 without --force gives its own estimate)")
    if json_flag:
        assert json.loads(res.stdout)["exit_code"] == 2
    assert not (tmp_path / "s.sqlite").exists()


def test_count_2x6_force_with_the_reduction_named_says_the_slow_listing_first(
        monkeypatch, tmp_path, no_search):
    """The search, asked by name, lists 2x6's pattern classes first (minutes):
    said at once, on a pipe too, before anything is listed."""
    said_before = []

    def listed(*args, **kwargs):
        said_before.append(True)
        raise ValueError("listing stopped by the test")
    monkeypatch.setattr(plan.Job, "load", listed)
    res = invoke("count", "2x6", "--reduction", "patterns2", "--force",
                 "--db", tmp_path / "s.sqlite")
    assert res.exit_code == 1 and said_before, res.output
    lines = res.stderr.strip().splitlines()
    assert lines[-1] == "Error: listing stopped by the test"
    assert lines[-2] == ("enumerating the pattern classes of 2x6 before the first unit: "
                         "about 3 minutes ...")


def test_count_2x6_up_to_symmetry_force_does_not_count_the_grids_behind_the_identity_by_search(
        monkeypatch, tmp_path, no_search, no_listing):
    # review: --up-to-symmetry --force skipped the route's refusal and went on to count the
    # 2x6 grids (the identity's term) by the ~2.3 million core-hour per-class search
    plant(monkeypatch, tmp_path, f5_hours=140)
    monkeypatch.setattr(layer_route, "MEMO_MB_MAX", 24 * 1024)
    res = invoke("count", "2x6", "--up-to-symmetry", "--force", "--db", tmp_path / "s.sqlite")
    line = refusal_line(res)
    assert res.exit_code == 2
    assert line.startswith("Error: 2x6 by layers is out of reach")
    assert "is not started in its place" in line
    assert not (tmp_path / "s.sqlite").exists()


# -- count 2x6 --reduction layers: the route's estimate, and why its units stop at C = 5


@pytest.mark.parametrize("shape", ["2x6", "6x2"])
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_count_2x6_by_layers_is_refused_with_the_route_estimate_and_why_it_cannot_run(
        monkeypatch, tmp_path, no_search, no_listing, shape, force):
    # it said only "reduction 'layers' does not apply to box shape 2x6": not why,
    # nor what the layer route would take, which count 2x6 prints from its file
    plant(monkeypatch, tmp_path, f5_hours=140)
    res = invoke("count", shape, "--reduction", "layers", *force, "--db", tmp_path / "s.sqlite")
    line = refusal_line(res)
    assert line.startswith(f"Error: {shape} by layers is out of reach: 150 ± 5 core-hours by "
                           f"an example route")
    assert ("--reduction layers: its units are built for bands of C = 2..5 stacks, not C = 6; "
            "the layer job (scripts/run_layer_job.py) counts bands of at most 5 stacks") in line
    assert line.endswith("so it is refused, and --force cannot run it")
    rows = {r.split("  ", 1)[0]: r.split("  ", 1)[1].strip()
            for r in res.stdout.splitlines() if "  " in r}
    assert rows["core-hours"] == "150 ± 5 core-hours (± one standard error)"
    assert not (tmp_path / "s.sqlite").exists()


def test_count_2x6_by_layers_json_gives_the_route_estimate_as_data(monkeypatch, tmp_path,
                                                                  no_search, no_listing):
    plant(monkeypatch, tmp_path, f5_hours=140)
    res = invoke("count", "2x6", "--reduction", "layers", "--json", "--db", tmp_path / "s.sqlite")
    doc = json.loads(res.stdout)
    assert doc["exit_code"] == 2 and doc["error"] == refusal_line(res)[len("Error: "):]
    assert doc["route_estimate"]["core_hours"] == 150.0


@pytest.mark.parametrize("text, what", [(None, "is missing"), ("{", "is damaged")])
def test_count_2x6_by_layers_without_a_usable_route_file_is_refused_naming_the_file(
        monkeypatch, tmp_path, no_search, no_listing, text, what):
    path = plant(monkeypatch, tmp_path, text)
    res = invoke("count", "2x6", "--reduction", "layers", "--db", tmp_path / "s.sqlite")
    line = refusal_line(res)
    assert line.startswith(f"Error: 2x6 --reduction layers: the layer route's measurement file "
                           f"{path} {what}")
    assert "its units are built for bands of C = 2..5 stacks, not C = 6" in line
    assert res.stderr.count("Error:") == 1


# -- classes 2x6 --reduction layers: the same why as count's, in one line


def count_s_why(res) -> str:
    """What ``count SHAPE --reduction layers`` says its refusal is because of."""
    line = refusal_line(res)
    start = line.index("--reduction layers: ") + len("--reduction layers: ")
    return line[start:line.index("; so it is refused")]


@pytest.mark.parametrize("shape", ["2x6", "6x2"])
def test_classes_2x6_by_layers_says_count_s_why_in_one_line(monkeypatch, tmp_path, no_search,
                                                            no_listing, shape):
    # it said only "reduction 'layers' does not apply to box shape 2x6", where
    # count 2x6 --reduction layers says why (its units stop at C = 5, the route's memo)
    plant(monkeypatch, tmp_path, f5_hours=140)
    monkeypatch.setattr(layer_route, "MEMO_MB_MAX", 24 * 1024)
    why = count_s_why(invoke("count", shape, "--reduction", "layers",
                             "--db", tmp_path / "s.sqlite"))
    assert why.startswith("its units are built for bands of C = 2..5 stacks, not C = 6; ")
    assert why.endswith("more than this machine's 24.0 GiB")
    res = invoke("classes", shape, "--reduction", "layers")
    assert refusal_line(res) == res.stderr.strip()      # one line, exit 2
    assert res.stderr.strip() == (f"Error: Invalid value for --reduction: reduction 'layers' "
                                  f"has no units for box shape {shape}: {why}")


def test_classes_2x6_by_layers_without_a_usable_route_file_names_the_file(
        monkeypatch, tmp_path, no_search, no_listing):
    path = plant(monkeypatch, tmp_path, "{")
    res = invoke("classes", "2x6", "--reduction", "layers")
    assert refusal_line(res) == res.stderr.strip()
    line = res.stderr.strip()
    assert line.startswith(f"Error: Invalid value for --reduction: reduction 'layers' has no "
                           f"units for box shape 2x6: the layer route's measurement file "
                           f"{path} is damaged")
    assert line.endswith("; its units are built for bands of C = 2..5 stacks, not C = 6")


def test_classes_2x7_by_layers_has_no_measured_route_and_says_it_does_not_apply():
    res = invoke("classes", "2x7", "--reduction", "layers")
    assert res.exit_code == 2
    assert res.stderr.strip() == ("Error: Invalid value for --reduction: reduction 'layers' "
                                  "does not apply to box shape 2x7")

def test_count_2x7_by_layers_has_no_measured_route_and_says_it_does_not_apply(tmp_path):
    res = invoke("count", "2x7", "--reduction", "layers", "--db", tmp_path / "s.sqlite")
    assert res.exit_code == 2
    assert res.stderr.strip() == ("Error: Invalid value for --reduction: reduction 'layers' "
                                  "does not apply to box shape 2x7")
