/* render_esc.c — text and pictures into report.md and report.html safely:
 * Markdown and HTML escaping of text from results files, and PNGs as
 * base64 data: URIs (docs/security.md "Security").  Shared by render.c and
 * render_pictures.c, below both. */
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

/* a picture embedded in the page is at most this large (the largest plot
 * or GPU image skinbench writes is well under 1 MiB) */
#define EMBED_MAX_BYTES ((size_t)16 << 20)

/* the file as a base64 data: URI; 0 if written.  Only a regular file (not
 * through a link: O_NOFOLLOW) that starts with the PNG signature, under
 * EMBED_MAX_BYTES: a link planted in the run directory must not carry
 * another file's bytes into the page (docs/security.md "Security") */
int skb__data_uri(FILE *f, const char *path, const char *mime)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char png_sig[8] = { (char)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    char *buf, msg[300];
    size_t n;
    if (skb_read_input(path, EMBED_MAX_BYTES, SKB_IN_NOFOLLOW, &buf, &n, msg, sizeof msg) < 0)
        return -1;
    if (strcmp(mime, "image/png") == 0 && (n < sizeof png_sig || memcmp(buf, png_sig, sizeof png_sig) != 0)) {
        free(buf);
        return -1;
    }
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
