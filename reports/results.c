/* results.c — read a run directory's results JSON and check each file
 * against its contract (common metadata from harness/skb_results.c, schema
 * version, and the keys the experiments promise), so every later reader can rely
 * on types.  Errors are one line naming the file and field. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_reference.h"
#include "report_internal.h"

/* the results files of every registered experiment, flattened in list
 * order (reports/experiment_list.c): index = skb_results.doc[] slot */
static struct {
    const char *file, *exp;
    const struct skb_result_file *rf;
} rfiles[SKB_RF_MAX];
static int nrfiles = -1;

/* at most SKB_RF_MAX files, each declared by one experiment: a registry that
 * breaks these rules is a build mistake, so it fails loudly at first use
 * rather than read the wrong file into a slot */
static void rfiles_init(void)
{
    if (nrfiles >= 0)
        return;
    nrfiles = 0;
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        for (int i = 0; d->files && d->files[i].file; i++) {
            if (nrfiles == SKB_RF_MAX) {
                fprintf(stderr, "skinbench: the experiments declare more than SKB_RF_MAX = %d results files "
                        "(reports/skb_report.h)\n", SKB_RF_MAX);
                abort();
            }
            for (int j = 0; j < nrfiles; j++)
                if (strcmp(rfiles[j].file, d->files[i].file) == 0) {
                    fprintf(stderr, "skinbench: results file %s declared by experiments %s and %s\n",
                            d->files[i].file, rfiles[j].exp, skb_experiment_desc_name(d));
                    abort();
                }
            rfiles[nrfiles].file = d->files[i].file;
            rfiles[nrfiles].exp = skb_experiment_desc_name(d);
            rfiles[nrfiles++].rf = &d->files[i];
        }
    }
}

int skb_rfile_count(void)
{
    rfiles_init();
    return nrfiles;
}

const char *skb_rfile_name(int which)
{
    return which >= 0 && which < skb_rfile_count() ? rfiles[which].file : "?";
}

const char *skb_rfile_experiment(int which)
{
    return which >= 0 && which < skb_rfile_count() ? rfiles[which].exp : "?";
}

int skb_rfile_find(const char *file)
{
    for (int i = 0; i < skb_rfile_count(); i++)
        if (strcmp(rfiles[i].file, file) == 0)
            return i;
    return -1;
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

static int is_num(const cJSON *x)
{
    double d;
    return x && skb_json_get_number(x, &d) == 0;
}

static int bad(char *msg, size_t msglen, const char *path, const char *what)
{
    snprintf(msg, msglen, "%s: %s", path, what);
    return SKB_EPARSE;
}

/* the metadata every skinbench results file starts with */
static int check_meta(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[256];
    const cJSON *sv = cJSON_GetObjectItemCaseSensitive(r, "schema_version");
    if (!cJSON_IsNumber(sv))
        return bad(msg, msglen, path, "missing field \"schema_version\" (not a skinbench results file?)");
    if (sv->valuedouble != SKB_SCHEMA_VERSION && sv->valuedouble != SKB_SCHEMA_VERSION_OLDEST) {
        snprintf(buf, sizeof buf, "field \"schema_version\" is %g, this skinbench reads version %d "
                 "(re-run the experiment with this build)", sv->valuedouble, SKB_SCHEMA_VERSION);
        return bad(msg, msglen, path, buf);
    }
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "experiment")))
        return bad(msg, msglen, path, "missing or non-string field \"experiment\"");
    unsigned long seed;
    if (skb_json_get_seed(cJSON_GetObjectItemCaseSensitive(r, "seed"), &seed) < 0)
        return bad(msg, msglen, path, "missing field \"seed\" or not a non-negative integer (a number up to 2^53 "
                   "or a decimal string)");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "machine");
    if (!cJSON_IsObject(m))
        return bad(msg, msglen, path, "missing field \"machine\" (object)");
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "key")))
        return bad(msg, msglen, path, "missing or non-string field \"machine\".\"key\"");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "compiler");
    if (c && !cJSON_IsString(c))
        return bad(msg, msglen, path, "field \"compiler\": expected a string");
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(r, "libraries");
    if (l && !cJSON_IsObject(l))
        return bad(msg, msglen, path, "field \"libraries\": expected an object");
    return 0;
}

