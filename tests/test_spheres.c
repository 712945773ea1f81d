/* test_spheres.c — bounding spheres and collision detection (thesis ch. 5-6):
 * the minimal enclosing sphere against brute force, the triangle-triangle
 * test against known cases and a separating-axis oracle, the sphere tree's
 * invariants, the containment property of every refit hook on every default
 * dataset (a single escaping vertex fails; a deliberately shrunk refit must
 * fail), and identical colliding pairs for on-demand, bottom-up and brute
 * force. */
#include "skb_test.h"
#include "skb_geom.h"
#include "skb_dataset.h"
#include "skb_sphere_cd.h"
#include "skb_spheres_rig.h"
#include "skb_spheres_posture.h"
#include "skb_sb_internal.h"

#define N_MINIBALL 3000
#define N_TRITRI 20000
/* containment: a vertex may lie outside by this fraction of the model size
 * (root sphere radius + largest joint translation): rounding only */
#define TOL_CONTAIN_REL 1e-9
/* random-pose joint rotations go up to this angle (rad) about the rest joints */
#define POSE_MAX_ANGLE (0.6 * SKB_PI)
#define POSES_PER_DATASET 1000   /* containment poses per refit method per dataset */
#define SHRINK 0.9
#define CD_FRAMES 10         /* collision-set frames per dataset: half random, half scenario-like */

/* ------------------------------------------------------------- miniball */

static int sphere_through(const double *p, const int *s, int k, double out[4])
{
    /* smallest sphere with the k points on its boundary (in their affine hull) */
    double a[3][3], b[3], c[3], o[3];
    for (int i = 0; i < 3; i++)
        o[i] = p[3 * s[0] + i];
    if (k == 1) {
        memcpy(out, o, sizeof o);
        out[3] = 0;
        return 1;
    }
    /* centre o + sum_j x_j d_j with |c - p_i| equal: 2 d_i . c' = |d_i|^2 */
    double d[3][3];
    int m = k - 1;
    for (int j = 0; j < m; j++)
        for (int i = 0; i < 3; i++)
            d[j][i] = p[3 * s[j + 1] + i] - o[i];
    for (int r = 0; r < m; r++) {
        for (int q = 0; q < m; q++)
            a[r][q] = 2 * (d[r][0] * d[q][0] + d[r][1] * d[q][1] + d[r][2] * d[q][2]);
        b[r] = d[r][0] * d[r][0] + d[r][1] * d[r][1] + d[r][2] * d[r][2];
    }
    /* Gaussian elimination with partial pivoting on the m x m system */
    double x[3];
    for (int col = 0; col < m; col++) {
        int piv = col;
        for (int r = col + 1; r < m; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (fabs(a[piv][col]) < 1e-12)
            return 0;
        for (int q = 0; q < m; q++) {
            double t = a[col][q]; a[col][q] = a[piv][q]; a[piv][q] = t;
        }
        double t = b[col]; b[col] = b[piv]; b[piv] = t;
        for (int r = col + 1; r < m; r++) {
            double f = a[r][col] / a[col][col];
            for (int q = col; q < m; q++)
                a[r][q] -= f * a[col][q];
            b[r] -= f * b[col];
        }
    }
    for (int r = m - 1; r >= 0; r--) {
        double s2 = b[r];
        for (int q = r + 1; q < m; q++)
            s2 -= a[r][q] * x[q];
        x[r] = s2 / a[r][r];
    }
    for (int i = 0; i < 3; i++) {
        c[i] = o[i];
        for (int j = 0; j < m; j++)
            c[i] += x[j] * d[j][i];
    }
    memcpy(out, c, sizeof c);
    out[3] = sqrt((c[0] - o[0]) * (c[0] - o[0]) + (c[1] - o[1]) * (c[1] - o[1]) + (c[2] - o[2]) * (c[2] - o[2]));
    return 1;
}

static double brute_miniball(const double *p, int n)
{
    double best = INFINITY;
    int s[4];
    for (int mask = 1; mask < (1 << n); mask++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (mask >> i & 1) {
                if (k == 4) { k = 5; break; }
                s[k++] = i;
            }
        double c[4];
        if (k > 4 || !sphere_through(p, s, k, c))
            continue;
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            double d = sqrt((p[3 * i] - c[0]) * (p[3 * i] - c[0]) + (p[3 * i + 1] - c[1]) * (p[3 * i + 1] - c[1])
                            + (p[3 * i + 2] - c[2]) * (p[3 * i + 2] - c[2]));
            ok = d <= c[3] * (1 + 1e-9) + 1e-12;
        }
        if (ok && c[3] < best)
            best = c[3];
    }
    return best;
}

static void test_miniball_vs_brute_force(void **state)
{
    gsl_rng *r = skb_test_rng();
    double worst = 0;
    for (int it = 0; it < N_MINIBALL; it++) {
        int n = 1 + (int)gsl_rng_uniform_int(r, 9), kind = it % 4;
        double p[3 * 9], out[4];
        for (int i = 0; i < n; i++) {
            double th = 2 * SKB_PI * gsl_rng_uniform(r), ph = acos(2 * gsl_rng_uniform(r) - 1);
            for (int k = 0; k < 3; k++)
                p[3 * i + k] = 4 * gsl_rng_uniform(r) - 2;
            if (kind == 1)
                p[3 * i + 2] = 0.5;                          /* coplanar */
            else if (kind == 2) {                            /* on a sphere (many supports) */
                p[3 * i] = 1 + 3 * sin(ph) * cos(th);
                p[3 * i + 1] = -2 + 3 * sin(ph) * sin(th);
                p[3 * i + 2] = 3 * cos(ph);
            } else if (kind == 3 && i > 0 && gsl_rng_uniform(r) < 0.4)
                memcpy(p + 3 * i, p + 3 * (i - 1), 3 * sizeof(double));   /* duplicates */
        }
        assert_int_equal(skb_miniball(p, NULL, n, out), 0);
        double bf = brute_miniball(p, n);
        for (int i = 0; i < n; i++) {
            double d = sqrt((p[3 * i] - out[0]) * (p[3 * i] - out[0]) + (p[3 * i + 1] - out[1]) * (p[3 * i + 1] - out[1])
                            + (p[3 * i + 2] - out[2]) * (p[3 * i + 2] - out[2]));
            assert_true(d <= out[3]);
        }
        if (fabs(out[3] - bf) > TOL_TIGHT * (1 + bf))
            fail_msg("iteration %d (kind %d, n %d): miniball radius %.17g, brute force %.17g", it, kind, n,
                     out[3], bf);
        worst = fmax(worst, fabs(out[3] - bf));
    }
    print_message("miniball: %d sets, worst radius difference to brute force %.3g\n", N_MINIBALL, worst);
    gsl_rng_free(r);
}

