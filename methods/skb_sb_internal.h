/* skb_sb_internal.h — the internals of methods/sb.c that the GPU path
 * (gpu/gpu_skin.c) reaches: sb's joint sets (found at bind) and their
 * rotation centres (solved by sb's own prepare, thesis Alg. 3.1 lines 2-6),
 * read from a state made by skb_skin_init with the registry method "sb".
 * Not part of the public interface; `skb__` names are internal. */
#ifndef SKB_SB_INTERNAL_H
#define SKB_SB_INTERNAL_H

#include "skb_method.h"

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
/* sb bounds a non-trivial set's centre to this many extents of the set (the
 * farthest of its rest vertices, rest joints and the rest origin from their
 * centroid) from the centroid.  A rotation centre of a body part (a joint)
 * lies in the part or on its boundary, one extent away at most; twice that
 * leaves room for the least-squares point of non-neighbouring joints, which
 * lies near the chain between them.  Almost equal rotations otherwise throw
 * the pseudo-inverse centre ~|e|/s_min away, where it bounds nothing
 * (thesis ch. 6 spheres grow with |p - r_c|). */
#define SKB__SB_CENTER_BOUND 2.0

/* a parent-child set is trivial (seed 003 section 4: the child's joint is
 * its centre, no SVD) when the pose keeps that joint fixed, |C_a r - C_b r|
 * <= this times the set's size (|r| + its extent): the precision of the
 * data, not of the arithmetic -- the .X models store bone offsets and
 * animation keys to 6 decimals, so a joint of a real model moves by ~1e-6
 * of its size between parent and child (measured: at 1e-9, 46 of
 * bcn_human's 86 SVDs per pose and 28 of wuson's 122 were such pairs; at
 * 1e-5, none).  A pose breaking the joint by more (not built along the
 * hierarchy) is solved by SVD and counted apart. */
#define SKB__SB_TRIVIAL_TOL 1e-5

/* what sb's last prepare did (seed 003 section 4, thesis Table 3.2) */
struct skb__sb_counts {
    int sets;            /* distinct joint sets of the mesh, one joint included */
    int trivial;         /* of them: one joint, or a parent and its child (no SVD) */
    int solved;          /* SVDs run: non-trivial sets (= pose_stats solves) */
    int regularised;     /* of the SVDs: the centre bound cut a direction */
    int fallback;        /* parent-child sets whose pose broke C_a r = C_b r */
    skb_real max_offset; /* largest |r_c - o| over the sets, o = the set's rest
                          * centroid, rest-pose units */
};
void skb__sb_counts(const struct skb_mesh *m, const void *state, struct skb__sb_counts *out);
/* number of distinct joint sets of two or more joints the mesh has */
int skb__sb_nsets(const struct skb_mesh *m, const void *state);
/* the joint set of vertex v, or -1 when it has fewer than two joints
 * (then its centre is the origin, as in sb's skin path) */
int skb__sb_vertex_set(const struct skb_mesh *m, const void *state, int v);
/* the joints of set f, increasing, into out; returns their number (2..4) */
int skb__sb_set_joints(const struct skb_mesh *m, const void *state, int f, int out[SKB_MAX_INFLUENCES]);
/* sb's prepare: per-joint quaternions and one SVD centre per joint set */
int skb__sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                    const struct skb_params *prm, void *state);
/* on-demand collision detection (SBS collision paper 002, thesis 6.5): a
 * prepare that converts the joints only and leaves every set's centre stale
 * (the pose's matrices are kept by pointer until the next prepare), and the
 * centre of set f solved when it is first needed -- before a sphere of the
 * set is refitted or a vertex of it skinned -- and counted in
 * skb__sb_counts as prepare counts it.  f < 0 (one joint) is a no-op. */
int skb__sb_prepare_lazy(const struct skb_mesh *m, const struct skb_pose *p,
                         const struct skb_params *prm, void *state);
int skb__sb_center_ensure(const struct skb_mesh *m, void *state, int f);
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
/* 1 when the centre bound cut set f's last solve (its r_c is then not the
 * plain eq. 3.1 pseudo-inverse solution), else 0 */
int skb__sb_set_cut(const struct skb_mesh *m, const void *state, int f);
/* the centre r_c of joint set f in the pose of the last prepare (3 reals) */
const skb_real *skb__sb_set_center(const struct skb_mesh *m, const void *state, int f);
#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
