/* cpu_results.c — `run cpu`: each kernel's timing read from Google
 * Benchmark's rows, and the per-dataset blocks of cpu.json built from them
 * (times, ratios, checks, the fast kernels' summary and plans). */
#include <math.h>
#include <string.h>
#include "cpu_internal.h"
#include "skb_gbench.h"
#include "skb_stats.h"

/* ---- results ---- */

/* median over the repetitions of one benchmark in Google Benchmark's JSON
 * (rows read by common/skb_gbench.h, the reader compare uses too; the
 * document was checked by skb_gbench_parse when it was read) */
struct timing skb__cpu_gbench_timing(const cJSON *gb, const char *name)
{
    struct timing t = { NAN, NAN, NAN, 0, { 0 }, { 0 } };
    struct skb_gbench_set set;
    char msg[256];
    const struct skb_gbench_bench *b = NULL;
    if (skb_gbench_parse(gb, &set, msg, sizeof msg) == 0)
        b = skb_gbench_find(&set, name);
    if (b && b->nrep) {
        t.cpu_ms = 1e-6 * skb_median(b->cpu_ns, b->nrep);
        t.real_ms = 1e-6 * skb_median(b->real_ns, b->nrep);
        t.items_per_s = skb_median(b->items_per_s, b->nrep);
        t.reps = b->nrep;
        for (int i = 0; i < b->nrep && i < MAX_ROUND_REPS; i++) {
            t.rep_cpu_ms[i] = 1e-6 * b->cpu_ns[i];
            t.rep_real_ms[i] = 1e-6 * b->real_ns[i];
        }
    }
    skb_gbench_set_free(&set);
    return t;
}

struct bcase *skb__cpu_find_case(struct run *r, enum kind k, const struct ds *ds, const char *label)
{
    for (int i = 0; i < r->nc; i++)
        if (r->c[i].kind == k && r->c[i].ds == ds && strcmp(r->c[i].label, label) == 0 && !r->c[i].error)
            return r->c + i;
    return NULL;
}

double skb__cpu_case_ms(struct run *r, const cJSON *gb, enum kind k, const struct ds *ds, const char *label)
{
    struct bcase *c = skb__cpu_find_case(r, k, ds, label);
    return c ? skb__cpu_gbench_timing(gb, c->name).cpu_ms : NAN;
}

/* what a fast kernel's time covers: layout and the influence
 * histogram it blends with, normal option, threads and the statistic, the
 * bytes its vertex streams move, and on the roofline mesh the fraction of
 * the copy bandwidth measured with as many threads */
static void f32_detail(const struct run *r, struct bcase *c, const struct timing *t, cJSON *dd)
{
    int hist[4], mt = c->threads > 1;
    double bpv = skb_skin_f32_bytes_per_vertex(&c->fk), ms = mt ? t->real_ms : t->cpu_ms;
    skb_skin_f32_histogram(&c->fk, hist);
    cJSON_AddStringToObject(dd, "normals", skb_f32_normals_name(skb_skin_f32_normals(&c->fk)));
    cJSON_AddStringToObject(dd, "layout", skb_f32_layout_name(skb_skin_f32_layout(&c->fk)));
    cJSON_AddItemToObject(dd, "influence_histogram", cJSON_CreateIntArray(hist, 4));
    cJSON_AddNumberToObject(dd, "threads", mt ? c->threads : 1);
    cJSON_AddStringToObject(dd, "statistic", mt ? "real_ms (wall: the caller's CPU time is one thread's)" : "cpu_ms");
    cJSON_AddNumberToObject(dd, "bytes_per_vertex", bpv);
    double bps = c->ds->large ? r->copy_bps[mt] : NAN, wb = skb_skin_f32_write_bytes_per_vertex(&c->fk);
    cJSON_AddNumberToObject(dd, "write_bytes_per_vertex", wb);
    skb_json_add_number(dd, "fraction_of_roofline", bpv * c->ds->d.mesh.nverts / bps / (ms * 1e-3));
    skb_json_add_number(dd, "fraction_of_roofline_write_allocate",
                        (bpv + wb) * c->ds->d.mesh.nverts / (1.5 * bps) / (ms * 1e-3));
}

/* a pooled kernel above this fraction of the pool's copy bandwidth is
 * taken as held by the bandwidth; below it, something else stops it */
#define BANDWIDTH_BOUND_FRACTION 0.9
/* above this a kernel outruns the copy: memcpy (as many bytes read as
 * written) is then no ceiling for a kernel that mostly reads (quiet run,
 * 2026-11-25: LBS with shader normals at 1.59 of the 2-thread copy) */
#define BANDWIDTH_ABOVE_COPY 1.1

/* the calling thread busy less than this fraction of a pooled run's wall
 * time waited for a worker; with more than this share of the one-thread
 * work on its own CPU clock, it did the workers' parts itself */
#define CALLER_WAITED_BELOW 0.8
#define CALLER_ALONE_ABOVE 0.75

/* what held the pool back besides bandwidth, from the calling thread's CPU
 * time: a worker the scheduler kept off the CPUs (other load) shows as the
 * caller waiting, or as the caller doing the workers' parts */
