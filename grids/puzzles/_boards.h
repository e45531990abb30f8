/* Candidate bit-boards: a puzzle solver for grids of at most 16 digits
   (grids/puzzles/_boards.pyx wraps it; grids/puzzles/boards.py is its API).

   A board holds, per cell, the set of digits still possible there as one
   16-bit mask (bit d-1: digit d).  Placing a digit removes it from the
   cell's peers with one AND each; a peer left with one digit is placed in
   turn (naked single), and a digit with one place left in a unit is placed
   there (hidden single).  When neither applies, the search branches on an
   unsolved cell of fewest candidates, each branch on a copy of the board.

   Invariants of a board between routines (after bb_assign returned 1):
     * a cell is solved exactly when it has one candidate, and then no peer
       has that digit (a cell left with one candidate is placed, its digit
       cleared from its peers, before bb_assign returns); so the board is
       solved when no cell has two candidates or more;
     * a candidate is only ever removed by the consequences of placements
       (never guessed away), so every solution of the puzzle consistent
       with the placements keeps all its digits as candidates.
   Routines return 0 when the board has no solution (a contradiction).

   The tables come from grids.shape.Shape: `units` (n_units x n cells) and
   `peers` (n_cells x n_peers, the same number for every cell). */
#ifndef GRIDS_BOARDS_H
#define GRIDS_BOARDS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_bands9.h"

typedef uint16_t bb_mask;

typedef struct {
    int n, n_cells, n_units, n_peers;
    const int32_t *units;
    const int32_t *peers;
    bb_mask full;           /* every digit: (1 << n) - 1 */
    int64_t limit;          /* stop after this many solutions */
    int64_t found;          /* solutions found for the current puzzle */
    bb_mask *first;         /* the first solution's board (n_cells) */
    bb_mask *cand;          /* one board per level: (n_cells + 1) x n_cells */
    int32_t *pending;       /* 2 n_cells: cells whose one candidate is to be
                               cleared from their peers (a cell is pushed when
                               left with one candidate, and as the placed cell) */
    uint64_t *cell_units;   /* n_cells: bit u set when the cell is in unit u */
    uint64_t dirty;         /* units whose candidates changed since their
                               last hidden-single scan (n_units <= 48) */
} bb_search;

/* The hot routines take the dimensions as arguments (n digits, n_cells,
   n_peers) and are always inlined: the 9x9 search passes
   constants, so its loops have fixed trip counts (BB_SEARCH_NODE). */
#define BB_INLINE static inline __attribute__((always_inline))

/* Place the digit `bit` in `cell`, then every naked single it leads to. */
BB_INLINE int bb_assign(bb_search *S, int n_peers, bb_mask *cand, int cell, bb_mask bit) {
    int sp = 0, i;
    if (!(cand[cell] & bit))
        return 0;
    cand[cell] = bit;
    S->dirty |= S->cell_units[cell];
    S->pending[sp++] = cell;
    while (sp) {
        int c = S->pending[--sp];
        bb_mask b = cand[c];
        const int32_t *pp = S->peers + (size_t)c * n_peers;
        for (i = 0; i < n_peers; i++) {
            int p = pp[i];
            bb_mask m = cand[p];
            if (m & b) {
                m ^= b;
                if (!m)
                    return 0;
                cand[p] = m;
                S->dirty |= S->cell_units[p];
                if (!(m & (m - 1)))     /* one left: a naked single */
                    S->pending[sp++] = p;
            }
        }
    }
    return 1;
}

/* Hidden singles in every dirty unit, until none is dirty (placing a
   digit dirties the units of the cells it changes): 0, or -1 on a
   contradiction (a digit with no place left in a unit).  A unit that is
   not dirty was scanned after its last change, so it holds no hidden
   single and every digit still has a place in it. */
BB_INLINE int bb_hidden_singles(bb_search *S, int n, int n_peers,
                                bb_mask *cand) {
    int j;
    while (S->dirty) {
        int u = __builtin_ctzll(S->dirty);
        const int32_t *uc = S->units + (size_t)u * n;
        bb_mask once = 0, twice = 0, done = 0, hidden;
        S->dirty &= S->dirty - 1;
        for (j = 0; j < n; j++) {
            bb_mask m = cand[uc[j]];
            twice |= once & m;
            once |= m;
            if (!(m & (m - 1)))     /* one candidate: solved (invariant) */
                done |= m;
        }
        if (once != S->full)
            return -1;
        hidden = once & (bb_mask)~twice & (bb_mask)~done;
        while (hidden) {
            bb_mask bit = hidden & (bb_mask)(-hidden);
            hidden ^= bit;
            for (j = 0; j < n; j++)
                if (cand[uc[j]] & bit)
                    break;
            if (j == n || !bb_assign(S, n_peers, cand, uc[j], bit))
                return -1;
        }
    }
    return 0;
}

/* The number of digits in a mask, without the popcnt instruction (the
   extensions are built for any x86-64, where __builtin_popcount is a call). */
BB_INLINE int bb_count(bb_mask m) {
    unsigned x = m;
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0F0Fu;
    return (int)((x + (x >> 8)) & 0x1Fu);
}

