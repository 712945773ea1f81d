/* bisect.c — the first commit between GOOD and BAD that moved a kernel
 * (skb_bisect.h).  The commits of GOOD..BAD (ancestry path) are searched by
 * halving: a midpoint is checked out in one scratch worktree and built
 * there (make rebuilds only what the checkout changed), then measured:
 * instructions by `run icount` on the kernel's method and dataset (exact:
 * one build decides), or time by a paired A/B sitting of the method against
 * GOOD's binary (scripts/nightly-ab.sh), decided by the CI of the estimate.
 * GOOD is built once unless a run folder gives its count; BAD is built only
 * when the search ends at it without having measured it.  32 commits take
 * at most 1 + 5 builds.  Every program is run from an argument vector: no
 * revision or name reaches a shell. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_label.h"
#include "skb_bisect.h"
#include "compare_internal.h"   /* skb__bench_group */
#include "report_internal.h"    /* skb__jget, skb__jstr */

#define BISECT_TOL 0.005       /* compare_ab.c's ICOUNT_TOL: a count that moved more is a step */
#define BISECT_ALPHA 0.05      /* timing: the family level of all steps together (Bonferroni) */
#define BISECT_MIN_EFFECT 0.03 /* timing: a step is a slow-down the CI puts above 0 and the estimate above this */
#define BISECT_ROUNDS 20       /* scripts/nightly-ab.sh's default */

struct bis {
    const struct skb_bisect_opts *o;
    struct skb_bisect_result *r;
    FILE *log;
    int logfd, seeded, nsteps_max;
    char top[PATH_MAX], work[PATH_MAX], tree[PATH_MAX], good_bin[PATH_MAX + 32];
    char method[80], dataset[80];
    char **commit;             /* GOOD..BAD, oldest first */
    int n;
};

/* ---- running programs: an argument vector, a working directory, the log ---- */

/* argv in cwd (NULL: here); stderr, and stdout unless captured, into the
 * log; *out the captured stdout (NUL-terminated) when out; the exit status,
 * or -1 when it could not run */
