/*
 * Colouring and simple chains (reference: tests/logic/pyref/coloring.py). In C so far: simple
 * colouring (color wrap, color trap). Uses patterns.c's strong links and logic.h's length bonus.
 *
 * Info of a colouring step: the number of cells of the first colour, then the cells of the
 * first colour, then those of the second (each ascending).
 */

/* round(6.6 + length_bonus(length), 1) */
static inline double chain_rating(int length) { return (66 + length_bonus_steps(length)) / 10.0; }

static int sees_itself(const lgeo *g, const cset *cells) {
    CS_FOREACH(c, cells, g->nw) if (cs_meets(&g->peer_mask[c], cells, g->nw)) return 1;
    return 0;
}

static int color_emit(const lstate *s, lsink *out, int kind, int d, const cset *elim,
                      const cset *first, const cset *second, const cset *coloured, int count) {
    int nw = s->g->nw;
    lstep_begin(out, kind, chain_rating(count));
    CS_FOREACH(c, elim, nw) lstep_elim(out, c, d);
    CS_FOREACH(c, coloured, nw) lstep_cell(out, c);
    lstep_digit(out, d);
    lstep_complexity(out, count);
    lstep_info(out, cs_count(first, nw));
    CS_FOREACH(c, first, nw) lstep_info(out, c);
    CS_FOREACH(c, second, nw) lstep_info(out, c);
    return lstep_end(out);
}

static void lf_simple_colors(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw, size = g->size;
    lstrong *st = malloc(sizeof(lstrong));
    int *todo = malloc(sizeof(int) * (size_t)size);
    if (!st || !todo) { out->failed = 1; goto done; }
    for (int d = 1; d <= n; d++) {
        const cset *where = &s->where[d];
        strong_of(s, d, st);
        cset left;
        cs_clear(&left, nw);
        for (int c = 0; c < size; c++)
            if (st->k[c]) cs_add(&left, c);
        /* clusters by their lowest cell; a depth-first walk from it, as the reference's */
        for (;;) {
            int start = cs_first(&left, nw);
            if (start < 0) break;
            cset colours[2];
            cs_clear(&colours[0], nw);
            cs_clear(&colours[1], nw);
            int ntodo = 0;
            todo[ntodo++] = 2 * start;
            cs_del(&left, start);
            while (ntodo) {
                int item = todo[--ntodo], cell = item >> 1, colour = item & 1;
                cs_add(&colours[colour], cell);
                for (int i = 0; i < st->k[cell]; i++) {
                    int other = st->p[cell][i];
                    if (!cs_has(&left, other)) continue;
                    cs_del(&left, other);
                    todo[ntodo++] = 2 * other + (1 - colour);
                }
            }
            const cset *first = &colours[0], *second = &colours[1];
            cset coloured, wrapped;
            cs_or(&coloured, first, second, nw);
            int count = cs_count(&coloured, nw);
            cs_clear(&wrapped, nw);
            if (sees_itself(g, first)) cs_or(&wrapped, &wrapped, first, nw);
            if (sees_itself(g, second)) cs_or(&wrapped, &wrapped, second, nw);
            if (!cs_empty(&wrapped, nw) &&
                color_emit(s, out, K_COLOR_WRAP, d, &wrapped, first, second, &coloured, count))
                goto done;
            cset seen1, seen2, trapped;
            cs_clear(&seen1, nw);
            cs_clear(&seen2, nw);
            CS_FOREACH(c, first, nw) cs_or(&seen1, &seen1, &g->peer_mask[c], nw);
            CS_FOREACH(c, second, nw) cs_or(&seen2, &seen2, &g->peer_mask[c], nw);
            cs_and(&trapped, where, &seen1, nw);
            cs_and(&trapped, &trapped, &seen2, nw);
            cs_andnot(&trapped, &trapped, &coloured, nw);
            if (!cs_empty(&trapped, nw) &&
                color_emit(s, out, K_COLOR_TRAP, d, &trapped, first, second, &coloured, count))
                goto done;
        }
    }
done:
    free(todo);
    free(st);
}

/* ------------------------------------------------------------------ collected chains */

/* HoDoKu's collect-then-sort for chains (the reference's _keep and _best_first): one record per
 * set of eliminations (the shortest chain that makes them, the first found among equals), then
 * sorted by most eliminations, weighted index sum, length, order found. */
