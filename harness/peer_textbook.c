/* peer_textbook.c — linear blend skinning as a textbook writes it (thesis
 * eq. 2.6 read literally): every influence transforms the vertex with its
 * full 4x4 matrix and the results are summed with the weights; normals by
 * the 3x3 part, summed, then normalised.  Floats, array-of-structures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_peers.h"

struct tb_vertex { float pos[4], nrm[4]; int joint[4]; float weight[4]; };

struct skb_peer {
    int nverts, njoints, normals;
    struct tb_vertex *v;
    float (*mat)[16];
};

static struct skb_peer *tb_create(const struct skb_mesh *m)
{
    struct skb_peer *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nverts = m->nverts;
    p->njoints = m->njoints;
    p->normals = m->nrm != NULL;
    p->v = calloc((size_t)m->nverts + 1, sizeof *p->v);
    p->mat = calloc((size_t)m->njoints, sizeof *p->mat);
    if (!p->v || !p->mat) {
        free(p->v);
        free(p->mat);
        free(p);
        return NULL;
    }
    for (int v = 0; v < m->nverts; v++) {
        for (int k = 0; k < 3; k++) {
            p->v[v].pos[k] = (float)m->pos[3 * v + k];
            p->v[v].nrm[k] = m->nrm ? (float)m->nrm[3 * v + k] : 0;
        }
        p->v[v].pos[3] = 1;
        for (int k = 0; k < 4; k++) {
            p->v[v].joint[k] = m->joint[4 * v + k];
            p->v[v].weight[k] = (float)m->weight[4 * v + k];
        }
    }
    return p;
}

static void tb_prepare(struct skb_peer *p, const struct skb_pose *pose)
{
    for (int j = 0; j < p->njoints; j++)
        for (int k = 0; k < 16; k++)
            p->mat[j][k] = (float)pose->mats[16 * j + k];
}

static void tb_skin(struct skb_peer *p, float *pos_out, float *nrm_out)
{
    for (int v = 0; v < p->nverts; v++) {
        const struct tb_vertex *x = p->v + v;
        float out[4] = { 0, 0, 0, 0 }, n[3] = { 0, 0, 0 };
        for (int k = 0; k < 4; k++) {
            const float *m = p->mat[x->joint[k]];
            float w = x->weight[k];
            for (int r = 0; r < 4; r++)
                out[r] += w * (m[4 * r] * x->pos[0] + m[4 * r + 1] * x->pos[1] + m[4 * r + 2] * x->pos[2]
                               + m[4 * r + 3] * x->pos[3]);
            for (int r = 0; r < 3; r++)
                n[r] += w * (m[4 * r] * x->nrm[0] + m[4 * r + 1] * x->nrm[1] + m[4 * r + 2] * x->nrm[2]);
        }
        for (int r = 0; r < 3; r++)
            pos_out[3 * v + r] = out[r] / out[3];
        if (p->normals) {
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            for (int r = 0; r < 3; r++)
                nrm_out[3 * v + r] = len > 0 ? n[r] / len : n[r];
        }
    }
}

static void tb_destroy(struct skb_peer *p)
{
    if (!p)
        return;
    free(p->v);
    free(p->mat);
    free(p);
}

static const struct skb_peer_ops skb_peer_textbook_lbs = {
    .name = "textbook_lbs",
    .description = "textbook LBS: full 4x4 transform per influence, weighted sum (float, AoS)",
    .reference = SKB_MF_RATIO_REF,   /* LBS */
    .create = tb_create,
    .prepare = tb_prepare,
    .skin = tb_skin,
    .destroy = tb_destroy,
    .layout = "array of structures: per vertex position and normal (4 floats each), 4 int joints, 4 float "
              "weights (zero weights blended); 4x4 float per joint",
    .normals = "each influence's 3x3 times the normal, summed, then renormalised (sqrt and divide)",
    .threads = 1,
};

extern const struct skb_peer_ops skb_peer_glm_dq;

const struct skb_peer_ops *const skb_peers[] = {
    &skb_peer_textbook_lbs,
    &skb_peer_glm_dq,
    NULL
};