static int run_cmd(struct bis *b, char *const argv[], const char *cwd, char **out)
{
    int pfd[2] = { -1, -1 };
    if (out && pipe(pfd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if ((cwd && chdir(cwd) != 0) || dup2(out ? pfd[1] : b->logfd, 1) < 0 || dup2(b->logfd, 2) < 0)
            _exit(127);
        if (out)
            close(pfd[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    size_t len = 0, cap = 0;
    char *buf = NULL;
    if (out) {
        close(pfd[1]);
        char chunk[4096];
        ssize_t k;
        while (pid > 0 && (k = read(pfd[0], chunk, sizeof chunk)) != 0) {
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0)
                break;
            if (len + (size_t)k + 1 > cap && !(buf = realloc(buf, cap = 2 * (len + (size_t)k + 1))))
                break;
            memcpy(buf + len, chunk, (size_t)k);
            len += (size_t)k;
        }
        close(pfd[0]);
        if (buf)
            buf[len] = 0;
        *out = buf ? buf : strdup("");
    }
    int st;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* git in the checkout (or the scratch worktree): its first line of output into line */
static int git_line(struct bis *b, const char *cwd, char *const args[], char *line, size_t len)
{
    char *argv[12] = { "git" }, *out = NULL;
    int k = 1;
    for (; args[k - 1] && k < 11; k++)
        argv[k] = args[k - 1];
    argv[k] = NULL;
    int rc = run_cmd(b, argv, cwd, &out);
    if (line) {
        snprintf(line, len, "%s", out ? out : "");
        line[strcspn(line, "\n")] = 0;
    }
    free(out);
    return rc;
}

/* ---- the two ends ---- */

/* a run folder's revision and (instructions) its count of the kernel; 1
 * when spec is such a folder, 0 when it is a revision, SKB_E* on error */
static int end_from_folder(struct bis *b, const char *spec, char *rev, size_t revlen, double *count, int *quick,
                           char *msg, size_t msglen)
{
    char path[PATH_MAX + 32];
    cJSON *m = NULL, *ic = NULL;
    snprintf(path, sizeof path, "%s/manifest.json", spec);
    if (access(path, F_OK) != 0)
        return 0;
    if (skb_json_read_file(path, &m, msg, msglen) < 0)
        return SKB_EPARSE;
    const char *r = skb__jstr(skb__jget(skb__jget(m, "binary"), "git_rev"));
    int rc = 1;
    if (!r || !*r) {
        snprintf(msg, msglen, "%s: the run names no git revision (built outside a checkout?)", path);
        rc = SKB_EINVAL;
    } else {
        snprintf(rev, revlen, "%s", r);
        *quick = cJSON_IsTrue(skb__jget(m, "quick"));
    }
    /* a binary built from a dirty tree ran code that is in no commit: its
     * count is not its commit's, so that end is measured, not taken */
    const char *d = skb__jstr(skb__jget(skb__jget(m, "binary"), "git_describe"));
    int dirty = d && strlen(d) > 6 && strcmp(d + strlen(d) - 6, "-dirty") == 0;
    if (dirty)
        fprintf(b->log, "bisect: %s was built from a dirty tree (%s): its commit is built and counted\n", spec, d);
    snprintf(path, sizeof path, "%s/icount.json", spec);
    if (rc == 1 && !dirty && b->o->kernel && skb_json_read_file(path, &ic, msg, msglen) == 0)
        skb_json_get_number(skb__jget(skb__jget(ic, "kernels"), b->o->kernel), count);
    cJSON_Delete(ic);
    cJSON_Delete(m);
    return rc;
}

static int resolve(struct bis *b, const char *spec, char *rev, size_t revlen, char *msg, size_t msglen)
{
    char arg[300];
    snprintf(arg, sizeof arg, "%s^{commit}", spec);
    char *args[] = { "rev-parse", "--verify", "--quiet", arg, NULL };
    if (git_line(b, b->top, args, rev, revlen) != 0 || !*rev) {
        snprintf(msg, msglen, "'%.200s' is not a commit of %.300s", spec, b->top);
        return SKB_EINVAL;
    }
    return 0;
}

/* the commits of good..bad along the ancestry path, oldest first */
static int list_commits(struct bis *b, const char *good, const char *bad, char *msg, size_t msglen)
{
    char range[120], *out = NULL;
    snprintf(range, sizeof range, "%s..%s", good, bad);
    char *argv[] = { "git", "rev-list", "--reverse", "--ancestry-path", range, NULL };
    char *anc[] = { "merge-base", "--is-ancestor", (char *)good, (char *)bad, NULL };
    if (git_line(b, b->top, anc, NULL, 0) != 0) {
        snprintf(msg, msglen, "GOOD %.12s is not an ancestor of BAD %.12s: nothing to bisect between them", good, bad);
        return SKB_EINVAL;
    }
    if (run_cmd(b, argv, b->top, &out) != 0 || !out) {
        free(out);
        snprintf(msg, msglen, "git rev-list %s failed (see %s/bisect.log)", range, b->work);
        return SKB_EIO;
    }
    for (char *p = out; *p; p += strcspn(p, "\n"), p += *p == '\n') {
        size_t l = strcspn(p, "\n");
        if (!l)
            continue;
        char **c = realloc(b->commit, ((size_t)b->n + 1) * sizeof *c);
        if (!c || !(c[b->n] = strndup(p, l))) {
            free(out);
            return SKB_ENOMEM;
        }
        b->commit = c;
        b->n++;
    }
    free(out);
    if (b->n == 0) {
        snprintf(msg, msglen, "no commit between GOOD and BAD (the same revision?)");
        return SKB_EINVAL;
    }
    return 0;
}

/* ---- building a revision in the scratch worktree ---- */

/* the worktree at rev, and the seed build's objects copied in after the
 * checkout (newer than its sources: make rebuilds only what later
 * checkouts change) */
static int make_tree(struct bis *b, const char *rev, char *msg, size_t msglen)
{
    char *args[] = { "worktree", "add", "--detach", "--quiet", b->tree, (char *)rev, NULL };
    if (git_line(b, b->top, args, NULL, 0) != 0) {
        snprintf(msg, msglen, "git worktree add %.200s failed (see %.300s/bisect.log)", b->tree, b->work);
        return SKB_EIO;
    }
    if (!b->seeded)
        return 0;
    char dst[PATH_MAX + 16];
    snprintf(dst, sizeof dst, "%s/build", b->tree);
    char *cp[] = { "cp", "-r", (char *)b->o->seed_build, dst, NULL };
    if (run_cmd(b, cp, NULL, NULL) != 0) {
        snprintf(msg, msglen, "cannot copy the seed build %.300s", b->o->seed_build);
        return SKB_EIO;
    }
    return 0;
}

static int build_rev(struct bis *b, const char *rev, char *msg, size_t msglen)
{
    char jobs[16];
    snprintf(jobs, sizeof jobs, "-j%d", b->o->jobs > 0 ? b->o->jobs : 2);
    char *co[] = { "checkout", "--quiet", "--detach", (char *)rev, NULL };
    char *mk[] = { "make", "--no-print-directory", jobs, "SAY=:", "skinbench", NULL };
    fprintf(b->log, "bisect: building %.12s ...\n", rev);
    fflush(b->log);
    if (git_line(b, b->tree, co, NULL, 0) != 0 || run_cmd(b, mk, b->tree, NULL) != 0) {
        snprintf(msg, msglen, "building %.12s failed (see %.300s/bisect.log)", rev, b->work);
        return SKB_EIO;
    }
    b->r->builds++;
    return 0;
}

/* ---- measuring a build ---- */

static int count_of(struct bis *b, const char *rev, double *v, char *msg, size_t msglen)
{
    char exe[PATH_MAX + 16], out[PATH_MAX + 64], path[PATH_MAX + 96];
    snprintf(exe, sizeof exe, "%s/skinbench", b->tree);
    snprintf(out, sizeof out, "%s/count-%.12s", b->work, rev);
    char *argv[] = { exe, "run", "icount", "--quiet", "--methods", b->method, "--datasets", b->dataset, "--out", out,
                     b->o->quick ? "--quick" : NULL, NULL };
    cJSON *doc = NULL;
    snprintf(path, sizeof path, "%s/icount.json", out);
    if (run_cmd(b, argv, b->tree, NULL) != 0 || skb_json_read_file(path, &doc, msg, msglen) < 0) {
        snprintf(msg, msglen, "counting %.200s at %.12s failed (see %.300s/bisect.log)", b->o->kernel, rev, b->work);
        return SKB_EIO;
    }
    int rc = skb_json_get_number(skb__jget(skb__jget(doc, "kernels"), b->o->kernel), v);
    cJSON_Delete(doc);
    if (rc < 0 || !(*v > 0)) {
        snprintf(msg, msglen, "%.200s has no instruction count at %.12s (not a kernel of that revision?)",
                 b->o->kernel, rev);
        return SKB_EINVAL;
    }
    return 0;
}

/* a paired sitting of the method: GOOD's binary against this build */
static int time_of(struct bis *b, const char *rev, double *est, double *lo, double *hi, char *msg, size_t msglen)
{
    char script[PATH_MAX + 32], exe[PATH_MAX + 16], out[PATH_MAX + 32], rounds[16];
    snprintf(script, sizeof script, "%s/scripts/nightly-ab.sh", b->top);
    snprintf(exe, sizeof exe, "%s/skinbench", b->tree);
    snprintf(out, sizeof out, "%s/ab-%.12s", b->work, rev);
    snprintf(rounds, sizeof rounds, "%d", b->o->rounds > 0 ? b->o->rounds : BISECT_ROUNDS);
    char *argv[] = { "bash", script, "--a", b->good_bin, "--b", exe, "--out", out, "--rounds", rounds, "--datasets",
                     b->dataset, NULL };
    struct skb_ab ab;
    if (run_cmd(b, argv, NULL, NULL) != 0) {
        snprintf(msg, msglen, "the A/B sitting at %.12s failed (see %.300s/bisect.log)", rev, b->work);
        return SKB_EIO;
    }
    if (skb_ab_load(out, &ab, msg, msglen) < 0)
        return SKB_EINVAL;   /* msg: the sitting's own reason (a GOOD side with an injected slow-down, ...) */
    double alpha = BISECT_ALPHA / (b->nsteps_max > 0 ? b->nsteps_max : 1);
    int rc = skb_ab_method_estimate(&ab, b->method, alpha, est, lo, hi);
    skb_ab_free(&ab);
    if (rc < 0) {
        snprintf(msg, msglen, "the sitting at %.12s timed no benchmark of method %.80s", rev, b->method);
        return SKB_EINVAL;
    }
    return 0;
}

static void step_json(struct bis *b, const char *rev, double v, double lo, double hi, const char *verdict)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "revision", rev);
    skb_json_add_number(s, b->o->kernel ? "instructions" : "estimate", v);
    if (!b->o->kernel) {
        skb_json_add_number(s, "ci_low", lo);
        skb_json_add_number(s, "ci_high", hi);
    }
    cJSON_AddStringToObject(s, "verdict", verdict);
    cJSON_AddItemToArray(b->r->steps, s);
}

/* build rev and decide: 1 moved, 0 not, 2 undecided (timing), SKB_E* */
static int moved(struct bis *b, const char *rev, char *msg, size_t msglen)
{
    int rc = build_rev(b, rev, msg, msglen);
    double v = NAN, lo = NAN, hi = NAN;
    if (rc == 0)
        rc = b->o->kernel ? count_of(b, rev, &v, msg, msglen) : time_of(b, rev, &v, &lo, &hi, msg, msglen);
    if (rc < 0)
        return rc;
    int verdict;
    if (b->o->kernel)
        verdict = fabs(v / b->r->good_value - 1) > (b->o->tol > 0 ? b->o->tol : BISECT_TOL);
    else
        verdict = lo > 0 && v > BISECT_MIN_EFFECT ? 1 : hi < BISECT_MIN_EFFECT ? 0 : 2;
    const char *vs = verdict == 1 ? "moved" : verdict == 0 ? "same as GOOD" : "undecided";
    step_json(b, rev, v, lo, hi, vs);
    if (b->o->kernel)
        fprintf(b->log, "bisect: %.12s: %.0f instructions (%+.2f %% against GOOD): %s\n", rev, v,
                100 * (v / b->r->good_value - 1), vs);
    else
        fprintf(b->log, "bisect: %.12s: %+.1f %% [%+.1f, %+.1f] against GOOD's binary: %s\n", rev, 100 * v, 100 * lo,
                100 * hi, vs);
    fflush(b->log);
    if (verdict == 1)
        b->r->first_value = v;
    return verdict;
}

/* ---- the search ---- */

/* GOOD's reference: its count (from its folder, or built), or its binary (timing) */
static int measure_good(struct bis *b, const char *good, int good_known, char *msg, size_t msglen)
{
    if (b->o->kernel && good_known)
        return 0;
    if (!b->o->kernel && b->o->good_binary) {
        snprintf(b->good_bin, sizeof b->good_bin, "%s", b->o->good_binary);
        return 0;
    }
    int rc = build_rev(b, good, msg, msglen);
    if (rc == 0 && b->o->kernel) {
        rc = count_of(b, good, &b->r->good_value, msg, msglen);
        if (rc == 0) {
            step_json(b, good, b->r->good_value, NAN, NAN, "GOOD");
            fprintf(b->log, "bisect: GOOD %.12s: %.0f instructions\n", good, b->r->good_value);
        }
    } else if (rc == 0) {
        char src[PATH_MAX + 16];
        snprintf(src, sizeof src, "%s/skinbench", b->tree);
        snprintf(b->good_bin, sizeof b->good_bin, "%s/good-skinbench", b->work);
        char *cp[] = { "cp", src, b->good_bin, NULL };
        if (run_cmd(b, cp, NULL, NULL) != 0) {
            snprintf(msg, msglen, "cannot keep GOOD's binary in %.300s", b->work);
            rc = SKB_EIO;
        }
    }
    return rc;
}

/* halving: position 0 is GOOD, i the commit i (1..n, n = BAD); the first
 * moved position is found assuming BAD moved, then BAD is measured if the
 * search ended there without measuring it */
static int search(struct bis *b, int bad_known, char *msg, size_t msglen)
{
    int lo = 0, hi = b->n, v;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if ((v = moved(b, b->commit[mid - 1], msg, msglen)) < 0)
            return v;
        if (v == 2) {
            b->r->decided = 0;   /* undecided: the range lo..hi stays, said as such */
            break;
        }
        if (v == 1)
            hi = mid;
        else
            lo = mid;
    }
    if (b->r->decided && hi == b->n && !bad_known) {
        if ((v = moved(b, b->commit[b->n - 1], msg, msglen)) < 0)
            return v;
        if (v != 1) {
            snprintf(msg, msglen, "BAD %.12s did not move against GOOD (%s): nothing to bisect",
                     b->commit[b->n - 1], v == 2 ? "undecided" : "the same");
            return SKB_EINVAL;
        }
    }
    snprintf(b->r->first_bad, sizeof b->r->first_bad, "%s", b->commit[hi - 1]);
    if (lo)   /* else last_good stays GOOD's revision (bisect) */
        snprintf(b->r->last_good, sizeof b->r->last_good, "%s", b->commit[lo - 1]);
    return 0;
}

/* the scratch folder and its log; the repository's top; the method and dataset */
static int setup(struct bis *b, char *msg, size_t msglen)
{
    const struct skb_bisect_opts *o = b->o;
    const char *tmp = getenv("TMPDIR");
    if (o->work)
        snprintf(b->work, sizeof b->work, "%s", o->work);
    else
        snprintf(b->work, sizeof b->work, "%s/skb-bisect-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (o->work ? skb_mkdirs(b->work, msg, msglen) < 0 : !mkdtemp(b->work)) {
        if (!o->work)
            snprintf(msg, msglen, "%.300s: cannot create the scratch folder: %s", b->work, strerror(errno));
        return SKB_EIO;
    }
    char logp[PATH_MAX + 16];
    snprintf(logp, sizeof logp, "%s/bisect.log", b->work);
    snprintf(b->tree, sizeof b->tree, "%.*s/tree", (int)sizeof b->tree - 6, b->work);
    if ((b->logfd = open(logp, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0) {
        snprintf(msg, msglen, "%.300s: cannot open: %s", logp, strerror(errno));
        return SKB_EIO;
    }
    char *top[] = { "rev-parse", "--show-toplevel", NULL };
    if (git_line(b, o->repo ? o->repo : ".", top, b->top, sizeof b->top) != 0 || !b->top[0]) {
        snprintf(msg, msglen, "%.300s is not in a git checkout", o->repo ? o->repo : "the current directory");
        return SKB_EINVAL;
    }
    if (o->kernel) {
        const char *ds = strrchr(o->kernel, '/');
        skb__bench_group(o->kernel, b->method, sizeof b->method);
        snprintf(b->dataset, sizeof b->dataset, "%s", ds ? ds + 1 : "cloth");
    } else {
        snprintf(b->method, sizeof b->method, "%s", o->method);
        snprintf(b->dataset, sizeof b->dataset, "cloth");
    }
    return 0;
}

/* --seed-build: its revision (given, or its git-describe stamp when clean) */
static int seed_rev(struct bis *b, char *rev, size_t len, char *msg, size_t msglen)
{
    const struct skb_bisect_opts *o = b->o;
    if (!o->seed_build)
        return 0;
    if (o->seed_rev)
        return resolve(b, o->seed_rev, rev, len, msg, msglen) < 0 ? SKB_EINVAL : 1;
    char stamp[PATH_MAX + 32], *text = NULL, d[128] = "", r[64] = "";
    size_t n;
    snprintf(stamp, sizeof stamp, "%s/git-describe", o->seed_build);
    if (skb_read_file(stamp, &text, &n, msg, msglen) == 0 && sscanf(text, "%127s %63s", d, r) == 2
        && !strstr(d, "-dirty") && resolve(b, r, rev, len, msg, msglen) == 0) {
        free(text);
        return 1;
    }
    free(text);
    fprintf(b->log, "bisect: %s was not built from a clean commit (its git-describe stamp): building from "
            "scratch\n", o->seed_build);
    return 0;
}

/* GOOD's and BAD's revisions (and counts, from run folders) */
static int ends(struct bis *b, char *good, char *bad, int *gk, int *bk, char *msg, size_t msglen)
{
    int q1 = b->o->quick, q2 = b->o->quick;
    int rc = end_from_folder(b, b->o->good, good, 48, &b->r->good_value, &q1, msg, msglen);
    if (rc == 0)
        rc = resolve(b, b->o->good, good, 48, msg, msglen);
    else if (rc == 1)
        *gk = isfinite(b->r->good_value) && b->r->good_value > 0;
    if (rc < 0)
        return rc;
    rc = end_from_folder(b, b->o->bad, bad, 48, &b->r->bad_value, &q2, msg, msglen);
    if (rc == 0)
        rc = resolve(b, b->o->bad, bad, 48, msg, msglen);
    else if (rc == 1)
        *bk = isfinite(b->r->bad_value) && b->r->bad_value > 0;
    if (rc < 0)
        return rc;
    if (q1 != q2) {
        snprintf(msg, msglen, "GOOD and BAD were counted in different modes (--quick in one only): not comparable");
        return SKB_EINVAL;
    }
    ((struct skb_bisect_opts *)b->o)->quick = q1;
    if (*gk && *bk && fabs(b->r->bad_value / b->r->good_value - 1) <= (b->o->tol > 0 ? b->o->tol : BISECT_TOL)) {
        snprintf(msg, msglen, "%s: %.0f instructions at GOOD, %.0f at BAD: the count did not move", b->o->kernel,
                 b->r->good_value, b->r->bad_value);
        return SKB_EINVAL;
    }
    return 0;
}

static void cleanup(struct bis *b, int ok)
{
    if (b->tree[0] && b->top[0] && !b->o->keep) {
        char *rm[] = { "worktree", "remove", "--force", b->tree, NULL };
        git_line(b, b->top, rm, NULL, 0);
    }
    if (b->logfd >= 0)
        close(b->logfd);
    if (ok && !b->o->keep && !b->o->work && b->work[0]) {
        char *rm[] = { "rm", "-rf", "--", b->work, NULL };
        b->logfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        run_cmd(b, rm, NULL, NULL);
        if (b->logfd >= 0)
            close(b->logfd);
    }
    for (int i = 0; i < b->n; i++)
        free(b->commit[i]);
    free(b->commit);
}

static int bisect(struct bis *b, char *msg, size_t msglen)
{
    char good[48], bad[48], seed[48];
    int gk = 0, bk = 0, rc = ends(b, good, bad, &gk, &bk, msg, msglen);
    if (rc == 0)
        rc = list_commits(b, good, bad, msg, msglen);
    if (rc < 0)
        return rc;
    b->r->ncommits = b->n;
    for (int k = b->n; k > 1; k = (k + 1) / 2)
        b->nsteps_max++;
    b->nsteps_max++;
    snprintf(b->r->last_good, sizeof b->r->last_good, "%s", good);
    fprintf(b->log, "bisect: %d commits after GOOD %.12s up to BAD %.12s; %s of %s (%s, dataset %s)\n", b->n, good,
            bad, b->o->kernel ? "instructions" : "paired time", b->o->kernel ? b->o->kernel : b->method, b->method,
            b->dataset);
    int seeded = seed_rev(b, seed, sizeof seed, msg, msglen);
    if (seeded < 0)
        return seeded;
    b->seeded = seeded;
    if ((rc = make_tree(b, seeded ? seed : good, msg, msglen)) < 0 || (rc = measure_good(b, good, gk, msg, msglen)) < 0)
        return rc;
    return search(b, bk, msg, msglen);
}

int skb_bisect_run(const struct skb_bisect_opts *o, FILE *log, struct skb_bisect_result *r, char *msg,
                   size_t msglen)
{
    struct bis b;
    memset(&b, 0, sizeof b);
    memset(r, 0, sizeof *r);
    b.o = o;
    b.r = r;
    b.log = log;
    b.logfd = -1;
    r->good_value = r->bad_value = r->first_value = NAN;
    r->decided = 1;
    r->confidence = o->kernel ? 1 : 1 - BISECT_ALPHA;
    r->steps = cJSON_CreateArray();
    if ((!o->kernel) == (!o->method)) {
        snprintf(msg, msglen, "bisect: name a kernel (instructions) or a method (--timing), not both");
        return SKB_EINVAL;
    }
    int rc = setup(&b, msg, msglen);
    if (rc == 0)
        rc = bisect(&b, msg, msglen);
    if (rc == 0) {
        char *args[] = { "log", "-1", "--format=%s", r->first_bad, NULL };
        git_line(&b, b.top, args, r->subject, sizeof r->subject);
    } else if (b.work[0]) {
        snprintf(msg + strlen(msg), msglen - strlen(msg), " [scratch kept: %.300s]", b.work);
    }
    cleanup(&b, rc == 0);
    return rc;
}

void skb_bisect_result_free(struct skb_bisect_result *r)
{
    if (r)
        cJSON_Delete(r->steps);
}
