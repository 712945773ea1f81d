/* exp_flops.c — `skinbench run flops`: FLOPs per blend counted by executing
 * every method's code (build/skinbench-flops, the methods recompiled with a
 * counting skb_real; flops/flop_real.hpp), fitted as a*n + b beside thesis
 * Table 4.1, plus callgrind instruction counts of the double build as the
 * deterministic companion.  Writes flops.json (`run` then renders table-4.1.md
 * from it with the report's renderer). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_props.h"
#include "skb_flops.h"
#include "skb_icount.h"
#include "skb_scratch.h"

#define FLOPS_NMAX 8
#define FIELD_ADD 0
#define FIELD_MUL 1
#define FIELD_DIV 2
#define FIELD_SQRT 3
#define FIELD_TRANS 4
#define FIELD_CMP 5
#define FIELD_ITER 8
#define NFIELDS 9
#define CG_INPUTS 64          /* distinct inputs cycled by the callgrind loop */
#define CG_ALIGN 64
#define CG_BLENDS 640         /* blends per callgrind run */
#define CG_ENV SKB_FLOPS_CHILD_ENV

static const char *const field_names[NFIELDS] = {
    "add", "mul", "div", "sqrt", "transcendental", "cmp", "neg", "abs", "iterations"
};

/* ---- child processes: argv vectors, never a shell (an
 * install path containing ' broke the old sh -c command line, and any path
 * from the command line was interpolated into it) ---- */

/* environ plus one NAME=VALUE entry (or a copy of environ); caller frees */
static char **env_with(const char *extra)
{
    extern char **environ;
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    memcpy(env, environ, n * sizeof *env);
    env[n] = (char *)extra;   /* NULL when there is nothing to add */
    return env;
}

/* in the child: die with the parent (kill -9 of skinbench must not leave a
 * callgrind run writing into the temporary directory), then exec */
static void exec_child(char *const argv[], char **env, int out_fd, int quiet_stderr)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        _exit(127);
    int null_fd = open("/dev/null", O_WRONLY);
    if (out_fd >= 0)
        dup2(out_fd, 1);
    else if (null_fd >= 0)
        dup2(null_fd, 1);
    if (quiet_stderr && null_fd >= 0)
        dup2(null_fd, 2);
    execvpe(argv[0], argv, env);
    _exit(127);
}

/* read fd to the end into a NUL-terminated buffer (caller frees) */
static char *read_all(int fd)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            return NULL;
        if (len + 4096 > cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
            continue;
        }
        ssize_t k = read(fd, buf + len, 4096);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    buf[len] = 0;
    return buf;
}

/* run argv (PATH lookup, env_extra "NAME=VALUE" or NULL added to the
 * environment); out != NULL captures stdout (caller frees), else stdout goes
 * to /dev/null; 0 when it exits 0 */
