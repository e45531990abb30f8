# Included by _kernel.pyx (one compilation unit): the canonical form.
#
# Individualisation-refinement on a regular bipartite graph with the two
# sides kept apart; see the module docstring of _kernel.pyx for the method.
# Entry point: _canon(n, adj, key) writes the canonical key (the canonical
# adjacency, 16 rows of 16 bits in four words) and returns the leaves
# visited; _unkey decodes a key.  Invariants:
#   * colours are ranks of invariant keys, so every choice below depends only
#     on the graph up to isomorphism (never on vertex numbers), except the
#     order in which a class's vertices are tried, which only affects speed;
#   * a subtree is skipped only when it is the image of one already searched
#     under an automorphism (twins; found automorphisms fixing the path), or
#     when its trace already exceeds the best leaf's.

# ---------------------------------------------------------------------------
# Canonical form
# ---------------------------------------------------------------------------

#: The canonical form's version: raise it whenever any graph's canonical key
#: could change.  Unit ids of the ``factor`` reduction are positions in the
#: order of canonical keys, so a store records it (the job's engine version)
#: and a memo file is named by it.  Version 1: the search from a uniform
#: colouring (automorphism pruning included), 2026-11-24 to 2026-11-26;
#: version 2: the search from the common-neighbour colouring (2026-11-26).
CANON_VERSION = 2

cdef struct Canon:
    int n                       # vertices per side
    mask_t adj[MAXN]            # the (sparser) graph searched: column -> symbols
    mask_t adjT[MAXN]           # its transpose: symbol -> columns
    int have_best               # a leaf has been recorded
    int best_depth              # depth of the best leaf
    uint64_t best_trace[MAXDEPTH]  # traces along the best leaf's path
    uint64_t cur_trace[MAXDEPTH]   # traces along the current path
    uint16_t best_rows[MAXN]    # relabelled adjacency at the best leaf
    uint8_t best_col[MAXN]      # column -> position at the best leaf
    uint8_t best_sym[MAXN]      # symbol -> label at the best leaf
    uint64_t updates            # bumped whenever best changes
    uint64_t leaves             # leaves reached (statistics)
    int naut                    # automorphisms found (at most MAXAUT kept)
    uint8_t aut_col[MAXAUT][MAXN]  # automorphism k: column x -> aut_col[k][x]
    uint8_t aut_sym[MAXAUT][MAXN]  # and symbol x -> aut_sym[k][x]
    uint8_t path_side[MAXDEPTH]    # vertex individualised at each depth: side
    uint8_t path_v[MAXDEPTH]       # and index


cdef uint64_t _rank(int n, uint64_t* key, uint8_t* colour, int* ncells) noexcept nogil:
    """Replace each vertex's colour by the rank of its key among the distinct
    keys; returns a hash of the sorted distinct keys (an invariant)."""
    cdef uint64_t sorted_[MAXN]
    cdef uint8_t at[MAXN]                    # sorted_[i] is the key of vertex at[i]
    cdef uint64_t t, h = 0
    cdef int i, j, m = 0
    for i in range(n):                       # insertion sort, n <= 16
        t = key[i]
        j = i
        while j > 0 and sorted_[j - 1] > t:
            sorted_[j] = sorted_[j - 1]
            at[j] = at[j - 1]
            j -= 1
        sorted_[j] = t
        at[j] = <uint8_t>i
    for i in range(n):                       # ranks of the distinct keys
        if i == 0 or sorted_[i - 1] != sorted_[i]:
            h = (h ^ sorted_[i]) * _MIX + <uint64_t>m
            m += 1
        colour[at[i]] = <uint8_t>(m - 1)
    ncells[0] = m
    return h


