/* subdivide.c — split every triangle in four (new vertex per edge midpoint,
 * shared between the two triangles of the edge) with weights interpolated
 * and reduced to the 4 largest, for the scaling runs of thesis Table 5.3. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_dataset.h"
#include "dataset_util.h"

#define MAX_LEVELS 6

struct edge_map { uint64_t *key; int *val; size_t cap; };

static uint64_t edge_key(int a, int b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return ((uint64_t)hi << 32 | lo) + 1;   /* 0 marks an empty slot */
}

/* index of the midpoint vertex of edge (a, b), created at *next if new */
static int edge_mid(struct edge_map *h, int a, int b, int *next, int *created)
{
    uint64_t k = edge_key(a, b);
    size_t i = (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 17) & (h->cap - 1);
    while (h->key[i] && h->key[i] != k)
        i = (i + 1) & (h->cap - 1);
    *created = !h->key[i];
    if (*created) {
        h->key[i] = k;
        h->val[i] = (*next)++;
    }
    return h->val[i];
}

static int subdivide_once(const struct skb_dataset *in, struct skb_dataset *out, char *msg, size_t msglen)
{
    const struct skb_mesh *m = &in->mesh;
    struct edge_map h = { 0 };
    int nedges_max = 3 * m->ntris;
    h.cap = 16;
    while (h.cap < 2 * (size_t)nedges_max)
        h.cap *= 2;
    h.key = calloc(h.cap, sizeof *h.key);
    h.val = calloc(h.cap, sizeof *h.val);
    int *mid = calloc((size_t)nedges_max + 1, sizeof *mid);
    if (!h.key || !h.val || !mid)
        goto oom;
    /* count the unique edges first */
    int next = m->nverts, created;
    for (int t = 0; t < m->ntris; t++)
        for (int e = 0; e < 3; e++)
            mid[3 * t + e] = edge_mid(&h, m->tris[3 * t + e], m->tris[3 * t + (e + 1) % 3], &next, &created);
    if (skb_dataset_alloc(out, next, 4 * m->ntris, m->njoints, in->nposes) < 0)
        goto oom;
    struct skb_mesh *o = &out->mesh;
    memcpy(o->pos, m->pos, sizeof *o->pos * 3 * (size_t)m->nverts);
    memcpy(o->joint, m->joint, sizeof *o->joint * 4 * (size_t)m->nverts);
    memcpy(o->weight, m->weight, sizeof *o->weight * 4 * (size_t)m->nverts);
    if (m->parent)
        memcpy(o->parent, m->parent, sizeof *o->parent * (size_t)m->njoints);
    if (m->joint_rest)
        memcpy(o->joint_rest, m->joint_rest, sizeof *o->joint_rest * 3 * (size_t)m->njoints);
    memcpy(out->poses, in->poses, sizeof *out->poses * 16 * (size_t)m->njoints * in->nposes);
    if (in->scales) {
        out->scales = malloc(sizeof *out->scales * 16 * (size_t)m->njoints * in->nposes + 1);
        if (!out->scales)
            goto oom;
        memcpy(out->scales, in->scales, sizeof *out->scales * 16 * (size_t)m->njoints * in->nposes);
    }
    char *done = calloc((size_t)next, 1);
    if (!done)
        goto oom;
    for (int t = 0; t < m->ntris; t++) {
        const int *c = m->tris + 3 * t;
        const int *mm = mid + 3 * t;
        for (int e = 0; e < 3; e++) {
            int a = c[e], b = c[(e + 1) % 3], v = mm[e];
            if (done[v])
                continue;
            done[v] = 1;
            int jj[8];
            double ww[8];
            for (int k = 0; k < 3; k++)
                o->pos[3 * v + k] = 0.5 * (m->pos[3 * a + k] + m->pos[3 * b + k]);
            for (int k = 0; k < 4; k++) {
                jj[k] = m->joint[4 * a + k];
                ww[k] = 0.5 * m->weight[4 * a + k];
                jj[4 + k] = m->joint[4 * b + k];
                ww[4 + k] = 0.5 * m->weight[4 * b + k];
            }
            skb__limit_influences(8, jj, ww, o->joint + 4 * v, o->weight + 4 * v);
        }
        /* corner triangles keep the winding, the middle one joins the midpoints */
        int *tr = o->tris + 12 * t;
        tr[0] = c[0]; tr[1] = mm[0]; tr[2] = mm[2];
        tr[3] = c[1]; tr[4] = mm[1]; tr[5] = mm[0];
        tr[6] = c[2]; tr[7] = mm[2]; tr[8] = mm[1];
        tr[9] = mm[0]; tr[10] = mm[1]; tr[11] = mm[2];
    }
    free(done);
    skb_dataset_compute_normals(o);
    free(h.key);
    free(h.val);
    free(mid);
    return 0;
oom:
    skb_dataset_free(out);
    free(h.key);
    free(h.val);
    free(mid);
    snprintf(msg, msglen, "%s: out of memory subdividing %d triangles", in->name, m->ntris);
    return SKB_ENOMEM;
}

