/* fast_f32.c — single-precision fast kernels for the methods users deploy:
 * linear (LBS, thesis eq. 2.6), qlb0/qb (QLB about the origin / a fixed
 * centre, thesis eq. 3.5 and 3.7) and dlb (DQ paper Alg. 1 with Alg. 2 signs).
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
 * bcn_human: 1673 / 1148 / 193 / 0 vertices with 1 / 2 / 3 / 4 influences. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include "skb_fast.h"

#ifndef SKB_FLOP_COUNT
#include <stdatomic.h>      /* the pool's share of errors; C only (not the C++ FLOP build) */
#include "skb_pool.h"

typedef float v4f __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
typedef int v4i __attribute__((vector_size(16)));

/* not under ThreadSanitizer: the clones' ifunc resolvers run during
 * relocation, before the TSan runtime exists, and crash in its hooks; not
 * under AddressSanitizer: three instrumented copies of every kernel variant
 * took gcc over 25 minutes and 2 GB to compile, and speed is not its point */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus) && \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define KERNEL __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KERNEL
#endif

#define AI __attribute__((always_inline))

/* explicit per-ISA entry points of the LBS kernels, so the planner
 * (harness/fast_plan.c) can time each instruction set on the CPU it runs
 * on: target_clones picks one clone at load time and offers no other.
 * The always-inline bodies carry no target attribute, so each entry
 * compiles them for its own ISA, as a clone does. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus) && \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define SKB_EXPLICIT_ISA 1
#define ISA_V4 __attribute__((target("arch=x86-64-v4")))
#define ISA_V3 __attribute__((target("arch=x86-64-v3")))
#define ISA_BASE
#else
#define SKB_EXPLICIT_ISA 0
#define ISA_V4
#define ISA_V3
#define ISA_BASE
#endif

#define QLB_MIN_NORM2_F 1e-20f   /* <s,s> below this: the quaternion sum cancelled */
#define DLB_MIN_NORM2_F 1e-20f

enum kind { K_LINEAR, K_QLB0, K_QB, K_DLB };

/* one run of vertices [v0, v1) (layout order) blended with K influences:
 * joint indices K per vertex; weights 4 per vertex (SLOT4), or (derived:
 * SPLIT) split_nw(K) with the last 1 - the others when not stored.  Its
 * streams start at its first vertex. */
struct grp {
    int v0, v1, K, derived;
    size_t off_w, off_j;
};
#define MAX_GROUPS 4

/* weights SPLIT stores per vertex of K influences: K - 1, the last being 1 -
 * the others (4 or 8 bytes less to stream), but all four for K = 4, where
 * deriving the last measured slower than reading it (its subtractions
 * delay every blend of the vertex) */
static inline int split_nw(int K)
{
    return K == 4 ? 4 : K - 1;
}

/* state: header, per-joint floats (JSTRIDE each), then the vertex streams */
struct hdr {
    int nverts, njoints, kind, pivot, has_nrm, jstride;
    int use_tab, npairs;                             /* dlb: Algorithm 2 sign table */
    int nrm_mode;                                    /* enum skb_f32_normals */
    int isa, renorm;                                 /* enum skb_f32_isa, enum skb_f32_renorm (linear) */
    int layout, ngroups;                             /* enum skb_f32_layout */
    int rigid;                                       /* linear: every joint of the pose rigid */
    int hist[4];                                     /* vertices with 1..4 influences as blended */
    struct grp g[MAX_GROUPS];
    size_t off_cols;                                 /* quaternion kinds: each joint's 3x4 as LBS's */
    size_t off_pos, off_nrm, off_c, off_perm;        /* byte offsets */
    size_t off_tab, off_pairs, max_pairs, end;
};
/* the quaternion kernels resolve Algorithm 2's signs per (pivot joint,
 * joint) pair once per pose when the pair table (njoints^2 bytes) stays
 * small; beyond, per vertex */
#define SIGN_TABLE_MAX_JOINTS 256
#define HDR_BYTES 512
_Static_assert(sizeof(struct hdr) <= HDR_BYTES, "state header outgrew HDR_BYTES");

static int jstride(int kind)
{
    return kind == K_DLB ? 8 : kind == K_LINEAR ? 16 : 20;
}

static size_t round64(size_t x) { return (x + 63) / 64 * 64; }
static size_t round8(size_t x) { return (x + 7) / 8 * 8; }
/* the first offset >= x at page offset `at` */
static size_t page_at(size_t x, size_t at) { return (x + 4095 - at) / 4096 * 4096 + at; }

/* influences of vertex v: its slots with weight, at least one (slot 0 when
 * none has: such a vertex has weight 0 everywhere and skins to the origin,
 * as the 4-slot kernels skin it) */
static int influences(const struct skb_mesh *m, int v)
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        n += m->weight[4 * (size_t)v + k] > 0;
    return n ? n : 1;
}

/* the streams of every group; vertex streams padded by 8 vertices, so a
 * block of 8 that starts at any group's vertex reads inside the state */
static size_t layout_groups(const struct skb_mesh *m, int lay, struct hdr *h, size_t off)
{
    if (lay == SKB_F32_LAYOUT_SLOT4) {
        size_t nv = round8((size_t)m->nverts) + 8;
        h->ngroups = 1;
        h->g[0] = (struct grp){ 0, m->nverts, 4, 0, off, off + round64(sizeof(float) * 4 * nv) };
        h->hist[3] = m->nverts;
        return h->g[0].off_j + round64(sizeof(uint16_t) * 4 * nv);
    }
    for (int v = 0; v < m->nverts; v++)
        h->hist[influences(m, v) - 1]++;
    int v0 = 0;
    for (int k = 1; k <= 4; k++) {
        size_t n = round8((size_t)h->hist[k - 1]);
        if (!h->hist[k - 1])
            continue;
        struct grp *g = h->g + h->ngroups++;
        *g = (struct grp){ v0, v0 + h->hist[k - 1], k, 1, off, off + round64(sizeof(float) * (size_t)split_nw(k) * n) };
        off = g->off_j + round64(sizeof(uint16_t) * (size_t)k * n);
        v0 = g->v1;
    }
    return off;
}

static void layout(const struct skb_mesh *m, int kind, int lay, struct hdr *h)
{
    size_t nv = round8((size_t)m->nverts) + 8;
    memset(h, 0, sizeof *h);
    h->nverts = m->nverts;
    h->njoints = m->njoints;
    h->kind = kind;
    h->layout = lay;
    h->has_nrm = m->nrm != NULL;
    h->jstride = jstride(kind);
    h->off_cols = HDR_BYTES + round64(sizeof(float) * (size_t)h->jstride * m->njoints);
    /* the input positions and normals at fixed page offsets (the state is
     * page-aligned), so outputs placed at SKB_F32_OUT_*_PAGE_OFFSET keep
     * 2 KiB from them in the low 12 address bits at every vertex: all four
     * streams advance 12 bytes a vertex, and a load whose low 12 bits match
     * a pending store's waits for it (4K aliasing) */
    h->off_pos = page_at(h->off_cols + (kind != K_LINEAR ? round64(sizeof(float) * 16 * (size_t)m->njoints) : 0),
                         SKB_F32_IN_POS_PAGE_OFFSET);
    h->off_nrm = page_at(h->off_pos + round64(sizeof(float) * 3 * nv), SKB_F32_IN_NRM_PAGE_OFFSET);
    h->off_c = h->off_nrm + round64(sizeof(float) * 3 * nv);
    h->off_perm = h->off_c + (kind == K_QB ? round64(sizeof(float) * 3 * nv) : 0);
    size_t off = h->off_perm + (lay == SKB_F32_LAYOUT_SPLIT ? round64(sizeof(int) * (size_t)m->nverts) : 0);
    h->off_tab = layout_groups(m, lay, h, off);
    h->use_tab = kind != K_LINEAR && m->njoints <= SIGN_TABLE_MAX_JOINTS;
    size_t nj2 = (size_t)m->njoints * (size_t)m->njoints;
    h->max_pairs = h->use_tab ? (3 * nv + 1 < nj2 ? 3 * nv + 1 : nj2) : 0;
    h->off_pairs = h->off_tab + (h->use_tab ? round64(nj2) : 0);
    h->end = h->off_pairs + sizeof(uint16_t) * 2 * h->max_pairs;
}

static size_t state_size(const struct skb_mesh *m, int kind, int lay)
{
    struct hdr h;
    if (lay != SKB_F32_LAYOUT_SPLIT && lay != SKB_F32_LAYOUT_SLOT4)
        return 0;
    layout(m, kind, lay, &h);
    return h.end;
}

static size_t linear_size(const struct skb_mesh *m, int lay) { return state_size(m, K_LINEAR, lay); }
static size_t qlb0_size(const struct skb_mesh *m, int lay) { return state_size(m, K_QLB0, lay); }
static size_t qb_size(const struct skb_mesh *m, int lay) { return state_size(m, K_QB, lay); }
static size_t dlb_size(const struct skb_mesh *m, int lay) { return state_size(m, K_DLB, lay); }

#define AT(state, off, type) ((type *)((char *)(state) + (off)))
#define AT_C(state, off, type) ((const type *)((const char *)(state) + (off)))

/* mesh vertex of layout vertex i */
static inline int mesh_vertex(const struct hdr *h, const void *state, int i)
{
    return h->layout == SKB_F32_LAYOUT_SPLIT ? AT_C(state, h->off_perm, int)[i] : i;
}

