/* report_runs.c — the "runs" table: machine, compiler, seeds and libraries of every results directory.
 * Part of the report model (report.c); rows judged against reports/reference.json. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

void skb__report_runs(struct skb_report *rep)
{
    static const char *const cols[] = { "item", "value", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "runs", "Runs: machine, compiler, libraries, seed, renderer",
                                   "results JSON metadata (harness/skb_results.c)", NULL, cols);
    if (!t)
        return;
    t->unjudged = 1;
    for (int k = 0; k < rep->nruns; k++) {
        const struct skb_results *r = &rep->runs[k];
        const cJSON *first = NULL;
        char libs[1200] = "", seeds[300] = "", files[1500] = "";
        for (int i = 0; i < skb_rfile_count(); i++) {
            size_t len = strlen(files);
            const char *st = r->doc[i] ? "ok" : r->err[i][0] ? "UNREADABLE" : "not run";
            snprintf(files + len, sizeof files - len, "%s%s: %s", len ? ", " : "", skb_rfile_name(i), st);
            if (!r->doc[i] || strcmp(skb_rfile_name(i), "cpu-gbench.json") == 0)
                continue;
            if (!first)
                first = r->doc[i];
            skb__add_libs(r->doc[i], libs, sizeof libs);
            unsigned long sd;
            if (skb_json_get_seed(skb__jget(r->doc[i], "seed"), &sd) == 0) {
                char item[64];
                snprintf(item, sizeof item, "%lu", sd);
                if (!strstr(seeds, item)) {
                    size_t sl = strlen(seeds);
                    snprintf(seeds + sl, sizeof seeds - sl, "%s%s", sl ? ", " : "", item);
                }
            }
        }
        const cJSON *m = skb__jget(first, "machine");
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("results directory"), strdup(r->dir), NULL);
        /* an interrupted run (Ctrl-C, a crash) writes no manifest: its page says so, at the top of its context */
        char why[1200];
        int whole = skb_manifest_complete(r, why, sizeof why);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, whole ? NULL : strdup("numbers below are the files it left: partial"),
                     strdup("run finished"), whole ? strdup("yes: its manifest.json lists every file, complete")
                     : skb__fmt("NO: %s", why), NULL);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("machine key"), strdup(r->machine_key), NULL);
        if (m) {
            const char *keys[] = { "hostname", "cpu", "cores", "memory", "kernel", "arch", NULL };
            for (int i = 0; keys[i]; i++) {
                const cJSON *v = skb__jget(m, keys[i]);
                double d;
                if (skb__jstr(v))
                    skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, skb__fmt("machine %s", keys[i]), strdup(v->valuestring), NULL);
                else if (skb__jnum(v, &d) == 0)
                    skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, skb__fmt("machine %s", keys[i]), skb__fmt("%g", d), NULL);
            }
        }
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("compiler"),
                strdup(skb__jstr(skb__jget(first, "compiler")) ? skb__jget(first, "compiler")->valuestring : "unknown"), NULL);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("libraries"), strdup(libs[0] ? libs : "unknown"), NULL);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("seed"), strdup(seeds[0] ? seeds : "unknown"), NULL);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("quick mode"),
                strdup(cJSON_IsTrue(skb__jget(first, "quick")) ? "yes (numbers from --quick: small samples)" : "no"), NULL);
        const cJSON *g = skb_results_doc(r, "gpu.json");
        if (g) {
            const char *sk = skb__jstr(skb__jget(g, "skipped"));
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("renderer"),
                    skb__fmt("%s, %s%s%s%s", skb__jstr(skb__jget(g, "renderer")) ? skb__jget(g, "renderer")->valuestring : "unknown",
                      skb__jstr(skb__jget(g, "version")) ? skb__jget(g, "version")->valuestring : "?",
                      cJSON_IsTrue(skb__jget(g, "software_renderer")) ? " (software renderer: GPU numbers are CPU-emulated)" : "",
                      sk ? "; skipped: " : "", sk ? sk : ""), NULL);
        } else {
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("renderer"), strdup("gpu not run"), NULL);
        }
        const cJSON *ctx = skb__jget(skb_results_doc(r, "cpu-gbench.json"), "context");
        if (ctx && skb__jstr(skb__jget(ctx, "library_build_type")))
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("Google Benchmark library build"),
                    strdup(skb__jget(ctx, "library_build_type")->valuestring), NULL);
        if (skb__jstr(skb__jget(first, "started_utc")))
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("started (UTC)"), strdup(skb__jget(first, "started_utc")->valuestring), NULL);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT, NULL, strdup("results files"), strdup(files), NULL);
        if (r->nunknown) {
            char unk[1200] = "";
            for (int i = 0; i < r->nunknown && i < SKB_MAX_UNKNOWN; i++) {
                size_t len = strlen(unk);
                snprintf(unk + len, sizeof unk - len, "%s%s", len ? ", " : "", r->unknown[i]);
            }
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, skb__fmt("%d file(s) no registered experiment writes (skinbench "
                         "list experiments): not reported", r->nunknown), strdup("unknown results files"), strdup(unk), NULL);
        }
    }
}

/* ---- Table 4.1 verdicts ---- */
