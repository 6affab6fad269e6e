/*
 * sudokit._engine's 9x9 search, included twice by _engine.c: once as the portable path and, on
 * x86-64, once more compiled for x86-64-v3 (AVX2, BMI1/2, POPCNT, LZCNT), each function named
 * through V9(name).  The module picks one at import (see select_path9 in _engine.c); both give
 * the same answers, node for node, since the code is the same.
 *
 * Not a header to include anywhere else: it relies on _engine.c's tables, S9, Ctx and Rng.
 */

/* Place digit d at bit k of band b.  The caller has checked that it is a candidate.  Return
 * the boards that shrank (and digit d's own board in band b), as bits of S9.dirty, for the
 * caller to add there. */
static inline uint32_t V9(place9_boards)(S9 *s, int d, int b, int k)
{
    uint32_t bit = UINT32_C(1) << k;
    uint32_t keep = ~bit;
    uint32_t *fb = s->f + 9 * b;
    uint32_t had; /* the digits that had this cell: their boards shrink */
#if V9_AVX2
    {
        __m256i v = _mm256_loadu_si256((const __m256i *)fb);
        __m256i top = _mm256_sll_epi32(v, _mm_cvtsi32_si128(31 - k)); /* bit k to the sign */
        had = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(top));
        _mm256_storeu_si256((__m256i *)fb, _mm256_andnot_si256(_mm256_set1_epi32((int)bit), v));
    }
#elif defined(__SSE2__)
    {
        __m128i v0 = _mm_loadu_si128((const __m128i *)fb), v1 = _mm_loadu_si128((const __m128i *)(fb + 4));
        __m128i shift = _mm_cvtsi32_si128(31 - k), clear = _mm_set1_epi32((int)bit);
        had = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(v0, shift))) |
              (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(v1, shift))) << 4;
        _mm_storeu_si128((__m128i *)fb, _mm_andnot_si128(clear, v0));
        _mm_storeu_si128((__m128i *)(fb + 4), _mm_andnot_si128(clear, v1));
    }
#else
    had = 0;
    for (int e = 0; e < 8; e++) {
        had |= (fb[e] >> k & 1) << e;
        fb[e] &= keep;
    }
#endif
    had |= (fb[8] >> k & 1) << 8;
    fb[8] &= keep;
    /* The digit leaves the cell's column in every band (its own band's board is set below,
     * which covers the column there: the cell's box holds that part of it). */
    uint32_t colbits = T_COL[k];
    uint32_t *x = s->f + d;
    uint32_t hit = (uint32_t)((x[0] & colbits) != 0) | (uint32_t)((x[9] & colbits) != 0) << 9 |
                   (uint32_t)((x[18] & colbits) != 0) << 18;
    x[0] &= ~colbits;
    x[9] &= ~colbits;
    x[18] &= ~colbits;
    fb[d] = (fb[d] & ~T_BANDPEERS[k]) | bit;
    s->unsolved[b] &= keep;
    return had << (9 * b) | (hit | UINT32_C(1) << (9 * b)) << d;
}

/* The digits that bit k of a band's boards fb[0..8] holds, as bits. */
static inline uint32_t V9(cell_digits9)(const uint32_t *fb, int k)
{
    uint32_t m;
#if V9_AVX2
    __m256i v = _mm256_loadu_si256((const __m256i *)fb);
    m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_sll_epi32(v, _mm_cvtsi32_si128(31 - k))));
#elif defined(__SSE2__)
    __m128i shift = _mm_cvtsi32_si128(31 - k);
    m = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(_mm_loadu_si128((const __m128i *)fb), shift))) |
        (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(_mm_loadu_si128((const __m128i *)(fb + 4)), shift)))
            << 4;
#else
    m = 0;
    for (int d = 0; d < 8; d++)
        m |= (fb[d] >> k & 1) << d;
#endif
    return m | (fb[8] >> k & 1) << 8;
}

/* Place digit d at bit k of band b (a candidate there), marking the boards that shrank. */
static inline void V9(place9)(S9 *s, int d, int b, int k)
{
    s->dirty |= V9(place9_boards)(s, d, b, k);
}

