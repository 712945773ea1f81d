/* cor.c — CoR, skinning with optimized centres of rotation (Le & Hodgins,
 * "Real-time Skeletal Skinning with Optimized Centers of Rotation",
 * SIGGRAPH 2016, sections 4-5; ../shared/SPEC.md section 8).
 *
 * Bind (once per mesh): vertex i's centre p_i* is the area-weighted mean of
 * the rest triangles' centroids, each weighted by the similarity s(w_i, w_t)
 * of the vertex's weights and the triangle's mean weights (Le & Hodgins
 * eq. 1-2, sigma = 0.1).  Run time: the rotation is the normalised,
 * sign-aligned quaternion blend (as QLB), the translation the LBS of the
 * centre minus the rotated centre (Le & Hodgins eq. 3-4):
 *   v' = R (v - p*) + sum_j w_j C_j p*,
 * which is Hejl's QB form about c = p* (DQ paper 2.3): the blend hook is
 * QB's, with the centre given in skb_blend_in.center.
 *
 * A vertex without a centre (one influence, or no similar triangle: the
 * denominator of eq. 2 is 0) takes its own rest position as centre, so its
 * position is LBS's (rigid for one influence) and its normal is rotated by R.
 *
 * Precompute: s(a, b) is non-zero only where a triangle's weights share two
 * joints with the vertex's, so vertices are grouped by their joint set and
 * each group scans the triangles once for those that share two of its
 * joints; exact, not the paper's approximate subdivision.  The work left is
 * sum over groups of (vertices x candidate triangles); above
 * COR_MAX_PAIRS the bind refuses (SKB_ENOTSUP) rather than run for minutes
 * (the 1.2 M-vertex subdivided body: ARCHITECTURE.md, the CoR paragraph).
 *
 * f32 kernel: QB's block kernels with a per-vertex centre (kind K_COR in
 * methods/fast_f32_kernels.c: the columns blended as two 8-wide halves, the
 * rest offset v - p* bound in double by cor_bind in fast_f32_layout.c);
 * bcn_human, `run cpu --quick`, 2 cores at load 1.4: 9.5 us a frame against
 * DLB f32's 7.7 (1.23x; as qb's kernels it was 1.34x). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_fast.h"

#define COR_SIGMA 0.1                 /* Le & Hodgins 2016 section 4.1 */
#define COR_MAX_PAIRS 100000000L      /* (vertex, triangle) similarity evaluations */
#define COR_TRI_JOINTS (3 * SKB_MAX_INFLUENCES)

/* one sparse weight vector: joints and weights, no repeats, no zeros */
struct cor_w {
    int n;
    int j[COR_TRI_JOINTS];
    skb_real w[COR_TRI_JOINTS];
};

static void cor_w_add(struct cor_w *s, int joint, skb_real w)
{
    if (!(w != 0))
        return;
    for (int k = 0; k < s->n; k++)
        if (s->j[k] == joint) {
            s->w[k] = s->w[k] + w;
            return;
        }
    s->j[s->n] = joint;
    s->w[s->n] = w;
    s->n++;
}

static void cor_vertex_w(const struct skb_mesh *m, int v, skb_real scale, struct cor_w *s)
{
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++)
        cor_w_add(s, m->joint[SKB_MAX_INFLUENCES * v + k], scale * m->weight[SKB_MAX_INFLUENCES * v + k]);
}

static skb_real cor_w_get(const struct cor_w *s, int joint)
{
    for (int k = 0; k < s->n; k++)
        if (s->j[k] == joint)
            return s->w[k];
    return 0;
}

/* s(a, b) = sum_{j != k} a_j a_k b_j b_k exp(-(a_j b_k - a_k b_j)^2 / sigma^2)
 * (Le & Hodgins eq. 1); only joints of a can give a non-zero term */
static skb_real cor_similarity(const struct cor_w *a, const struct cor_w *b)
{
    skb_real s = 0, bw[COR_TRI_JOINTS];
    for (int x = 0; x < a->n; x++)
        bw[x] = cor_w_get(b, a->j[x]);
    for (int x = 0; x < a->n; x++)
        for (int y = 0; y < a->n; y++) {
            if (x == y || bw[x] == 0 || bw[y] == 0)
                continue;
            skb_real d = a->w[x] * bw[y] - a->w[y] * bw[x];
            s = s + a->w[x] * a->w[y] * bw[x] * bw[y] * exp(-(d * d) / (COR_SIGMA * COR_SIGMA));
        }
    return s;
}

/* the triangles' mean weights, centroids and areas (Le & Hodgins eq. 2) */
struct cor_tris {
    struct cor_w *w;
    skb_real *c;      /* 3 per triangle */
    skb_real *area;
};

