"""Integers past 2^53 in the JSON of every command (counting/exact_json.py,
docs/json.md): a decimal string under the field's name and the integer
beside it under ``NAME_int``, as ``total`` and ``total_int`` have been;
never a bare JSON number, which a reader of doubles (JavaScript) rounds.

The counts here are made large on purpose (a unit counter that returns
them, a store written with them): what is checked is how they are written,
not what they count.
"""
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from counting import rectangles, verify
from counting.exact_json import SAFE_LIMIT
from counting.group.burnside import ClassRow
from counting.group.symmetries import group_order
from counting.job import Job
from counting.run import pool
from counting.run.dask_stats import WorkerStats
from counting.store.database import Store
from grids import puzzles as P

from cli_samples import invoke
from store_samples import make_result

BIG = 2 ** 62 + 2 ** 7   # past 2^53, a multiple of 2x2's |G| = 128 (Burnside divides by it)
GRIDS = Job.load("2x2").total({0: BIG, 1: BIG})   # 2x2's total when its two units count BIG


def unsafe_numbers(doc, where: str = "") -> list[str]:
    """Where ``doc`` holds an integer past 2^53 other than as ``NAME_int``
    beside ``NAME``, its decimal string."""
    found = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            if isinstance(value, int) and not isinstance(value, bool) and value > SAFE_LIMIT:
                name = key[:-len("_int")] if key.endswith("_int") else None
                if name is None or doc.get(name) != str(value):
                    found.append(f"{where}.{key}")
            else:
                found += unsafe_numbers(value, f"{where}.{key}")
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += unsafe_numbers(value, f"{where}[{i}]")
    elif isinstance(doc, int) and not isinstance(doc, bool) and doc > SAFE_LIMIT:
        found.append(where)
    return found


def exact(doc: dict, name: str) -> int:
    """The field ``name`` of ``doc``, checked to be given both ways."""
    assert doc[name] == str(doc[f"{name}_int"]), (name, doc[name], doc[f"{name}_int"])
    return doc[f"{name}_int"]


def test_the_checker_finds_a_bare_number_past_2_to_the_53():
    assert unsafe_numbers({"a": [{"nodes": BIG}], "b": 2 ** 53}) == [".a[0].nodes"]
    assert unsafe_numbers({"x": "1", "x_int": BIG}) == [".x_int"]   # the string disagrees
    assert unsafe_numbers({"x": str(BIG), "x_int": BIG}) == []


@pytest.fixture
def big_counts(monkeypatch):
    """Every unit counted in this process counts ``BIG`` solutions in
    ``BIG`` nodes, dead ends and memo hits."""
    real = pool.count_unit

    def count_unit(spec, options):
        return replace(real(spec, options), count=BIG, nodes=BIG, dead_ends=BIG, memo_hits=BIG)
    monkeypatch.setattr(pool, "count_unit", count_unit)