static int spawn(char *const argv[], const char *env_extra, int quiet_stderr, char **out,
                 char *msg, size_t msglen)
{
    int fds[2] = { -1, -1 };
    char **env = env_with(env_extra);
    if (!env || (out && pipe2(fds, O_CLOEXEC) != 0)) {
        free(env);
        snprintf(msg, msglen, "flops: cannot run %s: %s", argv[0], env ? strerror(errno) : "out of memory");
        return SKB_EIO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        exec_child(argv, env, fds[1], quiet_stderr);
    free(env);
    if (fds[1] >= 0)
        close(fds[1]);
    if (pid < 0) {
        if (fds[0] >= 0)
            close(fds[0]);
        snprintf(msg, msglen, "flops: cannot run %s: fork: %s", argv[0], strerror(errno));
        return SKB_EIO;
    }
    char *text = out ? read_all(fds[0]) : NULL;
    if (fds[0] >= 0)
        close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || (out && !text)) {
        free(text);
        if (out && !text && WIFEXITED(st) && WEXITSTATUS(st) == 0)
            snprintf(msg, msglen, "flops: out of memory reading the output of %s", argv[0]);
        else
            snprintf(msg, msglen, "flops: %s failed (%s %d)", argv[0], WIFEXITED(st) ? "exit status" : "signal",
                     WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        return SKB_EIO;
    }
    if (out)
        *out = text;
    return 0;
}

/* the same for exp_icount.c: stdout and stderr to /dev/null */
int skb__harness_spawn(char *const argv[], const char *env_extra, char *msg, size_t msglen)
{
    return spawn(argv, env_extra, 1, NULL, msg, msglen);
}

/* build/skinbench-flops next to the running executable, or in build/ below it */
static int find_flops_bin(const struct skb_run_ctx *ctx, char *path, size_t len)
{
    const char *env = getenv("SKB_FLOPS_BIN");
    static const char *const rel[] = { "skinbench-flops", "build/skinbench-flops" };
    if (env && access(env, X_OK) == 0) {
        snprintf(path, len, "%s", env);
        return 0;
    }
    for (int i = 0; i < 2 && ctx->exe_path; i++) {
        snprintf(path, len, "%s", ctx->exe_path);
        char *slash = strrchr(path, '/');
        if (!slash)
            break;
        snprintf(slash + 1, len - (size_t)(slash + 1 - path), "%s", rel[i]);
        if (access(path, X_OK) == 0)
            return 0;
    }
    return -1;
}

struct stats { double mean, min, max, median; };

static struct stats stats_of(double *v, int k)
{
    struct stats s = { 0, 0, 0, 0 };
    if (k == 0)
        return s;
    s.median = skb_sorted_median(v, k);
    s.min = v[0];
    s.max = v[k - 1];
    for (int i = 0; i < k; i++)
        s.mean += v[i] / k;
    return s;
}

static cJSON *stats_json(struct stats s)
{
    cJSON *o = cJSON_CreateObject();
    skb_json_add_number(o, "mean", s.mean);
    skb_json_add_number(o, "median", s.median);
    skb_json_add_number(o, "min", s.min);
    skb_json_add_number(o, "max", s.max);
    return o;
}

/* least squares a*n + b (gsl_fit_linear); fewer than 3 points: constant */
static cJSON *fit_json(const double *n, const double *y, int k, const char *what)
{
    cJSON *o = cJSON_CreateObject();
    double a = 0, b = 0, c00, c01, c11, ss;
    if (k >= 3 && gsl_fit_linear(n, 1, y, 1, (size_t)k, &b, &a, &c00, &c01, &c11, &ss) == 0) {
        skb_json_add_number(o, "a", a);
        skb_json_add_number(o, "b", b);
        skb_json_add_number(o, "residual_ss", ss);
        cJSON_AddStringToObject(o, "how", what);
    } else if (k > 0) {
        skb_json_add_number(o, "a", 0);
        skb_json_add_number(o, "b", y[k - 1]);
        cJSON_AddStringToObject(o, "how", "constant: the count at the largest n the method takes");
    }
    return o;
}

static int rec_field(const cJSON *rec, int f, double *out)
{
    return skb_json_get_number(cJSON_GetArrayItem(rec, f), out);
}

/* ---- where a method's a*n + b goes ---- */

/* "name x (+d div, s sqrt, t transcendental)" of the named primitives into
 * buf; returns their FLOPs, or NAN when one was not measured */
static double parts_text(const cJSON *prims, const char *const *names, char *buf, size_t len)
{
    double total = 0;
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; names[i]; i++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(prims, names[i]);
        double f, dv = 0, sq = 0, tr = 0;
        if (skb_json_get_number(cJSON_GetObjectItemCaseSensitive(o, "flops"), &f) < 0)
            return NAN;
        skb_json_get_number(cJSON_GetObjectItemCaseSensitive(o, "div"), &dv);
        skb_json_get_number(cJSON_GetObjectItemCaseSensitive(o, "sqrt"), &sq);
        skb_json_get_number(cJSON_GetObjectItemCaseSensitive(o, "transcendental"), &tr);
        int n = snprintf(buf + used, len - used, "%s%s %.4g (+%.3g div, %.3g sqrt, %.3g transc.)", i ? ", " : "",
                         names[i], f, dv, sq, tr);
        if (n > 0 && (size_t)n < len - used)
            used += (size_t)n;
        total += f;
    }
    return total;
}

