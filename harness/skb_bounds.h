/* skb_bounds.h — error bounds and worked examples of thesis ch. 3-4 and the
 * DQ paper, measured by numerical optimisation on the registered methods
 * (GSL Brent over t, Nelder-Mead simplex over the angles), shared by
 * `skinbench run bounds` and the tests.  Each function runs the methods'
 * own blend hooks through skb_blend; no paper value appears here. */
#ifndef SKB_BOUNDS_H
#define SKB_BOUNDS_H

#include <gsl/gsl_rng.h>
#include "skb_method.h"

/* largest gap between two interpolations over t in [0, 1] and the relative
 * rotation angle alpha0 in [0, pi] (the worst case the optimiser found) */
struct skb_bound {
    double gap;       /* angle gap in rad, or translation gap as a fraction of alpha_eps */
    double t;         /* where */
    double alpha0;    /* relative rotation angle, rad */
    int evals;        /* blend pairs evaluated */
};

/* thesis Lemma 3.2: rotation angle of QLB (method qlb0 on pure rotations)
 * vs SLERP (skb_quat_slerp) */
int skb_bound_qlb_slerp(struct skb_bound *out, char *msg, size_t msglen);
/* thesis 4.3, App. A.1: rotation angle and translation along the screw axis
 * of DLB vs ScLERP (methods dlb and sclerp) between I and a screw motion of
 * angle alpha0 and translation alpha_eps = 1 along its axis (the axis is
 * offset from the origin by a second optimised variable) */
int skb_bound_dlb_sclerp(struct skb_bound *angle, struct skb_bound *trans, char *msg, size_t msglen);
/* the same two gaps for any blend m against the exact pair interpolation
 * ref (skb_method_exact_pair(): ScLERP; on the pure rotations at offset 0
 * it is SLERP).  A method needing a centre blends about the origin.
 * rigid_err (may be NULL): the worst rigidity error (skb_mat4_rigid_error)
 * of m's blends evaluated — above 1e-6 the blend is not rigid (linear) and
 * the gaps are of the quaternion and screw skb_dq_from_mat4 reads off it.  SKB_ENOTSUP when m cannot
 * blend two transforms. */
int skb_bound_vs_exact(const struct skb_method *m, const struct skb_method *ref, struct skb_bound *angle,
                       struct skb_bound *trans, double *rigid_err, char *msg, size_t msglen);
/* the gaps sampled at n evenly spaced t in [0, 1] for one relative angle
 * alpha0 (DQ paper Fig. 23); the DLB axis passes through (offset, 0, 0) */
int skb_bound_qlb_slerp_curve(double alpha0, int n, double *t, double *gap, char *msg, size_t msglen);
int skb_bound_dlb_sclerp_curve(double alpha0, double offset, int n, double *t, double *angle_gap,
                               double *trans_gap, char *msg, size_t msglen);

/* log-matrix blending (method logm) of R0 = rot(x, 1 rad) and
 * R1 = rot((1,1,0)/sqrt2, sqrt2 rad) (thesis App. A.2): the body angular
 * speed |omega(t)| by Richardson-extrapolated finite differences of the blend */
int skb_logm_speed_measured(double t, double *speed, char *msg, size_t msglen);
/* the closed form of SPEC section 3 (sign-corrected thesis App. A.2) */
double skb_logm_speed_closed(double t);

/* DQ paper 2.3 eq. (9): rotation centre of DLB(t; M1, M2) for the planar
 * family M = [rot(alpha), (2 cos alpha, 2 sin alpha)], alpha1, alpha2 in rad.
 * centre_measured: centre of the blended matrix; centre_formula: eq. (9)
 * with r_i = (-1, cot(alpha_i / 2)) (eq. 6) */
int skb_se2_centre(double alpha1, double alpha2, double t, double centre_measured[2],
                   double centre_formula[2], char *msg, size_t msglen);

/* 1-D maximisation on [lo, hi]: a scan of nscan + 1 points brackets the best
 * interior point, then GSL Brent refines it to tol.  Returns f at the max. */
double skb_maximize_1d(double (*f)(double x, void *p), void *p, double lo, double hi, int nscan,
                       double tol, double *xbest);

#endif
