/* spheres_posture.c — the posture rule of the spheres experiment
 * (skb_spheres_posture.h).  The thesis shows its animated posture only as
 * a picture (Fig. 5.3), but its Best column measures it: the minimal
 * spheres of that posture keep the reference size at every level
 * (Table 5.2: best / reference 0.965-1.028 at levels 1-2, within 1 % below).
 * The reference spheres are the rest pose's minimal spheres, so best /
 * reference is what the frame alone does to the model's extent.
 * A walk's strongest frame can stretch the model instead (limbs spread:
 * best / reference far from 1), and then every refit column grows for a
 * reason the paper's posture does not have.  The rule takes the most bent
 * frame among those whose minimal spheres stay within a band of the
 * reference radii at every level, so the refits are compared on a posture
 * that bends joints as much as the clip allows while keeping the model's
 * extent, as the paper's does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_sphere_cd.h"
#include "skb_spheres_posture.h"

/* the largest |best avg / reference avg - 1| over levels 1..depth */
static double best_deviation(const struct skb_sphere_tree *t, const double *ref_avg, const double *best, double *avg)
{
    double dev = 0;
    skb_sphere_tree_level_avgs(t, best, avg, avg + 2 * (t->depth + 1));
    for (int L = 1; L <= t->depth; L++)
        if (ref_avg[L] > 0 && isfinite(avg[L]))
            dev = fmax(dev, fabs(avg[L] / ref_avg[L] - 1));
    return dev;
}

/* pose k deformed by the body's method, its minimal spheres into best */
static int pose_best(struct skb_sbody *b, const struct skb_dataset *d, int k, const struct skb_params *prm,
                     double *best, char *msg, size_t msglen)
{
    struct skb_pose p;
    int rc;
    skb_dataset_pose(d, k, &p);
    if ((rc = skb_sbody_pose(b, &p, prm, SKB_REFIT_ON_DEMAND, msg, msglen)) < 0)
        return rc;
    if ((rc = skb_sbody_skin_all(b)) < 0 || (rc = skb_sphere_tree_best(b->tree, b->pos, best)) < 0)
        snprintf(msg, msglen, "posture rule: pose %d: skin or minimal spheres: %s", k, skb_strerror(rc));
    return rc;
}

/* the rule over the scanned poses: the strongest within the band, else the
 * one nearest to it */
static void choose(const double *strength, const double *dev, int n, double band, struct skb_posture_choice *c)
{
    int in = -1, near = 0, strong = 0;
    for (int k = 0; k < n; k++) {
        if (dev[k] <= band && (in < 0 || strength[k] > strength[in]))
            in = k;
        if (dev[k] < dev[near])
            near = k;
        if (strength[k] > strength[strong])
            strong = k;
    }
    c->pose = in >= 0 ? in : near;
    c->fallback = in < 0;
    c->strongest = strong;
    c->deviation = dev[c->pose];
    c->deviation_strongest = dev[strong];
    c->band = band;
}

static void record(const double *strength, const double *dev, int n, const struct skb_posture_choice *c, cJSON *o)
{
    cJSON_AddStringToObject(o, "rule", SKB_POSTURE_RULE);
    skb_json_add_number(o, "band", c->band);
    cJSON_AddNumberToObject(o, "pose", c->pose);
    cJSON_AddBoolToObject(o, "fallback_nearest", c->fallback != 0);
    skb_json_add_number(o, "best_deviation", c->deviation);
    cJSON_AddNumberToObject(o, "strongest_pose", c->strongest);
    skb_json_add_number(o, "strongest_best_deviation", c->deviation_strongest);
    int within = 0;
    for (int k = 0; k < n; k++)
        within += dev[k] <= c->band;
    cJSON_AddNumberToObject(o, "poses_scanned", n);
    cJSON_AddNumberToObject(o, "poses_within_band", within);
    cJSON *ps = cJSON_AddArrayToObject(o, "poses");
    for (int k = 0; k < n; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "pose", k);
        skb_json_add_number(e, "strength_rad", strength[k]);
        skb_json_add_number(e, "best_deviation", dev[k]);
        cJSON_AddItemToArray(ps, e);
    }
}

int skb__spheres_posture_choose(const struct skb_dataset *d, const struct skb_sphere_tree *t,
                                const struct skb_params *prm, double band, struct skb_posture_choice *c, cJSON *o,
                                char *msg, size_t msglen)
{
    const struct skb_method *lbs = skb_method_with_flag(SKB_MF_RATIO_REF);
    struct skb_sbody b;
    int n = d->nposes, rc;
    if (!lbs || n < 1) {
        snprintf(msg, msglen, "posture rule: %s", !lbs ? "no LBS method registered" : "the clip has no pose");
        return SKB_EINVAL;
    }
    /* avg: this pose's level averages, the reference's, the counters */
    double *best = malloc(sizeof(double) * 4 * (size_t)t->nnodes);
    double *avg = malloc(sizeof(double) * 3 * ((size_t)t->depth + 1));
    double *strength = malloc(sizeof(double) * (size_t)n), *dev = malloc(sizeof(double) * (size_t)n);
    if (!best || !avg || !strength || !dev) {
        rc = SKB_ENOMEM;
        snprintf(msg, msglen, "posture rule: out of memory");
    } else if ((rc = skb_sbody_init(&b, &d->mesh, lbs, t, msg, msglen)) == 0) {
        double *ref_avg = avg + t->depth + 1;
        skb_sphere_tree_level_avgs(t, NULL, ref_avg, avg + 2 * (t->depth + 1));
        for (int k = 0; k < n && rc == 0; k++) {
            strength[k] = skb_pose_strength(&d->mesh, d->poses + (size_t)16 * d->mesh.njoints * k);
            if ((rc = pose_best(&b, d, k, prm, best, msg, msglen)) == 0)
                dev[k] = best_deviation(t, ref_avg, best, avg);
        }
        skb_sbody_fini(&b);
        if (rc == 0) {
            choose(strength, dev, n, band, c);
            record(strength, dev, n, c, o);
        }
    }
    free(best);
    free(avg);
    free(strength);
    free(dev);
    return rc;
}
