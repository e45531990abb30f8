"""``gridcount count KIND --up-to-symmetry --group full|grid``: the group the
essentially different grids are counted under (counting/cli/count.py,
counting/plan.py, counting/reduction/full_orbits.py).

``grid`` (the default, and what every store made before groups were named
counts under) is the shape's geometric group, or the part of it that keeps a
kind's rules; ``full`` the kind's full group, the automorphisms of its exact
cover.  The oracle is a union-find over every grid under the full group's
generators (tests/variant_samples.py), with no Burnside in it.
"""
import csv
import json

import pytest

pytest.importorskip("pynauty")

from counting.store.database import Store  # noqa: E402
from cli_samples import invoke  # noqa: E402
from full_group_samples import cell_moves  # noqa: E402
from variant_samples import brute_fillings, kind_parts, orbits_by_union_find  # noqa: E402


def count_json(*args, workers: int = 1) -> dict:
    res = invoke("count", *args, "--up-to-symmetry", "--workers", workers, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def union_find_orbits(kind: str) -> int:
    R, C, houses, pairs = kind_parts(kind)
    return orbits_by_union_find(brute_fillings(R * C, houses, pairs), cell_moves(kind))


@pytest.mark.parametrize("kind", ["2x2", "2x2+disjoint", "2x2+disjoint+x"])
def test_group_full_counts_the_orbits_of_the_full_group(here, kind):
    doc = count_json(kind, "--group", "full")
    assert doc["total_int"] == union_find_orbits(kind)
    assert doc["reduction"] == "symmetry-full"
    assert doc["total_counts"] == "essentially different grids"
    assert doc["store"] == f"results/{kind}-rsymmetry-full.sqlite"


def test_group_grid_is_today_s_count_and_the_default(here):
    grid = count_json("2x3+disjoint", "--group", "grid", "--db", "grid.sqlite")
    default = count_json("2x3+disjoint", "--db", "default.sqlite")
    full = count_json("2x3+disjoint", "--group", "full")
    assert grid["reduction"] == default["reduction"] == "symmetry"
    assert grid["total_int"] == default["total_int"] == 105   # under H, 144 × 6!
    assert full["total_int"] == 65                              # under C, 576 × 6!


def test_a_store_made_without_a_group_is_the_grid_group_s(here):
    count_json("2x2+disjoint")                  # as every store before --group was
    doc = count_json("2x2+disjoint", "--group", "grid")
    assert doc["store"] == "results/2x2+disjoint-rsymmetry.sqlite" and doc["total_int"] == 3
    assert doc["run"]["units_counted"] == 0       # resumed: complete already


@pytest.mark.parametrize("stored, asked", [("grid", "full"), ("full", "grid")])
def test_a_store_of_the_other_group_is_refused_naming_both(here, stored, asked):
    count_json("2x2+disjoint", "--group", stored, "--db", "s.sqlite")
    with Store.open(here / "s.sqlite") as st:
        before = (st.job, len(st))
    for extra in ([], ["--fresh"]):
        res = invoke("count", "2x2+disjoint", "--up-to-symmetry", "--group", asked,
                     "--db", "s.sqlite", "--workers", "1", *extra)
        assert res.exit_code == 2, res.output
        line = res.output.strip().splitlines()[-1]
        assert f"under the {stored} group (--group {stored}), not the {asked} group " \
               f"(--group {asked})" in line
    with Store.open(here / "s.sqlite") as st:       # --fresh deleted nothing
        assert (st.job, len(st)) == before


def test_a_merge_of_stores_of_the_two_groups_is_refused_naming_both_groups(here):
    # noticed: merge said only "reduction is 'symmetry-full' there but 'symmetry' here"
    for group in ("grid", "full"):
        count_json("2x2+disjoint", "--group", group, "--db", f"{group}.sqlite")
    with Store.open(here / "grid.sqlite") as st:
        before = (st.job, len(st))
    for target, sources, source, theirs, mine in (
            ("grid.sqlite", ["full.sqlite"], "full.sqlite", "full", "grid"),
            ("new.sqlite", ["full.sqlite", "grid.sqlite"], "grid.sqlite", "grid", "full")):
        res = invoke("merge", target, *sources)
        assert res.exit_code == 2, res.output
        assert res.stderr.splitlines() == [
            f"Error: cannot merge {source} into {target}: {source} counts the essentially "
            f"different grids of 2x2+disjoint under the {theirs} group (--group {theirs}), "
            f"{sources[0] if target == 'new.sqlite' else target} under the {mine} group "
            f"(--group {mine}); nothing was merged"]
    with Store.open(here / "grid.sqlite") as st:
        assert (st.job, len(st)) == before
    assert not (here / "new.sqlite").exists()


def test_a_kind_whose_full_group_is_not_cells_times_relabelling_is_refused(here):
    res = invoke("count", "1x4", "--up-to-symmetry", "--group", "full")
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "Traceback" not in res.output
    assert "does not split into cells × relabelling" in res.output
    assert not (here / "results").exists()


def test_group_needs_up_to_symmetry(here):
    res = invoke("count", "2x2", "--group", "full")
    assert res.exit_code == 2
    assert "--group does nothing without --up-to-symmetry" in res.output


def test_help_states_the_default_group():
    text = " ".join(invoke("count", "--help").output.split())
    assert "--group [grid|full|isotopy|main-class|isomorphism|loops]" in text
    assert "[default: grid, for every kind]" in text


def test_status_and_report_say_the_group(here):
    pytest.importorskip("matplotlib")
    count_json("2x2+disjoint", "--group", "full")
    db = "results/2x2+disjoint-rsymmetry-full.sqlite"
    res = invoke("status", db)
    assert res.exit_code == 0, res.output
    counted = next(line for line in res.output.splitlines() if line.startswith("counted under"))
    assert counted.endswith("3,072 (128 × 4!) (--group full)") and "full group" in counted
    full = next(line for line in res.output.splitlines()
                if line.startswith("full symmetry group"))
    assert "4× today's group (--group grid, 768 = 32 × 4!): it also maps rows onto boxes" \
        in full
    doc = json.loads(invoke("status", db, "--json").output)
    assert doc["symmetry_group"]["group"] == "full"
    assert doc["symmetry_group"]["full_group_counted"] is True
    assert invoke("report", db, "--format", "md", "-o", "r.md").exit_code == 0
    assert "(--group full) |" in (here / "r.md").read_text()


def test_a_full_group_job_counted_in_parts_resumes_to_the_same_total(here):
    whole = count_json("2x3+disjoint", "--group", "full", "--db", "whole.sqlite")
    first = count_json("2x3+disjoint", "--group", "full", "--db", "parts.sqlite",
                       "--units", "0-40")
    assert first["total_int"] is None
    with Store.open(here / "parts.sqlite") as st:
        assert len(st) == 41
    rest = count_json("2x3+disjoint", "--group", "full", "--db", "parts.sqlite")
    assert rest["total_int"] == whole["total_int"] == 65


@pytest.mark.slow
def test_9x9_under_the_full_group_is_5_472_730_538_as_under_the_grid_group(here):
    """The full group of plain 9×9 is today's (3,359,232 × 9!): both count
    Burnside's sum over it (the grid count first, about a minute on 2 cores)."""
    full = count_json("3x3", "--group", "full", workers=2)
    grid = count_json("3x3", "--group", "grid", workers=2)
    assert full["total_int"] == grid["total_int"] == 5_472_730_538


def test_a_grid_store_forged_after_a_full_group_s_identity_was_taken_is_noticed(here):
    """The full group's identity is tied to the grid count's store as today's
    group's is: a grid store whose rows change afterwards (a count and its
    checksum rewritten) makes status refuse, in one line naming both stores."""
    from store_samples import store_count_plus_one

    count_json("2x2+disjoint", "--group", "full")
    grid = here / "results" / "2x2+disjoint-rprefix-rows=2.sqlite"
    store_count_plus_one(grid)
    res = invoke("status", "results/2x2+disjoint-rsymmetry-full.sqlite")
    assert res.exit_code == 1 and res.output.count("\n") == 1, res.output
    for words in ("2x2+disjoint-rprefix-rows=2.sqlite", "2x2+disjoint-rsymmetry-full.sqlite",
                  "changed since"):
        assert words in res.output, res.output


@pytest.mark.parametrize("group", ["grid", "full"])
def test_the_count_and_the_units_csv_give_the_dead_ends_and_memo_hits_of_the_searches(
        here, group):
    # they said 0 dead ends and 0 memo hits for every unit
    doc = count_json("2x3", "--group", group)
    assert doc["run"]["dead_ends_int"] > 0 and doc["run"]["memo_hits_int"] > 0
    res = invoke("export", doc["store"], "--csv", here / "u.csv")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader((here / "u.csv").read_text().splitlines()))
    assert sum(int(r["dead_ends"]) for r in rows) == doc["run"]["dead_ends_int"]
    assert sum(int(r["memo_hits"]) for r in rows) == doc["run"]["memo_hits_int"]