/* flops.json "why": {method: text}: the fitted a (per transform) and b (per
 * blend) split into the primitives counted alone and the rest */
static void add_breakdown(cJSON *root, const cJSON *fits, const cJSON *prims)
{
    cJSON *why = cJSON_AddObjectToObject(root, "why");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        const struct skb_flop_parts *fp = m->flop_parts;   /* named by the method (methods/<name>.c) */
        const cJSON *fit = cJSON_GetObjectItemCaseSensitive(fits, m->name);
        double a, b;
        char ta[400], tb[600], text[2400];
        if (!fp || !fp->rest || skb_json_get_number(cJSON_GetObjectItemCaseSensitive(fit, "a"), &a) < 0 ||
            skb_json_get_number(cJSON_GetObjectItemCaseSensitive(fit, "b"), &b) < 0)
            continue;
        double pa = parts_text(prims, fp->per_transform, ta, sizeof ta);
        double pb = parts_text(prims, fp->per_blend, tb, sizeof tb);
        if (!isfinite(pa) || !isfinite(pb))
            continue;
        snprintf(text, sizeof text, "where the fit goes (primitives counted alone): per transform a = %.4g: %s%s"
                 "%.4g other; per blend b = %.4g: %s%s%.4g other; other = %s", a, ta, ta[0] ? " + " : "", a - pa,
                 b, tb, tb[0] ? " + " : "", b - pb, fp->rest);
        cJSON_AddStringToObject(why, m->name, text);
    }
}

/* ---- callgrind: instructions per blend of the double build ---- */

static void random_input(gsl_rng *r, int n, double *mats, double *w, double *c)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        skb_props_random_rigid(r, 1.0, mats + 16 * i);
        s += (w[i] = gsl_rng_uniform_pos(r));
    }
    for (int i = 0; i < n; i++)
        w[i] /= s;
    for (int k = 0; k < 3; k++)
        c[k] = 2 * gsl_rng_uniform(r) - 1;
}

__attribute__((noinline)) int skb__flops_callgrind_loop(const struct skb_method *m, int n, int count,
                                                       const double *mats, const double *w, const double *c,
                                                       int ninputs, double *sink)
{
    struct skb_params prm;
    struct skb_blend_stats st;
    double out[16];
    skb_params_default(&prm);
    for (int k = 0; k < count; k++) {
        int i = k % ninputs;
        struct skb_blend_in in = { n, w + (size_t)n * i, mats + (size_t)16 * n * i,
                                   (m->flags & SKB_MF_NEEDS_CENTER) ? c + 3 * i : NULL };
        if (m->blend(&in, &prm, out, &st) < 0)
            return -1;
        *sink += out[3];
    }
    return 0;
}

