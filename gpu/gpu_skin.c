/* gpu_skin.c — a skinned mesh in GPU buffers, the per-joint uniform data of a
 * pose (converted on the CPU in double precision), skinning through transform
 * feedback, verification against the CPU skin path of the same registry
 * method, and timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <GL/glew.h>
#include "skb_fast.h"   /* skb__qb_default_centers, skb__cor_bind_centres */
#include "skb_gpu.h"
#include "skb_timing.h"
#include "skb_sb.h"   /* sb's joint sets and centres */


int skb__gpu_gl_failed(const char *what, char *msg, size_t msglen)
{
    GLenum e = glGetError();
    if (e == GL_NO_ERROR)
        return 0;
    while (glGetError() != GL_NO_ERROR)
        ;
    snprintf(msg, msglen, "gpu: %s: GL error 0x%x", what, e);
    return e == GL_OUT_OF_MEMORY ? SKB_ENOMEM : SKB_EIO;
}

static void float_buffer(GLuint vbo, GLuint loc, int comps, const float *data, int n)
{
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof(float) * comps * n, data, GL_STATIC_DRAW);
    glVertexAttribPointer(loc, comps, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(loc);
}

/* the order influences of vertex v are uploaded in: those with weight > 0
 * first, each group in its original order (the CPU pivots on the first
 * influence with weight > 0, Algorithm 2 in the shader on slot 0) */
static void upload_order(const struct skb_mesh *m, int v, int order[SKB_MAX_INFLUENCES])
{
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < SKB_MAX_INFLUENCES; i++)
            if ((m->weight[SKB_MAX_INFLUENCES * v + i] > 0) == (pass == 0))
                order[k++] = i;
}

int skb_gpu_mesh_upload(const struct skb_mesh *m, struct skb_gpu_mesh *gm, char *msg, size_t msglen)
{
    size_t nv = (size_t)m->nverts;
    float *pos = (float *)calloc(3 * nv + 1, sizeof(float));
    float *nrm = (float *)calloc(3 * nv + 1, sizeof(float));
    float *wgt = (float *)calloc(4 * nv + 1, sizeof(float));
    float *ctr = (float *)calloc(3 * nv + 1, sizeof(float));
    GLint *jnt = (GLint *)calloc(4 * nv + 1, sizeof(GLint));
    /* QB's centres where the mesh has none: the CPU method's own rule
     * (methods/qb.c, Hejl's joint between the bones that move the vertex);
     * without joint positions the CPU reference reports the missing centre */
    skb_real *dctr = m->center ? NULL : (skb_real *)calloc(3 * nv + 1, sizeof(skb_real));
    int rc = 0;
    memset(gm, 0, sizeof *gm);
    if (!pos || !nrm || !wgt || !ctr || !jnt || (!m->center && !dctr)) {
        snprintf(msg, msglen, "gpu: out of memory uploading %d vertices", m->nverts);
        rc = SKB_ENOMEM;
        goto done;
    }
    if (m->njoints > SKB_GPU_MAX_JOINTS) {
        snprintf(msg, msglen, "gpu: mesh has %d joints, the shaders hold at most %d",
                 m->njoints, SKB_GPU_MAX_JOINTS);
        rc = SKB_ENOTSUP;
        goto done;
    }
    if (dctr && skb__qb_default_centers(m, dctr) < 0)
        memset(dctr, 0, sizeof(skb_real) * 3 * nv);
    for (size_t v = 0; v < nv; v++) {
        for (int i = 0; i < 3; i++) {
            pos[3 * v + i] = (float)m->pos[3 * v + i];
            nrm[3 * v + i] = m->nrm ? (float)m->nrm[3 * v + i] : (i == 2 ? 1.0f : 0.0f);
            ctr[3 * v + i] = (float)(m->center ? m->center : dctr)[3 * v + i];
        }
        int order[SKB_MAX_INFLUENCES];
        upload_order(m, (int)v, order);
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
            jnt[4 * v + k] = m->joint[SKB_MAX_INFLUENCES * v + order[k]];
            wgt[4 * v + k] = (float)m->weight[SKB_MAX_INFLUENCES * v + order[k]];
        }
    }
    gm->nverts = m->nverts;
    gm->ntris = m->ntris;
    gm->njoints = m->njoints;
    glGenVertexArrays(1, &gm->vao);
    glBindVertexArray(gm->vao);
    glGenBuffers(5, gm->vbo);
    float_buffer(gm->vbo[SKB__GPU_VBO_POS], 0, 3, pos, m->nverts);
    float_buffer(gm->vbo[SKB__GPU_VBO_NRM], 1, 3, nrm, m->nverts);
    glBindBuffer(GL_ARRAY_BUFFER, gm->vbo[SKB__GPU_VBO_JOINT]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(GLint) * 4 * nv), jnt, GL_STATIC_DRAW);
    glVertexAttribIPointer(2, 4, GL_INT, 0, NULL);   /* integer indices, not converted to float */
    glEnableVertexAttribArray(2);
    float_buffer(gm->vbo[SKB__GPU_VBO_WEIGHT], 3, 4, wgt, m->nverts);
    float_buffer(gm->vbo[SKB__GPU_VBO_CENTER], 4, 3, ctr, m->nverts);
    glGenBuffers(1, &gm->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gm->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof(int) * 3 * (size_t)m->ntris), m->tris, GL_STATIC_DRAW);
    glBindVertexArray(0);
    glGenBuffers(1, &gm->tfbo);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, gm->tfbo);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)(sizeof(float) * 6 * nv), NULL, GL_STREAM_READ);
    rc = skb__gpu_gl_failed("uploading the mesh", msg, msglen);
