/* exp_cd.c — `skinbench run cd`: collision detection between skinned meshes
 * with on-demand sphere refitting against bottom-up refitting (thesis 5.4,
 * 6.6; SBS collision paper Table 2).  The scaling series subdivides one
 * model 0..3 times (thesis Table 5.3) in a colliding and a collision-free
 * placement; the scenarios are two humans walking into each other (full),
 * two creatures walking through each other (full and yes/no) and a crowd.
 * Every refit method (each method with a refit hook) is run on demand, and
 * bottom-up on the same deformation; each frame's colliding pairs must be the
 * same both ways or the run fails.  Times are per query and include the
 * per-pose prepare of every body; bottom-up also skins every vertex and
 * refits every sphere, on demand skins only the vertices of tested triangles.
 * Where libfcl-dev is installed, FCL is a peer on the LBS deformation of the
 * two-body scenes: OBBRSS BVH (FCL's mesh default; its AABB query copies the
 * model and trips ASan inside FCL), bottom-up refit, fcl::collide. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cd_internal.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_sb.h"

/* every judged speed-up is timed pair by pair (common/skb_timing.h) */
static struct skb_pair_opts pair_opts(const struct skb_run_ctx *ctx)
{
    return (struct skb_pair_opts){ .pairs = ctx->quick ? CD_PAIRS_QUICK : CD_PAIRS,
                                   .min_sample_ms = ctx->quick ? CD_SAMPLE_MS_QUICK : CD_SAMPLE_MS,
                                   .clock = SKB_CLOCK_THREAD, .alpha = SKB_PAIR_ALPHA };
}

/* ------------------------------------------------------- scaling series */

/* first contact of two copies of pose k facing each other: the offset (in
 * root radii) at which the level-0 meshes start to collide, by bisection
 * between a collision-free and a colliding offset */
static int find_contact(struct scene *s, const struct skb_dataset *d, int k, const struct skb_params *prm,
                        double rad, double *contact, char *msg, size_t msglen)
{
    struct frame_result r;
    double lo = 0, hi = 2;     /* lo collides (same place), hi must not */
    int rc;
    for (int it = 0; it < CONTACT_ITERS; it++) {
        double f = it == 0 ? hi : (lo + hi) / 2;
        skb__cd_scene_place(s, 0, d, k, 0, 0);
        skb__cd_scene_place(s, 1, d, k, f * rad, SKB_PI);
        if ((rc = skb__cd_scene_query(s, SKB_REFIT_ON_DEMAND, SKB_CD_YESNO, prm, &r, msg, msglen)) < 0)
            return rc;
        if (it == 0 && r.pairs > 0) {
            snprintf(msg, msglen, "cd: copies %g root radii apart still collide", hi);
            return SKB_EINVAL;
        }
        if (r.pairs > 0)
            lo = f;
        else if (it > 0)
            hi = f;
    }
    *contact = hi;
    return 0;
}

/* rigid-body CD (thesis 5.4: "a brand new sphere tree built for the
 * unsubdivided animated dwarves detects collisions in 0.7ms, whereas our
 * algorithm needs 1.33ms"): a tree built on each body's posed vertices, its
 * spheres used as they are (no refit), queried like the deformable bodies */
struct rigid_body {
    const struct skb_sphere_tree *t;
    const skb_real *pos;
};

static int rigid_sphere(void *ctx, int node, skb_real out[4])
{
    const struct rigid_body *r = (const struct rigid_body *)ctx;
    memcpy(out, r->t->node[node].s, 4 * sizeof(skb_real));
    return 0;
}

static const skb_real *rigid_vertex(void *ctx, int v)
{
    return ((const struct rigid_body *)ctx)->pos + 3 * v;
}

/* the rigid bodies' query as the timing engine's work */
struct rigid_work {
    struct skb_cd_body *body;
    int *pairs;
    long n;
};

static int rigid_query_work(void *arg, long iters)
{
    struct rigid_work *w = arg;
    for (long k = 0; k < iters; k++) {
        struct skb_cd_stats st;
        w->n = skb_cd_query(&w->body[0], &w->body[1], SKB_CD_FULL, w->pairs, MAX_PAIRS, &st);
        if (w->n < 0 || st.overflow)
            return SKB_ENUMERIC;
    }
    return 0;
}

/* the rigid query against the deformable one on demand, pair by pair (the
 * on-demand query re-poses both bodies in the same placement each run) */
static int rigid_paired(const struct skb_run_ctx *ctx, struct scene *s, struct rigid_work *rw, cJSON *o, char *msg,
                        size_t msglen)
{
    struct skb_pair_opts po = pair_opts(ctx);
    struct skb_sitting st;
    struct skb__cd_work od = { s, SKB_REFIT_ON_DEMAND, SKB_CD_FULL, 0, 0, 0, &ctx->params };
    struct skb_work wo = { .run = skb__cd_query_work, .arg = &od }, wr = { .run = rigid_query_work, .arg = rw };
    skb_sitting_init(&st, &po, cJSON_AddObjectToObject(o, "paired"));
    int rc = skb_sitting_row(&st, "on_demand", &wo, "rigid_rebuilt", &wr, "as timed", NULL);
    if (rc < 0)
        snprintf(msg, msglen, "cd: timing the rigid-body query against on demand failed: %s", skb_strerror(rc));
    return rc;
}

/* after a bottom-up frame (every vertex of both bodies posed): the rebuilt
 * trees' build time and their query (the best of rep, absolute; and
 * against on demand, paired); the pairs must be the deformable query's */
