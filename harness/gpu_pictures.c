/* gpu_pictures.c — the pictures a reader of the papers expects:
 * the same poses side by side for every method of the registry (elbow twist
 * 0-180 degrees: the candy wrapper; a bent elbow; a real character), and a
 * per-vertex error heat map against DIB, the thesis's reference blend (4.3).
 * Each method skins on the CPU (its double-precision skin path); the headless
 * GL context only draws the result (gpu/gpu_draw.c), so a method without a
 * shader gets its picture, and a new method gets its row with no edit. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_pictures.h"
#include "procedural.h"

#define PIC_SIZE_FULL 384
#define PIC_SIZE_QUICK 192
/* the heat map's reference: DIB converges to the bi-invariant blend the
 * thesis (4.3) takes as the rigid-blending ideal */
#define HEAT_REFERENCE skb_method_role_name(SKB_MF_HEAT_REF)
#define MAX_METHODS 64

struct scene {
    char name[96];
    char caption[240];
    struct skb_dataset d;
    int pose;
    int stripe;                /* colour a seam along the bone axis (x): a twist shows as a spiral */
};

/* every method's skinned positions and normals for one scene */
struct scene_out {
    int nmeth;
    const struct skb_method *meth[MAX_METHODS];
    double *pos[MAX_METHODS];  /* 6*nverts: positions then normals; NULL: not drawn */
    char why[MAX_METHODS][256];
};

static int arm_scene(const struct skb_run_ctx *ctx, struct scene *s, double twist_deg, double bend_deg,
                     char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { .seed = ctx->seed, .quick = ctx->quick, .subdivide = 0 };
    int rc = skb_run_dataset_load(ctx, "arm", &o, &s->d, msg, msglen);
    if (rc < 0)
        return rc;
    skb__arm_pose(&s->d, 0, SKB_PI * twist_deg / 180, SKB_PI * bend_deg / 180);
    s->pose = 0;
    s->stripe = 1;
    if (bend_deg == 0)
        snprintf(s->name, sizeof s->name, "arm_twist_%03.0f", twist_deg);
    else
        snprintf(s->name, sizeof s->name, "arm_twist_%03.0f_bend_%03.0f", twist_deg, bend_deg);
    skb_caption_arm(s->caption, sizeof s->caption, SKB_PI * twist_deg / 180, SKB_PI * bend_deg / 180, 0);
    return 0;
}

void skb_caption_arm(char *buf, size_t len, double twist, double bend, int scaled)
{
    const char *scale = scaled ? "forearm 1.5× across, " : "";
    double tw = twist * 180 / SKB_PI, bd = bend * 180 / SKB_PI;
    if (bend == 0)
        snprintf(buf, len, "arm, %selbow twisted %.0f°", scale, tw);
    else
        snprintf(buf, len, "arm, %selbow twisted %.0f° and bent %.0f°", scale, tw, bd);
}

/* the largest rotation angle (degrees) of any joint's matrix C_j of pose k
 * away from the rest pose: what a character caption states as its angle */
static double largest_joint_angle(const struct skb_dataset *d, int k)
{
    struct skb_pose pose;
    double worst = 0;
    skb_dataset_pose(d, k, &pose);
    for (int j = 0; j < pose.njoints; j++) {
        const skb_real *m = pose.mats + 16 * j;
        double c = (m[0] + m[5] + m[10] - 1) / 2;   /* trace = 1 + 2 cos(angle) */
        worst = fmax(worst, acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180 / SKB_PI);
    }
    return worst;
}

void skb_caption_character(char *buf, size_t len, const char *name, const struct skb_dataset *d, int pose)
{
    snprintf(buf, len, "%.120s, pose %d of %d, largest joint rotation %.0f°", name, pose, d->nposes,
             largest_joint_angle(d, pose));
}

/* run --dataset: the user's model mid-clip (its name made file-safe: it
 * names image files); 0 with a note when it does not load */