/* the child side: SKB_FLOPS_CALLGRIND_CHILD="method:n:count:seed" */
static int callgrind_child(const char *spec, char *msg, size_t msglen)
{
    char name[64];
    int n, count;
    unsigned long seed;
    if (sscanf(spec, "%63[^:]:%d:%d:%lu", name, &n, &count, &seed) != 4 || n < 1 || n > FLOPS_NMAX || count < 1) {
        snprintf(msg, msglen, "%s: expected method:n:count:seed, got '%s'", CG_ENV, spec);
        return SKB_EINVAL;
    }
    const struct skb_method *m = skb_method_find(name);
    if (!m || !m->blend) {
        snprintf(msg, msglen, "%s: no blend method '%s'", CG_ENV, name);
        return SKB_EINVAL;
    }
    /* the inputs in one block of their own (matrices, weights, centres),
     * mapped outside malloc's heap: SB's blends allocate (GSL workspaces),
     * and callgrind counts malloc's instructions, which depend on the heap's
     * state; a heap block here changed SB's count (53422.17 -> 53422.63
     * per blend), a mapping leaves it as the former static arrays did */
    size_t nbytes = sizeof(double) * CG_INPUTS * (16 * FLOPS_NMAX + FLOPS_NMAX + 3);
    void *block = mmap(NULL, nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (block == MAP_FAILED || !r) {
        if (block != MAP_FAILED)
            munmap(block, nbytes);
        gsl_rng_free(r);
        snprintf(msg, msglen, "%s: out of memory", name);
        return SKB_ENOMEM;
    }
    double *mats = block, *w = mats + CG_INPUTS * 16 * FLOPS_NMAX, *c = w + CG_INPUTS * FLOPS_NMAX;
    gsl_rng_set(r, seed);
    for (int i = 0; i < CG_INPUTS; i++)
        random_input(r, n, mats + (size_t)16 * n * i, w + (size_t)n * i, c + 3 * i);
    gsl_rng_free(r);
    double sink = 0;
    int rc = skb__flops_callgrind_loop(m, n, count, mats, w, c, CG_INPUTS, &sink);
    munmap(block, nbytes);
    if (rc < 0) {
        snprintf(msg, msglen, "%s: blend failed", name);
        return SKB_ENUMERIC;
    }
    return isfinite(sink) ? 0 : SKB_ENUMERIC;
}

static int have_valgrind(void)
{
    char *const argv[] = { "valgrind", "--version", NULL };
    char msg[256];
    return spawn(argv, NULL, 1, NULL, msg, sizeof msg) == 0;
}

/* instructions per blend of method m at n, or a negative code */
static int callgrind_count(const struct skb_run_ctx *ctx, const struct skb_method *m, int n,
                           double *per_blend, char *msg, size_t msglen)
{
    char tmpl[PATH_MAX], file[PATH_MAX + 16], env[256], outopt[PATH_MAX + 64];
    /* the pid in the name lets a later run reap it if this one is killed */
    int rc = skb_scratch_make("callgrind", tmpl, sizeof tmpl, msg, msglen);
    if (rc < 0)
        return rc;
    snprintf(file, sizeof file, "%s/cg.out", tmpl);
    snprintf(env, sizeof env, "%s=%s:%d:%d:%lu", CG_ENV, m->name, n, CG_BLENDS, ctx->seed);
    snprintf(outopt, sizeof outopt, "--callgrind-out-file=%s", file);
    /* --vgdb=no: no gdbserver FIFOs in $TMPDIR to outlive a kill */
    char *const argv[] = { "valgrind", "--tool=callgrind", "--vgdb=no", outopt, "--collect-atstart=no",
                           "--toggle-collect=skb__flops_callgrind_loop", (char *)ctx->exe_path, "run", "flops",
                           "--quiet", "--out", tmpl, NULL };
    rc = spawn(argv, env, 1, NULL, msg, msglen);
    double total = -1;
    FILE *f = rc == 0 ? fopen(file, "r") : NULL;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0)
                total = strtod(strchr(line, ':') + 1, NULL);
        fclose(f);
    }
    skb_scratch_remove(tmpl);
    if (rc < 0)
        return rc;
    if (!(total > 0)) {
        snprintf(msg, msglen, "flops: callgrind gave no instruction total for %s", m->name);
        return SKB_EIO;
    }
    *per_blend = total / CG_BLENDS;
    return 0;
}

