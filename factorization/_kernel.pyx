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
* ``F_4`` by its 2-factors (``_two_factors.pxi``, the default;
  ``Kernel(two_factor=False)`` keeps the rooted recurrence):
  ``F_4(G) = 6 · Σ 2^{c(K) + c(G - K)}`` over the 2-factors ``K`` through
  column 0's two lowest edges, one search with no matching inside (3.7 times
  faster on the 12 + 12 graphs of the 2x6 bands' layer 4:
  ``scripts/estimate_two_factor_route.py``).
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
    /* SWAR, inline: without -mpopcnt (no -march: see setup.py) __builtin_popcount
       is a call into libgcc, which was 15% of a layer transition's time */
    static inline int gc_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
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
# The memo: open addressing on (key, degree), bounded, insert-only
# ---------------------------------------------------------------------------
# Slots (_memo.h) are written once and published by a release store after a
# compare-and-swap claim, so the same code serves a private table and one
# mapped from a file shared by the processes of a machine
# (factorization/memo_file.py: the header before the slots is its business).
# A slot is believed only when published and its checksum matches.

cdef extern from "_memo.h":
    ctypedef struct gc_slot_t:
        uint32_t state
        uint32_t degree
        uint64_t key[4]
        uint64_t lo
        uint64_t hi
        uint64_t check
    enum:
        GC_EMPTY
        GC_CLAIMED
        GC_PUBLISHED
    uint32_t gc_load_state(gc_slot_t* s) noexcept nogil
    void gc_publish(gc_slot_t* s) noexcept nogil
    int gc_claim(gc_slot_t* s) noexcept nogil
    uint64_t gc_load_count(uint64_t* p) noexcept nogil
    void gc_add_count(uint64_t* p, uint64_t v) noexcept nogil
    uint64_t gc_slot_check(const gc_slot_t* s, uint64_t index) noexcept nogil

cdef enum:
    MAXPROBE = 4096         # slots probed at most: beyond, absent (lookup) or dropped (insert)

#: bytes before the slots in a memo file, and the offset of its shared
#: count of claimed slots (a uint64) within them
HEADER_BYTES = 4096
COUNT_OFFSET = 1024
SLOT_BYTES = sizeof(gc_slot_t)


cdef struct Ctx:
    int n                       # vertices per side
    int memo_min                # memoise F_d for d >= memo_min
    gc_slot_t* table            # capacity slots, NULL when no memo
    uint64_t capacity           # a power of two
    uint64_t* entries           # claimed slots (kept <= 3/4 capacity): own_entries or the file's
    uint64_t own_entries
    uint64_t hits, misses       # lookups
    uint64_t dropped            # results not stored because the table was full
    uint64_t damaged            # published slots of the key sought whose checksum failed
    uint64_t canon_calls        # canonical forms computed
    uint64_t canon_leaves       # their search-tree leaves
    uint64_t matchings          # perfect matchings enumerated
    bint two_factor             # F_4 by its 2-factors (_two_factors.pxi), else the rooted recurrence


cdef inline uint64_t _hash(const uint64_t* key, int d) noexcept nogil:
    cdef uint64_t h = <uint64_t>d
    cdef int w
    for w in range(KEYW):
        h = (h ^ key[w]) * _MIX
        h ^= h >> 29
    return h


cdef inline bint _holds(gc_slot_t* s, const uint64_t* key, int d) noexcept nogil:
    return s.degree == <uint32_t>d and s.key[0] == key[0] and s.key[1] == key[1] \
        and s.key[2] == key[2] and s.key[3] == key[3]


cdef bint _lookup(Ctx* X, const uint64_t* key, int d, gc_count_t* value) noexcept nogil:
    """Whether (key, d) is published with a valid checksum; its F in value."""
    cdef uint64_t mask = X.capacity - 1, i = _hash(key, d) & mask, p
    cdef uint64_t probes = X.capacity if X.capacity < MAXPROBE else MAXPROBE
    cdef gc_slot_t* s
    cdef uint32_t st
    for p in range(probes):
        s = &X.table[i]
        st = gc_load_state(s)
        if st == GC_EMPTY:
            return False
        if st == GC_PUBLISHED and _holds(s, key, d):
            if s.check == gc_slot_check(s, i):
                value[0] = ((<gc_count_t>s.hi) << 64) | <gc_count_t>s.lo
                return True
            X.damaged += 1                    # never believed: look further
        i = (i + 1) & mask
    return False


