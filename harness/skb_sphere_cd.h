/* skb_sphere_cd.h — a skinned body for sphere-tree experiments and tests:
 * one mesh skinned by one method, its sphere tree, and the posed spheres and
 * vertices the collision query asks for, either refitted on demand through
 * the method's refit hook (thesis 5.3: only the spheres the query visits,
 * skinning only the vertices of the triangles it tests) or bottom-up (skin
 * every vertex, refit every sphere from the leaves, thesis 2.3.2). */
#ifndef SKB_SPHERE_CD_H
#define SKB_SPHERE_CD_H

#include "skb_method.h"
#include "skb_geom.h"
#include "skb_timing.h"   /* the one clock (skb_clock_ms) */

enum skb_refit_mode { SKB_REFIT_ON_DEMAND = 0, SKB_REFIT_BOTTOM_UP = 1 };

struct skb_sbody {
    const struct skb_mesh *mesh;
    const struct skb_method *method;
    const struct skb_sphere_tree *tree;
    struct skb_skinner sk;      /* owns the method state */
    int mode;                   /* enum skb_refit_mode of the last pose */
    unsigned frame;
    skb_real *scratch;          /* refit hook scratch */
    skb_real *sphere;           /* 4 per node: posed spheres */
    unsigned *sstamp;           /* sphere valid when sstamp == frame */
    skb_real *pos;              /* 3 per vertex: posed vertices */
    unsigned *vstamp;
    long refits, skinned;       /* work done since the last pose */
    int lazy_centres;           /* SBS on demand: a joint set's centre solved only
                                 * when one of its spheres is refitted or one of
                                 * its vertices skinned (skb_sbody_lazy_centres) */
    struct skb_cd_body body;    /* for skb_cd_query */
};

/* binds the method to the mesh and allocates the caches; the tree is the
 * mesh's (built by skb_sphere_tree_build) and must outlive the body */
int skb_sbody_init(struct skb_sbody *b, const struct skb_mesh *mesh, const struct skb_method *m,
                   const struct skb_sphere_tree *tree, char *msg, size_t msglen);
void skb_sbody_fini(struct skb_sbody *b);
/* a new pose: prepare; bottom-up also skins every vertex and refits every
 * sphere now.  Needs a method with a refit hook for SKB_REFIT_ON_DEMAND. */
int skb_sbody_pose(struct skb_sbody *b, const struct skb_pose *p, const struct skb_params *prm,
                   int mode, char *msg, size_t msglen);
/* a new frame on the same pose: every cached sphere and vertex stale, the
 * prepared state kept (the query alone can be timed again) */
void skb_sbody_restamp(struct skb_sbody *b);
/* SBS's on-demand reading of the collision paper (002 Alg. 1, thesis 6.5):
 * from the next on-demand pose on, a joint set's rotation centre is solved
 * only when one of its spheres is refitted or one of its vertices skinned
 * (bottom-up poses still solve them all, as the skin needs them).  0, or
 * SKB_ENOTSUP for a method other than SBS (no rotation centres). */
int skb_sbody_lazy_centres(struct skb_sbody *b, int on);
/* the posed sphere of a node (refitted on demand if needed) */
int skb_sbody_sphere(struct skb_sbody *b, int node, skb_real out[4]);
/* refit every node through the hook into out (4 per node), no caching */
int skb_sbody_refit_all(struct skb_sbody *b, skb_real *out);
/* skin every vertex into b->pos (and mark it valid) */
int skb_sbody_skin_all(struct skb_sbody *b);

/* an output check: vertices of pos (3 per vertex) outside the sphere of a
 * node that holds them (4 numbers per node) by more than
 * SKB_SPHERE_CHECK_REL times the root sphere's size (rounding only) */
#define SKB_SPHERE_CHECK_REL 1e-9
long skb_spheres_escapes(const struct skb_sphere_tree *t, const skb_real *pos, const skb_real *spheres);

/* the average radius of each tree level L = 0..depth into avg[L] (NAN for a
 * level without spheres): of the spheres s (4 numbers per node), or of the
 * tree's reference spheres when s is NULL; cnt: depth + 1 counters of scratch */
void skb_sphere_tree_level_avgs(const struct skb_sphere_tree *t, const skb_real *s, double *avg, double *cnt);

/* how strongly a pose bends the skeleton: the sum over joints of the angle
 * (rad) of each joint's rotation relative to its parent's (to joint 0's
 * without a hierarchy); mats: 16 per joint */
double skb_pose_strength(const struct skb_mesh *m, const skb_real *mats);
/* the pose (of nposes, 16 * njoints numbers each) with the largest strength */
int skb_pose_strongest(const struct skb_mesh *m, const skb_real *poses, int nposes);


/* pose matrices placed in the world: out_j = world * mats_j */
void skb_pose_place(const struct skb_pose *p, const skb_real world[16], skb_real *out_mats);

#endif
