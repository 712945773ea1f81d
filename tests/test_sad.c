/* test_sad.c — Skinning Arbitrary Deformations (thesis ch. 7,
 * methods/sad_fit.c, methods/lsqr.c) and its vertex-animation inputs
 * (datasets/md2.c): LSQR against a dense GSL least-squares solve; an
 * animation made by a known skinning of the form eq. 7.5 represents
 * (rotations below 180 degrees) recovered below 0.1 % distortion, rigid and
 * affine; a rigidly moving object represented exactly by one proxy-joint;
 * the p-centre and weights of 7.1; the corrections of 7.3; MD2 files that
 * are bad (no frames, frame size not matching the vertex count, truncated,
 * wrong magic) each give one line naming the file. */
#include "skb_test.h"
#include <gsl/gsl_linalg.h>
#include <unistd.h>
#include "skb_lsqr.h"
#include "skb_pool.h"
#include "skb_sad.h"
#include <sys/stat.h>
#include "skb_vanim.h"

/* distortion (%) a fit of exactly representable data must stay below */
#define SAD_EXACT_PCT 0.1
/* a rigid motion with one joint: rounding only */
#define SAD_RIGID_ONE_PCT 1e-6
#define LSQR_TOL 1e-12

static const struct skb_lsqr_opts lsqr_tight = { LSQR_TOL, LSQR_TOL, 0, 0 };

/* ---- LSQR ---- */

static void lsqr_vs_dense(int zero_col)
{
    enum { M = 60, N = 20 };
    gsl_rng *r = skb_test_rng();
    int rowptr[M + 1], col[M * N], nnz = 0;
    double val[M * N], b[M], x[N], xd[N];
    gsl_matrix *a = gsl_matrix_calloc(M, N);
    gsl_vector *tau = gsl_vector_alloc(N), *bv = gsl_vector_alloc(M), *xv = gsl_vector_alloc(N), *res = gsl_vector_alloc(M);
    for (int i = 0; i < M; i++) {
        rowptr[i] = nnz;
        for (int j = 0; j < N; j++)
            if ((j == i % N || gsl_rng_uniform(r) < 0.3) && j != zero_col) {
                double v = 2 * gsl_rng_uniform(r) - 1;
                col[nnz] = j;
                val[nnz++] = v;
                gsl_matrix_set(a, i, j, v);
            }
        b[i] = 2 * gsl_rng_uniform(r) - 1;
        gsl_vector_set(bv, i, b[i]);
    }
    rowptr[M] = nnz;
    struct skb_csr csr = { M, N, rowptr, col, val };
    struct skb_lsqr_info info;
    memset(x, 0, sizeof x);
    assert_int_equal(skb_lsqr_solve(&csr, b, x, &lsqr_tight, &info), 0);
    if (zero_col >= 0) {
        /* the dense oracle on the other columns; LSQR keeps the zero column's x0 */
        gsl_matrix_view sub = gsl_matrix_submatrix(a, 0, 0, M, N - 1);
        gsl_vector_view xs = gsl_vector_subvector(xv, 0, N - 1), ts = gsl_vector_subvector(tau, 0, N - 1);
        gsl_matrix *c = gsl_matrix_alloc(M, N - 1);
        gsl_matrix_memcpy(c, &sub.matrix);
        assert_int_equal(gsl_linalg_QR_decomp(c, &ts.vector), 0);
        assert_int_equal(gsl_linalg_QR_lssolve(c, &ts.vector, bv, &xs.vector, res), 0);
        gsl_matrix_free(c);
        assert_near(x[N - 1], 0, TOL_EXACT);
    } else {
        assert_int_equal(gsl_linalg_QR_decomp(a, tau), 0);
        assert_int_equal(gsl_linalg_QR_lssolve(a, tau, bv, xv, res), 0);
    }
    for (int j = 0; j < (zero_col >= 0 ? N - 1 : N); j++)
        xd[j] = gsl_vector_get(xv, j);
    for (int j = 0; j < (zero_col >= 0 ? N - 1 : N); j++)
        assert_near(x[j], xd[j], 1e-9);
    assert_true(info.iterations > 0 && info.stop != 3);
    gsl_matrix_free(a);
    gsl_vector_free(tau);
    gsl_vector_free(bv);
    gsl_vector_free(xv);
    gsl_vector_free(res);
    gsl_rng_free(r);
}

