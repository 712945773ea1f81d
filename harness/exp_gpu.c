/* exp_gpu.c — `skinbench run gpu`: the GPU shaders of gpu/shader_table.c on
 * every default dataset: transform-feedback results against the CPU skin
 * path of the same method, timings and ratios to LBS, shader instruction
 * counts (Mesa NIR and SPIR-V) for DQ paper Fig. 19, bytes of uniform data
 * per joint, and PNG pictures.  Where no OpenGL context can be made, gpu.json
 * records "skipped" with the reason and the run succeeds. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "procedural.h"
#include "skb_pictures.h"
#include "skb_dataset.h"
#include "skb_gpu.h"
#include "skb_gpu_run.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_run.h"

#define MAX_SHADERS 16
#define VERIFY_POSES_FULL 12
#define VERIFY_POSES_QUICK 4
#define TIMING_REPS_FULL 15
#define TIMING_REPS_QUICK 3
#define TIMING_WARMUP 3
/* vertices skinned per timed repetition (passes = this / nverts): keeps one
 * repetition well above the clock's and glFinish's overhead */
#define TIMING_VERTS_PER_REP_FULL 400000
#define TIMING_VERTS_PER_REP_QUICK 60000
#define IMAGE_SIZE_FULL 512
#define IMAGE_SIZE_QUICK 256

struct gpu_run {
    const struct skb_run_ctx *ctx;
    struct skb_gpu g;
    char dir[PATH_MAX];
    int nsh;
    const struct skb_gpu_shader *sh[MAX_SHADERS];
    struct skb_gpu_program prog[MAX_SHADERS];
    double max_pos[MAX_SHADERS], max_nrm[MAX_SHADERS];
    double max_rel[MAX_SHADERS];   /* position error / model size */
    int verified[MAX_SHADERS];     /* datasets checked */
    int failed[MAX_SHADERS];       /* datasets over tolerance */
    cJSON *root, *verif, *ms, *ratio, *images, *notes, *passes, *verts;
};

static cJSON *object_at(cJSON *parent, const char *key)
{
    cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, key);
    return o ? o : cJSON_AddObjectToObject(parent, key);
}

static void note(struct gpu_run *r, const char *fmt, const char *a, const char *b)
{
    char buf[1024];
    snprintf(buf, sizeof buf, fmt, a, b);
    cJSON_AddItemToArray(r->notes, cJSON_CreateString(buf));
    skb_run_progress(r->ctx, "gpu", "%s", buf);
}

static void bounds(const float *pos, int n, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
    }
    for (int v = 0; v < n; v++)
        for (int i = 0; i < 3; i++) {
            double x = (double)pos[3 * v + i];
            lo[i] = fmin(lo[i], x);
            hi[i] = fmax(hi[i], x);
        }
}

static void record_check(struct gpu_run *r, int i, cJSON *v, const struct skb_gpu_check *chk,
                         const int *idx, int np)
{
    skb_json_add_number(v, "max_abs_pos", chk->max_abs_pos);
    skb_json_add_number(v, "max_abs_nrm", chk->max_abs_nrm);
    skb_json_add_number(v, "tol_pos", chk->tol_pos);
    skb_json_add_number(v, "tol_nrm", chk->tol_nrm);
    skb_json_add_number(v, "model_size", chk->size);
    cJSON_AddNumberToObject(v, "poses", np);
    cJSON_AddBoolToObject(v, "scale_parts", r->sh[i]->needs_scale);
    cJSON_AddBoolToObject(v, "pass", chk->pass);
    if (!chk->pass) {
        cJSON_AddNumberToObject(v, "worst_pose", idx[chk->worst_pose]);
        cJSON_AddNumberToObject(v, "worst_vertex", chk->worst_vertex);
    }
    r->max_pos[i] = fmax(r->max_pos[i], chk->max_abs_pos);
    r->max_nrm[i] = fmax(r->max_nrm[i], chk->max_abs_nrm);
    r->max_rel[i] = fmax(r->max_rel[i], chk->max_abs_pos / chk->size);
    r->verified[i]++;
    r->failed[i] += !chk->pass;
}

/* SB's per-pose rotation centres on the CPU (thesis Alg. 3.1 lines 2-6), for
 * shaders that read them; cpu_ms (may be NULL) gets their CPU time */
static int sb_centers(const struct skb_gpu_shader *s, struct skb_gpu_mesh *gm, const struct skb_mesh *m,
                      const struct skb_pose *p, double *cpu_ms, char *msg, size_t msglen)
{
    return skb_gpu_pose_data(s, gm, m, p, cpu_ms, msg, msglen);   /* SB centres, QB pairs */
}

/* the vertex path is pipeline-bound on a dataset when every shader's time
 * lies within SKB_GPU_PIPELINE_BOUND_REL of the fastest: the methods cannot
 * be told apart there (the fixed-function stages and transform feedback,
 * not the skinning, set the pace), so no method comparison is judged from it */
