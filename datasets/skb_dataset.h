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

/* helpers for sources */
int skb_dataset_alloc(struct skb_dataset *d, int nverts, int ntris, int njoints, int nposes);
/* per-vertex normals from the triangles (area weighted) */
void skb_dataset_compute_normals(struct skb_mesh *m);

#endif
