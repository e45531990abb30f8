"""``gridcount count KIND --reduction kind-tables``: the kind band tables through the store
(counted, killed and resumed, recounted, exported, the identity of a symmetry job), on 6×6
kinds of one extra house (kind files of ``tests/one_house_samples.py``), where all is fast."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bandtables.kind_tables import KindBandTables
from cli_samples import invoke, one_line_error
from count_process import killed_and_resumed, units_in
from counting.reduction import listing
from counting.store.database import Store
from grids.kind import as_kind
from listing_samples import measured, measured_tables
from one_house_samples import six_brute_total, six_kind_text
from store_samples import store_count_plus_one

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def scattered(here):
    """The kind ``2x3+@sc.kind`` (16 band-1 orbits, 8 units) in an empty directory."""
    (here / "sc.kind").write_text(six_kind_text("scattered"))
    return "2x3+@sc.kind"


def count_json(*args) -> dict:
    res = invoke("count", *args, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_a_kind_counted_by_the_tables_is_stored_under_their_name(here, scattered):
    doc = count_json(scattered, "--reduction", "kind-tables")
    assert int(doc["total_int"]) == six_brute_total("scattered")
    [db] = (here / "results").glob("*-rkind-tables.sqlite")
    with Store.open(db) as st:
        assert st.job.reduction == "kind-tables" and st.job.n_units == 8
    res = invoke("status", db)
    assert res.exit_code == 0 and f"{six_brute_total('scattered'):,}" in res.output
    res = invoke("export", db, "--csv", here / "u.csv")
    assert res.exit_code == 0, res.output
    head = (here / "u.csv").read_text().splitlines()[0]
    assert head.endswith("first_orbit,orbits,band1_fillings")
    res = invoke("report", db, "-o", here / "report.html")
    assert res.exit_code == 0, res.output
    assert f"{six_brute_total('scattered'):,}" in (here / "report.html").read_text()


def test_a_killed_count_resumes_to_the_same_total(here, scattered):
    """Killed while its third unit waits at the gate: the units before it are stored
    once each, and the resumed count counts only the others."""
    kept, doc = killed_and_resumed([scattered, "--reduction", "kind-tables"], here, hold=2,
                                   stored=2)
    assert len(set(kept)) == len(kept) == 2
    assert doc["run"]["units_counted"] == 8 - 2
    assert int(doc["total_int"]) == six_brute_total("scattered")
    assert sorted(units_in(here / "k.sqlite")) == list(range(8))


def test_a_recount_of_a_sample_searches_and_agrees(here, scattered):
    count_json(scattered, "--reduction", "kind-tables", "--db", "r.sqlite")
    res = invoke("recount", "r.sqlite", "--sample", 5)
    assert res.exit_code == 0, res.output
    assert "dancing links" in res.output
    assert res.output.splitlines()[-1] == "all 5 recounted units agree"


def test_a_recount_finds_a_wrong_stored_count(here, scattered):
    count_json(scattered, "--reduction", "kind-tables", "--db", "w.sqlite")
    store_count_plus_one(here / "w.sqlite", 3)
    res = invoke("recount", "w.sqlite", "--sample", 8)
    assert res.exit_code == 1
    assert "unit    3:" in res.output and "MISMATCH" in res.output
    assert "1 of 8 recounted units disagree with the store" in res.output


def test_the_identity_of_a_symmetry_job_comes_from_the_tables_store(here, scattered):
    res = invoke("count", scattered, "--reduction", "kind-tables", "--up-to-symmetry",
                 "--group", "full", "--workers", 1)
    assert res.exit_code == 0, res.output
    [line] = [x for x in res.output.splitlines() if x.startswith("identity: ")]
    assert line.endswith("-rkind-tables.sqlite)")
    assert f"{six_brute_total('scattered'):,} grids" in line


class Listed(Exception):
    """The band-1 orbits were listed (:attr:`KindBandTables.orbits` read)."""


def test_a_complete_tables_store_gives_a_symmetry_job_its_identity_without_listing(
        here, scattered, fresh_reductions, monkeypatch):
    """Every kind-tables unit weighs 1, so the grid total is N! · Σ of the stored counts
    whatever their listing: a symmetry job takes its identity from a complete store
    without listing the band-1 orbits (9×9: 12-17 s of a core without this machine's
    cache, as for a store counted elsewhere); from an incomplete one it lists them to
    count the rest."""
    import sqlite3
    import counting.reduction.registry as registry
    count_json(scattered, "--reduction", "kind-tables")
    [grid] = (here / "results").glob("*-rkind-tables.sqlite")
    listed = count_json(scattered, "--reduction", "kind-tables", "--up-to-symmetry")
    [sym] = (here / "results").glob("*-rsymmetry.sqlite")
    Store.delete(sym)
    registry.forget_kind_tables()

    def listing(self):
        raise Listed
    monkeypatch.setattr(KindBandTables, "orbits", property(listing))
    doc = count_json(scattered, "--reduction", "kind-tables", "--up-to-symmetry")
    assert doc["total_int"] == listed["total_int"]
    Store.delete(sym)
    con = sqlite3.connect(grid)
    with con:
        con.execute("DELETE FROM units WHERE unit_id = 5")   # one unit left to count
    con.close()
    res = invoke("count", scattered, "--reduction", "kind-tables", "--up-to-symmetry",
                 "--workers", 1)
    assert isinstance(res.exception, Listed), res.output


def test_a_symmetry_count_says_the_tables_listing_only_when_it_lists_them(
        here, tmp_path, scattered, fresh_reductions, monkeypatch):
    """From a complete kind-tables grid store the identity lists no orbit (above), so
    no listing is announced, even on a machine without their cache (measured as slow
    here); from an incomplete one it is, once."""
    import sqlite3
    import counting.reduction.registry as registry
    count_json(scattered, "--reduction", "kind-tables")
    [grid] = (here / "results").glob("*-rkind-tables.sqlite")
    name = as_kind(scattered).name
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(listing, "FILE", measured(tmp_path / "m.json", (name, "kind-tables", 30)))
    registry.forget_kind_tables()
    said = (f"listing the units of {name} (kind-tables) first: about 30 s of one core, as "
            f"measured from an empty cache (results/listing-seconds.json) ...")
    args = ("count", scattered, "--reduction", "kind-tables", "--up-to-symmetry", "--workers", 1)
    res = invoke(*args)
    assert res.exit_code == 0 and said not in res.stderr, res.output
    [sym] = (here / "results").glob("*-rsymmetry.sqlite")
    Store.delete(sym)
    con = sqlite3.connect(grid)
    with con:
        con.execute("DELETE FROM units WHERE unit_id = 5")   # one unit left to count
    con.close()
    res = invoke(*args)
    assert res.exit_code == 0 and res.stderr.splitlines().count(said) == 1, res.output


def test_a_kind_the_tables_do_not_carry_is_refused_in_one_line(here):
    res = invoke("count", "3x3+x", "--reduction", "kind-tables")
    one_line_error(res, "kind band tables carry one extra house, got 2", 2)
    assert not (here / "results").exists()


def test_stores_of_two_parts_merge_to_the_total(here, scattered):
    count_json(scattered, "--reduction", "kind-tables", "--db", "a.sqlite", "--units", "0-3")
    count_json(scattered, "--reduction", "kind-tables", "--db", "b.sqlite", "--units", "4-7")
    res = invoke("merge", "m.sqlite", "a.sqlite", "b.sqlite")
    assert res.exit_code == 0, res.output
    res = invoke("status", "m.sqlite")
    assert res.output.splitlines()[-1].split()[-1] == f"{six_brute_total('scattered'):,}"


# ``gridcount status`` in a process of its own whose band fillings (where every enumeration
# of the band-1 orbits starts) raise: argv the store
STATUS_WITHOUT_ENUMERATION = """
import sys
import bandtables.kind_tables

