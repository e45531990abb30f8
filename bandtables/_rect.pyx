# cython: language_level=3
"""l: Latin rectangles with given column sets, rows ordered by column 0.

Private: :func:`bandtables.tables.band_l` validates the sets and calls
:func:`count_l`.  Column ``c``'s remaining digits are a bitmask ``m[c]``;
every digit lies in exactly ``k`` columns when ``k`` rows are left (the
digit–column graph is ``k``-regular), which the two closed forms rely on.

Row by row: a row is a perfect matching of columns to digits, column 0
taking its smallest remaining digit (that orders the rows by column 0, so
each rectangle is counted once per ``R!`` row orders, ``L = R!·l``).

* one row left: the remaining sets are singletons forming a permutation: 1;
* two rows left: the graph is a union of even cycles; each cycle has two
  matchings and column 0's cycle is fixed by its choice: ``2^(cycles-1)``;
* otherwise: enumerate the matchings depth-first, the column with the
  fewest free digits first (used digits as a bitmask), and recurse on
  what is left.
[For R = 4 about a millisecond a pattern; the DLX engine needs seconds.]
"""
from libc.stdint cimport uint32_t, int64_t

cdef enum:
    MAX_N = 30  # digits fit a 32-bit mask


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil
    int __builtin_popcount(unsigned int x) nogil


cdef inline int _lowest(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)


cdef int64_t _two_rows(const uint32_t* m, int N) noexcept nogil:
    """Perfect matchings with column 0's smallest digit, each column holding two digits."""
    cdef int first[MAX_N]           # first[d]: one column holding digit d (-1: none yet)
    cdef int second[MAX_N]          # second[d]: the other one
    cdef uint32_t seen = 0          # columns already on a cycle
    cdef int cycles = 0
    cdef int c, d, cur, came, nxt
    cdef uint32_t bits
    for d in range(N):
        first[d] = -1
    for c in range(N):
        bits = m[c]
        while bits:
            d = _lowest(bits)
            bits &= bits - 1
            if first[d] < 0:
                first[d] = c
            else:
                second[d] = c
    for c in range(N):
        if seen & (1u << c):
            continue
        cycles += 1
        cur, came = c, -1
        while not (seen & (1u << cur)):
            seen |= 1u << cur
            bits = m[cur]
            d = _lowest(bits)
            if d == came:           # leave by the digit we did not come by
                d = _lowest(bits & (bits - 1))
            nxt = second[d] if first[d] == cur else first[d]
            came, cur = d, nxt
    return (<int64_t>1) << (cycles - 1)


cdef int64_t _rows(uint32_t* m, int N, int left) noexcept nogil:
    """Rectangles of ``left`` rows on the remaining sets ``m`` (restored on return)."""
    cdef uint32_t pick[MAX_N]
    if left == 1:
        return 1
    if left == 2:
        return _two_rows(m, N)
    pick[0] = m[0] & (~m[0] + 1)     # column 0: its smallest digit
    return _match(m, N, left, (1u << N) - 2, pick[0], pick)


cdef int64_t _match(uint32_t* m, int N, int left, uint32_t todo, uint32_t used,
                    uint32_t* pick) noexcept nogil:
    """Σ over the matchings of the columns in ``todo`` avoiding ``used`` of
    the rectangles below.  The column with the fewest free digits goes
    first (none free: no matching), which prunes dead ends early."""
    cdef int64_t total = 0
    cdef uint32_t options, b, rest
    cdef int k, c = -1, best = 99, n
    if todo == 0:
        for k in range(N):
            m[k] ^= pick[k]
        total = _rows(m, N, left - 1)
        for k in range(N):
            m[k] ^= pick[k]
        return total
    rest = todo
    while rest:
        k = _lowest(rest)
        rest &= rest - 1
        n = __builtin_popcount(m[k] & ~used)
        if n < best:
            best, c = n, k
            if n <= 1:
                break
    if best == 0:
        return 0
    options = m[c] & ~used
    while options:
        b = options & (~options + 1)
        options ^= b
        pick[c] = b
        total += _match(m, N, left, todo & ~(1u << c), used | b, pick)
    return total


def count_l(const uint32_t[::1] masks, int rows):
    """``l`` of the sets ``masks`` (bit ``d`` = digit ``d``), ``rows`` rows."""
    cdef int N = masks.shape[0]
    cdef uint32_t m[MAX_N]
    cdef int64_t out
    cdef int c
    for c in range(N):
        m[c] = masks[c]
    with nogil:
        out = _rows(m, N, rows)
    return out
