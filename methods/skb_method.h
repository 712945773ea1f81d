/* skb_method.h — the one interface every blending method implements.
 *
 * A method is one file methods/<name>.c that keeps everything static and
 * exports one `const struct skb_method skb_method_<name>`, listed once in
 * methods/registry.c.  The harness, tests, reports and `skinbench list`
 * iterate that registry; nothing else needs editing to add a method.
 * See methods/linear.c for the whole contract on the simplest method.
 *
 * Hooks are called only through the wrappers in registry.c (skb_blend,
 * skb_skin_*), the one place that validates input.  Hooks never print,
 * time themselves or allocate: the harness owns their state memory.
 */
#ifndef SKB_METHOD_H
#define SKB_METHOD_H

#include <stddef.h>
#include "skb_error.h"   /* the error codes (common/: every layer returns them) */
#include "skb_math.h"
#include "skb_mesh.h"    /* struct skb_mesh, SKB_MAX_INFLUENCES (geometry/) */


struct skb_sphere_tree;   /* geometry/skb_geom.h */

/* method properties the harness needs to know */
enum skb_method_flags {
    SKB_MF_NEEDS_CENTER = 1 << 0, /* blend needs an explicit centre (qb)   */
    SKB_MF_ITERATIVE    = 1 << 1, /* blend iterates (dib): stats.iterations */
    SKB_MF_TABLE41      = 1 << 2, /* one of the seven thesis Table 4.1 methods */
    SKB_MF_NONRIGID_IN  = 1 << 3, /* accepts non-rigid (scale/shear) inputs */
    SKB_MF_EXACT_PAIR   = 1 << 4, /* the exact interpolation of two rigid transforms
                                   * (ScLERP: bi-invariant, constant speed, shortest
                                   * path; SLERP on rotations): `run bounds` measures
                                   * every other blend against it */
    /* the special roles the experiments and reports give one method each,
     * found by skb_method_with_flag() rather than by a name in their code */
    SKB_MF_RATIO_REF    = 1 << 5, /* the method timings are divided by (DQ paper
                                   * Fig. 18: x/LBS), the thesis 5.3 refit and the
                                   * one GPU ratios are to (Fig. 19) */
    SKB_MF_HEADLINE     = 1 << 6, /* the method the headline ratio is about (DLB
                                   * over LBS, DQ paper Fig. 18-19) and other
                                   * blends are timed against (DIB/DLB, App. B) */
    SKB_MF_HEAT_REF     = 1 << 7, /* the reference of the error heat maps and of
                                   * the bounds' second exact blend (DIB, thesis
                                   * Alg. 4.1: the bi-invariant mean to precision) */
    SKB_MF_FCL_PEER     = 1 << 8, /* the skin the FCL peer collides (`run cd`: FCL
                                   * refits LBS vertices, thesis 5.4) */
    SKB_MF_ROT_CENTERS  = 1 << 9, /* solves rotation centres per pose (SB, thesis
                                   * Table 3.2: pose_stats counts its SVDs; its
                                   * refit is thesis 6.5's SBS) */
    SKB_MF_QUAT_LINEAR  = 1 << 10,/* linear quaternion blend of rotations only
                                   * (QLB'0, thesis eq. 3.5): the rotation-only
                                   * bounds and the GPU's quaternion layout */
    SKB_MF_LOG_BLEND    = 1 << 11,/* blends in the log (tangent) space (DQ paper
                                   * 2.3): the bounds' Log column */
    SKB_MF_TWO_PHASE    = 1 << 12,/* blends non-rigid inputs in two phases (DQ
                                   * paper 4.2): the bounds' scale column */
    SKB_MF_JOINT_CENTERS = 1 << 13,/* rotation centres at the joints, C_i c per
                                   * joint pair (QB, DQ paper 2.3: Hejl); the
                                   * GPU's QB layout */
    SKB_MF_PAINTED      = 1 << 14 /* its skin reads painted per-vertex weights
                                   * (skb_params.lbs_dqs_painted, skb_mix.h) */
};

