/* plots_spheres.c — sphere radii per tree level as ratios to the reference
 * (thesis Tables 5.2 / 6.1 overlaid) and CD scaling (Table 5.3 overlaid).
 * The gnuplot core: plots.c. */
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

static int sphere_series(const cJSON *d, const char **ser, int max)
{
    const cJSON *l, *m;
    int ns = 0;
    cJSON_ArrayForEach(l, skb__jget(d, "levels")) cJSON_ArrayForEach(m, l) {
        int seen = strcmp(m->string, "reference") == 0;
        if (!cJSON_IsObject(m) || !skb__jget(m, "avg"))
            continue;
        for (int i = 0; i < ns; i++)
            seen |= strcmp(ser[i], m->string) == 0;
        if (!seen && ns < max)
            ser[ns++] = m->string;
    }
    return ns;
}

/* the data file: level, then avg / reference avg per series */
static int sphere_dat(const cJSON *d, const char **ser, int ns, const char *dir, const char *name)
{
    struct memfile mf;
    const cJSON *l;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return -1;
    cJSON_ArrayForEach(l, skb__jget(d, "levels")) {
        double lv = NAN, ref = NAN;
        skb__jnum(skb__jget(l, "level"), &lv);
        skb__jnum(skb__jget(skb__jget(l, "reference"), "avg"), &ref);
        skb__pl_fnum(f, lv);
        for (int i = 0; i < ns; i++) {
            double v = NAN;
            skb__jnum(skb__jget(skb__jget(l, ser[i]), "avg"), &v);
            skb__pl_fnum(f, v > 0 && ref > 0 ? v / ref : NAN);
        }
        fputc('\n', f);
    }
    return skb__pl_dat_close(&mf, dir, name);
}

/* thesis Tables 5.2 and 6.1 as ratios avg / reference per level: one index
 * block per (table, method) in NAME-paper.dat, the plot clauses into f,
 * each in its method's colour with an open marker */
static void sphere_paper(const struct skb_report *rep, const char **ser, int ns, const char *dir, const char *name,
                         FILE *f)
{
    static const struct { const char *key, *label; int pt; } tabs[] = {
        { "table_5_2", "Table 5.2", 6 }, { "table_6_1", "Table 6.1", 8 },
    };
    const cJSON *sec = skb__jget(rep->ref, "spheres");
    struct memfile mf;
    FILE *d = skb__pl_mem_open(&mf);
    char pname[80], label[8][200], st[8][96];
    int n = 0;
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        const cJSON *tab = skb__jget(sec, tabs[k].key), *lv = skb__jget(tab, "levels"), *ref = skb__jget(tab, "reference");
        for (int i = 0; i < ns && n < 8; i++) {
            const cJSON *pv = skb__jget(tab, ser[i]);
            if (!cJSON_IsArray(pv) || !cJSON_IsArray(lv) || !cJSON_IsArray(ref))
                continue;
            for (int j = 0; j < cJSON_GetArraySize(lv); j++) {
                double l = NAN, a = NAN, rr = NAN;
                skb__jnum(cJSON_GetArrayItem(lv, j), &l);
                skb__jnum(cJSON_GetArrayItem(pv, j), &a);
                skb__jnum(cJSON_GetArrayItem(ref, j), &rr);
                skb__pl_fnum(d, l);
                skb__pl_fnum(d, a > 0 && rr > 0 ? a / rr : NAN);
                fputc('\n', d);
            }
            fprintf(d, "\n\n");
            char hn[120];
            snprintf(label[n], sizeof label[n], "paper %s: %s", tabs[k].label, skb__plot_series_name(ser[i], NULL, hn, sizeof hn));
            /* the method's colour, the table's open marker */
            skb__pl_series_style(st[n], sizeof st[n], i, ns);
            *strstr(st[n], " pt ") = 0;
            snprintf(st[n] + strlen(st[n]), sizeof st[n] - strlen(st[n]), " pt %d", tabs[k].pt);
            n++;
        }
    }
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (skb__pl_dat_close(&mf, dir, pname) < 0)
        return;
    for (int k = 0; k < n; k++) {
        char qt[420];
        fprintf(f, ", '%s.dat' index %d using 1:2 with linespoints dt 3 lw 1 ps 1.6 %s title %s", pname, k, st[k],
                skb__pl_gp_quote(qt, sizeof qt, label[k]));
    }
}

