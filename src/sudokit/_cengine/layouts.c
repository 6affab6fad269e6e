/*
 * sudokit._engine: random jigsaw layouts (sudokit.rules.random_regions checks its arguments and
 * calls this).  Included by _engine.c: it uses its Rng.
 *
 * A layout starts from the shape's boxes and takes many random swaps: a cell a of one region
 * and a cell b of a neighbouring region, on the border between the two, trade regions (with
 * their images under the maps, which take regions onto regions, so the layout keeps them),
 * and the swap stays when every region it touched is still connected.
 */

/* Swaps a layout tries per cell. */
#define LAYOUT_SWAPS 4

/* Is region k one connected piece of n cells?  `seen` and `todo` are scratch of N ints. */
static int layout_connected(const uint8_t *region, int n, int k, int *seen, int *todo)
{
    int N = n * n, first = -1, total = 0;
    for (int c = 0; c < N; c++)
        if (region[c] == k) {
            total++;
            if (first < 0)
                first = c;
        }
    if (total != n)
        return 0;
    memset(seen, 0, sizeof(int) * (size_t)N);
    int top = 0, reached = 1;
    seen[first] = 1;
    todo[top++] = first;
    while (top) {
        int c = todo[--top], r = c / n, col = c % n;
        int around[4] = {r > 0 ? c - n : -1, r < n - 1 ? c + n : -1, col > 0 ? c - 1 : -1, col < n - 1 ? c + 1 : -1};
        for (int i = 0; i < 4; i++) {
            int o = around[i];
            if (o >= 0 && !seen[o] && region[o] == k) {
                seen[o] = 1;
                reached++;
                todo[top++] = o;
            }
        }
    }
    return reached == n;
}

/* Fill region[0..N-1] with a layout of shape br x bc grown by the swaps above, under the
 * nmaps maps (each N cell images; they take boxes onto boxes, as the caller checked).  Return
 * 0, or -1 when memory ran out. */
static int layout_grow(int br, int bc, const int *maps, int nmaps, uint64_t seed, uint8_t *region)
{
    int n = br * bc, N = n * n;
    int *scratch = malloc(sizeof(int) * (size_t)(3 * N + nmaps * n));
    if (!scratch)
        return -1;
    int *seen = scratch, *todo = scratch + N, *border = scratch + 2 * N, *image = scratch + 3 * N;
    for (int c = 0; c < N; c++)
        region[c] = (uint8_t)((c / n) / br * br + (c % n) / bc);
    for (int m = 0; m < nmaps; m++) /* where map m takes each region */
        for (int c = 0; c < N; c++)
            image[m * n + region[c]] = region[maps[m * N + c]];
    Rng rng;
    rng_seed(&rng, seed);
    int cells[2 * (1 + 64)], to[2 * (1 + 64)], old[2 * (1 + 64)];
    for (int step = 0; step < LAYOUT_SWAPS * N; step++) {
        int a = (int)rng_below(&rng, (uint32_t)N), ra = a / n, ca = a % n, big_a = region[a];
        int around[4] = {ra > 0 ? a - n : -1, ra < n - 1 ? a + n : -1, ca > 0 ? a - 1 : -1, ca < n - 1 ? a + 1 : -1};
        int across[4], k = 0;
        for (int i = 0; i < 4; i++)
            if (around[i] >= 0 && region[around[i]] != big_a)
                across[k++] = around[i];
        if (!k)
            continue;
        int big_b = region[across[rng_below(&rng, (uint32_t)k)]], nb = 0;
        for (int x = 0; x < N; x++) { /* region b's cells next to region a */
            if (region[x] != big_b)
                continue;
            int rx = x / n, cx = x % n;
            if ((rx > 0 && region[x - n] == big_a) || (rx < n - 1 && region[x + n] == big_a) ||
                (cx > 0 && region[x - 1] == big_a) || (cx < n - 1 && region[x + 1] == big_a))
                border[nb++] = x;
        }
        int b = border[rng_below(&rng, (uint32_t)nb)];
        /* the change: a and b and their images, each to one region, or a clash */
        int nch = 2, clash = 0;
        cells[0] = a, to[0] = big_b, cells[1] = b, to[1] = big_a;
        for (int m = 0; m < nmaps && !clash; m++)
            for (int j = 0; j < 2 && !clash; j++) {
                int at = maps[m * N + cells[j]], want = image[m * n + to[j]], i;
                for (i = 0; i < nch && cells[i] != at; i++)
                    ;
                if (i < nch)
                    clash = to[i] != want;
                else
                    cells[nch] = at, to[nch++] = want;
            }
        if (clash)
            continue;
        for (int i = 0; i < nch; i++) {
            old[i] = region[cells[i]];
            region[cells[i]] = (uint8_t)to[i];
        }
        int ok = 1, checked[2 * 2 * (1 + 64)], nchecked = 0; /* each region touched, once */
        for (int i = 0; i < 2 * nch && ok; i++) {
            int k = i < nch ? old[i] : to[i - nch], j;
            for (j = 0; j < nchecked && checked[j] != k; j++)
                ;
            if (j == nchecked) {
                checked[nchecked++] = k;
                ok = layout_connected(region, n, k, seen, todo);
            }
        }
        if (!ok)
            for (int i = nch - 1; i >= 0; i--)
                region[cells[i]] = (uint8_t)old[i];
    }
    free(scratch);
    return 0;
}

/* random_regions(box_rows, box_cols, maps, seed) -> bytes: see sudokit.rules.random_regions;
 * maps: the maps' cell images end to end, as little-endian uint16. */
static PyObject *py_random_regions(PyObject *self, PyObject *args)
{
    int br, bc;
    Py_buffer mb;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiy*K:random_regions", &br, &bc, &mb, &seed))
        return NULL;
    PyObject *result = NULL;
    int *maps = NULL;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    int N = n * n, nmaps = (int)(mb.len / (2 * N));
    if (n > 255 || mb.len % (2 * N) || nmaps > 64) {
        PyErr_Format(PyExc_ValueError, "maps: %zd bytes is not up to 64 maps of %d cells (uint16 each)", mb.len, N);
        goto done;
    }
    maps = PyMem_Malloc(sizeof(int) * ((size_t)nmaps * N + 1));
    uint8_t *region = PyMem_Malloc((size_t)N);
    if (!maps || !region) {
        PyMem_Free(region);
        PyErr_NoMemory();
        goto done;
    }
    const uint8_t *p = mb.buf;
    for (int i = 0; i < nmaps * N; i++) {
        maps[i] = p[2 * i] | p[2 * i + 1] << 8;
        if (maps[i] >= N) {
            PyMem_Free(region);
            PyErr_Format(PyExc_ValueError, "maps: cell %d out of range 0..%d", maps[i], N - 1);
            goto done;
        }
    }
    if (layout_grow(br, bc, maps, nmaps, seed, region) < 0)
        PyErr_NoMemory();
    else
        result = PyBytes_FromStringAndSize((const char *)region, N);
    PyMem_Free(region);
done:
    PyMem_Free(maps);
    PyBuffer_Release(&mb);
    return result;
}
