/* test_fast.c — every method's single-precision fast path agrees with the
 * double skin of the same method (SKB_TOL_F32_*), on real and procedural
 * models and on random meshes and poses; loops over the registry. */
#include <unistd.h>
#include "skb_test.h"
#include "skb_fast.h"
#include "skb_test_data.h"

#define N_POSES_CHECKED 6

static void check_variant(const struct skb_method *m, const struct skb_dataset *d, int all_poses,
                          const struct skb_params *prm, enum skb_f32_layout lay, enum skb_f32_isa isa,
                          enum skb_f32_renorm rmode)
{
    struct skb_skinner ref;
    struct skb_skinner_f32 fast;
    char msg[512];
    size_t n3 = 3 * (size_t)d->mesh.nverts + 1;
    double *rp = calloc(n3, sizeof *rp), *rn = calloc(n3, sizeof *rn);
    float *fp = calloc(n3, sizeof *fp), *fn = calloc(n3, sizeof *fn);
    assert_non_null(rp); assert_non_null(rn); assert_non_null(fp); assert_non_null(fn);
    if (skb_skin_init(&ref, m, &d->mesh, msg, sizeof msg) < 0)
        fail_msg("%s on %s: %s", m->name, d->name, msg);
    if (skb_skin_f32_init_layout(&fast, m, &d->mesh, lay, msg, sizeof msg) < 0)
        fail_msg("%s on %s: %s", m->name, d->name, msg);
    /* inputs at their fixed page offsets, 2 KiB before where callers put
     * the outputs (skb_fast.h: no 4K aliasing between them) */
    const float *ip, *in;
    skb_skin_f32_streams(&fast, &ip, &in);
    assert_int_equal((uintptr_t)ip % 4096, SKB_F32_IN_POS_PAGE_OFFSET);
    assert_int_equal((uintptr_t)in % 4096, SKB_F32_IN_NRM_PAGE_OFFSET);
    assert_int_equal((SKB_F32_OUT_POS_PAGE_OFFSET - SKB_F32_IN_POS_PAGE_OFFSET + 4096) % 4096, 2048);
    assert_int_equal((SKB_F32_OUT_NRM_PAGE_OFFSET - SKB_F32_IN_NRM_PAGE_OFFSET + 4096) % 4096, 2048);
    assert_int_equal(skb_skin_f32_set_isa(&fast, isa), 0);
    assert_int_equal(skb_skin_f32_set_renorm(&fast, rmode), 0);
    double worst_p = 0, worst_n = 0;
    int step = all_poses ? 1 : (d->nposes + N_POSES_CHECKED - 1) / N_POSES_CHECKED;
    for (int k = 0; k < d->nposes; k += step) {
        struct skb_pose p;
        double ep, en;
        int wv;
        skb_dataset_pose(d, k, &p);
        if (skb_skin_pose(&ref, &p, prm, rp, rn, msg, sizeof msg) < 0)
            fail_msg("%s on %s pose %d: %s", m->name, d->name, k, msg);
        if (skb_skin_f32_pose(&fast, &p, prm, fp, fn, msg, sizeof msg) < 0)
            fail_msg("%s f32 on %s pose %d: %s", m->name, d->name, k, msg);
        skb_f32_compare(d->mesh.nverts, rp, rn, fp, fn, &ep, &en, &wv);
        if (ep > 1 || en > 1)
            fail_msg("%s f32 (%s layout, %s, %s) on %s pose %d: position error %.3g x tolerance (vertex %d), "
                     "normal %.3g x", m->name, skb_f32_layout_name(lay), skb_f32_isa_name(isa),
                     skb_f32_renorm_name(rmode), d->name, k, ep, wv, en);
        worst_p = fmax(worst_p, ep);
        worst_n = fmax(worst_n, en);
    }
    print_message("%-7s %-5s %-9s %-12s %-14s worst error: positions %.3f, normals %.3f of tolerance\n", m->name,
                  skb_f32_layout_name(lay), skb_f32_isa_name(isa), skb_f32_renorm_name(rmode), d->name, worst_p, worst_n);
    skb_skin_fini(&ref);
    skb_skin_f32_fini(&fast);
    free(rp); free(rn); free(fp); free(fn);
}

static void check_layout(const struct skb_method *m, const struct skb_dataset *d, int all_poses,
                         const struct skb_params *prm, enum skb_f32_layout lay)
{
    check_variant(m, d, all_poses, prm, lay, SKB_F32_ISA_AUTO, SKB_F32_RENORM_BATCH8);
}

