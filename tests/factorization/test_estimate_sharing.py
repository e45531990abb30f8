"""The kernel's estimate of a job whose units share one memo: the children
that many units have in common are expanded once (issue 37: 2x5 was
estimated at 8 to 12 times its CPU time, which had it estimated at length,
on one core, before its workers started)."""
import collections
import random

import pytest

from factorization import FactorizationCounter
import factorization.estimate as estimate_module
from factorization.estimate import distinct_share, random_regular, tree_seconds


def unit_clock(monkeypatch):
    """The working thread's CPU clock ticks one second a reading."""
    ticks = iter(range(10**6))
    monkeypatch.setattr("time.thread_time", lambda: float(next(ticks)))


@pytest.mark.parametrize("m", [1, 2, 5])
def test_classes_each_shared_by_m_units_are_one_in_m_of_the_children(m):
    # 12 units, unit u has the classes u .. u + m - 1 (mod 12): every class in m units
    sets = [{(u + i) % 12 for i in range(m)} for u in range(12)]
    assert distinct_share(sets, 12) == pytest.approx(1 / m)


def test_unequal_sharing_errs_low_by_the_second_moment_of_the_sharing():
    # all units drawn: the share is T / Σ m_c², at most the distinct share D / T
    rng = random.Random(5)
    sets = [set(rng.sample(range(40), rng.randint(1, 20))) for _ in range(9)]
    m = collections.Counter(c for s in sets for c in s)
    T, D = sum(m.values()), len(m)
    assert distinct_share(sets, 9) == pytest.approx(T / sum(v * v for v in m.values()))
    assert distinct_share(sets, 9) < D / T


def test_a_sample_scales_its_pairs_to_the_job():
    # 2 of 10 units drawn, sharing 1 of their 2 children each: T = 20,
    # Q = 2 · 1 · (10 · 9) / (2 · 1) = 90, share 20 / 110
    assert distinct_share([{1, 2}, {2, 3}], 10) == pytest.approx(20 / 110)


def test_nothing_shared_or_too_few_units_drawn_is_a_share_of_one():
    assert distinct_share([{1, 2}, {3, 4}], 10) == 1.0
    assert distinct_share([{1, 2}], 10) == 1.0
    assert distinct_share([], 10) == 1.0
    assert distinct_share([set(), set()], 10) == 1.0


def test_the_share_weights_every_level_below_the_root_and_not_the_root(monkeypatch):
    # one tick a timed expansion: Knuth's estimate of the nodes, 1 + s·b1 + s·b1·b2
    unit_clock(monkeypatch)
    adj = random_regular(7, 6, random.Random(0))
    counter = FactorizationCounter(7, 0.0)
    keys = counter.children(adj, rooted=True)[0]
    rng = random.Random(3)
    child = estimate_module.key_to_adj(tuple(int(w) for w in keys[rng.randrange(len(keys))]), 7)
    b1, b2 = len(keys), len(counter.children(child, rooted=True)[0])
    alone = tree_seconds(7, adj, 6, seed=3, max_seconds=0, min_paths=1)
    shared = tree_seconds(7, adj, 6, seed=3, max_seconds=0, min_paths=1, below_share=0.25)
    assert alone == 1 + b1 + b1 * b2
    assert shared == 1 + 0.25 * (b1 + b1 * b2)


def test_a_share_outside_zero_to_one_is_refused():
    adj = random_regular(5, 4, random.Random(0))
    with pytest.raises(ValueError, match="below_share must be in 0..1, got 1.5"):
        tree_seconds(5, adj, 4, max_seconds=0, min_paths=1, below_share=1.5)
