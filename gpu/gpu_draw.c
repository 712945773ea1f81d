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

int skb_gpu_draw_png(struct skb_gpu *g, const struct skb_gpu_draw *d, const struct skb_gpu_draw_mesh *mesh,
                     const double lo[3], const double hi[3], int width, int height, const char *path,
                     char *msg, size_t msglen)
{
    float mvp[16];
    GLuint vao = 0, vbo[4] = { 0 };
    int rc;
    if (!d->prog || !mesh->pos || !mesh->nrm || !mesh->rgb || !mesh->tris) {
        snprintf(msg, msglen, "gpu: %s: nothing to draw (no program or mesh arrays)", path);
        return SKB_EINVAL;
    }
    if ((rc = skb__gpu_frame_begin(g, width, height, msg, msglen)) < 0)
        return rc;
    skb__gpu_fit_camera(lo, hi, mvp);
    glUseProgram(d->prog);
    glUniformMatrix4fv(0, 1, GL_FALSE, mvp);
    upload(mesh, &vao, vbo);
    glDrawElements(GL_TRIANGLES, 3 * mesh->ntris, GL_UNSIGNED_INT, NULL);
    glBindVertexArray(0);
    rc = skb__gpu_frame_save(width, height, path, msg, msglen);
    glDeleteBuffers(4, vbo);
    glDeleteVertexArrays(1, &vao);
    return rc;
}
