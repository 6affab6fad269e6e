/*
 * sudokit._engine -- the exact engine: solve, count solutions, random complete grids.
 *
 * Terms (as in the rest of sudokit):
 *   shape   boxes of br rows x bc columns; the grid side is n = br*bc, it has N = n*n cells.
 *   cell    an index 0..N-1, row-major.
 *   digit   1..n in the Python-facing byte strings (0 = empty); 0..n-1 inside this file.
 *   mask    a set of digits as bits (bit d for digit d+1), or a set of cells as bits.
 *
 * Two search paths share one contract (propagate, branch, count up to a limit, keep the first
 * solution):
 *
 *   - The 9x9 path keeps, for each digit, a bitboard of its candidate cells split into three
 *     27-bit band words (rows 3b..3b+2).  Inside a band the nine "triads" (a row's three cells
 *     in one box) carry the box/line logic: a digit fills one triad per row and one per box, so
 *     the triads it can still use are the union of the six row->box permutations its candidates
 *     allow -- one table lookup.  Hidden singles in rows and boxes fall out of that; naked
 *     singles come from bit-parallel counting across the nine digit boards; the search
 *     branches on a bivalue cell when there is one.
 *   - The general path (every shape up to n = 64) keeps a digit mask per cell and propagates
 *     naked singles, hidden singles and box/line interactions, branching on the cell with the
 *     fewest candidates.  It copies the state at each branch into a stack that grows only
 *     when the search goes deeper than before, so no memory is allocated per search node.
 *
 * Randomness comes only from an explicit 64-bit seed through xoshiro256**, seeded by
 * splitmix64, so the same seed, shape and version give the same grid on every machine.
 *
 * All searching runs with the GIL released.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h> /* SSE2 on every x86-64; AVX2 in the x86-64-v3 build */
#endif

#include "_faults.h"
#include "_interrupt.h"
#include "_limits.h"

#define MAX_SIDE SUDOKIT_MAX_SIDE

/* ------------------------------------------------------------------------------------------ */
/* Bits                                                                                        */

static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int popcount32(uint32_t x) { return __builtin_popcount(x); }

/* ------------------------------------------------------------------------------------------ */
/* Random numbers: splitmix64 to seed, xoshiro256** to draw.                                   */

typedef struct {
    uint64_t s[4];
} Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* A uniform integer in 0..bound-1 (bound >= 1), by rejection: no modulo bias, and the same
 * draws on every platform. */
static uint32_t rng_below(Rng *r, uint32_t bound)
{
    uint64_t threshold = (UINT64_C(0) - bound) % bound;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold)
            return (uint32_t)(x % bound);
    }
}

/* The k-th set bit (0-based) of x. */
static inline int nth_bit64(uint64_t x, int k)
{
    while (k-- > 0)
        x &= x - 1;
    return ctz64(x);
}

/* ------------------------------------------------------------------------------------------ */
/* The 9x9 path.                                                                               */

/* Tables, filled once at import. */
static uint16_t T_PERM[512];     /* 9 triad bits (row*3+box) -> triads in some row->box perm */
static uint32_t T_KEEP[512];     /* 9 triad bits -> the cells of T_PERM's triads (0: none) */
static uint16_t T_LONE[512];     /* a row's 9 bits -> themselves if there is one, else 0 */
/* Row r's 9 bits -> which of its 3 triads are non-empty, at bits 3r.., and the row itself if
 * it has one bit, at bits 9r+9..: OR-ed over a band word's rows, bits 0-8 index T_PERM and the
 * rest are the word's one-cell rows (8 bytes an entry, so that one lookup a row gives both). */
static uint64_t T_ROW[3][512];
/* A band word's non-empty triads (bit 3r+j: row r, box j) -> the cells of the rows and boxes
 * those are in, and bit 31 when two of them share a box (init9: clues that conflict). */
static uint32_t T_SEEN[512];
static uint32_t T_BANDPEERS[27]; /* a band cell -> the other cells of its row and box */
static uint32_t T_COL[27];       /* a band cell -> the 3 cells of its column in a band */
static uint8_t T_BAND9[27];      /* a board's index in S9.f -> its band, */
static uint8_t T_DIGIT9[27];     /* and its digit */

static void init_tables9(void)
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int x = 0; x < 512; x++) {
        int s = 0;
        for (int j = 0; j < 3; j++)
            if (x & (7 << (3 * j)))
                s |= 1 << j;
        int allowed = 0;
        for (int p = 0; p < 6; p++) {
            int m = (1 << perms[p][0]) | (1 << (3 + perms[p][1])) | (1 << (6 + perms[p][2]));
            if ((x & m) == m)
                allowed |= m;
        }
        T_PERM[x] = (uint16_t)allowed;
        uint32_t e = 0;
        for (int t = 0; t < 9; t++)
            if (allowed & (1 << t))
                e |= UINT32_C(7) << ((t / 3) * 9 + (t % 3) * 3);
        T_KEEP[x] = e;
        T_LONE[x] = (uint16_t)(x && !(x & (x - 1)) ? x : 0);
        for (int r = 0; r < 3; r++)
            T_ROW[r][x] = (uint64_t)s << (3 * r) | (uint64_t)T_LONE[x] << (9 * r + 9);
        uint32_t seen = 0;
        for (int t = 0; t < 9; t++)
            if (x & (1 << t))
                seen |= UINT32_C(0x1FF) << (9 * (t / 3)) | UINT32_C(0x40201) * 7 << (3 * (t % 3));
        for (int j = 0; j < 3; j++) {
            int in_box = (x >> j & 1) + (x >> (3 + j) & 1) + (x >> (6 + j) & 1);
            if (in_box > 1)
                seen |= UINT32_C(1) << 31;
        }
        T_SEEN[x] = seen;
    }
    for (int k = 0; k < 27; k++) {
        int r = k / 9, c = k % 9;
        uint32_t m = UINT32_C(0x1FF) << (9 * r);
        for (int rr = 0; rr < 3; rr++)
            m |= UINT32_C(7) << (9 * rr + (c / 3) * 3);
        T_BANDPEERS[k] = m & ~(UINT32_C(1) << k);
    }
    for (int k = 0; k < 27; k++) {
        int c = k % 9;
        T_COL[k] = (UINT32_C(1) << c) | (UINT32_C(1) << (c + 9)) | (UINT32_C(1) << (c + 18));
        T_BAND9[k] = (uint8_t)(k / 9);
        T_DIGIT9[k] = (uint8_t)(k % 9);
    }
}

#define BAND_ALL UINT32_C(0x7FFFFFF)
/* Bits 0, 9 and 18: times 1 << d, digit d's three boards in a dirty mask. */
#define DIGIT_BOARDS UINT32_C(0x40201)

/* A search state: f[b*9+d] holds digit d's candidate cells in band b (a band's nine boards
 * side by side, so that what a cell does to them is done to one run of words).  A placed cell
 * keeps only its digit's bit.  Bit i of `dirty` is set when f[i] has shrunk since it was last
 * propagated, so only the boards that changed are looked at again (a mask, not a copy of
 * f[], keeps the state that each branch copies small). */
typedef struct {
    uint32_t f[27];
    uint32_t unsolved[3];
    uint32_t dirty;
} S9;

typedef struct {
    uint64_t count;     /* solutions found so far */
    uint64_t limit;     /* stop when count reaches this */
    uint64_t nodes;     /* branch points visited */
    uint64_t node_limit;/* 0 = none; else give up (return -1) past this */
    int aborted;
    Rng *rng;           /* NULL: deterministic order; else random branching */
    int strong;         /* 9x9: the stack step too (see propagate9) */
    uint8_t *solution;  /* where the first solution goes (N bytes) */
    uint8_t *second;    /* where the second one goes (N bytes), when not NULL */
    const uint8_t *prefer; /* 9x9 and rules, no rng: at a branch, try this grid's digit first (or NULL) */
} Ctx;

/* 1 | 1 << 9 | 1 << 18: times a 9-bit column mask, the same columns in all three rows. */
#define SPREAD3 UINT32_C(0x40201)

/* The columns of a band word that hold a bit in some row. */
static inline uint32_t band_cols(uint32_t x) { return (x | x >> 9 | x >> 18) & 0x1FF; }

/* The search itself, in two builds: see _engine9.h. */
#define V9(name) name##_portable
#define V9_AVX2 0
#include "_engine9.h"
#undef V9_AVX2
#undef V9

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SUDOKIT_X86V3 1
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#define V9(name) name##_x86v3
#define V9_AVX2 1
#include "_engine9.h"
#undef V9_AVX2
#undef V9
#pragma GCC pop_options
#endif

typedef void (*Run9)(const uint8_t *cells, Ctx *ctx, int excl_cell, int excl_digit);
typedef int (*Base9)(S9 *s, const uint8_t *cells);
typedef void (*Again9)(const S9 *base, const uint8_t *cells, const int *chunk, int n, Ctx *ctx,
                       int excl_cell, int excl_digit);

/* The builds of the 9x9 search this module holds, by name. */
#ifdef SUDOKIT_X86V3
#define PATHS9_NAMES "portable, x86-64-v3"
#else
#define PATHS9_NAMES "portable"
#endif
static const struct {
    const char *name;
    Run9 run;
    Base9 base;
    Again9 again;
} PATHS9[] = {
    {"portable", run9_portable, base9_portable, again9_portable},
#ifdef SUDOKIT_X86V3
    {"x86-64-v3", run9_x86v3, base9_x86v3, again9_x86v3},
#endif
};
#define NPATHS9 ((int)(sizeof(PATHS9) / sizeof(PATHS9[0])))

/* The 9x9 search in use: chosen once at import (select_path9), or by use_path. */
static Run9 run9 = run9_portable;
static Base9 base9 = base9_portable;
static Again9 again9 = again9_portable;
static int path9 = 0;

/* Can this machine run PATHS9[i]? */
static int path9_supported(int i)
{
#ifdef SUDOKIT_X86V3
    if (PATHS9[i].run == run9_x86v3) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
               __builtin_cpu_supports("lzcnt");
    }
#endif
    return i == 0;
}

/* Use the path named `name` ("auto": the fastest this machine runs).  Return 0, or -1 with
 * ValueError set when there is no such path or the machine cannot run it. */
static int set_path9(const char *name)
{
    if (strcmp(name, "auto") == 0) {
        for (int i = NPATHS9 - 1; i >= 0; i--)
            if (path9_supported(i)) {
                run9 = PATHS9[i].run;
                base9 = PATHS9[i].base;
                again9 = PATHS9[i].again;
                path9 = i;
                return 0;
            }
    }
    for (int i = 0; i < NPATHS9; i++)
        if (strcmp(name, PATHS9[i].name) == 0) {
            if (!path9_supported(i)) {
                PyErr_Format(PyExc_ValueError, "engine path %s: this machine's processor cannot run it", name);
                return -1;
            }
            run9 = PATHS9[i].run;
            base9 = PATHS9[i].base;
            again9 = PATHS9[i].again;
            path9 = i;
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "engine path %s: unknown (choose auto or one of this build's: %s)", name,
                 PATHS9_NAMES);
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The general path.                                                                           */

typedef struct Geo {
    int br, bc, n, N, npeers;
    int nunits;      /* houses: 3n for classic rules, more when rules add houses */
    int boxes;       /* 1 when the boxes are houses, so box/line interactions apply */
    int rules;       /* 1 when built from rules (see geo_from_blob): never the 9x9 path */
    uint64_t full;
    int *units;      /* nunits houses of n cells: rows, columns, boxes, then any extra houses */
    int *peers;      /* N * npeers (a cell with fewer repeats one: eliminating twice is harmless) */
    int *adj;        /* non-consecutive rules: N * 4 orthogonal neighbours (padded likewise); else NULL */
    uint64_t *pmask; /* rules with N <= 128: each cell's peers as two words of cell bits; else NULL */
    /* Killer cages (ncages 0 without them): cage i is cage_cells[cage_start[i] ..
     * cage_start[i + 1]) with sum cage_sum[i]; sum_sets[sum_start[k * (maxsum + 2) + s] ..
     * sum_start[k * (maxsum + 2) + s + 1]) are the digit masks of k different digits that
     * add up to s. */
    int ncages, maxsum;
    int *cage_start, *cage_cells, *cage_sum;
    int *sum_start;
    uint32_t *sum_sets;
    struct R9 *r9;   /* rules of side 9 without cages: the bitboard search (see _cengine/rules9.c) */
    int nreal;       /* the puzzle's own cages (the first nreal; the rest: rule-of-45 sums) */
    int *cage_of;    /* killer: each cell's own cage, or -1 (see _ckiller/geometry.c) */
    struct Geo *next;
} Geo;

static Geo *geo_cache = NULL; /* built under the GIL, never freed: one per shape used */

#include "_cengine/rules9.c"

static Geo *geo_get(int br, int bc)
{
    for (Geo *g = geo_cache; g; g = g->next)
        if (g->br == br && g->bc == bc)
            return g;
    int n = br * bc, N = n * n;
    int npeers = 3 * (n - 1) - (br - 1) - (bc - 1);
    Geo *g = calloc(1, sizeof(Geo));
    if (!g)
        return NULL;
    g->units = malloc(sizeof(int) * 3 * (size_t)n * (size_t)n);
    g->peers = malloc(sizeof(int) * (size_t)N * (size_t)npeers);
    if (!g->units || !g->peers) {
        free(g->units);
        free(g->peers);
        free(g);
        return NULL;
    }
    g->br = br;
    g->bc = bc;
    g->n = n;
    g->N = N;
    g->npeers = npeers;
    g->nunits = 3 * n;
    g->boxes = 1;
    g->full = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            g->units[r * n + c] = r * n + c;            /* row r */
            g->units[(n + c) * n + r] = r * n + c;      /* column c */
            int box = (r / br) * br + c / bc;           /* n/bc = br boxes per band */
            int pos = (r % br) * bc + c % bc;
            g->units[(2 * n + box) * n + pos] = r * n + c;
        }
    for (int cell = 0; cell < N; cell++) {
        int r = cell / n, c = cell % n, k = 0;
        int *p = g->peers + (size_t)cell * npeers;
        for (int other = 0; other < N; other++) {
            if (other == cell)
                continue;
            int r2 = other / n, c2 = other % n;
            if (r2 == r || c2 == c || (r2 / br == r / br && c2 / bc == c / bc))
                p[k++] = other;
        }
    }
    g->next = geo_cache;
    geo_cache = g;
    return g;
}

