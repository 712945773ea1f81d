/* gpu_compute.c — compute-shader skinning: the method's skin() of
 * gpu/shaders/ behind main.comp, vertices in storage buffers in one of the
 * memory layouts below (repeated copies of a mesh for the vertex-count
 * sweep), one dispatch per pass, verification against the CPU skin path
 * (skb__gpu_verify_with, the vertex path's tolerances), timing, the copy
 * bandwidth that serves as the device's roofline, and the pipeline-bound test
 * of the vertex path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/glew.h>
#include "skb_gpu.h"
#include "skb_stats.h"

/* storage-buffer bindings of main.comp */
enum { B_POS, B_NRM, B_IDX, B_WGT, B_CTR, B_AUX, B_OPOS, B_ONRM, B_COUNT };

/* the default first: the sweep's layout (float4 positions and normals, u32
 * indices, float weights) */
const struct skb_gpu_clayout skb_gpu_clayouts[] = {
    { "float4", "float4 pos/nrm, float weights, u32 indices", 0, 32, 32 },
    { "float3", "packed float3 pos/nrm", 1, 32, 32 },
    { "w_unorm16", "weights unorm16", 0, 16, 32 },
    { "w_unorm8", "weights unorm8", 0, 8, 32 },
    { "idx_u16", "indices u16", 0, 32, 16 },
    { "idx_u8", "indices u8", 0, 32, 8 },
    { "compact", "packed float3, weights unorm8, indices u8", 1, 8, 8 },
    { NULL, NULL, 0, 0, 0 }
};

const struct skb_gpu_clayout *skb_gpu_clayout_find(const char *name)
{
    for (int i = 0; skb_gpu_clayouts[i].name; i++)
        if (strcmp(skb_gpu_clayouts[i].name, name) == 0)
            return &skb_gpu_clayouts[i];
    return NULL;
}

static int aux_ints(const struct skb_gpu_shader *s)
{
    return s->layout == SKB_GPU_LAYOUT_QT_QB ? 4 : s->layout == SKB_GPU_LAYOUT_QT_SB ? 6 : 0;
}

static int vec3_bytes(const struct skb_gpu_clayout *L)
{
    return L->pos3 ? 12 : 16;
}

int skb_gpu_cbytes_per_vertex(const struct skb_gpu_shader *s, const struct skb_gpu_clayout *L)
{
    int read = 2 * vec3_bytes(L) + L->index_bits / 2 + L->weight_bits / 2;   /* 4 of each */
    if (s->layout == SKB_GPU_LAYOUT_QT_QB || s->layout == SKB_GPU_LAYOUT_QT_COR)
        read += vec3_bytes(L);   /* the centre */
    read += 4 * aux_ints(s);
    return read + 2 * vec3_bytes(L);   /* position and normal written */
}

/* per vertex: integers k_i summing to round(sum_i w_i * top) with the
 * largest remainders rounded up (ties: the lower slot), so that weights
 * summing to 1 still sum to 1 after the shader's k / top */
static void quantize4(const double w[4], unsigned top, unsigned k[4])
{
    double f[4], sum = 0;
    long have = 0;
    for (int i = 0; i < 4; i++) {
        f[i] = fmin(fmax(w[i], 0.0), 1.0) * top;
        k[i] = (unsigned)floor(f[i]);
        sum += f[i];
        have += k[i];
    }
    for (long need = lround(sum) - have; need > 0; need--) {
        int best = -1;
        for (int i = 0; i < 4; i++)
            if (k[i] < top && (best < 0 || f[i] - k[i] > f[best] - k[best]))
                best = i;
        if (best < 0)
            break;
        k[best]++;
        f[best] = k[best];   /* its remainder is spent */
    }
}

