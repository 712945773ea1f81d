/* render.c — write the report model as Markdown and as one self-contained
 * HTML page (inline CSS; plots and GPU images embedded as data: URIs; the
 * SVG links are relative and only written when the file exists). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_report.h"
#include "report_internal.h"

static void md_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    skb__md_put(f, s, 1);
    fputs(" |", f);
}

/* a cell linking to one of the page's own sections: the text escaped, the
 * link the renderer's (href is "#s-..." it built) */
static void md_link_cell(FILE *f, const char *s, const char *href)
{
    fputs(" [", f);
    skb__md_put(f, s, 1);
    fprintf(f, "](%s) |", href);
}

static void md_counts(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "Rows: ");
    for (int s = 0; s < SKB_ROW_NSTATUS; s++)
        fprintf(f, "%s**%d %s**", s ? ", " : "", rep->count[s], skb_row_status_name(s));
    fprintf(f, ".\n\n");
}

/* the warning above everything when a run came from --quick */
static const char quick_text[] =
    "of the runs behind this report came from `--quick` (small samples, short timings): verdicts may differ from a "
    "full run; run without --quick before citing one.";

/* the banner above everything when a run's GPU is a software renderer */
static const char software_gpu_text[] =
    "is a software renderer (Mesa on the CPU): every GPU number here is context, not a GPU timing.";

/* how the headline's claims and the row counts relate (the page shows both) */
static const char counts_text[] =
    "These count every row of every section, judged or not; each headline claim above sums up the judged rows of "
    "its section (its \"rows\" column), so one claim stands for many rows.";

/* 1 when the run has an images/ directory, a real one (not a link) */
static int has_images(const struct skb_results *r)
{
    struct stat st;
    return skb_stat_below(r->dir, "images", &st) == 0 && S_ISDIR(st.st_mode);
}

/* the first run with GPU images (images/) or the picture grid
 * (gpu.json "method_pictures"), -1 when none has them */
static int run_with(const struct skb_report *rep, int pictures)
{
    for (int k = 0; k < rep->nruns; k++) {
        if (pictures ? skb__jget(skb_results_doc(&rep->runs[k], "gpu.json"), "method_pictures") != NULL
                     : has_images(&rep->runs[k]))
            return k;
    }
    return -1;
}

/* the anchor of a section the page has — a table, the plots, a run's
 * images or picture grid — into buf; 0 when the page has no such section */
static int section_href(const struct skb_report *rep, const char *id, char *buf, size_t n)
{
    int k;
    if (!id || !*id)
        return 0;
    if (skb_report_table(rep, id) || strcmp(id, "plots") == 0)
        snprintf(buf, n, "#s-%s", id);
    else if (strcmp(id, "images") == 0 && (k = run_with(rep, 0)) >= 0)
        snprintf(buf, n, k ? "#s-images-%d" : "#s-images", k);
    else if (strcmp(id, "pictures") == 0 && (k = run_with(rep, 1)) >= 0)
        snprintf(buf, n, "#pictures-%d", k);
    else
        return 0;
    return 1;
}

static void md_headline(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "<a id=\"s-headline\"></a>\n## Headline claims of the papers\n\n"
               "Each row sums up the judged rows of its section (follow the link); nothing is judged here again.\n\n");
    char overall[600];
    skb_headline_overall(rep, overall, sizeof overall);
    fprintf(f, "**%s.**\n\n"
               "| claim | source | measured | paper | status | rows |\n| --- | --- | --- | --- | --- | --- |\n", overall);
    for (int i = 0; i < rep->nheadline; i++) {
        const struct skb_headline *h = &rep->headline[i];
        char href[128];
        fputc('|', f);
        if (section_href(rep, h->table, href, sizeof href))
            md_link_cell(f, h->claim, href);
        else
            md_cell(f, h->claim);
        md_cell(f, h->source);
        md_cell(f, h->measured);
        md_cell(f, h->paper);
        md_cell(f, skb_headline_status_name(h->status));
        md_cell(f, h->rows);
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void md_toc(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "Contents: [headline claims](#s-headline)");
    for (int i = 0; i < rep->ntables; i++) {
        fprintf(f, " · [");
        skb__md_esc(f, rep->tables[i].title);
        fprintf(f, "](#s-%s)", rep->tables[i].id);
    }
    fprintf(f, " · [plots](#s-plots)");
    for (int k = 0; k < rep->nruns; k++)
        if (skb__jget(skb_results_doc(&rep->runs[k], "gpu.json"), "method_pictures"))
            fprintf(f, " · [every method, the same poses%s](#pictures-%d)", k ? " (another run)" : "", k);
    fprintf(f, "\n\n");
}