static int cor_tris_build(const struct skb_mesh *m, struct cor_tris *t)
{
    t->w = (struct cor_w *)calloc((size_t)m->ntris + 1, sizeof *t->w);
    t->c = (skb_real *)malloc(sizeof(skb_real) * (3 * (size_t)m->ntris + 1));
    t->area = (skb_real *)malloc(sizeof(skb_real) * ((size_t)m->ntris + 1));
    if (!t->w || !t->c || !t->area)
        return SKB_ENOMEM;
    for (int f = 0; f < m->ntris; f++) {
        const int *vi = m->tris + 3 * f;
        const skb_real *a = m->pos + 3 * vi[0], *b = m->pos + 3 * vi[1], *c = m->pos + 3 * vi[2];
        skb_real e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++) {
            t->c[3 * f + k] = (a[k] + b[k] + c[k]) / 3;
            e1[k] = b[k] - a[k];
            e2[k] = c[k] - a[k];
        }
        skb_v3_cross(e1, e2, n);
        t->area[f] = skb_v3_norm(n) / 2;
        for (int k = 0; k < 3; k++)
            cor_vertex_w(m, vi[k], (skb_real)1 / 3, &t->w[f]);
    }
    return 0;
}

static void cor_tris_free(struct cor_tris *t)
{
    free(t->w);
    free(t->c);
    free(t->area);
}

/* vertices ordered by joint set, so a group is a run of equal sets */
static int cor_set_cmp(const struct cor_w *a, const struct cor_w *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int k = 0; k < a->n; k++)
        if (a->j[k] != b->j[k])
            return a->j[k] < b->j[k] ? -1 : 1;
    return 0;
}

static int cor_sort_joints(struct cor_w *s)
{
    for (int a = 1; a < s->n; a++)
        for (int b = a; b > 0 && s->j[b - 1] > s->j[b]; b--) {
            int tj = s->j[b]; s->j[b] = s->j[b - 1]; s->j[b - 1] = tj;
            skb_real tw = s->w[b]; s->w[b] = s->w[b - 1]; s->w[b - 1] = tw;
        }
    return s->n;
}

/* a merge sort of vertex indices by joint set: qsort has no context pointer in C11 */
static void cor_merge_sort(const struct cor_w *vw, int *a, int *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    cor_merge_sort(vw, a, tmp, h);
    cor_merge_sort(vw, a + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cor_set_cmp(&vw[a[i]], &vw[a[j]]) <= 0 ? a[i++] : a[j++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof(int) * (size_t)n);
}

/* triangles sharing at least two joints with set s */
static int cor_candidates(const struct cor_tris *t, int ntris, const struct cor_w *s, int *out)
{
    int n = 0;
    for (int f = 0; f < ntris; f++) {
        int shared = 0;
        for (int k = 0; k < s->n && shared < 2; k++)
            shared += cor_w_get(&t->w[f], s->j[k]) != 0;
        if (shared >= 2)
            out[n++] = f;
    }
    return n;
}

/* p* of one vertex (Le & Hodgins eq. 2); its rest position where the sum is 0 */
static void cor_centre(const struct skb_mesh *m, const struct cor_tris *t, const int *cand, int ncand,
                       const struct cor_w *vw, int v, skb_real out[3])
{
    skb_real num[3] = { 0, 0, 0 }, den = 0;
    for (int i = 0; i < ncand; i++) {
        int f = cand[i];
        skb_real sa = cor_similarity(vw, &t->w[f]) * t->area[f];
        den = den + sa;
        for (int k = 0; k < 3; k++)
            num[k] = num[k] + sa * t->c[3 * f + k];
    }
    for (int k = 0; k < 3; k++)
        out[k] = den > 0 ? num[k] / den : m->pos[3 * v + k];
}

/* all centres; SKB_ENOTSUP when the pruned work exceeds COR_MAX_PAIRS */
static int cor_centres(const struct skb_mesh *m, const struct cor_tris *t, struct cor_w *vw, int *order,
                       int *cand, skb_real *centre)
{
    long work = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int g = 0; g < m->nverts;) {
            int e = g + 1;
            while (e < m->nverts && cor_set_cmp(&vw[order[g]], &vw[order[e]]) == 0)
                e++;
            int nc = vw[order[g]].n >= 2 ? cor_candidates(t, m->ntris, &vw[order[g]], cand) : 0;
            if (pass == 0)
                work += (long)nc * (e - g);
            for (int i = g; i < e && pass == 1; i++)
                cor_centre(m, t, cand, nc, &vw[order[i]], order[i], centre + 3 * order[i]);
            g = e;
            if (pass == 0 && work > COR_MAX_PAIRS)
                return SKB_ENOTSUP;
        }
    return 0;
}

