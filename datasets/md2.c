/* md2.c — Quake 2 MD2 vertex animations (assimp-testmodels ships faerie.md2
 * and sydney.md2), read directly: the format is a 68-byte header of 17
 * little-endian int32 (magic "IDP2", version 8, skin size, frame size,
 * counts of skins / vertices / texture coordinates / triangles / GL
 * commands / frames, and the offsets), triangles of 3 vertex and 3
 * texture-coordinate int16 indices, and frames of scale[3], translate[3]
 * (float32), a 16-byte name and one 4-byte packed vertex (x, y, z bytes and
 * a normal index) per vertex: position = scale * byte + translate.  The
 * quantisation step of every frame (its scale) is kept for the experiment's
 * floor.  The file is read through one capped read of a regular file; every
 * count, offset and index is checked before use. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_vanim.h"

#define MD2_MAGIC 0x32504449u   /* "IDP2" little-endian */
#define MD2_VERSION 8
#define MD2_HEADER 68
#define MD2_FRAME_HEAD 40       /* scale, translate, name */
/* the format's own limits (Quake 2 qfiles.h) */
#define MD2_MAX_VERTS 2048
#define MD2_MAX_TRIS 4096
#define MD2_MAX_FRAMES 512

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float lef(const unsigned char *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* the whole file: a regular file (checked on the open descriptor, opened
 * without blocking: a FIFO never stalls it), at most max bytes */
static int read_regular(const char *path, size_t max, unsigned char **out, size_t *len, char *msg, size_t msglen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        snprintf(msg, msglen, "%s: cannot open: %s", path, strerror(errno));
        return SKB_EIO;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(msg, msglen, "%s: not a regular file", path);
        return SKB_EINVAL;
    }
    if ((unsigned long long)st.st_size > max) {
        close(fd);
        snprintf(msg, msglen, "%s: %lld bytes, more than the limit of %zu", path, (long long)st.st_size, max);
        return SKB_EINVAL;
    }
    size_t n = (size_t)st.st_size, got = 0;
    unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
    if (!buf) {
        close(fd);
        snprintf(msg, msglen, "%s: out of memory", path);
        return SKB_ENOMEM;
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(msg, msglen, "%s: read error: %s", path, r < 0 ? strerror(errno) : "file shrank while read");
            free(buf);
            close(fd);
            return SKB_EIO;
        }
        got += (size_t)r;
    }
    close(fd);
    *out = buf;
    *len = n;
    return 0;
}

enum { H_MAGIC, H_VERSION, H_SKINW, H_SKINH, H_FRAMESIZE, H_NSKINS, H_NXYZ, H_NST, H_NTRIS, H_NGLCMDS, H_NFRAMES,
       H_OFS_SKINS, H_OFS_ST, H_OFS_TRIS, H_OFS_FRAMES, H_OFS_GLCMDS, H_OFS_END, H_COUNT };

/* header fields a reader needs, checked: one line naming the field */
static int check_header(const char *path, const int32_t *h, size_t len, char *msg, size_t msglen)
{
    if ((uint32_t)h[H_MAGIC] != MD2_MAGIC) {
        snprintf(msg, msglen, "%s: not an MD2 file (magic 0x%08x, expected \"IDP2\")", path, (unsigned)h[H_MAGIC]);
        return SKB_EPARSE;
    }
    if (h[H_VERSION] != MD2_VERSION) {
        snprintf(msg, msglen, "%s: MD2 version %d, expected %d", path, (int)h[H_VERSION], MD2_VERSION);
        return SKB_EPARSE;
    }
    if (h[H_NFRAMES] < 1 || h[H_NFRAMES] > MD2_MAX_FRAMES) {
        snprintf(msg, msglen, "%s: num_frames %d: %s (a vertex animation needs 1 to %d)", path, (int)h[H_NFRAMES],
                 h[H_NFRAMES] < 1 ? "no frames" : "too many", MD2_MAX_FRAMES);
        return SKB_EPARSE;
    }
    if (h[H_NXYZ] < 1 || h[H_NXYZ] > MD2_MAX_VERTS) {
        snprintf(msg, msglen, "%s: num_xyz %d out of range 1..%d", path, (int)h[H_NXYZ], MD2_MAX_VERTS);
        return SKB_EPARSE;
    }
    if (h[H_NTRIS] < 1 || h[H_NTRIS] > MD2_MAX_TRIS) {
        snprintf(msg, msglen, "%s: num_tris %d out of range 1..%d", path, (int)h[H_NTRIS], MD2_MAX_TRIS);
        return SKB_EPARSE;
    }
    /* every frame holds every vertex: a frame size off 40 + 4 num_xyz means
     * the frames and the header disagree on the vertex count */
    if (h[H_FRAMESIZE] != MD2_FRAME_HEAD + 4 * h[H_NXYZ]) {
        snprintf(msg, msglen, "%s: framesize %d does not match num_xyz %d (expected %d): frames hold a different vertex count",
                 path, (int)h[H_FRAMESIZE], (int)h[H_NXYZ], MD2_FRAME_HEAD + 4 * (int)h[H_NXYZ]);
        return SKB_EPARSE;
    }
    long long tris_end = (long long)h[H_OFS_TRIS] + 12LL * h[H_NTRIS];
    long long frames_end = (long long)h[H_OFS_FRAMES] + (long long)h[H_FRAMESIZE] * h[H_NFRAMES];
    if (h[H_OFS_TRIS] < MD2_HEADER || tris_end > (long long)len) {
        snprintf(msg, msglen, "%s: truncated: triangles at %d..%lld, file has %zu bytes", path, (int)h[H_OFS_TRIS],
                 tris_end, len);
        return SKB_EPARSE;
    }
    if (h[H_OFS_FRAMES] < MD2_HEADER || frames_end > (long long)len) {
        snprintf(msg, msglen, "%s: truncated: %d frames at %d..%lld, file has %zu bytes", path, (int)h[H_NFRAMES],
                 (int)h[H_OFS_FRAMES], frames_end, len);
        return SKB_EPARSE;
    }
    return 0;
}

