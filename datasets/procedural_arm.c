/* procedural_arm.c — the two-joint arm: a cylinder along x with the shoulder
 * at the origin and the elbow at x = 1; poses sweep an elbow twist and an
 * elbow bend (the candy-wrapper and collapsing-elbow set-ups, thesis 2.2.1
 * Fig. 2.5, DQ paper Fig. 2). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "skb_dataset.h"
#include "procedural.h"

#define ARM_LENGTH 2.0
#define ARM_RADIUS 0.25
#define BLEND_HALF_WIDTH 0.25   /* weights ramp over [1 - w, 1 + w] */

static void rot_about_point(const skb_real axis[3], skb_real angle, const skb_real c[3], skb_real out[16])
{
    struct skb_quat q;
    skb_real r[9], t[3];
    skb_quat_from_axis_angle(axis, angle, &q);
    skb_quat_to_mat3(&q, r);
    for (int i = 0; i < 3; i++)   /* R (x - c) + c */
        t[i] = c[i] - (r[3 * i] * c[0] + r[3 * i + 1] * c[1] + r[3 * i + 2] * c[2]);
    skb_mat4_from_rt(r, t, out);
}

int skb__arm_build(int rings, int sectors, int nposes, struct skb_dataset *d, char *msg, size_t msglen)
{
    int nv = rings * sectors, nt = 2 * (rings - 1) * sectors;
    if (skb_dataset_alloc(d, nv, nt, 2, nposes) < 0) {
        snprintf(msg, msglen, "arm: out of memory");
        return SKB_ENOMEM;
    }
    struct skb_mesh *m = &d->mesh;
    for (int r = 0; r < rings; r++) {
        skb_real x = ARM_LENGTH * r / (rings - 1);
        skb_real s = (x - (1 - BLEND_HALF_WIDTH)) / (2 * BLEND_HALF_WIDTH);
        skb_real w1 = s < 0 ? 0 : s > 1 ? 1 : s * s * (3 - 2 * s);   /* smoothstep */
        for (int k = 0; k < sectors; k++) {
            int v = r * sectors + k;
            skb_real a = 2 * SKB_PI * k / sectors;
            m->pos[3 * v] = x;
            m->pos[3 * v + 1] = ARM_RADIUS * cos(a);
            m->pos[3 * v + 2] = ARM_RADIUS * sin(a);
            m->joint[4 * v] = 0;
            m->joint[4 * v + 1] = 1;
            m->weight[4 * v] = 1 - w1;
            m->weight[4 * v + 1] = w1;
        }
    }
    int t = 0;
    for (int r = 0; r + 1 < rings; r++)
        for (int k = 0; k < sectors; k++) {
            int a = r * sectors + k, b = r * sectors + (k + 1) % sectors;
            int c = a + sectors, e = b + sectors;
            m->tris[3 * t] = a; m->tris[3 * t + 1] = b; m->tris[3 * t + 2] = e; t++;
            m->tris[3 * t] = a; m->tris[3 * t + 1] = e; m->tris[3 * t + 2] = c; t++;
        }
    skb_dataset_compute_normals(m);
    m->parent[0] = -1;
    m->parent[1] = 0;
    m->joint_rest[0] = 0; m->joint_rest[1] = 0; m->joint_rest[2] = 0;
    m->joint_rest[3] = 1; m->joint_rest[4] = 0; m->joint_rest[5] = 0;
    return 0;
}

void skb__arm_pose(struct skb_dataset *d, int k, skb_real twist, skb_real bend)
{
    static const skb_real xaxis[3] = { 1, 0, 0 }, zaxis[3] = { 0, 0, 1 };
    static const skb_real elbow[3] = { 1, 0, 0 };
    skb_real tw[16], bd[16];
    skb_real *p = d->poses + (size_t)32 * k;
    skb_mat4_identity(p);
    rot_about_point(xaxis, twist, elbow, tw);
    rot_about_point(zaxis, bend, elbow, bd);
    skb_mat4_mul(bd, tw, p + 16);
}

/* "arm": 9 twist poses 0..180 deg, then 9 bend poses 0..120 deg */
static int arm_load(const struct skb_dataset_opts *o, struct skb_dataset *d, char *msg, size_t msglen)
{
    int rings = o && o->quick ? 17 : 65, sectors = o && o->quick ? 12 : 32;
    int rc = skb__arm_build(rings, sectors, 18, d, msg, msglen);
    if (rc < 0)
        return rc;
    for (int k = 0; k < 9; k++) {
        skb__arm_pose(d, k, SKB_PI * k / 8, 0);
        skb__arm_pose(d, 9 + k, 0, (2 * SKB_PI / 3) * k / 8);
    }
    snprintf(d->source, sizeof d->source, "procedural: cylinder %d rings x %d sectors", rings, sectors);
    return 0;
}

const struct skb_dataset_source skb_dataset_arm = {
    .name = "arm",
    .kind = "procedural",
    .description = "two-joint arm (cylinder), elbow twist 0-180 deg and bend 0-120 deg",
    .in_default_set = 1,
    .load = arm_load,
};