def no_enumeration(R):
    raise SystemExit("status enumerated the band fillings again")

bandtables.kind_tables.band_fillings = no_enumeration
from counting.cli import main
sys.argv[1:] = ["status", sys.argv[1]]
main()
"""


def test_status_reads_the_cached_orbits_and_enumerates_nothing(here, scattered):
    """Issue 35: ``status`` on a 9×9 store took 20 s, enumerating band 1 again to list
    the units; the orbits are in the machine's cache once the count has made them."""
    count_json(scattered, "--reduction", "kind-tables", "--db", "s.sqlite", "--units", "0-2")
    out = subprocess.run([sys.executable, "-c", STATUS_WITHOUT_ENUMERATION, "s.sqlite"],
                         capture_output=True, text=True, cwd=here, timeout=120,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(
                             [str(REPO), os.environ.get("PYTHONPATH", "")])})
    assert out.returncode == 0, out.stderr
    assert "3 of 8" in out.stdout


# --- review of issue 35: a store records what its unit ids mean ----------------------

@pytest.fixture
def fresh_reductions():
    """Reductions made anew by the next command (the registry keeps each kind's), and
    again after the test: a listing planted by a test is never left to the next."""
    import counting.reduction.registry as registry
    registry.forget_kind_tables()
    yield
    registry.forget_kind_tables()