/* The stack step for digit d, the column counterpart of the band step: in a stack (three
 * columns of boxes) the digit fills one column triad per box and one per column, so the
 * column triads it can still use are the union of the six box->column permutations (the same
 * table, read down a stack), and a column left with the digit in one band and one row there
 * is a hidden single.  Return 0 on a contradiction, else 1; set *changed when a board shrank. */
static int V9(stack_step9)(S9 *s, int d, int *changed)
{
    uint32_t *f = s->f + d; /* f[9 * b]: band b's board */
    uint32_t x0 = f[0], x1 = f[9], x2 = f[18];
    uint32_t c0 = band_cols(x0), c1 = band_cols(x1), c2 = band_cols(x2);
    uint32_t a0 = 0, a1 = 0, a2 = 0;
    for (int t = 0; t < 9; t += 3) {
        uint32_t allowed = T_PERM[(c0 >> t & 7) | (c1 >> t & 7) << 3 | (c2 >> t & 7) << 6];
        if (!allowed)
            return 0;
        a0 |= (allowed & 7) << t;
        a1 |= (allowed >> 3 & 7) << t;
        a2 |= (allowed >> 6) << t;
    }
    x0 &= a0 * SPREAD3;
    x1 &= a1 * SPREAD3;
    x2 &= a2 * SPREAD3;
    /* Without branches where they could go either way: a mispredicted one costs more than this. */
    uint32_t shrank = (uint32_t)(((x0 ^ f[0]) | (x1 ^ f[9]) | (x2 ^ f[18])) != 0);
    f[0] = x0;
    f[9] = x1;
    f[18] = x2;
    s->dirty |= (DIGIT_BOARDS << d) & (0 - shrank);
    *changed |= (int)shrank;
    c0 &= a0;
    c1 &= a1;
    c2 &= a2;
    uint32_t lone = (c0 ^ c1 ^ c2) & ~(c0 & c1 & c2); /* columns with the digit in one band */
    if (!lone)
        return 1;
    uint32_t cb[3] = {c0, c1, c2}, cells[3], any = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t x = f[9 * b], r0 = x & 0x1FF, r1 = x >> 9 & 0x1FF, r2 = x >> 18;
        uint32_t one_row = (r0 ^ r1 ^ r2) & ~(r0 & r1 & r2) & lone & cb[b];
        cells[b] = x & (one_row * SPREAD3) & s->unsolved[b];
        any |= cells[b];
    }
    if (!any)
        return 1;
    /* A placement here takes digit d from its row and box in its band and from its column,
     * which no other band's cells here are in (each is the one band of its column). */
    for (int b = 0; b < 3; b++)
        for (uint32_t c = cells[b]; c; c &= c - 1) {
            int k = ctz32(c);
            if (!(f[9 * b] & (UINT32_C(1) << k)))
                return 0; /* an earlier single here took this column's only cell */
            V9(place9)(s, d, b, k);
            *changed = 1;
        }
    return 1;
}

/* Propagate to a fixpoint.  Return 0 on a contradiction, 1 otherwise.  With `strong`, the
 * stack step runs too (the random grids keep the weaker propagation, so that a seed gives the
 * grid it always gave). */
