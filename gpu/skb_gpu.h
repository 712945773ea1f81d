/* skb_gpu.h — the GPU path of skinbench: an OpenGL 4.5 core context without a
 * display (EGL surfaceless), vertex-shader skinning with the shaders listed in
 * gpu/shader_table.c, transform-feedback verification against the CPU
 * double-precision skin path, timings, shader cost and PNG pictures.
 *
 * Every entry point that needs a context returns SKB_ENOTSUP with a one-line
 * reason where none can be made (no EGL, no Mesa driver, SKB_GPU_DISABLE=1):
 * callers turn that into a skip, never a failure.  Index:
 *   context    skb_gpu_open close is_software
 *   shaders    skb_gpu_shaders (table) skb_gpu_shader_find skb_gpu_shader_dir
 *              skb_gpu_vertex_source skb_gpu_program_build program_free
 *   skinning   skb_gpu_mesh_upload mesh_free skb_gpu_pack_joints skb_gpu_sb_centers
 *              skb_gpu_skin skb_gpu_verify skb_gpu_time_rep skb_gpu_demo_scales
 *   cost       skb_gpu_count_nir skb_gpu_nir_count_text skb_gpu_count_spirv
 *   compute    skb_gpu_clayouts skb_gpu_cprogram_build skb_gpu_cmesh_upload
 *              skb_gpu_cmesh_extras skb_gpu_cskin skb_gpu_cverify skb_gpu_ctime_rep
 *              skb_gpu_copy_bandwidth skb_gpu_times_equal skb_gpu_quantize_weights
 *   pictures   skb_gpu_render_png skb_gpu_draw_open draw_png draw_row_png draw_close
 */
#ifndef SKB_GPU_H
#define SKB_GPU_H

#include "skb_timing.h"   /* the one clock: skb_clock_ms */
#include <stddef.h>
#include "skb_method.h"

/* joints a shader's uniform block holds (std140: 16 bytes per vec4) */
#define SKB_GPU_MAX_JOINTS 128

/* transform-feedback result against the CPU double-precision skin of the same
 * method: positions must agree to SKB_GPU_TOL_POS_REL times the model size
 * (largest extent of the rest-pose bounding box), unit normals to
 * SKB_GPU_TOL_NRM.  float32 has a 6e-8 unit roundoff; the skinning formulas
 * chain about ten roundings and the joint data is rounded once on upload, so
 * 1e-5 leaves headroom of ~10x over what llvmpipe shows without hiding a wrong
 * sign or term (those give errors of the order of the model size). */
#define SKB_GPU_TOL_POS_REL 1e-5
#define SKB_GPU_TOL_NRM     1e-4

struct skb_gpu {
    void *display;             /* EGLDisplay */
    void *context;             /* EGLContext */
    unsigned fbo, color_rb, depth_rb;
    int width, height;         /* size of the bound framebuffer */
    char renderer[256];        /* GL_RENDERER */
    char version[256];         /* GL_VERSION */
    char vendor[256];          /* GL_VENDOR */
    int software;              /* 1 for llvmpipe / softpipe / swrast */
};

/* joint uniform layouts; floats per joint in brackets */
enum skb_gpu_layout {
    SKB_GPU_LAYOUT_MAT34 = 0,  /* 3x4 matrix rows [12] */
    SKB_GPU_LAYOUT_QT,         /* quaternion + translation [8] */
    SKB_GPU_LAYOUT_DQ,         /* dual quaternion (x,y,z,w)+(x,y,z,w) [8] */
    SKB_GPU_LAYOUT_DQ_SCALE,   /* dual quaternion + 3x4 scale/shear rows [20] */
    SKB_GPU_LAYOUT_LOG,        /* rigid log: rotation vector omega, 0, v, 0 [8] */
    SKB_GPU_LAYOUT_QT_SB,      /* quaternion + translation [8], and per pose the SB
                                  centre of every joint set (skb_gpu_sb_centers) */
    SKB_GPU_LAYOUT_QT_QB,      /* quaternion + translation [8], and per pose QB's
                                  C_i c per (joint, centre joint) pair (skb_gpu_qb_pairs) */
    SKB_GPU_LAYOUT_QT_COR      /* quaternion + 3x4 matrix rows [16], and per vertex
                                  CoR's bound centre (attribute 8, uploaded once) */
};

