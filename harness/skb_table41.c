/* skb_table41.c — writes table-4.1.md from this run's properties.json and
 * flops.json, with the thesis values from reports/reference.json beside them
 * (see skb_table41.h).  No paper number lives in this file. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_reference.h"
#include "skb_table41.h"

static const char *const rows[] = {
    "rigidity", "bi_invariance", "coordinate_invariance", "multi", "constant_speed", "shortest_path"
};
static const char *const row_titles[] = {
    "Preserving rigidity", "Bi-invariance", "Coord.-invariance", "n > 2", "Constant speed", "Shortest path"
};
#define NROWS 6

static cJSON *try_read(const char *path)
{
    cJSON *j = NULL;
    char msg[256];
    if (access(path, R_OK) != 0 || skb_json_read_file(path, &j, msg, sizeof msg) < 0)
        return NULL;
    return j;
}

cJSON *skb_table41_reference(const struct skb_run_ctx *ctx)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s", ctx->exe_path ? ctx->exe_path : "");
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        dir[0] = 0;
    if (skb_reference_find(dir, path, sizeof path) < 0)
        return NULL;
    return try_read(path);
}

static const char *str_at(const cJSON *o, const char *a, const char *b, const char *c)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    if (c)
        x = cJSON_GetObjectItemCaseSensitive(x, c);
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

static int num_at(const cJSON *o, const char *a, const char *b, const char *c, double *out)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    if (c)
        x = cJSON_GetObjectItemCaseSensitive(x, c);
    return x ? skb_json_get_number(x, out) : -1;
}

static void fmt_fit(char *buf, size_t len, double a, double b)
{
    if (a == 0)
        snprintf(buf, len, "%.1f", b);
    else
        snprintf(buf, len, "%.1fn %s %.1f", a, b < 0 ? "-" : "+", b < 0 ? -b : b);
}

/* text for a cell: "+" or "**-** (paper +)" */
static const char *minus_sign(const char *v)
{
    return strcmp(v, "-") == 0 ? "\xe2\x88\x92" : v;   /* typographic minus */
}

/* appends one line to the caller's buffer; a full buffer ends in a pointer to
 * the table, which always has every mismatch */
static void note_add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_add(char *buf, size_t cap, const char *fmt, ...)
{
    static const char more[] = "... more in table-4.1.md\n";
    size_t pos = strlen(buf);
    if (cap < sizeof more || pos + sizeof more > cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + pos, cap - pos - sizeof more, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap - pos - sizeof more)
        memcpy(buf + pos, more, sizeof more);
}
/* measured a n + b at most the thesis's pa n + pb at every n = 1..8 (the
 * same rule as the report's "fewer than paper") */
static int at_most_paper(double a, double b, double pa, double pb)
{
    for (int n = 1; n <= 8; n++)
        if (a * n + b > pa * n + pb + 0.5)
            return 0;
    return 1;
}


int skb_table41_write(const struct skb_run_ctx *ctx, int loud, char *lines, size_t lineslen,
                      char *msg, size_t msglen)
{
    if (lines && lineslen)
        lines[0] = 0;
    else
        loud = 0;
    char path[PATH_MAX], cell[256];
    snprintf(path, sizeof path, "%s/properties.json", ctx->out_dir);
    cJSON *props = try_read(path);
    snprintf(path, sizeof path, "%s/flops.json", ctx->out_dir);
    cJSON *flops = try_read(path);
    cJSON *ref = skb_table41_reference(ctx);
    const cJSON *pv = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ref, "table_4_1"), "verdicts");
    const cJSON *pf = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ref, "flops"), "formulas");
    size_t cap = 1 << 16, pos = 0;
    char *md = malloc(cap);
    if (!md) {
        snprintf(msg, msglen, "table-4.1.md: out of memory");
        return SKB_ENOMEM;
    }
