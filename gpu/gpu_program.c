/* gpu_program.c — shader sources from files (gpu/shaders/), assembled into
 * one vertex shader per table entry and linked with transform-feedback
 * varyings and the shading fragment shader. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <GL/glew.h>
#include "skb_gpu.h"

/* dir/name into out; 0 when it fits */
static int join(char *out, size_t n, const char *dir, const char *name)
{
    int len = snprintf(out, n, "%s/%s", dir, name);
    return len >= 0 && (size_t)len < n ? 0 : -1;
}

static int file_exists(const char *dir, const char *name)
{
    char path[PATH_MAX];
    return join(path, sizeof path, dir, name) == 0 && access(path, R_OK) == 0;
}

int skb_gpu_shader_dir(const char *exe, char *out, size_t outlen, char *msg, size_t msglen)
{
    static const char *const rel[] = { "gpu/shaders", "../gpu/shaders", "../../gpu/shaders", NULL };
    char self[PATH_MAX], dir[PATH_MAX], cand[PATH_MAX];
    const char *env = getenv("SKB_SHADER_DIR");
    if (env && *env) {
        if (!file_exists(env, "common.glsl")) {
            snprintf(msg, msglen, "SKB_SHADER_DIR=%s: no common.glsl there", env);
            return SKB_EIO;
        }
        snprintf(out, outlen, "%s", env);
        return 0;
    }
    if (!exe || !*exe) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        exe = self;
    }
    snprintf(dir, sizeof dir, "%s", exe);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    for (int i = 0; rel[i]; i++) {
        if (join(cand, sizeof cand, dir, rel[i]) == 0 && file_exists(cand, "common.glsl")) {
            snprintf(out, outlen, "%s", cand);
            return 0;
        }
    }
    if (file_exists("gpu/shaders", "common.glsl")) {
        snprintf(out, outlen, "gpu/shaders");
        return 0;
    }
    snprintf(msg, msglen, "gpu: shader directory not found (looked in %s/{gpu,../gpu,../../gpu}/shaders "
             "and ./gpu/shaders; set SKB_SHADER_DIR)", dir);
    return SKB_EIO;
}

int skb_gpu_read_shader_file(const char *dir, const char *name, char **out, char *msg, size_t msglen)
{
    char path[PATH_MAX];
    FILE *f = join(path, sizeof path, dir, name) == 0 ? fopen(path, "rb") : NULL;
    if (!f) {
        snprintf(msg, msglen, "%s: cannot open shader source", path);
        return SKB_EIO;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = len >= 0 ? (char *)malloc((size_t)len + 1) : NULL;
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        fclose(f);
        snprintf(msg, msglen, "%s: cannot read shader source", path);
        return SKB_EIO;
    }
    buf[len] = 0;
    fclose(f);
    *out = buf;
    return 0;
}

int skb_gpu_shader_source(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                          const char *defines, const char *entry, char **out, char *msg, size_t msglen)
{
    /* the parts in order; the method part is replaced by method_src if given */
    const char *names[4] = { "common.glsl", "skin_util.glsl", s->file, entry };
    char *part[4] = { NULL }, head[512];
    struct skb_params prm;
    size_t len = 0;
    int rc = 0;
    /* DIB's stopping rule is the CPU's default one (dib.glsl) */
    skb_params_default(&prm);
    snprintf(head, sizeof head, "#version 450 core\n#define SKB_MAX_JOINTS %d\n#define SKB_JOINT_VEC4 %d\n"
             "#define SKB_DIB_PRECISION %.9e\n#define SKB_DIB_MAX_ITER %d\n%s",
             SKB_GPU_MAX_JOINTS, s->vec4_per_joint, (double)prm.dib_precision, prm.dib_max_iter,
             defines ? defines : "");
    for (int i = 0; i < 4 && rc == 0; i++)
        if (!(i == 2 && method_src))
            rc = skb_gpu_read_shader_file(dir, names[i], &part[i], msg, msglen);
    if (rc < 0)
        goto done;
    len = strlen(head) + 8;
    for (int i = 0; i < 4; i++)
        len += strlen(part[i] ? part[i] : method_src);
    char *src = (char *)malloc(len);
    if (!src) {
        rc = SKB_ENOMEM;
        snprintf(msg, msglen, "gpu: out of memory for shader source");
        goto done;
    }
    snprintf(src, len, "%s%s\n%s\n%s\n%s", head, part[0], part[1], part[2] ? part[2] : method_src, part[3]);
    *out = src;
done:
    for (int i = 0; i < 4; i++)
        free(part[i]);
    return rc;
}

