/* test_dq_skinning.c — dual-quaternion skinning of whole meshes: DLB's
 * cancelling antipodal inputs (SKB_ECANCEL, never NaN) and two-phase
 * skinning, dlb_scale (DQ paper 4.2). */

#include "skb_test_blend.h"

/* random scale/shear part: symmetric positive, near identity, plus a translation */
static void random_scale(gsl_rng *r, double s[16])
{
    skb_mat4_identity(s);
    for (int i = 0; i < 3; i++) {
        s[5 * i] = 0.5 + gsl_rng_uniform(r);
        s[4 * i + 3] = 0.2 * (gsl_rng_uniform(r) - 0.5);
    }
    s[1] = s[4] = 0.3 * (gsl_rng_uniform(r) - 0.5);
    s[6] = 0.3 * (gsl_rng_uniform(r) - 0.5);
}

#define TP_VERTS 100

#define TP_JOINTS 5

static void tp_mesh(gsl_rng *r, struct skb_mesh *mesh, double *pos, double *nrm, int *joint, double *weight)
{
    memset(mesh, 0, sizeof *mesh);
    mesh->nverts = TP_VERTS; mesh->njoints = TP_JOINTS;
    mesh->pos = pos; mesh->nrm = nrm; mesh->joint = joint; mesh->weight = weight;
    for (int v = 0; v < TP_VERTS; v++) {
        skb_test_random_weights(r, 3, weight + 4 * v);
        weight[4 * v + 3] = 0;
        for (int k = 0; k < 4; k++)
            joint[4 * v + k] = (v + k) % TP_JOINTS;
        gsl_ran_dir_3d(r, nrm + 3 * v, nrm + 3 * v + 1, nrm + 3 * v + 2);
        for (int k = 0; k < 3; k++)
            pos[3 * v + k] = 2 * gsl_rng_uniform(r) - 1;
    }
}

static void skin(const char *name, const struct skb_mesh *mesh, const struct skb_pose *pose,
                 double *pos, double *nrm)
{
    struct skb_skinner s;
    char msg[256];
    if (skb_skin_init(&s, need(name), mesh, msg, sizeof msg) < 0
        || skb_skin_pose(&s, pose, NULL, pos, nrm, msg, sizeof msg) < 0)
        fail_msg("%s: %s", name, msg);
    skb_skin_fini(&s);
}

/* cancelling antipodal inputs: SKB_ECANCEL with a one-line message, no NaN */
static void test_dlb_cancel(void **state)
{
    double mats[32], out[16];
    double eps = 1e-10;   /* half-angle gap: |b0| = sin(eps/2) << SKB_DLB_CANCEL_REL */
    struct skb_params prm;
    skb_params_default(&prm);
    prm.antipodal = SKB_ANTIPODAL_NONE;
    rot_z(SKB_PI - eps, mats);
    rot_z(-(SKB_PI - eps), mats + 16);
    const char *names[] = { "dlb", "dib" };
    for (int i = 0; i < 2; i++) {
        double w[2] = { 0.5, 0.5 }, c[3] = { 0, 0, 0 };
        char msg[256] = "";
        struct skb_blend_in in = { 2, w, mats, c };
        for (int k = 0; k < 16; k++)
            out[k] = 7;
        assert_int_equal(skb_blend(need(names[i]), &in, &prm, out, NULL, msg, sizeof msg), SKB_ECANCEL);
        assert_non_null(strstr(msg, names[i]));
        assert_null(strchr(msg, '\n'));
        for (int k = 0; k < 16; k++)
            assert_true(isfinite(out[k]));
    }
    /* the pivot rule never cancels on the same input */
    prm.antipodal = SKB_ANTIPODAL_PIVOT;
    assert_int_equal(blend2(need("dlb"), mats, 0.5, &prm, out, NULL), 0);
    /* at the dual quaternion level: q and -q */
    struct skb_dq q[2], b;
    double w[2] = { 0.5, 0.5 };
    skb_dq_from_mat4(mats, &q[0]);
    skb_dq_scale(&q[0], -1, &q[1]);
    assert_int_equal(skb__dlb_sum(2, w, q, SKB_ANTIPODAL_NONE, &b), SKB_ECANCEL);
    /* and in the skin path */
    double pos[3] = { 1, 2, 3 }, weight[4] = { 0.5, 0.5, 0, 0 }, pout[3];
    int joint[4] = { 0, 1, 0, 0 };
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = 1; mesh.njoints = 2; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { 2, mats, NULL };
    prm.antipodal = SKB_ANTIPODAL_NONE;
    const char *skin_names[] = { "dlb", "dib", "dlb_scale" };
    for (int i = 0; i < 3; i++) {
        struct skb_skinner s;
        char msg[256];
        assert_int_equal(skb_skin_init(&s, need(skin_names[i]), &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, pout, NULL, msg, sizeof msg), SKB_ECANCEL);
        skb_skin_fini(&s);
    }
}