/* one GPU shader: the table in gpu/shader_table.c is the one list */
struct skb_gpu_shader {
    const char *name;          /* key in gpu.json, e.g. "dlb_fast" */
    const char *title;         /* display name, e.g. "DLB (Alg. 1)" */
    const char *file;          /* method part in the shader dir, e.g. "dlb_fast.glsl" */
    const struct skb_method *method; /* the registry method it is verified against */
    int cpu_antipodal;         /* CPU params.antipodal for that check (enum skb_antipodal) */
    int signs;                 /* GPU side: SKB_ANTIPODAL_HIERARCHY = signs precomputed on
                                  the CPU along the joint tree (DQ paper 4.1), PIVOT =
                                  Algorithm 2 in the shader (uploaded as converted) */
    int layout;                /* enum skb_gpu_layout */
    int vec4_per_joint;        /* size of one joint in the uniform block */
    int needs_scale;           /* verified on poses with scale/shear parts */
    const char *seed_ref;
    const char *extends;       /* the shader this one adds a phase to (gpu.json's
                                  *_two_phase_extra: its instructions over that
                                  one's, DQ paper 5), or NULL */
    int compute_only;          /* not on the vertex path of `run gpu` (dib, qlb0) */
};

/* NULL-name-terminated table, LBS first (timings are reported as ratios to it) */
extern const struct skb_gpu_shader skb_gpu_shaders[];
const struct skb_gpu_shader *skb_gpu_shader_find(const char *name);
int skb_gpu_shader_count(void);

/* context: 0, or SKB_ENOTSUP with the reason in msg (a skip), or another error */
int skb_gpu_open(struct skb_gpu *g, char *msg, size_t msglen);
void skb_gpu_close(struct skb_gpu *g);
/* 1 when a GL_RENDERER string names a software rasteriser */
int skb_gpu_is_software(const char *renderer);
/* (re)size the offscreen framebuffer the context draws into */
int skb_gpu_framebuffer(struct skb_gpu *g, int width, int height, char *msg, size_t msglen);

/* the shader directory: $SKB_SHADER_DIR, else <exe dir>/gpu/shaders,
 * <exe dir>/../gpu/shaders, <exe dir>/../../gpu/shaders, ./gpu/shaders
 * (the first that holds common.glsl).  exe may be NULL (/proc/self/exe). */
int skb_gpu_shader_dir(const char *exe, char *out, size_t outlen, char *msg, size_t msglen);
/* full vertex shader source: version + defines, common.glsl, skin_util.glsl,
 * the method part (method_src, or the shader's file when NULL), main.vert;
 * caller frees */
int skb_gpu_vertex_source(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                          char **out, char *msg, size_t msglen);
/* any entry point: version + defines (the DIB stopping rule of
 * skb_params_default, then `defines`), common.glsl, skin_util.glsl, the
 * method part, the entry file (main.vert or main.comp); caller frees */
int skb_gpu_shader_source(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                          const char *defines, const char *entry, char **out, char *msg, size_t msglen);
/* read dir/name; caller frees */
int skb_gpu_read_shader_file(const char *dir, const char *name, char **out, char *msg, size_t msglen);

struct skb_gpu_program {
    unsigned prog;
    const struct skb_gpu_shader *s;
    unsigned ubo;
    int block_bytes;           /* GL_UNIFORM_BLOCK_DATA_SIZE of the joint block */
    int bytes_per_joint;       /* block_bytes / SKB_GPU_MAX_JOINTS */
};
/* compile and link (vertex + shading fragment shader, transform-feedback
 * varyings o_pos, o_nrm); method_src as for skb_gpu_vertex_source */
int skb_gpu_program_build(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                          struct skb_gpu_program *p, char *msg, size_t msglen);
void skb_gpu_program_free(struct skb_gpu_program *p);

/* gm->vbo[]: positions, normals (3 floats), joint indices (4 ints), weights
 * (4 floats, in upload order), QB centres (3 floats) */
