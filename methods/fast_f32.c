/* fast_f32.c — single-precision fast kernels for the methods users deploy:
 * linear (LBS, thesis eq. 2.6), qlb0/qb (QLB about the origin / a fixed
 * centre, thesis eq. 3.5 and 3.7), dlb (DQ paper Alg. 1 with Alg. 2 signs)
 * and cor (QB's block form about Le & Hodgins 2016's precomputed centres).
 *
 * Layout chosen by measurement (skinbench run cpu, body/sub4, 1.24M
 * vertices, on an AMD EPYC with AVX-512): per-joint data as 4-float columns
 * and quaternions, vertex data as packed float streams (positions and
 * normals xyz, four uint16 joint indices, four float weights); vector
 * extensions common to GCC >= 12 and clang (vector_size, constant-index
 * __builtin_shufflevector; SSE/AVX on x86-64, NEON on ARM, scalar
 * elsewhere).  With GCC on x86-64 the kernels are cloned for x86-64-v4 (AVX-512) and x86-64-v3 (AVX2+FMA)
 * and picked at run time, so the binary stays portable; the file is built
 * with FMA contraction (Makefile).  LBS blends 8 wide per vertex (7.8 ->
 * 5.9 ms); DLB, QLB0 and QB blend each vertex into one 8-wide row
 * ((real | dual) or (quaternion | translation)), transpose blocks of 8
 * vertices and rotate 8 vertices per operation (DLB 11.4 -> 6.2 ms, QB
 * 13.0 -> 9.8 ms).  Tried and measured slower: LBS blended 16 wide, LBS
 * normals renormalised with a scalar sqrt and divide, the quaternion methods
 * per vertex in 4-wide form (still used for meshes too big for the sign
 * table, and for QLB without signs).  Everything
 * outside the kernels runs in double (skb_real) and converts once per pose.
 *
 * Influence counts: the default layout (SPLIT) reorders the
 * vertices at bind by how many influences they have and gives each count
 * its own streams and kernels, as ozz's SkinningJob parts do: a vertex with
 * one influence is one matrix applied (for every method: a blend of one
 * transform is that transform), two are one weight read and two joints
 * blended; the 4-slot layout (SLOT4) is kept as the measured baseline.
 * bcn_human: 1673 / 1148 / 193 / 0 vertices with 1 / 2 / 3 / 4 influences.
 *
 * Files: this one the wrappers (init, pool, settings, checks);
 * fast_f32_layout.c the state's layouts, bind and per-pose prepare;
 * fast_f32_kernels.c the LBS and DLB/QLB/QB kernels and the dispatch;
 * fast_f32_internal.h what they share. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include "skb_fast.h"

#ifndef SKB_FLOP_COUNT
#include <stdatomic.h>      /* the pool's share of errors; C only (not the C++ FLOP build) */
#include "skb_pool.h"

#include "fast_f32_internal.h"

/* ---- wrappers: the one place that validates and owns the state ---- */

int skb_skin_f32_init(struct skb_skinner_f32 *s, const struct skb_method *m,
                      const struct skb_mesh *mesh, char *msg, size_t msglen)
{
    return skb_skin_f32_init_layout(s, m, mesh, SKB_F32_LAYOUT_SPLIT, msg, msglen);
}

int skb_skin_f32_init_layout(struct skb_skinner_f32 *s, const struct skb_method *m,
                             const struct skb_mesh *mesh, enum skb_f32_layout lay, char *msg,
                             size_t msglen)
{
    int rc;
    s->m = m;
    s->mesh = mesh;
    s->state = NULL;
    s->scratch = NULL;
    if (!m->f32) {
        snprintf(msg, msglen, "method %s has no single-precision fast path", m->name);
        return SKB_ENOTSUP;
    }
    if (lay != SKB_F32_LAYOUT_SPLIT && lay != SKB_F32_LAYOUT_SLOT4) {
        snprintf(msg, msglen, "%s: unknown fast-path layout %d", m->name, (int)lay);
        return SKB_EINVAL;
    }
    if ((rc = skb_mesh_check(mesh, msg, msglen)) < 0)
        return rc;
    size_t size = round64(m->f32->state_size(mesh, lay));
    size_t nscratch = lay == SKB_F32_LAYOUT_SPLIT ? 6 * (size_t)mesh->nverts + 1 : 0;
    /* page-aligned (see layout()), every page written, 4 KiB pages: the
     * timed kernels read their streams in one page state every run
     * (common/skb_pages.h; skb_skin_f32_repage moves it for the sweep) */
    s->state = skb_pages_alloc(size, SKB_PAGES_SMALL);
    s->scratch = nscratch ? malloc(sizeof(float) * nscratch) : NULL;
    if (!s->state || (nscratch && !s->scratch)) {
        snprintf(msg, msglen, "%s: out of memory for the fast-path state (%zu bytes)", m->name, size);
        skb_skin_f32_fini(s);
        return SKB_ENOMEM;
    }
    memset(s->state, 0, size);
    if ((rc = m->f32->bind(mesh, lay, s->state)) < 0) {
        snprintf(msg, msglen, "%s: fast path bind: %s", m->name, skb_strerror(rc));
        skb_skin_f32_fini(s);
        return rc;
    }
    skb_skin_f32_set_renorm(s, SKB_F32_RENORM_BATCH8);   /* SLOT4: its vertex-by-vertex form */
    return 0;
}

