/* report_methods.c — every registry method in every per-method table and
 * plot: where a section or plot lacks a method, a row (or a "not plotted"
 * note) says why, from the method's hooks (methods/skb_method.h) — "no f32
 * kernel", "no refit hook: bottom-up only", "no shader" — or from the
 * results ("not in cpu.json").  Nothing here computes a number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_method.h"

/* 1 when gpu.json lists a shader that skins with method m on the CPU side */
static int has_shader(const cJSON *gpu_doc, const struct skb_method *m)
{
    const cJSON *sh;
    cJSON_ArrayForEach(sh, skb__jget(gpu_doc, "shaders")) {
        const char *cm = skb__jstr(skb__jget(sh, "cpu_method"));
        if (cm && strcmp(cm, m->name) == 0)
            return 1;
    }
    return 0;
}

const char *skb_method_absent_reason(const struct skb_method *m, int need, const cJSON *gpu_doc)
{
    switch (need) {
    case SKB_NEED_BLEND:
        return m->blend ? NULL : "no blend form: skin only";
    case SKB_NEED_SKIN:
        return m->skin ? NULL : "no skin path: blend only";
    case SKB_NEED_F32:
        return m->f32 ? NULL : m->skin ? "no f32 kernel" : "no skin path: blend only";
    case SKB_NEED_SHADER:
        return !gpu_doc || has_shader(gpu_doc, m) ? NULL : "no shader";
    case SKB_NEED_REFIT:
        return m->refit ? NULL : m->skin ? "no refit hook: bottom-up only" : "no skin path: blend only";
    default:
        return NULL;
    }
}

/* the names a table may list method m under: its registry name (spheres/cd
 * results key its refit by it too) and the shaders gpu.json runs it with */
static int row_names_method(const struct skb_rrow *row, int ncols, const struct skb_method *m, const cJSON *gpu_doc)
{
    const char *key = m->name;
    size_t kn = strlen(key);
    for (int c = 0; c < ncols; c++) {
        const char *cell = row->cell[c];
        size_t n = strlen(cell);
        /* the whole cell, or "<quantity>: <key>" (the sphere-tree rows) */
        if (strcmp(cell, key) == 0 || (n >= kn + 2 && cell[n - kn - 2] == ':' && cell[n - kn - 1] == ' '
                                       && strcmp(cell + n - kn, key) == 0))
            return 1;
        const cJSON *sh;
        cJSON_ArrayForEach(sh, skb__jget(gpu_doc, "shaders")) {
            const char *cm = skb__jstr(skb__jget(sh, "cpu_method")), *nm = skb__jstr(skb__jget(sh, "name"));
            if (cm && nm && strcmp(cm, m->name) == 0 && strcmp(cell, nm) == 0)
                return 1;
        }
    }
    return 0;
}

/* the column a method's name goes in: "method", "shader" or "refit"; in a
 * table of quantities (the sphere tree's) the row is "method: NAME" */
static int method_column(const struct skb_rtable *t)
{
    static const char *const names[] = { "method", "shader", "refit", "quantity", NULL };
    for (int c = 0; c < t->ncols; c++)
        for (int i = 0; names[i]; i++)
            if (strcmp(t->col[c], names[i]) == 0)
                return c;
    return -1;
}

static char *absent_note(const struct skb_results *r, const struct skb_experiment_desc *d,
                         const struct skb_report_section *sec, const struct skb_method *m, const cJSON *gpu_doc)
{
    const char *why = skb_method_absent_reason(m, sec->need, gpu_doc);
    if (why)
        return skb__fmt("%s: %s", m->name, why);
    int fi = skb_experiment_file_index(d, 0);
    if (fi >= 0 && !r->doc[fi])
        return skb__missing_note(r, skb_rfile_name(fi));
    if (sec->elsewhere)
        return skb__fmt("%s: %s", m->name, sec->elsewhere);
    return skb__fmt("%s has the hooks this table needs, but %s holds no result for it (not selected with --methods, "
                    "or its run failed)", m->name, skb_rfile_name(fi));
}

