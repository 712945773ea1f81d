/* cmd_skin.c — `skinbench skin`: deform a dataset or model file with one
 * method in one pose and write the mesh as Wavefront OBJ. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include "skb_cli.h"
#include "skb_json.h"
#include "skb_dataset.h"

static void skin_usage(FILE *f)
{
    fprintf(f, "usage: skinbench skin --method M --model NAME|FILE [--frame K | --pose FILE]\n"
               "                      [--out FILE.obj] [--seed N] [--quiet]\n"
               "Deforms the model with method M and writes OBJ (positions, normals, faces).\n"
               "On success one summary line goes to stderr (vertices, joints, pose, vertices\n"
               "whose weights were renormalised on load), also when the OBJ goes to stdout.\n"
               "  --model   a dataset name (skinbench list datasets) or a model file\n"
               "  --frame   index into the dataset's own pose sequence (default: last)\n"
               "  --pose    JSON {\"transforms\": [[16 numbers row-major] per joint]}\n"
               "  --out     output file (written atomically); default stdout\n"
               "  --quiet   no summary line\n");
}

#define POSE_FILE_MAX ((size_t)4 << 20)

static int load_pose(const char *path, int njoints, double **mats)
{
    cJSON *root;
    char msg[512], *text;
    size_t len;
    /* 16 numbers per joint: even a thousand joints is well under 1 MB */
    if (skb_read_file_max(path, POSE_FILE_MAX, &text, &len, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        return -1;
    }
    int prc = skb_json_parse_text(path, text, len, 1, &root, msg, sizeof msg);
    free(text);
    if (prc < 0) {
        skb_cli_error("%s", msg);
        return -1;
    }
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(root, "transforms");
    if (!cJSON_IsArray(tr) || cJSON_GetArraySize(tr) != njoints) {
        skb_cli_error("%s: field \"transforms\": expected %d matrices (one per joint)", path, njoints);
        cJSON_Delete(root);
        return -1;
    }
    *mats = calloc((size_t)16 * njoints, sizeof **mats);
    for (int j = 0; j < njoints; j++) {
        const cJSON *m = cJSON_GetArrayItem(tr, j);
        if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != 16) {
            skb_cli_error("%s: field \"transforms\"[%d]: expected 16 numbers", path, j);
            cJSON_Delete(root);
            return -1;
        }
        for (int k = 0; k < 16; k++)
            if (skb_json_get_number(cJSON_GetArrayItem(m, k), &(*mats)[16 * j + k]) < 0) {
                skb_cli_error("%s: field \"transforms\"[%d][%d]: not a number", path, j, k);
                cJSON_Delete(root);
                return -1;
            }
    }
    cJSON_Delete(root);
    return 0;
}

/* the same rules blend applies (README: rigid within 1e-6 for every method
 * but those taking non-rigid input; never a projective last row, which no
 * method represents): a bad joint gets a one-line error naming it */
static int check_pose(const char *path, const struct skb_method *m, const double *mats, int njoints)
{
    for (int j = 0; j < njoints; j++) {
        const double *c = mats + 16 * j;
        for (int k = 0; k < 16; k++)
            if (!isfinite(c[k])) {
                skb_cli_error("%s: field \"transforms\"[%d] (joint %d): non-finite value", path, j, j);
                return -1;
            }
        if (!(fabs(c[12]) <= SKB_TOL_RIGID && fabs(c[13]) <= SKB_TOL_RIGID && fabs(c[14]) <= SKB_TOL_RIGID
              && fabs(c[15] - 1) <= SKB_TOL_RIGID)) {
            skb_cli_error("%s: field \"transforms\"[%d] (joint %d): last row is %g %g %g %g, not 0 0 0 1 "
                          "(projective transforms are not skinning transforms)", path, j, j, c[12], c[13], c[14], c[15]);
            return -1;
        }
        if (m->flags & SKB_MF_NONRIGID_IN)
            continue;
        double e = (double)skb_mat4_rigid_error(c);
        if (!(e <= SKB_TOL_RIGID)) {
            skb_cli_error("%s: field \"transforms\"[%d] (joint %d): not a rigid transform (orthonormality/det "
                          "error %.3g > %g; a scale, shear or reflection); method %s needs rigid joints",
                          path, j, j, e, SKB_TOL_RIGID, m->name);
            return -1;
        }
    }
    return 0;
}

static char *obj_text(const struct skb_mesh *m, const double *pos, const double *nrm, const char *title)
{
    size_t cap = 256 + (size_t)m->nverts * 160 + (size_t)m->ntris * 64, n = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    n += (size_t)snprintf(s + n, cap - n, "# skinbench: %s\n", title);
    for (int v = 0; v < m->nverts; v++)
        n += (size_t)snprintf(s + n, cap - n, "v %.9g %.9g %.9g\n", pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
    for (int v = 0; v < m->nverts && nrm; v++)
        n += (size_t)snprintf(s + n, cap - n, "vn %.6g %.6g %.6g\n", nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]);
    for (int t = 0; t < m->ntris; t++) {
        int a = m->tris[3 * t] + 1, b = m->tris[3 * t + 1] + 1, c = m->tris[3 * t + 2] + 1;
        if (nrm)
            n += (size_t)snprintf(s + n, cap - n, "f %d//%d %d//%d %d//%d\n", a, a, b, b, c, c);
        else
            n += (size_t)snprintf(s + n, cap - n, "f %d %d %d\n", a, b, c);
    }
    return s;
}

