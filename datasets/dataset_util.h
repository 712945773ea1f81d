/* dataset_util.h — internal helpers shared by the dataset sources:
 * influence limiting, rigid orthonormalisation, the assimp scene sampler,
 * the isolated (child-process) file import, and capsule/weight builders. */
#ifndef SKB_DATASET_UTIL_H
#define SKB_DATASET_UTIL_H
#include <stddef.h>
#include "skb_dataset.h"

/* tolerance under which a weight sum counts as 1 (no renormalisation
 * recorded) and a joint matrix as rigid (no orthonormalisation recorded) */
#define SKB__DS_TOL_SUM   1e-6
#define SKB__DS_TOL_RIGID 1e-6

/* keep the SKB_MAX_INFLUENCES largest of n (joint, weight) pairs, merge
 * duplicate joints, renormalise; writes 4 slots.  Returns a bit mask:
 * 1 = more than 4 influences were dropped, 2 = weights were rescaled
 * (sum off 1 by more than SKB__DS_TOL_SUM), 4 = no positive weight */
int skb__limit_influences(int n, const int *joint, const double *weight, int out_joint[4],
                          skb_real out_weight[4]);

/* replace the 3x3 of m by the nearest rotation (polar factor); returns the
 * rigid error of m before the fix */
double skb__orthonormalize(skb_real m[16]);

/* the neck of a skeleton found by its bones' names (thesis Fig. 6.4 twists
 * the neck): the first joint, in parent-before-child order, whose name holds
 * "neck" in any case (BCN_Epileptic.X: "B_Neck"), so the neck's base rather
 * than a later "Neck1"; -1 when no name does (names[j] may be NULL) */
int skb__find_neck(int n, const char *const *names);

/* file import through assimp.  clip: animation name, or NULL for the first
 * animation with a duration; fps: sampling rate; max_poses: cap */
struct skb__import_opts {
    const char *clip;
    double fps;
    int max_poses;
};
/* import in this process (trusted catalogue files) */
int skb__import_model(const char *path, const struct skb__import_opts *io, struct skb_dataset *d,
                      char *msg, size_t msglen);
/* run `import` in a forked child with memory and CPU limits; the dataset
 * comes back over a pipe.  A crash, a limit or an error of the child gives
 * one message line naming path. */
typedef int (*skb__importer)(const char *path, const struct skb__import_opts *io,
                             struct skb_dataset *d, char *msg, size_t msglen);
int skb__import_isolated(const char *path, const struct skb__import_opts *io, skb__importer import,
                         struct skb_dataset *d, char *msg, size_t msglen);

/* a user-supplied model file, imported isolated */
int skb__load_model_file(const char *path, const struct skb_dataset_opts *o, struct skb_dataset *d,
                         char *msg, size_t msglen);

/* skeleton + motion of a BVH (or any animated) file: nodes in depth-first
 * order, parent indices, rest globals and nposes sampled globals */
struct skb__motion {
    int nnodes, nposes;
    char (*names)[64];
    int *parent;
    double *rest;      /* 16*nnodes global rest transforms */
    double *global;    /* 16*nnodes*nposes sampled global transforms */
};
int skb__motion_load(const char *path, const struct skb__import_opts *io, struct skb__motion *mo,
                     char *msg, size_t msglen);
void skb__motion_free(struct skb__motion *mo);

/* capsule-built bodies: segments from a to b; every vertex of a segment's
 * capsule is weighted by smooth distance falloff over all segments */
struct skb__segment {
    double a[3], b[3];
    double radius;
    int joint;         /* the joint moving this segment */
};
int skb__capsule_body(const struct skb__segment *seg, int nseg, int njoints, int target_verts,
                      int nposes, struct skb_dataset *d, char *msg, size_t msglen);
/* smooth distance weights of point x: each joint gets max over its segments
 * of (distance / radius)^-WEIGHT_POWER, 4 largest kept, renormalised, then
 * weights below SKB__PRUNE_WEIGHT dropped and the rest renormalised (as an
 * artist prunes a painted rig; capsules.c says why this threshold) */
#define SKB__PRUNE_WEIGHT 0.01
void skb__distance_weights(const double x[3], const struct skb__segment *seg, int nseg,
                           int out_joint[4], skb_real out_weight[4]);
/* pose k from per-joint local transforms (rotations about rest joint
 * positions): C_j = C_parent(j) L_j; parents must precede children */
void skb__pose_from_locals(struct skb_dataset *d, int k, const skb_real *local);
/* 4x4 rotation by angle about the unit axis through the point c */
void skb__rot_about(const skb_real axis[3], double angle, const skb_real c[3], skb_real out[16]);
#endif