static void geo_free(Geo *g)
{
    if (!g)
        return;
    free(g->units);
    free(g->peers);
    free(g->adj);
    free(g->pmask);
    free(g->cage_start);
    free(g->cage_cells);
    free(g->cage_sum);
    free(g->cage_of); /* (the digit-set tables are shared: see cage_tables) */
    free(g->r9);
    free(g);
}

/* Killer cages are propagated on sides up to this: their digit-set tables hold every subset
 * of the digits (2^n masks). */
#define CAGE_MAX_SIDE 16

static int *cage_sum_start[CAGE_MAX_SIDE + 1];
static uint32_t *cage_sum_sets[CAGE_MAX_SIDE + 1];

/* The digit sets of each size and sum (Geo.sum_sets), for side n: built once a side (under the
 * GIL) and shared by every geometry.  0, or -1 out of memory. */
static int cage_tables(Geo *g)
{
    int n = g->n, maxsum = n * (n + 1) / 2, width = maxsum + 2;
    uint32_t all = (uint32_t)1 << n;
    g->maxsum = maxsum;
    if (cage_sum_start[n]) {
        g->sum_start = cage_sum_start[n];
        g->sum_sets = cage_sum_sets[n];
        return 0;
    }
    g->sum_start = calloc((size_t)(n + 1) * (size_t)width + 1, sizeof(int));
    g->sum_sets = malloc(sizeof(uint32_t) * all);
    if (!g->sum_start || !g->sum_sets) {
        free(g->sum_start);
        free(g->sum_sets);
        g->sum_start = NULL;
        g->sum_sets = NULL;
        return -1;
    }
    /* count each (size, sum), then place the masks in order of size, sum and mask */
    for (uint32_t m = 0; m < all; m++) {
        int k = popcount32(m), sum = 0;
        for (uint32_t b = m; b; b &= b - 1)
            sum += ctz32(b) + 1;
        g->sum_start[k * width + sum + 1]++;
    }
    for (int i = 1; i <= (n + 1) * width; i++)
        g->sum_start[i] += g->sum_start[i - 1];
    int *fill = malloc(sizeof(int) * (size_t)(n + 1) * (size_t)width);
    if (!fill)
        return -1;
    memcpy(fill, g->sum_start, sizeof(int) * (size_t)(n + 1) * (size_t)width);
    for (uint32_t m = 0; m < all; m++) {
        int k = popcount32(m), sum = 0;
        for (uint32_t b = m; b; b &= b - 1)
            sum += ctz32(b) + 1;
        g->sum_sets[fill[k * width + sum]++] = m;
    }
    free(fill);
    cage_sum_start[n] = g->sum_start;
    cage_sum_sets[n] = g->sum_sets;
    return 0;
}

/* Read the cages part of a rules blob (from p to end): [count, then each cage's size, sum and
 * cells], each checked (cells in range and different, a size 1..n, a sum some digit set can
 * make), into g, with the digit-set tables.  Cages may overlap: beside the puzzle's own, the
 * blob gives the sums the rule of 45 makes of what its cages leave of a house.  0, or -1 with
 * an exception set. */
static int geo_read_cages(Geo *g, const uint8_t *p, const uint8_t *end, int n, int N)
{
    Py_ssize_t left = (end - p) / 4, at = 0;
    int32_t v;
    g->n = n;
#define NEXT_INT() (at < left ? (memcpy(&v, p + 4 * at, 4), at++, 1) : 0)
    if (!NEXT_INT() || v < 1 || v > 4 * N) {
        PyErr_SetString(PyExc_ValueError, "geometry: a killer cage count out of range");
        return -1;
    }
    int ncages = v;
    /* the cells of all cages: what is left of the blob after a size and a sum each */
    Py_ssize_t room = left - 1 - 2 * (Py_ssize_t)ncages;
    if (room < ncages || room > (Py_ssize_t)ncages * n) {
        PyErr_SetString(PyExc_ValueError, "geometry: killer cages that do not fit their bytes");
        return -1;
    }
    g->cage_start = malloc(sizeof(int) * ((size_t)ncages + 1));
    g->cage_cells = malloc(sizeof(int) * (size_t)room);
    g->cage_sum = malloc(sizeof(int) * (size_t)ncages);
    if (!g->cage_start || !g->cage_cells || !g->cage_sum || cage_tables(g) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    int k = 0, width = g->maxsum + 2;
    for (int i = 0; i < ncages; i++) {
        g->cage_start[i] = k;
        int size, sum;
        if (!NEXT_INT() || v < 1 || v > n || k + v > room)
            goto bad;
        size = v;
        if (!NEXT_INT() || v < 1 || v > g->maxsum)
            goto bad;
        sum = v;
        if (g->sum_start[size * width + sum] == g->sum_start[size * width + sum + 1])
            goto bad;
        g->cage_sum[i] = sum;
        for (int j = 0; j < size; j++) {
            if (!NEXT_INT() || v < 0 || v >= N)
                goto bad;
            for (int e = g->cage_start[i]; e < k; e++)
                if (g->cage_cells[e] == v)
                    goto bad;
            g->cage_cells[k++] = v;
        }
    }
    g->cage_start[ncages] = k;
    g->ncages = ncages;
    if (at != left) {
        PyErr_SetString(PyExc_ValueError, "geometry: bytes after the killer cages");
        return -1;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "geometry: a killer cage out of range");
    return -1;
#undef NEXT_INT
}

#include "_ckiller/geometry.c"

/* The geometry of rules on shape br x bc, from the blob sudokit.rules.Geometry.blob writes:
 * 32-bit little-endian ints [houses, stride, nc, boxes], each house's n cells, each cell's
 * `stride` peers, then with nc each cell's 4 orthogonal neighbours.  Every number is checked,
 * so a bad blob is an error, never a wild read.  Return a new Geo (free with geo_free), or
 * NULL with an exception set. */
/* The peers of each cell as a 128-bit mask (g->pmask), for grids of up to 128 cells (after
 * the peers are final: a killer's cage mates lengthen them); -1 out of memory (exception
 * set). */
static int geo_pmask(Geo *g)
{
    if (g->N > 128)
        return 0;
    g->pmask = calloc((size_t)g->N * 2, sizeof(uint64_t));
    if (!g->pmask) {
        PyErr_NoMemory();
        return -1;
    }
    for (int c = 0; c < g->N; c++)
        for (int i = 0; i < g->npeers; i++) {
            int q = g->peers[(size_t)c * g->npeers + i];
            g->pmask[2 * c + q / 64] |= UINT64_C(1) << (q % 64);
        }
    return 0;
}

static Geo *geo_from_blob(int br, int bc, const uint8_t *blob, Py_ssize_t len)
{
    int n = br * bc, N = n * n;
    Py_ssize_t count = len / 4;
    if (len % 4 || count < 4) {
        PyErr_Format(PyExc_ValueError, "geometry: %zd bytes is not a rules geometry", len);
        return NULL;
    }
    int32_t head[4];
    memcpy(head, blob, sizeof(head));
    int nunits = head[0], stride = head[1], flags = head[2], boxes = head[3];
    int nc = flags & 1, killer = (flags >> 1) & 1;
    Py_ssize_t fixed = 4 + (Py_ssize_t)nunits * n + (Py_ssize_t)N * stride + (nc ? (Py_ssize_t)N * 4 : 0);
    if (nunits < 2 * n || nunits > 64 * n || stride < 1 || stride >= N || flags < 0 || flags > 3 ||
        (boxes != 0 && boxes != 1) || (killer ? count <= fixed : count != fixed)) {
        PyErr_Format(PyExc_ValueError, "geometry: a header (%d houses, %d peers, flags %d, boxes %d) "
                     "that does not fit %zd bytes on side %d", nunits, stride, flags, boxes, len, n);
        return NULL;
    }
    if (killer && n > CAGE_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "geometry: killer cages on side %d (the engine takes them up to "
                     "side %d)", n, CAGE_MAX_SIDE);
        return NULL;
    }
    Geo *g = calloc(1, sizeof(Geo));
    if (!g)
        return (Geo *)PyErr_NoMemory();
    g->units = malloc(sizeof(int) * (size_t)nunits * (size_t)n);
    g->peers = malloc(sizeof(int) * (size_t)N * (size_t)stride);
    g->adj = nc ? malloc(sizeof(int) * (size_t)N * 4) : NULL;
    if (!g->units || !g->peers || (nc && !g->adj)) {
        geo_free(g);
        return (Geo *)PyErr_NoMemory();
    }
    const uint8_t *p = blob + 16;
    int *targets[3] = {g->units, g->peers, g->adj};
    Py_ssize_t sizes[3] = {(Py_ssize_t)nunits * n, (Py_ssize_t)N * stride, nc ? (Py_ssize_t)N * 4 : 0};
    for (int part = 0; part < 3; part++)
        for (Py_ssize_t i = 0; i < sizes[part]; i++, p += 4) {
            int32_t v;
            memcpy(&v, p, 4);
            if (v < 0 || v >= N) {
                PyErr_Format(PyExc_ValueError, "geometry: cell %d out of range 0..%d", (int)v, N - 1);
                geo_free(g);
                return NULL;
            }
            targets[part][i] = v;
        }
    if (killer && geo_read_cages(g, p, blob + len, n, N) < 0) {
        geo_free(g);
        return NULL;
    }
    g->br = br;
    g->bc = bc;
    g->n = n;
    g->N = N;
    g->npeers = stride;
    g->nunits = nunits;
    g->boxes = boxes;
    g->rules = 1;
    g->full = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    if (killer && killer_derive(g) < 0) {
        geo_free(g);
        return NULL;
    }
    if (geo_pmask(g) < 0) {
        geo_free(g);
        return NULL;
    }
    g->r9 = r9_build(g); /* NULL: the general path serves these rules */
    return g;
}

/* A workspace for one search: a stack of states (cand + placed per level) and a queue. */
typedef struct {
    const Geo *g;
    uint64_t *cand;  /* cap levels of N masks */
    uint8_t *placed; /* cap levels of N flags */
    int cap;
    int *queue;      /* cells whose single digit still has to be removed from their peers */
    uint64_t *seg;   /* box/line segment scratch: n * n masks */
    int strong;      /* a search without an rng: shared_peers under jigsaw rules (see there) */
    uint64_t *cage_seen; /* killer: each cage's state when cage_step last left it unchanged */
    int cage_room;
} Work;

static int work_init(Work *w, const Geo *g)
{
    memset(w, 0, sizeof(*w));
    w->g = g;
    w->cap = 8;
    w->cand = malloc(sizeof(uint64_t) * (size_t)g->N * (size_t)w->cap);
    w->placed = malloc((size_t)g->N * (size_t)w->cap);
    w->queue = malloc(sizeof(int) * (size_t)g->N);
    w->seg = malloc(sizeof(uint64_t) * (size_t)g->n * (size_t)g->n);
    return w->cand && w->placed && w->queue && w->seg;
}

static void work_free(Work *w)
{
    free(w->cand);
    free(w->placed);
    free(w->queue);
    free(w->seg);
    free(w->cage_seen);
}

/* Make room for level `level`; return 0 when memory runs out. */
static int work_reserve(Work *w, int level)
{
    if (level < w->cap)
        return 1;
    int cap = w->cap * 2;
    while (cap <= level)
        cap *= 2;
    size_t N = (size_t)w->g->N;
    uint64_t *c = realloc(w->cand, sizeof(uint64_t) * N * (size_t)cap);
    if (!c)
        return 0;
    w->cand = c;
    uint8_t *p = realloc(w->placed, N * (size_t)cap);
    if (!p)
        return 0;
    w->placed = p;
    w->cap = cap;
    return 1;
}

/* Remove `bits` from cell p; queue it when one digit is left.  Return 0 if none is left. */
static inline int eliminate(uint64_t *cand, const uint8_t *placed, int *queue, int *qn, int p,
                            uint64_t bits)
{
    uint64_t m = cand[p];
    if (!(m & bits))
        return 1;
    m &= ~bits;
    cand[p] = m;
    if (!m)
        return 0;
    if (!(m & (m - 1)) && !placed[p])
        queue[(*qn)++] = p;
    return 1;
}

/* Box/line interactions: a digit confined to one line inside a box leaves the rest of the
 * line (pointing); one confined to one box inside a line leaves the rest of the box
 * (claiming).  Return -1 on contradiction, else the number of eliminations made. */
