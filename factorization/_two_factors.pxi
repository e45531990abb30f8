# F_4 of a 4-regular bipartite graph by its 2-factors (included by _kernel.pyx)
#
# Why: a 4-regular graph's ordered 1-factorizations (colours 1..4) are, for
# the fixed pairing {1,2} | {3,4} of the colours, exactly the pairs (a
# colouring of K with 1, 2; a colouring of G - K with 3, 4), where K is the
# spanning 2-regular subgraph of colours 1 and 2.  Every 2-factor K of G
# leaves a 2-factor G - K, and a 2-regular bipartite graph with c cycles has
# 2^c colourings with two given colours (each even cycle alternates in one
# of 2 ways, F_2 = 2^c).  Hence, exactly,
#
#     F_4(G) = Σ_{K 2-factor of G} 2^{c(K) + c(G - K)}.
#
# Only a third of the K are enumerated: let e, f be column 0's two lowest
# edges.  The colours are symmetric, so e and f have the colours 1, 2 (in
# this order) in F_4 / 12 of the colourings; in those K holds e and f, K's
# colourings are those of its cycles with e's colour fixed (2^{c(K) - 1}),
# G - K's are all 2^{c(G - K)}.  Hence also, exactly,
#
#     F_4(G) = 6 · Σ_{K 2-factor of G, e, f ∈ K} 2^{c(K) + c(G - K)},
#
# the form enumerated here (column 0's choice is fixed; each of its 3
# choices of a second edge gives F_4 / 6, so the first sum is 3 times as
# long).  [The rooted recurrence's F_4 = 12·Σ_{M ∋ e} Σ_{M' ∋ e'} 2^{c}
# visits about as many leaves; this one does no matching search inside.]
#
# The search: every column sends 2 of its 4 symbols to K and 2 to R = G - K,
# every symbol gets exactly 2 of each.  Columns are filled one at a time,
# always the one with the fewest admissible splits (fail first; one split:
# forced, none: a dead end).  Invariant of a node (struct TwoFactorSearch):
#
# * `cols`: the columns not filled; each filled column c has sent its K pair
#   and its R pair;
# * `once_k`, `full_k` (`once_r`, `full_r`): the symbols with exactly 1, 2
#   edges in K (in R) so far.  A symbol's 4 columns are its K edges, its R
#   edges and its unfilled columns, so a symbol full in R must go to K at
#   every unfilled column and one full in K to R: no other check is needed
#   for every symbol to end with 2 + 2;
# * `end_k[s]` (`end_r[s]`): for a symbol with fewer than 2 edges in K (R),
#   the other end of the path of K (R) it ends (itself if it has none): a
#   column joining the two ends of one path closes a cycle;
# * `cycles`: the cycles of K and of R closed so far.
#
# A leaf (every column filled) adds 2^cycles.  Everything is undone on the
# way back, so one struct serves the whole search.

cdef struct TwoFactorSearch:
    int n
    const mask_t* adj           # the graph, adj[c] = column c's 4 symbols
    mask_t once_k, full_k       # symbols with 1 / 2 edges in K
    mask_t once_r, full_r       # symbols with 1 / 2 edges in R = G - K
    int end_k[MAXN]             # path ends in K (see above)
    int end_r[MAXN]             # path ends in R
    int cycles                  # cycles of K and R closed


cdef inline int _join(int* end, int s, int t) noexcept nogil:
    """Join the path ends s and t by an edge (its column): 1 when that closes
    a cycle (t is the other end of s's path), else 0 and the paths merge."""
    cdef int a = end[s], b = end[t]
    if a == t:
        return 1
    end[a] = b
    end[b] = a
    return 0


cdef inline void _pair_in(mask_t* once, mask_t* full, mask_t pair) noexcept nogil:
    """Give both symbols of ``pair`` one more edge."""
    full[0] |= once[0] & pair
    once[0] = (once[0] ^ pair) & ~full[0]