void skb_gpu_quantize_weights(const struct skb_mesh *m, int bits, skb_real *out)
{
    unsigned top = bits >= 32 ? 0 : (1u << bits) - 1;
    for (int v = 0; v < m->nverts; v++) {
        double w[4];
        unsigned k[4];
        for (int i = 0; i < 4; i++)
            w[i] = (double)m->weight[4 * v + i];
        if (!top) {
            for (int i = 0; i < 4; i++)
                out[4 * v + i] = m->weight[4 * v + i];
            continue;
        }
        quantize4(w, top, k);
        for (int i = 0; i < 4; i++)
            out[4 * v + i] = (skb_real)k[i] / top;
    }
}

/* ---- programs ---- */

int skb_gpu_cprogram_build(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                           const struct skb_gpu_clayout *L, struct skb_gpu_cprogram *cp, char *msg, size_t msglen)
{
    char defs[512], *src = NULL;
    GLuint cs = 0;
    int rc;
    memset(cp, 0, sizeof *cp);
    cp->p.s = s;
    cp->L = L;
    snprintf(defs, sizeof defs, "#define SKB_COMPUTE 1\n#define SKB_LOCAL_SIZE %d\n%s%s%s%s%s%s%s%s",
             SKB_GPU_LOCAL_SIZE, L->pos3 ? "#define SKB_POS3 1\n" : "",
             L->weight_bits == 16 ? "#define SKB_W16 1\n" : "", L->weight_bits == 8 ? "#define SKB_W8 1\n" : "",
             L->index_bits == 16 ? "#define SKB_IDX16 1\n" : "", L->index_bits == 8 ? "#define SKB_IDX8 1\n" : "",
             s->layout == SKB_GPU_LAYOUT_QT_QB ? "#define SKB_CENTER 1\n#define SKB_AUX_PAIR 1\n" : "",
             s->layout == SKB_GPU_LAYOUT_QT_SB ? "#define SKB_AUX_SET 1\n" : "",
             s->layout == SKB_GPU_LAYOUT_QT_COR ? "#define SKB_COR 1\n" : "");
    if ((rc = skb_gpu_shader_source(dir, s, method_src, defs, "main.comp", &src, msg, msglen)) < 0
        || (rc = skb__gpu_compile(GL_COMPUTE_SHADER, src, s->file, &cs, msg, msglen)) < 0)
        goto done;
    cp->p.prog = glCreateProgram();
    glAttachShader(cp->p.prog, cs);
    glLinkProgram(cp->p.prog);
    GLint ok = 0;
    glGetProgramiv(cp->p.prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(cp->p.prog, sizeof log, NULL, log);
        log[strcspn(log, "\n")] = 0;
        snprintf(msg, msglen, "gpu: compute %s (%s) does not link: %s", s->file, L->name, log);
        rc = SKB_EPARSE;
        goto done;
    }
    GLuint block = glGetProgramResourceIndex(cp->p.prog, GL_UNIFORM_BLOCK, "Joints");
    GLint size = 0;
    if (block != GL_INVALID_INDEX)
        glGetActiveUniformBlockiv(cp->p.prog, block, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
    if (size <= 0) {
        snprintf(msg, msglen, "gpu: compute %s has no uniform block Joints", s->file);
        rc = SKB_EPARSE;
        goto done;
    }
    cp->p.block_bytes = size;
    cp->p.bytes_per_joint = size / SKB_GPU_MAX_JOINTS;
    glGenBuffers(1, &cp->p.ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, cp->p.ubo);
    glBufferData(GL_UNIFORM_BUFFER, size, NULL, GL_DYNAMIC_DRAW);
    rc = 0;
done:
    if (cs)
        glDeleteShader(cs);
    free(src);
    if (rc < 0)
        skb_gpu_cprogram_free(cp);
    return rc;
}

void skb_gpu_cprogram_free(struct skb_gpu_cprogram *cp)
{
    if (cp)
        skb_gpu_program_free(&cp->p);
}

/* ---- meshes ---- */

/* a storage buffer of n vertices of elem bytes holding base (nbase
 * vertices) repeated: one upload, then copies inside the buffer that double
 * the filled part (the device does the work, not the host) */
static GLuint repeated_buffer(const void *base, size_t elem, long nbase, long n)
{
    GLuint b = 0;
    size_t total = elem * (size_t)n, have = elem * (size_t)(nbase < n ? nbase : n);
    glGenBuffers(1, &b);
    glBindBuffer(GL_COPY_WRITE_BUFFER, b);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)total, NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)have, base);
    while (have < total) {
        size_t k = have < total - have ? have : total - have;
        glCopyBufferSubData(GL_COPY_WRITE_BUFFER, GL_COPY_WRITE_BUFFER, 0, (GLintptr)have, (GLsizeiptr)k);
        have += k;
    }
    return b;
}

