/* skb_dataset.h — datasets: a skinned mesh plus a sequence of poses.
 * Sources (procedural models, real files through assimp, BVH motion) are
 * listed once in datasets/catalog.c; `skinbench list datasets` iterates it. */
#ifndef SKB_DATASET_H
#define SKB_DATASET_H

#include <stddef.h>
#include "skb_method.h"

struct skb_dataset {
    char name[128];
    char source[512];          /* where it came from (file path or "procedural") */
    struct skb_mesh mesh;      /* owns its arrays */
    int nposes;
    skb_real *poses;           /* 16*njoints*nposes rigid joint matrices */
    skb_real *scales;          /* 16*njoints*nposes non-rigid parts, or NULL */
    int renormalized;          /* vertices whose weights were renormalised on load */
    int truncated;             /* vertices that had more than 4 influences */
    int unweighted;            /* vertices without any weight, bound to joint 0 */
    int orthonormalized;       /* joint matrices (all poses) that were not rigid
                                  and were replaced by their nearest rigid one */
    double max_rigid_error;    /* worst rigid error among those, before the fix */
    char clip[64];             /* animation clip the poses come from ("" if none) */
    double pruned_below;       /* procedural weights: influences below this were
                                  dropped and the rest renormalised (0: none) */
    int rigid;                 /* every vertex has one joint, weight 1 (rigid
                                  skinning: skb_dataset_make_rigid) */
    int has_neck;              /* neck is known: the joint whose twist gives the
                                  candy-wrapper posture of thesis Fig. 6.4 */
    int neck;
    char neck_name[64];        /* the neck bone's name when found by name ("" otherwise) */
};

struct skb_dataset_opts {
    unsigned long seed;        /* for random poses */
    int quick;                 /* smaller variants for tests */
    int subdivide;             /* subdivision levels (each splits every triangle in 4) */
};

struct skb_dataset_source {
    const char *name;
    const char *kind;          /* "procedural" or "real" */
    const char *description;
    int in_default_set;        /* used by default in `run` experiments */
    int (*load)(const struct skb_dataset_opts *o, struct skb_dataset *out, char *msg, size_t msglen);
};

/* NULL-terminated catalogue */
extern const struct skb_dataset_source *const skb_dataset_sources[];

/* 1 when `name` is a catalogue name or reads as a model file path (holds '/'
 * or '.', or names an existing file): what skb_dataset_load will try.  0: an
 * unknown name, a usage error (the CLI exits 2) rather than a failed load. */
int skb_dataset_name_valid(const char *name);
/* load a catalogue name, or a model file path (imported through assimp) */
int skb_dataset_load(const char *name_or_path, const struct skb_dataset_opts *o,
                     struct skb_dataset *out, char *msg, size_t msglen);
void skb_dataset_free(struct skb_dataset *d);
/* pose k as a struct skb_pose view into d */
void skb_dataset_pose(const struct skb_dataset *d, int k, struct skb_pose *out);

/* split every triangle in four (new vertices at edge midpoints, weights and
 * normals interpolated, influences merged to the 4 largest and renormalised)
 * `levels` times, for the scaling runs of thesis Table 5.3.  Implemented in
 * datasets/subdivide.c. */
int skb_dataset_subdivide(const struct skb_dataset *in, int levels, struct skb_dataset *out,
                          char *msg, size_t msglen);

/* rigid skinning (thesis 6.6: the dwarf of Table 5.3 "has only rigid
 * skinning"): every vertex keeps only its largest-weight joint (ties: the
 * lower joint index), with weight 1; the other slots get weight 0.  Sets
 * d->rigid; returns how many vertices had more than one influence. */
int skb_dataset_make_rigid(struct skb_dataset *d);
/* the same on a mesh alone (its joint and weight arrays) */
int skb_mesh_make_rigid(struct skb_mesh *m);

/* pose sets (each replaces d->poses; parent and joint_rest must be filled).
 * random: every joint rotates about its rest position by a random axis and an
 * angle uniform in [0, max_angle] (the joint limit), composed down the
 * hierarchy; seeded, so a seed repeats the poses.
 * twist: pose k twists every joint about its bone axis (joint -> first child,
 * or parent -> joint for leaves) by max_twist * k / (nposes - 1), composed
 * down the hierarchy: extreme twists (candy-wrapper set-up, thesis 2.2.1). */
int skb_dataset_random_poses(struct skb_dataset *d, int nposes, double max_angle, unsigned long seed,
                             char *msg, size_t msglen);
int skb_dataset_twist_poses(struct skb_dataset *d, int nposes, double max_twist, char *msg, size_t msglen);
/* worst rigid error over all pose matrices (0 for exactly rigid poses) */
double skb_dataset_max_pose_rigid_error(const struct skb_dataset *d);

/* version of the model importer for results metadata, e.g. "assimp 5.2.5" */
void skb_dataset_importer_version(char *buf, size_t len);

/* helpers for sources */
int skb_dataset_alloc(struct skb_dataset *d, int nverts, int ntris, int njoints, int nposes);
/* per-vertex normals from the triangles (area weighted) */
void skb_dataset_compute_normals(struct skb_mesh *m);

#endif
