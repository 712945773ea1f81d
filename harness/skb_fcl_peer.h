/* skb_fcl_peer.h — FCL (the Flexible Collision Library) as a peer for
 * `skinbench run cd`: an AABB BVH per posed mesh, refitted bottom-up from
 * the skinned vertices (FCL's replaceVertex / endReplaceModel), queried with
 * fcl::collide.  Available only when libfcl-dev was found at build time. */
#ifndef SKB_FCL_PEER_H
#define SKB_FCL_PEER_H

#include "skb_method.h"

#ifdef __cplusplus
extern "C" {
#endif

struct skb_fcl_peer;

/* 1 when built with FCL */
int skb_fcl_peer_available(void);
/* a BVH over the triangles at vertex positions pos (3 per vertex) */
int skb_fcl_peer_new(const int *tris, int ntris, const skb_real *pos, int nverts, struct skb_fcl_peer **out);
/* move the vertices to pos and refit the BVH bottom-up */
int skb_fcl_peer_refit(struct skb_fcl_peer *p, const skb_real *pos);
/* colliding triangle pairs (yesno: stop at the first); <0 on error */
long skb_fcl_peer_collide(struct skb_fcl_peer *a, struct skb_fcl_peer *b, int yesno);
void skb_fcl_peer_free(struct skb_fcl_peer *p);

#ifdef __cplusplus
}
#endif

#endif
