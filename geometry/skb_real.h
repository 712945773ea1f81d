/* skb_real.h — the number type of methods/ and geometry/, and 3-vectors.
 *
 * skb_real is double, except in the FLOP-counting build (flops/flop_real.hpp),
 * which defines SKB_REAL_DEFINED and binds it to a counting class before this
 * header is read; code on skb_real must therefore also be valid C++ (see
 * methods/skb_math.h).  The 3-vector helpers live here, below methods/, since
 * the exact geometry (spheres, predicates) uses them too.
 */
#ifndef SKB_REAL_H
#define SKB_REAL_H

#include <math.h>

#ifndef SKB_REAL_DEFINED
#define SKB_REAL_DEFINED
typedef double skb_real;
#endif

#ifdef __cplusplus
#define SKB_EXTERN_C_BEGIN extern "C" {
#define SKB_EXTERN_C_END }
#else
#define SKB_EXTERN_C_BEGIN
#define SKB_EXTERN_C_END
#endif

/* 3-vectors.  The bodies are here, static inline, for methods/skb_math.c:
 * it held them before they moved below methods/, and its own callers keep
 * them inlined, so its machine code (and `run icount`'s instruction counts)
 * did not change.  Everyone else calls the out-of-line skb_v3_* (vec3.c). */
static inline skb_real skb__v3_dot(const skb_real a[3], const skb_real b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void skb__v3_cross(const skb_real a[3], const skb_real b[3], skb_real out[3])
{
    skb_real x = a[1] * b[2] - a[2] * b[1];
    skb_real y = a[2] * b[0] - a[0] * b[2];
    skb_real z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}

static inline skb_real skb__v3_norm(const skb_real a[3])
{
    return sqrt(skb__v3_dot(a, a));
}

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif

skb_real skb_v3_dot(const skb_real a[3], const skb_real b[3]);
void skb_v3_cross(const skb_real a[3], const skb_real b[3], skb_real out[3]);
skb_real skb_v3_norm(const skb_real a[3]);

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
