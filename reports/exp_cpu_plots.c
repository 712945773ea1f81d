/* exp_cpu_plots.c — the `cpu` experiment's plots (exp_cpu.c): CPU times per
 * dataset (medians with interquartile ranges), ratios to LBS beside DQ paper
 * Fig. 18, and the fast kernels' scaling curve.  The timing grid they share
 * with the GPU plots: plots_timings.c; the gnuplot core: plots.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_label.h"
#include "skb_method.h"
#include "skb_report.h"
#include "report_internal.h"
#include "plots_internal.h"

/* DQ paper Fig. 18 CPU ratios to LBS for the series that have one */
static int fig18_ratios(const struct skb_report *rep, const struct tgrid *t, double *paper)
{
    const cJSON *rt = skb__jget(skb__jget(rep->ref, "figure_18"), "ratio_to_linear");
    int n = 0;
    for (int i = 0; i < t->nser; i++) {
        paper[i] = NAN;
        n += skb__jnum(skb__jget(rt, t->ser[i]), &paper[i]) == 0;
    }
    return n;
}

/* the fast kernels' scaling curve on the roofline mesh (cpu.json
 * large_mesh.scaling): LBS's and DLB's speed-up over one thread and the
 * copy bandwidth's, against the thread count; with 2 CPUs or fewer no
 * curve, and the plot list says "2 cores only" */
static void scaling_plot(struct skb_report *rep, const char *dir, const char *sfx, const cJSON *doc)
{
    char name[64], title[160];
    const cJSON *sc = skb__jget(skb__jget(doc, "large_mesh"), "scaling"), *pts = skb__jget(sc, "points"), *p;
    double cpus = NAN, c1 = NAN;
    snprintf(name, sizeof name, "cpu-scaling%s", sfx);
    snprintf(title, sizeof title, "Fast kernels on every core: speed-up over one thread (roofline mesh)");
    skb__jnum(skb__jget(sc, "cpus"), &cpus);
    if (!sc || !cJSON_IsArray(pts)) {
        skb__pl_not_run(rep, name, title, "cpu.json has no large_mesh.scaling (roofline mesh not run)");
        return;
    }
    if (!(cpus > 2)) {
        skb__pl_not_run(rep, name, title, "2 cores only: the scaling curve needs more than 2 CPUs");
        return;
    }
    struct memfile m;
    FILE *f = skb__pl_mem_open(&m);
    if (!f) {
        skb__pl_not_run(rep, name, title, "out of memory");
        return;
    }
    fprintf(f, "# threads linear_speedup dlb_speedup copy_scaling copy_GBps\n");
    skb__jnum(skb__jget(cJSON_GetArrayItem(pts, 0), "copy_bandwidth_GBps"), &c1);
    cJSON_ArrayForEach(p, pts) {
        double th = NAN, ls = NAN, ds = NAN, bw = NAN;
        skb__jnum(skb__jget(p, "threads"), &th);
        skb__jnum(skb__jget(p, "linear_speedup"), &ls);
        skb__jnum(skb__jget(p, "dlb_speedup"), &ds);
        skb__jnum(skb__jget(p, "copy_bandwidth_GBps"), &bw);
        skb__pl_fnum(f, th);
        skb__pl_fnum(f, ls);
        skb__pl_fnum(f, ds);
        skb__pl_fnum(f, bw / c1);
        skb__pl_fnum(f, bw);
        fputc('\n', f);
    }
    if (skb__pl_dat_close(&m, dir, name) < 0) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    struct body b;
    if (!skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "out of memory");
        return;
    }
    fprintf(b.f, "set logscale xy 2\nset xlabel 'threads'\nset ylabel 'speed-up over one thread (wall time)'\n"
                 "plot x title 'ideal' with lines dashtype 2 lc rgb '#888888', "
                 "'%s.dat' using 1:2 title 'LBS split f32 (renormalised)' with linespoints pt 7, "
                 "'' using 1:3 title 'DLB split f32' with linespoints pt 5, "
                 "'' using 1:4 title 'memcpy bandwidth' with linespoints pt 9\n", name);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_cpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    snprintf(name, sizeof name, "cpu-times%s", sfx);
    snprintf(name2, sizeof name2, "cpu-ratio%s", sfx);
    const cJSON *doc = skb_results_doc(r, "cpu.json");
    if (!doc) {
        const char *why = skb_results_err(r, "cpu.json")[0] ? "cpu.json unreadable" : "cpu.json not found (cpu not run)";
        skb__pl_not_run(rep, name, "CPU time per deformation", why);
        skb__pl_not_run(rep, name2, "CPU time relative to LBS", why);
        return;
    }
    struct skb_gbench_set g;
    const cJSON *gdoc = skb_results_doc(r, "cpu-gbench.json");
    char msg[300];
    int hg = gdoc && skb_gbench_parse(gdoc, &g, msg, sizeof msg) == 0;
    struct tgrid *t = malloc(sizeof *t);
    if (t) {
        skb__pl_tgrid_fill(t, skb__jget(doc, "datasets"), NULL, NULL, hg ? &g : NULL);
        if (!t->nrow || !t->nser) {
            skb__pl_not_run(rep, name, "CPU time per deformation", "no timings in cpu.json");
        } else {
            double paper[MAXSER];
            int np = fig18_ratios(rep, t, paper);
            snprintf(what, sizeof what, "CPU time per deformation [%.60s]", r->machine_key);
            skb__pl_times_plot(rep, dir, name, what, t);
            snprintf(what, sizeof what, "CPU time / LBS [%.50s], last column DQ paper Fig. 18", r->machine_key);
            skb__pl_ratio_plot(rep, dir, name2, what, t, skb_method_role_name(SKB_MF_RATIO_REF), np ? paper : NULL,
                               "DQ paper Fig. 18");
        }
        free(t);
    }
    scaling_plot(rep, dir, sfx, doc);
    if (hg)
        skb_gbench_set_free(&g);
}
