/* exp_sad.c — `skinbench run sad`: Skinning Arbitrary Deformations (thesis
 * ch. 7) on vertex animations this machine has: the simulated curtain
 * (datasets/curtain.c, the thesis-like case), the two MD2 animations of
 * assimp-testmodels, and bcn_human's clip baked by LBS.  Per animation:
 * p-centre proxy-joints and radial weights (7.1), rigid fitting with
 * normals (7.2.2, Table 7.1's conditions: the pre-processing time covers
 * these), affine fitting (7.2.1), 0 / 1 / 10 corrections (7.3), error
 * against p (Fig. 7.5's question), compression as Table 7.1 counts it, the
 * MD2 quantisation floor, and for the baked clip the fitter alone with the
 * rig's own joints and weights; and a picture of each animation's worst
 * keyframe, exact beside the rigid fit coloured by per-vertex error (drawn
 * through the headless GL context; skipped with the reason without one).
 * The fitting is methods/sad_fit.c; the keyframes are split over the
 * thread pool. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skb_dataset.h"
#include "skb_gpu.h"
#include "skb_pictures.h"
#include "skb_pool.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_sad.h"
#include "skb_sad_run.h"
#include "skb_vanim.h"
#include "skb_timing.h"

#define SAD_P_MAIN 100                 /* thesis Table 7.1: 100 proxy-joints */
#define SAD_P_MAX_FRACTION 3           /* p at most nverts / 3 */
#define SAD_LSQR_ATOL 1e-5             /* positions: see docs/experiments.md (sad) for the choice */
#define SAD_QUICK_MD2_FRAMES 10
#define SAD_ANGLE_WARN 150.0           /* joint-keyframes rotating more are counted (eq. 7.5 fails at 180) */
#define SAD_BAKE_METHOD SKB_MF_RATIO_REF /* LBS: bcn_human's own skinning */
#define SAD_OWN_RIG_DLB SKB_MF_HEADLINE  /* a DQ bake: DLB's unit dual quaternions (eq. 7.5 fixes real parts to 1) */
#define SAD_PIC_SIZE 384               /* each panel of a picture, pixels (the method pictures' size) */
#define SAD_PIC_DIR "images/sad"       /* below the results dir: report.html's images/ list stays the GPU's */

static const int sad_p_list[] = { 10, 25, 50, 100 };
static const int sad_p_list_quick[] = { 10, 25 };
/* 0, 1 and 10 for Table 7.1 and 7.2's brackets; 2, 3 and 5 draw thesis Fig.
 * 7.6's curve (error against eigen-displacements, the sad-corrections plot) */
static const int sad_corrections[] = { 0, 1, 2, 3, 5, 10 };
#define NCORR ((int)(sizeof sad_corrections / sizeof sad_corrections[0]))

static struct skb_sad_anim anim_of(const struct skb_vanim *v)
{
    struct skb_sad_anim a = { v->nverts, v->nframes, v->rest, v->rest_nrm, v->pos, v->nrm };
    return a;
}

/* one fit's arrays */
struct fitbuf {
    double *params, *approx, *nparams, *approx_nrm;
};

static void fitbuf_free(struct fitbuf *b)
{
    free(b->params);
    free(b->approx);
    free(b->nparams);
    free(b->approx_nrm);
    memset(b, 0, sizeof *b);
}

static int fitbuf_alloc(struct fitbuf *b, const struct skb_vanim *v, int njoints, int kind, int normals)
{
    size_t f = (size_t)v->nframes, dof = kind == SKB_SAD_AFFINE ? SKB_SAD_AFFINE_DOF : SKB_SAD_RIGID_DOF;
    memset(b, 0, sizeof *b);
    b->params = (double *)malloc(sizeof(double) * dof * (size_t)njoints * f);
    b->approx = (double *)malloc(sizeof(double) * 3 * (size_t)v->nverts * f);
    if (normals) {
        b->nparams = (double *)malloc(sizeof(double) * SKB_SAD_NORMAL_DOF * (size_t)njoints * f);
        b->approx_nrm = (double *)malloc(sizeof(double) * 3 * (size_t)v->nverts * f);
    }
    if (!b->params || !b->approx || (normals && (!b->nparams || !b->approx_nrm))) {
        fitbuf_free(b);
        return SKB_ENOMEM;
    }
    return 0;
}

/* the headless GL context the pictures draw through; open = 0: no pictures */
struct sad_pics {
    int open;
    struct skb_gpu g;
    struct skb_gpu_draw prog;
    cJSON *j;                  /* sad.json "pictures" */
};

struct sad_env {
    const struct skb_run_ctx *ctx;
    struct skb_pool *pool;
    struct skb_lsqr_opts lsqr;
    struct sad_pics *pics;
};