int skb__skin_f32_prepare(struct skb_skinner_f32 *s, const struct skb_pose *p, const struct skb_params *prm)
{
    return s->m->f32->prepare(s->mesh, p, prm, s->state);
}

int skb__skin_f32_run(struct skb_skinner_f32 *s, int v0, int v1, float *pos_out, float *nrm_out)
{
    return s->m->f32->skin(s->state, v0, v1, pos_out, nrm_out);
}

struct pool_job {
    struct skb_skinner_f32 *s;
    float *pos, *nrm;
    atomic_int rc;
};

/* part `part` of nparts of group g: whole blocks of 8 from the group's
 * first vertex (so the block kernels' blocks stay the whole call's), the
 * last part the rest; empty parts as v0 == v1 */
static void group_share(const struct grp *g, int part, int nparts, int *v0, int *v1)
{
    int n = g->v1 - g->v0, per = (int)round8(((size_t)n + (size_t)nparts - 1) / (size_t)nparts);
    *v0 = g->v0 + (part * per < n ? part * per : n);
    *v1 = g->v0 + ((part + 1) * per < n ? (part + 1) * per : n);
}

int skb__skin_f32_share(const struct skb_skinner_f32 *s, int part, int nparts, int counts[4])
{
    const struct hdr *h = (const struct hdr *)s->state;
    if (nparts < 1 || part < 0 || part >= nparts)
        return SKB_EINVAL;
    memset(counts, 0, 4 * sizeof *counts);
    for (int i = 0; i < h->ngroups; i++) {
        int v0, v1;
        group_share(h->g + i, part, nparts, &v0, &v1);
        counts[h->g[i].K - 1] += v1 - v0;
    }
    return 0;
}

/* share `part` of nparts: its share of every influence-count group, so
 * each thread blends as many vertices of each count (a vertex of four
 * influences streams and blends more than one of one: shares by vertex
 * count gave one thread all the one-influence vertices of body/sub4 and
 * the other the three- and four-influence ones) */
static void pool_part(void *arg, int part, int nparts)
{
    struct pool_job *j = arg;
    const struct hdr *h = (const struct hdr *)j->s->state;
    for (int i = 0; i < h->ngroups; i++) {
        int v0, v1;
        group_share(h->g + i, part, nparts, &v0, &v1);
        int rc = v0 < v1 ? skb__skin_f32_run(j->s, v0, v1, j->pos, j->nrm) : 0;
        if (rc < 0)
            atomic_store(&j->rc, rc);
    }
}

int skb__skin_f32_run_pool(struct skb_skinner_f32 *s, struct skb_pool *pool, float *pos_out, float *nrm_out)
{
    struct pool_job j = { s, pos_out, nrm_out, 0 };
    skb_pool_run(pool, pool_part, &j);
    return atomic_load(&j.rc);
}

