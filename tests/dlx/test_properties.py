"""Property tests: ``dlx.ExactCover`` against a brute-force reference on small
random exact-cover matrices (hypothesis)."""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from problems import brute_force_solutions, is_exact_cover, to_csr

from dlx import ConflictingGivensError, ExactCover

MAX_COLUMNS = 12
MAX_ROWS = 14


@st.composite
def problems(draw, max_columns=MAX_COLUMNS, max_rows=MAX_ROWS):
    """A random ``(rows, n_primary, n_secondary)``.

    Every row holds 1-4 primary and 0-3 secondary columns, in random order
    (a row of secondary columns only is never chosen by DLX; see
    ``problems.brute_force_solutions``). Up to two planted partitions of the
    primary columns make problems with covers common; the remaining rows are
    random, and the row order is shuffled.
    """
    n_primary = draw(st.integers(0, max_columns))
    n_secondary = draw(st.integers(0, max_columns - n_primary))
    if n_primary == 0:
        return [], 0, n_secondary
    secondary = list(range(n_primary, n_primary + n_secondary))

    def secondary_part(max_size):
        if not secondary:
            return set()
        return draw(st.sets(st.sampled_from(secondary), max_size=min(max_size, n_secondary)))

    rows = []
    for _ in range(draw(st.integers(0, 2))):
        order = draw(st.permutations(range(n_primary)))
        cuts = []
        if n_primary > 1:
            cuts = sorted(draw(st.sets(st.integers(1, n_primary - 1), max_size=5)))
        bounds = [0, *cuts, n_primary]
        for lo, hi in zip(bounds, bounds[1:]):
            rows.append(set(order[lo:hi]) | secondary_part(2))
    rows = rows[:max_rows]
    for _ in range(draw(st.integers(0, max_rows - len(rows)))):
        primary = draw(
            st.sets(st.integers(0, n_primary - 1), min_size=1, max_size=min(n_primary, 4))
        )
        rows.append(primary | secondary_part(3))
    rows = [draw(st.permutations(sorted(r))) for r in rows]
    rows = draw(st.permutations(rows))
    return rows, n_primary, n_secondary


def compatible_givens(rows, data, max_size=3):
    """Draw up to ``max_size`` distinct, pairwise disjoint rows."""
    if not rows:
        return []
    chosen = data.draw(
        st.lists(st.integers(0, len(rows) - 1), unique=True, max_size=max_size), label="given"
    )
    out, used = [], set()
    for i in chosen:
        if not used & set(rows[i]):
            out.append(i)
            used |= set(rows[i])
    return out


def check_links(ec, before):
    ec.check_invariants()
    after = ec.links_snapshot()
    assert len(before) == len(after)
    for a, b in zip(before, after):
        assert np.array_equal(np.asarray(a), np.asarray(b)), "links not restored"


# --------------------------------------------------------------------------
# Counting and enumeration
# --------------------------------------------------------------------------


@given(problems())
def test_count_matches_brute_force(problem):
    ec = ExactCover(*problem)
    before = ec.links_snapshot()
    expected = len(brute_force_solutions(*problem))
    assert ec.count() == expected
    assert ec.stats.solutions == expected
    check_links(ec, before)


@pytest.mark.slow
@settings(max_examples=2000)
@given(problems(max_columns=16, max_rows=20))
def test_count_matches_brute_force_larger(problem):
    assert ExactCover(*problem).count() == len(brute_force_solutions(*problem))


@given(problems())
def test_solutions_are_the_exact_covers(problem):
    rows, n_primary, n_secondary = problem
    ec = ExactCover(*problem)
    sols = list(ec.solutions())
    for s in sols:
        assert isinstance(s, list)
        assert s == sorted(set(s))
        assert is_exact_cover(rows, n_primary, n_secondary, s)
    assert len({tuple(s) for s in sols}) == len(sols), "a solution was yielded twice"
    assert sorted(tuple(s) for s in sols) == brute_force_solutions(*problem)
    assert len(sols) == ec.count()
    first = ec.first()
    if sols:
        assert first == sols[0]
    else:
        assert first is None


