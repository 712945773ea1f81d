/* baseline_copy.c — the baseline update of compare (--update-baseline,
 * docs/report-and-regression.md "Nightly regression"): the run is copied to a temporary sibling of
 * the baseline, then renamed over it, so a reader sees the old baseline or
 * the new one, never a mixture. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_error.h"
#include "skb_regress.h"


static int copy_file(const char *from, const char *to, char *msg, size_t msglen)
{
    char *buf;
    size_t n;
    int rc = skb_read_input(from, 0, SKB_IN_NOFOLLOW, &buf, &n, msg, msglen);
    if (rc < 0)
        return rc;
    /* fsync each file before the swap: a power cut after the rename must
     * not leave an empty baseline file */
    int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    size_t done = 0;
    while (fd >= 0 && done < n) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = fd >= 0 && done == n && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    free(buf);
    if (!ok) {
        snprintf(msg, msglen, "%s: cannot write: %s", to, strerror(errno));
        return SKB_EIO;
    }
    return 0;
}

static void fsync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* a baseline is a results tree a few levels deep; anything deeper is a
 * loop or not a results directory */
#define COPY_TREE_MAX_DEPTH 16

/* a symbolic link is copied as a link (never followed: a loop in the run
 * directory must not recurse, and a link's target is not part of the run) */
static int copy_link(const char *from, const char *to, char *msg, size_t msglen)
{
    char target[4096];
    ssize_t n = readlink(from, target, sizeof target - 1);
    if (n < 0) {
        snprintf(msg, msglen, "%s: cannot read symbolic link: %s", from, strerror(errno));
        return SKB_EIO;
    }
    target[n] = 0;
    if (symlink(target, to) != 0) {
        snprintf(msg, msglen, "%s: cannot create symbolic link: %s", to, strerror(errno));
        return SKB_EIO;
    }
    return 0;
}

static int copy_tree(const char *from, const char *to, int depth, char *msg, size_t msglen);

static int copy_entry(const char *a, const char *b, int depth, char *msg, size_t msglen)
{
    struct stat st;
    if (lstat(a, &st) != 0) {
        snprintf(msg, msglen, "%s: cannot stat: %s", a, strerror(errno));
        return SKB_EIO;
    }
    if (S_ISLNK(st.st_mode))
        return copy_link(a, b, msg, msglen);
    if (S_ISDIR(st.st_mode))
        return copy_tree(a, b, depth + 1, msg, msglen);
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a regular file, directory or symbolic link; refusing to copy it "
                 "into the baseline", a);
        return SKB_EINVAL;
    }
    return copy_file(a, b, msg, msglen);
}

static int copy_tree(const char *from, const char *to, int depth, char *msg, size_t msglen)
{
    if (depth > COPY_TREE_MAX_DEPTH) {
        snprintf(msg, msglen, "%s: more than %d directory levels; not a results directory", from,
                 COPY_TREE_MAX_DEPTH);
        return SKB_EINVAL;
    }
    DIR *d = opendir(from);
    int rc = 0;
    if (!d) {
        snprintf(msg, msglen, "%s: cannot open: %s", from, strerror(errno));
        return SKB_EIO;
    }
    if (mkdir(to, 0755) != 0) {
        closedir(d);
        snprintf(msg, msglen, "%s: cannot create: %s", to, strerror(errno));
        return SKB_EIO;
    }
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        char a[2048], b[2048];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if ((size_t)snprintf(a, sizeof a, "%s/%s", from, e->d_name) >= sizeof a
            || (size_t)snprintf(b, sizeof b, "%s/%s", to, e->d_name) >= sizeof b) {
            snprintf(msg, msglen, "%s/%.64s...: path too long", from, e->d_name);
            rc = SKB_EINVAL;
            break;
        }
        rc = copy_entry(a, b, depth, msg, msglen);
    }
    closedir(d);
    if (rc == 0)
        fsync_dir(to);
    return rc;
}

/* the absolute path of p, resolving symbolic links; p itself may not exist yet */
static int abs_path(const char *p, char *out, size_t outlen)
{
    char buf[PATH_MAX], dir[PATH_MAX];
    if (realpath(p, buf)) {
        snprintf(out, outlen, "%s", buf);
        return 0;
    }
    snprintf(dir, sizeof dir, "%s", p);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = 0;
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : dir;
    const char *parent = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
    if (!realpath(parent, buf))
        return -1;
    if ((size_t)snprintf(out, outlen, "%s/%s", strcmp(buf, "/") ? buf : "", base) >= outlen)
        return -1;
    return 0;
}

/* a inside b, or the same directory */
static int path_within(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (n == 1 && b[0] == '/')
        return 1;
    return strncmp(a, b, n) == 0 && (a[n] == 0 || a[n] == '/');
}

/* refuse to copy a run into a baseline inside it, or a baseline into
 * itself: each copy would contain the last one */
