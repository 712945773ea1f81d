/* fast_sweep.c — `run cpu --offset-sweep`: how the fast LBS kernels'
 * speed depends on where their streams lie (docs/report-and-regression.md "Fast kernels: the
 * offset sweep").  Why: on a 16-core Xeon the split LBS kernel with
 * renormalised normals took 2.05x longer in one process than in another
 * while the 4-slot kernel moved 6 %; what differs between processes is
 * where buffers lie (their offsets within a 4 KiB page relative to each
 * other — a load whose low 12 address bits match a pending store's waits
 * for it on Intel cores, "4K aliasing" —, and which physical and huge
 * pages back them), and which per-CPU clone runs.
 *
 * On the roofline mesh (body subdivided), every kernel is timed as the
 * fastest of a few deformations, beside a memcpy of the same bytes timed
 * between them (the control: absolute times on shared VMs drift 5-40 %
 * between runs, a ratio to the control in the same moment does not):
 *   offsets   the output arrays at every 64-byte step of a page (the
 *             kernel's inputs stay at SKB_F32_IN_*_PAGE_OFFSET)
 *   pages     every stream (the kernel's state, its outputs, the control's
 *             buffers) under one huge-page advice, touched first or
 *             forgotten (MADV_DONTNEED) before every timed deformation and
 *             copy alike: the forcing experiment of `run cpu`'s page state
 *             (cpu_pages.c), which times on touched 4 KiB pages
 *   rebind    the state bound again (new physical pages) a few times
 *   isa       each instruction-set entry point this CPU runs */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skb_fast_plan.h"
#include "skb_json.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_run.h"
#include "skb_timing.h"

#define SWEEP_STEP 64
#define QUICK_STEP 1024
#define ITERS 4                 /* deformations per point: the fastest counts */
#define QUICK_ITERS 2
#define REBINDS 3
#define COPY_BYTES_PER_VERTEX 72   /* the 4-slot LBS kernel's streams, as run cpu's copy */


/* the kernels swept: what changed between the processes, and controls */
struct kern {
    char label[48];
    struct skb_plan_cand c;
    enum skb_f32_normals normals;
    struct skb_skinner_f32 s;
    int bound;
};

struct sweep {
    const struct skb_run_ctx *ctx;
    const struct skb_dataset *d;
    struct kern k[4];
    int nk, iters;
    size_t copy_bytes;
    size_t out_bytes;           /* one output array (3 floats a vertex), page-rounded + a page */
};

/* the two output arrays and the control's source and destination, each in
 * its own mapping (common/skb_pages.h: 2 MiB-aligned + a page, every page
 * written) under one huge-page advice; fresh: forgotten before every timed
 * deformation and copy */
struct outs {
    char *base[2], *src, *dst;
    int fresh;
};

static void outs_unmap(struct outs *o)
{
    skb_pages_free(o->base[0]);
    skb_pages_free(o->base[1]);
    skb_pages_free(o->src);
    skb_pages_free(o->dst);
}

static int outs_map(struct sweep *w, struct outs *o, enum skb_pages_thp thp, int fresh)
{
    o->base[0] = skb_pages_alloc(w->out_bytes, thp);
    o->base[1] = skb_pages_alloc(w->out_bytes, thp);
    o->src = skb_pages_alloc(w->copy_bytes, thp);
    o->dst = skb_pages_alloc(w->copy_bytes, thp);
    o->fresh = fresh;
    if (!o->base[0] || !o->base[1] || !o->src || !o->dst) {
        outs_unmap(o);
        return SKB_ENOMEM;
    }
    memset(o->src, 1, w->copy_bytes);
    return 0;
}

/* one deformation of kernel k into (pos, nrm); ms, or NAN on error; fresh:
 * the output pages forgotten first, so the timed skin faults every one */
