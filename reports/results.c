/* results.c — read a run directory's results JSON and check each file
 * against its table (declared beside its writer, harness/exp_<name>.c: the
 * metadata, the schema version and the keys the experiments promise; the
 * writer checks the same table),
 * so every later reader can rely on types.  Errors are one line naming the
 * file and field. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_reference.h"
#include "skb_sha256.h"
#include "report_internal.h"

/* The results files of every registered experiment, flattened in list
 * order (reports/experiment_list.c): index = skb_results.doc[] slot.  The
 * list is const, so each look-up walks it (a dozen files) instead of
 * caching it in a mutable table. */

/* results file `which` of the list and its experiment, or NULL */
static const struct skb_result_file *rfile_at(int which, const char **exp)
{
    int n = 0;
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        for (int i = 0; d->files && d->files[i].file; i++, n++)
            if (n == which) {
                if (exp)
                    *exp = skb_experiment_desc_name(d);
                return &d->files[i];
            }
    }
    return NULL;
}

const struct skb_schema *skb_results_schema(const char *file)
{
    const struct skb_result_file *fi;
    for (int i = 0; (fi = rfile_at(i, NULL)) != NULL; i++)
        if (strcmp(fi->file, file) == 0)
            return fi->schema;
    return NULL;
}

const struct skb_schema *skb_results_schema_at(int which)
{
    const struct skb_result_file *fi = rfile_at(which, NULL);
    return fi ? fi->schema : NULL;
}

/* a registry that breaks the rules — more than SKB_RF_MAX files, a file
 * declared twice, a file with neither a table nor a check, or whose
 * table has another metadata flag — is a build mistake: it fails loudly at
 * first use rather than read the wrong file into a slot */
static void rfile_registry_check(int n)
{
    const char *ei, *ej;
    if (n > SKB_RF_MAX) {
        fprintf(stderr, "skinbench: the experiments declare more than SKB_RF_MAX = %d results files "
                "(reports/skb_report.h)\n", SKB_RF_MAX);
        abort();
    }
    for (int i = 0; i < n; i++) {
        const struct skb_result_file *fi = rfile_at(i, &ei);
        const struct skb_schema *s = fi->schema;
        if ((!s && !fi->check) || (s && s->meta != fi->meta)) {
            fprintf(stderr, "skinbench: results file %s of experiment %s: %s (its descriptor, reports/exp_<name>.c)\n", fi->file, ei,
                    s ? "its metadata flag differs from its schema's" : "no schema and no check");
            abort();
        }
        for (int j = 0; j < i; j++)
            if (strcmp(rfile_at(j, &ej)->file, fi->file) == 0) {
                fprintf(stderr, "skinbench: results file %s declared by experiments %s and %s\n", fi->file, ej, ei);
                abort();
            }
    }
}

int skb_rfile_count(void)
{
    int n = 0;
    while (rfile_at(n, NULL))
        n++;
    rfile_registry_check(n);
    return n;
}

const char *skb_rfile_name(int which)
{
    const struct skb_result_file *f = which >= 0 && which < skb_rfile_count() ? rfile_at(which, NULL) : NULL;
    return f ? f->file : "?";
}

const char *skb_rfile_experiment(int which)
{
    const char *exp = "?";
    if (which >= 0 && which < skb_rfile_count())
        rfile_at(which, &exp);
    return exp;
}

int skb_rfile_find(const char *file)
{
    int n = skb_rfile_count();
    for (int i = 0; i < n; i++)
        if (strcmp(rfile_at(i, NULL)->file, file) == 0)
            return i;
    return -1;
}

int skb_experiment_file_index(const struct skb_experiment_desc *d, int nth)
{
    return d->files && d->files[nth].file ? skb_rfile_find(d->files[nth].file) : -1;
}

/* report code names the files it reads itself: a name no experiment
 * declares is a build mistake (a typo, an experiment dropped from the list),
 * so it fails loudly at first use rather than show the table as "not run" */
int skb_rfile_slot(const char *file)
{
    int i = skb_rfile_find(file);
    if (i < 0) {
        fprintf(stderr, "skinbench: results file %s is read by the report but no experiment in "
                "reports/experiment_list.c declares it\n", file);
        abort();
    }
    return i;
}

cJSON *skb_results_doc(const struct skb_results *r, const char *file)
{
    return r->doc[skb_rfile_slot(file)];
}