static void pipeline_bound(struct gpu_run *r, const char *dataset, const double *ms, int n)
{
    cJSON *vp = object_at(r->root, "vertex_path");
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        lo = fmin(lo, ms[i]);
        hi = fmax(hi, ms[i]);
    }
    cJSON_AddBoolToObject(object_at(vp, "pipeline_bound"), dataset,
                          skb_gpu_times_equal(ms, n, SKB_GPU_PIPELINE_BOUND_REL));
    if (n >= 2 && lo > 0)
        skb_json_add_number(object_at(vp, "spread"), dataset, hi / lo - 1);
}

/* the verified poses idx[0..np) of d, and the same with scale parts for
 * two-phase shaders; *scales (the caller frees) when d has none */
static int verify_poses(struct gpu_run *r, const struct skb_dataset *d, const int *idx, int np, struct skb_pose *poses,
                        struct skb_pose *sposes, skb_real **scales, char *msg, size_t msglen)
{
    const struct skb_mesh *m = &d->mesh;
    /* two-phase shaders need S_j: the dataset's, or deterministic demo ones */
    if (!d->scales) {
        *scales = (skb_real *)malloc(sizeof(skb_real) * 16 * (size_t)m->njoints);
        if (!*scales) {
            snprintf(msg, msglen, "gpu: out of memory");
            return SKB_ENOMEM;
        }
        skb_gpu_demo_scales(m, r->ctx->seed, *scales);
    }
    for (int k = 0; k < np; k++) {
        skb_dataset_pose(d, idx[k], &poses[k]);
        sposes[k] = poses[k];
        if (!sposes[k].scale)
            sposes[k].scale = *scales;
    }
    return 0;
}

/* shader i on one dataset: verified on the poses pv (its entry in vd), its
 * joint block of the middle pose packed into *joints, warm-up draws that
 * compile the draw variant; *joints NULL when it is not timed here */
static int verify_and_warm(struct gpu_run *r, int i, struct skb_gpu_mesh *gm, const struct skb_mesh *m,
                           const struct skb_pose *pv, const int *idx, int np, cJSON *vd, float **joints, char *msg,
                           size_t msglen)
{
    const struct skb_gpu_shader *s = r->sh[i];
    struct skb_gpu_check chk;
    double warm;
    int rc;
    cJSON *v = cJSON_AddObjectToObject(vd, s->name);
    if (!s->method) {
        cJSON_AddStringToObject(v, "unverified", "CPU method not in the registry");
        note(r, "shader %s not verified: %s", s->name, "no CPU method");
    } else if (skb_gpu_verify(&r->prog[i], gm, m, pv, np, &chk, msg, msglen) < 0) {
        /* no reference here (e.g. the CPU method refuses the mesh): say so, go on */
        cJSON_AddStringToObject(v, "unverified", msg);
        note(r, "shader %s not verified on this dataset: %s", s->name, msg);
        msg[0] = 0;
    } else {
        record_check(r, i, v, &chk, idx, np);
    }
    *joints = (float *)malloc(sizeof(float) * skb_gpu_joint_floats(s, m) + 1);
    if (!*joints) {
        snprintf(msg, msglen, "gpu: out of memory");
        return SKB_ENOMEM;
    }
    /* the middle verified pose; warm-up draws compile the draw variant */
    if ((rc = sb_centers(s, gm, m, &pv[np / 2], NULL, msg, msglen)) == SKB_ENOTSUP) {
        note(r, "shader %s not timed on this dataset: %s", s->name, msg);   /* e.g. too many joint sets */
        msg[0] = 0;
        free(*joints);
        *joints = NULL;
        return 0;
    }
    if (rc < 0
        || (rc = skb_gpu_pack_joints(s, m, &pv[np / 2], *joints, msg, msglen)) < 0
        || (rc = skb_gpu_time_rep(&r->g, &r->prog[i], gm, *joints, TIMING_WARMUP, &warm, msg, msglen)) < 0)
        return rc;
    return 0;
}

/* reps repetitions of every timed shader at the middle pose (mid, smid
 * with scale parts), interleaved: t[i * reps + k] its draws, tc[...] sb's
 * CPU centres */
static int time_shaders(struct gpu_run *r, struct skb_gpu_mesh *gm, const struct skb_mesh *m, float *const *joints,
                        const struct skb_pose *mid, const struct skb_pose *smid, int passes, int reps, double *t,
                        double *tc, char *msg, size_t msglen)
{
    int rc;
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < r->nsh; i++)
            if (joints[i]
                && ((rc = skb_gpu_time_rep(&r->g, &r->prog[i], gm, joints[i], passes, &t[i * reps + k], msg, msglen)) < 0
                || (rc = sb_centers(r->sh[i], gm, m, r->sh[i]->needs_scale ? smid : mid,
                                   &tc[i * reps + k], msg, msglen)) < 0))
                return rc;
    return 0;
}

