/* cpu_cases.c — `run cpu`: the datasets it loads and the cases (kernels
 * with their variants, peers, the copy) it builds and checks on each. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_internal.h"
#include "skb_fast_plan.h"
#include "skb_icount.h"
#include "skb_label.h"

const double skb__cpu_dib_precisions[SKB__CPU_NDIB_PRECISIONS] = { 1e-3, 1e-7 };   /* the default 1e-5 is DIB's judged timing itself */

/* DIB across precisions on the humans only (DQ paper App. B times a human) */
static const char *const dib_precision_datasets[] = { "bcn_human", "body", "bcn_human+random" };

int skb__cpu_wants_dib_sweep(const char *name)
{
    for (size_t i = 0; i < sizeof dib_precision_datasets / sizeof dib_precision_datasets[0]; i++)
        if (strcmp(name, dib_precision_datasets[i]) == 0)
            return 1;
    return 0;
}

/* ---- case set-up ---- */

static struct bcase *new_case(struct run *r, enum kind kind, struct ds *ds, const char *label)
{
    if (r->nc == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        struct bcase *nc = realloc(r->c, sizeof *nc * (size_t)cap);
        if (!nc)
            return NULL;
        r->c = nc;
        r->cap = cap;
    }
    struct bcase *c = r->c + r->nc++;
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->ds = ds;
    c->prm = r->ctx->params;
    snprintf(c->label, sizeof c->label, "%s", label);
    snprintf(c->name, sizeof c->name, "%s/%s/%s",
             kind == K_DOUBLE ? "double" : kind == K_F32 ? "f32" : kind == K_PEER ? "peer" : "copy",
             label, ds->d.name);
    return c;
}

void skb__cpu_fail_case(struct run *r, struct bcase *c, const char *msg)
{
    cJSON_AddStringToObject(r->failures, c->name, msg);
    skb_run_progress(r->ctx, "cpu", "NOT timed %s: %s", c->name, msg);
    c->error = SKB_ENUMERIC;
}

/* Figure 18's DLB row is "DLB (pre-computed antipodality)" (DQ paper 4.1,
 * Fig. 18): the dual quaternion methods' judged double path fixes the signs
 * once per pose along the joint hierarchy; Algorithm 2 per vertex is timed
 * beside it as a context row ("+alg2") */
static int dq_signs(const struct skb_method *m)
{
    return (m->flags & (SKB_MF_HEADLINE | SKB_MF_ITERATIVE)) != 0;
}

#define VARIANT_HIERARCHY "double, antipodality pre-computed along the hierarchy per pose (DQ paper 4.1; Fig. 18's variant)"
#define VARIANT_ALG2 "double, antipodality by Algorithm 2 per vertex (DQ paper 4.1)"
#define VARIANT_DIB_JUDGED "double, antipodality pre-computed along the hierarchy per pose; thesis Alg. 4.1 as written " \
    "(every vertex from DLB until |x| < p, the confirming pass included, one and two influences too)"
#define VARIANT_DIB_ONE "double, antipodality pre-computed along the hierarchy; one influence returned as DLB gives it " \
    "(no pass), otherwise Alg. 4.1 as written: new, reported beside the judged row"
#define VARIANT_DIB_SHORTCUT "double, antipodality pre-computed along the hierarchy; closed form for n = 2 (thesis Lemma 4.7), " \
    "one influence returned, no confirming pass: new, reported beside the judged row"

/* the double-path variants timed beside a method's judged one */
enum dvariant { DV_JUDGED, DV_ALG2, DV_ONE, DV_SHORTCUT, DV_SPHAVG, DV_UNINJECTED };
#define VARIANT_SB_SPHAVG "double, SBS with its rotations by Buss and Fillmore's spherical average instead of QLB " \
    "(seed 003 section 5, thesis 3.4: about 5x slower)"

/* the label of a double-path row (common/skb_label.h): "dlb+alg2",
 * "dib@p=0.001"; variant NULL: none, p <= 0: no precision */
void skb__cpu_double_label(char *buf, size_t len, const char *method, const char *variant, double p)
{
    struct skb_label l;
    char pv[32];
    skb_label_init(&l, method);
    if (variant)
        skb_label_add_variant(&l, variant);
    snprintf(pv, sizeof pv, "%g", p);
    if (p > 0)
        skb_label_add_key(&l, "p", pv);
    skb_label_format(&l, buf, len);
}