const char *skb_results_err(const struct skb_results *r, const char *file)
{
    return r->err[skb_rfile_slot(file)];
}

/* a key given twice in one object: readers would see the first and
 * iterators both, so such a file is rejected.  One open-addressing hash
 * table per object: linear in the keys (a pairwise check took 26 s on
 * 10^5 keys) */
static unsigned long key_hash(const char *k)
{
    unsigned long h = 1469598103934665603UL;   /* FNV-1a */
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211UL;
    return h;
}

/* 1 if obj has a key twice (*dup = it), 0 if not, -1 out of memory */
static int object_dup(const cJSON *obj, const char **dup)
{
    size_t n = 0, cap = 8;
    const cJSON *a;
    cJSON_ArrayForEach(a, obj)
        n++;
    while (cap < 2 * n)
        cap *= 2;
    const char **tab = calloc(cap, sizeof *tab);
    if (!tab)
        return -1;
    int found = 0;
    cJSON_ArrayForEach(a, obj) {
        if (!a->string)
            continue;
        size_t i = key_hash(a->string) & (cap - 1);
        while (tab[i] && strcmp(tab[i], a->string) != 0)
            i = (i + 1) & (cap - 1);
        if (tab[i]) {
            *dup = a->string;
            found = 1;
            break;
        }
        tab[i] = a->string;
    }
    free(tab);
    return found;
}

static const char *duplicate_key(const cJSON *x)
{
    const cJSON *a;
    const char *d = NULL;
    if (cJSON_IsObject(x) && object_dup(x, &d) != 0)
        return d ? d : "(out of memory checking keys)";
    cJSON_ArrayForEach(a, x) {
        if ((d = duplicate_key(a)))
            return d;
    }
    return NULL;
}

int skb_results_parse(int which, const char *path, const char *text, size_t len, cJSON **out,
                      char *msg, size_t msglen)
{
    cJSON *r;
    int rc = skb_json_parse_text(path, text, len, 1, &r, msg, msglen);
    *out = NULL;
    if (rc < 0) {
        skb_text_one_line(msg);   /* keys and values quoted come from the file */
        return rc;
    }
    if (!cJSON_IsObject(r)) {
        cJSON_Delete(r);
        snprintf(msg, msglen, "%s: expected a JSON object at the top level", path);
        return SKB_EPARSE;
    }
    const char *dup = duplicate_key(r);
    if (dup) {
        snprintf(msg, msglen, "%s: key \"%.80s\" appears twice in one object", path, dup);
        rc = SKB_EPARSE;
        goto fail;
    }
    const struct skb_result_file *rf = which >= 0 && which < skb_rfile_count() ? rfile_at(which, NULL) : NULL;
    const struct skb_schema *s = rf ? rf->schema : NULL;
    /* a file of no experiment (which < 0) is still checked as a results file */
    const struct skb_schema meta_only = { .file = "?", .meta = !rf || rf->meta };
    if ((rc = skb_schema_check(s ? s : &meta_only, r, path, msg, msglen)) < 0)
        goto fail;
    skb__results_canonical_names(r);
    if (rf && rf->check && (rc = rf->check(r, path, msg, msglen)) < 0)
        goto fail;
    *out = r;
    return 0;
fail:
    cJSON_Delete(r);
    skb_text_one_line(msg);
    return rc;
}

/* compare writes its summaries (compare.json, --summary files) and report
 * its report.json into the run directory: outputs about a run, not
 * results; `run` writes manifest.json, the list of the run's files */
static int is_own_output(const char *name)
{
    return strncmp(name, "compare", 7) == 0 || strcmp(name, "manifest.json") == 0
           || strcmp(name, "report.json") == 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* every *.json in dir that no registered experiment declares: the report
 * and compare name them instead of ignoring them silently */
static void scan_unknown(const char *dir, struct skb_results *r)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 || e->d_name[0] == '.'
            || skb_rfile_find(e->d_name) >= 0 || is_own_output(e->d_name))
            continue;
        if (r->nunknown < SKB_MAX_UNKNOWN)
            /* a longer name is shown cut (it is only named, never opened) */
            snprintf(r->unknown[r->nunknown], sizeof r->unknown[0], "%.*s", (int)sizeof r->unknown[0] - 1, e->d_name);
        r->nunknown++;
    }
    closedir(d);
    /* directory order is arbitrary: sort the names for a stable report */
    int m = r->nunknown < SKB_MAX_UNKNOWN ? r->nunknown : SKB_MAX_UNKNOWN;
    qsort(r->unknown, (size_t)m, sizeof r->unknown[0], cmp_name);
}

