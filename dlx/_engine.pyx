# cython: language_level=3
"""Dancing links (Knuth's Algorithm X, DLX1 layout) with optional memoized counting.

This module is private: ``dlx.api`` validates every input and is the only
caller.  The engine trusts what it is given (int32 CSR arrays with columns in
range, no repeats inside a row, no empty rows, non-conflicting givens).

Why it is shaped this way
-------------------------
* One flat set of int32 arrays, allocated when the matrix is built, never
  during a search (DLX1 §6-§7).  Links are indices, not pointers.
* cover/uncover/hide/unhide are tiny inline routines (TAOCP 7.2.2.1,
  Algorithm D names); their orderings are stated beside the loops.
* The search is an explicit stack machine (no recursion) whose state lives in
  the object, so it can stop after each solution (``next_solution``) and
  resume, and so an interrupt can unwind it to the pristine matrix.
* The branching item is the minimum-remaining-values item *within the first
  priority class still present*: the item list is ordered by (priority,
  column), so the current class is a prefix of the list.  Without priorities
  every item has class 0 and this is plain MRV.  The scan stops at LEN <= 1.
  With one class it reads the LEN array with vector compares (a covered
  item's LEN carries COVERED, so it never wins) instead of following links.
* solve_batch undoes a finished problem by copying saved link arrays back
  when enough items are covered that this is cheaper than uncovering them:
  undoing every cover restores a DLX matrix exactly, so both give the same
  matrix.
* Counting mode takes three shortcuts that never change a count:
  - the last level is counted from column lengths: if every option of the
    chosen item covers exactly the primary items that remain, each option
    is a solution and none needs covering;
  - memoization (Nishino, Yasuda, Minato, Nagata, AAAI 2017): the remaining
    subproblem is determined by the set of uncovered items, so its count is
    cached under that set (compared in full; the Zobrist hash only picks the
    bucket);
  - a declared tail (``configure_tail``): once a given priority class is
    reached the rest is a Latin rectangle with prescribed column sets
    (possibly after one lead row), counted without searching.
* Counts are 128-bit and every addition of a cached count is checked, so no
  count ever wraps silently.  Statistics are 64-bit: 2**64 nodes is beyond
  any run (centuries at a billion nodes a second).
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef extern from *:
    """
    /* Scans of a contiguous int32 array for _choose_flat, 16 elements per
       step in 4-lane vectors (GCC/Clang vector extensions: SSE2 on x86-64,
       NEON on ARM) with no branch per element. */
    typedef int32_t dlx_v4si __attribute__((vector_size(16)));
    typedef int64_t dlx_v2di __attribute__((vector_size(16)));

    /* 1 when some a[0..15] < t. */
    static inline int dlx_any_below16(const int32_t *a, int32_t t) {
        dlx_v4si x0, x1, x2, x3, tv = {t, t, t, t};
        __builtin_memcpy(&x0, a, 16);
        __builtin_memcpy(&x1, a + 4, 16);
        __builtin_memcpy(&x2, a + 8, 16);
        __builtin_memcpy(&x3, a + 12, 16);
        dlx_v2di m = (dlx_v2di)(((x0 < tv) | (x1 < tv)) | ((x2 < tv) | (x3 < tv)));
        return (m[0] | m[1]) != 0;
    }

    #if defined(__SSE2__)
    #include <emmintrin.h>
    /* Bit j set when a[j] < t, j < 16: the four compares packed to bytes
       in order, then one movemask. */
    static inline int dlx_below_mask16(const int32_t *a, int32_t t) {
        __m128i tv = _mm_set1_epi32(t);
        __m128i c0 = _mm_cmplt_epi32(_mm_loadu_si128((const __m128i *)a), tv);
        __m128i c1 = _mm_cmplt_epi32(_mm_loadu_si128((const __m128i *)(a + 4)), tv);
        __m128i c2 = _mm_cmplt_epi32(_mm_loadu_si128((const __m128i *)(a + 8)), tv);
        __m128i c3 = _mm_cmplt_epi32(_mm_loadu_si128((const __m128i *)(a + 12)), tv);
        return _mm_movemask_epi8(_mm_packs_epi16(_mm_packs_epi32(c0, c1),
                                                 _mm_packs_epi32(c2, c3)));
    }
    #endif

    /* The first i in [0, n) with a[i] < t; n if there is none. */
    static inline int32_t dlx_first_below(const int32_t *a, int32_t n, int32_t t) {
        int32_t i = 0;
    #if defined(__SSE2__)
        int m;
        for (; i + 16 <= n; i += 16)
            if ((m = dlx_below_mask16(a + i, t)) != 0)
                return i + __builtin_ctz(m);
    #else
        while (i + 16 <= n && !dlx_any_below16(a + i, t))
            i += 16;
    #endif
        for (; i < n; i++)
            if (a[i] < t)
                return i;
        return n;
    }

    /* min(a[0..n)), n >= 1. */
    static inline int32_t dlx_min(const int32_t *a, int32_t n) {
        int32_t i = 0, m = a[0];
        if (n >= 16) {
            dlx_v4si x0, x1, x2, x3, y, lt;
            __builtin_memcpy(&x0, a, 16);
            __builtin_memcpy(&x1, a + 4, 16);
            __builtin_memcpy(&x2, a + 8, 16);
            __builtin_memcpy(&x3, a + 12, 16);
            for (i = 16; i + 16 <= n; i += 16) {
                __builtin_memcpy(&y, a + i, 16);      lt = y < x0; x0 = (y & lt) | (x0 & ~lt);
                __builtin_memcpy(&y, a + i + 4, 16);  lt = y < x1; x1 = (y & lt) | (x1 & ~lt);
                __builtin_memcpy(&y, a + i + 8, 16);  lt = y < x2; x2 = (y & lt) | (x2 & ~lt);
                __builtin_memcpy(&y, a + i + 12, 16); lt = y < x3; x3 = (y & lt) | (x3 & ~lt);
            }
            lt = x1 < x0; x0 = (x1 & lt) | (x0 & ~lt);
            lt = x3 < x2; x2 = (x3 & lt) | (x2 & ~lt);
            lt = x2 < x0; x0 = (x2 & lt) | (x0 & ~lt);
            m = x0[0];
            if (x0[1] < m) m = x0[1];
            if (x0[2] < m) m = x0[2];
            if (x0[3] < m) m = x0[3];
        }
        for (; i < n; i++)
            if (a[i] < m)
                m = a[i];
        return m;
    }
    """
    link_t _first_below "dlx_first_below" (const link_t *a, link_t n, link_t t) noexcept nogil
    link_t _min_of "dlx_min" (const link_t *a, link_t n) noexcept nogil

cdef extern from "stdlib.h":
    int posix_memalign(void **memptr, size_t alignment, size_t size) nogil

import numpy as np
cimport numpy as cnp

from dlx._typedefs cimport link_t, word_t, count_t, count_add_overflow

cnp.import_array()

# Phases of the resumable search loop.
cdef enum:
    FORWARD = 0       # enter a node at `level` (nothing covered there yet)
    ADVANCE = 1       # try choice[level]; best[level] is covered
    BACKUP = 2        # options of best[level] exhausted: uncover it, go up
    LEAVE = 3         # leave `level` without uncovering (nothing covered)
    RECOVER = 4       # undo choice[level], move to the next option
    DONE = 5

cdef enum:
    COVERED = 1 << 30           # added to LEN while an item is covered

cdef enum:
    BUCKET = 4                  # slots per memo bucket
    SIGNAL_MASK = (1 << 22) - 1 # check for Ctrl-C every 4M nodes

# Return codes of _run (besides -1, which means a Python exception is set).
RC_DONE = 0
RC_SOLUTION = 1
RC_LIMIT = 2
RC_OVERFLOW = 3
cdef enum:
    _RC_DONE = 0
    _RC_SOLUTION = 1
    _RC_LIMIT = 2
    _RC_OVERFLOW = 3


cdef inline object _count_to_int(count_t c):
    cdef uint64_t lo = <uint64_t>c
    cdef uint64_t hi = <uint64_t>(c >> 64)
    return (int(hi) << 64) | int(lo)


cdef inline count_t _int_to_count(object v):
    cdef uint64_t lo = <uint64_t>(v & 0xFFFFFFFFFFFFFFFF)
    cdef uint64_t hi = <uint64_t>(v >> 64)
    return ((<count_t>hi) << 64) | <count_t>lo


cdef inline word_t _splitmix(word_t *state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef word_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


# ----------------------------------------------------------------------
# Closed-form tail: a Latin rectangle with prescribed column sets.
#
# When the search fills a Sudoku row by row, the moment the last band is
# entered every row above it is complete.  Then (i) each column still needs
# exactly the symbols missing from it, one per empty cell of the band, and
# (ii) each box of the band gets each symbol exactly once whatever the order:
# a symbol missing from a stack's columns is missing from exactly one of
# them, so box constraints are implied.  What is left is to count arrays of
# R rows with: row r holds exactly need[r] in its empty cells empty[r], and
# column c exactly colmask[c] in its empty cells (all sets as bitmasks).
#
# With two rows left the count is closed: a column empty in one row only is
# forced; the columns empty in both, each with two symbols {x, y}, are the
# edges of a graph on symbols in which a symbol needed by both rows has
# degree 2 and one needed by one row has degree 1.  Giving each edge's
# symbols one to each row is fixed along a path (which must end at a symbol
# of the other row, else 0 ways) and has 2 ways around each cycle, so the
# count is 0 or 2**cycles.  With more rows left the first row's assignments
# are enumerated (a system of distinct representatives) and the rest counted
# the same way.  `steps` counts enumeration steps (the work of a tail, used
# like a subtree size by the memo table).

cdef inline bint _take_forced(word_t cols, const word_t *colmask,
                              word_t *need) noexcept nogil:
    # Each column of `cols` has one empty cell left, in this row, and one
    # symbol left (the sizes were checked): the row must still need it.
    cdef word_t s
    while cols:
        s = colmask[__builtin_ctzll(cols)]
        cols &= cols - 1
        if (s & need[0]) == 0:
            return False
        need[0] ^= s
    return True


cdef count_t _tail_two_rows(word_t need_a, word_t need_b, word_t empty_a,
                            word_t empty_b, const word_t *colmask,
                            word_t *steps) noexcept nogil:
    cdef word_t both = empty_a & empty_b
    cdef word_t only = empty_a ^ both
    cdef word_t s, pair, bit_x
    cdef int c, e, x, y, cur, cycles = 0
    cdef int deg[64]
    cdef int adj[64][2]
    cdef word_t unvisited
    if not _take_forced(only, colmask, &need_a) or \
            not _take_forced(empty_b ^ both, colmask, &need_b):
        return 0
    # the graph: symbols are vertices, columns empty in both rows are edges
    pair = need_a | need_b
    while pair:
        x = __builtin_ctzll(pair)
        pair &= pair - 1
        deg[x] = 0
    pair = both
    while pair:
        c = __builtin_ctzll(pair)
        pair &= pair - 1
        s = colmask[c]
        steps[0] += 1
        if (s & ~(need_a | need_b)) != 0 or __builtin_popcountll(s) != 2:
            return 0
        x = __builtin_ctzll(s)
        y = __builtin_ctzll(s & (s - 1))
        if deg[x] == 2 or deg[y] == 2:
            return 0
        adj[x][deg[x]] = c
        deg[x] += 1
        adj[y][deg[y]] = c
        deg[y] += 1
    # degree = number of rows needing the symbol
    pair = need_a | need_b
    while pair:
        x = __builtin_ctzll(pair)
        bit_x = pair & (~pair + 1)
        pair &= pair - 1
        if deg[x] != ((need_a & bit_x) != 0) + ((need_b & bit_x) != 0):
            return 0
    unvisited = both
    # paths: from each unvisited end, alternate to the other end, which must
    # be needed by the other row than the start
    pair = need_a ^ need_b          # the degree-1 symbols
    while pair:
        x = __builtin_ctzll(pair)
        pair &= pair - 1
        e = adj[x][0]
        if not (unvisited >> e) & 1:
            continue
        cur = x
        while True:
            unvisited &= ~((<word_t>1) << e)
            cur = __builtin_ctzll(colmask[e] ^ ((<word_t>1) << cur))
            if deg[cur] == 1:
                break
            e = adj[cur][1] if adj[cur][0] == e else adj[cur][0]
        if ((need_a >> x) & 1) == ((need_a >> cur) & 1):
            return 0
        pair &= ~((<word_t>1) << cur)
    # what is left are cycles
    while unvisited:
        e = __builtin_ctzll(unvisited)
        cur = __builtin_ctzll(colmask[e])
        x = cur
        while True:
            unvisited &= ~((<word_t>1) << e)
            cur = __builtin_ctzll(colmask[e] ^ ((<word_t>1) << cur))
            if cur == x:
                break
            e = adj[cur][1] if adj[cur][0] == e else adj[cur][0]
        cycles += 1
    return (<count_t>1) << cycles


cdef count_t _tail_fill_row(word_t cols, word_t avail, int nrows,
                            const word_t *need, const word_t *empty,
                            word_t *colmask, word_t *steps) noexcept nogil:
    # Give the empty cells `cols` of the first row distinct symbols from
    # `avail`, each allowed by its column; then count the other rows.
    cdef count_t total = 0
    cdef int c
    cdef word_t cand, s
    if cols == 0:
        return _tail_rows(nrows - 1, need + 1, empty + 1, colmask, steps)
    c = __builtin_ctzll(cols)
    cand = colmask[c] & avail
    while cand:
        s = cand & (~cand + 1)
        cand ^= s
        steps[0] += 1
        colmask[c] ^= s
        total += _tail_fill_row(cols & (cols - 1), avail ^ s, nrows, need,
                                empty, colmask, steps)
        colmask[c] ^= s
    return total


cdef count_t _tail_rows(int nrows, const word_t *need, const word_t *empty,
                        word_t *colmask, word_t *steps) noexcept nogil:
    # Counts stay far below 2**128: they are enumerated leaves (fewer than
    # 2**64 in any feasible run) times 2**cycles with cycles <= 32.
    if nrows <= 1:
        return 1        # the last row takes what its columns have left
    if nrows == 2:
        return _tail_two_rows(need[0], need[1], empty[0], empty[1], colmask, steps)
    return _tail_fill_row(empty[0], need[0], nrows, need, empty, colmask, steps)


cdef class Engine:
    """Owner of the link arrays of one exact-cover matrix (private)."""

    def __cinit__(self):
        self.ll = self.rl = self.prio = self.length = NULL
        self.ul = self.dl = self.top = self.orow = NULL
        self.row_first = self.rsize = NULL
        self.choice = self.best = self.best_prio = self.givens = NULL
        self.pristine = NULL
        self.zobrist = self.live = self.nodes_at_entry = NULL
        self.sol_at_entry = NULL
        self.memo_pending = NULL
        self.memo_class = NULL
        self.mtab = NULL
        self.memo_buckets = 0
        self.memo_gen = 0
        self.tail_cell = self.tail_rowsym = self.tail_colsym = NULL
        self.lead_box = self.lead_stack = NULL
        self.lead_stackcols = self.tail_key = NULL
        self.tail_lead = False
        self.tail_prio = -1
        self.tail_rows = self.tail_syms = 0

    def __init__(self, cnp.int32_t[::1] indptr not None,
                 cnp.int32_t[::1] indices not None,
                 link_t n_primary, link_t n_secondary,
                 cnp.int32_t[::1] priority not None):
        """Build the links from CSR rows; `priority` has one entry per column."""
        cdef link_t n_rows = indptr.shape[0] - 1
        cdef link_t n_items = n_primary + n_secondary
        cdef link_t nnz = indptr[n_rows]
        cdef link_t i, r, k, q, col, last_spacer, prev_item
        cdef word_t seed = 0x5EED5EED1234ULL
        self.n_items = n_items
        self.n_primary = n_primary
        self.n_rows = n_rows
        # node 0 unused, headers 1..n_items, then one spacer per row plus one
        self.n_nodes = n_items + 1 + nnz + n_rows + 1
        self.n_words = (n_items + 1 + 63) // 64
        self.depth_cap = n_primary + 2

        self.ll = <link_t *>calloc(n_items + 2, sizeof(link_t))
        self.rl = <link_t *>calloc(n_items + 2, sizeof(link_t))
        self.prio = <link_t *>calloc(n_items + 2, sizeof(link_t))
        self.length = <link_t *>calloc(n_items + 2, sizeof(link_t))
        self.ul = <link_t *>calloc(self.n_nodes, sizeof(link_t))
        self.dl = <link_t *>calloc(self.n_nodes, sizeof(link_t))
        self.top = <link_t *>calloc(self.n_nodes, sizeof(link_t))
        self.orow = <link_t *>calloc(self.n_nodes, sizeof(link_t))
        self.row_first = <link_t *>calloc(n_rows + 1, sizeof(link_t))
        self.rsize = <link_t *>calloc(n_rows + 1, sizeof(link_t))
        self.choice = <link_t *>calloc(self.depth_cap, sizeof(link_t))
        self.best = <link_t *>calloc(self.depth_cap, sizeof(link_t))
        self.best_prio = <link_t *>calloc(self.depth_cap, sizeof(link_t))
        self.givens = <link_t *>calloc(n_rows + 1, sizeof(link_t))
        self.zobrist = <word_t *>calloc(n_items + 2, sizeof(word_t))
        self.live = <word_t *>calloc(self.n_words, sizeof(word_t))
        self.nodes_at_entry = <word_t *>calloc(self.depth_cap, sizeof(word_t))
        self.sol_at_entry = <count_t *>calloc(self.depth_cap, sizeof(count_t))
        self.memo_pending = <char *>calloc(self.depth_cap, sizeof(char))
        self.memo_class = <char *>calloc(n_items + 2, sizeof(char))
        if (self.ll == NULL or self.rl == NULL or self.prio == NULL
                or self.length == NULL or self.ul == NULL or self.dl == NULL
                or self.top == NULL or self.orow == NULL
                or self.row_first == NULL or self.rsize == NULL
                or self.choice == NULL or self.best == NULL
                or self.best_prio == NULL or self.givens == NULL
                or self.zobrist == NULL or self.live == NULL
                or self.nodes_at_entry == NULL or self.sol_at_entry == NULL
                or self.memo_pending == NULL or self.memo_class == NULL):
            raise MemoryError("cannot allocate the dancing-links arrays")

        # Items: the ROOT list holds the primary items in (priority, column)
        # order, so the current priority class is always a prefix of it.
        order = np.lexsort((np.arange(n_primary), np.asarray(priority[:n_primary])))
        prev_item = 0
        for k in range(n_primary):
            i = <link_t>order[k] + 1
            self.ll[i] = prev_item
            self.rl[prev_item] = i
            prev_item = i
        self.ll[0] = prev_item
        self.rl[prev_item] = 0
        # Secondary items: their own circular list headed by n_items + 1.
        prev_item = n_items + 1
        for i in range(n_primary + 1, n_items + 1):
            self.ll[i] = prev_item
            self.rl[prev_item] = i
            prev_item = i
        self.ll[n_items + 1] = prev_item
        self.rl[prev_item] = n_items + 1
        for i in range(1, n_items + 1):
            self.prio[i] = priority[i - 1]
            self.ul[i] = i
            self.dl[i] = i
            self.top[i] = 0
            self.orow[i] = -1
            self.zobrist[i] = _splitmix(&seed)
            self.live[i >> 6] |= (<word_t>1) << (i & 63)

        # Options: spacer, nodes, spacer, nodes, ..., spacer (DLX1 §16-§17).
        q = n_items + 1
        last_spacer = q
        self.top[q] = 0
        self.orow[q] = -1
        self.max_rsize = 0
        for r in range(n_rows):
            self.row_first[r] = q + 1
            self.rsize[r] = 0
            for k in range(indptr[r], indptr[r + 1]):
                q += 1
                col = indices[k]
                i = col + 1
                self.top[q] = i
                self.orow[q] = r
                self.length[i] += 1
                # append q at the bottom of item i's list
                self.ul[q] = self.ul[i]
                self.dl[q] = i
                self.dl[self.ul[i]] = q
                self.ul[i] = q
                if i <= n_primary:
                    self.rsize[r] += 1
            if self.rsize[r] > self.max_rsize:
                self.max_rsize = self.rsize[r]
            # close the option: previous spacer points down to our last node,
            # the new spacer points up to our first node
            self.dl[last_spacer] = q
            q += 1
            self.top[q] = -(r + 1)
            self.orow[q] = -1
            self.ul[q] = self.row_first[r]
            last_spacer = q
        self.dl[last_spacer] = 0  # no option after the final spacer
        # With a single priority class the ROOT list stays in item order,
        # so the live bitset lists the uncovered primaries in list order.
        self.flat = n_primary == 0 or (np.min(priority[:n_primary]) == np.max(priority[:n_primary]))
        self.n_live_primary = n_primary
        self.level = 0
        self.phase = DONE
        self.running = False

    def __dealloc__(self):
        free(self.ll); free(self.rl); free(self.prio); free(self.length)
        free(self.ul); free(self.dl); free(self.top); free(self.orow)
        free(self.row_first); free(self.rsize)
        free(self.choice); free(self.best); free(self.best_prio)
        free(self.givens); free(self.zobrist); free(self.live)
        free(self.pristine)
        free(self.nodes_at_entry); free(self.sol_at_entry)
        free(self.memo_pending); free(self.memo_class)
        free(self.mtab)
        free(self.tail_cell); free(self.tail_rowsym); free(self.tail_colsym)
        free(self.lead_box); free(self.lead_stack); free(self.lead_stackcols)
        free(self.tail_key)

    # ------------------------------------------------------------------
    # cover / uncover (TAOCP 7.2.2.1 D; DLX1 §23-§29)

    cdef inline void _hide(self, link_t p) noexcept nogil:
        # Remove every other node of p's option from its item list, going
        # rightward; a spacer sends us back to the option's first node.
        # (The arrays are read into locals: stores through one int pointer
        # would otherwise make the compiler reload the others.)
        cdef link_t *top = self.top
        cdef link_t *ul = self.ul
        cdef link_t *dl = self.dl
        cdef link_t *length = self.length
        cdef link_t q = p + 1, x, u, d
        while q != p:
            x = top[q]
            u = ul[q]
            d = dl[q]
            if x <= 0:
                q = u
            else:
                dl[u] = d
                ul[d] = u
                length[x] -= 1
                q += 1

    cdef inline void _unhide(self, link_t p) noexcept nogil:
        # Exact mirror of _hide: leftward, relinking in reverse order.
        cdef link_t *top = self.top
        cdef link_t *ul = self.ul
        cdef link_t *dl = self.dl
        cdef link_t *length = self.length
        cdef link_t q = p - 1, x, u, d
        while q != p:
            x = top[q]
            u = ul[q]
            d = dl[q]
            if x <= 0:
                q = d
            else:
                dl[u] = q
                ul[d] = q
                length[x] += 1
                q -= 1

    cdef inline void _cover(self, link_t i) noexcept nogil:
        # Hide every option of item i (top to bottom), then unlink i from
        # its item list.  Keeps the live bitset, hash and primary count.
        cdef link_t *dl = self.dl
        cdef link_t p = dl[i]
        cdef link_t l, r
        while p != i:
            self._hide(p)
            p = dl[p]
        l = self.ll[i]
        r = self.rl[i]
        self.rl[l] = r
        self.ll[r] = l
        self.length[i] += COVERED
        self.live[i >> 6] ^= (<word_t>1) << (i & 63)
        self.zhash ^= self.zobrist[i]
        self.updates += 1
        if i <= self.n_primary:
            self.n_live_primary -= 1

    cdef inline void _uncover(self, link_t i) noexcept nogil:
        # Relink i, then unhide its options bottom to top (reverse of _cover).
        cdef link_t l = self.ll[i], r = self.rl[i]
        cdef link_t p
        self.rl[l] = i
        self.ll[r] = i
        self.length[i] -= COVERED
        self.live[i >> 6] ^= (<word_t>1) << (i & 63)
        self.zhash ^= self.zobrist[i]
        if i <= self.n_primary:
            self.n_live_primary += 1
        cdef link_t *ul = self.ul
        p = ul[i]
        while p != i:
            self._unhide(p)
            p = ul[p]

    cdef inline void _cover_row_rest(self, link_t p) noexcept nogil:
        # Cover the other items of p's option, rightward (DLX1 §28).
        cdef link_t q = p + 1, j
        while q != p:
            j = self.top[q]
            if j <= 0:
                q = self.ul[q]
            else:
                self._cover(j)
                q += 1

    cdef inline void _uncover_row_rest(self, link_t p) noexcept nogil:
        # Uncover them leftward: the exact reverse of _cover_row_rest
        # ("the choreography is delicate", DLX1 §29).
        cdef link_t q = p - 1, j
        while q != p:
            j = self.top[q]
            if j <= 0:
                q = self.dl[q]
            else:
                self._uncover(j)
                q -= 1

    cdef inline link_t _choose_flat(self) noexcept nogil:
        # The same rule as _choose for a single class (the ROOT list is then
        # items 1..n_primary in order), restated: the leftmost item with
        # LEN <= 1 if there is one (the scan stops there), else the leftmost
        # of minimum LEN.  Covered items carry COVERED in their LEN, so the
        # primary LENs are one array scanned by vector compares, without
        # following links (most nodes end in the first pass: 97% of them on
        # 17-clue Sudoku).
        cdef const link_t *len1 = self.length + 1      # len1[k]: item k + 1
        cdef link_t n = self.n_primary
        cdef link_t k = _first_below(len1, n, 2)
        if k < n:
            return k + 1
        return _first_below(len1, n, _min_of(len1, n) + 1) + 1

    cdef inline link_t _choose(self) noexcept nogil:
        # Minimum remaining values within the first priority class present
        # (a prefix of the ROOT list); leftmost on ties; stop at LEN <= 1.
        if self.flat:
            return self._choose_flat()
        cdef link_t p = self.rl[0]
        cdef link_t cls = self.prio[p]
        cdef link_t best = p
        cdef link_t best_len = self.length[p]
        p = self.rl[p]
        while best_len > 1 and p != 0 and self.prio[p] == cls:
            if self.length[p] < best_len:
                best = p
                best_len = self.length[p]
            p = self.rl[p]
        return best

    # ------------------------------------------------------------------
    # memo table: BUCKET-way buckets, each a run of bucket_words words:
    #   words 0..3      hash of slot 0..3 (the full zhash of its key)
    #   words 4..5      uint32 work of slot 0..3: subtree nodes, saturated;
    #                   0 = empty slot
    #   words 6..7      uint32 generation (count call) that stored slot 0..3
    #   then slot s at 8 + s * (n_words + 2): n_words key words (the live
    #   bitset), then the 128-bit count as two words (low, high).
    # A lookup reads the header line, and on a hash match the slot's key
    # and count, which share a line when n_words + 2 == 8 (9x9 Sudoku).
    # On a full bucket an entry stored by an earlier count call makes room
    # first, the oldest first; among entries of this call, the one with the
    # smallest subtree makes room, unless the new one is smaller still.
    # Old entries stay valid for hits: keys are exact states of the matrix.

    cdef inline word_t *_memo_bucket(self, word_t h) noexcept nogil:
        return self.mtab + (h & (self.memo_buckets - 1)) * self.bucket_words

    cdef inline bint _memo_lookup(self, const word_t *key, word_t h,
                                  count_t *out) noexcept nogil:
        # key: a live-item bitset (n_words words), h: its Zobrist hash
        cdef word_t *hdr = self._memo_bucket(h)
        cdef uint32_t *work = <uint32_t *>(hdr + 4)
        cdef word_t *slot
        cdef link_t s, k
        self.memo_lookups += 1
        for s in range(BUCKET):
            if hdr[s] != h or work[s] == 0:
                continue
            # the hash only picks candidates: the key is compared in full
            slot = hdr + 8 + s * (self.n_words + 2)
            k = 0
            while k < self.n_words and slot[k] == key[k]:
                k += 1
            if k == self.n_words:
                out[0] = ((<count_t>slot[k + 1]) << 64) | <count_t>slot[k]
                self.memo_hits += 1
                return True
        return False

    cdef inline void _memo_store(self, const word_t *key, word_t h,
                                 count_t value, word_t work) noexcept nogil:
        cdef word_t *hdr = self._memo_bucket(h)
        cdef uint32_t *mwork = <uint32_t *>(hdr + 4)
        cdef uint32_t *mgen = <uint32_t *>(hdr + 6)
        cdef uint32_t gen = <uint32_t>self.memo_gen
        cdef uint32_t w = <uint32_t>work if work < 0xFFFFFFFFULL else 0xFFFFFFFFU
        cdef link_t s, victim = 0
        cdef word_t *slot
        if w == 0:
            w = 1
        for s in range(BUCKET):
            if mwork[s] == 0:
                victim = s
                self.memo_used += 1
                break
            if mgen[s] < mgen[victim] or (
                    mgen[s] == mgen[victim] and mwork[s] < mwork[victim]):
                victim = s
        else:
            if mgen[victim] == gen and mwork[victim] > w:
                return
        hdr[victim] = h
        mwork[victim] = w
        mgen[victim] = gen
        slot = hdr + 8 + victim * (self.n_words + 2)
        memcpy(slot, key, self.n_words * sizeof(word_t))
        slot[self.n_words] = <word_t>value
        slot[self.n_words + 1] = <word_t>(value >> 64)
        self.memo_stores += 1

    cdef inline word_t _live_bits(self, link_t first, link_t n) noexcept nogil:
        # Live flags of items first .. first+n-1 (n <= 64) as bits 0 .. n-1.
        cdef link_t w = first >> 6, b = first & 63
        cdef word_t x = self.live[w] >> b
        if b + n > 64:
            x |= self.live[w + 1] << (64 - b)
        return x if n == 64 else x & (((<word_t>1) << n) - 1)

    cdef inline word_t _clear_group(self, word_t *key, link_t first, link_t n) noexcept nogil:
        # Clear the live items first .. first+n-1 in key; return the XOR of
        # their Zobrist words (what covering them adds to the hash).
        cdef link_t w = first >> 6, b = first & 63
        cdef word_t bits = self._live_bits(first, n), h = 0
        key[w] &= ~(bits << b)
        if b + n > 64:
            key[w + 1] &= ~(bits >> (64 - b))
        while bits:
            h ^= self.zobrist[first + __builtin_ctzll(bits)]
            bits &= bits - 1
        return h

    cdef bint _tail_count(self, count_t *out, word_t *work) noexcept nogil:
        # Read the rectangle (and the lead row) off the live bitset and count
        # it.  The sizes are checked first: each row needs as many symbols
        # as it has empty cells, each column as many as its empty cells, and
        # each box of the lead row as many as its empty cells there; if they
        # do not agree this is not the promised tail and the search goes on.
        cdef link_t R = self.tail_rows, N = self.tail_syms, S = self.tail_stacks
        cdef link_t r, c, s
        cdef word_t need[64]
        cdef word_t empty[64]
        cdef word_t colmask[64]
        cdef word_t boxneed[64]
        cdef link_t col_empty[64]
        cdef int live_rows = 0
        cdef word_t steps = 0, lead_empty = 0, lead_need = 0, union = 0, h, e
        for c in range(N):
            colmask[c] = self._live_bits(self.tail_colsym[c], N)
            col_empty[c] = 0
        for r in range(R):
            need[live_rows] = self._live_bits(self.tail_rowsym[r], N)
            e = empty[live_rows] = self._live_bits(self.tail_cell[r], N)
            if __builtin_popcountll(need[live_rows]) != __builtin_popcountll(e):
                return False
            while e:
                col_empty[__builtin_ctzll(e)] += 1
                e &= e - 1
            if empty[live_rows]:
                live_rows += 1
        if self.tail_lead:
            lead_need = self._live_bits(self.lead_rowsym, N)
            e = lead_empty = self._live_bits(self.lead_cell, N)
            while e:
                col_empty[__builtin_ctzll(e)] += 1
                e &= e - 1
            for s in range(S):
                boxneed[s] = self._live_bits(self.lead_box[s], N)
                union |= boxneed[s]
                if __builtin_popcountll(boxneed[s]) != \
                        __builtin_popcountll(lead_empty & self.lead_stackcols[s]):
                    return False
            if union != lead_need:
                return False
        for c in range(N):
            if __builtin_popcountll(colmask[c]) != col_empty[c]:
                return False
        if not self.tail_lead:
            out[0] = _tail_rows(live_rows, need, empty, colmask, &steps)
        else:
            # The key of the state after the lead row: its cells, its row's
            # symbols and its boxes' symbols are all covered by then (the
            # column symbols it takes are cleared as they are chosen).
            memcpy(self.tail_key, self.live, self.n_words * sizeof(word_t))
            h = self.zhash
            h ^= self._clear_group(self.tail_key, self.lead_cell, N)
            h ^= self._clear_group(self.tail_key, self.lead_rowsym, N)
            for s in range(S):
                h ^= self._clear_group(self.tail_key, self.lead_box[s], N)
            out[0] = self._tail_lead(lead_empty, lead_need, boxneed, self.tail_key, h,
                                     live_rows, need, empty, colmask, &steps)
        work[0] = steps + 1
        self.tail_calls += 1
        self.tail_steps += steps
        return True

    cdef count_t _tail_lead(self, word_t cols, word_t avail, const word_t *boxneed,
                            word_t *key, word_t h, int nrows, const word_t *need,
                            const word_t *empty, word_t *colmask,
                            word_t *steps) noexcept nogil:
        # Fill the lead row's empty cells `cols`: cell c takes a symbol its
        # column and its stack's box still lack.  Each filling leaves a
        # rectangle, looked up in (and stored to) the memo table under the
        # key the search itself would use there, or counted.
        cdef count_t total = 0, v
        cdef int c
        cdef link_t i
        cdef word_t cand, sbit, w0
        if cols == 0:
            if not self.memo_on:
                return _tail_rows(nrows, need, empty, colmask, steps)
            if self._memo_lookup(key, h, &v):
                return v
            w0 = steps[0]
            v = _tail_rows(nrows, need, empty, colmask, steps)
            self._memo_store(key, h, v, steps[0] - w0 + 1)
            return v
        c = __builtin_ctzll(cols)
        cand = colmask[c] & boxneed[self.lead_stack[c]] & avail
        while cand:
            sbit = cand & (~cand + 1)
            cand ^= sbit
            steps[0] += 1
            i = self.tail_colsym[c] + __builtin_ctzll(sbit)
            colmask[c] ^= sbit
            key[i >> 6] ^= (<word_t>1) << (i & 63)
            total += self._tail_lead(cols & (cols - 1), avail ^ sbit, boxneed, key,
                                     h ^ self.zobrist[i], nrows, need, empty,
                                     colmask, steps)
            key[i >> 6] ^= (<word_t>1) << (i & 63)
            colmask[c] ^= sbit
        return total

    # ------------------------------------------------------------------
    # the search (DLX1 §30-§35 as a resumable state machine)

    cdef int _run(self, bint stop_at_solution) except -1 nogil:
        """Run until done, a solution (if stop_at_solution), the limit, or
        a count overflow.  Returns an _RC_* code; -1 if a signal handler
        raised (the state is then consistent and can be unwound)."""
        cdef link_t lvl = self.level
        cdef link_t c, cur, p, n
        cdef bint all_terminal, memo_here
        cdef count_t cached
        cdef word_t tail_work
        while True:
            if self.phase == FORWARD:
                self.nodes += 1
                if (self.nodes & SIGNAL_MASK) == 0:
                    self.level = lvl
                    with gil:
                        PyErr_CheckSignals()
                if self.rl[0] == 0:
                    # every primary item is covered: a solution
                    self.solutions += 1
                    self.phase = LEAVE
                    if stop_at_solution:
                        self.level = lvl
                        return _RC_SOLUTION
                    if self.limit != 0 and self.solutions >= self.limit:
                        self.level = lvl
                        return _RC_LIMIT
                    continue
                # A memo point is the entry to a marked priority class; the
                # class is that of the first item of the ROOT list (the
                # branching item is chosen within it), so the lookup comes
                # before the choice and a hit skips it.
                memo_here = False
                c = self.rl[0]
                if self.memo_on:
                    if self.memo_all or (self.memo_class[c] and (
                            lvl == 0 or self.prio[c] != self.best_prio[lvl - 1])):
                        if self._memo_lookup(self.live, self.zhash, &cached):
                            if count_add_overflow(self.solutions, cached,
                                                  &self.solutions):
                                self.level = lvl
                                return _RC_OVERFLOW
                            self.phase = LEAVE
                            continue
                        memo_here = True
                # The tail: once its first class is reached, the rest is
                # counted in closed form (a miss above is stored as usual).
                if self.tail_on and self.prio[c] >= self.tail_prio and \
                        self._tail_count(&cached, &tail_work):
                    if count_add_overflow(self.solutions, cached, &self.solutions):
                        self.level = lvl
                        return _RC_OVERFLOW
                    self.phase = LEAVE
                    if memo_here:
                        self._memo_store(self.live, self.zhash, cached, tail_work)
                    continue
                c = self._choose()
                n = self.length[c]
                if n == 0:
                    self.dead_ends += 1
                    self.phase = LEAVE
                    if memo_here:
                        self._memo_store(self.live, self.zhash, 0, 1)
                    continue
                if not stop_at_solution and self.n_live_primary <= self.max_rsize:
                    # last level from lengths: every option of c that covers
                    # all remaining primaries completes a solution by itself
                    all_terminal = True
                    p = self.dl[c]
                    while p != c:
                        if self.rsize[self.orow[p]] != self.n_live_primary:
                            all_terminal = False
                            break
                        p = self.dl[p]
                    if all_terminal:
                        self.solutions += n
                        self.phase = LEAVE
                        if self.limit != 0 and self.solutions >= self.limit:
                            self.level = lvl
                            return _RC_LIMIT
                        if memo_here:
                            self._memo_store(self.live, self.zhash, <count_t>n, 1)
                        continue
                self.best[lvl] = c
                self.best_prio[lvl] = self.prio[c]
                if memo_here:
                    self.memo_pending[lvl] = 1
                    self.sol_at_entry[lvl] = self.solutions
                    self.nodes_at_entry[lvl] = self.nodes
                self._cover(c)
                self.choice[lvl] = self.dl[c]
                self.phase = ADVANCE
            elif self.phase == ADVANCE:
                cur = self.choice[lvl]
                if cur == self.best[lvl]:
                    self.phase = BACKUP
                    continue
                self._cover_row_rest(cur)
                lvl += 1
                self.phase = FORWARD
            elif self.phase == BACKUP:
                self._uncover(self.best[lvl])
                if self.memo_pending[lvl]:
                    # the state is again exactly the one at this node's entry
                    self.memo_pending[lvl] = 0
                    self._memo_store(self.live, self.zhash, self.solutions - self.sol_at_entry[lvl],
                                     self.nodes - self.nodes_at_entry[lvl])
                self.phase = LEAVE
            elif self.phase == LEAVE:
                if lvl == 0:
                    self.phase = DONE
                    self.level = 0
                    return _RC_DONE
                lvl -= 1
                self.phase = RECOVER
            elif self.phase == RECOVER:
                cur = self.choice[lvl]
                self._uncover_row_rest(cur)
                self.choice[lvl] = self.dl[cur]
                self.phase = ADVANCE
            else:
                self.level = lvl
                return _RC_DONE

    cdef void _unwind(self) noexcept nogil:
        """Undo a suspended search, then the givens: the matrix is pristine."""
        cdef link_t lvl = self.level
        cdef link_t k, q, j, p
        if self.running:
            if self.phase == ADVANCE or self.phase == BACKUP:
                # best[lvl] covered, no row of this level covered
                self._uncover(self.best[lvl])
            # FORWARD / LEAVE / DONE: nothing covered at lvl itself.
            # RECOVER at lvl: choice[lvl]'s rest is still covered.
            if self.phase == RECOVER:
                self._uncover_row_rest(self.choice[lvl])
                self._uncover(self.best[lvl])
            k = lvl - 1
            while k >= 0:
                self._uncover_row_rest(self.choice[k])
                self._uncover(self.best[k])
                k -= 1
            memset(self.memo_pending, 0, self.depth_cap)
            # givens: reverse order, each row's items right to left
            k = self.n_givens - 1
            while k >= 0:
                p = self.row_first[self.givens[k]]
                q = p
                while self.top[q + 1] > 0:
                    q += 1
                while q >= p:
                    self._uncover(self.top[q])
                    q -= 1
                k -= 1
        self.n_givens = 0
        self.level = 0
        self.phase = DONE
        self.running = False

    cdef void _copy_links(self, bint save) noexcept nogil:
        # The arrays a search changes (ll, rl, length, ul, dl, live), one
        # after the other in the block `pristine`: copied into it (save) or
        # back from it.
        cdef size_t ni = self.n_items + 2, nn = self.n_nodes, k
        cdef link_t *arrays[5]
        cdef size_t sizes[5]
        cdef char *block = <char *>self.pristine
        arrays[0] = self.ll; arrays[1] = self.rl; arrays[2] = self.length
        arrays[3] = self.ul; arrays[4] = self.dl
        sizes[0] = sizes[1] = sizes[2] = ni * sizeof(link_t)
        sizes[3] = sizes[4] = nn * sizeof(link_t)
        for k in range(5):
            if save:
                memcpy(block, arrays[k], sizes[k])
            else:
                memcpy(arrays[k], block, sizes[k])
            block += sizes[k]
        if save:
            memcpy(block, self.live, self.n_words * sizeof(word_t))
        else:
            memcpy(self.live, block, self.n_words * sizeof(word_t))

    cdef void _restore(self) noexcept nogil:
        """The end state of _unwind by copying: every array a search
        changes is set back from the copy in `pristine`, and the counters
        to their pristine values.  Undoing every cover restores a DLX
        matrix exactly (each list keeps its order), so the two agree;
        copying costs the same whatever the search did.  solve_batch only:
        no memo entry is pending there."""
        self._copy_links(False)
        self.zhash = 0
        self.n_live_primary = self.n_primary
        self.n_givens = 0
        self.level = 0
        self.phase = DONE
        self.running = False

    cdef int _save_pristine(self) except -1:
        """Copy the (pristine) link arrays for _restore, once; set the
        number of covered items from which copying is the cheaper undo."""
        cdef size_t ni = self.n_items + 2, nn = self.n_nodes
        cdef size_t n_links = 3 * ni + 2 * nn
        cdef double nnz, per_item
        if self.pristine != NULL:
            return 0
        self.pristine = <link_t *>malloc(n_links * sizeof(link_t)
                                         + self.n_words * sizeof(word_t))
        if self.pristine == NULL:
            raise MemoryError("cannot allocate the copy of the links")
        self._copy_links(True)
        # Uncovering an item relinks about (mean LEN) * (mean option
        # size - 1) nodes at ~12 instructions each; copying moves 32 bytes
        # in ~2.  Copy once the covered items would relink n_links / 8
        # nodes (measured on 9x9 Sudoku: results/bench_puzzles.md).
        nnz = <double>(self.n_nodes - self.n_items - 2 - self.n_rows)
        per_item = 0.0
        if self.n_items > 0 and self.n_rows > 0:
            per_item = (nnz / self.n_items) * (nnz / self.n_rows - 1.0)
        if per_item < 1.0:
            per_item = 1.0
        self.restore_covers = <link_t>(n_links / (8.0 * per_item)) + 1
        return 0

    # ------------------------------------------------------------------
    # Python-facing methods (called only by dlx.api)

    def start(self, cnp.int32_t[::1] given_rows not None, object limit,
              bint memo, bint memo_all, cnp.int8_t[::1] memo_class not None,
              bint tail=False):
        """Cover the given rows and arm a search (api checked them).
        memo_class[col] != 0: entering col's priority class is a memo point.
        tail: count the configured tail in closed form (counting only)."""
        cdef link_t k
        if self.running:
            self._unwind()
        if memo and self.memo_buckets == 0:
            raise RuntimeError("memo table not configured")
        if tail and self.tail_prio < 0:
            raise RuntimeError("tail not configured")
        self.nodes = self.dead_ends = self.updates = 0
        self.memo_lookups = self.memo_hits = self.memo_stores = 0
        self.tail_calls = self.tail_steps = 0
        self.tail_on = tail
        self.solutions = 0
        self.limit = 0 if limit is None else _int_to_count(limit)
        self.memo_on = memo
        self.memo_all = memo_all
        self.memo_gen += 1
        for k in range(self.n_items):
            self.memo_class[k + 1] = memo_class[k]
        self.n_givens = given_rows.shape[0]
        for k in range(self.n_givens):
            self.givens[k] = given_rows[k]
        if not self._apply_givens():
            raise ValueError("given rows share a column")

    cdef bint _apply_givens(self) noexcept nogil:
        """Cover the rows self.givens[0:n_givens] and arm the search.
        A given row with an item already covered conflicts with an earlier
        one: everything is undone and False returned."""
        cdef link_t k, p, q, i
        for k in range(self.n_givens):
            p = self.row_first[self.givens[k]]
            q = p
            while self.top[q] > 0:
                i = self.top[q]
                if not (self.live[i >> 6] >> (i & 63)) & 1:
                    # nothing of row k is covered yet (checked before any
                    # cover): undo rows 0..k-1 only
                    self.n_givens = k
                    self.running = True
                    self.phase = DONE
                    self.level = 0
                    self._unwind()
                    return False
                q += 1
            q = p
            while self.top[q] > 0:
                self._cover(self.top[q])
                q += 1
        self.running = True
        self.level = 0
        self.phase = FORWARD
        return True

    def solve_batch(self, cnp.int32_t[::1] indptr not None,
                    cnp.int32_t[::1] given not None, link_t limit,
                    cnp.int64_t[::1] out_count not None,
                    cnp.int32_t[:, ::1] out_rows not None):
        """Search one problem per range given[indptr[p]:indptr[p+1]].

        out_count[p]: solutions found, stopping at `limit` (-1 if the given
        rows conflict); out_rows[p]: the first solution's rows (givens
        first, then the search's choices, -1 padded).  The whole batch runs
        without the GIL (it is taken back only to check for Ctrl-C).
        """
        cdef Py_ssize_t n_prob = indptr.shape[0] - 1
        cdef Py_ssize_t width = out_rows.shape[1]
        cdef Py_ssize_t pb, k, j
        cdef link_t found
        cdef int rc
        if self.running:
            self._unwind()
        self._save_pristine()
        self.memo_on = False
        self.tail_on = False
        self.limit = 0
        self.nodes = self.dead_ends = self.updates = 0
        try:
            with nogil:
                for pb in range(n_prob):
                    self.n_givens = <link_t>(indptr[pb + 1] - indptr[pb])
                    for k in range(self.n_givens):
                        self.givens[k] = given[indptr[pb] + k]
                    for j in range(width):
                        out_rows[pb, j] = -1
                    if not self._apply_givens():
                        out_count[pb] = -1
                        continue
                    self.solutions = 0
                    found = 0
                    while found < limit:
                        rc = self._run(True)
                        if rc != _RC_SOLUTION:
                            break
                        found += 1
                        if found == 1:
                            j = 0
                            for k in range(self.n_givens):
                                if j < width:
                                    out_rows[pb, j] = self.givens[k]
                                j += 1
                            for k in range(self.level):
                                if j < width:
                                    out_rows[pb, j] = self.orow[self.choice[k]]
                                j += 1
                    out_count[pb] = found
                    if self.n_primary - self.n_live_primary >= self.restore_covers:
                        self._restore()
                    else:
                        self._unwind()
        except BaseException:
            self._unwind()
            raise

    def run(self, bint stop_at_solution):
        """Continue the armed search; returns an RC_* code."""
        cdef int rc
        if not self.running or self.phase == DONE:
            return RC_DONE
        try:
            with nogil:
                rc = self._run(stop_at_solution)
        except BaseException:
            self._unwind()
            raise
        return rc

    def solution_rows(self):
        """Rows of the solution the search is stopped at (givens first)."""
        cdef link_t k
        rows = [self.givens[k] for k in range(self.n_givens)]
        for k in range(self.level):
            rows.append(self.orow[self.choice[k]])
        return rows

    def finish(self):
        """Restore the pristine matrix (idempotent)."""
        self._unwind()

    def configure_memo(self, word_t max_bytes):
        """Allocate (or re-allocate) the memo table within max_bytes."""
        cdef word_t bucket_bytes = (8 + BUCKET * (self.n_words + 2)) * sizeof(word_t)
        cdef word_t buckets = 1
        cdef void *mem = NULL
        while buckets * 2 * bucket_bytes <= max_bytes:
            buckets *= 2
        if buckets * bucket_bytes > max_bytes:
            raise ValueError(
                f"memo budget of {max_bytes} bytes is below one bucket "
                f"({bucket_bytes} bytes)")
        free(self.mtab)
        self.mtab = NULL
        self.memo_buckets = 0
        # cache-line aligned, so a bucket header is one line
        if posix_memalign(&mem, 64, buckets * bucket_bytes) != 0:
            raise MemoryError("cannot allocate the memo table")
        memset(mem, 0, buckets * bucket_bytes)
        self.mtab = <word_t *>mem
        self.bucket_words = <link_t>(bucket_bytes // sizeof(word_t))
        self.memo_buckets = buckets
        self.memo_used = 0
        return buckets * bucket_bytes

    def configure_tail(self, link_t prio, cnp.int32_t[::1] cell not None,
                       cnp.int32_t[::1] rowsym not None,
                       cnp.int32_t[::1] colsym not None,
                       link_t lead_cell=-1, link_t lead_rowsym=-1,
                       cnp.int32_t[::1] lead_box=None,
                       cnp.int32_t[::1] lead_stack=None):
        """Declare that once the class `prio` is entered, the uncovered
        problem is the Latin rectangle on these 0-based columns, after the
        lead row if one is given.  Every argument is the first column of a
        group of N consecutive ones (api checked): cell and rowsym per row
        (R <= N <= 64), colsym per column; lead_cell, lead_rowsym, lead_box
        per stack (S), and lead_stack, the stack of each of the N cells."""
        cdef link_t R = cell.shape[0], N = colsym.shape[0], S = 0, r, k
        cdef bint lead = lead_box is not None
        free(self.tail_cell); free(self.tail_rowsym); free(self.tail_colsym)
        free(self.lead_box); free(self.lead_stack); free(self.lead_stackcols)
        free(self.tail_key)
        self.lead_box = self.lead_stack = NULL
        self.lead_stackcols = NULL
        self.tail_prio = -1
        self.tail_lead = False
        if lead:
            S = lead_box.shape[0]
        self.tail_cell = <link_t *>malloc(R * sizeof(link_t))
        self.tail_rowsym = <link_t *>malloc(R * sizeof(link_t))
        self.tail_colsym = <link_t *>malloc(N * sizeof(link_t))
        self.tail_key = <word_t *>malloc(self.n_words * sizeof(word_t))
        if lead:
            self.lead_box = <link_t *>malloc(S * sizeof(link_t))
            self.lead_stack = <link_t *>malloc(N * sizeof(link_t))
            self.lead_stackcols = <word_t *>calloc(S, sizeof(word_t))
        if (self.tail_cell == NULL or self.tail_rowsym == NULL or self.tail_colsym == NULL
                or self.tail_key == NULL or (lead and (
                    self.lead_box == NULL or self.lead_stack == NULL
                    or self.lead_stackcols == NULL))):
            raise MemoryError("cannot allocate the tail tables")
        for r in range(R):
            self.tail_cell[r] = cell[r] + 1
            self.tail_rowsym[r] = rowsym[r] + 1
        for k in range(N):
            self.tail_colsym[k] = colsym[k] + 1
        if lead:
            self.lead_cell = lead_cell + 1
            self.lead_rowsym = lead_rowsym + 1
            for r in range(S):
                self.lead_box[r] = lead_box[r] + 1
            for k in range(N):
                self.lead_stack[k] = lead_stack[k]
                self.lead_stackcols[lead_stack[k]] |= (<word_t>1) << k
        self.tail_rows = R
        self.tail_syms = N
        self.tail_stacks = S
        self.tail_lead = lead
        self.tail_prio = prio

    def clear_memo(self):
        if self.memo_buckets:
            memset(self.mtab, 0, self.memo_buckets * self.bucket_words * sizeof(word_t))
        self.memo_used = 0

    def stats(self):
        return {
            "nodes": self.nodes,
            "solutions": _count_to_int(self.solutions),
            "dead_ends": self.dead_ends,
            "updates": self.updates,
            "memo_lookups": self.memo_lookups,
            "memo_hits": self.memo_hits,
            "memo_stores": self.memo_stores,
            "memo_entries": self.memo_used,
            "memo_slots": self.memo_buckets * BUCKET,
            "memo_bytes": self.memo_buckets * self.bucket_words * sizeof(word_t),
            "tail_calls": self.tail_calls,
            "tail_steps": self.tail_steps,
        }

    def snapshot(self):
        """Copies of every link array (for tests: equal before and after)."""
        cdef link_t ni = self.n_items + 2
        cdef link_t nn = self.n_nodes
        return (np.asarray(<link_t[:ni]> self.ll).copy(),
                np.asarray(<link_t[:ni]> self.rl).copy(),
                np.asarray(<link_t[:ni]> self.length).copy(),
                np.asarray(<link_t[:nn]> self.ul).copy(),
                np.asarray(<link_t[:nn]> self.dl).copy(),
                np.asarray(<link_t[:nn]> self.top).copy())

    def check_invariants(self):
        """Walk every list; raise AssertionError on any inconsistency
        (DLX1 §12 `sanity`)."""
        cdef link_t i, p, n, prev, head, h, expected
        cdef link_t heads[2]
        if self.running:
            raise AssertionError("a search is in progress")
        for i in range(1, self.n_items + 1):
            n = 0
            prev = i
            p = self.dl[i]
            while p != i:
                if self.ul[p] != prev:
                    raise AssertionError(f"item {i}: up link of node {p} is {self.ul[p]}, expected {prev}")
                if self.top[p] != i:
                    raise AssertionError(f"item {i}: node {p} has top {self.top[p]}")
                n += 1
                prev = p
                p = self.dl[p]
                if n > self.n_nodes:
                    raise AssertionError(f"item {i}: vertical list does not close")
            if self.ul[i] != prev:
                raise AssertionError(f"item {i}: header up link {self.ul[i]}, expected {prev}")
            if n != self.length[i]:
                raise AssertionError(f"item {i}: LEN {self.length[i]} but {n} nodes")
            if not (self.live[i >> 6] >> (i & 63)) & 1:
                raise AssertionError(f"item {i}: marked covered")
        heads[0] = 0
        heads[1] = self.n_items + 1
        for h in range(2):
            head = heads[h]
            n = 0
            p = self.rl[head]
            prev = head
            while p != head:
                if self.ll[p] != prev:
                    raise AssertionError(f"item list: left link of {p} is {self.ll[p]}")
                prev = p
                p = self.rl[p]
                n += 1
                if n > self.n_items:
                    raise AssertionError("item list does not close")
            if self.ll[head] != prev:
                raise AssertionError("item list: head left link wrong")
            expected = self.n_primary if head == 0 else self.n_items - self.n_primary
            if n != expected:
                raise AssertionError(f"item list {head}: {n} items, expected {expected}")
        if self.n_live_primary != self.n_primary or self.zhash != 0:
            raise AssertionError("covered-item bookkeeping not restored")
