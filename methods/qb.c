/* qb.c — QB, Hejl's direct quaternion blending: rotations blended as
 * quaternions (signs by DQ paper Algorithm 2) about a fixed per-vertex centre
 * c, v' = Q (v - c) + sum w_i C_i c (DQ paper 2.3, Fig. 18/19; the form of
 * thesis eq. 3.7 with the given centre in place of SB's r_c).
 *
 * Blend path: the centre comes with the input ("center").  Skin path: the
 * mesh's per-vertex centres, or, when the mesh has none, a default from the
 * skeleton.  Hejl puts the centre in the joint between the bones that move
 * the vertex (DQ paper 2.3: "coincides with the joint nearest to vertex v",
 * the elbow for the arm); with one joint per bone origin that is the rest
 * position of an influencing joint whose parent also influences the vertex
 * (highest weight if several), else of the highest-weight joint. */
#include <stddef.h>
#include <stdlib.h>
#include "skb_method.h"
#include "skb_fast.h"

static int qb_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                    skb_real out[16], struct skb_blend_stats *st)
{
    int pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    if (!in->center)
        return SKB_ENOCENTER;
    if (skb_mat4_qlb(in->n, in->weights, in->mats, in->center, pivot, out) < 0)
        return SKB_ECANCEL;
    return 0;
}

/* Hejl's centre is a joint (DQ paper 2.3: "coincides with the joint nearest
 * to vertex v"), so the translation part sum_i w_i C_i c of a vertex takes
 * C_i c only for the few (influencing joint i, centre joint c) pairs the rig
 * uses: prepare computes each pair's C_i c once per pose (the per-joint
 * precomputation), the vertex loop only weights them (3 multiply-adds per
 * influence instead of a 3x4 matrix times c).  The pair value is the same
 * expression the per-vertex form evaluates, so the skin is unchanged bit for
 * bit.  A vertex whose centre is not its rule joint's rest position (a mesh
 * with its own centres) keeps the per-vertex form. */

/* state: quaternion + 3x4 per joint, default centre per vertex (used only
 * when the mesh has no centres), C_i c per pair; then the ints: the sign
 * rule, the pair count, (i, c) per pair, and per vertex slot its pair (-1:
 * the vertex uses the per-vertex form) */
struct qb_view {
    struct skb_quat *q;
    skb_real *rows;
    skb_real *center;
    skb_real *pair_pt;
    int *pivot;
    int *npairs;
    int *pair_joint;
    int *slot_pair;
};

/* pairs: at most one per vertex slot and at most one per joint pair */
static int qb_max_pairs(const struct skb_mesh *m)
{
    long a = (long)SKB_MAX_INFLUENCES * m->nverts, b = (long)m->njoints * m->njoints;
    return (int)(a < b ? a : b);
}

static struct qb_view qb_layout(const struct skb_mesh *m, const void *state)
{
    struct qb_view s;
    int mp = qb_max_pairs(m);
    s.q = (struct skb_quat *)state;
    s.rows = (skb_real *)(s.q + m->njoints);
    s.center = s.rows + 12 * m->njoints;
    s.pair_pt = s.center + (m->center ? 0 : 3 * m->nverts);
    s.pivot = (int *)(s.pair_pt + 3 * mp);
    s.npairs = s.pivot + 1;
    s.pair_joint = s.npairs + 1;
    s.slot_pair = s.pair_joint + 2 * mp;
    return s;
}

static size_t qb_state_size(const struct skb_mesh *m)
{
    size_t mp = (size_t)qb_max_pairs(m);
    return (sizeof(struct skb_quat) + 12 * sizeof(skb_real)) * (size_t)m->njoints
         + (m->center ? 0 : 3 * sizeof(skb_real) * (size_t)m->nverts) + 3 * sizeof(skb_real) * mp
         + sizeof(int) * (2 + 2 * mp + (size_t)SKB_MAX_INFLUENCES * m->nverts);
}

/* total weight of joint on vertex v (a joint may fill several slots) */
static skb_real joint_weight(const struct skb_mesh *m, int v, int joint)
{
    skb_real w = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++)
        if (m->joint[SKB_MAX_INFLUENCES * v + k] == joint)
            w = w + m->weight[SKB_MAX_INFLUENCES * v + k];
    return w;
}