done:
    free(pos);
    free(nrm);
    free(wgt);
    free(ctr);
    free(jnt);
    free(dctr);
    if (rc < 0)
        skb_gpu_mesh_free(gm);
    return rc;
}

void skb_gpu_mesh_free(struct skb_gpu_mesh *gm)
{
    if (!gm)
        return;
    if (gm->vao)
        glDeleteVertexArrays(1, &gm->vao);
    if (gm->vbo[0])
        glDeleteBuffers(5, gm->vbo);
    if (gm->ibo)
        glDeleteBuffers(1, &gm->ibo);
    if (gm->tfbo)
        glDeleteBuffers(1, &gm->tfbo);
    if (gm->set_vbo)
        glDeleteBuffers(1, &gm->set_vbo);
    if (gm->center_buf)
        glDeleteBuffers(1, &gm->center_buf);
    if (gm->center_tex)
        glDeleteTextures(1, &gm->center_tex);
    if (gm->qb_vbo)
        glDeleteBuffers(1, &gm->qb_vbo);
    if (gm->cor_vbo)
        glDeleteBuffers(1, &gm->cor_vbo);
    if (gm->qb_buf)
        glDeleteBuffers(1, &gm->qb_buf);
    if (gm->qb_tex)
        glDeleteTextures(1, &gm->qb_tex);
    skb_skin_fini(&gm->qb);
    skb_skin_fini(&gm->sb);
    memset(gm, 0, sizeof *gm);
}

size_t skb_gpu_joint_floats(const struct skb_gpu_shader *s, const struct skb_mesh *m)
{
    return (size_t)4 * s->vec4_per_joint * (size_t)m->njoints;
}

/* parent for the hierarchy rule: a chain in joint order without a tree,
 * out-of-range or self parents make a root */
static int parent_of(const struct skb_mesh *m, int j)
{
    int p = m->parent ? m->parent[j] : j - 1;
    return p >= 0 && p < m->njoints && p != j ? p : -1;
}

/* DQ paper 4.1, precomputed antipodality: s_root = 0 and each joint takes
 * the sign that gives a non-negative dot product of its rotation part with
 * its (already fixed) parent's; parents are fixed first by depth */
static int hierarchy_signs(const struct skb_mesh *m, struct skb_dq *q)
{
    int n = m->njoints, maxd = 0;
    int *depth = (int *)malloc(sizeof(int) * (size_t)n);
    if (!depth)
        return SKB_ENOMEM;
    for (int j = 0; j < n; j++) {
        int d = 0;
        for (int k = parent_of(m, j); k >= 0 && d < n; k = parent_of(m, k))
            d++;
        depth[j] = d;
        if (d > maxd)
            maxd = d;
    }
    for (int d = 1; d <= maxd; d++)
        for (int j = 0; j < n; j++) {
            int p = parent_of(m, j);
            if (depth[j] == d && p >= 0 && skb_quat_dot(&q[p].r, &q[j].r) < 0)
                skb_dq_scale(&q[j], -1, &q[j]);
        }
    free(depth);
    return 0;
}

static void put_quat(const struct skb_quat *q, float *out)
{
    out[0] = (float)q->x; out[1] = (float)q->y; out[2] = (float)q->z; out[3] = (float)q->w;
}

/* DQ paper Fig. 1, log-matrix blending on the GPU: each joint's closed-form
 * rigid log (omega, v) computed per pose on the CPU, as the CPU method logm's
 * prepare does (skb_mat4_log_rigid, thesis 2.2.3, 4.4); exp per vertex */
static int pack_logs(const struct skb_mesh *m, const struct skb_pose *p, float *out, int stride,
                     char *msg, size_t msglen)
{
    if (p->scale) {
        snprintf(msg, msglen, "gpu: the rigid log takes no scale/shear parts");
        return SKB_ENOTSUP;
    }
    for (int j = 0; j < m->njoints; j++) {
        skb_real om[3], v[3];
        float *o = out + stride * j;
        skb_mat4_log_rigid(p->mats + 16 * j, om, v);
        for (int k = 0; k < 3; k++) {
            o[k] = (float)om[k];
            o[4 + k] = (float)v[k];
        }
        o[3] = 0;
        o[7] = 0;
    }
    return 0;
}

