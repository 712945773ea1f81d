/* dlb.c — dual quaternion linear blending (DLB): b = sum_i w_i q_i / |sum_i w_i q_i|
 * (thesis 4.3; DQ paper 3.2), with the antipodality resolution of DQ paper 4.1,
 * selected by prm->antipodal:
 *   PIVOT      Algorithm 2 per blend / per vertex, pivot = first input with w > 0;
 *   HIERARCHY  skin path: signs fixed once per pose along mesh->parent (parent
 *              before child, root as converted; joint order as a chain when the
 *              mesh has no parents); blend path (no tree): joint order as a
 *              chain, each input's sign chosen against the previous input;
 *   NONE       signs as converted from the matrices (w >= 0).
 * Cancellation: when antipodal inputs cancel, the non-dual part b0 of the sum
 * vanishes and b/|b| is undefined.  If |b0| < SKB_DLB_CANCEL_REL * sum w_i|q_i0|
 * the blend (or skin) returns SKB_ECANCEL instead of a NaN or noise matrix.
 * With PIVOT this cannot happen (every dot with the pivot is >= 0, so
 * <b0, q_pivot0> >= w_pivot > 0); with NONE or HIERARCHY it can.
 * The skin path uses the fast form of DQ paper Algorithm 1 on the
 * unnormalised sum.  Also home of the skb__ helpers shared with dib.c and
 * dlb_scale.c (methods/skb_dqblend.h). */
#include <math.h>
#include <string.h>
#include "skb_dqblend.h"
#include "skb_fast.h"

void skb__dq_antipodal_pivot(int n, int pivot, struct skb_dq *q)
{
    /* DQ paper Alg. 2; dot of the non-dual parts only (DQ paper 4.1) */
    for (int i = 0; i < n; i++)
        if (i != pivot && skb_quat_dot(&q[pivot].r, &q[i].r) < 0)
            skb_dq_neg(&q[i], &q[i]);
}

void skb__dq_antipodal_chain(int n, struct skb_dq *q)
{
    /* DQ paper 4.1, hierarchy rule with pi(i) = i - 1 */
    for (int i = 1; i < n; i++)
        if (skb_quat_dot(&q[i - 1].r, &q[i].r) < 0)
            skb_dq_neg(&q[i], &q[i]);
}

int skb__dlb_sum(int n, const skb_real *w, struct skb_dq *q, int antipodal, struct skb_dq *out)
{
    int pivot = 0;
    while (pivot < n - 1 && !(w[pivot] > 0))
        pivot++;
    if (antipodal == SKB_ANTIPODAL_PIVOT)
        skb__dq_antipodal_pivot(n, pivot, q);
    else if (antipodal == SKB_ANTIPODAL_HIERARCHY)
        skb__dq_antipodal_chain(n, q);
    /* the guard's reference without a square root per input: for convex
     * weights (sum w_i = 1, as validated) Jensen gives
     * (sum w_i |q_i0|)^2 <= sum w_i |q_i0|^2, equal when the |q_i0| are
     * equal (unit inputs: both are 1) */
    skb_real swq = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++) {
        skb_dq_axpy(w[i], &q[i], out);
        swq = swq + w[i] * skb_quat_dot(&q[i].r, &q[i].r);
    }
    return skb__dlb_cancelled2(out, swq) ? SKB_ECANCEL : 0;
}

int skb__dlb_cancelled(const struct skb_dq *b, skb_real ref)
{
    return skb__dlb_cancelled2(b, ref * ref) || !(ref > 0);
}

int skb__dlb_cancelled2(const struct skb_dq *b, skb_real ref2)
{
    skb_real rel2 = SKB_DLB_CANCEL_REL * SKB_DLB_CANCEL_REL;
    return !(ref2 > 0) || !(skb_quat_dot(&b->r, &b->r) >= rel2 * ref2);
}

size_t skb__dq_state_size(const struct skb_mesh *m)
{
    return SKB__DQ_STATE_HDR + (sizeof(struct skb_dq) + sizeof(skb_real) + sizeof(int)) * (size_t)m->njoints;
}

struct skb_dq *skb__dq_state_joints(void *state)
{
    return (struct skb_dq *)((char *)state + SKB__DQ_STATE_HDR);
}

const struct skb_dq *skb__dq_state_joints_c(const void *state)
{
    return (const struct skb_dq *)((const char *)state + SKB__DQ_STATE_HDR);
}

