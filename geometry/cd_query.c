/* cd_query.c — the collision query of thesis Alg. 2.2 over two sphere
 * trees (first hit or every colliding triangle pair) and the brute-force
 * oracle.  See skb_geom.h for the contracts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "skb_geom.h"

/* ------------------------------------------------------ collision query */

struct cdq {
    const struct skb_cd_body *a, *b;
    int mode;
    int *pairs;
    long max_pairs;
    struct skb_cd_stats *st;
    int done;
};

static int leaf_pairs(struct cdq *q, int na, int nb)
{
    const struct skb_sphere_node *x = &q->a->tree->node[na], *y = &q->b->tree->node[nb];
    for (int i = x->tri0; i < x->tri0 + x->ntri; i++) {
        int ta = q->a->tree->tri[i];
        const int *va = q->a->tris + 3 * ta;
        const skb_real *p1 = q->a->vertex(q->a->ctx, va[0]), *q1 = q->a->vertex(q->a->ctx, va[1]),
                       *r1 = q->a->vertex(q->a->ctx, va[2]);
        if (!p1 || !q1 || !r1)
            return SKB_ENUMERIC;
        for (int j = y->tri0; j < y->tri0 + y->ntri; j++) {
            int tb = q->b->tree->tri[j];
            const int *vb = q->b->tris + 3 * tb;
            const skb_real *p2 = q->b->vertex(q->b->ctx, vb[0]), *q2 = q->b->vertex(q->b->ctx, vb[1]),
                           *r2 = q->b->vertex(q->b->ctx, vb[2]);
            if (!p2 || !q2 || !r2)
                return SKB_ENUMERIC;
            q->st->tri_tests++;
            if (skb_tri_tri_overlap(p1, q1, r1, p2, q2, r2)) {
                if (q->pairs && q->st->npairs < q->max_pairs) {
                    q->pairs[2 * q->st->npairs] = ta;
                    q->pairs[2 * q->st->npairs + 1] = tb;
                } else if (q->pairs) {
                    q->st->overflow = 1;
                }
                q->st->npairs++;
                if (q->mode == SKB_CD_YESNO) {
                    q->done = 1;
                    return 0;
                }
            }
        }
    }
    return 0;
}

/* thesis Alg. 2.2; spheres are fetched (refitted on demand) just before the
 * overlap test, as in thesis 5.3 */
static int coltest(struct cdq *q, int na, int nb)
{
    skb_real sa[4], sb[4];
    int rc;
    if ((rc = q->a->sphere(q->a->ctx, na, sa)) < 0 || (rc = q->b->sphere(q->b->ctx, nb, sb)) < 0)
        return rc;
    q->st->sphere_tests++;
    skb_real d[3] = { sa[0] - sb[0], sa[1] - sb[1], sa[2] - sb[2] }, rr = sa[3] + sb[3];
    if (skb_v3_dot(d, d) > rr * rr)
        return 0;
    const struct skb_sphere_node *x = &q->a->tree->node[na], *y = &q->b->tree->node[nb];
    if (x->nchild == 0 && y->nchild == 0)
        return leaf_pairs(q, na, nb);
    if (x->nchild > 0 && (y->nchild == 0 || sa[3] >= sb[3])) {
        for (int k = 0; k < x->nchild && !q->done; k++)
            if ((rc = coltest(q, q->a->tree->child[x->child0 + k], nb)) < 0)
                return rc;
    } else {
        for (int k = 0; k < y->nchild && !q->done; k++)
            if ((rc = coltest(q, na, q->b->tree->child[y->child0 + k])) < 0)
                return rc;
    }
    return 0;
}

long skb_cd_query(const struct skb_cd_body *a, const struct skb_cd_body *b, int mode,
                  int *pairs, long max_pairs, struct skb_cd_stats *st)
{
    struct cdq q;
    memset(st, 0, sizeof *st);
    q.a = a;
    q.b = b;
    q.mode = mode;
    q.pairs = pairs;
    q.max_pairs = max_pairs;
    q.st = st;
    q.done = 0;
    int rc = coltest(&q, 0, 0);
    if (rc < 0)
        return rc;
    return st->npairs;
}

static void tri_box(const int *v, const skb_real *pos, skb_real box[6])
{
    for (int i = 0; i < 3; i++) {
        skb_real a = pos[3 * v[0] + i], b = pos[3 * v[1] + i], c = pos[3 * v[2] + i];
        box[i] = a < b ? (a < c ? a : c) : (b < c ? b : c);
        box[3 + i] = a > b ? (a > c ? a : c) : (b > c ? b : c);
    }
}

long skb_cd_brute_force(const int *tris_a, int ntris_a, const skb_real *pos_a,
                        const int *tris_b, int ntris_b, const skb_real *pos_b,
                        int *pairs, long max_pairs)
{
    /* every pair; a box test first (min/max are exact, so it only skips
     * pairs that cannot share a point) */
    skb_real *boxb = (skb_real *)malloc(sizeof(skb_real) * 6 * (size_t)(ntris_b > 0 ? ntris_b : 1));
    long n = 0;
    if (!boxb)
        return SKB_ENOMEM;
    for (int j = 0; j < ntris_b; j++)
        tri_box(tris_b + 3 * j, pos_b, boxb + 6 * j);
    for (int i = 0; i < ntris_a; i++) {
        const int *va = tris_a + 3 * i;
        skb_real ba[6];
        tri_box(va, pos_a, ba);
        for (int j = 0; j < ntris_b; j++) {
            const int *vb = tris_b + 3 * j;
            const skb_real *bb = boxb + 6 * j;
            if (ba[3] < bb[0] || bb[3] < ba[0] || ba[4] < bb[1] || bb[4] < ba[1] || ba[5] < bb[2] || bb[5] < ba[2])
                continue;
            if (skb_tri_tri_overlap(pos_a + 3 * va[0], pos_a + 3 * va[1], pos_a + 3 * va[2],
                                    pos_b + 3 * vb[0], pos_b + 3 * vb[1], pos_b + 3 * vb[2])) {
                if (pairs && n < max_pairs) {
                    pairs[2 * n] = i;
                    pairs[2 * n + 1] = j;
                }
                n++;
            }
        }
    }
    free(boxb);
    return n;
}
