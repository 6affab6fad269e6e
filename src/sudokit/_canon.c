/*
 * sudokit._canon -- the canonical ("minlex") form of a puzzle or grid under the Sudoku group.
 *
 * Terms (as in the rest of sudokit; R = box rows, C = box columns, n = R*C):
 *   band    C bands of R consecutive rows; stack: R stacks of C consecutive columns.
 *   slot    the place of a stack in the result (slot s holds positions s*C .. s*C+C-1).
 *   group   the Sudoku group: permute bands, rows inside bands, stacks, columns inside stacks,
 *           transpose (only when R == C: for a rectangular box the transpose has another shape),
 *           relabel digits.
 *   text    a grid read row-major as numbers (empty = 0); the canonical form is the image with
 *           the smallest text, the automorphisms the group elements that fix the input.
 *
 * The search builds the result row by row and keeps every partial map (a "candidate") whose
 * rows so far equal the best rows so far.  A candidate holds the source row placed at each
 * result row, the digits labelled so far, and what freedom is left for columns: an ordered
 * partition -- stacks in ordered groups of still interchangeable stacks, and inside each stack
 * its columns in ordered groups of still interchangeable columns.  For a given source row the
 * best column order is computed, not searched: sort the columns of each group by key (0 empty <
 * labelled digit by label < new digit, all new digits equal), then the stacks of each stack
 * group by their key blocks.  Relabelling is never searched either: new digits get the next
 * labels in reading order.  Equal keys stay tied; tied columns (or tied stacks) that hold new
 * digits are branched, since their order decides which label each digit gets.
 *
 * Equivalent choices are not branched but counted: empty rows of one band are interchangeable,
 * and so are empty bands.  At the end the survivors are exactly the group elements reaching the
 * minimum, up to the ties that are left (identical columns or stacks) and the unused digits:
 * the automorphism count is the sum over survivors of their multiplicities.
 *
 * A complete grid (every row and column a permutation) would branch over every column order
 * at row 0 (1296 for 9x9, 8 million for 16x16), so it takes a path of its own for rows 0-1:
 * row 0 is always 1..n, and for a source row pair (a, b) the column order that makes row 1
 * smallest is found by a depth-first search over positions that places, for each column put at
 * position p, the column whose row-0 digit it shows as early as possible.  The generic search
 * then continues from row 2 with every column fixed.  For boxes two rows tall that search ties
 * at every position (C! orders), and the answer has a closed form instead: the cycles of a
 * permutation, laid out by length (see two_rows).  `generic=True` turns the complete-grid path
 * off, `cycles=False` the closed form, so the tests can compare all three.
 *
 * Puzzles above 12x12 take another search (section "Deferred labels"): tied columns holding
 * new digits stay tied, their labels bound to positions, until a later row tells them apart.
 * `deferred=1` forces it on any input, `deferred=0` off, for the tests.
 *
 * Memory: two growable candidate arrays per call (or per batch); nothing else on the heap.
 * Failed allocations end in MemoryError (see _faults.h).  The search runs without the GIL.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_faults.h"
#include "_limits.h"

#define MAX_SIDE SUDOKIT_MAX_SIDE
#define NEW_KEY 255 /* key of a digit not labelled yet: above every label */

/* The search is exponential in the worst case: tied columns holding new digits branch, and
 * dense rows of big grids hold many (a 25x25 puzzle with 80% of its cells filled; a complete
 * grid of boxes two rows tall and ten or more wide, where the position search of rows 0-1 ties
 * at every position).  Rather than run for hours (or fill memory) with the GIL released and
 * nothing to stop it, it gives up with ValueError past these limits: candidates made (about
 * half a microsecond each with their row evaluations: a few seconds), positions tried by the
 * complete-grid search (a few nanoseconds each), and candidates alive at once (~200 bytes). */
#define STEP_LIMIT (UINT64_C(1) << 23)
#define PAIR_STEP_LIMIT (UINT64_C(1) << 27)
#define LIVE_LIMIT ((size_t)1 << 19)
#define TIES_MAX 512
#define OUT_OF_MEMORY (-1)
#define OUT_OF_STEPS (-2)
/* Grids above this side take the deferred-label search (see d_search_run). */
#define DEFERRED_FROM 12

typedef struct {
    uint8_t col[MAX_SIDE];       /* source column at each position */
    uint8_t row[MAX_SIDE];       /* source row at each result row fixed so far */
    uint8_t label[MAX_SIDE + 1]; /* new label of each source digit, 0 = none yet */
    uint8_t mult[MAX_SIDE + 1];  /* mult[k]: times this candidate stands for k equivalent ones */
    uint64_t col_cut;            /* bit p: a column group starts at position p */
    uint64_t stack_cut;          /* bit s: a stack group starts at slot s */
    uint64_t used_rows;          /* source rows placed */
    uint8_t transpose, next_label, band;
} Cand;

typedef struct {
    Cand *a;
    size_t len, cap;
} CandList;

typedef struct {
    int R, C, n, nbands, nstacks, orients;
    uint8_t g[2][MAX_SIDE * MAX_SIDE]; /* the input, and its transpose */
    uint64_t zero_rows[2];             /* bit r: row r of that orientation is empty */
    CandList cur, nxt;
    uint8_t best[MAX_SIDE]; /* the best text of the row being placed */
    uint64_t steps;         /* work done so far, against STEP_LIMIT */
    int cycles;             /* use the cycle layout for boxes two rows tall (see two_rows) */
    /* The (candidate, source row) pairs that reach the best row in the first pass of a row,
     * so the second pass looks at those alone (all again when more than TIES_MAX tie). */
    struct {
        uint32_t cand;
        uint8_t row, mul_a, mul_b;
        uint8_t arr[MAX_SIDE], key[MAX_SIDE];
    } ties[TIES_MAX];
    size_t nties;
    /* The deferred-label search (big shapes, see the section "Deferred labels"). */
    struct DList *dcur, *dnxt;
    uint8_t where[2][MAX_SIDE][MAX_SIDE + 1]; /* where[t][r][d]: the column of digit d in row r */
    struct DPair *pairs;                      /* pairs reaching the best row in the first pass */
    size_t npairs, pcap;
} Search;

/* Return a pointer to a new slot at the end of list, or NULL when memory ran out or the list
 * holds LIVE_LIMIT candidates (the caller tells which).  Lists only grow, so a batch allocates
 * a few times in all, not per input. */
static Cand *push(CandList *l)
{
    if (l->len == l->cap) {
        if (l->cap >= LIVE_LIMIT)
            return NULL;
        size_t cap = l->cap ? 2 * l->cap : 64;
        Cand *a = realloc(l->a, cap * sizeof(Cand));
        if (!a)
            return NULL;
        l->a = a;
        l->cap = cap;
    }
    return &l->a[l->len++];
}

/* A search with empty candidate lists (not zeroed whole: it is big, and load fills it). */
static Search *search_new(void)
{
    Search *S = malloc(sizeof *S);
    if (S) {
        memset(&S->cur, 0, sizeof S->cur);
        memset(&S->nxt, 0, sizeof S->nxt);
        S->dcur = S->dnxt = NULL;
        S->pairs = NULL;
        S->npairs = S->pcap = 0;
    }
    return S;
}

static void dsearch_free(Search *S);

