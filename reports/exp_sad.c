/* exp_sad.c — the `sad` experiment's report half and descriptor
 * (thesis ch. 7, Skinning Arbitrary Deformations; run half
 * harness/exp_sad.c; sad.json's table: harness/exp_sad_schema.c): a Table 7.1-shaped
 * table whose rows are context (our animations are not the thesis's; the
 * thesis's rows, from reports/reference.json "table_7_1", are listed
 * beside them), the details per animation (affine / rigid, corrections,
 * normals, the MD2 quantisation floor, the fitter alone on the baked
 * clip's own rig), Table 7.2 as not applicable, the worst keyframe of each
 * animation pictured exact beside approximated (per-vertex error as
 * colour), and the error-against-p plot (thesis Fig. 7.5's question). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_sad_run.h"

/* ---- results file contract (beyond its table, harness/exp_sad_schema.c) ---- */

/* a picture's file as sad.json must name it: images/sad/<letters, digits,
 * _ - and single dots>.png, relative to the results dir (the report
 * embeds it: nothing else may be pulled into the page) */
static int sad_image_name(const char *rel)
{
    static const char pre[] = "images/sad/";
    size_t n = rel ? strlen(rel) : 0;
    if (n < sizeof pre + 4 || strncmp(rel, pre, sizeof pre - 1) != 0 || strcmp(rel + n - 4, ".png") != 0)
        return 0;
    for (const char *c = rel + sizeof pre - 1; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'
              || *c == '-' || (*c == '.' && c[1] != '.')))
            return 0;
    return 1;
}

/* the picture's file name rule, beyond its table of fields:
 * the report embeds the file, so nothing else may be pulled into the page */
static int check_sad(const cJSON *doc, const char *path, char *msg, size_t msglen)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, skb__jget(doc, "animations")) {
        const cJSON *pic = skb__jget(a, "picture");
        if (pic && !sad_image_name(skb__jstr(skb__jget(pic, "file")))) {
            snprintf(msg, msglen, "%s: field \"animations\".\"%.60s\".\"picture\".\"file\": expected a file name "
                     "images/sad/<letters, digits, _ - .>.png", path, a->string ? a->string : "?");
            return SKB_EPARSE;
        }
    }
    return 0;
}

/* ---- report ---- */

static double num(const cJSON *o, const char *k)
{
    double x = NAN;
    skb__jnum(skb__jget(o, k), &x);
    return x;
}

static double num2(const cJSON *o, const char *a, const char *b)
{
    return num(skb__jget(o, a), b);
}

static char *pct(double x)
{
    return isfinite(x) ? skb__fmt("%.3g", x) : strdup("—");
}

/* the thesis row our animation stands beside (only the curtain has a namesake) */
static const cJSON *thesis_row(const cJSON *sec, const char *ours)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, skb__jget(sec, "rows"))
        if (strcmp(ours, "curtain") == 0 && strcmp(skb__ref_str(r, "name"), "Curtain") == 0)
            return r;
    return NULL;
}

