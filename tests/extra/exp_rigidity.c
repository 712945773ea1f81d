/* exp_rigidity.c — the extra experiment of tests/extra_experiment.sh (the
 * "two files and one list line" check), added to a copy of the tree by exactly the steps
 * of ARCHITECTURE.md "Adding an experiment": copied to reports/exp_rigidity.c and
 * listed in reports/experiment_list.c.  Not part of the build here.
 *
 * One file holds the whole experiment: its run hook (harness API: the run
 * context, seeded inputs, results metadata), its results file's table of
 * fields (the one schema, shared by its writer and every reader), its report
 * section and its nightly gate.  It lives in reports/
 * because the report half needs reports/ and reports/ may use harness/, not
 * the other way round.
 *
 * What it measures: for every method with a blend form, the largest
 * rigidity error (orthonormality, det, last row: skb_mat4_rigid_error) of
 * its output over seeded random blends of 2..4 random rigid transforms with
 * random convex weights, and how many blends failed. */
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include "report_internal.h"
#include "skb_method.h"
#include "skb_props.h"     /* skb_props_random_rigid: the shared random rigid transforms */
#include "skb_results.h"
#include "skb_schema.h"
#include "skb_run.h"

#define RIGIDITY_MAX_N 4

/* one random blend input: n transforms, convex weights, a centre */
static void draw_input(gsl_rng *r, int n, double *mats, double *w, double c[3])
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        skb_props_random_rigid(r, 1.0, mats + 16 * i);
        w[i] = gsl_rng_uniform_pos(r);
        sum += w[i];
    }
    for (int i = 0; i < n; i++)
        w[i] /= sum;
    for (int k = 0; k < 3; k++)
        c[k] = 2 * gsl_rng_uniform(r) - 1;
}

/* blends of one method on the seed's inputs (the same for every method) */
static cJSON *method_rigidity(const struct skb_run_ctx *ctx, const struct skb_method *m, int count)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, ctx->seed);
    double mats[16 * RIGIDITY_MAX_N], w[RIGIDITY_MAX_N], c[3], out[16], worst = 0;
    int ok = 0, failed = 0;
    for (int b = 0; b < count; b++) {
        int hi = m->max_n && m->max_n < RIGIDITY_MAX_N ? m->max_n : RIGIDITY_MAX_N;
        int n = 2 + (int)gsl_rng_uniform_int(r, (unsigned long)(hi - 1));
        draw_input(r, n, mats, w, c);
        struct skb_blend_in in = { n, w, mats, c };
        if (skb_blend(m, &in, &ctx->params, out, NULL, NULL, 0) < 0) {
            failed++;
            continue;
        }
        double e = skb_mat4_rigid_error(out);
        worst = e > worst ? e : worst;
        ok++;
    }
    gsl_rng_free(r);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "blends", ok);
    cJSON_AddNumberToObject(o, "failed", failed);
    cJSON_AddNumberToObject(o, "max_rigid_error", worst);
    return o;
}

/* rigidity.json's table of fields: declared once, here beside its writer,
 * which checks its document against it before writing (skb_results_write);
 * the report and compare check the file against the same table, and
 * `skinbench schema` prints it */
