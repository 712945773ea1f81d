/* sphere_tree.c — the sphere tree of thesis 5.1-5.3 (Alg. 2.1 with the
 * collapse constant C), its joint sets and weight corners for on-demand
 * refits, bottom-up refitting and the best (miniball) spheres.  See
 * skb_geom.h for the contracts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "skb_geom.h"

static skb_real dist3(const skb_real a[3], const skb_real b[3])
{
    skb_real d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return skb_v3_norm(d);
}

/* ------------------------------------------------------------ sphere tree */

struct bnode {
    int tri0, ntri, left, right, depth;
    skb_real s[4];
};

struct build {
    const struct skb_mesh *m;
    int *tri;              /* permuted triangle indices */
    skb_real *centroid;    /* 3 per triangle */
    struct bnode *bn;
    int nbn, depth;
    int *mark, *vbuf;      /* per-vertex stamp, vertex gather buffer */
    int stamp;
};

/* distinct vertices of triangles tri[tri0 .. tri0+ntri) into out; returns count */
static int gather_verts(struct build *b, int tri0, int ntri, int *out)
{
    int n = 0;
    b->stamp++;
    for (int k = tri0; k < tri0 + ntri; k++)
        for (int c = 0; c < 3; c++) {
            int v = b->m->tris[3 * b->tri[k] + c];
            if (b->mark[v] != b->stamp) {
                b->mark[v] = b->stamp;
                out[n++] = v;
            }
        }
    return n;
}

/* thesis Alg. 2.1 */
static int build_node(struct build *b, int tri0, int ntri, int depth, int *rc)
{
    int id = b->nbn++;
    struct bnode *p = &b->bn[id];
    p->tri0 = tri0;
    p->ntri = ntri;
    p->left = p->right = -1;
    p->depth = depth;
    if (depth > b->depth)
        b->depth = depth;
    int nv = gather_verts(b, tri0, ntri, b->vbuf);
    if ((*rc = skb_miniball(b->m->pos, b->vbuf, nv, p->s)) < 0)
        return id;
    if (ntri < 2)
        return id;
    /* split rule: halve the longest side of the box of triangle centroids */
    skb_real lo[3], hi[3];
    for (int i = 0; i < 3; i++)
        lo[i] = hi[i] = b->centroid[3 * b->tri[tri0] + i];
    for (int k = tri0 + 1; k < tri0 + ntri; k++)
        for (int i = 0; i < 3; i++) {
            skb_real x = b->centroid[3 * b->tri[k] + i];
            if (x < lo[i]) lo[i] = x;
            if (x > hi[i]) hi[i] = x;
        }
    int axis = 0;
    for (int i = 1; i < 3; i++)
        if (hi[i] - lo[i] > hi[axis] - lo[axis])
            axis = i;
    skb_real mid = (lo[axis] + hi[axis]) / 2;
    int i = tri0, j = tri0 + ntri - 1;
    while (i <= j) {
        if (b->centroid[3 * b->tri[i] + axis] < mid)
            i++;
        else {
            int t = b->tri[i];
            b->tri[i] = b->tri[j];
            b->tri[j] = t;
            j--;
        }
    }
    int nl = i - tri0;
    if (nl == 0 || nl == ntri)
        return id;   /* thesis Alg. 2.1 lines 4-6: one side empty, a leaf */
    int l = build_node(b, tri0, nl, depth + 1, rc);
    if (*rc < 0)
        return id;
    int r = build_node(b, tri0 + nl, ntri - nl, depth + 1, rc);
    b->bn[id].left = l;
    b->bn[id].right = r;
    return id;
}

/* the final children of binary node p: a child c with r_c > C r_p is
 * replaced by its own children (thesis 5.1) */
static int collapse_children(const struct bnode *bn, int p, int c, skb_real cc, int *out, int n)
{
    if (bn[c].left >= 0 && bn[c].s[3] > cc * bn[p].s[3]) {
        n = collapse_children(bn, p, bn[c].left, cc, out, n);
        return collapse_children(bn, p, bn[c].right, cc, out, n);
    }
    out[n++] = c;
    return n;
}