static void add_callgrind(const struct skb_run_ctx *ctx, cJSON *root)
{
    cJSON *cg = cJSON_AddObjectToObject(root, "callgrind");
    char msg[512];
    if (ctx->quick) {
        cJSON_AddBoolToObject(cg, "available", 0);
        cJSON_AddStringToObject(cg, "reason", "skipped in --quick mode");
        return;
    }
    skb_scratch_reap("callgrind");   /* only what killed runs provably left (skb_scratch.h) */
    if (!have_valgrind()) {
        cJSON_AddBoolToObject(cg, "available", 0);
        cJSON_AddStringToObject(cg, "reason", "valgrind is not installed");
        return;
    }
    cJSON_AddBoolToObject(cg, "available", 1);
    cJSON_AddStringToObject(cg, "what", "instructions (Ir) per blend of the ordinary double build, "
                            "inside the method's blend hook only (callgrind --toggle-collect on the loop), "
                            "averaged over " "640 blends cycling 64 seeded random inputs; SB includes its GSL SVD");
    cJSON *pm = cJSON_AddObjectToObject(cg, "per_method");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        if (!m->blend || !skb_run_wants_method(ctx, m))
            continue;
        static const int ns[] = { 2, FLOPS_NMAX };
        cJSON *mj = cJSON_AddObjectToObject(pm, m->name);
        double y[2];
        int k = 0, nlast = 0;
        for (int j = 0; j < 2; j++) {
            if (m->max_n && ns[j] > m->max_n)
                continue;
            char key[16];
            snprintf(key, sizeof key, "n%d", ns[j]);
            if (callgrind_count(ctx, m, ns[j], &y[k], msg, sizeof msg) < 0) {
                cJSON_AddStringToObject(mj, "error", msg);
                break;
            }
            skb_json_add_number(mj, key, y[k]);
            nlast = ns[j];
            k++;
        }
        if (k == 2)
            skb_json_add_number(mj, "per_extra_transform", (y[1] - y[0]) / (FLOPS_NMAX - 2));
        /* the count at the largest n that ran (n = 2 when n = 8 failed or
         * exceeds max_n, as for sclerp): a table column shows it rather
         * than nothing */
        if (k) {
            skb_json_add_number(mj, "per_blend", y[k - 1]);
            cJSON_AddNumberToObject(mj, "per_blend_n", nlast);
        }
        skb_run_progress(ctx, "flops", "callgrind %-8s %.0f instructions per blend at n = 2", m->name, k ? y[0] : NAN);
    }
}

/* ---- the experiment ---- */

/* run skinbench-flops and parse what it printed into *raw */
static int count_raw(const struct skb_run_ctx *ctx, int samples, cJSON **raw, char *msg, size_t msglen)
{
    char bin[PATH_MAX], seed[32], nsamp[16], nmax[16], *text = NULL;
    if (find_flops_bin(ctx, bin, sizeof bin) < 0) {
        snprintf(msg, msglen, "flops: skinbench-flops not found next to %s or in its build/ "
                 "(make builds it; or set SKB_FLOPS_BIN)", ctx->exe_path);
        return SKB_EIO;
    }
    snprintf(seed, sizeof seed, "%lu", ctx->seed);
    snprintf(nsamp, sizeof nsamp, "%d", samples);
    snprintf(nmax, sizeof nmax, "%d", FLOPS_NMAX);
    char *const argv[] = { bin, "--seed", seed, "--samples", nsamp, "--nmax", nmax, NULL };
    skb_run_progress(ctx, "flops", "counting: %s --seed %s --samples %s --nmax %s", bin, seed, nsamp, nmax);
    int rc = spawn(argv, NULL, 0, &text, msg, msglen);
    if (rc < 0)
        return rc;
    *raw = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(*raw, "methods"))) {
        cJSON_Delete(*raw);
        snprintf(msg, msglen, "flops: %s printed no \"methods\" object", bin);
        return SKB_EPARSE;
    }
    return 0;
}

