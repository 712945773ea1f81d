/* sclerp.c — screw linear interpolation of exactly two rigid transforms:
 * ScLERP(t; p, q) = p (p* q)^t with t the weight of the second transform
 * (thesis 4.3, Lemma 4.4).  Shortest path: q is negated when <p0, q0> < 0,
 * unless prm->antipodal is SKB_ANTIPODAL_NONE.  Blend only (max_n = 2: the
 * registry wrapper rejects more transforms with a one-line error). */
#include "skb_method.h"

static int sclerp_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                        skb_real out[16], struct skb_blend_stats *st)
{
    struct skb_dq p, q, pc, d, dt, r;
    skb_dq_from_mat4(in->mats, &p);
    if (in->n < 2) {
        skb_dq_to_mat4(&p, out);   /* one transform: ScLERP(0; p, .) = p */
        return 0;
    }
    skb_dq_from_mat4(in->mats + 16, &q);
    if (prm->antipodal != SKB_ANTIPODAL_NONE && skb_quat_dot(&p.r, &q.r) < 0)
        skb_dq_neg(&q, &q);
    skb_dq_conj(&p, &pc);            /* inverse of a unit dual quaternion */
    skb_dq_mul(&pc, &q, &d);
    skb_dq_pow(&d, in->weights[1], &dt);
    skb_dq_mul(&p, &dt, &r);
    skb_dq_to_mat4(&r, out);
    return 0;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_sclerp = {
    .name = "sclerp",
    .title = "ScLERP",
    .description = "screw linear interpolation p(p*q)^t of exactly two transforms",
    .seed_ref = "thesis 4.3, Lemma 4.4",
    .flags = SKB_MF_TABLE41,
    .max_n = 2,
    .blend = sclerp_blend,
    .state_size = NULL,
    .bind = NULL,
    .prepare = NULL,
    .skin = NULL,
    .pose_stats = NULL,
    .f32 = NULL,
};
