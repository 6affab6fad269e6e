/*
 * Chains, links (part of chains.c): SE's basic implications between potentials (getOnToOff,
 * getOffToOn), making a node of a deduction, and the on/off sets (LinkedSet) of a search.
 */
/* A deduced potential before it becomes a node: most deductions are dropped at once (already
 * known), so nodes are made only for those that are kept. */
typedef struct { int key, cause; } ch_Proto;

/* on_to_off makes at most (n - 1) + 3 * (n - 1) protos on a classic geometry, and (n - 1) and
 * a cell's peers under rules (geo_from_blob refuses more: see LG_MAX_LINKS) */
_Static_assert(4 * SUDOKIT_MAX_SIDE <= LG_MAX_LINKS, "LG_MAX_LINKS too small for SUDOKIT_MAX_SIDE");
#define CH_MAX_PROTO LG_MAX_LINKS

static int ch_on_to_off_rules(const ch_Engine *e, int cand, int y_links, int live, int keep, ch_Proto *out);
static int ch_off_to_on_rules(const ch_Engine *e, int cand, int y_links, int x_links, ch_Proto *out);

/* getOnToOff's links in the cell: "on" (c, d) makes the cell's other candidates "off" (with
 * ``live``, those that lead somewhere, or the kept one (kc, kd)). Writes them from out[0];
 * returns how many. */
static inline int ch_cell_others(const ch_Engine *e, int c, int d, int n, int live, int kc, int kd, ch_Proto *out) {
    int k = 0;
    ch_mask_t m = e->cand[c] & ~((ch_mask_t)1 << d);
    if (live) m &= e->livecell[c] | (kc == c ? (ch_mask_t)1 << kd : 0);
    while (m) {
        int v = ch_lowbit(m); m &= m - 1;
        out[k].key = (c * n + v) * 2; out[k++].cause = CH_CAUSE_CELL;
    }
    return k;
}

/* Sudoku Explainer's getOnToOff: the "off" potentials deduced from "on" candidate ``cand``, in its order
 * (other digits of the cell, then the digit's other places in box, row, column). With ``live``
 * (static chains, see ch_set_live), only the "off" potentials that lead somewhere, and the one
 * of candidate ``keep`` (a search's target; -1: none): the others are dead ends. */
static inline int ch_on_to_off(const ch_Engine *e, int cand, int y_links, int live, int keep, ch_Proto *out) {
    const lgeo *g = e->g;
    if (g->rules) return ch_on_to_off_rules(e, cand, y_links, live, keep, out);
    int n = g->n, c = g->cell_of[cand], d = g->digit_of[cand], k = 0;
    int kc = keep >= 0 ? g->cell_of[keep] : -1, kd = keep >= 0 ? g->digit_of[keep] : -1;
    if (y_links) k = ch_cell_others(e, c, d, n, live, kc, kd, out);
    /* the peers in SE's order (box, then row and column outside the box), from the places */
    const int *su = g->se_units + 3 * c;
    const ch_mask_t *skip = g->skip + 3 * c;
    for (int t = 0; t < 3; t++) {
        int u = su[t];
        const int *uc = g->unit_cells + u * n;
        ch_mask_t m = e->pos[u * n + d] & ~skip[t];
        if (live) {
            ch_mask_t lm = e->livepos[u * n + d];
            if (kd == d && g->se_units[3 * kc + t] == u) lm |= (ch_mask_t)1 << g->unit_index[3 * kc + t];
            m &= lm;
        }
        while (m) {
            int i = ch_lowbit(m); m &= m - 1;
            out[k].key = (uc[i] * n + d) * 2; out[k++].cause = u;
        }
    }
    return k;
}

/* getOffToOn's link in the cell: "off" (c, d) makes its other candidate "on" when two are
 * left. Writes it to out[0]; 1 when written, else 0. */