static void table71(struct skb_report *rep)
{
    static const char *const cols[] = { "animation", "vertices", "triangles", "keyframes", "p", "pre-process",
                                         "% error (rigid)", "compression", "thesis (Table 7.1)", NULL };
    const cJSON *sec = skb__jget(rep->ref, "table_7_1"), *r;
    struct skb_rtable *t = skb__tbl_new(rep, "table71", "Thesis Table 7.1: Skinning Arbitrary Deformations (SAD)",
                                        "seed 000, thesis Table 7.1; harness/exp_sad.c",
                                        strdup(skb__ref_str(sec, "about")), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "sad.json"), *a;
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "sad.json"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(a, skb__jget(doc, "animations")) {
            const cJSON *tr = thesis_row(sec, a->string);
            double q = num2(a, "quantisation_floor", "rms_pct"), above = num2(a, "rigid", "joint_keyframes_above_150deg");
            char *angle = skb__fmt("rigid fit rotations up to %.0f°%s", num2(a, "rigid", "max_joint_angle_deg"),
                                   above > 0 ? " (eq. 7.5's (1, c) reaches 180° only as |c| grows without bound)" : "");
            char *note = isfinite(q) ? skb__fmt("8-bit positions: quantisation floor %.3g %% (RMS), %.3g %% (half-step "
                                                "bound); affine fit %.3g %%; %s", q,
                                                num2(a, "quantisation_floor", "half_step_pct"),
                                                num2(a, "affine", "distortion"), angle)
                                     : skb__fmt("affine fit %.3g %%; %s", num2(a, "affine", "distortion"), angle);
            double cpu = num(a, "preprocess_cpu_s");
            free(angle);
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, note, strdup(a->string), skb__numtxt(num(a, "vertices")),
                         skb__numtxt(num(a, "triangles")), skb__numtxt(num(a, "keyframes")), skb__numtxt(num(a, "p")),
                         isfinite(cpu) ? skb__fmt("%.1f s (CPU %.1f s)", num(a, "preprocess_s"), cpu)
                                       : skb__fmt("%.1f s", num(a, "preprocess_s")),
                         pct(num2(a, "rigid", "distortion")),
                         skb__fmt("%.1f", num(a, "compression")),
                         tr ? skb__fmt("%s: %.4g %%, %.4g min, compression %.3g", skb__ref_str(tr, "name"),
                                       num(tr, "error"), num(tr, "preprocess_min"), num(tr, "compression"))
                            : strdup("—"), NULL);
        }
    }
    /* the thesis's rows themselves, as context (2007 hardware, animations we do not have) */
    cJSON_ArrayForEach(r, skb__jget(sec, "rows"))
        skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, strdup("thesis row (paper value)"), skb__fmt("thesis: %s", skb__ref_str(r, "name")),
                     skb__numtxt(num(r, "vertices")), skb__numtxt(num(r, "triangles")), skb__numtxt(num(r, "keyframes")),
                     strdup("100"), skb__fmt("%.4g min", num(r, "preprocess_min")), skb__fmt("%.4g", num(r, "error")),
                     skb__fmt("%.3g", num(r, "compression")), strdup("paper"), NULL);
    skb__row_add(rep, t, 0, SKB_ROW_NA, strdup(skb__ref_str(sec, "table_7_2")), strdup("Table 7.2 (SAD vs SMA)"), NULL);
}

/* affine / rigid with 0, 1, 10 corrections, normals, the own-rig check */
static void details(struct skb_report *rep)
{
    static const char *const cols[] = { "animation", "fit", "% error", "1 correction", "10 corrections", "normals mean / max °",
                                        "LSQR iterations", "fit time", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "sad_details", "SAD: affine and rigid fitting, corrections, normals",
                                        "seed 000, thesis 7.2-7.3, Figs. 7.5-7.6; harness/exp_sad.c",
                                        strdup("No paper value per row: our animations. Corrections are thesis 7.3's "
                                               "eigen-displacements (positions only). Normals: rigid fit only (thesis "
                                               "7.2.2, separate transformations). 'own rig' rows: the baked clip "
                                               "fitted with its own joints and weights (the fitter alone)."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "sad.json"), *a, *o;
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "sad.json"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(a, skb__jget(doc, "animations")) {
            for (int kind = 1; kind >= 0; kind--) {
                const cJSON *f = skb__jget(a, kind ? "rigid" : "affine");
                const cJSON *n = skb__jget(f, "normal_error_deg");
                skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(a->string), strdup(kind ? "rigid" : "affine"),
                             pct(num(f, "distortion")), pct(num2(f, "corrected", "1")), pct(num2(f, "corrected", "10")),
                             n ? skb__fmt("%.2f / %.1f", num(n, "mean"), num(n, "max")) : strdup("not fitted"),
                             skb__numtxt(num(f, "lsqr_iterations")), skb__fmt("%.2f s", num(f, "fit_s")), NULL);
            }
            /* the curtain in calmer wind: what its error grows with */
            cJSON_ArrayForEach(o, skb__jget(a, "wind_study"))
                skb__row_add(rep, t, k, SKB_ROW_NEW, skb__fmt("the same curtain with the wind's mean speed x %g and its "
                             "travelling wave %g: the sheet travels up to %.3g of its size, fitted joints turn up to "
                             "%.0f°, p = %g", num(o, "wind_scale"), num(o, "wave"), num(o, "sheet_travel"),
                             num(o, "max_joint_angle_deg"), num(o, "p")),
                             strdup(a->string), skb__fmt("rigid, wind x %g, wave %g", num(o, "wind_scale"), num(o, "wave")),
                             pct(num(o, "distortion")), strdup("—"), strdup("—"), strdup("not fitted"),
                             skb__numtxt(num(o, "lsqr_iterations")), skb__fmt("%.2f s", num(o, "fit_s")), NULL);
            cJSON_ArrayForEach(o, skb__jget(a, "own_rig"))
                skb__row_add(rep, t, k, SKB_ROW_NEW, skb__fmt("%g joints", num(o, "joints")), strdup(a->string),
                             skb__fmt("own rig: %s", o->string), pct(num(o, "distortion")), strdup("—"), strdup("—"),
                             strdup("not fitted"), skb__numtxt(num(o, "lsqr_iterations")), skb__fmt("%.2f s", num(o, "fit_s")),
                             NULL);
        }
    }
}