/* one file's text into slot i: its bytes hashed (the manifest's check), then
 * parsed and checked against its contract (r->err on failure) */
static void ingest(struct skb_results *r, int i, const char *path, const char *text, size_t len)
{
    r->bytes[i] = (long long)len;
    if (skb_sha256_hex(text, len, r->sha256[i]) < 0)
        r->sha256[i][0] = 0;
    if (skb_results_parse(i, path, text, len, &r->doc[i], r->err[i], sizeof r->err[i]) < 0)
        r->nbad++;
}

/* the run's identity from its loaded files (run_identity.c) */
static void identity(struct skb_results *r, const char *manifest, size_t len)
{
    const char *names[SKB_RF_MAX];
    int n = skb_rfile_count();
    for (int i = 0; i < n; i++)
        names[i] = skb_rfile_name(i);
    skb__results_identity(r, names, n, manifest, len);
}

int skb_results_load(const char *dir, struct skb_results *r, char *msg, size_t msglen)
{
    int present = 0;
    memset(r, 0, sizeof *r);
    /* a longer path would be cut to another folder's name: refused */
    if ((size_t)snprintf(r->dir, sizeof r->dir, "%s", dir) >= sizeof r->dir) {
        snprintf(msg, msglen, "%.200s...: a results folder path of %zu bytes; at most %zu", dir, strlen(dir),
                 sizeof r->dir - 1);
        return SKB_EINVAL;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a results directory (%s)", dir, strerror(errno ? errno : ENOTDIR));
        return SKB_EIO;
    }
    for (int i = 0; i < skb_rfile_count(); i++) {
        char path[1400], *text;
        size_t len;
        struct stat fst;
        snprintf(path, sizeof path, "%s/%s", dir, skb_rfile_name(i));
        /* present = any node by that name, a dangling link too: only a
         * regular file is then read, never through a link (docs/security.md) */
        if (skb_stat_below(dir, skb_rfile_name(i), &fst) != 0)
            continue;
        present++;
        if (skb_read_below(dir, skb_rfile_name(i), SKB_RESULTS_FILE_MAX, &text, &len, r->err[i], sizeof r->err[i]) < 0) {
            r->nbad++;
            continue;
        }
        ingest(r, i, path, text, len);
        free(text);
    }
    scan_unknown(dir, r);
    if (!present) {
        snprintf(msg, msglen, "%s: no results files (expected %s, ... ; run skinbench run all --out %s)",
                 dir, skb_rfile_name(0), dir);
        return SKB_EIO;
    }
    char mpath[1400], *mtext = NULL;
    size_t mlen = 0;
    snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
    if (access(mpath, F_OK) == 0 && skb_read_file_max(mpath, SKB_RESULTS_FILE_MAX, &mtext, &mlen, r->altered,
                                                     sizeof r->altered) < 0)
        mtext = NULL;   /* r->altered names why */
    identity(r, mtext, mlen);
    free(mtext);
    return 0;
}

int skb_results_load_texts(const char *label, int n, const char *const *names, const char *const *texts,
                           const size_t *lens, const char *manifest, size_t manifest_len, struct skb_results *r,
                           char *msg, size_t msglen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "%s", label);
    for (int k = 0; k < n; k++) {
        int i = skb_rfile_find(names[k]);
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", label, names[k]);
        if (i < 0) {
            if (r->nunknown < SKB_MAX_UNKNOWN)
                snprintf(r->unknown[r->nunknown], sizeof r->unknown[0], "%.*s", (int)sizeof r->unknown[0] - 1,
                         names[k]);
            r->nunknown++;
            continue;
        }
        ingest(r, i, path, texts[k], lens[k]);
    }
    if (n == 0) {
        snprintf(msg, msglen, "%s: no results files", label);
        return SKB_EIO;
    }
    identity(r, manifest, manifest_len);
    return 0;
}

void skb_results_free(struct skb_results *r)
{
    if (!r)
        return;
    for (int i = 0; i < skb_rfile_count(); i++) {
        cJSON_Delete(r->doc[i]);
        r->doc[i] = NULL;
    }
    cJSON_Delete(r->manifest);
    r->manifest = NULL;
}