static int rigid_rebuilt(const struct skb_run_ctx *ctx, struct scene *s, int rep, long want_pairs, cJSON *lv,
                         char *msg, size_t msglen)
{
    struct skb_sphere_tree rt[2];
    struct rigid_body rb[2];
    struct skb_cd_body body[2];
    struct rigid_work rw = { body, s->pairs, 0 };
    double build_ms = 0, query_ms = 0;
    long pairs = 0, tests = 0;
    int rc = 0, built = 0;
    for (int i = 0; i < 2 && rc == 0; i++, built++) {
        struct skb_mesh posed = *s->mesh;
        char sub[256];
        posed.pos = s->b[i].pos;
        double t0 = skb_clock_ms(SKB_CLOCK_THREAD);
        if ((rc = skb_sphere_tree_build(&posed, SKB_TREE_COLLAPSE_C, &rt[i], sub, sizeof sub)) < 0) {
            snprintf(msg, msglen, "cd: rigid-body tree: %s", sub);
            break;
        }
        build_ms += skb_clock_ms(SKB_CLOCK_THREAD) - t0;
        rb[i].t = &rt[i];
        rb[i].pos = s->b[i].pos;
        body[i].tree = &rt[i];
        body[i].tris = s->mesh->tris;
        body[i].sphere = rigid_sphere;
        body[i].vertex = rigid_vertex;
        body[i].ctx = &rb[i];
    }
    for (int k = 0; rc == 0 && k < rep; k++) {
        struct skb_cd_stats st;
        double t0 = skb_clock_ms(SKB_CLOCK_WALL);
        long n = skb_cd_query(&body[0], &body[1], SKB_CD_FULL, s->pairs, MAX_PAIRS, &st);
        double t = skb_clock_ms(SKB_CLOCK_WALL) - t0;
        if (n < 0 || st.overflow) {
            snprintf(msg, msglen, "cd: rigid-body query failed");
            rc = SKB_ENUMERIC;
            break;
        }
        if (k == 0 || t < query_ms)
            query_ms = t;
        pairs = n;
        tests = st.sphere_tests;
    }
    if (rc == 0 && pairs != want_pairs) {
        snprintf(msg, msglen, "cd: rigid-body query found %ld colliding pairs, the deformable one %ld", pairs, want_pairs);
        rc = SKB_ENUMERIC;
    }
    if (rc == 0) {
        cJSON *o = cJSON_AddObjectToObject(lv, "rigid_rebuilt_tree");
        skb_json_add_number(o, "query_ms", query_ms);
        skb_json_add_number(o, "build_ms", build_ms);
        skb_json_add_number(o, "sphere_tests", (double)tests);
        skb_json_add_number(o, "colliding_pairs", (double)pairs);
        cJSON_AddStringToObject(o, "what", "a sphere tree built on each body's posed vertices (build: CPU time of both, "
                                "not in query_ms), queried without refits; query_ms: best of the repeats (absolute); "
                                "paired: the on-demand query over this one, pair by pair");
        rc = rigid_paired(ctx, s, &rw, o, msg, msglen);
    }
    for (int i = 0; i < built; i++)
        skb_sphere_tree_free(&rt[i]);
    return rc;
}

/* one level of a scaling series: both placements, each both ways (and FCL) */
static int scaling_level(const struct skb_run_ctx *ctx, struct scene *s, const struct skb_dataset *d, int L, int k,
                         double contact, double rad, int rep, int judged, cJSON *lv, char *msg, size_t msglen)
{
    const double offs[2] = { contact - COLLIDE_DEPTH, contact + FREE_GAP };
    const char *names[2] = { "colliding", "collision_free" };
    int rc = 0;
    for (int c = 0; c < 2 && rc == 0; c++) {
        struct frame_result od, bu;
        skb__cd_scene_place(s, 0, d, k, 0, 0);
        skb__cd_scene_place(s, 1, d, k, offs[c] * rad, SKB_PI);
        if ((rc = skb__cd_both_modes(s, SKB_CD_FULL, &ctx->params, rep, &od, &bu, names[c], msg, msglen)) < 0)
            break;
        double fms = 0;
        long fpairs = -1;
        if (s->fcl && (rc = skb__cd_fcl_frame(s, SKB_CD_FULL, &ctx->params, rep, &fms, &fpairs, msg, msglen)) < 0)
            break;
        struct skb_pair_opts po = pair_opts(ctx);
        double est = NAN;
        cJSON *cc = cJSON_AddObjectToObject(lv, names[c]);
        if (!judged && !ctx->quick)
            po.pairs = CD_PAIRS_CONTEXT;
        if (c == 0) {
            /* the flat keys: the colliding placement (Table 5.3) */
            cJSON_AddNumberToObject(lv, "collisions", od.pairs);
            skb__cd_add_result(lv, &od, &bu, 1);
            /* thesis 5.4: rigid-body CD on the unsubdivided rigid model,
             * built on the vertices the bottom-up frame just posed */
            if (L == 0 && d->rigid && (rc = rigid_rebuilt(ctx, s, rep, od.pairs, lv, msg, msglen)) < 0)
                break;
        }
        if ((rc = skb__cd_paired_speedup(s, SKB_CD_FULL, &ctx->params, &po, cc, &est, msg, msglen)) < 0)
            break;
        skb_json_add_number(cc, "offset_root_radii", offs[c]);
        skb__cd_add_result(cc, &od, &bu, 1);
        if (s->fcl) {
            skb_json_add_number(cc, "fcl_ms", fms);
            cJSON_AddNumberToObject(cc, "fcl_pairs", fpairs);
            if (c == 0) {
                skb_json_add_number(lv, "fcl_ms", fms);
                cJSON_AddNumberToObject(lv, "fcl_pairs", fpairs);
            }
        }
        skb_run_progress(ctx, "cd", "%s level %d (%d triangles, %d spheres) %s: %ld pairs, on demand %.3f ms "
                         "(%ld S-S), bottom-up %.3f ms (%ld S-S), speed-up %.2f paired", d->name, L,
                         d->mesh.ntris, s->tree->nnodes, names[c], od.pairs, od.ms, od.sphere_tests, bu.ms,
                         bu.sphere_tests, est);
    }
    return rc;
}