/* each timed shader's median (into md), quartiles, ratio to LBS (rd) and
 * per-layout extras on dataset d */
static void record_times(struct gpu_run *r, const struct skb_dataset *d, const struct skb_gpu_mesh *gm,
                         float *const *joints, double *t, double *tc, int reps, cJSON *md, cJSON *rd)
{
    double lbs_ms = skb_sorted_median(t, reps), tv[MAX_SHADERS];
    int nt = 0;
    for (int i = 0; i < r->nsh; i++) {
        if (!joints[i])
            continue;
        double ms = skb_sorted_median(t + i * reps, reps);
        tv[nt++] = ms;
        if (r->sh[i]->layout == SKB_GPU_LAYOUT_QT_QB) {   /* the per-pose C_i c texels it reads */
            char key[96];
            snprintf(key, sizeof key, "%s_pairs", r->sh[i]->name);
            cJSON_AddNumberToObject(object_at(r->root, key), d->name, gm->qb_npairs);
        }
        if (r->sh[i]->layout == SKB_GPU_LAYOUT_QT_SB) {
            char key[96];
            snprintf(key, sizeof key, "%s_cpu_center_ms", r->sh[i]->name);
            skb_json_add_number(object_at(r->root, key), d->name, skb_sorted_median(tc + i * reps, reps));
            snprintf(key, sizeof key, "%s_joint_sets", r->sh[i]->name);
            cJSON_AddNumberToObject(object_at(r->root, key), d->name, gm->nsets);
        }
        skb_json_add_number(md, r->sh[i]->name, ms);
        /* quartiles of the same (sorted) repetitions: the plots draw the
         * spread around the median the tables give */
        skb_json_add_number(object_at(object_at(r->root, "ms_q1"), d->name), r->sh[i]->name,
                            skb_sorted_quantile(t + i * reps, reps, 0.25));
        skb_json_add_number(object_at(object_at(r->root, "ms_q3"), d->name), r->sh[i]->name,
                            skb_sorted_quantile(t + i * reps, reps, 0.75));
        skb_json_add_number(rd, r->sh[i]->name, ms / lbs_ms);
        skb_run_progress(r->ctx, "gpu", "%-14s %-10s %.4f ms (x%.2f LBS)%s", d->name, r->sh[i]->name, ms,
                         ms / lbs_ms, r->failed[i] ? "  VERIFICATION FAILED" : "");
    }
    pipeline_bound(r, d->name, tv, nt);
}

/* every shader on one dataset: verification on the sampled poses, then
 * timings of the middle one, repetitions interleaved across shaders so that
 * load from other processes drifts over all of them alike */
static int run_dataset(struct gpu_run *r, const struct skb_dataset *d, char *msg, size_t msglen)
{
    const struct skb_mesh *m = &d->mesh;
    struct skb_gpu_mesh gm;
    int idx[VERIFY_POSES_FULL], np = skb__gpu_pick_poses(d, r->ctx->quick ? VERIFY_POSES_QUICK : VERIFY_POSES_FULL, idx), rc;
    int reps = r->ctx->quick ? TIMING_REPS_QUICK : TIMING_REPS_FULL;
    struct skb_pose poses[VERIFY_POSES_FULL], sposes[VERIFY_POSES_FULL];
    skb_real *scales = NULL;
    float *joints[MAX_SHADERS] = { NULL };
    double *t = (double *)malloc(sizeof(double) * (size_t)(2 * MAX_SHADERS * reps)), *tc = t + MAX_SHADERS * reps;
    if (!t) {
        snprintf(msg, msglen, "gpu: out of memory");
        return SKB_ENOMEM;
    }
    if ((rc = skb_gpu_mesh_upload(m, &gm, msg, msglen)) < 0) {
        free(t);
        if (rc == SKB_ENOTSUP) {
            note(r, "dataset %s skipped: %s", d->name, msg);
            return 0;
        }
        return rc;
    }
    if ((rc = verify_poses(r, d, idx, np, poses, sposes, &scales, msg, msglen)) < 0)
        goto done;
    cJSON *vd = object_at(r->verif, d->name), *md = object_at(r->ms, d->name);
    cJSON *rd = object_at(r->ratio, d->name);
    cJSON_AddNumberToObject(r->verts, d->name, m->nverts);
    int passes = (r->ctx->quick ? TIMING_VERTS_PER_REP_QUICK : TIMING_VERTS_PER_REP_FULL) / (m->nverts > 0 ? m->nverts : 1);
    passes = passes < 1 ? 1 : passes;
    cJSON_AddNumberToObject(r->passes, d->name, passes);
    for (int i = 0; i < r->nsh; i++)
        if ((rc = verify_and_warm(r, i, &gm, m, r->sh[i]->needs_scale ? sposes : poses, idx, np, vd, &joints[i], msg,
                                  msglen)) < 0)
            goto done;
    if ((rc = time_shaders(r, &gm, m, joints, &poses[np / 2], &sposes[np / 2], passes, reps, t, tc, msg, msglen)) < 0)
        goto done;
    record_times(r, d, &gm, joints, t, tc, reps, md, rd);
    rc = 0;
done:
    for (int i = 0; i < r->nsh; i++)
        free(joints[i]);
    free(t);
    free(scales);
    skb_gpu_mesh_free(&gm);
    return rc;
}

