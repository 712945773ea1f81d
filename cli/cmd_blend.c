/* cmd_blend.c — `skinbench blend --method M [--input FILE|-]`: JSON in, JSON out.
 * Input: {"transforms": [[16 row-major]...], "weights": [...], "center": [x,y,z]}
 * or an array of such objects.  Weights that do not sum to 1 are rejected
 * unless --renormalize is given (the same rule as everywhere in skinbench). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_json.h"
#include "skb_method.h"

/* the largest blend input read (bytes): cJSON holds about 40 bytes per input
 * byte of numbers, so 64 MiB of JSON is some 3 GB in memory; 64 MiB is over
 * a million 4x4 transforms, far more than any skinning pose needs */
#define BLEND_MAX_INPUT ((size_t)64 << 20)

/* what `blend`'s options fill in */
struct blend_opts {
    const char *method, *input;
    int renorm;
    struct skb_params prm;
};

static int set_precision(void *opts, const char *v)
{
    struct skb_params *prm = &((struct blend_opts *)opts)->prm;
    char *end;
    prm->dib_precision = strtod(v, &end);
    if (*end || !(prm->dib_precision > 0)) {
        skb_cli_error("blend: --precision '%s': expected a positive number", v);
        return -1;
    }
    return 0;
}

static int set_max_iter(void *opts, const char *v)
{
    unsigned long n;
    if (skb_cli_parse_ulong(v, &n) < 0 || n < 1 || n > 100000) {
        skb_cli_error("blend: --max-iter '%s': expected an integer 1..100000", v);
        return -1;
    }
    ((struct blend_opts *)opts)->prm.dib_max_iter = (int)n;
    return 0;
}

static int set_antipodal(void *opts, const char *v)
{
    struct skb_params *prm = &((struct blend_opts *)opts)->prm;
    if (strcmp(v, "pivot") == 0)
        prm->antipodal = SKB_ANTIPODAL_PIVOT;
    else if (strcmp(v, "hierarchy") == 0)
        prm->antipodal = SKB_ANTIPODAL_HIERARCHY;
    else if (strcmp(v, "none") == 0)
        prm->antipodal = SKB_ANTIPODAL_NONE;
    else {
        skb_cli_error("blend: --antipodal '%s': expected pivot, hierarchy or none", v);
        return -1;
    }
    return 0;
}

