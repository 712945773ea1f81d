/* skb_sb_internal.h — the internals of methods/sb.c that the GPU path
 * (gpu/gpu_skin.c) reaches: sb's joint sets (found at bind) and their
 * rotation centres (solved by sb's own prepare, thesis Alg. 3.1 lines 2-6),
 * read from a state made by skb_skin_init with the registry method "sb".
 * Not part of the public interface; `skb__` names are internal. */
#ifndef SKB_SB_INTERNAL_H
#define SKB_SB_INTERNAL_H

#include "skb_method.h"

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif
/* number of distinct joint sets of two or more joints the mesh has */
int skb__sb_nsets(const struct skb_mesh *m, const void *state);
/* the joint set of vertex v, or -1 when it has fewer than two joints
 * (then its centre is the origin, as in sb's skin path) */
int skb__sb_vertex_set(const struct skb_mesh *m, const void *state, int v);
/* the joints of set f, increasing, into out; returns their number (2..4) */
int skb__sb_set_joints(const struct skb_mesh *m, const void *state, int f, int out[SKB_MAX_INFLUENCES]);
/* sb's prepare: per-joint quaternions and one SVD centre per joint set */
int skb__sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                    const struct skb_params *prm, void *state);
/* the centre r_c of joint set f in the pose of the last prepare (3 reals) */
const skb_real *skb__sb_set_center(const struct skb_mesh *m, const void *state, int f);
#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
