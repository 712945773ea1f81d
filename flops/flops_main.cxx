/* flops_main.cxx — driver of build/skinbench-flops, the FLOP-counting build.
 *
 * The geometry/ and methods/ sources are recompiled as C++ with flops/flop_real.hpp forced in, so
 * skb_real is skb::flop and every operation the methods execute is counted
 * (thesis 4.4: the count covers 4x4 -> internal -> 4x4).  This driver runs each
 * registered method's blend hook on seeded random inputs for n = 1..nmax and
 * prints the counts as JSON on stdout; `skinbench run flops` aggregates them.
 * The extension .cxx keeps it out of libskb.a (the Makefile wildcard takes
 * *.c and *.cpp): this binary must never meet the double build of methods/.
 *
 * usage: skinbench-flops [--seed N] [--samples K] [--nmax N] */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <cJSON.h>
#include "skb_method.h"

namespace {

/* fields of one record, in output order */
const char *const fields[] = { "add", "mul", "div", "sqrt", "transcendental", "cmp", "neg", "abs",
                               "iterations" };
const int NFIELDS = 9;

void record(cJSON *arr, int iterations)
{
    const skb::flop_counts &c = skb::flop_counter();
    double v[NFIELDS] = { (double)c.add, (double)c.mul, (double)c.div, (double)c.sqrt,
                          (double)skb::flop_transcendental(c), (double)c.cmp, (double)c.neg,
                          (double)c.abs, (double)iterations };
    cJSON_AddItemToArray(arr, cJSON_CreateDoubleArray(v, NFIELDS));
}

/* accumulate the per-function transcendental counts of one method */
void add_fn(double *acc)
{
    const skb::flop_counts &c = skb::flop_counter();
    for (int i = 0; i < skb::FN_COUNT; i++)
        acc[i] += (double)c.fn[i];
}

void random_rigid(gsl_rng *r, double tscale, skb_real m[16])
{
    double axis[3];
    gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
    double angle = M_PI * gsl_rng_uniform(r);
    /* build in double, outside the counted region */
    double s = std::sin(angle / 2), w = std::cos(angle / 2);
    double x = axis[0] * s, y = axis[1] * s, z = axis[2] * s;
    double rot[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                      2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) };
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            m[4 * i + j] = rot[3 * i + j];
        m[4 * i + 3] = tscale * (2 * gsl_rng_uniform(r) - 1);
    }
    m[12] = 0; m[13] = 0; m[14] = 0; m[15] = 1;
}

/* one primitive's mean counts over `samples` random rigid inputs:
 * {"flops": add+mul, "div", "sqrt", "transcendental"} */
template <typename F>
void measure_primitive(cJSON *prims, const char *name, gsl_rng *r, int samples, F run)
{
    double fl = 0, dv = 0, sq = 0, tr = 0;
    skb_real a[16], b[16];
    for (int s = 0; s < samples; s++) {
        random_rigid(r, 1.0, a);
        random_rigid(r, 1.0, b);
        skb::flop_reset();
        run(a, b);
        const skb::flop_counts &c = skb::flop_counter();
        fl += (double)(c.add + c.mul);
        dv += (double)c.div;
        sq += (double)c.sqrt;
        tr += (double)skb::flop_transcendental(c);
    }
    cJSON *o = cJSON_AddObjectToObject(prims, name);
    cJSON_AddNumberToObject(o, "flops", fl / samples);
    cJSON_AddNumberToObject(o, "div", dv / samples);
    cJSON_AddNumberToObject(o, "sqrt", sq / samples);
    cJSON_AddNumberToObject(o, "transcendental", tr / samples);
}

/* the conversions and operations the methods are built from, each counted
 * alone (mean over random rigid inputs), so flops.json can say where a
 * method's a*n + b goes (thesis 4.4 counts the conversions in).  Long
 * only as a list: one measuring lambda per primitive, no control flow; a
 * new primitive is one more entry here. */