static void list_free(CandList *l)
{
    free(l->a);
    l->a = NULL;
    l->len = l->cap = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Setting up one input.                                                                      */

static void search_load(Search *S, int R, int C, const uint8_t *cells)
{
    int n = R * C;
    S->R = R;
    S->C = C;
    S->n = n;
    S->nbands = C;
    S->nstacks = R;
    S->orients = R == C ? 2 : 1;
    memcpy(S->g[0], cells, (size_t)n * n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            S->g[1][c * n + r] = cells[r * n + c];
    for (int t = 0; t < S->orients; t++) {
        uint64_t z = 0;
        for (int r = 0; r < n; r++) {
            int empty = 1;
            for (int c = 0; c < n && empty; c++)
                empty = S->g[t][r * n + c] == 0;
            if (empty)
                z |= UINT64_C(1) << r;
        }
        S->zero_rows[t] = z;
    }
}

/* memcmp for the short byte strings of this file (a library call costs more than the loop). */
static inline int bytes_cmp(const uint8_t *a, const uint8_t *b, int len)
{
    for (int i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static uint64_t all_bits(int k) { return k >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << k) - 1; }

/* The candidates before row 0: each orientation, nothing fixed, every column free. */
static int start(Search *S)
{
    S->cur.len = 0;
    for (int t = 0; t < S->orients; t++) {
        Cand *c = push(&S->cur);
        if (!c)
            return -1;
        memset(c, 0, sizeof *c);
        for (int p = 0; p < S->n; p++)
            c->col[p] = (uint8_t)p;
        c->col_cut = 0;
        for (int s = 0; s < S->nstacks; s++)
            c->col_cut |= UINT64_C(1) << (s * S->C);
        c->stack_cut = 1;
        c->transpose = (uint8_t)t;
        c->next_label = 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* One row: the best arrangement of a candidate's columns for one source row.                  */

/* Fill arr (source column at each position), key (per position) and text (the row as it would
 * read) for source row `src` under candidate c. */
static void arrange(const Search *S, const Cand *c, const uint8_t *src, uint8_t *arr, uint8_t *key,
                    uint8_t *text)
{
    int n = S->n, C = S->C, ns = S->nstacks;
    for (int p = 0; p < n; p++) {
        int col = c->col[p], d = src[col];
        arr[p] = (uint8_t)col;
        key[p] = d == 0 ? 0 : c->label[d] ? c->label[d] : NEW_KEY;
    }
    uint64_t cuts = c->col_cut;
    if (cuts != all_bits(n)) {
        for (int a = 0; a < n;) {
            int b = a + 1;
            while (b < n && !((cuts >> b) & 1))
                b++;
            for (int i = a + 1; i < b; i++) { /* insertion sort: groups are short */
                uint8_t k = key[i], v = arr[i];
                int j = i - 1;
                while (j >= a && key[j] > k) {
                    key[j + 1] = key[j];
                    arr[j + 1] = arr[j];
                    j--;
                }
                key[j + 1] = k;
                arr[j + 1] = v;
            }
            a = b;
        }
    }
    uint64_t sc = c->stack_cut;
    if (sc != all_bits(ns)) {
        uint8_t tk[MAX_SIDE], ta[MAX_SIDE];
        for (int a = 0; a < ns;) {
            int b = a + 1;
            while (b < ns && !((sc >> b) & 1))
                b++;
            for (int i = a + 1; i < b; i++) {
                memcpy(tk, key + i * C, (size_t)C);
                memcpy(ta, arr + i * C, (size_t)C);
                int j = i - 1;
                while (j >= a && bytes_cmp(key + j * C, tk, C) > 0) {
                    memcpy(key + (j + 1) * C, key + j * C, (size_t)C);
                    memcpy(arr + (j + 1) * C, arr + j * C, (size_t)C);
                    j--;
                }
                memcpy(key + (j + 1) * C, tk, (size_t)C);
                memcpy(arr + (j + 1) * C, ta, (size_t)C);
            }
            a = b;
        }
    }
    int next = c->next_label;
    for (int p = 0; p < n; p++)
        text[p] = key[p] == NEW_KEY ? (uint8_t)next++ : key[p];
}

/* Add to S->nxt the child of c that places source row r (of c's orientation) arranged as arr,
 * labelling its new digits in reading order and splitting the groups it tells apart.
 * mul_a, mul_b: factors of the multiplicity (1: none).  Return 0, or -1 when memory ran out. */
static int add_child(Search *S, const Cand *c, int k, int r, const uint8_t *arr, int mul_a, int mul_b)
{
    if (++S->steps > STEP_LIMIT)
        return OUT_OF_STEPS;
    Cand *ch = push(&S->nxt);
    if (!ch)
        return S->nxt.len >= LIVE_LIMIT ? OUT_OF_STEPS : OUT_OF_MEMORY;
    int n = S->n, C = S->C, ns = S->nstacks;
    const uint8_t *src = S->g[c->transpose] + r * n;
    *ch = *c;
    memcpy(ch->col, arr, (size_t)n);
    ch->row[k] = (uint8_t)r;
    ch->used_rows |= UINT64_C(1) << r;
    ch->band = (uint8_t)(r / S->R);
    if (mul_a > 1)
        ch->mult[mul_a]++;
    if (mul_b > 1)
        ch->mult[mul_b]++;
    uint8_t val[MAX_SIDE];
    for (int p = 0; p < n; p++) {
        int d = src[arr[p]];
        if (d && !ch->label[d])
            ch->label[d] = ch->next_label++;
        val[p] = d ? ch->label[d] : 0;
    }
    uint64_t cuts = ch->col_cut;
    for (int p = 1; p < n; p++)
        if (val[p] != val[p - 1])
            cuts |= UINT64_C(1) << p;
    ch->col_cut = cuts;
    uint64_t sc = ch->stack_cut;
    for (int s = 1; s < ns; s++)
        if (bytes_cmp(val + s * C, val + (s - 1) * C, C) != 0)
            sc |= UINT64_C(1) << s;
    ch->stack_cut = sc;
    return 0;
}

/* Next permutation of p[0..m-1] in lexicographic order; at the last one, back to the first and
 * return 0. */
static int next_perm(uint8_t *p, int m)
{
    int i = m - 2;
    while (i >= 0 && p[i] >= p[i + 1])
        i--;
    if (i < 0) {
        for (int a = 0, b = m - 1; a < b; a++, b--) {
            uint8_t t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
        return 0;
    }
    int j = m - 1;
    while (p[j] <= p[i])
        j--;
    uint8_t t = p[i];
    p[i] = p[j];
    p[j] = t;
    for (int a = i + 1, b = m - 1; a < b; a++, b--) {
        t = p[a];
        p[a] = p[b];
        p[b] = t;
    }
    return 1;
}

/* Add every child of c for source row r arranged as arr/key: one per order of the tied columns
 * and tied stacks that hold new digits.  Return 0, or -1 when memory ran out. */
static int add_children(Search *S, const Cand *c, int k, int r, const uint8_t *arr, const uint8_t *key,
                        int mul_a, int mul_b)
{
    int n = S->n, C = S->C, ns = S->nstacks;
    /* Sites: runs of tied stacks carrying a new digit, then runs of tied new-digit columns. */
    int nsite = 0, start[2 * MAX_SIDE], len[2 * MAX_SIDE], kind[2 * MAX_SIDE];
    uint8_t perm[2 * MAX_SIDE][MAX_SIDE];
    for (int a = 0; a < ns;) {
        int b = a + 1;
        while (b < ns && !((c->stack_cut >> b) & 1))
            b++;
        for (int u = a; u < b;) {
            int v = u + 1;
            while (v < b && bytes_cmp(key + v * C, key + u * C, C) == 0)
                v++;
            if (v - u > 1 && memchr(key + u * C, NEW_KEY, (size_t)C)) {
                start[nsite] = u;
                len[nsite] = v - u;
                kind[nsite++] = 1;
            }
            u = v;
        }
        a = b;
    }
    for (int a = 0; a < n;) {
        int b = a + 1;
        while (b < n && !((c->col_cut >> b) & 1))
            b++;
        int m = 0;
        while (m < b - a && key[b - 1 - m] == NEW_KEY)
            m++;
        if (m > 1) {
            start[nsite] = b - m;
            len[nsite] = m;
            kind[nsite++] = 0;
        }
        a = b;
    }
    if (nsite == 0)
        return add_child(S, c, k, r, arr, mul_a, mul_b);
    for (int i = 0; i < nsite; i++)
        for (int j = 0; j < len[i]; j++)
            perm[i][j] = (uint8_t)j;
    uint8_t out[MAX_SIDE], tmp[MAX_SIDE];
    for (;;) {
        memcpy(out, arr, (size_t)n);
        for (int i = 0; i < nsite; i++) {
            if (kind[i]) {
                memcpy(tmp, out + start[i] * C, (size_t)(len[i] * C));
                for (int j = 0; j < len[i]; j++)
                    memcpy(out + (start[i] + j) * C, tmp + perm[i][j] * C, (size_t)C);
            } else {
                memcpy(tmp, out + start[i], (size_t)len[i]);
                for (int j = 0; j < len[i]; j++)
                    out[start[i] + j] = tmp[perm[i][j]];
            }
        }
        int status = add_child(S, c, k, r, out, mul_a, mul_b);
        if (status < 0)
            return status;
        int i = nsite - 1;
        while (i >= 0 && !next_perm(perm[i], len[i]))
            i--;
        if (i < 0)
            break;
    }
    return 0;
}

/* Try source row r for candidate c at result row k.  In the first pass (emit = 0) only lower
 * the best text; in the second add the children of the pairs that reach it (so no child is
 * made that a better row found later would drop: rows that tie with a passing best can branch
 * by the thousand).  Return 0, or OUT_OF_MEMORY / OUT_OF_STEPS. */
static int try_row(Search *S, const Cand *c, int k, int r, int mul_a, int mul_b, int emit)
{
    uint8_t arr[MAX_SIDE], key[MAX_SIDE], text[MAX_SIDE];
    arrange(S, c, S->g[c->transpose] + r * S->n, arr, key, text);
    int d = bytes_cmp(text, S->best, S->n);
    if (!emit) {
        if (d < 0) {
            memcpy(S->best, text, (size_t)S->n);
            S->nties = 0;
        }
        if (d <= 0) {
            if (S->nties < TIES_MAX) {
                S->ties[S->nties].cand = (uint32_t)(c - S->cur.a);
                S->ties[S->nties].row = (uint8_t)r;
                S->ties[S->nties].mul_a = (uint8_t)mul_a;
                S->ties[S->nties].mul_b = (uint8_t)mul_b;
                memcpy(S->ties[S->nties].arr, arr, (size_t)S->n);
                memcpy(S->ties[S->nties].key, key, (size_t)S->n);
            }
            S->nties++;
        }
        return 0;
    }
    if (d != 0)
        return 0;
    return add_children(S, c, k, r, arr, key, mul_a, mul_b);
}

/* A source row to try as result row k: the row, how many interchangeable rows it stands for
 * (the empty rows of its band) and the factor its choice brings to the automorphism count (the
 * empty bands it stands for). */
typedef struct {
    int row, count, mult;
} RowChoice;

/* The source rows a candidate (orientation `transpose`, rows `used_rows` placed, in band `band`)
 * may place as result row k, in the order they are tried; both searches take them from here.
 * An empty row is the smallest row there is: when a band offers one, only empty rows compete,
 * and within a band they are interchangeable (counted, the first placed); empty bands are
 * interchangeable too (only the first, counted).  Return how many were written to `out`. */
static int row_choices(const Search *S, int transpose, uint64_t used_rows, int band, int k,
                       RowChoice out[MAX_SIDE])
{
    int R = S->R;
    int first = k % R == 0;
    uint64_t zero = S->zero_rows[transpose] & ~used_rows;
    int lo = first ? 0 : band, hi = first ? S->nbands : band + 1;
    int n = 0;
    int any_zero = 0;
    for (int b = lo; b < hi; b++) {
        uint64_t band_rows = all_bits(R) << (b * R);
        if (first && (used_rows & band_rows))
            continue;
        if (zero & band_rows)
            any_zero = 1;
    }
    if (any_zero) {
        int empty_bands = 0, first_empty = -1;
        if (first)
            for (int b = lo; b < hi; b++) {
                uint64_t band_rows = all_bits(R) << (b * R);
                if (!(used_rows & band_rows) && (zero & band_rows) == band_rows) {
                    empty_bands++;
                    if (first_empty < 0)
                        first_empty = b;
                }
            }
        for (int b = lo; b < hi; b++) {
            uint64_t band_rows = all_bits(R) << (b * R);
            if (first && (used_rows & band_rows))
                continue;
            uint64_t z = zero & band_rows;
            if (!z)
                continue;
            int full = z == band_rows;
            if (full && b != first_empty)
                continue;
            out[n++] = (RowChoice){__builtin_ctzll(z), __builtin_popcountll(z), full ? empty_bands : 1};
        }
        return n;
    }
    for (int b = lo; b < hi; b++) {
        for (int r = b * R; r < b * R + R; r++) {
            if ((used_rows >> r) & 1)
                continue;
            if (first && (used_rows & (all_bits(R) << (b * R))))
                break;
            out[n++] = (RowChoice){r, 1, 1};
        }
    }
    return n;
}

/* One pass of place_row over every candidate and every source row it may place next. */
static int place_row_pass(Search *S, int k, int emit)
{
    RowChoice choice[MAX_SIDE];
    for (size_t i = 0; i < S->cur.len; i++) {
        const Cand *c = &S->cur.a[i];
        int m = row_choices(S, c->transpose, c->used_rows, c->band, k, choice);
        for (int j = 0; j < m; j++) {
            int status = try_row(S, c, k, choice[j].row, choice[j].count, choice[j].mult, emit);
            if (status < 0)
                return status;
        }
    }
    return 0;
}

/* Place result row k for every candidate of S->cur into S->nxt, keeping the best. */
static int place_row(Search *S, int k)
{
    memset(S->best, 0xFF, sizeof S->best);
    S->nxt.len = 0;
    S->nties = 0;
    int status = place_row_pass(S, k, 0);
    if (status == 0 && S->nties > TIES_MAX)
        status = place_row_pass(S, k, 1);
    else
        for (size_t i = 0; status == 0 && i < S->nties; i++)
            status = add_children(S, &S->cur.a[S->ties[i].cand], k, S->ties[i].row, S->ties[i].arr,
                                  S->ties[i].key, S->ties[i].mul_a, S->ties[i].mul_b);
    if (status < 0)
        return status;
    CandList t = S->cur;
    S->cur = S->nxt;
    S->nxt = t;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Complete grids: rows 0 and 1 by a search over positions.                                   */

typedef struct {
    Search *S;
    const uint8_t *g;
    int t, a, b;
    int8_t col_at[MAX_SIDE], pos_of[MAX_SIDE], stack_at[MAX_SIDE], slot_of[MAX_SIDE];
    uint8_t f[MAX_SIDE]; /* f[c]: the column where row a holds row b's digit of column c */
    int failed;
} Pair;

static int record_pair(Pair *P)
{
    Search *S = P->S;
    int n = S->n;
    Cand *c = push(&S->cur);
    if (!c)
        return S->cur.len >= LIVE_LIMIT ? OUT_OF_STEPS : OUT_OF_MEMORY;
    memset(c, 0, sizeof *c);
    for (int p = 0; p < n; p++) {
        c->col[p] = (uint8_t)P->col_at[p];
        c->label[P->g[P->a * n + P->col_at[p]]] = (uint8_t)(p + 1);
    }
    c->row[0] = (uint8_t)P->a;
    c->row[1] = (uint8_t)P->b;
    c->used_rows = (UINT64_C(1) << P->a) | (UINT64_C(1) << P->b);
    c->band = (uint8_t)(P->a / S->R);
    c->transpose = (uint8_t)P->t;
    c->next_label = (uint8_t)(n + 1);
    c->col_cut = all_bits(n);
    c->stack_cut = all_bits(S->nstacks);
    return 0;
}

/* Put column c at position p (giving its stack slot p / C if it has none).  Return a record
 * of what changed for unplace: bit 0 = the stack was given a slot. */
static int place(Pair *P, int c, int p)
{
    int C = P->S->C, st = c / C, s = p / C, fresh = 0;
    P->col_at[p] = (int8_t)c;
    P->pos_of[c] = (int8_t)p;
    if (P->slot_of[st] < 0) {
        P->slot_of[st] = (int8_t)s;
        P->stack_at[s] = (int8_t)st;
        fresh = 1;
    }
    return fresh;
}

static void unplace(Pair *P, int c, int fresh)
{
    int C = P->S->C, st = c / C, p = P->pos_of[c];
    P->col_at[p] = -1;
    P->pos_of[c] = -1;
    if (fresh) {
        P->stack_at[P->slot_of[st]] = -1;
        P->slot_of[st] = -1;
    }
}

static void pair_dfs(Pair *P, int p);

/* Column c goes to position p; then the column it points to goes as early as it can. */
static void pair_try(Pair *P, int p, int c)
{
    Search *S = P->S;
    int n = S->n, C = S->C;
    int fresh = place(P, c, p);
    int c2 = P->f[c], placed2 = 0, fresh2 = 0;
    if (P->pos_of[c2] < 0) {
        int st = c2 / C, slot = P->slot_of[st], q = -1;
        if (slot < 0) {
            for (slot = 0; P->stack_at[slot] >= 0; slot++)
                ;
            q = slot * C;
        } else {
            for (q = slot * C; P->col_at[q] >= 0; q++)
                ;
        }
        fresh2 = place(P, c2, q);
        placed2 = 1;
    }
    int v = P->pos_of[c2] + 1;
    if (v < S->best[p]) {
        S->best[p] = (uint8_t)v;
        memset(S->best + p + 1, 0xFF, (size_t)(n - p - 1));
        S->cur.len = 0;
    }
    if (v == S->best[p])
        pair_dfs(P, p + 1);
    if (placed2)
        unplace(P, c2, fresh2);
    unplace(P, c, fresh);
}

static void pair_dfs(Pair *P, int p)
{
    Search *S = P->S;
    int n = S->n, C = S->C;
    if (P->failed)
        return;
    if (++S->steps > PAIR_STEP_LIMIT) {
        P->failed = OUT_OF_STEPS;
        return;
    }
    if (p == n) {
        int status = record_pair(P);
        if (status < 0)
            P->failed = status;
        return;
    }
    if (P->col_at[p] >= 0) {
        /* placed earlier as the target of another column: only its own target moves now */
        int c = P->col_at[p];
        int c2 = P->f[c], placed2 = 0, fresh2 = 0;
        if (P->pos_of[c2] < 0) {
            int st = c2 / C, slot = P->slot_of[st], q;
            if (slot < 0) {
                for (slot = 0; P->stack_at[slot] >= 0; slot++)
                    ;
                q = slot * C;
            } else {
                for (q = slot * C; P->col_at[q] >= 0; q++)
                    ;
            }
            fresh2 = place(P, c2, q);
            placed2 = 1;
        }
        int v = P->pos_of[c2] + 1;
        if (v < S->best[p]) {
            S->best[p] = (uint8_t)v;
            memset(S->best + p + 1, 0xFF, (size_t)(n - p - 1));
            S->cur.len = 0;
        }
        if (v == S->best[p])
            pair_dfs(P, p + 1);
        if (placed2)
            unplace(P, c2, fresh2);
        return;
    }
    int s = p / C;
    if (P->stack_at[s] >= 0) {
        int st = P->stack_at[s];
        for (int c = st * C; c < st * C + C; c++)
            if (P->pos_of[c] < 0)
                pair_try(P, p, c);
    } else {
        for (int st = 0; st < S->nstacks; st++)
            if (P->slot_of[st] < 0)
                for (int c = st * C; c < st * C + C; c++)
                    pair_try(P, p, c);
    }
}

/* Whether every row of both orientations holds n distinct digits (a complete grid). */
static int is_complete(const Search *S)
{
    int n = S->n;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < n; r++) {
            uint64_t seen = 0;
            for (int c = 0; c < n; c++) {
                int d = S->g[t][r * n + c];
                if (!d)
                    return 0;
                seen |= UINT64_C(1) << (d - 1);
            }
            if (seen != all_bits(n))
                return 0;
        }
    return 1;
}

/* Record a candidate of the complete-grid start: source rows a, b of orientation t, column
 * col_at[p] at each position.  Return 0, or OUT_OF_MEMORY / OUT_OF_STEPS. */
static int record_start(Search *S, int t, int a, int b, const uint8_t *col_at)
{
    int n = S->n;
    if (++S->steps > PAIR_STEP_LIMIT)
        return OUT_OF_STEPS;
    Cand *c = push(&S->cur);
    if (!c)
        return S->cur.len >= LIVE_LIMIT ? OUT_OF_STEPS : OUT_OF_MEMORY;
    memset(c, 0, sizeof *c);
    const uint8_t *g = S->g[t];
    for (int p = 0; p < n; p++) {
        c->col[p] = col_at[p];
        c->label[g[a * n + col_at[p]]] = (uint8_t)(p + 1);
    }
    c->row[0] = (uint8_t)a;
    c->row[1] = (uint8_t)b;
    c->used_rows = (UINT64_C(1) << a) | (UINT64_C(1) << b);
    c->band = (uint8_t)(a / S->R);
    c->transpose = (uint8_t)t;
    c->next_label = (uint8_t)(n + 1);
    c->col_cut = all_bits(n);
    c->stack_cut = all_bits(S->nstacks);
    return 0;
}

/* Rows 0-1 for boxes two rows tall, where the position search ties at every position of slot
 * 0 (it would try all C! orders: hours for 2x12).  With two stacks X, Y and rows a, b of one
 * band, f swaps the stacks (row b's digits over X are row a's over Y), so: put stack S0 in
 * slot 0 in some order sigma; position j shows f(sigma(j)), placed at C + j, so row 1 reads
 * C+1 .. 2C there whatever sigma is; position C + j shows h(sigma(j)) with h = f o f, a
 * permutation of S0, at sigma^-1(h(sigma(j))).  The smallest such text lays the cycles of h
 * out by increasing length, each on consecutive positions (k -> k+1 -> ... -> k+L-1 -> k),
 * and the orders reaching it are exactly the rotations of each cycle times the orders of the
 * cycles of one length: all of them are recorded.  Return 1 when f does not swap the stacks
 * (a grid with a repeat in a box: the caller searches positions), else 0 or a failure. */
static int two_rows(Search *S, int t, int a, int b, const uint8_t *f)
{
    int n = S->n, C = S->C;
    for (int c = 0; c < n; c++)
        if (f[c] / C == c / C)
            return 1;
    for (int s0 = 0; s0 < 2; s0++) {
        int base = s0 * C;
        uint8_t h[MAX_SIDE], seen[MAX_SIDE] = {0};
        for (int i = 0; i < C; i++)
            h[i] = (uint8_t)(f[f[base + i]] - base);
        /* cycles of h by increasing length (ties: by smallest element, any order would do) */
        int ncyc = 0, cstart[MAX_SIDE], clen[MAX_SIDE];
        for (int i = 0; i < C; i++) {
            if (seen[i])
                continue;
            int L = 0;
            for (int x = i; !seen[x]; x = h[x]) {
                seen[x] = 1;
                L++;
            }
            int k = ncyc++;
            while (k > 0 && clen[k - 1] > L) {
                cstart[k] = cstart[k - 1];
                clen[k] = clen[k - 1];
                k--;
            }
            cstart[k] = i;
            clen[k] = L;
        }
        uint8_t text[MAX_SIDE];
        for (int j = 0, k = 0; k < ncyc; k++) {
            for (int i = 0; i < clen[k]; i++)
                text[C + j + i] = (uint8_t)(j + (i + 1) % clen[k] + 1);
            j += clen[k];
        }
        for (int j = 0; j < C; j++)
            text[j] = (uint8_t)(C + j + 1);
        int d = bytes_cmp(text, S->best, n);
        if (d > 0)
            continue;
        if (d < 0) {
            memcpy(S->best, text, (size_t)n);
            S->cur.len = 0;
        }
        /* every optimal order: a rotation per cycle, an order per run of equal lengths */
        uint8_t rot[MAX_SIDE] = {0}, perm[MAX_SIDE];
        for (int k = 0; k < ncyc; k++)
            perm[k] = (uint8_t)k;
        for (;;) {
            uint8_t col_at[MAX_SIDE];
            for (int j = 0, k = 0; k < ncyc; k++) {
                int cyc = perm[k], x = cstart[cyc];
                for (int r = 0; r < rot[cyc]; r++)
                    x = h[x];
                for (int i = 0; i < clen[cyc]; i++, x = h[x]) {
                    col_at[j + i] = (uint8_t)(base + x);
                    col_at[C + j + i] = f[base + x];
                }
                j += clen[cyc];
            }
            int status = record_start(S, t, a, b, col_at);
            if (status < 0)
                return status;
            /* next: rotations first (odometer), then orders inside each run of one length */
            int k = ncyc - 1;
            while (k >= 0 && ++rot[k] == clen[k])
                rot[k--] = 0;
            if (k >= 0)
                continue;
            int run_end = ncyc, advanced = 0;
            while (run_end > 0 && !advanced) {
                int run_start = run_end - 1;
                while (run_start > 0 && clen[run_start - 1] == clen[run_end - 1])
                    run_start--;
                if (next_perm(perm + run_start, run_end - run_start))
                    advanced = 1;
                else
                    run_end = run_start;
            }
            if (!advanced)
                break;
        }
    }
    return 0;
}

/* Rows 0 and 1 of a complete grid into S->cur.  Return 0, or OUT_OF_MEMORY / OUT_OF_STEPS. */
static int grid_start(Search *S)
{
    int n = S->n, R = S->R;
    S->cur.len = 0;
    memset(S->best, 0xFF, sizeof S->best);
    for (int t = 0; t < S->orients; t++)
        for (int a = 0; a < n; a++)
            for (int b = (a / R) * R; b < (a / R) * R + R; b++) {
                if (b == a)
                    continue;
                Pair P;
                P.S = S;
                P.g = S->g[t];
                P.t = t;
                P.a = a;
                P.b = b;
                P.failed = 0;
                memset(P.col_at, -1, sizeof P.col_at);
                memset(P.pos_of, -1, sizeof P.pos_of);
                memset(P.stack_at, -1, sizeof P.stack_at);
                memset(P.slot_of, -1, sizeof P.slot_of);
                uint8_t where[MAX_SIDE + 1];
                for (int c = 0; c < n; c++)
                    where[P.g[a * n + c]] = (uint8_t)c;
                for (int c = 0; c < n; c++)
                    P.f[c] = where[P.g[b * n + c]];
                if (R == 2 && S->cycles) {
                    int status = two_rows(S, t, a, b, P.f);
                    if (status <= 0) {
                        if (status < 0)
                            return status;
                        continue;
                    }
                }
                pair_dfs(&P, 0);
                if (P.failed)
                    return P.failed;
            }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Deferred labels (big shapes).                                                               */
/*
 * The search above branches over every order of tied columns (and stacks) that hold new
 * digits, since the order decides their labels: (3!)^6 * 6! orders for one row of a 36x36
 * puzzle with three clues in each stack.  This search keeps such columns tied instead and binds
 * the labels to positions: the new digits of a tied group get consecutive labels in reading
 * order whatever columns end up where, and a digit's label is known once its column is placed.
 * A later row decides the order only where it tells the columns apart: positions are filled
 * left to right, a column showing a digit bound to a tied group puts that digit's column at the
 * first free position of its group (the smallest label it can get), and only columns whose
 * values tie there are branched.  Columns of a group that show nothing, or only new digits,
 * in the row stay tied.
 *
 * Invariants between rows: a column group of two or more positions is free (its columns may go
 * to its positions in any order): in every placed row its columns are all empty or all hold
 * digits bound to positions of the group.  A digit bound but not labelled has its column in a
 * free group.  Tied stacks (a stack group of two or more) are empty in every placed row (stacks
 * holding new digits are branched, as above).  Within a row the positions of a group that are
 * decided form a prefix of it.
 *
 * It gives the same canonical text, the same automorphism count (a free group of m columns
 * stands for m! maps, as a group of identical columns does above) and a transform of the same
 * kind; the tests compare it with the search above and with the brute-force oracle.
 */

typedef struct {
    uint8_t col[MAX_SIDE];       /* source column at each position (free groups: any order) */
    uint8_t row[MAX_SIDE];       /* source row at each result row fixed so far */
    uint8_t label[MAX_SIDE + 1]; /* label of each source digit, 0 = none (yet) */
    uint8_t bind[MAX_SIDE + 1];  /* digit bound to a position of its column: 1 + result row */
    uint8_t mult[MAX_SIDE + 1];
    uint8_t newbase[MAX_SIDE];   /* result row k: the first label it gives to a new digit */
    uint64_t newpos[MAX_SIDE];   /* result row k: the positions where it shows new digits */
    uint64_t col_cut, stack_cut, used_rows;
    uint8_t transpose, next_label, band;
} DCand;

typedef struct DList {
    DCand *a;
    size_t len, cap;
} DList;

typedef struct DPair {
    uint32_t cand;
    uint8_t row, mul_a, mul_b;
} DPair;

/* The state of one row being arranged (copied at each branch). */
typedef struct {
    uint8_t col[MAX_SIDE], pos[MAX_SIDE];
    uint8_t label[MAX_SIDE + 1], bind[MAX_SIDE + 1];
    uint64_t cut;       /* column group starts (refined during the row) */
    uint64_t dec;       /* positions whose column is decided */
    uint64_t stack_cut; /* stack group starts (refined during the row) */
    uint64_t sdec;      /* slots whose stack is decided (or kept tied, empty) */
    uint64_t sone;      /* slots whose stack is decided alone */
    uint64_t newpos;    /* positions showing a new digit in this row */
    int next;           /* the next label */
} Work;

/* What one arrangement (candidate c, source row r, result row k) shares across its branches. */
typedef struct {
    Search *S;
    const DCand *c;
    const uint8_t *src; /* source row r */
    int k, r, mul_a, mul_b, emit, base, status, reached;
    uint32_t index;
} DCtx;

static DCand *dpush(DList *l)
{
    if (l->len == l->cap) {
        if (l->cap >= LIVE_LIMIT)
            return NULL;
        size_t cap = l->cap ? 2 * l->cap : 64;
        DCand *a = realloc(l->a, cap * sizeof(DCand));
        if (!a)
            return NULL;
        l->a = a;
        l->cap = cap;
    }
    return &l->a[l->len++];
}

static void dsearch_free(Search *S)
{
    for (int i = 0; i < 2; i++) {
        DList *l = i ? S->dnxt : S->dcur;
        if (l) {
            free(l->a);
            free(l);
        }
    }
    S->dcur = S->dnxt = NULL;
    free(S->pairs);
    S->pairs = NULL;
    S->npairs = S->pcap = 0;
}

/* The label row j gives at position q (j == ctx->k: the row being arranged). */
static inline int label_at(const DCtx *x, const Work *W, int j, int q)
{
    if (j == x->k)
        return x->base + __builtin_popcountll(W->newpos & all_bits(q));
    return x->c->newbase[j] + __builtin_popcountll(x->c->newpos[j] & all_bits(q));
}

/* The digit of column col in result row j (j == ctx->k: the row being arranged). */
static inline int digit_at(const DCtx *x, int j, int col)
{
    if (j == x->k)
        return x->src[col];
    return x->S->g[x->c->transpose][x->c->row[j] * x->S->n + col];
}

/* The column where digit d, bound in result row j, stands. */
static inline int home_of(const DCtx *x, int j, int d)
{
    int r = j == x->k ? x->r : x->c->row[j];
    return x->S->where[x->c->transpose][r][d];
}

/* Label the digits bound to column col, now at position q for good. */
static void resolve(const DCtx *x, Work *W, int col, int q)
{
    for (int j = 0; j <= x->k; j++) {
        int d = digit_at(x, j, col);
        if (d && !W->label[d] && W->bind[d] == j + 1) {
            W->label[d] = (uint8_t)label_at(x, W, j, q);
            W->bind[d] = 0;
        }
    }
}

/* The group [*a, *b) of position p. */
static inline void group_of(uint64_t cut, int n, int p, int *a, int *b)
{
    *a = 63 - __builtin_clzll(cut & all_bits(p + 1));
    uint64_t above = cut & ~all_bits(p + 1) & all_bits(n);
    *b = above ? __builtin_ctzll(above) : n;
}

/* The first undecided position of the group of position p (-1: none). */
static inline int first_free(const Work *W, int n, int p)
{
    int a, b;
    group_of(W->cut, n, p, &a, &b);
    for (int q = a; q < b; q++)
        if (!((W->dec >> q) & 1))
            return q;
    return -1;
}

static inline void swap_pos(Work *W, int p, int q)
{
    if (p == q)
        return;
    uint8_t u = W->col[p], v = W->col[q];
    W->col[p] = v;
    W->col[q] = u;
    W->pos[v] = (uint8_t)p;
    W->pos[u] = (uint8_t)q;
}

/* Put column col at position q (an undecided position of its group) for good. */
static void decide(const DCtx *x, Work *W, int col, int q)
{
    swap_pos(W, W->pos[col], q);
    W->dec |= UINT64_C(1) << q;
    resolve(x, W, col, q);
}

/* The value column col shows at position p in this row, and (deferred digits) the column to
 * put where.  *home = -1 when nothing else moves.  Nothing is changed. */
static int value_of(const DCtx *x, const Work *W, int col, int p, int *home, int *hpos)
{
    int d = x->src[col];
    *home = -1;
    if (!d)
        return 0;
    if (W->label[d])
        return W->label[d];
    if (!W->bind[d])
        return NEW_KEY;
    int j = W->bind[d] - 1, h = home_of(x, j, d), n = x->S->n;
    int q = first_free(W, n, W->pos[h]);
    if (q == p) /* the home column is in p's group: p goes to col, the home to the next one */
        q++;
    *home = h;
    *hpos = q;
    return label_at(x, W, j, q);
}

static void dfs(DCtx *x, Work *W, int p);

/* Compare value v at position p with the best text: 1 to go on, 0 to stop here. */
static inline int keep(DCtx *x, int v, int p)
{
    Search *S = x->S;
    if (v < S->best[p]) {
        if (x->emit)
            return 0; /* cannot happen: the first pass found the best */
        S->best[p] = (uint8_t)v;
        memset(S->best + p + 1, 0xFF, (size_t)(S->n - p - 1));
        S->npairs = 0;
        x->reached = 0;
    }
    return v == S->best[p];
}

/* A whole row arranged: record the pair (first pass) or make the child (second pass). */
static void leaf(DCtx *x, Work *W)
{
    Search *S = x->S;
    int n = S->n;
    if (!x->emit) {
        if (x->reached)
            return;
        x->reached = 1;
        if (S->npairs == S->pcap) {
            size_t cap = S->pcap ? 2 * S->pcap : 64;
            DPair *a = realloc(S->pairs, cap * sizeof(DPair));
            if (!a) {
                x->status = OUT_OF_MEMORY;
                return;
            }
            S->pairs = a;
            S->pcap = cap;
        }
        DPair *pr = &S->pairs[S->npairs++];
        pr->cand = x->index;
        pr->row = (uint8_t)x->r;
        pr->mul_a = (uint8_t)x->mul_a;
        pr->mul_b = (uint8_t)x->mul_b;
        return;
    }
    DCand *ch = dpush(S->dnxt);
    if (!ch) {
        x->status = S->dnxt->len >= LIVE_LIMIT ? OUT_OF_STEPS : OUT_OF_MEMORY;
        return;
    }
    const DCand *c = x->c;
    int k = x->k;
    *ch = *c;
    uint64_t cut = (W->cut | W->dec | (W->dec << 1)) & all_bits(n);
    for (int p = 0; p < n; p++) { /* positions alone in their group are decided */
        int a, b;
        group_of(cut, n, p, &a, &b);
        if (b - a == 1)
            resolve(x, W, W->col[p], p);
    }
    memcpy(ch->col, W->col, (size_t)n);
    memcpy(ch->label, W->label, sizeof ch->label);
    memcpy(ch->bind, W->bind, sizeof ch->bind);
    ch->row[k] = (uint8_t)x->r;
    ch->used_rows |= UINT64_C(1) << x->r;
    ch->band = (uint8_t)(x->r / S->R);
    if (x->mul_a > 1)
        ch->mult[x->mul_a]++;
    if (x->mul_b > 1)
        ch->mult[x->mul_b]++;
    ch->newbase[k] = (uint8_t)x->base;
    ch->newpos[k] = W->newpos;
    ch->next_label = (uint8_t)W->next;
    ch->col_cut = cut;
    ch->stack_cut = (W->stack_cut | W->sone | (W->sone << 1)) & all_bits(S->nstacks);
}

/* Arrange positions p.. of the row (see the section comment). */
static void dfs(DCtx *x, Work *W, int p)
{
    Search *S = x->S;
    int n = S->n, C = S->C, ns = S->nstacks;
    while (p < n) {
        if (x->status)
            return;
        if (++S->steps > PAIR_STEP_LIMIT) {
            x->status = OUT_OF_STEPS;
            return;
        }
        int s = p / C;
        if (p % C == 0 && !((W->sdec >> s) & 1)) {
            int sa, sb;
            group_of(W->stack_cut, ns, s, &sa, &sb);
            if (sb - sa >= 2) { /* s is the first undecided slot of tied stacks */
                int z = 0;
                for (int u = s; u < sb; u++) {
                    int empty = 1;
                    for (int i = 0; i < C && empty; i++)
                        empty = x->src[W->col[u * C + i]] == 0;
                    if (empty) { /* empty stacks first, still tied among themselves */
                        for (int i = 0; i < C; i++)
                            swap_pos(W, (s + z) * C + i, u * C + i);
                        z++;
                    }
                }
                if (z > 0) {
                    W->stack_cut |= UINT64_C(1) << s;
                    if (s + z < ns)
                        W->stack_cut |= UINT64_C(1) << (s + z);
                    W->sdec |= all_bits(s + z) & ~all_bits(s);
                    for (int q = s * C; q < (s + z) * C; q++)
                        if (!keep(x, 0, q))
                            return;
                    p = (s + z) * C;
                    continue;
                }
                if (sb - s >= 2) { /* branch: each stack in slot s */
                    for (int u = s; u < sb; u++) {
                        Work W2 = *W;
                        for (int i = 0; i < C; i++)
                            swap_pos(&W2, s * C + i, u * C + i);
                        W2.sdec |= UINT64_C(1) << s;
                        W2.sone |= UINT64_C(1) << s;
                        dfs(x, &W2, p);
                        if (x->status)
                            return;
                    }
                    return;
                }
            }
            W->sdec |= UINT64_C(1) << s;
            W->sone |= UINT64_C(1) << s;
        }
        if ((W->dec >> p) & 1) {
            int col = W->col[p], home, hpos;
            int v = value_of(x, W, col, p, &home, &hpos);
            if (home >= 0) {
                decide(x, W, home, hpos);
                v = W->label[x->src[col]];
            } else if (v == NEW_KEY) {
                v = W->next++;
                W->label[x->src[col]] = (uint8_t)v;
                W->newpos |= UINT64_C(1) << p;
            }
            if (!keep(x, v, p))
                return;
            p++;
            continue;
        }
        int a, b;
        group_of(W->cut, n, p, &a, &b);
        if (b - p == 1) { /* the last free position of its group */
            decide(x, W, W->col[p], p);
            continue;
        }
        int z = 0, best = NEW_KEY + 1, nbest = 0;
        uint8_t who[MAX_SIDE], home_at[MAX_SIDE], hpos_at[MAX_SIDE];
        for (int q = p; q < b; q++) {
            int col = W->col[q], home, hpos;
            int v = value_of(x, W, col, p, &home, &hpos);
            if (v == 0) {
                swap_pos(W, p + z, q);
                z++;
                continue;
            }
            if (v < best) {
                best = v;
                nbest = 0;
            }
            if (v == best) {
                who[nbest] = (uint8_t)col;
                home_at[nbest] = (uint8_t)(home < 0 ? 0xFF : home);
                hpos_at[nbest] = (uint8_t)(home < 0 ? 0 : hpos);
                nbest++;
            }
        }
        if (z > 0) { /* empty columns first, still tied among themselves */
            if (z == 1) {
                decide(x, W, W->col[p], p);
            } else {
                W->cut |= UINT64_C(1) << p;
                if (p + z < n)
                    W->cut |= UINT64_C(1) << (p + z);
            }
            for (int q = p; q < p + z; q++)
                if (!keep(x, 0, q))
                    return;
            p += z;
            continue;
        }
        if (best == NEW_KEY) { /* new digits only: still tied, labels bound to positions */
            W->cut |= UINT64_C(1) << p;
            for (int q = p; q < b; q++) {
                W->bind[x->src[W->col[q]]] = (uint8_t)(x->k + 1);
                W->newpos |= UINT64_C(1) << q;
                if (!keep(x, W->next++, q))
                    return;
            }
            p = b;
            continue;
        }
        for (int i = 0; i < nbest; i++) {
            Work W2;
            Work *w = W;
            if (nbest > 1) {
                W2 = *W;
                w = &W2;
            }
            decide(x, w, who[i], p);
            if (home_at[i] != 0xFF)
                decide(x, w, home_at[i], hpos_at[i]);
            if (!keep(x, best, p))
                return;
            if (nbest == 1) {
                p++;
                break;
            }
            dfs(x, w, p + 1);
            if (x->status)
                return;
        }
        if (nbest > 1)
            return;
    }
    leaf(x, W);
}

/* Arrange source row r for candidate index i at result row k. */
static int d_try_row(Search *S, size_t i, int k, int r, int mul_a, int mul_b, int emit)
{
    const DCand *c = &S->dcur->a[i];
    DCtx x;
    x.S = S;
    x.c = c;
    x.src = S->g[c->transpose] + r * S->n;
    x.k = k;
    x.r = r;
    x.mul_a = mul_a;
    x.mul_b = mul_b;
    x.emit = emit;
    x.base = c->next_label;
    x.status = 0;
    x.reached = 0;
    x.index = (uint32_t)i;
    Work W;
    memcpy(W.col, c->col, (size_t)S->n);
    for (int p = 0; p < S->n; p++)
        W.pos[c->col[p]] = (uint8_t)p;
    memcpy(W.label, c->label, sizeof W.label);
    memcpy(W.bind, c->bind, sizeof W.bind);
    W.cut = c->col_cut;
    W.stack_cut = c->stack_cut;
    W.dec = 0;
    W.sdec = 0;
    W.sone = 0;
    for (int p = 0; p < S->n; p++) {
        int a, b;
        group_of(W.cut, S->n, p, &a, &b);
        if (b - a == 1)
            W.dec |= UINT64_C(1) << p;
    }
    W.newpos = 0;
    W.next = c->next_label;
    dfs(&x, &W, 0);
    return x.status;
}

/* One pass over every candidate and every source row it may place next (as place_row_pass). */
static int d_place_row_pass(Search *S, int k)
{
    RowChoice choice[MAX_SIDE];
    for (size_t i = 0; i < S->dcur->len; i++) {
        const DCand *c = &S->dcur->a[i];
        int m = row_choices(S, c->transpose, c->used_rows, c->band, k, choice);
        for (int j = 0; j < m; j++) {
            int status = d_try_row(S, i, k, choice[j].row, choice[j].count, choice[j].mult, 0);
            if (status < 0)
                return status;
        }
    }
    return 0;
}

static int d_place_row(Search *S, int k)
{
    memset(S->best, 0xFF, sizeof S->best);
    S->dnxt->len = 0;
    S->npairs = 0;
    int status = d_place_row_pass(S, k);
    for (size_t i = 0; status == 0 && i < S->npairs; i++) {
        DPair pr = S->pairs[i];
        status = d_try_row(S, pr.cand, k, pr.row, pr.mul_a, pr.mul_b, 1);
    }
    if (status < 0)
        return status;
    DList *t = S->dcur;
    S->dcur = S->dnxt;
    S->dnxt = t;
    return 0;
}

/* The deferred-label search: on return S->cur holds the survivors as plain candidates (every
 * label known), so the rest of the file reads them as it reads the other search's. */
static int d_search_run(Search *S)
{
    int n = S->n;
    if (!S->dcur) {
        S->dcur = calloc(1, sizeof(DList));
        S->dnxt = calloc(1, sizeof(DList));
        if (!S->dcur || !S->dnxt)
            return OUT_OF_MEMORY;
    }
    for (int t = 0; t < S->orients; t++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                S->where[t][r][S->g[t][r * n + c]] = (uint8_t)c;
    S->dcur->len = 0;
    for (int t = 0; t < S->orients; t++) {
        DCand *c = dpush(S->dcur);
        if (!c)
            return OUT_OF_MEMORY;
        memset(c, 0, sizeof *c);
        for (int p = 0; p < n; p++)
            c->col[p] = (uint8_t)p;
        for (int s = 0; s < S->nstacks; s++)
            c->col_cut |= UINT64_C(1) << (s * S->C);
        c->stack_cut = 1;
        c->transpose = (uint8_t)t;
        c->next_label = 1;
    }
    int status = 0;
    for (int k = 0; status == 0 && k < n; k++)
        status = d_place_row(S, k);
    if (status < 0)
        return status;
    S->cur.len = 0;
    for (size_t i = 0; i < S->dcur->len; i++) {
        DCand *d = &S->dcur->a[i];
        for (int p = 0; p < n; p++) /* the digits still bound: free groups in their order */
            for (int j = 0; j < n; j++) {
                int dg = S->g[d->transpose][d->row[j] * n + d->col[p]];
                if (dg && !d->label[dg] && d->bind[dg] == j + 1)
                    d->label[dg] = (uint8_t)(d->newbase[j] + __builtin_popcountll(d->newpos[j] & all_bits(p)));
            }
        Cand *c = push(&S->cur);
        if (!c)
            return S->cur.len >= LIVE_LIMIT ? OUT_OF_STEPS : OUT_OF_MEMORY;
        memset(c, 0, sizeof *c);
        memcpy(c->col, d->col, sizeof c->col);
        memcpy(c->row, d->row, sizeof c->row);
        memcpy(c->label, d->label, sizeof c->label);
        memcpy(c->mult, d->mult, sizeof c->mult);
        c->col_cut = d->col_cut;
        c->stack_cut = d->stack_cut;
        c->used_rows = d->used_rows;
        c->transpose = d->transpose;
        c->next_label = d->next_label;
        c->band = d->band;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The whole search.                                                                           */

/* Canonicalise the loaded input: on return S->cur holds the survivors.  Return 0, or
 * OUT_OF_MEMORY / OUT_OF_STEPS. */
static int search_run(Search *S, int generic, int cycles, int deferred)
{
    int k = 0, status;
    S->steps = 0;
    S->cycles = cycles;
    int complete = !generic && is_complete(S);
    if (deferred < 0) /* automatic: the deferred search for puzzles on grids above 12x12 */
        deferred = !complete && S->n > DEFERRED_FROM;
    if (deferred)
        return d_search_run(S);
    if (complete) {
        status = grid_start(S);
        S->steps = 0; /* the two searches have limits of their own */
        k = 2;
    } else {
        status = start(S);
    }
    for (; status == 0 && k < S->n; k++)
        status = place_row(S, k);
    if (status == 0 && S->cur.len == 0)
        status = OUT_OF_MEMORY; /* cannot happen: the best row always has a candidate */
    return status;
}

/* Set the exception for a failed search status. */
static void search_failed(int status, Py_ssize_t index)
{
    if (status == OUT_OF_STEPS)
        PyErr_Format(PyExc_ValueError,
                     "grid %zd: the canonical form needs more search steps than this search allows "
                     "(complete grids of wide boxes, e.g. 3x12, and dense puzzles of boxes two rows "
                     "tall tie too often)",
                     index);
    else
        PyErr_NoMemory();
}

/* Complete the labels of candidate c (unused digits after the used ones, in their order) and
 * write its image of the input into out. */
static void finish(const Search *S, Cand *c, uint8_t *out)
{
    int n = S->n;
    int next = c->next_label;
    for (int d = 1; d <= n; d++)
        if (!c->label[d])
            c->label[d] = (uint8_t)next++;
    const uint8_t *g = S->g[c->transpose];
    for (int r = 0; r < n; r++)
        for (int p = 0; p < n; p++) {
            int d = g[c->row[r] * n + c->col[p]];
            out[r * n + p] = d ? c->label[d] : 0;
        }
}

/* The factors of one survivor's multiplicity: f[k] = exponent of k (k = 2..n). */
static void survivor_factors(const Search *S, const Cand *c, uint32_t *f)
{
    int n = S->n, ns = S->nstacks;
    memset(f, 0, sizeof(uint32_t) * (MAX_SIDE + 1));
    for (int k = 2; k <= n; k++)
        f[k] = c->mult[k];
    /* tied groups left at the end: identical columns, identical stacks, unused digits */
    for (int a = 0; a < n;) {
        int b = a + 1;
        while (b < n && !((c->col_cut >> b) & 1))
            b++;
        for (int k = 2; k <= b - a; k++)
            f[k]++;
        a = b;
    }
    for (int a = 0; a < ns;) {
        int b = a + 1;
        while (b < ns && !((c->stack_cut >> b) & 1))
            b++;
        for (int k = 2; k <= b - a; k++)
            f[k]++;
        a = b;
    }
    int unused = n + 1 - c->next_label;
    for (int k = 2; k <= unused; k++)
        f[k]++;
}

/* ------------------------------------------------------------------------------------------ */
/* Python bindings.                                                                            */

/* Check one input of n*n cells: digits 0..n, none twice in a row or a column (the search
 * labels each new digit of a row once).  Return 0, or -1 with ValueError set. */
static int check_input(const uint8_t *cells, int n, Py_ssize_t index)
{
    uint64_t rows[MAX_SIDE] = {0}, cols[MAX_SIDE] = {0};
    for (int i = 0; i < n * n; i++) {
        int d = cells[i], r = i / n, c = i % n;
        if (d > n) {
            PyErr_Format(PyExc_ValueError, "grid %zd, cell %d: digit %d is out of range 0..%d", index, i,
                         d, n);
            return -1;
        }
        if (!d)
            continue;
        uint64_t bit = UINT64_C(1) << (d - 1);
        if ((rows[r] | cols[c]) & bit) {
            PyErr_Format(PyExc_ValueError, "grid %zd, cell %d: digit %d repeats in its %s", index, i, d,
                         rows[r] & bit ? "row" : "column");
            return -1;
        }
        rows[r] |= bit;
        cols[c] |= bit;
    }
    return 0;
}

static PyTypeObject *MinlexType;

static PyStructSequence_Field minlex_fields[] = {
    {"cells", "the canonical grid, n*n digit bytes"},
    {"transpose", "whether the map transposes first"},
    {"rows", "rows[r]: the source row placed at row r (after transposition)"},
    {"cols", "cols[c]: the source column placed at column c (after transposition)"},
    {"digits", "digits[d]: the new label of digit d (n+1 bytes, digits[0] == 0)"},
    {"automorphisms", "how many group elements map the input onto itself"},
    {"survivors", "how many maps the search kept to the end (a diagnostic)"},
    {NULL, NULL},
};

static PyStructSequence_Desc minlex_desc = {
    "sudokit._canon.Minlex",
    "The canonical form of one grid and a map that gives it.",
    minlex_fields,
    7,
};

/* k^e as a Python int times acc (acc is consumed).  NULL on error. */
static PyObject *times_power(PyObject *acc, long k, uint32_t e)
{
    if (e == 0)
        return acc;
    PyObject *base = PyLong_FromLong(k), *ex = PyLong_FromUnsignedLong(e), *pw = NULL, *res = NULL;
    if (base && ex)
        pw = PyNumber_Power(base, ex, Py_None);
    if (pw)
        res = PyNumber_Multiply(acc, pw);
    Py_XDECREF(base);
    Py_XDECREF(ex);
    Py_XDECREF(pw);
    Py_DECREF(acc);
    return res;
}

/* The automorphism count: the sum over survivors of their multiplicities. */
static PyObject *automorphisms(const Search *S)
{
    PyObject *total = PyLong_FromLong(0);
    uint32_t f[MAX_SIDE + 1], g[MAX_SIDE + 1];
    size_t i = 0;
    while (total && i < S->cur.len) {
        survivor_factors(S, &S->cur.a[i], f);
        size_t j = i + 1; /* survivors usually share one multiplicity: add them up at once */
        while (j < S->cur.len) {
            survivor_factors(S, &S->cur.a[j], g);
            if (memcmp(f, g, sizeof f) != 0)
                break;
            j++;
        }
        PyObject *term = PyLong_FromSize_t(j - i);
        for (int k = 2; term && k <= S->n; k++)
            term = times_power(term, k, f[k]);
        if (!term) {
            Py_DECREF(total);
            return NULL;
        }
        PyObject *sum = PyNumber_Add(total, term);
        Py_DECREF(term);
        Py_DECREF(total);
        total = sum;
        i = j;
    }
    return total;
}

static PyObject *py_minlex(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"box_rows", "box_cols", "cells", "generic", "cycles", "deferred", NULL};
    int br, bc, generic = 0, cycles = 1, deferred = -1;
    Py_buffer buf;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiy*|ppi:minlex", kwlist, &br, &bc, &buf, &generic,
                                     &cycles, &deferred))
        return NULL;
    PyObject *result = NULL;
    Search *S = NULL;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    if (buf.len != (Py_ssize_t)n * n) {
        PyErr_Format(PyExc_ValueError, "expected %d cells, got %zd", n * n, buf.len);
        goto done;
    }
    if (check_input(buf.buf, n, 0) < 0)
        goto done;
    S = search_new();
    if (!S) {
        PyErr_NoMemory();
        goto done;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    search_load(S, br, bc, buf.buf);
    status = search_run(S, generic, cycles, deferred);
    Py_END_ALLOW_THREADS;
    if (status < 0) {
        search_failed(status, 0);
        goto done;
    }
    Cand *c = &S->cur.a[0];
    uint8_t out[MAX_SIDE * MAX_SIDE], digits[MAX_SIDE + 1];
    PyObject *autos = automorphisms(S);
    if (!autos)
        goto done;
    finish(S, c, out);
    digits[0] = 0;
    memcpy(digits + 1, c->label + 1, (size_t)n);
    result = PyStructSequence_New(MinlexType);
    if (!result) {
        Py_DECREF(autos);
        goto done;
    }
    PyObject *items[7] = {
        PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n * n),
        PyBool_FromLong(c->transpose),
        PyBytes_FromStringAndSize((const char *)c->row, n),
        PyBytes_FromStringAndSize((const char *)c->col, n),
        PyBytes_FromStringAndSize((const char *)digits, n + 1),
        autos,
        PyLong_FromSize_t(S->cur.len),
    };
    for (int i = 0; i < 7; i++) {
        if (!items[i]) {
            for (int j = 0; j < 7; j++)
                Py_XDECREF(items[j]);
            Py_CLEAR(result);
            goto done;
        }
    }
    for (int i = 0; i < 7; i++)
        PyStructSequence_SET_ITEM(result, i, items[i]);
done:
    if (S) {
        list_free(&S->cur);
        list_free(&S->nxt);
        dsearch_free(S);
        free(S);
    }
    PyBuffer_Release(&buf);
    return result;
}

/* How many grids of N cells `len` bytes hold; -1 with ValueError when not whole grids. */
static Py_ssize_t grid_count(Py_ssize_t len, Py_ssize_t N)
{
    if (len % N != 0) {
        PyErr_Format(PyExc_ValueError, "expected a multiple of %zd cells, got %zd bytes", N, len);
        return -1;
    }
    return len / N;
}

static PyObject *py_minlex_many(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"box_rows", "box_cols", "cells", "generic", "cycles", "deferred", NULL};
    int br, bc, generic = 0, cycles = 1, deferred = -1;
    Py_buffer buf;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiy*|ppi:minlex_many", kwlist, &br, &bc, &buf,
                                     &generic, &cycles, &deferred))
        return NULL;
    PyObject *result = NULL;
    Search *S = NULL;
    int n = sudokit_check_shape(br, bc);
    if (n < 0)
        goto done;
    Py_ssize_t N = (Py_ssize_t)n * n, count = grid_count(buf.len, N);
    if (count < 0)
        goto done;
    const uint8_t *cells = buf.buf;
    for (Py_ssize_t i = 0; i < count; i++)
        if (check_input(cells + i * N, n, i) < 0)
            goto done;
    result = PyBytes_FromStringAndSize(NULL, buf.len);
    S = search_new();
    if (!result || !S) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(result);
    int status = 0;
    Py_ssize_t i = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (; i < count; i++) {
        search_load(S, br, bc, cells + i * N);
        status = search_run(S, generic, cycles, deferred);
        if (status < 0)
            break;
        finish(S, &S->cur.a[0], out + i * N);
    }
    Py_END_ALLOW_THREADS;
    if (status < 0) {
        Py_CLEAR(result);
        search_failed(status, i);
    }
done:
    if (S) {
        list_free(&S->cur);
        list_free(&S->nxt);
        dsearch_free(S);
        free(S);
    }
    PyBuffer_Release(&buf);
    return result;
}

/* ---- Bank helpers: the clue pattern's symmetry, and ids' base32 text -------------------
 *
 * symmetry_many(n, cells) -> bytes: for each grid of n*n cells (back to back), the code of
 * the largest symmetry of its clue pattern (nonzero cells), in the order of SYMMETRY_NAMES
 * below; sudokit.canon names them.  The eight maps of the square act on the n x n grid of
 * every shape; the maps that keep a pattern form a group, and each group of the square is one
 * of the ten named, so the code is exact, never a choice (generator.symmetry_of's argument).
 */

enum { SYM_NONE, SYM_ROT180, SYM_ROT90, SYM_FULL, SYM_MIRROR_H, SYM_MIRROR_V, SYM_MIRROR_BOTH,
       SYM_DIAGONAL, SYM_ANTIDIAGONAL, SYM_DIAGONAL_BOTH };

/* Whether the clue pattern of g is unchanged by map m (1 rot90, 2 rot180, 4 mirror-h,
 * 5 mirror-v, 6 diagonal, 7 antidiagonal): cell (r, c) and its image both clues or both empty. */
static int pattern_holds(const uint8_t *g, int n, int m)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int rr, cc;
            switch (m) {
            case 1: rr = c; cc = n - 1 - r; break;
            case 2: rr = n - 1 - r; cc = n - 1 - c; break;
            case 4: rr = n - 1 - r; cc = c; break;
            case 5: rr = r; cc = n - 1 - c; break;
            case 6: rr = c; cc = r; break;
            default: rr = n - 1 - c; cc = n - 1 - r; break;
            }
            if ((g[r * n + c] != 0) != (g[rr * n + cc] != 0))
                return 0;
        }
    return 1;
}

static int symmetry_code(const uint8_t *g, int n)
{
    if (pattern_holds(g, n, 2)) { /* a half turn: rot180 or a group above it */
        if (pattern_holds(g, n, 1))
            return pattern_holds(g, n, 4) ? SYM_FULL : SYM_ROT90;
        if (pattern_holds(g, n, 4))
            return SYM_MIRROR_BOTH;
        return pattern_holds(g, n, 6) ? SYM_DIAGONAL_BOTH : SYM_ROT180;
    }
    /* No half turn: no quarter turn, and at most one reflection. */
    if (pattern_holds(g, n, 4))
        return SYM_MIRROR_H;
    if (pattern_holds(g, n, 5))
        return SYM_MIRROR_V;
    if (pattern_holds(g, n, 6))
        return SYM_DIAGONAL;
    if (pattern_holds(g, n, 7))
        return SYM_ANTIDIAGONAL;
    return SYM_NONE;
}

static PyObject *py_symmetry_many(PyObject *self, PyObject *args)
{
    int n;
    Py_buffer buf;
    (void)self;
    if (!PyArg_ParseTuple(args, "iy*:symmetry_many", &n, &buf))
        return NULL;
    PyObject *result = NULL;
    if (n < 1 || n > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "side %d is out of range 1..%d", n, MAX_SIDE);
        goto done;
    }
    Py_ssize_t N = (Py_ssize_t)n * n, count = grid_count(buf.len, N);
    if (count < 0)
        goto done;
    result = PyBytes_FromStringAndSize(NULL, count);
    if (!result)
        goto done;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(result);
    const uint8_t *cells = buf.buf;
    for (Py_ssize_t i = 0; i < count; i++)
        out[i] = (uint8_t)symmetry_code(cells + i * N, n);
done:
    PyBuffer_Release(&buf);
    return result;
}

/* base32_keys(prefix, digests, size) -> list[str]: for each digest of `size` bytes (back to
 * back), prefix + its RFC 4648 base32 text in lower case without padding (ceil(8 * size / 5)
 * characters), as base64.b32encode(digest).decode().lower().rstrip("=") gives it. */
static PyObject *py_base32_keys(PyObject *self, PyObject *args)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    const char *prefix;
    Py_ssize_t plen, size;
    Py_buffer buf;
    (void)self;
    if (!PyArg_ParseTuple(args, "s#y*n:base32_keys", &prefix, &plen, &buf, &size))
        return NULL;
    PyObject *result = NULL;
    char text[64 + (8 * 64 + 4) / 5]; /* the longest prefix and key */
    if (size < 1 || size > 64) {
        PyErr_Format(PyExc_ValueError, "digest size %zd is out of range 1..64", size);
        goto done;
    }
    if (plen > 64) {
        PyErr_Format(PyExc_ValueError, "prefix of %zd bytes is longer than 64", plen);
        goto done;
    }
    if (buf.len % size != 0) {
        PyErr_Format(PyExc_ValueError, "expected a multiple of %zd bytes, got %zd", size, buf.len);
        goto done;
    }
    Py_ssize_t count = buf.len / size, chars = (8 * size + 4) / 5;
    result = PyList_New(count);
    if (!result)
        goto done;
    memcpy(text, prefix, (size_t)plen);
    const uint8_t *d = buf.buf;
    for (Py_ssize_t i = 0; i < count; i++, d += size) {
        uint32_t acc = 0;
        int bits = 0;
        char *o = text + plen;
        for (Py_ssize_t k = 0; k < size; k++) {
            acc = (acc << 8) | d[k];
            bits += 8;
            while (bits >= 5) {
                bits -= 5;
                *o++ = alphabet[(acc >> bits) & 31];
            }
        }
        if (bits)
            *o++ = alphabet[(acc << (5 - bits)) & 31];
        PyObject *key = PyUnicode_FromStringAndSize(text, plen + chars);
        if (!key) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, key);
    }
