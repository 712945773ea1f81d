/* fast_plan.c — the fast kernels' planner (skb_fast_plan.h).  Why: a kernel
 * choice made on one machine from one run is a guess on the next (split
 * LBS with renormalised normals was 1.9x the 4-slot kernel on the 2-core
 * AMD EPYC it was tuned on and 0.67x of it in a first run on a 16-core
 * Xeon), so, as FFTW plans a transform, the harness times the candidates
 * on the machine and mesh at hand.
 *
 * Each candidate is first checked against the double skin of its method on
 * the middle pose of the clip (SKB_TOL_F32_*), then timed against the first
 * candidate (the incumbent: the fixed choice's layout and renormalisation on
 * the best instruction set) pair by pair through the one timing engine
 * (common/skb_timing.h): 9 pairs of samples of at least budget/18 ms, so
 * drift of the machine's speed during planning hits both sides of a ratio
 * alike.  Rounds of medians timed apart, used before, put candidates 2-5 %
 * apart in either order from run to run (the planned LBS row on bcn_human
 * came out 5.2 % slower than the fixed row beside it, pair by pair).
 * Candidates that share a layout share one bound state: the instruction
 * set and renormalisation are switches on it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "skb_fast_plan.h"
#include "skb_json.h"
#include "skb_pool.h"
#include "skb_stats.h"
#include "skb_timing.h"

#define PLAN_PAIRS 9                /* pairs per challenger: the fewest whose exact 95 % interval
                                       leaves out its two most extreme Walsh averages of each side */
#define PLAN_MIN_SAMPLE_MS 0.05     /* a sample lasts at least this (a tiny mesh's budget) */
#define PRUNE_ABOVE 1.5             /* x the incumbent on a first pair: not timed further */
#define WISDOM_MAX_BYTES (4 << 20)

struct skb_plan_cand skb_plan_fixed(void)
{
    return (struct skb_plan_cand){ SKB_F32_LAYOUT_SPLIT, SKB_F32_ISA_AUTO, SKB_F32_RENORM_BATCH8, 1, 1 };
}

void skb_plan_cand_name(const struct skb_plan_cand *c, char *buf, size_t len)
{
    char th[16] = "";
    if (c->threads > 1)
        snprintf(th, sizeof th, "/%dt", c->threads);
    snprintf(buf, len, "%s/%s/%s%s%s", skb_f32_layout_name(c->layout), skb_f32_isa_name(c->isa),
             skb_f32_renorm_name(c->renorm), th, c->repeat > 1 ? "/planted-slow" : "");
}

int skb_plan_candidates(const struct skb_method *m, enum skb_f32_normals normals, int has_nrm,
                        struct skb_plan_cand *out, int max)
{
    int n = 0, lbs = (m->flags & SKB_MF_RATIO_REF) != 0;
    /* the renormalisation only matters where LBS renormalises; the
     * instruction-set entry points exist for LBS only */
    int nrn = lbs && has_nrm && normals == SKB_F32_NRM_RENORM ? SKB_F32_NRENORM : 1;
    for (int lay = 0; lay < 2; lay++)
        for (int isa = 0; isa < (lbs ? SKB_F32_NISA : 1); isa++) {
            /* AUTO is the best explicit one the CPU has: time it only where
             * there are no explicit entry points */
            if (!skb_f32_isa_available((enum skb_f32_isa)isa) || (isa == SKB_F32_ISA_AUTO && lbs
                                                                  && skb_f32_isa_available(SKB_F32_ISA_BASE)))
                continue;
            for (int r = 0; r < nrn; r++) {
                /* SLOT4 renormalises vertex by vertex only */
                if (nrn > 1 && lay == SKB_F32_LAYOUT_SLOT4
                    && (r == SKB_F32_RENORM_BATCH8 || r == SKB_F32_RENORM_BATCH8_EXACT || r == SKB_F32_RENORM_SOA8))
                    continue;
                if (n < max)
                    out[n++] = (struct skb_plan_cand){ (enum skb_f32_layout)lay, (enum skb_f32_isa)isa,
                                                       (enum skb_f32_renorm)(nrn > 1 ? r : lay), 1, 1 };
            }
        }
    return n;
}