def test_count_json_gives_its_sums_and_its_total_as_strings(tmp_path, big_counts):
    res = invoke("count", "2x2", "--db", tmp_path / "s.sqlite", "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == []
    for name in ("unit_solutions", "nodes", "dead_ends", "memo_hits"):
        assert exact(doc, name) == exact(doc["run"], name) == 2 * BIG
    f = doc["factorisation"]
    assert exact(doc, "total") == GRIDS == exact(f, "relabel_box1") * exact(f, "reduce_band1") \
        * exact(f, "reduce_column1") * exact(f, "weighted_unit_sum")


def test_count_json_gives_the_burnside_table_as_strings(here, big_counts):
    # 3x3's identity term is 18,383,222,420,692,992; here every term passes 2^53.
    # In an empty directory (here): the identity's grid store goes to ./results, which
    # was the checkout's own results/ when this test ran where pytest was started
    res = invoke("count", "2x2", "--up-to-symmetry", "--db", here / "sym.sqlite",
                 "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == []
    rows = doc["burnside"]
    assert exact(rows[0], "fixed") == GRIDS // math.factorial(4)   # the identity's term
    assert all(exact(r, "weighted") == exact(r, "size") * exact(r, "fixed") for r in rows)
    assert sum(exact(r, "weighted") for r in rows) == exact(doc, "total") * group_order("2x2")
    assert exact(doc["divisors"], "order of the symmetry group |G|") == group_order("2x2")


def test_a_burnside_row_past_2_to_the_53_is_given_as_strings():
    row = ClassRow(0, 1, 18_383_222_420_692_992, "identity", "e").as_dict()
    assert (row["fixed"], row["fixed_int"]) == ("18383222420692992", 18_383_222_420_692_992)
    assert (row["size"], row["size_int"], row["weighted"]) == ("1", 1, "18383222420692992")


@pytest.fixture
def big_store(tmp_path):
    """A finished 2x2 store whose two units count ``BIG`` each."""
    path = tmp_path / "big.sqlite"
    job = Job.load("2x2")
    with Store.create_or_open(path, job.info()) as st:
        for u in job.units:
            st.record(make_result(u.unit_id, BIG, class_id=u.class_id, form_id=u.form_id,
                                  nodes=BIG, dead_ends=BIG, memo_hits=BIG,
                                  engine_version=job.info().engine_version))
    return path


@pytest.mark.parametrize("command", [("status", "--json"), ("export", "--json")])
def test_status_and_export_json_give_the_stores_sums_as_strings(big_store, command):
    res = invoke(command[0], big_store, *command[1:])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == []
    assert exact(doc, "unit_solutions") == exact(doc, "nodes") == 2 * BIG
    assert exact(doc, "total") == GRIDS


def test_an_exported_summary_file_gives_them_as_strings(big_store, tmp_path):
    res = invoke("export", big_store, "--summary", tmp_path / "s.json")
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "s.json").read_text())
    assert unsafe_numbers(doc) == [] and exact(doc, "total") == GRIDS


def test_classes_json_gives_a_weight_past_2_to_the_53_as_a_string():
    res = invoke("classes", "1x20", "--force", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == []
    assert exact(doc[0], "weight") == math.factorial(19)   # the 20-cycles: 19! of them


def test_latin_rectangles_json_gives_the_count_as_a_string(monkeypatch):
    monkeypatch.setattr(rectangles, "count_rectangles", lambda kind, rows, note: BIG)
    res = invoke("count", "1x9", "--rows", "4", "--json")
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == [] and exact(doc, "latin_rectangles") == BIG


def test_verify_json_gives_the_computed_and_published_totals_as_strings(monkeypatch):
    total = 1_903_816_047_972_624_930_994_913_280_000     # 2x5's published total
    row = verify.VerifyRow(shape="2x5", n=10, computed=total, published=total, source="s",
                           seconds=1.0, units=3, reduction="patterns2")
    monkeypatch.setattr(verify, "verify", lambda *a, **kw: [row])
    res = invoke("verify", "--shapes", "2x5", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == []
    assert exact(doc["shapes"][0], "computed") == exact(doc["shapes"][0], "published") == total


def test_count_solutions_json_gives_exact_counts_as_strings(monkeypatch):
    # --no-limit counts exactly: the empty 9x9 grid's 6,670,903,752,021,072,936,960
    # (hours); here the count of the empty 4x4 grid is made large
    monkeypatch.setattr(P, "count_batch", lambda grids, **kw: np.array([BIG], dtype=object))
    res = invoke("count-solutions", "--no-limit", "--shape", "2x2", "--json", "." * 16)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert unsafe_numbers(doc) == [] and exact(doc["results"][0], "solutions") == BIG
    # a --limit past 2^53 (up to 2^128 - 1), as the output repeats it
    res = invoke("count-solutions", "--limit", str(BIG), "--shape", "2x2", "--json", "." * 16)
    assert unsafe_numbers(json.loads(res.stdout)) == [] and exact(json.loads(res.stdout), "limit") == BIG


def test_a_dask_workers_solutions_are_given_as_a_string():
    # count --json's run.per_worker, under --scheduler
    doc = WorkerStats("tcp://h:1", "w", units=2, unit_solutions=BIG).as_json()
    assert unsafe_numbers(doc) == [] and exact(doc, "unit_solutions") == BIG