static const char css[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:1em 1.5em;color:#222;max-width:1400px}"
    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;font-size:12px;margin:.5em 0}"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
    "th{background:#eee}td.n{max-width:40em}"
    ".reproduced{background:#d9f2d9}.differs{background:#f8d7d7}.not-run{background:#eee;color:#666}"
    ".context{background:#fff}.new{background:#dde8f7}.fewer{background:#e6f5e0}.trivial{background:#f0f5e8}"
    ".inconclusive{background:#fdf0dc}.setup{background:#f6e4ec}"
    ".src{color:#555;font-size:12px}.counts span{margin-right:1em;padding:1px 6px}"
    "figure{display:inline-block;margin:.5em}figure img{max-width:640px;border:1px solid #ddd}"
    "figcaption{font-size:12px}"
    ".mixed{background:#fff3cd}.warn{background:#fff3cd;border:1px solid #d9b44a;padding:2px 8px;margin:.2em 0}"
    "#t-headline{width:100%}#t-headline td,#t-headline th{font-size:12px;padding:1px 5px;line-height:1.2}"
    "#t-headline a{color:#0645ad}.warn{font-size:13px}"
    "#s-headline{margin-top:.5em}#headline-overall{margin:.3em 0}#t-headline{table-layout:fixed}#t-headline th:nth-child(1){width:21%}"
    "#t-headline th:nth-child(2){width:10%}#t-headline th:nth-child(3){width:27%}#t-headline th:nth-child(4){width:11%}"
    "#t-headline th:nth-child(5){width:6%}#t-headline th:nth-child(6){width:25%}"
    "#t-headline details{margin:0;display:inline}#t-headline summary{display:inline;color:#555;cursor:pointer}"
    "#toc ol{columns:3;font-size:12px;margin:.2em 0}#toc h2{margin-top:.8em}h1{margin:0 0 .2em 0;font-size:1.4em}"
    "body>p.src:first-of-type{margin:.2em 0}table.grid td{text-align:right}table.grid th{white-space:nowrap}"
    "details{margin:.3em 0 1em 0;font-size:12px}"
    "details.fold{display:inline;margin:0}details.fold summary{display:inline;color:#555;cursor:pointer}"
    "details.fold[open] summary{display:block}"
    /* a table wider than the window scrolls inside its own box: the page never scrolls sideways */
    "table:not(#t-headline){display:block;overflow-x:auto;max-width:100%}img{max-width:100%;height:auto}"
    /* the GPU images as a grid of thumbnails; a click shows one at full size */
    ".images figure{width:220px;vertical-align:top}.images figure img{width:100%;cursor:zoom-in}"
    ".images figure.big{width:auto;display:block}.images figure.big img{width:auto;max-width:100%;cursor:zoom-out}";

const char *skb__report_css(void)
{
    return css;
}

/* an inline check the browser test reads back from the DOM: every image
 * decoded, no script error, and where the headline table ends against the
 * window's height (the first screen must hold it) */
static const char check_js[] =
    "<script>window.onerror=function(m){document.body.setAttribute('data-js-error',String(m));};"
    "window.addEventListener('load',function(){var im=document.images,ok=0;"
    "for(var i=0;i<im.length;i++)if(im[i].complete&&im[i].naturalWidth>0)ok++;"
    "document.body.setAttribute('data-images',ok+'/'+im.length);"
    "document.body.setAttribute('data-width',document.documentElement.scrollWidth+'/'+window.innerWidth);"
    "var th=document.querySelectorAll('.images img');for(var j=0;j<th.length;j++)"
    "th[j].onclick=function(){this.parentNode.classList.toggle('big');};"
    "var mw=0;for(var j=0;j<th.length;j++)mw=Math.max(mw,th[j].getBoundingClientRect().width);"
    "document.body.setAttribute('data-thumbs',th.length+'/'+Math.ceil(mw));"
    /* the tallest cell (one in a closed disclosure measures 0) and the tables whose content is
       wider than their box (cut off at the right, read with every disclosure open: #open-all) */
    "if(location.hash=='#open-all'){var ds=document.querySelectorAll('details:not(.fold)');"
    "for(var j=0;j<ds.length;j++)ds[j].open=true;}"
    "var tc=document.querySelectorAll('td,th'),mh=0,mt='';for(var j=0;j<tc.length;j++){"
    "var b=tc[j].getBoundingClientRect().height;if(b>mh){mh=b;var tb=tc[j].closest('table');mt=tb&&tb.id?tb.id:'?';}}"
    "document.body.setAttribute('data-tallest',Math.ceil(mh)+'/'+window.innerHeight+'/'+mt);"
    "var ts=document.querySelectorAll('table'),cl=0,ct='';for(var j=0;j<ts.length;j++)"
    "if(ts[j].scrollWidth>ts[j].clientWidth+1){cl++;if(!ct)ct=ts[j].id||'?';}"
    "document.body.setAttribute('data-clipped',cl+'/'+ct);"
    "var h=document.getElementById('t-headline');if(h){var r=h.getBoundingClientRect();"
    "document.body.setAttribute('data-headline',Math.ceil(r.top)+'-'+Math.ceil(r.bottom)+'/'+window.innerHeight"
    "+'/'+h.tBodies[0].rows.length);}});</script>";

/* a mark after a grid value says its row's status in words' stead, on the
 * page and in Markdown: never colour alone */
static const char *status_mark(int st)
{
    switch (st) {
    case SKB_ROW_REPRODUCED: return " ✓";
    case SKB_ROW_DIFFERS: return " ✗";
    case SKB_ROW_TRIVIAL: return " ≈";
    case SKB_ROW_FEWER: return " ↓";
    case SKB_ROW_NOT_RUN: return " –";
    case SKB_ROW_INCONCLUSIVE: return " ?";
    case SKB_ROW_DIFFERS_SETUP: return " ✗s";
    default: return "";
    }
}

