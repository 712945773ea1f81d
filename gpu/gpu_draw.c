/* gpu_draw.c — pictures of meshes the CPU skinned: every method of the
 * registry gets a picture through the same headless context, whether or not
 * it has a shader (methods x scenes grid, error heat maps).  The
 * pass-through program only projects and shades; the deformation is the
 * method's own double-precision skin path, rounded to float for upload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/glew.h>
#include "skb_gpu.h"

static int link_program(GLuint vs, GLuint fs, GLuint *out, char *msg, size_t msglen)
{
    GLint ok = 0;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        log[strcspn(log, "\n")] = 0;
        snprintf(msg, msglen, "gpu: passthrough program does not link: %s", log);
        glDeleteProgram(prog);
        return SKB_EPARSE;
    }
    *out = prog;
    return 0;
}

int skb_gpu_draw_open(const char *shader_dir, struct skb_gpu_draw *d, char *msg, size_t msglen)
{
    char *vsrc = NULL, *fsrc = NULL;
    GLuint vs = 0, fs = 0;
    int rc;
    memset(d, 0, sizeof *d);
    if ((rc = skb_gpu_read_shader_file(shader_dir, "passthrough.vert", &vsrc, msg, msglen)) == 0
        && (rc = skb_gpu_read_shader_file(shader_dir, "passthrough.frag", &fsrc, msg, msglen)) == 0
        && (rc = skb__gpu_compile(GL_VERTEX_SHADER, vsrc, "passthrough.vert", &vs, msg, msglen)) == 0
        && (rc = skb__gpu_compile(GL_FRAGMENT_SHADER, fsrc, "passthrough.frag", &fs, msg, msglen)) == 0)
        rc = link_program(vs, fs, &d->prog, msg, msglen);
    if (vs)
        glDeleteShader(vs);
    if (fs)
        glDeleteShader(fs);
    free(vsrc);
    free(fsrc);
    return rc;
}

void skb_gpu_draw_close(struct skb_gpu_draw *d)
{
    if (d && d->prog)
        glDeleteProgram(d->prog);
    if (d)
        d->prog = 0;
}

/* three float attributes (position, normal, colour) and the index buffer */
static void upload(const struct skb_gpu_draw_mesh *mesh, GLuint *vao, GLuint vbo[4])
{
    const float *attr[3] = { mesh->pos, mesh->nrm, mesh->rgb };
    glGenVertexArrays(1, vao);
    glBindVertexArray(*vao);
    glGenBuffers(4, vbo);
    for (int a = 0; a < 3; a++) {
        glBindBuffer(GL_ARRAY_BUFFER, vbo[a]);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * 3 * (size_t)mesh->nverts), attr[a],
                     GL_STREAM_DRAW);
        glEnableVertexAttribArray((GLuint)a);
        glVertexAttribPointer((GLuint)a, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, vbo[3]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof(int) * 3 * (size_t)mesh->ntris), mesh->tris,
                 GL_STREAM_DRAW);
}

/* one mesh with the bound program and camera, its buffers freed after */
static void draw_mesh(const struct skb_gpu_draw_mesh *mesh)
{
    GLuint vao = 0, vbo[4] = { 0 };
    upload(mesh, &vao, vbo);
    glDrawElements(GL_TRIANGLES, 3 * mesh->ntris, GL_UNSIGNED_INT, NULL);
    glBindVertexArray(0);
    glDeleteBuffers(4, vbo);
    glDeleteVertexArrays(1, &vao);
}

static int mesh_ok(const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *mesh, const char *path, char *msg,
                   size_t msglen)
{
    if (!d->prog || !mesh->pos || !mesh->nrm || !mesh->rgb || !mesh->tris) {
        snprintf(msg, msglen, "gpu: %s: nothing to draw (no program or mesh arrays)", path);
        return 0;
    }
    return 1;
}

/* n panels of width x height side by side: panel i shows meshes[i], every
 * panel through the camera fitted to [lo, hi] */
static int draw_panels(struct skb_gpu *g, const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *meshes,
                       int n, const double lo[3], const double hi[3], int width, int height, const char *path,
                       char *msg, size_t msglen)
{
    float mvp[16];
    int rc;
    for (int i = 0; i < n; i++)
        if (!mesh_ok(d, &meshes[i], path, msg, msglen))
            return SKB_EINVAL;
    if ((rc = skb__gpu_frame_begin(g, n * width, height, msg, msglen)) < 0)
        return rc;
    skb__gpu_fit_camera(lo, hi, mvp);
    glUseProgram(d->prog);
    glUniformMatrix4fv(0, 1, GL_FALSE, mvp);
    for (int i = 0; i < n; i++) {
        glViewport(i * width, 0, width, height);   /* panels do not overlap: one depth buffer serves all */
        draw_mesh(&meshes[i]);
    }
    return skb__gpu_frame_save(n * width, height, path, msg, msglen);
}

int skb_gpu_draw_png(struct skb_gpu *g, const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *mesh,
                     const double lo[3], const double hi[3], int width, int height, const char *path,
                     char *msg, size_t msglen)
{
    return draw_panels(g, d, mesh, 1, lo, hi, width, height, path, msg, msglen);
}

int skb_gpu_draw_row_png(struct skb_gpu *g, const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *meshes,
                         int n, const double lo[3], const double hi[3], int size, const char *path, char *msg,
                         size_t msglen)
{
    if (n < 1 || size < 1) {
        snprintf(msg, msglen, "gpu: %s: %d panels of %d pixels", path, n, size);
        return SKB_EINVAL;
    }
    return draw_panels(g, d, meshes, n, lo, hi, size, size, path, msg, msglen);
}
