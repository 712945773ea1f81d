/* fast_f32_layout.c — the fast path's state: vertex layouts (SPLIT groups
 * by influence count, SLOT4), the bind that fills the streams, and the
 * per-pose prepare of each method's joint data (in double, converted once
 * per pose).  The kernels that read it: fast_f32_kernels.c;
 * the design and its measurements: fast_f32.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include "skb_fast.h"

#ifndef SKB_FLOP_COUNT   /* C only: the C++ FLOP build counts the double path */
#include "fast_f32_internal.h"


/* influences of vertex v: its slots with weight, at least one (slot 0 when
 * none has: such a vertex has weight 0 everywhere and skins to the origin,
 * as the 4-slot kernels skin it) */
static int influences(const struct skb_mesh *m, int v)
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        n += m->weight[4 * (size_t)v + k] > 0;
    return n ? n : 1;
}

/* the streams of every group; vertex streams padded by 8 vertices, so a
 * block of 8 that starts at any group's vertex reads inside the state */
static size_t layout_groups(const struct skb_mesh *m, int lay, struct hdr *h, size_t off)
{
    if (lay == SKB_F32_LAYOUT_SLOT4) {
        size_t nv = round8((size_t)m->nverts) + 8;
        h->ngroups = 1;
        h->g[0] = (struct grp){ 0, m->nverts, 4, 0, off, off + round64(sizeof(float) * 4 * nv) };
        h->hist[3] = m->nverts;
        return h->g[0].off_j + round64(sizeof(uint16_t) * 4 * nv);
    }
    for (int v = 0; v < m->nverts; v++)
        h->hist[influences(m, v) - 1]++;
    int v0 = 0;
    for (int k = 1; k <= 4; k++) {
        size_t n = round8((size_t)h->hist[k - 1]);
        if (!h->hist[k - 1])
            continue;
        struct grp *g = h->g + h->ngroups++;
        *g = (struct grp){ v0, v0 + h->hist[k - 1], k, 1, off, off + round64(sizeof(float) * (size_t)split_nw(k) * n) };
        off = g->off_j + round64(sizeof(uint16_t) * (size_t)k * n);
        v0 = g->v1;
    }
    return off;
}

static void layout(const struct skb_mesh *m, int kind, int lay, struct hdr *h)
{
    size_t nv = round8((size_t)m->nverts) + 8;
    memset(h, 0, sizeof *h);
    h->nverts = m->nverts;
    h->njoints = m->njoints;
    h->kind = kind;
    h->layout = lay;
    h->has_nrm = m->nrm != NULL;
    h->jstride = jstride(kind);
    h->off_cols = HDR_BYTES + round64(sizeof(float) * (size_t)h->jstride * m->njoints);
    /* the input positions and normals at fixed page offsets (the state is
     * page-aligned), so outputs placed at SKB_F32_OUT_*_PAGE_OFFSET keep
     * 2 KiB from them in the low 12 address bits at every vertex: all four
     * streams advance 12 bytes a vertex, and a load whose low 12 bits match
     * a pending store's waits for it (4K aliasing) */
    h->off_pos = page_at(h->off_cols + (kind != K_LINEAR ? round64(sizeof(float) * 16 * (size_t)m->njoints) : 0),
                         SKB_F32_IN_POS_PAGE_OFFSET);
    h->off_nrm = page_at(h->off_pos + round64(sizeof(float) * 3 * nv), SKB_F32_IN_NRM_PAGE_OFFSET);
    h->off_c = h->off_nrm + round64(sizeof(float) * 3 * nv);
    h->off_perm = h->off_c + (HAS_CENTRE(kind) ? round64(sizeof(float) * 3 * nv) : 0);
    size_t off = h->off_perm + (lay == SKB_F32_LAYOUT_SPLIT ? round64(sizeof(int) * (size_t)m->nverts) : 0);
    h->off_tab = layout_groups(m, lay, h, off);
    h->use_tab = kind != K_LINEAR && m->njoints <= SIGN_TABLE_MAX_JOINTS;
    size_t nj2 = (size_t)m->njoints * (size_t)m->njoints;
    h->max_pairs = h->use_tab ? (3 * nv + 1 < nj2 ? 3 * nv + 1 : nj2) : 0;
    h->off_pairs = h->off_tab + (h->use_tab ? round64(nj2) : 0);
    h->end = h->off_pairs + sizeof(uint16_t) * 2 * h->max_pairs;
}

static size_t state_size(const struct skb_mesh *m, int kind, int lay)
{
    struct hdr h;
    if (lay != SKB_F32_LAYOUT_SPLIT && lay != SKB_F32_LAYOUT_SLOT4)
        return 0;
    layout(m, kind, lay, &h);
    return h.end;
}

