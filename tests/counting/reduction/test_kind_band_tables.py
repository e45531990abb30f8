"""The ``kind-tables`` reduction (counting/reduction/kind_band_tables.py): the kind band
tables' sum cut into units of band-1 orbits, its total brute force's, its units a stable
partition of the orbits, its recount independent of the tables."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bandtables.kind_count import count_kind_by_band_tables
from bandtables.kind_tables import KindBandTables
from counting.reach import job_cost
from counting.reduction import get_reduction, listing, reduction_names
from counting.reduction.kind_band_tables import KindBandTableReduction
from counting.reduction.registry import KIND_CHOSEN
from counting.job import default_db_path
from listing_samples import measured, measured_tables
from one_house_samples import SIX_HOUSES, six, six_brute_total


def _total(red) -> int:
    return red.total({u.unit_id: red.count_directly(u).count for u in red.units()})


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
def test_the_total_of_a_six_by_six_house_is_brute_force(name):
    red = KindBandTableReduction(six(name))
    assert red.n_units() > 1
    assert _total(red) == six_brute_total(name) == count_kind_by_band_tables(six(name)).grids


def test_a_complete_store_s_total_is_its_counts_times_n_factorial_unlisted(monkeypatch):
    """Every unit weighs 1: the total of counts of ids 0 .. n-1 is N! · Σ, the units
    not listed (complete_total, as a grid store gives a symmetry job its identity);
    ids missing or unknown are refused as by total."""
    name = sorted(SIX_HOUSES)[0]
    red = KindBandTableReduction(six(name))
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    n = len(counts)

    def listing(self):
        raise AssertionError("the band-1 orbits were listed")
    monkeypatch.setattr(KindBandTables, "orbits", property(listing))
    fresh = KindBandTableReduction(six(name))
    assert fresh.complete_total(counts, n) == six_brute_total(name)
    with pytest.raises(ValueError, match="1 unit id"):
        fresh.complete_total({k: v for k, v in counts.items() if k}, n)
    with pytest.raises(ValueError, match="unknown unit id"):
        fresh.complete_total(counts, n - 1)


def test_plain_six_by_six_by_name_is_what_the_band_tables_count():
    red = get_reduction("2x3", "kind-tables")
    assert red.name == "kind-tables" and red.factor == 720
    assert _total(red) == count_kind_by_band_tables("2x3").grids == 28_200_960


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
def test_the_units_partition_the_orbits_in_order(name):
    red = KindBandTableReduction(six(name))
    keys, mults = KindBandTables(six(name)).orbits
    units = red.units()
    assert [u.unit_id for u in units] == list(range(len(units)))
    assert [k for u in units for k in u.keys] == keys.tolist()
    assert [m for u in units for m in u.mults] == mults.tolist()
    assert [u.first_orbit for u in units] == [sum(len(v.keys) for v in units[:i])
                                              for i in range(len(units))]
    assert all(0 < len(u.keys) <= red.per_unit for u in units)
    assert all(u.weight == 1 and u.class_id == u.unit_id for u in units)


_UNITS_OF = """
import json, sys
sys.path.insert(0, "tests")
from one_house_samples import six
from counting.reduction.kind_band_tables import KindBandTableReduction
print(json.dumps([[u.unit_id, u.first_orbit, u.keys, u.mults]
                  for u in KindBandTableReduction(six("two-rows")).units()]))
