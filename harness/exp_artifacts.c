/* exp_artifacts.c — the `artifacts` experiment's run half: the skinning
 * artifacts users argue about, measured per registry method with a skin path
 * (report half and descriptor: reports/exp_artifacts.c; metrics:
 * harness/artifacts_metrics.c; docs/experiments.md "artifacts").  The candy
 * wrapper (thesis 2.2.1 Fig. 2.5, DQ paper Fig. 2), the joint bulge of rigid
 * blends in bending (Le & Hodgins 2016, SPEC section 8), volume, the flip of
 * shortest-path blends past 180 degrees (DQ paper Fig. 20),
 * self-intersections, the distance to DIB (the exact bi-invariant blend,
 * thesis Alg. 4.1), and f32 precision far from the origin.  Scenes: the
 * procedural arm (harness/arm_volume.c's section and volume), a hip of the
 * body rig, bcn_human's clip. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_artifacts.h"
#include "skb_dataset.h"
#include "skb_fast.h"
#include "skb_json.h"
#include "skb_mix.h"
#include "skb_pictures.h"
#include "skb_results.h"
#include "procedural.h"

/* a method whose shortest path changes side between 179 and 181 degrees
 * moves a vertex by about a limb diameter; a continuous blend moves it by
 * 2 degrees of arc, 0.035 radii on the arm (DQ paper Fig. 20) */
#define FLIP_RADII 0.5
/* the painted LBS/DQS mix on the arm: DLB's share 1 at the elbow joint,
 * falling linearly to 0 (LBS) at this many limb radii from it, as an artist
 * paints dual-quaternion skinning onto a joint only (Maya's weight-blended
 * skinning) */
#define PAINT_RADII 3.0
/* far-from-origin offsets, in model sizes, along (1, 1, 1) / sqrt 3 */
static const double far_offsets[] = { 0, 1e3, 1e4, 1e5 };
#define NFAR 4
/* the clip: at most this many of its first frames (DIB and every method on
 * each); --quick (which runs the clip only on a --dataset model) fewer */
#define CLIP_MAX_FRAMES 60
#define CLIP_QUICK_FRAMES 10

struct scene {
    struct skb_dataset d;
    double size;        /* model size: the largest side of the rest box */
    double radius;      /* limb radius at the studied joint */
    int joint;          /* the studied joint */
    int closed;         /* every edge in exactly two triangles: volume defined */
};

static int first_child(const struct skb_mesh *m, int j)
{
    for (int c = 0; c < m->njoints; c++)
        if (m->parent[c] == j)
            return c;
    return -1;
}

/* ---- poses ---- */

static void rot_about(const double axis[3], double ang, const double c[3], double out[16])
{
    struct skb_quat q;
    double r[9], t[3];
    skb_quat_from_axis_angle(axis, ang, &q);
    skb_quat_to_mat3(&q, r);
    for (int i = 0; i < 3; i++)
        t[i] = c[i] - (r[3 * i] * c[0] + r[3 * i + 1] * c[1] + r[3 * i + 2] * c[2]);
    skb_mat4_from_rt(r, t, out);
}

static int descends(const struct skb_mesh *m, int k, int j)
{
    for (; k >= 0; k = m->parent[k])
        if (k == j)
            return 1;
    return 0;
}

/* joint j and its descendants bent by ang about j's rest position, about the
 * axis normal to the bone (j -> first child) and the coordinate axis least
 * along it; every other joint at rest */
static void hip_pose(const struct skb_mesh *m, int j, double ang, double *mats)
{
    const double *o = m->joint_rest + 3 * j, *e = m->joint_rest + 3 * first_child(m, j);
    double b[3] = { e[0] - o[0], e[1] - o[1], e[2] - o[2] }, u[3] = { 0, 0, 0 }, ax[3], rot[16];
    int least = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(b[k]) < fabs(b[least]))
            least = k;
    u[least] = 1;
    ax[0] = b[1] * u[2] - b[2] * u[1];
    ax[1] = b[2] * u[0] - b[0] * u[2];
    ax[2] = b[0] * u[1] - b[1] * u[0];
    double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    for (int k = 0; k < 3; k++)
        ax[k] /= n;
    rot_about(ax, ang, o, rot);
    for (int k = 0; k < m->njoints; k++)
        if (descends(m, k, j))
            memcpy(mats + 16 * k, rot, sizeof rot);
        else
            skb_mat4_identity(mats + 16 * k);
}

