/* procedural.h — builders shared by the procedural dataset sources and tests */
#ifndef SKB_PROCEDURAL_H
#define SKB_PROCEDURAL_H
#include "skb_dataset.h"

/* cylinder arm along x, shoulder joint 0 at 0, elbow joint 1 at x = 1 */
int skb__arm_build(int rings, int sectors, int nposes, struct skb_dataset *d, char *msg, size_t msglen);
/* pose k: joint 0 identity, joint 1 = bend about z then... twist about x, both about the elbow */
void skb__arm_pose(struct skb_dataset *d, int k, skb_real twist, skb_real bend);
#endif