static void test_miniball_large_and_alg51(void **state)
{
    /* 20000 points: every point inside, and Alg. 5.1 never smaller */
    gsl_rng *r = skb_test_rng();
    int n = 20000;
    double *p = malloc(sizeof(double) * 3 * n), *sp = malloc(sizeof(double) * 4 * n), out[4], a51[4];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            if (k < 3)
                p[3 * i + k] = sp[4 * i + k] = gsl_ran_gaussian(r, 1 + k);
            else
                sp[4 * i + 3] = 0;
        }
    assert_int_equal(skb_miniball(p, NULL, n, out), 0);
    skb_bounding_sphere(sp, n, a51);
    assert_true(a51[3] >= out[3] * (1 - TOL_EXACT));
    for (int i = 0; i < n; i++) {
        double d = sqrt((p[3 * i] - out[0]) * (p[3 * i] - out[0]) + (p[3 * i + 1] - out[1]) * (p[3 * i + 1] - out[1])
                        + (p[3 * i + 2] - out[2]) * (p[3 * i + 2] - out[2]));
        assert_true(d <= out[3]);
    }
    /* triangle sphere equals the miniball of its three points */
    for (int it = 0; it < 2000; it++) {
        double t[9], s1[4], s2[4];
        for (int k = 0; k < 9; k++)
            t[k] = gsl_rng_uniform(r) * 2 - 1;
        if (it % 3 == 0)
            for (int k = 0; k < 3; k++)
                t[6 + k] = 0.5 * (t[k] + t[3 + k]);                /* degenerate */
        skb_sphere_of_triangle(t, t + 3, t + 6, s1);
        assert_int_equal(skb_miniball(t, NULL, 3, s2), 0);
        assert_near(s1[3], s2[3], TOL_TIGHT);
    }
    free(p);
    free(sp);
    gsl_rng_free(r);
}

/* --------------------------------------------------------- tri-tri test */

static void proj(const double *t, const double ax[3], double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int k = 0; k < 3; k++) {
        double d = t[3 * k] * ax[0] + t[3 * k + 1] * ax[1] + t[3 * k + 2] * ax[2];
        *lo = fmin(*lo, d);
        *hi = fmax(*hi, d);
    }
}

static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* separating-axis oracle: the two normals, the 9 edge cross products and,
 * for coplanar pairs, the in-plane edge normals */
static int sat_overlap(const double *a, const double *b)
{
    double axes[20][3], ea[3][3], eb[3][3], na[3], nb[3];
    int n = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) {
            ea[k][i] = a[3 * ((k + 1) % 3) + i] - a[3 * k + i];
            eb[k][i] = b[3 * ((k + 1) % 3) + i] - b[3 * k + i];
        }
    cross(ea[0], ea[1], na);
    cross(eb[0], eb[1], nb);
    memcpy(axes[n++], na, sizeof na);
    memcpy(axes[n++], nb, sizeof nb);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cross(ea[i], eb[j], axes[n++]);
    for (int i = 0; i < 3; i++) {
        cross(na, ea[i], axes[n++]);
        cross(nb, eb[i], axes[n++]);
    }
    for (int k = 0; k < n; k++) {
        double l1, h1, l2, h2;
        if (fabs(axes[k][0]) + fabs(axes[k][1]) + fabs(axes[k][2]) < 1e-300)
            continue;
        proj(a, axes[k], &l1, &h1);
        proj(b, axes[k], &l2, &h2);
        if (h1 < l2 || h2 < l1)
            return 0;
    }
    return 1;
}

static int tt(const double *a, const double *b)
{
    int r1 = skb_tri_tri_overlap(a, a + 3, a + 6, b, b + 3, b + 6);
    /* symmetric in the triangles and in vertex order */
    int r2 = skb_tri_tri_overlap(b + 3, b + 6, b, a + 6, a, a + 3);
    if (r1 != r2)
        fail_msg("tri-tri test not symmetric: %d vs %d", r1, r2);
    return r1;
}

static void test_tri_tri_known_cases(void **state)
{
    static const double base[9] = { 0, 0, 0, 2, 0, 0, 0, 2, 0 };
    struct { double t[9]; int expect; const char *what; } c[] = {
        { { 0, 0, 1, 2, 0, 1, 0, 2, 1 }, 0, "parallel, apart" },
        { { 0.5, 0.5, -1, 0.5, 0.5, 1, 1.5, 1.5, 0 }, 1, "piercing" },
        { { 0, 0, 0, -1, 0, 1, 0, -1, 1 }, 1, "touching at a vertex" },
        { { 0, 0, 0, 2, 0, 0, 1, -1, 1 }, 1, "sharing an edge" },
        { { 0.5, 0.5, 0, 3, 3, 1, 3, -3, 1 }, 1, "vertex on the face" },
        { { 0.5, 0.5, 1e-9, 3, 3, 1, 3, -3, 1 }, 0, "vertex just above the face" },
        { { 0.5, 0.5, 0, 3, 0.5, 0, 0.5, 3, 0 }, 1, "coplanar, overlapping" },
        { { 3, 3, 0, 5, 3, 0, 3, 5, 0 }, 0, "coplanar, apart" },
        { { 1, 1, 0, 3, 1, 0, 1, 3, 0 }, 1, "coplanar, touching at a vertex" },
        { { 1.0000001, 1, 0, 3, 1, 0, 1, 3, 0 }, 0, "coplanar, just apart" },
        { { 0.2, 0.2, 0, 0.4, 0.2, 0, 0.2, 0.4, 0 }, 1, "coplanar, inside" },
        { { -1, -1, 0, 5, -1, 0, -1, 5, 0 }, 1, "coplanar, containing" },
        { { 0, 0, 0, 2, 0, 0, 1, 0, 0 }, 1, "degenerate, on an edge" },
        { { 3, 0, -1, 3, 0, 1, 4, 0, 0 }, 0, "beside, crossing the plane" },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        int got = tt(base, c[k].t);
        if (got != c[k].expect)
            fail_msg("case '%s': got %d, expected %d", c[k].what, got, c[k].expect);
    }
}