/* one method's fit inputs over n, and the iteration histogram of the iterative ones */
struct method_acc {
    double xs[FLOPS_NMAX], ys[FLOPS_NMAX], ya[FLOPS_NMAX], yf[FIELD_CMP + 1][FLOPS_NMAX];
    int k;
    double *hist;        /* SKB_PROP_ITER_CAP + 2 bins, shared by all methods */
    int *have_iter;
};

/* the columns of one n's records: each field, then flops, then flops_all */
static void fill_columns(const struct skb_method *m, const cJSON *recs, int cnt, double *col, struct method_acc *acc)
{
    const cJSON *rec;
    int j = 0;
    cJSON_ArrayForEach(rec, recs) {
        double v[NFIELDS];
        for (int f = 0; f < NFIELDS; f++)
            if (rec_field(rec, f, &v[f]) < 0)
                v[f] = NAN;
        for (int f = 0; f < NFIELDS; f++)
            col[(size_t)f * cnt + j] = v[f];
        col[(size_t)NFIELDS * cnt + j] = v[FIELD_ADD] + v[FIELD_MUL];
        col[(size_t)(NFIELDS + 1) * cnt + j] = v[FIELD_ADD] + v[FIELD_MUL] + v[FIELD_DIV]
                                              + v[FIELD_SQRT] + v[FIELD_TRANS];
        if (m->flags & SKB_MF_ITERATIVE) {
            int it = (int)v[FIELD_ITER];
            acc->hist[it < 0 ? 0 : it > SKB_PROP_ITER_CAP ? SKB_PROP_ITER_CAP + 1 : it]++;
            *acc->have_iter = 1;
        }
        j++;
    }
}

/* per_n entry of one n: statistics of every field; the means go to acc */
static int add_per_n(const struct skb_method *m, const cJSON *nj, cJSON *opn, struct method_acc *acc)
{
    const cJSON *recs = cJSON_GetObjectItemCaseSensitive(nj, "records");
    int cnt = cJSON_GetArraySize(recs), n = cJSON_GetObjectItemCaseSensitive(nj, "n")->valueint, k = acc->k;
    if (cnt < 1 || k >= FLOPS_NMAX)
        return 0;
    double *col = malloc(sizeof(double) * (size_t)cnt * (NFIELDS + 2));
    if (!col)
        return SKB_ENOMEM;
    fill_columns(m, recs, cnt, col, acc);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", n);
    cJSON_AddNumberToObject(o, "samples", cnt);
    struct stats fl = stats_of(col + (size_t)NFIELDS * cnt, cnt);
    struct stats fa = stats_of(col + (size_t)(NFIELDS + 1) * cnt, cnt);
    cJSON_AddItemToObject(o, "flops", stats_json(fl));
    cJSON_AddItemToObject(o, "flops_all", stats_json(fa));
    for (int f = 0; f < NFIELDS; f++) {
        if (f == FIELD_ITER && !(m->flags & SKB_MF_ITERATIVE))
            continue;
        struct stats st = stats_of(col + (size_t)f * cnt, cnt);
        if (f <= FIELD_CMP)
            acc->yf[f][k] = st.mean;
        cJSON_AddItemToObject(o, field_names[f], stats_json(st));
    }
    cJSON_AddItemToArray(opn, o);
    acc->xs[k] = n;
    acc->ys[k] = fl.mean;
    acc->ya[k] = fa.mean;
    acc->k++;
    free(col);
    return 0;
}

