/*
 * Intersections (reference: tests/logic/reference/intersections.py): pointing and claiming,
 * and their direct forms. Sudoku Explainer's Locking order: the unit kinds (box, column),
 * (box, row), (column, box), (row, box); within each, unit1, then unit2, then the digit; for
 * a direct step, the other units of unit1's kind crossing unit2, in index order.
 *
 * Info of a direct step: the cleared candidates as (cell, digit) pairs.
 */

static inline __attribute__((always_inline)) void locking_nw(const lstate *s, lsink *out, int direct, int nw) {
    static const int kind_pairs[4][2] = {{2, 1}, {2, 0}, {1, 2}, {0, 2}};
    const lgeo *g = s->g;
    int n = g->n;
    for (int kp = 0; kp < 4; kp++) {
        int k1 = kind_pairs[kp][0], k2 = kind_pairs[kp][1], pointing = k1 == 2;
        for (int u1 = k1 * n; u1 < k1 * n + n; u1++) {
            const cset *m1 = &g->unit_mask[u1];
            /* finds as (unit2, digit), sorted: at most one unit2 per digit */
            int fu[LG_MAXN], fd[LG_MAXN], nf = 0;
            for (int d = 1; d <= n; d++) {
                cset places;
                cs_and(&places, &s->where[d], m1, nw);
                if (!cs_many(&places, nw)) continue;
                int u2 = g->units_of[3 * cs_first(&places, nw) + k2];
                if (!cs_within(&places, &g->unit_mask[u2], nw)) continue;
                /* insert sorted by (u2, d); d ascending already */
                int k = nf++;
                while (k > 0 && fu[k - 1] > u2) { fu[k] = fu[k - 1]; fd[k] = fd[k - 1]; k--; }
                fu[k] = u2; fd[k] = d;
            }
            for (int f = 0; f < nf; f++) {
                int u2 = fu[f], d = fd[f];
                const cset *m2 = &g->unit_mask[u2];
                cset places, removed;
                cs_and(&places, &s->where[d], m1, nw);
                cs_and(&removed, &s->where[d], m2, nw);
                cs_andnot(&removed, &removed, m1, nw);
                if (!direct) {
                    if (cs_empty(&removed, nw)) continue;
                    lstep_begin(out, pointing ? K_POINTING : K_CLAIMING, pointing ? 2.6 : 2.8);
                    CS_FOREACH(c, &removed, nw) lstep_elim(out, c, d);
                    CS_FOREACH(c, &places, nw) lstep_cell(out, c);
                    lstep_unit(out, u1);
                    lstep_unit(out, u2);
                    lstep_digit(out, d);
                    if (lstep_end(out)) return;
                    continue;
                }
                for (int u3 = k1 * n; u3 < k1 * n + n; u3++) {
                    const cset *m3 = &g->unit_mask[u3];
                    if (u3 == u1 || !cs_meets(m3, m2, nw)) continue;
                    cset places3, left;
                    cs_and(&places3, &s->where[d], m3, nw);
                    if (!cs_many(&places3, nw)) continue;
                    cs_andnot(&left, &places3, m2, nw);
                    if (!cs_single(&left, nw)) continue;
                    lstep_begin(out, pointing ? K_DIRECT_POINTING : K_DIRECT_CLAIMING,
                                pointing ? 1.7 : 1.9);
                    lstep_place(out, cs_first(&left, nw), d);
                    CS_FOREACH(c, &places, nw) lstep_cell(out, c);
                    lstep_unit(out, u1);
                    lstep_unit(out, u2);
                    lstep_unit(out, u3);
                    lstep_digit(out, d);
                    CS_FOREACH(c, &removed, nw) { lstep_info(out, c); lstep_info(out, d); }
                    if (lstep_end(out)) return;
                }
            }
        }
    }
}