enum { SKB__GPU_VBO_POS, SKB__GPU_VBO_NRM, SKB__GPU_VBO_JOINT, SKB__GPU_VBO_WEIGHT, SKB__GPU_VBO_CENTER };

/* a mesh in GPU buffers; influences are reordered per vertex so that the ones
 * with weight > 0 come first in their original order (the CPU path pivots on
 * the first influence with weight > 0, Algorithm 2 in the shader on slot 0) */
struct skb_gpu_mesh {
    unsigned vao, vbo[5], ibo, tfbo;
    int nverts, ntris, njoints;
    /* SB (SKB_GPU_LAYOUT_QT_SB), made by the first skb_gpu_sb_centers: the
     * CPU method sb bound to the mesh (its joint sets), per vertex the texel
     * indices of its set's block and pairs (attributes 5 and 6, layout in
     * gpu_skin.c) and a texture buffer of one block per joint set */
    struct skb_skinner sb;
    unsigned set_vbo, center_buf, center_tex;
    int nsets;
    /* QB (SKB_GPU_LAYOUT_QT_QB), made by the first skb_gpu_qb_pairs: the CPU
     * method qb bound to the mesh (its pairs), per vertex slot the texel of
     * its C_i c (attribute 7) and a texture buffer of those texels */
    struct skb_skinner qb;
    unsigned qb_vbo, qb_buf, qb_tex;
    int qb_texels, qb_npairs;
    /* CoR (SKB_GPU_LAYOUT_QT_COR), made by the first skb_gpu_pose_data: each
     * vertex's centre from cor's bind (attribute 8) */
    unsigned cor_vbo;
};
int skb_gpu_mesh_upload(const struct skb_mesh *m, struct skb_gpu_mesh *gm, char *msg, size_t msglen);
void skb_gpu_mesh_free(struct skb_gpu_mesh *gm);

/* floats of joint data a shader needs for a mesh (vec4_per_joint * 4 * njoints) */
size_t skb_gpu_joint_floats(const struct skb_gpu_shader *s, const struct skb_mesh *m);
/* the per-joint uniform data of one pose, converted on the CPU in double
 * precision (quaternions with the hierarchy signs of DQ paper 4.1 where the
 * shader's `signs` is SKB_ANTIPODAL_HIERARCHY) */
int skb_gpu_pack_joints(const struct skb_gpu_shader *s, const struct skb_mesh *m,
                        const struct skb_pose *p, float *out, char *msg, size_t msglen);
/* SB's rotation centres for pose p (thesis Alg. 3.1 lines 2-6: one SVD per
 * joint set, by the CPU method sb's own prepare) and each set's block for
 * the shader (frame, relative quaternions, C_k r_c; in double), uploaded to
 * gm's texture buffer for shaders of layout SKB_GPU_LAYOUT_QT_SB; the first
 * call binds sb to m (which must outlive gm) and uploads the per-vertex
 * texel indices.  cpu_ms (may be NULL) gets the milliseconds of that CPU
 * work (not the upload).  SKB_ENOTSUP when the blocks exceed the renderer's
 * texture-buffer size. */
int skb_gpu_sb_centers(struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *p,
                       double *cpu_ms, char *msg, size_t msglen);
/* QB's per-pose pair values (Hejl's centre is a joint: C_i c once per
 * (joint, centre joint) pair, by the CPU method qb's own prepare; a vertex
 * whose centre is no joint gets its own C_i c per slot), uploaded to gm's QB
 * texture buffer for shaders of layout SKB_GPU_LAYOUT_QT_QB; the first call
 * binds qb to m (which must outlive gm) and uploads the per-slot texels.
 * SKB_ENOTSUP when the texels exceed the renderer's texture-buffer size. */
int skb_gpu_qb_pairs(struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *p,
                     char *msg, size_t msglen);
/* the per-pose CPU data a shader's layout reads (SB centres, QB pairs; none
 * for the others); sb_cpu_ms as skb_gpu_sb_centers's cpu_ms */
