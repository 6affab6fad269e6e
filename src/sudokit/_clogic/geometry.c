/*
 * Geometry: a shape's tables (lgeo, declared in logic.h), built once per shape and shared by
 * every technique family, the chain engine included. Part of sudokit._logic (included by
 * _logic.c before the families).
 *
 * geo_new builds the houses (unit_cells, units_of, unit_mask), the peers in Sudoku Explainer's
 * order (house_order, peer_mask), and from them the tables the chain engine's hot loops index
 * (se_units, peer_unit, unit_index, skip, locking, lock_in, pairs, cg, peerbits).
 */

static void geo_free(lgeo *g) {
    free(g->peer_mask); free(g->unit_cells); free(g->units_of); free(g->house_order);
    free(g->se_units); free(g->peer_unit); free(g->unit_index); free(g->skip);
    free(g->locking); free(g->lock_in); free(g->pairs);
    free(g->cell_of); free(g->digit_of); free(g->cg); free(g->peerbits);
    free(g->xmask); free(g->scan); free(g->nscan_h); free(g->ltype_len); free(g->ltype_houses);
    free(g->ltype_flags); free(g->ltype_of); free(g->lpairs); free(g->blob); free(g->peer_start);
    free(g->cell_houses); free(g->ncell_houses); free(g->cell_hidx); free(g->cell_hskip);
    free(g->nbr_start); free(g->nbr);
    free(g->cage_total); free(g->cage_len); free(g->cage_cells); free(g->cage_of); free(g->cage_mask);
    free(g->group_len); free(g->group_houses);
    free(g);
}

/* Whether cell c is in unit u. */
static int geo_cell_in_unit(const lgeo *g, int u, int c) {
    const int *su = g->units_of + 3 * c;
    return su[0] == u || su[1] == u || su[2] == u;
}

/* The tables in SE's house order (box, row, column) that the chain engine reads; 0, or -1
 * when memory ran out (geo_free frees what was made). */
