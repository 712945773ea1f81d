/* test_cor.c — CoR (Le & Hodgins 2016, SPEC section 8): the precomputed
 * centres against hand-computed ones, rigidity of one-influence vertices,
 * and the run-time form against QB about the same centre. */
#include "skb_test.h"
#include "skb_fast.h"

skb_real *skb__cor_centres(const struct skb_mesh *m, void *state);

/* four vertices, two triangles of areas 0.5 and 1.5: v0 on joint 0 alone,
 * v1..v3 half on joints 0 and 1 */
static double t_pos[12] = { 0, 0, 0,  1, 0, 0,  0, 1, 0,  2, 2, 0 };
static double t_nrm[12] = { 0, 0, 1,  0, 0, 1,  0, 0, 1,  0, 0, 1 };
static int t_tris[6] = { 0, 1, 2,  1, 3, 2 };
static int t_joint[16] = { 0, 1, 0, 0,  0, 1, 0, 0,  0, 1, 0, 0,  0, 1, 0, 0 };
static double t_weight[16] = { 1, 0, 0, 0,  .5, .5, 0, 0,  .5, .5, 0, 0,  .5, .5, 0, 0 };
static double t_jrest[6] = { 0, 0, 0,  1, 1, 0 };
static int t_parent[2] = { -1, 0 };

static struct skb_mesh tiny_mesh(void)
{
    struct skb_mesh m = { 4, 2, 2, t_pos, t_nrm, t_tris, t_joint, t_weight, t_parent, t_jrest, NULL };
    return m;
}

/* s(a, b) for two joints: 2 a0 a1 b0 b1 exp(-(a0 b1 - a1 b0)^2 / 0.01) */
static double sim2(double a0, double a1, double b0, double b1)
{
    double d = a0 * b1 - a1 * b0;
    return 2 * a0 * a1 * b0 * b1 * exp(-d * d / 0.01);
}

static void test_cor_tiny_centres(void **state)
{
    (void)state;
    struct skb_mesh m = tiny_mesh();
    double c[12];
    assert_int_equal(skb__cor_bind_centres(&m, c), 0);
    /* triangle A (0,1,2): mean weights (2/3, 1/3), centroid (1/3, 1/3), area 0.5;
     * triangle B (1,3,2): mean weights (1/2, 1/2), centroid (1, 1), area 1.5 */
    double sa = sim2(.5, .5, 2. / 3, 1. / 3) * 0.5, sb = sim2(.5, .5, .5, .5) * 1.5;
    double want = (sa / 3 + sb * 1) / (sa + sb);
    for (int v = 1; v < 4; v++) {
        assert_near(c[3 * v], want, TOL_EXACT);
        assert_near(c[3 * v + 1], want, TOL_EXACT);
        assert_near(c[3 * v + 2], 0, TOL_EXACT);
    }
    for (int k = 0; k < 3; k++)   /* one influence: no centre, its own position */
        assert_near(c[k], t_pos[k], 0);
}

static void test_cor_single_influence_rigid(void **state)
{
    (void)state;
    struct skb_mesh m = tiny_mesh();
    const struct skb_method *cor = skb_method_find("cor");
    assert_non_null(cor);
    struct skb_skinner s;
    struct skb_params prm;
    char msg[256];
    double mats[32], out[12], nout[12];
    skb_params_default(&prm);
    skb_test_pose2(1.1, mats);
    struct skb_pose p = { 2, mats, NULL };
    assert_int_equal(skb_skin_init(&s, cor, &m, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &p, &prm, out, nout, msg, sizeof msg), 0);
    for (int r = 0; r < 3; r++) {
        double want = mats[4 * r + 3], nw = 0;
        for (int k = 0; k < 3; k++) {
            want += mats[4 * r + k] * t_pos[k];
            nw += mats[4 * r + k] * t_nrm[k];
        }
        assert_near(out[r], want, TOL_EXACT);
        assert_near(nout[r], nw, TOL_EXACT);
    }
    skb_skin_fini(&s);
}

