/* sb.c — spherical blending / spherical blend skinning (SB, SBS; thesis
 * 3.1-3.3, Algorithm 3.1): QLB'_{r_c}, the quaternion linear blend of the
 * rotations about the rotation centre r_c, v' = Q (v - r_c) + sum w_i C_i r_c
 * (thesis eq. 3.7).  r_c is the least-squares solution of C_a r = C_b r over
 * all pairs of the vertex's joints (thesis eq. 3.1, GSL SVD).
 *
 * r_c depends on the joint set only, not on the weights (thesis 3.1), so the
 * skin path finds the distinct joint sets of the mesh at bind and solves one
 * SVD per non-trivial set per pose in prepare (the cache of Alg. 3.1 lines
 * 2-6).  A joint set is the set of distinct joints with non-zero weight.
 *
 * Trivial sets (seed 003 section 4: "if there is only one, or two neighboring
 * joints that influence the vertex, we can determine the center of rotation
 * precisely ... and omit the SVD computation at all"; "trivial joint set
 * consists of only one joint or two neighboring joints"):
 * - one joint: QLB of one quaternion is C_j whatever r_c is, so no centre is
 *   kept (the skin path passes r_c = 0);
 * - a parent a and its child b: seed 003 section 4 (Fig. 3, left column)
 *   sets r_c to "the translation part of matrix A_{j2} (the position of joint
 *   j2 in the reference posture)", j2 the child, because C_{j1} r_c =
 *   C_{j2} r_c there: the child's transform is its parent's times a rotation
 *   about the child's rest position (datasets/poses.c, C_j = C_parent L_j), so
 *   that point is fixed by the relative motion and every vertex of the set
 *   moves on a circular arc with no drift.  That is mesh->joint_rest of the
 *   child.  It lies on the relative rotation axis like the minimal-norm SVD
 *   solution, so the skinned vertex is the same (shifting r_c along the axis
 *   cancels in eq. 3.7), but it lies at the joint instead of anywhere on the
 *   axis, which is what the sphere bounds of thesis ch. 6 (|p - r_c|) need.
 *   A pose that breaks C_a r = C_b r beyond the data's precision (not built
 *   along the hierarchy) gets the SVD instead, and is counted apart
 *   (fallback).
 * Their number, excluded, is thesis Table 3.2's / seed 003 Table 2's "SVD
 * executions", reported as pose_stats solves.
 *
 * Non-trivial sets: the pseudo-inverse solution of minimal distance from
 * the set's rest centroid o (not from the model's arbitrary origin), cut off
 * so that |r_c - o| <= SB_CENTER_BOUND times the set's extent (see
 * skb__rotcenter_bounded): almost equal rotations otherwise throw r_c
 * arbitrarily far (|e| / s_min), where it bounds nothing.
 *
 * The blend path has no mesh: it solves eq. 3.1 from the origin, unbounded,
 * over the distinct inputs of non-zero weight. */
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

/* eq. 3.7 with Q the spherical average of the inputs' rotations (seed 003
 * section 5's variant; the skin's sb_sphavg_vertex in blend form) */
static int sb_sphavg_blend(const struct skb_blend_in *in, const skb_real rc[3], int pivot, skb_real out[16])
{
    struct skb_quat q[SKB__SPHAVG_MAX_N], avg;
    skb_real rot[9], t[3] = { 0, 0, 0 }, ci[3];
    if (in->n > SKB__SPHAVG_MAX_N)
        return SKB_ETOOMANY;
    for (int i = 0; i < in->n; i++) {
        skb_real r[9], tr[3];
        skb_mat4_to_rt(in->mats + 16 * i, r, tr);
        skb_quat_from_mat3(r, q + i);
        skb_mat4_apply(in->mats + 16 * i, rc, ci);          /* C_i r_c */
        for (int k = 0; k < 3; k++)
            t[k] = t[k] + in->weights[i] * ci[k];
    }
    if (skb__quat_spherical_average(in->n, in->weights, NULL, q, pivot, SKB__SB_SPHAVG_PRECISION,
                                    SKB__SB_SPHAVG_MAX_ITER, &avg) < 0)
        return SKB_ECANCEL;
    skb_quat_to_mat3(&avg, rot);
    for (int k = 0; k < 3; k++)
        t[k] = t[k] - (rot[3 * k] * rc[0] + rot[3 * k + 1] * rc[1] + rot[3 * k + 2] * rc[2]);
    skb_mat4_from_rt(rot, t, out);
    return 0;
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
    if (in->center) {
        /* a given r_c (eq. 3.7): the centre the skin path chose for the set */
        for (int k = 0; k < 3; k++)
            rc[k] = in->center[k];
    } else if (skb_rotcenter(n, set, rc) < 0) {
        return SKB_ENUMERIC;
    }
    if (prm->sb_spherical_average)
        return sb_sphavg_blend(in, rc, pivot, out);
    if (skb_mat4_qlb(in->n, in->weights, in->mats, rc, pivot, out) < 0)
        return SKB_ECANCEL;
    return 0;
}