int skb_gpu_pack_joints(const struct skb_gpu_shader *s, const struct skb_mesh *m,
                        const struct skb_pose *p, float *out, char *msg, size_t msglen)
{
    int nj = m->njoints, stride = 4 * s->vec4_per_joint;
    if (p->njoints != nj) {
        snprintf(msg, msglen, "gpu: pose has %d joints, mesh %d", p->njoints, nj);
        return SKB_EINVAL;
    }
    if (s->layout == SKB_GPU_LAYOUT_MAT34) {
        for (int j = 0; j < nj; j++) {
            double c[16];
            if (p->scale)
                skb_mat4_mul(p->mats + 16 * j, p->scale + 16 * j, c);
            else
                memcpy(c, p->mats + 16 * j, sizeof c);
            for (int k = 0; k < 12; k++)
                out[stride * j + k] = (float)c[k];
        }
        return 0;
    }
    if (s->layout == SKB_GPU_LAYOUT_LOG)
        return pack_logs(m, p, out, stride, msg, msglen);
    struct skb_dq *q = (struct skb_dq *)malloc(sizeof *q * (size_t)nj);
    if (!q) {
        snprintf(msg, msglen, "gpu: out of memory packing %d joints", nj);
        return SKB_ENOMEM;
    }
    for (int j = 0; j < nj; j++)
        skb_dq_from_mat4(p->mats + 16 * j, &q[j]);
    if (s->signs == SKB_ANTIPODAL_HIERARCHY && hierarchy_signs(m, q) < 0) {
        free(q);
        snprintf(msg, msglen, "gpu: out of memory resolving antipodality");
        return SKB_ENOMEM;
    }
    for (int j = 0; j < nj; j++) {
        float *o = out + stride * j;
        if (s->layout == SKB_GPU_LAYOUT_QT || s->layout == SKB_GPU_LAYOUT_QT_SB || s->layout == SKB_GPU_LAYOUT_QT_QB) {
            /* rotation quaternion and the translation of C_j */
            put_quat(&q[j].r, o);
            for (int k = 0; k < 3; k++)
                o[4 + k] = (float)p->mats[16 * j + 4 * k + 3];
            o[7] = 0;
            continue;
        }
        if (s->layout == SKB_GPU_LAYOUT_QT_COR) {
            /* rotation quaternion and the rows of C_j (cor.glsl: LBS of the centre) */
            put_quat(&q[j].r, o);
            for (int k = 0; k < 12; k++)
                o[4 + k] = (float)p->mats[16 * j + k];
            continue;
        }
        put_quat(&q[j].r, o);
        put_quat(&q[j].d, o + 4);
        if (s->layout == SKB_GPU_LAYOUT_DQ_SCALE) {
            /* rows of the non-rigid part S_j (identity without one) */
            for (int k = 0; k < 12; k++)
                o[8 + k] = p->scale ? (float)p->scale[16 * j + k] : (k % 5 == 0 ? 1.0f : 0.0f);
        }
    }
    free(q);
    return 0;
}

/* SB's texture buffer (RGBA32F), a block of SB_TEXELS texels per joint set
 * f at SB_TEXELS (f + 1); block 0 serves vertices with fewer than two
 * joints (identity frame, r_c = 0).  A block: the set's frame F (quaternion
 * turning r_c's direction to +z), F r_c, then per joint k of the set the
 * pair F (q_ref* q_k) F* and C_k r_c - C_ref r_c, ref the set's first joint;
 * all from sb's prepare and the pose in double, rounded once (sb.glsl says
 * why: far centres) */
#define SB_TEXELS (2 + 2 * SKB_MAX_INFLUENCES)
#define SB_INTS 6   /* per vertex: block texel, reference joint, 4 pair texels */

/* per vertex: its block and reference joint, then for each uploaded
 * influence the texel of its pair (the block's first pair for weight 0) */
static void sb_vertex_texels(const struct skb_mesh *m, const void *state, int v, GLint out[SB_INTS])
{
    int f = skb_sb_vertex_set(m, state, v), js[SKB_MAX_INFLUENCES], n = 0, order[SKB_MAX_INFLUENCES];
    upload_order(m, v, order);
    if (f >= 0)
        n = skb_sb_set_joints(m, state, f, js);
    out[0] = f >= 0 ? SB_TEXELS * (f + 1) : 0;
    out[1] = f >= 0 ? js[0] : m->joint[SKB_MAX_INFLUENCES * v + order[0]];
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        int i = SKB_MAX_INFLUENCES * v + order[k];
        out[2 + k] = out[0] + 2;
        for (int e = 0; e < n && m->weight[i] > 0; e++)
            if (js[e] == m->joint[i])
                out[2 + k] = out[0] + 2 + 2 * e;
    }
}

static size_t sb_texel_count(const struct skb_gpu_mesh *gm)
{
    return (size_t)SB_TEXELS * ((size_t)gm->nsets + 1);
}

/* first use of SB on this mesh: bind the CPU method sb (it finds the joint
 * sets), upload each vertex's texel indices as attributes 5 (ivec2) and 6
 * (ivec4), make the texture buffer (every GL 4.5 renderer samples one in a
 * vertex shader, and the sets may outnumber what a uniform block holds) */
