/* cmd_list.c — `skinbench list [methods|datasets|experiments]` */
#include <string.h>
#include "skb_cli.h"
#include "skb_method.h"
#include "skb_run.h"
#include "skb_dataset.h"

static void list_methods(void)
{
    printf("methods:\n");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        printf("  %-10s %-60s [%s]\n", m->name, m->description, m->seed_ref);
    }
}

static void list_datasets(int verbose)
{
    printf("datasets:\n");
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        printf("  %-18s %-10s %s\n", s->name, s->kind, s->description);
        if (verbose) {
            struct skb_dataset d;
            struct skb_dataset_opts o = { 1, 0, 0 };
            char msg[512];
            if (s->load(&o, &d, msg, sizeof msg) < 0) {
                printf("  %-18s (not loadable here: %s)\n", "", msg);
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
            printf("  %-18s vertices %d, triangles %d, joints %d, influences <= %d, poses %d\n",
                   "", d.mesh.nverts, d.mesh.ntris, d.mesh.njoints, maxinf, d.nposes);
            /* the rig's influences per vertex (procedural weights: pruned) */
            printf("  %-18s vertices with 1/2/3/4 influences: %d/%d/%d/%d", "", hist[1], hist[2], hist[3], hist[4]);
            if (d.pruned_below > 0)
                printf(", weights below %g pruned\n", d.pruned_below);
            else
                printf(", weights as given\n");
            skb_dataset_free(&d);
        }
    }
}

static void list_experiments(void)
{
    printf("experiments (skinbench run NAME):\n");
    for (int i = 0; skb_experiments[i]; i++)
        printf("  %-12s %s\n", skb_experiments[i]->name, skb_experiments[i]->description);
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