/* fit, then the distortion and the LSQR work in a JSON object */
static int fit_into(const struct sad_env *env, const struct skb_vanim *v, const struct skb_sad_rig *rig, int kind,
                    int normals, struct fitbuf *b, cJSON *o, char *msg, size_t msglen)
{
    struct skb_sad_anim a = anim_of(v);
    int rc = fitbuf_alloc(b, v, rig->njoints, kind, normals);
    if (rc < 0) {
        snprintf(msg, msglen, "sad: %s: out of memory", v->name);
        return rc;
    }
    struct skb_sad_fit out = { b->params, b->approx, b->nparams, b->approx_nrm, 0, 0, 0, 0 };
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    if ((rc = skb_sad_fit_anim(&a, rig, kind, &env->lsqr, env->pool, &out)) < 0) {
        snprintf(msg, msglen, "sad: %s: %s fit failed: %s", v->name, kind == SKB_SAD_RIGID ? "rigid" : "affine",
                 skb_strerror(rc));
        fitbuf_free(b);
        return rc;
    }
    skb_json_add_number(o, "fit_s", 1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0));
    skb_json_add_number(o, "distortion", skb_sad_distortion(v->pos, b->approx, v->nverts, v->nframes));
    cJSON_AddNumberToObject(o, "lsqr_iterations", (double)out.iterations);
    cJSON_AddNumberToObject(o, "lsqr_max_iterations", out.max_iterations);
    cJSON_AddNumberToObject(o, "lsqr_capped", out.capped);
    if (normals) {
        double mx;
        cJSON *n = cJSON_AddObjectToObject(o, "normal_error_deg");
        skb_json_add_number(n, "mean", skb_sad_normal_error(v->nrm, b->approx_nrm, v->nverts, v->nframes, &mx));
        skb_json_add_number(n, "max", mx);
        cJSON_AddNumberToObject(o, "normal_lsqr_iterations", (double)out.normal_iterations);
    }
    if (kind == SKB_SAD_RIGID) {
        int above;
        skb_json_add_number(o, "max_joint_angle_deg", skb_sad_max_angle(b->params, rig->njoints, v->nframes,
                                                                         SAD_ANGLE_WARN, &above));
        cJSON_AddNumberToObject(o, "joint_keyframes_above_150deg", above);
    }
    return 0;
}

static int corrections_into(const struct skb_vanim *v, const struct skb_sad_rig *rig, int kind, const double *params,
                            struct skb_pool *pool, cJSON *o, char *msg, size_t msglen)
{
    struct skb_sad_anim a = anim_of(v);
    double d[NCORR];
    int singular = 0, rc = skb_sad_corrections(&a, rig, kind, params, NCORR, sad_corrections, pool, d, &singular);
    if (rc < 0) {
        snprintf(msg, msglen, "sad: %s: corrections failed: %s", v->name, skb_strerror(rc));
        return rc;
    }
    cJSON *c = cJSON_AddObjectToObject(o, "corrected");
    for (int i = 0; i < NCORR; i++) {
        char key[16];
        snprintf(key, sizeof key, "%d", sad_corrections[i]);
        skb_json_add_number(c, key, d[i]);
    }
    cJSON_AddNumberToObject(o, "corrections_singular_vertices", singular);
    return 0;
}

static int p_cap(const struct skb_vanim *v)
{
    return v->nverts / SAD_P_MAX_FRACTION;
}

/* the p-centre rig with p joints (p capped) */
static int radial_rig(const struct skb_vanim *v, int p, struct skb_sad_rig *rig, char *msg, size_t msglen)
{
    int *c = (int *)malloc(sizeof(int) * (size_t)p), rc;
    double r;
    if (!c)
        return SKB_ENOMEM;
    rc = skb_sad_pcentre(v->rest, v->nverts, p, c, &r);
    if (rc == 0)
        rc = skb_sad_rig_radial(v->rest, v->nverts, c, p, r, SKB_SAD_P, rig);
    free(c);
    if (rc < 0)
        snprintf(msg, msglen, "sad: %s: rig with %d proxy-joints: %s", v->name, p, skb_strerror(rc));
    return rc;
}

/* Fig. 7.5's question on this animation: distortion against p, rigid and
 * affine; the p of the main fit (main_p) reuses its results */
static int error_vs_p(const struct sad_env *env, const struct skb_vanim *v, int main_p, const cJSON *main_rigid,
                      const cJSON *main_affine, cJSON *arr, char *msg, size_t msglen)
{
    const int *list = env->ctx->quick ? sad_p_list_quick : sad_p_list;
    int n = env->ctx->quick ? 2 : 4, rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (list[i] > p_cap(v))
            break;
        if (list[i] == main_p) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddItemToArray(arr, row);
            cJSON_AddNumberToObject(row, "p", list[i]);
            cJSON_AddItemToObject(row, "affine", cJSON_Duplicate(cJSON_GetObjectItem(main_affine, "distortion"), 1));
            cJSON_AddItemToObject(row, "rigid", cJSON_Duplicate(cJSON_GetObjectItem(main_rigid, "distortion"), 1));
            continue;
        }
        struct skb_sad_rig rig;
        if ((rc = radial_rig(v, list[i], &rig, msg, msglen)) < 0)
            return rc;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, row);
        cJSON_AddNumberToObject(row, "p", list[i]);
        for (int kind = SKB_SAD_AFFINE; kind <= SKB_SAD_RIGID && rc == 0; kind++) {
            struct fitbuf b;
            cJSON *o = cJSON_CreateObject();
            rc = fit_into(env, v, &rig, kind, 0, &b, o, msg, msglen);
            if (rc == 0)
                cJSON_AddItemToObject(row, kind == SKB_SAD_RIGID ? "rigid" : "affine",
                                      skb_json_number(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "distortion"))));
            cJSON_Delete(o);
            fitbuf_free(&b);
        }
        skb_sad_rig_free(&rig);
    }
    return rc;
}