static int geo_se_tables(lgeo *g) {
    int n = g->n, size = g->size;
    g->se_units = malloc(sizeof(int) * 3 * (size_t)size);
    g->peer_unit = malloc(sizeof(int) * (size_t)size * (size_t)g->npeer);
    g->unit_index = malloc(sizeof(int) * 3 * (size_t)size);
    g->skip = malloc(sizeof(dmask) * 3 * (size_t)size);
    g->locking = malloc(sizeof(int) * 2 * (4 * (size_t)size + 1));
    g->lock_in = malloc(sizeof(dmask) * 2 * (4 * (size_t)size + 1));
    g->npairs = n * (n - 1) / 2;
    g->pairs = malloc(sizeof(int) * 2 * ((size_t)g->npairs + 1));
    g->cell_of = malloc(sizeof(int) * (size_t)g->ncand);
    g->digit_of = malloc(sizeof(int) * (size_t)g->ncand);
    g->cg = malloc(sizeof(lcand) * (size_t)g->ncand);
    if (!g->se_units || !g->peer_unit || !g->unit_index || !g->skip || !g->locking || !g->lock_in ||
        !g->pairs || !g->cell_of || !g->digit_of || !g->cg)
        return -1;
    for (int cand = 0; cand < g->ncand; cand++) { g->cell_of[cand] = cand / n; g->digit_of[cand] = cand % n; }
    for (int c = 0; c < size; c++) {
        g->se_units[3 * c] = lg_box(g, c);
        g->se_units[3 * c + 1] = lg_row(g, c);
        g->se_units[3 * c + 2] = lg_col(g, c);
    }
    /* the unit that makes each peer: house_order lists the box's, then the row's, then the
     * column's (n - 1, n - bc and n - br of them) */
    for (int c = 0; c < size; c++) {
        int *pu = g->peer_unit + c * g->npeer, k = 0;
        for (int i = 0; i < n - 1; i++) pu[k++] = lg_box(g, c);
        for (int i = 0; i < n - g->bc; i++) pu[k++] = lg_row(g, c);
        for (int i = 0; i < n - g->br; i++) pu[k++] = lg_col(g, c);
    }
    int k = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) { g->pairs[2 * k] = i; g->pairs[2 * k + 1] = j; k++; }
    /* locking pairs: (box, column), (box, row), (column, box), (row, box) */
    int kinds[4][2] = {{2, 1}, {2, 0}, {1, 2}, {0, 2}};
    k = 0;
    for (int t = 0; t < 4; t++)
        for (int a = 0; a < n; a++)
            for (int bb = 0; bb < n; bb++) {
                int u1 = kinds[t][0] * n + a, u2 = kinds[t][1] * n + bb, cross = 0;
                for (int i = 0; i < n && !cross; i++)
                    if (geo_cell_in_unit(g, u2, g->unit_cells[u1 * n + i])) cross = 1;
                if (cross) { g->locking[2 * k] = u1; g->locking[2 * k + 1] = u2; k++; }
            }
    g->nlock = k;
    for (int c = 0; c < size; c++)
        for (int t = 0; t < 3; t++) {
            int u = g->se_units[3 * c + t];
            for (int i = 0; i < n; i++) if (g->unit_cells[u * n + i] == c) g->unit_index[3 * c + t] = i;
        }
    for (int c = 0; c < size; c++) {
        int b = g->se_units[3 * c];
        g->skip[3 * c] = (dmask)1 << g->unit_index[3 * c];
        for (int t = 1; t < 3; t++) {
            int u = g->se_units[3 * c + t];
            dmask m = 0;
            for (int i = 0; i < n; i++) if (geo_cell_in_unit(g, b, g->unit_cells[u * n + i])) m |= (dmask)1 << i;
            g->skip[3 * c + t] = m;
        }
    }
    for (int cand = 0; cand < g->ncand; cand++) {
        lcand *x = g->cg + cand;
        x->cell = cand / n; x->digit = cand % n;
        for (int t = 0; t < 3; t++) {
            int u = g->se_units[3 * x->cell + t];
            x->unit[t] = u; x->pos[t] = u * n + x->digit; x->ucells[t] = u * n; x->idx[t] = g->unit_index[3 * x->cell + t];
        }
    }
    g->ncw = (g->ncand + 63) / 64;
    if (g->ncand <= LG_CANDBITS_MAX) {
        g->peerbits = calloc((size_t)g->ncand * (size_t)g->ncw, sizeof(uint64_t));
        if (!g->peerbits) return -1;
        for (int cand = 0; cand < g->ncand; cand++) {
            uint64_t *pb = g->peerbits + (size_t)cand * (size_t)g->ncw;
            const int *pp = g->house_order + (cand / n) * g->npeer;
            for (int i = 0; i < g->npeer; i++) {
                int x = pp[i] * n + cand % n;
                pb[x >> 6] |= (uint64_t)1 << (x & 63);
            }
        }
    }
    for (k = 0; k < g->nlock; k++) {
        int u1 = g->locking[2 * k], u2 = g->locking[2 * k + 1];
        dmask in1 = 0, in2 = 0;
        for (int i = 0; i < n; i++) {
            if (geo_cell_in_unit(g, u2, g->unit_cells[u1 * n + i])) in1 |= (dmask)1 << i;
            if (geo_cell_in_unit(g, u1, g->unit_cells[u2 * n + i])) in2 |= (dmask)1 << i;
        }
        g->lock_in[2 * k] = in1; g->lock_in[2 * k + 1] = in2;
    }
    return 0;
}

/* Each cell's houses in SukakuExplainer's region order (lgeo.cell_houses): its box, row and
 * column, then the extra houses (a rules geometry's scan list, in order) it is in. 0, or -1
 * when memory ran out or a cell is in more than LG_HMAX houses. */
static int geo_cell_houses(lgeo *g) {
    g->cell_houses = malloc(sizeof(int) * LG_HMAX * (size_t)g->size);
    g->ncell_houses = malloc(sizeof(int) * (size_t)g->size);
    if (!g->cell_houses || !g->ncell_houses) return -1;
    for (int c = 0; c < g->size; c++) {
        int *h = g->cell_houses + c * LG_HMAX, k = 0;
        h[k++] = lg_box(g, c);
        h[k++] = lg_row(g, c);
        h[k++] = lg_col(g, c);
        for (int i = 0; i < g->nscan; i++) {
            int u = g->scan[i];
            if (!cs_has(lg_mask(g, u), c)) continue;
            if (k == LG_HMAX) return -1;
            h[k++] = u;
        }
        g->ncell_houses[c] = k;
    }
    return 0;
}

