/* skb_paths.c — paths below a directory the user gave, walked one component
 * at a time without following symbolic links: a link planted at RUN/plots,
 * OUT/counterexamples or RUN/images must carry neither writes nor reads
 * outside the root (docs/security.md "Security").  skb_mkdirs_below is the
 * writing half (directories created or entered), skb_open_below and its
 * two wrappers the reading half. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "skb_json.h"

/* why comp (below dirfd, shown as `shown`) could not be entered: msg, and
 * errno ELOOP for a link, else err */
static void below_error(int dirfd, const char *comp, const char *shown, int err, const char *what, char *msg,
                        size_t msglen)
{
    struct stat st;
    int link = fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
    snprintf(msg, msglen, "%s: %s; %s", shown,
             link ? "is a symbolic link" : err == ENOTDIR ? "is not a directory" : strerror(err), what);
    errno = link ? ELOOP : err;
}

/* enter the directory comp below dirfd (creating it first when create);
 * never through a link: O_NOFOLLOW | O_DIRECTORY fails on a link or a
 * non-directory */
static int enter(int dirfd, const char *comp, int create, const char *shown, const char *what, char *msg,
                 size_t msglen)
{
    if (create && mkdirat(dirfd, comp, 0755) != 0 && errno != EEXIST) {
        snprintf(msg, msglen, "%s: cannot create directory: %s", shown, strerror(errno));
        return -1;
    }
    int fd = openat(dirfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        below_error(dirfd, comp, shown, errno, what, msg, msglen);
    return fd;
}

/* the walk both halves share: root opened (followed: the user named it),
 * then every component of rel but the last entered with enter(); returns
 * the directory holding the last component and points *last at it (in buf),
 * or enters every component (*last = NULL) when all is set.  shown gets
 * root/rel up to where the walk is, for messages. */
struct walk {
    char buf[4096], shown[4600];
    const char *last;
    int create, all;
    const char *what;   /* the rule named in an error */
};

static int walk_below(const char *root, const char *rel, struct walk *w, char *msg, size_t msglen)
{
    if (!rel || rel[0] == '/' || (size_t)snprintf(w->buf, sizeof w->buf, "%s", rel) >= sizeof w->buf) {
        snprintf(msg, msglen, "%s/%s: not a relative path below the directory", root, rel ? rel : "");
        return SKB_EINVAL;
    }
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, msglen, "%s: cannot open directory: %s", root, strerror(errno));
        return SKB_EIO;
    }
    size_t off = (size_t)snprintf(w->shown, sizeof w->shown, "%s", root);
    char *save = NULL, *next;
    w->last = NULL;
    for (char *c = strtok_r(w->buf, "/", &save); c; c = next) {
        next = strtok_r(NULL, "/", &save);
        if (strcmp(c, "..") == 0) {
            close(fd);
            snprintf(msg, msglen, "%s/%s: '..' is not allowed below the directory", root, rel);
            return SKB_EINVAL;
        }
        if (off < sizeof w->shown && strcmp(c, ".") != 0)
            off += (size_t)snprintf(w->shown + off, sizeof w->shown - off, "/%s", c);
        if (!next && !w->all) {
            w->last = c;
            return fd;
        }
        if (strcmp(c, ".") == 0)
            continue;
        int nfd = enter(fd, c, w->create, w->shown, w->what, msg, msglen), err = errno;
        close(fd);
        if (nfd < 0) {
            /* a link or a file on the way is named where it is; anything
             * else (a directory missing) names the whole path, as open would */
            if (!w->create && err != ELOOP && err != ENOTDIR)
                snprintf(msg, msglen, "%s/%s: cannot open: %s", root, rel, strerror(err));
            errno = err;
            return SKB_EINVAL;
        }
        fd = nfd;
    }
    if (!w->all) {   /* rel was empty or only slashes: no file named */
        close(fd);
        snprintf(msg, msglen, "%s/%s: names no file below the directory", root, rel);
        return SKB_EINVAL;
    }
    return fd;
}

int skb_mkdirs_below(const char *root, const char *sub, char *msg, size_t msglen)
{
    struct walk w = { .create = 1, .all = 1, .what = "refusing to write through it (outputs stay below the output "
                                                     "directory)" };
    int rc = skb_mkdirs(root, msg, msglen);
    if (rc < 0)
        return rc;
    int fd = walk_below(root, sub, &w, msg, msglen);
    if (fd < 0)
        return fd;
    close(fd);
    return 0;
}

int skb_mkdirs_in(const char *root, const char *dir, char *msg, size_t msglen)
{
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (strncmp(dir, root, n) != 0 || (dir[n] != '/' && dir[n] != 0))
        return skb_mkdirs(dir, msg, msglen);
    char r[4096];
    if (n >= sizeof r) {
        snprintf(msg, msglen, "%s: path too long", root);
        return SKB_EINVAL;
    }
    memcpy(r, root, n);
    r[n] = 0;
    return skb_mkdirs_below(r, dir[n] ? dir + n + 1 : "", msg, msglen);
}

/* the rule a refused read names */
#define READ_RULE "not followed (what is read below a given directory never goes through a link)"