int skb__qb_center_joint(const struct skb_mesh *m, int v)
{
    int best = -1, best_child = -1;
    skb_real wbest = -1, wchild = -1;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        int j = m->joint[SKB_MAX_INFLUENCES * v + k];
        skb_real w = joint_weight(m, v, j);
        if (!(w > 0))
            continue;
        if (w > wbest) {
            wbest = w;
            best = j;
        }
        if (m->parent && m->parent[j] >= 0 && joint_weight(m, v, m->parent[j]) > 0 && w > wchild) {
            wchild = w;
            best_child = j;
        }
    }
    return best_child >= 0 ? best_child : best;
}

int skb__qb_default_centers(const struct skb_mesh *m, skb_real *center)
{
    if (!m->joint_rest)
        return SKB_ENOCENTER;    /* neither per-vertex centres nor joint positions */
    for (int v = 0; v < m->nverts; v++) {
        int j = skb__qb_center_joint(m, v);
        for (int k = 0; k < 3; k++)
            center[3 * v + k] = m->joint_rest[3 * j + k];
    }
    return 0;
}

/* vertex v's centre is the rest position of its rule joint (Hejl) */
static int centre_is_joint(const struct skb_mesh *m, const skb_real *center, int v, int jc)
{
    for (int k = 0; k < 3; k++)
        if (!(center[3 * v + k] == m->joint_rest[3 * jc + k]))
            return 0;
    return 1;
}

/* the (joint, centre joint) pairs of the rig and each vertex slot's pair */
static int qb_bind_pairs(const struct skb_mesh *m, const skb_real *center, struct qb_view *s)
{
    int nj = m->njoints, mp = qb_max_pairs(m);
    int *map = (int *)malloc(sizeof(int) * ((size_t)nj * nj + 1));
    if (!map)
        return SKB_ENOMEM;
    for (long i = 0; i < (long)nj * nj; i++)
        map[i] = -1;
    *s->npairs = 0;
    for (int v = 0; v < m->nverts; v++) {
        int jc = m->joint_rest ? skb__qb_center_joint(m, v) : -1;
        int hejl = jc >= 0 && centre_is_joint(m, center, v, jc);
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
            int i = m->joint[SKB_MAX_INFLUENCES * v + k], *slot = s->slot_pair + SKB_MAX_INFLUENCES * v + k;
            *slot = -1;
            if (!hejl)
                continue;
            int *e = map + (long)i * nj + jc;
            if (*e < 0 && *s->npairs < mp) {
                *e = (*s->npairs)++;
                s->pair_joint[2 * *e] = i;
                s->pair_joint[2 * *e + 1] = jc;
            }
            *slot = *e;
        }
        /* a vertex is all-pairs or all per-vertex */
        for (int k = 0; k < SKB_MAX_INFLUENCES && hejl; k++)
            if (s->slot_pair[SKB_MAX_INFLUENCES * v + k] < 0)
                for (int q = 0; q < SKB_MAX_INFLUENCES; q++)
                    s->slot_pair[SKB_MAX_INFLUENCES * v + q] = -1;
    }
    free(map);
    return 0;
}

static int qb_bind(const struct skb_mesh *m, void *state)
{
    struct qb_view s = qb_layout(m, state);
    int rc;
    if (!m->center && (rc = skb__qb_default_centers(m, s.center)) < 0)
        return rc;
    return qb_bind_pairs(m, m->center ? m->center : s.center, &s);
}

static int qb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                      const struct skb_params *prm, void *state)
{
    struct qb_view s = qb_layout(m, state);
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    skb_qlb_prepare(m->njoints, p->mats, s.q, s.rows);
    *s.pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    /* C_i c per pair: the expression skb_qlb_vertex evaluates per vertex */
    for (int e = 0; e < *s.npairs; e++) {
        const skb_real *cj = s.rows + 12 * s.pair_joint[2 * e], *c = m->joint_rest + 3 * s.pair_joint[2 * e + 1];
        for (int k = 0; k < 3; k++)
            s.pair_pt[3 * e + k] = cj[4 * k] * c[0] + cj[4 * k + 1] * c[1] + cj[4 * k + 2] * c[2] + cj[4 * k + 3];
    }
    return 0;
}

/* one vertex from the pair values: skb_qlb_vertex with its translation sum
 * read from pair_pt (same operations in the same order) */
