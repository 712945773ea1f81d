/* exp_spheres.c — `skinbench run spheres`: tightness of refitted bounding
 * spheres per tree level (thesis Tables 5.2 and 6.1, SBS collision paper
 * Table 1): reference spheres, every method's on-demand refit (each method
 * with a refit hook appears on its own), bottom-up refitting and "best"
 * (exact minimal spheres of the deformed vertices), on the creature-like and
 * human datasets, in one posture per paper table: Table 5.2's animated walk
 * posture (the clip's pose chosen by the posture rule, spheres_posture.c:
 * the most bent whose minimal spheres keep the reference size, as the
 * paper's Best column does) and Table 6.1's, the same pose with the neck
 * twisted (thesis Fig. 6.4); the clip's strongest pose as a context
 * scenario; the tree statistics of thesis 5.4 and the refit time per sphere
 * over all spheres (thesis 5.4, 6.6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_run.h"
#include "skb_dataset.h"
#include "skb_sphere_cd.h"
#include "skb_spheres_rig.h"
#include "skb_spheres_posture.h"
#include "skb_sb.h"

/* thesis 5.4 and Table 5.2 use the creature, 6.6 the man and the creature */
static const char *const sphere_datasets[] = { "creature", "bcn_human", "body", NULL };
static const char *const sphere_datasets_quick[] = { "creature", NULL };
#define REFIT_TIME_MIN_S 0.2     /* time each all-spheres refit for at least this long */
#define REFIT_TIME_MIN_S_QUICK 0.02
/* A refit of every sphere takes a few to tens of ms; the mean wall time of
 * many passes on a loaded machine counts the time the process sat
 * descheduled (measured on body, SBS, load 15 on 2 cores: mean 0.30 us per
 * sphere, fastest pass 0.076, thread CPU time 0.084), and even the fastest
 * wall-clock pass of a 25 ms on-demand refit rarely keeps its core (creature
 * SBS: 0.65 and 1.46 us per sphere in two runs).  The thread's CPU time of
 * the fastest pass is a cost per sphere; cd.json's *_cpu_ms are its peers. */
#define REFIT_ESTIMATOR "fastest single pass over all spheres in thread CPU time, the passes repeated for at least the minimum wall time"
/* Table 6.1's neck twist: the thesis shows a visible candy wrapper in the neck
 * (Fig. 6.4) but gives no angle; a quarter turn makes LBS lose 1 - cos 45deg
 * = 29 % of the radius at a half/half vertex, a clearly visible wrapper */
#define NECK_TWIST_DEG 90.0

/* {min, avg, max} of the radii of level L (radius 4 numbers apart) */
static cJSON *level_stats(const struct skb_sphere_tree *t, const double *s, int level)
{
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    int n = 0;
    for (int k = 0; k < t->nnodes; k++) {
        if (t->node[k].level != level)
            continue;
        double r = s[4 * k + 3];
        mn = fmin(mn, r);
        mx = fmax(mx, r);
        sum += r;
        n++;
    }
    cJSON *o = cJSON_CreateObject();
    skb_json_add_number(o, "min", n ? mn : NAN);
    skb_json_add_number(o, "avg", n ? sum / n : NAN);
    skb_json_add_number(o, "max", n ? mx : NAN);
    return o;
}

/* what SBS's rotation centres were over all the dataset's poses (methods/sb.c,
 * seed 003 section 4): joint sets, how many are trivial (one joint, or a
 * parent and its child: the joint itself), solved by SVD (thesis Table 3.2's
 * count) and regularised (the centre bound cut the pseudo-inverse), and the
 * worst centre distance in model reaches (the largest |p| of the rest mesh):
 * from its set's rest centroid and from the origin.  NULL when sb is not
 * registered or fails. */