/* obj[key] must be an object whose members are all objects (or numbers) */
static int check_map(const cJSON *obj, const char *key, int leaf_numbers, const char *path,
                     char *msg, size_t msglen)
{
    char buf[300];
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsObject(o)) {
        snprintf(buf, sizeof buf, "missing field \"%s\" (object)", key);
        return bad(msg, msglen, path, buf);
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, o) {
        if (leaf_numbers ? !is_num(it) : !cJSON_IsObject(it)) {
            snprintf(buf, sizeof buf, "field \"%s\".\"%.80s\": expected %s", key, it->string ? it->string : "?",
                     leaf_numbers ? "a number" : "an object");
            return bad(msg, msglen, path, buf);
        }
    }
    return 0;
}

int skb__check_properties(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    int rc = check_map(r, "verdicts", 0, path, msg, msglen);
    if (rc < 0)
        return rc;
    const cJSON *m, *v;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "verdicts")) {
        cJSON_ArrayForEach(v, m) {
            if (!cJSON_IsString(v) || (strcmp(v->valuestring, "+") && strcmp(v->valuestring, "-"))) {
                snprintf(buf, sizeof buf, "field \"verdicts\".\"%.60s\".\"%.60s\": expected \"+\" or \"-\"",
                         m->string, v->string ? v->string : "?");
                return bad(msg, msglen, path, buf);
            }
        }
    }
    return 0;
}

int skb__check_flops(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    int rc = check_map(r, "fits", 0, path, msg, msglen);
    if (rc < 0)
        return rc;
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "fits")) {
        if (!is_num(cJSON_GetObjectItemCaseSensitive(m, "a")) || !is_num(cJSON_GetObjectItemCaseSensitive(m, "b"))) {
            snprintf(buf, sizeof buf, "field \"fits\".\"%.80s\": expected numbers \"a\" and \"b\"", m->string);
            return bad(msg, msglen, path, buf);
        }
    }
    return 0;
}

int skb__check_bounds(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    static const char *const keys[] = { "qlb_slerp_max_angle_deg", "dlb_sclerp_max_angle_deg",
                                        "dlb_sclerp_max_translation_frac", NULL };
    char buf[300];
    for (int i = 0; keys[i]; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, keys[i]);
        if (x && !is_num(x)) {
            snprintf(buf, sizeof buf, "field \"%s\": expected a number", keys[i]);
            return bad(msg, msglen, path, buf);
        }
    }
    return 0;
}

/* a time per deformation or a ratio above this is no measurement (1e12 ms
 * is 30 years) */
#define MEASURED_MAX 1e12

int skb__check_cpu(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    int rc = check_map(r, "datasets", 0, path, msg, msglen);
    if (rc < 0)
        return rc;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(r, "datasets")) {
        static const char *const maps[] = { "ms", "ratio_to_linear", "ms_f32", "ratio_to_linear_f32", NULL };
        for (int i = 0; maps[i]; i++) {
            const cJSON *m = cJSON_GetObjectItemCaseSensitive(d, maps[i]), *x;
            if (m && (rc = check_map(d, maps[i], 1, path, buf, sizeof buf)) < 0) {
                snprintf(msg, msglen, "%s (in \"datasets\".\"%.80s\")", buf, d->string);
                return rc;
            }
            /* a measured time or ratio is finite and positive: -0 or 1e308
             * would otherwise be judged as a result ("nan" = not measured) */
            cJSON_ArrayForEach(x, m) {
                double v;
                if (cJSON_IsNumber(x) && skb_json_get_number(x, &v) == 0 && !(v > 0 && v < MEASURED_MAX)) {
                    snprintf(buf, sizeof buf, "field \"datasets\".\"%.60s\".\"%s\".\"%.60s\": %g is not a measured "
                             "value (expected a finite positive number below %g)", d->string, maps[i],
                             x->string ? x->string : "?", v, MEASURED_MAX);
                    return bad(msg, msglen, path, buf);
                }
            }
        }
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "verified");
    if (v && !cJSON_IsBool(v))
        return bad(msg, msglen, path, "field \"verified\": expected true or false");
    return 0;
}

/* instruction counts (harness/exp_icount.c): "available", and when true a
 * "kernels" map of numbers: the exact gate of compare reads them */