#define MAX_LINKS 20

typedef struct {
    int kind, x, first, plen, path, nelim, elim, key, length, order;
    int64_t hsum;
    uint64_t hash;
} chain_rec;

typedef struct {
    chain_rec *r;
    int n, cap;
    lvec pool;      /* paths, eliminations (cell, digit pairs) and keys (sorted cell * 64 + d) */
    int *table;     /* open addressing: record index + 1, 0 empty */
    int tcap;
    int failed;
} chain_found;

static void cf_free(chain_found *f) {
    free(f->r);
    free(f->pool.a);
    free(f->table);
}

static int int_cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cf_push(chain_found *f, int x) {
    if (lvec_push(&f->pool, x)) { f->failed = 1; return -1; }
    return 0;
}

static void cf_rehash(chain_found *f) {
    int tcap = f->tcap ? 2 * f->tcap : 256;
    int *t = calloc((size_t)tcap, sizeof(int));
    if (!t) { f->failed = 1; return; }
    for (int i = 0; i < f->n; i++) {
        int h = (int)(f->r[i].hash & (uint64_t)(tcap - 1));
        while (t[h]) h = (h + 1) & (tcap - 1);
        t[h] = i + 1;
    }
    free(f->table);
    f->table = t;
    f->tcap = tcap;
}

/* Record a chain: kind, digit x, first digit, its path (plen ints already pushed at `path`),
 * its eliminations (nelim pairs at `elim`), its length. */
static void cf_keep(chain_found *f, int kind, int x, int first, int path, int plen, int elim,
                    int nelim, int length) {
    if (f->failed) return;
    /* the key: the eliminations sorted, and its hash */
    int key = f->pool.len;
    for (int i = 0; i < nelim; i++)
        if (cf_push(f, f->pool.a[elim + 2 * i] * 64 + f->pool.a[elim + 2 * i + 1])) return;
    qsort(f->pool.a + key, (size_t)nelim, sizeof(int), int_cmp);
    uint64_t hash = 1469598103934665603ULL ^ (uint64_t)nelim;
    for (int i = 0; i < nelim; i++) hash = (hash ^ (uint64_t)f->pool.a[key + i]) * 1099511628211ULL;
    hash ^= hash >> 29;
    if (2 * (f->n + 1) > f->tcap) {
        cf_rehash(f);
        if (f->failed) return;
    }
    int h = (int)(hash & (uint64_t)(f->tcap - 1)), old = -1;
    while (f->table[h]) {
        chain_rec *o = f->r + f->table[h] - 1;
        if (o->hash == hash && o->nelim == nelim &&
            !memcmp(f->pool.a + o->key, f->pool.a + key, sizeof(int) * (size_t)nelim)) {
            old = f->table[h] - 1;
            break;
        }
        h = (h + 1) & (f->tcap - 1);
    }
    if (old >= 0 && length >= f->r[old].length) return;
    int64_t total = 0, weight = 1;
    for (int i = 0; i < nelim; i++) {
        total += (int64_t)f->pool.a[elim + 2 * i] * weight + f->pool.a[elim + 2 * i + 1];
        weight += 80;
    }
    chain_rec rec = {kind, x, first, plen, path, nelim, elim, key, length, 0, total, hash};
    if (old >= 0) {
        rec.order = f->r[old].order;
        f->r[old] = rec;
        return;
    }
    if (f->n == f->cap) {
        int cap = f->cap ? 2 * f->cap : 64;
        chain_rec *a = realloc(f->r, sizeof(chain_rec) * (size_t)cap);
        if (!a) { f->failed = 1; return; }
        f->r = a;
        f->cap = cap;
    }
    rec.order = f->n;
    f->r[f->n++] = rec;
    f->table[h] = f->n;
}

static int chain_rec_cmp(const void *a, const void *b) {
    const chain_rec *p = a, *q = b;
    if (p->nelim != q->nelim) return p->nelim > q->nelim ? -1 : 1;
    if (p->hsum != q->hsum) return p->hsum < q->hsum ? -1 : 1;
    if (p->length != q->length) return p->length < q->length ? -1 : 1;
    return (p->order > q->order) - (p->order < q->order);
}

