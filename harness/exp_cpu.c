/* exp_cpu.c — `skinbench run cpu`: CPU cost of every method's skin path on
 * every default dataset (DQ paper Fig. 18, thesis Tables 3.1/3.2 as ratios on
 * this machine), the single-precision fast kernels against a copy-bandwidth
 * roofline on a mesh that leaves the caches, and peers (glm, textbook) in
 * the same run.  Timing is Google Benchmark's (harness/bench_shim.cpp): one
 * iteration = one deformation (prepare + skin of all vertices), cycling
 * through the dataset's pose sequence; repetitions randomly interleaved; raw
 * rows in cpu-gbench.json, the summary in cpu.json.
 *
 * Every kernel is checked before it is timed: the double path against each
 * method's own blend form on sampled vertices, fast kernels against the
 * double path of the same method, peers against the method they implement.
 * A kernel that fails is not timed and the failure is recorded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cpu_internal.h"
#include "skb_bench.h"
#include "skb_fast_plan.h"
#include "skb_gbench.h"
#include "skb_icount.h"
#include "skb_results.h"
#include "skb_schemas.h"

static void peers_block(cJSON *o)
{
    for (int k = 0; skb_peers[k]; k++) {
        const struct skb_peer_ops *p = skb_peers[k];
        cJSON *e = cJSON_AddObjectToObject(o, p->name);
        cJSON_AddStringToObject(e, "description", p->description);
        cJSON_AddStringToObject(e, "reference", skb_method_role_name(p->reference));
        cJSON_AddStringToObject(e, "layout", p->layout ? p->layout : "—");
        cJSON_AddStringToObject(e, "normals", p->normals ? p->normals : "—");
        cJSON_AddNumberToObject(e, "threads", p->threads);
    }
}

/* --repetitions N, else the default of the mode */
static int repetitions(const struct skb_run_ctx *ctx)
{
    return ctx->repetitions > 0 ? ctx->repetitions : ctx->quick ? QUICK_REPS : FULL_REPS;
}

/* ICOUNT_DEFORMS deformations of case arg, each at the pose next_pose
 * held fixed (so they cost the same; the injected work is exact) */
static void deform_counted(void *arg)
{
    struct bcase *c = arg;
    int pose = c->next_pose;
    for (int k = 0; k < SKB_ICOUNT_DEFORMS; k++) {
        c->next_pose = pose;
        skb__cpu_time_deform(c, 1);
    }
}

/* the callgrind child of `run icount`: every checked kernel, one deformation
 * each at the same pose (the middle of its clip: bent, not the bind pose) */
static void count_cases(struct run *r)
{
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        if (c->error || c->kind == K_COPY)
            continue;
        c->next_pose = c->ds->d.nposes / 2;
        c->inject_acc = 0;
        c->inject_off = 0;
        skb__icount_measure(c->name, deform_counted, c);
    }
}

/* ---- the planner's settings, wisdom and cost; the offset sweep ---- */

static const char *const planner_modes[] = { "measure", "wisdom", "none" };

/* the build in the wisdom key: compiler, and the binary's size and time */
static void build_identity(struct run *r)
{
    struct stat sb;
    const char *exe = r->ctx->exe_path ? r->ctx->exe_path : "";
    if (exe[0] && stat(exe, &sb) == 0)
        snprintf(r->build, sizeof r->build, "gcc-compatible %s; %lld bytes, modified %lld", __VERSION__,
                 (long long)sb.st_size, (long long)sb.st_mtime);
    else
        snprintf(r->build, sizeof r->build, "%s", __VERSION__);
}

/* before any timing: --planner wisdom reads its file (an error names it) */
static int planner_setup(struct run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    build_identity(r);
    if (ctx->planner != SKB_PLAN_WISDOM)
        return 0;
    if (ctx->wisdom_file)
        snprintf(r->wisdom_path, sizeof r->wisdom_path, "%s", ctx->wisdom_file);
    else if (skb_wisdom_default_path(r->wisdom_path, sizeof r->wisdom_path) < 0) {
        snprintf(msg, msglen, "cpu: --planner wisdom: no --wisdom FILE and neither XDG_CACHE_HOME nor HOME set");
        return SKB_EINVAL;
    }
    /* refused before any timing: the file is rewritten at the end */
    int rc = skb_output_check(r->wisdom_path, msg, msglen);
    if (rc == 0)
        rc = skb_wisdom_read(r->wisdom_path, &r->wisdom, msg, msglen);
    if (rc < 0) {
        char why[600];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: %s", why);
    }
    return rc;
}