/* one picture per shader of mesh d in pose k into images/<scene>_<shader>.png;
 * with scale parts only the shaders that take them (LBS and two-phase),
 * without them all rigid ones */
static int pictures(struct gpu_run *r, const char *scene, const char *caption, const struct skb_dataset *d, int k,
                    const skb_real *scale, char *msg, size_t msglen)
{
    const struct skb_mesh *m = &d->mesh;
    struct skb_gpu_mesh gm;
    struct skb_pose pose;
    char path[PATH_MAX + 64], dir[PATH_MAX + 16];
    int size = r->ctx->quick ? IMAGE_SIZE_QUICK : IMAGE_SIZE_FULL, rc;
    double lo[3], hi[3];
    size_t nv = (size_t)m->nverts;
    float *joints = NULL, *pos = (float *)malloc(sizeof(float) * 6 * nv + 1);
    snprintf(dir, sizeof dir, "%s/images", r->ctx->out_dir);
    if (!pos) {
        snprintf(msg, msglen, "gpu: out of memory");
        return SKB_ENOMEM;
    }
    if ((rc = skb_mkdirs_below(r->ctx->out_dir, "images", msg, msglen)) < 0 || (rc = skb_gpu_mesh_upload(m, &gm, msg, msglen)) < 0) {
        free(pos);
        return rc == SKB_ENOTSUP ? 0 : rc;
    }
    skb_dataset_pose(d, k, &pose);
    pose.scale = scale;
    /* one camera for every shader of a scene, fitted to the LBS-posed mesh */
    for (int i = 0; i < r->nsh; i++) {
        const struct skb_gpu_shader *s = r->sh[i];
        if (scale ? !(s->needs_scale || s->layout == SKB_GPU_LAYOUT_MAT34) : s->needs_scale)
            continue;
        free(joints);
        joints = (float *)malloc(sizeof(float) * skb_gpu_joint_floats(s, m) + 1);
        if (!joints) {
            rc = SKB_ENOMEM;
            snprintf(msg, msglen, "gpu: out of memory");
            goto done;
        }
        if ((rc = skb_gpu_pack_joints(s, m, &pose, joints, msg, msglen)) < 0
            || (rc = sb_centers(s, &gm, m, &pose, NULL, msg, msglen)) < 0)
            goto done;
        if (i == 0) {
            if ((rc = skb_gpu_skin(&r->prog[i], &gm, joints, pos, pos + 3 * nv, msg, msglen)) < 0)
                goto done;
            bounds(pos, m->nverts, lo, hi);
        }
        snprintf(path, sizeof path, "%s/%s_%s.png", dir, scene, s->name);
        if ((rc = skb_gpu_render_png(&r->g, &r->prog[i], &gm, joints, lo, hi, size, size, path, msg, msglen)) < 0)
            goto done;
        cJSON *img = cJSON_CreateObject();
        cJSON_AddStringToObject(img, "scene", scene);
        cJSON_AddStringToObject(img, "dataset", d->name);
        cJSON_AddNumberToObject(img, "pose", k);
        cJSON_AddStringToObject(img, "shader", s->name);
        cJSON_AddStringToObject(img, "caption", caption);
        snprintf(path, sizeof path, "images/%s_%s.png", scene, s->name);
        cJSON_AddStringToObject(img, "file", path);
        cJSON_AddItemToArray(r->images, img);
    }
    rc = 0;
done:
    free(joints);
    free(pos);
    skb_gpu_mesh_free(&gm);
    return rc;
}

/* run --dataset: the user's model verified, timed and pictured mid-clip */
static int user_dataset(struct gpu_run *r, const struct skb_dataset_opts *o, char *msg, size_t msglen)
{
    struct skb_dataset d;
    int rc = skb_run_dataset_load(r->ctx, r->ctx->dataset_file, o, &d, msg, msglen);
    if (rc < 0)
        return rc;
    rc = run_dataset(r, &d, msg, msglen);
    if (rc == 0 && d.nposes > 0 && d.mesh.njoints <= SKB_GPU_MAX_JOINTS) {
        char scene[160];
        snprintf(scene, sizeof scene, "character_%s", d.name);
        for (char *c = scene; *c; c++)   /* the file's name becomes an image file name */
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
                *c = '_';
        char caption[240];
        skb_caption_character(caption, sizeof caption, d.name, &d, d.nposes / 2);
        rc = pictures(r, scene, caption, &d, d.nposes / 2, NULL, msg, msglen);
    }
    skb_dataset_free(&d);
    return rc;
}