cdef uint64_t _refine(Canon* C, uint8_t* colc, uint8_t* syc, int* ncc, int* nsc) noexcept nogil:
    """Refine the colourings of columns (colc) and symbols (syc) until no class
    splits.  A vertex's key is its old colour (top bits, so classes only
    split) and a hash of its neighbour counts in each class of the other
    side.  Returns the trace: the number of classes in the top byte, a hash of
    all the rounds' keys below (equal traces imply equal class counts)."""
    cdef int n = C.n, c, j, before
    cdef mask_t cells[MAXN]
    cdef uint64_t key[MAXN]
    cdef uint64_t h, trace = 0
    while True:
        before = ncc[0] + nsc[0]
        # columns against the symbol classes
        for j in range(nsc[0]):
            cells[j] = 0
        for c in range(n):
            cells[syc[c]] |= (<mask_t>1) << c
        for c in range(n):
            h = colc[c]
            for j in range(nsc[0]):
                h = h * _MIX + <uint64_t>gc_popcount(C.adj[c] & cells[j])
            key[c] = ((<uint64_t>colc[c]) << 58) | ((h * _MIX) >> 6)
        trace = trace * _MIX + _rank(n, key, colc, ncc)
        # symbols against the column classes
        for j in range(ncc[0]):
            cells[j] = 0
        for c in range(n):
            cells[colc[c]] |= (<mask_t>1) << c
        for c in range(n):
            h = syc[c]
            for j in range(ncc[0]):
                h = h * _MIX + <uint64_t>gc_popcount(C.adjT[c] & cells[j])
            key[c] = ((<uint64_t>syc[c]) << 58) | ((h * _MIX) >> 6)
        trace = trace * _MIX + _rank(n, key, syc, nsc)
        if ncc[0] + nsc[0] == before:
            break
    return ((<uint64_t>(ncc[0] + nsc[0])) << 56) | (trace >> 8)


cdef void _record_automorphism(Canon* C, const uint8_t* colc, const uint8_t* syc) noexcept nogil:
    """A leaf equal to the best one: the map best leaf -> this leaf (vertex
    with position p at the best leaf -> vertex with position p here) is an
    automorphism fixing every vertex individualised on their common path."""
    cdef uint8_t inv_c[MAXN]
    cdef uint8_t inv_s[MAXN]
    cdef int x, n = C.n, ident = 1
    if C.naut >= MAXAUT:
        return
    for x in range(n):
        inv_c[colc[x]] = <uint8_t>x
        inv_s[syc[x]] = <uint8_t>x
    for x in range(n):
        C.aut_col[C.naut][x] = inv_c[C.best_col[x]]
        C.aut_sym[C.naut][x] = inv_s[C.best_sym[x]]
        if C.aut_col[C.naut][x] != x or C.aut_sym[C.naut][x] != x:
            ident = 0
    if not ident:
        C.naut += 1


cdef inline int _root(uint8_t* par, int x) noexcept nogil:
    while par[x] != x:
        x = par[x]
    return x


cdef int _in_tried_orbit(Canon* C, int depth, int side, mask_t cell, int v,
                         const uint8_t* tried_v, int tried) noexcept nogil:
    """Whether v lies in the orbit of a tried vertex under the automorphisms
    found so far that fix the path to this node pointwise (generators only:
    a sub-orbit, so a skip is always justified: the subtrees of v and of that
    vertex are images of each other and give the same leaves)."""
    cdef uint8_t par[MAXN]
    cdef const uint8_t* g
    cdef const uint8_t* gc
    cdef const uint8_t* gs
    cdef int k, t, x, a, b, ok
    cdef mask_t m
    if C.naut == 0:
        return 0
    for x in range(C.n):
        par[x] = <uint8_t>x
    for k in range(C.naut):
        gc = C.aut_col[k]
        gs = C.aut_sym[k]
        ok = 1
        for t in range(depth):
            x = C.path_v[t]
            if (gc[x] if C.path_side[t] == 0 else gs[x]) != x:
                ok = 0
                break
        if not ok:
            continue
        g = gc if side == 0 else gs
        m = cell
        while m:
            x = gc_ctz(m)
            m &= m - 1
            a = _root(par, x)
            b = _root(par, g[x])
            if a != b:
                par[a if a > b else b] = <uint8_t>(b if a > b else a)
    a = _root(par, v)
    for t in range(tried):
        if _root(par, tried_v[t]) == a:
            return 1
    return 0


