/* Reading a killer cage map, and the killer geometry shown to the tests (part of _engine.c's
 * translation unit, included before its method table).
 *
 * The text form is sudokit.cages': one label per cell, row by row (whitespace skipped, "." for a
 * cell in no cage), "/", then the sums, comma- or space-separated, in the order the cages are
 * first met.  A cage is a connected group of cells with the same label. */

static int kcell_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Read one whole number (an optional sign, then digits) of the sums at s[*at..len), clamped to
 * the 32-bit range.  1, or 0 when the token is not one. */
static int ksum_token(int kind, const void *data, Py_ssize_t len, Py_ssize_t *at, long long *out)
{
    Py_ssize_t i = *at;
    int neg = 0, digits = 0;
    long long v = 0;
    Py_UCS4 ch = PyUnicode_READ(kind, data, i);
    if (ch == '+' || ch == '-') {
        neg = ch == '-';
        i++;
    }
    for (; i < len; i++) {
        ch = PyUnicode_READ(kind, data, i);
        if (ch < '0' || ch > '9')
            break;
        if (v < INT32_MAX)
            v = v * 10 + (ch - '0');
        digits++;
    }
    if (!digits || (i < len && ch != ',' && !Py_UNICODE_ISSPACE(ch)))
        return 0;
    *at = i;
    *out = neg ? -(v > INT32_MAX ? INT32_MAX : v) : (v > INT32_MAX ? INT32_MAX : v);
    return 1;
}

/* cage_map(text) -> (n, cages, bad) | (0, problem, a, b): the cages of a cage map, as the
 * engine's rules blob lists them (int32: their count, then each one's size, sum and cells,
 * ascending; the cages in the order of their first cells), and the index of the first cage of
 * more than n cells or with a sum its cells cannot make (-1: none).  A problem: 1, the labels
 * (a of them) are not a square grid of a side up to MAX_SIDE; 2, no "/"; 3, a sum is not a
 * whole number; 4, the map has a cages and there are b sums. */
static PyObject *py_cage_map(PyObject *self, PyObject *text)
{
    (void)self;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "cage_map: expected a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), slash = -1, size = 0;
    for (Py_ssize_t i = 0; i < len; i++)
        if (PyUnicode_READ(kind, data, i) == '/') {
            slash = i;
            break;
        }
    if (slash < 0)
        return Py_BuildValue("(iiii)", 0, 2, 0, 0);
    for (Py_ssize_t i = 0; i < slash; i++)
        size += !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i));
    int n = 1;
    while ((Py_ssize_t)n * n < size)
        n++;
    if (size == 0 || (Py_ssize_t)n * n != size || n > MAX_SIDE)
        return Py_BuildValue("(iinn)", 0, 1, size, (Py_ssize_t)0);
    int N = n * n;
    Py_UCS4 label[MAX_SIDE * MAX_SIDE];
    int group[MAX_SIDE * MAX_SIDE], todo[MAX_SIDE * MAX_SIDE];
    for (Py_ssize_t i = 0, k = 0; i < slash; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (!Py_UNICODE_ISSPACE(ch))
            label[k++] = ch;
    }
    /* the sums */
    long long sums[MAX_SIDE * MAX_SIDE];
    int nsums = 0;
    for (Py_ssize_t i = slash + 1; i < len;) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch == ',' || Py_UNICODE_ISSPACE(ch)) {
            i++;
            continue;
        }
        long long v;
        if (!ksum_token(kind, data, len, &i, &v))
            return Py_BuildValue("(iiii)", 0, 3, 0, 0);
        if (nsums < N)
            sums[nsums] = v;
        nsums++; /* (more sums than cells: counted for the error) */
    }
    /* the cages: connected groups of equal labels, by first cell */
    int32_t *ints = malloc(sizeof(int32_t) * (size_t)(1 + 3 * N));
    if (!ints)
        return PyErr_NoMemory();
    int ncages = 0, at = 1, bad = -1;
    for (int c = 0; c < N; c++)
        group[c] = label[c] == '.' ? -2 : -1;
    for (int s = 0; s < N; s++) {
        if (group[s] != -1)
            continue;
        int head = 0, tail = 0;
        group[s] = ncages;
        todo[tail++] = s;
        while (head < tail) {
            int c = todo[head++], r = c / n, col = c % n;
            int near[4] = {r ? c - n : -1, col ? c - 1 : -1, col + 1 < n ? c + 1 : -1, r + 1 < n ? c + n : -1};
            for (int j = 0; j < 4; j++)
                if (near[j] >= 0 && group[near[j]] == -1 && label[near[j]] == label[s]) {
                    group[near[j]] = ncages;
                    todo[tail++] = near[j];
                }
        }
        qsort(todo, (size_t)tail, sizeof(int), kcell_cmp);
        long long total = ncages < nsums && ncages < N ? sums[ncages] : 0;
        int lo = tail * (tail + 1) / 2, hi = tail * (2 * n - tail + 1) / 2;
        if (bad < 0 && (tail > n || total < lo || total > hi))
            bad = ncages;
        ints[at++] = tail;
        ints[at++] = (int32_t)total;
        for (int j = 0; j < tail; j++)
            ints[at++] = todo[j];
        ncages++;
    }
    if (ncages != nsums) {
        free(ints);
        return Py_BuildValue("(iiii)", 0, 4, ncages, nsums);
    }
    ints[0] = ncages;
    PyObject *out = Py_BuildValue("(iy#i)", n, (const char *)ints, (Py_ssize_t)at * 4, bad);
    free(ints);
    return out;
}

