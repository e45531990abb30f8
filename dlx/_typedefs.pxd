# Types shared by the compiled modules (one place, as sklearn/utils/_typedefs).
from libc.stdint cimport int32_t, uint64_t

ctypedef int32_t link_t     # an index into the node or item arrays
ctypedef uint64_t word_t    # a 64-bit word: statistics, bitsets, hashes

cdef extern from *:
    """
    typedef unsigned __int128 gc_count_t;
    static inline int gc_add_overflow(gc_count_t a, gc_count_t b, gc_count_t *r) {
        return __builtin_add_overflow(a, b, r);
    }
    """
    # Solution counts: 128-bit unsigned (gcc/clang extension).  Cython only
    # needs to know it is an unsigned integer; conversions go through two
    # 64-bit halves (see _engine.pyx: _count_to_int).
    ctypedef unsigned long long count_t "gc_count_t"
    int count_add_overflow "gc_add_overflow" (count_t a, count_t b, count_t *r) noexcept nogil
