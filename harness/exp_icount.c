/* exp_icount.c — `skinbench run icount`: instructions (callgrind Ir) of one
 * deformation of every timed kernel on every small dataset.
 *
 * Why: on this shared 2-core VM the time of a kernel moves by several per
 * cent between runs minutes apart, so a timing gate over ~170 benchmarks
 * cannot both catch 10 % and never cry wolf.  An instruction count of the
 * same code on the same input is the same number on every run, whatever
 * else the machine does: a gate on it has no false alarms, and any change of
 * code path (an extra pass, another iteration, a slower branch) moves it.
 * It does not see what only costs time (cache misses, a slower instruction
 * mix): the paired timing gate (compare --ab) stays beside it.
 *
 * How: `valgrind --tool=callgrind --instr-atstart=no skinbench run cpu` with
 * SKB_ICOUNT_CHILD set.  The child loads and checks every kernel exactly as
 * for timing (same names as cpu-gbench.json), then per kernel switches
 * instrumentation on, zeroes the counters, runs SKB_ICOUNT_DEFORMS deformations at
 * the middle pose of its clip (prepare + skin of all vertices, and the injected
 * extra work when SKB_INJECT_SLOWDOWN names the method) and dumps the
 * counts under the kernel's name (SKB_ICOUNT_DEFORMS deformations, divided).  The large roofline mesh is left out (the
 * small meshes run the same code); --quick counts the cloth kernels only. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SKB_HAVE_CALLGRIND_H 1
#endif
#endif
#include "skb_icount.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_run.h"
#include "skb_scratch.h"

/* one callgrind dump: "desc: Trigger: Client Request: NAME" and its total */
static int parse_dump(const char *path, char *name, size_t namelen, double *total)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    static const char trig[] = "desc: Trigger: Client Request: ";
    int have_name = 0;
    *total = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, trig, sizeof trig - 1) == 0) {
            snprintf(name, namelen, "%s", line + sizeof trig - 1);
            name[strcspn(name, "\r\n")] = 0;
            have_name = 1;
        } else if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0) {
            *total = strtod(strchr(line, ':') + 1, NULL);
        }
    }
    fclose(f);
    return have_name && *total >= 0 ? 0 : -1;
}

/* every dump in dir into kernels {name: instructions}; removes the files */
static int collect_dumps(const char *dir, cJSON *kernels)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        char path[2 * PATH_MAX], name[1024];
        double total;
        if (strncmp(e->d_name, "cg.out", 6) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (parse_dump(path, name, sizeof name, &total) == 0 && !cJSON_GetObjectItemCaseSensitive(kernels, name)) {
            cJSON_AddNumberToObject(kernels, name, total / SKB_ICOUNT_DEFORMS);
            n++;
        }
        unlink(path);
    }
    closedir(d);
    return n;
}

/* the callgrind run of the child; kernels gets the counts */
static int count_all(const struct skb_run_ctx *ctx, cJSON *kernels, char *msg, size_t msglen)
{
    char tmp[PATH_MAX], out[PATH_MAX + 8], outopt[PATH_MAX + 64], seed[32];
    /* what killed runs left: only directories provably theirs (skb_scratch.h) */
    skb_scratch_reap("icount");
    int rc = skb_scratch_make("icount", tmp, sizeof tmp, msg, msglen);
    if (rc < 0)
        return rc;
    snprintf(out, sizeof out, "%s/run", tmp);
    snprintf(outopt, sizeof outopt, "--callgrind-out-file=%s/cg.out", tmp);
    snprintf(seed, sizeof seed, "%lu", ctx->seed);
    char *argv[20] = { "valgrind", "--tool=callgrind", "--vgdb=no", "--instr-atstart=no", outopt,
                       (char *)ctx->exe_path, "run", "cpu", "--quiet", "--out", out, "--seed", seed };
    int k = 13;
    if (ctx->quick)
        argv[k++] = "--quick";
    if (ctx->methods_filter) {
        argv[k++] = "--methods";
        argv[k++] = (char *)ctx->methods_filter;
    }
    /* --quick counts the A/B gate's small set only (cloth: every method's
     * kernels), so make check stays seconds-long under callgrind */
    if (ctx->datasets_filter || ctx->quick) {
        argv[k++] = "--datasets";
        argv[k++] = ctx->datasets_filter ? (char *)ctx->datasets_filter : "cloth";
    }
    rc = skb__harness_spawn(argv, SKB_ICOUNT_ENV "=1", msg, msglen);
    int n = collect_dumps(tmp, kernels);
    skb_scratch_remove(tmp);
    if (rc < 0)
        return rc;
    if (n <= 0) {
        snprintf(msg, msglen, "icount: callgrind wrote no per-kernel counts (valgrind without client requests?)");
        return SKB_EIO;
    }
    return 0;
}

__attribute__((unused)) static int have_valgrind(void)
{
    char *const argv[] = { "valgrind", "--version", NULL };
    char msg[256];
    return skb__harness_spawn(argv, NULL, msg, sizeof msg) == 0;
}

static int icount_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    cJSON *root = skb_json_results_new(ctx, "icount");
    int rc = skb__cpu_injection_json(root, msg, msglen);
    if (rc < 0) {
        cJSON_Delete(root);
        return rc;
    }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    int usable = 0;
    const char *why = "built with a sanitizer (valgrind cannot run it)";
#elif !defined(SKB_HAVE_CALLGRIND_H)
    int usable = 0;
    const char *why = "built without valgrind/callgrind.h (client requests)";
#else
    int usable = have_valgrind();
    const char *why = "valgrind is not installed";
#endif
    cJSON_AddBoolToObject(root, "available", usable);
    if (!usable) {
        cJSON_AddStringToObject(root, "reason", why);
        skb_run_progress(ctx, "icount", "not counted: %s", why);
    } else {
        cJSON_AddStringToObject(root, "what", "instructions (callgrind Ir) per deformation (prepare + skin of "
                                "every vertex) of each kernel of run cpu: 20 deformations at the middle pose of its "
                                "dataset's clip counted, divided by 20; "
                                "same kernel names as cpu-gbench.json; the roofline mesh left out");
        cJSON *kernels = cJSON_AddObjectToObject(root, "kernels");
        skb_run_progress(ctx, "icount", "counting instructions under callgrind (one deformation per kernel)");
        if ((rc = count_all(ctx, kernels, msg, msglen)) < 0) {
            cJSON_Delete(root);
            return rc;
        }
        skb_run_progress(ctx, "icount", "%d kernels counted", cJSON_GetArraySize(kernels));
    }
    rc = skb_results_write(ctx, &skb_schema_icount, root, msg, msglen);
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_icount = {
    .name = "icount",
    .description = "instructions (callgrind) per deformation of every CPU kernel: the deterministic gate",
    .run = icount_run,
    .takes_dataset = 0,
    .dataset_note = "counts instructions of the kernels on the catalogue's small datasets (callgrind); it takes no mesh from a model file",
    .takes_datasets_filter = 1,
};
