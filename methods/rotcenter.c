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

#define MAX_PAIRS (SKB_ROTCENTER_MAX_N * (SKB_ROTCENTER_MAX_N - 1) / 2)

int skb_rotcenter(int n, const skb_real *const *mats, skb_real r[3])
{
    double d[3 * MAX_PAIRS * 3], e[3 * MAX_PAIRS], v[9], sv[3], work[3], x[3] = { 0, 0, 0 };
    int rows = 0;
    if (n < 1 || n > SKB_ROTCENTER_MAX_N)
        return -1;
    if (n == 1) {
        /* no pair, every point is a solution: the minimal-norm one is 0 */
        r[0] = 0; r[1] = 0; r[2] = 0;
        return 0;
    }
    /* thesis 3.1: (C_a^rot - C_b^rot) r = C_b^tr - C_a^tr for every a < b,
     * stacked into D r = e (3 * n(n-1)/2 rows, 3 columns) */
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++)
                    d[3 * (rows + i) + j] = (double)mats[a][4 * i + j] - (double)mats[b][4 * i + j];
                e[rows + i] = (double)mats[b][4 * i + 3] - (double)mats[a][4 * i + 3];
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
    /* pseudo-inverse r = sum_k v_k (u_k . e) / s_k over the non-zero s_k: the
     * least-squares solution of minimal norm.  The blocks of D are differences
     * of rotation matrices, dimensionless and of size <= 2, so the cutoff is
     * relative to max(s_max, 1): two rotations closer than ~RCOND rad count as
     * equal.  Ignoring such a direction moves the result by O(angle * drift),
     * keeping it would cost O(eps * drift / angle); 1e-8 balances the two. */
    double cut = SKB_ROTCENTER_RCOND * fmax(sv[0], 1.0);
    for (int k = 0; k < 3; k++) {
        if (!(sv[k] > cut))
            continue;
        double ue = 0;
        for (int i = 0; i < rows; i++)
            ue += d[3 * i + k] * e[i];
        for (int j = 0; j < 3; j++)
            x[j] += v[3 * j + k] * ue / sv[k];
    }
    if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
        return -1;
    r[0] = (skb_real)x[0]; r[1] = (skb_real)x[1]; r[2] = (skb_real)x[2];
    return 0;
}
