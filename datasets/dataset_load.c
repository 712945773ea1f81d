/* dataset_load.c — a dataset by name: a catalogue source, or a model file
 * (real_models.c), then subdivided when asked.  It calls the loaders, which
 * use the allocation helpers of dataset.c, so it sits above both. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "skb_dataset.h"
#include "dataset_util.h"

static int is_catalogue_name(const char *name)
{
    for (int i = 0; skb_dataset_sources[i]; i++)
        if (strcmp(skb_dataset_sources[i]->name, name) == 0)
            return 1;
    return 0;
}

/* anything that looks like a path, or names a file, is a user model */
static int looks_like_model_path(const char *name)
{
    return strchr(name, '/') || strchr(name, '.') || access(name, F_OK) == 0;
}

int skb_dataset_name_valid(const char *name)
{
    return is_catalogue_name(name) || looks_like_model_path(name);
}

static int load_raw(const char *name, const struct skb_dataset_opts *o,
                    struct skb_dataset *out, char *msg, size_t msglen)
{
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        if (strcmp(s->name, name) == 0) {
            int rc = s->load(o, out, msg, msglen);
            if (rc == 0 && !out->name[0])
                snprintf(out->name, sizeof out->name, "%s", s->name);
            return rc;
        }
    }
    if (looks_like_model_path(name))
        return skb__load_model_file(name, o, out, msg, msglen);
    snprintf(msg, msglen, "unknown dataset '%s' (see `skinbench list datasets`, or give a model file path)", name);
    return SKB_EINVAL;
}

int skb_dataset_load(const char *name, const struct skb_dataset_opts *o,
                     struct skb_dataset *out, char *msg, size_t msglen)
{
    struct skb_dataset raw;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = load_raw(name, o, &raw, msg, msglen)) < 0)
        return rc;
    if (!o || o->subdivide == 0) {
        *out = raw;
        return 0;
    }
    rc = skb_dataset_subdivide(&raw, o->subdivide, out, msg, msglen);
    skb_dataset_free(&raw);
    return rc;
}
