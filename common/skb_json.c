/* skb_json.c — machine description, non-finite encoding, atomic file writes
 * (common/: no skinbench layer above it; results metadata is harness/skb_results.c). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_error.h"

cJSON *skb_json_number(double x)
{
    if (isnan(x))
        return cJSON_CreateString("nan");
    if (isinf(x))
        return cJSON_CreateString(x > 0 ? "inf" : "-inf");
    return cJSON_CreateNumber(x);
}

void skb_json_add_number(cJSON *obj, const char *key, double x)
{
    cJSON_AddItemToObject(obj, key, skb_json_number(x));
}

cJSON *skb_json_array(const double *x, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, skb_json_number(x[i]));
    return a;
}

int skb_json_get_number(const cJSON *item, double *out)
{
    if (cJSON_IsNumber(item)) {
        *out = item->valuedouble;
        return 0;
    }
    if (cJSON_IsString(item)) {
        if (strcmp(item->valuestring, "nan") == 0) { *out = NAN; return 0; }
        if (strcmp(item->valuestring, "inf") == 0) { *out = INFINITY; return 0; }
        if (strcmp(item->valuestring, "-inf") == 0) { *out = -INFINITY; return 0; }
    }
    return -1;
}

static char *read_first_match(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char line[512];
    char *res = NULL;
    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, strlen(key)) == 0) {
            char *c = strchr(line, ':');
            if (!c)
                continue;
            c++;
            while (*c == ' ' || *c == '\t')
                c++;
            c[strcspn(c, "\n")] = 0;
            res = strdup(c);
            break;
        }
    }
    fclose(f);
    return res;
}

cJSON *skb_json_machine(void)
{
    cJSON *m = cJSON_CreateObject();
    struct utsname u;
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    cJSON_AddStringToObject(m, "hostname", host);
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(m, "kernel", u.release);
        cJSON_AddStringToObject(m, "arch", u.machine);
    }
    char *cpu = read_first_match("/proc/cpuinfo", "model name");
    cJSON_AddStringToObject(m, "cpu", cpu ? cpu : "unknown");
    free(cpu);
    cJSON_AddNumberToObject(m, "cores", (double)sysconf(_SC_NPROCESSORS_ONLN));
    char *mem = read_first_match("/proc/meminfo", "MemTotal");
    cJSON_AddStringToObject(m, "memory", mem ? mem : "unknown");
    free(mem);
    /* a stable key so results from several machines can be merged */
    char key[400];
    snprintf(key, sizeof key, "%s/%ld-core", host, sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddStringToObject(m, "key", key);
    return m;
}

/* what an existing path is, when it is not a regular file */
static const char *special_kind(mode_t m)
{
    return S_ISLNK(m) ? "symbolic link" : S_ISCHR(m) ? "character device" : S_ISBLK(m) ? "block device"
         : S_ISFIFO(m) ? "FIFO" : S_ISSOCK(m) ? "socket" : S_ISDIR(m) ? "directory" : "special file";
}

int skb_output_check(const char *path, char *msg, size_t msglen)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return 0;   /* absent (or unreachable: creating the temporary file reports it) */
    if (S_ISREG(sb.st_mode))
        return 0;
    /* rename(2) would replace the node itself: as root that turns /dev/null
     * into a regular file for every later process (issue 11 item 2) */
    snprintf(msg, msglen, "%s: refusing to replace a %s (give a regular file path)", path,
             special_kind(sb.st_mode));
    return SKB_EINVAL;
}

