/*
 * Basic fish (reference: tests/logic/pyref/fish.py): X-Wing, Swordfish, Jellyfish. Sudoku
 * Explainer's order (Fisherman): columns as base lines first, then rows; within each, the
 * steps sorted by (the set of base lines as a bitmask, the digit).
 *
 * The reference tries each digit's sets of base lines (colexicographic over the lines that
 * keep 2..k places) and sorts the finds. Here the sets of base lines are walked once in
 * colexicographic order over all lines -- the order of increasing bitmask -- carrying the
 * digits for which every line so far qualifies and the cover lines so far number at most k;
 * the digits of a set are then taken ascending. That is the sorted order, with nothing kept.
 *
 * A line's "covers" for a digit: the lines of the other direction holding its places there,
 * as a bitmask (the digit's positions in the base line).
 */

typedef struct {
    const lstate *s;
    lsink *out;
    int k, base_first, cover_first;
    const uint64_t (*cov)[LG_MAXN];   /* cov[d][i]: covers of base line i */
    const uint64_t (*tcov)[LG_MAXN];  /* tcov[d][j]: base lines holding d in cover line j */
    dmask inpool[LG_MAXN];            /* the digits for which base line i has 2..k places */
    uint64_t acc[LG_MAXSET + 1][LG_MAXN + 1];
} lfish;

static int fish_emit(lfish *x, uint64_t lines, int d, uint64_t uni) {
    const lstate *s = x->s;
    const lgeo *g = s->g;
    int nw = g->nw, i;
    /* removals: the digit in a cover line outside the base lines */
    int any = 0;
    DM_FOREACH(i, uni) if (x->tcov[d][i] & ~lines) { any = 1; break; }
    if (!any) return 0;
    static const int kinds[5] = {0, 0, K_X_WING, K_SWORDFISH, K_JELLYFISH};
    static const double ratings[5] = {0, 0, 3.2, 3.8, 5.2};
    cset base, cover, t;
    cs_clear(&base, nw);
    cs_clear(&cover, nw);
    DM_FOREACH(i, lines) cs_or(&base, &base, &g->unit_mask[x->base_first + i], nw);
    DM_FOREACH(i, uni) cs_or(&cover, &cover, &g->unit_mask[x->cover_first + i], nw);
    cs_and(&cover, &cover, &s->where[d], nw);
    lstep_begin(x->out, kinds[x->k], ratings[x->k]);
    cs_andnot(&t, &cover, &base, nw);
    CS_FOREACH(c, &t, nw) lstep_elim(x->out, c, d);
    cs_and(&t, &cover, &base, nw);
    CS_FOREACH(c, &t, nw) lstep_cell(x->out, c);
    DM_FOREACH(i, lines) lstep_unit(x->out, x->base_first + i);
    DM_FOREACH(i, uni) lstep_unit(x->out, x->cover_first + i);
    lstep_digit(x->out, d);
    return lstep_end(x->out);
}

/* Base line idx[level] from level..limit-1, the lines above already chosen (`lines`);
 * `viable`: the digits still possible, as 0-based bits. */
static int fish_level(lfish *x, int level, int limit, uint64_t lines, dmask viable) {
    int k = x->k;
    for (int i = level; i < limit; i++) {
        dmask nv = 0, cand = viable & x->inpool[i];
        int d0;
        DM_FOREACH(d0, cand) {
            uint64_t a = x->acc[level + 1][d0 + 1] | x->cov[d0 + 1][i];
            if (dm_count(a) > k) continue;
            x->acc[level][d0 + 1] = a;
            nv |= (dmask)1 << d0;
        }
        if (!nv) continue;
        uint64_t l = lines | (uint64_t)1 << i;
        if (level == 0) {
            DM_FOREACH(d0, nv) {
                uint64_t a = x->acc[0][d0 + 1];
                if (dm_count(a) == k && fish_emit(x, l, d0 + 1, a)) return 1;
            }
        } else if (fish_level(x, level - 1, i, l, nv)) {
            return 1;
        }
    }
    return 0;
}

static void fish(const lstate *s, lsink *out, int k) {
    const lgeo *g = s->g;
    int n = g->n;
    /* rowpos[d][r]: columns of d in row r; colpos[d][c]: rows of d in column c */
    uint64_t rowpos[LG_MAXN + 1][LG_MAXN], colpos[LG_MAXN + 1][LG_MAXN];
    int placed[LG_MAXN + 1];
    memset(placed, 0, sizeof placed);
    for (int d = 1; d <= n; d++)
        for (int i = 0; i < n; i++) rowpos[d][i] = colpos[d][i] = 0;
    for (int c = 0; c < g->size; c++) {
        placed[s->values[c]]++;
        int r = c / n, col = c % n, d0;
        DM_FOREACH(d0, s->cand[c]) {
            rowpos[d0 + 1][r] |= (uint64_t)1 << col;
            colpos[d0 + 1][col] |= (uint64_t)1 << r;
        }
    }
    dmask viable = 0;
    for (int d = 1; d <= n; d++)
        if (placed[d] + 2 * k <= n) viable |= (dmask)1 << (d - 1);
    if (!viable) return;
    lfish x;
    x.s = s;
    x.out = out;
    x.k = k;
    for (int pass = 0; pass < 2; pass++) {
        /* column bases (covers are rows), then row bases */
        x.base_first = pass == 0 ? n : 0;
        x.cover_first = pass == 0 ? 0 : n;
        x.cov = (const uint64_t (*)[LG_MAXN])(pass == 0 ? colpos : rowpos);
        x.tcov = (const uint64_t (*)[LG_MAXN])(pass == 0 ? rowpos : colpos);
        for (int i = 0; i < n; i++) {
            x.inpool[i] = 0;
            int d0;
            DM_FOREACH(d0, viable) {
                int np = dm_count(x.cov[d0 + 1][i]);
                if (np >= 2 && np <= k) x.inpool[i] |= (dmask)1 << d0;
            }
        }
        for (int d = 1; d <= n; d++) x.acc[k][d] = 0;
        if (fish_level(&x, k - 1, n, 0, viable)) return;
    }
}

static void lf_x_wings(const lstate *s, lsink *out) { fish(s, out, 2); }
static void lf_swordfish(const lstate *s, lsink *out) { fish(s, out, 3); }
static void lf_jellyfish(const lstate *s, lsink *out) { fish(s, out, 4); }
