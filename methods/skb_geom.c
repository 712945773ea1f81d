/* skb_geom.c — minimal enclosing spheres, exact triangle-triangle overlap,
 * the sphere tree (thesis 5.1-5.3), bottom-up refitting and the collision
 * query of thesis Alg. 2.2.  See skb_geom.h for the contracts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "skb_geom.h"

/* ---------------------------------------------------------------- spheres */

/* a push onto the support set is refused when the new point is this close
 * (squared, relative to the squared radius) to the affine hull of the
 * support: Gaertner's guard against degenerate support sets */
#define MB_PUSH_EPS 1e-24
/* a point counts as outside the current ball only when its excess
 * |p - c|^2 - r^2 exceeds this fraction of r^2: rounding-level excesses of
 * (nearly) cospherical points otherwise send the pivot loop to a smaller,
 * wrong ball.  The final radius is raised to the farthest point anyway. */
#define MB_EXCESS_EPS 1e-13

/* Gaertner's move-to-front miniball with pivoting (Gaertner 1999, the
 * algorithm the thesis cites as [36]); the list is kept as links over the
 * input positions, the support set as the incremental centres c[0..m) */
struct mb {
    const skb_real *pts;
    const int *idx;
    int *next, *prev;
    int head, support_end;
    int m;
    skb_real q0[3], z[4], f[4], v[4][3], a[4][4], c[4][3], sqr_r[4];
    skb_real cur_c[3], cur_sqr_r;
};

static const skb_real *mb_point(const struct mb *b, int k)
{
    return b->pts + 3 * (b->idx ? b->idx[k] : k);
}

static skb_real mb_excess(const struct mb *b, const skb_real *p)
{
    skb_real e = -b->cur_sqr_r, d = 0;
    for (int i = 0; i < 3; i++)
        d = d + (p[i] - b->cur_c[i]) * (p[i] - b->cur_c[i]);
    e = e + d;
    return e > MB_EXCESS_EPS * b->cur_sqr_r ? e : 0;
}

static int mb_push(struct mb *b, const skb_real *p)
{
    int m = b->m;
    if (m == 0) {
        for (int i = 0; i < 3; i++) {
            b->q0[i] = p[i];
            b->c[0][i] = p[i];
        }
        b->sqr_r[0] = 0;
    } else {
        for (int i = 0; i < 3; i++)
            b->v[m][i] = p[i] - b->q0[i];
        for (int i = 1; i < m; i++) {
            skb_real s = 0;
            for (int j = 0; j < 3; j++)
                s = s + b->v[i][j] * b->v[m][j];
            b->a[m][i] = s * 2 / b->z[i];
        }
        for (int i = 1; i < m; i++)
            for (int j = 0; j < 3; j++)
                b->v[m][j] = b->v[m][j] - b->a[m][i] * b->v[i][j];
        skb_real z = 0;
        for (int j = 0; j < 3; j++)
            z = z + b->v[m][j] * b->v[m][j];
        z = z * 2;
        if (z <= MB_PUSH_EPS * b->cur_sqr_r)
            return 0;
        b->z[m] = z;
        skb_real e = -b->sqr_r[m - 1];
        for (int i = 0; i < 3; i++)
            e = e + (p[i] - b->c[m - 1][i]) * (p[i] - b->c[m - 1][i]);
        b->f[m] = e / z;
        for (int i = 0; i < 3; i++)
            b->c[m][i] = b->c[m - 1][i] + b->f[m] * b->v[m][i];
        b->sqr_r[m] = b->sqr_r[m - 1] + e * b->f[m] / 2;
    }
    b->m = m + 1;
    for (int i = 0; i < 3; i++)
        b->cur_c[i] = b->c[m][i];
    b->cur_sqr_r = b->sqr_r[m];
    return 1;
}

static void mb_pop(struct mb *b)
{
    b->m--;
}

static void mb_move_to_front(struct mb *b, int j)
{
    if (b->support_end == j)
        b->support_end = b->next[j];
    if (b->head == j)
        return;
    /* unlink j (not the head, so prev[j] >= 0) and insert it in front */
    b->next[b->prev[j]] = b->next[j];
    if (b->next[j] >= 0)
        b->prev[b->next[j]] = b->prev[j];
    b->prev[j] = -1;
    b->next[j] = b->head;
    b->prev[b->head] = j;
    b->head = j;
}

static void mb_mtf(struct mb *b, int end)
{
    b->support_end = b->head;
    if (b->m == 4)
        return;
    for (int k = b->head; k != end;) {
        int j = k;
        k = b->next[k];
        if (mb_excess(b, mb_point(b, j)) > 0 && mb_push(b, mb_point(b, j))) {
            mb_mtf(b, j);
            mb_pop(b);
            mb_move_to_front(b, j);
        }
    }
}