static const char *status_class(int st)
{
    static const char *const cls[SKB_ROW_NSTATUS] = { "reproduced", "differs", "not-run", "context", "new",
                                                      "fewer", "trivial", "not-run", "inconclusive", "setup" };
    if (st == SKB_HEAD_MIXED)
        return "mixed";
    if (st == SKB_HEAD_NONE)
        return "not-run";
    return st >= 0 && st < SKB_ROW_NSTATUS ? cls[st] : "context";
}

/* a long text cell shows one line, its first clause (or its first
 * FOLD_WORDS words), and the rest one click away: a table's notes ran to
 * 80-350 words and buried its numbers; report.md and report.json keep every
 * word in place */
#define FOLD_WORDS 24
#define FOLD_MIN_HEAD 6

/* the byte where text's shown line ends, or its length when it is short */
static size_t fold_at(const char *text)
{
    size_t n = strlen(text), clause = 0, cut = 0;
    int words = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] != ' ' || (i && text[i - 1] == ' '))
            continue;
        words++;
        if (!clause && words >= FOLD_MIN_HEAD && i && (text[i - 1] == '.' || text[i - 1] == ';'))
            clause = i;
        if (words == FOLD_WORDS)
            cut = i;
    }
    if (words <= FOLD_WORDS + FOLD_WORDS / 2)
        return n;   /* one click for a few words more is not worth it */
    return clause && clause <= cut ? clause : cut;
}

static void html_folded(FILE *f, const char *text)
{
    size_t n = text ? fold_at(text) : 0, len = text ? strlen(text) : 0;
    skb__html_esc_n(f, text, n);
    if (n >= len)
        return;
    fprintf(f, " <details class=\"fold\"><summary>more …</summary>");
    skb__html_esc(f, text + n + 1);
    fprintf(f, "</details>");
}

static void html_td(FILE *f, const char *cls, const char *text)
{
    fprintf(f, cls ? "<td class=\"%s\">" : "<td>", cls);
    skb__html_esc(f, text);
    fprintf(f, "</td>");
}

/* a headline's measured cell: the value, and what decided a status other
 * than reproduced folded under "decided by" (one click away), so the table
 * stays on the first screen; report.md gives the whole text */
static void html_measured_cell(FILE *f, const char *measured)
{
    static const char sep[] = " — decided by ";
    const char *d = measured ? strstr(measured, sep) : NULL;
    if (!d) {
        html_td(f, NULL, measured);
        return;
    }
    char value[600];
    snprintf(value, sizeof value, "%.*s", (int)(d - measured), measured);
    fprintf(f, "<td>");
    skb__html_esc(f, value);
    fprintf(f, " <details><summary>— decided by …</summary>");
    skb__html_esc(f, d + sizeof sep - 1);
    fprintf(f, "</details></td>");
}

/* a headline's rows cell: the counts, and which rows differ and a timed
 * claim's intervals (how many rows this machine decided) folded under
 * "more …" (one click away, as the measured cell's "decided by"): a
 * section of 119 rows listed its differing ones over four lines */
static void html_rows_cell(FILE *f, const char *rows)
{
    static const char *const seps[] = { "; differs: ", "; paired: " };
    const char *d = NULL;
    for (size_t i = 0; rows && i < sizeof seps / sizeof seps[0]; i++) {
        const char *p = strstr(rows, seps[i]);
        if (p && (!d || p < d))
            d = p;
    }
    if (!d) {
        html_td(f, "n", rows);
        return;
    }
    fprintf(f, "<td class=\"n\">");
    skb__html_esc_n(f, rows, (size_t)(d - rows));
    fprintf(f, " <details><summary>%s …</summary>", strncmp(d, "; paired: ", 10) == 0 ? "paired" : "more");
    skb__html_esc(f, d + 2);
    fprintf(f, "</details></td>");
}

/* the first screen: the papers' headline claims, each linked to its section */
static void html_headline(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "<h2 id=\"s-headline\">Headline claims of the papers <span class=\"src\">— each row sums up the judged "
               "rows of its section (follow the link), nothing is judged again; seed ids as in the "
               "<a href=\"#s-bibliography\">bibliography</a></span></h2>\n");
    char overall[600];
    skb_headline_overall(rep, overall, sizeof overall);
    fprintf(f, "<p id=\"headline-overall\"><b>");
    skb__html_esc(f, overall);
    fprintf(f, ".</b></p>\n<table id=\"t-headline\"><thead><tr><th>claim</th>"
               "<th>source</th><th>measured</th><th>paper</th><th>status</th><th>rows</th></tr></thead><tbody>\n");
    for (int i = 0; i < rep->nheadline; i++) {
        const struct skb_headline *h = &rep->headline[i];
        fprintf(f, "<tr class=\"%s\"><td>", status_class(h->status));
        char href[128];
        int link = section_href(rep, h->table, href, sizeof href);
        if (link)
            fprintf(f, "<a href=\"%s\">", href);
        skb__html_esc(f, h->claim);
        fprintf(f, "%s</td>", link ? "</a>" : "");
        html_td(f, NULL, h->source);
        html_measured_cell(f, h->measured);
        html_td(f, NULL, h->paper);
        html_td(f, NULL, skb_headline_status_name(h->status));
        html_rows_cell(f, h->rows);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

static void html_toc(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "<nav id=\"toc\"><h2 id=\"s-contents\">Contents</h2><ol><li><a href=\"#s-headline\">Headline claims</a></li>");
    for (int i = 0; i < rep->ntables; i++) {
        fprintf(f, "<li><a href=\"#s-%s\">", rep->tables[i].id);
        skb__html_esc(f, rep->tables[i].title);
        fprintf(f, "</a></li>");
    }
    fprintf(f, "<li><a href=\"#s-plots\">Plots</a></li>");
    for (int k = 0; k < rep->nruns; k++) {
        if (has_images(&rep->runs[k]))
            fprintf(f, k ? "<li><a href=\"#s-images-%d\">GPU deformation images (run %d)</a></li>"
                         : "<li><a href=\"#s-images\">GPU deformation images</a></li>", k, k + 1);
        if (skb__jget(skb_results_doc(&rep->runs[k], "gpu.json"), "method_pictures"))
            fprintf(f, "<li><a href=\"#pictures-%d\">Every method, the same poses%s</a></li>", k, k ? " (another run)" : "");
    }
    fprintf(f, "</ol></nav>\n");
}

