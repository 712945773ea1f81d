/* skb_fast.h — single-precision fast paths (methods/fast_f32.c) and the
 * wrappers that are the only way the harness calls them.  A method opts in
 * with `.f32 = SKB_FAST_F32(skb__<name>_f32)` in its struct skb_method. */
#ifndef SKB_FAST_H
#define SKB_FAST_H

#include "skb_method.h"
#include "skb_pages.h"

#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_BEGIN
#endif
/* qb's default rotation centres (its bind rule, methods/qb.c): 3*nverts;
 * SKB_ENOCENTER without joint rest positions */
int skb__qb_default_centers(const struct skb_mesh *m, skb_real *center);
/* the joint whose rest position is vertex v's default centre */
int skb__qb_center_joint(const struct skb_mesh *m, int v);
/* a bound and prepared qb state: how many (joint, centre joint) pairs carry
 * a per-pose C_i c, and how many vertices read them (the rest use the
 * per-vertex form: their centre is not a joint's rest position) */
int skb__qb_pairs(const struct skb_mesh *m, const void *state, int *pair_vertices);
/* after qb's prepare: the pairs' C_i c (3 per pair) and the pair of vertex
 * v's slot k (-1: the vertex uses the per-vertex form) */
const skb_real *skb__qb_pair_points(const struct skb_mesh *m, const void *state);
int skb__qb_slot_pair(const struct skb_mesh *m, const void *state, int v, int k);
/* cor's centres of rotation, 3*nverts (Le & Hodgins eq. 2, methods/cor.c):
 * SKB_ENOTSUP above its precompute limit, SKB_ENOMEM */
int skb__cor_bind_centres(const struct skb_mesh *m, skb_real *centre);
#ifndef SKB_FLOP_COUNT
SKB_EXTERN_C_END
#endif

/* the FLOP-counting build (methods/ as C++ with a counting skb_real) does
 * not count float kernels: they are compiled out there */
#ifdef SKB_FLOP_COUNT
#define SKB_FAST_F32(x) NULL
#else
#define SKB_FAST_F32(x) (&(x))

SKB_EXTERN_C_BEGIN

extern const struct skb_method_f32 skb__linear_f32;
extern const struct skb_method_f32 skb__qlb0_f32;
extern const struct skb_method_f32 skb__qb_f32;
extern const struct skb_method_f32 skb__dlb_f32;
extern const struct skb_method_f32 skb__cor_f32;

/* acceptance of a fast path against the double skin of the same method:
 * positions to this fraction of the output's extent (max |coordinate| + 1),
 * normals (unit vectors) to this absolute error.  Float rounding (2^-24)
 * through ~30 dependent operations on unit-scale data stays below 1e-6. */
#define SKB_TOL_F32_POS 5e-6
#define SKB_TOL_F32_NRM 5e-6

/* compare a fast-path output with the double one; returns the worst position
 * error over the tolerance scale and the worst normal error (both <= 1 when
 * the output passes), and the vertex where the position error peaks */
void skb_f32_compare(int nverts, const skb_real *pos_ref, const skb_real *nrm_ref,
                     const float *pos, const float *nrm, double *pos_ratio, double *nrm_ratio,
                     int *worst_vertex);

/* how bind lays the mesh out.  SPLIT, the default: vertices
 * reordered by influence count (1, 2, 3, 4; mesh order kept within a
 * count), each count with its own streams of k joint indices and k - 1
 * weights (the last is 1 - the others, as engines store it; four for k =
 * 4) and its own kernel, so no zero-weight slot is blended or read; an engine remaps its
 * index buffer once at load.  SLOT4: mesh order, every vertex four slots,
 * zero weights included (the earlier kernels), kept as the
 * labelled baseline. */
enum skb_f32_layout { SKB_F32_LAYOUT_SPLIT, SKB_F32_LAYOUT_SLOT4 };