int skb__check_icount(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(r, "available");
    if (!cJSON_IsBool(a))
        return bad(msg, msglen, path, "missing field \"available\" (true or false)");
    return cJSON_IsTrue(a) ? check_map(r, "kernels", 1, path, msg, msglen) : 0;
}

int skb__check_gbench(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(r, "benchmarks");
    if (!cJSON_IsArray(b))
        return bad(msg, msglen, path, "missing field \"benchmarks\" (array; Google Benchmark JSON)");
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, b) {
        if (!cJSON_IsObject(x) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(x, "name"))
            || !is_num(cJSON_GetObjectItemCaseSensitive(x, "real_time"))) {
            snprintf(buf, sizeof buf, "field \"benchmarks\"[%d]: expected an object with \"name\" and \"real_time\"", i);
            return bad(msg, msglen, path, buf);
        }
        i++;
    }
    return 0;
}

int skb__check_gpu(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    int rc;
    static const char *const maps[] = { "max_abs_error", "instructions", NULL };
    for (int i = 0; maps[i]; i++)
        if (cJSON_GetObjectItemCaseSensitive(r, maps[i]) && (rc = check_map(r, maps[i], 1, path, msg, msglen)) < 0)
            return rc;
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
    if (ms) {
        if ((rc = check_map(r, "ms", 0, path, msg, msglen)) < 0)
            return rc;
        const cJSON *d;
        cJSON_ArrayForEach(d, ms) {
            const cJSON *s;
            cJSON_ArrayForEach(s, d)
                if (!is_num(s)) {
                    snprintf(buf, sizeof buf, "field \"ms\".\"%.60s\".\"%.60s\": expected a number", d->string,
                             s->string ? s->string : "?");
                    return bad(msg, msglen, path, buf);
                }
        }
    }
    return 0;
}

int skb__check_spheres(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    int rc = check_map(r, "datasets", 0, path, msg, msglen);
    if (rc < 0)
        return rc;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(r, "datasets")) {
        const cJSON *lv = cJSON_GetObjectItemCaseSensitive(d, "levels"), *l;
        if (!cJSON_IsArray(lv)) {
            snprintf(buf, sizeof buf, "field \"datasets\".\"%.80s\".\"levels\": expected an array", d->string);
            return bad(msg, msglen, path, buf);
        }
        int i = 0;
        cJSON_ArrayForEach(l, lv) {
            if (!cJSON_IsObject(l) || !is_num(cJSON_GetObjectItemCaseSensitive(l, "level"))) {
                snprintf(buf, sizeof buf, "field \"datasets\".\"%.80s\".\"levels\"[%d]: expected an object with \"level\"",
                         d->string, i);
                return bad(msg, msglen, path, buf);
            }
            const cJSON *m;
            cJSON_ArrayForEach(m, l) {
                if (cJSON_IsObject(m) && cJSON_GetObjectItemCaseSensitive(m, "avg")
                    && !is_num(cJSON_GetObjectItemCaseSensitive(m, "avg"))) {
                    snprintf(buf, sizeof buf, "field \"datasets\".\"%.60s\".\"levels\"[%d].\"%.40s\".\"avg\": expected a number",
                             d->string, i, m->string);
                    return bad(msg, msglen, path, buf);
                }
            }
            i++;
        }
    }
    return 0;
}

int skb__check_cd(const cJSON *r, const char *path, char *msg, size_t msglen)
{
    char buf[300];
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(r, "scaling"), *x;
    if (!cJSON_IsArray(s))
        return bad(msg, msglen, path, "missing field \"scaling\" (array)");
    int i = 0;
    cJSON_ArrayForEach(x, s) {
        static const char *const keys[] = { "level", "on_demand_ms", "bottom_up_ms", NULL };
        for (int k = 0; keys[k]; k++)
            if (!cJSON_IsObject(x) || !is_num(cJSON_GetObjectItemCaseSensitive(x, keys[k]))) {
                snprintf(buf, sizeof buf, "field \"scaling\"[%d].\"%s\": expected a number", i, keys[k]);
                return bad(msg, msglen, path, buf);
            }
        i++;
    }
    /* a subdivision level is a small integer (each level multiplies the
     * triangles by 4); the report indexes the paper's series with it */
    static const char *const series[] = { "scaling", "scaling_collision_free", NULL };
    for (int k = 0; series[k]; k++) {
        i = 0;
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, series[k])) {
            double lv;
            const cJSON *l = cJSON_GetObjectItemCaseSensitive(x, "level");
            if (l && (skb_json_get_number(l, &lv) < 0 || !(lv >= 0 && lv <= SKB_CD_MAX_LEVEL) || lv != floor(lv))) {
                snprintf(buf, sizeof buf, "field \"%s\"[%d].\"level\": expected an integer 0..%d", series[k], i,
                         SKB_CD_MAX_LEVEL);
                return bad(msg, msglen, path, buf);
            }
            i++;
        }
    }
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(r, "scenarios");
    if (sc && !cJSON_IsArray(sc) && !cJSON_IsObject(sc))
        return bad(msg, msglen, path, "field \"scenarios\": expected an array or object");
    return 0;
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