/* DQ paper 4.2: identity rigid parts -> LBS of the scales (normals by the
 * inverse transpose); identity scales -> dlb; in general -> dlb applied to
 * the phase-1 mesh */
static void test_two_phase(void **state)
{
    gsl_rng *r = skb_test_rng();
    static double pos[3 * TP_VERTS], nrm[3 * TP_VERTS], weight[4 * TP_VERTS];
    static double o1[3 * TP_VERTS], o2[3 * TP_VERTS], n1[3 * TP_VERTS], n2[3 * TP_VERTS];
    static int joint[4 * TP_VERTS];
    double ids[16 * TP_JOINTS], mats[16 * TP_JOINTS], scale[16 * TP_JOINTS];
    struct skb_mesh mesh;
    tp_mesh(r, &mesh, pos, nrm, joint, weight);
    for (int j = 0; j < TP_JOINTS; j++) {
        skb_mat4_identity(ids + 16 * j);
        skb_test_random_rigid(r, 0.7 * SKB_PI, 2, mats + 16 * j);
        random_scale(r, scale + 16 * j);
    }
    /* 1: identity rigid parts == LBS of the scales */
    struct skb_pose ps = { TP_JOINTS, ids, scale };
    skin("dlb_scale", &mesh, &ps, o1, n1);
    skin("linear", &mesh, &ps, o2, NULL);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_TIGHT);
    for (int v = 0; v < TP_VERTS; v++) {
        /* normal: unit, orthogonal to every blended tangent, same side as n */
        double a[9] = { 0 }, t1[3], t2[3], at[3], an[3], e[3] = { 1, 0, 0 };
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 3; i++)
                for (int c = 0; c < 3; c++)
                    a[3 * i + c] += weight[4 * v + k] * scale[16 * joint[4 * v + k] + 4 * i + c];
        skb_v3_cross(nrm + 3 * v, e, t1);
        skb_v3_cross(nrm + 3 * v, t1, t2);
        assert_near(skb_v3_norm(n1 + 3 * v), 1, TOL_TIGHT);
        const double *ts[2] = { t1, t2 };
        for (int q = 0; q < 2; q++) {
            for (int i = 0; i < 3; i++)
                at[i] = a[3 * i] * ts[q][0] + a[3 * i + 1] * ts[q][1] + a[3 * i + 2] * ts[q][2];
            assert_near(skb_v3_dot(at, n1 + 3 * v), 0, TOL_TIGHT);
        }
        for (int i = 0; i < 3; i++)
            an[i] = a[3 * i] * nrm[3 * v] + a[3 * i + 1] * nrm[3 * v + 1] + a[3 * i + 2] * nrm[3 * v + 2];
        assert_true(skb_v3_dot(an, n1 + 3 * v) > 0);
    }
    /* 2: identity scales (and no scales) == dlb */
    struct skb_pose pr = { TP_JOINTS, mats, ids }, pn = { TP_JOINTS, mats, NULL };
    skin("dlb", &mesh, &pn, o2, n2);
    skin("dlb_scale", &mesh, &pr, o1, n1);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_TIGHT);
    assert_true(skb_test_mat_diff(n1, n2, 3 * TP_VERTS) < TOL_TIGHT);
    skin("dlb_scale", &mesh, &pn, o1, n1);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_EXACT);
    /* 3: both: dlb on the phase-1 mesh (positions and normals) */
    static double p1[3 * TP_VERTS], q1[3 * TP_VERTS];
    skin("dlb_scale", &mesh, &ps, p1, q1);
    struct skb_mesh m1 = mesh;
    m1.pos = p1;
    m1.nrm = q1;
    struct skb_pose pb = { TP_JOINTS, mats, scale };
    skin("dlb_scale", &mesh, &pb, o1, n1);
    skin("dlb", &m1, &pn, o2, n2);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_TIGHT);
    assert_true(skb_test_mat_diff(n1, n2, 3 * TP_VERTS) < TOL_TIGHT);
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dlb_cancel),
        cmocka_unit_test(test_two_phase),
    };
    return cmocka_run_group_tests_name("dq_skinning", tests, NULL, NULL);
}
