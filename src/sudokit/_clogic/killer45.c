/*
 * The rule of 45 (part of sudokit._logic): innies and outies of a house or of a group of
 * adjacent houses (the groups come with the cages in the rules blob, logic/_state.py; a
 * diagonal, window or disjoint group of the rules counts as a house).
 *
 * The cells of h houses that do not overlap hold each digit h times: they add up to
 * h * n(n+1)/2 (45 a house on 9x9). Take away the cages that lie wholly inside the group:
 * the cells left (the innies) add up to the rest. The cages that cross the group's edge add
 * up to their sums; the part of them outside the group (the outies) adds up to those sums
 * plus the inside cages' less the group's total. One innie or outie is a placement; two or
 * more make a sum that works as a cage (a virtual cage): their digits are cut down as a
 * cage's are (killer_sums.c; different digits when they are all peers, else the peer rule
 * pair by pair).
 *
 * Rated by the group (one house, or two or three) and the sum's empty cells; the table has a
 * technique for each, so that the solver tries the easy ones first. Order: the groups in the
 * blob's order (single houses as rows, columns, boxes; then the groups of two and three),
 * innies before outies. A step's info: the sum left, the sum before placed digits were taken
 * off it, the cages' total it comes from, then the combinations (count, digit sets).
 */

static void kl_step_of_45(lsink *out, int gi, const lgeo *g, const ksum *q, int before, int cages) {
    for (int i = 0; i < g->group_len[gi]; i++) lstep_unit(out, g->group_houses[3 * gi + i]);
    for (int i = 0; i < q->k; i++) lstep_cell(out, q->cells[i]);
    dmask all = 0;
    for (int i = 0; i < q->k; i++) all |= q->supp[i];
    int d0;
    DM_FOREACH(d0, all) lstep_digit(out, d0 + 1);
    lstep_info(out, q->total);
    lstep_info(out, before);
    lstep_info(out, cages);
    int stored = q->ncombo < KL_MAXCOMBO ? q->ncombo : KL_MAXCOMBO;
    lstep_info(out, q->ncombo);
    for (int i = 0; i < stored; i++) lstep_info(out, (int)q->combo[i]);
}

/* The sum over `cells` (less its placed digits) as q; its count of empty cells. */
static int kl_sum_of(const lstate *s, const cset *cells, int total, ksum *q) {
    int m = 0, nw = s->g->nw;
    CS_FOREACH(c, cells, nw) {
        if (s->values[c]) total -= s->values[c];
        else if (m < KL_MAXCELLS) q->cells[m++] = c;
        else return KL_MAXCELLS + 1;
    }
    q->k = m;
    q->total = total;
    return m;
}

/* One sum of the rule of 45; 1 when the finder must stop. */
static int kl_try_45(const lstate *s, lsink *out, int gi, int kind, const cset *cells, int total,
                     int cages, int lo, int hi, double rating) {
    ksum q;
    int m = kl_sum_of(s, cells, total, &q);
    if (m < lo || m > hi) return 0;
    int r = kl_solve(s, &q);
    if (r < 0) { out->failed = 1; return 1; }
    if (!r || !kl_changes(s, &q)) return 0;
    lstep_begin(out, kind, rating);
    kl_effects(s, out, &q);
    kl_step_of_45(out, gi, s->g, &q, total, cages);
    return lstep_end(out);
}

static void kl_rule_of_45(const lstate *s, lsink *out, int multi, int lo, int hi, double rating) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    for (int gi = 0; gi < g->ngroup; gi++) {
        int nh = g->group_len[gi];
        if ((nh > 1) != multi) continue;
        cset group, covered, crossing, uncaged;
        cs_clear(&group, nw); cs_clear(&covered, nw); cs_clear(&crossing, nw); cs_clear(&uncaged, nw);
        for (int i = 0; i < nh; i++) cs_or(&group, &group, lg_mask(g, g->group_houses[3 * gi + i]), nw);
        int inside = 0, across = 0, loose = 0;
        for (int k = 0; k < g->ncage; k++) {
            const cset *cm = &g->cage_mask[k];
            if (cs_within(cm, &group, nw)) { inside += g->cage_total[k]; cs_or(&covered, &covered, cm, nw); }
            else if (cs_meets(cm, &group, nw)) { across += g->cage_total[k]; cs_or(&crossing, &crossing, cm, nw); }
        }
        int total = nh * n * (n + 1) / 2;
        cset innies;
        cs_andnot(&innies, &group, &covered, nw);
        /* innies where no cage lies inside would be the houses themselves: no rule of 45 */
        if (!cs_empty(&covered, nw) && !cs_empty(&innies, nw) &&
            kl_try_45(s, out, gi, K_INNIES, &innies, total - inside, inside, lo, hi, rating))
            return;
        /* outies: only when every cell of the group in no cage is placed */
        CS_FOREACH(c, &group, nw) if (g->cage_of[c] < 0) {
            if (!s->values[c]) loose = 1;
            cs_add(&uncaged, c);
        }
        if (loose || cs_empty(&crossing, nw)) continue;
        int placed = 0;
        CS_FOREACH(c, &uncaged, nw) placed += s->values[c];
        cset outies;
        cs_andnot(&outies, &crossing, &group, nw);
        if (kl_try_45(s, out, gi, K_OUTIES, &outies, inside + across + placed - total, inside + across,
                      lo, hi, rating))
            return;
    }
}

static void lf_rule_of_45_single(const lstate *s, lsink *out) { kl_rule_of_45(s, out, 0, 1, 1, 1.5); }
static void lf_rule_of_45(const lstate *s, lsink *out) { kl_rule_of_45(s, out, 0, 2, LG_MAXN, 2.9); }
static void lf_rule_of_45_groups_single(const lstate *s, lsink *out) { kl_rule_of_45(s, out, 1, 1, 1, 3.1); }
static void lf_rule_of_45_groups(const lstate *s, lsink *out) { kl_rule_of_45(s, out, 1, 2, LG_MAXN, 3.5); }
