"""The kind band tables' count all at once (bandtables/kind_count.py): on forked workers
as in one process, and a timing sample that gives no total.  The totals themselves are
checked in ``test_kind_tables.py``."""
import pytest

from bandtables.kind_count import count_kind_by_band_tables
from one_house_samples import SIX_HOUSES, six


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
def test_forked_workers_count_what_one_process_counts(name):
    assert (count_kind_by_band_tables(six(name), workers=2).grids
            == count_kind_by_band_tables(six(name)).grids)


def test_a_timing_sample_gives_no_total_to_believe():
    r = count_kind_by_band_tables(six("scattered"), sample=3, seed=1)
    assert r.grids is None and r.contracted == 3 and r.band1_keys > 3
