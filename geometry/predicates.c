/* predicates.c — exact orientation predicates (Shewchuk's error-free
 * expansions) and the exact triangle-triangle overlap test built on them.
 * See skb_geom.h for the contracts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "skb_geom.h"

/* ------------------------------------------------------ exact predicates */

/* Shewchuk's error-free transformations (no FMA contraction on x86-64
 * baseline; -ffast-math is never used in this project) */
#define SPLITTER 134217729.0   /* 2^27 + 1 */
#define EPS_D 1.1102230246251565e-16   /* 2^-53 */

static void two_sum(skb_real a, skb_real b, skb_real *x, skb_real *y)
{
    skb_real s = a + b, bv = s - a, av = s - bv;
    *x = s;
    *y = (a - av) + (b - bv);
}

static void split(skb_real a, skb_real *hi, skb_real *lo)
{
    skb_real c = SPLITTER * a, abig = c - a;
    *hi = c - abig;
    *lo = a - *hi;
}

static void two_prod(skb_real a, skb_real b, skb_real *x, skb_real *y)
{
    skb_real ahi, alo, bhi, blo, p = a * b;
    split(a, &ahi, &alo);
    split(b, &bhi, &blo);
    skb_real err1 = p - ahi * bhi, err2 = err1 - alo * bhi, err3 = err2 - ahi * blo;
    *x = p;
    *y = alo * blo - err3;
}

/* e (n components, increasing magnitude, non-overlapping) += b: n + 1 components */
static int grow(skb_real *e, int n, skb_real b)
{
    skb_real q = b;
    for (int i = 0; i < n; i++) {
        skb_real s, t;
        two_sum(q, e[i], &s, &t);
        e[i] = t;
        q = s;
    }
    e[n] = q;
    return n + 1;
}

static int expansion_sign(const skb_real *e, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (e[i] != 0)
            return e[i] > 0 ? 1 : -1;
    return 0;
}

/* add s * x * y * z exactly (x, y, z given as two-term expansions) */
static int add_triple(skb_real *e, int n, int sgn, const skb_real x[2], const skb_real y[2],
                      const skb_real z[2])
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            skb_real p, pe;
            two_prod(x[i], y[j], &p, &pe);
            for (int k = 0; k < 2; k++) {
                skb_real a, ae, b, be;
                two_prod(p, z[k], &a, &ae);
                two_prod(pe, z[k], &b, &be);
                n = grow(e, n, sgn * a);
                n = grow(e, n, sgn * ae);
                n = grow(e, n, sgn * b);
                n = grow(e, n, sgn * be);
            }
        }
    return n;
}

static int orient3d_exact(const skb_real o[3], const skb_real a[3], const skb_real b[3],
                          const skb_real c[3])
{
    skb_real d[3][3][2];   /* (a, b, c) - o, each coordinate as hi + lo exactly */
    const skb_real *p[3] = { a, b, c };
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) {
            skb_real x, y;
            two_sum(p[k][i], -o[i], &x, &y);
            d[k][i][0] = x;
            d[k][i][1] = y;
        }
    /* det = sum over permutations: sign * A[0][s0] B[1][s1] C[2][s2] */
    static const int perm[6][4] = {
        { 0, 1, 2, 1 }, { 1, 2, 0, 1 }, { 2, 0, 1, 1 },
        { 0, 2, 1, -1 }, { 2, 1, 0, -1 }, { 1, 0, 2, -1 } };
    skb_real e[6 * 8 * 4 + 1];
    int n = 0;
    for (int k = 0; k < 6; k++)
        n = add_triple(e, n, perm[k][3], d[0][perm[k][0]], d[1][perm[k][1]], d[2][perm[k][2]]);
    return expansion_sign(e, n);
}

int skb_orient3d(const skb_real o[3], const skb_real a[3], const skb_real b[3], const skb_real c[3])
{
    skb_real ax = a[0] - o[0], ay = a[1] - o[1], az = a[2] - o[2];
    skb_real bx = b[0] - o[0], by = b[1] - o[1], bz = b[2] - o[2];
    skb_real cx = c[0] - o[0], cy = c[1] - o[1], cz = c[2] - o[2];
    skb_real m1 = by * cz - bz * cy, m2 = bz * cx - bx * cz, m3 = bx * cy - by * cx;
    skb_real det = ax * m1 + ay * m2 + az * m3;
    skb_real perm = fabs(ax) * (fabs(by * cz) + fabs(bz * cy)) + fabs(ay) * (fabs(bz * cx) + fabs(bx * cz))
                  + fabs(az) * (fabs(bx * cy) + fabs(by * cx));
    /* Shewchuk's orient3d bound A, (7 + 56 eps) eps, widened for the
     * rounding of the differences themselves (those are redone exactly) */
    skb_real bound = (8 + 64 * EPS_D) * EPS_D * perm;
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    return orient3d_exact(o, a, b, c);
}

