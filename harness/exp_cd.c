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
#include <time.h>
#include <unistd.h>
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_run.h"
#include "skb_dataset.h"
#include "skb_sb_internal.h"
#include "skb_sphere_cd.h"
#include "skb_fcl_peer.h"

#define SCALING_MODEL "creature_rigid"  /* quick variant: 4160 triangles at level 0; rigid like the dwarf */
#define SCALING_MODEL_SKINNED "creature" /* the same model skinned: a context series */
#define SCALING_LEVELS 4                /* 0..3, thesis Table 5.3 */
#define SCALING_LEVELS_QUICK 3
#define REPEATS 3                       /* each timed query is the best of this many */
#define REPEATS_QUICK 1
#define CONTACT_ITERS 20                /* bisection steps for the first-contact offset */
#define COLLIDE_DEPTH 0.03              /* colliding placement: this much (root radii) past first contact */
#define FREE_GAP 0.03                   /* collision-free placement: this much before it */
#define SCENARIO_FRAMES 16
#define SCENARIO_FRAMES_QUICK 3
#define CROWD 50                        /* thesis 6.4 / 002: a crowd of 50 creatures */
#define CROWD_SPACING 1.9               /* grid step, root radii */
#define CROWD_QUICK 3
#define MAX_PAIRS (1L << 22)

/* world placement: translate by (x, 0, 0) after turning by `turn` about y and
 * removing the root joint's own translation (clips that walk off stay put) */
static void placement(const struct skb_pose *p, double x, double turn, skb_real world[16])
{
    static const skb_real yaxis[3] = { 0, 1, 0 };
    struct skb_quat q;
    skb_real r[9], t[3], back[16], rot[16], tmp[16];
    skb_mat4_identity(back);
    for (int i = 0; i < 3; i++)
        back[4 * i + 3] = -p->mats[4 * i + 3];
    skb_quat_from_axis_angle(yaxis, turn, &q);
    skb_quat_to_mat3(&q, r);
    t[0] = x; t[1] = 0; t[2] = 0;
    skb_mat4_from_rt(r, t, rot);
    skb_mat4_mul(rot, back, tmp);
    memcpy(world, tmp, sizeof tmp);
}

/* one scene: n bodies of one mesh (one tree), each with its own pose */
struct scene {
    const struct skb_mesh *mesh;
    const struct skb_sphere_tree *tree;
    int n;
    struct skb_sbody *b;
    skb_real *mats;          /* 16 * njoints per body: placed pose */
    int *pairs;
    struct skb_fcl_peer **fcl; /* FCL peer per body, or NULL */
};

static int scene_init(struct scene *s, const struct skb_mesh *m, const struct skb_sphere_tree *t,
                      const struct skb_method *me, int n, char *msg, size_t msglen)
{
    int rc;
    memset(s, 0, sizeof *s);
    s->mesh = m;
    s->tree = t;
    s->b = (struct skb_sbody *)calloc((size_t)n, sizeof *s->b);
    s->mats = (skb_real *)malloc(sizeof(skb_real) * 16 * (size_t)m->njoints * (size_t)n);
    s->pairs = (int *)malloc(sizeof(int) * 2 * MAX_PAIRS);
    if (!s->b || !s->mats || !s->pairs) {
        snprintf(msg, msglen, "cd: out of memory");
        return SKB_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        if ((rc = skb_sbody_init(&s->b[i], m, me, t, msg, msglen)) < 0)
            return rc;
        s->n = i + 1;
    }
    return 0;
}

/* FCL's BVH per body (the peer), built on the rest pose */
static int scene_add_fcl(struct scene *s, char *msg, size_t msglen)
{
    s->fcl = (struct skb_fcl_peer **)calloc((size_t)s->n, sizeof *s->fcl);
    if (!s->fcl)
        return SKB_ENOMEM;
    for (int i = 0; i < s->n; i++)
        if (skb_fcl_peer_new(s->mesh->tris, s->mesh->ntris, s->mesh->pos, s->mesh->nverts, &s->fcl[i]) < 0) {
            snprintf(msg, msglen, "cd: FCL peer: cannot build the BVH");
            return SKB_ENOMEM;
        }
    return 0;
}

/* the peer on one frame: prepare and skin every body, FCL's bottom-up refit,
 * fcl::collide on every pair of bodies; best of rep */
