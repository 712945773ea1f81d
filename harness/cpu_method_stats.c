/* cpu_method_stats.c — `run cpu`: what each method does besides its time:
 * SB's solves and DIB's iterations per pose, each bind's cost and state,
 * and where DIB's time goes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_internal.h"
#include "skb_dqblend.h"
#include "skb_sb.h"   /* SB's parent-child fallbacks, its trivial-set tolerance */
#include "skb_sphere_cd.h"   /* skb_thread_cpu_s */

/* SB's least-squares solves per pose (thesis Table 3.2) and DIB iterations:
 * from the pose_stats hook after prepare (SB) / skin (DIB) on every pose */
void skb__cpu_pose_stats_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *out)
{
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_skinner s;
        char msg[256];
        if (!m->pose_stats || !m->skin || !skb_run_wants_method(ctx, m)
            || skb_skin_init(&s, m, &ds->d.mesh, msg, sizeof msg) < 0)
            continue;
        double solves = 0, maxsolves = 0, fallbacks = 0;
        int maxit = 0, n = 0, is_sb = (m->flags & SKB_MF_ROT_CENTERS) != 0;
        int step = (m->flags & SKB_MF_ITERATIVE) ? (ds->d.nposes + VERIFY_POSES - 1) / VERIFY_POSES : 1;
        for (int k = 0; k < ds->d.nposes; k += step) {
            struct skb_pose p;
            struct skb_pose_stats st = { 0, 0, 0 };
            skb_dataset_pose(&ds->d, k, &p);
            if (m->prepare(&ds->d.mesh, &p, &ctx->params, s.state) < 0)
                continue;
            if ((m->flags & SKB_MF_ITERATIVE)
                && m->skin(&ds->d.mesh, s.state, 0, ds->d.mesh.nverts, ds->pos, ds->nrm) < 0)
                continue;
            m->pose_stats(&ds->d.mesh, s.state, &st);
            if (is_sb) {
                struct skb_sb_counts c;
                skb_sb_counts(&ds->d.mesh, s.state, &c);
                fallbacks += c.fallback;
            }
            solves += st.solves;
            maxsolves = fmax(maxsolves, st.solves);
            maxit = st.max_iterations > maxit ? st.max_iterations : maxit;
            n++;
        }
        cJSON *o = cJSON_AddObjectToObject(out, m->name);
        cJSON_AddNumberToObject(o, "poses", n);
        skb_json_add_number(o, "solves_per_pose_mean", n ? solves / n : NAN);
        cJSON_AddNumberToObject(o, "solves_per_pose_max", maxsolves);
        cJSON_AddNumberToObject(o, "max_iterations", maxit);
        if (is_sb) {
            /* of the solves: parent-child sets whose pose moved the joint
             * beyond the data's precision (seed 003 section 4 counts them
             * trivial) */
            skb_json_add_number(o, "parent_child_fallbacks_per_pose_mean", n ? fallbacks / n : NAN);
            skb_json_add_number(o, "trivial_tolerance_relative", SKB_SB_TRIVIAL_TOL);
        }
        skb_skin_fini(&s);
    }
}

/* the single-precision path's own bind, timed as the double one: it
 * computes its state again (cor: its centres, Le & Hodgins eq. 2, once per
 * bind), so an engine that ships only the f32 path pays this, not bind_ms */
static void f32_bind_into(const struct skb_method *m, const struct skb_mesh *mesh, cJSON *o)
{
    struct skb_skinner_f32 f;
    char msg[256];
    if (!m->f32)
        return;
    double t0 = skb_clock_ms(SKB_CLOCK_THREAD);
    if (skb_skin_f32_init(&f, m, mesh, msg, sizeof msg) < 0) {
        cJSON_AddStringToObject(o, "f32_error", msg);
        return;
    }
    skb_json_add_number(o, "f32_bind_ms", skb_clock_ms(SKB_CLOCK_THREAD) - t0);
    skb_skin_f32_fini(&f);
}

/* each method's bind (its per-mesh precompute, e.g. CoR's centres, Le &
 * Hodgins 2016 section 4): thread CPU time of one skb_skin_init and the
 * state it keeps, per vertex; a bind that fails gives its error */
void skb__cpu_precompute_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *out)
{
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_skinner s;
        char msg[256];
        if (!m->skin || !skb_run_wants_method(ctx, m))
            continue;
        cJSON *o = cJSON_AddObjectToObject(out, m->name);
        double t0 = skb_clock_ms(SKB_CLOCK_THREAD);
        if (skb_skin_init(&s, m, &ds->d.mesh, msg, sizeof msg) < 0) {
            cJSON_AddStringToObject(o, "error", msg);
            continue;
        }
        skb_json_add_number(o, "bind_ms", skb_clock_ms(SKB_CLOCK_THREAD) - t0);
        size_t bytes = m->state_size ? m->state_size(&ds->d.mesh) : 0;
        skb_json_add_number(o, "state_bytes_per_vertex", (double)bytes / ds->d.mesh.nverts);
        skb_skin_fini(&s);
        f32_bind_into(m, &ds->d.mesh, o);
    }
}

/* ---- where DIB's time goes: per vertex, on evenly spaced poses,
 * DIB's iterations (histogram), influences, and the dual quaternion logs and
 * exps it evaluates (its blend form, Algorithm 2 signs: the pre-computed
 * signs give the same blends where the skin check passed); and the CPU cost
 * of one log and one exp (skb_math.c's, the arithmetic dib.c inlines) on the
 * arguments DIB's first pass sees, b* q_i with b = DLB ---- */
#define DIB_WORK_POSES 16
#define DIB_WORK_ARGS 4096

