/* cmd_compare.c — `skinbench compare`: the CLI side of the nightly
 * regression gates (argument parsing, the baseline's install, the exit
 * code; the gates themselves are in compare.c). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_json.h"
#include "skb_report.h"
#include "skb_regress.h"   /* compare, A/B (regress/) */
#include "skb_store.h"     /* the baselines (regress/store*.c) */

#define DEFAULT_ALPHA 0.01       /* U test level; ../shared/TOOLCHAIN.md: 0.05 alone flags 5/12 self-comparisons */
#define DEFAULT_MIN_EFFECT 0.05  /* 5 % median slow-down */
#define STR_(x) #x
#define STR(x) STR_(x)

/* what `compare`'s options fill in */
struct compare_opts {
    const char *pos[2], *rerun_dir, *summary_path, *ab_dir, *val_path, *store, *binary;
    int npos;
    struct skb_compare_opts co;
};

static int parse_pos(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0) || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

static int set_alpha(void *opts, const char *v)
{
    struct skb_compare_opts *co = &((struct compare_opts *)opts)->co;
    if (parse_pos(v, &co->alpha) < 0 || co->alpha <= 0 || co->alpha >= 1) {
        skb_cli_error("compare: --alpha '%s': expected a number in (0, 1)", v);
        return -1;
    }
    return 0;
}

static int set_min_effect(void *opts, const char *v)
{
    if (parse_pos(v, &((struct compare_opts *)opts)->co.min_effect) < 0) {
        skb_cli_error("compare: --min-effect '%s': expected a non-negative number (0.05 = 5 %%)", v);
        return -1;
    }
    return 0;
}

/* --only a,b: every name an experiment of this build */
static int set_only(void *opts, const char *v)
{
    for (const char *p = v; *p; p += strcspn(p, ","), p += *p == ',') {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, ","), p);
        if (!skb_experiment_desc_find(name)) {
            skb_cli_error("compare: --only: unknown experiment '%s' (see skinbench list experiments)", name);
            return -1;
        }
    }
    if (!*v) {
        skb_cli_error("compare: --only '': name at least one experiment");
        return -1;
    }
    ((struct compare_opts *)opts)->co.only = v;
    return 0;
}

static int add_dir(void *opts, const char *a)
{
    struct compare_opts *c = opts;
    if (c->npos == 2) {
        skb_cli_error("compare: too many arguments ('%s')", a);
        return -1;
    }
    c->pos[c->npos++] = a;
    return 0;
}