struct jskey {
    int j[SKB_MAX_INFLUENCES];
    int v;
};

static int jskey_cmp(const void *a, const void *b)
{
    const struct jskey *x = (const struct jskey *)a, *y = (const struct jskey *)b;
    for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
        if (x->j[i] != y->j[i])
            return x->j[i] < y->j[i] ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* joints with positive weight of vertex v, ascending, padded with -1, and
 * their summed weights normalised to 1 */
static int vertex_joint_set(const struct skb_mesh *m, int v, int j[SKB_MAX_INFLUENCES],
                            skb_real w[SKB_MAX_INFLUENCES])
{
    int n = 0;
    skb_real sum = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        j[k] = -1;
        w[k] = 0;
    }
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        int jk = m->joint[SKB_MAX_INFLUENCES * v + k];
        skb_real wk = m->weight[SKB_MAX_INFLUENCES * v + k];
        if (!(wk > 0))
            continue;
        sum = sum + wk;
        int at = 0;
        while (at < n && j[at] < jk)
            at++;
        if (at < n && j[at] == jk) {
            w[at] = w[at] + wk;
            continue;
        }
        for (int i = n; i > at; i--) {
            j[i] = j[i - 1];
            w[i] = w[i - 1];
        }
        j[at] = jk;
        w[at] = wk;
        n++;
    }
    for (int k = 0; k < n; k++)
        w[k] = w[k] / sum;
    return n;
}

/* corners of W'_n = {w : lo <= w <= hi, sum w = 1} (thesis 5.2.1): every
 * vertex has n-1 coordinates at a bound and the last one fixed by the sum;
 * brute force over the free coordinate and the 2^(n-1) bound choices */
static int weight_corners(int n, const skb_real *lo0, const skb_real *hi0, skb_real *out)
{
    skb_real lo[SKB_MAX_INFLUENCES], hi[SKB_MAX_INFLUENCES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        lo[i] = lo0[i] - SKB_TREE_WEIGHT_SLACK;
        hi[i] = hi0[i] + SKB_TREE_WEIGHT_SLACK;
        if (lo[i] < 0) lo[i] = 0;
        if (hi[i] > 1) hi[i] = 1;
    }
    if (n == 1) {
        out[0] = 1;
        for (int i = 1; i < SKB_MAX_INFLUENCES; i++)
            out[i] = 0;
        return 1;
    }
    for (int f = 0; f < n; f++)
        for (int mask = 0; mask < (1 << (n - 1)); mask++) {
            skb_real w[SKB_MAX_INFLUENCES] = { 0, 0, 0, 0 }, s = 0;
            int bit = 0;
            for (int i = 0; i < n; i++) {
                if (i == f)
                    continue;
                w[i] = (mask >> bit++) & 1 ? hi[i] : lo[i];
                s = s + w[i];
            }
            w[f] = 1 - s;
            /* degenerate polytopes (weights at their bounds summing to 1
             * exactly) put w[f] on its bound up to rounding: accept ties */
            if (w[f] < lo[f] - SKB_TREE_CORNER_MERGE || w[f] > hi[f] + SKB_TREE_CORNER_MERGE)
                continue;
            int dup = 0;
            for (int c = 0; c < nc && !dup; c++) {
                dup = 1;
                for (int i = 0; i < n; i++)
                    if (fabs(out[SKB_MAX_INFLUENCES * c + i] - w[i]) > SKB_TREE_CORNER_MERGE)
                        dup = 0;
            }
            if (dup)
                continue;
            for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
                out[SKB_MAX_INFLUENCES * nc + i] = w[i];
            nc++;
        }
    return nc;
}

static int tree_fail(int rc, char *msg, size_t msglen, const char *what)
{
    if (msg && msglen)
        snprintf(msg, msglen, "sphere tree: %s", what);
    return rc;
}

