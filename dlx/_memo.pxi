# The memo table: counts of subproblems keyed on their set of uncovered
# items (included by _engine.pyx; the MemoTable struct and its bucket
# layout are in _engine.pxd).
#
# Why a subproblem's count can be cached under that set (Nishino, Yasuda,
# Minato, Nagata, AAAI 2017): the options still available and the items
# still to cover are determined by which items are uncovered, so two nodes
# with the same live bitset have the same number of completions.  Keys are
# exact states of one matrix, so an entry stays valid across count calls
# (and across givens): old entries are kept for hits.
#
# BUCKET-way buckets.  A lookup reads the bucket's header line, and on a
# hash match the slot's key and count, which share a line when
# key_words + 2 == 8 (9x9 Sudoku).  The hash only picks the bucket and the
# candidate slots: the key is always compared in full, so a collision can
# cost a miss but never a wrong count.  On a full bucket an entry stored by
# an earlier count call makes room first, the oldest first; among entries of
# this call, the one with the smallest subtree makes room, unless the new
# one is smaller still.

cdef extern from "stdlib.h":
    int posix_memalign(void **memptr, size_t alignment, size_t size) nogil

cdef enum:
    BUCKET = 4                  # slots per memo bucket


cdef inline void _memo_init(MemoTable *t, link_t key_words) noexcept nogil:
    # An empty, unallocated table for keys of key_words words.
    memset(t, 0, sizeof(MemoTable))
    t.key_words = key_words


cdef inline word_t _memo_bucket_bytes(const MemoTable *t) noexcept nogil:
    return (8 + BUCKET * (t.key_words + 2)) * sizeof(word_t)


cdef word_t _memo_alloc(MemoTable *t, word_t max_bytes) except 0:
    """(Re-)allocate the table as the largest power-of-two number of buckets
    within max_bytes, zeroed (every slot empty); return its size in bytes.
    The old entries are dropped.  Raises ValueError below one bucket."""
    cdef word_t bucket_bytes = _memo_bucket_bytes(t)
    cdef word_t buckets = 1
    cdef void *mem = NULL
    while buckets * 2 * bucket_bytes <= max_bytes:
        buckets *= 2
    if buckets * bucket_bytes > max_bytes:
        raise ValueError(
            f"memo budget of {max_bytes} bytes is below one bucket "
            f"({bucket_bytes} bytes)")
    free(t.words)
    t.words = NULL
    t.buckets = 0
    # cache-line aligned, so a bucket header is one line
    if posix_memalign(&mem, 64, buckets * bucket_bytes) != 0:
        raise MemoryError("cannot allocate the memo table")
    memset(mem, 0, buckets * bucket_bytes)
    t.words = <word_t *>mem
    t.bucket_words = <link_t>(bucket_bytes // sizeof(word_t))
    t.buckets = buckets
    t.used = 0
    return buckets * bucket_bytes


cdef inline void _memo_clear(MemoTable *t) noexcept nogil:
    # Empty every slot (work 0), keeping the allocation.
    if t.buckets:
        memset(t.words, 0, t.buckets * t.bucket_words * sizeof(word_t))
    t.used = 0


cdef inline word_t *_memo_bucket(const MemoTable *t, word_t h) noexcept nogil:
    return t.words + (h & (t.buckets - 1)) * t.bucket_words


cdef inline bint _memo_lookup(MemoTable *t, const word_t *key, word_t h,
                              count_t *out) noexcept nogil:
    # key: a live-item bitset (key_words words), h: its Zobrist hash.
    # True with out[0] = the cached count when key is in the table.
    cdef word_t *hdr = _memo_bucket(t, h)
    cdef uint32_t *work = <uint32_t *>(hdr + 4)
    cdef word_t *slot
    cdef link_t s, k
    t.lookups += 1
    for s in range(BUCKET):
        if hdr[s] != h or work[s] == 0:
            continue
        # the hash only picks candidates: the key is compared in full
        slot = hdr + 8 + s * (t.key_words + 2)
        k = 0
        while k < t.key_words and slot[k] == key[k]:
            k += 1
        if k == t.key_words:
            out[0] = ((<count_t>slot[k + 1]) << 64) | <count_t>slot[k]
            t.hits += 1
            return True
    return False


cdef inline void _memo_store(MemoTable *t, const word_t *key, word_t h,
                             count_t value, word_t work) noexcept nogil:
    # Cache value (the exact count of key's subproblem, found with `work`
    # nodes) in h's bucket, or drop it when every slot holds an entry of
    # this call with a larger subtree.
    cdef word_t *hdr = _memo_bucket(t, h)
    cdef uint32_t *mwork = <uint32_t *>(hdr + 4)
    cdef uint32_t *mgen = <uint32_t *>(hdr + 6)
    cdef uint32_t gen = <uint32_t>t.gen
    cdef uint32_t w = <uint32_t>work if work < 0xFFFFFFFFULL else 0xFFFFFFFFU
    cdef link_t s, victim = 0
    cdef word_t *slot
    if w == 0:
        w = 1
    for s in range(BUCKET):
        if mwork[s] == 0:
            victim = s
            t.used += 1
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
    slot = hdr + 8 + victim * (t.key_words + 2)
    memcpy(slot, key, t.key_words * sizeof(word_t))
    slot[t.key_words] = <word_t>value
    slot[t.key_words + 1] = <word_t>(value >> 64)
    t.stores += 1