void add_primitives(cJSON *root, gsl_rng *r, unsigned long seed, int samples)
{
    cJSON *p = cJSON_AddObjectToObject(root, "primitives");
    gsl_rng_set(r, seed);
    measure_primitive(p, "quat_from_mat3", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real rot[9], t[3];
        struct skb_quat q;
        skb_mat4_to_rt(a, rot, t);
        skb_quat_from_mat3(rot, &q);
    });
    measure_primitive(p, "quat_to_mat3_scaled", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real rot[9], t[3];
        struct skb_quat q;
        skb_mat4_to_rt(a, rot, t);
        skb_quat_from_mat3(rot, &q);
        skb::flop_reset();
        skb_quat_to_mat3_scaled(&q, rot);
    });
    measure_primitive(p, "quat_pure_mul_add", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real rot[9], t[3];
        struct skb_quat q, acc = { 0, 0, 0, 0 };
        skb_mat4_to_rt(a, rot, t);
        skb_quat_from_mat3(rot, &q);
        skb::flop_reset();
        skb_quat_pure_mul_add(t, &q, &acc);
    });
    measure_primitive(p, "dq_translation", r, samples, [](const skb_real *a, const skb_real *) {
        struct skb_dq q;
        skb_real t[3];
        skb_dq_from_mat4(a, &q);
        skb::flop_reset();
        skb_dq_translation(&q.r, &q.d, 2, t);
    });
    measure_primitive(p, "quat_mul", r, samples, [](const skb_real *a, const skb_real *b) {
        skb_real rot[9], t[3];
        struct skb_quat qa, qb, o;
        skb_mat4_to_rt(a, rot, t);
        skb_quat_from_mat3(rot, &qa);
        skb_mat4_to_rt(b, rot, t);
        skb_quat_from_mat3(rot, &qb);
        skb::flop_reset();
        skb_quat_mul(&qa, &qb, &o);
    });
    measure_primitive(p, "quat_to_mat3", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real rot[9], t[3];
        struct skb_quat q;
        skb_mat4_to_rt(a, rot, t);
        skb_quat_from_mat3(rot, &q);
        skb::flop_reset();
        skb_quat_to_mat3(&q, rot);
    });
    measure_primitive(p, "dq_from_qt", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real rot[9], t[3];
        struct skb_quat q;
        struct skb_dq d;
        skb_mat4_to_rt(a, rot, t);
        skb_quat_from_mat3(rot, &q);
        skb::flop_reset();
        skb_dq_from_qt(&q, t, &d);
    });
    measure_primitive(p, "dq_from_mat4", r, samples, [](const skb_real *a, const skb_real *) {
        struct skb_dq q;
        skb_dq_from_mat4(a, &q);
    });
    measure_primitive(p, "dq_to_mat4", r, samples, [](const skb_real *a, const skb_real *) {
        struct skb_dq q;
        skb_real m[16];
        skb_dq_from_mat4(a, &q);
        skb::flop_reset();
        skb_dq_to_mat4(&q, m);
    });
    measure_primitive(p, "dq_mul", r, samples, [](const skb_real *a, const skb_real *b) {
        struct skb_dq p0, q0, o;
        skb_dq_from_mat4(a, &p0);
        skb_dq_from_mat4(b, &q0);
        skb::flop_reset();
        skb_dq_mul(&p0, &q0, &o);
    });
    measure_primitive(p, "dq_pow", r, samples, [](const skb_real *a, const skb_real *) {
        struct skb_dq q, o;
        skb_dq_from_mat4(a, &q);
        skb::flop_reset();
        skb_dq_pow(&q, 0.5, &o);
    });
    measure_primitive(p, "mat4_log_rigid", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real om[3], v[3];
        skb_mat4_log_rigid(a, om, v);
    });
    measure_primitive(p, "mat4_exp_rigid", r, samples, [](const skb_real *a, const skb_real *) {
        skb_real om[3], v[3], m[16];
        skb_mat4_log_rigid(a, om, v);
        skb::flop_reset();
        skb_mat4_exp_rigid(om, v, m);
    });
}

