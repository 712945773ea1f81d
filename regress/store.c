/* store.c — the results store's database (skb_store.h): opened safely (a
 * regular file or nothing: never through a link, never a device or FIFO),
 * its schema made once (WAL journal, foreign keys, a trigger that keeps
 * every baseline a complete, verified, uninjected run of its own machine),
 * transactions, and the listings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "skb_json.h"
#include "store_internal.h"

#define STORE_SCHEMA_VERSION 1
/* a second writer (a nightly beside a `store list`) waits this long for the lock */
#define STORE_BUSY_MS 60000

/* Every table, once.  Measurements are interned by name (a year of nights
 * repeats the same few thousand names) and keyed without a row id.  The
 * pages a pruned file body frees are reused by the next nights' rows (a
 * year: 0.3 % of the file free), so the file is never vacuumed. */
static const char schema_sql[] =
    "CREATE TABLE machines(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);"
    "CREATE TABLE runs("
    "  id INTEGER PRIMARY KEY,"
    "  run_uid TEXT NOT NULL UNIQUE,"
    "  stamp_utc TEXT NOT NULL,"
    "  git_rev TEXT NOT NULL, git_describe TEXT NOT NULL,"
    "  binary_sha256 TEXT NOT NULL,"
    "  machine_id INTEGER NOT NULL REFERENCES machines(id),"
    "  seed TEXT NOT NULL,"
    "  quick INTEGER NOT NULL CHECK (quick IN (0, 1)),"
    "  complete INTEGER NOT NULL CHECK (complete IN (0, 1)),"
    "  verified INTEGER NOT NULL CHECK (verified IN (0, 1)),"
    "  injected TEXT,"
    "  manifest TEXT,"
    "  source TEXT NOT NULL, added_utc TEXT NOT NULL);"
    "CREATE INDEX runs_by_machine ON runs(machine_id, stamp_utc);"
    "CREATE TABLE files("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  name TEXT NOT NULL, experiment TEXT NOT NULL,"
    "  bytes INTEGER NOT NULL CHECK (bytes >= 0), sha256 TEXT NOT NULL,"
    "  body BLOB,"
    "  PRIMARY KEY (run_id, name));"
    "CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
    "CREATE TABLE measurements("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  metric INTEGER NOT NULL CHECK (metric IN (1, 2)),"
    "  name_id INTEGER NOT NULL REFERENCES names(id),"
    "  value REAL NOT NULL CHECK (value > 0),"
    "  PRIMARY KEY (run_id, metric, name_id)) WITHOUT ROWID;"
    "CREATE TABLE paired("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  method TEXT NOT NULL, delta REAL, lo REAL, hi REAL, rounds INTEGER, verdict TEXT NOT NULL,"
    "  PRIMARY KEY (run_id, method));"
    "CREATE TABLE binaries(sha256 TEXT PRIMARY KEY, body BLOB NOT NULL);"
    "CREATE TABLE baselines("
    "  machine_id INTEGER PRIMARY KEY REFERENCES machines(id),"
    "  run_id INTEGER NOT NULL REFERENCES runs(id),"
    "  binary_sha256 TEXT REFERENCES binaries(sha256),"
    "  set_utc TEXT NOT NULL);"
    /* the database itself refuses a baseline that is not a complete,
     * verified, uninjected run of the baseline's own machine */
    "CREATE TRIGGER baseline_insert BEFORE INSERT ON baselines BEGIN"
    "  SELECT RAISE(ABORT, 'a baseline must be a complete, verified run without an injected slow-down, of its own "
    "machine') WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = NEW.run_id AND r.machine_id = NEW.machine_id"
    "  AND r.complete = 1 AND r.verified = 1 AND r.injected IS NULL); END;"
    "CREATE TRIGGER baseline_update BEFORE UPDATE ON baselines BEGIN"
    "  SELECT RAISE(ABORT, 'a baseline must be a complete, verified run without an injected slow-down, of its own "
    "machine') WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = NEW.run_id AND r.machine_id = NEW.machine_id"
    "  AND r.complete = 1 AND r.verified = 1 AND r.injected IS NULL); END;";

int skb__store_err(struct skb_store *st, const char *what, char *msg, size_t msglen)
{
    snprintf(msg, msglen, "%.300s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
    return SKB_EIO;
}

int skb__store_exec(struct skb_store *st, const char *sql, const char *what, char *msg, size_t msglen)
{
    char *err = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &err) == SQLITE_OK)
        return 0;
    snprintf(msg, msglen, "%.300s: %s: %s", st->path, what, err ? err : sqlite3_errmsg(st->db));
    sqlite3_free(err);
    return SKB_EIO;
}

sqlite3_stmt *skb__store_prep(struct skb_store *st, const char *sql, char *msg, size_t msglen)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK) {
        skb__store_err(st, "preparing a query", msg, msglen);
        return NULL;
    }
    return q;
}

