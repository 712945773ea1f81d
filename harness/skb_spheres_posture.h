/* skb_spheres_posture.h — which clip frame the sphere tables are measured
 * on (harness/spheres_posture.c): the most bent frame whose minimal spheres
 * keep the reference size, as the paper's Best column says its posture
 * does (thesis Table 5.2). */
#ifndef SKB_SPHERES_POSTURE_H
#define SKB_SPHERES_POSTURE_H

#include <cjson/cJSON.h>
#include "skb_dataset.h"
#include "skb_geom.h"
#include "skb_method.h"

#define SKB_POSTURE_RULE "the clip's pose of largest strength (sum of joint angles to the parent) among those whose " \
    "LBS-deformed minimal spheres stay within the band of the reference spheres at every tree level (the " \
    "largest |best avg / reference avg - 1| over the levels at most the band); when no pose does, the pose nearest it"
/* thesis Table 5.2's Best column lies within 0.965-1.028 of the reference
 * at every level: a band of 5 % holds it with the paper's rounding and
 * leaves the clip room to bend */
#define SKB_POSTURE_BEST_BAND 0.05

struct skb_posture_choice {
    int pose;                      /* the chosen pose */
    int fallback;                  /* 1: no pose within the band, the nearest taken */
    int strongest;                 /* the clip's strongest pose */
    double deviation;              /* the chosen pose's largest |best / reference - 1| */
    double deviation_strongest;    /* the strongest pose's */
    double band;
};

/* scans every pose of d's clip: LBS skins it, its minimal spheres are
 * compared with the reference spheres level by level; the rule's choice in
 * *c, the scan (rule, band, choice, each pose's strength and deviation)
 * added to o.  0 or an error (msg says which) */
int skb__spheres_posture_choose(const struct skb_dataset *d, const struct skb_sphere_tree *t,
                                const struct skb_params *prm, double band, struct skb_posture_choice *c, cJSON *o,
                                char *msg, size_t msglen);

#endif
