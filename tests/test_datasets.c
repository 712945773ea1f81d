/* test_datasets.c — every catalogue dataset loads consistently; subdivision,
 * generated poses and the isolated file import (errors, crashes) behave. */
#include <signal.h>
#include <unistd.h>
#include "skb_test.h"
#include "skb_dataset.h"
#include "dataset_util.h"

#define TOL_POSE_RIGID 1e-9     /* pose matrices after orthonormalisation */
#define MODEL_DIR "/usr/share/assimp/models/"

static int have_testmodels(void)
{
    return access(MODEL_DIR "X/BCN_Epileptic.X", R_OK) == 0;
}

static void check_dataset(const struct skb_dataset *d)
{
    char msg[512];
    const struct skb_mesh *m = &d->mesh;
    if (skb_mesh_check(m, msg, sizeof msg) < 0)
        fail_msg("%s: %s", d->name, msg);
    assert_true(m->nverts > 0);
    assert_true(m->ntris > 0);
    assert_true(d->nposes > 0);
    for (int j = 0; j < m->njoints; j++) {
        assert_true(m->parent[j] < j);      /* parents precede children */
        for (int k = 0; k < 3; k++)
            assert_true(isfinite(m->joint_rest[3 * j + k]));
    }
    double e = skb_dataset_max_pose_rigid_error(d);
    if (!(e <= TOL_POSE_RIGID))
        fail_msg("%s: pose rigid error %.3g > %g", d->name, e, TOL_POSE_RIGID);
    for (size_t i = 0; i < 16 * (size_t)m->njoints * d->nposes; i++)
        assert_true(isfinite(d->poses[i]));
}

static void test_catalogue_loads(void **state)
{
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        struct skb_dataset d;
        struct skb_dataset_opts o = { skb_test_seed(), 0, 0 };
        char msg[512];
        if (strcmp(s->kind, "real") == 0 && !have_testmodels()) {
            print_message("skip %s: assimp-testmodels not installed\n", s->name);
            continue;
        }
        if (s->load(&o, &d, msg, sizeof msg) < 0)
            fail_msg("%s: %s", s->name, msg);
        print_message("%-14s v %5d t %5d j %3d poses %3d renorm %4d trunc %4d\n", s->name, d.mesh.nverts,
                      d.mesh.ntris, d.mesh.njoints, d.nposes, d.renormalized, d.truncated);
        check_dataset(&d);
        skb_dataset_free(&d);
    }
}

/* the FBX has up to 6 raw influences with sums off 1: counts must show it */
static void test_limits_and_counts(void **state)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    if (!have_testmodels())
        skip();
    assert_int_equal(skb_dataset_load("fbx_skeleton", &o, &d, msg, sizeof msg), 0);
    assert_true(d.truncated > 0);
    assert_true(d.renormalized >= d.truncated);
    skb_dataset_free(&d);
    assert_int_equal(skb_dataset_load("body", &o, &d, msg, sizeof msg), 0);
    assert_int_equal(d.truncated, 0);   /* generated weights are already limited */
    /* the neck Table 6.1's posture twists: the CMU "Neck" joint, whose
     * parent and child are joints of the neck chain (not a leaf) */
    assert_int_equal(d.has_neck, 1);
    assert_true(d.mesh.parent[d.neck] >= 0);
    int child = 0;
    for (int j = 0; j < d.mesh.njoints; j++)
        child += d.mesh.parent[j] == d.neck;
    assert_int_equal(child, 1);
    skb_dataset_free(&d);
}

static void test_limit_influences(void **state)
{
    int j[6] = { 3, 1, 3, 2, 5, 4 }, oj[4];
    double w[6] = { 0.1, 0.35, 0.2, 0.05, 0.25, 0.02 };
    skb_real ow[4];
    int f = skb__limit_influences(6, j, w, oj, ow);
    assert_true(f & 1);                 /* 5 distinct joints > 4 */
    assert_true(f & 2);                 /* ... so the rest is rescaled */
    assert_int_equal(oj[0], 1);         /* 0.35 */
    assert_int_equal(oj[1], 3);         /* 0.1 + 0.2 merged */
    assert_int_equal(oj[2], 5);
    assert_int_equal(oj[3], 2);
    assert_near(ow[0] + ow[1] + ow[2] + ow[3], 1, TOL_EXACT);
    assert_near(ow[0], 0.35 / 0.95, TOL_EXACT);
}

