/* cmd_bisect.c — `skinbench bisect GOOD BAD --kernel NAME` (and `make
 * bisect`): the first commit that moved a kernel's instructions, or
 * (--timing --method M) a method's paired time; with --from-compare FILE,
 * every method compare.json names as a regression (the nightly).  The
 * engine is regress/bisect.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_json.h"
#include "skb_bisect.h"

/* the nightly bisects at most this many regressing methods a night (each
 * costs about log2(commits) builds) */
#define MAX_FROM_COMPARE 4

struct bisect_cli {
    struct skb_bisect_opts o;
    const char *pos[2], *summary, *from_compare;
    int npos, timing;
};

static int add_rev(void *opts, const char *a)
{
    struct bisect_cli *c = opts;
    if (c->npos == 2) {
        skb_cli_error("bisect: too many arguments ('%s'): GOOD and BAD only", a);
        return -1;
    }
    c->pos[c->npos++] = a;
    return 0;
}

static int set_count(const char *what, const char *v, int lo, int hi, int *out)
{
    unsigned long n;
    if (skb_cli_parse_ulong(v, &n) < 0 || n < (unsigned long)lo || n > (unsigned long)hi) {
        skb_cli_error("bisect: %s '%s': expected an integer from %d to %d", what, v, lo, hi);
        return -1;
    }
    *out = (int)n;
    return 0;
}

static int set_jobs(void *opts, const char *v)
{
    return set_count("--jobs", v, 1, 256, &((struct bisect_cli *)opts)->o.jobs);
}

static int set_rounds(void *opts, const char *v)
{
    return set_count("--rounds", v, 4, 200, &((struct bisect_cli *)opts)->o.rounds);
}

