/* gpu_image.c — pictures of deformed meshes: the skinning program draws the
 * mesh into the offscreen framebuffer with a fixed camera fitted to a box,
 * the pixels are read back and written as PNG with libpng, so a user sees
 * the artifacts (candy wrapper, collapsing or bulging elbow) the numbers
 * describe. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/glew.h>
#include "skb_gpu.h"
#include "skb_json.h"

/* column-major 4x4 (OpenGL order) */
static void mat_mul(const double a[16], const double b[16], double out[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += a[4 * k + r] * b[4 * c + k];
            out[4 * c + r] = s;
        }
}

/* perspective camera looking at the box from the front, a little from the
 * right and above; the whole bounding sphere of the box fits the view */
void skb__gpu_fit_camera(const double lo[3], const double hi[3], float mvp[16])
{
    static const double dir[3] = { 0.35, 0.3, 1.0 };
    const double fov = 30.0 * SKB_PI / 180.0;
    double c[3], d[3], r = 0, dn = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (int i = 0; i < 3; i++) {
        c[i] = 0.5 * (lo[i] + hi[i]);
        r += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
        d[i] = dir[i] / dn;
    }
    r = r > 0 ? sqrt(r) : 1;
    double dist = 1.05 * r / sin(fov / 2), eye[3];
    for (int i = 0; i < 3; i++)
        eye[i] = c[i] + dist * d[i];
    /* look-at: f = -d, s = f x up, u = s x f */
    double f[3] = { -d[0], -d[1], -d[2] }, up[3] = { 0, 1, 0 }, s[3], u[3];
    s[0] = f[1] * up[2] - f[2] * up[1];
    s[1] = f[2] * up[0] - f[0] * up[2];
    s[2] = f[0] * up[1] - f[1] * up[0];
    double sn = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int i = 0; i < 3; i++)
        s[i] /= sn;
    u[0] = s[1] * f[2] - s[2] * f[1];
    u[1] = s[2] * f[0] - s[0] * f[2];
    u[2] = s[0] * f[1] - s[1] * f[0];
    double view[16] = { 0 }, proj[16] = { 0 }, m[16];
    for (int i = 0; i < 3; i++) {
        view[4 * i + 0] = s[i];
        view[4 * i + 1] = u[i];
        view[4 * i + 2] = -f[i];
    }
    view[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    view[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    view[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    view[15] = 1;
    double zn = fmax(dist - 2 * r, 1e-3 * dist), zf = dist + 2 * r, t = 1 / tan(fov / 2);
    proj[0] = t;
    proj[5] = t;
    proj[10] = (zf + zn) / (zn - zf);
    proj[11] = -1;
    proj[14] = 2 * zf * zn / (zn - zf);
    mat_mul(proj, view, m);
    for (int i = 0; i < 16; i++)
        mvp[i] = (float)m[i];
}

int skb__gpu_write_png(const char *path, const unsigned char *rgba, int w, int h, char *msg, size_t msglen)
{
    char tmp[4200];
    FILE *f = skb_out_begin(path, tmp, sizeof tmp, msg, msglen);   /* temp + rename, never a device */
    png_structp png = NULL;
    png_infop info = NULL;
    if (!f)
        return SKB_EIO;
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        skb_out_end(f, tmp, path, 0, msg, msglen);
        snprintf(msg, msglen, "%s: libpng failed writing the image", path);
        return SKB_EIO;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    /* GL rows start at the bottom */
    for (int y = h - 1; y >= 0; y--)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)4 * w * y));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return skb_out_end(f, tmp, path, 1, msg, msglen) < 0 ? SKB_EIO : 0;
}

int skb__gpu_frame_begin(struct skb_gpu *g, int width, int height, char *msg, size_t msglen)
{
    int rc = skb_gpu_framebuffer(g, width, height, msg, msglen);
    if (rc < 0)
        return rc;
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, width, height);
    glEnable(GL_DEPTH_TEST);
    glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    return 0;
}

int skb__gpu_frame_save(int width, int height, const char *path, char *msg, size_t msglen)
{
    unsigned char *rgba = (unsigned char *)malloc((size_t)4 * width * height);
    int rc;
    if (!rgba) {
        snprintf(msg, msglen, "gpu: out of memory for a %dx%d image", width, height);
        return SKB_ENOMEM;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        free(rgba);
        snprintf(msg, msglen, "gpu: rendering %s: GL error 0x%x", path, e);
        return SKB_EIO;
    }
    rc = skb__gpu_write_png(path, rgba, width, height, msg, msglen);
    free(rgba);
    return rc;
}

int skb_gpu_render_png(struct skb_gpu *g, struct skb_gpu_program *p, struct skb_gpu_mesh *gm,
                       const float *joints, const double lo[3], const double hi[3],
                       int width, int height, const char *path, char *msg, size_t msglen)
{
    float mvp[16];
    int rc;
    if ((rc = skb__gpu_frame_begin(g, width, height, msg, msglen)) < 0)
        return rc;
    skb__gpu_fit_camera(lo, hi, mvp);
    glUseProgram(p->prog);
    glUniformMatrix4fv(0, 1, GL_FALSE, mvp);
    glUniform3f(1, 0.55f, 0.65f, 0.85f);
    skb__gpu_bind_joints(p, gm, joints);
    glBindVertexArray(gm->vao);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gm->ibo);
    glDrawElements(GL_TRIANGLES, 3 * gm->ntris, GL_UNSIGNED_INT, NULL);
    glBindVertexArray(0);
    return skb__gpu_frame_save(width, height, path, msg, msglen);
}