static int check_nesting(const char *src, const char *dst, char *msg, size_t msglen)
{
    char as[PATH_MAX], ad[PATH_MAX];
    if (abs_path(src, as, sizeof as) < 0 || abs_path(dst, ad, sizeof ad) < 0) {
        snprintf(msg, msglen, "%s, %s: cannot resolve path: %s", src, dst, strerror(errno));
        return SKB_EIO;
    }
    if (path_within(ad, as) || path_within(as, ad)) {
        snprintf(msg, msglen, "baseline %s and current run %s are the same directory or one is inside the other; "
                 "refusing to update the baseline", dst, src);
        return SKB_EINVAL;
    }
    return 0;
}

/* remove name below dirfd and everything in it, never through a link: a
 * link (or anything not a directory) is unlinked itself, so a linked
 * baseline or staging name can never empty its target */
static void remove_at(int dirfd, const char *name, int depth)
{
    int fd = depth > COPY_TREE_MAX_DEPTH + 4 ? -1
             : openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        unlinkat(dirfd, name, 0);
        return;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            remove_at(fd, e->d_name, depth + 1);
    closedir(d);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void remove_tree(const char *path)
{
    remove_at(AT_FDCWD, path, 0);
}

/* the staging (NAME.new-PID) and old (NAME.old-PID) copies a killed
 * update left beside dst: reclaimed when process PID is gone */
static void reclaim_scratch(const char *dst)
{
    char dir[PATH_MAX], base[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", dst);
    char *slash = strrchr(dir, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : dir);
    if (slash)
        *slash = slash == dir ? (dir[1] = 0, '/') : 0;
    else
        snprintf(dir, sizeof dir, ".");
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t bl = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *t = e->d_name + bl;
        if (strncmp(e->d_name, base, bl) != 0 || (strncmp(t, ".new-", 5) != 0 && strncmp(t, ".old-", 5) != 0))
            continue;
        char *end;
        long pid = strtol(t + 5, &end, 10);
        if (*end || pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        remove_at(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

int skb_dir_replace(const char *src, const char *dst_arg, char *msg, size_t msglen)
{
    char tmp[PATH_MAX + 32], old[PATH_MAX + 32], real[PATH_MAX];
    const char *dst = dst_arg;
    struct stat st;
    /* a linked baseline: its target is updated in place (the same swap in
     * the target's own parent); the link stays and nothing is deleted
     * through it */
    if (lstat(dst_arg, &st) == 0 && S_ISLNK(st.st_mode)) {
        if (!realpath(dst_arg, real)) {
            snprintf(msg, msglen, "%s: symbolic link to a missing or unreachable baseline (%s); refusing to update "
                     "through it", dst_arg, strerror(errno));
            return SKB_EINVAL;
        }
        if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(msg, msglen, "%s: symbolic link to %s, which is not a directory; refusing to update through it",
                     dst_arg, real);
            return SKB_EINVAL;
        }
        dst = real;
    } else if (lstat(dst_arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a directory; refusing to replace it with a baseline", dst_arg);
        return SKB_EINVAL;
    }
    size_t n = strlen(dst);
    while (n > 1 && dst[n - 1] == '/')
        n--;
    snprintf(tmp, sizeof tmp, "%.*s.new-%ld", (int)n, dst, (long)getpid());
    snprintf(old, sizeof old, "%.*s.old-%ld", (int)n, dst, (long)getpid());
    char trimmed[PATH_MAX];
    snprintf(trimmed, sizeof trimmed, "%.*s", (int)n, dst);
    int rc = check_nesting(src, dst, msg, msglen);
    if (rc < 0)
        return rc;
    reclaim_scratch(trimmed);
    remove_tree(tmp);
    /* the staging directory is a sibling of dst, so check_nesting also keeps
     * it out of src: the copy never contains its own staging directory */
    rc = copy_tree(src, tmp, 0, msg, msglen);
    if (rc < 0) {
        remove_tree(tmp);
        return rc;
    }
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", trimmed);
    char *slash = strrchr(parent, '/');
    if (slash)
        slash == parent ? (void)(parent[1] = 0) : (void)(*slash = 0);
    else
        snprintf(parent, sizeof parent, ".");
    /* swap in one step where the kernel can (renameat2 RENAME_EXCHANGE);
     * otherwise the old baseline stays whole until the new one is complete */
    int had = lstat(trimmed, &st) == 0;
    if (had && renameat2(AT_FDCWD, tmp, AT_FDCWD, trimmed, RENAME_EXCHANGE) == 0) {
        fsync_dir(parent);
        remove_tree(tmp);
        return 0;
    }
    if (had && rename(trimmed, old) != 0) {
        snprintf(msg, msglen, "%s: cannot move the old baseline aside: %s", trimmed, strerror(errno));
        remove_tree(tmp);
        return SKB_EIO;
    }
    if (rename(tmp, trimmed) != 0) {
        snprintf(msg, msglen, "%s: cannot install the new baseline: %s", trimmed, strerror(errno));
        if (had)
            rename(old, trimmed);
        remove_tree(tmp);
        return SKB_EIO;
    }
    fsync_dir(parent);
    if (had)
        remove_tree(old);
    return 0;
}
