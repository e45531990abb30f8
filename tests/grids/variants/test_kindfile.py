"""The kind-file parser and the @PATH constraint: good files, bad files, one-line errors."""
import os
import re
import textwrap

import pytest

from grids.kind import as_kind
from grids.variants import kindfile, variant_exact_cover
from grids.variants.kindfile import (MAX_KIND_FILE_BYTES, parse_kind_text, read_kind_file,
                                     read_kind_text)
from variant_samples import basic_houses, brute_count, by_key

JIGSAW4 = """# a 4x4 jigsaw
regions
AABB
ACBB   # comments may follow a row
CCDD
CADD
"""


def write(tmp_path, text, name="k.kind"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_parse_everything():
    spec = parse_kind_text(JIGSAW4 + "\nhouse r1c1, r2c2 r3c3 r4c4\ndiffer r1c1 r1c2\n"
                           "differ anti-knight\n", "t")
    assert spec.regions == ("AABB", "ACBB", "CCDD", "CADD")
    assert spec.houses == (((0, 0), (1, 1), (2, 2), (3, 3)),)
    assert spec.pairs == (((0, 0), (0, 1)),)
    assert spec.rules == ("anti-knight",)


def jigsaw_houses(rows):
    n = len(rows)
    return basic_houses(1, n) + by_key(n, lambda r, c: rows[r][c])


@pytest.mark.parametrize("rows", [("AABB", "ACBB", "CCDD", "CADD"), ("AAAB", "CABB", "CCDB", "CDDD"),
                                  ("AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "EEEFFF", "EEEFFF"),
                                  ("AABBBB", "AAABBC", "DAECCC", "DDEECC", "DDEEFF", "DEFFFF")])
def test_jigsaw_counts_match_brute_force(tmp_path, rows):
    n = len(rows)
    path = write(tmp_path, "regions\n" + "\n".join(rows) + "\n")
    ec = variant_exact_cover(f"{'2x2' if n == 4 else '2x3'}+@{path}")
    given = {(0, c): c + 1 for c in range(n)} if n == 6 else {}
    from grids.variants import variant_givens
    grid = "".join(str(given.get((r, c), ".")) for r in range(n) for c in range(n))
    got = ec.count(given=variant_givens(f"{'2x2' if n == 4 else '2x3'}+@{path}", grid), memo=True)
    assert got == brute_count(n, jigsaw_houses(rows), (), given)


def test_houses_and_pairs_from_a_file_match_brute_force(tmp_path):
    path = write(tmp_path, "house r1c4 r2c3 r3c2 r4c1\ndiffer r1c1 r4c4\ndiffer r2c2 r1c1\n")
    houses = basic_houses(2, 2) + [[(0, 3), (1, 2), (2, 1), (3, 0)]]
    pairs = [((0, 0), (3, 3)), ((1, 1), (0, 0))]
    assert variant_exact_cover(f"2x2+@{path}").count() == brute_count(4, houses, pairs)


def test_a_file_combines_with_named_rules(tmp_path):
    path = write(tmp_path, JIGSAW4)
    kind = as_kind(f"2x2+x+@{path}")
    assert kind.name == f"2x2+{as_kind(f'2x2+@{path}').constraints[0].name}+x"
    rows = ("AABB", "ACBB", "CCDD", "CADD")
    houses = jigsaw_houses(rows) + [[(i, i) for i in range(4)], [(i, 3 - i) for i in range(4)]]
    assert variant_exact_cover(kind).count() == brute_count(4, houses)


@pytest.mark.parametrize("text, shape, message", [
    ("", "2x2", "kind file {p} is empty"),
    ("# only a comment\n\n", "2x2", "kind file {p} is empty"),
    ("regions\nAABB\nAABB\nCCDD\n", "2x2",
     "grid kind '@{p}' does not apply to 2x2: kind file {p}: the region grid must be 4 lines of 4 "
     "symbols, got 3 lines of [4]"),
    ("regions\nAAAB\nAABB\nCCDD\nCCDD\n", "2x2",
     "grid kind '@{p}' does not apply to 2x2: kind file {p}: region 'A' has 5 cells, not 4"),
    ("regions\nAABB\nAABB\nCCDD\nCCDE\n", "2x2",
     "grid kind '@{p}' does not apply to 2x2: kind file {p}: 5 regions, a 4×4 grid needs 4"),
    ("regions\nAA-B\nAABB\nCCDD\nCCDD\n", "2x2",
     "kind file {p}, line 2: region rows are letters or digits, got 'AA-B'"),
    ("house r1c1 r2c2 r3c3 r5c4\n", "2x2",
     "grid kind '@{p}' does not apply to 2x2: kind file {p}: r5c4 is off the 4×4 grid"),
    ("house r1c1 r2c2 r3c3 r1c1\n", "2x2",
     "grid kind '@{p}' does not apply to 2x2: kind file {p}: house 1 repeats a cell"),
    ("house r1c1 r2c2 r3c3\n", "2x2",
     "grid kind '@{p}' does not apply to 2x2: kind file {p}: house 1 has 3 cells, not 4"),
    ("house r1c1 r2c2 x r4c4\n", "2x2", "kind file {p}, line 1: 'x' is not a cell (write r1c1 .. r9c9)"),
    ("differ r1c1\n", "2x2", "kind file {p}, line 1: differ takes two cells or a rule name, "
                              "got 'r1c1'"),
    ("differ anti-queen\n", "2x2", "kind file {p}: unknown difference rule 'anti-queen'"),
    ("differ r1c1 r1c1\n", "2x2", "grid kind '@{p}' does not apply to 2x2: kind file {p}: a cell "
                                  "cannot differ from itself (r1c1)"),
    ("colour r1c1\n", "2x2", "kind file {p}, line 1: unknown statement 'colour' (regions, house, differ)"),
    ("regions\nAB\nBA\n\nregions\nAB\nBA\n", "2x2", "kind file {p}, line 5: a second regions grid"),
])
def test_bad_files_raise_one_line_errors(tmp_path, text, shape, message):
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as err:
        as_kind(f"{shape}+@{path}")
    want = message.replace("{p}", str(path))
    assert str(err.value) == want
    assert "\n" not in str(err.value)


def test_unreadable_and_non_ascii_files(tmp_path):
    with pytest.raises(ValueError, match=r"^cannot read kind file .*nothing.kind: No such file"):
        as_kind(f"2x2+@{tmp_path / 'nothing.kind'}")
    path = tmp_path / "u.kind"
    path.write_bytes("house r1c1 r2c2 r3c3 r4c4 # café\n".encode())
    with pytest.raises(ValueError, match=r"^kind file .*u.kind: not ASCII text$"):
        read_kind_file(path)
    with pytest.raises(ValueError, match="^'@' must be followed by the path of a kind file$"):
        as_kind("2x2+@")


def documented_example() -> str:
    """The example kind file of :mod:`grids.variants.kindfile`'s docstring, as written there."""
    block = kindfile.__doc__.split("Example::\n\n", 1)[1].split("\n\n", 1)[0]
    return textwrap.dedent(block) + "\n"


def test_the_documented_example_is_read_as_written():
    # issue 33 item 7: its house line right below the grid was taken for a region row
    spec = parse_kind_text(documented_example(), "doc")
    assert spec.regions == ("AABB", "ACBB", "ACDD", "CCDD")
    assert spec.houses == (((0, 0), (1, 1), (2, 2), (3, 3)),)
    assert spec.pairs == (((0, 3), (1, 2)),)


def test_a_statement_ends_the_region_grid_a_bad_row_is_still_named():
    spec = parse_kind_text("regions\nAB\nBA\ndiffer anti-king\nhouse r1c1 r2c2\n", "k")
    assert spec.regions == ("AB", "BA") and spec.rules == ("anti-king",)
    assert spec.houses == (((0, 0), (1, 1)),)
    with pytest.raises(ValueError, match=r"^kind file k, line 3: region rows are letters or "
                                         r"digits, got 'B A'$"):
        parse_kind_text("regions\nAB\nB A\n", "k")


def test_a_directory_and_a_file_over_the_limit_are_refused_before_reading(tmp_path):
    # issue 38 item 1: a kind file is a regular file of at most MAX_KIND_FILE_BYTES
    with pytest.raises(ValueError, match=r"^kind file .* is not a regular file: it is a "
                                         r"directory$"):
        read_kind_text(tmp_path)
    big = tmp_path / "big.kind"
    with open(big, "wb") as f:          # sparse: no disk, and no byte of it is read
        f.truncate(MAX_KIND_FILE_BYTES + 1)
    with pytest.raises(ValueError, match=rf"^kind file .*big.kind has "
                                         rf"{MAX_KIND_FILE_BYTES + 1:,} bytes, more than the "
                                         rf"{MAX_KIND_FILE_BYTES:,} bytes a kind file may have$"):
        as_kind(f"2x2+@{big}")
    ok = write(tmp_path, "house r1c1 r2c2 r3c3 r4c4\n" + "#" * (MAX_KIND_FILE_BYTES - 100) + "\n")
    assert os.path.getsize(ok) <= MAX_KIND_FILE_BYTES
    assert read_kind_file(ok).houses == (((0, 0), (1, 1), (2, 2), (3, 3)),)


# Issue 33 items 1 and 8, issue 38 item 10: a kind file's kind is its content.

def test_a_kind_is_named_by_its_content_not_its_file(tmp_path):
    a = write(tmp_path, "regions\nAABB\nAABB\nCCDD\nCCDD\nhouse r1c1 r2c2 r3c3 r4c4\n", "a.kind")
    same = write(tmp_path, "# the same rules, said otherwise\nhouse r4c4, r3c3 r2c2 r1c1\n\n"
                           "regions\nxxzz\nxxzz\nyyww\nyyww\nhouse r1c1 r2c2 r3c3 r4c4\n",
                 "b.kind")
    name = as_kind(f"2x2+@{a}").name
    assert name == as_kind(f"2x2+@{same}").name
    assert re.fullmatch(r"2x2\+kind-[0-9a-f]{16}", name)     # flat: no path in it
    a.write_text(a.read_text() + "house r1c4 r2c3 r3c2 r4c1\n")   # edited: another kind
    edited = as_kind(f"2x2+@{a}")
    assert edited.name != name and len(edited.houses()) == 2


def test_a_kind_read_once_is_known_by_its_name_without_its_file(tmp_path):
    path = write(tmp_path, JIGSAW4 + "house r1c1 r2c2 r3c3 r4c4\n", "gone.kind")
    kind = as_kind(f"2x2+@{path}")
    path.unlink()
    again = as_kind(kind.name)
    assert again == kind and variant_exact_cover(again).count() == variant_exact_cover(kind).count()
    with pytest.raises(ValueError, match=r"^grid kind 'kind-0000000000000000' is a kind file "
                                         r"this process has not read"):
        as_kind("2x2+kind-0000000000000000")


def test_a_file_is_parsed_once_per_content(tmp_path, monkeypatch):
    parsed = []
    real = kindfile.parse_kind_text
    monkeypatch.setattr(kindfile, "parse_kind_text", lambda *a: parsed.append(a) or real(*a))
    path = write(tmp_path, "house r1c4 r2c3 r3c2 r4c1\n# parsed once\n", "once.kind")
    for _ in range(3):
        name = as_kind(f"2x2+@{path}").name
        as_kind(name)
    assert len(parsed) == 1
    path.write_text("house r1c1 r2c2 r3c3 r4c4\n")
    as_kind(f"2x2+@{path}")
    assert len(parsed) == 2