static size_t linear_size(const struct skb_mesh *m, int lay) { return state_size(m, K_LINEAR, lay); }
static size_t qlb0_size(const struct skb_mesh *m, int lay) { return state_size(m, K_QLB0, lay); }
static size_t qb_size(const struct skb_mesh *m, int lay) { return state_size(m, K_QB, lay); }
static size_t cor_size(const struct skb_mesh *m, int lay) { return state_size(m, K_COR, lay); }
static size_t dlb_size(const struct skb_mesh *m, int lay) { return state_size(m, K_DLB, lay); }

/* SPLIT's order: by influence count, mesh order within a count (a
 * counting sort) */
static void bind_order(const struct skb_mesh *m, const struct hdr *h, void *state)
{
    int next[4] = { 0, 0, 0, 0 };
    int *perm = AT(state, h->off_perm, int);
    for (int g = 0; g < h->ngroups; g++)
        next[h->g[g].K - 1] = h->g[g].v0;
    for (int v = 0; v < m->nverts; v++)
        perm[next[influences(m, v) - 1]++] = v;
}

/* group g's joints and weights: SLOT4 the mesh's four slots; SPLIT the
 * slots with weight in slot order (so the first stays Algorithm 2's pivot),
 * the last weight left to 1 - the others.  Padding vertices (to a whole
 * block of 8): at the origin, all weight on joint 0, so a block never
 * divides by a zero blend. */
static void bind_group(const struct skb_mesh *m, const struct hdr *h, const struct grp *g, void *state)
{
    float *w = AT(state, g->off_w, float);
    uint16_t *j = AT(state, g->off_j, uint16_t);
    int n = g->v1 - g->v0, K = g->K;
    if (!g->derived) {
        for (size_t i = 0; i < 4 * (size_t)n; i++) {
            w[i] = (float)m->weight[i];
            j[i] = (uint16_t)m->joint[i];
        }
        for (int v = n; v % 8; v++)
            w[4 * v] = 1.0f;
        return;
    }
    for (int l = 0; l < n; l++) {
        int v = mesh_vertex(h, state, g->v0 + l), s = 0, none = influences(m, v) == 1
                && !(m->weight[4 * (size_t)v] > 0 || m->weight[4 * (size_t)v + 1] > 0
                     || m->weight[4 * (size_t)v + 2] > 0 || m->weight[4 * (size_t)v + 3] > 0);
        for (int k = 0; k < 4 && s < K; k++) {
            if (!(m->weight[4 * (size_t)v + k] > 0) && !none)
                continue;
            j[(size_t)K * l + s] = (uint16_t)m->joint[4 * (size_t)v + k];
            if (s < split_nw(K))
                w[(size_t)split_nw(K) * l + s] = (float)m->weight[4 * (size_t)v + k];
            s++;
        }
    }
}

static int bind_common(const struct skb_mesh *m, int kind, int lay, void *state)
{
    struct hdr h;
    if (lay != SKB_F32_LAYOUT_SPLIT && lay != SKB_F32_LAYOUT_SLOT4)
        return SKB_EINVAL;
    layout(m, kind, lay, &h);
    if (m->njoints > 65535)
        return SKB_ENOTSUP;     /* joint indices are stored as uint16 */
    memcpy(state, &h, sizeof h);
    if (lay == SKB_F32_LAYOUT_SPLIT)
        bind_order(m, &h, state);
    float *pos = AT(state, h.off_pos, float), *nrm = AT(state, h.off_nrm, float);
    for (int i = 0; i < m->nverts; i++) {
        int v = mesh_vertex(&h, state, i);
        for (int k = 0; k < 3; k++) {
            pos[3 * (size_t)i + k] = (float)m->pos[3 * (size_t)v + k];
            nrm[3 * (size_t)i + k] = m->nrm ? (float)m->nrm[3 * (size_t)v + k] : 0.0f;
        }
    }
    for (int g = 0; g < h.ngroups; g++)
        bind_group(m, &h, h.g + g, state);
    /* SPLIT LBS: unit rest normals, so one rigid influence gives a unit
     * normal with no renormalisation (the direction of a renormalised
     * blend does not depend on the rest normal's length) */
    for (int i = 0; kind == K_LINEAR && lay == SKB_F32_LAYOUT_SPLIT && i < m->nverts; i++) {
        float *n = nrm + 3 * (size_t)i, len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int k = 0; k < 3 && len > 0; k++)
            n[k] /= len;
    }
    return 0;
}