/* 0 when a storage buffer of n elements of elem bytes fits the renderer's
 * largest storage block, else SKB_ENOMEM with the reason (the sweep stops
 * there, as when the device runs out of memory) */
static int storage_fits(size_t elem, long n, char *msg, size_t msglen)
{
    GLint64 most = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &most);
    if (most <= 0 || (double)elem * (double)n <= (double)most)
        return 0;
    snprintf(msg, msglen, "gpu: %ld vertices need a %.0f MiB storage buffer, the renderer's largest is %.0f MiB", n,
             (double)elem * (double)n / 1048576.0, (double)most / 1048576.0);
    return SKB_ENOMEM;
}

static void *read_back(GLuint vbo, size_t bytes)
{
    void *out = malloc(bytes + 1);
    if (out) {
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, out);
    }
    return out;
}

/* 3 floats per vertex into the layout's vec3 (float4 with w = 0, or as is) */
static void *vec3_layout(const float *in, int n, const struct skb_gpu_clayout *L)
{
    float *o = (float *)malloc((size_t)vec3_bytes(L) * (size_t)n + 1);
    int st = vec3_bytes(L) / 4;
    for (int v = 0; o && v < n; v++)
        for (int i = 0; i < st; i++)
            o[st * v + i] = i < 3 ? in[3 * v + i] : 0.0f;
    return o;
}

/* 4 joint indices per vertex packed to the layout's width */
static void *index_layout(const GLint *in, int n, const struct skb_gpu_clayout *L, int *bad)
{
    unsigned *o = (unsigned *)calloc((size_t)n * (size_t)L->index_bits / 2 + 4, 1);   /* 4 indices a vertex */
    unsigned long top = L->index_bits >= 32 ? 0xffffffffUL : (1UL << L->index_bits) - 1;
    int per = 32 / L->index_bits;   /* indices per 32-bit word */
    *bad = 0;
    for (int v = 0; o && v < n; v++)
        for (int i = 0; i < 4; i++) {
            unsigned long j = (unsigned long)(unsigned)in[4 * v + i];
            *bad |= j > top;
            size_t word = (size_t)(4 * v + i) / (size_t)per;
            o[word] |= (unsigned)(j & top) << (L->index_bits * ((4 * v + i) % per));
        }
    return o;
}

/* 4 weights per vertex: float, or unorm16 / unorm8 (quantize4) */
static void *weight_layout(const float *in, int n, const struct skb_gpu_clayout *L)
{
    if (L->weight_bits == 32) {
        float *o = (float *)malloc(sizeof(float) * 4 * (size_t)n + 1);
        if (o)
            memcpy(o, in, sizeof(float) * 4 * (size_t)n);
        return o;
    }
    unsigned *o = (unsigned *)calloc((size_t)n * (size_t)L->weight_bits / 2 + 1, 1);
    unsigned top = (1u << L->weight_bits) - 1;
    int per = 32 / L->weight_bits;
    for (int v = 0; o && v < n; v++) {
        double w[4];
        unsigned k[4];
        for (int i = 0; i < 4; i++)
            w[i] = in[4 * v + i];
        quantize4(w, top, k);
        for (int i = 0; i < 4; i++)
            o[(4 * v + i) / per] |= k[i] << (L->weight_bits * ((4 * v + i) % per));
    }
    return o;
}