int skb__store_begin(struct skb_store *st, char *msg, size_t msglen)
{
    return skb__store_exec(st, "BEGIN IMMEDIATE", "cannot take the write lock", msg, msglen);
}

int skb__store_end(struct skb_store *st, int rc, char *msg, size_t msglen)
{
    if (rc == 0)
        return skb__store_exec(st, "COMMIT", "cannot commit", msg, msglen);
    char ignore[700];
    skb__store_exec(st, "ROLLBACK", "rollback", ignore, sizeof ignore);
    return rc;
}

void skb__store_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}

long long skb__store_machine(struct skb_store *st, const char *key, int add, char *msg, size_t msglen)
{
    sqlite3_stmt *q;
    if (add) {
        if (!(q = skb__store_prep(st, "INSERT OR IGNORE INTO machines(key) VALUES (?)", msg, msglen)))
            return -1;
        sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(q);
        sqlite3_finalize(q);
        if (rc != SQLITE_DONE)
            return skb__store_err(st, "adding a machine", msg, msglen), -1;
    }
    if (!(q = skb__store_prep(st, "SELECT id FROM machines WHERE key = ?", msg, msglen)))
        return -1;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    long long id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    return id;
}

/* the store's path, and SQLite's side files, must each be a regular file
 * or absent: a planted link, device or FIFO is refused by name.  SQLite's
 * unix VFS takes absolute paths of at most 512 bytes (its side files add up
 * to 8): a longer path is refused here, in one line, never cut */
#define STORE_PATH_MAX 500
static int check_paths(const char *path, char *msg, size_t msglen)
{
    static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
    char cwd[4096] = "";
    size_t full = strlen(path);
    if (path[0] != '/' && getcwd(cwd, sizeof cwd))
        full += strlen(cwd) + 1;
    if (!*path || full > STORE_PATH_MAX) {
        snprintf(msg, msglen, "%.200s...: a store path of %zu bytes (absolute); SQLite takes at most %d: choose a "
                 "shorter --store", path, full, STORE_PATH_MAX);
        return SKB_EINVAL;
    }
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        char p[STORE_PATH_MAX + 16];
        snprintf(p, sizeof p, "%s%s", path, sfx[i]);
        if (skb_output_check(p, msg, msglen) < 0)
            return SKB_EINVAL;
    }
    return 0;
}

/* the schema of a new store, or the check of an existing one's version */
static int ensure_schema(struct skb_store *st, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "PRAGMA user_version", msg, msglen);
    if (!q)
        return SKB_EIO;
    int v = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
    sqlite3_finalize(q);
    if (v == STORE_SCHEMA_VERSION)
        return 0;
    if (v != 0) {
        snprintf(msg, msglen, "%.300s: a store of schema version %d; this skinbench reads version %d", st->path, v,
                 STORE_SCHEMA_VERSION);
        return SKB_EINVAL;
    }
    char sql[sizeof schema_sql + 64];
    snprintf(sql, sizeof sql, "BEGIN IMMEDIATE;%sPRAGMA user_version = %d;COMMIT;", schema_sql, STORE_SCHEMA_VERSION);
    int rc = skb__store_exec(st, sql, "cannot create the schema", msg, msglen);
    if (rc < 0) {
        char ignore[700];
        skb__store_exec(st, "ROLLBACK", "rollback", ignore, sizeof ignore);
    }
    return rc;
}

/* WAL, foreign keys, durable commits (synchronous FULL), a busy timeout */
static int configure(struct skb_store *st, char *msg, size_t msglen)
{
    sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
    sqlite3_extended_result_codes(st->db, 1);
    int rc = skb__store_exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;", "cannot configure", msg,
                             msglen);
    sqlite3_stmt *q = rc == 0 ? skb__store_prep(st, "PRAGMA journal_mode = WAL", msg, msglen) : NULL;
    if (!q)
        return SKB_EIO;
    const char *mode = sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
    int wal = mode && strcmp(mode, "wal") == 0;
    sqlite3_finalize(q);
    if (!wal)
        return skb__store_err(st, "cannot switch to the WAL journal", msg, msglen);
    return 0;
}