static int fcl_frame(struct scene *s, int cdmode, const struct skb_params *prm, int rep, double *ms, long *pairs,
                     char *msg, size_t msglen)
{
    int rc;
    for (int k = 0; k < rep; k++) {
        long n = 0;
        double t0 = skb_clock_s();
        for (int i = 0; i < s->n; i++) {
            struct skb_pose p = { s->mesh->njoints, s->mats + (size_t)16 * s->mesh->njoints * i, NULL };
            if ((rc = skb_sbody_pose(&s->b[i], &p, prm, SKB_REFIT_ON_DEMAND, msg, msglen)) < 0
                || (rc = skb_sbody_skin_all(&s->b[i])) < 0 || (rc = skb_fcl_peer_refit(s->fcl[i], s->b[i].pos)) < 0) {
                snprintf(msg, msglen, "cd: FCL peer frame failed: %s", skb_strerror(rc));
                return rc;
            }
        }
        for (int i = 0; i < s->n; i++)
            for (int j = i + 1; j < s->n; j++)
                n += skb_fcl_peer_collide(s->fcl[i], s->fcl[j], cdmode == SKB_CD_YESNO);
        double t = 1e3 * (skb_clock_s() - t0);
        if (k == 0 || t < *ms)
            *ms = t;
        *pairs = n;
    }
    return 0;
}

static void scene_fini(struct scene *s)
{
    for (int i = 0; s->fcl && i < s->n; i++)
        skb_fcl_peer_free(s->fcl[i]);
    free(s->fcl);
    for (int i = 0; i < s->n; i++)
        skb_sbody_fini(&s->b[i]);
    free(s->b);
    free(s->mats);
    free(s->pairs);
}

/* place body i: pose k of d turned and moved */
static void scene_place(struct scene *s, int i, const struct skb_dataset *d, int k, double x, double turn)
{
    struct skb_pose p;
    skb_real world[16];
    skb_dataset_pose(d, k, &p);
    placement(&p, x, turn, world);
    skb_pose_place(&p, world, s->mats + (size_t)16 * s->mesh->njoints * i);
}

/* tree levels (1 = root) whose share of refitted spheres cd.json records
 * (SBS collision paper 002 Fig. 6: 19 % of level 5, 9 % of level 6) */
#define LEVEL_SHARE_MAX 16

struct frame_result {
    double ms;
    double cpu_ms;        /* this thread's CPU time over the same interval: ms minus it was spent descheduled */
    double pose_ms;       /* of ms: posing every body (prepare; bottom-up: + skin all + refit all) */
    double pose_cpu_ms;   /* of cpu_ms: the same */
    double refit_cpu_ms, skin_cpu_ms; /* on demand: its refits and skins re-timed after the query (retime_on_demand) */
    long sphere_tests, pairs, refits, skinned;
    long centres, svds;   /* SBS: joint-set centres solved (of them by SVD) for the frame, -1: no centres */
    long level_refits[LEVEL_SHARE_MAX], level_nodes[LEVEL_SHARE_MAX];   /* on demand: spheres refitted / all, per tree level */
    unsigned long long set_hash;   /* order-independent hash of the colliding pairs */
};