cdef void _insert(Ctx* X, const uint64_t* key, int d, gc_count_t value) noexcept nogil:
    """Publish (key, d) -> value in the first empty slot of its probe
    sequence, unless the table is 3/4 full or the key is there already."""
    cdef uint64_t mask = X.capacity - 1, i = _hash(key, d) & mask, p
    cdef uint64_t probes = X.capacity if X.capacity < MAXPROBE else MAXPROBE
    cdef gc_slot_t* s
    cdef uint32_t st
    cdef int w
    for p in range(probes):
        s = &X.table[i]
        st = gc_load_state(s)
        if st == GC_EMPTY:
            if 4 * (gc_load_count(X.entries) + 1) > 3 * X.capacity:
                break
            if gc_claim(s):
                gc_add_count(X.entries, 1)
                s.degree = <uint32_t>d
                for w in range(KEYW):
                    s.key[w] = key[w]
                s.lo = <uint64_t>value
                s.hi = <uint64_t>(value >> 64)
                s.check = gc_slot_check(s, i)
                gc_publish(s)
                return
            st = gc_load_state(s)             # another process claimed it first
        if st == GC_PUBLISHED and _holds(s, key, d) and s.check == gc_slot_check(s, i):
            return
        i = (i + 1) & mask
    X.dropped += 1


cdef uint64_t _memo_slots(unsigned char[::1] buf) except 0:
    """The slots of a memo file's mapped bytes ``buf``: a header of
    HEADER_BYTES, then a power of two of slots; ValueError otherwise."""
    cdef uint64_t cap = (<uint64_t>buf.shape[0] - HEADER_BYTES) // sizeof(gc_slot_t) \
        if buf.shape[0] > HEADER_BYTES else 0
    if cap == 0 or cap & (cap - 1) or HEADER_BYTES + cap * sizeof(gc_slot_t) != \
            <uint64_t>buf.shape[0]:
        raise ValueError(f"a memo buffer is {HEADER_BYTES} bytes and a power of two "
                         f"of {sizeof(gc_slot_t)}-byte slots, not {buf.shape[0]} bytes")
    return cap


def recount_claimed(memo_buffer):
    """Set the shared count of claimed slots of a memo file (``memo_buffer``,
    mapped as for :class:`Kernel`) to its slots that are not empty; return
    ``(the count before, the slots not empty)``.

    For a count that cannot be right (issue 38: the count is not under the
    header's checksum, since every process adds to it, and a count set to
    2^64 - 1 made the table look full for ever).  Other processes may be
    inserting meanwhile: the count moves by the difference in one atomic
    add, so their additions are kept, and it errs at most by the slots
    claimed during the scan.  Slots of any state but EMPTY count: an insert
    never claims them.
    """
    cdef unsigned char[::1] buf = memo_buffer
    cdef uint64_t cap = _memo_slots(buf), i, before, claimed = 0
    cdef gc_slot_t* table = <gc_slot_t*>&buf[HEADER_BYTES]
    cdef uint64_t* entries = <uint64_t*>&buf[COUNT_OFFSET]
    with nogil:
        before = gc_load_count(entries)
        for i in range(cap):
            if gc_load_state(&table[i]) != GC_EMPTY:
                claimed += 1
        gc_add_count(entries, claimed - before)     # modulo 2^64: a subtraction too
    return before, claimed


# ---------------------------------------------------------------------------
# Counting (_two_factors.pxi: F_4 by the 2-factor identity)
# ---------------------------------------------------------------------------