int skb_plan_bind(struct skb_skinner_f32 *s, const struct skb_method *m, const struct skb_mesh *mesh,
                  const struct skb_plan_cand *c, enum skb_f32_normals normals, char *msg, size_t msglen)
{
    int rc = skb_skin_f32_init_layout(s, m, mesh, c->layout, msg, msglen);
    if (rc < 0)
        return rc;
    if ((rc = skb_skin_f32_set_normals(s, normals)) < 0 || (rc = skb_skin_f32_set_isa(s, c->isa)) < 0
        || (rc = skb_skin_f32_set_renorm(s, c->renorm)) < 0) {
        snprintf(msg, msglen, "%s: cannot set instruction set %s / renormalisation %s: %s", m->name,
                 skb_f32_isa_name(c->isa), skb_f32_renorm_name(c->renorm), skb_strerror(rc));
        skb_skin_f32_fini(s);
    }
    return rc;
}

/* what the timing engine runs: a candidate on its layout's state, on one
 * thread or a pool */
struct entry {
    struct skb_plan_result *res;
    struct skb_skinner_f32 *s;
    struct skb_pool *pool;
    const struct skb_plan_env *e;
    int pose, rc;
    long deformations;
};

static int deform_once(const struct skb_plan_env *e, const struct entry *en, int pose)
{
    struct skb_pose p;
    skb_dataset_pose(e->d, pose, &p);
    if (skb_skin_f32_set_isa(en->s, en->res->c.isa) < 0 || skb_skin_f32_set_renorm(en->s, en->res->c.renorm) < 0)
        return SKB_ENOTSUP;
    int rc = skb__skin_f32_prepare(en->s, &p, e->prm);
    for (int k = 0; k < en->res->c.repeat && rc >= 0; k++)
        rc = en->pool ? skb__skin_f32_run_pool(en->s, en->pool, e->pos, e->nrm)
                      : skb__skin_f32_run(en->s, 0, e->d->mesh.nverts, e->pos, e->nrm);
    return rc;
}

/* iters deformations of the entry, cycling through the clip (the engine's work) */
static int entry_work(void *arg, long iters)
{
    struct entry *en = arg;
    for (long k = 0; k < iters && en->rc >= 0; k++) {
        en->rc = deform_once(en->e, en, en->pose);
        en->pose = (en->pose + 1) % en->e->d->nposes;
        en->deformations++;
    }
    return en->rc < 0 ? en->rc : 0;
}

/* entry a against entry b (the incumbent) pair by pair on `clock` (one
 * thread: its CPU time, which other load on a shared machine does not
 * stretch; pools: the wall clock), samples sized so that the pairs use
 * the budget (the incumbent's runs per sample fixed once: *b_runs, 0 the
 * first time); a's row gets the estimate, interval and its median time.  A
 * challenger PRUNE_ABOVE x the incumbent on a first pair keeps that pair's
 * ratio and no interval (the old x86-64 entry points on a mesh in cache
 * run 5-14 x slower: nine pairs of them would cost the budget for nothing) */
static int time_against(const struct skb_plan_env *e, struct entry *a, struct entry *b, enum skb_clock clock,
                        long *b_runs)
{
    struct skb_pair_opts o = { .pairs = PLAN_PAIRS, .clock = clock, .alpha = SKB_PAIR_ALPHA,
                               .min_sample_ms = fmax(PLAN_MIN_SAMPLE_MS, e->budget_ms / (2.0 * PLAN_PAIRS)),
                               .runs_b = *b_runs };
    struct skb_work wa = { .run = entry_work, .arg = a }, wb = { .run = entry_work, .arg = b };
    struct skb_pair_result r;
    int rc;
    if (a == b) {
        rc = skb_time_aa(&wb, &o, &r);
    } else {
        o.pairs = 1;
        rc = skb_time_pair(&wa, &wb, &o, &r);
        if (rc >= 0 && !(r.ratio > PRUNE_ABOVE)) {
            o.pairs = PLAN_PAIRS;
            o.runs_a = r.runs_a;
            rc = skb_time_pair(&wa, &wb, &o, &r);
        }
    }
    if (rc < 0)
        return rc;
    *b_runs = r.runs_b;
    a->res->ratio_to_first = r.ratio;
    a->res->ci_low = r.lo;
    a->res->ci_high = r.hi;
    a->res->pairs = r.pairs;
    a->res->ms = r.a_ms;
    return 0;
}

