/* test_methods.c — contracts every registered method must meet; loops over
 * the registry, so a new method is tested with no edit here. */
#include "skb_test.h"
#include "skb_sb_internal.h"

#define N_RANDOM 200
#define MESH_VERTS 300
#define MESH_JOINTS 6

static void test_registry_well_formed(void **state)
{
    assert_true(skb_method_count() >= 1);
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        assert_non_null(m->name);
        assert_non_null(m->description);
        assert_non_null(m->seed_ref);
        assert_true(m->blend || m->skin);
        assert_ptr_equal(skb_method_find(m->name), m);
        for (int k = 0; k < i; k++)
            assert_string_not_equal(skb_methods[k]->name, m->name);
    }
    assert_null(skb_method_find("no-such-method"));
}

/* property 1 of thesis 4.2: Phi(e_i; M_1..M_n) = M_i */
static void test_unit_weight_returns_that_joint(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        if (!m->blend)
            continue;
        int nmax = m->max_n && m->max_n < 4 ? m->max_n : 4;   /* buffers hold 4 */
        for (int k = 0; k < N_RANDOM; k++) {
            double mats[16 * 4], w[4] = { 0 }, out[16], c[3] = { 0.3, -0.2, 0.5 };
            int n = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nmax), hot = (int)gsl_rng_uniform_int(r, (unsigned long)n);
            for (int j = 0; j < n; j++)
                skb_test_random_rigid(r, 0.9 * SKB_PI, 3, mats + 16 * j);
            w[hot] = 1;
            struct skb_blend_in in = { n, w, mats, c };
            char msg[256];
            int rc = skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg);
            if (rc < 0)
                fail_msg("%s: %s", m->name, msg);
            double e = skb_test_mat_diff(out, mats + 16 * hot, 16);
            if (e > TOL_ITER)
                fail_msg("%s: unit weight on %d of %d: error %.3g", m->name, hot, n, e);
        }
    }
    gsl_rng_free(r);
}

/* a random mesh: each vertex influenced by up to 4 joints */
static void random_mesh(gsl_rng *r, struct skb_mesh *mesh, double *pos, double *nrm, int *joint,
                        double *weight, double *center)
{
    memset(mesh, 0, sizeof *mesh);
    mesh->nverts = MESH_VERTS;
    mesh->njoints = MESH_JOINTS;
    mesh->pos = pos;
    mesh->nrm = nrm;
    mesh->joint = joint;
    mesh->weight = weight;
    mesh->center = center;
    for (int v = 0; v < MESH_VERTS; v++) {
        int k = 1 + (int)gsl_rng_uniform_int(r, 4);
        double w[4] = { 0 };
        skb_test_random_weights(r, k, w);
        for (int i = 0; i < 4; i++) {
            joint[4 * v + i] = (int)((unsigned)(v + 2 * i) % MESH_JOINTS);
            weight[4 * v + i] = w[i];
        }
        double nn = 0;
        for (int i = 0; i < 3; i++) {
            pos[3 * v + i] = 2 * gsl_rng_uniform(r) - 1;
            nrm[3 * v + i] = gsl_rng_uniform(r) - 0.5;
            nn += nrm[3 * v + i] * nrm[3 * v + i];
            center[3 * v + i] = 0.1 * (gsl_rng_uniform(r) - 0.5);
        }
        for (int i = 0; i < 3; i++)
            nrm[3 * v + i] /= sqrt(nn);
    }
}

/* sb's skin path blends about its joint set's centre; where the centre bound
 * cut the solve (methods/sb.c) that centre is not the blend path's plain
 * eq. 3.1 solution, so the reference is QLB about the skin path's own centre
 * (thesis eq. 3.7).  Returns 1 when it wrote res. */
static int sb_cut_reference(const struct skb_method *m, const struct skb_mesh *mesh, const void *state,
                            int v, int n, const double *bw, const double *bm, double res[16])
{
    if (strcmp(m->name, "sb") != 0)
        return 0;
    int f = skb_sb_vertex_set(mesh, state, v);
    if (f < 0 || !skb_sb_set_cut(mesh, state, f))
        return 0;
    assert_int_equal(skb_mat4_qlb(n, bw, bm, skb_sb_set_center(mesh, state, f), 1, res), 0);
    return 1;
}

