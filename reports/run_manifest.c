/* run_manifest.c — the run's manifest (manifest.json), written last by
 * `run`: every results file with its experiment, schema version, bytes and
 * SHA-256, the one machine key, seed, run id and binary, and whether the
 * run is complete, with the problems that make it not (run_identity.c
 * checks a folder against it; the results store admits only complete
 * runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skb_json.h"
#include "report_internal.h"

#define MANIFEST_VERSION 1   /* run_identity.c checks it */

static void add_problem(cJSON *problems, const char *fmt, const char *a, const char *b)
{
    char buf[700];
    snprintf(buf, sizeof buf, fmt, a, b);
    cJSON_AddItemToArray(problems, cJSON_CreateString(buf));
}

/* the files table, and the problems of files this run did not write */
static cJSON *files_table(const struct skb_results *r, const struct skb_manifest_info *info, cJSON *problems)
{
    cJSON *files = cJSON_CreateObject();
    for (int i = 0; i < skb_rfile_count(); i++) {
        const cJSON *d = r->doc[i];
        const char *f = skb_rfile_name(i);
        if (!d && !r->err[i][0])
            continue;
        if (r->err[i][0])
            add_problem(problems, "%s", r->err[i], "");
        cJSON *e = cJSON_AddObjectToObject(files, f);
        cJSON_AddStringToObject(e, "experiment", skb_rfile_experiment(i));
        double ver;
        if (skb_json_get_number(skb__jget(d, "schema_version"), &ver) == 0)
            cJSON_AddNumberToObject(e, "schema_version", ver);
        cJSON_AddNumberToObject(e, "bytes", (double)r->bytes[i]);
        cJSON_AddStringToObject(e, "sha256", r->sha256[i]);
        const char *rid = skb__jstr(skb__jget(d, "run_id"));
        if (!rid)
            rid = skb__jstr(skb__jget(skb__jget(d, "context"), "skinbench_run_id"));
        if (d && (!rid || strcmp(rid, info->run_id) != 0))
            add_problem(problems, "%s was not written by this run (run id %s)", f, rid ? rid : "none");
    }
    return files;
}

static cJSON *binary_obj(const struct skb_manifest_info *info)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "sha256", info->binary_sha256 ? info->binary_sha256 : "");
    cJSON_AddStringToObject(b, "git_rev", info->git_rev ? info->git_rev : "");
    cJSON_AddStringToObject(b, "git_describe", info->git_describe ? info->git_describe : "");
    cJSON_AddStringToObject(b, "compiler", info->compiler ? info->compiler : "");
    return b;
}

/* the experiments' statuses as problems: every registered one must be "ok" */
static void experiment_problems(const struct skb_manifest_info *info, cJSON *problems)
{
    for (int e = 0; skb_experiment_list[e]; e++) {
        const char *name = skb_experiment_desc_name(skb_experiment_list[e]);
        const char *st = skb__jstr(skb__jget(info->experiments, name));
        if (!st || strcmp(st, "ok") != 0)
            add_problem(problems, "experiment %s: %s", name, st ? st : "not run");
    }
}

static cJSON *manifest_doc(const struct skb_results *r, int loaded, const struct skb_manifest_info *info)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    cJSON *m = cJSON_CreateObject(), *problems = cJSON_CreateArray();
    cJSON_AddNumberToObject(m, "manifest_version", MANIFEST_VERSION);
    cJSON_AddStringToObject(m, "run_id", info->run_id);
    cJSON_AddStringToObject(m, "started_utc", info->started_utc);
    cJSON_AddStringToObject(m, "finished_utc", now);
    cJSON_AddItemToObject(m, "seed", skb_json_seed(info->seed));
    cJSON_AddBoolToObject(m, "quick", info->quick);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "machine"), "key", loaded ? r->machine_key : "unknown");
    cJSON_AddItemToObject(m, "binary", binary_obj(info));
    cJSON_AddItemToObject(m, "experiments", cJSON_Duplicate(info->experiments, 1));
    if (info->seconds)
        cJSON_AddItemToObject(m, "experiment_seconds", cJSON_Duplicate(info->seconds, 1));
    if (info->partial)
        add_problem(problems, "partial run (%s): not every method, dataset or experiment", info->partial, "");
    experiment_problems(info, problems);
    if (!loaded)
        add_problem(problems, "no results files", "", "");
    if (r->mixed[0])
        add_problem(problems, "%s", r->mixed, "");
    if (r->altered[0])
        add_problem(problems, "%s", r->altered, "");
    cJSON_AddItemToObject(m, "files", loaded ? files_table(r, info, problems) : cJSON_CreateObject());
    cJSON_AddBoolToObject(m, "complete", cJSON_GetArraySize(problems) == 0);
    cJSON_AddItemToObject(m, "problems", problems);
    return m;
}

int skb_manifest_write(const char *dir, const struct skb_manifest_info *info, char *msg, size_t msglen)
{
    struct skb_results *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(msg, msglen, "%s/manifest.json: out of memory", dir);
        return SKB_ENOMEM;
    }
    char lmsg[400], path[1100];
    int loaded = skb_results_load(dir, r, lmsg, sizeof lmsg) == 0;
    if (!loaded) {   /* a run that wrote no results file has nothing to vouch for: no manifest */
        free(r);
        return 0;
    }
    cJSON *m = manifest_doc(r, loaded, info);
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    int rc = skb_json_write_atomic(path, m, msg, msglen);
    cJSON_Delete(m);
    skb_results_free(r);
    free(r);
    return rc;
}

int skb_manifest_complete(const struct skb_results *r, char *msg, size_t msglen)
{
    if (r->mixed[0] || r->altered[0]) {
        snprintf(msg, msglen, "%s", r->mixed[0] ? r->mixed : r->altered);
        return 0;
    }
    if (!r->manifest) {
        snprintf(msg, msglen, "%s: no manifest.json (the run did not finish, or an older skinbench wrote it): not "
                 "a complete run", r->dir);
        return 0;
    }
    if (cJSON_IsTrue(skb__jget(r->manifest, "complete")))
        return 1;
    const char *why = skb__jstr(cJSON_GetArrayItem(skb__jget(r->manifest, "problems"), 0));
    snprintf(msg, msglen, "%s: not a complete run: %s", r->dir, why ? why : "its manifest says so");
    return 0;
}