include "_two_factors.pxi"


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
    cdef bint memo = False
    cdef gc_count_t value
    cdef int n = X.n, s0, c
    if d <= 1:
        return 1
    if d == 2:
        return (<gc_count_t>1) << _cycles(n, adj)
    if X.table != NULL and d >= X.memo_min:
        X.canon_calls += 1
        X.canon_leaves += _canon(n, adj, key)
        if _lookup(X, key, d, &value):
            X.hits += 1
            return value
        X.misses += 1
        memo = True
    if d == 4 and X.two_factor and _four_regular(n, adj):
        value = _F4_two_factors(n, adj)
    else:
        for c in range(n):
            child[c] = adj[c]
        s0 = gc_ctz(adj[0])                   # the root edge e = (column 0, s0)
        child[0] = adj[0] & ~((<mask_t>1) << s0)
        value = <gc_count_t>d * _match(X, d, adj, child,
                                       (((<mask_t>1) << n) - 1) & ~(<mask_t>1), (<mask_t>1) << s0)
    if memo:
        _insert(X, key, d, value)
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

    The table is private (``calloc``, ``memo_mb`` MiB) or, with
    ``memo_buffer``, the slots of a memo file mapped by
    :mod:`factorization.memo_file` (``HEADER_BYTES`` of header, then the
    slots; the count of claimed slots at ``COUNT_OFFSET``), shared with
    every process that maps the same file.

    Private: :mod:`factorization.api` validates the inputs (``adj`` a
    C-contiguous uint32 array of ``n`` masks of a regular graph, the overflow
    bound) and documents the public behaviour.
    """
    cdef Ctx X
    cdef readonly int n
    cdef readonly object memo_mb
    cdef readonly bint shared
    cdef readonly bint two_factor   # F_4 by 2-factors (else by the rooted recurrence)
    cdef object _buffer             # the mapped file, kept alive while the kernel is

    def __cinit__(self, int n, double memo_mb=64.0, int memo_min=4, memo_buffer=None,
                  bint two_factor=True):
        if not 1 <= n <= MAXN:
            raise ValueError(f"n must be 1..{MAXN}, got {n}")
        memset(&self.X, 0, sizeof(Ctx))
        self.n = n
        self.X.n = n
        self.X.two_factor = two_factor
        self.two_factor = two_factor
        self.X.memo_min = memo_min
        self.X.entries = &self.X.own_entries
        cdef uint64_t cap = 0
        cdef unsigned char[::1] buf
        if memo_buffer is not None:
            buf = memo_buffer
            cap = _memo_slots(buf)
            self._buffer = buf
            self.shared = True
            self.X.table = <gc_slot_t*>&buf[HEADER_BYTES]
            self.X.entries = <uint64_t*>&buf[COUNT_OFFSET]
            self.memo_mb = cap * sizeof(gc_slot_t) / 1048576.0
        else:
            self.memo_mb = memo_mb
            if memo_mb > 0:
                cap = 1
                while cap * 2 * sizeof(gc_slot_t) <= <uint64_t>(memo_mb * 1048576.0):
                    cap *= 2
                self.X.table = <gc_slot_t*>calloc(cap, sizeof(gc_slot_t))
                if self.X.table == NULL:
                    raise MemoryError(f"memo table of {memo_mb} MiB")
        self.X.capacity = cap

    def __dealloc__(self):
        if not self.shared:
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
        """Memo and work counters as a dict (``entries``: the table's claimed
        slots, every process's when shared; the rest: this kernel's)."""
        return dict(entries=gc_load_count(self.X.entries), capacity=self.X.capacity,
                    bytes=self.X.capacity * sizeof(gc_slot_t), hits=self.X.hits,
                    misses=self.X.misses, dropped=self.X.dropped, damaged=self.X.damaged,
                    canon_calls=self.X.canon_calls, canon_leaves=self.X.canon_leaves,
                    matchings=self.X.matchings)

    def clear(self):
        """Zero the counters and empty a private table (a shared one is left
        as it is: other processes use it)."""
        if self.X.table != NULL and not self.shared:
            memset(self.X.table, 0, self.X.capacity * sizeof(gc_slot_t))
            self.X.own_entries = 0
        self.X.hits = self.X.misses = self.X.dropped = self.X.damaged = 0
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


# ---------------------------------------------------------------------------
# One layer of the layer method (_layer_steps.pxi: the canonical form;
# _layer_children.pxi: the rows and the children's table; _layer_table.pxi:
# LayerTable, layer_forms)
# ---------------------------------------------------------------------------

include "_layer_steps.pxi"
include "_layer_children.pxi"
include "_layer_table.pxi"
