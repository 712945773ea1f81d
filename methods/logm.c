/* logm.c — log-matrix blending (Alexa; thesis 2.2.3, 4.1, 4.4; DQ paper 2.3):
 * exp(sum_i w_i log C_i), with the closed-form rigid log and exp (Rodrigues
 * formula for rigid transformations, the optimisation Table 4.1 counts).
 * Each log is the principal one (rotation angle <= pi), which is why the
 * blend is not shortest path (thesis 4.4, after Bloom et al.). */
#include <stddef.h>
#include "skb_method.h"

/* blend: 4x4 -> twist per input, weighted sum, -> 4x4 by exp */
static int logm_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                      skb_real out[16], struct skb_blend_stats *st)
{
    skb_real om[3] = { 0, 0, 0 }, v[3] = { 0, 0, 0 }, oi[3], vi[3];
    for (int i = 0; i < in->n; i++) {
        if (in->weights[i] == 0)
            continue;
        skb_mat4_log_rigid(in->mats + 16 * i, oi, vi);
        for (int k = 0; k < 3; k++) {
            om[k] = om[k] + in->weights[i] * oi[k];
            v[k] = v[k] + in->weights[i] * vi[k];
        }
    }
    skb_mat4_exp_rigid(om, v, out);
    return 0;
}

/* per-pose state: the twist (omega, v) of every joint (thesis 4.4: the logs
 * do not depend on the vertex) */
static size_t logm_state_size(const struct skb_mesh *m)
{
    return 6 * sizeof(skb_real) * (size_t)m->njoints;
}

static int logm_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                        const struct skb_params *prm, void *state)
{
    skb_real *tw = (skb_real *)state;
    if (p->scale)
        return SKB_ENOTSUP;      /* the rigid closed form needs rigid joints */
    for (int j = 0; j < m->njoints; j++)
        skb_mat4_log_rigid(p->mats + 16 * j, tw + 6 * j, tw + 6 * j + 3);
    return 0;
}

static int logm_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                     skb_real *pos_out, skb_real *nrm_out)
{
    const skb_real *tw = (const skb_real *)state;
    for (int v = v0; v < v1; v++) {
        skb_real s[6] = { 0, 0, 0, 0, 0, 0 }, b[16];
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
            skb_real w = m->weight[SKB_MAX_INFLUENCES * v + k];
            const skb_real *t = tw + 6 * m->joint[SKB_MAX_INFLUENCES * v + k];
            if (w == 0)
                continue;
            for (int e = 0; e < 6; e++)
                s[e] = s[e] + w * t[e];
        }
        skb_mat4_exp_rigid(s, s + 3, b);
        skb_mat4_apply(b, m->pos + 3 * v, pos_out + 3 * v);
        if (nrm_out && m->nrm)
            skb_mat4_apply_dir(b, m->nrm + 3 * v, nrm_out + 3 * v);   /* b is rigid */
    }
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts logm_flop_parts = {
    .per_transform = { "mat4_log_rigid", NULL },
    .per_blend = { "mat4_exp_rigid", NULL },
    .rest = "the weighted sum of the 6 log coordinates; log and exp are the closed-form Rodrigues formulas for rigid "
    "transforms (through the quaternion), the optimisation the thesis names for its 104n + 160 (4.4)",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_logm = {
    .name = "logm",
    .title = "Log",
    .description = "log-matrix blending exp(sum w_i log C_i), closed-form rigid log/exp",
    .seed_ref = "thesis 2.2.3, 4.1, 4.4; DQ paper 2.3",
    .flags = SKB_MF_TABLE41 | SKB_MF_LOG_BLEND,
    .max_n = 0,
    .blend = logm_blend,
    .state_size = logm_state_size,
    .bind = NULL,
    .prepare = logm_prepare,
    .skin = logm_skin,
    .pose_stats = NULL,
    .f32 = NULL,
    .flop_parts = &logm_flop_parts,
};
