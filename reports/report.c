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
#include <sys/stat.h>
#include "skb_json.h"
#include "report_internal.h"

static const char *const status_names[SKB_ROW_NSTATUS] = {
    "reproduced", "differs", "not run", "context", "new", "fewer than paper",
    "reproduced (trivial)", "not applicable", "inconclusive", "differs (setup)"
};

const char *skb_row_status_name(int st)
{
    return st >= 0 && st < SKB_ROW_NSTATUS ? status_names[st] : "?";
}

int skb_row_status_find(const char *name)
{
    for (int s = 0; name && s < SKB_ROW_NSTATUS; s++)
        if (strcmp(status_names[s], name) == 0)
            return s;
    return -1;
}

/* a status that says something about the paper's claim */
static int status_judges(int st)
{
    return st == SKB_ROW_REPRODUCED || st == SKB_ROW_DIFFERS || st == SKB_ROW_DIFFERS_SETUP || st == SKB_ROW_TRIVIAL
        || st == SKB_ROW_INCONCLUSIVE || st == SKB_ROW_FEWER;
}

/* the model a `run --dataset FILE` ran on (results metadata "user_dataset"),
 * or NULL for the built-in catalogue */
const char *skb__user_model(const struct skb_results *r)
{
    for (int i = 0; r && i < skb_rfile_count(); i++) {
        const char *u = skb__jstr(skb__jget(r->doc[i], "user_dataset"));
        if (u)
            return u;
    }
    return NULL;
}

/* ---- small helpers ---- */

/* a string note for (key[, sub]) under any of the top-level maps a results
 * file may use to say why a number differs */
const char *skb__why_lookup(const cJSON *doc, const char *key, const char *sub)
{
    static const char *const maps[] = { "notes", "why", "explanations", NULL };
    for (int i = 0; maps[i]; i++) {
        const cJSON *m = skb__jget(skb__jget(doc, maps[i]), key);
        if (skb__jstr(m))
            return m->valuestring;
        if (sub && skb__jstr(skb__jget(m, sub)))
            return skb__jget(m, sub)->valuestring;
    }
    return NULL;
}

/* the members of the paper's map first, then every member of the measured
 * maps not listed yet: the paper's rows keep their order and a method only
 * the results know still gets its row.  -1 when more than max */
int skb__key_union(const cJSON *paper, const cJSON *a, const cJSON *b, const cJSON **out, int max)
{
    const cJSON *maps[3] = { paper, a, b }, *m;
    int n = 0;
    for (int i = 0; i < 3; i++)
        cJSON_ArrayForEach(m, maps[i]) {
            int seen = !m->string || !cJSON_IsObject(m);
            for (int j = 0; j < n && !seen; j++)
                seen = strcmp(out[j]->string, m->string) == 0;
            if (!seen && n == max)
                return -1;   /* the caller fails the report: never a dropped row */
            if (!seen)
                out[n++] = m;
        }
    return n;
}

/* ---- tables ---- */

struct skb_rtable *skb__tbl_new(struct skb_report *rep, const char *id, const char *title,
                                  const char *source, char *intro, const char *const *cols)
{
    int ncols = rep->nruns > 1;
    while (cols[ncols - (rep->nruns > 1)])
        ncols++;
    if (ncols > SKB_RMAXCOLS) {
        /* never drop a column silently: the report fails naming the table */
        if (!rep->overflow[0])
            snprintf(rep->overflow, sizeof rep->overflow, "report: table %s has %d columns, more than "
                     "SKB_RMAXCOLS = %d (reports/skb_report.h)", id, ncols, SKB_RMAXCOLS);
        free(intro);
        return NULL;
    }
    if (rep->ntables == rep->tables_cap) {
        int nc = rep->tables_cap ? 2 * rep->tables_cap : 16;
        struct skb_rtable *nt = realloc(rep->tables, (size_t)nc * sizeof *nt);
        if (!nt)
            abort();
        rep->tables = nt;
        rep->tables_cap = nc;
    }
    struct skb_rtable *t = &rep->tables[rep->ntables++];
    memset(t, 0, sizeof *t);
    snprintf(t->id, sizeof t->id, "%s", id);
    snprintf(t->title, sizeof t->title, "%s", title);
    snprintf(t->source, sizeof t->source, "%s", source ? source : "");
    t->intro = intro;
    if (rep->nruns > 1)
        t->col[t->ncols++] = strdup("machine");
    for (int i = 0; cols[i]; i++)
        t->col[t->ncols++] = strdup(cols[i]);
    return t;
}

/* one row: the cells (malloc'd, ownership taken; NULL ends the list early)
 * after the machine column */
void skb__row_add(struct skb_report *rep, struct skb_rtable *t, int run, int status, char *note, ...)
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
    r->note = note ? note : strdup("");
    /* a user's model (run --dataset) is never judged against a paper: the
     * papers measured other models, so agreement or disagreement says
     * nothing about either */
    const char *user = skb__user_model(&rep->runs[run]);
    if (user && status_judges(status)) {
        char *n = skb__fmt("new: measured on the user's model %s (run --dataset), not judged against a paper; the "
                           "rule would read: %s", user, r->note);
        free(r->note);
        r->note = n;
        status = SKB_ROW_NEW;
    }
    r->status = status;
    r->run = run;
    if (!t->unjudged)
        rep->count[status]++;
}

