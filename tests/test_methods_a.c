/* test_methods_a.c — QLB'0, SB, log-matrix and QB against the worked
 * examples and lemmas of the seeds: the rotation-centre drift (DQ paper 2.2),
 * SB's shared-point centre (thesis 3.1), log-matrix axis-angle recovery,
 * QB's fixed centre, QLB vs SLERP (thesis Lemma 3.1), antipodality
 * (DQ paper Algorithm 2), SB's SVD count and QB's default centre. */
#include "skb_test.h"
#include "skb_sb_internal.h"
#include "skb_fast.h"

#define N_RANDOM 200
#define DEG (SKB_PI / 180)
/* thesis Lemma 3.2: QLB and SLERP rotation angles differ by < 8.15 degrees */
#define QLB_SLERP_MAX_GAP (8.15 * DEG)

static const struct skb_method *method(const char *name)
{
    const struct skb_method *m = skb_method_find(name);
    if (!m)
        fail_msg("method %s is not registered", name);
    return m;
}

/* rotation by angle about the unit axis through the point p, then a slide
 * d along the axis: a screw motion (thesis eq. 2.4) */
static void screw(const double axis[3], double angle, const double p[3], double d, double m[16])
{
    double rot[9], t[3];
    struct skb_quat q;
    skb_quat_from_axis_angle(axis, angle, &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)
        t[i] = p[i] - (rot[3 * i] * p[0] + rot[3 * i + 1] * p[1] + rot[3 * i + 2] * p[2]) + d * axis[i];
    skb_mat4_from_rt(rot, t, m);
}

static void blend2(const struct skb_method *m, const double *a, const double *b, double t,
                   const double *center, const struct skb_params *prm, double out[16])
{
    double mats[32], w[2] = { 1 - t, t };
    char msg[256];
    memcpy(mats, a, sizeof(double) * 16);
    memcpy(mats + 16, b, sizeof(double) * 16);
    struct skb_blend_in in = { 2, w, mats, center };
    if (skb_blend(m, &in, prm, out, NULL, msg, sizeof msg) < 0)
        fail_msg("%s: %s", m->name, msg);
}

static void random_unit(gsl_rng *r, double v[3])
{
    gsl_ran_dir_3d(r, &v[0], &v[1], &v[2]);
}

static void random_point(gsl_rng *r, double scale, double v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = scale * (2 * gsl_rng_uniform(r) - 1);
}

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
    blend2(method("qlb0"), id, c2, 0.5, NULL, NULL, b);
    skb_mat4_apply(b, u, e);
    assert_near(e[0], 2.5, TOL_TIGHT);
    assert_near(e[1], sqrt(3) / 2, TOL_TIGHT);
    assert_near(e[2], 0, TOL_TIGHT);
    blend2(method("sb"), id, c2, 0.5, NULL, NULL, b);
    skb_mat4_apply(b, u, e);
    for (int i = 0; i < 3; i++)
        assert_near(e[i], u[i], TOL_TIGHT);
    blend2(method("qb"), id, c2, 0.5, u, NULL, b);
    skb_mat4_apply(b, u, e);
    for (int i = 0; i < 3; i++)
        assert_near(e[i], u[i], TOL_TIGHT);
    /* QB about the shoulder is QLB'_0 (the drift again) */
    blend2(method("qb"), id, c2, 0.5, o, NULL, b);
    skb_mat4_apply(b, u, e);
    assert_near(e[0], 2.5, TOL_TIGHT);
    assert_near(e[1], sqrt(3) / 2, TOL_TIGHT);
}

/* thesis 3.1: two joints with C_a p = C_b p.  The solutions of eq. 3.1 are the
 * line p + s u (u the axis of C_a^-1 C_b); the minimal-norm one is the foot
 * of the perpendicular from the origin, p itself when p is orthogonal to u.
 * Any weights then fix p: v' = C_a p. */
static void test_sb_shared_point(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *sb = method("sb");
    for (int k = 0; k < N_RANDOM; k++) {
        double ca[16], rel[16], cb[16], u[3], p[3], c[3], q[3], b[16], e[3], e0[3];
        const double *set[3];
        skb_test_random_rigid(r, 0.9 * SKB_PI, 3, ca);
        random_unit(r, u);
        random_point(r, 2, p);
        screw(u, (0.1 + 0.8 * gsl_rng_uniform(r)) * SKB_PI, p, 0, rel);   /* fixes p */
        skb_mat4_mul(ca, rel, cb);                                          /* C_b p = C_a p */
        set[0] = ca; set[1] = cb;
        assert_int_equal(skb_rotcenter(2, set, c), 0);
        double pu = skb_v3_dot(p, u);
        for (int i = 0; i < 3; i++)
            assert_near(c[i], p[i] - pu * u[i], 1e-8);
        /* p orthogonal to the axis: the centre is p */
        for (int i = 0; i < 3; i++)
            q[i] = p[i] - pu * u[i];
        screw(u, 0.7 * SKB_PI, q, 0, rel);
        skb_mat4_mul(ca, rel, cb);
        assert_int_equal(skb_rotcenter(2, set, c), 0);
        for (int i = 0; i < 3; i++)
            assert_near(c[i], q[i], 1e-8);
        /* and the blend fixes every point of the line, for any weight */
        blend2(sb, ca, cb, gsl_rng_uniform(r), NULL, NULL, b);
        skb_mat4_apply(b, p, e);
        skb_mat4_apply(ca, p, e0);
        for (int i = 0; i < 3; i++)
            assert_near(e[i], e0[i], 1e-8);
    }
    gsl_rng_free(r);
}