static void test_lsqr_dense(void **state)
{
    (void)state;
    lsqr_vs_dense(-1);
}

static void test_lsqr_zero_column(void **state)
{
    (void)state;
    lsqr_vs_dense(19);
}

/* damped: min |A x - b|^2 + damp^2 sum_c |col c|^2 x_c^2, against a dense
 * QR solve of the stacked system (A; damp diag|col|) x = (b; 0) */
static void test_lsqr_damped(void **state)
{
    (void)state;
    enum { M = 30, N = 12 };
    const double damp = 0.3;
    gsl_rng *r = skb_test_rng();
    int rowptr[M + 1], col[M * N], nnz = 0;
    double val[M * N], b[M], x[N], cn[N] = { 0 };
    gsl_matrix *a = gsl_matrix_calloc(M + N, N);
    gsl_vector *tau = gsl_vector_alloc(N), *bv = gsl_vector_calloc(M + N), *xv = gsl_vector_alloc(N), *res = gsl_vector_alloc(M + N);
    for (int i = 0; i < M; i++) {
        rowptr[i] = nnz;
        for (int j = 0; j < N; j++)
            if (j == i % N || gsl_rng_uniform(r) < 0.4) {
                double v = 2 * gsl_rng_uniform(r) - 1;
                col[nnz] = j;
                val[nnz++] = v;
                gsl_matrix_set(a, i, j, v);
                cn[j] += v * v;
            }
        b[i] = 2 * gsl_rng_uniform(r) - 1;
        gsl_vector_set(bv, i, b[i]);
    }
    rowptr[M] = nnz;
    for (int j = 0; j < N; j++)
        gsl_matrix_set(a, M + j, j, damp * sqrt(cn[j]));
    struct skb_csr csr = { M, N, rowptr, col, val };
    struct skb_lsqr_opts o = lsqr_tight;
    o.damp = damp;
    memset(x, 0, sizeof x);
    assert_int_equal(skb_lsqr_solve(&csr, b, x, &o, NULL), 0);
    assert_int_equal(gsl_linalg_QR_decomp(a, tau), 0);
    assert_int_equal(gsl_linalg_QR_lssolve(a, tau, bv, xv, res), 0);
    for (int j = 0; j < N; j++)
        assert_near(x[j], gsl_vector_get(xv, j), 1e-9);
    gsl_matrix_free(a);
    gsl_vector_free(tau);
    gsl_vector_free(bv);
    gsl_vector_free(xv);
    gsl_vector_free(res);
    gsl_rng_free(r);
}

static void test_lsqr_bad_input(void **state)
{
    (void)state;
    int rowptr[2] = { 0, 1 }, col[1] = { 5 };
    double val[1] = { 1 }, b[1] = { 1 }, x[2] = { 0, 0 };
    struct skb_csr csr = { 1, 2, rowptr, col, val };
    assert_int_equal(skb_lsqr_solve(&csr, b, x, &lsqr_tight, NULL), SKB_EINVAL);
}

/* ---- a test mesh: a wavy sheet of nx x ny vertices ---- */

static double *sheet(int nx, int ny)
{
    double *v = malloc(sizeof(double) * 3 * (size_t)(nx * ny));
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            double *p = v + 3 * (y * nx + x);
            p[0] = 4.0 * x / (nx - 1) + 7;      /* away from the origin on purpose */
            p[1] = 3.0 * y / (ny - 1) - 5;
            p[2] = 0.3 * sin(2.0 * x / nx * M_PI) * cos(1.5 * y / ny * M_PI);
        }
    return v;
}

/* the rig's dual quaternions (1, c) + eps (s, e), rotation below maxdeg;
 * goal positions by the project's DQ math (DQ paper Alg. 1 on the blend),
 * not by skb_sad_apply */