static const struct skb_opt blend_opts_table[] = {
    { "--method", SKB_OPT_STRING, offsetof(struct blend_opts, method), 0, NULL, "" },
    { "--input", SKB_OPT_STRING, offsetof(struct blend_opts, input), 0, NULL, "" },
    { "--renormalize", SKB_OPT_FLAG, offsetof(struct blend_opts, renorm), 1, NULL,
      "  --renormalize   divide weights by their sum instead of rejecting them\n" },
    { "--precision", SKB_OPT_VALUE, 0, 0, set_precision,
      "  --precision P   DIB stopping precision (default 1e-5)\n" },
    { "--max-iter", SKB_OPT_VALUE, 0, 0, set_max_iter,
      "  --max-iter N    DIB iteration cap (default 20)\n" },
    { "--antipodal", SKB_OPT_VALUE, 0, 0, set_antipodal,
      "  --antipodal     sign resolution for quaternion methods (default pivot: DQ paper Alg. 2;\n"
      "                  hierarchy: each sign chosen against the previous transform)\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, "Methods: skinbench list methods\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec blend_spec = {
    "blend",
    "usage: skinbench blend --method M [--input FILE|-] [--renormalize]\n"
    "                       [--precision P] [--max-iter N] [--antipodal pivot|hierarchy|none]\n"
    "Reads {\"transforms\": [[16 numbers, row-major 4x4], ...], \"weights\": [...],\n"
    "\"center\": [x,y,z]} (center only where the method needs one), or a JSON array of\n"
    "such objects, from FILE or stdin; writes {\"method\": M, \"matrix\": [16 numbers]}\n"
    "per input (an array for an array) to stdout.  Input is at most 64 MiB, one JSON\n"
    "document (anything after it is an error).\n",
    blend_opts_table, NULL, NULL
};

/* one blend input as read: its transforms, weights and optional center */
struct blend_item {
    double *mats, *w, center[3];
    int has_center, n;
};

/* the transforms and weights of an item (counts checked); errors name the
 * item and field */
static int parse_pairs(const cJSON *tr, const cJSON *we, int idx, const char *src, struct blend_item *b)
{
    /* walk the lists through their links: cJSON_GetArrayItem(i) walks from
     * the head each time, quadratic in the transform count */
    const cJSON *m = tr->child, *wi = we->child;
    for (int i = 0; i < b->n; i++, m = m->next, wi = wi->next) {
        if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != 16) {
            skb_cli_error("%s: item %d: field \"transforms\"[%d]: expected 16 numbers (row-major 4x4)", src, idx, i);
            return -1;
        }
        const cJSON *x = m->child;
        for (int k = 0; k < 16; k++, x = x->next)
            if (skb_json_get_number(x, &b->mats[16 * i + k]) < 0) {
                skb_cli_error("%s: item %d: field \"transforms\"[%d][%d]: not a number", src, idx, i, k);
                return -1;
            }
        /* every method, linear too, blends affine matrices: a projective
         * last row would be dropped silently (docs/commands.md: last row 0 0 0 1) */
        const double *r = b->mats + 16 * i + 12;
        if (isfinite(r[0] + r[1] + r[2] + r[3]) && !(fabs(r[0]) <= SKB_TOL_RIGID && fabs(r[1]) <= SKB_TOL_RIGID
                                                    && fabs(r[2]) <= SKB_TOL_RIGID && fabs(r[3] - 1) <= SKB_TOL_RIGID)) {
            skb_cli_error("%s: item %d: field \"transforms\"[%d]: last row is %g %g %g %g, not 0 0 0 1 "
                          "(projective transforms cannot be blended)", src, idx, i, r[0], r[1], r[2], r[3]);
            return -1;
        }
        if (skb_json_get_number(wi, &b->w[i]) < 0) {
            skb_cli_error("%s: item %d: field \"weights\"[%d]: not a number", src, idx, i);
            return -1;
        }
    }
    return 0;
}

/* --renormalize: the weights divided by their sum.  A negative or
 * non-finite weight is named as read: dividing keeps its sign, and a sum
 * such as DBL_MAX + -DBL_MAX = 0 would hide which weight was wrong.  The
 * weights are scaled by the largest first, so finite ones never overflow
 * the sum (DBL_MAX + DBL_MAX). */
static int renormalize(int idx, const char *src, struct blend_item *b)
{
    double mx = 0, s = 0;
    for (int i = 0; i < b->n; i++) {
        if (!isfinite(b->w[i]) || b->w[i] < 0) {
            skb_cli_error("%s: item %d: field \"weights\"[%d]: %g is %s; only finite weights >= 0 can be "
                          "renormalised", src, idx, i, b->w[i], isfinite(b->w[i]) ? "negative" : "not finite");
            return -1;
        }
        mx = fmax(mx, b->w[i]);
    }
    for (int i = 0; i < b->n && mx > 0; i++)
        s += b->w[i] / mx;
    if (!(s > 0)) {
        skb_cli_error("%s: item %d: field \"weights\": every weight is 0; there is nothing to renormalise", src, idx);
        return -1;
    }
    for (int i = 0; i < b->n; i++)
        b->w[i] = b->w[i] / mx / s;
    return 0;
}

/* the optional "center": [x, y, z] */
static int parse_center(const cJSON *ce, int idx, const char *src, struct blend_item *b)
{
    b->has_center = 0;
    if (!ce)
        return 0;
    if (!cJSON_IsArray(ce) || cJSON_GetArraySize(ce) != 3) {
        skb_cli_error("%s: item %d: field \"center\": expected [x, y, z]", src, idx);
        return -1;
    }
    for (int k = 0; k < 3; k++)
        if (skb_json_get_number(cJSON_GetArrayItem(ce, k), &b->center[k]) < 0) {
            skb_cli_error("%s: item %d: field \"center\"[%d]: not a number", src, idx, k);
            return -1;
        }
    b->has_center = 1;
    return 0;
}

/* parse one blend input; errors name the item and field */
static int parse_item(const cJSON *it, int idx, const char *src, int renorm, struct blend_item *b)
{
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(it, "transforms");
    const cJSON *we = cJSON_GetObjectItemCaseSensitive(it, "weights");
    if (!cJSON_IsObject(it)) {
        skb_cli_error("%s: item %d: expected an object with \"transforms\" and \"weights\"", src, idx);
        return -1;
    }
    if (!cJSON_IsArray(tr) || cJSON_GetArraySize(tr) < 1) {
        skb_cli_error("%s: item %d: field \"transforms\": expected a non-empty array of 16-number arrays", src, idx);
        return -1;
    }
    int cnt = cJSON_GetArraySize(tr);
    if (!cJSON_IsArray(we) || cJSON_GetArraySize(we) != cnt) {
        skb_cli_error("%s: item %d: field \"weights\": expected an array of %d numbers (one per transform)",
                      src, idx, cnt);
        return -1;
    }
    b->mats = calloc((size_t)16 * cnt, sizeof *b->mats);
    b->w = calloc((size_t)cnt, sizeof *b->w);
    if (!b->mats || !b->w) {
        skb_cli_error("out of memory");
        return -1;
    }
    b->n = cnt;
    if (parse_pairs(tr, we, idx, src, b) < 0 || (renorm && renormalize(idx, src, b) < 0))
        return -1;
    return parse_center(cJSON_GetObjectItemCaseSensitive(it, "center"), idx, src, b);
}

static cJSON *blend_one(const struct skb_method *m, const struct skb_params *prm, const cJSON *it,
                        int idx, const char *src, int renorm)
{
    struct blend_item b = { NULL, NULL, { 0, 0, 0 }, 0, 0 };
    double out[16];
    cJSON *res = NULL;
    if (parse_item(it, idx, src, renorm, &b) == 0) {
        struct skb_blend_in in = { b.n, b.w, b.mats, b.has_center ? b.center : NULL };
        struct skb_blend_stats st;
        char msg[512];
        if (skb_blend(m, &in, prm, out, &st, msg, sizeof msg) < 0) {
            skb_cli_error("%s: item %d: %s", src, idx, msg);
        } else {
            res = cJSON_CreateObject();
            cJSON_AddStringToObject(res, "method", m->name);
            cJSON_AddItemToObject(res, "matrix", skb_json_array(out, 16));
            if (m->flags & SKB_MF_ITERATIVE)
                cJSON_AddNumberToObject(res, "iterations", st.iterations);
        }
    }
    free(b.mats);
    free(b.w);
    return res;
}

/* the method named by --method, with a blend form; NULL after the error */
static const struct skb_method *blend_method(const char *method)
{
    if (!method) {
        skb_cli_error("blend: --method is required (one of: skinbench list methods)");
        return NULL;
    }
    const struct skb_method *m = skb_method_lookup(method, strlen(method));
    if (!m) {
        const char *near = skb_method_suggest(method, strlen(method));
        skb_cli_error("blend: unknown method '%s'%s%s%s (see skinbench list methods)", method,
                      near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
        return NULL;
    }
    if (!m->blend) {
        /* a skin-only method (e.g. dlb_scale) has no blend of transformations to run */
        skb_cli_error("blend: method '%s' has no blend form, only a skin path (see skinbench list methods)", method);
        return NULL;
    }
    return m;
}

/* every item of the document (one object, or an array of them) blended;
 * NULL after the first item's error */
static cJSON *blend_all(const struct skb_method *m, const struct blend_opts *o, const cJSON *root, const char *src)
{
    if (!cJSON_IsArray(root))
        return blend_one(m, &o->prm, root, 0, src, o->renorm);
    cJSON *out = cJSON_CreateArray();
    const cJSON *it = root->child;
    for (int i = 0; it; i++, it = it->next) {
        cJSON *r = blend_one(m, &o->prm, it, i, src, o->renorm);
        if (!r) {
            cJSON_Delete(out);
            return NULL;
        }
        cJSON_AddItemToArray(out, r);
    }
    return out;
}

int skb_cmd_blend(int argc, char **argv)
{
    struct blend_opts o;
    memset(&o, 0, sizeof o);
    o.input = "-";
    skb_params_default(&o.prm);
    int rc = skb_cli_parse(&blend_spec, argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    const struct skb_method *m = blend_method(o.method);
    if (!m)
        return 2;
    cJSON *root;
    char msg[512], *in_text;
    size_t len;
    const char *src = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input;
    if (skb_read_file_max(o.input, BLEND_MAX_INPUT, &in_text, &len, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    int prc = skb_json_parse_text(src, in_text, len, 1, &root, msg, sizeof msg);
    free(in_text);
    if (prc < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    cJSON *out = blend_all(m, &o, root, src);
    if (out) {
        char *text = cJSON_Print(out);
        puts(text);
        free(text);
    }
    cJSON_Delete(out);
    cJSON_Delete(root);
    return out ? 0 : 1;
}