/* ---- grids: the long dataset × method tables laid out as one row per
 * dataset (and machine) and one column per method; each cell is the
 * measured ratio of one judged row, coloured by that row's status (its
 * note on hover).  Only the layout changes: no row is judged again. ---- */

static const struct { const char *id, *row, *col, *val, *paper; } grid_specs[] = {
    { "fig18", "dataset", "method", "ratio to LBS", "paper ratio" },
    { "fast", "dataset", "method", "ratio to LBS (f32)", "paper ratio" },
    { "gpu", "dataset", "shader", "ratio to LBS", "paper" },
};
#define GRID_MAX 64

struct grid {
    int rowc, colc, valc, paperc, machc;   /* column indexes in the table (machc -1: one run) */
    int nr, nc;
    const char *rkey[GRID_MAX], *rmach[GRID_MAX], *ckey[GRID_MAX];
    int *cell;                             /* nr x nc row indexes of the table, -1: none */
};

static int col_of(const struct skb_rtable *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->col[c], name) == 0)
            return c;
    return -1;
}

/* the index of key (k, m) in keys, added when new; -1 when full */
static int key_index(const char **keys, const char **mach, int *n, const char *k, const char *m)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(keys[i], k) == 0 && (!mach || strcmp(mach[i], m) == 0))
            return i;
    if (*n >= GRID_MAX)
        return -1;
    keys[*n] = k;
    if (mach)
        mach[*n] = m;
    return (*n)++;
}

static void grid_free(struct grid *g)
{
    free(g->cell);
    g->cell = NULL;
}

/* a row the grid leaves out: no dataset ("—", a method that cannot take
 * part: its reason is listed under the grid, not shown as an empty line) */
static int grid_absent(const struct skb_rtable *t, const struct grid *g, int r)
{
    const char *k = t->rows[r].cell[g->rowc];
    return !k || !*k || strcmp(k, "—") == 0;
}

static int grid_place(const struct skb_rtable *t, struct grid *g, int pass)
{
    for (int r = 0; r < t->nrows; r++) {
        const char *const *c = (const char *const *)t->rows[r].cell;
        if (grid_absent(t, g, r))
            continue;
        int ri = key_index(g->rkey, g->rmach, &g->nr, c[g->rowc], g->machc >= 0 ? c[g->machc] : "");
        int ci = key_index(g->ckey, NULL, &g->nc, c[g->colc], NULL);
        if (ri < 0 || ci < 0)
            return -1;
        if (pass == 1 && g->cell[ri * g->nc + ci] >= 0)
            return -1;   /* two rows in one cell: keep the table */
        if (pass == 1)
            g->cell[ri * g->nc + ci] = r;
    }
    return 0;
}

/* 0 and g filled when t is a grid table whose rows each get their own cell */
static int grid_build(const struct skb_report *rep, const struct skb_rtable *t, struct grid *g)
{
    size_t i, n = sizeof grid_specs / sizeof grid_specs[0];
    memset(g, 0, sizeof *g);
    for (i = 0; i < n && strcmp(grid_specs[i].id, t->id) != 0; i++)
        ;
    if (i == n || t->nrows == 0)
        return -1;
    g->rowc = col_of(t, grid_specs[i].row);
    g->colc = col_of(t, grid_specs[i].col);
    g->valc = col_of(t, grid_specs[i].val);
    g->paperc = col_of(t, grid_specs[i].paper);
    g->machc = rep->nruns > 1 ? col_of(t, "machine") : -1;
    if (g->rowc < 0 || g->colc < 0 || g->valc < 0 || g->paperc < 0 || grid_place(t, g, 0) < 0 || g->nr == 0)
        return -1;
    g->cell = malloc((size_t)(g->nr * g->nc) * sizeof *g->cell);
    if (!g->cell)
        return -1;
    for (int k = 0; k < g->nr * g->nc; k++)
        g->cell[k] = -1;
    if (grid_place(t, g, 1) < 0) {
        grid_free(g);
        return -1;
    }
    return 0;
}

