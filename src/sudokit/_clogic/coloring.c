/*
 * Colouring and simple chains (reference: tests/logic/pyref/coloring.py). In C so far: simple
 * colouring (color wrap, color trap). Uses patterns.c's strong links and length bonus.
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
