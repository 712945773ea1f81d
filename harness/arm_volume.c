/* arm_volume.c — volume loss over twist: the arm's elbow twisted
 * 0..180 degrees, skinned by every method of the registry; the closed tube
 * volume and the elbow ring's cross-section area as ratios to the rest pose.
 * LBS collapses the elbow ring to a point at 180 degrees (the candy wrapper,
 * thesis 2.2.1 Fig. 2.5, DQ paper Fig. 2); rigid blends keep it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_pictures.h"
#include "skb_results.h"
#include "procedural.h"

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* signed volume of the tetrahedron (origin, a, b, c) times 6 */
static double tet6(const double *a, const double *b, const double *c)
{
    double bc[3];
    cross(b, c, bc);
    return a[0] * bc[0] + a[1] * bc[1] + a[2] * bc[2];
}

static void ring_centroid(const double *pos, int ring, int sectors, double c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < sectors; k++)
        for (int i = 0; i < 3; i++)
            c[i] += pos[3 * ((size_t)ring * sectors + k) + i] / sectors;
}

/* divergence theorem over the tube's triangles (as procedural_arm.c builds
 * them) plus one fan per end ring, the two fans wound oppositely so that the
 * surface is closed and consistently oriented */
double skb_arm_tube_volume(const double *pos, int rings, int sectors)
{
    double v = 0, c0[3], c1[3];
    for (int r = 0; r + 1 < rings; r++)
        for (int k = 0; k < sectors; k++) {
            size_t a = (size_t)r * sectors + k, b = (size_t)r * sectors + (k + 1) % sectors;
            size_t c = a + sectors, e = b + sectors;
            v += tet6(pos + 3 * a, pos + 3 * b, pos + 3 * e) + tet6(pos + 3 * a, pos + 3 * e, pos + 3 * c);
        }
    ring_centroid(pos, 0, sectors, c0);
    ring_centroid(pos, rings - 1, sectors, c1);
    for (int k = 0; k < sectors; k++) {
        size_t a = (size_t)k, b = (size_t)(k + 1) % sectors;
        size_t la = (size_t)(rings - 1) * sectors + k, lb = (size_t)(rings - 1) * sectors + (k + 1) % sectors;
        v += tet6(c0, pos + 3 * b, pos + 3 * a) + tet6(c1, pos + 3 * la, pos + 3 * lb);
    }
    return v / 6;
}

/* |1/2 sum p_k x p_k+1|: the area of a planar ring, and for a ring squeezed
 * out of its plane the area of its projection on the best plane */
double skb_arm_ring_area(const double *pos, int ring, int sectors)
{
    double s[3] = { 0, 0, 0 }, x[3];
    for (int k = 0; k < sectors; k++) {
        const double *a = pos + 3 * ((size_t)ring * sectors + k);
        const double *b = pos + 3 * ((size_t)ring * sectors + (k + 1) % sectors);
        cross(a, b, x);
        for (int i = 0; i < 3; i++)
            s[i] += x[i];
    }
    return 0.5 * sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
}

/* vertices of the first ring share the rest x of vertex 0 */
static int arm_sectors(const struct skb_mesh *m)
{
    int s = 0;
    while (s < m->nverts && m->pos[3 * s] == m->pos[0])
        s++;
    return s;
}

