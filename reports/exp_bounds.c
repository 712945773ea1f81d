/* exp_bounds.c — the `bounds` experiment's report half (run half:
 * harness/exp_bounds.c; bounds.json's table of fields:
 * harness/exp_bounds_schema.c): the scalar bounds and worked examples judged
 * against reports/reference.json, the bound curves bounds.json carries (DQ
 * paper Fig. 23, thesis Fig. A.1) with the paper's values marked, and the
 * DIB iteration histograms.  The gnuplot core: plots.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdarg.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_label.h"
#include "skb_method.h"
#include "skb_report.h"
#include "plots_internal.h"
#include "skb_run.h"

/* ---- scalar bounds and worked examples ---- */

static const cJSON *path_get(const cJSON *doc, const cJSON *path)
{
    const cJSON *x = doc, *p;
    cJSON_ArrayForEach(p, path) {
        if (!skb__jstr(p))
            return NULL;
        x = skb__jget(x, p->valuestring);
    }
    return x;
}

/* one reference entry's row of run k: measured at its path, judged by its
 * tolerance (either point of a symmetric pair counts) */
static void bounds_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *e)
{
    double paper = NAN, lo = NAN, meas;
    skb__jnum(skb__jget(e, "paper"), &paper);
    skb__jnum(skb__jget(e, "paper_lo"), &lo);
    const cJSON *pth = skb__jget(e, "path");
    char *note = NULL, *ms;
    struct skb_verdict v = { .rule = "" };
    int st;
    char pathtxt[200] = "";
    const cJSON *p;
    cJSON_ArrayForEach(p, pth) {
        size_t l = strlen(pathtxt);
        snprintf(pathtxt + l, sizeof pathtxt - l, "%s%s", l ? "." : "", skb__jstr(p) ? p->valuestring : "?");
    }
    if (!doc) {
        st = SKB_ROW_NOT_RUN;
        ms = strdup("—");
        note = skb__missing_note(&rep->runs[k], "bounds.json");
    } else if (skb__jnum(path_get(doc, pth), &meas) < 0) {
        st = SKB_ROW_NOT_RUN;
        ms = strdup("—");
        note = skb__fmt("bounds.json has no number at %s", pathtxt);
    } else {
        ms = skb__numtxt(meas);
        double alt;
        st = skb__judge_v(skb__jget(e, "tolerance"), meas, paper, lo, &v, &note);
        /* a bound attained at two symmetric points: either counts */
        if (st == SKB_ROW_DIFFERS && skb__jnum(skb__jget(e, "alt_paper"), &alt) == 0) {
            char *n2;
            struct skb_verdict v2;
            if (skb__judge_v(skb__jget(e, "tolerance"), meas, alt, lo, &v2, &n2) == SKB_ROW_REPRODUCED) {
                st = SKB_ROW_REPRODUCED;
                v = v2;
                free(note);
                note = skb__fmt("the symmetric point %.5g", alt);
            }
            free(n2);
        }
        note = skb__join_note(note, skb__why_lookup(doc, skb__jstr(skb__jget(e, "id")), NULL));
    }
    /* a paper value computed from the seed's formula, not printed in it */
    const char *derived = skb__jstr(skb__jget(e, "derived"));
    note = skb__join_note(note, derived);
    skb__row_add(rep, t, k, st, note, strdup(skb__ref_str(e, "label")), strdup(skb__ref_str(e, "units")), ms,
            derived ? skb__fmt("%.6g (derived)", paper) : skb__numtxt(paper),
            skb__fmt("seed %s, %s", skb__ref_str(e, "seed"), skb__ref_str(e, "where")), NULL);
    skb__row_verdict(rep, t, &v, NULL);
}