/* ---- pictures: one keyframe per animation, exact beside approximated ---- */

/* one animation's row: its picture's numbers and path, or why there is none */
static void picture_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *a, const char *nr)
{
    const cJSON *pic = skb__jget(a, "picture");
    const char *rel = skb__jstr(skb__jget(pic, "file"));
    char *path = sad_image_name(rel) ? skb__fmt("%s/%s", rep->runs[k].dir, rel) : NULL;
    struct stat st;
    /* a picture is only ever read below the run (no link on the way, docs/security.md) */
    if (!pic || !path || skb_stat_below(rep->runs[k].dir, rel, &st) != 0 || !S_ISREG(st.st_mode)) {
        /* the table is descriptive (no note column): the reason goes in the picture's cell */
        char *why = !pic ? skb__fmt("not run: %s", nr ? nr : "sad.json has no picture of it")
                         : skb__fmt("not run: %s: not in the results dir %s", rel ? rel : "?", rep->runs[k].dir);
        skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, strdup(why), strdup(a->string), strdup("—"), strdup("—"),
                     strdup("—"), strdup("—"), strdup("—"), why, NULL);
        free(path);
        return;
    }
    double size = num(pic, "model_size"), mx = num(pic, "scale_max_pct");
    skb__row_add(rep, t, k, SKB_ROW_CONTEXT, strdup(""), strdup(a->string),
                 skb__fmt("%.0f of %.0f", num(pic, "keyframe"), num(a, "keyframes")), skb__numtxt(num(pic, "p")),
                 skb__fmt("%.3g %%", num(pic, "max_error_pct")), skb__fmt("%.3g %%", num(pic, "rms_error_pct")),
                 skb__fmt("blue 0 → red %.3g %% (%.3g units)", mx, mx * size / 100), path, NULL);
}

static void pictures(struct skb_report *rep)
{
    static const char *const cols[] = { "animation", "keyframe (worst, 0-based)", "p", "max error", "RMS error",
                                        "colour scale", "picture: exact (left, grey), SAD (right)", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "sad_pictures", "SAD: the worst keyframe, exact beside approximated",
        "seed 000, thesis 7.4 (its error, per vertex); harness/exp_sad.c",
        strdup("Per animation the keyframe with the largest sum of squared vertex errors (0-based), the rigid fit "
               "with the run's p proxy-joints and no corrections. Left the exact mesh, right the approximation "
               "through the same camera, coloured by each vertex's distance to its exact position: blue 0, green, "
               "yellow, red at the keyframe's largest error. Errors in % of the model size (the largest extent of "
               "the rest mesh's box). MD2 (z up) is drawn upright. Descriptive, not judged."), cols);
    if (!t)
        return;
    t->unjudged = 1;
    t->image_col = 7;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "sad.json"), *a;
        const char *nr = skb__jstr(skb__jget(skb__jget(doc, "pictures"), "not_run"));
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "sad.json"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(a, skb__jget(doc, "animations"))
            picture_row(rep, t, k, a, nr);
    }
}

/* ---- plot: distortion against p ---- */

