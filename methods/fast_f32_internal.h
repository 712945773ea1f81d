/* fast_f32_internal.h — what the single-precision fast path's files share
 * (methods/fast_f32*.c): the state's layout (header, groups, offsets), the
 * vector types and the always-inline vector helpers, and the few entry
 * points one file takes from another.  Only fast_f32*.c include it. */
#ifndef SKB_FAST_F32_INTERNAL_H
#define SKB_FAST_F32_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "skb_fast.h"

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

/* K_COR: QB's form about cor's bound centres, its own joint layout and rest offsets (fast_f32_layout.c) */
enum kind { K_LINEAR, K_QLB0, K_QB, K_DLB, K_COR };
/* the kinds that stream a centre per vertex */
#define HAS_CENTRE(kind) ((kind) == K_QB || (kind) == K_COR)

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

static inline int jstride(int kind)
{
    return kind == K_DLB ? 8 : kind == K_LINEAR ? 16 : 20;
}

static inline size_t round64(size_t x) { return (x + 63) / 64 * 64; }
static inline size_t round8(size_t x) { return (x + 7) / 8 * 8; }
/* the first offset >= x at page offset `at` */
static inline size_t page_at(size_t x, size_t at) { return (x + 4095 - at) / 4096 * 4096 + at; }

#define AT(state, off, type) ((type *)((char *)(state) + (off)))
#define AT_C(state, off, type) ((const type *)((const char *)(state) + (off)))

/* mesh vertex of layout vertex i */
static inline int mesh_vertex(const struct hdr *h, const void *state, int i)
{
    return h->layout == SKB_F32_LAYOUT_SPLIT ? AT_C(state, h->off_perm, int)[i] : i;
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

/* the skin entry of every fast method (fast_f32_kernels.c): each group's share
 * of layout vertices [v0, v1) */
int skb__f32_skin_any(const void *state, int v0, int v1, float *pos_out, float *nrm_out);

#endif
