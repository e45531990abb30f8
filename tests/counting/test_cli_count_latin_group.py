"""``gridcount count 1xN --up-to-symmetry --group isotopy|main-class|isomorphism``:
Latin squares' classes through ``count`` (counting/cli/count.py,
counting/plan.py, counting/reduction/latin_orbits.py).

The oracle is a union-find over every Latin square under generators of each
group (tests/latin_samples.py), with no Burnside in it.
"""
import csv
import json
import math

import pytest

from counting.store.database import Store
from cli_samples import invoke
from count_process import killed_and_resumed
from latin_samples import latin_squares, union_find_classes

ORACLE_GROUP = {"main-class": "main", "isomorphism": "isomorphism", "isotopy": "isotopy"}


def count_json(*args) -> dict:
    res = invoke("count", *args, "--up-to-symmetry", "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.mark.parametrize("group", ["main-class", "isomorphism"])
@pytest.mark.parametrize("n", [4, 5])
def test_the_classes_through_count_are_the_union_find_orbits(here, n, group):
    doc = count_json(f"1x{n}", "--group", group)
    assert doc["total_int"] == union_find_classes(n, ORACLE_GROUP[group])
    assert doc["reduction"] == f"symmetry-{group}"
    assert doc["store"] == f"results/1x{n}-rsymmetry-{group}.sqlite"
    assert doc["total_counts"] == {"main-class": "main classes",
                                   "isomorphism": "isomorphism classes"}[group]
    order = {"main-class": 6 * math.factorial(n) ** 3, "isomorphism": math.factorial(n)}[group]
    assert sum(row["weighted_int"] for row in doc["burnside"]) == doc["total_int"] * order
    assert doc["burnside"][0]["fixed_int"] == len(latin_squares(n))     # Fix(id): every square


def test_isotopy_is_the_grid_group_s_job_and_store(here):
    iso = count_json("1x5", "--group", "isotopy")
    assert iso["reduction"] == "symmetry" and iso["store"] == "results/1x5-rsymmetry.sqlite"
    assert iso["total_int"] == union_find_classes(5, "isotopy")
    grid = count_json("1x5", "--group", "grid")
    assert grid["run"]["units_counted"] == 0 and grid["total_int"] == iso["total_int"]


@pytest.mark.parametrize("stored, asked", [("main-class", "isomorphism"),
                                           ("isomorphism", "main-class"),
                                           ("grid", "main-class"), ("main-class", "isotopy")])
def test_a_store_of_another_group_is_refused_naming_both(here, stored, asked):
    count_json("1x4", "--group", stored, "--db", "s.sqlite")
    with Store.open(here / "s.sqlite") as st:
        before = (st.job, len(st))
    named = {"isotopy": "grid"}.get(asked, asked)     # isotopy is grid's other name
    for extra in ([], ["--fresh"]):
        res = invoke("count", "1x4", "--up-to-symmetry", "--group", asked, "--db", "s.sqlite",
                     "--workers", "1", *extra)
        assert res.exit_code == 2, res.output
        line = res.output.strip().splitlines()[-1]
        assert f"under the {stored} group (--group {stored}), not the {named} group " \
               f"(--group {named})" in line
    with Store.open(here / "s.sqlite") as st:       # --fresh deleted nothing
        assert (st.job, len(st)) == before


@pytest.mark.parametrize("kind, group, words", [
    ("2x2", "main-class", "counts plain Latin squares (1xN or Nx1), not 2x2 (4×4 Sudoku grids)"),
    ("1x4+x", "isomorphism", "not 1x4+x (4×4 Latin square grids with extra rules)"),
    ("2x2", "isotopy", "--group isotopy counts plain Latin squares"),
    ("1x10", "main-class", "--group main-class counts orders up to 9: not order 10"),
])
def test_a_latin_group_of_another_kind_or_too_large_an_order_is_refused_in_one_line(
        here, kind, group, words):
    res = invoke("count", kind, "--up-to-symmetry", "--group", group)
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "Traceback" not in res.output
    assert words in res.output
    assert not (here / "results").exists()


def test_a_job_counted_in_parts_resumes_to_the_same_total(here):
    first = count_json("1x5", "--group", "main-class", "--db", "parts.sqlite", "--units", "0-60")
    assert first["total_int"] is None
    rest = count_json("1x5", "--group", "main-class", "--db", "parts.sqlite")
    assert rest["run"]["units_counted"] == 140 - 61
    assert rest["total_int"] == union_find_classes(5, "main")


def test_a_killed_count_resumes_to_the_same_total(here):
    """Killed while a unit waits at the gate (so on a machine of any speed),
    the identity and the units before it stored, then resumed."""
    assert count_json("1x5", "--group", "isomorphism", "--db", "whole.sqlite")["total_int"] == \
        1411       # and the grid store of the identity, made before the killed count
    kept, doc = killed_and_resumed(["1x5", "--up-to-symmetry", "--group", "isomorphism"], here,
                                   hold=5, stored=2)
    assert 0 in kept and len(set(kept)) == len(kept) < 7
    assert doc["run"]["units_counted"] == 7 - len(kept) and doc["total_int"] == 1411


def test_recount_status_and_report_of_a_main_class_store(here):
    count_json("1x5", "--group", "main-class")
    db = "results/1x5-rsymmetry-main-class.sqlite"
    res = invoke("recount", db, "--sample", 200)
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "all 139 recounted units agree"   # all but the identity
    res = invoke("status", db)
    assert res.exit_code == 0, res.output
    counted = next(line for line in res.output.splitlines() if line.startswith("counted under"))
    assert "paratopy" in counted and counted.endswith("(--group main-class)")
    assert res.output.splitlines()[-1].split() == ["total", "(main", "classes)", "2"]


def test_the_report_compares_with_the_group_s_published_value(here):
    pytest.importorskip("matplotlib")
    count_json("1x6", "--group", "main-class")     # 12 main classes, 22 isotopy classes
    res = invoke("report", "results/1x6-rsymmetry-main-class.sqlite", "--format", "md",
                 "-o", "r.md")
    assert res.exit_code == 0, res.output
    assert "matches the published 12 (OEIS A003090)" in (here / "r.md").read_text()


def test_help_names_the_groups_and_what_isotopy_is():
    text = " ".join(invoke("count", "--help").output.split())
    assert "--group [grid|full|isotopy|main-class|isomorphism|loops]" in text
    assert "'isotopy', another name for 'grid' there" in text


def test_group_full_on_latin_squares_is_refused_pointing_to_main_class(here):
    pytest.importorskip("pynauty")
    res = invoke("count", "1x4", "--up-to-symmetry", "--group", "full")
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "(Latin squares: --group main-class counts their main classes, paratopy)" in res.output


def test_a_grid_store_forged_after_a_main_class_identity_was_taken_is_noticed(here):
    """The main-class job's identity is tied to the 1xN grid store like every
    symmetry job's: rows changed afterwards are refused in one line naming both."""
    from store_samples import store_count_plus_one

    count_json("1x4", "--group", "main-class")
    grid = here / "results" / "1x4-rcycles2.sqlite"
    store_count_plus_one(grid)
    res = invoke("status", "results/1x4-rsymmetry-main-class.sqlite")
    assert res.exit_code == 1 and res.output.count("\n") == 1, res.output
    for words in ("1x4-rcycles2.sqlite", "1x4-rsymmetry-main-class.sqlite", "changed since"):
        assert words in res.output, res.output


@pytest.mark.parametrize("group", ["main-class", "isomorphism"])
def test_the_count_and_the_units_csv_give_the_nodes_each_unit_searched(here, group):
    # they said 0 search nodes for units that searched
    doc = count_json("1x5", "--group", group)
    assert doc["run"]["nodes_int"] > 0 and doc["run"]["dead_ends_int"] > 0
    res = invoke("export", f"results/1x5-rsymmetry-{group}.sqlite", "--csv", here / "u.csv")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader((here / "u.csv").read_text().splitlines()))
    searched = [r for r in rows if not r["worker"].startswith("grid count")]   # not the identity
    assert len(searched) == len(rows) - 1
    assert all(int(r["nodes"]) > 0 for r in searched if int(r["count"]) > 0)
