/* procedural_cloth.c — the DQ paper's cloth set-up (Sec. 6: a piece of cloth
 * of 6000 vertices, ~12000 triangles and 49 joints, used to show blending
 * artifacts, Figs. 14-17): a hanging sheet with seven joint chains of seven
 * joints, smooth distance weights, and a wind-like wave clip. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "skb_dataset.h"
#include "dataset_util.h"

#define CLOTH_COLS 60
#define CLOTH_ROWS 100          /* 60 x 100 = 6000 vertices, 11682 triangles */
#define CLOTH_CHAINS 7
#define CLOTH_LINKS 7           /* 7 x 7 = 49 joints */
#define CLOTH_W 6.0
#define CLOTH_H 10.0
#define CLOTH_POSES 40
#define QUICK_DIV 2             /* quick mode: half the rows and columns */
#define QUICK_POSES 8

static int cloth_load(const struct skb_dataset_opts *o, struct skb_dataset *d, char *msg, size_t msglen)
{
    int q = o && o->quick, cols = q ? CLOTH_COLS / QUICK_DIV : CLOTH_COLS, rows = q ? CLOTH_ROWS / QUICK_DIV : CLOTH_ROWS;
    int nj = CLOTH_CHAINS * CLOTH_LINKS, nposes = q ? QUICK_POSES : CLOTH_POSES;
    struct skb__segment seg[CLOTH_CHAINS * CLOTH_LINKS];
    if (skb_dataset_alloc(d, cols * rows, 2 * (cols - 1) * (rows - 1), nj, nposes) < 0) {
        snprintf(msg, msglen, "cloth: out of memory");
        return SKB_ENOMEM;
    }
    struct skb_mesh *m = &d->mesh;
    double link = CLOTH_H / CLOTH_LINKS, gap = CLOTH_W / CLOTH_CHAINS;
    for (int c = 0; c < CLOTH_CHAINS; c++)
        for (int k = 0; k < CLOTH_LINKS; k++) {
            int j = c * CLOTH_LINKS + k;
            double x = gap * (c + 0.5), y = CLOTH_H - link * k;
            m->parent[j] = k ? j - 1 : -1;
            m->joint_rest[3 * j] = x;
            m->joint_rest[3 * j + 1] = y;
            m->joint_rest[3 * j + 2] = 0;
            struct skb__segment *s = seg + j;   /* the bone below joint j */
            s->a[0] = x; s->a[1] = y; s->a[2] = 0;
            s->b[0] = x; s->b[1] = y - link; s->b[2] = 0;
            s->radius = 0.5 * gap;
            s->joint = j;
        }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int v = r * cols + c;
            m->pos[3 * v] = CLOTH_W * c / (cols - 1);
            m->pos[3 * v + 1] = CLOTH_H * (1 - (double)r / (rows - 1));
            m->pos[3 * v + 2] = 0;
            skb__distance_weights(m->pos + 3 * v, seg, nj, m->joint + 4 * v, m->weight + 4 * v);
        }
    d->pruned_below = SKB__PRUNE_WEIGHT;
    int t = 0;
    for (int r = 0; r + 1 < rows; r++)
        for (int c = 0; c + 1 < cols; c++) {
            int a = r * cols + c, b = a + 1, e = a + cols, f = e + 1;
            int *tr = m->tris + 3 * t;
            tr[0] = a; tr[1] = e; tr[2] = b; t++;
            tr = m->tris + 3 * t;
            tr[0] = b; tr[1] = e; tr[2] = f; t++;
        }
    skb_dataset_compute_normals(m);
    /* wind: waves travel down and across the chains, swinging out of the
     * plane (about x) with a sideways sway (about z) */
    static const skb_real X[3] = { 1, 0, 0 }, Z[3] = { 0, 0, 1 };
    skb_real local[16 * CLOTH_CHAINS * CLOTH_LINKS];
    for (int k = 0; k < nposes; k++) {
        double ph = 2 * SKB_PI * k / nposes;
        for (int c = 0; c < CLOTH_CHAINS; c++)
            for (int l = 0; l < CLOTH_LINKS; l++) {
                int j = c * CLOTH_LINKS + l;
                skb_real sw[16], sy[16];
                skb__rot_about(X, 0.3 * sin(ph - 0.7 * l + 0.5 * c), m->joint_rest + 3 * j, sw);
                skb__rot_about(Z, 0.08 * sin(ph + 0.9 * c - 0.3 * l), m->joint_rest + 3 * j, sy);
                skb_mat4_mul(sw, sy, local + 16 * j);
            }
        skb__pose_from_locals(d, k, local);
    }
    snprintf(d->source, sizeof d->source, "procedural: %d x %d sheet, %d chains of %d joints",
             cols, rows, CLOTH_CHAINS, CLOTH_LINKS);
    snprintf(d->clip, sizeof d->clip, "wind waves (%d poses)", nposes);
    return 0;
}

const struct skb_dataset_source skb_dataset_cloth = {
    .name = "cloth",
    .kind = "procedural",
    .description = "DQ paper's cloth: hanging sheet, 6000 v / 49 joints in 7 chains, wind clip",
    .in_default_set = 1,
    .load = cloth_load,
};