static int box_line(Work *w, uint64_t *cand, const uint8_t *placed, int *qn)
{
    const Geo *g = w->g;
    int n = g->n, br = g->br, bc = g->bc, found = 0;
    uint64_t *seg = w->seg;
    /* Rows: seg[r*br + j] = union over row r, stack j (n/bc = br stacks). */
    for (int pass = 0; pass < 2; pass++) {
        int lines_per_box = pass == 0 ? br : bc;  /* rows of a box, or its columns */
        int segs = pass == 0 ? br : bc;           /* segments per line */
        int seg_len = pass == 0 ? bc : br;
        for (int l = 0; l < n; l++)
            for (int j = 0; j < segs; j++) {
                uint64_t m = 0;
                for (int k = 0; k < seg_len; k++) {
                    int cell = pass == 0 ? l * n + j * seg_len + k : (j * seg_len + k) * n + l;
                    m |= cand[cell];
                }
                seg[l * segs + j] = m;
            }
        for (int l = 0; l < n; l++) {
            int band = l / lines_per_box;
            for (int j = 0; j < segs; j++) {
                uint64_t in = seg[l * segs + j], line_rest = 0, box_rest = 0;
                for (int jj = 0; jj < segs; jj++)
                    if (jj != j)
                        line_rest |= seg[l * segs + jj];
                for (int ll = band * lines_per_box; ll < (band + 1) * lines_per_box; ll++)
                    if (ll != l)
                        box_rest |= seg[ll * segs + j];
                uint64_t pointing = in & ~box_rest & line_rest;
                uint64_t claiming = in & ~line_rest & box_rest;
                if (pointing) {
                    for (int jj = 0; jj < segs; jj++) {
                        if (jj == j)
                            continue;
                        for (int k = 0; k < seg_len; k++) {
                            int cell = pass == 0 ? l * n + jj * seg_len + k : (jj * seg_len + k) * n + l;
                            if (!eliminate(cand, placed, w->queue, qn, cell, pointing))
                                return -1;
                        }
                        seg[l * segs + jj] &= ~pointing;
                    }
                    found = 1;
                }
                if (claiming) {
                    for (int ll = band * lines_per_box; ll < (band + 1) * lines_per_box; ll++) {
                        if (ll == l)
                            continue;
                        for (int k = 0; k < seg_len; k++) {
                            int cell = pass == 0 ? ll * n + j * seg_len + k : (j * seg_len + k) * n + ll;
                            if (!eliminate(cand, placed, w->queue, qn, cell, claiming))
                                return -1;
                        }
                        seg[ll * segs + j] &= ~claiming;
                    }
                    found = 1;
                }
            }
        }
    }
    return found;
}

#include "_ckiller/seen.c"

/* Killer cages: each cage's cells keep only the digits of the digit sets that can still make
 * its sum (sets of the unplaced cells' size and the rest of the sum, without the placed
 * digits, within the cells' candidates, and meeting every unplaced cell); a digit every such
 * set holds, with one place left in the cage, is placed there.  Return -1 on a contradiction,
 * else 1 when something changed, 0 when nothing did. */
static int cage_step(Work *w, uint64_t *cand, uint8_t *placed, int *qn)
{
    const Geo *g = w->g;
    int width = g->maxsum + 2, changed = 0;
    uint64_t *seen = cage_seen(w);
    for (int i = 0; i < g->ncages; i++) {
        const int *cells = g->cage_cells + g->cage_start[i];
        int size = g->cage_start[i + 1] - g->cage_start[i];
        int rest = g->cage_sum[i], open = 0;
        uint64_t state = cage_state(cand, placed, cells, size);
        if (seen && seen[i] == state && state)
            continue; /* as when this cage last changed nothing */
        uint64_t used = 0, avail = 0;
        int free_cells[CAGE_MAX_SIDE];
        for (int j = 0; j < size; j++) {
            int c = cells[j];
            if (placed[c]) {
                used |= cand[c];
                rest -= ctz64(cand[c]) + 1;
            } else {
                free_cells[open++] = c;
                avail |= cand[c];
            }
        }
        if (!open) {
            if (rest)
                return -1;
            continue;
        }
        if (rest < 1 || rest > g->maxsum)
            return -1;
        avail &= ~used;
        uint64_t any = 0, every = ~UINT64_C(0);
        const uint32_t *set = g->sum_sets + g->sum_start[open * width + rest];
        const uint32_t *stop = g->sum_sets + g->sum_start[open * width + rest + 1];
        for (; set < stop; set++) {
            uint64_t m = *set;
            if (m & ~avail)
                continue;
            int fits = 1;
            for (int j = 0; j < open && fits; j++)
                fits = (cand[free_cells[j]] & m) != 0;
            if (!fits)
                continue;
            any |= m;
            every &= m;
        }
        if (!any)
            return -1;
        int before = changed;
        changed = 0;
        for (int j = 0; j < open; j++) {
            int c = free_cells[j];
            uint64_t m = cand[c] & any;
            if (m == cand[c])
                continue;
            if (!m)
                return -1;
            cand[c] = m;
            changed = 1;
            if (!(m & (m - 1)))
                w->queue[(*qn)++] = c;
        }
        for (uint64_t need = every & any; need; need &= need - 1) {
            uint64_t bit = need & (~need + 1);
            int only = -1, places = 0;
            for (int j = 0; j < open; j++)
                if (cand[free_cells[j]] & bit) {
                    only = free_cells[j];
                    places++;
                }
            if (!places)
                return -1;
            if (places == 1 && cand[only] != bit) {
                cand[only] = bit;
                w->queue[(*qn)++] = only;
                changed = 1;
            }
        }
        if (!changed && seen)
            seen[i] = state;
        changed |= before;
    }
    return changed;
}

/* Under rules (g->pmask): a digit whose places left in a house all see one cell (as peers:
 * the house's other lines, a diagonal, a window, a knight's or king's move) leaves that cell.
 * This takes in box/line interactions (the places' common peers include the rest of their
 * line, or of their region) and does for jigsaw regions what those do for boxes.  It runs in
 * the searches without an rng where the boxes are not houses (jigsaw): with boxes, box_line
 * is cheaper for what it finds (this costs x, windoku and anti-knight digs about a third
 * more time than it saves them), and random grids keep their draws.  Return -1 on
 * contradiction, else 1 when something was eliminated, 0 when not. */
static int shared_peers(Work *w, uint64_t *cand, const uint8_t *placed, int *qn)
{
    const Geo *g = w->g;
    int n = g->n, N = g->N, found = 0;
    const uint64_t *pm = g->pmask;
    uint64_t dm[16][2] = {{0}}; /* each digit's unplaced cells (n <= 11 when N <= 128) */
    for (int c = 0; c < N; c++) {
        if (placed[c])
            continue;
        for (uint64_t m = cand[c]; m; m &= m - 1)
            dm[ctz64(m)][c / 64] |= UINT64_C(1) << (c % 64);
    }
    for (int u = 0; u < g->nunits; u++) {
        const int *cells = g->units + (size_t)u * n;
        uint64_t in[16][2], seen = 0;
        for (int i = 0; i < n; i++) {
            int c = cells[i];
            if (placed[c])
                continue;
            for (uint64_t m = cand[c]; m; m &= m - 1) {
                int d = ctz64(m);
                if (seen & (UINT64_C(1) << d)) {
                    in[d][0] &= pm[2 * c];
                    in[d][1] &= pm[2 * c + 1];
                } else {
                    seen |= UINT64_C(1) << d;
                    in[d][0] = pm[2 * c];
                    in[d][1] = pm[2 * c + 1];
                }
            }
        }
        for (; seen; seen &= seen - 1) {
            int d = ctz64(seen);
            for (int k = 0; k < 2; k++) {
                uint64_t e = in[d][k] & dm[d][k];
                if (!e)
                    continue;
                dm[d][k] &= ~e;
                found = 1;
                for (; e; e &= e - 1)
                    if (!eliminate(cand, placed, w->queue, qn, 64 * k + ctz64(e), UINT64_C(1) << d))
                        return -1;
            }
        }
    }
    return found;
}

/* Propagate the state at `level` to a fixpoint.  `qn` cells are already queued.  Return 0 on
 * a contradiction, else 1 + the number of placed cells (N + 1 when solved; 1 for a state with
 * nothing placed, such as the empty grid). */
static int propagate(Work *w, int level, int qn)
{
    const Geo *g = w->g;
    int n = g->n, N = g->N;
    uint64_t *cand = w->cand + (size_t)level * N;
    uint8_t *placed = w->placed + (size_t)level * N;
    int *queue = w->queue;
    for (;;) {
        /* Naked singles: remove each new single's digit from its peers. */
        while (qn) {
            int c = queue[--qn];
            if (placed[c])
                continue;
            uint64_t bit = cand[c];
            placed[c] = 1;
            const int *p = g->peers + (size_t)c * g->npeers;
            for (int i = 0; i < g->npeers; i++)
                if (!eliminate(cand, placed, queue, &qn, p[i], bit))
                    return 0;
            if (g->adj) {
                /* Non-consecutive: the digits next to this one leave its orthogonal neighbours. */
                uint64_t near = ((bit << 1) | (bit >> 1)) & g->full;
                const int *a = g->adj + (size_t)c * 4;
                for (int i = 0; i < 4; i++)
                    if (!eliminate(cand, placed, queue, &qn, a[i], near))
                        return 0;
            }
        }
        /* Hidden singles, and digits with no place left in a unit. */
        for (int u = 0; u < g->nunits; u++) {
            const int *cells = g->units + (size_t)u * n;
            uint64_t once = 0, twice = 0;
            for (int i = 0; i < n; i++) {
                uint64_t m = cand[cells[i]];
                twice |= once & m;
                once |= m;
            }
            if (once != g->full)
                return 0;
            uint64_t uniq = once & ~twice;
            if (!uniq)
                continue;
            for (int i = 0; i < n; i++) {
                int c = cells[i];
                uint64_t m = cand[c] & uniq;
                if (!m || placed[c])
                    continue;
                if (m & (m - 1))
                    return 0; /* two digits that can only go here */
                if (cand[c] != m) {
                    cand[c] = m;
                    queue[qn++] = c;
                }
            }
        }
        if (qn)
            continue;
        int solved = 0;
        for (int c = 0; c < N; c++)
            solved += placed[c];
        if (solved == N)
            return g->ncages && cage_step(w, cand, placed, &qn) < 0 ? 0 : N + 1;
        /* Non-consecutive, unplaced cells: a neighbour cannot hold d when every candidate of
         * the cell is d - 1, d or d + 1 (d itself is out too: neighbours share a row or a
         * column).  That takes candidates spanning at most three digits, lo..hi, and rules
         * out d from hi - 1 to lo + 1. */
        int nc_found = 0;
        if (g->adj)
            for (int c = 0; c < N; c++) {
                uint64_t m = cand[c];
                if (placed[c] || !(m & (m - 1)))
                    continue;
                int lo = ctz64(m), hi = 63 - __builtin_clzll(m);
                if (hi - lo > 2)
                    continue;
                uint64_t forbid = ((UINT64_C(2) << (lo + 1)) - 1) & ~((UINT64_C(1) << (hi - 1)) - 1);
                const int *a = g->adj + (size_t)c * 4;
                for (int i = 0; i < 4; i++)
                    if (cand[a[i]] & forbid) {
                        if (!eliminate(cand, placed, queue, &qn, a[i], forbid))
                            return 0;
                        nc_found = 1;
                    }
            }
        if (nc_found)
            continue;
        if (g->ncages) {
            int r = cage_step(w, cand, placed, &qn);
            if (r < 0)
                return 0;
            if (r)
                continue;
        }
        /* Nothing simpler left: box/line interactions (where the boxes are houses), or
         * their generalisation to regions (see shared_peers). */
        int r = g->pmask && w->strong && !g->boxes ? shared_peers(w, cand, placed, &qn)
                : g->boxes ? box_line(w, cand, placed, &qn) : 0;
        if (r < 0)
            return 0;
        if (!r && !qn)
            return solved + 1;
    }
}

/* Choose what to branch on: a (cell, digit) pair; the search then tries "cell is digit" and
 * "cell is not digit".  Preference: a bivalue cell; else a digit with two places left in a
 * unit (on big grids these are far more common than bivalue cells, and branching on them
 * halves the work at once); else a cell with the fewest candidates.  With an rng, ties are
 * broken at random (except under nc: the first cell, so that a random grid grows from cells
 * next to each other, where nc's eliminations meet: a quarter less time) and
 * the digit is drawn at random.  With `prefer` (a dig's known solution), the branch is on
 * its digit, first: the dig's searches then reach that solution at once and the second one,
 * which mostly agrees with it, soon after (a batch search under anti-knight that ran past its
 * budget before finding even the first now takes a few hundred nodes). */
static void choose(Work *w, int level, Rng *rng, const uint8_t *prefer, int *out_cell, int *out_digit)
{
    const Geo *g = w->g;
    int n = g->n;
    const uint64_t *cand = w->cand + (size_t)level * g->N;
    const uint8_t *placed = w->placed + (size_t)level * g->N;
    int best = -1, best_count = MAX_SIDE + 1, ties = 0;
    for (int c = 0; c < g->N; c++) {
        if (placed[c])
            continue;
        int k = popcount64(cand[c]);
        if (k < best_count) {
            best_count = k;
            best = c;
            ties = 1;
            if (k == 2 && !rng)
                break;
        } else if (k == best_count && rng && !g->adj && rng_below(rng, (uint32_t)++ties) == 0) {
            best = c;
        }
    }
    if (best_count > 2 && !rng) {
        /* Count each digit's places in each unit with 3-bit counters, one lane per digit,
         * saturating at 8; a digit already placed in the unit is left out. */
        int best_unit = -1;
        uint64_t best_bit = 0;
        for (int u = 0; u < g->nunits; u++) {
            const int *cells = g->units + (size_t)u * n;
            uint64_t c0 = 0, c1 = 0, c2 = 0, over = 0, done = 0;
            for (int i = 0; i < n; i++) {
                uint64_t m = cand[cells[i]];
                if (placed[cells[i]]) {
                    done |= m;
                    continue;
                }
                uint64_t k0 = c0 & m;
                c0 ^= m;
                uint64_t k1 = c1 & k0;
                c1 ^= k0;
                over |= c2 & k1;
                c2 ^= k1;
            }
            uint64_t live = ~over & ~done;
            for (int k = 2; k < best_count && k < 8; k++) {
                uint64_t eq = live & ((k & 1) ? c0 : ~c0) & ((k & 2) ? c1 : ~c1) & ((k & 4) ? c2 : ~c2);
                if (eq) {
                    best_count = k;
                    best_unit = u;
                    best_bit = eq & (~eq + 1);
                    break;
                }
            }
            if (best_count == 2)
                break;
        }
        if (best_unit >= 0) {
            const int *cells = g->units + (size_t)best_unit * n;
            int first = -1;
            for (int i = 0; i < n; i++)
                if (!placed[cells[i]] && (cand[cells[i]] & best_bit)) {
                    if (first < 0)
                        first = cells[i];
                    if (!prefer || prefer[cells[i]] == ctz64(best_bit) + 1) {
                        first = cells[i];
                        break;
                    }
                }
            *out_cell = first;
            *out_digit = ctz64(best_bit);
            return;
        }
    }
    uint64_t m = cand[best];
    *out_cell = best;
    if (prefer && (m >> (prefer[best] - 1) & 1))
        *out_digit = prefer[best] - 1;
    else
        *out_digit = rng ? nth_bit64(m, (int)rng_below(rng, (uint32_t)best_count)) : ctz64(m);
}

