/* sphere_cd.c — skinned bodies for the sphere and collision experiments:
 * on-demand and bottom-up providers of posed spheres and vertices for
 * skb_cd_query (geometry/skb_geom.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_sb.h"
#include "skb_sphere_cd.h"

static int fail(int rc, char *msg, size_t msglen, const char *what, const char *name)
{
    if (msg && msglen)
        snprintf(msg, msglen, "%s: %s", name, what);
    return rc;
}

static int body_sphere(void *ctx, int node, skb_real out[4])
{
    return skb_sbody_sphere((struct skb_sbody *)ctx, node, out);
}

static const skb_real *body_vertex(void *ctx, int v)
{
    struct skb_sbody *b = (struct skb_sbody *)ctx;
    if (b->vstamp[v] != b->frame) {
        if (b->lazy_centres && b->mode == SKB_REFIT_ON_DEMAND
            && skb_sb_center_ensure(b->mesh, b->sk.state, skb_sb_vertex_set(b->mesh, b->sk.state, v)) < 0)
            return NULL;
        if (b->method->skin(b->mesh, b->sk.state, v, v + 1, b->pos, NULL) < 0)
            return NULL;
        b->vstamp[v] = b->frame;
        b->skinned++;
    }
    return b->pos + 3 * v;
}

int skb_sbody_init(struct skb_sbody *b, const struct skb_mesh *mesh, const struct skb_method *m,
                   const struct skb_sphere_tree *tree, char *msg, size_t msglen)
{
    int rc;
    memset(b, 0, sizeof *b);
    b->mesh = mesh;
    b->method = m;
    b->tree = tree;
    if ((rc = skb_skin_init(&b->sk, m, mesh, msg, msglen)) < 0)
        return rc;
    b->scratch = (skb_real *)malloc(sizeof(skb_real) * skb_sphere_tree_scratch_len(tree));
    b->sphere = (skb_real *)malloc(sizeof(skb_real) * 4 * (size_t)tree->nnodes);
    b->sstamp = (unsigned *)calloc((size_t)tree->nnodes, sizeof(unsigned));
    b->pos = (skb_real *)calloc(3 * (size_t)mesh->nverts, sizeof(skb_real));
    b->vstamp = (unsigned *)calloc((size_t)mesh->nverts, sizeof(unsigned));
    if (!b->scratch || !b->sphere || !b->sstamp || !b->pos || !b->vstamp) {
        skb_sbody_fini(b);
        return fail(SKB_ENOMEM, msg, msglen, "out of memory for the sphere caches", m->name);
    }
    b->body.tree = tree;
    b->body.tris = mesh->tris;
    b->body.sphere = body_sphere;
    b->body.vertex = body_vertex;
    b->body.ctx = b;
    return 0;
}

void skb_sbody_fini(struct skb_sbody *b)
{
    if (!b)
        return;
    skb_skin_fini(&b->sk);
    free(b->scratch);
    free(b->sphere);
    free(b->sstamp);
    free(b->pos);
    free(b->vstamp);
    b->scratch = b->sphere = b->pos = NULL;
    b->sstamp = b->vstamp = NULL;
}

int skb_sbody_skin_all(struct skb_sbody *b)
{
    int rc = b->method->skin(b->mesh, b->sk.state, 0, b->mesh->nverts, b->pos, NULL);
    if (rc < 0)
        return rc;
    for (int v = 0; v < b->mesh->nverts; v++)
        b->vstamp[v] = b->frame;
    b->skinned += b->mesh->nverts;
    return 0;
}

int skb_sbody_pose(struct skb_sbody *b, const struct skb_pose *p, const struct skb_params *prm,
                   int mode, char *msg, size_t msglen)
{
    struct skb_params defaults;
    int rc;
    char buf[160];
    if (p->njoints != b->mesh->njoints) {
        snprintf(buf, sizeof buf, "pose has %d joints, mesh has %d", p->njoints, b->mesh->njoints);
        return fail(SKB_EINVAL, msg, msglen, buf, b->method->name);
    }
    if (mode == SKB_REFIT_ON_DEMAND && !b->method->refit)
        return fail(SKB_ENOTSUP, msg, msglen, "no refit hook", b->method->name);
    if (!prm) {
        skb_params_default(&defaults);
        prm = &defaults;
    }
    skb_sbody_restamp(b);
    b->mode = mode;
    if (b->lazy_centres && mode == SKB_REFIT_ON_DEMAND)
        rc = skb_sb_prepare_lazy(b->mesh, p, prm, b->sk.state);
    else
        rc = b->method->prepare(b->mesh, p, prm, b->sk.state);
    if (rc < 0)
        return fail(rc, msg, msglen, skb_strerror(rc), b->method->name);
    if (mode == SKB_REFIT_BOTTOM_UP) {
        if ((rc = skb_sbody_skin_all(b)) < 0)
            return fail(rc, msg, msglen, skb_strerror(rc), b->method->name);
        /* the thesis's leaf fit (Alg. 5.1): the bottom-up side of Tables 5.3, 6.2 */
        if ((rc = skb_sphere_tree_refit_bottom_up(b->tree, b->mesh->tris, b->pos, SKB_LEAF_ALG51, b->sphere)) < 0)
            return fail(rc, msg, msglen, skb_strerror(rc), b->method->name);
        for (int k = 0; k < b->tree->nnodes; k++)
            b->sstamp[k] = b->frame;
        b->refits = b->tree->nnodes;
    }
    return 0;
}

