/* blend_lbs_dqs.c — a per-vertex mix of two registry methods' results:
 * v' = (1 - a) v'_LBS + a v'_DLB, the same for normals, with a =
 * skb_params.lbs_dqs_weight (beyond the seeds: Autodesk Maya's "weight
 * blended" skinning method and Houdini's "blend by attribute" mix linear and
 * dual quaternion skinning per vertex), or per vertex a = a_v painted in
 * skb_params.lbs_dqs_painted (e.g. skb_lbs_dqs_paint_near_joint: DLB at the
 * arm's elbow, LBS away from it); the blend form, which has no vertex,
 * takes the global weight.
 * Both parts are the registry's own `linear` and `dlb` (thesis 2.2.1
 * eq. 2.6; thesis 4.3, DQ paper 4 Alg. 1), called through their hooks on
 * the input this method's wrapper already validated.  The blend form is the
 * same mix of the two blended matrices: positions are linear in the matrix,
 * so skin and blend agree. */
#include <string.h>
#include "skb_method.h"
#include "skb_mix.h"

extern const struct skb_method skb_method_linear;
extern const struct skb_method skb_method_dlb;

#define MIX_ALIGN 64

static int mix_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                     skb_real out[16], struct skb_blend_stats *st)
{
    skb_real l[16], d[16], a = prm->lbs_dqs_weight;
    int rc = skb_method_linear.blend(in, prm, l, st);
    if (rc < 0 || (rc = skb_method_dlb.blend(in, prm, d, st)) < 0)
        return rc;
    for (int k = 0; k < 16; k++)
        out[k] = (1 - a) * l[k] + a * d[k];
    return 0;
}

/* the mix of one prepare: the global weight and the painted ones (the
 * caller's array, alive while it skins with these parameters) */
struct mix_w {
    skb_real a;
    const skb_real *painted;
};

/* state: linear's, padded to MIX_ALIGN, then dlb's, then the weights */
static size_t lin_size(const struct skb_mesh *m)
{
    size_t s = skb_method_linear.state_size ? skb_method_linear.state_size(m) : 0;
    return (s + MIX_ALIGN - 1) / MIX_ALIGN * MIX_ALIGN;
}

static size_t dq_size(const struct skb_mesh *m)
{
    size_t s = skb_method_dlb.state_size ? skb_method_dlb.state_size(m) : 0;
    return (s + MIX_ALIGN - 1) / MIX_ALIGN * MIX_ALIGN;
}

static size_t mix_state_size(const struct skb_mesh *m)
{
    return lin_size(m) + dq_size(m) + sizeof(struct mix_w);
}

static void *dq_state(const struct skb_mesh *m, const void *state)
{
    return (char *)state + lin_size(m);
}

static struct mix_w *mix_weight(const struct skb_mesh *m, const void *state)
{
    return (struct mix_w *)((char *)state + lin_size(m) + dq_size(m));
}

static int mix_bind(const struct skb_mesh *m, void *state)
{
    int rc = skb_method_linear.bind ? skb_method_linear.bind(m, state) : 0;
    if (rc == 0 && skb_method_dlb.bind)
        rc = skb_method_dlb.bind(m, dq_state(m, state));
    return rc;
}

static int mix_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    for (int v = 0; prm->lbs_dqs_painted && v < m->nverts; v++)
        if (!(prm->lbs_dqs_painted[v] >= 0 && prm->lbs_dqs_painted[v] <= 1))
            return SKB_EINVAL;   /* a share of DLB: in [0, 1], not NaN */
    int rc = skb_method_linear.prepare(m, p, prm, state);
    if (rc == 0)
        rc = skb_method_dlb.prepare(m, p, prm, dq_state(m, state));
    mix_weight(m, state)->a = prm->lbs_dqs_weight;
    mix_weight(m, state)->painted = prm->lbs_dqs_painted;
    return rc;
}

/* vertices skinned by LBS at a time while their DLB values wait on the
 * stack (hooks own no scratch memory): one LBS call per chunk, not per
 * vertex (a call per vertex cost more than the mix itself) */
#define MIX_CHUNK 64

/* out = (1 - a) out + a kept, 3 per vertex, a per vertex (painted) or one
 * (painted NULL); the choice is made once per chunk, not per vertex */
static void mix_into(skb_real *out, const skb_real *kept, int n, skb_real a, const skb_real *painted)
{
    if (painted) {
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                out[3 * i + k] = (1 - painted[i]) * out[3 * i + k] + painted[i] * kept[3 * i + k];
    } else {
        for (int i = 0; i < 3 * n; i++)
            out[i] = (1 - a) * out[i] + a * kept[i];
    }
}

/* DLB over the range first; then chunk by chunk its values kept aside,
 * LBS into the same slots and the mix */
static int mix_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                    skb_real *pos_out, skb_real *nrm_out)
{
    const struct mix_w *mw = mix_weight(m, state);
    int normals = nrm_out && m->nrm;
    int rc = skb_method_dlb.skin(m, dq_state(m, state), v0, v1, pos_out, nrm_out);
    for (int c0 = v0; c0 < v1 && rc == 0; c0 += MIX_CHUNK) {
        int n = v1 - c0 < MIX_CHUNK ? v1 - c0 : MIX_CHUNK;
        skb_real d[3 * MIX_CHUNK], dn[3 * MIX_CHUNK];
        const skb_real *painted = mw->painted ? mw->painted + c0 : NULL;
        memcpy(d, pos_out + 3 * (size_t)c0, sizeof(skb_real) * 3 * (size_t)n);
        if (normals)
            memcpy(dn, nrm_out + 3 * (size_t)c0, sizeof(skb_real) * 3 * (size_t)n);
        if ((rc = skb_method_linear.skin(m, state, c0, c0 + n, pos_out, nrm_out)) < 0)
            break;
        mix_into(pos_out + 3 * (size_t)c0, d, n, mw->a, painted);
        if (normals)
            mix_into(nrm_out + 3 * (size_t)c0, dn, n, mw->a, painted);
    }
    return rc;
}

int skb_lbs_dqs_paint_near_joint(const struct skb_mesh *m, int joint, skb_real radius, skb_real *out)
{
    if (!m->joint_rest)
        return SKB_ENOCENTER;
    if (joint < 0 || joint >= m->njoints || !(radius > 0))
        return SKB_EINVAL;
    for (int v = 0; v < m->nverts; v++) {
        skb_real d[3];
        for (int k = 0; k < 3; k++)
            d[k] = m->pos[3 * v + k] - m->joint_rest[3 * joint + k];
        skb_real a = 1 - skb_v3_norm(d) / radius;
        out[v] = a > 0 ? a : 0;
    }
    return 0;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_blend_lbs_dqs = {
    .name = "blend_lbs_dqs",
    .title = "LBS/DQS mix",
    .description = "per-vertex mix of LBS and DLB results by a weight (Maya's weight-blended skinning)",
    .seed_ref = "thesis eq. 2.6 and 4.3, mixed as Maya's weight-blended skinning (beyond the seeds)",
    .flags = SKB_MF_PAINTED,
    .max_n = 0,
    .blend = mix_blend,
    .state_size = mix_state_size,
    .bind = mix_bind,
    .prepare = mix_prepare,
    .skin = mix_skin,
};