int skb_orient2d(const skb_real o[3], const skb_real a[3], const skb_real b[3], int i, int j)
{
    skb_real ax = a[i] - o[i], ay = a[j] - o[j], bx = b[i] - o[i], by = b[j] - o[j];
    skb_real l = ax * by, r = ay * bx, det = l - r;
    skb_real bound = (4 + 32 * EPS_D) * EPS_D * (fabs(l) + fabs(r));
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    skb_real dx[2][2], dy[2][2], e[33];
    two_sum(a[i], -o[i], &dx[0][0], &dx[0][1]);
    two_sum(a[j], -o[j], &dy[0][0], &dy[0][1]);
    two_sum(b[i], -o[i], &dx[1][0], &dx[1][1]);
    two_sum(b[j], -o[j], &dy[1][0], &dy[1][1]);
    int n = 0;
    for (int p = 0; p < 2; p++)
        for (int q = 0; q < 2; q++) {
            skb_real x, y;
            two_prod(dx[0][p], dy[1][q], &x, &y);
            n = grow(e, n, x);
            n = grow(e, n, y);
            two_prod(dy[0][p], dx[1][q], &x, &y);
            n = grow(e, n, -x);
            n = grow(e, n, -y);
        }
    return expansion_sign(e, n);
}

/* ------------------------------------------- triangle-triangle (G-D 2003) */

struct tt2 { int i, j; };   /* projection plane coordinates */

static int o2(const struct tt2 *pl, const skb_real *a, const skb_real *b, const skb_real *c)
{
    /* sign of (a - c) x (b - c) in the plane: the ORIENT_2D of the paper */
    return skb_orient2d(c, a, b, pl->i, pl->j);
}

/* closed segments ab and cd in the projection plane share a point */
static int seg_seg_2d(const struct tt2 *pl, const skb_real *a, const skb_real *b,
                      const skb_real *c, const skb_real *d)
{
    int o1 = o2(pl, a, b, c), o2_ = o2(pl, a, b, d), o3 = o2(pl, c, d, a), o4 = o2(pl, c, d, b);
    if (o1 * o2_ < 0 && o3 * o4 < 0)
        return 1;
    /* collinear or touching: bounding-interval overlap along both axes */
    if ((o1 == 0 || o2_ == 0 || o3 == 0 || o4 == 0) && o1 * o2_ <= 0 && o3 * o4 <= 0) {
        for (int k = 0; k < 2; k++) {
            int ax = k ? pl->j : pl->i;
            skb_real lo1 = a[ax] < b[ax] ? a[ax] : b[ax], hi1 = a[ax] < b[ax] ? b[ax] : a[ax];
            skb_real lo2 = c[ax] < d[ax] ? c[ax] : d[ax], hi2 = c[ax] < d[ax] ? d[ax] : c[ax];
            if (hi1 < lo2 || hi2 < lo1)
                return 0;
        }
        return 1;
    }
    return 0;
}

static int point_in_tri_2d(const struct tt2 *pl, const skb_real *x, const skb_real *p,
                           const skb_real *q, const skb_real *r)
{
    int a = o2(pl, p, q, x), b = o2(pl, q, r, x), c = o2(pl, r, p, x);
    return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
}

/* coplanar triangles (also degenerate ones), exactly: they share a point iff
 * two edges meet or a vertex of one lies in the other.  (Guigue-Devillers'
 * own 2D branch saves predicates; this form is simpler to get right and
 * only runs for exactly coplanar pairs.) */
static int tt_2d(const struct tt2 *pl, const skb_real *p1, const skb_real *q1, const skb_real *r1,
                 const skb_real *p2, const skb_real *q2, const skb_real *r2)
{
    const skb_real *t1[3] = { p1, q1, r1 }, *t2[3] = { p2, q2, r2 };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (seg_seg_2d(pl, t1[i], t1[(i + 1) % 3], t2[j], t2[(j + 1) % 3]))
                return 1;
    if (o2(pl, p2, q2, r2) != 0 && point_in_tri_2d(pl, p1, p2, q2, r2))
        return 1;
    if (o2(pl, p1, q1, r1) != 0 && point_in_tri_2d(pl, p2, p1, q1, r1))
        return 1;
    return 0;
}

