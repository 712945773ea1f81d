/* test_gpu.c — the GPU path on whatever renderer EGL gives (llvmpipe in CI):
 * every shader of gpu/shader_table.c against the CPU double-precision skin
 * path of its registry method on every dataset and on random meshes, a
 * deliberately broken shader that must fail, the uniform layout, the
 * instruction counters and the PNG writer.  Where no context can be made the
 * GL tests skip with the reason (SKB_GPU_DISABLE=1 forces that). */
#include <unistd.h>
#include "skb_test_gpu.h"
#include "skb_dataset.h"

#define VERIFY_POSES 6
#define RANDOM_VERTS 400
#define RANDOM_JOINTS 8
#define RANDOM_POSES 8

static void build(const struct skb_gpu_shader *s, const char *src, struct skb_gpu_program *p)
{
    char msg[512];
    if (skb_gpu_program_build(shader_dir, s, src, p, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
}

/* ---- tests that need no context ---- */

static void test_table_names_registry_methods(void **state)
{
    assert_true(skb_gpu_shader_count() >= 9);
    assert_string_equal(skb_gpu_shaders[0].name, "linear");   /* ratios are to LBS */
    /* DQ paper Fig. 1 sets these against dlb (reports/report.c, "figure_1") */
    assert_non_null(skb_gpu_shader_find("dlb"));
    assert_non_null(skb_gpu_shader_find("logm"));
    assert_non_null(skb_gpu_shader_find("sb"));
    for (int i = 0; skb_gpu_shaders[i].name; i++) {
        const struct skb_gpu_shader *s = &skb_gpu_shaders[i];
        if (!s->method || skb_method_find(s->method->name) != s->method)
            fail_msg("shader %s: CPU method not in the registry", s->name);
        assert_ptr_equal(skb_gpu_shader_find(s->name), s);
        for (int k = 0; k < i; k++)
            assert_string_not_equal(skb_gpu_shaders[k].name, s->name);
    }
    assert_null(skb_gpu_shader_find("no-such-shader"));
}

static void test_nir_counting_rule(void **state)
{
    /* a dead fmul, a vec3 assembly, load_consts and intrinsics are not counted */
    static const char nir[] =
        "NIR before handing off to driver:\nshader: MESA_SHADER_VERTEX\n"
        "impl main {\n\tblock block_0:\n"
        "\tvec1 32 ssa_0 = deref_var &p (shader_in vec3)\n"
        "\tvec3 32 ssa_1 = intrinsic load_deref (ssa_0) (access=0)\n"
        "\tvec1 32 ssa_2 = load_const (0x40000000 = 2.000000)\n"
        "\tvec1 32 ssa_3 = fmul ssa_1.x, ssa_2\n"
        "\tvec1 32 ssa_4 = fmul ssa_1.y, ssa_2\n"
        "\tvec1 32 ssa_5 = fadd ssa_3, ssa_4\n"
        "\tvec1 32 ssa_6 = fmul ssa_1.z, ssa_2\n"
        "\tvec3 32 ssa_7 = vec3 ssa_5, ssa_5, ssa_3\n"
        "\tvec1 32 ssa_8 = deref_var &o (shader_out vec3)\n"
        "\tintrinsic store_deref (ssa_8, ssa_7) (wrmask=xyz /*7*/, access=0)\n"
        "}\nNIR before handing off to driver:\nshader: MESA_SHADER_FRAGMENT\n"
        "\tvec1 32 ssa_0 = fmul ssa_9, ssa_9\n\tintrinsic store_deref (ssa_0)\n";
    assert_int_equal(skb_gpu_nir_count_text(nir), 3);
    assert_int_equal(skb_gpu_nir_count_text("shader: MESA_SHADER_FRAGMENT\n"), -1);
    static const char spv[] =
        "%main = OpFunction %void None %3\n%5 = OpLabel\n%6 = OpLoad %float %x\n"
        "%7 = OpFMul %float %6 %6\n%8 = OpExtInst %float %1 InverseSqrt %7\n"
        "%9 = OpCompositeConstruct %v2float %7 %8\nOpStore %o %9\nOpReturn\nOpFunctionEnd\n";
    assert_int_equal(skb_gpu_spirv_count_text(spv), 2);
}

typedef int (*counter_fn)(const char *, int, const struct skb_gpu_shader *const *, int *, char *, size_t);

/* counts of two shaders by one counter, or a skip with the counter's reason */
static int count_two(counter_fn count, const char *a, const char *b, int counts[2])
{
    const struct skb_gpu_shader *sh[2] = { skb_gpu_shader_find(a), skb_gpu_shader_find(b) };
    char msg[512], dir[PATH_MAX];
    if (skb_gpu_shader_dir(NULL, dir, sizeof dir, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    int rc = count(dir, 2, sh, counts, msg, sizeof msg);
    if (rc == SKB_ENOTSUP) {
        print_message("skipped: %s\n", msg);
        return 0;
    }
    if (rc < 0)
        fail_msg("%s", msg);
    print_message("instructions: %s %d, %s %d\n", a, counts[0], b, counts[1]);
    return 1;
}

/* runs first among the GL tests: it forks a child that makes the context */
static void test_nir_counts_from_the_driver(void **state)
{
    int counts[2];
    assert_int_equal(gpu_state, 0);
    if (!count_two(skb_gpu_count_nir, "linear", "dlb_fast", counts)) {
        skip();
        return;
    }
    assert_true(counts[0] > 20 && counts[1] > 20);
}

static void test_spirv_counts(void **state)
{
    int counts[2];
    if (!count_two(skb_gpu_count_spirv, "linear", "dlb_scale", counts)) {
        skip();
        return;
    }
    /* two-phase = LBS of S_j on top of DLB: strictly more work than LBS */
    assert_true(counts[0] > 5 && counts[1] > counts[0]);
}

static void test_disable_gives_a_skip(void **state)
{
    struct skb_gpu g;
    char msg[256] = "", *old = getenv("SKB_GPU_DISABLE");
    old = old ? strdup(old) : NULL;
    setenv("SKB_GPU_DISABLE", "1", 1);
    int rc = skb_gpu_open(&g, msg, sizeof msg);
    if (old)
        setenv("SKB_GPU_DISABLE", old, 1);   /* the whole run may be disabled */
    else
        unsetenv("SKB_GPU_DISABLE");
    free(old);
    assert_int_equal(rc, SKB_ENOTSUP);
    assert_non_null(strstr(msg, "SKB_GPU_DISABLE"));
    skb_gpu_close(&g);   /* closing a context that was never made is harmless */
}

/* ---- GL tests ---- */

static void test_context_and_layout(void **state)
{
    NEED_GPU();
    assert_true(strlen(gpu.renderer) > 0 && strlen(gpu.version) > 0);
    assert_int_equal(gpu.software, skb_gpu_is_software(gpu.renderer));
    assert_true(skb_gpu_is_software("llvmpipe (LLVM 15.0.6, 256 bits)"));
    assert_false(skb_gpu_is_software("NVIDIA GeForce RTX 3060/PCIe/SSE2"));
    for (int i = 0; skb_gpu_shaders[i].name; i++) {
        struct skb_gpu_program p;
        build(&skb_gpu_shaders[i], NULL, &p);
        /* bytes per joint come from the linked std140 block: 12 floats for a
         * 3x4 matrix, 8 for a dual quaternion, a rigid log or SB's quaternion
         * + translation, 20 with the scale rows, 16 for CoR's quaternion + rows */
        static const int floats[] = { 12, 8, 8, 20, 8, 8, 8, 16 };
        assert_int_equal(p.bytes_per_joint, 4 * floats[skb_gpu_shaders[i].layout]);
        skb_gpu_program_free(&p);
    }
}

/* every shader on every dataset (quick variants), sampled poses */
static void test_every_shader_matches_cpu_on_every_dataset(void **state)
{
    NEED_GPU();
    int checked = 0;
    for (int di = 0; skb_dataset_sources[di]; di++) {
        struct skb_test_gpu_set t;
        char msg[512];
        if (skb_test_gpu_set_open(di, VERIFY_POSES, &t) < 0)
            continue;
        for (int i = 0; skb_gpu_shaders[i].name; i++) {
            struct skb_gpu_program p;
            struct skb_gpu_check c;
            build(&skb_gpu_shaders[i], NULL, &p);
            if (skb_gpu_verify(&p, &t.gm, &t.d.mesh, p.s->needs_scale ? t.sposes : t.poses, t.np, &c, msg, sizeof msg) < 0)
                fail_msg("%s / %s: %s", skb_dataset_sources[di]->name, p.s->name, msg);
            print_message("%-10s %-10s max |pos| %.3g (tol %.3g)  max |nrm| %.3g\n",
                          skb_dataset_sources[di]->name, p.s->name, c.max_abs_pos, c.tol_pos, c.max_abs_nrm);
            if (!c.pass)
                fail_msg("%s / %s: GPU differs from CPU %s: position %.3g (tol %.3g), normal %.3g (tol %.3g) "
                         "at pose %d vertex %d", skb_dataset_sources[di]->name, p.s->name, p.s->method->name,
                         c.max_abs_pos, c.tol_pos, c.max_abs_nrm, c.tol_nrm, c.worst_pose, c.worst_vertex);
            skb_gpu_program_free(&p);
            checked++;
        }
        skb_test_gpu_set_close(&t);
    }
    assert_true(checked >= skb_gpu_shader_count());
}

/* a random chain of joints, 1-4 influences per vertex, rotations up to
 * 0.9 pi: exercises Algorithm 2 flips in the shader */
static void test_random_meshes(void **state)
{
    NEED_GPU();
    gsl_rng *r = skb_test_rng();
    static double mats[RANDOM_POSES][16 * RANDOM_JOINTS];
    static double scale[16 * RANDOM_JOINTS];
    struct skb_mesh m;
    struct skb_pose poses[RANDOM_POSES], sposes[RANDOM_POSES];
    skb_test_chain(r, RANDOM_VERTS, RANDOM_JOINTS, &m);
    skb_gpu_demo_scales(&m, skb_test_seed(), scale);
    for (int k = 0; k < RANDOM_POSES; k++) {
        for (int j = 0; j < RANDOM_JOINTS; j++)
            skb_test_random_rigid(r, 0.9 * SKB_PI, 1, mats[k] + 16 * j);
        poses[k].njoints = RANDOM_JOINTS;
        poses[k].mats = mats[k];
        poses[k].scale = NULL;
        sposes[k] = poses[k];
        sposes[k].scale = scale;
    }
    struct skb_gpu_mesh gm;
    char msg[512];
    if (skb_gpu_mesh_upload(&m, &gm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    for (int i = 0; skb_gpu_shaders[i].name; i++) {
        const struct skb_gpu_shader *s = &skb_gpu_shaders[i];
        struct skb_gpu_program p;
        struct skb_gpu_check c;
        /* QB with hierarchy signs vs qb's per-vertex rule: random poses are
         * exactly where the two may choose differently (DQ paper 4.1) */
        if (s->signs != s->cpu_antipodal && s->layout != SKB_GPU_LAYOUT_MAT34)
            continue;
        build(s, NULL, &p);
        if (skb_gpu_verify(&p, &gm, &m, s->needs_scale ? sposes : poses, RANDOM_POSES, &c, msg, sizeof msg) < 0)
            fail_msg("%s: %s", s->name, msg);
        print_message("random   %-10s max |pos| %.3g (tol %.3g)  max |nrm| %.3g\n", s->name, c.max_abs_pos,
                      c.tol_pos, c.max_abs_nrm);
        if (!c.pass)
            fail_msg("%s: GPU differs from CPU %s: position %.3g (tol %.3g), normal %.3g at pose %d vertex %d",
                     s->name, s->method->name, c.max_abs_pos, c.tol_pos, c.max_abs_nrm, c.worst_pose, c.worst_vertex);
        skb_gpu_program_free(&p);
    }
    skb_gpu_mesh_free(&gm);
    skb_test_chain_free(&m);
    gsl_rng_free(r);
}

/* the verification must catch a wrong shader: one sign flipped in the
 * source (loaded from the real file, edited here) */
static void test_broken_shader_fails(void **state)
{
    static const struct { const char *shader, *from, *to; } breaks[] = {
        { "dlb_fast", "dq_apply(b0, be,", "dq_apply(b0, -be," },   /* translation sign */
        { "linear", "r1 += w *", "r1 -= w *" },
        { "dlb_pivot", "? -a_weight[i] : a_weight[i]", "? a_weight[i] : a_weight[i]" },   /* no Alg. 2 */
        { "logm", "b * (cross(om, wx) + wv)", "b * (cross(om, wx) - wv)" },   /* exp's translation */
        { "logm", "th2 / 6.0 *", "th2 / 5.0 *" },   /* the small-angle series */
        { "logm", "c = (th - s) / (th2 * th);", "c = (th + s) / (th2 * th);" },   /* exp above the series */
        { "sb", "? -a_weight[i] : a_weight[i]", "? a_weight[i] : a_weight[i]" },   /* no Alg. 2 */
        { "sb", "qrot(f, a_pos) - frc", "qrot(f, a_pos)" },   /* origin, not r_c */
        { "cor", "qrot(q, a_pos - a_cor)", "qrot(q, a_pos + a_cor)" },   /* the centre's sign */
    };
    NEED_GPU();
    struct skb_dataset_opts o = { .seed = skb_test_seed(), .quick = 1, .subdivide = 0 };
    struct skb_dataset d;
    struct skb_gpu_mesh gm;
    struct skb_pose poses[32];
    char msg[512];
    if (skb_dataset_load("arm", &o, &d, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    if (skb_gpu_mesh_upload(&d.mesh, &gm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    int np = d.nposes < 32 ? d.nposes : 32;
    for (int k = 0; k < np; k++)
        skb_dataset_pose(&d, k, &poses[k]);
    /* the arm's poses never need a flip: add one whose joints are 170 deg
     * and -170 deg about x, 20 deg apart, so that their converted quaternions
     * (w >= 0) have a negative dot product and Algorithm 2 must flip one */
    double twisted[32];
    double axis[3] = { 1, 0, 0 }, rot[9], t[3] = { 0, 0, 0 };
    for (int j = 0; j < 2; j++) {
        struct skb_quat q;
        skb_quat_from_axis_angle(axis, (j ? -1 : 1) * 170.0 * SKB_PI / 180.0, &q);
        skb_quat_to_mat3(&q, rot);
        skb_mat4_from_rt(rot, t, twisted + 16 * j);
    }
    poses[np - 1].mats = twisted;
    poses[np - 1].scale = NULL;
    for (size_t b = 0; b < sizeof breaks / sizeof breaks[0]; b++) {
        const struct skb_gpu_shader *s = skb_gpu_shader_find(breaks[b].shader);
        struct skb_gpu_program p;
        struct skb_gpu_check c;
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
        /* the intact shader passes on the same poses ... */
        build(s, src, &p);
        if (skb_gpu_verify(&p, &gm, &d.mesh, poses, np, &c, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        assert_true(c.pass);
        skb_gpu_program_free(&p);
        /* ... the broken one does not */
        build(s, bad, &p);
        if (skb_gpu_verify(&p, &gm, &d.mesh, poses, np, &c, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        print_message("broken %s ('%s' -> '%s'): max |pos| %.3g, tol %.3g\n", s->name, breaks[b].from,
                      breaks[b].to, c.max_abs_pos, c.tol_pos);
        assert_false(c.pass);
        assert_true(c.max_abs_pos > 100 * c.tol_pos);
        skb_gpu_program_free(&p);
        free(bad);
        free(src);
    }
    skb_gpu_mesh_free(&gm);
    skb_dataset_free(&d);
}

/* DQ paper 4.1: after packing, every joint's rotation part has a
 * non-negative dot product with its parent's */
static void test_hierarchy_signs(void **state)
{
    gsl_rng *r = skb_test_rng();
    enum { NJ = 12 };
    int parent[NJ] = { -1, 0, 1, 2, 1, 4, 0, 6, 7, 3, 9, 9 };
    double mats[16 * NJ];
    float out[8 * NJ];
    struct skb_mesh m = { 0 };
    struct skb_pose p = { NJ, mats, NULL };
    char msg[256];
    m.njoints = NJ;
    m.parent = parent;
    for (int trial = 0; trial < 50; trial++) {
        for (int j = 0; j < NJ; j++)
            skb_test_random_rigid(r, SKB_PI, 2, mats + 16 * j);
        if (skb_gpu_pack_joints(skb_gpu_shader_find("dlb_fast"), &m, &p, out, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        for (int j = 1; j < NJ; j++) {
            const float *a = out + 8 * parent[j], *b = out + 8 * j;
            assert_true(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] >= -1e-6f);
        }
    }
    gsl_rng_free(r);
}

static void test_png_picture(void **state)
{
    NEED_GPU();
    struct skb_dataset_opts o = { .seed = skb_test_seed(), .quick = 1, .subdivide = 0 };
    struct skb_dataset d;
    struct skb_gpu_mesh gm;
    struct skb_gpu_program p;
    struct skb_pose pose;
    char msg[512], path[] = "/tmp/skb-test-gpu-XXXXXX.png";
    if (skb_dataset_load("arm", &o, &d, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    if (skb_gpu_mesh_upload(&d.mesh, &gm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    const struct skb_gpu_shader *s = skb_gpu_shader_find("dlb_fast");
    float *joints = (float *)malloc(sizeof(float) * skb_gpu_joint_floats(s, &d.mesh));
    assert_non_null(joints);
    skb_dataset_pose(&d, d.nposes - 1, &pose);
    build(s, NULL, &p);
    if (skb_gpu_pack_joints(s, &d.mesh, &pose, joints, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    double lo[3] = { -0.5, -1, -0.5 }, hi[3] = { 2, 1, 0.5 };
    if (skb_gpu_render_png(&gpu, &p, &gm, joints, lo, hi, 64, 48, path, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    FILE *f = fopen(path, "rb");
    unsigned char sig[8] = { 0 };
    assert_non_null(f);
    assert_int_equal(fread(sig, 1, 8, f), 8);
    fclose(f);
    assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
    /* transform feedback still works on the now larger framebuffer */
    float *out = (float *)malloc(sizeof(float) * 6 * (size_t)d.mesh.nverts);
    assert_non_null(out);
    if (skb_gpu_skin(&p, &gm, joints, out, out + 3 * d.mesh.nverts, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    assert_true(isfinite(out[0]) && fabs(out[0]) + fabs(out[1]) + fabs(out[2]) > 0);
    unlink(path);
    free(out);
    free(joints);
    skb_gpu_program_free(&p);
    skb_gpu_mesh_free(&gm);
    skb_dataset_free(&d);
}

static int teardown(void **state)
{
    skb_gpu_close(&gpu);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_names_registry_methods),
        cmocka_unit_test(test_nir_counting_rule),
        cmocka_unit_test(test_nir_counts_from_the_driver),
        cmocka_unit_test(test_spirv_counts),
        cmocka_unit_test(test_disable_gives_a_skip),
        cmocka_unit_test(test_hierarchy_signs),
        cmocka_unit_test(test_context_and_layout),
        cmocka_unit_test(test_every_shader_matches_cpu_on_every_dataset),
        cmocka_unit_test(test_random_meshes),
        cmocka_unit_test(test_broken_shader_fails),
        cmocka_unit_test(test_png_picture),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