static double deform(struct sweep *w, struct kern *k, int pose, float *pos, float *nrm, int fresh)
{
    struct skb_pose p;
    skb_dataset_pose(w->d, pose % w->d->nposes, &p);
    if (fresh && (skb_pages_forget(pos, w->out_bytes - 4096) < 0 || skb_pages_forget(nrm, w->out_bytes - 4096) < 0))
        return NAN;
    double t = skb_clock_ms(SKB_CLOCK_THREAD);
    if (skb__skin_f32_prepare(&k->s, &p, &w->ctx->params) < 0
        || skb__skin_f32_run(&k->s, 0, w->d->mesh.nverts, pos, nrm) < 0)
        return NAN;
    return skb_clock_ms(SKB_CLOCK_THREAD) - t;
}

/* the control: the fastest of w->iters copies between o's buffers (fresh:
 * the destination forgotten first, as the kernels' outputs are) */
static double copy_ms(struct sweep *w, struct outs *o)
{
    double best = INFINITY;
    for (int i = 0; i < w->iters; i++) {
        if (o->fresh && skb_pages_forget(o->dst, w->copy_bytes) < 0)
            return NAN;
        double t = skb_clock_ms(SKB_CLOCK_THREAD);
        memcpy(o->dst, o->src, w->copy_bytes);
        __asm__ volatile("" : : "r"(o->dst) : "memory");
        best = fmin(best, skb_clock_ms(SKB_CLOCK_THREAD) - t);
    }
    return best;
}

/* the fastest of w->iters deformations of kernel k with outputs at the
 * given byte offsets into the two arrays */
static double kernel_ms(struct sweep *w, struct kern *k, struct outs *o, size_t off)
{
    double best = INFINITY;
    float *pos = (float *)(o->base[0] + off), *nrm = (float *)(o->base[1] + off);
    for (int i = 0; i < w->iters; i++)
        best = fmin(best, deform(w, k, i, pos, nrm, o->fresh));
    return best;
}

static int bind_kernels(struct sweep *w, char *msg, size_t msglen)
{
    const struct skb_method *m = skb_method_with_flag(SKB_MF_RATIO_REF);
    /* labels: LBS's registry name and the variant's suffix */
    static const struct { const char *suffix; enum skb_f32_layout lay; enum skb_f32_renorm rn; enum skb_f32_normals nm; } ks[] = {
        { "", SKB_F32_LAYOUT_SPLIT, SKB_F32_RENORM_BATCH8, SKB_F32_NRM_RENORM },
        { "/vertex-renorm", SKB_F32_LAYOUT_SPLIT, SKB_F32_RENORM_VERTEX, SKB_F32_NRM_RENORM },
        { "@slot4", SKB_F32_LAYOUT_SLOT4, SKB_F32_RENORM_VERTEX, SKB_F32_NRM_RENORM },
        { "+nrm_shader", SKB_F32_LAYOUT_SPLIT, SKB_F32_RENORM_BATCH8, SKB_F32_NRM_SHADER },
    };
    if (!m)
        return SKB_EINVAL;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        struct kern *k = w->k + w->nk;
        snprintf(k->label, sizeof k->label, "%s%s", m->name, ks[i].suffix);
        k->c = (struct skb_plan_cand){ ks[i].lay, SKB_F32_ISA_AUTO, ks[i].rn, 1, 1 };
        k->normals = ks[i].nm;
        int rc = skb_plan_bind(&k->s, m, &w->d->mesh, &k->c, k->normals, msg, msglen);
        if (rc < 0)
            return rc;
        k->bound = 1;
        w->nk++;
    }
    return 0;
}

