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
    if (geo_se_tables(g)) {
        geo_free(g);
        return NULL;
    }
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
        if (geos[i]->br == br && geos[i]->bc == bc) return geos[i];
    lgeo *g = geo_new(br, bc);
    if (!g) return NULL;
    if (ngeos < NGEOS) geos[ngeos++] = g;
    else *owned = 1;
    return g;
}
