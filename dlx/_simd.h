/* Vector scans of a contiguous int32 array, for the engine's flat
   minimum-remaining-values choice (dlx/_engine.pyx: Engine._choose_flat).

   The primary items' LEN values sit in one array; a covered item carries
   COVERED (2**30) in its LEN, so it never wins a "below t" test and the
   scans need not follow links.  Sixteen elements per step in 4-lane
   vectors (GCC/Clang vector extensions: SSE2 on x86-64, NEON on ARM), with
   no branch per element.  Included once, by the generated _engine.c. */
#ifndef DLX_SIMD_H
#define DLX_SIMD_H

#include <stdint.h>

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

#endif /* DLX_SIMD_H */