static const char *pool_wait_text(double busy, double alone)
{
    if (busy < CALLER_WAITED_BELOW)
        return "; the calling thread was busy for less of the wall time than its share: it waited for a worker the "
               "scheduler held off the CPUs (other load), not for memory";
    if (alone > CALLER_ALONE_ABOVE)
        return "; the calling thread ran most of the work itself: the workers were not on a CPU (other load)";
    return "";
}

/* on the roofline mesh: a pooled kernel's fraction of the copy bandwidth
 * on as many threads, beside how that bandwidth itself scales, and in
 * words whether the bandwidth is what stops it */
static void pool_limit(const struct run *r, const struct ds *ds, const char *label, const struct timing *t,
                       double one_cpu_ms, double speedup, cJSON *s)
{
    struct bcase *c = NULL;
    for (int i = 0; i < r->nc && !c; i++)
        if (r->c[i].kind == K_F32 && r->c[i].ds == ds && !strcmp(r->c[i].label, label) && !r->c[i].error)
            c = r->c + i;
    if (!ds->large || !c)
        return;
    double f = skb_skin_f32_bytes_per_vertex(&c->fk) * ds->d.mesh.nverts / r->copy_bps[1] / (t->real_ms * 1e-3);
    double busy = t->cpu_ms / t->real_ms, alone = t->cpu_ms / one_cpu_ms;
    char txt[600];
    skb_json_add_number(s, "fraction_of_threads_copy_bandwidth", f);
    skb_json_add_number(s, "copy_bandwidth_scaling", r->copy_scaling);
    cJSON_AddNumberToObject(s, "bandwidth_bound_from_fraction", BANDWIDTH_BOUND_FRACTION);
    skb_json_add_number(s, "caller_busy_fraction", busy);
    skb_json_add_number(s, "caller_share_of_one_thread_cpu", alone);
    snprintf(txt, sizeof txt, "%s runs %.2fx one thread's throughput and reaches %.2f of the %d-thread copy bandwidth, "
             "which itself scales %.2fx over one thread: %s%s", label, speedup, f, c->threads, r->copy_scaling,
             !isfinite(f) ? "not measured"
             : f > BANDWIDTH_ABOVE_COPY ? "above the copy bandwidth, so memcpy (as much written as read) is no "
                                          "ceiling for this kernel; what stops it is not measured"
             : f >= BANDWIDTH_BOUND_FRACTION ? "at the copy limit, the bandwidth is what stops it"
             : "below the copy limit, so it is not the bandwidth that stops it", pool_wait_text(busy, alone));
    cJSON_AddStringToObject(s, "limit", txt);
}

/* the absolute times of kind k on ds (Google Benchmark's medians: the
 * ratios beside them are timed pair by pair, cpu_paired.c) */
static cJSON *timing_block(struct run *r, const cJSON *gb, struct ds *ds, enum kind k, cJSON **vps, cJSON **detail)
{
    cJSON *ms = cJSON_CreateObject();
    *vps = cJSON_CreateObject();
    *detail = cJSON_CreateObject();
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        if (c->kind != k || c->ds != ds || c->error)
            continue;
        struct timing t = skb__cpu_gbench_timing(gb, c->name);
        /* threaded kernels in wall time, against the reference's wall time */
        int mt = c->threads > 1;
        skb_json_add_number(ms, c->label, mt ? t.real_ms : t.cpu_ms);
        skb_json_add_number(*vps, c->label, t.items_per_s);
        cJSON *dd = cJSON_AddObjectToObject(*detail, c->label);
        skb_json_add_number(dd, "cpu_ms", t.cpu_ms);
        skb_json_add_number(dd, "real_ms", t.real_ms);
        cJSON_AddNumberToObject(dd, "repetitions", t.reps);
        int nr = t.reps < MAX_ROUND_REPS ? t.reps : MAX_ROUND_REPS;
        cJSON_AddItemToObject(dd, "repetition_ms", cJSON_CreateDoubleArray(mt ? t.rep_real_ms : t.rep_cpu_ms, nr));
        cJSON_AddNumberToObject(dd, "checked_poses", c->checked_poses);
        skb_json_add_number(dd, "worst_error_over_tolerance", c->check_error);
        if (k == K_DOUBLE && c->variant)
            cJSON_AddStringToObject(dd, "variant", c->variant);
        if (k == K_F32)
            f32_detail(r, c, &t, dd);
        if (t.reps == 0)
            r->timed_unchecked++;   /* registered but no timing came back */
    }
    return ms;
}

double skb__cpu_case_real_ms(struct run *r, const cJSON *gb, const struct ds *ds, const char *label)
{
    struct bcase *c = skb__cpu_find_case(r, K_F32, ds, label);
    return c ? skb__cpu_gbench_timing(gb, c->name).real_ms : NAN;
}

/* the plans of one dataset's @plan rows, and each planned kernel's speed-up
 * over the faster of the fixed split and 4-slot rows in this run (>= 1:
 * the planner chose at least as well as either fixed layout) */