static void dq_skin(const struct skb_sad_rig *rig, const double *rest, const double *x, double *out)
{
    for (int k = 0; k < rig->nverts; k++) {
        struct skb_dq b;
        memset(&b, 0, sizeof b);
        for (int q = rig->off[k]; q < rig->off[k + 1]; q++) {
            const double *p = x + SKB_SAD_RIGID_DOF * rig->joint[q];
            double w = rig->weight[q];
            b.r.w += w;
            b.r.x += w * p[0]; b.r.y += w * p[1]; b.r.z += w * p[2];
            b.d.w += w * p[3];
            b.d.x += w * p[4]; b.d.y += w * p[5]; b.d.z += w * p[6];
        }
        /* the blend made rigid: b0 . be = 0 (the model of eq. 7.5's rows) */
        b.d.w = -(b.r.x * b.d.x + b.r.y * b.d.y + b.r.z * b.d.z);
        skb_dq_transform_point(&b, rest + 3 * k, out + 3 * k);
    }
}

static void random_joint_dq(gsl_rng *r, double maxdeg, const double o[3], double *x)
{
    double axis[3], t[3], c[3];
    gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
    double half = 0.5 * gsl_rng_uniform(r) * maxdeg * M_PI / 180;
    for (int i = 0; i < 3; i++) {
        c[i] = tan(half) * axis[i];
        t[i] = 0.5 * (2 * gsl_rng_uniform(r) - 1);
    }
    /* a rotation about the joint's origin o, then t: in (1, c) + eps (s, e)
     * form, e from the unit dual quaternion scaled by 1 / cos(half) */
    struct skb_quat q = { 1, c[0], c[1], c[2] };
    double rot[3], tt[3];
    double n2 = 1 + c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    struct skb_quat qn = { 1 / sqrt(n2), c[0] / sqrt(n2), c[1] / sqrt(n2), c[2] / sqrt(n2) };
    skb_quat_rotate(&qn, o, rot);
    for (int i = 0; i < 3; i++)
        tt[i] = o[i] - rot[i] + t[i];
    /* dual part d = 1/2 (0, tt) q */
    struct skb_quat d;
    skb_quat_pure_mul(tt, &q, &d);
    x[0] = c[0]; x[1] = c[1]; x[2] = c[2];
    x[3] = 0.5 * d.w; x[4] = 0.5 * d.x; x[5] = 0.5 * d.y; x[6] = 0.5 * d.z;
}

struct synth {
    int nv, nf, p;
    double *rest, *pos, *truth;
    struct skb_sad_rig rig;
};

static void synth_make(struct synth *s, gsl_rng *r, int p, int nf, double maxdeg)
{
    int nx = 24, ny = 18, centres[64];
    double rad;
    s->nv = nx * ny;
    s->nf = nf;
    s->p = p;
    s->rest = sheet(nx, ny);
    assert_int_equal(skb_sad_pcentre(s->rest, s->nv, p, centres, &rad), 0);
    assert_int_equal(skb_sad_rig_radial(s->rest, s->nv, centres, p, rad, SKB_SAD_P, &s->rig), 0);
    s->pos = malloc(sizeof(double) * 3 * (size_t)(s->nv * nf));
    s->truth = malloc(sizeof(double) * SKB_SAD_RIGID_DOF * (size_t)(p * nf));
    for (int f = 0; f < nf; f++) {
        double *x = s->truth + SKB_SAD_RIGID_DOF * p * f;
        for (int j = 0; j < p; j++)
            random_joint_dq(r, maxdeg, s->rest + 3 * centres[j], x + SKB_SAD_RIGID_DOF * j);
        dq_skin(&s->rig, s->rest, x, s->pos + 3 * s->nv * f);
    }
}

static void synth_free(struct synth *s)
{
    free(s->rest);
    free(s->pos);
    free(s->truth);
    skb_sad_rig_free(&s->rig);
}

