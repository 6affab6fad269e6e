/*
 * Patterns (reference: tests/logic/pyref/patterns.py): HoDoKu's named patterns that Sudoku
 * Explainer lacks: locked pair/triple, skyscraper, 2-string kite, turbot fish, empty rectangle,
 * W-Wing, WXYZ-Wing, finned and sashimi X-Wing/Swordfish/Jellyfish. Every loop and tie-break
 * follows the reference line by line.
 *
 * Shared with coloring.c: strong links (lstrong, strong_of), HoDoKu's weighted index sum
 * (hodoku_sum_cells). The chain length bonus is logic.h's length_bonus_steps.
 */

/* The strong links on one digit: for each cell, the cells it is strongly linked to, ascending
 * (the reference's strong_partners; a cell has at most one partner per unit). */
typedef struct {
    int16_t p[LG_MAXC][3];
    uint8_t k[LG_MAXC];
} lstrong;

static inline void sp_add(lstrong *st, int a, int b) {
    int k = st->k[a];
    for (int i = 0; i < k; i++)
        if (st->p[a][i] == b) return;
    int i = k;
    while (i > 0 && st->p[a][i - 1] > b) { st->p[a][i] = st->p[a][i - 1]; i--; }
    st->p[a][i] = (int16_t)b;
    st->k[a] = (uint8_t)(k + 1);
}

static void strong_of(const lstate *s, int d, lstrong *st) {
    const lgeo *g = s->g;
    int nw = g->nw;
    memset(st->k, 0, (size_t)g->size);
    for (int u = 0; u < g->nunit; u++) {
        cset m;
        cs_and(&m, &s->where[d], &g->unit_mask[u], nw);
        if (cs_count(&m, nw) != 2) continue;
        int a = cs_first(&m, nw), b = cs_last(&m, nw);
        sp_add(st, a, b);
        sp_add(st, b, a);
    }
}

/* The partners of cell c as a cell set. */
static inline void sp_mask(const lstrong *st, int c, cset *r, int nw) {
    cs_clear(r, nw);
    for (int i = 0; i < st->k[c]; i++) cs_add(r, st->p[c][i]);
}

/* HoDoKu's weighted index sum (patterns.hodoku_sum) of the eliminations "digit d from every
 * cell of m", in cell order; *count gets the number of cells. */
static int64_t hodoku_sum_cells(const cset *m, int d, int nw, int *count) {
    int64_t total = 0, weight = 1;
    int k = 0;
    CS_FOREACH(c, m, nw) {
        total += (int64_t)c * weight + d;
        weight += 80;
        k++;
    }
    *count = k;
    return total;
}

/* An alternating single-digit chain that starts with a strong link (the reference's _x_links). */
static void x_links(lsink *out, const int *cells, int k, int d) {
    for (int i = 0; i + 1 < k; i++) lstep_link(out, cells[i], d, cells[i + 1], d, i % 2 == 0);
}

/* The strong links on d in units u0..u1-1: (unit, first cell, second cell). */
static int unit_pairs(const lstate *s, int d, int u0, int u1, int (*pr)[3]) {
    const lgeo *g = s->g;
    int nw = g->nw, k = 0;
    for (int u = u0; u < u1; u++) {
        cset m;
        cs_and(&m, &s->where[d], &g->unit_mask[u], nw);
        if (cs_count(&m, nw) != 2) continue;
        pr[k][0] = u;
        pr[k][1] = cs_first(&m, nw);
        pr[k][2] = cs_last(&m, nw);
        k++;
    }
    return k;
}

/* ------------------------------------------------------------------ locked pair / triple */

static int locked_emit(const lstate *s, lsink *out, int size, int box, int line, const int *combo) {
    const lgeo *g = s->g;
    int nw = g->nw;
    dmask digits = 0;
    for (int i = 0; i < size; i++) digits |= s->cand[combo[i]];
    if (dm_count(digits) != size) return 0;
    cset rest;
    cs_or(&rest, &g->unit_mask[box], &g->unit_mask[line], nw);
    cs_and(&rest, &rest, &s->empty, nw);
    for (int i = 0; i < size; i++) cs_del(&rest, combo[i]);
    int any = 0;
    CS_FOREACH(c, &rest, nw) if (s->cand[c] & digits) { any = 1; break; }
    if (!any) return 0;
    lstep_begin(out, size == 2 ? K_LOCKED_PAIR : K_LOCKED_TRIPLE, size == 2 ? 3.0 : 3.6);
    CS_FOREACH(c, &rest, nw) {
        int d0;
        DM_FOREACH(d0, s->cand[c] & digits) lstep_elim(out, c, d0 + 1);
    }
    for (int i = 0; i < size; i++) lstep_cell(out, combo[i]);
    lstep_unit(out, box);
    lstep_unit(out, line);
    int d0;
    DM_FOREACH(d0, digits) lstep_digit(out, d0 + 1);
    return lstep_end(out);
}

