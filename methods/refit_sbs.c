/* refit_sbs.c — on-demand sphere refitting for spherical blend skinning
 * (thesis 6.1-6.5, Algorithm 6.1; SBS collision paper 002, Algorithm 1).
 * An SBS vertex is v' = Q_w (v - r_c) + sum_i w_i C_i r_c (thesis eq. 3.7):
 * the linear part is bounded by the corner blends r'_k of r_c (thesis 6.2),
 * the rotations Q_w by a cap on the quaternion sphere S_3 (thesis 6.3: the
 * normalised corner quaternions q''_k are enclosed by a sphere E in R^4, and
 * E meets S_3 in a cap of angle alpha = 2 arccos d_H, eq. 6.9), whose image
 * of p - r_c is a cap in R^3 enclosed by the sphere of Lemma 6.5; the sum of
 * the parts (thesis 6.4) is enclosed by Alg. 5.1 and inflated by the radius
 * of the reference sphere.
 *
 * Reads the prepared state of methods/sb.c (its layout: skb_sb_internal.h,
 * skb__sb_layout): per joint its quaternion and 3x4 matrix, then the joint
 * sets with their rotation centres, the pivot flag and each vertex's set.
 * The node's joint sets find their centre through a vertex of theirs.
 *
 * Two details the thesis leaves implicit, both handled conservatively:
 * - signs.  The skin path flips each quaternion against the vertex's first
 *   influence (DQ paper Alg. 2), so a joint set can be blended with
 *   different sign patterns; every pattern a pivot in the set can produce is
 *   bounded (usually they coincide).
 * - Lemma 6.5 holds for cap angles alpha <= pi/2; a wider cap is enclosed by
 *   the whole sphere of radius |p - r_c| about the origin of the cap. */
#include <math.h>
#include <string.h>
#include "skb_method.h"
#include "skb_geom.h"
#include "skb_sb_internal.h"   /* sb's state layout */

/* the cap angle on S_3 is widened by this much (radians) for rounding */
#define SBS_CAP_SLACK 1e-12
/* the skin path computes Q (v - r_c) + sum w_i C_i r_c, which cancels when
 * r_c is far away (nearly equal joint rotations give an ill-conditioned
 * centre): its rounding grows with |r_c|, and so does this allowance */
#define SBS_ROUND_REL 1e-12

/* sign patterns of a joint set: s[k][i] = +-1, at most one per pivot */
static int sign_patterns(int n, const struct skb_quat *const *q, int pivot, int s[SKB_MAX_INFLUENCES][SKB_MAX_INFLUENCES])
{
    int np = 0;
    for (int p = 0; p < (pivot ? n : 1); p++) {
        int cur[SKB_MAX_INFLUENCES], dup = 0;
        for (int i = 0; i < n; i++)
            cur[i] = pivot && i != p && skb_quat_dot(q[p], q[i]) < 0 ? -1 : 1;
        /* a pattern and its negation blend to the same rotation */
        for (int i = n - 1; i >= 0; i--)
            cur[i] = cur[i] * cur[0];
        for (int k = 0; k < np && !dup; k++)
            dup = memcmp(s[k], cur, sizeof(int) * (size_t)n) == 0;
        if (!dup)
            memcpy(s[np++], cur, sizeof(int) * (size_t)n);
    }
    return np;
}

/* lines 6-9: the normalised corner quaternions q''_k of one sign pattern
 * into l2, their mean c_E (Alg. 5.1's centre in R^4) into ce; returns 1
 * when a corner blend vanishes (no cap: the whole S_3) */
static int corner_quats(const struct skb_sphere_tree *t, const struct skb_joint_set *js,
                        const struct skb_quat *const *q, const int *sg, skb_real *l2, skb_real ce[4])
{
    int vanish = 0;
    ce[0] = 0; ce[1] = 0; ce[2] = 0; ce[3] = 0;
    for (int k = 0; k < js->ncorner; k++) {
        const skb_real *w = t->corner + SKB_MAX_INFLUENCES * (js->corner0 + k);
        struct skb_quat qk;
        qk.w = 0; qk.x = 0; qk.y = 0; qk.z = 0;
        for (int i = 0; i < js->n; i++)
            skb_quat_axpy(sg[i] * w[i], q[i], &qk);
        skb_real len = skb_quat_norm(&qk);
        skb_real *o = l2 + 4 * k;
        if (!(len > 0)) {
            o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0;
            vanish = 1;   /* a vanishing blend: no cap, the whole S_3 below */
            continue;
        }
        o[0] = qk.w / len; o[1] = qk.x / len; o[2] = qk.y / len; o[3] = qk.z / len;
        for (int e = 0; e < 4; e++)
            ce[e] = ce[e] + o[e] / js->ncorner;
    }
    return vanish;
}