/* ---- one method on a list of poses ---- */

struct posed {
    int n;                /* poses */
    double *mats;         /* 16 * njoints per pose */
    double *ref;          /* DIB's positions, 3 * nverts per pose (NULL: none) */
};

static int skin_all(const struct skb_method *meth, const struct scene *s, const struct posed *ps,
                    const struct skb_params *prm, double *out, char *msg, size_t msglen)
{
    struct skb_skinner sk;
    size_t nv = (size_t)s->d.mesh.nverts;
    double *nrm = malloc(sizeof(double) * 3 * nv + 1);
    int rc = nrm ? skb_skin_init(&sk, meth, &s->d.mesh, msg, msglen) : SKB_ENOMEM;
    if (rc < 0) {
        if (!nrm)
            snprintf(msg, msglen, "artifacts: out of memory");
        free(nrm);
        return rc;
    }
    for (int k = 0; k < ps->n && rc == 0; k++) {
        struct skb_pose p = { s->d.mesh.njoints, ps->mats + (size_t)16 * s->d.mesh.njoints * k, NULL };
        rc = skb_skin_pose(&sk, &p, prm, out + 3 * nv * k, s->d.mesh.nrm ? nrm : NULL, msg, msglen);
    }
    skb_skin_fini(&sk);
    free(nrm);
    return rc;
}

static cJSON *numbers(const double *x, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, skb_json_number(x[i]));
    return a;
}

/* the distance to DIB at every pose: "dib_rms" and "dib_max" arrays */
static void add_dib(cJSON *mo, const struct scene *s, const struct posed *ps, const double *pos, const char *sfx)
{
    size_t nv = (size_t)s->d.mesh.nverts;
    double *r = malloc(sizeof(double) * 2 * (size_t)ps->n + 1);
    char key[64];
    if (!r || !ps->ref) {
        free(r);
        return;
    }
    for (int k = 0; k < ps->n; k++)
        skb_artifacts_distance((int)nv, pos + 3 * nv * k, ps->ref + 3 * nv * k, s->size, r + k, r + ps->n + k);
    snprintf(key, sizeof key, "dib_rms%s", sfx);
    cJSON_AddItemToObject(mo, key, numbers(r, ps->n));
    snprintf(key, sizeof key, "dib_max%s", sfx);
    cJSON_AddItemToObject(mo, key, numbers(r + ps->n, ps->n));
    free(r);
}

/* ---- the arm ---- */

struct arm_plan {
    int ntwist, nbend, i179, i181, i150;
    double twist[24], bend[16];
};

static void arm_plan(int quick, struct arm_plan *a)
{
    static const double qt[] = { 0, 45, 90, 135, 179, 180, 181 };
    static const double qb[] = { 0, 60, 90, 120, 150 };
    a->ntwist = a->nbend = 0;
    if (quick) {
        memcpy(a->twist, qt, sizeof qt);
        memcpy(a->bend, qb, sizeof qb);
        a->ntwist = 7;
        a->nbend = 5;
    } else {
        for (int t = 0; t <= 180; t += 15) {
            if (t == 180)
                a->twist[a->ntwist++] = 179;
            a->twist[a->ntwist++] = t;
        }
        a->twist[a->ntwist++] = 181;
        for (int b = 0; b <= 150; b += 15)
            a->bend[a->nbend++] = b;
    }
    for (int i = 0; i < a->ntwist; i++) {
        a->i179 = a->twist[i] == 179 ? i : a->i179;
        a->i181 = a->twist[i] == 181 ? i : a->i181;
    }
    a->i150 = a->nbend - 1;
}

/* twist poses, then bend poses, of the arm's elbow */
static int arm_poses(struct scene *s, const struct arm_plan *a, struct posed *ps)
{
    ps->n = a->ntwist + a->nbend;
    ps->mats = malloc(sizeof(double) * 32 * (size_t)ps->n);
    ps->ref = NULL;
    if (!ps->mats)
        return SKB_ENOMEM;
    for (int k = 0; k < ps->n; k++) {
        double tw = k < a->ntwist ? a->twist[k] : 0, bd = k < a->ntwist ? 0 : a->bend[k - a->ntwist];
        skb__arm_pose(&s->d, 0, SKB_PI * tw / 180, SKB_PI * bd / 180);
        memcpy(ps->mats + 32 * k, s->d.poses, sizeof(double) * 32);
    }
    return 0;
}