cdef void _search(Canon* C, int depth, uint8_t* colc0, uint8_t* syc0, int ncc, int nsc,
                  int cmp) noexcept nogil:
    """One node of the search tree.  cmp: 0 when the path's traces so far equal
    the best leaf's, -1 when they are smaller (or there is no best yet)."""
    cdef int n = C.n, c, i, cell, side, v, tried, is_twin
    cdef uint8_t colc[MAXN]
    cdef uint8_t syc[MAXN]
    cdef uint8_t kc[MAXN]
    cdef uint8_t ks[MAXN]
    cdef uint16_t rows[MAXN]
    cdef mask_t members, m
    cdef mask_t tried_nb[MAXN]
    cdef mask_t cell_members
    cdef uint8_t tried_v[MAXN]
    cdef uint64_t tr, seen
    cdef int kncc, knsc
    memcpy(colc, colc0, n)
    memcpy(syc, syc0, n)
    tr = _refine(C, colc, syc, &ncc, &nsc)
    C.cur_trace[depth] = tr
    if not C.have_best:
        cmp = -1
    elif cmp == 0:
        if depth > C.best_depth or tr > C.best_trace[depth]:
            return
        if tr < C.best_trace[depth]:
            cmp = -1
    if ncc == n and nsc == n:
        # leaf: relabel; rows[position of column] = relabelled symbol set
        C.leaves += 1
        for c in range(n):
            m = C.adj[c]
            rows[colc[c]] = 0
            while m:
                i = gc_ctz(m)
                m &= m - 1
                rows[colc[c]] |= <uint16_t>(1 << syc[i])
        if cmp == 0:
            i = 0
            while i < n and rows[i] == C.best_rows[i]:
                i += 1
            if i == n:
                _record_automorphism(C, colc, syc)
                return
            if rows[i] > C.best_rows[i]:
                return
        C.have_best = 1
        C.best_depth = depth
        memcpy(C.best_trace, C.cur_trace, (depth + 1) * sizeof(uint64_t))
        memcpy(C.best_rows, rows, n * sizeof(uint16_t))
        memcpy(C.best_col, colc, n)
        memcpy(C.best_sym, syc, n)
        C.updates += 1
        return
    # target: the first non-singleton class, columns before symbols
    side = 0 if ncc < n else 1
    cell = 0
    while True:
        members = 0
        for c in range(n):
            if (colc[c] if side == 0 else syc[c]) == cell:
                members |= (<mask_t>1) << c
        if members & (members - 1):
            break
        cell += 1
    tried = 0
    cell_members = members
    while members:
        v = gc_ctz(members)
        members &= members - 1
        is_twin = 0
        for i in range(tried):
            if tried_nb[i] == (C.adj[v] if side == 0 else C.adjT[v]):
                is_twin = 1
                break
        if is_twin or (tried and _in_tried_orbit(C, depth, side, cell_members, v, tried_v,
                                                 tried)):
            continue
        tried_nb[tried] = C.adj[v] if side == 0 else C.adjT[v]
        tried_v[tried] = <uint8_t>v
        tried += 1
        C.path_side[depth] = <uint8_t>side
        C.path_v[depth] = <uint8_t>v
        # individualise v: it comes first in its class (colours doubled)
        for c in range(n):
            kc[c] = <uint8_t>(2 * colc[c] + (1 if side == 0 and c != v and colc[c] == cell else 0))
            ks[c] = <uint8_t>(2 * syc[c] + (1 if side == 1 and c != v and syc[c] == cell else 0))
        _rank_small(n, kc, &kncc)
        _rank_small(n, ks, &knsc)
        seen = C.updates
        _search(C, depth + 1, kc, ks, kncc, knsc, cmp)
        if C.updates != seen:
            cmp = 0        # the best leaf now lies below this node: same prefix


cdef void _rank_small(int n, uint8_t* colour, int* ncells) noexcept nogil:
    """Dense ranks of small colours (order kept)."""
    cdef int present[2 * MAXN + 2]
    cdef int i, r = 0
    for i in range(2 * MAXN + 2):
        present[i] = -1
    for i in range(n):
        present[colour[i]] = 0
    for i in range(2 * MAXN + 2):
        if present[i] == 0:
            present[i] = r
            r += 1
    for i in range(n):
        colour[i] = <uint8_t>present[colour[i]]
    ncells[0] = r


