/* exp_gpu_plots.c — the `gpu` experiment's plots (exp_gpu.c): GPU times per
 * dataset and as ratios to LBS, the compute sweep, the GPU pictures'
 * captions and the arm's volume and cross-section curves (gpu.json).  The
 * timing grid they share with the CPU plots: plots_timings.c; the gnuplot
 * core: plots.c. */
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
#include "plots_internal.h"

void skb__image_caption(const cJSON *gpu, const char *file, char *buf, size_t len)
{
    const cJSON *im;
    cJSON_ArrayForEach(im, skb__jget(gpu, "images")) {
        const char *fn = cJSON_GetStringValue(skb__jget(im, "file")), *base = fn ? strrchr(fn, '/') : NULL;
        base = base ? base + 1 : fn;
        if (!base || strcmp(base, file) != 0)
            continue;
        const char *sh = cJSON_GetStringValue(skb__jget(im, "shader")), *sc = cJSON_GetStringValue(skb__jget(im, "scene"));
        const char *ds = cJSON_GetStringValue(skb__jget(im, "dataset"));
        /* the joint angles of the arm scenes harness/exp_gpu.c (all_pictures)
         * poses, so a twisted and a straight arm never share a caption */
        static const char *const angles[][2] = { { "candy_wrapper", "arm, elbow twisted 180°" },
                                                 { "bent_elbow", "arm, elbow bent 120°" },
                                                 { "scaled_bent_elbow", "arm, forearm 1.5× across, elbow bent 120°" } };
        const char *ang = cJSON_GetStringValue(skb__jget(im, "caption"));
        for (size_t a = 0; sc && a < sizeof angles / sizeof angles[0]; a++)
            ang = strcmp(sc, angles[a][0]) == 0 ? angles[a][1] : ang;
        char hn[120], scene[120];
        double pose = NAN;
        skb__jnum(skb__jget(im, "pose"), &pose);
        snprintf(scene, sizeof scene, "%s", sc ? sc : "?");
        for (char *c = scene; *c; c++)
            *c = *c == '_' ? ' ' : *c;
        int n = snprintf(buf, len, "%s — %s", sh ? skb__plot_series_name(sh, skb__jget(gpu, "shaders"), hn, sizeof hn) : "?", scene);
        if (n < 0 || (size_t)n >= len)
            return;
        if (ang) {
            snprintf(buf + n, len - (size_t)n, " (%s)", ang);
            return;
        }
        /* a scene named after its model leaves the dataset empty */
        if (ds && *ds)
            n += snprintf(buf + n, len - (size_t)n, " (%s", ds);
        if ((size_t)n < len && isfinite(pose))
            n += snprintf(buf + n, len - (size_t)n, "%spose %.0f", ds && *ds ? ", " : " (", pose);
        if ((size_t)n < len && ((ds && *ds) || isfinite(pose)))
            snprintf(buf + n, len - (size_t)n, ")");
        return;
    }
    snprintf(buf, len, "%s", file);
}

/* the arm's volume or elbow cross-section over twist, one series per method
 * (gpu.json "arm_volume", harness/arm_volume.c); key: "volume_ratio" or
 * "section_area_ratio" */
