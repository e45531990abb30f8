"""The public API, ``dlx.api``: bad input raises a ValueError that says what
is wrong, never crashes the interpreter, and leaves a usable object behind;
limits have stated bounds; statistics describe the last search; one object
is used by one thread at a time."""

import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
from problems import knuth_example, n_queens, to_csr

import dlx
from dlx import ConflictingGivensError, ExactCover, SearchStats
from dlx.api import BATCH_LIMIT_MAX, COUNT_LIMIT_MAX
from grids.sudoku import Sudoku

KNUTH_ROWS = [[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]]


def _run_child(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a child interpreter (this checkout's dlx), so that a
    crash fails the calling test instead of killing the test session."""
    root = Path(dlx.__file__).resolve().parents[1]
    return subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=root,
                          capture_output=True, text=True, timeout=300)


def _assert_survived(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0 and "survived" in proc.stdout, (
        f"child exited with {proc.returncode}\nstdout:\n{proc.stdout}\n"
        f"stderr:\n{proc.stderr}")

# --------------------------------------------------------------------------
# Construction from row lists
# --------------------------------------------------------------------------

BAD_ROWS = {
    # id: (rows, n_primary, n_secondary, message pattern)
    "column_too_large": ([[0, 1], [2, 3]], 3, 0, r"(?i)column"),
    "column_too_large_secondary": ([[0, 1], [2, 4]], 2, 2, r"(?i)column"),
    "column_negative": ([[0, 1], [2, -1]], 3, 0, r"(?i)column"),
    "column_huge": ([[0, 1], [2, 2**70]], 3, 0, r"(?i)column"),
    "empty_row": ([[0, 1], [], [2]], 3, 0, r"(?i)empty"),
    "repeated_column": ([[0, 1], [2, 1, 2]], 3, 0, r"(?i)repeat|duplicate"),
    "float_column": ([[0, 1], [2, 1.5]], 3, 0, r"(?i)integer"),
    "string_column": ([[0, 1], [2, "1"]], 3, 0, r"(?i)integer"),
    "none_column": ([[0, 1], [2, None]], 3, 0, r"(?i)integer"),
    "negative_n_primary": ([[0]], -1, 0, r"(?i)n_primary|negative"),
    "negative_n_secondary": ([[0]], 1, -1, r"(?i)n_secondary|negative"),
    "float_n_primary": ([[0]], 1.5, 0, r"(?i)n_primary|integer"),
}


@pytest.mark.parametrize("case", list(BAD_ROWS))
def test_bad_rows_raise_value_error(case):
    rows, n_primary, n_secondary, pattern = BAD_ROWS[case]
    with pytest.raises(ValueError, match=pattern):
        ExactCover(rows, n_primary, n_secondary)


def test_error_message_names_the_offending_row():
    with pytest.raises(ValueError, match=r"\b7\b"):
        ExactCover([[0]] * 7 + [[0, 5]], 3)


@pytest.mark.parametrize("length_delta", [-1, 1])
def test_priority_of_wrong_length(length_delta):
    rows, n_primary, _ = knuth_example()
    with pytest.raises(ValueError, match=r"(?i)priority"):
        ExactCover(rows, n_primary, priority=[0] * (n_primary + length_delta))


def test_priority_must_cover_secondary_columns_too():
    # "one per column": n_columns entries, not n_primary
    rows, n_primary, n_secondary = n_queens(4)
    with pytest.raises(ValueError, match=r"(?i)priority"):
        ExactCover(rows, n_primary, n_secondary, priority=[0] * n_primary)


@pytest.mark.parametrize("bad", [1.5, "0", None])
def test_priority_must_be_integers(bad):
    rows, n_primary, _ = knuth_example()
    with pytest.raises(ValueError, match=r"(?i)priority|integer"):
        ExactCover(rows, n_primary, priority=[0] * (n_primary - 1) + [bad])


# --------------------------------------------------------------------------
# Construction from CSR arrays
# --------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["column_too_large", "column_negative", "repeated_column"])
def test_bad_csr_raises_value_error(case):
    rows, n_primary, n_secondary, pattern = BAD_ROWS[case]
    indptr, indices = to_csr(rows)
    with pytest.raises(ValueError, match=pattern):
        ExactCover.from_csr(indptr, indices, n_primary, n_secondary)


def test_csr_empty_row():
    indptr = np.array([0, 2, 2, 3], dtype=np.intp)
    indices = np.array([0, 1, 2], dtype=np.intp)
    with pytest.raises(ValueError, match=r"(?i)empty"):
        ExactCover.from_csr(indptr, indices, 3)


def test_csr_float_indices():
    indptr = np.array([0, 2, 3], dtype=np.intp)
    indices = np.array([0, 1.5, 2])
    with pytest.raises(ValueError, match=r"(?i)integer"):
        ExactCover.from_csr(indptr, indices, 3)


@pytest.mark.parametrize(
    "indptr",
    [
        [0, 2, 1, 3],  # decreasing
        [0, 2, 4],  # runs past the end of indices
        [1, 2, 3],  # does not start at 0
    ],
)
def test_csr_malformed_indptr(indptr):
    indices = np.array([0, 1, 2], dtype=np.intp)
    with pytest.raises(ValueError):
        ExactCover.from_csr(np.array(indptr, dtype=np.intp), indices, 3)


# --------------------------------------------------------------------------
# Search arguments
# --------------------------------------------------------------------------


@pytest.fixture
def knuth():
    return ExactCover(*knuth_example()[:2])


def _searches(ec, **kwargs):
    """The three entry points with the same arguments (solutions consumed)."""
    return [
        lambda: ec.count(**kwargs),
        lambda: list(ec.solutions(**kwargs)),
        lambda: ec.first(**kwargs),
    ]


@pytest.mark.parametrize("given", [[6], [1, 6], [-1], [10**20]])
def test_given_row_out_of_range(knuth, given):
    for search in _searches(knuth, given=given):
        with pytest.raises(ValueError, match=r"(?i)given|row|range"):
            search()


@pytest.mark.parametrize("given", [[1.5], ["1"], [None]])
def test_given_must_be_integers(knuth, given):
    for search in _searches(knuth, given=given):
        with pytest.raises((ValueError, TypeError)):
            search()


@pytest.mark.parametrize("pair", [(3, 4), (4, 3), (0, 1)])
def test_conflicting_givens(knuth, pair):
    a, b = pair
    assert issubclass(ConflictingGivensError, ValueError)
    for search in _searches(knuth, given=list(pair)):
        with pytest.raises(ConflictingGivensError) as info:
            search()
        message = str(info.value)
        assert re.search(rf"\b{a}\b", message) and re.search(rf"\b{b}\b", message), message


def test_conflicting_givens_among_compatible_ones(knuth):
    # rows 1 (B) and 3 (D) are compatible; 4 (E) clashes with D
    with pytest.raises(ConflictingGivensError, match=r"\b4\b"):
        knuth.count(given=[1, 3, 4])


def test_memo_with_limit(knuth):
    with pytest.raises(ValueError, match=r"(?i)memo|limit"):
        knuth.count(memo=True, limit=3)


def test_bad_memo_at(knuth):
    with pytest.raises(ValueError, match=r"(?i)memo_at"):
        knuth.count(memo=True, memo_at="sometimes")


# --------------------------------------------------------------------------
# The object stays usable after an error
# --------------------------------------------------------------------------

FAILING_CALLS = {
    "given_out_of_range": lambda ec: ec.count(given=[1, 6]),
    "given_negative": lambda ec: ec.count(given=[-1]),
    "given_conflict": lambda ec: ec.count(given=[1, 3, 4]),
    "given_conflict_solutions": lambda ec: list(ec.solutions(given=[3, 4])),
    "given_conflict_first": lambda ec: ec.first(given=[1, 0]),
    "memo_with_limit": lambda ec: ec.count(memo=True, limit=1),
    "bad_memo_at": lambda ec: ec.count(memo=True, memo_at="sometimes"),
}


@pytest.mark.parametrize("call", list(FAILING_CALLS))
def test_usable_after_error(knuth, call):
    before = knuth.links_snapshot()
    with pytest.raises(ValueError):
        FAILING_CALLS[call](knuth)
    knuth.check_invariants()
    after = knuth.links_snapshot()
    assert len(before) == len(after)
    for x, y in zip(before, after):
        assert np.array_equal(np.asarray(x), np.asarray(y))
    assert knuth.count() == 1
    assert list(knuth.solutions()) == [[1, 3, 5]]
    assert knuth.first(given=[5]) == [1, 3, 5]


def test_failed_construction_does_not_affect_other_objects(knuth):
    with pytest.raises(ValueError):
        ExactCover([[0, 99]], 7)
    assert knuth.count() == 1
    assert ExactCover(*knuth_example()[:2]).count() == 1


# --------------------------------------------------------------------------
# No bad input crashes the interpreter
# --------------------------------------------------------------------------

CRASH_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from dlx import ExactCover

    odd = []  # (call, exception type) for exceptions other than ValueError, TypeError

    def attempt(label, fn):
        try:
            fn()
        except (ValueError, TypeError):
            pass
        except Exception as exc:
            odd.append((label, type(exc).__name__))

    bad_constructions = [
        ([[0, 3]], 3, 0), ([[0, -1]], 3, 0), ([[0, -(2**70)]], 3, 0), ([[0, 2**70]], 3, 0),
        ([[]], 3, 0), ([[0, 0]], 3, 0), ([[1.5]], 3, 0), ([["a"]], 3, 0), ([[None]], 3, 0),
        ([[0]], -1, 0), ([[0]], 1, -1), ([[0]], 2**70, 0), ([[0]], None, 0),
        ([0, 1], 2, 0), (None, 2, 0), ([[0], 5], 2, 0),
    ]
    for args in bad_constructions:
        attempt(repr(args), lambda: ExactCover(*args))
    ec = ExactCover([[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]], 7)
    givens = [[6], [-1], [2**70], [-(2**70)], [3, 4], [1, 1], [1.5], None]
    for g in givens:
        attempt(f"count(given={g})", lambda: ec.count(given=g))
        attempt(f"solutions(given={g})", lambda: list(ec.solutions(given=g)))
        attempt(f"first(given={g})", lambda: ec.first(given=g))
    for limit in (-1, 0, 1.5):
        attempt(f"count(limit={limit})", lambda: ec.count(limit=limit))
        attempt(f"solutions(limit={limit})", lambda: list(ec.solutions(limit=limit)))
    for kwargs in [dict(limit=1), dict(memo_mb=0), dict(memo_mb=-5), dict(memo_mb=2**70)]:
        attempt(f"count(memo=True, **{kwargs})", lambda: ec.count(memo=True, **kwargs))
    for limit in (2**128, 2**200, -(2**70)):
        attempt(f"count(limit={limit})", lambda: ec.count(limit=limit))
    for limit in (0, -1, 2**31, 2**63, 2**200, 1.5):
        attempt(f"solve_batch(limit={limit})", lambda: ec.solve_batch([[1]], limit=limit))
    for batch in ([[1] * 20], [[6]], [[-1]], [[2**70]], [[1.5]], [None], None, 5, "ab",
                  (np.array([0, 1]), np.array([9])), (np.array([0, 3]), np.array([1, 1, 1])),
                  (np.array([0, 2, 1]), np.array([1, 3])), (np.array([[0, 1]]), np.array([1]))):
        attempt(f"solve_batch({batch!r})", lambda: ec.solve_batch(batch))
    for width in (-1, 2**40, 1.5):
        attempt(f"solve_batch(width={width})", lambda: ec.solve_batch([[1]], width=width))
    indices = np.array([0, 1, 2], dtype=np.intp)
    for indptr in ([0, 2, 1, 3], [0, 2, 40], [1, 2, 3], [0, -5, 3], [[0, 1], [2, 3]]):
        attempt(f"from_csr({indptr})", lambda: ExactCover.from_csr(np.array(indptr), indices, 3))
    ec.check_invariants()
    assert ec.count() == 1, ec.count()
    assert not odd, odd
    print("survived")
    """
)


def test_bad_input_never_crashes_the_interpreter():
    """Every bad call in a child process: a segfault or abort fails this test
    instead of killing the test session, and so does any exception but
    ValueError or TypeError (which one each call raises is checked by the
    tests above)."""
    _assert_survived(_run_child(CRASH_SCRIPT))


def test_out_of_range_numbers_are_value_errors_with_clear_messages():
    import numpy as np
    with pytest.raises(ValueError, match="32 bits"):
        ExactCover([[0]], 1, priority=[2**70])
    with pytest.raises(ValueError, match="64 bits"):
        ExactCover.from_csr(np.array([0, 1], dtype=np.uint64),
                            np.array([2**63 + 5], dtype=np.uint64), 3)
    ec = ExactCover([[0]], 1)
    with pytest.raises(ValueError, match="memo size must be a number of MiB"):
        ec.count(memo=True, memo_mb=2**70)
    assert ec.count() == 1


# --------------------------------------------------------------------------
# Limits have stated bounds
# --------------------------------------------------------------------------


def test_the_limit_bounds_are_the_engines_counter_widths():
    assert COUNT_LIMIT_MAX == 2**128 - 1
    assert BATCH_LIMIT_MAX == np.iinfo(np.int32).max


@pytest.mark.parametrize("limit", [0, -1, COUNT_LIMIT_MAX + 1, 2**200])
def test_count_limit_outside_its_bounds_is_a_value_error(knuth, limit):
    with pytest.raises(ValueError, match=r"limit must be in 1\.\.2\*\*128 - 1, got "):
        knuth.count(limit=limit)
    assert knuth.count() == 1


def test_count_limit_at_its_bound_is_accepted(knuth):
    assert knuth.count(limit=COUNT_LIMIT_MAX) == 1


@pytest.mark.parametrize("limit", [0, -1, BATCH_LIMIT_MAX + 1, 2**63])
def test_solve_batch_limit_outside_its_bounds_is_a_value_error(knuth, limit):
    with pytest.raises(ValueError, match=rf"limit must be in 1\.\.{BATCH_LIMIT_MAX:,}, got "):
        knuth.solve_batch([[1]], limit=limit)


def test_solve_batch_limit_at_its_bound_is_accepted(knuth):
    counts, rows = knuth.solve_batch([[], [0]], limit=BATCH_LIMIT_MAX)
    assert counts.tolist() == [1, 0]
    assert sorted(rows[0][rows[0] >= 0].tolist()) == [1, 3, 5]


# --------------------------------------------------------------------------
# solve_batch checks every problem as count() checks its givens
# --------------------------------------------------------------------------


def test_solve_batch_names_the_problem_with_a_repeated_row(knuth):
    with pytest.raises(ValueError, match=r"problem 2: given row 3 is listed twice"):
        knuth.solve_batch([[1], [3, 5], [1, 3, 5, 3]])
    # a row repeated across problems is no repeat
    counts, _ = knuth.solve_batch([[1], [1], [1, 3]])
    assert counts.tolist() == [1, 1, 1]


def test_solve_batch_in_csr_form_names_the_problem_with_a_repeated_row(knuth):
    indptr, indices = np.array([0, 1, 3]), np.array([5, 0, 0])
    with pytest.raises(ValueError, match=r"problem 1: given row 0 is listed twice"):
        knuth.solve_batch((indptr, indices))


def test_solve_batch_reports_conflicting_distinct_rows_as_minus_one(knuth):
    counts, rows = knuth.solve_batch([[3, 4], [1]])
    assert counts.tolist() == [-1, 1]
    assert (rows[0] == -1).all()


@pytest.mark.parametrize("indptr", [[0, 2, 1, 3], [0, 2, 4], [1, 2, 3], [[0, 3]]])
def test_solve_batch_and_from_csr_check_indptr_alike(knuth, indptr):
    indices = np.array([0, 1, 2])
    with pytest.raises(ValueError, match="indptr") as batch_error:
        knuth.solve_batch((np.array(indptr), indices))
    with pytest.raises(ValueError, match="indptr") as csr_error:
        ExactCover.from_csr(np.array(indptr), indices, 3)
    assert str(batch_error.value) == str(csr_error.value)


@pytest.mark.parametrize("batch", [[[1], [6]], [[1], [-1]], [[1], [3, 2**70]],
                                   (np.array([0, 1, 2]), np.array([1, 2**62]))])
def test_solve_batch_names_the_problem_with_a_row_out_of_range(knuth, batch):
    with pytest.raises(ValueError, match=r"problem 1: given row -?\d+ is out of range 0\.\.5"):
        knuth.solve_batch(batch)


@pytest.mark.parametrize("width", [-1, 8, 2**40])
def test_solve_batch_width_outside_its_bounds_is_a_value_error(knuth, width):
    with pytest.raises(ValueError, match=rf"width must be in 0\.\.7, got {width}"):
        knuth.solve_batch([[1]], width=width)


@pytest.mark.parametrize("batch", ["[[1] * 20]",
                                   "(np.array([0, 10**6]), np.ones(10**6, dtype=np.int64))"])
def test_repeated_given_rows_in_a_batch_do_not_crash_the_interpreter(batch):
    # Once a heap overflow: 20 copies of one row ran past the engine's
    # array of given rows (abort), a million copies in CSR form segfaulted.
    proc = _run_child(textwrap.dedent(f"""
        import numpy as np
        from dlx import ExactCover
        ec = ExactCover({KNUTH_ROWS!r}, 7)
        try:
            ec.solve_batch({batch})
        except ValueError as e:
            print(e)
        print(ec.solve_batch([[1]])[0].tolist())
        print("survived")
    """))
    _assert_survived(proc)
    assert proc.stdout.splitlines()[:2] == ["problem 0: given row 1 is listed twice", "[1]"]


# --------------------------------------------------------------------------
# Statistics describe the last search
# --------------------------------------------------------------------------


def test_stats_after_count():
    queens8 = ExactCover(*n_queens(8))
    assert queens8.stats == SearchStats()    # nothing searched yet
    queens8.count()
    st = queens8.stats
    assert st.solutions == 92
    assert st.nodes > 92 and 0 < st.dead_ends < st.nodes
    assert st.updates > st.nodes
    assert 0 < st.seconds < 60
    assert all(type(getattr(st, name)) is int for name in
               ("nodes", "solutions", "dead_ends", "updates", "memo_lookups", "memo_hits",
                "memo_stores", "memo_entries", "memo_bytes", "tail_calls", "tail_steps"))
    assert (st.memo_lookups, st.memo_hits, st.memo_stores, st.memo_entries,
            st.memo_bytes, st.tail_calls) == (0, 0, 0, 0, 0, 0)
    assert st.as_dict()["solutions"] == 92


def test_stats_describe_the_latest_run(knuth):
    knuth.count()
    assert knuth.stats.solutions == 1
    knuth.count(given=[0])
    assert knuth.stats.solutions == 0


def test_stats_after_solve_batch_describe_the_batch():
    s = Sudoku(2, 2)
    ec = s.exact_cover(priority="rows")
    ec.count(memo=True, tail=True)
    assert ec.stats.memo_lookups > 0 and ec.stats.tail_calls > 0
    counts, _ = ec.solve_batch([s.givens("1234" "3412" "...." "...."), [],
                                [s.row_index(0, 0, 1), s.row_index(0, 1, 1)]], limit=1000)
    assert counts.tolist() == [4, 288, -1]
    st = ec.stats
    assert st.solutions == 292 and st.nodes > 292
    assert (st.memo_lookups, st.memo_hits, st.memo_stores, st.tail_calls) == (0, 0, 0, 0)
    assert 0 < st.seconds < 60


def test_memo_statistics_stay_zero_without_memo_on_a_memo_object():
    s = Sudoku(2, 2)
    ec = s.exact_cover(priority="rows")
    ec.count(memo=True)
    assert ec.stats.memo_lookups > 0 and ec.stats.memo_entries > 0
    ec.count()
    assert (ec.stats.memo_lookups, ec.stats.memo_hits, ec.stats.memo_stores) == (0, 0, 0)


# --------------------------------------------------------------------------
# memo_at, given, and open iterators
# --------------------------------------------------------------------------


def test_memo_at_a_set_of_priority_classes():
    s = Sudoku(2, 2)
    ec = s.exact_cover(priority="rows")
    assert ec.count(memo=True, memo_at={2}) == 288
    at_row_2 = ec.stats.memo_lookups
    assert ec.count(memo=True, memo_at="all") == 288
    assert 0 < at_row_2 < ec.stats.memo_lookups
    with pytest.raises(ValueError, match="memo_at"):
        ec.count(memo=True, memo_at="sometimes")


def test_given_rows_that_conflict_are_named():
    s = Sudoku(2, 2)
    ec = s.exact_cover()
    a, b = s.row_index(0, 0, 1), s.row_index(0, 1, 1)
    with pytest.raises(ConflictingGivensError, match=f"given rows {a} and {b} both cover column"):
        ec.count(given=[a, b])
    with pytest.raises(ConflictingGivensError, match=f"given row {a} is listed twice"):
        ec.count(given=[a, a])


def test_a_new_search_invalidates_an_open_iterator():
    ec = Sudoku(2, 2).exact_cover()
    it = ec.solutions()
    next(it)
    assert ec.count() == 288
    with pytest.raises(RuntimeError, match="no longer valid"):
        next(it)


# --------------------------------------------------------------------------
# One object, one thread at a time
# --------------------------------------------------------------------------

IN_USE = "ExactCover is in use by another thread; use one object per thread"


def _in_thread(fn):
    """Run fn() in another thread; its exception (or None)."""
    out = []

    def target():
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - handed back to the test
            out.append(e)
    t = threading.Thread(target=target)
    t.start()
    t.join()
    return out[0] if out else None


def test_an_open_iteration_belongs_to_its_thread(knuth):
    it = knuth.solutions()
    assert next(it) == [1, 3, 5]
    for call in (knuth.count, lambda: knuth.first(), lambda: list(knuth.solutions()),
                 lambda: knuth.solve_batch([[1]]), knuth.clear_memo, lambda: next(it)):
        err = _in_thread(call)
        assert isinstance(err, RuntimeError) and str(err) == IN_USE
    # the thread that opened it may search on (ending the iteration)
    assert knuth.count() == 1
    with pytest.raises(RuntimeError, match="no longer valid"):
        next(it)
    assert _in_thread(lambda: knuth.count()) is None


def test_a_closed_or_exhausted_iteration_frees_the_object(knuth):
    it = knuth.solutions()
    next(it)
    it.close()
    assert _in_thread(knuth.count) is None
    assert list(knuth.solutions()) == [[1, 3, 5]]
    assert _in_thread(knuth.count) is None
    knuth.first()
    assert _in_thread(knuth.count) is None


THREADS_SCRIPT = textwrap.dedent("""
    import threading
    from grids.sudoku import Sudoku
    s = Sudoku(3, 3)
    ec = s.exact_cover()
    given = s.givens("123456789456789123789123456" + "." * 54)
    results, lock = [], threading.Lock()

    def work():
        for _ in range(3):
            try:
                r = ec.count(given=given, limit=100_000)
            except RuntimeError as e:
                r = str(e)
            with lock:
                results.append(r)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    refused = [r for r in results if r != 100_000]
    assert set(refused) <= {"ExactCover is in use by another thread; use one object per thread"}, refused
    print(len(results), len(refused) > 0, results.count(100_000) > 0)
    ec.check_invariants()
    print(ec.count(given=given, limit=7))
    print("survived")
""")


def test_threads_sharing_one_object_are_refused_not_crashed():
    # Once a segfault: four threads counting on one object at once, each
    # count running without the GIL on the same links.
    proc = _run_child(THREADS_SCRIPT)
    _assert_survived(proc)
    assert proc.stdout.splitlines()[:2] == ["12 True True", "7"]