/* a centre may lie at most SKB_SB_CENTER_BOUND extents of its set from the
 * set's centroid (skb_sb_internal.h says why) */
#define SB_CENTER_BOUND SKB_SB_CENTER_BOUND
/* C_a r = C_b r holds at a parent-child joint up to the precision of the
 * data, relative to the set's size: seed 003 section 4 counts a parent and
 * its child as trivial, and the models' files store their matrices to 6
 * decimals (skb_sb_internal.h) */
#define SB_TRIVIAL_TOL SKB_SB_TRIVIAL_TOL

static size_t sb_state_size(const struct skb_mesh *m)
{
    return (sizeof(struct skb_quat) + 12 * sizeof(skb_real)) * (size_t)m->njoints
         + (sizeof(struct skb__sb_set) + sizeof(int)) * (size_t)m->nverts + sizeof(struct skb__sb_head);
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

/* the set of joints js (n of them), found or added */
static int find_set(struct skb__sb_view *s, const int *js, int n)
{
    int f;
    /* bind runs once per mesh and models have tens of sets (thesis Table
     * 3.2): a linear search is enough */
    for (f = 0; f < s->head->nsets; f++) {
        const struct skb__sb_set *t = s->sets + f;
        int same = t->n == n;
        for (int k = 0; same && k < n; k++)
            same = t->joint[k] == js[k];
        if (same)
            return f;
    }
    struct skb__sb_set *t = s->sets + s->head->nsets++;
    t->n = n;
    for (int k = 0; k < n; k++)
        t->joint[k] = js[k];
    return f;
}

/* the child of a parent-child pair {a, b}, else -1 (seed 003 section 4) */
static int pair_child(const struct skb_mesh *m, const struct skb__sb_set *t)
{
    if (t->n != 2 || !m->parent || !m->joint_rest)
        return -1;
    if (m->parent[t->joint[1]] == t->joint[0])
        return t->joint[1];
    if (m->parent[t->joint[0]] == t->joint[1])
        return t->joint[0];
    return -1;
}

static skb_real dist3(const skb_real *a, const skb_real *b)
{
    skb_real d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return skb_v3_norm(d);
}

/* o = centroid of each set's rest vertices, extent = the farthest of those
 * vertices, of the set's rest joints and of the rest origin from o.  The
 * origin is included because eq. 3.1's plain minimal-norm solution is
 * measured from it: a centre that paper's pseudo-inverse puts near the
 * origin is never cut, and a set of one vertex without joint positions still
 * has a region */
static void set_regions(const struct skb_mesh *m, struct skb__sb_view *s)
{
    for (int f = 0; f < s->head->nsets; f++) {
        struct skb__sb_set *t = s->sets + f;
        t->origin[0] = 0; t->origin[1] = 0; t->origin[2] = 0;
        t->extent = 0;          /* the vertex count, for now */
    }
    for (int v = 0; v < m->nverts; v++)
        if (s->vset[v] >= 0) {
            struct skb__sb_set *t = s->sets + s->vset[v];
            for (int k = 0; k < 3; k++)
                t->origin[k] = t->origin[k] + m->pos[3 * v + k];
            t->extent = t->extent + 1;
        }
    for (int f = 0; f < s->head->nsets; f++) {
        struct skb__sb_set *t = s->sets + f;
        for (int k = 0; k < 3; k++)
            t->origin[k] = t->origin[k] / t->extent;
        t->extent = skb_v3_norm(t->origin);
        for (int k = 0; m->joint_rest && k < t->n; k++)
            if (dist3(m->joint_rest + 3 * t->joint[k], t->origin) > t->extent)
                t->extent = dist3(m->joint_rest + 3 * t->joint[k], t->origin);
    }
    for (int v = 0; v < m->nverts; v++)
        if (s->vset[v] >= 0) {
            struct skb__sb_set *t = s->sets + s->vset[v];
            if (dist3(m->pos + 3 * v, t->origin) > t->extent)
                t->extent = dist3(m->pos + 3 * v, t->origin);
        }
}

/* distinct joints that are a vertex's only joint: counted with the rows of
 * the joint matrices as marks (prepare overwrites them) */
static int count_single(const struct skb_mesh *m, struct skb__sb_view *s)
{
    int n = 0;
    for (int j = 0; j < m->njoints; j++)
        s->rows[12 * j] = 0;
    for (int v = 0; v < m->nverts; v++) {
        int js[SKB_MAX_INFLUENCES];
        if (joint_set(m, v, js) != 1 || s->rows[12 * js[0]] != 0)
            continue;
        s->rows[12 * js[0]] = 1;
        n++;
    }
    return n;
}

static int sb_bind(const struct skb_mesh *m, void *state)
{
    struct skb__sb_view s = skb__sb_layout(m, state);
    s.head->nsets = 0;
    for (int v = 0; v < m->nverts; v++) {
        int js[SKB_MAX_INFLUENCES], n = joint_set(m, v, js);
        s.vset[v] = n < 2 ? -1 : find_set(&s, js, n);
    }
    /* one-joint sets are counted only: their vertices move rigidly and need
     * no centre (vset -1) */
    s.head->nsingle = count_single(m, &s);
    set_regions(m, &s);
    for (int f = 0; f < s.head->nsets; f++) {
        struct skb__sb_set *t = s.sets + f;
        t->child = pair_child(m, t);
        for (int k = 0; t->child >= 0 && k < 3; k++)
            t->center[k] = m->joint_rest[3 * t->child + k];
    }
    return 0;
}

/* does the pose keep a parent-child set's joint fixed, C_a r = C_b r? */
static int joint_holds(const struct skb__sb_set *t, const skb_real *mats)
{
    const skb_real *a = mats + 16 * t->joint[0], *b = mats + 16 * t->joint[1];
    skb_real d[3];
    for (int i = 0; i < 3; i++) {
        d[i] = a[4 * i + 3] - b[4 * i + 3];
        for (int j = 0; j < 3; j++)
            d[i] = d[i] + (a[4 * i + j] - b[4 * i + j]) * t->center[j];
    }
    return skb_v3_norm(d) <= SB_TRIVIAL_TOL * (skb_v3_norm(t->center) + t->extent);
}

/* set f's centre for the pose mats (thesis Alg. 3.1 lines 2-6): the
 * child's joint for a parent-child set the pose keeps, else the SVD */
static int sb_solve_set(const struct skb_mesh *m, struct skb__sb_view *s, int f, const skb_real *pm)
{
    struct skb__sb_set *t = s->sets + f;
    const skb_real *mats[SKB_MAX_INFLUENCES], *set[SKB_MAX_INFLUENCES];
    t->stale = 0;
    if (t->child >= 0) {
        /* the centre is the child's rest position (reset each pose: a
         * pose that broke C_a r = C_b r left its SVD centre here) */
        for (int k = 0; k < 3; k++)
            t->center[k] = m->joint_rest[3 * t->child + k];
        t->cut = 0;
        if (joint_holds(t, pm)) {
            s->head->trivial++;
            return 0;
        }
        s->head->fallback++;
    }
    for (int k = 0; k < t->n; k++)
        mats[k] = pm + 16 * t->joint[k];
    int n = distinct_transforms(t->n, mats, set);
    /* thesis Alg. 3.1 line 3 */
    int cut = skb__rotcenter_bounded(n, set, t->origin, SB_CENTER_BOUND * t->extent, t->center);
    if (cut < 0)
        return SKB_ENUMERIC;
    t->cut = cut > 0;
    s->head->regularised += t->cut;
    s->head->solves++;
    return 0;
}

/* the per-joint part of prepare; every set's centre marked stale */
static int sb_prepare_joints(const struct skb_mesh *m, const struct skb_pose *p, const struct skb_params *prm,
                             struct skb__sb_view *s)
{
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    skb_qlb_prepare(m->njoints, p->mats, s->q, s->rows);
    s->head->pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    s->head->solves = 0;
    s->head->trivial = 0;
    s->head->regularised = 0;
    s->head->fallback = 0;
    s->head->mats = p->mats;
    s->head->sphavg = prm->sb_spherical_average;
    for (int f = 0; f < s->head->nsets; f++)
        s->sets[f].stale = 1;
    return 0;
}

static int sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                      const struct skb_params *prm, void *state)
{
    struct skb__sb_view s = skb__sb_layout(m, state);
    int rc = sb_prepare_joints(m, p, prm, &s);
    for (int f = 0; rc == 0 && f < s.head->nsets; f++)
        rc = sb_solve_set(m, &s, f, p->mats);
    s.head->mats = NULL;
    return rc;
}

