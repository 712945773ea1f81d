/* cmd_store.c — `skinbench store add|baseline|export|list|import`: runs in
 * and out of the results store (regress/skb_store.h), one option table and
 * --help per subcommand. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_json.h"
#include "skb_store.h"

#define MAX_DIRS 4096

/* every subcommand's options in one struct: each table names its own */
struct store_opts {
    const char *store, *binary, *machine, *for_dir, *set, *export_dir, *export_bin, *out, *baseline_dir, *history_dir;
    const char *pos[MAX_DIRS];
    int npos, baseline, keep;
};

static int add_pos(void *opts, const char *a)
{
    struct store_opts *o = opts;
    if (o->npos == MAX_DIRS) {
        skb_cli_error("store: more than %d folders on one command line", MAX_DIRS);
        return -1;
    }
    o->pos[o->npos++] = a;
    return 0;
}

static int set_keep(void *opts, const char *v)
{
    unsigned long n;
    if (skb_cli_parse_ulong(v, &n) < 0 || n < 1 || n > 100000) {
        skb_cli_error("store add: --keep-files '%s': expected a count from 1 to 100000", v);
        return -1;
    }
    ((struct store_opts *)opts)->keep = (int)n;
    return 0;
}

#define AT(f) offsetof(struct store_opts, f)
#define STORE_OPT { "--store", SKB_OPT_STRING, AT(store), 0, NULL, \
      "  --store FILE       the results store (default " SKB_STORE_DEFAULT ")\n" }
#define MACHINE_OPTS { "--machine", SKB_OPT_STRING, AT(machine), 0, NULL, \
      "  --machine KEY      the machine key (skinbench store list shows them)\n" }, \
    { "--for", SKB_OPT_STRING, AT(for_dir), 0, NULL, \
      "  --for RUN_DIR      the machine key of that run folder's files\n" }