/* where in a 4 KiB page the state keeps its input positions and normals,
 * and where callers should start the output arrays they pass to the
 * kernels: every one of these streams advances 12 bytes a vertex, so 2 KiB
 * between an input and its output in the low 12 address bits holds at
 * every vertex and no load waits on an unrelated store to the same page
 * offset (4K aliasing; `run cpu --offset-sweep` measures the alternative) */
#define SKB_F32_IN_POS_PAGE_OFFSET 0
#define SKB_F32_IN_NRM_PAGE_OFFSET 1024
#define SKB_F32_OUT_POS_PAGE_OFFSET 2048
#define SKB_F32_OUT_NRM_PAGE_OFFSET 3072

/* a float fast path bound to one mesh */
struct skb_skinner_f32 {
    const struct skb_method *m;
    const struct skb_mesh *mesh;
    void *state;
    float *scratch;     /* skb_skin_f32_pose's output in layout order (SPLIT) */
};
/* SKB_ENOTSUP when m has no fast path or the mesh does not fit it;
 * skb_skin_f32_init binds SKB_F32_LAYOUT_SPLIT */
int skb_skin_f32_init(struct skb_skinner_f32 *s, const struct skb_method *m,
                      const struct skb_mesh *mesh, char *msg, size_t msglen);
int skb_skin_f32_init_layout(struct skb_skinner_f32 *s, const struct skb_method *m,
                             const struct skb_mesh *mesh, enum skb_f32_layout layout, char *msg,
                             size_t msglen);
/* pos_out/nrm_out: 3*nverts floats each, in the mesh's vertex order
 * whatever the layout (validated, not timed) */
int skb_skin_f32_pose(struct skb_skinner_f32 *s, const struct skb_pose *p,
                      const struct skb_params *prm, float *pos_out, float *nrm_out,
                      char *msg, size_t msglen);
/* the two halves of skb_skin_f32_pose, unchecked, for timing loops that
 * have validated their inputs with skb_skin_f32_pose once.  run writes
 * only vertices [v0, v1) of the layout's order (skb_skin_f32_order) and
 * only reads the state: after one prepare, disjoint ranges may run
 * concurrently, in any order, bit-identically. */
int skb__skin_f32_prepare(struct skb_skinner_f32 *s, const struct skb_pose *p, const struct skb_params *prm);
int skb__skin_f32_run(struct skb_skinner_f32 *s, int v0, int v1, float *pos_out, float *nrm_out);
/* run over all vertices on every thread of a persistent pool
 * (common/skb_pool.h): each thread its share of every influence-count
 * group (whole blocks of 8), bit-identical to one call; the first error
 * any share met */
struct skb_pool;
int skb__skin_f32_run_pool(struct skb_skinner_f32 *s, struct skb_pool *pool, float *pos_out, float *nrm_out);
/* the vertices of 1..4 influences in share `part` of nparts of
 * skb__skin_f32_run_pool; SKB_EINVAL for a part outside [0, nparts) */
int skb__skin_f32_share(const struct skb_skinner_f32 *s, int part, int nparts, int counts[4]);
void skb_skin_f32_fini(struct skb_skinner_f32 *s);
/* the state (the streams the kernels read) moved to a new buffer under
 * another transparent-huge-page advice, every page written (the offset
 * sweep's page-state experiment; bind gives SKB_PAGES_SMALL) */
int skb_skin_f32_repage(struct skb_skinner_f32 *s, enum skb_pages_thp thp);

enum skb_f32_layout skb_skin_f32_layout(const struct skb_skinner_f32 *s);
/* "split", "slot4" */
const char *skb_f32_layout_name(enum skb_f32_layout layout);
/* vertex i of the layout's order is mesh vertex order[i]; NULL when the
 * layout keeps the mesh's order */
const int *skb_skin_f32_order(const struct skb_skinner_f32 *s);
/* vertices blended with 1, 2, 3, 4 influences (SLOT4: all with 4) */
void skb_skin_f32_histogram(const struct skb_skinner_f32 *s, int counts[4]);

