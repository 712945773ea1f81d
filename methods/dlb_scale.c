/* dlb_scale.c — two-phase skinning with scale/shear joints (DQ paper 4.2):
 * phase 1 applies linear blending of the non-rigid parts S_j (pose->scale) to
 * the rest mesh, normals by the inverse transpose of the blended 3x3 (then
 * renormalised); phase 2 applies DLB of the rigid parts C_j (pose->mats), as
 * in dlb.c (same antipodality modes, same SKB_ECANCEL rule).  LBS is safe in
 * phase 1 because no rotations are blended there (DQ paper 4.2).  Without
 * pose->scale it is exactly dlb.  Skin only: a blend of (C_j, S_j) pairs
 * into one 4x4 would have to apply a vertex-dependent phase 1, so there is
 * no meaningful single-matrix form. */
#include <string.h>
#include "skb_dqblend.h"

/* the 3x4 rows of S_j follow the dual quaternion state, 64-aligned */
static size_t scale_offset(const struct skb_mesh *m)
{
    return (skb__dq_state_size(m) + 63) / 64 * 64;
}

static size_t dlb_scale_state_size(const struct skb_mesh *m)
{
    return scale_offset(m) + sizeof(skb_real) * 12 * (size_t)m->njoints;
}

static int dlb_scale_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                             const struct skb_params *prm, void *state)
{
    struct skb__dq_state *hdr = (struct skb__dq_state *)state;
    skb_real *rows = (skb_real *)((char *)state + scale_offset(m));
    int rc = skb__dq_prepare(m, p->mats, prm->antipodal, state);
    if (rc < 0)
        return rc;
    hdr->has_scale = p->scale != NULL;
    if (p->scale)
        for (int j = 0; j < m->njoints; j++)
            memcpy(rows + 12 * j, p->scale + 16 * j, 12 * sizeof(skb_real));
    return 0;
}

/* phase 1 on one vertex: x' = (sum w S) x, n' ~ (sum w S)^-T n, renormalised */
static void phase1(const struct skb_mesh *m, const skb_real *rows, int v, skb_real x[3], skb_real n[3])
{
    skb_real a[12] = { 0 };
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        skb_real w = m->weight[SKB_MAX_INFLUENCES * v + k];
        const skb_real *s = rows + 12 * m->joint[SKB_MAX_INFLUENCES * v + k];
        if (w == 0)
            continue;
        for (int e = 0; e < 12; e++)
            a[e] = a[e] + w * s[e];
    }
    const skb_real *p = m->pos + 3 * v;
    for (int r = 0; r < 3; r++)
        x[r] = a[4 * r] * p[0] + a[4 * r + 1] * p[1] + a[4 * r + 2] * p[2] + a[4 * r + 3];
    if (!m->nrm)
        return;
    /* cofactor matrix = det(A) A^-T: same direction as A^-T n up to the sign
     * of det, which is restored so a mirroring scale keeps normals outward */
    skb_real c[9];
    c[0] = a[5] * a[10] - a[6] * a[9];
    c[1] = a[6] * a[8] - a[4] * a[10];
    c[2] = a[4] * a[9] - a[5] * a[8];
    c[3] = a[2] * a[9] - a[1] * a[10];
    c[4] = a[0] * a[10] - a[2] * a[8];
    c[5] = a[1] * a[8] - a[0] * a[9];
    c[6] = a[1] * a[6] - a[2] * a[5];
    c[7] = a[2] * a[4] - a[0] * a[6];
    c[8] = a[0] * a[5] - a[1] * a[4];
    skb_real det = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
    const skb_real *q = m->nrm + 3 * v;
    for (int r = 0; r < 3; r++)
        n[r] = c[3 * r] * q[0] + c[3 * r + 1] * q[1] + c[3 * r + 2] * q[2];
    skb_real len = skb_v3_norm(n);
    if (det < 0)
        len = -len;
    if (len != 0)
        for (int r = 0; r < 3; r++)
            n[r] = n[r] / len;
}

static int dlb_scale_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                          skb_real *pos_out, skb_real *nrm_out)
{
    const struct skb__dq_state *hdr = (const struct skb__dq_state *)state;
    const skb_real *rows = (const skb_real *)((const char *)state + scale_offset(m));
    for (int v = v0; v < v1; v++) {
        struct skb_dq q[SKB_MAX_INFLUENCES], b;
        skb_real w[SKB_MAX_INFLUENCES], x[3], n[3];
        const skb_real *px = m->pos + 3 * v, *pn = m->nrm ? m->nrm + 3 * v : NULL;
        if (hdr->has_scale) {
            phase1(m, rows, v, x, n);
            px = x;
            pn = m->nrm ? n : NULL;
        }
        int cnt = skb__dq_gather(m, state, v, q, w);
        int rc = skb__dlb_sum(cnt, w, q, SKB_ANTIPODAL_NONE, &b);
        if (rc < 0)
            return rc;
        skb__dq_apply(&b, px, pn, pos_out + 3 * v, nrm_out ? nrm_out + 3 * v : NULL);
    }
    return 0;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_dlb_scale = {
    .name = "dlb_scale",
    .title = "DLB+scale",
    .description = "two-phase skinning: LBS of scale/shear joints, then DLB of the rigid parts (skin only)",
    .seed_ref = "DQ paper 4.2",
    .flags = SKB_MF_NONRIGID_IN | SKB_MF_TWO_PHASE,
    .max_n = 0,
    .blend = NULL,
    .state_size = dlb_scale_state_size,
    .bind = NULL,
    .prepare = dlb_scale_prepare,
    .skin = dlb_scale_skin,
    .pose_stats = NULL,
    .f32 = NULL,
};
