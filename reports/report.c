/* report.c — the report model: every reproduced table beside the paper's
 * (reports/reference.json), each row marked reproduced / differs / not run
 * / context / new.  Methods, datasets, shaders and scenarios come from the
 * results JSON, so a new method appears in every table with no edit here.
 * Only ratios and differences of measured values are computed. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_report.h"

/* relative tolerance below which a ratio is "the same" as LBS in a row */
#define REL_EQ 1e-12

static const char *const status_names[SKB_ROW_NSTATUS] = {
    "reproduced", "differs", "not run", "context", "new", "fewer than paper",
    "reproduced (trivial)"
};

const char *skb_row_status_name(int st)
{
    return st >= 0 && st < SKB_ROW_NSTATUS ? status_names[st] : "?";
}

/* ---- small helpers ---- */

static char *S(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *S(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s ? s : strdup("");
}

static const cJSON *jget(const cJSON *o, const char *k)
{
    return o && k ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static int jnum(const cJSON *x, double *out)
{
    return x && skb_json_get_number(x, out) == 0 && isfinite(*out) ? 0 : -1;
}

static const char *jstr(const cJSON *x)
{
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

static char *num(double x)
{
    if (!isfinite(x))
        return strdup("—");
    /* counts print whole; everything else with 4 significant digits */
    if (x == floor(x) && fabs(x) < 1e12)
        return S("%.0f", x);
    return S("%.4g", x);
}

/* a string note for (key[, sub]) under any of the top-level maps a results
 * file may use to say why a number differs */
static const char *why_lookup(const cJSON *doc, const char *key, const char *sub)
{
    static const char *const maps[] = { "notes", "why", "explanations", NULL };
    for (int i = 0; maps[i]; i++) {
        const cJSON *m = jget(jget(doc, maps[i]), key);
        if (jstr(m))
            return m->valuestring;
        if (sub && jstr(jget(m, sub)))
            return jget(m, sub)->valuestring;
    }
    return NULL;
}

/* the members of the paper's map first, then every member of the measured
 * maps not listed yet: the paper's rows keep their order and a method only
 * the results know still gets its row */
static int key_union(const cJSON *paper, const cJSON *a, const cJSON *b, const cJSON **out, int max)
{
    const cJSON *maps[3] = { paper, a, b }, *m;
    int n = 0;
    for (int i = 0; i < 3; i++)
        cJSON_ArrayForEach(m, maps[i]) {
            int seen = !m->string || !cJSON_IsObject(m);
            for (int j = 0; j < n && !seen; j++)
                seen = strcmp(out[j]->string, m->string) == 0;
            if (!seen && n < max)
                out[n++] = m;
        }
    return n;
}

/* ---- tables ---- */

static struct skb_rtable *tbl_new(struct skb_report *rep, const char *id, const char *title,
                                  const char *source, char *intro, const char *const *cols)
{
    if (rep->ntables >= SKB_RMAXTABLES) {
        free(intro);
        return NULL;
    }
    struct skb_rtable *t = &rep->tables[rep->ntables++];
    memset(t, 0, sizeof *t);
    snprintf(t->id, sizeof t->id, "%s", id);
    snprintf(t->title, sizeof t->title, "%s", title);
    snprintf(t->source, sizeof t->source, "%s", source ? source : "");
    t->intro = intro;
    if (rep->nruns > 1)
        t->col[t->ncols++] = strdup("machine");
    for (int i = 0; cols[i] && t->ncols < SKB_RMAXCOLS; i++)
        t->col[t->ncols++] = strdup(cols[i]);
    return t;
}

/* one row: the cells (malloc'd, ownership taken; NULL ends the list early)
 * after the machine column */
static void row_add(struct skb_report *rep, struct skb_rtable *t, int run, int status, char *note, ...)
{
    va_list ap;
    if (!t) {
        free(note);
        va_start(ap, note);
        for (char *c; (c = va_arg(ap, char *)) != NULL;)
            free(c);
        va_end(ap);
        return;
    }
    if (t->nrows == t->cap) {
        int nc = t->cap ? 2 * t->cap : 16;
        struct skb_rrow *nr = realloc(t->rows, (size_t)nc * sizeof *nr);
        if (!nr)
            abort();
        t->rows = nr;
        t->cap = nc;
    }
    struct skb_rrow *r = &t->rows[t->nrows++];
    memset(r, 0, sizeof *r);
    int c = 0;
    if (rep->nruns > 1)
        r->cell[c++] = strdup(rep->runs[run].machine_key);
    va_start(ap, note);
    for (char *s; c < t->ncols && (s = va_arg(ap, char *)) != NULL;)
        r->cell[c++] = s;
    va_end(ap);
    for (; c < t->ncols; c++)
        r->cell[c] = strdup("");
    r->status = status;
    r->note = note ? note : strdup("");
    if (!t->unjudged)
        rep->count[status]++;
}

/* why an experiment's file gives nothing for this table */
static char *missing_note(const struct skb_results *r, int which)
{
    if (r->err[which][0])
        return S("unreadable: %s", r->err[which]);
    return S("%s not found in %s (experiment '%s' not run)", skb_rfile_name(which), r->dir,
             skb_rfile_experiment(which));
}

/* the factor by which a positive measured value misses the paper's (>= 1) */
static double miss_factor(double meas, double paper)
{
    if (!(meas > 0) || !(paper > 0))
        return INFINITY;
    return meas > paper ? meas / paper : paper / meas;
}

/* speed-up ratios (Tables 5.3, 6.2): the same side of 1 is not enough — a
 * 1.07x speed-up does not reproduce the paper's 5.33x (issue 13) — so the
 * ratio must also lie within a factor `factor` of the paper's */
static int judge_order_factor(double meas, double paper, double factor, char **note)
{
    int same = (meas > 1) == (paper > 1);
    double f = miss_factor(meas, paper);
    int ok = same && f <= factor;
    *note = S("measured %.4g vs paper %.4g: %s, %s by a factor of %.3g (rule: within %g)", meas, paper,
              same ? "same side of 1" : "opposite side of 1", meas >= paper ? "above" : "below", f, factor);
    return ok ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
}

/* judge a measured value against the paper by the entry's tolerance rule */
static int judge(const cJSON *tol, double meas, double paper, double paper_lo, char **note)
{
    const char *kind = jstr(jget(tol, "kind"));
    double v = 0;
    jnum(jget(tol, "value"), &v);
    double d = meas - paper;
    *note = NULL;
    if (!kind || strcmp(kind, "context") == 0) {
        *note = S("measured − paper = %.4g (context: other machine/model, not judged)", d);
        return SKB_ROW_CONTEXT;
    }
    if (strcmp(kind, "order") == 0) {
        int same = (meas > 1) == (paper > 1);
        *note = S("measured %.4g vs paper %.4g: %s", meas, paper,
                  same ? "same side of 1 (same method is faster)" : "opposite side of 1");
        return same ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
    }
    if (strcmp(kind, "order_factor") == 0)
        return judge_order_factor(meas, paper, v, note);
    int ok;
    if (strcmp(kind, "exact") == 0)
        ok = meas == paper;
    else if (strcmp(kind, "exact_int") == 0)
        ok = fabs(d) <= 0.5;
    else if (strcmp(kind, "abs") == 0)
        ok = fabs(d) <= v;
    else if (strcmp(kind, "range") == 0) {
        double lo = isfinite(paper_lo) ? paper_lo : paper;
        ok = meas >= lo * (1 - v) && meas <= paper * (1 + v);
        *note = ok ? NULL : S("measured %.4g outside [%.4g, %.4g]", meas, lo * (1 - v), paper * (1 + v));
        return ok ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
    } else
        ok = fabs(d) <= v * fabs(paper);
    if (!ok)
        *note = paper != 0 ? S("measured − paper = %+.4g (%+.1f %%)", d, 100 * d / fabs(paper))
                           : S("measured − paper = %+.4g", d);
    return ok ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
}

static char *join_note(char *a, const char *b)
{
    if (!b || !*b)
        return a;
    if (!a || !*a) {
        free(a);
        return strdup(b);
    }
    char *r = S("%s; %s", a, b);
    free(a);
    return r;
}

static char *tol_text(const cJSON *sec)
{
    const cJSON *tol = jget(sec, "tolerance");
    const char *kind = jstr(jget(tol, "kind"));
    double v = NAN;
    jnum(jget(tol, "value"), &v);
    const char *why = jstr(jget(sec, "tolerance_why"));
    char vb[64] = "";
    if (isfinite(v))
        snprintf(vb, sizeof vb, " %g", v);
    return S("Rule for \"reproduced\": %s%s%s%s", kind ? kind : "context", vb, why ? ". " : "", why ? why : "");
}

static const char *ref_str(const cJSON *sec, const char *k)
{
    const char *s = jstr(jget(sec, k));
    return s ? s : "";
}


static void set_source(char *buf, size_t n, const cJSON *sec)
{
    snprintf(buf, n, "seed %s, %s", ref_str(sec, "seed"), ref_str(sec, "where"));
}

/* ---- run metadata (descriptive) ---- */

static void add_libs(const cJSON *doc, char *buf, size_t n)
{
    const cJSON *l;
    cJSON_ArrayForEach(l, jget(doc, "libraries")) {
        char item[200];
        if (!l->string)
            continue;
        snprintf(item, sizeof item, "%s %s", l->string, jstr(l) ? l->valuestring : "?");
        if (strstr(buf, item))
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", item);
    }
}

static void build_runs(struct skb_report *rep)
{
    static const char *const cols[] = { "item", "value", NULL };
    struct skb_rtable *t = tbl_new(rep, "runs", "Runs: machine, compiler, libraries, seed, renderer",
                                   "results JSON metadata (harness/skb_results.c)", NULL, cols);
    if (!t)
        return;
    t->unjudged = 1;
    for (int k = 0; k < rep->nruns; k++) {
        const struct skb_results *r = &rep->runs[k];
        const cJSON *first = NULL;
        char libs[1200] = "", seeds[300] = "", files[1500] = "";
        for (int i = 0; i < SKB_RF_COUNT; i++) {
            size_t len = strlen(files);
            const char *st = r->doc[i] ? "ok" : r->err[i][0] ? "UNREADABLE" : "not run";
            snprintf(files + len, sizeof files - len, "%s%s: %s", len ? ", " : "", skb_rfile_name(i), st);
            if (!r->doc[i] || i == SKB_RF_GBENCH)
                continue;
            if (!first)
                first = r->doc[i];
            add_libs(r->doc[i], libs, sizeof libs);
            unsigned long sd;
            if (skb_json_get_seed(jget(r->doc[i], "seed"), &sd) == 0) {
                char item[64];
                snprintf(item, sizeof item, "%lu", sd);
                if (!strstr(seeds, item)) {
                    size_t sl = strlen(seeds);
                    snprintf(seeds + sl, sizeof seeds - sl, "%s%s", sl ? ", " : "", item);
                }
            }
        }
        const cJSON *m = jget(first, "machine");
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("results directory"), strdup(r->dir), NULL);
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("machine key"), strdup(r->machine_key), NULL);
        if (m) {
            const char *keys[] = { "hostname", "cpu", "cores", "memory", "kernel", "arch", NULL };
            for (int i = 0; keys[i]; i++) {
                const cJSON *v = jget(m, keys[i]);
                double d;
                if (jstr(v))
                    row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, S("machine %s", keys[i]), strdup(v->valuestring), NULL);
                else if (jnum(v, &d) == 0)
                    row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, S("machine %s", keys[i]), S("%g", d), NULL);
            }
        }
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("compiler"),
                strdup(jstr(jget(first, "compiler")) ? jget(first, "compiler")->valuestring : "unknown"), NULL);
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("libraries"), strdup(libs[0] ? libs : "unknown"), NULL);
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("seed"), strdup(seeds[0] ? seeds : "unknown"), NULL);
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("quick mode"),
                strdup(cJSON_IsTrue(jget(first, "quick")) ? "yes (numbers from --quick: small samples)" : "no"), NULL);
        const cJSON *g = r->doc[SKB_RF_GPU];
        if (g) {
            const char *sk = jstr(jget(g, "skipped"));
            row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("renderer"),
                    S("%s, %s%s%s%s", jstr(jget(g, "renderer")) ? jget(g, "renderer")->valuestring : "unknown",
                      jstr(jget(g, "version")) ? jget(g, "version")->valuestring : "?",
                      cJSON_IsTrue(jget(g, "software_renderer")) ? " (software renderer: GPU numbers are CPU-emulated)" : "",
                      sk ? "; skipped: " : "", sk ? sk : ""), NULL);
        } else {
            row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("renderer"), strdup("gpu not run"), NULL);
        }
        const cJSON *ctx = jget(r->doc[SKB_RF_GBENCH], "context");
        if (ctx && jstr(jget(ctx, "library_build_type")))
            row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("Google Benchmark library build"),
                    strdup(jget(ctx, "library_build_type")->valuestring), NULL);
        if (jstr(jget(first, "started_utc")))
            row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("started (UTC)"), strdup(jget(first, "started_utc")->valuestring), NULL);
        row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("results files"), strdup(files), NULL);
    }
}