/* |q_j0| of every joint, after the joints' dual quaternions */
static skb_real *state_norms(const struct skb_mesh *m, void *state)
{
    return (skb_real *)(skb__dq_state_joints(state) + m->njoints);
}

const skb_real *skb__dq_state_norms_c(const struct skb_mesh *m, const void *state)
{
    return (const skb_real *)(skb__dq_state_joints_c(state) + m->njoints);
}

/* parent of joint j for the hierarchy rule; joint order as a chain without a tree */
static int parent_of(const struct skb_mesh *m, int j)
{
    if (!m->parent)
        return j - 1;
    int p = m->parent[j];
    return p >= 0 && p < m->njoints && p != j ? p : -1;
}

int skb__dq_prepare(const struct skb_mesh *m, const skb_real *mats, int antipodal, void *state)
{
    struct skb__dq_state *hdr = (struct skb__dq_state *)state;
    struct skb_dq *q = skb__dq_state_joints(state);
    skb_real *norm = state_norms(m, state);
    int *done = (int *)(norm + m->njoints);
    hdr->antipodal = antipodal;
    for (int j = 0; j < m->njoints; j++) {
        skb_dq_from_mat4(mats + 16 * j, &q[j]);
        /* one square root per joint and pose, none per vertex: the skin
         * path's cancellation guard sums w_i |q_i0| from this table */
        norm[j] = skb_quat_norm(&q[j].r);
        done[j] = 0;
    }
    if (antipodal != SKB_ANTIPODAL_HIERARCHY)
        return 0;
    /* DQ paper 4.1: <s_pi(i) q_pi(i), s_i q_i> >= 0, parents before children.
     * Each joint walks up to its first resolved ancestor (or a root) and the
     * path is resolved top-down; a cycle in a malformed parent array is cut
     * after njoints steps by treating the joint as a root. */
    for (int j = 0; j < m->njoints; j++) {
        while (!done[j]) {
            int k = j, steps = 0;
            while (steps < m->njoints) {
                int p = parent_of(m, k);
                if (p < 0 || done[p])
                    break;
                k = p;
                steps++;
            }
            int p = parent_of(m, k);
            if (p >= 0 && done[p] && skb_quat_dot(&q[p].r, &q[k].r) < 0)
                skb_dq_neg(&q[k], &q[k]);
            done[k] = 1;
        }
    }
    return 0;
}

/* in this file so the skin loops inline them (skb_math.c's are calls) */
static inline void cross3(const skb_real a[3], const skb_real b[3], skb_real o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static inline skb_real qdot(const struct skb_quat *a, const struct skb_quat *b)
{
    return a->w * b->w + a->x * b->x + a->y * b->y + a->z * b->z;
}

static inline void qaxpy(skb_real s, const struct skb_quat *q, struct skb_quat *o)
{
    o->w = o->w + s * q->w; o->x = o->x + s * q->x; o->y = o->y + s * q->y; o->z = o->z + s * q->z;
}

static inline void apply_n2(const struct skb_quat *r, const struct skb_quat *e, skb_real n2, const skb_real *x,
                            const skb_real *n, skb_real *x_out, skb_real *n_out)
{
    /* DQ paper Alg. 1 on c = b/|b0| with every product of two c components
     * written as the product of b components over n2 = <b0,b0>: one division
     * and no square root per vertex.  The translation 2 vec(ce c0*) does not
     * depend on the <c0,ce> part the dual normalisation removes (its vector
     * part is <c0,ce> vec(c0 c0*) = 0), so ce = be/|b0| is enough. */
    skb_real k = 2 / n2, a0 = r->w, ae = e->w;
    skb_real d0[3] = { r->x, r->y, r->z }, de[3] = { e->x, e->y, e->z }, c1[3], c2[3], c3[3];
    cross3(d0, x, c1);
    c1[0] = c1[0] + a0 * x[0]; c1[1] = c1[1] + a0 * x[1]; c1[2] = c1[2] + a0 * x[2];
    cross3(d0, c1, c2);
    cross3(d0, de, c3);
    for (int i = 0; i < 3; i++)
        x_out[i] = x[i] + k * (c2[i] + (a0 * de[i] - ae * d0[i] + c3[i]));
    if (!n || !n_out)
        return;
    cross3(d0, n, c1);
    c1[0] = c1[0] + a0 * n[0]; c1[1] = c1[1] + a0 * n[1]; c1[2] = c1[2] + a0 * n[2];
    cross3(d0, c1, c2);
    for (int i = 0; i < 3; i++)
        n_out[i] = n[i] + k * c2[i];
}

void skb__dq_apply_n2(const struct skb_quat *r, const struct skb_quat *e, skb_real n2, const skb_real *x,
                      const skb_real *n, skb_real *x_out, skb_real *n_out)
{
    apply_n2(r, e, n2, x, n, x_out, n_out);
}

void skb__dq_apply(const struct skb_dq *b, const skb_real *x, const skb_real *n,
                   skb_real *x_out, skb_real *n_out)
{
    apply_n2(&b->r, &b->d, qdot(&b->r, &b->r), x, n, x_out, n_out);
}

int skb__dq_gather(const struct skb_mesh *m, const void *state, int v, struct skb_dq *q, skb_real *w)
{
    const struct skb__dq_state *hdr = (const struct skb__dq_state *)state;
    const struct skb_dq *jq = skb__dq_state_joints_c(state);
    int n = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        skb_real wk = m->weight[SKB_MAX_INFLUENCES * v + k];
        if (!(wk > 0))
            continue;
        q[n] = jq[m->joint[SKB_MAX_INFLUENCES * v + k]];
        w[n++] = wk;
    }
    if (hdr->antipodal == SKB_ANTIPODAL_PIVOT && n > 1)
        skb__dq_antipodal_pivot(n, 0, q);
    return n;
}

