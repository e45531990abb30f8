"""`gridcount verify` and every box shape through the CLI: reproduce the
published totals, transposed shapes agree, bad shapes give one clear line.

The literal totals here are reference values (OEIS A002860, A107739, …);
the program computes its own and reads published ones only in verify.
"""
import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from counting import published, verify
from counting.cli import cli
from counting.job import Job, run_count
from counting.store import Store

COUNTING = Path(verify.__file__).parent

REFERENCE = {  # shape -> total (A002860 for Latin squares, A107739 and others for Sudoku)
    "1x1": 1, "1x2": 2, "1x3": 12, "1x4": 576, "1x5": 161_280, "1x6": 812_851_200,
    "1x7": 61_479_419_904_000, "2x2": 288, "2x3": 28_200_960,
}
TRANSPOSED_PAIRS = [("1x2", "2x1"), ("1x3", "3x1"), ("1x4", "4x1"), ("1x5", "5x1"),
                    ("1x6", "6x1"), ("2x3", "3x2")]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def quick_rows():
    return verify.verify(verify.QUICK_SHAPES, workers=2)


def test_verify_reproduces_every_quick_published_total(quick_rows):
    assert [r.shape for r in quick_rows] == list(verify.QUICK_SHAPES)
    for row in quick_rows:
        assert row.status == "ok", (row.shape, row.error)
        assert isinstance(row.computed, int) and row.computed == row.published
        r, c = sorted(int(x) for x in row.shape.split("x"))
        assert row.computed == REFERENCE.get(f"{r}x{c}", row.published)


@pytest.mark.parametrize("a, b", TRANSPOSED_PAIRS)
def test_transposed_shapes_agree(quick_rows, a, b):
    by_shape = {r.shape: r.computed for r in quick_rows}
    assert by_shape[a] == by_shape[b] is not None


def test_published_values_match_the_references_and_their_transposes():
    for shape, total in REFERENCE.items():
        r, c = shape.split("x")
        assert published.lookup(shape).total == published.lookup(f"{c}x{r}").total == total
        assert published.lookup(shape).source
    assert published.lookup("2x4").total == 29_136_487_207_403_520
    assert published.lookup("3x3").total == 6_670_903_752_021_072_936_960
    assert published.lookup("abc") is None and published.lookup("5x5") is None


def test_the_counting_code_never_reads_the_published_values():
    # Static: no counting module but verify (and the CLI that calls it)
    # imports counting.published.
    for path in COUNTING.rglob("*.py"):
        if path.stem in ("published", "verify", "cli"):
            continue
        tree = ast.parse(path.read_text())
        names = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
        names |= {f"{node.module}.{a.name}" for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) and node.module for a in node.names}
        assert not any("published" in n for n in names), path.name
    # Dynamic: a whole count runs without the module being loaded.
    code = ("import sys\nfrom counting.job import Job\nfrom counting import pool\n"
            "job = Job.load('2x3')\n"
            "print(job.total({u.unit_id: pool.count_unit(u).count for u in job.units}))\n"
            "assert 'counting.published' not in sys.modules\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == REFERENCE["2x3"]


def test_cli_verify_prints_an_aligned_table_and_exits_0():
    res = invoke("verify", "--shapes", "1x4,4x1,2x2", "--workers", "1")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].split()[:4] == ["shape", "grid", "computed", "total"]
    rows = [line for line in lines[2:] if line]
    assert [r.split()[0] for r in rows] == ["1x4", "4x1", "2x2"]
    assert all(" ok " in r and r.endswith(" s") for r in rows)
    assert len({len(r) for r in rows}) == 1                    # aligned
    assert "OEIS A002860" in rows[0] and "OEIS A107739" in rows[2]


def test_cli_verify_json_and_report(tmp_path):
    report = tmp_path / "verify.md"
    res = invoke("verify", "--shapes", "1x5,5x1", "--json", "--workers", "1", "--report", report)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["all_agree"] is True and doc["machine"]["cores"] >= 1
    assert [(s["shape"], s["computed"], s["match"]) for s in doc["shapes"]] == \
        [("1x5", "161280", True), ("5x1", "161280", True)]
    text = report.read_text()
    assert "| 1x5 |" in text and "161,280" in text and "## Machine" in text


def test_a_mismatch_exits_non_zero(monkeypatch):
    wrong = published.Published("2x2", 289, "a wrong value")
    monkeypatch.setitem(published.PUBLISHED, "2x2", wrong)
    res = invoke("verify", "--shapes", "1x3,2x2", "--workers", "1")
    assert res.exit_code == 1
    assert "MISMATCH" in res.stdout and "289" in res.stdout
    assert "1 of 2 shapes failed or disagree" in res.output and "Traceback" not in res.output


def test_a_shape_whose_count_fails_is_reported_not_a_crash():
    res = invoke("verify", "--shapes", "7x1,1x3", "--workers", "1")
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "FAILED" in res.stdout and "7x1: count failed" in res.stdout
    assert "1x3" in res.stdout and " ok " in res.stdout