static void lf_locked_subsets(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    for (int size = 2; size <= 3; size++)
        for (int box = 2 * n; box < 3 * n; box++)
            for (int line = 0; line < 2 * n; line++) {
                cset seg;
                cs_and(&seg, &g->unit_mask[box], &g->unit_mask[line], nw);
                cs_and(&seg, &seg, &s->empty, nw);
                int cells[LG_MAXN], k = 0;
                CS_FOREACH(c, &seg, nw) if (dm_count(s->cand[c]) <= size) cells[k++] = c;
                int combo[3];
                for (int i = 0; i < k; i++) {
                    combo[0] = cells[i];
                    for (int j = i + 1; j < k; j++) {
                        combo[1] = cells[j];
                        if (size == 2) {
                            if (locked_emit(s, out, 2, box, line, combo)) return;
                            continue;
                        }
                        for (int m = j + 1; m < k; m++) {
                            combo[2] = cells[m];
                            if (locked_emit(s, out, 3, box, line, combo)) return;
                        }
                    }
                }
            }
}

/* ------------------------------------------------------------------ skyscraper, kite */

static int chain4_emit(const lstate *s, lsink *out, int kind, double rating, int d,
                       const cset *removed, const int *cells, const int *units, int nunits) {
    int nw = s->g->nw;
    lstep_begin(out, kind, rating);
    CS_FOREACH(c, removed, nw) lstep_elim(out, c, d);
    for (int i = 0; i < 4; i++) lstep_cell(out, cells[i]);
    for (int i = 0; i < nunits; i++) lstep_unit(out, units[i]);
    lstep_digit(out, d);
    x_links(out, cells, 4, d);
    lstep_complexity(out, 4);
    return lstep_end(out);
}

static void lf_skyscrapers(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    int pr[LG_MAXN][3];
    for (int kind = 0; kind < 2; kind++) {
        /* rows meet in a column (cross: the column), columns in a row */
        int cross_k = kind == 0 ? 1 : 0;
        for (int d = 1; d <= n; d++) {
            int np = unit_pairs(s, d, kind * n, kind * n + n, pr);
            for (int i = 0; i < np; i++)
                for (int j = i + 1; j < np; j++) {
                    int a1 = pr[i][1], b1 = pr[i][2], a2 = pr[j][1], b2 = pr[j][2];
                    int ends[4][4] = {{a1, b1, a2, b2}, {b1, a1, b2, a2}, {a1, b1, b2, a2}, {b1, a1, a2, b2}};
                    int e = 0;
                    while (e < 4 && g->units_of[3 * ends[e][0] + cross_k] != g->units_of[3 * ends[e][2] + cross_k]) e++;
                    if (e == 4) continue;
                    int base1 = ends[e][0], free1 = ends[e][1], base2 = ends[e][2], free2 = ends[e][3];
                    if (g->units_of[3 * free1 + cross_k] == g->units_of[3 * free2 + cross_k]) continue;
                    cset removed;
                    cs_and(&removed, &s->where[d], &g->peer_mask[free1], nw);
                    cs_and(&removed, &removed, &g->peer_mask[free2], nw);
                    if (cs_empty(&removed, nw)) continue;
                    int cells[4] = {free1, base1, base2, free2}, units[2] = {pr[i][0], pr[j][0]};
                    if (chain4_emit(s, out, K_SKYSCRAPER, 4.0, d, &removed, cells, units, 2)) return;
                }
        }
    }
}