/* splitmix64 finaliser: a well-mixed 64-bit value per pair, summed */
static unsigned long long pair_hash(int bi, int bj, int ta, int tb)
{
    unsigned long long z = ((unsigned long long)(unsigned)bi << 48) ^ ((unsigned long long)(unsigned)bj << 32)
                         ^ ((unsigned long long)(unsigned)ta << 16) ^ (unsigned long long)(unsigned)tb
                         ^ ((unsigned long long)(unsigned)ta << 40);
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* pose every body and query every pair of bodies (i < j) once, timed */
static int scene_query(struct scene *s, int mode, int cdmode, const struct skb_params *prm,
                       struct frame_result *r, char *msg, size_t msglen)
{
    int rc;
    memset(r, 0, sizeof *r);
    double c0 = skb_thread_cpu_s(), t0 = skb_clock_s();
    for (int i = 0; i < s->n; i++) {
        struct skb_pose p = { s->mesh->njoints, s->mats + (size_t)16 * s->mesh->njoints * i, NULL };
        if ((rc = skb_sbody_pose(&s->b[i], &p, prm, mode, msg, msglen)) < 0)
            return rc;
    }
    r->pose_ms = 1e3 * (skb_clock_s() - t0);
    r->pose_cpu_ms = 1e3 * (skb_thread_cpu_s() - c0);
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++) {
            struct skb_cd_stats st;
            long n = skb_cd_query(&s->b[i].body, &s->b[j].body, cdmode, s->pairs, MAX_PAIRS, &st);
            if (n < 0) {
                snprintf(msg, msglen, "cd: query failed: %s", skb_strerror((int)n));
                return (int)n;
            }
            r->sphere_tests += st.sphere_tests;
            r->pairs += n;
            for (long k = 0; k < n; k++)   /* summing a hash: cheap beside the query */
                r->set_hash += pair_hash(i, j, s->pairs[2 * k], s->pairs[2 * k + 1]);
            if (st.overflow) {
                snprintf(msg, msglen, "cd: more than %ld colliding pairs", MAX_PAIRS);
                return SKB_ENOMEM;
            }
        }
    r->ms = 1e3 * (skb_clock_s() - t0);
    r->cpu_ms = 1e3 * (skb_thread_cpu_s() - c0);
    r->centres = r->svds = -1;
    for (int i = 0; mode == SKB_REFIT_ON_DEMAND && i < s->n; i++)
        for (int k = 0; k < s->tree->nnodes; k++) {
            int lv = s->tree->node[k].level;
            if (lv < 1 || lv > LEVEL_SHARE_MAX)
                continue;
            r->level_nodes[lv - 1]++;
            r->level_refits[lv - 1] += s->b[i].sstamp[k] == s->b[i].frame;
        }
    for (int i = 0; i < s->n; i++) {
        r->refits += s->b[i].refits;
        r->skinned += s->b[i].skinned;
        if (s->b[i].method->refit == skb__refit_sbs) {
            /* prepare (all) or the query (on demand, lazily) solved them */
            struct skb__sb_counts c;
            skb__sb_counts(s->mesh, s->b[i].sk.state, &c);
            r->centres += (r->centres < 0) + c.solved + c.trivial - (c.sets - skb__sb_nsets(s->mesh, s->b[i].sk.state));
            r->svds += (r->svds < 0) + c.solved;
        }
    }
    return 0;
}

/* the best of `rep` timings of the same frame */
static int timed(struct scene *s, int mode, int cdmode, const struct skb_params *prm, int rep,
                 struct frame_result *r, char *msg, size_t msglen)
{
    struct frame_result cur;
    int rc;
    for (int k = 0; k < rep; k++) {
        if ((rc = scene_query(s, mode, cdmode, prm, &cur, msg, msglen)) < 0)
            return rc;
        if (k == 0 || cur.ms < r->ms)
            *r = cur;
    }
    return 0;
}

/* the time split of an on-demand frame: the refits and vertex skins the
 * last query made are interleaved with its traversal, so they are timed
 * again right after it, on exactly the spheres and vertices it touched
 * (stamped with the body's frame), best of RETIME_PASSES, in this thread's
 * CPU time: passes of tens of ms on a loaded machine lose the core often, and
 * the wall clock would count that (crowd_full, SBS: 34 ms wall against a
 * frame of 14 ms CPU).  Warm caches make this a lower bound of their share. */
#define RETIME_PASSES 3
static int retime_on_demand(struct scene *s, struct frame_result *r)
{
    skb_real tmp[4];
    for (int k = 0; k < RETIME_PASSES; k++) {
        double t0 = skb_thread_cpu_s(), t1;
        for (int i = 0; i < s->n; i++) {
            struct skb_sbody *b = &s->b[i];
            for (int n = 0; n < s->tree->nnodes; n++)
                if (b->sstamp[n] == b->frame) {
                    int rc = b->method->refit(s->tree, n, b->mesh, b->sk.state, b->scratch, tmp);
                    if (rc < 0)
                        return rc;
                }
        }
        t1 = skb_thread_cpu_s();
        for (int i = 0; i < s->n; i++) {
            struct skb_sbody *b = &s->b[i];
            for (int v = 0; v < b->mesh->nverts; v++)
                if (b->vstamp[v] == b->frame) {
                    int rc = b->method->skin(b->mesh, b->sk.state, v, v + 1, b->pos, NULL);
                    if (rc < 0)
                        return rc;
                }
        }
        double rf = 1e3 * (t1 - t0), sk = 1e3 * (skb_thread_cpu_s() - t1);
        r->refit_cpu_ms = k == 0 ? rf : fmin(r->refit_cpu_ms, rf);
        r->skin_cpu_ms = k == 0 ? sk : fmin(r->skin_cpu_ms, sk);
    }
    return 0;
}