int skb_skin_f32_pose(struct skb_skinner_f32 *s, const struct skb_pose *p,
                      const struct skb_params *prm, float *pos_out, float *nrm_out,
                      char *msg, size_t msglen)
{
    struct skb_params defaults;
    int rc;
    if (p->njoints != s->mesh->njoints) {
        snprintf(msg, msglen, "pose has %d joints, mesh has %d", p->njoints, s->mesh->njoints);
        return SKB_EINVAL;
    }
    for (int i = 0; i < 16 * p->njoints; i++)
        if (!isfinite((double)p->mats[i]) || (p->scale && !isfinite((double)p->scale[i]))) {
            snprintf(msg, msglen, "pose: non-finite joint matrix");
            return SKB_ENONFINITE;
        }
    if (!prm) {
        skb_params_default(&defaults);
        prm = &defaults;
    }
    if ((rc = skb__skin_f32_prepare(s, p, prm)) < 0) {
        snprintf(msg, msglen, "%s: fast path prepare: %s", s->m->name, skb_strerror(rc));
        return rc;
    }
    const int *order = skb_skin_f32_order(s);
    int n = s->mesh->nverts;
    float *lp = order ? s->scratch : pos_out, *ln = order && nrm_out ? s->scratch + 3 * (size_t)n : nrm_out;
    if ((rc = skb__skin_f32_run(s, 0, n, lp, ln)) < 0) {
        snprintf(msg, msglen, "%s: fast path skin: %s", s->m->name, skb_strerror(rc));
        return rc;
    }
    /* back to the mesh's order; normals only where the kernel wrote them */
    int nrm_written = nrm_out && s->mesh->nrm && skb_skin_f32_normals(s) != SKB_F32_NRM_NONE;
    for (int i = 0; order && i < n; i++)
        for (int k = 0; k < 3; k++) {
            pos_out[3 * (size_t)order[i] + k] = lp[3 * (size_t)i + k];
            if (nrm_written)
                nrm_out[3 * (size_t)order[i] + k] = ln[3 * (size_t)i + k];
        }
    return 0;
}

enum skb_f32_layout skb_skin_f32_layout(const struct skb_skinner_f32 *s)
{
    return (enum skb_f32_layout)((const struct hdr *)s->state)->layout;
}

const char *skb_f32_layout_name(enum skb_f32_layout lay)
{
    return lay == SKB_F32_LAYOUT_SPLIT ? "split" : lay == SKB_F32_LAYOUT_SLOT4 ? "slot4" : "?";
}

const int *skb_skin_f32_order(const struct skb_skinner_f32 *s)
{
    const struct hdr *h = (const struct hdr *)s->state;
    return h->layout == SKB_F32_LAYOUT_SPLIT ? AT_C(s->state, h->off_perm, int) : NULL;
}

void skb_skin_f32_histogram(const struct skb_skinner_f32 *s, int counts[4])
{
    memcpy(counts, ((const struct hdr *)s->state)->hist, 4 * sizeof(int));
}

const char *skb_f32_normals_name(enum skb_f32_normals mode)
{
    return mode == SKB_F32_NRM_RENORM ? "renormalise" : mode == SKB_F32_NRM_SHADER ? "shader"
           : mode == SKB_F32_NRM_NONE ? "none" : "?";
}

int skb_skin_f32_set_normals(struct skb_skinner_f32 *s, enum skb_f32_normals mode)
{
    if (mode != SKB_F32_NRM_RENORM && mode != SKB_F32_NRM_SHADER && mode != SKB_F32_NRM_NONE)
        return SKB_EINVAL;
    ((struct hdr *)s->state)->nrm_mode = mode;
    return 0;
}

enum skb_f32_normals skb_skin_f32_normals(const struct skb_skinner_f32 *s)
{
    return (enum skb_f32_normals)((const struct hdr *)s->state)->nrm_mode;
}

int skb_f32_isa_available(enum skb_f32_isa isa)
{
    if (isa == SKB_F32_ISA_AUTO)
        return 1;
#if SKB_EXPLICIT_ISA
    if (isa == SKB_F32_ISA_V4)
        return __builtin_cpu_supports("x86-64-v4") > 0;
    if (isa == SKB_F32_ISA_V3)
        return __builtin_cpu_supports("x86-64-v3") > 0;
    return isa == SKB_F32_ISA_BASE;
#else
    return 0;
#endif
}

const char *skb_f32_isa_name(enum skb_f32_isa isa)
{
    static const char *const names[] = { "auto", "x86-64-v4", "x86-64-v3", "x86-64" };
    return (unsigned)isa < SKB_F32_NISA ? names[isa] : "?";
}

int skb_skin_f32_set_isa(struct skb_skinner_f32 *s, enum skb_f32_isa isa)
{
    if ((unsigned)isa >= SKB_F32_NISA || !skb_f32_isa_available(isa))
        return SKB_ENOTSUP;
    ((struct hdr *)s->state)->isa = isa;
    return 0;
}

enum skb_f32_isa skb_skin_f32_isa(const struct skb_skinner_f32 *s)
{
    return (enum skb_f32_isa)((const struct hdr *)s->state)->isa;
}

const char *skb_f32_renorm_name(enum skb_f32_renorm r)
{
    static const char *const names[] = { "batch8", "vertex", "batch8-exact", "vertex-exact", "soa8" };
    return (unsigned)r < SKB_F32_NRENORM ? names[r] : "?";
}