/* ---- Table 4.1 verdicts ---- */

static void build_table41(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "table_4_1");
    const cJSON *props = jget(sec, "properties"), *titles = jget(sec, "property_titles");
    const char *cols[SKB_RMAXCOLS];
    int nc = 0;
    cols[nc++] = "method";
    const cJSON *p;
    cJSON_ArrayForEach(p, props)
        if (nc < SKB_RMAXCOLS - 2)
            cols[nc++] = jstr(jget(titles, p->valuestring)) ? jget(titles, p->valuestring)->valuestring : p->valuestring;
    cols[nc] = NULL;
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "table41", "Thesis Table 4.1: blending properties (measured / paper)", src,
                                   S("Each cell: measured verdict / paper verdict. A measured \"-\" comes with a "
                                     "counterexample in properties.json (replay with skinbench blend). %s",
                                     "Rule: exact (every verdict equal)."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_PROPERTIES];
        const cJSON *ver = jget(doc, "verdicts"), *other = jget(doc, "verdicts_other_methods");
        /* methods: the paper's seven, then any measured extra (also those
         * properties.json lists apart from the seven) */
        const cJSON *methods[64];
        int nm = key_union(jget(sec, "verdicts"), ver, other, methods, 64);
        for (int i = 0; i < nm; i++) {
            const char *name = methods[i]->string;
            const cJSON *meas = jget(ver, name), *paper = jget(jget(sec, "verdicts"), name);
            if (!meas)
                meas = jget(other, name);
            char *cells[SKB_RMAXCOLS] = { 0 };
            int c = 0, diff = 0, have = 0;
            char *note = NULL;
            cells[c++] = strdup(name);
            cJSON_ArrayForEach(p, props) {
                if (c >= nc)
                    break;
                const char *mv = jstr(jget(meas, p->valuestring)), *pv = jstr(jget(paper, p->valuestring));
                cells[c++] = S("%s / %s", mv ? mv : "·", pv ? pv : "·");
                have += mv != NULL;
                if (mv && pv && strcmp(mv, pv) != 0) {
                    diff++;
                    const char *why = why_lookup(doc, name, p->valuestring);
                    const cJSON *det = jget(jget(jget(doc, "details"), name), p->valuestring);
                    const cJSON *ce = jget(det, "counterexample");
                    double worst = NAN;
                    jnum(jget(det, "worst_error"), &worst);
                    if (!ce)
                        ce = jget(jget(jget(doc, "counterexamples"), name), p->valuestring);
                    char wb[64] = "";
                    if (isfinite(worst))
                        snprintf(wb, sizeof wb, ", worst error %.3g", worst);
                    const char *what = jstr(jget(ce, "what"));
                    char *n1 = S("%s: measured %s, paper %s%s%s%s%s", p->valuestring, mv, pv, wb,
                                 ce ? "; counterexample in properties.json details." : "", ce ? name : "",
                                 what ? ": " : "");
                    if (what) {
                        char *n2 = S("%s%s", n1, what);
                        free(n1);
                        n1 = n2;
                    }
                    note = join_note(note, n1);
                    free(n1);
                    if (why)
                        note = join_note(note, why);
                }
            }
            int st;
            if (!doc) {
                st = SKB_ROW_NOT_RUN;
                note = missing_note(&rep->runs[k], SKB_RF_PROPERTIES);
            } else if (!have) {
                st = SKB_ROW_NOT_RUN;
                note = S("method %s not in properties.json", name);
            } else if (!paper) {
                st = SKB_ROW_NEW;
                note = S("not in the thesis table");
            } else {
                st = diff ? SKB_ROW_DIFFERS : SKB_ROW_REPRODUCED;
            }
            row_add(rep, t, k, st, note, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6],
                    cells[7], cells[8], cells[9], cells[10], cells[11], cells[12], cells[13]);
        }
    }
}

/* ---- FLOPs ---- */

