/* skb_sb_internal.h — the internals of methods/sb.c that only methods/
 * reads: the layout of sb's prepared state, the bounded centre solve and
 * the spherical average.  What other folders use (joint sets, centres,
 * counts) is methods/skb_sb.h.  `skb__` names are internal. */
#ifndef SKB_SB_INTERNAL_H
#define SKB_SB_INTERNAL_H

#include "skb_method.h"
#include "skb_sb.h"   /* the public part: joint sets, centres, counts */

/* sb's prepared state, the one statement of its layout: sb.c writes it,
 * refit_sbs.c (thesis Alg. 6.1) reads it through the same view */
/* one joint set of two or more joints: its joints in increasing order, its
 * centre this pose, the centroid o and extent of its rest vertices (and
 * joints), and the child joint whose rest position is the centre of a
 * parent-child set (-1: not trivial) */
struct skb__sb_set {
    skb_real center[3];
    skb_real origin[3];
    skb_real extent;
    int joint[SKB_MAX_INFLUENCES];
    int n;
    int child;
    int cut;                   /* the bound cut the last solve */
    int stale;                 /* lazy prepare: the centre is not yet this pose's */
};

/* state: quaternion + 3x4 per joint, a set per vertex at most, the set index
 * of each vertex (-1: fewer than two joints), then the counters */
struct skb__sb_head {
    int nsets;
    int solves;                /* SVDs in the last prepare */
    int pivot;
    int nsingle;               /* distinct one-joint sets (trivial, no entry) */
    int trivial;               /* parent-child sets at the joint, last prepare */
    int regularised;           /* SVDs the bound cut short, last prepare */
    int fallback;              /* parent-child sets solved by SVD, last prepare */
    const skb_real *mats;      /* lazy prepare: the pose its stale centres are solved for */
    int sphavg;                /* skb_params.sb_spherical_average of the last prepare */
};

struct skb__sb_view {
    struct skb_quat *q;
    skb_real *rows;
    struct skb__sb_set *sets;
    int *vset;
    struct skb__sb_head *head;
};

static inline struct skb__sb_view skb__sb_layout(const struct skb_mesh *m, const void *state)
{
    struct skb__sb_view s;
    s.q = (struct skb_quat *)state;
    s.rows = (skb_real *)(s.q + m->njoints);
    s.sets = (struct skb__sb_set *)(s.rows + 12 * m->njoints);
    s.head = (struct skb__sb_head *)(s.sets + m->nverts);
    s.vset = (int *)(s.head + 1);
    return s;
}

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif
/* the rotation centre of n transforms (thesis eq. 3.1) as the least-squares
 * solution of minimal distance from o, whose distance from o is at most
 * bound: singular directions are kept in decreasing order of singular value
 * while they fit (the cut-off is the smallest singular value that keeps the
 * centre inside the bound; see rotcenter.c).  Returns how many non-zero
 * directions the bound dropped (0: the plain pseudo-inverse solution), -1
 * on bad input or a failed SVD.  skb_rotcenter is o = 0, bound = infinity. */
int skb__rotcenter_bounded(int n, const skb_real *const *mats, const skb_real o[3],
                           skb_real bound, skb_real r[3]);
/* Buss and Fillmore's spherical weighted average of the n quaternions
 * q[idx[i]] (idx NULL: q[i]) with weights w (zero weights skipped; signs
 * against the first input when pivot, DQ paper Alg. 2), iterated from the
 * normalised linear blend until the weighted tangent vector is shorter than
 * precision (radians) or max_iter steps; returns the steps taken, -1 when
 * the linear blend vanishes or n > SKB__SPHAVG_MAX_N (methods/sphavg.c) */
#define SKB__SPHAVG_MAX_N 8
int skb__quat_spherical_average(int n, const skb_real *w, const int *idx, const struct skb_quat *q, int pivot,
                                skb_real precision, int max_iter, struct skb_quat *out);
/* SBS's rotation blended by the spherical average instead of QLB (seed 003
 * section 5's experiment): its stopping precision and step cap */
#define SKB__SB_SPHAVG_PRECISION 1e-9
#define SKB__SB_SPHAVG_MAX_ITER 50
#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
