/* cd_scene.c — `skinbench run cd`: n skinned bodies of one mesh in one
 * scene, placed and posed, queried for colliding triangle pairs on demand
 * and bottom up (and by the FCL peer), each query timed; the per-frame
 * results, summed and written (harness/exp_cd.c drives them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cd_internal.h"
#include "skb_sb.h"

/* world placement: translate by (x, 0, 0) after turning by `turn` about y and
 * removing the root joint's own translation (clips that walk off stay put) */
void skb__cd_placement(const struct skb_pose *p, double x, double turn, skb_real world[16])
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

int skb__cd_scene_init(struct scene *s, const struct skb_mesh *m, const struct skb_sphere_tree *t,
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
int skb__cd_scene_add_fcl(struct scene *s, char *msg, size_t msglen)
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
int skb__cd_fcl_frame(struct scene *s, int cdmode, const struct skb_params *prm, int rep, double *ms, long *pairs,
                     char *msg, size_t msglen)
{
    int rc;
    for (int k = 0; k < rep; k++) {
        long n = 0;
        double t0 = skb_clock_ms(SKB_CLOCK_WALL);
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
        double t = skb_clock_ms(SKB_CLOCK_WALL) - t0;
        if (k == 0 || t < *ms)
            *ms = t;
        *pairs = n;
    }
    return 0;
}

void skb__cd_scene_fini(struct scene *s)
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
void skb__cd_scene_place(struct scene *s, int i, const struct skb_dataset *d, int k, double x, double turn)
{
    struct skb_pose p;
    skb_real world[16];
    skb_dataset_pose(d, k, &p);
    skb__cd_placement(&p, x, turn, world);
    skb_pose_place(&p, world, s->mats + (size_t)16 * s->mesh->njoints * i);
}

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

static int query_pairs(struct scene *s, int cdmode, struct frame_result *r, char *msg, size_t msglen);
static void query_stats(struct scene *s, int mode, struct frame_result *r);

/* pose every body and query every pair of bodies (i < j) once, timed */
int skb__cd_scene_query(struct scene *s, int mode, int cdmode, const struct skb_params *prm,
                       struct frame_result *r, char *msg, size_t msglen)
{
    int rc;
    memset(r, 0, sizeof *r);
    double c0 = skb_clock_ms(SKB_CLOCK_THREAD), t0 = skb_clock_ms(SKB_CLOCK_WALL);
    for (int i = 0; i < s->n; i++) {
        struct skb_pose p = { s->mesh->njoints, s->mats + (size_t)16 * s->mesh->njoints * i, NULL };
        if ((rc = skb_sbody_pose(&s->b[i], &p, prm, mode, msg, msglen)) < 0)
            return rc;
    }
    r->pose_ms = skb_clock_ms(SKB_CLOCK_WALL) - t0;
    r->pose_cpu_ms = skb_clock_ms(SKB_CLOCK_THREAD) - c0;
    if ((rc = query_pairs(s, cdmode, r, msg, msglen)) < 0)
        return rc;
    r->ms = skb_clock_ms(SKB_CLOCK_WALL) - t0;
    r->cpu_ms = skb_clock_ms(SKB_CLOCK_THREAD) - c0;
    query_stats(s, mode, r);
    return 0;
}

/* every pair of bodies (i < j) queried once on the spheres and vertices
 * as posed (refitted and skinned on demand, or all posed bottom-up) */
static int query_pairs(struct scene *s, int cdmode, struct frame_result *r, char *msg, size_t msglen)
{
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
    return 0;
}

/* the counts of a query: refits per tree level, spheres refitted, vertices
 * skinned, SBS's centres */
static void query_stats(struct scene *s, int mode, struct frame_result *r)
{
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
        if (skb_sb_is(s->b[i].method)) {
            /* prepare (all) or the query (on demand, lazily) solved them */
            struct skb_sb_counts c;
            skb_sb_counts(s->mesh, s->b[i].sk.state, &c);
            r->centres += (r->centres < 0) + c.solved + c.trivial - (c.sets - skb_sb_nsets(s->mesh, s->b[i].sk.state));
            r->svds += (r->svds < 0) + c.solved;
        }
    }
}

