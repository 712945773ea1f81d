/* gate_new.c — what the current run has and the baseline lacks: new
 * experiments (results files), new methods in a file both runs have, and
 * files no experiment declares.  None can be held to a baseline, so each is
 * undecided (exit 3), never a pass: a new method is accepted by setting a
 * new baseline after a look (skinbench store baseline --set).  The method
 * names of a file are found at the key paths its descriptor lists
 * (skb_result_file.methods). */
#include <stdio.h>
#include <string.h>
#include "report_internal.h"
#include "compare_internal.h"

static int add_name(const char *name, const char **out, int n, int max)
{
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], name) == 0)
            return n;
    if (n < max)
        out[n++] = name;
    return n;
}

/* the names at one key path below node (skb_result_file.methods): segments
 * split by '/', "*" standing for every member; a path ending in "*" names
 * the members' keys, one ending in a field names that field's string value.
 * seg runs to the end of the string or the next ' ' (the next path). */
static int walk(const cJSON *node, const char *seg, const char **out, int n, int max)
{
    size_t len = strcspn(seg, "/ ");
    int last = seg[len] != '/';
    const char *next = last ? NULL : seg + len + 1;
    if (len == 1 && seg[0] == '*') {
        const cJSON *x;
        cJSON_ArrayForEach(x, node)
            if (!last)
                n = walk(x, next, out, n, max);
            else if (x->string)
                n = add_name(x->string, out, n, max);
        return n;
    }
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)len, seg);
    const cJSON *x = skb__jget(node, key);
    if (!last)
        return walk(x, next, out, n, max);
    return skb__jstr(x) ? add_name(x->valuestring, out, n, max) : n;
}

/* the method names a results file holds, each once, in document order:
 * every path of the space-separated list `paths` in turn */
static int method_names(const cJSON *doc, const char *paths, const char **out, int max)
{
    int n = 0;
    for (const char *p = paths; *p; p += strcspn(p, " "), p += *p == ' ')
        n = walk(doc, p, out, n, max);
    return n;
}

/* the methods of one results file in cur that base does not hold */
static void new_methods(struct skb_gate *g, const struct skb_result_file *rf, const cJSON *a, const cJSON *b)
{
    const char *ma[256], *mb[256];
    int na = method_names(a, rf->methods, ma, 256), nb = method_names(b, rf->methods, mb, 256);
    for (int j = 0; j < nb; j++) {
        int seen = 0;
        for (int i = 0; i < na && !seen; i++)
            seen = strcmp(ma[i], mb[j]) == 0;
        if (!seen)
            skb_gate_undecided(g, "NEW method %s in %s (not in the baseline: nothing to hold it to)", mb[j], rf->file);
    }
}

void skb__gate_new_items(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        if (!skb__cmp_asked(g->s, skb_experiment_desc_name(d)))
            continue;
        for (int i = 0; d->files && d->files[i].file; i++) {
            int fi = skb_rfile_find(d->files[i].file);
            if (!cur->doc[fi])
                continue;
            if (!base->doc[fi] && !base->err[fi][0])
                skb_gate_undecided(g, "NEW experiment %s: %s is not in the baseline (nothing to compare it with)",
                                   skb_experiment_desc_name(d), d->files[i].file);
            else if (base->doc[fi] && d->files[i].methods)
                new_methods(g, &d->files[i], base->doc[fi], cur->doc[fi]);
        }
    }
    for (int i = 0; i < cur->nunknown && i < SKB_MAX_UNKNOWN; i++)
        skb_gate_undecided(g, "%s/%s: unknown results file (no registered experiment writes it): not compared",
                           cur->dir, cur->unknown[i]);
}
