/* artifacts_metrics.c — what the `artifacts` experiment measures on one posed
 * mesh (harness/skb_artifacts.h): model size, limb radius, joint bulge,
 * closedness and enclosed volume, self-intersections, distances and jumps.
 * The arm's elbow section and tube volume are harness/arm_volume.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_artifacts.h"
#include "skb_geom.h"

double skb_artifacts_model_size(const struct skb_mesh *m)
{
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY }, s = 0;
    for (int v = 0; v < m->nverts; v++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], m->pos[3 * v + k]);
            hi[k] = fmax(hi[k], m->pos[3 * v + k]);
        }
    for (int k = 0; k < 3; k++)
        s = fmax(s, hi[k] - lo[k]);
    return s;
}

static double weight_of(const struct skb_mesh *m, int v, int j)
{
    double w = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++)
        if (j >= 0 && m->joint[4 * v + k] == j)
            w += m->weight[4 * v + k];
    return w;
}

static int first_child(const struct skb_mesh *m, int j)
{
    for (int c = 0; c < m->njoints; c++)
        if (m->parent[c] == j)
            return c;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* distance from x to the ray o + s d, s >= 0 (d need not be unit) */
static double ray_distance(const double o[3], const double d[3], const skb_real *x)
{
    double e[3] = { x[0] - o[0], x[1] - o[1], x[2] - o[2] }, dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double s = dd > 0 ? fmax(0, (e[0] * d[0] + e[1] * d[1] + e[2] * d[2]) / dd) : 0, q = 0;
    for (int k = 0; k < 3; k++)
        q += (e[k] - s * d[k]) * (e[k] - s * d[k]);
    return sqrt(q);
}

/* the bone directions leaving j at rest: towards its parent (a) and its first
 * child (b); a missing one is the other reversed.  -1 when j has neither. */
static int bone_rays(const struct skb_mesh *m, int j, double a[3], double b[3])
{
    int p = m->parent[j], c = first_child(m, j);
    const skb_real *o = m->joint_rest + 3 * j;
    if (p < 0 && c < 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        a[k] = p >= 0 ? m->joint_rest[3 * p + k] - o[k] : o[k] - m->joint_rest[3 * c + k];
        b[k] = c >= 0 ? m->joint_rest[3 * c + k] - o[k] : -a[k];
    }
    return 0;
}

double skb_artifacts_limb_radius(const struct skb_mesh *m, int j)
{
    double a[3], b[3], r = NAN, o[3];
    int n = 0, p = m->parent[j];
    if (bone_rays(m, j, a, b) < 0)
        return NAN;
    double *dist = malloc(sizeof(double) * (size_t)m->nverts + 1);
    if (!dist)
        return NAN;
    for (int k = 0; k < 3; k++)
        o[k] = m->joint_rest[3 * j + k];
    for (int v = 0; v < m->nverts; v++)
        if (weight_of(m, v, j) > 0 && weight_of(m, v, p) > 0)
            dist[n++] = fmin(ray_distance(o, a, m->pos + 3 * v), ray_distance(o, b, m->pos + 3 * v));
    if (n > 0) {
        qsort(dist, (size_t)n, sizeof *dist, cmp_double);
        r = dist[n / 2];
    }
    free(dist);
    return r;
}

/* the ray (o, d) moved by the 4x4 row-major matrix c */
static void move_ray(const skb_real *c, const double o[3], const double d[3], double mo[3], double md[3])
{
    for (int i = 0; i < 3; i++) {
        mo[i] = c[4 * i] * o[0] + c[4 * i + 1] * o[1] + c[4 * i + 2] * o[2] + c[4 * i + 3];
        md[i] = c[4 * i] * d[0] + c[4 * i + 1] * d[1] + c[4 * i + 2] * d[2];
    }
}

/* whether vertex v has weight on a joint other than j and p */
static int other_influence(const struct skb_mesh *m, int v, int j, int p)
{
    for (int c = 0; c < SKB_MAX_INFLUENCES; c++) {
        int q = m->joint[SKB_MAX_INFLUENCES * v + c];
        if (m->weight[SKB_MAX_INFLUENCES * v + c] > 0 && q != j && q != p)
            return 1;
    }
    return 0;
}

void skb_artifacts_bulge_split(const struct skb_mesh *m, int j, const skb_real *mats, const skb_real *pos,
                               double radius, double out[2], int count[2])
{
    double a[3], b[3], o[3], oa[3], da[3], ob[3], db[3], worst[2] = { -INFINITY, -INFINITY };
    int p = m->parent[j];
    count[0] = count[1] = 0;
    out[0] = out[1] = NAN;
    if (bone_rays(m, j, a, b) < 0)
        return;
    for (int k = 0; k < 3; k++)
        o[k] = m->joint_rest[3 * j + k];
    /* the parent's bone moves with the parent (at rest when j is a root) */
    if (p >= 0)
        move_ray(mats + 16 * p, o, a, oa, da);
    else
        move_ray(mats + 16 * j, o, a, oa, da);
    move_ray(mats + 16 * j, o, b, ob, db);
    for (int v = 0; v < m->nverts; v++) {
        if (weight_of(m, v, j) <= 0 && weight_of(m, v, p) <= 0)
            continue;
        int cls = other_influence(m, v, j, p);
        double rest = fmin(ray_distance(o, a, m->pos + 3 * v), ray_distance(o, b, m->pos + 3 * v));
        double posed = fmin(ray_distance(oa, da, pos + 3 * v), ray_distance(ob, db, pos + 3 * v));
        worst[cls] = fmax(worst[cls], posed - rest);
        count[cls]++;
    }
    for (int c = 0; c < 2; c++)
        out[c] = isfinite(worst[c]) ? worst[c] / radius : NAN;
}