int skb_gpu_vertex_source(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                          char **out, char *msg, size_t msglen)
{
    return skb_gpu_shader_source(dir, s, method_src, NULL, "main.vert", out, msg, msglen);
}

int skb__gpu_compile(unsigned type, const char *src, const char *what, unsigned *out, char *msg, size_t msglen)
{
    GLuint sh = glCreateShader(type);
    GLint ok = 0;
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        log[strcspn(log, "\n")] = 0;
        snprintf(msg, msglen, "gpu: %s does not compile: %s", what, log);
        glDeleteShader(sh);
        return SKB_EPARSE;
    }
    *out = sh;
    return 0;
}

int skb_gpu_program_build(const char *dir, const struct skb_gpu_shader *s, const char *method_src,
                          struct skb_gpu_program *p, char *msg, size_t msglen)
{
    static const char *const varyings[] = { "o_pos", "o_nrm" };
    char *vsrc = NULL, *fsrc = NULL;
    GLuint vs = 0, fs = 0;
    int rc;
    memset(p, 0, sizeof *p);
    p->s = s;
    if ((rc = skb_gpu_vertex_source(dir, s, method_src, &vsrc, msg, msglen)) < 0
        || (rc = skb_gpu_read_shader_file(dir, "shade.frag", &fsrc, msg, msglen)) < 0
        || (rc = skb__gpu_compile(GL_VERTEX_SHADER, vsrc, s->file, &vs, msg, msglen)) < 0
        || (rc = skb__gpu_compile(GL_FRAGMENT_SHADER, fsrc, "shade.frag", &fs, msg, msglen)) < 0)
        goto done;
    p->prog = glCreateProgram();
    glAttachShader(p->prog, vs);
    glAttachShader(p->prog, fs);
    /* must precede the link (it is a link-time property) */
    glTransformFeedbackVaryings(p->prog, 2, varyings, GL_SEPARATE_ATTRIBS);
    glLinkProgram(p->prog);
    GLint ok = 0;
    glGetProgramiv(p->prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(p->prog, sizeof log, NULL, log);
        log[strcspn(log, "\n")] = 0;
        snprintf(msg, msglen, "gpu: %s does not link: %s", s->file, log);
        rc = SKB_EPARSE;
        goto done;
    }
    GLuint block = glGetProgramResourceIndex(p->prog, GL_UNIFORM_BLOCK, "Joints");
    if (block == GL_INVALID_INDEX) {
        snprintf(msg, msglen, "gpu: %s has no uniform block Joints", s->file);
        rc = SKB_EPARSE;
        goto done;
    }
    GLint size = 0;
    glGetActiveUniformBlockiv(p->prog, block, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
    p->block_bytes = size;
    p->bytes_per_joint = size / SKB_GPU_MAX_JOINTS;
    glGenBuffers(1, &p->ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, p->ubo);
    glBufferData(GL_UNIFORM_BUFFER, size, NULL, GL_DYNAMIC_DRAW);
    rc = 0;
done:
    if (vs)
        glDeleteShader(vs);
    if (fs)
        glDeleteShader(fs);
    free(vsrc);
    free(fsrc);
    if (rc < 0)
        skb_gpu_program_free(p);
    return rc;
}

void skb_gpu_program_free(struct skb_gpu_program *p)
{
    if (!p)
        return;
    if (p->prog)
        glDeleteProgram(p->prog);
    if (p->ubo)
        glDeleteBuffers(1, &p->ubo);
    p->prog = 0;
    p->ubo = 0;
}
