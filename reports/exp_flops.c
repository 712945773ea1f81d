/* exp_flops.c — the `flops` experiment's report half (run half:
 * harness/exp_flops.c; flops.json's table of fields:
 * harness/exp_flops_schema.c): the FLOP formulas of thesis Table 4.1's last
 * row, counted, and the callgrind instruction counts, judged against
 * reports/reference.json, and its exact nightly gate (the fits and counts). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"
#include "skb_run.h"

/* ---- FLOPs ---- */

/* " Counting rules (flops.json counting_rules): flops: ... — ...; ..." appended to the intro */
static void flops_rules_intro(struct skb_rtable *t, const cJSON *rules)
{
    const cJSON *r;
    char *acc = strdup(" Counting rules (flops.json counting_rules):");
    int any = 0;
    cJSON_ArrayForEach(r, rules) {
        const char *ops = skb__jstr(skb__jget(r, "operations")), *how = skb__jstr(skb__jget(r, "counted"));
        if (!ops || !how)
            continue;
        char *n = skb__fmt("%s %s: %s — %s.", acc, r->string, ops, how);
        free(acc);
        acc = n;
        any = 1;
    }
    if (any) {
        char *n = skb__fmt("%s%s", t->intro ? t->intro : "", acc);
        free(t->intro);
        t->intro = n;
    }
    free(acc);
}

/* 1 when a*n + b <= pa*n + pb for every n = 1..8 (the counted range), with
 * the largest measured/paper ratio in *ratio */
static int flops_at_most_paper(double a, double b, double pa, double pb, double *ratio)
{
    int ok = 1;
    *ratio = 0;
    for (int n = 1; n <= 8; n++) {
        double m = a * n + b, p = pa * n + pb;
        if (p > 0 && m / p > *ratio)
            *ratio = m / p;
        ok = ok && m <= p + 0.5;
    }
    return ok;
}

/* the callgrind column: instructions per blend as flops.json has them,
 * or why there are none */
static char *callgrind_cell(const cJSON *cg, const char *name)
{
    double cgv, c2, c8;
    const cJSON *cgm = skb__jget(skb__jget(cg, "per_method") ? skb__jget(cg, "per_method") : cg, name);
    if (skb__jnum(skb__jget(cgm, "n2"), &c2) == 0 && skb__jnum(skb__jget(cgm, "n8"), &c8) == 0)
        return skb__fmt("%.0f (n = 2) / %.0f (n = 8)", c2, c8);
    if (skb__jnum(skb__jget(cgm, "per_blend"), &cgv) == 0 && skb__jnum(skb__jget(cgm, "per_blend_n"), &c2) == 0)
        return skb__fmt("%.0f (n = %.0f)", cgv, c2);   /* the largest n that ran (sclerp: 2) */
    if (skb__jnum(cgm, &cgv) == 0 || skb__jnum(skb__jget(cgm, "per_blend"), &cgv) == 0
        || skb__jnum(skb__jget(cgm, "instructions_per_blend"), &cgv) == 0)
        return skb__fmt("%.0f", cgv);
    if (cJSON_IsFalse(skb__jget(cg, "available")))
        return skb__fmt("not measured: %s", skb__jstr(skb__jget(cg, "reason")) ? skb__jget(cg, "reason")->valuestring : "unavailable");
    return strdup(cg ? "—" : "not measured");
}

/* a measured a·n + b against the paper's formula pf: the status, *note
 * set where the row needs one, v judged when the paper has a formula */
static int flops_judge(double a, double b, const cJSON *pf, struct skb_verdict *v, char **note)
{
    double pa = NAN, pb = NAN;
    int has_p = skb__jnum(skb__jget(pf, "a"), &pa) == 0 && skb__jnum(skb__jget(pf, "b"), &pb) == 0;
    const char *ptext = skb__jstr(skb__jget(pf, "text"));
    if (!pf) {
        *note = strdup("not in the thesis table");
        return SKB_ROW_NEW;
    }
    if (!has_p) {
        *note = skb__fmt("paper gives no formula (%s)", ptext ? ptext : "?");
        return SKB_ROW_CONTEXT;
    }
    double ratio;
    /* both coefficients exact to the integer: the larger miss against [-0.5, 0.5] */
    skb_verdict_init(v, "exact_int", 0, fmax(fabs(a - pa), fabs(b - pb)), 0);
    skb_rule_band(v);
    int st = skb_verdict_status(v);
    if (st == SKB_ROW_DIFFERS && flops_at_most_paper(a, b, pa, pb, &ratio)) {
        st = SKB_ROW_FEWER;
        *note = skb__fmt("fewer FLOPs than the thesis at every n = 1..8 (at most %.0f%% of %s); "
                         "a − a_paper = %+.4g, b − b_paper = %+.4g", 100 * ratio, ptext ? ptext : "the paper",
                         a - pa, b - pb);
    } else if (st == SKB_ROW_DIFFERS) {
        *note = skb__fmt("a − a_paper = %+.4g, b − b_paper = %+.4g; up to %.1f%% above %s at n = 1..8",
                         a - pa, b - pb, 100 * (ratio - 1), ptext ? ptext : "the paper");
    }
    return st;
}