@given(problems(), st.integers(1, 6))
def test_limit_is_respected(problem, k):
    ec = ExactCover(*problem)
    total = len(brute_force_solutions(*problem))
    assert ec.count(limit=k) == min(total, k)
    sols = list(ec.solutions(limit=k))
    assert len(sols) == min(total, k)
    assert sols == list(ec.solutions())[: len(sols)]


# --------------------------------------------------------------------------
# given
# --------------------------------------------------------------------------


@given(problems(), st.data())
def test_given_rows_are_honoured(problem, data):
    rows = problem[0]
    ec = ExactCover(*problem)
    before = ec.links_snapshot()
    given_rows = (
        data.draw(
            st.lists(st.integers(0, len(rows) - 1), unique=True, max_size=3), label="given"
        )
        if rows
        else []
    )
    conflict = any(set(rows[a]) & set(rows[b]) for a, b in combinations(given_rows, 2))
    if conflict:
        try:
            n = ec.count(given=given_rows)
        except ConflictingGivensError:
            pass
        else:
            assert n == 0
    else:
        expected = [s for s in brute_force_solutions(*problem) if set(given_rows) <= set(s)]
        assert ec.count(given=given_rows) == len(expected)
        sols = list(ec.solutions(given=given_rows))
        assert sorted(tuple(s) for s in sols) == expected
        first = ec.first(given=given_rows)
        assert first == (sols[0] if sols else None)
    check_links(ec, before)
    assert ec.count() == len(brute_force_solutions(*problem))


# --------------------------------------------------------------------------
# Invariance
# --------------------------------------------------------------------------


@given(problems(), st.data())
def test_count_invariant_under_permutation(problem, data):
    rows, n_primary, n_secondary = problem
    row_perm = data.draw(st.permutations(range(len(rows))), label="row_perm")
    prim = data.draw(st.permutations(range(n_primary)), label="primary_perm")
    sec = data.draw(
        st.permutations(range(n_primary, n_primary + n_secondary)), label="secondary_perm"
    )
    col_map = list(prim) + list(sec)
    # new row i is old row row_perm[i], with every column c renamed col_map[c]
    new_rows = [[col_map[c] for c in rows[r]] for r in row_perm]
    original = ExactCover(rows, n_primary, n_secondary)
    permuted = ExactCover(new_rows, n_primary, n_secondary)
    assert permuted.count() == original.count()
    mapped = sorted(tuple(sorted(row_perm[i] for i in s)) for s in permuted.solutions())
    assert mapped == sorted(tuple(s) for s in original.solutions())


# --------------------------------------------------------------------------
# Memoization and priorities
# --------------------------------------------------------------------------


@given(problems(), st.data())
def test_memo_matches_plain_count(problem, data):
    rows, n_primary, n_secondary = problem
    n_columns = n_primary + n_secondary
    priority = data.draw(
        st.none() | st.lists(st.integers(-3, 3), min_size=n_columns, max_size=n_columns),
        label="priority",
    )
    memo_at = data.draw(st.sampled_from(["class", "all"]), label="memo_at")
    memo_mb = data.draw(st.sampled_from([1, 16]), label="memo_mb")
    use_given = data.draw(st.booleans(), label="use_given")
    given_rows = compatible_givens(rows, data) if use_given else []
    expected = len([s for s in brute_force_solutions(*problem) if set(given_rows) <= set(s)])

    ec = ExactCover(rows, n_primary, n_secondary, priority=priority)
    before = ec.links_snapshot()
    assert ec.count(given=given_rows) == expected
    assert ec.count(given=given_rows, memo=True, memo_at=memo_at, memo_mb=memo_mb) == expected
    st_ = ec.stats
    assert st_.memo_hits <= st_.memo_lookups
    # a fresh table holds at most what this count stored
    assert st_.memo_entries <= st_.memo_stores
    # a second memoized run (fresh or reused table) agrees
    assert ec.count(given=given_rows, memo=True, memo_at=memo_at, memo_mb=memo_mb) == expected
    check_links(ec, before)


@given(problems(), st.data())
def test_priority_does_not_change_solutions(problem, data):
    rows, n_primary, n_secondary = problem
    n_columns = n_primary + n_secondary
    priority = data.draw(st.lists(st.integers(0, 3), min_size=n_columns, max_size=n_columns))
    ec = ExactCover(rows, n_primary, n_secondary, priority=priority)
    assert sorted(tuple(s) for s in ec.solutions()) == brute_force_solutions(*problem)