def plant_listing_with_two_orbits_exchanged(monkeypatch):
    """The orbits listed with the first and the last exchanged (units 0 and the last):
    what another gridcount, or orbits cached by another method, would list (by the
    reductions made from now on: with :func:`fresh_reductions`)."""
    import counting.reduction.registry as registry
    from bandtables.kind_tables import KindBandTables
    registry.forget_kind_tables()
    real = KindBandTables.orbits

    def exchanged(self):
        keys, mults = (a.copy() for a in real.fget(self))
        keys[[0, -1]], mults[[0, -1]] = keys[[-1, 0]], mults[[-1, 0]]
        return keys, mults
    monkeypatch.setattr(KindBandTables, "orbits", property(exchanged))


def test_a_store_records_the_digest_of_its_units(here, scattered, fresh_reductions):
    from counting.reduction import get_reduction
    count_json(scattered, "--reduction", "kind-tables", "--db", "d.sqlite", "--units", "0-1")
    digest = get_reduction(scattered, "kind-tables").units_digest
    with Store.open(here / "d.sqlite") as st:
        assert st.job.engine_version.endswith(f"+kindtables1+units-{digest}")


def test_a_store_of_another_listing_of_the_orbits_is_refused_not_resumed(
        here, scattered, monkeypatch, fresh_reductions):
    """A store tied its units to the listing by unit ids and their number only: resumed
    by a gridcount listing the orbits otherwise, its units 4-7 counted the first orbit
    again (in unit 7) and the last never, and the total was believed."""
    from counting.reduction import get_reduction
    count_json(scattered, "--reduction", "kind-tables", "--db", "l.sqlite", "--units", "0-3")
    count_json(scattered, "--reduction", "kind-tables", "--db", "other.sqlite", "--units", "4")
    with Store.open(here / "l.sqlite") as st:
        ours = st.job.engine_version.rpartition("+units-")[2]
    plant_listing_with_two_orbits_exchanged(monkeypatch)
    res = invoke("count", scattered, "--reduction", "kind-tables", "--db", "l.sqlite",
                 "--workers", 1)
    mine = get_reduction(scattered, "kind-tables").units_digest      # the planted listing's
    # the same kernel, another list of orbits: said so, with what to do (not "another kernel")
    one_line_error(res, "l.sqlite: its units are another listing of the band-1 orbits (units "
                        f"digest {mine} here, {ours} in the store), so its unit ids would "
                        "stand for other orbits here; count into another --db, or continue "
                        "this one with the gridcount that began it", 2)
    assert "kernel" not in res.output
    assert sorted(units_in(here / "l.sqlite")) == [0, 1, 2, 3]
    res = invoke("recount", "l.sqlite", "--sample", 4)        # nor recounted as other orbits
    one_line_error(res, "no finished unit of this store can be recounted: its units are "
                        "another listing of the band-1 orbits", 2)
    res = invoke("merge", "m.sqlite", "other.sqlite")         # nor merged
    one_line_error(res, "cannot merge other.sqlite: its units are another listing of the "
                        "band-1 orbits", 2)
    assert not (here / "m.sqlite").exists()


