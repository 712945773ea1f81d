/* run_identity.c — one run's identity: the machine key, seed, run id and
 * binary its files agree on, and the check of its manifest (manifest.json,
 * written last by `run`, run_manifest.c: every results file with its bytes'
 * SHA-256).  A folder whose files disagree — a reused --out holding two
 * runs, another machine's timing file copied in — is "mixed"; one whose
 * files are not what its manifest lists is "altered" (edited or replaced
 * after the run).  compare and the results store refuse both, report
 * refuses a mixed folder, each naming what disagrees
 * (docs/report-and-regression.md "The results store").  The loader
 * (results.c) hands the file names in: this file calls nothing of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

#define MANIFEST_VERSION 1   /* run_manifest.c writes it */

/* one attribute the files must agree on: its value and the first file that gave it */
struct agreed {
    const char *what;          /* "seed", "machine key", ... (messages) */
    char *value;               /* the run's field, filled by the first holder */
    size_t len;
    const char *holder;        /* that file, NULL until one is seen */
    int held, missing;         /* files that carry it / that could and do not */
    const char *lacking;       /* one file that could carry it and does not */
};

/* the first disagreement into dst (r->mixed or r->altered), one line; the
 * next shows once it is fixed */
static void say(char *dst, size_t len, const struct skb_results *r, const char *fmt, const char *a, const char *b,
                const char *c, const char *d)
{
    if (dst[0])
        return;
    char what[440];
    snprintf(what, sizeof what, fmt, a, b, c, d);
    snprintf(dst, len, "%.150s: %s", r->dir, what);
}

static void mixed(struct skb_results *r, const char *fmt, const char *a, const char *b, const char *c,
                  const char *d)
{
    say(r->mixed, sizeof r->mixed, r, fmt, a, b, c, d);
}

static void altered(struct skb_results *r, const char *fmt, const char *a, const char *b, const char *c,
                    const char *d)
{
    say(r->altered, sizeof r->altered, r, fmt, a, b, c, d);
}

/* file `file` carries value v (NULL: it could carry one and does not) */
static void agree(struct skb_results *r, struct agreed *a, const char *file, const char *v)
{
    if (!v) {
        a->missing++;
        a->lacking = a->lacking ? a->lacking : file;
        return;
    }
    a->held++;
    if (!a->holder) {
        a->holder = file;
        snprintf(a->value, a->len, "%s", v);
    } else if (strcmp(a->value, v) != 0) {
        char what[300];
        snprintf(what, sizeof what, "%.40s %.100s, %.40s %.100s", a->holder, a->value, file, v);
        mixed(r, "files of more than one run (%s %s): a folder reused by another run? Run into an empty "
              "folder, or move the other run's files away", a->what, what, "", "");
    }
}

/* the seed as the file wrote it (an exact integer, or a string above 2^53) */
static const char *seed_of(const cJSON *doc, char *buf, size_t len)
{
    unsigned long s;
    if (skb_json_get_seed(skb__jget(doc, "seed"), &s) < 0)
        return NULL;
    snprintf(buf, len, "%lu", s);
    return buf;
}

/* every loaded file's identity into the four attributes */
static void gather(struct skb_results *r, const char *const *names, int n, struct agreed *key, struct agreed *run,
                   struct agreed *seed, struct agreed *bin)
{
    for (int i = 0; i < n; i++) {
        const cJSON *d = r->doc[i], *ctx = skb__jget(d, "context");
        const char *f = names[i];
        char sb[32];
        if (skb__jget(d, "machine")) {   /* a file with skinbench's metadata */
            /* the most telling first: machine, seed, binary, then the run id */
            agree(r, key, f, skb__jstr(skb__jget(skb__jget(d, "machine"), "key")));
            agree(r, seed, f, seed_of(d, sb, sizeof sb));
            agree(r, bin, f, skb__jstr(skb__jget(d, "binary_sha256")));
            agree(r, run, f, skb__jstr(skb__jget(d, "run_id")));
        } else if (cJSON_IsObject(ctx)) {   /* Google Benchmark's: the run's context entries */
            if (skb__jstr(skb__jget(ctx, "skinbench_seed")))
                agree(r, seed, f, skb__jstr(skb__jget(ctx, "skinbench_seed")));
            agree(r, run, f, skb__jstr(skb__jget(ctx, "skinbench_run_id")));
        }
    }
}