/* on demand and bottom-up for one frame; the colliding pairs must agree */
static int both_modes(struct scene *s, int cdmode, const struct skb_params *prm, int rep,
                      struct frame_result *od, struct frame_result *bu, const char *what,
                      char *msg, size_t msglen)
{
    int rc;
    if ((rc = timed(s, SKB_REFIT_ON_DEMAND, cdmode, prm, rep, od, msg, msglen)) < 0)
        return rc;
    if ((rc = retime_on_demand(s, od)) < 0) {
        snprintf(msg, msglen, "cd: %s: re-timing the on-demand refits failed: %s", what, skb_strerror(rc));
        return rc;
    }
    if ((rc = timed(s, SKB_REFIT_BOTTOM_UP, cdmode, prm, rep, bu, msg, msglen)) < 0)
        return rc;
    /* full: the same set of pairs (count and hash); yes/no: the same answer */
    if (cdmode == SKB_CD_FULL ? od->pairs != bu->pairs || od->set_hash != bu->set_hash
                              : (od->pairs > 0) != (bu->pairs > 0)) {
        snprintf(msg, msglen, "cd: %s: on-demand found %ld colliding pairs, bottom-up %ld%s", what, od->pairs,
                 bu->pairs, od->pairs == bu->pairs ? " (different pairs)" : "");
        return SKB_ENUMERIC;
    }
    return 0;
}

/* the farthest rotation centre a method with centres (SB, thesis 3.1)
 * uses in each of the model's poses (trivial sets: the joint; others: the
 * bounded least-squares centre, methods/sb.c), in units of the rest model's
 * reach from the origin: out[0] the largest over the poses, out[1] the
 * median.  Recorded beside the times as a fact of the run (an SBS sphere's
 * size depends on its distance to the centre, thesis 6.3).  Returns -1 when
 * the method reports no centres. */
static int centre_reach(const struct skb_method *me, const struct skb_dataset *d, const struct skb_params *prm,
                        double out[2])
{
    struct skb_skinner sk;
    char msg[256];
    double reach = 0;
    int n = 0;
    if (!me->pose_stats || d->nposes < 1 || skb_skin_init(&sk, me, &d->mesh, msg, sizeof msg) < 0)
        return -1;
    double *far = calloc((size_t)d->nposes, sizeof *far);
    for (int i = 0; i < d->mesh.nverts; i++)
        reach = fmax(reach, skb_v3_norm(d->mesh.pos + 3 * i));
    for (int k = 0; far && k < d->nposes; k++) {
        struct skb_pose p;
        struct skb_pose_stats st = { 0, 0, 0 };
        skb_dataset_pose(d, k, &p);
        if (me->prepare(&d->mesh, &p, prm, sk.state) == 0 && me->pose_stats(&d->mesh, sk.state, &st) == 0)
            far[n++] = st.max_center_norm;
    }
    skb_skin_fini(&sk);
    int ok = n > 0 && reach > 0;
    if (ok) {
        skb_sort_doubles(far, n);
        out[0] = far[n - 1] / reach;
        out[1] = far[n / 2] / reach;
        ok = out[0] > 0;
    }
    free(far);
    return ok ? 0 : -1;
}

