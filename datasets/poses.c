/* poses.c — influence limiting, rigid orthonormalisation and the generated
 * pose sets (random within joint limits, extreme twists). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include "skb_dataset.h"
#include "dataset_util.h"

int skb__limit_influences(int n, const int *joint, const double *weight, int out_joint[4],
                          skb_real out_weight[4])
{
    int jj[64];
    double ww[64];
    int m = 0, flags = 0;
    double raw = 0;
    /* merge duplicates, drop non-positive weights */
    for (int i = 0; i < n && m < 64; i++) {
        if (!(weight[i] > 0))
            continue;
        raw += weight[i];
        int k = 0;
        while (k < m && jj[k] != joint[i])
            k++;
        if (k == m) {
            jj[m] = joint[i];
            ww[m++] = 0;
        }
        ww[k] += weight[i];
    }
    /* selection of the 4 largest (stable: ties keep file order) */
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++)
            if (ww[b] > ww[a]) {
                double tw = ww[a]; ww[a] = ww[b]; ww[b] = tw;
                int tj = jj[a]; jj[a] = jj[b]; jj[b] = tj;
            }
    if (m > SKB_MAX_INFLUENCES) {
        flags |= 1;
        m = SKB_MAX_INFLUENCES;
    }
    double sum = 0;
    for (int k = 0; k < m; k++)
        sum += ww[k];
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        out_joint[k] = k < m ? jj[k] : (m > 0 ? jj[0] : 0);
        out_weight[k] = 0;
    }
    if (m == 0 || !(sum > 0)) {
        out_weight[0] = 1;
        return 4;
    }
    if (fabs(raw - 1) > SKB__DS_TOL_SUM || (flags & 1))
        flags |= 2;
    for (int k = 0; k < m; k++)
        out_weight[k] = ww[k] / sum;
    return flags;
}

double skb__orthonormalize(skb_real m[16])
{
    double err = (double)skb_mat4_rigid_error(m);
    if (err <= 1e-14)   /* already rigid to rounding; float files are not */
        return err;
    /* polar factor by the Newton iteration R <- (R + R^-T) / 2 after
     * removing the mean scale; converges quadratically */
    double r[9];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            r[3 * i + k] = m[4 * i + k];
    for (int it = 0; it < 30; it++) {
        double c[9], det;
        c[0] = r[4] * r[8] - r[5] * r[7];
        c[1] = r[5] * r[6] - r[3] * r[8];
        c[2] = r[3] * r[7] - r[4] * r[6];
        c[3] = r[2] * r[7] - r[1] * r[8];
        c[4] = r[0] * r[8] - r[2] * r[6];
        c[5] = r[1] * r[6] - r[0] * r[7];
        c[6] = r[1] * r[5] - r[2] * r[4];
        c[7] = r[2] * r[3] - r[0] * r[5];
        c[8] = r[0] * r[4] - r[1] * r[3];
        det = r[0] * c[0] + r[1] * c[1] + r[2] * c[2];
        if (fabs(det) < 1e-300)
            break;
        double delta = 0;
        for (int k = 0; k < 9; k++) {   /* R^-T = cofactor / det */
            double nv = 0.5 * (r[k] + c[k] / det);
            delta = fmax(delta, fabs(nv - r[k]));
            r[k] = nv;
        }
        if (delta < 1e-15)
            break;
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            m[4 * i + k] = r[3 * i + k];
    m[12] = 0; m[13] = 0; m[14] = 0; m[15] = 1;
    return err;
}

double skb_dataset_max_pose_rigid_error(const struct skb_dataset *d)
{
    double e = 0;
    for (size_t i = 0; i < (size_t)d->nposes * d->mesh.njoints; i++)
        e = fmax(e, (double)skb_mat4_rigid_error(d->poses + 16 * i));
    return e;
}

/* rotation by q about the point c as a 4x4 */
static void rot_about(const struct skb_quat *q, const skb_real c[3], skb_real out[16])
{
    skb_real r[9], t[3];
    skb_quat_to_mat3(q, r);
    for (int i = 0; i < 3; i++)
        t[i] = c[i] - (r[3 * i] * c[0] + r[3 * i + 1] * c[1] + r[3 * i + 2] * c[2]);
    skb_mat4_from_rt(r, t, out);
}

void skb__rot_about(const skb_real axis[3], double angle, const skb_real c[3], skb_real out[16])
{
    struct skb_quat q;
    skb_quat_from_axis_angle(axis, angle, &q);
    rot_about(&q, c, out);
}

static int realloc_poses(struct skb_dataset *d, int nposes, char *msg, size_t msglen)
{
    skb_real *p = calloc((size_t)16 * d->mesh.njoints * nposes + 1, sizeof *p);
    if (!p || !d->mesh.parent || !d->mesh.joint_rest) {
        free(p);
        snprintf(msg, msglen, "%s: %s", d->name, p ? "poses need joint parents and rest positions"
                                                  : "out of memory for poses");
        return p ? SKB_EINVAL : SKB_ENOMEM;
    }
    for (int j = 0; j < d->mesh.njoints; j++)
        if (d->mesh.parent[j] >= j) {
            free(p);
            snprintf(msg, msglen, "%s: joint %d: parent %d does not precede it", d->name, j, d->mesh.parent[j]);
            return SKB_EINVAL;
        }
    free(d->poses);
    free(d->scales);
    d->scales = NULL;
    d->poses = p;
    d->nposes = nposes;
    return 0;
}

/* C_j = C_parent * L_j, where L_j rotates about joint j's rest position */
void skb__pose_from_locals(struct skb_dataset *d, int k, const skb_real *local)
{
    skb_real *pose = d->poses + (size_t)16 * d->mesh.njoints * k;
    for (int j = 0; j < d->mesh.njoints; j++) {
        int p = d->mesh.parent[j];
        if (p < 0)
            memcpy(pose + 16 * j, local + 16 * j, 16 * sizeof *pose);
        else
            skb_mat4_mul(pose + 16 * p, local + 16 * j, pose + 16 * j);
    }
}

int skb_dataset_random_poses(struct skb_dataset *d, int nposes, double max_angle, unsigned long seed,
                             char *msg, size_t msglen)
{
    int nj = d->mesh.njoints, rc;
    skb_real *local = calloc((size_t)16 * nj, sizeof *local);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!local || !r) {
        free(local);
        if (r)
            gsl_rng_free(r);
        snprintf(msg, msglen, "%s: out of memory", d->name);
        return SKB_ENOMEM;
    }
    if ((rc = realloc_poses(d, nposes, msg, msglen)) < 0) {
        free(local);
        gsl_rng_free(r);
        return rc;
    }
    gsl_rng_set(r, seed);
    for (int k = 0; k < nposes; k++) {
        for (int j = 0; j < nj; j++) {
            skb_real axis[3];
            struct skb_quat q;
            gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
            skb_quat_from_axis_angle(axis, max_angle * gsl_rng_uniform(r), &q);
            rot_about(&q, d->mesh.joint_rest + 3 * j, local + 16 * j);
        }
        skb__pose_from_locals(d, k, local);
    }
    snprintf(d->clip, sizeof d->clip, "random(seed %lu, limit %.3g rad)", seed, max_angle);
    free(local);
    gsl_rng_free(r);
    return 0;
}