int skb_sb_prepare_lazy(const struct skb_mesh *m, const struct skb_pose *p, const struct skb_params *prm,
                         void *state)
{
    struct skb__sb_view s = skb__sb_layout(m, state);
    return sb_prepare_joints(m, p, prm, &s);
}

int skb_sb_center_ensure(const struct skb_mesh *m, void *state, int f)
{
    struct skb__sb_view s = skb__sb_layout(m, state);
    if (f < 0 || !s.sets[f].stale)
        return 0;
    if (!s.head->mats)
        return SKB_EINVAL;   /* stale outside a lazy prepare: a caller's bug */
    return sb_solve_set(m, &s, f, s.head->mats);
}

/* one vertex with its rotation by the spherical average (eq. 3.7 with Q the
 * Buss-Fillmore average of the joints' quaternions) */
static int sb_sphavg_vertex(const struct skb_mesh *m, const struct skb__sb_view *s, int v, const skb_real *rc,
                            skb_real *out, skb_real *nout)
{
    const int *jv = m->joint + SKB_MAX_INFLUENCES * v;
    const skb_real *wv = m->weight + SKB_MAX_INFLUENCES * v, *x = m->pos + 3 * v;
    struct skb_quat q;
    skb_real rot[9], t[3] = { 0, 0, 0 }, y[3];
    if (skb__quat_spherical_average(SKB_MAX_INFLUENCES, wv, jv, s->q, s->head->pivot, SKB__SB_SPHAVG_PRECISION,
                                    SKB__SB_SPHAVG_MAX_ITER, &q) < 0)
        return SKB_ECANCEL;
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < SKB_MAX_INFLUENCES; i++) {
        const skb_real *cj = s->rows + 12 * jv[i];
        if (wv[i] == 0)
            continue;
        for (int k = 0; k < 3; k++)
            t[k] = t[k] + wv[i] * (rc ? cj[4 * k] * rc[0] + cj[4 * k + 1] * rc[1] + cj[4 * k + 2] * rc[2] + cj[4 * k + 3]
                                      : cj[4 * k + 3]);
    }
    for (int k = 0; k < 3; k++)
        y[k] = rc ? x[k] - rc[k] : x[k];
    for (int k = 0; k < 3; k++)
        out[k] = rot[3 * k] * y[0] + rot[3 * k + 1] * y[1] + rot[3 * k + 2] * y[2] + t[k];
    for (int k = 0; nout && k < 3; k++)
        nout[k] = rot[3 * k] * m->nrm[3 * v] + rot[3 * k + 1] * m->nrm[3 * v + 1] + rot[3 * k + 2] * m->nrm[3 * v + 2];
    return 0;
}