int skb_gpu_cmesh_upload(struct skb_gpu_mesh *gm, const struct skb_gpu_clayout *L, long nverts,
                         struct skb_gpu_cmesh *cm, char *msg, size_t msglen)
{
    int n = gm->nverts, bad = 0, rc = 0;
    memset(cm, 0, sizeof *cm);
    if (n <= 0 || nverts <= 0) {
        snprintf(msg, msglen, "gpu: compute mesh of %ld vertices from %d", nverts, n);
        return SKB_EINVAL;
    }
    if ((rc = storage_fits((size_t)vec3_bytes(L), nverts, msg, msglen)) < 0)
        return rc;
    float *pos = (float *)read_back(gm->vbo[SKB__GPU_VBO_POS], sizeof(float) * 3 * (size_t)n);
    float *nrm = (float *)read_back(gm->vbo[SKB__GPU_VBO_NRM], sizeof(float) * 3 * (size_t)n);
    GLint *jnt = (GLint *)read_back(gm->vbo[SKB__GPU_VBO_JOINT], sizeof(GLint) * 4 * (size_t)n);
    float *wgt = (float *)read_back(gm->vbo[SKB__GPU_VBO_WEIGHT], sizeof(float) * 4 * (size_t)n);
    void *part[4] = { NULL };
    if (pos && nrm && jnt && wgt) {
        part[B_POS] = vec3_layout(pos, n, L);
        part[B_NRM] = vec3_layout(nrm, n, L);
        part[B_IDX] = index_layout(jnt, n, L, &bad);
        part[B_WGT] = weight_layout(wgt, n, L);
    }
    if (!part[B_POS] || !part[B_NRM] || !part[B_IDX] || !part[B_WGT]) {
        snprintf(msg, msglen, "gpu: out of memory for a compute mesh");
        rc = SKB_ENOMEM;
    } else if (bad) {
        snprintf(msg, msglen, "gpu: layout %s holds joint indices below %lu only", L->name, 1UL << L->index_bits);
        rc = SKB_ENOTSUP;
    } else {
        size_t elem[4] = { (size_t)vec3_bytes(L), (size_t)vec3_bytes(L), (size_t)L->index_bits / 2,
                           (size_t)L->weight_bits / 2 };
        cm->L = L;
        cm->nverts = nverts;
        cm->base_nverts = n;
        for (int b = 0; b < 4; b++)
            cm->buf[b] = repeated_buffer(part[b], elem[b], n, nverts);
        for (int b = B_OPOS; b <= B_ONRM; b++) {
            glGenBuffers(1, &cm->buf[b]);
            glBindBuffer(GL_SHADER_STORAGE_BUFFER, cm->buf[b]);
            glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)((size_t)vec3_bytes(L) * (size_t)nverts), NULL,
                         GL_DYNAMIC_COPY);
        }
        glFinish();
        rc = skb__gpu_gl_failed("uploading a compute mesh", msg, msglen);
    }
    for (int b = 0; b < 4; b++)
        free(part[b]);
    free(pos);
    free(nrm);
    free(jnt);
    free(wgt);
    if (rc < 0)
        skb_gpu_cmesh_free(cm);
    return rc;
}

