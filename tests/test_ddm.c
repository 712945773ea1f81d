/* test_ddm.c — Direct Delta Mush (Le & Lewis 2019, SPEC section 8): the
 * skin against a dense re-derivation of SPEC's formulas on a tetrahedron,
 * the rest pose, the LBS limit (p = 0, lambda = 0), rigid motion of the
 * whole rig, the nearest rotation of degenerate matrices, parameter
 * changes and bad parameters, and the size limit. */
#include <gsl/gsl_linalg.h>
#include "skb_test_data.h"

int skb__ddm_rotation(const skb_real a[9], skb_real r[9]);

#define TOL_DDM 1e-9   /* sparse solves p times, then an SVD: rounding only */

/* an irregular tetrahedron (closed: every cotangent weight is used twice),
 * two joints, weights from one joint to the other */
static double t_pos[12] = { 0, 0, 0,  1.2, 0.1, 0,  0.3, 0.9, 0.2,  0.4, 0.35, 1.1 };
static double t_nrm[12] = { -.577, -.577, -.577,  1, 0, 0,  0, 1, 0,  0, 0, 1 };
static int t_tris[12] = { 0, 2, 1,  0, 1, 3,  1, 2, 3,  0, 3, 2 };
static int t_joint[16] = { 0, 1, 0, 0,  0, 1, 0, 0,  0, 1, 0, 0,  0, 1, 0, 0 };
static double t_weight[16] = { 1, 0, 0, 0,  .7, .3, 0, 0,  .2, .8, 0, 0,  0, 1, 0, 0 };

static struct skb_mesh tet_mesh(void)
{
    struct skb_mesh m = { 4, 4, 2, t_pos, t_nrm, t_tris, t_joint, t_weight, NULL, NULL, NULL };
    return m;
}

static const struct skb_method *ddm(void)
{
    const struct skb_method *m = skb_method_find("ddm");
    assert_non_null(m);
    return m;
}

/* ((I + s L_bar)^-1)^p as a dense 4x4 (row-major), L = -cotangent Laplacian */
static void dense_smoothing(double s, int p, double out[16])
{
    double lap[16] = { 0 }, b[16], inv[16];
    for (int t = 0; t < 4; t++)
        for (int a = 0; a < 3; a++) {
            const int *f = t_tris + 3 * t;
            const double *pa = t_pos + 3 * f[a], *pb = t_pos + 3 * f[(a + 1) % 3], *pc = t_pos + 3 * f[(a + 2) % 3];
            double e1[3], e2[3], cr[3];
            for (int k = 0; k < 3; k++) {
                e1[k] = pb[k] - pa[k];
                e2[k] = pc[k] - pa[k];
            }
            skb_v3_cross(e1, e2, cr);
            double w = skb_v3_dot(e1, e2) / skb_v3_norm(cr) / 2;   /* angle at a: edge (b, c) */
            int i = f[(a + 1) % 3], k = f[(a + 2) % 3];
            lap[4 * i + k] -= w;
            lap[4 * k + i] -= w;
            lap[4 * i + i] += w;
            lap[4 * k + k] += w;
        }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            b[4 * r + c] = (r == c) + s * lap[4 * r + c] / lap[4 * c + c];   /* I + s L D^-1 */
    gsl_matrix_view bm = gsl_matrix_view_array(b, 4, 4), im = gsl_matrix_view_array(inv, 4, 4);
    gsl_permutation *perm = gsl_permutation_alloc(4);
    int sign;
    gsl_linalg_LU_decomp(&bm.matrix, perm, &sign);
    gsl_linalg_LU_invert(&bm.matrix, perm, &im.matrix);
    gsl_permutation_free(perm);
    for (int k = 0; k < 16; k++)
        out[k] = k % 5 == 0;
    for (int it = 0; it < p; it++) {
        double t[16];
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) {
                t[4 * r + c] = 0;
                for (int k = 0; k < 4; k++)
                    t[4 * r + c] += out[4 * r + k] * inv[4 * k + c];
            }
        memcpy(out, t, sizeof t);
    }
}

