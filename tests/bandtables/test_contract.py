"""Specification of bandtables/_contract.pyx (the kernel) and of the checks
bandtables/api.py makes before calling it.

The kernel is specified against the sum written out with itertools: for
any tables, ``contract(act, T, b, c, x0a, x0b)`` is

    Σ_{x_0 in [x0a, x0b), x_1 .. x_{R-1} in [0, K)}
        T[flat(act[b0, b_1..])] · T[flat(act[c0, c_1..])]

exactly, whatever the sizes (so also past 2^64).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bandtables import kernels
from bandtables.api import BandTables, max_terms_bound
from bandtables.partitions import normalisers


def slow_sum(act, T, b, c, start, stop):
    """The contraction written out: one term per band-2 choice."""
    R, K = b.shape
    U = act.shape[0]
    total = 0
    for x in itertools.product(range(start, stop), *[range(K)] * (R - 1)):
        ib = ic = 0
        for s in range(1, R):
            ib = ib * U + int(act[b[0, x[0]], b[s, x[s]]])
            ic = ic * U + int(act[c[0, x[0]], c[s, x[s]]])
        total += int(T[ib]) * int(T[ic])
    return total


def kernel_sum(act, T, b, c, start, stop):
    hi, lo = kernels.contract(act, T, b, c, start, stop)
    return (int(hi) << 64) | int(lo)


def random_problem(rng, R, U, K, high):
    act = rng.integers(0, U, size=(U, U), dtype=np.uint16)
    T = rng.integers(0, high, size=U ** (R - 1), dtype=np.uint64)
    b = rng.integers(0, U, size=(R, K), dtype=np.uint16)
    c = rng.integers(0, U, size=(R, K), dtype=np.uint16)
    return act, T, b, c


@pytest.mark.parametrize("R", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_kernel_equals_the_written_out_sum(R, seed):
    rng = np.random.default_rng(seed)
    act, T, b, c = random_problem(rng, R, U=5, K=4, high=1000)
    assert kernel_sum(act, T, b, c, 0, 4) == slow_sum(act, T, b, c, 0, 4)


@pytest.mark.parametrize("R", [2, 3, 4])
def test_slices_of_stack_1_add_up_to_the_whole_sum(R):
    rng = np.random.default_rng(7)
    act, T, b, c = random_problem(rng, R, U=6, K=5, high=50)
    whole = kernel_sum(act, T, b, c, 0, 5)
    assert sum(kernel_sum(act, T, b, c, i, i + 1) for i in range(5)) == whole
    assert kernel_sum(act, T, b, c, 2, 2) == 0
    assert kernel_sum(act, T, b, c, 1, 4) == slow_sum(act, T, b, c, 1, 4)


@pytest.mark.parametrize("R", [2, 3, 4])
@pytest.mark.parametrize("K1", [0, 1, 3, 5])
def test_K1_keeps_stack_2s_first_choices_only(R, K1):
    """``K1``: the sum over stack 2's (row 1's) first K1 choices only, the
    other stacks over all K, written out term by term."""
    rng = np.random.default_rng(8)
    act, T, b, c = random_problem(rng, R, U=6, K=5, high=50)
    U, K = act.shape[0], b.shape[1]
    expected = 0
    for x in itertools.product(range(1, 4), range(K1), *[range(K)] * (R - 2)):
        ib = ic = 0
        for s in range(1, R):
            ib = ib * U + int(act[b[0, x[0]], b[s, x[s]]])
            ic = ic * U + int(act[c[0, x[0]], c[s, x[s]]])
        expected += int(T[ib]) * int(T[ic])
    hi, lo = kernels.contract(act, T, b, c, 1, 4, K1)
    assert (int(hi) << 64 | int(lo)) == expected


def test_K1_outside_0_to_K_is_refused():
    act, T, b, c = random_problem(np.random.default_rng(9), 3, U=6, K=5, high=50)
    with pytest.raises(ValueError, match="K1 must be in 0..5"):
        kernels.contract(act, T, b, c, 0, 2, 6)


def test_kernel_sums_past_2_to_the_64_exactly():
    rng = np.random.default_rng(1)
    act, _, b, c = random_problem(rng, 3, U=4, K=3, high=2)
    T = np.full(16, 2 ** 60 + 12345, dtype=np.uint64)
    expected = 27 * (2 ** 60 + 12345) ** 2          # 27 terms, each about 2^120
    assert 2 ** 64 < expected < 2 ** 128
    assert kernel_sum(act, T, b, c, 0, 3) == expected == slow_sum(act, T, b, c, 0, 3)


def test_kernel_reads_read_only_memory_maps(tmp_path):
    bt = BandTables.build(2)
    bt.save(tmp_path)
    mapped = BandTables.load(2, tmp_path)
    assert isinstance(mapped.T, np.memmap) and not mapped.T.flags.writeable
    sets = [(1, 2), (3, 4), (5, 6), (1, 3), (2, 5), (4, 6)]
    assert mapped.completions(sets) == bt.completions(sets) > 0


# ---------------------------------------------------------------------------
# The boundary: what BandTables refuses before the kernel runs
# ---------------------------------------------------------------------------

def test_tables_of_the_wrong_dtype_or_shape_are_refused():
    bt = BandTables.build(2)
    with pytest.raises(ValueError, match="T must be C-contiguous uint64"):
        BandTables(2, bt.act, bt.T.astype(np.int64))
    with pytest.raises(ValueError, match="act must be C-contiguous uint16"):
        BandTables(2, bt.act[:, :5].copy(), bt.T)
    with pytest.raises(ValueError, match="R = 2..3"):
        BandTables(4, bt.act, bt.T)


def test_a_table_entry_above_bregmans_bound_is_refused():
    bt = BandTables.build(2)
    T = bt.T.copy()
    T[3] = max_terms_bound(2)
    with pytest.raises(ValueError, match="Bregman"):
        BandTables(2, bt.act, T)


def test_bregmans_bound_holds_and_is_not_vacuous():
    for R in (2, 3):
        bt = BandTables.build(R)
        assert int(bt.T.max()) < max_terms_bound(R) < 2 ** 32
    # the 128-bit proof for 4x3 at this bound: 346^4 terms below bound²
    assert max_terms_bound(4) ** 2 * 346 ** 4 < 2 ** 128


def test_a_bad_slice_or_band_is_refused():
    bt = BandTables.build(2)
    sets = [(1, 2), (3, 4), (5, 6), (1, 3), (2, 5), (4, 6)]
    with pytest.raises(ValueError, match="x0 must be a range inside 0..5"):
        bt.completions(sets, (3, 11))
    with pytest.raises(ValueError, match="box 2"):
        bt.completions(sets[:3] + [(1, 2), (1, 3), (4, 6)], None)


def test_act_rows_have_the_width_the_kernel_strides_by():
    _, act = normalisers(3)
    assert act.shape == (280, 280) and act.flags.c_contiguous and act.dtype == np.uint16


# ---------------------------------------------------------------------------
# Job sizes (bandtables/estimate.py) agree with what the tables hold
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("R", [2, 3])
def test_job_size_matches_the_built_tables(R):
    from bandtables.estimate import job_size
    bt = BandTables.build(R)
    size = job_size(R)
    assert (size["U"], size["K"], size["terms_per_unit"]) == (bt.U, bt.K, bt.K0 * bt.K ** (R - 1))
    assert sum(bt.classes.sizes) == size["patterns"]
    assert size["classes_lower_bound"] <= len(bt.classes.reps)
    assert max(bt.classes.sizes) <= size["group"]


def test_threads_share_one_set_of_tables_and_agree():
    """The kernel runs without the GIL on read-only tables: threads of one
    process count units side by side and get the sequential results."""
    from concurrent.futures import ThreadPoolExecutor

    from bandtables.tables import pattern_column_sets
    bt = BandTables.build(3)
    sets = [pattern_column_sets(rep, 3) for rep in bt.classes.reps[:8]]
    sequential = [bt.completions(s) for s in sets]
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(bt.completions, sets)) == sequential


@pytest.mark.parametrize("R", [2, 3])
def test_half_of_stack_1_doubled_is_the_whole_sum(R):
    """Exchanging bands 2 and 3 pairs the choices of stack 1 without fixed
    points and keeps every term, so the kernel's halved sum, doubled, is
    the sum over all K choices."""
    from bandtables.api import band_codes
    from bandtables.partitions import compatible_pairs
    from bandtables.tables import pattern_column_sets
    bt = BandTables.build(R)
    for rep in bt.classes.reps[:6]:
        sets = pattern_column_sets(rep, R)
        codes = band_codes(sets, R)
        full = [compatible_pairs(codes[s], R) for s in range(R)]
        b = np.ascontiguousarray([p[0] for p in full], dtype=np.uint16)
        c = np.ascontiguousarray([p[1] for p in full], dtype=np.uint16)
        assert bt.completions(sets) == kernel_sum(bt.act, bt.T, b, c, 0, bt.K)
        hb, hc = compatible_pairs(codes[0], R, half=True)
        halves = list(zip(hb.tolist(), hc.tolist())) + list(zip(hc.tolist(), hb.tolist()))
        assert sorted(halves) == sorted(zip(full[0][0].tolist(), full[0][1].tolist()))