static void lf_two_string_kites(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    int rows[LG_MAXN][3], cols[LG_MAXN][3];
    for (int d = 1; d <= n; d++) {
        int nr = unit_pairs(s, d, 0, n, rows), nc = unit_pairs(s, d, n, 2 * n, cols);
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < nc; j++) {
                int r1 = rows[i][1], r2 = rows[i][2], c1 = cols[j][1], c2 = cols[j][2];
                int ends[4][4] = {{r1, r2, c1, c2}, {r1, r2, c2, c1}, {r2, r1, c1, c2}, {r2, r1, c2, c1}};
                int e = 0;
                while (e < 4 && lg_box(g, ends[e][0]) != lg_box(g, ends[e][2])) e++;
                if (e == 4) continue;
                int rb = ends[e][0], rf = ends[e][1], cb = ends[e][2], cf = ends[e][3];
                if (r1 == c1 || r1 == c2 || r2 == c1 || r2 == c2) continue;
                cset removed;
                cs_and(&removed, &s->where[d], &g->peer_mask[rf], nw);
                cs_and(&removed, &removed, &g->peer_mask[cf], nw);
                if (cs_empty(&removed, nw)) continue;
                int cells[4] = {rf, rb, cb, cf}, units[3] = {rows[i][0], cols[j][0], lg_box(g, rb)};
                if (chain4_emit(s, out, K_TWO_STRING_KITE, 4.1, d, &removed, cells, units, 3)) return;
            }
    }
}

/* ------------------------------------------------------------------ turbot fish */

typedef struct {
    int d, a, b, c, e, nelim, order;
    int64_t hsum;
} turbot_rec;

static int turbot_cmp(const void *x, const void *y) {
    const turbot_rec *p = x, *q = y;
    if (p->nelim != q->nelim) return p->nelim > q->nelim ? -1 : 1;
    if (p->hsum != q->hsum) return p->hsum < q->hsum ? -1 : 1;
    return (p->order > q->order) - (p->order < q->order);
}

static void lf_turbot_fish(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw, size = g->size;
    lstrong *st = malloc(sizeof(lstrong));
    turbot_rec *rec = NULL;
    int nrec = 0, cap = 0;
    if (!st) { out->failed = 1; return; }
    for (int d = 1; d <= n; d++) {
        const cset *where = &s->where[d];
        strong_of(s, d, st);
        for (int a = 0; a < size; a++) {
            if (!st->k[a]) continue;
            for (int bi = 0; bi < st->k[a]; bi++) {
                int b = st->p[a][bi];
                cset cs;
                cs_and(&cs, where, &g->peer_mask[b], nw);
                cs_del(&cs, a);
                CS_FOREACH(c, &cs, nw) {
                    if (!st->k[c]) continue;
                    for (int ei = 0; ei < st->k[c]; ei++) {
                        int e = st->p[c][ei];
                        if (e == a || e == b) continue;
                        cset removed;
                        cs_and(&removed, where, &g->peer_mask[a], nw);
                        cs_and(&removed, &removed, &g->peer_mask[e], nw);
                        if (cs_empty(&removed, nw)) continue;
                        if (nrec == cap) {
                            int ncap = cap ? 2 * cap : 64;
                            turbot_rec *r = realloc(rec, sizeof(turbot_rec) * (size_t)ncap);
                            if (!r) { out->failed = 1; goto done; }
                            rec = r;
                            cap = ncap;
                        }
                        turbot_rec *t = rec + nrec;
                        t->d = d; t->a = a; t->b = b; t->c = c; t->e = e; t->order = nrec;
                        t->hsum = hodoku_sum_cells(&removed, d, nw, &t->nelim);
                        nrec++;
                    }
                }
            }
        }
    }
    if (nrec > 1) qsort(rec, (size_t)nrec, sizeof(turbot_rec), turbot_cmp);
    for (int i = 0; i < nrec; i++) {
        const turbot_rec *t = rec + i;
        cset removed;
        cs_and(&removed, &s->where[t->d], &g->peer_mask[t->a], nw);
        cs_and(&removed, &removed, &g->peer_mask[t->e], nw);
        int cells[4] = {t->a, t->b, t->c, t->e};
        if (chain4_emit(s, out, K_TURBOT_FISH, 4.2, t->d, &removed, cells, NULL, 0)) break;
    }
done:
    free(rec);
    free(st);
}

/* ------------------------------------------------------------------ empty rectangle */

