"""Running units (counting/run/pool.py): in this process or in a process pool,
longest first, with the options reaching every worker; a killed or stopped
worker's unit counted again; memo tables that cannot fit refused."""
import mmap
import multiprocessing as mp
import os
import re
import signal
import time

import pytest

from counting.run import pool
from counting.reduction import get_reduction
from counting.options import CountOptions
from counting.run.pool import check_memory, run_units
from counting.run.stall import FLOOR_VARIABLE
from counting.units import UnitSpec
from dlx.api import MEMO_MB_MAX
from grids.sudoku import Sudoku
from orphans import kill_parent_while_workers_work

DEFAULT = CountOptions()


def test_pool_gives_the_same_counts_as_in_process():
    specs = get_reduction("3x3", "71").units()[:6]
    alone = {r.unit_id: r.count for r in run_units(specs, workers=1, options=DEFAULT)}
    pooled = {r.unit_id: r.count for r in run_units(specs, workers=2, options=DEFAULT)}
    assert alone == pooled and sorted(alone) == [s.unit_id for s in specs]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_options_reach_every_worker(workers):
    specs = get_reduction("2x3", "moves").units()
    memo = list(run_units(specs, workers=workers, options=DEFAULT))
    plain = list(run_units(specs, workers=workers, options=CountOptions(memo=False)))
    assert sorted((r.unit_id, r.count) for r in memo) == sorted((r.unit_id, r.count) for r in plain)
    assert all(r.memo_hits > 0 for r in memo)
    assert all(r.memo_hits == 0 for r in plain)


def test_units_are_handed_out_longest_estimate_first():
    # Three 4x4 units, known by construction: the fewer the givens, the
    # larger the search; ids run the other way, so no tie-break hides it.
    band = [(0, c, d) for c, d in enumerate((1, 2, 3, 4))]
    column = [(1, 0, 3), (2, 0, 2), (3, 0, 4)]
    specs = [UnitSpec("2x2", "moves", u, u, 0, 1, tuple(g))
             for u, g in enumerate([band + column, band, []])]
    got = [(r.unit_id, r.count) for r in run_units(specs, workers=1, options=DEFAULT)]
    sud = Sudoku(2, 2)
    assert got == [(2, sud.count("." * 16)), (1, sud.count("1234" + "." * 12)),
                   (0, sud.count("1234" "3..." "2..." "4..."))]


def test_no_units_count_nothing():
    assert list(run_units([], workers=2, options=DEFAULT)) == []



def test_a_killed_worker_s_unit_is_counted_again_and_yielded_once(fails_instead_of_hanging):
    specs = get_reduction("3x3", "71").units()[:8]
    reference = {r.unit_id: r.count for r in run_units(specs, workers=1, options=DEFAULT)}
    said = []
    results = run_units(specs, workers=2, options=DEFAULT, log=said.append)
    got = [next(results)]
    [victim, _] = mp.active_children()       # both busy: six units are still to come
    os.kill(victim.pid, signal.SIGKILL)
    got += list(results)
    assert sorted(r.unit_id for r in got) == sorted(reference)     # each unit once
    assert {r.unit_id: r.count for r in got} == reference
    [line] = said
    m = re.fullmatch(r"worker process (\d+) died \(signal 9, SIGKILL\) while counting unit "
                     r"(\d+); counting it again in a new worker \(attempt 2 of 3\)", line)
    assert m and int(m[1]) == victim.pid and int(m[2]) in reference


