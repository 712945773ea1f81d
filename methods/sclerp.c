/* sclerp.c — screw linear interpolation of exactly two rigid transforms:
 * ScLERP(t; p, q) = p (p* q)^t with t the weight of the second transform
 * (thesis 4.3, Lemma 4.4).  Shortest path: q is negated when <p0, q0> < 0,
 * unless prm->antipodal is SKB_ANTIPODAL_NONE.  Blend only (max_n = 2: the
 * registry wrapper rejects more transforms with a one-line error). */
#include "skb_method.h"

/* ScLERP from the two matrices with the fewest operations (the counted code
 * is the timed code; thesis 4.4 counts 4x4 in and out):
 *  - p* q is the relative transform P^-1 Q = (Rp^T Rq, Rp^T (tq - tp)): its
 *    rotation is p0* q0 (one quaternion product), its dual part (1/2) t r
 *    from the translation Rp^T (tq - tp) formed on the matrix, instead of two
 *    full conversions and a full dual quaternion product;
 *  - shortest path: <p0, q0> is the scalar part of p0* q0, so the sign test
 *    and the flip (a negation) act on the relative dual quaternion;
 *  - p (p* q)^t back to 4x4: rotation p0 c0 (one quaternion product) and
 *    translation tp + Rp t_c with t_c = 2 vec(ce c0*), instead of a full dual
 *    quaternion product and a full conversion. */
static int sclerp_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                        skb_real out[16], struct skb_blend_stats *st)
{
    struct skb_dq p, d, dt;
    struct skb_quat q0, pc, r;
    skb_real rp[9], rq[9], tp[3], tq[3], dtq[3], trel[3], tc[3], rot[9], t[3];
    if (in->n < 2) {
        skb_dq_from_mat4(in->mats, &p);
        skb_dq_to_mat4(&p, out);   /* one transform: ScLERP(0; p, .) = p */
        return 0;
    }
    skb_mat4_to_rt(in->mats, rp, tp);
    skb_mat4_to_rt(in->mats + 16, rq, tq);
    skb_quat_from_mat3(rp, &p.r);
    skb_quat_from_mat3(rq, &q0);
    skb_quat_conj(&p.r, &pc);
    skb_quat_mul(&pc, &q0, &r);
    if (prm->antipodal != SKB_ANTIPODAL_NONE && r.w < 0)
        skb_quat_neg(&r, &r);
    for (int k = 0; k < 3; k++)
        dtq[k] = tq[k] - tp[k];
    for (int k = 0; k < 3; k++)   /* Rp^T (tq - tp) */
        trel[k] = rp[k] * dtq[0] + rp[3 + k] * dtq[1] + rp[6 + k] * dtq[2];
    skb_dq_from_qt(&r, trel, &d);
    skb_dq_pow(&d, in->weights[1], &dt);
    skb_quat_mul(&p.r, &dt.r, &r);
    skb_quat_to_mat3(&r, rot);
    skb_dq_translation(&dt.r, &dt.d, 2, tc);
    for (int k = 0; k < 3; k++)   /* tp + Rp t_c */
        t[k] = tp[k] + (rp[3 * k] * tc[0] + rp[3 * k + 1] * tc[1] + rp[3 * k + 2] * tc[2]);
    skb_mat4_from_rt(rot, t, out);
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts sclerp_flop_parts = {
    .per_transform = { NULL },
    .per_blend = { "quat_from_mat3", "quat_from_mat3", "quat_mul", "dq_from_qt", "dq_pow", "quat_mul",
    "quat_to_mat3", "dq_translation", NULL },
    .rest = "the relative translation Rp^T (tq - tp) (3 + 15) and tp + Rp t_c (15 + 3). Route: the thesis defines "
    "ScLERP on dual quaternions, p (p* q)^t (4.3, Lemma 4.4), and counts the matrix <-> dual quaternion "
    "conversions in (4.4: 'the FLOPS for matrix <-> dual quaternion conversions are included in Table "
    "4.1'). Counted here: the same dual-quaternion power, with p* q formed from the matrices (rotation "
    "p0* q0, one quaternion product; translation of P^-1 Q on the matrix, then its dual part) and "
    "p (p* q)^t returned to 4x4 as rotation p0 c0 and translation tp + Rp t_c: two matrix->quaternion "
    "conversions, two quaternion products, the power, one quaternion->matrix conversion and one translation "
    "extraction, and no "
    "full dual quaternion product (88 each: two of them plus two full conversions made the former count)",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_sclerp = {
    .name = "sclerp",
    .title = "ScLERP",
    .description = "screw linear interpolation p(p*q)^t of exactly two transforms",
    .seed_ref = "thesis 4.3, Lemma 4.4",
    .flags = SKB_MF_TABLE41 | SKB_MF_EXACT_PAIR,
    .max_n = 2,
    .blend = sclerp_blend,
    .state_size = NULL,
    .bind = NULL,
    .prepare = NULL,
    .skin = NULL,
    .pose_stats = NULL,
    .f32 = NULL,
    .flop_parts = &sclerp_flop_parts,
};
