/* test_blend_properties.c — what each blend does to two joints, against the
 * worked examples and lemmas of the seeds: the rotation-centre drift of
 * QLB'0 (DQ paper 2.2), log-matrix axis-angle recovery, QLB vs SLERP
 * (thesis Lemma 3.1, 3.2), the lecture's six vertices and the candy wrapper
 * (seed 004), sclerp's properties (thesis 4.3) and DLB on rigid inputs
 * (DQ paper 3.2). */

#include "skb_test_blend.h"

/* thesis Lemma 3.2: QLB and SLERP rotation angles differ by < 8.15 degrees */
#define QLB_SLERP_MAX_GAP (8.15 * DEG)

/* DQ paper 2.2: shoulder C_j1 = I, elbow bent by alpha about z; expressed
 * about the shoulder (u = shoulder -> elbow) C'_j2 = T_u Rz(alpha) T_u^-1.
 * QLB'_0 rotates about the shoulder and moves the elbow to
 * u'(1/2) = (2.5, sqrt(3)/2, 0); SB (centre = the shared point, the elbow)
 * and QB about the elbow keep it at u. */
static void test_rotation_centre_drift(void **state)
{
    const double z[3] = { 0, 0, 1 }, u[3] = { 2, 0, 0 }, o[3] = { 0, 0, 0 };
    double id[16], c2[16], b[16], e[3];
    skb_mat4_identity(id);
    screw(z, 120 * DEG, u, 0, c2);
    blend_pair(need("qlb0"), id, c2, 0.5, NULL, NULL, b);
    skb_mat4_apply(b, u, e);
    assert_near(e[0], 2.5, TOL_TIGHT);
    assert_near(e[1], sqrt(3) / 2, TOL_TIGHT);
    assert_near(e[2], 0, TOL_TIGHT);
    blend_pair(need("sb"), id, c2, 0.5, NULL, NULL, b);
    skb_mat4_apply(b, u, e);
    for (int i = 0; i < 3; i++)
        assert_near(e[i], u[i], TOL_TIGHT);
    blend_pair(need("qb"), id, c2, 0.5, u, NULL, b);
    skb_mat4_apply(b, u, e);
    for (int i = 0; i < 3; i++)
        assert_near(e[i], u[i], TOL_TIGHT);
    /* QB about the shoulder is QLB'_0 (the drift again) */
    blend_pair(need("qb"), id, c2, 0.5, o, NULL, b);
    skb_mat4_apply(b, u, e);
    assert_near(e[0], 2.5, TOL_TIGHT);
    assert_near(e[1], sqrt(3) / 2, TOL_TIGHT);
}

/* log-matrix blending of I and a screw motion with weights (1-t, t) is the
 * same screw with angle t theta and slide t d (log C = the twist) */
static void test_logm_axis_angle(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *lm = need("logm");
    const double o[3] = { 0, 0, 0 };
    for (int k = 0; k < N_RANDOM; k++) {
        double axis[3], p[3], id[16], c[16], want[16], got[16];
        double th = 0.95 * SKB_PI * gsl_rng_uniform(r), t = gsl_rng_uniform(r), d = 2 * gsl_rng_uniform(r) - 1;
        skb_mat4_identity(id);
        random_unit(r, axis);
        screw(axis, th, o, 0, c);                 /* rotation about the origin */
        screw(axis, t * th, o, 0, want);
        blend_pair(lm, id, c, t, NULL, NULL, got);
        if (skb_test_mat_diff(got, want, 16) > TOL_TIGHT)
            fail_msg("rotation: theta %g t %g: error %.3g", th, t, skb_test_mat_diff(got, want, 16));
        random_point(r, 3, p);
        screw(axis, th, p, d, c);                 /* general screw */
        screw(axis, t * th, p, t * d, want);
        blend_pair(lm, id, c, t, NULL, NULL, got);
        if (skb_test_mat_diff(got, want, 16) > TOL_TIGHT)
            fail_msg("screw: theta %g t %g d %g: error %.3g", th, t, d, skb_test_mat_diff(got, want, 16));
    }
    gsl_rng_free(r);
}