/* "method@key": the label of a planned or threaded row (common/skb_label.h);
 * key NULL: the method alone */
static void key_label(char *buf, size_t len, const char *method, const char *key)
{
    struct skb_label l;
    skb_label_init(&l, method);
    if (key)
        skb_label_add_key(&l, key, NULL);
    skb_label_format(&l, buf, len);
}

static void add_double_as(struct run *r, struct ds *ds, const struct skb_method *m, double dib_p, enum dvariant dv)
{
    char label[64], msg[512];
    static const char *const variant[] = { NULL, "alg2", "one", "shortcut", "sphavg", "uninjected" };
    skb__cpu_double_label(label, sizeof label, m->name, variant[dv], dib_p);
    struct bcase *c = new_case(r, K_DOUBLE, ds, label);
    if (!c)
        return;
    c->m = m;
    c->variant = "double";
    if (dq_signs(m)) {
        c->prm.antipodal = dv == DV_ALG2 ? SKB_ANTIPODAL_PIVOT : SKB_ANTIPODAL_HIERARCHY;
        c->variant = dv == DV_ALG2 ? VARIANT_ALG2 : VARIANT_HIERARCHY;
    }
    if (m->flags & SKB_MF_ITERATIVE) {
        static const char *const dib_variant[] = { VARIANT_DIB_JUDGED, VARIANT_ALG2, VARIANT_DIB_ONE, VARIANT_DIB_SHORTCUT,
                                                   VARIANT_DIB_JUDGED, VARIANT_DIB_JUDGED };
        static const int bits[] = { 0, 0, SKB_DIB_ONE_INPUT, SKB_DIB_ONE_INPUT | SKB_DIB_LEMMA47, 0, 0 };
        c->variant = dib_variant[dv];
        c->prm.dib_shortcut = bits[dv];
    }
    if (dv == DV_SPHAVG) {
        c->variant = VARIANT_SB_SPHAVG;
        c->prm.sb_spherical_average = 1;
    }
    if (dv == DV_UNINJECTED) {
        c->variant = "double, the injected method's kernel without the injected work (SKB_INJECT_TWIN)";
        c->no_inject = 1;
    }
    if (dib_p > 0)
        c->prm.dib_precision = dib_p;
    if (skb_skin_init(&c->sk, m, &ds->d.mesh, msg, sizeof msg) < 0 || skb__cpu_check_double(c, msg, sizeof msg) < 0)
        skb__cpu_fail_case(r, c, msg);
}

/* the method's judged double path, for DLB the per-vertex Algorithm 2, for
 * DIB its shortcuts (one influence returned; and the Lemma 4.7 closed form
 * for two, no confirming pass) */
static void add_double(struct run *r, struct ds *ds, const struct skb_method *m, double dib_p)
{
    add_double_as(r, ds, m, dib_p, DV_JUDGED);
    if (dib_p == 0 && (m->flags & SKB_MF_HEADLINE))
        add_double_as(r, ds, m, 0, DV_ALG2);
    if (dib_p == 0 && (m->flags & SKB_MF_ITERATIVE)) {
        add_double_as(r, ds, m, 0, DV_ONE);
        add_double_as(r, ds, m, 0, DV_SHORTCUT);
    }
    /* the slow-down injection's twin: the same kernel, left alone */
    if (dib_p == 0 && r->inject.twin && strcmp(m->name, r->inject.method) == 0)
        add_double_as(r, ds, m, 0, DV_UNINJECTED);
    /* seed 003 section 5: SBS with spherical averages, on the human model */
    if (dib_p == 0 && (m->flags & SKB_MF_ROT_CENTERS) && strcmp(ds->d.name, "bcn_human") == 0)
        add_double_as(r, ds, m, 0, DV_SPHAVG);
}

/* the pool of `threads` threads: the full one, or one of the scaling
 * curve's; NULL for one thread */
static struct skb_pool *pool_for(struct run *r, int threads)
{
    if (threads <= 1)
        return NULL;
    for (int i = 0; i < r->npools; i++)
        if (skb_pool_threads(r->pools[i]) == threads)
            return r->pools[i];
    return r->pool;
}