/* the best of `rep` timings of the same frame */
static int timed(struct scene *s, int mode, int cdmode, const struct skb_params *prm, int rep,
                 struct frame_result *r, char *msg, size_t msglen)
{
    struct frame_result cur;
    int rc;
    for (int k = 0; k < rep; k++) {
        if ((rc = skb__cd_scene_query(s, mode, cdmode, prm, &cur, msg, msglen)) < 0)
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
        double t0 = skb_clock_ms(SKB_CLOCK_THREAD), t1;
        for (int i = 0; i < s->n; i++) {
            struct skb_sbody *b = &s->b[i];
            for (int n = 0; n < s->tree->nnodes; n++)
                if (b->sstamp[n] == b->frame) {
                    int rc = b->method->refit(s->tree, n, b->mesh, b->sk.state, b->scratch, tmp);
                    if (rc < 0)
                        return rc;
                }
        }
        t1 = skb_clock_ms(SKB_CLOCK_THREAD);
        for (int i = 0; i < s->n; i++) {
            struct skb_sbody *b = &s->b[i];
            for (int v = 0; v < b->mesh->nverts; v++)
                if (b->vstamp[v] == b->frame) {
                    int rc = b->method->skin(b->mesh, b->sk.state, v, v + 1, b->pos, NULL);
                    if (rc < 0)
                        return rc;
                }
        }
        double rf = t1 - t0, sk = skb_clock_ms(SKB_CLOCK_THREAD) - t1;
        r->refit_cpu_ms = k == 0 ? rf : fmin(r->refit_cpu_ms, rf);
        r->skin_cpu_ms = k == 0 ? sk : fmin(r->skin_cpu_ms, sk);
    }
    return 0;
}

/* on demand and bottom-up for one frame; the colliding pairs must agree */
int skb__cd_both_modes(struct scene *s, int cdmode, const struct skb_params *prm, int rep,
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
int skb__cd_centre_reach(const struct skb_method *me, const struct skb_dataset *d, const struct skb_params *prm,
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

void skb__cd_add_result(cJSON *o, const struct frame_result *od, const struct frame_result *bu, int frames)
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
    cJSON_AddItemToObject(o, "refitted_share_by_level_on_demand", skb__cd_level_shares(od));
    if (od->centres >= 0) {
        /* SBS: rotation centres of joint sets (and the SVDs among them) the
         * on-demand frames solved, against the sets of all bodies */
        skb_json_add_number(o, "sbs_centres_solved_on_demand", (double)od->centres / f);
        skb_json_add_number(o, "sbs_svds_on_demand", (double)od->svds / f);
        skb_json_add_number(o, "sbs_centres_solved_bottom_up", (double)bu->centres / f);
    }
}

cJSON *skb__cd_level_shares(const struct frame_result *od)
{
    cJSON *ls = cJSON_CreateArray();
    for (int l = 0; l < LEVEL_SHARE_MAX && od->level_nodes[l] > 0; l++)
        cJSON_AddItemToArray(ls, cJSON_CreateNumber((double)od->level_refits[l] / (double)od->level_nodes[l]));
    return ls;
}

void skb__cd_accumulate(struct frame_result *sum, const struct frame_result *r)
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

/* ---- the paired speed-up (common/skb_timing.h) ---- */

static int pose_all(struct scene *s, int mode, const struct skb_params *prm)
{
    char msg[256];
    for (int i = 0; i < s->n; i++) {
        struct skb_pose p = { s->mesh->njoints, s->mats + (size_t)16 * s->mesh->njoints * i, NULL };
        int rc = skb_sbody_pose(&s->b[i], &p, prm, mode, msg, sizeof msg);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int skb__cd_query_work(void *arg, long iters)
{
    struct skb__cd_work *w = (struct skb__cd_work *)arg;
    char msg[256];
    for (long k = 0; k < iters && w->rc == 0; k++) {
        struct frame_result r;
        memset(&r, 0, sizeof r);
        if (w->query_only) {   /* the poses prepared before: a fresh frame's caches, the query alone */
            for (int i = 0; i < w->s->n; i++)
                skb_sbody_restamp(&w->s->b[i]);
            w->rc = query_pairs(w->s, w->cdmode, &r, msg, sizeof msg);
        } else {   /* what skb__cd_scene_query times: the poses and the query, no counting after */
            w->rc = pose_all(w->s, w->mode, w->prm);
            if (w->rc == 0 && !w->pose_only)
                w->rc = query_pairs(w->s, w->cdmode, &r, msg, sizeof msg);
        }
    }
    return w->rc;
}

int skb__cd_paired_speedup(struct scene *s, int cdmode, const struct skb_params *prm, const struct skb_pair_opts *opts,
                           cJSON *out, double *est, char *msg, size_t msglen)
{
    struct skb_sitting st;
    struct skb__cd_work od = { s, SKB_REFIT_ON_DEMAND, cdmode, 0, 0, 0, prm };
    struct skb__cd_work bu = { s, SKB_REFIT_BOTTOM_UP, cdmode, 0, 0, 0, prm };
    struct skb_work wo = { .run = skb__cd_query_work, .arg = &od }, wb = { .run = skb__cd_query_work, .arg = &bu };
    struct skb_pair_result r;
    skb_sitting_init(&st, opts, cJSON_AddObjectToObject(out, "paired"));
    int rc = skb_sitting_row(&st, "bottom_up", &wb, "on_demand", &wo, "as timed", &r);
    *est = rc < 0 ? NAN : r.ratio;
    if (rc < 0)
        snprintf(msg, msglen, "cd: timing bottom-up against on demand failed: %s",
                 skb_strerror(od.rc < 0 ? od.rc : bu.rc < 0 ? bu.rc : rc));
    return rc;
}