/* The tables the chain engine reads on a rules geometry: cell_hidx and cell_hskip (for every
 * house of a cell), the neighbour-rule peers (nbr), candidates' cells and digits, and the
 * peerbits. 0, or -1 when memory ran out. */
static int geo_rules_chain_tables(lgeo *g) {
    int n = g->n, size = g->size;
    g->cell_hidx = malloc(sizeof(int) * LG_HMAX * (size_t)size);
    g->cell_hskip = malloc(sizeof(dmask) * LG_HMAX * (size_t)size);
    g->nbr_start = malloc(sizeof(int) * ((size_t)size + 1));
    g->nbr = malloc(sizeof(int) * ((size_t)g->peer_start[size] + 1));
    g->cell_of = malloc(sizeof(int) * (size_t)g->ncand);
    g->digit_of = malloc(sizeof(int) * (size_t)g->ncand);
    if (!g->cell_hidx || !g->cell_hskip || !g->nbr_start || !g->nbr || !g->cell_of || !g->digit_of) return -1;
    for (int cand = 0; cand < g->ncand; cand++) { g->cell_of[cand] = cand / n; g->digit_of[cand] = cand % n; }
    int at = 0;
    for (int c = 0; c < size; c++) {
        int nh;
        const int *hs = lg_houses(g, c, &nh);
        cset listed;  /* the cell and the cells of its earlier houses */
        cs_clear(&listed, g->nw);
        cs_add(&listed, c);
        for (int t = 0; t < nh; t++) {
            const int *uc = lg_unit(g, hs[t]);
            dmask skip = 0;
            for (int i = 0; i < n; i++) {
                if (uc[i] == c) g->cell_hidx[c * LG_HMAX + t] = i;
                if (cs_has(&listed, uc[i])) skip |= (dmask)1 << i;
            }
            g->cell_hskip[c * LG_HMAX + t] = skip;
            cs_or(&listed, &listed, lg_mask(g, hs[t]), g->nw);
        }
        g->nbr_start[c] = at;
        int np;
        const int *pp = lg_peers(g, c, &np);
        for (int i = 0; i < np; i++)
            if (!cs_has(&listed, pp[i])) g->nbr[at++] = pp[i];
        g->nbr_start[c + 1] = at;
    }
    g->ncw = (g->ncand + 63) / 64;
    if (g->ncand <= LG_CANDBITS_MAX) {
        g->peerbits = calloc((size_t)g->ncand * (size_t)g->ncw, sizeof(uint64_t));
        if (!g->peerbits) return -1;
        for (int cand = 0; cand < g->ncand; cand++) {
            uint64_t *pb = g->peerbits + (size_t)cand * (size_t)g->ncw;
            CS_FOREACH(q, &g->peer_mask[cand / n], g->nw) {
                int x = q * n + cand % n;
                pb[x >> 6] |= (uint64_t)1 << (x & 63);
            }
        }
    }
    return 0;
}

static lgeo *geo_new(int br, int bc) {
    int n = br * bc, size = n * n;
    lgeo *g = calloc(1, sizeof(lgeo));
    if (!g) return NULL;
    g->br = br; g->bc = bc; g->n = n; g->size = size; g->nunit = 3 * n;
    g->nw = (size + 63) / 64;
    g->ncand = size * n;
    g->npeer = (n - 1) + (n - bc) + (n - br);
    g->peer_mask = calloc((size_t)size, sizeof(cset));
    g->unit_cells = malloc(sizeof(int) * 3 * (size_t)size);
    g->units_of = malloc(sizeof(int) * 3 * (size_t)size);
    g->house_order = malloc(sizeof(int) * (size_t)size * (size_t)g->npeer);
    if (!g->peer_mask || !g->unit_cells || !g->units_of || !g->house_order) {
        geo_free(g);
        return NULL;
    }
    int per_band = n / bc;
    for (int c = 0; c < size; c++) {
        int r = c / n, col = c % n, b = (r / br) * per_band + col / bc;
        g->units_of[3 * c] = r;
        g->units_of[3 * c + 1] = n + col;
        g->units_of[3 * c + 2] = 2 * n + b;
        cs_add(&g->all, c);
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            g->unit_cells[k * n + i] = k * n + i;           /* row k */
            g->unit_cells[(n + k) * n + i] = i * n + k;     /* column k */
        }
    for (int b = 0; b < n; b++) {
        int r0 = (b / per_band) * br, c0 = (b % per_band) * bc, i = 0;
        for (int r = r0; r < r0 + br; r++)
            for (int col = c0; col < c0 + bc; col++) g->unit_cells[(2 * n + b) * n + i++] = r * n + col;
    }
    for (int u = 0; u < 3 * n; u++)
        for (int i = 0; i < n; i++) cs_add(&g->unit_mask[u], g->unit_cells[u * n + i]);
    for (int c = 0; c < size; c++) {
        cset *pm = &g->peer_mask[c];
        for (int k = 0; k < 3; k++) cs_or(pm, pm, &g->unit_mask[g->units_of[3 * c + k]], g->nw);
        cs_del(pm, c);
        /* SE's house order: the box (row by row), then the row, then the column, each
         * without cells already listed */
        int *ho = g->house_order + c * g->npeer, m = 0;
        int order[3] = {g->units_of[3 * c + 2], g->units_of[3 * c], g->units_of[3 * c + 1]};
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < n; i++) {
                int q = g->unit_cells[order[k] * n + i], dup = q == c;
                for (int j = 0; j < m && !dup; j++) dup = ho[j] == q;
                if (!dup) ho[m++] = q;
            }
    }
    if (geo_se_tables(g) || geo_cell_houses(g)) {
        geo_free(g);
        return NULL;
    }
    return g;
}