/* label: method, "+nrm_shader"/"+nrm_none" for the normal option,
 * "@slot4" for the 4-slot layout, "@Nt" on the N-thread pool */
static void add_f32_mode(struct run *r, struct ds *ds, const struct skb_method *m, enum skb_f32_normals mode,
                         enum skb_f32_layout layout, int threads)
{
    char msg[512], label[64], part[48];
    struct skb_label l;
    skb_label_init(&l, m->name);
    snprintf(part, sizeof part, "nrm_%s", skb_f32_normals_name(mode));
    if (mode != SKB_F32_NRM_RENORM)
        skb_label_add_variant(&l, part);
    if (layout == SKB_F32_LAYOUT_SLOT4)
        skb_label_add_key(&l, "slot4", NULL);
    snprintf(part, sizeof part, "%dt", threads);
    if (threads > 1)
        skb_label_add_key(&l, part, NULL);
    skb_label_format(&l, label, sizeof label);
    struct bcase *c = new_case(r, K_F32, ds, label);
    if (!c)
        return;
    c->m = m;
    c->threads = threads;
    c->pool = pool_for(r, threads);
    if (skb_skin_f32_init_layout(&c->fk, m, &ds->d.mesh, layout, msg, sizeof msg) < 0
        || skb_skin_f32_set_normals(&c->fk, mode) < 0 || skb__cpu_check_float(c, m, msg, sizeof msg) < 0
        || (threads > 1 && skb__cpu_check_pool(c, msg, sizeof msg) < 0))
        skb__cpu_fail_case(r, c, msg);
}

/* each kernel as the double path does it (renormalised normals, vertices
 * split by influence count), and the two headline kernels also as engines
 * do: LBS leaving the normal to the shader, LBS and DLB without
 * normals; LBS and DLB in the 4-slot layout (the kernels before the split,
 * measured beside it), and on every CPU through the pool */
static void add_f32(struct run *r, struct ds *ds, const struct skb_method *m)
{
    int lbs = (m->flags & SKB_MF_RATIO_REF) != 0, headline = lbs || (m->flags & SKB_MF_HEADLINE);
    int nt = r->pool ? skb_pool_threads(r->pool) : 1;
    add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SPLIT, 1);
    if (headline)
        add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SLOT4, 1);
    if (headline && nt > 1)
        add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SPLIT, nt);
    if (!ds->d.mesh.nrm)
        return;
    if (lbs) {
        add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER, SKB_F32_LAYOUT_SPLIT, 1);
        add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER, SKB_F32_LAYOUT_SLOT4, 1);
        if (nt > 1)
            add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER, SKB_F32_LAYOUT_SPLIT, nt);
    }
    if (headline)
        add_f32_mode(r, ds, m, SKB_F32_NRM_NONE, SKB_F32_LAYOUT_SPLIT, 1);
}

/* ---- the planner's rows (docs/report-and-regression.md "Fast kernels: the planner") ----
 * "linear@plan" and "dlb@plan": one thread, the kernel the planner chose
 * for this mesh (renormalised normals).  The name never changes with the
 * choice, which is recorded beside it (fast_kernels.plans). */
