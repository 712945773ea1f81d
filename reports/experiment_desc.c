/* experiment_desc.c — the experiment list looked up by name (the list
 * itself: experiment_list.c).  Reads only the list, so the results loader
 * and the report may use it. */
#include <string.h>
#include "report_internal.h"
#include "skb_run.h"

const char *skb_experiment_desc_name(const struct skb_experiment_desc *d)
{
    return d->run->name;
}

const struct skb_experiment_desc *skb_experiment_desc_find(const char *name)
{
    for (int i = 0; skb_experiment_list[i]; i++)
        if (strcmp(skb_experiment_desc_name(skb_experiment_list[i]), name) == 0)
            return skb_experiment_list[i];
    return NULL;
}
