/*
 * The BUG (bivalue universal grave), types 1-4 (reference: tests/logic/pyref/bug.py), in
 * Sudoku Explainer's BivalueUniversalGrave order: the BUG cells and digits found unit by unit
 * (boxes, rows, columns; digits ascending), then type 1; else with one BUG digit type 2 then
 * type 4; else type 4 then type 3 (units box, row, column of the first BUG cell; set sizes 2
 * up to n - 3; cell sets in SE's colexicographic order, via small_unions in uniqueness.c).
 * Under rules, as SukakuExplainer: every house counts (the extra ones after the columns, in
 * its order), and a grave a neighbour rule may break (bug_restricted) is none.
 *
 * Info: the type, then for type 4 the BUG digits; for type 3 the number of BUG digits, the
 * BUG digits and the set's other cells.
 */

/* The candidates `rest` are an exact BUG: two per empty cell, zero or two per unit and digit. */
static int bug_exact(const lstate *s, const dmask *rest) {
    const lgeo *g = s->g;
    int n = g->n, size = g->size;
    for (int c = 0; c < size; c++)
        if (!s->values[c] && dm_count(rest[c]) != 2) return 0;
    int nhouse = g->rules ? g->nhouse : g->nunit;
    for (int u = 0; u < nhouse; u++) {
        const int *uc = lg_unit(g, u);
        dmask once = 0, twice = 0, more = 0;
        for (int i = 0; i < n; i++) {
            dmask m = rest[uc[i]];
            more |= twice & m;
            twice |= once & m;
            once |= m;
        }
        if (more || (once & ~twice)) return 0;
    }
    return 1;
}

/* SukakuExplainer's check under neighbour rules: no BUG when a cell a neighbour rule ties to
 * a bivalue cell of the grave (and no house does) may still hold one of its two digits. */
static int bug_restricted(const lstate *s, const dmask *rest) {
    const lgeo *g = s->g;
    int nw = g->nw;
    for (int c = 0; c < g->size; c++) {
        /* the cells tied to c by no house: g->nbr (geo_rules_chain_tables) */
        if (s->values[c] || g->nbr_start[c] == g->nbr_start[c + 1]) continue;
        int d0;
        cset either;
        cs_clear(&either, nw);
        DM_FOREACH(d0, rest[c]) cs_or(&either, &either, &s->where[d0 + 1], nw);
        for (int i = g->nbr_start[c]; i < g->nbr_start[c + 1]; i++)
            if (cs_has(&either, g->nbr[i])) return 1;
    }
    return 0;
}

/* Whether every one of cells is in house u. */
static int bug_all_in(const lgeo *g, const int *cells, int ncells, int u) {
    for (int i = 0; i < ncells; i++)
        if (!cs_has(lg_mask(g, u), cells[i])) return 0;
    return 1;
}

typedef struct {
    const lstate *s;
    lsink *out;
    const int *cells;
    int ncells;
    const int *region;
    int nregion;
    const int *pos;       /* region positions of the items */
    dmask all_digits;
    int unit, degree;
    int stop;
} bug_t3;