/* rotation by `angle` about x, translation (0.3, -0.2, 0.5) */
void rot_x(double angle, skb_real m[16])
{
    double c = std::cos(angle), s = std::sin(angle);
    const double v[16] = { 1, 0, 0, 0.3, 0, c, -s, -0.2, 0, s, c, 0.5, 0, 0, 0, 1 };
    for (int i = 0; i < 16; i++)
        m[i] = v[i];
}

void add_counts(cJSON *o, const char *key)
{
    const skb::flop_counts &c = skb::flop_counter();
    cJSON *r = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(r, "add", (double)c.add);
    cJSON_AddNumberToObject(r, "mul", (double)c.mul);
    cJSON_AddNumberToObject(r, "neg", (double)c.neg);
}

/* sign flips are negations: each pair runs the same code path (same
 * Shoemake branch, same n) once without and once with a sign flip (q.w < 0
 * in quat_from_mat3 at -150 deg; the antipodal pair 170 / -170 deg in the
 * blends); "flipped" must cost the same add and mul and show more neg */
void add_negation_checks(cJSON *root, const struct skb_params *prm)
{
    cJSON *nc = cJSON_AddObjectToObject(root, "negation_checks");
    skb_real a[16], b[16], mats[32], out[16], w[2] = { 0.4, 0.6 };
    skb_real rot[9], t[3];
    struct skb_quat q;
    cJSON *o = cJSON_AddObjectToObject(nc, "quat_from_mat3");
    const double deg = M_PI / 180;
    for (int k = 0; k < 2; k++) {
        rot_x(k ? -150 * deg : 150 * deg, a);
        skb_mat4_to_rt(a, rot, t);
        skb::flop_reset();
        skb_quat_from_mat3(rot, &q);
        add_counts(o, k ? "flipped" : "plain");
    }
    for (int mi = 0; skb_methods[mi]; mi++) {
        const struct skb_method *m = skb_methods[mi];
        if (!m->blend || (m->flags & (SKB_MF_NEEDS_CENTER | SKB_MF_ITERATIVE)) || !(m->flags & SKB_MF_TABLE41)
            || (m->flags & SKB_MF_NONRIGID_IN))   /* blends matrices: no quaternion sign to flip */
            continue;
        o = cJSON_AddObjectToObject(nc, m->name);
        for (int k = 0; k < 2; k++) {
            rot_x(170 * deg, a);
            rot_x(k ? -170 * deg : 160 * deg, b);
            for (int i = 0; i < 16; i++) {
                mats[i] = a[i];
                mats[16 + i] = b[i];
            }
            struct skb_blend_in in = { 2, w, mats, nullptr };
            struct skb_blend_stats st = { 0 };
            skb::flop_reset();
            if (m->blend(&in, prm, out, &st) < 0)
                continue;
            add_counts(o, k ? "flipped" : "plain");
        }
    }
}

int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = std::strtol(s, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* --seed N --samples K --nmax N; 0, or 2 after a usage message */
int parse_args(int argc, char **argv, unsigned long *seed, int *samples, int *nmax)
{
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (v && std::strcmp(argv[i], "--seed") == 0) {
            *seed = std::strtoul(v, nullptr, 10);
            i++;
        } else if (v && std::strcmp(argv[i], "--samples") == 0 && parse_int(v, 1, 100000, samples) == 0) {
            i++;
        } else if (v && std::strcmp(argv[i], "--nmax") == 0 && parse_int(v, 1, 32, nmax) == 0) {
            i++;
        } else {
            std::fprintf(stderr, "skinbench-flops: bad argument '%s' (usage: skinbench-flops "
                         "[--seed N] [--samples K] [--nmax 1..32])\n", argv[i]);
            return 2;
        }
    }
    return 0;
}

