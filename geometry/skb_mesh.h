/* skb_mesh.h — a skinned mesh in its rest pose, the input shared by the
 * blending methods (methods/skb_method.h) and the sphere tree built on it
 * (geometry/skb_geom.h). */
#ifndef SKB_MESH_H
#define SKB_MESH_H

#include "skb_real.h"

#define SKB_MAX_INFLUENCES 4

/* a skinned mesh in its rest pose (thesis 2.2.1) */
struct skb_mesh {
    int nverts, ntris, njoints;
    skb_real *pos;             /* 3*nverts rest positions */
    skb_real *nrm;             /* 3*nverts rest normals (may be NULL) */
    int *tris;                 /* 3*ntris vertex indices */
    int *joint;                /* 4*nverts joint indices (unused slots: weight 0) */
    skb_real *weight;          /* 4*nverts convex weights */
    int *parent;               /* njoints parent index, -1 for roots (may be NULL) */
    skb_real *joint_rest;      /* 3*njoints rest joint positions (may be NULL) */
    skb_real *center;          /* 3*nverts per-vertex rotation centre for qb (may be NULL) */
};

#endif
