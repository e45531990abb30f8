/* The 9x9 puzzle kernel on band bit-boards (grids/puzzles/_boards.h calls
   b9_solve for every 9x9 puzzle with 3x3 boxes; other shapes keep the
   per-cell boards there).

   The board is, for each digit d and band b (rows 3b..3b+2), one 27-bit
   word F[d][b]: bit 9 r + c set when digit d is still possible in cell
   (3b + r, c).  `solved[b]` marks the cells placed.  So one AND clears a
   digit from a whole band, and a row, a box or a column of one digit is a
   few shifts and masks of three words, not nine cells read one at a time.
   (The layout is the well-known one of JCZSolve and of tdoku's band
   triads; this code is gridcount's own.)

   Invariants of a board between routines:
     * a placed cell (bit in `solved`) is in its digit's word only, and no
       peer of it has that digit;
     * a candidate is only removed by the consequences of placements (never
       guessed away), so every solution consistent with the placements
       keeps all its digits as candidates.
   So a board whose 81 cells are all placed is a solution: each cell has
   one digit and no two peers share one.

   Propagation, until nothing changes: naked singles (a cell with one
   candidate is placed) and empty cells (a contradiction), found for a whole
   band at once by a bit-sliced count over the nine digits; hidden singles
   (a digit with one place in a row, a column or a box is placed there) and
   empty units (a contradiction), for each digit whose words changed since
   its last scan; and, in each such band, locked candidates: a digit must
   take each of the band's three rows and three boxes once, so it keeps
   only the (row, box) pairs that some such matching uses (a table of the
   512 patterns; no matching is a contradiction), and the same in each
   stack for its (band, column) pairs.  Then the search branches on an unplaced cell of fewest
   candidates (a cell of two when there is one); the last candidate of a
   branch is placed on the same board, the others on a copy one level
   down.  The stack is explicit: at most 81 levels, each a board and the
   cell and digits left to try. */
#ifndef GRIDS_BANDS9_H
#define GRIDS_BANDS9_H

#include <stdint.h>
#include <string.h>

#define B9_FULL 0x7FFFFFFu    /* the 27 cells of a band */
#define B9_ROW 0x1FFu         /* the 9 cells of a band's first row */

typedef struct {
    uint32_t F[9][3];         /* F[d][b]: cells of band b where digit d + 1 is possible */
    uint32_t solved[3];       /* cells placed */
    uint32_t changed;         /* bit 3 d + b: F[d][b] changed since d's last hidden-single scan */
} b9_board;

typedef struct {
    uint32_t peers[81][3];    /* the 20 peers of a cell, per band (the cell itself excluded) */
    uint8_t boxes[512];       /* the boxes (bit j: box j of the band) a 9-bit row meets */
    uint32_t matched[512];    /* a band's (row, box) pairs of one digit (bit 3 r + j) -> the
                                 cells of the pairs that lie on some way of giving each row
                                 and each box the digit once (27-bit), 0 when there is none */
    uint16_t pairs[512];      /* the same as 9-bit pairs: the pairs on some matching */
} b9_tables;

typedef struct {
    int cell;                 /* the cell branched on at this level */
    uint32_t left;            /* the digits still to try there (bit d: digit d + 1) */
} b9_branch;

#define B9_INLINE static inline __attribute__((always_inline))

/* x when it has one bit at most, else 0 (no branch) */
#define B9_ONE(x) ((x) & -(uint32_t)(((x) & ((x) - 1)) == 0))

/* The peers of each cell, as masks per band. */
static void b9_make_tables(b9_tables *T) {
    int x, y;
    memset(T, 0, sizeof *T);
    for (x = 0; x < 81; x++)
        for (y = 0; y < 81; y++) {
            int rx = x / 9, cx = x % 9, ry = y / 9, cy = y % 9;
            if (y != x && (rx == ry || cx == cy || (rx / 3 == ry / 3 && cx / 3 == cy / 3)))
                T->peers[x][y / 27] |= 1u << (y % 27);
        }
    for (x = 0; x < 512; x++)
        T->boxes[x] = (uint8_t)(((x & 7) != 0) | (((x & 070) != 0) << 1) | (((x & 0700) != 0) << 2));
    /* the six matchings of three rows to three boxes */
    for (x = 0; x < 512; x++) {
        static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        int k, r;
        for (k = 0; k < 6; k++) {
            int pairs = 0;
            for (r = 0; r < 3; r++)
                pairs |= 1 << (3 * r + perm[k][r]);
            if ((x & pairs) == pairs)
                for (r = 0; r < 3; r++) {
                    T->matched[x] |= 7u << (9 * r + 3 * perm[k][r]);
                    T->pairs[x] |= (uint16_t)(1u << (3 * r + perm[k][r]));
                }
        }
    }
}