static int tt_coplanar(const skb_real *p1, const skb_real *q1, const skb_real *r1,
                       const skb_real *p2, const skb_real *q2, const skb_real *r2)
{
    /* project along the dominant axis of a normal; any axis along which the
     * common plane is not parallel works, the predicates stay exact */
    const skb_real *t[2][3] = { { p1, q1, r1 }, { p2, q2, r2 } };
    skb_real best = -1;
    int axis = 2;
    for (int k = 0; k < 2; k++) {
        skb_real u[3], v[3], n[3];
        for (int i = 0; i < 3; i++) {
            u[i] = t[k][1][i] - t[k][0][i];
            v[i] = t[k][2][i] - t[k][0][i];
        }
        skb_v3_cross(u, v, n);
        for (int i = 0; i < 3; i++)
            if (fabs(n[i]) > best) {
                best = fabs(n[i]);
                axis = i;
            }
    }
    struct tt2 pl;
    pl.i = axis == 0 ? 1 : 0;
    pl.j = axis == 2 ? 1 : 2;
    return tt_2d(&pl, p1, q1, r1, p2, q2, r2);
}

/* CHECK_MIN_MAX of the paper: the intervals on the intersection line overlap */
static int tt_minmax(const skb_real *p1, const skb_real *q1, const skb_real *r1,
                     const skb_real *p2, const skb_real *q2, const skb_real *r2)
{
    if (skb_orient3d(q1, q2, p2, p1) > 0)
        return 0;
    if (skb_orient3d(p1, r2, p2, r1) > 0)
        return 0;
    return 1;
}

static int tt_3d(const skb_real *p1, const skb_real *q1, const skb_real *r1,
                 const skb_real *p2, const skb_real *q2, const skb_real *r2,
                 int dp2, int dq2, int dr2)
{
    if (dp2 > 0) {
        if (dq2 > 0) return tt_minmax(p1, r1, q1, r2, p2, q2);
        if (dr2 > 0) return tt_minmax(p1, r1, q1, q2, r2, p2);
        return tt_minmax(p1, q1, r1, p2, q2, r2);
    }
    if (dp2 < 0) {
        if (dq2 < 0) return tt_minmax(p1, q1, r1, r2, p2, q2);
        if (dr2 < 0) return tt_minmax(p1, q1, r1, q2, r2, p2);
        return tt_minmax(p1, r1, q1, p2, q2, r2);
    }
    if (dq2 < 0) {
        if (dr2 >= 0) return tt_minmax(p1, r1, q1, q2, r2, p2);
        return tt_minmax(p1, q1, r1, p2, q2, r2);
    }
    if (dq2 > 0) {
        if (dr2 > 0) return tt_minmax(p1, r1, q1, p2, q2, r2);
        return tt_minmax(p1, q1, r1, q2, r2, p2);
    }
    if (dr2 > 0) return tt_minmax(p1, q1, r1, r2, p2, q2);
    if (dr2 < 0) return tt_minmax(p1, r1, q1, r2, p2, q2);
    return tt_coplanar(p1, q1, r1, p2, q2, r2);
}

int skb_tri_tri_overlap(const skb_real p1[3], const skb_real q1[3], const skb_real r1[3],
                        const skb_real p2[3], const skb_real q2[3], const skb_real r2[3])
{
    /* orientations of T1's vertices against T2's plane, and vice versa */
    int dp1 = skb_orient3d(r2, p1, p2, q2), dq1 = skb_orient3d(r2, q1, p2, q2),
        dr1 = skb_orient3d(r2, r1, p2, q2);
    if (dp1 * dq1 > 0 && dp1 * dr1 > 0)
        return 0;
    int dp2 = skb_orient3d(r1, p2, p1, q1), dq2 = skb_orient3d(r1, q2, p1, q1),
        dr2 = skb_orient3d(r1, r2, p1, q1);
    if (dp2 * dq2 > 0 && dp2 * dr2 > 0)
        return 0;
    if (dp1 > 0) {
        if (dq1 > 0) return tt_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
        if (dr1 > 0) return tt_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
        return tt_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    }
    if (dp1 < 0) {
        if (dq1 < 0) return tt_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
        if (dr1 < 0) return tt_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
        return tt_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
    }
    if (dq1 < 0) {
        if (dr1 >= 0) return tt_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
        return tt_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    }
    if (dq1 > 0) {
        if (dr1 > 0) return tt_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
        return tt_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
    }
    if (dr1 > 0) return tt_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
    if (dr1 < 0) return tt_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
    return tt_coplanar(p1, q1, r1, p2, q2, r2);
}
