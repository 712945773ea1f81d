/* cmd_blend.c — `skinbench blend --method M [--input FILE|-]`: JSON in, JSON out.
 * Input: {"transforms": [[16 row-major]...], "weights": [...], "center": [x,y,z]}
 * or an array of such objects.  Weights that do not sum to 1 are rejected
 * unless --renormalize is given (the same rule as everywhere in skinbench). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include "skb_cli.h"
#include "skb_json.h"
#include "skb_method.h"

/* the largest blend input read (bytes): cJSON holds about 40 bytes per input
 * byte of numbers, so 64 MiB of JSON is some 3 GB in memory; 64 MiB is over
 * a million 4x4 transforms, far more than any skinning pose needs */
#define BLEND_MAX_INPUT ((size_t)64 << 20)

static void blend_usage(FILE *f)
{
    fprintf(f, "usage: skinbench blend --method M [--input FILE|-] [--renormalize]\n"
               "                       [--precision P] [--max-iter N] [--antipodal pivot|hierarchy|none]\n"
               "Reads {\"transforms\": [[16 numbers, row-major 4x4], ...], \"weights\": [...],\n"
               "\"center\": [x,y,z]} (center only where the method needs one), or a JSON array of\n"
               "such objects, from FILE or stdin; writes {\"method\": M, \"matrix\": [16 numbers]}\n"
               "per input (an array for an array) to stdout.  Input is at most 64 MiB, one JSON\n"
               "document (anything after it is an error).\n"
               "  --renormalize   divide weights by their sum instead of rejecting them\n"
               "  --precision P   DIB stopping precision (default 1e-5)\n"
               "  --max-iter N    DIB iteration cap (default 20)\n"
               "  --antipodal     sign resolution for quaternion methods (default pivot: DQ paper Alg. 2;\n"
               "                  hierarchy: each sign chosen against the previous transform)\n"
               "Methods: skinbench list methods\n");
}

/* parse one blend input; errors name the item and field */
static int parse_item(const cJSON *it, int idx, const char *src, double **mats, double **w,
                      double *center, int *has_center, int *n, int renorm)
{
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(it, "transforms");
    const cJSON *we = cJSON_GetObjectItemCaseSensitive(it, "weights");
    const cJSON *ce = cJSON_GetObjectItemCaseSensitive(it, "center");
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
    *mats = calloc((size_t)16 * cnt, sizeof **mats);
    *w = calloc((size_t)cnt, sizeof **w);
    if (!*mats || !*w) {
        skb_cli_error("out of memory");
        return -1;
    }
    /* walk the lists through their links: cJSON_GetArrayItem(i) walks from
     * the head each time, quadratic in the transform count */
    const cJSON *m = tr->child, *wi = we->child;
    for (int i = 0; i < cnt; i++, m = m->next, wi = wi->next) {
        if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != 16) {
            skb_cli_error("%s: item %d: field \"transforms\"[%d]: expected 16 numbers (row-major 4x4)", src, idx, i);
            return -1;
        }
        const cJSON *x = m->child;
        for (int k = 0; k < 16; k++, x = x->next)
            if (skb_json_get_number(x, &(*mats)[16 * i + k]) < 0) {
                skb_cli_error("%s: item %d: field \"transforms\"[%d][%d]: not a number", src, idx, i, k);
                return -1;
            }
        /* every method, linear too, blends affine matrices: a projective
         * last row would be dropped silently (README: last row 0 0 0 1) */
        const double *r = *mats + 16 * i + 12;
        if (isfinite(r[0] + r[1] + r[2] + r[3]) && !(fabs(r[0]) <= SKB_TOL_RIGID && fabs(r[1]) <= SKB_TOL_RIGID
                                                    && fabs(r[2]) <= SKB_TOL_RIGID && fabs(r[3] - 1) <= SKB_TOL_RIGID)) {
            skb_cli_error("%s: item %d: field \"transforms\"[%d]: last row is %g %g %g %g, not 0 0 0 1 "
                          "(projective transforms cannot be blended)", src, idx, i, r[0], r[1], r[2], r[3]);
            return -1;
        }
        if (skb_json_get_number(wi, &(*w)[i]) < 0) {
            skb_cli_error("%s: item %d: field \"weights\"[%d]: not a number", src, idx, i);
            return -1;
        }
    }
    if (renorm) {
        double s = 0;
        for (int i = 0; i < cnt; i++)
            s += (*w)[i];
        if (!(s > 0) || !isfinite(s)) {
            skb_cli_error("%s: item %d: field \"weights\": sum %g cannot be renormalised", src, idx, s);
            return -1;
        }
        for (int i = 0; i < cnt; i++)
            (*w)[i] /= s;
    }
    *has_center = 0;
    if (ce) {
        if (!cJSON_IsArray(ce) || cJSON_GetArraySize(ce) != 3) {
            skb_cli_error("%s: item %d: field \"center\": expected [x, y, z]", src, idx);
            return -1;
        }
        for (int k = 0; k < 3; k++)
            if (skb_json_get_number(cJSON_GetArrayItem(ce, k), &center[k]) < 0) {
                skb_cli_error("%s: item %d: field \"center\"[%d]: not a number", src, idx, k);
                return -1;
            }
        *has_center = 1;
    }
    *n = cnt;
    return 0;
}