/* Emit the collected chains in HoDoKu's order. */
static void cf_emit(chain_found *f, lsink *out) {
    if (f->failed) { out->failed = 1; return; }
    if (f->n > 1) qsort(f->r, (size_t)f->n, sizeof(chain_rec), chain_rec_cmp);
    for (int i = 0; i < f->n; i++) {
        const chain_rec *r = f->r + i;
        const int *path = f->pool.a + r->path, *el = f->pool.a + r->elim;
        if (r->kind == K_X_CHAIN) {
            int d = r->x, k = r->plen;
            lstep_begin(out, K_X_CHAIN, chain_rating(k));
            for (int e = 0; e < r->nelim; e++) lstep_elim(out, el[2 * e], el[2 * e + 1]);
            for (int j = 0; j < k; j++) lstep_cell(out, path[j]);
            lstep_digit(out, d);
            x_links(out, path, k, d);
            lstep_complexity(out, k);
        } else {
            /* a bivalue chain: path holds (cell, digit it takes if the start is off) pairs */
            int k = r->plen;
            lstep_begin(out, r->kind, chain_rating(2 * k));
            for (int e = 0; e < r->nelim; e++) lstep_elim(out, el[2 * e], el[2 * e + 1]);
            for (int j = 0; j < k; j++) lstep_cell(out, path[2 * j]);
            if (r->kind == K_XY_CHAIN) {
                lstep_digit(out, r->x);
            } else {
                dmask ds = 0;
                for (int j = 0; j < k; j++) ds |= (dmask)1 << (path[2 * j + 1] - 1);
                int d0;
                DM_FOREACH(d0, ds) lstep_digit(out, d0 + 1);
            }
            int off = r->first;
            for (int j = 0; j < k; j++) {
                int cell = path[2 * j], on = path[2 * j + 1];
                lstep_link(out, cell, off, cell, on, 1);
                if (j + 1 < k) lstep_link(out, cell, on, path[2 * j + 2], on, 0);
                off = on;
            }
            lstep_complexity(out, 2 * k);
        }
        if (lstep_end(out)) return;
    }
}

/* ------------------------------------------------------------------ X-Chain */

static void lf_x_chains(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw, size = g->size;
    chain_found f;
    memset(&f, 0, sizeof f);
    lstrong *st = malloc(sizeof(lstrong));
    cset *layers = malloc(sizeof(cset) * (MAX_LINKS + 2));
    if (!st || !layers) { out->failed = 1; goto done; }
    for (int d = 1; d <= n && !f.failed; d++) {
        const cset *where = &s->where[d];
        strong_of(s, d, st);
        for (int start = 0; start < size && !f.failed; start++) {
            if (!st->k[start]) continue;
            int nl = 1;
            cs_clear(&layers[0], nw);
            cs_add(&layers[0], start);
            cset seen[2];
            seen[0] = layers[0];
            seen[1] = layers[0];
            while (nl <= MAX_LINKS && !cs_empty(&layers[nl - 1], nw)) {
                int k = nl;
                cset reach, t;
                cs_clear(&reach, nw);
                CS_FOREACH(c, &layers[nl - 1], nw) {
                    if (k % 2) {
                        for (int i = 0; i < st->k[c]; i++) cs_add(&reach, st->p[c][i]);
                    } else {
                        cs_and(&t, &g->peer_mask[c], where, nw);
                        cs_or(&reach, &reach, &t, nw);
                    }
                }
                cs_andnot(&reach, &reach, &seen[k % 2], nw);
                cs_or(&seen[k % 2], &seen[k % 2], &reach, nw);
                layers[nl++] = reach;
                if (!(k % 2) || k < 3) continue;
                CS_FOREACH(end, &reach, nw) {
                    cset removed;
                    cs_and(&removed, where, &g->peer_mask[start], nw);
                    cs_and(&removed, &removed, &g->peer_mask[end], nw);
                    if (cs_empty(&removed, nw)) continue;
                    /* walk back from end, one layer at a time */
                    int path[MAX_LINKS + 2], plen = 0;
                    path[plen++] = end;
                    for (int j = nl - 1; j > 0; j--) {
                        int cell = path[plen - 1];
                        cset back;
                        if (j % 2) {
                            sp_mask(st, cell, &t, nw);
                            cs_and(&back, &layers[j - 1], &t, nw);
                        } else {
                            cs_and(&back, &layers[j - 1], &g->peer_mask[cell], nw);
                        }
                        path[plen++] = cs_first(&back, nw);
                    }
                    int distinct = 1;
                    for (int a = 0; a < plen && distinct; a++)
                        for (int b = a + 1; b < plen; b++)
                            if (path[a] == path[b]) { distinct = 0; break; }
                    if (!distinct) continue;
                    int p0 = f.pool.len;
                    for (int j = plen - 1; j >= 0; j--) cf_push(&f, path[j]);
                    int e0 = f.pool.len, ne = 0;
                    CS_FOREACH(c, &removed, nw) { cf_push(&f, c); cf_push(&f, d); ne++; }
                    cf_keep(&f, K_X_CHAIN, d, d, p0, plen, e0, ne, k);
                    if (f.failed) break;
                }
            }
        }
    }
    cf_emit(&f, out);
done:
    cf_free(&f);
    free(layers);
    free(st);
}