# --------------------------------------------------------------------------
# Construction paths and link restoration
# --------------------------------------------------------------------------


@given(
    problems(),
    st.sampled_from([(np.intp, np.intp), (np.int64, np.int32), (np.int32, np.int64)]),
)
def test_csr_construction_equals_lists(problem, dtypes):
    rows, n_primary, n_secondary = problem
    indptr, indices = to_csr(rows, *dtypes)
    a = ExactCover.from_csr(indptr, indices, n_primary, n_secondary)
    b = ExactCover(rows, n_primary, n_secondary)
    assert (a.n_rows, a.n_primary, a.n_secondary, a.n_columns) == (
        len(rows),
        n_primary,
        n_secondary,
        n_primary + n_secondary,
    )
    assert (a.n_rows, a.n_primary, a.n_secondary, a.n_columns) == (
        b.n_rows,
        b.n_primary,
        b.n_secondary,
        b.n_columns,
    )
    assert a.count() == b.count()
    assert sorted(a.solutions()) == sorted(b.solutions())
    a.check_invariants()


@given(problems(), st.integers(0, 4))
def test_links_restored_after_every_search(problem, stop_after):
    ec = ExactCover(*problem)
    before = ec.links_snapshot()
    ec.count()
    check_links(ec, before)
    ec.count(limit=2)
    check_links(ec, before)
    list(ec.solutions())
    check_links(ec, before)
    ec.first()
    check_links(ec, before)
    gen = ec.solutions()
    for _ in zip(range(stop_after), gen):
        pass
    gen.close()
    check_links(ec, before)
    assert ec.count() == len(brute_force_solutions(*problem))


@given(problems(), st.data())
def test_memo_reuse_across_calls(problem, data):
    """One object, several memoized counts with different givens, memo_at
    and priorities of use: each agrees with the brute-force count."""
    rows, n_primary, n_secondary = problem
    n_columns = n_primary + n_secondary
    priority = data.draw(
        st.none() | st.lists(st.integers(0, 2), min_size=n_columns, max_size=n_columns),
        label="priority",
    )
    ec = ExactCover(rows, n_primary, n_secondary, priority=priority)
    before = ec.links_snapshot()
    all_solutions = brute_force_solutions(*problem)
    for _ in range(data.draw(st.integers(1, 4), label="n_calls")):
        given_rows = compatible_givens(rows, data)
        memo_at = data.draw(st.sampled_from(["class", "all"]), label="memo_at")
        expected = sum(1 for s in all_solutions if set(given_rows) <= set(s))
        assert ec.count(given=given_rows, memo=True, memo_at=memo_at) == expected
    assert ec.count(memo=True) == len(all_solutions)
    assert ec.count() == len(all_solutions)
    check_links(ec, before)


@st.composite
def any_rows(draw):
    """Rows of any columns, secondary-only rows included (the docstring's case)."""
    n_primary = draw(st.integers(0, 5))
    n_secondary = draw(st.integers(0, 4))
    n = n_primary + n_secondary
    if n == 0:
        return [], 0, 0
    rows = draw(st.lists(st.sets(st.integers(0, n - 1), min_size=1, max_size=3).map(sorted),
                         max_size=8))
    return rows, n_primary, n_secondary


@settings(max_examples=300)
@given(any_rows())
def test_the_docstring_definition_holds_or_the_row_is_refused(problem):
    # issue 26.12: ExactCover([[0], [1]], n_primary=1, n_secondary=1).count()
    # gave 1 where the definition gives 2 (a secondary-only row never chosen)
    rows, n_primary, n_secondary = problem
    secondary_only = [r for r, row in enumerate(rows) if min(row) >= n_primary]
    if secondary_only:
        with pytest.raises(ValueError, match=f"row {secondary_only[0]} covers only secondary"):
            ExactCover(rows, n_primary, n_secondary)
        return
    ec = ExactCover(rows, n_primary, n_secondary)
    assert ec.count() == len(brute_force_solutions(rows, n_primary, n_secondary))


def test_a_row_of_secondary_columns_alone_is_refused():
    with pytest.raises(ValueError, match="row 1 covers only secondary columns"):
        ExactCover([[0], [1]], n_primary=1, n_secondary=1)
