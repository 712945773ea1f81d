/* cmd_list.c — `skinbench list [methods|datasets|experiments]` */
#include <string.h>
#include "skb_cli.h"
#include "skb_method.h"
#include "skb_run.h"
#include "skb_dataset.h"

/* column widths come from the data: a new method or dataset with a longer
 * name must not push its row out of line */
static int widen(int w, const char *s)
{
    int n = s ? (int)strlen(s) : 0;
    return n > w ? n : w;
}

static void list_methods(void)
{
    /* the [seed] column lines up after the descriptions up to 100 characters;
     * a longer one (sb's) ends its own row rather than pushing every row out */
    int wn = 0, wd = 0;
    for (int i = 0; skb_methods[i]; i++) {
        wn = widen(wn, skb_methods[i]->name);
        if (strlen(skb_methods[i]->description) <= 100)
            wd = widen(wd, skb_methods[i]->description);
    }
    printf("methods:\n");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        printf("  %-*s %-*s [%s]\n", wn, m->name, wd, m->description, m->seed_ref);
    }
}

static void list_datasets(int verbose)
{
    int wn = 0, wk = 0;
    for (int i = 0; skb_dataset_sources[i]; i++) {
        wn = widen(wn, skb_dataset_sources[i]->name);
        wk = widen(wk, skb_dataset_sources[i]->kind);
    }
    printf("datasets:\n");
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        printf("  %-*s %-*s %s\n", wn, s->name, wk, s->kind, s->description);
        if (verbose) {
            struct skb_dataset d;
            struct skb_dataset_opts o = { 1, 0, 0 };
            char msg[512];
            if (s->load(&o, &d, msg, sizeof msg) < 0) {
                printf("  %-*s (not loadable here: %s)\n", wn, "", msg);
                continue;
            }
            int maxinf = 0, hist[SKB_MAX_INFLUENCES + 1] = { 0 };
            for (int v = 0; v < d.mesh.nverts; v++) {
                int k = 0;
                for (int c = 0; c < SKB_MAX_INFLUENCES; c++)
                    k += d.mesh.weight[SKB_MAX_INFLUENCES * v + c] > 0;
                hist[k]++;
                if (k > maxinf)
                    maxinf = k;
            }
            printf("  %-*s vertices %d, triangles %d, joints %d, influences <= %d, poses %d\n",
                   wn, "", d.mesh.nverts, d.mesh.ntris, d.mesh.njoints, maxinf, d.nposes);
            /* the rig's influences per vertex (procedural weights: pruned) */
            printf("  %-*s vertices with 1/2/3/4 influences: %d/%d/%d/%d", wn, "", hist[1], hist[2], hist[3], hist[4]);
            if (d.rigid)
                printf(", rigid skinning (one joint per vertex, weight 1)\n");
            else if (d.pruned_below > 0)
                printf(", weights below %g pruned\n", d.pruned_below);
            else
                printf(", weights as given\n");
            skb_dataset_free(&d);
        }
    }
}

static void list_experiments(void)
{
    int wn = 0;
    for (int i = 0; skb_experiments[i]; i++)
        wn = widen(wn, skb_experiments[i]->name);
    printf("experiments (skinbench run NAME):\n");
    for (int i = 0; skb_experiments[i]; i++)
        printf("  %-*s %s\n", wn, skb_experiments[i]->name, skb_experiments[i]->description);
}

int skb_cmd_list(int argc, char **argv)
{
    if (argc > 1 && skb_cli_is_help(argv[1])) {
        printf("usage: skinbench list [methods|datasets|experiments]\n"
               "  methods      every blending method with its seed section\n"
               "  datasets     every dataset with vertices, triangles, joints, influences\n"
               "  experiments  what `skinbench run` can run\n"
               "With no argument, lists all three (datasets without loading them).\n");
        return 0;
    }
    if (argc < 2) {
        list_methods();
        list_datasets(0);
        list_experiments();
        return 0;
    }
    if (strcmp(argv[1], "methods") == 0)
        list_methods();
    else if (strcmp(argv[1], "datasets") == 0)
        list_datasets(1);
    else if (strcmp(argv[1], "experiments") == 0)
        list_experiments();
    else {
        skb_cli_error("list: unknown category '%s' (methods, datasets or experiments)", argv[1]);
        return 2;
    }
    return 0;
}
