/* catalog.c — the one list of dataset sources. */
#include <stddef.h>
#include "skb_dataset.h"

extern const struct skb_dataset_source skb_dataset_arm;
extern const struct skb_dataset_source skb_dataset_cloth;
extern const struct skb_dataset_source skb_dataset_body;
extern const struct skb_dataset_source skb_dataset_creature;
extern const struct skb_dataset_source skb_dataset_creature_rigid;
extern const struct skb_dataset_source skb_dataset_bcn_human;
extern const struct skb_dataset_source skb_dataset_wuson;
extern const struct skb_dataset_source skb_dataset_anim_cylinder;
extern const struct skb_dataset_source skb_dataset_fbx_skeleton;

const struct skb_dataset_source *const skb_dataset_sources[] = {
    &skb_dataset_arm,
    &skb_dataset_cloth,
    &skb_dataset_body,
    &skb_dataset_creature,
    &skb_dataset_creature_rigid,
    &skb_dataset_bcn_human,
    &skb_dataset_wuson,
    &skb_dataset_anim_cylinder,
    &skb_dataset_fbx_skeleton,
    NULL
};
