/* fast_f32.c — single-precision fast kernels for the methods users deploy:
 * linear (LBS, thesis eq. 2.6), qlb0/qb (QLB about the origin / a fixed
 * centre, thesis eq. 3.5 and 3.7) and dlb (DQ paper Alg. 1 with Alg. 2 signs).
 *
 * Layout chosen by measurement (skinbench run cpu; a 77k-vertex mesh here:
 * scalar structure-of-arrays LBS 14.8 ns/vertex, this 4-wide form 5.0):
 * per-joint data as 4-float columns (quaternions), so blending the
 * influences of one vertex is a few 4-wide multiply-adds (GCC vector
 * extensions: SSE on x86-64, NEON on ARM, scalar elsewhere); vertex data as
 * packed float streams (positions and normals xyz, four uint16 joint
 * indices, four float weights).  On x86-64 the kernels are also cloned for
 * x86-64-v3 (AVX2+FMA) and picked at run time, so the binary stays portable.
 * Tried and measured slower: LBS normals renormalised four or eight at a
 * time, DLB transformed in blocks of eight, DLB's position and normal
 * rotated side by side 8 wide.  Everything outside the kernels
 * runs in double (skb_real) and converts once per pose. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include "skb_fast.h"

#ifndef SKB_FLOP_COUNT

typedef float v4f __attribute__((vector_size(16)));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus)
#define KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define KERNEL
#endif

#define QLB_MIN_NORM2_F 1e-20f   /* <s,s> below this: the quaternion sum cancelled */
#define DLB_MIN_NORM2_F 1e-20f

enum kind { K_LINEAR, K_QLB0, K_QB, K_DLB };

/* state: header, per-joint floats (JSTRIDE each), then the vertex streams */
struct hdr {
    int nverts, njoints, kind, pivot, has_nrm, jstride;
    int use_tab, npairs;                             /* dlb: Algorithm 2 sign table */
    size_t off_pos, off_nrm, off_w, off_j, off_c;   /* byte offsets */
    size_t off_tab, off_pairs, max_pairs;
};
/* the quaternion kernels resolve Algorithm 2's signs per (pivot joint,
 * joint) pair once per pose when the pair table (njoints^2 bytes) stays
 * small; beyond, per vertex */
#define SIGN_TABLE_MAX_JOINTS 256
#define HDR_BYTES 128

static int jstride(int kind)
{
    return kind == K_DLB ? 8 : kind == K_LINEAR ? 16 : 20;
}

static size_t round64(size_t x) { return (x + 63) / 64 * 64; }

static void layout(const struct skb_mesh *m, int kind, struct hdr *h)
{
    size_t nv = (size_t)m->nverts;
    memset(h, 0, sizeof *h);
    h->nverts = m->nverts;
    h->njoints = m->njoints;
    h->kind = kind;
    h->has_nrm = m->nrm != NULL;
    h->jstride = jstride(kind);
    h->off_pos = HDR_BYTES + round64(sizeof(float) * (size_t)h->jstride * m->njoints);
    h->off_nrm = h->off_pos + round64(sizeof(float) * (3 * nv + 4));
    h->off_w = h->off_nrm + round64(sizeof(float) * (3 * nv + 4));
    h->off_j = h->off_w + round64(sizeof(float) * 4 * nv);
    h->off_c = h->off_j + round64(sizeof(uint16_t) * 4 * nv);
    h->off_tab = h->off_c + (kind == K_QB ? round64(sizeof(float) * (3 * nv + 4)) : 0);
    h->use_tab = kind != K_LINEAR && m->njoints <= SIGN_TABLE_MAX_JOINTS;
    size_t nj2 = (size_t)m->njoints * (size_t)m->njoints;
    h->max_pairs = h->use_tab ? (3 * nv + 1 < nj2 ? 3 * nv + 1 : nj2) : 0;
    h->off_pairs = h->off_tab + (h->use_tab ? round64(nj2) : 0);
}