static int sb_bind(struct skb_gpu_mesh *gm, const struct skb_mesh *m, char *msg, size_t msglen)
{
    const struct skb_method *sb = skb_method_with_flag(SKB_MF_ROT_CENTERS);
    GLint max_texels = 0;
    int rc;
    if (!sb) {
        snprintf(msg, msglen, "gpu: CPU method 'sb' is not in the registry");
        return SKB_EINVAL;
    }
    if ((rc = skb_skin_init(&gm->sb, sb, m, msg, msglen)) < 0)
        return rc;
    gm->nsets = skb_sb_nsets(m, gm->sb.state);
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    if (sb_texel_count(gm) > (size_t)max_texels) {
        snprintf(msg, msglen, "gpu: %d SB joint sets need %zu texels, the renderer's texture buffers hold %d",
                 gm->nsets, sb_texel_count(gm), max_texels);
        return SKB_ENOTSUP;
    }
    GLint *tx = (GLint *)malloc(sizeof(GLint) * SB_INTS * (size_t)m->nverts + 1);
    if (!tx) {
        snprintf(msg, msglen, "gpu: out of memory for SB joint sets");
        return SKB_ENOMEM;
    }
    for (int v = 0; v < m->nverts; v++)
        sb_vertex_texels(m, gm->sb.state, v, tx + SB_INTS * v);
    glBindVertexArray(gm->vao);
    if (!gm->set_vbo)
        glGenBuffers(1, &gm->set_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, gm->set_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(GLint) * SB_INTS * (size_t)m->nverts), tx, GL_STATIC_DRAW);
    glVertexAttribIPointer(5, 2, GL_INT, SB_INTS * sizeof(GLint), NULL);
    glVertexAttribIPointer(6, 4, GL_INT, SB_INTS * sizeof(GLint), (const void *)(2 * sizeof(GLint)));
    glEnableVertexAttribArray(5);
    glEnableVertexAttribArray(6);
    glBindVertexArray(0);
    free(tx);
    if (!gm->center_buf)
        glGenBuffers(1, &gm->center_buf);
    glBindBuffer(GL_TEXTURE_BUFFER, gm->center_buf);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(sizeof(float) * 4 * sb_texel_count(gm)), NULL, GL_DYNAMIC_DRAW);
    if (!gm->center_tex)
        glGenTextures(1, &gm->center_tex);
    glBindTexture(GL_TEXTURE_BUFFER, gm->center_tex);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, gm->center_buf);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    return skb__gpu_gl_failed("making the SB joint-set buffers", msg, msglen);
}

static void put_vec3(const skb_real *v, float *out)
{
    out[0] = (float)v[0]; out[1] = (float)v[1]; out[2] = (float)v[2]; out[3] = 0;
}

/* F: the shortest rotation taking r_c's direction to +z (identity at 0) */
static void sb_frame(const skb_real rc[3], struct skb_quat *f)
{
    skb_real len = skb_v3_norm(rc);
    struct skb_quat q = { 1, 0, 0, 0 };
    if (len > 0 && rc[2] / len > -0.999999) {
        q.w = 1 + rc[2] / len; q.x = rc[1] / len; q.y = -rc[0] / len; q.z = 0;   /* (1 + a.z, a x z) */
        skb_quat_normalize(&q, &q);
    } else if (len > 0) {
        q.w = 0; q.x = 1;   /* a = -z: half turn about x */
    }
    *f = q;
}

/* one set's block: F, F r_c, and per joint k the pair F (q_ref* q_k) F*,
 * C_k r_c - C_ref r_c */
static void sb_block(const struct skb_mesh *m, const void *state, const struct skb_pose *p, int f, float *o)
{
    const skb_real *rc = skb_sb_set_center(m, state, f);
    int js[SKB_MAX_INFLUENCES], n = skb_sb_set_joints(m, state, f, js);
    struct skb_quat fr, fc, q[SKB_MAX_INFLUENCES];
    skb_real frc[3], u0[3], rot[9], t[3];
    sb_frame(rc, &fr);
    skb_quat_conj(&fr, &fc);
    skb_quat_rotate(&fr, rc, frc);
    put_quat(&fr, o);
    put_vec3(frc, o + 4);
    for (int k = 0; k < n; k++) {
        skb_mat4_to_rt(p->mats + 16 * js[k], rot, t);
        skb_quat_from_mat3(rot, &q[k]);   /* as skb_qlb_prepare: w >= 0 */
    }
    skb_mat4_apply(p->mats + 16 * js[0], rc, u0);
    for (int k = 0; k < n; k++) {
        struct skb_quat r, a;
        skb_real u[3];
        skb_quat_conj(&q[0], &a);
        skb_quat_mul(&a, &q[k], &r);      /* q_ref* q_k */
        skb_quat_mul(&fr, &r, &a);
        skb_quat_mul(&a, &fc, &r);        /* F (q_ref* q_k) F* */
        put_quat(&r, o + 8 + 8 * k);
        skb_mat4_apply(p->mats + 16 * js[k], rc, u);   /* C_k r_c (thesis eq. 3.7) */
        for (int e = 0; e < 3; e++)
            u[e] = u[e] - u0[e];
        put_vec3(u, o + 12 + 8 * k);
    }
}

