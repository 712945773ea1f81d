/* sphavg.c — Buss and Fillmore's spherical weighted average of unit
 * quaternions (Buss & Fillmore 2001, cited by seed 003 section 5 and thesis
 * 3.4): the point q of S^3 where the weighted tangent vectors
 * u = sum_i w_i log_q(q_i) vanish, found by their iteration
 *   q <- exp_q(u)   until |u| < precision,
 * started from the normalised linear blend (QLB).  log_q(p) is the tangent
 * vector at q pointing to p of length the arc angle; exp_q(u) walks |u| along
 * the great circle in u's direction.  Signs as the linear blend: DQ paper
 * Algorithm 2 against the first input (pivot), so every q_i lies on q's
 * hemisphere.  SBS with this in place of QLB is seed 003's "about 5x slower"
 * experiment (woman: 4.54 -> 22.74 ms). */
#include <math.h>
#include "skb_method.h"
#include "skb_sb_internal.h"

/* below this angle log_q and exp_q use their first-order forms */
#define SPHAVG_SMALL 1e-9

int skb__quat_spherical_average(int n, const skb_real *w, const int *idx, const struct skb_quat *q, int pivot,
                                skb_real precision, int max_iter, struct skb_quat *out)
{
    skb_real s[SKB__SPHAVG_MAX_N][4], ws[SKB__SPHAVG_MAX_N], b[4] = { 0, 0, 0, 0 };
    int m = 0, it;
    if (n > SKB__SPHAVG_MAX_N)
        return -1;
    for (int i = 0; i < n; i++) {
        const struct skb_quat *qi = q + (idx ? idx[i] : i);
        if (w[i] == 0)
            continue;
        skb_real sg = 1;
        if (m > 0 && pivot && s[0][0] * qi->w + s[0][1] * qi->x + s[0][2] * qi->y + s[0][3] * qi->z < 0)
            sg = -1;                               /* DQ paper Algorithm 2 */
        s[m][0] = sg * qi->w; s[m][1] = sg * qi->x; s[m][2] = sg * qi->y; s[m][3] = sg * qi->z;
        ws[m] = w[i];
        for (int k = 0; k < 4; k++)
            b[k] = b[k] + ws[m] * s[m][k];
        m++;
    }
    skb_real len = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
    if (!(len > 0))
        return -1;
    for (int k = 0; k < 4; k++)
        b[k] = b[k] / len;
    for (it = 0; it < max_iter; it++) {
        skb_real u[4] = { 0, 0, 0, 0 };
        for (int i = 0; i < m; i++) {
            skb_real c = b[0] * s[i][0] + b[1] * s[i][1] + b[2] * s[i][2] + b[3] * s[i][3];
            c = c > 1 ? 1 : c < -1 ? -1 : c;
            skb_real th = acos(c), sn = sin(th), f = th < SPHAVG_SMALL ? 1 : th / sn;
            for (int k = 0; k < 4; k++)
                u[k] = u[k] + ws[i] * f * (s[i][k] - c * b[k]);   /* log_b(s_i) */
        }
        skb_real ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
        if (ul < precision)
            break;
        skb_real cu = cos(ul), su = sin(ul) / ul, nl = 0;
        for (int k = 0; k < 4; k++) {
            b[k] = cu * b[k] + su * u[k];                          /* exp_b(u) */
            nl = nl + b[k] * b[k];
        }
        nl = sqrt(nl);                             /* against rounding drift */
        for (int k = 0; k < 4; k++)
            b[k] = b[k] / nl;
    }
    out->w = b[0]; out->x = b[1]; out->y = b[2]; out->z = b[3];
    return it;
}