cdef void _label_cycles(int n, int d, const mask_t* adj, uint8_t* col, uint8_t* sym) noexcept nogil:
    """Canonical labelling of a d-regular graph, d <= 2, by its cycle type.

    d = 0, 1: the identity on columns, a symbol takes its column's label.
    d = 2: the cycles in order of length (equal lengths are isomorphic, so
    their order does not matter), each walked column c_0, symbol s_0,
    column c_1, ... from its lowest column; c_i and s_i get the same label.
    """
    cdef mask_t adjT[MAXN]
    cdef mask_t left = ((<mask_t>1) << n) - 1
    cdef int sizes[MAXN]
    cdef int starts[MAXN]
    cdef int k = 0, i, j, t, c, c0, s, pos = 0, nc
    if d == 0:
        for i in range(n):
            col[i] = <uint8_t>i
            sym[i] = <uint8_t>i
        return
    if d == 1:
        for i in range(n):
            col[i] = <uint8_t>i
            sym[gc_ctz(adj[i])] = <uint8_t>i
        return
    _transpose(n, adj, adjT)
    while left:                              # cycles: lowest column and length
        c0 = gc_ctz(left)
        c = c0
        s = gc_ctz(adj[c])
        nc = 0
        while True:
            left &= ~((<mask_t>1) << c)
            nc += 1
            c = gc_ctz(adjT[s] & ~((<mask_t>1) << c))
            if c == c0:
                break
            s = gc_ctz(adj[c] & ~((<mask_t>1) << s))
        starts[k] = c0
        sizes[k] = nc
        k += 1
    for i in range(1, k):                    # order by length (insertion sort)
        t = sizes[i]
        c0 = starts[i]
        j = i
        while j > 0 and sizes[j - 1] > t:
            sizes[j] = sizes[j - 1]
            starts[j] = starts[j - 1]
            j -= 1
        sizes[j] = t
        starts[j] = c0
    for i in range(k):
        c0 = starts[i]
        c = c0
        s = gc_ctz(adj[c])
        while True:
            col[c] = <uint8_t>pos
            sym[s] = <uint8_t>pos
            pos += 1
            c = gc_ctz(adjT[s] & ~((<mask_t>1) << c))
            if c == c0:
                break
            s = gc_ctz(adj[c] & ~((<mask_t>1) << s))


cdef void _common_neighbour_keys(int n, const mask_t* adj, uint64_t* key) noexcept nogil:
    """Each vertex's multiset of common-neighbour counts with the other
    vertices of its side: a histogram of ``|N(v) ∩ N(w)|`` over ``w != v``,
    4 bits a count (at most 15 others), counts up to 15 (60 bits)."""
    cdef uint64_t one
    cdef int v, w
    for v in range(n):
        key[v] = 0
    for v in range(n):
        for w in range(v + 1, n):
            one = (<uint64_t>1) << (4 * gc_popcount(adj[v] & adj[w]))
            key[v] += one
            key[w] += one


cdef void _common_neighbour_colours(int n, const mask_t* adj, uint8_t* colour,
                                    int* ncells) noexcept nogil:
    """Colour each vertex of one side by its common-neighbour histogram
    (_common_neighbour_keys).  An isomorphism invariant; a regular graph's
    refinement cannot split its uniform colouring, this often splits it
    completely, so the search starts near a leaf instead of individualising
    a vertex at every level."""
    cdef uint64_t key[MAXN]
    _common_neighbour_keys(n, adj, key)
    _rank(n, key, colour, ncells)


cdef uint64_t _canon(int n, const mask_t* adj, uint64_t* key) noexcept nogil:
    """Write the canonical key of the regular graph adj; returns leaves visited."""
    cdef Canon C
    cdef mask_t full = ((<mask_t>1) << n) - 1, m
    cdef uint8_t colc[MAXN]
    cdef uint8_t syc[MAXN]
    cdef uint8_t* col
    cdef uint8_t* sym
    cdef uint16_t row
    cdef int c, d = gc_popcount(adj[0]), i, w, ncc, nsc
    C.n = n
    for c in range(n):
        C.adj[c] = adj[c] if 2 * d <= n else (full & ~adj[c])
    _transpose(n, C.adj, C.adjT)
    C.have_best = 0
    C.updates = 0
    C.leaves = 0
    C.naut = 0
    d = gc_popcount(C.adj[0])
    if d <= 2:
        _label_cycles(n, d, C.adj, C.best_col, C.best_sym)
        C.leaves = 1
    else:
        _common_neighbour_colours(n, C.adj, colc, &ncc)
        _common_neighbour_colours(n, C.adjT, syc, &nsc)
        _search(&C, 0, colc, syc, ncc, nsc, -1)
    col = C.best_col
    sym = C.best_sym
    for w in range(KEYW):
        key[w] = 0
    for c in range(n):                       # the original graph, relabelled
        m = adj[c]
        row = 0
        while m:
            i = gc_ctz(m)
            m &= m - 1
            row |= <uint16_t>(1 << sym[i])
        key[col[c] >> 2] |= (<uint64_t>row) << (16 * (3 - (col[c] & 3)))
    return C.leaves


cdef inline void _unkey(int n, const uint64_t* key, mask_t* adj) noexcept nogil:
    cdef int c
    for c in range(n):
        adj[c] = <mask_t>((key[c >> 2] >> (16 * (3 - (c & 3)))) & 0xFFFF)