static cJSON *sb_centres(const struct skb_run_ctx *ctx, const struct skb_dataset *d)
{
    const struct skb_method *sb = skb_method_with_flag(SKB_MF_ROT_CENTERS);
    struct skb_skinner sk;
    struct skb_sb_counts c;
    char msg[256];
    double reach = 0, offset = 0, norm = 0;
    int smin = 0, smax = 0, tmin = 0, tmax = 0, reg_max = 0, fb_max = 0, n = 0;
    long reg_sum = 0;
    if (!sb || d->nposes < 1 || skb_skin_init(&sk, sb, &d->mesh, msg, sizeof msg) < 0)
        return NULL;
    for (int i = 0; i < d->mesh.nverts; i++)
        reach = fmax(reach, skb_v3_norm(d->mesh.pos + 3 * i));
    for (int k = 0; k < d->nposes; k++) {
        struct skb_pose p;
        struct skb_pose_stats st;
        skb_dataset_pose(d, k, &p);
        if (sb->prepare(&d->mesh, &p, &ctx->params, sk.state) < 0 || sb->pose_stats(&d->mesh, sk.state, &st) < 0)
            continue;
        skb_sb_counts(&d->mesh, sk.state, &c);
        smin = n ? (c.solved < smin ? c.solved : smin) : c.solved;
        smax = c.solved > smax ? c.solved : smax;
        tmin = n ? (c.trivial < tmin ? c.trivial : tmin) : c.trivial;
        tmax = c.trivial > tmax ? c.trivial : tmax;
        reg_max = c.regularised > reg_max ? c.regularised : reg_max;
        fb_max = c.fallback > fb_max ? c.fallback : fb_max;
        reg_sum += c.regularised;
        offset = fmax(offset, c.max_offset);
        norm = fmax(norm, st.max_center_norm);
        n++;
    }
    skb_skin_fini(&sk);
    if (n == 0 || !(reach > 0))
        return NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "poses", n);
    cJSON_AddNumberToObject(o, "joint_sets", c.sets);
    cJSON_AddNumberToObject(o, "trivial_min", tmin);
    cJSON_AddNumberToObject(o, "trivial_max", tmax);
    cJSON_AddNumberToObject(o, "solved_min", smin);
    cJSON_AddNumberToObject(o, "solved_max", smax);
    cJSON_AddNumberToObject(o, "regularised_max", reg_max);
    skb_json_add_number(o, "regularised_per_pose_mean", (double)reg_sum / n);
    cJSON_AddNumberToObject(o, "parent_child_fallback_max", fb_max);
    skb_json_add_number(o, "centre_bound_extents", SKB_SB_CENTER_BOUND);
    skb_json_add_number(o, "centre_offset_max_reach", offset / reach);
    skb_json_add_number(o, "centre_norm_max_reach", norm / reach);
    return o;
}

/* the rig: vertices by number of influences (non-zero weights) and the
 * pruning threshold of procedural weights (datasets/capsules.c; null: the
 * file's own weights) */
static cJSON *influences(const struct skb_dataset *d)
{
    cJSON *o = cJSON_CreateObject(), *h = cJSON_AddArrayToObject(o, "vertices_with_1_2_3_4");
    int n[SKB_MAX_INFLUENCES + 1] = { 0 };
    for (int v = 0; v < d->mesh.nverts; v++) {
        int k = 0;
        for (int c = 0; c < SKB_MAX_INFLUENCES; c++)
            k += d->mesh.weight[SKB_MAX_INFLUENCES * v + c] > 0;
        n[k]++;
    }
    for (int k = 1; k <= SKB_MAX_INFLUENCES; k++)
        cJSON_AddItemToArray(h, cJSON_CreateNumber(n[k]));
    if (d->pruned_below > 0)
        skb_json_add_number(o, "pruned_below", d->pruned_below);
    else
        cJSON_AddNullToObject(o, "pruned_below");
    return o;
}

struct column {
    const char *key;
    double *s;         /* 4 per node */
};

/* one posture's columns: reference, each refit method's on-demand refit,
 * then bottom-up and best on each method's deformation.  "bottom_up" and
 * "best" of the posture are those of the method `bb` (the thesis's
 * bottom-up/best columns are LBS's in Table 5.2, SBS's in Table 6.1), else of
 * the first refit method.  refit_time: where the all-spheres refit times go
 * (NULL: not timed). */
struct posture_out {
    cJSON *levels;
    const char *bb_key;
};

/* refit every sphere on demand into od, timed pass by pass (thread CPU
 * time) until tmin of wall clock has passed; the fastest pass counts
 * (REFIT_ESTIMATOR: why) */
static int time_on_demand(struct skb_sbody *b, double *od, double tmin, double *elp, long *repsp)
{
    double el = INFINITY;
    long reps = 0;
    int rc;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    do {
        double p0 = skb_clock_ms(SKB_CLOCK_THREAD);
        if ((rc = skb_sbody_refit_all(b, od)) < 0)
            return rc;
        el = fmin(el, skb_clock_ms(SKB_CLOCK_THREAD) - p0);
        reps++;
    } while (skb_clock_ms(SKB_CLOCK_WALL) - t0 < 1e3 * tmin);
    *elp = 1e-3 * el;
    *repsp = reps;
    return 0;
}

