/*
 * Singles (reference: tests/logic/reference/singles.py): full house, hidden single, naked
 * single. Sudoku Explainer's order: units as boxes, then columns, then rows; digits
 * ascending; naked singles by cell.
 */

/* Boxes, then columns, then rows. */
static inline int se_unit(const lgeo *g, int i) {
    int n = g->n;
    return i < n ? 2 * n + i : (i < 2 * n ? i : i - 2 * n);
}

/* The i-th house singles and hidden sets visit: the classic units in se_unit's order, then a
 * rules geometry's extra houses in SukakuExplainer's order (g->scan). */
static inline int scan_unit(const lgeo *g, int i) {
    return i < g->nunit ? se_unit(g, i) : g->scan[i - g->nunit];
}

static inline __attribute__((always_inline)) void full_houses(const lstate *s, lsink *out, int nw) {
    const lgeo *g = s->g;
    int nscan = g->nunit + g->nscan;
    for (int i = 0; i < nscan; i++) {
        int u = scan_unit(g, i);
        cset e;
        cs_and(&e, &s->empty, lg_mask(g, u), nw);
        if (!cs_single(&e, nw)) continue;
        int cell = cs_first(&e, nw), d0;
        DM_FOREACH(d0, s->cand[cell]) {
            lstep_begin(out, K_FULL_HOUSE, 1.0);
            lstep_place(out, cell, d0 + 1);
            lstep_cell(out, cell);
            lstep_unit(out, u);
            lstep_digit(out, d0 + 1);
            if (lstep_end(out)) return;
        }
    }
}

static void lf_full_houses(const lstate *s, lsink *out) { LG_NW_SPECIALIZED(full_houses, s, out); }

static inline __attribute__((always_inline)) void hidden_singles(const lstate *s, lsink *out, int nw) {
    const lgeo *g = s->g;
    int n = g->n, nscan = g->nunit + g->nscan;
    for (int i = 0; i < nscan; i++) {
        int u = scan_unit(g, i);
        const cset *m = lg_mask(g, u);
        cset e;
        cs_and(&e, &s->empty, m, nw);
        if (!cs_many(&e, nw)) continue;
        /* 1.2 in a box (or jigsaw region), 1.5 in a line or an extra house (SukakuExplainer) */
        double rating = u >= 2 * n && u < 3 * n ? 1.2 : 1.5;
        for (int d = 1; d <= n; d++) {
            cset places;
            cs_and(&places, &s->where[d], m, nw);
            if (!cs_single(&places, nw)) continue;
            int cell = cs_first(&places, nw);
            lstep_begin(out, K_HIDDEN_SINGLE, rating);
            lstep_place(out, cell, d);
            lstep_cell(out, cell);
            lstep_unit(out, u);
            lstep_digit(out, d);
            if (lstep_end(out)) return;
        }
    }
}

static void lf_hidden_singles(const lstate *s, lsink *out) { LG_NW_SPECIALIZED(hidden_singles, s, out); }

static void lf_naked_singles(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    for (int cell = 0; cell < g->size; cell++) {
        dmask m = s->cand[cell];
        if (!dm_single(m)) continue;
        int d = dm_low(m) + 1;
        lstep_begin(out, K_NAKED_SINGLE, 2.3);
        lstep_place(out, cell, d);
        lstep_cell(out, cell);
        lstep_digit(out, d);
        if (lstep_end(out)) return;
    }
}
