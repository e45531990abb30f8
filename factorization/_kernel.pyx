# cython: language_level=3
"""Private core of :mod:`factorization`: ordered 1-factorizations of regular
bipartite graphs, counted by perfect matchings, memoised on a canonical form.

A graph is ``n`` columns and ``n`` symbols (``n <= MAXN = 16``) given as
``adj[c]``, the bitmask of the symbols of column ``c``; it is ``d``-regular.
``F_d(G)`` is the number of ordered 1-factorizations (proper edge colourings
with colours ``1..d``); a ``d × n`` Latin rectangle whose column ``c`` holds
the set ``adj[c]`` is exactly one of them (row ``i`` = colour class ``i``).

Algorithms (the Python module :mod:`factorization.api` validates inputs,
checks the overflow bound and owns the public docstrings):

* ``F_1 = 1``; ``F_2 = 2^cycles`` (each cycle of a 2-regular graph
  alternates colours in one of 2 ways).
* Rooted recurrence, ``d >= 3``: every colouring gives the edge ``e``
  (column 0, its lowest symbol) one colour, the colours are symmetric, so
  ``F_d(G) = d · Σ_{M perfect matching ∋ e} F_{d-1}(G - M)``.  Matchings are
  enumerated column by column, always extending the column with the fewest
  free symbols (fail first).
* ``F_d`` depends only on the isomorphism class of ``G`` (columns and symbols
  permuted separately), so ``F_d`` for ``d >= memo_min`` is looked up in a
  bounded open-addressing table keyed by the canonical form (:func:`_canon`).

Counters are ``unsigned __int128``.  Overflow is impossible when
``(d!)^n < 2^127``: every column's ``d`` edges get distinct colours, so
``F_d <= (d!)^n``, and every partial sum is at most ``F_d / d``.  The caller
(:mod:`factorization.api`) checks that bound before calling in.

Canonical form
--------------
Individualisation-refinement, a small relative of nauty's.  The first
colouring of each side is an invariant: a vertex's histogram of common-
neighbour counts with the other vertices of its side (a regular graph gives
refinement nothing to split; this usually splits it completely, and cut the
form's cost from ~27 µs to ~3.6 µs on 4-regular graphs of 10 + 10).  Colour
classes of columns and of symbols are then refined by counting each vertex's neighbours in
every class of the other side (hashed, ordered by the hash: an invariant
order) until stable; then the first non-singleton class is split by
individualising each of its vertices in turn, recursively.  A leaf (all
classes singletons) labels the graph; the form is the least (trace, relabelled
adjacency) over the leaves, where the trace is the sequence of refinement
hashes on the path (subtrees whose trace is already larger are cut).  Twins
(same class, same neighbourhood) are tried once: swapping them is an
automorphism, so their subtrees give the same leaves.  The search runs on the
sparser of ``G`` and its complement (same automorphisms); graphs of degree
(or co-degree) ``<= 2`` are labelled directly by their cycle type.
The key is the canonical adjacency itself: 16 rows of 16 bits in four 64-bit
words, row ``4w`` in the high bits of word ``w`` (so keys compare as rows).
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef extern from *:
    """
    typedef unsigned __int128 gc_count_t;
    static inline int gc_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int gc_ctz(unsigned int x) { return __builtin_ctz(x); }
    """
    ctypedef unsigned long long gc_count_t  # really unsigned __int128 (C side only)
    int gc_popcount(unsigned int x) noexcept nogil
    int gc_ctz(unsigned int x) noexcept nogil

ctypedef uint32_t mask_t    # a set of columns or symbols (bit i = vertex i)

cdef enum:
    MAXN = 16               # vertices per side (a key row is 16 bits)
    KEYW = 4                # 64-bit words per key: MAXN rows of 16 bits
    MAXDEPTH = 40           # canonical search depth bound (<= 2·MAXN levels)
    MAXAUT = 48             # automorphisms kept for pruning (more are dropped)

cdef uint64_t _MIX = 0x9E3779B97F4A7C15ULL


# ---------------------------------------------------------------------------
# Small graph routines
# ---------------------------------------------------------------------------

cdef inline void _transpose(int n, const mask_t* adj, mask_t* adjT) noexcept nogil:
    """adjT[s] = the columns of symbol s."""
    cdef int c, s
    cdef mask_t m
    for s in range(n):
        adjT[s] = 0
    for c in range(n):
        m = adj[c]
        while m:
            s = gc_ctz(m)
            m &= m - 1
            adjT[s] |= (<mask_t>1) << c


cdef int _cycles(int n, const mask_t* adj) noexcept nogil:
    """Connected components of a graph (for a 2-regular graph: its cycles).

    Grows the column set of a component until it is closed under "shares a
    symbol"; n <= 16, so one pass per component is a few word operations.
    """
    cdef mask_t adjT[MAXN]
    cdef mask_t left = ((<mask_t>1) << n) - 1, comp, grow, syms, m
    cdef int count = 0, s
    _transpose(n, adj, adjT)
    while left:
        comp = left & (~left + 1)
        while True:
            syms = 0
            m = comp
            while m:
                syms |= adj[gc_ctz(m)]
                m &= m - 1
            grow = 0
            while syms:
                s = gc_ctz(syms)
                syms &= syms - 1
                grow |= adjT[s]
            if grow | comp == comp:
                break
            comp |= grow
        left &= ~comp
        count += 1
    return count


# ---------------------------------------------------------------------------
# Canonical form (_canon.pxi: Canon, _refine, _search, _label_cycles, _canon)
# ---------------------------------------------------------------------------

include "_canon.pxi"


# ---------------------------------------------------------------------------
# The memo: open addressing on (key, degree), bounded
# ---------------------------------------------------------------------------

cdef struct Slot:
    uint64_t key[KEYW]          # canonical adjacency
    gc_count_t value            # F_d of the class
    uint32_t degree             # d; 0 marks an empty slot


cdef struct Ctx:
    int n                       # vertices per side
    int memo_min                # memoise F_d for d >= memo_min
    Slot* table                 # capacity slots, NULL when no memo
    uint64_t capacity           # a power of two
    uint64_t entries            # slots in use (kept <= 3/4 capacity)
    uint64_t hits, misses       # lookups
    uint64_t dropped            # results not stored because the table was full
    uint64_t canon_calls        # canonical forms computed
    uint64_t canon_leaves       # their search-tree leaves
    uint64_t matchings          # perfect matchings enumerated


cdef inline uint64_t _hash(const uint64_t* key, int d) noexcept nogil:
    cdef uint64_t h = <uint64_t>d
    cdef int w
    for w in range(KEYW):
        h = (h ^ key[w]) * _MIX
        h ^= h >> 29
    return h


cdef Slot* _find(Ctx* X, const uint64_t* key, int d) noexcept nogil:
    """The slot holding (key, d), or the empty slot where it would go."""
    cdef uint64_t i = _hash(key, d) & (X.capacity - 1)
    cdef Slot* s
    while True:
        s = &X.table[i]
        if s.degree == 0:
            return s
        if s.degree == <uint32_t>d and s.key[0] == key[0] and s.key[1] == key[1] \
                and s.key[2] == key[2] and s.key[3] == key[3]:
            return s
        i = (i + 1) & (X.capacity - 1)


# ---------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------



cdef gc_count_t _match(Ctx* X, int d, const mask_t* adj, mask_t* child, mask_t cols,
                       mask_t used) noexcept nogil:
    """Σ F_{d-1}(G - M) over the perfect matchings M that extend the partial one
    on the columns outside ``cols`` (symbols ``used``); child holds G minus
    the matched edges of those columns."""
    cdef mask_t m, free_, best_free = 0
    cdef int c, best = -1, k, best_k = 99, s
    cdef gc_count_t total = 0
    if cols == 0:
        X.matchings += 1
        return _F(X, d - 1, child)
    m = cols
    while m:                                  # fail first: fewest free symbols
        c = gc_ctz(m)
        m &= m - 1
        free_ = adj[c] & ~used
        k = gc_popcount(free_)
        if k < best_k:
            best_k = k
            best = c
            best_free = free_
            if k <= 1:
                break
    if best_k == 0:
        return 0
    while best_free:
        s = gc_ctz(best_free)
        best_free &= best_free - 1
        child[best] = adj[best] & ~((<mask_t>1) << s)
        total += _match(X, d, adj, child, cols & ~((<mask_t>1) << best),
                        used | ((<mask_t>1) << s))
    child[best] = adj[best]
    return total


cdef gc_count_t _F(Ctx* X, int d, const mask_t* adj) noexcept nogil:
    """F_d of the d-regular graph adj (memoised for d >= memo_min)."""
    cdef mask_t child[MAXN]
    cdef uint64_t key[KEYW]
    cdef Slot* slot = NULL
    cdef gc_count_t value
    cdef int n = X.n, s0, c
    if d <= 1:
        return 1
    if d == 2:
        return (<gc_count_t>1) << _cycles(n, adj)
    if X.table != NULL and d >= X.memo_min:
        X.canon_calls += 1
        X.canon_leaves += _canon(n, adj, key)
        slot = _find(X, key, d)
        if slot.degree != 0:
            X.hits += 1
            return slot.value
        X.misses += 1
    for c in range(n):
        child[c] = adj[c]
    s0 = gc_ctz(adj[0])                       # the root edge e = (column 0, s0)
    child[0] = adj[0] & ~((<mask_t>1) << s0)
    value = <gc_count_t>d * _match(X, d, adj, child, (((<mask_t>1) << n) - 1) & ~(<mask_t>1),
                                   (<mask_t>1) << s0)
    if slot != NULL:
        # the recursion may have inserted keys: find the slot again
        slot = _find(X, key, d)
        if slot.degree == 0:
            if 4 * (X.entries + 1) <= 3 * X.capacity:
                memcpy(slot.key, key, sizeof(key))
                slot.value = value
                slot.degree = <uint32_t>d
                X.entries += 1
            else:
                X.dropped += 1
    return value


cdef int _children(Ctx* X, const mask_t* adj, mask_t* child, mask_t cols, mask_t used,
                   uint64_t* out, int64_t cap, int64_t* count) noexcept nogil:
    """Write the canonical key of G - M for every perfect matching M extending
    the partial one (as _match), KEYW words each; counts them all, writes the
    first cap."""
    cdef mask_t m, free_
    cdef int c, best = -1, k, best_k = 99, s
    cdef mask_t best_free = 0
    if cols == 0:
        if count[0] < cap:
            X.canon_calls += 1
            X.canon_leaves += _canon(X.n, child, out + KEYW * count[0])
        count[0] += 1
        return 0
    m = cols
    while m:
        c = gc_ctz(m)
        m &= m - 1
        free_ = adj[c] & ~used
        k = gc_popcount(free_)
        if k < best_k:
            best_k = k
            best = c
            best_free = free_
    while best_free:
        s = gc_ctz(best_free)
        best_free &= best_free - 1
        child[best] = adj[best] & ~((<mask_t>1) << s)
        _children(X, adj, child, cols & ~((<mask_t>1) << best), used | ((<mask_t>1) << s),
                  out, cap, count)
    child[best] = adj[best]
    return 0


# ---------------------------------------------------------------------------
# Python-visible owner of the memo
# ---------------------------------------------------------------------------

cdef inline object _to_int(gc_count_t v):
    cdef uint64_t lo = <uint64_t>v
    cdef uint64_t hi = <uint64_t>(v >> 64)
    return (int(hi) << 64) | int(lo)


cdef class Kernel:
    """Counts for graphs with ``n`` vertices a side; owns the memo table.

    Private: :mod:`factorization.api` validates the inputs (``adj`` a
    C-contiguous uint32 array of ``n`` masks of a regular graph, the overflow
    bound) and documents the public behaviour.
    """
    cdef Ctx X
    cdef readonly int n
    cdef readonly object memo_mb

    def __cinit__(self, int n, double memo_mb=64.0, int memo_min=4):
        if not 1 <= n <= MAXN:
            raise ValueError(f"n must be 1..{MAXN}, got {n}")
        memset(&self.X, 0, sizeof(Ctx))
        self.n = n
        self.memo_mb = memo_mb
        self.X.n = n
        self.X.memo_min = memo_min
        cdef uint64_t cap = 0
        if memo_mb > 0:
            cap = 1
            while cap * 2 * sizeof(Slot) <= <uint64_t>(memo_mb * 1048576.0):
                cap *= 2
            self.X.table = <Slot*>calloc(cap, sizeof(Slot))
            if self.X.table == NULL:
                raise MemoryError(f"memo table of {memo_mb} MiB")
        self.X.capacity = cap

    def __dealloc__(self):
        free(self.X.table)

    def count(self, const uint32_t[::1] adj, int d):
        """F_d of the graph (Python int)."""
        cdef gc_count_t v
        with nogil:
            v = _F(&self.X, d, &adj[0])
        return _to_int(v)

    def canonical(self, const uint32_t[::1] adj):
        """The canonical key: a tuple of KEYW ints."""
        cdef uint64_t key[KEYW]
        with nogil:
            _canon(self.n, &adj[0], key)
        return (key[0], key[1], key[2], key[3])

    def children(self, const uint32_t[::1] adj, bint rooted):
        """Canonical keys of G - M, one row per perfect matching M (containing
        the root edge when rooted), as a (m, 4) uint64 array."""
        cdef int n = self.n, c, s0
        cdef mask_t child[MAXN]
        cdef int64_t count = 0, total
        cdef mask_t cols = (((<mask_t>1) << n) - 1), used = 0
        cdef cnp.ndarray[cnp.uint64_t, ndim=2] out
        for c in range(n):
            child[c] = adj[c]
        if rooted:
            s0 = gc_ctz(adj[0])
            child[0] = adj[0] & ~((<mask_t>1) << s0)
            cols &= ~(<mask_t>1)
            used = (<mask_t>1) << s0
        with nogil:                           # first pass: how many
            _children(&self.X, &adj[0], child, cols, used, NULL, 0, &count)
        total = count
        out = np.zeros((max(total, 1), KEYW), dtype=np.uint64)
        count = 0
        with nogil:
            _children(&self.X, &adj[0], child, cols, used, <uint64_t*>out.data, total, &count)
        return out[:total]

    def stats(self):
        """Memo and work counters as a dict."""
        return dict(entries=self.X.entries, capacity=self.X.capacity,
                    bytes=self.X.capacity * sizeof(Slot), hits=self.X.hits,
                    misses=self.X.misses, dropped=self.X.dropped,
                    canon_calls=self.X.canon_calls, canon_leaves=self.X.canon_leaves,
                    matchings=self.X.matchings)

    def clear(self):
        """Empty the memo and zero the counters."""
        if self.X.table != NULL:
            memset(self.X.table, 0, self.X.capacity * sizeof(Slot))
        self.X.entries = self.X.hits = self.X.misses = self.X.dropped = 0
        self.X.canon_calls = self.X.canon_leaves = self.X.matchings = 0


def key_to_adj(key, int n):
    """Adjacency masks (uint32 array) of a canonical key."""
    cdef uint64_t k[KEYW]
    cdef mask_t adj[MAXN]
    cdef int i
    for i in range(KEYW):
        k[i] = key[i]
    _unkey(n, k, adj)
    return np.array([adj[i] for i in range(n)], dtype=np.uint32)


def cycles(const uint32_t[::1] adj):
    """Connected components of the graph (cycles of a 2-regular graph)."""
    return _cycles(adj.shape[0], &adj[0])