static void test_subdivision(void **state)
{
    struct skb_dataset d, s;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    assert_int_equal(skb_dataset_load("arm", &o, &d, msg, sizeof msg), 0);
    for (int level = 0; level <= 3; level++) {
        if (skb_dataset_subdivide(&d, level, &s, msg, sizeof msg) < 0)
            fail_msg("level %d: %s", level, msg);
        assert_int_equal(s.mesh.ntris, d.mesh.ntris << (2 * level));
        check_dataset(&s);
        if (level == 1) {
            /* one new vertex per unique edge: V' = V + E, every midpoint shared */
            int e2 = 0;
            for (int t = 0; t < d.mesh.ntris; t++)
                for (int k = 0; k < 3; k++) {
                    int a = d.mesh.tris[3 * t + k], b = d.mesh.tris[3 * t + (k + 1) % 3], twin = 0;
                    for (int u = 0; u < d.mesh.ntris && !twin; u++)
                        for (int q = 0; q < 3; q++)
                            if (d.mesh.tris[3 * u + q] == b && d.mesh.tris[3 * u + (q + 1) % 3] == a)
                                twin = 1;
                    e2 += twin ? 1 : 2;   /* interior edges are seen twice */
                }
            assert_int_equal(s.mesh.nverts, d.mesh.nverts + e2 / 2);
            /* midpoint of the first triangle's first edge */
            int a = d.mesh.tris[0], b = d.mesh.tris[1], mid = s.mesh.tris[1];
            for (int k = 0; k < 3; k++)
                assert_near(s.mesh.pos[3 * mid + k], 0.5 * (d.mesh.pos[3 * a + k] + d.mesh.pos[3 * b + k]), TOL_EXACT);
        }
        skb_dataset_free(&s);
    }
    assert_true(skb_dataset_subdivide(&d, -1, &s, msg, sizeof msg) < 0);
    skb_dataset_free(&d);
    /* through the load options, on a model with 4 influences */
    o.subdivide = 1;
    assert_int_equal(skb_dataset_load("cloth", &o, &s, msg, sizeof msg), 0);
    check_dataset(&s);
    skb_dataset_free(&s);
}

static void test_generated_poses(void **state)
{
    struct skb_dataset a, b;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    unsigned long seed = skb_test_seed();
    assert_int_equal(skb_dataset_load("creature", &o, &a, msg, sizeof msg), 0);
    assert_int_equal(skb_dataset_load("creature", &o, &b, msg, sizeof msg), 0);
    assert_int_equal(skb_dataset_random_poses(&a, 5, SKB_PI / 3, seed, msg, sizeof msg), 0);
    assert_int_equal(skb_dataset_random_poses(&b, 5, SKB_PI / 3, seed, msg, sizeof msg), 0);
    check_dataset(&a);
    assert_memory_equal(a.poses, b.poses, sizeof *a.poses * 16 * 5 * (size_t)a.mesh.njoints);
    /* a root joint's rotation angle stays within the limit */
    struct skb_quat q;
    skb_real r[9], t[3];
    skb_mat4_to_rt(a.poses, r, t);
    skb_quat_from_mat3(r, &q);
    assert_true(2 * acos(fmin(1, fabs(q.w))) <= SKB_PI / 3 + TOL_TIGHT);
    assert_int_equal(skb_dataset_twist_poses(&b, 9, SKB_PI, msg, sizeof msg), 0);
    check_dataset(&b);
    skb_mat4_to_rt(b.poses + 16 * (size_t)b.mesh.njoints * 8, r, t);
    skb_quat_from_mat3(r, &q);
    assert_near(2 * acos(fmin(1, fabs(q.w))), SKB_PI, TOL_TIGHT);   /* root at full twist */
    skb_dataset_free(&a);
    skb_dataset_free(&b);
}

/* every vertex one joint with weight 1 */
static void assert_rigid(const struct skb_dataset *d)
{
    for (int v = 0; v < d->mesh.nverts; v++) {
        const skb_real *w = d->mesh.weight + SKB_MAX_INFLUENCES * v;
        assert_true(w[0] == 1);
        for (int k = 1; k < SKB_MAX_INFLUENCES; k++)
            assert_true(w[k] == 0);
    }
    assert_int_equal(d->rigid, 1);
}

/* creature_rigid (thesis Table 5.3's dwarf is rigidly skinned): the
 * creature's largest-weight joint per vertex, still rigid after subdivision
 * re-made rigid as exp_cd.c does */