#define AT(field) offsetof(struct compare_opts, field)
static const struct skb_opt compare_opts_table[] = {
    { "--ab", SKB_OPT_STRING, AT(ab_dir), 0, NULL,
      "  --ab DIR           the timing verdict from a paired A/B sitting (DIR/round-K/{a,b}/,\n"
      "                     scripts/nightly-ab.sh): per method a CI of current/baseline; the\n"
      "                     unpaired U test below then only informs.\n" },
    { "--validation", SKB_OPT_STRING, AT(val_path), 0, NULL,
      "  --validation FILE  the gates' measured detection and false-alarm rates\n"
      "                     (scripts/gate-summary.sh) copied into the summary and shown.\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "Timing: a benchmark regresses only when the Mann-Whitney U\n"
      "test on raw repetitions (p < A, default " STR(DEFAULT_ALPHA) "), the median slow-down (> E, default "
      STR(DEFAULT_MIN_EFFECT) ")\n"
      "and the confirming re-run (DIR, default CURRENT_DIR/rerun/cpu-gbench.json) agree;\n"
      "without a re-run such a change is unconfirmed: inconclusive (exit 3), not a failure.\n" },
    /* described by the paragraph above */
    { "--alpha", SKB_OPT_VALUE, 0, 0, set_alpha, "" },
    { "--min-effect", SKB_OPT_VALUE, 0, 0, set_min_effect, "" },
    { "--rerun", SKB_OPT_STRING, AT(rerun_dir), 0, NULL, "" },
    { "--store", SKB_OPT_STRING, AT(store), 0, NULL,
      "  --store FILE       the baseline is this run's machine's in the results store FILE\n"
      "                     (skinbench store; then only CURRENT_DIR is named)\n" },
    { "--update-baseline", SKB_OPT_FLAG, AT(co.update_baseline), 1, NULL,
      "  --update-baseline  with --store: when the comparison passed (exit 0), or no baseline\n"
      "                     exists yet, CURRENT_DIR is stored and becomes its machine's baseline\n"
      "                     in one transaction; only a complete, verified run without an injected\n"
      "                     slow-down.  Never written otherwise.\n" },
    { "--binary", SKB_OPT_STRING, AT(binary), 0, NULL,
      "  --binary FILE      with --update-baseline: the skinbench that made CURRENT_DIR, kept with\n"
      "                     the baseline for the nightly's A/B sitting\n" },
    { "--only", SKB_OPT_VALUE, 0, 0, set_only,
      "  --only a,b         judge only these experiments' gates (default: every experiment; one\n"
      "                     that neither run has is a gate that did not run: exit 3)\n" },
    { "--summary", SKB_OPT_STRING, AT(summary_path), 0, NULL,
      "  --summary FILE     comparison summary JSON (default CURRENT_DIR/compare.json)\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "Exit: 0 pass, 1 regression (named on stdout), 2 usage or unreadable input (also: a folder\n"
      "holding files of more than one run), 3 inconclusive (a gate could not judge: powerless,\n"
      "unconfirmed, a measurement missing or not a finite positive number, a file, method or\n"
      "kernel on one side only, an unknown time unit or method, another machine key without --ab,\n"
      "a gate that did not run; never a pass).\n"
      "The machine key is the hardware (CPU model, cores, memory), prefixed by $SKB_MACHINE_NAME.\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec compare_spec = {
    "compare",
    "usage: skinbench compare BASELINE_DIR CURRENT_DIR | --store FILE CURRENT_DIR [--update-baseline\n"
    "                         [--binary FILE]] [--alpha A] [--min-effect E] [--rerun DIR] [--ab DIR]\n"
    "                         [--only a,b] [--validation FILE] [--summary FILE]\n"
    "Exact gates: property verdicts, FLOP fits, callgrind and shader instruction counts,\n"
    "instructions per kernel (icount.json, 0.5 % tolerance), missing experiments.\n",
    compare_opts_table, NULL, add_dir
};

/* one comparison's state, on the heap */
struct compare_job {
    struct compare_opts o;
    struct skb_results base, cur, rr;
    struct skb_ab ab;
    struct skb_store *st;
    long long base_run;        /* the store's baseline row (0: none yet) */
    cJSON *val;   /* --validation FILE, until the summary takes what it keeps */
    int have_base, have_rr, have_ab;
    const char *cur_dir;
    char msg[1200], rpath[PATH_MAX], blabel[1100];
};

/* the exit code after a library error: bad input 2 */
static int failed(struct compare_job *j)
{
    skb_cli_error("compare: %s", j->msg);
    return 2;
}

/* --update-baseline after the comparison: only a run that passed (exit 0),
 * or the first of its machine, is stored as the baseline (one transaction) */
static int update_baseline(struct compare_job *j, int rc)
{
    if (rc != 0) {
        skb_cli_error("compare: baseline of '%s' not replaced: the comparison did not pass (exit %d); nothing was "
                      "written", j->cur.machine_key, rc);
        return rc;
    }
    struct skb_store_add_opts ao = { 1, j->o.binary, 0 };
    long long run;
    if (skb_compare_installable(&j->cur, j->msg, sizeof j->msg) < 0
        || skb_store_add(j->st, j->cur_dir, &ao, &run, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: baseline of '%s' not replaced: %s", j->cur.machine_key, j->msg);
        return 2;
    }
    printf("compare: %s (run %lld) is now the baseline of machine '%s' in %s%s\n", j->cur_dir, run,
           j->cur.machine_key, j->o.store, j->base_run ? "" : " (its first)");
    return 0;
}

/* the baseline: a folder (BASELINE_DIR), or this machine's row of the store */
static int load_baseline(struct compare_job *j)
{
    if (!j->o.store) {
        if (skb_results_load(j->o.pos[0], &j->base, j->msg, sizeof j->msg) < 0) {
            if (access(j->o.pos[0], F_OK) == 0)
                snprintf(j->msg + strlen(j->msg), sizeof j->msg - strlen(j->msg), " (an old baseline of several "
                         "machines? import it once: skinbench store import --baseline %.300s)", j->o.pos[0]);
            return failed(j);
        }
        j->have_base = 1;
        return 0;
    }
    int rc = skb_store_open(j->o.store, j->o.co.update_baseline, &j->st, j->msg, sizeof j->msg);
    if (rc == 0 && (j->base_run = skb_store_baseline(j->st, j->cur.machine_key, j->msg, sizeof j->msg)) < 0)
        rc = SKB_EIO;
    if (rc == 0 && j->base_run > 0 && (rc = skb_store_load_run(j->st, j->base_run, &j->base, j->msg,
                                                               sizeof j->msg)) == 0)
        j->have_base = 1;
    return rc < 0 ? failed(j) : 0;
}

/* the re-run, the A/B sitting and --validation's figures; 0, or 2 after the error */
static int load_inputs(struct compare_job *j)
{
    if (skb_compare_inputs_ok(&j->base, NULL, j->msg, sizeof j->msg) < 0)
        return failed(j);
    snprintf(j->rpath, sizeof j->rpath, "%s/rerun", j->cur_dir);
    if (!j->o.rerun_dir && access(j->rpath, F_OK) == 0)
        j->o.rerun_dir = j->rpath;
    if (j->o.rerun_dir) {
        if (skb_results_load(j->o.rerun_dir, &j->rr, j->msg, sizeof j->msg) < 0) {
            skb_cli_error("compare: re-run: %s", j->msg);
            return 2;
        }
        j->have_rr = 1;
    }
    if (j->o.ab_dir) {
        if (skb_ab_load(j->o.ab_dir, &j->ab, j->msg, sizeof j->msg) < 0) {
            skb_cli_error("compare: A/B: %s", j->msg);
            return 2;
        }
        j->have_ab = 1;
        j->o.co.ab = &j->ab;
    }
    if (j->o.val_path && skb_json_read_file(j->o.val_path, &j->val, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: --validation: %s", j->msg);
        return 2;
    }
    return 0;
}

/* the gates, the summary written and the exit code: a summary that was not
 * written is not a pass; nor is an undecided gate (3) */
static int run_gates(struct compare_job *j)
{
    cJSON *sum = NULL, *val = j->val;
    j->val = NULL;
    int nreg = skb_compare_run(&j->base, &j->cur, j->have_rr ? &j->rr : NULL, &j->o.co, stdout, &sum);
    if (val)
        skb_compare_add_validation(sum, val, j->o.val_path, stdout);   /* copies what it keeps */
    cJSON_Delete(val);
    char spath[PATH_MAX];
    snprintf(spath, sizeof spath, "%s/compare.json", j->cur_dir);
    int sum_failed = skb_json_write_atomic(j->o.summary_path ? j->o.summary_path : spath, sum, j->msg,
                                           sizeof j->msg) < 0;
    if (sum_failed)
        skb_cli_error("compare: %s", j->msg);
    double undecided = 0;
    skb_json_get_number(cJSON_GetObjectItemCaseSensitive(sum, "inconclusive_count"), &undecided);
    cJSON_Delete(sum);
    return sum_failed ? 2 : nreg ? 1 : undecided > 0 ? 3 : 0;
}

/* the comparison of a loaded current run: the exit code */
static int compare_loaded(struct compare_job *j)
{
    if (skb_compare_inputs_ok(NULL, &j->cur, j->msg, sizeof j->msg) < 0)
        return failed(j);
    int rc = load_baseline(j);
    if (rc)
        return rc;
    if (!j->have_base) {
        if (j->o.co.update_baseline)
            return update_baseline(j, 0);
        skb_cli_error("compare: no baseline of machine '%s' in %s (the first: compare --store %s %s "
                      "--update-baseline)", j->cur.machine_key, j->o.store, j->o.store, j->cur_dir);
        return 2;
    }
    if ((rc = load_inputs(j)) == 0) {
        rc = run_gates(j);
        if (j->o.co.update_baseline)
            rc = update_baseline(j, rc);
    }
    return rc;
}

/* the arguments' shape: two folders, or --store and one */
static int check_args(const struct compare_opts *o)
{
    if (o->store ? o->npos != 1 : o->npos != 2) {
        skb_cli_error("compare: need BASELINE_DIR and CURRENT_DIR, or --store FILE and CURRENT_DIR (see skinbench "
                      "compare --help)");
        return 2;
    }
    if (o->co.update_baseline && !o->store) {
        skb_cli_error("compare: --update-baseline writes the results store: add --store FILE (baselines are rows of "
                      "the store, one per machine key, never folders)");
        return 2;
    }
    if (o->binary && !o->co.update_baseline) {
        skb_cli_error("compare: --binary goes with --update-baseline");
        return 2;
    }
    return 0;
}

int skb_cmd_compare(int argc, char **argv)
{
    struct compare_job *j = calloc(1, sizeof *j);
    if (!j) {
        skb_cli_error("compare: out of memory");
        return 1;
    }
    j->o.co = (struct skb_compare_opts){ DEFAULT_ALPHA, DEFAULT_MIN_EFFECT, 0, NULL, NULL };
    int rc = skb_cli_parse(&compare_spec, argc, argv, &j->o);
    if (rc == 0)
        rc = check_args(&j->o);
    if (rc) {
        free(j);
        return rc == 1 ? 0 : rc;
    }
    j->cur_dir = j->o.pos[j->o.npos - 1];
    if (skb_results_load(j->cur_dir, &j->cur, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: %s", j->msg);
        free(j);
        return 2;
    }
    rc = compare_loaded(j);
    if (j->have_base)
        skb_results_free(&j->base);
    skb_results_free(&j->cur);
    if (j->have_rr)
        skb_results_free(&j->rr);
    if (j->have_ab)
        skb_ab_free(&j->ab);
    skb_store_close(j->st);
    cJSON_Delete(j->val);
    free(j);
    return rc;
}