/* ------------------------------------------------------------------ rules geometries */

/* A reader of a rules geometry's ints (little-endian int32), bounds-checked: a bad blob sets
 * bad instead of reading past its end or out of range. */
typedef struct { const uint8_t *p; Py_ssize_t len, at; int bad; } lblob;

static int blob_int(lblob *b, int lo, int hi) {
    if (b->bad || b->at + 4 > b->len) { b->bad = 1; return lo; }
    const uint8_t *q = b->p + b->at;
    int32_t v = (int32_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24);
    b->at += 4;
    if (v < lo || v > hi) { b->bad = 1; return lo; }
    return v;
}

/* A list of k ints in lo..hi, malloc'd (k + 1 entries so that k = 0 allocates). */
static int *blob_ints(lblob *b, int k, int lo, int hi) {
    int *a = malloc(sizeof(int) * ((size_t)k + 1));
    if (!a) { b->bad = 2; return NULL; }
    for (int i = 0; i < k; i++) a[i] = blob_int(b, lo, hi);
    return a;
}

/* Killer cages and the rule of 45's groups of houses, the optional end of a rules blob:
 *   ncage; per cage: sum, size, cells; ngroup; per group: its count of houses (1..3), houses. */
static void geo_read_cages(lgeo *g, lblob *b) {
    int n = g->n, size = g->size;  /* (g->nhouse is read before) */
    g->ncage = blob_int(b, 0, size);
    if (b->bad) return;
    g->cage_total = malloc(sizeof(int) * ((size_t)g->ncage + 1));
    g->cage_len = malloc(sizeof(int) * ((size_t)g->ncage + 1));
    g->cage_cells = malloc(sizeof(int) * ((size_t)g->ncage * (size_t)n + 1));
    g->cage_of = malloc(sizeof(int) * (size_t)size);
    g->cage_mask = calloc((size_t)g->ncage + 1, sizeof(cset));
    if (!g->cage_total || !g->cage_len || !g->cage_cells || !g->cage_of || !g->cage_mask) { b->bad = 2; return; }
    for (int c = 0; c < size; c++) g->cage_of[c] = -1;
    for (int k = 0; k < g->ncage && !b->bad; k++) {
        g->cage_total[k] = blob_int(b, 1, n * (n + 1) / 2);
        g->cage_len[k] = blob_int(b, 1, n);
        for (int i = 0; i < g->cage_len[k] && !b->bad; i++) {
            int c = blob_int(b, 0, size - 1);
            if (g->cage_of[c] >= 0) b->bad = 1;  /* no cell in two cages */
            g->cage_of[c] = k;
            g->cage_cells[k * n + i] = c;
            cs_add(&g->cage_mask[k], c);
        }
    }
    if (!b->bad) g->ngroup = blob_int(b, 0, 64 * n);
    if (b->bad) return;
    g->group_len = malloc(sizeof(int) * ((size_t)g->ngroup + 1));
    g->group_houses = malloc(sizeof(int) * 3 * ((size_t)g->ngroup + 1));
    if (!g->group_len || !g->group_houses) { b->bad = 2; return; }
    for (int k = 0; k < g->ngroup && !b->bad; k++) {
        g->group_len[k] = blob_int(b, 1, 3);
        for (int i = 0; i < g->group_len[k]; i++) g->group_houses[3 * k + i] = blob_int(b, 0, g->nhouse - 1);
    }
}

