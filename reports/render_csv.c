/* render_csv.c — every table of the report as CSV (RFC 4180), one file per
 * table under OUT/tables/<id>.csv: the same cells, status and note as the
 * page, from the same row model, for spreadsheets and scripts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_error.h"
#include "skb_json.h"
#include "skb_report.h"
#include "report_internal.h"

/* a cell a spreadsheet could run as a formula gets a leading apostrophe
 * (OWASP, CSV injection): any cell starting with =, +, -, @, a tab or a CR
 * unless the whole cell is one number ("-0.25", "+3e-5").  Model, dataset
 * and machine names come from the user: "-2+3+cmd|' -C calc'!A0" starts
 * like a number and is not one; "+1+HYPERLINK(...)" neither. */
static int formula_like(const char *s)
{
    if (!strchr("=+-@\t\r", s[0]) || !s[0])
        return 0;
    char *end;
    (void)strtod(s, &end);
    /* strtod also reads "inf", "nan" and hex: harmless to a spreadsheet */
    return end == s || *end != 0;
}

/* one field, quoted when it holds a separator, quote or line break; line
 * breaks become spaces, as on the page (also the history's CSV, regress/) */
void skb__csv_field(FILE *f, const char *s, int last)
{
    if (!s)
        s = "";
    int quote = strpbrk(s, ",\"\n\r") != NULL || formula_like(s);
    if (quote)
        fputc('"', f);
    if (formula_like(s))
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputs("\"\"", f);
        else
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    if (quote)
        fputc('"', f);
    fputs(last ? "\r\n" : ",", f);
}

static void csv_table(const struct skb_rtable *t, FILE *f)
{
    int judged = !t->unjudged;
    for (int c = 0; c < t->ncols; c++)
        skb__csv_field(f, t->col[c], !judged && c + 1 == t->ncols);
    if (judged) {
        skb__csv_field(f, "status", 0);
        skb__csv_field(f, "note", 1);
    }
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++)
            skb__csv_field(f, t->rows[r].cell[c], !judged && c + 1 == t->ncols);
        if (judged) {
            skb__csv_field(f, skb_row_status_name(t->rows[r].status), 0);
            skb__csv_field(f, t->rows[r].note, 1);
        }
    }
}

/* the headline claims, in the page's column order */
static void csv_headline(const struct skb_report *rep, FILE *f)
{
    static const char *const cols[] = { "claim", "source", "measured", "paper", "status", "rows" };
    for (int c = 0; c < 6; c++)
        skb__csv_field(f, cols[c], c == 5);
    for (int i = 0; i < rep->nheadline; i++) {
        const struct skb_headline *h = &rep->headline[i];
        skb__csv_field(f, h->claim, 0);
        skb__csv_field(f, h->source, 0);
        skb__csv_field(f, h->measured, 0);
        skb__csv_field(f, h->paper, 0);
        skb__csv_field(f, skb_headline_status_name(h->status), 0);
        skb__csv_field(f, h->rows, 1);
    }
}

/* OUT/tables/NAME.csv: table t, or the headline claims when t is NULL */
static int csv_file(const char *dir, const char *name, const struct skb_report *rep, const struct skb_rtable *t,
                    char *msg, size_t msglen)
{
    char path[1300], *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        snprintf(msg, msglen, "%s: out of memory", dir);
        return SKB_ENOMEM;
    }
    if (t)
        csv_table(t, f);
    else
        csv_headline(rep, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    int rc = skb_write_atomic(path, buf, len, msg, msglen);
    free(buf);
    return rc;
}

int skb_report_write_csv(const struct skb_report *rep, const char *out_dir, char *msg, size_t msglen)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/tables", out_dir);
    /* a link at OUT/tables is refused, never followed (docs/security.md "Security") */
    int rc = skb_mkdirs_below(out_dir, "tables", msg, msglen);
    if (rc == 0)
        rc = csv_file(dir, "headline", rep, NULL, msg, msglen);
    for (int i = 0; rc == 0 && i < rep->ntables; i++)
        rc = csv_file(dir, rep->tables[i].id, rep, &rep->tables[i], msg, msglen);
    return rc;
}