/* lines 10-11: the cap's apex c_E/|c_E| and angle.  Eq. 6.9 takes the angle
 * from d_H, which loses every digit when the corner rotations nearly
 * coincide (1 - d_H below rounding while the far rotation centre magnifies
 * the angle); the cap with the same apex through the farthest q''_k is
 * computed instead, accurately by 2 asin(|q''_k - apex| / 2).  It is never
 * wider than eq. 6.9's (every q''_k lies in E, and E meets S_3 in a cap
 * about this apex), and it is a valid bound by Lemma 6.4's argument while
 * its angle is at most pi/2 (then 0 is outside its half-space).
 * The image of d = p - r_c under that cap of rotations: sphere fc, *fr. */
static void rotation_cap(int ncorner, const skb_real *l2, const skb_real ce[4], int vanish, const skb_real d[3],
                         skb_real dlen, skb_real fc[3], skb_real *fr)
{
    skb_real cen = sqrt(ce[0] * ce[0] + ce[1] * ce[1] + ce[2] * ce[2] + ce[3] * ce[3]);
    skb_real beta = 0;
    int whole = vanish || !(cen > 0);
    for (int k = 0; k < ncorner && !whole; k++) {
        skb_real dd = 0;
        for (int e = 0; e < 4; e++)
            dd = dd + (l2[4 * k + e] - ce[e] / cen) * (l2[4 * k + e] - ce[e] / cen);
        skb_real h = sqrt(dd) / 2;
        skb_real ang = h < 1 ? 2 * asin(h) : (skb_real)SKB_PI;
        if (ang > beta)
            beta = ang;
    }
    beta = beta + SBS_CAP_SLACK;
    if (beta > SKB_PI / 2)
        whole = 1;
    skb_real alpha = whole ? SKB_PI : 2 * beta;   /* rotation angles are twice the cap's */
    if (alpha <= SKB_PI / 2) {
        struct skb_quat qc;
        skb_real rot[9], a[3];
        qc.w = ce[0] / cen; qc.x = ce[1] / cen; qc.y = ce[2] / cen; qc.z = ce[3] / cen;
        skb_quat_to_mat3(&qc, rot);
        for (int r = 0; r < 3; r++)
            a[r] = rot[3 * r] * d[0] + rot[3 * r + 1] * d[1] + rot[3 * r + 2] * d[2];
        /* Lemma 6.5: centre a cos(alpha), radius |a| sin(alpha) */
        for (int r = 0; r < 3; r++)
            fc[r] = cos(alpha) * a[r];
        *fr = sin(alpha) * dlen;
    } else {
        fc[0] = 0; fc[1] = 0; fc[2] = 0;
        *fr = dlen;
    }
}

/* lines 12-13: (r'_h + F centre, F radius) of every corner into L_1 */
static int push_corners(const struct skb_sphere_tree *t, const struct skb_joint_set *js,
                        skb_real crc[][3], const skb_real fc[3], skb_real fr, skb_real *l1, int n1)
{
    for (int k = 0; k < js->ncorner; k++) {
        const skb_real *w = t->corner + SKB_MAX_INFLUENCES * (js->corner0 + k);
        skb_real *o = l1 + 4 * n1++;
        for (int r = 0; r < 3; r++) {
            o[r] = fc[r];
            for (int i = 0; i < js->n; i++)
                o[r] = o[r] + w[i] * crc[i][r];
        }
        o[3] = fr;
    }
    return n1;
}