/* the rule that decided the last row of t (its status came from
 * skb_verdict_status of v) and the cause report.json gives (ownership
 * taken; NULL: the note).  A row of a user's model keeps no rule. */
void skb__row_verdict(struct skb_report *rep, struct skb_rtable *t, const struct skb_verdict *v, char *cause)
{
    if (!t || t->nrows == 0) {
        free(cause);
        return;
    }
    struct skb_rrow *r = &t->rows[t->nrows - 1];
    free(r->cause);
    r->cause = cause;
    if (skb__user_model(&rep->runs[r->run]) || !v || !skb_rule_known(v->rule))
        return;
    r->v = *v;
    r->judged = 1;
}

/* the paper (seed id) the last row of t is judged against, when not the table's */
void skb__row_seed(struct skb_rtable *t, const char *seed)
{
    if (t && t->nrows)
        snprintf(t->rows[t->nrows - 1].seed, sizeof t->rows[0].seed, "%s", seed);
}

/* why an experiment's file gives nothing for this table */
char *skb__missing_note(const struct skb_results *r, const char *file)
{
    int which = skb_rfile_slot(file);
    if (r->err[which][0])
        return skb__fmt("unreadable: %s", r->err[which]);
    return skb__fmt("%s not found in %s (experiment '%s' not run)", skb_rfile_name(which), r->dir,
             skb_rfile_experiment(which));
}

/* the factor by which a positive measured value misses the paper's (>= 1) */
double skb__miss_factor(double meas, double paper)
{
    if (!(meas > 0) || !(paper > 0))
        return INFINITY;
    return meas > paper ? meas / paper : paper / meas;
}

/* judge a measured value against the paper by the entry's tolerance rule,
 * through the band of its rule (reports/verdict.c): *v gets the rule, band
 * and measured value (rule "" for context), *note the interval, band and
 * margin.  A timed value's interval is set by the caller afterwards
 * (skb__judge_paired). */
int skb__judge_v(const cJSON *tol, double meas, double paper, double paper_lo, struct skb_verdict *v, char **note)
{
    const char *kind = skb__jstr(skb__jget(tol, "kind"));
    double x = NAN;
    skb__jnum(skb__jget(tol, "value"), &x);
    skb_verdict_init(v, kind, x, meas, paper);
    v->paper_lo = paper_lo;
    *note = NULL;
    if (!kind || !skb_rule_known(kind) || skb_rule_band(v) < 0) {
        v->rule[0] = '\0';
        *note = skb__fmt("measured − paper = %.4g (context: other machine/model, not judged)", meas - paper);
        return SKB_ROW_CONTEXT;
    }
    int st = skb_verdict_status(v);
    *note = skb__verdict_text(v, st);
    return st;
}

/* judge a measured value against the paper by the entry's tolerance rule */
int skb__judge(const cJSON *tol, double meas, double paper, double paper_lo, char **note)
{
    struct skb_verdict v;
    return skb__judge_v(tol, meas, paper, paper_lo, &v, note);
}

/* skb__join_note, taking b over (freed) */
char *skb__join_note_take(char *a, char *b)
{
    a = skb__join_note(a, b);
    free(b);
    return a;
}

char *skb__join_note(char *a, const char *b)
{
    if (!b || !*b)
        return a;
    if (!a || !*a) {
        free(a);
        return strdup(b);
    }
    char *r = skb__fmt("%s; %s", a, b);
    free(a);
    return r;
}

char *skb__tol_text(const cJSON *sec)
{
    const cJSON *tol = skb__jget(sec, "tolerance");
    const char *kind = skb__jstr(skb__jget(tol, "kind"));
    double v = NAN;
    skb__jnum(skb__jget(tol, "value"), &v);
    const char *why = skb__jstr(skb__jget(sec, "tolerance_why"));
    char vb[64] = "";
    if (isfinite(v))
        snprintf(vb, sizeof vb, " %g", v);
    return skb__fmt("Rule for \"reproduced\": %s%s%s%s", kind ? kind : "context", vb, why ? ". " : "", why ? why : "");
}

const char *skb__ref_str(const cJSON *sec, const char *k)
{
    const char *s = skb__jstr(skb__jget(sec, k));
    return s ? s : "";
}


void skb__set_source(char *buf, size_t n, const cJSON *sec)
{
    snprintf(buf, n, "seed %s, %s", skb__ref_str(sec, "seed"), skb__ref_str(sec, "where"));
}

/* ---- run metadata (descriptive) ---- */

/* a fixed limit a table builder hit: the report fails with this message */
void skb__overflow(struct skb_report *rep, const char *fmt, ...)
{
    va_list ap;
    if (rep->overflow[0])
        return;
    va_start(ap, fmt);
    vsnprintf(rep->overflow, sizeof rep->overflow, fmt, ap);
    va_end(ap);
}