static int all_pictures(struct gpu_run *r, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { .seed = r->ctx->seed, .quick = r->ctx->quick, .subdivide = 0 };
    struct skb_dataset d;
    int rc;
    /* the candy wrapper (elbow twisted 180 deg) and the bent elbow (120 deg) */
    if ((rc = skb_run_dataset_load(r->ctx, "arm", &o, &d, msg, msglen)) < 0)
        return rc;
    if (d.nposes >= 2) {
        const double twist = SKB_PI, bend = 2 * SKB_PI / 3;
        char twisted[240], bent[240], scaled[240];
        skb__arm_pose(&d, 0, twist, 0);
        skb__arm_pose(&d, 1, 0, bend);
        skb_caption_arm(twisted, sizeof twisted, twist, 0, 0);
        skb_caption_arm(bent, sizeof bent, 0, bend, 0);
        skb_caption_arm(scaled, sizeof scaled, 0, bend, 1);
        /* DQ paper Fig. 13: the forearm thickened 1.5x across (S about the
         * elbow), bent: LBS of C S against two-phase skinning */
        skb_real scale[32];
        skb_mat4_identity(scale);
        skb_mat4_identity(scale + 16);
        scale[16 + 5] = scale[16 + 10] = 1.5;   /* y, z about the elbow on the x axis */
        if ((rc = pictures(r, "candy_wrapper", twisted, &d, 0, NULL, msg, msglen)) < 0
            || (rc = pictures(r, "bent_elbow", bent, &d, 1, NULL, msg, msglen)) < 0
            || (d.mesh.njoints == 2 && (rc = pictures(r, "scaled_bent_elbow", scaled, &d, 1, scale, msg, msglen)) < 0)) {
            skb_dataset_free(&d);
            return rc;
        }
    }
    skb_dataset_free(&d);
    if (r->ctx->dataset_file)
        return 0;   /* run --dataset: the user's model is the character (user_dataset) */
    /* a real character in the middle of its clip */
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *src = skb_dataset_sources[i];
        char lmsg[512];
        if (strcmp(src->kind, "real") != 0 || !src->in_default_set)
            continue;
        if (src->load(&o, &d, lmsg, sizeof lmsg) < 0) {
            note(r, "character picture: dataset %s did not load: %s", src->name, lmsg);
            continue;
        }
        if (d.nposes > 0 && d.mesh.njoints <= SKB_GPU_MAX_JOINTS) {
            char scene[160];
            char caption[240];
            snprintf(scene, sizeof scene, "character_%s", src->name);
            skb_caption_character(caption, sizeof caption, src->name, &d, d.nposes / 2);
            rc = pictures(r, scene, caption, &d, d.nposes / 2, NULL, msg, msglen);
            skb_dataset_free(&d);
            return rc;
        }
        skb_dataset_free(&d);
    }
    note(r, "no character picture: %s%s", "no real dataset with a clip in the default set", "");
    return 0;
}

static const char *antipodal_name(int a)
{
    return a == SKB_ANTIPODAL_PIVOT ? "pivot" : a == SKB_ANTIPODAL_HIERARCHY ? "hierarchy" : "none";
}

static void add_counts(cJSON *root, const char *key, struct gpu_run *r, const int *counts)
{
    cJSON *o = cJSON_AddObjectToObject(root, key);
    for (int i = 0; i < r->nsh; i++)
        if (counts[i] >= 0)
            cJSON_AddNumberToObject(o, r->sh[i]->name, counts[i]);
}

static void add_count_ratios(cJSON *root, const char *key, struct gpu_run *r, const int *counts)
{
    cJSON *o = cJSON_AddObjectToObject(root, key);
    for (int i = 0; i < r->nsh; i++)
        if (counts[i] >= 0 && counts[0] > 0)
            skb_json_add_number(o, r->sh[i]->name, (double)counts[i] / counts[0]);
}

/* DQ paper 5: the two-phase shader's extra instructions over the rigid
 * shader it extends (skb_gpu_shader.extends: dlb_scale runs dlb_fast's code
 * after the LBS of S_j) */
static void add_two_phase_extra(cJSON *root, const char *key, struct gpu_run *r, const int *counts)
{
    for (int i = 0; i < r->nsh; i++) {
        if (!r->sh[i]->extends || counts[i] < 0)
            continue;
        for (int j = 0; j < r->nsh; j++)
            if (strcmp(r->sh[j]->name, r->sh[i]->extends) == 0 && counts[j] >= 0) {
                cJSON_AddNumberToObject(root, key, counts[i] - counts[j]);
                return;   /* one key: the table has one two-phase shader */
            }
    }
}

