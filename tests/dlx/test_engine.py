"""Engine internals (``dlx._engine``) that the example and property tests do
not cover: what the statistics count, memo bookkeeping (also under forced
hash collisions), interrupts, 128-bit counts, the links after solve_batch,
and the flat branching rule."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from dlx import ExactCover
from grids.sudoku import Sudoku

BENCH_UNIT = "123456789456789123789123456" + "".join(d + "." * 8 for d in "258369")


def _same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def test_statistics_are_reported_after_each_run():
    s = Sudoku(2, 2)
    ec = s.exact_cover()
    assert ec.count() == 288
    st = ec.stats
    assert st.solutions == 288 and st.nodes > 288 and 0 < st.seconds < 60
    assert st.memo_lookups == st.memo_hits == 0
    ec.count(given=s.givens("1234" "3412" "...." "...."))
    assert ec.stats.solutions == 4


def test_dead_ends_are_counted():
    # column 2 can only be covered by a row that clashes with every cover of 0
    ec = ExactCover([[0, 1], [0, 2], [1, 2]], n_primary=3)
    assert ec.count() == 0
    # the root branches on column 0; rows 0 and 1 each leave a column with
    # no row: three nodes, two of them dead ends
    assert (ec.stats.nodes, ec.stats.dead_ends) == (3, 2)


def test_memo_statistics_and_table_budget():
    s = Sudoku(2, 3)
    ec = s.exact_cover(priority="rows")
    n = ec.count(given=s.givens("123456" + "." * 30), memo=True, memo_mb=1)
    st = ec.stats
    assert n == 39_168
    assert st.memo_lookups > st.memo_hits > 0
    assert 0 < st.memo_entries and st.memo_bytes <= 2**20


def test_memo_table_reused_between_counts_stays_exact():
    s = Sudoku(2, 3)
    ec = s.exact_cover(priority="rows")
    plain = [ec.count(given=s.givens(r + "." * 30)) for r in ("123456", "123465", "214365")]
    memo = [ec.count(given=s.givens(r + "." * 30), memo=True, memo_mb=0.05)
            for r in ("123456", "123465", "214365")]
    assert memo == plain


def _random_partial_grids(sud, n_grids, density, seed):
    """Givens of random valid grids with each cell kept with probability
    ``density`` (a relabelled solution of the empty grid)."""
    rng = np.random.default_rng(seed)
    solved = sud.solve(np.zeros((sud.n, sud.n), dtype=np.int64))
    out = []
    for _ in range(n_grids):
        grid = (rng.permutation(sud.n) + 1)[solved - 1]
        keep = rng.random((sud.n, sud.n)) < density
        out.append([sud.row_index(r, c, int(grid[r, c]))
                    for r in range(sud.n) for c in range(sud.n) if keep[r, c]])
    return out


@pytest.mark.parametrize("shape, density", [("2x2", 0.0), ("1x4", 0.0), ("2x3", 0.2),
                                            ("3x3", 0.35)])
def test_memo_counts_stay_exact_when_every_hash_collides(shape, density):
    """With every Zobrist word 0 all keys share one bucket and one hash, so
    only the full comparison of keys tells states apart: a lookup that
    trusted the hash would return another state's count."""
    sud = Sudoku.from_shape(shape)
    ec = sud.exact_cover(priority="rows")
    ec.collide_hashes()
    problems = [[]] if density == 0.0 else _random_partial_grids(sud, 6, density, seed=5)
    hits = 0
    for given in problems:
        plain = ec.count(given=given)
        for memo_at in ("class", "all"):
            assert ec.count(given=given, memo=True, memo_at=memo_at) == plain, (given, memo_at)
            hits += ec.stats.memo_hits
            assert ec.count(given=given, memo=True, memo_at=memo_at, tail=True) == plain
            hits += ec.stats.memo_hits
    assert hits > 0         # the colliding table was used, not bypassed


def test_counts_beyond_64_bits_are_exact():
    # 70 independent columns, each coverable by 2 rows: 2**70 covers
    rows = [[c] for c in range(70) for _ in range(2)]
    ec = ExactCover(rows, n_primary=70)
    assert ec.count(memo=True, memo_at="all") == 2**70


