/* cmd_skin.c — `skinbench skin`: deform a dataset or model file with one
 * method in one pose and write the mesh as Wavefront OBJ. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cJSON.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_json.h"
#include "skb_dataset.h"

/* what `skin`'s options fill in */
struct skin_opts {
    const char *method, *model, *posefile, *out;
    int quiet;
    long frame;
    unsigned long seed;
};

static int set_seed(void *opts, const char *v)
{
    if (skb_cli_parse_ulong(v, &((struct skin_opts *)opts)->seed) < 0) {
        skb_cli_error("skin: --seed '%s': expected an integer", v);
        return -1;
    }
    return 0;
}

static int set_frame(void *opts, const char *v)
{
    unsigned long f;
    if (skb_cli_parse_ulong(v, &f) < 0) {
        skb_cli_error("skin: --frame '%s': expected an integer", v);
        return -1;
    }
    ((struct skin_opts *)opts)->frame = (long)f;
    return 0;
}

#define AT(field) offsetof(struct skin_opts, field)
static const struct skb_opt skin_opts_table[] = {
    { "--method", SKB_OPT_STRING, AT(method), 0, NULL, "" },
    { "--model", SKB_OPT_STRING, AT(model), 0, NULL,
      "  --model   a dataset name (skinbench list datasets) or a model file\n" },
    { "--frame", SKB_OPT_VALUE, 0, 0, set_frame,
      "  --frame   index into the dataset's own pose sequence (default: last)\n" },
    { "--pose", SKB_OPT_STRING, AT(posefile), 0, NULL,
      "  --pose    JSON {\"transforms\": [[16 numbers row-major] per joint]}\n" },
    { "--out", SKB_OPT_STRING, AT(out), 0, NULL,
      "  --out     output file (written atomically); default stdout\n" },
    { "--seed", SKB_OPT_VALUE, 0, 0, set_seed, "" },
    { "--quiet", SKB_OPT_FLAG, AT(quiet), 1, NULL,
      "  --quiet   no summary line\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec skin_spec = {
    "skin",
    "usage: skinbench skin --method M --model NAME|FILE [--frame K | --pose FILE]\n"
    "                      [--out FILE.obj] [--seed N] [--quiet]\n"
    "Deforms the model with method M and writes OBJ (positions, normals, faces).\n"
    "On success one summary line goes to stderr (vertices, joints, pose, vertices\n"
    "whose weights were renormalised on load), also when the OBJ goes to stdout.\n",
    skin_opts_table, NULL, NULL
};

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

/* the same rules blend applies (docs/commands.md: rigid within 1e-6 for every method
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

/* the one-line summary docs/commands.md promises: what was deformed, in which pose,
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

/* a new --out file is never made in one of the kernel's folders or among
 * device nodes; an existing path is left to the writer, which replaces
 * only a regular file (skb_write_atomic); 0 or -1 after the error */
static int skin_out_check(const struct skin_opts *o)
{
    char dir[4096], msg[4400];
    const char *slash = o->out ? strrchr(o->out, '/') : NULL;
    struct stat st;
    if (!o->out || lstat(o->out, &st) == 0)
        return 0;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - o->out) + (slash == o->out) : 1, slash ? o->out : ".");
    if (skb_output_dir_check(dir, msg, sizeof msg) < 0) {
        skb_cli_error("skin: --out %s: %s", o->out, msg);
        return -1;
    }
    return 0;
}

