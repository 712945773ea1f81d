/* skb_peers.h — other people's skinning, timed beside ours in the cpu
 * experiment: glm's dual quaternions used the way engines use them
 * (harness/peer_glm.cpp) and a textbook linear blend skinning loop
 * (harness/peer_textbook.c).  Each converts the mesh once, a pose per call,
 * and writes float xyz positions and normals (3*nverts floats each). */
#ifndef SKB_PEERS_H
#define SKB_PEERS_H

#include "skb_method.h"

#ifdef __cplusplus
extern "C" {
#endif

struct skb_peer;
struct skb_peer_ops {
    const char *name;          /* "glm_dq", "textbook_lbs" */
    const char *description;
    unsigned reference;        /* the role (enum skb_method_flags) of the skinbench
                                * method it must agree with: skb_method_with_flag */
    /* NULL when the peer is not available in this build (headers missing) */
    struct skb_peer *(*create)(const struct skb_mesh *m);
    void (*prepare)(struct skb_peer *p, const struct skb_pose *pose);
    void (*skin)(struct skb_peer *p, float *pos_out, float *nrm_out);
    void (*destroy)(struct skb_peer *p);
    /* what the timed work is, for the report beside our kernels */
    const char *layout;        /* vertex streams as the peer stores them */
    const char *normals;       /* what it does with normals */
    int threads;               /* threads it skins on */
};

/* NULL-terminated */
extern const struct skb_peer_ops *const skb_peers[];

#ifdef __cplusplus
}
#endif
#endif