/* what the counter is and how it counts (skb::flop_rules) */
void add_header(cJSON *root, unsigned long seed, int samples)
{
    cJSON_AddStringToObject(root, "counter", "skb::flop (flops/flop_real.hpp): geometry/*.c and methods/*.c compiled as C++, "
                            "every operation on skb_real counted");
    cJSON_AddItemToObject(root, "fields", cJSON_CreateStringArray(fields, NFIELDS));
    int nr;
    const skb::flop_rule *rules = skb::flop_rules(&nr);
    cJSON *cr = cJSON_AddObjectToObject(root, "counting_rules");
    cJSON_AddStringToObject(cr, "source", "flops/flop_real.hpp (skb::flop_rules)");
    for (int i = 0; i < nr; i++) {
        cJSON *r = cJSON_AddObjectToObject(cr, rules[i].cls);
        cJSON_AddStringToObject(r, "operations", rules[i].ops);
        cJSON_AddStringToObject(r, "counted", rules[i].how);
    }
    const char *fnames[skb::FN_COUNT];
    for (int i = 0; i < skb::FN_COUNT; i++)
        fnames[i] = skb::flop_fn_name(i);
    cJSON_AddItemToObject(root, "transcendental_names", cJSON_CreateStringArray(fnames, skb::FN_COUNT));
    cJSON_AddNumberToObject(root, "seed", (double)seed);
    cJSON_AddNumberToObject(root, "samples", samples);
}

/* the counting state shared by every method */
struct counting {
    gsl_rng *r;
    struct skb_params prm;
    std::vector<skb_real> mats, w;
    skb_real out[16], c[3];
    int samples, nmax;
};

/* samples random blends of n transforms by m, one record each, into nj;
 * returns failed blends, or -1 when an input is rejected (a counter bug) */
int count_n(struct counting *k, const struct skb_method *m, int n, cJSON *nj, double *fn_acc)
{
    cJSON *recs = cJSON_AddArrayToObject(nj, "records");
    int failed = 0;
    for (int s = 0; s < k->samples; s++) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            random_rigid(k->r, 1.0, &k->mats[16 * (size_t)i]);
            k->w[i] = gsl_rng_uniform_pos(k->r);
            sum += (double)k->w[i];
        }
        for (int i = 0; i < n; i++)
            k->w[i] = (double)k->w[i] / sum;
        for (int q = 0; q < 3; q++)
            k->c[q] = 2 * gsl_rng_uniform(k->r) - 1;
        struct skb_blend_in in = { n, k->w.data(), k->mats.data(), (m->flags & SKB_MF_NEEDS_CENTER) ? k->c : nullptr };
        struct skb_blend_stats st = { 0 };
        char msg[256];
        /* validation is the wrapper's work, not the method's: not counted */
        if (skb_blend_check(m, &in, msg, sizeof msg) < 0) {
            std::fprintf(stderr, "skinbench-flops: %s n=%d: %s\n", m->name, n, msg);
            return -1;
        }
        skb::flop_reset();
        if (m->blend(&in, &k->prm, k->out, &st) < 0) {
            failed++;
            continue;
        }
        record(recs, st.iterations);
        add_fn(fn_acc);
    }
    return failed;
}

/* methods.<name>: per n = 1..nmax (or its max_n) the records of every
 * sample, and the transcendental calls by name; 1 on a rejected input */
int count_method(struct counting *k, const struct skb_method *m, unsigned long seed, cJSON *methods)
{
    int rc = 0;
    gsl_rng_set(k->r, seed);
    cJSON *mj = cJSON_AddObjectToObject(methods, m->name);
    cJSON_AddStringToObject(mj, "title", m->title);
    cJSON_AddNumberToObject(mj, "flags", m->flags);
    cJSON_AddNumberToObject(mj, "max_n", m->max_n);
    cJSON *pern = cJSON_AddArrayToObject(mj, "per_n");
    double fn_acc[skb::FN_COUNT] = { 0 };
    int top = m->max_n && m->max_n < k->nmax ? m->max_n : k->nmax;
    for (int n = 1; n <= top; n++) {
        cJSON *nj = cJSON_CreateObject();
        cJSON_AddNumberToObject(nj, "n", n);
        int failed = count_n(k, m, n, nj, fn_acc);
        if (failed < 0) {
            rc = 1;
            failed = 0;
        }
        cJSON_AddNumberToObject(nj, "failed", failed);
        cJSON_AddItemToArray(pern, nj);
    }
    cJSON *fj = cJSON_AddObjectToObject(mj, "transcendental_by_name");
    for (int i = 0; i < skb::FN_COUNT; i++)
        if (fn_acc[i] > 0)
            cJSON_AddNumberToObject(fj, skb::flop_fn_name(i), fn_acc[i]);
    return rc;
}

