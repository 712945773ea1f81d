/* compare_ab.c — the two nightly gates that can decide on a shared
 * 2-core VM, printed like Google Benchmark's compare.py (benchmark,
 * baseline, current, delta %, CI, verdict; grouped by method, sorted by
 * effect, speed-ups shown, new and removed benchmarks listed as such).
 *
 * Instruction counts (icount.json): one deformation per kernel under
 * callgrind is the same number on every run of the same code, so the gate
 * is exact but for ICOUNT_TOL: more instructions than that is a regression,
 * fewer a speed-up.  No false alarms; it sees changes of code path.
 *
 * Paired A/B timing: between two runs minutes apart the machine's load
 * moves each benchmark by several per cent, more than the 10 % to catch
 * over ~170 benchmarks.  Timed alternately in one sitting (a, b, b, a, ...)
 * the two builds see the same load, so the per-round ratio b/a (of each
 * side's fastest repetition) cancels much of it.  Per method, the log ratio of each round is the mean over the
 * method's benchmarks; across rounds the Hodges-Lehmann estimate and the
 * exact Wilcoxon signed-rank confidence interval (distribution-free: no
 * normality of timing noise assumed), at level 1 - AB_ALPHA / (methods)
 * (Bonferroni: at most AB_ALPHA chance of any false alarm per sitting). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_label.h"
#include "skb_strmap.h"
#include "skb_bisect.h"
#include "compare_internal.h"

/* relative instruction-count change the exact gate forgives: the counts of
 * one build are identical run to run (measured: 0 of 159 kernels differ);
 * this only keeps a toolchain's sub-per-mille code-layout noise out */
#define ICOUNT_TOL 0.005
/* family-wise false-alarm level of one A/B sitting (all methods together) */
#define AB_ALPHA 0.05
/* a paired slow-down smaller than this is not a regression even when
 * significant (two builds differ in code layout by about this much) */
#define AB_MIN_EFFECT 0.03
/* "pass" needs the CI to exclude a slow-down this large; otherwise the
 * sitting could not decide (exit 3), never a pass */
#define AB_MUST_EXCLUDE 0.10
#define AB_MAX_ROUNDS 200

static const cJSON *jget(const cJSON *o, const char *k)
{
    return o && k ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

void skb__bench_group(const char *name, char *group, size_t len)
{
    const char *k = strchr(name, '/');
    const char *l = k ? k + 1 : name;
    size_t n = strcspn(l, "/");
    int method = k && (strncmp(name, "double/", 7) == 0 || strncmp(name, "f32/", 4) == 0);
    if (method) {   /* PATH/LABEL/DATASET: the label's method (common/skb_label.h) */
        char label[160];
        snprintf(label, sizeof label, "%.*s", (int)n, l);
        skb_label_method(label, group, len);
    } else if (!k) {
        snprintf(group, len, "%.*s", (int)n, l);
    } else {
        snprintf(group, len, "%.*s/%.*s", (int)(k - name), name, (int)n, l);
    }
}

/* ---- rows of the compare.py-style tables ---- */

struct row {
    char name[200], group[80];
    double base, cur, delta, lo, hi;   /* delta, lo, hi: relative (0.1 = +10 %) */
    const char *verdict;
    double gkey;               /* the group's largest slow-down (sort_table sets it) */
};

/* grouped by method, the group with the largest slow-down first; inside a
 * group by effect, slowest first (new/removed rows, no effect, last) */
static int row_cmp(const void *x, const void *y)
{
    const struct row *a = x, *b = y;
    int c = strcmp(a->group, b->group);
    if (c)
        return a->gkey != b->gkey ? (a->gkey < b->gkey ? 1 : -1) : c;
    double da = isfinite(a->delta) ? a->delta : -INFINITY, db = isfinite(b->delta) ? b->delta : -INFINITY;
    return da != db ? (da < db ? 1 : -1) : strcmp(a->name, b->name);
}

/* each row's group key in one pass over the rows (hashed by group), then
 * one sort: O(n log n) for any number of rows and groups */
static void sort_table(struct row *r, int n)
{
    struct skb_strmap idx = { 0 };
    double *key = malloc(((size_t)n + 1) * sizeof *key);
    int ng = 0, ok = key && skb_strmap_init(&idx, (size_t)n) == 0;
    for (int i = 0; ok && i < n; i++) {
        int g = skb_strmap_get(&idx, r[i].group);
        if (g < 0) {
            key[g = ng++] = -INFINITY;
            ok = skb_strmap_put(&idx, r[i].group, g) == 0;
        }
        if (isfinite(r[i].delta))
            key[g] = fmax(key[g], r[i].delta);
    }
    /* the map's keys point into r: read every row's key before moving any */
    for (int i = 0; i < n; i++) {
        int g = ok ? skb_strmap_get(&idx, r[i].group) : -1;
        r[i].gkey = g >= 0 ? key[g] : -INFINITY;
    }
    skb_strmap_free(&idx);
    free(key);
    qsort(r, (size_t)n, sizeof *r, row_cmp);
}

static void fmt_pct(char *buf, size_t len, double x)
{
    if (isfinite(x))
        snprintf(buf, len, "%+.1f %%", 100 * x);
    else
        snprintf(buf, len, "-");
}

static void print_row(FILE *f, const struct row *r, const char *unit_fmt)
{
    char b[32], c[32], d[32], lo[32], hi[32], ci[80] = "";
    if (isfinite(r->base))
        snprintf(b, sizeof b, unit_fmt, r->base);
    else
        snprintf(b, sizeof b, "-");
    if (isfinite(r->cur))
        snprintf(c, sizeof c, unit_fmt, r->cur);
    else
        snprintf(c, sizeof c, "-");
    fmt_pct(d, sizeof d, r->delta);
    if (isfinite(r->lo) || isfinite(r->hi)) {
        fmt_pct(lo, sizeof lo, r->lo);
        fmt_pct(hi, sizeof hi, r->hi);
        snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
    }
    char name[sizeof r->name];
    snprintf(name, sizeof name, "%s", r->name);
    skb__cmp_clean(name);
    fprintf(f, "  %-44s %14s %14s %10s %24s  %s\n", name, b, c, d, ci, r->verdict);
}

static cJSON *row_json(const struct row *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "benchmark", r->name);
    cJSON_AddStringToObject(o, "group", r->group);
    skb_json_add_number(o, "baseline", r->base);
    skb_json_add_number(o, "current", r->cur);
    skb_json_add_number(o, "delta", r->delta);
    skb_json_add_number(o, "ci_low", r->lo);
    skb_json_add_number(o, "ci_high", r->hi);
    cJSON_AddStringToObject(o, "verdict", r->verdict);
    return o;
}

