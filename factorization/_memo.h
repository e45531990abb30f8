/* The memo slot of the factorization kernel and the atomic operations on it.
 *
 * One slot is 64 bytes; the same layout serves the private table (calloc) and
 * the table shared by the processes of a machine (a file mapped MAP_SHARED,
 * factorization/memo_file.py).  A slot is written once: its state goes
 * EMPTY -> CLAIMED (compare-and-swap: one writer wins) -> PUBLISHED (a release
 * store, after key, degree, value and checksum are written), and a reader
 * believes it only after an acquire load of PUBLISHED and a matching checksum.
 */
#ifndef GC_FACTOR_MEMO_H
#define GC_FACTOR_MEMO_H
#include <stdint.h>

typedef struct {
    uint32_t state;      /* GC_EMPTY, GC_CLAIMED or GC_PUBLISHED; anything else: damaged */
    uint32_t degree;     /* d of F_d */
    uint64_t key[4];     /* the canonical adjacency */
    uint64_t lo, hi;     /* F_d, 128 bits */
    uint64_t check;      /* gc_slot_check of the fields above and the slot's index */
} gc_slot_t;

enum { GC_EMPTY = 0, GC_CLAIMED = 1, GC_PUBLISHED = 2 };

static inline uint32_t gc_load_state(gc_slot_t *s) {
    return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
}
static inline void gc_publish(gc_slot_t *s) {
    __atomic_store_n(&s->state, (uint32_t)GC_PUBLISHED, __ATOMIC_RELEASE);
}
static inline int gc_claim(gc_slot_t *s) {      /* EMPTY -> CLAIMED; 1 when this caller won */
    uint32_t expected = GC_EMPTY;
    return __atomic_compare_exchange_n(&s->state, &expected, (uint32_t)GC_CLAIMED, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint64_t gc_load_count(uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void gc_add_count(uint64_t *p, uint64_t v) {
    __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

static inline uint64_t gc_mix(uint64_t h, uint64_t x) {
    h = (h ^ x) * 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 33);
}
/* A checksum of a slot's contents at its index: a torn, damaged or moved slot fails it. */
static inline uint64_t gc_slot_check(const gc_slot_t *s, uint64_t index) {
    uint64_t h = gc_mix(0x6772696463756e74ULL, index);   /* "gridcunt" */
    h = gc_mix(h, s->degree);
    h = gc_mix(h, s->key[0]); h = gc_mix(h, s->key[1]);
    h = gc_mix(h, s->key[2]); h = gc_mix(h, s->key[3]);
    h = gc_mix(h, s->lo); h = gc_mix(h, s->hi);
    return h;
}
#endif