static void add_result(cJSON *o, const struct frame_result *od, const struct frame_result *bu, int frames)
{
    double f = frames > 0 ? frames : 1;
    skb_json_add_number(o, "on_demand_ms", od->ms / f);
    skb_json_add_number(o, "bottom_up_ms", bu->ms / f);
    skb_json_add_number(o, "speedup", od->ms > 0 ? bu->ms / od->ms : NAN);
    skb_json_add_number(o, "sphere_tests_on_demand", (double)od->sphere_tests / f);
    skb_json_add_number(o, "sphere_tests_bottom_up", (double)bu->sphere_tests / f);
    skb_json_add_number(o, "colliding_pairs", (double)od->pairs / f);
    skb_json_add_number(o, "spheres_refitted_on_demand", (double)od->refits / f);
    skb_json_add_number(o, "vertices_skinned_on_demand", (double)od->skinned / f);
    skb_json_add_number(o, "vertices_skinned_bottom_up", (double)bu->skinned / f);
    /* the time split (ms per frame): where each way's time went */
    skb_json_add_number(o, "on_demand_cpu_ms", od->cpu_ms / f);
    skb_json_add_number(o, "bottom_up_cpu_ms", bu->cpu_ms / f);
    skb_json_add_number(o, "on_demand_prepare_cpu_ms", od->pose_cpu_ms / f);
    skb_json_add_number(o, "bottom_up_prepare_skin_refit_cpu_ms", bu->pose_cpu_ms / f);
    skb_json_add_number(o, "on_demand_prepare_ms", od->pose_ms / f);
    skb_json_add_number(o, "on_demand_query_ms", (od->ms - od->pose_ms) / f);
    skb_json_add_number(o, "on_demand_refit_cpu_ms_retimed", od->refit_cpu_ms / f);
    skb_json_add_number(o, "on_demand_skin_cpu_ms_retimed", od->skin_cpu_ms / f);
    skb_json_add_number(o, "bottom_up_prepare_skin_refit_ms", bu->pose_ms / f);
    skb_json_add_number(o, "bottom_up_query_ms", (bu->ms - bu->pose_ms) / f);
    /* share of each level's spheres the on-demand queries refitted (002 Fig. 6) */
    cJSON *ls = cJSON_AddArrayToObject(o, "refitted_share_by_level_on_demand");
    for (int l = 0; l < LEVEL_SHARE_MAX && od->level_nodes[l] > 0; l++)
        cJSON_AddItemToArray(ls, cJSON_CreateNumber((double)od->level_refits[l] / (double)od->level_nodes[l]));
    if (od->centres >= 0) {
        /* SBS: rotation centres of joint sets (and the SVDs among them) the
         * on-demand frames solved, against the sets of all bodies */
        skb_json_add_number(o, "sbs_centres_solved_on_demand", (double)od->centres / f);
        skb_json_add_number(o, "sbs_svds_on_demand", (double)od->svds / f);
        skb_json_add_number(o, "sbs_centres_solved_bottom_up", (double)bu->centres / f);
    }
}

static void accumulate(struct frame_result *sum, const struct frame_result *r)
{
    sum->ms += r->ms;
    sum->pose_ms += r->pose_ms;
    sum->cpu_ms += r->cpu_ms;
    sum->pose_cpu_ms += r->pose_cpu_ms;
    sum->refit_cpu_ms += r->refit_cpu_ms;
    sum->skin_cpu_ms += r->skin_cpu_ms;
    sum->sphere_tests += r->sphere_tests;
    sum->pairs += r->pairs;
    sum->refits += r->refits;
    sum->skinned += r->skinned;
    for (int l = 0; l < LEVEL_SHARE_MAX; l++) {
        sum->level_refits[l] += r->level_refits[l];
        sum->level_nodes[l] += r->level_nodes[l];
    }
    sum->centres = r->centres < 0 ? -1 : (sum->centres > 0 ? sum->centres : 0) + r->centres;
    sum->svds = r->svds < 0 ? -1 : (sum->svds > 0 ? sum->svds : 0) + r->svds;
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
        scene_place(s, 0, d, k, 0, 0);
        scene_place(s, 1, d, k, f * rad, SKB_PI);
        if ((rc = scene_query(s, SKB_REFIT_ON_DEMAND, SKB_CD_YESNO, prm, &r, msg, msglen)) < 0)
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

/* after a bottom-up frame (every vertex of both bodies posed): the rebuilt
 * trees' build time and their query, best of rep; the pairs must be the
 * deformable query's */
static int rigid_rebuilt(struct scene *s, int rep, long want_pairs, cJSON *lv, char *msg, size_t msglen)
{
    struct skb_sphere_tree rt[2];
    struct rigid_body rb[2];
    struct skb_cd_body body[2];
    double build_ms = 0, query_ms = 0;
    long pairs = 0, tests = 0;
    int rc = 0, built = 0;
    for (int i = 0; i < 2 && rc == 0; i++, built++) {
        struct skb_mesh posed = *s->mesh;
        char sub[256];
        posed.pos = s->b[i].pos;
        double t0 = skb_thread_cpu_s();
        if ((rc = skb_sphere_tree_build(&posed, SKB_TREE_COLLAPSE_C, &rt[i], sub, sizeof sub)) < 0) {
            snprintf(msg, msglen, "cd: rigid-body tree: %s", sub);
            break;
        }
        build_ms += 1e3 * (skb_thread_cpu_s() - t0);
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
        double t0 = skb_clock_s();
        long n = skb_cd_query(&body[0], &body[1], SKB_CD_FULL, s->pairs, MAX_PAIRS, &st);
        double t = 1e3 * (skb_clock_s() - t0);
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
                                "not in query_ms), queried without refits; best of the repeats");
    }
    for (int i = 0; i < built; i++)
        skb_sphere_tree_free(&rt[i]);
    return rc;
}