static inline int ch_cell_partner(const ch_Engine *e, int c, int d, int n, ch_Proto *out) {
    ch_mask_t m = e->cand[c];
    if (!ch_two_bits(m)) return 0;
    int first = ch_lowbit(m), other = first;
    if (first == d) other = ch_lowbit(m & (m - 1));
    out[0].key = (c * n + other) * 2 + 1; out[0].cause = CH_CAUSE_CELL;
    return 1;
}

/* Sudoku Explainer's getOffToOn: the "on" potentials deduced from "off" candidate ``cand`` (the cell's
 * other candidate when two are left, then the digit's other place in box, row, column when two
 * are left; a potential given by two units is listed once). */
static inline int ch_off_to_on(const ch_Engine *e, int cand, int y_links, int x_links, ch_Proto *out) {
    const lgeo *g = e->g;
    if (g->rules) return ch_off_to_on_rules(e, cand, y_links, x_links, out);
    const lcand *cg = g->cg + cand;
    int n = g->n, c = cg->cell, d = cg->digit;
    int k = y_links ? ch_cell_partner(e, c, d, n, out) : 0;
    if (x_links) {
        int k0 = k;
        for (int t = 0; t < 3; t++) {
            ch_mask_t pm = e->pos[cg->pos[t]];
            if (!ch_two_bits(pm)) continue;
            pm &= ~((ch_mask_t)1 << cg->idx[t]);
            int other = g->unit_cells[cg->ucells[t] + ch_lowbit(pm)];
            int key = (other * n + d) * 2 + 1, dup = 0;
            for (int s = k0; s < k; s++) if (out[s].key == key) dup = 1;
            if (dup) continue;
            out[k].key = key; out[k++].cause = cg->unit[t];
        }
    }
    return k;
}

/* getOnToOff under rules, as SukakuExplainer generalises it: the cell's other digits, then the
 * digit's other places in the cell's houses (box, row, column, disjoint group, window,
 * diagonals; each cell once), then in the cells a neighbour rule ties to it (anti-king's,
 * then anti-knight's), those "off" by the cell's cause. ``live`` and ``keep`` as above. */
static int ch_on_to_off_rules(const ch_Engine *e, int cand, int y_links, int live, int keep, ch_Proto *out) {
    const lgeo *g = e->g;
    int n = g->n, c = g->cell_of[cand], d = g->digit_of[cand], k = 0, nh;
    int kc = keep >= 0 ? g->cell_of[keep] : -1, kd = keep >= 0 ? g->digit_of[keep] : -1;
    if (y_links) k = ch_cell_others(e, c, d, n, live, kc, kd, out);
    const int *hs = lg_houses(g, c, &nh);
    const dmask *skip = g->cell_hskip + c * LG_HMAX;
    for (int t = 0; t < nh; t++) {
        int u = hs[t];
        const int *uc = g->unit_cells + u * n;
        ch_mask_t m = e->pos[u * n + d] & ~skip[t];
        if (live) {
            ch_mask_t lm = e->livepos[u * n + d];
            if (kd == d && cs_has(lg_mask(g, u), kc))
                for (int i = 0; i < n; i++) if (uc[i] == kc) lm |= (ch_mask_t)1 << i;
            m &= lm;
        }
        while (m) {
            int i = ch_lowbit(m); m &= m - 1;
            out[k].key = (uc[i] * n + d) * 2; out[k++].cause = u;
        }
    }
    for (int i = g->nbr_start[c]; i < g->nbr_start[c + 1]; i++) {
        int q = g->nbr[i];
        if (!((e->cand[q] >> d) & 1)) continue;
        if (live && !((e->livecell[q] >> d) & 1) && !(q == kc && d == kd)) continue;
        out[k].key = (q * n + d) * 2; out[k++].cause = CH_CAUSE_CELL;
    }
    return k;
}

/* getOffToOn under rules: the cell's other candidate when two are left, then, house by house
 * (the cell's, in SukakuExplainer's order), the digit's other place when two are left; a
 * potential two houses give is listed once. */
