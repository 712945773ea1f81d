/* test_artifacts.c — harness/artifacts_metrics.c, the numbers of `run
 * artifacts`: the joint bulge (0 for limbs moved rigidly by their bones, the
 * push of one vertex over the radius), the limb radius, the self-intersection
 * sweep against every pair tested, closedness and volume of a tetrahedron,
 * and the jump and distance in model sizes. */
#include "skb_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_artifacts.h"
#include "skb_geom.h"

#define RINGS 9
#define SECTORS 8
#define NV (RINGS * SECTORS)
#define RADIUS 0.25

/* a tube along x from 0.5 to 1.5 around joint 0 (origin) and joint 1 at
 * (1, 0, 0), weights blending linearly from joint 0 to joint 1 along it */
struct tube {
    struct skb_mesh m;
    double pos[3 * NV], weight[4 * NV], joint_rest[6];
    int joint[4 * NV], parent[2];
};

static void tube(struct tube *t)
{
    memset(t, 0, sizeof *t);
    for (int r = 0; r < RINGS; r++)
        for (int k = 0; k < SECTORS; k++) {
            int v = r * SECTORS + k;
            double a = 2 * M_PI * k / SECTORS, x = 0.5 + (double)r / (RINGS - 1);
            t->pos[3 * v] = x;
            t->pos[3 * v + 1] = RADIUS * cos(a);
            t->pos[3 * v + 2] = RADIUS * sin(a);
            t->joint[4 * v] = 0;
            t->joint[4 * v + 1] = 1;
            t->weight[4 * v] = 1.5 - x;
            t->weight[4 * v + 1] = x - 0.5;
        }
    t->parent[0] = -1;
    t->parent[1] = 0;
    t->joint_rest[3] = 1;
    t->m = (struct skb_mesh){ .nverts = NV, .njoints = 2, .pos = t->pos, .joint = t->joint, .weight = t->weight,
                              .parent = t->parent, .joint_rest = t->joint_rest };
}

/* joint 0 at rest, joint 1 turned 90 degrees about z around (1, 0, 0) */
static void bent_pose(double mats[32])
{
    memset(mats, 0, sizeof(double) * 32);
    for (int i = 0; i < 4; i++)
        mats[5 * i] = 1;
    double *c = mats + 16;
    c[0] = 0, c[1] = -1, c[3] = 1;   /* x' = -y + 1 */
    c[4] = 1, c[5] = 0, c[7] = -1;   /* y' = x - 1 */
    c[10] = 1, c[15] = 1;
}

static void apply(const double *c, const double *x, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = c[4 * i] * x[0] + c[4 * i + 1] * x[1] + c[4 * i + 2] * x[2] + c[4 * i + 3];
}

/* every vertex moved by the bone it lies along: the rigid ideal */
static void rigid_limbs(const struct tube *t, const double *mats, double *pos)
{
    for (int v = 0; v < NV; v++)
        apply(mats + (t->pos[3 * v] <= 1 ? 0 : 16), t->pos + 3 * v, pos + 3 * v);
}

static void test_bulge_rigid_limbs_zero(void **state)
{
    (void)state;
    struct tube t;
    double mats[32], pos[3 * NV];
    tube(&t);
    bent_pose(mats);
    rigid_limbs(&t, mats, pos);
    assert_true(fabs(skb_artifacts_bulge(&t.m, 1, mats, pos, RADIUS)) < 1e-12);
    /* at rest nothing moved either */
    double id[32];
    memset(id, 0, sizeof id);
    for (int i = 0; i < 8; i++)
        id[5 * (i % 4) + 16 * (i / 4)] = 1;
    assert_true(fabs(skb_artifacts_bulge(&t.m, 1, id, t.pos, RADIUS)) < 1e-12);
}

/* one vertex of the upper limb, on the side away from the bend, pushed 0.1
 * outwards: the bulge is 0.1 / radius; pulled inwards it is no bulge */
static void test_bulge_push_one_vertex(void **state)
{
    (void)state;
    struct tube t;
    double mats[32], pos[3 * NV];
    tube(&t);
    bent_pose(mats);
    rigid_limbs(&t, mats, pos);
    int v = SECTORS / 2;   /* ring 0 (x = 0.5), angle pi: (0.5, -0.25, 0) */
    pos[3 * v + 1] -= 0.1;
    assert_true(fabs(skb_artifacts_bulge(&t.m, 1, mats, pos, RADIUS) - 0.1 / RADIUS) < 1e-12);
    pos[3 * v + 1] += 0.2;
    assert_true(fabs(skb_artifacts_bulge(&t.m, 1, mats, pos, RADIUS)) < 1e-12);
}

/* the pushed vertex with weight on a third joint: the split puts its bulge
 * in the second class and keeps the rigid rest in the first */
