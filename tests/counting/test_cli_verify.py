"""gridcount verify (counting/cli/, counting/verify.py): the table, --json,
mismatches, failures and Ctrl-C."""
import json
import signal
import subprocess
import sys

import pytest

from counting import published, verify
from counting.cli import cli
from dlx import ENGINE_VERSION


from cli_samples import invoke


# ---------------------------------------------------------------------------
# verify

def test_cli_verify_prints_an_aligned_table_and_exits_0():
    res = invoke("verify", "--shapes", "1x4,4x1,2x2", "--workers", "1")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].split()[:5] == ["shape", "method", "counts", "computed", "total"]
    rows = lines[2:5]
    assert [r.split()[0] for r in rows] == ["1x4", "4x1", "2x2"]
    assert all(" ok " in r and r.endswith(" s") for r in rows)
    assert len({len(r) for r in rows}) == 1                    # aligned
    # the published totals are notes under the table, with their sources
    assert rows[0].split()[5] == rows[1].split()[5] == "[1]" and rows[2].split()[5] == "[2]"
    assert "[1] 576 (OEIS A002860)" in lines and "[2] 288 (OEIS A107739)" in lines


def test_cli_verify_json_and_report(tmp_path):
    report = tmp_path / "verify.md"
    res = invoke("verify", "--shapes", "1x5,5x1", "--json", "--workers", "1", "--report", report)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["all_agree"] is True and doc["workers"] == 1
    assert doc["machine"]["engine_version"] == ENGINE_VERSION
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


def test_verify_never_says_it_counts_a_shape_it_only_lists():
    # issue 33.10: `verify` printed "counting 1x10 ..." and then "not counted"
    res = invoke("verify", "--shapes", "1x10,1x2", "--workers", "1")
    assert res.exit_code == 2, res.output      # 1x10, named, is not verified
    assert res.stderr.splitlines()[:2] == ["1x10: not counted here (see below the table)",
                                           "counting 1x2 ..."]
    assert "counting 1x10" not in res.stderr


def test_verify_never_says_it_counts_a_shape_it_finds_out_of_reach():
    # 6x2 is not listed: its estimate (days) is made, then the shape refused
    res = invoke("verify", "--shapes", "6x2", "--workers", "1")
    assert res.exit_code == 2, res.output
    assert res.stderr.splitlines()[0] == "6x2: not counted here (see below the table)"
    assert "counting 6x2" not in res.stderr
    assert "6x2: not counted here: out of reach" in res.output


def test_a_shape_whose_count_fails_is_reported_not_a_crash(monkeypatch):
    def broken(job, *args, **kwargs):
        if job.shape == "2x2":
            raise RuntimeError("the engine broke")
        return real(job, *args, **kwargs)
    real = verify.count_from_scratch
    monkeypatch.setattr(verify, "count_from_scratch", broken)
    res = invoke("verify", "--shapes", "2x2,1x3", "--workers", "1")
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "FAILED" in res.stdout and "2x2: count failed: the engine broke" in res.stdout
    assert "1x3" in res.stdout and " ok " in res.stdout
    assert "1 of 2 shapes failed or disagree with the published totals: 2x2" in res.stderr


def test_shapes_refused_as_out_of_reach_are_not_counted_never_failed():
    # 6x2 (2x6's grids, by layers) and 4x4 (no estimate) are too costly, not wrong:
    # "not counted" with the estimate under the table, as the listed 2x6 is
    res = invoke("verify", "--shapes", "6x2,4x4,2x6", "--workers", "1")
    assert res.exit_code == 2, res.output      # not verified, which is not a mismatch (1)
    assert "FAILED" not in res.stdout and "count failed" not in res.stdout
    rows = res.stdout.splitlines()[2:5]
    assert [r.split()[0] for r in rows] == ["6x2", "4x4", "2x6"]
    assert all(" not counted " in r for r in rows)
    assert "6x2: not counted here: out of reach by layers: " in res.stdout
    assert "4x4: not counted here: out of reach by reduction moves: no estimate" in res.stdout
    assert "6x2: not counted here (see below the table)" in res.stderr.splitlines()


# -- shapes named by --shapes but not counted (issue 38 review: they exited 0) --
def test_a_shape_named_but_not_counted_is_said_in_the_last_line_and_exits_2():
    # a script that asked for 6x2 and 1x10 by name got exit code 0, as if verified
    res = invoke("verify", "--shapes", "6x2,1x10,1x3", "--workers", "1")
    assert res.exit_code == 2, res.output
    assert "MISMATCH" not in res.stdout and "Traceback" not in res.output
    assert res.stderr.splitlines()[-1] == (
        "Error: 2 of 3 shapes named by --shapes not counted here, so not verified: "
        "6x2 (out of reach by layers), 1x10 (a long job: gridcount count 1x10 counts it); "
        "the reasons in full are under the table")