int skb_gpu_pose_data(const struct skb_gpu_shader *s, struct skb_gpu_mesh *gm, const struct skb_mesh *m,
                      const struct skb_pose *p, double *sb_cpu_ms, char *msg, size_t msglen);
/* internal to gpu/: upload one pose's joint data to p's uniform block and
 * bind it, and gm's SB centres where p's layout takes them */
void skb__gpu_bind_joints(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const float *joints);
/* skin every vertex with transform feedback; pos/nrm get 3*nverts floats */
int skb_gpu_skin(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const float *joints,
                 float *pos, float *nrm, char *msg, size_t msglen);

struct skb_gpu_check {
    double max_abs_pos;        /* worst |gpu - cpu| over coordinates, poses */
    double max_abs_nrm;
    double size;               /* model size the position tolerance scales with */
    double tol_pos, tol_nrm;
    int worst_pose, worst_vertex;
    int pass;                  /* both within tolerance and all finite */
};
/* GPU transform feedback against the CPU registry method s->method with
 * params.antipodal = s->cpu_antipodal, over nposes poses (layout
 * SKB_GPU_LAYOUT_QT_SB: skb_gpu_sb_centers on each pose first) */
int skb_gpu_verify(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const struct skb_mesh *m,
                   const struct skb_pose *poses, int nposes, struct skb_gpu_check *out,
                   char *msg, size_t msglen);

/* internal to gpu/: the verification of skb_gpu_verify with any GPU skin
 * (vertex or compute entry point): skin gets the packed joints of each pose
 * after the pose's SB/QB data were uploaded to gm */
typedef int (*skb__gpu_skin_fn)(void *ctx, const float *joints, float *pos, float *nrm, char *msg, size_t msglen);
int skb__gpu_verify_with(const struct skb_gpu_shader *s, skb__gpu_skin_fn skin, void *skin_ctx,
                         struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *poses,
                         int nposes, struct skb_gpu_check *out, char *msg, size_t msglen);
/* 0, or the pending GL error named with `what` in msg (all pending errors
 * cleared): SKB_ENOMEM for GL_OUT_OF_MEMORY, else SKB_EIO */
int skb__gpu_gl_failed(const char *what, char *msg, size_t msglen);

/* milliseconds per skinning pass (transform feedback, all vertices) of
 * `passes` back-to-back passes: GL_TIME_ELAPSED queries on a hardware
 * renderer, CLOCK_MONOTONIC around the draws + glFinish on a software one
 * (its timer queries are meaningless).  One repetition: callers warm up
 * (the first draws compile the shader variant), interleave and take medians. */
int skb_gpu_time_rep(const struct skb_gpu *g, struct skb_gpu_program *p, struct skb_gpu_mesh *gm,
                     const float *joints, int passes, double *ms, char *msg, size_t msglen);

/* deterministic non-rigid parts S_j (scale/shear about each joint's rest
 * position) for two-phase skinning on datasets that have none; 16*njoints */
void skb_gpu_demo_scales(const struct skb_mesh *m, unsigned long seed, skb_real *out);

/* ---- compute path (gpu/gpu_compute.c): main.comp around the same skin() ---- */
#define SKB_GPU_LOCAL_SIZE 256   /* invocations per work group */

/* a memory layout of the compute path's vertex buffers */
struct skb_gpu_clayout {
    const char *name;          /* key in gpu.json "compute.layouts" */
    const char *title;
    int pos3;                  /* packed float3 positions, normals, centres and outputs (else float4) */
    int weight_bits;           /* 32 float, 16 / 8 unorm */
    int index_bits;            /* joint indices: 32, 16, 8 bits */
};
/* NULL-name-terminated; [0] "float4" is the sweep's layout */
extern const struct skb_gpu_clayout skb_gpu_clayouts[];
const struct skb_gpu_clayout *skb_gpu_clayout_find(const char *name);
/* bytes one vertex of shader s moves in layout L, read + written: position,
 * normal, 4 indices, 4 weights, QB's centre and pair texels, SB's set texels
 * read, position and normal written.  Joint data and texture-buffer texels
 * (shared by all vertices, cached) are not counted. */