def test_status_and_report_say_a_store_of_another_listing_is_not_this_gridcount_s_units(
        here, scattered, monkeypatch, fresh_reductions):
    """``status`` and ``report`` showed such a store's units 4-7 as remaining, read against
    this gridcount's listing (whose unit 7 is other orbits): they show what is stored and
    say, in one line (--json: as data), that which units remain cannot be said."""
    count_json(scattered, "--reduction", "kind-tables", "--db", "l.sqlite", "--units", "0-3")
    plant_listing_with_two_orbits_exchanged(monkeypatch)
    said = "l.sqlite: its units are another listing of the band-1 orbits (units digest "
    res = invoke("status", "l.sqlite")
    assert res.exit_code == 0, res.output
    [line] = [ln for ln in res.output.splitlines() if ln.startswith(said)]
    assert line.endswith("which of this gridcount's units remain cannot be said (what is "
                         "shown is the store's units, as stored)")
    assert "4 of 8" in res.output and "remaining unit" not in res.output
    doc = json.loads(invoke("status", "l.sqlite", "--json").stdout)
    assert doc["units_done"] == 4 and doc["remaining"] is None
    assert doc["foreign_units"].startswith("its units are another listing of the band-1 "
                                           "orbits (units digest ")
    res = invoke("report", "l.sqlite", "-o", here / "report.md")
    assert res.exit_code == 0, res.output
    assert "its units are another listing of the band-1 orbits" in \
        (here / "report.md").read_text()


def test_a_complete_store_of_another_listing_keeps_its_total(
        here, scattered, monkeypatch, fresh_reductions):
    """Its total is N! · Σ of its counts, whatever orbits each id stands for
    (:meth:`foreign_total_refused` is None): shown, as for the factor stores it is not."""
    count_json(scattered, "--reduction", "kind-tables", "--db", "c.sqlite")
    plant_listing_with_two_orbits_exchanged(monkeypatch)
    res = invoke("status", "c.sqlite")
    assert res.exit_code == 0, res.output
    assert f"{six_brute_total('scattered'):,}" in res.output and "not computed" not in res.output
    assert "another listing of the band-1 orbits" in res.output
    doc = json.loads(invoke("status", "c.sqlite", "--json").stdout)
    assert int(doc["total_int"]) == six_brute_total("scattered")
    assert doc["total_refused"] is None and doc["foreign_units"] is not None


def test_status_of_a_store_of_this_listing_lists_what_remains(here, scattered):
    count_json(scattered, "--reduction", "kind-tables", "--db", "t.sqlite", "--units", "0-3")
    res = invoke("status", "t.sqlite")
    assert res.exit_code == 0 and "remaining units (ids): 4-7" in res.output, res.output
    assert "another listing" not in res.output
    doc = json.loads(invoke("status", "t.sqlite", "--json").stdout)
    assert doc["remaining"] == [4, 5, 6, 7] and doc["foreign_units"] is None


def test_a_store_begun_before_stores_recorded_their_units_is_the_first_method_s(
        here, scattered, monkeypatch, fresh_reductions):
    """Stores of 2026-11-29 recorded the engine alone ("dlx1-memo-3"), their units listed
    by method 1: resumed while this gridcount lists by it, refused once it lists by
    another."""
    import counting.reduction.kind_band_tables as kbt
    from counting.job import Job
    info = Job.load(scattered, "kind-tables").info()
    with Store.create_or_open(here / "old.sqlite", type(info)(info.shape, info.reduction,
                                                                "dlx1-memo-3", info.n_units)):
        pass
    count_json(scattered, "--reduction", "kind-tables", "--db", "old.sqlite", "--units", "0-3")
    assert sorted(units_in(here / "old.sqlite")) == [0, 1, 2, 3]
    monkeypatch.setattr(kbt, "METHOD", kbt.LISTED_BEFORE_DIGESTS + 1)
    res = invoke("count", scattered, "--reduction", "kind-tables", "--db", "old.sqlite",
                 "--workers", 1)
    one_line_error(res, "none recorded in the store, whose engine 'dlx1-memo-3' says "
                        f"kind-tables method {kbt.LISTED_BEFORE_DIGESTS} listed them; this "
                        f"gridcount lists by method {kbt.LISTED_BEFORE_DIGESTS + 1})", 2)
    assert sorted(units_in(here / "old.sqlite")) == [0, 1, 2, 3]