/* the texels of one pose: sb's prepare (r_c per set), then every block */
static int sb_texels(struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *p, float *c)
{
    static const skb_real zero[3] = { 0, 0, 0 };
    static const struct skb_quat identity = { 1, 0, 0, 0 };
    struct skb_params prm;
    int rc;
    skb_params_default(&prm);
    if ((rc = skb_sb_prepare(m, p, &prm, gm->sb.state)) < 0)   /* thesis Alg. 3.1 lines 2-6 */
        return rc;
    put_quat(&identity, c);          /* block 0: identity frame, r_c = 0 */
    put_vec3(zero, c + 4);
    put_quat(&identity, c + 8);      /* its one pair: q_ref* q_ref, no offset */
    put_vec3(zero, c + 12);
    for (int f = 0; f < gm->nsets; f++)
        sb_block(m, gm->sb.state, p, f, c + 4 * SB_TEXELS * (f + 1));
    return 0;
}



int skb_gpu_sb_centers(struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *p,
                       double *cpu_ms, char *msg, size_t msglen)
{
    int rc;
    if (p->njoints != m->njoints || m->nverts != gm->nverts) {
        snprintf(msg, msglen, "gpu: SB centres: pose has %d joints, mesh %d", p->njoints, m->njoints);
        return SKB_EINVAL;
    }
    if (!gm->sb.state && (rc = sb_bind(gm, m, msg, msglen)) < 0) {
        skb_skin_fini(&gm->sb);   /* the next call tries again */
        return rc;
    }
    size_t n = 4 * sb_texel_count(gm);
    float *c = (float *)calloc(n, sizeof(float));
    if (!c) {
        snprintf(msg, msglen, "gpu: out of memory for SB centres");
        return SKB_ENOMEM;
    }
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    if ((rc = sb_texels(gm, m, p, c)) < 0) {
        free(c);
        snprintf(msg, msglen, "gpu: SB centres: sb prepare: %s", skb_strerror(rc));
        return rc;
    }
    if (cpu_ms)
        *cpu_ms = skb_clock_ms(SKB_CLOCK_WALL) - t0;
    glBindBuffer(GL_TEXTURE_BUFFER, gm->center_buf);
    glBufferSubData(GL_TEXTURE_BUFFER, 0, (GLsizeiptr)(sizeof(float) * n), c);
    free(c);
    return skb__gpu_gl_failed("uploading SB centres", msg, msglen);
}

/* ---- QB: Hejl's centres are joints (DQ paper 2.3), so sum_i w_i C_i c
 * reads C_i c per (joint, centre joint) pair, computed once per pose by the
 * CPU method qb's prepare (methods/qb.c); the shader only weights the
 * texels (qb.glsl).  Texels: the pairs, then 4 per vertex whose centre is
 * not a joint (C_i c of each of its slots, per pose). */

/* the texel of vertex v's upload slot k; *extra counts the vertices with
 * their own texels so far */
static int qb_slot_texel(const struct skb_mesh *m, const void *state, int v, const int order[SKB_MAX_INFLUENCES],
                         int k, int npairs, int extra)
{
    int e = skb__qb_slot_pair(m, state, v, order[k]);
    return e >= 0 ? e : npairs + SKB_MAX_INFLUENCES * extra + k;
}

/* first use of QB on this mesh: bind the CPU method qb (it finds the
 * pairs), upload each vertex slot's texel as attribute 7, make the texture
 * buffer */
static int qb_bind(struct skb_gpu_mesh *gm, const struct skb_mesh *m, char *msg, size_t msglen)
{
    const struct skb_method *qb = skb_method_with_flag(SKB_MF_JOINT_CENTERS);
    GLint max_texels = 0;
    int rc, pv = 0;
    if (!qb) {
        snprintf(msg, msglen, "gpu: CPU method 'qb' is not in the registry");
        return SKB_EINVAL;
    }
    if ((rc = skb_skin_init(&gm->qb, qb, m, msg, msglen)) < 0)
        return rc;
    gm->qb_npairs = skb__qb_pairs(m, gm->qb.state, &pv);
    gm->qb_texels = gm->qb_npairs + SKB_MAX_INFLUENCES * (m->nverts - pv) + 1;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    if (gm->qb_texels > max_texels) {
        snprintf(msg, msglen, "gpu: QB needs %d texels, the renderer's texture buffers hold %d", gm->qb_texels,
                 max_texels);
        return SKB_ENOTSUP;
    }
    GLint *tx = (GLint *)malloc(sizeof(GLint) * SKB_MAX_INFLUENCES * (size_t)m->nverts + 1);
    if (!tx) {
        snprintf(msg, msglen, "gpu: out of memory for QB pairs");
        return SKB_ENOMEM;
    }
    for (int v = 0, extra = 0; v < m->nverts; v++) {
        int order[SKB_MAX_INFLUENCES];
        upload_order(m, v, order);
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++)
            tx[SKB_MAX_INFLUENCES * v + k] = qb_slot_texel(m, gm->qb.state, v, order, k, gm->qb_npairs, extra);
        extra += skb__qb_slot_pair(m, gm->qb.state, v, 0) < 0;
    }
    glBindVertexArray(gm->vao);
    if (!gm->qb_vbo)
        glGenBuffers(1, &gm->qb_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, gm->qb_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(GLint) * SKB_MAX_INFLUENCES * (size_t)m->nverts), tx,
                 GL_STATIC_DRAW);
    glVertexAttribIPointer(7, 4, GL_INT, 0, NULL);
    glEnableVertexAttribArray(7);
    glBindVertexArray(0);
    free(tx);
    if (!gm->qb_buf)
        glGenBuffers(1, &gm->qb_buf);
    glBindBuffer(GL_TEXTURE_BUFFER, gm->qb_buf);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(sizeof(float) * 4 * (size_t)gm->qb_texels), NULL, GL_DYNAMIC_DRAW);
    if (!gm->qb_tex)
        glGenTextures(1, &gm->qb_tex);
    glBindTexture(GL_TEXTURE_BUFFER, gm->qb_tex);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, gm->qb_buf);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    return skb__gpu_gl_failed("making the QB pair buffers", msg, msglen);
}

