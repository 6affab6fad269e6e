/* Killer: what lets cage_step skip a cage (part of _engine.c's translation unit).
 *
 * cage_step's work on a cage is a function of its cells' candidates and placed flags, so a cage
 * whose cells are as they were when the step last changed nothing there would change nothing
 * again: the step skips it.  The state is kept as a 64-bit hash, 0 for a cage whose cells are
 * all placed (never skipped: a solved grid's sums are checked with every cage); a collision
 * could only skip some pruning, never make the search wrong.  The states stay valid while the
 * workspace's geometry does (the generator, which swaps geometries, forgets them then). */

/* The hash of a cage's state (0 when every cell is placed). */
static inline uint64_t cage_state(const uint64_t *cand, const uint8_t *placed, const int *cells, int size)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
    int open = 0;
    for (int j = 0; j < size; j++) {
        int c = cells[j];
        open += !placed[c];
        h = (h ^ (cand[c] | (uint64_t)placed[c] << 63)) * UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 31;
    }
    return open ? h | 1 : 0;
}

/* The workspace's states, one a cage (NULL when memory runs out: nothing is skipped). */
static uint64_t *cage_seen(Work *w)
{
    int need = w->g->ncages;
    if (w->cage_room < need) {
        uint64_t *seen = realloc(w->cage_seen, sizeof(uint64_t) * (size_t)need);
        if (!seen)
            return NULL;
        memset(seen + w->cage_room, 0, sizeof(uint64_t) * (size_t)(need - w->cage_room));
        w->cage_seen = seen;
        w->cage_room = need;
    }
    return w->cage_seen;
}

/* Forget the states (the workspace's geometry changes). */
static void cage_forget(Work *w)
{
    if (w->cage_seen)
        memset(w->cage_seen, 0, sizeof(uint64_t) * (size_t)w->cage_room);
}
