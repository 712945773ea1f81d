/* sb.c — spherical blending / spherical blend skinning (SB, SBS; thesis
 * 3.1-3.3, Algorithm 3.1): QLB'_{r_c}, the quaternion linear blend of the
 * rotations about the rotation centre r_c, v' = Q (v - r_c) + sum w_i C_i r_c
 * (thesis eq. 3.7).  r_c is the least-squares, minimal-norm solution of
 * C_a r = C_b r over all pairs of the vertex's joints (thesis eq. 3.1,
 * skb_rotcenter, GSL SVD).
 *
 * r_c depends on the joint set only, not on the weights (thesis 3.1), so the
 * skin path finds the distinct joint sets of the mesh at bind and solves one
 * SVD per set per pose in prepare (the cache of Alg. 3.1 lines 2-6; their
 * number is thesis Table 3.2's "SVD executions", reported as pose_stats
 * solves).  A joint set is the set of distinct joints with non-zero weight;
 * with fewer than two there is no pair and r_c = 0 (any centre gives C_j).
 * The blend path builds the same set from its distinct inputs of non-zero
 * weight. */
#include <stddef.h>
#include "skb_method.h"
#include "skb_sb_internal.h"

/* keep the distinct transforms of a set: a transform given twice (a joint
 * listed twice, or two joints that happen to move identically in this pose)
 * is one element, in both paths, so skin and blend solve the same eq. 3.1
 * system; repeating a transform would re-weight the least squares */
static int distinct_transforms(int n, const skb_real *const *mats, const skb_real **out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int k = 0; k < m && !dup; k++) {
            dup = 1;
            for (int e = 0; e < 12 && dup; e++)
                dup = out[k][e] == mats[i][e];
        }
        if (!dup)
            out[m++] = mats[i];
    }
    return m;
}

static int sb_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                    skb_real out[16], struct skb_blend_stats *st)
{
    const skb_real *given[SKB_ROTCENTER_MAX_N], *set[SKB_ROTCENTER_MAX_N];
    skb_real rc[3];
    int pivot = prm->antipodal != SKB_ANTIPODAL_NONE, n = 0;
    if (in->n > SKB_ROTCENTER_MAX_N)
        return SKB_ETOOMANY;
    for (int i = 0; i < in->n; i++)
        if (in->weights[i] != 0)
            given[n++] = in->mats + 16 * i;
    n = distinct_transforms(n, given, set);
    if (skb_rotcenter(n, set, rc) < 0)
        return SKB_ENUMERIC;
    if (skb_mat4_qlb(in->n, in->weights, in->mats, rc, pivot, out) < 0)
        return SKB_ECANCEL;
    return 0;
}

/* one joint set: its joints in increasing order and its centre this pose */
struct sb_set {
    skb_real center[3];
    int joint[SKB_MAX_INFLUENCES];
    int n;
};

/* state: quaternion + 3x4 per joint, a set per vertex at most, the set index
 * of each vertex (-1: fewer than two joints), then the counters */
struct sb_head {
    int nsets;
    int solves;                /* SVDs in the last prepare */
    int pivot;
};

struct sb_view {
    struct skb_quat *q;
    skb_real *rows;
    struct sb_set *sets;
    int *vset;
    struct sb_head *head;
};

static struct sb_view sb_layout(const struct skb_mesh *m, const void *state)
{
    struct sb_view s;
    s.q = (struct skb_quat *)state;
    s.rows = (skb_real *)(s.q + m->njoints);
    s.sets = (struct sb_set *)(s.rows + 12 * m->njoints);
    s.head = (struct sb_head *)(s.sets + m->nverts);
    s.vset = (int *)(s.head + 1);
    return s;
}

static size_t sb_state_size(const struct skb_mesh *m)
{
    return (sizeof(struct skb_quat) + 12 * sizeof(skb_real)) * (size_t)m->njoints
         + (sizeof(struct sb_set) + sizeof(int)) * (size_t)m->nverts + sizeof(struct sb_head);
}

/* the distinct joints of vertex v with non-zero weight, increasing */
static int joint_set(const struct skb_mesh *m, int v, int out[SKB_MAX_INFLUENCES])
{
    int n = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        int j = m->joint[SKB_MAX_INFLUENCES * v + k], i;
        if (!(m->weight[SKB_MAX_INFLUENCES * v + k] != 0))
            continue;
        for (i = n; i > 0 && out[i - 1] > j; i--)
            ;
        if (i > 0 && out[i - 1] == j)
            continue;
        for (int l = n; l > i; l--)
            out[l] = out[l - 1];
        out[i] = j;
        n++;
    }
    return n;
}

