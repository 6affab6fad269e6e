/* Killer geometry, derived by the engine from a layout of cages (part of _engine.c's translation
 * unit, included after geo_read_cages).
 *
 * A rules blob with cages (flag 2) gives the geometry of the rules without them (houses, peers,
 * relation) and the puzzle's own cages.  From those the engine derives the rest here, once per
 * geometry: each cell's peers gain its cage mates (a cage's digits differ), and the rule of 45
 * gives one more sum per house: the cells of a house outside the cages that lie wholly in it hold
 * the house's total less those cages' sums (their digits differ: they share the house).  Those
 * sums are kept as cages after the real ones (g->nreal of them), for cage_step to propagate like
 * any other. */

/* Cell bit sets of up to 256 cells (CAGE_MAX_SIDE squared). */
#define KCELL_WORDS 4

static inline void kbits_add(uint64_t *s, int c) { s[c >> 6] |= UINT64_C(1) << (c & 63); }
static inline int kbits_has(const uint64_t *s, int c) { return (int)(s[c >> 6] >> (c & 63) & 1); }

/* Derive the cage mates' peers and the rule-of-45 sums of g, whose houses, peers and real cages
 * (g->ncages of them) are read.  0, or -1 with an exception set (cages that overlap, or no
 * memory). */
static int killer_derive(Geo *g)
{
    int n = g->n, N = g->N, nreal = g->ncages, W = (N + 63) / 64;
    int full = n * (n + 1) / 2, stride = 0;
    int *of = malloc(sizeof(int) * (size_t)N);
    uint64_t *cbits = calloc((size_t)nreal * W, sizeof(uint64_t));
    uint64_t *pbits = calloc((size_t)N * W, sizeof(uint64_t));
    int real_cells = g->cage_start[nreal];
    int cap = real_cells + g->nunits * n;
    int *start = malloc(sizeof(int) * ((size_t)nreal + (size_t)g->nunits + 1));
    int *cells = malloc(sizeof(int) * (size_t)cap);
    int *sum = malloc(sizeof(int) * ((size_t)nreal + (size_t)g->nunits));
    int *peers = NULL;
    if (!of || !cbits || !pbits || !start || !cells || !sum)
        goto oom;
    for (int c = 0; c < N; c++)
        of[c] = -1;
    for (int i = 0; i < nreal; i++)
        for (int e = g->cage_start[i]; e < g->cage_start[i + 1]; e++) {
            int c = g->cage_cells[e];
            if (of[c] >= 0) {
                PyErr_Format(PyExc_ValueError, "geometry: killer cages %d and %d overlap at cell %d",
                             of[c], i, c);
                goto fail;
            }
            of[c] = i;
            kbits_add(cbits + (size_t)i * W, c);
        }
    /* peers: the rules' own and the cage mates, each once */
    for (int c = 0; c < N; c++) {
        uint64_t *pb = pbits + (size_t)c * W;
        for (int i = 0; i < g->npeers; i++)
            kbits_add(pb, g->peers[(size_t)c * g->npeers + i]);
        if (of[c] >= 0)
            for (int k = 0; k < W; k++)
                pb[k] |= cbits[(size_t)of[c] * W + k];
        pb[c >> 6] &= ~(UINT64_C(1) << (c & 63));
        int count = 0;
        for (int k = 0; k < W; k++)
            count += popcount64(pb[k]);
        if (count > stride)
            stride = count;
    }
    peers = malloc(sizeof(int) * (size_t)N * (size_t)stride);
    if (!peers)
        goto oom;
    for (int c = 0; c < N; c++) {
        int *p = peers + (size_t)c * stride, k = 0;
        for (int w = 0; w < W; w++)
            for (uint64_t b = pbits[(size_t)c * W + w]; b; b &= b - 1)
                p[k++] = 64 * w + ctz64(b);
        for (int first = p[0]; k < stride; k++)
            p[k] = first;
    }
    /* the real cages, then a sum for each house some cages lie wholly in, with cells left */
    memcpy(start, g->cage_start, sizeof(int) * ((size_t)nreal + 1));
    memcpy(cells, g->cage_cells, sizeof(int) * (size_t)real_cells);
    memcpy(sum, g->cage_sum, sizeof(int) * (size_t)nreal);
    int ncages = nreal, k = real_cells;
    for (int u = 0; u < g->nunits; u++) {
        const int *house = g->units + (size_t)u * n;
        uint64_t rest[KCELL_WORDS] = {0};
        int whole = 0, total = full;
        for (int i = 0; i < n; i++)
            kbits_add(rest, house[i]);
        for (int i = 0; i < n; i++) {
            int cage = of[house[i]];
            if (cage < 0 || !kbits_has(rest, house[i]))
                continue; /* in no cage, or in a cage already taken out */
            const uint64_t *cb = cbits + (size_t)cage * W;
            int inside = 1;
            for (int w = 0; w < W && inside; w++)
                inside = !(cb[w] & ~rest[w]);
            if (!inside) /* (cells of the house already taken out belong to other cages) */
                continue;
            for (int w = 0; w < W; w++)
                rest[w] &= ~cb[w];
            whole++;
            total -= g->cage_sum[cage];
        }
        if (!whole)
            continue;
        int begin = k;
        for (int w = 0; w < W; w++)
            for (uint64_t b = rest[w]; b; b &= b - 1)
                cells[k++] = 64 * w + ctz64(b);
        if (k == begin)
            continue;
        sum[ncages] = total;
        start[++ncages] = k;
    }
    free(g->peers);
    free(g->cage_start);
    free(g->cage_cells);
    free(g->cage_sum);
    g->peers = peers;
    g->npeers = stride;
    g->cage_start = start;
    g->cage_cells = cells;
    g->cage_sum = sum;
    g->ncages = ncages;
    g->nreal = nreal;
    g->cage_of = of;
    free(cbits);
    free(pbits);
    return 0;
oom:
    PyErr_NoMemory();
fail:
    free(of);
    free(cbits);
    free(pbits);
    free(start);
    free(cells);
    free(sum);
    free(peers);
    return -1;
}
