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

/* state: quaternion + 3x4 per joint, default centre per vertex (used only
 * when the mesh has no centres), then the sign rule */
struct qb_view {
    struct skb_quat *q;
    skb_real *rows;
    skb_real *center;
    int *pivot;
};

static struct qb_view qb_layout(const struct skb_mesh *m, const void *state)
{
    struct qb_view s;
    s.q = (struct skb_quat *)state;
    s.rows = (skb_real *)(s.q + m->njoints);
    s.center = s.rows + 12 * m->njoints;
    s.pivot = (int *)(s.center + (m->center ? 0 : 3 * m->nverts));
    return s;
}

static size_t qb_state_size(const struct skb_mesh *m)
{
    return (sizeof(struct skb_quat) + 12 * sizeof(skb_real)) * (size_t)m->njoints
         + (m->center ? 0 : 3 * sizeof(skb_real) * (size_t)m->nverts) + sizeof(int);
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

static int qb_bind(const struct skb_mesh *m, void *state)
{
    struct qb_view s = qb_layout(m, state);
    if (m->center)
        return 0;
    return skb__qb_default_centers(m, s.center);
}

static int qb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                      const struct skb_params *prm, void *state)
{
    struct qb_view s = qb_layout(m, state);
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    skb_qlb_prepare(m->njoints, p->mats, s.q, s.rows);
    *s.pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    return 0;
}

static int qb_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                   skb_real *pos_out, skb_real *nrm_out)
{
    struct qb_view s = qb_layout(m, state);
    const skb_real *center = m->center ? m->center : s.center;
    int normals = nrm_out && m->nrm;
    for (int v = v0; v < v1; v++)
        if (skb_qlb_vertex(SKB_MAX_INFLUENCES, m->joint + SKB_MAX_INFLUENCES * v,
                           m->weight + SKB_MAX_INFLUENCES * v, s.q, s.rows, center + 3 * v,
                           *s.pivot, m->pos + 3 * v, normals ? m->nrm + 3 * v : NULL,
                           pos_out + 3 * v, normals ? nrm_out + 3 * v : NULL) < 0)
            return SKB_ECANCEL;
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
    .flags = SKB_MF_NEEDS_CENTER,
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
