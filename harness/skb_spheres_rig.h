/* skb_spheres_rig.h — how much of a refit's looseness the blend weights
 * cause (harness/spheres_rig.c): the same mesh, pose and method with every
 * vertex on its largest weight alone, beside the rig as it is. */
#ifndef SKB_SPHERES_RIG_H
#define SKB_SPHERES_RIG_H

#include <cjson/cJSON.h>
#include "skb_dataset.h"
#include "skb_geom.h"
#include "skb_method.h"

/* adds "rig_study" to ds: per tree level the LBS on-demand refit's average
 * radius over the reference's with one influence per vertex, and the joint
 * sets per sphere of both trees.  0 or an error (msg says which) */
int skb__spheres_rig_study(const struct skb_dataset *d, const struct skb_sphere_tree *t, const struct skb_pose *pose,
                           const struct skb_params *prm, cJSON *ds, char *msg, size_t msglen);

#endif
