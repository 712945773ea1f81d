/* history.c — the nightly history, read from the results store: per
 * machine key, every run by start time (a night), one series per benchmark
 * of its median CPU time (cpu-gbench.json) and one per kernel of its
 * instructions per deformation (icount.json), and the paired A/B estimate
 * per method where the night compared against its baseline.
 *
 * Steps: instructions are exact, so every change beyond SKB_HIST_ICOUNT_TOL
 * between two nights is a step.  Median times move several per cent from
 * night to night: a time step is the best split of a segment into before
 * and after (least squares on log time), kept when it is at least
 * SKB_HIST_STEP_MIN and clear of the noise by zcrit standard errors with at
 * least SKB_HIST_STEP_SIDE nights on each side; each side is then searched
 * again (binary segmentation), so a year of nights shows every step.  zcrit
 * is Bonferroni over every candidate split of every time series of the
 * machine (at family level SKB_HIST_FAMILY_ALPHA): about 3 for a handful of
 * nights, as the test documented before, and 5 to 6 for a year of a
 * thousand benchmarks, where 3 standard errors would flag dozens of steps by
 * chance alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <sqlite3.h>
#include "skb_json.h"
#include "skb_store.h"
#include "compare_internal.h"   /* skb__bench_group */
#include "history_internal.h"
#include "report_internal.h"

const char skb__history_rules[] =
    "Instructions per deformation (icount.json) are exact: every change above 0.5 % between two nights is a step, "
    "named by the first night it appeared. Median CPU times (cpu-gbench.json) move several per cent from night to "
    "night: a time step is the best split of a stretch of nights into before and after, kept when it is at least "
    "5 % and clear of the night-to-night noise by z standard errors (z Bonferroni-corrected over every candidate "
    "split of every series of the machine, family level 5 %: about 3 for a few nights, 5 to 6 for a year), with at "
    "least 2 nights on each side; each side is searched again. The revisions of a step are those of the night "
    "before it and of its first night: the change is in that range.";

/* ---- loading ---- */

static struct skb_hmachine *machine_for(struct skb_history *h, const char *key)
{
    for (int i = 0; i < h->nmach; i++)
        if (strcmp(h->m[i].key, key) == 0)
            return &h->m[i];
    struct skb_hmachine *m = realloc(h->m, ((size_t)h->nmach + 1) * sizeof *m);
    if (!m)
        return NULL;
    h->m = m;
    m += h->nmach++;
    memset(m, 0, sizeof *m);
    snprintf(m->key, sizeof m->key, "%s", key);
    return m;
}

static const char *col(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? (const char *)t : "";
}

/* the nights: every run without an injected slow-down, per machine by
 * start time; where[run id] = (machine, night) */
static int load_nights(struct skb_history *h, sqlite3 *db, int **where, long long *maxid)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT max(id) FROM runs", -1, &q, NULL) != SQLITE_OK)
        return -1;
    *maxid = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    *where = malloc(((size_t)*maxid + 1) * 2 * sizeof **where);
    if (!*where || sqlite3_prepare_v2(db, "SELECT r.id, r.stamp_utc, r.git_rev, r.git_describe, m.key, r.injected "
                                      "FROM runs r JOIN machines m ON m.id = r.machine_id ORDER BY m.key, r.stamp_utc,"
                                      " r.id", -1, &q, NULL) != SQLITE_OK)
        return -1;
    for (long long i = 0; i <= *maxid; i++)
        (*where)[2 * i] = -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(q, 0);
        h->runs++;
        if (sqlite3_column_type(q, 5) != SQLITE_NULL) {
            h->injected++;
            continue;
        }
        struct skb_hmachine *m = machine_for(h, col(q, 4));
        if (!m || (m->nnights == m->cap && !(m->night = realloc(m->night, (size_t)(m->cap = m->cap ? 2 * m->cap : 64)
                                                                           * sizeof *m->night)))) {
            rc = -1;
            break;
        }
        struct skb_hnight *n = &m->night[m->nnights];
        n->run = id;
        snprintf(n->stamp, sizeof n->stamp, "%s", col(q, 1));
        snprintf(n->rev, sizeof n->rev, "%s", col(q, 2));
        snprintf(n->describe, sizeof n->describe, "%s", col(q, 3));
        (*where)[2 * id] = (int)(m - h->m);
        (*where)[2 * id + 1] = m->nnights++;
    }
    sqlite3_finalize(q);
    return rc;
}