/* the build's temporaries, freed together whatever happens */
struct tree_tmp {
    struct build b;
    int *order, *kids, *final_of;  /* breadth-first renumbering of the binary tree */
    struct jskey *keys, *gjs;      /* vertices sorted by joint set; the distinct sets */
    int *vjs;                      /* vertex -> global joint set */
    int *gjs_mark, *gjs_local;     /* per global set: last node that met it, its index there */
    int ngjs;
};

static int tmp_alloc(struct tree_tmp *x, const struct skb_mesh *m)
{
    size_t nt = (size_t)m->ntris, nv = (size_t)m->nverts;
    memset(x, 0, sizeof *x);
    x->b.m = m;
    x->b.tri = (int *)malloc(sizeof(int) * nt);
    x->b.centroid = (skb_real *)malloc(sizeof(skb_real) * 3 * nt);
    x->b.bn = (struct bnode *)malloc(sizeof(struct bnode) * (2 * nt));
    x->b.mark = (int *)calloc(nv, sizeof(int));
    x->b.vbuf = (int *)malloc(sizeof(int) * nv);
    x->order = (int *)malloc(sizeof(int) * (2 * nt));
    x->kids = (int *)malloc(sizeof(int) * (2 * nt));
    x->final_of = (int *)malloc(sizeof(int) * (2 * nt));
    x->keys = (struct jskey *)malloc(sizeof(struct jskey) * nv);
    x->vjs = (int *)malloc(sizeof(int) * nv);
    return x->b.tri && x->b.centroid && x->b.bn && x->b.mark && x->b.vbuf && x->order && x->kids
           && x->final_of && x->keys && x->vjs ? 0 : SKB_ENOMEM;
}

static void tmp_free(struct tree_tmp *x)
{
    free(x->b.tri);
    free(x->b.centroid);
    free(x->b.bn);
    free(x->b.mark);
    free(x->b.vbuf);
    free(x->order);
    free(x->kids);
    free(x->final_of);
    free(x->keys);
    free(x->vjs);
    free(x->gjs);
    free(x->gjs_mark);
    free(x->gjs_local);
}

/* the binary tree of thesis Alg. 2.1 over the triangle centroids */
static int binary_tree(struct build *b, struct skb_sphere_tree *t)
{
    const struct skb_mesh *m = b->m;
    int rc = 0;
    for (int k = 0; k < m->ntris; k++) {
        b->tri[k] = k;
        for (int i = 0; i < 3; i++) {
            const int *tv = m->tris + 3 * k;
            b->centroid[3 * k + i] = (m->pos[3 * tv[0] + i] + m->pos[3 * tv[1] + i] + m->pos[3 * tv[2] + i]) / 3;
        }
    }
    build_node(b, 0, m->ntris, 1, &rc);
    t->nnodes_binary = b->nbn;
    t->depth_binary = b->depth;
    return rc;
}

/* node id (binary node p) of the collapsed tree: its sphere, and its
 * children (collapse constant C) queued at *tail */
static void collapse_one(struct skb_sphere_tree *t, struct tree_tmp *x, int id, int *tail, int *nkids,
                         skb_real collapse_c)
{
    const struct bnode *bn = x->b.bn;
    int p = x->order[id];
    struct skb_sphere_node *nd = &t->node[id];
    x->final_of[p] = id;
    memcpy(nd->s, bn[p].s, sizeof nd->s);
    nd->tri0 = bn[p].tri0;
    nd->ntri = bn[p].ntri;
    if (id == 0) {
        nd->parent = -1;
        nd->level = 1;
    }
    nd->child0 = *tail;
    nd->nchild = 0;
    if (bn[p].left >= 0) {
        int n = collapse_children(bn, p, bn[p].left, collapse_c, x->kids, 0);
        n = collapse_children(bn, p, bn[p].right, collapse_c, x->kids, n);
        for (int k = 0; k < n; k++) {
            t->node[*tail].parent = id;
            t->node[*tail].level = nd->level + 1;
            x->order[(*tail)++] = x->kids[k];
        }
        nd->nchild = n;
        *nkids += n;
        if (n > t->max_children)
            t->max_children = n;
    } else {
        t->nleaves++;
        if (nd->ntri > t->max_leaf_tris)
            t->max_leaf_tris = nd->ntri;
    }
    if (nd->level > t->depth)
        t->depth = nd->level;
}