/* Search from `level` (already set up, `qn` cells queued).  Return 1 to stop, 0 to go on,
 * -1 when memory ran out. */
static int search(Work *w, int level, int qn, Ctx *ctx)
{
    const Geo *g = w->g;
    size_t N = (size_t)g->N;
    for (;;) {
        int r = propagate(w, level, qn);
        qn = 0;
        if (!r)
            return 0;
        uint64_t *cand = w->cand + level * N;
        if (r == g->N + 1) {
            uint8_t *out = ctx->count == 0 ? ctx->solution : ctx->count == 1 ? ctx->second : NULL;
            if (out)
                for (size_t c = 0; c < N; c++)
                    out[c] = (uint8_t)(ctz64(cand[c]) + 1);
            return ++ctx->count >= ctx->limit;
        }
        if ((ctx->node_limit && ++ctx->nodes > ctx->node_limit) || sudokit_interrupted()) {
            ctx->aborted = 1;
            return 1;
        }
        int cell, digit;
        choose(w, level, ctx->rng, ctx->rng || !g->rules ? NULL : ctx->prefer, &cell, &digit);
        uint64_t bit = UINT64_C(1) << digit;
        if (!work_reserve(w, level + 1))
            return -1;
        cand = w->cand + level * N; /* the stack may have moved */
        /* First "cell is digit", on a copy one level down. */
        uint64_t *next = w->cand + (level + 1) * N;
        memcpy(next, cand, N * sizeof(uint64_t));
        memcpy(w->placed + (level + 1) * N, w->placed + level * N, N);
        next[cell] = bit;
        w->queue[0] = cell;
        int res = search(w, level + 1, 1, ctx);
        if (res)
            return res;
        /* Then "cell is not digit", here. */
        cand = w->cand + level * N;
        uint64_t m = cand[cell] & ~bit;
        cand[cell] = m;
        if (!(m & (m - 1)))
            w->queue[qn++] = cell;
    }
}

/* Load clues into level 0.  Return the number of queued cells, or -1 if two clues conflict
 * (a clue whose digit an earlier clue has already removed). */
static int load(Work *w, const uint8_t *cells)
{
    const Geo *g = w->g;
    uint64_t *cand = w->cand;
    uint8_t *placed = w->placed;
    for (int c = 0; c < g->N; c++) {
        cand[c] = g->full;
        placed[c] = 0;
    }
    int qn = 0;
    for (int c = 0; c < g->N; c++) {
        int v = cells[c];
        if (!v)
            continue;
        uint64_t bit = UINT64_C(1) << (v - 1);
        if (!(cand[c] & bit))
            return -1;
        cand[c] = bit;
        placed[c] = 1;
        const int *p = g->peers + (size_t)c * g->npeers;
        for (int i = 0; i < g->npeers; i++) {
            uint64_t m = cand[p[i]];
            if (placed[p[i]]) {
                if (m == bit)
                    return -1;
                continue;
            }
            if (m & bit) {
                m &= ~bit;
                cand[p[i]] = m;
                if (!m)
                    return -1;
            }
        }
        if (g->adj) {
            uint64_t near = ((bit << 1) | (bit >> 1)) & g->full;
            const int *a = g->adj + (size_t)c * 4;
            for (int i = 0; i < 4; i++) {
                uint64_t m = cand[a[i]];
                if (placed[a[i]]) {
                    if (m & near)
                        return -1;
                } else if (m & near) {
                    cand[a[i]] = m & ~near;
                    if (!cand[a[i]])
                        return -1;
                }
            }
        }
    }
    for (int c = 0; c < g->N; c++)
        if (!placed[c] && !(cand[c] & (cand[c] - 1)))
            w->queue[qn++] = c;
    return qn;
}

/* Search the puzzle `cells` (as run9, excl_cell likewise).  Return 0, or -1 when memory ran
 * out. */
