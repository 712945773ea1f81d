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
#include "skb_regress.h"   /* compare, A/B, baseline copy (regress/) */

#define MAX_RUNS SKB_MAX_RUNS
#define DEFAULT_ALPHA 0.01       /* U test level; TOOLCHAIN.md: 0.05 alone flags 5/12 self-comparisons */
#define DEFAULT_MIN_EFFECT 0.05  /* 5 % median slow-down */
#define STR_(x) #x
#define STR(x) STR_(x)

/* what `compare`'s options fill in */
struct compare_opts {
    const char *pos[2], *rerun_dir, *summary_path, *ab_dir, *val_path;
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
    { "--update-baseline", SKB_OPT_FLAG, AT(co.update_baseline), 1, NULL,
      "  --update-baseline  replace BASELINE_DIR with CURRENT_DIR (atomically) after comparing,\n"
      "                     only when the comparison passed (exit 0) and the run is verified and\n"
      "                     not injected; creates it when absent; in a baseline of several\n"
      "                     machines' runs only this machine's run.  Never written otherwise.\n" },
    { "--summary", SKB_OPT_STRING, AT(summary_path), 0, NULL,
      "  --summary FILE     comparison summary JSON (default CURRENT_DIR/compare.json)\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "Exit: 0 pass, 1 regression (named on stdout), 2 usage or unreadable input,\n"
      "3 inconclusive (a gate could not judge: powerless, unconfirmed, a measurement missing or\n"
      "not a finite positive number, another machine key without --ab; never a pass).\n"
      "The machine key is the hardware (CPU model, cores, memory), prefixed by $SKB_MACHINE_NAME.\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec compare_spec = {
    "compare",
    "usage: skinbench compare BASELINE_DIR CURRENT_DIR [--update-baseline]\n"
    "                         [--alpha A] [--min-effect E] [--rerun DIR] [--ab DIR]\n"
    "                         [--validation FILE] [--summary FILE]\n"
    "Exact gates: property verdicts, FLOP fits, callgrind and shader instruction counts,\n"
    "instructions per kernel (icount.json, 0.5 % tolerance), missing experiments.\n",
    compare_opts_table, NULL, add_dir
};

/* one comparison's state, on the heap (the baseline alone is up to
 * MAX_RUNS runs) */
struct compare_job {
    struct compare_opts o;
    struct skb_results base[MAX_RUNS], cur, rr;
    struct skb_ab ab;
    cJSON *val;   /* --validation FILE, until the summary takes what it keeps */
    int nbase, have_rr, have_ab, pick;
    char msg[1024], rpath[PATH_MAX];
};

/* --update-baseline after the comparison: only a run that passed (exit 0)
 * and may be a baseline is installed; in a baseline of several machines'
 * runs only this machine's run is replaced (or added), the others stay */
static int update_baseline(const char *bdir, const char *cdir, const struct skb_results *base, int nbase, int pick,
                           const struct skb_results *cur, int rc)
{
    char msg[1024], target[PATH_MAX];
    if (rc != 0) {
        skb_cli_error("compare: baseline %s not replaced: the comparison did not pass (exit %d); nothing was swapped",
                      bdir, rc);
        return rc;
    }
    if (skb_compare_installable(cur, msg, sizeof msg) < 0) {
        skb_cli_error("compare: baseline %s not replaced: %s", bdir, msg);
        return 2;
    }
    int multi = nbase > 1 || strcmp(base[0].dir, bdir) != 0;
    if (!multi) {
        snprintf(target, sizeof target, "%s", bdir);
    } else if (strcmp(base[pick].machine_key, cur->machine_key) == 0) {
        snprintf(target, sizeof target, "%s", base[pick].dir);
    } else {
        /* a machine new to this baseline: its own run directory beside the others */
        char name[200];
        size_t j = 0;
        for (const char *c = cur->machine_key; *c && j + 1 < sizeof name; c++)
            name[j++] = (isalnum((unsigned char)*c) || *c == '-' || *c == '_') ? *c : '_';
        name[j] = 0;
        snprintf(target, sizeof target, "%s/run-%s", bdir, j ? name : "unknown");
    }
    if (skb_dir_replace(cdir, target, msg, sizeof msg) < 0) {
        skb_cli_error("compare: %s", msg);
        return 2;
    }
    if (multi)
        printf("compare: baseline %s: run %s (machine %s) replaced by %s; the other %d machine run(s) kept "
               "(--update-baseline)\n", bdir, target, cur->machine_key, cdir,
               nbase - (strcmp(base[pick].machine_key, cur->machine_key) == 0));
    else
        printf("compare: baseline %s replaced by %s (--update-baseline)\n", bdir, cdir);
    return 0;
}

/* no baseline yet: CURRENT_DIR becomes it under --update-baseline; the exit code */
static int create_baseline(struct compare_job *j)
{
    const char *bdir = j->o.pos[0], *cdir = j->o.pos[1];
    if (!j->o.co.update_baseline) {
        skb_cli_error("compare: no baseline at %s (create it with --update-baseline)", bdir);
        return 2;
    }
    /* an unverified, failed or injected run never becomes the baseline */
    if (skb_compare_installable(&j->cur, j->msg, sizeof j->msg) < 0
        || skb_dir_replace(cdir, bdir, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: %s", j->msg);
        return 2;
    }
    printf("compare: created baseline %s from %s\n", bdir, cdir);
    return 0;
}

/* the baseline's runs (this machine's picked), the re-run, the A/B sitting
 * and --validation's figures; 0, or 2 after the error */
static int load_inputs(struct compare_job *j)
{
    if (skb_results_load_many(j->o.pos[0], j->base, MAX_RUNS, &j->nbase, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: baseline: %s", j->msg);
        return 2;
    }
    for (int k = 0; k < j->nbase; k++)
        if (skb_compare_inputs_ok(&j->base[k], NULL, j->msg, sizeof j->msg) < 0) {
            skb_cli_error("compare: %s", j->msg);
            return 2;
        }
    /* a baseline of several machines: compare against this machine's run */
    for (int k = 0; k < j->nbase; k++)
        if (strcmp(j->base[k].machine_key, j->cur.machine_key) == 0)
            j->pick = k;
    snprintf(j->rpath, sizeof j->rpath, "%s/rerun", j->o.pos[1]);
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
 * written is not a pass; nor is an undecided timing gate (3) */
static int run_gates(struct compare_job *j)
{
    cJSON *sum = NULL, *val = j->val;
    j->val = NULL;
    int nreg = skb_compare_run(&j->base[j->pick], &j->cur, j->have_rr ? &j->rr : NULL, &j->o.co, stdout, &sum);
    if (val)
        skb_compare_add_validation(sum, val, j->o.val_path, stdout);   /* copies what it keeps */
    cJSON_Delete(val);
    char spath[PATH_MAX];
    snprintf(spath, sizeof spath, "%s/compare.json", j->o.pos[1]);
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
    if (skb_compare_inputs_ok(NULL, &j->cur, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: %s", j->msg);
        return 2;
    }
    if (access(j->o.pos[0], F_OK) != 0)
        return create_baseline(j);
    int rc = load_inputs(j);
    if (rc == 0) {
        rc = run_gates(j);
        if (j->o.co.update_baseline)
            rc = update_baseline(j->o.pos[0], j->o.pos[1], j->base, j->nbase, j->pick, &j->cur, rc);
    }
    return rc;
}

int skb_cmd_compare(int argc, char **argv)
{
    struct compare_job *j = calloc(1, sizeof *j);
    if (!j) {
        skb_cli_error("compare: out of memory");
        return 1;
    }
    j->o.co = (struct skb_compare_opts){ DEFAULT_ALPHA, DEFAULT_MIN_EFFECT, 0, NULL };
    int rc = skb_cli_parse(&compare_spec, argc, argv, &j->o);
    if (rc == 0 && j->o.npos != 2) {
        skb_cli_error("compare: need BASELINE_DIR and CURRENT_DIR (see skinbench compare --help)");
        rc = 2;
    }
    if (rc) {
        free(j);
        return rc == 1 ? 0 : rc;
    }
    if (skb_results_load(j->o.pos[1], &j->cur, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("compare: %s", j->msg);
        free(j);
        return 2;
    }
    rc = compare_loaded(j);
    for (int k = 0; k < j->nbase; k++)
        skb_results_free(&j->base[k]);
    skb_results_free(&j->cur);
    if (j->have_rr)
        skb_results_free(&j->rr);
    if (j->have_ab)
        skb_ab_free(&j->ab);
    cJSON_Delete(j->val);
    free(j);
    return rc;
}