int skb_dataset_twist_poses(struct skb_dataset *d, int nposes, double max_twist, char *msg, size_t msglen)
{
    int nj = d->mesh.njoints, rc;
    skb_real *local = calloc((size_t)16 * nj, sizeof *local);
    skb_real *axis = calloc((size_t)3 * nj, sizeof *axis);
    if (!local || !axis) {
        free(local);
        free(axis);
        snprintf(msg, msglen, "%s: out of memory", d->name);
        return SKB_ENOMEM;
    }
    if ((rc = realloc_poses(d, nposes, msg, msglen)) < 0) {
        free(local);
        free(axis);
        return rc;
    }
    const skb_real *jr = d->mesh.joint_rest;
    for (int j = 0; j < nj; j++) {
        /* bone axis: towards the first child, else from the parent */
        int c = -1;
        for (int k = j + 1; k < nj && c < 0; k++)
            if (d->mesh.parent[k] == j)
                c = k;
        const skb_real *from = jr + 3 * j, *to = c >= 0 ? jr + 3 * c : NULL;
        skb_real a[3] = { 1, 0, 0 };
        if (!to && d->mesh.parent[j] >= 0) {
            to = jr + 3 * j;
            from = jr + 3 * d->mesh.parent[j];
        }
        if (to) {
            skb_real v[3] = { to[0] - from[0], to[1] - from[1], to[2] - from[2] };
            skb_real len = skb_v3_norm(v);
            if (len > 1e-12)
                for (int i = 0; i < 3; i++)
                    a[i] = v[i] / len;
        }
        memcpy(axis + 3 * j, a, sizeof a);
    }
    for (int k = 0; k < nposes; k++) {
        double t = nposes > 1 ? (double)k / (nposes - 1) : 1;
        for (int j = 0; j < nj; j++) {
            struct skb_quat q;
            skb_quat_from_axis_angle(axis + 3 * j, max_twist * t, &q);
            rot_about(&q, jr + 3 * j, local + 16 * j);
        }
        skb__pose_from_locals(d, k, local);
    }
    snprintf(d->clip, sizeof d->clip, "twist(0..%.3g rad per joint)", max_twist);
    free(local);
    free(axis);
    return 0;
}