static int bind_pairs(const struct skb_mesh *m, void *state);

static int linear_bind(const struct skb_mesh *m, int lay, void *state) { return bind_common(m, K_LINEAR, lay, state); }

static int qlb0_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_QLB0, lay, state);
    return rc < 0 ? rc : bind_pairs(m, state);
}

static int dlb_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_DLB, lay, state);
    return rc < 0 ? rc : bind_pairs(m, state);
}
/* the (pivot joint, joint) pairs the mesh uses: the pivot is the first
 * influence with weight (Algorithm 2) */
static int bind_pairs(const struct skb_mesh *m, void *state)
{
    struct hdr *h = (struct hdr *)state;
    if (!h->use_tab)
        return 0;
    uint8_t *seen = AT(state, h->off_tab, uint8_t);
    uint16_t *pairs = AT(state, h->off_pairs, uint16_t);
    size_t nj = (size_t)m->njoints;
    h->npairs = 0;
    for (int v = 0; v < m->nverts; v++) {
        const int *j = m->joint + 4 * v;
        const skb_real *w = m->weight + 4 * v;
        int pk = w[0] > 0 ? 0 : w[1] > 0 ? 1 : w[2] > 0 ? 2 : 3;
        for (int k = 0; k < 4; k++) {
            size_t e = (size_t)j[pk] * nj + (size_t)j[k];
            if (seen[e] || j[k] == j[pk])
                continue;
            seen[e] = 1;
            if ((size_t)h->npairs == h->max_pairs)
                return SKB_ENOMEM;   /* cannot happen: at most 3 new pairs per vertex */
            pairs[2 * h->npairs] = (uint16_t)j[pk];
            pairs[2 * h->npairs + 1] = (uint16_t)j[k];
            h->npairs++;
        }
    }
    memset(seen, 0, nj * nj);
    return 0;
}

/* qb's centres (layout order): the mesh's own, else the rule of the double
 * path, read back from a bound double state of qb (one source of truth for
 * the rule) */
static int qb_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_QB, lay, state);
    struct hdr h;
    float *c;
    if (rc < 0 || (rc = bind_pairs(m, state)) < 0)
        return rc;
    memcpy(&h, state, sizeof h);
    c = AT(state, h.off_c, float);
    if (!m->center && !m->joint_rest)
        return SKB_ENOCENTER;
    for (int i = 0; i < m->nverts; i++) {
        int v = mesh_vertex(&h, state, i);
        const skb_real *src = m->center ? m->center + 3 * (size_t)v : m->joint_rest + 3 * (size_t)skb__qb_center_joint(m, v);
        for (int k = 0; k < 3; k++)
            c[3 * (size_t)i + k] = (float)src[k];
    }
    return 0;
}
/* the first layout vertex the block kernels skin: SPLIT's one-influence
 * group is one matrix applied to the rest position (skin_group) */
static int first_blended(const struct hdr *h)
{
    return h->layout == SKB_F32_LAYOUT_SPLIT && h->ngroups && h->g[0].K == 1 ? h->g[0].v1 : 0;
}

/* cor's centres p* (layout order): its own bind's (Le & Hodgins eq. 2,
 * methods/cor.c), so the f32 and double paths rotate about the same
 * points.  The run-time form v' = R (v - p*) + sum_i w_i C_i p* (Le &
 * Hodgins eq. 3-4, thesis eq. 3.7 about c = p*) needs v only as v - p*:
 * the blended vertices' position stream holds that rest offset, computed
 * once here in double, so the kernel neither streams v nor subtracts */
static int cor_bind(const struct skb_mesh *m, int lay, void *state)
{
    int rc = bind_common(m, K_COR, lay, state);
    if (rc < 0 || (rc = bind_pairs(m, state)) < 0)
        return rc;
    skb_real *centre = (skb_real *)malloc(sizeof(skb_real) * (3 * (size_t)m->nverts + 1));
    if (!centre)
        return SKB_ENOMEM;
    if ((rc = skb__cor_bind_centres(m, centre)) == 0) {
        const struct hdr *h = (const struct hdr *)state;
        float *c = AT(state, h->off_c, float), *pos = AT(state, h->off_pos, float);
        for (int i = 0; i < m->nverts; i++)
            for (int k = 0; k < 3; k++) {
                size_t v = 3 * (size_t)mesh_vertex(h, state, i) + (size_t)k;
                c[3 * (size_t)i + k] = (float)centre[v];
                if (i >= first_blended(h))
                    pos[3 * (size_t)i + k] = (float)(m->pos[v] - centre[v]);
            }
    }
    free(centre);
    return rc;
}