static int sb_bind(const struct skb_mesh *m, void *state)
{
    struct sb_view s = sb_layout(m, state);
    s.head->nsets = 0;
    for (int v = 0; v < m->nverts; v++) {
        int js[SKB_MAX_INFLUENCES], n = joint_set(m, v, js), f;
        s.vset[v] = -1;
        if (n < 2)
            continue;
        /* bind runs once per mesh and models have tens of sets (thesis
         * Table 3.2): a linear search is enough */
        for (f = 0; f < s.head->nsets; f++) {
            const struct sb_set *t = s.sets + f;
            int same = t->n == n;
            for (int k = 0; same && k < n; k++)
                same = t->joint[k] == js[k];
            if (same)
                break;
        }
        if (f == s.head->nsets) {
            struct sb_set *t = s.sets + s.head->nsets++;
            t->n = n;
            for (int k = 0; k < n; k++)
                t->joint[k] = js[k];
        }
        s.vset[v] = f;
    }
    return 0;
}

static int sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                      const struct skb_params *prm, void *state)
{
    struct sb_view s = sb_layout(m, state);
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    skb_qlb_prepare(m->njoints, p->mats, s.q, s.rows);
    s.head->pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    s.head->solves = 0;
    for (int f = 0; f < s.head->nsets; f++) {
        struct sb_set *t = s.sets + f;
        const skb_real *mats[SKB_MAX_INFLUENCES], *set[SKB_MAX_INFLUENCES];
        for (int k = 0; k < t->n; k++)
            mats[k] = p->mats + 16 * t->joint[k];
        int n = distinct_transforms(t->n, mats, set);
        if (skb_rotcenter(n, set, t->center) < 0)   /* thesis Alg. 3.1 line 3 */
            return SKB_ENUMERIC;
        s.head->solves++;
    }
    return 0;
}

static int sb_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                   skb_real *pos_out, skb_real *nrm_out)
{
    struct sb_view s = sb_layout(m, state);
    int normals = nrm_out && m->nrm;
    for (int v = v0; v < v1; v++) {
        /* a single joint needs no centre: r_c = 0 (skb_rotcenter with n = 1) */
        const skb_real *rc = s.vset[v] >= 0 ? s.sets[s.vset[v]].center : NULL;
        if (skb_qlb_vertex(SKB_MAX_INFLUENCES, m->joint + SKB_MAX_INFLUENCES * v,
                           m->weight + SKB_MAX_INFLUENCES * v, s.q, s.rows, rc,
                           s.head->pivot, m->pos + 3 * v, normals ? m->nrm + 3 * v : NULL,
                           pos_out + 3 * v, normals ? nrm_out + 3 * v : NULL) < 0)
            return SKB_ECANCEL;
    }
    return 0;
}

static int sb_pose_stats(const struct skb_mesh *m, const void *state, struct skb_pose_stats *out)
{
    struct sb_view s = sb_layout(m, state);
    out->solves = s.head->solves;
    out->max_iterations = 0;
    out->max_center_norm = 0;
    for (int f = 0; f < s.head->nsets; f++) {
        skb_real r = skb_v3_norm(s.sets[f].center);
        if (r > out->max_center_norm)
            out->max_center_norm = r;
    }
    return 0;
}

/* ---- internals for the GPU path (skb_sb_internal.h): the same sets and
 * centres as the CPU skin path, so the shader is checked against them ---- */

int skb__sb_nsets(const struct skb_mesh *m, const void *state)
{
    return sb_layout(m, state).head->nsets;
}

int skb__sb_vertex_set(const struct skb_mesh *m, const void *state, int v)
{
    return sb_layout(m, state).vset[v];
}

int skb__sb_set_joints(const struct skb_mesh *m, const void *state, int f, int out[SKB_MAX_INFLUENCES])
{
    const struct sb_set *t = sb_layout(m, state).sets + f;
    for (int k = 0; k < t->n; k++)
        out[k] = t->joint[k];
    return t->n;
}

int skb__sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                    const struct skb_params *prm, void *state)
{
    return sb_prepare(m, p, prm, state);
}

const skb_real *skb__sb_set_center(const struct skb_mesh *m, const void *state, int f)
{
    return sb_layout(m, state).sets[f].center;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_sb = {
    .name = "sb",
    .title = "SB",
    .description = "spherical blending: QLB about the least-squares rotation centre (SVD, cached per joint set)",
    .seed_ref = "thesis 3.1-3.3, Alg. 3.1, eq. 3.1, eq. 3.7",
    .flags = SKB_MF_TABLE41,
    .max_n = SKB_ROTCENTER_MAX_N,
    .blend = sb_blend,
    .state_size = sb_state_size,
    .bind = sb_bind,
    .prepare = sb_prepare,
    .skin = sb_skin,
    .pose_stats = sb_pose_stats,
    .f32 = NULL,
    .refit = skb__refit_sbs,
};