static const struct skb_schema rigidity_schema = {
    .file = "rigidity.json", .writer = "reports/exp_rigidity.c (tests/extra)", .meta = 1,
    .doc = "largest rigidity error of every method's blend on seeded random inputs",
    .fields = (const struct skb_schema_field[]){
        { .path = "blends_per_method", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "random blends per method" },
        { .path = "methods", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are registry method names" },
        { .path = "methods/*", .type = SKB_ST_OBJECT, .doc = "one method" },
        { .path = "methods/*/blends", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "blends that ran" },
        { .path = "methods/*/failed", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "blends that failed" },
        { .path = "methods/*/max_rigid_error", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "largest rigidity error of an output (orthonormality, det, last row)" },
        { .path = NULL } },
};

static int run_rigidity(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    int count = ctx->quick ? 200 : 5000;
    cJSON *root = skb_json_results_new(ctx, "rigidity");
    cJSON_AddNumberToObject(root, "blends_per_method", count);
    cJSON_AddNumberToObject(root, "tolerance", SKB_TOL_RIGID);
    cJSON *ms = cJSON_AddObjectToObject(root, "methods");
    for (int i = 0; skb_methods[i]; i++)
        if (skb_methods[i]->blend && skb_run_wants_method(ctx, skb_methods[i]))
            cJSON_AddItemToObject(ms, skb_methods[i]->name, method_rigidity(ctx, skb_methods[i], count));
    int rc = skb_results_write(ctx, &rigidity_schema, root, msg, msglen);
    cJSON_Delete(root);
    return rc;
}

static const struct skb_experiment exp_rigidity = {
    .name = "rigidity",
    .description = "largest rigidity error of every method's blend on seeded random inputs (test extra)",
    .run = run_rigidity,
};

/* ---- report section: one row per method in the file ---- */

static void report_rigidity(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "blends", "failed", "max rigidity error", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "rigidity", "Rigidity of every blend (test extra experiment)",
                                        "tests/extra/exp_rigidity.c", strdup("No paper value: a project check."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "rigidity.json"), *m;
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "rigidity.json"), strdup("all"), NULL);
            continue;
        }
        double tol = SKB_TOL_RIGID;
        skb__jnum(skb__jget(doc, "tolerance"), &tol);
        cJSON_ArrayForEach(m, skb__jget(doc, "methods")) {
            double b = 0, f = 0, e = 0;
            skb__jnum(skb__jget(m, "blends"), &b);
            skb__jnum(skb__jget(m, "failed"), &f);
            skb__jnum(skb__jget(m, "max_rigid_error"), &e);
            skb__row_add(rep, t, k, SKB_ROW_NEW, skb__fmt("%s (tolerance %g)", e <= tol ? "rigid" : "NOT rigid", tol),
                         strdup(m->string), skb__numtxt(b), skb__numtxt(f), skb__fmt("%.3g", e), NULL);
        }
    }
}

/* ---- nightly gate: a method that was rigid and blending stays so ---- */

static void gate_rigidity(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *a = skb_results_doc(base, "rigidity.json"), *b = skb_results_doc(cur, "rigidity.json"), *m;
    if (!a || !b)
        return;
    cJSON_ArrayForEach(m, skb__jget(a, "methods")) {
        const cJSON *bm = skb__jget(skb__jget(b, "methods"), m->string);
        double fa = 0, fb = 0, ea = 0, eb = 0;
        if (!bm) {
            skb_gate_regression(g, "rigidity.json: method %s missing in the current run", m->string);
            continue;
        }
        skb__jnum(skb__jget(m, "failed"), &fa);
        skb__jnum(skb__jget(bm, "failed"), &fb);
        skb__jnum(skb__jget(m, "max_rigid_error"), &ea);
        skb__jnum(skb__jget(bm, "max_rigid_error"), &eb);
        if (fb > fa)
            skb_gate_regression(g, "rigidity.json: %s failed %g blends, the baseline %g", m->string, fb, fa);
        if (ea <= SKB_TOL_RIGID && eb > SKB_TOL_RIGID)
            skb_gate_regression(g, "rigidity.json: %s is no longer rigid (max error %.3g > %g)", m->string, eb,
                                SKB_TOL_RIGID);
    }
}

const struct skb_experiment_desc skb_desc_rigidity = {
    .run = &exp_rigidity,
    .files = (const struct skb_result_file[]){
        { "rigidity.json", 1, NULL, "methods/*", &rigidity_schema }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "rigidity", SKB_NEED_BLEND, report_rigidity, NULL }, { NULL, 0, NULL, NULL } },
    .gate = gate_rigidity,
};