/* Algorithm 2 once per used joint pair: 1 = flip the second joint.  The
 * quaternion is the first four floats of each joint's data (any order) */
static void fill_signs(const struct skb_mesh *m, void *state, int stride)
{
    const struct hdr *h = (const struct hdr *)state;
    const float *jd = AT_C(state, HDR_BYTES, float);
    if (!h->use_tab)
        return;
    uint8_t *tab = AT(state, h->off_tab, uint8_t);
    const uint16_t *pairs = AT_C(state, h->off_pairs, uint16_t);
    for (int i = 0; i < h->npairs; i++) {
        const float *a = jd + stride * pairs[2 * i], *b = jd + stride * pairs[2 * i + 1];
        float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        tab[(size_t)pairs[2 * i] * (size_t)m->njoints + pairs[2 * i + 1]] = dot < 0;
    }
}

/* columns of the 3x4 part: c0 c1 c2 t, each xyz + pad (t pads with 1) */
static void put_columns(const skb_real mat[16], float *out)
{
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 3; r++)
            out[4 * c + r] = (float)mat[4 * r + c];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* the 3x3 of a row-major 4x4 orthonormal to RIGID_TOL (a rotation or
 * reflection keeps a unit normal unit) */
#define RIGID_TOL 1e-7
static int orthonormal(const skb_real c[16])
{
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++) {
            skb_real d = c[a] * c[b] + c[4 + a] * c[4 + b] + c[8 + a] * c[8 + b];
            if (!(fabs((double)d - (a == b)) <= RIGID_TOL))
                return 0;
        }
    return 1;
}

