"""counting/route_estimate.py: a route's estimate is read from its measurement
file, every figure from the file, and a missing, damaged or foreign file is
one error naming the file and what is wrong (issue 36)."""
from __future__ import annotations

import json

import pytest

from counting import route_estimate
from counting.route_estimate import RouteEstimate, RouteFileError, example_document, load
from grids.kind import as_kind


def planted(tmp_path, name="route.json", **changes) -> "Path":
    """A measurement file: the module's example with ``changes`` made."""
    doc = example_document()
    doc.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_the_committed_measurement_of_2x6_is_read_for_both_spellings():
    for shape in ("2x6", "6x2"):
        e = load(as_kind(shape))
        assert e.shape == "2x6" and e.path == "results/layers-2x6-route.json"
        assert e.cpu.value > 0 and e.cpu.stderr > 0 and len(e.stages) == 3
        assert e.dominant.name == "F_5"
    assert not route_estimate.applies(as_kind("2x5"))
    assert not route_estimate.applies(as_kind("1x12"))      # Latin squares: no route


def test_every_figure_comes_from_the_file(tmp_path):
    """The example: F_4 10 ± 3 core-hours, F_5 140 ± 4, 3 × 10^8 memo
    entries of 64 B; doubling F_5's seconds in the file changes the total,
    the workers for a day and the wall time said."""
    one = load(as_kind("2x6"), planted(tmp_path))
    assert one.describe().startswith("150 ± 5 core-hours by an example route (measured "
                                     "2026-01-01T00:00:00Z, ")
    rows = dict(one.rows(workers=2))
    assert rows["core-hours"] == "150 ± 5 core-hours (± one standard error)"
    assert rows["  F_4"] == "10 ± 3 core-hours: once per class"
    assert rows["dominant stage"] == "F_5 (93 %)"
    assert rows["workers for a day"] == "7" and rows["on 2 workers"] == "about 3.1 days"
    # 3e8 entries / 0.75 -> 2^29 slots of 64 B: 32 GiB; split over 2: 16 GiB each
    assert rows["memory"].startswith("32.0 GiB on one machine (the memo of 300,000,000 "
                                     "entries); 16.0 GiB a worker only split by key over 2 "
                                     "workers, a join not built: the target of 20 GiB")
    assert rows["disk"].startswith("17.9 GiB")
    stages = example_document()["stages"]
    stages[1]["cpu_seconds"] *= 2
    two = load(as_kind("2x6"), planted(tmp_path, "two.json", stages=stages))
    assert dict(two.rows(2))["core-hours"].startswith("290 ± 5 core-hours")
    assert two.workers_for_a_day == 13 and two.as_json(2)["core_hours"] == 290.0
    small = load(as_kind("2x6"), planted(tmp_path, "small.json",
                                         memo={**example_document()["memo"], "entries": 1e6}))
    assert "within the 20 GiB a worker aimed at" in dict(small.rows(2))["memory"]
    assert small.as_json(2)["memory_target_met"] is True
    assert one.as_json(2)["memory_target_met"] is False


def test_the_refusal_says_the_route_is_not_built_and_the_days_when_over_budget(tmp_path):
    e = load(as_kind("2x6"), planted(tmp_path))     # 150 core-hours: 6.25 days on one
    stages = example_document()["stages"]
    stages[1]["cpu_seconds"] *= 2
    longer = load(as_kind("2x6"), planted(tmp_path, "two.json", stages=stages))   # 290
    assert longer.refusal("patterns2", 1).startswith("more than 7 days on 1 worker, and the "
                                                     "layer route is not built yet, so it is "
                                                     "refused")
    for within in (longer.refusal("patterns2", 2), e.refusal("patterns2", 1)):
        assert within.startswith("the layer route is not built yet, so it is refused")
    # the hint never says --force: the per-class search's own estimate is ~2.3 million core-hours
    assert "--reduction patterns2 without --force gives the per-class count's own estimate" \
        in e.refusal("patterns2", 2)
    assert "--force runs" not in e.refusal("patterns2", 2)


@pytest.mark.parametrize("how, says", [
    ("missing", "is missing"),
    ("not json", "is damaged: not JSON"),
    ("no stages", "is damaged: KeyError"),
    ("negative", "is damaged: ValueError"),
    ("other format", "is not a route measurement"),
    ("other version", "of version 2, not 1"),
    ("other shape", "is a measurement of 2x5, not 2x6"),
])
def test_a_missing_damaged_or_foreign_file_is_one_error_naming_it(tmp_path, how, says):
    path = tmp_path / "route.json"
    doc = example_document()
    if how == "not json":
        path.write_text('{"format": "gridcount route measurement", ')
    elif how != "missing":
        if how == "no stages":
            del doc["stages"]
        elif how == "negative":
            doc["stages"][0]["cpu_seconds"] = -1.0
        elif how == "other format":
            doc["format"] = "something else"
        elif how == "other version":
            doc["version"] = 2
        elif how == "other shape":
            doc["shape"] = "2x5"
        path.write_text(json.dumps(doc))
    with pytest.raises(RouteFileError) as e:
        load(as_kind("6x2"), path)
    assert str(path) in str(e.value) and says in str(e.value) and "\n" not in str(e.value)


def test_for_job_falls_back_in_one_line_and_only_for_the_default_reduction(monkeypatch, tmp_path):
    said = []
    monkeypatch.setitem(route_estimate.FILES, "2x6", tmp_path / "gone.json")
    assert route_estimate.for_job(as_kind("2x6"), "patterns2", said.append) is None
    assert said == [f"the layer route's measurement: {tmp_path / 'gone.json'} is missing; "
                    f"the search's estimate instead"]
    monkeypatch.setitem(route_estimate.FILES, "2x6", planted(tmp_path))
    assert isinstance(route_estimate.for_job(as_kind("2x6"), "patterns2"), RouteEstimate)
    assert route_estimate.for_job(as_kind("2x6"), "moves") is None   # another reduction asked