/* blend: 4x4 -> dual quaternion (eq. 2.3), sum, normalise, back (thesis 4.4),
 * operation-minimal (the counted code is the timed code):
 *  - per input, q_i from the rotation and the sign s_i (Alg. 2, or the chain
 *    fallback of the hierarchy rule) go into the weight, w'_i = +-w_i (a
 *    negation); then R += w'_i q_i and E += t_i (w'_i q_i), a product by the
 *    pure quaternion t_i: E = 2 sum_i w'_i qe_i (eq. 2.3, the 1/2 deferred);
 *  - the normalised blend c = b/|b| with b = R + eps E/2 is never formed: its
 *    rotation is R's matrix divided by <R,R> (thesis 3.3) and its translation
 *    2 vec(ce c0*) = vec(E R*)/<R,R> (the <R,qe> part of the dual normalisation
 *    is a scalar and drops out of the vector part);
 *  - cancellation: inputs are validated rigid (|q_i| = 1 within 1e-6) and the
 *    weights convex, so sum_i w_i |q_i| = 1 to that tolerance and the test
 *    |R| < SKB_DLB_CANCEL_REL needs no square root per input.
 * Streams over the inputs (no limit on n, no buffer): the pivot first. */
static void dlb_input(const skb_real *m, struct skb_quat *q, skb_real t[3])
{
    skb_real rot[9];
    skb_mat4_to_rt(m, rot, t);
    skb_quat_from_mat3(rot, q);
}

static int dlb_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                     skb_real out[16], struct skb_blend_stats *st)
{
    struct skb_quat piv, prev, qi, wq, r, e;
    skb_real tp[3], t[3], rot[9];
    int pivot = 0;
    while (pivot < in->n - 1 && !(in->weights[pivot] > 0))
        pivot++;
    dlb_input(in->mats + 16 * pivot, &piv, tp);
    prev = piv;
    r.w = 0; r.x = 0; r.y = 0; r.z = 0;
    e = r;
    for (int i = 0; i < in->n; i++) {
        skb_real wi = in->weights[i];
        if (i == pivot) {
            qi = piv;
            t[0] = tp[0]; t[1] = tp[1]; t[2] = tp[2];
        } else {
            dlb_input(in->mats + 16 * i, &qi, t);
        }
        if (prm->antipodal == SKB_ANTIPODAL_PIVOT) {
            if (i != pivot && skb_quat_dot(&piv, &qi) < 0)
                wi = -wi;             /* Alg. 2: the sign goes into the weight */
        } else if (prm->antipodal == SKB_ANTIPODAL_HIERARCHY && i > 0 && skb_quat_dot(&prev, &qi) < 0) {
            skb_quat_neg(&qi, &qi);   /* chain fallback: no tree in a blend */
        }
        skb_quat_scale(&qi, wi, &wq);
        r.w = r.w + wq.w; r.x = r.x + wq.x; r.y = r.y + wq.y; r.z = r.z + wq.z;
        skb_quat_pure_mul_add(t, &wq, &e);
        prev = qi;
    }
    skb_real n2 = skb_quat_dot(&r, &r);
    if (!(n2 >= SKB_DLB_CANCEL_REL * SKB_DLB_CANCEL_REL) || !isfinite((double)n2))
        return SKB_ECANCEL;
    skb_quat_to_mat3_n2(&r, n2, rot);
    skb_dq_translation(&r, &e, 1 / n2, t);
    skb_mat4_from_rt(rot, t, out);
    return 0;
}