/* one pose's texels: qb's prepare (the pairs), then the own-centre slots */
static int qb_texels(struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *p, float *c)
{
    struct skb_params prm;
    int rc;
    skb_params_default(&prm);
    if ((rc = gm->qb.m->prepare(m, p, &prm, gm->qb.state)) < 0)
        return rc;
    const skb_real *pt = skb__qb_pair_points(m, gm->qb.state);
    for (int e = 0; e < gm->qb_npairs; e++)
        put_vec3(pt + 3 * e, c + 4 * e);
    for (int v = 0, extra = 0; v < m->nverts; v++) {
        int order[SKB_MAX_INFLUENCES];
        if (skb__qb_slot_pair(m, gm->qb.state, v, 0) >= 0)
            continue;
        upload_order(m, v, order);
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
            skb_real u[3];
            skb_mat4_apply(p->mats + 16 * m->joint[SKB_MAX_INFLUENCES * v + order[k]], m->center + 3 * v, u);
            put_vec3(u, c + 4 * (gm->qb_npairs + SKB_MAX_INFLUENCES * extra + k));
        }
        extra++;
    }
    return 0;
}

int skb_gpu_qb_pairs(struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *p,
                     char *msg, size_t msglen)
{
    int rc;
    if (p->njoints != m->njoints || m->nverts != gm->nverts) {
        snprintf(msg, msglen, "gpu: QB pairs: pose has %d joints, mesh %d", p->njoints, m->njoints);
        return SKB_EINVAL;
    }
    if (!gm->qb.state && (rc = qb_bind(gm, m, msg, msglen)) < 0) {
        skb_skin_fini(&gm->qb);   /* the next call tries again */
        return rc;
    }
    float *c = (float *)calloc(4 * (size_t)gm->qb_texels, sizeof(float));
    if (!c) {
        snprintf(msg, msglen, "gpu: out of memory for QB pairs");
        return SKB_ENOMEM;
    }
    if ((rc = qb_texels(gm, m, p, c)) < 0) {
        free(c);
        snprintf(msg, msglen, "gpu: QB pairs: qb prepare: %s", skb_strerror(rc));
        return rc;
    }
    glBindBuffer(GL_TEXTURE_BUFFER, gm->qb_buf);
    glBufferSubData(GL_TEXTURE_BUFFER, 0, (GLsizeiptr)(sizeof(float) * 4 * (size_t)gm->qb_texels), c);
    free(c);
    return skb__gpu_gl_failed("uploading QB pairs", msg, msglen);
}

/* first use of CoR on this mesh: each vertex's centre of rotation from
 * cor's own bind (Le & Hodgins eq. 2, methods/cor.c), rounded once, as
 * attribute 8; the pose needs nothing more (cor.glsl blends the rows) */
static int cor_centres(struct skb_gpu_mesh *gm, const struct skb_mesh *m, char *msg, size_t msglen)
{
    size_t n3 = 3 * (size_t)m->nverts;
    skb_real *c = (skb_real *)malloc(sizeof(skb_real) * (n3 + 1));
    float *f = (float *)malloc(sizeof(float) * (n3 + 1));
    int rc = c && f ? skb__cor_bind_centres(m, c) : SKB_ENOMEM;
    if (rc < 0) {
        snprintf(msg, msglen, "gpu: CoR centres: %s", skb_strerror(rc));
    } else {
        for (size_t i = 0; i < n3; i++)
            f[i] = (float)c[i];
        glBindVertexArray(gm->vao);
        glGenBuffers(1, &gm->cor_vbo);
        float_buffer(gm->cor_vbo, 8, 3, f, m->nverts);
        glBindVertexArray(0);
        rc = skb__gpu_gl_failed("uploading the CoR centres", msg, msglen);
    }
    free(c);
    free(f);
    return rc;
}