static int qb_vertex_pairs(const struct skb_mesh *m, const struct qb_view *s, const skb_real *c, int v,
                           skb_real *out, skb_real *nout)
{
    const int *joint = m->joint + SKB_MAX_INFLUENCES * v, *slot = s->slot_pair + SKB_MAX_INFLUENCES * v;
    const skb_real *w = m->weight + SKB_MAX_INFLUENCES * v, *x = m->pos + 3 * v;
    struct skb_quat q;
    skb_real rot[9], t[3], y[3];
    skb_quat_blend(SKB_MAX_INFLUENCES, w, joint, s->q, *s->pivot, &q);
    skb_real n2 = skb_quat_dot(&q, &q);
    if (!(n2 > SKB_QLB_MIN_NORM2))
        return -1;
    skb_quat_to_mat3_n2(&q, n2, rot);
    t[0] = 0; t[1] = 0; t[2] = 0;
    for (int i = 0; i < SKB_MAX_INFLUENCES; i++) {
        const skb_real *pt = s->pair_pt + 3 * slot[i];
        if (w[i] == 0)
            continue;
        for (int k = 0; k < 3; k++)
            t[k] = t[k] + w[i] * pt[k];
    }
    for (int k = 0; k < 3; k++)
        y[k] = x[k] - c[k];
    for (int k = 0; k < 3; k++)
        out[k] = rot[3 * k] * y[0] + rot[3 * k + 1] * y[1] + rot[3 * k + 2] * y[2] + t[k];
    if (nout) {
        const skb_real *nx = m->nrm + 3 * v;
        for (int k = 0; k < 3; k++)
            nout[k] = rot[3 * k] * nx[0] + rot[3 * k + 1] * nx[1] + rot[3 * k + 2] * nx[2];
    }
    return 0;
}

int skb__qb_pairs(const struct skb_mesh *m, const void *state, int *pair_vertices)
{
    struct qb_view s = qb_layout(m, state);
    int n = 0;
    for (int v = 0; v < m->nverts; v++)
        n += s.slot_pair[SKB_MAX_INFLUENCES * v] >= 0;
    if (pair_vertices)
        *pair_vertices = n;
    return *s.npairs;
}

const skb_real *skb__qb_pair_points(const struct skb_mesh *m, const void *state)
{
    return qb_layout(m, state).pair_pt;
}

int skb__qb_slot_pair(const struct skb_mesh *m, const void *state, int v, int k)
{
    return qb_layout(m, state).slot_pair[SKB_MAX_INFLUENCES * v + k];
}

static int qb_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                   skb_real *pos_out, skb_real *nrm_out)
{
    struct qb_view s = qb_layout(m, state);
    const skb_real *center = m->center ? m->center : s.center;
    int normals = nrm_out && m->nrm;
    for (int v = v0; v < v1; v++) {
        int rc = s.slot_pair[SKB_MAX_INFLUENCES * v] >= 0
                     ? qb_vertex_pairs(m, &s, center + 3 * v, v, pos_out + 3 * v, normals ? nrm_out + 3 * v : NULL)
                     : skb_qlb_vertex(SKB_MAX_INFLUENCES, m->joint + SKB_MAX_INFLUENCES * v,
                                      m->weight + SKB_MAX_INFLUENCES * v, s.q, s.rows, center + 3 * v, *s.pivot,
                                      m->pos + 3 * v, normals ? m->nrm + 3 * v : NULL, pos_out + 3 * v,
                                      normals ? nrm_out + 3 * v : NULL);
        if (rc < 0)
            return SKB_ECANCEL;
    }
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts qb_flop_parts = {
    .per_transform = { "quat_from_mat3", NULL },
    .per_blend = { "quat_to_mat3_scaled", NULL },
    .rest = "as qlb0, plus C_i c per transform and R c per blend (thesis eq. 3.7)",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_qb = {
    .name = "qb",
    .title = "QB",
    .description = "Hejl's quaternion blend about a fixed per-vertex centre (needs \"center\")",
    .seed_ref = "DQ paper 2.3, Fig. 18/19; thesis eq. 3.7",
    .flags = SKB_MF_NEEDS_CENTER | SKB_MF_JOINT_CENTERS,
    .max_n = 0,
    .blend = qb_blend,
    .state_size = qb_state_size,
    .bind = qb_bind,
    .prepare = qb_prepare,
    .skin = qb_skin,
    .pose_stats = NULL,
    .f32 = SKB_FAST_F32(skb__qb_f32),
    .flop_parts = &qb_flop_parts,
};
