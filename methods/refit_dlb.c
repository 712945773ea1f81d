/* refit_dlb.c — on-demand sphere refitting for dual quaternion skinning
 * (DLB).  Beyond the thesis: its open problem 8.3.1.  The bound and its
 * proof follow; the containment property test (tests/test_spheres.c) checks
 * it on every default dataset.
 *
 * Setting.  A node's reference sphere S = (p, r) holds vertices v with
 * |v - p| <= r.  A vertex with joint set J = {1..n} and convex weights w in
 * the weight polytope W' = CH(corners c_k) (thesis 5.2.1) is skinned by
 * DLB as v' = T_w(v), T_w the rigid motion of b/|b|, b = sum_i w_i q^_i, with
 * the unit dual quaternions q^_i = q_i + eps q_i^e of the joints, signs as the
 * skin path chose them (DQ paper Alg. 2 against the vertex's first joint).
 *
 * Step 1 (reduce to the centre).  T_w is rigid, so
 *     |v' - T_w(p)| = |v - p| <= r:  v' lies in the ball (T_w(p), r).
 * Step 2 (the centre's path).  Right-multiplying by the translation
 * t^ = 1 + eps p/2 commutes with the blend and the normalisation
 * (sum w_i q^_i t^ = b t^, |b t^| = |b|), so T_w(p) is where the blend of
 * D_i = q^_i t^ takes the origin.  D_i = q_i + eps P_i q_i / 2 with
 * P_i = C_i p (a pure quaternion), hence with u_ij = q_i q_j^* = (c_ij, s_ij):
 *     T_w(p) = vec(sum_ij w_i w_j P_i u_ij) / D,   D = |sum_i w_i q_i|^2
 *            = sum_ij w_i w_j c_ij,
 * and pairing (i,j) with (j,i) (u_ji = u_ij^*), vec(P_i u_ij) = c_ij P_i + P_i x s_ij:
 *     T_w(p) D = sum_ij w_i w_j c_ij M_ij + X,  M_ij = (P_i + P_j)/2,
 *     X = sum_{i<j} w_i w_j (P_i - P_j) x s_ij.
 * Step 3 (compare with LBS of the centre).  Let L_w = sum_i w_i P_i and
 * e_ij = 1 - c_ij (e_ii = 0).  Since sum_ij w_i w_j (M_ij - L_w) = 0,
 *     T_w(p) - L_w = [X - sum_{i!=j} w_i w_j e_ij (M_ij - L_w)] / D, so
 *     |T_w(p) - L_w| <= Delta = sum_{i<j} b_ij (|P_i - P_j| |s_ij|
 *                                + 2 e_ij max_k |M_ij - r'_k|) / D_lo
 * with, over all w in W':  w_i w_j <= b_ij = min(h_i h_j, (min(1, h_i + h_j)/2)^2)
 * (h the upper weight bounds); L_w in CH(r'_k), r'_k = sum_i c_ki P_i, so the
 * distance of the fixed point M_ij to L_w is at most its largest distance to
 * an r'_k; and D >= D_lo > 0 where D_lo is the larger of
 * 1 - 2 sum_{i<j} b_ij e_ij and (min_k <q'_k, n>)^2 for the unit vector n
 * along sum_k q'_k, q'_k = sum_i c_ki q_i (|b0| >= <b0, n>, linear in w,
 * smallest at a corner).  If D_lo is not positive no bound exists (the blend
 * may cancel) and the refit returns an infinite radius.
 * Step 4 (assemble).  L_w in CH(r'_k) and |T_w(p) - L_w| <= Delta, so every
 * v' lies in CH of the balls (r'_k, r + Delta): exactly the LBS refit of the
 * node (thesis Alg. 5.2) with the radius raised by Delta; Alg. 5.1 encloses
 * them.  Weights are only used through their normalisation (DLB is invariant
 * to scaling w), and every sign pattern a pivot in J can produce is bounded.
 * Delta vanishes when the joints of a set rotate alike (s_ij = 0, e_ij = 0),
 * so deep, nearly rigid spheres stay as tight as LBS's.
 *
 * Reads the prepared state of methods/dlb.c (skb_dqblend.h): per joint its
 * unit dual quaternion, signs fixed already for the hierarchy rule. */
#include <math.h>
#include <string.h>
#include "skb_method.h"
#include "skb_geom.h"
#include "skb_dqblend.h"

/* D_lo at or below this is treated as "no bound" */
#define DLB_MIN_DENOM 1e-12

/* one joint set: each joint's image P_i of the reference centre, and the
 * corner blends r'_k of the P_i (the LBS part) */
struct dlb_set {
    int n;
    skb_real P[SKB_MAX_INFLUENCES][3], rk[SKB_TREE_MAX_CORNERS][3];
    skb_real beta[SKB_MAX_INFLUENCES][SKB_MAX_INFLUENCES];  /* bound on w_i w_j */
    skb_real far[SKB_MAX_INFLUENCES][SKB_MAX_INFLUENCES];   /* max_k |M_ij - r'_k| */
};

static void set_points(struct dlb_set *x, const struct skb_sphere_tree *t, const struct skb_joint_set *js,
                       const struct skb_dq *jq, const skb_real *p)
{
    x->n = js->n;
    for (int i = 0; i < x->n; i++)
        skb_dq_transform_point(&jq[js->joint[i]], p, x->P[i]);
    for (int k = 0; k < js->ncorner; k++) {
        const skb_real *w = t->corner + SKB_MAX_INFLUENCES * (js->corner0 + k);
        for (int e = 0; e < 3; e++) {
            x->rk[k][e] = w[0] * x->P[0][e];
            for (int i = 1; i < x->n; i++)
                x->rk[k][e] = x->rk[k][e] + w[i] * x->P[i][e];
        }
    }
}