static int arm_sectors(const struct skb_mesh *m)
{
    int s = 0;
    while (s < m->nverts && m->pos[3 * s] == m->pos[0])
        s++;
    return s;
}

/* one method's arm metrics from its positions at every pose */
static void arm_metrics(cJSON *mo, const struct scene *s, const struct arm_plan *a, const struct posed *ps,
                        const double *pos)
{
    const struct skb_mesh *m = &s->d.mesh;
    size_t nv = (size_t)m->nverts;
    int sectors = arm_sectors(m), rings = m->nverts / sectors, elbow = (rings - 1) / 2;
    double a0 = skb_arm_ring_area(m->pos, elbow, sectors), v0 = skb_arm_tube_volume(m->pos, rings, sectors);
    double x[40], y[40];
    for (int k = 0; k < a->ntwist; k++) {
        x[k] = skb_arm_ring_area(pos + 3 * nv * k, elbow, sectors) / a0;
        y[k] = skb_arm_tube_volume(pos + 3 * nv * k, rings, sectors) / v0;
    }
    cJSON_AddItemToObject(mo, "section_area_ratio", numbers(x, a->ntwist));
    cJSON_AddItemToObject(mo, "volume_ratio_twist", numbers(y, a->ntwist));
    for (int k = 0; k < a->nbend; k++) {
        const double *p = pos + 3 * nv * (a->ntwist + k);
        x[k] = skb_artifacts_bulge(m, s->joint, ps->mats + 32 * (a->ntwist + k), p, s->radius);
        y[k] = skb_arm_tube_volume(p, rings, sectors) / v0;
    }
    cJSON_AddItemToObject(mo, "bulge", numbers(x, a->nbend));
    cJSON_AddItemToObject(mo, "volume_ratio_bend", numbers(y, a->nbend));
    double jump = skb_artifacts_max_jump((int)nv, pos + 3 * nv * a->i179, pos + 3 * nv * a->i181, s->size);
    skb_json_add_number(mo, "flip_jump", jump);
    cJSON_AddBoolToObject(mo, "flipped", jump > FLIP_RADII * s->radius / s->size);
    cJSON_AddNumberToObject(mo, "self_intersections",
                            (double)skb_artifacts_self_intersections(m->tris, m->ntris, pos + 3 * nv * (a->ntwist + a->i150)));
    add_dib(mo, s, ps, pos, "");
}

/* ---- per-method loop shared by the scenes ---- */

typedef void (*metrics_fn)(cJSON *mo, const struct scene *s, const void *plan, const struct posed *ps, const double *pos);

static void arm_metrics_v(cJSON *mo, const struct scene *s, const void *plan, const struct posed *ps, const double *pos)
{
    arm_metrics(mo, s, (const struct arm_plan *)plan, ps, pos);
}

/* every registry method with a skin path on the scene's poses; DIB's
 * positions first (the reference of every row) */
/* the painted variant of a method whose skin reads per-vertex weights,
 * keyed "<name>+painted" (a label variant, common/skb_label.h) */
static void painted_row(const struct skb_run_ctx *ctx, const struct scene *s, const struct posed *ps, const void *plan,
                        metrics_fn fn, cJSON *ms, const struct skb_method *meth, const skb_real *painted, double *pos)
{
    struct skb_params prm = ctx->params;
    char key[96], title[160], why[512];
    prm.lbs_dqs_painted = painted;
    snprintf(key, sizeof key, "%s+painted", meth->name);
    snprintf(title, sizeof title, "%s, painted at the joint", meth->title);
    cJSON *mo = cJSON_AddObjectToObject(ms, key);
    cJSON_AddStringToObject(mo, "title", title);
    if (skin_all(meth, s, ps, &prm, pos, why, sizeof why) < 0)
        cJSON_AddStringToObject(mo, "not_run", why);
    else
        fn(mo, s, plan, ps, pos);
}

/* every method on the scene's poses; painted (NULL: none) adds the painted
 * variant of the methods that read painted weights */