static int V9(propagate9)(S9 *s, int strong)
{
    uint32_t dirty = 0; /* digits whose boards changed since their last stack step */
    for (;;) {
        int i = 26;
        uint32_t pending; /* s->dirty, read once a board (place9 adds to it) */
        while ((pending = s->dirty) != 0) {
            /* In sweeps, as the boards come: the next changed board after the last one. */
            uint32_t after = pending & (UINT32_C(0xFFFFFFFE) << i);
            i = ctz32(after ? after : pending);
            s->dirty = pending & ~(UINT32_C(1) << i);
            {
                uint32_t a = s->f[i];
                /* The rows' triads and their one-cell rows, in one lookup a row (T_ROW). */
                uint64_t rows = T_ROW[0][a & 0x1FF] | T_ROW[1][(a >> 9) & 0x1FF] | T_ROW[2][a >> 18];
                uint32_t keep = T_KEEP[rows & 0x1FF]; /* T_PERM's triads as cells */
                if (!keep)
                    return 0;
                uint32_t kept = a & keep;
                int b = T_BAND9[i], d = T_DIGIT9[i];
                dirty |= UINT32_C(1) << d;
                /* A row left with one cell for this digit: a hidden single (in the row, or in
                 * the box, which the triad step has turned into the same thing).  No row is
                 * empty now (each keeps a triad of a permutation), so a table of the rows
                 * with one bit finds them (fewer instructions than a subtraction and three
                 * tests); and the singles of two rows are in two boxes (a permutation
                 * again), so placing one leaves the other.  The lookups
                 * that gave the triads gave them too, unless the triad step changed the
                 * board (a minority of the steps).  Placing them leaves this board as it
                 * is (the rest of a single's row is empty, and so is the rest of its box: no
                 * other row can take that box's triad now), so they do not mark it to be
                 * stepped again, which would change nothing. */
                uint32_t lone = (uint32_t)(rows >> 9);
                if (kept != a) {
                    s->f[i] = a = kept;
                    lone = (uint32_t)T_LONE[a & 0x1FF] | (uint32_t)T_LONE[(a >> 9) & 0x1FF] << 9 |
                           (uint32_t)T_LONE[a >> 18] << 18;
                }
                uint32_t fresh = lone & s->unsolved[b];
                while (fresh) {
                    int k = ctz32(fresh);
                    fresh &= fresh - 1;
                    s->dirty |= V9(place9_boards)(s, d, b, k) & ~(UINT32_C(1) << i);
                }
            }
        }

        /* Naked singles, and cells with no candidate left, in all three bands without a
         * branch a band (a band not stepped in this drain has none: it is as the last pass
         * left it); a single in one band that a placement in another has emptied is a
         * contradiction, and a cell that one has made a single is found in the next pass
         * (the placement marks its band). */
        uint32_t singles[3], empty = 0, any = 0;
#pragma GCC unroll 3
        for (int b = 0; b < 3; b++) {
            const uint32_t *fb = s->f + 9 * b;
            uint32_t r1 = 0, r2 = 0;
#pragma GCC unroll 9
            for (int d = 0; d < 9; d++) {
                r2 |= r1 & fb[d];
                r1 |= fb[d];
            }
            empty |= s->unsolved[b] & ~r1;
            singles[b] = r1 & ~r2 & s->unsolved[b];
            any |= singles[b];
        }
        if (empty)
            return 0;
        if (any) {
            for (int b = 0; b < 3; b++)
                for (uint32_t c = singles[b]; c; c &= c - 1) {
                    int k = ctz32(c);
                    uint32_t digits = V9(cell_digits9)(s->f + 9 * b, k);
                    if (!digits)
                        return 0; /* an earlier single in this pass took its only digit */
                    V9(place9)(s, ctz32(digits), b, k);
                }
            continue;
        }
        /* Only when singles are stuck, the stack step (most searches of the generator, on
         * puzzles with many clues, never need it). */
        if (!strong || !(s->unsolved[0] | s->unsolved[1] | s->unsolved[2]))
            return 1;
        int shrank = 0;
        while (dirty) {
            int d = ctz32(dirty);
            dirty &= dirty - 1;
            if (!V9(stack_step9)(s, d, &shrank))
                return 0;
        }
        if (!shrank)
            return 1;
    }
}

/* Write a solved state's digits (1-based) to out[0..80]. */
static void V9(extract9)(const S9 *s, uint8_t *out)
{
#if V9_AVX2
    /* A band's 27 cells as the bytes of a vector: each board's bits spread to bytes (byte j
     * of the word to bytes 8j..8j+7, each then tested for its own bit) give its digit where
     * set.  The third band is written as cells 49..80 (the last five of the second band in
     * front), so no store goes past cell 80; the stores go in order, each over the zeros the
     * one before left past its band. */
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2,
                                            2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bits = _mm256_set1_epi64x((long long)UINT64_C(0x8040201008040201));
    for (int b = 0; b < 3; b++) {
        __m256i acc = _mm256_setzero_si256();
        for (int d = 0; d < 9; d++) {
            uint32_t m = b < 2 ? s->f[9 * b + d] : s->f[9 + d] >> 22 | s->f[18 + d] << 5;
            __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)m), spread);
            v = _mm256_cmpeq_epi8(_mm256_and_si256(v, bits), bits);
            acc = _mm256_or_si256(acc, _mm256_and_si256(v, _mm256_set1_epi8((char)(d + 1))));
        }
        _mm256_storeu_si256((__m256i *)(out + (b < 2 ? 27 * b : 49)), acc);
    }