/* ---- instruction counts ---- */

/* x, y: the counts (NAN when absent); bad: a count present but not a number */
static void icount_row(struct row *r, const char *name, double x, double y, int bad)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    skb__bench_group(name, r->group, sizeof r->group);
    skb__cmp_clean(r->name);
    skb__cmp_clean(r->group);
    r->base = x;
    r->cur = y;
    r->lo = r->hi = NAN;
    r->delta = isfinite(x) && isfinite(y) && x > 0 ? y / x - 1 : NAN;
    r->verdict = bad ? "invalid" : isnan(x) ? "new" : isnan(y) ? "removed" : !(x > 0 && isfinite(x) && y > 0 && isfinite(y)) ? "invalid"
                 : r->delta > ICOUNT_TOL ? "REGRESSION" : r->delta < -ICOUNT_TOL ? "faster" : "same";
}

/* the icount table: every changed, new or removed kernel, and per method
 * how many are unchanged (all rows are in compare.json) */
static void print_icount(struct cmp_state *s, struct row *r, int n)
{
    fprintf(s->out, "instructions per deformation (callgrind; exact gate, tolerance %.1f %%):\n", 100 * ICOUNT_TOL);
    fprintf(s->out, "  %-44s %14s %14s %10s %24s  %s\n", "benchmark", "baseline", "current", "delta", "", "verdict");
    for (int i = 0; i < n;) {
        int j = i, same = 0;
        while (j < n && strcmp(r[j].group, r[i].group) == 0)
            same += strcmp(r[j++].verdict, "same") == 0;
        fprintf(s->out, " %s: %d kernels, %d unchanged\n", r[i].group, j - i, same);
        for (int k = i; k < j; k++)
            if (strcmp(r[k].verdict, "same") != 0)
                print_row(s->out, r + k, "%.0f");
        i = j;
    }
}

/* a count as read: "nan"/"inf" strings are numbers to skb_json_get_number,
 * and an absent or unreadable one is NAN (reported, never judged) */
static double count_of(const cJSON *k)
{
    double v;
    return k && skb_json_get_number(k, &v) == 0 ? v : NAN;
}

/* the members of a JSON object by key (one pass); 0 or -1 out of memory */
static int index_object(const cJSON *o, struct skb_strmap *m, const cJSON ***items)
{
    int n = cJSON_GetArraySize(o), i = 0;
    const cJSON *k;
    *items = malloc(((size_t)n + 1) * sizeof **items);
    if (!*items || skb_strmap_init(m, (size_t)n) < 0)
        return -1;
    cJSON_ArrayForEach(k, o)
        if (k->string) {
            (*items)[i] = k;
            if (skb_strmap_put(m, k->string, i++) < 0)
                return -1;
        }
    return 0;
}