/* Place digit d (0..8) in cell c, which has it as a candidate: clear c from
   the other digits and d from c's peers. */
B9_INLINE void b9_place(b9_board *restrict B, const b9_tables *restrict T, int d, int c) {
    int b = c / 27, p = c % 27, e;
    uint32_t bit = 1u << p, changed = 0;
    uint32_t p0 = T->peers[c][0], p1 = T->peers[c][1], p2 = T->peers[c][2];
    for (e = 0; e < 9; e++) {       /* branch-free: which digits lose the cell */
        uint32_t w = B->F[e][b];
        changed |= ((w >> p) & 1u) << (3 * e);
        B->F[e][b] = w & ~bit;
    }
    B->changed |= (changed << b) | (7u << (3 * d));
    B->F[d][0] &= ~p0;
    B->F[d][1] &= ~p1;
    B->F[d][2] &= ~p2;
    B->F[d][b] |= bit;
    B->solved[b] |= bit;
}

/* Place digit d in cell c whose only candidate it is (a naked single): no
   other digit has c to lose. */
B9_INLINE void b9_place_single(b9_board *restrict B, const b9_tables *restrict T, int d, int c) {
    B->changed |= 7u << (3 * d);
    B->F[d][0] &= ~T->peers[c][0];
    B->F[d][1] &= ~T->peers[c][1];
    B->F[d][2] &= ~T->peers[c][2];
    B->solved[c / 27] |= 1u << (c % 27);
}

/* Naked singles of the whole board, one bit-sliced pass per band: 1 when
   some cell was placed, 0 when none, -1 on an empty cell. */
B9_INLINE int b9_naked_singles(b9_board *restrict B, const b9_tables *restrict T) {
    int b, d, placed = 0;
    for (b = 0; b < 3; b++) {
        uint32_t one = 0, two = 0, single;
        for (d = 0; d < 9; d++) {
            two |= one & B->F[d][b];
            one |= B->F[d][b];
        }
        if (one != B9_FULL)
            return -1;
        single = one & ~two & ~B->solved[b];
        if (!single)
            continue;
        placed = 1;
        for (d = 0; d < 9; d++) {
            uint32_t s = single & B->F[d][b];
            while (s) {
                int p = __builtin_ctz(s);
                s &= s - 1;
                if (!(B->F[d][b] & (1u << p)))  /* emptied by a single placed just before */
                    return -1;
                b9_place_single(B, T, d, b * 27 + p);
            }
        }
    }
    return placed;
}

/* Hidden singles of digit d: each row, box and column where d is not
   placed and has one candidate cell gets it (rows only in the bands of
   `bands`, the others unchanged since their last scan).  The
   units are read on the unplaced candidates, where a unit holding d placed
   is empty (no peer keeps d); a unit with no d at all, placed or not, is
   a contradiction.  First, in each band scanned, d keeps only the cells of
   (row, box) pairs that some placement of d in all three rows and boxes
   uses (locked candidates within the band; no such placement is a
   contradiction), then in each stack the cells of the (band, column)
   pairs some placement in its three columns and boxes uses.  1 when some
   cell was placed or some candidate removed, 0 when neither, -1 on a
   contradiction.

   Boxes need no scan of their own: after the stack's cut, a box left with
   one candidate cell x (in column j of band b) is a column single.  The
   box's only pair of its stack is (b, j), so every placement of d in the
   stack's columns and boxes uses (b, j), the cut keeps no other pair of
   column j, and column j's only candidate is x.  [issue 37: the box scan
   cost three masks a band; over the shared collections, 7.5 million box
   singles were all row or column singles too, and every answer is
   unchanged without it] */