static int scene_methods(const struct skb_run_ctx *ctx, struct scene *s, struct posed *ps, const void *plan,
                         metrics_fn fn, cJSON *ms, const char *label, const skb_real *painted)
{
    const struct skb_method *ref = skb_method_with_flag(SKB_MF_HEAT_REF);
    size_t len = (size_t)3 * s->d.mesh.nverts * ps->n;
    double *pos = malloc(sizeof(double) * len + 1);
    char why[512];
    if (!pos)
        return SKB_ENOMEM;
    ps->ref = ref && ref->skin ? malloc(sizeof(double) * len + 1) : NULL;
    if (ps->ref && skin_all(ref, s, ps, &ctx->params, ps->ref, why, sizeof why) < 0) {
        free(ps->ref);
        ps->ref = NULL;
    }
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *meth = skb_methods[i];
        if (!skb_run_wants_method(ctx, meth))
            continue;
        skb_run_progress(ctx, "artifacts", "%s: %s", label, meth->name);
        cJSON *mo = cJSON_AddObjectToObject(ms, meth->name);
        cJSON_AddStringToObject(mo, "title", meth->title);
        if (!meth->skin)
            cJSON_AddStringToObject(mo, "not_run", "no skin path (blend-only method)");
        else if (skin_all(meth, s, ps, &ctx->params, pos, why, sizeof why) < 0)
            cJSON_AddStringToObject(mo, "not_run", why);
        else
            fn(mo, s, plan, ps, pos);
        if (painted && meth->skin && (meth->flags & SKB_MF_PAINTED))
            painted_row(ctx, s, ps, plan, fn, ms, meth, painted, pos);
    }
    free(pos);
    free(ps->ref);
    ps->ref = NULL;
    return 0;
}

static int load_scene(const struct skb_run_ctx *ctx, const char *name, struct scene *s, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { .seed = ctx->seed, .quick = ctx->quick, .subdivide = 0 };
    memset(s, 0, sizeof *s);
    int rc = skb_run_dataset_load(ctx, name, &o, &s->d, msg, msglen);
    if (rc < 0)
        return rc;
    s->size = skb_artifacts_model_size(&s->d.mesh);
    s->closed = skb_artifacts_mesh_closed(&s->d.mesh);
    return 0;
}

static int run_arm(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    struct scene s;
    struct arm_plan a;
    struct posed ps;
    int rc = load_scene(ctx, "arm", &s, msg, msglen);
    if (rc < 0)
        return rc;
    arm_plan(ctx->quick, &a);
    s.joint = 1;
    s.radius = skb_artifacts_limb_radius(&s.d.mesh, 1);
    if ((rc = arm_poses(&s, &a, &ps)) == 0) {
        cJSON *o = cJSON_AddObjectToObject(root, "arm");
        cJSON_AddStringToObject(o, "source", s.d.source);
        skb_json_add_number(o, "model_size", s.size);
        skb_json_add_number(o, "limb_radius", s.radius);
        cJSON_AddItemToObject(o, "twist_deg", numbers(a.twist, a.ntwist));
        cJSON_AddItemToObject(o, "bend_deg", numbers(a.bend, a.nbend));
        cJSON_AddNumberToObject(o, "intersection_bend_deg", a.bend[a.i150]);
        cJSON_AddNumberToObject(o, "rest_self_intersections",
                                (double)skb_artifacts_self_intersections(s.d.mesh.tris, s.d.mesh.ntris, s.d.mesh.pos));
        skb_json_add_number(o, "flip_threshold", FLIP_RADII * s.radius / s.size);
        skb_real *paint = malloc(sizeof(skb_real) * (size_t)s.d.mesh.nverts + 1);
        if (paint && skb_lbs_dqs_paint_near_joint(&s.d.mesh, s.joint, PAINT_RADII * s.radius, paint) == 0)
            skb_json_add_number(o, "paint_radius_limb_radii", PAINT_RADII);
        else {
            free(paint);
            paint = NULL;
        }
        rc = scene_methods(ctx, &s, &ps, &a, arm_metrics_v, cJSON_AddObjectToObject(o, "methods"), "arm", paint);
        free(paint);
    }
    free(ps.mats);
    skb_dataset_free(&s.d);
    return rc;
}

/* ---- the body's hip ---- */

/* the arm's bends where the bulge is reported, and the self-intersection bend */
static const double body_bends[] = { 60, 90, 120, 150 };
#define NBODY 4

/* the hip: the first joint two levels below a root that has a child (in the
 * CMU skeleton, LeftUpLeg below LHipJoint below Hips) */