/* the output offset sweep: every SWEEP_STEP bytes of a page */
static int sweep_offsets(struct sweep *w, cJSON *out)
{
    struct outs o;
    int rc = outs_map(w, &o, SKB_PAGES_SMALL, 0), step = w->ctx->quick ? QUICK_STEP : SWEEP_STEP;
    if (rc < 0)
        return rc;
    cJSON *arr = cJSON_AddArrayToObject(out, "points");
    double lo = INFINITY, hi = 0, lo4 = INFINITY, hi4 = 0;
    int worst = 0, best = 0;
    for (int off = 0; off < 4096; off += step) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "output_page_offset", off);
        cJSON_AddNumberToObject(p, "pos_out_minus_in", (off - SKB_F32_IN_POS_PAGE_OFFSET + 4096) % 4096);
        cJSON_AddNumberToObject(p, "nrm_out_minus_in", (off - SKB_F32_IN_NRM_PAGE_OFFSET + 4096) % 4096);
        double c = copy_ms(w, &o);
        skb_json_add_number(p, "memcpy_ms", c);
        double t[4];
        for (int i = 0; i < w->nk; i++) {
            t[i] = kernel_ms(w, w->k + i, &o, (size_t)off);
            skb_json_add_number(p, w->k[i].label, t[i]);
        }
        double r = t[0] / c, r4 = t[0] / t[2];
        skb_json_add_number(p, "linear_over_memcpy", r);
        skb_json_add_number(p, "linear_over_slot4", r4);
        if (r > hi) { hi = r; worst = off; }
        if (r < lo) { lo = r; best = off; }
        lo4 = fmin(lo4, r4);
        hi4 = fmax(hi4, r4);
        cJSON_AddItemToArray(arr, p);
    }
    outs_unmap(&o);
    cJSON_AddNumberToObject(out, "step_bytes", step);
    cJSON_AddNumberToObject(out, "input_pos_page_offset", SKB_F32_IN_POS_PAGE_OFFSET);
    cJSON_AddNumberToObject(out, "input_nrm_page_offset", SKB_F32_IN_NRM_PAGE_OFFSET);
    cJSON_AddNumberToObject(out, "harness_pos_page_offset", SKB_F32_OUT_POS_PAGE_OFFSET);
    skb_json_add_number(out, "linear_over_memcpy_min", lo);
    skb_json_add_number(out, "linear_over_memcpy_max", hi);
    skb_json_add_number(out, "linear_over_memcpy_max_over_min", hi / lo);
    cJSON_AddNumberToObject(out, "slowest_offset", worst);
    cJSON_AddNumberToObject(out, "fastest_offset", best);
    skb_json_add_number(out, "linear_over_slot4_min", lo4);
    skb_json_add_number(out, "linear_over_slot4_max", hi4);
    skb_run_progress(w->ctx, "cpu", "offset sweep: split LBS over the copy %.2f..%.2f (x%.2f; slowest at output "
                     "offset %d, fastest %d); over the 4-slot kernel %.2f..%.2f", lo, hi, hi / lo, worst, best, lo4, hi4);
    return 0;
}

/* huge pages in the mappings of the two outputs and the kernel's state */
static long huge_kib(const struct outs *o, const struct kern *k)
{
    const void *at[3] = { o->base[0], o->base[1], k->s.state };
    unsigned long long lo[3];
    long kib = 0;
    for (int i = 0; i < 3; i++) {
        struct skb_pages_vma v;
        /* merged neighbours share one mapping: count it once */
        lo[i] = skb_pages_vma(at[i], &v) == 0 ? v.lo : 0;
        if (lo[i] && !(i > 0 && lo[i] == lo[0]) && !(i > 1 && lo[i] == lo[1]))
            kib += v.huge_kib;
    }
    return kib;
}

/* one page state for every stream: kernels (split and 4-slot: their state
 * moved to buffers under the advice), outputs and the control, each ratio
 * to the control timed in the same state; memcpy_touched_ms is the control
 * on touched pages, the comparison a control timed apart from a kernel
 * that meets fresh pages would make */