static double ns_per_call(int what, const struct skb_dq *args, int nargs)
{
    struct skb_dq out;
    volatile double sink = 0;
    long calls = 0;
    double t0 = skb_clock_ms(SKB_CLOCK_THREAD), t;
    do {
        for (int i = 0; i < nargs; i++) {
            if (what == 0)
                skb_dq_log(args + i, &out);
            else
                skb_dq_exp(args + i, &out);
            sink += out.r.x;
        }
        calls += nargs;
    } while ((t = skb_clock_ms(SKB_CLOCK_THREAD) - t0) < 20);
    (void)sink;   /* read once: clang warns on a volatile only ever written */
    return t / (double)calls * 1e6;
}

void skb__cpu_dib_work_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *o)
{
    const struct skb_method *dib = skb_method_with_flag(SKB_MF_ITERATIVE);
    const struct skb_mesh *mesh = &ds->d.mesh;
    struct skb_dq *args = malloc(sizeof *args * DIB_WORK_ARGS), *logs = malloc(sizeof *logs * DIB_WORK_ARGS);
    double hist[24] = { 0 }, nhist[SKB_MAX_INFLUENCES + 1] = { 0 }, nlog = 0, nexp = 0, count = 0, nconfirm = 0;
    int nargs = 0, poses = 0, step = ds->d.nposes > DIB_WORK_POSES ? ds->d.nposes / DIB_WORK_POSES : 1;
    if (!dib || !args || !logs) {
        free(args);
        free(logs);
        return;
    }
    for (int k = 0; k < ds->d.nposes; k += step, poses++) {
        struct skb_pose p;
        skb_dataset_pose(&ds->d, k, &p);
        for (int v = 0; v < mesh->nverts; v++) {
            double w[SKB_MAX_INFLUENCES], mats[16 * SKB_MAX_INFLUENCES], out[16];
            int n = 0;
            for (int s = 0; s < SKB_MAX_INFLUENCES; s++)
                if (mesh->weight[4 * v + s] > 0) {
                    w[n] = mesh->weight[4 * v + s];
                    memcpy(mats + 16 * n++, p.mats + 16 * mesh->joint[4 * v + s], 16 * sizeof(double));
                }
            struct skb_blend_in in = { n, w, mats, NULL };
            struct skb_blend_stats st;
            if (n == 0 || skb_blend(dib, &in, &ctx->params, out, &st, NULL, 0) < 0)
                continue;
            hist[st.iterations < 23 ? st.iterations : 23]++;
            nhist[n]++;
            nlog += st.logs;
            nexp += st.exps;
            /* a blend that converged ended on the pass that found |x| < p:
             * its n logs confirm, they move nothing (thesis Alg. 4.1) */
            nconfirm += st.iterations < ctx->params.dib_max_iter ? n : 0;
            count++;
            /* the first pass's arguments b* q_i (b = DLB, normalised) */
            struct skb_dq q[SKB_MAX_INFLUENCES], b, bc, sum;
            for (int i = 0; i < n && nargs < DIB_WORK_ARGS && n > 1; i++)
                skb_dq_from_mat4(mats + 16 * i, &q[i]);
            if (n > 1 && nargs < DIB_WORK_ARGS && skb__dlb_sum(n, w, q, SKB_ANTIPODAL_PIVOT, &sum) == 0
                && skb_dq_normalize(&sum, &b) == 0) {
                skb_dq_conj(&b, &bc);
                for (int i = 0; i < n && nargs < DIB_WORK_ARGS; i++)
                    skb_dq_mul(&bc, &q[i], args + nargs++);
            }
        }
    }
    for (int i = 0; i < nargs; i++)
        skb_dq_log(args + i, logs + i);
    double log_ns = nargs ? ns_per_call(0, args, nargs) : NAN, exp_ns = nargs ? ns_per_call(1, logs, nargs) : NAN;
    free(args);
    free(logs);
    cJSON *h = cJSON_AddObjectToObject(o, "iterations_histogram"), *nh = cJSON_AddObjectToObject(o, "influences_histogram");
    for (int i = 0; i < 24; i++)
        if (hist[i] > 0) {
            char key[16];
            snprintf(key, sizeof key, i < 23 ? "%d" : ">=%d", i);
            skb_json_add_number(h, key, hist[i]);
        }
    for (int i = 1; i <= SKB_MAX_INFLUENCES; i++) {
        char key[16];
        snprintf(key, sizeof key, "%d", i);
        skb_json_add_number(nh, key, nhist[i]);
    }
    skb_json_add_number(o, "precision", ctx->params.dib_precision);
    cJSON_AddNumberToObject(o, "poses", poses);
    skb_json_add_number(o, "vertex_blends", count);
    skb_json_add_number(o, "logs_per_vertex", count ? nlog / count : NAN);
    skb_json_add_number(o, "exps_per_vertex", count ? nexp / count : NAN);
    skb_json_add_number(o, "log_ns", log_ns);
    skb_json_add_number(o, "exp_ns", exp_ns);
    skb_json_add_number(o, "log_exp_ms_per_deformation",
                        count ? mesh->nverts * (nlog / count * log_ns + nexp / count * exp_ns) * 1e-6 : NAN);
    skb_json_add_number(o, "confirming_logs_per_vertex", count ? nconfirm / count : NAN);
    /* the log and exp counts at their cost, per deformation: the iterations'
     * logs, the confirming pass's, the exps */
    skb_json_add_number(o, "iteration_logs_ms", count ? mesh->nverts * (nlog - nconfirm) / count * log_ns * 1e-6 : NAN);
    skb_json_add_number(o, "confirming_logs_ms", count ? mesh->nverts * nconfirm / count * log_ns * 1e-6 : NAN);
    skb_json_add_number(o, "exps_ms", count ? mesh->nverts * nexp / count * exp_ns * 1e-6 : NAN);
}