/* one scaling series of model (rigid: re-made rigid after each subdivision,
 * whose edge midpoints mix the weights of both ends) into arr; the setup
 * (pose, first contact) into info */
static int scaling_series(const struct skb_run_ctx *ctx, const struct skb_method *lbs, const char *model, int judged,
                          cJSON *arr, cJSON *info, char *msg, size_t msglen)
{
    /* a catalogue model's quick load is its small mesh, the series' first
     * level; a user's file (run --dataset) has one mesh, quick only cuts its
     * clip: it is read as the run read it, so the run's one import serves
     * (a quick load here was a second import of the file in a full run) */
    int user = ctx->dataset_file && strcmp(model, ctx->dataset_file) == 0;
    struct skb_dataset_opts o = { ctx->seed, user ? ctx->quick : 1, 0 };
    struct skb_dataset base;
    int rc, levels = ctx->quick ? SCALING_LEVELS_QUICK : SCALING_LEVELS, rep = ctx->quick ? REPEATS_QUICK : REPEATS;
    char sub[512];
    if ((rc = skb_run_dataset_load(ctx, model, &o, &base, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "cd: dataset %s: %s", model, sub);
        return rc;
    }
    int k = skb_pose_strongest(&base.mesh, base.poses, base.nposes);
    cJSON_AddStringToObject(info, "model", model);
    cJSON_AddStringToObject(info, "skinning", base.rigid ? "rigid (one joint per vertex, weight 1; thesis 6.6: "
                            "the dwarf of Table 5.3 has only rigid skinning)"
                            : "skinned (pruned distance weights, up to 4 joints per vertex)");
    cJSON_AddBoolToObject(info, "rigid", base.rigid != 0);
    cJSON_AddStringToObject(info, "method", lbs->name);
    cJSON_AddNumberToObject(info, "pose", k);
    double contact = 0, rad = 0;
    for (int L = 0; L < levels && rc == 0; L++) {
        struct skb_dataset d;
        struct skb_sphere_tree t;
        struct scene s;
        if ((rc = skb_dataset_subdivide(&base, L, &d, sub, sizeof sub)) < 0) {
            snprintf(msg, msglen, "cd: subdivide %s to level %d: %s", model, L, sub);
            break;
        }
        if (base.rigid)
            skb_dataset_make_rigid(&d);
        if ((rc = skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, sub, sizeof sub)) < 0) {
            snprintf(msg, msglen, "cd: %s level %d: %s", model, L, sub);
            skb_dataset_free(&d);
            break;
        }
        if ((rc = skb__cd_scene_init(&s, &d.mesh, &t, lbs, 2, msg, msglen)) == 0
            && (!skb_fcl_peer_available() || (rc = skb__cd_scene_add_fcl(&s, msg, msglen)) == 0)) {
            if (L == 0) {
                rad = t.node[0].s[3];
                rc = find_contact(&s, &d, k, &ctx->params, rad, &contact, msg, msglen);
                skb_json_add_number(info, "contact_offset_root_radii", contact);
                skb_json_add_number(info, "root_radius", rad);
            }
            cJSON *lv = cJSON_CreateObject();
            cJSON_AddNumberToObject(lv, "level", L);
            cJSON_AddNumberToObject(lv, "triangles", d.mesh.ntris);
            cJSON_AddNumberToObject(lv, "vertices", d.mesh.nverts);
            cJSON_AddNumberToObject(lv, "spheres", t.nnodes);
            cJSON_AddBoolToObject(lv, "rigid", d.rigid != 0);
            if (rc == 0)
                rc = scaling_level(ctx, &s, &d, L, k, contact, rad, rep, judged, lv, msg, msglen);
            cJSON_AddItemToArray(arr, lv);
        }
        skb__cd_scene_fini(&s);
        skb_sphere_tree_free(&t);
        skb_dataset_free(&d);
    }
    skb_dataset_free(&base);
    return rc;
}

/* thesis Table 5.3 on the rigid variant (its dwarf is rigidly skinned);
 * the skinned creature's series stays beside it as context */
static int scaling(const struct skb_run_ctx *ctx, const struct skb_method *lbs, cJSON *root, char *msg, size_t msglen)
{
    /* run --dataset: the user's model, as loaded, is the one series */
    int rc = scaling_series(ctx, lbs, skb_run_dataset(ctx, SCALING_MODEL), 1, cJSON_AddArrayToObject(root, "scaling"),
                            cJSON_AddObjectToObject(root, "scaling_setup"), msg, msglen);
    if (rc == 0 && !ctx->dataset_file)
        rc = scaling_series(ctx, lbs, SCALING_MODEL_SKINNED, 0, cJSON_AddArrayToObject(root, "scaling_skinned"),
                            cJSON_AddObjectToObject(root, "scaling_skinned_setup"), msg, msglen);
    return rc;
}

/* ------------------------------------------------------------ scenarios */

struct scenario {
    const char *name;
    const char *model;
    int cdmode;
    double from, to;       /* half-distance between two bodies, in root radii */
    int crowd;             /* 0: two bodies; else a crowd of this many */
    int refit_share;       /* also time bottom-up's refit against its whole query (thesis 5.4's men) */
};