/* a pop keeps the current ball: it is the one the recursion just found,
 * with the popped point on its boundary (Gaertner's invariant) */
static void mb_pivot(struct mb *b)
{
    int t = b->next[b->head];
    mb_mtf(b, t);
    skb_real max_e, old_sqr_r = -1;
    do {
        int pivot = -1;
        max_e = 0;
        for (int k = t; k != -1; k = b->next[k]) {
            skb_real e = mb_excess(b, mb_point(b, k));
            if (e > max_e) {
                max_e = e;
                pivot = k;
            }
        }
        if (max_e > 0) {
            t = b->support_end;
            if (t == pivot)
                t = b->next[t];
            old_sqr_r = b->cur_sqr_r;
            if (!mb_push(b, mb_point(b, pivot)))
                break;
            mb_mtf(b, b->support_end);
            mb_pop(b);
            mb_move_to_front(b, pivot);
        }
    } while (max_e > 0 && b->cur_sqr_r > old_sqr_r);
}

int skb_miniball(const skb_real *pts, const int *idx, int n, skb_real out[4])
{
    struct mb b;
    out[0] = out[1] = out[2] = 0;
    out[3] = -1;
    if (n <= 0)
        return 0;
    memset(&b, 0, sizeof b);
    b.pts = pts;
    b.idx = idx;
    b.next = (int *)malloc(2 * (size_t)n * sizeof(int));
    if (!b.next)
        return SKB_ENOMEM;
    b.prev = b.next + n;
    for (int k = 0; k < n; k++) {
        b.next[k] = k + 1 < n ? k + 1 : -1;
        b.prev[k] = k - 1;
    }
    b.head = 0;
    b.cur_sqr_r = -1;
    mb_pivot(&b);
    /* the centre is Gaertner's; the radius is what it must be for every
     * point to be inside as computed (rounding in the support-set solve
     * never lets a vertex escape) */
    skb_real r2 = 0;
    for (int k = 0; k < n; k++) {
        const skb_real *p = mb_point(&b, k);
        skb_real d = 0;
        for (int i = 0; i < 3; i++)
            d = d + (p[i] - b.cur_c[i]) * (p[i] - b.cur_c[i]);
        if (d > r2)
            r2 = d;
    }
    for (int i = 0; i < 3; i++)
        out[i] = b.cur_c[i];
    out[3] = sqrt(r2);
    free(b.next);
    return 0;
}

void skb_bounding_sphere(const skb_real *spheres, int n, skb_real out[4])
{
    skb_real c[3] = { 0, 0, 0 }, r = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 3; i++)
            c[i] = c[i] + spheres[4 * k + i];
    for (int i = 0; i < 3; i++)
        c[i] = n > 0 ? c[i] / n : c[i];
    for (int k = 0; k < n; k++) {
        const skb_real *s = spheres + 4 * k;
        skb_real d[3] = { s[0] - c[0], s[1] - c[1], s[2] - c[2] };
        skb_real e = skb_v3_norm(d) + s[3];
        if (e > r)
            r = e;
    }
    for (int i = 0; i < 3; i++)
        out[i] = c[i];
    out[3] = r;
}

static skb_real dist3(const skb_real a[3], const skb_real b[3])
{
    skb_real d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return skb_v3_norm(d);
}

