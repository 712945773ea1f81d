/* store_internal.h — shared by the files of the results store (store.c:
 * the database and its schema; store_add.c: runs in; store_base.c:
 * baselines and runs out; skb_store.h is the public side). */
#ifndef SKB_STORE_INTERNAL_H
#define SKB_STORE_INTERNAL_H

#include <sqlite3.h>
#include "skb_store.h"

struct skb_store {
    sqlite3 *db;
    char path[1024];
};

/* run sql (no rows); 0, or SKB_EIO with msg "STORE: what: SQLite's message" */
int skb__store_exec(struct skb_store *st, const char *sql, const char *what, char *msg, size_t msglen);
/* msg from the database's last error; returns SKB_EIO */
int skb__store_err(struct skb_store *st, const char *what, char *msg, size_t msglen);
/* prepare sql; NULL with msg on failure */
sqlite3_stmt *skb__store_prep(struct skb_store *st, const char *sql, char *msg, size_t msglen);
/* BEGIN IMMEDIATE (the write lock now, waiting up to the busy timeout), and
 * its end: COMMIT when rc == 0, else ROLLBACK; returns rc, or the commit's error */
int skb__store_begin(struct skb_store *st, char *msg, size_t msglen);
int skb__store_end(struct skb_store *st, int rc, char *msg, size_t msglen);
/* the row id of machine key (added when add = 1); 0 when absent, -1 on error */
long long skb__store_machine(struct skb_store *st, const char *key, int add, char *msg, size_t msglen);
/* UTC now as ISO 8601 ("2026-01-01T03:00:00Z") */
void skb__store_now(char *buf, size_t len);

/* store_base.c: inside an open transaction, run becomes its machine's
 * baseline (binary: the executable that made it, or NULL); 0 or SKB_E* */
int skb__store_put_baseline(struct skb_store *st, long long run, const char *binary, char *msg, size_t msglen);

#endif
