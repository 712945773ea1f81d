/* skb_store.h — the results store: one SQLite database (WAL, foreign keys)
 * holding every nightly run (its files and its measurements) and one
 * baseline per machine key, replaced in one transaction
 * (docs/report-and-regression.md "The results store").  The results folder
 * stays what `run` writes and `report` reads; runs move in and out with
 * `skinbench store add|baseline|export|list|import`.
 *
 *   open, close      skb_store_open, skb_store_close
 *   runs in          skb_store_add (a complete run's folder), skb_store_import (old folders, once)
 *   baselines        skb_store_set_baseline, skb_store_baseline
 *   runs out         skb_store_load_run, skb_store_export, skb_store_export_binary
 *   look-ups         skb_store_find_run, skb_store_list, skb_store_list_baselines
 *
 * Machine keys are values in rows, never path names.  A run enters only
 * when its manifest says it is complete and its files match it; a baseline
 * is a complete, verified run without an injected slow-down of its own
 * machine (a trigger of the database refuses anything else). */
#ifndef SKB_STORE_H
#define SKB_STORE_H

#include <stdio.h>
#include "skb_report.h"

#define SKB_STORE_DEFAULT "results/skinbench.sqlite"
/* file bodies are kept for this many newest runs of each machine (and every
 * baseline); older runs keep their measurements, manifest and hashes */
#define SKB_STORE_KEEP_FILES 14

/* the metrics of the measurements table */
enum skb_metric {
    SKB_METRIC_CPU_NS = 1,     /* median CPU ns per deformation of a benchmark (cpu-gbench.json) */
    SKB_METRIC_ICOUNT = 2      /* instructions per deformation of a kernel (icount.json) */
};

struct skb_store;

/* open the store at path; create = 1 makes it (and its folder) when absent.
 * The path must be a regular file or absent (never a link, device, FIFO);
 * 0, or an SKB_E* code with msg naming the path and the fix */
int skb_store_open(const char *path, int create, struct skb_store **out, char *msg, size_t msglen);
void skb_store_close(struct skb_store *st);
/* the database, for the history's queries (regress/history.c) */
struct sqlite3 *skb__store_db(struct skb_store *st);

struct skb_store_add_opts {
    int baseline;              /* 1: the run also becomes its machine's baseline, in the same transaction */
    const char *binary;        /* the executable that made the run, kept with its baseline for the nightly's
                                  A/B sitting; its SHA-256 must be the manifest's; may be NULL */
    int keep_files;            /* SKB_STORE_KEEP_FILES when 0 */
};
/* add the run in folder dir: refused (SKB_EINVAL, msg naming what is
 * wrong) unless its manifest says complete and every file matches it.  A
 * run already stored is not stored again.  *run its row id; 1 when it was
 * already there, 0 when added */
int skb_store_add(struct skb_store *st, const char *dir, const struct skb_store_add_opts *o, long long *run,
                  char *msg, size_t msglen);
/* the old folders, once: every night under history (results/history/STAMP)
 * and the baseline folder (one run, or one per machine, with bin/skinbench)
 * as runs without a manifest; the baseline's runs become their machines'
 * baselines when complete by their files.  Either may be NULL.  Lines say
 * what was imported; 0, or an SKB_E* code with msg */
int skb_store_import(struct skb_store *st, const char *baseline, const char *history, FILE *out, char *msg,
                     size_t msglen);

/* make stored run `run` its machine's baseline (binary: as for add, may be
 * NULL), replacing the old one in one transaction; 0, or SKB_EINVAL + msg */
int skb_store_set_baseline(struct skb_store *st, long long run, const char *binary, char *msg, size_t msglen);
/* the baseline run of machine key, 0 when it has none; -1 on error (msg) */
long long skb_store_baseline(struct skb_store *st, const char *machine, char *msg, size_t msglen);

/* a stored run's files as results (as skb_results_load reads a folder);
 * label names it in messages; 0, or an SKB_E* code (its files pruned) */
int skb_store_load_run(struct skb_store *st, long long run, struct skb_results *r, char *msg, size_t msglen);
/* a stored run's files and manifest into a new folder out_dir (created
 * whole or not at all); 0, or an SKB_E* code with msg */
int skb_store_export(struct skb_store *st, long long run, const char *out_dir, char *msg, size_t msglen);
/* the baseline binary of machine key into path (mode 0755, written
 * atomically); 0, SKB_EINVAL when the baseline has none */
int skb_store_export_binary(struct skb_store *st, const char *machine, const char *path, char *msg, size_t msglen);

/* a run named by its row id, its run id (or a unique prefix of 6 or more
 * hex digits), or "baseline" with machine; 0 and *run, or SKB_EINVAL */
int skb_store_find_run(struct skb_store *st, const char *spec, const char *machine, long long *run, char *msg,
                       size_t msglen);
/* one line per run (of machine, or all when NULL), oldest first */
int skb_store_list(struct skb_store *st, const char *machine, FILE *out, char *msg, size_t msglen);
/* one line per machine key: its baseline run and binary */
int skb_store_list_baselines(struct skb_store *st, FILE *out, char *msg, size_t msglen);
/* the git revision and machine key of a stored run ("" when unknown) */
int skb_store_run_info(struct skb_store *st, long long run, char *rev, size_t revlen, char *machine,
                       size_t machinelen, char *msg, size_t msglen);

#endif