/* The unsolved cell of fewest candidates (the first such; stops at two);
   -1 when every cell is solved. */
BB_INLINE int bb_choose(int n, int n_cells, const bb_mask *cand) {
    int c, best = -1, best_k = n + 1;
    for (c = 0; c < n_cells; c++) {
        if (cand[c] & (cand[c] - 1)) {
            int k = bb_count(cand[c]);
            if (k < best_k) {
                best = c;
                best_k = k;
                if (k == 2)
                    break;
            }
        }
    }
    return best;
}

/* NAME(S, level): search the board at `level` (placed, naked singles
   done), counting solutions into S->found up to S->limit and keeping the
   first.  A branch copies the board to level + 1 (at most n_cells + 1
   levels: each branch places a cell).  Defined twice below: for any
   dimensions (read from S); 9x9 puzzles go to the band kernel instead
   (_bands9.h). */
#define BB_SEARCH_NODE(NAME, N, N_CELLS, N_PEERS)                       \
static void NAME(bb_search *S, int level) {                                      \
    size_t nc = (size_t)(N_CELLS);                                               \
    bb_mask *cand = S->cand + level * nc;                                        \
    int cell;                                                                    \
    bb_mask m;                                                                   \
    if (bb_hidden_singles(S, N, N_PEERS, cand) < 0)                              \
        return;                                                                  \
    cell = bb_choose(N, N_CELLS, cand);                                          \
    if (cell < 0) {                                                              \
        if (S->found == 0)                                                       \
            memcpy(S->first, cand, nc * sizeof(bb_mask));                        \
        S->found++;                                                              \
        return;                                                                  \
    }                                                                            \
    m = cand[cell];                                                              \
    while (m && S->found < S->limit) {                                           \
        bb_mask bit = m & (bb_mask)(-m);                                         \
        m ^= bit;                                                                \
        memcpy(cand + nc, cand, nc * sizeof(bb_mask));                           \
        S->dirty = 0;                                                            \
        if (bb_assign(S, N_PEERS, cand + nc, cell, bit))                         \
            NAME(S, level + 1);                                                  \
    }                                                                            \
}

BB_SEARCH_NODE(bb_search_any, S->n, S->n_cells, S->n_peers)

/* 1 when two givens of `grid` (0 blank) share a unit and a digit. */
static inline int bb_givens_conflict(const bb_search *S, const int64_t *grid) {
    int u, j;
    for (u = 0; u < S->n_units; u++) {
        const int32_t *uc = S->units + (size_t)u * S->n;
        bb_mask seen = 0;
        for (j = 0; j < S->n; j++) {
            int64_t d = grid[uc[j]];
            if (d) {
                bb_mask bit = (bb_mask)(1u << (d - 1));
                if (seen & bit)
                    return 1;
                seen |= bit;
            }
        }
    }
    return 0;
}

/* The check of every solution written out: each unit holds every digit
   once and each given is kept.  1 when `sol` (digits) passes. */
static inline int bb_solution_ok(const bb_search *S, const int64_t *grid, const int64_t *sol) {
    int u, j, c;
    for (c = 0; c < S->n_cells; c++)
        if (sol[c] < 1 || sol[c] > S->n || (grid[c] && grid[c] != sol[c]))
            return 0;
    for (u = 0; u < S->n_units; u++) {
        const int32_t *uc = S->units + (size_t)u * S->n;
        bb_mask seen = 0;
        for (j = 0; j < S->n; j++)
            seen |= (bb_mask)(1u << (sol[uc[j]] - 1));
        if (seen != S->full)
            return 0;
    }
    return 1;
}

/* The 9x9 puzzles of a batch on the band kernel (_bands9.h), which reads
   and writes one byte a cell: byte puzzles (grids8, sols8) directly, int64
   ones narrowed into `g8` and their solutions widened from `s8` (81 bytes
   each).  As bb_solve_batch (row8: bytes from one byte solution to the
   next). */
static int b9_solve_batch(const b9_tables *T9, b9_board *stack9, b9_branch *branch9,
                          const int64_t *grids, const uint8_t *grids8, int64_t m,
                          int64_t limit, int64_t *counts, int64_t *sols, uint8_t *sols8,
                          int64_t row8, uint8_t *g8, uint8_t *s8) {
    int64_t p;
    int c;
    for (p = 0; p < m; p++) {
        const uint8_t *grid = g8;
        uint8_t *sol = s8;
        if (grids8) {
            grid = grids8 + p * 81;
            sol = sols8 + p * row8;
        } else
            for (c = 0; c < 81; c++)
                g8[c] = (uint8_t)grids[p * 81 + c];
        memset(sol, 0, 81);
        counts[p] = b9_solve(T9, grid, limit, sol, stack9, branch9);
        if (counts[p] > 0 && !b9_solution_ok(grid, sol))
            return (int)(-2 - p);
        if (!grids8)
            for (c = 0; c < 81; c++)
                sols[p * 81 + c] = sol[c];
    }
    return 0;
}

