/* render_pictures.c — the methods x scenes picture grid and the error heat
 * maps of gpu.json "method_pictures" (harness/gpu_pictures.c) in report.html
 * and report.md.  File names come from the results JSON: only names of the
 * form images/methods/<letters, digits, _ . ->.png are embedded, so a
 * hostile gpu.json cannot pull another file into the page. */
#include <stdio.h>
#include <string.h>
#include "report_internal.h"

static int safe_image_name(const char *rel)
{
    static const char pre[] = "images/methods/";
    size_t n = rel ? strlen(rel) : 0;
    if (n < sizeof pre + 4   /* at least one character before ".png" */
        || strncmp(rel, pre, sizeof pre - 1) != 0 || strcmp(rel + n - 4, ".png") != 0)
        return 0;
    for (const char *s = rel + sizeof pre - 1; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'
              || *s == '-' || (*s == '.' && s[1] != '.')))
            return 0;
    return 1;
}

/* the image entry of (method, scene, kind), or NULL */
static const cJSON *find_image(const cJSON *images, const char *method, const char *scene, const char *kind)
{
    const cJSON *x;
    if (!method || !scene)   /* a scene without a "name" in a hostile gpu.json */
        return NULL;
    cJSON_ArrayForEach(x, images) {
        const char *m = skb__jstr(skb__jget(x, "method")), *s = skb__jstr(skb__jget(x, "scene"));
        const char *k = skb__jstr(skb__jget(x, "kind"));
        if (m && s && k && strcmp(m, method) == 0 && strcmp(s, scene) == 0 && strcmp(k, kind) == 0)
            return x;
    }
    return NULL;
}

static const char *not_drawn_reason(const cJSON *nd, const char *method, const char *scene)
{
    const cJSON *x;
    if (!method || !scene)
        return NULL;
    cJSON_ArrayForEach(x, nd) {
        const char *m = skb__jstr(skb__jget(x, "method")), *s = skb__jstr(skb__jget(x, "scene"));
        if (m && s && strcmp(m, method) == 0 && strcmp(s, scene) == 0)
            return skb__jstr(skb__jget(x, "reason"));
    }
    return NULL;
}

/* every method named in images or not_drawn, in first-seen order */
static int method_list(const cJSON *mp, const char **out, int max)
{
    const char *lists[2] = { "images", "not_drawn" };
    int n = 0;
    for (int l = 0; l < 2; l++) {
        const cJSON *x;
        cJSON_ArrayForEach(x, skb__jget(mp, lists[l])) {
            const char *m = skb__jstr(skb__jget(x, "method"));
            int seen = !m;
            for (int i = 0; i < n && !seen; i++)
                seen = strcmp(out[i], m) == 0;
            if (!seen && n < max)
                out[n++] = m;
        }
    }
    return n;
}

static void html_cell(FILE *f, const char *dir, const cJSON *mp, const char *method, const char *scene,
                      const char *kind)
{
    const cJSON *img = find_image(skb__jget(mp, "images"), method, scene, kind);
    const char *rel = img ? skb__jstr(skb__jget(img, "file")) : NULL;
    char alt[300];
    fprintf(f, "<td>");
    if (rel && safe_image_name(rel)) {
        snprintf(alt, sizeof alt, "%s %s", method, scene);
        skb__img(f, dir, rel, "width:150px", alt);
    } else {
        const char *why = not_drawn_reason(skb__jget(mp, "not_drawn"), method, scene);
        fprintf(f, "<span class=\"not-run\">");
        skb__html_esc(f, why ? why : rel ? "image name refused" : "no image");
        fprintf(f, "</span>");
    }
    fprintf(f, "</td>");
}

