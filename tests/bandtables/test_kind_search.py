"""The completions of a band-1 orbit by dancing links (bandtables/kind_search.py) are what
the kind band tables contract for it, orbit by orbit: the independent count behind
``gridcount recount`` of a ``kind-tables`` store."""
import pytest

from bandtables.kind_search import completion_matrix, search_completions
from bandtables.kind_tables import KindBandTables
from one_house_samples import SIX_HOUSES, six


@pytest.mark.parametrize("first", [0, 1, 2])
@pytest.mark.parametrize("kind", ["2x3", *sorted(SIX_HOUSES)])
def test_every_orbit_searched_has_the_completions_contracted(kind, first):
    kt = KindBandTables(six(kind) if kind in SIX_HOUSES else kind, first)
    keys, _ = kt.orbits
    assert [search_completions(kt, int(k)) for k in keys] == \
        [kt.count([k], [1]) for k in keys]


def test_the_matrix_has_a_constraint_for_every_digit_a_column_still_lacks():
    # bands 2 and 3 of a 6x6 grid: 24 cells, 4 rows x 6 digits, 4 boxes x 6 digits, each
    # of 6 columns x the 4 digits band 1 left it, and the house x the 4 digits left it
    kt = KindBandTables(six("scattered"))
    ec = completion_matrix(kt, int(kt.orbits[0][0]))
    assert ec.n_primary == 24 + 24 + 24 + 6 * 4 + 4


def test_an_orbit_with_no_completion_searches_to_none():
    # some band 1s of "scattered" leave the other bands no way to fill the house
    kt = KindBandTables(six("scattered"))
    zero = [int(k) for k in kt.orbits[0] if kt.count([k], [1]) == 0]
    assert zero and all(search_completions(kt, k) == 0 for k in zero)