/* MD2 positions are 8-bit: stored = true + a rounding error of at most half
 * a step (the frame's scale) per axis.  Floor: that error, uniform over
 * +-step/2 (RMS step / sqrt 12), as a % distortion of the animation; and
 * the worst case, every coordinate off by step / 2. */
static void quant_floor(const struct skb_vanim *v, cJSON *o)
{
    double rms = 0, half = 0, den = 0;
    for (int f = 0; f < v->nframes; f++)
        for (int i = 0; i < 3; i++) {
            double s = v->qstep[3 * f + i];
            rms += v->nverts * s * s / 12;
            half += v->nverts * s * s / 4;
        }
    for (size_t i = 0; i < 3 * (size_t)v->nverts; i++) {
        double mean = 0;
        for (int f = 0; f < v->nframes; f++)
            mean += v->pos[3 * (size_t)v->nverts * (size_t)f + i] / v->nframes;
        for (int f = 0; f < v->nframes; f++) {
            double d = v->pos[3 * (size_t)v->nverts * (size_t)f + i] - mean;
            den += d * d;
        }
    }
    cJSON *q = cJSON_AddObjectToObject(o, "quantisation_floor");
    skb_json_add_number(q, "rms_pct", den > 0 ? 100 * sqrt(rms / den) : 0);
    skb_json_add_number(q, "half_step_pct", den > 0 ? 100 * sqrt(half / den) : 0);
    cJSON_AddStringToObject(q, "definition", "100 |Q|_F / |P - P_average|_F, Q the rounding of 8-bit positions: "
                            "rms_pct uniform over +-step/2 (step/sqrt 12 per coordinate), half_step_pct every "
                            "coordinate off by step/2 (the bound)");
}

/* ---- one keyframe per animation, exact against approximated (docs/experiments.md "Skinning Arbitrary Deformations") ---- */

/* the keyframe with the largest squared vertex error: the largest share of
 * the distortion of 7.4 */
static int worst_keyframe(const struct skb_vanim *v, const double *approx)
{
    size_t n = 3 * (size_t)v->nverts;
    double worst = -1;
    int k = 0;
    for (int f = 0; f < v->nframes; f++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) {
            double d = v->pos[n * (size_t)f + i] - approx[n * (size_t)f + i];
            s += d * d;
        }
        if (s > worst) {
            worst = s;
            k = f;
        }
    }
    return k;
}

/* model size: the largest extent of the rest mesh's box (as the method pictures' heat map) */
static double rest_size(const struct skb_vanim *v)
{
    double s = 0;
    for (int i = 0; i < 3; i++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < v->nverts; k++) {
            lo = fmin(lo, v->rest[3 * k + i]);
            hi = fmax(hi, v->rest[3 * k + i]);
        }
        s = fmax(s, hi - lo);
    }
    return s;
}

/* per-vertex distance in model sizes; the largest, and *rms the RMS */
static double vertex_errors(const double *exact, const double *approx, int nv, double size, double *err, double *rms)
{
    double mx = 0, sq = 0;
    for (int k = 0; k < nv; k++) {
        double d[3] = { approx[3 * k] - exact[3 * k], approx[3 * k + 1] - exact[3 * k + 1],
                        approx[3 * k + 2] - exact[3 * k + 2] };
        err[k] = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / size;
        mx = fmax(mx, err[k]);
        sq += err[k] * err[k];
    }
    *rms = nv > 0 ? sqrt(sq / nv) : 0;
    return mx;
}

/* the input axis drawn as axis i: the camera looks along -z with y up;
 * MD2 is Quake's frame (x forward, y left, z up), drawn facing the camera */
static int draw_axis(int i, int z_up)
{
    return z_up ? (i + 1) % 3 : i;
}

/* the camera's box: both meshes */
static void pair_box(const double *a, const double *b, int nv, int z_up, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        int s = draw_axis(i, z_up);
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
        for (int k = 0; k < nv; k++) {
            lo[i] = fmin(lo[i], fmin(a[3 * k + s], b[3 * k + s]));
            hi[i] = fmax(hi[i], fmax(a[3 * k + s], b[3 * k + s]));
        }
    }
}

/* float copies for the draw: positions, normals, colours (exact: flat grey;
 * approximation: the heat colour of err / scale) */
