"""The band transfer (counting/reduction/kind_bands.py) counts every 4×4 and 6×6 kind as
brute force does: the interface it carries across a band border (column sets, the digits
of each extra house, the digits on the upper cells of pairs that cross the border) is
all the bands below need."""
import math

import pytest

from counting.reduction.kind_bands import count_by_bands
from variant_samples import brute_count, kind_parts

FOUR = ["2x2", "2x2+x", "2x2+disjoint", "2x2+anti-knight", "2x2+anti-king", "2x2+x+disjoint"]
SIX = ["2x3+x", "3x2+x", "2x3+disjoint", "3x2+disjoint", "2x3+anti-king",
       "3x2+anti-king", "2x3+anti-knight", "3x2+anti-knight", "2x3+x+anti-knight"]


@pytest.mark.parametrize("kind", FOUR)
def test_four_by_four_kinds_equal_brute_force_over_every_grid(kind):
    R, C, houses, pairs = kind_parts(kind)
    assert count_by_bands(kind).grids == brute_count(R * C, houses, pairs)


@pytest.mark.parametrize("kind", SIX)
def test_six_by_six_kinds_equal_brute_force(kind):
    # brute force with row 1 given as 1..6, times the 6! relabellings (every rule is a
    # house or a pair, so relabelling maps grids onto grids one to one)
    R, C, houses, pairs = kind_parts(kind)
    n = R * C
    row1 = {(0, c): c + 1 for c in range(n)}
    assert count_by_bands(kind).grids == math.factorial(n) * brute_count(n, houses, pairs, row1)


def test_anti_king_carries_the_digits_of_a_band_s_last_row_across_its_border():
    # 2x3+anti-king: without the pairs that cross a border, grids whose bands keep the
    # rule only inside would be counted too
    r = count_by_bands("2x3+anti-king")
    R, C, houses, pairs = kind_parts("2x3+anti-king")
    inside = [(a, b) for a, b in pairs if a[0] // R == b[0] // R]
    row1 = {(0, c): c + 1 for c in range(6)}
    assert r.grids == 720 * brute_count(6, houses, pairs, row1)
    assert r.grids < 720 * brute_count(6, houses, inside, row1)
    assert r.interfaces[0] > 1 and r.interfaces[-1] == 1


@pytest.mark.parametrize("shape, bands", [("2x3", 3), ("3x2", 2)])
def test_plain_six_by_six_gives_the_published_total_with_an_interface_per_band(shape, bands):
    r = count_by_bands(shape)
    assert r.grids == 28_200_960        # Pettersen (counting/published.py)
    assert len(r.interfaces) == bands and r.interfaces[-1] == 1 and r.fillings > 0


@pytest.mark.parametrize("kind, message", [
    ("1x4", "needs boxes"),
    ("3x3+centre", "counts grids up to 6x6"),
    ("2x3", "over 100 band fillings"),
])
def test_what_the_transfer_cannot_count_is_refused_in_one_line(kind, message):
    with pytest.raises(ValueError, match=message) as err:
        count_by_bands(kind, max_fillings=100)
    assert "\n" not in str(err.value)