int skb_gpu_cmesh_extras(struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm, const struct skb_gpu_shader *s,
                         char *msg, size_t msglen)
{
    int n = gm->nverts, na = aux_ints(s), rc;
    if ((rc = storage_fits(sizeof(GLint) * (size_t)na, cm->nverts, msg, msglen)) < 0)
        return rc;
    /* QB's and CoR's centres share the buffer: refreshed when the other's are in it */
    if ((s->layout == SKB_GPU_LAYOUT_QT_QB || s->layout == SKB_GPU_LAYOUT_QT_COR) && cm->ctr_layout != s->layout) {
        GLuint src = s->layout == SKB_GPU_LAYOUT_QT_QB ? gm->vbo[SKB__GPU_VBO_CENTER] : gm->cor_vbo;
        if (!src) {
            snprintf(msg, msglen, "gpu: compute %s: the mesh has no CoR centres yet (skb_gpu_pose_data first)", s->name);
            return SKB_EINVAL;
        }
        float *c = (float *)read_back(src, sizeof(float) * 3 * (size_t)n);
        void *lc = c ? vec3_layout(c, n, cm->L) : NULL;
        free(c);
        if (!lc) {
            snprintf(msg, msglen, "gpu: out of memory for compute centres");
            return SKB_ENOMEM;
        }
        if (cm->buf[B_CTR])
            glDeleteBuffers(1, &cm->buf[B_CTR]);
        cm->buf[B_CTR] = repeated_buffer(lc, (size_t)vec3_bytes(cm->L), n, cm->nverts);
        cm->ctr_layout = s->layout;
        free(lc);
    }
    if (na && cm->aux_ints != na) {
        GLuint src = na == 4 ? gm->qb_vbo : gm->set_vbo;
        if (!src) {
            snprintf(msg, msglen, "gpu: compute %s: the mesh has no %s texels yet (skb_gpu_pose_data first)", s->name,
                     na == 4 ? "QB pair" : "SB set");
            return SKB_EINVAL;
        }
        void *a = read_back(src, sizeof(GLint) * (size_t)na * (size_t)n);
        if (!a) {
            snprintf(msg, msglen, "gpu: out of memory for compute texel indices");
            return SKB_ENOMEM;
        }
        if (cm->buf[B_AUX])
            glDeleteBuffers(1, &cm->buf[B_AUX]);
        cm->buf[B_AUX] = repeated_buffer(a, sizeof(GLint) * (size_t)na, n, cm->nverts);
        cm->aux_ints = na;
        free(a);
    }
    glFinish();
    return skb__gpu_gl_failed("uploading compute extras", msg, msglen);
}

void skb_gpu_cmesh_free(struct skb_gpu_cmesh *cm)
{
    if (!cm)
        return;
    for (int b = 0; b < B_COUNT; b++)
        if (cm->buf[b])
            glDeleteBuffers(1, &cm->buf[b]);
    memset(cm, 0, sizeof *cm);
}

/* ---- skinning ---- */

void skb_gpu_cbind(struct skb_gpu_cprogram *cp, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                   const float *joints)
{
    glUseProgram(cp->p.prog);
    glUniform1ui(0, (GLuint)cm->nverts);   /* main.comp's u_count */
    skb__gpu_bind_joints(&cp->p, gm, joints);
    for (int b = 0; b < B_COUNT; b++)
        if (cm->buf[b])
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)b, cm->buf[b]);
}

/* one pass over every vertex of the mesh skb_gpu_cbind bound: a 2-D grid
 * of groups (GL promises 65535 per dimension; main.comp folds y back into
 * the vertex index) */
static void dispatch(const struct skb_gpu_cmesh *cm)
{
    long groups = (cm->nverts + SKB_GPU_LOCAL_SIZE - 1) / SKB_GPU_LOCAL_SIZE;
    long gx = groups < 32768 ? groups : 32768, gy = (groups + gx - 1) / gx;
    glDispatchCompute((GLuint)gx, (GLuint)gy, 1);
}

int skb_gpu_cskin(struct skb_gpu_cprogram *cp, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                  const float *joints, int count, float *pos, float *nrm, float *iters, char *msg, size_t msglen)
{
    int st = vec3_bytes(cm->L) / 4, rc;
    size_t bytes = (size_t)vec3_bytes(cm->L) * (size_t)count;
    if (count > cm->nverts) {
        snprintf(msg, msglen, "gpu: %d vertices asked of a compute mesh of %ld", count, cm->nverts);
        return SKB_EINVAL;
    }
    skb_gpu_cbind(cp, cm, gm, joints);
    dispatch(cm);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if ((rc = skb__gpu_gl_failed("compute dispatch", msg, msglen)) < 0)
        return rc;
    float *o = (float *)malloc(2 * bytes + 1);
    if (!o) {
        snprintf(msg, msglen, "gpu: out of memory reading a compute result");
        return SKB_ENOMEM;
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, cm->buf[B_OPOS]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, o);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, cm->buf[B_ONRM]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, (char *)o + bytes);
    const float *on = (const float *)((char *)o + bytes);
    for (int v = 0; v < count; v++) {
        for (int i = 0; i < 3; i++) {
            pos[3 * v + i] = o[st * v + i];
            nrm[3 * v + i] = on[st * v + i];
        }
        if (iters)
            iters[v] = st == 4 ? on[4 * v + 3] : NAN;
    }
    free(o);
    return skb__gpu_gl_failed("reading a compute result", msg, msglen);
}