static void plan_summary(struct run *r, const cJSON *gb, struct ds *ds, cJSON *f)
{
    const char *const heads[] = { lin_name(), head_name() };
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(r->plans, ds->d.name);
    cJSON *o = cJSON_AddObjectToObject(f, "plans");
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char lp[64], l4[64];
        snprintf(lp, sizeof lp, "%s@plan", heads[i]);
        snprintf(l4, sizeof l4, "%s@slot4", heads[i]);
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(pl, lp);
        if (!p)
            continue;
        cJSON *e = cJSON_AddItemToObject(o, lp, cJSON_Duplicate(p, 1)) ? cJSON_GetObjectItemCaseSensitive(o, lp) : NULL;
        double split = skb__cpu_case_ms(r, gb, K_F32, ds, heads[i]), slot4 = skb__cpu_case_ms(r, gb, K_F32, ds, l4);
        double best = fmin(split, slot4), plan = skb__cpu_case_ms(r, gb, K_F32, ds, lp);
        skb_json_add_number(e, "timed_ms", plan);
        skb_json_add_number(e, "best_fixed_ms", best);
        cJSON_AddStringToObject(e, "best_fixed", split <= slot4 ? heads[i] : l4);
        skb_json_add_number(e, "speedup_over_best_fixed", best / plan);
    }
}

/* the fast-kernel target ratios of one dataset (docs/report-and-regression.md
 * "Fast kernels"), each from this run: the influence-count split against
 * the 4-slot kernels at the same normal option, DLB over LBS (both
 * renormalising; and against LBS leaving normals to the shader), and the
 * pool's speed-up over one thread (wall times) */
static void fast_summary(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    char lsh[64];
    const char *const heads[] = { lin_name(), label(lsh, sizeof lsh, lin_name(), "+nrm_shader"), head_name() };
    cJSON *f = cJSON_AddObjectToObject(o, "fast_kernels");
    cJSON *sp = cJSON_AddObjectToObject(f, "split_speedup_over_slot4");
    cJSON *sc = cJSON_AddObjectToObject(f, "pool_scaling");
    int nt = r->pool ? skb_pool_threads(r->pool) : 1;
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char l4[64], lt[64];
        snprintf(l4, sizeof l4, "%s@slot4", heads[i]);
        snprintf(lt, sizeof lt, "%s@%dt", heads[i], nt);
        skb_json_add_number(sp, heads[i], skb__cpu_case_ms(r, gb, K_F32, ds, l4) / skb__cpu_case_ms(r, gb, K_F32, ds, heads[i]));
        cJSON *s = cJSON_AddObjectToObject(sc, heads[i]);
        double one = skb__cpu_case_real_ms(r, gb, ds, heads[i]), many = skb__cpu_case_real_ms(r, gb, ds, lt);
        cJSON_AddNumberToObject(s, "threads", nt);
        skb_json_add_number(s, "one_thread_real_ms", one);
        skb_json_add_number(s, "pool_real_ms", many);
        skb_json_add_number(s, "speedup", one / many);
        struct bcase *pc = skb__cpu_find_case(r, K_F32, ds, lt);
        if (pc) {
            struct timing pt = skb__cpu_gbench_timing(gb, pc->name);
            pool_limit(r, ds, lt, &pt, skb__cpu_case_ms(r, gb, K_F32, ds, heads[i]), one / many, s);
        }
    }
    plan_summary(r, gb, ds, f);
    double lin = skb__cpu_case_ms(r, gb, K_F32, ds, lin_name()), dlb = skb__cpu_case_ms(r, gb, K_F32, ds, head_name());
    skb_json_add_number(f, "dlb_over_linear", dlb / lin);
    skb_json_add_number(f, "dlb_over_linear_nrm_shader", dlb / skb__cpu_case_ms(r, gb, K_F32, ds, lsh));
    cJSON_AddStringToObject(f, "statistic", "medians of this run's interleaved repetitions; CPU time for one "
                            "thread, wall time for the pool and its one-thread reference");
}

/* ms and vertices/s of the double path, the fast kernels and the peers of
 * one dataset, and how each was checked (the ratios: cpu_paired.c) */
void skb__cpu_add_timings(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    cJSON *vps, *detail, *vps32, *detail32, *vpp, *detp;
    cJSON_AddItemToObject(o, "ms", timing_block(r, gb, ds, K_DOUBLE, &vps, &detail));
    cJSON_AddItemToObject(o, "vertices_per_s", vps);
    cJSON_AddItemToObject(o, "ms_f32", timing_block(r, gb, ds, K_F32, &vps32, &detail32));
    cJSON_AddItemToObject(o, "vertices_per_s_f32", vps32);
    cJSON_AddItemToObject(o, "peers_ms", timing_block(r, gb, ds, K_PEER, &vpp, &detp));
    cJSON_Delete(vpp);
    fast_summary(r, gb, ds, o);
    cJSON *checks = cJSON_AddObjectToObject(o, "checks");
    cJSON_AddItemToObject(checks, "double", detail);
    cJSON_AddItemToObject(checks, "f32", detail32);
    cJSON_AddItemToObject(checks, "peers", detp);
}
