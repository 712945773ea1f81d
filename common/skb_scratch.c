/* skb_scratch.c — scratch directories of one process under $TMPDIR (callgrind
 * output, the counted child's run) and the reaper of a killed process's.
 * Why a proof before removal: $TMPDIR is shared, and a name such as
 * skb-icount-<dead pid>-x can be planted by anyone as a link to a folder the
 * reaper may write; only what this user's skinbench made, with its marker
 * inside, is removed, and removal never follows a link (docs/security.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_error.h"
#include "skb_scratch.h"

/* a scratch tree is a few levels deep; deeper is not ours */
#define SCRATCH_MAX_DEPTH 8

const char *skb_scratch_base(void)
{
    const char *t = getenv("TMPDIR");
    return t && t[0] == '/' ? t : "/tmp";
}

/* what the marker of the directory NAME holds: it names the directory, so
 * a marker copied into another folder proves nothing there */
static int marker_text(const char *name, char *buf, size_t len)
{
    return snprintf(buf, len, "skinbench scratch %s uid %ld\n", name, (long)geteuid()) < (int)len ? 0 : -1;
}

int skb_scratch_make(const char *kind, char *dir, size_t len, char *msg, size_t msglen)
{
    char text[PATH_MAX + 64];
    if ((size_t)snprintf(dir, len, "%s/skb-%s-%ld-XXXXXX", skb_scratch_base(), kind, (long)getpid()) >= len) {
        snprintf(msg, msglen, "%s: path too long for a scratch directory", skb_scratch_base());
        return SKB_EINVAL;
    }
    /* mkdtemp: a new directory of mode 0700, never an existing one */
    if (!mkdtemp(dir)) {
        snprintf(msg, msglen, "%s: cannot create a scratch directory: %s", skb_scratch_base(), strerror(errno));
        return SKB_EIO;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int fd = dfd >= 0 ? openat(dfd, SKB_SCRATCH_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    int ok = fd >= 0 && marker_text(strrchr(dir, '/') + 1, text, sizeof text) == 0
             && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    int err = errno;
    if (fd >= 0)
        close(fd);
    if (dfd >= 0)
        close(dfd);
    if (!ok) {
        snprintf(msg, msglen, "%s: cannot write its marker: %s", dir, strerror(err));
        skb_scratch_remove(dir);
        return SKB_EIO;
    }
    return 0;
}

/* everything inside the directory dfd, removed without following a link;
 * 0, or -1 when something stayed */
static int empty_dir(int dfd, int depth)
{
    DIR *d = fdopendir(dfd);
    struct dirent *e;
    int rc = 0;
    if (!d) {
        close(dfd);
        return -1;
    }
    while ((e = readdir(d))) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = -1;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            int sub = depth < SCRATCH_MAX_DEPTH
                          ? openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
            if (sub < 0 || empty_dir(sub, depth + 1) < 0 || unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) != 0)
                rc = -1;
        } else if (unlinkat(dirfd(d), e->d_name, 0) != 0) {   /* a link: the link itself */
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

int skb_scratch_remove(const char *dir)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return -1;
    int rc = empty_dir(dfd, 0);
    return rmdir(dir) == 0 && rc == 0 ? 0 : -1;
}

/* the pid in skb-KIND-PID-XXXXXX when NAME has that form, else 0 */
static long name_pid(const char *name, const char *kind)
{
    char pre[64], *end;
    size_t n = (size_t)snprintf(pre, sizeof pre, "skb-%s-", kind);
    if (n >= sizeof pre || strncmp(name, pre, n) != 0)
        return 0;
    long pid = strtol(name + n, &end, 10);
    return pid > 0 && end != name + n && *end == '-' && strlen(end + 1) == 6 ? pid : 0;
}

/* 1 when the directory NAME below base (dfd opened on it, st its lstat)
 * carries this user's marker naming it */
static int proven_ours(int dfd, const char *name, const struct stat *st)
{
    struct stat fs, ms;
    char want[PATH_MAX + 64], got[PATH_MAX + 64];
    if (!S_ISDIR(st->st_mode) || st->st_uid != geteuid() || (st->st_mode & 07777) != 0700)
        return 0;
    /* the directory opened is the one looked at (not swapped in between) */
    if (fstat(dfd, &fs) != 0 || fs.st_dev != st->st_dev || fs.st_ino != st->st_ino)
        return 0;
    int fd = openat(dfd, SKB_SCRATCH_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = fstat(fd, &ms) == 0 && S_ISREG(ms.st_mode) && ms.st_uid == geteuid() ? read(fd, got, sizeof got - 1)
                                                                                        : -1;
    close(fd);
    if (n < 0 || marker_text(name, want, sizeof want) < 0)
        return 0;
    got[n] = 0;
    return strcmp(got, want) == 0;
}

int skb_scratch_reap(const char *kind)
{
    int bfd = open(skb_scratch_base(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0;
    DIR *d = bfd >= 0 ? fdopendir(bfd) : NULL;
    struct dirent *e;
    if (!d) {
        if (bfd >= 0)
            close(bfd);
        return 0;
    }
    while ((e = readdir(d))) {
        long pid = name_pid(e->d_name, kind);
        struct stat st;
        /* a live pid (or one this user may not signal) keeps its directory */
        if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH
            || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
            continue;
        int dfd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0)
            continue;
        if (!proven_ours(dfd, e->d_name, &st)) {
            close(dfd);
            continue;
        }
        if (empty_dir(dfd, 0) == 0 && unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0)
            n++;
    }
    closedir(d);
    return n;
}