#define AT(f) offsetof(struct bisect_cli, f)
static const struct skb_opt bisect_table[] = {
    { "--kernel", SKB_OPT_STRING, AT(o.kernel), 0, NULL,
      "  --kernel NAME      the kernel whose instructions moved (an icount.json name, e.g.\n"
      "                     double/dlb/cloth): callgrind counts are exact, one build decides a step\n" },
    { "--timing", SKB_OPT_FLAG, AT(timing), 1, NULL,
      "  --timing           a slow-down that adds no instructions: --method M is timed at each step\n"
      "                     against GOOD's binary in a paired A/B sitting (scripts/nightly-ab.sh);\n"
      "                     a step is decided by the CI of the estimate, the answer says its\n"
      "                     confidence (Bonferroni over the steps)\n" },
    { "--method", SKB_OPT_STRING, AT(o.method), 0, NULL, "  --method M         with --timing: the method\n" },
    { "--rounds", SKB_OPT_VALUE, 0, 0, set_rounds, "  --rounds N         with --timing: rounds per sitting (default 20)\n" },
    { "--good-binary", SKB_OPT_STRING, AT(o.good_binary), 0, NULL,
      "  --good-binary F    with --timing: GOOD's skinbench (default: built)\n" },
    { "--repo", SKB_OPT_STRING, AT(o.repo), 0, NULL,
      "  --repo DIR         the git checkout (default: the current directory's)\n" },
    { "--work", SKB_OPT_STRING, AT(o.work), 0, NULL,
      "  --work DIR         the scratch folder: the worktree, the builds' log (default: a new one\n"
      "                     under $TMPDIR, removed after a success)\n" },
    { "--seed-build", SKB_OPT_STRING, AT(o.seed_build), 0, NULL,
      "  --seed-build DIR   start from this build folder's objects (built from a clean commit: its\n"
      "                     git-describe stamp, or --seed-rev REV), so each step rebuilds only what\n"
      "                     changed; default: the first build is from scratch\n" },
    { "--seed-rev", SKB_OPT_STRING, AT(o.seed_rev), 0, NULL, "" },
    { "--jobs", SKB_OPT_VALUE, 0, 0, set_jobs, "  --jobs N           make -jN (default 2)\n" },
    { "--quick", SKB_OPT_FLAG, AT(o.quick), 1, NULL,
      "  --quick            count as run icount --quick does (a run folder's manifest decides\n"
      "                     when GOOD or BAD is one)\n" },
    { "--keep", SKB_OPT_FLAG, AT(o.keep), 1, NULL, "  --keep             keep the scratch worktree and folder\n" },
    { "--from-compare", SKB_OPT_STRING, AT(from_compare), 0, NULL,
      "  --from-compare F   bisect every method compare.json F names as a regression (at most 4):\n"
      "                     instructions where its kernels moved, else --timing\n" },
    { "--summary", SKB_OPT_STRING, AT(summary), 0, NULL,
      "  --summary FILE     the results as JSON (commit, builds, steps)\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL,
      "GOOD and BAD: revisions, or run folders (their manifest names the revision; their\n"
      "icount.json gives the count, so that end is not built).  Exit 0 found, 3 undecided\n"
      "(timing: a step's CI could not decide; the range so far is named), 2 usage or bad input,\n"
      "1 a build or count failed (the scratch folder is kept and named).\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec bisect_spec = {
    "bisect",
    "usage: skinbench bisect GOOD BAD --kernel NAME [--repo DIR] [--seed-build DIR [--seed-rev REV]]\n"
    "                        [--jobs N] [--quick] [--work DIR] [--keep] [--summary FILE]\n"
    "       skinbench bisect GOOD BAD --timing --method M [--rounds N] [--good-binary F] ...\n"
    "       skinbench bisect GOOD BAD --from-compare compare.json [--good-binary F] ...\n"
    "Builds the revisions between GOOD and BAD in a scratch worktree, halving the range, and\n"
    "names the first commit whose count of the kernel moved more than 0.5 %.\n",
    bisect_table, NULL, add_rev
};

static cJSON *result_json(const struct skb_bisect_opts *o, const struct skb_bisect_result *r, int rc,
                          const char *msg)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, o->kernel ? "kernel" : "method", o->kernel ? o->kernel : o->method);
    cJSON_AddStringToObject(j, "measure", o->kernel ? "instructions" : "paired time");
    if (rc < 0) {
        cJSON_AddStringToObject(j, "error", msg);
        return j;
    }
    cJSON_AddStringToObject(j, r->decided ? "first_bad_commit" : "first_bad_at_or_before", r->first_bad);
    cJSON_AddStringToObject(j, "last_good", r->last_good);
    cJSON_AddStringToObject(j, "subject", r->subject);
    cJSON_AddBoolToObject(j, "decided", r->decided);
    cJSON_AddNumberToObject(j, "commits", r->ncommits);
    cJSON_AddNumberToObject(j, "builds", r->builds);
    skb_json_add_number(j, "good", r->good_value);
    skb_json_add_number(j, "first_bad_value", r->first_value);
    cJSON_AddNumberToObject(j, "confidence", r->confidence);
    cJSON_AddItemToObject(j, "steps", cJSON_Duplicate(r->steps, 1));
    return j;
}

/* one bisect: its line, its JSON into arr; the exit code */
static int one(const struct skb_bisect_opts *o, cJSON *arr)
{
    struct skb_bisect_result r;
    char msg[1200] = "";
    int rc = skb_bisect_run(o, stdout, &r, msg, sizeof msg);
    const char *what = o->kernel ? o->kernel : o->method;
    if (rc < 0)
        skb_cli_error("bisect %s: %s", what, msg);
    else if (r.decided)
        printf("bisect: %s first moved at %.12s \"%s\" (%d commits, %d builds%s)\n", what, r.first_bad, r.subject,
               r.ncommits, r.builds, o->kernel ? "" : "; each step decided at its CI");
    else
        printf("bisect: %s: undecided; the first slow commit is after %.12s and at or before %.12s (%d builds)\n",
               what, r.last_good, r.first_bad, r.builds);
    if (!o->kernel && rc == 0 && r.decided)
        printf("bisect: confidence that no step decided wrongly: at least %.0f %%\n", 100 * r.confidence);
    cJSON_AddItemToArray(arr, result_json(o, &r, rc, msg));
    skb_bisect_result_free(&r);
    return rc < 0 ? (rc == SKB_EINVAL ? 2 : 1) : r.decided ? 0 : 3;
}