void skb_sphere_of_triangle(const skb_real a[3], const skb_real b[3], const skb_real c[3],
                            skb_real out[4])
{
    const skb_real *p[3] = { a, b, c };
    skb_real len2[3];
    int obtuse = -1;
    for (int k = 0; k < 3; k++) {
        /* angle at p[k]: the dot product of its two edges */
        const skb_real *x = p[k], *y = p[(k + 1) % 3], *z = p[(k + 2) % 3];
        skb_real e1[3] = { y[0] - x[0], y[1] - x[1], y[2] - x[2] };
        skb_real e2[3] = { z[0] - x[0], z[1] - x[1], z[2] - x[2] };
        if (skb_v3_dot(e1, e2) <= 0)
            obtuse = k;
        skb_real o[3] = { z[0] - y[0], z[1] - y[1], z[2] - y[2] };
        len2[k] = skb_v3_dot(o, o);
    }
    skb_real ctr[3];
    skb_real u[3] = { a[0] - c[0], a[1] - c[1], a[2] - c[2] };
    skb_real v[3] = { b[0] - c[0], b[1] - c[1], b[2] - c[2] };
    skb_real n[3];
    skb_v3_cross(u, v, n);
    skb_real nn = skb_v3_dot(n, n);
    if (obtuse < 0 && nn > 0) {
        /* acute: the circumcentre c + ((|u|^2 v - |v|^2 u) x n) / (2 |n|^2) */
        skb_real uu = skb_v3_dot(u, u), vv = skb_v3_dot(v, v), w[3], x[3];
        for (int i = 0; i < 3; i++)
            w[i] = uu * v[i] - vv * u[i];
        skb_v3_cross(w, n, x);
        for (int i = 0; i < 3; i++)
            ctr[i] = c[i] + x[i] / (2 * nn);
    } else {
        /* obtuse, right or degenerate: the midpoint of the longest edge */
        int k = 0;
        if (len2[1] > len2[k]) k = 1;
        if (len2[2] > len2[k]) k = 2;
        const skb_real *y = p[(k + 1) % 3], *z = p[(k + 2) % 3];
        for (int i = 0; i < 3; i++)
            ctr[i] = (y[i] + z[i]) / 2;
    }
    skb_real r = dist3(ctr, a), r1 = dist3(ctr, b), r2 = dist3(ctr, c);
    if (r1 > r) r = r1;
    if (r2 > r) r = r2;
    for (int i = 0; i < 3; i++)
        out[i] = ctr[i];
    out[3] = r;
}

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

/* ------------------------------------------------------------ sphere tree */

struct bnode {
    int tri0, ntri, left, right, depth;
    skb_real s[4];
};

struct build {
    const struct skb_mesh *m;
    int *tri;              /* permuted triangle indices */
    skb_real *centroid;    /* 3 per triangle */
    struct bnode *bn;
    int nbn, depth;
    int *mark, *vbuf;      /* per-vertex stamp, vertex gather buffer */
    int stamp;
};

/* distinct vertices of triangles tri[tri0 .. tri0+ntri) into out; returns count */
static int gather_verts(struct build *b, int tri0, int ntri, int *out)
{
    int n = 0;
    b->stamp++;
    for (int k = tri0; k < tri0 + ntri; k++)
        for (int c = 0; c < 3; c++) {
            int v = b->m->tris[3 * b->tri[k] + c];
            if (b->mark[v] != b->stamp) {
                b->mark[v] = b->stamp;
                out[n++] = v;
            }
        }
    return n;
}

/* thesis Alg. 2.1 */
static int build_node(struct build *b, int tri0, int ntri, int depth, int *rc)
{
    int id = b->nbn++;
    struct bnode *p = &b->bn[id];
    p->tri0 = tri0;
    p->ntri = ntri;
    p->left = p->right = -1;
    p->depth = depth;
    if (depth > b->depth)
        b->depth = depth;
    int nv = gather_verts(b, tri0, ntri, b->vbuf);
    if ((*rc = skb_miniball(b->m->pos, b->vbuf, nv, p->s)) < 0)
        return id;
    if (ntri < 2)
        return id;
    /* split rule: halve the longest side of the box of triangle centroids */
    skb_real lo[3], hi[3];
    for (int i = 0; i < 3; i++)
        lo[i] = hi[i] = b->centroid[3 * b->tri[tri0] + i];
    for (int k = tri0 + 1; k < tri0 + ntri; k++)
        for (int i = 0; i < 3; i++) {
            skb_real x = b->centroid[3 * b->tri[k] + i];
            if (x < lo[i]) lo[i] = x;
            if (x > hi[i]) hi[i] = x;
        }
    int axis = 0;
    for (int i = 1; i < 3; i++)
        if (hi[i] - lo[i] > hi[axis] - lo[axis])
            axis = i;
    skb_real mid = (lo[axis] + hi[axis]) / 2;
    int i = tri0, j = tri0 + ntri - 1;
    while (i <= j) {
        if (b->centroid[3 * b->tri[i] + axis] < mid)
            i++;
        else {
            int t = b->tri[i];
            b->tri[i] = b->tri[j];
            b->tri[j] = t;
            j--;
        }
    }
    int nl = i - tri0;
    if (nl == 0 || nl == ntri)
        return id;   /* thesis Alg. 2.1 lines 4-6: one side empty, a leaf */
    int l = build_node(b, tri0, nl, depth + 1, rc);
    if (*rc < 0)
        return id;
    int r = build_node(b, tri0 + nl, ntri - nl, depth + 1, rc);
    b->bn[id].left = l;
    b->bn[id].right = r;
    return id;
}

/* the final children of binary node p: a child c with r_c > C r_p is
 * replaced by its own children (thesis 5.1) */
