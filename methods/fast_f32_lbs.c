/* fast_f32_lbs.c — the fast path's LBS kernels (thesis eq. 2.6): SPLIT's
 * per-influence-count entries and SLOT4's, each normal renormalisation,
 * cloned per instruction set (fast_f32.c says why and what was measured). */
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

#define SPLIT_ROW(name) { name##_1, name##_2, name##_3, name##_4 }
#define LBS_SET(sfx) { { SPLIT_ROW(lbs_raw##sfx), SPLIT_ROW(lbs_b8##sfx), SPLIT_ROW(lbs_vx##sfx), \
    SPLIT_ROW(lbs_b8x##sfx), SPLIT_ROW(lbs_vxx##sfx) }, { slot4_raw##sfx, slot4_vx##sfx, slot4_vxx##sfx } }
/* [enum skb_f32_isa] */
const struct lbs_set skb__f32_lbs_sets[] = {
    LBS_SET(_auto),
#if SKB_EXPLICIT_ISA
    LBS_SET(_v4), LBS_SET(_v3), LBS_SET(_base),
#endif
};


#endif
