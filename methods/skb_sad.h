/* skb_sad.h — Skinning Arbitrary Deformations (thesis ch. 7): a skinned
 * approximation of a mesh animation.  Pure math on double arrays, no I/O
 * (the vertex animations come from datasets/skb_vanim.h, the experiment is
 * harness/exp_sad.c).
 *   skb_sad_pcentre        greedy p-centre proxy-joints on the rest mesh (7.1)
 *   skb_sad_rig_radial     weights 1 - d / (P r), normalised (7.1)
 *   skb_sad_rig_from_influences  a given rig (joint indices + weights)
 *   skb_sad_rig_free
 *   skb_sad_fit_anim       per-keyframe LSQR fit, affine (7.2.1) or rigid (7.2.2)
 *   skb_sad_apply / _apply_normals / _vertex_transform   skin with fitted joints
 *   skb_sad_corrections    EigenSkin-style corrections from an SVD (7.3)
 *   skb_sad_distortion     the % distortion of 7.4
 *   skb_sad_normal_error   mean / largest angle of the fitted normals
 *   skb_sad_compression    Table 7.1's compression ratio
 *   skb_sad_max_angle      largest fitted joint rotation (the 180 degree limit)
 * C only (absent from the FLOP-counting C++ build). */
#ifndef SKB_SAD_H
#define SKB_SAD_H

#ifndef SKB_FLOP_COUNT
#include <stddef.h>
#include "skb_lsqr.h"

struct skb_pool;

enum skb_sad_kind {
    SKB_SAD_AFFINE = 0,        /* 3x4 matrices, linear blend skinning (7.2.1): 12 numbers per joint */
    SKB_SAD_RIGID = 1          /* dual quaternions with real part 1 (eq. 7.5): 7 numbers per joint */
};
#define SKB_SAD_AFFINE_DOF 12
#define SKB_SAD_RIGID_DOF 7
#define SKB_SAD_NORMAL_DOF 3   /* quaternion with real part 1, no dual part (end of 7.2.2) */
/* LSQR damping of the normal fits at least (skb_lsqr_opts.damp): the normals
 * of a flat region leave the rotation about that normal undetermined */
#define SKB_SAD_NORMAL_DAMP 1e-2
/* and their LSQR tolerance at least (a normal within ~0.01 degree is enough) */
#define SKB_SAD_NORMAL_ATOL 1e-4
#define SKB_SAD_P 1.5          /* thesis 7.1: "We found the value P = 1.5 to perform well" */

/* influences of every vertex, variable count (thesis 7.1 does not cap them) */
struct skb_sad_rig {
    int nverts, njoints;
    int *off;                  /* nverts + 1: vertex k's influences are off[k] .. off[k+1]) */
    int *joint;
    double *weight;            /* convex per vertex */
    double *origin;            /* 3*njoints: weighted centroid of each joint's vertices (the
                                  fit's expansion point: conditioning only, the model is unchanged) */
    double radius;             /* p-centre radius r (0 for a given rig) */
    int max_influences;
};

/* greedy p-centre (thesis 7.1, Gonzalez): the first centre is the vertex
 * farthest from the centroid, each next one the vertex farthest from all
 * centres so far.  centres: p vertex indices; *radius: the largest distance
 * of a vertex to its nearest centre.  0 or SKB_EINVAL (p < 1 or > nverts). */
int skb_sad_pcentre(const double *rest, int nverts, int p, int *centres, double *radius);

/* thesis 7.1 weights: joint i (at rest vertex centres[i]) influences the
 * vertices within P r, with weight falling linearly from 1 at the joint to
 * 0 at P r, normalised per vertex.  0, SKB_EINVAL or SKB_ENOMEM. */
int skb_sad_rig_radial(const double *rest, int nverts, const int *centres, int p, double r, double P,
                       struct skb_sad_rig *rig);

/* a rig given by ninf (joint, weight) slots per vertex (weight 0: unused) */
int skb_sad_rig_from_influences(const double *rest, int nverts, int njoints, int ninf, const int *joint,
                                const double *weight, struct skb_sad_rig *rig);
void skb_sad_rig_free(struct skb_sad_rig *rig);

/* one animation: nframes keyframes of nverts vertices; normals may be NULL */
struct skb_sad_anim {
    int nverts, nframes;
    const double *rest;        /* 3*nverts */
    const double *rest_nrm;    /* 3*nverts unit normals, or NULL */
    const double *pos;         /* 3*nverts*nframes, frame after frame */
    const double *nrm;         /* 3*nverts*nframes unit normals, or NULL */
};