static size_t state_size(const struct skb_mesh *m, int kind)
{
    struct hdr h;
    layout(m, kind, &h);
    return h.off_pairs + sizeof(uint16_t) * 2 * h.max_pairs;
}

static size_t linear_size(const struct skb_mesh *m) { return state_size(m, K_LINEAR); }
static size_t qlb0_size(const struct skb_mesh *m) { return state_size(m, K_QLB0); }
static size_t qb_size(const struct skb_mesh *m) { return state_size(m, K_QB); }
static size_t dlb_size(const struct skb_mesh *m) { return state_size(m, K_DLB); }

#define AT(state, off, type) ((type *)((char *)(state) + (off)))
#define AT_C(state, off, type) ((const type *)((const char *)(state) + (off)))

static int bind_common(const struct skb_mesh *m, int kind, void *state)
{
    struct hdr h;
    layout(m, kind, &h);
    if (m->njoints > 65535)
        return SKB_ENOTSUP;     /* joint indices are stored as uint16 */
    memcpy(state, &h, sizeof h);
    float *pos = AT(state, h.off_pos, float), *nrm = AT(state, h.off_nrm, float);
    float *w = AT(state, h.off_w, float);
    uint16_t *j = AT(state, h.off_j, uint16_t);
    for (size_t i = 0; i < 3 * (size_t)m->nverts; i++) {
        pos[i] = (float)m->pos[i];
        nrm[i] = m->nrm ? (float)m->nrm[i] : 0.0f;
    }
    for (size_t i = 0; i < 4 * (size_t)m->nverts; i++) {
        w[i] = (float)m->weight[i];
        j[i] = (uint16_t)m->joint[i];
    }
    return 0;
}

static int bind_pairs(const struct skb_mesh *m, void *state);

static int linear_bind(const struct skb_mesh *m, void *state) { return bind_common(m, K_LINEAR, state); }

static int qlb0_bind(const struct skb_mesh *m, void *state)
{
    int rc = bind_common(m, K_QLB0, state);
    return rc < 0 ? rc : bind_pairs(m, state);
}