struct compute_skin {
    struct skb_gpu_cprogram *cp;
    struct skb_gpu_cmesh *cm;
    struct skb_gpu_mesh *gm;
};

static int compute_skin(void *ctx, const float *joints, float *pos, float *nrm, char *msg, size_t msglen)
{
    struct compute_skin *c = (struct compute_skin *)ctx;
    return skb_gpu_cskin(c->cp, c->cm, c->gm, joints, c->gm->nverts, pos, nrm, NULL, msg, msglen);
}

int skb_gpu_cverify(struct skb_gpu_cprogram *cp, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                    const struct skb_mesh *m, const struct skb_pose *poses, int nposes,
                    struct skb_gpu_check *out, char *msg, size_t msglen)
{
    struct compute_skin c = { cp, cm, gm };
    return skb__gpu_verify_with(cp->p.s, compute_skin, &c, gm, m, poses, nposes, out, msg, msglen);
}

/* ---- timing ---- */

/* milliseconds of `passes` of issue(arg): wall time (CPU clock + glFinish:
 * a software renderer, whose timer queries read 0) or GPU time (GL_TIME_ELAPSED) */
static double timed_issue(const struct skb_gpu *g, void (*issue)(const void *arg), const void *arg, int passes)
{
    GLuint query = 0;
    GLuint64 ns = 0;
    double t0 = 0;
    glFinish();   /* nothing queued from before is timed */
    if (g->software)
        t0 = skb_clock_ms(SKB_CLOCK_WALL);
    else {
        glGenQueries(1, &query);
        glBeginQuery(GL_TIME_ELAPSED, query);
    }
    for (int k = 0; k < passes; k++)
        issue(arg);
    if (g->software) {
        glFinish();
        return skb_clock_ms(SKB_CLOCK_WALL) - t0;
    }
    glEndQuery(GL_TIME_ELAPSED);
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    glDeleteQueries(1, &query);
    return 1e-6 * (double)ns;
}

static void issue_dispatch(const void *arg)
{
    dispatch((const struct skb_gpu_cmesh *)arg);
    /* each pass writes the same outputs: finish before the next starts */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* the bound GL_COPY_READ_BUFFER into GL_COPY_WRITE_BUFFER */
static void issue_copy(const void *arg)
{
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)*(const size_t *)arg);
}

/* the shader copy of the bound storage buffers 0 -> 1 (uvec4 words) */
static void issue_shader_copy(const void *arg)
{
    long groups = (long)((*(const size_t *)arg / 16 + 255) / 256);
    long gx = groups < 32768 ? groups : 32768, gy = (groups + gx - 1) / gx;
    glDispatchCompute((GLuint)gx, (GLuint)gy, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

int skb_gpu_ctime_rep(const struct skb_gpu *g, struct skb_gpu_cmesh *cm, int passes, double *ms,
                      char *msg, size_t msglen)
{
    *ms = timed_issue(g, issue_dispatch, cm, passes) / passes;
    return skb__gpu_gl_failed("timed compute dispatches", msg, msglen);
}

int skb_gpu_joint_upload_ms(struct skb_gpu_cprogram *cp, struct skb_gpu_mesh *gm, const float *joints,
                            double *ms, char *msg, size_t msglen)
{
    glFinish();
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    skb__gpu_bind_joints(&cp->p, gm, joints);
    glFinish();
    *ms = skb_clock_ms(SKB_CLOCK_WALL) - t0;
    return skb__gpu_gl_failed("joint upload", msg, msglen);
}

/* a copy through the shader cores: one uvec4 read and written per
 * invocation.  On an NVIDIA H100 glCopyBufferSubData ran at 176 GB/s (a copy
 * engine, not the cores' path to memory) while the skinning kernels moved
 * over 2 TB/s: the shader copy is the bound those kernels share. */
static const char shader_copy_src[] =
    "#version 430\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };\n"
    "uniform uint u_n;\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;\n"
    "    if (i < u_n) dst[i] = src[i];\n"
    "}\n";

/* the destination holds the source's mark at its first, middle and last 16 bytes */
static int copied_all(GLuint dst, size_t bytes)
{
    const size_t at[3] = { 0, (bytes / 32) * 16, bytes - 16 };
    unsigned char b[16];
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
    for (int k = 0; k < 3; k++) {
        glGetBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)at[k], 16, b);
        for (int i = 0; i < 16; i++)
            if (b[i] != 0x5b)
                return 0;
    }
    return 1;
}