/* a column's paper value: the first of its rows that has one */
static const char *grid_paper(const struct skb_rtable *t, const struct grid *g, int c)
{
    for (int r = 0; r < g->nr; r++) {
        int k = g->cell[r * g->nc + c];
        const char *p = k >= 0 ? t->rows[k].cell[g->paperc] : NULL;
        if (p && *p && strcmp(p, "—") != 0)
            return p;
    }
    return "—";
}

/* the grid's orientation: the longer of its two keys runs down the page,
 * so that a grid of 30 kernels over 11 datasets is 11 columns wide and fits
 * a 1400 px window (the other way round it was cut off at the right) */
static int grid_flipped(const struct grid *g)
{
    return g->nc > g->nr;
}

static void html_grid_head(const struct skb_rtable *t, const struct grid *g, FILE *f)
{
    int flip = grid_flipped(g);
    fprintf(f, "<p class=\"src\">Each cell: the measured %s of one row below, coloured and marked by its status (✓ "
               "reproduced, ✗ differs, ✗s differs (setup), ? inconclusive, ≈ reproduced (trivial), ↓ fewer than paper, – not run, no mark: context or new; "
               "hover for the note); the paper's value %s.</p>\n<table class=\"grid\" id=\"g-%s\"><thead><tr>",
            t->col[g->valc], flip ? "beside each row" : "under each column", t->id);
    if (flip) {
        fprintf(f, "<th>%s \\ %s</th><th>paper</th>", t->col[g->colc], t->col[g->rowc]);
        for (int r = 0; r < g->nr; r++) {
            fprintf(f, "<th>");
            skb__html_esc(f, g->rkey[r]);
            if (g->machc >= 0) {
                fprintf(f, "<br><span class=\"src\">");
                skb__html_esc(f, g->rmach[r]);
                fprintf(f, "</span>");
            }
            fprintf(f, "</th>");
        }
        fprintf(f, "</tr></thead><tbody>\n");
        return;
    }
    if (g->machc >= 0)
        fprintf(f, "<th>machine</th>");
    fprintf(f, "<th>%s \\ %s</th>", t->col[g->rowc], t->col[g->colc]);
    for (int c = 0; c < g->nc; c++) {
        fprintf(f, "<th>");
        skb__html_esc(f, g->ckey[c]);
        fprintf(f, "<br><span class=\"src\">paper ");
        skb__html_esc(f, grid_paper(t, g, c));
        fprintf(f, "</span></th>");
    }
    fprintf(f, "</tr></thead><tbody>\n");
}

static void html_grid_cell(const struct skb_rtable *t, const struct grid *g, int k, FILE *f)
{
    if (k < 0) {
        fprintf(f, "<td></td>");
        return;
    }
    const struct skb_rrow *row = &t->rows[k];
    fprintf(f, "<td class=\"%s\" title=\"%s", status_class(row->status), skb_row_status_name(row->status));
    if (row->note && *row->note) {
        fprintf(f, ": ");
        skb__html_esc(f, row->note);
    }
    fprintf(f, "\">");
    skb__html_esc(f, row->cell[g->valc]);
    skb__html_esc(f, status_mark(row->status));
    fprintf(f, "</td>");
}

/* one line of the grid: row r (a dataset) or, flipped, column c (a method) */
static void html_grid_line(const struct skb_rtable *t, const struct grid *g, int i, FILE *f)
{
    fprintf(f, "<tr>");
    if (grid_flipped(g)) {
        fprintf(f, "<th>");
        skb__html_esc(f, g->ckey[i]);
        fprintf(f, "</th><td class=\"src\">");
        skb__html_esc(f, grid_paper(t, g, i));
        fprintf(f, "</td>");
        for (int r = 0; r < g->nr; r++)
            html_grid_cell(t, g, g->cell[r * g->nc + i], f);
    } else {
        if (g->machc >= 0) {
            fprintf(f, "<td>");
            skb__html_esc(f, g->rmach[i]);
            fprintf(f, "</td>");
        }
        fprintf(f, "<th>");
        skb__html_esc(f, g->rkey[i]);
        fprintf(f, "</th>");
        for (int c = 0; c < g->nc; c++)
            html_grid_cell(t, g, g->cell[i * g->nc + c], f);
    }
    fprintf(f, "</tr>\n");
}

/* the rows the grid leaves out (no dataset), each with its status and why */
static void html_grid_absent(const struct skb_rtable *t, const struct grid *g, FILE *f)
{
    int n = 0;
    for (int r = 0; r < t->nrows; r++) {
        if (!grid_absent(t, g, r))
            continue;
        fprintf(f, n++ ? "; " : "<p class=\"src grid-absent\">Not in the grid (no dataset to time): ");
        skb__html_esc(f, t->rows[r].cell[g->colc]);
        fprintf(f, " — %s", skb_row_status_name(t->rows[r].status));
        if (t->rows[r].note && *t->rows[r].note) {
            fprintf(f, ": ");
            skb__html_esc(f, t->rows[r].note);
        }
    }
    if (n)
        fprintf(f, ".</p>\n");
}

static void html_grid(const struct skb_rtable *t, const struct grid *g, FILE *f)
{
    html_grid_head(t, g, f);
    for (int i = 0, n = grid_flipped(g) ? g->nc : g->nr; i < n; i++)
        html_grid_line(t, g, i, f);
    fprintf(f, "</tbody></table>\n");
    html_grid_absent(t, g, f);
}

