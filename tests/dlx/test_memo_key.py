"""The memo key leaves out dead items (``dlx/_memokey.pxi``).

At a memo point of class k every primary item of a lower class is covered,
so an option with a primary item of a lower class can no longer be chosen;
a secondary item only such options cover is dead there and is not part of
the key.  Two states that differ only in dead items then meet in the table;
a secondary item that an option still available covers is kept, because it
changes the count.
"""
import pytest

from dlx import ExactCover

# Columns: P (class 0), Q (class 1) and H (class 5) are primary; a, b, c are
# secondary.  A and B both cover P and H (their lowest class is 0, although
# H's is 5) and differ only in a / b, which nothing else covers.
P, Q, H, A_, B_, C_ = range(6)
MEETING = [[P, H, A_], [P, H, B_], [Q], [Q, C_]]
MEETING_PRIORITY = [0, 1, 5, 0, 0, 0]


@pytest.mark.parametrize("memo_at", ["class", "all"])
def test_states_that_differ_only_in_dead_items_meet(memo_at):
    """After A or after B the class-1 subproblems are the same (Q by itself
    or with c): the second is a memo hit, although a / b differ."""
    ec = ExactCover(MEETING, n_primary=3, n_secondary=3, priority=MEETING_PRIORITY)
    assert ec.count() == 4
    assert ec.count(memo=True, memo_at=memo_at) == 4
    assert ec.stats.memo_hits == 1


@pytest.mark.parametrize("memo_at", ["class", "all"])
def test_a_secondary_item_a_later_option_covers_is_kept(memo_at):
    """s is covered by A (class 0) and by C (class 1): after A only D is
    left (1 way), after B both C and D (2 ways).  A key without s would
    give B's subproblem A's count (2 instead of 3)."""
    p, q, s = 0, 1, 2
    rows = [[p, s], [p], [q, s], [q]]
    ec = ExactCover(rows, n_primary=2, n_secondary=1, priority=[0, 1, 0])
    assert ec.count() == 3
    assert ec.count(memo=True, memo_at=memo_at) == 3
    assert ec.stats.memo_hits == 0


def test_masked_keys_stay_exact_when_every_hash_collides():
    """Masked keys have their own hash; under forced collisions (hash 0)
    only the full key comparison tells them apart."""
    p, q, r, s, t = 0, 1, 2, 3, 4
    rows = [[p, s], [p, t], [p], [q, t], [q], [r, s], [r]]
    ec = ExactCover(rows, n_primary=3, n_secondary=2, priority=[0, 1, 2, 0, 0])
    plain = ec.count()
    ec.collide_hashes()
    hits = 0
    for memo_at in ("class", "all"):
        ec.clear_memo()
        assert ec.count(memo=True, memo_at=memo_at) == plain
        hits += ec.stats.memo_hits
    assert hits > 0         # the colliding table was used, not bypassed