static int page_case(struct sweep *w, enum skb_pages_thp thp, int fresh, cJSON *p)
{
    struct outs o;
    int rc = outs_map(w, &o, thp, fresh);
    if (rc < 0)
        return rc;
    if ((rc = skb_skin_f32_repage(&w->k[0].s, thp)) < 0 || (rc = skb_skin_f32_repage(&w->k[2].s, thp)) < 0) {
        outs_unmap(&o);
        return rc;
    }
    float *pos = (float *)(o.base[0] + SKB_F32_OUT_POS_PAGE_OFFSET);
    float *nrm = (float *)(o.base[1] + SKB_F32_OUT_NRM_PAGE_OFFSET);
    cJSON_AddStringToObject(p, "advice", skb_pages_thp_name(thp));
    cJSON_AddBoolToObject(p, "fresh_every_deformation", fresh);
    skb_json_add_number(p, "first_deformation_ms", deform(w, w->k, 0, pos, nrm, fresh));
    double c = copy_ms(w, &o), t = INFINITY, t4 = INFINITY;
    o.fresh = 0;
    double ct = copy_ms(w, &o);
    o.fresh = fresh;
    for (int k = 0; k < w->iters; k++) {
        t = fmin(t, deform(w, w->k, k + 1, pos, nrm, fresh));
        t4 = fmin(t4, deform(w, w->k + 2, k + 1, pos, nrm, fresh));
    }
    skb_json_add_number(p, "linear_ms", t);
    skb_json_add_number(p, "slot4_ms", t4);
    skb_json_add_number(p, "memcpy_ms", c);
    skb_json_add_number(p, "memcpy_touched_ms", ct);
    skb_json_add_number(p, "linear_over_memcpy", t / c);
    skb_json_add_number(p, "slot4_over_memcpy", t4 / c);
    skb_json_add_number(p, "linear_over_memcpy_touched", t / ct);
    skb_json_add_number(p, "linear_over_slot4", t / t4);
    cJSON_AddNumberToObject(p, "huge_page_kib", (double)huge_kib(&o, w->k));
    outs_unmap(&o);
    return 0;
}

/* touched or fresh before every deformation, under each huge-page advice;
 * the kernels' state goes back to run cpu's 4 KiB pages after */
