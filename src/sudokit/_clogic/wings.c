/*
 * XY-Wing and XYZ-Wing (reference: tests/logic/pyref/wings.py). Sudoku Explainer's order
 * (XYWing): pivots by cell; for each, the first pincer and then the second among the pivot's
 * peers in SE's house order (lgeo.house_order; under rules SukakuExplainer's visible order,
 * lg_peers): the pincers are any two peers of the pivot, the victims the common peers.
 *
 * Info: the candidate masks of pivot, pincer 1 and pincer 2, each as two ints (bits 0..29,
 * then the bits above), since a mask of a 36-digit grid does not fit an int.
 */

static void wings(const lstate *s, lsink *out, int xyz) {
    const lgeo *g = s->g;
    int nw = g->nw, np, pivot_size = xyz ? 3 : 2;
    for (int pivot = 0; pivot < g->size; pivot++) {
        dmask xy = s->cand[pivot];
        if (dm_count(xy) != pivot_size) continue;
        const int *houses = lg_peers(g, pivot, &np);
        for (int a = 0; a < np; a++) {
            int p1 = houses[a];
            dmask xz = s->cand[p1];
            if (dm_count(xz) != 2 || dm_count(xy & ~xz) != 1) continue;
            for (int b = 0; b < np; b++) {
                int p2 = houses[b];
                dmask yz = s->cand[p2];
                if (dm_count(yz) != 2 || dm_count(xy | xz | yz) != 3) continue;
                if (dm_count(xy & xz & yz) != (xyz ? 1 : 0)) continue;
                int z = dm_low(xz & yz) + 1;
                cset removed;
                cs_and(&removed, &g->peer_mask[p1], &g->peer_mask[p2], nw);
                if (xyz) cs_and(&removed, &removed, &g->peer_mask[pivot], nw);
                cs_and(&removed, &removed, &s->where[z], nw);
                cs_del(&removed, pivot);
                cs_del(&removed, p1);
                cs_del(&removed, p2);
                if (cs_empty(&removed, nw)) continue;
                lstep_begin(out, xyz ? K_XYZ_WING : K_XY_WING, xyz ? 4.4 : 4.2);
                CS_FOREACH(c, &removed, nw) lstep_elim(out, c, z);
                lstep_cell(out, pivot);
                lstep_cell(out, p1);
                lstep_cell(out, p2);
                lstep_digit(out, z);
                const dmask masks[3] = {xy, xz, yz};
                for (int j = 0; j < 3; j++) {
                    lstep_info(out, (int)(masks[j] & 0x3fffffff));
                    lstep_info(out, (int)(masks[j] >> 30));
                }
                if (lstep_end(out)) return;
            }
        }
    }
}

static void lf_xy_wings(const lstate *s, lsink *out) { wings(s, out, 0); }
static void lf_xyz_wings(const lstate *s, lsink *out) { wings(s, out, 1); }