static int unpack(const char *path, const unsigned char *buf, const int32_t *h, int nframes, struct skb_vanim *v,
                  char *msg, size_t msglen)
{
    int nv = h[H_NXYZ];
    for (int t = 0; t < h[H_NTRIS]; t++) {
        const unsigned char *p = buf + h[H_OFS_TRIS] + 12 * t;
        for (int k = 0; k < 3; k++) {
            int idx = (int)(uint16_t)(p[2 * k] | p[2 * k + 1] << 8);
            if (idx >= nv) {
                snprintf(msg, msglen, "%s: triangle %d: vertex index %d out of range (num_xyz %d)", path, t, idx, nv);
                return SKB_EPARSE;
            }
            v->tris[3 * t + k] = idx;
        }
    }
    for (int f = 0; f < nframes; f++) {
        const unsigned char *p = buf + h[H_OFS_FRAMES] + (size_t)h[H_FRAMESIZE] * (size_t)f;
        double s[3], tr[3], *out = v->pos + 3 * (size_t)nv * (size_t)f;
        for (int i = 0; i < 3; i++) {
            s[i] = lef(p + 4 * i);
            tr[i] = lef(p + 12 + 4 * i);
            if (!(s[i] == s[i] && tr[i] == tr[i]) || s[i] < 0 || s[i] > 1e6 || tr[i] < -1e9 || tr[i] > 1e9) {
                snprintf(msg, msglen, "%s: frame %d: %s[%d] = %g is not a finite, sane number", path, f,
                         s[i] < 0 || s[i] > 1e6 || s[i] != s[i] ? "scale" : "translate", i,
                         s[i] < 0 || s[i] > 1e6 || s[i] != s[i] ? s[i] : tr[i]);
                return SKB_EPARSE;
            }
            v->qstep[3 * f + i] = s[i];
        }
        for (int k = 0; k < nv; k++)
            for (int i = 0; i < 3; i++)
                out[3 * k + i] = s[i] * p[MD2_FRAME_HEAD + 4 * k + i] + tr[i];
    }
    return 0;
}

int skb_vanim_md2(const char *path, int max_frames, struct skb_vanim *out, char *msg, size_t msglen)
{
    unsigned char *buf;
    size_t len;
    int32_t h[H_COUNT];
    memset(out, 0, sizeof *out);
    int rc = read_regular(path, SKB_MD2_MAX_BYTES, &buf, &len, msg, msglen);
    if (rc < 0)
        return rc;
    if (len < MD2_HEADER) {
        snprintf(msg, msglen, "%s: truncated: %zu bytes, an MD2 header needs %d", path, len, MD2_HEADER);
        free(buf);
        return SKB_EPARSE;
    }
    for (int i = 0; i < H_COUNT; i++)
        h[i] = (int32_t)le32(buf + 4 * i);
    if ((rc = check_header(path, h, len, msg, msglen)) < 0) {
        free(buf);
        return rc;
    }
    int nframes = max_frames > 0 && max_frames < h[H_NFRAMES] ? max_frames : h[H_NFRAMES];
    if ((rc = skb_vanim_alloc(out, h[H_NXYZ], h[H_NTRIS], nframes)) < 0
        || !(out->qstep = (double *)malloc(sizeof(double) * 3 * (size_t)nframes))) {
        snprintf(msg, msglen, "%s: out of memory", path);
        free(buf);
        skb_vanim_free(out);
        return SKB_ENOMEM;
    }
    if ((rc = unpack(path, buf, h, nframes, out, msg, msglen)) < 0) {
        free(buf);
        skb_vanim_free(out);
        return rc;
    }
    free(buf);
    const char *base = strrchr(path, '/');
    snprintf(out->name, sizeof out->name, "%.63s", base ? base + 1 : path);
    char *dot = strrchr(out->name, '.');
    if (dot)
        *dot = 0;
    snprintf(out->source, sizeof out->source, "%.200s: MD2, %d of %d frames", path, nframes, (int)h[H_NFRAMES]);
    memcpy(out->rest, out->pos, sizeof(double) * 3 * (size_t)out->nverts);   /* rest = keyframe 0 (thesis ch. 7) */
    skb_vanim_normals(out, out->rest, out->rest_nrm);
    for (int f = 0; f < nframes; f++)
        skb_vanim_normals(out, out->pos + 3 * (size_t)out->nverts * (size_t)f,
                          out->nrm + 3 * (size_t)out->nverts * (size_t)f);
    return 0;
}