static void scenario_frame(struct scene *s, const struct skb_dataset *d, const struct scenario *sc, int f,
                           int nframes, double rad, unsigned long seed)
{
    double u = nframes > 1 ? (double)f / (nframes - 1) : 0;
    (void)seed;
    if (!sc->crowd) {
        double h = (sc->from + (sc->to - sc->from) * u) * rad;
        skb__cd_scene_place(s, 0, d, f % d->nposes, -h, 0);
        skb__cd_scene_place(s, 1, d, (f + d->nposes / 2) % d->nposes, h, SKB_PI);
        return;
    }
    /* a crowd on a square grid (horizontal x-z plane: the models are y-up)
     * with neighbours closer than their root spheres; each body has its own
     * phase of the clip and heading (from the seed) */
    int side = (int)ceil(sqrt((double)s->n));
    for (int i = 0; i < s->n; i++) {
        unsigned long h = (seed + 2654435761UL * (unsigned long)(i + 1)) % 1000003UL;
        struct skb_pose p;
        skb_real world[16], shift[16], tmp[16];
        int k = (int)((f + h) % (unsigned long)d->nposes);
        skb_dataset_pose(d, k, &p);
        skb__cd_placement(&p, CROWD_SPACING * rad * (i % side), (double)(h % 628) / 100.0, world);
        skb_mat4_identity(shift);
        shift[11] = CROWD_SPACING * rad * (i / side);
        skb_mat4_mul(shift, world, tmp);
        skb_pose_place(&p, tmp, s->mats + (size_t)16 * s->mesh->njoints * i);
    }
}

/* the most registry methods the scenarios run; SBS's run with every centre
 * solved per frame is keyed apart */
#define SCENARIO_MAX_METHODS 64
#define SBS_EAGER_KEY "sb+all_centres"

/* one method's run over a scenario's frames: both refit modes summed
 * over the frames, and the FCL peer's where it runs */
struct method_sums {
    struct frame_result od, bu;
    double fms;
    long fpairs;
    int with_fcl;
    cJSON *paired;              /* the speed-up (and bottom-up's refit share) timed pair by pair */
    struct frame_result deepest; /* on demand: the frame with the most colliding triangle pairs */
    int deepest_frame;
    double deepest_half_distance; /* its bodies' half-distance, root radii (two-body scenes) */
};

/* a scenario's query in one mode over every frame of the clip, as the
 * timing engine's work: a run is one pass (each frame placed, then
 * queried), so a ratio of two passes is the paper's ratio of the average
 * time per frame (thesis Table 6.2: ms per frame over the animation) */
struct frame_placer {
    struct scene *s;
    const struct skb_dataset *d;
    const struct scenario *sc;
    int nframes;
    double rad;
    unsigned long seed;
};

struct pass_work {
    struct skb__cd_work w;
    struct frame_placer fp;
    void (*on_frame)(void *ctx, int frame);   /* after placing each frame (may be NULL) */
    void *frame_ctx;
};

static int pass_run(void *arg, long iters)
{
    struct pass_work *pw = arg;
    for (long k = 0; k < iters; k++)
        for (int f = 0; f < pw->fp.nframes; f++) {
            scenario_frame(pw->fp.s, pw->fp.d, pw->fp.sc, f, pw->fp.nframes, pw->fp.rad, pw->fp.seed);
            if (pw->on_frame)
                pw->on_frame(pw->frame_ctx, f);
            int rc = skb__cd_query_work(&pw->w, 1);
            if (rc < 0)
                return rc;
        }
    return 0;
}

/* pairs of passes: as many as SCEN_BUDGET_MS allows for a row a paper
 * value judges (LBS's and SBS's own rows: thesis Table 6.2), at least the
 * fewest with an exact interval; other rows that fewest.  est_ms: one
 * pass of both modes, from the absolute timing */
#define SCEN_BUDGET_MS 5000.0
/* a judged scenario row is timed in this many sittings, the pairs shared
 * out among them (scenario_paired) */
#define SCENARIO_ROUNDS 2
static int pass_pairs(const struct skb_run_ctx *ctx, int judged, double est_ms)
{
    if (ctx->quick || !judged || !(est_ms > 0))
        return CD_PAIRS_QUICK;
    double n = floor(SCEN_BUDGET_MS / est_ms);
    return n < CD_PAIRS_QUICK ? CD_PAIRS_QUICK : n > CD_PAIRS ? CD_PAIRS : (int)n;
}

/* a scenario's speed-up over whole passes of the clip, and for a scenario
 * marked refit_share bottom-up's refit share (thesis 5.4: "the time for the
 * bottom-up refitting itself is 12.9ms" of 13.6 ms): bottom-up's prepare,
 * skin and refit of everything over the whole bottom-up query.  Round 0
 * begins the sittings under o ("paired", "paired_refit_share"), each pair's
 * times kept; a later round (scenario_rounds) adds pairs to the same rows,
 * and each round ends read on the quiet state (common/skb_timing.h
 * skb_sitting_settle).  Why: a whole sitting of ~5 s can fall in a slowed
 * window of this VM (creatures_yesno's SBS: on demand 3.76 / 2.31 /
 * 2.15 ms, bottom-up 57 / 42 / 42 ms in three runs, the speed-up 6.24 /
 * 7.09 / 7.14 across the band's edge 6.64) */
static int paired_sitting(struct skb_sitting *st, const struct skb_pair_opts *po, cJSON *o, const char *key, int round)
{
    if (round == 0) {
        skb_sitting_init(st, po, cJSON_AddObjectToObject(o, key));
        st->keep = 1;
        return 0;
    }
    return skb_sitting_resume(st, po, cJSON_GetObjectItemCaseSensitive(o, key), round);
}