static int dlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    return skb__dq_prepare(m, p->mats, prm->antipodal, state);
}

/* one vertex's sum b = R + eps E (not normalised) straight from the joint
 * table: Algorithm 2's signs go into the weights (PIVOT), or the signs were
 * fixed in prepare (HIERARCHY, NONE); ref = sum w_i |q_i0| from the per-joint
 * norms.  Returns <R,R>, or -1 when the sum cancelled. */
static skb_real dlb_vertex_sum(const struct skb_mesh *m, const struct skb_dq *jq, const skb_real *jn,
                               int pivot_rule, int v, struct skb_quat *r, struct skb_quat *e)
{
    const int *jv = m->joint + SKB_MAX_INFLUENCES * v;
    const skb_real *wv = m->weight + SKB_MAX_INFLUENCES * v;
    const struct skb_quat *piv = NULL;
    skb_real ref = 0;
    r->w = 0; r->x = 0; r->y = 0; r->z = 0;
    *e = *r;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        skb_real w = wv[k];
        if (!(w > 0))
            continue;
        const struct skb_dq *q = jq + jv[k];
        ref = ref + w * jn[jv[k]];
        if (pivot_rule && !piv)
            piv = &q->r;
        else if (pivot_rule && qdot(piv, &q->r) < 0)
            w = -w;                       /* Alg. 2: the sign goes into the weight */
        qaxpy(w, &q->r, r);
        qaxpy(w, &q->d, e);
    }
    skb_real n2 = qdot(r, r), rel = SKB_DLB_CANCEL_REL * ref;
    return ref > 0 && n2 >= rel * rel ? n2 : -1;
}

static int dlb_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                    skb_real *pos_out, skb_real *nrm_out)
{
    const struct skb__dq_state *hdr = (const struct skb__dq_state *)state;
    const struct skb_dq *jq = skb__dq_state_joints_c(state);
    const skb_real *jn = skb__dq_state_norms_c(m, state);
    int pivot_rule = hdr->antipodal == SKB_ANTIPODAL_PIVOT;
    for (int v = v0; v < v1; v++) {
        struct skb_quat r, e;
        skb_real n2 = dlb_vertex_sum(m, jq, jn, pivot_rule, v, &r, &e);
        if (n2 < 0)
            return SKB_ECANCEL;
        /* DQ paper Alg. 1: no normalisation of b needed */
        apply_n2(&r, &e, n2, m->pos + 3 * v, m->nrm ? m->nrm + 3 * v : NULL, pos_out + 3 * v,
                         nrm_out ? nrm_out + 3 * v : NULL);
    }
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts dlb_flop_parts = {
    .per_transform = { "quat_from_mat3", "quat_pure_mul_add", NULL },
    .per_blend = { "quat_to_mat3_scaled", "dq_translation", NULL },
    .rest = "per transform: Algorithm 2's sign test (7, into the weight as a negation), w_i q_i (4) and its sum "
    "(4), the dual part E += t_i (w_i q_i) by the pure t_i (quat_pure_mul_add, 1/2 deferred): "
    "7 + 7 + 4 + 4 + 24 = 46 against the thesis's 49; per blend: <R,R> (7) shared by the cancellation test "
    "and the matrix, the translation vec(E R*)/<R,R> (dq_translation), the pivot's missing sign test (-7)",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_dlb = {
    .name = "dlb",
    .title = "DLB",
    .description = "dual quaternion linear blending: normalised weighted sum of dual quaternions",
    .seed_ref = "thesis 4.3; DQ paper 3.2, 4 (Alg. 1), 4.1 (Alg. 2)",
    .flags = SKB_MF_TABLE41 | SKB_MF_HEADLINE,
    .max_n = 0,
    .blend = dlb_blend,
    .state_size = skb__dq_state_size,
    .bind = NULL,
    .prepare = dlb_prepare,
    .skin = dlb_skin,
    .pose_stats = NULL,
    .f32 = SKB_FAST_F32(skb__dlb_f32),
    .refit = skb__refit_dlb,
    .flop_parts = &dlb_flop_parts,
};