/* collapse and renumber breadth-first: order[] lists binary ids, children
 * of one node are consecutive, so child0 is the first child's index */
static int collapse_tree(struct skb_sphere_tree *t, struct tree_tmp *x, skb_real collapse_c)
{
    int head = 0, tail = 0, nkids = 0, nt = x->b.m->ntris;
    x->order[tail++] = 0;
    t->node = (struct skb_sphere_node *)calloc(2 * (size_t)nt, sizeof(struct skb_sphere_node));
    if (!t->node)
        return SKB_ENOMEM;
    while (head < tail)
        collapse_one(t, x, head++, &tail, &nkids, collapse_c);
    t->nnodes = tail;
    t->child = (int *)malloc(sizeof(int) * (size_t)(nkids + 1));
    t->tri = x->b.tri;
    x->b.tri = NULL;
    if (!t->child)
        return SKB_ENOMEM;
    for (int id = 0; id < t->nnodes; id++) {
        struct skb_sphere_node *nd = &t->node[id];
        for (int k = 0; k < nd->nchild; k++)
            t->child[nd->child0 - 1 + k] = nd->child0 + k;
        nd->child0 = nd->child0 - 1;   /* index into t->child: node ids 1.. map to slots 0.. */
    }
    return 0;
}

/* global joint sets: sort the vertices by their set of influences */
static int global_joint_sets(const struct skb_mesh *m, struct tree_tmp *x)
{
    int nv = m->nverts;
    for (int v = 0; v < nv; v++) {
        skb_real w[SKB_MAX_INFLUENCES];
        vertex_joint_set(m, v, x->keys[v].j, w);
        x->keys[v].v = v;
    }
    qsort(x->keys, (size_t)nv, sizeof *x->keys, jskey_cmp);
    x->gjs = (struct jskey *)malloc(sizeof(struct jskey) * (size_t)nv);
    if (!x->gjs)
        return SKB_ENOMEM;
    for (int k = 0; k < nv; k++) {
        if (k == 0 || memcmp(x->keys[k].j, x->keys[k - 1].j, sizeof x->keys[k].j) != 0)
            x->gjs[x->ngjs++] = x->keys[k];
        x->vjs[x->keys[k].v] = x->ngjs - 1;
    }
    x->gjs_mark = (int *)malloc(sizeof(int) * (size_t)x->ngjs);
    x->gjs_local = (int *)malloc(sizeof(int) * (size_t)x->ngjs);
    return x->gjs_mark && x->gjs_local ? 0 : SKB_ENOMEM;
}

/* a node's joint set seen first at vertex v: its joints, empty intervals */
static void js_init(struct skb_joint_set *js, const struct jskey *g, int v)
{
    memset(js, 0, sizeof *js);
    js->n = 0;
    js->vertex = v;
    for (int i = 0; i < SKB_MAX_INFLUENCES; i++) {
        js->joint[i] = g->j[i];
        if (g->j[i] >= 0)
            js->n++;
        js->lo[i] = 2;
        js->hi[i] = -1;
    }
}

/* widen js's weight intervals by vertex v; *wdev: worst |sum of weights - 1| */
static void js_widen(struct skb_joint_set *js, const struct skb_mesh *m, int v, skb_real *wdev)
{
    int jj[SKB_MAX_INFLUENCES];
    skb_real w[SKB_MAX_INFLUENCES], sum = 0;
    for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
        sum = sum + m->weight[SKB_MAX_INFLUENCES * v + i];
    if (fabs(sum - 1) > *wdev)
        *wdev = fabs(sum - 1);
    vertex_joint_set(m, v, jj, w);
    for (int i = 0; i < js->n; i++) {
        if (w[i] < js->lo[i]) js->lo[i] = w[i];
        if (w[i] > js->hi[i]) js->hi[i] = w[i];
    }
}

/* counts of one pass over the nodes: vertices, joint sets, corners */
struct pass_count { long nvt, njs, nc; };

