/* test_oracles.cpp — skinbench's math against independent libraries from
 * Debian: Eigen's quaternion slerp and unsupported/Eigen/MatrixFunctions
 * matrix log/exp, glm's dual quaternion conversions.  Each group skips with
 * a message when its headers are missing (libeigen3-dev, libglm-dev are the
 * oracles of scripts/install-deps.sh: glm for the reproduction, Eigen
 * with --tests). */
/* Eigen 3.4 trips g++ 12's -Wmaybe-uninitialized inside its own product
 * kernels (the Makefile passes it with -I, not as a system header) */
/* (clang has no such warning group and would reject the pragma under -Werror) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#if __has_include(<Eigen/Dense>) && __has_include(<unsupported/Eigen/MatrixFunctions>)
#define HAVE_EIGEN 1
#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>
#endif
#if __has_include(<glm/gtx/dual_quaternion.hpp>)
#define HAVE_GLM 1
#define GLM_ENABLE_EXPERIMENTAL
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/norm.hpp>            /* length2, used by dual_quaternion.inl */
#include <glm/gtx/dual_quaternion.hpp>
#endif
/* after the C++ headers: cmocka defines macros (fail, ...) that clash with
 * them; its header has no extern "C" of its own */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}
#include "skb_test.h"

#define N_ORACLE 300

#ifdef HAVE_EIGEN
static void random_quat(gsl_rng *r, double maxangle, struct skb_quat *q)
{
    double axis[3];
    gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
    skb_quat_from_axis_angle(axis, gsl_rng_uniform(r) * maxangle, q);
    if (gsl_rng_uniform(r) < 0.5) {   /* either sign: both represent the rotation */
        q->w = -q->w; q->x = -q->x; q->y = -q->y; q->z = -q->z;
    }
}

static Eigen::Matrix4d to_eigen(const double m[16])
{
    Eigen::Matrix4d e;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            e(i, j) = m[4 * i + j];
    return e;
}

static double eigen_diff(const Eigen::Matrix4d &a, const double m[16])
{
    return (a - to_eigen(m)).cwiseAbs().maxCoeff();
}

/* the twist matrix [omega^ v; 0 0] of (omega, v) */
static Eigen::Matrix4d twist(const double om[3], const double v[3])
{
    Eigen::Matrix4d t = Eigen::Matrix4d::Zero();
    t(0, 1) = -om[2]; t(0, 2) = om[1]; t(1, 0) = om[2];
    t(1, 2) = -om[0]; t(2, 0) = -om[1]; t(2, 1) = om[0];
    t(0, 3) = v[0]; t(1, 3) = v[1]; t(2, 3) = v[2];
    return t;
}
#endif

/* skb_quat_slerp and the rotation part of sclerp against Eigen's slerp */
static void test_eigen_slerp(void **state)
{
#ifdef HAVE_EIGEN
    gsl_rng *r = skb_test_rng();
    const struct skb_method *sclerp = skb_method_find("sclerp");
    assert_non_null(sclerp);
    for (int k = 0; k < N_ORACLE; k++) {
        struct skb_quat a, b, s;
        double t = gsl_rng_uniform(r), rs[9];
        random_quat(r, 0.95 * SKB_PI, &a);
        random_quat(r, 0.95 * SKB_PI, &b);
        skb_quat_slerp(&a, &b, t, &s);
        Eigen::Quaterniond ea(a.w, a.x, a.y, a.z), eb(b.w, b.x, b.y, b.z);
        Eigen::Matrix3d er = ea.slerp(t, eb).toRotationMatrix();
        skb_quat_to_mat3(&s, rs);
        double e = 0;
        for (int i = 0; i < 9; i++)
            e = fmax(e, fabs(rs[i] - er(i / 3, i % 3)));
        if (e > TOL_TIGHT)
            fail_msg("case %d: skb_quat_slerp vs Eigen slerp: %.3g", k, e);

        /* sclerp: its rotation part is the SLERP of the rotation parts */
        double mats[32], out[16], w[2] = { 1 - t, t }, ta[3], tb[3], ra[9], rb[9];
        for (int i = 0; i < 3; i++) {
            ta[i] = 2 * gsl_rng_uniform(r) - 1;
            tb[i] = 2 * gsl_rng_uniform(r) - 1;
        }
        skb_quat_to_mat3(&a, ra);
        skb_quat_to_mat3(&b, rb);
        skb_mat4_from_rt(ra, ta, mats);
        skb_mat4_from_rt(rb, tb, mats + 16);
        struct skb_blend_in in = { 2, w, mats, NULL };
        char msg[256];
        if (skb_blend(sclerp, &in, NULL, out, NULL, msg, sizeof msg) < 0)
            fail_msg("sclerp: %s", msg);
        e = 0;
        for (int i = 0; i < 9; i++)
            e = fmax(e, fabs(out[4 * (i / 3) + i % 3] - er(i / 3, i % 3)));
        if (e > TOL_TIGHT)
            fail_msg("case %d: sclerp rotation vs Eigen slerp: %.3g", k, e);
    }
    gsl_rng_free(r);
#else
    print_message("Eigen headers not found (apt-get install libeigen3-dev)\n");
    skip();
#endif
}

