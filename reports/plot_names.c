/* plot_names.c — the legend name of a results key, shared by the plots
 * (plots.c) and the "not plotted" notes (report_methods.c). */
#include <stdio.h>
#include <string.h>
#include "skb_json.h"
#include "skb_label.h"
#include "skb_method.h"
#include "report_internal.h"

/* the display name of shader `key` in gpu.json "shaders" ([{name, title},
 * ...]): shader names come from the results, like everything here */
static const char *shader_title(const cJSON *shaders, const char *key)
{
    const cJSON *sh;
    cJSON_ArrayForEach(sh, shaders) {
        const char *n = cJSON_GetStringValue(skb__jget(sh, "name"));
        if (n && strcmp(n, key) == 0)
            return cJSON_GetStringValue(skb__jget(sh, "title"));
    }
    return NULL;
}

/* the title of a variant label of a method titled `title` ("DIB
 * (precision 0.001)", "DLB (alg2)"); n: the length of its method part */
static void label_title(char *buf, size_t len, const char *title, const char *key, size_t n)
{
    struct skb_label l;
    char tail[160];
    if (skb_label_parse(key, &l) == 0 && !l.nvariants && strcmp(l.key[0].key, "p") == 0 && l.key[0].has_value) {
        /* "@p=V": DIB's precision, the rest of the label after it */
        char p[sizeof l.key[0].value];
        snprintf(p, sizeof p, "%s", l.key[0].value);
        l.method[0] = 0;
        memmove(&l.key[0], &l.key[1], (size_t)--l.nkeys * sizeof l.key[0]);
        skb_label_format(&l, tail, sizeof tail);
        snprintf(buf, len, "%s (precision %s%s)", title, p, tail);
    } else {
        snprintf(buf, len, "%s (%s)", title, key + n + 1);
    }
}

/* legend names for results keys: the display name of a shader (gpu.json) or
 * registry method, with a variant suffix spelled out ("dib@p=0.001" -> "DIB
 * (precision 0.001)"); a few fixed keys; anything else verbatim (it is
 * quoted anyway) */
const char *skb__plot_series_name(const char *key, const cJSON *shaders, char *buf, size_t len)
{
    static const struct { const char *key, *name; } fixed[] = {
        { "reference", "reference posture" },
        { "bottom_up", "bottom-up" },
        { "best", "best (tightest)" },
        { "angle_gap_deg", "rotation-angle gap" },
        { "translation_gap_pct_of_alpha_eps", "translation gap along the screw axis" },
        { "dib_iterations_histogram", "random inputs (angles up to 180 deg)" },
        { "dib_iterations_moderate_histogram", "skinning-like inputs (angles <= 45 deg)" },
    };
    if (!key)   /* an array where the results should hold a keyed object */
        key = "?";
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(key, fixed[i].key) == 0)
            return snprintf(buf, len, "%s", fixed[i].name), buf;
    char base[96];
    size_t n = skb_label_method(key, base, sizeof base);
    const struct skb_method *m = skb_method_find(base);
    const char *st = shaders ? shader_title(shaders, key) : NULL;
    if (st && (!m || !m->title || strcmp(m->name, key) != 0))
        return snprintf(buf, len, "%s", st), buf;   /* a shader without a CPU method of its name */
    if (!m || !m->title)
        return snprintf(buf, len, "%s", key), buf;
    if (!key[n] && (m->flags & SKB_MF_RATIO_REF))
        snprintf(buf, len, "LBS (%s)", m->name);   /* the reference every ratio names, in the papers' word */
    else if (!key[n])
        snprintf(buf, len, "%s", m->title);
    else
        label_title(buf, len, m->title, key, n);
    return buf;
}
