/* skb_test_blend.h — helpers of the blend and skin tests (test_blend_properties.c,
 * test_sb_centre.c, test_qb_centre.c, test_antipodality.c, test_dib_iteration.c,
 * test_dq_skinning.c): registry lookup, screw motions (thesis eq. 2.4),
 * two-matrix blends, and the 7-vertex, 4-joint chain of SB's and QB's centre
 * tests. */
#ifndef SKB_TEST_BLEND_H
#define SKB_TEST_BLEND_H

#include "skb_test.h"
#include "skb_dqblend.h"
#include "skb_fast.h"
#include "skb_sb_internal.h"

#define N_RANDOM 200
#define DEG (SKB_PI / 180)

static inline const struct skb_method *need(const char *name)
{
    const struct skb_method *m = skb_method_find(name);
    if (!m)
        fail_msg("method %s is not in the registry", name);
    return m;
}

/* rotation by angle about the coordinate axis `axis` (0 = x, 2 = z) */
static inline void rot_axis(int axis, double angle, double m[16])
{
    double a[3] = { 0, 0, 0 }, r[9], t[3] = { 0, 0, 0 };
    struct skb_quat q;
    a[axis] = 1;
    skb_quat_from_axis_angle(a, angle, &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, t, m);
}

static inline void rot_x(double angle, double m[16])
{
    rot_axis(0, angle, m);
}

static inline void rot_z(double angle, double m[16])
{
    rot_axis(2, angle, m);
}

/* rotation by angle about the unit axis through the point p, then a slide
 * d along the axis: a screw motion (thesis eq. 2.4) */
static inline void screw(const double axis[3], double angle, const double p[3], double d, double m[16])
{
    double rot[9], t[3];
    struct skb_quat q;
    skb_quat_from_axis_angle(axis, angle, &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)
        t[i] = p[i] - (rot[3 * i] * p[0] + rot[3 * i + 1] * p[1] + rot[3 * i + 2] * p[2]) + d * axis[i];
    skb_mat4_from_rt(rot, t, m);
}

static inline void blend_pair(const struct skb_method *m, const double *a, const double *b, double t,
                          const double *center, const struct skb_params *prm, double out[16])
{
    double mats[32], w[2] = { 1 - t, t };
    char msg[256];
    memcpy(mats, a, sizeof(double) * 16);
    memcpy(mats + 16, b, sizeof(double) * 16);
    struct skb_blend_in in = { 2, w, mats, center };
    if (skb_blend(m, &in, prm, out, NULL, msg, sizeof msg) < 0)
        fail_msg("%s: %s", m->name, msg);
}

static inline void random_unit(gsl_rng *r, double v[3])
{
    gsl_ran_dir_3d(r, &v[0], &v[1], &v[2]);
}

static inline void random_point(gsl_rng *r, double scale, double v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = scale * (2 * gsl_rng_uniform(r) - 1);
}

/* rotation quaternion of a blended matrix */
static inline void rot_quat(const double m[16], struct skb_quat *q)
{
    double rot[9], t[3];
    skb_mat4_to_rt(m, rot, t);
    skb_quat_from_mat3(rot, q);
}

/* a small mesh over a chain 0 -> 1 -> 2 -> 3 */
#define SM_VERTS 7

static const int sm_joint[4 * SM_VERTS] = {
    0, 0, 0, 0,     /* {0}: no SVD */
    0, 1, 0, 0,     /* {0,1} */
    1, 0, 0, 0,     /* {0,1} again, other order */
    0, 1, 2, 0,     /* {0,1,2} */
    2, 2, 0, 0,     /* {2} listed twice: no SVD */
    0, 2, 0, 0,     /* {0,2} */
    1, 0, 2, 1,     /* {0,1,2} with 1 twice */
};

static const double sm_weight[4 * SM_VERTS] = {
    1, 0, 0, 0,
    0.7, 0.3, 0, 0,
    0.4, 0.6, 0, 0,
    0.2, 0.3, 0.5, 0,
    0.5, 0.5, 0, 0,
    0.6, 0.4, 0, 0,
    0.25, 0.25, 0.25, 0.25,
};

#define SM_SETS 3

static const int sm_parent[4] = { -1, 0, 1, 2 };

static const double sm_rest[12] = { 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0 };

/* ... and its pose: random rigid joints from r, or identities when r is NULL */
static inline void small_mesh(struct skb_mesh *mesh, double *pos, int *joint, double *weight,
                              gsl_rng *r, double mats[64])
{
    for (int j = 0; j < 4; j++)
        if (r)
            skb_test_random_rigid(r, 0.8 * SKB_PI, 1, mats + 16 * j);
        else
            skb_mat4_identity(mats + 16 * j);
    memset(mesh, 0, sizeof *mesh);
    memcpy(joint, sm_joint, sizeof sm_joint);
    memcpy(weight, sm_weight, sizeof sm_weight);
    for (int v = 0; v < SM_VERTS; v++) {
        pos[3 * v] = 0.4 * v;
        pos[3 * v + 1] = 0.3;
        pos[3 * v + 2] = -0.2;
    }
    mesh->nverts = SM_VERTS;
    mesh->njoints = 4;
    mesh->pos = pos;
    mesh->joint = joint;
    mesh->weight = weight;
}

/* the joints of vertex v with non-zero weight, as a bit mask */
static inline unsigned sm_mask(const int *joint, const double *weight, int v)
{
    unsigned mask = 0;
    for (int k = 0; k < 4; k++)
        if (weight[4 * v + k] != 0)
            mask |= 1u << joint[4 * v + k];
    return mask;
}

/* the small mesh as the chain 0-1-2-3 (sm_parent, sm_rest), posed along
 * it as datasets/poses.c poses: C_j = C_parent L_j, L_j the rotation by
 * angle[j-1] about axis[j-1] (normalised here) through joint j's rest
 * position; C_0 as small_mesh left it */
static inline void sm_chain(struct skb_mesh *mesh, int parent[4], double rest[12], double axis[3][3], const double angle[3],
                            double mats[64])
{
    memcpy(parent, sm_parent, 4 * sizeof *parent);
    memcpy(rest, sm_rest, 12 * sizeof *rest);
    mesh->parent = parent;
    mesh->joint_rest = rest;
    for (int j = 1; j < 4; j++) {
        double l[16], an = skb_v3_norm(axis[j - 1]);
        for (int k = 0; k < 3; k++)
            axis[j - 1][k] /= an;
        screw(axis[j - 1], angle[j - 1], rest + 3 * j, 0, l);
        skb_mat4_mul(mats + 16 * (j - 1), l, mats + 16 * j);
    }
}

static inline int blend2(const struct skb_method *m, const double *mats, double w1, const struct skb_params *prm,
                         double out[16], struct skb_blend_stats *st)
{
    double w[2] = { 1 - w1, w1 }, c[3] = { 0, 0, 0 };
    char msg[256];
    struct skb_blend_in in = { 2, w, mats, c };
    int rc = skb_blend(m, &in, prm, out, st, msg, sizeof msg);
    if (rc < 0)
        print_message("%s: %s\n", m->name, msg);
    return rc;
}

#endif