/* per pair i < j: beta_ij and max_k |M_ij - r'_k| */
static void set_pairs(struct dlb_set *x, const struct skb_joint_set *js)
{
    int n = x->n;
    skb_real hi[SKB_MAX_INFLUENCES];
    for (int i = 0; i < n; i++) {
        hi[i] = js->hi[i] + SKB_TREE_WEIGHT_SLACK;
        if (hi[i] > 1)
            hi[i] = 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            skb_real sum = hi[i] + hi[j] < 1 ? hi[i] + hi[j] : 1;
            skb_real b1 = hi[i] * hi[j], b2 = sum * sum / 4;
            x->beta[i][j] = b1 < b2 ? b1 : b2;
            skb_real mid[3], f = 0;
            for (int e = 0; e < 3; e++)
                mid[e] = (x->P[i][e] + x->P[j][e]) / 2;
            for (int k = 0; k < js->ncorner; k++) {
                skb_real dd[3] = { mid[0] - x->rk[k][0], mid[1] - x->rk[k][1], mid[2] - x->rk[k][2] };
                skb_real l = skb_v3_norm(dd);
                if (l > f)
                    f = l;
            }
            x->far[i][j] = f;
        }
}

/* D_lo: the pair bound 1 - 2 sum beta_ij e_ij, raised by the corner bound
 * along sum_k q'_k */
static skb_real denom_lo(const struct skb_sphere_tree *t, const struct skb_joint_set *js,
                         const struct skb_quat *q, skb_real esum)
{
    skb_real dlo = 1 - 2 * esum;
    struct skb_quat qs, qk[SKB_TREE_MAX_CORNERS];
    qs.w = 0; qs.x = 0; qs.y = 0; qs.z = 0;
    for (int k = 0; k < js->ncorner; k++) {
        const skb_real *w = t->corner + SKB_MAX_INFLUENCES * (js->corner0 + k);
        qk[k].w = 0; qk[k].x = 0; qk[k].y = 0; qk[k].z = 0;
        for (int i = 0; i < js->n; i++)
            skb_quat_axpy(w[i], &q[i], &qk[k]);
        skb_quat_axpy(1, &qk[k], &qs);
    }
    skb_real ns = skb_quat_norm(&qs);
    if (ns > 0) {
        skb_real mn = 2;
        for (int k = 0; k < js->ncorner; k++) {
            skb_real d = skb_quat_dot(&qk[k], &qs) / ns;
            if (d < mn)
                mn = d;
        }
        if (mn > 0 && mn * mn > dlo)
            dlo = mn * mn;
    }
    return dlo;
}

/* Delta for the sign pattern of pivot pv (pivot = 0: signs as prepared);
 * returns 0 and *delta, or -1 when D_lo vanishes (no bound) */
static int pattern_delta(const struct dlb_set *x, const struct skb_sphere_tree *t, const struct skb_joint_set *js,
                         const struct skb_dq *jq, int pivot, int pv, skb_real *delta)
{
    int n = x->n;
    struct skb_quat q[SKB_MAX_INFLUENCES];
    for (int i = 0; i < n; i++) {
        q[i] = jq[js->joint[i]].r;
        if (pivot && i != pv && skb_quat_dot(&jq[js->joint[pv]].r, &q[i]) < 0)
            skb_quat_scale(&q[i], -1, &q[i]);
    }
    skb_real num = 0, esum = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            struct skb_quat qjc, u;
            skb_quat_conj(&q[j], &qjc);
            skb_quat_mul(&q[i], &qjc, &u);
            skb_real sl = sqrt(u.x * u.x + u.y * u.y + u.z * u.z), e = 1 - u.w;
            skb_real dd[3] = { x->P[i][0] - x->P[j][0], x->P[i][1] - x->P[j][1], x->P[i][2] - x->P[j][2] };
            num = num + x->beta[i][j] * (skb_v3_norm(dd) * sl + 2 * e * x->far[i][j]);
            esum = esum + x->beta[i][j] * e;
        }
    skb_real dlo = denom_lo(t, js, q, esum);
    if (!(dlo > DLB_MIN_DENOM))
        return -1;
    if (num / dlo > *delta)
        *delta = num / dlo;
    return 0;
}

int skb__refit_dlb(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                   const void *state, skb_real *scratch, skb_real out[4])
{
    const struct skb__dq_state *hdr = (const struct skb__dq_state *)state;
    const struct skb_dq *jq = skb__dq_state_joints_c(state);
    const struct skb_sphere_node *nd = &t->node[node];
    const skb_real *p = nd->s;
    int nr = 0, pivot = hdr->antipodal == SKB_ANTIPODAL_PIVOT;
    (void)m;
    for (int s = 0; s < nd->njs; s++) {
        const struct skb_joint_set *js = &t->js[nd->js0 + s];
        struct dlb_set x;
        skb_real delta = 0;
        set_points(&x, t, js, jq, p);
        if (x.n > 1) {
            set_pairs(&x, js);
            /* every sign pattern a pivot of J can give (one without Alg. 2) */
            for (int pv = 0; pv < (pivot ? x.n : 1); pv++)
                if (pattern_delta(&x, t, js, jq, pivot, pv, &delta) < 0) {
                    out[0] = p[0]; out[1] = p[1]; out[2] = p[2];
                    out[3] = (skb_real)HUGE_VAL;
                    return 0;
                }
        }
        for (int k = 0; k < js->ncorner; k++) {
            skb_real *o = scratch + 4 * nr++;
            o[0] = x.rk[k][0]; o[1] = x.rk[k][1]; o[2] = x.rk[k][2];
            o[3] = p[3] + delta;
        }
    }
    skb_bounding_sphere(scratch, nr, out);
    return 0;
}