static int run_general(Work *w, const uint8_t *cells, Ctx *ctx, int excl_cell, int excl_digit)
{
    if (w->g->r9) {
        r9_run(w->g->r9, cells, ctx, excl_cell, excl_digit);
        return 0;
    }
    int qn = load(w, cells);
    if (qn < 0)
        return 0;
    if (excl_cell >= 0 && !cells[excl_cell]) {
        uint64_t m = w->cand[excl_cell] & ~(UINT64_C(1) << (excl_digit - 1));
        if (!m)
            return 0;
        if (m != w->cand[excl_cell] && !(m & (m - 1)))
            w->queue[qn++] = excl_cell;
        w->cand[excl_cell] = m;
    }
    w->strong = ctx->rng == NULL;
    return search(w, 0, qn, ctx) < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Random complete grids.                                                                      */

/* Fill `out` (N bytes) with a random complete grid.  The boxes on a diagonal (distinct bands
 * and stacks) are independent, so they are filled by shuffling first; the rest by a random
 * search, restarted with a fresh draw when it wanders too long (rare, but it keeps big grids
 * from getting stuck in a bad corner).  Under rules (g->rules) the diagonal boxes are not
 * independent (a diagonal or window crosses them), so the search starts from the empty grid;
 * a search that ends without a grid and without giving up has then proved the rules have
 * none.  Return 0, 1 when the rules have no complete grid, 2 when the search's node budget
 * passed `cap` (0: no cap) before it found one or proved there is none, or -1 when memory ran
 * out. */
static int random_grid(Work *w, uint64_t seed, uint8_t *out, uint64_t cap)
{
    const Geo *g = w->g;
    int n = g->n, br = g->br, bc = g->bc, N = g->N;
    Rng rng;
    rng_seed(&rng, seed);
    uint8_t *cells = calloc((size_t)N, 1);
    if (!cells)
        return -1;
    uint64_t budget = (uint64_t)N * 4;
    int nboxes = g->rules ? 0 : br < bc ? br : bc; /* there are bc bands and br stacks */
    for (;;) {
        memset(cells, 0, (size_t)N);
        for (int i = 0; i < nboxes; i++) {
            int digits[MAX_SIDE];
            for (int d = 0; d < n; d++)
                digits[d] = d + 1;
            for (int d = n - 1; d > 0; d--) {
                int j = (int)rng_below(&rng, (uint32_t)d + 1);
                int t = digits[d];
                digits[d] = digits[j];
                digits[j] = t;
            }
            for (int k = 0; k < n; k++) {
                int r = i * br + k / bc, c = i * bc + k % bc;
                cells[r * n + c] = (uint8_t)digits[k];
            }
        }
        Ctx ctx = {0};
        ctx.limit = 1;
        ctx.rng = &rng;
        ctx.solution = out;
        ctx.node_limit = budget;
        if (n == 9 && br == 3 && !g->rules) {
            run9(cells, &ctx, -1, 0);
        } else if (run_general(w, cells, &ctx, -1, 0) < 0) {
            free(cells);
            return -1;
        }
        /* stopped (Ctrl+C): the caller drops `out`; under rules, a search that ends without
         * giving up has proved there is no grid */
        if (ctx.count || sudokit_stopped || (g->rules && !ctx.aborted)) {
            free(cells);
            return ctx.count ? 0 : 1;
        }
        budget *= 2;
        if (cap && budget > cap) { /* the caller tries other rules rather than wait */
            free(cells);
            return 2;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Digging: from a complete grid to a puzzle with one solution.                                */

/* ------------------------------------------------------------------------------------------ */
/* Solving with singles only: the "a person can solve it with these" test for easy levels.    */

enum {
    LOGIC_NONE = 0,
    LOGIC_BOX = 1,     /* full houses and hidden singles in boxes (SE <= 1.2) */
    LOGIC_HIDDEN = 2,  /* full houses and hidden singles in any unit (SE <= 1.5) */
    LOGIC_SINGLES = 3, /* hidden and naked singles (SE <= 2.3) */
};

/* Can singles of the given kind alone fill `cells`?  Uses the workspace's level 0.  Return 1
 * yes, 0 no (stuck, or a contradiction, which a unique puzzle never has). */
static int singles_solve(Work *w, const uint8_t *cells, int mode)
{
    const Geo *g = w->g;
    int n = g->n, N = g->N;
    uint64_t *cand = w->cand;
    uint8_t *placed = w->placed;
    int qn = load(w, cells); /* queues cells left with one candidate: naked singles */
    if (qn < 0)
        return 0;
    if (mode != LOGIC_SINGLES)
        qn = 0; /* naked singles are not allowed: find them only as hidden or full house */
    int filled = 0;
    for (int c = 0; c < N; c++)
        filled += placed[c];
    for (;;) {
        /* Place what is queued (each placement removes its digit from its peers). */
        while (qn) {
            int c = w->queue[--qn];
            if (placed[c])
                continue;
            uint64_t bit = cand[c];
            placed[c] = 1;
            filled++;
            const int *p = g->peers + (size_t)c * g->npeers;
            for (int i = 0; i < g->npeers; i++) {
                int q = p[i];
                if (!(cand[q] & bit))
                    continue;
                if (placed[q])
                    return 0;
                uint64_t m = cand[q] & ~bit;
                cand[q] = m;
                if (!m)
                    return 0;
                if (mode == LOGIC_SINGLES && !(m & (m - 1)))
                    w->queue[qn++] = q;
            }
        }
        if (filled == N)
            return 1;
        /* Hidden singles (boxes only, or every unit), and full houses in any unit. */
        int found = 0;
        for (int u = 0; u < 3 * n && !found; u++) {
            const int *uc = g->units + (size_t)u * n;
            int empty = 0, last = -1;
            uint64_t once = 0, twice = 0;
            for (int i = 0; i < n; i++) {
                int c = uc[i];
                if (placed[c])
                    continue;
                empty++;
                last = c;
                twice |= once & cand[c];
                once |= cand[c];
            }
            if (!empty)
                continue;
            if (empty == 1) { /* full house */
                if (!cand[last] || (cand[last] & (cand[last] - 1)))
                    return 0;
                w->queue[qn++] = last;
                found = 1;
                break;
            }
            if (mode == LOGIC_BOX && u < 2 * n)
                continue;
            uint64_t uniq = once & ~twice;
            if (!uniq)
                continue;
            for (int i = 0; i < n; i++) {
                int c = uc[i];
                if (!placed[c] && (cand[c] & uniq)) {
                    uint64_t m = cand[c] & uniq;
                    if (m & (m - 1))
                        return 0;
                    cand[c] = m;
                    w->queue[qn++] = c;
                    found = 1;
                    break;
                }
            }
        }
        if (!found)
            return 0;
    }
}

#define DIG_UAS 160 /* unavoidable sets a dig keeps, */
#define DIG_UAS_FOUND 32 /* of which this many are kept for the ones batch searches find */
#ifndef DIG_UA_GRID_CELLS
#define DIG_UA_GRID_CELLS 12 /* the grid's own sets (see grid_unavoidable) of at most this many cells */
#endif
#ifndef DIG_CHUNK
#define DIG_CHUNK 4 /* orbits a base state serves (see chunk_base) */
#endif

/* Everything one dig needs.  The puzzle's known solution lets every uniqueness question be
 * asked as "is there a solution that differs from it here?", which a search usually refutes
 * by propagation alone. */
typedef struct {
    const Geo *g;
    Work *w;               /* general path workspace (NULL for 9x9) */
    uint64_t budget;       /* nodes per search, 0 = unlimited */
    int gave_up;           /* a search hit the budget: minimality can no longer be claimed */
    int oom;
    int logic;             /* LOGIC_*: removals must also keep the puzzle solvable so */
    Work *lw;              /* workspace for the logic test */
    /* Unavoidable sets (see dig), nua of them: set i is the cell bits ua[i * words ..], of
     * `words` 64-bit words each (DIG_UAS sets' room; NULL: none are kept). */
    int nua, words;
    uint64_t *ua;
    uint64_t *clue_bits; /* `words` words: the puzzle's clues, while dig runs (see set_cell) */
    /* 9x9, one clue at a time: the searches start from `base`, the puzzle with the cells
     * chunk[0..nchunk-1] (the orbits order[..chunk_end) that are next) emptied, propagated
     * once (see chunk_base); use_base while a search may. */
    S9 base;
    int chunk[MAX_SIDE * MAX_SIDE];
    int nchunk, chunk_end, have_base, use_base;
    /* The puzzle's solution: the searches look for another one, which mostly agrees with it
     * (it differs in an unavoidable set), so they try its digit first at each branch: the
     * count they return is the same in any order, and they get there in fewer nodes. */
    const uint8_t *solution;
} Digger;

/* Keep the unavoidable set `set` (cell bits, `words` words) when fewer than `room` are kept.
 * No set is kept twice: the grid's sets are distinct (see grid_unavoidable), and a set a batch
 * search finds is emptied by the batch, which no set kept before was (see dig). */
static void keep_set(Digger *D, const uint64_t *set, int room)
{
    int W = D->words;
    if (D->nua < room)
        memcpy(D->ua + (size_t)D->nua++ * W, set, sizeof(uint64_t) * (size_t)W);
}

/* Add cell c to the cell bit set `set`. */
static inline void set_add(uint64_t *set, int c) { set[c / 64] |= UINT64_C(1) << (c % 64); }

/* The cycles of two parallel lines of a complete grid (rows l1 and l2, or columns with
 * `across`) over the positions lo..hi-1 along them: position i leads to the position where
 * line l1 holds the digit that line l2 holds at i; a cycle is a set of positions where both
 * lines hold the same digits, so swapping the two lines there keeps both valid, and every
 * position's column (or row) too.  Keep the cells of each cycle of at least three positions
 * and at most DIG_UA_GRID_CELLS cells as an unavoidable set when the swap keeps the boxes
 * valid as well: see grid_unavoidable. */
static void line_cycles(Digger *D, const uint8_t *grid, int across, int l1, int l2, int lo, int hi)
{
    int n = D->g->n, W = D->words;
    int at[MAX_SIDE + 1]; /* at[d]: the position of digit d on line l1 in lo..hi-1, else -1 */
    uint64_t set[MAX_SIDE * MAX_SIDE / 64 + 1], done = 0;
#define LINE_CELL(l, i) (across ? (i) * n + (l) : (l) * n + (i))
    for (int d = 0; d <= n; d++)
        at[d] = -1;
    for (int i = lo; i < hi; i++)
        at[grid[LINE_CELL(l1, i)]] = i;
    for (int i = lo; i < hi; i++) {
        if (done >> (i - lo) & 1)
            continue;
        int len = 0, j = i;
        do {
            done |= UINT64_C(1) << (j - lo);
            len++;
            j = at[grid[LINE_CELL(l2, j)]];
        } while (j > i && 2 * len <= DIG_UA_GRID_CELLS);
        if (j != i || len < 3 || 2 * len > DIG_UA_GRID_CELLS)
            continue; /* open, too short (a two-digit set), or too long */
        memset(set, 0, sizeof(uint64_t) * (size_t)W);
        j = i;
        do {
            set_add(set, LINE_CELL(l1, j));
            set_add(set, LINE_CELL(l2, j));
            j = at[grid[LINE_CELL(l2, j)]];
        } while (j != i);
        keep_set(D, set, DIG_UAS - DIG_UAS_FOUND);
    }
#undef LINE_CELL
}

/* Seed the digger with small unavoidable sets of the complete grid `grid` (of at most
 * DIG_UA_GRID_CELLS cells), found without a search: digit swaps that give another valid grid.
 *   - Two digits a, b: swapping them in a set of rows keeps each row valid; a column or a box
 *     stays valid when the rows of its a and of its b are both swapped or neither.  So the
 *     smallest such sets are the components of the rows linked that way (each row is linked
 *     to the row of the a in the column of its b, and in the box of its b).
 *   - Two rows, swapped at the positions of a cycle (see line_cycles): in one band, any cycle
 *     (each swap stays inside a box); in two bands, a cycle inside one stack (the two boxes
 *     trade the same digits).  Likewise two columns.  Cycles of two positions are sets of the
 *     first kind already, so only longer ones are taken: every set is found once.
 * The answers of the dig do not change: a removal that empties an unavoidable set leaves a
 * second solution, which is what its search would have found. */
static void grid_unavoidable(Digger *D, const uint8_t *grid)
{
    const Geo *g = D->g;
    int n = g->n, br = g->br, bc = g->bc, W = D->words;
    uint64_t set[MAX_SIDE * MAX_SIDE / 64 + 1];
    /* For digit d+1: its column in row r, and the rows it has in column c and in box x. */
    uint8_t col_of[MAX_SIDE][MAX_SIDE], row_in_col[MAX_SIDE][MAX_SIDE], row_in_box[MAX_SIDE][MAX_SIDE];
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int d = grid[r * n + c] - 1;
            col_of[d][r] = (uint8_t)c;
            row_in_col[d][c] = (uint8_t)r;
            row_in_box[d][r / br * br + c / bc] = (uint8_t)r;
        }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            uint64_t seen = 0;
            for (int r0 = 0; r0 < n; r0++) {
                if (seen >> r0 & 1)
                    continue;
                uint64_t rows = UINT64_C(1) << r0, todo = rows;
                while (todo) {
                    int r = ctz64(todo), c = col_of[b][r];
                    todo &= todo - 1;
                    uint64_t next = UINT64_C(1) << row_in_col[a][c] |
                                    UINT64_C(1) << row_in_box[a][r / br * br + c / bc];
                    next &= ~rows;
                    rows |= next;
                    todo |= next;
                }
                seen |= rows;
                if (2 * popcount64(rows) > DIG_UA_GRID_CELLS)
                    continue;
                memset(set, 0, sizeof(uint64_t) * (size_t)W);
                for (uint64_t t = rows; t; t &= t - 1) {
                    int r = ctz64(t);
                    set_add(set, r * n + col_of[a][r]);
                    set_add(set, r * n + col_of[b][r]);
                }
                keep_set(D, set, DIG_UAS - DIG_UAS_FOUND);
            }
        }
    for (int across = 0; across < 2; across++) {
        int thick = across ? bc : br, seg = across ? br : bc; /* lines a band holds; box cells along one */
        uint64_t digits[MAX_SIDE][MAX_SIDE]; /* digits[l][k]: line l's digits in its k-th box */
        for (int l = 0; l < n; l++)
            for (int i = 0; i < n; i++)
                digits[l][i / seg] = (i % seg ? digits[l][i / seg] : 0) |
                                     UINT64_C(1) << (grid[across ? i * n + l : l * n + i] - 1);
        for (int l1 = 0; l1 < n; l1++)
            for (int l2 = l1 + 1; l2 < n; l2++) {
                if (l2 / thick == l1 / thick) {
                    line_cycles(D, grid, across, l1, l2, 0, n);
                    continue;
                }
                for (int k = 0; k < n / seg; k++) /* a cycle needs three digits in common */
                    if (popcount64(digits[l1][k] & digits[l2][k]) >= 3)
                        line_cycles(D, grid, across, l1, l2, k * seg, k * seg + seg);
            }
    }
}

#include "_cengine/rules_ua.c"

/* Take cell c out of the puzzle, or put its clue v back, in `cells` and in D->clue_bits. */
static inline void set_cell(Digger *D, uint8_t *cells, int c, uint8_t v)
{
    uint64_t bit = UINT64_C(1) << (c % 64);
    cells[c] = v;
    D->clue_bits[c / 64] = v ? D->clue_bits[c / 64] | bit : D->clue_bits[c / 64] & ~bit;
}

/* Would the puzzle (its clues in D->clue_bits) leave one of the digger's unavoidable sets
 * without a clue?  Then it has a second solution (the one that set came from): no search is
 * needed to know. */
static int ua_emptied(const Digger *D)
{
    int W = D->words;
    const uint64_t *clue = D->clue_bits, *set = D->ua;
    if (W == 2) { /* 9x9 */
        for (int i = 0; i < D->nua; i++, set += 2)
            if (!((set[0] & clue[0]) | (set[1] & clue[1])))
                return 1;
        return 0;
    }
    for (int i = 0; i < D->nua; i++, set += W) {
        uint64_t hit = 0;
        for (int w = 0; w < W; w++)
            hit |= set[w] & clue[w];
        if (!hit)
            return 1;
    }
    return 0;
}

/* Does the puzzle pass the digger's logic test (always, when there is none)? */
static int logic_ok(Digger *D, const uint8_t *cells)
{
    return D->logic == LOGIC_NONE || singles_solve(D->lw, cells, D->logic);
}

/* Run one search on `cells` with limit `limit`; return the count, or -1 if it hit the budget.
 * With `found` (2N bytes), the first two solutions go there, end to end. */
static int dig_search(Digger *D, const uint8_t *cells, uint64_t limit, int excl_cell, int excl_digit,
                      uint8_t *found)
{
    Ctx ctx = {0};
    ctx.limit = limit;
    ctx.node_limit = D->budget;
    ctx.prefer = D->solution;
    if (found) {
        ctx.solution = found;
        ctx.second = found + D->g->N;
    }
    if (D->w) {
        if (run_general(D->w, cells, &ctx, excl_cell, excl_digit) < 0) {
            D->oom = 1;
            return -1;
        }
    } else if (D->use_base) {
        again9(&D->base, cells, D->chunk, D->nchunk, &ctx, excl_cell, excl_digit);
    } else {
        run9(cells, &ctx, excl_cell, excl_digit);
    }
    if (ctx.aborted)
        return -1;
    return (int)ctx.count;
}

/* The clues at removed[0..k-1] have just been taken out of `cells`, which was uniquely solved
 * by `solution`.  Any other solution must differ from `solution` at one of them, so look for
 * one differing at each in turn; once a cell is shown to be forced, it is put back as a clue
 * for the later searches.  Return 1 if still unique, 0 if not, -1 if a search gave up. */
static int still_unique(Digger *D, uint8_t *cells, const uint8_t *solution, const int *removed, int k)
{
    int result = 1;
    int i;
    for (i = 0; i < k; i++) {
        int c = removed[i];
        int r = dig_search(D, cells, 1, c, solution[c], NULL);
        if (r != 0) {
            result = r > 0 ? 0 : -1;
            break;
        }
        cells[c] = solution[c];
    }
    for (int j = 0; j < i; j++)
        cells[removed[j]] = 0;
    return result;
}

/* A batch search found two solutions (`found`, end to end) with the batch removed[0..k-1]
 * taken out: keep the batch cells where one that is not `solution` differs from it, when
 * there is room. */
static void keep_unavoidable(Digger *D, const uint8_t *found, const uint8_t *solution,
                             const int *removed, int k)
{
    int N = D->g->N;
    const uint8_t *other = memcmp(found, solution, (size_t)N) ? found : found + N;
    uint64_t set[MAX_SIDE * MAX_SIDE / 64 + 1];
    memset(set, 0, sizeof(uint64_t) * (size_t)D->words);
    for (int i = 0; i < k; i++) {
        int c = removed[i];
        if (other[c] != solution[c])
            set[c / 64] |= UINT64_C(1) << (c % 64);
    }
    keep_set(D, set, DIG_UAS); /* never empty: the puzzle before the batch was unique */
}

/* Before the orbit order[at] is tested alone (its cells already emptied in `cells`): unless
 * the digger's base covers it, make a new one with it and the next DIG_CHUNK - 1 orbits
 * emptied.  Every puzzle tested until then holds the base's clues (the cells outside the
 * chunk do not change), so a search may start from the base's propagated state instead of
 * from the clues: most of the work of propagating them is done once per chunk. */
static void chunk_base(Digger *D, const uint8_t *cells, const int *orbit_cells,
                       const int *orbit_start, const int *order, int at, int norbits)
{
    if (D->have_base && at < D->chunk_end)
        return;
    uint8_t emptied[81];
    memcpy(emptied, cells, 81);
    int n = 0, end = at + DIG_CHUNK < norbits ? at + DIG_CHUNK : norbits;
    for (int p = at; p < end; p++)
        for (int i = orbit_start[order[p]]; i < orbit_start[order[p] + 1]; i++) {
            D->chunk[n++] = orbit_cells[i];
            emptied[orbit_cells[i]] = 0;
        }
    D->nchunk = n;
    D->chunk_end = end;
    D->have_base = base9(&D->base, emptied);
}

/* Remove orbits from `cells` (a full grid equal to `solution`) in the order given, keeping a
 * removal only while the puzzle stays unique; stop once the clue count is <= target.  With
 * `exact`, an orbit that would take the count below the target is skipped.  Orbit o is orbit_cells[orbit_start[o] .. orbit_start[o+1]-1].
 *
 * The first removals almost never break uniqueness, so while that holds the loop removes a
 * batch of orbits at once behind one count-to-two search, doubling the batch on success and
 * halving it on failure; a batch that stays unique is exactly what one-by-one removal would
 * have kept (every step in between had more clues, so was unique too).  Once batches fail,
 * single orbits are tested by the differing-solution searches.  Return the clue count; set
 * *exhausted when every orbit was tried.
 *
 * A batch that fails gives a second solution, which differs from `solution` in some of the
 * batch's cells (an unavoidable set, as far as the clues put back go: the cells dug before
 * stay empty).  While one of those cells is a clue, that solution is ruled out; a removal that
 * would take the last of them is known to break uniqueness without a search, in the batches
 * and one by one alike.  So would one that empties a small unavoidable set of the grid itself
 * (see grid_unavoidable, which the caller runs first: they spare most failing searches, the
 * costly ones, which must find a second solution).  The answers are the ones the searches
 * would give. */
static int dig(Digger *D, uint8_t *cells, const uint8_t *solution, const int *orbit_cells,
               const int *orbit_start, const int *order, int norbits, int target, int exact,
               int *exhausted)
{
    int N = D->g->N, clues = N;
    memset(D->clue_bits, 0, sizeof(uint64_t) * (size_t)D->words);
    for (int c = 0; c < N; c++) {
        clues -= cells[c] == 0;
        D->clue_bits[c / 64] |= (uint64_t)(cells[c] != 0) << (c % 64);
    }
    int batch = N / 4; /* in cells */
    int removed[MAX_SIDE * MAX_SIDE];
    uint8_t found[2 * MAX_SIDE * MAX_SIDE];
    int pos = 0;
    while (pos < norbits && clues > target) {
        if (batch > 1) {
            int k = 0, end = pos;
            while (end < norbits) {
                int o = order[end], size = orbit_start[o + 1] - orbit_start[o];
                if (k + size > batch || clues - k <= target || (exact && clues - k - size < target))
                    break;
                for (int i = orbit_start[o]; i < orbit_start[o + 1]; i++)
                    removed[k++] = orbit_cells[i];
                end++;
            }
            if (end - pos >= 2) {
                for (int i = 0; i < k; i++)
                    set_cell(D, cells, removed[i], 0);
                /* Singles that fill the grid prove it unique: no search is needed then. */
                int unique;
                if (D->logic)
                    unique = logic_ok(D, cells);
                else if (ua_emptied(D))
                    unique = 0;
                else {
                    int r = dig_search(D, cells, 2, -1, 0, found);
                    unique = r == 1;
                    if (r == 2)
                        keep_unavoidable(D, found, solution, removed, k);
                }
                if (unique) {
                    clues -= k;
                    pos = end;
                    batch *= 2;
                    continue;
                }
                for (int i = 0; i < k; i++)
                    set_cell(D, cells, removed[i], solution[removed[i]]);
                batch /= 2;
                continue;
            }
            batch = 1;
        }
        int o = order[pos++], size = orbit_start[o + 1] - orbit_start[o];
        if (exact && clues - size < target)
            continue;
        int k = 0;
        for (int i = orbit_start[o]; i < orbit_start[o + 1]; i++) {
            removed[k++] = orbit_cells[i];
            set_cell(D, cells, orbit_cells[i], 0);
        }
        int r;
        if (D->logic) {
            r = logic_ok(D, cells);
        } else if (ua_emptied(D)) {
            r = 0;
        } else {
            if (!D->w)
                chunk_base(D, cells, orbit_cells, orbit_start, order, pos - 1, norbits);
            D->use_base = D->have_base;
            r = still_unique(D, cells, solution, removed, k);
            D->use_base = 0;
        }
        if (r == 1) {
            clues -= size;
        } else {
            for (int i = 0; i < k; i++)
                set_cell(D, cells, removed[i], solution[removed[i]]);
            if (r < 0)
                D->gave_up = 1;
        }
        if (D->oom || sudokit_stopped)
            break;
    }
    *exhausted = pos >= norbits;
    return clues;
}

/* ------------------------------------------------------------------------------------------ */
/* Python bindings.                                                                            */

/* Check a complete grid of n*n cells: every digit 1..n, none twice in a row, column or box.
 * Return 0, or -1 with ValueError set. */
static int check_solution(const uint8_t *cells, int br, int bc, const char *what)
{
    int n = br * bc;
    uint64_t rows[MAX_SIDE] = {0}, cols[MAX_SIDE] = {0}, boxes[MAX_SIDE] = {0};
    for (int c = 0; c < n * n; c++) {
        int v = cells[c], r = c / n, k = c % n, b = (r / br) * br + k / bc;
        if (v < 1 || v > n) {
            PyErr_Format(PyExc_ValueError, "%s: cell %d holds %d, not a digit 1..%d", what, c, v, n);
            return -1;
        }
        uint64_t bit = UINT64_C(1) << (v - 1);
        if ((rows[r] | cols[k] | boxes[b]) & bit) {
            PyErr_Format(PyExc_ValueError, "%s: digit %d repeats at cell %d", what, v, c);
            return -1;
        }
        rows[r] |= bit;
        cols[k] |= bit;
        boxes[b] |= bit;
    }
    return 0;
}

/* check_solution under a rules geometry: every house holds each digit once, no cell equals a
 * peer, and (nc) no two orthogonal neighbours hold consecutive digits. */
static int check_solution_geo(const uint8_t *cells, const Geo *g, const char *what)
{
    int n = g->n;
    for (int c = 0; c < g->N; c++)
        if (cells[c] < 1 || cells[c] > n) {
            PyErr_Format(PyExc_ValueError, "%s: cell %d holds %d, not a digit 1..%d", what, c, cells[c], n);
            return -1;
        }
    for (int u = 0; u < g->nunits; u++) {
        uint64_t seen = 0;
        for (int i = 0; i < n; i++)
            seen |= UINT64_C(1) << (cells[g->units[(size_t)u * n + i]] - 1);
        if (seen != g->full) {
            PyErr_Format(PyExc_ValueError, "%s: house %d does not hold every digit once", what, u);
            return -1;
        }
    }
    for (int c = 0; c < g->N; c++) {
        for (int i = 0; i < g->npeers; i++)
            if (cells[g->peers[(size_t)c * g->npeers + i]] == cells[c]) {
                PyErr_Format(PyExc_ValueError, "%s: digit %d repeats at cell %d", what, cells[c], c);
                return -1;
            }
        if (g->adj)
            for (int i = 0; i < 4; i++) {
                int d = cells[g->adj[(size_t)c * 4 + i]] - cells[c];
                if (d == 1 || d == -1) {
                    PyErr_Format(PyExc_ValueError, "%s: consecutive digits next to cell %d", what, c);
                    return -1;
                }
            }
    }
    return 0;
}

/* Check that `len` bytes hold whole puzzles of N cells with digits 0..n.  Return the number
 * of puzzles, or -1 with an exception set. */
static Py_ssize_t check_cells(const uint8_t *cells, Py_ssize_t len, int n)
{
    Py_ssize_t N = (Py_ssize_t)n * n;
    if (len % N != 0 || (len == 0)) {
        PyErr_Format(PyExc_ValueError, "expected a multiple of %zd cells, got %zd bytes", N, len);
        return -1;
    }
    /* The largest byte first, in a loop without an exit that the compiler makes a vector
     * loop; only a batch with a bad digit is searched for it. */
    uint8_t top = 0;
    for (Py_ssize_t i = 0; i < len; i++)
        top = cells[i] > top ? cells[i] : top;
    if (top > n)
        for (Py_ssize_t i = 0; i < len; i++)
            if (cells[i] > n) {
                PyErr_Format(PyExc_ValueError, "puzzle %zd, cell %zd: digit %d is out of range 0..%d", i / N,
                             i % N, cells[i], n);
                return -1;
            }
    return len / N;
}

/* Solve `count` puzzles of N cells.  solutions: count*N bytes (zeros where none); counts: one
 * per puzzle.  Called without the GIL.  Return 0, or -1 when memory ran out. */
static int solve_many(const Geo *g, const uint8_t *cells, Py_ssize_t count, uint64_t limit,
                      uint8_t *solutions, uint64_t *counts)
{
    int N = g->N;
    int fast9 = g->n == 9 && g->br == 3 && !g->rules;
    Work w;
    if (!fast9 && !work_init(&w, g)) {
        work_free(&w);
        return -1;
    }
    int status = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        Ctx ctx = {0};
        ctx.strong = 1;
        ctx.limit = limit;
        ctx.solution = solutions ? solutions + i * N : NULL;
        if (ctx.solution)
            memset(ctx.solution, 0, (size_t)N);
        if (fast9)
            run9(cells + i * N, &ctx, -1, 0);
        else if (run_general(&w, cells + i * N, &ctx, -1, 0) < 0) {
            status = -1;
            break;
        }
        counts[i] = ctx.count;
        if (sudokit_stopped)
            break;
    }
    if (!fast9)
        work_free(&w);
    return status;
}

/* The general path for 9x9 too, when `generic` is set (the tests compare both paths). */
static int solve_many_generic(const Geo *g, const uint8_t *cells, Py_ssize_t count, uint64_t limit,
                              uint8_t *solutions, uint64_t *counts)
{
    Work w;
    if (!work_init(&w, g)) {
        work_free(&w);
        return -1;
    }
    int status = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        Ctx ctx = {0};
        ctx.limit = limit;
        ctx.solution = solutions ? solutions + i * g->N : NULL;
        if (ctx.solution)
            memset(ctx.solution, 0, (size_t)g->N);
        if (run_general(&w, cells + i * g->N, &ctx, -1, 0) < 0) {
            status = -1;
            break;
        }
        counts[i] = ctx.count;
        if (sudokit_stopped)
            break;
    }
    work_free(&w);
    return status;
}