/* the method and the model, checked before loading: NULL after the error */
static const struct skb_method *skin_method(const struct skin_opts *o)
{
    if (!o->method || !o->model) {
        skb_cli_error("skin: --method and --model are required (see skinbench skin --help)");
        return NULL;
    }
    const struct skb_method *m = skb_method_lookup(o->method, strlen(o->method));
    if (!m) {
        const char *near = skb_method_suggest(o->method, strlen(o->method));
        skb_cli_error("skin: unknown method '%s'%s%s%s (see skinbench list methods)", o->method,
                      near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
        return NULL;
    }
    if (!skb_dataset_name_valid(o->model)) {
        skb_cli_error("skin: --model '%s': unknown dataset (see skinbench list datasets, or give a model file path)",
                      o->model);
        return NULL;
    }
    return m;
}

/* the pose: --pose's file (read and checked, *mats its matrices) or the
 * dataset's --frame (default its last, o->frame set to it); 0 or -1 */
static int skin_pose(struct skin_opts *o, const struct skb_method *m, const struct skb_dataset *d,
                     struct skb_pose *p, double **mats)
{
    if (o->posefile) {
        if (load_pose(o->posefile, d->mesh.njoints, mats) < 0 || check_pose(o->posefile, m, *mats, d->mesh.njoints) < 0)
            return -1;
        p->njoints = d->mesh.njoints;
        p->mats = *mats;
        p->scale = NULL;
        return 0;
    }
    if (o->frame >= d->nposes) {
        skb_cli_error("skin: --frame %ld: %s has %d poses (0..%d)", o->frame, o->model, d->nposes, d->nposes - 1);
        return -1;
    }
    if (o->frame < 0)
        o->frame = d->nposes - 1;
    skb_dataset_pose(d, (int)o->frame, p);
    return 0;
}

/* the deformed mesh as OBJ to --out or stdout: 0, or 1 after the error */
static int write_obj(const struct skin_opts *o, const struct skb_method *m, const struct skb_dataset *d,
                     const double *pos, const double *nrm)
{
    char title[256], msg[512];
    int rc = 1;
    snprintf(title, sizeof title, "%s deformed by %s", d->name, m->name);
    /* the name comes from the model's file name: one comment line, whatever it holds */
    skb_text_one_line(title);
    char *text = obj_text(&d->mesh, pos, d->mesh.nrm ? nrm : NULL, title);
    if (!text)
        skb_cli_error("skin: out of memory");
    else if (o->out) {
        if (skb_write_atomic(o->out, text, strlen(text), msg, sizeof msg) < 0)
            skb_cli_error("%s", msg);
        else
            rc = 0;
    } else {
        /* a failed write is reported once (skb_cli_write_stdout or, at exit,
         * skb_cli_close_stdout); no success summary for an OBJ that did not arrive */
        rc = skb_cli_write_stdout(text, strlen(text)) == 0 ? 0 : 1;
    }
    free(text);
    return rc;
}

/* deform the loaded model in pose p and write it: 0, or 1 after the error */
static int skin_and_write(const struct skin_opts *o, const struct skb_method *m, const struct skb_dataset *d,
                          const struct skb_pose *p)
{
    char msg[512];
    int rc = 1;
    double *pos = calloc((size_t)3 * d->mesh.nverts + 1, sizeof *pos);
    double *nrm = calloc((size_t)3 * d->mesh.nverts + 1, sizeof *nrm);
    struct skb_skinner s;
    if (!pos || !nrm || skb_skin_init(&s, m, &d->mesh, msg, sizeof msg) < 0) {
        skb_cli_error("skin: %s: %s", o->model, pos && nrm ? msg : "out of memory");
    } else {
        if (skb_skin_pose(&s, p, NULL, pos, nrm, msg, sizeof msg) < 0)
            skb_cli_error("skin: %s: %s", o->model, msg);
        else
            rc = write_obj(o, m, d, pos, nrm);
        if (rc == 0 && !o->quiet)
            print_summary(d, m, o->posefile, (int)o->frame);
        skb_skin_fini(&s);
    }
    free(pos);
    free(nrm);
    return rc;
}

int skb_cmd_skin(int argc, char **argv)
{
    struct skin_opts o = { NULL, NULL, NULL, NULL, 0, -1, 1 };
    int rc = skb_cli_parse(&skin_spec, argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    const struct skb_method *m = skin_method(&o);
    if (!m || skin_out_check(&o) < 0)
        return 2;
    struct skb_dataset d;
    struct skb_dataset_opts dopts = { o.seed, 0, 0 };
    char msg[512];
    if (skb_dataset_load(o.model, &dopts, &d, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    struct skb_pose p;
    double *mats = NULL;
    rc = skin_pose(&o, m, &d, &p, &mats) < 0 ? 1 : skin_and_write(&o, m, &d, &p);
    free(mats);
    skb_dataset_free(&d);
    return rc;
}