B9_INLINE int b9_hidden_digit(b9_board *restrict B, const b9_tables *restrict T, int d, uint32_t bands) {
    uint32_t u[3], hit[3] = {0, 0, 0}, cols[3], col_one = 0, col_two = 0, single;
    int b, k, placed = 0;
    /* each band as a whole: its rows and boxes each take d once */
    for (b = 0; b < 3; b++) {
        uint32_t w = B->F[d][b];
        if (bands & (1u << b)) {
            uint32_t cut = w & T->matched[T->boxes[w & B9_ROW] | T->boxes[(w >> 9) & B9_ROW] << 3
                                          | T->boxes[w >> 18] << 6];
            if (!cut)
                return -1;
            if (cut != w) {
                B->F[d][b] = w = cut;
                placed = 1;
            }
        }
        cols[b] = (w | (w >> 9) | (w >> 18)) & B9_ROW;
    }
    /* each stack as a whole: its columns and boxes (one per band) each take
       d once; the same table, bands in place of rows and columns in place
       of boxes */
    for (k = 0; k < 9; k += 3) {
        uint32_t seen = ((cols[0] >> k) & 7u) | ((cols[1] >> k) & 7u) << 3
                        | ((cols[2] >> k) & 7u) << 6;
        uint32_t keep = T->pairs[seen];
        if (!keep)
            return -1;
        if (keep != seen)
            for (b = 0; b < 3; b++) {
                uint32_t lost = ((seen ^ keep) >> (3 * b)) & 7u;
                if (lost) {
                    B->F[d][b] &= ~((lost << k) * 0x40201u);  /* those columns, 3 rows */
                    cols[b] &= ~(lost << k);
                    bands |= 1u << b;
                    placed = 1;
                }
            }
    }
    for (b = 0; b < 3; b++) {
        uint32_t x = B->F[d][b] & ~B->solved[b];
        uint32_t r0 = x & B9_ROW, r1 = (x >> 9) & B9_ROW, r2 = x >> 18;
        uint32_t c = r0 | r1 | r2;
        u[b] = x;
        col_two |= (col_one & c) | (r0 & r1) | (r0 & r2) | (r1 & r2);
        col_one |= c;
        /* rows: a 9-bit group with one bit (an empty group adds nothing);
           branch-free, and only in the bands of `bands` (the mask) */
        hit[b] = (B9_ONE(r0) | B9_ONE(r1) << 9 | B9_ONE(r2) << 18) & -((bands >> b) & 1u);
    }
    /* columns: one candidate over the three bands, so in each band the
       column's cells (the 9-bit set copied to the band's three rows, no
       carry) hold that candidate or nothing */
    single = (col_one & ~col_two) * 0x40201u;
    hit[0] |= u[0] & single;
    hit[1] |= u[1] & single;
    hit[2] |= u[2] & single;
    for (b = 0; b < 3; b++)
        while (hit[b]) {
            int p = __builtin_ctz(hit[b]);
            hit[b] &= hit[b] - 1;
            if (!(B->F[d][b] & (1u << p)))      /* cleared by a placement of this loop */
                return -1;
            b9_place(B, T, d, b * 27 + p);
            placed = 1;
        }
    return placed;
}

/* Singles until none is left: 0, or -1 on a contradiction. */
B9_INLINE int b9_propagate(b9_board *restrict B, const b9_tables *restrict T) {
    for (;;) {
        int r = b9_naked_singles(B, T), d;
        if (r < 0)
            return -1;
        if (r)
            continue;
        for (d = 0; d < 9; d++)
            if (B->changed & (7u << (3 * d))) {
                uint32_t bands = (B->changed >> (3 * d)) & 7u;
                int h;
                B->changed &= ~(7u << (3 * d));
                h = b9_hidden_digit(B, T, d, bands);
                if (h < 0)
                    return -1;
                r |= h;
            }
        if (!r)
            return 0;
    }
}

/* An unplaced cell of fewest candidates: the first cell of two candidates
   when there is one; -1 when every cell is placed. */
B9_INLINE int b9_choose(const b9_board *B) {
    int b, d, best = -1, best_k = 10;
    for (b = 0; b < 3; b++) {
        uint32_t one = 0, two = 0, three = 0, pair;
        for (d = 0; d < 9; d++) {
            uint32_t w = B->F[d][b];
            three |= two & w;
            two |= one & w;
            one |= w;
        }
        pair = two & ~three & ~B->solved[b];
        if (pair)
            return b * 27 + __builtin_ctz(pair);
    }
    for (b = 0; b < 3; b++) {
        uint32_t open = ~B->solved[b] & B9_FULL;
        while (open) {
            int p = __builtin_ctz(open), k = 0;
            open &= open - 1;
            for (d = 0; d < 9; d++)
                k += (B->F[d][b] >> p) & 1;
            if (k < best_k) {
                best = b * 27 + p;
                best_k = k;
            }
        }
    }
    return best;
}