static int scenario_paired(const struct skb_run_ctx *ctx, struct scene *s, const struct skb_dataset *d,
                           const struct scenario *sc, int nframes, int pairs, int round, cJSON *o, char *msg,
                           size_t msglen)
{
    struct frame_placer fp = { s, d, sc, nframes, s->tree->node[0].s[3], ctx->seed };
    struct pass_work od = { { s, SKB_REFIT_ON_DEMAND, sc->cdmode, 0, 0, 0, &ctx->params }, fp, NULL, NULL };
    struct pass_work bu = { { s, SKB_REFIT_BOTTOM_UP, sc->cdmode, 0, 0, 0, &ctx->params }, fp, NULL, NULL };
    struct skb_work wo = { .run = pass_run, .arg = &od }, wb = { .run = pass_run, .arg = &bu };
    struct skb_pair_opts po = pair_opts(ctx);
    struct skb_sitting st;
    po.pairs = pairs;
    int rc = paired_sitting(&st, &po, o, "paired", round);
    if (rc == 0 && (rc = skb_sitting_row(&st, "bottom_up", &wb, "on_demand", &wo, "passes over the clip", NULL)) == 0)
        skb_sitting_settle(&st, SKB_QUIET_TOL);
    if (rc == 0 && sc->refit_share) {
        struct pass_work bp = bu;
        bp.w.pose_only = 1;
        struct skb_work wp = { .run = pass_run, .arg = &bp };
        if ((rc = paired_sitting(&st, &po, o, "paired_refit_share", round)) == 0
            && (rc = skb_sitting_row(&st, "bottom_up_refit", &wp, "bottom_up", &wb, "passes over the clip", NULL)) == 0)
            skb_sitting_settle(&st, SKB_QUIET_TOL);
    }
    if (rc < 0)
        snprintf(msg, msglen, "cd: %s: timing its passes pair by pair failed: %s", sc->name, skb_strerror(rc));
    return rc;
}

/* the paper's refits are LBS's and SBS's (on demand, its centres lazily):
 * theirs are timed pair by pair; a pass of a crowd or of the creatures
 * takes seconds, so the other rows (DLB, SBS with every centre solved) keep
 * their absolute times and no ratio, and a crowd's SBS too (the paper's
 * crowd is LBS's) */
static int scenario_judged(const struct scenario *sc, const struct skb_method *me, int lazy)
{
    return (me->flags & SKB_MF_RATIO_REF) || ((me->flags & SKB_MF_ROT_CENTERS) && lazy && !sc->crowd);
}

/* method me (lazy: SBS's centres on demand) over every frame of scenario sc */
static int run_frames(const struct skb_run_ctx *ctx, const struct scenario *sc, const struct skb_dataset *d,
                      const struct skb_sphere_tree *t, const struct skb_method *me, int lazy, int nframes, int rep,
                      struct method_sums *ms, char *msg, size_t msglen)
{
    struct scene s;
    int rc;
    memset(&ms->od, 0, sizeof ms->od);
    memset(&ms->bu, 0, sizeof ms->bu);
    ms->fms = 0;
    ms->fpairs = 0;
    ms->paired = cJSON_CreateObject();
    /* the FCL peer on the LBS deformation of the two-body scenes */
    ms->with_fcl = skb_fcl_peer_available() && !sc->crowd && (me->flags & SKB_MF_FCL_PEER);
    if ((rc = skb__cd_scene_init(&s, &d->mesh, t, me, sc->crowd ? sc->crowd : 2, msg, msglen)) == 0
        && (!ms->with_fcl || (rc = skb__cd_scene_add_fcl(&s, msg, msglen)) == 0)) {
        for (int b = 0; lazy && b < s.n; b++)
            skb_sbody_lazy_centres(&s.b[b], 1);
        for (int f = 0; f < nframes && rc == 0; f++) {
            struct frame_result od, bu;
            char what[96];
            snprintf(what, sizeof what, "%s frame %d (%s)", sc->name, f, me->name);
            scenario_frame(&s, d, sc, f, nframes, t->node[0].s[3], ctx->seed);
            if ((rc = skb__cd_both_modes(&s, sc->cdmode, &ctx->params, rep, &od, &bu, what, msg, msglen)) < 0)
                break;
            skb__cd_accumulate(&ms->od, &od);
            skb__cd_accumulate(&ms->bu, &bu);
            if (f == 0 || od.pairs > ms->deepest.pairs) {
                ms->deepest = od;
                ms->deepest_frame = f;
                ms->deepest_half_distance = sc->from + (sc->to - sc->from) * (nframes > 1 ? (double)f / (nframes - 1) : 0);
            }
            if (ms->with_fcl) {
                double fms = 0;
                long fp = 0;
                if ((rc = skb__cd_fcl_frame(&s, sc->cdmode, &ctx->params, rep, &fms, &fp, msg, msglen)) < 0)
                    break;
                ms->fms += fms;
                ms->fpairs += fp;
            }
        }
        if (rc == 0 && scenario_judged(sc, me, lazy)) {   /* the budget's pairs shared out among the sittings */
            int pairs = pass_pairs(ctx, 1, ms->od.cpu_ms + ms->bu.cpu_ms), rounds = ctx->quick ? 1 : SCENARIO_ROUNDS;
            pairs = (pairs + rounds - 1) / rounds;
            rc = scenario_paired(ctx, &s, d, sc, nframes, pairs < CD_PAIRS_QUICK ? CD_PAIRS_QUICK : pairs, 0,
                                 ms->paired, msg, msglen);
        }
    }
    skb__cd_scene_fini(&s);
    return rc;
}

/* the methods a scenario runs, SBS twice: its centres solved on demand,
 * only for the joint sets whose spheres are refitted (judged: the paper's
 * on-demand SBS costs little more than LBS, thesis Table 6.2 men 0.31 vs
 * 0.27 ms), and all of them every frame as its skin prepare does */
struct method_run {
    const struct skb_method *m;
    int lazy;
};