/* skb_mat4_log_rigid / exp_rigid and logm's blend against Eigen's matrix
 * log / exp (angles below pi: the principal log is then unique) */
static void test_eigen_logexp(void **state)
{
#ifdef HAVE_EIGEN
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_ORACLE; k++) {
        double m[16], om[3], v[3], back[16];
        skb_test_random_rigid(r, 0.9 * SKB_PI, 3, m);
        skb_mat4_log_rigid(m, om, v);
        Eigen::Matrix4d el = to_eigen(m).log();
        double e = (el - twist(om, v)).cwiseAbs().maxCoeff();
        if (e > TOL_TIGHT)
            fail_msg("case %d: skb_mat4_log_rigid vs Eigen log: %.3g", k, e);
        skb_mat4_exp_rigid(om, v, back);
        Eigen::Matrix4d ee = twist(om, v).exp();
        e = eigen_diff(ee, back);
        if (e > TOL_TIGHT)
            fail_msg("case %d: skb_mat4_exp_rigid vs Eigen exp: %.3g", k, e);
    }
    /* logm blend = exp(sum_i w_i log M_i) (thesis 4.1) */
    const struct skb_method *logm = skb_method_find("logm");
    if (!logm)
        fail_msg("method logm is not in the registry");
    for (int k = 0; k < N_ORACLE; k++) {
        double mats[48], w[3], out[16], c[3] = { 0, 0, 0 };
        Eigen::Matrix4d sum = Eigen::Matrix4d::Zero();
        skb_test_random_weights(r, 3, w);
        for (int i = 0; i < 3; i++) {
            skb_test_random_rigid(r, 0.9 * SKB_PI, 3, mats + 16 * i);
            sum += w[i] * to_eigen(mats + 16 * i).log();
        }
        struct skb_blend_in in = { 3, w, mats, c };
        char msg[256];
        if (skb_blend(logm, &in, NULL, out, NULL, msg, sizeof msg) < 0)
            fail_msg("logm: %s", msg);
        double e = eigen_diff(sum.exp(), out);
        if (e > TOL_TIGHT)
            fail_msg("case %d: logm vs Eigen exp(sum w log M): %.3g", k, e);
    }
    gsl_rng_free(r);
#else
    print_message("Eigen headers not found (apt-get install libeigen3-dev)\n");
    skip();
#endif
}

/* skb_dq_from_mat4 / to_mat4 against glm's dualquat_cast / mat3x4_cast */
static void test_glm_dual_quaternion(void **state)
{
#ifdef HAVE_GLM
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_ORACLE; k++) {
        double m[16], back[16];
        struct skb_dq q;
        skb_test_random_rigid(r, SKB_PI, 3, m);
        skb_dq_from_mat4(m, &q);
        glm::dmat3x4 gm;   /* glm: gm[i] is row i of the 3x4 */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                gm[i][j] = m[4 * i + j];
        glm::ddualquat g = glm::dualquat_cast(gm);
        double s = g.real.w * q.r.w + g.real.x * q.r.x + g.real.y * q.r.y + g.real.z * q.r.z < 0 ? -1 : 1;
        double ours[8] = { q.r.w, q.r.x, q.r.y, q.r.z, q.d.w, q.d.x, q.d.y, q.d.z };
        double theirs[8] = { g.real.w, g.real.x, g.real.y, g.real.z, g.dual.w, g.dual.x, g.dual.y, g.dual.z };
        for (int i = 0; i < 8; i++)
            if (fabs(ours[i] - s * theirs[i]) > TOL_TIGHT)
                fail_msg("case %d: skb_dq_from_mat4 vs glm dualquat_cast, component %d: %.17g vs %.17g",
                         k, i, ours[i], s * theirs[i]);
        /* back: glm converts our dual quaternion, we convert it too */
        glm::ddualquat gq(glm::dquat(q.r.w, q.r.x, q.r.y, q.r.z), glm::dquat(q.d.w, q.d.x, q.d.y, q.d.z));
        glm::dmat3x4 gb = glm::mat3x4_cast(gq);
        skb_dq_to_mat4(&q, back);
        double e = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                e = fmax(e, fabs(back[4 * i + j] - gb[i][j]));
        if (e > TOL_TIGHT)
            fail_msg("case %d: skb_dq_to_mat4 vs glm mat3x4_cast: %.3g", k, e);
    }
    gsl_rng_free(r);
#else
    print_message("glm headers not found (apt-get install libglm-dev)\n");
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eigen_slerp),
        cmocka_unit_test(test_eigen_logexp),
        cmocka_unit_test(test_glm_dual_quaternion),
    };
    return cmocka_run_group_tests_name("oracles", tests, NULL, NULL);
}