/* " Counting rules (flops.json counting_rules): flops: ... — ...; ..." appended to the intro */
static void flops_rules_intro(struct skb_rtable *t, const cJSON *rules)
{
    const cJSON *r;
    char *acc = strdup(" Counting rules (flops.json counting_rules):");
    int any = 0;
    cJSON_ArrayForEach(r, rules) {
        const char *ops = jstr(jget(r, "operations")), *how = jstr(jget(r, "counted"));
        if (!ops || !how)
            continue;
        char *n = S("%s %s: %s — %s.", acc, r->string, ops, how);
        free(acc);
        acc = n;
        any = 1;
    }
    if (any) {
        char *n = S("%s%s", t->intro ? t->intro : "", acc);
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

static void build_flops(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "flops");
    static const char *const cols[] = { "method", "measured a·n + b", "paper", "callgrind instr./blend", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "flops", "FLOPs per blend (thesis Table 4.1, last row)", src,
                                   S("Counted by executing each method (add, mul = 1). %s",
                                     "Rule: exact_int (both coefficients within 0.5); where ours are higher, the note says why."),
                                   cols);
    /* the counting convention and the counter's rules as flops.json states them */
    for (int k = 0; t && k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_FLOPS];
        const char *conv = jstr(jget(doc, "convention"));
        if (!conv && !jget(doc, "counting_rules"))
            continue;
        if (conv) {
            char *n = S("%s Convention (flops.json): %s", t->intro ? t->intro : "", conv);
            free(t->intro);
            t->intro = n;
        }
        flops_rules_intro(t, jget(doc, "counting_rules"));
        break;
    }
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_FLOPS];
        const cJSON *fits = jget(doc, "fits"), *cg = jget(doc, "callgrind");
        const cJSON *methods[64];
        int nm = key_union(jget(sec, "formulas"), fits, NULL, methods, 64);
        for (int i = 0; i < nm; i++) {
            const char *name = methods[i]->string;
            const cJSON *f = jget(fits, name), *pf = jget(jget(sec, "formulas"), name);
            double a, b, pa = NAN, pb = NAN, cgv;
            char *meas, *cgs, *note = NULL;
            int st;
            int has_p = jnum(jget(pf, "a"), &pa) == 0 && jnum(jget(pf, "b"), &pb) == 0;
            const char *ptext = jstr(jget(pf, "text"));
            const cJSON *cgm = jget(jget(cg, "per_method") ? jget(cg, "per_method") : cg, name);
            double c2, c8;
            if (jnum(jget(cgm, "n2"), &c2) == 0 && jnum(jget(cgm, "n8"), &c8) == 0)
                cgs = S("%.0f (n = 2) / %.0f (n = 8)", c2, c8);
            else if (jnum(cgm, &cgv) == 0 || jnum(jget(cgm, "per_blend"), &cgv) == 0
                || jnum(jget(cgm, "instructions_per_blend"), &cgv) == 0)
                cgs = S("%.0f", cgv);
            else if (cJSON_IsFalse(jget(cg, "available")))
                cgs = S("not measured: %s", jstr(jget(cg, "reason")) ? jget(cg, "reason")->valuestring : "unavailable");
            else
                cgs = strdup(cg ? "—" : "not measured");
            if (!doc) {
                st = SKB_ROW_NOT_RUN;
                meas = strdup("—");
                note = missing_note(&rep->runs[k], SKB_RF_FLOPS);
            } else if (jnum(jget(f, "a"), &a) < 0 || jnum(jget(f, "b"), &b) < 0) {
                st = SKB_ROW_NOT_RUN;
                meas = strdup("—");
                note = S("method %s not in flops.json", name);
            } else {
                meas = S("%.4gn %+.4g", a, b);
                if (!pf) {
                    st = SKB_ROW_NEW;
                    note = strdup("not in the thesis table");
                } else if (!has_p) {
                    st = SKB_ROW_CONTEXT;
                    note = S("paper gives no formula (%s)", ptext ? ptext : "?");
                } else {
                    double ratio;
                    st = fabs(a - pa) <= 0.5 && fabs(b - pb) <= 0.5 ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
                    if (st == SKB_ROW_DIFFERS && flops_at_most_paper(a, b, pa, pb, &ratio)) {
                        st = SKB_ROW_FEWER;
                        note = S("fewer FLOPs than the thesis at every n = 1..8 (at most %.0f%% of %s); "
                                 "a − a_paper = %+.4g, b − b_paper = %+.4g", 100 * ratio, ptext ? ptext : "the paper",
                                 a - pa, b - pb);
                    } else if (st == SKB_ROW_DIFFERS) {
                        note = S("a − a_paper = %+.4g, b − b_paper = %+.4g; up to %.1f%% above %s at n = 1..8",
                                 a - pa, b - pb, 100 * (ratio - 1), ptext ? ptext : "the paper");
                    }
                }
                note = join_note(note, why_lookup(doc, name, NULL));
            }
            row_add(rep, t, k, st, note, strdup(name), meas, strdup(ptext ? ptext : "—"), cgs, NULL);
        }
    }
}

/* ---- scalar bounds and worked examples ---- */

static const cJSON *path_get(const cJSON *doc, const cJSON *path)
{
    const cJSON *x = doc, *p;
    cJSON_ArrayForEach(p, path) {
        if (!jstr(p))
            return NULL;
        x = jget(x, p->valuestring);
    }
    return x;
}

static void build_bounds(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "bounds");
    static const char *const cols[] = { "quantity", "units", "measured", "paper", "where", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "bounds", "Bounds and worked examples (SPEC 3)", src,
                                   strdup("Per-row rule: the tolerance of each entry in reports/reference.json "
                                          "(bounds within 1 %, closed forms within 0.1 %, counts exact). "
                                          "Further numbers in bounds.json are listed as new."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_BOUNDS];
        const cJSON *e;
        cJSON_ArrayForEach(e, jget(sec, "entries")) {
            double paper = NAN, lo = NAN, meas;
            jnum(jget(e, "paper"), &paper);
            jnum(jget(e, "paper_lo"), &lo);
            const cJSON *pth = jget(e, "path");
            char *note = NULL, *ms;
            int st;
            char pathtxt[200] = "";
            const cJSON *p;
            cJSON_ArrayForEach(p, pth) {
                size_t l = strlen(pathtxt);
                snprintf(pathtxt + l, sizeof pathtxt - l, "%s%s", l ? "." : "", jstr(p) ? p->valuestring : "?");
            }
            if (!doc) {
                st = SKB_ROW_NOT_RUN;
                ms = strdup("—");
                note = missing_note(&rep->runs[k], SKB_RF_BOUNDS);
            } else if (jnum(path_get(doc, pth), &meas) < 0) {
                st = SKB_ROW_NOT_RUN;
                ms = strdup("—");
                note = S("bounds.json has no number at %s", pathtxt);
            } else {
                ms = num(meas);
                double alt;
                st = judge(jget(e, "tolerance"), meas, paper, lo, &note);
                /* a bound attained at two symmetric points: either counts */
                if (st == SKB_ROW_DIFFERS && jnum(jget(e, "alt_paper"), &alt) == 0) {
                    char *n2;
                    if (judge(jget(e, "tolerance"), meas, alt, lo, &n2) == SKB_ROW_REPRODUCED) {
                        st = SKB_ROW_REPRODUCED;
                        free(note);
                        note = S("the symmetric point %.5g", alt);
                    }
                    free(n2);
                }
                note = join_note(note, why_lookup(doc, jstr(jget(e, "id")), NULL));
            }
            row_add(rep, t, k, st, note, strdup(ref_str(e, "label")), strdup(ref_str(e, "units")), ms,
                    num(paper), S("seed %s, %s", ref_str(e, "seed"), ref_str(e, "where")), NULL);
        }
        /* every other top-level number bounds.json reports */
        const cJSON *x;
        cJSON_ArrayForEach(x, doc) {
            double v;
            static const char *const meta[] = { "schema_version", "seed", "quick", NULL };
            int skip = 0;
            for (int i = 0; meta[i]; i++)
                skip |= strcmp(x->string, meta[i]) == 0;
            const cJSON *e2;
            cJSON_ArrayForEach(e2, jget(sec, "entries")) {
                const cJSON *p0 = cJSON_GetArrayItem(jget(e2, "path"), 0);
                if (jstr(p0) && strcmp(p0->valuestring, x->string) == 0 && cJSON_GetArraySize(jget(e2, "path")) == 1)
                    skip = 1;
            }
            if (skip || !cJSON_IsNumber(x) || jnum(x, &v) < 0)
                continue;
            row_add(rep, t, k, SKB_ROW_NEW, strdup("no paper value"), strdup(x->string), strdup(""), num(v),
                    strdup("—"), strdup("bounds.json"), NULL);
        }
    }
}

/* ---- CPU: Figure 18 and Table 3.2 ---- */

static double cpu_ratio(const cJSON *d, const char *method)
{
    double r, a, b;
    if (jnum(jget(jget(d, "ratio_to_linear"), method), &r) == 0)
        return r;
    if (jnum(jget(jget(d, "ms"), method), &a) == 0 && jnum(jget(jget(d, "ms"), "linear"), &b) == 0 && b > 0)
        return a / b;
    return NAN;
}

/* why cpu.json has no time for a method on a dataset: its check failed */
static char *cpu_failure(const cJSON *doc, const char *method, const char *dataset)
{
    char key[300];
    snprintf(key, sizeof key, "double/%s/%s", method, dataset);
    const char *f = jstr(jget(jget(doc, "failures"), key));
    return f ? S("not timed: %s: %s", key, f) : NULL;
}