/* a cell of the image column: the picture (a PNG below its run's
 * directory, the builder wrote RUN/rel) above its path */
static void html_image_cell(const struct skb_report *rep, const struct skb_rrow *row, const char *path, FILE *f)
{
    size_t n = path ? strlen(path) : 0;
    const char *root = row->run >= 0 && row->run < rep->nruns ? rep->runs[row->run].dir : NULL;
    size_t rn = root ? strlen(root) : 0;
    fprintf(f, "<td>");
    if (n > 4 && strcmp(path + n - 4, ".png") == 0 && root && strncmp(path, root, rn) == 0 && path[rn] == '/') {
        skb__img(f, root, path + rn + 1, "max-width:600px", path);
        fprintf(f, "<br>");
    }
    skb__html_esc(f, path);
    fprintf(f, "</td>");
}

/* one table's rows as they are, with status and note */
static void html_rows(const struct skb_report *rep, const struct skb_rtable *t, FILE *f)
{
    fprintf(f, "<table id=\"t-%s\"><thead><tr>", t->id);
    for (int c = 0; c < t->ncols; c++) {
        fprintf(f, "<th>");
        skb__html_esc(f, t->col[c]);
        fprintf(f, "</th>");
    }
    if (!t->unjudged)
        fprintf(f, "<th>status</th><th>note</th>");
    fprintf(f, "</tr></thead><tbody>\n");
    for (int r = 0; r < t->nrows; r++) {
        const struct skb_rrow *row = &t->rows[r];
        fprintf(f, "<tr class=\"%s\">", t->unjudged ? "context" : status_class(row->status));
        for (int c = 0; c < t->ncols; c++) {
            char href[128];
            if (c + 1 == t->image_col) {
                html_image_cell(rep, row, row->cell[c], f);
                continue;
            }
            int link = c + 1 == t->link_col && section_href(rep, row->cell[c], href, sizeof href);
            fprintf(f, link ? "<td><a href=\"%s\">" : "<td>", href);
            if (link)
                skb__html_esc(f, row->cell[c]);
            else
                html_folded(f, row->cell[c]);
            fprintf(f, link ? "</a></td>" : "</td>");
        }
        if (!t->unjudged) {
            fprintf(f, "<td>%s</td><td class=\"n\">", skb_row_status_name(row->status));
            html_folded(f, row->note);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

/* a section: heading, source and rule, then the rows — as a grid (with the
 * rows and their notes folded away below it) for the long dataset × method
 * tables */
static void html_section(const struct skb_report *rep, const struct skb_rtable *t, FILE *f)
{
    fprintf(f, "<h2 id=\"s-%s\">", t->id);
    skb__html_esc(f, t->title);
    fprintf(f, "</h2>\n<p class=\"src\">");
    if (t->source[0]) {
        fprintf(f, "Source: ");
        skb__html_esc(f, t->source);
        fprintf(f, ". ");
    }
    skb__html_esc(f, t->intro);
    fprintf(f, "</p>\n");
    struct grid g;
    if (grid_build(rep, t, &g) == 0) {
        html_grid(t, &g, f);
        fprintf(f, "<details><summary>all %d rows with status and note</summary>\n", t->nrows);
        html_rows(rep, t, f);
        fprintf(f, "</details>\n");
        grid_free(&g);
        return;
    }
    html_rows(rep, t, f);
}

/* the top: title, the --quick warning, the headline claims, the contents,
 * the status legend and counts */
static void html_top(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "<h1>skinbench report</h1>\n");
    if (rep->quick) {
        fprintf(f, "<p class=\"warn\" id=\"quick-warning\"><b>Warning: %d of %d</b> ", rep->quick, rep->nruns);
        skb__html_esc(f, quick_text);
        fprintf(f, "</p>\n");
    }
    if (rep->verdict[0]) {
        fprintf(f, "<p class=\"warn\" id=\"verdict\"><b>The gate on this run (its compare.json):</b> ");
        skb__html_esc(f, rep->verdict);
        fprintf(f, "</p>\n");
    }
    if (rep->software_gpu[0]) {
        fprintf(f, "<p class=\"warn\" id=\"software-gpu\"><b>The GPU here (");
        skb__html_esc(f, rep->software_gpu);
        fprintf(f, ")</b> ");
        skb__html_esc(f, software_gpu_text);
        fprintf(f, "</p>\n");
    }
    html_headline(rep, f);
    html_toc(rep, f);
    fprintf(f, "<p>Every reproduced number beside the paper's (reports/reference.json). "
               "<b>reproduced</b>: within the stated rule; <b>differs</b>: the note gives the measured difference and, "
               "where the results say, why; <b>not run</b>; <b>context</b>: paper number from other hardware or "
               "models, shown, not judged; <b>new</b>: no paper value; <b>reproduced (trivial)</b>: measured and paper "
               "ratios both within the stated band of 1, not counted as reproduced. ");
    skb__html_esc(f, counts_text);
    fprintf(f, "</p>\n<p class=\"counts\" id=\"counts\">");
    for (int s = 0; s < SKB_ROW_NSTATUS; s++)
        fprintf(f, "<span class=\"%s\">%d %s</span>", status_class(s), rep->count[s], skb_row_status_name(s));
    fprintf(f, "</p>\n");
    if (rep->fuzz[0]) {
        fprintf(f, "<p id=\"fuzz\">Robustness: ");
        skb__html_esc(f, rep->fuzz);
        fprintf(f, "</p>\n");
    }
}

static void html_plots(const struct skb_report *rep, const char *out_dir, FILE *f)
{
    fprintf(f, "<h2 id=\"s-plots\">Plots</h2>\n<div id=\"plots\">\n");
    for (int i = 0; i < rep->nplots; i++) {
        const struct skb_plot_entry *p = &rep->plots[i];
        char png[200], svg[200];
        struct stat st;
        snprintf(png, sizeof png, "plots/%s.png", p->name);
        snprintf(svg, sizeof svg, "plots/%s.svg", p->name);
        fprintf(f, "<figure id=\"p-%s\">", p->name);
        if (p->ok && out_dir && skb_stat_below(out_dir, png, &st) == 0)
            skb__img(f, out_dir, png, NULL, p->title);
        fprintf(f, "<figcaption>");
        skb__html_esc(f, p->title);
        if (!p->ok) {
            fprintf(f, " — <span class=\"not-run\">not run: ");
            skb__html_esc(f, p->why);
            fprintf(f, "</span>");
        } else if (out_dir && skb_stat_below(out_dir, svg, &st) == 0 && S_ISREG(st.st_mode)) {
            fprintf(f, " (<a href=\"plots/%s.svg\">SVG</a>)", p->name);
        }
        if (p->ok && p->note[0]) {
            fprintf(f, " — not plotted: ");
            skb__html_esc(f, p->note);
        }
        fprintf(f, "</figcaption></figure>\n");
    }
    fprintf(f, "</div>\n");
}

/* the run's images/ for listing: a real directory below it, never a link */
static DIR *open_images(const struct skb_results *r)
{
    char msg[300];
    int fd = skb_open_below(r->dir, "images", 1, msg, sizeof msg);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d && fd >= 0)
        close(fd);
    return d;
}

/* one run's images/ PNGs, sorted by name */
static void html_images(const struct skb_report *rep, int k, FILE *f)
{
    DIR *d = open_images(&rep->runs[k]);
    if (!d)
        return;
    fprintf(f, k ? "<h2 id=\"s-images-%d\">GPU deformation images (" : "<h2 id=\"s-images\">GPU deformation images (", k);
    skb__html_esc(f, rep->runs[k].machine_key);
    fprintf(f, ")</h2>\n<p class=\"src\">Thumbnails: click one for its full size.</p>\n"
               "<div class=\"images\" id=\"images-%d\">\n", k);
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
        char rel[300];
        snprintf(rel, sizeof rel, "images/%s", names[i]);
        fprintf(f, "<figure>");
        skb__img(f, rep->runs[k].dir, rel, NULL, names[i]);
        fprintf(f, "<figcaption>");
        char cap[300];
        skb__image_caption(skb_results_doc(&rep->runs[k], "gpu.json"), names[i], cap, sizeof cap);
        skb__html_esc(f, cap);
        fprintf(f, "</figcaption></figure>\n");
        free(names[i]);
    }
    fprintf(f, "</div>\n");
}

