/*
 * sudokit._engine, 9x9 under rules: small unavoidable sets of a complete grid for the dig, as
 * grid_unavoidable finds them for classic rules.  Included by _engine.c after the digger.
 *
 * Two digits a and b swapped in a set of cells give another grid that keeps every house when
 * each house holds both of the set's a and b or neither: the smallest such sets are the
 * closures of one cell under "the a and the b of each house it lies in".  The rules' other
 * peers (anti-knight, anti-king) and the nc relation may forbid the swap, so each set is kept
 * only when the swapped grid keeps them too: then it is a second solution of every puzzle
 * whose clues miss the set, and a removal that would empty it is known to fail without a
 * search.
 */

static void rules_unavoidable(Digger *D, const uint8_t *grid)
{
    const R9 *r = D->g->r9;
    B81 board[9] = {0}, mates[81];
    for (int c = 0; c < 81; c++) {
        board[grid[c] - 1] |= r9_bit(c);
        mates[c] = 0;
    }
    for (int h = 0; h < r->nhouses; h++)
        for (B81 t = r->house[h]; t; t &= t - 1)
            mates[r9_ctz(t)] |= r->house[h];
    for (int a = 0; a < 9; a++)
        for (int b = a + 1; b < 9; b++) {
            B81 both = board[a] | board[b], left = both;
            while (left) {
                B81 set = r9_bit(r9_ctz(left)), grown;
                do { /* close the set under its cells' houses */
                    grown = set;
                    for (B81 t = set; t; t &= t - 1)
                        grown |= mates[r9_ctz(t)] & both;
                    if (grown == set)
                        break;
                    set = grown;
                } while (r9_count(set) <= DIG_UA_GRID_CELLS);
                left &= ~set;
                if (r9_count(set) > DIG_UA_GRID_CELLS)
                    continue;
                /* the swapped grid: a and b trade places in the set */
                B81 now[9];
                memcpy(now, board, sizeof(now));
                now[a] = (board[a] & ~set) | (board[b] & set);
                now[b] = (board[b] & ~set) | (board[a] & set);
                int ok = 1;
                for (B81 t = set; t && ok; t &= t - 1) {
                    int c = r9_ctz(t), v = (now[a] >> c) & 1 ? a : b;
                    ok = !(r->peer[c] & now[v]) &&
                         !(r->nc && ((v > 0 && (r->adj[c] & now[v - 1])) || (v < 8 && (r->adj[c] & now[v + 1]))));
                }
                if (!ok)
                    continue;
                uint64_t words[2] = {(uint64_t)set, (uint64_t)(set >> 64)};
                keep_set(D, words, DIG_UAS - DIG_UAS_FOUND);
            }
        }
}
