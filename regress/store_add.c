/* store_add.c — runs into the results store (skb_store.h): a run's folder
 * is read and checked whole (every file against its schema and the run's
 * manifest; one machine key, seed, run id and binary), then its row, its
 * files and its measurements go in with one transaction, the baseline too
 * when asked.  Old folders (results/baseline, results/history/STAMP,
 * written before manifests) import once, as runs without one. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_gbench.h"
#include "skb_sha256.h"
#include "skb_stats.h"
#include "report_internal.h"   /* skb__jget, skb__jstr */
#include "store_internal.h"

/* what a run row holds beyond its files */
struct run_row {
    const char *uid, *stamp, *git_rev, *git_describe, *binary, *seed, *injected, *source;
    int quick, complete, verified;
    const char *manifest;      /* its text, or NULL */
};

/* the injection marker of any file (compare.c refuses such a baseline too) */
static const char *injected_marker(const struct skb_results *r)
{
    for (int i = 0; i < skb_rfile_count(); i++) {
        const cJSON *d = r->doc[i], *inj = skb__jget(d, "injected_slowdown");
        if (inj && !cJSON_IsNull(inj))
            return "injected_slowdown";
        if (skb__jstr(skb__jget(d, "injected")))
            return skb__jstr(skb__jget(d, "injected"));
        if (skb__jget(skb__jget(d, "context"), "injected_slowdown"))
            return "injected_slowdown";
    }
    return NULL;
}

static int verified(const struct skb_results *r)
{
    const cJSON *cpu = skb_results_doc(r, "cpu.json");
    return cpu && cJSON_IsTrue(skb__jget(cpu, "verified"));
}

static long long insert_run(struct skb_store *st, long long machine, const struct run_row *w, char *msg,
                            size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st,
        "INSERT INTO runs(run_uid, stamp_utc, git_rev, git_describe, binary_sha256, machine_id, seed, quick, complete,"
        " verified, injected, manifest, source, added_utc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", msg, msglen);
    if (!q)
        return -1;
    char now[32];
    skb__store_now(now, sizeof now);
    const char *txt[] = { w->uid, w->stamp, w->git_rev, w->git_describe, w->binary };
    for (int i = 0; i < 5; i++)
        sqlite3_bind_text(q, i + 1, txt[i] ? txt[i] : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 6, machine);
    sqlite3_bind_text(q, 7, w->seed ? w->seed : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 8, w->quick);
    sqlite3_bind_int(q, 9, w->complete);
    sqlite3_bind_int(q, 10, w->verified);
    if (w->injected)
        sqlite3_bind_text(q, 11, w->injected, -1, SQLITE_TRANSIENT);
    if (w->manifest)
        sqlite3_bind_text(q, 12, w->manifest, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 13, w->source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 14, now, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return skb__store_err(st, "adding the run", msg, msglen), -1;
    return sqlite3_last_insert_rowid(st->db);
}

/* every results file of the folder, read again and stored with its bytes:
 * a file whose bytes changed since the run was checked is refused */
static int insert_files(struct skb_store *st, long long run, const struct skb_results *r, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "INSERT INTO files(run_id, name, experiment, bytes, sha256, body) "
                                      "VALUES (?,?,?,?,?,?)", msg, msglen);
    int rc = q ? 0 : SKB_EIO;
    for (int i = 0; rc == 0 && i < skb_rfile_count(); i++) {
        if (!r->doc[i])
            continue;
        char path[1400], *text, sha[SKB_SHA256_HEX];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", r->dir, skb_rfile_name(i));
        if ((rc = skb_read_file_max(path, SKB_RESULTS_FILE_MAX, &text, &len, msg, msglen)) < 0)
            break;
        if (skb_sha256_hex(text, len, sha) < 0 || strcmp(sha, r->sha256[i]) != 0) {
            snprintf(msg, msglen, "%.900s: changed while it was being stored; nothing stored", path);
            free(text);
            rc = SKB_EINVAL;
            break;
        }
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_text(q, 2, skb_rfile_name(i), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, skb_rfile_experiment(i), -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 4, (sqlite3_int64)len);
        sqlite3_bind_text(q, 5, sha, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob64(q, 6, text, (sqlite3_uint64)len, SQLITE_TRANSIENT);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = skb__store_err(st, "storing a file", msg, msglen);
        free(text);
    }
    sqlite3_finalize(q);
    return rc;
}

/* ---- measurements: interned names, one row per (run, metric, name) ---- */