static int body_hip(const struct skb_mesh *m)
{
    for (int j = 0; j < m->njoints; j++)
        if (m->parent[j] >= 0 && m->parent[m->parent[j]] >= 0 && m->parent[m->parent[m->parent[j]]] < 0
            && first_child(m, j) >= 0)
            return j;
    return -1;
}

static void body_metrics(cJSON *mo, const struct scene *s, const void *plan, const struct posed *ps, const double *pos)
{
    const struct skb_mesh *m = &s->d.mesh;
    size_t nv = (size_t)m->nverts;
    double b[NBODY], vol[NBODY], x[NBODY], v0 = s->closed ? skb_artifacts_mesh_volume(m, m->pos) : NAN;
    double two[NBODY], more[NBODY];
    for (int k = 0; k < ps->n; k++) {
        double w[2];
        int n[2];
        b[k] = skb_artifacts_bulge(m, s->joint, ps->mats + (size_t)16 * m->njoints * k, pos + 3 * nv * k, s->radius);
        skb_artifacts_bulge_split(m, s->joint, ps->mats + (size_t)16 * m->njoints * k, pos + 3 * nv * k, s->radius, w, n);
        two[k] = w[0];
        more[k] = w[1];
        vol[k] = s->closed ? skb_artifacts_mesh_volume(m, pos + 3 * nv * k) / v0 : NAN;
        x[k] = (double)skb_artifacts_self_intersections(m->tris, m->ntris, pos + 3 * nv * k);
    }
    cJSON_AddItemToObject(mo, "bulge", numbers(b, ps->n));
    /* why a method's bulge differs from the arm's: the hip's vertices split
     * by whether a third joint (pelvis, spine) also weighs on them */
    cJSON_AddItemToObject(mo, "bulge_joint_and_parent", numbers(two, ps->n));
    cJSON_AddItemToObject(mo, "bulge_other_joints", numbers(more, ps->n));
    if (s->closed)
        cJSON_AddItemToObject(mo, "volume_ratio", numbers(vol, ps->n));
    cJSON_AddItemToObject(mo, "self_intersections", numbers(x, ps->n));
    add_dib(mo, s, ps, pos, "");
}

static int run_body(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    struct scene s;
    struct posed ps = { NBODY, NULL, NULL };
    int rc = load_scene(ctx, "body", &s, msg, msglen);
    if (rc < 0)
        return rc;
    cJSON *o = cJSON_AddObjectToObject(root, "body");
    s.joint = s.d.mesh.parent && s.d.mesh.joint_rest ? body_hip(&s.d.mesh) : -1;
    if (s.joint < 0) {
        cJSON_AddStringToObject(o, "not_run", "the body rig has no joint two levels below its root with a child");
        skb_dataset_free(&s.d);
        return 0;
    }
    s.radius = skb_artifacts_limb_radius(&s.d.mesh, s.joint);
    ps.mats = malloc(sizeof(double) * 16 * (size_t)s.d.mesh.njoints * NBODY);
    if (!ps.mats) {
        skb_dataset_free(&s.d);
        return SKB_ENOMEM;
    }
    for (int k = 0; k < NBODY; k++)
        hip_pose(&s.d.mesh, s.joint, SKB_PI * body_bends[k] / 180, ps.mats + (size_t)16 * s.d.mesh.njoints * k);
    cJSON_AddStringToObject(o, "source", s.d.source);
    cJSON_AddNumberToObject(o, "joint", s.joint);
    cJSON_AddNumberToObject(o, "vertices", s.d.mesh.nverts);
    skb_json_add_number(o, "model_size", s.size);
    skb_json_add_number(o, "limb_radius", s.radius);
    cJSON_AddBoolToObject(o, "closed", s.closed);
    cJSON_AddItemToObject(o, "bend_deg", numbers(body_bends, NBODY));
    double w[2];
    int n[2];
    skb_artifacts_bulge_split(&s.d.mesh, s.joint, ps.mats, s.d.mesh.pos, s.radius, w, n);
    cJSON_AddNumberToObject(o, "vertices_joint_and_parent", n[0]);
    cJSON_AddNumberToObject(o, "vertices_other_joints", n[1]);
    cJSON_AddNumberToObject(o, "rest_self_intersections",
                            (double)skb_artifacts_self_intersections(s.d.mesh.tris, s.d.mesh.ntris, s.d.mesh.pos));
    rc = scene_methods(ctx, &s, &ps, NULL, body_metrics, cJSON_AddObjectToObject(o, "methods"), "body", NULL);
    free(ps.mats);
    skb_dataset_free(&s.d);
    return rc;
}