static int instruction_counts(struct gpu_run *r)
{
    int nir[MAX_SHADERS], spv[MAX_SHADERS];
    char msg[512];
    cJSON *root = r->root;
    if (skb_gpu_count_nir(r->dir, r->nsh, r->sh, nir, msg, sizeof msg) < 0)
        cJSON_AddStringToObject(root, "instructions_skipped", msg);
    add_counts(root, "instructions", r, nir);
    add_count_ratios(root, "instructions_ratio_to_lbs", r, nir);
    add_two_phase_extra(root, "instructions_two_phase_extra", r, nir);
    cJSON_AddStringToObject(root, "instructions_source",
        "Mesa NIR handed to the driver (ST_DEBUG=nir at link time), vertex shader incl. the MVP transform");
    cJSON_AddStringToObject(root, "instructions_rule",
        "live scalar NIR ALU instructions (integer address arithmetic included); vecN assembly, mov, "
        "load_const, intrinsics (attribute/UBO loads, output stores), derefs and phis not counted; loops unrolled");
    if (skb_gpu_count_spirv(r->dir, r->nsh, r->sh, spv, msg, sizeof msg) < 0)
        cJSON_AddStringToObject(root, "instructions_spirv_skipped", msg);
    add_counts(root, "instructions_spirv", r, spv);
    add_count_ratios(root, "instructions_spirv_ratio_to_lbs", r, spv);
    add_two_phase_extra(root, "instructions_spirv_two_phase_extra", r, spv);
    cJSON_AddStringToObject(root, "instructions_spirv_rule",
        "glslangValidator -G, spirv-opt -O (influence loops unrolled), spirv-dis: vector-level arithmetic, "
        "logic, comparison, conversion, select and GLSL.std.450 instructions in function bodies; loads, stores, "
        "access chains, composite construct/extract, shuffles, labels, branches, merges not counted");
    return 0;
}

/* the vertex shaders this run draws: every one the method filter keeps */
static void pick_shaders(struct gpu_run *r)
{
    for (int i = 0; skb_gpu_shaders[i].name && r->nsh < MAX_SHADERS; i++) {
        const struct skb_method *cpu = skb_gpu_shaders[i].method;
        if (skb_gpu_shaders[i].compute_only)
            continue;
        /* LBS always runs: the other timings are ratios to it */
        if (i == 0 || !cpu || skb_run_wants_method(r->ctx, cpu))
            r->sh[r->nsh++] = &skb_gpu_shaders[i];
    }
}

/* no GL context: a skip, not a failure: only the reason and the metadata */
static int write_skipped(struct gpu_run *r, const char *reason, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    int rc;
    cJSON_Delete(r->root);
    r->root = skb_json_results_new(ctx, "gpu");
    cJSON_AddStringToObject(r->root, "skipped", reason);
    skb_run_progress(ctx, "gpu", "skipped: %s", reason);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(r->root, "method_pictures"), "not_run", reason);
    if ((rc = skb_arm_volume_curve(ctx, r->root, msg, msglen)) < 0) {
        if (!msg[0])
            snprintf(msg, msglen, "gpu: failed");   /* as gpu_run's failures say */
        return rc;
    }
    return skb_results_write(ctx, &skb_schema_gpu, r->root, msg, msglen);
}

/* the renderer and how it is timed and checked */
static void renderer_block(const struct gpu_run *r, cJSON *root)
{
    const struct skb_run_ctx *ctx = r->ctx;
    cJSON_AddStringToObject(root, "renderer", r->g.renderer);
    cJSON_AddStringToObject(root, "version", r->g.version);
    cJSON_AddStringToObject(root, "vendor", r->g.vendor);
    cJSON_AddBoolToObject(root, "software_renderer", r->g.software);
    cJSON_AddStringToObject(root, "label", r->g.software
        ? "SOFTWARE RENDERER: timings and NIR counts come from Mesa's CPU rasteriser, not from a GPU"
        : "hardware GPU");
    cJSON_AddStringToObject(root, "timing_method", r->g.software
        ? "CLOCK_MONOTONIC around back-to-back transform-feedback draws + glFinish (timer queries are "
          "meaningless on a software renderer), median of repetitions, per pass"
        : "GL_TIME_ELAPSED queries around back-to-back transform-feedback draws, median of repetitions, per pass");
    cJSON_AddNumberToObject(root, "timing_warmup_passes", TIMING_WARMUP);
    cJSON_AddNumberToObject(root, "timing_repetitions", ctx->quick ? TIMING_REPS_QUICK : TIMING_REPS_FULL);
    cJSON_AddStringToObject(root, "shader_dir", r->dir);
    cJSON *tol = cJSON_AddObjectToObject(root, "tolerance");
    skb_json_add_number(tol, "position_rel_model_size", SKB_GPU_TOL_POS_REL);
    skb_json_add_number(tol, "normal_abs", SKB_GPU_TOL_NRM);
}