static int sweep_pages(struct sweep *w, cJSON *out)
{
    static const struct { const char *name; enum skb_pages_thp thp; int fresh; } cases[] = {
        { "nohugepage_touched", SKB_PAGES_SMALL, 0 }, { "nohugepage_fresh", SKB_PAGES_SMALL, 1 },
        { "hugepage_touched", SKB_PAGES_HUGE, 0 }, { "hugepage_fresh", SKB_PAGES_HUGE, 1 },
        { "default_touched", SKB_PAGES_SYSTEM, 0 }, { "default_fresh", SKB_PAGES_SYSTEM, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *p = cJSON_AddObjectToObject(out, cases[i].name);
        int rc = page_case(w, cases[i].thp, cases[i].fresh, p);
        if (rc < 0)
            return rc;
        skb_run_progress(w->ctx, "cpu", "pages %s: split LBS over the copy %.3f (4-slot %.3f; over a copy on touched "
                         "pages %.3f), %.0f KiB in huge pages", cases[i].name,
                         cJSON_GetNumberValue(cJSON_GetObjectItem(p, "linear_over_memcpy")),
                         cJSON_GetNumberValue(cJSON_GetObjectItem(p, "slot4_over_memcpy")),
                         cJSON_GetNumberValue(cJSON_GetObjectItem(p, "linear_over_memcpy_touched")),
                         cJSON_GetNumberValue(cJSON_GetObjectItem(p, "huge_page_kib")));
    }
    int rc = skb_skin_f32_repage(&w->k[0].s, SKB_PAGES_SMALL);
    return rc < 0 ? rc : skb_skin_f32_repage(&w->k[2].s, SKB_PAGES_SMALL);
}

/* kernel k with the outputs where run cpu puts them (2 KiB past the
 * inputs), beside the copy: linear_ms, memcpy_ms and their ratio into p */
static void harness_point(struct sweep *w, struct kern *k, struct outs *o, cJSON *p)
{
    float *pos = (float *)(o->base[0] + SKB_F32_OUT_POS_PAGE_OFFSET);
    float *nrm = (float *)(o->base[1] + SKB_F32_OUT_NRM_PAGE_OFFSET);
    double c = copy_ms(w, o), t = INFINITY;
    for (int i = 0; i < w->iters; i++)
        t = fmin(t, deform(w, k, i, pos, nrm, 0));
    skb_json_add_number(p, "linear_ms", t);
    skb_json_add_number(p, "memcpy_ms", c);
    skb_json_add_number(p, "linear_over_memcpy", t / c);
}

/* the split kernel's state bound again: other physical pages each time */
static int sweep_rebind(struct sweep *w, cJSON *out, char *msg, size_t msglen)
{
    struct outs o;
    int rc = outs_map(w, &o, SKB_PAGES_SMALL, 0);
    if (rc < 0)
        return rc;
    cJSON *arr = cJSON_AddArrayToObject(out, "rebind");
    for (int b = 0; b < REBINDS && rc == 0; b++) {
        struct kern k = w->k[0];
        if ((rc = skb_plan_bind(&k.s, skb_method_with_flag(SKB_MF_RATIO_REF), &w->d->mesh, &k.c, k.normals, msg, msglen)) < 0)
            break;
        cJSON *p = cJSON_CreateObject();
        harness_point(w, &k, &o, p);
        cJSON_AddItemToArray(arr, p);
        skb_skin_f32_fini(&k.s);
    }
    outs_unmap(&o);
    return rc;
}

/* each instruction-set entry point of the split kernel */
static int sweep_isa(struct sweep *w, cJSON *out)
{
    struct outs o;
    int rc = outs_map(w, &o, SKB_PAGES_SMALL, 0);
    if (rc < 0)
        return rc;
    for (int isa = 0; isa < SKB_F32_NISA; isa++)
        if (skb_skin_f32_set_isa(&w->k[0].s, (enum skb_f32_isa)isa) == 0)
            harness_point(w, w->k, &o, cJSON_AddObjectToObject(out, skb_f32_isa_name((enum skb_f32_isa)isa)));
    skb_skin_f32_set_isa(&w->k[0].s, SKB_F32_ISA_AUTO);
    outs_unmap(&o);
    return 0;
}

int skb__fast_offset_sweep(const struct skb_run_ctx *ctx, const struct skb_dataset *d, char *msg, size_t msglen)
{
    struct sweep w;
    int rc;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.d = d;
    w.iters = ctx->quick ? QUICK_ITERS : ITERS;
    w.copy_bytes = (size_t)COPY_BYTES_PER_VERTEX * (size_t)d->mesh.nverts;
    w.out_bytes = (sizeof(float) * 3 * (size_t)d->mesh.nverts + 2 * 4096) / 4096 * 4096;
    cJSON *root = skb_json_results_new(ctx, "cpu");
    char en[64], df[64];
    if ((rc = bind_kernels(&w, msg, msglen)) < 0)
        goto out;
    skb_pages_system(en, sizeof en, df, sizeof df);
    cJSON_AddStringToObject(root, "system_thp_enabled", en);
    cJSON_AddStringToObject(root, "system_thp_defrag", df);
    cJSON_AddStringToObject(root, "dataset", d->name);
    cJSON_AddNumberToObject(root, "vertices", d->mesh.nverts);
    cJSON_AddNumberToObject(root, "deformations_per_point", w.iters);
    cJSON_AddStringToObject(root, "statistic", "fastest of the deformations at each point (the thread's CPU "
                            "time, one thread); memcpy of 72 bytes a vertex timed at the same point, its buffers in the same page "
                            "state, is the control; outside \"pages\" every buffer has 4 KiB pages, written first, as in run cpu");
    skb_run_progress(ctx, "cpu", "offset sweep on %s (%d vertices)", d->name, d->mesh.nverts);
    if ((rc = sweep_offsets(&w, cJSON_AddObjectToObject(root, "offsets"))) < 0
        || (rc = sweep_pages(&w, cJSON_AddObjectToObject(root, "pages"))) < 0
        || (rc = sweep_rebind(&w, root, msg, msglen)) < 0
        || (rc = sweep_isa(&w, cJSON_AddObjectToObject(root, "isa"))) < 0) {
        if (rc == SKB_ENOMEM)
            snprintf(msg, msglen, "cpu: offset sweep: out of memory");
        goto out;
    }
    rc = skb_results_write(ctx, &skb_schema_cpu_offsets, root, msg, msglen);
out:
    for (int i = 0; i < w.nk; i++)
        skb_skin_f32_fini(&w.k[i].s);
    cJSON_Delete(root);
    return rc;
}