static void test_tri_tri_vs_separating_axes(void **state)
{
    gsl_rng *r = skb_test_rng();
    int hits = 0, copl = 0;
    for (int it = 0; it < N_TRITRI; it++) {
        double a[9], b[9];
        int coplanar = it % 4 == 0;
        for (int k = 0; k < 9; k++) {
            a[k] = gsl_rng_uniform(r) * 2 - 1;
            b[k] = gsl_rng_uniform(r) * 2 - 0.6;
        }
        if (coplanar) {
            /* a common plane z = x/2 (exact in binary, so exactly coplanar) */
            for (int v = 0; v < 3; v++) {
                a[3 * v + 2] = a[3 * v] / 2;
                b[3 * v + 2] = b[3 * v] / 2;
            }
            copl++;
        }
        int got = tt(a, b), want = sat_overlap(a, b);
        if (got != want)
            fail_msg("pair %d (%s): tri-tri %d, separating axes %d", it, coplanar ? "coplanar" : "general",
                     got, want);
        hits += got;
    }
    print_message("tri-tri: %d pairs (%d coplanar), %d overlapping, all agree with SAT\n", N_TRITRI, copl, hits);
    gsl_rng_free(r);
}

static void test_orient3d_exact(void **state)
{
    /* nearly coplanar points where the plain double determinant is wrong */
    double o[3] = { 0.5, 0.5, 0.5 }, a[3] = { 12, 12, 12 }, b[3] = { 24, 24, 24 };
    double c[3] = { 0.5, 0.5 + 0x1p-52, 0.5 };
    assert_int_equal(skb_orient3d(o, a, b, c), 0);   /* collinear o, a, b: det 0 */
    double p[3] = { 1, 2, 3 }, q[3] = { 1 + 0x1p-50, 2, 3 }, s[3] = { 1, 2 + 0x1p-50, 3 }, t[3] = { 1, 2, 3 + 0x1p-50 };
    assert_int_equal(skb_orient3d(p, q, s, t), 1);
    assert_int_equal(skb_orient3d(p, s, q, t), -1);
}

/* ------------------------------------------------------------ datasets */

static double model_scale(const struct skb_sphere_tree *t, const struct skb_pose *p)
{
    double s = t->node[0].s[3] + fabs(t->node[0].s[0]) + fabs(t->node[0].s[1]) + fabs(t->node[0].s[2]);
    for (int j = 0; j < p->njoints; j++)
        for (int i = 0; i < 3; i++)
            s = fmax(s, t->node[0].s[3] + fabs(p->mats[16 * j + 4 * i + 3]));
    return s;
}

/* random pose: a random rotation about every rest joint, composed down the
 * hierarchy (joint order as a chain without one), and a random root offset */
static void random_pose(gsl_rng *r, const struct skb_mesh *m, double maxangle, double *mats)
{
    int nj = m->njoints;
    int *done = calloc((size_t)nj, sizeof(int));
    double *local = malloc(sizeof(double) * 16 * nj);
    for (int j = 0; j < nj; j++) {
        double axis[3], rot[9], t[3], c[3] = { 0, 0, 0 };
        struct skb_quat q;
        gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
        skb_quat_from_axis_angle(axis, gsl_rng_uniform(r) * maxangle, &q);
        skb_quat_to_mat3(&q, rot);
        if (m->joint_rest)
            memcpy(c, m->joint_rest + 3 * j, sizeof c);
        for (int i = 0; i < 3; i++)
            t[i] = c[i] - (rot[3 * i] * c[0] + rot[3 * i + 1] * c[1] + rot[3 * i + 2] * c[2]);
        skb_mat4_from_rt(rot, t, local + 16 * j);
    }
    for (int pass = 0; pass < nj; pass++)
        for (int j = 0; j < nj; j++) {
            if (done[j])
                continue;
            int par = m->parent ? m->parent[j] : j - 1;
            if (par < 0) {
                memcpy(mats + 16 * j, local + 16 * j, 16 * sizeof(double));
                mats[16 * j + 3] += gsl_rng_uniform(r) - 0.5;
                done[j] = 1;
            } else if (done[par]) {
                skb_mat4_mul(mats + 16 * par, local + 16 * j, mats + 16 * j);
                done[j] = 1;
            }
        }
    for (int j = 0; j < nj; j++)
        if (!done[j])
            memcpy(mats + 16 * j, local + 16 * j, 16 * sizeof(double));   /* a cycle: stay independent */
    free(done);
    free(local);
}

struct loaded {
    struct skb_dataset d;
    struct skb_sphere_tree t;
    int ok;
};

static int load_defaults(struct loaded *out, int max)
{
    struct skb_dataset_opts o = { skb_test_seed(), 1, 0 };
    int n = 0;
    char msg[256];
    for (int i = 0; skb_dataset_sources[i] && n < max; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        if (!s->in_default_set)
            continue;
        memset(&out[n], 0, sizeof out[n]);
        if (skb_dataset_load(s->name, &o, &out[n].d, msg, sizeof msg) < 0) {
            print_message("dataset %s not available: %s\n", s->name, msg);
            continue;
        }
        if (skb_sphere_tree_build(&out[n].d.mesh, SKB_TREE_COLLAPSE_C, &out[n].t, msg, sizeof msg) < 0)
            fail_msg("%s: %s", s->name, msg);
        out[n].ok = 1;
        n++;
    }
    return n;
}