static void test_bulge_split_third_joint(void **state)
{
    (void)state;
    struct tube t;
    double mats[32], pos[3 * NV], w[2];
    int n[2];
    tube(&t);
    bent_pose(mats);
    rigid_limbs(&t, mats, pos);
    int v = SECTORS / 2;
    pos[3 * v + 1] -= 0.1;
    t.joint[4 * v + 2] = 2;   /* a third joint's weight: never indexed in mats */
    t.weight[4 * v + 2] = 0.05;
    skb_artifacts_bulge_split(&t.m, 1, mats, pos, RADIUS, w, n);
    assert_int_equal(n[0], NV - 1);
    assert_int_equal(n[1], 1);
    assert_true(fabs(w[0]) < 1e-12);
    assert_true(fabs(w[1] - 0.1 / RADIUS) < 1e-12);
    assert_true(fabs(skb_artifacts_bulge(&t.m, 1, mats, pos, RADIUS) - 0.1 / RADIUS) < 1e-12);
}

static void test_limb_radius(void **state)
{
    (void)state;
    struct tube t;
    tube(&t);
    assert_true(fabs(skb_artifacts_limb_radius(&t.m, 1) - RADIUS) < 1e-12);
    assert_true(fabs(skb_artifacts_model_size(&t.m) - 1.0) < 1e-12);
}

/* a seeded linear congruential sequence in [0, 1) (no library state) */
static double lcg(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static int shares(const int *a, const int *b)
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            if (a[i] == b[k])
                return 1;
    return 0;
}

/* the sweep finds exactly the pairs testing every pair finds, on random
 * small triangles (some sharing vertices) in a unit box */
static void test_self_intersections_sweep(void **state)
{
    (void)state;
    enum { NT = 300, NP = 600 };
    static double pos[3 * NP];
    static int tris[3 * NT];
    unsigned long s = 12345;
    for (int p = 0; p < NP; p += 3) {
        double c[3] = { lcg(&s), lcg(&s), lcg(&s) };
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                pos[3 * (p + i) + k] = c[k] + 0.15 * (lcg(&s) - 0.5);
    }
    /* half the triangles on their own points, half on three distinct points
     * drawn anywhere (degenerate triangles are no input of the predicate) */
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < 3; i++)
            do
                tris[3 * t + i] = t < NT / 2 ? 3 * t + i : (int)(lcg(&s) * NP);
            while (i > 0 && (tris[3 * t + i] == tris[3 * t] || tris[3 * t + i] == tris[3 * t + i - 1]));
    long brute = 0;
    for (int a = 0; a < NT; a++)
        for (int b = a + 1; b < NT; b++)
            if (!shares(tris + 3 * a, tris + 3 * b))
                brute += skb_tri_tri_overlap(pos + 3 * tris[3 * a], pos + 3 * tris[3 * a + 1], pos + 3 * tris[3 * a + 2],
                                             pos + 3 * tris[3 * b], pos + 3 * tris[3 * b + 1], pos + 3 * tris[3 * b + 2]);
    assert_true(brute > 10);
    assert_int_equal(skb_artifacts_self_intersections(tris, NT, pos), brute);
}

/* two triangles crossing, then moved apart; one sharing a vertex is skipped */
static void test_self_intersections_pair(void **state)
{
    (void)state;
    double pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -0.5, 0.2, 0.2, 0.5, 0.9, 0.9, 0 };
    int tris[] = { 0, 1, 2, 3, 4, 5 }, shared[] = { 0, 1, 2, 0, 4, 5 };
    assert_int_equal(skb_artifacts_self_intersections(tris, 2, pos), 1);
    assert_int_equal(skb_artifacts_self_intersections(shared, 2, pos), 0);
    pos[9] = pos[12] = 5;
    assert_int_equal(skb_artifacts_self_intersections(tris, 2, pos), 0);
}

static void test_tetrahedron_volume(void **state)
{
    (void)state;
    double pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    int tris[] = { 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3 };
    struct skb_mesh m = { .nverts = 4, .ntris = 4, .pos = pos, .tris = tris };
    assert_int_equal(skb_artifacts_mesh_closed(&m), 1);
    assert_true(fabs(skb_artifacts_mesh_volume(&m, pos) - 1.0 / 6) < 1e-15);
    m.ntris = 3;
    assert_int_equal(skb_artifacts_mesh_closed(&m), 0);
}

static void test_jump_and_distance(void **state)
{
    (void)state;
    double a[] = { 0, 0, 0, 1, 1, 1 }, b[] = { 3, 4, 0, 1, 1, 1 }, rms, mx;
    assert_true(fabs(skb_artifacts_max_jump(2, a, b, 2.0) - 2.5) < 1e-15);
    skb_artifacts_distance(2, a, b, 2.0, &rms, &mx);
    assert_true(fabs(mx - 2.5) < 1e-15);
    assert_true(fabs(rms - sqrt(25.0 / 2) / 2) < 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bulge_rigid_limbs_zero),
        cmocka_unit_test(test_bulge_push_one_vertex),
        cmocka_unit_test(test_bulge_split_third_joint),
        cmocka_unit_test(test_limb_radius),
        cmocka_unit_test(test_self_intersections_sweep),
        cmocka_unit_test(test_self_intersections_pair),
        cmocka_unit_test(test_tetrahedron_volume),
        cmocka_unit_test(test_jump_and_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