/* every other top-level number bounds.json reports: a row each, new */
static void bounds_extra_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *sec)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, doc) {
        double v;
        static const char *const meta[] = { "schema_version", "seed", "quick", NULL };
        int skip = 0;
        for (int i = 0; meta[i]; i++)
            skip |= strcmp(x->string, meta[i]) == 0;
        const cJSON *e2;
        cJSON_ArrayForEach(e2, skb__jget(sec, "entries")) {
            const cJSON *p0 = cJSON_GetArrayItem(skb__jget(e2, "path"), 0);
            if (skb__jstr(p0) && strcmp(p0->valuestring, x->string) == 0 && cJSON_GetArraySize(skb__jget(e2, "path")) == 1)
                skip = 1;
        }
        if (skip || !cJSON_IsNumber(x) || skb__jnum(x, &v) < 0)
            continue;
        skb__row_add(rep, t, k, SKB_ROW_NEW, strdup("no paper value"), strdup(x->string), strdup(""), skb__numtxt(v),
                strdup("—"), strdup("bounds.json"), NULL);
    }
}

static void section_bounds(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "bounds");
    static const char *const cols[] = { "quantity", "units", "measured", "paper", "where", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "bounds", "Bounds and worked examples (SPEC 3)", src,
                                   strdup("Per-row rule: the tolerance of each entry in reports/reference.json "
                                          "(bounds within 1 %, closed forms within 0.1 %, counts exact). "
                                          "Further numbers in bounds.json are listed as new."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "bounds.json");
        const cJSON *e;
        cJSON_ArrayForEach(e, skb__jget(sec, "entries"))
            bounds_row(rep, t, k, doc, e);
        bounds_extra_rows(rep, t, k, doc, sec);
    }
}

/* ---- plots: bound curves over t ---- */

/* a curve object {"curve": [[t, y1, y2, ...], ...]}: rows of numbers;
 * returns the number of y columns (0 if not that shape) */
static int curve_rows(const cJSON *c)
{
    const cJSON *cv = skb__jget(c, "curve"), *row;
    int ncol = -1;
    if (!cJSON_IsArray(cv) || cJSON_GetArraySize(cv) < 2)
        return 0;
    cJSON_ArrayForEach(row, cv) {
        double v;
        int n = cJSON_GetArraySize(row);
        if (!cJSON_IsArray(row) || n < 2 || (ncol >= 0 && n != ncol) || skb__jnum(cJSON_GetArrayItem(row, 0), &v) < 0)
            return 0;
        ncol = n;
    }
    return ncol - 1;
}

/* a curve object {"t": [...], "y1": [...], ...}: the numeric arrays of the
 * same length as t are its series */
static int curve_series(const cJSON *c, const cJSON **ser, int max)
{
    const cJSON *t = skb__jget(c, "t"), *x;
    int n = cJSON_GetArraySize(t), ns = 0;
    if (!cJSON_IsArray(t) || n < 2)
        return 0;
    cJSON_ArrayForEach(x, c) {
        double v;
        if (x == t || !cJSON_IsArray(x) || cJSON_GetArraySize(x) != n || ns >= max)
            continue;
        if (skb__jnum(cJSON_GetArrayItem(x, 0), &v) == 0)
            ser[ns++] = x;
    }
    return ns;
}

/* what each known curve is: the bounds.json key parts that find it, its
 * title, and the label of each y axis (a series whose key has "pct" goes on
 * the second axis: degrees and percentages never share one) */
struct curve_spec {
    const char *need1, *need2, *name, *title, *y1label, *y2label;
};
static const struct curve_spec curve_specs[] = {
    { "qlb", NULL, "gap-qlb-slerp", "QLB − SLERP rotation-angle gap over t (thesis Lemma 3.2)",
      "rotation-angle gap (degrees)", NULL },
    { "dlb_sclerp", NULL, "gap-dlb-sclerp", "DLB − ScLERP gap over t (DQ paper Fig. 23, thesis App. A.1)",
      "rotation-angle gap (degrees)", "translation gap along the axis (% of α_ε)" },
    { "log", NULL, "logm-speed", "Log-matrix angular speed over t (thesis Fig. A.1)",
      "angular speed |ω(t)| (rad per unit t)", NULL },
};
#define NCURVES ((int)(sizeof curve_specs / sizeof curve_specs[0]))