int skb_gpu_cbytes_per_vertex(const struct skb_gpu_shader *s, const struct skb_gpu_clayout *L);
/* m's weights as a `bits`-bit unorm layout stores them: per vertex the
 * integers k_i with the largest remainders rounded up so that they sum to
 * round(sum_i w_i (2^bits - 1)), returned as k_i / (2^bits - 1) in m's order
 * (4 per vertex); bits 32 copies */
void skb_gpu_quantize_weights(const struct skb_mesh *m, int bits, skb_real *out);

struct skb_gpu_cprogram {
    struct skb_gpu_program p;  /* prog, the shader, its joint block (no fragment stage) */
    const struct skb_gpu_clayout *L;
};
int skb_gpu_cprogram_build(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                           const struct skb_gpu_clayout *L, struct skb_gpu_cprogram *cp, char *msg, size_t msglen);
void skb_gpu_cprogram_free(struct skb_gpu_cprogram *cp);

/* storage buffers of main.comp: inputs, QB centres, QB/SB texel ints, outputs */
struct skb_gpu_cmesh {
    unsigned buf[8];
    long nverts;               /* vertices (copies of the base mesh) */
    int base_nverts;
    const struct skb_gpu_clayout *L;
    int aux_ints;              /* what buf[5] holds: 4 QB pair / 6 SB set ints, or 0 */
    int ctr_layout;            /* whose centres buf[4] holds: QT_QB, QT_COR, or 0 */
};
/* gm's vertices as the vertex path uploaded them (influence order, float
 * weights), in layout L, repeated to nverts (vertex i is gm's i mod
 * gm->nverts); SKB_ENOTSUP where an index does not fit the layout,
 * SKB_ENOMEM where the device refuses the buffers */
int skb_gpu_cmesh_upload(struct skb_gpu_mesh *gm, const struct skb_gpu_clayout *L, long nverts,
                         struct skb_gpu_cmesh *cm, char *msg, size_t msglen);
/* the per-vertex data shader s reads beyond those (QB centres and pair
 * texels, SB set texels), copied from gm's buffers: skb_gpu_pose_data must
 * have run on gm for s once */
int skb_gpu_cmesh_extras(struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm, const struct skb_gpu_shader *s,
                         char *msg, size_t msglen);
void skb_gpu_cmesh_free(struct skb_gpu_cmesh *cm);
/* use cp, upload and bind the joints (and gm's SB/QB texture), bind cm */
void skb_gpu_cbind(struct skb_gpu_cprogram *cp, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                   const float *joints);
/* one dispatch over all of cm; the first count vertices read back (3 floats
 * each); iters (may be NULL) gets skb_iterations per vertex (DIB), NaN in
 * packed layouts */
int skb_gpu_cskin(struct skb_gpu_cprogram *cp, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                  const float *joints, int count, float *pos, float *nrm, float *iters, char *msg, size_t msglen);
/* skb_gpu_verify for the compute entry point (cm holds gm's vertices first) */
int skb_gpu_cverify(struct skb_gpu_cprogram *cp, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                    const struct skb_mesh *m, const struct skb_pose *poses, int nposes,
                    struct skb_gpu_check *out, char *msg, size_t msglen);
/* milliseconds per dispatch of `passes` back-to-back dispatches (a storage
 * barrier between: each finishes its writes before the next), after
 * skb_gpu_cbind: GL_TIME_ELAPSED on hardware, CLOCK_MONOTONIC + glFinish on
 * a software renderer */
int skb_gpu_ctime_rep(const struct skb_gpu *g, struct skb_gpu_cmesh *cm, int passes, double *ms,
                      char *msg, size_t msglen);
/* one pose's joint upload alone: CPU clock around the block upload + glFinish */
int skb_gpu_joint_upload_ms(struct skb_gpu_cprogram *cp, struct skb_gpu_mesh *gm, const float *joints,
                            double *ms, char *msg, size_t msglen);
/* the device's copy rate between two buffers of `bytes`: glCopyBufferSubData
 * (shader 0), or a compute shader copying uvec4 words (shader 1: the path the
 * skinning kernels take to memory; a driver may run glCopyBufferSubData on a
 * slower copy engine).  One warm-up, then reps timed copies (timed as
 * skb_gpu_ctime_rep); gbps[reps] gets 2 * bytes / time in GB/s (bytes read +
 * written), sorted */