/* what a fast kernel does with normals, so timings compare the
 * work engines do: renormalise (the default; as the double path), leave
 * the blended normal to the shader to normalise, or compute none.  Only
 * LBS differs between the first two: the quaternion methods rotate unit
 * normals, which stay unit at no cost. */
enum skb_f32_normals { SKB_F32_NRM_RENORM, SKB_F32_NRM_SHADER, SKB_F32_NRM_NONE };
/* SKB_EINVAL for a mode outside the enum; applies to later runs */
int skb_skin_f32_set_normals(struct skb_skinner_f32 *s, enum skb_f32_normals mode);
enum skb_f32_normals skb_skin_f32_normals(const struct skb_skinner_f32 *s);
/* "renormalise", "shader", "none" */
const char *skb_f32_normals_name(enum skb_f32_normals mode);
/* the instruction set the LBS kernels run with (the planner's choice,
 * harness/fast_plan.c): AUTO, the default, is the clone target_clones
 * picked at load time (the best the CPU has); V4 (AVX-512), V3 (AVX2 +
 * FMA) and BASE (x86-64 SSE2) are explicit entry points, on x86-64 GCC
 * builds only.  Other methods' kernels always run AUTO. */
enum skb_f32_isa { SKB_F32_ISA_AUTO, SKB_F32_ISA_V4, SKB_F32_ISA_V3, SKB_F32_ISA_BASE };
#define SKB_F32_NISA 4
/* 1 when this build has the entry point and this CPU runs it */
int skb_f32_isa_available(enum skb_f32_isa isa);
/* "auto", "x86-64-v4", "x86-64-v3", "x86-64" */
const char *skb_f32_isa_name(enum skb_f32_isa isa);
/* SKB_ENOTSUP when not available; applies to later runs */
int skb_skin_f32_set_isa(struct skb_skinner_f32 *s, enum skb_f32_isa isa);
enum skb_f32_isa skb_skin_f32_isa(const struct skb_skinner_f32 *s);

/* how LBS renormalises its blended normals (SKB_F32_NRM_RENORM): 8
 * vertices at a time (one transpose, one estimate for 8; SPLIT's default)
 * or vertex by vertex (SLOT4's only form), each by the hardware reciprocal
 * square-root estimate with one Newton step (relative error ~1e-7) or by a
 * rounded square root and divide.  SLOT4 takes the vertex-by-vertex form of
 * a batched choice. */
enum skb_f32_renorm { SKB_F32_RENORM_BATCH8, SKB_F32_RENORM_VERTEX, SKB_F32_RENORM_BATCH8_EXACT,
                      SKB_F32_RENORM_VERTEX_EXACT, SKB_F32_RENORM_SOA8 };
#define SKB_F32_NRENORM 5
/* "batch8", "vertex", "batch8-exact", "vertex-exact", "soa8" (SPLIT only: 8
 * vertices of a group blended side by side, their matrices transposed
 * once, positions, normals and the estimate + Newton step 8 wide) */
const char *skb_f32_renorm_name(enum skb_f32_renorm r);
int skb_skin_f32_set_renorm(struct skb_skinner_f32 *s, enum skb_f32_renorm r);
enum skb_f32_renorm skb_skin_f32_renorm(const struct skb_skinner_f32 *s);
/* the byte offsets, from the state's start, of the streams the kernels
 * read: positions and normals in layout order (an output whose page offset
 * sits just past an input's makes loads wait on stores: 4K aliasing) */
void skb_skin_f32_streams(const struct skb_skinner_f32 *s, const float **pos, const float **nrm);

/* bytes of vertex streams read and written per vertex under the normal
 * option and layout, averaged over the mesh (the roofline's numerator;
 * per-joint data excluded) */
double skb_skin_f32_bytes_per_vertex(const struct skb_skinner_f32 *s);
/* of those, the bytes written per vertex (positions, and normals unless
 * none): a store through the cache reads each line first (write-allocate),
 * which the roofline's alternative convention counts */
double skb_skin_f32_write_bytes_per_vertex(const struct skb_skinner_f32 *s);

SKB_EXTERN_C_END
#endif

#endif