static void panel_arrays(const double *pos, const double *nrm, const double *err, double scale, int nv, int z_up,
                         float *f)
{
    for (size_t k = 0; k < (size_t)nv; k++)
        for (int i = 0; i < 3; i++) {
            f[3 * k + (size_t)i] = (float)pos[3 * k + (size_t)draw_axis(i, z_up)];
            f[3 * (size_t)nv + 3 * k + (size_t)i] = (float)nrm[3 * k + (size_t)draw_axis(i, z_up)];
        }
    for (int k = 0; k < nv; k++) {
        float *rgb = f + 6 * (size_t)nv + 3 * (size_t)k;
        if (err)
            skb_heat_colour(scale > 0 ? err[k] / scale : 0, rgb);
        else
            rgb[0] = rgb[1] = rgb[2] = 0.7f;
    }
}

/* the exact keyframe k (left) and the approximation coloured by err (right) into path */
static int draw_pair(struct sad_pics *pp, const struct skb_vanim *v, int z_up, int k, const double *approx,
                     const double *approx_nrm, const double *err, double scale, const char *path, char *msg,
                     size_t msglen)
{
    size_t nv = (size_t)v->nverts, at = 3 * nv * (size_t)k;
    float *f = (float *)malloc(sizeof(float) * 18 * nv + 1);
    double lo[3], hi[3];
    if (!f) {
        snprintf(msg, msglen, "sad: pictures: out of memory");
        return SKB_ENOMEM;
    }
    panel_arrays(v->pos + at, v->nrm + at, NULL, 0, v->nverts, z_up, f);
    panel_arrays(approx + at, approx_nrm + at, err, scale, v->nverts, z_up, f + 9 * nv);
    struct skb_gpu_draw_mesh m[2] = { { v->nverts, v->ntris, f, f + 3 * nv, f + 6 * nv, v->tris },
                                      { v->nverts, v->ntris, f + 9 * nv, f + 12 * nv, f + 15 * nv, v->tris } };
    pair_box(v->pos + at, approx + at, v->nverts, z_up, lo, hi);
    int rc = skb_gpu_draw_row_png(&pp->g, &pp->prog, m, 2, lo, hi, SAD_PIC_SIZE, path, msg, msglen);
    free(f);
    return rc;
}

static void picture_json(cJSON *o, const char *rel, const struct skb_vanim *v, int k, int p, double size, double mx,
                         double rms)
{
    char cap[600];
    cJSON_AddStringToObject(o, "file", rel);
    cJSON_AddNumberToObject(o, "keyframe", k);
    cJSON_AddStringToObject(o, "keyframe_rule", "the keyframe with the largest sum of squared vertex errors (the "
                            "largest share of the distortion, 7.4); 0-based");
    cJSON_AddNumberToObject(o, "p", p);
    cJSON_AddStringToObject(o, "fit", "rigid (7.2.2), no corrections");
    skb_json_add_number(o, "model_size", size);
    skb_json_add_number(o, "max_error_pct", 100 * mx);
    skb_json_add_number(o, "rms_error_pct", 100 * rms);
    skb_json_add_number(o, "scale_max_pct", 100 * mx);
    snprintf(cap, sizeof cap, "%s, keyframe %d of %d (worst), p = %d, rigid fit without corrections: exact (left, "
             "grey) and SAD (right) coloured by per-vertex error, blue 0 -> green -> yellow -> red %.3g %% of the "
             "model size (%.3g units); max %.3g %%, RMS %.3g %% of the model size", v->name, k, v->nframes, p,
             100 * mx, mx * size, 100 * mx, 100 * rms);
    cJSON_AddStringToObject(o, "caption", cap);
}

/* the picture of animation v's worst keyframe, recorded in o's "picture" */
static int picture_into(const struct sad_env *env, const struct skb_vanim *v, int z_up, int p,
                        const struct fitbuf *b, cJSON *o, char *msg, size_t msglen)
{
    char name[64], rel[160], path[4200];
    if (!env->pics->open)
        return 0;
    double rms, size = rest_size(v);
    int k = worst_keyframe(v, b->approx), rc;
    double *err = (double *)malloc(sizeof(double) * (size_t)v->nverts + 1);
    if (!err) {
        snprintf(msg, msglen, "sad: pictures: out of memory");
        return SKB_ENOMEM;
    }
    snprintf(name, sizeof name, "%s", v->name);
    for (char *c = name; *c; c++)   /* the name becomes a file name */
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
            *c = '_';
    snprintf(rel, sizeof rel, "%s/%s_keyframe_%d.png", SAD_PIC_DIR, name, k);
    snprintf(path, sizeof path, "%s/%s", env->ctx->out_dir, rel);
    double mx = vertex_errors(v->pos + 3 * (size_t)v->nverts * (size_t)k, b->approx + 3 * (size_t)v->nverts * (size_t)k,
                              v->nverts, size > 0 ? size : 1, err, &rms);
    rc = draw_pair(env->pics, v, z_up, k, b->approx, b->approx_nrm, err, mx, path, msg, msglen);
    free(err);
    if (rc == 0)
        picture_json(cJSON_AddObjectToObject(o, "picture"), rel, v, k, p, size, mx, rms);
    return rc;
}

