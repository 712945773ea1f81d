/* skb_math.h — the shared math of skinbench: quaternions, dual quaternions,
 * rigid 4x4 matrices and screw parameters, in double precision.
 *
 * Everything numeric is written in terms of skb_real so that the FLOP counter
 * (flops/flop_real.hpp) can recompile methods/ as C++ with skb_real bound to a
 * counting type.  Code in methods/ must therefore also be valid C++: no implicit
 * void* conversions, no compound literals, no VLAs, designated initializers only
 * in declaration order, and all arithmetic on skb_real (never on bare double).
 *
 * Conventions (thesis 2.1): column vectors, 4x4 matrices row-major as 16
 * numbers, M*N applies N first; quaternion (w,x,y,z) with q v q* rotating v.
 * Output parameters come last.  Index:
 *   quaternions      skb_quat_*   mul conj dot norm normalize scale add
 *                                 exp log pow slerp axis_angle to_mat3
 *                                 to_mat3_scaled from_mat3 rotate blend
 *   dual quaternions skb_dq_*     mul conj (quaternion) dconj (dual) cconj (both)
 *                                 norm normalize exp log pow scale add
 *                                 from_qt to_qt from_mat4 to_mat4
 *                                 transform_point transform_normal screw
 *   rigid matrices   skb_mat4_*   identity mul inv_rigid apply apply_dir
 *                                 from_rt rigid_error log_rigid exp_rigid qlb
 *   QLB skinning     skb_qlb_prepare skb_qlb_vertex;  rotation centre skb_rotcenter (SB, GSL SVD)
 *   3-vectors        skb_v3_*     dot cross norm
 */
#ifndef SKB_MATH_H
#define SKB_MATH_H

#include "skb_real.h"   /* skb_real, extern "C", the 3-vectors (geometry/) */

#define SKB_PI 3.14159265358979323846

struct skb_quat { skb_real w, x, y, z; };
struct skb_dq { struct skb_quat r, d; };   /* r + eps d (thesis 2.1.2) */

/* screw parameters of a rigid transform (thesis eq. 2.4): rotation angle
 * theta0 about the unit axis s0, translation d along it, moment m = p x s0 */
struct skb_screw {
    skb_real axis[3];
    skb_real moment[3];
    skb_real angle;       /* theta0 in [0, 2pi] (follows the sign of the dq) */
    skb_real translation; /* theta_eps: translation along the axis */
    int pure_translation; /* 1 when the rotation angle is ~0: axis = direction of t */
};

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif

/* quaternions (thesis 2.1.1) */
void skb_quat_mul(const struct skb_quat *a, const struct skb_quat *b, struct skb_quat *out);
void skb_quat_conj(const struct skb_quat *q, struct skb_quat *out);
/* -q: a sign flip (free in the FLOP count, unlike skb_quat_scale by -1) */
void skb_quat_neg(const struct skb_quat *q, struct skb_quat *out);
skb_real skb_quat_dot(const struct skb_quat *a, const struct skb_quat *b);
skb_real skb_quat_norm(const struct skb_quat *q);
/* returns -1 (and leaves out untouched) when |q| is 0 or not finite */
int skb_quat_normalize(const struct skb_quat *q, struct skb_quat *out);
void skb_quat_scale(const struct skb_quat *q, skb_real s, struct skb_quat *out);
/* out += s * q */
void skb_quat_axpy(skb_real s, const struct skb_quat *q, struct skb_quat *out);
/* exp of a pure quaternion (scalar part ignored): eq. 2.2 */
void skb_quat_exp(const struct skb_quat *v, struct skb_quat *out);
/* log of a unit quaternion: pure quaternion a*alpha/2 with alpha/2 in [0, pi] */
void skb_quat_log(const struct skb_quat *q, struct skb_quat *out);
void skb_quat_pow(const struct skb_quat *q, skb_real t, struct skb_quat *out);
/* SLERP along the shorter arc (sign of b flipped if <a,b> < 0) */
void skb_quat_slerp(const struct skb_quat *a, const struct skb_quat *b, skb_real t, struct skb_quat *out);
void skb_quat_from_axis_angle(const skb_real axis[3], skb_real angle, struct skb_quat *out);
/* rotation matrix (3x3 row-major) of a unit quaternion */
void skb_quat_to_mat3(const struct skb_quat *q, skb_real m[9]);
/* rotation matrix of a non-unit quaternion, normalised by dividing by <q,q>
 * (thesis 3.3, the matrix after Lemma 3.4: saves the sqrt) */
