/* rotcenter.c — the rotation centre of spherical blend skinning (thesis 3.1,
 * ROTCENTER of Alg. 3.1): the point whose images under the joint matrices are
 * as close as possible, by SVD and pseudo-inverse (GSL in place of LAPACK).
 * Shared by the sb method and by anything that bounds SBS (thesis ch. 6).
 *
 * The solve runs in double because GSL does: the matrices are converted
 * explicitly on the way in and the centre on the way out. */
#include <math.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include "skb_math.h"
#include "skb_sb_internal.h"

#define MAX_PAIRS (SKB_ROTCENTER_MAX_N * (SKB_ROTCENTER_MAX_N - 1) / 2)

/* the components of the least-squares, minimal-norm solution of
 * D (r - o) = e - D o in the right singular basis: r = o + sum_k v_k c_k.
 * Kept: the leading singular values above the numerical zero (RCOND, see
 * below), then only while |r - o| stays <= bound.  Returns how many
 * non-zero directions the bound dropped, -1 on failure. */
int skb__rotcenter_bounded(int n, const skb_real *const *mats, const skb_real o[3],
                           skb_real bound, skb_real r[3])
{
    double d[3 * MAX_PAIRS * 3], e[3 * MAX_PAIRS], v[9], sv[3], work[3], x[3] = { 0, 0, 0 };
    int rows = 0, dropped = 0;
    if (n < 1 || n > SKB_ROTCENTER_MAX_N || !(bound >= 0))
        return -1;
    if (n == 1) {
        /* no pair, every point is a solution: the minimal-norm one is o */
        r[0] = o[0]; r[1] = o[1]; r[2] = o[2];
        return 0;
    }
    /* thesis 3.1: (C_a^rot - C_b^rot) r = C_b^tr - C_a^tr for every a < b,
     * stacked into D r = e (3 * n(n-1)/2 rows, 3 columns); with r = o + x
     * the right-hand side becomes e - D o */
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            for (int i = 0; i < 3; i++) {
                double eo = (double)mats[b][4 * i + 3] - (double)mats[a][4 * i + 3];
                for (int j = 0; j < 3; j++) {
                    d[3 * (rows + i) + j] = (double)mats[a][4 * i + j] - (double)mats[b][4 * i + j];
                    eo -= d[3 * (rows + i) + j] * (double)o[j];
                }
                e[rows + i] = eo;
            }
            rows += 3;
        }
    gsl_set_error_handler_off();   /* GSL's default handler aborts; statuses are checked */
    gsl_matrix_view dm = gsl_matrix_view_array(d, (size_t)rows, 3);
    gsl_matrix_view vm = gsl_matrix_view_array(v, 3, 3);
    gsl_vector_view sm = gsl_vector_view_array(sv, 3);
    gsl_vector_view wm = gsl_vector_view_array(work, 3);
    /* D = U S V^T; U overwrites D, singular values come sorted, largest first */
    if (gsl_linalg_SV_decomp(&dm.matrix, &vm.matrix, &sm.vector, &wm.vector) != GSL_SUCCESS)
        return -1;
    /* pseudo-inverse x = sum_k v_k (u_k . e) / s_k over the non-zero s_k: the
     * least-squares solution of minimal norm.  The blocks of D are differences
     * of rotation matrices, dimensionless and of size <= 2, so the numerical
     * zero is relative to max(s_max, 1): two rotations closer than ~RCOND rad
     * count as equal.  Ignoring such a direction moves the result by
     * O(angle * drift), keeping it would cost O(eps * drift / angle); 1e-8
     * balances the two.  Above it, the bound is the cut-off: the components
     * are orthogonal, so |x| grows with every direction kept, and the smallest
     * singular value whose direction keeps |x| <= bound is the cut-off. */
    double cut = SKB_ROTCENTER_RCOND * fmax(sv[0], 1.0), norm2 = 0;
    for (int k = 0; k < 3; k++) {
        if (!(sv[k] > cut))
            continue;
        double ue = 0;
        for (int i = 0; i < rows; i++)
            ue += d[3 * i + k] * e[i];
        double c = ue / sv[k];
        if (!isfinite(c))
            return -1;
        if (dropped || !(norm2 + c * c <= (double)bound * (double)bound)) {
            dropped++;
            continue;
        }
        norm2 += c * c;
        for (int j = 0; j < 3; j++)
            x[j] += v[3 * j + k] * c;
    }
    if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
        return -1;
    for (int j = 0; j < 3; j++)
        r[j] = (skb_real)((double)o[j] + x[j]);
    return dropped;
}

int skb_rotcenter(int n, const skb_real *const *mats, skb_real r[3])
{
    static const skb_real origin[3] = { 0, 0, 0 };
    return skb__rotcenter_bounded(n, mats, origin, (skb_real)INFINITY, r) < 0 ? -1 : 0;
}
