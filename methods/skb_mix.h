/* skb_mix.h — painted weights of blend_lbs_dqs (methods/blend_lbs_dqs.c):
 * DLB's share per vertex, handed to the skin in skb_params.lbs_dqs_painted
 * (Maya's weight-blended skinning reads the same per-vertex attribute). */
#ifndef SKB_MIX_H
#define SKB_MIX_H

#include "skb_method.h"

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif
/* out[v] (m->nverts values) = 1 - |v - joint's rest position| / radius,
 * clamped to [0, 1]: DLB at the joint, fading to LBS at `radius` (e.g. the
 * arm's elbow, joint 1).  SKB_ENOCENTER without joint rest positions,
 * SKB_EINVAL for a joint outside the rig or a radius that is not > 0. */
int skb_lbs_dqs_paint_near_joint(const struct skb_mesh *m, int joint, skb_real radius, skb_real *out);
#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