static int linear_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                          const struct skb_params *prm, void *state)
{
    struct hdr *h = (struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    int rigid = 1;
    for (int j = 0; j < m->njoints; j++) {
        skb_real c[16];
        if (p->scale)
            skb_mat4_mul(p->mats + 16 * j, p->scale + 16 * j, c);
        else
            memcpy(c, p->mats + 16 * j, sizeof c);
        rigid = rigid && orthonormal(c);
        put_columns(c, jd + 16 * j);
    }
    h->rigid = rigid;
    return 0;
}

static int qlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    struct hdr *h = (struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    if (p->scale)
        return SKB_ENOTSUP;
    h->pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    for (int j = 0; j < m->njoints; j++) {
        skb_real r[9], t[3];
        struct skb_quat q;
        skb_mat4_to_rt(p->mats + 16 * j, r, t);
        skb_quat_from_mat3(r, &q);
        float *o = jd + 20 * j, cols[16];
        o[0] = (float)q.x; o[1] = (float)q.y; o[2] = (float)q.z; o[3] = (float)q.w;
        put_columns(p->mats + 16 * j, cols);
        memcpy(o + 4, cols + 12, 4 * sizeof(float));    /* t next to q: one 8-wide load */
        memcpy(o + 8, cols, 12 * sizeof(float));
        memcpy(AT(state, h->off_cols, float) + 16 * j, cols, sizeof cols);
    }
    if (h->pivot)
        fill_signs(m, state, 20);
    return 0;
}

/* the unit quaternion of a row-major 4x4's rotation: skb_quat_from_mat3's
 * branches (M. Day 2015) and its w >= 0, with one division where it takes
 * four, inline: the conversion's sqrt and divisions were most of DLB's
 * per-pose prepare after the columns (perf on bcn_human).  The float
 * kernels see the same quaternion to double rounding. */
static inline void rotation_quat(const skb_real *m, struct skb_quat *q)
{
    skb_real s, inv;
    if (m[10] < 0 && m[0] > m[5]) {
        s = sqrt(1 + m[0] - m[5] - m[10]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = (m[9] - m[6]) * inv, .x = s / 4, .y = (m[1] + m[4]) * inv, .z = (m[2] + m[8]) * inv };
    } else if (m[10] < 0) {
        s = sqrt(1 + m[5] - m[0] - m[10]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = (m[2] - m[8]) * inv, .x = (m[1] + m[4]) * inv, .y = s / 4, .z = (m[6] + m[9]) * inv };
    } else if (m[0] < -m[5]) {
        s = sqrt(1 + m[10] - m[0] - m[5]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = (m[4] - m[1]) * inv, .x = (m[2] + m[8]) * inv, .y = (m[6] + m[9]) * inv, .z = s / 4 };
    } else {
        s = sqrt(1 + m[0] + m[5] + m[10]) * 2, inv = 1 / s;
        *q = (struct skb_quat){ .w = s / 4, .x = (m[9] - m[6]) * inv, .y = (m[2] - m[8]) * inv, .z = (m[4] - m[1]) * inv };
    }
    if (q->w < 0)
        *q = (struct skb_quat){ .w = -q->w, .x = -q->x, .y = -q->y, .z = -q->z };
}

/* the 3x4 columns of the rigid transform a joint's unit dual quaternion
 * encodes (what skb_dq_to_mat4 and put_columns gave): the rotation of its
 * real part, and the matrix's own translation, which 2 vec(d r*) only gives
 * back.  Written straight into floats: through the double 4x4 and its
 * helpers it was a third of DLB's per-pose prepare (perf on bcn_human,
 * 54 joints), and the prepare, not the kernels, made DLB slower than LBS
 * there (2.2 against 0.7 us a pose; the kernels 6.1 against 6.9 us). */
static void rigid_columns(const struct skb_quat *q, const skb_real mat[16], float *out)
{
    skb_real x2 = q->x + q->x, y2 = q->y + q->y, z2 = q->z + q->z;
    skb_real xx = q->x * x2, yy = q->y * y2, zz = q->z * z2;
    skb_real xy = q->x * y2, xz = q->x * z2, yz = q->y * z2;
    skb_real wx = q->w * x2, wy = q->w * y2, wz = q->w * z2;
    const skb_real r[12] = { 1 - (yy + zz), xy + wz, xz - wy, xy - wz, 1 - (xx + zz), yz + wx,
                             xz + wy, yz - wx, 1 - (xx + yy), mat[3], mat[7], mat[11] };
    for (int c = 0; c < 4; c++) {
        for (int k = 0; k < 3; k++)
            out[4 * c + k] = (float)r[3 * c + k];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* cor's joint data: quaternion (x,y,z,w) then the 3x4 columns c0 c1 c2 t
 * (the kernels blend c0|c1 and c2|t as two 8-wide halves, as LBS does),
 * the quaternion by rotation_quat (one division; dlb's) */
static int cor_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    struct hdr *h = (struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    if (p->scale)
        return SKB_ENOTSUP;      /* quaternions carry no scale (DQ paper 4.2) */
    h->pivot = prm->antipodal != SKB_ANTIPODAL_NONE;
    for (int j = 0; j < m->njoints; j++) {
        struct skb_quat q;
        float *o = jd + 20 * j;
        rotation_quat(p->mats + 16 * j, &q);
        o[0] = (float)q.x; o[1] = (float)q.y; o[2] = (float)q.z; o[3] = (float)q.w;
        put_columns(p->mats + 16 * j, o + 4);
        memcpy(AT(state, h->off_cols, float) + 16 * j, o + 4, 16 * sizeof(float));
    }
    if (h->pivot)
        fill_signs(m, state, 20);
    return 0;
}

static int dlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    const struct hdr *h = (const struct hdr *)state;
    float *jd = AT(state, HDR_BYTES, float);
    if (p->scale || prm->antipodal != SKB_ANTIPODAL_PIVOT)
        return SKB_ENOTSUP;     /* the fast path implements Algorithm 2 per vertex */
    for (int j = 0; j < m->njoints; j++) {
        struct skb_dq q;
        const skb_real *mj = p->mats + 16 * j, half_t[3] = { mj[3] * 0.5, mj[7] * 0.5, mj[11] * 0.5 };
        rotation_quat(mj, &q.r);
        skb_quat_pure_mul(half_t, &q.r, &q.d);  /* eq. 2.3: d = (t/2) r, as skb_dq_from_qt */
        float *o = jd + 8 * j;
        o[0] = (float)q.r.x; o[1] = (float)q.r.y; o[2] = (float)q.r.z; o[3] = (float)q.r.w;
        o[4] = (float)q.d.x; o[5] = (float)q.d.y; o[6] = (float)q.d.z; o[7] = (float)q.d.w;
        rigid_columns(&q.r, p->mats + 16 * j, AT(state, h->off_cols, float) + 16 * j);
    }
    fill_signs(m, state, 8);
    return 0;
}

const struct skb_method_f32 skb__linear_f32 = { linear_size, linear_bind, linear_prepare, skb__f32_skin_any };
const struct skb_method_f32 skb__qlb0_f32 = { qlb0_size, qlb0_bind, qlb_prepare, skb__f32_skin_any };
const struct skb_method_f32 skb__qb_f32 = { qb_size, qb_bind, qlb_prepare, skb__f32_skin_any };
const struct skb_method_f32 skb__dlb_f32 = { dlb_size, dlb_bind, dlb_prepare, skb__f32_skin_any };
const struct skb_method_f32 skb__cor_f32 = { cor_size, cor_bind, cor_prepare, skb__f32_skin_any };

#endif