/* both layouts: SPLIT (influence-count groups, the default) and SLOT4 */
static void check_method_prm(const struct skb_method *m, const struct skb_dataset *d, int all_poses,
                             const struct skb_params *prm)
{
    check_layout(m, d, all_poses, prm, SKB_F32_LAYOUT_SPLIT);
    check_layout(m, d, all_poses, prm, SKB_F32_LAYOUT_SLOT4);
}

static void check_method_on(const struct skb_method *m, const struct skb_dataset *d, int all_poses)
{
    check_method_prm(m, d, all_poses, NULL);
}

static void test_fast_matches_double(void **state)
{
    static const char *const names[] = { "arm", "cloth", "creature", "body", "bcn_human", "wuson", "fbx_skeleton" };
    int any = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct skb_dataset d;
        if (skb_test_load_quick(names[i], &d) < 0)
            continue;
        for (int k = 0; skb_methods[k]; k++)
            if (skb_methods[k]->f32) {
                check_method_on(skb_methods[k], &d, 0);
                any = 1;
            }
        skb_dataset_free(&d);
    }
    assert_true(any);
}

/* random poses within wide joint limits on the creature (antipodal signs
 * matter: up to 170 degrees per joint, composed down the tree) */
static void test_fast_random_poses(void **state)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    assert_int_equal(skb_dataset_load("creature", &o, &d, msg, sizeof msg), 0);
    assert_int_equal(skb_dataset_random_poses(&d, 8, 0.95 * SKB_PI, skb_test_seed(), msg, sizeof msg), 0);
    for (int k = 0; skb_methods[k]; k++)
        if (skb_methods[k]->f32)
            check_method_on(skb_methods[k], &d, 1);
    skb_dataset_free(&d);
}

/* a fast path must not write past 3*nverts floats (ASan checks: the
 * buffers are exactly that long) and must honour vertex ranges */
static void test_fast_ranges(void **state)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    assert_int_equal(skb_dataset_load("arm", &o, &d, msg, sizeof msg), 0);
    int n = d.mesh.nverts;
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        struct skb_skinner_f32 fast;
        struct skb_pose p;
        if (!m->f32)
            continue;
        float *a = calloc(3 * (size_t)n, sizeof *a), *b = calloc(3 * (size_t)n, sizeof *b);
        float *na = calloc(3 * (size_t)n, sizeof *na), *nb = calloc(3 * (size_t)n, sizeof *nb);
        assert_int_equal(skb_skin_f32_init(&fast, m, &d.mesh, msg, sizeof msg), 0);
        skb_dataset_pose(&d, 5, &p);
        assert_int_equal(skb_skin_f32_pose(&fast, &p, NULL, a, na, msg, sizeof msg), 0);
        assert_int_equal(skb__skin_f32_run(&fast, 0, n, a, na), 0);   /* the layout's order */
        /* cuts inside one block of 8, across blocks, at block edges */
        const int cuts[] = { 0, 3, 5, 13, 16, 24, n / 3, n - 2, n };
        for (size_t c = 0; c + 1 < sizeof cuts / sizeof cuts[0]; c++)
            assert_int_equal(skb__skin_f32_run(&fast, cuts[c], cuts[c + 1], b, nb), 0);
        assert_memory_equal(a, b, sizeof *a * 3 * (size_t)n);
        assert_memory_equal(na, nb, sizeof *a * 3 * (size_t)n);
        skb_skin_f32_fini(&fast);
        free(a); free(b); free(na); free(nb);
    }
    skb_dataset_free(&d);
}

/* a synthetic mesh: many joints (past the DLB sign table's limit, and
 * below it), random influences with slot 0 sometimes empty (the pivot is
 * then a later slot), random poses up to 180 degrees */
static void synthetic(gsl_rng *r, int njoints, struct skb_dataset *d)
{
    int nv = 600, nposes = 4;
    assert_int_equal(skb_dataset_alloc(d, nv, 0, njoints, nposes), 0);
    snprintf(d->name, sizeof d->name, "synthetic-%dj", njoints);
    for (int v = 0; v < nv; v++) {
        double w[4];
        skb_test_random_weights(r, 4, w);
        if (v % 3 == 0) {       /* empty first slot */
            w[1] += w[0];
            w[0] = 0;
        }
        if (v % 4 == 1) {       /* empty last slot: 2 or 3 influences */
            w[2] += w[3];
            w[3] = 0;
        }
        if (v % 7 == 2) {       /* one influence, not in the first slot */
            w[0] = w[1] = w[3] = 0;
            w[2] = 1;
        }
        for (int k = 0; k < 4; k++) {
            d->mesh.joint[4 * v + k] = (int)gsl_rng_uniform_int(r, (unsigned long)njoints);
            d->mesh.weight[4 * v + k] = w[k];
        }
        double n[3];
        gsl_ran_dir_3d(r, &n[0], &n[1], &n[2]);
        for (int k = 0; k < 3; k++) {
            d->mesh.pos[3 * v + k] = 4 * gsl_rng_uniform(r) - 2;
            d->mesh.nrm[3 * v + k] = n[k];
        }
    }
    for (int j = 0; j < njoints; j++)
        d->mesh.parent[j] = j - 1;
    for (int k = 0; k < nposes * njoints; k++)
        skb_test_random_rigid(r, SKB_PI, 2, d->poses + 16 * k);
}