/* every entry against the first (the incumbent: its own row is its A/A) */
static int time_entries(const struct skb_plan_env *e, struct entry *en, int n, enum skb_clock clock)
{
    long b_runs = 0;
    for (int i = 0; i < n; i++) {
        en[i].e = e;
        en[i].rc = 0;
        en[i].deformations = 0;
    }
    for (int i = 0; i < n; i++) {
        int rc = time_against(e, en + i, en, clock, &b_runs);
        if (rc < 0)
            return rc;
    }
    for (int i = 0; i < n; i++)
        en[i].res->iters += (int)en[i].deformations;
    return 0;
}

struct ref {
    double *pos, *nrm;
    float *fp, *fn;
    struct skb_pose pose;
};

static void ref_free(struct ref *r)
{
    free(r->pos);
    free(r->nrm);
    free(r->fp);
    free(r->fn);
}

/* the double skin of the method at the middle pose, and scratch for the
 * candidates' outputs in mesh order */
static int ref_init(const struct skb_plan_env *e, struct ref *r, char *msg, size_t msglen)
{
    size_t n3 = 3 * (size_t)e->d->mesh.nverts + 1;
    struct skb_skinner sk;
    memset(r, 0, sizeof *r);
    r->pos = calloc(n3, sizeof *r->pos);
    r->nrm = calloc(n3, sizeof *r->nrm);
    r->fp = calloc(n3, sizeof *r->fp);
    r->fn = calloc(n3, sizeof *r->fn);
    if (!r->pos || !r->nrm || !r->fp || !r->fn) {
        snprintf(msg, msglen, "planner: out of memory");
        return SKB_ENOMEM;
    }
    skb_dataset_pose(e->d, e->d->nposes / 2, &r->pose);
    int rc = skb_skin_init(&sk, e->m, &e->d->mesh, msg, msglen);
    if (rc < 0)
        return rc;
    rc = skb_skin_pose(&sk, &r->pose, e->prm, r->pos, r->nrm, msg, msglen);
    skb_skin_fini(&sk);
    return rc;
}

/* a shader normalises what SKB_F32_NRM_SHADER leaves (as check_float) */
static void unit3(size_t nverts, float *v)
{
    for (size_t i = 0; i < nverts; i++) {
        float *q = v + 3 * i, l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        for (int k = 0; k < 3 && l > 0; k++)
            q[k] /= l;
    }
}

static void verify(const struct skb_plan_env *e, struct ref *r, struct entry *en)
{
    char msg[256];
    double ep, en2;
    int has = e->d->mesh.nrm && e->normals != SKB_F32_NRM_NONE;
    en->res->verified = 0;
    en->res->error = INFINITY;
    if (skb_skin_f32_set_isa(en->s, en->res->c.isa) < 0 || skb_skin_f32_set_renorm(en->s, en->res->c.renorm) < 0
        || skb_skin_f32_pose(en->s, &r->pose, e->prm, r->fp, has ? r->fn : NULL, msg, sizeof msg) < 0)
        return;
    if (has && e->normals == SKB_F32_NRM_SHADER)
        unit3((size_t)e->d->mesh.nverts, r->fn);
    skb_f32_compare(e->d->mesh.nverts, r->pos, has ? r->nrm : NULL, r->fp, has ? r->fn : NULL, &ep, &en2, NULL);
    en->res->error = fmax(ep, en2);
    en->res->verified = ep <= 1 && en2 <= 1;
}

/* a pooled run writes what one call writes, bit for bit (layout order) */
static int pool_matches(const struct skb_plan_env *e, struct entry *one, struct entry *many)
{
    size_t n3 = 3 * (size_t)e->d->mesh.nverts;
    float *a = malloc(sizeof(float) * 2 * n3 + 1), *b = malloc(sizeof(float) * 2 * n3 + 1);
    int ok = a && b;
    struct skb_pose p;
    skb_dataset_pose(e->d, e->d->nposes / 2, &p);
    ok = ok && skb__skin_f32_prepare(one->s, &p, e->prm) >= 0
         && skb__skin_f32_run(one->s, 0, e->d->mesh.nverts, a, a + n3) >= 0
         && skb__skin_f32_run_pool(many->s, many->pool, b, b + n3) >= 0
         && memcmp(a, b, sizeof(float) * (e->nrm && e->d->mesh.nrm && e->normals != SKB_F32_NRM_NONE ? 2 * n3 : n3)) == 0;
    free(a);
    free(b);
    return ok;
}