static double fit_distortion(const struct synth *s, int kind, double *params)
{
    struct skb_sad_anim a = { s->nv, s->nf, s->rest, NULL, s->pos, NULL };
    int dof = kind == SKB_SAD_AFFINE ? SKB_SAD_AFFINE_DOF : SKB_SAD_RIGID_DOF;
    double *approx = malloc(sizeof(double) * 3 * (size_t)(s->nv * s->nf)), *own = NULL;
    if (!params)
        params = own = malloc(sizeof(double) * (size_t)(dof * s->rig.njoints * s->nf));
    struct skb_sad_fit out = { params, approx, NULL, NULL, 0, 0, 0, 0 };
    assert_int_equal(skb_sad_fit_anim(&a, &s->rig, kind, &lsqr_tight, NULL, &out), 0);
    assert_int_equal(out.capped, 0);
    double d = skb_sad_distortion(s->pos, approx, s->nv, s->nf);
    free(approx);
    free(own);
    return d;
}

/* eq. 7.5 represents this skinning exactly: the fit recovers it */
static void test_known_skinning_recovered(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    struct synth s;
    synth_make(&s, r, 12, 6, 120);
    double *params = malloc(sizeof(double) * SKB_SAD_RIGID_DOF * (size_t)(s.p * s.nf));
    double d = fit_distortion(&s, SKB_SAD_RIGID, params);
    print_message("rigid fit of a known DQ skinning: %.3g %% distortion\n", d);
    assert_true(d < SAD_EXACT_PCT);
    /* the joints themselves come back, where they move enough vertices */
    int worst_ok = 0;
    for (int i = 0; i < SKB_SAD_RIGID_DOF * s.p * s.nf; i++)
        worst_ok += fabs(params[i] - s.truth[i]) < 1e-4 * (1 + fabs(s.truth[i]));
    assert_true(worst_ok > 0.95 * SKB_SAD_RIGID_DOF * s.p * s.nf);
    free(params);
    synth_free(&s);
    gsl_rng_free(r);
}

/* an affine fit of an animation made by LBS of the same rig is exact */
static void test_known_lbs_recovered(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    struct synth s;
    synth_make(&s, r, 10, 4, 60);
    double *c = malloc(sizeof(double) * 12 * (size_t)(s.p * s.nf));
    for (int i = 0; i < 12 * s.p * s.nf; i++)
        c[i] = (i % 12 == 0 || i % 12 == 5 || i % 12 == 10 ? 1 : 0) + 0.3 * (2 * gsl_rng_uniform(r) - 1);
    for (int f = 0; f < s.nf; f++)
        skb_sad_apply(&s.rig, SKB_SAD_AFFINE, s.rest, c + 12 * s.p * f, s.pos + 3 * s.nv * f);
    double d = fit_distortion(&s, SKB_SAD_AFFINE, NULL);
    print_message("affine fit of a known LBS: %.3g %% distortion\n", d);
    assert_true(d < SAD_EXACT_PCT);
    free(c);
    synth_free(&s);
    gsl_rng_free(r);
}

/* thesis ch. 7 on data reduction: a rigidly moving object is one proxy-joint */
static void test_rigid_object_one_joint(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    struct synth s;
    synth_make(&s, r, 1, 8, 170);
    assert_int_equal(s.rig.njoints, 1);
    assert_int_equal(s.rig.max_influences, 1);
    double d = fit_distortion(&s, SKB_SAD_RIGID, NULL);
    print_message("one joint, rigid motion: %.3g %% distortion\n", d);
    assert_true(d < SAD_RIGID_ONE_PCT);
    synth_free(&s);
    gsl_rng_free(r);
}

/* thesis 7.1: the greedy p-centre radius shrinks with p; weights are
 * convex, 1 at a joint's own vertex when no other joint reaches it */