static int er_eliminations(const lstate *s, lsink *out, int d, int b, int line, int cross,
                           const cset *inbox) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    const cset *where = &s->where[d], *box_mask = &g->unit_mask[2 * n + b];
    int across = line < n ? 1 : 0, along = line < n ? 0 : 1;
    cset xs;
    cs_and(&xs, where, &g->unit_mask[line], nw);
    cs_andnot(&xs, &xs, box_mask, nw);
    CS_FOREACH(x, &xs, nw) {
        int ux = g->units_of[3 * x + across];
        cset link;
        cs_and(&link, where, &g->unit_mask[ux], nw);
        if (cs_count(&link, nw) != 2) continue;
        cs_del(&link, x);
        int y = cs_last(&link, nw);
        cset target;
        cs_and(&target, &g->unit_mask[g->units_of[3 * y + along]], &g->unit_mask[cross], nw);
        cs_and(&target, &target, where, nw);
        cs_andnot(&target, &target, box_mask, nw);
        if (cs_empty(&target, nw)) continue;
        int z = cs_last(&target, nw);
        lstep_begin(out, K_EMPTY_RECTANGLE, 4.2);
        lstep_elim(out, z, d);
        lstep_cell(out, x);
        lstep_cell(out, y);
        CS_FOREACH(c, inbox, nw) lstep_cell(out, c);
        lstep_unit(out, 2 * n + b);
        lstep_unit(out, line);
        lstep_unit(out, cross);
        lstep_unit(out, ux);
        lstep_digit(out, d);
        lstep_link(out, x, d, y, d, 1);
        lstep_complexity(out, 4);
        if (lstep_end(out)) return 1;
    }
    return 0;
}

static void lf_empty_rectangles(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw, br = g->br, bc = g->bc, across = n / bc;
    for (int d = 1; d <= n; d++) {
        for (int b = 0; b < n; b++) {
            cset inbox;
            cs_and(&inbox, &s->where[d], &g->unit_mask[2 * n + b], nw);
            int count = cs_count(&inbox, nw);
            if (count < 2 || count > br + bc - 1) continue;
            int r0 = b / across * br, c0 = b % across * bc;
            for (int r = r0 + br - 1; r >= r0; r--) {
                const cset *row = &g->unit_mask[r];
                for (int c = c0 + bc - 1; c >= c0; c--) {
                    const cset *col = &g->unit_mask[n + c];
                    cset rc, t, on_row, on_col;
                    cs_or(&rc, row, col, nw);
                    cs_andnot(&t, &inbox, &rc, nw);
                    if (!cs_empty(&t, nw)) continue;
                    cs_and(&on_row, &inbox, row, nw);
                    cs_and(&on_col, &inbox, col, nw);
                    cs_andnot(&t, &on_row, col, nw);
                    if (cs_empty(&t, nw)) continue;
                    cs_andnot(&t, &on_col, row, nw);
                    if (cs_empty(&t, nw)) continue;
                    if (cs_count(&on_row, nw) < 2 && cs_count(&on_col, nw) < 2) continue;
                    if (er_eliminations(s, out, d, b, r, n + c, &inbox)) return;
                    if (er_eliminations(s, out, d, b, n + c, r, &inbox)) return;
                }
            }
        }
    }
}

/* ------------------------------------------------------------------ W-Wing */

