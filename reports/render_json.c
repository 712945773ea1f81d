/* render_json.c — report.json: the report's row model as data, beside
 * report.md and report.html (rendered from the same struct skb_report):
 * schema_version, the counts per status, and one object per row of every
 * judged table with its rule, band, interval, margin, status and cause.  A
 * reader can decide every row's status again from its own fields
 * (tests/report_json.sh does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

static int col_of(const struct skb_rtable *t, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        for (int c = 0; c < t->ncols; c++)
            if (strcmp(t->col[c], names[i]) == 0)
                return c;
    return -1;
}

static void add_cell(cJSON *o, const char *key, const struct skb_rtable *t, const struct skb_rrow *r,
                     const char *const *names)
{
    int c = col_of(t, names);
    if (c >= 0 && r->cell[c][0])
        cJSON_AddStringToObject(o, key, r->cell[c]);
    else
        cJSON_AddNullToObject(o, key);
}

/* a finite number, else null */
static void add_num(cJSON *o, const char *key, double x)
{
    if (isfinite(x))
        cJSON_AddNumberToObject(o, key, x);
    else if (isinf(x))
        cJSON_AddStringToObject(o, key, x > 0 ? "inf" : "-inf");
    else
        cJSON_AddNullToObject(o, key);
}

/* the seed of a table's source ("seed 001, DQ paper Fig. 18 ..." -> "001") */
static void table_seed(const struct skb_rtable *t, char *out, size_t n)
{
    const char *s = strncmp(t->source, "seed ", 5) == 0 ? t->source + 5 : "";
    size_t k = strcspn(s, ",");
    snprintf(out, n, "%.*s", (int)(k < n ? k : n - 1), s);
}

static cJSON *row_json(const struct skb_rtable *t, const struct skb_rrow *r, int i)
{
    static const char *const c_method[] = { "method", "refit", "shader", "quantity", NULL };
    static const char *const c_dataset[] = { "dataset", "scenario", "pose", NULL };
    static const char *const c_variant[] = { "variant", "level", NULL };
    static const char *const c_measured[] = { "ratio to LBS", "SBS / LBS", "avg / reference", "speed-up",
                                              "bottom-up / on-demand", "measured", "ratio to LBS (f32)", NULL };
    static const char *const c_paper[] = { "paper ratio", "paper SBS / LBS", "paper avg / ref.", "paper speed-up",
                                           "paper", NULL };
    cJSON *o = cJSON_CreateObject();
    char id[96], seed[16];
    snprintf(id, sizeof id, "%s-%d", t->id, i + 1);
    table_seed(t, seed, sizeof seed);
    cJSON_AddStringToObject(o, "id", id);
    cJSON_AddStringToObject(o, "seed", r->seed[0] ? r->seed : seed);
    cJSON_AddStringToObject(o, "where", t->title);
    add_cell(o, "method", t, r, c_method);
    add_cell(o, "dataset", t, r, c_dataset);
    add_cell(o, "variant", t, r, c_variant);
    const struct skb_verdict *v = &r->v;
    if (r->judged) {
        add_num(o, "measured", v->measured);
        if (!isnan(v->lo) && !isnan(v->hi)) {
            cJSON *iv = cJSON_AddArrayToObject(o, "interval");
            cJSON_AddItemToArray(iv, isfinite(v->lo) ? cJSON_CreateNumber(v->lo) : cJSON_CreateString("-inf"));
            cJSON_AddItemToArray(iv, isfinite(v->hi) ? cJSON_CreateNumber(v->hi) : cJSON_CreateString("inf"));
            if (isfinite(v->paired_lo) && isfinite(v->paired_hi)) {
                cJSON *pv = cJSON_AddArrayToObject(o, "paired_interval");
                cJSON_AddItemToArray(pv, cJSON_CreateNumber(v->paired_lo));
                cJSON_AddItemToArray(pv, cJSON_CreateNumber(v->paired_hi));
            }
            add_num(o, "floor", v->floor);
        } else {
            cJSON_AddNullToObject(o, "interval");
        }
        if (isfinite(v->paper_lo)) {
            cJSON *pr = cJSON_AddArrayToObject(o, "paper");
            cJSON_AddItemToArray(pr, cJSON_CreateNumber(v->paper_lo));
            cJSON_AddItemToArray(pr, cJSON_CreateNumber(v->paper));
        } else {
            add_num(o, "paper", v->paper);
        }
        cJSON *rule = cJSON_AddObjectToObject(o, "rule");
        cJSON_AddStringToObject(rule, "kind", v->rule);
        add_num(rule, "value", v->value);
        cJSON *band = cJSON_AddArrayToObject(rule, "band");
        cJSON_AddItemToArray(band, isfinite(v->band_lo) ? cJSON_CreateNumber(v->band_lo) : cJSON_CreateString("-inf"));
        cJSON_AddItemToArray(band, isfinite(v->band_hi) ? cJSON_CreateNumber(v->band_hi) : cJSON_CreateString("inf"));
        if (v->trivial > 0)
            cJSON_AddNumberToObject(rule, "trivial_band", v->trivial);
        cJSON_AddBoolToObject(rule, "setup", v->setup != 0);
        add_num(o, "margin", skb_verdict_margin(v));
    } else {
        add_cell(o, "measured", t, r, c_measured);
        cJSON_AddNullToObject(o, "interval");
        add_cell(o, "paper", t, r, c_paper);
        cJSON_AddNullToObject(o, "rule");
        cJSON_AddNullToObject(o, "margin");
    }
    /* every cell the page shows in the row, by its column, as text: a value
     * that is no number (a FLOP fit "46n + 48", a Table 4.1 "+ / +") is not
     * lost to a null or a 1 / 0 */
    cJSON *cells = cJSON_AddObjectToObject(o, "cells");
    for (int c = 0; c < t->ncols; c++)
        if (!cJSON_GetObjectItemCaseSensitive(cells, t->col[c]))
            cJSON_AddStringToObject(cells, t->col[c], r->cell[c]);
    cJSON_AddStringToObject(o, "status", skb_row_status_name(r->status));
    cJSON_AddStringToObject(o, "cause", r->cause ? r->cause : r->note);
    return o;
}