/* The digits (bit d: digit d + 1) still possible in cell c. */
B9_INLINE uint32_t b9_digits(const b9_board *B, int c) {
    uint32_t m = 0;
    int d;
    for (d = 0; d < 9; d++)
        m |= ((B->F[d][c / 27] >> (c % 27)) & 1u) << d;
    return m;
}

/* The digits of a board whose cells are all placed (each cell in one
   digit's word). */
static void b9_write(const b9_board *B, uint8_t *sol) {
    int b, d;
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t w = B->F[d][b];
            while (w) {
                sol[b * 27 + __builtin_ctz(w)] = (uint8_t)(d + 1);
                w &= w - 1;
            }
        }
}

/* The check of every solution written out, on the digits alone (not the
   board): each row, column and box holds every digit once and each given
   is kept.  1 when `sol` passes. */
static int b9_solution_ok(const uint8_t *grid, const uint8_t *sol) {
    uint32_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0}, all = 0x3FEu;
    int r, k;
    for (r = 0; r < 9; r++)
        for (k = 0; k < 9; k++) {
            int c = 9 * r + k;
            uint32_t bit = 1u << sol[c];
            if (sol[c] < 1 || sol[c] > 9 || (grid[c] && grid[c] != sol[c]))
                return 0;
            rows[r] |= bit;
            cols[k] |= bit;
            boxes[r / 3 * 3 + k / 3] |= bit;
        }
    for (k = 0; k < 9; k++)
        all &= rows[k] & cols[k] & boxes[k];
    return all == 0x3FEu;
}

/* Solve `grid` (81 digits 0..9, 0 blank; checked by the caller): the
   number of solutions, at most `limit`, or -1 when two givens of a unit
   share a digit; the first solution written to `sol` as digits 1..9 (left
   as it was when there is none).  `stack` holds 82 boards, `branch` 81
   entries.

   Repeated givens are found while the givens are placed: a given whose
   digit is no longer a candidate of its cell lost it to a given of the
   same digit among its peers (only a placement in the cell itself or of
   that digit in a peer removes it, and no cell has two givens), and a
   given repeated in a unit finds its digit gone when the later of the two
   is placed.  [issue 37: one pass over the givens, not a second over the
   27 units before the search] */
static int64_t b9_solve(const b9_tables *T, const uint8_t *grid, int64_t limit,
                        uint8_t *sol, b9_board *stack, b9_branch *branch) {
    b9_board *B = stack;
    int level = 0, c, d;
    int64_t found = 0;
    for (d = 0; d < 9; d++)
        B->F[d][0] = B->F[d][1] = B->F[d][2] = B9_FULL;
    B->solved[0] = B->solved[1] = B->solved[2] = 0;
    B->changed = 0;
    for (c = 0; c < 81; c++)
        if (grid[c]) {
            d = grid[c] - 1;
            if (!(B->F[d][c / 27] & (1u << (c % 27))))
                return -1;
            b9_place(B, T, d, c);
        }
    B->changed = B9_FULL;
    for (;;) {
        /* forward: propagate the board at `level`, then branch or record */
        B = stack + level;
        if (b9_propagate(B, T) == 0) {
            c = b9_choose(B);
            if (c < 0) {
                if (found == 0)
                    b9_write(B, sol);
                if (++found >= limit)
                    return found;
            } else {
                branch[level].cell = c;
                branch[level].left = b9_digits(B, c);
                goto next;
            }
        }
        /* backtrack: to the nearest level with digits left */
        if (level == 0)
            return found;
        level--;
    next:
        {
            b9_branch *br = branch + level;
            uint32_t left = br->left;
            d = __builtin_ctz(left);
            left &= left - 1;
            br->left = left;
            B = stack + level;
            if (left) {             /* more to try here: this digit on a copy */
                memcpy(B + 1, B, sizeof *B);
                level++;
                B++;
            }                       /* else the last digit, on this board */
            B->changed = 0;
            b9_place(B, T, d, br->cell);
        }
    }
}

#endif /* GRIDS_BANDS9_H */