static void lf_w_wings(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int nw = g->nw, size = g->size;
    int bivalue[LG_MAXC], nb = 0;
    for (int c = 0; c < size; c++)
        if (dm_count(s->cand[c]) == 2) bivalue[nb++] = c;
    for (int k = 0; k < nb; k++) {
        int i = bivalue[k];
        dmask xy = s->cand[i];
        int d1 = dm_low(xy) + 1, d2 = dm_low(xy & (xy - 1)) + 1;
        for (int l = k + 1; l < nb; l++) {
            int j = bivalue[l];
            if (s->cand[j] != xy) continue;
            for (int o = 0; o < 2; o++) {
                int x = o ? d2 : d1, y = o ? d1 : d2;
                cset removed;
                cs_and(&removed, &s->where[x], &g->peer_mask[i], nw);
                cs_and(&removed, &removed, &g->peer_mask[j], nw);
                if (cs_empty(&removed, nw)) continue;
                for (int u = 0; u < g->nunit; u++) {
                    cset m;
                    cs_and(&m, &s->where[y], &g->unit_mask[u], nw);
                    if (cs_count(&m, nw) != 2 || cs_has(&m, i) || cs_has(&m, j)) continue;
                    int p = cs_first(&m, nw), q = cs_last(&m, nw);
                    if (!(cs_has(&g->peer_mask[p], i) && cs_has(&g->peer_mask[q], j))) {
                        int t = p; p = q; q = t;
                        if (!(cs_has(&g->peer_mask[p], i) && cs_has(&g->peer_mask[q], j))) continue;
                    }
                    lstep_begin(out, K_W_WING, 4.4);
                    CS_FOREACH(c, &removed, nw) lstep_elim(out, c, x);
                    lstep_cell(out, i); lstep_cell(out, j); lstep_cell(out, p); lstep_cell(out, q);
                    lstep_unit(out, u);
                    lstep_digit(out, x);
                    lstep_digit(out, y);
                    lstep_link(out, i, x, i, y, 1);
                    lstep_link(out, i, y, p, y, 0);
                    lstep_link(out, p, y, q, y, 1);
                    lstep_link(out, q, y, j, y, 0);
                    lstep_link(out, j, y, j, x, 1);
                    lstep_complexity(out, 6);
                    if (lstep_end(out)) return;
                    break;
                }
            }
        }
    }
}

/* ------------------------------------------------------------------ WXYZ-Wing */

/* Info of a WXYZ-Wing: z, then the cells holding z. */

typedef struct {
    const lstate *s;
    lsink *out;
    const cset *line_cells, *box_cells;
    int (*seen)[4];
    int nseen, cap, stop;
} wxyz_ctx;

static int wxyz_seen(const wxyz_ctx *w, const int *q) {
    for (int i = 0; i < w->nseen; i++)
        if (!memcmp(w->seen[i], q, sizeof(int) * 4)) return 1;
    return 0;
}

static void bent_quads(wxyz_ctx *w, const int *region, int size) {
    const lstate *s = w->s;
    const lgeo *g = s->g;
    int nw = g->nw;
    for (int i = 0; i < size - 3; i++) {
        dmask mi = s->cand[region[i]];
        for (int j = i + 1; j < size - 2; j++) {
            dmask mj = mi | s->cand[region[j]];
            if (dm_count(mj) > 4) continue;
            for (int k = j + 1; k < size - 1; k++) {
                dmask mk = mj | s->cand[region[k]];
                if (dm_count(mk) > 4) continue;
                for (int m = k + 1; m < size; m++) {
                    dmask u = mk | s->cand[region[m]];
                    if (dm_count(u) != 4) continue;
                    int quad[4] = {region[i], region[j], region[k], region[m]};
                    cset cells, t;
                    cs_clear(&cells, nw);
                    for (int q = 0; q < 4; q++) cs_add(&cells, quad[q]);
                    cs_and(&t, &cells, w->line_cells, nw);
                    cs_andnot(&t, &t, w->box_cells, nw);
                    if (cs_empty(&t, nw)) continue;
                    cs_and(&t, &cells, w->box_cells, nw);
                    cs_andnot(&t, &t, w->line_cells, nw);
                    if (cs_empty(&t, nw)) continue;
                    int sorted[4], ns = 0;
                    CS_FOREACH(c, &cells, nw) sorted[ns++] = c;
                    if (wxyz_seen(w, sorted)) continue;
                    int z = 0, bad = 0, d0;
                    DM_FOREACH(d0, u) {
                        cset holders, a, b;
                        cs_and(&holders, &cells, &s->where[d0 + 1], nw);
                        cs_andnot(&a, &holders, w->line_cells, nw);
                        cs_andnot(&b, &holders, w->box_cells, nw);
                        if (!cs_empty(&a, nw) && !cs_empty(&b, nw)) {
                            if (z) { bad = 1; break; }
                            z = d0 + 1;
                        }
                    }
                    if (bad || !z) continue;
                    cset holders, removed;
                    cs_and(&holders, &cells, &s->where[z], nw);
                    removed = s->where[z];
                    CS_FOREACH(c, &holders, nw) cs_and(&removed, &removed, &g->peer_mask[c], nw);
                    if (cs_empty(&removed, nw)) continue;
                    if (w->nseen == w->cap) {
                        int cap = w->cap ? 2 * w->cap : 32;
                        int (*a)[4] = realloc(w->seen, sizeof(int[4]) * (size_t)cap);
                        if (!a) { w->out->failed = 1; w->stop = 1; return; }
                        w->seen = a;
                        w->cap = cap;
                    }
                    memcpy(w->seen[w->nseen++], sorted, sizeof sorted);
                    lsink *out = w->out;
                    lstep_begin(out, K_WXYZ_WING, 5.5);
                    CS_FOREACH(c, &removed, nw) lstep_elim(out, c, z);
                    for (int q = 0; q < 4; q++) lstep_cell(out, sorted[q]);
                    DM_FOREACH(d0, u) lstep_digit(out, d0 + 1);
                    lstep_complexity(out, 4);
                    lstep_info(out, z);
                    CS_FOREACH(c, &holders, nw) lstep_info(out, c);
                    if (lstep_end(out)) { w->stop = 1; return; }
                }
            }
        }
    }
}