int skb_gpu_pose_data(const struct skb_gpu_shader *s, struct skb_gpu_mesh *gm, const struct skb_mesh *m,
                      const struct skb_pose *p, double *sb_cpu_ms, char *msg, size_t msglen)
{
    if (s->layout == SKB_GPU_LAYOUT_QT_COR && !gm->cor_vbo)
        return cor_centres(gm, m, msg, msglen);
    if (s->layout == SKB_GPU_LAYOUT_QT_SB)
        return skb_gpu_sb_centers(gm, m, p, sb_cpu_ms, msg, msglen);
    if (s->layout == SKB_GPU_LAYOUT_QT_QB)
        return skb_gpu_qb_pairs(gm, m, p, msg, msglen);
    return 0;
}

static void tf_pass(struct skb_gpu_program *p, struct skb_gpu_mesh *gm)
{
    size_t bytes = sizeof(float) * 3 * (size_t)gm->nverts;
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, gm->tfbo, 0, (GLsizeiptr)bytes);
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, gm->tfbo, (GLintptr)bytes, (GLsizeiptr)bytes);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, gm->nverts);
    glEndTransformFeedback();
}

void skb__gpu_bind_joints(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const float *joints)
{
    glBindBuffer(GL_UNIFORM_BUFFER, p->ubo);
    glBufferSubData(GL_UNIFORM_BUFFER, 0,
                    (GLsizeiptr)(sizeof(float) * 4 * (size_t)p->s->vec4_per_joint * (size_t)gm->njoints), joints);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, p->ubo);
    if (p->s->layout == SKB_GPU_LAYOUT_QT_SB) {
        glActiveTexture(GL_TEXTURE0);   /* sb.glsl: u_sb at binding 0 */
        glBindTexture(GL_TEXTURE_BUFFER, gm->center_tex);
    }
    if (p->s->layout == SKB_GPU_LAYOUT_QT_QB) {
        glActiveTexture(GL_TEXTURE0);   /* qb.glsl: u_qb at binding 0 */
        glBindTexture(GL_TEXTURE_BUFFER, gm->qb_tex);
    }
}

static void bind_program(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const float *joints)
{
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    glUseProgram(p->prog);
    glUniformMatrix4fv(0, 1, GL_FALSE, identity);
    skb__gpu_bind_joints(p, gm, joints);
    glBindVertexArray(gm->vao);
}

int skb_gpu_skin(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const float *joints,
                 float *pos, float *nrm, char *msg, size_t msglen)
{
    size_t bytes = sizeof(float) * 3 * (size_t)gm->nverts;
    int rc;
    bind_program(p, gm, joints);
    glEnable(GL_RASTERIZER_DISCARD);
    tf_pass(p, gm);
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    if ((rc = skb__gpu_gl_failed("transform feedback pass", msg, msglen)) < 0)
        return rc;
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, gm->tfbo);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)bytes, pos);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLintptr)bytes, (GLsizeiptr)bytes, nrm);
    return skb__gpu_gl_failed("reading transform feedback", msg, msglen);
}

static double model_size(const struct skb_mesh *m)
{
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY }, s = 0;
    for (int v = 0; v < m->nverts; v++)
        for (int i = 0; i < 3; i++) {
            lo[i] = fmin(lo[i], (double)m->pos[3 * v + i]);
            hi[i] = fmax(hi[i], (double)m->pos[3 * v + i]);
        }
    for (int i = 0; i < 3; i++)
        s = fmax(s, hi[i] - lo[i]);
    return s > 0 ? s : 1;
}