/* the context, or "pictures": {"not_run": why} and a progress line (no GL
 * here is a skip, as for the method pictures) */
static int pictures_open(const struct skb_run_ctx *ctx, struct sad_pics *pp, cJSON *root, char *msg, size_t msglen)
{
    char dir[4096], why[512];
    int rc;
    memset(pp, 0, sizeof *pp);
    pp->j = cJSON_AddObjectToObject(root, "pictures");
    if ((rc = skb_gpu_shader_dir(ctx->exe_path, dir, sizeof dir, why, sizeof why)) == 0
        && (rc = skb_gpu_open(&pp->g, why, sizeof why)) < 0 && rc != SKB_ENOTSUP) {
        snprintf(msg, msglen, "sad: pictures: %s", why);
        return rc;
    }
    if (rc == 0 && (rc = skb_gpu_draw_open(dir, &pp->prog, why, sizeof why)) < 0)
        skb_gpu_close(&pp->g);
    if (rc == 0 && (rc = skb_mkdirs_below(ctx->out_dir, SAD_PIC_DIR, why, sizeof why)) < 0) {
        skb_gpu_draw_close(&pp->prog);
        skb_gpu_close(&pp->g);
    }
    if (rc < 0) {
        cJSON_AddStringToObject(pp->j, "not_run", why);
        skb_run_progress(ctx, "sad", "pictures skipped: %s", why);
        return 0;
    }
    pp->open = 1;
    cJSON_AddStringToObject(pp->j, "renderer", pp->g.renderer);
    cJSON_AddStringToObject(pp->j, "how", "one keyframe per animation: the exact mesh (its normals) and the rigid "
                            "SAD approximation (its fitted normals, 7.2.2) drawn side by side through one camera by "
                            "the headless GL context's pass-through shader (gpu/shaders/passthrough.*); MD2 (z up) drawn "
                            "upright");
    cJSON_AddNumberToObject(pp->j, "image_width", 2 * SAD_PIC_SIZE);
    cJSON_AddNumberToObject(pp->j, "image_height", SAD_PIC_SIZE);
    cJSON_AddStringToObject(pp->j, "colour_scale", "per-vertex distance |approximated - exact| / model size (the "
                            "largest extent of the rest mesh's box): blue 0, green, yellow, red = scale_max_pct, "
                            "the keyframe's largest error; the exact mesh flat grey");
    return 0;
}

static void pictures_close(struct sad_pics *pp)
{
    if (!pp->open)
        return;
    skb_gpu_draw_close(&pp->prog);
    skb_gpu_close(&pp->g);
    pp->open = 0;
}

/* the whole of Table 7.1's row and the rest for one animation */
static int run_anim(const struct sad_env *env, const struct skb_vanim *v, int z_up, cJSON *o, char *msg,
                    size_t msglen)
{
    int p = SAD_P_MAIN < p_cap(v) ? SAD_P_MAIN : p_cap(v), rc;
    if (env->ctx->quick && p > 25)
        p = 25;
    cJSON_AddStringToObject(o, "source", v->source);
    cJSON_AddNumberToObject(o, "vertices", v->nverts);
    cJSON_AddNumberToObject(o, "triangles", v->ntris);
    cJSON_AddNumberToObject(o, "keyframes", v->nframes);
    cJSON_AddNumberToObject(o, "p", p);
    struct skb_sad_rig rig;
    struct fitbuf b;
    /* Table 7.1's pre-processing: rigging and the rigid fit of positions and normals */
    /* the process's CPU time beside the wall clock: on a loaded machine the
     * wall clock also counts the time other processes held the cores */
    double t0 = skb_clock_ms(SKB_CLOCK_WALL), c0 = skb_clock_ms(SKB_CLOCK_PROCESS);
    if ((rc = radial_rig(v, p, &rig, msg, msglen)) < 0)
        return rc;
    cJSON *rj = cJSON_AddObjectToObject(o, "rigid");
    if ((rc = fit_into(env, v, &rig, SKB_SAD_RIGID, 1, &b, rj, msg, msglen)) < 0) {
        skb_sad_rig_free(&rig);
        return rc;
    }
    skb_json_add_number(o, "preprocess_s", 1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0));
    skb_json_add_number(o, "preprocess_cpu_s", 1e-3 * (skb_clock_ms(SKB_CLOCK_PROCESS) - c0));
    skb_json_add_number(o, "radius", rig.radius);
    cJSON_AddNumberToObject(o, "max_influences", rig.max_influences);
    skb_json_add_number(o, "compression", skb_sad_compression(v->nverts, v->nframes, p));
    rc = corrections_into(v, &rig, SKB_SAD_RIGID, b.params, env->pool, rj, msg, msglen);
    if (rc == 0)
        rc = picture_into(env, v, z_up, p, &b, o, msg, msglen);
    fitbuf_free(&b);
    cJSON *aj = cJSON_AddObjectToObject(o, "affine");
    if (rc == 0 && (rc = fit_into(env, v, &rig, SKB_SAD_AFFINE, 0, &b, aj, msg, msglen)) == 0) {
        rc = corrections_into(v, &rig, SKB_SAD_AFFINE, b.params, env->pool, aj, msg, msglen);
        fitbuf_free(&b);
    }
    skb_sad_rig_free(&rig);
    if (rc == 0)
        rc = error_vs_p(env, v, p, rj, aj, cJSON_AddArrayToObject(o, "error_vs_p"), msg, msglen);
    if (rc == 0 && v->qstep)
        quant_floor(v, o);
    return rc;
}