"""


def test_unit_ids_are_the_same_in_another_process(tmp_path):
    red = KindBandTableReduction(six("two-rows"))
    here = [[u.unit_id, u.first_orbit, list(u.keys), list(u.mults)] for u in red.units()]
    # the other process gets a cache of its own: with this one's, it would read the orbits
    # this process listed instead of listing them (review: the test could not fail)
    fresh = tmp_path / "fresh-cache"
    out = subprocess.run([sys.executable, "-c", _UNITS_OF], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONHASHSEED": "123",
                                          "XDG_CACHE_HOME": str(fresh)},
                         cwd=Path(__file__).parents[3])
    assert json.loads(out.stdout) == here
    assert any(fresh.rglob("*")), "the other process listed its own orbits into its cache"


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
def test_each_unit_recounted_by_search_agrees(name):
    red = KindBandTableReduction(six(name))
    for u in red.units():
        assert red.count_independently(u) == red.count_directly(u).count


def test_a_unit_of_another_job_is_refused():
    a, b = KindBandTableReduction(six("middles")), get_reduction("2x3", "kind-tables")
    with pytest.raises(ValueError, match="not of 2x3 by kind-tables"):
        b.count_directly(a.units()[0])


def test_centre_girandola_and_asterisk_are_counted_by_the_kind_tables_by_default():
    for kind in ("3x3+centre", "3x3+girandola", "3x3+asterisk"):
        red = get_reduction(kind)          # made without enumerating anything
        assert kind in KIND_CHOSEN and red.name == "kind-tables"
        assert default_db_path(kind, red.name).name == f"{kind}-rkind-tables.sqlite"
        assert get_reduction(kind, "prefix").name == "prefix-rows=2"   # still chosen by name
        assert reduction_names(kind) == ("kind-tables", "prefix-rows=2")
    assert get_reduction("3x3+x").name == "prefix-diagonals"


@pytest.mark.parametrize("kind, why", [
    ("3x3+x", "one extra house"),
    ("3x3+anti-king", "difference pairs"),
    ("2x2", "2 or 3 rows × 3 columns"),
])
def test_kinds_the_tables_do_not_carry_are_refused_by_name(kind, why):
    with pytest.raises(ValueError, match=why):
        get_reduction(kind, "kind-tables")


def test_the_estimate_times_orbits_and_counts_the_tables_memory():
    red = KindBandTableReduction(six("scattered"))
    cost = job_cost(red, max_seconds=0.5)
    assert cost.units == red.n_units() and cost.units_exact and not cost.out_of_reach(1)
    assert "band-1 orbits contracted and timed" in cost.method
    # the tables are made once a machine and mapped by every worker: shared, not private
    t = red.tables
    assert red.estimate_memory() == (t.worker_bytes - t.table_bytes, t.table_bytes)


def test_a_unit_counts_its_orbits_weighted_by_their_band_one_fillings():
    # a unit's count is Σ mult · completions of its orbits, whatever their order
    red = KindBandTableReduction(six("two-rows"))
    u = red.units()[0]
    each = [red.tables.count([k], [1]) for k in u.keys]
    assert red.count_directly(u).count == sum(m * c for m, c in zip(u.mults, each))
    assert red.count_directly(u).nodes == len(u.keys)


def test_a_nine_by_nine_unit_is_not_recounted_by_a_search_out_of_reach():
    # a 9x9 orbit is about a minute of dancing links, a unit of 64 an hour: refused,
    # naming the check that fits (a second decomposition), before any unit is listed
    why = get_reduction("3x3+centre").recount_refused()
    assert "a second decomposition" in why and "an hour" in why
    assert KindBandTableReduction(six("scattered")).recount_refused() is None


def test_a_units_share_of_the_progress_bar_is_its_share_of_the_orbits():
    red = KindBandTableReduction(six("two-rows"))          # 21 orbits: 10 units of 2, one of 1
    shares = red.work_shares(red.units())
    assert sum(shares.values()) == pytest.approx(1)
    assert shares[0] == pytest.approx(2 / 21) and shares[red.n_units() - 1] == pytest.approx(1 / 21)


def test_tables_mapped_from_the_machine_s_cache_are_counted_once_not_per_worker(
        tmp_path, monkeypatch):
    # the memory check counted every worker's own copy of the tables, which are
    # mapped from the machine's cache (bandtables/kind_cache.py): one copy in all
    from counting.options import CountOptions
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    red = KindBandTableReduction("3x3+centre")
    t, options = red.tables, CountOptions()
    assert t.table_bytes > 100 * 2 ** 20                          # 9×9: 152 MB
    assert red.shared_memory_mib(options) == t.table_bytes / 2 ** 20
    assert red.worker_memory_mib(options) == (t.worker_bytes - t.table_bytes) / 2 ** 20


def test_where_no_cache_can_be_written_each_worker_s_own_tables_are_counted(tmp_path,
                                                                            monkeypatch):
    # each process then makes its own copy (kind_cache.cached_arrays): none is shared
    from counting.options import CountOptions
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))   # no directory under it
    red = KindBandTableReduction("3x3+centre")
    options = CountOptions()
    assert red.shared_memory_mib(options) == 0
    assert red.worker_memory_mib(options) == red.tables.worker_bytes / 2 ** 20


# --- review of issue 35: what a store's unit ids mean ---------------------------------

# The units as kind-tables method 1 lists them (digest_of_units), recorded 2026-11-29
# when stores began to record them; the stores begun before hold these listings
# (LISTED_BEFORE_DIGESTS).  Another listing needs another METHOD, or those stores would
# be resumed with their unit ids meaning other orbits.
METHOD_1_LISTINGS = {
    "2x3": "320a6ad8f84d0896",
    "middles": "c4be0cc4d383bad1",
    "scattered": "112d8fba1d15348f",
    "two-rows": "b5ac8c988033e813",
    "3x3+centre": "f21b717c138d0930",      # results/3x3+centre-rkind-tables-done.json
    "3x3+asterisk": "cbf3943b7748940a",    # results/3x3+asterisk-rkind-tables-done.json
}
NINE = {"3x3+centre", "3x3+asterisk"}      # orbits listed in about 20 s each: --runslow


def _reduction(name):
    return KindBandTableReduction(six(name) if name in SIX_HOUSES else name)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in NINE else n
                                  for n in sorted(METHOD_1_LISTINGS)])
def test_the_units_are_method_1_s_while_the_method_is_1(name):
    from bandtables.kind_tables import METHOD
    from counting.reduction.kind_band_tables import LISTED_BEFORE_DIGESTS
    assert METHOD != LISTED_BEFORE_DIGESTS or \
        _reduction(name).units_digest == METHOD_1_LISTINGS[name]


def test_a_store_s_engine_names_its_units_and_another_listing_is_foreign():
    red = _reduction("scattered")
    assert red.engine_pinned and red.engine_version.endswith(f"+units-{red.units_digest}")
    assert red.foreign_engine(red.engine_version) is None
    assert red.foreign_engine("an older engine+kindtables1+units-" + red.units_digest) is None
    why = red.foreign_engine("dlx1-memo-3+kindtables1+units-0123456789abcdef")
    assert f"(units digest {red.units_digest} here, 0123456789abcdef in the store)" in why
    assert "\n" not in why


def test_a_store_of_another_listing_has_its_total_here_whatever_its_order():
    """Its units' counts are exact sums over their own orbits, each of weight 1: any
    listing's complete counts give the same ``N! · Σ``, so the total is computed."""
    red = _reduction("scattered")
    counts = [red.count_directly(u).count for u in red.units()]
    assert len(set(counts)) > 1                            # an order that could matter
    assert red.total(dict(enumerate(counts))) == red.total(dict(enumerate(counts[::-1]))) \
        == six_brute_total("scattered")
    assert red.foreign_total_refused() is None
    assert red.foreign_engine("dlx1-memo-3+kindtables1+units-0123456789abcdef") is not None
    assert red.total_refused_for("dlx1-memo-3+kindtables1+units-0123456789abcdef") is None


