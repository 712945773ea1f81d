/* skb_gbench.c — Google Benchmark JSON rows and repetitions (see skb_gbench.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_gbench.h"
#include "skb_json.h"

static const cJSON *jget(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static double num_or_nan(const cJSON *o, const char *k)
{
    double x;
    return skb_json_get_number(jget(o, k), &x) == 0 ? x : NAN;
}

/* ns per unit; 0 for a unit Google Benchmark does not write */
static double unit_scale(const char *unit)
{
    static const struct { const char *name; double ns; } units[] = {
        { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
    };
    if (!unit)
        return 1;   /* absent: Google Benchmark's default, ns */
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].name) == 0)
            return units[i].ns;
    return 0;
}

int skb_gbench_row(const cJSON *b, int i, struct skb_gbench_row *row, char *msg, size_t msglen)
{
    const char *rt = cJSON_GetStringValue(jget(b, "run_type"));
    const char *name = cJSON_GetStringValue(jget(b, "run_name"));
    const cJSON *unit = jget(b, "time_unit");
    if (rt && strcmp(rt, "iteration") != 0)
        return 0;
    if (!name)
        name = cJSON_GetStringValue(jget(b, "name"));
    if (!name)
        return 0;
    double s = unit && !cJSON_IsString(unit) ? 0 : unit_scale(cJSON_GetStringValue(unit));
    if (s == 0) {
        snprintf(msg, msglen, "\"benchmarks\"[%d] (%s): \"time_unit\" %s is not ns, us, ms or s", i, name,
                 cJSON_IsString(unit) ? unit->valuestring : "is not a string");
        return SKB_EPARSE;
    }
    row->name = name;
    row->cpu_ns = s * num_or_nan(b, "cpu_time");
    row->real_ns = s * num_or_nan(b, "real_time");
    row->items_per_s = num_or_nan(b, "items_per_second");
    return isfinite(row->cpu_ns) || isfinite(row->real_ns);
}

/* the benchmark named name, appended when new; NULL out of memory */
static struct skb_gbench_bench *bench_for(struct skb_gbench_set *g, const char *name)
{
    int at = skb_strmap_get(&g->index, name);
    if (at >= 0)
        return g->b + at;
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 16;
        struct skb_gbench_bench *nb = realloc(g->b, sizeof *nb * (size_t)cap);
        if (!nb)
            return NULL;
        g->b = nb;
        g->cap = cap;
    }
    struct skb_gbench_bench *b = g->b + g->n;
    memset(b, 0, sizeof *b);
    /* the index borrows the name: the string stays where it is when g->b moves */
    if (!(b->name = strdup(name)) || skb_strmap_put(&g->index, b->name, g->n) < 0) {
        free(b->name);
        b->name = NULL;
        return NULL;
    }
    g->n++;
    return b;
}

static int bench_add(struct skb_gbench_bench *b, const struct skb_gbench_row *row)
{
    if (b->nrep == b->cap) {
        int cap = b->cap ? 2 * b->cap : 8;
        double *c = realloc(b->cpu_ns, sizeof *c * (size_t)cap);
        if (c)
            b->cpu_ns = c;
        double *r = c ? realloc(b->real_ns, sizeof *r * (size_t)cap) : NULL;
        if (r)
            b->real_ns = r;
        double *it = r ? realloc(b->items_per_s, sizeof *it * (size_t)cap) : NULL;
        if (it)
            b->items_per_s = it;
        double *t = it ? realloc(b->time_ns, sizeof *t * (size_t)cap) : NULL;
        if (!t)
            return SKB_ENOMEM;
        b->time_ns = t;
        b->cap = cap;
    }
    b->cpu_ns[b->nrep] = row->cpu_ns;
    b->real_ns[b->nrep] = row->real_ns;
    b->items_per_s[b->nrep] = row->items_per_s;
    b->time_ns[b->nrep] = isfinite(row->cpu_ns) ? row->cpu_ns : row->real_ns;
    b->nrep++;
    return 0;
}

static int parse_rows(const cJSON *doc, struct skb_gbench_set *g, char *msg, size_t msglen)
{
    const cJSON *b;
    int i = 0;
    cJSON_ArrayForEach(b, jget(doc, "benchmarks")) {
        struct skb_gbench_row row;
        int rc = skb_gbench_row(b, i++, &row, msg, msglen);
        if (rc < 0)
            return rc;
        if (rc == 0)
            continue;
        struct skb_gbench_bench *bb = bench_for(g, row.name);
        if (!bb || bench_add(bb, &row) < 0) {
            snprintf(msg, msglen, "Google Benchmark output: out of memory at \"benchmarks\"[%d]", i - 1);
            return SKB_ENOMEM;
        }
    }
    return 0;
}

int skb_gbench_parse(const cJSON *doc, struct skb_gbench_set *g, char *msg, size_t msglen)
{
    memset(g, 0, sizeof *g);
    int rc = parse_rows(doc, g, msg, msglen);
    if (rc < 0)
        skb_gbench_set_free(g);
    return rc;
}

void skb_gbench_set_free(struct skb_gbench_set *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->n; i++) {
        free(g->b[i].name);
        free(g->b[i].cpu_ns);
        free(g->b[i].real_ns);
        free(g->b[i].items_per_s);
        free(g->b[i].time_ns);
    }
    free(g->b);
    skb_strmap_free(&g->index);
    memset(g, 0, sizeof *g);
}

const struct skb_gbench_bench *skb_gbench_find(const struct skb_gbench_set *g, const char *name)
{
    int at = skb_strmap_get(&g->index, name);
    return at >= 0 ? g->b + at : NULL;
}

double skb_gbench_time_ns(const struct skb_gbench_bench *b, int r)
{
    return b->time_ns[r];
}