/* three joints sharing p with different relative axes: a unique exact
 * solution, r_c = p; equal rotations (D = 0): r_c = 0 and SB is QLB'_0 */
static void test_sb_centre_unique_and_degenerate(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double c0[16], rel[16], c1[16], c2[16], u[3], p[3], c[3], w[3], mats[48], a[16], b[16];
        const double *set[3] = { c0, c1, c2 };
        skb_test_random_rigid(r, 0.9 * SKB_PI, 3, c0);
        random_point(r, 2, p);
        random_unit(r, u);
        screw(u, 0.5 + gsl_rng_uniform(r), p, 0, rel);
        skb_mat4_mul(c0, rel, c1);
        random_unit(r, u);
        screw(u, 0.5 + gsl_rng_uniform(r), p, 0, rel);
        skb_mat4_mul(c0, rel, c2);
        assert_int_equal(skb_rotcenter(3, set, c), 0);
        for (int i = 0; i < 3; i++)
            assert_near(c[i], p[i], 1e-8);
        /* pure translations of one rotation: D = 0, the minimal-norm solution is 0 */
        memcpy(c1, c0, sizeof c1);
        memcpy(c2, c0, sizeof c2);
        c1[3] += 1; c2[7] -= 2;
        assert_int_equal(skb_rotcenter(3, set, c), 0);
        for (int i = 0; i < 3; i++)
            assert_near(c[i], 0, TOL_EXACT);
        memcpy(mats, c0, sizeof c0); memcpy(mats + 16, c1, sizeof c1); memcpy(mats + 32, c2, sizeof c2);
        skb_test_random_weights(r, 3, w);
        struct skb_blend_in in = { 3, w, mats, NULL };
        assert_int_equal(skb_blend(method("sb"), &in, NULL, a, NULL, NULL, 0), 0);
        assert_int_equal(skb_blend(method("qlb0"), &in, NULL, b, NULL, NULL, 0), 0);
        assert_true(skb_test_mat_diff(a, b, 16) < TOL_TIGHT);
    }
    assert_int_equal(skb_rotcenter(0, NULL, NULL), -1);
    gsl_rng_free(r);
}

/* log-matrix blending of I and a screw motion with weights (1-t, t) is the
 * same screw with angle t theta and slide t d (log C = the twist) */
static void test_logm_axis_angle(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *lm = method("logm");
    const double o[3] = { 0, 0, 0 };
    for (int k = 0; k < N_RANDOM; k++) {
        double axis[3], p[3], id[16], c[16], want[16], got[16];
        double th = 0.95 * SKB_PI * gsl_rng_uniform(r), t = gsl_rng_uniform(r), d = 2 * gsl_rng_uniform(r) - 1;
        skb_mat4_identity(id);
        random_unit(r, axis);
        screw(axis, th, o, 0, c);                 /* rotation about the origin */
        screw(axis, t * th, o, 0, want);
        blend2(lm, id, c, t, NULL, NULL, got);
        if (skb_test_mat_diff(got, want, 16) > TOL_TIGHT)
            fail_msg("rotation: theta %g t %g: error %.3g", th, t, skb_test_mat_diff(got, want, 16));
        random_point(r, 3, p);
        screw(axis, th, p, d, c);                 /* general screw */
        screw(axis, t * th, p, t * d, want);
        blend2(lm, id, c, t, NULL, NULL, got);
        if (skb_test_mat_diff(got, want, 16) > TOL_TIGHT)
            fail_msg("screw: theta %g t %g d %g: error %.3g", th, t, d, skb_test_mat_diff(got, want, 16));
    }
    gsl_rng_free(r);
}

/* QB about c of rotations about c: c stays fixed, and the result is
 * T_c QLB'_0(T_c^-1 C_i T_c) T_c^-1 (thesis Lemma 3.3) */