static void sanitize_name(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    for (; s && *s && k + 1 < n; s++)
        dst[k++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ? *s : '_';
    dst[k] = 0;
}

/* one plot of sad.json: one line per animation and fit (affine, rigid),
 * the points of each from series() */
struct sad_plot {
    const char *base, *title, *xlabel;
    void (*series)(FILE *d, const cJSON *anim, int rigid);
};

/* thesis Fig. 7.5's question: distortion against proxy-joints */
static void series_vs_p(FILE *d, const cJSON *a, int rigid)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, skb__jget(a, "error_vs_p")) {
        double x = num(row, rigid ? "rigid" : "affine");
        fprintf(d, "%g %.9g\n", num(row, "p"), isfinite(x) && x > 0 ? x : NAN);
    }
}

/* thesis Fig. 7.6: distortion against the eigen-displacements added (7.3) */
static void series_corrections(FILE *d, const cJSON *a, int rigid)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, skb__jget(skb__jget(a, rigid ? "rigid" : "affine"), "corrected")) {
        double y = NAN;
        char *end;
        long f = strtol(e->string, &end, 10);
        if (*end || f < 0 || skb__jnum(e, &y) < 0)
            continue;
        fprintf(d, "%ld %.9g\n", f, isfinite(y) && y > 0 ? y : NAN);
    }
}

static const struct sad_plot sad_vs_p = { "sad-error-vs-p", "SAD: distortion against proxy-joints (thesis Fig. 7.5's "
                                          "question)", "proxy-joints p", series_vs_p };
static const struct sad_plot sad_vs_corrections = { "sad-corrections", "SAD: distortion against eigen-displacements "
                                                    "(thesis Fig. 7.6)", "eigen-displacements added (7.3)",
                                                    series_corrections };

static void plot_sad_one(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                         const struct sad_plot *pl)
{
    char name[64], path[1400], wmsg[300], nm[64];
    const cJSON *doc = skb_results_doc(r, "sad.json"), *a;
    snprintf(name, sizeof name, "%s%s", pl->base, sfx);
    if (!doc) {
        struct skb_plot_entry *p = skb_report_plot_new(rep);
        if (p) {
            snprintf(p->name, sizeof p->name, "%s", name);
            snprintf(p->title, sizeof p->title, "%s", pl->title);
            snprintf(p->why, sizeof p->why, "sad.json not found");
        }
        return;
    }
    char *dat = NULL, *body = NULL;
    size_t dlen = 0, blen = 0;
    FILE *d = open_memstream(&dat, &dlen), *b = open_memstream(&body, &blen);
    if (!d || !b) {
        if (d)
            fclose(d);
        if (b)
            fclose(b);
        free(dat);
        free(body);
        return;
    }
    fprintf(b, "set logscale y\nset xlabel '%s'\nset ylabel '%% distortion (thesis 7.4)'\nset key below\nplot ", pl->xlabel);
    int idx = 0;
    cJSON_ArrayForEach(a, skb__jget(doc, "animations")) {
        sanitize_name(nm, sizeof nm, a->string);
        for (int kind = 0; kind < 2; kind++) {
            pl->series(d, a, kind);
            fprintf(d, "\n\n");
            fprintf(b, "%s'%s.dat' index %d using 1:2 with linespoints lw 2 pt %d dt %d title '%s %s'", idx ? ", " : "",
                    name, idx, 5 + 2 * (idx / 2), kind ? 1 : 2, nm, kind ? "rigid" : "affine");
            idx++;
        }
    }
    fprintf(b, "\n");
    fclose(d);
    fclose(b);
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    if (idx && skb_write_atomic(path, dat, dlen, wmsg, sizeof wmsg) == 0)
        skb__plot_gnuplot(rep, dir, name, pl->title, body);
    free(dat);
    free(body);
}

static void plot_sad(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    plot_sad_one(rep, dir, sfx, r, &sad_vs_p);
}

static void plot_sad_corrections(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    plot_sad_one(rep, dir, sfx, r, &sad_vs_corrections);
}

const struct skb_experiment_desc skb_desc_sad = {
    .run = &skb_exp_sad,
    .files = (const struct skb_result_file[]){ { "sad.json", 1, check_sad, NULL, &skb_schema_sad }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table71", SKB_NEED_NONE, table71, NULL }, { "sad_details", SKB_NEED_NONE, details, NULL },
        { "sad_pictures", SKB_NEED_NONE, pictures, NULL }, { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){ { "sad-error-vs-p", SKB_NEED_NONE, plot_sad },
                                               { "sad-corrections", SKB_NEED_NONE, plot_sad_corrections },
                                               { NULL, 0, NULL } },
};