static const cJSON *member(const struct skb_strmap *m, const cJSON **items, const char *key)
{
    int i = key ? skb_strmap_get(m, key) : -1;
    return i >= 0 ? items[i] : NULL;
}

/* one row per kernel of either run, every count looked up in a hashed
 * index (a cJSON member look-up is linear: quadratic on 20,000 kernels);
 * the number of rows, or -1 out of memory */
static int icount_rows(const cJSON *ka, const cJSON *kb, struct row *r)
{
    struct skb_strmap ma = { 0 }, mb = { 0 };
    const cJSON **ia = NULL, **ib = NULL, *k;
    int m = -1;
    if (index_object(ka, &ma, &ia) == 0 && index_object(kb, &mb, &ib) == 0) {
        m = 0;
        cJSON_ArrayForEach(k, ka) {
            const cJSON *y = member(&mb, ib, k->string);
            icount_row(r + m++, k->string ? k->string : "?", count_of(k), count_of(y),
                       isnan(count_of(k)) || (y && isnan(count_of(y))));
        }
        cJSON_ArrayForEach(k, kb)
            if (!member(&ma, ia, k->string))
                icount_row(r + m++, k->string ? k->string : "?", NAN, count_of(k), 0);
    }
    skb_strmap_free(&ma);
    skb_strmap_free(&mb);
    free(ia);
    free(ib);
    return m;
}

void skb__gate_icount(struct cmp_state *s, const cJSON *a, const cJSON *b, cJSON *sum)
{
    if (b && !cJSON_IsTrue(jget(b, "available"))) {
        /* the current run could not count instructions: the gate cannot decide */
        const char *why = cJSON_GetStringValue(jget(b, "reason"));
        char w[300];
        snprintf(w, sizeof w, "instruction counts unavailable in the current run%s%.200s", why ? ": " : "",
                 why ? why : "");
        skb__cmp_undecided(s, "icount.json", w);
        return;
    }
    if (!a || !b || !cJSON_IsTrue(jget(a, "available"))) {
        if (a && b)
            skb__cmp_undecided(s, "icount.json", "the baseline counted no instructions: nothing to hold the counts to");
        return;
    }
    const cJSON *ka = jget(a, "kernels"), *kb = jget(b, "kernels");
    int n = cJSON_GetArraySize(ka) + cJSON_GetArraySize(kb), worse = 0, better = 0, added = 0, gone = 0;
    struct row *r = calloc((size_t)n + 1, sizeof *r);
    int m = r ? icount_rows(ka, kb, r) : -1;
    if (m < 0) {
        skb__cmp_undecided(s, "icount.json", "out of memory reading the counts");
        free(r);
        return;
    }
    if (cJSON_GetArraySize(ka) > 0 && cJSON_GetArraySize(kb) == 0)
        skb__cmp_undecided(s, "icount.json", "the current run counted no kernels");
    sort_table(r, m);
    print_icount(s, r, m);
    cJSON *arr = cJSON_AddArrayToObject(sum, "icount");
    for (int i = 0; i < m; i++) {
        cJSON_AddItemToArray(arr, row_json(r + i));
        worse += strcmp(r[i].verdict, "REGRESSION") == 0;
        better += strcmp(r[i].verdict, "faster") == 0;
        added += strcmp(r[i].verdict, "new") == 0;
        gone += strcmp(r[i].verdict, "removed") == 0;
        if (strcmp(r[i].verdict, "REGRESSION") == 0)
            skb__cmp_regression(s, "icount.json: %s executes %+.2f %% instructions (%.0f -> %.0f per deformation)",
                                r[i].name, 100 * r[i].delta, r[i].base, r[i].cur);
        else if (strcmp(r[i].verdict, "removed") == 0)
            skb__cmp_undecided(s, r[i].name, "instruction count missing in the current run");
        else if (strcmp(r[i].verdict, "invalid") == 0)
            skb__cmp_undecided(s, r[i].name, "instruction count not a finite positive number");
        else if (strcmp(r[i].verdict, "new") == 0)
            skb__cmp_undecided(s, r[i].name, "new kernel: no instruction count in the baseline");
    }
    fprintf(s->out, "instructions: %d kernels, %d more (regressions), %d fewer, %d new, %d removed\n", m, worse,
            better, added, gone);
    cJSON *o = cJSON_AddObjectToObject(sum, "icount_summary");
    cJSON_AddNumberToObject(o, "kernels", m);
    cJSON_AddNumberToObject(o, "more", worse);
    cJSON_AddNumberToObject(o, "fewer", better);
    cJSON_AddNumberToObject(o, "new", added);
    cJSON_AddNumberToObject(o, "removed", gone);
    cJSON_AddNumberToObject(o, "tolerance", ICOUNT_TOL);
    free(r);
}