static void html_grid(FILE *f, const char *dir, const cJSON *mp)
{
    const char *meth[64];
    int nm = method_list(mp, meth, 64);
    const cJSON *sc, *hm = skb__jget(mp, "heat_map");
    const char *hs = skb__jstr(skb__jget(hm, "scene"));
    fprintf(f, "<table class=\"pictures\"><tr><th>method</th>");
    cJSON_ArrayForEach(sc, skb__jget(mp, "scenes")) {
        fprintf(f, "<th>");
        skb__html_esc(f, skb__jstr(skb__jget(sc, "caption")));
        fprintf(f, "</th>");
    }
    if (hs) {
        fprintf(f, "<th>error against ");
        skb__html_esc(f, skb__jstr(skb__jget(hm, "reference")));
        fprintf(f, " (heat map)</th>");
    }
    fprintf(f, "</tr>\n");
    for (int i = 0; i < nm; i++) {
        fprintf(f, "<tr><th>");
        skb__html_esc(f, meth[i]);
        fprintf(f, "</th>");
        cJSON_ArrayForEach(sc, skb__jget(mp, "scenes"))
            html_cell(f, dir, mp, meth[i], skb__jstr(skb__jget(sc, "name")), "deformation");
        if (hs)
            html_cell(f, dir, mp, meth[i], hs, "error_heat_map");
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

void skb__render_pictures_html(FILE *f, const struct skb_report *rep)
{
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *mp = skb__jget(skb_results_doc(&rep->runs[k], "gpu.json"), "method_pictures");
        const cJSON *hm = skb__jget(mp, "heat_map");
        double scale = 0, size = 0;
        if (!mp)
            continue;
        fprintf(f, "<h2 id=\"pictures-%d\">Every method, the same poses (", k);
        skb__html_esc(f, rep->runs[k].machine_key);
        fprintf(f, ")</h2>\n<p class=\"src\">");
        if (skb__jstr(skb__jget(mp, "not_run"))) {
            fprintf(f, "not run: ");
            skb__html_esc(f, skb__jstr(skb__jget(mp, "not_run")));
            fprintf(f, "</p>\n");
            continue;
        }
        skb__html_esc(f, skb__jstr(skb__jget(mp, "how")));
        fprintf(f, "; renderer: ");
        skb__html_esc(f, skb__jstr(skb__jget(mp, "renderer")));
        if (skb__jnum(skb__jget(hm, "scale_max_rel"), &scale) == 0 && skb__jnum(skb__jget(hm, "model_size"), &size) == 0) {
            /* caption and reference come from gpu.json: escaped like every other string of it */
            fprintf(f, ". Heat map (");
            skb__html_esc(f, skb__jstr(skb__jget(hm, "caption")));
            fprintf(f, "): distance of each vertex to ");
            skb__html_esc(f, skb__jstr(skb__jget(hm, "reference")));
            fprintf(f, "'s, blue 0 &rarr; green &rarr; yellow &rarr; red %.4g model sizes (%.4g units), one scale "
                    "for every method", scale, scale * size);
        }
        fprintf(f, ".</p>\n");
        html_grid(f, rep->runs[k].dir, mp);
    }
}

/* "- METHOD — WHAT: DIR/FILE" or "- METHOD — WHAT: not drawn: WHY", escaped */
static void md_item(FILE *f, const char *method, const char *what, const char *dir, const char *rel, const char *why)
{
    fprintf(f, "- ");
    skb__md_esc(f, method ? method : "?");
    fprintf(f, " — ");
    skb__md_esc(f, what ? what : "?");
    fprintf(f, ": ");
    if (why) {
        fprintf(f, "not drawn: ");
        skb__md_esc(f, why);
    } else {
        skb__md_esc(f, dir);
        fprintf(f, "/");
        skb__md_esc(f, rel);
    }
    fprintf(f, "\n");
}

void skb__render_pictures_md(FILE *f, const struct skb_report *rep)
{
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *mp = skb__jget(skb_results_doc(&rep->runs[k], "gpu.json"), "method_pictures"), *x;
        if (!mp)
            continue;
        fprintf(f, "<a id=\"pictures-%d\"></a>\n## Every method, the same poses (", k);
        skb__md_esc(f, rep->runs[k].machine_key);
        fprintf(f, ")\n\n");
        if (skb__jstr(skb__jget(mp, "not_run"))) {
            fprintf(f, "not run: ");
            skb__md_esc(f, skb__jstr(skb__jget(mp, "not_run")));
            fprintf(f, "\n\n");
            continue;
        }
        cJSON_ArrayForEach(x, skb__jget(mp, "images")) {
            const char *rel = skb__jstr(skb__jget(x, "file"));
            if (rel && safe_image_name(rel))
                md_item(f, skb__jstr(skb__jget(x, "method")), skb__jstr(skb__jget(x, "caption")), rep->runs[k].dir, rel,
                        NULL);
        }
        cJSON_ArrayForEach(x, skb__jget(mp, "not_drawn"))
            md_item(f, skb__jstr(skb__jget(x, "method")), skb__jstr(skb__jget(x, "scene")), NULL, NULL,
                    skb__jstr(skb__jget(x, "reason")) ? skb__jstr(skb__jget(x, "reason")) : "?");
        fputc('\n', f);
    }
}