/* the paper's values on a curve, by reports/reference.json bounds id: a
 * point at the paper's t (t_id, and its alt_paper), at a fixed t, or, where
 * the paper gives no t, a horizontal line at its maximum; `scale` converts
 * the entry's units to the series' (a fraction of α_ε to %) */
struct curve_paper {
    int spec;                  /* index into curve_specs */
    const char *y_id, *t_id;
    double t_fixed;            /* NAN: none */
    double scale;
    const char *unit;          /* of the scaled value, for the legend */
    int y2;
};
static const struct curve_paper curve_papers[] = {
    { 0, "qlb_slerp_angle", "qlb_slerp_argmax_t", NAN, 1, "°", 0 },
    { 1, "dlb_sclerp_angle", NULL, NAN, 1, "°", 0 },
    { 1, "dlb_sclerp_translation", NULL, NAN, 100, "% of α_ε", 1 },
    { 2, "logm_speed_t0", NULL, 0, 1, "rad/t", 0 },
    { 2, "logm_speed_t1", NULL, 1, 1, "rad/t", 0 },
};

/* the paper block of one curve_papers entry into f (gnuplot index blocks
 * are separated by two blank lines); its legend title into label; 0 if the
 * reference has it */
static int paper_block(const struct skb_report *rep, const struct curve_paper *cp, FILE *f, char *label, size_t len)
{
    const cJSON *ey = skb__pl_ref_bound(rep, cp->y_id), *et = cp->t_id ? skb__pl_ref_bound(rep, cp->t_id) : NULL;
    double y = NAN, t = cp->t_fixed, t2 = NAN;
    if (skb__jnum(skb__jget(ey, "paper"), &y) < 0)
        return -1;
    char wb[160];
    const char *where = skb__pl_short_where(cJSON_GetStringValue(skb__jget(ey, "where")), wb, sizeof wb);
    if (et && skb__jnum(skb__jget(et, "paper"), &t) == 0)
        skb__jnum(skb__jget(et, "alt_paper"), &t2);
    if (isfinite(t)) {
        fprintf(f, "%.9g %.9g\n", t, y * cp->scale);
        if (isfinite(t2))
            fprintf(f, "%.9g %.9g\n", t2, y * cp->scale);
        snprintf(label, len, "paper: %.5g %s at t = %.4g%s (%s)", y * cp->scale, cp->unit, t,
                 isfinite(t2) ? " and its mirror" : "", where);
    } else {
        fprintf(f, "0 %.9g\n1 %.9g\n", y * cp->scale, y * cp->scale);
        snprintf(label, len, "paper maximum: %.5g %s (%s)", y * cp->scale, cp->unit, where);
    }
    fprintf(f, "\n\n");
    return 0;
}

/* the paper overlays of curve spec `spec`: NAME-paper.dat and the plot
 * clauses (", 'NAME-paper.dat' index k ...") appended to f; a line for a
 * maximum in the colour of the curve on its axis (first or second series
 * of ns) */
static void paper_overlays(const struct skb_report *rep, int spec, int ns, const char *dir, const char *name, FILE *f)
{
    struct memfile mf;
    FILE *d = skb__pl_mem_open(&mf);
    char label[8][300], pname[80], qt[640];
    int idx[8], n = 0;
    if (!d)
        return;
    for (int i = 0; i < (int)(sizeof curve_papers / sizeof curve_papers[0]) && n < 8; i++)
        if (curve_papers[i].spec == spec && paper_block(rep, &curve_papers[i], d, label[n], sizeof label[n]) == 0)
            idx[n++] = i;
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (skb__pl_dat_close(&mf, dir, pname) < 0 || !n)
        return;
    for (int k = 0; k < n; k++) {
        const struct curve_paper *cp = &curve_papers[idx[k]];
        char lc[40];
        fprintf(f, ", '%s.dat' index %d using 1:2%s with ", pname, k, cp->y2 ? " axes x1y2" : "");
        if (isfinite(cp->t_fixed) || cp->t_id)
            fprintf(f, "points pt 6 ps 2.2 lw 2 lc rgb '#000000'");
        else
            fprintf(f, "lines dt %d lw 2 %s", cp->y2 ? 4 : 3, skb__pl_series_colour(lc, sizeof lc, cp->y2 && ns > 1, ns));
        fprintf(f, " title %s", skb__pl_gp_quote(qt, sizeof qt, label[k]));
    }
}

