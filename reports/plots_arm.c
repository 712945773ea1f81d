/* plots_arm.c — the GPU pictures' captions and the arm's volume and
 * cross-section curves (gpu.json).  The gnuplot core: plots.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_label.h"
#include "skb_method.h"
#include "skb_report.h"
#include "report_internal.h"
#include "plots_internal.h"

void skb__image_caption(const cJSON *gpu, const char *file, char *buf, size_t len)
{
    const cJSON *im;
    cJSON_ArrayForEach(im, skb__jget(gpu, "images")) {
        const char *fn = cJSON_GetStringValue(skb__jget(im, "file")), *base = fn ? strrchr(fn, '/') : NULL;
        base = base ? base + 1 : fn;
        if (!base || strcmp(base, file) != 0)
            continue;
        const char *sh = cJSON_GetStringValue(skb__jget(im, "shader")), *sc = cJSON_GetStringValue(skb__jget(im, "scene"));
        const char *ds = cJSON_GetStringValue(skb__jget(im, "dataset"));
        /* the joint angles of the arm scenes harness/exp_gpu.c (all_pictures)
         * poses, so a twisted and a straight arm never share a caption */
        static const char *const angles[][2] = { { "candy_wrapper", "arm, elbow twisted 180°" },
                                                 { "bent_elbow", "arm, elbow bent 120°" },
                                                 { "scaled_bent_elbow", "arm, forearm 1.5× across, elbow bent 120°" } };
        const char *ang = cJSON_GetStringValue(skb__jget(im, "caption"));
        for (size_t a = 0; sc && a < sizeof angles / sizeof angles[0]; a++)
            ang = strcmp(sc, angles[a][0]) == 0 ? angles[a][1] : ang;
        char hn[120], scene[120];
        double pose = NAN;
        skb__jnum(skb__jget(im, "pose"), &pose);
        snprintf(scene, sizeof scene, "%s", sc ? sc : "?");
        for (char *c = scene; *c; c++)
            *c = *c == '_' ? ' ' : *c;
        int n = snprintf(buf, len, "%s — %s", sh ? skb__plot_series_name(sh, skb__jget(gpu, "shaders"), hn, sizeof hn) : "?", scene);
        if (n < 0 || (size_t)n >= len)
            return;
        if (ang) {
            snprintf(buf + n, len - (size_t)n, " (%s)", ang);
            return;
        }
        /* a scene named after its model leaves the dataset empty */
        if (ds && *ds)
            n += snprintf(buf + n, len - (size_t)n, " (%s", ds);
        if ((size_t)n < len && isfinite(pose))
            n += snprintf(buf + n, len - (size_t)n, "%spose %.0f", ds && *ds ? ", " : " (", pose);
        if ((size_t)n < len && ((ds && *ds) || isfinite(pose)))
            snprintf(buf + n, len - (size_t)n, ")");
        return;
    }
    snprintf(buf, len, "%s", file);
}

/* the arm's volume or elbow cross-section over twist, one series per method
 * (gpu.json "arm_volume", harness/arm_volume.c); key: "volume_ratio" or
 * "section_area_ratio" */
static void volume_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                        const char *key, const char *what)
{
    const cJSON *av = skb__jget(skb_results_doc(r, "gpu.json"), "arm_volume"), *tw = skb__jget(av, "twist_deg"), *m;
    char name[64], title[200], st[96], qt[420], lab[200];
    int ns = 0, col = 2;
    snprintf(name, sizeof name, "arm-%s%s", key[0] == 'v' ? "volume" : "section", sfx);
    snprintf(title, sizeof title, "Arm %s over elbow twist, ratio to the rest pose", what);
    if (!cJSON_IsArray(tw)) {
        skb__pl_not_run(rep, name, title, skb_results_doc(r, "gpu.json") ? "gpu.json has no \"arm_volume\"" : "gpu.json not found (gpu not run)");
        return;
    }
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return;
    for (int i = 0; i < cJSON_GetArraySize(tw); i++) {
        double x = NAN;
        skb__jnum(cJSON_GetArrayItem(tw, i), &x);
        skb__pl_fnum(f, x);
        cJSON_ArrayForEach(m, skb__jget(av, "methods")) {
            const cJSON *ser = skb__jget(m, key);
            double y = NAN;
            if (cJSON_IsArray(ser))
                skb__jnum(cJSON_GetArrayItem(ser, i), &y);
            skb__pl_fnum(f, y);
        }
        fputc('\n', f);
    }
    struct body b;
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    cJSON_ArrayForEach(m, skb__jget(av, "methods"))
        ns += cJSON_IsArray(skb__jget(m, key));
    if (!ns) {
        fclose(b.f);
        free(b.buf);
        skb__pl_not_run(rep, name, title, "gpu.json \"arm_volume\" has no method with this series");
        return;
    }
    snprintf(lab, sizeof lab, "%s / %s at rest (dimensionless)", what, what);
    fprintf(b.f, "set xlabel 'elbow twist (degrees)'\nset ylabel %s\nset xrange [0:180]\nset xtics 30\nset offsets 0, 0, graph 0.06, 0\n"
                 "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\nplot ",
            skb__pl_gp_quote(qt, sizeof qt, lab));
    int k = 0;
    cJSON_ArrayForEach(m, skb__jget(av, "methods")) {
        if (cJSON_IsArray(skb__jget(m, key))) {
            fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 %s", k ? ", " : "", name, col,
                    skb__pl_series_style(st, sizeof st, k, ns));
            /* the method's one legend name, as in every other plot */
            skb__pl_put_title(b.f, m->string, NULL);
            k++;
        }
        col++;
    }
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_arm_volume(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "volume_ratio", "volume");
}

void skb__plot_arm_section(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "section_area_ratio", "cross-section area");
}