void skb_sbody_restamp(struct skb_sbody *b)
{
    b->frame++;
    if (b->frame == 0) {   /* wrapped: clear the stamps */
        memset(b->sstamp, 0, sizeof(unsigned) * (size_t)b->tree->nnodes);
        memset(b->vstamp, 0, sizeof(unsigned) * (size_t)b->mesh->nverts);
        b->frame = 1;
    }
    b->refits = b->skinned = 0;
}

int skb_sbody_lazy_centres(struct skb_sbody *b, int on)
{
    if (on && !skb_sb_is(b->method))
        return SKB_ENOTSUP;
    b->lazy_centres = on;
    return 0;
}

/* the centres of the node's joint sets, solved now when stale */
static int node_centres(struct skb_sbody *b, int node)
{
    const struct skb_sphere_node *nd = &b->tree->node[node];
    for (int k = 0; k < nd->njs; k++) {
        const struct skb_joint_set *js = &b->tree->js[nd->js0 + k];
        int rc = js->n < 2 ? 0 : skb_sb_center_ensure(b->mesh, b->sk.state, skb_sb_vertex_set(b->mesh, b->sk.state, js->vertex));
        if (rc < 0)
            return rc;
    }
    return 0;
}

int skb_sbody_sphere(struct skb_sbody *b, int node, skb_real out[4])
{
    skb_real *s = b->sphere + 4 * node;
    if (b->sstamp[node] != b->frame) {
        int rc = b->lazy_centres && b->mode == SKB_REFIT_ON_DEMAND ? node_centres(b, node) : 0;
        if (rc == 0)
            rc = b->method->refit(b->tree, node, b->mesh, b->sk.state, b->scratch, s);
        if (rc < 0)
            return rc;
        b->sstamp[node] = b->frame;
        b->refits++;
    }
    memcpy(out, s, 4 * sizeof(skb_real));
    return 0;
}

int skb_sbody_refit_all(struct skb_sbody *b, skb_real *out)
{
    for (int k = 0; k < b->tree->nnodes; k++) {
        int rc = b->method->refit(b->tree, k, b->mesh, b->sk.state, b->scratch, out + 4 * k);
        if (rc < 0)
            return rc;
    }
    return 0;
}

void skb_pose_place(const struct skb_pose *p, const skb_real world[16], skb_real *out_mats)
{
    for (int j = 0; j < p->njoints; j++)
        skb_mat4_mul(world, p->mats + 16 * j, out_mats + 16 * j);
}

long skb_spheres_escapes(const struct skb_sphere_tree *t, const skb_real *pos, const skb_real *spheres)
{
    const skb_real *root = t->node[0].s;
    double tol = SKB_SPHERE_CHECK_REL * (fabs(root[0]) + fabs(root[1]) + fabs(root[2]) + root[3]);
    long esc = 0;
    for (int k = 0; k < t->nnodes; k++) {
        const struct skb_sphere_node *nd = &t->node[k];
        const skb_real *s = spheres + 4 * k;
        for (int i = 0; i < nd->nvert; i++) {
            const skb_real *p = pos + 3 * t->vert[nd->vert0 + i];
            skb_real d[3] = { p[0] - s[0], p[1] - s[1], p[2] - s[2] };
            if (!(skb_v3_norm(d) <= s[3] + tol))
                esc++;
        }
    }
    return esc;
}

static double rot_angle(const skb_real *a, const skb_real *b)
{
    /* angle of A^T B from its trace, rotation parts of two 4x4 */
    double tr = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            tr += (double)(a[4 * k + i] * b[4 * k + i]);
    double c = (tr - 1) / 2;
    return acos(c > 1 ? 1 : c < -1 ? -1 : c);
}

double skb_pose_strength(const struct skb_mesh *m, const skb_real *mats)
{
    double s = 0;
    for (int j = 0; j < m->njoints; j++) {
        int p = m->parent ? m->parent[j] : 0;
        if (p < 0 || p == j || p >= m->njoints)
            continue;
        s += rot_angle(mats + 16 * p, mats + 16 * j);
    }
    return s;
}

int skb_pose_strongest(const struct skb_mesh *m, const skb_real *poses, int nposes)
{
    int best = 0;
    double bs = -1;
    for (int k = 0; k < nposes; k++) {
        double s = skb_pose_strength(m, poses + (size_t)16 * m->njoints * k);
        if (s > bs) {
            bs = s;
            best = k;
        }
    }
    return best;
}

void skb_sphere_tree_level_avgs(const struct skb_sphere_tree *t, const skb_real *s, double *avg, double *cnt)
{
    for (int L = 0; L <= t->depth; L++)
        avg[L] = cnt[L] = 0;
    for (int k = 0; k < t->nnodes; k++) {
        int L = t->node[k].level;
        if (L < 0 || L > t->depth)
            continue;
        avg[L] += s ? s[4 * k + 3] : t->node[k].s[3];
        cnt[L]++;
    }
    for (int L = 0; L <= t->depth; L++)
        avg[L] = cnt[L] > 0 ? avg[L] / cnt[L] : NAN;
}
