/* miniball.c — minimal enclosing spheres: Gaertner's move-to-front miniball
 * of points, the sphere around spheres and around one triangle (thesis 5.1).
 * See skb_geom.h for the contracts. */
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
