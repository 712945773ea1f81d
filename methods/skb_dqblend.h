/* skb_dqblend.h — dual quaternion blending shared by dlb, dib and dlb_scale
 * (implemented in methods/dlb.c): antipodality resolution (DQ paper 4.1) and
 * the weighted dual quaternion sum of DLB (thesis 4.3, DQ paper 3.2).
 * Internal to methods/ (skb__ names); the tests use them at the dual
 * quaternion level. */
#ifndef SKB_DQBLEND_H
#define SKB_DQBLEND_H

#include "skb_method.h"

/* DLB reports SKB_ECANCEL when the non-dual part of the sum is shorter than
 * this fraction of sum_i w_i |q_i0| (= 1 for unit inputs): the direction of
 * b0 is then rounding noise and b/|b| would be meaningless or NaN. */
#define SKB_DLB_CANCEL_REL 1e-8

/* a skin-path state header precedes the per-joint dual quaternions */
struct skb__dq_state {
    int antipodal;             /* enum skb_antipodal chosen in prepare */
    int dib_max_iter;          /* dib only */
    skb_real dib_precision;    /* dib only */
    int dib_shortcut;          /* dib only: skb_params.dib_shortcut bits */
    int has_scale;             /* dlb_scale: pose->scale was given */
};
/* most transforms dib blends (it keeps them all through its iterations) */
#define SKB__DIB_MAX_N 32
/* bytes reserved for the header so the arrays that follow stay 64-aligned */
#define SKB__DQ_STATE_HDR 64

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif

/* DQ paper Algorithm 2 in place: flip every q[i] whose non-dual part has a
 * negative dot product with that of the pivot q[pivot] */
void skb__dq_antipodal_pivot(int n, int pivot, struct skb_dq *q);
/* the chain fallback of the hierarchy rule for inputs without a tree:
 * q[i] is flipped to agree with the (already resolved) q[i-1] */
void skb__dq_antipodal_chain(int n, struct skb_dq *q);
/* out = sum_i w_i q_i (not normalised) after resolving signs by `antipodal`
 * (PIVOT: Algorithm 2 against the first input with positive weight;
 * HIERARCHY: chain; NONE: as given).  q is modified in place by the
 * resolution.  w must be convex.  Returns SKB_ECANCEL when |out0|^2 falls
 * below SKB_DLB_CANCEL_REL^2 sum_i w_i |q_i0|^2 -- at least
 * (SKB_DLB_CANCEL_REL sum_i w_i |q_i0|)^2 (Jensen) and equal to it for unit
 * inputs, with no square root per input -- else 0. */
int skb__dlb_sum(int n, const skb_real *w, struct skb_dq *q, int antipodal, struct skb_dq *out);
/* 1 when the non-dual part of the sum b is below SKB_DLB_CANCEL_REL * ref */
int skb__dlb_cancelled(const struct skb_dq *b, skb_real ref);
/* the same against the square of the reference: |b0|^2 < REL^2 ref2 */
int skb__dlb_cancelled2(const struct skb_dq *b, skb_real ref2);

/* dib's skin path for one vertex of a prepared state: its blend b, its
 * iteration count (it; NULL: the skin's own path, the closed form of the
 * shortcut variant included) and the logs (work[0]) and exps (work[1]) it
 * evaluated, added (work may be NULL) -- the tests read each variant's work */
int skb__dib_vertex_work(const struct skb_mesh *m, const void *state, int v, struct skb_dq *b, int *it, int work[2]);

/* skin-path helpers; the state is SKB__DQ_STATE_HDR bytes of header, then
 * njoints dual quaternions, njoints norms |q_j0|, then njoints ints of scratch */
size_t skb__dq_state_size(const struct skb_mesh *m);
struct skb_dq *skb__dq_state_joints(void *state);
const struct skb_dq *skb__dq_state_joints_c(const void *state);
const skb_real *skb__dq_state_norms_c(const struct skb_mesh *m, const void *state);
/* converts the pose matrices mats (16*njoints) to dual quaternions and, for
 * SKB_ANTIPODAL_HIERARCHY, fixes their signs along mesh->parent (joint order
 * as a chain when parent is NULL) */
int skb__dq_prepare(const struct skb_mesh *m, const skb_real *mats, int antipodal, void *state);
/* gathers the influences of vertex v (weight > 0), resolves their signs for
 * PIVOT and returns their count; q and w get at most SKB_MAX_INFLUENCES */
/* DQ paper Alg. 1 on a (possibly unnormalised) blend b: x -> x_out, and n
 * -> n_out when both are not NULL */
void skb__dq_apply(const struct skb_dq *b, const skb_real *x, const skb_real *n,
                   skb_real *x_out, skb_real *n_out);
/* the same on b = r + eps e with n2 = <r,r> given: one division, no root */
void skb__dq_apply_n2(const struct skb_quat *r, const struct skb_quat *e, skb_real n2, const skb_real *x,
                      const skb_real *n, skb_real *x_out, skb_real *n_out);
int skb__dq_gather(const struct skb_mesh *m, const void *state, int v, struct skb_dq *q, skb_real *w);

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