static int user_scene(const struct skb_run_ctx *ctx, const struct skb_dataset_opts *o, struct scene *s, cJSON *notes)
{
    char lmsg[512], line[800];
    if (skb_run_dataset_load(ctx, ctx->dataset_file, o, &s->d, lmsg, sizeof lmsg) < 0) {
        snprintf(line, sizeof line, "character scene: %s", lmsg);
        cJSON_AddItemToArray(notes, cJSON_CreateString(line));
        return 0;
    }
    s->pose = s->d.nposes / 2;
    snprintf(s->name, sizeof s->name, "character_%.80s", s->d.name);
    for (char *c = s->name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
            *c = '_';
    skb_caption_character(s->caption, sizeof s->caption, s->d.name, &s->d, s->pose);
    return 1;
}

/* the first real model of the default set, mid-clip; 0 with no scene when none loads */
static int character_scene(const struct skb_run_ctx *ctx, struct scene *s, cJSON *notes)
{
    struct skb_dataset_opts o = { .seed = ctx->seed, .quick = ctx->quick, .subdivide = 0 };
    if (ctx->dataset_file)
        return user_scene(ctx, &o, s, notes);
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *src = skb_dataset_sources[i];
        char lmsg[512], line[800];
        if (strcmp(src->kind, "real") != 0 || !src->in_default_set)
            continue;
        if (src->load(&o, &s->d, lmsg, sizeof lmsg) < 0) {
            snprintf(line, sizeof line, "character scene: %s did not load: %s", src->name, lmsg);
            cJSON_AddItemToArray(notes, cJSON_CreateString(line));
            continue;
        }
        if (s->d.nposes > 0) {
            s->pose = s->d.nposes / 2;
            snprintf(s->name, sizeof s->name, "character_%s", src->name);
            skb_caption_character(s->caption, sizeof s->caption, src->name, &s->d, s->pose);
            return 1;
        }
        skb_dataset_free(&s->d);
    }
    cJSON_AddItemToArray(notes, cJSON_CreateString("character scene: no real model with a clip in the default set"));
    return 0;
}

static int skin_one(const struct skb_method *meth, const struct scene *s, const struct skb_params *prm,
                    double *out, char *why, size_t whylen)
{
    struct skb_skinner sk;
    struct skb_pose pose;
    size_t nv = (size_t)s->d.mesh.nverts;
    int rc;
    if (!meth->skin) {
        snprintf(why, whylen, "no skin path (blend-only method)");
        return SKB_ENOTSUP;
    }
    if ((rc = skb_skin_init(&sk, meth, &s->d.mesh, why, whylen)) < 0)
        return rc;
    skb_dataset_pose(&s->d, s->pose, &pose);
    rc = skb_skin_pose(&sk, &pose, prm, out, s->d.mesh.nrm ? out + 3 * nv : NULL, why, whylen);
    skb_skin_fini(&sk);
    if (rc == 0 && !s->d.mesh.nrm)
        memset(out + 3 * nv, 0, sizeof(double) * 3 * nv);
    return rc;
}

static void scene_out_free(struct scene_out *so)
{
    for (int i = 0; i < so->nmeth; i++)
        free(so->pos[i]);
    so->nmeth = 0;
}

static int skin_all(const struct skb_run_ctx *ctx, const struct scene *s, struct scene_out *so, char *msg,
                    size_t msglen)
{
    size_t nv = (size_t)s->d.mesh.nverts;
    memset(so, 0, sizeof *so);
    for (int i = 0; skb_methods[i]; i++) {
        if (!skb_run_wants_method(ctx, skb_methods[i]))
            continue;
        if (so->nmeth == MAX_METHODS) {   /* the registry outgrew the grid: fail loudly */
            snprintf(msg, msglen, "pictures: more than %d methods; raise MAX_METHODS in %s", MAX_METHODS, __FILE__);
            return SKB_EINVAL;
        }
        int k = so->nmeth++;
        so->meth[k] = skb_methods[i];
        so->pos[k] = (double *)malloc(sizeof(double) * 6 * nv + 1);
        if (!so->pos[k]) {
            snprintf(msg, msglen, "pictures: out of memory");
            return SKB_ENOMEM;
        }
        if (skin_one(so->meth[k], s, &ctx->params, so->pos[k], so->why[k], sizeof so->why[k]) < 0) {
            free(so->pos[k]);
            so->pos[k] = NULL;
        }
    }
    return 0;
}

/* one camera for a scene: the box around every method's result */
static void scene_bounds(const struct scene_out *so, int nv, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
    }
    for (int k = 0; k < so->nmeth; k++)
        for (int v = 0; so->pos[k] && v < nv; v++)
            for (int i = 0; i < 3; i++) {
                lo[i] = fmin(lo[i], so->pos[k][3 * v + i]);
                hi[i] = fmax(hi[i], so->pos[k][3 * v + i]);
            }
}