void skb__absent_method_rows(struct skb_report *rep, struct skb_rtable *t, const struct skb_experiment_desc *d,
                             const struct skb_report_section *sec)
{
    int mc = t ? method_column(t) : -1;
    if (!t || sec->need == SKB_NEED_NONE || mc < 0)
        return;
    int off = rep->nruns > 1;   /* the machine column */
    for (int k = 0; k < rep->nruns; k++) {
        const struct skb_results *r = &rep->runs[k];
        const cJSON *gpu = skb_results_doc(r, "gpu.json");
        int nrows = t->nrows;   /* the rows the section built, not those added here */
        for (int i = 0; skb_methods[i]; i++) {
            const struct skb_method *m = skb_methods[i];
            int seen = 0;
            for (int j = 0; j < nrows && !seen; j++)
                seen = (!off || strcmp(t->rows[j].cell[0], r->machine_key) == 0)
                       && row_names_method(&t->rows[j], t->ncols, m, gpu);
            if (seen)
                continue;
            char *cells[SKB_RMAXCOLS] = { 0 }, *note = absent_note(r, d, sec, m, gpu);
            for (int c = off; c < t->ncols; c++)
                cells[c - off] = c != mc ? strdup(c == off ? "—" : "")
                                 : strcmp(t->col[mc], "quantity") == 0 ? skb__fmt("method: %s", m->name) : strdup(m->name);
            /* a descriptive table shows no note column: the reason goes in the next cell */
            if (t->unjudged && mc + 1 < t->ncols) {
                free(cells[mc + 1 - off]);
                cells[mc + 1 - off] = strdup(note);
            }
            int fi = skb_experiment_file_index(d, 0);
            int na = skb_method_absent_reason(m, sec->need, gpu) || (sec->elsewhere && fi >= 0 && r->doc[fi]);
            skb__row_add(rep, t, k, na ? SKB_ROW_NA : SKB_ROW_NOT_RUN, note, cells[0], cells[1], cells[2],
                         cells[3], cells[4], cells[5], cells[6], cells[7], cells[8], cells[9], cells[10], cells[11],
                         cells[12], cells[13]);
        }
    }
}

/* 1 when plot script dir/name.gp draws a series titled key */
static int plot_has_series(const char *dir, const char *name, const char *key)
{
    char rel[200], want[200], *text;
    size_t len;
    snprintf(rel, sizeof rel, "%s.gp", name);
    /* the title as plots.c quotes it for gnuplot: a quote doubled */
    size_t n = (size_t)snprintf(want, sizeof want, "title '");
    for (const char *c = key; *c && n + 4 < sizeof want; c++) {
        if (*c == '\'')
            want[n++] = '\'';
        want[n++] = *c;
    }
    snprintf(want + n, sizeof want - n, "'");
    /* the script the report wrote into plots/, never another file through a link */
    if (skb_read_below(dir, rel, 0, &text, &len, NULL, 0) < 0)
        return 0;
    int found = strstr(text, want) != NULL;
    free(text);
    return found;
}

/* 1 when the plot draws a series of method m under its registry name,
 * named as the plots name it or plain */
static int plot_has_method(const char *dir, const char *name, const struct skb_method *m, const cJSON *gpu)
{
    char hn[160];
    const cJSON *shaders = skb__jget(gpu, "shaders");
    return plot_has_series(dir, name, skb__plot_series_name(m->name, shaders, hn, sizeof hn))
           || plot_has_series(dir, name, m->name);
}

void skb__plot_method_notes(struct skb_report *rep, int first, int need, const char *dir, const struct skb_results *r)
{
    if (need == SKB_NEED_NONE)
        return;
    for (int p = first; p < rep->nplots; p++) {
        struct skb_plot_entry *e = &rep->plots[p];
        if (!e->ok)
            continue;
        size_t n = 0;
        for (int i = 0; skb_methods[i]; i++) {
            const struct skb_method *m = skb_methods[i];
            if (plot_has_method(dir, e->name, m, skb_results_doc(r, "gpu.json")))
                continue;
            const char *why = skb_method_absent_reason(m, need, skb_results_doc(r, "gpu.json"));
            if (!why && need == SKB_NEED_SHADER) {
                const cJSON *sh;
                cJSON_ArrayForEach(sh, skb__jget(skb_results_doc(r, "gpu.json"), "shaders")) {
                    const char *cm = skb__jstr(skb__jget(sh, "cpu_method")), *nm = skb__jstr(skb__jget(sh, "name"));
                    if (cm && nm && strcmp(cm, m->name) == 0 && plot_has_series(dir, e->name, nm))
                        why = "";
                }
                if (why)
                    continue;
            }
            if (n < sizeof e->note)
                n += (size_t)snprintf(e->note + n, sizeof e->note - n, "%s%s (%s)", n ? ", " : "", m->name,
                                      why ? why : "no result in the plotted file");
        }
    }
}
