"""``gridcount count KIND``: grid kinds with extra rules through the store,
checked against the independent brute force of the tests."""
from __future__ import annotations

import json
import math
import re
import os
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from variant_samples import (basic_houses, brute_count, brute_fillings, by_key, difference_pairs,
                             extra_houses, kind_parts, orbits_by_union_find, rule_keeping_moves)

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


@pytest.mark.parametrize("kind", ["1x1+x", "1x1+anti-king", "1x1+anti-knight"])
def test_a_kind_of_one_cell_is_counted_by_its_one_row(tmp_path, kind):
    # issue 38.10: `count 1x1+x` was refused for "bad prefix 'rows=2'", a prefix
    # the user never gave (the default of two rows, on a grid of one)
    db = tmp_path / "v.sqlite"
    res = invoke("count", kind, "--db", db, "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["total_int"] == 1
    with Store.open(db) as st:
        assert st.job.reduction == "prefix-rows=1"
    assert invoke("classes", kind).exit_code == 0


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
    (["classes", "3x3+x", "--reduction", "moves"], "counts plain grids"),
    (["count", "3x3", "--reduction", "patterns2"], "does not apply to box shape 3x3"),
    (["classes", "3x3", "--reduction", "patterns2"], "does not apply to box shape 3x3"),
])
def test_bad_kinds_are_one_line_and_create_nothing(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    # issue 33.10: a reduction that does not apply exited 1, where refusals exit 2
    assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not list(tmp_path.rglob("*.sqlite"))


@pytest.mark.parametrize("kind, prefix, stored, R, C, extra", [
    ("2x2+x", "diagonals", "prefix-diagonals", 2, 2, "x"),
    ("2x2+x", "boxes=4,1", "prefix-boxes=1,4", 2, 2, "x"),
    ("1x5+x", "rows=1,cols=1", "prefix-rows=1,cols=1", 1, 5, "x"),
    ("2x2+disjoint", "band", "prefix-rows=2", 2, 2, "disjoint"),
])
def test_count_with_a_named_prefix_equals_the_brute_force_and_stores_the_prefix(
        tmp_path, kind, prefix, stored, R, C, extra):
    db = tmp_path / "v.sqlite"
    res = invoke("count", kind, "--prefix", prefix, "--db", db, "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    want = brute_count(R * C, basic_houses(R, C) + extra_houses(extra, R, C), [])
    assert int(json.loads(res.output)["total_int"]) == want
    with Store.open(db) as st:
        assert st.job.reduction == stored


def test_the_default_store_path_carries_the_prefix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("count", "2x2+x", "--prefix", "diagonals", "-q", "-w", "1").exit_code == 0
    assert [p.name for p in (tmp_path / "results").glob("*.sqlite")] == \
        ["2x2+x-rprefix-diagonals.sqlite"]


def test_a_store_of_one_prefix_is_refused_for_another_naming_both(tmp_path):
    db = tmp_path / "v.sqlite"
    assert invoke("count", "2x2+x", "--prefix", "rows=1", "--db", db, "-w", "1", "-q").exit_code == 0
    res = invoke("count", "2x2+x", "--prefix", "diagonals", "--db", db, "-w", "1")
    assert res.exit_code == 2
    assert "'prefix-rows=1' in the database but 'prefix-diagonals' was asked for" in res.output


def test_classes_lists_the_orbits_of_a_named_prefix():
    res = invoke("classes", "2x2+x", "--prefix", "diagonals", "--json")
    assert res.exit_code == 0, res.output
    assert sum(c["weight_int"] for c in json.loads(res.output)) == 4   # normal diagonal fillings


@pytest.mark.parametrize("args, says", [
    (["count", "2x2+x", "--prefix", "rows=9"], "Invalid value for --prefix: bad prefix 'rows=9'"),
    (["count", "2x2+x", "--prefix", "squares=1"], "unknown part 'squares'"),
    (["count", "2x2", "--prefix", "rows=1"], "plain 2x2 grids have --reduction"),
    (["count", "2x2+x", "--prefix", "rows=1", "--reduction", "moves"],
     "--reduction moves is not the prefix reduction"),
    (["classes", "2x2+x", "--prefix", "r1c1"], "must contain a whole house"),
    # issue 38.10: the digit of r1c1=5 was ignored (a prefix names cells, not givens)
    (["count", "2x2+x", "--prefix", "r1c1=5"], "the cell r1c1 takes no value"),
    (["classes", "2x2+x", "--prefix", "rows=1,r2c1=3"], "the cell r2c1 takes no value"),
    (["count", "2x2+x", "--prefix", "rows=1,r2c1 3"], "the cell r2c1 takes no value"),
])
def test_bad_prefixes_are_one_line_exit_2_and_create_nothing(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not list(tmp_path.rglob("*"))


@pytest.mark.parametrize("kind", ["2x2+x", "2x2+disjoint", "1x5+x", "2x3+anti-knight"])
def test_up_to_symmetry_of_a_kind_equals_union_find_over_all_grids(tmp_path, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    res = invoke("count", kind, "--up-to-symmetry", "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    R, C, houses, pairs = kind_parts(kind)
    grids = brute_fillings(R * C, houses, pairs)
    assert int(doc["total_int"]) == orbits_by_union_find(grids, rule_keeping_moves(kind))
    assert doc["burnside"][0]["fixed_int"] * math.factorial(R * C) == len(grids)   # the identity
    with Store.open(tmp_path / "results" / f"{kind}-rsymmetry.sqlite") as st:
        assert (st.job.shape, st.job.reduction) == (kind, "symmetry")


def test_up_to_symmetry_of_a_kind_prints_its_group_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = invoke("count", "2x2+x", "--up-to-symmetry", "--workers", "1", "--no-progress")
    assert res.exit_code == 0, res.output
    order = len(rule_keeping_moves("2x2+x"))
    lines = [line.split() for line in res.output.splitlines()]
    assert ["÷", "order", "of", "the", "kind's", "symmetry", "group", "|H|", "(×", "4!",
            "relabellings", "=", f"{order * 24:,})", str(order)] in lines
    assert lines[-2] == ["2x2+x", "essentially", "different", "grids", "1"]
    assert lines[-1] == ["units", "stored", "in", "results/2x2+x-rsymmetry.sqlite"]


@pytest.mark.parametrize("text, says", [
    ("regions\nAAAB\nAABB\nCCDD\nCCDD\n", "region 'A' has 5 cells"),
    ("regions\nAABB\nAABB\nCCDD\n", "the region grid must be 4 lines of 4"),
    ("regions\nAA-B\nAABB\nCCDD\nCCDD\n", "kind file"),
    ("house r1c1 r2c2 r3c3 r5c4\n", "r5c4 is off the"),
    ("regions\nAAÄB\nAABB\nCCDD\nCCDD\n", "not ASCII"),
    ("", "is empty"),
])
def test_bad_kind_files_are_one_line_exit_2_and_create_nothing(tmp_path, monkeypatch, text, says):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "bad.kind"
    path.write_bytes(text.encode())
    res = invoke("count", f"2x2+@{path}", "-w", "1")
    assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["bad.kind"]


@pytest.mark.parametrize("kind, says", [
    ("2x2+@missing.kind", "cannot read kind file missing.kind"),
    ("2x2+çx", "grid kind names are ASCII"),
    ("2x2+x+x", "named twice"),
])
def test_unreadable_files_and_bad_names_are_one_line_exit_2(tmp_path, monkeypatch, kind, says):
    monkeypatch.chdir(tmp_path)
    res = invoke("count", kind, "-w", "1")
    assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output, res.output
    assert not list(tmp_path.rglob("*"))


def test_a_kind_file_path_may_contain_a_plus(tmp_path):
    rows = "regions\nAAAB\nCABB\nCCDB\nCDDD\n"
    (tmp_path / "j+1.kind").write_text(rows)
    (tmp_path / "j1.kind").write_text(rows)
    totals = []
    for name in ["j+1.kind", "j1.kind"]:
        res = invoke("count", f"2x2+@{tmp_path / name}+x", "--db", tmp_path / f"{name}.sqlite",
                     "-w", "1", "--json")
        assert res.exit_code == 0, res.output
        totals.append(json.loads(res.output)["total_int"])
    R, C, houses, pairs = kind_parts("2x2+x")
    regions = [[(r, c) for r in range(4) for c in range(4) if rows.split()[1:][r][c] == x]
               for x in "ABCD"]
    want = brute_count(4, basic_houses(1, 4) + regions + extra_houses("x", 2, 2))
    assert totals == [want, want]


@pytest.mark.parametrize("kind", ["1x3+x", pytest.param("2x3+disjoint+x", marks=pytest.mark.slow)])
def test_a_kind_with_no_grid_counts_0_and_says_so(tmp_path, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    R, C, houses, pairs = kind_parts(kind)
    assert brute_count(R * C, houses, pairs) == 0
    res = invoke("count", kind, "-w", "1", "--no-progress")
    assert res.exit_code == 0, res.output
    assert f"{kind} has no grid" in res.output and "so the count is 0" in res.output
    res = invoke("count", kind, "-w", "1", "--fresh", "--json")
    assert res.exit_code == 0 and json.loads(res.output)["total_int"] == 0
    res = invoke("count", kind, "-w", "1", "--up-to-symmetry", "-q")
    assert res.exit_code == 0 and res.output.strip().splitlines()[-1] == "0"


def test_the_documented_kind_file_example_counts_as_written(tmp_path):
    # issue 33 item 7: the example of grids/variants/kindfile.py (the README points to it)
    from grids.variants import kindfile
    block = kindfile.__doc__.split("Example::\n\n", 1)[1].split("\n\n", 1)[0]
    path = tmp_path / "my.kind"
    path.write_text(textwrap.dedent(block) + "\n")
    res = invoke("count", f"2x2+@{path}", "--db", tmp_path / "s.sqlite", "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    rows = ("AABB", "ACBB", "ACDD", "CCDD")
    houses = basic_houses(1, 4) + by_key(4, lambda r, c: rows[r][c]) + [[(i, i) for i in range(4)]]
    want = brute_count(4, houses, [((0, 3), (1, 2))])
    assert int(json.loads(res.output)["total_int"]) == want == 24   # as the docstring says


@pytest.mark.parametrize("command", ["count", "classes"])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_kind_file_that_is_no_regular_file_is_refused_at_once(tmp_path, command, special):
    # issue 38 item 1: /dev/zero was read until memory ran out, a FIFO waited for ever
    if special == "fifo":
        special = tmp_path / "fifo.kind"
        os.mkfifo(special)
    more = ["--db", str(tmp_path / "s.sqlite"), "-w", "1"] if command == "count" else []
    res = subprocess.run([sys.executable, "-m", "counting", command, f"2x2+@{special}", *more],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "not a regular file" in res.stderr
    assert not (tmp_path / "s.sqlite").exists()


# ---------------------------------------------------------------------------
# A kind file's kind is its content (issue 33 items 1 and 8, issue 38 item 10)

JIG4 = ("AABB", "ACBB", "ACDD", "CCDD")
JIG4_FILE = "regions\n" + "\n".join(JIG4) + "\n"
DIAGONAL = "house r1c1 r2c2 r3c3 r4c4\n"
STORE_NAME = r"2x2\+kind-([0-9a-f]{16})-rprefix-rows=2\.sqlite"


def jig4_total(diagonal: bool) -> int:
    houses = basic_houses(1, 4) + by_key(4, lambda r, c: JIG4[r][c])
    return brute_count(4, houses + ([[(i, i) for i in range(4)]] if diagonal else []))


def gridcount(cwd, *args) -> subprocess.CompletedProcess:
    """The CLI in a process of its own: one that has read no kind file."""
    return subprocess.run([sys.executable, "-m", "counting", *map(str, args)],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def test_an_edited_kind_file_is_another_kind_counted_in_a_flat_store_of_its_own(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "results"
    results.mkdir()
    path = tmp_path / "abs" / "dir" / "jig4.kind"     # an absolute path with directories
    path.parent.mkdir(parents=True)
    path.write_text(JIG4_FILE)
    res = invoke("count", f"2x2+@{path}", "-w", "1", "--json")
    assert res.exit_code == 0 and int(json.loads(res.output)["total_int"]) == jig4_total(False)
    [old] = [p.name for p in results.glob("*.sqlite")]
    path.write_text(JIG4_FILE + DIAGONAL)               # edited: another kind
    res = invoke("count", f"2x2+@{path}", "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    assert int(json.loads(res.output)["total_int"]) == jig4_total(True) != jig4_total(False)
    assert all(p.parent == results and p.is_file() for p in results.rglob("*"))   # flat
    [new] = [p.name for p in results.glob("*.sqlite") if p.name != old]
    assert re.fullmatch(STORE_NAME, old) and re.fullmatch(STORE_NAME, new)
    with Store.open(results / old) as st:
        assert len(st) == st.job.n_units and st.job.shape in old
    res = invoke("count", f"2x2+@{path}", "--db", results / old, "-w", "1")
    assert res.exit_code != 0 and "Traceback" not in res.output
    d_old, d_new = (re.fullmatch(STORE_NAME, s)[1] for s in (old, new))
    assert f"kind-{d_old}" in res.output and f"kind-{d_new}" in res.output


@pytest.mark.slow
def test_a_kind_file_store_is_read_without_the_file_and_resumed_only_for_its_content(
        tmp_path):
    path, db = tmp_path / "gone.kind", tmp_path / "s.sqlite"
    path.write_text(JIG4_FILE + DIAGONAL)
    res = gridcount(tmp_path, "count", "2x2+@gone.kind", "--db", db, "-w", "1", "--units", "0-1")
    assert res.returncode == 0, res.stderr
    with Store.open(db) as st:
        n = st.job.n_units
    assert n > 2
    path.unlink()
    res = gridcount(tmp_path, "status", db)
    assert res.returncode == 0 and f"2 of {n}" in res.stdout, res.stderr
    assert gridcount(tmp_path, "recount", db).returncode == 0
    res = gridcount(tmp_path, "export", db, "--units", tmp_path / "done.json")
    assert res.returncode == 0, res.stderr
    res = gridcount(tmp_path, "merge", tmp_path / "elsewhere.sqlite", tmp_path / "done.json")
    assert res.returncode == 0, res.stderr
    path.write_text(JIG4_FILE)                          # another content: refused
    res = gridcount(tmp_path, "count", "2x2+@gone.kind", "--db", db, "-w", "1")
    assert res.returncode != 0 and "Traceback" not in res.stderr and "kind-" in res.stderr
    path.write_text("# the same rules, written otherwise\n" + DIAGONAL + JIG4_FILE.lower())
    res = gridcount(tmp_path, "count", "2x2+@gone.kind", "--db", db, "-w", "2", "--json")
    assert res.returncode == 0, res.stderr
    assert int(json.loads(res.stdout)["total_int"]) == jig4_total(True)
    with Store.open(db) as st:
        assert len(st) == n


def test_a_kind_file_is_parsed_once_in_a_count(tmp_path, monkeypatch):
    from grids.variants import kindfile
    parsed = []
    real = kindfile.parse_kind_text
    monkeypatch.setattr(kindfile, "parse_kind_text", lambda *a: parsed.append(a) or real(*a))
    path = tmp_path / "once.kind"
    path.write_text(JIG4_FILE + DIAGONAL)
    res = invoke("count", f"2x2+@{path}", "--db", tmp_path / "s.sqlite", "-w", "1", "-q")
    assert res.exit_code == 0, res.output
    assert len(parsed) == 1