/* flops.json methods.<name>, fits.<name>, fits_all_ops.<name> of one method */
static int add_method(const struct skb_run_ctx *ctx, const struct skb_method *m, const cJSON *mj, cJSON *root,
                      struct method_acc *acc)
{
    const cJSON *nj;
    cJSON *om = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(root, "methods"), m->name);
    cJSON_AddStringToObject(om, "title", m->title);
    cJSON *opn = cJSON_AddArrayToObject(om, "per_n");
    acc->k = 0;
    cJSON_ArrayForEach(nj, cJSON_GetObjectItemCaseSensitive(mj, "per_n"))
        if (add_per_n(m, nj, opn, acc) < 0)
            return SKB_ENOMEM;
    const char *how = "least squares (gsl_fit_linear) of the mean count over n = 1..8";
    int k = acc->k;
    cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(root, "fits"), m->name, fit_json(acc->xs, acc->ys, k, how));
    cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(root, "fits_all_ops"), m->name,
                          fit_json(acc->xs, acc->ya, k, how));
    /* per operation: where the a and b of the fit come from */
    cJSON *fo = cJSON_AddObjectToObject(om, "fits_by_op");
    for (int f = 0; f <= FIELD_CMP; f++)
        cJSON_AddItemToObject(fo, field_names[f], fit_json(acc->xs, acc->yf[f], k, how));
    if (m->flags & SKB_MF_ITERATIVE)
        cJSON_AddStringToObject(om, "note", "depends on the input through the iteration count (default "
                                "precision; see per_n.iterations and iterations_histogram): the fit is "
                                "of the mean over random inputs");
    else if (m->flop_parts && m->flop_parts->note)
        cJSON_AddStringToObject(om, "note", m->flop_parts->note);
    const cJSON *tn = cJSON_GetObjectItemCaseSensitive(mj, "transcendental_by_name");
    if (tn)
        cJSON_AddItemToObject(om, "transcendental_by_name", cJSON_Duplicate(tn, 1));
    skb_run_progress(ctx, "flops", "%-8s %s", m->name, k >= 3 ? "fitted" : "constant");
    return 0;
}

static void add_iter_hist(cJSON *root, const double *hist)
{
    cJSON *h = cJSON_AddObjectToObject(root, "iterations_histogram");
    cJSON_AddStringToObject(h, "what", "iterations of the iterative methods (DIB) over the counted random "
                            "inputs, n = 1..8, default precision");
    for (int i = 0; i <= SKB_PROP_ITER_CAP + 1; i++)
        if (hist[i] > 0) {
            char key[16];
            snprintf(key, sizeof key, "%d", i);
            skb_json_add_number(h, key, hist[i]);
        }
}

/* the counter's rules, stated once in flops/flop_real.hpp, the check that
 * sign flips are negations (no mul charged for them), the conversions and
 * primitives counted alone and, from them, where each fit goes */
static void add_raw_sections(cJSON *root, const cJSON *raw)
{
    static const char *const keys[] = { "counting_rules", "negation_checks", "conversions" };
    for (int i = 0; i < 3; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(raw, keys[i]);
        if (x)
            cJSON_AddItemToObject(root, keys[i], cJSON_Duplicate(x, 1));
    }
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(raw, "primitives");
    if (prims) {
        cJSON_AddItemToObject(root, "primitives", cJSON_Duplicate(prims, 1));
        add_breakdown(root, cJSON_GetObjectItemCaseSensitive(root, "fits"), prims);
    }
}

/* SB split into its centre (GSL SVD, not instrumented) and its blend */
static void add_sb_parts(cJSON *root, const cJSON *raw)
{
    const cJSON *sbp = cJSON_GetObjectItemCaseSensitive(raw, "sb_parts");
    if (!sbp)
        return;
    cJSON *s = cJSON_AddObjectToObject(root, "sb_parts");
    cJSON_AddStringToObject(s, "note", "SB = rotation centre (least squares by GSL's SVD, gsl_linalg_SV_decomp, "
                            "double code: NOT instrumented; the counts below are only its skb_real "
                            "operations) + QLB' blend given the centre (skb_mat4_qlb). See callgrind for "
                            "the instructions of the whole SB blend including the SVD.");
    cJSON_AddItemToObject(s, "records_fields", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(raw, "fields"), 1));
    cJSON_AddItemToObject(s, "centre_per_n", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(sbp, "centre_per_n"), 1));
    const cJSON *bl = cJSON_GetObjectItemCaseSensitive(sbp, "blend_given_centre_per_n"), *it;
    double xs[FLOPS_NMAX], ys[FLOPS_NMAX];
    int k = 0;
    cJSON_ArrayForEach(it, bl) {
        const cJSON *rec = cJSON_GetArrayItem(it, 0);
        double a, b;
        if (k < FLOPS_NMAX && rec_field(rec, FIELD_ADD, &a) == 0 && rec_field(rec, FIELD_MUL, &b) == 0) {
            xs[k] = k + 1;
            ys[k] = a + b;
            k++;
        }
    }
    if (k)
        cJSON_AddItemToObject(s, "blend_given_centre_fit",
                              fit_json(xs, ys, k, "least squares of skb_mat4_qlb with a centre, n = 1..8"));
}