def test_links_are_restored_after_every_kind_of_search():
    s = Sudoku(2, 2)
    ec = s.exact_cover(priority="rows")
    before = ec.links_snapshot()
    ec.count()
    ec.count(memo=True)
    ec.count(limit=5)
    it = ec.solutions()
    next(it)
    it.close()
    ec.first(given=s.givens("12.." * 1 + "." * 12))
    assert _same(before, ec.links_snapshot())
    ec.check_invariants()


# The CPU time the main thread spends in a search before it is interrupted:
# the search has begun then (on a machine of any speed or load, where a timer
# of wall-clock time can fire before it begins), and is far from its end.
SEARCHING_CPU_SECONDS = 0.2


def _interrupt_the_search(begun: threading.Event, done: threading.Event) -> threading.Thread:
    """A thread that sends this process SIGINT once the main thread has used
    :data:`SEARCHING_CPU_SECONDS` of CPU time after ``begun`` is set (just
    before a search of minutes), unless ``done`` is set first."""
    clock = time.pthread_getcpuclockid(threading.main_thread().ident)

    def watch():
        begun.wait()
        start = time.clock_gettime(clock)
        while time.clock_gettime(clock) - start < SEARCHING_CPU_SECONDS:
            if done.wait(0.01):
                return
        os.kill(os.getpid(), signal.SIGINT)
    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_ctrl_c_interrupts_a_long_count_and_leaves_the_object_usable():
    s = Sudoku(3, 3)
    ec = s.exact_cover()
    before = ec.links_snapshot()
    given = s.givens(BENCH_UNIT[:27] + "." * 54)       # ~1.5e9 solutions: minutes
    begun, done = threading.Event(), threading.Event()
    watch = _interrupt_the_search(begun, done)
    try:
        with pytest.raises(KeyboardInterrupt):
            begun.set()
            ec.count(given=given)
    finally:
        done.set()
        watch.join()
    assert _same(before, ec.links_snapshot())
    ec.check_invariants()
    assert s.exact_cover().count(given=s.givens("1234" + "." * 77), limit=3) == 3
    assert ec.count(given=s.givens(BENCH_UNIT[:77] + "...."), limit=2) == 2


class _Alarm(Exception):
    pass


@pytest.mark.slow
def test_a_memo_count_after_an_interrupted_memo_count_is_exact():
    # Unwinding an interrupted search must clear the memo points still
    # awaiting their store (memo_pending): left set, the next count stores
    # a stale level's total and, with memo_at="all", fails or miscounts.
    s = Sudoku(3, 3)
    ec = s.exact_cover(priority="rows")
    unit = s.givens(BENCH_UNIT[:27] + "." * 54)

    def ring(signum, frame):
        raise _Alarm()
    old = signal.signal(signal.SIGALRM, ring)
    try:
        for delay in (0.05, 0.2, 0.4):
            signal.setitimer(signal.ITIMER_REAL, delay)
            try:
                ec.count(given=unit, memo=True, memo_at="all")
            except _Alarm:
                pass
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            ec.check_invariants()
            small = s.givens(BENCH_UNIT[:63] + "." * 18)
            fresh = s.exact_cover(priority="rows")
            assert ec.count(given=small, memo=True, memo_at="all") == \
                fresh.count(given=small, memo=True, memo_at="all")
    finally:
        signal.signal(signal.SIGALRM, old)


