/* linear.c — linear blend skinning (LBS): the weighted sum of the joint
 * matrices (thesis 2.2.1, eq. 2.6).  The simplest method, and the template
 * that shows a newcomer the whole contract of struct skb_method. */
#include <math.h>
#include <string.h>
#include "skb_method.h"
#include "skb_fast.h"

/* blend: sum_i w_i C_i on the 3x4 part; no conversion in or out (thesis 4.4) */
static int linear_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                        skb_real out[16], struct skb_blend_stats *st)
{
    for (int k = 0; k < 12; k++)
        out[k] = in->weights[0] * in->mats[k];
    for (int i = 1; i < in->n; i++)
        for (int k = 0; k < 12; k++)
            out[k] = out[k] + in->weights[i] * in->mats[16 * i + k];
    out[12] = 0; out[13] = 0; out[14] = 0; out[15] = 1;
    return 0;
}

/* per-pose state: the 3x4 part of C_j S_j for every joint */
static size_t linear_state_size(const struct skb_mesh *m)
{
    return sizeof(skb_real) * 12 * (size_t)m->njoints;
}

static int linear_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                          const struct skb_params *prm, void *state)
{
    skb_real *rows = (skb_real *)state;
    for (int j = 0; j < m->njoints; j++) {
        skb_real c[16];
        if (p->scale)
            skb_mat4_mul(p->mats + 16 * j, p->scale + 16 * j, c);
        else
            memcpy(c, p->mats + 16 * j, sizeof c);
        memcpy(rows + 12 * j, c, 12 * sizeof(skb_real));
    }
    return 0;
}

static int linear_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
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
            /* unrolled, b stays in registers instead of a stack array
             * (measured: the stack form ran 40% slower in some builds) */
#pragma GCC unroll 12
            for (int e = 0; e < 12; e++)
                b[e] = b[e] + w * c[e];
        }
        const skb_real *x = m->pos + 3 * v;
        for (int r = 0; r < 3; r++)
            pos_out[3 * v + r] = b[4 * r] * x[0] + b[4 * r + 1] * x[1] + b[4 * r + 2] * x[2] + b[4 * r + 3];
        if (nrm_out && m->nrm) {
            /* the blended 3x3 is not orthogonal: renormalise the normal */
            const skb_real *n = m->nrm + 3 * v;
            skb_real o[3];
            for (int r = 0; r < 3; r++)
                o[r] = b[4 * r] * n[0] + b[4 * r + 1] * n[1] + b[4 * r + 2] * n[2];
            skb_real len = skb_v3_norm(o);
            for (int r = 0; r < 3; r++)
                nrm_out[3 * v + r] = len > 0 ? o[r] / len : o[r];
        }
    }
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts linear_flop_parts = {
    .per_transform = { NULL },
    .per_blend = { NULL },
    .rest = "no conversion: the weighted sum of the 12 entries of the 3x4 part, each n multiplications and n - 1 "
    "additions: 12 (2n - 1) = 24n - 12, the minimum for this sum (no entry can be skipped, no product "
    "shared). It is at or below the thesis's 23n for every n <= 12 (24n - 12 <= 23n <=> n <= 12): at "
    "n = 1 the blend is 12 FLOPs, not 23, so no count of the form 23n is exact; 23n = 12n multiplications "
    "+ 11n additions matches no arrangement of this sum",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_linear = {
    .name = "linear",
    .title = "Linear",
    .description = "linear blend skinning: weighted sum of the 4x4 matrices",
    .seed_ref = "thesis 2.2.1, eq. 2.6",
    .flags = SKB_MF_TABLE41 | SKB_MF_NONRIGID_IN | SKB_MF_RATIO_REF | SKB_MF_FCL_PEER,
    .max_n = 0,
    .blend = linear_blend,
    .state_size = linear_state_size,
    .bind = NULL,
    .prepare = linear_prepare,
    .skin = linear_skin,
    .pose_stats = NULL,
    .f32 = SKB_FAST_F32(skb__linear_f32),
    .refit = skb__refit_lbs,
    .flop_parts = &linear_flop_parts,
};
