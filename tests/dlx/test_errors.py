"""Bad input to ``dlx.ExactCover`` raises a ValueError that says what is wrong,
never crashes the interpreter, and leaves a usable object behind."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from problems import knuth_example, n_queens, to_csr

import dlx
from dlx import ConflictingGivensError, ExactCover

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
    before = knuth._links_snapshot()
    with pytest.raises(ValueError):
        FAILING_CALLS[call](knuth)
    knuth._check_invariants()
    after = knuth._links_snapshot()
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

    odd = []  # (call, exception type) for exceptions other than ValueError

    def attempt(label, fn):
        try:
            fn()
        except ValueError:
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
    indices = np.array([0, 1, 2], dtype=np.intp)
    for indptr in ([0, 2, 1, 3], [0, 2, 40], [1, 2, 3], [0, -5, 3], [[0, 1], [2, 3]]):
        attempt(f"from_csr({indptr})", lambda: ExactCover.from_csr(np.array(indptr), indices, 3))
    ec._check_invariants()
    assert ec.count() == 1, ec.count()
    print("non-ValueError exceptions:", odd)
    print("survived")
    """
)


def test_bad_input_never_crashes_the_interpreter():
    """Every bad call in a child process: a segfault or abort fails this test
    instead of killing the test session. Which exception each call raises is
    checked by the tests above; the child only lists non-ValueError ones."""
    root = Path(dlx.__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", CRASH_SCRIPT],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, (
        f"child exited with {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    )
    assert "survived" in proc.stdout


def test_out_of_range_numbers_are_value_errors_with_clear_messages():
    import numpy as np
    with pytest.raises(ValueError, match="32 bits"):
        ExactCover([[0]], 1, priority=[2**70])
    with pytest.raises(ValueError, match="64 bits"):
        ExactCover.from_csr(np.array([0, 1], dtype=np.uint64),
                            np.array([2**63 + 5], dtype=np.uint64), 3)
    ec = ExactCover([[0]], 1)
    with pytest.raises(ValueError, match="memo size"):
        ec.count(memo=True, memo_mb=2**70)
    assert ec.count() == 1
