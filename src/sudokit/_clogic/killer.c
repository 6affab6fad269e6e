/*
 * Killer cages (part of sudokit._logic; reference: the known solutions of tests/test_killer_logic.py
 * check every step): cage singles, cage combinations, cage confinement and cage-house overlap.
 *
 * - Cage single: the last empty cell of a cage holds its sum less the cage's placed digits.
 * - Cage combination: the digit sets that make a cage's sum with its cells' candidates (its
 *   combinations); a candidate no filling of the cage uses is eliminated, and a cell left one
 *   digit takes it. Rated by the cage's empty cells (killer_rating in docs/rating.md): the
 *   table has one technique per size, so that the solver tries small cages first.
 * - Cage confinement: a digit in every combination of a cage goes in one of its cells that
 *   hold it; a cell outside the cage that sees all of those cells cannot hold it.
 * - Cage-house overlap: when every place left for a digit in a house lies in one cage, the
 *   digit is in that cage there; the cage's cells outside the house lose it.
 *
 * Search order: cages in the order of the layout (first cell, reading order); houses as the
 * classic units (rows, columns, boxes); digits ascending. A step's info is the cage's index
 * (then, for combinations, the sum left and the combinations: count and digit sets).
 */

/* The empty cells of cage k and the sum they must make; 0 when it has none. */
static int kl_cage_sum(const lstate *s, int k, ksum *q) {
    const lgeo *g = s->g;
    int total = g->cage_total[k], m = 0;
    for (int i = 0; i < g->cage_len[k]; i++) {
        int c = g->cage_cells[k * g->n + i];
        if (s->values[c]) total -= s->values[c];
        else q->cells[m++] = c;
    }
    q->k = m;
    q->total = total;
    return m;
}

static void kl_step_of_cage(lsink *out, int k, const ksum *q) {
    for (int i = 0; i < q->k; i++) lstep_cell(out, q->cells[i]);
    dmask all = 0;
    for (int i = 0; i < q->k; i++) all |= q->supp[i];
    int d0;
    DM_FOREACH(d0, all) lstep_digit(out, d0 + 1);
    lstep_info(out, k);
    lstep_info(out, q->total);
    int stored = q->ncombo < KL_MAXCOMBO ? q->ncombo : KL_MAXCOMBO;
    lstep_info(out, q->ncombo);
    for (int i = 0; i < stored; i++) lstep_info(out, (int)q->combo[i]);
}

/* Cage combinations on cages with lo..hi empty cells (a cage single for lo = hi = 1). */
static void kl_combinations(const lstate *s, lsink *out, int lo, int hi, double rating) {
    const lgeo *g = s->g;
    ksum q;
    for (int k = 0; k < g->ncage; k++) {
        int m = kl_cage_sum(s, k, &q);
        if (m < lo || m > hi) continue;
        int r = kl_solve(s, &q);
        if (r < 0) { out->failed = 1; return; }
        if (!r || !kl_changes(s, &q)) continue;
        lstep_begin(out, m == 1 ? K_CAGE_SINGLE : K_CAGE_COMBINATION, rating);
        kl_effects(s, out, &q);
        kl_step_of_cage(out, k, &q);
        if (lstep_end(out)) return;
    }
}

static void lf_cage_singles(const lstate *s, lsink *out) { kl_combinations(s, out, 1, 1, 1.0); }
static void lf_cage_combinations_2(const lstate *s, lsink *out) { kl_combinations(s, out, 2, 2, 1.6); }
static void lf_cage_combinations_3(const lstate *s, lsink *out) { kl_combinations(s, out, 3, 3, 2.0); }
static void lf_cage_combinations_4(const lstate *s, lsink *out) { kl_combinations(s, out, 4, LG_MAXN, 2.4); }

/* The classic houses that hold every cell of `cells`, added to the step as its units. */
static void kl_units_holding(const lstate *s, lsink *out, const cset *cells) {
    const lgeo *g = s->g;
    for (int u = 0; u < g->nunit; u++)
        if (cs_within(cells, &g->unit_mask[u], g->nw)) lstep_unit(out, u);
}

static void lf_cage_confinement(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int nw = g->nw;
    ksum q;
    for (int k = 0; k < g->ncage; k++) {
        if (kl_cage_sum(s, k, &q) < 2) continue;
        int r = kl_solve(s, &q);
        if (r < 0) { out->failed = 1; return; }
        if (!r) continue;
        int d0;
        DM_FOREACH(d0, q.required) {
            int d = d0 + 1;
            cset holding, seen = g->all, hit;
            cs_and(&holding, &s->where[d], &g->cage_mask[k], nw);
            CS_FOREACH(c, &holding, nw) cs_and(&seen, &seen, &g->peer_mask[c], nw);
            cs_and(&hit, &seen, &s->where[d], nw);
            cs_andnot(&hit, &hit, &g->cage_mask[k], nw);
            if (cs_empty(&hit, nw)) continue;
            lstep_begin(out, K_CAGE_CONFINEMENT, 2.5);
            CS_FOREACH(c, &hit, nw) lstep_elim(out, c, d);
            CS_FOREACH(c, &holding, nw) lstep_cell(out, c);
            kl_units_holding(s, out, &holding);
            lstep_digit(out, d);
            lstep_info(out, k);
            if (lstep_end(out)) return;
        }
    }
}

static void lf_cage_overlap(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int nw = g->nw, n = g->n;
    if (!g->ncage) return;  /* (no cage_of table without cages) */
    for (int u = 0; u < g->nunit; u++) {
        const cset *hm = &g->unit_mask[u];
        for (int d = 1; d <= n; d++) {
            cset places, hit;
            cs_and(&places, &s->where[d], hm, nw);
            int first = cs_first(&places, nw);
            if (first < 0) continue;
            int k = g->cage_of[first];
            if (k < 0 || !cs_within(&places, &g->cage_mask[k], nw)) continue;
            cs_and(&hit, &s->where[d], &g->cage_mask[k], nw);
            cs_andnot(&hit, &hit, hm, nw);
            if (cs_empty(&hit, nw)) continue;
            lstep_begin(out, K_CAGE_OVERLAP, 2.7);
            CS_FOREACH(c, &hit, nw) lstep_elim(out, c, d);
            CS_FOREACH(c, &places, nw) lstep_cell(out, c);
            lstep_unit(out, u);
            lstep_digit(out, d);
            lstep_info(out, k);
            if (lstep_end(out)) return;
        }
    }
}