/* ---- the A/B sitting ---- */

/* dir/rel, read below the sitting's directory without links (docs/security.md) */
static int read_gbench(const char *dir, const char *rel, struct skb_gbench_set *g, char *msg, size_t msglen)
{
    char *text, path[1400];
    size_t len;
    cJSON *doc;
    snprintf(path, sizeof path, "%.1100s/%s", dir, rel);
    int rc = skb_read_below(dir, rel, SKB_RESULTS_FILE_MAX, &text, &len, msg, msglen);
    if (rc < 0)
        return rc;
    rc = skb_results_parse(skb_rfile_slot("cpu-gbench.json"), path, text, len, &doc, msg, msglen);
    free(text);
    if (rc < 0)
        return rc;
    rc = skb_gbench_parse(doc, g, msg, msglen);
    cJSON_Delete(doc);
    if (rc < 0 || g->n == 0) {
        snprintf(msg, msglen, "%s: no benchmark repetitions", path);
        return SKB_EPARSE;
    }
    return 0;
}

/* the baseline side of a sitting must be a normal run (no injected slow-down) */
static int check_side_a(const char *dir, const char *side, char *msg, size_t msglen)
{
    char path[1400], rel[64], *text;
    size_t len;
    cJSON *doc;
    snprintf(path, sizeof path, "%.1100s/%s/cpu.json", dir, side);
    snprintf(rel, sizeof rel, "%s/cpu.json", side);
    if (skb_read_below(dir, rel, 0, &text, &len, msg, msglen) < 0)
        return 0;   /* cpu.json is optional here; the timings are in cpu-gbench.json */
    doc = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *inj = jget(doc, "injected_slowdown");
    int bad = inj && !cJSON_IsNull(inj);
    cJSON_Delete(doc);
    if (bad) {
        snprintf(msg, msglen, "%s: field \"injected_slowdown\" is set: the baseline side of an A/B sitting must be "
                 "a normal run", path);
        return SKB_EINVAL;
    }
    return 0;
}

static int round_no(const char *name)
{
    char *end;
    if (strncmp(name, "round-", 6) != 0)
        return -1;
    long k = strtol(name + 6, &end, 10);
    return *end || k < 1 || k > AB_MAX_ROUNDS ? -1 : (int)k;
}

int skb_ab_load(const char *dir, struct skb_ab *ab, char *msg, size_t msglen)
{
    memset(ab, 0, sizeof *ab);
    snprintf(ab->dir, sizeof ab->dir, "%s", dir);
    DIR *d = opendir(dir);
    struct dirent *e;
    int maxk = 0;
    if (!d) {
        snprintf(msg, msglen, "%s: cannot open the A/B directory: %s", dir, strerror(errno));
        return SKB_EIO;
    }
    while ((e = readdir(d)))
        if (round_no(e->d_name) > maxk)
            maxk = round_no(e->d_name);
    closedir(d);
    if (maxk == 0) {
        snprintf(msg, msglen, "%s: no round-K directories (an A/B sitting of scripts/nightly-ab.sh)", dir);
        return SKB_EPARSE;
    }
    ab->a = calloc((size_t)maxk, sizeof *ab->a);
    ab->b = calloc((size_t)maxk, sizeof *ab->b);
    if (!ab->a || !ab->b) {
        skb_ab_free(ab);
        snprintf(msg, msglen, "%s: out of memory", dir);
        return SKB_ENOMEM;
    }
    /* rounds 1..maxk, every one complete: a missing round is a broken sitting */
    for (int k = 1; k <= maxk; k++) {
        char side[32], path[64];   /* relative to dir */
        for (int w = 0; w < 2; w++) {
            snprintf(side, sizeof side, "round-%d/%c", k, w ? 'b' : 'a');
            snprintf(path, sizeof path, "%s/cpu-gbench.json", side);
            int rc = (w == 0 ? check_side_a(dir, side, msg, msglen) : 0);
            if (rc == 0)
                rc = read_gbench(dir, path, w ? &ab->b[k - 1] : &ab->a[k - 1], msg, msglen);
            if (rc < 0) {
                ab->nrounds = k;
                skb_ab_free(ab);
                return rc;
            }
        }
        ab->nrounds = k;
    }
    return 0;
}

void skb_ab_free(struct skb_ab *ab)
{
    for (int k = 0; ab->a && ab->b && k < ab->nrounds; k++) {
        skb_gbench_set_free(&ab->a[k]);
        skb_gbench_set_free(&ab->b[k]);
    }
    free(ab->a);
    free(ab->b);
    ab->a = ab->b = NULL;
    ab->nrounds = 0;
}

/* index of benchmark name in g, -1 if absent */
static int gfind(const struct skb_gbench_set *g, const char *name)
{
    const struct skb_gbench_bench *b = skb_gbench_find(g, name);
    return b ? (int)(b - g->b) : -1;
}