void skb_quat_to_mat3_scaled(const struct skb_quat *q, skb_real m[9]);
/* the same given n2 = <q,q> > 0 (callers that have tested it already) */
void skb_quat_to_mat3_n2(const struct skb_quat *q, skb_real n2, skb_real m[9]);
/* acc += (0, t) q: the product by a pure quaternion (eq. 2.1 without the
 * zero scalar part), accumulated */
void skb_quat_pure_mul_add(const skb_real t[3], const struct skb_quat *q, struct skb_quat *acc);
/* out = (0, t) q */
void skb_quat_pure_mul(const skb_real t[3], const struct skb_quat *q, struct skb_quat *out);
/* unit quaternion from a rotation matrix (3x3 row-major); w >= 0 */
void skb_quat_from_mat3(const skb_real m[9], struct skb_quat *out);
/* v' = v + 2 r x (r x v + a v), DQ paper eq. 15; q unit */
void skb_quat_rotate(const struct skb_quat *q, const skb_real v[3], skb_real out[3]);

/* quaternion linear blending and rotation centres (thesis ch. 3) */
/* s = sum_i w_i s_i q[idx[i]] (idx NULL: q[i]), not normalised; terms with
 * w_i == 0 are skipped.  pivot != 0: s_i = -1 when <q_p, q_i> < 0, q_p the
 * first term with w_p != 0 (DQ paper Algorithm 2); pivot == 0: all s_i = 1 */
void skb_quat_blend(int n, const skb_real *w, const int *idx, const struct skb_quat *q,
                    int pivot, struct skb_quat *out);
/* QLB'_c of n rigid 4x4 matrices (thesis eq. 3.5, Lemma 3.4): rotations
 * blended as quaternions (signs as skb_quat_blend), Q from the sum by
 * skb_quat_to_mat3_scaled, translation such that v' = Q (v - c) + sum w_i C_i c;
 * c NULL is the origin (QLB'_0: translation sum w_i t_i).  -1 when the
 * quaternion sum vanishes (out untouched) */
#define SKB_QLB_MIN_NORM2 1e-24   /* <s,s> below this: the quaternion sum cancelled */
int skb_mat4_qlb(int n, const skb_real *w, const skb_real *mats, const skb_real *c,
                 int pivot, skb_real out[16]);
/* per-pose part of QLB'_c skinning (thesis 3.3: quaternions precomputed
 * per joint): q[j] from the rotation of mats[16 j..], rows[12 j..] its 3x4 */
void skb_qlb_prepare(int njoints, const skb_real *mats, struct skb_quat *q, skb_real *rows);
/* one vertex of QLB'_c skinning (thesis Alg. 3.1 lines 7-9, eq. 3.7):
 * Q from skb_quat_blend(n, w, joint, q, pivot) by skb_quat_to_mat3_scaled,
 * out = Q (x - c) + sum_i w_i C_j c with C_j the 3x4 rows[12 j..]; c NULL is
 * the origin.  nout = Q nx when both are given.  -1 when the sum vanishes */
int skb_qlb_vertex(int n, const int *joint, const skb_real *w, const struct skb_quat *q,
                   const skb_real *rows, const skb_real *c, int pivot, const skb_real x[3],
                   const skb_real *nx, skb_real out[3], skb_real *nout);
/* SB rotation centre (thesis 3.1, eq. 3.1; methods/rotcenter.c, GSL SVD):
 * the least-squares solution r of C_a r = C_b r over all pairs a < b of the
 * n rigid matrices mats[0..n-1], of minimal norm |r| when not unique;
 * singular values <= SKB_ROTCENTER_RCOND * max(sigma_max, 1) count as zero.
 * n == 1 gives r = 0.  -1 when n is outside [1, SKB_ROTCENTER_MAX_N] or the
 * SVD fails (r untouched) */
#define SKB_ROTCENTER_MAX_N 16
#define SKB_ROTCENTER_RCOND 1e-8
int skb_rotcenter(int n, const skb_real *const *mats, skb_real r[3]);