static void add_plan(struct run *r, struct ds *ds, const struct skb_method *m)
{
    char msg[512], label[64];
    /* not under the instruction count: a choice made by timing under
     * callgrind is noise, and the counts must repeat to the instruction */
    if (skb__icount_child())
        return;
    struct skb_plan *plan = calloc(1, sizeof *plan);
    struct skb_pool *pools[17];
    int np = 0;
    for (int i = 0; i < r->npools; i++)
        pools[np++] = r->pools[i];
    if (r->pool)
        pools[np++] = r->pool;
    const struct skb_run_ctx *ctx = r->ctx;
    double budget = ctx->planner_budget_ms > 0 ? ctx->planner_budget_ms
                  : ctx->quick ? 0.1 * SKB_PLAN_DEFAULT_BUDGET_MS : SKB_PLAN_DEFAULT_BUDGET_MS;
    struct skb_plan_env e = { m, &ds->d, &ctx->params, SKB_F32_NRM_RENORM, ds->fpos, ds->fnrm, pools, np, budget,
                              r->build };
    key_label(label, sizeof label, m->name, "plan");
    struct bcase *c = new_case(r, K_F32, ds, label);
    if (!c || !plan) {
        free(plan);
        if (c)
            skb__cpu_fail_case(r, c, "out of memory");
        return;
    }
    c->m = m;
    c->threads = 1;
    int rc = skb_plan_kernel(&e, (enum skb_plan_mode)ctx->planner, r->wisdom, plan, msg, sizeof msg);
    r->plan_ms += plan->cost_ms;
    r->nplans++;
    if (rc == 0) {
        cJSON *byds = cJSON_GetObjectItemCaseSensitive(r->plans, ds->d.name);
        if (!byds)
            byds = cJSON_AddObjectToObject(r->plans, ds->d.name);
        cJSON_AddItemToObject(byds, label, skb_plan_json(plan));
        char name[96];
        skb_plan_cand_name(&plan->r[plan->chosen].c, name, sizeof name);
        skb_run_progress(ctx, "cpu", "%s: %s planned %s (%s, %d candidates, %.0f ms)", ds->d.name, label, name,
                         plan->source, plan->n, plan->cost_ms);
    }
    if (rc < 0 || skb_plan_bind(&c->fk, m, &ds->d.mesh, &plan->r[plan->chosen].c, SKB_F32_NRM_RENORM, msg,
                                sizeof msg) < 0
        || skb__cpu_check_float(c, m, msg, sizeof msg) < 0)
        skb__cpu_fail_case(r, c, msg);
    free(plan);
}

static void add_peer(struct run *r, struct ds *ds, const struct skb_peer_ops *peer)
{
    char msg[512];
    const struct skb_method *ref = skb_method_with_flag(peer->reference);
    struct bcase *c = new_case(r, K_PEER, ds, peer->name);
    if (!c)
        return;
    c->peer = peer;
    if (!peer->create || !ref) {
        skb__cpu_fail_case(r, c, peer->description);
        return;
    }
    if (!(c->pp = peer->create(&ds->d.mesh))) {
        skb__cpu_fail_case(r, c, "out of memory");
        return;
    }
    if (skb__cpu_check_float(c, ref, msg, sizeof msg) < 0)
        skb__cpu_fail_case(r, c, msg);
}

/* the output arrays in one block, each starting OUT_STAGGER bytes further
 * into its page: large allocations are page-aligned, and an output at the
 * same page offset as the input it is computed from makes loads wait on
 * stores to the same 4 KiB offset (measured: double LBS 40% slower); the
 * float outputs where the fast kernels' state wants them, 2 KiB from their
 * inputs (skb_fast.h) */
#define OUT_STAGGER 1088
static int alloc_outputs(struct ds *ds)
{
    size_t n = 3 * (size_t)ds->d.mesh.nverts + 1;
    size_t sz[4] = { n * sizeof *ds->pos, n * sizeof *ds->nrm, n * sizeof *ds->fpos, n * sizeof *ds->fnrm };
    size_t at[4] = { OUT_STAGGER, 2 * OUT_STAGGER, SKB_F32_OUT_POS_PAGE_OFFSET, SKB_F32_OUT_NRM_PAGE_OFFSET };
    size_t off[4], total = 0;
    for (int i = 0; i < 4; i++) {
        off[i] = total + at[i];
        total = (off[i] + sz[i] + 4095) / 4096 * 4096;
    }
    /* the timed page state (common/skb_pages.h): every page written, the
     * run's one huge-page advice */
    char *block = skb_pages_alloc(total, SKB__CPU_PAGES);
    if (!block)
        return SKB_ENOMEM;
    memset(block, 0, total);
    ds->out_block = block;
    ds->pos = (double *)(block + off[0]);
    ds->nrm = (double *)(block + off[1]);
    ds->fpos = (float *)(block + off[2]);
    ds->fnrm = (float *)(block + off[3]);
    return 0;
}

/* qb needs a rotation centre per vertex: give the mesh the default rule's
 * centres, so the double path, the fast path and the blend check share them */
static int set_centers(struct skb_dataset *d)
{
    if (d->mesh.center)
        return 0;
    d->mesh.center = calloc(3 * (size_t)d->mesh.nverts + 1, sizeof *d->mesh.center);
    if (!d->mesh.center)
        return SKB_ENOMEM;
    return skb__qb_default_centers(&d->mesh, d->mesh.center);
}