/* the fastest of n repetitions: other load on a shared machine only ever
 * adds time (preemption refills the caches, a busy sibling core slows the
 * memory), so the minimum is the launch's least disturbed estimate.
 * Measured on a 12-round A/A sitting at load average 13: per-round sd of
 * the per-benchmark log ratio 9.7 % with the minimum, 15.8 % with the
 * median of the same repetitions */
static double fastest(const double *x, int n)
{
    double m = INFINITY;
    for (int i = 0; i < n; i++)
        m = fmin(m, x[i]);
    return m;
}

/* log(fastest b / fastest a) of benchmark `name` in round k, NAN when absent */
static double round_log_ratio(const struct skb_ab *ab, int k, const char *name, double *ma, double *mb)
{
    int i = gfind(&ab->a[k], name), j = gfind(&ab->b[k], name);
    if (i < 0 || j < 0)
        return NAN;
    *ma = fastest(ab->a[k].b[i].time_ns, ab->a[k].b[i].nrep);
    *mb = fastest(ab->b[k].b[j].time_ns, ab->b[k].b[j].nrep);
    return *ma > 0 && *mb > 0 ? log(*mb / *ma) : NAN;
}

/* every benchmark name of the sitting (a or b side of any round), each
 * once, hashed; the count, or -1 out of memory */
static int ab_names(const struct skb_ab *ab, char ***names)
{
    int cap = 0, n = 0;
    struct skb_strmap seen = { 0 };
    for (int k = 0; k < ab->nrounds; k++)
        cap += ab->a[k].n + ab->b[k].n;
    *names = calloc((size_t)cap + 1, sizeof **names);
    if (!*names || skb_strmap_init(&seen, (size_t)cap) < 0) {
        skb_strmap_free(&seen);
        return -1;
    }
    for (int k = 0; k < ab->nrounds; k++)
        for (int w = 0; w < 2; w++) {
            const struct skb_gbench_set *g = w ? &ab->b[k] : &ab->a[k];
            for (int i = 0; i < g->n; i++)
                if (skb_strmap_get(&seen, g->b[i].name) < 0) {
                    if (skb_strmap_put(&seen, g->b[i].name, n) < 0) {
                        skb_strmap_free(&seen);
                        return -1;
                    }
                    (*names)[n++] = g->b[i].name;
                }
        }
    skb_strmap_free(&seen);
    return n;
}

/* one benchmark across rounds: medians, HL and CI of the log ratio */
static void bench_row(const struct skb_ab *ab, const char *name, double alpha, struct row *r, double *x)
{
    double *ma = malloc(((size_t)ab->nrounds + 1) * 2 * sizeof *ma), *mb = ma + ab->nrounds;
    int n = 0, ina = 0, inb = 0;
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    skb__bench_group(name, r->group, sizeof r->group);
    r->base = r->cur = r->delta = r->lo = r->hi = NAN;
    for (int k = 0; ma && k < ab->nrounds; k++) {
        ina |= gfind(&ab->a[k], name) >= 0;
        inb |= gfind(&ab->b[k], name) >= 0;
        double a, b, l = round_log_ratio(ab, k, name, &a, &b);
        x[k] = l;
        if (isfinite(l)) {
            ma[n] = a;
            mb[n++] = b;
        }
    }
    r->verdict = !ina ? "new" : !inb ? "removed" : "";
    if (ma && n > 0) {
        double hl, lo, hi, *y = malloc((size_t)n * sizeof *y);
        int m = 0;
        for (int k = 0; y && k < ab->nrounds; k++)
            if (isfinite(x[k]))
                y[m++] = x[k];
        r->base = skb_median(ma, n) / 1e6;   /* ns -> ms */
        r->cur = skb_median(mb, n) / 1e6;
        if (y && skb_hodges_lehmann(y, m, alpha, &hl, &lo, &hi) == 0) {
            r->delta = expm1(hl);
            r->lo = expm1(lo);
            r->hi = expm1(hi);
        }
        free(y);
    }
    free(ma);
}

/* the verdict of a method (or of one benchmark) from its CI */
static const char *ab_verdict(const struct row *r)
{
    if (!isfinite(r->lo) || !isfinite(r->hi))
        return "INCONCLUSIVE (too few rounds)";
    if (r->lo > 0 && r->delta > AB_MIN_EFFECT)
        return "REGRESSION";
    if (r->hi < 0 && r->delta < -AB_MIN_EFFECT)
        return "faster";
    if (r->hi < AB_MUST_EXCLUDE)
        return "same";
    return "INCONCLUSIVE (CI too wide)";
}

/* the benchmarks of one method: indices into the benchmark rows */
struct members {
    const int *at;
    int n;
};