static void test_fast_many_joints(void **state)
{
    gsl_rng *r = skb_test_rng();
    static const int nj[] = { 7, 300 };
    for (int i = 0; i < 2; i++) {
        struct skb_dataset d;
        synthetic(r, nj[i], &d);
        for (int k = 0; skb_methods[k]; k++)
            if (skb_methods[k]->f32 && !(skb_methods[k]->flags & SKB_MF_NEEDS_CENTER))
                check_method_on(skb_methods[k], &d, 1);
        skb_dataset_free(&d);
    }
    gsl_rng_free(r);
}

/* antipodality NONE: the quaternion kernels blend as given (no table);
 * dlb's fast path implements Algorithm 2 only and says so */
static void test_fast_antipodal_none(void **state)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    struct skb_params prm;
    char msg[512];
    skb_params_default(&prm);
    prm.antipodal = SKB_ANTIPODAL_NONE;
    assert_int_equal(skb_dataset_load("bcn_human", &o, &d, msg, sizeof msg) == 0
                     || skb_dataset_load("creature", &o, &d, msg, sizeof msg) == 0, 1);
    assert_int_equal(skb_dataset_random_poses(&d, 4, 0.95 * SKB_PI, skb_test_seed(), msg, sizeof msg), 0);
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        struct skb_skinner_f32 fast;
        struct skb_pose p;
        if (!m->f32)
            continue;
        if (strcmp(m->name, "dlb") != 0) {
            check_method_prm(m, &d, 1, &prm);
            continue;
        }
        float *a = calloc(3 * (size_t)d.mesh.nverts + 1, sizeof *a);
        assert_int_equal(skb_skin_f32_init(&fast, m, &d.mesh, msg, sizeof msg), 0);
        skb_dataset_pose(&d, 0, &p);
        assert_int_equal(skb_skin_f32_pose(&fast, &p, &prm, a, NULL, msg, sizeof msg), SKB_ENOTSUP);
        skb_skin_f32_fini(&fast);
        free(a);
    }
    skb_dataset_free(&d);
}

/* the normal option: SHADER leaves LBS's blended normal unnormalised (its
 * direction is the renormalised one; its length is not 1 somewhere) and is
 * RENORM's output exactly for the quaternion methods; NONE writes no
 * normal and the same positions; bytes per vertex follow the streams */