static void test_pcentre_weights(void **state)
{
    (void)state;
    double *v = sheet(30, 20), prev = INFINITY;
    int c[50];
    for (int p = 1; p <= 50; p += 7) {
        double rad;
        assert_int_equal(skb_sad_pcentre(v, 600, p, c, &rad), 0);
        assert_true(rad <= prev + TOL_EXACT);
        prev = rad;
        /* every vertex within rad of a centre, and some vertex at rad */
        double worst = 0;
        for (int k = 0; k < 600; k++) {
            double best = INFINITY;
            for (int j = 0; j < p; j++) {
                double dx = v[3 * k] - v[3 * c[j]], dy = v[3 * k + 1] - v[3 * c[j] + 1], dz = v[3 * k + 2] - v[3 * c[j] + 2];
                best = fmin(best, sqrt(dx * dx + dy * dy + dz * dz));
            }
            worst = fmax(worst, best);
        }
        assert_near(worst, rad, TOL_TIGHT);
        struct skb_sad_rig rig;
        assert_int_equal(skb_sad_rig_radial(v, 600, c, p, rad, SKB_SAD_P, &rig), 0);
        for (int k = 0; k < 600; k++) {
            double sum = 0;
            assert_true(rig.off[k + 1] > rig.off[k]);
            for (int q = rig.off[k]; q < rig.off[k + 1]; q++) {
                assert_true(rig.weight[q] > 0);
                sum += rig.weight[q];
            }
            assert_near(sum, 1, TOL_EXACT);
        }
        skb_sad_rig_free(&rig);
    }
    assert_int_equal(skb_sad_pcentre(v, 600, 0, c, &prev), SKB_EINVAL);
    assert_int_equal(skb_sad_pcentre(v, 600, 601, c, &prev), SKB_EINVAL);
    free(v);
}

/* a synthetic animation made with 6 joints, its rig replaced by 4
 * p-centre joints: a fit with fewer joints than made it leaves a residual
 * to correct */
static void synth_few_joints(struct synth *s, gsl_rng *r)
{
    struct skb_sad_rig few;
    int c[4];
    double rad;
    synth_make(s, r, 12, 6, 90);
    assert_int_equal(skb_sad_pcentre(s->rest, s->nv, 4, c, &rad), 0);
    assert_int_equal(skb_sad_rig_radial(s->rest, s->nv, c, 4, rad, SKB_SAD_P, &few), 0);
    skb_sad_rig_free(&s->rig);
    s->rig = few;
}

/* thesis 7.3: corrections with every eigen-displacement restore the
 * animation; more eigen-displacements never make it worse */
static void test_corrections(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    struct synth s;
    synth_few_joints(&s, r);
    double *params = malloc(sizeof(double) * SKB_SAD_RIGID_DOF * 4 * (size_t)s.nf);
    double d0 = fit_distortion(&s, SKB_SAD_RIGID, params), dist[4];
    int nf[4] = { 0, 1, 3, 6 }, bad = -1;
    struct skb_sad_anim a = { s.nv, s.nf, s.rest, NULL, s.pos, NULL };
    assert_int_equal(skb_sad_corrections(&a, &s.rig, SKB_SAD_RIGID, params, 4, nf, NULL, dist, &bad), 0);
    print_message("corrections: %.3g (fit) %.3g %.3g %.3g %.3g %%\n", d0, dist[0], dist[1], dist[2], dist[3]);
    assert_int_equal(bad, 0);
    assert_true(d0 > 1);
    assert_near(dist[0], d0, 1e-9 * d0);
    assert_true(dist[1] < dist[0] && dist[2] <= dist[1] + 1e-9 && dist[3] <= dist[2] + 1e-9);
    assert_true(dist[3] < 1e-6);
    free(params);
    synth_free(&s);
    gsl_rng_free(r);
}

/* affine fits: blended 3x4 transforms can be near singular, and a rest-pose
 * residual e = T^-1 g - v is then amplified (the thesis's examples are
 * rigid, where |T e| = |e|).  The corrections must still never make the
 * skin worse than uncorrected, more eigen-displacements never worse than
 * fewer, all of them exact: here one joint's matrix is shrunk to 3 % in
 * half the keyframes, as a fit with too few joints for a fold can leave it */