/* the conversions the thesis includes (4.4), counted alone for reference */
void add_conversions(cJSON *root, struct counting *k)
{
    cJSON *conv = cJSON_AddObjectToObject(root, "conversions");
    struct skb_dq q;
    skb_real back[16];
    random_rigid(k->r, 1.0, &k->mats[0]);
    skb::flop_reset();
    skb_dq_from_mat4(k->mats.data(), &q);
    cJSON *a = cJSON_AddArrayToObject(conv, "dq_from_mat4");
    record(a, 0);
    skb::flop_reset();
    skb_dq_to_mat4(&q, back);
    a = cJSON_AddArrayToObject(conv, "dq_to_mat4");
    record(a, 0);
}

/* SB: the rotation centre (GSL SVD, double code: its operations are not
 * instrumented, only what touches skb_real is) and the blend given it */
void add_sb_parts(cJSON *root, struct counting *k, unsigned long seed)
{
#ifdef SKB_ROTCENTER_MAX_N
    cJSON *sb = cJSON_AddObjectToObject(root, "sb_parts");
    cJSON *cen = cJSON_AddArrayToObject(sb, "centre_per_n");
    cJSON *bl = cJSON_AddArrayToObject(sb, "blend_given_centre_per_n");
    gsl_rng_set(k->r, seed);
    for (int n = 1; n <= k->nmax && n <= SKB_ROTCENTER_MAX_N; n++) {
        const skb_real *ptr[SKB_ROTCENTER_MAX_N];
        for (int i = 0; i < n; i++) {
            random_rigid(k->r, 1.0, &k->mats[16 * (size_t)i]);
            ptr[i] = &k->mats[16 * (size_t)i];
            k->w[i] = 1.0 / n;
        }
        skb_real rc3[3];
        skb::flop_reset();
        skb_rotcenter(n, ptr, rc3);
        cJSON *a = cJSON_CreateArray();
        record(a, 0);
        cJSON_AddItemToArray(cen, a);
#ifdef SKB_QLB_MIN_NORM2
        skb::flop_reset();
        skb_mat4_qlb(n, k->w.data(), k->mats.data(), rc3, 1, k->out);
        a = cJSON_CreateArray();
        record(a, 0);
        cJSON_AddItemToArray(bl, a);
#endif
    }
#else
    (void)root; (void)k; (void)seed;
#endif
}

} /* namespace */

int main(int argc, char **argv)
{
    unsigned long seed = 20070601UL;
    struct counting k;
    k.samples = 32;
    k.nmax = 8;
    if (parse_args(argc, argv, &seed, &k.samples, &k.nmax) != 0)
        return 2;
    k.r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_set_error_handler_off();
    skb_params_default(&k.prm);
    k.mats.assign(16 * (size_t)k.nmax, 0);
    k.w.assign((size_t)k.nmax, 0);
    cJSON *root = cJSON_CreateObject();
    add_header(root, seed, k.samples);
    cJSON *methods = cJSON_AddObjectToObject(root, "methods");
    int rc = 0;
    for (int mi = 0; skb_methods[mi]; mi++)
        if (skb_methods[mi]->blend && count_method(&k, skb_methods[mi], seed, methods))
            rc = 1;
    add_conversions(root, &k);
    add_primitives(root, k.r, seed, k.samples);
    add_negation_checks(root, &k.prm);
    add_sb_parts(root, &k, seed);
    char *text = cJSON_PrintUnformatted(root);
    std::puts(text);
    std::free(text);
    cJSON_Delete(root);
    gsl_rng_free(k.r);
    return rc;
}
