/* test_arm_volume.c — harness/arm_volume.c, the numbers behind the arm's
 * volume curve: the closed-tube volume and the ring area of an
 * exact polygonal prism, their invariance under a rigid motion, and the
 * collapse of a ring squeezed to a line. */
#include "skb_test.h"
#include <math.h>
#include <stdlib.h>
#include "skb_pictures.h"

#define RINGS 5
#define SECTORS 12
#define LENGTH 2.0
#define RADIUS 0.25

static void prism(double *pos)
{
    for (int r = 0; r < RINGS; r++)
        for (int k = 0; k < SECTORS; k++) {
            double a = 2 * M_PI * k / SECTORS, *p = pos + 3 * (r * SECTORS + k);
            p[0] = LENGTH * r / (RINGS - 1);
            p[1] = RADIUS * cos(a);
            p[2] = RADIUS * sin(a);
        }
}

/* regular polygon area: s/2 r^2 sin(2 pi / s) */
static double polygon_area(void)
{
    return 0.5 * SECTORS * RADIUS * RADIUS * sin(2 * M_PI / SECTORS);
}

static void test_prism_volume_and_area(void **state)
{
    (void)state;
    double pos[3 * RINGS * SECTORS];
    prism(pos);
    assert_true(fabs(fabs(skb_arm_tube_volume(pos, RINGS, SECTORS)) - polygon_area() * LENGTH) < 1e-13);
    for (int r = 0; r < RINGS; r++)
        assert_true(fabs(skb_arm_ring_area(pos, r, SECTORS) - polygon_area()) < 1e-14);
}

/* a rotation about a tilted axis and a translation keep both numbers */
static void test_rigid_motion_invariance(void **state)
{
    (void)state;
    double pos[3 * RINGS * SECTORS], moved[3 * RINGS * SECTORS];
    double c = cos(0.7), s = sin(0.7), t[3] = { 3.0, -1.5, 10.0 };
    prism(pos);
    for (int v = 0; v < RINGS * SECTORS; v++) {   /* rotate about z, then shift */
        const double *p = pos + 3 * v;
        moved[3 * v] = c * p[0] - s * p[1] + t[0];
        moved[3 * v + 1] = s * p[0] + c * p[1] + t[1];
        moved[3 * v + 2] = p[2] + t[2];
    }
    double v0 = skb_arm_tube_volume(pos, RINGS, SECTORS), v1 = skb_arm_tube_volume(moved, RINGS, SECTORS);
    assert_true(fabs(v1 - v0) < 1e-12 * fabs(v0));
    assert_true(fabs(skb_arm_ring_area(moved, 2, SECTORS) - polygon_area()) < 1e-13);
}

/* the candy wrapper's end state: the middle ring squeezed onto its centre */
static void test_collapsed_ring(void **state)
{
    (void)state;
    double pos[3 * RINGS * SECTORS];
    prism(pos);
    for (int k = 0; k < SECTORS; k++) {
        pos[3 * (2 * SECTORS + k) + 1] = 0;
        pos[3 * (2 * SECTORS + k) + 2] = 0;
    }
    double full = polygon_area() * LENGTH, v = fabs(skb_arm_tube_volume(pos, RINGS, SECTORS));
    assert_true(skb_arm_ring_area(pos, 2, SECTORS) == 0);
    assert_true(v < full && v > 0.5 * full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prism_volume_and_area),
        cmocka_unit_test(test_rigid_motion_invariance),
        cmocka_unit_test(test_collapsed_ring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