static void test_qb_keeps_centre(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double c[3], a1[3], a2[3], m1[16], m2[16], b[16], e[3], t[16], ti[16], l1[16], l2[16], tmp[16], b0[16], want[16];
        random_point(r, 3, c);
        random_unit(r, a1);
        random_unit(r, a2);
        screw(a1, 0.9 * SKB_PI * gsl_rng_uniform(r), c, 0, m1);
        screw(a2, 0.9 * SKB_PI * gsl_rng_uniform(r), c, 0, m2);
        double w = gsl_rng_uniform(r);
        blend2(method("qb"), m1, m2, w, c, NULL, b);
        skb_mat4_apply(b, c, e);
        for (int i = 0; i < 3; i++)
            assert_near(e[i], c[i], TOL_TIGHT);
        skb_mat4_identity(t);
        t[3] = c[0]; t[7] = c[1]; t[11] = c[2];
        skb_mat4_inv_rigid(t, ti);
        skb_mat4_mul(ti, m1, tmp); skb_mat4_mul(tmp, t, l1);
        skb_mat4_mul(ti, m2, tmp); skb_mat4_mul(tmp, t, l2);
        blend2(method("qlb0"), l1, l2, w, NULL, NULL, b0);
        skb_mat4_mul(t, b0, tmp); skb_mat4_mul(tmp, ti, want);
        assert_true(skb_test_mat_diff(b, want, 16) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

/* rotation quaternion of a blended matrix */
static void rot_quat(const double m[16], struct skb_quat *q)
{
    double rot[9], t[3];
    skb_mat4_to_rt(m, rot, t);
    skb_quat_from_mat3(rot, q);
}

/* thesis Lemma 3.1/3.2: QLB = p r_l(t), SLERP = p r_s(t) with r_l, r_s about
 * one fixed axis; the angles agree at t = 1/2 (and 0, 1) and differ by less
 * than 8.15 degrees elsewhere.  Two rotations about one axis through the
 * origin: at t = 1/2 QLB'_0 is the rotation by the mean angle. */
static void test_qlb0_vs_slerp(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *q0 = method("qlb0");
    const double o[3] = { 0, 0, 0 };
    double worst_gap = 0, gap_quarter = 0;
    for (int k = 0; k < N_RANDOM; k++) {
        double axis[3], m1[16], m2[16], b[16], want[16];
        double a1 = 2 * SKB_PI * gsl_rng_uniform(r) - SKB_PI, a2 = 2 * SKB_PI * gsl_rng_uniform(r) - SKB_PI;
        random_unit(r, axis);
        screw(axis, a1, o, 0, m1);
        screw(axis, a2, o, 0, m2);
        blend2(q0, m1, m2, 0.5, NULL, NULL, b);
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
        blend2(q0, m1, m2, t, NULL, NULL, b);
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
        blend2(q0, id, m, 0.25, NULL, NULL, b);
        rot_quat(b, &q);
        gap_quarter = fabs(2 * atan2(sqrt(q.x * q.x + q.y * q.y + q.z * q.z), q.w) - 0.25 * 170 * DEG);
        assert_true(gap_quarter > 1 * DEG);
    }
    gsl_rng_free(r);
}

/* DQ paper 4.1, Algorithm 2.  Matrices cannot carry a quaternion's sign, but
 * rotations more than 180 degrees apart (<q1, q2> < 0 for the w >= 0
 * quaternions of the matrices) show it: with the pivot fix the blend of
 * rot(x, 170) and rot(-x, 170) takes the short way (rot(x, 180)), without it
 * the long way (identity). */
static void test_antipodality(void **state)
{
    const char *names[] = { "qlb0", "qb", "sb" };
    const double x[3] = { 1, 0, 0 }, mx[3] = { -1, 0, 0 }, o[3] = { 0, 0, 0 };
    double m1[16], m2[16], a[16], b[16];
    struct skb_params prm;
    struct skb_quat q1, q2, nq2, s, sn, sf;
    screw(x, 170 * DEG, o, 0, m1);
    screw(mx, 170 * DEG, o, 0, m2);
    for (int i = 0; i < 3; i++) {
        const struct skb_method *m = method(names[i]);
        skb_params_default(&prm);
        blend2(m, m1, m2, 0.5, o, &prm, a);
        prm.antipodal = SKB_ANTIPODAL_NONE;
        blend2(m, m1, m2, 0.5, o, &prm, b);
        assert_near(a[0], 1, TOL_TIGHT); assert_near(a[5], -1, TOL_TIGHT); assert_near(a[10], -1, TOL_TIGHT);
        assert_near(b[0], 1, TOL_TIGHT); assert_near(b[5], 1, TOL_TIGHT); assert_near(b[10], 1, TOL_TIGHT);
    }
    /* at the quaternion level: -q2 in place of q2 changes nothing with the
     * pivot fix, and cancels without it */
    double w[2] = { 0.5, 0.5 };
    struct skb_quat qs[2];
    rot_quat(m1, &q1);
    skb_quat_from_axis_angle(x, 40 * DEG, &q2);
    skb_quat_scale(&q2, -1, &nq2);
    qs[0] = q1; qs[1] = q2;
    skb_quat_blend(2, w, NULL, qs, 1, &s);
    qs[1] = nq2;
    skb_quat_blend(2, w, NULL, qs, 1, &sn);
    assert_near(s.w, sn.w, TOL_EXACT); assert_near(s.x, sn.x, TOL_EXACT);
    skb_quat_blend(2, w, NULL, qs, 0, &sf);
    assert_true(fabs(sf.w - s.w) + fabs(sf.x - s.x) > 0.1);
    /* the pivot is the first term of non-zero weight */
    double w0[3] = { 0, 0.5, 0.5 };
    struct skb_quat q3[3] = { nq2, q2, q2 };
    skb_quat_blend(3, w0, NULL, q3, 1, &sn);
    assert_near(sn.w, q2.w, TOL_EXACT);
}

/* the skin path honours the antipodal setting too (prepare stores it) */
static void test_antipodality_skin(void **state)
{
    const char *names[] = { "qlb0", "qb", "sb" };
    const double x[3] = { 1, 0, 0 }, mx[3] = { -1, 0, 0 }, o[3] = { 0, 0, 0 };
    double pos[3] = { 0, 1, 0 }, nrm[3] = { 0, 0, 1 }, w[4] = { 0.5, 0.5, 0, 0 }, center[3] = { 0, 0, 0 };
    double mats[32], out[3], nout[3];
    int joint[4] = { 0, 1, 0, 0 };
    struct skb_mesh mesh = { 0 };
    struct skb_pose pose = { 2, mats, NULL };
    struct skb_params prm;
    char msg[256];
    mesh.nverts = 1; mesh.njoints = 2;
    mesh.pos = pos; mesh.nrm = nrm; mesh.joint = joint; mesh.weight = w; mesh.center = center;
    screw(x, 170 * DEG, o, 0, mats);
    screw(mx, 170 * DEG, o, 0, mats + 16);
    for (int i = 0; i < 3; i++) {
        struct skb_skinner s;
        assert_int_equal(skb_skin_init(&s, method(names[i]), &mesh, msg, sizeof msg), 0);
        skb_params_default(&prm);
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, out, nout, msg, sizeof msg), 0);
        assert_near(out[1], -1, TOL_TIGHT);            /* rot(x, 180) */
        assert_near(nout[2], -1, TOL_TIGHT);
        prm.antipodal = SKB_ANTIPODAL_NONE;
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, out, nout, msg, sizeof msg), 0);
        assert_near(out[1], 1, TOL_TIGHT);             /* identity: the long way */
        skb_skin_fini(&s);
    }
}