static void build_fig18(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "figure_18");
    static const char *const cols[] = { "dataset", "method", "ms", "ratio to LBS", "paper ratio", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "fig18", "DQ paper Figure 18: CPU time per deformation, ratio to LBS", src,
                                   tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CPU];
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_CPU), strdup("—"), strdup("all"), NULL);
            continue;
        }
        const char *verified = NULL;
        if (cJSON_IsFalse(jget(doc, "verified"))) {
            /* said once: the times of kernels whose output failed its check */
            char fl[600] = "";
            const cJSON *f;
            cJSON_ArrayForEach(f, jget(doc, "failures")) {
                size_t l = strlen(fl);
                if (l < sizeof fl - 40)
                    snprintf(fl + l, sizeof fl - l, "%s%.60s", l ? ", " : "", f->string ? f->string : "?");
            }
            row_add(rep, t, k, SKB_ROW_DIFFERS,
                    S("cpu.json \"verified\" is false: not every timed kernel's output passed its check%s%s",
                      fl[0] ? "; failures: " : "", fl), strdup("(all)"), strdup("verification"), strdup("—"),
                    strdup("—"), strdup("—"), NULL);
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, jget(doc, "datasets")) {
            const cJSON *m;
            double lin;
            int has_lin = jnum(jget(jget(d, "ms"), "linear"), &lin) == 0;
            cJSON_ArrayForEach(m, jget(d, "ms")) {
                double ms, paper;
                jnum(m, &ms);
                double r = cpu_ratio(d, m->string);
                char *note = NULL;
                int st;
                if (strcmp(m->string, "linear") == 0) {
                    st = SKB_ROW_CONTEXT;
                    note = strdup("the reference of the ratios");
                } else if (jnum(jget(jget(sec, "ratio_to_linear"), m->string), &paper) == 0 && isfinite(r)) {
                    st = judge(jget(sec, "tolerance"), r, paper, NAN, &note);
                } else {
                    st = SKB_ROW_NEW;
                    paper = NAN;
                    note = strdup(has_lin ? "no paper value" : "no LBS time in this dataset");
                }
                if (strcmp(m->string, "linear") == 0)
                    paper = 1;
                note = join_note(note, why_lookup(doc, m->string, d->string));
                note = join_note(note, verified);
                row_add(rep, t, k, st, note, strdup(d->string), strdup(m->string), num(ms), num(r), num(paper), NULL);
            }
            /* paper methods this dataset did not time */
            const cJSON *pm;
            cJSON_ArrayForEach(pm, jget(sec, "ratio_to_linear"))
                if (!jget(jget(d, "ms"), pm->string)) {
                    double pv = NAN;
                    jnum(pm, &pv);
                    char *why = cpu_failure(doc, pm->string, d->string);
                    row_add(rep, t, k, SKB_ROW_NOT_RUN, why ? why : S("method %s not timed on %s", pm->string, d->string),
                            strdup(d->string), strdup(pm->string), strdup("—"), strdup("—"), num(pv), NULL);
                }
            /* DQ paper App. B: DIB against DLB */
            double dib, dlb, pr;
            if (jnum(jget(jget(d, "ms"), "dib"), &dib) == 0 && jnum(jget(jget(d, "ms"), "dlb"), &dlb) == 0 && dlb > 0
                && jnum(jget(jget(sec, "dib_ms"), "ratio_to_dlb"), &pr) == 0) {
                char *note;
                int st = judge(jget(sec, "tolerance"), dib / dlb, pr, NAN, &note);
                row_add(rep, t, k, st, join_note(note, "DQ paper App. B: DIB 15.33 ms vs DLB 5.07 ms at p = 1e-5"),
                        strdup(d->string), strdup("dib / dlb"), num(dib), num(dib / dlb), num(pr), NULL);
            }
        }
    }
}

/* the fast single-precision kernels: one row per timed method and dataset
 * (ratio to the f32 LBS, beside Figure 18's ratio where the paper has one),
 * then the roofline mesh against the issue-4 targets */
static void fast_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const char *dataset,
                      const cJSON *d)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, jget(d, "ms_f32")) {
        double ms = NAN, r = NAN, paper = NAN;
        jnum(m, &ms);
        jnum(jget(jget(d, "ratio_to_linear_f32"), m->string), &r);
        char *note = NULL;
        int st;
        if (strcmp(m->string, "linear") == 0) {
            st = SKB_ROW_CONTEXT;
            paper = 1;
            note = strdup("the reference of the ratios");
        } else if (jnum(jget(jget(sec, "ratio_to_linear"), m->string), &paper) == 0 && isfinite(r)) {
            st = judge(jget(sec, "tolerance"), r, paper, NAN, &note);
        } else {
            st = SKB_ROW_NEW;
            note = strdup("no paper value");
        }
        row_add(rep, t, k, st, note, strdup(dataset), strdup(m->string), num(ms), num(r), num(paper), NULL);
    }
}

static void fast_target_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *dataset,
                            const char *what, double meas, const cJSON *target, int at_most)
{
    double tv = NAN;
    if (jnum(target, &tv) < 0 || !isfinite(meas)) {
        row_add(rep, t, k, SKB_ROW_NOT_RUN, S("cpu.json large_mesh has no %s", what), strdup(dataset), strdup(what),
                strdup("—"), strdup("—"), strdup("—"), NULL);
        return;
    }
    int met = at_most ? meas <= tv : meas >= tv;
    row_add(rep, t, k, SKB_ROW_NEW, S("target %s %g (issue 4, not a paper value): %s", at_most ? "≤" : "≥", tv,
                                      met ? "met" : "not met"),
            strdup(dataset), strdup(what), strdup("—"), num(meas), strdup("—"), NULL);
}

static void build_fast(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "figure_18"), *tg = jget(rep->ref, "fast_kernel_targets");
    static const char *const cols[] = { "dataset", "method", "ms (f32)", "ratio to LBS (f32)", "paper ratio", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "fast", "Fast single-precision kernels: ratio to LBS beside Figure 18, roofline",
                                   src, tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CPU], *d;
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_CPU), strdup("—"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(d, jget(doc, "datasets"))
            fast_rows(rep, t, k, sec, d->string, d);
        const cJSON *lm = jget(doc, "large_mesh");
        if (!lm)
            continue;
        const char *name = jstr(jget(lm, "dataset")) ? jstr(jget(lm, "dataset")) : "large mesh";
        fast_rows(rep, t, k, sec, name, lm);
        double ratio = NAN, frac = NAN;
        jnum(jget(lm, "dlb_over_linear_f32"), &ratio);
        jnum(jget(jget(lm, "roofline"), "linear_f32_fraction_of_roofline"), &frac);
        fast_target_row(rep, t, k, name, "dlb / linear (f32)", ratio, jget(tg, "dlb_over_linear_f32_max"), 1);
        fast_target_row(rep, t, k, name, "linear (f32) fraction of the copy roofline", frac,
                        jget(tg, "linear_f32_fraction_of_roofline_min"), 0);
    }
}

/* Table 3.2's paper ranges as shown in the paper column: "1.93–2.16 (000) / 1.26–1.35 (003)" */
static char *ranges_text(const cJSON *sec, double lo, double hi)
{
    char buf[256] = "";
    size_t n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, jget(sec, "ranges")) {
        double a = NAN, b = NAN;
        jnum(jget(r, "lo"), &a);
        jnum(jget(r, "hi"), &b);
        n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, "%s%.3g–%.3g (%s)", n ? " / " : "", a, b,
                              ref_str(r, "seed"));
        if (n >= sizeof buf)
            break;
    }
    return n ? strdup(buf) : S("%.3g–%.3g", lo, hi);
}

/* the SBS/LBS ratio against every paper's range (thesis Pentium 4 and 003's
 * Athlon disagree for the same models, issue 13): reproduced when inside any
 * widened range, and the note names which range(s) — or neither */
static int judge_ranges(const cJSON *sec, double ratio, char **note)
{
    double w = 0;
    jnum(jget(jget(sec, "tolerance"), "value"), &w);
    char in[256] = "", out[256] = "";
    size_t ni = 0, no = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, jget(sec, "ranges")) {
        double a = NAN, b = NAN;
        jnum(jget(r, "lo"), &a);
        jnum(jget(r, "hi"), &b);
        int ok = ratio >= a * (1 - w) && ratio <= b * (1 + w);
        char *dst = ok ? in : out;
        size_t *pn = ok ? &ni : &no;
        const char *how = !ok ? "" : ratio >= a && ratio <= b ? " (inside the paper's own range)" : " (only when widened)";
        if (*pn < sizeof in)
            *pn += (size_t)snprintf(dst + *pn, sizeof in - *pn, "%s%s %.3g–%.3g, widened [%.3g, %.3g]%s", *pn ? "; " : "",
                                    ref_str(r, "name"), a, b, a * (1 - w), b * (1 + w), how);
    }
    if (ni == 0 && no == 0) {
        *note = strdup("reference.json table_3_2 has no ranges");
        return SKB_ROW_NOT_RUN;
    }
    if (ni)
        *note = no ? S("%.4g in range of: %s; outside: %s", ratio, in, out) : S("%.4g in range of: %s", ratio, in);
    else
        *note = S("%.4g in neither paper's range (outside: %s)", ratio, out);
    return ni ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
}

