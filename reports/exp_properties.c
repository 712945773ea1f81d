/* exp_properties.c — the `properties` experiment's report half (run half:
 * harness/exp_properties.c; properties.json's table of fields:
 * harness/exp_properties_schema.c): thesis Table 4.1, each method's verdict
 * on each blend property judged against reports/reference.json, and
 * table-4.1.md beside a run's results: the report's Table 4.1 and FLOP
 * tables, rendered by the report's renderer (one renderer per table;
 * `run properties` / `run flops` only write JSON), and its exact nightly
 * gate (every verdict). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdarg.h>
#include "skb_json.h"
#include "skb_report.h"
#include "report_internal.h"
#include "skb_run.h"

/* ---- thesis Table 4.1 ---- */

/* " at t = T" etc. of a moderate counterexample, or "" */
static char *moderate_note(const char *name, const char *prop, const cJSON *mod)
{
    double ang = NAN, ax = NAN, mo = NAN, t = NAN;
    skb__jnum(skb__jget(mod, "path_angle_rad"), &ang);
    skb__jnum(skb__jget(mod, "axis_drift"), &ax);
    skb__jnum(skb__jget(mod, "moment_drift_rel"), &mo);
    skb__jnum(skb__jget(mod, "t"), &t);
    const char *file = skb__jstr(skb__jget(mod, "replay_file"));
    if (!mod || !isfinite(ang) || !isfinite(mo))
        return strdup("");
    return skb__fmt("; counterexample (moderate: path angle %.3g rad, axis drift %.2g, moment drift %.3g of the "
                    "scale L at t = %g) replayable from properties.json details.%s.%s.moderate_counterexample%s%s%s",
                    ang, ax, mo, t, name, prop, file ? " (" : "", file ? file : "", file ? ")" : "");
}

/* Who causes a "differs" of a property whose check carries a control on the
 * paper's own ground (properties.json "rotation_only": the same pairs as
 * rotations about the origin, the scope of thesis Lemma 3.1): the paper
 * when skinbench agrees with it there and breaks only outside it; not
 * settled when skinbench breaks there too (then skinbench is the suspect).
 * The paper's basis is reference.json table_4_1.basis, never typed in here. */
static char *cause_note(const cJSON *sec, const char *name, const char *prop, const char *mv, const char *pv,
                        const cJSON *det)
{
    const cJSON *ctl = skb__jget(det, "rotation_only");
    const char *cv = skb__jstr(skb__jget(ctl, "verdict"));
    const char *basis = skb__jstr(skb__jget(skb__jget(skb__jget(sec, "basis"), name), prop));
    double cw = NAN, cn = NAN;
    skb__jnum(skb__jget(ctl, "worst_error"), &cw);
    skb__jnum(skb__jget(ctl, "samples"), &cn);
    if (!cv || strcmp(mv, "-") != 0 || strcmp(pv, "+") != 0)
        return NULL;
    if (strcmp(cv, "+") != 0)
        return skb__fmt("cause not settled: %s fails on the same pairs without translation too (rotation-only "
                        "control %s, worst error %.3g), inside the paper's own ground, so skinbench's "
                        "implementation is to be checked against the seed text first", name, cv, cw);
    char *mod = moderate_note(name, prop, skb__jget(det, "moderate_counterexample"));
    char *n = skb__fmt("cause: the paper — %s; on the same %.0f pairs without translation (rotations about the "
                       "origin) skinbench measures + (worst error %.3g), so the method agrees with the paper "
                       "there and the screw moves only once translation is added%s",
                       basis ? basis : "its basis is not named in reference.json", cn, cw, mod);
    free(mod);
    return n;
}

/* thesis 4.2's basic property 3 (permutation invariance) is no Table 4.1
 * column, but properties.json measures it beside "n > 2"
 * (multi.parts.permutation_error: reversed inputs): a method that breaks
 * it is said so in its row, the verdicts unchanged.  1e-6 is the loosest
 * tolerance of the measured verdicts; errors measured so far are ~1e-15
 * or >= 2 (the pivot choice when the inputs span more than a hemisphere) */
#define PERMUTATION_NOTE_MIN 1e-6
static char *permutation_note(const cJSON *doc, const char *name)
{
    double e;
    const cJSON *multi = skb__jget(skb__jget(skb__jget(doc, "details"), name), "multi");
    if (skb__jnum(skb__jget(skb__jget(multi, "parts"), "permutation_error"), &e) < 0 || e <= PERMUTATION_NOTE_MIN)
        return NULL;
    return skb__fmt("order-dependent: thesis 4.2's basic property 3 (permutation invariance) fails, the blend of "
                    "the inputs reversed differs by %.3g (properties.json details.%s.multi.parts.permutation_error; "
                    "not a Table 4.1 column, no verdict changed)", e, name);
}

/* the note of a verdict that differs from the paper's: property, both
 * verdicts, the worst error and counterexample, the cause and the why;
 * appended to note (which it takes over) */