/* compare.json's regressions: per method the kernel whose count grew most,
 * and the methods slower by A/B whose kernels did not move; at most max */
static int from_compare(const char *path, char kern[][200], char meth[][80], int max)
{
    cJSON *doc = NULL;
    char msg[400];
    int n = 0;
    if (skb_json_read_file(path, &doc, msg, sizeof msg) < 0) {
        skb_cli_error("bisect: --from-compare: %s", msg);
        return -1;
    }
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(doc, "icount")) {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "verdict"));
        const char *g = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "group"));
        const char *b = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "benchmark"));
        int seen = 0;
        for (int i = 0; g && i < n && !seen; i++)
            seen = strcmp(meth[i], g) == 0;
        /* the rows are sorted slowest first: the first of a method is its largest */
        if (v && g && b && strcmp(v, "REGRESSION") == 0 && !seen && n < max) {
            snprintf(kern[n], 200, "%s", b);
            snprintf(meth[n++], 80, "%s", g);
        }
    }
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "ab"), "per_method")) {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "verdict"));
        const char *g = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "group"));
        int seen = 0;
        for (int i = 0; g && i < n && !seen; i++)
            seen = strcmp(meth[i], g) == 0;
        if (v && g && strcmp(v, "REGRESSION") == 0 && !seen && n < max) {
            kern[n][0] = 0;
            snprintf(meth[n++], 80, "%s", g);
        }
    }
    cJSON_Delete(doc);
    return n;
}

static int run_all(struct bisect_cli *c, cJSON *arr)
{
    if (!c->from_compare)
        return one(&c->o, arr);
    char kern[MAX_FROM_COMPARE][200], meth[MAX_FROM_COMPARE][80];
    int n = from_compare(c->from_compare, kern, meth, MAX_FROM_COMPARE), worst = 0;
    if (n < 0)
        return 2;
    if (n == 0)
        printf("bisect: %s names no regression: nothing to bisect\n", c->from_compare);
    for (int i = 0; i < n; i++) {
        struct skb_bisect_opts o = c->o;
        o.kernel = kern[i][0] ? kern[i] : NULL;
        o.method = kern[i][0] ? NULL : meth[i];
        int rc = one(&o, arr);
        worst = rc > worst ? rc : worst;
    }
    return worst;
}

int skb_cmd_bisect(int argc, char **argv)
{
    struct bisect_cli c;
    memset(&c, 0, sizeof c);
    int rc = skb_cli_parse(&bisect_spec, argc, argv, &c);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (c.npos != 2) {
        skb_cli_error("bisect: need GOOD and BAD (revisions or run folders; see skinbench bisect --help)");
        return 2;
    }
    if (!c.from_compare && (c.timing ? !c.o.method || c.o.kernel : !c.o.kernel || c.o.method)) {
        skb_cli_error("bisect: name --kernel NAME (instructions), or --timing --method M (see skinbench bisect --help)");
        return 2;
    }
    c.o.good = c.pos[0];
    c.o.bad = c.pos[1];
    cJSON *arr = cJSON_CreateArray();
    rc = run_all(&c, arr);
    if (c.summary) {
        char msg[600];
        if (skb_json_write_atomic(c.summary, arr, msg, sizeof msg) < 0) {
            skb_cli_error("bisect: %s", msg);
            rc = rc ? rc : 1;
        }
    }
    cJSON_Delete(arr);
    return rc;
}