/* antipodality resolution (DQ paper 4.1) */
enum skb_antipodal {
    SKB_ANTIPODAL_PIVOT = 0,     /* Algorithm 2 per blend / vertex (default) */
    SKB_ANTIPODAL_HIERARCHY = 1, /* signs precomputed along the joint tree   */
    SKB_ANTIPODAL_NONE = 2       /* inputs used as given                     */
};

/* tunable parameters shared by all methods; skb_params_default() fills them */
struct skb_params {
    skb_real dib_precision;  /* DIB stops when |x| < p (thesis Alg. 4.1) */
    int dib_max_iter;        /* DIB iteration cap */
    int antipodal;           /* enum skb_antipodal */
    int dib_shortcut;        /* enum skb_dib_shortcut bits; 0: thesis
                              * Alg. 4.1 as written (the judged variant) */
    int sb_spherical_average; /* sb skin: rotations by Buss and Fillmore's
                              * spherical average instead of QLB (seed 003
                              * section 5's experiment); 0: QLB, the paper's */
    skb_real lbs_dqs_weight; /* blend_lbs_dqs: DLB's share, 0 = LBS, 1 = DLB */
    const skb_real *lbs_dqs_painted; /* blend_lbs_dqs skin: DLB's share per vertex (mesh order, in [0, 1]; skb_mix.h), or NULL: lbs_dqs_weight everywhere */
    int ddm_p;               /* ddm: smoothing iterations p (SPEC section 8) */
    skb_real ddm_lambda;     /* ddm: rotation smoothing step lambda */
    skb_real ddm_kappa;      /* ddm: translation smoothing step kappa < lambda */
    skb_real ddm_alpha;      /* ddm: translation smoothness blend alpha in [0, 1) */
};

/* DIB's shortcuts, each the same blend to rounding (dib.c): an input of
 * one transform returned as DLB gives it, with no pass; two inputs on one
 * hemisphere stopped after their one exact iteration (thesis Lemma 4.7),
 * without the confirming pass, the skin taking them in closed form */
enum skb_dib_shortcut { SKB_DIB_ONE_INPUT = 1, SKB_DIB_LEMMA47 = 2 };

/* one blend: n rigid transforms with convex weights (+ centre where needed) */
struct skb_blend_in {
    int n;
    const skb_real *weights;   /* n weights, convex */
    const skb_real *mats;      /* n row-major 4x4 matrices, 16*n numbers */
    const skb_real *center;    /* 3 numbers or NULL */
};

struct skb_blend_stats {
    int iterations;            /* iterative methods; 0 otherwise */
    int logs, exps;            /* dib: dual quaternion logs and exps evaluated */
};

struct skb_pose_stats {
    int solves;                /* least-squares solves (SVDs) done in prepare */
    int max_iterations;        /* iterative methods: worst vertex in the last skin */
    skb_real max_center_norm;  /* methods with rotation centres (SB): the largest
                                * |r_c| of the pose, rest-pose units; else 0 */
};

/* one pose: a transform per joint, rest pose -> posed */
struct skb_pose {
    int njoints;
    const skb_real *mats;      /* 16*njoints rigid matrices C_j */
    const skb_real *scale;     /* 16*njoints non-rigid parts S_j applied first
                                  (two-phase skinning, DQ paper 4.2); may be NULL */
};

/* write `SKB_METHOD_EXPORT const struct skb_method skb_method_<name> = {...}`:
 * C++ (the FLOP-counting build) gives namespace-scope consts internal linkage
 * unless they are declared extern */
#ifdef __cplusplus
#define SKB_METHOD_EXPORT extern
#else
#define SKB_METHOD_EXPORT
#endif

