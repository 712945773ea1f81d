/* test_gpu_compute.c — the compute path of gpu/ (gpu_compute.c, main.comp)
 * on whatever renderer EGL gives (llvmpipe in CI): every shader method's
 * kernel against the CPU double-precision skin path on every dataset and on
 * random meshes (DIB's iteration included), every memory layout, planted
 * errors in the GLSL that verification must catch, repeated copies that
 * skin alike, the copy roofline; without a context: the pipeline-bound
 * test on synthetic times, the weight quantisation, bytes per vertex. */
#include "skb_test_gpu.h"
#include "skb_dataset.h"

#define VERIFY_POSES 4
#define RANDOM_VERTS 300
#define RANDOM_JOINTS 8
#define RANDOM_POSES 6

static void cbuild(const struct skb_gpu_shader *s, const char *src, const struct skb_gpu_clayout *L,
                   struct skb_gpu_cprogram *cp)
{
    char msg[512];
    if (skb_gpu_cprogram_build(shader_dir, s, src, L, cp, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
}

/* kernel s (source src, or its file) in layout L over gm (mesh m, which
 * gm was uploaded from): the check against m's CPU skin */
static struct skb_gpu_check cverify(const struct skb_gpu_shader *s, const char *src, const struct skb_gpu_clayout *L,
                                    struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *poses,
                                    int np)
{
    struct skb_gpu_cprogram cp;
    struct skb_gpu_cmesh cm;
    struct skb_gpu_check c = { 0 };
    char msg[512];
    cbuild(s, src, L, &cp);
    if (skb_gpu_cmesh_upload(gm, L, gm->nverts, &cm, msg, sizeof msg) < 0
        || skb_gpu_pose_data(s, gm, m, &poses[0], NULL, msg, sizeof msg) < 0
        || skb_gpu_cmesh_extras(&cm, gm, s, msg, sizeof msg) < 0
        || skb_gpu_cverify(&cp, &cm, gm, m, poses, np, &c, msg, sizeof msg) < 0)
        fail_msg("%s (%s): %s", s->name, L->name, msg);
    skb_gpu_cmesh_free(&cm);
    skb_gpu_cprogram_free(&cp);
    return c;
}

static void expect_pass(const char *what, const struct skb_gpu_shader *s, const struct skb_gpu_check *c)
{
    print_message("%-12s %-10s max |pos| %.3g (tol %.3g)  max |nrm| %.3g\n", what, s->name, c->max_abs_pos, c->tol_pos,
                  c->max_abs_nrm);
    if (!c->pass)
        fail_msg("%s / %s: compute differs from CPU %s: position %.3g (tol %.3g), normal %.3g (tol %.3g) at pose %d "
                 "vertex %d", what, s->name, s->method->name, c->max_abs_pos, c->tol_pos, c->max_abs_nrm, c->tol_nrm,
                 c->worst_pose, c->worst_vertex);
}

/* ---- no context needed ---- */

static void test_pipeline_bound_flag(void **state)
{
    double equal[9] = { 6.1204, 6.1219, 6.1210, 6.1204, 6.1211, 6.1207, 6.1215, 6.1208, 6.1212 };
    double spread[3] = { 1.0, 1.02, 1.05 };
    double edge[2] = { 1.0, 1.03 }, over[2] = { 1.0, 1.0301 };
    double holes[4] = { NAN, 2.0, 2.01, 0.0 };
    assert_true(skb_gpu_times_equal(equal, 9, 0.03));
    assert_false(skb_gpu_times_equal(spread, 3, 0.03));
    assert_true(skb_gpu_times_equal(spread, 2, 0.03));
    assert_true(skb_gpu_times_equal(edge, 2, 0.03 + 1e-12));
    assert_false(skb_gpu_times_equal(over, 2, 0.03));
    assert_true(skb_gpu_times_equal(holes, 4, 0.03));   /* NaN and 0 are no times */
    assert_false(skb_gpu_times_equal(equal, 1, 0.03));  /* one method: nothing to tell apart */
}

static void test_quantized_weights_sum_to_one(void **state)
{
    gsl_rng *r = skb_test_rng();
    enum { N = 500 };
    static double w[4 * N], q[4 * N];
    struct skb_mesh m = { 0 };
    m.nverts = N;
    m.weight = w;
    for (int v = 0; v < N; v++)
        skb_test_random_weights(r, 1 + (int)gsl_rng_uniform_int(r, 4), w + 4 * v);
    static const int bits[] = { 8, 16 };
    for (int b = 0; b < 2; b++) {
        double top = (1 << bits[b]) - 1;
        skb_gpu_quantize_weights(&m, bits[b], q);
        for (int v = 0; v < N; v++) {
            double sum = 0;
            for (int i = 0; i < 4; i++) {
                double k = q[4 * v + i] * top;
                assert_true(fabs(k - round(k)) < 1e-9);              /* representable */
                assert_true(fabs(q[4 * v + i] - w[4 * v + i]) <= 1 / top + 1e-12);
                sum += round(k);
            }
            assert_true(sum == top);                                    /* sums to 1 exactly */
        }
    }
    skb_gpu_quantize_weights(&m, 32, q);
    assert_memory_equal(q, w, sizeof w);
    gsl_rng_free(r);
}

static void test_bytes_per_vertex(void **state)
{
    const struct skb_gpu_clayout *f4 = skb_gpu_clayout_find("float4"), *cp = skb_gpu_clayout_find("compact");
    assert_ptr_equal(f4, &skb_gpu_clayouts[0]);
    assert_non_null(cp);
    /* 16 + 16 + 16 + 16 read, 16 + 16 written */
    assert_int_equal(skb_gpu_cbytes_per_vertex(skb_gpu_shader_find("linear"), f4), 96);
    assert_int_equal(skb_gpu_cbytes_per_vertex(skb_gpu_shader_find("dib"), f4), 96);
    /* + centre 16 + 4 pair ints */
    assert_int_equal(skb_gpu_cbytes_per_vertex(skb_gpu_shader_find("qb"), f4), 128);
    /* + 6 set ints */
    assert_int_equal(skb_gpu_cbytes_per_vertex(skb_gpu_shader_find("sb"), f4), 120);
    /* 12 + 12 + 4 + 4 read, 12 + 12 written */
    assert_int_equal(skb_gpu_cbytes_per_vertex(skb_gpu_shader_find("linear"), cp), 56);
}

/* ---- GL ---- */

static void test_every_kernel_matches_cpu_on_every_dataset(void **state)
{
    NEED_GPU();
    int checked = 0;
    for (int di = 0; skb_dataset_sources[di]; di++) {
        struct skb_test_gpu_set t;
        if (skb_test_gpu_set_open(di, VERIFY_POSES, &t) < 0)
            continue;
        for (int i = 0; skb_gpu_shaders[i].name && t.np > 0; i++) {
            const struct skb_gpu_shader *s = &skb_gpu_shaders[i];
            struct skb_gpu_check c = cverify(s, NULL, &skb_gpu_clayouts[0], &t.gm, &t.d.mesh,
                                             s->needs_scale ? t.sposes : t.poses, t.np);
            expect_pass(skb_dataset_sources[di]->name, s, &c);
            checked++;
        }
        skb_test_gpu_set_close(&t);
    }
    assert_true(checked >= skb_gpu_shader_count());
}

/* a random chain of joints, 1-4 influences, rotations up to 0.9 pi: Alg. 2
 * flips and DIB's iteration far from the rest pose */
static void test_random_meshes(void **state)
{
    NEED_GPU();
    gsl_rng *r = skb_test_rng();
    static double mats[RANDOM_POSES][16 * RANDOM_JOINTS];
    struct skb_mesh m;
    struct skb_pose poses[RANDOM_POSES];
    skb_test_chain(r, RANDOM_VERTS, RANDOM_JOINTS, &m);
    for (int k = 0; k < RANDOM_POSES; k++) {
        for (int j = 0; j < RANDOM_JOINTS; j++)
            skb_test_random_rigid(r, 0.9 * SKB_PI, 1, mats[k] + 16 * j);
        poses[k].njoints = RANDOM_JOINTS;
        poses[k].mats = mats[k];
        poses[k].scale = NULL;
    }
    struct skb_gpu_mesh gm;
    char msg[512];
    if (skb_gpu_mesh_upload(&m, &gm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    static const char *const names[] = { "linear", "dlb_pivot", "qlb0", "dib", "logm", NULL };
    for (int i = 0; names[i]; i++) {
        const struct skb_gpu_shader *s = skb_gpu_shader_find(names[i]);
        assert_non_null(s);
        struct skb_gpu_check c = cverify(s, NULL, &skb_gpu_clayouts[0], &gm, &m, poses, RANDOM_POSES);
        expect_pass("random", s, &c);
    }
    skb_gpu_mesh_free(&gm);
    skb_test_chain_free(&m);
    gsl_rng_free(r);
}

/* every layout: the kernel against the CPU on the weights the layout
 * stores (quantised), within the standard tolerance */
static void test_layouts(void **state)
{
    NEED_GPU();
    struct skb_dataset_opts o = { .seed = skb_test_seed(), .quick = 1, .subdivide = 0 };
    struct skb_dataset d;
    struct skb_pose poses[VERIFY_POSES];
    char msg[512];
    if (skb_dataset_load("body", &o, &d, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    int np = d.nposes < VERIFY_POSES ? d.nposes : VERIFY_POSES;
    for (int k = 0; k < np; k++)
        skb_dataset_pose(&d, k * (d.nposes - 1) / (np > 1 ? np - 1 : 1), &poses[k]);
    double *w = (double *)malloc(sizeof(double) * 4 * (size_t)d.mesh.nverts);
    assert_non_null(w);
    for (int l = 0; skb_gpu_clayouts[l].name; l++) {
        const struct skb_gpu_clayout *L = &skb_gpu_clayouts[l];
        struct skb_mesh mq = d.mesh;
        struct skb_gpu_mesh gm;
        skb_gpu_quantize_weights(&d.mesh, L->weight_bits, w);
        mq.weight = w;
        if (skb_gpu_mesh_upload(&mq, &gm, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        static const char *const names[] = { "linear", "dlb_fast", "sb", "qb", NULL };
        for (int i = 0; names[i]; i++) {
            const struct skb_gpu_shader *s = skb_gpu_shader_find(names[i]);
            struct skb_gpu_check c = cverify(s, NULL, L, &gm, &mq, poses, np);
            expect_pass(L->name, s, &c);
        }
        skb_gpu_mesh_free(&gm);
    }
    free(w);
    skb_dataset_free(&d);
}

/* a planted error in one method's GLSL makes its kernel fail verification
 * (and the intact file passes on the same poses) */
static void test_broken_kernel_fails(void **state)
{
    static const struct { const char *shader, *from, *to; } breaks[] = {
        { "dib", "nu += a_weight[i] * n;", "nu += a_weight[i] * o;" },          /* log's dual part */
        { "dib", "be = qmul(b0, xe) + qmul(be, x0);", "be = qmul(b0, xe);" },   /* the update */
        { "qlb0", "t += a_weight[i] * u_joint[j + 1].xyz;", "t += u_joint[j + 1].xyz;" },
        { "linear", "r1 += w *", "r1 -= w *" },
        { "sb", "? -a_weight[i] : a_weight[i]", "? a_weight[i] : a_weight[i]" },
    };
    NEED_GPU();
    struct skb_dataset_opts o = { .seed = skb_test_seed(), .quick = 1, .subdivide = 0 };
    struct skb_dataset d;
    struct skb_gpu_mesh gm;
    struct skb_pose poses[VERIFY_POSES];
    char msg[512];
    if (skb_dataset_load("body", &o, &d, msg, sizeof msg) < 0 || skb_gpu_mesh_upload(&d.mesh, &gm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    int np = d.nposes < VERIFY_POSES ? d.nposes : VERIFY_POSES;
    for (int k = 0; k < np; k++)
        skb_dataset_pose(&d, k * (d.nposes - 1) / (np > 1 ? np - 1 : 1), &poses[k]);
    for (size_t b = 0; b < sizeof breaks / sizeof breaks[0]; b++) {
        const struct skb_gpu_shader *s = skb_gpu_shader_find(breaks[b].shader);
        char *src;
        assert_non_null(s);
        if (skb_gpu_read_shader_file(shader_dir, s->file, &src, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        char *at = strstr(src, breaks[b].from);
        if (!at)
            fail_msg("%s no longer contains '%s': update this test", s->file, breaks[b].from);
        size_t lf = strlen(breaks[b].from), lt = strlen(breaks[b].to), n = strlen(src);
        char *bad = (char *)malloc(n - lf + lt + 1);
        assert_non_null(bad);
        memcpy(bad, src, (size_t)(at - src));
        memcpy(bad + (at - src), breaks[b].to, lt);
        strcpy(bad + (at - src) + lt, at + lf);
        struct skb_gpu_check good = cverify(s, src, &skb_gpu_clayouts[0], &gm, &d.mesh, poses, np);
        struct skb_gpu_check c = cverify(s, bad, &skb_gpu_clayouts[0], &gm, &d.mesh, poses, np);
        print_message("broken %s ('%s' -> '%s'): max |pos| %.3g, tol %.3g\n", s->name, breaks[b].from, breaks[b].to,
                      c.max_abs_pos, c.tol_pos);
        assert_true(good.pass);
        assert_false(c.pass);
        free(bad);
        free(src);
    }
    skb_gpu_mesh_free(&gm);
    skb_dataset_free(&d);
}

/* the sweep's copies: every copy of the base mesh skins to the same floats
 * as the first, across work groups and grid rows */
static void test_copies_skin_alike(void **state)
{
    NEED_GPU();
    struct skb_dataset_opts o = { .seed = skb_test_seed(), .quick = 1, .subdivide = 0 };
    struct skb_dataset d;
    struct skb_gpu_mesh gm;
    struct skb_gpu_cmesh cm;
    struct skb_gpu_cprogram cp;
    struct skb_pose pose;
    char msg[512];
    if (skb_dataset_load("body", &o, &d, msg, sizeof msg) < 0 || skb_gpu_mesh_upload(&d.mesh, &gm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    const struct skb_gpu_shader *s = skb_gpu_shader_find("dlb_fast");
    long n = 3L * d.mesh.nverts + d.mesh.nverts / 2;   /* a partial last copy */
    float *joints = (float *)malloc(sizeof(float) * skb_gpu_joint_floats(s, &d.mesh));
    float *out = (float *)malloc(sizeof(float) * 7 * (size_t)n);
    assert_non_null(joints);
    assert_non_null(out);
    skb_dataset_pose(&d, d.nposes / 2, &pose);
    cbuild(s, NULL, &skb_gpu_clayouts[0], &cp);
    if (skb_gpu_pack_joints(s, &d.mesh, &pose, joints, msg, sizeof msg) < 0
        || skb_gpu_cmesh_upload(&gm, &skb_gpu_clayouts[0], n, &cm, msg, sizeof msg) < 0
        || skb_gpu_cskin(&cp, &cm, &gm, joints, (int)n, out, out + 3 * n, out + 6 * n, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    for (long v = d.mesh.nverts; v < n; v++) {
        long b = v % d.mesh.nverts;
        assert_memory_equal(out + 3 * v, out + 3 * b, 3 * sizeof(float));
        assert_memory_equal(out + 3 * n + 3 * v, out + 3 * n + 3 * b, 3 * sizeof(float));
    }
    assert_true(out[6 * n] == 0.0f);   /* no iterations outside DIB */
    skb_gpu_cmesh_free(&cm);
    skb_gpu_cprogram_free(&cp);
    skb_gpu_mesh_free(&gm);
    skb_dataset_free(&d);
    free(joints);
    free(out);
}

static void test_copy_bandwidth(void **state)
{
    NEED_GPU();
    char msg[512];
    /* glCopyBufferSubData, then the shader copy; each checks its destination */
    for (int shader = 0; shader < 2; shader++) {
        double gb[3];
        if (skb_gpu_copy_bandwidth(&gpu, (size_t)4 << 20, 3, shader, gb, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        print_message("%s copy: %.3g GB/s (read + written)\n", shader ? "shader" : "buffer", gb[1]);
        assert_true(isfinite(gb[0]) && gb[0] > 0 && gb[0] <= gb[1] && gb[1] <= gb[2]);
    }
}

static int teardown(void **state)
{
    skb_gpu_close(&gpu);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_bound_flag),
        cmocka_unit_test(test_quantized_weights_sum_to_one),
        cmocka_unit_test(test_bytes_per_vertex),
        cmocka_unit_test(test_every_kernel_matches_cpu_on_every_dataset),
        cmocka_unit_test(test_random_meshes),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_broken_kernel_fails),
        cmocka_unit_test(test_copies_skin_alike),
        cmocka_unit_test(test_copy_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