int skb_open_below(const char *root, const char *rel, int want_dir, char *msg, size_t msglen)
{
    struct walk *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(msg, msglen, "%s/%s: out of memory", root, rel);
        return SKB_ENOMEM;
    }
    w->what = READ_RULE;
    int dfd = walk_below(root, rel, w, msg, msglen), fd = -1;
    struct stat st;
    if (dfd < 0) {
        free(w);
        return dfd;
    }
    /* look before opening: a FIFO would block, a device node could hand
     * out bytes without end or act on the open itself */
    int rc = fstatat(dfd, w->last, &st, AT_SYMLINK_NOFOLLOW) != 0 ? SKB_EIO : 0;
    if (rc < 0)
        snprintf(msg, msglen, "%s: cannot open: %s", w->shown, strerror(errno));
    else if (S_ISLNK(st.st_mode) || (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
        snprintf(msg, msglen, "%s: is a %s, not a %s; %s", w->shown, skb__file_kind(st.st_mode),
                 want_dir ? "directory" : "regular file", S_ISLNK(st.st_mode) ? READ_RULE : "refusing to read it");
        rc = SKB_EINVAL;
    } else if ((fd = openat(dfd, w->last, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC
                                              | (want_dir ? O_DIRECTORY : 0))) < 0) {
        snprintf(msg, msglen, "%s: cannot open: %s", w->shown, strerror(errno));
        rc = SKB_EIO;
    } else if (fstat(fd, &st) != 0 || (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
        /* swapped between the look and the open */
        snprintf(msg, msglen, "%s: changed while being opened; refusing to read it", w->shown);
        close(fd);
        rc = SKB_EINVAL;
    }
    close(dfd);
    free(w);
    return rc < 0 ? rc : fd;
}

int skb_read_below(const char *root, const char *rel, size_t max, char **out, size_t *len, char *msg, size_t msglen)
{
    int fd = skb_open_below(root, rel, 0, msg, msglen);
    if (fd < 0)
        return fd;
    char shown[4600];
    snprintf(shown, sizeof shown, "%s/%s", root, rel);
    int rc = skb__read_regular(fd, shown, max, out, len, msg, msglen);
    close(fd);
    return rc;
}

int skb_json_read_below(const char *root, const char *rel, cJSON **out, char *msg, size_t msglen)
{
    char *text, shown[1200];
    size_t len;
    int rc = skb_read_below(root, rel, 0, &text, &len, msg, msglen);
    if (rc < 0)
        return rc;
    snprintf(shown, sizeof shown, "%s/%s", root, rel);
    rc = skb_json_parse_text(shown, text, len, 0, out, msg, msglen);
    free(text);
    return rc;
}

int skb_stat_below(const char *root, const char *rel, struct stat *st)
{
    struct walk *w = calloc(1, sizeof *w);
    char msg[64];
    if (!w) {
        errno = ENOMEM;
        return -1;
    }
    w->what = READ_RULE;
    int dfd = walk_below(root, rel, w, msg, sizeof msg), rc = -1;
    if (dfd >= 0) {
        rc = fstatat(dfd, w->last, st, AT_SYMLINK_NOFOLLOW);
        int err = errno;
        close(dfd);
        errno = err;
    }   /* else errno says why the walk stopped (ELOOP: a link on the way) */
    free(w);
    return rc;
}

/* the kernel's own file systems: what is written there is not a file */
static const char *kernel_fs(long type)
{
    switch (type) {
    case PROC_SUPER_MAGIC: return "proc";
    case SYSFS_MAGIC: return "sysfs";
    case DEVPTS_SUPER_MAGIC: return "devpts";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case CGROUP_SUPER_MAGIC: return "cgroup";
    case CGROUP2_SUPER_MAGIC: return "cgroup2";
    case BPF_FS_MAGIC: return "bpf";
    default: return NULL;
    }
}

/* the first device node in the directory dir, into name; 0 when none */
static int device_node(const char *dir, char *name, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        struct stat st;
        if (e->d_type == DT_CHR || e->d_type == DT_BLK
            || (e->d_type == DT_UNKNOWN && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
                && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))) {
            snprintf(name, len, "%s", e->d_name);
            found = 1;
        }
    }
    if (d)
        closedir(d);
    return found;
}

int skb_output_dir_check(const char *dir, char *msg, size_t msglen)
{
    char p[4096], dev[256];
    struct stat st;
    struct statfs fs;
    if (!dir[0] || (size_t)snprintf(p, sizeof p, "%s", dir) >= sizeof p) {
        snprintf(msg, msglen, "'%.200s': %s", dir, dir[0] ? "path too long" : "empty directory name");
        return SKB_EINVAL;
    }
    /* the nearest directory that exists: --out /dev/new would be made there */
    while (stat(p, &st) != 0) {
        char *slash = strrchr(p, '/');
        if (!slash)
            snprintf(p, sizeof p, ".");
        else
            slash[slash == p] = 0;   /* "/x" -> "/", "a/b" -> "a" */
        if (!slash || strcmp(p, "/") == 0)
            break;
    }
    if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;   /* creating it says what is wrong */
    const char *k = statfs(p, &fs) == 0 ? kernel_fs((long)fs.f_type) : NULL;
    if (k) {
        snprintf(msg, msglen, "%s: %s%s is on the kernel's %s file system, not a place for outputs", dir,
                 strcmp(p, dir) ? "its parent " : "", strcmp(p, dir) ? p : "it", k);
        return SKB_EINVAL;
    }
    if (device_node(p, dev, sizeof dev)) {
        snprintf(msg, msglen, "%s: %s%s holds device nodes (%s), not a place for outputs", dir,
                 strcmp(p, dir) ? "its parent " : "", strcmp(p, dir) ? p : "it", dev);
        return SKB_EINVAL;
    }
    return 0;
}