static void test_corrections_affine(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    struct synth s;
    synth_few_joints(&s, r);
    double *params = malloc(sizeof(double) * SKB_SAD_AFFINE_DOF * 4 * (size_t)s.nf);
    fit_distortion(&s, SKB_SAD_AFFINE, params);
    for (int t = 0; t < s.nf; t += 2)
        for (int i = 0; i < 12; i++)
            if (i % 4 != 3)
                params[(size_t)SKB_SAD_AFFINE_DOF * 4 * (size_t)t + (size_t)i] *= 0.03;
    double dist[5];
    int nf[5] = { 0, 1, 2, 3, 6 }, bad = -1;
    struct skb_sad_anim a = { s.nv, s.nf, s.rest, NULL, s.pos, NULL };
    assert_int_equal(skb_sad_corrections(&a, &s.rig, SKB_SAD_AFFINE, params, 5, nf, NULL, dist, &bad), 0);
    /* keyframes split over a pool: each keyframe is fitted alone, so the
     * figures are the same to the bit */
    struct skb_pool *pool = NULL;
    double pooled[5];
    assert_int_equal(skb_pool_create(3, &pool), 0);
    assert_int_equal(skb_sad_corrections(&a, &s.rig, SKB_SAD_AFFINE, params, 5, nf, pool, pooled, &bad), 0);
    skb_pool_destroy(pool);
    assert_memory_equal(pooled, dist, sizeof dist);
    print_message("affine corrections (a joint shrunk): %.3g %.3g %.3g %.3g %.3g %%\n", dist[0], dist[1], dist[2],
                  dist[3], dist[4]);
    assert_true(dist[0] > 1);
    for (int i = 1; i < 5; i++)
        if (!(dist[i] <= dist[i - 1] * (1 + 1e-9)))
            fail_msg("%d eigen-displacements: %.4g %%, %d: %.4g %%", nf[i], dist[i], nf[i - 1], dist[i - 1]);
    assert_true(dist[4] < 1e-6);
    free(params);
    synth_free(&s);
    gsl_rng_free(r);
}

static void test_distortion_metric(void **state)
{
    (void)state;
    /* two keyframes of one vertex at x = 0 and 2: P_average at 1, |P - P_avg| = sqrt 2 */
    double exact[6] = { 0, 0, 0, 2, 0, 0 }, approx[6] = { 0.1, 0, 0, 2, 0, 0 };
    assert_near(skb_sad_distortion(exact, approx, 1, 2), 100 * 0.1 / sqrt(2), TOL_EXACT);
    /* 6 m kappa / (6 m + 12 p kappa) */
    assert_near(skb_sad_compression(1000, 100, 10), 600000.0 / (6000 + 12000), TOL_EXACT);
}


/* ---- MD2 files (datasets/md2.c) ---- */

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}

static void putf(unsigned char *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put32(p, u);
}

/* a tiny valid MD2: 3 vertices, 1 triangle, nframes frames; returns its size */
static size_t md2_make(unsigned char *buf, int nframes)
{
    int nv = 3, framesize = 40 + 4 * nv, ofs_tris = 68, ofs_frames = ofs_tris + 12;
    size_t end = (size_t)ofs_frames + (size_t)framesize * (size_t)nframes;
    memset(buf, 0, end);
    memcpy(buf, "IDP2", 4);
    int32_t h[17] = { 0, 8, 64, 64, framesize, 0, nv, 0, 1, 0, nframes, 68, 68, ofs_tris, ofs_frames, (int32_t)end, (int32_t)end };
    for (int i = 1; i < 17; i++)
        put32(buf + 4 * i, (uint32_t)h[i]);
    /* triangle 0 1 2 */
    buf[ofs_tris + 2] = 1;
    buf[ofs_tris + 4] = 2;
    for (int f = 0; f < nframes; f++) {
        unsigned char *fr = buf + ofs_frames + framesize * f;
        for (int i = 0; i < 3; i++) {
            putf(fr + 4 * i, 0.5f * (float)(i + 1));          /* scale */
            putf(fr + 12 + 4 * i, (float)(10 * f - i));       /* translate */
        }
        for (int k = 0; k < nv; k++)
            for (int i = 0; i < 3; i++)
                fr[40 + 4 * k + i] = (unsigned char)(k == i ? 200 : 10 * k + f);
    }
    return end;
}

static char md2_dir[64];

static const char *md2_write(const char *name, const unsigned char *buf, size_t n)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", md2_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
    return path;
}

static int md2_setup(void **state)
{
    (void)state;
    snprintf(md2_dir, sizeof md2_dir, "/tmp/skb-test-sad-XXXXXX");
    return mkdtemp(md2_dir) ? 0 : -1;
}

