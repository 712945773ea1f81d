/* cmd_list.c — `skinbench list [methods|datasets|experiments]` */
#include <string.h>
#include "skb_cli.h"
#include "skb_method.h"
#include "skb_report.h"
#include "skb_regress.h"
#include "skb_run.h"
#include "skb_dataset.h"
#include "skb_gpu.h"

/* column widths come from the data: a new method or dataset with a longer
 * name must not push its row out of line */
static int widen(int w, const char *s)
{
    int n = s ? (int)strlen(s) : 0;
    return n > w ? n : w;
}

/* append ", item" (or "item" first) to buf */
static void item(char *buf, size_t len, const char *text)
{
    size_t n = strlen(buf);
    snprintf(buf + n, len - n, "%s%s", n ? ", " : "", text);
}

/* the hooks and flags a method has and the ones it lacks, read off its
 * struct: what each experiment can do with it */
static void method_hooks(const struct skb_method *m, char *has, char *lacks, size_t len)
{
    char t[160];
    has[0] = lacks[0] = 0;
    if (!m->blend)
        item(lacks, len, "blend (skin only)");
    else if (m->max_n == 2)
        item(has, len, "blend (two-transform)");
    else if (m->max_n)
        snprintf(t, sizeof t, "blend (n <= %d)", m->max_n), item(has, len, t);
    else
        item(has, len, "blend (any n)");
    item(m->skin ? has : lacks, len, "skin");
    item(m->f32 ? has : lacks, len, m->f32 || !m->skin ? "f32 kernel" : "f32 kernel (double path timed)");
    if (m->refit)
        snprintf(t, sizeof t, "sphere refit (\"%s\")", m->name), item(has, len, t);
    else
        item(lacks, len, "sphere refit (bottom-up only)");
    t[0] = 0;
    for (int i = 0; skb_gpu_shaders[i].name; i++)
        if (skb_gpu_shaders[i].method == m) {
            size_t n = strlen(t);
            snprintf(t + n, sizeof t - n, "%s%s", n ? " " : "shaders ", skb_gpu_shaders[i].name);
        }
    item(t[0] ? has : lacks, len, t[0] ? t : "shader");
    if (m->pose_stats)
        item(has, len, "pose stats");
    if (m->skin_center)
        item(has, len, "skin centre");
    if (m->flop_parts && m->flop_parts->rest)
        item(has, len, "FLOP parts");
    if (m->flags & SKB_MF_NEEDS_CENTER)
        item(has, len, "needs centre");
    if (m->flags & SKB_MF_ITERATIVE)
        item(has, len, "iterative");
    if (m->flags & SKB_MF_NONRIGID_IN)
        item(has, len, "non-rigid input");
    if (m->flags & SKB_MF_TABLE41)
        item(has, len, "thesis Table 4.1");
    if (m->flags & SKB_MF_EXACT_PAIR)
        item(has, len, "exact pair reference (run bounds)");
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
        char has[512], lacks[512];
        printf("  %-*s %-*s [%s]\n", wn, m->name, wd, m->description, m->seed_ref);
        method_hooks(m, has, lacks, sizeof has);
        printf("  %-*s hooks: %s%s%s\n", wn, "", has, lacks[0] ? "; none: " : "", lacks);
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

static const char *need_name(int need)
{
    static const char *const names[] = { "", "per method: blend", "per method: skin", "per method: f32",
                                         "per method: shader", "per method: refit" };
    return need >= 0 && need < (int)(sizeof names / sizeof names[0]) ? names[need] : "?";
}

/* one experiment's parts from its descriptor: the files it writes, the
 * report sections and plots it adds (per-method ones marked: every registry
 * method gets a row there) and whether it has a nightly gate */
static void list_parts(int wn, const struct skb_experiment_desc *d)
{
    printf("  %-*s files:", wn, "");
    for (int i = 0; d->files && d->files[i].file; i++)
        printf(" %s", d->files[i].file);
    printf("; sections:");
    for (int i = 0; d->sections && d->sections[i].build; i++)
        printf(" %s%s%s%s", d->sections[i].id, d->sections[i].need ? " (" : "", need_name(d->sections[i].need),
               d->sections[i].need ? ")" : "");
    printf("; plots:");
    if (!d->plots || !d->plots[0].stem)
        printf(" none");
    for (int i = 0; d->plots && d->plots[i].stem; i++)
        printf(" %s%s%s%s", d->plots[i].stem, d->plots[i].need ? " (" : "", need_name(d->plots[i].need),
               d->plots[i].need ? ")" : "");
    printf("; gate: %s\n", skb_compare_gate(d) ? "yes" : "files present only");
}

static void list_experiments(void)
{
    int wn = 0;
    for (int i = 0; skb_experiment_list[i]; i++)
        wn = widen(wn, skb_experiment_list[i]->run->name);
    printf("experiments (skinbench run NAME):\n");
    for (int i = 0; skb_experiment_list[i]; i++) {
        printf("  %-*s %s\n", wn, skb_experiment_list[i]->run->name, skb_experiment_list[i]->run->description);
        list_parts(wn, skb_experiment_list[i]);
    }
}

int skb_cmd_list(int argc, char **argv)
{
    if (argc > 1 && skb_cli_is_help(argv[1])) {
        printf("usage: skinbench list [methods|datasets|experiments]\n"
               "  methods      every blending method with its seed section and hooks\n"
               "  datasets     every dataset with vertices, triangles, joints, influences\n"
               "  experiments  what `skinbench run` can run, with each one's results files,\n"
               "               report sections, plots and nightly gate\n"
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