/* On a rules geometry: SukakuExplainer's Locking over the pairs of house kinds g->lpairs
 * ((box, column), (box, row), (column, box), (row, box), then those of disjoint groups and
 * windows with lines, boxes and each other); within a pair, the digit, then the house of the
 * first kind, then a crossing house of the second. A plain step is pointing (2.6) when the
 * second house is a line, else claiming (2.8); a direct one is direct pointing (1.7) when the
 * first is a box or region, else direct claiming (1.9): SukakuExplainer's ratings. */
static void rules_locking(const lstate *s, lsink *out, int direct) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    for (int p = 0; p < g->nlpair; p++) {
        int t1 = g->lpairs[2 * p], t2 = g->lpairs[2 * p + 1];
        const int *h1 = g->ltype_houses + t1 * n, *of2 = g->ltype_of + t2 * g->size;
        int n1 = g->ltype_len[t1];
        int pointing = direct ? g->ltype_flags[t1] == 2 : g->ltype_flags[t2] == 1;
        int kind = direct ? (pointing ? K_DIRECT_POINTING : K_DIRECT_CLAIMING)
                          : (pointing ? K_POINTING : K_CLAIMING);
        double rating = direct ? (pointing ? 1.7 : 1.9) : (pointing ? 2.6 : 2.8);
        for (int d = 1; d <= n; d++)
            for (int i1 = 0; i1 < n1; i1++) {
                int u1 = h1[i1];
                const cset *m1 = lg_mask(g, u1);
                cset places;
                cs_and(&places, &s->where[d], m1, nw);
                if (!cs_many(&places, nw)) continue;
                /* the houses of a kind are disjoint: only the one holding the first place
                 * can hold them all */
                {
                    int u2 = of2[cs_first(&places, nw)];
                    if (u2 < 0) continue;
                    const cset *m2 = lg_mask(g, u2);
                    if (!cs_within(&places, m2, nw)) continue;
                    cset removed;
                    cs_and(&removed, &s->where[d], m2, nw);
                    cs_andnot(&removed, &removed, m1, nw);
                    if (!direct) {
                        if (cs_empty(&removed, nw)) continue;
                        lstep_begin(out, kind, rating);
                        CS_FOREACH(c, &removed, nw) lstep_elim(out, c, d);
                        CS_FOREACH(c, &places, nw) lstep_cell(out, c);
                        lstep_unit(out, u1);
                        lstep_unit(out, u2);
                        lstep_digit(out, d);
                        if (lstep_end(out)) return;
                        continue;
                    }
                    for (int i3 = 0; i3 < n1; i3++) {
                        int u3 = h1[i3];
                        const cset *m3 = lg_mask(g, u3);
                        if (u3 == u1 || !cs_meets(m3, m2, nw)) continue;
                        cset places3, left;
                        cs_and(&places3, &s->where[d], m3, nw);
                        if (!cs_many(&places3, nw)) continue;
                        cs_andnot(&left, &places3, m2, nw);
                        if (!cs_single(&left, nw)) continue;
                        lstep_begin(out, kind, rating);
                        lstep_place(out, cs_first(&left, nw), d);
                        CS_FOREACH(c, &places, nw) lstep_cell(out, c);
                        lstep_unit(out, u1);
                        lstep_unit(out, u2);
                        lstep_unit(out, u3);
                        lstep_digit(out, d);
                        CS_FOREACH(c, &removed, nw) { lstep_info(out, c); lstep_info(out, d); }
                        if (lstep_end(out)) return;
                    }
                }
            }
    }
}

static inline __attribute__((always_inline)) void direct_locking(const lstate *s, lsink *out, int nw) { locking_nw(s, out, 1, nw); }
static inline __attribute__((always_inline)) void plain_locking(const lstate *s, lsink *out, int nw) { locking_nw(s, out, 0, nw); }
static void lf_direct_intersections(const lstate *s, lsink *out) {
    if (s->g->rules) rules_locking(s, out, 1);
    else LG_NW_SPECIALIZED(direct_locking, s, out);
}
static void lf_intersections(const lstate *s, lsink *out) {
    if (s->g->rules) rules_locking(s, out, 0);
    else LG_NW_SPECIALIZED(plain_locking, s, out);
}