void skb__add_libs(const cJSON *doc, char *buf, size_t n)
{
    const cJSON *l;
    cJSON_ArrayForEach(l, skb__jget(doc, "libraries")) {
        char item[200];
        if (!l->string)
            continue;
        snprintf(item, sizeof item, "%s %s", l->string, skb__jstr(l) ? l->valuestring : "?");
        if (strstr(buf, item))
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", item);
    }
}


struct skb_plot_entry *skb_report_plot_new(struct skb_report *rep)
{
    if (rep->nplots == rep->plots_cap) {
        int nc = rep->plots_cap ? 2 * rep->plots_cap : 32;
        struct skb_plot_entry *np = realloc(rep->plots, (size_t)nc * sizeof *np);
        if (!np)
            return NULL;
        rep->plots = np;
        rep->plots_cap = nc;
    }
    struct skb_plot_entry *p = &rep->plots[rep->nplots++];
    memset(p, 0, sizeof *p);
    return p;
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
            free(t->rows[r].cause);
        }
        free(t->rows);
        for (int c = 0; c < t->ncols; c++)
            free(t->col[c]);
        free(t->intro);
    }
    free(rep->tables);
    free(rep->plots);
    rep->tables = NULL;
    rep->plots = NULL;
    rep->ntables = rep->nplots = 0;
}

/* the regressions compare.json names, at most VERDICT_SHOWN on the page */
#define VERDICT_SHOWN 3

static void verdict_regressions(char *out, size_t n, const cJSON *regs)
{
    size_t len = strlen(out);
    int k = 0, total = cJSON_GetArraySize(regs);
    const cJSON *e;
    cJSON_ArrayForEach(e, regs) {
        if (!cJSON_IsString(e) || k == VERDICT_SHOWN)
            continue;
        len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%.160s", k++ ? "; " : ": ", e->valuestring);
    }
    if (total > k && len < n)
        snprintf(out + len, n - len, "; and %d more", total - k);
}

int skb_report_read_verdict(struct skb_report *rep, const char *root)
{
    cJSON *doc = NULL;
    char msg[300];
    struct stat st;
    rep->verdict[0] = '\0';
    if (!root || skb_stat_below(root, "compare.json", &st) < 0)
        return -1;
    if (skb_json_read_below(root, "compare.json", &doc, msg, sizeof msg) < 0) {
        snprintf(rep->verdict, sizeof rep->verdict, "compare.json here is unreadable (%.250s): no verdict shown", msg);
        return 0;
    }
    const char *v = skb__jstr(skb__jget(doc, "verdict")), *base = skb__jstr(skb__jget(doc, "baseline"));
    double nreg = NAN, nund = NAN;
    skb__jnum(skb__jget(doc, "regression_count"), &nreg);
    skb__jnum(skb__jget(doc, "inconclusive_count"), &nund);
    if (!v || !isfinite(nreg) || !isfinite(nund))
        snprintf(rep->verdict, sizeof rep->verdict, "compare.json here has no \"verdict\" with its counts: no verdict shown");
    else {
        snprintf(rep->verdict, sizeof rep->verdict, "%.20s against the baseline %.200s: %.0f regression(s), %.0f undecided",
                 v, base ? base : "(unnamed)", nreg, nund);
        verdict_regressions(rep->verdict, sizeof rep->verdict, skb__jget(doc, "regressions"));
    }
    skb_text_one_line(rep->verdict);
    cJSON_Delete(doc);
    return 0;
}

/* a libFuzzer log of a 600 s run is a few MB */
#define FUZZ_LOG_MAX ((size_t)64 << 20)

int skb_report_read_fuzz_log(struct skb_report *rep, const char *root, const char *rel)
{
    char *text, msg[300], *save = NULL, path[600];
    long runs = -1, crashes = 0;
    /* the one input reader: a FIFO or device as the log is refused, never
     * read; below a results directory, never through a link */
    size_t len;
    if ((root ? skb_read_below(root, rel, FUZZ_LOG_MAX, &text, &len, msg, sizeof msg)
              : skb_read_file_max(rel, FUZZ_LOG_MAX, &text, &len, msg, sizeof msg)) < 0)
        return -1;
    snprintf(path, sizeof path, "%s%s%s", root ? root : "", root ? "/" : "", rel);
    for (size_t i = 0; i < len; i++)   /* a NUL in the log must not end the scan */
        if (!text[i])
            text[i] = '\n';
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        long n;
        if (sscanf(line, "Done %ld runs", &n) == 1)
            runs = runs < 0 ? n : runs + n;
        if (strstr(line, "ERROR: AddressSanitizer") || strstr(line, "ERROR: libFuzzer")
            || strstr(line, "runtime error:"))
            crashes++;
    }
    free(text);
    if (runs < 0 && crashes == 0)
        return -1;
    snprintf(rep->fuzz, sizeof rep->fuzz, "libFuzzer (%.150s): %ld bad inputs tried / %ld crashes", path,
             runs < 0 ? 0 : runs, crashes);
    return 0;
}