done:
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef methods[] = {
    SUDOKIT_FAULT_METHODS
    {"minlex", (PyCFunction)(void (*)(void))py_minlex, METH_VARARGS | METH_KEYWORDS,
     "minlex(box_rows, box_cols, cells, generic=False, cycles=True, deferred=-1) -> Minlex\n\n"
     "The canonical (minlex) form of one grid of n*n digit bytes (0 = empty), a map that gives\n"
     "it, and the automorphism count.  generic=True: no special path for complete grids;\n"
     "cycles=False: no cycle layout for boxes two rows tall; deferred=1/0: the deferred-label\n"
     "search on/off (-1: for puzzles above 12x12), all for the tests."},
    {"minlex_many", (PyCFunction)(void (*)(void))py_minlex_many, METH_VARARGS | METH_KEYWORDS,
     "minlex_many(box_rows, box_cols, cells, generic=False, cycles=True, deferred=-1) -> bytes\n\n"
     "The canonical forms of many grids of one shape given back to back, back to back."},
    {"symmetry_many", py_symmetry_many, METH_VARARGS,
     "symmetry_many(n, cells) -> bytes\n\n"
     "For each n*n grid given back to back, the code of the largest symmetry of its clue\n"
     "pattern: 0 none, 1 rot180, 2 rot90, 3 full, 4 mirror-h, 5 mirror-v, 6 mirror-both,\n"
     "7 diagonal, 8 antidiagonal, 9 diagonal-both."},
    {"base32_keys", py_base32_keys, METH_VARARGS,
     "base32_keys(prefix, digests, size) -> list[str]\n\n"
     "prefix + the lower-case unpadded base32 text of each size-byte digest given back to back."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_canon", "Canonical forms of sudokit grids (private; use sudokit.canon).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__canon(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    MinlexType = PyStructSequence_NewType(&minlex_desc);
    if (!MinlexType || PyModule_AddObjectRef(m, "Minlex", (PyObject *)MinlexType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SIDE", MAX_SIDE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
