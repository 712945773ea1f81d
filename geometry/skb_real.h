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

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif

/* 3-vectors */
skb_real skb_v3_dot(const skb_real a[3], const skb_real b[3]);
void skb_v3_cross(const skb_real a[3], const skb_real b[3], skb_real out[3]);
skb_real skb_v3_norm(const skb_real a[3]);

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