/* after planning: the wisdom written back (atomically) */
static int planner_finish(struct run *r, char *msg, size_t msglen)
{
    if (!r->wisdom)
        return 0;
    int rc = skb_wisdom_write(r->wisdom_path, r->wisdom, msg, msglen);
    if (rc < 0) {
        char why[600];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: wisdom: %s", why);
    }
    return rc;
}

static void planner_block(struct run *r, cJSON *o)
{
    const struct skb_run_ctx *ctx = r->ctx;
    cJSON_AddStringToObject(o, "mode", planner_modes[ctx->planner]);
    cJSON_AddStringToObject(o, "default_mode", "measure");
    skb_json_add_number(o, "budget_ms_per_candidate", ctx->planner_budget_ms > 0 ? ctx->planner_budget_ms
                        : ctx->quick ? 0.1 * SKB_PLAN_DEFAULT_BUDGET_MS : SKB_PLAN_DEFAULT_BUDGET_MS);
    if (r->wisdom)
        cJSON_AddStringToObject(o, "wisdom_file", r->wisdom_path);
    cJSON_AddStringToObject(o, "build", r->build);
    cJSON_AddNumberToObject(o, "plans", r->nplans);
    skb_json_add_number(o, "planning_ms_total", r->plan_ms);
    skb_json_add_number(o, "planning_ms_per_plan", r->nplans ? r->plan_ms / r->nplans : NAN);
    cJSON_AddStringToObject(o, "where", "every plan with its candidates: datasets.*.fast_kernels.plans and "
                            "large_mesh.fast_kernels.plans");
}

/* --offset-sweep: the roofline mesh alone, swept (harness/fast_sweep.c) */
static int offset_sweep(struct run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    char lmsg[512];
    if (!(r->ds = calloc(1, sizeof *r->ds))) {
        snprintf(msg, msglen, "cpu: out of memory");
        return SKB_ENOMEM;
    }
    int rc = skb__cpu_load_ds(r, LARGE_SOURCE, ctx->quick ? QUICK_LARGE_LEVELS : LARGE_LEVELS, 1, lmsg, sizeof lmsg);
    if (rc < 0) {
        snprintf(msg, msglen, "cpu: large mesh: %s", lmsg);
        return rc;
    }
    return skb__fast_offset_sweep(ctx, &r->ds[0].d, msg, msglen);
}

/* ---- the run: cases built and checked, timed, reported ---- */

/* the fast kernels on every CPU: one persistent pool, started
 * only after every dataset is loaded — an importer runs in a forked child
 * (datasets/isolate.c), and a fork while other threads run can hand the
 * child a lock no thread will release (1 in 6 ASan runs of `run all
 * --dataset huesitos.fbx` hung the importer until its time limit).  Not
 * under the instruction count: callgrind's window counts every
 * thread, and how long idle workers spin is scheduling, not code */
static int start_pools(struct run *r, char *msg, size_t msglen)
{
    if (!skb__icount_child() && skb_pool_cpus() > 1 && skb_pool_create(skb_pool_cpus() < SKB_POOL_MAX_THREADS ? skb_pool_cpus()
                                               : SKB_POOL_MAX_THREADS, &r->pool) < 0) {
        snprintf(msg, msglen, "cpu: cannot start the thread pool");
        return SKB_ENOMEM;
    }
    /* the scaling curve's smaller pools: 2, 4, 8, ... threads */
    for (int k = 2; r->pool && k < skb_pool_threads(r->pool) && r->npools < 16; k *= 2)
        if (skb_pool_create(k, r->pools + r->npools) == 0)
            r->npools++;
    return 0;
}

/* every dataset loaded, then the pools started, then every case built and
 * checked (the order start_pools explains) */
static int build_cases(struct run *r, char *msg, size_t msglen)
{
    int rc, nsrc = 0;
    while (skb_dataset_sources[nsrc])
        nsrc++;
    r->ds = calloc((size_t)nsrc + 3, sizeof *r->ds);   /* + random poses + large mesh */
    if (!r->ds) {
        snprintf(msg, msglen, "cpu: out of memory");
        return SKB_ENOMEM;
    }
    if ((rc = skb__cpu_load_all(r, msg, msglen)) < 0 || (rc = start_pools(r, msg, msglen)) < 0)
        return rc;
    for (int i = 0; i < r->nds; i++) {
        if (r->ds[i].large)
            skb__cpu_add_large_cases(r, r->ds + i);
        else
            skb__cpu_add_dataset_cases(r, r->ds + i);
    }
    return 0;
}