/* one method's row of run k */
static void flops_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *sec,
                      const char *name)
{
    const cJSON *f = skb__jget(skb__jget(doc, "fits"), name), *pf = skb__jget(skb__jget(sec, "formulas"), name);
    double a, b;
    char *meas, *note = NULL;
    struct skb_verdict v = { .rule = "" };
    int st;
    const char *ptext = skb__jstr(skb__jget(pf, "text"));
    char *cgs = callgrind_cell(skb__jget(doc, "callgrind"), name);
    if (!doc) {
        st = SKB_ROW_NOT_RUN;
        meas = strdup("—");
        note = skb__missing_note(&rep->runs[k], "flops.json");
    } else if (skb__jnum(skb__jget(f, "a"), &a) < 0 || skb__jnum(skb__jget(f, "b"), &b) < 0) {
        st = SKB_ROW_NOT_RUN;
        meas = strdup("—");
        note = skb__fmt("method %s not in flops.json", name);
    } else {
        meas = skb__fmt("%.4gn %+.4g", a, b);
        st = flops_judge(a, b, pf, &v, &note);
        note = skb__join_note(note, skb__why_lookup(doc, name, NULL));
    }
    skb__row_add(rep, t, k, st, note, strdup(name), meas, strdup(ptext ? ptext : "—"), cgs, NULL);
    if (st != SKB_ROW_FEWER)   /* "fewer than paper" is its own rule, at every n */
        skb__row_verdict(rep, t, &v, NULL);
}

static void section_flops(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "flops");
    static const char *const cols[] = { "method", "measured a·n + b", "paper", "callgrind instr./blend", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "flops", "FLOPs per blend (thesis Table 4.1, last row)", src,
                                   skb__fmt("Counted by executing each method (add, mul = 1). %s",
                                     "Rule: exact_int (both coefficients within 0.5); where ours are higher, the note says why."),
                                   cols);
    /* the counting convention and the counter's rules as flops.json states them */
    for (int k = 0; t && k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "flops.json");
        const char *conv = skb__jstr(skb__jget(doc, "convention"));
        if (!conv && !skb__jget(doc, "counting_rules"))
            continue;
        if (conv) {
            char *n = skb__fmt("%s Convention (flops.json): %s", t->intro ? t->intro : "", conv);
            free(t->intro);
            t->intro = n;
        }
        flops_rules_intro(t, skb__jget(doc, "counting_rules"));
        break;
    }
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "flops.json");
        const cJSON *methods[SKB_RMAXMETHODS];
        int nm = skb__key_union(skb__jget(sec, "formulas"), skb__jget(doc, "fits"), NULL, methods, SKB_RMAXMETHODS);
        if (nm < 0) {
            skb__overflow(rep, "report: flops.json lists more than %d methods (SKB_RMAXMETHODS)", SKB_RMAXMETHODS);
            nm = 0;
        }
        for (int i = 0; i < nm; i++)
            flops_row(rep, t, k, doc, sec, methods[i]->string);
    }
}

/* ---- nightly gate: the FLOP fits and callgrind counts stay exact ---- */

/* relative change of a FLOP fit coefficient treated as "changed": the fit
 * is deterministic, so only rounding noise is forgiven */
#define FLOP_FIT_REL_EQ 1e-9

static void gate_fits(struct skb_gate *g, const cJSON *a, const cJSON *b)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, skb__jget(a, "fits")) {
        const cJSON *bm = skb__jget(skb__jget(b, "fits"), m->string);
        for (int k = 0; k < 2; k++) {
            const char *c = k ? "b" : "a";
            double x, y;
            if (skb_json_get_number(skb__jget(m, c), &x) < 0)
                continue;
            if (!bm || skb_json_get_number(skb__jget(bm, c), &y) < 0)
                skb_gate_regression(g, "flops.json: FLOP fit of %s missing in the current run", m->string);
            else if (fabs(x - y) > FLOP_FIT_REL_EQ * fmax(1, fabs(x)))
                skb_gate_regression(g, "flops.json: FLOP count of %s changed: %s %.6g -> %.6g (FLOPs = a*n + b)",
                                    m->string, c, x, y);
            if (!bm)
                break;
        }
    }
}

static void gate_flops(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *a = skb_results_doc(base, "flops.json"), *b = skb_results_doc(cur, "flops.json"), *x;
    if (!a || !b)
        return;
    gate_fits(g, a, b);
    /* callgrind instruction counts: any subtree whose key names callgrind */
    cJSON_ArrayForEach(x, a)
        if (x->string && strstr(x->string, "callgrind"))
            skb_gate_exact_tree(g, "flops.json", x->string, x, skb__jget(b, x->string), "callgrind instruction count");
}

/* ---- the experiment: run half harness/exp_flops.c ---- */

const struct skb_experiment_desc skb_desc_flops = {
    .run = &skb_exp_flops,
    .files = (const struct skb_result_file[]){
        { "flops.json", 1, NULL, "fits/*", &skb_schema_flops }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "flops", SKB_NEED_BLEND, section_flops, NULL }, { NULL, 0, NULL, NULL } },
    .gate = gate_flops,
};