/* SPLIT's order: by influence count, mesh order within a count (a
 * counting sort) */
static void bind_order(const struct skb_mesh *m, const struct hdr *h, void *state)
{
    int next[4] = { 0, 0, 0, 0 };
    int *perm = AT(state, h->off_perm, int);
    for (int g = 0; g < h->ngroups; g++)
        next[h->g[g].K - 1] = h->g[g].v0;
    for (int v = 0; v < m->nverts; v++)
        perm[next[influences(m, v) - 1]++] = v;
}

/* group g's joints and weights: SLOT4 the mesh's four slots; SPLIT the
 * slots with weight in slot order (so the first stays Algorithm 2's pivot),
 * the last weight left to 1 - the others.  Padding vertices (to a whole
 * block of 8): at the origin, all weight on joint 0, so a block never
 * divides by a zero blend. */
static void bind_group(const struct skb_mesh *m, const struct hdr *h, const struct grp *g, void *state)
{
    float *w = AT(state, g->off_w, float);
    uint16_t *j = AT(state, g->off_j, uint16_t);
    int n = g->v1 - g->v0, K = g->K;
    if (!g->derived) {
        for (size_t i = 0; i < 4 * (size_t)n; i++) {
            w[i] = (float)m->weight[i];
            j[i] = (uint16_t)m->joint[i];
        }
        for (int v = n; v % 8; v++)
            w[4 * v] = 1.0f;
        return;
    }
    for (int l = 0; l < n; l++) {
        int v = mesh_vertex(h, state, g->v0 + l), s = 0, none = influences(m, v) == 1
                && !(m->weight[4 * (size_t)v] > 0 || m->weight[4 * (size_t)v + 1] > 0
                     || m->weight[4 * (size_t)v + 2] > 0 || m->weight[4 * (size_t)v + 3] > 0);
        for (int k = 0; k < 4 && s < K; k++) {
            if (!(m->weight[4 * (size_t)v + k] > 0) && !none)
                continue;
            j[(size_t)K * l + s] = (uint16_t)m->joint[4 * (size_t)v + k];
            if (s < split_nw(K))
                w[(size_t)split_nw(K) * l + s] = (float)m->weight[4 * (size_t)v + k];
            s++;
        }
    }
}

static int bind_common(const struct skb_mesh *m, int kind, int lay, void *state)
{
    struct hdr h;
    if (lay != SKB_F32_LAYOUT_SPLIT && lay != SKB_F32_LAYOUT_SLOT4)
        return SKB_EINVAL;
    layout(m, kind, lay, &h);
    if (m->njoints > 65535)
        return SKB_ENOTSUP;     /* joint indices are stored as uint16 */
    memcpy(state, &h, sizeof h);
    if (lay == SKB_F32_LAYOUT_SPLIT)
        bind_order(m, &h, state);
    float *pos = AT(state, h.off_pos, float), *nrm = AT(state, h.off_nrm, float);
    for (int i = 0; i < m->nverts; i++) {
        int v = mesh_vertex(&h, state, i);
        for (int k = 0; k < 3; k++) {
            pos[3 * (size_t)i + k] = (float)m->pos[3 * (size_t)v + k];
            nrm[3 * (size_t)i + k] = m->nrm ? (float)m->nrm[3 * (size_t)v + k] : 0.0f;
        }
    }
    for (int g = 0; g < h.ngroups; g++)
        bind_group(m, &h, h.g + g, state);
    /* SPLIT LBS: unit rest normals, so one rigid influence gives a unit
     * normal with no renormalisation (the direction of a renormalised
     * blend does not depend on the rest normal's length) */
    for (int i = 0; kind == K_LINEAR && lay == SKB_F32_LAYOUT_SPLIT && i < m->nverts; i++) {
        float *n = nrm + 3 * (size_t)i, len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int k = 0; k < 3 && len > 0; k++)
            n[k] /= len;
    }
    return 0;
}

static int bind_pairs(const struct skb_mesh *m, void *state);

static int linear_bind(const struct skb_mesh *m, int lay, void *state) { return bind_common(m, K_LINEAR, lay, state); }

static int qlb0_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_QLB0, lay, state);
    return rc < 0 ? rc : bind_pairs(m, state);
}

static int dlb_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_DLB, lay, state);
    return rc < 0 ? rc : bind_pairs(m, state);
}
/* the (pivot joint, joint) pairs the mesh uses: the pivot is the first
 * influence with weight (Algorithm 2) */
static int bind_pairs(const struct skb_mesh *m, void *state)
{
    struct hdr *h = (struct hdr *)state;
    if (!h->use_tab)
        return 0;
    uint8_t *seen = AT(state, h->off_tab, uint8_t);
    uint16_t *pairs = AT(state, h->off_pairs, uint16_t);
    size_t nj = (size_t)m->njoints;
    h->npairs = 0;
    for (int v = 0; v < m->nverts; v++) {
        const int *j = m->joint + 4 * v;
        const skb_real *w = m->weight + 4 * v;
        int pk = w[0] > 0 ? 0 : w[1] > 0 ? 1 : w[2] > 0 ? 2 : 3;
        for (int k = 0; k < 4; k++) {
            size_t e = (size_t)j[pk] * nj + (size_t)j[k];
            if (seen[e] || j[k] == j[pk])
                continue;
            seen[e] = 1;
            if ((size_t)h->npairs == h->max_pairs)
                return SKB_ENOMEM;   /* cannot happen: at most 3 new pairs per vertex */
            pairs[2 * h->npairs] = (uint16_t)j[pk];
            pairs[2 * h->npairs + 1] = (uint16_t)j[k];
            h->npairs++;
        }
    }
    memset(seen, 0, nj * nj);
    return 0;
}

/* qb's centres (layout order): the mesh's own, else the rule of the double
 * path, read back from a bound double state of qb (one source of truth for
 * the rule) */
static int qb_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_QB, lay, state);
    struct hdr h;
    float *c;
    if (rc < 0 || (rc = bind_pairs(m, state)) < 0)
        return rc;
    memcpy(&h, state, sizeof h);
    c = AT(state, h.off_c, float);
    if (!m->center && !m->joint_rest)
        return SKB_ENOCENTER;
    for (int i = 0; i < m->nverts; i++) {
        int v = mesh_vertex(&h, state, i);
        const skb_real *src = m->center ? m->center + 3 * (size_t)v : m->joint_rest + 3 * (size_t)skb__qb_center_joint(m, v);
        for (int k = 0; k < 3; k++)
            c[3 * (size_t)i + k] = (float)src[k];
    }
    return 0;
}
/* Algorithm 2 once per used joint pair: 1 = flip the second joint.  The
 * quaternion is the first four floats of each joint's data (any order) */
static void fill_signs(const struct skb_mesh *m, void *state, int stride)
{
    const struct hdr *h = (const struct hdr *)state;
    const float *jd = AT_C(state, HDR_BYTES, float);
    if (!h->use_tab)
        return;
    uint8_t *tab = AT(state, h->off_tab, uint8_t);
    const uint16_t *pairs = AT_C(state, h->off_pairs, uint16_t);
    for (int i = 0; i < h->npairs; i++) {
        const float *a = jd + stride * pairs[2 * i], *b = jd + stride * pairs[2 * i + 1];
        float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        tab[(size_t)pairs[2 * i] * (size_t)m->njoints + pairs[2 * i + 1]] = dot < 0;
    }
}

/* columns of the 3x4 part: c0 c1 c2 t, each xyz + pad (t pads with 1) */
static void put_columns(const skb_real mat[16], float *out)
{
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 3; r++)
            out[4 * c + r] = (float)mat[4 * r + c];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* the 3x3 of a row-major 4x4 orthonormal to RIGID_TOL (a rotation or
 * reflection keeps a unit normal unit) */
#define RIGID_TOL 1e-7
static int orthonormal(const skb_real c[16])
{
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++) {
            skb_real d = c[a] * c[b] + c[4 + a] * c[4 + b] + c[8 + a] * c[8 + b];
            if (!(fabs((double)d - (a == b)) <= RIGID_TOL))
                return 0;
        }
    return 1;
}