cdef gc_count_t _two_factor_sum(TwoFactorSearch* S, mask_t cols) noexcept nogil:
    """Σ 2^{cycles of K and R} over the completions of the node (the
    invariant above) on the columns ``cols``."""
    cdef const mask_t* adj = S.adj
    cdef mask_t m, a, into, outof, best_into = 0, best_outof = 0, pair, rest, p, q
    cdef mask_t once_k, full_k, once_r, full_r
    cdef int c, best = -1, k_in, k_out, free_, ways, best_ways = 99, s, t, u, v, ck, cr
    cdef int ek_s, ek_t, er_u, er_v, ek_a, ek_b, er_a, er_b
    cdef gc_count_t total = 0
    if cols == 0:
        return (<gc_count_t>1) << S.cycles
    m = cols
    while m:                                  # fail first: fewest admissible splits
        c = gc_ctz(m)
        m &= m - 1
        a = S.adj[c]
        into = a & S.full_r                   # must go to K
        outof = a & S.full_k                  # must go to R
        k_in = gc_popcount(into)
        k_out = gc_popcount(outof)
        if k_in > 2 or k_out > 2:
            return 0
        free_ = 4 - k_in - k_out              # splits: 2 - k_in of the free symbols to K
        ways = 1 if k_in == 2 else (free_ if k_in == 1 else free_ * (free_ - 1) // 2)
        if ways < best_ways:
            best_ways = ways
            best = c
            best_into = into
            best_outof = outof
            if ways <= 1:
                break
    if best_ways == 0:
        return 0
    a = adj[best]
    once_k = S.once_k
    full_k = S.full_k
    once_r = S.once_r
    full_r = S.full_r
    p = a
    while p:                                  # the pair {s, t} sent to K, s < t
        s = gc_ctz(p)
        p &= p - 1
        q = p
        while q:
            t = gc_ctz(q)
            q &= q - 1
            pair = ((<mask_t>1) << s) | ((<mask_t>1) << t)
            if pair & best_into != best_into or pair & best_outof:
                continue
            rest = a & ~pair
            u = gc_ctz(rest)
            v = gc_ctz(rest & (rest - 1))
            # saved path ends: _join changes only end[end[s]] and end[end[t]]
            ek_a = S.end_k[s]
            ek_b = S.end_k[t]
            ek_s = S.end_k[ek_a]
            ek_t = S.end_k[ek_b]
            er_a = S.end_r[u]
            er_b = S.end_r[v]
            er_u = S.end_r[er_a]
            er_v = S.end_r[er_b]
            ck = _join(S.end_k, s, t)
            cr = _join(S.end_r, u, v)
            S.cycles += ck + cr
            _pair_in(&S.once_k, &S.full_k, pair)
            _pair_in(&S.once_r, &S.full_r, rest)
            total += _two_factor_sum(S, cols & ~((<mask_t>1) << best))
            S.once_k = once_k
            S.full_k = full_k
            S.once_r = once_r
            S.full_r = full_r
            S.cycles -= ck + cr
            S.end_k[ek_a] = ek_s
            S.end_k[ek_b] = ek_t
            S.end_r[er_a] = er_u
            S.end_r[er_b] = er_v
    return total


cdef bint _four_regular(int n, const mask_t* adj) noexcept nogil:
    """Whether every column and every symbol has exactly 4 edges: the search
    below assumes it (a column's R pair is what its K pair leaves), and the
    kernel's callers may ask F_4 of other graphs (factorization/estimate.py
    times ``count(g, memo_min)`` on graphs of lower degree), which then go
    to the rooted recurrence."""
    cdef mask_t adjT[MAXN]
    cdef int c
    _transpose(n, adj, adjT)
    for c in range(n):
        if gc_popcount(adj[c]) != 4 or gc_popcount(adjT[c]) != 4:
            return False
    return True


cdef gc_count_t _F4_two_factors(int n, const mask_t* adj) noexcept nogil:
    """F_4 of the 4-regular graph ``adj``: 6·Σ 2^{c(K) + c(G - K)} over the
    2-factors K through column 0's two lowest edges."""
    cdef TwoFactorSearch S
    cdef mask_t e, pair, rest
    cdef int s
    S.n = n
    S.adj = adj
    for s in range(n):
        S.end_k[s] = s
        S.end_r[s] = s
    e = adj[0] & (adj[0] - 1)                 # column 0 without its lowest symbol
    pair = adj[0] & ~(e & (e - 1))            # its two lowest symbols: e and f
    rest = adj[0] & ~pair
    S.once_k = pair                           # column 0 filled: its pairs are paths
    S.once_r = rest
    S.full_k = 0
    S.full_r = 0
    S.cycles = 0
    _join(S.end_k, gc_ctz(pair), gc_ctz(pair & (pair - 1)))
    _join(S.end_r, gc_ctz(rest), gc_ctz(rest & (rest - 1)))
    return 6 * _two_factor_sum(&S, (((<mask_t>1) << n) - 1) & ~(<mask_t>1))
