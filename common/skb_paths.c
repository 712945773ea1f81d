/* skb_paths.c — directories below an output root, created and entered
 * without following symbolic links: a link planted at RUN/plots or
 * OUT/counterexamples must not carry writes outside the root (docs/security.md
 * "Security"). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"

/* enter (creating when absent) the directory comp below dirfd; never through
 * a link: O_NOFOLLOW | O_DIRECTORY fails on a link or a non-directory */
static int enter(int dirfd, const char *comp, const char *shown, char *msg, size_t msglen)
{
    if (mkdirat(dirfd, comp, 0755) != 0 && errno != EEXIST) {
        snprintf(msg, msglen, "%s: cannot create directory: %s", shown, strerror(errno));
        return -1;
    }
    int fd = openat(dirfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        struct stat st;
        int link = fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
        snprintf(msg, msglen, "%s: %s; refusing to write through it (outputs stay below the output directory)",
                 shown, link ? "is a symbolic link" : errno == ENOTDIR ? "is not a directory" : strerror(errno));
        return -1;
    }
    return fd;
}

int skb_mkdirs_below(const char *root, const char *sub, char *msg, size_t msglen)
{
    char buf[4096], shown[4600];
    int rc = skb_mkdirs(root, msg, msglen);
    if (rc < 0)
        return rc;
    if ((size_t)snprintf(buf, sizeof buf, "%s", sub) >= sizeof buf) {
        snprintf(msg, msglen, "%s/%s: path too long", root, sub);
        return SKB_EINVAL;
    }
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, msglen, "%s: cannot open directory: %s", root, strerror(errno));
        return SKB_EIO;
    }
    char *save = NULL;
    size_t off = (size_t)snprintf(shown, sizeof shown, "%s", root);
    for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (strcmp(c, ".") == 0)
            continue;
        if (strcmp(c, "..") == 0) {
            close(fd);
            snprintf(msg, msglen, "%s/%s: '..' is not allowed below the output directory", root, sub);
            return SKB_EINVAL;
        }
        if (off < sizeof shown)
            off += (size_t)snprintf(shown + off, sizeof shown - off, "/%s", c);
        int nfd = enter(fd, c, shown, msg, msglen);
        close(fd);
        if (nfd < 0)
            return SKB_EINVAL;
        fd = nfd;
    }
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