/* The geometry of a call: the shape's classic one (cached), or, when `geometry` is not None,
 * one built from that rules blob, which *owned then holds too (free it with geo_free).
 * Return NULL with an exception set on failure. */
static const Geo *call_geo(int br, int bc, PyObject *geometry, Geo **owned)
{
    *owned = NULL;
    if (!geometry || geometry == Py_None) {
        const Geo *g = geo_get(br, bc);
        if (!g)
            PyErr_NoMemory();
        return g;
    }
    Py_buffer blob;
    if (PyObject_GetBuffer(geometry, &blob, PyBUF_SIMPLE) < 0)
        return NULL;
    *owned = geo_from_blob(br, bc, blob.buf, blob.len);
    PyBuffer_Release(&blob);
    return *owned;
}

static PyObject *solve_batch(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"box_rows", "box_cols", "cells", "limit", "generic", "geometry", NULL};
    int br, bc, generic = 0;
    Py_buffer buf;
    long long limit = 1;
    PyObject *geometry = NULL;
    Geo *owned = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiy*|LpO:solve_batch", kwlist, &br, &bc, &buf,
                                     &limit, &generic, &geometry))
        return NULL;
    PyObject *result = NULL, *sols = NULL, *counts_list = NULL;
    uint64_t *counts = NULL;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    if (limit < 1) {
        PyErr_Format(PyExc_ValueError, "limit must be at least 1, got %lld", limit);
        goto done;
    }
    Py_ssize_t count = check_cells(buf.buf, buf.len, n);
    if (count < 0)
        goto done;
    const Geo *g = call_geo(br, bc, geometry, &owned);
    if (!g)
        goto done;
    sols = PyBytes_FromStringAndSize(NULL, buf.len);
    counts = PyMem_Malloc(sizeof(uint64_t) * (size_t)count);
    if (!sols || !counts) {
        PyErr_NoMemory();
        goto done;
    }
    int status;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(sols);
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS;
    if (generic)
        status = solve_many_generic(g, buf.buf, count, (uint64_t)limit, out, counts);
    else
        status = solve_many(g, buf.buf, count, (uint64_t)limit, out, counts);
    Py_END_ALLOW_THREADS;
    if (sudokit_interrupt_end())
        goto done;
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    counts_list = PyList_New(count);
    if (!counts_list)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(counts[i]);
        if (!v)
            goto done;
        PyList_SET_ITEM(counts_list, i, v);
    }
    result = PyTuple_Pack(2, sols, counts_list);
done:
    Py_XDECREF(sols);
    Py_XDECREF(counts_list);
    PyMem_Free(counts);
    PyBuffer_Release(&buf);
    geo_free(owned);
    return result;
}

/* One puzzle: (solution bytes or None, count up to limit).  The same work as solve_batch with
 * one puzzle, without building lists. */
static PyObject *solve_one(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"box_rows", "box_cols", "cells", "limit", "generic", "geometry", NULL};
    int br, bc, generic = 0;
    Py_buffer buf;
    long long limit = 1;
    PyObject *geometry = NULL;
    Geo *owned = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiy*|LpO:solve", kwlist, &br, &bc, &buf, &limit,
                                     &generic, &geometry))
        return NULL;
    PyObject *result = NULL;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    if (limit < 1) {
        PyErr_Format(PyExc_ValueError, "limit must be at least 1, got %lld", limit);
        goto done;
    }
    if (buf.len != (Py_ssize_t)n * n) {
        PyErr_Format(PyExc_ValueError, "expected %d cells, got %zd", n * n, buf.len);
        goto done;
    }
    if (check_cells(buf.buf, buf.len, n) < 0)
        goto done;
    const Geo *g = call_geo(br, bc, geometry, &owned);
    if (!g)
        goto done;
    uint8_t sol[MAX_SIDE * MAX_SIDE];
    uint64_t count = 0;
    int status;
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS;
    if (generic)
        status = solve_many_generic(g, buf.buf, 1, (uint64_t)limit, sol, &count);
    else
        status = solve_many(g, buf.buf, 1, (uint64_t)limit, sol, &count);
    Py_END_ALLOW_THREADS;
    if (sudokit_interrupt_end())
        goto done;
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (count)
        result = Py_BuildValue("(y#K)", sol, (Py_ssize_t)n * n, (unsigned long long)count);
    else
        result = Py_BuildValue("(OK)", Py_None, (unsigned long long)0);
done:
    PyBuffer_Release(&buf);
    geo_free(owned);
    return result;
}

static PyObject *py_random_grid(PyObject *self, PyObject *args)
{
    int br, bc;
    unsigned long long seed;
    PyObject *geometry = NULL;
    Geo *owned = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiK|O:random_grid", &br, &bc, &seed, &geometry))
        return NULL;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        return NULL;
    const Geo *g = call_geo(br, bc, geometry, &owned);
    if (!g)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * n);
    if (!out) {
        geo_free(owned);
        return NULL;
    }
    Work w;
    int ok = work_init(&w, g), status = -1;
    if (ok) {
        sudokit_interrupt_begin();
        Py_BEGIN_ALLOW_THREADS;
        status = random_grid(&w, seed, (uint8_t *)PyBytes_AS_STRING(out), 0);
        Py_END_ALLOW_THREADS;
    }
    work_free(&w);
    geo_free(owned);
    if (sudokit_interrupt_end()) {
        Py_DECREF(out);
        return NULL;
    }
    if (status != 0) {
        Py_DECREF(out);
        if (status > 0)
            Py_RETURN_NONE; /* the rules have no complete grid */
        return PyErr_NoMemory();
    }
    return out;
}

/* generate(box_rows, box_cols, seed, orbits, target, exact, budget, logic=0, geometry=None,
 *          grid_cap=0)
 *   -> (puzzle, solution, clues, exhausted, gave_up), or None when the rules (geometry, a
 *   rules blob as solve takes) have no complete grid, or none was found within a budget
 *   (grid_cap nodes of the grid search; 0: 1024 a cell under rules, none for classic)
 * logic: 0, or LOGIC_BOX / LOGIC_HIDDEN / LOGIC_SINGLES: keep a removal only while singles of
 *   that kind still solve the puzzle (which also proves it unique).
 * orbits: per cell, its orbit's index as a little-endian uint16; orbits are numbered 0..k-1.
 * target: stop at this many clues or fewer (0: go on until no orbit can be removed); with
 *   exact, never go below it.
 * exhausted: every orbit was tried, so without gave_up the puzzle is minimal for its orbits. */
