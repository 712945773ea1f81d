/* cd_internal.h — the two halves of `skinbench run cd`: the scene of
 * skinned bodies and its timed queries (harness/cd_scene.c), and the scaling
 * series and scenarios built on it (harness/exp_cd.c).  exp_cd.c calls
 * cd_scene.c, never the other way.  Not a public header. */
#ifndef SKB_CD_INTERNAL_H
#define SKB_CD_INTERNAL_H

#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_run.h"
#include "skb_sphere_cd.h"
#include "skb_fcl_peer.h"
#include "skb_timing.h"

#define SCALING_MODEL "creature_rigid"  /* quick variant: 4160 triangles at level 0; rigid like the dwarf */
#define SCALING_MODEL_SKINNED "creature" /* the same model skinned: a context series */
#define SCALING_LEVELS 4                /* 0..3, thesis Table 5.3 */
#define SCALING_LEVELS_QUICK 3
#define REPEATS 2                       /* each absolute query time (context) is the best of this many */
#define REPEATS_QUICK 1
#define CD_PAIRS SKB_PAIR_PAIRS         /* every judged speed-up: pairs of bottom-up and on-demand queries */
#define CD_PAIRS_CONTEXT 11             /* a speed-up no paper value judges (the skinned series) */
#define CD_PAIRS_QUICK 6
#define CD_SAMPLE_MS SKB_PAIR_SAMPLE_MS
#define CD_SAMPLE_MS_QUICK 0.2
#define CONTACT_ITERS 20                /* bisection steps for the first-contact offset */
#define COLLIDE_DEPTH 0.03              /* colliding placement: this much (root radii) past first contact */
#define FREE_GAP 0.03                   /* collision-free placement: this much before it */
#define SCENARIO_FRAMES 16
#define SCENARIO_FRAMES_QUICK 3
#define CROWD 50                        /* thesis 6.4 / 002: a crowd of 50 creatures */
#define CROWD_SPACING 1.9               /* grid step, root radii */
#define CROWD_QUICK 3
#define MAX_PAIRS (1L << 22)

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


/* per tree level from the root, the share of its spheres refitted on
 * demand (002 Fig. 6), a new JSON array */
cJSON *skb__cd_level_shares(const struct frame_result *od);
void skb__cd_placement(const struct skb_pose *p, double x, double turn, skb_real world[16]);
int skb__cd_scene_init(struct scene *s, const struct skb_mesh *m, const struct skb_sphere_tree *t,
                      const struct skb_method *me, int n, char *msg, size_t msglen);
int skb__cd_scene_add_fcl(struct scene *s, char *msg, size_t msglen);
int skb__cd_fcl_frame(struct scene *s, int cdmode, const struct skb_params *prm, int rep, double *ms, long *pairs,
                     char *msg, size_t msglen);
void skb__cd_scene_fini(struct scene *s);
void skb__cd_scene_place(struct scene *s, int i, const struct skb_dataset *d, int k, double x, double turn);
int skb__cd_scene_query(struct scene *s, int mode, int cdmode, const struct skb_params *prm,
                       struct frame_result *r, char *msg, size_t msglen);
int skb__cd_both_modes(struct scene *s, int cdmode, const struct skb_params *prm, int rep,
                      struct frame_result *od, struct frame_result *bu, const char *what,
                      char *msg, size_t msglen);
int skb__cd_centre_reach(const struct skb_method *me, const struct skb_dataset *d, const struct skb_params *prm,
                        double out[2]);
void skb__cd_add_result(cJSON *o, const struct frame_result *od, const struct frame_result *bu, int frames);

/* a scene queried in one refit mode as the timing engine's work
 * (common/skb_timing.h): each run poses every body and queries every pair
 * (pose_only: poses alone, bottom-up's prepare + skin all + refit all;
 * query_only: the bodies as prepared before, their caches invalidated, the
 * query alone with its on-demand refits and skins); the first error stops
 * the timing and stays in rc */
struct skb__cd_work {
    struct scene *s;
    int mode, cdmode, pose_only, query_only, rc;
    const struct skb_params *prm;
};
int skb__cd_query_work(void *arg, long iters);
/* the speed-up of on demand over bottom-up on the scene as placed (or as
 * before_pair places it, pair by pair, opts->before_pair), timed pair by pair
 * into the sitting made in out ("paired": rows bottom_up / on_demand, and
 * on_demand's A/A); *est its estimate; 0 or the error, msg set */
int skb__cd_paired_speedup(struct scene *s, int cdmode, const struct skb_params *prm, const struct skb_pair_opts *opts,
                           cJSON *out, double *est, char *msg, size_t msglen);
void skb__cd_accumulate(struct frame_result *sum, const struct frame_result *r);

#endif