/* node id's corners (pass 1): the weight polytope of each of its joint sets */
static int node_corners(struct skb_sphere_tree *t, struct skb_sphere_node *nd, struct pass_count *c)
{
    int nref = 0;
    for (int k = 0; k < nd->njs; k++) {
        struct skb_joint_set *js = &t->js[nd->js0 + k];
        js->corner0 = (int)c->nc;
        js->ncorner = weight_corners(js->n, js->lo, js->hi, t->corner + SKB_MAX_INFLUENCES * c->nc);
        if (js->ncorner < 1)
            return SKB_ENUMERIC;
        c->nc += js->ncorner;
        nref += js->ncorner;
    }
    if (nref > t->max_refit_spheres)
        t->max_refit_spheres = nref;
    return 0;
}

/* one node in one pass: pass 0 counts (corners at most n * 2^(n-1) per
 * set), pass 1 fills the node's vertices, joint sets and corners */
static int node_pass(struct skb_sphere_tree *t, struct tree_tmp *x, int pass, int id, struct pass_count *c)
{
    const struct skb_mesh *m = x->b.m;
    struct skb_sphere_node *nd = &t->node[id];
    x->b.tri = t->tri;
    int n = gather_verts(&x->b, nd->tri0, nd->ntri, x->b.vbuf);
    x->b.tri = NULL;
    int js0 = (int)c->njs, nloc = 0;
    skb_real wdev = 0;
    for (int k = 0; k < n; k++) {
        int v = x->b.vbuf[k], g = x->vjs[v];
        if (x->gjs_mark[g] != id) {
            x->gjs_mark[g] = id;
            x->gjs_local[g] = nloc++;
            if (pass == 1)
                js_init(&t->js[js0 + x->gjs_local[g]], &x->gjs[g], v);
        }
        if (pass == 1) {
            js_widen(&t->js[js0 + x->gjs_local[g]], m, v, &wdev);
            t->vert[c->nvt + k] = v;
        }
    }
    if (pass == 1) {
        nd->wsum_dev = wdev;
        nd->vert0 = (int)c->nvt;
        nd->nvert = n;
        nd->js0 = js0;
        nd->njs = nloc;
        if (node_corners(t, nd, c) < 0)
            return SKB_ENUMERIC;
    } else {
        c->nc += (long)nloc * SKB_MAX_INFLUENCES * (1 << (SKB_MAX_INFLUENCES - 1));
    }
    c->nvt += n;
    c->njs += nloc;
    return 0;
}

/* per node: distinct vertices, joint sets with weight intervals, corners;
 * pass 0 sizes the arrays pass 1 fills */
static int joint_set_passes(struct skb_sphere_tree *t, struct tree_tmp *x, char *msg, size_t msglen)
{
    struct pass_count cap = { 0, 0, 0 };
    for (int pass = 0; pass < 2; pass++) {
        struct pass_count c = { 0, 0, 0 };
        if (pass == 1) {
            t->vert = (int *)malloc(sizeof(int) * (size_t)(cap.nvt + 1));
            t->js = (struct skb_joint_set *)malloc(sizeof(struct skb_joint_set) * (size_t)(cap.njs + 1));
            t->corner = (skb_real *)malloc(sizeof(skb_real) * SKB_MAX_INFLUENCES * (size_t)(cap.nc + 1));
            if (!t->vert || !t->js || !t->corner)
                return SKB_ENOMEM;
        }
        for (int k = 0; k < x->ngjs; k++)
            x->gjs_mark[k] = -1;
        for (int id = 0; id < t->nnodes; id++)
            if (node_pass(t, x, pass, id, &c) < 0)
                return tree_fail(SKB_ENUMERIC, msg, msglen, "empty weight polytope");
        cap = c;
        if (pass == 1) {
            t->nvert_total = c.nvt;
            t->njs = (int)c.njs;
            t->ncorner = (int)c.nc;
        }
    }
    return 0;
}