static void volume_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                        const char *key, const char *what)
{
    const cJSON *av = skb__jget(skb_results_doc(r, "gpu.json"), "arm_volume"), *tw = skb__jget(av, "twist_deg"), *m;
    char name[64], title[200], st[96], qt[420], lab[200];
    int ns = 0, col = 2;
    snprintf(name, sizeof name, "arm-%s%s", key[0] == 'v' ? "volume" : "section", sfx);
    snprintf(title, sizeof title, "Arm %s over elbow twist, ratio to the rest pose", what);
    if (!cJSON_IsArray(tw)) {
        skb__pl_not_run(rep, name, title, skb_results_doc(r, "gpu.json") ? "gpu.json has no \"arm_volume\"" : "gpu.json not found (gpu not run)");
        return;
    }
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return;
    for (int i = 0; i < cJSON_GetArraySize(tw); i++) {
        double x = NAN;
        skb__jnum(cJSON_GetArrayItem(tw, i), &x);
        skb__pl_fnum(f, x);
        cJSON_ArrayForEach(m, skb__jget(av, "methods")) {
            const cJSON *ser = skb__jget(m, key);
            double y = NAN;
            if (cJSON_IsArray(ser))
                skb__jnum(cJSON_GetArrayItem(ser, i), &y);
            skb__pl_fnum(f, y);
        }
        fputc('\n', f);
    }
    struct body b;
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    cJSON_ArrayForEach(m, skb__jget(av, "methods"))
        ns += cJSON_IsArray(skb__jget(m, key));
    if (!ns) {
        fclose(b.f);
        free(b.buf);
        skb__pl_not_run(rep, name, title, "gpu.json \"arm_volume\" has no method with this series");
        return;
    }
    snprintf(lab, sizeof lab, "%s / %s at rest (dimensionless)", what, what);
    fprintf(b.f, "set xlabel 'elbow twist (degrees)'\nset ylabel %s\nset xrange [0:180]\nset xtics 30\nset offsets 0, 0, graph 0.06, 0\n"
                 "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\nplot ",
            skb__pl_gp_quote(qt, sizeof qt, lab));
    int k = 0;
    cJSON_ArrayForEach(m, skb__jget(av, "methods")) {
        if (cJSON_IsArray(skb__jget(m, key))) {
            fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 %s", k ? ", " : "", name, col,
                    skb__pl_series_style(st, sizeof st, k, ns));
            /* the method's one legend name, as in every other plot */
            skb__pl_put_title(b.f, m->string, NULL);
            k++;
        }
        col++;
    }
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_arm_volume(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "volume_ratio", "volume");
}

void skb__plot_arm_section(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "section_area_ratio", "cross-section area");
}

/* ---- GPU times and the compute sweep ---- */

/* gpu.json "compute": sweep rows (vertices, then per method vertices/s at
 * the median and at the quartiles of time); returns the methods written */
static int sweep_dat(const cJSON *c, const char **ser, int max, const char *dir, const char *name)
{
    const cJSON *sw = skb__jget(c, "sweep"), *e, *x;
    int ns = 0;
    cJSON_ArrayForEach(x, skb__jget(cJSON_GetArrayItem(sw, 0), "ms"))
        if (ns < max && x->string)
            ser[ns++] = x->string;
    struct memfile m;
    FILE *f = ns ? skb__pl_mem_open(&m) : NULL;
    if (!f)
        return 0;
    cJSON_ArrayForEach(e, sw) {
        double n = NAN;
        skb__jnum(skb__jget(e, "vertices"), &n);
        skb__pl_fnum(f, n);
        for (int i = 0; i < ns; i++) {
            double ms = NAN, q1 = NAN, q3 = NAN;
            skb__jnum(skb__jget(skb__jget(e, "ms"), ser[i]), &ms);
            skb__jnum(skb__jget(skb__jget(e, "ms_q1"), ser[i]), &q1);
            skb__jnum(skb__jget(skb__jget(e, "ms_q3"), ser[i]), &q3);
            /* the slower quartile of time is the lower one of the rate */
            skb__pl_fnum(f, n / (ms * 1e-3));
            skb__pl_fnum(f, n / (q3 * 1e-3));
            skb__pl_fnum(f, n / (q1 * 1e-3));
        }
        fputc('\n', f);
    }
    return skb__pl_dat_close(&m, dir, name) == 0 ? ns : 0;
}

/* the compute sweep: vertices/s against vertices, log-log, one line per
 * method, and the copy roofline (copy bandwidth / bytes per vertex) for
 * each distinct bytes per vertex of the methods */
