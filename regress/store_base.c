/* store_base.c — baselines and runs out of the results store
 * (skb_store.h): one baseline row per machine key, replaced in one
 * transaction with the binary that made it; a stored run read back as
 * results (compare), or written out as a new folder (export). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_sha256.h"
#include "store_internal.h"

/* what a baseline needs of its run, said before the database's trigger
 * (the last line of defence) would refuse it in general terms */
static int fit_for_baseline(struct skb_store *st, long long run, char *binsha, size_t binlen, char *msg,
                            size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "SELECT complete, verified, injected, binary_sha256 FROM runs WHERE id = ?",
                                      msg, msglen);
    if (!q)
        return SKB_EIO;
    sqlite3_bind_int64(q, 1, run);
    int rc = 0;
    if (sqlite3_step(q) != SQLITE_ROW) {
        snprintf(msg, msglen, "%.300s: no run %lld", st->path, run);
        rc = SKB_EINVAL;
    } else if (!sqlite3_column_int(q, 0)) {
        snprintf(msg, msglen, "run %lld is not complete (its manifest, or its files, say so): never a baseline", run);
        rc = SKB_EINVAL;
    } else if (!sqlite3_column_int(q, 1)) {
        snprintf(msg, msglen, "run %lld: cpu.json \"verified\" is not true: an unverified run is never a baseline",
                 run);
        rc = SKB_EINVAL;
    } else if (sqlite3_column_type(q, 2) != SQLITE_NULL) {
        snprintf(msg, msglen, "run %lld carries the injection marker (%s): a run with an injected slow-down is never "
                 "a baseline", run, (const char *)sqlite3_column_text(q, 2));
        rc = SKB_EINVAL;
    } else {
        snprintf(binsha, binlen, "%s", (const char *)sqlite3_column_text(q, 3));
    }
    sqlite3_finalize(q);
    return rc;
}