/* keys and values quoted in a message come from the file: keep the message
 * on one line whatever bytes they hold */
static void one_line(char *msg)
{
    for (unsigned char *c = (unsigned char *)msg; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = '?';
}

int skb_results_parse(int which, const char *path, const char *text, size_t len, cJSON **out,
                      char *msg, size_t msglen)
{
    cJSON *r;
    int rc = skb_json_parse_text(path, text, len, 1, &r, msg, msglen);
    *out = NULL;
    if (rc < 0) {
        one_line(msg);
        return rc;
    }
    if (!cJSON_IsObject(r)) {
        cJSON_Delete(r);
        return bad(msg, msglen, path, "expected a JSON object at the top level");
    }
    const char *dup = duplicate_key(r);
    if (dup) {
        snprintf(msg, msglen, "%s: key \"%.80s\" appears twice in one object", path, dup);
        rc = SKB_EPARSE;
        goto fail;
    }
    const struct skb_result_file *rf = which >= 0 && which < skb_rfile_count() ? rfiles[which].rf : NULL;
    if ((!rf || rf->meta) && (rc = check_meta(r, path, msg, msglen)) < 0)
        goto fail;
    skb__results_canonical_names(r);
    if (rf && rf->check)
        rc = rf->check(r, path, msg, msglen);
    if (rc < 0)
        goto fail;
    *out = r;
    return 0;
fail:
    cJSON_Delete(r);
    one_line(msg);
    return rc;
}

/* compare writes its summaries (compare.json, --summary files) into the
 * current run directory: they are outputs about a run, not results */
static int is_compare_output(const char *name)
{
    return strncmp(name, "compare", 7) == 0;
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
            || skb_rfile_find(e->d_name) >= 0 || is_compare_output(e->d_name))
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

int skb_results_load(const char *dir, struct skb_results *r, char *msg, size_t msglen)
{
    int present = 0;
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a results directory (%s)", dir, strerror(errno ? errno : ENOTDIR));
        return SKB_EIO;
    }
    for (int i = 0; i < skb_rfile_count(); i++) {
        char path[1400], *text;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, skb_rfile_name(i));
        if (access(path, F_OK) != 0)
            continue;
        present++;
        if (skb_read_file_max(path, SKB_RESULTS_FILE_MAX, &text, &len, r->err[i], sizeof r->err[i]) < 0) {
            r->nbad++;
            continue;
        }
        if (skb_results_parse(i, path, text, len, &r->doc[i], r->err[i], sizeof r->err[i]) < 0)
            r->nbad++;
        free(text);
        if (r->doc[i] && !r->machine_key[0]) {
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->doc[i], "machine"), "key");
            if (cJSON_IsString(k))
                snprintf(r->machine_key, sizeof r->machine_key, "%s", k->valuestring);
        }
    }
    scan_unknown(dir, r);
    if (!present) {
        snprintf(msg, msglen, "%s: no results files (expected %s, ... ; run skinbench run all --out %s)",
                 dir, skb_rfile_name(0), dir);
        return SKB_EIO;
    }
    if (!r->machine_key[0])
        snprintf(r->machine_key, sizeof r->machine_key, "unknown");
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
}

static int has_results(const char *dir)
{
    char path[1600];
    for (int i = 0; i < skb_rfile_count(); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, skb_rfile_name(i));
        if (access(path, F_OK) == 0)
            return 1;
    }
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
    int n = 0, cap = 0;
    if (!d) {
        snprintf(msg, msglen, "%s: cannot open results directory: %s", dir, strerror(errno));
        return NULL;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        char sub[1400];
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        if (!has_results(sub))
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
