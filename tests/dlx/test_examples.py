"""Known exact-cover problems with known answers, and the search modes of
``dlx.ExactCover`` (count / solutions / first, limit, given) on them."""

import gc

import numpy as np
import pytest
from problems import (
    brute_force_solutions,
    independent_choices,
    is_exact_cover,
    knuth_example,
    n_queens,
    pentominoes,
    pentominoes_6x10,
    queen_row,
)

from dlx import ConflictingGivensError, ExactCover

# --------------------------------------------------------------------------
# Helpers and fixtures
# --------------------------------------------------------------------------


def assert_links_equal(before, after):
    """Two ``links_snapshot()`` results hold identical arrays."""
    assert isinstance(before, tuple) and isinstance(after, tuple)
    assert len(before) == len(after)
    for i, (a, b) in enumerate(zip(before, after)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, f"link array {i} changed shape"
        assert np.array_equal(a, b), f"link array {i} not restored after search"


def assert_valid_solutions(problem, sols):
    """Each solution is a sorted list of distinct rows forming an exact cover,
    and no solution repeats."""
    rows, n_primary, n_secondary = problem
    for s in sols:
        assert isinstance(s, list)
        assert s == sorted(set(s)), f"solution {s} is not a sorted list of distinct rows"
        assert is_exact_cover(rows, n_primary, n_secondary, s), f"{s} is not an exact cover"
    assert len({tuple(s) for s in sols}) == len(sols), "a solution was yielded twice"


@pytest.fixture
def knuth():
    return ExactCover(*knuth_example()[:2])


@pytest.fixture(scope="module")
def queens8_problem():
    return n_queens(8)


@pytest.fixture
def queens8(queens8_problem):
    return ExactCover(*queens8_problem)


# --------------------------------------------------------------------------
# Construction and trivial problems
# --------------------------------------------------------------------------


def test_shape_properties(queens8):
    assert queens8.n_rows == 64
    assert queens8.n_primary == 16
    assert queens8.n_secondary == 30
    assert queens8.n_columns == 46


def test_n_secondary_defaults_to_zero(knuth):
    assert (knuth.n_rows, knuth.n_primary, knuth.n_secondary, knuth.n_columns) == (6, 7, 0, 7)


@pytest.mark.parametrize("n_secondary", [0, 3])
def test_empty_matrix_has_the_empty_cover(n_secondary):
    ec = ExactCover([], 0, n_secondary)
    assert ec.n_rows == 0
    assert ec.count() == 1
    assert list(ec.solutions()) == [[]]
    assert ec.first() == []
    ec.check_invariants()


def test_no_rows_with_primary_columns_has_no_cover():
    ec = ExactCover([], 2)
    assert ec.count() == 0
    assert list(ec.solutions()) == []
    assert ec.first() is None


def test_uncovered_primary_column_gives_zero():
    # column 2 is primary but no row contains it
    ec = ExactCover([[0], [1], [0, 1]], 3)
    assert ec.count() == 0
    assert list(ec.solutions()) == []
    assert ec.first() is None


def test_secondary_columns_need_not_be_covered():
    # column 1 (secondary) is covered by no row
    ec = ExactCover([[0], [0, 2]], 1, 2)
    assert ec.count() == 2
    assert list(ec.solutions()) == [[0], [1]]


def test_duplicate_rows_are_distinct_rows():
    ec = ExactCover([[0, 1], [1, 0], [0], [1]], 2)
    assert ec.count() == 3
    assert sorted(ec.solutions()) == [[0], [1], [2, 3]]


def test_numpy_integer_entries_are_accepted():
    rows = [[np.int64(c) for c in row] for row in knuth_example()[0]]
    ec = ExactCover(rows, np.int32(7))
    assert ec.count() == 1


def test_row_column_order_is_irrelevant():
    rows, n_primary, _ = knuth_example()
    ec = ExactCover([row[::-1] for row in rows], n_primary)
    assert list(ec.solutions()) == [[1, 3, 5]]


# --------------------------------------------------------------------------
# Known counts
# --------------------------------------------------------------------------


def test_knuth_example_has_the_single_cover_BDF(knuth):
    assert knuth.count() == 1
    assert list(knuth.solutions()) == [[1, 3, 5]]
    assert knuth.first() == [1, 3, 5]


@pytest.mark.parametrize(
    "n, expected", [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92)]
)
def test_n_queens_count(n, expected):
    assert ExactCover(*n_queens(n)).count() == expected