static int scenario_runs(struct method_run *runs)
{
    int nrun = 0;
    for (int mi = 0; skb_methods[mi] && nrun + 2 <= 2 * SCENARIO_MAX_METHODS; mi++) {
        if (skb_sb_is(skb_methods[mi]))
            runs[nrun++] = (struct method_run){ skb_methods[mi], 1 };
        runs[nrun++] = (struct method_run){ skb_methods[mi], 0 };
    }
    return nrun;
}

/* a method's key in a scenario's "methods": SBS with every centre solved has its own */
static const char *method_key(const struct skb_method *me, int lazy)
{
    return !lazy && skb_sb_is(me) ? SBS_EAGER_KEY : me->name;
}

/* 002 Fig. 6 shows one frame of the walking men in contact: the frame of
 * the most colliding triangle pairs, its overlap and its share of each
 * level's spheres refitted on demand */
static void deepest_frame(const struct scenario *sc, const struct method_sums *ms, cJSON *r)
{
    const struct frame_result *f = &ms->deepest;
    cJSON *o = cJSON_AddObjectToObject(r, "deepest_frame");
    cJSON_AddNumberToObject(o, "frame", ms->deepest_frame);
    cJSON_AddNumberToObject(o, "colliding_pairs", (double)f->pairs);
    cJSON_AddNumberToObject(o, "sphere_tests", (double)f->sphere_tests);
    if (!sc->crowd)
        skb_json_add_number(o, "half_distance_root_radii", ms->deepest_half_distance);
    cJSON_AddItemToObject(o, "refitted_share_by_level_on_demand", skb__cd_level_shares(f));
}

/* one method's entry in a scenario's "methods" (mo), and its progress line */
static void method_result(const struct skb_run_ctx *ctx, const struct scenario *sc, const struct skb_dataset *d,
                          const struct skb_method *me, int lazy, int nframes, const struct method_sums *ms, cJSON *mo)
{
    const struct frame_result *sod = &ms->od, *sbu = &ms->bu;
    cJSON *r = cJSON_AddObjectToObject(mo, method_key(me, lazy));
    skb__cd_add_result(r, sod, sbu, nframes);
    const cJSON *pe;
    cJSON_ArrayForEach(pe, ms->paired)
        cJSON_AddItemToObject(r, pe->string, cJSON_Duplicate(pe, 1));
    if (skb_sb_is(me))
        cJSON_AddStringToObject(r, "centres", lazy ? "on demand: a joint set's centre is solved when one of its "
                                                     "spheres is refitted or one of its vertices skinned"
                                                   : "every joint set's centre solved in every frame's prepare");
    deepest_frame(sc, ms, r);
    if (ms->with_fcl) {
        skb_json_add_number(r, "fcl_ms", ms->fms / nframes);
        skb_json_add_number(r, "fcl_pairs", (double)ms->fpairs / nframes);
    }
    double reach[2];
    if (skb__cd_centre_reach(me, d, &ctx->params, reach) == 0) {
        skb_json_add_number(r, "rotation_centre_reach_max", reach[0]);
        skb_json_add_number(r, "rotation_centre_reach_median", reach[1]);
    }
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ms->paired,
                                                                                                    "paired"), "rows"), 0);
    const cJSON *ratio = cJSON_GetObjectItemCaseSensitive(row, "ratio");
    char sp[48] = "not timed pair by pair";
    if (cJSON_IsNumber(ratio))
        snprintf(sp, sizeof sp, "%.2f paired", ratio->valuedouble);
    skb_run_progress(ctx, "cd", "%s, %s: on demand %.3f ms, bottom-up %.3f ms per frame (absolute), speed-up %s, "
                     "%.0f colliding pairs", sc->name, method_key(me, lazy), sod->ms / nframes,
                     sbu->ms / nframes, sp, (double)sod->pairs / nframes);
}

/* Table 6.2's SBS against LBS on demand, reading (b) (reports/
 * report_measured.c): over passes of the clip, SBS's query with every
 * centre already solved by its prepare (each frame prepared before its
 * query, outside the time: the work times itself) over LBS's on-demand
 * query with its prepare, in one scenario of two bodies */
static int sbs_query_pass(void *arg, long iters, double *ms)
{
    struct pass_work *pw = arg;
    *ms = 0;
    for (long k = 0; k < iters; k++)
        for (int f = 0; f < pw->fp.nframes; f++) {
            struct scene *s = pw->fp.s;
            char msg[256];
            int rc = 0;
            scenario_frame(s, pw->fp.d, pw->fp.sc, f, pw->fp.nframes, pw->fp.rad, pw->fp.seed);
            for (int i = 0; i < s->n && rc == 0; i++) {
                struct skb_pose p = { s->mesh->njoints, s->mats + (size_t)16 * s->mesh->njoints * i, NULL };
                rc = skb_sbody_pose(&s->b[i], &p, pw->w.prm, SKB_REFIT_ON_DEMAND, msg, sizeof msg);
            }
            double t0 = skb_clock_ms(SKB_CLOCK_THREAD);
            if (rc == 0)
                rc = skb__cd_query_work(&pw->w, 1);
            *ms += skb_clock_ms(SKB_CLOCK_THREAD) - t0;
            if (rc < 0)
                return rc;
        }
    return 0;
}