int skb__cor_bind_centres(const struct skb_mesh *m, skb_real *centre)
{
    struct cor_tris t = { NULL, NULL, NULL };
    struct cor_w *vw = (struct cor_w *)calloc((size_t)m->nverts + 1, sizeof *vw);
    int *order = (int *)malloc(sizeof(int) * (2 * (size_t)m->nverts + 1));
    int *cand = (int *)malloc(sizeof(int) * ((size_t)m->ntris + 1));
    int rc = (!vw || !order || !cand) ? SKB_ENOMEM : cor_tris_build(m, &t);
    if (rc == 0) {
        for (int v = 0; v < m->nverts; v++) {
            cor_vertex_w(m, v, 1, &vw[v]);
            cor_sort_joints(&vw[v]);
            order[v] = v;
        }
        cor_merge_sort(vw, order, order + m->nverts, m->nverts);
        rc = cor_centres(m, &t, vw, order, cand, centre);
    }
    cor_tris_free(&t);
    free(vw);
    free(order);
    free(cand);
    return rc;
}

/* state: quaternion + 3x4 per joint, the centre per vertex, the sign rule */
static size_t cor_state_size(const struct skb_mesh *m)
{
    return (sizeof(struct skb_quat) + 12 * sizeof(skb_real)) * (size_t)m->njoints
         + 3 * sizeof(skb_real) * (size_t)m->nverts + sizeof(int);
}

static struct skb_quat *cor_q(const void *state) { return (struct skb_quat *)state; }
static skb_real *cor_rows(const struct skb_mesh *m, const void *state)
{
    return (skb_real *)(cor_q(state) + m->njoints);
}
static skb_real *cor_centre_of(const struct skb_mesh *m, const void *state)
{
    return cor_rows(m, state) + 12 * m->njoints;
}
static int *cor_pivot(const struct skb_mesh *m, const void *state)
{
    return (int *)(cor_centre_of(m, state) + 3 * m->nverts);
}

/* the bound centres inside a state (tests set them to check the run-time form) */
skb_real *skb__cor_centres(const struct skb_mesh *m, void *state);
skb_real *skb__cor_centres(const struct skb_mesh *m, void *state)
{
    return cor_centre_of(m, state);
}

static int cor_bind(const struct skb_mesh *m, void *state)
{
    return skb__cor_bind_centres(m, cor_centre_of(m, state));
}

/* the blend about the given centre: QB's form (Le & Hodgins eq. 3-4) */
static int cor_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                     skb_real out[16], struct skb_blend_stats *st)
{
    (void)st;
    if (!in->center)
        return SKB_ENOCENTER;
    if (skb_mat4_qlb(in->n, in->weights, in->mats, in->center, prm->antipodal != SKB_ANTIPODAL_NONE, out) < 0)
        return SKB_ECANCEL;
    return 0;
}

static int cor_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    skb_qlb_prepare(m->njoints, p->mats, cor_q(state), cor_rows(m, state));
    *cor_pivot(m, state) = prm->antipodal != SKB_ANTIPODAL_NONE;
    return 0;
}

static int cor_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                    skb_real *pos_out, skb_real *nrm_out)
{
    const skb_real *centre = cor_centre_of(m, state);
    int normals = nrm_out && m->nrm, pivot = *cor_pivot(m, state);
    for (int v = v0; v < v1; v++)
        if (skb_qlb_vertex(SKB_MAX_INFLUENCES, m->joint + SKB_MAX_INFLUENCES * v,
                           m->weight + SKB_MAX_INFLUENCES * v, cor_q(state), cor_rows(m, state),
                           centre + 3 * v, pivot, m->pos + 3 * v, normals ? m->nrm + 3 * v : NULL,
                           pos_out + 3 * v, normals ? nrm_out + 3 * v : NULL) < 0)
            return SKB_ECANCEL;
    return 0;
}

/* the precomputed centre: `run cpu` checks the skin path against the blend about it */
static int cor_skin_center(const struct skb_mesh *m, const void *state, int v, skb_real out[3])
{
    memcpy(out, cor_centre_of(m, state) + 3 * v, 3 * sizeof(skb_real));
    return 1;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_cor = {
    .name = "cor",
    .title = "CoR",
    .description = "optimized centres of rotation: quaternion blend about a precomputed per-vertex centre",
    .seed_ref = "Le & Hodgins 2016 eq. 1-4 (SPEC section 8; beyond the seeds)",
    .flags = SKB_MF_NEEDS_CENTER,
    .max_n = 0,
    .blend = cor_blend,
    .state_size = cor_state_size,
    .bind = cor_bind,
    .prepare = cor_prepare,
    .skin = cor_skin,
    .f32 = SKB_FAST_F32(skb__cor_f32),
    .skin_center = cor_skin_center,
};