def test_n_queens_solutions_are_valid(queens8_problem, queens8):
    sols = list(queens8.solutions())
    assert len(sols) == 92
    assert_valid_solutions(queens8_problem, sols)
    assert all(len(s) == 8 for s in sols)


def test_count_is_a_python_int(queens8):
    n = queens8.count()
    assert type(n) is int
    assert type(queens8.count(limit=5)) is int


def test_repeated_runs_agree(queens8):
    assert [queens8.count() for _ in range(3)] == [92, 92, 92]
    assert list(queens8.solutions()) == list(queens8.solutions())


def test_pentomino_encoding():
    rows, n_primary, n_secondary = pentominoes_6x10()
    assert (len(rows), n_primary, n_secondary) == (2056, 72, 0)
    assert all(len(r) == 6 and len(set(r)) == 6 for r in rows)


@pytest.mark.parametrize(
    "height, width, expected",
    [
        (3, 20, 8),
        pytest.param(4, 15, 1472, marks=pytest.mark.slow),
        pytest.param(5, 12, 4040, marks=pytest.mark.slow),
        pytest.param(6, 10, 9356, marks=pytest.mark.slow),  # several seconds
    ],
)
def test_pentominoes(height, width, expected):
    ec = ExactCover(*pentominoes(height, width)[:2])
    assert ec.count() == expected
    assert ec.stats.solutions == expected
    ec.check_invariants()


def test_pentominoes_first_is_a_tiling():
    problem = pentominoes_6x10()
    sol = ExactCover(*problem).first()
    assert sol is not None and len(sol) == 12
    assert_valid_solutions(problem, [sol])


# --------------------------------------------------------------------------
# first / limit
# --------------------------------------------------------------------------


def test_first_returns_a_valid_cover(queens8_problem, queens8):
    sol = queens8.first()
    assert sol is not None
    assert_valid_solutions(queens8_problem, [sol])


def test_first_is_the_first_yielded_solution(queens8):
    assert queens8.first() == next(iter(queens8.solutions()))


@pytest.mark.parametrize("k", [1, 2, 5, 91, 92, 93, 500])
def test_solutions_limit(queens8_problem, queens8, k):
    sols = list(queens8.solutions(limit=k))
    assert len(sols) == min(k, 92)
    assert_valid_solutions(queens8_problem, sols)
    # a limited run yields a prefix of the full sequence
    assert sols == list(queens8.solutions())[: len(sols)]


@pytest.mark.parametrize("k", [1, 2, 10, 91, 92, 93, 10**30])
def test_count_limit(queens8, k):
    assert queens8.count(limit=k) == min(k, 92)


def test_count_limit_stops_early(queens8):
    queens8.count()
    full_nodes = queens8.stats.nodes
    assert queens8.count(limit=1) == 1
    assert queens8.stats.solutions == 1
    assert queens8.stats.nodes < full_nodes


# --------------------------------------------------------------------------
# given
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given, expected",
    [
        ((), [[1, 3, 5]]),
        ((1,), [[1, 3, 5]]),
        ((5,), [[1, 3, 5]]),
        ((3, 1), [[1, 3, 5]]),
        ((1, 3, 5), [[1, 3, 5]]),
        ((0,), []),  # A leaves {2,3,5,6}: D then needs {2}, and E, F both contain 7
        ((2,), []),
        ((4,), []),
        ((0, 3), []),  # compatible givens, but no cover contains both
    ],
)
def test_knuth_given(knuth, given, expected):
    assert knuth.count(given=given) == len(expected)
    assert list(knuth.solutions(given=given)) == expected
    assert knuth.first(given=given) == (expected[0] if expected else None)