/* one method over all twist angles: ratios to the rest tube */
static int method_curve(const struct skb_method *meth, struct skb_dataset *d, int rings, int sectors,
                        const struct skb_params *prm, cJSON *out, char *msg, size_t msglen)
{
    struct skb_skinner sk;
    size_t nv = (size_t)d->mesh.nverts;
    double *pos = (double *)malloc(sizeof(double) * 6 * nv + 1);
    double v0 = skb_arm_tube_volume(d->mesh.pos, rings, sectors);
    double a0 = skb_arm_ring_area(d->mesh.pos, (rings - 1) / 2, sectors);
    int rc;
    if (!pos) {
        snprintf(msg, msglen, "arm volume: out of memory");
        return SKB_ENOMEM;
    }
    if ((rc = skb_skin_init(&sk, meth, &d->mesh, msg, msglen)) < 0) {
        free(pos);
        return rc;
    }
    cJSON *vol = cJSON_AddArrayToObject(out, "volume_ratio");
    cJSON *area = cJSON_AddArrayToObject(out, "section_area_ratio");
    for (int t = 0; t < SKB_VOLUME_NTWIST && rc == 0; t++) {
        struct skb_pose pose;
        skb__arm_pose(d, 0, SKB_PI * SKB_VOLUME_TWIST_STEP_DEG * t / 180.0, 0);
        skb_dataset_pose(d, 0, &pose);
        rc = skb_skin_pose(&sk, &pose, prm, pos, d->mesh.nrm ? pos + 3 * nv : NULL, msg, msglen);
        if (rc == 0) {
            cJSON_AddItemToArray(vol, cJSON_CreateNumber(skb_arm_tube_volume(pos, rings, sectors) / v0));
            cJSON_AddItemToArray(area, cJSON_CreateNumber(skb_arm_ring_area(pos, (rings - 1) / 2, sectors) / a0));
        }
    }
    skb_skin_fini(&sk);
    free(pos);
    return rc;
}

static void add_header(cJSON *av, int rings, int sectors, const struct skb_dataset *d)
{
    cJSON *tw = cJSON_AddArrayToObject(av, "twist_deg");
    for (int t = 0; t < SKB_VOLUME_NTWIST; t++)
        cJSON_AddItemToArray(tw, cJSON_CreateNumber(SKB_VOLUME_TWIST_STEP_DEG * t));
    cJSON_AddStringToObject(av, "dataset", "arm");
    cJSON_AddStringToObject(av, "source", d->source);
    cJSON_AddNumberToObject(av, "rings", rings);
    cJSON_AddNumberToObject(av, "sectors", sectors);
    skb_json_add_number(av, "rest_volume", skb_arm_tube_volume(d->mesh.pos, rings, sectors));
    skb_json_add_number(av, "rest_section_area", skb_arm_ring_area(d->mesh.pos, (rings - 1) / 2, sectors));
    cJSON_AddStringToObject(av, "definition",
        "elbow twisted about the bone axis, no bend; volume: divergence theorem over the tube closed by a "
        "fan to each end ring's centroid; section: vector area of the ring at the elbow (x = 1 at rest); "
        "both divided by the rest pose's");
}

int skb_arm_volume_curve(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { .seed = ctx->seed, .quick = ctx->quick, .subdivide = 0 };
    struct skb_dataset d;
    int rc = skb_run_dataset_load(ctx, "arm", &o, &d, msg, msglen);
    if (rc < 0)
        return rc;
    int sectors = arm_sectors(&d.mesh), rings = sectors > 0 ? d.mesh.nverts / sectors : 0;
    if (sectors < 3 || rings < 3 || rings * sectors != d.mesh.nverts || d.nposes < 1) {
        /* the message first: skb_dataset_free zeroes d */
        snprintf(msg, msglen, "arm volume: the arm is not a ring-major tube (%d vertices, %d per ring)",
                 d.mesh.nverts, sectors);
        skb_dataset_free(&d);
        return SKB_EINVAL;
    }
    cJSON *av = cJSON_AddObjectToObject(root, "arm_volume");
    add_header(av, rings, sectors, &d);
    cJSON *ms = cJSON_AddObjectToObject(av, "methods");
    for (int i = 0; skb_methods[i] && rc == 0; i++) {
        const struct skb_method *meth = skb_methods[i];
        char why[512] = "";
        if (!skb_run_wants_method(ctx, meth))
            continue;
        cJSON *mo = cJSON_AddObjectToObject(ms, meth->name);
        cJSON_AddStringToObject(mo, "title", meth->title);
        if (!meth->skin) {
            cJSON_AddStringToObject(mo, "not_run", "no skin path (blend-only method)");
            continue;
        }
        if (method_curve(meth, &d, rings, sectors, &ctx->params, mo, why, sizeof why) < 0) {
            cJSON_DeleteItemFromObject(mo, "volume_ratio");
            cJSON_DeleteItemFromObject(mo, "section_area_ratio");
            cJSON_AddStringToObject(mo, "not_run", why);
        }
    }
    skb_dataset_free(&d);
    return rc;
}