/* the fitter alone: the baked clip's own joints and weights (4 slots) */
static int own_rig(const struct sad_env *env, const struct skb_dataset *d, const struct skb_vanim *v, int kind,
                   cJSON *o, char *msg, size_t msglen)
{
    const struct skb_mesh *m = &d->mesh;
    double *w = (double *)malloc(sizeof(double) * 4 * (size_t)m->nverts);
    struct skb_sad_rig rig;
    struct fitbuf b;
    if (!w)
        return SKB_ENOMEM;
    for (int i = 0; i < 4 * m->nverts; i++)
        w[i] = (double)m->weight[i];
    int rc = skb_sad_rig_from_influences(v->rest, m->nverts, m->njoints, 4, m->joint, w, &rig);
    free(w);
    if (rc < 0) {
        snprintf(msg, msglen, "sad: %s: own rig: %s", v->name, skb_strerror(rc));
        return rc;
    }
    cJSON_AddNumberToObject(o, "joints", m->njoints);
    rc = fit_into(env, v, &rig, kind, 0, &b, o, msg, msglen);
    fitbuf_free(&b);
    skb_sad_rig_free(&rig);
    return rc;
}

/* the clip baked by the skinning eq. 7.5 represents: each joint's dual
 * quaternion scaled to real part 1 (sign chosen so the real part is
 * positive), blended, made rigid (skb_sad_apply).  Differs from DLB only in
 * the blend weights (DLB blends unit dual quaternions); fails for a joint
 * at exactly 180 degrees, where the real part is 0. */
static int bake_eq75(const struct skb_dataset *d, const struct skb_vanim *like, struct skb_vanim *out, char *msg,
                     size_t msglen)
{
    const struct skb_mesh *m = &d->mesh;
    struct skb_sad_rig rig;
    double *w = (double *)malloc(sizeof(double) * 4 * (size_t)m->nverts);
    double *x = (double *)malloc(sizeof(double) * SKB_SAD_RIGID_DOF * (size_t)m->njoints);
    int rc = w && x ? skb_vanim_alloc(out, m->nverts, m->ntris, d->nposes) : SKB_ENOMEM;
    for (int i = 0; rc == 0 && i < 4 * m->nverts; i++)
        w[i] = (double)m->weight[i];
    if (rc == 0)
        rc = skb_sad_rig_from_influences(like->rest, m->nverts, m->njoints, 4, m->joint, w, &rig);
    free(w);
    if (rc < 0) {
        free(x);
        skb_vanim_free(out);
        snprintf(msg, msglen, "sad: %s: eq. 7.5 bake: %s", d->name, skb_strerror(rc));
        return rc;
    }
    memcpy(out->tris, like->tris, sizeof(int) * 3 * (size_t)m->ntris);
    memcpy(out->rest, like->rest, sizeof(double) * 3 * (size_t)m->nverts);
    memcpy(out->rest_nrm, like->rest_nrm, sizeof(double) * 3 * (size_t)m->nverts);
    for (int k = 0; k < d->nposes; k++) {
        struct skb_pose p;
        skb_dataset_pose(d, k, &p);
        for (int j = 0; j < m->njoints; j++) {
            struct skb_dq q;
            skb_dq_from_mat4(p.mats + 16 * j, &q);
            double s = q.r.w < 0 ? -1 / (double)q.r.w : 1 / (double)q.r.w, *xj = x + SKB_SAD_RIGID_DOF * j;
            xj[0] = s * q.r.x; xj[1] = s * q.r.y; xj[2] = s * q.r.z;
            xj[3] = s * q.d.w; xj[4] = s * q.d.x; xj[5] = s * q.d.y; xj[6] = s * q.d.z;
        }
        double *f = out->pos + 3 * (size_t)m->nverts * (size_t)k;
        skb_sad_apply(&rig, SKB_SAD_RIGID, out->rest, x, f);
        skb_vanim_normals(out, f, out->nrm + 3 * (size_t)m->nverts * (size_t)k);
    }
    skb_sad_rig_free(&rig);
    free(x);
    snprintf(out->name, sizeof out->name, "%.40s-eq7.5", d->name);
    return 0;
}