/* the executable that made the run, stored once by its SHA-256 */
static int put_binary(struct skb_store *st, const char *path, const char *want, char *sha, char *msg, size_t msglen)
{
    char *body;
    size_t len;
    int rc = skb_read_input(path, (size_t)1 << 30, 0, &body, &len, msg, msglen);
    if (rc < 0)
        return rc;
    if (skb_sha256_hex(body, len, sha) < 0 || (want[0] && strcmp(sha, want) != 0)) {
        snprintf(msg, msglen, "%.300s is not the binary that made the run (SHA-256 %.16s..., the run's manifest "
                 "names %.16s...)", path, sha, want);
        free(body);
        return SKB_EINVAL;
    }
    sqlite3_stmt *q = skb__store_prep(st, "INSERT OR IGNORE INTO binaries(sha256, body) VALUES (?, ?)", msg, msglen);
    if (q) {
        sqlite3_bind_text(q, 1, sha, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob64(q, 2, body, (sqlite3_uint64)len, SQLITE_TRANSIENT);
        rc = sqlite3_step(q) == SQLITE_DONE ? 0 : skb__store_err(st, "storing the binary", msg, msglen);
        sqlite3_finalize(q);
    } else {
        rc = SKB_EIO;
    }
    free(body);
    return rc;
}

int skb__store_put_baseline(struct skb_store *st, long long run, const char *binary, char *msg, size_t msglen)
{
    char want[80], sha[SKB_SHA256_HEX] = "", now[32];
    int rc = fit_for_baseline(st, run, want, sizeof want, msg, msglen);
    if (rc == 0 && binary)
        rc = put_binary(st, binary, want, sha, msg, msglen);
    sqlite3_stmt *q = rc == 0 ? skb__store_prep(st,
        "INSERT INTO baselines(machine_id, run_id, binary_sha256, set_utc) SELECT machine_id, id, ?2, ?3 FROM runs"
        " WHERE id = ?1 ON CONFLICT(machine_id) DO UPDATE SET run_id = excluded.run_id,"
        " binary_sha256 = excluded.binary_sha256, set_utc = excluded.set_utc", msg, msglen) : NULL;
    if (!q)
        return rc < 0 ? rc : SKB_EIO;
    skb__store_now(now, sizeof now);
    sqlite3_bind_int64(q, 1, run);
    if (sha[0])
        sqlite3_bind_text(q, 2, sha, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 3, now, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(q) == SQLITE_DONE ? 0 : skb__store_err(st, "replacing the baseline", msg, msglen);
    sqlite3_finalize(q);
    /* a binary no baseline names any more is dropped */
    if (rc == 0)
        rc = skb__store_exec(st, "DELETE FROM binaries WHERE sha256 NOT IN (SELECT binary_sha256 FROM baselines "
                             "WHERE binary_sha256 IS NOT NULL)", "dropping an old binary", msg, msglen);
    return rc;
}

int skb_store_set_baseline(struct skb_store *st, long long run, const char *binary, char *msg, size_t msglen)
{
    int rc = skb__store_begin(st, msg, msglen);
    if (rc == 0)
        rc = skb__store_end(st, skb__store_put_baseline(st, run, binary, msg, msglen), msg, msglen);
    return rc;
}

long long skb_store_baseline(struct skb_store *st, const char *machine, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "SELECT b.run_id FROM baselines b JOIN machines m ON m.id = b.machine_id "
                                      "WHERE m.key = ?", msg, msglen);
    if (!q)
        return -1;
    sqlite3_bind_text(q, 1, machine, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    long long run = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return skb__store_err(st, "reading the baseline", msg, msglen), -1;
    return run;
}

/* ---- a run by name ---- */

static int all_hex(const char *s)
{
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

/* the run whose run id starts with prefix, when exactly one does */
static int find_by_uid(struct skb_store *st, const char *spec, long long *run, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "SELECT id FROM runs WHERE substr(run_uid, 1, length(?1)) = ?1 LIMIT 2",
                                      msg, msglen);
    if (!q)
        return SKB_EIO;
    sqlite3_bind_text(q, 1, spec, -1, SQLITE_TRANSIENT);
    int n = 0;
    while (sqlite3_step(q) == SQLITE_ROW)
        if (n++ == 0)
            *run = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    if (n == 1)
        return 0;
    snprintf(msg, msglen, "%.300s: %s run id '%.80s' (skinbench store list shows the runs)", st->path,
             n ? "more than one run has the" : "no run has the", spec);
    return SKB_EINVAL;
}

int skb_store_find_run(struct skb_store *st, const char *spec, const char *machine, long long *run, char *msg,
                       size_t msglen)
{
    char *end;
    if (strcmp(spec, "baseline") == 0) {
        if (!machine) {
            snprintf(msg, msglen, "'baseline' needs the machine (--machine KEY or --for RUN_DIR)");
            return SKB_EINVAL;
        }
        long long b = skb_store_baseline(st, machine, msg, msglen);
        if (b <= 0) {
            if (b == 0)
                snprintf(msg, msglen, "%.300s: no baseline for machine '%.200s'", st->path, machine);
            return SKB_EINVAL;
        }
        *run = b;
        return 0;
    }
    long long id = strtoll(spec, &end, 10);
    if (*spec && !*end && id > 0 && strlen(spec) < 6) {
        sqlite3_stmt *q = skb__store_prep(st, "SELECT id FROM runs WHERE id = ?", msg, msglen);
        if (!q)
            return SKB_EIO;
        sqlite3_bind_int64(q, 1, id);
        int found = sqlite3_step(q) == SQLITE_ROW;
        sqlite3_finalize(q);
        if (found) {
            *run = id;
            return 0;
        }
        snprintf(msg, msglen, "%.300s: no run %lld (skinbench store list shows the runs)", st->path, id);
        return SKB_EINVAL;
    }
    if (strlen(spec) >= 6 && all_hex(spec))
        return find_by_uid(st, spec, run, msg, msglen);
    snprintf(msg, msglen, "run '%.80s': expected a row id, 6 or more hex digits of a run id, or baseline", spec);
    return SKB_EINVAL;
}

/* ---- a stored run's files ---- */

struct run_files {
    int n;
    char *name[SKB_RF_MAX + 8];
    char *body[SKB_RF_MAX + 8];
    size_t len[SKB_RF_MAX + 8];
    char *manifest;
};

static void files_free(struct run_files *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->name[i]);
        free(f->body[i]);
    }
    free(f->manifest);
    memset(f, 0, sizeof *f);
}

static char *dup_text(const unsigned char *t)
{
    return strdup(t ? (const char *)t : "");
}

/* the run's files (every body: a pruned one is an error naming the run) and manifest */
static int files_read(struct skb_store *st, long long run, struct run_files *f, char *msg, size_t msglen)
{
    memset(f, 0, sizeof *f);
    sqlite3_stmt *q = skb__store_prep(st, "SELECT name, body, body IS NULL FROM files WHERE run_id = ? ORDER BY name",
                                      msg, msglen);
    if (!q)
        return SKB_EIO;
    sqlite3_bind_int64(q, 1, run);
    int rc = 0;
    while (rc == 0 && sqlite3_step(q) == SQLITE_ROW && f->n < SKB_RF_MAX + 8) {
        if (sqlite3_column_int(q, 2)) {
            snprintf(msg, msglen, "%.300s: the files of run %lld were pruned (the store keeps the newest %d runs' "
                     "files per machine, and every baseline's); its measurements remain", st->path, run,
                     SKB_STORE_KEEP_FILES);
            rc = SKB_EINVAL;
            break;
        }
        size_t n = (size_t)sqlite3_column_bytes(q, 1);
        char *b = malloc(n + 1);
        if (b) {
            memcpy(b, sqlite3_column_blob(q, 1), n);
            b[n] = 0;
        }
        f->name[f->n] = dup_text(sqlite3_column_text(q, 0));
        f->body[f->n] = b;
        f->len[f->n++] = n;
        rc = b ? 0 : SKB_ENOMEM;
    }
    sqlite3_finalize(q);
    if (rc < 0)
        return rc;
    if (!(q = skb__store_prep(st, "SELECT manifest FROM runs WHERE id = ?", msg, msglen)))
        return SKB_EIO;
    sqlite3_bind_int64(q, 1, run);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL)
        f->manifest = dup_text(sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    if (f->n == 0) {
        snprintf(msg, msglen, "%.300s: run %lld has no files", st->path, run);
        return SKB_EINVAL;
    }
    return 0;
}