static PyObject *py_generate(PyObject *self, PyObject *args)
{
    int br, bc, target, exact, logic = LOGIC_NONE;
    unsigned long long seed, budget, grid_cap = 0;
    Py_buffer ob;
    PyObject *geometry = NULL;
    Geo *owned = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiKy*ipK|iOK:generate", &br, &bc, &seed, &ob, &target, &exact, &budget,
                          &logic, &geometry, &grid_cap))
        return NULL;
    PyObject *result = NULL;
    int *orbit_cells = NULL, *orbit_start = NULL, *order = NULL;
    uint8_t *cells = NULL, *solution = NULL;
    uint64_t *ua = NULL;
    Work w;
    int have_work = 0;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    int N = n * n;
    if (logic < LOGIC_NONE || logic > LOGIC_SINGLES) {
        PyErr_Format(PyExc_ValueError, "logic must be 0..3, got %d", logic);
        goto done;
    }
    if (target < 0 || target > N) {
        PyErr_Format(PyExc_ValueError, "target must be 0..%d clues, got %d", N, target);
        goto done;
    }
    if (ob.len != 2 * (Py_ssize_t)N) {
        PyErr_Format(PyExc_ValueError, "orbits: expected %d bytes (uint16 per cell), got %zd", 2 * N, ob.len);
        goto done;
    }
    const uint8_t *ob8 = ob.buf;
    int norbits = 0;
    for (int c = 0; c < N; c++) {
        int id = ob8[2 * c] | ob8[2 * c + 1] << 8;
        if (id >= N) {
            PyErr_Format(PyExc_ValueError, "orbits: cell %d has orbit %d, over %d", c, id, N - 1);
            goto done;
        }
        if (id + 1 > norbits)
            norbits = id + 1;
    }
    const Geo *g = call_geo(br, bc, geometry, &owned);
    if (!g)
        goto done;
    orbit_cells = PyMem_Malloc(sizeof(int) * (size_t)N);
    orbit_start = PyMem_Calloc((size_t)norbits + 1, sizeof(int));
    order = PyMem_Malloc(sizeof(int) * (size_t)norbits);
    cells = PyMem_Malloc((size_t)N);
    solution = PyMem_Malloc((size_t)N);
    int words = (N + 63) / 64;
    ua = PyMem_Malloc(sizeof(uint64_t) * (size_t)words * (DIG_UAS + 1));
    if (!g || !orbit_cells || !orbit_start || !order || !cells || !solution || !ua) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < N; c++)
        orbit_start[(ob8[2 * c] | ob8[2 * c + 1] << 8) + 1]++;
    for (int o = 0; o < norbits; o++) {
        if (orbit_start[o + 1] == 0) {
            PyErr_Format(PyExc_ValueError, "orbits: orbit %d has no cell", o);
            goto done;
        }
        orbit_start[o + 1] += orbit_start[o];
    }
    {
        int fill[MAX_SIDE * MAX_SIDE];
        memcpy(fill, orbit_start, sizeof(int) * (size_t)norbits);
        for (int c = 0; c < N; c++)
            orbit_cells[fill[ob8[2 * c] | ob8[2 * c + 1] << 8]++] = c;
    }
    if (!work_init(&w, g)) {
        work_free(&w);
        PyErr_NoMemory();
        goto done;
    }
    have_work = 1;
    int clues = 0, exhausted = 0, status = 0;
    Digger D = {0};
    D.g = g;
    D.w = (n == 9 && br == 3 && !g->rules) ? NULL : &w;
    D.budget = budget;
    D.logic = logic;
    D.lw = &w;
    D.words = words;
    D.ua = ua;
    D.clue_bits = ua + (size_t)words * DIG_UAS;
    D.solution = solution;
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS;
    /* The grid from the seed; the order of orbits from the next draws of a second stream. */
    /* 1: the rules have no complete grid; 2: none was found within a few restarts */
    status = random_grid(&w, seed, solution, grid_cap ? grid_cap : g->rules ? (uint64_t)N << 10 : 0);
    if (status == 0) {
        Rng rng;
        rng_seed(&rng, seed ^ UINT64_C(0x5DEECE66D1F2E3A7));
        for (int o = 0; o < norbits; o++)
            order[o] = o;
        for (int o = norbits - 1; o > 0; o--) {
            int j = (int)rng_below(&rng, (uint32_t)o + 1);
            int t = order[o];
            order[o] = order[j];
            order[j] = t;
        }
        memcpy(cells, solution, (size_t)N);
        /* a logic test decides every removal, not the searches; the grid's own sets are
         * classic ones (a swap that rules may forbid): under rules of side 9, the swaps the
         * rules allow (see rules_unavoidable) */
        if (!logic && !g->rules)
            grid_unavoidable(&D, solution);
        else if (!logic && g->r9)
            rules_unavoidable(&D, solution);
        clues = dig(&D, cells, solution, orbit_cells, orbit_start, order, norbits, target, exact,
                    &exhausted);
        if (D.oom)
            status = -1;
    }
    Py_END_ALLOW_THREADS;
    if (sudokit_interrupt_end())
        goto done;
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (status > 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    result = Py_BuildValue("(y#y#iNN)", cells, (Py_ssize_t)N, solution, (Py_ssize_t)N, clues,
                           PyBool_FromLong(exhausted), PyBool_FromLong(D.gave_up));
done:
    if (have_work)
        work_free(&w);
    geo_free(owned);
    PyMem_Free(orbit_cells);
    PyMem_Free(orbit_start);
    PyMem_Free(order);
    PyMem_Free(cells);
    PyMem_Free(solution);
    PyMem_Free(ua);
    PyBuffer_Release(&ob);
    return result;
}

/* removable(box_rows, box_cols, puzzle, solution, budget, first=False) -> (cells, gave_up)
 * The clues of a unique puzzle that could each be taken out alone with the puzzle staying
 * unique (with `first`, only the first one found); empty means the puzzle is minimal (unless
 * gave_up). */
static PyObject *py_removable(PyObject *self, PyObject *args)
{
    int br, bc;
    Py_buffer pb, sb;
    unsigned long long budget;
    int first = 0;
    PyObject *geometry = NULL;
    Geo *owned = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiy*y*K|pO:removable", &br, &bc, &pb, &sb, &budget, &first, &geometry))
        return NULL;
    PyObject *result = NULL, *list = NULL;
    uint8_t *cells = NULL;
    int *found = NULL, nfound = 0;
    Work w;
    int have_work = 0;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    int N = n * n;
    if (pb.len != N || sb.len != N) {
        PyErr_Format(PyExc_ValueError, "expected %d cells in puzzle and solution", N);
        goto done;
    }
    const Geo *g = call_geo(br, bc, geometry, &owned);
    if (!g)
        goto done;
    if (check_cells(pb.buf, pb.len, n) < 0 ||
        (owned ? check_solution_geo(sb.buf, g, "solution") : check_solution(sb.buf, br, bc, "solution")) < 0)
        goto done;
    for (int c = 0; c < N; c++) {
        uint8_t v = ((const uint8_t *)pb.buf)[c];
        if (v && v != ((const uint8_t *)sb.buf)[c]) {
            PyErr_Format(PyExc_ValueError, "puzzle: clue %d at cell %d is not the solution's %d", v, c,
                         ((const uint8_t *)sb.buf)[c]);
            goto done;
        }
    }
    cells = PyMem_Malloc((size_t)N);
    found = PyMem_Malloc(sizeof(int) * (size_t)N);
    if (!g || !cells || !found || !work_init(&w, g)) {
        if (g && cells && found)
            work_free(&w);
        PyErr_NoMemory();
        goto done;
    }
    have_work = 1;
    memcpy(cells, pb.buf, (size_t)N);
    const uint8_t *sol = sb.buf;
    Digger D = {0};
    D.g = g;
    D.w = (n == 9 && br == 3 && !g->rules) ? NULL : &w;
    D.budget = budget;
    D.solution = sol;
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS;
    for (int c = 0; c < N && !D.oom && !(first && nfound) && !sudokit_stopped; c++) {
        if (!cells[c])
            continue;
        cells[c] = 0;
        int r = still_unique(&D, cells, sol, &c, 1);
        if (r == 1)
            found[nfound++] = c;
        else if (r < 0)
            D.gave_up = 1;
        cells[c] = sol[c];
    }
    Py_END_ALLOW_THREADS;
    if (sudokit_interrupt_end())
        goto done;
    if (D.oom) {
        PyErr_NoMemory();
        goto done;
    }
    list = PyList_New(nfound);
    if (!list)
        goto done;
    for (int i = 0; i < nfound; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(found[i]));
    result = Py_BuildValue("(ON)", list, PyBool_FromLong(D.gave_up));
done:
    if (have_work)
        work_free(&w);
    geo_free(owned);
    Py_XDECREF(list);
    PyMem_Free(cells);
    PyMem_Free(found);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&sb);
    return result;
}

/* The bulk reader of 9x9 puzzle lines behind `sudokit solve FILE`.
 *
 * A "plain" line is 81 cells of 1-9 or '.', maybe blanks and a '#' comment that states no
 * shape, then "\r\n" or "\n" (or the end of the text).  Blank lines, and comment lines that
 * state no shape and are not "# solution", are passed over.  Anything else stops the scan at
 * that line: the caller reads it the general way (with its messages) and goes on after it. */

/* Does the text [p, end) hold "shape=" or "rules=" (a record's rules: no classic line)? */
static int has_shape_word(const uint8_t *p, const uint8_t *end)
{
    for (; end - p >= 6; p++)
        if ((p[0] == 's' && memcmp(p, "shape=", 6) == 0) || (p[0] == 'r' && memcmp(p, "rules=", 6) == 0))
            return 1;
    return 0;
}

/* The end of the comment [p, end) without its CR line end; NULL when it holds a lone CR (a
 * line end to a text reader, which would read two lines). */
static const uint8_t *comment_end(const uint8_t *p, const uint8_t *end)
{
    if (end > p && end[-1] == '\r')
        end--;
    return memchr(p, '\r', (size_t)(end - p)) ? NULL : end;
}

/* A passed-over line: blank, or a comment stating no shape that is not "# solution". */
static int neutral_line(const uint8_t *p, const uint8_t *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p < end && *p == '\r' && p + 1 == end)
        return 1;
    if (p == end)
        return 1;
    if (*p != '#')
        return 0;
    const uint8_t *e = comment_end(p, end);
    if (!e)
        return 0;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (e - p == 10 && memcmp(p, "# solution", 10) == 0)
        return 0;
    return !has_shape_word(p, e);
}

/* Read the cells of a plain line [p, end) into cells; 0 when the line is not plain. */
static int plain_line(const uint8_t *p, const uint8_t *end, uint8_t *cells)
{
    if (end - p < 81)
        return 0;
    for (int i = 0; i < 81; i++) {
        uint8_t ch = p[i];
        if (ch == '.')
            cells[i] = 0;
        else if (ch >= '1' && ch <= '9')
            cells[i] = (uint8_t)(ch - '0');
        else
            return 0;
    }
    const uint8_t *q = p + 81;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q < end && *q == '#') {
        const uint8_t *e = comment_end(q, end);
        return e && !has_shape_word(q, e);
    }
    return q == end || (*q == '\r' && q + 1 == end);
}

/* Do two clues of a 9x9 puzzle repeat a digit in a row, column or box? */
static int clues_conflict9(const uint8_t *cells)
{
    uint16_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    for (int c = 0; c < 81; c++) {
        if (!cells[c])
            continue;
        int r = c / 9, k = c % 9, b = (r / 3) * 3 + k / 3;
        uint16_t bit = (uint16_t)(1u << cells[c]);
        if ((rows[r] | cols[k] | boxes[b]) & bit)
            return 1;
        rows[r] |= bit;
        cols[k] |= bit;
        boxes[b] |= bit;
    }
    return 0;
}

/* solve_lines(text, limit, counts) -> (out, used, lines)
 * Scan whole lines of `text` from its start while each is plain (or passed over) and its
 * puzzle has a solution (with `counts`, while its clues do not conflict), solving each
 * (counting up to `limit`).  out: each solution as an 81-digit line, or with `counts` each
 * count as a decimal line; used: the bytes scanned, up to the start of the line that stopped
 * the scan (len(text) when none did); lines: the lines scanned. */
static PyObject *py_solve_lines(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    long long limit;
    int counts;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*Lp:solve_lines", &buf, &limit, &counts))
        return NULL;
    PyObject *out = NULL, *result = NULL;
    if (limit < 1) {
        PyErr_Format(PyExc_ValueError, "limit must be at least 1, got %lld", limit);
        goto done;
    }
    /* Each puzzle line is at least 81 bytes and gives at most 82 (a solution and its line end;
     * a count is at most 20 digits and one). */
    out = PyBytes_FromStringAndSize(NULL, buf.len + 82);
    if (!out)
        goto done;
    const uint8_t *text = buf.buf, *end = text + buf.len, *p = text;
    uint8_t *o = (uint8_t *)PyBytes_AS_STRING(out);
    Py_ssize_t lines = 0;
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS;
    while (p < end && !sudokit_stopped) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *stop = nl ? nl : end, *next = nl ? nl + 1 : end;
        uint8_t cells[81], sol[81];
        if (neutral_line(p, stop)) {
            p = next;
            lines++;
            continue;
        }
        if (!plain_line(p, stop, cells))
            break;
        if (clues_conflict9(cells))
            break; /* the caller says where */
        Ctx ctx = {0};
        ctx.strong = 1;
        ctx.limit = (uint64_t)limit;
        ctx.solution = counts ? NULL : sol;
        run9(cells, &ctx, -1, 0);
        if (counts) {
            char digits[24];
            int k = 0;
            uint64_t c = ctx.count;
            do {
                digits[k++] = (char)('0' + c % 10);
                c /= 10;
            } while (c);
            while (k)
                *o++ = (uint8_t)digits[--k];
        } else {
            if (!ctx.count)
                break; /* no solution: the caller says so */
            for (int i = 0; i < 81; i++)
                o[i] = (uint8_t)('0' + sol[i]);
            o += 81;
        }
        *o++ = '\n';
        p = next;
        lines++;
    }
    Py_END_ALLOW_THREADS;
    if (sudokit_interrupt_end())
        goto done;
    Py_ssize_t written = (Py_ssize_t)(o - (uint8_t *)PyBytes_AS_STRING(out));
    if (_PyBytes_Resize(&out, written) < 0)
        goto done;
    result = Py_BuildValue("(Onn)", out, (Py_ssize_t)(p - text), lines);