static void build_table32(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "table_3_2");
    static const char *const cols[] = { "dataset", "vertices / joints", "LBS ms", "SBS ms", "SBS / LBS",
                                        "paper SBS / LBS", "SVDs per pose", "paper SVDs", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    double lo = NAN, hi = NAN;
    jnum(jget(sec, "ratio_lo"), &lo);
    jnum(jget(sec, "ratio_hi"), &hi);
    struct skb_rtable *t = tbl_new(rep, "table32", "Thesis Table 3.2: SBS against LBS on the CPU", src, tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CPU];
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_CPU), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, jget(doc, "datasets")) {
            double l = NAN, s = NAN, v = NAN, j = NAN, svd = NAN;
            jnum(jget(jget(d, "ms"), "linear"), &l);
            jnum(jget(jget(d, "ms"), "sb"), &s);
            jnum(jget(d, "vertices"), &v);
            jnum(jget(d, "joints"), &j);
            static const char *const svdkeys[] = { "svds_per_pose", "svds", "solves", "sb_solves", NULL };
            for (int i = 0; svdkeys[i] && !isfinite(svd); i++)
                jnum(jget(d, svdkeys[i]), &svd);
            if (!isfinite(svd))
                jnum(jget(jget(jget(d, "pose_stats"), "sb"), "solves_per_pose_mean"), &svd);
            char *note = NULL;
            int st;
            if (!isfinite(s) || !isfinite(l) || l <= 0) {
                st = SKB_ROW_NOT_RUN;
                note = cpu_failure(doc, isfinite(s) ? "linear" : "sb", d->string);
                if (!note)
                    note = S("%s has no %s time", d->string, isfinite(s) ? "LBS" : "SBS (sb)");
            } else {
                st = judge_ranges(sec, s / l, &note);
            }
            row_add(rep, t, k, st, note, strdup(d->string), S("%.0f / %.0f", v, j), num(l), num(s),
                    isfinite(s) && isfinite(l) && l > 0 ? num(s / l) : strdup("—"), ranges_text(sec, lo, hi),
                    num(svd), strdup("38 / 37 / 56"), NULL);
        }
    }
}

/* ---- GPU: Figure 19, Figure 1, ratios to LBS ---- */

/* the Figure 19 entry whose aliases include this shader name */
static const cJSON *fig19_entry(const cJSON *sec, const char *shader)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(sec, "shaders")) {
        const cJSON *a;
        if (strcmp(e->string, shader) == 0)
            return e;
        cJSON_ArrayForEach(a, jget(e, "aliases"))
            if (jstr(a) && strcmp(a->valuestring, shader) == 0)
                return e;
    }
    return NULL;
}

static double gpu_lbs(const cJSON *map, const cJSON *sec)
{
    const cJSON *x;
    double v;
    cJSON_ArrayForEach(x, map) {
        const cJSON *e = fig19_entry(sec, x->string);
        if (e && strcmp(e->string, "linear") == 0 && jnum(x, &v) == 0)
            return v;
    }
    return NAN;
}

static void build_fig19(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "figure_19");
    static const char *const cols[] = { "shader", "instructions", "ratio to LBS", "paper", "paper ratio",
                                        "max |GPU − CPU|", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "fig19", "DQ paper Figure 19: vertex-shader instructions (4 influences)", src,
                                   tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_GPU];
        const cJSON *ins = jget(doc, "instructions");
        if (!doc || !ins) {
            const char *sk = jstr(jget(doc, "skipped"));
            row_add(rep, t, k, SKB_ROW_NOT_RUN,
                    doc ? S("gpu.json has no \"instructions\"%s%s", sk ? ": skipped: " : "", sk ? sk : "")
                        : missing_note(&rep->runs[k], SKB_RF_GPU), strdup("all"), NULL);
            continue;
        }
        double lbs = gpu_lbs(ins, sec), plbs = NAN;
        jnum(jget(jget(jget(sec, "shaders"), "linear"), "instructions"), &plbs);
        const cJSON *x;
        cJSON_ArrayForEach(x, ins) {
            double n = NAN, err = NAN, pn = NAN;
            jnum(x, &n);
            jnum(jget(jget(doc, "max_abs_error"), x->string), &err);
            const cJSON *e = fig19_entry(sec, x->string);
            char *note = NULL;
            int st;
            double r = isfinite(lbs) && lbs > 0 ? n / lbs : NAN;
            if (e)
                jnum(jget(e, "instructions"), &pn);
            if (!e) {
                st = SKB_ROW_NEW;
                note = strdup("no paper value");
            } else if (strcmp(e->string, "linear") == 0) {
                st = SKB_ROW_CONTEXT;
                note = strdup("the reference of the ratios");
            } else if (!isfinite(r)) {
                st = SKB_ROW_NOT_RUN;
                note = strdup("no LBS shader count to form the ratio");
            } else {
                st = judge(jget(sec, "tolerance"), r, pn / plbs, NAN, &note);
            }
            note = join_note(note, why_lookup(doc, x->string, NULL));
            row_add(rep, t, k, st, note, strdup(x->string), num(n), num(r), num(pn),
                    e ? num(pn / plbs) : strdup("—"), num(err), NULL);
        }
        /* paper shaders without a measured count */
        const cJSON *e;
        cJSON_ArrayForEach(e, jget(sec, "shaders")) {
            int found = 0;
            cJSON_ArrayForEach(x, ins) found |= fig19_entry(sec, x->string) == e;
            if (!found) {
                double pn = NAN;
                jnum(jget(e, "instructions"), &pn);
                row_add(rep, t, k, SKB_ROW_NOT_RUN, S("no shader named %s (or an alias) in gpu.json", e->string),
                        strdup(e->string), strdup("—"), strdup("—"), num(pn), num(pn / plbs), strdup("—"), NULL);
            }
        }
        /* uniform data per joint (DQ paper 5) */
        const cJSON *fl = jget(doc, "floats_per_joint");
        if (!fl)
            fl = jget(doc, "uniform_floats_per_joint");
        cJSON_ArrayForEach(x, fl) {
            double n = NAN, pn = NAN;
            jnum(x, &n);
            const cJSON *fe = fig19_entry(sec, x->string);
            int has = fe && jnum(jget(jget(sec, "floats_per_joint"), fe->string), &pn) == 0;
            row_add(rep, t, k, has ? (n == pn ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS) : SKB_ROW_NEW,
                    has ? NULL : strdup("no paper value"), S("%s floats per joint", x->string), num(n), strdup(""),
                    has ? num(pn) : strdup("—"), strdup(""), strdup(""), NULL);
        }
    }
}

/* DQ paper Fig. 1 ran SBS's centres on the CPU: where gpu.json times that
 * per-pose CPU work apart ("<shader>_cpu_center_ms"), say whether the
 * shader's ms includes it and what the ratio is with it (NULL: nothing to say) */
static char *cpu_center_note(const cJSON *doc, const char *other, const char *dataset, double po, double pd)
{
    char key[128];
    double c = NAN;
    snprintf(key, sizeof key, "%s_cpu_center_ms", other);
    if (jnum(jget(jget(doc, key), dataset), &c) < 0)
        return NULL;
    snprintf(key, sizeof key, "%s_ms_includes_cpu_center", other);
    if (cJSON_IsTrue(jget(doc, key)))
        return S("%s ms includes its per-pose CPU centres (%.4g ms)", other, c);
    return S("%s ms is the GPU draw only; its per-pose CPU centres take %.4g ms more, %s / dlb with them %.4g",
             other, c, other, pd > 0 ? (po + c) / pd : NAN);
}

static void build_gpu_times(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "figure_1"), *s19 = jget(rep->ref, "figure_19");
    static const char *const cols[] = { "dataset", "shader", "ms", "ratio to LBS", "paper", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "gpu", "GPU skinning time and DQ paper Figure 1 frame-rate ratios", src,
                                   S("%s. Rows \"X / dlb\" set the other method's time against DLB's, as Figure 1's "
                                     "frame rates do. On a software renderer these are CPU times of Mesa's llvmpipe.",
                                     "Rule: rel 0.25 on the ratio"), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_GPU];
        const cJSON *ms = jget(doc, "ms");
        if (!doc || !ms) {
            const char *sk = jstr(jget(doc, "skipped"));
            row_add(rep, t, k, SKB_ROW_NOT_RUN,
                    doc ? S("gpu.json has no \"ms\"%s%s", sk ? ": skipped: " : "", sk ? sk : "")
                        : missing_note(&rep->runs[k], SKB_RF_GPU), strdup("—"), strdup("all"), NULL);
            continue;
        }
        const char *sw = cJSON_IsTrue(jget(doc, "software_renderer")) ? "software renderer" : NULL;
        const cJSON *d;
        cJSON_ArrayForEach(d, ms) {
            double lbs = gpu_lbs(d, s19);
            const cJSON *x;
            cJSON_ArrayForEach(x, d) {
                double v = NAN;
                jnum(x, &v);
                const cJSON *e = fig19_entry(s19, x->string);
                int is_lbs = e && strcmp(e->string, "linear") == 0;
                row_add(rep, t, k, is_lbs ? SKB_ROW_CONTEXT : SKB_ROW_NEW,
                        join_note(strdup(is_lbs ? "the reference of the ratios" : "the paper gives no GPU time ratio to LBS"), sw),
                        strdup(d->string), strdup(x->string), num(v), lbs > 0 ? num(v / lbs) : strdup("—"), strdup("—"), NULL);
            }
            const cJSON *pair;
            cJSON_ArrayForEach(pair, jget(sec, "pairs")) {
                const char *other = ref_str(pair, "other");
                double po = NAN, pd = NAN, pr = NAN;
                jnum(jget(pair, "ratio"), &pr);
                int ho = jnum(jget(d, other), &po) == 0, hd = jnum(jget(d, "dlb"), &pd) == 0;
                char *note = NULL;
                int st = SKB_ROW_NOT_RUN;
                if (ho && hd && pd > 0)
                    st = judge(jget(sec, "tolerance"), po / pd, pr, NAN, &note);
                else
                    note = S("gpu.json has no %s shader time on %s", ho ? "dlb" : other, d->string);
                char *cn = ho && hd ? cpu_center_note(doc, other, d->string, po, pd) : NULL;
                note = join_note(note, cn);
                free(cn);
                row_add(rep, t, k, st, join_note(note, sw), strdup(d->string), S("%s / dlb", other),
                        strdup("—"), ho && hd && pd > 0 ? num(po / pd) : strdup("—"), num(pr), NULL);
            }
        }
    }
}