struct meas {
    struct skb_store *st;
    sqlite3_stmt *name_ins, *name_get, *put;
    long long run;
};

static long long name_id(struct meas *m, const char *name)
{
    sqlite3_reset(m->name_get);
    sqlite3_bind_text(m->name_get, 1, name, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(m->name_get) == SQLITE_ROW)
        return sqlite3_column_int64(m->name_get, 0);
    sqlite3_reset(m->name_ins);
    sqlite3_bind_text(m->name_ins, 1, name, -1, SQLITE_TRANSIENT);
    return sqlite3_step(m->name_ins) == SQLITE_DONE ? sqlite3_last_insert_rowid(m->st->db) : -1;
}

/* one measurement; a value that is not a finite positive number is not a
 * measurement and is left out (the gates name it) */
static int put(struct meas *m, int metric, const char *name, double v)
{
    if (!(isfinite(v) && v > 0))
        return 0;
    long long id = name_id(m, name);
    if (id < 0)
        return -1;
    sqlite3_reset(m->put);
    sqlite3_bind_int64(m->put, 1, m->run);
    sqlite3_bind_int(m->put, 2, metric);
    sqlite3_bind_int64(m->put, 3, id);
    sqlite3_bind_double(m->put, 4, v);
    return sqlite3_step(m->put) == SQLITE_DONE ? 0 : -1;
}

static int put_times(struct meas *m, const cJSON *gdoc)
{
    struct skb_gbench_set g;
    char msg[300];
    if (!gdoc || skb_gbench_parse(gdoc, &g, msg, sizeof msg) < 0)
        return 0;   /* the run's check already refused an unreadable one */
    int rc = 0;
    for (int i = 0; rc == 0 && i < g.n; i++)
        rc = put(m, SKB_METRIC_CPU_NS, g.b[i].name, skb_median(g.b[i].time_ns, g.b[i].nrep));
    skb_gbench_set_free(&g);
    return rc;
}

static int put_counts(struct meas *m, const cJSON *idoc)
{
    const cJSON *k;
    int rc = 0;
    if (!cJSON_IsTrue(skb__jget(idoc, "available")))
        return 0;
    cJSON_ArrayForEach(k, skb__jget(idoc, "kernels")) {
        double v;
        if (rc == 0 && k->string && skb_json_get_number(k, &v) == 0)
            rc = put(m, SKB_METRIC_ICOUNT, k->string, v);
    }
    return rc;
}

static int insert_measurements(struct skb_store *st, long long run, const struct skb_results *r, char *msg,
                               size_t msglen)
{
    struct meas m = { st, skb__store_prep(st, "INSERT INTO names(name) VALUES (?)", msg, msglen),
                      skb__store_prep(st, "SELECT id FROM names WHERE name = ?", msg, msglen),
                      skb__store_prep(st, "INSERT INTO measurements(run_id, metric, name_id, value) VALUES (?,?,?,?)",
                                      msg, msglen), run };
    int rc = m.name_ins && m.name_get && m.put ? 0 : SKB_EIO;
    if (rc == 0 && (put_times(&m, skb_results_doc(r, "cpu-gbench.json")) < 0
                    || put_counts(&m, skb_results_doc(r, "icount.json")) < 0))
        rc = skb__store_err(st, "storing the measurements", msg, msglen);
    sqlite3_finalize(m.name_ins);
    sqlite3_finalize(m.name_get);
    sqlite3_finalize(m.put);
    return rc;
}

/* the night's paired A/B estimates per method, from the compare.json the
 * nightly's compare wrote into the folder (absent: none stored) */