static int run_baked(const struct sad_env *env, cJSON *anims, char *msg, size_t msglen)
{
    struct skb_dataset_opts dopt = { env->ctx->seed, env->ctx->quick, 0 };
    struct skb_dataset d;
    struct skb_vanim v, vd;
    int rc = skb_run_dataset_load(env->ctx, "bcn_human", &dopt, &d, msg, msglen);
    if (rc < 0)
        return rc;
    const struct skb_method *lbs = skb_method_with_flag(SAD_BAKE_METHOD), *dlb = skb_method_with_flag(SAD_OWN_RIG_DLB);
    if (!lbs || !dlb) {
        snprintf(msg, msglen, "sad: no method for the LBS bake or the DQ bake is registered");
        skb_dataset_free(&d);
        return SKB_EINVAL;
    }
    if ((rc = skb_vanim_bake(&d, lbs, &v, msg, msglen)) < 0) {
        skb_dataset_free(&d);
        return rc;
    }
    snprintf(v.name, sizeof v.name, "bcn_human");
    cJSON *o = cJSON_AddObjectToObject(anims, "bcn_human");
    skb_run_progress(env->ctx, "sad", "bcn_human (baked by %s): %d vertices, %d keyframes", lbs->name, v.nverts,
                     v.nframes);
    rc = run_anim(env, &v, 0, o, msg, msglen);
    /* the fitter alone: the LBS bake by affine fitting (the model that made
     * it), the LBS and DLB bakes by rigid fitting, and a bake by the very
     * model of eq. 7.5 by rigid fitting (the rigid fitter's own check) */
    cJSON *own = cJSON_AddObjectToObject(o, "own_rig");
    if (rc == 0) {
        cJSON *a = cJSON_AddObjectToObject(own, "affine_on_lbs_bake");
        rc = own_rig(env, &d, &v, SKB_SAD_AFFINE, a, msg, msglen);
    }
    if (rc == 0)
        rc = own_rig(env, &d, &v, SKB_SAD_RIGID, cJSON_AddObjectToObject(own, "rigid_on_lbs_bake"), msg, msglen);
    if (rc == 0 && (rc = skb_vanim_bake(&d, dlb, &vd, msg, msglen)) == 0) {
        rc = own_rig(env, &d, &vd, SKB_SAD_RIGID, cJSON_AddObjectToObject(own, "rigid_on_dlb_bake"), msg, msglen);
        skb_vanim_free(&vd);
    }
    /* the poses' scale parts (two-phase skinning) are outside eq. 7.5's model: only without them */
    if (rc == 0 && !d.scales && (rc = bake_eq75(&d, &v, &vd, msg, msglen)) == 0) {
        rc = own_rig(env, &d, &vd, SKB_SAD_RIGID, cJSON_AddObjectToObject(own, "rigid_on_eq75_bake"), msg, msglen);
        skb_vanim_free(&vd);
    }
    skb_vanim_free(&v);
    skb_dataset_free(&d);
    return rc;
}

/* z_up: the input's up axis is z (MD2), for the picture only */
static int run_one(const struct sad_env *env, struct skb_vanim *v, int z_up, cJSON *anims, char *msg, size_t msglen)
{
    skb_run_progress(env->ctx, "sad", "%s: %d vertices, %d keyframes", v->name, v->nverts, v->nframes);
    int rc = run_anim(env, v, z_up, cJSON_AddObjectToObject(anims, v->name), msg, msglen);
    skb_vanim_free(v);
    return rc;
}

/* what the curtain's rigid-fit error grows with: thesis Table 7.1's cloth
 * rows stay at or below 1.33 % and the thesis gives neither its wind nor how
 * far its sheets move, so the same curtain is fitted again in calmer wind
 * and without the wind's travelling wave (the main p, positions only),
 * beside how far the sheet travels and the largest fitted joint angle */
static const struct { double scale, wave; } sad_winds[] = {   /* the curtain's own: 1, SKB_CURTAIN_WAVE */
    { 1.0, 0 }, { 0.5, SKB_CURTAIN_WAVE }, { 0.25, SKB_CURTAIN_WAVE },
};

/* the largest distance of a vertex from its rest position over every
 * keyframe, over the rest mesh's size */
static double sheet_travel(const struct skb_vanim *v)
{
    double mx = 0;
    for (int k = 0; k < v->nframes; k++)
        for (int i = 0; i < v->nverts; i++) {
            const double *a = v->pos + 3 * ((size_t)v->nverts * k + i), *b = v->rest + 3 * (size_t)i;
            mx = fmax(mx, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])));
        }
    return mx / rest_size(v);
}

