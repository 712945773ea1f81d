/* qlb0.c — QLB'_0 (thesis 3.3, eq. 3.5): the rotations are blended as
 * quaternions (quaternion linear blending, thesis eq. 3.3, signs fixed against
 * a pivot by DQ paper Algorithm 2) and renormalised, the translations are
 * blended linearly.  The rotation is therefore about the origin, which makes
 * the result drift when the origin is not the joint (DQ paper 2.2). */
#include <stddef.h>
#include "skb_method.h"
#include "skb_fast.h"

/* blend: 4x4 -> (quaternion, translation) per input, QLB, -> 4x4 */
static int qlb0_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                      skb_real out[16], struct skb_blend_stats *st)
{
    int pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    if (skb_mat4_qlb(in->n, in->weights, in->mats, NULL, pivot, out) < 0)
        return SKB_ECANCEL;
    return 0;
}

/* per-pose state: a quaternion and the 3x4 matrix per joint, then the sign
 * rule; SKB_ANTIPODAL_HIERARCHY is served by the per-vertex pivot here */
static size_t qlb0_state_size(const struct skb_mesh *m)
{
    return (sizeof(struct skb_quat) + 12 * sizeof(skb_real)) * (size_t)m->njoints + sizeof(int);
}

static int qlb0_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                        const struct skb_params *prm, void *state)
{
    struct skb_quat *q = (struct skb_quat *)state;
    skb_real *rows = (skb_real *)(q + m->njoints);
    int *pivot = (int *)(rows + 12 * m->njoints);
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    skb_qlb_prepare(m->njoints, p->mats, q, rows);
    *pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    return 0;
}

static int qlb0_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                     skb_real *pos_out, skb_real *nrm_out)
{
    const struct skb_quat *q = (const struct skb_quat *)state;
    const skb_real *rows = (const skb_real *)(q + m->njoints);
    int pivot = *(const int *)(rows + 12 * m->njoints);
    int normals = nrm_out && m->nrm;
    for (int v = v0; v < v1; v++)
        if (skb_qlb_vertex(SKB_MAX_INFLUENCES, m->joint + SKB_MAX_INFLUENCES * v,
                           m->weight + SKB_MAX_INFLUENCES * v, q, rows, NULL, pivot,
                           m->pos + 3 * v, normals ? m->nrm + 3 * v : NULL,
                           pos_out + 3 * v, normals ? nrm_out + 3 * v : NULL) < 0)
            return SKB_ECANCEL;
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts qlb0_flop_parts = {
    .per_transform = { "quat_from_mat3", NULL },
    .per_blend = { "quat_to_mat3_scaled", NULL },
    .rest = "per transform: Algorithm 2's sign test (a 4-term dot, 7; not for the pivot), the weighted quaternion "
    "sum (8) and translation sum (6); 7 + 7 + 8 + 6 = 28 as the thesis; per blend: the pivot's missing "
    "sign test (-7); <s,s> is formed once for the cancellation test and the matrix",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_qlb0 = {
    .name = "qlb0",
    .title = "QLB'0",
    .description = "quaternion linear blend of rotations about the origin, translations blended linearly",
    .seed_ref = "thesis 3.3, eq. 3.5; DQ paper 2.2, Algorithm 2",
    .flags = SKB_MF_TABLE41 | SKB_MF_QUAT_LINEAR,
    .max_n = 0,
    .blend = qlb0_blend,
    .state_size = qlb0_state_size,
    .bind = NULL,
    .prepare = qlb0_prepare,
    .skin = qlb0_skin,
    .pose_stats = NULL,
    .f32 = SKB_FAST_F32(skb__qlb0_f32),
    .flop_parts = &qlb0_flop_parts,
};