void skb__cpu_free_run(struct run *r)
{
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        skb_skin_fini(&c->sk);
        skb_skin_f32_fini(&c->fk);
        if (c->pp)
            c->peer->destroy(c->pp);
        skb_pages_free(c->src);
        skb_pages_free(c->dst);
    }
    free(r->c);
    for (int i = 0; i < r->nds; i++) {
        skb_dataset_free(&r->ds[i].d);
        skb_pages_free(r->ds[i].out_block);
    }
    free(r->ds);
    cJSON_Delete(r->failures);
    cJSON_Delete(r->plans);
    cJSON_Delete(r->wisdom);
    for (int i = 0; i < r->npools; i++)
        skb_pool_destroy(r->pools[i]);
    skb_pool_destroy(r->pool);
}

/* the copy roofline: memcpy of as many bytes as the 4-slot LBS kernel
 * streams, on one thread or split over the pool */
static void add_copy(struct run *r, struct ds *ds, int threads)
{
    char label[32], th[16];
    snprintf(th, sizeof th, "%dt", threads);
    key_label(label, sizeof label, "memcpy", threads > 1 ? th : NULL);
    struct bcase *c = new_case(r, K_COPY, ds, label);
    if (!c)
        return;
    c->threads = threads;
    c->pool = pool_for(r, threads);
    c->bytes = (size_t)LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts;
    /* in the kernels' page state: the control compares like with like */
    c->src = skb_pages_alloc(c->bytes, SKB__CPU_PAGES);
    c->dst = skb_pages_alloc(c->bytes, SKB__CPU_PAGES);
    if (!c->src || !c->dst) {
        skb__cpu_fail_case(r, c, "out of memory");
        return;
    }
    memset(c->src, 1, c->bytes);
    memset(c->dst, 2, c->bytes);   /* touch every page before timing */
}

int skb__cpu_load_ds(struct run *r, const char *name, int levels, int large, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { r->ctx->seed, r->ctx->quick, levels };
    struct ds *ds = r->ds + r->nds;
    memset(ds, 0, sizeof *ds);
    int rc = skb_run_dataset_load(r->ctx, name, &o, &ds->d, msg, msglen);
    if (rc < 0)
        return rc;
    r->nds++;
    ds->large = large;
    if (large && ds->d.nposes > LARGE_POSES)
        ds->d.nposes = LARGE_POSES;    /* the first poses are enough to cycle through */
    if ((rc = alloc_outputs(ds)) < 0 || (rc = set_centers(&ds->d)) < 0) {
        snprintf(msg, msglen, "%s: out of memory", ds->d.name);
        return rc;
    }
    return 0;
}

/* every method's double path (DIB across precisions where asked), its fast
 * path, and the peers on one dataset */
void skb__cpu_add_dataset_cases(struct run *r, struct ds *ds)
{
    skb_run_progress(r->ctx, "cpu", "%s: %d vertices, %d joints, %d poses: checking kernels", ds->d.name,
                     ds->d.mesh.nverts, ds->d.mesh.njoints, ds->d.nposes);
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        if (!m->skin || !skb_run_wants_method(r->ctx, m))
            continue;
        add_double(r, ds, m, 0);
        if ((m->flags & SKB_MF_ITERATIVE) && skb__cpu_wants_dib_sweep(ds->d.name))
            for (size_t p = 0; p < sizeof skb__cpu_dib_precisions / sizeof skb__cpu_dib_precisions[0]; p++)
                add_double(r, ds, m, skb__cpu_dib_precisions[p]);
        if (m->f32)
            add_f32(r, ds, m);
        if (m->f32 && (m->flags & (SKB_MF_RATIO_REF | SKB_MF_HEADLINE)))
            add_plan(r, ds, m);
    }
    for (int k = 0; skb_peers[k]; k++)
        add_peer(r, ds, skb_peers[k]);
}

/* every dataset this run times, loaded before any thread starts (see
 * cpu_run): the default ones with their own clips (or the user's model
 * alone), the human's random poses, and, outside the instruction count,
 * the roofline mesh.  A default dataset that fails is skipped and named. */