static int shader_copy_program(GLuint *prog, size_t bytes, char *msg, size_t msglen)
{
    GLuint cs = 0;
    int rc = skb__gpu_compile(GL_COMPUTE_SHADER, shader_copy_src, "the shader copy", &cs, msg, msglen);
    if (rc < 0)
        return rc;
    *prog = glCreateProgram();
    glAttachShader(*prog, cs);
    glLinkProgram(*prog);
    glDeleteShader(cs);
    GLint ok = 0;
    glGetProgramiv(*prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        snprintf(msg, msglen, "gpu: the shader copy does not link");
        return SKB_EPARSE;
    }
    glUseProgram(*prog);
    glUniform1ui(glGetUniformLocation(*prog, "u_n"), (GLuint)(bytes / 16));
    return 0;
}

int skb_gpu_copy_bandwidth(const struct skb_gpu *g, size_t bytes, int reps, int shader, double *gbps, char *msg,
                           size_t msglen)
{
    GLuint buf[2] = { 0, 0 }, prog = 0;
    static const unsigned char zero = 0, mark = 0x5b;
    int rc;
    bytes -= bytes % 16;
    glGenBuffers(2, buf);
    glBindBuffer(GL_COPY_READ_BUFFER, buf[0]);
    glBufferData(GL_COPY_READ_BUFFER, (GLsizeiptr)bytes, NULL, GL_STATIC_COPY);
    glClearBufferData(GL_COPY_READ_BUFFER, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, &mark);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buf[1]);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STATIC_COPY);
    glClearBufferData(GL_COPY_WRITE_BUFFER, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, &zero);
    if ((rc = skb__gpu_gl_failed("allocating the copy buffers", msg, msglen)) < 0)
        goto done;
    if (shader) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
        if ((rc = shader_copy_program(&prog, bytes, msg, msglen)) < 0)
            goto done;
    }
    void (*issue)(const void *) = shader ? issue_shader_copy : issue_copy;
    timed_issue(g, issue, &bytes, 1);   /* warm-up */
    for (int k = 0; k < reps; k++) {
        double ms = timed_issue(g, issue, &bytes, 1);
        /* bytes read plus bytes written, as each layout's bytes per vertex */
        gbps[k] = ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : NAN;
    }
    skb_sort_doubles(gbps, reps);
    rc = skb__gpu_gl_failed(shader ? "timed shader copies" : "timed buffer copies", msg, msglen);
    if (rc == 0 && !copied_all(buf[1], bytes)) {
        /* a copy that did not copy would time as a fast one */
        snprintf(msg, msglen, "gpu: the %s left the destination unwritten", shader ? "shader copy" : "buffer copy");
        rc = SKB_ENUMERIC;
    }
done:
    if (prog) {
        glUseProgram(0);
        glDeleteProgram(prog);
    }
    glDeleteBuffers(2, buf);
    return rc;
}

int skb_gpu_times_equal(const double *ms, int n, double rel)
{
    double lo = INFINITY, hi = -INFINITY;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(ms[i]) && ms[i] > 0) {
            lo = fmin(lo, ms[i]);
            hi = fmax(hi, ms[i]);
            k++;
        }
    return k >= 2 && hi <= lo * (1 + rel);
}