#else
    for (int i = 0; i < 27; i++) {
        uint32_t a = s->f[i];
        int base = (i / 9) * 27;
        while (a) {
            out[base + ctz32(a)] = (uint8_t)(i % 9 + 1);
            a &= a - 1;
        }
    }
#endif
}

/* Choose the cell to branch on: a bivalue cell when there is one, else one with the fewest
 * candidates.  With an rng, a random one of those.  With `scored` (the strong searches, those
 * of solve and count), the bivalue cell whose two digits have the most candidates among its
 * peers (row, box and column), the first such in cell order: both branches then take the most
 * candidates away, and the search needs over a third fewer nodes than from the first
 * bivalue cell on hard puzzles.  Otherwise the first bivalue cell: the generator's many
 * searches of puzzles with many clues need few nodes, and scoring costs them more than it
 * saves.  Return the cell (band*27+bit). */
static int V9(choose9)(const S9 *s, Rng *rng, int scored)
{
    uint32_t two[3];
    int ntwo = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t r1 = 0, r2 = 0, r3 = 0;
        for (int i = 9 * b; i < 9 * b + 9; i++) {
            uint32_t a = s->f[i];
            r3 |= r2 & a;
            r2 |= r1 & a;
            r1 |= a;
        }
        two[b] = r2 & ~r3 & s->unsolved[b];
        ntwo += __builtin_popcount(two[b]);
    }
    if (ntwo && scored && !rng) {
        /* The best as the largest of score * 128 + 127 - cell: among equal scores, the first
         * cell; a maximum rather than a test that could go either way at each cell. */
        int best_key = -1;
        for (int b = 0; b < 3; b++) {
            const uint32_t *fb = s->f + 9 * b;
            uint32_t t = two[b];
            while (t) {
                int k = ctz32(t);
                t &= t - 1;
                uint32_t row_box = T_BANDPEERS[k], col = T_COL[k];
                uint32_t digits = V9(cell_digits9)(fb, k); /* two of them */
                int pair[2] = {ctz32(digits), ctz32(digits & (digits - 1))};
                int score = 0;
                for (int j = 0; j < 2; j++) {
                    int d = pair[j];
#if V9_AVX2
                    score += popcount32(s->f[d] & (b == 0 ? row_box : col)) +
                             popcount32(s->f[9 + d] & (b == 1 ? row_box : col)) +
                             popcount32(s->f[18 + d] & (b == 2 ? row_box : col));
#else
                    /* Without a popcount instruction, one count instead of three: the row
                     * and box in bits 0-26, the column's cells in the other two bands above
                     * (the software popcount is the costly part, so one beats three). */
                    uint32_t cols = (s->f[9 * ((b + 1) % 3) + d] & col) |
                                    (s->f[9 * ((b + 2) % 3) + d] & col) << 1;
                    score += popcount64((fb[d] & row_box) | (uint64_t)cols << 27);
#endif
                }
                int key = score * 128 + 127 - (b * 27 + k);
                best_key = key > best_key ? key : best_key;
            }
        }
        return 127 - (best_key & 127);
    }
    if (ntwo) {
        int k = rng ? (int)rng_below(rng, (uint32_t)ntwo) : 0;
        for (int b = 0; b < 3; b++) {
            int c = __builtin_popcount(two[b]);
            if (k < c)
                return b * 27 + nth_bit64(two[b], k);
            k -= c;
        }
    }
    /* No bivalue cell: count candidates cell by cell. */
    int best = -1, best_count = 10, ties = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t u = s->unsolved[b];
        while (u) {
            int k = ctz32(u);
            u &= u - 1;
            int c = 0;
            for (int i = 9 * b; i < 9 * b + 9; i++)
                c += (s->f[i] >> k) & 1;
            if (c < best_count) {
                best_count = c;
                best = b * 27 + k;
                ties = 1;
            } else if (c == best_count && rng && rng_below(rng, (uint32_t)++ties) == 0) {
                best = b * 27 + k;
            }
        }
    }
    return best;
}