static void lf_wxyz_wings(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n;
    wxyz_ctx w = {s, out, NULL, NULL, NULL, 0, 0, 0};
    for (int line = 0; line < 2 * n && !w.stop; line++) {
        const int *lc = lg_unit(g, line);
        int seenbox[LG_MAXN] = {0};
        for (int i = 0; i < n; i++) seenbox[lg_box(g, lc[i]) - 2 * n] = 1;
        for (int b = 0; b < n && !w.stop; b++) {
            if (!seenbox[b]) continue;
            int region[2 * LG_MAXN], size = 0;
            for (int i = 0; i < n; i++) {
                int k = dm_count(s->cand[lc[i]]);
                if (k >= 2 && k <= 4) region[size++] = lc[i];
            }
            const int *bcells = lg_unit(g, 2 * n + b);
            for (int i = 0; i < n; i++) {
                int c = bcells[i], k = dm_count(s->cand[c]);
                if (cs_has(&g->unit_mask[line], c)) continue;
                if (k >= 2 && k <= 4) region[size++] = c;
            }
            w.line_cells = &g->unit_mask[line];
            w.box_cells = &g->unit_mask[2 * n + b];
            bent_quads(&w, region, size);
        }
    }
    free(w.seen);
}

/* ------------------------------------------------------------------ finned and sashimi fish */

/* Info of a finned fish: its fins. The enumeration is the reference's _fish_of_size: digits,
 * rows as base lines then columns, base line combinations in order (_base_lines), for each the
 * covers sorted, each step tagged finned or sashimi; a finder keeps one of the two kinds. */

#define MAX_FINS 5

typedef struct {
    const lstate *s;
    lsink *out;
    int size, sashimi, d, n, width, height, base_off, cover_off, stop;
    uint64_t pos[LG_MAXN];
    int lines[LG_MAXN], nlines;
    uint64_t outside[LG_MAXN];
    int ngroups;
    int chosen[4];
} fish_ctx;

typedef struct {
    uint64_t cover, fin_pos;
} fish_find;

/* (cover positions ascending) as a tuple, compared lexicographically: all covers have `size`
 * positions, so the first differing position decides. */
static int fish_find_cmp(const void *a, const void *b) {
    uint64_t x = ((const fish_find *)a)->cover, y = ((const fish_find *)b)->cover;
    while (x && y) {
        int i = __builtin_ctzll(x), j = __builtin_ctzll(y);
        if (i != j) return i < j ? -1 : 1;
        x &= x - 1;
        y &= y - 1;
    }
    return (x != 0) - (y != 0);
}