int skb_store_load_run(struct skb_store *st, long long run, struct skb_results *r, char *msg, size_t msglen)
{
    struct run_files f;
    int rc = files_read(st, run, &f, msg, msglen);
    if (rc == 0) {
        char label[1100];
        snprintf(label, sizeof label, "%.900s#run%lld", st->path, run);
        rc = skb_results_load_texts(label, f.n, (const char *const *)f.name, (const char *const *)f.body, f.len,
                                    f.manifest, f.manifest ? strlen(f.manifest) : 0, r, msg, msglen);
    }
    files_free(&f);
    return rc;
}

/* one file of an export, created new in the staging folder (never through a link) */
static int write_new(int dfd, const char *name, const char *body, size_t len, char *msg, size_t msglen)
{
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    size_t done = 0;
    while (fd >= 0 && done < len) {
        ssize_t w = write(fd, body + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = fd >= 0 && done == len && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (!ok)
        snprintf(msg, msglen, "%.200s: cannot write the export: %s", name, strerror(errno));
    return ok ? 0 : SKB_EIO;
}

static void remove_staging(const char *dir, const struct run_files *f)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    for (int i = 0; dfd >= 0 && i < f->n; i++)
        unlinkat(dfd, f->name[i], 0);
    if (dfd >= 0) {
        unlinkat(dfd, "manifest.json", 0);
        close(dfd);
    }
    rmdir(dir);
}

int skb_store_export(struct skb_store *st, long long run, const char *out_dir, char *msg, size_t msglen)
{
    struct stat sb;
    if (lstat(out_dir, &sb) == 0) {
        snprintf(msg, msglen, "%.300s exists: an export writes a new folder, never into or over one", out_dir);
        return SKB_EINVAL;
    }
    struct run_files f;
    int rc = files_read(st, run, &f, msg, msglen);
    char stage[1200];
    snprintf(stage, sizeof stage, "%s.export-XXXXXX", out_dir);
    if (rc == 0 && !mkdtemp(stage)) {
        snprintf(msg, msglen, "%.300s: cannot create the export's staging folder: %s", stage, strerror(errno));
        rc = SKB_EIO;
    }
    int dfd = rc == 0 ? open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    for (int i = 0; rc == 0 && i < f.n; i++)
        rc = write_new(dfd, f.name[i], f.body[i], f.len[i], msg, msglen);
    if (rc == 0 && f.manifest)
        rc = write_new(dfd, "manifest.json", f.manifest, strlen(f.manifest), msg, msglen);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    /* the folder appears whole, under its name, or not at all */
    if (rc == 0 && renameat2(AT_FDCWD, stage, AT_FDCWD, out_dir, RENAME_NOREPLACE) != 0) {
        snprintf(msg, msglen, "%.300s: cannot create: %s", out_dir, strerror(errno));
        rc = SKB_EIO;
    }
    if (rc < 0 && stage[0] && strstr(stage, "XXXXXX") == NULL)
        remove_staging(stage, &f);
    files_free(&f);
    return rc;
}

int skb_store_export_binary(struct skb_store *st, const char *machine, const char *path, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "SELECT x.body FROM baselines b JOIN machines m ON m.id = b.machine_id "
                                      "JOIN binaries x ON x.sha256 = b.binary_sha256 WHERE m.key = ?", msg, msglen);
    if (!q)
        return SKB_EIO;
    sqlite3_bind_text(q, 1, machine, -1, SQLITE_TRANSIENT);
    int rc;
    if (sqlite3_step(q) != SQLITE_ROW) {
        snprintf(msg, msglen, "%.300s: the baseline of machine '%.200s' has no binary (none, or set without "
                 "--binary)", st->path, machine);
        rc = SKB_EINVAL;
    } else {
        rc = skb_write_atomic(path, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0), msg, msglen);
        if (rc == 0 && chmod(path, 0755) != 0) {
            snprintf(msg, msglen, "%.300s: cannot make it executable: %s", path, strerror(errno));
            rc = SKB_EIO;
        }
    }
    sqlite3_finalize(q);
    return rc;
}