/* blue (0) -> green -> yellow -> red (1): distinct for colour-blind readers at the ends */
void skb_heat_colour(double t, float rgb[3])
{
    static const float stops[4][3] = { { 0.15f, 0.25f, 0.85f }, { 0.2f, 0.75f, 0.35f },
                                       { 0.95f, 0.85f, 0.2f }, { 0.85f, 0.1f, 0.1f } };
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double x = 3 * t;
    int i = x >= 3 ? 2 : (int)x;
    double f = x - i;
    for (int c = 0; c < 3; c++)
        rgb[c] = (float)((1 - f) * stops[i][c] + f * stops[i + 1][c]);
}

struct draw_ctx {
    const struct skb_run_ctx *ctx;
    struct skb_gpu *g;
    struct skb_gpu_draw prog;
    int size;
    char dir[PATH_MAX];        /* <out>/images/methods */
    cJSON *images, *not_drawn;
};

/* draw method k of a scene; rgb NULL: flat grey-blue like the shader pictures */
static int draw_one(struct draw_ctx *dc, const struct scene *s, const struct scene_out *so, int k,
                    const float *rgb, const char *kind, const double lo[3], const double hi[3],
                    char *msg, size_t msglen)
{
    const struct skb_mesh *m = &s->d.mesh;
    size_t nv = (size_t)m->nverts;
    float *f = (float *)malloc(sizeof(float) * 9 * nv + 1);
    char path[PATH_MAX + 300], rel[400];
    int rc;
    if (!f) {
        snprintf(msg, msglen, "pictures: out of memory");
        return SKB_ENOMEM;
    }
    for (size_t i = 0; i < 6 * nv; i++)
        f[i] = (float)so->pos[k][i];
    for (size_t v = 0; v < nv; v++)
        for (int c = 0; c < 3; c++)
            f[6 * nv + 3 * v + c] = rgb ? rgb[3 * v + c] : (c == 0 ? 0.55f : c == 1 ? 0.65f : 0.85f);
    struct skb_gpu_draw_mesh dm = { m->nverts, m->ntris, f, f + 3 * nv, f + 6 * nv, m->tris };
    snprintf(rel, sizeof rel, "images/methods/%s%s_%s.png", s->name, kind, so->meth[k]->name);
    snprintf(path, sizeof path, "%s/%s", dc->ctx->out_dir, rel);
    rc = skb_gpu_draw_png(dc->g, &dc->prog, &dm, lo, hi, dc->size, dc->size, path, msg, msglen);
    free(f);
    if (rc < 0)
        return rc;
    cJSON *img = cJSON_CreateObject();
    cJSON_AddStringToObject(img, "method", so->meth[k]->name);
    cJSON_AddStringToObject(img, "title", so->meth[k]->title);
    cJSON_AddStringToObject(img, "scene", s->name);
    cJSON_AddStringToObject(img, "kind", *kind ? "error_heat_map" : "deformation");
    cJSON_AddStringToObject(img, "caption", s->caption);
    cJSON_AddStringToObject(img, "file", rel);
    cJSON_AddItemToArray(dc->images, img);
    return 0;
}

static void add_not_drawn(struct draw_ctx *dc, const struct scene *s, const struct scene_out *so, int k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "method", so->meth[k]->name);
    cJSON_AddStringToObject(o, "scene", s->name);
    cJSON_AddStringToObject(o, "reason", so->why[k]);
    cJSON_AddItemToArray(dc->not_drawn, o);
}

/* per-vertex colours of the arm: a seam where the rest-pose angle about the
 * bone axis (x) is within 25 deg of 45 deg from +y toward +z (the side the
 * camera sees, so the untwisted seam is in view), grey-blue elsewhere; on an
 * untextured cylinder a twist is otherwise invisible, with the seam it
 * shows as a spiral (DQ paper Fig. 2 draws a textured arm for the same reason) */
static void stripe_colours(const struct skb_mesh *m, float *rgb)
{
    static const float plain[3] = { 0.55f, 0.65f, 0.85f }, seam[3] = { 0.95f, 0.45f, 0.05f };
    for (int v = 0; v < m->nverts; v++) {
        double a = atan2(m->pos[3 * v + 2], m->pos[3 * v + 1]) * 180 / SKB_PI;
        const float *c = fabs(a - 45) <= 25 ? seam : plain;
        memcpy(rgb + 3 * v, c, sizeof plain);
    }
}

