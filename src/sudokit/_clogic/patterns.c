/*
 * Patterns (reference: tests/logic/pyref/patterns.py): HoDoKu's named patterns that Sudoku
 * Explainer lacks. In C so far: locked pair/triple, skyscraper, 2-string kite, turbot fish,
 * empty rectangle, W-Wing. Every loop and tie-break follows the reference line by line.
 *
 * Shared with coloring.c: strong links (lstrong, strong_of), SE's chain length bonus
 * (length_bonus_steps), HoDoKu's weighted index sum (hodoku_sum_cells).
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

/* Sudoku Explainer's chain length bonus, in tenths (patterns.length_bonus * 10). */
static int length_bonus_steps(int length) {
    int steps = 0, ceiling = 4, up = 1;
    while (length > ceiling) {
        steps++;
        ceiling = up ? ceiling * 3 / 2 : ceiling * 4 / 3;
        up = !up;
    }
    return steps;
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