/* ------------------------------------------------------------------ XY-Chain */

static void lf_xy_chains(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw, size = g->size;
    chain_found f;
    memset(&f, 0, sizeof f);
    /* states (cell, digit): index cell * n + digit - 1; parent (-1: the first), stamp */
    int nstates = size * n;
    int *parent = malloc(sizeof(int) * (size_t)nstates), *stamp = calloc((size_t)nstates, sizeof(int));
    int *frontier = malloc(sizeof(int) * (size_t)nstates), *nxt = malloc(sizeof(int) * (size_t)nstates);
    if (!parent || !stamp || !frontier || !nxt) { out->failed = 1; goto done; }
    cset bivalue;
    cs_clear(&bivalue, nw);
    for (int c = 0; c < size; c++)
        if (dm_count(s->cand[c]) == 2) cs_add(&bivalue, c);
    int gen = 0;
    CS_FOREACH(start, &bivalue, nw) {
        int x0;
        DM_FOREACH(x0, s->cand[start]) {
            if (f.failed) break;
            int x = x0 + 1;
            gen++;
            int other_d = 64 - __builtin_clzll(s->cand[start] & ~((dmask)1 << x0));
            int first = start * n + other_d - 1;
            stamp[first] = gen;
            parent[first] = -1;
            int nf = 0, nn, cells = 1;
            frontier[nf++] = first;
            while (nf && 2 * cells + 1 <= MAX_LINKS) {
                cells++;
                nn = 0;
                for (int fi = 0; fi < nf; fi++) {
                    int cell = frontier[fi] / n, v = frontier[fi] % n + 1;
                    cset cand_cells;
                    cs_and(&cand_cells, &bivalue, &s->where[v], nw);
                    cs_and(&cand_cells, &cand_cells, &g->peer_mask[cell], nw);
                    cs_del(&cand_cells, start);
                    CS_FOREACH(other, &cand_cells, nw) {
                        int od = 64 - __builtin_clzll(s->cand[other] & ~((dmask)1 << (v - 1)));
                        int sx = other * n + od - 1;
                        if (stamp[sx] == gen) continue;
                        stamp[sx] = gen;
                        parent[sx] = frontier[fi];
                        nxt[nn++] = sx;
                        if (od != x) continue;
                        cset removed;
                        cs_and(&removed, &s->where[x], &g->peer_mask[start], nw);
                        cs_and(&removed, &removed, &g->peer_mask[other], nw);
                        if (cs_empty(&removed, nw)) continue;
                        int path[MAX_LINKS + 2], plen = 0;
                        for (int q = sx; q >= 0 && plen < MAX_LINKS + 2; q = parent[q]) path[plen++] = q;
                        int distinct = 1;
                        for (int a = 0; a < plen && distinct; a++)
                            for (int b = a + 1; b < plen; b++)
                                if (path[a] / n == path[b] / n) { distinct = 0; break; }
                        if (!distinct) continue;
                        int p0 = f.pool.len;
                        for (int j = plen - 1; j >= 0; j--) {
                            cf_push(&f, path[j] / n);
                            cf_push(&f, path[j] % n + 1);
                        }
                        int e0 = f.pool.len, ne = 0;
                        CS_FOREACH(c, &removed, nw) { cf_push(&f, c); cf_push(&f, x); ne++; }
                        cf_keep(&f, K_XY_CHAIN, x, x, p0, plen, e0, ne, 2 * plen);
                    }
                }
                int *t = frontier; frontier = nxt; nxt = t;
                nf = nn;
            }
        }
    }
    cf_emit(&f, out);
done:
    cf_free(&f);
    free(parent);
    free(stamp);
    free(frontier);
    free(nxt);
}