static char *mismatch_note(char *note, const cJSON *doc, const cJSON *sec, const char *name, const char *prop,
                           const char *mv, const char *pv)
{
    const char *why = skb__why_lookup(doc, name, prop);
    const cJSON *det = skb__jget(skb__jget(skb__jget(doc, "details"), name), prop);
    const cJSON *ce = skb__jget(det, "counterexample");
    double worst = NAN;
    skb__jnum(skb__jget(det, "worst_error"), &worst);
    if (!ce)
        ce = skb__jget(skb__jget(skb__jget(doc, "counterexamples"), name), prop);
    char wb[64] = "";
    if (isfinite(worst))
        snprintf(wb, sizeof wb, ", worst error %.3g", worst);
    const char *what = skb__jstr(skb__jget(ce, "what"));
    char *n1 = skb__fmt("%s: measured %s, paper %s%s%s%s%s", prop, mv, pv, wb,
                        ce ? "; counterexample in properties.json details." : "", ce ? name : "", what ? ": " : "");
    if (what) {
        char *n2 = skb__fmt("%s%s", n1, what);
        free(n1);
        n1 = n2;
    }
    note = skb__join_note(note, n1);
    free(n1);
    char *cause = cause_note(sec, name, prop, mv, pv, det);
    if (cause) {
        note = skb__join_note(note, cause);
        free(cause);
    }
    if (why)
        note = skb__join_note(note, why);
    return note;
}

/* one method's row of run k: "measured / paper" per property, judged exact */
static void table41_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *sec,
                        int nc, const char *name)
{
    const cJSON *props = skb__jget(sec, "properties"), *p;
    const cJSON *meas = skb__jget(skb__jget(doc, "verdicts"), name), *paper = skb__jget(skb__jget(sec, "verdicts"), name);
    if (!meas)
        meas = skb__jget(skb__jget(doc, "verdicts_other_methods"), name);
    char *cells[SKB_RMAXCOLS] = { 0 };
    int c = 0, diff = 0, have = 0;
    char *note = NULL;
    struct skb_verdict v = { .rule = "" };
    cells[c++] = strdup(name);
    cJSON_ArrayForEach(p, props) {
        if (c >= nc)
            break;
        const char *mv = skb__jstr(skb__jget(meas, p->valuestring)), *pv = skb__jstr(skb__jget(paper, p->valuestring));
        cells[c++] = skb__fmt("%s / %s", mv ? mv : "·", pv ? pv : "·");
        have += mv != NULL;
        if (mv && pv && strcmp(mv, pv) != 0) {
            diff++;
            note = mismatch_note(note, doc, sec, name, p->valuestring, mv, pv);
        }
    }
    int st;
    if (!doc) {
        st = SKB_ROW_NOT_RUN;
        note = skb__missing_note(&rep->runs[k], "properties.json");
    } else if (!have) {
        st = SKB_ROW_NOT_RUN;
        note = skb__fmt("method %s not in properties.json", name);
    } else if (!paper) {
        st = SKB_ROW_NEW;
        note = skb__fmt("not in the thesis table");
    } else {
        /* exact: the number of properties whose verdict is not the thesis's, against 0 */
        skb_verdict_init(&v, "exact", 0, diff, 0);
        skb_rule_band(&v);
        st = skb_verdict_status(&v);
    }
    char *perm = permutation_note(doc, name);
    if (perm) {
        note = skb__join_note(note, perm);
        free(perm);
    }
    skb__row_add(rep, t, k, st, note, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6],
            cells[7], cells[8], cells[9], cells[10], cells[11], cells[12], cells[13]);
    skb__row_verdict(rep, t, &v, NULL);
}

static void section_table41(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "table_4_1");
    const cJSON *props = skb__jget(sec, "properties"), *titles = skb__jget(sec, "property_titles");
    const char *cols[SKB_RMAXCOLS];
    int nc = 0;
    cols[nc++] = "method";
    const cJSON *p;
    cJSON_ArrayForEach(p, props)
        if (nc < SKB_RMAXCOLS - 2)
            cols[nc++] = skb__jstr(skb__jget(titles, p->valuestring)) ? skb__jget(titles, p->valuestring)->valuestring : p->valuestring;
    cols[nc] = NULL;
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "table41", "Thesis Table 4.1: blending properties (measured / paper)", src,
                                   skb__fmt("Each cell: measured verdict / paper verdict. A measured \"-\" comes with a "
                                     "counterexample in properties.json (replay with skinbench blend). %s",
                                     "Rule: exact (every verdict equal)."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "properties.json");
        /* methods: the paper's seven, then any measured extra (also those
         * properties.json lists apart from the seven) */
        const cJSON *methods[SKB_RMAXMETHODS];
        int nm = skb__key_union(skb__jget(sec, "verdicts"), skb__jget(doc, "verdicts"),
                                skb__jget(doc, "verdicts_other_methods"), methods, SKB_RMAXMETHODS);
        if (nm < 0) {
            skb__overflow(rep, "report: properties.json lists more than %d methods (SKB_RMAXMETHODS)", SKB_RMAXMETHODS);
            nm = 0;
        }
        for (int i = 0; i < nm; i++)
            table41_row(rep, t, k, doc, sec, nc, methods[i]->string);
    }
}

