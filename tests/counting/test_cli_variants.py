"""``gridcount count KIND``: grid kinds with extra rules through the store,
checked against the independent brute force of the tests."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from variant_samples import brute_count, difference_pairs, extra_houses, basic_houses

from counting.cli import cli
from counting.store.database import Store


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("kind, R, C, extra, rule", [
    ("2x2+x", 2, 2, "x", None),
    ("1x5+x", 1, 5, "x", None),
    ("2x2+anti-king", 2, 2, None, "anti-king"),
])
def test_count_of_a_kind_equals_the_brute_force(tmp_path, kind, R, C, extra, rule):
    db = tmp_path / "v.sqlite"
    res = invoke("count", kind, "--db", db, "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    houses = basic_houses(R, C) + (extra_houses(extra, R, C) if extra else [])
    pairs = difference_pairs(rule, R * C) if rule else []
    assert int(json.loads(res.output)["total_int"]) == brute_count(R * C, houses, pairs)
    with Store.open(db) as st:
        assert st.job.shape == kind and st.job.reduction == "prefix-rows=2"


def test_a_store_of_one_kind_is_refused_for_another_naming_both(tmp_path):
    db = tmp_path / "v.sqlite"
    assert invoke("count", "2x2+x", "--db", db, "--workers", "1", "-q").exit_code == 0
    res = invoke("count", "2x2", "--db", db, "--workers", "1")
    assert res.exit_code != 0 and "'2x2+x' in the database but '2x2' was asked for" in res.output


@pytest.mark.parametrize("args, says", [
    (["count", "2x3+windoku"], "does not apply to 2x3"),
    (["count", "3x3+nothing"], "unknown grid kind 'nothing'"),
    (["count", "3x3+x", "--reduction", "moves"], "counts plain grids"),
    (["count", "3x3", "--reduction", "prefix"], "counts grid kinds with extra rules"),
])
def test_bad_kinds_are_one_line_and_create_nothing(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code in (1, 2) and says in res.output and "Traceback" not in res.output
    assert not list(tmp_path.rglob("*.sqlite"))
