# cython: language_level=3
"""The band-table contraction: Σ over band-2 choices of l(band 2)·l(band 3).

Private: :mod:`bandtables.api` validates every argument, proves that the
128-bit accumulator cannot overflow, and owns the docstrings.  Here the
arrays are trusted (dtype, contiguity, index ranges).

What is summed
--------------
Band 1's ordered code in stack ``s`` admits ``K`` band-2 codes; choice
``x`` of stack ``s`` gives band 2 the unordered code ``b[s, x]`` and band 3
``c[s, x]`` (:func:`bandtables.partitions.compatible_pairs`).  A band-2
choice is one ``x_s`` per stack, ``K^R`` in all, and the sum is

    Σ_{x_0 .. x_{R-1}}  l(b[0,x_0], .., b[R-1,x_{R-1}]) · l(c[0,x_0], .., c[R-1,x_{R-1}])

where ``l(u_0, .., u_{R-1})`` (rectangles of a band with those box codes,
rows ordered by column 1) is read as ``T[act[u_0, u_1], .., act[u_0, u_{R-1}]]``:
``act[u_0]`` relabels the digits so that box 0 becomes the standard code
(``l`` is unchanged by relabelling), and ``T`` is the table of ``l`` over
the other ``R - 1`` boxes, flat, ``U^(R-1)`` entries, row-major.

Loop order (why it is fast)
---------------------------
Stack 0 is outermost: it fixes the two rows ``act[b[0,x_0]]`` and
``act[c[0,x_0]]`` (``U`` uint16 each, in L1).  Stacks ``1 .. R-2`` run as
an odometer that keeps the partial flat indices ``ib[s]``, ``ic[s]``
(index of the prefix ``x_1 .. x_s`` in ``T``, scaled by ``U`` per stack);
stack ``R-1`` is the inner loop: two gathers from ``T`` and one multiply.
[For R = 3 and U = 280, T is 78,400 uint64 = 627 KB: it stays in L2, so
the whole 3×3 contraction is a few milliseconds.]
"""
from libc.stdint cimport uint16_t, uint64_t, int64_t

cdef extern from *:
    """
    typedef unsigned __int128 bt_acc_t;
    """
    # 128-bit unsigned accumulator (gcc/clang extension); Python sees it as
    # two 64-bit halves.  The caller proves max(T)² · K^R < 2^128.
    ctypedef unsigned long long acc_t "bt_acc_t"

cdef enum:
    MAX_R = 8  # largest number of stacks the odometer holds


cdef int _contract(const uint16_t* act, const uint64_t* T, const uint16_t* b,
                   const uint16_t* c, int R, int K, int64_t U, int x0_start, int x0_stop,
                   acc_t* out) noexcept nogil:
    """Add the terms with ``x0_start <= x_0 < x0_stop`` to ``*out``.  Returns 0."""
    cdef int64_t ib[MAX_R]          # ib[s]: flat index of (x_1 .. x_s) in T for band 2, unscaled tail
    cdef int64_t ic[MAX_R]          # the same for band 3
    cdef int pos[MAX_R]             # odometer digits x_1 .. x_{R-2}
    cdef const uint16_t* rb          # act row of band 2's box 0
    cdef const uint16_t* rc          # act row of band 3's box 0
    cdef const uint16_t* bl = b + (R - 1) * K   # last stack's choices
    cdef const uint16_t* cl = c + (R - 1) * K
    cdef acc_t acc = 0
    cdef int x0, x, s
    for x0 in range(x0_start, x0_stop):
        rb = act + <int64_t>b[x0] * U
        rc = act + <int64_t>c[x0] * U
        ib[0] = 0
        ic[0] = 0
        for s in range(1, R - 1):       # odometer at (0, .., 0)
            pos[s] = 0
            ib[s] = (ib[s - 1] + rb[b[s * K]]) * U
            ic[s] = (ic[s - 1] + rc[c[s * K]]) * U
        while True:
            # invariant: ib[R-2] = Σ_{s=1..R-2} act[b0, b[s, pos[s]]] · U^(R-1-s)
            for x in range(K):
                acc += <acc_t>T[ib[R - 2] + rb[bl[x]]] * T[ic[R - 2] + rc[cl[x]]]
            s = R - 2                   # advance the odometer, last digit fastest
            while s >= 1:
                pos[s] += 1
                if pos[s] < K:
                    break
                pos[s] = 0
                s -= 1
            if s < 1:
                break
            while s <= R - 2:           # recompute the partial indices from s on
                ib[s] = (ib[s - 1] + rb[b[s * K + pos[s]]]) * U
                ic[s] = (ic[s - 1] + rc[c[s * K + pos[s]]]) * U
                s += 1
    out[0] += acc
    return 0


def contract(const uint16_t[:, ::1] act, const uint64_t[::1] T, const uint16_t[:, ::1] b,
             const uint16_t[:, ::1] c, int x0_start, int x0_stop):
    """Σ of the terms with ``x0_start <= x_0 < x0_stop``, as ``(high, low)`` 64-bit halves."""
    cdef int R = b.shape[0]
    cdef int K = b.shape[1]
    cdef int64_t U = act.shape[0]
    cdef acc_t acc = 0
    with nogil:
        _contract(&act[0, 0], &T[0], &b[0, 0], &c[0, 0], R, K, U, x0_start, x0_stop, &acc)
    return <uint64_t>(acc >> 64), <uint64_t>acc