static int collapse_children(const struct bnode *bn, int p, int c, skb_real cc, int *out, int n)
{
    if (bn[c].left >= 0 && bn[c].s[3] > cc * bn[p].s[3]) {
        n = collapse_children(bn, p, bn[c].left, cc, out, n);
        return collapse_children(bn, p, bn[c].right, cc, out, n);
    }
    out[n++] = c;
    return n;
}

struct jskey {
    int j[SKB_MAX_INFLUENCES];
    int v;
};

static int jskey_cmp(const void *a, const void *b)
{
    const struct jskey *x = (const struct jskey *)a, *y = (const struct jskey *)b;
    for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
        if (x->j[i] != y->j[i])
            return x->j[i] < y->j[i] ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* joints with positive weight of vertex v, ascending, padded with -1, and
 * their summed weights normalised to 1 */
static int vertex_joint_set(const struct skb_mesh *m, int v, int j[SKB_MAX_INFLUENCES],
                            skb_real w[SKB_MAX_INFLUENCES])
{
    int n = 0;
    skb_real sum = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        j[k] = -1;
        w[k] = 0;
    }
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        int jk = m->joint[SKB_MAX_INFLUENCES * v + k];
        skb_real wk = m->weight[SKB_MAX_INFLUENCES * v + k];
        if (!(wk > 0))
            continue;
        sum = sum + wk;
        int at = 0;
        while (at < n && j[at] < jk)
            at++;
        if (at < n && j[at] == jk) {
            w[at] = w[at] + wk;
            continue;
        }
        for (int i = n; i > at; i--) {
            j[i] = j[i - 1];
            w[i] = w[i - 1];
        }
        j[at] = jk;
        w[at] = wk;
        n++;
    }
    for (int k = 0; k < n; k++)
        w[k] = w[k] / sum;
    return n;
}

/* corners of W'_n = {w : lo <= w <= hi, sum w = 1} (thesis 5.2.1): every
 * vertex has n-1 coordinates at a bound and the last one fixed by the sum;
 * brute force over the free coordinate and the 2^(n-1) bound choices */
static int weight_corners(int n, const skb_real *lo0, const skb_real *hi0, skb_real *out)
{
    skb_real lo[SKB_MAX_INFLUENCES], hi[SKB_MAX_INFLUENCES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        lo[i] = lo0[i] - SKB_TREE_WEIGHT_SLACK;
        hi[i] = hi0[i] + SKB_TREE_WEIGHT_SLACK;
        if (lo[i] < 0) lo[i] = 0;
        if (hi[i] > 1) hi[i] = 1;
    }
    if (n == 1) {
        out[0] = 1;
        for (int i = 1; i < SKB_MAX_INFLUENCES; i++)
            out[i] = 0;
        return 1;
    }
    for (int f = 0; f < n; f++)
        for (int mask = 0; mask < (1 << (n - 1)); mask++) {
            skb_real w[SKB_MAX_INFLUENCES] = { 0, 0, 0, 0 }, s = 0;
            int bit = 0;
            for (int i = 0; i < n; i++) {
                if (i == f)
                    continue;
                w[i] = (mask >> bit++) & 1 ? hi[i] : lo[i];
                s = s + w[i];
            }
            w[f] = 1 - s;
            /* degenerate polytopes (weights at their bounds summing to 1
             * exactly) put w[f] on its bound up to rounding: accept ties */
            if (w[f] < lo[f] - SKB_TREE_CORNER_MERGE || w[f] > hi[f] + SKB_TREE_CORNER_MERGE)
                continue;
            int dup = 0;
            for (int c = 0; c < nc && !dup; c++) {
                dup = 1;
                for (int i = 0; i < n; i++)
                    if (fabs(out[SKB_MAX_INFLUENCES * c + i] - w[i]) > SKB_TREE_CORNER_MERGE)
                        dup = 0;
            }
            if (dup)
                continue;
            for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
                out[SKB_MAX_INFLUENCES * nc + i] = w[i];
            nc++;
        }
    return nc;
}

static int tree_fail(int rc, char *msg, size_t msglen, const char *what)
{
    if (msg && msglen)
        snprintf(msg, msglen, "sphere tree: %s", what);
    return rc;
}