static int ch_off_to_on_rules(const ch_Engine *e, int cand, int y_links, int x_links, ch_Proto *out) {
    const lgeo *g = e->g;
    int n = g->n, c = g->cell_of[cand], d = g->digit_of[cand], nh;
    int k = y_links ? ch_cell_partner(e, c, d, n, out) : 0;
    if (x_links) {
        int k0 = k;
        const int *hs = lg_houses(g, c, &nh);
        const int *hi = g->cell_hidx + c * LG_HMAX;
        for (int t = 0; t < nh; t++) {
            ch_mask_t pm = e->pos[hs[t] * n + d];
            if (!ch_two_bits(pm)) continue;
            pm &= ~((ch_mask_t)1 << hi[t]);
            int other = g->unit_cells[hs[t] * n + ch_lowbit(pm)];
            int key = (other * n + d) * 2 + 1, dup = 0;
            for (int s = k0; s < k; s++) if (out[s].key == key) dup = 1;
            if (dup) continue;
            out[k].key = key; out[k++].cause = hs[t];
        }
    }
    return k;
}

/* Make the node of a deduction from p. With ``src`` (dynamic chaining: the grid when the
 * chaining started), an "on" also gets its hidden parents: the removed candidates of its cell
 * (cell rule) or of its digit in its unit (unit rule), whose nodes ``off_map`` holds. Must be
 * called before p's own candidate is removed from the grid. */
static int ch_make_node(ch_Engine *e, int p, ch_Proto pr, const ch_mask_t *src) {
    int q = ch_node_new(e, pr.key, pr.cause);
    ch_mask_t gone = 0;
    const lgeo *g = e->g;
    int n = g->n, cand = pr.key >> 1, c = g->cell_of[cand], d = g->digit_of[cand];
    if (src && (pr.key & 1)) {
        if (pr.cause == CH_CAUSE_CELL) gone = src[c] & ~e->cand[c];
        else gone = e->srcpos[pr.cause * n + d] & ~e->pos[pr.cause * n + d];
    }
    /* the parents in one go: p, then the hidden ones */
    if (ch_iv_reserve(&e->par, 1 + n)) { e->failed = 1; return q; }  /* gone has at most n */
    int *par = e->par.a + e->par.len, np = 0;
    par[np++] = p;
    if (gone && pr.cause == CH_CAUSE_CELL) {
        while (gone) {
            int v = ch_lowbit(gone); gone &= gone - 1;
            par[np++] = e->off_map[c * n + v];
        }
    } else if (gone) {
        const int *uc = g->unit_cells + pr.cause * n;
        while (gone) {
            int i = ch_lowbit(gone); gone &= gone - 1;
            par[np++] = e->off_map[uc[i] * n + d];
        }
    }
    e->par.len += np;
    e->nodes[q].np = np;
    e->nodes[q].depth = e->nodes[p].depth + 1;
    return q;
}

static int ch_is_parent_key(const ch_Engine *e, int child, int key) {
    int p = child;
    for (;;) {
        p = ch_first_parent(e, p);
        if (p < 0) return 0;
        if (e->nodes[p].key == key) return 1;
    }
}

/* ------------------------------------------------------------------ the on/off sets */

static void ch_set_clear(ch_Engine *e) {
    for (int i = 0; i < e->on_ord.len; i++) e->on_map[e->on_ord.a[i]] = -1;
    for (int i = 0; i < e->off_ord.len; i++) e->off_map[e->off_ord.a[i]] = -1;
    e->on_ord.len = e->off_ord.len = 0;
}

static void ch_set_add(ch_Engine *e, int on, int node) {
    int cand = e->nodes[node].key >> 1;
    int *map = on ? e->on_map : e->off_map;
    if (map[cand] < 0 && ch_iv_push(on ? &e->on_ord : &e->off_ord, cand)) {
        e->failed = 1;  /* not recorded in the order, so not in the map either */
        return;
    }
    map[cand] = node;
}