static void test_rigid_variant(void **state)
{
    struct skb_dataset a, r, s;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    (void)state;
    assert_int_equal(skb_dataset_load("creature", &o, &a, msg, sizeof msg), 0);
    assert_int_equal(skb_dataset_load("creature_rigid", &o, &r, msg, sizeof msg), 0);
    check_dataset(&r);
    assert_rigid(&r);
    assert_int_equal(a.mesh.nverts, r.mesh.nverts);
    int multi = 0;
    for (int v = 0; v < a.mesh.nverts; v++) {
        const skb_real *w = a.mesh.weight + SKB_MAX_INFLUENCES * v;
        int best = 0;
        for (int k = 1; k < SKB_MAX_INFLUENCES; k++)
            if (w[k] > w[best])
                best = k;
        multi += w[1] > 0;
        assert_int_equal(r.mesh.joint[SKB_MAX_INFLUENCES * v], a.mesh.joint[SKB_MAX_INFLUENCES * v + best]);
    }
    assert_true(multi > 0);     /* the skinned creature is not rigid already */
    assert_int_equal(skb_dataset_subdivide(&r, 1, &s, msg, sizeof msg), 0);
    assert_true(skb_dataset_make_rigid(&s) > 0);   /* midpoints of seams had two joints */
    check_dataset(&s);
    assert_rigid(&s);
    skb_dataset_free(&a);
    skb_dataset_free(&r);
    skb_dataset_free(&s);
}

static void expect_error(const char *path, const char *needle)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512] = "";
    int rc = skb_dataset_load(path, &o, &d, msg, sizeof msg);
    print_message("%s -> %d: %s\n", path, rc, msg);
    assert_true(rc < 0);
    assert_non_null(strstr(msg, path));
    assert_null(strchr(msg, '\n'));
    if (needle)
        assert_non_null(strstr(msg, needle));
}

static void test_bad_files(void **state)
{
    char tmp[] = "/tmp/skb-test-XXXXXX.txt";
    int fd = mkstemps(tmp, 4);
    assert_true(fd >= 0);
    assert_true(write(fd, "not a model\n", 12) == 12);
    close(fd);
    expect_error("/nonexistent/model.x", "cannot open");
    expect_error(tmp, "assimp cannot read");
    unlink(tmp);
    expect_error("no-such-dataset", NULL);
    if (have_testmodels())
        expect_error(MODEL_DIR "OBJ/box.obj", "no skinned mesh");
}

/* a runaway allocation in the importer meets the child's memory limit
 * (without it this file eats memory for minutes); ASan builds run without
 * the address-space limit, so only the non-ASan build checks it */
static void test_memory_limit(void **state)
{
    if (getenv("SKB_ASAN") || !have_testmodels())
        skip();
    expect_error(MODEL_DIR "invalid/OutOfMemory.off", NULL);
}

static int crashing_importer(const char *path, const struct skb__import_opts *io, struct skb_dataset *d,
                             char *msg, size_t msglen)
{
    raise(SIGSEGV);
    return 0;
}

static int dying_importer(const char *path, const struct skb__import_opts *io, struct skb_dataset *d,
                          char *msg, size_t msglen)
{
    _exit(7);
}

/* assimp 5.2.5 did not crash on the RAW files here (../shared/TOOLCHAIN.md says it
 * does elsewhere), so a crash is injected through the importer hook */
static void test_child_crash_is_an_error(void **state)
{
    struct skb_dataset d;
    struct skb__import_opts io = { NULL, 30, 4 };
    char msg[512] = "";
    assert_true(skb__import_isolated("crash.x", &io, crashing_importer, &d, msg, sizeof msg) < 0);
    print_message("%s\n", msg);
    assert_non_null(strstr(msg, "crash.x"));
    assert_non_null(strstr(msg, "crashed"));
    assert_true(skb__import_isolated("die.x", &io, dying_importer, &d, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "die.x"));
    assert_null(d.poses);
}