static int md2_teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", md2_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_md2_valid(void **state)
{
    (void)state;
    unsigned char buf[512];
    size_t n = md2_make(buf, 2);
    struct skb_vanim v;
    char msg[300];
    assert_int_equal(skb_vanim_md2(md2_write("ok.md2", buf, n), 0, &v, msg, sizeof msg), 0);
    assert_int_equal(v.nverts, 3);
    assert_int_equal(v.ntris, 1);
    assert_int_equal(v.nframes, 2);
    assert_int_equal(v.tris[1], 1);
    /* frame 1, vertex 2, axis 1: scale 1.0 * byte (10*2 + 1) + translate (10 - 1) */
    assert_near(v.pos[3 * 3 * 1 + 3 * 2 + 1], 1.0 * 21 + 9, TOL_EXACT);
    assert_near(v.qstep[3 * 1 + 2], 1.5, TOL_EXACT);
    assert_near(v.rest[0], v.pos[0], TOL_EXACT);
    assert_string_equal(v.name, "ok");
    skb_vanim_free(&v);
    /* max_frames keeps the first */
    assert_int_equal(skb_vanim_md2(md2_write("ok.md2", buf, n), 1, &v, msg, sizeof msg), 0);
    assert_int_equal(v.nframes, 1);
    skb_vanim_free(&v);
}

/* each bad file: an error, one line naming the file and what is wrong */
static void md2_bad(const char *name, const unsigned char *buf, size_t n, const char *want)
{
    struct skb_vanim v;
    char msg[300];
    const char *path = md2_write(name, buf, n);
    int rc = skb_vanim_md2(path, 0, &v, msg, sizeof msg);
    print_message("%s -> %s\n", name, msg);
    assert_true(rc < 0);
    assert_non_null(strstr(msg, path));
    assert_non_null(strstr(msg, want));
    assert_null(strchr(msg, '\n'));
}