int skb_gpu_copy_bandwidth(const struct skb_gpu *g, size_t bytes, int reps, int shader, double *gbps, char *msg,
                           size_t msglen);
/* 1 when at least two finite times lie within rel of the smallest: the
 * vertex path's "pipeline_bound" test (rel 0.03) */
int skb_gpu_times_equal(const double *ms, int n, double rel);

/* shader cost.  skb_gpu_count_nir runs a child process with ST_DEBUG=nir that
 * builds each shader and counts ALU instructions in the vertex shader's final
 * NIR (rule at skb_gpu_nir_count_text); counts[i] = -1 where not available.
 * Call it before skb_gpu_open in the same process (it forks). */
int skb_gpu_count_nir(const char *dir, int n, const struct skb_gpu_shader *const *shaders,
                      int *counts, char *msg, size_t msglen);
/* count the live ALU instructions of the first vertex shader in NIR text */
int skb_gpu_nir_count_text(const char *text);
/* glslangValidator -G, spirv-opt -O, spirv-dis; counts[i] = -1 where not
 * available; SKB_ENOTSUP with the reason when the tools are missing */
int skb_gpu_count_spirv(const char *dir, int n, const struct skb_gpu_shader *const *shaders,
                        int *counts, char *msg, size_t msglen);
/* count instructions of a spirv-dis listing (rule in gpu/gpu_cost.c) */
int skb_gpu_spirv_count_text(const char *text);

/* render the mesh deformed by one pose with shader program p into a
 * width x height PNG, camera fitted to the box [lo, hi] */
int skb_gpu_render_png(struct skb_gpu *g, struct skb_gpu_program *p, struct skb_gpu_mesh *gm,
                       const float *joints, const double lo[3], const double hi[3],
                       int width, int height, const char *path, char *msg, size_t msglen);

/* pictures of meshes skinned on the CPU by any method of the registry (gpu/gpu_draw.c):
 * a pass-through program (gpu/shaders/passthrough.*) draws given positions,
 * normals and per-vertex colours with the camera and light of
 * skb_gpu_render_png, so a method without a shader gets its picture too */
struct skb_gpu_draw {
    unsigned prog;
};
struct skb_gpu_draw_mesh {
    int nverts, ntris;
    const float *pos;          /* 3*nverts */
    const float *nrm;          /* 3*nverts */
    const float *rgb;          /* 3*nverts colours in [0, 1] */
    const int *tris;           /* 3*ntris */
};
int skb_gpu_draw_open(const char *shader_dir, struct skb_gpu_draw *d, char *msg, size_t msglen);
int skb_gpu_draw_png(struct skb_gpu *g, const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *mesh,
                     const double lo[3], const double hi[3], int width, int height, const char *path,
                     char *msg, size_t msglen);
/* n meshes through one camera (the box [lo, hi]), side by side in one
 * (n * size) x size PNG: a comparison with nothing moved between panels */
int skb_gpu_draw_row_png(struct skb_gpu *g, const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *meshes,
                         int n, const double lo[3], const double hi[3], int size, const char *path, char *msg,
                         size_t msglen);
void skb_gpu_draw_close(struct skb_gpu_draw *d);

/* shared inside gpu/ (gpu_image.c, gpu_program.c) */
void skb__gpu_fit_camera(const double lo[3], const double hi[3], float mvp[16]);
int skb__gpu_write_png(const char *path, const unsigned char *rgba, int w, int h, char *msg, size_t msglen);
/* bind the offscreen framebuffer at width x height and clear it to white */
int skb__gpu_frame_begin(struct skb_gpu *g, int width, int height, char *msg, size_t msglen);
/* read the framebuffer back and write it as a PNG (temporary file + rename) */
int skb__gpu_frame_save(int width, int height, const char *path, char *msg, size_t msglen);
int skb__gpu_compile(unsigned type, const char *src, const char *what, unsigned *out, char *msg, size_t msglen);

#endif