int skb_skin_f32_set_renorm(struct skb_skinner_f32 *s, enum skb_f32_renorm r)
{
    struct hdr *h = (struct hdr *)s->state;
    if ((unsigned)r >= SKB_F32_NRENORM)
        return SKB_EINVAL;
    if (h->layout == SKB_F32_LAYOUT_SLOT4)
        r = r == SKB_F32_RENORM_BATCH8 || r == SKB_F32_RENORM_SOA8 ? SKB_F32_RENORM_VERTEX
          : r == SKB_F32_RENORM_BATCH8_EXACT ? SKB_F32_RENORM_VERTEX_EXACT : r;
    h->renorm = r;
    return 0;
}

enum skb_f32_renorm skb_skin_f32_renorm(const struct skb_skinner_f32 *s)
{
    return (enum skb_f32_renorm)((const struct hdr *)s->state)->renorm;
}

void skb_skin_f32_streams(const struct skb_skinner_f32 *s, const float **pos, const float **nrm)
{
    const struct hdr *h = (const struct hdr *)s->state;
    *pos = AT_C(s->state, h->off_pos, float);
    *nrm = AT_C(s->state, h->off_nrm, float);
}

/* the vertex streams a kernel reads and writes, from the layout above: xyz
 * in and out (12 + 12), qb's or cor's centre (12), normals in and out (12 + 12)
 * unless skipped, and per group of K influences K uint16 joints and
 * split_nw(K) float weights (SLOT4: 4 and 4).  Per-joint data stays in
 * cache and is not counted. */
double skb_skin_f32_bytes_per_vertex(const struct skb_skinner_f32 *s)
{
    const struct hdr *h = (const struct hdr *)s->state;
    double slots = 0;
    for (int i = 0; i < h->ngroups; i++)
        slots += (double)(h->g[i].v1 - h->g[i].v0) * (2 * h->g[i].K + 4 * (h->g[i].derived ? split_nw(h->g[i].K) : 4));
    int bytes = 12 + 12 + (HAS_CENTRE(h->kind) ? 12 : 0);
    bytes += h->has_nrm && h->nrm_mode != SKB_F32_NRM_NONE ? 12 + 12 : 0;
    return bytes + (h->nverts ? slots / h->nverts : 0);
}

double skb_skin_f32_write_bytes_per_vertex(const struct skb_skinner_f32 *s)
{
    const struct hdr *h = (const struct hdr *)s->state;
    return 12 + (h->has_nrm && h->nrm_mode != SKB_F32_NRM_NONE ? 12 : 0);
}

void skb_f32_compare(int nverts, const skb_real *pos_ref, const skb_real *nrm_ref,
                     const float *pos, const float *nrm, double *pos_ratio, double *nrm_ratio,
                     int *worst_vertex)
{
    double scale = 0, ep = 0, en = 0;
    int worst = 0;
    for (size_t i = 0; i < 3 * (size_t)nverts; i++)
        scale = fmax(scale, fabs((double)pos_ref[i]));
    scale += 1;
    for (int v = 0; v < nverts; v++)
        for (int k = 0; k < 3; k++) {
            size_t i = 3 * (size_t)v + (size_t)k;
            double e = fabs((double)pos[i] - (double)pos_ref[i]);
            if (!(e <= ep)) {   /* NaN counts as the worst */
                ep = isnan(e) ? INFINITY : e;
                worst = v;
            }
            if (nrm && nrm_ref) {
                double f = fabs((double)nrm[i] - (double)nrm_ref[i]);
                en = isnan(f) ? INFINITY : fmax(en, f);
            }
        }
    *pos_ratio = ep / (SKB_TOL_F32_POS * scale);
    *nrm_ratio = en / SKB_TOL_F32_NRM;
    if (worst_vertex)
        *worst_vertex = worst;
}

int skb_skin_f32_repage(struct skb_skinner_f32 *s, enum skb_pages_thp thp)
{
    size_t size = skb_pages_size(s->state);
    void *p = size ? skb_pages_alloc(size, thp) : NULL;
    if (!p)
        return size ? SKB_ENOMEM : SKB_EINVAL;
    memcpy(p, s->state, size);
    skb_pages_free(s->state);
    s->state = p;
    return 0;
}

void skb_skin_f32_fini(struct skb_skinner_f32 *s)
{
    if (!s)
        return;
    skb_pages_free(s->state);
    free(s->scratch);
    s->state = NULL;
    s->scratch = NULL;
}

#endif