int skb_dataset_subdivide(const struct skb_dataset *in, int levels, struct skb_dataset *out,
                          char *msg, size_t msglen)
{
    struct skb_dataset cur, nxt;
    int rc;
    if (levels < 0 || levels > MAX_LEVELS) {
        snprintf(msg, msglen, "%s: subdivision level %d out of range 0..%d", in->name, levels, MAX_LEVELS);
        return SKB_EINVAL;
    }
    if ((int64_t)in->mesh.ntris << (2 * levels) > INT32_MAX / 12) {
        snprintf(msg, msglen, "%s: %d subdivision levels of %d triangles is too large", in->name, levels,
                 in->mesh.ntris);
        return SKB_EINVAL;
    }
    /* level 0 is a deep copy through the same path (a zero-triangle split is not used) */
    if (levels == 0) {
        if ((rc = skb_dataset_alloc(out, in->mesh.nverts, in->mesh.ntris, in->mesh.njoints, in->nposes)) < 0) {
            snprintf(msg, msglen, "%s: out of memory", in->name);
            return rc;
        }
        const struct skb_mesh *m = &in->mesh;
        struct skb_mesh *o = &out->mesh;
        memcpy(o->pos, m->pos, sizeof *o->pos * 3 * (size_t)m->nverts);
        if (m->nrm)
            memcpy(o->nrm, m->nrm, sizeof *o->nrm * 3 * (size_t)m->nverts);
        memcpy(o->tris, m->tris, sizeof *o->tris * 3 * (size_t)m->ntris);
        memcpy(o->joint, m->joint, sizeof *o->joint * 4 * (size_t)m->nverts);
        memcpy(o->weight, m->weight, sizeof *o->weight * 4 * (size_t)m->nverts);
        if (m->parent)
            memcpy(o->parent, m->parent, sizeof *o->parent * (size_t)m->njoints);
        if (m->joint_rest)
            memcpy(o->joint_rest, m->joint_rest, sizeof *o->joint_rest * 3 * (size_t)m->njoints);
        memcpy(out->poses, in->poses, sizeof *out->poses * 16 * (size_t)m->njoints * in->nposes);
        if (in->scales && !(out->scales = malloc(sizeof *out->scales * 16 * (size_t)m->njoints * in->nposes + 1))) {
            skb_dataset_free(out);
            snprintf(msg, msglen, "%s: out of memory", in->name);
            return SKB_ENOMEM;
        }
        if (in->scales)
            memcpy(out->scales, in->scales, sizeof *out->scales * 16 * (size_t)m->njoints * in->nposes);
    } else {
        if ((rc = subdivide_once(in, &cur, msg, msglen)) < 0)
            return rc;
        for (int l = 1; l < levels; l++) {
            rc = subdivide_once(&cur, &nxt, msg, msglen);
            skb_dataset_free(&cur);
            if (rc < 0)
                return rc;
            cur = nxt;
        }
        *out = cur;
    }
    /* metadata carries over; the name records the level */
    snprintf(out->name, sizeof out->name, levels ? "%.100s/sub%d" : "%.100s", in->name, levels);
    snprintf(out->source, sizeof out->source, "%s", in->source);
    snprintf(out->clip, sizeof out->clip, "%s", in->clip);
    out->renormalized = in->renormalized;
    out->truncated = in->truncated;
    out->unweighted = in->unweighted;
    out->orthonormalized = in->orthonormalized;
    out->max_rigid_error = in->max_rigid_error;
    return 0;
}