/* ---- bcn_human's clip ---- */

/* the largest jump of a vertex between neighbouring frames, and the largest
 * excess of it over DIB's jump of the same vertex and frames (a flip is a
 * jump the exact blend does not make), in model sizes */
static void clip_metrics(cJSON *mo, const struct scene *s, const void *plan, const struct posed *ps, const double *pos)
{
    size_t nv = (size_t)s->d.mesh.nverts;
    double jump = 0, excess = 0, rms = 0, mx = 0;
    for (int k = 1; k < ps->n; k++)
        for (size_t v = 0; v < nv; v++) {
            double d = 0, e = 0;
            for (int i = 0; i < 3; i++) {
                double a = pos[3 * (nv * k + v) + i] - pos[3 * (nv * (k - 1) + v) + i];
                double b = ps->ref ? ps->ref[3 * (nv * k + v) + i] - ps->ref[3 * (nv * (k - 1) + v) + i] : 0;
                d += a * a;
                e += b * b;
            }
            jump = fmax(jump, sqrt(d));
            excess = fmax(excess, sqrt(d) - sqrt(e));
        }
    skb_json_add_number(mo, "max_jump", jump / s->size);
    if (ps->ref)
        skb_json_add_number(mo, "max_excess_jump", excess / s->size);
    for (int k = 0; k < ps->n && ps->ref; k++) {
        double r, m;
        skb_artifacts_distance((int)nv, pos + 3 * nv * k, ps->ref + 3 * nv * k, s->size, &r, &m);
        rms = fmax(rms, r);
        mx = fmax(mx, m);
    }
    if (ps->ref) {
        skb_json_add_number(mo, "dib_rms_worst_frame", rms);
        skb_json_add_number(mo, "dib_max", mx);
    }
}

static int run_clip(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    struct scene s;
    const char *name = skb_run_dataset(ctx, "bcn_human");
    int rc = load_scene(ctx, name, &s, msg, msglen), cap = ctx->quick ? CLIP_QUICK_FRAMES : CLIP_MAX_FRAMES;
    cJSON *o = cJSON_AddObjectToObject(root, "clip");
    cJSON_AddStringToObject(o, "dataset", name);
    if (rc < 0) {
        cJSON_AddStringToObject(o, "not_run", msg);
        return 0;
    }
    struct posed ps = { s.d.nposes < cap ? s.d.nposes : cap, s.d.poses, NULL };
    cJSON_AddStringToObject(o, "source", s.d.source);
    cJSON_AddNumberToObject(o, "frames", ps.n);
    cJSON_AddNumberToObject(o, "clip_frames", s.d.nposes);
    cJSON_AddNumberToObject(o, "vertices", s.d.mesh.nverts);
    skb_json_add_number(o, "model_size", s.size);
    rc = scene_methods(ctx, &s, &ps, NULL, clip_metrics, cJSON_AddObjectToObject(o, "methods"), name, NULL);
    skb_dataset_free(&s.d);
    return rc;
}

/* ---- f32 precision far from the origin ---- */

/* the arm posed (elbow twisted and bent 90 degrees) and moved off by `off`
 * model units along (1, 1, 1) / sqrt 3 */
static void far_pose(struct skb_dataset *d, double off, double mats[32])
{
    skb__arm_pose(d, 0, SKB_PI / 2, SKB_PI / 2);
    memcpy(mats, d->poses, sizeof(double) * 32);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++)
            mats[16 * j + 4 * i + 3] += off / sqrt(3.0);
}

/* the f32 kernel's largest error against the method's double path at every
 * offset, in model sizes; and the float output's own rounding there (half
 * an ulp of the largest coordinate) */
