"""F_4 by 2-factors (factorization/_two_factors.pxi), the kernel's default
at degree 4, against the rooted recurrence it replaced (``two_factor=False``).

F_4(G) = 6 · Σ 2^{c(K) + c(G - K)} over the 2-factors K through column 0's
two lowest edges; the brute-force form over all 2-factors is in
test_identities.py.  A kernel without a memo computes every F_4 afresh, so
each equality below compares the two routes themselves.
"""
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from factorization import FactorizationCounter, count_factorizations
from factorization.kernel import Kernel
from factorization_brute import random_regular


def masks(sets):
    """Column sets of symbols 1..n as the kernel's uint32 masks."""
    return np.array([sum(1 << (s - 1) for s in col) for col in sets], dtype=np.uint32)


def both(adj, d=4, memo_mb=0.0):
    n = len(adj)
    by_two_factors = Kernel(n, memo_mb, two_factor=True).count(adj, d)
    by_recurrence = Kernel(n, memo_mb, two_factor=False).count(adj, d)
    return by_two_factors, by_recurrence


def test_two_factors_are_the_default():
    assert Kernel(5, 0.0).two_factor and not Kernel(5, 0.0, two_factor=False).two_factor


@pytest.mark.parametrize("n", range(4, 13))
def test_equal_to_the_rooted_recurrence_on_random_four_regular_graphs(n):
    for seed in range(6):
        adj = masks(random_regular(n, 4, random.Random(1000 * n + seed)))
        a, b = both(adj)
        assert a == b > 0


def test_complete_graph_k44_is_the_reduced_latin_squares_times_4_factorial():
    adj = np.full(4, 0b1111, dtype=np.uint32)
    assert both(adj) == (576, 576)            # L_4 = 576 Latin squares of order 4


def test_disconnected_graph_multiplies_its_parts():
    # two copies of K_{4,4}: colourings of each part independently
    adj = np.array([0x0F] * 4 + [0xF0] * 4, dtype=np.uint32)
    assert both(adj) == (576 ** 2, 576 ** 2)


def test_graph_with_columns_and_symbols_permuted_keeps_its_count():
    rng = random.Random(7)
    g = random_regular(9, 4, rng)
    cols, syms = list(range(9)), list(range(1, 10))
    rng.shuffle(cols)
    rng.shuffle(syms)
    h = [frozenset(syms[s - 1] for s in g[c]) for c in cols]
    assert both(masks(g))[0] == both(masks(h))[0] == both(masks(g))[1]


def test_every_column_as_the_root():
    # the root edges e, f are column 0's: the sum must not depend on which
    # column that is
    g = random_regular(8, 4, random.Random(3))
    for shift in range(8):               # column 0 (the root) is each column in turn
        rolled = masks(g[shift:] + g[:shift])
        a, b = both(rolled)
        assert a == b


@pytest.mark.parametrize("n,d", [(6, 5), (7, 5), (7, 6), (9, 5)])
def test_higher_degrees_through_degree_four_agree(n, d):
    # F_5, F_6 reach F_4 by the rooted recurrence, then F_4 by either route
    # (memoised: each class of degree 4 computed once by each)
    for seed in range(2):
        adj = masks(random_regular(n, d, random.Random(seed)))
        a, b = both(adj, d, memo_mb=8.0)
        assert a == b > 0


def test_latin_squares_of_order_six_through_the_counter():
    # L_6 = F_6(K_{6,6}) = 9,408 reduced squares · 6! · 5!
    assert count_factorizations([range(1, 7)] * 6, counter=FactorizationCounter(6)) == \
        9408 * 720 * 120 == 812_851_200


def test_a_graph_not_four_regular_goes_to_the_recurrence_without_crashing():
    # factorization/estimate.py times count(g, memo_min) on graphs of lower
    # degree: the 2-factor search read a column's "other two symbols" past
    # the end of its masks and the worker died (SIGSEGV, count 3x2).  Run in
    # a child process, so a crash fails this test instead of ending pytest.
    graphs = [[int(m) for m in masks(random_regular(n, d, random.Random(n)))]
              for n, d in ((6, 3), (7, 5), (5, 2))]
    code = f"""
import numpy as np
from factorization.kernel import Kernel
for g in {graphs!r}:
    adj = np.array(g, dtype=np.uint32)
    a = Kernel(len(g), 0.0).count(adj, 4)
    b = Kernel(len(g), 0.0, two_factor=False).count(adj, 4)
    print(a == b)
"""
    root = str(Path(__file__).resolve().parents[2])     # this checkout's kernel
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=root, env={**os.environ, "PYTHONPATH": root})
    assert res.returncode == 0, (res.returncode, res.stderr)
    assert res.stdout.split() == ["True"] * 3