/* optional single-precision fast path of a method (methods/fast_f32.c): the
 * method keeps its own float layout of the mesh in its state (bind converts
 * the mesh once), prepare converts one pose, skin writes float xyz per
 * vertex.  skin(v0, v1) writes exactly floats 3*v0 .. 3*v1-1 of pos_out and
 * nrm_out (disjoint ranges may run in parallel threads); nrm_out is used only
 * when the mesh has normals.  Vertex indices are the layout's: a layout
 * that reorders vertices by influence count (SKB_F32_LAYOUT_SPLIT) writes
 * them in its own order, which skb_skin_f32_order gives.
 * Called only through skb_skin_f32_* (methods/skb_fast.h), and checked
 * against the double skin of the same method before any time is reported. */
struct skb_method_f32 {
    /* layout: enum skb_f32_layout (methods/skb_fast.h) */
    size_t (*state_size)(const struct skb_mesh *m, int layout);
    int (*bind)(const struct skb_mesh *m, int layout, void *state);
    int (*prepare)(const struct skb_mesh *m, const struct skb_pose *p,
                   const struct skb_params *prm, void *state);
    int (*skin)(const void *state, int v0, int v1, float *pos_out, float *nrm_out);
};

/* where a method's FLOP fit a*n + b goes (`run flops`, flops.json "why"):
 * the primitives (counted alone by skinbench-flops, flops.json
 * "primitives") the method runs per transform and once per blend, and what
 * the rest is, read off the method's own code.  The harness subtracts the
 * measured primitive counts from the measured fit: every number shown is
 * measured, this struct only names the parts. */
struct skb_flop_parts {
    const char *per_transform[4];  /* NULL-terminated primitive names */
    const char *per_blend[12];     /* NULL-terminated primitive names */
    const char *rest;              /* what the remainder is; NULL: no breakdown */
    const char *note;              /* what the count leaves out (SB: its SVD), or NULL */
};

struct skb_method {
    const char *name;          /* registry key, e.g. "dlb" */
    const char *title;         /* display name, e.g. "DLB" */
    const char *description;   /* one line for `skinbench list` */
    const char *seed_ref;      /* where the formulas come from */
    unsigned flags;            /* enum skb_method_flags */
    int max_n;                 /* most transforms per blend; 0 = unlimited */

    /* blend n transforms into one 4x4 (input 4x4 -> internal -> 4x4, thesis 4.4).
     * May be NULL for a skin-only method. */
    int (*blend)(const struct skb_blend_in *in, const struct skb_params *prm,
                 skb_real out[16], struct skb_blend_stats *st);

    /* skin path.  The harness allocates state_size(mesh) bytes (aligned to 64),
     * calls bind once per mesh, prepare once per pose, then skin on vertex
     * ranges [v0, v1).  state_size/bind may be NULL (no state / nothing to bind). */
    size_t (*state_size)(const struct skb_mesh *m);
    int (*bind)(const struct skb_mesh *m, void *state);
    int (*prepare)(const struct skb_mesh *m, const struct skb_pose *p,
                   const struct skb_params *prm, void *state);
    int (*skin)(const struct skb_mesh *m, const void *state, int v0, int v1,
                skb_real *pos_out, skb_real *nrm_out);

    /* per-pose work the method did in its last prepare (e.g. SB's SVD count,
     * thesis Table 3.2); may be NULL */
    int (*pose_stats)(const struct skb_mesh *m, const void *state, struct skb_pose_stats *out);
    /* optional hooks added by later subsystems go below this line */

    /* single-precision fast path, or NULL (the harness then times the
     * double path); see struct skb_method_f32 */
    const struct skb_method_f32 *f32;

    /* on-demand bounding-sphere refit (thesis 5.2-5.3 Alg. 5.2, 6.5 Alg. 6.1):
     * a sphere that contains every vertex of sphere-tree node `node` as this
     * method skins it in the pose of the last prepare, computed from the
     * prepared state and the node's reference sphere, joint sets and corners
     * (never from the vertices).  scratch holds skb_sphere_tree_scratch_len(t)
     * reals.  out: centre x, y, z, radius.  May be NULL (no refit). */
    int (*refit)(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                 const void *state, skb_real *scratch, skb_real out[4]);

