/* spheres_rig.c — the rig study of the spheres experiment
 * (skb_spheres_rig.h).  Thesis 5.3's refit transforms a sphere by every
 * joint of each of its joint sets and blends the copies at the corners of
 * the sets' weight intervals (Formula 5.4): looseness grows with the
 * joints a sphere spans and with how widely their weights range.  With one
 * influence per vertex the weight intervals collapse to points and the
 * joint sets to single joints, so what is left of the looseness is the
 * joints the tree's spheres span; the difference is the weights' share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_sphere_cd.h"
#include "skb_spheres_rig.h"

/* the mesh with each vertex bound to its largest weight alone
 * (skb_mesh_make_rigid); joint and weight are new arrays the caller frees */
static int one_influence(const struct skb_mesh *m, struct skb_mesh *out)
{
    size_t n = (size_t)SKB_MAX_INFLUENCES * (size_t)m->nverts;
    *out = *m;
    out->joint = malloc(n * sizeof(int));
    out->weight = malloc(n * sizeof(skb_real));
    if (!out->joint || !out->weight)
        return SKB_ENOMEM;
    memcpy(out->joint, m->joint, n * sizeof(int));
    memcpy(out->weight, m->weight, n * sizeof(skb_real));
    skb_mesh_make_rigid(out);
    return 0;
}

static double joint_sets_per_sphere(const struct skb_sphere_tree *t, int level)
{
    double sum = 0;
    int n = 0;
    for (int k = 0; k < t->nnodes; k++)
        if (t->node[k].level == level) {
            sum += t->node[k].njs;
            n++;
        }
    return n ? sum / n : NAN;
}

/* LBS's on-demand refit of every sphere of t1 (mesh m1) at the pose */
static int refit_lbs(const struct skb_mesh *m1, const struct skb_sphere_tree *t1, const struct skb_pose *pose,
                     const struct skb_params *prm, double *od, char *msg, size_t msglen)
{
    struct skb_sbody b;
    const struct skb_method *lbs = skb_method_with_flag(SKB_MF_RATIO_REF);
    int rc;
    if (!lbs)
        return SKB_EINVAL;
    if ((rc = skb_sbody_init(&b, m1, lbs, t1, msg, msglen)) < 0)
        return rc;
    if ((rc = skb_sbody_pose(&b, pose, prm, SKB_REFIT_ON_DEMAND, msg, msglen)) == 0)
        rc = skb_sbody_refit_all(&b, od);
    skb_sbody_fini(&b);
    return rc;
}

int skb__spheres_rig_study(const struct skb_dataset *d, const struct skb_sphere_tree *t, const struct skb_pose *pose,
                           const struct skb_params *prm, cJSON *ds, char *msg, size_t msglen)
{
    struct skb_mesh m1;
    struct skb_sphere_tree t1;
    double *od = NULL;
    int rc = one_influence(&d->mesh, &m1);
    if (rc == 0 && (rc = skb_sphere_tree_build(&m1, SKB_TREE_COLLAPSE_C, &t1, msg, msglen)) == 0) {
        /* od: the refitted spheres, then the per-level averages of them and
         * of the reference, then the counters */
        size_t nl = (size_t)t1.depth + 1;
        if (!(od = malloc(sizeof(double) * (4 * (size_t)t1.nnodes + 3 * nl))))
            rc = SKB_ENOMEM;
        else
            rc = refit_lbs(&m1, &t1, pose, prm, od, msg, msglen);
        double *avg = od + 4 * (size_t)t1.nnodes, *ref = avg + nl;
        if (rc == 0) {
            skb_sphere_tree_level_avgs(&t1, od, avg, ref + nl);
            skb_sphere_tree_level_avgs(&t1, NULL, ref, ref + nl);
            cJSON *o = cJSON_AddObjectToObject(ds, "rig_study"), *lv = cJSON_AddArrayToObject(o, "levels");
            cJSON_AddNumberToObject(o, "influences", 1);
            for (int L = 1; L <= t1.depth || L <= t->depth; L++) {
                cJSON *e = cJSON_CreateObject();
                cJSON_AddNumberToObject(e, "level", L);
                skb_json_add_number(e, "linear_over_reference", L <= t1.depth ? avg[L] / ref[L] : NAN);
                skb_json_add_number(e, "joint_sets_per_sphere", joint_sets_per_sphere(&t1, L));
                skb_json_add_number(e, "joint_sets_per_sphere_rig", joint_sets_per_sphere(t, L));
                cJSON_AddItemToArray(lv, e);
            }
        }
        skb_sphere_tree_free(&t1);
    }
    free(od);
    free(m1.joint);
    free(m1.weight);
    return rc;
}