int skb_store_open(const char *path, int create, struct skb_store **out, char *msg, size_t msglen)
{
    *out = NULL;
    if (check_paths(path, msg, msglen) < 0)
        return SKB_EINVAL;
    if (!create && access(path, F_OK) != 0) {
        /* a mistyped path is the likely cause: point at the usual one, and
         * say how a new store starts without steering the user to start it
         * at the typo */
        snprintf(msg, msglen, "%.300s: no results store here (check the path: the nightly keeps its store in "
                 "results/skinbench.sqlite; a new one starts with skinbench store add RUN_DIR --store FILE)", path);
        return SKB_EINVAL;
    }
    char dir[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (create && slash && slash != dir) {
        *slash = 0;
        if (skb_mkdirs(dir, msg, msglen) < 0)
            return SKB_EIO;
    }
    struct skb_store *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(msg, msglen, "%.300s: out of memory", path);
        return SKB_ENOMEM;
    }
    snprintf(st->path, sizeof st->path, "%s", path);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | (create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(path, &st->db, flags, NULL) == SQLITE_OK ? 0 : skb__store_err(st, "cannot open", msg,
                                                                                            msglen);
    if (rc == 0)
        rc = configure(st, msg, msglen);
    if (rc == 0)
        rc = ensure_schema(st, msg, msglen);
    if (rc < 0) {
        skb_store_close(st);
        return rc;
    }
    *out = st;
    return 0;
}

void skb_store_close(struct skb_store *st)
{
    if (!st)
        return;
    sqlite3_close(st->db);
    free(st);
}

struct sqlite3 *skb__store_db(struct skb_store *st)
{
    return st->db;
}

/* ---- look-ups and listings ---- */

int skb_store_list(struct skb_store *st, const char *machine, FILE *out, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st,
        "SELECT r.id, r.run_uid, r.stamp_utc, r.git_describe, m.key, r.complete, r.verified, r.injected,"
        " (SELECT count(*) FROM files f WHERE f.run_id = r.id), (SELECT count(*) FROM files f WHERE f.run_id = r.id"
        " AND f.body IS NULL), EXISTS (SELECT 1 FROM baselines b WHERE b.run_id = r.id)"
        " FROM runs r JOIN machines m ON m.id = r.machine_id WHERE ?1 IS NULL OR m.key = ?1"
        " ORDER BY m.key, r.stamp_utc, r.id", msg, msglen);
    if (!q)
        return SKB_EIO;
    if (machine)
        sqlite3_bind_text(q, 1, machine, -1, SQLITE_TRANSIENT);
    fprintf(out, "%-5s %-12s %-20s %-16s %-9s %-8s %s\n", "run", "run id", "started (UTC)", "revision", "state",
            "files", "machine");
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *inj = (const char *)sqlite3_column_text(q, 7);
        char state[40], files[40];
        snprintf(state, sizeof state, "%s%s%s%s", sqlite3_column_int(q, 10) ? "BASE " : "",
                 sqlite3_column_int(q, 5) ? "complete" : "partial", sqlite3_column_int(q, 6) ? "" : ",unverified",
                 inj ? ",injected" : "");
        snprintf(files, sizeof files, "%d%s", sqlite3_column_int(q, 8), sqlite3_column_int(q, 9) ? "(pruned)" : "");
        fprintf(out, "%-5lld %-12.12s %-20s %-16.16s %-9s %-8s %s\n", sqlite3_column_int64(q, 0),
                (const char *)sqlite3_column_text(q, 1), (const char *)sqlite3_column_text(q, 2),
                (const char *)sqlite3_column_text(q, 3), state, files, (const char *)sqlite3_column_text(q, 4));
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : skb__store_err(st, "listing the runs", msg, msglen);
}

int skb_store_list_baselines(struct skb_store *st, FILE *out, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st,
        "SELECT m.key, r.id, r.run_uid, r.stamp_utc, r.git_describe, b.binary_sha256, b.set_utc FROM baselines b"
        " JOIN machines m ON m.id = b.machine_id JOIN runs r ON r.id = b.run_id ORDER BY m.key", msg, msglen);
    if (!q)
        return SKB_EIO;
    int rc, n = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *bin = (const char *)sqlite3_column_text(q, 5);
        fprintf(out, "baseline of '%s': run %lld (%.12s, started %s, %s), binary %.12s, set %s\n",
                (const char *)sqlite3_column_text(q, 0), sqlite3_column_int64(q, 1),
                (const char *)sqlite3_column_text(q, 2), (const char *)sqlite3_column_text(q, 3),
                (const char *)sqlite3_column_text(q, 4), bin ? bin : "none", (const char *)sqlite3_column_text(q, 6));
        n++;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return skb__store_err(st, "listing the baselines", msg, msglen);
    if (n == 0)
        fprintf(out, "no baselines in %s (skinbench store add RUN_DIR --baseline sets one)\n", st->path);
    return 0;
}

int skb_store_run_info(struct skb_store *st, long long run, char *rev, size_t revlen, char *machine,
                       size_t machinelen, char *msg, size_t msglen)
{
    sqlite3_stmt *q = skb__store_prep(st, "SELECT r.git_rev, m.key FROM runs r JOIN machines m ON m.id = "
                                      "r.machine_id WHERE r.id = ?", msg, msglen);
    if (!q)
        return SKB_EIO;
    sqlite3_bind_int64(q, 1, run);
    int found = sqlite3_step(q) == SQLITE_ROW;
    if (found) {
        snprintf(rev, revlen, "%s", (const char *)sqlite3_column_text(q, 0));
        snprintf(machine, machinelen, "%s", (const char *)sqlite3_column_text(q, 1));
    }
    sqlite3_finalize(q);
    if (!found) {
        snprintf(msg, msglen, "%.300s: no run %lld", st->path, run);
        return SKB_EINVAL;
    }
    return 0;
}
