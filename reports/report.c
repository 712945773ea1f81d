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
#include "report_internal.h"

static const char *const status_names[SKB_ROW_NSTATUS] = {
    "reproduced", "differs", "not run", "context", "new", "fewer than paper",
    "reproduced (trivial)", "not applicable"
};

const char *skb_row_status_name(int st)
{
    return st >= 0 && st < SKB_ROW_NSTATUS ? status_names[st] : "?";
}

/* ---- small helpers ---- */

char *skb__fmt(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s ? s : strdup("");
}

const cJSON *skb__jget(const cJSON *o, const char *k)
{
    return o && k ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

int skb__jnum(const cJSON *x, double *out)
{
    return x && skb_json_get_number(x, out) == 0 && isfinite(*out) ? 0 : -1;
}

const char *skb__jstr(const cJSON *x)
{
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

char *skb__numtxt(double x)
{
    if (!isfinite(x))
        return strdup("—");
    /* counts print whole; everything else with 4 significant digits */
    if (x == floor(x) && fabs(x) < 1e12)
        return skb__fmt("%.0f", x);
    return skb__fmt("%.4g", x);
}

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
    r->status = status;
    r->note = note ? note : strdup("");
    if (!t->unjudged)
        rep->count[status]++;
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

/* speed-up ratios (Tables 5.3, 6.2): the same side of 1 is not enough — a
 * 1.07x speed-up does not reproduce the paper's 5.33x (issue 13) — so the
 * ratio must also lie within a factor `factor` of the paper's */
int skb__judge_order_factor(double meas, double paper, double factor, char **note)
{
    int same = (meas > 1) == (paper > 1);
    double f = skb__miss_factor(meas, paper);
    int ok = same && f <= factor;
    *note = skb__fmt("measured %.4g vs paper %.4g: %s, %s by a factor of %.3g (rule: within %g)", meas, paper,
              same ? "same side of 1" : "opposite side of 1", meas >= paper ? "above" : "below", f, factor);
    return ok ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
}

/* judge a measured value against the paper by the entry's tolerance rule */
int skb__judge(const cJSON *tol, double meas, double paper, double paper_lo, char **note)
{
    const char *kind = skb__jstr(skb__jget(tol, "kind"));
    double v = 0;
    skb__jnum(skb__jget(tol, "value"), &v);
    double d = meas - paper;
    *note = NULL;
    if (!kind || strcmp(kind, "context") == 0) {
        *note = skb__fmt("measured − paper = %.4g (context: other machine/model, not judged)", d);
        return SKB_ROW_CONTEXT;
    }
    if (strcmp(kind, "order") == 0) {
        int same = (meas > 1) == (paper > 1);
        *note = skb__fmt("measured %.4g vs paper %.4g: %s", meas, paper,
                  same ? "same side of 1 (same method is faster)" : "opposite side of 1");
        return same ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
    }
    if (strcmp(kind, "order_factor") == 0)
        return skb__judge_order_factor(meas, paper, v, note);
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
        *note = ok ? NULL : skb__fmt("measured %.4g outside [%.4g, %.4g]", meas, lo * (1 - v), paper * (1 + v));
        return ok ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
    } else
        ok = fabs(d) <= v * fabs(paper);
    if (!ok)
        *note = paper != 0 ? skb__fmt("measured − paper = %+.4g (%+.1f %%)", d, 100 * d / fabs(paper))
                           : skb__fmt("measured − paper = %+.4g", d);
    return ok ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
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

/* the runs table, then every registered experiment's sections in list
 * order; each per-method section then gets a row for every registry method
 * it lacks (report_methods.c) */
int skb_report_build(const struct skb_results *runs, int nruns, const cJSON *ref,
                     struct skb_report *rep, char *msg, size_t msglen)
{
    memset(rep, 0, sizeof *rep);
    if (nruns < 1 || !runs || !ref) {
        snprintf(msg, msglen, "report: no results to report");
        return SKB_EINVAL;
    }
    rep->runs = runs;
    rep->nruns = nruns;
    rep->ref = ref;
    skb__report_runs(rep);
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        for (int i = 0; d->sections && d->sections[i].build; i++) {
            int first = rep->ntables;
            d->sections[i].build(rep);
            for (int t = first; t < rep->ntables; t++)
                skb__absent_method_rows(rep, &rep->tables[t], d, &d->sections[i]);
        }
    }
    /* report-wide sections: the seeds' coverage, the bibliography, and the
     * headline that sums up the judged rows above (so it comes last) */
    skb__report_coverage(rep);
    skb__report_bibliography(rep);
    skb__report_headline(rep);
    if (rep->overflow[0]) {
        snprintf(msg, msglen, "%s", rep->overflow);
        skb_report_free(rep);
        return SKB_EINVAL;
    }
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
    free(rep->tables);
    free(rep->plots);
    rep->tables = NULL;
    rep->plots = NULL;
    rep->ntables = rep->nplots = 0;
}

/* a libFuzzer log of a 600 s run is a few MB */
#define FUZZ_LOG_MAX ((size_t)64 << 20)

int skb_report_read_fuzz_log(struct skb_report *rep, const char *path)
{
    char *text, msg[300], *save = NULL;
    long runs = -1, crashes = 0;
    /* the one input reader: a FIFO or device as the log is refused, never read */
    size_t len;
    if (skb_read_file_max(path, FUZZ_LOG_MAX, &text, &len, msg, sizeof msg) < 0)
        return -1;
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
    snprintf(rep->fuzz, sizeof rep->fuzz, "libFuzzer (%s): %ld bad inputs tried / %ld crashes", path,
             runs < 0 ? 0 : runs, crashes);
    return 0;
}