static int linear_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                          const struct skb_params *prm, void *state)
{
    struct hdr *h = (struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    int rigid = 1;
    for (int j = 0; j < m->njoints; j++) {
        skb_real c[16];
        if (p->scale)
            skb_mat4_mul(p->mats + 16 * j, p->scale + 16 * j, c);
        else
            memcpy(c, p->mats + 16 * j, sizeof c);
        rigid = rigid && orthonormal(c);
        put_columns(c, jd + 16 * j);
    }
    h->rigid = rigid;
    return 0;
}

static int qlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    struct hdr *h = (struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    if (p->scale)
        return SKB_ENOTSUP;
    h->pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    for (int j = 0; j < m->njoints; j++) {
        skb_real r[9], t[3];
        struct skb_quat q;
        skb_mat4_to_rt(p->mats + 16 * j, r, t);
        skb_quat_from_mat3(r, &q);
        float *o = jd + 20 * j, cols[16];
        o[0] = (float)q.x; o[1] = (float)q.y; o[2] = (float)q.z; o[3] = (float)q.w;
        put_columns(p->mats + 16 * j, cols);
        memcpy(o + 4, cols + 12, 4 * sizeof(float));    /* t next to q: one 8-wide load */
        memcpy(o + 8, cols, 12 * sizeof(float));
        memcpy(AT(state, h->off_cols, float) + 16 * j, cols, sizeof cols);
    }
    if (h->pivot)
        fill_signs(m, state, 20);
    return 0;
}

/* the unit quaternion of a row-major 4x4's rotation: skb_quat_from_mat3's
 * branches (M. Day 2015) and its w >= 0, with one division where it takes
 * four, inline: the conversion's sqrt and divisions were most of DLB's
 * per-pose prepare after the columns (perf on bcn_human).  The float
 * kernels see the same quaternion to double rounding. */
static inline void rotation_quat(const skb_real *m, struct skb_quat *q)
{
    skb_real s, inv;
    if (m[10] < 0 && m[0] > m[5]) {
        s = sqrt(1 + m[0] - m[5] - m[10]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = (m[9] - m[6]) * inv, .x = s / 4, .y = (m[1] + m[4]) * inv, .z = (m[2] + m[8]) * inv };
    } else if (m[10] < 0) {
        s = sqrt(1 + m[5] - m[0] - m[10]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = (m[2] - m[8]) * inv, .x = (m[1] + m[4]) * inv, .y = s / 4, .z = (m[6] + m[9]) * inv };
    } else if (m[0] < -m[5]) {
        s = sqrt(1 + m[10] - m[0] - m[5]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = (m[4] - m[1]) * inv, .x = (m[2] + m[8]) * inv, .y = (m[6] + m[9]) * inv, .z = s / 4 };
    } else {
        s = sqrt(1 + m[0] + m[5] + m[10]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = s / 4, .x = (m[9] - m[6]) * inv, .y = (m[2] - m[8]) * inv, .z = (m[4] - m[1]) * inv };
    }
    if (q->w < 0)
        *q = (struct skb_quat){ .w = -q->w, .x = -q->x, .y = -q->y, .z = -q->z };
}

/* the 3x4 columns of the rigid transform a joint's unit dual quaternion
 * encodes (what skb_dq_to_mat4 and put_columns gave): the rotation of its
 * real part, and the matrix's own translation, which 2 vec(d r*) only gives
 * back.  Written straight into floats: through the double 4x4 and its
 * helpers it was a third of DLB's per-pose prepare (perf on bcn_human,
 * 54 joints), and the prepare, not the kernels, made DLB slower than LBS
 * there (2.2 against 0.7 us a pose; the kernels 6.1 against 6.9 us). */
static void rigid_columns(const struct skb_quat *q, const skb_real mat[16], float *out)
{
    skb_real x2 = q->x + q->x, y2 = q->y + q->y, z2 = q->z + q->z;
    skb_real xx = q->x * x2, yy = q->y * y2, zz = q->z * z2;
    skb_real xy = q->x * y2, xz = q->x * z2, yz = q->y * z2;
    skb_real wx = q->w * x2, wy = q->w * y2, wz = q->w * z2;
    const skb_real r[12] = { 1 - (yy + zz), xy + wz, xz - wy, xy - wz, 1 - (xx + zz), yz + wx,
                             xz + wy, yz - wx, 1 - (xx + yy), mat[3], mat[7], mat[11] };
    for (int c = 0; c < 4; c++) {
        for (int k = 0; k < 3; k++)
            out[4 * c + k] = (float)r[3 * c + k];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

static int dlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    const struct hdr *h = (const struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    if (p->scale || prm->antipodal != SKB_ANTIPODAL_PIVOT)
        return SKB_ENOTSUP;     /* the fast path implements Algorithm 2 per vertex */
    for (int j = 0; j < m->njoints; j++) {
        struct skb_dq q;
        const skb_real *mj = p->mats + 16 * j, half_t[3] = { mj[3] * 0.5, mj[7] * 0.5, mj[11] * 0.5 };
        rotation_quat(mj, &q.r);
        skb_quat_pure_mul(half_t, &q.r, &q.d);  /* eq. 2.3: d = (t/2) r, as skb_dq_from_qt */
        float *o = jd + 8 * j;
        o[0] = (float)q.r.x; o[1] = (float)q.r.y; o[2] = (float)q.r.z; o[3] = (float)q.r.w;
        o[4] = (float)q.d.x; o[5] = (float)q.d.y; o[6] = (float)q.d.z; o[7] = (float)q.d.w;
        rigid_columns(&q.r, p->mats + 16 * j, AT(state, h->off_cols, float) + 16 * j);
    }
    fill_signs(m, state, 8);
    return 0;
}

static inline v4f load4(const float *p)
{
    v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* a vertex's xyz from lanes 0-2.  A 4-float store is one instruction but
 * writes the next vertex's x: harmless inside a range skinned in order (the
 * next vertex overwrites it), a wrong value and a data race past its end
 * (a range [h, n) skinned after [0, h) found vertex h corrupted).  So every
 * vertex but a range's last takes the 4-float store, the last exactly 3
 * floats: nothing is written outside [v0, v1). */
static inline void store_vertex(float *p, v4f v, int last)
{
    if (last)
        memcpy(p, &v, 3 * sizeof(float));
    else
        memcpy(p, &v, sizeof v);
}

static inline v4f hsum4(v4f v)
{
    v = v + __builtin_shufflevector(v, v, 1, 0, 3, 2);
    return v + __builtin_shufflevector(v, v, 2, 3, 0, 1);
}

/* 1/sqrt(d) per lane: the 12-bit hardware estimate and one Newton step
 * (relative error ~1e-7, inside SKB_TOL_F32_NRM).  A scalar sqrt and divide
 * per vertex held the divider for most of LBS's time (perf on body/sub4). */
static inline v4f inv_sqrt4(v4f d)
{
#if defined(__SSE__)
    v4f y = __builtin_ia32_rsqrtps(d);
    return y * (1.5f - 0.5f * d * y * y);
#else
    return (v4f){ 1.0f / sqrtf(d[0]), 1.0f / sqrtf(d[1]), 1.0f / sqrtf(d[2]), 1.0f / sqrtf(d[3]) };
#endif
}

/* 1/sqrt(d) per lane, rounded square root and divide: the planner's
 * other renormalisation (SKB_F32_RENORM_*_EXACT) */
static inline v4f inv_sqrt4_exact(v4f d)
{
#if defined(__SSE__)
    return 1.0f / __builtin_ia32_sqrtps(d);
#else
    return (v4f){ 1.0f / sqrtf(d[0]), 1.0f / sqrtf(d[1]), 1.0f / sqrtf(d[2]), 1.0f / sqrtf(d[3]) };
#endif
}

/* LBS: blend the four joints' 3x4 columns (c0 c1 c2 t, 16 floats per
 * joint) as two 8-wide halves (c0|c1, c2|t), then p' = c0 x + c1 y + c2 z + t
 * in 4-wide columns.  Multiply-add throughput bounds this loop, and 8-wide
 * halves need half the blend's multiply-adds of 4-wide columns.  Measured
 * slower: one 16-wide vector per joint (its quarter sums lengthen each
 * vertex's dependency chain beyond what out-of-order execution hides). */
static inline v8f load8(const float *p)
{
    v8f v;
    memcpy(&v, p, sizeof v);
    return v;
}

#define LO4(a) __builtin_shufflevector(a, a, 0, 1, 2, 3)
#define HI4(a) __builtin_shufflevector(a, a, 4, 5, 6, 7)

/* p' = c0 x + c1 y + c2 z + t from the blended columns (b01 = c0|c1,
 * b23 = c2|t), the normal by the 3x3 */
static inline AI void lbs_out(v8f b01, v8f b23, const float *__restrict__ P, const float *__restrict__ N, int v,
                              int has_nrm, int renorm, int last, float *__restrict__ OP, float *__restrict__ ON)
{
    v4f b0 = LO4(b01), b1 = HI4(b01), b2 = LO4(b23);
    store_vertex(OP + 3 * v, b0 * P[3 * v] + b1 * P[3 * v + 1] + b2 * P[3 * v + 2] + HI4(b23), last);
    if (has_nrm) {
        /* the blended 3x3 is not orthogonal: renormalise (as the double
         * path), unless a shader will (SKB_F32_NRM_SHADER) */
        v4f q = b0 * N[3 * v] + b1 * N[3 * v + 1] + b2 * N[3 * v + 2];
        if (renorm) {   /* 1: estimate + Newton step, 2: square root and divide */
            v4f d = hsum4(q * q);
            v4i ok = d > 0;
            q = (v4f)(((v4i)(q * (renorm == 2 ? inv_sqrt4_exact(d) : inv_sqrt4(d))) & ok) | ((v4i)q & ~ok));
        }
        store_vertex(ON + 3 * v, q, last);
    }
}

/* one LBS vertex of SLOT4 (four slots, zero weights included); `last`
 * constant at each call site, so the loop below keeps the one-instruction
 * 4-float store and only the range's final vertex takes the 3-float one
 * (see store_vertex) */
static inline AI void linear_vertex(const float *__restrict__ jd,
    const float *__restrict__ P, const float *__restrict__ N, const float *__restrict__ W,
    const uint16_t *__restrict__ J, int v, int has_nrm, int renorm, int last, float *__restrict__ OP,
    float *__restrict__ ON)
{
    const float *m0 = jd + 16 * J[4 * v], *m1 = jd + 16 * J[4 * v + 1];
    const float *m2 = jd + 16 * J[4 * v + 2], *m3 = jd + 16 * J[4 * v + 3];
    float w0 = W[4 * v], w1 = W[4 * v + 1], w2 = W[4 * v + 2], w3 = W[4 * v + 3];
    v8f b01 = w0 * load8(m0) + w1 * load8(m1) + w2 * load8(m2) + w3 * load8(m3);
    v8f b23 = w0 * load8(m0 + 8) + w1 * load8(m1 + 8) + w2 * load8(m2 + 8) + w3 * load8(m3 + 8);
    lbs_out(b01, b23, P, N, v, has_nrm, renorm, last, OP, ON);
}

/* the vertices [v0, v1); renorm constant per entry point, so each keeps
 * the one loop it needs */
static inline __attribute__((always_inline)) void linear_range(const float *__restrict__ jd,
    const float *__restrict__ P, const float *__restrict__ N, const float *__restrict__ W,
    const uint16_t *__restrict__ J, int v0, int v1, int has_nrm, int renorm, float *__restrict__ OP,
    float *__restrict__ ON)
{
    if (v0 >= v1)
        return;
    for (int v = v0; v < v1 - 1; v++)
        linear_vertex(jd, P, N, W, J, v, has_nrm, renorm, 0, OP, ON);
    linear_vertex(jd, P, N, W, J, v1 - 1, has_nrm, renorm, 1, OP, ON);
}

/* SLOT4 LBS, normals per renorm (0 raw, 1 estimate + Newton, 2 exact) */
#define SLOT4_LBS(name, R, ATTR)                                                                   \
    ATTR static void name(const float *__restrict__ jd, const float *__restrict__ P,             \
                          const float *__restrict__ N, const float *__restrict__ W,              \
                          const uint16_t *__restrict__ J, int v0, int v1, int has_nrm,          \
                          float *__restrict__ OP, float *__restrict__ ON)                        \
    {                                                                                            \
        linear_range(jd, P, N, W, J, v0, v1, has_nrm, R, OP, ON);                                \
    }

#define SHUF4(a, i, j, k, l) __builtin_shufflevector(a, a, i, j, k, l)
static inline v4f cross3(v4f a, v4f b)
{
    return SHUF4(a, 1, 2, 0, 3) * SHUF4(b, 2, 0, 1, 3) - SHUF4(a, 2, 0, 1, 3) * SHUF4(b, 1, 2, 0, 3);
}

/* DLB and QLB, 8 vertices at a time: each vertex's signed blend as one
 * 8-wide row, an 8x8 transpose to one vector per component, then the
 * rotation on 8 vertices per operation (cross products with no shuffles).
 * Positions and normals stay packed xyz; three loads and two shuffles per
 * component unpack them.  b0 x (b0 x v + a0 v) + b0 x be is
 * folded into b0 x (b0 x v + a0 v + be). */
typedef int v8i __attribute__((vector_size(32)));
#define SH8(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)

static inline __attribute__((always_inline)) void load_xyz8(const float *p, v8f *x, v8f *y, v8f *z)
{
    v8f a = load8(p), b = load8(p + 8), c = load8(p + 16);
    *x = SH8(SH8(a, b, 0, 3, 6, 9, 12, 15, 0, 0), c, 0, 1, 2, 3, 4, 5, 10, 13);
    *y = SH8(SH8(a, b, 1, 4, 7, 10, 13, 0, 0, 0), c, 0, 1, 2, 3, 4, 8, 11, 14);
    *z = SH8(SH8(a, b, 2, 5, 8, 11, 14, 0, 0, 0), c, 0, 1, 2, 3, 4, 9, 12, 15);
}

static inline void store8(float *p, v8f v)
{
    memcpy(p, &v, sizeof v);
}

static inline __attribute__((always_inline)) void store_xyz8(float *p, v8f x, v8f y, v8f z)
{
    store8(p, SH8(SH8(x, y, 0, 8, 0, 1, 9, 0, 2, 10), z, 0, 1, 8, 3, 4, 9, 6, 7));
    store8(p + 8, SH8(SH8(x, y, 0, 3, 11, 0, 4, 12, 0, 5), z, 10, 1, 2, 11, 4, 5, 12, 7));
    store8(p + 16, SH8(SH8(x, y, 13, 0, 6, 14, 0, 7, 15, 0), z, 0, 13, 2, 3, 14, 5, 6, 15));
}

/* SPLIT's LBS blend of the l-th vertex of a group of K influences (K
 * constant per entry point): K joints, K - 1 weights and the last 1 -
 * their sum; one influence is one matrix, no blend */
static inline AI void split_blend(const float *__restrict__ jd, const float *__restrict__ W,
                                  const uint16_t *__restrict__ J, int l, int K, v8f *b01, v8f *b23)
{
    const uint16_t *j = J + (size_t)K * l;
    const float *w = W + (size_t)split_nw(K) * l, *ml = jd + 16 * j[K - 1];
    *b01 = load8(ml);
    *b23 = load8(ml + 8);
    if (split_nw(K) == K) {
        *b01 *= w[K - 1];
        *b23 *= w[K - 1];
        for (int s = 0; s < K - 1; s++) {
            const float *ms = jd + 16 * j[s];
            *b01 += w[s] * load8(ms);
            *b23 += w[s] * load8(ms + 8);
        }
    } else if (K > 1) {
        float wl = 1.0f;
        for (int s = 0; s < K - 1; s++)
            wl -= w[s];
        *b01 *= wl;
        *b23 *= wl;
        for (int s = 0; s < K - 1; s++) {
            const float *ms = jd + 16 * j[s];
            *b01 += w[s] * load8(ms);
            *b23 += w[s] * load8(ms + 8);
        }
    }
}

/* unit normals of 8 vertices from their blended normals q[u] (xyz in lanes
 * 0-2), renormalised 8 at a time (one estimate and Newton step for 8
 * vertices where per vertex it cost as much as the blend); the first cnt
 * written at ON.  Lane for lane the same operations whatever cnt, so a
 * vertex's normal does not depend on the range it was skinned in. */
static inline AI void renorm8_store(const v4f q[8], float *__restrict__ ON, int cnt, int exact)
{
    v4f t[8], x4[2], y4[2], z4[2];
    for (int h = 0; h < 2; h++) {
        const v4f *r = q + 4 * h;
        t[0] = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5);
        t[1] = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
        t[2] = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5);
        t[3] = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
        x4[h] = __builtin_shufflevector(t[0], t[2], 0, 1, 4, 5);
        y4[h] = __builtin_shufflevector(t[0], t[2], 2, 3, 6, 7);
        z4[h] = __builtin_shufflevector(t[1], t[3], 0, 1, 4, 5);
    }
    v8f x = __builtin_shufflevector(x4[0], x4[1], 0, 1, 2, 3, 4, 5, 6, 7);
    v8f y = __builtin_shufflevector(y4[0], y4[1], 0, 1, 2, 3, 4, 5, 6, 7);
    v8f z = __builtin_shufflevector(z4[0], z4[1], 0, 1, 2, 3, 4, 5, 6, 7);
    v8f d = x * x + y * y + z * z;
    v4f lo = exact ? inv_sqrt4_exact(LO4(d)) : inv_sqrt4(LO4(d)), hi = exact ? inv_sqrt4_exact(HI4(d)) : inv_sqrt4(HI4(d));
    v8f inv = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
    v8i ok = d > 0;
    x = (v8f)(((v8i)(x * inv) & ok) | ((v8i)x & ~ok));
    y = (v8f)(((v8i)(y * inv) & ok) | ((v8i)y & ~ok));
    z = (v8f)(((v8i)(z * inv) & ok) | ((v8i)z & ~ok));
    if (cnt == 8) {
        store_xyz8(ON, x, y, z);
    } else {
        float tmp[24];
        store_xyz8(tmp, x, y, z);
        memcpy(ON, tmp, sizeof(float) * 3 * (size_t)cnt);
    }
}

/* p' of layout vertex i stored, its blended (not renormalised) normal returned */
static inline AI v4f lbs_pos(v8f b01, v8f b23, const float *__restrict__ P, const float *__restrict__ N, int i,
                             int last, float *__restrict__ OP)
{
    v4f b0 = LO4(b01), b1 = HI4(b01), b2 = LO4(b23);
    store_vertex(OP + 3 * i, b0 * P[3 * i] + b1 * P[3 * i + 1] + b2 * P[3 * i + 2] + HI4(b23), last);
    return b0 * N[3 * i] + b1 * N[3 * i + 1] + b2 * N[3 * i + 2];
}

/* [v0, v1) of a SPLIT group, normals (has_nrm constant per call site) not
 * renormalised.  The last vertex is peeled, as in linear_range: with
 * `last = (i + 1 == v1)` inside the loop gcc kept each vertex's position
 * and normal in a stack slot for the 3-float store and tested `last` twice
 * per vertex (objdump of lbs2_raw: 4 stores and 3 branches per vertex where
 * 2 and 1 do).  Peeled, the skin of bcn_human (in cache) takes 5.0 us
 * instead of 5.4 (best of 2000, 16 output offsets); on body/sub4, which
 * waits on memory, no change beyond the noise. */
static inline AI void split_raw(const float *__restrict__ jd, const float *__restrict__ P,
    const float *__restrict__ N, const float *__restrict__ W, const uint16_t *__restrict__ J, int g0, int v0,
    int v1, int K, int has_nrm, int renorm, float *__restrict__ OP, float *__restrict__ ON)
{
    v8f b01, b23;
    for (int i = v0; i < v1 - 1; i++) {
        split_blend(jd, W, J, i - g0, K, &b01, &b23);
        lbs_out(b01, b23, P, N, i, has_nrm, renorm, 0, OP, ON);
    }
    split_blend(jd, W, J, v1 - 1 - g0, K, &b01, &b23);
    lbs_out(b01, b23, P, N, v1 - 1, has_nrm, renorm, 1, OP, ON);
}

/* layout vertices [v0, v1) of a SPLIT group of K influences starting at g0;
 * renorm (constant per entry point): 0 normals left raw, 1 renormalised 8
 * vertices at a time (estimate + Newton step), 2 vertex by vertex (the
 * same), 3 8 at a time by square root and divide, 4 vertex by vertex (the
 * same): the planner's candidates (enum skb_f32_renorm + 1) */
static inline AI void split_range(const float *__restrict__ jd, const float *__restrict__ P,
    const float *__restrict__ N, const float *__restrict__ W, const uint16_t *__restrict__ J, int g0, int v0,
    int v1, int K, int has_nrm, int renorm, float *__restrict__ OP, float *__restrict__ ON)
{
    v8f b01, b23;
    int c = v0;
    if (v0 >= v1)
        return;
    if (!(has_nrm && renorm)) {
        if (has_nrm)
            split_raw(jd, P, N, W, J, g0, v0, v1, K, 1, 0, OP, ON);
        else
            split_raw(jd, P, N, W, J, g0, v0, v1, K, 0, 0, OP, ON);
        return;
    }
    if (renorm == 2 || renorm == 4) {
        split_raw(jd, P, N, W, J, g0, v0, v1, K, 1, renorm / 2, OP, ON);
        return;
    }
    for (; c + 8 <= v1; c += 8) {
        v4f q[8];
        for (int u = 0; u < 8; u++) {
            split_blend(jd, W, J, c + u - g0, K, &b01, &b23);
            q[u] = lbs_pos(b01, b23, P, N, c + u, u == 7, OP);
        }
        renorm8_store(q, ON + 3 * c, 8, renorm == 3);
    }
    if (c < v1) {
        v4f q[8];
        for (int u = 0; u < 8; u++) {
            q[u] = (v4f){ 0, 0, 0, 0 };
            if (c + u < v1) {
                split_blend(jd, W, J, c + u - g0, K, &b01, &b23);
                q[u] = lbs_pos(b01, b23, P, N, c + u, c + u + 1 == v1, OP);
            }
        }
        renorm8_store(q, ON + 3 * c, v1 - c, renorm == 3);
    }
}

#define SPLIT_LBS(name, K, R, ATTR)                                                                \
    ATTR static void name(const float *__restrict__ jd, const float *__restrict__ P,            \
                          const float *__restrict__ N, const float *__restrict__ W,             \
                          const uint16_t *__restrict__ J, int g0, int v0, int v1, int has_nrm,  \
                          float *__restrict__ OP, float *__restrict__ ON)                       \
    {                                                                                            \
        split_range(jd, P, N, W, J, g0, v0, v1, K, has_nrm, R, OP, ON);                          \
    }
#define SPLIT_LBS_K(name, R, ATTR) SPLIT_LBS(name##_1, 1, R, ATTR) SPLIT_LBS(name##_2, 2, R, ATTR) \
    SPLIT_LBS(name##_3, 3, R, ATTR) SPLIT_LBS(name##_4, 4, R, ATTR)
#define NORMAL_SET(sfx, ATTR) SPLIT_LBS_K(lbs_raw##sfx, 0, ATTR) SPLIT_LBS_K(lbs_b8##sfx, 1, ATTR)           \
    SPLIT_LBS_K(lbs_vx##sfx, 2, ATTR) SPLIT_LBS_K(lbs_b8x##sfx, 3, ATTR) SPLIT_LBS_K(lbs_vxx##sfx, 4, ATTR) \
    SLOT4_LBS(slot4_raw##sfx, 0, ATTR) SLOT4_LBS(slot4_vx##sfx, 1, ATTR) SLOT4_LBS(slot4_vxx##sfx, 2, ATTR)
NORMAL_SET(_auto, KERNEL)
#if SKB_EXPLICIT_ISA
NORMAL_SET(_v4, ISA_V4)
NORMAL_SET(_v3, ISA_V3)
NORMAL_SET(_base, ISA_BASE)
#endif

typedef void (*split_lbs_fn)(const float *, const float *, const float *, const float *, const uint16_t *, int, int,
                             int, int, float *, float *);
typedef void (*slot4_lbs_fn)(const float *, const float *, const float *, const float *, const uint16_t *, int, int,
                             int, float *, float *);
/* one instruction set's LBS entries: split [renorm index][K - 1], slot4
 * [0 raw, 1 estimate + Newton, 2 exact] */
struct lbs_set {
    split_lbs_fn split[5][4];
    slot4_lbs_fn slot4[3];
};
#define SPLIT_ROW(name) { name##_1, name##_2, name##_3, name##_4 }
#define LBS_SET(sfx) { { SPLIT_ROW(lbs_raw##sfx), SPLIT_ROW(lbs_b8##sfx), SPLIT_ROW(lbs_vx##sfx), \
    SPLIT_ROW(lbs_b8x##sfx), SPLIT_ROW(lbs_vxx##sfx) }, { slot4_raw##sfx, slot4_vx##sfx, slot4_vxx##sfx } }
/* [enum skb_f32_isa] */
static const struct lbs_set lbs_sets[] = {
    LBS_SET(_auto),
#if SKB_EXPLICIT_ISA
    LBS_SET(_v4), LBS_SET(_v3), LBS_SET(_base),
#endif
};

/* rows r0..r7 -> columns c[j] = (r0[j], ..., r7[j]); written out in
 * scalars (not loops over arrays) so the vectors stay in registers */
#define UNPACK_LO(a, b) SH8(a, b, 0, 8, 1, 9, 4, 12, 5, 13)
#define UNPACK_HI(a, b) SH8(a, b, 2, 10, 3, 11, 6, 14, 7, 15)
#define PAIRS_LO(a, b) SH8(a, b, 0, 1, 8, 9, 4, 5, 12, 13)
#define PAIRS_HI(a, b) SH8(a, b, 2, 3, 10, 11, 6, 7, 14, 15)
#define HALF_LO(a, b) SH8(a, b, 0, 1, 2, 3, 8, 9, 10, 11)
#define HALF_HI(a, b) SH8(a, b, 4, 5, 6, 7, 12, 13, 14, 15)
static inline __attribute__((always_inline)) void transpose8(v8f r0, v8f r1, v8f r2, v8f r3, v8f r4, v8f r5,
                                                             v8f r6, v8f r7, v8f c[8])
{
    v8f t0 = UNPACK_LO(r0, r1), t1 = UNPACK_HI(r0, r1), t2 = UNPACK_LO(r2, r3), t3 = UNPACK_HI(r2, r3);
    v8f t4 = UNPACK_LO(r4, r5), t5 = UNPACK_HI(r4, r5), t6 = UNPACK_LO(r6, r7), t7 = UNPACK_HI(r6, r7);
    v8f u0 = PAIRS_LO(t0, t2), u1 = PAIRS_HI(t0, t2), u2 = PAIRS_LO(t1, t3), u3 = PAIRS_HI(t1, t3);
    v8f u4 = PAIRS_LO(t4, t6), u5 = PAIRS_HI(t4, t6), u6 = PAIRS_LO(t5, t7), u7 = PAIRS_HI(t5, t7);
    c[0] = HALF_LO(u0, u4); c[4] = HALF_HI(u0, u4);
    c[1] = HALF_LO(u1, u5); c[5] = HALF_HI(u1, u5);
    c[2] = HALF_LO(u2, u6); c[6] = HALF_HI(u2, u6);
    c[3] = HALF_LO(u3, u7); c[7] = HALF_HI(u3, u7);
}

/* what the block kernels read (one bound mesh, one prepared pose, one
 * group): P, N, C in layout order, W and J from the group's first vertex
 * g0; K influences, derived: SPLIT's streams (K joints, K - 1 weights) */
struct blk {
    const float *jd, *P, *N, *W;
    const float *C;             /* qb's rotation centres, else NULL */
    const uint16_t *J;
    const uint8_t *tab;         /* Algorithm 2's pair table */
    int nj, kind, has_nrm;
    int g0, K, derived;
};

/* SLOT4: the pair-table row of vertex v's pivot (first influence with weight) */
static inline AI const uint8_t *pivot_row(const struct blk *b, int v)
{
    const float *w = b->W + 4 * v;
    int pk = w[0] > 0 ? 0 : w[1] > 0 ? 1 : w[2] > 0 ? 2 : 3;
    return b->tab + (size_t)b->J[4 * v + pk] * (size_t)b->nj;
}

/* SLOT4: Algorithm 2's signed weight of influence k of vertex v */
static inline AI float signed_weight(const struct blk *b, const uint8_t *t, int v, int k)
{
    union { float f; uint32_t u; } x = { b->W[4 * v + k] };
    x.u ^= (uint32_t)t[b->J[4 * v + k]] << 31;
    return x.f;
}

/* SLOT4: DLB row of vertex v: the signed (real | dual) blend */
static inline AI v8f dq_row4(const struct blk *b, int v)
{
    const uint8_t *t = pivot_row(b, v);
    const uint16_t *j = b->J + 4 * v;
    return signed_weight(b, t, v, 0) * load8(b->jd + 8 * j[0]) + signed_weight(b, t, v, 1) * load8(b->jd + 8 * j[1]) +
           signed_weight(b, t, v, 2) * load8(b->jd + 8 * j[2]) + signed_weight(b, t, v, 3) * load8(b->jd + 8 * j[3]);
}

/* SLOT4: QLB row of vertex v: (signed quaternion sum | translation), the
 * translation sum_i w_i t_i (qlb0) or sum_i w_i C_i c about the vertex's
 * centre c (qb, thesis eq. 3.7).  Joint data: q, t, c0, c1, c2. */
static inline AI v8f qt_row4(const struct blk *b, int v)
{
    const uint8_t *t = pivot_row(b, v);
    const uint16_t *j = b->J + 4 * v;
    const float *w = b->W + 4 * v, *m0 = b->jd + 20 * j[0], *m1 = b->jd + 20 * j[1];
    const float *m2 = b->jd + 20 * j[2], *m3 = b->jd + 20 * j[3];
    v4f q = signed_weight(b, t, v, 0) * load4(m0) + signed_weight(b, t, v, 1) * load4(m1) +
            signed_weight(b, t, v, 2) * load4(m2) + signed_weight(b, t, v, 3) * load4(m3);
    v4f tr = w[0] * load4(m0 + 4) + w[1] * load4(m1 + 4) + w[2] * load4(m2 + 4) + w[3] * load4(m3 + 4);
    if (b->kind == K_QB) {
        const float *c = b->C + 3 * v;
        v8f c01 = w[0] * load8(m0 + 8) + w[1] * load8(m1 + 8) + w[2] * load8(m2 + 8) + w[3] * load8(m3 + 8);
        v4f c2 = w[0] * load4(m0 + 16) + w[1] * load4(m1 + 16) + w[2] * load4(m2 + 16) + w[3] * load4(m3 + 16);
        tr = LO4(c01) * c[0] + HI4(c01) * c[1] + c2 * c[2] + tr;
    }
    return __builtin_shufflevector(q, tr, 0, 1, 2, 3, 4, 5, 6, 7);
}

/* SPLIT: the weights of the l-th vertex of a group, the last 1 - the others */
static inline AI void split_weights(const struct blk *b, int l, float w[4])
{
    const float *s = b->W + (size_t)split_nw(b->K) * l;
    float last = 1.0f;
    for (int k = 0; k < b->K - 1; k++) {
        w[k] = s[k];
        last -= s[k];
    }
    w[b->K - 1] = split_nw(b->K) == b->K ? s[b->K - 1] : last;
}

static inline AI float flip(float w, uint8_t bit)
{
    union { float f; uint32_t u; } x = { w };
    x.u ^= (uint32_t)bit << 31;
    return x.f;
}

/* SPLIT: DLB row of layout vertex v.  The first influence is the pivot
 * (its sign is +); one influence is the joint's own unit dual quaternion */
static inline AI v8f dq_row_split(const struct blk *b, int v)
{
    int l = v - b->g0, K = b->K;
    const uint16_t *j = b->J + (size_t)K * l;
    if (K == 1)
        return load8(b->jd + 8 * j[0]);
    const uint8_t *t = b->tab + (size_t)j[0] * (size_t)b->nj;
    float w[4];
    split_weights(b, l, w);
    v8f r = w[0] * load8(b->jd + 8 * j[0]);
    for (int k = 1; k < K; k++)
        r += flip(w[k], t[j[k]]) * load8(b->jd + 8 * j[k]);
    return r;
}

/* SPLIT: QLB row of layout vertex v (as qt_row4) */
static inline AI v8f qt_row_split(const struct blk *b, int v)
{
    int l = v - b->g0, K = b->K;
    const uint16_t *j = b->J + (size_t)K * l;
    const uint8_t *t = b->tab + (size_t)j[0] * (size_t)b->nj;
    const float *m = b->jd + 20 * j[0];
    float w[4];
    split_weights(b, l, w);
    v4f q = w[0] * load4(m), tr = w[0] * load4(m + 4), c2 = w[0] * load4(m + 16);
    v8f c01 = w[0] * load8(m + 8);
    for (int k = 1; k < K; k++) {
        m = b->jd + 20 * j[k];
        q += flip(w[k], t[j[k]]) * load4(m);
        tr += w[k] * load4(m + 4);
        if (b->kind == K_QB) {
            c01 += w[k] * load8(m + 8);
            c2 += w[k] * load4(m + 16);
        }
    }
    if (b->kind == K_QB) {
        const float *c = b->C + 3 * v;
        tr = LO4(c01) * c[0] + HI4(c01) * c[1] + c2 * c[2] + tr;
    }
    return __builtin_shufflevector(q, tr, 0, 1, 2, 3, 4, 5, 6, 7);
}

static inline AI v8f dq_row(const struct blk *b, int v)
{
    return b->derived ? dq_row_split(b, v) : dq_row4(b, v);
}

static inline AI v8f qt_row(const struct blk *b, int v)
{
    return b->derived ? qt_row_split(b, v) : qt_row4(b, v);
}

/* the four slots of layout vertex v in either layout (SPLIT's missing
 * slots: weight 0 on the first joint), for the per-vertex kernels */
static inline void slots_any(const struct blk *b, int v, float w[4], int j[4])
{
    int l = v - b->g0, K = b->K;
    if (!b->derived) {
        for (int k = 0; k < 4; k++) {
            w[k] = b->W[4 * (size_t)l + k];
            j[k] = b->J[4 * (size_t)l + k];
        }
        return;
    }
    float last = 1.0f;
    int nw = split_nw(K);
    for (int k = 0; k < 4; k++) {
        j[k] = b->J[(size_t)K * l + (k < K ? k : 0)];
        w[k] = k < nw ? b->W[(size_t)nw * l + k] : 0.0f;
        last -= k < K - 1 ? w[k] : 0.0f;
    }
    w[K - 1] = nw == K ? w[K - 1] : last;
}

/* vertices v0..v0+7 (v0 a multiple of 8) as eight rows, transposed to one
 * vector per component */
static inline AI void block_rows(const struct blk *b, int v0, v8f c[8])
{
    if (b->kind == K_DLB)
        transpose8(dq_row(b, v0), dq_row(b, v0 + 1), dq_row(b, v0 + 2), dq_row(b, v0 + 3), dq_row(b, v0 + 4),
                   dq_row(b, v0 + 5), dq_row(b, v0 + 6), dq_row(b, v0 + 7), c);
    else
        transpose8(qt_row(b, v0), qt_row(b, v0 + 1), qt_row(b, v0 + 2), qt_row(b, v0 + 3), qt_row(b, v0 + 4),
                   qt_row(b, v0 + 5), qt_row(b, v0 + 6), qt_row(b, v0 + 7), c);
}

/* the block of vertices v0..v0+7; lanes outside `live` are computed but
 * neither checked nor used.  OP/ON point at the block's first vertex.
 * Both kinds rotate by the non-unit quaternion (x, y, z, w) as
 * y + k (q x (q x y + w y)), k = 2/|q|^2 (thesis 3.3, DQ paper Alg. 1). */
static inline AI int block8(const struct blk *b, int v0, v8i live, float *__restrict__ OP, float *__restrict__ ON)
{
    v8f c[8], x, y, z;
    block_rows(b, v0, c);
    v8f bx = c[0], by = c[1], bz = c[2], bw = c[3], ex = c[4], ey = c[5], ez = c[6], ew = c[7];
    v8f n2 = bx * bx + by * by + bz * bz + bw * bw;
    v8i ok = (n2 > (b->kind == K_DLB ? DLB_MIN_NORM2_F : QLB_MIN_NORM2_F)) | ~live;
    if (((ok[0] & ok[1]) & (ok[2] & ok[3]) & (ok[4] & ok[5]) & (ok[6] & ok[7])) == 0)
        return SKB_ECANCEL;
    v8f k = 2.0f / n2;
    load_xyz8(b->P + 3 * v0, &x, &y, &z);
    if (b->kind == K_DLB) {
        /* g = b0 x v + a0 v + be, then v' = v + k (b0 x g + a0 be - ae b0) */
        v8f gx = by * z - bz * y + bw * x + ex, gy = bz * x - bx * z + bw * y + ey;
        v8f gz = bx * y - by * x + bw * z + ez;
        store_xyz8(OP, x + k * (by * gz - bz * gy + bw * ex - ew * bx),
                   y + k * (bz * gx - bx * gz + bw * ey - ew * by), z + k * (bx * gy - by * gx + bw * ez - ew * bz));
    } else {
        /* v' = R (v - c) + t' (c = 0 for qlb0; t' from qt_row) */
        if (b->kind == K_QB) {
            v8f cx, cy, cz;
            load_xyz8(b->C + 3 * v0, &cx, &cy, &cz);
            x -= cx;
            y -= cy;
            z -= cz;
        }
        v8f gx = by * z - bz * y + bw * x, gy = bz * x - bx * z + bw * y, gz = bx * y - by * x + bw * z;
        store_xyz8(OP, x + k * (by * gz - bz * gy) + ex, y + k * (bz * gx - bx * gz) + ey,
                   z + k * (bx * gy - by * gx) + ez);
    }
    if (b->has_nrm) {
        load_xyz8(b->N + 3 * v0, &x, &y, &z);
        v8f gx = by * z - bz * y + bw * x, gy = bz * x - bx * z + bw * y, gz = bx * y - by * x + bw * z;
        store_xyz8(ON, x + k * (by * gz - bz * gy), y + k * (bz * gx - bx * gz), z + k * (bx * gy - by * gx));
    }
    return 0;
}

/* QLB: quaternion sum with Algorithm 2 signs (the pair table, as DLB), the
 * rotation of the non-unit sum s applied as y + 2/|s|^2 s x (s x y + s_w y)
 * (thesis 3.3: no square root), about the centre c (qb) or the origin
 * (qlb0): v' = R (v - c) + sum_i w_i C_i c.  Joint data: quaternion
 * (x,y,z,w), translation t, then the columns c0 c1 c2.  Per vertex: for
 * meshes without a sign table and QLB without signs; the block kernels
 * below are the fast path.  The sign block repeats dlb_kernel's on purpose:
 * as a shared inline helper both kernels measured 20-30% slower. */
/* DLB: dual quaternion sum with Algorithm 2 signs, then DQ paper Alg. 1.
 * Every term of Alg. 1 is quadratic in the normalised non-dual part, so
 * v' = v + 2/|b0|^2 (b0 x (b0 x v + a0 v) + a0 be - ae b0 + b0 x be) needs
 * one division and no square root (the trick of thesis 3.3 applied to
 * Alg. 1).  Algorithm 2's signs by a dot product per influence.  Joint
 * data: real (x,y,z,w), dual (x,y,z,w), so xyz sit in lanes 0-2 for the
 * cross products.  This per-vertex form serves only meshes too big for the
 * sign table (the signs depend only on the (pivot joint, joint) pair, and
 * the block kernels below look them up: per-vertex dot products measured
 * 25% slower).  Either layout: the slots come through slots_any. */
KERNEL static int dlb_kernel(const struct blk *b, int v0, int v1, float *__restrict__ OP, float *__restrict__ ON)
{
    const float *__restrict__ jd = b->jd, *__restrict__ P = b->P, *__restrict__ N = b->N;
    int has_nrm = b->has_nrm;
    const v4i signbit = { (int)0x80000000, (int)0x80000000, (int)0x80000000, (int)0x80000000 };
    const v4i xyz = { -1, -1, -1, 0 };
    for (int v = v0; v < v1; v++) {
        int last = v + 1 == v1;   /* exactly 3 floats: see store_vertex */
        float ws[4];
        int js[4];
        slots_any(b, v, ws, js);
        const float *m0 = jd + 8 * js[0], *m1 = jd + 8 * js[1], *m2 = jd + 8 * js[2], *m3 = jd + 8 * js[3];
        float wa = ws[0], wb = ws[1], wc = ws[2], wd = ws[3];
        int pk = wa > 0 ? 0 : wb > 0 ? 1 : wc > 0 ? 2 : 3;
        v4f r0 = load4(m0), r1 = load4(m1), r2 = load4(m2), r3 = load4(m3);
        v4f w0 = { wa, wa, wa, wa }, w1 = { wb, wb, wb, wb }, w2 = { wc, wc, wc, wc }, w3 = { wd, wd, wd, wd };
        v4f p = pk == 0 ? r0 : pk == 1 ? r1 : pk == 2 ? r2 : r3;
        w0 = (v4f)((v4i)w0 ^ ((hsum4(p * r0) < 0) & signbit));
        w1 = (v4f)((v4i)w1 ^ ((hsum4(p * r1) < 0) & signbit));
        w2 = (v4f)((v4i)w2 ^ ((hsum4(p * r2) < 0) & signbit));
        w3 = (v4f)((v4i)w3 ^ ((hsum4(p * r3) < 0) & signbit));
        v4f br = w0 * r0 + w1 * r1 + w2 * r2 + w3 * r3;
        v4f bd = w0 * load4(m0 + 4) + w1 * load4(m1 + 4) + w2 * load4(m2 + 4) + w3 * load4(m3 + 4);
        v4f n2 = hsum4(br * br);
        if (!(n2[0] > DLB_MIN_NORM2_F))
            return SKB_ECANCEL;
        v4f k = 2.0f / n2;
        v4f a0 = SHUF4(br, 3, 3, 3, 3), ae = SHUF4(bd, 3, 3, 3, 3);
        v4f x = (v4f)((v4i)load4(P + 3 * v) & xyz);
        v4f c1 = cross3(br, x) + a0 * x;
        store_vertex(OP + 3 * v, x + k * (cross3(br, c1) + a0 * bd - ae * br + cross3(br, bd)), last);
        if (has_nrm) {
            v4f n = (v4f)((v4i)load4(N + 3 * v) & xyz);
            store_vertex(ON + 3 * v, n + k * cross3(br, cross3(br, n) + a0 * n), last);
        }
    }
    return 0;
}

KERNEL static int qlb_kernel(const struct blk *b, int pivot, int v0, int v1, float *__restrict__ OP,
                             float *__restrict__ ON)
{
    const float *__restrict__ jd = b->jd, *__restrict__ P = b->P, *__restrict__ N = b->N, *__restrict__ C = b->C;
    int has_nrm = b->has_nrm;
    const v4i signbit = { (int)0x80000000, (int)0x80000000, (int)0x80000000, (int)0x80000000 };
    const v4i xyz = { -1, -1, -1, 0 };
    for (int v = v0; v < v1; v++) {
        int last = v + 1 == v1;   /* exactly 3 floats: see store_vertex */
        float ws[4];
        int js[4];
        slots_any(b, v, ws, js);
        const float *m0 = jd + 20 * js[0], *m1 = jd + 20 * js[1], *m2 = jd + 20 * js[2], *m3 = jd + 20 * js[3];
        float wa = ws[0], wb = ws[1], wc = ws[2], wd = ws[3];
        int pk = wa > 0 ? 0 : wb > 0 ? 1 : wc > 0 ? 2 : 3;
        v4f r0 = load4(m0), r1 = load4(m1), r2 = load4(m2), r3 = load4(m3);
        v4f w0 = { wa, wa, wa, wa }, w1 = { wb, wb, wb, wb }, w2 = { wc, wc, wc, wc }, w3 = { wd, wd, wd, wd };
        v4f s0 = w0, s1 = w1, s2 = w2, s3 = w3;   /* signed weights for the rotations */
        if (pivot) {
            v4f p = pk == 0 ? r0 : pk == 1 ? r1 : pk == 2 ? r2 : r3;
            s0 = (v4f)((v4i)w0 ^ ((hsum4(p * r0) < 0) & signbit));
            s1 = (v4f)((v4i)w1 ^ ((hsum4(p * r1) < 0) & signbit));
            s2 = (v4f)((v4i)w2 ^ ((hsum4(p * r2) < 0) & signbit));
            s3 = (v4f)((v4i)w3 ^ ((hsum4(p * r3) < 0) & signbit));
        }
        v4f q = s0 * r0 + s1 * r1 + s2 * r2 + s3 * r3;
        v4f n2 = hsum4(q * q);
        if (!(n2[0] > QLB_MIN_NORM2_F))
            return SKB_ECANCEL;
        v4f k = 2.0f / n2, a = SHUF4(q, 3, 3, 3, 3);
        v4f t = w0 * load4(m0 + 4) + w1 * load4(m1 + 4) + w2 * load4(m2 + 4) + w3 * load4(m3 + 4);
        v4f y = (v4f)((v4i)load4(P + 3 * v) & xyz);
        if (C) {
            v4f c = (v4f)((v4i)load4(C + 3 * v) & xyz);
            v4f b0 = w0 * load4(m0 + 8) + w1 * load4(m1 + 8) + w2 * load4(m2 + 8) + w3 * load4(m3 + 8);
            v4f b1 = w0 * load4(m0 + 12) + w1 * load4(m1 + 12) + w2 * load4(m2 + 12) + w3 * load4(m3 + 12);
            v4f b2 = w0 * load4(m0 + 16) + w1 * load4(m1 + 16) + w2 * load4(m2 + 16) + w3 * load4(m3 + 16);
            t = b0 * c[0] + b1 * c[1] + b2 * c[2] + t;
            y = y - c;
        }
        t = (v4f)((v4i)t & xyz);
        store_vertex(OP + 3 * v, y + k * cross3(q, cross3(q, y) + a * y) + t, last);
        if (has_nrm) {
            v4f n = (v4f)((v4i)load4(N + 3 * v) & xyz);
            store_vertex(ON + 3 * v, n + k * cross3(q, cross3(q, n) + a * n), last);
        }
    }
    return 0;
}

/* whole blocks b0, b0+8, ... < b1 (multiples of 8).  b is a local copy
 * whose kind the caller fixed, so the kind tests fold away */
static inline AI int full_blocks(const struct blk *b, int b0, int b1, float *OP, float *ON)
{
    const v8i all = { -1, -1, -1, -1, -1, -1, -1, -1 };
    for (int v = b0; v < b1; v += 8)
        if (block8(b, v, all, OP + 3 * v, b->has_nrm ? ON + 3 * v : NULL) < 0)
            return SKB_ECANCEL;
    return 0;
}

/* vertices v+lo .. v+hi-1 of block v: the whole block into scratch, the
 * range copied out */
static inline AI int part_block(const struct blk *b, int v, int lo, int hi, float *OP, float *ON)
{
    const v8i lane = { 0, 1, 2, 3, 4, 5, 6, 7 };
    float op[24], on[24];
    if (block8(b, v, (lane >= lo) & (lane < hi), op, on) < 0)
        return SKB_ECANCEL;
    memcpy(OP + 3 * (v + lo), op + 3 * lo, sizeof(float) * 3 * (size_t)(hi - lo));
    if (b->has_nrm)
        memcpy(ON + 3 * (v + lo), on + 3 * lo, sizeof(float) * 3 * (size_t)(hi - lo));
    return 0;
}

/* one clone-dispatched pair of entry points per kind and group shape
 * (full blocks, part of a block): the same instructions for a vertex
 * whichever way it is reached; kind, K and the layout fold away */
#define BLOCK_ENTRIES(name, KIND, KK, DERIVED)                                                     \
    KERNEL static int name##_full(const struct blk *b, int b0, int b1, float *OP, float *ON)       \
    {                                                                                              \
        struct blk l = *b;                                                                         \
        l.kind = KIND;                                                                             \
        l.K = KK;                                                                                  \
        l.derived = DERIVED;                                                                       \
        return full_blocks(&l, b0, b1, OP, ON);                                                    \
    }                                                                                              \
    KERNEL static int name##_part(const struct blk *b, int v, int lo, int hi, float *OP, float *ON) \
    {                                                                                              \
        struct blk l = *b;                                                                         \
        l.kind = KIND;                                                                             \
        l.K = KK;                                                                                  \
        l.derived = DERIVED;                                                                       \
        return part_block(&l, v, lo, hi, OP, ON);                                                  \
    }
#define BLOCK_SHAPES(name, KIND)                                                                   \
    BLOCK_ENTRIES(name##1, KIND, 1, 1)                                                             \
    BLOCK_ENTRIES(name##2, KIND, 2, 1)                                                             \
    BLOCK_ENTRIES(name##3, KIND, 3, 1)                                                             \
    BLOCK_ENTRIES(name##4, KIND, 4, 1)                                                             \
    BLOCK_ENTRIES(name##slot4, KIND, 4, 0)
BLOCK_SHAPES(dlb, K_DLB)
BLOCK_SHAPES(qlb0, K_QLB0)
BLOCK_SHAPES(qb, K_QB)

struct block_entries {
    int (*full)(const struct blk *b, int b0, int b1, float *OP, float *ON);
    int (*part)(const struct blk *b, int v, int lo, int hi, float *OP, float *ON);
};
#define SHAPES(name) { { name##1_full, name##1_part }, { name##2_full, name##2_part }, \
    { name##3_full, name##3_part }, { name##4_full, name##4_part }, { name##slot4_full, name##slot4_part } }

/* blocks aligned to multiples of 8 from the group's first vertex (the
 * streams are padded), so a vertex's result never depends on the range it
 * was skinned in */
static int blocks_any(const struct blk *b, int v0, int v1, float *OP, float *ON)
{
    static const struct block_entries by_kind[][5] = {
        [K_DLB] = SHAPES(dlb), [K_QLB0] = SHAPES(qlb0), [K_QB] = SHAPES(qb)
    };
    const struct block_entries *e = &by_kind[b->kind][b->derived ? b->K - 1 : 4];
    int g = b->g0, rc = 0, b0 = g + (v0 - g + 7) / 8 * 8, b1 = g + (v1 - g) / 8 * 8;
    if (v0 >= v1)
        return 0;
    if (b0 > b1)        /* the range lies inside one block */
        return e->part(b, b1, v0 - b1, v1 - b1, OP, ON);
    if (v0 < b0)
        rc = e->part(b, b0 - 8, v0 - (b0 - 8), 8, OP, ON);
    if (rc == 0 && b0 < b1)
        rc = e->full(b, b0, b1, OP, ON);
    if (rc == 0 && b1 < v1)
        rc = e->part(b, b1, 0, v1 - b1, OP, ON);
    return rc;
}

/* layout vertices [v0, v1) of group g.  The block path needs the signs in
 * the pair table; without one (too many joints) or without signs
 * (antipodal none), the per-vertex kernels run */
static int skin_group(const void *state, const struct grp *g, int v0, int v1, float *pos_out, float *nrm_out)
{
    const struct hdr *h = (const struct hdr *)state;
    const uint8_t *tab = h->use_tab ? AT_C(state, h->off_tab, uint8_t) : NULL;
    int signs = h->kind == K_DLB || h->pivot;
    struct blk b = { AT_C(state, HDR_BYTES, float), AT_C(state, h->off_pos, float), AT_C(state, h->off_nrm, float),
                     AT_C(state, g->off_w, float), h->kind == K_QB ? AT_C(state, h->off_c, float) : NULL,
                     AT_C(state, g->off_j, uint16_t), tab, h->njoints, h->kind,
                     h->has_nrm && nrm_out && h->nrm_mode != SKB_F32_NRM_NONE, g->v0, g->K, g->derived };
    const struct lbs_set *ls = lbs_sets + h->isa;
    if (h->kind == K_LINEAR && g->derived) {
        /* one rigid influence rotates a unit normal: nothing to renormalise */
        int renorm = h->nrm_mode != SKB_F32_NRM_SHADER && !(g->K == 1 && h->rigid);
        ls->split[renorm ? 1 + h->renorm : 0][g->K - 1](b.jd, b.P, b.N, b.W, b.J, g->v0, v0, v1, b.has_nrm,
                                                         pos_out, nrm_out);
        return 0;
    }
    if (g->derived && g->K == 1) {
        /* one influence: DLB, QLB and QB all give back the joint's own rigid
         * transform (a blend of one transform is that transform; QB's centre
         * cancels), applied as LBS applies a matrix; its rotation keeps the
         * normal's length, as the quaternion rotation does */
        lbs_sets[0].split[0][0](AT_C(state, h->off_cols, float), b.P, b.N, b.W, b.J, g->v0, v0, v1, b.has_nrm,
                                pos_out, nrm_out);
        return 0;
    }
    if (h->kind == K_LINEAR) {
        /* SLOT4 renormalises vertex by vertex: the estimate (1) or exact (2) */
        int r = h->nrm_mode == SKB_F32_NRM_SHADER ? 0
              : h->renorm == SKB_F32_RENORM_VERTEX_EXACT || h->renorm == SKB_F32_RENORM_BATCH8_EXACT ? 2 : 1;
        ls->slot4[r](b.jd, b.P, b.N, b.W, b.J, v0, v1, b.has_nrm, pos_out, nrm_out);
        return 0;
    }
    if (signs && tab)
        return blocks_any(&b, v0, v1, pos_out, nrm_out);
    if (h->kind == K_DLB)
        return dlb_kernel(&b, v0, v1, pos_out, nrm_out);
    return qlb_kernel(&b, signs, v0, v1, pos_out, nrm_out);
}

/* each group's share of [v0, v1) */
static int skin_any(const void *state, int v0, int v1, float *pos_out, float *nrm_out)
{
    const struct hdr *h = (const struct hdr *)state;
    for (int i = 0; i < h->ngroups; i++) {
        const struct grp *g = h->g + i;
        int a = v0 > g->v0 ? v0 : g->v0, e = v1 < g->v1 ? v1 : g->v1;
        int rc = a < e ? skin_group(state, g, a, e, pos_out, nrm_out) : 0;
        if (rc < 0)
            return rc;
    }
    return 0;
}

const struct skb_method_f32 skb__linear_f32 = { linear_size, linear_bind, linear_prepare, skin_any };
const struct skb_method_f32 skb__qlb0_f32 = { qlb0_size, qlb0_bind, qlb_prepare, skin_any };
const struct skb_method_f32 skb__qb_f32 = { qb_size, qb_bind, qlb_prepare, skin_any };
const struct skb_method_f32 skb__dlb_f32 = { dlb_size, dlb_bind, dlb_prepare, skin_any };

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
    s->state = aligned_alloc(4096, (size + 4095) / 4096 * 4096);   /* page-aligned: see layout() */
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
    static const char *const names[] = { "batch8", "vertex", "batch8-exact", "vertex-exact" };
    return (unsigned)r < SKB_F32_NRENORM ? names[r] : "?";
}

int skb_skin_f32_set_renorm(struct skb_skinner_f32 *s, enum skb_f32_renorm r)
{
    struct hdr *h = (struct hdr *)s->state;
    if ((unsigned)r >= SKB_F32_NRENORM)
        return SKB_EINVAL;
    if (h->layout == SKB_F32_LAYOUT_SLOT4)
        r = r == SKB_F32_RENORM_BATCH8 ? SKB_F32_RENORM_VERTEX
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
 * in and out (12 + 12), qb's centre (12), normals in and out (12 + 12)
 * unless skipped, and per group of K influences K uint16 joints and
 * split_nw(K) float weights (SLOT4: 4 and 4).  Per-joint data stays in
 * cache and is not counted. */
double skb_skin_f32_bytes_per_vertex(const struct skb_skinner_f32 *s)
{
    const struct hdr *h = (const struct hdr *)s->state;
    double slots = 0;
    for (int i = 0; i < h->ngroups; i++)
        slots += (double)(h->g[i].v1 - h->g[i].v0) * (2 * h->g[i].K + 4 * (h->g[i].derived ? split_nw(h->g[i].K) : 4));
    int bytes = 12 + 12 + (h->kind == K_QB ? 12 : 0);
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

void skb_skin_f32_fini(struct skb_skinner_f32 *s)
{
    if (!s)
        return;
    free(s->state);
    free(s->scratch);
    s->state = NULL;
    s->scratch = NULL;
}

#endif