static int one_thread_timed(const struct skb_plan_result *r)
{
    return r->c.threads == 1 && r->verified && isfinite(r->ms);
}

/* the choice: the incumbent (the first candidate timed: the fixed choice's
 * layout and renormalisation on the best instruction set) unless a
 * challenger was faster by its whole 95 % interval, timed pair by pair
 * beside it (then the one with the lowest estimate).  Why not simply the
 * lowest median: on a shared machine candidates 2-5 % apart swap places
 * between runs — the planned LBS row on bcn_human came out 7.7 % slower
 * than the fixed row beside it in one of three runs of the lowest median. */
static int choose(const struct skb_plan *p)
{
    int first = -1, best = -1;
    for (int i = 0; i < p->n; i++) {
        if (!one_thread_timed(p->r + i))
            continue;
        if (first < 0)
            first = i;
        else if (p->r[i].ci_high < 1 && (best < 0 || p->r[i].ratio_to_first < p->r[best].ratio_to_first))
            best = i;
    }
    return best >= 0 ? best : first;
}

/* stage 2: the choice on every pool, beside itself on one thread */
static int plan_threads(const struct skb_plan_env *e, struct skb_plan *out, struct skb_skinner_f32 *s)
{
    struct entry en[1 + 16];
    int n = 0, best;
    out->threads = 1;
    if (out->chosen < 0 || e->npools < 1)
        return 0;
    en[n++] = (struct entry){ .res = out->r + out->chosen, .s = s };
    for (int i = 0; i < e->npools && n < 17 && out->n < SKB_PLAN_MAX_CANDS; i++) {
        struct skb_plan_result *r = out->r + out->n;
        *r = (struct skb_plan_result){ .c = out->r[out->chosen].c, .ms = INFINITY, .error = NAN, .ratio_to_first = NAN,
                                       .ci_low = NAN, .ci_high = NAN };
        r->c.threads = skb_pool_threads(e->pools[i]);
        en[n] = (struct entry){ .res = r, .s = s, .pool = e->pools[i] };
        r->verified = out->r[out->chosen].verified && pool_matches(e, en, en + n);
        r->error = out->r[out->chosen].error;
        out->n++;
        if (r->verified)
            n++;
    }
    /* the one-thread time is measured again beside the pools (its A/A, in
     * wall time): keep the stage-1 figures, which the choice was made on */
    struct skb_plan_result one = out->r[out->chosen];
    int rc = time_entries(e, en, n, SKB_CLOCK_WALL);
    out->one_thread_wall_ms = out->r[out->chosen].ms;
    best = 0;
    for (int i = 1; i < n; i++)   /* a pool only where it is faster by its whole interval */
        if (en[i].res->ci_high < 1 && (best == 0 || en[i].res->ratio_to_first < en[best].res->ratio_to_first))
            best = i;
    out->threads = en[best].res->c.threads;
    out->r[out->chosen] = one;
    return rc;
}

int skb_plan_measure(const struct skb_plan_env *e, const struct skb_plan_cand *cands, int n, struct skb_plan *out,
                     char *msg, size_t msglen)
{
    struct skb_skinner_f32 s[2];
    int bound[2] = { 0, 0 }, rc = 0;
    struct entry en[SKB_PLAN_MAX_CANDS];
    struct ref ref;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    out->n = 0;
    out->chosen = -1;
    out->threads = 1;
    out->one_thread_wall_ms = NAN;
    out->budget_ms = e->budget_ms;
    snprintf(out->source, sizeof out->source, "measured");
    if ((rc = ref_init(e, &ref, msg, msglen)) < 0)
        goto done;
    int nen = 0;
    for (int i = 0; i < n && out->n < SKB_PLAN_MAX_CANDS; i++) {
        int lay = cands[i].layout;
        if (!bound[lay]) {
            if ((rc = skb_plan_bind(s + lay, e->m, &e->d->mesh, cands + i, e->normals, msg, msglen)) < 0)
                goto done;
            bound[lay] = 1;
        }
        struct skb_plan_result *r = out->r + out->n++;
        *r = (struct skb_plan_result){ .c = cands[i], .ms = INFINITY, .error = NAN, .ratio_to_first = NAN,
                                       .ci_low = NAN, .ci_high = NAN };
        en[nen] = (struct entry){ .res = r, .s = s + lay };
        verify(e, &ref, en + nen);
        if (r->verified)
            nen++;      /* only what verified is timed */
    }
    rc = time_entries(e, en, nen, SKB_CLOCK_THREAD);
    for (int i = 0; i < out->n; i++)
        if (!out->r[i].verified)
            out->r[i].ms = NAN;     /* not timed */
    if (rc < 0) {
        snprintf(msg, msglen, "planner: %s: a candidate failed while timed: %s", e->m->name, skb_strerror(rc));
        goto done;
    }
    out->chosen = choose(out);
    if (out->chosen >= 0)
        rc = plan_threads(e, out, s + out->r[out->chosen].c.layout);
    if (out->chosen < 0) {
        snprintf(msg, msglen, "planner: %s on %s: no candidate matched the double skin", e->m->name, e->d->name);
        rc = SKB_EINVAL;
    }
done:
    for (int k = 0; k < 2; k++)
        if (bound[k])
            skb_skin_f32_fini(s + k);
    ref_free(&ref);
    out->cost_ms = skb_clock_ms(SKB_CLOCK_WALL) - t0;
    return rc;
}