/* ---- spheres: Tables 5.2 and 6.1 ---- */

/* reference.json spheres.trivial_band: how close to 1 a ratio is "~1" */
static double trivial_band(const cJSON *sec)
{
    double b = NAN;
    jnum(jget(sec, "trivial_band"), &b);
    return isfinite(b) && b >= 0 ? b : 0;
}

/* a row where neither we nor the paper saw the spheres grow (deep levels:
 * one triangle per sphere) agrees trivially and claims nothing (issue 13) */
static int sphere_trivial(const cJSON *sec, double r, double pr)
{
    double b = trivial_band(sec);
    return b > 0 && fabs(r - 1) <= b && fabs(pr - 1) <= b;
}

static void build_sphere_table(struct skb_report *rep, const char *id, const char *title, const char *refkey,
                               const char *const *methods_here, int take_new)
{
    const cJSON *sec = jget(rep->ref, "spheres"), *tab = jget(sec, refkey);
    static const char *const cols[] = { "dataset", "level", "method", "min", "avg", "max", "avg / reference",
                                        "paper avg", "paper avg / ref.", NULL };
    char src[240];
    snprintf(src, sizeof src, "seed %s, %s", ref_str(sec, "seed"), ref_str(tab, "where"));
    struct skb_rtable *t = tbl_new(rep, id, title, src, tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_SPHERES];
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_SPHERES), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, jget(doc, "datasets")) {
            const cJSON *l;
            cJSON_ArrayForEach(l, jget(d, "levels")) {
                double lv = NAN, refavg = NAN;
                jnum(jget(l, "level"), &lv);
                jnum(jget(jget(l, "reference"), "avg"), &refavg);
                int li = -1, i = 0;
                const cJSON *pl;
                cJSON_ArrayForEach(pl, jget(tab, "levels")) {
                    double x;
                    if (jnum(pl, &x) == 0 && x == lv)
                        li = i;
                    i++;
                }
                double pref = NAN;
                jnum(cJSON_GetArrayItem(jget(tab, "reference"), li), &pref);
                const cJSON *m;
                cJSON_ArrayForEach(m, l) {
                    double avg0;
                    /* a refit method's entry: {min, avg, max} */
                    if (!cJSON_IsObject(m) || jnum(jget(m, "avg"), &avg0) < 0)
                        continue;
                    int here = 0, known = strcmp(m->string, "reference") == 0;
                    for (int q = 0; methods_here[q]; q++)
                        here |= strcmp(methods_here[q], m->string) == 0;
                    /* methods neither paper table knows go to the table that takes new ones */
                    static const char *const all_known[] = { "reference", "lbs", "sbs", "bottom_up", "best", NULL };
                    int in_any = 0;
                    for (int q = 0; all_known[q]; q++)
                        in_any |= strcmp(all_known[q], m->string) == 0;
                    if (!here && !(take_new && !in_any))
                        continue;
                    double mn = NAN, av = NAN, mx = NAN, pav = NAN;
                    jnum(jget(m, "min"), &mn);
                    jnum(jget(m, "avg"), &av);
                    jnum(jget(m, "max"), &mx);
                    jnum(cJSON_GetArrayItem(jget(tab, m->string), li), &pav);
                    double r = refavg > 0 ? av / refavg : NAN, pr = pref > 0 ? pav / pref : NAN;
                    char *note = NULL;
                    int st;
                    if (known) {
                        st = SKB_ROW_CONTEXT;
                        note = strdup("the reference of the ratios (reference posture)");
                    } else if (!isfinite(pav)) {
                        st = in_any && li >= 0 ? SKB_ROW_NOT_RUN : SKB_ROW_NEW;
                        note = strdup(li < 0 ? "level beyond the paper's tree depth" : "no paper value");
                        if (st == SKB_ROW_NOT_RUN)
                            st = SKB_ROW_NEW;
                    } else if (!isfinite(r)) {
                        st = SKB_ROW_NOT_RUN;
                        note = strdup("no reference radius at this level");
                    } else if (sphere_trivial(sec, r, pr)) {
                        st = SKB_ROW_TRIVIAL;
                        note = S("measured %.4g and paper %.4g both within %g %% of 1: the refit spheres keep "
                                 "the reference size, so agreeing claims nothing (not counted as reproduced)", r, pr, 100 * trivial_band(sec));
                    } else {
                        st = judge(jget(sec, "tolerance"), r, pr, NAN, &note);
                    }
                    note = join_note(note, why_lookup(doc, m->string, d->string));
                    row_add(rep, t, k, st, note, strdup(d->string), S("%.0f", lv), strdup(m->string), num(mn),
                            num(av), num(mx), num(r), num(pav), num(pr), NULL);
                }
            }
        }
    }
}

/* sphere tree sizes and refit cost per sphere (thesis 5.1, 5.4, 6.6) */
static void build_sphere_tree(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "spheres"), *tree = jget(sec, "tree");
    const cJSON *rt = jget(jget(rep->ref, "table_6_2"), "refit_us_per_sphere");
    static const char *const cols[] = { "dataset", "quantity", "measured", "paper (creature, Athlon 2.5 GHz)", NULL };
    char src[240];
    snprintf(src, sizeof src, "seed %s, thesis 5.1 (tree), 5.4 and 6.6 (refit per sphere)", ref_str(sec, "seed"));
    struct skb_rtable *t = tbl_new(rep, "spheretree", "Sphere tree and refit cost per sphere", src,
                                   strdup("Context only: the paper's creature model and machine are not ours."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_SPHERES];
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_SPHERES), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, jget(doc, "datasets")) {
            static const struct { const char *key, *label, *pkey; } tq[] = {
                { "spheres_before_collapse", "spheres before collapse", "spheres_before" },
                { "depth_before_collapse", "depth before collapse", "depth_before" },
                { "spheres", "spheres after collapse (C = 0.6)", "spheres_after" },
                { "depth", "depth after collapse", "depth_after" },
                { "max_children", "most children of a node", "max_children" },
            };
            for (size_t i = 0; i < sizeof tq / sizeof tq[0]; i++) {
                double v, pv = NAN;
                if (jnum(jget(jget(d, "tree"), tq[i].key), &v) < 0)
                    continue;
                jnum(jget(tree, tq[i].pkey), &pv);
                row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup(d->string), strdup(tq[i].label), num(v), num(pv), NULL);
            }
            const cJSON *m;
            cJSON_ArrayForEach(m, jget(d, "refit_time")) {
                double us, pv = NAN;
                if (jnum(jget(m, "on_demand_us_per_sphere"), &us) < 0)
                    continue;
                jnum(jget(rt, m->string), &pv);
                row_add(rep, t, k, isfinite(pv) ? SKB_ROW_CONTEXT : SKB_ROW_NEW,
                        strdup(isfinite(pv) ? "002 gives 1.21 µs for LBS" : "no paper value"), strdup(d->string),
                        S("on-demand refit µs per sphere: %s", m->string), num(us), num(pv), NULL);
            }
        }
    }
}

/* ---- collision detection: Table 5.3 and Table 6.2 ---- */

static int scaling_free(const cJSON *x)
{
    const char *pose = jstr(jget(x, "pose"));
    return cJSON_IsFalse(jget(x, "colliding")) || (pose && (strstr(pose, "free") || strstr(pose, "apart")));
}

/* one point of a scaling series: the colliding / collision-free sub-object
 * when cd.json has them, else the entry itself (flagged by "colliding":
 * false or a "pose" naming a free pose) */
static const cJSON *scaling_point(const cJSON *x, int free_pose)
{
    const cJSON *sub = jget(x, free_pose ? "collision_free" : "colliding");
    if (cJSON_IsObject(sub))
        return sub;
    if (jget(x, "collision_free") || cJSON_IsObject(jget(x, "colliding")))
        return NULL;
    return scaling_free(x) == free_pose ? x : NULL;
}