/* a group without paired rounds: all its benchmarks new, or all removed */
static const char *group_status(const struct row *br, struct members m)
{
    int neu = 0, gone = 0;
    for (int j = 0; j < m.n; j++) {
        neu += strcmp(br[m.at[j]].verdict, "new") == 0;
        gone += strcmp(br[m.at[j]].verdict, "removed") == 0;
    }
    return neu == m.n ? "new" : gone == m.n ? "removed" : "no paired rounds";
}

/* per method: the mean log ratio over its benchmarks in each round */
static void method_row(const struct skb_ab *ab, const char *group, const struct row *br, double *const *bx,
                       struct members m, double alpha, struct row *r)
{
    double *x = calloc((size_t)ab->nrounds + 1, sizeof *x), hl, lo, hi;
    double *ma = calloc((size_t)m.n + 1, sizeof *ma), *mb = calloc((size_t)m.n + 1, sizeof *mb);
    int n = 0, nm = 0;
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s (method)", group);
    snprintf(r->group, sizeof r->group, "%s", group);
    r->base = r->cur = r->delta = r->lo = r->hi = NAN;
    for (int k = 0; x && k < ab->nrounds; k++) {
        double sum = 0;
        int c = 0;
        for (int j = 0; j < m.n; j++)
            if (bx[m.at[j]] && isfinite(bx[m.at[j]][k])) {
                sum += bx[m.at[j]][k];
                c++;
            }
        if (c)
            x[n++] = sum / c;
    }
    for (int j = 0; ma && mb && j < m.n; j++) {
        const struct row *b = br + m.at[j];
        if (isfinite(b->base) && isfinite(b->cur)) {
            ma[nm] = b->base;
            mb[nm++] = b->cur;
        }
    }
    if (n > 0 && skb_hodges_lehmann(x, n, alpha, &hl, &lo, &hi) == 0) {
        r->delta = expm1(hl);
        r->lo = expm1(lo);
        r->hi = expm1(hi);
    }
    /* the method's baseline and current: geometric means of its benchmarks' medians */
    if (nm) {
        double la = 0, lb = 0;
        for (int i = 0; i < nm; i++) {
            la += log(ma[i]);
            lb += log(mb[i]);
        }
        r->base = exp(la / nm);
        r->cur = exp(lb / nm);
    }
    r->verdict = n ? ab_verdict(r) : group_status(br, m);
    free(x);
    free(ma);
    free(mb);
}

/* the table: each method, then its benchmarks (br sorted: a group's rows
 * are one block, found through the hashed index of their first row) */
static void print_ab(struct cmp_state *s, const struct skb_ab *ab, const struct row *mr, int ng, const struct row *br,
                     int nb, double lvl_m, double lvl_b)
{
    struct skb_strmap first = { 0 };
    int ok = skb_strmap_init(&first, (size_t)nb) == 0;
    for (int i = nb - 1; ok && i >= 0; i--)
        ok = skb_strmap_put(&first, br[i].group, i) == 0;
    fprintf(s->out, "timing, paired A/B in one sitting (%s: %d rounds; current/baseline of the fastest repetitions "
            "per round, columns: their medians over rounds; Hodges-Lehmann "
            "estimate, exact signed-rank CI at %.2f %% per method, %.2f %% per benchmark, Bonferroni):\n",
            ab->dir, ab->nrounds, 100 * lvl_m, 100 * lvl_b);
    /* each column names its statistic: the medians are of each side alone,
     * the delta is the Hodges-Lehmann estimate of the per-round ratios, so
     * the two need not agree (sb: medians 28.6 % apart, delta +10.2 %) */
    fprintf(s->out, "  %-44s %14s %14s %10s %24s  %s\n", "benchmark", "base median ms", "cur median ms", "HL delta",
            "CI of HL delta", "verdict");
    for (int g = 0; g < ng; g++) {
        print_row(s->out, mr + g, "%.4g");
        for (int i = ok ? skb_strmap_get(&first, mr[g].group) : nb; i >= 0 && i < nb
             && strcmp(br[i].group, mr[g].group) == 0; i++) {
            struct row t = br[i];
            /* indented under its method; the precision keeps the name inside t.name */
            snprintf(t.name, sizeof t.name, "  %.*s", (int)sizeof t.name - 3, br[i].name);
            print_row(s->out, &t, "%.4g");
        }
    }
    skb_strmap_free(&first);
}

/* the methods of the benchmark rows, in first-seen order, each with its
 * member list (one hashed pass, then a counting sort); ng, or -1 */