static int draw_scene(struct draw_ctx *dc, const struct scene *s, const struct scene_out *so, char *msg,
                      size_t msglen)
{
    double lo[3], hi[3];
    float *rgb = s->stripe ? (float *)malloc(sizeof(float) * 3 * (size_t)s->d.mesh.nverts + 1) : NULL;
    if (s->stripe && !rgb) {
        snprintf(msg, msglen, "pictures: out of memory");
        return SKB_ENOMEM;
    }
    if (rgb)
        stripe_colours(&s->d.mesh, rgb);
    scene_bounds(so, s->d.mesh.nverts, lo, hi);
    int rc = 0;
    for (int k = 0; k < so->nmeth && rc == 0; k++) {
        rc = so->pos[k] ? draw_one(dc, s, so, k, rgb, "", lo, hi, msg, msglen) : 0;
        if (!so->pos[k])
            add_not_drawn(dc, s, so, k);
    }
    free(rgb);
    return rc;
}

static double model_size(const struct skb_mesh *m)
{
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY }, s = 0;
    for (int v = 0; v < m->nverts; v++)
        for (int i = 0; i < 3; i++) {
            lo[i] = fmin(lo[i], m->pos[3 * v + i]);
            hi[i] = fmax(hi[i], m->pos[3 * v + i]);
        }
    for (int i = 0; i < 3; i++)
        s = fmax(s, hi[i] - lo[i]);
    return s;
}

/* per-vertex distance to the reference's vertex, in model sizes */
static void vertex_errors(const double *a, const double *ref, int nv, double size, double *err)
{
    for (int v = 0; v < nv; v++) {
        double d[3] = { a[3 * v] - ref[3 * v], a[3 * v + 1] - ref[3 * v + 1], a[3 * v + 2] - ref[3 * v + 2] };
        err[v] = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / size;
    }
}

static int find_method(const struct scene_out *so, const char *name)
{
    for (int k = 0; k < so->nmeth; k++)
        if (strcmp(so->meth[k]->name, name) == 0 && so->pos[k])
            return k;
    return -1;
}

/* one colour scale for every method: 0 .. the largest error of any method */
static double heat_scale(const struct scene_out *so, int ref, int nv, double size, double *err, cJSON *ms)
{
    double scale = 0;
    for (int k = 0; k < so->nmeth; k++) {
        if (!so->pos[k])
            continue;
        vertex_errors(so->pos[k], so->pos[ref], nv, size, err);
        double mx = 0;
        for (int v = 0; v < nv; v++)
            mx = fmax(mx, err[v]);
        cJSON *o = cJSON_AddObjectToObject(ms, so->meth[k]->name);
        skb_json_add_number(o, "max_rel", mx);
        skb_json_add_number(o, "median_rel", skb_median(err, nv));
        scale = fmax(scale, mx);
    }
    return scale;
}

static int heat_maps(struct draw_ctx *dc, const struct scene *s, const struct scene_out *so, cJSON *root,
                     char *msg, size_t msglen)
{
    int nv = s->d.mesh.nverts, ref = find_method(so, HEAT_REFERENCE), rc = 0;
    cJSON *hm = cJSON_AddObjectToObject(root, "heat_map");
    cJSON_AddStringToObject(hm, "scene", s->name);
    cJSON_AddStringToObject(hm, "caption", s->caption);
    cJSON_AddStringToObject(hm, "reference", HEAT_REFERENCE);
    if (ref < 0) {
        char why[96];
        snprintf(why, sizeof why, "the reference method %s did not skin this scene", HEAT_REFERENCE);
        cJSON_AddStringToObject(hm, "not_run", why);
        return 0;
    }
    double size = model_size(&s->d.mesh), lo[3], hi[3];
    double *err = (double *)malloc(sizeof(double) * (size_t)nv + 1);
    float *rgb = (float *)malloc(sizeof(float) * 3 * (size_t)nv + 1);
    if (!err || !rgb) {
        free(err);
        free(rgb);
        snprintf(msg, msglen, "pictures: out of memory");
        return SKB_ENOMEM;
    }
    cJSON *ms = cJSON_AddObjectToObject(hm, "methods");
    double scale = heat_scale(so, ref, nv, size, err, ms);
    skb_json_add_number(hm, "model_size", size);
    skb_json_add_number(hm, "scale_max_rel", scale);
    cJSON_AddStringToObject(hm, "colour_scale", "per-vertex distance to the reference vertex / model size: "
                            "blue 0, green, yellow, red = scale_max_rel (one scale for every method)");
    scene_bounds(so, nv, lo, hi);
    for (int k = 0; k < so->nmeth && rc == 0; k++) {
        if (!so->pos[k])
            continue;
        vertex_errors(so->pos[k], so->pos[ref], nv, size, err);
        for (int v = 0; v < nv; v++)
            skb_heat_colour(scale > 0 ? err[v] / scale : 0, rgb + 3 * v);
        rc = draw_one(dc, s, so, k, rgb, "_error", lo, hi, msg, msglen);
    }
    free(err);
    free(rgb);
    return rc;
}

