/* render.c — write the report model as Markdown and as one self-contained
 * HTML page (inline CSS; plots and GPU images embedded as data: URIs; the
 * SVG links are relative and only written when the file exists). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_report.h"
#include "report_internal.h"

static void md_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputs(" |", f);
}

static void md_counts(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "Rows: ");
    for (int s = 0; s < SKB_ROW_NSTATUS; s++)
        fprintf(f, "%s**%d %s**", s ? ", " : "", rep->count[s], skb_row_status_name(s));
    fprintf(f, ".\n\n");
}

int skb_report_render_md(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "# skinbench report\n\n"
               "Every reproduced number beside the paper's (reports/reference.json). Status: "
               "*reproduced* (within the stated rule), *differs* (the note gives the measured difference and, where "
               "the results say, why), *not run*, *context* (paper number from other hardware/models, shown, not "
               "judged), *new* (no paper value), *reproduced (trivial)* (measured and paper ratios both within the "
               "stated band of 1: nothing to reproduce, not counted as reproduced).\n\n");
    md_counts(rep, f);
    if (rep->fuzz[0])
        fprintf(f, "Robustness: %s.\n\n", rep->fuzz);
    for (int i = 0; i < rep->ntables; i++) {
        const struct skb_rtable *t = &rep->tables[i];
        fprintf(f, "## %s\n\n", t->title);
        if (t->source[0])
            fprintf(f, "Source: %s.", t->source);
        if (t->intro)
            fprintf(f, " %s", t->intro);
        fprintf(f, "\n\n|");
        for (int c = 0; c < t->ncols; c++)
            md_cell(f, t->col[c]);
        if (!t->unjudged)
            fputs(" status | note |", f);
        fputs("\n|", f);
        for (int c = 0; c < t->ncols + (t->unjudged ? 0 : 2); c++)
            fputs(" --- |", f);
        fputc('\n', f);
        for (int r = 0; r < t->nrows; r++) {
            fputc('|', f);
            for (int c = 0; c < t->ncols; c++)
                md_cell(f, t->rows[r].cell[c]);
            if (!t->unjudged) {
                md_cell(f, skb_row_status_name(t->rows[r].status));
                md_cell(f, t->rows[r].note);
            }
            fputc('\n', f);
        }
        fputc('\n', f);
    }
    fprintf(f, "## Plots\n\n");
    for (int i = 0; i < rep->nplots; i++) {
        const struct skb_plot_entry *p = &rep->plots[i];
        if (p->ok)
            fprintf(f, "### %s\n\n![%s](plots/%s.png) ([SVG](plots/%s.svg))\n\n", p->title, p->title, p->name, p->name);
        else
            fprintf(f, "### %s\n\nnot run: %s\n\n", p->title, p->why);
    }
    for (int k = 0; k < rep->nruns; k++) {
        char dir[1200];
        snprintf(dir, sizeof dir, "%s/images", rep->runs[k].dir);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        fprintf(f, "## GPU deformation images (%s)\n\n", rep->runs[k].machine_key);
        struct dirent *e;
        while ((e = readdir(d)))
            if (strstr(e->d_name, ".png"))
                fprintf(f, "- %s/%s\n", dir, e->d_name);
        closedir(d);
        fputc('\n', f);
    }
    skb__render_pictures_md(f, rep);
    return ferror(f) ? SKB_EIO : 0;
}

static void html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* the file as a base64 data: URI; 0 if written */
static int data_uri(FILE *f, const char *path, const char *mime)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *buf, msg[300];
    size_t n;
    if (skb_read_file(path, &buf, &n, msg, sizeof msg) < 0)
        return -1;
    fprintf(f, "data:%s;base64,", mime);
    const unsigned char *u = (const unsigned char *)buf;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)u[i] << 16 | (i + 1 < n ? (unsigned)u[i + 1] << 8 : 0) | (i + 2 < n ? u[i + 2] : 0);
        fputc(b64[v >> 18 & 63], f);
        fputc(b64[v >> 12 & 63], f);
        fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? b64[v & 63] : '=', f);
    }
    free(buf);
    return 0;
}

static const char css[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:1.5em;color:#222;max-width:1400px}"
    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;font-size:12px;margin:.5em 0}"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
    "th{background:#eee}td.n{max-width:40em}"
    ".reproduced{background:#d9f2d9}.differs{background:#f8d7d7}.not-run{background:#eee;color:#666}"
    ".context{background:#fff}.new{background:#dde8f7}.fewer{background:#e6f5e0}.trivial{background:#f0f5e8}"
    ".src{color:#555;font-size:12px}.counts span{margin-right:1em;padding:1px 6px}"
    "figure{display:inline-block;margin:.5em}figure img{max-width:640px;border:1px solid #ddd}"
    "figcaption{font-size:12px}";

/* an inline check the browser test reads back from the DOM: every image
 * decoded, no script error */
static const char check_js[] =
    "<script>window.onerror=function(m){document.body.setAttribute('data-js-error',String(m));};"
    "window.addEventListener('load',function(){var im=document.images,ok=0;"
    "for(var i=0;i<im.length;i++)if(im[i].complete&&im[i].naturalWidth>0)ok++;"
    "document.body.setAttribute('data-images',ok+'/'+im.length);});</script>";

static const char *status_class(int st)
{
    static const char *const cls[SKB_ROW_NSTATUS] = { "reproduced", "differs", "not-run", "context", "new",
                                                      "fewer", "trivial" };
    return st >= 0 && st < SKB_ROW_NSTATUS ? cls[st] : "context";
}