int skb__gpu_verify_with(const struct skb_gpu_shader *s, skb__gpu_skin_fn skin, void *skin_ctx,
                         struct skb_gpu_mesh *gm, const struct skb_mesh *m, const struct skb_pose *poses,
                         int nposes, struct skb_gpu_check *out, char *msg, size_t msglen)
{
    const struct skb_method *cpu = s->method;
    struct skb_skinner sk;
    struct skb_params prm;
    size_t nv = (size_t)m->nverts;
    int rc;
    memset(out, 0, sizeof *out);
    if (!cpu) {
        snprintf(msg, msglen, "gpu: shader %s: no CPU method", s->name);
        return SKB_EINVAL;
    }
    if ((rc = skb_skin_init(&sk, cpu, m, msg, msglen)) < 0)
        return rc;
    skb_params_default(&prm);
    prm.antipodal = s->cpu_antipodal;
    float *joints = (float *)malloc(sizeof(float) * skb_gpu_joint_floats(s, m) + 1);
    float *gpos = (float *)malloc(sizeof(float) * 6 * nv + 1);
    double *cpos = (double *)malloc(sizeof(double) * 6 * nv + 1);
    if (!joints || !gpos || !cpos) {
        snprintf(msg, msglen, "gpu: out of memory verifying %d vertices", m->nverts);
        rc = SKB_ENOMEM;
        goto done;
    }
    out->size = model_size(m);
    out->tol_pos = SKB_GPU_TOL_POS_REL * out->size;
    out->tol_nrm = SKB_GPU_TOL_NRM;
    for (int k = 0; k < nposes; k++) {
        char cmsg[256];
        if ((rc = skb_gpu_pack_joints(s, m, &poses[k], joints, msg, msglen)) < 0
            || (rc = skb_gpu_pose_data(s, gm, m, &poses[k], NULL, msg, msglen)) < 0
            || (rc = skin(skin_ctx, joints, gpos, gpos + 3 * nv, msg, msglen)) < 0)
            goto done;
        if ((rc = skb_skin_pose(&sk, &poses[k], &prm, cpos, cpos + 3 * nv, cmsg, sizeof cmsg)) < 0) {
            snprintf(msg, msglen, "gpu: CPU reference %s (pose %d): %s", cpu->name, k, cmsg);
            goto done;
        }
        for (size_t i = 0; i < 3 * nv; i++) {
            double ep = fabs((double)gpos[i] - cpos[i]);
            double en = m->nrm ? fabs((double)gpos[3 * nv + i] - cpos[3 * nv + i]) : 0;
            if (!isfinite(ep) || !isfinite(en))
                ep = en = INFINITY;   /* a NaN must not compare as small */
            if (ep > out->max_abs_pos) {
                out->max_abs_pos = ep;
                out->worst_pose = k;
                out->worst_vertex = (int)(i / 3);
            }
            out->max_abs_nrm = fmax(out->max_abs_nrm, en);
        }
    }
    out->pass = out->max_abs_pos <= out->tol_pos && out->max_abs_nrm <= out->tol_nrm;
    rc = 0;
done:
    free(joints);
    free(gpos);
    free(cpos);
    skb_skin_fini(&sk);
    return rc;
}

struct vertex_skin {
    struct skb_gpu_program *p;
    struct skb_gpu_mesh *gm;
};

static int vertex_skin(void *ctx, const float *joints, float *pos, float *nrm, char *msg, size_t msglen)
{
    struct vertex_skin *v = (struct vertex_skin *)ctx;
    return skb_gpu_skin(v->p, v->gm, joints, pos, nrm, msg, msglen);
}

int skb_gpu_verify(struct skb_gpu_program *p, struct skb_gpu_mesh *gm, const struct skb_mesh *m,
                   const struct skb_pose *poses, int nposes, struct skb_gpu_check *out,
                   char *msg, size_t msglen)
{
    struct vertex_skin v = { p, gm };
    return skb__gpu_verify_with(p->s, vertex_skin, &v, gm, m, poses, nposes, out, msg, msglen);
}


int skb_gpu_time_rep(const struct skb_gpu *g, struct skb_gpu_program *p, struct skb_gpu_mesh *gm,
                     const float *joints, int passes, double *ms, char *msg, size_t msglen)
{
    bind_program(p, gm, joints);
    glEnable(GL_RASTERIZER_DISCARD);
    glFinish();   /* nothing queued from before is timed */
    if (g->software) {
        /* llvmpipe runs vertex work on the calling thread: timer queries are
         * meaningless there, a CPU clock around draws + finish is not */
        double t0 = skb_clock_ms(SKB_CLOCK_WALL);
        for (int k = 0; k < passes; k++)
            tf_pass(p, gm);
        glFinish();
        *ms = (skb_clock_ms(SKB_CLOCK_WALL) - t0) / passes;
    } else {
        GLuint query = 0;
        GLuint64 ns = 0;
        glGenQueries(1, &query);
        glBeginQuery(GL_TIME_ELAPSED, query);
        for (int k = 0; k < passes; k++)
            tf_pass(p, gm);
        glEndQuery(GL_TIME_ELAPSED);
        glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
        glDeleteQueries(1, &query);
        *ms = 1e-6 * (double)ns / passes;
    }
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    return skb__gpu_gl_failed("timed transform feedback passes", msg, msglen);
}

void skb_gpu_demo_scales(const struct skb_mesh *m, unsigned long seed, skb_real *out)
{
    /* S_j = T(c_j) A_j T(-c_j), A_j a scale of 0.8..1.25 per axis with a small
     * shear, about the joint's rest position c_j (the origin without one);
     * a tiny LCG keeps it reproducible from the seed without a library */
    unsigned long long x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (int j = 0; j < m->njoints; j++) {
        double a[9];
        for (int k = 0; k < 9; k++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            double u = (double)(x >> 11) / 9007199254740992.0;   /* [0, 1) */
            a[k] = k % 4 == 0 ? 0.8 + 0.45 * u : 0.1 * (u - 0.5);
        }
        const skb_real *c = m->joint_rest ? m->joint_rest + 3 * j : NULL;
        skb_real *s = out + 16 * j;
        for (int r = 0; r < 3; r++) {
            double t = c ? (double)c[r] : 0;
            for (int k = 0; k < 3; k++) {
                s[4 * r + k] = a[3 * r + k];
                t -= a[3 * r + k] * (c ? (double)c[k] : 0);
            }
            s[4 * r + 3] = t;
        }
        s[12] = 0; s[13] = 0; s[14] = 0; s[15] = 1;
    }
}