static int has_pct(const char *key)
{
    return strstr(key, "pct") != NULL;
}

/* axis labels; the second axis only when a series uses it */
static void curve_axes(FILE *f, const struct curve_spec *sp, int y2)
{
    char qt[300];
    fprintf(f, "set key below\nset xlabel 't (interpolation parameter)'\nset ylabel %s\n",
            skb__pl_gp_quote(qt, sizeof qt, sp && sp->y1label ? sp->y1label : "value"));
    if (y2)
        fprintf(f, "set y2label %s\nset y2tics\nset ytics nomirror\n",
                skb__pl_gp_quote(qt, sizeof qt, sp && sp->y2label ? sp->y2label : "percent"));
}

static void curve_plot(struct skb_report *rep, const char *dir, const char *name, const char *title, const cJSON *c,
                       int spec)
{
    const cJSON *ser[MAXSER];
    const struct curve_spec *sp = spec >= 0 ? &curve_specs[spec] : NULL;
    int ns = curve_series(c, ser, MAXSER), nr = curve_rows(c), y2 = 0;
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    struct body b;
    char st[96];
    if (!f) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (nr > 0) {
        /* rows [t, measured, reference...]: the first y is the measurement */
        const cJSON *row, *v;
        cJSON_ArrayForEach(row, skb__jget(c, "curve")) {
            cJSON_ArrayForEach(v, row) {
                double x = NAN;
                skb__jnum(v, &x);
                skb__pl_fnum(f, x);
            }
            fputc('\n', f);
        }
    } else {
        const cJSON *t = skb__jget(c, "t");
        for (int i = 0; i < cJSON_GetArraySize(t); i++) {
            double v = NAN;
            skb__jnum(cJSON_GetArrayItem(t, i), &v);
            skb__pl_fnum(f, v);
            for (int s = 0; s < ns; s++) {
                v = NAN;
                skb__jnum(cJSON_GetArrayItem(ser[s], i), &v);
                skb__pl_fnum(f, v);
            }
            fputc('\n', f);
        }
        for (int s = 0; s < ns; s++)
            y2 |= has_pct(ser[s]->string);
    }
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    curve_axes(b.f, sp, y2);
    fprintf(b.f, "plot ");
    if (nr > 0) {
        for (int k = 0; k < nr && k < 8; k++)
            fprintf(b.f, "%s'%s.dat' using 1:%d with %s %s title '%s'", k ? ", " : "", name, 2 + k,
                    k ? "linespoints pi 5 lw 2 dt 2" : "points ps 0.8", skb__pl_series_style(st, sizeof st, k, nr),
                    k == 0 ? "measured" : k == 1 ? "closed form / reference" : "reference");
    } else {
        for (int s = 0; s < ns; s++) {
            fprintf(b.f, "%s'%s.dat' using 1:%d%s with linespoints pi 10 lw 2 %s", s ? ", " : "", name, 2 + s,
                    has_pct(ser[s]->string) ? " axes x1y2" : "", skb__pl_series_style(st, sizeof st, s, ns));
            skb__pl_put_title(b.f, ser[s]->string, NULL);
        }
    }
    if (spec >= 0)
        paper_overlays(rep, spec, nr > 0 ? nr : ns, dir, name, b.f);
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

static int curve_spec_of(const char *key)
{
    for (int i = 0; i < NCURVES; i++)
        if (strstr(key, curve_specs[i].need1) && (!curve_specs[i].need2 || strstr(key, curve_specs[i].need2)))
            return i;
    return -1;
}

static void plot_bounds(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "bounds.json"), *x;
    int found[NCURVES] = { 0 };
    cJSON_ArrayForEach(x, doc) {
        const cJSON *ser[MAXSER];
        if (!cJSON_IsObject(x) || (curve_series(x, ser, MAXSER) < 1 && curve_rows(x) < 1))
            continue;
        char name[64], title[160];
        int spec = curve_spec_of(x->string);
        double a0;
        if (spec >= 0)
            found[spec] = 1;
        snprintf(name, sizeof name, "bounds-%s%s", x->string, sfx);
        skb__pl_sanitize(name);
        if (skb__jnum(skb__jget(x, "alpha0_deg"), &a0) == 0)
            snprintf(title, sizeof title, "%s, α0 = %.4g°", spec >= 0 ? curve_specs[spec].title : x->string, a0);
        else
            snprintf(title, sizeof title, "%s", spec >= 0 ? curve_specs[spec].title : x->string);
        curve_plot(rep, dir, name, title, x, spec);
    }
    for (int i = 0; i < NCURVES; i++)
        if (!found[i]) {
            char name[64], why[240];
            snprintf(name, sizeof name, "%s%s", curve_specs[i].name, sfx);
            if (!doc)
                snprintf(why, sizeof why, "bounds.json %s", skb_results_err(r, "bounds.json")[0] ? "unreadable" : "not found (bounds not run)");
            else
                snprintf(why, sizeof why, "bounds.json has no curve ({\"t\": [...], ...} or {\"curve\": [[t, y], ...]}) under a key containing \"%s\"%s%s; only the maxima are reported",
                         curve_specs[i].need1, curve_specs[i].need2 ? " and " : "", curve_specs[i].need2 ? curve_specs[i].need2 : "");
            skb__pl_not_run(rep, name, curve_specs[i].title, why);
        }
}