/* Solve grids[p] (m x n_cells digits, 0 blank; checked by the caller:
   0 <= digit <= n <= 16) for p < m: counts[p] solutions found, at most
   limit, -1 when givens repeat a digit in a unit; sols[p] the first
   solution (zeros when none).  The cells are int64 (grids, sols) or, when
   grids8 and sols8 are given instead, one byte each; byte solution p
   starts at sols8 + p * row8 (row8 >= n_cells: a larger row leaves its
   last bytes as they were, room for a newline).  9x9 puzzles go to
   the band kernel on bytes (b9_solve_batch); on other shapes a byte puzzle
   is widened into a scratch int64 grid, solved as any other, and its
   solution narrowed back, so the search and the checks see int64 cells
   either way [issue 37: the byte form is an eighth of the memory, and a
   large batch's int64 arrays cost the whole process more in page faults
   than the widening costs].  Returns 0; -1 if memory ran out; -2 - p if
   the solution found for puzzle p failed its check (a defect). */
static int bb_solve_batch(int n, int n_cells, int n_units, const int32_t *units,
                          int n_peers, const int32_t *peers, const int64_t *grids,
                          const uint8_t *grids8, int64_t m, int64_t limit, int64_t *counts,
                          int64_t *sols, uint8_t *sols8, int64_t row8) {
    bb_search S;
    size_t nc = (size_t)n_cells, levels = nc + 1;
    int64_t p;
    int c, ok, rc = 0;
    /* the 3x3 box shape: the only one with these dimensions (its units
       rows, columns and boxes, as _bands9.h assumes) */
    int is_9x9 = n == 9 && n_cells == 81 && n_units == 27 && n_peers == 20;
    if (is_9x9) {
        b9_tables *T9 = malloc(sizeof *T9);
        b9_board *stack9 = malloc(82 * sizeof *stack9);
        b9_branch *branch9 = malloc(81 * sizeof *branch9);
        uint8_t *scratch = malloc(2 * 81);      /* an int64 puzzle and its solution as bytes */
        if (!T9 || !stack9 || !branch9 || !scratch)
            rc = -1;
        else {
            b9_make_tables(T9);
            rc = b9_solve_batch(T9, stack9, branch9, grids, grids8, m, limit, counts, sols,
                                sols8, row8, scratch, scratch + 81);
        }
        free(T9); free(stack9); free(branch9); free(scratch);
        return rc;
    }
    int64_t *wide = NULL;                   /* scratch grid and solution of a byte puzzle */
    S.n = n; S.n_cells = n_cells; S.n_units = n_units; S.units = units;
    S.n_peers = n_peers; S.peers = peers;
    S.full = (bb_mask)((1u << n) - 1);
    S.limit = limit;
    S.first = malloc(nc * sizeof(bb_mask));
    S.cand = malloc(levels * nc * sizeof(bb_mask));
    S.pending = malloc(2 * nc * sizeof(int32_t));
    S.cell_units = calloc(nc, sizeof(uint64_t));
    if (grids8)
        wide = malloc(2 * nc * sizeof(int64_t));
    if (!S.first || !S.cand || !S.pending || !S.cell_units || (grids8 && !wide)) {
        rc = -1;
        goto out;
    }
    for (c = 0; c < n_units * n; c++)
        S.cell_units[units[c]] |= (uint64_t)1 << (c / n);
    for (p = 0; p < m; p++) {
        const int64_t *grid;
        int64_t *sol;
        if (grids8) {
            const uint8_t *g8 = grids8 + p * (int64_t)nc;
            for (c = 0; c < n_cells; c++)
                wide[c] = g8[c];
            grid = wide;
            sol = wide + nc;
        } else {
            grid = grids + p * (int64_t)nc;
            sol = sols + p * (int64_t)nc;
        }
        memset(sol, 0, nc * sizeof(int64_t));
        if (bb_givens_conflict(&S, grid)) {
            counts[p] = -1;
            goto store;
        }
        for (c = 0; c < n_cells; c++)
            S.cand[c] = S.full;
        S.found = 0;
        S.dirty = 0;
        ok = 1;
        for (c = 0; c < n_cells && ok; c++)
            if (grid[c])
                ok = bb_assign(&S, n_peers, S.cand, c,
                               (bb_mask)(1u << (grid[c] - 1)));
        S.dirty = ((uint64_t)2 << (n_units - 1)) - 1;     /* scan every unit first */
        if (ok)
            bb_search_any(&S, 0);
        counts[p] = S.found;
        if (S.found) {
            for (c = 0; c < n_cells; c++)
                sol[c] = __builtin_ctz(S.first[c]) + 1;
            if (!bb_solution_ok(&S, grid, sol)) {
                rc = (int)(-2 - p);
                break;
            }
        }
    store:
        if (sols8) {
            uint8_t *s8 = sols8 + p * row8;
            for (c = 0; c < n_cells; c++)
                s8[c] = (uint8_t)sol[c];
        }
    }
out:
    free(S.first); free(S.cand); free(S.pending);
    free(S.cell_units);
    free(wide);
    return rc;
}

#endif /* GRIDS_BOARDS_H */
