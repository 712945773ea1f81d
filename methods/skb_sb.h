/* skb_sb.h — what the rest of skinbench may ask of sb's state (a state
 * made by skb_skin_init with the registry method "sb", methods/sb.c): its
 * joint sets (found at bind), their rotation centres (solved by sb's own
 * prepare, thesis Alg. 3.1 lines 2-6, or on demand for collision detection,
 * 002 Alg. 1), and what the last prepare did (thesis Table 3.2).  The state's
 * layout stays in methods/skb_sb_internal.h. */
#ifndef SKB_SB_H
#define SKB_SB_H

#include "skb_method.h"

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif
/* sb bounds a non-trivial set's centre to this many extents of the set (the
 * farthest of its rest vertices, rest joints and the rest origin from their
 * centroid) from the centroid.  A rotation centre of a body part (a joint)
 * lies in the part or on its boundary, one extent away at most; twice that
 * leaves room for the least-squares point of non-neighbouring joints, which
 * lies near the chain between them.  Almost equal rotations otherwise throw
 * the pseudo-inverse centre ~|e|/s_min away, where it bounds nothing
 * (thesis ch. 6 spheres grow with |p - r_c|). */
#define SKB_SB_CENTER_BOUND 2.0

/* a parent-child set is trivial (seed 003 section 4: the child's joint is
 * its centre, no SVD) when the pose keeps that joint fixed, |C_a r - C_b r|
 * <= this times the set's size (|r| + its extent): the precision of the
 * data, not of the arithmetic -- the .X models store bone offsets and
 * animation keys to 6 decimals, so a joint of a real model moves by ~1e-6
 * of its size between parent and child (measured: at 1e-9, 46 of
 * bcn_human's 86 SVDs per pose and 28 of wuson's 122 were such pairs; at
 * 1e-5, none).  A pose breaking the joint by more (not built along the
 * hierarchy) is solved by SVD and counted apart. */
#define SKB_SB_TRIVIAL_TOL 1e-5

/* what sb's last prepare did (seed 003 section 4, thesis Table 3.2) */
struct skb_sb_counts {
    int sets;            /* distinct joint sets of the mesh, one joint included */
    int trivial;         /* of them: one joint, or a parent and its child (no SVD) */
    int solved;          /* SVDs run: non-trivial sets (= pose_stats solves) */
    int regularised;     /* of the SVDs: the centre bound cut a direction */
    int fallback;        /* parent-child sets whose pose broke C_a r = C_b r */
    skb_real max_offset; /* largest |r_c - o| over the sets, o = the set's rest
                          * centroid, rest-pose units */
};
void skb_sb_counts(const struct skb_mesh *m, const void *state, struct skb_sb_counts *out);
/* number of distinct joint sets of two or more joints the mesh has */
int skb_sb_nsets(const struct skb_mesh *m, const void *state);
/* the joint set of vertex v, or -1 when it has fewer than two joints
 * (then its centre is the origin, as in sb's skin path) */
int skb_sb_vertex_set(const struct skb_mesh *m, const void *state, int v);
/* the joints of set f, increasing, into out; returns their number (2..4) */
int skb_sb_set_joints(const struct skb_mesh *m, const void *state, int f, int out[SKB_MAX_INFLUENCES]);
/* sb's prepare: per-joint quaternions and one SVD centre per joint set */
int skb_sb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                    const struct skb_params *prm, void *state);
/* on-demand collision detection (SBS collision paper 002, thesis 6.5): a
 * prepare that converts the joints only and leaves every set's centre stale
 * (the pose's matrices are kept by pointer until the next prepare), and the
 * centre of set f solved when it is first needed -- before a sphere of the
 * set is refitted or a vertex of it skinned -- and counted in
 * skb_sb_counts as prepare counts it.  f < 0 (one joint) is a no-op. */
int skb_sb_prepare_lazy(const struct skb_mesh *m, const struct skb_pose *p,
                         const struct skb_params *prm, void *state);
int skb_sb_center_ensure(const struct skb_mesh *m, void *state, int f);
/* 1 when the centre bound cut set f's last solve (its r_c is then not the
 * plain eq. 3.1 pseudo-inverse solution), else 0 */
int skb_sb_set_cut(const struct skb_mesh *m, const void *state, int f);
/* the centre r_c of joint set f in the pose of the last prepare (3 reals) */
const skb_real *skb_sb_set_center(const struct skb_mesh *m, const void *state, int f);
/* 1 when m is sb (its state answers the calls above) */
int skb_sb_is(const struct skb_method *m);
#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