static int write_all(int fd, const char *text, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

/* fsync the directory holding path so the rename itself survives a crash */
static void sync_parent(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int skb_write_atomic(const char *path, const char *text, size_t len, char *msg, size_t msglen)
{
    int rc = skb_output_check(path, msg, msglen);
    if (rc < 0)
        return rc;
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        snprintf(msg, msglen, "%s: out of memory", path);
        return SKB_ENOMEM;
    }
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(msg, msglen, "%s: cannot create temporary file: %s", path, strerror(errno));
        free(tmp);
        return SKB_EIO;
    }
    fchmod(fd, 0644);
    int wrote = write_all(fd, text, len) == 0;
    if (!wrote || fsync(fd) != 0) {
        snprintf(msg, msglen, "%s: %s: %s", path, wrote ? "cannot flush to disk" : "write failed", strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return SKB_EIO;
    }
    if (close(fd) != 0) {
        snprintf(msg, msglen, "%s: cannot complete write: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return SKB_EIO;
    }
    /* checked again: the path may have become a device or link meanwhile */
    if ((rc = skb_output_check(path, msg, msglen)) < 0 || rename(tmp, path) != 0) {
        if (rc == 0)
            snprintf(msg, msglen, "%s: cannot rename the temporary file into place: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return rc < 0 ? rc : SKB_EIO;
    }
    sync_parent(path);
    free(tmp);
    return 0;
}

FILE *skb_out_begin(const char *path, char *tmp, size_t tmplen, char *msg, size_t msglen)
{
    if (skb_output_check(path, msg, msglen) < 0)
        return NULL;
    if ((size_t)snprintf(tmp, tmplen, "%s.tmpXXXXXX", path) >= tmplen) {
        snprintf(msg, msglen, "%s: path too long", path);
        return NULL;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        snprintf(msg, msglen, "%s: cannot create temporary file: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return NULL;
    }
    fchmod(fd, 0644);
    return f;
}

int skb_out_end(FILE *f, const char *tmp, const char *path, int ok, char *msg, size_t msglen)
{
    int wrote = ok && fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int err = errno;
    if (fclose(f) != 0 && wrote) {
        wrote = 0;
        err = errno;
    }
    if (ok && !wrote)
        snprintf(msg, msglen, "%s: write failed: %s", path, strerror(err));
    int rc = wrote ? skb_output_check(path, msg, msglen) : SKB_EIO;
    if (rc == 0 && rename(tmp, path) != 0) {
        snprintf(msg, msglen, "%s: cannot rename the temporary file into place: %s", path, strerror(errno));
        rc = SKB_EIO;
    }
    if (rc < 0)
        unlink(tmp);
    else
        sync_parent(path);
    return rc;
}

int skb_json_write_atomic(const char *path, const cJSON *root, char *msg, size_t msglen)
{
    char *text = cJSON_Print(root);
    if (!text) {
        snprintf(msg, msglen, "%s: cannot serialise JSON", path);
        return SKB_ENOMEM;
    }
    size_t len = strlen(text);
    int rc;
    /* end the file with a newline, like every text file */
    char *withnl = malloc(len + 2);
    if (!withnl) {
        free(text);
        return SKB_ENOMEM;
    }
    memcpy(withnl, text, len);
    withnl[len] = '\n';
    rc = skb_write_atomic(path, withnl, len + 1, msg, msglen);
    free(withnl);
    free(text);
    return rc;
}

int skb_read_file(const char *path, char **out, size_t *len, char *msg, size_t msglen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *buf;
    if (!f) {
        snprintf(msg, msglen, "%s: cannot open: %s", path, strerror(errno));
        return SKB_EIO;
    }
    buf = malloc(cap + 1);
    if (!buf) {
        if (f != stdin)
            fclose(f);
        snprintf(msg, msglen, "%s: out of memory", path);
        return SKB_ENOMEM;
    }
    for (;;) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        char *nb = realloc(buf, 2 * cap + 1);
        if (!nb) {
            free(buf);
            if (f != stdin)
                fclose(f);
            snprintf(msg, msglen, "%s: out of memory", path);
            return SKB_ENOMEM;
        }
        buf = nb;
        cap *= 2;
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (err) {
        free(buf);
        snprintf(msg, msglen, "%s: read error", path);
        return SKB_EIO;
    }
    buf[n] = 0;
    *out = buf;
    if (len)
        *len = n;
    return 0;
}

int skb_json_read_file(const char *path, cJSON **out, char *msg, size_t msglen)
{
    char *text;
    size_t len;
    int rc = skb_read_file(path, &text, &len, msg, msglen);
    if (rc < 0)
        return rc;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        size_t off = end ? (size_t)(end - text) : 0;
        int line = 1;
        for (size_t i = 0; i < off && i < len; i++)
            if (text[i] == '\n')
                line++;
        snprintf(msg, msglen, "%s: malformed JSON near line %d (byte %zu)", path, line, off);
        free(text);
        return SKB_EPARSE;
    }
    free(text);
    *out = root;
    return 0;
}

int skb_mkdirs(const char *path, char *msg, size_t msglen)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        snprintf(msg, msglen, "%s: bad directory name", path);
        return SKB_EINVAL;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
                snprintf(msg, msglen, "%s: cannot create directory: %s", buf, strerror(errno));
                return SKB_EIO;
            }
            buf[i] = c;
        }
    }
    return 0;
}
