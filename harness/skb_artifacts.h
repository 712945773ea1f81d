/* skb_artifacts.h — the `artifacts` experiment's run half (harness/exp_artifacts.c)
 * and the metrics it computes on posed meshes (harness/artifacts_metrics.c), shared
 * with its unit tests (tests/test_artifacts.c).  The report half, the descriptor
 * skb_desc_artifacts: reports/exp_artifacts.c. */
#ifndef SKB_ARTIFACTS_H
#define SKB_ARTIFACTS_H

#include "skb_mesh.h"
#include "skb_run.h"
#include "skb_schema.h"

extern const struct skb_experiment skb_exp_artifacts;
/* artifacts.json's table of fields, declared beside its writer */
extern const struct skb_schema skb_schema_artifacts;

/* the largest side of the rest mesh's bounding box: the unit of the distances */
double skb_artifacts_model_size(const struct skb_mesh *m);
/* the limb radius at joint j: the median distance of the vertices weighted on
 * both j and its parent from the bone axis through j; NAN when undefined */
double skb_artifacts_limb_radius(const struct skb_mesh *m, int j);
/* the joint bulge at joint j for skinning matrices mats (16 per joint, rest to
 * posed) and posed positions pos: the largest growth, over the vertices
 * weighted on j or its parent, of the distance to the nearer of the two bone
 * rays leaving j (towards the parent, moved by the parent's matrix; towards
 * the first child, moved by j's), posed minus rest, over radius.  The rigid
 * ideal keeps every distance (0); negative when every vertex moved inwards.
 * NAN when j has neither parent nor child. */
double skb_artifacts_bulge(const struct skb_mesh *m, int j, const skb_real *mats, const skb_real *pos,
                           double radius);
/* the same bulge over two classes of those vertices: out[0] over the ones
 * weighted on j and its parent alone, out[1] over the ones with weight on a
 * third joint too (a hip's pelvis and spine); count[] how many of each
 * (NAN where a class is empty) */
void skb_artifacts_bulge_split(const struct skb_mesh *m, int j, const skb_real *mats, const skb_real *pos,
                               double radius, double out[2], int count[2]);
/* triangle pairs sharing no vertex that intersect (skb_tri_tri_overlap, exact
 * predicates), found by sweeping bounding boxes along x; -1 when out of memory */
long skb_artifacts_self_intersections(const int *tris, int ntris, const skb_real *pos);
/* 1 when every edge lies in exactly two triangles (a closed surface) */
int skb_artifacts_mesh_closed(const struct skb_mesh *m);
/* signed volume enclosed by a closed triangle mesh (divergence theorem) */
double skb_artifacts_mesh_volume(const struct skb_mesh *m, const skb_real *pos);
/* RMS and largest |a - b| over nv vertices, divided by size */
void skb_artifacts_distance(int nv, const skb_real *a, const skb_real *b, double size, double *rms, double *mx);
/* the largest |b - a| of one vertex, divided by size */
double skb_artifacts_max_jump(int nv, const skb_real *a, const skb_real *b, double size);

#endif