/* register what passed its checks, then let Google Benchmark time it */
static int time_cases(struct run *r, const struct gb_out *g, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    int nreg = 0;
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        if (c->error)
            continue;
        nreg++;
        skb_bench_add(c->name, c->kind == K_COPY ? skb__cpu_time_copy : skb__cpu_time_deform, c, 1,
                      (double)c->ds->d.mesh.nverts);
    }
    char seedctx[64], runctx[80];
    snprintf(seedctx, sizeof seedctx, "skinbench_seed=%lu", ctx->seed);
    /* the run id ties this file (which has no metadata of its own) to cpu.json's run */
    snprintf(runctx, sizeof runctx, "skinbench_run_id=%s", ctx->run_id ? ctx->run_id : "");
    struct skb_bench_opts bo = { ctx->quick ? QUICK_MIN_TIME : FULL_MIN_TIME, repetitions(ctx), 1, g->tmp, 0,
                                 { seedctx, "skinbench_experiment=cpu", ctx->run_id ? runctx : NULL, NULL } };
    skb_run_progress(ctx, "cpu", "timing %d kernels x %d repetitions (Google Benchmark, interleaved)",
                     r->nc, bo.repetitions);
    struct ticker tick;
    int rc = skb__cpu_pages_ready(r, msg, msglen);
    if (rc < 0)
        return rc;
    skb__cpu_ticker_start(&tick, ctx, nreg * bo.repetitions * bo.min_time);
    if (getloadavg(r->load[0], 3) < 3)
        r->load[0][0] = NAN;
    rc = skb_bench_run(&bo, msg, msglen);
    if (getloadavg(r->load[1], 3) < 3)
        r->load[1][0] = NAN;
    skb__cpu_ticker_stop(&tick);
    return rc;
}

/* Google Benchmark's rows read back and parsed, then its file renamed
 * into place; *gbp is the caller's on success */
static int read_gbench(struct run *r, struct gb_out *g, cJSON **gbp, char *msg, size_t msglen)
{
    /* a kernel that failed inside the timed loop is dropped, not reported */
    for (int i = 0; i < r->nc; i++)
        if (r->c[i].error && !cJSON_GetObjectItemCaseSensitive(r->failures, r->c[i].name))
            skb__cpu_fail_case(r, r->c + i, skb_strerror(r->c[i].error));
    cJSON *gb = NULL;
    int rc;
    if ((rc = skb_json_read_file(g->tmp, &gb, msg, msglen)) < 0) {
        char why[400];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: Google Benchmark's output is incomplete (disk full?); %s kept: %s", g->final, why);
        return rc;
    }
    struct skb_gbench_set gset;
    rc = skb_gbench_parse(gb, &gset, msg, msglen);
    skb_gbench_set_free(&gset);
    if (rc < 0) {
        char why[400];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: Google Benchmark's output is unreadable; %s kept: %s", g->final, why);
        cJSON_Delete(gb);
        return rc;
    }
    if ((rc = skb__cpu_gb_out_commit(g, msg, msglen)) < 0) {
        cJSON_Delete(gb);
        return rc;
    }
    *gbp = gb;
    return 0;
}

/* how the timing was done: the tool, its settings, its context */
static void bench_block(const struct skb_run_ctx *ctx, const cJSON *gb, cJSON *bench)
{
    cJSON_AddStringToObject(bench, "tool", "Google Benchmark (libbenchmark, Debian package)");
    cJSON_AddNumberToObject(bench, "min_time_s", ctx->quick ? QUICK_MIN_TIME : FULL_MIN_TIME);
    cJSON_AddNumberToObject(bench, "repetitions", repetitions(ctx));
    cJSON_AddBoolToObject(bench, "random_interleaving", 1);
    cJSON_AddStringToObject(bench, "statistic", "median over repetitions of CPU time per deformation");
    cJSON_AddStringToObject(bench, "raw", "cpu-gbench.json");
    const cJSON *gctx = cJSON_GetObjectItemCaseSensitive(gb, "context");
    const cJSON *lbt = cJSON_GetObjectItemCaseSensitive(gctx, "library_build_type");
    cJSON_AddStringToObject(bench, "library_build_type", cJSON_IsString(lbt) ? lbt->valuestring : "unknown");
    if (gctx)
        cJSON_AddItemToObject(bench, "context", cJSON_Duplicate(gctx, 1));
}

/* how shared the CPUs were: the pool's wall-time scaling means little
 * when the load exceeds the CPUs */
static void cpus_block(const struct run *r, cJSON *mc)
{
    cJSON_AddNumberToObject(mc, "available", skb_pool_cpus());
    cJSON_AddNumberToObject(mc, "pool_threads", r->pool ? skb_pool_threads(r->pool) : 1);
    skb_json_add_number(mc, "load_average_1min_before", r->load[0][0]);
    skb_json_add_number(mc, "load_average_1min_after", r->load[1][0]);
}