int skb_sphere_tree_build(const struct skb_mesh *m, skb_real collapse_c, struct skb_sphere_tree *t,
                          char *msg, size_t msglen)
{
    struct build b;
    int rc = 0, nt = m->ntris, nv = m->nverts;
    memset(t, 0, sizeof *t);
    memset(&b, 0, sizeof b);
    if (nt < 1 || nv < 3 || !m->tris)
        return tree_fail(SKB_EINVAL, msg, msglen, "mesh has no triangles");
    b.m = m;
    b.tri = (int *)malloc(sizeof(int) * (size_t)nt);
    b.centroid = (skb_real *)malloc(sizeof(skb_real) * 3 * (size_t)nt);
    b.bn = (struct bnode *)malloc(sizeof(struct bnode) * (2 * (size_t)nt));
    b.mark = (int *)calloc((size_t)nv, sizeof(int));
    b.vbuf = (int *)malloc(sizeof(int) * (size_t)nv);
    int *order = (int *)malloc(sizeof(int) * (2 * (size_t)nt));
    int *kids = (int *)malloc(sizeof(int) * (2 * (size_t)nt));
    int *final_of = (int *)malloc(sizeof(int) * (2 * (size_t)nt));
    struct jskey *keys = (struct jskey *)malloc(sizeof(struct jskey) * (size_t)nv);
    int *vjs = (int *)malloc(sizeof(int) * (size_t)nv);
    int *gjs_mark = NULL, *gjs_local = NULL;
    struct jskey *gjs = NULL;
    int head = 0, tail = 0, nkids_total = 0, ngjs = 0;
    long vcap = 0, jcap = 0, ccap = 0;
    if (!b.tri || !b.centroid || !b.bn || !b.mark || !b.vbuf || !order || !kids || !final_of
        || !keys || !vjs) {
        rc = SKB_ENOMEM;
        goto fail;
    }
    for (int k = 0; k < nt; k++) {
        b.tri[k] = k;
        for (int i = 0; i < 3; i++) {
            const int *tv = m->tris + 3 * k;
            b.centroid[3 * k + i] = (m->pos[3 * tv[0] + i] + m->pos[3 * tv[1] + i] + m->pos[3 * tv[2] + i]) / 3;
        }
    }
    build_node(&b, 0, nt, 1, &rc);
    if (rc < 0)
        goto fail;
    t->nnodes_binary = b.nbn;
    t->depth_binary = b.depth;

    /* collapse and renumber breadth-first: order[] lists binary ids, children
     * of one node are consecutive, so child0 is the first child's index */
    order[tail++] = 0;
    t->node = (struct skb_sphere_node *)calloc(2 * (size_t)nt, sizeof(struct skb_sphere_node));
    if (!t->node) {
        rc = SKB_ENOMEM;
        goto fail;
    }
    while (head < tail) {
        int p = order[head], id = head++;
        struct skb_sphere_node *nd = &t->node[id];
        final_of[p] = id;
        memcpy(nd->s, b.bn[p].s, sizeof nd->s);
        nd->tri0 = b.bn[p].tri0;
        nd->ntri = b.bn[p].ntri;
        if (id == 0) {
            nd->parent = -1;
            nd->level = 1;
        }
        nd->child0 = tail;
        nd->nchild = 0;
        if (b.bn[p].left >= 0) {
            int n = collapse_children(b.bn, p, b.bn[p].left, collapse_c, kids, 0);
            n = collapse_children(b.bn, p, b.bn[p].right, collapse_c, kids, n);
            for (int k = 0; k < n; k++) {
                t->node[tail].parent = id;
                t->node[tail].level = nd->level + 1;
                order[tail++] = kids[k];
            }
            nd->nchild = n;
            nkids_total += n;
            if (n > t->max_children)
                t->max_children = n;
        } else {
            t->nleaves++;
            if (nd->ntri > t->max_leaf_tris)
                t->max_leaf_tris = nd->ntri;
        }
        if (nd->level > t->depth)
            t->depth = nd->level;
    }
    t->nnodes = tail;
    t->child = (int *)malloc(sizeof(int) * (size_t)(nkids_total + 1));
    t->tri = b.tri;
    b.tri = NULL;
    if (!t->child) {
        rc = SKB_ENOMEM;
        goto fail;
    }
    for (int id = 0; id < t->nnodes; id++) {
        struct skb_sphere_node *nd = &t->node[id];
        for (int k = 0; k < nd->nchild; k++)
            t->child[nd->child0 - 1 + k] = nd->child0 + k;
        nd->child0 = nd->child0 - 1;   /* index into t->child: node ids 1.. map to slots 0.. */
    }

    /* global joint sets: sort the vertices by their set of influences */
    for (int v = 0; v < nv; v++) {
        skb_real w[SKB_MAX_INFLUENCES];
        vertex_joint_set(m, v, keys[v].j, w);
        keys[v].v = v;
    }
    qsort(keys, (size_t)nv, sizeof *keys, jskey_cmp);
    gjs = (struct jskey *)malloc(sizeof(struct jskey) * (size_t)nv);
    if (!gjs) {
        rc = SKB_ENOMEM;
        goto fail;
    }
    for (int k = 0; k < nv; k++) {
        if (k == 0 || memcmp(keys[k].j, keys[k - 1].j, sizeof keys[k].j) != 0)
            gjs[ngjs++] = keys[k];
        vjs[keys[k].v] = ngjs - 1;
    }
    gjs_mark = (int *)malloc(sizeof(int) * (size_t)ngjs);
    gjs_local = (int *)malloc(sizeof(int) * (size_t)ngjs);
    if (!gjs_mark || !gjs_local) {
        rc = SKB_ENOMEM;
        goto fail;
    }
    for (int k = 0; k < ngjs; k++)
        gjs_mark[k] = -1;

    /* per node: distinct vertices, joint sets with weight intervals, corners */
    for (int pass = 0; pass < 2; pass++) {
        long nvt = 0, njs = 0, nc = 0;
        if (pass == 1) {
            t->vert = (int *)malloc(sizeof(int) * (size_t)(vcap + 1));
            t->js = (struct skb_joint_set *)malloc(sizeof(struct skb_joint_set) * (size_t)(jcap + 1));
            t->corner = (skb_real *)malloc(sizeof(skb_real) * SKB_MAX_INFLUENCES * (size_t)(ccap + 1));
            if (!t->vert || !t->js || !t->corner) {
                rc = SKB_ENOMEM;
                goto fail;
            }
            for (int k = 0; k < ngjs; k++)
                gjs_mark[k] = -1;
        }
        for (int id = 0; id < t->nnodes; id++) {
            struct skb_sphere_node *nd = &t->node[id];
            b.tri = t->tri;
            int n = gather_verts(&b, nd->tri0, nd->ntri, b.vbuf);
            b.tri = NULL;
            int js0 = (int)njs, nloc = 0;
            skb_real wdev = 0;
            for (int k = 0; k < n; k++) {
                int v = b.vbuf[k], g = vjs[v];
                int jj[SKB_MAX_INFLUENCES];
                skb_real w[SKB_MAX_INFLUENCES];
                if (gjs_mark[g] != id) {
                    gjs_mark[g] = id;
                    gjs_local[g] = nloc++;
                    if (pass == 1) {
                        struct skb_joint_set *js = &t->js[js0 + gjs_local[g]];
                        memset(js, 0, sizeof *js);
                        js->n = 0;
                        js->vertex = v;
                        for (int i = 0; i < SKB_MAX_INFLUENCES; i++) {
                            js->joint[i] = gjs[g].j[i];
                            if (gjs[g].j[i] >= 0)
                                js->n++;
                            js->lo[i] = 2;
                            js->hi[i] = -1;
                        }
                    }
                }
                if (pass == 1) {
                    struct skb_joint_set *js = &t->js[js0 + gjs_local[g]];
                    skb_real sum = 0;
                    for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
                        sum = sum + m->weight[SKB_MAX_INFLUENCES * v + i];
                    if (fabs(sum - 1) > wdev)
                        wdev = fabs(sum - 1);
                    vertex_joint_set(m, v, jj, w);
                    for (int i = 0; i < js->n; i++) {
                        if (w[i] < js->lo[i]) js->lo[i] = w[i];
                        if (w[i] > js->hi[i]) js->hi[i] = w[i];
                    }
                    t->vert[nvt + k] = v;
                }
            }
            if (pass == 1) {
                nd->wsum_dev = wdev;
                nd->vert0 = (int)nvt;
                nd->nvert = n;
                nd->js0 = js0;
                nd->njs = nloc;
                int nref = 0;
                for (int k = 0; k < nloc; k++) {
                    struct skb_joint_set *js = &t->js[js0 + k];
                    js->corner0 = (int)nc;
                    js->ncorner = weight_corners(js->n, js->lo, js->hi,
                                                 t->corner + SKB_MAX_INFLUENCES * nc);
                    if (js->ncorner < 1) {
                        rc = tree_fail(SKB_ENUMERIC, msg, msglen, "empty weight polytope");
                        goto fail;
                    }
                    nc += js->ncorner;
                    nref += js->ncorner;
                }
                if (nref > t->max_refit_spheres)
                    t->max_refit_spheres = nref;
            } else {
                /* pass 0 only counts; corners are at most n * 2^(n-1) */
                nc += (long)nloc * SKB_MAX_INFLUENCES * (1 << (SKB_MAX_INFLUENCES - 1));
            }
            nvt += n;
            njs += nloc;
        }
        vcap = nvt;
        jcap = njs;
        ccap = nc;
        if (pass == 1) {
            t->nvert_total = nvt;
            t->njs = (int)njs;
            t->ncorner = (int)nc;
        }
    }
fail:
    /* one exit: the temporaries always, the tree only on failure */
    free(b.tri);
    free(b.centroid);
    free(b.bn);
    free(b.mark);
    free(b.vbuf);
    free(order);
    free(kids);
    free(final_of);
    free(keys);
    free(vjs);
    free(gjs);
    free(gjs_mark);
    free(gjs_local);
    if (rc < 0) {
        skb_sphere_tree_free(t);
        if (msg && msglen && rc == SKB_ENOMEM)
            snprintf(msg, msglen, "sphere tree: out of memory (%d triangles)", nt);
    }
    return rc;
}