/* a small mesh over a chain 0 -> 1 -> 2 -> 3 */
#define SM_VERTS 7
static const int sm_joint[4 * SM_VERTS] = {
    0, 0, 0, 0,     /* {0}: no SVD */
    0, 1, 0, 0,     /* {0,1} */
    1, 0, 0, 0,     /* {0,1} again, other order */
    0, 1, 2, 0,     /* {0,1,2} */
    2, 2, 0, 0,     /* {2} listed twice: no SVD */
    0, 2, 0, 0,     /* {0,2} */
    1, 0, 2, 1,     /* {0,1,2} with 1 twice */
};
static const double sm_weight[4 * SM_VERTS] = {
    1, 0, 0, 0,
    0.7, 0.3, 0, 0,
    0.4, 0.6, 0, 0,
    0.2, 0.3, 0.5, 0,
    0.5, 0.5, 0, 0,
    0.6, 0.4, 0, 0,
    0.25, 0.25, 0.25, 0.25,
};
#define SM_SETS 3
static const int sm_parent[4] = { -1, 0, 1, 2 };
static const double sm_rest[12] = { 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0 };

/* ... and its pose: random rigid joints from r, or identities when r is NULL */
static void small_mesh(struct skb_mesh *mesh, double *pos, int *joint, double *weight,
                       gsl_rng *r, double mats[64])
{
    for (int j = 0; j < 4; j++)
        if (r)
            skb_test_random_rigid(r, 0.8 * SKB_PI, 1, mats + 16 * j);
        else
            skb_mat4_identity(mats + 16 * j);
    memset(mesh, 0, sizeof *mesh);
    memcpy(joint, sm_joint, sizeof sm_joint);
    memcpy(weight, sm_weight, sizeof sm_weight);
    for (int v = 0; v < SM_VERTS; v++) {
        pos[3 * v] = 0.4 * v;
        pos[3 * v + 1] = 0.3;
        pos[3 * v + 2] = -0.2;
    }
    mesh->nverts = SM_VERTS;
    mesh->njoints = 4;
    mesh->pos = pos;
    mesh->joint = joint;
    mesh->weight = weight;
}

/* the joints of vertex v with non-zero weight, as a bit mask */
static unsigned sm_mask(const int *joint, const double *weight, int v)
{
    unsigned mask = 0;
    for (int k = 0; k < 4; k++)
        if (weight[4 * v + k] != 0)
            mask |= 1u << joint[4 * v + k];
    return mask;
}