/* Depth-first search.  Return 1 when the caller should stop (limit reached or aborted). */
static int V9(search9)(S9 *s, Ctx *ctx)
{
    for (;;) {
        if (!V9(propagate9)(s, ctx->strong))
            return 0;
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
            uint8_t *out = ctx->count == 0 ? ctx->solution : ctx->count == 1 ? ctx->second : NULL;
            if (out)
                V9(extract9)(s, out);
            return ++ctx->count >= ctx->limit;
        }
        if ((ctx->node_limit && ++ctx->nodes > ctx->node_limit) || sudokit_interrupted()) {
            ctx->aborted = 1;
            return 1;
        }
        int cell = V9(choose9)(s, ctx->rng, ctx->strong);
        int b = cell / 27, k = cell % 27;
        int digits[9], nd = 0;
        for (uint32_t m = V9(cell_digits9)(s->f + 9 * b, k); m; m &= m - 1)
            digits[nd++] = ctz32(m);
        if (ctx->prefer) { /* its digit first (see Digger.solution in _engine.c) */
            int want = ctx->prefer[cell] - 1;
            for (int i = 1; i < nd; i++)
                if (digits[i] == want) {
                    digits[i] = digits[0];
                    digits[0] = want;
                }
        }
        if (ctx->rng)
            for (int i = nd - 1; i > 0; i--) {
                int j = (int)rng_below(ctx->rng, (uint32_t)i + 1);
                int t = digits[i];
                digits[i] = digits[j];
                digits[j] = t;
            }
        /* All but the last digit on a copy; the last one in place (tail loop). */
        for (int i = 0; i < nd - 1; i++) {
            S9 t = *s;
            V9(place9)(&t, digits[i], b, k);
            if (V9(search9)(&t, ctx))
                return 1;
        }
        V9(place9)(s, digits[nd - 1], b, k);
    }
}

/* clue[9*b+d]: the cells of band b that hold digit d+1 in `cells` (81 bytes, digits 0..9). */
static inline void V9(clue_boards9)(const uint8_t *cells, uint32_t *clue)
{
#if V9_AVX2
    /* Each band's bytes in a vector (the third read from cell 49, so as not to read past
     * cell 80), compared with each digit. */
    __m256i v0 = _mm256_loadu_si256((const __m256i *)cells),
            v1 = _mm256_loadu_si256((const __m256i *)(cells + 27)),
            v2 = _mm256_loadu_si256((const __m256i *)(cells + 49));
    for (int d = 0; d < 9; d++) {
        __m256i e = _mm256_set1_epi8((char)(d + 1));
        clue[d] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, e)) & BAND_ALL;
        clue[9 + d] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, e)) & BAND_ALL;
        clue[18 + d] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v2, e)) >> 5;
    }
#elif defined(__SSE2__)
    /* A band's 27 bytes in two overlapping reads, cells 0..15 and 11..26 of the band. */
    for (int b = 0; b < 3; b++) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(cells + 27 * b)),
                hi = _mm_loadu_si128((const __m128i *)(cells + 27 * b + 11));
        for (int d = 0; d < 9; d++) {
            __m128i e = _mm_set1_epi8((char)(d + 1));
            clue[9 * b + d] = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, e)) |
                              (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, e)) << 11;
        }
    }
#else
    memset(clue, 0, 27 * sizeof *clue);
    for (int cell = 0; cell < 81; cell++)
        if (cells[cell])
            clue[cell / 27 * 9 + cells[cell] - 1] |= UINT32_C(1) << (cell % 27);
#endif
}

