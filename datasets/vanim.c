/* vanim.c — storage of vertex animations (datasets/skb_vanim.h) and their
 * per-keyframe normals, and the bake of a skinned clip into one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_vanim.h"

int skb_vanim_alloc(struct skb_vanim *v, int nverts, int ntris, int nframes)
{
    memset(v, 0, sizeof *v);
    if (nverts < 1 || ntris < 0 || nframes < 1)
        return SKB_EINVAL;
    size_t n3 = 3 * (size_t)nverts, all = n3 * (size_t)nframes;
    v->nverts = nverts;
    v->ntris = ntris;
    v->nframes = nframes;
    v->tris = (int *)calloc(3 * (size_t)ntris + 1, sizeof(int));
    v->rest = (double *)calloc(n3, sizeof(double));
    v->rest_nrm = (double *)calloc(n3, sizeof(double));
    v->pos = (double *)calloc(all, sizeof(double));
    v->nrm = (double *)calloc(all, sizeof(double));
    if (!v->tris || !v->rest || !v->rest_nrm || !v->pos || !v->nrm) {
        skb_vanim_free(v);
        return SKB_ENOMEM;
    }
    return 0;
}

void skb_vanim_free(struct skb_vanim *v)
{
    if (!v)
        return;
    free(v->tris);
    free(v->rest);
    free(v->rest_nrm);
    free(v->pos);
    free(v->nrm);
    free(v->qstep);
    memset(v, 0, sizeof *v);
}

/* area-weighted, as skb_dataset_compute_normals; a vertex on no triangle
 * (or only degenerate ones) gets +z */
void skb_vanim_normals(const struct skb_vanim *v, const double *pos, double *nrm)
{
    memset(nrm, 0, sizeof(double) * 3 * (size_t)v->nverts);
    for (int t = 0; t < v->ntris; t++) {
        const int *i = v->tris + 3 * t;
        const double *a = pos + 3 * i[0], *b = pos + 3 * i[1], *c = pos + 3 * i[2];
        double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 3; r++)
                nrm[3 * i[k] + r] += n[r];
    }
    for (int k = 0; k < v->nverts; k++) {
        double *n = nrm + 3 * k, len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0) {
            n[0] /= len; n[1] /= len; n[2] /= len;
        } else {
            n[0] = 0; n[1] = 0; n[2] = 1;
        }
    }
}

int skb_vanim_bake(const struct skb_dataset *d, const struct skb_method *m, struct skb_vanim *out,
                   char *msg, size_t msglen)
{
    const struct skb_mesh *mesh = &d->mesh;
    int rc = skb_vanim_alloc(out, mesh->nverts, mesh->ntris, d->nposes);
    if (rc < 0) {
        snprintf(msg, msglen, "%s: out of memory baking %d poses", d->name, d->nposes);
        return rc;
    }
    snprintf(out->name, sizeof out->name, "%.40s-%.16s", d->name, m->name);
    snprintf(out->source, sizeof out->source, "%.120s, clip '%.40s' baked by %.16s's skin path (%d poses)", d->source,
             d->clip, m->name, d->nposes);
    memcpy(out->tris, mesh->tris, sizeof(int) * 3 * (size_t)mesh->ntris);
    for (int i = 0; i < 3 * mesh->nverts; i++)
        out->rest[i] = (double)mesh->pos[i];
    skb_vanim_normals(out, out->rest, out->rest_nrm);
    struct skb_skinner sk;
    struct skb_params prm;
    skb_params_default(&prm);
    skb_real *buf = (skb_real *)malloc(sizeof(skb_real) * 3 * (size_t)mesh->nverts);
    if (!buf || (rc = skb_skin_init(&sk, m, mesh, msg, msglen)) < 0) {
        if (!buf)
            snprintf(msg, msglen, "%s: out of memory", d->name);
        free(buf);
        skb_vanim_free(out);
        return buf ? rc : SKB_ENOMEM;
    }
    for (int k = 0; k < d->nposes && rc == 0; k++) {
        struct skb_pose p;
        skb_dataset_pose(d, k, &p);
        rc = skb_skin_pose(&sk, &p, &prm, buf, NULL, msg, msglen);
        double *f = out->pos + 3 * (size_t)mesh->nverts * (size_t)k;
        for (int i = 0; rc == 0 && i < 3 * mesh->nverts; i++)
            f[i] = (double)buf[i];
        if (rc == 0)
            skb_vanim_normals(out, f, out->nrm + 3 * (size_t)mesh->nverts * (size_t)k);
    }
    skb_skin_fini(&sk);
    free(buf);
    if (rc < 0)
        skb_vanim_free(out);
    return rc;
}