static void gpu_sweep_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "gpu.json"), *c = skb__jget(doc, "compute");
    const char *ser[MAXSER];
    char name[64], title[200], st[96];
    double copy = NAN;
    snprintf(name, sizeof name, "gpu-sweep%s", sfx);
    snprintf(title, sizeof title, "GPU compute skinning: vertices/s against vertices%s [%.50s]",
             cJSON_IsTrue(skb__jget(c, "software_renderer")) ? " (software renderer: context)" : "", r->machine_key);
    int ns = c ? sweep_dat(c, ser, MAXSER, dir, name) : 0;
    struct body b;
    if (!ns || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, c ? "gpu.json \"compute\" has no sweep" : "gpu.json has no \"compute\"");
        return;
    }
    skb__jnum(skb__jget(c, "copy_bandwidth_GBps"), &copy);
    fprintf(b.f, "set logscale xy\nset xlabel 'vertices skinned per dispatch (log scale)'\n"
                 "set ylabel 'vertices per second (log scale); bars: interquartile range'\nset grid xtics ytics mytics\n");
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d:%d:%d with yerrorlines %s ps 1 lw 1.5", i ? ", " : "", name, 2 + 3 * i,
                3 + 3 * i, 4 + 3 * i, skb__pl_series_style(st, sizeof st, i, ns));
        skb__pl_put_title(b.f, ser[i], skb__jget(doc, "shaders"));
    }
    int seen[8], nseen = 0;
    for (int i = 0; i < ns && isfinite(copy) && copy > 0; i++) {
        double bpv = NAN;
        int dup = 0;
        if (skb__jnum(skb__jget(skb__jget(c, "bytes_per_vertex"), ser[i]), &bpv) < 0 || !(bpv > 0))
            continue;
        for (int k = 0; k < nseen; k++)
            dup |= seen[k] == (int)bpv;
        if (dup || nseen >= 8)
            continue;
        seen[nseen++] = (int)bpv;
        fprintf(b.f, ", %.9g with lines dt %d lw 2 lc rgb '#333333' title 'copy roofline, %d B/vertex (%.4g GB/s)'",
                copy * 1e9 / bpv, 2 + nseen, (int)bpv, copy);
    }
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_gpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    const cJSON *doc = skb_results_doc(r, "gpu.json");
    int soft = cJSON_IsTrue(skb__jget(doc, "software_renderer"));
    snprintf(name, sizeof name, "gpu-times%s", sfx);
    snprintf(name2, sizeof name2, "gpu-ratio%s", sfx);
    if (!skb__jget(doc, "ms")) {
        const char *why = doc ? "gpu.json has no \"ms\" (skipped?)"
                        : skb_results_err(r, "gpu.json")[0] ? "gpu.json unreadable" : "gpu.json not found (gpu not run)";
        skb__pl_not_run(rep, name, "GPU time per deformation", why);
        return;
    }
    struct tgrid *t = malloc(sizeof *t);
    if (!t)
        return;
    skb__pl_tgrid_fill(t, skb__jget(doc, "ms"), skb__jget(doc, "ms_q1"), skb__jget(doc, "ms_q3"), NULL);
    t->shaders = skb__jget(doc, "shaders");
    const char *ctx = soft ? " (software renderer: context)" : "";
    snprintf(what, sizeof what, "GPU time per deformation%s [%.50s]", ctx, r->machine_key);
    skb__pl_times_plot(rep, dir, name, what, t);
    snprintf(what, sizeof what, "GPU time / LBS%s [%.50s]", ctx, r->machine_key);
    skb__pl_ratio_plot(rep, dir, name2, what, t, skb_method_role_name(SKB_MF_RATIO_REF), NULL, NULL);   /* LBS's shader */
    free(t);
    gpu_sweep_plot(rep, dir, sfx, r);
}

/* ---- bound curves over t ---- */

/* a curve object {"curve": [[t, y1, y2, ...], ...]}: rows of numbers;
 * returns the number of y columns (0 if not that shape) */