double skb_artifacts_bulge(const struct skb_mesh *m, int j, const skb_real *mats, const skb_real *pos,
                           double radius)
{
    double w[2];
    int n[2];
    skb_artifacts_bulge_split(m, j, mats, pos, radius, w, n);
    return n[0] && n[1] ? fmax(w[0], w[1]) : n[0] ? w[0] : w[1];
}

static int cmp_edge(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

int skb_artifacts_mesh_closed(const struct skb_mesh *m)
{
    int ne = 3 * m->ntris, ok = ne > 0;
    int *e = malloc(sizeof(int) * 2 * (size_t)ne + 1);
    if (!e)
        return 0;
    for (int t = 0; t < m->ntris; t++)
        for (int k = 0; k < 3; k++) {
            int a = m->tris[3 * t + k], b = m->tris[3 * t + (k + 1) % 3];
            e[6 * t + 2 * k] = a < b ? a : b;
            e[6 * t + 2 * k + 1] = a < b ? b : a;
        }
    qsort(e, (size_t)ne, 2 * sizeof(int), cmp_edge);
    /* sorted: every edge appears as exactly one pair of equal neighbours */
    for (int i = 0; i < ne && ok; i += 2)
        ok = i + 1 < ne && cmp_edge(e + 2 * i, e + 2 * i + 2) == 0
             && (i + 2 >= ne || cmp_edge(e + 2 * i, e + 2 * i + 4) != 0);
    free(e);
    return ok;
}

double skb_artifacts_mesh_volume(const struct skb_mesh *m, const skb_real *pos)
{
    double v = 0;
    for (int t = 0; t < m->ntris; t++) {
        const skb_real *a = pos + 3 * m->tris[3 * t], *b = pos + 3 * m->tris[3 * t + 1], *c = pos + 3 * m->tris[3 * t + 2];
        v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return v / 6;
}

struct tri_box { double lo[3], hi[3]; int t; };

static int cmp_box(const void *a, const void *b)
{
    return cmp_double(&((const struct tri_box *)a)->lo[0], &((const struct tri_box *)b)->lo[0]);
}

static int share_vertex(const int *a, const int *b)
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            if (a[i] == b[k])
                return 1;
    return 0;
}

static void tri_bounds(const int *tri, const skb_real *pos, struct tri_box *b)
{
    for (int k = 0; k < 3; k++) {
        b->lo[k] = INFINITY;
        b->hi[k] = -INFINITY;
        for (int i = 0; i < 3; i++) {
            b->lo[k] = fmin(b->lo[k], pos[3 * tri[i] + k]);
            b->hi[k] = fmax(b->hi[k], pos[3 * tri[i] + k]);
        }
    }
}

static int boxes_apart(const struct tri_box *a, const struct tri_box *b)
{
    return b->lo[1] > a->hi[1] || a->lo[1] > b->hi[1] || b->lo[2] > a->hi[2] || a->lo[2] > b->hi[2];
}

long skb_artifacts_self_intersections(const int *tris, int ntris, const skb_real *pos)
{
    struct tri_box *b = malloc(sizeof *b * (size_t)ntris + 1);
    long count = 0;
    if (!b)
        return -1;
    for (int t = 0; t < ntris; t++) {
        b[t].t = t;
        tri_bounds(tris + 3 * t, pos, b + t);
    }
    qsort(b, (size_t)ntris, sizeof *b, cmp_box);
    for (int i = 0; i < ntris; i++)
        for (int j = i + 1; j < ntris && b[j].lo[0] <= b[i].hi[0]; j++) {
            const int *p = tris + 3 * b[i].t, *q = tris + 3 * b[j].t;
            if (boxes_apart(b + i, b + j) || share_vertex(p, q))
                continue;
            count += skb_tri_tri_overlap(pos + 3 * p[0], pos + 3 * p[1], pos + 3 * p[2], pos + 3 * q[0],
                                         pos + 3 * q[1], pos + 3 * q[2]);
        }
    free(b);
    return count;
}

static double vertex_gap(const skb_real *a, const skb_real *b)
{
    double d = 0;
    for (int k = 0; k < 3; k++)
        d += (a[k] - b[k]) * (a[k] - b[k]);
    return d;
}

void skb_artifacts_distance(int nv, const skb_real *a, const skb_real *b, double size, double *rms, double *mx)
{
    double s = 0, m = 0;
    for (int v = 0; v < nv; v++) {
        double d = vertex_gap(a + 3 * v, b + 3 * v);
        s += d;
        m = fmax(m, d);
    }
    *rms = nv > 0 ? sqrt(s / nv) / size : NAN;
    *mx = sqrt(m) / size;
}

double skb_artifacts_max_jump(int nv, const skb_real *a, const skb_real *b, double size)
{
    double m = 0;
    for (int v = 0; v < nv; v++)
        m = fmax(m, vertex_gap(a + 3 * v, b + 3 * v));
    return sqrt(m) / size;
}