/* ---- table-4.1.md ---- */

/* the tables table-4.1.md shows, in order */
static const char *const ids[] = { "table41", "flops" };

static void write_tables(const struct skb_report *rep, int have_ref, FILE *f)
{
    fprintf(f, "# Thesis Table 4.1, measured\n\n"
               "The report's Table 4.1 and FLOP tables for this run directory alone (the same renderer as "
               "report.md; `skinbench report` merges runs). A measured verdict \"-\" comes with a "
               "counterexample in properties.json that `skinbench blend --method M --input FILE` replays "
               "(counterexamples/).%s\n\n",
               have_ref ? "" : " reports/reference.json was not found: no paper values.");
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const struct skb_rtable *t = skb_report_table(rep, ids[i]);
        if (t)
            skb_report_render_table_md(rep, t, f);
    }
}

static void report_diffs(const struct skb_report *rep, void (*diff)(void *, const char *), void *arg)
{
    for (size_t i = 0; diff && i < sizeof ids / sizeof ids[0]; i++) {
        const struct skb_rtable *t = skb_report_table(rep, ids[i]);
        for (int r = 0; t && r < t->nrows; r++) {
            const struct skb_rrow *row = &t->rows[r];
            if (row->status != SKB_ROW_DIFFERS)
                continue;
            /* the whole note: a cause or a counterexample cut short is no evidence */
            const char *name = row->cell[0] ? row->cell[0] : "?", *note = row->note ? row->note : "see table-4.1.md";
            size_t n = strlen(name) + strlen(ids[i]) + strlen(note) + 32;
            char *line = malloc(n);
            if (!line) {
                diff(arg, "(out of memory formatting a differing row)");
                continue;
            }
            snprintf(line, n, "%s differs (%s): %s", name, ids[i], note);
            diff(arg, line);
            free(line);
        }
    }
}

int skb_report_write_table41(const char *run_dir, const char *exe_dir,
                             void (*diff)(void *arg, const char *line), void *arg, char *msg, size_t msglen)
{
    struct skb_results res;
    struct skb_report rep;
    cJSON *ref = NULL;
    char rmsg[512], path[PATH_MAX];
    int rc = skb_results_load(run_dir, &res, msg, msglen);
    if (rc < 0)
        return rc;
    int have_ref = skb_reference_load(NULL, exe_dir, &ref, rmsg, sizeof rmsg) == 0;
    if (!have_ref && !(ref = cJSON_CreateObject())) {   /* no paper values: the paper cells stay empty */
        skb_results_free(&res);
        snprintf(msg, msglen, "table-4.1.md: out of memory");
        return SKB_ENOMEM;
    }
    if ((rc = skb_report_build(&res, 1, ref, &rep, msg, msglen)) == 0) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            write_tables(&rep, have_ref, f);
            rc = ferror(f) ? SKB_EIO : 0;
            fclose(f);
        }
        if (!f || !buf) {
            snprintf(msg, msglen, "table-4.1.md: out of memory");
            rc = SKB_ENOMEM;
        } else if (rc == 0) {
            snprintf(path, sizeof path, "%s/table-4.1.md", run_dir);
            rc = skb_write_atomic(path, buf, len, msg, msglen);
        }
        free(buf);
        if (rc == 0)
            report_diffs(&rep, diff, arg);
        skb_report_free(&rep);
    }
    cJSON_Delete(ref);
    skb_results_free(&res);
    return rc;
}

/* ---- nightly gate: every verdict stays what it was ---- */

static void gate_properties(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *a = skb_results_doc(base, "properties.json"), *b = skb_results_doc(cur, "properties.json"), *m, *v;
    cJSON_ArrayForEach(m, skb__jget(a, "verdicts")) {
        const cJSON *bm = skb__jget(skb__jget(b, "verdicts"), m->string);
        if (!bm) {
            skb_gate_regression(g, "properties.json: method %s has no verdicts in the current run", m->string);
            continue;
        }
        cJSON_ArrayForEach(v, m) {
            const char *x = cJSON_GetStringValue(v), *y = cJSON_GetStringValue(skb__jget(bm, v->string));
            if (x && (!y || strcmp(x, y) != 0))
                skb_gate_regression(g, "properties.json: verdict %s.%s changed %s -> %s", m->string, v->string, x,
                                    y ? y : "(missing)");
        }
    }
    cJSON_ArrayForEach(m, skb__jget(b, "verdicts"))
        if (!skb__jget(skb__jget(a, "verdicts"), m->string))
            skb_gate_undecided(g, "properties.json: new method %s (no baseline verdicts to hold it to)", m->string);
}

/* ---- the experiment: run half harness/exp_properties.c ---- */

const struct skb_experiment_desc skb_desc_properties = {
    .run = &skb_exp_properties,
    .files = (const struct skb_result_file[]){
        { "properties.json", 1, NULL, "verdicts/* verdicts_other_methods/*", &skb_schema_properties },
        { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table41", SKB_NEED_BLEND, section_table41, NULL }, { NULL, 0, NULL, NULL } },
    .gate = gate_properties,
};