/* DIB's double path at each precision timed on this dataset */
static void dib_precision_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *dib)
{
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        if (!(m->flags & SKB_MF_ITERATIVE) || !skb__cpu_wants_dib_sweep(ds->d.name))
            continue;
        char label[64];
        skb_json_add_number(dib, "1e-05", skb__cpu_case_ms(r, gb, K_DOUBLE, ds, m->name));
        for (size_t p = 0; p < sizeof skb__cpu_dib_precisions / sizeof skb__cpu_dib_precisions[0]; p++) {
            char key[32];
            skb__cpu_double_label(label, sizeof label, m->name, NULL, skb__cpu_dib_precisions[p]);
            snprintf(key, sizeof key, "%g", skb__cpu_dib_precisions[p]);
            skb_json_add_number(dib, key, skb__cpu_case_ms(r, gb, K_DOUBLE, ds, label));
        }
    }
}

/* where DIB's time goes over DLB's: both from the pairs that time DIB
 * against DLB (positions only; their median per deformation), the parts
 * from the counts and costs of dib_work, the rest by difference */
static void dib_split(const cJSON *o, cJSON *dw, const char *dib)
{
    const cJSON *row, *rows = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "paired"), "rows");
    double dib_ms = NAN, dlb_ms = NAN, parts = 0;
    cJSON_ArrayForEach(row, rows) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(row, "kernel"), *c = cJSON_GetObjectItemCaseSensitive(row, "control");
        if (cJSON_IsString(k) && cJSON_IsString(c) && strcmp(k->valuestring, dib) == 0
            && strcmp(c->valuestring, head_name()) == 0) {
            skb_json_get_number(cJSON_GetObjectItemCaseSensitive(row, "ms"), &dib_ms);
            skb_json_get_number(cJSON_GetObjectItemCaseSensitive(row, "control_ms"), &dlb_ms);
        }
    }
    static const char *const keys[] = { "iteration_logs_ms", "confirming_logs_ms", "exps_ms" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        double x = NAN;
        skb_json_get_number(cJSON_GetObjectItemCaseSensitive(dw, keys[i]), &x);
        parts += x;
    }
    skb_json_add_number(dw, "dib_ms", dib_ms);
    skb_json_add_number(dw, "dlb_ms", dlb_ms);
    skb_json_add_number(dw, "dib_minus_dlb_ms", dib_ms - dlb_ms);
    skb_json_add_number(dw, "rest_ms", dib_ms - dlb_ms - parts);
    cJSON_AddStringToObject(dw, "split", "dib_ms and dlb_ms: the median deformation of each in the pairs timing DIB "
                            "against DLB (positions only); the logs and exps at their measured cost (log_ns, exp_ns) "
                            "times their counts; rest_ms: DIB - DLB less those parts (the dual quaternion products, "
                            "the norm tests, branches)");
}

/* one default dataset's entry in cpu.json: the model, its timings, the
 * methods' work and, on the humans, where DIB's time goes */
static void dataset_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    const struct skb_run_ctx *ctx = r->ctx;
    cJSON_AddNumberToObject(o, "vertices", ds->d.mesh.nverts);
    cJSON_AddNumberToObject(o, "triangles", ds->d.mesh.ntris);
    cJSON_AddNumberToObject(o, "joints", ds->d.mesh.njoints);
    cJSON_AddNumberToObject(o, "poses", ds->d.nposes);
    cJSON_AddStringToObject(o, "clip", ds->d.clip);
    cJSON_AddStringToObject(o, "source", ds->d.source);
    skb__cpu_add_timings(r, gb, ds, o);
    skb__cpu_paired_ratios(r, ds, o);
    skb__cpu_paired_targets(r, ds, cJSON_GetObjectItemCaseSensitive(o, "fast_kernels"));
    dib_precision_block(r, gb, ds, cJSON_AddObjectToObject(o, "dib_precision"));
    skb__cpu_pose_stats_block(ds, ctx, cJSON_AddObjectToObject(o, "pose_stats"));
    skb__cpu_precompute_block(ds, ctx, cJSON_AddObjectToObject(o, "precompute"));
    const struct skb_method *dm = skb_method_with_flag(SKB_MF_ITERATIVE);
    if (skb__cpu_wants_dib_sweep(ds->d.name) && dm && skb_run_wants_method(ctx, dm)) {
        cJSON *dw = cJSON_AddObjectToObject(o, "dib_work");
        skb__cpu_dib_work_block(ds, ctx, dw);
        dib_split(o, dw, dm->name);
    }
    cJSON *cnt = cJSON_AddObjectToObject(o, "load");
    cJSON_AddNumberToObject(cnt, "renormalized", ds->d.renormalized);
    cJSON_AddNumberToObject(cnt, "truncated", ds->d.truncated);
    cJSON_AddNumberToObject(cnt, "orthonormalized", ds->d.orthonormalized);
}

