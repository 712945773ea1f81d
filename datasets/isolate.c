/* isolate.c — import an untrusted model file in a forked child with memory
 * and CPU limits (assimp 5.2.5 has known crashers and unpatched CVEs, see
 * ../shared/TOOLCHAIN.md); the dataset comes back over a pipe, so a crash, a runaway
 * allocation or a hang costs one clear error line, never the caller. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/landlock.h>
#include "skb_dataset.h"
#include "dataset_util.h"
#include "skb_timing.h"

#define CHILD_MEMORY_BYTES (2ULL << 30)  /* address-space limit of the importer */
#define CHILD_CPU_SECONDS  30            /* RLIMIT_CPU: SIGXCPU after this */
#define CHILD_WALL_SECONDS 60            /* the parent kills a child that sleeps or blocks */

#if defined(__SANITIZE_ADDRESS__)
#define SKB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SKB_ASAN 1
#endif
#endif

struct wire_header {
    int32_t rc;
    int32_t nverts, ntris, njoints, nposes, has_scales;
    int32_t renormalized, truncated, unweighted, orthonormalized, has_neck, neck;
    double max_rigid_error;
    char name[128], source[512], clip[64], neck_name[64], msg[512];
};

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = (const char *)p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* the kernel's wall behind the importer's own file-system hook
 * (model_import.c): with Landlock (Linux >= 5.13) the child may read only
 * below the model's folder and write nowhere, whatever assimp does; where
 * the kernel lacks it the hook alone applies (docs/security.md "Security") */
static int landlock_confine(const char *path)
{
#ifdef SYS_landlock_create_ruleset
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    char *slash = strrchr(real, '/');
    if (slash)
        slash == real ? (void)(real[1] = 0) : (void)(*slash = 0);
    int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return -1;
    struct landlock_ruleset_attr ra = { 0 };
    ra.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE
                           | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR
                           | LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR
                           | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG
                           | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO
                           | LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2)
        ra.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3)
        ra.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    int rfd = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0);
    if (rfd < 0)
        return -1;
    struct landlock_path_beneath_attr pb = { 0 };
    pb.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    pb.parent_fd = open(real, O_PATH | O_CLOEXEC | O_DIRECTORY);
    int ok = pb.parent_fd >= 0 && syscall(SYS_landlock_add_rule, rfd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == 0
             && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, rfd, 0) == 0;
    if (pb.parent_fd >= 0)
        close(pb.parent_fd);
    close(rfd);
    return ok ? 0 : -1;
#else
    (void)path;
    return -1;
#endif
}

static void child_main(int fd, const char *path, const struct skb__import_opts *io, skb__importer import)
{
    struct wire_header h;
    struct skb_dataset d;
    struct rlimit cpu = { CHILD_CPU_SECONDS, CHILD_CPU_SECONDS + 1 };
    /* a crash must end the child by its signal (the caller's handlers,
     * e.g. a test runner's, would turn it into an ordinary exit) */
    static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGXCPU };
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        signal(crash_signals[i], SIG_DFL);
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef SKB_ASAN
    /* ASan reserves terabytes of shadow address space: no AS limit there */
    struct rlimit mem = { CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES };
    setrlimit(RLIMIT_AS, &mem);
#endif
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {                  /* importers print; the CLI prints one line */
        dup2(devnull, 1);
        dup2(devnull, 2);
    }
    memset(&h, 0, sizeof h);
    landlock_confine(path);
    h.rc = import(path, io, &d, h.msg, sizeof h.msg);
    if (h.rc == 0) {
        const struct skb_mesh *m = &d.mesh;
        h.nverts = m->nverts; h.ntris = m->ntris; h.njoints = m->njoints; h.nposes = d.nposes;
        h.has_scales = d.scales != NULL;
        h.renormalized = d.renormalized; h.truncated = d.truncated; h.unweighted = d.unweighted;
        h.orthonormalized = d.orthonormalized; h.max_rigid_error = d.max_rigid_error;
        h.has_neck = d.has_neck; h.neck = d.neck;
        memcpy(h.neck_name, d.neck_name, sizeof h.neck_name);
        memcpy(h.name, d.name, sizeof h.name);
        memcpy(h.source, d.source, sizeof h.source);
        memcpy(h.clip, d.clip, sizeof h.clip);
        size_t nv = (size_t)m->nverts, np = (size_t)16 * m->njoints * d.nposes;
        if (write_all(fd, &h, sizeof h) < 0
            || write_all(fd, m->pos, 3 * nv * sizeof *m->pos) < 0
            || write_all(fd, m->nrm, 3 * nv * sizeof *m->nrm) < 0
            || write_all(fd, m->tris, 3 * (size_t)m->ntris * sizeof *m->tris) < 0
            || write_all(fd, m->joint, 4 * nv * sizeof *m->joint) < 0
            || write_all(fd, m->weight, 4 * nv * sizeof *m->weight) < 0
            || write_all(fd, m->parent, (size_t)m->njoints * sizeof *m->parent) < 0
            || write_all(fd, m->joint_rest, 3 * (size_t)m->njoints * sizeof *m->joint_rest) < 0
            || write_all(fd, d.poses, np * sizeof *d.poses) < 0
            || (d.scales && write_all(fd, d.scales, np * sizeof *d.scales) < 0))
            _exit(3);
    } else if (write_all(fd, &h, sizeof h) < 0) {
        _exit(3);
    }
    _exit(h.rc == 0 ? 0 : 1);
}