int skb_report_render_html(const struct skb_report *rep, const char *plot_dir, FILE *f)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<title>skinbench report</title><style>%s</style></head>\n<body>\n", css);
    fprintf(f, "<h1>skinbench report</h1>\n<p>Every reproduced number beside the paper's (reports/reference.json). "
               "<b>reproduced</b>: within the stated rule; <b>differs</b>: the note gives the measured difference and, "
               "where the results say, why; <b>not run</b>; <b>context</b>: paper number from other hardware or "
               "models, shown, not judged; <b>new</b>: no paper value; <b>reproduced (trivial)</b>: measured and paper "
               "ratios both within the stated band of 1, not counted as reproduced.</p>\n<p class=\"counts\" id=\"counts\">");
    for (int s = 0; s < SKB_ROW_NSTATUS; s++)
        fprintf(f, "<span class=\"%s\">%d %s</span>", status_class(s), rep->count[s], skb_row_status_name(s));
    fprintf(f, "</p>\n");
    if (rep->fuzz[0]) {
        fprintf(f, "<p id=\"fuzz\">Robustness: ");
        html_esc(f, rep->fuzz);
        fprintf(f, "</p>\n");
    }
    for (int i = 0; i < rep->ntables; i++) {
        const struct skb_rtable *t = &rep->tables[i];
        fprintf(f, "<h2>");
        html_esc(f, t->title);
        fprintf(f, "</h2>\n<p class=\"src\">");
        if (t->source[0]) {
            fprintf(f, "Source: ");
            html_esc(f, t->source);
            fprintf(f, ". ");
        }
        html_esc(f, t->intro);
        fprintf(f, "</p>\n<table id=\"t-%s\"><thead><tr>", t->id);
        for (int c = 0; c < t->ncols; c++) {
            fprintf(f, "<th>");
            html_esc(f, t->col[c]);
            fprintf(f, "</th>");
        }
        if (!t->unjudged)
            fprintf(f, "<th>status</th><th>note</th>");
        fprintf(f, "</tr></thead><tbody>\n");
        for (int r = 0; r < t->nrows; r++) {
            const struct skb_rrow *row = &t->rows[r];
            fprintf(f, "<tr class=\"%s\">", t->unjudged ? "context" : status_class(row->status));
            for (int c = 0; c < t->ncols; c++) {
                fprintf(f, "<td>");
                html_esc(f, row->cell[c]);
                fprintf(f, "</td>");
            }
            if (!t->unjudged) {
                fprintf(f, "<td>%s</td><td class=\"n\">", skb_row_status_name(row->status));
                html_esc(f, row->note);
                fprintf(f, "</td>");
            }
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</tbody></table>\n");
    }
    fprintf(f, "<h2>Plots</h2>\n<div id=\"plots\">\n");
    for (int i = 0; i < rep->nplots; i++) {
        const struct skb_plot_entry *p = &rep->plots[i];
        char png[1400], svg[1400];
        snprintf(png, sizeof png, "%s/%s.png", plot_dir ? plot_dir : ".", p->name);
        snprintf(svg, sizeof svg, "%s/%s.svg", plot_dir ? plot_dir : ".", p->name);
        fprintf(f, "<figure id=\"p-%s\">", p->name);
        if (p->ok && plot_dir && access(png, R_OK) == 0) {
            fprintf(f, "<img alt=\"");
            html_esc(f, p->title);
            fprintf(f, "\" src=\"");
            data_uri(f, png, "image/png");
            fprintf(f, "\">");
        }
        fprintf(f, "<figcaption>");
        html_esc(f, p->title);
        if (!p->ok) {
            fprintf(f, " — <span class=\"not-run\">not run: ");
            html_esc(f, p->why);
            fprintf(f, "</span>");
        } else if (access(svg, R_OK) == 0) {
            fprintf(f, " (<a href=\"plots/%s.svg\">SVG</a>)", p->name);
        }
        fprintf(f, "</figcaption></figure>\n");
    }
    fprintf(f, "</div>\n");
    for (int k = 0; k < rep->nruns; k++) {
        char dir[1200];
        snprintf(dir, sizeof dir, "%s/images", rep->runs[k].dir);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        fprintf(f, "<h2>GPU deformation images (");
        html_esc(f, rep->runs[k].machine_key);
        fprintf(f, ")</h2>\n<div class=\"images\" id=\"images-%d\">\n", k);
        struct dirent *e;
        char *names[256];
        int n = 0;
        while ((e = readdir(d)) && n < 256) {
            size_t l = strlen(e->d_name);
            if (l > 4 && strcmp(e->d_name + l - 4, ".png") == 0)
                names[n++] = strdup(e->d_name);
        }
        closedir(d);
        /* sorted for a stable page */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
                char *tmp = names[j];
                names[j] = names[j - 1];
                names[j - 1] = tmp;
            }
        for (int i = 0; i < n; i++) {
            char path[1500];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            fprintf(f, "<figure><img alt=\"");
            html_esc(f, names[i]);
            fprintf(f, "\" src=\"");
            data_uri(f, path, "image/png");
            fprintf(f, "\"><figcaption>");
            html_esc(f, names[i]);
            fprintf(f, "</figcaption></figure>\n");
            free(names[i]);
        }
        fprintf(f, "</div>\n");
    }
    skb__render_pictures_html(f, rep);
    fprintf(f, "%s\n</body></html>\n", check_js);
    return ferror(f) ? SKB_EIO : 0;
}

/* for the picture grid (render_pictures.c) */
void skb__html_esc(FILE *f, const char *s)
{
    html_esc(f, s);
}

int skb__data_uri(FILE *f, const char *path, const char *mime)
{
    return data_uri(f, path, mime);
}