/* the manifest's files against the folder's: the same names, the same bytes */
static void check_files(struct skb_results *r, const char *const *names, int n, const cJSON *files)
{
    for (int i = 0; i < n; i++) {
        const char *f = names[i];
        const cJSON *m = skb__jget(files, f);
        int present = r->doc[i] || r->err[i][0];
        const char *sha = skb__jstr(skb__jget(m, "sha256"));
        if (present && !m)
            altered(r, "%s is not in the run's manifest.json: written after the run, by another run or by hand", f,
                  "", "", "");
        else if (!present && m)
            altered(r, "%s is listed in the run's manifest.json but missing", f, "", "", "");
        else if (present && r->sha256[i][0] && (!sha || strcmp(sha, r->sha256[i]) != 0))
            altered(r, "%s is not the file the run's manifest.json lists (SHA-256 %.16s..., manifest %.16s...): "
                  "replaced or edited after the run", f, r->sha256[i], sha ? sha : "none", "");
    }
}

/* manifest.json's text: parsed, its run id and files checked against the folder */
static void check_manifest(struct skb_results *r, const char *const *names, int n, const char *text, size_t len)
{
    char msg[400], path[1100];
    cJSON *m = NULL;
    snprintf(path, sizeof path, "%s/manifest.json", r->dir);
    if (skb_json_parse_text(path, text, len, 1, &m, msg, sizeof msg) < 0) {
        snprintf(r->altered, sizeof r->altered, "%s", msg);
        return;
    }
    double v = 0;
    const char *rid = skb__jstr(skb__jget(m, "run_id"));
    if (!cJSON_IsObject(m) || skb_json_get_number(skb__jget(m, "manifest_version"), &v) < 0 || v != MANIFEST_VERSION
        || !rid || !cJSON_IsObject(skb__jget(m, "files"))) {
        snprintf(r->altered, sizeof r->altered, "%.400s: not a skinbench manifest of version %d (fields "
                 "\"manifest_version\", \"run_id\", \"files\")", path, MANIFEST_VERSION);
        cJSON_Delete(m);
        return;
    }
    check_files(r, names, n, skb__jget(m, "files"));
    r->manifest = m;
}

void skb__results_identity(struct skb_results *r, const char *const *names, int n, const char *manifest, size_t len)
{
    struct agreed key = { "machine key", r->machine_key, sizeof r->machine_key, NULL, 0, 0, NULL };
    struct agreed run = { "run id", r->run_id, sizeof r->run_id, NULL, 0, 0, NULL };
    struct agreed seed = { "seed", r->seed, sizeof r->seed, NULL, 0, 0, NULL };
    struct agreed bin = { "binary", r->binary_sha256, sizeof r->binary_sha256, NULL, 0, 0, NULL };
    int had_mixed = r->altered[0] != 0;   /* an unreadable manifest, named by the loader */
    /* a manifest names a file's exact bytes: checked first, its message is the most precise */
    if (manifest && !had_mixed)
        check_manifest(r, names, n, manifest, len);
    gather(r, names, n, &key, &run, &seed, &bin);
    /* files of an older skinbench carry no run id or binary: only a folder
     * where some do and others do not is mixed */
    if (run.held && run.missing)
        mixed(r, "%s carries no run id while %s is of run %s: files of more than one run (a reused folder?)",
              run.lacking, run.holder, run.value, "");
    if (bin.held && bin.missing)
        mixed(r, "%s names no binary while %s does: files of more than one run (a reused folder?)", bin.lacking,
              bin.holder, "", "");
    if (!r->machine_key[0])
        snprintf(r->machine_key, sizeof r->machine_key, "unknown");
    if (r->manifest && !r->mixed[0] && r->run_id[0]
        && strcmp(skb__jstr(skb__jget(r->manifest, "run_id")), r->run_id) != 0)
        altered(r, "manifest.json is of run %.40s, the results files of run %.40s: a manifest from another run",
              skb__jstr(skb__jget(r->manifest, "run_id")), r->run_id, "", "");
}