int skb_report_render_html(const struct skb_report *rep, const char *out_dir, FILE *f)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<title>skinbench report</title><style>%s</style></head>\n<body>\n", css);
    html_top(rep, f);
    for (int i = 0; i < rep->ntables; i++)
        html_section(rep, &rep->tables[i], f);
    html_plots(rep, out_dir, f);
    for (int k = 0; k < rep->nruns; k++)
        html_images(rep, k, f);
    skb__render_pictures_html(f, rep);
    fprintf(f, "%s\n</body></html>\n", check_js);
    return ferror(f) ? SKB_EIO : 0;
}

static void md_grid(const struct skb_rtable *t, const struct grid *g, FILE *f)
{
    char buf[256];
    fprintf(f, "Grid of the rows below: %s per %s and %s (✓ reproduced, ✗ differs, ✗s differs (setup), ? "
               "inconclusive, ≈ reproduced (trivial), ↓ fewer than paper, – not run, no mark: context or new); notes in the rows.\n\n|", t->col[g->valc],
            t->col[g->rowc], t->col[g->colc]);
    if (g->machc >= 0)
        md_cell(f, "machine");
    md_cell(f, t->col[g->rowc]);
    for (int c = 0; c < g->nc; c++) {
        snprintf(buf, sizeof buf, "%s (paper %s)", g->ckey[c], grid_paper(t, g, c));
        md_cell(f, buf);
    }
    fputs("\n|", f);
    for (int c = 0; c < g->nc + 1 + (g->machc >= 0); c++)
        fputs(" --- |", f);
    for (int r = 0; r < g->nr; r++) {
        fputs("\n|", f);
        if (g->machc >= 0)
            md_cell(f, g->rmach[r]);
        md_cell(f, g->rkey[r]);
        for (int c = 0; c < g->nc; c++) {
            int k = g->cell[r * g->nc + c];
            snprintf(buf, sizeof buf, "%s%s", k >= 0 ? t->rows[k].cell[g->valc] : "", k >= 0 ? status_mark(t->rows[k].status) : "");
            md_cell(f, buf);
        }
    }
    fputs("\n\n", f);
}