static void free_loaded(struct loaded *l, int n)
{
    for (int i = 0; i < n; i++) {
        skb_sphere_tree_free(&l[i].t);
        skb_dataset_free(&l[i].d);
    }
}

static void test_tree_invariants(void **state)
{
    struct loaded l[16];
    int n = load_defaults(l, 16);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        const struct skb_sphere_tree *t = &l[i].t;
        const struct skb_mesh *m = &l[i].d.mesh;
        assert_int_equal(t->node[0].ntri, m->ntris);
        assert_true(t->depth <= t->depth_binary);
        assert_true(t->nnodes <= t->nnodes_binary);
        for (int k = 0; k < t->nnodes; k++) {
            const struct skb_sphere_node *nd = &t->node[k];
            /* children partition the parent's triangles; collapse rule holds */
            int covered = 0;
            for (int c = 0; c < nd->nchild; c++) {
                const struct skb_sphere_node *ch = &t->node[t->child[nd->child0 + c]];
                assert_int_equal(ch->parent, k);
                assert_int_equal(ch->level, nd->level + 1);
                assert_int_equal(ch->tri0, nd->tri0 + covered);
                covered += ch->ntri;
                if (ch->nchild > 0)
                    assert_true(ch->s[3] <= SKB_TREE_COLLAPSE_C * nd->s[3]);
            }
            if (nd->nchild)
                assert_int_equal(covered, nd->ntri);
            /* reference sphere holds its vertices; each vertex's weights lie
             * in the intervals of its joint set */
            for (int v = 0; v < nd->nvert; v++) {
                const double *p = m->pos + 3 * t->vert[nd->vert0 + v];
                double d = sqrt((p[0] - nd->s[0]) * (p[0] - nd->s[0]) + (p[1] - nd->s[1]) * (p[1] - nd->s[1])
                                + (p[2] - nd->s[2]) * (p[2] - nd->s[2]));
                assert_true(d <= nd->s[3]);
            }
            int ncorner = 0;
            for (int s = 0; s < nd->njs; s++) {
                const struct skb_joint_set *js = &t->js[nd->js0 + s];
                assert_true(js->ncorner >= 1);
                for (int c = 0; c < js->ncorner; c++) {
                    double sum = 0;
                    for (int q = 0; q < js->n; q++) {
                        double w = t->corner[SKB_MAX_INFLUENCES * (js->corner0 + c) + q];
                        assert_true(w >= js->lo[q] - 2 * SKB_TREE_WEIGHT_SLACK && w <= js->hi[q] + 2 * SKB_TREE_WEIGHT_SLACK);
                        sum += w;
                    }
                    assert_near(sum, 1, TOL_EXACT);
                }
                ncorner += js->ncorner;
            }
            assert_true(ncorner <= t->max_refit_spheres);
        }
        print_message("%s: %d triangles, %d spheres (binary %d), depth %d (binary %d), max children %d\n",
                      l[i].d.name, m->ntris, t->nnodes, t->nnodes_binary, t->depth, t->depth_binary,
                      t->max_children);
    }
    free_loaded(l, n);
}

/* the bottom-up refit's two leaf fits (skb_leaf_fit): the thesis's Alg. 5.1
 * (the leaf's vertices' centroid and farthest distance, recomputed here
 * independently) and the exact minimal sphere (skb_miniball of the same
 * vertices); exact never looser; every parent encloses its children (a
 * bottom-up tree is conservative, thesis 2.3.2) */
static void check_leaf(const struct skb_sphere_tree *t, const struct skb_sphere_node *nd, const double *pos,
                       const double *a, const double *x)
{
    double c[3] = { 0, 0, 0 }, r = 0, mb[4];
    for (int k = 0; k < nd->nvert; k++)
        for (int i = 0; i < 3; i++)
            c[i] += pos[3 * t->vert[nd->vert0 + k] + i] / nd->nvert;
    for (int k = 0; k < nd->nvert; k++) {
        const double *p = pos + 3 * t->vert[nd->vert0 + k];
        r = fmax(r, sqrt((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) + (p[2] - c[2]) * (p[2] - c[2])));
    }
    double tol = 1e-9 * (1 + r);
    for (int i = 0; i < 3; i++)
        assert_near(a[i], c[i], tol);
    assert_near(a[3], r, tol);
    assert_int_equal(skb_miniball(pos, t->vert + nd->vert0, nd->nvert, mb), 0);
    assert_near(x[3], mb[3], tol);
    assert_true(x[3] <= a[3] + tol);
}

static void test_bottom_up_leaf_fits(void **state)
{
    struct loaded l[16];
    int n = load_defaults(l, 16);
    gsl_rng *r = skb_test_rng();
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        const struct skb_sphere_tree *t = &l[i].t;
        const struct skb_mesh *m = &l[i].d.mesh;
        double *a = malloc(sizeof(double) * 4 * t->nnodes), *x = malloc(sizeof(double) * 4 * t->nnodes);
        double *pos = malloc(sizeof(double) * 3 * m->nverts);
        /* a pose off the rest: every vertex moved a little, at random */
        for (int v = 0; v < 3 * m->nverts; v++)
            pos[v] = m->pos[v] + 0.01 * (gsl_rng_uniform(r) - 0.5);
        assert_int_equal(skb_sphere_tree_refit_bottom_up(t, m->tris, pos, SKB_LEAF_ALG51, a), 0);
        assert_int_equal(skb_sphere_tree_refit_bottom_up(t, m->tris, pos, SKB_LEAF_EXACT, x), 0);
        int leaves = 0;
        for (int k = 0; k < t->nnodes; k++) {
            const struct skb_sphere_node *nd = &t->node[k];
            if (nd->nchild == 0) {
                check_leaf(t, nd, pos, a + 4 * k, x + 4 * k);
                leaves++;
            }
            for (int c = 0; c < nd->nchild; c++) {
                const double *cs = a + 4 * t->child[nd->child0 + c], *ps = a + 4 * k;
                double d = sqrt((cs[0] - ps[0]) * (cs[0] - ps[0]) + (cs[1] - ps[1]) * (cs[1] - ps[1])
                                + (cs[2] - ps[2]) * (cs[2] - ps[2]));
                assert_true(d + cs[3] <= ps[3] * (1 + 1e-12) + 1e-12);
            }
        }
        print_message("%s: %d leaves, both fits checked\n", l[i].d.name, leaves);
        free(a);
        free(x);
        free(pos);
    }
    gsl_rng_free(r);
    free_loaded(l, n);
}