/* cpu.json from this run's timings (gb: Google Benchmark's rows) */
static int write_results(struct run *r, const cJSON *gb, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    cJSON *root = skb_json_results_new(ctx, "cpu");
    bench_block(ctx, gb, cJSON_AddObjectToObject(root, "benchmark"));
    peers_block(cJSON_AddObjectToObject(root, "peers"));
    planner_block(r, cJSON_AddObjectToObject(root, "planner"));
    cpus_block(r, cJSON_AddObjectToObject(root, "cpus"));
    skb__cpu_pages_block(r, cJSON_AddObjectToObject(root, "pages"));
    cJSON *dsj = cJSON_AddObjectToObject(root, "datasets");
    for (int i = 0; i < r->nds; i++)
        if (!r->ds[i].large)
            cJSON_AddObjectToObject(dsj, r->ds[i].d.name);
    skb__cpu_paired_figure(r, dsj);   /* first: its rounds spread over every dataset; dib_split reads them */
    for (int i = 0; i < r->nds; i++)
        if (!r->ds[i].large)
            dataset_block(r, gb, r->ds + i, cJSON_GetObjectItemCaseSensitive(dsj, r->ds[i].d.name));
    /* roofline on the large mesh */
    for (int i = 0; i < r->nds; i++)
        if (r->ds[i].large)
            skb__cpu_large_mesh_block(r, gb, r->ds + i, cJSON_AddObjectToObject(root, "large_mesh"));
    skb__cpu_paired_catch_up(r, dsj);   /* last: as far in time from the rounds as the run allows */
    int nfail = cJSON_GetArraySize(r->failures);
    cJSON_AddBoolToObject(root, "verified", nfail == 0 && r->timed_unchecked == 0);
    skb__cpu_injection_json(root, msg, msglen);
    cJSON_AddItemToObject(root, "failures", cJSON_Duplicate(r->failures, 1));
    int rc = skb_results_write(ctx, &skb_schema_cpu, root, msg, msglen);
    cJSON_Delete(root);
    if (rc == 0 && nfail)
        skb_run_progress(ctx, "cpu", "%d kernel(s) failed their checks and were not timed (see cpu.json)", nfail);
    return rc;
}

static int cpu_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    struct run r;
    int rc = 0;
    struct gb_out g = { -1, "", "" };
    cJSON *gb = NULL;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.failures = cJSON_CreateObject();
    r.plans = cJSON_CreateObject();
    if ((rc = skb__cpu_read_injection(&r.inject, msg, msglen)) < 0)
        goto out;
    if (ctx->offset_sweep) {
        rc = offset_sweep(&r, msg, msglen);
        goto out;
    }
    if ((rc = planner_setup(&r, msg, msglen)) < 0)
        goto out;
    /* before any work: a read-only --out fails here with the directory named */
    if ((rc = skb__cpu_gb_out_open(ctx, &g, msg, msglen)) < 0)
        goto out;
    if ((rc = build_cases(&r, msg, msglen)) < 0 || (rc = planner_finish(&r, msg, msglen)) < 0)
        goto out;
    /* instruction counts (run icount): one deformation of each kernel on
     * the small meshes, under callgrind, instead of timing */
    skb__cpu_mark_injected(r.c, r.nc, &r.inject);
    if (skb__icount_child()) {
        count_cases(&r);
        goto out;
    }
    if ((rc = time_cases(&r, &g, msg, msglen)) < 0 || (rc = read_gbench(&r, &g, &gb, msg, msglen)) < 0)
        goto out;
    rc = write_results(&r, gb, msg, msglen);
    cJSON_Delete(gb);
out:
    skb__cpu_free_run(&r);
    skb__cpu_gb_out_close(&g);
    return rc;
}

const struct skb_experiment skb_exp_cpu = {
    .name = "cpu",
    .description = "CPU time per deformation of every method, fast kernels, roofline, peers",
    .run = cpu_run,
    .takes_dataset = 1,
    .dataset_note = "every method's skin path verified and timed over its animation (the roofline mesh stays the subdivided body)",
    .takes_datasets_filter = 1,
};