/* every centre at joint 1's rest position: CoR's skin is QB's about it */
static void test_cor_equals_qb_at_joint(void **state)
{
    (void)state;
    struct skb_mesh m = tiny_mesh(), mq = tiny_mesh();
    const struct skb_method *cor = skb_method_find("cor"), *qb = skb_method_find("qb");
    struct skb_skinner s, sq;
    struct skb_params prm;
    char msg[256];
    double mats[32], out[12], nout[12], oq[12], nq[12], cen[12];
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 3; k++)
            cen[3 * v + k] = t_jrest[3 + k];
    mq.center = cen;
    skb_params_default(&prm);
    assert_int_equal(skb_skin_init(&s, cor, &m, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_init(&sq, qb, &mq, msg, sizeof msg), 0);
    memcpy(skb__cor_centres(&m, s.state), cen, sizeof cen);
    for (int i = 0; i < 5; i++) {
        skb_test_pose2(0.7 * i, mats);
        struct skb_pose p = { 2, mats, NULL };
        assert_int_equal(skb_skin_pose(&s, &p, &prm, out, nout, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&sq, &p, &prm, oq, nq, msg, sizeof msg), 0);
        for (int k = 0; k < 12; k++) {
            assert_near(out[k], oq[k], TOL_EXACT);
            assert_near(nout[k], nq[k], TOL_EXACT);
        }
    }
    skb_skin_fini(&s);
    skb_skin_fini(&sq);
}

/* cor's f32 kernel (both layouts) against cor's double skin, to the f32
 * acceptance tolerance the harness applies before timing (skb_fast.h) */
static void check_f32_pose(const struct skb_mesh *m, enum skb_f32_layout lay, const double *mats)
{
    const struct skb_method *cor = skb_method_find("cor");
    struct skb_skinner s;
    struct skb_skinner_f32 f;
    char msg[256];
    double out[12], nout[12], ep, en;
    float fo[12], fn[12];
    struct skb_pose p = { 2, mats, NULL };
    assert_int_equal(skb_skin_init(&s, cor, m, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_f32_init_layout(&f, cor, m, lay, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &p, NULL, out, nout, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_f32_pose(&f, &p, NULL, fo, fn, msg, sizeof msg), 0);
    skb_f32_compare(4, out, nout, fo, fn, &ep, &en, NULL);
    if (!(ep <= 1 && en <= 1))
        fail_msg("cor f32 (%s) differs from cor double by %.3g x tolerance (positions), %.3g x (normals)",
                 skb_f32_layout_name(lay), ep, en);
    skb_skin_f32_fini(&f);
    skb_skin_fini(&s);
}

static void test_cor_f32_matches_double(void **state)
{
    (void)state;
    struct skb_mesh m = tiny_mesh();
    double mats[32];
    for (int i = 0; i < 6; i++) {
        skb_test_pose2(0.6 * i, mats);
        check_f32_pose(&m, SKB_F32_LAYOUT_SPLIT, mats);
        check_f32_pose(&m, SKB_F32_LAYOUT_SLOT4, mats);
    }
}

/* vertex 0 (joint 0 alone) in the f32 kernel: joint 0's matrix applied,
 * to the f32 tolerance, whatever the layout */
static void test_cor_f32_single_influence_rigid(void **state)
{
    (void)state;
    struct skb_mesh m = tiny_mesh();
    const struct skb_method *cor = skb_method_find("cor");
    struct skb_skinner_f32 f;
    char msg[256];
    double mats[32], want[3], nwant[3], ep, en;
    float fo[12], fn[12];
    skb_test_pose2(1.1, mats);
    struct skb_pose p = { 2, mats, NULL };
    for (int r = 0; r < 3; r++) {
        want[r] = mats[4 * r + 3];
        nwant[r] = 0;
        for (int k = 0; k < 3; k++) {
            want[r] += mats[4 * r + k] * t_pos[k];
            nwant[r] += mats[4 * r + k] * t_nrm[k];
        }
    }
    for (int lay = SKB_F32_LAYOUT_SPLIT; lay <= SKB_F32_LAYOUT_SLOT4; lay++) {
        assert_int_equal(skb_skin_f32_init_layout(&f, cor, &m, (enum skb_f32_layout)lay, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_f32_pose(&f, &p, NULL, fo, fn, msg, sizeof msg), 0);
        skb_f32_compare(1, want, nwant, fo, fn, &ep, &en, NULL);
        if (!(ep <= 1 && en <= 1))
            fail_msg("cor f32 (%s): a one-influence vertex is %.3g x tolerance off rigid (normal %.3g x)",
                     skb_f32_layout_name((enum skb_f32_layout)lay), ep, en);
        skb_skin_f32_fini(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cor_tiny_centres),
        cmocka_unit_test(test_cor_single_influence_rigid),
        cmocka_unit_test(test_cor_equals_qb_at_joint),
        cmocka_unit_test(test_cor_f32_matches_double),
        cmocka_unit_test(test_cor_f32_single_influence_rigid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