static void test_md2_bad(void **state)
{
    (void)state;
    unsigned char buf[512], b2[512];
    size_t n = md2_make(buf, 2);
    memcpy(b2, buf, n);
    put32(b2 + 40, 0);                                   /* num_frames 0 */
    md2_bad("noframes.md2", b2, n, "no frames");
    memcpy(b2, buf, n);
    put32(b2 + 24, 4);                                   /* num_xyz 4, frames hold 3 */
    md2_bad("mismatch.md2", b2, n, "framesize");
    md2_bad("truncated.md2", buf, n - 5, "truncated");
    md2_bad("short.md2", buf, 30, "truncated");
    memcpy(b2, buf, n);
    b2[0] = 'X';
    md2_bad("magic.md2", b2, n, "not an MD2");
    memcpy(b2, buf, n);
    put32(b2 + 4, 7);
    md2_bad("version.md2", b2, n, "version 7");
    memcpy(b2, buf, n);
    b2[68 + 4] = 9;                                       /* vertex index 9 of 3 */
    md2_bad("index.md2", b2, n, "out of range");
    /* not a regular file: a FIFO in the temp dir, never opened for blocking */
    char fifo[128];
    struct skb_vanim v;
    char msg[300];
    snprintf(fifo, sizeof fifo, "%s/fifo.md2", md2_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_true(skb_vanim_md2(fifo, 0, &v, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "not a regular file"));
    assert_true(skb_vanim_md2("/nonexistent/x.md2", 0, &v, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "cannot open"));
}

/* the assimp-testmodels files, when installed */
static void test_md2_testmodels(void **state)
{
    (void)state;
    struct skb_vanim v;
    char msg[300];
    if (access("/usr/share/assimp/models/MD2/sydney.md2", R_OK) != 0) {
        print_message("assimp-testmodels not installed: skipped\n");
        skip();
    }
    assert_int_equal(skb_vanim_md2("/usr/share/assimp/models/MD2/sydney.md2", 0, &v, msg, sizeof msg), 0);
    assert_int_equal(v.nverts, 342);
    assert_true(v.nframes > 100);
    skb_vanim_free(&v);
}

/* the curtain: deterministic from the seed, top row fixed */
static void test_curtain(void **state)
{
    (void)state;
    struct skb_vanim a, b, c;
    char msg[300];
    assert_int_equal(skb_vanim_curtain(7, 1, &a, msg, sizeof msg), 0);
    assert_int_equal(skb_vanim_curtain(7, 1, &b, msg, sizeof msg), 0);
    assert_int_equal(skb_vanim_curtain(8, 1, &c, msg, sizeof msg), 0);
    size_t n = 3 * (size_t)a.nverts * (size_t)a.nframes;
    assert_memory_equal(a.pos, b.pos, n * sizeof(double));
    assert_true(memcmp(a.pos, c.pos, n * sizeof(double)) != 0);
    double moved = 0;
    for (size_t i = 0; i < n; i++)
        moved = fmax(moved, fabs(a.pos[i] - a.rest[i % (3 * (size_t)a.nverts)]));
    assert_true(moved > 0.1);
    int cols = 0;
    while (cols < a.nverts && a.rest[3 * cols + 1] == 0)
        cols++;
    for (int f = 0; f < a.nframes; f++)
        for (int k = 0; k < 3 * cols; k++)
            assert_near(a.pos[3 * (size_t)a.nverts * (size_t)f + (size_t)k], a.rest[k], TOL_EXACT);
    skb_vanim_free(&a);
    skb_vanim_free(&b);
    skb_vanim_free(&c);
}

/* the wind study's curtains: scale 1 with the default wave is the curtain
 * itself to the bit; calmer wind moves the sheet less; no wave changes it */
static double max_travel(const struct skb_vanim *v)
{
    double mx = 0;
    for (size_t i = 0; i < 3 * (size_t)v->nverts * (size_t)v->nframes; i++)
        mx = fmax(mx, fabs(v->pos[i] - v->rest[i % (3 * (size_t)v->nverts)]));
    return mx;
}

static void test_curtain_wind(void **state)
{
    (void)state;
    struct skb_vanim a, b, c, d;
    char msg[300];
    assert_int_equal(skb_vanim_curtain(7, 1, &a, msg, sizeof msg), 0);
    assert_int_equal(skb_vanim_curtain_wind(7, 1, 1.0, SKB_CURTAIN_WAVE, &b, msg, sizeof msg), 0);
    assert_int_equal(skb_vanim_curtain_wind(7, 1, 0.25, SKB_CURTAIN_WAVE, &c, msg, sizeof msg), 0);
    assert_int_equal(skb_vanim_curtain_wind(7, 1, 1.0, 0, &d, msg, sizeof msg), 0);
    size_t n = 3 * (size_t)a.nverts * (size_t)a.nframes;
    assert_memory_equal(a.pos, b.pos, n * sizeof(double));
    assert_true(max_travel(&c) < 0.5 * max_travel(&a));
    assert_true(memcmp(a.pos, d.pos, n * sizeof(double)) != 0);
    skb_vanim_free(&a);
    skb_vanim_free(&b);
    skb_vanim_free(&c);
    skb_vanim_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lsqr_dense),
        cmocka_unit_test(test_lsqr_zero_column),
        cmocka_unit_test(test_lsqr_damped),
        cmocka_unit_test(test_lsqr_bad_input),
        cmocka_unit_test(test_known_skinning_recovered),
        cmocka_unit_test(test_known_lbs_recovered),
        cmocka_unit_test(test_rigid_object_one_joint),
        cmocka_unit_test(test_pcentre_weights),
        cmocka_unit_test(test_corrections),
        cmocka_unit_test(test_corrections_affine),
        cmocka_unit_test(test_distortion_metric),
        cmocka_unit_test_setup_teardown(test_md2_valid, md2_setup, md2_teardown),
        cmocka_unit_test_setup_teardown(test_md2_bad, md2_setup, md2_teardown),
        cmocka_unit_test(test_md2_testmodels),
        cmocka_unit_test(test_curtain),
        cmocka_unit_test(test_curtain_wind),
    };
    return cmocka_run_group_tests_name("sad", tests, NULL, NULL);
}