/* read until EOF or the wall-clock deadline */
static int read_all(int fd, pid_t pid, char **buf, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    if (!b)
        return SKB_ENOMEM;
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        int left = CHILD_WALL_SECONDS * 1000 - (int)(skb_clock_ms(SKB_CLOCK_WALL) - t0);
        int pr = left > 0 ? poll(&p, 1, left) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0) {
            kill(pid, SIGKILL);
            free(b);
            return SKB_EIO;
        }
        if (n == cap) {
            char *nb = realloc(b, 2 * cap);
            if (!nb) {
                kill(pid, SIGKILL);
                free(b);
                return SKB_ENOMEM;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    *buf = b;
    *len = n;
    return 0;
}

static int take(const char **p, const char *end, void *dst, size_t n)
{
    if ((size_t)(end - *p) < n)
        return -1;
    memcpy(dst, *p, n);
    *p += n;
    return 0;
}

static int decode(const char *buf, size_t len, const char *path, struct skb_dataset *d, char *msg, size_t msglen)
{
    struct wire_header h;
    const char *p = buf, *end = buf + len;
    if (take(&p, end, &h, sizeof h) < 0)
        return 1;   /* no header: the child died */
    h.msg[sizeof h.msg - 1] = 0;
    if (h.rc < 0) {
        snprintf(msg, msglen, "%s", h.msg);
        return h.rc;
    }
    if (h.nverts < 0 || h.ntris < 0 || h.njoints < 1 || h.nposes < 0
        || skb_dataset_alloc(d, h.nverts, h.ntris, h.njoints, h.nposes) < 0) {
        snprintf(msg, msglen, "%s: importer returned an unusable model", path);
        return SKB_EPARSE;
    }
    struct skb_mesh *m = &d->mesh;
    size_t nv = (size_t)h.nverts, np = (size_t)16 * h.njoints * h.nposes;
    if (h.has_scales && !(d->scales = calloc(np + 1, sizeof *d->scales))) {
        skb_dataset_free(d);
        snprintf(msg, msglen, "%s: out of memory", path);
        return SKB_ENOMEM;
    }
    if (take(&p, end, m->pos, 3 * nv * sizeof *m->pos) < 0
        || take(&p, end, m->nrm, 3 * nv * sizeof *m->nrm) < 0
        || take(&p, end, m->tris, 3 * (size_t)h.ntris * sizeof *m->tris) < 0
        || take(&p, end, m->joint, 4 * nv * sizeof *m->joint) < 0
        || take(&p, end, m->weight, 4 * nv * sizeof *m->weight) < 0
        || take(&p, end, m->parent, (size_t)h.njoints * sizeof *m->parent) < 0
        || take(&p, end, m->joint_rest, 3 * (size_t)h.njoints * sizeof *m->joint_rest) < 0
        || take(&p, end, d->poses, np * sizeof *d->poses) < 0
        || (h.has_scales && take(&p, end, d->scales, np * sizeof *d->scales) < 0)) {
        skb_dataset_free(d);
        return 1;   /* truncated: the child died while writing */
    }
    d->renormalized = h.renormalized; d->truncated = h.truncated; d->unweighted = h.unweighted;
    d->orthonormalized = h.orthonormalized; d->max_rigid_error = h.max_rigid_error;
    /* a neck index from the child is checked like the rest of its data */
    d->has_neck = h.has_neck && h.neck >= 0 && h.neck < h.njoints;
    d->neck = d->has_neck ? h.neck : 0;
    memcpy(d->neck_name, h.neck_name, sizeof d->neck_name);
    d->neck_name[sizeof d->neck_name - 1] = 0;
    memcpy(d->name, h.name, sizeof d->name);
    memcpy(d->source, h.source, sizeof d->source);
    memcpy(d->clip, h.clip, sizeof d->clip);
    d->name[sizeof d->name - 1] = 0;
    d->source[sizeof d->source - 1] = 0;
    d->clip[sizeof d->clip - 1] = 0;
    return 0;
}

int skb__import_isolated(const char *path, const struct skb__import_opts *io, skb__importer import,
                         struct skb_dataset *d, char *msg, size_t msglen)
{
    int fds[2], status = 0, rc;
    char *buf = NULL;
    size_t len = 0;
    memset(d, 0, sizeof *d);
    if (pipe(fds) < 0) {
        snprintf(msg, msglen, "%s: cannot create a pipe for the importer: %s", path, strerror(errno));
        return SKB_EIO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(msg, msglen, "%s: cannot start the importer process: %s", path, strerror(errno));
        return SKB_EIO;
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(fds[1], path, io, import);
    }
    close(fds[1]);
    rc = read_all(fds[0], pid, &buf, &len);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (rc == SKB_EIO) {
        snprintf(msg, msglen, "%s: importer exceeded its %d s time limit and was stopped", path, CHILD_WALL_SECONDS);
        return SKB_EIO;
    }
    if (rc < 0) {
        snprintf(msg, msglen, "%s: out of memory reading the imported model", path);
        return rc;
    }
    rc = decode(buf, len, path, d, msg, msglen);
    free(buf);
    if (rc <= 0 && WIFEXITED(status))
        return rc;
    skb_dataset_free(d);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        snprintf(msg, msglen, "%s: the importer crashed on this file (signal %d, %s)%s", path, sig,
                 strsignal(sig), sig == SIGXCPU ? "; CPU time limit reached" : "");
    } else {
        snprintf(msg, msglen, "%s: the importer failed on this file (exit status %d, no result)", path,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return SKB_EIO;
}