/* every shader's program built, and what each is */
static int build_programs(struct gpu_run *r, cJSON *root, char *msg, size_t msglen)
{
    int rc;
    cJSON *shs = cJSON_AddArrayToObject(root, "shaders");
    cJSON *bpj = cJSON_AddObjectToObject(root, "bytes_per_joint");
    cJSON *fpj = cJSON_AddObjectToObject(root, "floats_per_joint");
    for (int i = 0; i < r->nsh; i++) {
        const struct skb_gpu_shader *s = r->sh[i];
        if ((rc = skb_gpu_program_build(r->dir, s, NULL, &r->prog[i], msg, msglen)) < 0)
            return rc;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", s->name);
        cJSON_AddStringToObject(o, "title", s->title);
        cJSON_AddStringToObject(o, "file", s->file);
        cJSON_AddStringToObject(o, "cpu_method", s->method->name);
        cJSON_AddStringToObject(o, "cpu_antipodal", antipodal_name(s->cpu_antipodal));
        cJSON_AddStringToObject(o, "gpu_signs", s->signs == SKB_ANTIPODAL_PIVOT ? "Alg. 2 in the shader"
                                : s->signs == SKB_ANTIPODAL_HIERARCHY ? "precomputed along the hierarchy" : "as converted");
        cJSON_AddStringToObject(o, "seed_ref", s->seed_ref);
        cJSON_AddItemToArray(shs, o);
        /* what the shader needs (16-byte vec4s of the std140 block) vs the block's real size per joint */
        cJSON_AddNumberToObject(bpj, s->name, r->prog[i].bytes_per_joint);
        cJSON_AddNumberToObject(fpj, s->name, r->prog[i].bytes_per_joint / 4);
    }
    return 0;
}

/* the per-dataset objects run_dataset fills, and the notes on what "ms" covers */
static void result_objects(struct gpu_run *r, cJSON *root)
{
    r->verif = cJSON_AddObjectToObject(root, "verification");
    r->verts = cJSON_AddObjectToObject(root, "vertices");
    r->passes = cJSON_AddObjectToObject(root, "timing_passes_per_repetition");
    r->ms = cJSON_AddObjectToObject(root, "ms");
    r->ratio = cJSON_AddObjectToObject(root, "ratio_to_lbs");
    /* DQ paper Fig. 1 ran SBS with its centres on the CPU: so does sb here;
     * "ms" times the draws alone, as for every shader (none includes its
     * per-pose CPU conversion: logs, quaternions), the centres are timed apart */
    cJSON_AddFalseToObject(root, "sb_ms_includes_cpu_center");
    cJSON_AddStringToObject(root, "sb_cpu_center_note",
        "sb: the rotation centre of every joint set is solved per pose on the CPU (the CPU method sb's prepare: "
        "one SVD per set, thesis Alg. 3.1 lines 2-6), as DQ paper Fig. 1 ran SBS, and turned into the shader's "
        "per-set block (frame, relative quaternions, C_k r_c) in double; \"ms\" times the GPU draws only, like "
        "every shader here (none includes its per-pose CPU conversion); \"sb_cpu_center_ms\" is that CPU time per "
        "pose (median over the timing repetitions), the upload not included");
    cJSON_AddStringToObject(root, "qb_pairs_note",
        "qb, qb_pivot: Hejl's rotation centre is a joint (DQ paper 2.3), so C_i c is one value per (influence joint, "
        "centre joint) pair; the CPU method qb's prepare computes each once per pose in double and the shaders read "
        "them from a texture buffer (\"<shader>_pairs\" per dataset) instead of rotating c by every q_i; like every "
        "shader's per-pose CPU conversion, not in \"ms\"");
    r->images = cJSON_AddArrayToObject(root, "images");
    r->notes = cJSON_AddArrayToObject(root, "notes");
}