/* Omega_ij (full 4x4) for the tetrahedron by SPEC section 8's sums */
static void dense_omega(const struct skb_params *prm, double om[4][2][16])
{
    double a[16], c[16], psi[4][2][16] = { { { 0 } } }, wp[4][2] = { { 0 } };
    dense_smoothing((double)prm->ddm_lambda, prm->ddm_p, a);
    dense_smoothing((double)prm->ddm_kappa, prm->ddm_p, c);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 4; k++) {
                double u[4] = { t_pos[3 * k], t_pos[3 * k + 1], t_pos[3 * k + 2], 1 }, w = t_weight[4 * k + j];
                for (int e = 0; e < 16; e++)
                    psi[i][j][e] += a[4 * k + i] * w * u[e / 4] * u[e % 4];
                wp[i][j] += c[4 * k + i] * w;
            }
    for (int i = 0; i < 4; i++) {
        double col[4];
        for (int r = 0; r < 4; r++)
            col[r] = psi[i][0][4 * r + 3] + psi[i][1][4 * r + 3];
        double p[4] = { col[0] / col[3], col[1] / col[3], col[2] / col[3], 1 }, al = (double)prm->ddm_alpha;
        for (int j = 0; j < 2; j++)
            for (int e = 0; e < 16; e++)
                om[i][j][e] = (1 - al) * psi[i][j][e] + al * wp[i][j] * p[e / 4] * p[e % 4];
    }
}

/* the run-time formula of SPEC section 8 on dense Omega */
static void dense_skin(double om[4][2][16], const double *mats, double out[12])
{
    for (int i = 0; i < 4; i++) {
        double q[16] = { 0 }, a[9], r[9], t[3];
        for (int j = 0; j < 2; j++)
            for (int x = 0; x < 4; x++)
                for (int y = 0; y < 4; y++)
                    for (int k = 0; k < 4; k++)
                        q[4 * x + y] += mats[16 * j + 4 * x + k] * om[i][j][4 * k + y];
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++)
                a[3 * x + y] = q[4 * x + y] / q[15] - q[4 * x + 3] / q[15] * q[12 + y] / q[15];
        assert_int_equal(skb__ddm_rotation(a, r), 0);
        for (int x = 0; x < 3; x++)
            t[x] = q[4 * x + 3] / q[15] - (r[3 * x] * q[12] + r[3 * x + 1] * q[13] + r[3 * x + 2] * q[14]) / q[15];
        for (int x = 0; x < 3; x++)
            out[3 * i + x] = t[x] + r[3 * x] * t_pos[3 * i] + r[3 * x + 1] * t_pos[3 * i + 1]
                           + r[3 * x + 2] * t_pos[3 * i + 2];
    }
}

static void test_ddm_matches_dense_formula(void **state)
{
    (void)state;
    struct skb_mesh m = tet_mesh();
    struct skb_skinner s;
    struct skb_params prm;
    char msg[256];
    double mats[32], out[12], want[12], om[4][2][16];
    skb_params_default(&prm);
    prm.ddm_p = 3;          /* a few applications: the transposes would differ */
    assert_int_equal(skb_skin_init(&s, ddm(), &m, msg, sizeof msg), 0);
    dense_omega(&prm, om);
    for (int i = 1; i < 5; i++) {
        skb_test_pose2(0.6 * i, mats);
        struct skb_pose p = { 2, mats, NULL };
        assert_int_equal(skb_skin_pose(&s, &p, &prm, out, NULL, msg, sizeof msg), 0);
        dense_skin(om, mats, want);
        for (int k = 0; k < 12; k++)
            assert_near(out[k], want[k], TOL_DDM);
    }
    skb_skin_fini(&s);
}