#define OUT(...) do { if (pos < cap) pos += (size_t)snprintf(md + pos, cap - pos, __VA_ARGS__); } while (0)
    OUT("# Thesis Table 4.1, measured\n\n");
    OUT("Written by `skinbench run properties` / `skinbench run flops` from `properties.json` and `flops.json` "
        "in this directory (seed %lu%s). Each verdict is measured on seeded random inputs; a \xe2\x88\x92 has a "
        "counterexample in `counterexamples/` that `skinbench blend --method M --input FILE` replays. ",
        ctx->seed, ctx->quick ? ", quick mode" : "");
    if (ref)
        OUT("Paper values (thesis Table 4.1) come from `reports/reference.json`; a cell that differs shows "
            "**measured** (paper) and is listed under *Mismatches*.\n\n");
    else
        OUT("`reports/reference.json` was not found, so no paper column is shown.\n\n");
    OUT("| |");
    for (int i = 0; skb_methods[i]; i++)
        if (skb_methods[i]->flags & SKB_MF_TABLE41)
            OUT(" %s |", skb_methods[i]->title);
    OUT("\n|---|");
    for (int i = 0; skb_methods[i]; i++)
        if (skb_methods[i]->flags & SKB_MF_TABLE41)
            OUT("---|");
    OUT("\n");
    int mismatches = 0, unmeasured = 0;
    for (int r = 0; r < NROWS; r++) {
        OUT("| %s |", row_titles[r]);
        for (int i = 0; skb_methods[i]; i++) {
            const struct skb_method *m = skb_methods[i];
            if (!(m->flags & SKB_MF_TABLE41))
                continue;
            const char *v = str_at(props, "verdicts", m->name, rows[r]);
            const char *p = pv ? str_at(pv, m->name, rows[r], NULL) : NULL;
            unmeasured += !v;
            if (!v)
                snprintf(cell, sizeof cell, "not measured%s%s%s", p ? " (paper " : "", p ? minus_sign(p) : "", p ? ")" : "");
            else if (p && strcmp(v, p) != 0) {
                snprintf(cell, sizeof cell, "**%s** (paper %s) \xe2\x9a\xa0", minus_sign(v), minus_sign(p));
                mismatches++;
            } else
                snprintf(cell, sizeof cell, "%s", minus_sign(v));
            OUT(" %s |", cell);
        }
        OUT("\n");
    }
    int notes = 0;
    OUT("| FLOPs (fit a\xc2\xb7n + b) |");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        double a, b, pa, pb;
        if (!(m->flags & SKB_MF_TABLE41))
            continue;
        const char *ptext = pf ? str_at(pf, m->name, "text", NULL) : NULL;
        if (num_at(flops, "fits", m->name, "a", &a) == 0 && num_at(flops, "fits", m->name, "b", &b) == 0) {
            fmt_fit(cell, sizeof cell, a, b);
            OUT(" %s", cell);
            if (str_at(flops, "methods", m->name, "note"))
                OUT(" (note %d)", ++notes);
            if (ptext) {
                int differs = num_at(pf, m->name, "a", NULL, &pa) == 0 && num_at(pf, m->name, "b", NULL, &pb) == 0
                              && (a - pa > 0.5 || pa - a > 0.5 || b - pb > 0.5 || pb - b > 0.5);
                /* fewer at every n is a result, not a difference (the report's
                 * "fewer than paper", reports/report_flops.c): no warning */
                int fewer = differs && at_most_paper(a, b, pa, pb);
                /* compared at n = 4, the usual number of influences per vertex */
                const char *side = fewer ? " fewer at every n = 1..8"
                                 : differs ? (4 * a + b > 4 * pa + pb ? " higher at n = 4" : " lower at n = 4") : "";
                OUT(" (paper %s)%s%s", ptext, differs && !fewer ? " \xe2\x9a\xa0" : "", side);
                if (differs && !fewer && (loud & SKB_TABLE41_LOUD_FLOPS))
                    note_add(lines, lineslen, "FLOPs differ from the thesis: %s measured %s, paper %s,%s "
                            "(see flops.json for the per-operation counts)\n", m->name, cell, ptext, side);
            }
            OUT(" |");
        } else {
            OUT(" not measured%s%s%s |", ptext ? " (paper " : "", ptext ? ptext : "", ptext ? ")" : "");
        }
    }
    OUT("\n\n");
    for (int i = 0, k = 0; skb_methods[i] && notes; i++) {
        const char *note = str_at(flops, "methods", skb_methods[i]->name, "note");
        if ((skb_methods[i]->flags & SKB_MF_TABLE41) && note) {
            k++;
            OUT("%sNote %d (%s FLOPs): %s.\n", k == 1 ? "" : "\n", k, skb_methods[i]->title, note);
        }
    }
    if (notes)
        OUT("\n");
    const char *conv = str_at(flops, "convention", NULL, NULL);
    if (conv)
        OUT("FLOP convention: %s\n\n", conv);
    if (props && pv) {
        OUT("## Mismatches with the thesis verdicts\n\n");
        if (!mismatches && !unmeasured)
            OUT("None: the measured verdict matrix equals thesis Table 4.1.\n\n");
        else if (!mismatches)
            OUT("None among the measured cells (%d cells not measured in this run).\n\n", unmeasured);
        for (int i = 0; skb_methods[i]; i++) {
            const struct skb_method *m = skb_methods[i];
            for (int r = 0; r < NROWS && (m->flags & SKB_MF_TABLE41); r++) {
                const char *v = str_at(props, "verdicts", m->name, rows[r]);
                const char *p = str_at(pv, m->name, rows[r], NULL);
                if (!v || !p || strcmp(v, p) == 0)
                    continue;
                const cJSON *d = cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(props, "details"), m->name), rows[r]);
                double worst = 0;
                num_at(d, "worst_error", NULL, NULL, &worst);
                const char *what = str_at(d, "counterexample", "what", NULL);
                const char *file = str_at(d, "counterexample", "replay_file", NULL);
                OUT("- **%s, %s**: measured %s, thesis %s; worst error %.3g over %d samples.",
                    m->title, row_titles[r], minus_sign(v), minus_sign(p), worst,
                    cJSON_GetObjectItemCaseSensitive(d, "samples") ? cJSON_GetObjectItemCaseSensitive(d, "samples")->valueint : 0);
                if (what)
                    OUT(" Counterexample: %s. Replay: `skinbench blend --method %s --input %s`.", what, m->name, file ? file : "?");
                else
                    OUT(" No counterexample is needed for a measured + (the thesis claims \xe2\x88\x92).");
                OUT("\n");
                if (loud & SKB_TABLE41_LOUD_VERDICTS)
                    note_add(lines, lineslen, "MISMATCH %s %s: measured %s, thesis %s (worst error %.3g)%s%s\n",
                            m->name, rows[r], v, p, worst, what ? "; counterexample: " : "", what ? what : "");
            }
        }
        OUT("\n");
    }
    if (props) {
        static const char *const cols[] = { "rigidity", "left_invariance", "right_invariance",
                                            "coordinate_invariance", "constant_speed", "shortest_path" };
        const cJSON *det = cJSON_GetObjectItemCaseSensitive(props, "details"), *mj;
        OUT("## Worst errors measured (verdict, worst error; every method)\n\n"
            "| method | rigidity | left inv. | right inv. | coord. inv. | constant speed | shortest path |\n"
            "|---|---|---|---|---|---|---|\n");
        cJSON_ArrayForEach(mj, det) {
            OUT("| %s |", mj->string);
            for (int k = 0; k < 6; k++) {
                double e = 0;
                const char *v = str_at(mj, cols[k], "verdict", NULL);
                num_at(mj, cols[k], "worst_error", NULL, &e);
                OUT(" %s %.2g |", v ? minus_sign(v) : "?", e);
            }
            OUT("\n");
        }
        OUT("\n");
    }
    if (flops) {
        const cJSON *fits = cJSON_GetObjectItemCaseSensitive(flops, "fits");
        const cJSON *it;
        OUT("## FLOP fits, every method\n\n| method | fit | paper |\n|---|---|---|\n");
        cJSON_ArrayForEach(it, fits) {
            double a, b;
            if (num_at(it, "a", NULL, NULL, &a) < 0 || num_at(it, "b", NULL, NULL, &b) < 0)
                continue;
            fmt_fit(cell, sizeof cell, a, b);
            const char *ptext = pf ? str_at(pf, it->string, "text", NULL) : NULL;
            OUT("| %s | %s | %s |\n", it->string, cell, ptext ? ptext : "");
        }
        OUT("\n");
    }
#undef OUT
    int rc = 0;
    if (pos >= cap) {
        snprintf(msg, msglen, "table-4.1.md: table too large");
        rc = SKB_EINVAL;
    } else {
        snprintf(path, sizeof path, "%s/table-4.1.md", ctx->out_dir);
        rc = skb_write_atomic(path, md, pos, msg, msglen);
    }
    free(md);
    cJSON_Delete(props);
    cJSON_Delete(flops);
    cJSON_Delete(ref);
    return rc;
}