/* the bottom-up refit of the same deformation into bu, timed the same way
 * (skinning every vertex is part of it) */
static void time_bottom_up(struct skb_sbody *b, const struct skb_dataset *d, const struct skb_sphere_tree *t,
                           double *bu, double tmin, double *elp, long *repsp)
{
    double el_bu = INFINITY;
    long reps_bu = 0;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    do {
        double p0 = skb_clock_ms(SKB_CLOCK_THREAD);
        skb_sbody_skin_all(b);
        skb_sphere_tree_refit_bottom_up(t, d->mesh.tris, b->pos, SKB_LEAF_ALG51, bu);
        el_bu = fmin(el_bu, skb_clock_ms(SKB_CLOCK_THREAD) - p0);
        reps_bu++;
    } while (skb_clock_ms(SKB_CLOCK_WALL) - t0 < 1e3 * tmin);
    *elp = 1e-3 * el_bu;
    *repsp = reps_bu;
}

/* method m's spheres on the posed tree: on demand (*odp) and bottom up
 * (*bup), each timed when refit_time is given (m's entry added there), and
 * the best spheres (*bep); every deformed vertex checked inside its sphere */
static int refit_method(const struct skb_run_ctx *ctx, const struct skb_dataset *d, const struct skb_sphere_tree *t,
                        const struct skb_pose *pose, const struct skb_method *m, cJSON *refit_time, double **odp,
                        double **bup, double **bep, char *msg, size_t msglen)
{
    const char *name = d->name;
    char sub[512];
    struct skb_sbody b;
    int rc;
    if ((rc = skb_sbody_init(&b, &d->mesh, m, t, sub, sizeof sub)) < 0
        || (rc = skb_sbody_pose(&b, pose, &ctx->params, SKB_REFIT_ON_DEMAND, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "%s on %s: %s", m->name, name, sub);
        return rc;
    }
    /* bu: the judged bottom-up spheres (Alg. 5.1 leaves), then the exact-leaf
     * variant's, 4 per node each */
    double *od = malloc(sizeof(double) * 4 * t->nnodes), *bu = malloc(sizeof(double) * 8 * t->nnodes),
           *be = malloc(sizeof(double) * 4 * t->nnodes);
    double tmin = !refit_time ? 0 : ctx->quick ? REFIT_TIME_MIN_S_QUICK : REFIT_TIME_MIN_S, el, el_bu;
    long reps, reps_bu;
    if ((rc = time_on_demand(&b, od, tmin, &el, &reps)) < 0) {
        snprintf(msg, msglen, "%s on %s: refit failed: %s", m->name, name, skb_strerror(rc));
        skb_sbody_fini(&b);
        free(od); free(bu); free(be);
        return rc;
    }
    time_bottom_up(&b, d, t, bu, tmin, &el_bu, &reps_bu);
    if ((rc = skb_sphere_tree_refit_bottom_up(t, d->mesh.tris, b.pos, SKB_LEAF_EXACT, bu + 4 * t->nnodes)) < 0
        || (rc = skb_sphere_tree_best(t, b.pos, be)) < 0) {
        snprintf(msg, msglen, "%s on %s: exact-leaf bottom-up or best spheres: %s", m->name, name, skb_strerror(rc));
        skb_sbody_fini(&b);
        free(od); free(bu); free(be);
        return rc;
    }
    /* the output check: every deformed vertex is inside its sphere */
    long esc = skb_spheres_escapes(t, b.pos, od);
    long esc_bu = skb_spheres_escapes(t, b.pos, bu) + skb_spheres_escapes(t, b.pos, bu + 4 * t->nnodes);
    skb_sbody_fini(&b);
    if (esc || esc_bu) {
        snprintf(msg, msglen, "%s on %s: %ld vertices outside the on-demand spheres, %ld outside bottom-up",
                 m->name, name, esc, esc_bu);
        free(od); free(bu); free(be);
        return SKB_ENUMERIC;
    }
    if (refit_time) {
        cJSON *rt = cJSON_AddObjectToObject(refit_time, m->name);
        skb_json_add_number(rt, "on_demand_us_per_sphere", 1e6 * el / t->nnodes);
        skb_json_add_number(rt, "bottom_up_us_per_sphere", 1e6 * el_bu / t->nnodes);
        cJSON_AddNumberToObject(rt, "spheres", t->nnodes);
        cJSON_AddNumberToObject(rt, "repetitions", reps);
        cJSON_AddNumberToObject(rt, "repetitions_bottom_up", reps_bu);
        cJSON_AddStringToObject(rt, "estimator", REFIT_ESTIMATOR);
        skb_run_progress(ctx, "spheres", "  %s: %.3f us per sphere on demand, %.3f bottom-up", m->name,
                         1e6 * el / t->nnodes, 1e6 * el_bu / t->nnodes);
    }
    *odp = od;
    *bup = bu;
    *bep = be;
    return 0;
}

/* the level rows: every column's statistics per tree level, the bottom-up
 * and best spheres of method bbi, and of every method */
static cJSON *level_rows(const struct skb_sphere_tree *t, const struct column *col, int ncol, const char *const *bu_key,
                         double *const *bu_s, double *const *best_s, int nm, int bbi)
{
    cJSON *levels = cJSON_CreateArray();
    for (int L = 1; L <= t->depth; L++) {
        cJSON *lv = cJSON_CreateObject();
        int n = 0;
        for (int k = 0; k < t->nnodes; k++)
            n += t->node[k].level == L;
        cJSON_AddNumberToObject(lv, "level", L);
        cJSON_AddNumberToObject(lv, "spheres", n);
        for (int c = 0; c < ncol; c++)
            cJSON_AddItemToObject(lv, col[c].key, level_stats(t, col[c].s, L));
        cJSON_AddItemToObject(lv, "bottom_up", level_stats(t, bu_s[bbi], L));
        cJSON_AddItemToObject(lv, "bottom_up_exact", level_stats(t, bu_s[bbi] + 4 * t->nnodes, L));
        cJSON_AddItemToObject(lv, "best", level_stats(t, best_s[bbi], L));
        cJSON *bbo = cJSON_AddObjectToObject(lv, "bottom_up_by_method"), *eb = cJSON_AddObjectToObject(lv, "best_by_method");
        for (int i = 0; i < nm; i++) {
            cJSON_AddItemToObject(bbo, bu_key[i], level_stats(t, bu_s[i], L));
            cJSON_AddItemToObject(eb, bu_key[i], level_stats(t, best_s[i], L));
        }
        cJSON_AddItemToArray(levels, lv);
    }
    return levels;
}

static int posture_columns(const struct skb_run_ctx *ctx, const struct skb_dataset *d, const struct skb_sphere_tree *t,
                           const struct skb_pose *pose, const char *bb, cJSON *refit_time, struct posture_out *out,
                           char *msg, size_t msglen)
{
    int nm = 0, ncol = 0, rc = 0, bbi = 0;
    struct column col[3 * 16 + 1];
    const char *bu_key[16];
    double *bu_s[16], *best_s[16];
    double *ref = malloc(sizeof(double) * 4 * t->nnodes);
    if (!ref) {
        snprintf(msg, msglen, "spheres: out of memory");
        return SKB_ENOMEM;
    }
    for (int k = 0; k < t->nnodes; k++)
        memcpy(ref + 4 * k, t->node[k].s, 4 * sizeof(double));
    col[ncol].key = "reference";
    col[ncol++].s = ref;
    for (int i = 0; skb_methods[i] && nm < 16; i++) {
        const struct skb_method *m = skb_methods[i];
        double *od, *bu, *be;
        if (!m->refit || !skb_run_wants_method(ctx, m))
            continue;
        if ((rc = refit_method(ctx, d, t, pose, m, refit_time, &od, &bu, &be, msg, msglen)) < 0)
            goto fail;
        col[ncol].key = m->name;
        col[ncol++].s = od;
        bu_key[nm] = m->name;
        bu_s[nm] = bu;
        best_s[nm] = be;
        if (bb && strcmp(bb, m->name) == 0)
            bbi = nm;
        nm++;
    }
    if (nm == 0) {
        snprintf(msg, msglen, "no selected method has a refit hook");
        rc = SKB_EINVAL;
        goto fail;
    }
    out->bb_key = bu_key[bbi];
    out->levels = level_rows(t, col, ncol, bu_key, bu_s, best_s, nm, bbi);
    rc = 0;
fail:
    for (int c = 0; c < ncol; c++)
        free(col[c].s);
    for (int i = 0; i < nm; i++) {
        free(bu_s[i]);
        free(best_s[i]);
    }
    return rc;
}

/* Table 6.1's posture (thesis Fig. 6.4 / 002 Fig. 5: the animated posture
 * with "the candy wrapper artifact in the neck"): the walk pose with the
 * neck joint twisted by `angle` about its rest bone axis (neck -> its first
 * child), the twist carried by the whole subtree: C'_j = (C_n T C_n^-1) C_j
 * for every j below and at the neck n.  mats: the pose, overwritten. */
static void twist_neck(const struct skb_dataset *d, double angle, skb_real *mats)
{
    const struct skb_mesh *m = &d->mesh;
    int n = d->neck, child = -1;
    for (int j = 0; j < m->njoints && child < 0; j++)
        if (m->parent[j] == n)
            child = j;
    skb_real axis[3], c[3], rot[9], tr[3], T[16], inv[16], tmp[16], W[16], out[16];
    double len = 0;
    for (int k = 0; k < 3; k++) {
        c[k] = m->joint_rest[3 * n + k];
        axis[k] = child >= 0 ? m->joint_rest[3 * child + k] - c[k] : (k == 0);
        len += axis[k] * axis[k];
    }
    for (int k = 0; k < 3; k++)
        axis[k] = len > 0 ? axis[k] / sqrt(len) : (k == 0);
    struct skb_quat q;
    skb_quat_from_axis_angle(axis, angle, &q);
    skb_quat_to_mat3(&q, rot);
    for (int k = 0; k < 3; k++)   /* x -> R (x - c) + c */
        tr[k] = c[k] - (rot[3 * k] * c[0] + rot[3 * k + 1] * c[1] + rot[3 * k + 2] * c[2]);
    skb_mat4_from_rt(rot, tr, T);
    skb_mat4_mul(mats + 16 * n, T, tmp);
    skb_mat4_inv_rigid(mats + 16 * n, inv);
    skb_mat4_mul(tmp, inv, W);
    for (int j = 0; j < m->njoints; j++) {
        int a = j;
        while (a >= 0 && a != n)
            a = m->parent[a];
        if (a != n)
            continue;
        skb_mat4_mul(W, mats + 16 * j, out);
        memcpy(mats + 16 * j, out, sizeof out);
    }
}

/* what dataset d and its sphere tree are, beside the tables: the tree's
 * shape and build time, the influences, SBS's centres */
static void dataset_header(const struct skb_run_ctx *ctx, const struct skb_dataset *d, const struct skb_sphere_tree *t,
                           int strong, double build_s, cJSON *ds)
{
    cJSON_AddStringToObject(ds, "source", d->source);
    cJSON_AddNumberToObject(ds, "vertices", d->mesh.nverts);
    cJSON_AddNumberToObject(ds, "triangles", d->mesh.ntris);
    cJSON_AddNumberToObject(ds, "joints", d->mesh.njoints);
    cJSON_AddNumberToObject(ds, "pose", strong);
    skb_json_add_number(ds, "pose_strength_rad", skb_pose_strength(&d->mesh, d->poses + (size_t)16 * d->mesh.njoints * strong));
    cJSON *tree = cJSON_AddObjectToObject(ds, "tree");
    cJSON_AddNumberToObject(tree, "spheres", t->nnodes);
    cJSON_AddNumberToObject(tree, "depth", t->depth);
    cJSON_AddNumberToObject(tree, "spheres_before_collapse", t->nnodes_binary);
    cJSON_AddNumberToObject(tree, "depth_before_collapse", t->depth_binary);
    cJSON_AddNumberToObject(tree, "max_children", t->max_children);
    cJSON_AddNumberToObject(tree, "leaves", t->nleaves);
    skb_json_add_number(tree, "collapse_c", SKB_TREE_COLLAPSE_C);
    skb_json_add_number(tree, "build_ms", 1e3 * build_s);
    cJSON_AddItemToObject(ds, "influences", influences(d));
    cJSON *centres = sb_centres(ctx, d);
    if (centres)
        cJSON_AddItemToObject(ds, "sbs_centres", centres);
}

/* Table 6.1's posture: pose `strong` with the neck twisted (when the
 * model's neck is known), its level rows into posts."table_6_1" */
static int table_6_1(const struct skb_run_ctx *ctx, const char *name, const struct skb_dataset *d,
                     const struct skb_sphere_tree *t, const struct skb_pose *pose, int strong, cJSON *posts, char *msg,
                     size_t msglen)
{
    char desc[400];   /* clip name (63) + bone name (63) + the sentence */
    struct posture_out p61;
    skb_real *twisted = malloc(sizeof(skb_real) * 16 * (size_t)d->mesh.njoints);
    if (!twisted) {
        snprintf(msg, msglen, "spheres: out of memory");
        return SKB_ENOMEM;
    }
    memcpy(twisted, pose->mats, sizeof(skb_real) * 16 * (size_t)d->mesh.njoints);
    if (d->has_neck) {
        twist_neck(d, NECK_TWIST_DEG * SKB_PI / 180, twisted);
        char named[96] = "";
        if (d->neck_name[0])   /* found by its bone's name (datasets/model_import.c) */
            snprintf(named, sizeof named, ", bone '%.63s'", d->neck_name);
        snprintf(desc, sizeof desc, "%.63s pose %d with the neck (joint %d%s) twisted %g deg about its bone "
                 "(thesis Fig. 6.4: the candy wrapper in the neck; the thesis gives no angle)",
                 d->clip[0] ? d->clip : "clip", strong, d->neck, named, NECK_TWIST_DEG);
    } else {
        snprintf(desc, sizeof desc, "%.63s pose %d, no neck twist: the model's neck joint is not known "
                 "(thesis Fig. 6.4 twists the neck)", d->clip[0] ? d->clip : "clip", strong);
    }
    struct skb_pose tp = { d->mesh.njoints, twisted, NULL };
    double strength61 = skb_pose_strength(&d->mesh, tp.mats);
    int rc = posture_columns(ctx, d, t, &tp, skb_method_role_name(SKB_MF_ROT_CENTERS), NULL, &p61, msg, msglen);
    free(twisted);
    if (rc < 0)
        return rc;
    cJSON *b = cJSON_AddObjectToObject(posts, "table_6_1");
    cJSON_AddStringToObject(b, "posture", desc);
    cJSON_AddNumberToObject(b, "pose", strong);
    if (d->has_neck) {
        cJSON_AddNumberToObject(b, "neck_joint", d->neck);
        skb_json_add_number(b, "neck_twist_deg", NECK_TWIST_DEG);
        if (d->neck_name[0])
            cJSON_AddStringToObject(b, "neck_bone", d->neck_name);
    } else {
        /* Table 6.1's posture is the neck twist: without a neck the levels
         * would repeat Table 5.2's posture (kept, for the record) */
        cJSON_AddStringToObject(b, "not_applicable", "no neck joint known (no bone named neck): Table 6.1's posture "
                                                     "twists the neck (thesis Fig. 6.4), this would repeat Table 5.2's");
    }
    skb_json_add_number(b, "pose_strength_rad", strength61);
    cJSON_AddStringToObject(b, "bottom_up_best_method", p61.bb_key);
    cJSON_AddItemToObject(b, "levels", p61.levels);
    skb_run_progress(ctx, "spheres", "%s: Table 6.1 posture: %s", name, desc);
    return 0;
}

/* the judged posture in words: the frame, the rule's measure, the paper's picture */
static void posture_desc(const struct skb_dataset *d, const struct skb_posture_choice *pc, char *desc, size_t len)
{
    snprintf(desc, len, "%.63s pose %d (the posture rule: %s %.3f of the reference at every level, band %g; thesis "
             "Fig. 5.3: an animated posture)", d->clip[0] ? d->clip : "clip", pc->pose,
             pc->fallback ? "no pose within the band, nearest: minimal spheres within" : "the strongest pose whose "
             "minimal spheres stay within", pc->deviation, pc->band);
}

/* the clip's strongest pose as a context scenario beside the judged one
 * (postures."strongest"): what the refits read when the posture stretches
 * the model; nothing when the rule chose the strongest pose itself */
static int strongest_posture(const struct skb_run_ctx *ctx, const struct skb_dataset *d,
                             const struct skb_sphere_tree *t, const struct skb_posture_choice *pc, cJSON *posts,
                             char *msg, size_t msglen)
{
    struct skb_pose p;
    struct posture_out out;
    char desc[200];
    if (pc->strongest == pc->pose)
        return 0;
    skb_dataset_pose(d, pc->strongest, &p);
    int rc = posture_columns(ctx, d, t, &p, skb_method_role_name(SKB_MF_RATIO_REF), NULL, &out, msg, msglen);
    if (rc < 0)
        return rc;
    cJSON *o = cJSON_AddObjectToObject(posts, "strongest");
    snprintf(desc, sizeof desc, "%.63s pose %d, the clip's strongest (minimal spheres up to %.3f off the reference): "
             "context", d->clip[0] ? d->clip : "clip", pc->strongest, pc->deviation_strongest);
    cJSON_AddStringToObject(o, "posture", desc);
    cJSON_AddNumberToObject(o, "pose", pc->strongest);
    skb_json_add_number(o, "pose_strength_rad",
                        skb_pose_strength(&d->mesh, d->poses + (size_t)16 * d->mesh.njoints * pc->strongest));
    cJSON_AddBoolToObject(o, "context", 1);
    cJSON_AddStringToObject(o, "bottom_up_best_method", out.bb_key);
    cJSON_AddItemToObject(o, "levels", out.levels);
    return 0;
}

/* one body refitting every sphere on demand, as the timing engine's work */
struct refit_work {
    struct skb_sbody b;
    double *out;
};

static int refit_all_work(void *arg, long iters)
{
    struct refit_work *w = arg;
    for (long k = 0; k < iters; k++) {
        int rc = skb_sbody_refit_all(&w->b, w->out);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* the per-sphere refit cost of every refit method over LBS's on the same
 * tree and pose, pair by pair (thesis 6.6 / SBS collision paper 002 section
 * 5: SBS 1.31 µs against LBS 1.21 µs a sphere): the same spheres both sides,
 * so the ratio of the passes is the ratio per sphere */
static int refit_paired(const struct skb_run_ctx *ctx, const struct skb_dataset *d, const struct skb_sphere_tree *t,
                        const struct skb_pose *pose, cJSON *ds, char *msg, size_t msglen)
{
    const struct skb_method *lin = skb_method_with_flag(SKB_MF_RATIO_REF);
    struct refit_work w[2];
    struct skb_sitting st;
    struct skb_pair_opts po = { .pairs = ctx->quick ? 6 : SKB_PAIR_PAIRS,
                                .min_sample_ms = ctx->quick ? 0.2 : SKB_PAIR_SAMPLE_MS, .clock = SKB_CLOCK_THREAD };
    char sub[256];
    int rc = 0;
    if (!lin || !lin->refit || !skb_run_wants_method(ctx, lin))
        return 0;
    memset(w, 0, sizeof w);
    w[0].out = malloc(sizeof(double) * 4 * (size_t)t->nnodes);
    w[1].out = malloc(sizeof(double) * 4 * (size_t)t->nnodes);
    if (!w[0].out || !w[1].out || skb_sbody_init(&w[1].b, &d->mesh, lin, t, sub, sizeof sub) < 0
        || skb_sbody_pose(&w[1].b, pose, &ctx->params, SKB_REFIT_ON_DEMAND, sub, sizeof sub) < 0) {
        snprintf(msg, msglen, "spheres: %s: refit timing: cannot pose %s", d->name, lin->name);
        rc = SKB_ENOMEM;
    }
    cJSON *o = cJSON_AddObjectToObject(ds, "refit_paired");
    skb_sitting_init(&st, &po, o);
    cJSON_AddNumberToObject(o, "spheres", t->nnodes);
    struct skb_work wl = { .run = refit_all_work, .arg = &w[1] };
    for (int i = 0; rc == 0 && skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        if (!m->refit || m == lin || !skb_run_wants_method(ctx, m))
            continue;
        struct skb_work wm = { .run = refit_all_work, .arg = &w[0] };
        if ((rc = skb_sbody_init(&w[0].b, &d->mesh, m, t, sub, sizeof sub)) < 0
            || (rc = skb_sbody_pose(&w[0].b, pose, &ctx->params, SKB_REFIT_ON_DEMAND, sub, sizeof sub)) < 0
            || (rc = skb_sitting_row(&st, m->name, &wm, lin->name, &wl, "every sphere refitted", NULL)) < 0)
            snprintf(msg, msglen, "spheres: %s: timing %s's refit against %s's failed: %s", d->name, m->name,
                     lin->name, skb_strerror(rc));
        skb_sbody_fini(&w[0].b);
    }
    skb_sbody_fini(&w[1].b);
    free(w[0].out);
    free(w[1].out);
    return rc;
}


static int one_dataset(const struct skb_run_ctx *ctx, const char *name, cJSON *out, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { ctx->seed, ctx->quick, 0 };
    struct skb_dataset d;
    struct skb_sphere_tree t;
    int rc;
    char sub[512];
    if ((rc = skb_run_dataset_load(ctx, name, &o, &d, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "dataset %s: %s", name, sub);
        return rc;
    }
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    if ((rc = skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "dataset %s: %s", name, sub);
        skb_dataset_free(&d);
        return rc;
    }
    double build_s = 1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0);
    struct skb_posture_choice pc;
    cJSON *rule = cJSON_CreateObject();
    if ((rc = skb__spheres_posture_choose(&d, &t, &ctx->params, SKB_POSTURE_BEST_BAND, &pc, rule, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "dataset %s: %s", name, sub);
        cJSON_Delete(rule);
        goto done;
    }
    int strong = pc.pose;
    struct skb_pose pose;
    skb_dataset_pose(&d, strong, &pose);
    skb_run_progress(ctx, "spheres", "%s: %d triangles, %d spheres, depth %d, pose %d of %d by the posture rule "
                     "(minimal spheres within %.3f of the reference; the strongest pose %d: %.3f)", name, d.mesh.ntris,
                     t.nnodes, t.depth, strong, d.nposes, pc.deviation, pc.strongest, pc.deviation_strongest);

    cJSON *ds = cJSON_CreateObject();
    cJSON_AddItemToObject(out, d.name, ds);   /* a model file: its base name, as in cpu.json */
    dataset_header(ctx, &d, &t, strong, build_s, ds);
    cJSON_AddItemToObject(ds, "posture_rule", rule);

    /* one posture per paper table: Table 5.2's "animated posture"
     * of the walk (thesis Fig. 5.3 bottom: we take the clip's strongest pose),
     * timed, in "levels"; Table 6.1's posture with a neck twist in
     * "postures"."table_6_1" */
    struct posture_out p52;
    cJSON *refit_time = cJSON_CreateObject(), *posts = cJSON_AddObjectToObject(ds, "postures");
    char desc[400];   /* clip name (63) + bone name (63) + the sentence */
    if ((rc = posture_columns(ctx, &d, &t, &pose, skb_method_role_name(SKB_MF_RATIO_REF), refit_time, &p52, msg, msglen)) < 0) {
        cJSON_Delete(refit_time);
        goto done;
    }
    cJSON_AddItemToObject(ds, "levels", p52.levels);
    cJSON_AddStringToObject(ds, "bottom_up_best_method", p52.bb_key);
    cJSON_AddItemToObject(ds, "refit_time", refit_time);
    cJSON *a = cJSON_AddObjectToObject(posts, "table_5_2");
    posture_desc(&d, &pc, desc, sizeof desc);
    cJSON_AddStringToObject(a, "posture", desc);
    cJSON_AddNumberToObject(a, "pose", strong);
    cJSON_AddStringToObject(a, "levels_in", "levels");

    if ((rc = refit_paired(ctx, &d, &t, &pose, ds, msg, msglen)) == 0
        && (rc = strongest_posture(ctx, &d, &t, &pc, posts, msg, msglen)) == 0
        && (rc = table_6_1(ctx, name, &d, &t, &pose, strong, posts, msg, msglen)) == 0
        && (rc = skb__spheres_rig_study(&d, &t, &pose, &ctx->params, ds, sub, sizeof sub)) < 0)
        snprintf(msg, msglen, "dataset %s: rig study: %s", name, sub);
done:
    skb_sphere_tree_free(&t);
    skb_dataset_free(&d);
    return rc;
}

static int spheres_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    cJSON *root = skb_json_results_new(ctx, "spheres");
    cJSON *ds = cJSON_AddObjectToObject(root, "datasets");
    const char *const user[] = { ctx->dataset_file, NULL };   /* run --dataset */
    const char *const *names = ctx->dataset_file ? user : ctx->quick ? sphere_datasets_quick : sphere_datasets;
    int rc = 0;
    for (int i = 0; names[i]; i++)
        if ((rc = one_dataset(ctx, names[i], ds, msg, msglen)) < 0)
            break;
    if (rc == 0)
        rc = skb_results_write(ctx, &skb_schema_spheres, root, msg, msglen);
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_spheres = {
    .name = "spheres",
    .description = "bounding-sphere tightness per tree level: reference, on-demand refits, bottom-up, best (thesis Tables 5.2, 6.1)",
    .run = spheres_run,
    .takes_dataset = 1,
    .dataset_note = "its sphere tree and the refits at its most strongly posed frame",
};