/* ---- wisdom ---- */

static void plan_key(const struct skb_plan_env *e, char *key, size_t len)
{
    cJSON *mach = skb_json_machine();
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(mach, "cpu");
    const struct skb_mesh *m = &e->d->mesh;
    int hist[4] = { 0, 0, 0, 0 };
    for (int v = 0; v < m->nverts; v++) {    /* influences with weight, as the split layout counts them */
        int k = 0;
        for (int s = 0; s < 4; s++)
            k += m->weight[4 * (size_t)v + s] > 0;
        hist[(k ? k : 1) - 1]++;
    }
    snprintf(key, len, "%s | %s | %s %s | %d v %d j %d/%d/%d/%d%s", cJSON_IsString(cpu) ? cpu->valuestring : "?",
             e->build ? e->build : "?", e->m->name, skb_f32_normals_name(e->normals), e->d->mesh.nverts,
             e->d->mesh.njoints, hist[0], hist[1], hist[2], hist[3], e->d->mesh.nrm ? " nrm" : "");
    cJSON_Delete(mach);
}

static int name_index(const char *v, const char *(*name)(int), int n)
{
    for (int i = 0; v && i < n; i++)
        if (strcmp(v, name(i)) == 0)
            return i;
    return -1;
}
static const char *lay_name(int i) { return skb_f32_layout_name((enum skb_f32_layout)i); }
static const char *isa_name(int i) { return skb_f32_isa_name((enum skb_f32_isa)i); }
static const char *rn_name(int i) { return skb_f32_renorm_name((enum skb_f32_renorm)i); }

static const char *str_item(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* a wisdom entry back to a candidate; -1 when it names something this
 * build or CPU does not have */
static int entry_cand(const cJSON *w, struct skb_plan_cand *c, int *threads)
{
    int lay = name_index(str_item(w, "layout"), lay_name, 2), isa = name_index(str_item(w, "isa"), isa_name, SKB_F32_NISA);
    int rn = name_index(str_item(w, "renorm"), rn_name, SKB_F32_NRENORM);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(w, "threads");
    if (lay < 0 || isa < 0 || rn < 0 || !skb_f32_isa_available((enum skb_f32_isa)isa) || !cJSON_IsNumber(t)
        || t->valuedouble < 1 || t->valuedouble > SKB_POOL_MAX_THREADS)
        return -1;
    *c = (struct skb_plan_cand){ (enum skb_f32_layout)lay, (enum skb_f32_isa)isa, (enum skb_f32_renorm)rn, 1, 1 };
    *threads = (int)t->valuedouble;
    return 0;
}

static void store_entry(cJSON *wisdom, const struct skb_plan *p)
{
    cJSON *entries = cJSON_GetObjectItemCaseSensitive(wisdom, "entries");
    const struct skb_plan_cand *c = &p->r[p->chosen].c;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "layout", skb_f32_layout_name(c->layout));
    cJSON_AddStringToObject(o, "isa", skb_f32_isa_name(c->isa));
    cJSON_AddStringToObject(o, "renorm", skb_f32_renorm_name(c->renorm));
    cJSON_AddNumberToObject(o, "threads", p->threads);
    skb_json_add_number(o, "ms", p->r[p->chosen].ms);
    cJSON_AddNumberToObject(o, "budget_ms", p->budget_ms);
    cJSON_AddNumberToObject(o, "measured_at", (double)time(NULL));
    cJSON_DeleteItemFromObjectCaseSensitive(entries, p->key);
    cJSON_AddItemToObject(entries, p->key, o);
}