static void check_normal_modes(const struct skb_method *m, const struct skb_dataset *d)
{
    struct skb_skinner_f32 s;
    struct skb_pose p;
    char msg[512];
    size_t n3 = 3 * (size_t)d->mesh.nverts;
    float *pr = malloc(sizeof(float) * n3), *nr = malloc(sizeof(float) * n3);
    float *ps = malloc(sizeof(float) * n3), *ns = malloc(sizeof(float) * n3);
    assert_true(pr && nr && ps && ns);
    assert_int_equal(skb_skin_f32_init(&s, m, &d->mesh, msg, sizeof msg), 0);
    /* SPLIT: per vertex of K influences K uint16 joints and K - 1 float
     * weights (4 for K = 4) */
    double slots = 0;
    int hist[4], want[4] = { 0, 0, 0, 0 };
    for (int v = 0; v < d->mesh.nverts; v++) {
        int K = 0;
        for (int k = 0; k < 4; k++)
            K += d->mesh.weight[4 * v + k] > 0;
        want[K - 1]++;
        slots += 2 * K + 4 * (K == 4 ? 4 : K - 1);
    }
    skb_skin_f32_histogram(&s, hist);
    assert_memory_equal(hist, want, sizeof hist);
    double base = 12 + 12 + slots / d->mesh.nverts + (m->flags & SKB_MF_NEEDS_CENTER ? 12 : 0);   /* the centre stream */
    assert_int_equal(skb_skin_f32_normals(&s), SKB_F32_NRM_RENORM);
    assert_true(fabs(skb_skin_f32_bytes_per_vertex(&s) - (base + 24)) < 1e-9);
    skb_dataset_pose(d, d->nposes / 2, &p);
    assert_int_equal(skb_skin_f32_pose(&s, &p, NULL, pr, nr, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_f32_set_normals(&s, SKB_F32_NRM_SHADER), 0);
    assert_true(fabs(skb_skin_f32_bytes_per_vertex(&s) - (base + 24)) < 1e-9);
    assert_int_equal(skb_skin_f32_pose(&s, &p, NULL, ps, ns, msg, sizeof msg), 0);
    assert_memory_equal(pr, ps, sizeof(float) * n3);
    if (strcmp(m->name, "linear") != 0) {
        assert_memory_equal(nr, ns, sizeof(float) * n3);
    } else {
        double worst_dir = 0, worst_len = 0;
        for (size_t v = 0; v < n3; v += 3) {
            double len = sqrt((double)ns[v] * ns[v] + (double)ns[v + 1] * ns[v + 1] + (double)ns[v + 2] * ns[v + 2]);
            worst_len = fmax(worst_len, fabs(len - 1));
            for (int k = 0; k < 3; k++)
                worst_dir = fmax(worst_dir, fabs(ns[v + k] / len - nr[v + k]));
        }
        assert_true(worst_dir < SKB_TOL_F32_NRM);
        assert_true(worst_len > 1e-3);   /* blended LBS normals shrink at bent joints */
    }
    memset(ns, 0x5a, sizeof(float) * n3);
    memcpy(nr, ns, sizeof(float) * n3);
    assert_int_equal(skb_skin_f32_set_normals(&s, SKB_F32_NRM_NONE), 0);
    assert_true(fabs(skb_skin_f32_bytes_per_vertex(&s) - base) < 1e-9);
    assert_int_equal(skb_skin_f32_pose(&s, &p, NULL, ps, ns, msg, sizeof msg), 0);
    assert_memory_equal(pr, ps, sizeof(float) * n3);
    assert_memory_equal(nr, ns, sizeof(float) * n3);
    assert_int_equal(skb_skin_f32_set_normals(&s, (enum skb_f32_normals)3), SKB_EINVAL);
    skb_skin_f32_fini(&s);
    /* SLOT4: four uint16 joints and four float weights for every vertex */
    assert_int_equal(skb_skin_f32_init_layout(&s, m, &d->mesh, SKB_F32_LAYOUT_SLOT4, msg, sizeof msg), 0);
    assert_null(skb_skin_f32_order(&s));
    skb_skin_f32_histogram(&s, hist);
    assert_int_equal(hist[3], d->mesh.nverts);
    assert_true(fabs(skb_skin_f32_bytes_per_vertex(&s) - (base - slots / d->mesh.nverts + 24 + 24)) < 1e-9);
    skb_skin_f32_fini(&s);
    free(pr); free(nr); free(ps); free(ns);
}

/* the planner's LBS candidates (harness/fast_plan.c): every instruction
 * set this CPU runs and every renormalisation, in both layouts, within the
 * same tolerance as the default kernels */
static void test_fast_lbs_variants(void **state)
{
    static const char *const names[] = { "body", "bcn_human" };
    const struct skb_method *m = skb_method_find("linear");
    int isas = 0;
    assert_non_null(m);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct skb_dataset d;
        if (skb_test_load_quick(names[i], &d) < 0)
            continue;
        for (int isa = 0; isa < SKB_F32_NISA; isa++) {
            if (!skb_f32_isa_available((enum skb_f32_isa)isa))
                continue;
            isas += i == 0;
            for (int r = 0; r < SKB_F32_NRENORM; r++) {
                check_variant(m, &d, 0, NULL, SKB_F32_LAYOUT_SPLIT, (enum skb_f32_isa)isa, (enum skb_f32_renorm)r);
                check_variant(m, &d, 0, NULL, SKB_F32_LAYOUT_SLOT4, (enum skb_f32_isa)isa, (enum skb_f32_renorm)r);
            }
        }
        skb_dataset_free(&d);
    }
    assert_true(isas >= 1);
}

static void test_fast_normal_modes(void **state)
{
    struct skb_dataset d;
    struct skb_dataset_opts o = { 1, 1, 0 };
    char msg[512];
    assert_int_equal(skb_dataset_load("creature", &o, &d, msg, sizeof msg), 0);
    assert_non_null(d.mesh.nrm);
    for (int k = 0; skb_methods[k]; k++)
        if (skb_methods[k]->f32)
            check_normal_modes(skb_methods[k], &d);
    skb_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_matches_double),
        cmocka_unit_test(test_fast_random_poses),
        cmocka_unit_test(test_fast_ranges),
        cmocka_unit_test(test_fast_many_joints),
        cmocka_unit_test(test_fast_antipodal_none),
        cmocka_unit_test(test_fast_normal_modes),
        cmocka_unit_test(test_fast_lbs_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