/* the rig study (harness/spheres_rig.c) against the same thing done the
 * long way: creature_rigid (the dataset made rigid by its own loader), its
 * own tree, LBS refitted on demand at the same pose, level by level */
/* refit over reference, average radius of each level: ratio[L] for L =
 * 1..depth, summed in one pass (an oracle written apart from the study's) */
static void level_ratios(const struct skb_sphere_tree *t, const double *s, double *ratio)
{
    double num[64] = { 0 }, den[64] = { 0 };
    for (int k = 0; k < t->nnodes; k++) {
        num[t->node[k].level] += s[4 * k + 3];
        den[t->node[k].level] += t->node[k].s[3];
    }
    for (int L = 1; L <= t->depth; L++)
        ratio[L] = num[L] / den[L];
}

static void test_rig_study(void **state)
{
    struct skb_dataset_opts o = { skb_test_seed(), 1, 0 };
    struct skb_dataset d, dr;
    struct skb_sphere_tree t, tr;
    struct skb_sbody b;
    struct skb_params prm;
    struct skb_pose p;
    char msg[256];
    skb_params_default(&prm);
    assert_int_equal(skb_dataset_load("creature", &o, &d, msg, sizeof msg), 0);
    assert_int_equal(skb_dataset_load("creature_rigid", &o, &dr, msg, sizeof msg), 0);
    assert_int_equal(skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, msg, sizeof msg), 0);
    assert_int_equal(skb_sphere_tree_build(&dr.mesh, SKB_TREE_COLLAPSE_C, &tr, msg, sizeof msg), 0);
    int k = skb_pose_strongest(&d.mesh, d.poses, d.nposes);
    skb_dataset_pose(&d, k, &p);
    cJSON *ds = cJSON_CreateObject();
    assert_int_equal(skb__spheres_rig_study(&d, &t, &p, &prm, ds, msg, sizeof msg), 0);
    double *od = malloc(sizeof(double) * 4 * tr.nnodes);
    assert_int_equal(skb_sbody_init(&b, &dr.mesh, skb_method_find("linear"), &tr, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_pose(&b, &p, &prm, SKB_REFIT_ON_DEMAND, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_refit_all(&b, od), 0);
    const cJSON *e;
    int levels = 0;
    double ratio[64];
    assert_true(tr.depth < 64);
    level_ratios(&tr, od, ratio);
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(cJSON_GetObjectItem(ds, "rig_study"), "levels")) {
        int L = cJSON_GetObjectItem(e, "level")->valueint;
        if (L > tr.depth)
            continue;
        double want = ratio[L];
        assert_near(cJSON_GetObjectItem(e, "linear_over_reference")->valuedouble, want, 1e-12 * want);
        levels++;
    }
    assert_int_equal(levels, tr.depth);
    print_message("rig study: %d levels match creature_rigid's own refit\n", levels);
    skb_sbody_fini(&b);
    free(od);
    cJSON_Delete(ds);
    skb_sphere_tree_free(&t);
    skb_sphere_tree_free(&tr);
    skb_dataset_free(&d);
    skb_dataset_free(&dr);
}

/* the posture rule: each pose's deviation computed here on its own (LBS
 * skin, minimal spheres, level averages), the rule's choice checked against
 * it: within the band, nothing stronger within it; with an empty band the
 * nearest pose */
static double pose_deviation(struct skb_sbody *b, const struct skb_dataset *d, int k, const struct skb_params *prm)
{
    struct skb_pose p;
    char msg[256];
    double ratio[64], dev = 0;
    const struct skb_sphere_tree *t = b->tree;
    double *best = malloc(sizeof(double) * 4 * t->nnodes);
    skb_dataset_pose(d, k, &p);
    assert_int_equal(skb_sbody_pose(b, &p, prm, SKB_REFIT_ON_DEMAND, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_skin_all(b), 0);
    assert_int_equal(skb_sphere_tree_best(t, b->pos, best), 0);
    level_ratios(t, best, ratio);
    for (int L = 1; L <= t->depth; L++)
        dev = fmax(dev, fabs(ratio[L] - 1));
    free(best);
    return dev;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void check_choice(const struct skb_dataset *d, const double *dev, double band,
                         const struct skb_posture_choice *c, const cJSON *o)
{
    double s_chosen = skb_pose_strength(&d->mesh, d->poses + (size_t)16 * d->mesh.njoints * c->pose);
    int within = 0, nearest = 0;
    for (int k = 0; k < d->nposes; k++) {
        double s = skb_pose_strength(&d->mesh, d->poses + (size_t)16 * d->mesh.njoints * k);
        within += dev[k] <= band;
        if (dev[k] < dev[nearest])
            nearest = k;
        if (dev[k] <= band && s > s_chosen)
            fail_msg("pose %d (strength %g, deviation %g) is within the band %g and stronger than the chosen %d (%g)",
                     k, s, dev[k], band, c->pose, s_chosen);
    }
    assert_near(c->deviation, dev[c->pose], 1e-12);
    assert_int_equal(c->fallback, within == 0);
    if (within)
        assert_true(dev[c->pose] <= band);
    else
        assert_int_equal(c->pose, nearest);
    assert_int_equal(cJSON_GetObjectItem(o, "poses_within_band")->valueint, within);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "poses")), d->nposes);
    assert_int_equal(cJSON_GetObjectItem(o, "pose")->valueint, c->pose);
}