/* scene i of the grid; 0 = loaded, 1 = none (end of list or no character) */
static int load_scene(const struct skb_run_ctx *ctx, int i, struct scene *s, cJSON *notes, char *msg,
                      size_t msglen)
{
    /* twist 0-180 (candy wrapper at 180, DQ paper Fig. 2), a bent elbow
     * (collapsing elbow, thesis Fig. 2.5), both at once, a real character */
    static const double arm[][2] = { { 0, 0 }, { 90, 0 }, { 135, 0 }, { 180, 0 }, { 0, 120 }, { 135, 60 } };
    int narm = (int)(sizeof arm / sizeof arm[0]);
    memset(s, 0, sizeof *s);
    if (i < narm)
        return arm_scene(ctx, s, arm[i][0], arm[i][1], msg, msglen) < 0 ? -1 : 0;
    if (i == narm)
        return character_scene(ctx, s, notes) ? 0 : 1;
    return 1;
}

#define HEAT_SCENE 5   /* twist 135 + bend 60: both artifacts in one pose */

int skb_method_pictures(const struct skb_run_ctx *ctx, struct skb_gpu *g, const char *shader_dir,
                        cJSON *root, char *msg, size_t msglen)
{
    struct draw_ctx dc = { .ctx = ctx, .g = g, .size = ctx->quick ? PIC_SIZE_QUICK : PIC_SIZE_FULL };
    cJSON *mp = cJSON_AddObjectToObject(root, "method_pictures");
    cJSON *scenes = cJSON_AddArrayToObject(mp, "scenes"), *notes = cJSON_AddArrayToObject(mp, "notes");
    int rc;
    cJSON_AddStringToObject(mp, "renderer", g->renderer);
    cJSON_AddStringToObject(mp, "how", "each method's CPU double-precision skin path, drawn through the "
                            "headless GL context with a pass-through shader (gpu/shaders/passthrough.*)");
    cJSON_AddNumberToObject(mp, "image_size", dc.size);
    cJSON_AddStringToObject(mp, "stripe", "arm scenes: an orange seam (rgb 0.95 0.45 0.05) along the bone axis, "
                            "25 deg either side of 45 deg from +y toward +z in the rest pose, so a twist "
                            "shows as a spiral");
    dc.images = cJSON_AddArrayToObject(mp, "images");
    dc.not_drawn = cJSON_AddArrayToObject(mp, "not_drawn");
    snprintf(dc.dir, sizeof dc.dir, "%s/images/methods", ctx->out_dir);
    if ((rc = skb_mkdirs_below(ctx->out_dir, "images/methods", msg, msglen)) < 0 || (rc = skb_gpu_draw_open(shader_dir, &dc.prog, msg, msglen)) < 0)
        return rc;
    for (int i = 0; rc == 0; i++) {
        struct scene s;
        struct scene_out so;
        int ls = load_scene(ctx, i, &s, notes, msg, msglen);
        if (ls != 0) {
            rc = ls < 0 ? SKB_EINVAL : 0;
            break;
        }
        cJSON *so_j = cJSON_CreateObject();
        cJSON_AddStringToObject(so_j, "name", s.name);
        cJSON_AddStringToObject(so_j, "caption", s.caption);
        cJSON_AddStringToObject(so_j, "dataset", s.d.name[0] ? s.d.name : "arm");
        cJSON_AddItemToArray(scenes, so_j);
        skb_run_progress(ctx, "gpu", "pictures: %s", s.name);
        if ((rc = skin_all(ctx, &s, &so, msg, msglen)) == 0)
            rc = draw_scene(&dc, &s, &so, msg, msglen);
        if (rc == 0 && i == HEAT_SCENE)
            rc = heat_maps(&dc, &s, &so, mp, msg, msglen);
        scene_out_free(&so);
        skb_dataset_free(&s.d);
    }
    skb_gpu_draw_close(&dc.prog);
    return rc;
}