@pytest.mark.parametrize("command", [["verify", "--shapes"], ["count"], ["classes"]])
@pytest.mark.parametrize("shape, match", [
    ("3x", "bad box shape '3x'"), ("0x3", "bad box shape '0x3'"), ("abc", "bad box shape 'abc'"),
    ("20x20", "need --force"),
])
def test_bad_shapes_are_rejected_in_one_line(command, shape, match):
    res = invoke(*command, shape)
    assert res.exit_code != 0
    assert match in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_verify_option_errors():
    assert invoke("verify", "--all", "--shapes", "2x2").exit_code == 2
    assert "no shape given" in invoke("verify", "--shapes", ",").output


# ---------------------------------------------------------------------------
# count / classes / export for other shapes, through the CLI


def test_classes_of_other_shapes():
    res = invoke("classes", "2x3")
    assert res.exit_code == 0 and "weights sum to 6 reduced bands" in res.output
    data = json.loads(invoke("classes", "3x2", "--reduction", "patterns", "--json").output)
    assert sum(c["weight"] for c in data) == 80
    assert len(data[0]["representative"]) == 3 and data[0]["representative"][0] == "123456"
    res = invoke("classes", "1x4")
    assert "representative (row 1)" in res.output and "1234" in res.output


def test_71_is_refused_for_another_shape_in_one_line():
    res = invoke("classes", "2x3", "--reduction", "71")
    assert res.exit_code == 1 and "names the 71 classes of 3x3" in res.output


@pytest.mark.parametrize("shape", ["1x1", "1x2", "2x1", "2x2", "2x3", "3x2", "1x6"])
def test_count_any_shape_then_export(tmp_path, shape):
    db = tmp_path / f"{shape}.sqlite"
    res = invoke("count", shape, "--db", db, "--workers", "1", "--quiet")
    assert res.exit_code == 0, res.output
    r, c = sorted(shape.split("x"))
    assert int(res.output.replace(",", "")) == REFERENCE[f"{r}x{c}"]
    res = invoke("export", db, "--csv", tmp_path / "u.csv", "--json", tmp_path / "s.json")
    assert res.exit_code == 0
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["shape"] == shape and doc["reduction"] == "moves"
    assert doc["total_int"] == REFERENCE[f"{r}x{c}"]


def test_count_resumes_and_merges_for_another_shape(tmp_path):
    a, b, both = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "all.sqlite"
    n = Job.load("2x3").n_units
    assert invoke("count", "2x3", "--db", a, "--units", f"0-{n // 2}",
                  "-q", "-w", "1").exit_code == 0
    assert invoke("count", "2x3", "--db", b, "--units", f"{n // 2}-{n - 1}",
                  "-q", "-w", "1").exit_code == 0
    assert invoke("merge", both, a, b).exit_code == 0
    res = invoke("status", both, "--json")
    assert json.loads(res.output)["total_int"] == REFERENCE["2x3"]
    res = invoke("count", "2x3", "--db", a, "--json", "-w", "1")  # resume the rest
    doc = json.loads(res.output)
    assert doc["run"]["units_skipped"] == n // 2 + 1 and doc["total_int"] == REFERENCE["2x3"]


def test_a_store_of_another_shape_is_refused(tmp_path):
    db = tmp_path / "s.sqlite"
    assert invoke("count", "2x3", "--db", db, "-q", "-w", "1").exit_code == 0
    res = invoke("count", "3x2", "--db", db, "-q", "-w", "1")
    assert res.exit_code == 1 and "shape" in res.output


def test_default_store_and_export_names_use_the_default_reduction():
    from counting.job import default_db_path, default_export_stem
    assert default_export_stem(Job.load("2x4")) == "2x4"
    assert default_export_stem(Job.load("2x4", "patterns")) == "2x4-rpatterns"
    assert default_export_stem(Job.load("3x3")) == "3x3"
    assert default_export_stem(Job.load("3x3", "44")) == "3x3-r44"
    assert str(default_db_path("2x4", "moves")) == "results/2x4-rmoves.sqlite"


# ---------------------------------------------------------------------------
# the long shapes


@pytest.mark.slow
@pytest.mark.parametrize("reduction", ["moves", "patterns"])
def test_8x8_both_ways_and_both_reductions(tmp_path, reduction):
    totals = {}
    for shape in ("2x4", "4x2"):
        job = Job.load(shape, reduction)
        with Store.create_or_open(tmp_path / f"{shape}-{reduction}.sqlite", job.info()) as st:
            run_count(job, st, workers=2, progress=False, log=lambda m: None)
            totals[shape] = job.total({r.unit_id: r.count for r in st.results()})
    assert totals == {"2x4": 29_136_487_207_403_520, "4x2": 29_136_487_207_403_520}


@pytest.mark.slow
def test_cli_verify_on_the_long_8x8_shapes():
    res = invoke("verify", "--shapes", "2x4,4x2")
    assert res.exit_code == 0, res.output
    assert res.stdout.count("29,136,487,207,403,520") == 4