/* Set up a state from n*n digit bytes (0 = empty).  Return 0 if two clues conflict.
 *
 * All at once rather than clue by clue: a digit's candidates are its clues and the empty cells
 * that none of its clues sees (the state placing the clues one by one would leave). */
static int V9(init9)(S9 *s, const uint8_t *cells)
{
    uint32_t clue[27]; /* as S9.f: clue[9*b+d] */
    V9(clue_boards9)(cells, clue);
    for (int b = 0; b < 3; b++) {
        const uint32_t *x = clue + 9 * b;
        s->unsolved[b] = BAND_ALL & ~(x[0] | x[1] | x[2] | x[3] | x[4] | x[5] | x[6] | x[7] | x[8]);
    }
    uint32_t bad = 0; /* non-zero once two clues conflict */
    for (int d = 0; d < 9; d++) {
        uint32_t c0 = band_cols(clue[d]), c1 = band_cols(clue[9 + d]), c2 = band_cols(clue[18 + d]);
        bad |= (c0 & c1) | (c0 & c2) | (c1 & c2); /* twice in a column, in two bands */
        uint32_t seen_cols = (c0 | c1 | c2) * SPREAD3;
        for (int b = 0; b < 3; b++) {
            /* Without a branch a clue (a loop over the clues is a steady source of
             * mispredicted branches): a row holds two when it is not its own one-cell
             * row (T_ROW); then the rows' triads give the rows and boxes seen, and whether
             * two rows' clues share a box (T_SEEN). */
            uint32_t a = clue[9 * b + d];
            uint64_t rows = T_ROW[0][a & 0x1FF] | T_ROW[1][(a >> 9) & 0x1FF] | T_ROW[2][a >> 18];
            uint32_t seen = T_SEEN[rows & 0x1FF];
            bad |= (a ^ (uint32_t)(rows >> 9)) | seen >> 31;
            s->f[9 * b + d] = (s->unsolved[b] & ~(seen | seen_cols)) | a;
        }
    }
    s->dirty = (UINT32_C(1) << 27) - 1; /* every board, once */
    return !bad;
}

/* Search the puzzle `cells`; with excl_cell >= 0, only for solutions whose digit at excl_cell
 * is not excl_digit (1-based). */
static void V9(run9)(const uint8_t *cells, Ctx *ctx, int excl_cell, int excl_digit)
{
    S9 s;
    if (!V9(init9)(&s, cells))
        return;
    if (excl_cell >= 0)
        s.f[excl_cell / 27 * 9 + excl_digit - 1] &= ~(UINT32_C(1) << (excl_cell % 27));
    V9(search9)(&s, ctx);
}

/* The generator's shared start (see dig in _engine.c): `cells` set up and propagated (weakly)
 * into *s.  Return 0 if that finds a contradiction. */
static int V9(base9)(S9 *s, const uint8_t *cells)
{
    return V9(init9)(s, cells) && V9(propagate9)(s, 0);
}

/* As run9 on `cells`, but from `base`: a state from base9 on `cells` with the cells
 * chunk[0..n-1] (and maybe others) emptied, so only the clues `cells` holds there now are
 * placed on a copy.  Every solution of `cells` keeps the base's candidates (the base had
 * fewer clues), so the answers are run9's. */
static void V9(again9)(const S9 *base, const uint8_t *cells, const int *chunk, int n, Ctx *ctx,
                       int excl_cell, int excl_digit)
{
    S9 s = *base;
    for (int i = 0; i < n; i++) {
        int c = chunk[i], v = cells[c];
        if (!v)
            continue;
        int b = c / 27, k = c % 27;
        uint32_t bit = UINT32_C(1) << k;
        if (!(s.f[9 * b + v - 1] & bit))
            return; /* the clue is no candidate here: no solution */
        if (s.unsolved[b] & bit)
            V9(place9)(&s, v - 1, b, k);
    }
    if (excl_cell >= 0) {
        int i = excl_cell / 27 * 9 + excl_digit - 1;
        s.f[i] &= ~(UINT32_C(1) << (excl_cell % 27));
        s.dirty |= UINT32_C(1) << i;
    }
    V9(search9)(&s, ctx);
}