def test_given_accepts_any_iterable(knuth):
    assert knuth.count(given=[1]) == 1
    assert knuth.count(given=np.array([1, 3])) == 1
    assert knuth.count(given=iter([5])) == 1


def test_queens_given_corner(queens8_problem, queens8):
    corner = queen_row(8, 0, 0)
    expected = [list(s) for s in brute_force_solutions(*queens8_problem) if corner in s]
    assert len(expected) == 4
    assert queens8.count(given=[corner]) == 4
    sols = list(queens8.solutions(given=[corner]))
    assert sorted(sols) == expected
    assert queens8.first(given=[corner]) in expected


def test_queens_given_two_queens(queens8_problem, queens8):
    given = [queen_row(8, 0, 0), queen_row(8, 1, 4)]
    expected = [
        list(s) for s in brute_force_solutions(*queens8_problem) if set(given) <= set(s)
    ]
    assert queens8.count(given=given) == len(expected)
    assert sorted(queens8.solutions(given=given)) == expected


def test_given_with_limit(queens8):
    corner = queen_row(8, 0, 0)
    assert queens8.count(given=[corner], limit=3) == 3
    sols = list(queens8.solutions(given=[corner], limit=3))
    assert len(sols) == 3 and all(corner in s for s in sols)


def test_givens_sharing_a_secondary_column_conflict(queens8):
    # two queens on one diagonal: they share only a secondary column, so the
    # givens conflict (a column would be covered twice)
    a, b = queen_row(8, 0, 0), queen_row(8, 1, 1)
    with pytest.raises(ConflictingGivensError):
        queens8.count(given=[a, b])


# --------------------------------------------------------------------------
# Memo and priority on known problems
# --------------------------------------------------------------------------


@pytest.mark.parametrize("memo_at", ["class", "all"])
def test_queens_memo(queens8_problem, memo_at):
    rows, n_primary, n_secondary = queens8_problem
    # ranks first, then files; secondary columns get their own class
    priority = [0] * 8 + [1] * 8 + [2] * n_secondary
    ec = ExactCover(rows, n_primary, n_secondary, priority=priority)
    assert ec.count() == 92
    assert ec.count(memo=True, memo_at=memo_at) == 92
    st = ec.stats
    if memo_at == "class":
        # a queen covers its rank and its file, so the files' class is
        # never entered before the end: the root is the only memo point
        assert (st.memo_lookups, st.memo_stores) == (1, 1)
    else:
        assert 0 < st.memo_hits < st.memo_lookups == st.nodes
    ec.check_invariants()


@pytest.mark.parametrize("memo_at", ["class", "all"])
def test_memo_count_beyond_64_bits(memo_at):
    # 2**70 covers: exceeds uint64, as the full Sudoku count (~6.7e21) does
    rows, n_primary, _ = independent_choices(70, 2)
    ec = ExactCover(rows, n_primary, priority=list(range(n_primary)))
    assert ec.count(memo=True, memo_at=memo_at) == 2**70
    assert ec.stats.memo_hits > 0


@pytest.mark.parametrize("memo_at", ["class", "all"])
def test_memo_count_up_to_128_bits(memo_at):
    # 3**80 ~ 1.5e38 < 2**128
    rows, n_primary, _ = independent_choices(80, 3)
    ec = ExactCover(rows, n_primary, priority=list(range(n_primary)))
    assert ec.count(memo=True, memo_at=memo_at) == 3**80


@pytest.mark.parametrize("memo_at", ["class", "all"])
def test_memo_count_never_wraps(memo_at):
    # 3**130 > 2**200: the engine may refuse a count this large (it keeps
    # 128-bit counters and raises OverflowError), but must never return a
    # wrapped value
    rows, n_primary, _ = independent_choices(130, 3)
    ec = ExactCover(rows, n_primary, priority=list(range(n_primary)))
    try:
        n = ec.count(memo=True, memo_at=memo_at)
    except OverflowError:
        pass
    else:
        assert n == 3**130
    ec.check_invariants()
    assert ec.count(memo=True, memo_at=memo_at, given=list(range(0, 3 * 130, 3))) == 1