/* the series of name (id) and metric in m, made on first sight */
static struct skb_hseries *series_for(struct skb_hmachine *m, int metric, long long nid, char *const *names)
{
    int i = m->of_name[metric][nid];
    if (i >= 0)
        return &m->series[i];
    if (m->nseries == m->scap) {
        struct skb_hseries *s = realloc(m->series, (size_t)(m->scap = m->scap ? 2 * m->scap : 256) * sizeof *s);
        if (!s)
            return NULL;
        m->series = s;
    }
    struct skb_hseries *s = &m->series[m->nseries];
    memset(s, 0, sizeof *s);
    s->name = names[nid];
    s->metric = metric;
    skb__bench_group(s->name, s->group, sizeof s->group);
    if (!(s->v = malloc((size_t)m->nnights * sizeof *s->v)))
        return NULL;
    for (int k = 0; k < m->nnights; k++)
        s->v[k] = NAN;
    m->of_name[metric][nid] = m->nseries;
    return &m->series[m->nseries++];
}

/* every name by id (the measurements refer to them by id) */
static char **load_names(sqlite3 *db, long long *maxn)
{
    sqlite3_stmt *q;
    char **names = NULL;
    if (sqlite3_prepare_v2(db, "SELECT max(id) FROM names", -1, &q, NULL) != SQLITE_OK)
        return NULL;
    *maxn = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    if (!(names = calloc((size_t)*maxn + 1, sizeof *names))
        || sqlite3_prepare_v2(db, "SELECT id, name FROM names", -1, &q, NULL) != SQLITE_OK)
        return names;
    while (sqlite3_step(q) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(q, 0);
        if (id >= 0 && id <= *maxn)
            names[id] = strdup(col(q, 1));
    }
    sqlite3_finalize(q);
    return names;
}

/* every measurement into its machine's series */
static int load_values(struct skb_history *h, sqlite3 *db, const int *where, long long maxid, char *const *names,
                       long long maxn)
{
    for (int i = 0; i < h->nmach; i++)
        for (int k = 0; k < SKB_HIST_NMETRIC; k++) {
            if (!(h->m[i].of_name[k] = malloc(((size_t)maxn + 1) * sizeof(int))))
                return -1;
            for (long long j = 0; j <= maxn; j++)
                h->m[i].of_name[k][j] = -1;
        }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT run_id, metric, name_id, value FROM measurements", -1, &q, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
        long long run = sqlite3_column_int64(q, 0), nid = sqlite3_column_int64(q, 2);
        int metric = sqlite3_column_int(q, 1) == SKB_METRIC_ICOUNT ? SKB_HIST_ICOUNT : SKB_HIST_TIME;
        if (run < 0 || run > maxid || where[2 * run] < 0 || nid < 0 || nid > maxn || !names[nid])
            continue;
        struct skb_hseries *s = series_for(&h->m[where[2 * run]], metric, nid, names);
        if (!s)
            rc = -1;
        else
            s->v[where[2 * run + 1]] = sqlite3_column_double(q, 3) / (metric == SKB_HIST_TIME ? 1e6 : 1);
    }
    sqlite3_finalize(q);
    return rc;
}

static struct skb_hpaired *paired_for(struct skb_hmachine *m, const char *method)
{
    for (int i = 0; i < m->npaired; i++)
        if (strcmp(m->paired[i].method, method) == 0)
            return &m->paired[i];
    struct skb_hpaired *p = realloc(m->paired, ((size_t)m->npaired + 1) * sizeof *p);
    if (!p)
        return NULL;
    m->paired = p;
    p += m->npaired;
    memset(p, 0, sizeof *p);
    snprintf(p->method, sizeof p->method, "%s", method);
    p->delta = malloc(3 * (size_t)m->nnights * sizeof *p->delta);
    if (!p->delta)
        return NULL;
    p->lo = p->delta + m->nnights;
    p->hi = p->lo + m->nnights;
    for (int k = 0; k < 3 * m->nnights; k++)
        p->delta[k] = NAN;
    m->npaired++;
    return p;
}

