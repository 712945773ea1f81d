/* render_esc.c — text and pictures into report.md and report.html safely:
 * Markdown and HTML escaping of text from results files, and PNGs as
 * base64 data: URIs (docs/security.md "Security").  Shared by render.c and
 * render_pictures.c, below both. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

/* text from results files and inputs in report.md: no markup of its own.
 * Markdown renders raw HTML, so '<', '>' and '&' become entities (a machine
 * name "<script>" stays text); '[', ']', '\' and '`' are backslash-escaped,
 * so no link, image, link definition or code span can open ("[x](javascript:
 * ...)", "![](https://...)"); what a GFM renderer would turn into a link by
 * itself is broken up by an escape ("\://", "www\.", "\@": cmark-gfm
 * only links an unescaped scheme, "www." or address); control bytes become
 * spaces (no line of its own); in a table cell '|' is escaped too.  The only
 * links in report.md are the ones the renderer writes around escaped text. */
void skb__md_put(FILE *f, const char *s, int cell)
{
    for (const char *p = s; p && *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (cell && c == '|')
            fputs("\\|", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '[' || c == ']' || c == '\\' || c == '`' || c == '@'
                 || (c == ':' && p[1] == '/' && p[2] == '/')
                 || (c == '.' && p - s >= 3 && (p[-1] | 32) == 'w' && (p[-2] | 32) == 'w' && (p[-3] | 32) == 'w')) {
            fputc('\\', f);
            fputc(*p, f);
        } else if (c < 0x20 || c == 0x7f)
            fputc(' ', f);
        else
            fputc(*p, f);
    }
}

void skb__md_esc(FILE *f, const char *s)
{
    skb__md_put(f, s, 0);
}

void skb__html_esc(FILE *f, const char *s)
{
    skb__html_esc_n(f, s, s ? strlen(s) : 0);
}

void skb__html_esc_n(FILE *f, const char *s, size_t n)
{
    for (const char *e = s ? s + n : s; s && s < e && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Pictures in report.html are bounded three ways (docs/security.md): a file
 * of at most EMBED_MAX_BYTES whose IHDR declares at most EMBED_MAX_RAW bytes
 * decoded (what a browser allocates for it) and no more file than such an
 * image can take; and no picture once the page has PAGE_MAX_BYTES.  The
 * largest picture skinbench writes is well under 1 MiB, a full report's
 * pictures together some 20 MiB. */
#define EMBED_MAX_BYTES ((size_t)4 << 20)
#define EMBED_MAX_RAW (64.0 * (1 << 20))
#define PAGE_MAX_BYTES ((long)64 << 20)

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/* the PNG's first chunk read by its documented layout (PNG spec 5.2, 5.3,
 * 11.2.2): signature, then IHDR of length 13 — width and height 1..2^31-1,
 * an allowed bit depth for the colour type, compression and filter 0,
 * interlace 0 or 1.  0 and *raw = the decoded size (rows of a filter byte
 * and width x channels x depth bits), or -1 with why */
static int png_ihdr(const unsigned char *b, size_t n, double *raw, const char **why)
{
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    /* channels per colour type 0..6 (0: not a type) and the depths each allows (bit set) */
    static const int chans[7] = { 1, 0, 3, 1, 2, 0, 4 };
    static const unsigned depths[7] = { 0x10116, 0, 0x10100, 0x116, 0x10100, 0, 0x10100 };
    *why = "not a PNG";
    if (n < 33 || memcmp(b, sig, 8) != 0)
        return -1;
    *why = "no IHDR chunk first";
    if (be32(b + 8) != 13 || memcmp(b + 12, "IHDR", 4) != 0)
        return -1;
    unsigned long w = be32(b + 16), h = be32(b + 20);
    unsigned depth = b[24], type = b[25];
    *why = "an IHDR outside the PNG specification";
    if (w == 0 || h == 0 || w > 0x7fffffffUL || h > 0x7fffffffUL || type > 6 || !chans[type] || depth > 16
        || !(depths[type] >> depth & 1) || b[26] != 0 || b[27] != 0 || b[28] > 1)
        return -1;
    *raw = (double)h * (1 + ceil((double)w * chans[type] * depth / 8));
    return 0;
}

/* the picture root/rel, read below root (no link in any component) when
 * it may be embedded; NULL and why when not */
static char *embeddable(FILE *f, const char *root, const char *rel, size_t *n, char *why, size_t whylen)
{
    static const char full[] = "the page already holds its limit of pictures (64 MiB)";
    char *buf;
    const char *bad;
    double raw = 0;
    long page = ftell(f);
    if (page > PAGE_MAX_BYTES) {
        snprintf(why, whylen, "%s", full);
        return NULL;
    }
    if (skb_read_below(root, rel, EMBED_MAX_BYTES, &buf, n, why, whylen) < 0)
        return NULL;
    if (png_ihdr((const unsigned char *)buf, *n, &raw, &bad) < 0)
        snprintf(why, whylen, "%s/%s: %s", root, rel, bad);
    else if (raw > EMBED_MAX_RAW)
        snprintf(why, whylen, "%s/%s: its IHDR declares %.0f bytes of pixels (at most %.0f)", root, rel, raw,
                 EMBED_MAX_RAW);
    else if ((double)*n > raw + raw / 64 + 65536)
        snprintf(why, whylen, "%s/%s: %zu bytes, more than the %.0f bytes of pixels its IHDR declares can take", root,
                 rel, *n, raw);
    else if (page + (long)(*n / 3 * 4 + 4) > PAGE_MAX_BYTES)
        snprintf(why, whylen, "%s", full);
    else
        return buf;
    free(buf);
    return NULL;
}

static void base64(FILE *f, const unsigned char *u, size_t n)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)u[i] << 16 | (i + 1 < n ? (unsigned)u[i + 1] << 8 : 0) | (i + 2 < n ? u[i + 2] : 0);
        fputc(b64[v >> 18 & 63], f);
        fputc(b64[v >> 12 & 63], f);
        fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? b64[v & 63] : '=', f);
    }
}

int skb__img(FILE *f, const char *root, const char *rel, const char *style, const char *alt)
{
    size_t n;
    char why[600];
    char *buf = embeddable(f, root, rel, &n, why, sizeof why);
    if (!buf) {
        fprintf(f, "<span class=\"not-run\">picture not embedded: ");
        skb__html_esc(f, why);
        fprintf(f, "</span>");
        return -1;
    }
    fprintf(f, style ? "<img style=\"%s\" alt=\"" : "<img alt=\"", style);
    skb__html_esc(f, alt);
    fprintf(f, "\" src=\"data:image/png;base64,");
    base64(f, (const unsigned char *)buf, n);
    fprintf(f, "\">");
    free(buf);
    return 0;
}
