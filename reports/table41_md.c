/* table41_md.c — table-4.1.md beside a run's results: the report's Table
 * 4.1 and FLOP tables, rendered by the report's renderer (one
 * renderer per table; `run properties` / `run flops` only write JSON). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_report.h"

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