static void test_posture_rule(void **state)
{
    struct skb_dataset_opts o = { skb_test_seed(), 1, 0 };
    struct skb_dataset d;
    struct skb_sphere_tree t;
    struct skb_sbody b;
    struct skb_params prm;
    char msg[256];
    (void)state;
    skb_params_default(&prm);
    assert_int_equal(skb_dataset_load("bcn_human", &o, &d, msg, sizeof msg), 0);
    assert_int_equal(skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, msg, sizeof msg), 0);
    assert_true(t.depth < 64 && d.nposes > 2);
    double *dev = malloc(sizeof(double) * d.nposes), *sorted = malloc(sizeof(double) * d.nposes);
    assert_int_equal(skb_sbody_init(&b, &d.mesh, skb_method_find("linear"), &t, msg, sizeof msg), 0);
    for (int k = 0; k < d.nposes; k++)
        sorted[k] = dev[k] = pose_deviation(&b, &d, k, &prm);
    skb_sbody_fini(&b);
    qsort(sorted, d.nposes, sizeof(double), cmp_double);
    /* a band that splits the clip: the rule must pick among half the poses;
     * one below every pose: the nearest; the experiment's own */
    const double bands[] = { sorted[d.nposes / 2], sorted[0] / 2, SKB_POSTURE_BEST_BAND };
    for (int i = 0; i < 3; i++) {
        struct skb_posture_choice c;
        cJSON *js = cJSON_CreateObject();
        assert_int_equal(skb__spheres_posture_choose(&d, &t, &prm, bands[i], &c, js, msg, sizeof msg), 0);
        check_choice(&d, dev, bands[i], &c, js);
        print_message("posture rule, band %.4f: pose %d of %d (deviation %.4f, fallback %d)\n", bands[i], c.pose,
                      d.nposes, c.deviation, c.fallback);
        cJSON_Delete(js);
    }
    free(dev);
    free(sorted);
    skb_sphere_tree_free(&t);
    skb_dataset_free(&d);
}

/* ------------------------------------------------- containment property */

/* vertices of every node outside its refitted sphere (+ tolerance) */
static long count_escapes(struct skb_sbody *b, double tol, double *worst)
{
    const struct skb_sphere_tree *t = b->tree;
    long esc = 0;
    for (int k = 0; k < t->nnodes; k++) {
        const struct skb_sphere_node *nd = &t->node[k];
        double sp[4];
        if (b->method->refit(t, k, b->mesh, b->sk.state, b->scratch, sp) < 0)
            fail_msg("%s: refit of node %d failed", b->method->name, k);
        for (int v = 0; v < nd->nvert; v++) {
            const double *p = b->pos + 3 * t->vert[nd->vert0 + v];
            double d = sqrt((p[0] - sp[0]) * (p[0] - sp[0]) + (p[1] - sp[1]) * (p[1] - sp[1])
                            + (p[2] - sp[2]) * (p[2] - sp[2]));
            if (!(d <= sp[3] + tol))
                esc++;
            if (d - sp[3] > *worst)
                *worst = d - sp[3];
        }
    }
    return esc;
}

/* poses: the dataset's own, then random ones */
static void pose_for(gsl_rng *r, const struct skb_dataset *d, int k, double *mats)
{
    if (k < d->nposes) {
        memcpy(mats, d->poses + (size_t)16 * d->mesh.njoints * k, sizeof(double) * 16 * d->mesh.njoints);
        return;
    }
    random_pose(r, &d->mesh, k % 3 == 0 ? SKB_PI : POSE_MAX_ANGLE, mats);
}