/* the one-line summary README promises: what was deformed, in which pose,
 * and what loading had to fix in the model's weights and joints */
static void print_summary(const struct skb_dataset *d, const struct skb_method *m, const char *posefile,
                          int frame)
{
    fprintf(stderr, "skinbench skin: %s by %s: %d vertices, %d triangles, %d joints, ", d->name, m->name,
            d->mesh.nverts, d->mesh.ntris, d->mesh.njoints);
    if (posefile)
        fprintf(stderr, "pose %s", posefile);
    else
        fprintf(stderr, "frame %d of 0..%d", frame, d->nposes - 1);
    fprintf(stderr, "; weights renormalised on load: %d vertices", d->renormalized);
    if (d->truncated)
        fprintf(stderr, " (%d had more than 4 influences)", d->truncated);
    if (d->unweighted)
        fprintf(stderr, "; %d unweighted vertices bound to joint 0", d->unweighted);
    if (d->orthonormalized)
        fprintf(stderr, "; %d non-rigid joint matrices made rigid", d->orthonormalized);
    fputc('\n', stderr);
}

int skb_cmd_skin(int argc, char **argv)
{
    int quiet = 0;
    const char *method = NULL, *model = NULL, *posefile = NULL, *out = NULL;
    long frame = -1;
    unsigned long seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skb_cli_is_help(a)) { skin_usage(stdout); return 0; }
        else if (strcmp(a, "--quiet") == 0) quiet = 1;
        else if (v && strcmp(a, "--method") == 0) { method = v; i++; }
        else if (v && strcmp(a, "--model") == 0) { model = v; i++; }
        else if (v && strcmp(a, "--pose") == 0) { posefile = v; i++; }
        else if (v && strcmp(a, "--out") == 0) { out = v; i++; }
        else if (v && strcmp(a, "--seed") == 0) {
            if (skb_cli_parse_ulong(v, &seed) < 0) { skb_cli_error("skin: --seed '%s': expected an integer", v); return 2; }
            i++;
        } else if (v && strcmp(a, "--frame") == 0) {
            unsigned long f;
            if (skb_cli_parse_ulong(v, &f) < 0) { skb_cli_error("skin: --frame '%s': expected an integer", v); return 2; }
            frame = (long)f;
            i++;
        } else {
            skb_cli_error("skin: unknown or incomplete option '%s' (see skinbench skin --help)", a);
            return 2;
        }
    }
    if (!method || !model) {
        skb_cli_error("skin: --method and --model are required (see skinbench skin --help)");
        return 2;
    }
    const struct skb_method *m = skb_method_find(method);
    if (!m) {
        skb_cli_error("skin: unknown method '%s' (see skinbench list methods)", method);
        return 2;
    }
    if (!skb_dataset_name_valid(model)) {
        skb_cli_error("skin: --model '%s': unknown dataset (see skinbench list datasets, or give a model file path)",
                      model);
        return 2;
    }
    struct skb_dataset d;
    struct skb_dataset_opts o = { seed, 0, 0 };
    char msg[512];
    if (skb_dataset_load(model, &o, &d, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    struct skb_pose p;
    double *mats = NULL;
    int rc = 1;
    if (posefile) {
        if (load_pose(posefile, d.mesh.njoints, &mats) < 0 || check_pose(posefile, m, mats, d.mesh.njoints) < 0)
            goto done;
        p.njoints = d.mesh.njoints;
        p.mats = mats;
        p.scale = NULL;
    } else {
        if (frame >= d.nposes) {
            skb_cli_error("skin: --frame %ld: %s has %d poses (0..%d)", frame, model, d.nposes, d.nposes - 1);
            goto done;
        }
        if (frame < 0)
            frame = d.nposes - 1;
        skb_dataset_pose(&d, (int)frame, &p);
    }
    double *pos = calloc((size_t)3 * d.mesh.nverts + 1, sizeof *pos);
    double *nrm = calloc((size_t)3 * d.mesh.nverts + 1, sizeof *nrm);
    struct skb_skinner s;
    if (!pos || !nrm || skb_skin_init(&s, m, &d.mesh, msg, sizeof msg) < 0) {
        skb_cli_error("skin: %s: %s", model, pos && nrm ? msg : "out of memory");
    } else {
        if (skb_skin_pose(&s, &p, NULL, pos, nrm, msg, sizeof msg) < 0) {
            skb_cli_error("skin: %s: %s", model, msg);
        } else {
            char title[256];
            snprintf(title, sizeof title, "%s deformed by %s", d.name, m->name);
            char *text = obj_text(&d.mesh, pos, d.mesh.nrm ? nrm : NULL, title);
            if (!text)
                skb_cli_error("skin: out of memory");
            else if (out) {
                if (skb_write_atomic(out, text, strlen(text), msg, sizeof msg) < 0)
                    skb_cli_error("%s", msg);
                else
                    rc = 0;
            } else {
                /* a failed write is reported at exit (skb_cli_close_stdout);
                 * no success summary for an OBJ that did not arrive */
                rc = skb_cli_write_stdout(text, strlen(text)) == 0 ? 0 : 1;
            }
            free(text);
            if (rc == 0 && !quiet)
                print_summary(&d, m, posefile, (int)frame);
        }
        skb_skin_fini(&s);
    }
    free(pos);
    free(nrm);
done:
    free(mats);
    skb_dataset_free(&d);
    return rc;
}