static int insert_paired(struct skb_store *st, long long run, const char *dir, char *msg, size_t msglen)
{
    char path[1400], lmsg[300];
    cJSON *doc = NULL;
    snprintf(path, sizeof path, "%s/compare.json", dir);
    if (access(path, F_OK) != 0 || skb_json_read_file(path, &doc, lmsg, sizeof lmsg) < 0)
        return 0;
    const cJSON *ab = skb__jget(doc, "ab"), *row;
    double rounds = 0;
    skb_json_get_number(skb__jget(ab, "rounds"), &rounds);
    sqlite3_stmt *q = skb__store_prep(st, "INSERT OR REPLACE INTO paired(run_id, method, delta, lo, hi, rounds, "
                                      "verdict) VALUES (?,?,?,?,?,?,?)", msg, msglen);
    int rc = q ? 0 : SKB_EIO;
    cJSON_ArrayForEach(row, skb__jget(ab, "per_method")) {
        const char *g = skb__jstr(skb__jget(row, "group")), *v = skb__jstr(skb__jget(row, "verdict"));
        double x[3] = { NAN, NAN, NAN };
        static const char *const keys[] = { "delta", "ci_low", "ci_high" };
        if (rc < 0 || !g || !v)
            continue;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_text(q, 2, g, -1, SQLITE_TRANSIENT);
        for (int k = 0; k < 3; k++)
            if (skb_json_get_number(skb__jget(row, keys[k]), &x[k]) == 0 && isfinite(x[k]))
                sqlite3_bind_double(q, 3 + k, x[k]);
            else
                sqlite3_bind_null(q, 3 + k);
        sqlite3_bind_int(q, 6, (int)rounds);
        sqlite3_bind_text(q, 7, v, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = skb__store_err(st, "storing the paired estimates", msg, msglen);
    }
    sqlite3_finalize(q);
    cJSON_Delete(doc);
    return rc;
}

/* file bodies of a machine's older runs dropped (measurements, hashes and
 * manifest stay): the newest `keep` runs and every baseline keep theirs */
static int prune(struct skb_store *st, long long machine, int keep, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st,
        "UPDATE files SET body = NULL WHERE body IS NOT NULL AND run_id IN (SELECT id FROM runs WHERE machine_id = ?1"
        " AND id NOT IN (SELECT run_id FROM baselines) ORDER BY stamp_utc DESC, id DESC LIMIT -1 OFFSET ?2)",
        msg, msglen);
    if (!q)
        return SKB_EIO;
    sqlite3_bind_int64(q, 1, machine);
    sqlite3_bind_int(q, 2, keep);
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : skb__store_err(st, "pruning old files", msg, msglen);
    sqlite3_finalize(q);
    return rc;
}

/* the row of a run already stored (its run id), 0 when new */
static long long stored_as(struct skb_store *st, const char *uid, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "SELECT id FROM runs WHERE run_uid = ?", msg, msglen);
    if (!q)
        return -1;
    sqlite3_bind_text(q, 1, uid, -1, SQLITE_TRANSIENT);
    long long id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    return id;
}

/* the run's row, files and measurements, then the baseline when asked, in
 * one transaction: all of it is stored, or none */
static int store_run(struct skb_store *st, const struct skb_results *r, const struct run_row *w,
                     const struct skb_store_add_opts *o, long long *run, char *msg, size_t msglen)
{
    int rc = skb__store_begin(st, msg, msglen);
    if (rc < 0)
        return rc;
    long long machine = skb__store_machine(st, r->machine_key, 1, msg, msglen), id = -1;
    if (machine <= 0 || (id = insert_run(st, machine, w, msg, msglen)) < 0)
        rc = SKB_EIO;
    if (rc == 0)
        rc = insert_files(st, id, r, msg, msglen);
    if (rc == 0)
        rc = insert_measurements(st, id, r, msg, msglen);
    if (rc == 0)
        rc = insert_paired(st, id, r->dir, msg, msglen);
    if (rc == 0 && o && o->baseline)
        rc = skb__store_put_baseline(st, id, o->binary, msg, msglen);
    if (rc == 0)
        rc = prune(st, machine, o && o->keep_files > 0 ? o->keep_files : SKB_STORE_KEEP_FILES, msg, msglen);
    rc = skb__store_end(st, rc, msg, msglen);
    if (rc == 0)
        *run = id;
    return rc;
}

/* a folder without a manifest is complete by its files: every registered
 * experiment's results present and readable, one run's, none unknown */
static int complete_by_files(const struct skb_results *r)
{
    if (r->mixed[0] || r->altered[0] || r->nbad || r->nunknown)
        return 0;
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        int any = 0;
        for (int i = 0; d->files && d->files[i].file; i++) {
            int k = skb_rfile_find(d->files[i].file);
            any |= k >= 0 && r->doc[k] != NULL;
        }
        if (!any)
            return 0;
    }
    return 1;
}

