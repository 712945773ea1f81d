/* vec3.c — 3-vector helpers on skb_real (geometry/skb_real.h).
 * Written on skb_real only, so the FLOP counter can recompile it as C++. */
#include <math.h>
#include "skb_real.h"

skb_real skb_v3_dot(const skb_real a[3], const skb_real b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void skb_v3_cross(const skb_real a[3], const skb_real b[3], skb_real out[3])
{
    skb_real x = a[1] * b[2] - a[2] * b[1];
    skb_real y = a[2] * b[0] - a[0] * b[2];
    skb_real z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}

skb_real skb_v3_norm(const skb_real a[3])
{
    return sqrt(skb_v3_dot(a, a));
}