/* positions (and normals when n0 is given) of an arm skin against want */
static void skin_arm(const struct skb_dataset *d, const struct skb_method *m, const struct skb_params *prm,
                     const double *mats, double *pos, double *nrm)
{
    struct skb_skinner s;
    char msg[256];
    struct skb_pose p = { d->mesh.njoints, mats, NULL };
    assert_int_equal(skb_skin_init(&s, m, &d->mesh, msg, sizeof msg), 0);
    if (skb_skin_pose(&s, &p, prm, pos, nrm, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    skb_skin_fini(&s);
}

static double *identity_pose(int nj)
{
    double *mats = (double *)calloc(16 * (size_t)nj, sizeof(double));
    for (int j = 0; j < nj; j++)
        for (int k = 0; k < 4; k++)
            mats[16 * j + 5 * k] = 1;
    return mats;
}

static void test_ddm_rest_pose(void **state)
{
    (void)state;
    struct skb_dataset d;
    struct skb_params prm;
    if (skb_test_load_quick("arm", &d) < 0)
        skip();
    int n = d.mesh.nverts;
    double *mats = identity_pose(d.mesh.njoints), *pos = (double *)malloc(sizeof(double) * 3 * n);
    double *nrm = (double *)malloc(sizeof(double) * 3 * n);
    skb_params_default(&prm);
    skin_arm(&d, ddm(), &prm, mats, pos, nrm);
    for (int k = 0; k < 3 * n; k++) {
        assert_near(pos[k], d.mesh.pos[k], TOL_DDM);
        assert_near(nrm[k], d.mesh.nrm[k], TOL_DDM);
    }
    free(mats);
    free(pos);
    free(nrm);
    skb_dataset_free(&d);
}

/* p = 0 or lambda = kappa = 0: no smoothing, DDM's positions are LBS's */
static void test_ddm_lbs_limit(void **state)
{
    (void)state;
    struct skb_dataset d;
    struct skb_params prm;
    if (skb_test_load_quick("arm", &d) < 0)
        skip();
    gsl_rng *rng = skb_test_rng();
    int n = d.mesh.nverts, nj = d.mesh.njoints;
    double *mats = (double *)malloc(sizeof(double) * 16 * nj), *pos = (double *)malloc(sizeof(double) * 3 * n);
    double *lbs = (double *)malloc(sizeof(double) * 3 * n), *nrm = (double *)malloc(sizeof(double) * 3 * n);
    for (int limit = 0; limit < 2; limit++) {
        skb_params_default(&prm);
        if (limit == 0)
            prm.ddm_p = 0;
        else
            prm.ddm_lambda = prm.ddm_kappa = 0;
        for (int j = 0; j < nj; j++)
            skb_test_random_rigid(rng, SKB_PI, 1, mats + 16 * j);
        skin_arm(&d, ddm(), &prm, mats, pos, nrm);
        skin_arm(&d, skb_method_find("linear"), &prm, mats, lbs, NULL);
        for (int k = 0; k < 3 * n; k++) {
            assert_near(pos[k], lbs[k], TOL_DDM);
            assert_true(isfinite(nrm[k]));   /* the rotation is undefined, never NaN */
        }
    }
    gsl_rng_free(rng);
    free(mats);
    free(pos);
    free(lbs);
    free(nrm);
    skb_dataset_free(&d);
}

/* every joint the same rigid T: the mesh moves by T */
static void test_ddm_rigid_motion(void **state)
{
    (void)state;
    struct skb_dataset d;
    struct skb_params prm;
    if (skb_test_load_quick("arm", &d) < 0)
        skip();
    gsl_rng *rng = skb_test_rng();
    int n = d.mesh.nverts, nj = d.mesh.njoints;
    double *mats = (double *)malloc(sizeof(double) * 16 * nj), *pos = (double *)malloc(sizeof(double) * 3 * n);
    double *nrm = (double *)malloc(sizeof(double) * 3 * n), t[16];
    skb_params_default(&prm);
    for (int trial = 0; trial < 3; trial++) {
        skb_test_random_rigid(rng, SKB_PI, 2, t);
        for (int j = 0; j < nj; j++)
            memcpy(mats + 16 * j, t, sizeof t);
        skin_arm(&d, ddm(), &prm, mats, pos, nrm);
        for (int v = 0; v < n; v++)
            for (int r = 0; r < 3; r++) {
                double wp = t[4 * r + 3], wn = 0;
                for (int c = 0; c < 3; c++) {
                    wp += t[4 * r + c] * d.mesh.pos[3 * v + c];
                    wn += t[4 * r + c] * d.mesh.nrm[3 * v + c];
                }
                assert_near(pos[3 * v + r], wp, TOL_DDM);
                assert_near(nrm[3 * v + r], wn, TOL_DDM);
            }
    }
    gsl_rng_free(rng);
    free(mats);
    free(pos);
    free(nrm);
    skb_dataset_free(&d);
}

static void assert_rotation(const double r[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = r[3 * i] * r[3 * j] + r[3 * i + 1] * r[3 * j + 1] + r[3 * i + 2] * r[3 * j + 2];
            assert_near(d, i == j, TOL_EXACT * 10);
        }
    double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6])
               + r[2] * (r[3] * r[7] - r[4] * r[6]);
    assert_near(det, 1, TOL_EXACT * 10);
}