done:
    Py_XDECREF(out);
    PyBuffer_Release(&buf);
    return result;
}

/* The slot `name` of instances of cls (a member descriptor, as __slots__ makes), new reference;
 * NULL with TypeError set when cls has none (an AttributeError looking it up becomes one: the
 * argument is of the wrong type). */
static PyObject *slot_of(PyTypeObject *cls, const char *name)
{
    PyObject *d = PyObject_GetAttrString((PyObject *)cls, name);
    if (!d) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s has no slot %s", cls->tp_name, name);
        }
        return NULL;
    }
    if (!Py_TYPE(d)->tp_descr_get || !Py_TYPE(d)->tp_descr_set || !PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", cls->tp_name, name);
        Py_CLEAR(d);
    }
    return d;
}

/* Whether object.__new__(cls) may make instances of cls: its nearest base that is not a
 * heap type is made by object's tp_new (the test object.__new__ makes, so that tp_alloc alone
 * never leaves a dict, a list or another built-in's state unset). */
static int plain_object_type(PyTypeObject *cls)
{
    PyTypeObject *base = cls;
    while (base && (base->tp_flags & Py_TPFLAGS_HEAPTYPE))
        base = base->tp_base;
    return base && base->tp_new == PyBaseObject_Type.tp_new;
}

/* grids(cls, shape, cells, size) -> list: len(cells) // size new instances of cls, made as
 * object.__new__(cls) makes them, with the slots _shape = shape and _cells = the next `size`
 * bytes of cells.  Grid.unchecked_many's loop, here so that a batch of solutions becomes grids
 * without a Python call per grid (that call costs several times the C loop's work). */
static PyObject *py_grids(PyObject *self, PyObject *args)
{
    PyTypeObject *cls;
    PyObject *shape;
    Py_buffer buf;
    Py_ssize_t size;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!Oy*n:grids", &PyType_Type, &cls, &shape, &buf, &size))
        return NULL;
    PyObject *out = NULL, *cells_slot = NULL, *shape_slot = NULL;
    if (size < 1) {
        PyErr_Format(PyExc_ValueError, "size must be at least 1, got %zd", size);
        goto done;
    }
    if (buf.len % size != 0) {
        PyErr_Format(PyExc_ValueError, "expected a multiple of %zd bytes, got %zd", size, buf.len);
        goto done;
    }
    if (!cls->tp_alloc || !plain_object_type(cls) || (cls->tp_flags & Py_TPFLAGS_IS_ABSTRACT)) {
        PyErr_Format(PyExc_TypeError, "cannot make %s instances without calling it", cls->tp_name);
        goto done;
    }
    if (!(cells_slot = slot_of(cls, "_cells")) || !(shape_slot = slot_of(cls, "_shape")))
        goto done;
    descrsetfunc set_cells = Py_TYPE(cells_slot)->tp_descr_set, set_shape = Py_TYPE(shape_slot)->tp_descr_set;
    /* Instances that hold nothing but the two slots (no __dict__, no other slot) hold a bytes
     * object and a shape, which hold no grid: they can be in no reference cycle, so the cycle
     * collector need not track them, as CPython leaves tuples of atoms untracked (sudoku17:
     * a third less time, the collections that the new grids set off scanning them). */
    int untrack = cls->tp_dictoffset == 0 && cls->tp_basicsize == (Py_ssize_t)(sizeof(PyObject) + 2 * sizeof(PyObject *));
    Py_ssize_t count = buf.len / size;
    out = PyList_New(count);
    for (Py_ssize_t i = 0; out && i < count; i++) {
        PyObject *grid = cls->tp_alloc(cls, 0);
        if (grid && untrack && PyObject_GC_IsTracked(grid))
            PyObject_GC_UnTrack(grid);
        PyObject *cells = grid ? PyBytes_FromStringAndSize((const char *)buf.buf + i * size, size) : NULL;
        if (grid)
            PyList_SET_ITEM(out, i, grid);
        if (!cells || set_cells(cells_slot, grid, cells) < 0 || set_shape(shape_slot, grid, shape) < 0)
            Py_CLEAR(out);
        Py_XDECREF(cells);
    }
done:
    Py_XDECREF(cells_slot);
    Py_XDECREF(shape_slot);
    PyBuffer_Release(&buf);
    return out;
}

/* batch_cells(grids, cls) -> (shape, cells) or None: when `grids` is a non-empty list or
 * tuple of instances of exactly cls, all with one _shape object and each with _cells a bytes
 * of one length, that shape and their _cells back to back; otherwise None, and the caller
 * takes its own path (which names what is wrong).  The common case of engine.search_batch's
 * checks and join in one C loop, so that a batch pays no Python work a grid. */
static PyObject *py_batch_cells(PyObject *self, PyObject *args)
{
    PyObject *grids;
    PyTypeObject *cls;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!:batch_cells", &grids, &PyType_Type, &cls))
        return NULL;
    if (!(PyList_CheckExact(grids) || PyTuple_CheckExact(grids)) || PySequence_Fast_GET_SIZE(grids) == 0)
        Py_RETURN_NONE;
    PyObject *cells_slot = slot_of(cls, "_cells"), *shape_slot = cells_slot ? slot_of(cls, "_shape") : NULL;
    if (!shape_slot) {
        Py_XDECREF(cells_slot);
        return NULL;
    }
    descrgetfunc get_cells = Py_TYPE(cells_slot)->tp_descr_get, get_shape = Py_TYPE(shape_slot)->tp_descr_get;
    /* No Python code runs in the loop (a slot's getter is C), so the sequence stays as it is. */
    Py_ssize_t count = PySequence_Fast_GET_SIZE(grids), size = -1;
    PyObject **items = PySequence_Fast_ITEMS(grids);
    PyObject *shape = NULL, *out = NULL, *result = NULL;
    int ok = 1;
    for (Py_ssize_t i = 0; ok && i < count; i++) {
        PyObject *g = items[i];
        if (Py_TYPE(g) != cls) {
            ok = 0;
            break;
        }
        PyObject *sh = get_shape(shape_slot, g, (PyObject *)cls);
        PyObject *cells = sh ? get_cells(cells_slot, g, (PyObject *)cls) : NULL;
        if (!cells || !PyBytes_CheckExact(cells)) {
            ok = 0;
        } else if (i == 0) {
            shape = Py_NewRef(sh);
            size = PyBytes_GET_SIZE(cells);
            out = PyBytes_FromStringAndSize(NULL, size * count);
            if (!out) {
                Py_XDECREF(sh);
                Py_DECREF(cells);
                goto fail;
            }
        } else if (sh != shape || PyBytes_GET_SIZE(cells) != size) {
            ok = 0;
        }
        if (ok)
            memcpy(PyBytes_AS_STRING(out) + i * size, PyBytes_AS_STRING(cells), (size_t)size);
        Py_XDECREF(sh);
        Py_XDECREF(cells);
    }
    if (ok)
        result = PyTuple_Pack(2, shape, out);
    else {
        PyErr_Clear(); /* an unset slot: the caller's path raises what it raises */
        result = Py_NewRef(Py_None);
    }
fail:
    Py_XDECREF(shape);
    Py_XDECREF(out);
    Py_DECREF(cells_slot);
    Py_DECREF(shape_slot);
    return result;
}

/* paths() -> the names of this build's 9x9 search paths that this machine can run. */
static PyObject *py_paths(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < NPATHS9; i++)
        if (path9_supported(i)) {
            PyObject *name = PyUnicode_FromString(PATHS9[i].name);
            if (!name || PyList_Append(out, name) < 0) {
                Py_XDECREF(name);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(name);
        }
    return out;
}

/* path() -> the name of the 9x9 search path in use. */
static PyObject *py_path(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(PATHS9[path9].name);
}

/* use_path(name) -> None: search 9x9 puzzles with the named path from now on. */
static PyObject *py_use_path(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name)
        return NULL;
    if (set_path9(name) < 0)
        return NULL;
    Py_RETURN_NONE;
}

#include "_cengine/layouts.c"
#include "_ckiller/cagemap.c"
#include "_ckiller/generate.c"

static PyMethodDef methods[] = {
    SUDOKIT_FAULT_METHODS
    {"paths", py_paths, METH_NOARGS,
     "paths() -> list of str\n\nThe 9x9 search paths of this build that this machine can run; the first is portable."},
    {"solve_lines", py_solve_lines, METH_VARARGS,
     "solve_lines(text, limit, counts) -> (out, used, lines)\n\n"
     "Solve the 9x9 puzzle lines at the start of `text` (whole lines) in bulk, up to the first\n"
     "line that is not a plain puzzle line (81 cells of 1-9 and '.', maybe a comment stating no\n"
     "shape), a blank line or a comment line, or whose puzzle has conflicting clues or (without\n"
     "counts) no solution.  out: the solutions (or with counts, the counts up to limit) as\n"
     "lines; used: the bytes read; lines: the lines read."},
    {"path", py_path, METH_NOARGS, "path() -> str\n\nThe 9x9 search path in use."},
    {"use_path", py_use_path, METH_O,
     "use_path(name) -> None\n\nSearch 9x9 puzzles with the named path ('auto': the fastest this machine runs).\n"
     "Every path gives the same answers; the choice is for speed and for the tests.  At import the\n"
     "module takes SUDOKIT_ENGINE from the environment (default auto)."},
    {"solve", (PyCFunction)(void (*)(void))solve_one, METH_VARARGS | METH_KEYWORDS,
     "solve(box_rows, box_cols, cells, limit=1, generic=False, geometry=None) -> (solution | None, count)\n\n"
     "Search a puzzle given as n*n digit bytes (0 = empty).  count is the number of solutions,\n"
     "stopping at limit; solution is the first one found.  geometry: None for classic rules, or\n"
     "the rules' geometry as sudokit.rules.Geometry.blob writes it (then the general path)."},
    {"solve_batch", (PyCFunction)(void (*)(void))solve_batch, METH_VARARGS | METH_KEYWORDS,
     "solve_batch(box_rows, box_cols, cells, limit=1, generic=False, geometry=None) -> (solutions, counts)\n\n"
     "Search many puzzles given back to back.  solutions holds each first solution (zeros where\n"
     "there is none); counts the number of solutions of each, stopping at limit."},
    {"batch_cells", py_batch_cells, METH_VARARGS,
     "batch_cells(grids, cls) -> (shape, cells) | None\n\n"
     "For a non-empty list or tuple of instances of exactly cls sharing one _shape object, with\n"
     "_cells bytes of one length: that shape and their _cells back to back.  Otherwise None."},
    {"grids", py_grids, METH_VARARGS,
     "grids(cls, shape, cells, size) -> list\n\n"
     "len(cells) // size new instances of cls (a class with the slots _cells and _shape), made as\n"
     "object.__new__(cls) makes them, each with _shape = shape and _cells = its `size` bytes of\n"
     "cells, in order: Grid.unchecked_many without a Python call per grid."},
    {"random_grid", py_random_grid, METH_VARARGS,
     "random_grid(box_rows, box_cols, seed, geometry=None) -> bytes | None\n\nA random complete grid, a function of the shape, the rules' geometry (as in solve) and\n"
     "the 64-bit seed; None when the rules have no complete grid."},
    {"random_regions", py_random_regions, METH_VARARGS,
     "random_regions(box_rows, box_cols, maps, seed) -> bytes\n\nA random jigsaw layout (each cell's region) grown from the boxes by region swaps that keep\n"
     "the regions connected and the maps' images (maps: cell images as uint16, end to end); see\n"
     "sudokit.rules.random_regions."},
    {"generate", py_generate, METH_VARARGS,
     "generate(box_rows, box_cols, seed, orbits, target, exact, budget, logic=0, geometry=None, grid_cap=0)\n"
     "    -> (puzzle, solution, clues, exhausted, gave_up)\n\n"
     "A random complete grid from the seed, dug by removing symmetry orbits in a random order\n"
     "while the puzzle stays unique, down to `target` clues (0: until no orbit can go)."},
    {"cage_map", py_cage_map, METH_O,
     "cage_map(text) -> (n, cages, bad) | (0, problem, a, b)\n\nThe cages of a killer cage map (see _ckiller/cagemap.c)."},
    {"killer_geometry", py_killer_geometry, METH_VARARGS,
     "killer_geometry(box_rows, box_cols, geometry) -> (peers, cages, real)\n\n"
     "What the engine derives from a rules blob with cages: peers, and the cages with the rule of 45's sums."},
    {"killer_generate", py_killer_generate, METH_VARARGS,
     "killer_generate(box_rows, box_cols, seed, geometry, lo, hi, maps, clues, minimal, budget, tries)\n"
     "    -> (cages, givens, solution, minimal) | None | tries\n\n"
     "A unique killer puzzle (see _ckiller/generate.c); None: the rules have no complete grid; an int:\n"
     "that many layouts failed."},
    {"removable", py_removable, METH_VARARGS,
     "removable(box_rows, box_cols, puzzle, solution, budget, first=False) -> (cells, gave_up)\n\n"
     "The clues of a unique puzzle that could each be removed alone keeping it unique."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine", "The exact engine of sudokit (private; use sudokit's API).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    init_tables9();
    const char *wanted = getenv("SUDOKIT_ENGINE");
    if (set_path9(wanted && *wanted ? wanted : "auto") < 0) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_ImportError, "SUDOKIT_ENGINE: %S", value);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddIntConstant(m, "MAX_SIDE", MAX_SIDE) < 0 ||
        PyModule_AddIntConstant(m, "LOGIC_NONE", LOGIC_NONE) < 0 ||
        PyModule_AddIntConstant(m, "LOGIC_BOX", LOGIC_BOX) < 0 ||
        PyModule_AddIntConstant(m, "LOGIC_HIDDEN", LOGIC_HIDDEN) < 0 ||
        PyModule_AddIntConstant(m, "LOGIC_SINGLES", LOGIC_SINGLES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