static int wind_row(const struct sad_env *env, double scale, double wave, cJSON *arr, char *msg, size_t msglen)
{
    struct skb_vanim v;
    struct skb_sad_rig rig;
    struct fitbuf b;
    int rc = skb_vanim_curtain_wind(env->ctx->seed, env->ctx->quick, scale, wave, &v, msg, msglen);
    if (rc < 0)
        return rc;
    int p = SAD_P_MAIN < p_cap(&v) ? SAD_P_MAIN : p_cap(&v);
    if (env->ctx->quick && p > 25)
        p = 25;
    if ((rc = radial_rig(&v, p, &rig, msg, msglen)) == 0) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, row);
        skb_json_add_number(row, "wind_scale", scale);
        skb_json_add_number(row, "wave", wave);
        cJSON_AddNumberToObject(row, "p", p);
        skb_json_add_number(row, "sheet_travel", sheet_travel(&v));
        if ((rc = fit_into(env, &v, &rig, SKB_SAD_RIGID, 0, &b, row, msg, msglen)) == 0)
            fitbuf_free(&b);
        skb_run_progress(env->ctx, "sad", "curtain, wind x %g, wave %g: sheet travel %.3f of its size, rigid fit "
                         "%.3f %%", scale, wave,
                         cJSON_GetNumberValue(cJSON_GetObjectItem(row, "sheet_travel")),
                         cJSON_GetNumberValue(cJSON_GetObjectItem(row, "distortion")));
        skb_sad_rig_free(&rig);
    }
    skb_vanim_free(&v);
    return rc;
}

static int curtain_wind_study(const struct sad_env *env, cJSON *anims, char *msg, size_t msglen)
{
    cJSON *arr = cJSON_AddArrayToObject(cJSON_GetObjectItem(anims, "curtain"), "wind_study");
    int rc = 0;
    if (!arr)
        return 0;
    for (size_t i = 0; i < sizeof sad_winds / sizeof sad_winds[0] && rc == 0; i++)
        rc = wind_row(env, sad_winds[i].scale, sad_winds[i].wave, arr, msg, msglen);
    return rc;
}

static int run_sad(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    static const char *const md2[] = { "faerie", "sydney" };
    struct sad_pics pics;
    struct sad_env env = { ctx, NULL, { SAD_LSQR_ATOL, SAD_LSQR_ATOL, 0, 0 }, &pics };
    int rc = skb_pool_create(skb_pool_cpus(), &env.pool);
    if (rc < 0) {
        snprintf(msg, msglen, "sad: cannot start the thread pool");
        return rc;
    }
    cJSON *root = skb_json_results_new(ctx, "sad");
    cJSON *cond = cJSON_AddObjectToObject(root, "conditions");
    skb_json_add_number(cond, "P", SKB_SAD_P);
    skb_json_add_number(cond, "lsqr_atol", SAD_LSQR_ATOL);
    skb_json_add_number(cond, "normal_lsqr_atol", SKB_SAD_NORMAL_ATOL);
    skb_json_add_number(cond, "normal_lsqr_damp", SKB_SAD_NORMAL_DAMP);
    cJSON_AddNumberToObject(cond, "threads", skb_pool_threads(env.pool));
    cJSON_AddNumberToObject(cond, "p_main", SAD_P_MAIN);
    cJSON_AddNumberToObject(cond, "p_max_fraction", SAD_P_MAX_FRACTION);
    cJSON_AddStringToObject(cond, "bake_method", skb_method_role_name(SAD_BAKE_METHOD));
    cJSON *anims = cJSON_AddObjectToObject(root, "animations");
    struct skb_vanim v;
    if ((rc = pictures_open(ctx, &pics, root, msg, msglen)) < 0) {
        skb_pool_destroy(env.pool);
        cJSON_Delete(root);
        return rc;
    }
    /* the curtain: Table 7.1's one named counterpart */
    if ((rc = skb_vanim_curtain(ctx->seed, ctx->quick, &v, msg, msglen)) == 0)
        rc = run_one(&env, &v, 0, anims, msg, msglen);
    if (rc == 0)
        rc = curtain_wind_study(&env, anims, msg, msglen);
    for (int i = ctx->quick ? 1 : 0; i < 2 && rc == 0; i++) {   /* quick: sydney's first frames */
        char path[256];
        snprintf(path, sizeof path, "%s%s.md2", SKB_SAD_MD2_DIR, md2[i]);
        if ((rc = skb_vanim_md2(path, ctx->quick ? SAD_QUICK_MD2_FRAMES : 0, &v, msg, msglen)) == 0)
            rc = run_one(&env, &v, 1, anims, msg, msglen);
    }
    if (rc == 0)
        rc = run_baked(&env, anims, msg, msglen);
    pictures_close(&pics);
    skb_pool_destroy(env.pool);
    if (rc == 0)
        rc = skb_results_write(ctx, &skb_schema_sad, root, msg, msglen);
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_sad = {
    .name = "sad",
    .description = "Skinning Arbitrary Deformations (thesis ch. 7): proxy-joints and LSQR-fitted transformations on "
                   "a simulated curtain, two MD2 animations and a baked clip",
    .run = run_sad,
    .takes_dataset = 0,
    .dataset_note = "sad fits vertex animations (curtain, MD2, baked bcn_human), not a skinned model file",
};