/* runs the property on all loaded datasets for method m; returns escapes */
static long containment(const struct skb_method *m, struct loaded *l, int nl, int total_poses, long *checked,
                        int *nposes_done)
{
    gsl_rng *r = skb_test_rng();
    long esc = 0;
    *checked = 0;
    *nposes_done = 0;   /* per dataset, the smallest */
    for (int i = 0; i < nl; i++) {
        struct skb_sbody b;
        char msg[256];
        int np = total_poses / nl + (i < total_poses % nl);
        double *mats = malloc(sizeof(double) * 16 * l[i].d.mesh.njoints), worst = -INFINITY;
        long e = 0;
        int skipped = 0, done = 0;
        if (skb_sbody_init(&b, &l[i].d.mesh, m, &l[i].t, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        /* np poses with a skin on each dataset (a cancelled blend is replaced) */
        for (int k = 0; done < np && k < 2 * np; k++) {
            struct skb_pose p = { l[i].d.mesh.njoints, mats, NULL };
            struct skb_params prm;
            skb_params_default(&prm);
            /* every 4th pose resolves antipodality along the hierarchy
             * instead of per vertex (DQ paper 4.1): other signs to bound */
            if (k % 4 == 3)
                prm.antipodal = SKB_ANTIPODAL_HIERARCHY;
            pose_for(r, &l[i].d, k, mats);
            if (skb_sbody_pose(&b, &p, &prm, SKB_REFIT_ON_DEMAND, msg, sizeof msg) < 0)
                fail_msg("%s on %s pose %d: %s", m->name, l[i].d.name, k, msg);
            int src = skb_sbody_skin_all(&b);
            if (src == SKB_ECANCEL && prm.antipodal == SKB_ANTIPODAL_HIERARCHY) {
                skipped++;   /* the blend cancels: no skin to bound */
                continue;
            }
            if (src < 0)
                fail_msg("%s on %s pose %d: skin failed: %s", m->name, l[i].d.name, k, skb_strerror(src));
            e += count_escapes(&b, TOL_CONTAIN_REL * model_scale(&l[i].t, &p), &worst);
            *checked += l[i].t.nvert_total;
            done++;
        }
        if (i == 0 || done < *nposes_done)
            *nposes_done = done;   /* the fewest poses any dataset had */
        print_message("  %s on %s: %d poses (%d cancelled, replaced), %ld escapes, worst excess %.3g\n", m->name,
                      l[i].d.name, done, skipped, e, worst);
        esc += e;
        skb_sbody_fini(&b);
        free(mats);
    }
    gsl_rng_free(r);
    return esc;
}

static void test_containment_every_refit(void **state)
{
    struct loaded l[16];
    int nl = load_defaults(l, 16), nmethods = 0;
    assert_true(nl >= 1);
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        long checked;
        int np;
        if (!m->refit)
            continue;
        long esc = containment(m, l, nl, POSES_PER_DATASET * nl, &checked, &np);
        print_message("%s: >= %d poses per dataset, %ld vertex-in-sphere checks, %ld escapes\n", m->name, np,
                      checked, esc);
        assert_true(np >= POSES_PER_DATASET);
        if (esc != 0)
            fail_msg("%s: %ld vertices escaped their refitted spheres", m->name, esc);
        nmethods++;
    }
    assert_true(nmethods >= 1);
    free_loaded(l, nl);
}

/* the property test must catch a refit that is too small */
static int refit_shrunk(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                        const void *state, skb_real *scratch, skb_real out[4])
{
    int rc = skb__refit_lbs(t, node, m, state, scratch, out);
    out[3] *= SHRINK;
    return rc;
}

static void test_shrunk_refit_fails(void **state)
{
    struct loaded l[16];
    int nl = load_defaults(l, 16), np;
    long checked;
    struct skb_method shrunk = *skb_method_find("linear");
    shrunk.refit = refit_shrunk;
    long esc = containment(&shrunk, l, nl, 50, &checked, &np);
    print_message("shrunk refit (radius x %.2f): %ld escapes in %ld checks\n", SHRINK, esc, checked);
    assert_true(esc > 0);
    free_loaded(l, nl);
}

/* ------------------------------------------------------------ collisions */

static int pair_cmp(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

static void test_collision_sets_identical(void **state)
{
    struct loaded l[16];
    int nl = load_defaults(l, 16);
    gsl_rng *r = skb_test_rng();
    long frames = 0, total_pairs = 0;
    for (int i = 0; i < nl; i++) {
        const struct skb_mesh *m = &l[i].d.mesh;
        long cap = 4L * m->ntris * 8 + 64;
        int *ref = malloc(sizeof(int) * 2 * cap), *got = malloc(sizeof(int) * 2 * cap);
        double *ma = malloc(sizeof(double) * 16 * m->njoints), *mb = malloc(sizeof(double) * 16 * m->njoints);
        double *pa = malloc(sizeof(double) * 16 * m->njoints), *pb = malloc(sizeof(double) * 16 * m->njoints);
        for (int f = 0; f < CD_FRAMES; f++) {
            double wa[16], wb[16], rad = l[i].t.node[0].s[3];
            pose_for(r, &l[i].d, f, ma);
            pose_for(r, &l[i].d, f + 7, mb);
            if (f < CD_FRAMES / 2) {
                /* random relative placements, partly overlapping */
                skb_test_random_rigid(r, SKB_PI, 0, wa);
                skb_test_random_rigid(r, SKB_PI, 0, wb);
                for (int k = 0; k < 3; k++)
                    wb[4 * k + 3] = wa[4 * k + 3] + (gsl_rng_uniform(r) - 0.5) * rad * (f < 2 ? 0.6 : 3);
            } else {
                /* the scenarios of skinbench run cd: two bodies facing each
                 * other (turned by pi about y), their roots moved onto the x
                 * axis, walking into and through each other */
                double h = rad * (0.9 - 1.8 * (f - CD_FRAMES / 2) / (CD_FRAMES / 2 - 1)), y[3] = { 0, 1, 0 };
                struct skb_quat q;
                double rot[9], t0[3] = { 0, 0, 0 };
                skb_mat4_identity(wa);
                skb_quat_from_axis_angle(y, SKB_PI, &q);
                skb_quat_to_mat3(&q, rot);
                skb_mat4_from_rt(rot, t0, wb);
                for (int k = 0; k < 3; k++) {
                    wa[4 * k + 3] = -ma[4 * k + 3] - (k == 0 ? h : 0);
                    wb[4 * k + 3] = (k == 0 ? h : 0) - (rot[3 * k] * mb[3] + rot[3 * k + 1] * mb[7] + rot[3 * k + 2] * mb[11]);
                }
            }
            struct skb_pose p0 = { m->njoints, ma, NULL }, p1 = { m->njoints, mb, NULL };
            skb_pose_place(&p0, wa, pa);
            skb_pose_place(&p1, wb, pb);
            struct skb_pose qa = { m->njoints, pa, NULL }, qb = { m->njoints, pb, NULL };
            long nref = -1;
            for (int mi = 0; skb_methods[mi]; mi++) {
                const struct skb_method *me = skb_methods[mi];
                struct skb_sbody a, b;
                struct skb_cd_stats st;
                char msg[256];
                if (!me->refit)
                    continue;
                assert_int_equal(skb_sbody_init(&a, m, me, &l[i].t, msg, sizeof msg), 0);
                assert_int_equal(skb_sbody_init(&b, m, me, &l[i].t, msg, sizeof msg), 0);
                /* brute force on fully skinned bodies */
                assert_int_equal(skb_sbody_pose(&a, &qa, NULL, SKB_REFIT_BOTTOM_UP, msg, sizeof msg), 0);
                assert_int_equal(skb_sbody_pose(&b, &qb, NULL, SKB_REFIT_BOTTOM_UP, msg, sizeof msg), 0);
                long nb = skb_cd_brute_force(m->tris, m->ntris, a.pos, m->tris, m->ntris, b.pos, ref, cap);
                assert_true(nb <= cap);
                qsort(ref, (size_t)nb, 2 * sizeof(int), pair_cmp);
                for (int mode = 0; mode < 2; mode++) {
                    if (mode == SKB_REFIT_ON_DEMAND) {
                        assert_int_equal(skb_sbody_pose(&a, &qa, NULL, mode, msg, sizeof msg), 0);
                        assert_int_equal(skb_sbody_pose(&b, &qb, NULL, mode, msg, sizeof msg), 0);
                    }
                    long n = skb_cd_query(&a.body, &b.body, SKB_CD_FULL, got, cap, &st);
                    assert_true(n >= 0 && !st.overflow);
                    qsort(got, (size_t)n, 2 * sizeof(int), pair_cmp);
                    if (n != nb || memcmp(got, ref, sizeof(int) * 2 * n) != 0)
                        fail_msg("%s frame %d (%s, %s): %ld pairs, brute force %ld", l[i].d.name, f, me->name,
                                 mode ? "bottom-up" : "on-demand", n, nb);
                    /* yes/no: one pair exactly when there are any, and a real one */
                    long y = skb_cd_query(&a.body, &b.body, SKB_CD_YESNO, got, cap, &st);
                    assert_int_equal(y, nb > 0 ? 1 : 0);
                    if (y)
                        assert_non_null(bsearch(got, ref, (size_t)nb, 2 * sizeof(int), pair_cmp));
                }
                if (nref >= 0 && me->refit)
                    (void)nref;
                nref = nb;
                total_pairs += nb;
                skb_sbody_fini(&a);
                skb_sbody_fini(&b);
            }
            frames++;
        }
        free(ref); free(got); free(ma); free(mb); free(pa); free(pb);
    }
    print_message("collision sets identical on %ld frames x refit methods (%ld pairs in all)\n", frames, total_pairs);
    assert_true(total_pairs > 0);
    gsl_rng_free(r);
    free_loaded(l, nl);
}

/* centres solved so far this pose: sets with a centre (parent-child or SVD) */
static int centres_solved(const struct skb_sbody *b)
{
    struct skb_sb_counts c;
    skb_sb_counts(b->mesh, b->sk.state, &c);
    return c.solved + c.trivial - (c.sets - skb_sb_nsets(b->mesh, b->sk.state));
}

/* SBS on demand (collision paper 002, thesis 6.5): a joint set's centre is
 * solved only when one of its spheres is refitted; the sphere is the one
 * the centres of every set give */
static void test_sbs_lazy_centres(void **state)
{
    struct skb_dataset d;
    struct skb_sphere_tree t;
    struct skb_dataset_opts o = { skb_test_seed(), 1, 0 };
    struct skb_sbody lazy, eager;
    char msg[256];
    const struct skb_method *sb = skb_method_find("sb");
    assert_non_null(sb);
    assert_int_equal(skb_dataset_load("creature", &o, &d, msg, sizeof msg), 0);
    assert_int_equal(skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_init(&lazy, &d.mesh, sb, &t, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_init(&eager, &d.mesh, sb, &t, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_lazy_centres(&lazy, 1), 0);
    struct skb_pose p;
    skb_dataset_pose(&d, d.nposes / 2, &p);
    assert_int_equal(skb_sbody_pose(&lazy, &p, NULL, SKB_REFIT_ON_DEMAND, msg, sizeof msg), 0);
    assert_int_equal(skb_sbody_pose(&eager, &p, NULL, SKB_REFIT_ON_DEMAND, msg, sizeof msg), 0);
    int all = centres_solved(&eager);
    assert_true(all > 2);
    assert_int_equal(centres_solved(&lazy), 0);          /* nothing refitted yet */
    /* a leaf with a joint set of two joints or more: only its sets */
    int leaf = -1, want = 0;
    for (int n = t.nnodes - 1; n > 0 && leaf < 0; n--) {
        const struct skb_sphere_node *nd = &t.node[n];
        int sets[64], ns = 0;
        for (int k = 0; nd->nchild == 0 && k < nd->njs && ns < 64; k++) {
            const struct skb_joint_set *js = &t.js[nd->js0 + k];
            int f = js->n < 2 ? -1 : skb_sb_vertex_set(&d.mesh, lazy.sk.state, js->vertex), dup = f < 0;
            for (int q = 0; q < ns && !dup; q++)
                dup = sets[q] == f;
            if (!dup)
                sets[ns++] = f;
        }
        if (ns > 0 && ns < all) {
            leaf = n;
            want = ns;
        }
    }
    assert_true(leaf > 0);
    skb_real a[4], b[4];
    assert_int_equal(skb_sbody_sphere(&lazy, leaf, a), 0);
    assert_int_equal(skb_sbody_sphere(&eager, leaf, b), 0);
    assert_int_equal(centres_solved(&lazy), want);
    assert_memory_equal(a, b, sizeof a);
    /* the root covers every joint set */
    assert_int_equal(skb_sbody_sphere(&lazy, 0, a), 0);
    assert_int_equal(centres_solved(&lazy), all);
    skb_sbody_fini(&lazy);
    skb_sbody_fini(&eager);
    skb_sphere_tree_free(&t);
    skb_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miniball_vs_brute_force),
        cmocka_unit_test(test_miniball_large_and_alg51),
        cmocka_unit_test(test_orient3d_exact),
        cmocka_unit_test(test_tri_tri_known_cases),
        cmocka_unit_test(test_tri_tri_vs_separating_axes),
        cmocka_unit_test(test_tree_invariants),
        cmocka_unit_test(test_bottom_up_leaf_fits),
        cmocka_unit_test(test_rig_study),
        cmocka_unit_test(test_posture_rule),
        cmocka_unit_test(test_containment_every_refit),
        cmocka_unit_test(test_sbs_lazy_centres),
        cmocka_unit_test(test_shrunk_refit_fails),
        cmocka_unit_test(test_collision_sets_identical),
    };
    return cmocka_run_group_tests_name("spheres", tests, NULL, NULL);
}
