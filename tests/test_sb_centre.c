/* test_sb_centre.c — SB's rotation centre (thesis 3.1, Table 3.2): the
 * shared point of two joints, unique or degenerate, one SVD per distinct joint
 * set, the parent-child joint, trivial sets at data precision, the spherical
 * average and the rotation-centre bound near singular inputs. */

#include "skb_test_blend.h"

/* thesis 3.1: two joints with C_a p = C_b p.  The solutions of eq. 3.1 are the
 * line p + s u (u the axis of C_a^-1 C_b); the minimal-norm one is the foot
 * of the perpendicular from the origin, p itself when p is orthogonal to u.
 * Any weights then fix p: v' = C_a p. */
static void test_sb_shared_point(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *sb = need("sb");
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
        blend_pair(sb, ca, cb, gsl_rng_uniform(r), NULL, NULL, b);
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
        assert_int_equal(skb_blend(need("sb"), &in, NULL, a, NULL, NULL, 0), 0);
        assert_int_equal(skb_blend(need("qlb0"), &in, NULL, b, NULL, NULL, 0), 0);
        assert_true(skb_test_mat_diff(a, b, 16) < TOL_TIGHT);
    }
    assert_int_equal(skb_rotcenter(0, NULL, NULL), -1);
    gsl_rng_free(r);
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
    const struct skb_method *sb = need("sb");
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
    const struct skb_method *sb = need("sb");
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
    struct skb_sb_counts cnt;
    char msg[256];
    const struct skb_method *sb = need("sb");
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
    skb_sb_counts(&mesh, s.state, &cnt);
    /* sets {0} {2} {0,1} {0,2} {0,1,2}: trivial {0} {2} {0,1}; SVDs {0,2} {0,1,2} */
    assert_int_equal(cnt.sets, 5);
    assert_int_equal(cnt.trivial, 3);
    assert_int_equal(cnt.solved, 2);
    assert_int_equal(ps.solves, 2);
    assert_int_equal(cnt.fallback, 0);
    int f = skb_sb_vertex_set(&mesh, s.state, 1), js[4];
    assert_int_equal(skb_sb_set_joints(&mesh, s.state, f, js), 2);
    assert_int_equal(js[0], 0);
    assert_int_equal(js[1], 1);
    const skb_real *rc = skb_sb_set_center(&mesh, s.state, f);
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
    skb_sb_counts(&mesh, s.state, &cnt);
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
    struct skb_sb_counts cnt;
    char msg[256];
    const struct skb_method *sb = need("sb");
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
    skb_sb_counts(&mesh, s.state, &cnt);
    /* sets {0} {2} {0,1} {0,2} {0,1,2}: {0,1} trivial despite the rounding */
    if (cnt.trivial != 3 || cnt.fallback != 0 || cnt.solved != 2)
        fail_msg("6-decimal pose (joint moved %.3g): %d trivial, %d fallbacks, %d SVDs; want 3, 0, 2", worst,
                 cnt.trivial, cnt.fallback, cnt.solved);
    /* the joint moved by 1e-3 of the set's size: beyond the data, an SVD, counted apart */
    mats[16 + 3] += 3e-3;
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    skb_sb_counts(&mesh, s.state, &cnt);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_shared_point),
        cmocka_unit_test(test_sb_centre_unique_and_degenerate),
        cmocka_unit_test(test_sb_solves_per_joint_set),
        cmocka_unit_test(test_sb_equal_joints_skin_matches_blend),
        cmocka_unit_test(test_sb_parent_child_uses_joint),
        cmocka_unit_test(test_sb_trivial_at_data_precision),
        cmocka_unit_test(test_spherical_average),
        cmocka_unit_test(test_rotcenter_bound_near_singular),
    };
    return cmocka_run_group_tests_name("sb_centre", tests, NULL, NULL);
}