/* dual quaternions (thesis 2.1.2) */
void skb_dq_mul(const struct skb_dq *a, const struct skb_dq *b, struct skb_dq *out);
void skb_dq_conj(const struct skb_dq *q, struct skb_dq *out);   /* q0* + eps q_eps* */
void skb_dq_dconj(const struct skb_dq *q, struct skb_dq *out);  /* q0 - eps q_eps   */
void skb_dq_cconj(const struct skb_dq *q, struct skb_dq *out);  /* both            */
/* dual-number norm |q| = |q0| + eps <q0,q_eps>/|q0| */
void skb_dq_norm(const struct skb_dq *q, skb_real *n0, skb_real *neps);
/* q / |q| (dual division); -1 when |q0| vanishes (antipodal cancellation) */
int skb_dq_normalize(const struct skb_dq *q, struct skb_dq *out);
void skb_dq_scale(const struct skb_dq *q, skb_real s, struct skb_dq *out);
void skb_dq_neg(const struct skb_dq *q, struct skb_dq *out);       /* -q, free */
void skb_dq_axpy(skb_real s, const struct skb_dq *q, struct skb_dq *out);
/* exp of a pure dual quaternion s*theta/2 (eq. 2.5) and its inverse */
void skb_dq_exp(const struct skb_dq *v, struct skb_dq *out);
void skb_dq_log(const struct skb_dq *q, struct skb_dq *out);
void skb_dq_pow(const struct skb_dq *q, skb_real t, struct skb_dq *out);
/* (unit quaternion, translation) <-> unit dual quaternion, eq. 2.3 */
void skb_dq_from_qt(const struct skb_quat *q, const skb_real t[3], struct skb_dq *out);
void skb_dq_to_qt(const struct skb_dq *q, struct skb_quat *rot, skb_real t[3]);
void skb_dq_from_mat4(const skb_real m[16], struct skb_dq *out);
void skb_dq_to_mat4(const struct skb_dq *q, skb_real m[16]);
/* t = s vec(d r*): the translation of r + eps d is 2 vec(d r*)/<r,r>
 * (s = 2 for a unit dual quaternion) */
void skb_dq_translation(const struct skb_quat *r, const struct skb_quat *d, skb_real s, skb_real t[3]);
/* DQ paper Algorithm 1 on an arbitrary (non-normalised) blend b:
 * c0 = b0/|b0|, ce = be/|b0|, v' = v + 2 d0 x (d0 x v + a0 v) + 2 (a0 de - ae d0 + d0 x de) */
void skb_dq_transform_point(const struct skb_dq *b, const skb_real v[3], skb_real out[3]);
void skb_dq_transform_normal(const struct skb_dq *b, const skb_real n[3], skb_real out[3]);
/* screw parameters of a unit dual quaternion */
void skb_dq_screw(const struct skb_dq *q, struct skb_screw *out);

/* rigid 4x4 matrices, row-major */
void skb_mat4_identity(skb_real m[16]);
void skb_mat4_mul(const skb_real a[16], const skb_real b[16], skb_real out[16]);
void skb_mat4_inv_rigid(const skb_real m[16], skb_real out[16]);
void skb_mat4_apply(const skb_real m[16], const skb_real v[3], skb_real out[3]);
void skb_mat4_apply_dir(const skb_real m[16], const skb_real v[3], skb_real out[3]);
/* rotation (3x3 row-major) and translation -> 4x4 */
void skb_mat4_from_rt(const skb_real r[9], const skb_real t[3], skb_real out[16]);
void skb_mat4_to_rt(const skb_real m[16], skb_real r[9], skb_real t[3]);
/* max(|R^T R - I|_max, |det R - 1|, |bottom row - (0,0,0,1)|) */
skb_real skb_mat4_rigid_error(const skb_real m[16]);
/* closed-form rigid log/exp (Rodrigues; thesis 2.2.3, 4.1): the twist
 * xi = (omega, v) with omega the rotation vector (|omega| <= pi) */
void skb_mat4_log_rigid(const skb_real m[16], skb_real omega[3], skb_real v[3]);
void skb_mat4_exp_rigid(const skb_real omega[3], const skb_real v[3], skb_real out[16]);

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