static int far_offsets_run(const struct skb_run_ctx *ctx, struct skb_skinner *sk, struct skb_skinner_f32 *f,
                           struct scene *s, double *err, double *floor_, char *msg, size_t msglen)
{
    size_t nv = (size_t)s->d.mesh.nverts;
    double *pd = malloc(sizeof(double) * 6 * nv + 1), mats[32];
    float *pf = malloc(sizeof(float) * 6 * nv + 1);
    int rc = pd && pf ? 0 : SKB_ENOMEM;
    for (int k = 0; k < NFAR && rc == 0; k++) {
        double big = 0, e = 0;
        far_pose(&s->d, far_offsets[k] * s->size, mats);
        struct skb_pose p = { 2, mats, NULL };
        rc = skb_skin_pose(sk, &p, &ctx->params, pd, s->d.mesh.nrm ? pd + 3 * nv : NULL, msg, msglen);
        if (rc == 0)
            rc = skb_skin_f32_pose(f, &p, &ctx->params, pf, pf + 3 * nv, msg, msglen);
        for (size_t v = 0; v < 3 * nv && rc == 0; v++) {
            e = fmax(e, fabs((double)pf[v] - pd[v]));
            big = fmax(big, fabs(pd[v]));
        }
        err[k] = e / s->size;
        floor_[k] = (nextafterf((float)big, INFINITY) - (float)big) / 2 / s->size;
    }
    if (rc == SKB_ENOMEM)
        snprintf(msg, msglen, "out of memory");
    free(pd);
    free(pf);
    return rc;
}

static int far_method(const struct skb_run_ctx *ctx, const struct skb_method *meth, struct scene *s, cJSON *mo,
                      char *msg, size_t msglen)
{
    struct skb_skinner_f32 f;
    struct skb_skinner sk;
    double err[NFAR], floor_[NFAR];
    int rc = skb_skin_f32_init(&f, meth, &s->d.mesh, msg, msglen);
    if (rc < 0)
        return rc;
    if ((rc = skb_skin_init(&sk, meth, &s->d.mesh, msg, msglen)) == 0) {
        rc = far_offsets_run(ctx, &sk, &f, s, err, floor_, msg, msglen);
        skb_skin_fini(&sk);
    }
    skb_skin_f32_fini(&f);
    if (rc == 0) {
        cJSON_AddItemToObject(mo, "f32_error", numbers(err, NFAR));
        cJSON_AddItemToObject(mo, "f32_rounding_floor", numbers(floor_, NFAR));
    }
    return rc;
}

static int run_far(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    struct scene s;
    int rc = load_scene(ctx, "arm", &s, msg, msglen);
    if (rc < 0)
        return rc;
    cJSON *o = cJSON_AddObjectToObject(root, "precision");
    cJSON_AddItemToObject(o, "offset_model_sizes", numbers(far_offsets, NFAR));
    cJSON_AddStringToObject(o, "pose", "arm, elbow twisted 90 and bent 90 degrees, every joint translated by the "
                                       "offset along (1,1,1)/sqrt 3; the rest mesh at the origin");
    cJSON *ms = cJSON_AddObjectToObject(o, "methods");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *meth = skb_methods[i];
        char why[512];
        if (!skb_run_wants_method(ctx, meth))
            continue;
        cJSON *mo = cJSON_AddObjectToObject(ms, meth->name);
        if (!meth->f32 || !meth->skin)
            cJSON_AddStringToObject(mo, "not_run", "no f32 kernel");
        else if (far_method(ctx, meth, &s, mo, why, sizeof why) < 0)
            cJSON_AddStringToObject(mo, "not_run", why);
    }
    skb_dataset_free(&s.d);
    return 0;
}

static int run_artifacts(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    const struct skb_schema *schema = &skb_schema_artifacts;
    cJSON *root = skb_json_results_new(ctx, "artifacts");
    int rc = root && schema ? 0 : SKB_ENOMEM;
    if (rc == 0)
        rc = run_arm(ctx, root, msg, msglen);
    if (rc == 0 && !ctx->quick)
        rc = run_body(ctx, root, msg, msglen);
    if (rc == 0 && (!ctx->quick || ctx->dataset_file))
        rc = run_clip(ctx, root, msg, msglen);
    if (rc == 0)
        rc = run_far(ctx, root, msg, msglen);
    if (rc == 0)
        rc = skb_results_write(ctx, schema, root, msg, msglen);
    else if (rc == SKB_ENOMEM && !msg[0])
        snprintf(msg, msglen, "artifacts: out of memory");
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_artifacts = {
    .name = "artifacts",
    .description = "candy wrapper, joint bulge, volume, flipping, self-intersections, distance to DIB and f32 "
                   "precision far from the origin, per skinning method",
    .run = run_artifacts,
    .takes_dataset = 1,
    .dataset_note = "the clip scene runs on its first frames (also under --quick); the arm and the body's hip stay",
};