static void fish_base(fish_ctx *f, uint64_t crossed) {
    const lstate *s = f->s;
    const lgeo *g = s->g;
    int size = f->size, n = f->n, nw = g->nw, width = f->width, height = f->height;
    int extra = __builtin_popcountll(crossed) - size;
    if (extra < 1) return;
    fish_find found[64];  /* at most C(width, extra) per group summed: bounded below */
    fish_find *fa = found;
    int nf = 0, cap = 64;
    uint64_t base_set = 0;
    for (int i = 0; i < size; i++) base_set |= (uint64_t)1 << f->chosen[i];
    for (int g0 = 0; g0 < n; g0 += width) {
        uint64_t group = (((uint64_t)1 << width) - 1) << g0, in_group = crossed & group;
        int m = __builtin_popcountll(in_group);
        if (m < extra) continue;
        int bitpos[LG_MAXN], kk = 0;
        for (uint64_t t = in_group; t; t &= t - 1) bitpos[kk++] = __builtin_ctzll(t);
        int idx[LG_MAXN];
        for (int i = 0; i < extra; i++) idx[i] = i;
        for (;;) {
            uint64_t fin_pos = 0;
            for (int i = 0; i < extra; i++) fin_pos |= (uint64_t)1 << bitpos[idx[i]];
            int band = -1, ok = 1, fins = 0;
            for (int i = 0; i < size && ok; i++) {
                int line = f->chosen[i];
                if (!(f->pos[line] & fin_pos)) continue;
                if (band < 0) band = line / height;
                else if (line / height != band) ok = 0;
            }
            if (ok) {
                for (int i = 0; i < size; i++) {
                    int line = f->chosen[i];
                    if (f->pos[line] & fin_pos) fins += __builtin_popcountll(f->pos[line] & fin_pos);
                }
                if (fins > MAX_FINS) ok = 0;
            }
            if (ok) {
                uint64_t cover = crossed & ~fin_pos;
                int hit = 0;
                for (int line = band * height; line < (band + 1) * height; line++)
                    if (!(base_set >> line & 1) && (f->pos[line] & cover & group)) { hit = 1; break; }
                if (hit) {
                    if (nf == cap) {
                        int ncap = 2 * cap;
                        fish_find *a = fa == found ? malloc(sizeof(fish_find) * (size_t)ncap)
                                                   : realloc(fa, sizeof(fish_find) * (size_t)ncap);
                        if (!a) { f->out->failed = 1; f->stop = 1; if (fa != found) free(fa); return; }
                        if (fa == found) memcpy(a, found, sizeof found);
                        fa = a;
                        cap = ncap;
                    }
                    fa[nf].cover = cover;
                    fa[nf].fin_pos = fin_pos;
                    nf++;
                }
            }
            /* next combination */
            int i = extra - 1;
            while (i >= 0 && idx[i] == kk - extra + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < extra; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    if (nf > 1) qsort(fa, (size_t)nf, sizeof(fish_find), fish_find_cmp);
    const cset *where = &s->where[f->d];
    for (int k = 0; k < nf && !f->stop; k++) {
        uint64_t cover = fa[k].cover, fin_pos = fa[k].fin_pos;
        int is_sashimi = 0;
        for (int i = 0; i < size; i++)
            if (__builtin_popcountll(f->pos[f->chosen[i]] & ~fin_pos) <= 1) is_sashimi = 1;
        if (is_sashimi != f->sashimi) continue;
        cset base_cells, removed, fins;
        cs_clear(&base_cells, nw);
        for (int i = 0; i < size; i++) cs_or(&base_cells, &base_cells, &g->unit_mask[f->base_off + f->chosen[i]], nw);
        cs_and(&base_cells, &base_cells, where, nw);
        /* the fins' group: the group of the lowest fin position */
        int g0 = __builtin_ctzll(fin_pos) / width * width;
        uint64_t group = (((uint64_t)1 << width) - 1) << g0;
        int band = -1;
        for (int i = 0; i < size && band < 0; i++)
            if (f->pos[f->chosen[i]] & fin_pos) band = f->chosen[i] / height;
        cs_clear(&removed, nw);
        for (int line = band * height; line < (band + 1) * height; line++) {
            if (base_set >> line & 1) continue;
            uint64_t at = f->pos[line] & cover & group;
            for (; at; at &= at - 1) {
                int p = __builtin_ctzll(at);
                cset t;
                cs_and(&t, &g->unit_mask[f->base_off + line], &g->unit_mask[f->cover_off + p], nw);
                cs_or(&removed, &removed, &t, nw);
            }
        }
        cs_clear(&fins, nw);
        for (uint64_t t = fin_pos; t; t &= t - 1) {
            cset x;
            cs_and(&x, &base_cells, &g->unit_mask[f->cover_off + __builtin_ctzll(t)], nw);
            cs_or(&fins, &fins, &x, nw);
        }
        static const int kinds[2][5] = {
            {0, 0, K_FINNED_X_WING, K_FINNED_SWORDFISH, K_FINNED_JELLYFISH},
            {0, 0, K_SASHIMI_X_WING, K_SASHIMI_SWORDFISH, K_SASHIMI_JELLYFISH}};
        static const double ratings[2][5] = {{0, 0, 3.4, 4.0, 5.4}, {0, 0, 3.5, 4.1, 5.5}};
        lsink *out = f->out;
        lstep_begin(out, kinds[is_sashimi][size], ratings[is_sashimi][size]);
        CS_FOREACH(c, &removed, nw) lstep_elim(out, c, f->d);
        CS_FOREACH(c, &base_cells, nw) lstep_cell(out, c);
        for (int i = 0; i < size; i++) lstep_unit(out, f->base_off + f->chosen[i]);
        for (uint64_t t = cover; t; t &= t - 1) lstep_unit(out, f->cover_off + __builtin_ctzll(t));
        lstep_digit(out, f->d);
        lstep_complexity(out, size);
        CS_FOREACH(c, &fins, nw) lstep_info(out, c);
        if (lstep_end(out)) f->stop = 1;
    }
    if (fa != found) free(fa);
}

static void fish_extend(fish_ctx *f, int start, int depth, uint64_t crossed) {
    if (f->stop) return;
    if (depth == f->size) {
        fish_base(f, crossed);
        return;
    }
    for (int idx = start; idx < f->nlines - (f->size - depth) + 1 && !f->stop; idx++) {
        uint64_t spanned = crossed | f->pos[f->lines[idx]];
        int ok = 0;
        for (int r = 0; r < f->ngroups && !ok; r++)
            ok = __builtin_popcountll(spanned & f->outside[r]) <= f->size;
        if (!ok) continue;
        f->chosen[depth] = f->lines[idx];
        fish_extend(f, idx + 1, depth + 1, spanned);
    }
}

static void finned_fish(const lstate *s, lsink *out, int size, int sashimi) {
    const lgeo *g = s->g;
    int n = g->n;
    fish_ctx f;
    memset(&f, 0, sizeof f);
    f.s = s;
    f.out = out;
    f.size = size;
    f.sashimi = sashimi;
    f.n = n;
    uint64_t everything = n < 64 ? ((uint64_t)1 << n) - 1 : ~(uint64_t)0;
    for (int d = 1; d <= n && !f.stop; d++) {
        f.d = d;
        uint64_t row_pos[LG_MAXN];
        for (int r = 0; r < n; r++) {
            uint64_t m = 0;
            for (int c = 0; c < n; c++)
                if (cs_has(&s->where[d], r * n + c)) m |= (uint64_t)1 << c;
            row_pos[r] = m;
        }
        for (int rows_first = 1; rows_first >= 0 && !f.stop; rows_first--) {
            if (rows_first) {
                memcpy(f.pos, row_pos, sizeof(uint64_t) * (size_t)n);
                f.base_off = 0; f.cover_off = n; f.width = g->bc; f.height = g->br;
            } else {
                memset(f.pos, 0, sizeof f.pos);
                for (int r = 0; r < n; r++)
                    for (uint64_t t = row_pos[r]; t; t &= t - 1) f.pos[__builtin_ctzll(t)] |= (uint64_t)1 << r;
                f.base_off = n; f.cover_off = 0; f.width = g->br; f.height = g->bc;
            }
            f.ngroups = 0;
            for (int g0 = 0; g0 < n; g0 += f.width)
                f.outside[f.ngroups++] = everything & ~((((uint64_t)1 << f.width) - 1) << g0);
            f.nlines = 0;
            for (int i = 0; i < n; i++) {
                int k = __builtin_popcountll(f.pos[i]);
                if (k > 0 && k <= size + f.width) f.lines[f.nlines++] = i;
            }
            fish_extend(&f, 0, 0, 0);
        }
    }
}

static void lf_finned_x_wings(const lstate *s, lsink *out) { finned_fish(s, out, 2, 0); }
static void lf_sashimi_x_wings(const lstate *s, lsink *out) { finned_fish(s, out, 2, 1); }
static void lf_finned_swordfish(const lstate *s, lsink *out) { finned_fish(s, out, 3, 0); }
static void lf_sashimi_swordfish(const lstate *s, lsink *out) { finned_fish(s, out, 3, 1); }
static void lf_finned_jellyfish(const lstate *s, lsink *out) { finned_fish(s, out, 4, 0); }
static void lf_sashimi_jellyfish(const lstate *s, lsink *out) { finned_fish(s, out, 4, 1); }