void skb_sphere_tree_free(struct skb_sphere_tree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t->child);
    free(t->tri);
    free(t->vert);
    free(t->js);
    free(t->corner);
    memset(t, 0, sizeof *t);
}

size_t skb_sphere_tree_scratch_list2(const struct skb_sphere_tree *t)
{
    return 4 * (size_t)SKB_MAX_INFLUENCES * (size_t)(t->max_refit_spheres + 1);
}

size_t skb_sphere_tree_scratch_len(const struct skb_sphere_tree *t)
{
    return skb_sphere_tree_scratch_list2(t) + 4 * (size_t)SKB_TREE_MAX_CORNERS;
}

/* ------------------------------------------------- bottom-up and "best" */

void skb_sphere_tree_refit_bottom_up(const struct skb_sphere_tree *t, const int *tris,
                                     const skb_real *pos, skb_real *out)
{
    /* BFS order: every child has a larger index than its parent */
    for (int id = t->nnodes - 1; id >= 0; id--) {
        const struct skb_sphere_node *nd = &t->node[id];
        skb_real *o = out + 4 * id;
        if (nd->nchild == 0) {
            if (nd->ntri == 1) {
                const int *tv = tris + 3 * t->tri[nd->tri0];
                skb_sphere_of_triangle(pos + 3 * tv[0], pos + 3 * tv[1], pos + 3 * tv[2], o);
            } else {
                /* Alg. 5.1 on the leaf's vertices (points) */
                skb_real c[3] = { 0, 0, 0 }, r = 0;
                for (int k = 0; k < nd->nvert; k++)
                    for (int i = 0; i < 3; i++)
                        c[i] = c[i] + pos[3 * t->vert[nd->vert0 + k] + i];
                for (int i = 0; i < 3; i++)
                    c[i] = c[i] / nd->nvert;
                for (int k = 0; k < nd->nvert; k++) {
                    skb_real d = dist3(c, pos + 3 * t->vert[nd->vert0 + k]);
                    if (d > r)
                        r = d;
                }
                for (int i = 0; i < 3; i++)
                    o[i] = c[i];
                o[3] = r;
            }
        } else {
            /* children are consecutive node ids child0+1 .. (see build) */
            skb_bounding_sphere(out + 4 * t->child[nd->child0], nd->nchild, o);
        }
    }
}

