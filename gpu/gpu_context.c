/* gpu_context.c — an OpenGL 4.5 core context without a display: EGL on the
 * surfaceless Mesa platform, GLEW for the entry points, and an offscreen
 * framebuffer bound before any draw (a surfaceless context has no default
 * framebuffer; without one every draw fails with GL_INVALID_FRAMEBUFFER_OPERATION
 * and transform feedback stays zero).  The same code takes a hardware GPU
 * when the EGL vendor offers one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/glew.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include "skb_gpu.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

int skb_gpu_is_software(const char *renderer)
{
    static const char *const soft[] = { "llvmpipe", "softpipe", "swrast", "Software Rasterizer", NULL };
    for (int i = 0; soft[i]; i++)
        if (renderer && strstr(renderer, soft[i]))
            return 1;
    return 0;
}

static void copy_string(char *dst, size_t n, GLenum name)
{
    const GLubyte *s = glGetString(name);
    snprintf(dst, n, "%s", s ? (const char *)s : "(unknown)");
}

int skb_gpu_framebuffer(struct skb_gpu *g, int width, int height, char *msg, size_t msglen)
{
    if (g->fbo && g->width == width && g->height == height)
        return 0;
    if (!g->fbo)
        glGenFramebuffers(1, &g->fbo);
    if (!g->color_rb)
        glGenRenderbuffers(1, &g->color_rb);
    if (!g->depth_rb)
        glGenRenderbuffers(1, &g->depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, g->color_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, g->depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->color_rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, g->depth_rb);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(msg, msglen, "gpu: offscreen framebuffer %dx%d incomplete (status 0x%x)", width, height, st);
        return SKB_ENOTSUP;
    }
    glViewport(0, 0, width, height);
    g->width = width;
    g->height = height;
    return 0;
}

int skb_gpu_open(struct skb_gpu *g, char *msg, size_t msglen)
{
    static const EGLint attrs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE
    };
    const char *dis = getenv("SKB_GPU_DISABLE");
    EGLint major, minor;
    memset(g, 0, sizeof *g);
    if (dis && *dis && strcmp(dis, "0") != 0) {
        snprintf(msg, msglen, "no OpenGL context: disabled by SKB_GPU_DISABLE=%s", dis);
        return SKB_ENOTSUP;
    }
    EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d == EGL_NO_DISPLAY) {
        snprintf(msg, msglen, "no OpenGL context: eglGetPlatformDisplay(surfaceless) failed (EGL error 0x%x)",
                 eglGetError());
        return SKB_ENOTSUP;
    }
    if (!eglInitialize(d, &major, &minor)) {
        snprintf(msg, msglen, "no OpenGL context: eglInitialize failed (EGL error 0x%x)", eglGetError());
        return SKB_ENOTSUP;
    }
    g->display = d;
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(msg, msglen, "no OpenGL context: eglBindAPI(OpenGL) failed (EGL error 0x%x)", eglGetError());
        skb_gpu_close(g);
        return SKB_ENOTSUP;
    }
    EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
    if (c == EGL_NO_CONTEXT) {
        snprintf(msg, msglen, "no OpenGL context: eglCreateContext(4.5 core) failed (EGL error 0x%x)",
                 eglGetError());
        skb_gpu_close(g);
        return SKB_ENOTSUP;
    }
    g->context = c;
    if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        snprintf(msg, msglen, "no OpenGL context: eglMakeCurrent(surfaceless) failed (EGL error 0x%x)",
                 eglGetError());
        skb_gpu_close(g);
        return SKB_ENOTSUP;
    }
    /* with an EGL context glewInit reports GLEW_ERROR_NO_GLX_DISPLAY yet loads
     * every pointer (see ../shared/TOOLCHAIN.md); it may leave a GL error set */
    glewExperimental = GL_TRUE;
    GLenum ge = glewInit();
    if (ge != GLEW_OK && ge != GLEW_ERROR_NO_GLX_DISPLAY) {
        snprintf(msg, msglen, "no OpenGL context: glewInit failed: %s", (const char *)glewGetErrorString(ge));
        skb_gpu_close(g);
        return SKB_ENOTSUP;
    }
    while (glGetError() != GL_NO_ERROR)
        ;
    if (!glGenTransformFeedbacks || !glGetProgramResourceIndex || !glBindBufferBase) {
        snprintf(msg, msglen, "no OpenGL 4.5 entry points after glewInit");
        skb_gpu_close(g);
        return SKB_ENOTSUP;
    }
    copy_string(g->renderer, sizeof g->renderer, GL_RENDERER);
    copy_string(g->version, sizeof g->version, GL_VERSION);
    copy_string(g->vendor, sizeof g->vendor, GL_VENDOR);
    g->software = skb_gpu_is_software(g->renderer);
    int rc = skb_gpu_framebuffer(g, 1, 1, msg, msglen);
    if (rc < 0) {
        skb_gpu_close(g);
        return rc;
    }
    glEnable(GL_DEPTH_TEST);
    return 0;
}

void skb_gpu_close(struct skb_gpu *g)
{
    if (!g || !g->display)
        return;   /* never opened, or the open failed before EGL was up */
    if (g->context) {
        if (g->fbo)
            glDeleteFramebuffers(1, &g->fbo);
        if (g->color_rb)
            glDeleteRenderbuffers(1, &g->color_rb);
        if (g->depth_rb)
            glDeleteRenderbuffers(1, &g->depth_rb);
        eglMakeCurrent(g->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(g->display, g->context);
    }
    /* no eglTerminate: the surfaceless display is a per-process singleton that
     * the next skb_gpu_open re-initialises for free, and terminating it makes
     * Mesa 22.3 leak ~240 bytes from its unloaded driver (LeakSanitizer
     * reports them from an unknown module in `make asan`) */
    memset(g, 0, sizeof *g);
}
