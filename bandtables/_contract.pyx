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
from libc.stdint cimport uint16_t, uint64_t, int64_t, int32_t, uint32_t
from libc.stdlib cimport malloc, free

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


# ---------------------------------------------------------------------------
# R = 4: l read through the composed chain tables (bandtables/tables4.py)
# ---------------------------------------------------------------------------
# For a band (u0, u1, u2, u3): v_j = act[u0, u_j] (box 0 to the standard code),
# then l = LTg[orbit1[v1], act1[v1, v2], act1[v1, v3]]: act1[v1] relabels by the
# element taking box 1 to its orbit representative, and the row LTg[i1, v2'] holds
# l for every box-3 code with the second relabelling already composed in.
# Work per level:
#   x0      : the act rows of band 2's and band 3's box 0;
#   x0, x1  : boxes 2 and 3 of every choice relabelled (2K gathers per band,
#             amortised over K² terms); the K box-3 pairs sorted by band 2's
#             code, so that band 2's reads of every LTg row run forward
#             through it (the terms are a sum: any order of x3 gives it);
#   x0..x2  : the two LTg rows;
#   x3      : two gathers and one multiply.
# Each prefix's inner sum has K terms below bound² (checked by the caller:
# bound² · K < 2^64), so it is summed in 64 bits and added to the 128-bit total.

cdef extern from "stdlib.h":
    void qsort(void* base, size_t n, size_t size,
               int (*compar)(const void*, const void*) noexcept nogil) noexcept nogil


cdef int _cmp_u32(const void* a, const void* b) noexcept nogil:
    cdef uint32_t x = (<const uint32_t*>a)[0]
    cdef uint32_t y = (<const uint32_t*>b)[0]
    return (x > y) - (x < y)


cdef struct _Chain:
    const uint16_t* act        # (U, U): box 0 -> standard code
    const uint16_t* act1       # (U, U): act1[v1] relabels box 1 to its representative
    const int32_t* orbit1      # (U,): the orbit (0 .. n1-1) of box 1's code
    const uint32_t* LTg        # (n1, U, U): l by orbit, box 2 and box 3 (relabelled)
    int64_t U


cdef int _contract4(const _Chain* t, const uint16_t* b, const uint16_t* c, int K,
                    int x0_start, int x0_stop, uint32_t* scratch, acc_t* out) noexcept nogil:
    """Add the R = 4 terms with ``x0_start <= x_0 < x0_stop`` to ``*out``.  Returns 0."""
    cdef int64_t U = t.U
    cdef uint32_t* v2b = scratch          # box 2 of each choice, after act[b0] and act1[v1]
    cdef uint32_t* v2c = scratch + K
    cdef uint32_t* v3 = scratch + 2 * K   # box 3 of both bands: (band 2 << 16) | band 3
    cdef uint16_t* v3b = <uint16_t*>(scratch + 3 * K)   # unpacked after the sort
    cdef uint16_t* v3c = v3b + K
    cdef const uint16_t* rb
    cdef const uint16_t* rc
    cdef const uint16_t* g1b
    cdef const uint16_t* g1c
    cdef const uint32_t* Lb
    cdef const uint32_t* Lc
    cdef const uint32_t* lb
    cdef const uint32_t* lc
    cdef int64_t vb, vc
    cdef uint64_t inner
    cdef acc_t acc = 0
    cdef int x0, x1, x2, x3, x
    for x0 in range(x0_start, x0_stop):
        rb = t.act + <int64_t>b[x0] * U
        rc = t.act + <int64_t>c[x0] * U
        for x1 in range(K):
            vb = rb[b[K + x1]]
            vc = rc[c[K + x1]]
            g1b = t.act1 + vb * U
            g1c = t.act1 + vc * U
            Lb = t.LTg + <int64_t>t.orbit1[vb] * U * U
            Lc = t.LTg + <int64_t>t.orbit1[vc] * U * U
            for x in range(K):
                v2b[x] = g1b[rb[b[2 * K + x]]]
                v2c[x] = g1c[rc[c[2 * K + x]]]
                v3[x] = (<uint32_t>g1b[rb[b[3 * K + x]]] << 16) | g1c[rc[c[3 * K + x]]]
            qsort(v3, K, sizeof(uint32_t), _cmp_u32)
            for x in range(K):
                v3b[x] = <uint16_t>(v3[x] >> 16)
                v3c[x] = <uint16_t>(v3[x] & 0xFFFF)
            for x2 in range(K):
                lb = Lb + v2b[x2] * U
                lc = Lc + v2c[x2] * U
                inner = 0
                for x3 in range(K):
                    inner += <uint64_t>lb[v3b[x3]] * lc[v3c[x3]]
                acc += inner
    out[0] += acc
    return 0


def contract4(const uint16_t[:, ::1] act, const uint16_t[:, ::1] act1,
              const int32_t[::1] orbit1, const uint32_t[:, :, ::1] LTg,
              const uint16_t[:, ::1] b, const uint16_t[:, ::1] c, int x0_start, int x0_stop):
    """Σ of the R = 4 terms with ``x0_start <= x_0 < x0_stop``, as ``(high, low)`` halves."""
    cdef _Chain t
    cdef int K = b.shape[1]
    cdef acc_t acc = 0
    cdef uint32_t* scratch = <uint32_t*>malloc(4 * K * sizeof(uint32_t))
    if scratch == NULL:
        raise MemoryError()
    t.act, t.act1, t.orbit1 = &act[0, 0], &act1[0, 0], &orbit1[0]
    t.LTg, t.U = &LTg[0, 0, 0], act.shape[0]
    try:
        with nogil:
            _contract4(&t, &b[0, 0], &c[0, 0], K, x0_start, x0_stop, scratch, &acc)
    finally:
        free(scratch)
    return <uint64_t>(acc >> 64), <uint64_t>acc