int skb__cpu_load_all(struct run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    char lmsg[512];
    int rc;
    if (ctx->dataset_file) {
        if ((rc = skb__cpu_load_ds(r, ctx->dataset_file, 0, 0, lmsg, sizeof lmsg)) < 0) {
            snprintf(msg, msglen, "cpu: %s", lmsg);
            return rc;
        }
        return 0;
    }
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        if (!s->in_default_set || !skb_run_wants_dataset(ctx, s->name))
            continue;
        if (skb__cpu_load_ds(r, s->name, 0, 0, lmsg, sizeof lmsg) < 0) {
            cJSON_AddStringToObject(r->failures, s->name, lmsg);
            skb_run_progress(ctx, "cpu", "dataset %s skipped: %s", s->name, lmsg);
        }
    }
    /* a second pose sequence for the human: random poses within joint limits */
    if (skb_run_wants_dataset(ctx, RANDOM_POSE_SOURCE "+random")
        && skb__cpu_load_ds(r, RANDOM_POSE_SOURCE, 0, 0, lmsg, sizeof lmsg) == 0) {
        struct ds *ds = r->ds + r->nds - 1;
        if (skb_dataset_random_poses(&ds->d, ctx->quick ? QUICK_RANDOM_POSES : RANDOM_POSES,
                                     RANDOM_POSE_LIMIT, ctx->seed, lmsg, sizeof lmsg) == 0) {
            snprintf(ds->d.name, sizeof ds->d.name, "%s+random", RANDOM_POSE_SOURCE);
        } else {
            cJSON_AddStringToObject(r->failures, RANDOM_POSE_SOURCE "+random", lmsg);
            skb_dataset_free(&ds->d);
            free(ds->out_block);
            r->nds--;
        }
    }
    /* the roofline mesh: a subdivided model that leaves the caches
     * (with --datasets only when the list names "roofline") */
    if (!skb__icount_child() && (!ctx->datasets_filter || skb_run_wants_dataset(ctx, "roofline"))) {
        int levels = ctx->quick ? QUICK_LARGE_LEVELS : LARGE_LEVELS;
        if ((rc = skb__cpu_load_ds(r, LARGE_SOURCE, levels, 1, lmsg, sizeof lmsg)) < 0) {
            snprintf(msg, msglen, "cpu: large mesh: %s", lmsg);
            return SKB_ENOMEM;
        }
    }
    return 0;
}

/* a method whose bind refuses the mesh (SKB_ENOTSUP: cor's precompute
 * limit on the roofline mesh, ARCHITECTURE.md's CoR paragraph) is named
 * and left out, not counted as a kernel that failed its checks */
static int refuses_mesh(struct run *r, struct ds *ds, const struct skb_method *m)
{
    struct skb_skinner s;
    char msg[256];
    int rc = skb_skin_init(&s, m, &ds->d.mesh, msg, sizeof msg);
    skb_skin_fini(&s);
    if (rc == SKB_ENOTSUP)
        skb_run_progress(r->ctx, "cpu", "%s: %s not timed: %s", ds->d.name, m->name, msg);
    return rc == SKB_ENOTSUP;
}

/* the roofline mesh's cases: every fast method's double and f32 paths, the
 * peers, and the copy on one thread and on the pool */
void skb__cpu_add_large_cases(struct run *r, struct ds *ds)
{
    skb_run_progress(r->ctx, "cpu", "%s: %d vertices (roofline mesh): checking kernels", ds->d.name,
                     ds->d.mesh.nverts);
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        if (!m->f32 || !skb_run_wants_method(r->ctx, m) || refuses_mesh(r, ds, m))
            continue;
        add_double(r, ds, m, 0);
        add_f32(r, ds, m);
        if (m->flags & (SKB_MF_RATIO_REF | SKB_MF_HEADLINE)) {
            add_plan(r, ds, m);
            /* the scaling curve's thread counts below the full pool */
            for (int i = 0; i < r->npools; i++)
                add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SPLIT, skb_pool_threads(r->pools[i]));
        }
    }
    for (int k = 0; skb_peers[k]; k++)
        add_peer(r, ds, skb_peers[k]);
    add_copy(r, ds, 1);
    for (int i = 0; i < r->npools; i++)
        add_copy(r, ds, skb_pool_threads(r->pools[i]));
    if (r->pool)
        add_copy(r, ds, skb_pool_threads(r->pool));
}