static int bug_t3_cb(void *ctx, const int *picked, int k, dmask un) {
    bug_t3 *t = ctx;
    const lstate *s = t->s;
    const lgeo *g = s->g;
    int nw = g->nw;
    dmask naked_set = un | t->all_digits;
    if (dm_count(un) != t->degree || dm_count(naked_set) != t->degree) return 0;
    uint64_t inset = 0;
    for (int j = 0; j < k; j++) inset |= (uint64_t)1 << t->pos[picked[j]];
    cset erasable;
    cs_clear(&erasable, nw);
    int any = 0;
    for (int i = 0; i < t->nregion; i++) {
        int c = t->region[i];
        if ((inset >> i) & 1) continue;  /* region cells are never BUG cells (they see them) */
        cs_add(&erasable, c);
        if (s->cand[c] & naked_set) any = 1;
    }
    if (!any) return 0;
    lsink *o = t->out;
    lstep_begin(o, K_BUG, round1(5.7 + (t->degree - 1) * 0.1));
    CS_FOREACH(c, &erasable, nw) {
        int d0;
        DM_FOREACH(d0, s->cand[c] & naked_set) lstep_elim(o, c, d0 + 1);
    }
    for (int i = 0; i < t->ncells; i++) lstep_cell(o, t->cells[i]);
    lstep_unit(o, t->unit);
    int d0;
    DM_FOREACH(d0, naked_set) lstep_digit(o, d0 + 1);
    lstep_info(o, 3);
    lstep_info(o, dm_count(t->all_digits));
    DM_FOREACH(d0, t->all_digits) lstep_info(o, d0 + 1);
    for (int j = 0; j < k; j++) lstep_info(o, t->region[t->pos[picked[j]]]);
    if (lstep_end(o)) t->stop = 1;
    return t->stop;
}

/* returns nonzero when the finder must stop */
static int bug_type3(const lstate *s, lsink *out, const int *cells, int ncells, dmask all_digits,
                     const cset *common) {
    const lgeo *g = s->g;
    int n = g->n;
    int np, nh;
    const int *ho = lg_peers(g, cells[0], &np);
    const int *hs = lg_houses(g, cells[0], &nh);
    bug_t3 t;
    t.s = s; t.out = out; t.cells = cells; t.ncells = ncells; t.all_digits = all_digits; t.stop = 0;
    for (int kk = 0; kk < nh; kk++) {  /* box, row, column (then the rules' extra houses) */
        int unit = hs[kk];
        if (!bug_all_in(g, cells, ncells, unit)) continue;
        int region[LG_MAXN], nregion = 0, pos[LG_MAXN], npos = 0;
        dmask masks[LG_MAXN];
        if (g->rules) {  /* SukakuExplainer: the common peers in the house, ascending */
            cset in;
            cs_and(&in, common, lg_mask(g, unit), g->nw);
            CS_FOREACH(c, &in, g->nw) region[nregion++] = c;
        } else {
            for (int j = 0; j < np; j++) {
                int c = ho[j];
                if (cs_has(common, c) && cs_has(lg_mask(g, unit), c)) region[nregion++] = c;
            }
        }
        for (int i = 0; i < nregion; i++)
            if (dm_count(s->cand[region[i]]) > 1) { pos[npos] = i; masks[npos++] = s->cand[region[i]]; }
        t.region = region; t.nregion = nregion; t.pos = pos; t.unit = unit;
        for (int degree = 2; degree < n - 2; degree++) {
            if (nregion < degree) continue;
            t.degree = degree;
            if (small_unions(masks, npos, degree - 1, degree, 0, bug_t3_cb, &t)) return 1;
        }
    }
    return 0;
}

static int bug_type4(const lstate *s, lsink *out, const int *cells, const dmask *bug_digits,
                     dmask all_digits) {
    const lgeo *g = s->g;
    int c1 = cells[0], c2 = cells[1];
    dmask shared = s->cand[c1] & s->cand[c2] & ~all_digits;
    if (dm_count(shared) != 1) return 0;
    int v = dm_low(shared) + 1, nh;
    const int *hs = lg_houses(g, c1, &nh);
    for (int kk = 0; kk < nh; kk++) {  /* box, row, column (then the rules' extra houses) */
        int u1 = hs[kk];
        if (!bug_all_in(g, cells, 2, u1)) continue;
        dmask gone1 = s->cand[c1] & ~bug_digits[c1] & ~shared;
        dmask gone2 = s->cand[c2] & ~bug_digits[c2] & ~shared;
        int a = c1, b = c2;
        dmask ga = gone1, gb = gone2;
        if (c2 < c1) { a = c2; b = c1; ga = gone2; gb = gone1; }
        lstep_begin(out, K_BUG, 5.7);
        int d0;
        DM_FOREACH(d0, ga) lstep_elim(out, a, d0 + 1);
        DM_FOREACH(d0, gb) lstep_elim(out, b, d0 + 1);
        lstep_cell(out, c1);
        lstep_cell(out, c2);
        lstep_unit(out, u1);
        lstep_digit(out, v);
        lstep_info(out, 4);
        DM_FOREACH(d0, all_digits) lstep_info(out, d0 + 1);
        if (lstep_end(out)) return 1;
    }
    return 0;
}