def test_the_checked_export_of_the_centre_count_still_merges(here):
    # exported before stores recorded their units' digest: its units are method 1's
    export = REPO / "results" / "3x3+centre-rkind-tables-done.json"
    res = invoke("merge", "c.sqlite", export)
    assert res.exit_code == 0, res.output
    assert len(units_in(here / "c.sqlite")) == 79


def test_count_says_a_slow_listing_before_its_estimate_lists_the_units(here, tmp_path,
                                                                       monkeypatch):
    """With an empty cache, a 9x9 kind's job lists its band-1 orbits in the
    estimate, about 12 s of a core: said first, on a pipe too, before any is
    listed (here a 6x6 kind of this test alone, measured as slow, its
    listing stopped)."""
    # a house of no other test: no reduction of it is cached in this process
    (here / "slow.kind").write_text("house r2c2 r1c4 r4c1 r3c6 r5c3 r6c5\n")
    name = as_kind("2x3+@slow.kind").name
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(listing, "FILE", measured(tmp_path / "m.json",
                                                  (name, "kind-tables", 30)))

    def stopped(self):
        raise ValueError("listing stopped by the test")
    monkeypatch.setattr(KindBandTables, "orbits", property(stopped))
    res = invoke("count", "2x3+@slow.kind", "--reduction", "kind-tables", "--workers", 1)
    lines = res.stderr.strip().splitlines()
    assert res.exit_code != 0 and "listing stopped by the test" in lines[-1], res.output
    assert lines[:-1] == [f"listing the units of {name} (kind-tables) first: about 30 s of one "
                          f"core, as measured from an empty cache "
                          f"(results/listing-seconds.json) ..."]


def test_count_says_the_tables_are_made_first_until_they_are_in_this_machine_s_cache(
        here, tmp_path, monkeypatch):
    """With an empty cache, a 9x9 kind's job makes the other bands' tables in its
    estimate (about half a minute of a core, 152 MB): said first, on a pipe too, and
    no more once they are in the cache (here a 6x6 kind of this test alone, measured
    as slow; its tables first stopped, then made)."""
    # a house of no other test: no reduction of it is cached in this process
    (here / "tables.kind").write_text("house r1c1 r2c5 r3c3 r4c6 r5c2 r6c4\n")
    name = as_kind("2x3+@tables.kind").name
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(listing, "FILE", measured(tmp_path / "m.json"))    # listing: quick
    monkeypatch.setattr(listing, "TABLES_FILE", measured_tables(tmp_path / "t.json", (name, 40)))
    made = KindBandTables.build_tables
    tables = KindBandTables(name)
    assert tables.n_tables == 2             # this house: bands 1 and 3 read two tables
    said = (f"making the band tables of {name} first ({tables.n_tables} tables, "
            f"{tables.table_bytes:,} bytes, kept in this machine's cache): about "
            f"40 s of one core, as measured from an empty cache "
            f"(results/kind-tables-seconds.json) ...")

    def stopped(self):
        raise ValueError("tables stopped by the test")
    monkeypatch.setattr(KindBandTables, "build_tables", stopped)
    args = ("count", "2x3+@tables.kind", "--reduction", "kind-tables", "--workers", 1)
    res = invoke(*args)
    lines = res.stderr.strip().splitlines()
    assert res.exit_code != 0 and "tables stopped by the test" in lines[-1], res.output
    assert lines[:-1] == [said]
    monkeypatch.setattr(KindBandTables, "build_tables", made)
    res = invoke(*args)
    assert res.exit_code == 0 and res.stderr.splitlines()[0] == said, res.output
    res = invoke(*args, "--fresh")
    assert res.exit_code == 0 and "making the band tables" not in res.stderr, res.output