/* the wisdom's choice, checked and timed alone (with its thread count) */
static int plan_from_wisdom(const struct skb_plan_env *e, const cJSON *w, struct skb_plan *out, char *msg,
                            size_t msglen)
{
    struct skb_plan_cand c;
    int threads, rc;
    if (entry_cand(w, &c, &threads) < 0)
        return 1;
    struct skb_plan_env one = *e;
    one.npools = 0;
    for (int i = 0; i < e->npools; i++)
        if (skb_pool_threads(e->pools[i]) == threads) {
            one.pools = e->pools + i;
            one.npools = 1;
        }
    if ((rc = skb_plan_measure(&one, &c, 1, out, msg, msglen)) < 0)
        return 1;   /* no longer verifies here: plan afresh */
    if (threads > 1 && out->threads != threads && one.npools == 1)
        out->threads = threads;   /* wisdom's thread count stands when that pool exists */
    snprintf(out->source, sizeof out->source, "wisdom");
    return 0;
}

int skb_plan_kernel(const struct skb_plan_env *e, enum skb_plan_mode mode, cJSON *wisdom, struct skb_plan *out,
                    char *msg, size_t msglen)
{
    struct skb_plan_cand c[SKB_PLAN_MAX_CANDS];
    char key[512];
    plan_key(e, key, sizeof key);
    if (mode == SKB_PLAN_NONE) {
        struct skb_plan_cand f = skb_plan_fixed();
        struct skb_plan_env one = *e;
        one.npools = 0;
        int rc = skb_plan_measure(&one, &f, 1, out, msg, msglen);
        snprintf(out->source, sizeof out->source, "fixed");
        snprintf(out->key, sizeof out->key, "%s", key);
        return rc;
    }
    if (mode == SKB_PLAN_WISDOM && wisdom) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(wisdom, "entries"), key);
        if (w && plan_from_wisdom(e, w, out, msg, msglen) == 0) {
            snprintf(out->key, sizeof out->key, "%s", key);
            return 0;
        }
    }
    int n = skb_plan_candidates(e->m, e->normals, e->d->mesh.nrm != NULL, c, SKB_PLAN_MAX_CANDS);
    int rc = skb_plan_measure(e, c, n, out, msg, msglen);
    snprintf(out->key, sizeof out->key, "%s", key);
    if (rc == 0 && mode == SKB_PLAN_WISDOM && wisdom)
        store_entry(wisdom, out);
    return rc;
}

cJSON *skb_plan_json(const struct skb_plan *p)
{
    cJSON *o = cJSON_CreateObject(), *cands = cJSON_CreateArray();
    char name[96];
    if (p->chosen >= 0) {
        skb_plan_cand_name(&p->r[p->chosen].c, name, sizeof name);
        cJSON_AddStringToObject(o, "choice", name);
        cJSON_AddStringToObject(o, "layout", skb_f32_layout_name(p->r[p->chosen].c.layout));
        cJSON_AddStringToObject(o, "isa", skb_f32_isa_name(p->r[p->chosen].c.isa));
        cJSON_AddStringToObject(o, "renorm", skb_f32_renorm_name(p->r[p->chosen].c.renorm));
        skb_json_add_number(o, "choice_ms", p->r[p->chosen].ms);
    }
    cJSON_AddNumberToObject(o, "threads", p->threads);
    skb_json_add_number(o, "one_thread_wall_ms_beside_pools", p->one_thread_wall_ms);
    cJSON_AddStringToObject(o, "source", p->source);
    cJSON_AddStringToObject(o, "key", p->key);
    skb_json_add_number(o, "budget_ms_per_candidate", p->budget_ms);
    skb_json_add_number(o, "planning_ms", p->cost_ms);
    cJSON_AddStringToObject(o, "statistic", "each candidate against the first, pair by pair (common/skb_timing.h: 9 "
                            "pairs of samples of at least budget/18 ms, order alternating; the first against itself; a "
                            "candidate 1.5 x the first on a first pair is not timed further, pairs_beside_first 1): "
                            "one thread in its CPU time, the thread counts (threads > 1 against the choice on one "
                            "thread) in wall time; ms: the median deformation (prepare + skin) of its samples; "
                            "ratio_to_first: the Hodges-Lehmann estimate with its exact 95 % interval; candidates "
                            "checked against the double skin first; the choice: the first candidate unless another "
                            "is faster by its whole interval (then the one with the lowest estimate)");
    for (int i = 0; i < p->n; i++) {
        cJSON *c = cJSON_CreateObject();
        skb_plan_cand_name(&p->r[i].c, name, sizeof name);
        cJSON_AddStringToObject(c, "candidate", name);
        cJSON_AddNumberToObject(c, "threads", p->r[i].c.threads);
        skb_json_add_number(c, "ms", p->r[i].ms);
        cJSON_AddNumberToObject(c, "deformations_timed", p->r[i].iters);
        skb_json_add_number(c, "ratio_to_first", p->r[i].ratio_to_first);
        skb_json_add_number(c, "ci_low", p->r[i].ci_low);
        skb_json_add_number(c, "ci_high", p->r[i].ci_high);
        cJSON_AddNumberToObject(c, "pairs_beside_first", p->r[i].pairs);
        cJSON_AddBoolToObject(c, "verified", p->r[i].verified);
        skb_json_add_number(c, "worst_error_over_tolerance", p->r[i].error);
        cJSON_AddItemToArray(cands, c);
    }
    cJSON_AddItemToObject(o, "candidates", cands);
    return o;
}

