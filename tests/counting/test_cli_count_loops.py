"""``gridcount count 1xN --up-to-symmetry --group loops``: loops up to
isomorphism through ``count``, ``status``, ``recount`` and ``report``
(counting/cli/count.py, counting/plan.py, counting/reduction/loop_orbits.py).

Up to order 7 every unit is counted, the identity's too: no grid store is
read or made.  Order 8's identity, the reduced Latin squares, is the grid
count's over 8!·7!, taken from the 1x8 grid store and tied to it as every
symmetry job's (counting/store/identity.py); the smaller orders test that
path by taking their identity so through the library.
"""
import csv
import json
import math

import pytest

from counting.store.database import Store, StoreError
from cli_samples import invoke
from store_samples import store_count_plus_one

DB = "results/1x5-rsymmetry-loops.sqlite"


def count_json(*args) -> dict:
    res = invoke("count", *args, "--up-to-symmetry", "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.mark.parametrize("n, classes", [(4, 2), (5, 6), (6, 109)])
def test_the_loops_up_to_isomorphism_are_oeis_a057771_and_no_grid_store_is_made(
        here, n, classes):
    doc = count_json(f"1x{n}", "--group", "loops")
    assert doc["total_int"] == classes
    assert doc["reduction"] == "symmetry-loops" and doc["total_counts"] == \
        "loops up to isomorphism"
    assert doc["store"] == f"results/1x{n}-rsymmetry-loops.sqlite"
    assert sorted(p.name for p in (here / "results").iterdir()) == \
        [f"1x{n}-rsymmetry-loops.sqlite"]                  # the identity is no grid count
    assert sum(row["weighted_int"] for row in doc["burnside"]) == classes * math.factorial(n)
    assert doc["burnside"][0]["fixed_int"] == n * {4: 4, 5: 56, 6: 9408}[n]   # n × A000315


def test_a_job_counted_in_parts_resumes_to_the_same_total(here):
    first = count_json("1x6", "--group", "loops", "--db", "parts.sqlite", "--units", "0-2")
    assert first["total_int"] is None and first["run"]["units_counted"] == 3
    rest = count_json("1x6", "--group", "loops", "--db", "parts.sqlite")
    assert rest["run"]["units_counted"] == 7 - 3 and rest["total_int"] == 109   # 7 classes fix a point


def test_the_count_and_the_units_csv_give_the_nodes_each_unit_searched(here):
    # they said 0 search nodes for units that searched
    doc = count_json("1x5", "--group", "loops")
    assert doc["run"]["nodes_int"] > 0
    res = invoke("export", DB, "--csv", here / "u.csv")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader((here / "u.csv").read_text().splitlines()))
    assert len(rows) == 5 and all(int(r["nodes"]) > 0 for r in rows if int(r["count"]) > 0)


def test_recount_status_and_report_of_a_loops_store(here):
    count_json("1x5", "--group", "loops")
    res = invoke("recount", DB)
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "all 5 recounted units agree"    # the identity too
    res = invoke("status", DB)
    assert res.exit_code == 0, res.output
    counted = next(line for line in res.output.splitlines() if line.startswith("counted under"))
    assert "loops up to isomorphism" in counted and counted.endswith("(--group loops)")
    assert res.output.splitlines()[-1].split() == ["total", "(loops", "up", "to",
                                                   "isomorphism)", "6"]
    assert "identity (unit 0)" not in res.output      # counted here: no grid store to name
    assert "identity" not in json.loads(invoke("status", DB, "--json").output)
    pytest.importorskip("matplotlib")
    res = invoke("report", DB, "--format", "md", "-o", "r.md")
    assert res.exit_code == 0, res.output
    assert "matches the published 6 (OEIS A057771)" in (here / "r.md").read_text()


def test_recount_finds_an_edited_identity_unit(here):
    count_json("1x5", "--group", "loops")
    store_count_plus_one(here / DB, 0)
    res = invoke("recount", DB)
    assert res.exit_code == 1, res.output
    assert "unit    0: stored           57  recounted           56" in res.output
    assert res.output.strip().splitlines()[-1] == \
        "Error: 1 of 5 recounted units disagree with the store"


