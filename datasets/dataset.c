/* dataset.c — dataset allocation and the shared helpers (the lookup by
 * name: dataset_load.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "skb_dataset.h"
#include "dataset_util.h"

int skb_dataset_alloc(struct skb_dataset *d, int nverts, int ntris, int njoints, int nposes)
{
    struct skb_mesh *m = &d->mesh;
    memset(d, 0, sizeof *d);
    m->nverts = nverts;
    m->ntris = ntris;
    m->njoints = njoints;
    d->nposes = nposes;
    m->pos = calloc((size_t)3 * nverts + 1, sizeof *m->pos);
    m->nrm = calloc((size_t)3 * nverts + 1, sizeof *m->nrm);
    m->tris = calloc((size_t)3 * ntris + 1, sizeof *m->tris);
    m->joint = calloc((size_t)SKB_MAX_INFLUENCES * nverts + 1, sizeof *m->joint);
    m->weight = calloc((size_t)SKB_MAX_INFLUENCES * nverts + 1, sizeof *m->weight);
    m->parent = calloc((size_t)njoints + 1, sizeof *m->parent);
    m->joint_rest = calloc((size_t)3 * njoints + 1, sizeof *m->joint_rest);
    d->poses = calloc((size_t)16 * njoints * nposes + 1, sizeof *d->poses);
    if (!m->pos || !m->nrm || !m->tris || !m->joint || !m->weight || !m->parent
        || !m->joint_rest || !d->poses) {
        skb_dataset_free(d);
        return SKB_ENOMEM;
    }
    for (int j = 0; j < njoints; j++)
        m->parent[j] = -1;
    return 0;
}

void skb_dataset_free(struct skb_dataset *d)
{
    if (!d)
        return;
    free(d->mesh.pos);
    free(d->mesh.nrm);
    free(d->mesh.tris);
    free(d->mesh.joint);
    free(d->mesh.weight);
    free(d->mesh.parent);
    free(d->mesh.joint_rest);
    free(d->mesh.center);
    free(d->poses);
    free(d->scales);
    memset(d, 0, sizeof *d);
}

void skb_dataset_pose(const struct skb_dataset *d, int k, struct skb_pose *out)
{
    size_t off = (size_t)16 * d->mesh.njoints * k;
    out->njoints = d->mesh.njoints;
    out->mats = d->poses + off;
    out->scale = d->scales ? d->scales + off : NULL;
}

void skb_dataset_compute_normals(struct skb_mesh *m)
{
    memset(m->nrm, 0, sizeof *m->nrm * 3 * (size_t)m->nverts);
    for (int t = 0; t < m->ntris; t++) {
        const int *i = m->tris + 3 * t;
        const skb_real *a = m->pos + 3 * i[0], *b = m->pos + 3 * i[1], *c = m->pos + 3 * i[2];
        skb_real e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
        skb_real e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        skb_real n[3];
        skb_v3_cross(e1, e2, n);
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 3; r++)
                m->nrm[3 * i[k] + r] += n[r];
    }
    for (int v = 0; v < m->nverts; v++) {
        skb_real *n = m->nrm + 3 * v;
        skb_real len = skb_v3_norm(n);
        if (len > 0) {
            n[0] /= len; n[1] /= len; n[2] /= len;
        } else {
            n[0] = 0; n[1] = 0; n[2] = 1;
        }
    }
}

int skb__find_neck(int n, const char *const *names)
{
    for (int j = 0; j < n; j++) {
        const char *s = names[j];
        for (; s && *s; s++)
            if (strncasecmp(s, "neck", 4) == 0)
                return j;
    }
    return -1;
}
