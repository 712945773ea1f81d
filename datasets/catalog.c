/* catalog.c — the one list of dataset sources. */
#include <stddef.h>
#include "skb_dataset.h"

extern const struct skb_dataset_source skb_dataset_arm;

const struct skb_dataset_source *const skb_dataset_sources[] = {
    &skb_dataset_arm,
    NULL
};