def test_the_digest_changes_with_the_order_or_the_grouping_of_the_orbits():
    from counting.reduction.kind_band_tables import digest_of_units
    units = _reduction("two-rows").units()
    a, b = units[0], units[1]
    swapped = [a.__class__(**{**vars(a), "keys": b.keys, "mults": b.mults}),
               b.__class__(**{**vars(b), "keys": a.keys, "mults": a.mults}), *units[2:]]
    assert digest_of_units(swapped) != digest_of_units(units)
    regrouped = [a.__class__(**{**vars(a), "keys": a.keys[:1], "mults": a.mults[:1]}),
                 *units[1:]]
    assert digest_of_units(regrouped) != digest_of_units(units)


def test_listing_is_said_first_until_the_orbits_are_in_this_machine_s_cache(tmp_path,
                                                                            monkeypatch):
    """9x9 kinds' band-1 orbits take about 12 s of a core to enumerate
    (results/listing-seconds.json): count says so first, with an empty cache
    only (0.2 s after).  A 6x6 kind measured as slow stands for them here."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(listing, "FILE", measured(tmp_path / "m.json", ("2x3", "kind-tables", 30)))
    red = KindBandTableReduction("2x3")
    assert red.listing_notice() == ("listing the units of 2x3 (kind-tables) first: about 30 s "
                                    "of one core, as measured from an empty cache "
                                    "(results/listing-seconds.json) ...")
    red.units()
    assert red.listing_notice() is None
    assert KindBandTableReduction("2x3").listing_notice() is None     # another process's: cached


def test_making_the_tables_is_said_first_until_they_are_in_this_machine_s_cache(tmp_path,
                                                                              monkeypatch):
    """9x9 kinds' band tables take about half a minute of a core to make, 152 MB each
    (results/kind-tables-seconds.json): count says so first, with an empty cache only.
    A 6x6 kind of this test alone, measured as slow, stands for them here."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(listing, "TABLES_FILE", measured_tables(tmp_path / "t.json", ("2x3", 40)))
    red = KindBandTableReduction("2x3")
    assert red.tables_notice() == (
        f"making the band tables of 2x3 first (1 table, {red.tables.table_bytes:,} bytes, kept "
        f"in this machine's cache): about 40 s of one core, as measured from an empty cache "
        f"(results/kind-tables-seconds.json) ...")
    red.units()                                   # the orbits: the tables are not made
    assert red.tables_notice() is not None
    red.tables.build_tables()
    assert red.tables_notice() is None
    assert KindBandTableReduction("2x3").tables_notice() is None     # another process's: cached
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-cache"))
    assert KindBandTableReduction("2x3").tables_notice() is not None  # another machine's cache
    from counting.reduction import kind_band_tables
    monkeypatch.setattr(kind_band_tables, "shared_here", lambda: False)   # a read-only home
    assert "made by each process: no cache can be written here" in \
        KindBandTableReduction("2x3").tables_notice()