static int sb_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                   skb_real *pos_out, skb_real *nrm_out)
{
    struct skb__sb_view s = skb__sb_layout(m, state);
    int normals = nrm_out && m->nrm;
    for (int v = v0; s.head->sphavg && v < v1; v++) {
        const skb_real *rc = s.vset[v] >= 0 ? s.sets[s.vset[v]].center : NULL;
        if (sb_sphavg_vertex(m, &s, v, rc, pos_out + 3 * v, normals ? nrm_out + 3 * v : NULL) < 0)
            return SKB_ECANCEL;
    }
    for (int v = v0; !s.head->sphavg && v < v1; v++) {
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
    struct skb__sb_view s = skb__sb_layout(m, state);
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

void skb_sb_counts(const struct skb_mesh *m, const void *state, struct skb_sb_counts *out)
{
    struct skb__sb_view s = skb__sb_layout(m, state);
    out->sets = s.head->nsets + s.head->nsingle;
    out->trivial = s.head->trivial + s.head->nsingle;
    out->solved = s.head->solves;
    out->regularised = s.head->regularised;
    out->fallback = s.head->fallback;
    out->max_offset = 0;
    for (int f = 0; f < s.head->nsets; f++)
        if (dist3(s.sets[f].center, s.sets[f].origin) > out->max_offset)
            out->max_offset = dist3(s.sets[f].center, s.sets[f].origin);
}

/* ---- internals for the GPU path (skb_sb_internal.h): the same sets and
 * centres as the CPU skin path, so the shader is checked against them ---- */

int skb_sb_nsets(const struct skb_mesh *m, const void *state)
{
    return skb__sb_layout(m, state).head->nsets;
}

int skb_sb_vertex_set(const struct skb_mesh *m, const void *state, int v)
{
    return skb__sb_layout(m, state).vset[v];
}

int skb_sb_set_joints(const struct skb_mesh *m, const void *state, int f, int out[SKB_MAX_INFLUENCES])
{
    const struct skb__sb_set *t = skb__sb_layout(m, state).sets + f;
    for (int k = 0; k < t->n; k++)
        out[k] = t->joint[k];
    return t->n;
}

int skb_sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                    const struct skb_params *prm, void *state)
{
    return sb_prepare(m, p, prm, state);
}

int skb_sb_set_cut(const struct skb_mesh *m, const void *state, int f)
{
    return skb__sb_layout(m, state).sets[f].cut;
}

const skb_real *skb_sb_set_center(const struct skb_mesh *m, const void *state, int f)
{
    return skb__sb_layout(m, state).sets[f].center;
}

/* the centre sb_skin used for vertex v (none for a one-joint vertex: its
 * blend is C_j whatever r_c is) */
static int sb_skin_center(const struct skb_mesh *m, const void *state, int v, skb_real out[3])
{
    int f = skb_sb_vertex_set(m, state, v);
    if (f < 0)
        return 0;
    const skb_real *c = skb_sb_set_center(m, state, f);
    for (int k = 0; k < 3; k++)
        out[k] = c[k];
    return 1;
}

/* what the FLOP count leaves out (struct skb_flop_parts; flops.json) */
static const struct skb_flop_parts sb_flop_parts = {
    .per_transform = { NULL },
    .per_blend = { NULL },
    .rest = NULL,
    .note = "counted: the QLB' blend given the rotation centre; the centre's least squares (GSL SVD, double code) "
    "is not instrumented (sb_parts; callgrind includes it)"
};

SKB_METHOD_EXPORT const struct skb_method skb_method_sb = {
    .name = "sb",
    .title = "SB",
    .description = "spherical blending: QLB about the rotation centre (the joint for parent-child sets, else bounded least squares by SVD, cached per joint set)",
    .seed_ref = "thesis 3.1-3.3, Alg. 3.1, eq. 3.1, eq. 3.7; seed 003 section 4 (trivial sets)",
    .flags = SKB_MF_TABLE41 | SKB_MF_ROT_CENTERS,
    .max_n = SKB_ROTCENTER_MAX_N,
    .blend = sb_blend,
    .state_size = sb_state_size,
    .bind = sb_bind,
    .prepare = sb_prepare,
    .skin = sb_skin,
    .pose_stats = sb_pose_stats,
    .f32 = NULL,
    .refit = skb__refit_sbs,
    .skin_center = sb_skin_center,
    .flop_parts = &sb_flop_parts,
};

int skb_sb_is(const struct skb_method *m)
{
    return m == &skb_method_sb;
}
