/* vec3.c — 3-vector helpers on skb_real (geometry/skb_real.h).
 * Written on skb_real only, so the FLOP counter can recompile it as C++. */
#include <math.h>
#include "skb_real.h"

skb_real skb_v3_dot(const skb_real a[3], const skb_real b[3])
{
    return skb__v3_dot(a, b);
}

void skb_v3_cross(const skb_real a[3], const skb_real b[3], skb_real out[3])
{
    skb__v3_cross(a, b, out);
}

skb_real skb_v3_norm(const skb_real a[3])
{
    return skb__v3_norm(a);
}