/* a folder fit for the store: every file readable, one run, its manifest complete */
static int admissible(const struct skb_results *r, char *msg, size_t msglen)
{
    for (int i = 0; i < skb_rfile_count(); i++)
        if (r->err[i][0]) {
            snprintf(msg, msglen, "%s", r->err[i]);
            return SKB_EINVAL;
        }
    for (int i = 0; i < r->nunknown && i < SKB_MAX_UNKNOWN; i++) {
        snprintf(msg, msglen, "%.300s/%.100s: a results file no registered experiment writes: not one of this "
                 "build's runs", r->dir, r->unknown[i]);
        return SKB_EINVAL;
    }
    if (!skb_manifest_complete(r, msg, msglen))
        return SKB_EINVAL;
    /* the manifest is not taken on its word: every experiment's results
     * are there, and the timing file reads (a time unit the reader does
     * not know would be left out of every gate and of the history) */
    if (!complete_by_files(r)) {
        snprintf(msg, msglen, "%.300s: its manifest says complete, but not every experiment's results are here (or "
                 "a file is unknown): not a complete run", r->dir);
        return SKB_EINVAL;
    }
    struct skb_gbench_set g;
    char why[300];
    const cJSON *gb = skb_results_doc(r, "cpu-gbench.json");
    if (gb && skb_gbench_parse(gb, &g, why, sizeof why) < 0) {
        snprintf(msg, msglen, "%.300s/cpu-gbench.json: %s", r->dir, why);
        return SKB_EINVAL;
    }
    if (gb)
        skb_gbench_set_free(&g);
    if (strcmp(r->machine_key, "unknown") == 0) {
        snprintf(msg, msglen, "%.300s: no file names its machine: a run is stored under its machine key", r->dir);
        return SKB_EINVAL;
    }
    return 0;
}

static const char *mstr(const cJSON *m, const char *a, const char *b)
{
    const cJSON *x = skb__jget(m, a);
    return skb__jstr(b ? skb__jget(x, b) : x);
}

int skb_store_add(struct skb_store *st, const char *dir, const struct skb_store_add_opts *o, long long *run,
                  char *msg, size_t msglen)
{
    struct skb_results *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(msg, msglen, "%.300s: out of memory", dir);
        return SKB_ENOMEM;
    }
    int rc = skb_results_load(dir, r, msg, msglen);
    if (rc == 0)
        rc = admissible(r, msg, msglen);
    char *mtext = NULL, mpath[1400];
    size_t mlen;
    snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
    /* the manifest's own bytes (export gives them back as they were) */
    if (rc == 0)
        rc = skb_read_file_max(mpath, SKB_RESULTS_FILE_MAX, &mtext, &mlen, msg, msglen);
    long long had = rc == 0 ? stored_as(st, r->run_id, msg, msglen) : 0;
    if (had < 0)
        rc = SKB_EIO;
    if (rc == 0 && had > 0) {
        *run = had;
        rc = o && o->baseline ? skb_store_set_baseline(st, had, o->binary, msg, msglen) : 0;
        rc = rc < 0 ? rc : 1;
    } else if (rc == 0) {
        const cJSON *m = r->manifest;
        struct run_row w = { r->run_id, mstr(m, "started_utc", NULL), mstr(m, "binary", "git_rev"),
                             mstr(m, "binary", "git_describe"), mstr(m, "binary", "sha256"), r->seed,
                             injected_marker(r), dir, cJSON_IsTrue(skb__jget(m, "quick")), 1, verified(r), mtext };
        rc = store_run(st, r, &w, o, run, msg, msglen);
    }
    free(mtext);
    skb_results_free(r);
    free(r);
    return rc;
}

/* ---- the old folders, once ---- */

/* "legacy-" and the first 24 hex digits of the SHA-256 of its files' hashes:
 * importing the same folder twice finds it stored */
static void legacy_uid(const struct skb_results *r, char *uid, size_t len)
{
    char all[SKB_RF_MAX * 65 + 1] = "", sha[SKB_SHA256_HEX];
    for (int i = 0; i < skb_rfile_count(); i++)
        strcat(all, r->sha256[i]);
    if (skb_sha256_hex(all, strlen(all), sha) < 0)
        sha[0] = 0;
    snprintf(uid, len, "legacy-%.24s", sha);
}

/* a night's name STAMP (2026-01-02T0300Z) as ISO 8601, else the run's own start time */
static void legacy_stamp(const struct skb_results *r, const char *name, char *out, size_t len)
{
    int y, mo, d, h, mi;
    char z;
    if (name && sscanf(name, "%4d-%2d-%2dT%2d%2d%c", &y, &mo, &d, &h, &mi, &z) == 6 && z == 'Z') {
        snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:00Z", y, mo, d, h, mi);
        return;
    }
    for (int i = 0; i < skb_rfile_count(); i++)
        if (skb__jstr(skb__jget(r->doc[i], "started_utc"))) {
            snprintf(out, len, "%s", skb__jstr(skb__jget(r->doc[i], "started_utc")));
            return;
        }
    snprintf(out, len, "%s", name ? name : "unknown");
}