# --------------------------------------------------------------------------
# The links are restored after every kind of search
# --------------------------------------------------------------------------


def _abandon_with_close(ec):
    gen = ec.solutions()
    next(gen)
    next(gen, None)
    gen.close()


def _abandon_with_del(ec):
    gen = ec.solutions()
    next(gen)
    del gen
    gc.collect()


def _abandon_limited(ec):
    gen = ec.solutions(limit=10)
    next(gen)
    gen.close()


def _exhaust_then_close(ec):
    gen = ec.solutions()
    for _ in gen:
        pass
    gen.close()


SEARCHES = {
    "count": lambda ec: ec.count(),
    "count_limit": lambda ec: ec.count(limit=1),
    "count_memo_class": lambda ec: ec.count(memo=True),
    "count_memo_all": lambda ec: ec.count(memo=True, memo_at="all"),
    "count_given": lambda ec: ec.count(given=[1]),
    "solutions": lambda ec: list(ec.solutions()),
    "solutions_limit": lambda ec: list(ec.solutions(limit=1)),
    "solutions_given": lambda ec: list(ec.solutions(given=[1])),
    "first": lambda ec: ec.first(),
    "first_given": lambda ec: ec.first(given=[1]),
    "abandoned_close": _abandon_with_close,
    "abandoned_del": _abandon_with_del,
    "abandoned_limited": _abandon_limited,
    "exhausted_then_closed": _exhaust_then_close,
}

LINK_PROBLEMS = {
    "knuth": knuth_example,
    "queens6": lambda: n_queens(6),
    "queens8": lambda: n_queens(8),
    "pentominoes": pentominoes_6x10,
}


# Full pentomino searches take seconds each; test_pentominoes covers them.
_PENTOMINO_FULL = {"count", "count_memo_class", "count_memo_all", "count_given",
                   "solutions", "solutions_given", "exhausted_then_closed"}
LINK_CASES = [(name, search) for name in LINK_PROBLEMS for search in SEARCHES
              if not (name == "pentominoes" and search in _PENTOMINO_FULL)]


@pytest.mark.parametrize("name, search", LINK_CASES)
def test_links_restored(name, search):
    ec = ExactCover(*LINK_PROBLEMS[name]())
    ec.check_invariants()
    before = ec.links_snapshot()
    SEARCHES[search](ec)
    ec.check_invariants()
    assert_links_equal(before, ec.links_snapshot())


def test_search_after_abandoned_generator(queens8):
    gen = queens8.solutions()
    next(gen)
    gen.close()
    assert queens8.count() == 92
    assert len(list(queens8.solutions())) == 92


def test_new_search_while_a_generator_is_suspended(queens8):
    before = queens8.links_snapshot()
    gen = queens8.solutions()
    first = next(gen)
    # a second search on the same object must see the full matrix ...
    assert queens8.count() == 92
    assert queens8.first() == first
    queens8.check_invariants()
    assert_links_equal(before, queens8.links_snapshot())
    # ... and the stale iterator must not yield from a corrupted state
    with pytest.raises(RuntimeError):
        next(gen)
    gen.close()
    queens8.check_invariants()
    assert_links_equal(before, queens8.links_snapshot())
    assert queens8.count() == 92


def test_links_snapshot_is_a_copy(knuth):
    before = knuth.links_snapshot()
    scribble = knuth.links_snapshot()
    for arr in scribble:
        arr = np.asarray(arr)
        if arr.ndim and arr.size and arr.flags.writeable:
            arr[...] = 0
    knuth.check_invariants()
    assert_links_equal(before, knuth.links_snapshot())
    assert knuth.count() == 1