def _stop(pid: int) -> None:
    """SIGSTOP ``pid`` and return once it is stopped (a starved process
    takes the signal only when it next runs)."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "T":
                return
        time.sleep(0.01)
    pytest.fail(f"process {pid} did not stop within 60 s")


@pytest.mark.slow
def test_a_stopped_worker_s_unit_is_counted_again_after_the_stall_floor_and_yielded_once(
        monkeypatch, fails_instead_of_hanging):
    # the run used to sit at 8/9 for ever; the floor is 120 s for users
    monkeypatch.setenv(FLOOR_VARIABLE, "5")
    # ten units of about 0.15 s: the worker stopped a few ms after the first result
    # holds one (2x3's units of a few ms could all be done by then: a race CI lost)
    specs = get_reduction("2x4", "moves").units()[:10]
    reference = {r.unit_id: r.count for r in run_units(specs, workers=1, options=DEFAULT)}
    said = []
    results = run_units(specs, workers=2, options=DEFAULT, log=said.append)
    got = [next(results)]
    [victim, _] = mp.active_children()       # holds a unit, or gets one next
    _stop(victim.pid)
    try:
        got += list(results)
    finally:
        if victim.is_alive():
            os.kill(victim.pid, signal.SIGKILL)
    assert sorted(r.unit_id for r in got) == sorted(reference)     # each unit once
    assert {r.unit_id: r.count for r in got} == reference
    [line] = said
    m = re.fullmatch(r"worker process (\d+) gave no result for unit (\d+) in ([\d.]+) s \(its "
                     r"estimate: [\d.]+ s; the process was stopped\): taken for stalled and "
                     r"killed; counting it again in a new worker \(attempt 2 of 3\)", line)
    assert m and int(m[1]) == victim.pid and int(m[2]) in reference and float(m[3]) > 5
    # the stalled unit's one result came from another worker (the victim may have
    # finished other units between the first result and its stop: those are its own)
    [again] = [r for r in got if r.unit_id == int(m[2])]
    assert int(again.worker.rsplit(":", 1)[1]) != victim.pid


@pytest.mark.slow
def test_a_unit_that_stalls_every_worker_stops_the_run(monkeypatch, fails_instead_of_hanging):
    monkeypatch.setenv(FLOOR_VARIABLE, "3")
    monkeypatch.setattr(pool, "ATTEMPTS", 1)       # the first stall is the last
    specs = get_reduction("2x4", "moves").units()[:10]    # units of 0.15 s: see above
    results = run_units(specs, workers=2, options=DEFAULT)
    next(results)
    [victim, _] = mp.active_children()
    _stop(victim.pid)
    try:
        with pytest.raises(pool.WorkerLost, match=rf"^unit \d+ stalled or killed all 1 worker "
                           rf"processes that counted it \(the last, process {victim.pid}: no "
                           rf"result after [\d.]+ s, over its limit of [\d.]+ s; the process was "
                           rf"stopped \(SIGSTOP\)\); stopped workers, or an overloaded machine\?$"):
            list(results)
    finally:
        if victim.is_alive():
            os.kill(victim.pid, signal.SIGKILL)
    assert mp.active_children() == []


def test_a_stall_floor_that_is_no_number_of_seconds_is_refused_in_one_line(monkeypatch):
    monkeypatch.setenv(FLOOR_VARIABLE, "soon")
    specs = get_reduction("2x3", "moves").units()
    with pytest.raises(ValueError, match=r"^GRIDCOUNT_STALL_FLOOR='soon' is not a number of "
                                         r"seconds > 0$"):
        next(run_units(specs, workers=2, options=DEFAULT))
    assert mp.active_children() == []


def test_memo_tables_beyond_the_machine_s_memory_are_refused():
    check_memory(2, CountOptions(memo_mb=MEMO_MB_MAX / 3))
    check_memory(3, CountOptions(memo=False, memo_mb=MEMO_MB_MAX / 2))   # no table at all
    with pytest.raises(ValueError, match=r"^3 workers × .* MiB each \(.* MiB memo table \+ .* "
                                         r"MiB process\) = .* more than this machine's memory "
                                         r".*; use fewer workers or a smaller --memo-mb"):
        check_memory(3, CountOptions(memo_mb=MEMO_MB_MAX / 2))


def test_workers_without_memo_tables_are_still_checked_against_the_machine_s_memory(
        monkeypatch):
    # issue 26.11: --no-memo skipped the memory check, so any number of
    # processes started; each needs at least what this process holds
    monkeypatch.setattr(pool, "MEMO_MB_MAX", int(2.5 * pool.process_mib()))
    check_memory(2, CountOptions(memo=False))
    specs = get_reduction("2x3", "moves").units()
    with pytest.raises(ValueError, match=r"^3 workers × .* MiB each \(a process without memo "
                                         r"table: .* MiB\) = .* more than this machine's "
                                         r"memory .*; use fewer workers$"):
        next(run_units(specs, workers=3, options=CountOptions(memo=False)))
    assert mp.active_children() == []


def test_a_pool_whose_memo_tables_cannot_fit_never_starts(monkeypatch):
    monkeypatch.setattr(pool, "MEMO_MB_MAX", int(pool.process_mib()) + 100)
    specs = get_reduction("2x3", "moves").units()   # were the check gone: small tables
    with pytest.raises(ValueError, match=r"3 workers × .* \(40 MiB memo table .* more than "
                                         r"this machine's memory"):
        next(run_units(specs, workers=3, options=CountOptions(memo_mb=40)))
    assert mp.active_children() == []


SYMMETRY_PARENT = '''
import functools, os
import counting.run.counter


def _for_ever(count_unit):
    """count_unit saying that its worker is inside a unit, then counting
    the unit again and again: it never ends by itself, on a machine of any speed."""
    @functools.wraps(count_unit)
    def counts_for_ever(spec, *args, **kwargs):
        busy = os.path.join(os.environ["GRIDCOUNT_TEST_BUSY"], f"busy-{os.getpid()}")
        open(busy, "w").close()
        while True:
            count_unit(spec, *args, **kwargs)
    return counts_for_ever


if __name__ in ("__main__", "__mp_main__"):      # the parent, and each spawned worker
    counting.run.counter.count_unit = _for_ever(counting.run.counter.count_unit)

if __name__ == "__main__":
    from counting.options import CountOptions
    from counting.reduction import get_reduction
    from counting.run.pool import run_units
    units = get_reduction("1x9", "symmetry").units()
    specs = [units[7], units[2]]     # unit 7: about a CPU-minute, whatever its prefix
    for _ in run_units(specs, workers=2, options=CountOptions()):
        pass
'''


@pytest.mark.slow
def test_workers_on_symmetry_units_end_when_their_parent_is_killed(tmp_path):
    """Issue 38 item 9: killed with SIGKILL, ``count 2x4 --up-to-symmetry``
    left its workers counting for 30-60 s at full CPU (the workers of short
    units went within 5 s, when their unit ended): the one watch of
    :mod:`dlx.pools` ends a worker in the middle of any unit.  Each worker
    here counts its unit over and over, so only the watch can end it."""
    workers, left = kill_parent_while_workers_work(SYMMETRY_PARENT, tmp_path)
    assert len(workers) == 2 and left == []


def test_tables_shared_by_the_workers_are_counted_once(monkeypatch):
    monkeypatch.setattr(pool, "MEMO_MB_MAX", int(4 * pool.process_mib()) + 2_000)
    check_memory(4, CountOptions(memo=False), 0, shared_mib=1_000)      # once, not 4 times
    with pytest.raises(ValueError, match=r"^4 workers × .* MiB each \(a process without memo "
                                         r"table: .* MiB\) \+ 3,000 MiB of tables shared by "
                                         r"them = .* more than this machine's memory"):
        check_memory(4, CountOptions(memo=False), 0, shared_mib=3_000)


MAPPED_MIB = 64


def mapped_and_read(path) -> tuple[float, float]:
    """process_mib() before and after mapping a file of MAPPED_MIB MiB
    read-only and reading a byte of each of its pages (all then resident)."""
    path.write_bytes(b"\1" * (MAPPED_MIB << 20))
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        before = pool.process_mib()
        assert sum(m[i] for i in range(0, len(m), mmap.PAGESIZE)) == len(m) // mmap.PAGESIZE
        return before, pool.process_mib()


def test_a_process_s_memory_leaves_out_the_tables_it_has_mapped(tmp_path):
    """check_memory counts the tables mapped from the machine's cache once
    (shared_mib); a process that had read them (listing a 3x3+centre job's
    units from them) counted their 145 MiB again in each worker's size."""
    before, after = mapped_and_read(tmp_path / "table")
    assert after - before < MAPPED_MIB / 4
    # The process's own memory is still counted.  Its pages come straight from
    # the kernel (a private anonymous mapping): a bytearray may reuse heap
    # pages freed by earlier tests, already resident and counted, and then
    # adds nothing (CI of e3c6938: 931.1 MiB before and after).
    with mmap.mmap(-1, MAPPED_MIB << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS) as block:
        held = pool.process_mib()
        for i in range(0, len(block), mmap.PAGESIZE):
            block[i] = 1
        assert pool.process_mib() - held > MAPPED_MIB * 3 / 4


def test_without_rss_anon_the_resident_set_less_its_shared_pages_is_counted(tmp_path,
                                                                            monkeypatch):
    real_open = open

    def older_kernel(path, *args, **kwargs):      # /proc/self/status without RssAnon
        if path == "/proc/self/status":
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", older_kernel)
    before, after = mapped_and_read(tmp_path / "table")
    assert 0 < before and after - before < MAPPED_MIB / 4


def test_a_pool_counts_the_tables_its_reduction_shares_before_it_starts(monkeypatch):
    from counting.reduction.kind_band_tables import KindBandTableReduction
    monkeypatch.setattr(KindBandTableReduction, "shared_memory_mib",
                        lambda self, options: float(pool.MEMO_MB_MAX))
    specs = get_reduction("2x3", "kind-tables").units()
    with pytest.raises(ValueError, match=r"MiB of tables shared by them = "):
        next(run_units(specs, workers=2, options=CountOptions(memo=False)))
    assert mp.active_children() == []
