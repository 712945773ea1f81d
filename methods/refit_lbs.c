/* refit_lbs.c — on-demand sphere refitting for linear blend skinning
 * (thesis 5.2-5.3, Alg. 5.1 and 5.2): the reference sphere S of a node is
 * moved by every joint of each joint set (S_j = C_j S), the moved spheres are
 * blended with the precomputed corners of the weight polytope (eq. 5.4,
 * Lemma 5.1: a convex combination of spheres is the sphere of the combined
 * centres and radii), and Alg. 5.1 encloses the blended spheres.
 *
 * Works on the prepared state of methods/linear.c: the 3x4 part of C_j S_j
 * for every joint, 12 numbers row-major.  With a scale/shear part S_j the
 * joint matrix is not rigid, so the moved sphere's radius is scaled by a
 * bound on the largest singular value of its 3x3 part (for a rotation that
 * bound is 1 up to rounding).  Weights that sum to 1 + d (d <= the node's
 * wsum_dev) scale the blended point about the origin, which widens the
 * sphere by d (|centre| + radius). */
#include <math.h>
#include "skb_method.h"
#include "skb_geom.h"

/* sqrt(||A^T A||_inf) >= sigma_max(A) (Gershgorin on A^T A) */
static skb_real stretch_bound(const skb_real *c)
{
    skb_real g[3][3], best = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            g[i][j] = c[i] * c[j] + c[4 + i] * c[4 + j] + c[8 + i] * c[8 + j];
    for (int i = 0; i < 3; i++) {
        skb_real s = fabs(g[i][0]) + fabs(g[i][1]) + fabs(g[i][2]);
        if (s > best)
            best = s;
    }
    return sqrt(best);
}

int skb__refit_lbs(const struct skb_sphere_tree *t, int node, const struct skb_mesh *m,
                   const void *state, skb_real *scratch, skb_real out[4])
{
    const skb_real *rows = (const skb_real *)state;
    const struct skb_sphere_node *nd = &t->node[node];
    const skb_real *p = nd->s;
    int nr = 0;
    (void)m;
    for (int s = 0; s < nd->njs; s++) {
        const struct skb_joint_set *js = &t->js[nd->js0 + s];
        skb_real moved[SKB_MAX_INFLUENCES][4];
        /* Alg. 5.2 lines 2-3: S_{i,h} = C_{j_{i,h}} S */
        for (int h = 0; h < js->n; h++) {
            const skb_real *c = rows + 12 * js->joint[h];
            for (int r = 0; r < 3; r++)
                moved[h][r] = c[4 * r] * p[0] + c[4 * r + 1] * p[1] + c[4 * r + 2] * p[2] + c[4 * r + 3];
            moved[h][3] = p[3] * stretch_bound(c);
        }
        /* lines 4-5: R_{i,h} = sum_j c_{i,h,j} S_{i,j} (eq. 5.4) */
        for (int k = 0; k < js->ncorner; k++) {
            const skb_real *w = t->corner + SKB_MAX_INFLUENCES * (js->corner0 + k);
            skb_real *o = scratch + 4 * nr++;
            for (int e = 0; e < 4; e++) {
                o[e] = w[0] * moved[0][e];
                for (int h = 1; h < js->n; h++)
                    o[e] = o[e] + w[h] * moved[h][e];
            }
        }
    }
    /* line 6: Alg. 5.1 */
    skb_bounding_sphere(scratch, nr, out);
    /* weights summing to 1 + d scale the blend about the origin: v' = (1 + d) x */
    if (nd->wsum_dev > 0)
        out[3] = out[3] + nd->wsum_dev * (skb_v3_norm(out) + out[3]);
    return 0;
}
