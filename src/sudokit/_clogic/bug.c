/*
 * The BUG (bivalue universal grave), types 1-4 (reference: tests/logic/pyref/bug.py), in
 * Sudoku Explainer's BivalueUniversalGrave order: the BUG cells and digits found unit by unit
 * (boxes, rows, columns; digits ascending), then type 1; else with one BUG digit type 2 then
 * type 4; else type 4 then type 3 (units box, row, column of the first BUG cell; set sizes 2
 * up to n - 3; cell sets in SE's colexicographic order, via small_unions in uniqueness.c).
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
    for (int u = 0; u < g->nunit; u++) {
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
    const int *ho = g->house_order + cells[0] * g->npeer;
    bug_t3 t;
    t.s = s; t.out = out; t.cells = cells; t.ncells = ncells; t.all_digits = all_digits; t.stop = 0;
    static const int kinds[3] = {2, 0, 1};  /* box, row, column */
    for (int kk = 0; kk < 3; kk++) {
        int kind = kinds[kk];
        int unit = g->units_of[3 * cells[0] + kind], ok = 1;
        for (int i = 0; i < ncells && ok; i++)
            if (g->units_of[3 * cells[i] + kind] != unit) ok = 0;
        if (!ok) continue;
        int region[LG_MAXN], nregion = 0, pos[LG_MAXN], npos = 0;
        dmask masks[LG_MAXN];
        for (int j = 0; j < g->npeer; j++) {
            int c = ho[j];
            if (cs_has(common, c) && g->units_of[3 * c + kind] == unit) region[nregion++] = c;
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
    int v = dm_low(shared) + 1;
    static const int kinds[3] = {2, 0, 1};  /* box, row, column */
    for (int kk = 0; kk < 3; kk++) {
        int u1 = g->units_of[3 * c1 + kinds[kk]], u2 = g->units_of[3 * c2 + kinds[kk]];
        if (u1 != u2) continue;
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
    int n = g->n, nw = g->nw, size = g->size;
    int cells[LG_MAXC], ncells = 0;
    dmask bug_digits[LG_MAXC], rest[LG_MAXC];
    memset(bug_digits, 0, sizeof(dmask) * (size_t)size);
    memcpy(rest, s->cand, sizeof(dmask) * (size_t)size);
    dmask all_digits = 0;
    int have_common = 0;
    cset common;
    cs_clear(&common, nw);
    for (int k = 0; k < 3 * n; k++) {
        int u = k < n ? 2 * n + k : k - n;  /* boxes, rows, columns */
        const cset *mask = &g->unit_mask[u];
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