/* the dataset that crosses the pipe equals the in-process import */
static void test_isolated_import_roundtrip(void **state)
{
    struct skb_dataset a, b;
    struct skb__import_opts io = { NULL, 30, 6 };
    char msg[512];
    const char *path = MODEL_DIR "X/BCN_Epileptic.X";
    if (!have_testmodels())
        skip();
    assert_int_equal(skb__import_model(path, &io, &a, msg, sizeof msg), 0);
    if (skb__import_isolated(path, &io, skb__import_model, &b, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    assert_int_equal(a.mesh.nverts, b.mesh.nverts);
    assert_int_equal(a.mesh.njoints, b.mesh.njoints);
    assert_int_equal(a.nposes, b.nposes);
    assert_int_equal(a.renormalized, b.renormalized);
    assert_memory_equal(a.mesh.pos, b.mesh.pos, sizeof *a.mesh.pos * 3 * (size_t)a.mesh.nverts);
    assert_memory_equal(a.mesh.weight, b.mesh.weight, sizeof *a.mesh.weight * 4 * (size_t)a.mesh.nverts);
    assert_memory_equal(a.mesh.tris, b.mesh.tris, sizeof *a.mesh.tris * 3 * (size_t)a.mesh.ntris);
    assert_memory_equal(a.poses, b.poses, sizeof *a.poses * 16 * (size_t)a.mesh.njoints * a.nposes);
    assert_string_equal(a.clip, b.clip);
    /* the neck found by its bone's name survives the pipe */
    assert_int_equal(a.has_neck, 1);
    assert_int_equal(b.has_neck, 1);
    assert_int_equal(a.neck, b.neck);
    assert_string_equal(a.neck_name, b.neck_name);
    skb_dataset_free(&a);
    skb_dataset_free(&b);
}

/* thesis Table 6.1 twists the neck: a model's neck is found by its bones'
 * names, the first of its chain (parents before children) */
static void test_neck_by_name(void **state)
{
    static const char *const bcn[] = { "B_Pelvis", "B_Spine4", NULL, "B_Root_Neck_T", "B_Root_Neck_H", "B_Neck", "B_Head" };
    static const char *const cmu[] = { "Hips", "Spine1", "Neck", "Neck1", "Head" };
    static const char *const lower[] = { "root", "spine", "neck_01", "head" };
    static const char *const none[] = { "root", "spine", "head", NULL };
    assert_int_equal(skb__find_neck(7, bcn), 3);
    assert_int_equal(skb__find_neck(5, cmu), 2);
    assert_int_equal(skb__find_neck(4, lower), 2);
    assert_int_equal(skb__find_neck(4, none), -1);
    assert_int_equal(skb__find_neck(0, none), -1);
    if (!have_testmodels())
        skip();
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    if (skb_dataset_load("bcn_human", &o, &d, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    assert_int_equal(d.has_neck, 1);
    assert_true(strstr(d.neck_name, "Neck") != NULL);
    /* the neck's chain ends in the bone named B_Neck, a descendant of it */
    int j = -1;
    for (int k = 0; k < d.mesh.njoints; k++)
        if (d.mesh.parent[k] >= 0 && d.mesh.parent[d.mesh.parent[k]] == d.neck)
            j = k;
    assert_true(j >= 0);
    skb_dataset_free(&d);
}

/* the skinned rest pose of a real model: BCN's clip starts near the bind
 * pose, so LBS at frame 0 moves vertices far less than the model's size */
static void test_real_model_motion_plausible(void **state)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 0, 0 };
    char msg[512];
    if (!have_testmodels())
        skip();
    assert_int_equal(skb_dataset_load("wuson", &o, &d, msg, sizeof msg), 0);
    double lo[3] = { 1e300, 1e300, 1e300 }, hi[3] = { -1e300, -1e300, -1e300 }, size = 0, worst = 0;
    for (int v = 0; v < d.mesh.nverts; v++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], d.mesh.pos[3 * v + k]);
            hi[k] = fmax(hi[k], d.mesh.pos[3 * v + k]);
        }
    for (int k = 0; k < 3; k++)
        size = fmax(size, hi[k] - lo[k]);
    /* neighbouring vertices stay neighbours in every pose: edge lengths
     * change by far less than the model size (catches wrong bind matrices) */
    const struct skb_method *lin = skb_method_find("linear");
    struct skb_skinner s;
    double *out = calloc((size_t)3 * d.mesh.nverts, sizeof *out);
    assert_int_equal(skb_skin_init(&s, lin, &d.mesh, msg, sizeof msg), 0);
    for (int k = 0; k < d.nposes; k += 10) {
        struct skb_pose p;
        skb_dataset_pose(&d, k, &p);
        assert_int_equal(skb_skin_pose(&s, &p, NULL, out, NULL, msg, sizeof msg), 0);
        for (int t = 0; t < d.mesh.ntris; t++)
            for (int e = 0; e < 3; e++) {
                int a = d.mesh.tris[3 * t + e], b = d.mesh.tris[3 * t + (e + 1) % 3];
                double l0 = 0, l1 = 0;
                for (int c = 0; c < 3; c++) {
                    l0 += pow(d.mesh.pos[3 * a + c] - d.mesh.pos[3 * b + c], 2);
                    l1 += pow(out[3 * a + c] - out[3 * b + c], 2);
                }
                worst = fmax(worst, fabs(sqrt(l1) - sqrt(l0)));
            }
    }
    print_message("wuson: size %.3g, worst edge-length change %.3g\n", size, worst);
    assert_true(worst < 0.1 * size);
    skb_skin_fini(&s);
    free(out);
    skb_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue_loads),
        cmocka_unit_test(test_limits_and_counts),
        cmocka_unit_test(test_limit_influences),
        cmocka_unit_test(test_subdivision),
        cmocka_unit_test(test_generated_poses),
        cmocka_unit_test(test_rigid_variant),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_child_crash_is_an_error),
        cmocka_unit_test(test_isolated_import_roundtrip),
        cmocka_unit_test(test_neck_by_name),
        cmocka_unit_test(test_real_model_motion_plausible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