/* ---- DIB iterations ---- */

/* one histogram as "iterations count" rows: {"1": n, "2": n}, [n0, n1, ...]
 * (index = iterations) or {"iterations": [...], "count": [...]}; rows written */
static int hist_rows(const cJSON *h, FILE *f)
{
    int rows = 0;
    const cJSON *it = skb__jget(h, "iterations"), *ct = skb__jget(h, "count") ? skb__jget(h, "count") : skb__jget(h, "counts"), *x;
    if (cJSON_IsArray(it) && cJSON_IsArray(ct)) {
        for (int i = 0; i < cJSON_GetArraySize(it); i++, rows++) {
            double a = NAN, b = NAN;
            skb__jnum(cJSON_GetArrayItem(it, i), &a);
            skb__jnum(cJSON_GetArrayItem(ct, i), &b);
            skb__pl_fnum(f, a);
            skb__pl_fnum(f, b);
            fputc('\n', f);
        }
    } else if (cJSON_IsArray(h)) {
        int i = 0;
        cJSON_ArrayForEach(x, h) {
            double b = NAN;
            skb__jnum(x, &b);
            fprintf(f, "%d", i++);
            skb__pl_fnum(f, b);
            fputc('\n', f);
            rows++;
        }
    } else {
        cJSON_ArrayForEach(x, h) {
            double b = NAN;
            char *end;
            double a = strtod(x->string, &end);
            if (*end || skb__jnum(x, &b) < 0)
                continue;
            skb__pl_fnum(f, a);
            skb__pl_fnum(f, b);
            fputc('\n', f);
            rows++;
        }
    }
    return rows;
}

/* the paper's "typically 1 to 4 iterations" (dib_typical_iterations
 * paper_lo .. paper) as a shaded band; its legend entry (a clause starting
 * with ", ") into key, "" when the reference lacks it */