static int has_results(const char *dir)
{
    struct stat st;
    for (int i = 0; i < skb_rfile_count(); i++)
        if (skb_stat_below(dir, skb_rfile_name(i), &st) == 0)
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the run directories under dir, sorted for a stable report; *cnt of them */
static char **list_runs(const char *dir, int *cnt, char *msg, size_t msglen)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    int n = 0, cap = 0, linked = 0;
    if (!d && errno == ENOENT) {   /* the usual first try: report before any run */
        snprintf(msg, msglen, "%s: no such results directory: nothing has been run into it yet (run skinbench run "
                 "all --out %s first, or make reproduce for results/latest)", dir, dir);
        return NULL;
    }
    if (!d) {
        snprintf(msg, msglen, "%s: cannot open results directory: %s", dir, strerror(errno));
        return NULL;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        char sub[1400];
        struct stat st;
        if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        /* a run below the directory given is never reached through a link;
         * one pointing at a directory is named rather than skipped unsaid */
        if (S_ISLNK(st.st_mode) && stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(msg, msglen, "%s: is a symbolic link; a run directory inside %s is not followed (give its "
                     "target with --results)", sub, dir);
            linked = 1;
            break;
        }
        if (!S_ISDIR(st.st_mode) || !has_results(sub))
            continue;
        if (n == cap) {
            char **nn = realloc(names, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        if (!(names[n] = strdup(sub)))
            break;
        n++;
    }
    closedir(d);
    if (e) {
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        if (!linked)
            snprintf(msg, msglen, "%s: out of memory listing run directories", dir);
        return NULL;
    }
    if (n)
        qsort(names, (size_t)n, sizeof *names, cmp_str);
    *cnt = n;
    return names ? names : calloc(1, sizeof *names);
}

int skb_results_load_many(const char *dir, struct skb_results *runs, int max, int *n,
                          char *msg, size_t msglen)
{
    int rc, cnt = 0;
    *n = 0;
    if (max < 1) {
        snprintf(msg, msglen, "%s: too many runs: a report merges at most %d", dir, SKB_MAX_RUNS);
        return SKB_EINVAL;
    }
    if (has_results(dir)) {
        if ((rc = skb_results_load(dir, &runs[0], msg, msglen)) < 0)
            return rc;
        *n = 1;
        return 0;
    }
    /* a directory of run directories, one per machine */
    char **names = list_runs(dir, &cnt, msg, msglen);
    if (!names)
        return SKB_EIO;
    rc = 0;
    if (cnt > max) {
        /* never drop runs silently: the caller named them all */
        snprintf(msg, msglen, "%s: %d run directories, but this report has room for %d more (a report merges at "
                 "most %d runs)", dir, cnt, max, SKB_MAX_RUNS);
        rc = SKB_EINVAL;
    }
    for (int i = 0; i < cnt; i++) {
        if (rc == 0) {
            if ((rc = skb_results_load(names[i], &runs[*n], msg, msglen)) == 0)
                (*n)++;
        }
        free(names[i]);
    }
    free(names);
    if (rc < 0) {
        for (int i = 0; i < *n; i++)
            skb_results_free(&runs[i]);
        *n = 0;
        return rc;
    }
    if (*n == 0) {
        snprintf(msg, msglen, "%s: no results files here or in its subdirectories "
                 "(run skinbench run all --out %s)", dir, dir);
        return SKB_EIO;
    }
    return 0;
}

int skb_reference_load(const char *path, const char *exe_dir, cJSON **out, char *msg, size_t msglen)
{
    char cand[1][1200];
    int nc = 0;
    if (path)
        snprintf(cand[nc++], sizeof cand[0], "%s", path);
    else if (skb_reference_find(exe_dir, cand[0], sizeof cand[0]) == 0)
        nc++;
    for (int i = 0; i < nc; i++) {
        int rc = skb_json_read_file(cand[i], out, msg, msglen);
        if (rc < 0)
            return rc;
        if (!cJSON_IsObject(*out) || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(*out, "table_4_1"))) {
            snprintf(msg, msglen, "%s: not a skinbench reference file (missing \"table_4_1\")", cand[i]);
            cJSON_Delete(*out);
            *out = NULL;
            return SKB_EPARSE;
        }
        return 0;
    }
    snprintf(msg, msglen, "reports/reference.json not found in $SKB_REFERENCE, next to skinbench or in "
             "the current directory (pass --reference FILE)");
    return SKB_EIO;
}