/* the user's model, or every default dataset (one that fails to load is noted) */
static int all_datasets(struct gpu_run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    int rc;
    struct skb_dataset_opts o = { .seed = ctx->seed, .quick = ctx->quick, .subdivide = 0 };
    if (ctx->dataset_file && (rc = user_dataset(r, &o, msg, msglen)) < 0)
        return rc;
    for (int i = 0; skb_dataset_sources[i] && !ctx->dataset_file; i++) {
        const struct skb_dataset_source *src = skb_dataset_sources[i];
        struct skb_dataset d;
        char lmsg[512];
        if (!src->in_default_set)
            continue;
        if (src->load(&o, &d, lmsg, sizeof lmsg) < 0) {
            note(r, "dataset %s skipped: %s", src->name, lmsg);
            continue;
        }
        snprintf(d.name, sizeof d.name, "%s", src->name);
        rc = run_dataset(r, &d, msg, msglen);
        skb_dataset_free(&d);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* each shader's worst errors and verdict; returns how many failed or went unverified */
static int verification_summary(struct gpu_run *r, cJSON *root)
{
    cJSON *mae = cJSON_AddObjectToObject(root, "max_abs_error");
    cJSON *mre = cJSON_AddObjectToObject(root, "max_rel_error");
    cJSON *man = cJSON_AddObjectToObject(root, "max_abs_error_normal");
    cJSON *ver = cJSON_AddObjectToObject(root, "verified");
    int bad = 0;
    for (int i = 0; i < r->nsh; i++) {
        if (!r->verified[i]) {
            cJSON_AddFalseToObject(ver, r->sh[i]->name);   /* no dataset gave a reference */
            bad++;
            continue;
        }
        skb_json_add_number(mae, r->sh[i]->name, r->max_pos[i]);
        skb_json_add_number(mre, r->sh[i]->name, r->max_rel[i]);
        skb_json_add_number(man, r->sh[i]->name, r->max_nrm[i]);
        cJSON_AddBoolToObject(ver, r->sh[i]->name, r->failed[i] == 0);
        bad += r->failed[i] > 0;
    }
    cJSON *vp = object_at(root, "vertex_path");
    skb_json_add_number(vp, "pipeline_bound_rel", SKB_GPU_PIPELINE_BOUND_REL);
    cJSON_AddStringToObject(vp, "pipeline_bound_note",
        "true on a dataset where every vertex shader's time lies within pipeline_bound_rel of the fastest: the "
        "vertex + transform-feedback pipeline, not the method, sets the pace, so methods cannot be told apart "
        "on that path there; the compute path (\"compute\") times the methods");
    return bad;
}

static int gpu_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    struct gpu_run *r = (struct gpu_run *)calloc(1, sizeof *r);
    int rc = 0;
    if (!r) {
        snprintf(msg, msglen, "gpu: out of memory");
        return SKB_ENOMEM;
    }
    r->ctx = ctx;
    r->root = skb_json_results_new(ctx, "gpu");
    pick_shaders(r);
    if ((rc = skb_gpu_shader_dir(ctx->exe_path, r->dir, sizeof r->dir, msg, msglen)) < 0)
        goto fail;
    /* the NIR count forks a child that makes its own context: before ours */
    char reason[512];
    instruction_counts(r);
    if ((rc = skb_gpu_open(&r->g, reason, sizeof reason)) < 0) {
        if (rc != SKB_ENOTSUP) {
            snprintf(msg, msglen, "%s", reason);
            goto fail;
        }
        rc = write_skipped(r, reason, msg, msglen);
        goto out;
    }
    cJSON *root = r->root;
    renderer_block(r, root);
    if ((rc = build_programs(r, root, msg, msglen)) < 0)
        goto fail;
    result_objects(r, root);
    if ((rc = all_datasets(r, msg, msglen)) < 0)
        goto fail;
    int bad = verification_summary(r, root);
    if ((rc = skb__gpu_compute(ctx, &r->g, r->dir, root, &bad, msg, msglen)) < 0)
        goto fail;
    if ((rc = all_pictures(r, msg, msglen)) < 0 || (rc = skb_method_pictures(ctx, &r->g, r->dir, root, msg, msglen)) < 0
        || (rc = skb_arm_volume_curve(ctx, root, msg, msglen)) < 0)
        goto fail;
    if ((rc = skb_results_write(ctx, &skb_schema_gpu, root, msg, msglen)) < 0)
        goto out;
    if (bad) {
        snprintf(msg, msglen, "gpu: %d shader(s) or compute kernel(s) disagree with their CPU method beyond tolerance "
                 "or could not be verified (see gpu.json \"verification\", \"compute.verified\", \"compute.layouts\")", bad);
        rc = SKB_ENUMERIC;
    }
    goto out;
fail:
    if (!msg[0])
        snprintf(msg, msglen, "gpu: failed");
out:
    for (int i = 0; i < r->nsh; i++)
        skb_gpu_program_free(&r->prog[i]);
    skb_gpu_close(&r->g);
    cJSON_Delete(r->root);
    free(r);
    return rc;
}

const struct skb_experiment skb_exp_gpu = {
    .name = "gpu",
    .description = "GPU vertex-shader skinning: verification, timings, instruction counts, pictures",
    .run = gpu_run,
    .takes_dataset = 1,
    .dataset_note = "every shader verified and timed on it, and pictured mid-clip (the arm scenes stay)",
};