static cJSON *blend_one(const struct skb_method *m, const struct skb_params *prm, const cJSON *it,
                        int idx, const char *src, int renorm)
{
    double *mats = NULL, *w = NULL, center[3], out[16];
    int has_center, n;
    cJSON *res = NULL;
    if (parse_item(it, idx, src, &mats, &w, center, &has_center, &n, renorm) == 0) {
        struct skb_blend_in in = { n, w, mats, has_center ? center : NULL };
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
    free(mats);
    free(w);
    return res;
}

int skb_cmd_blend(int argc, char **argv)
{
    const char *method = NULL, *input = "-";
    int renorm = 0;
    struct skb_params prm;
    skb_params_default(&prm);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skb_cli_is_help(a)) {
            blend_usage(stdout);
            return 0;
        } else if (strcmp(a, "--renormalize") == 0) {
            renorm = 1;
        } else if (v && strcmp(a, "--method") == 0) {
            method = v; i++;
        } else if (v && strcmp(a, "--input") == 0) {
            input = v; i++;
        } else if (v && strcmp(a, "--precision") == 0) {
            char *end;
            prm.dib_precision = strtod(v, &end);
            if (*end || !(prm.dib_precision > 0)) {
                skb_cli_error("blend: --precision '%s': expected a positive number", v);
                return 2;
            }
            i++;
        } else if (v && strcmp(a, "--max-iter") == 0) {
            unsigned long n;
            if (skb_cli_parse_ulong(v, &n) < 0 || n < 1 || n > 100000) {
                skb_cli_error("blend: --max-iter '%s': expected an integer 1..100000", v);
                return 2;
            }
            prm.dib_max_iter = (int)n;
            i++;
        } else if (v && strcmp(a, "--antipodal") == 0) {
            if (strcmp(v, "pivot") == 0)
                prm.antipodal = SKB_ANTIPODAL_PIVOT;
            else if (strcmp(v, "hierarchy") == 0)
                prm.antipodal = SKB_ANTIPODAL_HIERARCHY;
            else if (strcmp(v, "none") == 0)
                prm.antipodal = SKB_ANTIPODAL_NONE;
            else {
                skb_cli_error("blend: --antipodal '%s': expected pivot, hierarchy or none", v);
                return 2;
            }
            i++;
        } else {
            skb_cli_error("blend: unknown or incomplete option '%s' (see skinbench blend --help)", a);
            return 2;
        }
    }
    if (!method) {
        skb_cli_error("blend: --method is required (one of: skinbench list methods)");
        return 2;
    }
    const struct skb_method *m = skb_method_find(method);
    if (!m) {
        skb_cli_error("blend: unknown method '%s' (see skinbench list methods)", method);
        return 2;
    }
    if (!m->blend) {
        /* a skin-only method (e.g. dlb_scale) has no blend of transformations to run */
        skb_cli_error("blend: method '%s' has no blend form, only a skin path (see skinbench list methods)", method);
        return 2;
    }
    cJSON *root;
    char msg[512], *in_text;
    size_t len;
    const char *src = strcmp(input, "-") == 0 ? "<stdin>" : input;
    if (skb_read_file_max(input, BLEND_MAX_INPUT, &in_text, &len, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    int prc = skb_json_parse_text(src, in_text, len, 1, &root, msg, sizeof msg);
    free(in_text);
    if (prc < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    cJSON *out;
    int ok = 1;
    if (cJSON_IsArray(root)) {
        out = cJSON_CreateArray();
        const cJSON *it = root->child;
        for (int i = 0; it && ok; i++, it = it->next) {
            cJSON *r = blend_one(m, &prm, it, i, src, renorm);
            if (r)
                cJSON_AddItemToArray(out, r);
            else
                ok = 0;
        }
    } else {
        out = blend_one(m, &prm, root, 0, src, renorm);
        ok = out != NULL;
    }
    if (ok) {
        char *text = cJSON_Print(out);
        puts(text);
        free(text);
    }
    cJSON_Delete(out);
    cJSON_Delete(root);
    return ok ? 0 : 1;
}