def test_json_names_the_shapes_not_verified_and_each_row_why_and_what_counts_it():
    res = invoke("verify", "--shapes", "6x2,1x10,1x3", "--workers", "1", "--json")
    assert res.exit_code == 2, res.output
    doc = json.loads(res.stdout)
    assert doc["not_verified"] == ["6x2", "1x10"] and doc["all_agree"] is True
    rows = {r["shape"]: r for r in doc["shapes"]}
    assert (rows["6x2"]["not_counted_brief"], rows["6x2"]["instead"]) == \
        ("out of reach by layers", None)
    assert (rows["1x10"]["not_counted_brief"], rows["1x10"]["instead"]) == \
        ("a long job", "gridcount count 1x10")
    assert (rows["1x3"]["status"], rows["1x3"]["not_counted_brief"]) == ("ok", None)


def test_every_shape_named_and_counted_exits_0_with_nothing_not_verified():
    res = invoke("verify", "--shapes", "1x3", "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["not_verified"] == []


def test_a_mismatch_and_a_shape_not_counted_exit_1_saying_both(monkeypatch):
    wrong = published.Published("1x3", 13, "a wrong value")
    monkeypatch.setitem(published.PUBLISHED, "1x3", wrong)
    res = invoke("verify", "--shapes", "1x3,1x10", "--workers", "1")
    assert res.exit_code == 1, res.output
    last = res.stderr.splitlines()[-2:]
    assert last[0].startswith("1 of 2 shapes named by --shapes not counted here, so not "
                              "verified: 1x10 (a long job")
    assert last[1] == "Error: 1 of 2 shapes failed or disagree with the published totals: 1x3"


def test_the_default_table_lists_its_rows_not_counted_and_still_exits_0(monkeypatch):
    # the default table is made smaller (one quick shape), its listed rows kept
    for name in ("QUICK_VARIANTS", "QUICK_SYMMETRY", "QUICK_LATIN_CLASSES", "QUICK_RECTANGLES"):
        monkeypatch.setattr(verify, name, ())
    monkeypatch.setattr(verify, "QUICK_SHAPES", ("1x3",))
    res = invoke("verify", "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    statuses = {r["status"] for r in doc["shapes"]}
    assert statuses == {"ok", "not counted"} and doc["not_verified"] == []
    assert "not verified" not in res.stderr


def test_the_help_gives_the_exit_codes():
    text = " ".join(invoke("verify", "--help").output.split())
    assert "Exit codes: 0 every row counted agrees" in text
    assert "1 a total disagrees with its published value or a count fails" in text
    assert "2 a usage error, or a shape named by --shapes not counted here" in text


@pytest.mark.parametrize("sig, code, word", [
    (signal.SIGINT, 130, "interrupted"),   # Ctrl-C
    (signal.SIGTERM, 143, "terminated"),
])
def test_ctrl_c_in_verify_says_what_was_verified(sig, code, word):
    # it printed click's bare "Aborted!" and exit code 1
    proc = subprocess.Popen([sys.executable, "-m", "counting", "verify", "--shapes", "2x2,2x4",
                             "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while "counting 2x4 ..." not in lines:     # 2x2 done, 2x4 (tens of seconds) begun
            line = proc.stderr.readline()
            assert line, f"verify ended early: {lines}"
            lines.append(line.strip())
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, err
    assert lines[1].startswith("2x2: ok (")
    assert err.strip().splitlines()[-1] == (
        f"{word}: 1 of 2 shapes verified (all agree with the published totals); verify keeps "
        f"nothing, run it again to check them all.")
    assert "Aborted!" not in err and "Traceback" not in err and out == ""


def test_the_help_of_all_names_every_kind_of_row_it_adds():
    # issue 34's audit: --all's one line named only the grid shapes it adds, not
    # the essentially different rows (Windoku's full group, Latin classes 8-9)
    text = " ".join(invoke("verify", "--help").output.split())
    options = text[text.index("Options:"):]
    line = options[options.index("--all"):options.index("--shapes")]
    for words in ("1x8", "2x5", "Windoku", "full group", "main", "isomorphism", "8 and 9",
                  "loops of orders 7 and 8"):
        assert words in line, (words, line)


def test_verify_option_errors():
    assert invoke("verify", "--all", "--shapes", "2x2").exit_code == 2
    assert "no shape given" in invoke("verify", "--shapes", ",").output


@pytest.mark.slow
def test_cli_verify_on_the_long_8x8_shapes():
    res = invoke("verify", "--shapes", "2x4,4x2")
    assert res.exit_code == 0, res.output
    # two computed totals in the table, the published one once in its note
    assert res.stdout.count("29,136,487,207,403,520") == 3