/* thesis Lemma 3.1/3.2: QLB = p r_l(t), SLERP = p r_s(t) with r_l, r_s about
 * one fixed axis; the angles agree at t = 1/2 (and 0, 1) and differ by less
 * than 8.15 degrees elsewhere.  Two rotations about one axis through the
 * origin: at t = 1/2 QLB'_0 is the rotation by the mean angle. */
static void test_qlb0_vs_slerp(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *q0 = need("qlb0");
    const double o[3] = { 0, 0, 0 };
    double worst_gap = 0, gap_quarter = 0;
    for (int k = 0; k < N_RANDOM; k++) {
        double axis[3], m1[16], m2[16], b[16], want[16];
        double a1 = 2 * SKB_PI * gsl_rng_uniform(r) - SKB_PI, a2 = 2 * SKB_PI * gsl_rng_uniform(r) - SKB_PI;
        random_unit(r, axis);
        screw(axis, a1, o, 0, m1);
        screw(axis, a2, o, 0, m2);
        blend_pair(q0, m1, m2, 0.5, NULL, NULL, b);
        /* the mean along the shorter arc: angles that differ by more than pi
         * go the other way round */
        double mid = fabs(a2 - a1) <= SKB_PI ? (a1 + a2) / 2 : (a1 + a2) / 2 + SKB_PI;
        screw(axis, mid, o, 0, want);
        if (skb_test_mat_diff(b, want, 16) > TOL_TIGHT)
            fail_msg("a1 %g a2 %g: t=1/2 error %.3g", a1, a2, skb_test_mat_diff(b, want, 16));
    }
    for (int k = 0; k < N_RANDOM; k++) {
        double m1[16], m2[16], b[16], t = gsl_rng_uniform(r);
        struct skb_quat p, q, ql, qs, pc, rl, rs;
        skb_test_random_rigid(r, SKB_PI, 1, m1);
        skb_test_random_rigid(r, SKB_PI, 1, m2);
        blend_pair(q0, m1, m2, t, NULL, NULL, b);
        rot_quat(m1, &p); rot_quat(m2, &q); rot_quat(b, &ql);
        if (skb_quat_dot(&ql, &p) < 0)
            skb_quat_scale(&ql, -1, &ql);
        skb_quat_slerp(&p, &q, t, &qs);
        skb_quat_conj(&p, &pc);
        skb_quat_mul(&pc, &ql, &rl);
        skb_quat_mul(&pc, &qs, &rs);
        double vl[3] = { rl.x, rl.y, rl.z }, vs[3] = { rs.x, rs.y, rs.z }, x[3];
        double nl = skb_v3_norm(vl), ns = skb_v3_norm(vs);
        if (nl < 1e-6 || ns < 1e-6)
            continue;
        skb_v3_cross(vl, vs, x);
        assert_near(skb_v3_norm(x) / (nl * ns), 0, 1e-9);        /* same axis */
        assert_true(skb_v3_dot(vl, vs) > 0);
        double gap = fabs(2 * atan2(nl, rl.w) - 2 * atan2(ns, rs.w));
        worst_gap = fmax(worst_gap, gap);
    }
    print_message("QLB vs SLERP: worst angle gap %.4f deg (bound %.2f)\n", worst_gap / DEG,
                  QLB_SLERP_MAX_GAP / DEG);
    assert_true(worst_gap < QLB_SLERP_MAX_GAP);
    /* not SLERP: I and a 170 deg rotation at t = 1/4 differ in angle */
    {
        const double zx[3] = { 1, 0, 0 };
        double id[16], m[16], b[16];
        struct skb_quat q;
        skb_mat4_identity(id);
        screw(zx, 170 * DEG, o, 0, m);
        blend_pair(q0, id, m, 0.25, NULL, NULL, b);
        rot_quat(b, &q);
        gap_quarter = fabs(2 * atan2(sqrt(q.x * q.x + q.y * q.y + q.z * q.z), q.w) - 0.25 * 170 * DEG);
        assert_true(gap_quarter > 1 * DEG);
    }
    gsl_rng_free(r);
}

/* the lecture's six vertices (seed 004, "Homogeneous Mat VS DQ"): J1 at the
 * origin twisted 180 deg about x, J2 at (2,0,0) left alone */