@pytest.mark.parametrize("stored, asked", [("isomorphism", "loops"), ("loops", "isomorphism")])
def test_a_store_of_another_group_is_refused_naming_both(here, stored, asked):
    count_json("1x4", "--group", stored, "--db", "s.sqlite")
    with Store.open(here / "s.sqlite") as st:
        before = (st.job, len(st))
    res = invoke("count", "1x4", "--up-to-symmetry", "--group", asked, "--db", "s.sqlite",
                 "--workers", "1")
    assert res.exit_code == 2, res.output
    assert f"under the {stored} group (--group {stored}), not the {asked} group " \
           f"(--group {asked})" in res.output.strip().splitlines()[-1]
    with Store.open(here / "s.sqlite") as st:
        assert (st.job, len(st)) == before


@pytest.mark.parametrize("kind, words", [
    ("2x2", "--group loops counts plain Latin squares (1xN or Nx1), not 2x2 (4×4 Sudoku grids)"),
    ("1x9", "--group loops counts orders up to 8: not order 9"),
])
def test_another_kind_or_too_large_an_order_is_refused_in_one_line(here, kind, words):
    res = invoke("count", kind, "--up-to-symmetry", "--group", "loops")
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "Traceback" not in res.output
    assert words in res.output
    assert not (here / "results").exists()


def test_help_names_the_group_and_its_oeis_sequence():
    text = " ".join(invoke("count", "--help").output.split())
    assert "--group [grid|full|isotopy|main-class|isomorphism|loops]" in text
    assert "'loops', the same on the squares with an identity element (loops up to " \
           "isomorphism, OEIS A057771), orders up to 8 (beyond 7, its identity from the grid " \
           "count)" in text


@pytest.mark.parametrize("n, classes, reduced", [(5, 6, 56), (6, 109, 9408)])
def test_the_identity_taken_from_the_grid_store_gives_oeis_a057771_and_is_tied_to_it(
        here, n, classes, reduced):
    """Order 8's path at small orders: unit 0 recorded from the 1xN grid
    store as R_N = L_N / (N!·(N-1)!) (A000315 from A002860), linked to its
    rows; the job's other units counted; the total is A057771, the recount
    (the identity searched again) agrees, and a grid store changed since is
    refused naming both stores."""
    from counting.job import Job
    from counting.plan import prepare_identity
    from counting.store.identity import check_identity
    from store_samples import store_count_plus_one

    assert invoke("count", f"1x{n}", "--workers", 1).exit_code == 0    # the grid store
    grid, = (here / "results").iterdir()
    db = here / f"results/1x{n}-rsymmetry-loops.sqlite"
    said = []
    with Store.create_or_open(db, Job.load(f"1x{n}", "symmetry-loops").info()) as st:
        assert prepare_identity(st, f"1x{n}", None, False, {}, say=said.append) == reduced
        identity = st.get(0)
        assert identity.worker.startswith(f"grid count results/{grid.name} rows ")
        assert check_identity(st, identity).checked
    assert said == [f"identity: {reduced * math.factorial(n) * math.factorial(n - 1):,} "
                    f"grids / {n}!·{n - 1}! = {reduced:,} (from results/{grid.name})"]
    doc = count_json(f"1x{n}", "--group", "loops")
    assert doc["run"]["units_counted"] == len(doc["burnside"]) - 1     # all but the identity
    assert doc["total_int"] == classes and doc["burnside"][0]["fixed_int"] == n * reduced
    res = invoke("recount", str(db))
    assert res.exit_code == 0 and res.output.splitlines()[-1].endswith("recounted units agree")
    store_count_plus_one(grid)
    with Store.open(db) as st, pytest.raises(StoreError, match="changed since") as info:
        check_identity(st, st.get(0))
    assert grid.name in str(info.value) and db.name in str(info.value)


@pytest.mark.slow
def test_order_8_through_count_takes_its_identity_from_the_grid_store_and_is_oeis_a057771(here):
    """About 15 s: the 1x8 grid count (its store made first), then 14 units
    of under a second; the identity is checked against the grid store and
    its recount is that store's."""
    doc = count_json("1x8", "--group", "loops")
    assert doc["total_int"] == 106_228_849                          # OEIS A057771
    assert doc["burnside"][0]["fixed_int"] == 8 * 535_281_401_856   # 8 × A000315
    grid = "results/1x8-rcycles2.sqlite"
    assert (here / grid).is_file()
    db = "results/1x8-rsymmetry-loops.sqlite"
    status = json.loads(invoke("status", db, "--json").output)
    assert status["identity"] == {"grid_store": grid, "checked": True}
    res = invoke("recount", db, "--sample", 15)
    assert res.exit_code == 0, res.output
    assert "unit    0: not recounted here: the identity's count is the 1x8 grid count / " \
           "(8!·7!): recount the grid count's store" in res.output
    assert res.output.splitlines()[-1] == "all 14 recounted units agree"