static int group_members(const struct row *br, int nb, struct row *mr, int *gi, int *start, int *at)
{
    struct skb_strmap idx = { 0 };
    int ng = 0;
    if (skb_strmap_init(&idx, (size_t)nb) < 0)
        return -1;
    for (int i = 0; i < nb; i++) {
        gi[i] = skb_strmap_get(&idx, br[i].group);
        if (gi[i] < 0) {
            gi[i] = ng;
            if (skb_strmap_put(&idx, br[i].group, ng) < 0) {
                skb_strmap_free(&idx);
                return -1;
            }
            snprintf(mr[ng++].group, sizeof mr[0].group, "%s", br[i].group);
        }
    }
    skb_strmap_free(&idx);
    memset(start, 0, ((size_t)ng + 1) * sizeof *start);
    for (int i = 0; i < nb; i++)
        start[gi[i] + 1]++;
    for (int g = 0; g < ng; g++)
        start[g + 1] += start[g];
    int *fill = malloc(((size_t)ng + 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, start, ((size_t)ng + 1) * sizeof *fill);
    for (int i = 0; i < nb; i++)
        at[fill[gi[i]]++] = i;
    free(fill);
    return ng;
}

/* compare.json's "ab" and the verdict lines: a method slower is a
 * regression; undecided, new or removed (timed by one build only) is
 * undecided; a benchmark one build lacks is undecided too */
static void ab_verdicts(struct cmp_state *s, const struct skb_ab *ab, const struct row *mr, int ng, const struct row *br,
                        int nb, cJSON *sum)
{
    cJSON *o = cJSON_AddObjectToObject(sum, "ab");
    cJSON_AddStringToObject(o, "dir", ab->dir);
    cJSON_AddNumberToObject(o, "rounds", ab->nrounds);
    cJSON_AddNumberToObject(o, "family_alpha", AB_ALPHA);
    cJSON_AddNumberToObject(o, "methods", ng);
    cJSON_AddNumberToObject(o, "min_effect", AB_MIN_EFFECT);
    cJSON_AddNumberToObject(o, "must_exclude", AB_MUST_EXCLUDE);
    cJSON *ma = cJSON_AddArrayToObject(o, "per_method"), *ba = cJSON_AddArrayToObject(o, "per_benchmark");
    int reg = 0, und = 0;
    for (int g = 0; g < ng; g++) {
        const char *v = mr[g].verdict;
        cJSON_AddItemToArray(ma, row_json(mr + g));
        if (strcmp(v, "REGRESSION") == 0) {
            reg++;
            skb__cmp_regression(s, "timing A/B: method %s slower by %+.1f %% (CI %+.1f..%+.1f %% over %d rounds, "
                                "Bonferroni over %d methods)", mr[g].group, 100 * mr[g].delta, 100 * mr[g].lo,
                                100 * mr[g].hi, ab->nrounds, ng);
        } else if (strcmp(v, "same") != 0 && strcmp(v, "faster") != 0) {
            und++;
            skb__cmp_undecided(s, mr[g].group, strcmp(v, "INCONCLUSIVE (too few rounds)") == 0 ? "ab: too few rounds"
                               : strcmp(v, "INCONCLUSIVE (CI too wide)") == 0 ? "ab: CI too wide"
                               : strcmp(v, "new") == 0 ? "ab: timed by the current build only (new method)"
                               : strcmp(v, "removed") == 0 ? "ab: timed by the baseline's build only (removed method)"
                                                           : "ab: no paired rounds");
        }
    }
    for (int i = 0; i < nb; i++) {
        cJSON_AddItemToArray(ba, row_json(br + i));
        if (strcmp(br[i].verdict, "new") == 0 || strcmp(br[i].verdict, "removed") == 0)
            skb__cmp_undecided(s, br[i].name, strcmp(br[i].verdict, "new") == 0
                                                  ? "ab: benchmark timed by the current build only (new)"
                                                  : "ab: benchmark timed by the baseline's build only (removed)");
    }
    cJSON_AddNumberToObject(o, "regressions", reg);
    cJSON_AddNumberToObject(o, "inconclusive", und);
    fprintf(s->out, "timing A/B: %d methods, %d slower (regressions), %d undecided\n", ng, reg, und);
}

/* methods sorted by effect; their verdicts decide, benchmarks inform */
void skb__gate_ab(struct cmp_state *s, const struct skb_ab *ab, cJSON *sum)
{
    char **names = NULL;
    int nb = ab_names(ab, &names), ng = 0;
    struct row *br = nb > 0 ? calloc((size_t)nb, sizeof *br) : NULL, *mr = nb > 0 ? calloc((size_t)nb, sizeof *mr) : NULL;
    double **bx = nb > 0 ? calloc((size_t)nb, sizeof *bx) : NULL;
    int *gi = nb > 0 ? malloc((size_t)nb * sizeof *gi) : NULL, *at = nb > 0 ? malloc((size_t)nb * sizeof *at) : NULL;
    int *start = nb > 0 ? malloc(((size_t)nb + 1) * sizeof *start) : NULL;
    if (nb <= 0 || !br || !mr || !bx || !gi || !at || !start) {
        skb__cmp_undecided(s, "A/B sitting", "no benchmarks or out of memory");
        free(names), free(br), free(mr), free(bx), free(gi), free(at), free(start);
        return;
    }
    double alpha_b = AB_ALPHA / nb;
    for (int i = 0; i < nb; i++) {
        bx[i] = calloc((size_t)ab->nrounds + 1, sizeof **bx);
        if (bx[i])
            bench_row(ab, names[i], alpha_b, br + i, bx[i]);
        if (!*br[i].verdict)
            br[i].verdict = isfinite(br[i].lo) ? (br[i].lo > 0 ? "slower" : br[i].hi < 0 ? "faster" : "~") : "?";
    }
    ng = group_members(br, nb, mr, gi, start, at);
    if (ng <= 0) {
        skb__cmp_undecided(s, "A/B sitting", "out of memory grouping the benchmarks by method");
        ng = 0;
    }
    double alpha_m = AB_ALPHA / (ng ? ng : 1);
    for (int g = 0; g < ng; g++) {
        char grp[80];
        snprintf(grp, sizeof grp, "%s", mr[g].group);
        struct members m = { at + start[g], start[g + 1] - start[g] };
        method_row(ab, grp, br, bx, m, alpha_m, mr + g);
    }
    sort_table(br, nb);   /* bx rows no longer match br: used above only */
    sort_table(mr, ng);
    print_ab(s, ab, mr, ng, br, nb, 1 - alpha_m, 1 - alpha_b);
    ab_verdicts(s, ab, mr, ng, br, nb, sum);
    for (int i = 0; i < nb; i++)
        free(bx[i]);
    free(bx), free(br), free(mr), free(names), free(gi), free(at), free(start);
}

int skb_ab_method_estimate(const struct skb_ab *ab, const char *method, double alpha, double *est, double *lo,
                           double *hi)
{
    char **names = NULL;
    int nb = ab_names(ab, &names), m = 0, rc = -1;
    struct row *br = nb > 0 ? calloc((size_t)nb, sizeof *br) : NULL, mr;
    double **bx = nb > 0 ? calloc((size_t)nb, sizeof *bx) : NULL;
    int *at = nb > 0 ? malloc((size_t)nb * sizeof *at) : NULL;
    for (int i = 0; br && bx && at && i < nb; i++) {
        char g[80];
        skb__bench_group(names[i], g, sizeof g);
        if (strcmp(g, method) != 0 || !(bx[m] = calloc((size_t)ab->nrounds + 1, sizeof **bx)))
            continue;
        bench_row(ab, names[i], alpha, br + m, bx[m]);
        if (!*br[m].verdict)
            br[m].verdict = "";
        at[m] = m;
        m++;
    }
    if (m > 0) {
        struct members mm = { at, m };
        method_row(ab, method, br, bx, mm, alpha, &mr);
        *est = mr.delta;
        *lo = mr.lo;
        *hi = mr.hi;
        rc = isfinite(mr.delta) ? 0 : -1;
    }
    for (int i = 0; bx && i < m; i++)
        free(bx[i]);
    free(bx), free(br), free(at), free(names);
    return rc;
}

/* ---- the gates' validation figures ---- */

void skb_compare_add_validation(cJSON *summary, const cJSON *val, const char *path, FILE *out)
{
    cJSON *v = cJSON_Duplicate(val, 1);
    if (!v)
        return;
    cJSON_AddStringToObject(v, "file", path);
    cJSON_AddItemToObject(summary, "gate_validation", v);
    const cJSON *k;
    fprintf(out, "gate validation (%s, measured by scripts/gate-trials-all.sh):\n", path);
    cJSON_ArrayForEach(k, jget(val, "kinds")) {
        double n = 0, det = NAN, tdet = NAN, anyreg = 0, inc = 0;
        skb_json_get_number(jget(k, "trials"), &n);
        skb_json_get_number(jget(k, "detected"), &det);
        skb_json_get_number(jget(k, "timing_detected"), &tdet);
        skb_json_get_number(jget(k, "any_regression"), &anyreg);
        skb_json_get_number(jget(k, "inconclusive"), &inc);
        if (isfinite(det))
            fprintf(out, "  %-10s %3.0f trials: injected method named %.0f (by the timing gate alone %.0f), "
                    "inconclusive %.0f\n", k->string ? k->string : "?", n, det, tdet, inc);
        else
            fprintf(out, "  %-10s %3.0f trials: any regression reported %.0f, inconclusive %.0f\n",
                    k->string ? k->string : "?", n, anyreg, inc);
    }
}