int skb_wisdom_default_path(char *buf, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && *x)
        snprintf(buf, len, "%s/skinbench/wisdom.json", x);
    else if (h && *h)
        snprintf(buf, len, "%s/.cache/skinbench/wisdom.json", h);
    else
        return SKB_EINVAL;
    return 0;
}

int skb_wisdom_read(const char *path, cJSON **out, char *msg, size_t msglen)
{
    struct stat sb;
    cJSON *w = NULL;
    *out = NULL;
    if (stat(path, &sb) != 0) {
        if (errno != ENOENT) {
            snprintf(msg, msglen, "%s: wisdom file: %s", path, strerror(errno));
            return SKB_EINVAL;
        }
        w = cJSON_CreateObject();   /* none yet: an empty wisdom */
        cJSON_AddStringToObject(w, "format", "skinbench fast-kernel wisdom 1");
        cJSON_AddObjectToObject(w, "entries");
        *out = w;
        return 0;
    }
    if (!S_ISREG(sb.st_mode)) {   /* a FIFO would block, a device is not ours */
        snprintf(msg, msglen, "%s: wisdom file is not a regular file", path);
        return SKB_EINVAL;
    }
    char *text = NULL;
    size_t len = 0;
    int rc = skb_read_file_max(path, WISDOM_MAX_BYTES, &text, &len, msg, msglen);
    if (rc < 0)
        return rc;
    char pmsg[300];
    rc = skb_json_parse_text(path, text, len, 1, &w, pmsg, sizeof pmsg);
    free(text);
    if (rc < 0) {
        size_t pl = strlen(path);   /* the parser's message names the file too */
        const char *why = strncmp(pmsg, path, pl) == 0 && pmsg[pl] == ':' ? pmsg + pl + 2 : pmsg;
        snprintf(msg, msglen, "%s: wisdom file is not valid JSON (%s)", path, why);
        return SKB_EINVAL;
    }
    const cJSON *ent = cJSON_GetObjectItemCaseSensitive(w, "entries");
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(w, "format");
    if (!cJSON_IsObject(w) || !cJSON_IsObject(ent) || !cJSON_IsString(fmt)
        || strcmp(fmt->valuestring, "skinbench fast-kernel wisdom 1") != 0) {
        snprintf(msg, msglen, "%s: not a skinbench wisdom file (expected {\"format\": \"skinbench fast-kernel "
                 "wisdom 1\", \"entries\": {...}})", path);
        cJSON_Delete(w);
        return SKB_EINVAL;
    }
    *out = w;
    return 0;
}

int skb_wisdom_write(const char *path, const cJSON *w, char *msg, size_t msglen)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        int rc = skb_mkdirs(dir, msg, msglen);
        if (rc < 0)
            return rc;
    }
    return skb_json_write_atomic(path, w, msg, msglen);
}