/* the skin path equals the blend path applied per vertex */
static void test_skin_matches_blend(void **state)
{
    gsl_rng *r = skb_test_rng();
    static double pos[3 * MESH_VERTS], nrm[3 * MESH_VERTS], weight[4 * MESH_VERTS], center[3 * MESH_VERTS];
    static double out[3 * MESH_VERTS], nout[3 * MESH_VERTS], mats[16 * MESH_JOINTS];
    static int joint[4 * MESH_VERTS];
    struct skb_mesh mesh;
    random_mesh(r, &mesh, pos, nrm, joint, weight, center);
    for (int j = 0; j < MESH_JOINTS; j++)
        skb_test_random_rigid(r, 0.6 * SKB_PI, 2, mats + 16 * j);
    struct skb_pose pose = { MESH_JOINTS, mats, NULL };
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_skinner s;
        char msg[256];
        if (!m->skin || !m->blend || m->max_n == 2)
            continue;
        if (skb_skin_init(&s, m, &mesh, msg, sizeof msg) < 0)
            fail_msg("%s: %s", m->name, msg);
        if (skb_skin_pose(&s, &pose, NULL, out, nout, msg, sizeof msg) < 0)
            fail_msg("%s: %s", m->name, msg);
        double worst = 0;
        int cut = 0;
        for (int v = 0; v < MESH_VERTS; v++) {
            double bm[16 * 4], bw[4], res[16], p[3];
            int n = 0;
            for (int k = 0; k < 4; k++)
                if (weight[4 * v + k] > 0) {
                    memcpy(bm + 16 * n, mats + 16 * joint[4 * v + k], 16 * sizeof(double));
                    bw[n++] = weight[4 * v + k];
                }
            /* a method that reports its skin centre (sb) solves its own
             * centre in the blend form unless given one: compare with that;
             * one that needs a centre (cor's precomputed one) gets it */
            double sc[3];
            const double *c = center + 3 * v;
            if (m->skin_center)
                c = (m->flags & SKB_MF_NEEDS_CENTER) && m->skin_center(&mesh, s.state, v, sc) ? sc : NULL;
            struct skb_blend_in in = { n, bw, bm, c };
            if (sb_cut_reference(m, &mesh, s.state, v, n, bw, bm, res))
                cut++;
            else if (skb_blend(m, &in, NULL, res, NULL, msg, sizeof msg) < 0)
                fail_msg("%s: vertex %d: %s", m->name, v, msg);
            skb_mat4_apply(res, pos + 3 * v, p);
            for (int k = 0; k < 3; k++)
                worst = fmax(worst, fabs(p[k] - out[3 * v + k]));
        }
        skb_skin_fini(&s);
        /* most vertices must still meet the blend path */
        if (2 * cut > MESH_VERTS)
            fail_msg("%s: %d of %d vertices had their centre cut", m->name, cut, MESH_VERTS);
        if (worst > TOL_ITER)
            fail_msg("%s: skin and blend differ by %.3g", m->name, worst);
    }
    gsl_rng_free(r);
}

/* bad input never reaches a method: each rule of skb_blend_check */
static void test_blend_rejects_bad_input(void **state)
{
    double id[32], w[2] = { 0.5, 0.5 }, out[16];
    char msg[256];
    skb_mat4_identity(id);
    skb_mat4_identity(id + 16);
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        double c[3] = { 0, 0, 0 };
        if (!m->blend)
            continue;
        struct skb_blend_in in = { 2, w, id, c };
        w[0] = 0.6;
        assert_int_equal(skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg), SKB_EWEIGHTS);
        assert_non_null(strstr(msg, "weights"));
        w[0] = NAN;
        assert_int_equal(skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg), SKB_ENONFINITE);
        w[0] = -0.5; w[1] = 1.5;
        assert_int_equal(skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg), SKB_EWEIGHTS);
        w[0] = 0.5; w[1] = 0.5;
        id[16 + 3] = INFINITY;
        assert_int_equal(skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg), SKB_ENONFINITE);
        assert_non_null(strstr(msg, "transforms"));
        id[16 + 3] = 0;
        if (!(m->flags & SKB_MF_NONRIGID_IN)) {
            id[16] = 2;
            assert_int_equal(skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg), SKB_ENOTRIGID);
            id[16] = 1;
        }
        assert_int_equal(skb_blend(m, &in, NULL, out, NULL, msg, sizeof msg), 0);
    }
}

/* each special role belongs to one registered method (methods/skb_method.h):
 * the experiments find it by its flag, so a second holder would silently
 * change whom a ratio, heat map or bound is about; and the old names of
 * schema-1 results map to registry names (docs/outputs.md "Method names") */
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
        cmocka_unit_test(test_registry_well_formed),
        cmocka_unit_test(test_unit_weight_returns_that_joint),
        cmocka_unit_test(test_skin_matches_blend),
        cmocka_unit_test(test_blend_rejects_bad_input),
        cmocka_unit_test(test_method_roles_and_aliases),
    };
    return cmocka_run_group_tests_name("methods", tests, NULL, NULL);
}