int skb_report_render_json(const struct skb_report *rep, FILE *f)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", SKB_REPORT_JSON_SCHEMA);
    cJSON *counts = cJSON_AddObjectToObject(root, "counts");
    for (int s = 0; s < SKB_ROW_NSTATUS; s++)
        cJSON_AddNumberToObject(counts, skb_row_status_name(s), rep->count[s]);
    /* the page's banner: a run's GPU is a software renderer (null: none is) */
    if (rep->software_gpu[0])
        cJSON_AddStringToObject(root, "software_renderer", rep->software_gpu);
    else
        cJSON_AddNullToObject(root, "software_renderer");
    /* the page's gate line: this run's compare.json verdict (null: none here) */
    if (rep->verdict[0])
        cJSON_AddStringToObject(root, "verdict", rep->verdict);
    else
        cJSON_AddNullToObject(root, "verdict");
    cJSON *heads = cJSON_AddArrayToObject(root, "headline");
    for (int i = 0; i < rep->nheadline; i++) {
        const struct skb_headline *h = &rep->headline[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "claim", h->claim);
        cJSON_AddStringToObject(o, "section", h->table);
        cJSON_AddStringToObject(o, "measured", h->measured);
        cJSON_AddStringToObject(o, "paper", h->paper);
        cJSON_AddStringToObject(o, "status", skb_headline_status_name(h->status));
        cJSON_AddStringToObject(o, "rows", h->rows);
        cJSON_AddItemToArray(heads, o);
    }
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (int ti = 0; ti < rep->ntables; ti++) {
        const struct skb_rtable *t = &rep->tables[ti];
        if (t->unjudged)
            continue;   /* descriptive tables (runs, coverage, bibliography): no verdicts */
        for (int i = 0; i < t->nrows; i++)
            cJSON_AddItemToArray(rows, row_json(t, &t->rows[i], i));
    }
    char *txt = cJSON_Print(root);
    cJSON_Delete(root);
    if (!txt)
        return SKB_ENOMEM;
    fputs(txt, f);
    fputc('\n', f);
    free(txt);
    return ferror(f) ? SKB_EIO : 0;
}