static void dib_paper_band(const struct skb_report *rep, FILE *f, char *key, size_t keylen)
{
    const cJSON *e = skb__pl_ref_bound(rep, "dib_typical_iterations");
    double lo = NAN, hi = NAN;
    char label[300], qt[640];
    key[0] = 0;
    if (skb__jnum(skb__jget(e, "paper_lo"), &lo) < 0 || skb__jnum(skb__jget(e, "paper"), &hi) < 0)
        return;
    char wb[160];
    const char *where = skb__pl_short_where(cJSON_GetStringValue(skb__jget(e, "where")), wb, sizeof wb);
    snprintf(label, sizeof label, "paper: typically %g to %g iterations (%s)", lo, hi, where);
    fprintf(f, "set object 1 rect from %g, graph 0 to %g, graph 1 behind fc rgb '#e4e4e4' fs solid noborder\n", lo - 0.5,
            hi + 0.5);
    snprintf(key, keylen, ", NaN with boxes fs solid fc rgb '#e4e4e4' title %s", skb__pl_gp_quote(qt, sizeof qt, label));
}

/* DIB iterations: every key containing "hist" at the top of bounds.json
 * (else flops.json) as bars side by side, the paper's typical range shaded */
static void plot_dib(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *h[8], *x;
    const char *where = NULL;
    int nh = 0;
    static const char *const files[2] = { "bounds.json", "flops.json" };
    for (int i = 0; i < 2 && !nh; i++)
        cJSON_ArrayForEach(x, skb_results_doc(r, files[i]))
            if (nh < 8 && x->string && strstr(x->string, "hist") && (cJSON_IsObject(x) || cJSON_IsArray(x))) {
                h[nh++] = x;
                where = files[i];
            }
    char name[64], title[200], st[96];
    snprintf(name, sizeof name, "dib-iterations%s", sfx);
    const char *title0 = "DIB iterations per blend (thesis Alg. 4.1)";
    if (!nh) {
        skb__pl_not_run(rep, name, title0, "no key containing \"hist\" in bounds.json or flops.json");
        return;
    }
    struct memfile mf;
    int rows = 0;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return;
    for (int k = 0; k < nh; k++) {
        rows += hist_rows(h[k], f);
        fprintf(f, "\n\n");
    }
    struct body b;
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title0, "cannot write the data file");
        return;
    }
    snprintf(title, sizeof title, "%s [%s]", title0, where);
    if (!rows) {
        fclose(b.f);
        free(b.buf);
        skb__pl_not_run(rep, name, title, "histogram is empty or of an unknown shape");
        return;
    }
    double w = 0.8 / nh;
    char band[700];
    dib_paper_band(rep, b.f, band, sizeof band);
    fprintf(b.f, "set key below\nset style fill solid 0.8 border -1\nset boxwidth %g\n"
                 "set xlabel 'iterations to reach the precision'\nset ylabel 'blends (count)'\nset yrange [0:*]\n"
                 "set xrange [-0.6:*]\nset xtics 1\nplot ", w);
    for (int k = 0; k < nh; k++) {
        fprintf(b.f, "%s'%s.dat' index %d using ($1%+.4f):2 with boxes %s", k ? ", " : "", name, k,
                -0.4 + w * (k + 0.5), skb__pl_series_colour(st, sizeof st, k, nh));
        skb__pl_put_title(b.f, h[k]->string, NULL);
    }
    fprintf(b.f, "%s\n", band);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

/* ---- the experiment: run half harness/exp_bounds.c ---- */

const struct skb_experiment_desc skb_desc_bounds = {
    .run = &skb_exp_bounds,
    .files = (const struct skb_result_file[]){
        { "bounds.json", 1, NULL, NULL, &skb_schema_bounds }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "bounds", SKB_NEED_NONE, section_bounds, NULL }, { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){
        { "bounds", SKB_NEED_NONE, plot_bounds }, { "dib-iterations", SKB_NEED_NONE, plot_dib },
        { NULL, 0, NULL } },
};