static void build_table53(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "table_5_3");
    static const char *const cols[] = { "pose", "level", "triangles", "spheres", "on-demand ms", "bottom-up ms",
                                        "S-S on-demand", "S-S bottom-up", "speed-up", "paper speed-up", NULL };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "table53", "Thesis Table 5.3: CD scaling with subdivision", src, tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CD];
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_CD), strdup("—"), NULL);
            continue;
        }
        double factor = NAN;
        jnum(jget(jget(sec, "tolerance"), "value"), &factor);
        for (int pass = 0; pass < 2; pass++) {
            double prev = -INFINITY, worst = 1;
            int n = 0, inc = 1, nfar = 0, worst_lv = -1;
            const char *pkey = pass ? "speedup_collision_free" : "speedup";
            const cJSON *series[2] = { jget(doc, "scaling"), pass ? jget(doc, "scaling_collision_free") : NULL }, *x;
            for (int sidx = 0; sidx < 2; sidx++) {
                cJSON_ArrayForEach(x, series[sidx]) {
                    const cJSON *pt = sidx ? x : scaling_point(x, pass);
                    if (!pt)
                        continue;
                    double lv = NAN, tri = NAN, sph = NAN, od = NAN, bu = NAN, sod = NAN, sbu = NAN, sp = NAN, psp = NAN;
                    jnum(jget(x, "level"), &lv);
                    jnum(jget(x, "triangles"), &tri);
                    jnum(jget(x, "spheres"), &sph);
                    jnum(jget(pt, "on_demand_ms"), &od);
                    jnum(jget(pt, "bottom_up_ms"), &bu);
                    jnum(jget(pt, "sphere_tests_on_demand"), &sod);
                    jnum(jget(pt, "sphere_tests_bottom_up"), &sbu);
                    if (jnum(jget(pt, "speedup"), &sp) < 0 && od > 0)
                        sp = bu / od;
                    /* results.c bounds "level" in "scaling"; this series may be the
                     * collision-free one: never cast an out-of-range double to int */
                    int lvi = lv >= 0 && lv <= SKB_CD_MAX_LEVEL ? (int)lv : -1;
                    jnum(cJSON_GetArrayItem(jget(sec, pkey), lvi), &psp);
                    if (!(sp > prev))
                        inc = 0;
                    prev = sp;
                    n++;
                    double pod = NAN, pbu = NAN;
                    jnum(cJSON_GetArrayItem(jget(sec, "on_demand_ms"), lvi), &pod);
                    jnum(cJSON_GetArrayItem(jget(sec, "bottom_up_ms"), lvi), &pbu);
                    char *note = pass ? strdup("one point of the series (the paper gives speed-ups only)")
                                      : isfinite(pod) ? S("paper: %.4g ms on-demand, %.4g ms bottom-up (context)", pod, pbu)
                                                      : strdup("level beyond the paper's series");
                    if (isfinite(psp) && isfinite(factor)) {
                        double f = miss_factor(sp, psp);
                        char *fn = S("speed-up %s the paper's by a factor of %.3g: %s", sp >= psp ? "above" : "below", f,
                                     f <= factor ? "within the rule" : "OUTSIDE the rule");
                        note = join_note(note, fn);
                        free(fn);
                        nfar += f > factor;
                        if (f > worst || worst_lv < 0) {
                            worst = f;
                            worst_lv = lvi;
                        }
                    }
                    row_add(rep, t, k, SKB_ROW_CONTEXT, note, strdup(pass ? "collision-free" : "colliding"),
                            S("%.0f", lv), num(tri), num(sph), num(od), num(bu), num(sod), num(sbu), num(sp), num(psp), NULL);
                }
            }
            int st = n < 2 ? SKB_ROW_NOT_RUN : inc && nfar == 0 ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
            char *tn = n < 2 ? S("%s series has %d level(s); need 2 to see a trend", pass ? "collision-free" : "colliding", n)
                       : worst_lv < 0 ? S("speed-up %s with the subdivision level; no paper speed-up per level to compare",
                                          inc ? "grows" : "does NOT grow")
                                      : S("speed-up %s with the subdivision level; %d level(s) outside a factor of %g of the "
                                          "paper's (worst: level %d, a factor of %.3g)",
                                          inc ? "grows" : "does NOT grow", nfar, factor, worst_lv, worst);
            row_add(rep, t, k, st, tn,
                    strdup(pass ? "collision-free" : "colliding"), strdup("trend"), strdup(""), strdup(""), strdup(""),
                    strdup(""), strdup(""), strdup(""), strdup(n >= 2 ? (inc ? "increasing" : "not increasing") : "—"),
                    strdup("increasing"), NULL);
        }
    }
}

static int name_matches(const char *name, const cJSON *match)
{
    const cJSON *alt;
    char low[256];
    size_t i;
    for (i = 0; name[i] && i < sizeof low - 1; i++)
        low[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
    low[i] = 0;
    cJSON_ArrayForEach(alt, match) {
        const cJSON *tok;
        int all = 1;
        cJSON_ArrayForEach(tok, alt) all &= jstr(tok) && strstr(low, tok->valuestring) != NULL;
        if (all)
            return 1;
    }
    return 0;
}

/* the paper scenario a measured one stands for: same id, else its tokens */
static const cJSON *paper_scenario(const cJSON *sec, const char *name, int *index)
{
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, jget(sec, "scenarios")) {
        if (strcmp(ref_str(e, "id"), name) == 0) {
            *index = i;
            return e;
        }
        i++;
    }
    i = 0;
    cJSON_ArrayForEach(e, jget(sec, "scenarios")) {
        if (name_matches(name, jget(e, "match"))) {
            *index = i;
            return e;
        }
        i++;
    }
    return NULL;
}

