"""Reproducing the published totals (counting/verify.py): every quick shape
agrees, transposed shapes agree, and the counting code never reads the
published values.  The command: test_cli.py.

The literal totals here are reference values (OEIS A002860, A107739, …);
the program computes its own and reads published ones only in verify.
"""
import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from counting import published, route_estimate, verify
from grids.kind import as_kind

COUNTING = Path(verify.__file__).parent

REFERENCE = {  # shape -> total (A002860 for Latin squares, A107739 and others for Sudoku)
    "1x1": 1, "1x2": 2, "1x3": 12, "1x4": 576, "1x5": 161_280, "1x6": 812_851_200,
    "1x7": 61_479_419_904_000, "2x2": 288, "2x3": 28_200_960,
}
TRANSPOSED_PAIRS = [("1x2", "2x1"), ("1x3", "3x1"), ("1x4", "4x1"), ("1x5", "5x1"),
                    ("1x6", "6x1"), ("2x3", "3x2")]


@pytest.fixture(scope="module")
def quick_rows():
    return verify.verify(verify.QUICK_SHAPES, workers=2)


def test_verify_reproduces_every_quick_published_total(quick_rows):
    # every quick shape by its default reduction, then 2x3 again by the band tables
    assert [r.shape for r in quick_rows] == list(verify.QUICK_SHAPES) + ["2x3"]
    assert [r.reduction for r in quick_rows if r.shape == "2x3"] == ["moves", "patterns3"]
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
    # Static: no counting module but those that put the published values
    # beside computed ones (verify, the report, the CLI) imports counting.published.
    for path in COUNTING.rglob("*.py"):
        if path.stem in ("published", "verify") or path.parent.name in ("cli", "report"):
            continue
        tree = ast.parse(path.read_text())
        names = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
        names |= {f"{node.module}.{a.name}" for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) and node.module for a in node.names}
        assert not any("published" in n for n in names), path.name
    # Dynamic: a whole count runs without the module being loaded.
    code = ("import sys\nfrom counting.job import Job\nfrom counting.run.counter import count_unit\n"
            "job = Job.load('2x3')\n"
            "print(job.total({u.unit_id: count_unit(u).count for u in job.units}))\n"
            "assert 'counting.published' not in sys.modules\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == REFERENCE["2x3"]


def test_verify_lists_the_shapes_it_does_not_count_beside_their_published_totals():
    assert "2x5" in verify.LONG_SHAPES and "1x9" in verify.LONG_SHAPES   # 1x9: 45 s by factor
    for all_shapes in (False, True):
        shapes = verify.default_shapes(all_shapes)
        assert shapes[-len(verify.NOT_COUNTED):] == list(verify.NOT_COUNTED)
    rows = verify.verify(["2x6"])
    assert [r.status for r in rows] == ["not counted"]
    assert rows[0].published == published.lookup("2x6").total and rows[0].computed is None
    assert "refuses" in rows[0].not_counted and rows[0].seconds == 0
    # 2x6's row gives the layer route's measured estimate and where it is recorded
    est = route_estimate.load(as_kind("2x6"))
    assert rows[0].not_counted.startswith(f"by layers, an estimate: {est.describe()}; ")
    assert "results/layers-2x6-route.json" in rows[0].not_counted
    assert "results/layers-2x6-estimate.md" in rows[0].not_counted
    assert (Path(__file__).resolve().parents[2] / "results/layers-2x6-estimate.md").exists()
    assert rows[0].source == "Pettersen 2006; linche89/sudoku-enumeration 2026"


def test_verify_s_2x6_row_reads_the_route_s_measurement_file(monkeypatch, tmp_path):
    """A planted measurement changes the row's estimate; a missing one is
    said in the row instead (issue 36)."""
    doc = route_estimate.example_document()
    path = tmp_path / "route.json"
    path.write_text(json.dumps(doc))
    monkeypatch.setitem(route_estimate.FILES, "2x6", path)
    row = verify.verify(["2x6"])[0]
    assert row.status == "not counted"
    assert row.not_counted.startswith("by layers, an estimate: 150 ± 5 core-hours by an "
                                      "example route (measured 2026-01-01T00:00:00Z")
    assert "7 workers for a day; F_5 dominates (140 ± 4 core-hours)" in row.not_counted
    path.unlink()
    row = verify.verify(["2x6"])[0]
    assert row.not_counted.startswith(f"the layer route's measurement: {path} is missing; "
                                      f"out of reach here")


@pytest.mark.slow
def test_verify_all_counts_diagonal_latin_squares_of_order_8_by_their_group():
    # the kind's group (768 geometric elements, searched by backtracking) makes
    # the 4,752 normal fillings of the diagonals 26 units: minutes, not 8 core-hours
    assert "1x8+x" in verify.default_shapes(all_shapes=True)
    row, = verify.verify(["1x8+x"], workers=2)
    assert row.reduction == "prefix-diagonals" and row.units == 26
    assert row.status == "ok" and row.source.startswith("OEIS A274171")
    assert row.computed == VARIANT_REFERENCE["1x8+x"]


@pytest.mark.slow
def test_verify_all_counts_2x5_to_its_published_total():
    row, = verify.verify(["2x5"], workers=2)
    assert row.reduction == "patterns2" and row.units == 346
    assert row.status == "ok"
    assert row.computed == 1_903_816_047_972_624_930_994_913_280_000  # Wikipedia / Pettersen


def test_verify_checks_the_essentially_different_grids_after_the_grid_counts():
    # the identity of 2x3 is taken from the 2x3 grid count of the same run
    rows = verify.verify(["2x3"], symmetry_shapes=["2x2", "2x3", "2x5"], workers=1)
    assert [(r.shape, r.counts) for r in rows] == [
        ("2x3", "grids"), ("2x3", "grids"), ("2x2", "essentially different"),
        ("2x3", "essentially different"), ("2x5", "essentially different")]
    assert [r.status for r in rows] == ["ok", "ok", "ok", "ok", "not counted"]
    assert rows[1].reduction == "patterns3" and rows[1].computed == rows[0].computed
    assert [r.computed for r in rows[2:4]] == [2, 49]        # OEIS A109741, A291188
    assert rows[2].reduction == "symmetry" and "A291188" in rows[3].source
    assert rows[4].published == 4_743_933_602_050_718
    # the default run takes seconds: 2x4 (85 s with its grid count) is --all's
    assert verify.default_symmetry_shapes() == ["1x4", "1x5", "1x6", "1x7", "2x2", "2x3",
                                                "2x5"]
    assert {"2x4", "1x8", "3x3", "1x9"} <= set(verify.default_symmetry_shapes(all_shapes=True))


@pytest.mark.parametrize("shape, classes", [("1x4", 2), ("1x5", 2), ("1x6", 22)])
def test_essentially_different_latin_squares_are_the_isotopy_classes(shape, classes):
    # OEIS A040082: row, column and symbol permutations
    row, = verify.verify([], symmetry_shapes=[shape], workers=1)
    assert row.computed == classes and row.status == "ok" and "A040082" in row.source


def test_a_wrong_grid_total_makes_the_essentially_different_row_fail():
    row = verify.verify_shape("2x3", up_to_symmetry=True, grid_total=28_200_960 + 720)
    assert row.status in ("FAILED", "MISMATCH")


@pytest.mark.slow
def test_verify_counts_the_essentially_different_2x4_and_3x3_grids_and_latin_squares():
    rows = verify.verify([], symmetry_shapes=["1x7", "1x8", "2x4", "3x3"], workers=2)
    # A040082, A040082, A291188, A109741
    assert [r.computed for r in rows] == [564, 1_676_267, 1_673_187, 5_472_730_538]
    assert all(r.status == "ok" for r in rows)


@pytest.mark.slow
def test_verify_counts_the_isotopy_classes_of_order_9():
    # A040082(9); a unit of rows and columns (23)(45)(67)(89) needs the
    # two-row prefix (counting.group.prefix_cost) to count in seconds instead of hours
    row, = verify.verify([], symmetry_shapes=["1x9"], workers=2)
    assert row.computed == 115_618_721_533 and row.status == "ok"


# Variant references (tests only): A274171 × n! for diagonal Latin squares;
# the forum totals for Windoku, Sudoku X and SudokuP.
VARIANT_REFERENCE = {"1x4+x": 48, "1x5+x": 960, "1x6+x": 92_160, "1x7+x": 862_848_000,
                     "1x8+x": 300_286_741_708_800,
                     "3x3+windoku": 6_337_174_388_428_800, "3x3+x": 55_613_393_399_531_520,
                     "3x3+disjoint": 201_105_135_151_764_480,
                     # 8,490,104 x 9!: README of GitHub dclamage/SudokuAKUnique (2022)
                     "3x3+anti-knight": 3_080_888_939_520}


def test_verify_counts_the_quick_variants_to_their_published_totals():
    rows = verify.verify(verify.QUICK_VARIANTS + ("5x1+x", "7x1+x"), workers=1)
    assert [r.shape for r in rows] == list(verify.QUICK_VARIANTS) + ["5x1+x", "7x1+x"]
    for row in rows:
        assert row.status == "ok", (row.shape, row.error)
        assert row.reduction == ("prefix-diagonals" if row.shape in ("1x7+x", "7x1+x") else
                                 "prefix-rows=2") and row.kind == "Latin square"
        head, rules = row.shape.split("+")
        r, c = sorted(int(x) for x in head.split("x"))
        assert row.computed == VARIANT_REFERENCE[f"{r}x{c}+{rules}"]
        assert row.source.startswith("OEIS A274171")


def test_verify_lists_the_long_variants_beside_their_published_totals_and_sources():
    assert verify.QUICK_VARIANTS[0] in verify.default_shapes()
    for long in ("1x8+x", "3x3+windoku"):       # counted by --all only
        assert long in verify.default_shapes(True) and long not in verify.default_shapes()
    rows = verify.verify(["3x3+x", "3x3+disjoint"])
    for row in rows:
        assert row.status == "not counted" and row.computed is None
        assert row.published == VARIANT_REFERENCE[row.shape] and "enjoysudoku" in row.source
        assert "results/variants.md" in row.not_counted
    text = verify.format_table(rows)
    assert max(map(len, text.splitlines())) <= verify.TABLE_WIDTH
    assert "55,613,393,399,531,520 (Mathimagics 2018" in text


def test_verify_lists_anti_knight_beside_its_published_total():
    # once called a first count here; its total was published in 2022
    row, = verify.verify(["3x3+anti-knight"])
    assert row.status == "not counted" and row.computed is None
    assert row.published == VARIANT_REFERENCE["3x3+anti-knight"]
    assert "dclamage/SudokuAKUnique" in row.source
    assert "3x3+anti-knight" in verify.default_shapes()


def test_verify_lists_diagonal_latin_squares_of_order_9_with_the_estimate_of_count():
    # issue 35 item 2: OEIS A274806 (a volunteer-computing count) beside the
    # estimate `gridcount count 1x9+x --prefix diagonals` prints (not a figure
    # typed into the note: the command measures it, results/variants.md records it)
    assert "1x9+x" in verify.default_shapes() and "1x9+x" in verify.default_shapes(True)
    row, = verify.verify(["1x9+x"])
    assert row.status == "not counted" and row.computed is None and row.seconds == 0
    assert row.published == 1_835_082_219_864_832_081_920 == 5_056_994_653_507_584 * 362_880
    assert row.source.startswith("OEIS A274806") and "volunteer" in row.source
    assert "`gridcount count 1x9+x --prefix diagonals` prints its measured estimate" in row.not_counted
    assert "results/variants.md" in row.not_counted


def test_a_variant_without_a_published_total_is_counted_without_a_reference():
    row, = verify.verify(["2x2+x"])
    assert (row.status, row.computed, row.published) == ("no reference", 48, None)


@pytest.mark.slow
def test_a_shape_out_of_reach_is_not_counted_with_its_estimate_instead_of_running_for_ever():
    row, = verify.verify(["1x12"], workers=1)
    assert row.status == "not counted" and row.computed is None and row.error is None
    assert row.not_counted.startswith("out of reach by reduction cycles: ")
    assert "core-hours" in row.not_counted


def test_a_shape_refused_as_out_of_reach_is_listed_as_not_counted_never_as_failed():
    # noticed after issue 36: `verify --shapes 6x2` said FAILED ("count failed: out of
    # reach") where 2x6, the same grids, said "not counted": a failed row must mean a
    # wrong count, never one too costly to make
    six_by_two, no_estimate = verify.verify(["6x2", "4x4"])
    est = route_estimate.load(as_kind("6x2"))
    assert (six_by_two.status, six_by_two.error, six_by_two.computed) == \
        ("not counted", None, None)
    assert six_by_two.not_counted.startswith(f"out of reach by layers: {est.describe(1)}")
    assert six_by_two.published == published.lookup("2x6").total
    # a shape no estimate can be made for is refused as out of reach too
    assert (no_estimate.status, no_estimate.error) == ("not counted", None)
    assert no_estimate.not_counted.startswith("out of reach by reduction moves: no estimate")
    assert not (six_by_two.failed or no_estimate.failed)


def test_the_table_fits_100_columns_with_every_published_total():
    # issue 26.16: rows were about 183 columns wide and wrapped at 120
    rows = [verify.VerifyRow(shape=p.shape, n=int(p.shape.split("x")[0]) * int(p.shape.split("x")[1]),
                             computed=p.total, published=p.total, source=p.source, seconds=1234.5,
                             units=10, reduction="moves", up_to_symmetry=sym)
            for sym, table in ((False, published.PUBLISHED), (True, published.ESSENTIALLY_DIFFERENT))
            for p in table.values()]
    text = verify.format_table(rows)
    assert max(map(len, text.splitlines())) <= verify.TABLE_WIDTH
    for p in published.PUBLISHED.values():   # every value is still there, with its source
        assert f"{p.total:,}" in text
    assert rows[0].source in text


def test_verify_counts_latin_rectangles_beside_the_published_sequences():
    rows = verify.verify([], rectangles=[(2, 5), (3, 6), (4, 6), (4, 7)])
    assert [r.status for r in rows] == ["ok"] * 4
    assert [r.label for r in rows][:2] == ["2 x 5 Latin rectangles", "3 x 6 Latin rectangles"]
    # 2 x n: n! times the derangements of n, the sequence the published value is made from
    assert rows[0].computed == 120 * 44 and rows[0].source == "OEIS A000166 × n!"
    assert rows[3].computed == 782_137_036_800 and rows[3].counts == "4x7 rectangles"
    table = verify.format_table(rows)
    assert "4x7 rect." in table and "OEIS A003170 × n!" in table
    assert max(map(len, table.splitlines())) <= verify.TABLE_WIDTH


def test_the_published_rectangles_agree_where_the_sequences_meet():
    rect = published.RECTANGLES   # a square's last row is forced: (n-1) x n = n x n
    assert rect[(3, 3)].total == published.lookup("1x3").total == 12
    assert rect[(4, 4)].total == rect[(3, 4)].total == published.lookup("1x4").total == 576
    assert rect[(2, 2)].total == 2 and rect[(2, 3)].total == rect[(3, 3)].total


def test_verify_lists_latin_rectangles_by_default_and_more_with_all():
    quick, long = verify.default_rectangles(), verify.default_rectangles(True)
    assert (2, 8) in quick and (4, 7) in quick and (3, 9) not in quick
    assert set(quick) < set(long) and (3, 9) in long
    assert all(key in published.RECTANGLES for key in long)


# -- essentially different under a kind's full group (issue 34) ---------------
def test_verify_lists_sudokup_under_its_full_group_beside_its_published_total():
    assert verify.default_full_group_shapes() == ["3x3+disjoint"]
    assert verify.default_full_group_shapes(all_shapes=True) == ["3x3+windoku", "3x3+disjoint"]
    row, = verify.verify([], full_group_shapes=["3x3+disjoint"])
    assert row.status == "not counted" and row.computed is None and row.seconds == 0
    assert row.published == 53_666_689 and "SudokuP" in row.source    # enjoysudoku, 2018
    assert row.label == "3x3+disjoint (essentially different, full group)"


def test_verify_counts_a_kind_under_its_full_group_after_its_grid_count():
    # 65: union-find over every 6x6 SudokuP grid (tests/counting/group/test_split_burnside.py)
    rows = verify.verify(["2x3+disjoint"], full_group_shapes=["2x3+disjoint"], workers=1)
    assert [r.counts for r in rows] == ["grids", "essentially different (full group)"]
    assert rows[1].computed == 65 and rows[1].status == "no reference"
    assert rows[1].reduction == "full group" and "ess. diff. (full)" in verify.format_table(rows)


def test_a_wrong_grid_total_makes_the_full_group_row_fail():
    row = verify.verify_full_group("2x3+disjoint", grid_total=1)
    assert row.status == "FAILED" and "not a multiple of 6!" in row.error


@pytest.mark.slow
def test_verify_all_counts_windoku_and_its_essentially_different_grids_under_its_full_group():
    # one Windoku grid count serves both rows (the full group's identity term is that count)
    assert "3x3+windoku" in verify.default_shapes(all_shapes=True)
    grids, row = verify.verify(["3x3+windoku"], full_group_shapes=["3x3+windoku"], workers=2)
    assert grids.reduction == "prefix-rows=1,cols=1" and grids.units == 457
    assert grids.status == "ok" and "Mathimagics" in grids.source
    assert grids.computed == 6_337_174_388_428_800     # enjoysudoku, 2018
    assert row.status == "ok" and "Michel" in row.source
    assert row.computed == 68_239_994     # Michel, "Mathematics of NRC-Sudoku", 2007

# -- Latin squares' main classes and isomorphism classes (issue 34) -----------
def test_verify_counts_latin_main_and_isomorphism_classes_beside_oeis():
    rows = verify.verify([], latin_classes=[("main classes", 5), ("isomorphism classes", 5),
                                            ("main classes", 6)])
    assert [r.status for r in rows] == ["ok"] * 3
    assert [r.computed for r in rows] == [2, 1_411, 12]      # A003090(5), A057991(5), A003090(6)
    assert [r.source for r in rows] == ["OEIS A003090", "OEIS A057991", "OEIS A003090"]
    assert rows[1].label == "1x5 (isomorphism classes)" and rows[1].counts == "isomorphism classes"
    table = verify.format_table(rows)
    assert "main classes" in table and "iso. classes" in table
    assert "[2] 1,411 (OEIS A057991)" in table


def test_a_wrong_grid_total_makes_the_latin_classes_row_fail():
    # the identity's term is the grid count: a wrong one is no multiple of 5! (or of the order)
    row = verify.verify_latin_classes("main classes", 7, grid_total=1)
    assert row.status == "FAILED" and row.computed is None and row.error


def test_verify_counts_latin_classes_to_order_7_by_default_and_8_and_9_with_all():
    quick, long = verify.default_latin_classes(), verify.default_latin_classes(True)
    assert ("main classes", 7) in quick and ("isomorphism classes", 7) in quick
    assert ("main classes", 9) not in quick and ("main classes", 9) in long
    assert all(n in published.LATIN_CLASSES[g][1] for g, n in long)


def test_the_widest_rows_of_every_kind_fit_the_table_width():
    # the default table was 103 columns wide (a 15-letter kind, a 16-letter method,
    # "ess. diff. (full)", "not counted" and the "published" header)
    wide = "9" * verify.LONGEST_IN_TABLE
    rows = [verify.VerifyRow(shape="3x3+anti-knight", n=9, computed=int(wide), published=None,
                             source=None, seconds=12_345.6, units=1, reduction="prefix-diagonals",
                             full_group=True, up_to_symmetry=True),
            verify.VerifyRow(shape="1x9", n=9, computed=1, published=1, source="OEIS A057991",
                             seconds=1.0, units=1, reduction="latin_classes",
                             latin_group="isomorphism classes", up_to_symmetry=True),
            verify.VerifyRow(shape="1x10", n=10, computed=None, published=1, source="s",
                             seconds=0.0, units=None, reduction=None, not_counted="a long job")]
    text = verify.format_table(rows)
    assert max(map(len, text.splitlines())) <= verify.TABLE_WIDTH, text


@pytest.mark.slow
def test_verify_all_counts_the_latin_classes_of_order_8():
    rows = verify.verify(["1x8"], latin_classes=[("main classes", 8), ("isomorphism classes", 8),
                                                 (verify.LOOPS, 8)], workers=2)
    assert [r.status for r in rows] == ["ok"] * 4
    assert rows[1].computed == 283_657 and rows[2].computed == 2_697_818_331_680_661
    assert rows[3].computed == 106_228_849        # loops: the identity from the 1x8 row's count


def test_the_notes_of_rows_not_counted_type_no_figures():
    # every number is computed: a note names the command that measures a job
    # and the results file that records it, never a typed time, count or total
    import re
    notes = {**verify.NOT_COUNTED, **verify.NOT_COUNTED_FULL_GROUP, **verify.NOT_COUNTED_SYMMETRY}
    for key, note in notes.items():
        bare = re.sub(r"`[^`]*`|(?:results|docs)/\S+|A\d{6}|\b\d+x\d+\S*|rows \d+-\d+", "", note)
        assert not re.search(r"\d", bare), (key, bare)


# -- loops up to isomorphism (issue 34, --group loops) ------------------------
def test_verify_counts_loops_up_to_isomorphism_beside_oeis_a057771():
    rows = verify.verify([], latin_classes=[(verify.LOOPS, 4), (verify.LOOPS, 5),
                                            (verify.LOOPS, 6)])
    assert [r.status for r in rows] == ["ok"] * 3
    assert [r.computed for r in rows] == [2, 6, 109]
    assert {r.source for r in rows} == {"OEIS A057771"}
    assert rows[1].label == "1x5 (loops up to isomorphism)"
    assert "loops (iso.)" in verify.format_table(rows)


def test_a_grid_total_that_disagrees_with_the_searched_loops_makes_the_row_fail():
    row = verify.verify_latin_classes(verify.LOOPS, 5, grid_total=2 * 161_280)
    assert row.status == "FAILED" and row.computed is None and "loops searched" in row.error


def test_verify_counts_loops_to_order_6_by_default_and_7_and_8_with_all():
    quick, long = verify.default_latin_classes(), verify.default_latin_classes(True)
    assert (verify.LOOPS, 6) in quick and (verify.LOOPS, 7) not in quick
    assert (verify.LOOPS, 7) in long and (verify.LOOPS, 8) in long
    assert (verify.LOOPS, 9) not in long
    assert published.lookup("1x7", up_to_symmetry=True, group="loops").total == 23_746
    assert published.lookup("1x8", up_to_symmetry=True, group="loops").source == "OEIS A057771"


def test_the_loops_row_of_order_8_takes_its_identity_from_the_run_s_grid_count():
    """The grid total (here OEIS A002860's L_8, in --all 1x8's count of the
    run) over 8!·7! is the identity's R_8; the other 14 terms are searched."""
    grids = published.lookup("1x8").total
    row = verify.verify_latin_classes(verify.LOOPS, 8, grid_total=grids)
    assert row.status == "ok" and row.computed == 106_228_849 and row.units == 22
    wrong = verify.verify_latin_classes(verify.LOOPS, 8, grid_total=grids + 40_320)   # + 8!
    assert wrong.status == "FAILED" and wrong.computed is None
    assert "positive multiple of 8!·7!" in wrong.error


# -- rows not counted, in a few words (issue 38 review: `verify --shapes` ends with them) --
def test_every_note_of_a_row_not_counted_opens_with_its_reason_in_a_few_words():
    notes = {**verify.NOT_COUNTED, **verify.NOT_COUNTED_FULL_GROUP, **verify.NOT_COUNTED_SYMMETRY}
    for key, note in notes.items():
        short = verify.brief(note)
        assert short and len(short.split()) <= 5 and note.startswith(short), (key, short)


def test_a_row_not_counted_says_why_in_a_few_words_and_what_counts_it_instead():
    long_job, out_of_reach, listed_out_of_reach, counted = verify.verify(
        ["1x10", "6x2", "2x6", "1x3"])
    assert (long_job.not_counted_brief, long_job.instead) == ("a long job", "gridcount count 1x10")
    assert (out_of_reach.not_counted_brief, out_of_reach.instead) == ("out of reach by layers", None)
    # 2x6's note names `gridcount count 2x6`, which refuses it: nothing to run instead
    assert (listed_out_of_reach.not_counted_brief, listed_out_of_reach.instead) == \
        ("out of reach here", None)
    assert (counted.not_counted_brief, counted.instead) == (None, None)
    assert verify.not_counted_line([long_job, out_of_reach, counted]) == (
        "1x10 (a long job: gridcount count 1x10 counts it), 6x2 (out of reach by layers)")
    assert verify.not_counted_line([counted]) is None


def test_a_full_group_row_not_counted_says_why_in_a_few_words():
    row = verify.verify_full_group("3x3+disjoint")
    assert row.status == "not counted" and row.not_counted_brief == "a long job"