static void sphere_plot(struct skb_report *rep, const char *dir, const char *sfx, const cJSON *d)
{
    const char *ser[MAXSER];
    char name[64], title[160], st[96];
    int ns = sphere_series(d, ser, MAXSER);
    double ref1 = NAN;
    snprintf(name, sizeof name, "sphere-radii-%s%s", d->string, sfx);
    skb__pl_sanitize(name);
    snprintf(title, sizeof title, "Average sphere radius / reference-posture radius per tree level: %.60s", d->string);
    skb__jnum(skb__jget(skb__jget(cJSON_GetArrayItem(skb__jget(d, "levels"), 0), "reference"), "avg"), &ref1);
    struct body b;
    if (!ns) {
        skb__pl_not_run(rep, name, title, "no levels with radii");
        return;
    }
    if (sphere_dat(d, ser, ns, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    fprintf(b.f, "set key below\nset xlabel 'tree level (1 = root)'\nset ylabel 'average radius / reference radius (dimensionless)'\n"
                 "set xtics 1\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\n");
    if (isfinite(ref1))
        fprintf(b.f, "set label 1 'reference root radius %.4g model units' at graph 0.98, graph 0.94 right\n", ref1);
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 ps 1.2 %s", i ? ", " : "", name, 2 + i,
                skb__pl_series_style(st, sizeof st, i, ns));
        skb__pl_put_title(b.f, ser[i], NULL);
    }
    sphere_paper(rep, ser, ns, dir, name, b.f);
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_spheres(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "spheres.json"), *d;
    if (!doc) {
        char name[64];
        snprintf(name, sizeof name, "sphere-radii%s", sfx);
        skb__pl_not_run(rep, name, "Average sphere radius per tree level",
                skb_results_err(r, "spheres.json")[0] ? "spheres.json unreadable" : "spheres.json not found (spheres not run)");
        return;
    }
    cJSON_ArrayForEach(d, skb__jget(doc, "datasets"))
        sphere_plot(rep, dir, sfx, d);
}

/* ---- collision detection scaling ---- */

/* thesis Table 5.3's speed-ups (colliding and collision-free) at its
 * triangle counts: NAME-paper.dat blocks 0 and 1; the clauses into f, in
 * the colours of the measured speed-up curves (series 2 and 3 of 4) */
static void cd_paper(const struct skb_report *rep, const char *dir, const char *name, FILE *f)
{
    const cJSON *t = skb__jget(rep->ref, "table_5_3");
    static const char *const keys[] = { "speedup", "speedup_collision_free" };
    static const char *const labels[] = { "paper Table 5.3 speed-up (dwarf)", "paper Table 5.3 speed-up, collision-free" };
    struct memfile mf;
    FILE *d = skb__pl_mem_open(&mf);
    char pname[80], lc[40];
    int have[2] = { 0, 0 };
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        const cJSON *tri = skb__jget(t, "triangles"), *sp = skb__jget(t, keys[k]);
        for (int j = 0; j < cJSON_GetArraySize(tri) && j < cJSON_GetArraySize(sp); j++) {
            double a = NAN, b = NAN;
            skb__jnum(cJSON_GetArrayItem(tri, j), &a);
            skb__jnum(cJSON_GetArrayItem(sp, j), &b);
            skb__pl_fnum(d, a);
            skb__pl_fnum(d, b);
            fputc('\n', d);
            have[k] = 1;
        }
        fprintf(d, "\n\n");
    }
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (skb__pl_dat_close(&mf, dir, pname) < 0)
        return;
    for (int k = 0; k < 2; k++)
        if (have[k])
            fprintf(f, ", '%s.dat' index %d using 1:2 axes x1y2 with points pt %d ps 1.8 lw 2 %s title '%s'",
                    pname, k, k ? 8 : 6, skb__pl_series_colour(lc, sizeof lc, 2 + k, 4), labels[k]);
}