/* append "; <formatted>" to *n */
static void note_add(char **n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(char **n, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    *n = join_note(*n, buf);
}

/* spheres.json's per-sphere refit cost of a method on a model (µs) */
static double refit_us(const cJSON *spheres, const char *model, const char *method, const char *key)
{
    double us = NAN;
    if (model)
        jnum(jget(jget(jget(jget(jget(spheres, "datasets"), model), "refit_time"), method), key), &us);
    return us;
}

/* the work behind a scenario's times, as cd.json counted it (and, for the
 * refit share, spheres.json's per-sphere refit cost of the same model):
 * the evidence for why on-demand wins or loses, never a guess (issue 13) */
static char *scenario_work_note(const cJSON *x, const cJSON *m, const char *method, const cJSON *spheres,
                                double on_ms, double bu_ms)
{
    double on, bu, rf, pairs, spb = NAN, bodies = NAN, vo, vb, reach, med;
    char *n = NULL;
    if (jnum(jget(m, "sphere_tests_on_demand"), &on) < 0 || jnum(jget(m, "sphere_tests_bottom_up"), &bu) < 0)
        return NULL;
    jnum(jget(x, "spheres_per_body"), &spb);
    jnum(jget(x, "bodies"), &bodies);
    if (jnum(jget(m, "colliding_pairs"), &pairs) == 0)
        note_add(&n, "colliding triangle pairs per frame: %.6g", pairs);
    note_add(&n, "sphere-sphere tests per frame: %.6g on demand, %.6g bottom-up (%.0f %%)", on, bu,
             bu > 0 ? 100 * on / bu : NAN);
    if (jnum(jget(m, "spheres_refitted_on_demand"), &rf) == 0) {
        if (spb > 0 && bodies > 0)
            note_add(&n, "%.6g spheres refitted on demand of %.6g (%.0f %%)", rf, spb * bodies, 100 * rf / (spb * bodies));
        else
            note_add(&n, "%.6g spheres refitted on demand", rf);
        const char *model = jstr(jget(x, "model"));
        double uo = refit_us(spheres, model, method, "on_demand_us_per_sphere");
        double ub = refit_us(spheres, model, method, "bottom_up_us_per_sphere");
        if (isfinite(uo) && on_ms > 0)
            note_add(&n, "refit share of the on-demand time ~%.0f %% (%.6g spheres x %.3g µs, spheres.json)",
                     100 * rf * uo / (1000 * on_ms), rf, uo);
        if (isfinite(ub) && bu_ms > 0 && spb > 0 && bodies > 0)
            note_add(&n, "refit share of the bottom-up time ~%.0f %% (%.6g spheres x %.3g µs)",
                     100 * spb * bodies * ub / (1000 * bu_ms), spb * bodies, ub);
        else if (!isfinite(uo))
            note_add(&n, "refit time share not recorded (no spheres.json refit_time for %s on %s)", method,
                     model ? model : "?");
    }
    if (jnum(jget(m, "vertices_skinned_on_demand"), &vo) == 0 && jnum(jget(m, "vertices_skinned_bottom_up"), &vb) == 0)
        note_add(&n, "vertices skinned: %.6g on demand, %.6g bottom-up", vo, vb);
    if (jnum(jget(m, "rotation_centre_reach_median"), &med) == 0 && jnum(jget(m, "rotation_centre_reach_max"), &reach) == 0)
        note_add(&n, "farthest rotation centre per pose: median %.3g, max %.3g x the model's reach from the origin", med,
                 reach);
    return n;
}

/* why on-demand lost, from the counts above only: how much of bottom-up's
 * work it still did, and what each of its refits cost against bottom-up's */
static char *slower_note(const cJSON *x, const cJSON *m, const char *method, const cJSON *spheres, double on_ms,
                         double bu_ms)
{
    double on, bu;
    if (!(on_ms > bu_ms) || jnum(jget(m, "sphere_tests_on_demand"), &on) < 0 ||
        jnum(jget(m, "sphere_tests_bottom_up"), &bu) < 0 || !(bu > 0))
        return NULL;
    const char *model = jstr(jget(x, "model"));
    double uo = refit_us(spheres, model, method, "on_demand_us_per_sphere");
    double ub = refit_us(spheres, model, method, "bottom_up_us_per_sphere");
    if (isfinite(uo) && ub > 0)
        return S("on-demand was %.3g x slower: it still made %.0f %% of bottom-up's sphere tests, and an on-demand %s "
                 "refit cost %.3g x a bottom-up one per sphere (%.3g vs %.3g µs, spheres.json)",
                 on_ms / bu_ms, 100 * on / bu, method, uo / ub, uo, ub);
    return S("on-demand was %.3g x slower: it still made %.0f %% of bottom-up's sphere tests", on_ms / bu_ms, 100 * on / bu);
}

static void build_table62(struct skb_report *rep)
{
    const cJSON *sec = jget(rep->ref, "table_6_2");
    static const char *const cols[] = { "scenario", "refit", "on-demand ms", "bottom-up ms", "bottom-up / on-demand",
                                        "paper on-demand ms", "paper bottom-up ms", "paper ratio", NULL };
    static const char *const flat[][2] = { { "lbs", "lbs_ms" }, { "sbs", "sbs_ms" } };
    char src[240];
    set_source(src, sizeof src, sec);
    struct skb_rtable *t = tbl_new(rep, "table62", "Thesis Table 6.2 / 002 Table 2: collision queries in scenarios", src,
                                   tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CD];
        if (!doc) {
            row_add(rep, t, k, SKB_ROW_NOT_RUN, missing_note(&rep->runs[k], SKB_RF_CD), strdup("—"), NULL);
            continue;
        }
        int matched[16] = { 0 };
        const cJSON *x;
        cJSON_ArrayForEach(x, jget(doc, "scenarios")) {
            const char *name = x->string ? x->string : jstr(jget(x, "name"));
            if (!name || !cJSON_IsObject(x))
                continue;
            int pi = -1;
            const cJSON *pe = paper_scenario(sec, name, &pi);
            if (pi >= 0 && pi < 16)
                matched[pi] = 1;
            /* {"methods": {M: {on_demand_ms, bottom_up_ms}}}, or flat lbs_ms / sbs_ms / bottom_up_ms */
            const cJSON *ms = jget(x, "methods"), *m;
            const cJSON *rows[16];
            const char *names[16];
            int nr = 0;
            cJSON_ArrayForEach(m, ms) if (nr < 16 && cJSON_IsObject(m)) {
                rows[nr] = m;
                names[nr++] = m->string;
            }
            for (int f = 0; !ms && f < 2; f++)
                if (jget(x, flat[f][1])) {
                    rows[nr] = x;
                    names[nr++] = flat[f][0];
                }
            for (int r = 0; r < nr; r++) {
                double on = NAN, bu = NAN, pon = NAN, pbu = NAN;
                if (rows[r] == x)
                    jnum(jget(x, strcmp(names[r], "lbs") ? "sbs_ms" : "lbs_ms"), &on);
                else
                    jnum(jget(rows[r], "on_demand_ms"), &on);
                if (jnum(jget(rows[r], "bottom_up_ms"), &bu) < 0)
                    jnum(jget(x, "bottom_up_ms"), &bu);
                int is_sbs = strcmp(names[r], "sbs") == 0, is_lbs = strcmp(names[r], "lbs") == 0;
                if (is_lbs || is_sbs) {
                    jnum(jget(pe, is_sbs ? "sbs_ms" : "lbs_ms"), &pon);
                    /* 002 Table 2's bottom-up ran on the SBS-deformed model */
                    if (!is_sbs || jnum(jget(pe, "bottom_up_ms_002"), &pbu) < 0)
                        jnum(jget(pe, "bottom_up_ms"), &pbu);
                }
                double r_meas = on > 0 ? bu / on : NAN, r_pap = pon > 0 ? pbu / pon : NAN;
                char *note = NULL;
                int st;
                if (!pe || (!is_lbs && !is_sbs)) {
                    st = SKB_ROW_NEW;
                    note = strdup(pe ? "refit method not in the paper" : "no matching paper scenario");
                } else if (!isfinite(r_meas)) {
                    st = SKB_ROW_NOT_RUN;
                    note = strdup("needs an on-demand and a bottom-up time");
                } else if (!isfinite(r_pap)) {
                    st = SKB_ROW_NEW;
                    note = S("paper gives no %s time for %s", names[r], ref_str(pe, "title"));
                } else {
                    st = judge(jget(sec, "tolerance"), r_meas, r_pap, NAN, &note);
                    char *n2 = S("paper scenario: %s", ref_str(pe, "title"));
                    note = join_note(note, n2);
                    free(n2);
                }
                const cJSON *sph = rep->runs[k].doc[SKB_RF_SPHERES];
                char *work = slower_note(x, rows[r], names[r], sph, on, bu);
                note = join_note(note, work);
                free(work);
                work = scenario_work_note(x, rows[r], names[r], sph, on, bu);
                note = join_note(note, work);
                free(work);
                row_add(rep, t, k, st, note, strdup(name), strdup(names[r]), num(on), num(bu), num(r_meas), num(pon),
                        num(pbu), num(r_pap), NULL);
            }
        }
        const cJSON *e;
        int ei = 0;
        cJSON_ArrayForEach(e, jget(sec, "scenarios")) {
            if (ei >= 16 || !matched[ei]) {
                double pl = NAN, pb = NAN;
                jnum(jget(e, "lbs_ms"), &pl);
                jnum(jget(e, "bottom_up_ms"), &pb);
                row_add(rep, t, k, SKB_ROW_NOT_RUN, S("no scenario in cd.json matches \"%s\"", ref_str(e, "title")),
                        strdup(ref_str(e, "title")), strdup("lbs"), strdup("—"), strdup("—"), strdup("—"), num(pl),
                        num(pb), pl > 0 ? num(pb / pl) : strdup("—"), NULL);
            }
            ei++;
        }
    }
}

/* ---- public ---- */

int skb_report_build(const struct skb_results *runs, int nruns, const cJSON *ref,
                     struct skb_report *rep, char *msg, size_t msglen)
{
    static const char *const t52[] = { "lbs", "bottom_up", "best", NULL };
    static const char *const t61[] = { "lbs", "sbs", "best", NULL };
    memset(rep, 0, sizeof *rep);
    if (nruns < 1 || !runs || !ref) {
        snprintf(msg, msglen, "report: no results to report");
        return SKB_EINVAL;
    }
    rep->runs = runs;
    rep->nruns = nruns;
    rep->ref = ref;
    build_runs(rep);
    build_table41(rep);
    build_flops(rep);
    build_bounds(rep);
    build_fig18(rep);
    build_fast(rep);
    build_table32(rep);
    build_fig19(rep);
    build_gpu_times(rep);
    build_sphere_table(rep, "table52", "Thesis Table 5.2: average sphere radius per level, LBS refits", "table_5_2", t52, 0);
    build_sphere_table(rep, "table61", "Thesis Table 6.1 / 002 Table 1: sphere radius per level, SBS and new refits",
                       "table_6_1", t61, 1);
    build_sphere_tree(rep);
    build_table53(rep);
    build_table62(rep);
    return 0;
}

const struct skb_rtable *skb_report_table(const struct skb_report *rep, const char *id)
{
    for (int i = 0; i < rep->ntables; i++)
        if (strcmp(rep->tables[i].id, id) == 0)
            return &rep->tables[i];
    return NULL;
}

void skb_report_free(struct skb_report *rep)
{
    if (!rep)
        return;
    for (int i = 0; i < rep->ntables; i++) {
        struct skb_rtable *t = &rep->tables[i];
        for (int r = 0; r < t->nrows; r++) {
            for (int c = 0; c < t->ncols; c++)
                free(t->rows[r].cell[c]);
            free(t->rows[r].note);
        }
        free(t->rows);
        for (int c = 0; c < t->ncols; c++)
            free(t->col[c]);
        free(t->intro);
    }
    rep->ntables = 0;
}

int skb_report_read_fuzz_log(struct skb_report *rep, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    long runs = -1, crashes = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        long n;
        if (sscanf(line, "Done %ld runs", &n) == 1)
            runs = runs < 0 ? n : runs + n;
        if (strstr(line, "ERROR: AddressSanitizer") || strstr(line, "ERROR: libFuzzer")
            || strstr(line, "runtime error:"))
            crashes++;
    }
    fclose(f);
    if (runs < 0 && crashes == 0)
        return -1;
    snprintf(rep->fuzz, sizeof rep->fuzz, "libFuzzer (%s): %ld bad inputs tried / %ld crashes", path,
             runs < 0 ? 0 : runs, crashes);
    return 0;
}