static cJSON *flops_root(const struct skb_run_ctx *ctx, int samples)
{
    cJSON *root = skb_json_results_new(ctx, "flops");
    cJSON_AddStringToObject(root, "convention",
        "flops = additions/subtractions + multiplications, each 1 (thesis Table 4.1); divisions, square roots "
        "and transcendental calls (sin, cos, atan2, acos, exp, ...) are counted separately and reported, and "
        "flops_all counts each of them as 1 as well; comparisons, negations and fabs are not FLOPs and are "
        "reported separately. Counted by executing the methods' own code (methods/ compiled as C++ with "
        "skb_real = skb::flop), including the 4x4 -> internal and internal -> 4x4 conversions (thesis 4.4); "
        "the input validation of skb_blend is not counted. Code outside skb_real (GSL's SVD in SB) is not "
        "instrumented.");
    cJSON_AddStringToObject(root, "counter", "build/skinbench-flops (flops/flop_real.hpp, flops/flops_main.cxx)");
    cJSON_AddNumberToObject(root, "samples_per_n", samples);
    cJSON_AddObjectToObject(root, "fits");
    cJSON_AddObjectToObject(root, "fits_all_ops");
    cJSON_AddObjectToObject(root, "methods");
    return root;
}

static int run_flops(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    const char *child = getenv(CG_ENV);
    if (child)
        return callgrind_child(child, msg, msglen);
    int samples = ctx->quick ? 4 : 32;
    cJSON *raw = NULL;
    int rc = count_raw(ctx, samples, &raw, msg, msglen);
    if (rc < 0)
        return rc;
    cJSON *root = flops_root(ctx, samples);
    double hist[SKB_PROP_ITER_CAP + 2] = { 0 };
    int have_iter = 0;
    struct method_acc acc;
    const cJSON *mj;
    memset(&acc, 0, sizeof acc);
    acc.hist = hist;
    acc.have_iter = &have_iter;
    cJSON_ArrayForEach(mj, cJSON_GetObjectItemCaseSensitive(raw, "methods")) {
        const struct skb_method *m = skb_method_find(mj->string);
        if (!m || !skb_run_wants_method(ctx, m))
            continue;
        if (add_method(ctx, m, mj, root, &acc) < 0) {
            cJSON_Delete(raw);
            cJSON_Delete(root);
            snprintf(msg, msglen, "flops: out of memory");
            return SKB_ENOMEM;
        }
    }
    if (have_iter)
        add_iter_hist(root, hist);
    add_raw_sections(root, raw);
    add_sb_parts(root, raw);
    add_callgrind(ctx, root);
    cJSON_Delete(raw);
    rc = skb_results_write(ctx, &skb_schema_flops, root, msg, msglen);
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_flops = {
    .name = "flops",
    .description = "FLOPs per blend counted by executing each method (n = 1..8, fit a*n + b) + callgrind",
    .run = run_flops,
    .takes_dataset = 0,
    .dataset_note = "counts the FLOPs of single blends of random transforms; it takes no mesh",
};
