"""Named kinds: canonical text, houses, and one-line errors for bad kinds."""
import pytest

from grids.kind import as_kind
from variant_samples import difference_pairs, extra_houses


@pytest.mark.parametrize("name", ["x", "disjoint", "windoku", "centre", "asterisk", "girandola"])
def test_houses_match_the_independent_definitions(name):
    kind = as_kind(f"3x3+{name}")
    want = sorted(tuple(sorted(r * 9 + c for r, c in h)) for h in extra_houses(name, 3, 3))
    assert sorted(kind.houses()) == want
    assert all(len(h) == 9 for h in kind.houses())


@pytest.mark.parametrize("text", ["2x3+disjoint", "3x2+disjoint", "1x5+x", "3x1+x", "3x3+centre"])
def test_houses_on_other_shapes(text):
    R, C = (int(v) for v in text.split("+")[0].split("x"))
    name = text.split("+")[1]
    want = sorted(tuple(sorted(r * R * C + c for r, c in h)) for h in extra_houses(name, R, C))
    assert sorted(as_kind(text).houses()) == want


def test_girandola_is_asterisk_moved_by_a_sudoku_symmetry():
    # results/variants.md: rows 1<->3 and 7<->9, columns 1<->3 and 7<->9 (moves inside bands
    # and stacks, so rows, columns and boxes are kept) take the asterisk house onto the
    # girandola house: the two kinds have the same grids up to that map, the same counts
    swap = {0: 2, 2: 0, 6: 8, 8: 6}

    def moved(cell):
        r, c = divmod(cell, 9)
        return swap.get(r, r) * 9 + swap.get(c, c)

    (asterisk,), (girandola,) = as_kind("3x3+asterisk").houses(), as_kind("3x3+girandola").houses()
    assert sorted(moved(k) for k in asterisk) == sorted(girandola)


@pytest.mark.parametrize("name", ["anti-king", "anti-knight"])
@pytest.mark.parametrize("shape", ["2x2", "2x3", "1x5"])
def test_pairs_match_the_independent_definitions(name, shape):
    n = as_kind(shape).shape.n
    want = sorted((a[0] * n + a[1], b[0] * n + b[1]) for a, b in difference_pairs(name, n))
    assert list(as_kind(f"{shape}+{name}").differences()) == want


def test_canonical_text_sorts_and_round_trips():
    kind = as_kind("3x3+x+windoku")
    assert kind.name == "3x3+windoku+x"
    assert as_kind(kind.name) == kind


@pytest.mark.parametrize("text, message", [
    ("3x3+sudokux", "unknown grid kind 'sudokux' in '3x3+sudokux'"),
    ("2x3+windoku", "grid kind 'windoku' does not apply to 2x3: windoku windows are defined on "
                    "9×9 grids with 3×3 boxes only"),
    ("2x2+centre", "grid kind 'centre' does not apply to 2x2: boxes have a centre cell only "
                   "with odd box rows and columns"),
    ("1x5+disjoint", "grid kind 'disjoint' does not apply to 1x5: a Latin square has no boxes"),
    ("2x2+asterisk", "grid kind 'asterisk' does not apply to 2x2: defined on 9×9 grids only, "
                     "not 4×4"),
    ("3x3+x+x", "a constraint is named twice in ['x', 'x']"),
    ("3x3+wíndoku", "grid kind names are ASCII, got 'wíndoku' in '3x3+wíndoku'"),
    ("3x3+", "empty grid kind name in '3x3+'"),
])
def test_bad_kinds_raise_one_line_errors(text, message):
    with pytest.raises(ValueError) as err:
        as_kind(text)
    assert str(err.value) == message
