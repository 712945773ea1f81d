/* skb_geom.h — shared geometry for bounding spheres and collision detection
 * of skinned meshes (thesis ch. 2.3, 5, 6; SBS collision paper 002):
 * exact minimal enclosing sphere, exact triangle-triangle overlap test, the
 * sphere tree with per-node joint sets, weight intervals and weight-polytope
 * corners, bottom-up refitting and the collision query (thesis Alg. 2.2).
 * The on-demand refits live with the methods (struct skb_method.refit,
 * methods/refit_*.c) and use the tree built here.
 *
 * Like methods/, this compiles as C and as C++ with skb_real a
 * counting class.  A sphere is 4 numbers: centre x, y, z and radius.  Index:
 *   spheres      skb_miniball (exact, Welzl/Gaertner move-to-front + pivoting)
 *                skb_bounding_sphere (thesis Alg. 5.1)  skb_sphere_of_triangle
 *   predicates   skb_orient3d (exact sign)  skb_tri_tri_overlap (Guigue-Devillers)
 *   tree         skb_sphere_tree_build / _free / _scratch_len
 *                skb_sphere_tree_refit_bottom_up  skb_sphere_tree_best
 *   query        skb_cd_query (thesis Alg. 2.2, full or yes/no) skb_cd_brute_force
 */
#ifndef SKB_GEOM_H
#define SKB_GEOM_H

#include <stddef.h>
#include "skb_error.h"
#include "skb_mesh.h"

/* thesis 5.1: a child whose radius exceeds C times its parent's is removed
 * and its children are given to the parent */
#define SKB_TREE_COLLAPSE_C 0.6
/* weight intervals are widened by this much before the corners of the
 * weight polytope are computed, so that weights that sum to 1 only up to
 * rounding still lie inside it (thesis 5.2.1) */
#define SKB_TREE_WEIGHT_SLACK 1e-9
/* corners closer than this (max norm) are merged */
#define SKB_TREE_CORNER_MERGE 1e-12

/* one joint set J of a node with its weight intervals [lo, hi] over the
 * node's vertices that have exactly this set of influences (thesis 5.3) */
struct skb_joint_set {
    int n;                             /* joints in the set */
    int joint[SKB_MAX_INFLUENCES];     /* ascending joint indices */
    skb_real lo[SKB_MAX_INFLUENCES], hi[SKB_MAX_INFLUENCES];
    int corner0, ncorner;              /* corners of W'_n: t->corner + SKB_MAX_INFLUENCES*(corner0+k) */
    int vertex;                        /* one vertex with this joint set (finds per-set
                                          data a method keeps per vertex, e.g. SB's r_c) */
};

struct skb_sphere_node {
    skb_real s[4];        /* reference sphere (exact minimal sphere of the node's vertices) */
    int parent;           /* -1 for the root */
    int level;            /* 1 = root, as in thesis Table 5.2 */
    int child0, nchild;   /* children t->child[child0 .. child0+nchild); 0 for a leaf */
    int tri0, ntri;       /* the subtree's triangles t->tri[tri0 .. tri0+ntri) */
    int vert0, nvert;     /* their distinct vertices t->vert[vert0 .. vert0+nvert) */
    int js0, njs;         /* joint sets t->js[js0 .. js0+njs) */
    skb_real wsum_dev;    /* max |sum of weights - 1| over the node's vertices: the
                             corners are built from normalised weights, a refit of
                             a method that is not invariant to the weight scale
                             (LBS, SB's linear part) widens by this much */
};

struct skb_sphere_tree {
    int nnodes;                    /* after the collapse; node 0 is the root, BFS order */
    int depth;                     /* levels after the collapse */
    int nnodes_binary, depth_binary; /* the binary tree of thesis Alg. 2.1, before the collapse */
    int max_children;
    int nleaves;
    struct skb_sphere_node *node;
    int *child;                    /* child node indices */
    int *tri;                      /* triangle indices, in tree order */
    int *vert;                     /* per-node vertex lists */
    long nvert_total;
    int njs;
    struct skb_joint_set *js;
    int ncorner;
    skb_real *corner;              /* SKB_MAX_INFLUENCES numbers per corner (unused: 0) */
    int max_refit_spheres;         /* most corners over all joint sets of one node */
    int max_leaf_tris;
};

/* collision query modes (thesis 5.4) */
enum skb_cd_mode { SKB_CD_FULL = 0, SKB_CD_YESNO = 1 };

/* one body of a collision query: a tree, the mesh triangles, and providers
 * of the posed spheres and vertices (which may refit or skin on demand) */
struct skb_cd_body {
    const struct skb_sphere_tree *tree;
    const int *tris;                                        /* 3 vertex indices per triangle */
    int (*sphere)(void *ctx, int node, skb_real out[4]);    /* <0 on error */
    const skb_real *(*vertex)(void *ctx, int v);            /* NULL on error */
    void *ctx;
};

struct skb_cd_stats {
    long sphere_tests;     /* sphere-sphere overlap tests (thesis Table 5.3 "S-S") */
    long tri_tests;        /* triangle-triangle tests */
    long npairs;           /* colliding triangle pairs found */
    int overflow;          /* 1 when more pairs were found than fit in the buffer */
};

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif

/* exact minimal enclosing sphere of the points pts[3*idx[i]] (idx NULL:
 * pts[3*i]), i < n; the radius is then raised to the largest distance from
 * the centre, so every point is inside as computed.  n = 0 gives radius -1.
 * Allocates n ints of scratch; SKB_ENOMEM on failure. */
int skb_miniball(const skb_real *pts, const int *idx, int n, skb_real out[4]);
/* thesis Alg. 5.1: centre = mean of the centres, radius = the largest
 * distance + radius (n spheres, 4 numbers each; radius may be 0 for points) */
void skb_bounding_sphere(const skb_real *spheres, int n, skb_real out[4]);
/* exact minimal sphere of a triangle (3 points) */
void skb_sphere_of_triangle(const skb_real a[3], const skb_real b[3], const skb_real c[3],
                            skb_real out[4]);

/* sign (-1, 0, 1) of det[a-o, b-o, c-o], exact (floating-point filter with an
 * exact expansion fallback) */
int skb_orient3d(const skb_real o[3], const skb_real a[3], const skb_real b[3], const skb_real c[3]);
/* sign of det[a-o, b-o] on the coordinates (i, j) of 3-vectors, exact */
int skb_orient2d(const skb_real o[3], const skb_real a[3], const skb_real b[3], int i, int j);
/* 1 when the closed triangles pqr and PQR share a point (Guigue-Devillers
 * 2003, on exact orientation predicates; coplanar triangles included) */
int skb_tri_tri_overlap(const skb_real p1[3], const skb_real q1[3], const skb_real r1[3],
                        const skb_real p2[3], const skb_real q2[3], const skb_real r2[3]);

/* the sphere tree of a mesh in its rest pose: top-down binary split
 * (thesis Alg. 2.1: longest side of the triangle-centroid box, halved),
 * exact minimal sphere per node, collapse by `collapse_c` (thesis 5.1), joint
 * sets, weight intervals and corners (thesis 5.2.1, 5.3). */
int skb_sphere_tree_build(const struct skb_mesh *m, skb_real collapse_c, struct skb_sphere_tree *t,
                          char *msg, size_t msglen);
void skb_sphere_tree_free(struct skb_sphere_tree *t);
/* most corners of one joint set's weight polytope: n * 2^(n-1) */
#define SKB_TREE_MAX_CORNERS (SKB_MAX_INFLUENCES << (SKB_MAX_INFLUENCES - 1))
/* reals of scratch a refit hook may use for one node of t: a list of
 * SKB_MAX_INFLUENCES * (t->max_refit_spheres + 1) spheres (one per corner and
 * sign pattern) at skb_sphere_tree_scratch_list2(t), then a list of
 * SKB_TREE_MAX_CORNERS 4-vectors */
size_t skb_sphere_tree_scratch_len(const struct skb_sphere_tree *t);
/* offset of the second list in the scratch */
size_t skb_sphere_tree_scratch_list2(const struct skb_sphere_tree *t);

/* how a bottom-up refit fits a leaf to its posed vertices.  ALG51, the
 * thesis's: Alg. 5.1 with the vertices as zero-radius spheres (their
 * centroid, the farthest vertex's distance), the "simple approximation of
 * minimal enclosing sphere" thesis 5.3 uses for every refit (and 6.3 for
 * points); thesis 2.3.2 calls bottom-up refitted sphere trees conservative
 * and cites approximate enclosing spheres [20].  EXACT: the minimal sphere
 * of the leaf's vertices (a labelled variant: the tightest any leaf fit
 * gives). */
enum skb_leaf_fit { SKB_LEAF_ALG51, SKB_LEAF_EXACT };
/* bottom-up refit from posed vertices pos (3 per vertex): each leaf by fit,
 * a parent Alg. 5.1 on its children's spheres.  out: 4 per node.  0, or
 * the minimal-sphere solver's error (EXACT only) */
int skb_sphere_tree_refit_bottom_up(const struct skb_sphere_tree *t, const int *tris, const skb_real *pos,
                                    enum skb_leaf_fit fit, skb_real *out);
/* "best": exact minimal sphere of each node's posed vertices (4 per node) */
int skb_sphere_tree_best(const struct skb_sphere_tree *t, const skb_real *pos, skb_real *out);

/* thesis Alg. 2.2 between two bodies: descends into the node with the larger
 * posed sphere; leaves test their triangles exactly.  Colliding pairs
 * (triangle of a, triangle of b) go to pairs[2*k] while k < max_pairs
 * (pairs may be NULL).  YESNO stops at the first pair.  Returns npairs >= 0
 * or a negative SKB_E* from a provider. */
long skb_cd_query(const struct skb_cd_body *a, const struct skb_cd_body *b, int mode,
                  int *pairs, long max_pairs, struct skb_cd_stats *st);
/* every triangle pair of two posed meshes (the oracle for the query; an
 * exact box test skips pairs first).  SKB_ENOMEM if it cannot allocate. */
long skb_cd_brute_force(const int *tris_a, int ntris_a, const skb_real *pos_a,
                        const int *tris_b, int ntris_b, const skb_real *pos_b,
                        int *pairs, long max_pairs);

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