int skb_sphere_tree_build(const struct skb_mesh *m, skb_real collapse_c, struct skb_sphere_tree *t,
                          char *msg, size_t msglen)
{
    struct tree_tmp x;
    int rc;
    memset(t, 0, sizeof *t);
    if (m->ntris < 1 || m->nverts < 3 || !m->tris)
        return tree_fail(SKB_EINVAL, msg, msglen, "mesh has no triangles");
    if ((rc = tmp_alloc(&x, m)) == 0 && (rc = binary_tree(&x.b, t)) == 0 && (rc = collapse_tree(t, &x, collapse_c)) == 0
        && (rc = global_joint_sets(m, &x)) == 0)
        rc = joint_set_passes(t, &x, msg, msglen);
    /* the temporaries always, the tree only on failure */
    tmp_free(&x);
    if (rc < 0) {
        skb_sphere_tree_free(t);
        if (msg && msglen && rc == SKB_ENOMEM)
            snprintf(msg, msglen, "sphere tree: out of memory (%d triangles)", m->ntris);
    }
    return rc;
}

void skb_sphere_tree_free(struct skb_sphere_tree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t->child);
    free(t->tri);
    free(t->vert);
    free(t->js);
    free(t->corner);
    memset(t, 0, sizeof *t);
}

size_t skb_sphere_tree_scratch_list2(const struct skb_sphere_tree *t)
{
    return 4 * (size_t)SKB_MAX_INFLUENCES * (size_t)(t->max_refit_spheres + 1);
}

size_t skb_sphere_tree_scratch_len(const struct skb_sphere_tree *t)
{
    return skb_sphere_tree_scratch_list2(t) + 4 * (size_t)SKB_TREE_MAX_CORNERS;
}

/* ------------------------------------------------- bottom-up and "best" */

/* thesis Alg. 5.1 on a leaf's posed vertices (points as zero-radius
 * spheres): their centroid and the farthest one's distance */
static void leaf_alg51(const struct skb_sphere_tree *t, const struct skb_sphere_node *nd, const skb_real *pos,
                       skb_real *o)
{
    skb_real c[3] = { 0, 0, 0 }, r = 0;
    for (int k = 0; k < nd->nvert; k++)
        for (int i = 0; i < 3; i++)
            c[i] = c[i] + pos[3 * t->vert[nd->vert0 + k] + i];
    for (int i = 0; i < 3; i++)
        c[i] = c[i] / nd->nvert;
    for (int k = 0; k < nd->nvert; k++) {
        skb_real d = dist3(c, pos + 3 * t->vert[nd->vert0 + k]);
        if (d > r)
            r = d;
    }
    for (int i = 0; i < 3; i++)
        o[i] = c[i];
    o[3] = r;
}

int skb_sphere_tree_refit_bottom_up(const struct skb_sphere_tree *t, const int *tris, const skb_real *pos,
                                    enum skb_leaf_fit fit, skb_real *out)
{
    /* BFS order: every child has a larger index than its parent */
    for (int id = t->nnodes - 1; id >= 0; id--) {
        const struct skb_sphere_node *nd = &t->node[id];
        skb_real *o = out + 4 * id;
        if (nd->nchild > 0) {
            /* children are consecutive node ids child0+1 .. (see build) */
            skb_bounding_sphere(out + 4 * t->child[nd->child0], nd->nchild, o);
        } else if (fit == SKB_LEAF_ALG51) {
            leaf_alg51(t, nd, pos, o);
        } else if (nd->ntri == 1) {
            const int *tv = tris + 3 * t->tri[nd->tri0];
            skb_sphere_of_triangle(pos + 3 * tv[0], pos + 3 * tv[1], pos + 3 * tv[2], o);
        } else {
            int rc = skb_miniball(pos, t->vert + nd->vert0, nd->nvert, o);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

int skb_sphere_tree_best(const struct skb_sphere_tree *t, const skb_real *pos, skb_real *out)
{
    for (int id = 0; id < t->nnodes; id++) {
        const struct skb_sphere_node *nd = &t->node[id];
        int rc = skb_miniball(pos, t->vert + nd->vert0, nd->nvert, out + 4 * id);
        if (rc < 0)
            return rc;
    }
    return 0;
}
