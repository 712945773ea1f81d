/* fast_f32_kernels.c — the fast path's kernels: LBS (thesis eq. 2.6),
 * SPLIT's per-influence-count entries and SLOT4's with each normal
 * renormalisation; DLB (DQ paper Alg. 1 with Alg. 2 signs), QLB0 and QB
 * (thesis eq. 3.5, 3.7), 8 vertices per block or vertex by vertex; and the
 * dispatch of a range to each group's kernel.  One file: the dispatch and
 * the entry tables it calls through compile as they did in one unit
 * (instruction counts per kernel unchanged).  Design: fast_f32.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "skb_fast.h"

#ifndef SKB_FLOP_COUNT   /* C only: the C++ FLOP build counts the double path */
#include "fast_f32_internal.h"

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

/* 8 normals (one component a vector) scaled to unit length: the estimate
 * and one Newton step, or (exact) a rounded square root and divide; a zero
 * normal stays zero */
static inline AI void unit8(v8f *x, v8f *y, v8f *z, int exact)
{
    v8f d = *x * *x + *y * *y + *z * *z;
    v4f lo = exact ? inv_sqrt4_exact(LO4(d)) : inv_sqrt4(LO4(d)), hi = exact ? inv_sqrt4_exact(HI4(d)) : inv_sqrt4(HI4(d));
    v8f inv = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
    v8i ok = d > 0;
    *x = (v8f)(((v8i)(*x * inv) & ok) | ((v8i)*x & ~ok));
    *y = (v8f)(((v8i)(*y * inv) & ok) | ((v8i)*y & ~ok));
    *z = (v8f)(((v8i)(*z * inv) & ok) | ((v8i)*z & ~ok));
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
    unit8(&x, &y, &z, exact);
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

/* 8 vertices [c, c + cnt) of a SPLIT group blended side by side
 * (vertex-parallel): each vertex's 3x4 blended as in split_blend, the 8
 * blends transposed once (two 8x8 transposes) so every later operation
 * works on one component of 8 vertices -- p' = c0 x + c1 y + c2 z + t and
 * the normal's 3x3 in 9 multiply-adds per 8 vertices where the per-vertex
 * form spends 3 four-wide ones per vertex, and the renormalisation 8 wide
 * with no transpose of its own.  Lane for lane the same operations
 * whatever cnt: a vertex's output does not depend on its range. */
static inline AI void soa8_block(const float *__restrict__ jd, const float *__restrict__ P,
    const float *__restrict__ N, const float *__restrict__ W, const uint16_t *__restrict__ J, int g0, int c,
    int cnt, int K, float *__restrict__ OP, float *__restrict__ ON)
{
    v8f r01[8], r23[8], a[8], b[8], px, py, pz, nx, ny, nz;
    if (cnt == 8) {
        for (int u = 0; u < 8; u++)
            split_blend(jd, W, J, c + u - g0, K, &r01[u], &r23[u]);
    } else {
        for (int u = 0; u < 8; u++) {
            r01[u] = r23[u] = (v8f){ 0 };
            if (u < cnt)
                split_blend(jd, W, J, c + u - g0, K, &r01[u], &r23[u]);
        }
    }
    transpose8(r01[0], r01[1], r01[2], r01[3], r01[4], r01[5], r01[6], r01[7], a);
    transpose8(r23[0], r23[1], r23[2], r23[3], r23[4], r23[5], r23[6], r23[7], b);
    if (cnt == 8) {
        load_xyz8(P + 3 * (size_t)c, &px, &py, &pz);
        load_xyz8(N + 3 * (size_t)c, &nx, &ny, &nz);
    } else {
        float tp[24] = { 0 }, tn[24] = { 0 };
        memcpy(tp, P + 3 * (size_t)c, sizeof(float) * 3 * (size_t)cnt);
        memcpy(tn, N + 3 * (size_t)c, sizeof(float) * 3 * (size_t)cnt);
        load_xyz8(tp, &px, &py, &pz);
        load_xyz8(tn, &nx, &ny, &nz);
    }
    /* a[0..2] = c0's xyz, a[4..6] = c1's, b[0..2] = c2's, b[4..6] = t */
    v8f ox = a[0] * px + a[4] * py + b[0] * pz + b[4];
    v8f oy = a[1] * px + a[5] * py + b[1] * pz + b[5];
    v8f oz = a[2] * px + a[6] * py + b[2] * pz + b[6];
    v8f qx = a[0] * nx + a[4] * ny + b[0] * nz;
    v8f qy = a[1] * nx + a[5] * ny + b[1] * nz;
    v8f qz = a[2] * nx + a[6] * ny + b[2] * nz;
    unit8(&qx, &qy, &qz, 0);
    if (cnt == 8) {
        store_xyz8(OP + 3 * (size_t)c, ox, oy, oz);
        store_xyz8(ON + 3 * (size_t)c, qx, qy, qz);
    } else {
        float tp[24], tn[24];
        store_xyz8(tp, ox, oy, oz);
        store_xyz8(tn, qx, qy, qz);
        memcpy(OP + 3 * (size_t)c, tp, sizeof(float) * 3 * (size_t)cnt);
        memcpy(ON + 3 * (size_t)c, tn, sizeof(float) * 3 * (size_t)cnt);
    }
}

/* layout vertices [v0, v1) of a SPLIT group of K influences starting at g0;
 * renorm (constant per entry point): 0 normals left raw, 1 renormalised 8
 * vertices at a time (estimate + Newton step), 2 vertex by vertex (the
 * same), 3 8 at a time by square root and divide, 4 vertex by vertex (the
 * same), 5 8 vertices blended side by side (soa8_block, estimate + Newton
 * step): the planner's candidates (enum skb_f32_renorm + 1) */
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
    if (renorm == 5) {
        for (; c < v1; c += 8)
            soa8_block(jd, P, N, W, J, g0, c, v1 - c < 8 ? v1 - c : 8, K, OP, ON);
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
    SPLIT_LBS_K(lbs_soa8##sfx, 5, ATTR)                                                                  \
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
    split_lbs_fn split[1 + SKB_F32_NRENORM][4];
    slot4_lbs_fn slot4[3];
};
#define SPLIT_ROW(name) { name##_1, name##_2, name##_3, name##_4 }
#define LBS_SET(sfx) { { SPLIT_ROW(lbs_raw##sfx), SPLIT_ROW(lbs_b8##sfx), SPLIT_ROW(lbs_vx##sfx), \
    SPLIT_ROW(lbs_b8x##sfx), SPLIT_ROW(lbs_vxx##sfx), SPLIT_ROW(lbs_soa8##sfx) },                      \
    { slot4_raw##sfx, slot4_vx##sfx, slot4_vxx##sfx } }
/* [enum skb_f32_isa] */
static const struct lbs_set lbs_sets[] = {
    LBS_SET(_auto),
#if SKB_EXPLICIT_ISA
    LBS_SET(_v4), LBS_SET(_v3), LBS_SET(_base),
#endif
};

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

/* CoR row of layout vertex v: (signed quaternion sum | sum_i w_i C_i p*),
 * the columns blended as LBS blends them (c0|c1, c2|t: two 8-wide
 * multiply-adds per joint where qb's layout takes three) and applied to
 * the centre.  Joint data: q, c0, c1, c2, t (cor_prepare). */
static inline AI v8f cor_row(const struct blk *b, int v)
{
    int l = v - b->g0, K = b->derived ? b->K : 4;
    const uint16_t *j = b->J + (size_t)K * l;
    const uint8_t *t = b->derived ? b->tab + (size_t)j[0] * (size_t)b->nj : pivot_row(b, l);
    float w[4];
    if (b->derived)
        split_weights(b, l, w);
    else
        memcpy(w, b->W + 4 * (size_t)l, sizeof w);
    const float *m = b->jd + 20 * j[0], *c = b->C + 3 * v;
    v4f q = flip(w[0], b->derived ? 0 : t[j[0]]) * load4(m);
    v8f c01 = w[0] * load8(m + 4), c2t = w[0] * load8(m + 12);
    for (int k = 1; k < K; k++) {
        m = b->jd + 20 * j[k];
        q += flip(w[k], t[j[k]]) * load4(m);
        c01 += w[k] * load8(m + 4);
        c2t += w[k] * load8(m + 12);
    }
    v4f tr = LO4(c01) * c[0] + HI4(c01) * c[1] + LO4(c2t) * c[2] + HI4(c2t);
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
    else if (b->kind == K_COR)
        transpose8(cor_row(b, v0), cor_row(b, v0 + 1), cor_row(b, v0 + 2), cor_row(b, v0 + 3), cor_row(b, v0 + 4),
                   cor_row(b, v0 + 5), cor_row(b, v0 + 6), cor_row(b, v0 + 7), c);
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
    int has_nrm = b->has_nrm, cor = b->kind == K_COR;
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
        /* qb: q, t, c0, c1, c2; cor: q, c0, c1, c2, t and P holds v - c */
        const int to = cor ? 16 : 4, co = cor ? 4 : 8;
        v4f t = w0 * load4(m0 + to) + w1 * load4(m1 + to) + w2 * load4(m2 + to) + w3 * load4(m3 + to);
        v4f y = (v4f)((v4i)load4(P + 3 * v) & xyz);
        if (C) {
            v4f c = (v4f)((v4i)load4(C + 3 * v) & xyz);
            v4f b0 = w0 * load4(m0 + co) + w1 * load4(m1 + co) + w2 * load4(m2 + co) + w3 * load4(m3 + co);
            v4f b1 = w0 * load4(m0 + co + 4) + w1 * load4(m1 + co + 4) + w2 * load4(m2 + co + 4) + w3 * load4(m3 + co + 4);
            v4f b2 = w0 * load4(m0 + co + 8) + w1 * load4(m1 + co + 8) + w2 * load4(m2 + co + 8) + w3 * load4(m3 + co + 8);
            t = b0 * c[0] + b1 * c[1] + b2 * c[2] + t;
            if (!cor)
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
BLOCK_SHAPES(cor, K_COR)

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
        [K_DLB] = SHAPES(dlb), [K_QLB0] = SHAPES(qlb0), [K_QB] = SHAPES(qb), [K_COR] = SHAPES(cor)
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
                     AT_C(state, g->off_w, float), HAS_CENTRE(h->kind) ? AT_C(state, h->off_c, float) : NULL,
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
int skb__f32_skin_any(const void *state, int v0, int v1, float *pos_out, float *nrm_out)
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


#endif
