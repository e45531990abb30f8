"""Implied houses: each holds every digit once in every brute-force grid, and
adding them to the exact cover changes no count."""
import pytest

from grids.variants import variant_exact_cover, variant_givens
from grids.variants.implied import implied_houses
from variant_samples import basic_houses, brute_fillings, by_key

JIGSAWS = [("AABB", "AABB", "CCDD", "CCDD"),                       # the boxes: nothing new
           ("AAAB", "CABB", "CCDB", "CDDD"),
           ("AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "EEEFFF", "EEEFFF"),
           ("AAAABB", "AACCCB", "DDCCBB", "DDDCBE", "DEEEEE", "FFFFFF")]


@pytest.mark.parametrize("rows", JIGSAWS)
def test_implied_houses_of_jigsaws_hold_every_digit_once(tmp_path, rows):
    n = len(rows)
    path = tmp_path / "j.kind"
    path.write_text("regions\n" + "\n".join(rows) + "\n")
    kind = f"{'2x2' if n == 4 else '2x3'}+@{path}"
    found = implied_houses(kind)
    houses = basic_houses(1, n) + by_key(n, lambda r, c: rows[r][c])
    grids = brute_fillings(n, houses) if n == 4 else None
    if grids is not None:
        for h in found:
            for g in grids:
                assert sorted(g[k] for k in h) == list(range(1, n + 1))
    grid = "".join(str(d) for d in range(1, n + 1)) + "." * (n * n - n)   # first row given
    given = variant_givens(kind, grid)
    with_them = variant_exact_cover(kind).count(given=given, memo=True)
    assert with_them == variant_exact_cover(kind, implied=False).count(given=given, memo=True)


def test_the_last_jigsaw_implies_houses():
    """Rows 1 and 2 hold region A whole, so what is left of them is a house."""
    import pathlib
    import tempfile
    path = pathlib.Path(tempfile.mkdtemp(), "j.kind")
    path.write_text("regions\n" + "\n".join(JIGSAWS[3]) + "\n")
    assert (4, 5, 8, 9, 10, 11) in implied_houses(f"2x3+@{path}")


def test_windoku_implies_five_houses():
    found = {tuple((k // 9 + 1, k % 9 + 1) for k in h) for h in implied_houses("3x3+windoku")}
    corners = tuple((r, c) for r in (1, 5, 9) for c in (1, 5, 9))
    left = tuple((r, c) for r in (2, 3, 4) for c in (1, 5, 9))
    assert corners in found and left in found and len(found) == 5


@pytest.mark.parametrize("text", ["3x3", "3x3+x", "3x3+disjoint", "2x3+x"])
def test_kinds_without_implied_houses(text):
    assert implied_houses(text) == ()