/* one level of a scaling series: both placements, each both ways (and FCL) */
static int scaling_level(const struct skb_run_ctx *ctx, struct scene *s, const struct skb_dataset *d, int L, int k,
                         double contact, double rad, int rep, cJSON *lv, char *msg, size_t msglen)
{
    const double offs[2] = { contact - COLLIDE_DEPTH, contact + FREE_GAP };
    const char *names[2] = { "colliding", "collision_free" };
    int rc = 0;
    for (int c = 0; c < 2 && rc == 0; c++) {
        struct frame_result od, bu;
        scene_place(s, 0, d, k, 0, 0);
        scene_place(s, 1, d, k, offs[c] * rad, SKB_PI);
        if ((rc = both_modes(s, SKB_CD_FULL, &ctx->params, rep, &od, &bu, names[c], msg, msglen)) < 0)
            break;
        double fms = 0;
        long fpairs = -1;
        if (s->fcl && (rc = fcl_frame(s, SKB_CD_FULL, &ctx->params, rep, &fms, &fpairs, msg, msglen)) < 0)
            break;
        if (c == 0) {
            /* the flat keys: the colliding placement (Table 5.3) */
            cJSON_AddNumberToObject(lv, "collisions", od.pairs);
            add_result(lv, &od, &bu, 1);
            /* thesis 5.4: rigid-body CD on the unsubdivided rigid model */
            if (L == 0 && d->rigid && (rc = rigid_rebuilt(s, rep, od.pairs, lv, msg, msglen)) < 0)
                break;
        }
        cJSON *cc = cJSON_AddObjectToObject(lv, names[c]);
        skb_json_add_number(cc, "offset_root_radii", offs[c]);
        add_result(cc, &od, &bu, 1);
        if (s->fcl) {
            skb_json_add_number(cc, "fcl_ms", fms);
            cJSON_AddNumberToObject(cc, "fcl_pairs", fpairs);
            if (c == 0) {
                skb_json_add_number(lv, "fcl_ms", fms);
                cJSON_AddNumberToObject(lv, "fcl_pairs", fpairs);
            }
        }
        skb_run_progress(ctx, "cd", "%s level %d (%d triangles, %d spheres) %s: %ld pairs, on demand %.3f ms "
                         "(%ld S-S), bottom-up %.3f ms (%ld S-S), speed-up %.1f", d->name, L,
                         d->mesh.ntris, s->tree->nnodes, names[c], od.pairs, od.ms, od.sphere_tests, bu.ms,
                         bu.sphere_tests, od.ms > 0 ? bu.ms / od.ms : 0);
    }
    return rc;
}

/* one scaling series of model (rigid: re-made rigid after each subdivision,
 * whose edge midpoints mix the weights of both ends) into arr; the setup
 * (pose, first contact) into info */