/* one old folder as a run without a manifest; *run its row (0 when it
 * cannot be one: no file readable) */
static int import_one(struct skb_store *st, const char *dir, const char *name, const struct skb_store_add_opts *o,
                      long long *run, FILE *out, char *msg, size_t msglen)
{
    struct skb_results *r = calloc(1, sizeof *r);
    char uid[64], stamp[40];
    int rc = r ? skb_results_load(dir, r, msg, msglen) : SKB_ENOMEM;
    *run = 0;
    if (rc == 0 && r->mixed[0]) {
        fprintf(out, "store import: %s skipped: %s\n", dir, r->mixed);
    } else if (rc == 0) {
        legacy_uid(r, uid, sizeof uid);
        legacy_stamp(r, name, stamp, sizeof stamp);
        long long had = stored_as(st, uid, msg, msglen);
        struct run_row w = { uid, stamp, "", "", r->binary_sha256, r->seed, injected_marker(r), dir, 0,
                             complete_by_files(r), verified(r), NULL };
        if (had > 0) {
            *run = had;
        } else if (had == 0 && (rc = store_run(st, r, &w, o, run, msg, msglen)) == 0) {
            fprintf(out, "store import: %s as run %lld (%s, machine %s, no manifest)\n", dir, *run,
                    w.complete ? "complete by its files" : "partial", r->machine_key);
        }
        rc = had < 0 ? SKB_EIO : rc;
    }
    if (r)
        skb_results_free(r);
    free(r);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every night under hist, oldest first (the names sort by time) */
static int import_history(struct skb_store *st, const char *hist, FILE *out, char *msg, size_t msglen)
{
    DIR *d = opendir(hist);
    if (!d) {
        snprintf(msg, msglen, "%.300s: cannot open the history folder", hist);
        return SKB_EIO;
    }
    char **names = NULL;
    int n = 0, cap = 0, rc = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && (n < cap || (names = realloc(names, (size_t)(cap = cap ? 2 * cap : 64)
                                                                          * sizeof *names))))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    for (int i = 0; i < n; i++) {
        char p[1400];
        long long run;
        snprintf(p, sizeof p, "%s/%s", hist, names[i] ? names[i] : "");
        struct skb_results probe;
        char pm[300];
        if (rc == 0 && names[i] && skb_results_load(p, &probe, pm, sizeof pm) == 0) {
            skb_results_free(&probe);
            rc = import_one(st, p, names[i], NULL, &run, out, msg, msglen);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* the old baseline: one run, or one run per machine; bin/skinbench (the
 * binary that made a one-run baseline) kept with it */
static int import_baseline(struct skb_store *st, const char *base, FILE *out, char *msg, size_t msglen)
{
    struct skb_results *runs = calloc(SKB_MAX_RUNS, sizeof *runs);
    int n = 0;
    int rc = runs ? skb_results_load_many(base, runs, SKB_MAX_RUNS, &n, msg, msglen) : SKB_ENOMEM;
    char bin[1400];
    snprintf(bin, sizeof bin, "%s/bin/skinbench", base);
    for (int k = 0; rc == 0 && k < n; k++) {
        long long run;
        rc = import_one(st, runs[k].dir, NULL, NULL, &run, out, msg, msglen);
        if (rc < 0 || run <= 0)
            continue;
        char why[600];
        int brc = skb_store_set_baseline(st, run, n == 1 && access(bin, X_OK) == 0 ? bin : NULL, why, sizeof why);
        fprintf(out, "store import: %s %s\n", runs[k].dir,
                brc == 0 ? "is now its machine's baseline" : "not made a baseline:");
        if (brc < 0)
            fprintf(out, "  %s\n", why);
    }
    for (int k = 0; k < n; k++)
        skb_results_free(&runs[k]);
    free(runs);
    return rc;
}

int skb_store_import(struct skb_store *st, const char *baseline, const char *history, FILE *out, char *msg,
                     size_t msglen)
{
    int rc = 0;
    if (history)
        rc = import_history(st, history, out, msg, msglen);
    if (rc == 0 && baseline)
        rc = import_baseline(st, baseline, out, msg, msglen);
    return rc;
}
