/* nlerp_mat.c — the extra method of tests/extra_method.sh (its
 * acceptance test), added to a copy of the tree by exactly the steps of
 * ARCHITECTURE.md "Adding a method": copied to methods/nlerp_mat.c and listed in
 * methods/registry.c.  Not part of the build here (tests/extra/ is not a
 * source directory).
 *
 * Normalised linear matrix blending: the weighted sum of the 3x4 matrices
 * (as LBS, thesis eq. 2.6), whose 3x3 part is then made a rotation again by
 * Gram-Schmidt on its columns (x, then y against x, z = x cross y).  The
 * result is rigid, but neither bi-invariant nor constant speed: a plain,
 * cheap method of the kind a newcomer would try.  Blend and skin hooks only:
 * no f32 kernel, no refit hook, no shader — the report must say so. */
#include <string.h>
#include "skb_method.h"

/* the 3x3 of row-major b (12 numbers) made orthonormal in place; the
 * translation column is kept.  SKB_ENUMERIC for a degenerate blend */
static int orthonormalise(skb_real b[12])
{
    skb_real x[3] = { b[0], b[4], b[8] }, y[3] = { b[1], b[5], b[9] }, z[3];
    skb_real nx = skb_v3_norm(x);
    if (!(nx > 0))
        return SKB_ENUMERIC;
    for (int r = 0; r < 3; r++)
        x[r] = x[r] / nx;
    skb_real d = skb_v3_dot(x, y);
    for (int r = 0; r < 3; r++)
        y[r] = y[r] - d * x[r];
    skb_real ny = skb_v3_norm(y);
    if (!(ny > 0))
        return SKB_ENUMERIC;
    for (int r = 0; r < 3; r++)
        y[r] = y[r] / ny;
    skb_v3_cross(x, y, z);
    for (int r = 0; r < 3; r++) {
        b[4 * r] = x[r];
        b[4 * r + 1] = y[r];
        b[4 * r + 2] = z[r];
    }
    return 0;
}

static int nlerp_mat_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                           skb_real out[16], struct skb_blend_stats *st)
{
    for (int k = 0; k < 12; k++)
        out[k] = in->weights[0] * in->mats[k];
    for (int i = 1; i < in->n; i++)
        for (int k = 0; k < 12; k++)
            out[k] = out[k] + in->weights[i] * in->mats[16 * i + k];
    out[12] = 0; out[13] = 0; out[14] = 0; out[15] = 1;
    return orthonormalise(out);
}

/* per-pose state: the 3x4 part of every joint matrix */
static size_t nlerp_mat_state_size(const struct skb_mesh *m)
{
    return sizeof(skb_real) * 12 * (size_t)m->njoints;
}

static int nlerp_mat_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                             const struct skb_params *prm, void *state)
{
    skb_real *rows = (skb_real *)state;
    for (int j = 0; j < m->njoints; j++)
        memcpy(rows + 12 * j, p->mats + 16 * j, 12 * sizeof(skb_real));
    return 0;
}

static int nlerp_mat_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                          skb_real *pos_out, skb_real *nrm_out)
{
    const skb_real *rows = (const skb_real *)state;
    for (int v = v0; v < v1; v++) {
        skb_real b[12] = { 0 };
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
            skb_real w = m->weight[SKB_MAX_INFLUENCES * v + k];
            const skb_real *c = rows + 12 * m->joint[SKB_MAX_INFLUENCES * v + k];
            if (w == 0)
                continue;
            for (int e = 0; e < 12; e++)
                b[e] = b[e] + w * c[e];
        }
        int rc = orthonormalise(b);
        if (rc < 0)
            return rc;
        const skb_real *x = m->pos + 3 * v;
        for (int r = 0; r < 3; r++)
            pos_out[3 * v + r] = b[4 * r] * x[0] + b[4 * r + 1] * x[1] + b[4 * r + 2] * x[2] + b[4 * r + 3];
        if (nrm_out && m->nrm) {
            const skb_real *n = m->nrm + 3 * v;
            for (int r = 0; r < 3; r++)
                nrm_out[3 * v + r] = b[4 * r] * n[0] + b[4 * r + 1] * n[1] + b[4 * r + 2] * n[2];
        }
    }
    return 0;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_nlerp_mat = {
    .name = "nlerp_mat",
    .title = "NLERP matrix",
    .description = "linear matrix blend, rotation re-orthonormalised by Gram-Schmidt (test extra)",
    .seed_ref = "tests/extra/nlerp_mat.c",
    .flags = 0,
    .max_n = 0,
    .blend = nlerp_mat_blend,
    .state_size = nlerp_mat_state_size,
    .bind = NULL,
    .prepare = nlerp_mat_prepare,
    .skin = nlerp_mat_skin,
    .pose_stats = NULL,
    .f32 = NULL,
};