void skb__plot_cd(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "cd.json"), *x;
    char name[64];
    const char *title = "CD time and speed-up against model size (thesis Table 5.3)";
    snprintf(name, sizeof name, "cd-scaling%s", sfx);
    if (!doc) {
        skb__pl_not_run(rep, name, title, skb_results_err(r, "cd.json")[0] ? "cd.json unreadable" : "cd.json not found (cd not run)");
        return;
    }
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return;
    int rows = 0, nfree = 0;
    cJSON_ArrayForEach(x, skb__jget(doc, "scaling")) {
        double tri = NAN, od = NAN, bu = NAN, sp = NAN, lv = NAN, spf = NAN;
        const char *pose = cJSON_GetStringValue(skb__jget(x, "pose"));
        if (cJSON_IsFalse(skb__jget(x, "colliding")) || (pose && strstr(pose, "free")))
            continue;
        skb__jnum(skb__jget(x, "level"), &lv);
        if (skb__jnum(skb__jget(x, "triangles"), &tri) < 0)
            tri = lv;
        skb__jnum(skb__jget(x, "on_demand_ms"), &od);
        skb__jnum(skb__jget(x, "bottom_up_ms"), &bu);
        if (skb__jnum(skb__jget(x, "speedup"), &sp) < 0 && od > 0)
            sp = bu / od;
        skb__pl_fnum(f, tri > 0 ? tri : NAN);
        skb__pl_fnum(f, od > 0 ? od : NAN);
        skb__pl_fnum(f, bu > 0 ? bu : NAN);
        skb__pl_fnum(f, sp > 0 ? sp : NAN);
        /* cd.json may carry the collision-free pose of the same level */
        skb__jnum(skb__jget(skb__jget(x, "collision_free"), "speedup"), &spf);
        skb__pl_fnum(f, spf > 0 ? spf : NAN);
        nfree += spf > 0;
        fputc('\n', f);
        rows++;
    }
    struct body b;
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (!rows) {
        fclose(b.f);
        free(b.buf);
        skb__pl_not_run(rep, name, title, "cd.json \"scaling\" is empty");
        return;
    }
    char s0[96], s1[96], s2[96], s3[96];
    fprintf(b.f, "set key below\nset logscale xy\nset logscale y2\nset xlabel 'triangles (log scale)'\nset ylabel 'time per CD query (ms, log scale)'\n"
                 "set y2label 'speed-up = bottom-up time / on-demand time (log scale)'\nset y2tics\nset ytics nomirror\n"
                 "plot '%s.dat' using 1:2 with linespoints lw 2 %s title 'on-demand (ms)', "
                 "'%s.dat' using 1:3 with linespoints lw 2 %s title 'bottom-up (ms)', "
                 "'%s.dat' using 1:4 axes x1y2 with linespoints lw 2 dt 2 %s title 'speed-up'",
            name, skb__pl_series_style(s0, sizeof s0, 0, 4), name, skb__pl_series_style(s1, sizeof s1, 1, 4), name,
            skb__pl_series_style(s2, sizeof s2, 2, 4));
    if (nfree)
        fprintf(b.f, ", '%s.dat' using 1:5 axes x1y2 with linespoints lw 2 dt 3 %s title 'speed-up, collision-free pose'",
                name, skb__pl_series_style(s3, sizeof s3, 3, 4));
    cd_paper(rep, dir, name, b.f);
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

/* ---- GPU image captions ---- */

/* "DLB — candy wrapper (arm, pose 0)" for images/FILE from gpu.json
 * "images" (method and scene, not the file name); the file name when
 * gpu.json does not list it */