static int load_paired(struct skb_history *h, sqlite3 *db, const int *where, long long maxid)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT run_id, method, delta, lo, hi FROM paired", -1, &q, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
        long long run = sqlite3_column_int64(q, 0);
        if (run < 0 || run > maxid || where[2 * run] < 0)
            continue;
        struct skb_hpaired *p = paired_for(&h->m[where[2 * run]], col(q, 1));
        int k = where[2 * run + 1];
        if (!p) {
            rc = -1;
            break;
        }
        for (int c = 0; c < 3; c++)
            (c == 0 ? p->delta : c == 1 ? p->lo : p->hi)[k] = sqlite3_column_type(q, 2 + c) == SQLITE_NULL
                                                                ? NAN : sqlite3_column_double(q, 2 + c);
    }
    sqlite3_finalize(q);
    return rc;
}

/* the machine's time-step threshold: Bonferroni over its candidate splits */
static void set_zcrit(struct skb_hmachine *m)
{
    double tests = 0;
    for (int i = 0; i < m->nseries; i++)
        tests += m->series[i].metric == SKB_HIST_TIME ? fmax(1, m->nnights - 2 * SKB_HIST_STEP_SIDE + 1) : 0;
    m->zcrit = gsl_cdf_ugaussian_Qinv(SKB_HIST_FAMILY_ALPHA / (2 * fmax(tests, 1)));
}

static int load_all(struct skb_history *h, sqlite3 *db)
{
    int *where = NULL;
    long long maxid = 0, maxn = 0;
    char **names = NULL;
    int rc = load_nights(h, db, &where, &maxid);
    if (rc == 0 && !(names = load_names(db, &maxn)))
        rc = -1;
    if (rc == 0)
        rc = load_values(h, db, where, maxid, names, maxn);
    if (rc == 0)
        rc = load_paired(h, db, where, maxid);
    /* the series borrow the names: the history owns them */
    h->names = names;
    h->nnames = names ? maxn + 1 : 0;
    names = NULL;
    for (int i = 0; i < h->nmach; i++) {
        set_zcrit(&h->m[i]);
        for (int k = 0; k < SKB_HIST_NMETRIC; k++) {
            free(h->m[i].of_name[k]);
            h->m[i].of_name[k] = NULL;
        }
    }
    if (names)
        for (long long j = 0; j <= maxn; j++)
            free(names[j]);
    free(names);
    free(where);
    return rc;
}

int skb_history_load(const char *store, struct skb_history **out, char *msg, size_t msglen)
{
    struct skb_store *st = NULL;
    *out = NULL;
    int rc = skb_store_open(store, 0, &st, msg, msglen);
    if (rc < 0)
        return rc;
    struct skb_history *h = calloc(1, sizeof *h);
    if (!h || (h && load_all(h, skb__store_db(st)) < 0)) {
        snprintf(msg, msglen, "%.300s: cannot read the history: %s", store,
                 h ? sqlite3_errmsg(skb__store_db(st)) : "out of memory");
        skb_history_free(h);
        skb_store_close(st);
        return SKB_EIO;
    }
    snprintf(h->source, sizeof h->source, "%s", store);
    skb_store_close(st);
    *out = h;
    return 0;
}

void skb_history_free(struct skb_history *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->nmach; i++) {
        struct skb_hmachine *m = &h->m[i];
        for (int j = 0; j < m->nseries; j++)
            free(m->series[j].v);
        for (int j = 0; j < m->npaired; j++)
            free(m->paired[j].delta);
        for (int k = 0; k < SKB_HIST_NMETRIC; k++)
            free(m->of_name[k]);
        free(m->series);
        free(m->night);
        free(m->paired);
    }
    for (long long j = 0; j < h->nnames; j++)
        free(h->names[j]);
    free(h->names);
    free(h->m);
    free(h);
}