/* The geometry of a shape under rules (logic/_state.py engine_geometry writes the blob):
 *   br, bc, nhouse; each house's n cells (rows, columns, boxes or regions, then the extra
 *   houses); per cell, its peer count and peers (in SukakuExplainer's visible order: the
 *   wings search them in it); the extra houses singles and hidden sets
 *   visit (count, houses); those naked sets visit; the house kinds intersections pair (count;
 *   per kind: flags, count, houses); the pairs of kinds (count; kind1, kind2 each).
 * The classic tables the rules path reads are built as for a classic shape (rows, columns,
 * boxes or regions, unit masks, peers), and the static chains' tables for rules
 * (geo_rules_chain_tables: each cell's houses, its neighbour-rule cells). The classic chain
 * tables (se_units, cg, skip, locking) stay NULL: the multiple, dynamic and nested chains read
 * them, so they must not join RULES_FINDERS before they read the rules' tables. A cell with
 * more links than LG_MAX_LINKS is refused. NULL with *bad set: 1 a malformed blob, 2 memory. */
static lgeo *geo_from_blob(const uint8_t *p, Py_ssize_t len, int *bad) {
    lblob b = {p, len, 0, 0};
    int br = blob_int(&b, 1, LG_MAXN), bc = blob_int(&b, 1, LG_MAXN);
    int n = br * bc;
    if (b.bad || n > LG_MAXN || n < 2) { *bad = 1; return NULL; }
    int size = n * n, nhouse = blob_int(&b, 3 * n, 12 * n);
    if (b.bad) { *bad = 1; return NULL; }
    lgeo *g = calloc(1, sizeof(lgeo));
    if (!g) { *bad = 2; return NULL; }
    g->rules = 1;
    g->br = br; g->bc = bc; g->n = n; g->size = size; g->nunit = 3 * n; g->nhouse = nhouse;
    g->nw = (size + 63) / 64;
    g->ncand = size * n;
    g->peer_mask = calloc((size_t)size, sizeof(cset));
    g->units_of = malloc(sizeof(int) * 3 * (size_t)size);
    g->xmask = calloc((size_t)(nhouse - 3 * n) + 1, sizeof(cset));
    g->unit_cells = blob_ints(&b, nhouse * n, 0, size - 1);
    if (!g->peer_mask || !g->units_of || !g->xmask || !g->unit_cells) b.bad = 2;
    for (int c = 0; c < size && !b.bad; c++) cs_add(&g->all, c);
    for (int u = 0; u < nhouse && !b.bad; u++) {
        cset *m = u < g->nunit ? &g->unit_mask[u] : &g->xmask[u - g->nunit]; /* lg_mask's, to fill */
        for (int i = 0; i < n; i++) cs_add(m, g->unit_cells[u * n + i]);
        if (cs_count(m, g->nw) != n) b.bad = 1;   /* a house of n distinct cells */
        if (u < 3 * n)
            for (int i = 0; i < n; i++) g->units_of[3 * g->unit_cells[u * n + i] + u / n] = u;
    }
    g->peer_start = malloc(sizeof(int) * ((size_t)size + 1));
    g->house_order = malloc(sizeof(int) * ((size_t)size * (size_t)size + 1));
    if (!g->peer_start || !g->house_order) b.bad = 2;
    for (int c = 0, at = 0; c < size && !b.bad; c++) {
        int k = blob_int(&b, 0, size - 1);
        if (n - 1 + k > LG_MAX_LINKS) b.bad = 1;  /* more links than the chains can hold */
        g->peer_start[c] = at;
        for (int i = 0; i < k && !b.bad; i++) {
            int q = blob_int(&b, 0, size - 1);
            if (q == c || cs_has(&g->peer_mask[c], q)) b.bad = 1;  /* listed once, not itself */
            cs_add(&g->peer_mask[c], q);
            g->house_order[at++] = q;
        }
        g->peer_start[c + 1] = at;
    }
    if (!b.bad) {  /* the lists take what they need */
        int *fit = realloc(g->house_order, sizeof(int) * ((size_t)g->peer_start[size] + 1));
        if (fit) g->house_order = fit;
    }
    if (!b.bad) g->nscan = blob_int(&b, 0, nhouse);
    if (!b.bad) g->scan = blob_ints(&b, g->nscan, 3 * n, nhouse - 1);
    if (!b.bad) g->nnscan = blob_int(&b, 0, nhouse);
    if (!b.bad) g->nscan_h = blob_ints(&b, g->nnscan, 3 * n, nhouse - 1);
    if (!b.bad) g->nltype = blob_int(&b, 0, 16);
    if (!b.bad) {
        g->ltype_len = malloc(sizeof(int) * ((size_t)g->nltype + 1));
        g->ltype_flags = malloc(sizeof(int) * ((size_t)g->nltype + 1));
        g->ltype_houses = malloc(sizeof(int) * ((size_t)g->nltype * (size_t)n + 1));
        if (!g->ltype_len || !g->ltype_flags || !g->ltype_houses) b.bad = 2;
    }
    for (int t = 0; t < g->nltype && !b.bad; t++) {
        g->ltype_flags[t] = blob_int(&b, 0, 2);
        g->ltype_len[t] = blob_int(&b, 1, n);
        for (int i = 0; i < g->ltype_len[t]; i++) g->ltype_houses[t * n + i] = blob_int(&b, 0, nhouse - 1);
    }
    if (!b.bad) {
        g->ltype_of = malloc(sizeof(int) * ((size_t)g->nltype * (size_t)size + 1));
        if (!g->ltype_of) b.bad = 2;
    }
    for (int t = 0; t < g->nltype && !b.bad; t++) {
        int *of = g->ltype_of + t * size;
        for (int c = 0; c < size; c++) of[c] = -1;
        for (int i = 0; i < g->ltype_len[t]; i++) {
            int u = g->ltype_houses[t * n + i];
            for (int k = 0; k < n; k++) {
                int c = g->unit_cells[u * n + k];
                if (of[c] >= 0) b.bad = 1;  /* a kind's houses are disjoint */
                of[c] = u;
            }
        }
    }
    if (!b.bad) g->nlpair = blob_int(&b, 0, 64);
    if (!b.bad) g->lpairs = blob_ints(&b, 2 * g->nlpair, 0, g->nltype - 1);
    if (!b.bad && b.at < len) geo_read_cages(g, &b);  /* killer's part, when there is one */
    if (!b.bad && b.at != len) b.bad = 1;
    if (!b.bad && geo_cell_houses(g)) b.bad = g->cell_houses && g->ncell_houses ? 1 : 2;
    if (!b.bad && geo_rules_chain_tables(g)) b.bad = 2;
    if (!b.bad) {
        g->blob = malloc((size_t)len);
        if (!g->blob) b.bad = 2;
        else { memcpy(g->blob, p, (size_t)len); g->bloblen = len; }
    }
    if (b.bad) { *bad = b.bad; geo_free(g); return NULL; }
    return g;
}