/* one table's rows in Markdown, a section id given as a link */
static void md_rows(const struct skb_report *rep, const struct skb_rtable *t, FILE *f)
{
    fputc('|', f);
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
        for (int c = 0; c < t->ncols; c++) {
            const char *cell = t->rows[r].cell[c];
            char href[128];
            if (c + 1 == t->link_col && section_href(rep, cell, href, sizeof href))
                md_link_cell(f, cell, href);
            else
                md_cell(f, cell);
        }
        if (!t->unjudged) {
            md_cell(f, skb_row_status_name(t->rows[r].status));
            md_cell(f, t->rows[r].note);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void md_section(const struct skb_report *rep, const struct skb_rtable *t, FILE *f)
{
    struct grid g;
    /* title, source and intro carry names and text from the results
     * (flops.json's convention and counting rules): escaped like cells */
    fprintf(f, "<a id=\"s-%s\"></a>\n## ", t->id);
    skb__md_esc(f, t->title);
    fprintf(f, "\n\n");
    if (t->source[0]) {
        fprintf(f, "Source: ");
        skb__md_esc(f, t->source);
        fprintf(f, ".");
    }
    if (t->intro) {
        fprintf(f, " ");
        skb__md_esc(f, t->intro);
    }
    fprintf(f, "\n\n");
    if (grid_build(rep, t, &g) == 0) {
        md_grid(t, &g, f);
        grid_free(&g);
    }
    md_rows(rep, t, f);
}

/* one table as a Markdown section: report.md uses it for each table,
 * table-4.1.md for its two (the one renderer of every table) */
void skb_report_render_table_md(const struct skb_report *rep, const struct skb_rtable *t, FILE *f)
{
    md_section(rep, t, f);
}

static void md_plots_images(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "<a id=\"s-plots\"></a>\n## Plots\n\n");
    for (int i = 0; i < rep->nplots; i++) {
        const struct skb_plot_entry *p = &rep->plots[i];
        fprintf(f, "### ");
        skb__md_esc(f, p->title);
        if (p->ok) {
            fprintf(f, "\n\n![");
            skb__md_esc(f, p->title);
            fprintf(f, "](plots/%s.png) ([SVG](plots/%s.svg))\n\n%s", p->name, p->name, p->note[0] ? "not plotted: " : "");
            skb__md_esc(f, p->note);
            fprintf(f, "%s", p->note[0] ? "\n\n" : "");
        } else {
            fprintf(f, "\n\nnot run: ");
            skb__md_esc(f, p->why);
            fprintf(f, "\n\n");
        }
    }
    for (int k = 0; k < rep->nruns; k++) {
        char dir[1200];
        snprintf(dir, sizeof dir, "%s/images", rep->runs[k].dir);
        DIR *d = open_images(&rep->runs[k]);
        if (!d)
            continue;
        fprintf(f, "## GPU deformation images (");
        skb__md_esc(f, rep->runs[k].machine_key);
        fprintf(f, ")\n\n");
        struct dirent *e;
        while ((e = readdir(d)))
            if (strstr(e->d_name, ".png")) {
                char cap[300];
                skb__image_caption(skb_results_doc(&rep->runs[k], "gpu.json"), e->d_name, cap, sizeof cap);
                fprintf(f, "- ");
                skb__md_esc(f, cap);
                fprintf(f, ": ");
                skb__md_esc(f, dir);
                fprintf(f, "/");
                skb__md_esc(f, e->d_name);
                fprintf(f, "\n");
            }
        closedir(d);
        fputc('\n', f);
    }
}

int skb_report_render_md(const struct skb_report *rep, FILE *f)
{
    fprintf(f, "# skinbench report\n\n");
    if (rep->quick)
        fprintf(f, "> **Warning: %d of %d** %s\n\n", rep->quick, rep->nruns, quick_text);
    if (rep->verdict[0]) {
        fprintf(f, "> **The gate on this run (its compare.json):** ");
        skb__md_esc(f, rep->verdict);
        fprintf(f, "\n\n");
    }
    if (rep->software_gpu[0]) {
        fprintf(f, "> **The GPU here (");
        skb__md_esc(f, rep->software_gpu);
        fprintf(f, ")** %s\n\n", software_gpu_text);
    }
    md_headline(rep, f);
    md_toc(rep, f);
    fprintf(f, "Every reproduced number beside the paper's (reports/reference.json). Status: "
               "*reproduced* (within the stated rule), *differs* (the note gives the measured difference and, where "
               "the results say, why), *not run*, *context* (paper number from other hardware/models, shown, not "
               "judged), *new* (no paper value), *reproduced (trivial)* (measured and paper ratios both within the "
               "stated band of 1: nothing to reproduce, not counted as reproduced). %s\n\n", counts_text);
    md_counts(rep, f);
    if (rep->fuzz[0]) {
        fprintf(f, "Robustness: ");
        skb__md_esc(f, rep->fuzz);   /* it names the log's path */
        fprintf(f, ".\n\n");
    }
    for (int i = 0; i < rep->ntables; i++)
        md_section(rep, &rep->tables[i], f);
    md_plots_images(rep, f);
    skb__render_pictures_md(f, rep);
    return ferror(f) ? SKB_EIO : 0;
}