/* what skb_sad_fit_anim writes (arrays the caller allocates) */
struct skb_sad_fit {
    double *params;            /* dof*njoints*nframes joint parameters, global frame:
                                  affine: row-major 3x4 C_j; rigid: c (3), s, e (3) of the
                                  dual quaternion (1, c) + eps (s, e) */
    double *approx;            /* 3*nverts*nframes skinned positions */
    double *nparams;           /* 3*njoints*nframes normal rotations (1, c), or NULL: not fitted */
    double *approx_nrm;        /* 3*nverts*nframes skinned normals, or NULL */
    long iterations;           /* LSQR iterations, all keyframes, positions */
    long normal_iterations;    /* the same for normals */
    int max_iterations;        /* the most one solve took */
    int capped;                /* solves that hit the iteration cap */
};

/* fit every keyframe (independently, split over the pool's threads; pool
 * may be NULL) by LSQR: affine, the 3m x 12p system of eq. 7.1; rigid, the
 * 3m x 7p system of eq. 7.5 (its vector rows; the dual scalar's column is
 * empty and s is set to -c.e per joint, see sad_fit.c).  Normals (rigid
 * only, when out->nparams is set): eq. 7.5 with the dual parts 0 (3m x 3p).
 * Every keyframe starts from the identity, so results do not depend on the
 * thread count.  0 or an error code. */
int skb_sad_fit_anim(const struct skb_sad_anim *a, const struct skb_sad_rig *rig, int kind,
                     const struct skb_lsqr_opts *o, struct skb_pool *pool, struct skb_sad_fit *out);

/* skin the rest positions with one keyframe's parameters: affine, linear
 * blend of the 3x4 matrices (eq. 2.6); rigid, dual quaternion linear
 * blending of (1, c) + eps (s, e) (eq. 7.4, DQ paper Alg. 1), the blend's
 * dual scalar set to -c.e so that it is a rigid transformation (the model
 * eq. 7.5's rows fit exactly). */
void skb_sad_apply(const struct skb_sad_rig *rig, int kind, const double *rest, const double *params,
                   double *out);
/* rotate rest normals by the blend of the normal quaternions (1, c) */
void skb_sad_apply_normals(const struct skb_sad_rig *rig, const double *rest_nrm, const double *nparams,
                           double *out);
/* vertex k's blended transform as a row-major 3x4 [A | t] */
void skb_sad_vertex_transform(const struct skb_sad_rig *rig, int kind, const double *params, int k, double t[12]);

/* % distortion (thesis 7.4): 100 |P_exact - P_approx|_F / |P_exact - P_average|_F,
 * P_average every column the mean keyframe of P_exact */
double skb_sad_distortion(const double *exact, const double *approx, int nverts, int nframes);

/* thesis 7.3: the rest-pose residuals e = T^-1 g - v of every vertex and
 * keyframe in a 3m x kappa matrix, its SVD, and for each nf[i] the
 * distortion of the skin corrected by the first nf[i] eigen-displacements D',
 * v'' = T (v + D' k), each keyframe's k fitted in posed space (least squares
 * of |T (v + D' k) - g|: the thesis's K' when T is rigid, never worse than
 * uncorrected when it is affine).  Positions only.  dist[i] gets it; *singular (when not
 * NULL) the vertices whose T could not be inverted.  The keyframes' fits are
 * split over pool (NULL: this thread).  0 or an error code. */
int skb_sad_corrections(const struct skb_sad_anim *a, const struct skb_sad_rig *rig, int kind,
                        const double *params, int n, const int *nf, struct skb_pool *pool, double *dist,
                        int *singular);

/* mean angle (degrees) between exact and approximated normals over every
 * vertex and keyframe; *max_deg (when not NULL) the largest */
double skb_sad_normal_error(const double *exact, const double *approx, int nverts, int nframes, double *max_deg);

/* thesis Table 7.1's compression ratio: the animation as positions and
 * normals per keyframe (6 m kappa numbers) against rest positions and
 * normals (6 m) plus a dual quaternion for positions and a quaternion for
 * normals per joint and keyframe (12 p kappa) */
double skb_sad_compression(int nverts, int nframes, int p);

/* the largest joint rotation angle (degrees) among rigid parameters, and
 * how many joint-keyframes rotate by more than above_deg */
double skb_sad_max_angle(const double *params, int njoints, int nframes, double above_deg, int *count);

#endif
#endif