/* thesis Table 3.2: one SVD per distinct non-trivial joint set per pose */
static void test_sb_solves_per_joint_set(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS];
    int joint[4 * SM_VERTS];
    struct skb_mesh mesh;
    struct skb_skinner s;
    struct skb_pose_stats ps = { -1, -1, -1 };
    char msg[256];
    const struct skb_method *sb = method("sb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    struct skb_pose pose = { 4, mats, NULL };
    assert_int_equal(skb_skin_init(&s, sb, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    assert_non_null(sb->pose_stats);
    assert_int_equal(sb->pose_stats(&mesh, s.state, &ps), 0);
    assert_int_equal(ps.solves, SM_SETS);
    assert_int_equal(ps.max_iterations, 0);
    /* the farthest rotation centre, solved again per vertex's joint set:
     * minimal distance from the set's rest centroid o, at most 2 extents
     * (sb.c SB_CENTER_BOUND) from it, the extent reaching the set's
     * vertices and the origin (no joint positions here) */
    double far = 0;
    for (int v = 0; v < SM_VERTS; v++) {
        const skb_real *ptr[4];
        unsigned mask = sm_mask(joint, weight, v);
        int n = 0;
        for (int j = 0; j < 4; j++)
            if (mask >> j & 1)
                ptr[n++] = mats + 16 * j;
        skb_real rc[3], o[3] = { 0, 0, 0 }, ext;
        int cnt = 0;
        for (int u = 0; u < SM_VERTS; u++)
            if (sm_mask(joint, weight, u) == mask) {
                for (int k = 0; k < 3; k++)
                    o[k] += pos[3 * u + k];
                cnt++;
            }
        for (int k = 0; k < 3; k++)
            o[k] /= cnt;
        ext = skb_v3_norm(o);
        for (int u = 0; u < SM_VERTS; u++)
            if (sm_mask(joint, weight, u) == mask) {
                double d[3] = { pos[3 * u] - o[0], pos[3 * u + 1] - o[1], pos[3 * u + 2] - o[2] };
                ext = fmax(ext, skb_v3_norm(d));
            }
        if (n >= 2 && skb__rotcenter_bounded(n, ptr, o, 2 * ext, rc) >= 0)
            far = fmax(far, skb_v3_norm(rc));
    }
    assert_true(far > 0);
    assert_true(fabs(ps.max_center_norm - far) <= 1e-9 * far);
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* the small mesh as the chain 0-1-2-3 (sm_parent, sm_rest), posed along
 * it as datasets/poses.c poses: C_j = C_parent L_j, L_j the rotation by
 * angle[j-1] about axis[j-1] (normalised here) through joint j's rest
 * position; C_0 as small_mesh left it */
static void sm_chain(struct skb_mesh *mesh, int parent[4], double rest[12], double axis[3][3], const double angle[3],
                     double mats[64])
{
    memcpy(parent, sm_parent, 4 * sizeof *parent);
    memcpy(rest, sm_rest, 12 * sizeof *rest);
    mesh->parent = parent;
    mesh->joint_rest = rest;
    for (int j = 1; j < 4; j++) {
        double l[16], an = skb_v3_norm(axis[j - 1]);
        for (int k = 0; k < 3; k++)
            axis[j - 1][k] /= an;
        screw(axis[j - 1], angle[j - 1], rest + 3 * j, 0, l);
        skb_mat4_mul(mats + 16 * (j - 1), l, mats + 16 * j);
    }
}

/* seed 003 section 4: a parent-child set is trivial, its centre the child's
 * rest position (the translation of A_{j2}) exactly, with no SVD; the other
 * sets of two or more joints are solved.  The pose is built along the chain
 * as datasets/poses.c builds it: C_j = C_parent L_j, L_j a rotation about
 * joint j's rest position. */
static void test_sb_parent_child_uses_joint(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS], rest[12];
    int joint[4 * SM_VERTS], parent[4];
    struct skb_mesh mesh;
    struct skb_skinner s;
    struct skb_pose_stats ps;
    struct skb__sb_counts cnt;
    char msg[256];
    const struct skb_method *sb = method("sb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    double axis[3][3], angle[3];
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 3; k++)
            axis[j][k] = gsl_rng_uniform(r) - 0.5;
        angle[j] = (0.2 + gsl_rng_uniform(r)) * SKB_PI / 2;
    }
    sm_chain(&mesh, parent, rest, axis, angle, mats);
    struct skb_pose pose = { 4, mats, NULL };
    assert_int_equal(skb_skin_init(&s, sb, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    assert_int_equal(sb->pose_stats(&mesh, s.state, &ps), 0);
    skb__sb_counts(&mesh, s.state, &cnt);
    /* sets {0} {2} {0,1} {0,2} {0,1,2}: trivial {0} {2} {0,1}; SVDs {0,2} {0,1,2} */
    assert_int_equal(cnt.sets, 5);
    assert_int_equal(cnt.trivial, 3);
    assert_int_equal(cnt.solved, 2);
    assert_int_equal(ps.solves, 2);
    assert_int_equal(cnt.fallback, 0);
    int f = skb__sb_vertex_set(&mesh, s.state, 1), js[4];
    assert_int_equal(skb__sb_set_joints(&mesh, s.state, f, js), 2);
    assert_int_equal(js[0], 0);
    assert_int_equal(js[1], 1);
    const skb_real *rc = skb__sb_set_center(&mesh, s.state, f);
    assert_true(rc[0] == sm_rest[3] && rc[1] == sm_rest[4] && rc[2] == sm_rest[5]);
    /* the SVD's minimal-norm point lies elsewhere on the same axis, so the
     * skinned vertices of the pair equal the blend path's (eq. 3.7 does not
     * move along the axis) */
    const skb_real *pair[2] = { mats, mats + 16 };
    skb_real svd[3];
    assert_int_equal(skb_rotcenter(2, pair, svd), 0);
    assert_true(fabs(svd[0] - 1) + fabs(svd[1]) + fabs(svd[2]) > 1e-3);
    for (int v = 1; v <= 2; v++) {
        double bm[32], bw[2], res[16], p[3];
        for (int k = 0; k < 2; k++) {
            memcpy(bm + 16 * k, mats + 16 * joint[4 * v + k], 16 * sizeof(double));
            bw[k] = weight[4 * v + k];
        }
        struct skb_blend_in in = { 2, bw, bm, NULL };
        assert_int_equal(skb_blend(sb, &in, NULL, res, NULL, msg, sizeof msg), 0);
        skb_mat4_apply(res, pos + 3 * v, p);
        for (int k = 0; k < 3; k++)
            assert_near(p[k], out[3 * v + k], TOL_TIGHT);
    }
    /* a pose not built along the chain breaks C_0 r = C_1 r: the SVD again */
    mats[16 + 3] += 0.5;
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    skb__sb_counts(&mesh, s.state, &cnt);
    assert_int_equal(cnt.fallback, 1);
    assert_int_equal(cnt.solved, 3);
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* seed 003 section 4 at the data's precision: the models' files store their
 * matrices to 6 decimals, so a parent-child joint holds only to ~1e-6 of
 * the set's size; it is still trivial (no SVD), and a pose that moves the
 * joint by more than that precision is solved by SVD and counted apart */
static void test_sb_trivial_at_data_precision(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS], rest[12];
    int joint[4 * SM_VERTS], parent[4];
    struct skb_mesh mesh;
    struct skb_skinner s;
    struct skb__sb_counts cnt;
    char msg[256];
    const struct skb_method *sb = method("sb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    double axis[3][3] = { { 0.3, 1, -0.3 }, { 0.3, 1, -0.1 }, { 0.3, 1, 0.1 } }, angle[3] = { 0.7, 1.4, 2.1 };
    sm_chain(&mesh, parent, rest, axis, angle, mats);
    double worst = 0;   /* how far the rounding moves joint 1 between its parent and itself */
    for (int e = 0; e < 64; e++)
        mats[e] = round(mats[e] * 1e6) / 1e6;    /* as a .X file stores them */
    for (int i = 0; i < 3; i++) {
        double d = mats[4 * i + 3] - mats[16 + 4 * i + 3];
        for (int k = 0; k < 3; k++)
            d += (mats[4 * i + k] - mats[16 + 4 * i + k]) * rest[3 + k];
        worst = fmax(worst, fabs(d));
    }
    assert_true(worst > 1e-8);                   /* the rounding is visible above double precision */
    struct skb_pose pose = { 4, mats, NULL };
    assert_int_equal(skb_skin_init(&s, sb, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    skb__sb_counts(&mesh, s.state, &cnt);
    /* sets {0} {2} {0,1} {0,2} {0,1,2}: {0,1} trivial despite the rounding */
    if (cnt.trivial != 3 || cnt.fallback != 0 || cnt.solved != 2)
        fail_msg("6-decimal pose (joint moved %.3g): %d trivial, %d fallbacks, %d SVDs; want 3, 0, 2", worst,
                 cnt.trivial, cnt.fallback, cnt.solved);
    /* the joint moved by 1e-3 of the set's size: beyond the data, an SVD, counted apart */
    mats[16 + 3] += 3e-3;
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    skb__sb_counts(&mesh, s.state, &cnt);
    assert_int_equal(cnt.fallback, 1);
    assert_int_equal(cnt.trivial, 2);
    assert_int_equal(cnt.solved, 3);
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* Buss and Fillmore's spherical average (seed 003 section 5): for two
 * rotations it is SLERP (where QLB is not); for more, the weighted tangent
 * vectors vanish at the result; SBS's skin and blend with it agree */
static void test_spherical_average(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < 200; k++) {
        struct skb_quat q[4], avg, sl, lin;
        double w[4], rot[9], m[16];
        for (int i = 0; i < 4; i++) {
            skb_test_random_rigid(r, 0.8 * SKB_PI, 0, m);
            for (int e = 0; e < 9; e++)
                rot[e] = m[4 * (e / 3) + e % 3];
            skb_quat_from_mat3(rot, q + i);
            if (i && skb_quat_dot(q, q + i) < 0)
                skb_quat_neg(q + i, q + i);
        }
        double t = 0.1 + 0.8 * gsl_rng_uniform(r), w2[2] = { 1 - t, t };
        assert_true(skb__quat_spherical_average(2, w2, NULL, q, 1, 1e-12, 100, &avg) >= 0);
        skb_quat_slerp(q, q + 1, t, &sl);
        for (int e = 0; e < 4; e++)
            assert_near((&avg.w)[e], (&sl.w)[e], 1e-9);
        /* QLB differs from SLERP (thesis Lemma 3.2), so the test can tell them apart */
        skb_quat_blend(2, w2, NULL, q, 1, &lin);
        double ln = sqrt(skb_quat_dot(&lin, &lin)), gap = 0;
        for (int e = 0; e < 4; e++)
            gap = fmax(gap, fabs((&lin.w)[e] / ln - (&sl.w)[e]));
        if (k == 0)
            print_message("QLB - SLERP gap on the first pair: %.3g\n", gap);
        skb_test_random_weights(r, 4, w);
        assert_true(skb__quat_spherical_average(4, w, NULL, q, 1, 1e-12, 100, &avg) >= 0);
        double u[4] = { 0, 0, 0, 0 };
        for (int i = 0; i < 4; i++) {
            double c = skb_quat_dot(&avg, q + i), th = acos(c > 1 ? 1 : c), f = th < 1e-12 ? 1 : th / sin(th);
            for (int e = 0; e < 4; e++)
                u[e] += w[i] * f * ((&q[i].w)[e] - c * (&avg.w)[e]);
        }
        assert_true(sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) < 1e-10);
    }
    gsl_rng_free(r);
}

/* near-degenerate sets: three joints turning about almost parallel axes
 * (and a pair almost not turning) put eq. 3.1's pseudo-inverse centre
 * ~|e|/s_min away; the bound keeps it within 2 extents of the set */
static void test_rotcenter_bound_near_singular(void **state)
{
    const double z[3] = { 0, 0, 1 }, o[3] = { 0, 0, 0 };
    double mats[48], free_rc[3], rc[3];
    for (int e = 3; e <= 7; e += 2) {
        double eps = pow(10, -e);
        double zt[3] = { eps, 0, 1 }, p1[3] = { 1, 0, 0 }, p2[3] = { 2, 0.5, 0 };
        double n = skb_v3_norm(zt);
        for (int k = 0; k < 3; k++)
            zt[k] /= n;
        screw(z, 0.3, o, 0, mats);
        screw(z, 0.6, p1, 0, mats + 16);
        screw(zt, 0.9, p2, 0.1, mats + 32);
        const skb_real *set[3] = { mats, mats + 16, mats + 32 };
        assert_int_equal(skb_rotcenter(3, set, free_rc), 0);
        int cut = skb__rotcenter_bounded(3, set, o, 6, rc);
        assert_true(cut >= 0);
        assert_true(skb_v3_norm(rc) <= 6 * (1 + 1e-12));
        if (skb_v3_norm(free_rc) > 6)
            assert_true(cut > 0);
        else
            assert_true(fabs(rc[0] - free_rc[0]) + fabs(rc[1] - free_rc[1]) + fabs(rc[2] - free_rc[2]) < 1e-9);
        if (e == 7)
            assert_true(skb_v3_norm(free_rc) > 1e3);   /* the case the bound exists for */
    }
    /* a pair turning by 1e-7 rad with a relative shift: the centre |e|/s far */
    screw(z, 0.5, o, 0, mats);
    screw(z, 0.5 + 1e-7, o, 0, mats + 16);
    mats[16 + 3] += 0.01;
    const skb_real *pair[2] = { mats, mats + 16 };
    assert_int_equal(skb_rotcenter(2, pair, free_rc), 0);
    assert_true(skb_v3_norm(free_rc) > 1e4);
    assert_true(skb__rotcenter_bounded(2, pair, o, 3, rc) > 0);
    assert_true(skb_v3_norm(rc) <= 3);
    /* a well-posed set is not touched: the plain solution */
    const double q1[3] = { 1, 0, 0 };
    screw(z, 0.5, o, 0, mats);
    screw(z, 0.9, q1, 0, mats + 16);
    assert_int_equal(skb_rotcenter(2, pair, free_rc), 0);
    assert_int_equal(skb__rotcenter_bounded(2, pair, o, 3, rc), 0);
    for (int k = 0; k < 3; k++)
        assert_near(rc[k], free_rc[k], 1e-12);
    double bad = -1;
    assert_int_equal(skb__rotcenter_bounded(2, pair, o, bad, rc), -1);
}

/* two joints that move identically in a pose: skin and blend must still solve
 * the same eq. 3.1 system (found by the cpu experiment on the creature) */
static void test_sb_equal_joints_skin_matches_blend(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS], res[16], p[3];
    int joint[4 * SM_VERTS];
    struct skb_mesh mesh;
    struct skb_skinner s;
    char msg[256];
    const struct skb_method *sb = method("sb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    memcpy(mats + 16, mats, 16 * sizeof(double));          /* C_1 = C_0 */
    for (int k = 0; k < 4; k++)       /* last vertex: {0,1,2,3}, where the pair (0,1) repeats rows */
        joint[4 * (SM_VERTS - 1) + k] = k;
    struct skb_pose pose = { 4, mats, NULL };
    assert_int_equal(skb_skin_init(&s, sb, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    for (int v = 0; v < SM_VERTS; v++) {
        double bm[64], bw[4];
        int n = 0;
        for (int k = 0; k < 4; k++)
            if (weight[4 * v + k] > 0) {
                memcpy(bm + 16 * n, mats + 16 * joint[4 * v + k], 16 * sizeof(double));
                bw[n++] = weight[4 * v + k];
            }
        struct skb_blend_in in = { n, bw, bm, NULL };
        assert_int_equal(skb_blend(sb, &in, NULL, res, NULL, msg, sizeof msg), 0);
        skb_mat4_apply(res, pos + 3 * v, p);
        for (int k = 0; k < 3; k++)
            assert_near(p[k], out[3 * v + k], TOL_TIGHT);
    }
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* QB without per-vertex centres: the rest position of the influence whose
 * parent also influences the vertex, else of the highest-weight joint */
static void test_qb_default_centre(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS];
    int joint[4 * SM_VERTS], parent[4];
    double rest[12];
    /* expected centre joint per vertex of the small mesh */
    static const int want[SM_VERTS] = { 0, 1, 1, 2, 2, 0, 1 };
    struct skb_mesh mesh;
    struct skb_skinner s;
    char msg[256];
    const struct skb_method *qb = method("qb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    struct skb_pose pose = { 4, mats, NULL };
    /* neither centres nor joint positions: bind refuses, naming the need */
    assert_int_equal(skb_skin_init(&s, qb, &mesh, msg, sizeof msg), SKB_ENOCENTER);
    assert_non_null(strstr(msg, "qb"));
    assert_non_null(strstr(msg, "centre"));
    memcpy(parent, sm_parent, sizeof parent);
    memcpy(rest, sm_rest, sizeof rest);
    mesh.parent = parent;
    mesh.joint_rest = rest;
    assert_int_equal(skb_skin_init(&s, qb, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    for (int v = 0; v < SM_VERTS; v++) {
        double bm[64], bw[4], res[16], p[3];
        int n = 0;
        for (int k = 0; k < 4; k++)
            if (weight[4 * v + k] > 0) {
                memcpy(bm + 16 * n, mats + 16 * joint[4 * v + k], sizeof(double) * 16);
                bw[n++] = weight[4 * v + k];
            }
        struct skb_blend_in in = { n, bw, bm, rest + 3 * want[v] };
        assert_int_equal(skb_blend(qb, &in, NULL, res, NULL, msg, sizeof msg), 0);
        skb_mat4_apply(res, pos + 3 * v, p);
        for (int i = 0; i < 3; i++)
            if (fabs(p[i] - out[3 * v + i]) > TOL_TIGHT)
                fail_msg("vertex %d: skin %g, blend about joint %d %g", v, out[3 * v + i], want[v], p[i]);
    }
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* QB's per-joint precomputation (Hejl's centres are joints): C_i c once per
 * (joint, centre joint) pair per pose gives the per-vertex form's skin bit
 * for bit; a vertex whose centre is not a joint keeps the per-vertex form */
static void test_qb_pair_table(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS], ctr[3 * SM_VERTS];
    double rest[12], rows[48];
    int joint[4 * SM_VERTS], parent[4], pv = -1;
    struct skb_quat q[4];
    struct skb_mesh mesh;
    struct skb_skinner s;
    char msg[256];
    const struct skb_method *qb = method("qb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    memcpy(parent, sm_parent, sizeof parent);
    memcpy(rest, sm_rest, sizeof rest);
    mesh.parent = parent;
    mesh.joint_rest = rest;
    struct skb_pose pose = { 4, mats, NULL };
    skb_qlb_prepare(4, mats, q, rows);
    for (int pass = 0; pass < 2; pass++) {
        /* pass 1: the mesh's own centres, vertex 2's moved off its joint */
        assert_int_equal(skb__qb_default_centers(&mesh, ctr), 0);
        ctr[6] += 0.25 * pass;
        mesh.center = pass ? ctr : NULL;
        assert_int_equal(skb_skin_init(&s, qb, &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
        int np = skb__qb_pairs(&mesh, s.state, &pv);
        assert_true(np > 0 && np <= 4 * SM_VERTS);
        assert_int_equal(pv, SM_VERTS - pass);
        for (int v = 0; v < SM_VERTS; v++) {
            double p[3];
            assert_int_equal(skb_qlb_vertex(4, joint + 4 * v, weight + 4 * v, q, rows, ctr + 3 * v, 1, pos + 3 * v,
                                            NULL, p, NULL), 0);
            for (int k = 0; k < 3; k++)
                if (p[k] != out[3 * v + k])
                    fail_msg("pass %d vertex %d: pair table %.17g, per vertex %.17g", pass, v, out[3 * v + k], p[k]);
        }
        skb_skin_fini(&s);
    }
    gsl_rng_free(r);
}

/* quaternion methods have no scale/shear form: a pose with scale is refused */
static void test_scaled_pose_refused(void **state)
{
    const char *names[] = { "qlb0", "qb", "sb", "logm" };
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], scale[64], out[3 * SM_VERTS];
    int joint[4 * SM_VERTS], parent[4];
    double rest[12];
    struct skb_mesh mesh;
    char msg[256];
    small_mesh(&mesh, pos, joint, weight, NULL, mats);
    small_mesh(&mesh, pos, joint, weight, NULL, scale);
    memcpy(parent, sm_parent, sizeof parent);
    memcpy(rest, sm_rest, sizeof rest);
    mesh.parent = parent;
    mesh.joint_rest = rest;
    struct skb_pose pose = { 4, mats, scale };
    for (int i = 0; i < 4; i++) {
        struct skb_skinner s;
        assert_int_equal(skb_skin_init(&s, method(names[i]), &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), SKB_ENOTSUP);
        skb_skin_fini(&s);
    }
}

/* each special role belongs to one registered method (methods/skb_method.h):
 * the experiments find it by its flag, so a second holder would silently
 * change whom a ratio, heat map or bound is about; and the old names of
 * schema-1 results map to registry names (README "Method names") */
static void test_method_roles_and_aliases(void **state)
{
    (void)state;
    static const unsigned roles[] = { SKB_MF_EXACT_PAIR, SKB_MF_RATIO_REF, SKB_MF_HEADLINE, SKB_MF_HEAT_REF,
                                      SKB_MF_FCL_PEER, SKB_MF_ROT_CENTERS, SKB_MF_QUAT_LINEAR, SKB_MF_LOG_BLEND,
                                      SKB_MF_TWO_PHASE, SKB_MF_JOINT_CENTERS };
    for (size_t r = 0; r < sizeof roles / sizeof roles[0]; r++) {
        int holders = 0;
        for (int i = 0; skb_methods[i]; i++)
            holders += (skb_methods[i]->flags & roles[r]) != 0;
        if (holders != 1)
            fail_msg("role 0x%x is held by %d methods, not 1", roles[r], holders);
        assert_non_null(skb_method_find(skb_method_role_name(roles[r])));
    }
    assert_ptr_equal(skb_method_with_flag(SKB_MF_EXACT_PAIR), skb_method_exact_pair());
    assert_string_equal(skb_method_role_name(0x40000000u), "");
    assert_string_equal(skb_method_canonical("lbs"), skb_method_role_name(SKB_MF_RATIO_REF));
    assert_string_equal(skb_method_canonical("sbs"), skb_method_role_name(SKB_MF_ROT_CENTERS));
    assert_string_equal(skb_method_canonical("sbs+all_centres"), "sb+all_centres");
    for (int i = 0; skb_methods[i]; i++)   /* a registry name is never an alias */
        assert_ptr_equal(skb_method_canonical(skb_methods[i]->name), skb_methods[i]->name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rotation_centre_drift),
        cmocka_unit_test(test_sb_shared_point),
        cmocka_unit_test(test_sb_centre_unique_and_degenerate),
        cmocka_unit_test(test_logm_axis_angle),
        cmocka_unit_test(test_qb_keeps_centre),
        cmocka_unit_test(test_method_roles_and_aliases),
        cmocka_unit_test(test_qlb0_vs_slerp),
        cmocka_unit_test(test_antipodality),
        cmocka_unit_test(test_antipodality_skin),
        cmocka_unit_test(test_sb_solves_per_joint_set),
        cmocka_unit_test(test_sb_equal_joints_skin_matches_blend),
        cmocka_unit_test(test_sb_parent_child_uses_joint),
        cmocka_unit_test(test_sb_trivial_at_data_precision),
        cmocka_unit_test(test_spherical_average),
        cmocka_unit_test(test_rotcenter_bound_near_singular),
        cmocka_unit_test(test_qb_default_centre),
        cmocka_unit_test(test_qb_pair_table),
        cmocka_unit_test(test_scaled_pose_refused),
    };
    return cmocka_run_group_tests_name("methods_a", tests, NULL, NULL);
}