static void lf_bug(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    if (g->ncage) return;  /* (a killer's cage sums can tell the BUG's solutions apart) */
    int n = g->n, nw = g->nw, size = g->size;
    int cells[LG_MAXC], ncells = 0;
    dmask bug_digits[LG_MAXC], rest[LG_MAXC];
    memset(bug_digits, 0, sizeof(dmask) * (size_t)size);
    memcpy(rest, s->cand, sizeof(dmask) * (size_t)size);
    dmask all_digits = 0;
    int have_common = 0;
    cset common;
    cs_clear(&common, nw);
    int nscan = 3 * n + (g->rules ? g->nscan : 0);
    for (int k = 0; k < nscan; k++) {
        /* boxes, rows, columns, then the rules' extra houses (SukakuExplainer's order) */
        int u = k < n ? 2 * n + k : k < 3 * n ? k - n : g->scan[k - 3 * n];
        const cset *mask = lg_mask(g, u);
        for (int d = 1; d <= n; d++) {
            cset places;
            cs_and(&places, &s->where[d], mask, nw);
            int count = cs_count(&places, nw);
            if (count == 0 || count == 2) continue;
            int cell = -1, nwide = 0;
            CS_FOREACH(c, &places, nw) {
                if (dm_count(s->cand[c]) >= 3) {
                    if (!nwide) cell = c;
                    nwide++;
                }
            }
            if (!nwide) return;  /* too many places and no cell to blame: no BUG */
            if (nwide > 1) continue;
            dmask bit = (dmask)1 << (d - 1);
            if (!bug_digits[cell]) cells[ncells++] = cell;  /* new: every BUG cell has a digit */
            bug_digits[cell] |= bit;
            all_digits |= bit;
            rest[cell] &= ~bit;
            if (!have_common) { common = g->peer_mask[cell]; have_common = 1; }
            else cs_and(&common, &common, &g->peer_mask[cell], nw);
            for (int i = 0; i < ncells; i++) cs_del(&common, cells[i]);
            if (ncells > 1 && dm_count(all_digits) > 1 && cs_empty(&common, nw)) return;
        }
    }
    if (!ncells || !bug_exact(s, rest)) return;
    if (g->rules && bug_restricted(s, rest)) return;
    if (ncells == 1) {
        int cell = cells[0], d0;
        lstep_begin(out, K_BUG, 5.6);
        DM_FOREACH(d0, s->cand[cell] & ~all_digits) lstep_elim(out, cell, d0 + 1);
        lstep_cell(out, cell);
        DM_FOREACH(d0, all_digits) lstep_digit(out, d0 + 1);
        lstep_info(out, 1);
        lstep_end(out);
    } else if (dm_count(all_digits) == 1) {
        int d = dm_low(all_digits) + 1;
        cset hit;
        cs_and(&hit, &common, &s->where[d], nw);
        if (!cs_empty(&hit, nw)) {
            lstep_begin(out, K_BUG, 5.7);
            CS_FOREACH(c, &hit, nw) lstep_elim(out, c, d);
            for (int i = 0; i < ncells; i++) lstep_cell(out, cells[i]);
            lstep_digit(out, d);
            lstep_info(out, 2);
            if (lstep_end(out)) return;
        }
        if (ncells == 2) bug_type4(s, out, cells, bug_digits, all_digits);
    } else if (!cs_empty(&common, nw)) {
        if (ncells == 2 && bug_type4(s, out, cells, bug_digits, all_digits)) return;
        bug_type3(s, out, cells, ncells, all_digits, &common);
    }
}