static int sbs_over_lbs(const struct skb_run_ctx *ctx, const struct scenario *sc, const struct skb_dataset *d,
                        const struct skb_sphere_tree *t, int nframes, cJSON *so, char *msg, size_t msglen)
{
    const struct skb_method *sb = skb_method_with_flag(SKB_MF_ROT_CENTERS), *lin = skb_method_with_flag(SKB_MF_RATIO_REF);
    struct scene ssb, slin;
    if (sc->crowd || !sb || !lin || !sb->refit || !lin->refit || !skb_run_wants_method(ctx, sb)
        || !skb_run_wants_method(ctx, lin))
        return 0;
    memset(&ssb, 0, sizeof ssb);
    memset(&slin, 0, sizeof slin);
    int rc = skb__cd_scene_init(&ssb, &d->mesh, t, sb, 2, msg, msglen);
    if (rc == 0)
        rc = skb__cd_scene_init(&slin, &d->mesh, t, lin, 2, msg, msglen);
    if (rc == 0) {
        double rad = t->node[0].s[3], one_sb = 0;
        struct pass_work ws = { { &ssb, SKB_REFIT_ON_DEMAND, sc->cdmode, 0, 1, 0, &ctx->params },
                                { &ssb, d, sc, nframes, rad, ctx->seed }, NULL, NULL };
        struct pass_work wl = { { &slin, SKB_REFIT_ON_DEMAND, sc->cdmode, 0, 0, 0, &ctx->params },
                                { &slin, d, sc, nframes, rad, ctx->seed }, NULL, NULL };
        struct skb_work a = { .run_timed = sbs_query_pass, .arg = &ws }, b = { .run = pass_run, .arg = &wl };
        struct skb_pair_opts po = pair_opts(ctx);
        struct skb_sitting st;
        char key[64];
        double t0 = skb_clock_ms(SKB_CLOCK_THREAD);   /* one pass of each: the budget's estimate */
        rc = sbs_query_pass(&ws, 1, &one_sb);
        if (rc == 0)
            rc = pass_run(&wl, 1);
        po.pairs = pass_pairs(ctx, 1, skb_clock_ms(SKB_CLOCK_THREAD) - t0);
        snprintf(key, sizeof key, "%s+all_centres", sb->name);
        skb_sitting_init(&st, &po, cJSON_AddObjectToObject(so, "sbs_over_lbs"));
        if (rc == 0)
            rc = skb_sitting_row(&st, key, &a, lin->name, &b, "passes over the clip: SBS query alone (centres in its "
                                 "prepare, left out); LBS prepare and query", NULL);
        if (rc < 0)
            snprintf(msg, msglen, "cd: %s: timing SBS's query against LBS's failed: %s", sc->name, skb_strerror(rc));
    }
    skb__cd_scene_fini(&ssb);
    skb__cd_scene_fini(&slin);
    return rc;
}

/* a scenario's model (run --dataset: the user's) and its sphere tree;
 * 0, or the error with msg (nothing to free) */
static int scenario_model(const struct skb_run_ctx *ctx, const struct scenario *sc, struct skb_dataset *d,
                          struct skb_sphere_tree *t, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { ctx->seed, ctx->quick, 0 };
    char sub[512];
    int rc;
    const char *model = skb_run_dataset(ctx, sc->model);
    if ((rc = skb_run_dataset_load(ctx, model, &o, d, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "cd: dataset %s: %s", model, sub);
        return rc;
    }
    if ((rc = skb_sphere_tree_build(&d->mesh, SKB_TREE_COLLAPSE_C, t, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "cd: %s: %s", model, sub);
        skb_dataset_free(d);
    }
    return rc;
}

/* one scenario on its model: the scene's description, then every method's run */
static int one_scenario(const struct skb_run_ctx *ctx, const struct scenario *sc, int nframes, int rep, cJSON *out,
                        char *msg, size_t msglen)
{
    struct skb_dataset d;
    struct skb_sphere_tree t;
    int rc = scenario_model(ctx, sc, &d, &t, msg, msglen);
    if (rc < 0)
        return rc;
    const char *model = skb_run_dataset(ctx, sc->model);
    cJSON *so = cJSON_AddObjectToObject(out, sc->name);
    cJSON_AddStringToObject(so, "model", model);
    cJSON_AddStringToObject(so, "query", sc->cdmode == SKB_CD_FULL ? "full" : "yes/no");
    cJSON_AddNumberToObject(so, "bodies", sc->crowd ? sc->crowd : 2);
    cJSON_AddNumberToObject(so, "frames", nframes);
    cJSON_AddNumberToObject(so, "triangles_per_body", d.mesh.ntris);
    cJSON_AddNumberToObject(so, "spheres_per_body", t.nnodes);
    cJSON *mo = cJSON_AddObjectToObject(so, "methods");
    struct method_run runs[2 * SCENARIO_MAX_METHODS];
    int nrun = scenario_runs(runs);
    for (int ri = 0; ri < nrun && rc == 0; ri++) {
        const struct skb_method *me = runs[ri].m;
        struct method_sums ms;
        if (!me->refit || !skb_run_wants_method(ctx, me))
            continue;
        rc = run_frames(ctx, sc, &d, &t, me, runs[ri].lazy, nframes, rep, &ms, msg, msglen);
        if (rc == 0)
            method_result(ctx, sc, &d, me, runs[ri].lazy, nframes, &ms, mo);
        cJSON_Delete(ms.paired);
    }
    if (rc == 0)
        rc = sbs_over_lbs(ctx, sc, &d, &t, nframes, so, msg, msglen);
    skb_sphere_tree_free(&t);
    skb_dataset_free(&d);
    return rc;
}

/* a row's number field, NAN when absent */
static double row_num(const cJSON *row, const char *key)
{
    double v = NAN;
    skb_json_get_number(cJSON_GetObjectItemCaseSensitive(row, key), &v);
    return v;
}

/* round `round` of scenario sc's judged rows (their sittings under out):
 * the scene made again for each, its pairs added to the round-0 rows */
static int scenario_round(const struct skb_run_ctx *ctx, const struct scenario *sc, int nframes, int round,
                          cJSON *out, char *msg, size_t msglen)
{
    cJSON *mo = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(out, sc->name), "methods");
    struct skb_dataset d;
    struct skb_sphere_tree t;
    struct method_run runs[2 * SCENARIO_MAX_METHODS];
    int nrun = scenario_runs(runs), rc;
    if (!mo || (rc = scenario_model(ctx, sc, &d, &t, msg, msglen)) < 0)
        return mo ? rc : 0;
    for (int ri = 0; ri < nrun && rc == 0; ri++) {
        const struct skb_method *me = runs[ri].m;
        cJSON *r = cJSON_GetObjectItemCaseSensitive(mo, method_key(me, runs[ri].lazy));
        const cJSON *per = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "paired"),
                                                            "pairs_per_row");
        struct scene s;
        if (!me->refit || !scenario_judged(sc, me, runs[ri].lazy) || !cJSON_IsNumber(per))
            continue;
        if ((rc = skb__cd_scene_init(&s, &d.mesh, &t, me, sc->crowd ? sc->crowd : 2, msg, msglen)) == 0) {
            for (int b = 0; runs[ri].lazy && b < s.n; b++)
                skb_sbody_lazy_centres(&s.b[b], 1);
            rc = scenario_paired(ctx, &s, &d, sc, nframes, (int)per->valuedouble, round, r, msg, msglen);
        }
        skb__cd_scene_fini(&s);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r,
                                                                               "paired"), "rows"), 0);
        if (rc == 0 && row)
            skb_run_progress(ctx, "cd", "%s, %s: sitting %d of %d: speed-up %.2f paired, %.0f of %.0f pairs quiet",
                             sc->name, method_key(me, runs[ri].lazy), round + 1, SCENARIO_ROUNDS,
                             row_num(row, "ratio"), row_num(row, "quiet_pairs"), row_num(row, "pairs_timed"));
    }
    skb_sphere_tree_free(&t);
    skb_dataset_free(&d);
    return rc;
}