static int dlb_bind(const struct skb_mesh *m, void *state)
{
    int rc = bind_common(m, K_DLB, state);
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

/* qb's centres: the mesh's own, else the rule of the double path, read back
 * from a bound double state of qb (one source of truth for the rule) */
static int qb_bind(const struct skb_mesh *m, void *state)
{
    int rc = bind_common(m, K_QB, state);
    struct hdr h;
    float *c;
    if (rc < 0 || (rc = bind_pairs(m, state)) < 0)
        return rc;
    memcpy(&h, state, sizeof h);
    c = AT(state, h.off_c, float);
    if (m->center) {
        for (size_t i = 0; i < 3 * (size_t)m->nverts; i++)
            c[i] = (float)m->center[i];
        return 0;
    }
    if (!m->joint_rest)
        return SKB_ENOCENTER;
    for (int v = 0; v < m->nverts; v++) {
        int jc = skb__qb_center_joint(m, v);
        for (int k = 0; k < 3; k++)
            c[3 * v + k] = (float)m->joint_rest[3 * jc + k];
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

static int linear_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                          const struct skb_params *prm, void *state)
{
    float *jd = AT(state, HDR_BYTES, float);
    for (int j = 0; j < m->njoints; j++) {
        skb_real c[16];
        if (p->scale)
            skb_mat4_mul(p->mats + 16 * j, p->scale + 16 * j, c);
        else
            memcpy(c, p->mats + 16 * j, sizeof c);
        put_columns(c, jd + 16 * j);
    }
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
        float *o = jd + 20 * j;
        o[0] = (float)q.x; o[1] = (float)q.y; o[2] = (float)q.z; o[3] = (float)q.w;
        put_columns(p->mats + 16 * j, o + 4);
    }
    if (h->pivot)
        fill_signs(m, state, 20);
    return 0;
}

static int dlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    float *jd = AT(state, HDR_BYTES, float);
    if (p->scale || prm->antipodal != SKB_ANTIPODAL_PIVOT)
        return SKB_ENOTSUP;     /* the fast path implements Algorithm 2 per vertex */
    for (int j = 0; j < m->njoints; j++) {
        struct skb_dq q;
        skb_dq_from_mat4(p->mats + 16 * j, &q);
        float *o = jd + 8 * j;
        o[0] = (float)q.r.x; o[1] = (float)q.r.y; o[2] = (float)q.r.z; o[3] = (float)q.r.w;
        o[4] = (float)q.d.x; o[5] = (float)q.d.y; o[6] = (float)q.d.z; o[7] = (float)q.d.w;
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

static inline void store4(float *p, v4f v)
{
    memcpy(p, &v, sizeof v);     /* writes p[3] too: buffers carry one spare float */
}

/* LBS: blend the four column sets, transform position and normal */
KERNEL static void linear_kernel(const float *__restrict__ jd, const float *__restrict__ P,
                                 const float *__restrict__ N, const float *__restrict__ W,
                                 const uint16_t *__restrict__ J, int v0, int v1, int has_nrm,
                                 float *__restrict__ OP, float *__restrict__ ON)
{
    for (int v = v0; v < v1; v++) {
        const float *m0 = jd + 16 * J[4 * v], *m1 = jd + 16 * J[4 * v + 1];
        const float *m2 = jd + 16 * J[4 * v + 2], *m3 = jd + 16 * J[4 * v + 3];
        float w0 = W[4 * v], w1 = W[4 * v + 1], w2 = W[4 * v + 2], w3 = W[4 * v + 3];
        v4f b0 = w0 * load4(m0) + w1 * load4(m1) + w2 * load4(m2) + w3 * load4(m3);
        v4f b1 = w0 * load4(m0 + 4) + w1 * load4(m1 + 4) + w2 * load4(m2 + 4) + w3 * load4(m3 + 4);
        v4f b2 = w0 * load4(m0 + 8) + w1 * load4(m1 + 8) + w2 * load4(m2 + 8) + w3 * load4(m3 + 8);
        v4f b3 = w0 * load4(m0 + 12) + w1 * load4(m1 + 12) + w2 * load4(m2 + 12) + w3 * load4(m3 + 12);
        store4(OP + 3 * v, b0 * P[3 * v] + b1 * P[3 * v + 1] + b2 * P[3 * v + 2] + b3);
        if (has_nrm) {
            /* the blended 3x3 is not orthogonal: renormalise (as the double path) */
            v4f q = b0 * N[3 * v] + b1 * N[3 * v + 1] + b2 * N[3 * v + 2];
            float d = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
            store4(ON + 3 * v, d > 0 ? q * (1.0f / sqrtf(d)) : q);
        }
    }
}

/* DLB: dual quaternion sum with Algorithm 2 signs, then DQ paper Alg. 1.
 * Every term of Alg. 1 is quadratic in the normalised non-dual part, so
 * v' = v + 2/|b0|^2 (b0 x (b0 x v + a0 v) + a0 be - ae b0 + b0 x be) needs
 * one division and no square root (the trick of thesis 3.3 applied to
 * Alg. 1).  The signs of Algorithm 2 depend only on the (pivot joint, joint)
 * pair, so prepare decides them once per used pair (tab) and the kernel
 * looks them up; without a table, per vertex.  Joint data: real (x,y,z,w),
 * dual (x,y,z,w), so xyz sit in lanes 0-2 for the cross products.
 * (Measured alternatives: a block of 8 vertices transformed 8-wide was 10%
 * slower; per-vertex sign dot products cost 25%.) */
typedef int v4i __attribute__((vector_size(16)));

static inline v4f hsum4(v4f v)
{
    v = v + __builtin_shuffle(v, (v4i){ 1, 0, 3, 2 });
    return v + __builtin_shuffle(v, (v4i){ 2, 3, 0, 1 });
}

#define SHUF4(a, i, j, k, l) __builtin_shuffle(a, (v4i){ i, j, k, l })
static inline v4f cross3(v4f a, v4f b)
{
    return SHUF4(a, 1, 2, 0, 3) * SHUF4(b, 2, 0, 1, 3) - SHUF4(a, 2, 0, 1, 3) * SHUF4(b, 1, 2, 0, 3);
}

KERNEL static int dlb_kernel(const float *__restrict__ jd, const float *__restrict__ P,
                                const float *__restrict__ N, const float *__restrict__ W,
                                const uint16_t *__restrict__ J, const uint8_t *__restrict__ tab, int nj,
                                int v0, int v1, int has_nrm, float *__restrict__ OP, float *__restrict__ ON)
{
    const v4i signbit = { (int)0x80000000, (int)0x80000000, (int)0x80000000, (int)0x80000000 };
    const v4i xyz = { -1, -1, -1, 0 };
    for (int v = v0; v < v1; v++) {
        const float *m0 = jd + 8 * J[4 * v], *m1 = jd + 8 * J[4 * v + 1];
        const float *m2 = jd + 8 * J[4 * v + 2], *m3 = jd + 8 * J[4 * v + 3];
        float wa = W[4 * v], wb = W[4 * v + 1], wc = W[4 * v + 2], wd = W[4 * v + 3];
        int pk = wa > 0 ? 0 : wb > 0 ? 1 : wc > 0 ? 2 : 3;
        v4f r0 = load4(m0), r1 = load4(m1), r2 = load4(m2), r3 = load4(m3);
        v4f w0 = { wa, wa, wa, wa }, w1 = { wb, wb, wb, wb }, w2 = { wc, wc, wc, wc }, w3 = { wd, wd, wd, wd };
        if (tab) {
            const uint8_t *t = tab + (size_t)J[4 * v + pk] * (size_t)nj;
            w0 = (v4f)((v4i)w0 ^ (-(int)t[J[4 * v]] & signbit));
            w1 = (v4f)((v4i)w1 ^ (-(int)t[J[4 * v + 1]] & signbit));
            w2 = (v4f)((v4i)w2 ^ (-(int)t[J[4 * v + 2]] & signbit));
            w3 = (v4f)((v4i)w3 ^ (-(int)t[J[4 * v + 3]] & signbit));
        } else {
            v4f p = pk == 0 ? r0 : pk == 1 ? r1 : pk == 2 ? r2 : r3;
            w0 = (v4f)((v4i)w0 ^ ((hsum4(p * r0) < 0) & signbit));
            w1 = (v4f)((v4i)w1 ^ ((hsum4(p * r1) < 0) & signbit));
            w2 = (v4f)((v4i)w2 ^ ((hsum4(p * r2) < 0) & signbit));
            w3 = (v4f)((v4i)w3 ^ ((hsum4(p * r3) < 0) & signbit));
        }
        v4f br = w0 * r0 + w1 * r1 + w2 * r2 + w3 * r3;
        v4f bd = w0 * load4(m0 + 4) + w1 * load4(m1 + 4) + w2 * load4(m2 + 4) + w3 * load4(m3 + 4);
        v4f n2 = hsum4(br * br);
        if (!(n2[0] > DLB_MIN_NORM2_F))
            return SKB_ECANCEL;
        v4f k = 2.0f / n2;
        v4f a0 = SHUF4(br, 3, 3, 3, 3), ae = SHUF4(bd, 3, 3, 3, 3);
        v4f x = (v4f)((v4i)load4(P + 3 * v) & xyz);
        v4f c1 = cross3(br, x) + a0 * x;
        store4(OP + 3 * v, x + k * (cross3(br, c1) + a0 * bd - ae * br + cross3(br, bd)));
        if (has_nrm) {
            v4f n = (v4f)((v4i)load4(N + 3 * v) & xyz);
            store4(ON + 3 * v, n + k * cross3(br, cross3(br, n) + a0 * n));
        }
    }
    return 0;
}

/* QLB: quaternion sum with Algorithm 2 signs (the pair table, as DLB), the
 * rotation of the non-unit sum s applied as y + 2/|s|^2 s x (s x y + s_w y)
 * (thesis 3.3: no square root), about the centre c (qb) or the origin
 * (qlb0): v' = R (v - c) + sum_i w_i C_i c.  Joint data: quaternion
 * (x,y,z,w), then the 3x4 columns (c0 c1 c2 t). */
KERNEL static int qlb_kernel(const float *__restrict__ jd, const float *__restrict__ P,
                             const float *__restrict__ N, const float *__restrict__ W,
                             const uint16_t *__restrict__ J, const float *__restrict__ C,
                             const uint8_t *__restrict__ tab, int nj, int pivot,
                             int v0, int v1, int has_nrm, float *__restrict__ OP, float *__restrict__ ON)
{
    const v4i signbit = { (int)0x80000000, (int)0x80000000, (int)0x80000000, (int)0x80000000 };
    const v4i xyz = { -1, -1, -1, 0 };
    for (int v = v0; v < v1; v++) {
        const float *m0 = jd + 20 * J[4 * v], *m1 = jd + 20 * J[4 * v + 1];
        const float *m2 = jd + 20 * J[4 * v + 2], *m3 = jd + 20 * J[4 * v + 3];
        float wa = W[4 * v], wb = W[4 * v + 1], wc = W[4 * v + 2], wd = W[4 * v + 3];
        int pk = wa > 0 ? 0 : wb > 0 ? 1 : wc > 0 ? 2 : 3;
        v4f r0 = load4(m0), r1 = load4(m1), r2 = load4(m2), r3 = load4(m3);
        v4f w0 = { wa, wa, wa, wa }, w1 = { wb, wb, wb, wb }, w2 = { wc, wc, wc, wc }, w3 = { wd, wd, wd, wd };
        v4f s0 = w0, s1 = w1, s2 = w2, s3 = w3;   /* signed weights for the rotations */
        if (tab) {
            const uint8_t *t = tab + (size_t)J[4 * v + pk] * (size_t)nj;
            s0 = (v4f)((v4i)w0 ^ (-(int)t[J[4 * v]] & signbit));
            s1 = (v4f)((v4i)w1 ^ (-(int)t[J[4 * v + 1]] & signbit));
            s2 = (v4f)((v4i)w2 ^ (-(int)t[J[4 * v + 2]] & signbit));
            s3 = (v4f)((v4i)w3 ^ (-(int)t[J[4 * v + 3]] & signbit));
        } else if (pivot) {
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
        v4f t = w0 * load4(m0 + 16) + w1 * load4(m1 + 16) + w2 * load4(m2 + 16) + w3 * load4(m3 + 16);
        v4f y = (v4f)((v4i)load4(P + 3 * v) & xyz);
        if (C) {
            v4f c = (v4f)((v4i)load4(C + 3 * v) & xyz);
            v4f b0 = w0 * load4(m0 + 4) + w1 * load4(m1 + 4) + w2 * load4(m2 + 4) + w3 * load4(m3 + 4);
            v4f b1 = w0 * load4(m0 + 8) + w1 * load4(m1 + 8) + w2 * load4(m2 + 8) + w3 * load4(m3 + 8);
            v4f b2 = w0 * load4(m0 + 12) + w1 * load4(m1 + 12) + w2 * load4(m2 + 12) + w3 * load4(m3 + 12);
            t = b0 * c[0] + b1 * c[1] + b2 * c[2] + t;
            y = y - c;
        }
        t = (v4f)((v4i)t & xyz);
        store4(OP + 3 * v, y + k * cross3(q, cross3(q, y) + a * y) + t);
        if (has_nrm) {
            v4f n = (v4f)((v4i)load4(N + 3 * v) & xyz);
            store4(ON + 3 * v, n + k * cross3(q, cross3(q, n) + a * n));
        }
    }
    return 0;
}

static int skin_any(const void *state, int v0, int v1, float *pos_out, float *nrm_out)
{
    const struct hdr *h = (const struct hdr *)state;
    const float *jd = AT_C(state, HDR_BYTES, float);
    const float *P = AT_C(state, h->off_pos, float), *N = AT_C(state, h->off_nrm, float);
    const float *W = AT_C(state, h->off_w, float);
    const uint16_t *J = AT_C(state, h->off_j, uint16_t);
    int has_nrm = h->has_nrm && nrm_out;
    switch (h->kind) {
    case K_LINEAR:
        linear_kernel(jd, P, N, W, J, v0, v1, has_nrm, pos_out, nrm_out);
        return 0;
    case K_QLB0:
        return qlb_kernel(jd, P, N, W, J, NULL, h->use_tab && h->pivot ? AT_C(state, h->off_tab, uint8_t) : NULL,
                          h->njoints, h->pivot, v0, v1, has_nrm, pos_out, nrm_out);
    case K_QB:
        return qlb_kernel(jd, P, N, W, J, AT_C(state, h->off_c, float),
                          h->use_tab && h->pivot ? AT_C(state, h->off_tab, uint8_t) : NULL, h->njoints, h->pivot,
                          v0, v1, has_nrm, pos_out, nrm_out);
    default:
        return dlb_kernel(jd, P, N, W, J, h->use_tab ? AT_C(state, h->off_tab, uint8_t) : NULL, h->njoints,
                          v0, v1, has_nrm, pos_out, nrm_out);
    }
}

const struct skb_method_f32 skb__linear_f32 = { linear_size, linear_bind, linear_prepare, skin_any };
const struct skb_method_f32 skb__qlb0_f32 = { qlb0_size, qlb0_bind, qlb_prepare, skin_any };
const struct skb_method_f32 skb__qb_f32 = { qb_size, qb_bind, qlb_prepare, skin_any };
const struct skb_method_f32 skb__dlb_f32 = { dlb_size, dlb_bind, dlb_prepare, skin_any };

/* ---- wrappers: the one place that validates and owns the state ---- */

int skb_skin_f32_init(struct skb_skinner_f32 *s, const struct skb_method *m,
                      const struct skb_mesh *mesh, char *msg, size_t msglen)
{
    int rc;
    s->m = m;
    s->mesh = mesh;
    s->state = NULL;
    if (!m->f32) {
        snprintf(msg, msglen, "method %s has no single-precision fast path", m->name);
        return SKB_ENOTSUP;
    }
    if ((rc = skb_mesh_check(mesh, msg, msglen)) < 0)
        return rc;
    size_t size = round64(m->f32->state_size(mesh));
    s->state = aligned_alloc(64, size);
    if (!s->state) {
        snprintf(msg, msglen, "%s: out of memory for the fast-path state (%zu bytes)", m->name, size);
        return SKB_ENOMEM;
    }
    memset(s->state, 0, size);
    if ((rc = m->f32->bind(mesh, s->state)) < 0) {
        snprintf(msg, msglen, "%s: fast path bind: %s", m->name, skb_strerror(rc));
        skb_skin_f32_fini(s);
        return rc;
    }
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
    if ((rc = skb__skin_f32_run(s, 0, s->mesh->nverts, pos_out, nrm_out)) < 0) {
        snprintf(msg, msglen, "%s: fast path skin: %s", s->m->name, skb_strerror(rc));
        return rc;
    }
    return 0;
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
    s->state = NULL;
}

#endif