/* the nearest rotation: identity for zero, a rotation for rank 1 and 2 and
 * for a reflection, and the rotation back from R S (S symmetric positive) */
static void test_ddm_rotation_degenerate(void **state)
{
    (void)state;
    double zero[9] = { 0 }, rank1[9], rank2[9] = { 1, 0, 0,  0, 2, 0,  0, 0, 0 };
    double refl[9] = { 1, 0, 0,  0, 1, 0,  0, 0, -1 }, r[9], rot[9], rs[9];
    double a[3] = { 0.2, -1, 0.5 }, b[3] = { 1, 0.3, -0.7 }, s[9] = { 2, .3, .1,  .3, 1, .2,  .1, .2, .5 };
    for (int k = 0; k < 9; k++)
        rank1[k] = a[k / 3] * b[k % 3];
    assert_int_equal(skb__ddm_rotation(zero, r), 0);
    for (int k = 0; k < 9; k++)
        assert_near(r[k], k % 4 == 0, 0);
    assert_int_equal(skb__ddm_rotation(rank1, r), 0);
    assert_rotation(r);
    assert_int_equal(skb__ddm_rotation(rank2, r), 0);
    assert_rotation(r);
    assert_int_equal(skb__ddm_rotation(refl, r), 0);
    assert_rotation(r);
    struct skb_quat q;
    double ax[3] = { 0.6, 0, 0.8 };
    skb_quat_from_axis_angle(ax, 2.5, &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rs[3 * i + j] = rot[3 * i] * s[j] + rot[3 * i + 1] * s[3 + j] + rot[3 * i + 2] * s[6 + j];
    assert_int_equal(skb__ddm_rotation(rs, r), 0);
    for (int k = 0; k < 9; k++)
        assert_near(r[k], rot[k], TOL_TIGHT);
    zero[4] = NAN;
    assert_int_equal(skb__ddm_rotation(zero, r), -1);
}

/* a parameter change recomputes Omega; going back gives the same numbers */
static void test_ddm_parameter_change(void **state)
{
    (void)state;
    struct skb_mesh m = tet_mesh();
    struct skb_skinner s;
    struct skb_params def, lim;
    char msg[256];
    double mats[32], out0[12], out1[12], lbs[12];
    skb_test_pose2(1.3, mats);
    struct skb_pose p = { 2, mats, NULL };
    skb_params_default(&def);
    lim = def;
    lim.ddm_p = 0;
    assert_int_equal(skb_skin_init(&s, ddm(), &m, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &p, &def, out0, NULL, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &p, &lim, out1, NULL, msg, sizeof msg), 0);
    const struct skb_method *lin = skb_method_find("linear");
    struct skb_skinner sl;
    assert_int_equal(skb_skin_init(&sl, lin, &m, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&sl, &p, &def, lbs, NULL, msg, sizeof msg), 0);
    double diff = 0;
    for (int k = 0; k < 12; k++) {
        assert_near(out1[k], lbs[k], TOL_DDM);
        diff = fmax(diff, fabs(out0[k] - lbs[k]));
    }
    assert_true(diff > 1e-3);   /* the default smoothing is not LBS here */
    assert_int_equal(skb_skin_pose(&s, &p, &def, out1, NULL, msg, sizeof msg), 0);
    assert_memory_equal(out0, out1, sizeof out0);
    skb_skin_fini(&s);
    skb_skin_fini(&sl);
}

static void test_ddm_bad_parameters(void **state)
{
    (void)state;
    struct skb_mesh m = tet_mesh();
    struct skb_skinner s;
    struct skb_params prm;
    char msg[256];
    double mats[32], out[12];
    skb_test_pose2(0.5, mats);
    struct skb_pose p = { 2, mats, NULL };
    assert_int_equal(skb_skin_init(&s, ddm(), &m, msg, sizeof msg), 0);
    for (int bad = 0; bad < 11; bad++) {
        skb_params_default(&prm);
        switch (bad) {
        case 0: prm.ddm_p = -1; break;
        case 1: prm.ddm_p = 1001; break;              /* above DDM_MAX_P */
        case 2: prm.ddm_lambda = -1; break;
        case 3: prm.ddm_kappa = prm.ddm_lambda; break; /* kappa < lambda */
        case 4: prm.ddm_kappa = 0; break;              /* 0 < kappa while lambda > 0 */
        case 5: prm.ddm_alpha = 1; break;
        case 6: prm.ddm_alpha = -0.1; break;
        case 7: prm.ddm_lambda = NAN; break;
        case 8: prm.ddm_alpha = NAN; break;
        case 9: prm.ddm_lambda = 0; break;             /* kappa = 1 > lambda */
        default: prm.ddm_kappa = INFINITY; prm.ddm_lambda = INFINITY; break;
        }
        if (skb_skin_pose(&s, &p, &prm, out, NULL, msg, sizeof msg) != SKB_EINVAL)
            fail_msg("bad parameter set %d accepted", bad);
        assert_non_null(strstr(msg, "invalid argument"));
    }
    skb_params_default(&prm);
    assert_int_equal(skb_skin_pose(&s, &p, &prm, out, NULL, msg, sizeof msg), 0);
    skb_skin_fini(&s);
}

/* above 2 M (vertex, joint) pairs bind refuses before any allocation */
static void test_ddm_size_limit(void **state)
{
    (void)state;
    double pos[3] = { 0, 0, 0 }, w[4] = { 1, 0, 0, 0 };
    int joint[4] = { 0, 0, 0, 0 };
    struct skb_mesh m = { 1, 0, 2000001, pos, NULL, NULL, joint, w, NULL, NULL, NULL };
    struct skb_skinner s;
    char msg[256];
    assert_true(ddm()->state_size(&m) < 1024);
    assert_int_equal(skb_skin_init(&s, ddm(), &m, msg, sizeof msg), SKB_ENOTSUP);
    assert_non_null(strstr(msg, "not supported"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ddm_matches_dense_formula),
        cmocka_unit_test(test_ddm_rest_pose),
        cmocka_unit_test(test_ddm_lbs_limit),
        cmocka_unit_test(test_ddm_rigid_motion),
        cmocka_unit_test(test_ddm_rotation_degenerate),
        cmocka_unit_test(test_ddm_parameter_change),
        cmocka_unit_test(test_ddm_bad_parameters),
        cmocka_unit_test(test_ddm_size_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