static const struct skb_opt add_table[] = {
    STORE_OPT,
    { "--baseline", SKB_OPT_FLAG, AT(baseline), 1, NULL,
      "  --baseline         the run also becomes its machine's baseline (the same transaction);\n"
      "                     only a complete, verified run without an injected slow-down\n" },
    { "--binary", SKB_OPT_STRING, AT(binary), 0, NULL,
      "  --binary FILE      the skinbench that made the run (its SHA-256 must be the manifest's),\n"
      "                     kept with the baseline for the nightly's A/B sitting\n" },
    { "--keep-files", SKB_OPT_VALUE, 0, 0, set_keep,
      "  --keep-files N     keep the files of the newest N runs per machine (default 14; every\n"
      "                     baseline's too); older runs keep their measurements and manifest\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "A run enters only whole: its manifest.json (written last by `run`) says complete, and\n"
      "every results file is the one it lists; otherwise nothing is stored and the error names\n"
      "what is wrong.  A run already stored is not stored twice.  Exit 0, 2 refused, 1 store error.\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_opt baseline_table[] = {
    STORE_OPT,
    MACHINE_OPTS,
    { "--set", SKB_OPT_STRING, AT(set), 0, NULL,
      "  --set RUN          make stored run RUN (row id, or 6+ hex digits of its run id) its\n"
      "                     machine's baseline, replacing the old one in one transaction\n" },
    { "--binary", SKB_OPT_STRING, AT(binary), 0, NULL,
      "  --binary FILE      with --set: the skinbench that made the run, kept with the baseline\n" },
    { "--export", SKB_OPT_STRING, AT(export_dir), 0, NULL,
      "  --export DIR       write the machine's baseline run into the new folder DIR\n" },
    { "--export-binary", SKB_OPT_STRING, AT(export_bin), 0, NULL,
      "  --export-binary F  write the machine's baseline binary to F (for scripts/nightly-ab.sh)\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "Without --set or --export: one line per machine key and its baseline.\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_opt export_table[] = {
    STORE_OPT,
    MACHINE_OPTS,
    { "--out", SKB_OPT_STRING, AT(out), 0, NULL,
      "  --out DIR          the new folder (never written into or over an existing one)\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "RUN: a row id, 6+ hex digits of a run id, or baseline (with --machine or --for).\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_opt list_table[] = {
    STORE_OPT,
    { "--machine", SKB_OPT_STRING, AT(machine), 0, NULL, "  --machine KEY      only this machine's runs\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_opt import_table[] = {
    STORE_OPT,
    { "--baseline", SKB_OPT_STRING, AT(baseline_dir), 0, NULL,
      "  --baseline DIR     an old baseline folder (one run, or one per machine; DIR/bin/skinbench\n"
      "                     kept with a one-run baseline): each run becomes its machine's baseline\n"
      "                     when its files are complete, verified and not injected\n" },
    { "--history", SKB_OPT_STRING, AT(history_dir), 0, NULL,
      "  --history DIR      an old results/history folder: every night STAMP under it\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "Folders written before runs had a manifest, imported once (importing again adds nothing).\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec specs[] = {
    { "store add", "usage: skinbench store add RUN_DIR... [--store FILE] [--baseline [--binary FILE]]\n"
                   "                           [--keep-files N]\n", add_table, NULL, add_pos },
    { "store baseline", "usage: skinbench store baseline [--store FILE] [--machine KEY | --for RUN_DIR]\n"
                        "              [--set RUN [--binary FILE]] [--export DIR] [--export-binary FILE]\n",
      baseline_table, NULL, NULL },
    { "store export", "usage: skinbench store export RUN --out DIR [--store FILE] [--machine KEY | --for RUN_DIR]\n",
      export_table, NULL, add_pos },
    { "store list", "usage: skinbench store list [--store FILE] [--machine KEY]\n", list_table, NULL, NULL },
    { "store import", "usage: skinbench store import [--baseline DIR] [--history DIR] [--store FILE]\n",
      import_table, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: skinbench store SUBCOMMAND [options]   (skinbench store SUBCOMMAND --help)\n"
               "The results store: one SQLite database of runs and one baseline per machine key\n"
               "(default " SKB_STORE_DEFAULT ").\n\n"
               "  add       store complete run folders (optionally as their machine's baseline)\n"
               "  baseline  show, set or export the baseline of a machine\n"
               "  export    write a stored run into a new folder\n"
               "  list      the stored runs\n"
               "  import    old results/baseline and results/history folders, once\n");
}

/* the exit code of a failed library call: refused input 2, the store 1 */
static int fail(int rc, const char *msg)
{
    skb_cli_error("store: %s", msg);
    return rc == SKB_EINVAL || rc == SKB_EPARSE ? 2 : 1;
}

/* --machine, or the machine key of --for's run folder; NULL after an error */
static const char *machine_of(const struct store_opts *o, char *key, size_t len)
{
    if (o->machine)
        return o->machine;
    if (!o->for_dir)
        return NULL;
    struct skb_results *r = calloc(1, sizeof *r);
    char msg[600];
    const char *k = NULL;
    if (r && skb_results_load(o->for_dir, r, msg, sizeof msg) == 0) {
        if (r->mixed[0])
            skb_cli_error("store: --for: %s", r->mixed);
        else if ((size_t)snprintf(key, len, "%s", r->machine_key) < len)
            k = key;
    } else {
        skb_cli_error("store: --for: %s", r ? msg : "out of memory");
    }
    if (r)
        skb_results_free(r);
    free(r);
    return k;
}

static int do_add(struct skb_store *st, const struct store_opts *o)
{
    struct skb_store_add_opts ao = { o->baseline, o->binary, o->keep };
    char msg[1200];
    int worst = 0;
    if (o->npos == 0) {
        skb_cli_error("store add: name at least one run folder (see skinbench store add --help)");
        return 2;
    }
    if (o->binary && !o->baseline) {
        skb_cli_error("store add: --binary is kept with a baseline: add --baseline");
        return 2;
    }
    for (int i = 0; i < o->npos; i++) {
        long long run;
        int rc = skb_store_add(st, o->pos[i], &ao, &run, msg, sizeof msg);
        if (rc < 0) {
            int code = fail(rc, msg);
            worst = worst > code ? worst : code;
            continue;
        }
        printf("store: %s %s run %lld%s\n", o->pos[i], rc == 1 ? "is already" : "stored as", run,
               o->baseline ? ", now its machine's baseline" : "");
    }
    return worst;
}

static int do_baseline(struct skb_store *st, const struct store_opts *o)
{
    char key[256] = "", msg[1200];
    const char *machine = machine_of(o, key, sizeof key);
    long long run;
    int rc;
    if (o->for_dir && !machine)
        return 2;
    if (o->binary && !o->set) {
        skb_cli_error("store baseline: --binary goes with --set");
        return 2;
    }
    if (o->set) {
        if ((rc = skb_store_find_run(st, o->set, machine, &run, msg, sizeof msg)) < 0
            || (rc = skb_store_set_baseline(st, run, o->binary, msg, sizeof msg)) < 0)
            return fail(rc, msg);
        printf("store: run %lld is now its machine's baseline\n", run);
    }
    if ((o->export_dir || o->export_bin) && !machine) {
        skb_cli_error("store baseline: --export and --export-binary need --machine KEY or --for RUN_DIR");
        return 2;
    }
    if (o->export_dir) {
        if ((rc = skb_store_find_run(st, "baseline", machine, &run, msg, sizeof msg)) < 0
            || (rc = skb_store_export(st, run, o->export_dir, msg, sizeof msg)) < 0)
            return fail(rc, msg);
        printf("store: the baseline of '%s' (run %lld) written to %s\n", machine, run, o->export_dir);
    }
    if (o->export_bin) {
        if ((rc = skb_store_export_binary(st, machine, o->export_bin, msg, sizeof msg)) < 0)
            return fail(rc, msg);
        printf("store: the baseline binary of '%s' written to %s\n", machine, o->export_bin);
    }
    if (!o->set && !o->export_dir && !o->export_bin && (rc = skb_store_list_baselines(st, stdout, msg, sizeof msg)) < 0)
        return fail(rc, msg);
    return 0;
}

static int do_export(struct skb_store *st, const struct store_opts *o)
{
    char key[256] = "", msg[1200];
    long long run;
    int rc;
    if (o->npos != 1 || !o->out) {
        skb_cli_error("store export: need RUN and --out DIR (see skinbench store export --help)");
        return 2;
    }
    const char *machine = machine_of(o, key, sizeof key);
    if ((rc = skb_store_find_run(st, o->pos[0], machine, &run, msg, sizeof msg)) < 0
        || (rc = skb_store_export(st, run, o->out, msg, sizeof msg)) < 0)
        return fail(rc, msg);
    printf("store: run %lld written to %s\n", run, o->out);
    return 0;
}

static int run_sub(int which, struct skb_store *st, const struct store_opts *o)
{
    char msg[1200];
    int rc;
    switch (which) {
    case 0:
        return do_add(st, o);
    case 1:
        return do_baseline(st, o);
    case 2:
        return do_export(st, o);
    case 3:
        return (rc = skb_store_list(st, o->machine, stdout, msg, sizeof msg)) < 0 ? fail(rc, msg) : 0;
    default:
        if (!o->baseline_dir && !o->history_dir) {
            skb_cli_error("store import: name --baseline DIR, --history DIR or both");
            return 2;
        }
        return (rc = skb_store_import(st, o->baseline_dir, o->history_dir, stdout, msg, sizeof msg)) < 0
               ? fail(rc, msg) : 0;
    }
}

int skb_cmd_store(int argc, char **argv)
{
    static const char *const names[] = { "add", "baseline", "export", "list", "import" };
    if (argc < 2 || skb_cli_is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    int which = -1;
    for (int i = 0; i < 5; i++)
        if (strcmp(argv[1], names[i]) == 0)
            which = i;
    if (which < 0) {
        skb_cli_error("store: unknown subcommand '%s' (add, baseline, export, list, import)", argv[1]);
        return 2;
    }
    struct store_opts *o = calloc(1, sizeof *o);
    if (!o) {
        skb_cli_error("store: out of memory");
        return 1;
    }
    int rc = skb_cli_parse(&specs[which], argc - 1, argv + 1, o);
    if (rc) {
        free(o);
        return rc == 1 ? 0 : rc;
    }
    struct skb_store *st = NULL;
    char msg[1200];
    /* only the subcommands that write may make a new store */
    int create = which == 0 || which == 4 || (which == 1 && o->set);
    if ((rc = skb_store_open(o->store ? o->store : SKB_STORE_DEFAULT, create, &st, msg, sizeof msg)) < 0) {
        rc = fail(rc, msg);
    } else {
        rc = run_sub(which, st, o);
        skb_store_close(st);
    }
    free(o);
    return rc;
}