def test_sigint_ends_a_count_promptly_in_a_subprocess():
    # the child says "searching" once its main thread has spent some CPU time
    # in the search: the signal then lands in it, on a machine of any speed
    code = textwrap.dedent(f"""
        import sys, threading, time
        from grids.sudoku import Sudoku
        s = Sudoku(3, 3)
        ec, given = s.exact_cover(), s.givens({BENCH_UNIT[:27] + "." * 54!r})
        clock = time.pthread_getcpuclockid(threading.main_thread().ident)

        def say_when_searching(start):
            while time.clock_gettime(clock) - start < {SEARCHING_CPU_SECONDS}:
                time.sleep(0.01)
            print("searching", flush=True)
        threading.Thread(target=say_when_searching, args=(time.clock_gettime(clock),),
                         daemon=True).start()
        try:
            ec.count(given=given)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "searching"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3 and "interrupted" in out


@pytest.mark.parametrize("box", [(2, 2), (3, 3)])
def test_solve_batch_leaves_the_matrix_pristine(box):
    """solve_batch undoes each problem by copying the saved links back when
    many items are covered (a solution of any size here, or 17 givens), and
    by uncovering when few are (a search over 1-2 givens run to exhaustion
    on 4x4); either way the matrix is pristine and every answer is that of
    the one-at-a-time search."""
    from puzzle_samples import TWO, UNSOLVABLE, WIKI
    s = Sudoku(*box)
    ec = s.exact_cover()
    before = ec.links_snapshot()
    clash = [s.row_index(0, 0, 1), s.row_index(0, 1, 1)]
    if box == (3, 3):
        problems = [s.givens(WIKI), s.givens(TWO), [], s.givens(UNSOLVABLE),
                    s.givens(WIKI)[:2], clash, s.givens(WIKI)]
        limits = (1, 2)
    else:
        problems = [s.givens("1..." "..1." "...." "...."), [], s.givens("12.." + "." * 12),
                    clash, s.givens("1234" "3412" "...." "....")]
        limits = (1, 2, 1000)
    for limit in limits:
        for _ in range(2):          # the second batch reuses the saved copy
            counts, rows = ec.solve_batch(problems, limit=limit)
            ec.check_invariants()
            after = ec.links_snapshot()
            assert _same(before, after) and len(before) == len(after)
            for k, given in enumerate(problems):
                if given is clash:
                    assert counts[k] == -1 and (rows[k] == -1).all()
                    continue
                assert counts[k] == ec.count(given=given, limit=limit)
                first = ec.first(given=given)
                got = rows[k][rows[k] >= 0]
                assert (first is None and counts[k] == 0 and got.size == 0) or \
                    sorted(got.tolist()) == sorted(first)
    # the other entry points still see the pristine matrix
    assert ec.count(given=problems[-1]) == (1 if box == (3, 3) else 4)
    assert ec.count(limit=5) == 5
    ec.check_invariants()


def _reference_first(rows, n_primary):
    """Algorithm X on sets with the engine's branching rule (the leftmost
    primary item of fewest live options, the scan stopping at one or none;
    options tried in row order): (first solution, search nodes entered)."""
    nodes = 0

    def search(uncovered, alive):
        nonlocal nodes
        nodes += 1
        best, best_len = None, None
        for c in range(n_primary):
            if c in uncovered:
                n = sum(1 for r in alive if c in rows[r])
                if best is None or n < best_len:
                    best, best_len = c, n
                if best_len <= 1:
                    break
        if best is None:
            return []
        for r in sorted(r for r in alive if best in rows[r]):
            rest = search(uncovered - set(rows[r]),
                          {s for s in alive if not set(rows[s]) & set(rows[r])})
            if rest is not None:
                return [r] + rest
        return None

    sol = search(set(range(n_primary)), set(range(len(rows))))
    return (None if sol is None else sorted(sol)), nodes


def test_flat_choice_follows_the_rule_across_scan_blocks():
    """_choose_flat scans LENs 16 items at a time; problems of 1-70 primary
    items (partial and whole blocks) branch exactly as the rule says."""
    rng = np.random.default_rng(11)
    for _ in range(150):
        n_primary = int(rng.integers(1, 71))
        n_secondary = int(rng.integers(0, 4))
        n_cols = n_primary + n_secondary
        rows = [sorted(set(rng.integers(0, n_cols, size=int(rng.integers(1, 4))).tolist()))
                for _ in range(int(rng.integers(1, 3 * n_primary + 2)))]
        # a planted solution (singletons), so deep searches are common
        rows += [[c] for c in range(n_primary) if rng.random() < 0.5]
        rows = [r for r in rows if r[0] < n_primary]   # every row needs a primary column
        ec = ExactCover(rows, n_primary=n_primary, n_secondary=n_secondary)
        want, nodes = _reference_first(rows, n_primary)
        assert ec.first() == want
        assert ec.stats.nodes == nodes