static int scaling_series(const struct skb_run_ctx *ctx, const struct skb_method *lbs, const char *model,
                          cJSON *arr, cJSON *info, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { ctx->seed, 1, 0 };
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
        if ((rc = scene_init(&s, &d.mesh, &t, lbs, 2, msg, msglen)) == 0
            && (!skb_fcl_peer_available() || (rc = scene_add_fcl(&s, msg, msglen)) == 0)) {
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
                rc = scaling_level(ctx, &s, &d, L, k, contact, rad, rep, lv, msg, msglen);
            cJSON_AddItemToArray(arr, lv);
        }
        scene_fini(&s);
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
    int rc = scaling_series(ctx, lbs, skb_run_dataset(ctx, SCALING_MODEL), cJSON_AddArrayToObject(root, "scaling"),
                            cJSON_AddObjectToObject(root, "scaling_setup"), msg, msglen);
    if (rc == 0 && !ctx->dataset_file)
        rc = scaling_series(ctx, lbs, SCALING_MODEL_SKINNED, cJSON_AddArrayToObject(root, "scaling_skinned"),
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
};

static void scenario_frame(struct scene *s, const struct skb_dataset *d, const struct scenario *sc, int f,
                           int nframes, double rad, unsigned long seed)
{
    double u = nframes > 1 ? (double)f / (nframes - 1) : 0;
    (void)seed;
    if (!sc->crowd) {
        double h = (sc->from + (sc->to - sc->from) * u) * rad;
        scene_place(s, 0, d, f % d->nposes, -h, 0);
        scene_place(s, 1, d, (f + d->nposes / 2) % d->nposes, h, SKB_PI);
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
        placement(&p, CROWD_SPACING * rad * (i % side), (double)(h % 628) / 100.0, world);
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
};

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
    /* the FCL peer on the LBS deformation of the two-body scenes */
    ms->with_fcl = skb_fcl_peer_available() && !sc->crowd && (me->flags & SKB_MF_FCL_PEER);
    if ((rc = scene_init(&s, &d->mesh, t, me, sc->crowd ? sc->crowd : 2, msg, msglen)) == 0
        && (!ms->with_fcl || (rc = scene_add_fcl(&s, msg, msglen)) == 0)) {
        for (int b = 0; lazy && b < s.n; b++)
            skb_sbody_lazy_centres(&s.b[b], 1);
        for (int f = 0; f < nframes && rc == 0; f++) {
            struct frame_result od, bu;
            char what[96];
            snprintf(what, sizeof what, "%s frame %d (%s)", sc->name, f, me->name);
            scenario_frame(&s, d, sc, f, nframes, t->node[0].s[3], ctx->seed);
            if ((rc = both_modes(&s, sc->cdmode, &ctx->params, rep, &od, &bu, what, msg, msglen)) < 0)
                break;
            accumulate(&ms->od, &od);
            accumulate(&ms->bu, &bu);
            if (ms->with_fcl) {
                double fms = 0;
                long fp = 0;
                if ((rc = fcl_frame(&s, sc->cdmode, &ctx->params, rep, &fms, &fp, msg, msglen)) < 0)
                    break;
                ms->fms += fms;
                ms->fpairs += fp;
            }
        }
    }
    scene_fini(&s);
    return rc;
}

/* one method's entry in a scenario's "methods" (mo), and its progress line */
static void method_result(const struct skb_run_ctx *ctx, const struct scenario *sc, const struct skb_dataset *d,
                          const struct skb_method *me, int lazy, int nframes, const struct method_sums *ms, cJSON *mo)
{
    int eager_sbs = !lazy && me->refit == skb__refit_sbs;
    const struct frame_result *sod = &ms->od, *sbu = &ms->bu;
    cJSON *r = cJSON_AddObjectToObject(mo, eager_sbs ? SBS_EAGER_KEY : me->name);
    add_result(r, sod, sbu, nframes);
    if (me->refit == skb__refit_sbs)
        cJSON_AddStringToObject(r, "centres", lazy ? "on demand: a joint set's centre is solved when one of its "
                                                     "spheres is refitted or one of its vertices skinned"
                                                   : "every joint set's centre solved in every frame's prepare");
    if (ms->with_fcl) {
        skb_json_add_number(r, "fcl_ms", ms->fms / nframes);
        skb_json_add_number(r, "fcl_pairs", (double)ms->fpairs / nframes);
    }
    double reach[2];
    if (centre_reach(me, d, &ctx->params, reach) == 0) {
        skb_json_add_number(r, "rotation_centre_reach_max", reach[0]);
        skb_json_add_number(r, "rotation_centre_reach_median", reach[1]);
    }
    skb_run_progress(ctx, "cd", "%s, %s: on demand %.3f ms, bottom-up %.3f ms per frame (x%.1f), %.0f pairs",
                     sc->name, eager_sbs ? SBS_EAGER_KEY : me->name, sod->ms / nframes, sbu->ms / nframes,
                     sod->ms > 0 ? sbu->ms / sod->ms : 0, (double)sod->pairs / nframes);
}

/* one scenario on its model: the scene's description, then every method's run */
static int one_scenario(const struct skb_run_ctx *ctx, const struct scenario *sc, int nframes, int rep, cJSON *out,
                        char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { ctx->seed, ctx->quick, 0 };
    struct skb_dataset d;
    struct skb_sphere_tree t;
    char sub[512];
    int rc;
    const char *model = skb_run_dataset(ctx, sc->model);   /* run --dataset: the user's */
    if ((rc = skb_run_dataset_load(ctx, model, &o, &d, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "cd: dataset %s: %s", model, sub);
        return rc;
    }
    if ((rc = skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, sub, sizeof sub)) < 0) {
        snprintf(msg, msglen, "cd: %s: %s", model, sub);
        skb_dataset_free(&d);
        return rc;
    }
    cJSON *so = cJSON_AddObjectToObject(out, sc->name);
    cJSON_AddStringToObject(so, "model", model);
    cJSON_AddStringToObject(so, "query", sc->cdmode == SKB_CD_FULL ? "full" : "yes/no");
    cJSON_AddNumberToObject(so, "bodies", sc->crowd ? sc->crowd : 2);
    cJSON_AddNumberToObject(so, "frames", nframes);
    cJSON_AddNumberToObject(so, "triangles_per_body", d.mesh.ntris);
    cJSON_AddNumberToObject(so, "spheres_per_body", t.nnodes);
    cJSON *mo = cJSON_AddObjectToObject(so, "methods");
    /* SBS twice: its centres solved on demand, only for the joint sets
     * whose spheres are refitted (judged: the paper's on-demand SBS
     * costs little more than LBS, thesis Table 6.2 men 0.31 vs 0.27 ms),
     * and all of them every frame as its skin prepare does */
    struct { const struct skb_method *m; int lazy; } runs[2 * SCENARIO_MAX_METHODS];
    int nrun = 0;
    for (int mi = 0; skb_methods[mi] && nrun + 2 <= 2 * SCENARIO_MAX_METHODS; mi++) {
        if (skb_methods[mi]->refit == skb__refit_sbs) {
            runs[nrun].m = skb_methods[mi];
            runs[nrun++].lazy = 1;
        }
        runs[nrun].m = skb_methods[mi];
        runs[nrun++].lazy = 0;
    }
    for (int ri = 0; ri < nrun && rc == 0; ri++) {
        const struct skb_method *me = runs[ri].m;
        struct method_sums ms;
        if (!me->refit || !skb_run_wants_method(ctx, me))
            continue;
        if ((rc = run_frames(ctx, sc, &d, &t, me, runs[ri].lazy, nframes, rep, &ms, msg, msglen)) < 0)
            break;
        method_result(ctx, sc, &d, me, runs[ri].lazy, nframes, &ms, mo);
    }
    skb_sphere_tree_free(&t);
    skb_dataset_free(&d);
    return rc;
}

static int scenarios(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    const struct scenario list[] = {
        { "men_full", "body", SKB_CD_FULL, 0.8, 0.25, 0 },
        { "creatures_full", "creature", SKB_CD_FULL, 0.9, -0.9, 0 },
        { "creatures_yesno", "creature", SKB_CD_YESNO, 0.9, -0.9, 0 },
        { "crowd_full", "creature", SKB_CD_FULL, 0, 0, ctx->quick ? CROWD_QUICK : CROWD },
    };
    int nframes = ctx->quick ? SCENARIO_FRAMES_QUICK : SCENARIO_FRAMES, rep = ctx->quick ? REPEATS_QUICK : REPEATS;
    cJSON *out = cJSON_AddObjectToObject(root, "scenarios");
    int rc = 0;
    for (size_t i = 0; i < sizeof list / sizeof list[0] && rc == 0; i++)
        rc = one_scenario(ctx, &list[i], nframes, rep, out, msg, msglen);
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
