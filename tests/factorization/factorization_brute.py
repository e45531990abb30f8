"""Independent reference code for the factorization tests (no kernel use).

Everything here is plain enumeration over permutations, written for small
``n`` only, so that the tests compare the kernel with something that shares
none of its ideas (no rooting, no canonical forms, no memo).
"""
import itertools
import random

from union_find import UnionFind


def matchings(sets):
    """All perfect matchings of the graph column c -> sets[c], as tuples of symbols."""
    out = []

    def rec(c, used, chosen):
        if c == len(sets):
            out.append(tuple(chosen))
            return
        for s in sorted(sets[c]):
            if s not in used:
                chosen.append(s)
                rec(c + 1, used | {s}, chosen)
                chosen.pop()

    rec(0, frozenset(), [])
    return out


def rectangles(sets):
    """Number of k × n Latin rectangles whose column c holds exactly sets[c]:
    rows filled one at a time, each a permutation picking from what is left."""
    sets = [frozenset(s) for s in sets]
    if all(not s for s in sets):
        return 1
    return sum(rectangles([s - {m[c]} for c, s in enumerate(sets)]) for m in matchings(sets))


def latin_rectangles(k, n):
    """k × n Latin rectangles by filling rows with permutations of 0..n-1."""
    perms = list(itertools.permutations(range(n)))

    def rec(rows):
        if len(rows) == k:
            return 1
        return sum(rec(rows + [p]) for p in perms
                   if all(all(p[c] != r[c] for c in range(n)) for r in rows))

    return rec([])


def components(sets):
    """Connected components of the bipartite graph (union-find)."""
    n = len(sets)
    joined = UnionFind(range(2 * n))     # columns 0..n-1, symbols n..2n-1
    symbols = sorted(set().union(*sets))
    index = {s: n + i for i, s in enumerate(symbols)}
    for c, s in enumerate(sets):
        for x in s:
            joined.union(c, index[x])
    return joined.count()


def random_regular(n, d, rng: random.Random):
    """A random d-regular bipartite graph on n + n as column sets of 1..n:
    d times, a random perfect matching of what is still free (Kuhn's
    augmenting paths in random order; the free graph is regular, so one
    always exists) is added."""
    sets = [set() for _ in range(n)]
    for _ in range(d):
        match = {}                                   # symbol -> column

        def augment(c, seen):
            options = [s for s in range(1, n + 1) if s not in sets[c]]
            rng.shuffle(options)
            for s in options:
                if s not in seen:
                    seen.add(s)
                    if s not in match or augment(match[s], seen):
                        match[s] = c
                        return True
            return False

        for c in rng.sample(range(n), n):
            assert augment(c, set())
        for s, c in match.items():
            sets[c].add(s)
    return [frozenset(s) for s in sets]


def relabel(sets, col_perm, sym_perm):
    """The graph with columns permuted (new column i = old col_perm[i]) and
    symbols renamed by sym_perm (a dict)."""
    return [frozenset(sym_perm[x] for x in sets[c]) for c in col_perm]


def brute_canonical(sets, n):
    """Canonical form by brute force: over all renamings of the symbols 1..n,
    the least sorted tuple of column sets (sorting absorbs column orders)."""
    best = None
    for p in itertools.permutations(range(1, n + 1)):
        form = tuple(sorted(tuple(sorted(p[x - 1] for x in s)) for s in sets))
        if best is None or form < best:
            best = form
    return best