/* ------------------------------------------------------------------ Remote Pair */

typedef struct {
    const lstate *s;
    chain_found *f;
    cset cells;
    int x, y, budget;
    int path[MAX_LINKS + 2], plen;
} remote_ctx;

static void remote_extend(remote_ctx *r) {
    const lgeo *g = r->s->g;
    int nw = g->nw;
    r->budget--;
    if (r->budget < 0 || 2 * r->plen + 1 > MAX_LINKS || r->f->failed) return;
    cset next;
    cs_and(&next, &r->cells, &g->peer_mask[r->path[r->plen - 1]], nw);
    for (int i = 0; i < r->plen; i++) cs_del(&next, r->path[i]);
    CS_FOREACH(c, &next, nw) {
        r->path[r->plen++] = c;
        int k = r->plen;
        if (k >= 4 && k % 2 == 0) {
            cset hit, t;
            cs_clear(&hit, nw);
            for (int i = 0; i < k; i++)
                for (int j = i + 3; j < k; j += 2) {
                    if (k == 4 && !(i == 0 && j == 3)) continue;
                    cs_and(&t, &g->peer_mask[r->path[i]], &g->peer_mask[r->path[j]], nw);
                    cs_or(&hit, &hit, &t, nw);
                }
            cset hx, hy;
            cs_and(&hx, &hit, &r->s->where[r->x], nw);
            cs_and(&hy, &hit, &r->s->where[r->y], nw);
            if (!cs_empty(&hx, nw) || !cs_empty(&hy, nw)) {
                chain_found *f = r->f;
                int p0 = f->pool.len;
                for (int i = 0; i < k; i++) {
                    cf_push(f, r->path[i]);
                    cf_push(f, i % 2 == 0 ? r->y : r->x);
                }
                int e0 = f->pool.len, ne = 0;
                CS_FOREACH(e, &hx, nw) { cf_push(f, e); cf_push(f, r->x); ne++; }
                CS_FOREACH(e, &hy, nw) { cf_push(f, e); cf_push(f, r->y); ne++; }
                cf_keep(f, K_REMOTE_PAIR, r->x, r->x, p0, k, e0, ne, 2 * k);
            }
        }
        remote_extend(r);
        r->plen--;
    }
}

static void lf_remote_pairs(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int nw = g->nw, size = g->size;
    chain_found f;
    memset(&f, 0, sizeof f);
    remote_ctx *r = malloc(sizeof(remote_ctx));
    if (!r) { out->failed = 1; return; }
    r->s = s;
    r->f = &f;
    r->budget = 100000;
    /* the pairs of digits in the order their first cell comes */
    dmask done_pairs[LG_MAXC];
    int ndone = 0;
    for (int c0 = 0; c0 < size; c0++) {
        dmask pair = s->cand[c0];
        if (dm_count(pair) != 2) continue;
        int seen = 0;
        for (int i = 0; i < ndone && !seen; i++) seen = done_pairs[i] == pair;
        if (seen) continue;
        done_pairs[ndone++] = pair;
        cs_clear(&r->cells, nw);
        int count = 0;
        for (int c = c0; c < size; c++)
            if (s->cand[c] == pair) { cs_add(&r->cells, c); count++; }
        if (count < 4) continue;
        int x = dm_low(pair) + 1, y = dm_low(pair & (pair - 1)) + 1;
        CS_FOREACH(start, &r->cells, nw) {
            for (int o = 0; o < 2; o++) {
                r->x = o ? y : x;
                r->y = o ? x : y;
                r->path[0] = start;
                r->plen = 1;
                remote_extend(r);
            }
        }
    }
    cf_emit(&f, out);
    cf_free(&f);
    free(r);
}