    /* the rotation centre the skin path used for vertex v in the last
     * prepare, for methods whose blend takes one in skb_blend_in.center (SB:
     * thesis eq. 3.7 about r_c, where the skin path may choose the joint or a
     * bounded centre the blend form alone cannot know).  Returns 1 and fills
     * out, or 0 when the blend form picks the same centre by itself.  The
     * harness checks the skin path against the blend form about this centre.
     * May be NULL. */
    int (*skin_center)(const struct skb_mesh *m, const void *state, int v, skb_real out[3]);

    /* where the FLOP fit goes (see struct skb_flop_parts), or NULL */
    const struct skb_flop_parts *flop_parts;
};

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif

/* refit hooks, implemented in methods/refit_*.c on the tree of geometry/ and
 * referenced from the method structs (thesis 5.3, 6.5; dlb: beyond the
 * thesis, its open problem 8.3.1) */
int skb__refit_lbs(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                   const void *state, skb_real *scratch, skb_real out[4]);
int skb__refit_sbs(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                   const void *state, skb_real *scratch, skb_real out[4]);
int skb__refit_dlb(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                   const void *state, skb_real *scratch, skb_real out[4]);

/* the registry: NULL-terminated, in display order */
extern const struct skb_method *const skb_methods[];
const struct skb_method *skb_method_find(const char *name);
int skb_method_count(void);
/* the first registered method flagged SKB_MF_EXACT_PAIR with a blend, or NULL */
const struct skb_method *skb_method_exact_pair(void);
/* the first registered method with every bit of flags set, or NULL: the
 * one way the harness and reports find a method by its role */
const struct skb_method *skb_method_with_flag(unsigned flags);
/* its name, or "" when no method has the role (a lookup then finds nothing) */
const char *skb_method_role_name(unsigned flags);
/* the registry name for a method name as older results files wrote it
 * (schema_version 1: "lbs", "sbs", ... see docs/outputs.md "Method names"), the
 * name itself when it is no alias */
const char *skb_method_canonical(const char *name);
/* the method a user named by the first len bytes of name: its registry name
 * or the papers' word for it (lbs, sbs, dqs, log, qlb, two-phase), any
 * case; NULL when none */
const struct skb_method *skb_method_lookup(const char *name, size_t len);
/* the registry name at most two edits from what the user typed, or NULL:
 * the "did you mean" of an unknown method */
const char *skb_method_suggest(const char *name, size_t len);
const char *skb_strerror(int code);
void skb_params_default(struct skb_params *prm);

/* tolerance used by the wrappers to accept weights and rigid matrices */
#define SKB_TOL_WEIGHT_SUM 1e-6
#define SKB_TOL_RIGID      1e-6

/* validating wrapper around m->blend.  On error, msg (if not NULL) gets one
 * line naming the offending field and value. */
int skb_blend(const struct skb_method *m, const struct skb_blend_in *in,
              const struct skb_params *prm, skb_real out[16],
              struct skb_blend_stats *st, char *msg, size_t msglen);
/* check a blend input without running it (same rules as skb_blend) */
int skb_blend_check(const struct skb_method *m, const struct skb_blend_in *in,
                    char *msg, size_t msglen);

/* skin a whole mesh for one pose with the double-precision path; state is
 * allocated and bound by skb_skin_init and freed by skb_skin_fini */
struct skb_skinner {
    const struct skb_method *m;
    const struct skb_mesh *mesh;
    void *state;
};
int skb_skin_init(struct skb_skinner *s, const struct skb_method *m,
                  const struct skb_mesh *mesh, char *msg, size_t msglen);
int skb_skin_pose(struct skb_skinner *s, const struct skb_pose *p,
                  const struct skb_params *prm, skb_real *pos_out, skb_real *nrm_out,
                  char *msg, size_t msglen);
void skb_skin_fini(struct skb_skinner *s);
/* checks weights, indices and finiteness of a mesh */
int skb_mesh_check(const struct skb_mesh *mesh, char *msg, size_t msglen);

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

#endif