/* Geometries are built once per shape and kept; only touched with the GIL held (the finders,
 * which may run without it, only read them). */
#define NGEOS 32
static lgeo *geos[NGEOS];
static int ngeos = 0;

static lgeo *get_geo(int br, int bc, int *owned) {
    *owned = 0;
    for (int i = 0; i < ngeos; i++)
        if (!geos[i]->rules && geos[i]->br == br && geos[i]->bc == bc) return geos[i];
    lgeo *g = geo_new(br, bc);
    if (!g) return NULL;
    if (ngeos < NGEOS) geos[ngeos++] = g;
    else *owned = 1;
    return g;
}

/* The rules geometry of a blob, built once and kept as classic ones are (NULL with *bad set,
 * as geo_from_blob). */
static lgeo *get_rules_geo(const uint8_t *p, Py_ssize_t len, int *owned, int *bad) {
    *owned = 0;
    for (int i = 0; i < ngeos; i++)
        if (geos[i]->rules && geos[i]->bloblen == len && !memcmp(geos[i]->blob, p, (size_t)len))
            return geos[i];
    lgeo *g = geo_from_blob(p, len, bad);
    if (!g) return NULL;
    if (ngeos < NGEOS) geos[ngeos++] = g;
    else *owned = 1;
    return g;
}