static int scenarios(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    const struct scenario list[] = {
        { "men_full", "body", SKB_CD_FULL, 0.8, 0.25, 0, 1 },
        { "creatures_full", "creature", SKB_CD_FULL, 0.9, -0.9, 0, 0 },
        { "creatures_yesno", "creature", SKB_CD_YESNO, 0.9, -0.9, 0, 0 },
        { "crowd_full", "creature", SKB_CD_FULL, 0, 0, ctx->quick ? CROWD_QUICK : CROWD, 0 },
    };
    int nframes = ctx->quick ? SCENARIO_FRAMES_QUICK : SCENARIO_FRAMES, rep = ctx->quick ? REPEATS_QUICK : REPEATS;
    cJSON *out = cJSON_AddObjectToObject(root, "scenarios");
    int rc = 0;
    for (size_t i = 0; i < sizeof list / sizeof list[0] && rc == 0; i++)
        rc = one_scenario(ctx, &list[i], nframes, rep, out, msg, msglen);
    /* the judged rows' later sittings, after every scenario's first: tens of
     * seconds apart, so that one slowed window does not hold a row's every pair */
    for (int round = 1; round < (ctx->quick ? 1 : SCENARIO_ROUNDS) && rc == 0; round++)
        for (size_t i = 0; i < sizeof list / sizeof list[0] && rc == 0; i++)
            rc = scenario_round(ctx, &list[i], nframes, round, out, msg, msglen);
    return rc;
}

/* the 1-minute load average and the cores it shares (the times are wall
 * clock: on a machine with more runnable threads than cores a frame can
 * include time the process waited; *_cpu_ms shows how much) */
static void add_load(cJSON *root, const char *key)
{
    double la[1];
    cJSON *o = cJSON_AddObjectToObject(root, key);
    if (getloadavg(la, 1) == 1)
        skb_json_add_number(o, "one_minute", la[0]);
    else
        cJSON_AddNullToObject(o, "one_minute");
    cJSON_AddNumberToObject(o, "online_cores", (double)sysconf(_SC_NPROCESSORS_ONLN));
}

static int cd_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    const struct skb_method *lbs = skb_method_with_flag(SKB_MF_RATIO_REF);
    int rc;
    if (!lbs || !lbs->refit) {
        snprintf(msg, msglen, "cd: the scaling series needs the linear method's refit hook");
        return SKB_EINVAL;
    }
    cJSON *root = skb_json_results_new(ctx, "cd");
    cJSON_AddStringToObject(root, "timing", "ms per query: prepare of every body + query (bottom-up: + skin all + refit all; "
                            "fcl: + skin all + FCL OBBRSS bottom-up refit + fcl::collide); best of the repeats of each frame. "
                            "Split: on_demand_prepare_ms + on_demand_query_ms (its refits and skins inside) = on_demand_ms; "
                            "bottom_up_prepare_skin_refit_ms + bottom_up_query_ms = bottom_up_ms; *_cpu_ms: this thread's CPU time over the "
                            "same intervals (wall minus CPU: waiting for a core); on_demand_refit_cpu_ms_retimed / "
                            "_skin_cpu_ms_retimed: the spheres and vertices the on-demand query touched, timed again after it "
                            "(CPU time, warm)");
    cJSON_AddBoolToObject(root, "fcl_peer", skb_fcl_peer_available());
    add_load(root, "load_average_at_start");
    if ((rc = scaling(ctx, lbs, root, msg, msglen)) == 0 && (rc = scenarios(ctx, root, msg, msglen)) == 0) {
        add_load(root, "load_average_at_end");
        rc = skb_results_write(ctx, &skb_schema_cd, root, msg, msglen);
    }
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_cd = {
    .name = "cd",
    .description = "collision detection: on-demand vs bottom-up refitting, subdivision scaling and scenarios (thesis Table 5.3, 6.2)",
    .run = cd_run,
    .takes_dataset = 1,
    .dataset_note = "subdivision scaling and every scenario built from copies of it",
};