/* killer_geometry(box_rows, box_cols, blob) -> (peers, cages, real): what the engine derives
 * from a rules blob with cages (see _ckiller/geometry.c), for the tests to check: each cell's
 * peers (sorted), every cage as (cells, sum) (the real ones, then the rule of 45's sums), and
 * how many are real. */
static PyObject *py_killer_geometry(PyObject *self, PyObject *args)
{
    int br, bc;
    Py_buffer blob;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiy*:killer_geometry", &br, &bc, &blob))
        return NULL;
    PyObject *result = NULL, *peers = NULL, *cages = NULL;
    Geo *g = NULL;
    if (sudokit_check_shape(br, bc) < 0)
        goto done;
    g = geo_from_blob(br, bc, blob.buf, blob.len);
    if (!g)
        goto done;
    if (!g->cage_of) {
        PyErr_SetString(PyExc_ValueError, "killer_geometry: the blob has no cages");
        goto done;
    }
    peers = PyList_New(g->N);
    cages = PyList_New(g->ncages);
    if (!peers || !cages)
        goto done;
    for (int c = 0; c < g->N; c++) {
        const int *p = g->peers + (size_t)c * g->npeers;
        int k = 1;
        while (k < g->npeers && p[k] > p[k - 1])
            k++; /* (the padding repeats the first) */
        PyObject *t = PyTuple_New(k);
        if (!t)
            goto done;
        for (int i = 0; i < k; i++)
            PyTuple_SET_ITEM(t, i, PyLong_FromLong(p[i]));
        PyList_SET_ITEM(peers, c, t);
    }
    for (int i = 0; i < g->ncages; i++) {
        int a = g->cage_start[i], b = g->cage_start[i + 1];
        PyObject *t = PyTuple_New(b - a);
        if (!t)
            goto done;
        for (int e = a; e < b; e++)
            PyTuple_SET_ITEM(t, e - a, PyLong_FromLong(g->cage_cells[e]));
        PyObject *pair = Py_BuildValue("(Ni)", t, g->cage_sum[i]);
        if (!pair)
            goto done;
        PyList_SET_ITEM(cages, i, pair);
    }
    result = Py_BuildValue("(OOi)", peers, cages, g->nreal);
done:
    Py_XDECREF(peers);
    Py_XDECREF(cages);
    geo_free(g);
    PyBuffer_Release(&blob);
    return result;
}