static void test_lecture_six_vertices(void **state)
{
    double pos[18] = { 0, 2.5, 0,  1, 2.5, 0,  2, 2.5, 0,  0, -2.5, 0,  1, -2.5, 0,  2, -2.5, 0 };
    double wrow[6][2] = { { 1, 0 }, { 0.5, 0.5 }, { 0, 1 }, { 1, 0 }, { 0.5, 0.5 }, { 0, 1 } };
    int joint[24];
    double weight[24], mats[32], out[18];
    for (int v = 0; v < 6; v++)
        for (int k = 0; k < 4; k++) {
            joint[4 * v + k] = k < 2 ? k : 0;
            weight[4 * v + k] = k < 2 ? wrow[v][k] : 0;
        }
    rot_x(SKB_PI, mats);            /* M1 of the lecture */
    skb_mat4_identity(mats + 16);   /* M2 */
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = 6; mesh.njoints = 2; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { 2, mats, NULL };
    struct skb_skinner s;
    char msg[256];

    /* LBS: P2 and P5 both collapse to (1,0,0) */
    assert_int_equal(skb_skin_init(&s, need("linear"), &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    skb_skin_fini(&s);
    double lbs[18] = { 0, -2.5, 0,  1, 0, 0,  2, 2.5, 0,  0, 2.5, 0,  1, 0, 0,  2, -2.5, 0 };
    assert_true(skb_test_mat_diff(out, lbs, 18) < TOL_EXACT);

    /* DLB: P2, P5 go to (1,0,-+2.5) (the lecture's Q* P Q convention gives the
     * mirror image of ours, q P q*): 5 apart; the others as under LBS */
    const char *dq_methods[] = { "dlb", "dib", "dlb_scale" };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(skb_skin_init(&s, need(dq_methods[i]), &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
        skb_skin_fini(&s);
        double d[3] = { out[3] - out[12], out[4] - out[13], out[5] - out[14] };
        assert_near(skb_v3_norm(d), 5, TOL_TIGHT);
        assert_near(out[3], 1, TOL_TIGHT);
        assert_near(out[4], 0, TOL_TIGHT);
        assert_near(fabs(out[5]), 2.5, TOL_TIGHT);
        for (int v = 0; v < 6; v++)
            if (v != 1 && v != 4)
                for (int k = 0; k < 3; k++)
                    assert_near(out[3 * v + k], lbs[3 * v + k], TOL_TIGHT);
    }
    /* the blend path gives the same for P2 */
    double b[16], p[3];
    assert_int_equal(blend2(need("dlb"), mats, 0.5, NULL, b, NULL), 0);
    skb_mat4_apply(b, pos + 3, p);
    assert_near(fabs(p[2]), 2.5, TOL_TIGHT);
}

/* candy wrapper: two joints, 180 deg twist about the bone axis x, weights
 * 1/2: LBS collapses the vertex onto the axis, rigid blends keep its radius */
static void test_candy_wrapper(void **state)
{
    double mats[32], out[16], p[3], x[3] = { 1, 0.7, 0.4 };
    double r0 = sqrt(x[1] * x[1] + x[2] * x[2]);
    skb_mat4_identity(mats);
    rot_x(SKB_PI, mats + 16);
    assert_int_equal(blend2(need("linear"), mats, 0.5, NULL, out, NULL), 0);
    skb_mat4_apply(out, x, p);
    assert_near(sqrt(p[1] * p[1] + p[2] * p[2]), 0, TOL_EXACT);
    const char *keep[] = { "dlb", "dib", "sclerp", "sb", "logm" };
    for (int i = 0; i < 5; i++) {
        const struct skb_method *m = need(keep[i]);   /* a missing method fails */
        assert_int_equal(blend2(m, mats, 0.5, NULL, out, NULL), 0);
        skb_mat4_apply(out, x, p);
        if (fabs(sqrt(p[1] * p[1] + p[2] * p[2]) - r0) > TOL_TIGHT)
            fail_msg("%s: distance from the axis %.17g, rest %.17g", m->name,
                     sqrt(p[1] * p[1] + p[2] * p[2]), r0);
        assert_near(p[0], x[0], TOL_TIGHT);
    }
}

/* ScLERP basics: pure translation is interpolated linearly; left and right
 * invariance (thesis Lemma 4.4); the rotation follows SLERP */
static void test_sclerp_properties(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *m = need("sclerp");
    double mats[32], out[16];
    skb_mat4_identity(mats);
    skb_mat4_identity(mats + 16);
    mats[16 + 3] = 2; mats[16 + 7] = -4; mats[16 + 11] = 1;
    assert_int_equal(blend2(m, mats, 0.25, NULL, out, NULL), 0);
    assert_near(out[3], 0.5, TOL_TIGHT);
    assert_near(out[7], -1, TOL_TIGHT);
    assert_near(out[11], 0.25, TOL_TIGHT);
    for (int k = 0; k < N_RANDOM; k++) {
        double a[32], rr[16], l[32], rt[32], o1[16], o2[16], ro[16], t = gsl_rng_uniform(r);
        skb_test_random_rigid(r, 0.95 * SKB_PI, 3, a);
        skb_test_random_rigid(r, 0.95 * SKB_PI, 3, a + 16);
        skb_test_random_rigid(r, SKB_PI, 3, rr);
        assert_int_equal(blend2(m, a, t, NULL, out, NULL), 0);
        for (int i = 0; i < 2; i++) {
            skb_mat4_mul(rr, a + 16 * i, l + 16 * i);
            skb_mat4_mul(a + 16 * i, rr, rt + 16 * i);
        }
        assert_int_equal(blend2(m, l, t, NULL, o1, NULL), 0);
        assert_int_equal(blend2(m, rt, t, NULL, o2, NULL), 0);
        skb_mat4_mul(rr, out, ro);
        assert_true(skb_test_mat_diff(o1, ro, 16) < TOL_TIGHT * 10);
        skb_mat4_mul(out, rr, ro);
        assert_true(skb_test_mat_diff(o2, ro, 16) < TOL_TIGHT * 10);
        /* rotation part = SLERP of the rotation parts */
        struct skb_dq p, q;
        struct skb_quat s;
        double rs[9], ro9[9], tt[3];
        skb_dq_from_mat4(a, &p);
        skb_dq_from_mat4(a + 16, &q);
        skb_quat_slerp(&p.r, &q.r, t, &s);
        skb_quat_to_mat3(&s, rs);
        skb_mat4_to_rt(out, ro9, tt);
        assert_true(skb_test_mat_diff(rs, ro9, 9) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

/* DLB output is a rigid transform (the dual normalisation), and for two
 * transforms it lies on ScLERP's screw axis (thesis 4.3) */
static void test_dlb_rigid(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double a[64], w[4], out[16], c[3] = { 0, 0, 0 };
        char msg[256];
        for (int i = 0; i < 4; i++)
            skb_test_random_rigid(r, 0.9 * SKB_PI, 3, a + 16 * i);
        skb_test_random_weights(r, 4, w);
        struct skb_blend_in in = { 4, w, a, c };
        assert_int_equal(skb_blend(need("dlb"), &in, NULL, out, NULL, msg, sizeof msg), 0);
        assert_true(skb_mat4_rigid_error(out) < TOL_TIGHT);
        /* dual part orthogonal to the real part after normalisation */
        struct skb_dq q[4], b, u;
        for (int i = 0; i < 4; i++)
            skb_dq_from_mat4(a + 16 * i, &q[i]);
        assert_int_equal(skb__dlb_sum(4, w, q, SKB_ANTIPODAL_PIVOT, &b), 0);
        assert_int_equal(skb_dq_normalize(&b, &u), 0);
        double o2[16];
        skb_dq_to_mat4(&u, o2);
        assert_true(skb_test_mat_diff(o2, out, 16) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rotation_centre_drift),
        cmocka_unit_test(test_logm_axis_angle),
        cmocka_unit_test(test_qlb0_vs_slerp),
        cmocka_unit_test(test_lecture_six_vertices),
        cmocka_unit_test(test_candy_wrapper),
        cmocka_unit_test(test_sclerp_properties),
        cmocka_unit_test(test_dlb_rigid),
    };
    return cmocka_run_group_tests_name("blend_properties", tests, NULL, NULL);
}