int skb_sphere_tree_best(const struct skb_sphere_tree *t, const skb_real *pos, skb_real *out)
{
    for (int id = 0; id < t->nnodes; id++) {
        const struct skb_sphere_node *nd = &t->node[id];
        int rc = skb_miniball(pos, t->vert + nd->vert0, nd->nvert, out + 4 * id);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------ collision query */

struct cdq {
    const struct skb_cd_body *a, *b;
    int mode;
    int *pairs;
    long max_pairs;
    struct skb_cd_stats *st;
    int done;
};

static int leaf_pairs(struct cdq *q, int na, int nb)
{
    const struct skb_sphere_node *x = &q->a->tree->node[na], *y = &q->b->tree->node[nb];
    for (int i = x->tri0; i < x->tri0 + x->ntri; i++) {
        int ta = q->a->tree->tri[i];
        const int *va = q->a->tris + 3 * ta;
        const skb_real *p1 = q->a->vertex(q->a->ctx, va[0]), *q1 = q->a->vertex(q->a->ctx, va[1]),
                       *r1 = q->a->vertex(q->a->ctx, va[2]);
        if (!p1 || !q1 || !r1)
            return SKB_ENUMERIC;
        for (int j = y->tri0; j < y->tri0 + y->ntri; j++) {
            int tb = q->b->tree->tri[j];
            const int *vb = q->b->tris + 3 * tb;
            const skb_real *p2 = q->b->vertex(q->b->ctx, vb[0]), *q2 = q->b->vertex(q->b->ctx, vb[1]),
                           *r2 = q->b->vertex(q->b->ctx, vb[2]);
            if (!p2 || !q2 || !r2)
                return SKB_ENUMERIC;
            q->st->tri_tests++;
            if (skb_tri_tri_overlap(p1, q1, r1, p2, q2, r2)) {
                if (q->pairs && q->st->npairs < q->max_pairs) {
                    q->pairs[2 * q->st->npairs] = ta;
                    q->pairs[2 * q->st->npairs + 1] = tb;
                } else if (q->pairs) {
                    q->st->overflow = 1;
                }
                q->st->npairs++;
                if (q->mode == SKB_CD_YESNO) {
                    q->done = 1;
                    return 0;
                }
            }
        }
    }
    return 0;
}

/* thesis Alg. 2.2; spheres are fetched (refitted on demand) just before the
 * overlap test, as in thesis 5.3 */
static int coltest(struct cdq *q, int na, int nb)
{
    skb_real sa[4], sb[4];
    int rc;
    if ((rc = q->a->sphere(q->a->ctx, na, sa)) < 0 || (rc = q->b->sphere(q->b->ctx, nb, sb)) < 0)
        return rc;
    q->st->sphere_tests++;
    skb_real d[3] = { sa[0] - sb[0], sa[1] - sb[1], sa[2] - sb[2] }, rr = sa[3] + sb[3];
    if (skb_v3_dot(d, d) > rr * rr)
        return 0;
    const struct skb_sphere_node *x = &q->a->tree->node[na], *y = &q->b->tree->node[nb];
    if (x->nchild == 0 && y->nchild == 0)
        return leaf_pairs(q, na, nb);
    if (x->nchild > 0 && (y->nchild == 0 || sa[3] >= sb[3])) {
        for (int k = 0; k < x->nchild && !q->done; k++)
            if ((rc = coltest(q, q->a->tree->child[x->child0 + k], nb)) < 0)
                return rc;
    } else {
        for (int k = 0; k < y->nchild && !q->done; k++)
            if ((rc = coltest(q, na, q->b->tree->child[y->child0 + k])) < 0)
                return rc;
    }
    return 0;
}

long skb_cd_query(const struct skb_cd_body *a, const struct skb_cd_body *b, int mode,
                  int *pairs, long max_pairs, struct skb_cd_stats *st)
{
    struct cdq q;
    memset(st, 0, sizeof *st);
    q.a = a;
    q.b = b;
    q.mode = mode;
    q.pairs = pairs;
    q.max_pairs = max_pairs;
    q.st = st;
    q.done = 0;
    int rc = coltest(&q, 0, 0);
    if (rc < 0)
        return rc;
    return st->npairs;
}

static void tri_box(const int *v, const skb_real *pos, skb_real box[6])
{
    for (int i = 0; i < 3; i++) {
        skb_real a = pos[3 * v[0] + i], b = pos[3 * v[1] + i], c = pos[3 * v[2] + i];
        box[i] = a < b ? (a < c ? a : c) : (b < c ? b : c);
        box[3 + i] = a > b ? (a > c ? a : c) : (b > c ? b : c);
    }
}

long skb_cd_brute_force(const int *tris_a, int ntris_a, const skb_real *pos_a,
                        const int *tris_b, int ntris_b, const skb_real *pos_b,
                        int *pairs, long max_pairs)
{
    /* every pair; a box test first (min/max are exact, so it only skips
     * pairs that cannot share a point) */
    skb_real *boxb = (skb_real *)malloc(sizeof(skb_real) * 6 * (size_t)(ntris_b > 0 ? ntris_b : 1));
    long n = 0;
    if (!boxb)
        return SKB_ENOMEM;
    for (int j = 0; j < ntris_b; j++)
        tri_box(tris_b + 3 * j, pos_b, boxb + 6 * j);
    for (int i = 0; i < ntris_a; i++) {
        const int *va = tris_a + 3 * i;
        skb_real ba[6];
        tri_box(va, pos_a, ba);
        for (int j = 0; j < ntris_b; j++) {
            const int *vb = tris_b + 3 * j;
            const skb_real *bb = boxb + 6 * j;
            if (ba[3] < bb[0] || bb[3] < ba[0] || ba[4] < bb[1] || bb[4] < ba[1] || ba[5] < bb[2] || bb[5] < ba[2])
                continue;
            if (skb_tri_tri_overlap(pos_a + 3 * va[0], pos_a + 3 * va[1], pos_a + 3 * va[2],
                                    pos_b + 3 * vb[0], pos_b + 3 * vb[1], pos_b + 3 * vb[2])) {
                if (pairs && n < max_pairs) {
                    pairs[2 * n] = i;
                    pairs[2 * n + 1] = j;
                }
                n++;
            }
        }
    }
    free(boxb);
    return n;
}