/* the prepared state of sb.c, and the running bound of one refit */
struct sbs_refit {
    const struct skb_quat *quat;
    const skb_real *rows;
    const struct skb__sb_set *sets;
    const struct skb__sb_head *head;
    const int *vset;
    skb_real *scratch, *l1;      /* Alg. 6.1 list L_1 */
    int n1;
    skb_real mag, slack;         /* for wsum_dev; rounding allowance */
};

/* one joint set of the node: its spheres into L_1 */
static void refit_set(struct sbs_refit *x, const struct skb_sphere_tree *t, const struct skb_joint_set *js,
                      const skb_real *p)
{
    const skb_real *c[SKB_MAX_INFLUENCES];
    const struct skb_quat *q[SKB_MAX_INFLUENCES];
    for (int i = 0; i < js->n; i++) {
        c[i] = x->rows + 12 * js->joint[i];
        q[i] = x->quat + js->joint[i];
    }
    if (js->n == 1) {
        /* one joint: the vertices move rigidly (thesis 6.5, last paragraph) */
        skb_real *o = x->l1 + 4 * x->n1++;
        for (int r = 0; r < 3; r++)
            o[r] = c[0][4 * r] * p[0] + c[0][4 * r + 1] * p[1] + c[0][4 * r + 2] * p[2] + c[0][4 * r + 3];
        o[3] = 0;
        return;
    }
    const skb_real *rc = x->sets[x->vset[js->vertex]].center;
    skb_real d[3] = { p[0] - rc[0], p[1] - rc[1], p[2] - rc[2] };
    skb_real dlen = skb_v3_norm(d);
    skb_real rcl = skb_v3_norm(rc);
    /* line 5: r'_k = sum_g c_kg C_g r_c, into L_1's centres (added to below) */
    skb_real crc[SKB_MAX_INFLUENCES][3];
    for (int i = 0; i < js->n; i++) {
        for (int r = 0; r < 3; r++)
            crc[i][r] = c[i][4 * r] * rc[0] + c[i][4 * r + 1] * rc[1] + c[i][4 * r + 2] * rc[2] + c[i][4 * r + 3];
        /* |sum w_i C_i r_c| is at most the largest |C_i r_c| */
        if (skb_v3_norm(crc[i]) > x->mag)
            x->mag = skb_v3_norm(crc[i]);
    }
    if (SBS_ROUND_REL * (rcl + dlen + x->mag) > x->slack)
        x->slack = SBS_ROUND_REL * (rcl + dlen + x->mag);
    int sg[SKB_MAX_INFLUENCES][SKB_MAX_INFLUENCES];
    int npat = sign_patterns(js->n, q, x->head->pivot, sg);
    for (int pt = 0; pt < npat; pt++) {
        skb_real *l2 = x->scratch + skb_sphere_tree_scratch_list2(t);
        skb_real ce[4], fc[3], fr;
        int vanish = corner_quats(t, js, q, sg[pt], l2, ce);
        rotation_cap(js->ncorner, l2, ce, vanish, d, dlen, fc, &fr);
        x->n1 = push_corners(t, js, crc, fc, fr, x->l1, x->n1);
    }
}

int skb__refit_sbs(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                   const void *state, skb_real *scratch, skb_real out[4])
{
    struct sbs_refit x;
    struct skb__sb_view v = skb__sb_layout(m, state);   /* read only here */
    x.quat = v.q;
    x.rows = v.rows;
    x.sets = v.sets;
    x.head = v.head;
    x.vset = v.vset;
    x.scratch = scratch;
    x.l1 = scratch;
    x.n1 = 0;
    const struct skb_sphere_node *nd = &t->node[node];
    const skb_real *p = nd->s;
    x.mag = skb_v3_norm(p);
    x.slack = 0;
    for (int s = 0; s < nd->njs; s++)
        refit_set(&x, t, &t->js[nd->js0 + s], p);
    /* line 14: Alg. 5.1, plus the reference radius r */
    skb_bounding_sphere(x.l1, x.n1, out);
    out[3] = out[3] + p[3] + x.slack;
    /* weights summing to 1 + d scale the linear part sum w_i C_i r_c (for
     * one joint its translation, |t_j| <= |C_j p| + |p|) */
    if (nd->wsum_dev > 0)
        out[3] = out[3] + nd->wsum_dev * (x.mag + skb_v3_norm(out) + out[3]);
    return 0;
}
