/* skb_json.c — machine description, non-finite encoding, atomic file writes
 * (common/: no skinbench layer above it; results metadata is harness/skb_results.c). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
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

/* a double holds every integer up to 2^53 exactly; a larger seed is written
 * as a decimal string so that reading it back gives the same seed */
#define SEED_EXACT_MAX 9007199254740992.0

cJSON *skb_json_seed(unsigned long seed)
{
    char buf[32];
    if ((double)seed <= SEED_EXACT_MAX && seed <= (1UL << 53))
        return cJSON_CreateNumber((double)seed);
    snprintf(buf, sizeof buf, "%lu", seed);
    return cJSON_CreateString(buf);
}

int skb_json_get_seed(const cJSON *item, unsigned long *out)
{
    if (cJSON_IsNumber(item)) {
        double d = item->valuedouble;
        if (!(d >= 0 && d <= SEED_EXACT_MAX) || d != floor(d))
            return -1;
        *out = (unsigned long)d;
        return 0;
    }
    if (cJSON_IsString(item)) {
        const char *c = item->valuestring;
        char *end;
        if (*c < '0' || *c > '9')
            return -1;
        errno = 0;
        unsigned long long v = strtoull(c, &end, 10);
        if (errno || *end || v > (unsigned long long)(unsigned long)-1)
            return -1;
        *out = (unsigned long)v;
        return 0;
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
    char key[400];
    skb_machine_key(key, sizeof key);
    const char *name = getenv("SKB_MACHINE_NAME");
    if (name && *name)
        cJSON_AddStringToObject(m, "name", name);
    cJSON_AddStringToObject(m, "key", key);
    return m;
}

/* printable, no '/' (the key's separator) and no control bytes */
static void key_part(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (; src && *src && j + 1 < len; src++)
        dst[j++] = (unsigned char)*src < 0x20 || *src == 0x7f || *src == '/' ? '_' : *src;
    dst[j] = 0;
}

void skb_machine_key(char *key, size_t len)
{
    /* the hardware, not the hostname: CI runners get a new hostname every
     * night, and a key that changes with it would switch the timing gate
     * off (docs/security.md "Security", nightly gate rules).  SKB_MACHINE_NAME tells
     * apart machines of the same hardware; the hostname is recorded beside */
    char *cpu = read_first_match("/proc/cpuinfo", "model name");
    char *mem = read_first_match("/proc/meminfo", "MemTotal");
    char c[160], n[120] = "";
    key_part(c, sizeof c, cpu ? cpu : "unknown-cpu");
    key_part(n, sizeof n, getenv("SKB_MACHINE_NAME"));
    double gib = mem ? strtod(mem, NULL) / (1024.0 * 1024.0) : 0;
    snprintf(key, len, "%s%s%s/%ld-core/%.0f-GiB", n, n[0] ? "/" : "", c, sysconf(_SC_NPROCESSORS_ONLN), gib);
    free(cpu);
    free(mem);
}

void skb_text_one_line(char *s)
{
    for (unsigned char *c = (unsigned char *)s; c && *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* what an existing path is, when it is not a regular file */
const char *skb__file_kind(mode_t m)
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
     * into a regular file for every later process */
    snprintf(msg, msglen, "%s: refusing to replace a %s (give a regular file path)", path,
             skb__file_kind(sb.st_mode));
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

/* read all of fd (a regular file, at most max bytes) */
static int read_fd(int fd, const char *path, size_t max, char **out, size_t *len, char *msg, size_t msglen)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        snprintf(msg, msglen, "%s: out of memory", path);
        return SKB_ENOMEM;
    }
    for (;;) {
        if (n == cap) {
            if (n > max) {
                free(buf);
                snprintf(msg, msglen, "%s: input larger than the limit of %zu bytes", path, max);
                return SKB_EINVAL;
            }
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                snprintf(msg, msglen, "%s: out of memory (reading %zu bytes)", path, n);
                return SKB_ENOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int err = errno;
            free(buf);
            snprintf(msg, msglen, "%s: read error: %s", path, strerror(err));
            return SKB_EIO;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > max) {
        free(buf);
        snprintf(msg, msglen, "%s: input larger than the limit of %zu bytes", path, max);
        return SKB_EINVAL;
    }
    buf[n] = 0;
    *out = buf;
    if (len)
        *len = n;
    return 0;
}

int skb__read_regular(int fd, const char *shown, size_t max, char **out, size_t *len, char *msg, size_t msglen)
{
    struct stat st;
    if (!max)
        max = SKB_INPUT_MAX_DEFAULT;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s: is a %s, not a regular file; refusing to read it", shown, skb__file_kind(st.st_mode));
        return SKB_EINVAL;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(msg, msglen, "%s: %lld bytes, larger than the limit of %zu bytes", shown, (long long)st.st_size, max);
        return SKB_EINVAL;
    }
    return read_fd(fd, shown, max, out, len, msg, msglen);
}

int skb_read_input(const char *path, size_t max, int flags, char **out, size_t *len, char *msg, size_t msglen)
{
    if (!max)
        max = SKB_INPUT_MAX_DEFAULT;
    if (strcmp(path, "-") == 0)
        return read_fd(0, "<stdin>", max, out, len, msg, msglen);
    struct stat st;
    /* stat first: a FIFO or device is refused before open(2) could block
     * on it or a driver could hand out bytes without end */
    if ((flags & SKB_IN_NOFOLLOW ? lstat(path, &st) : stat(path, &st)) != 0) {
        snprintf(msg, msglen, "%s: cannot open: %s", path, strerror(errno));
        return SKB_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s: is a %s, not a regular file; refusing to read it", path, skb__file_kind(st.st_mode));
        return SKB_EINVAL;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(msg, msglen, "%s: %lld bytes, larger than the limit of %zu bytes", path, (long long)st.st_size, max);
        return SKB_EINVAL;
    }
    /* O_NONBLOCK: a node swapped in after the stat still cannot block the
     * open; skb__read_regular's fstat then refuses it */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (flags & SKB_IN_NOFOLLOW ? O_NOFOLLOW : 0));
    if (fd < 0) {
        snprintf(msg, msglen, "%s: cannot open: %s%s", path, strerror(errno),
                 errno == ELOOP ? " (a symbolic link is not accepted here)" : "");
        return SKB_EIO;
    }
    int rc = skb__read_regular(fd, path, max, out, len, msg, msglen);
    close(fd);
    return rc;
}

int skb_read_file_max(const char *path, size_t max, char **out, size_t *len, char *msg, size_t msglen)
{
    return skb_read_input(path, max, 0, out, len, msg, msglen);
}

int skb_read_file(const char *path, char **out, size_t *len, char *msg, size_t msglen)
{
    return skb_read_input(path, 0, 0, out, len, msg, msglen);
}

/* cJSON returns NULL both for bad text and for a failed allocation: an
 * allocator that notes its failures tells the two apart.  The two statics
 * below are the one exception to "no mutable statics" in common/, and must
 * be: cJSON_InitHooks sets process-global hooks and a hook gets no context
 * pointer, so the flag cannot be passed down.  It is thread-local (each
 * parse reads only its own thread's failures) and reset by every parse;
 * the hooks are installed once per process (pthread_once: race-free). */
static _Thread_local int json_oom;
static pthread_once_t json_hooks_once = PTHREAD_ONCE_INIT;

static void *json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_oom = 1;
    return p;
}

static void json_hooks_install(void)
{
    cJSON_Hooks h = { json_malloc, free };
    cJSON_InitHooks(&h);
}

/* deepest array/object nesting in text[0..n), strings skipped */
static int json_depth(const char *text, size_t n)
{
    int d = 0, maxd = 0, in_str = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            if (++d > maxd)
                maxd = d;
        } else if (c == ']' || c == '}') {
            d--;
        }
    }
    return maxd;
}

static int is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* text that is no JSON at all: UTF-16 or binary, a UTF-8 byte-order mark,
 * or a first character no JSON value starts with; SKB_EPARSE with msg, or
 * 0 when none of these */
static int encoding_error(const char *path, const char *text, size_t len, char *msg, size_t msglen)
{
    const unsigned char *u = (const unsigned char *)text;
    size_t first = 0;
    while (first < len && is_ws(text[first]))
        first++;
    if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff) || memchr(text, 0, len))) {
        /* UTF-16 (with or without its byte-order mark) has NUL bytes */
        snprintf(msg, msglen, "%s: not UTF-8 text (%s; JSON input must be UTF-8)", path,
                 (u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff) ? "UTF-16 byte-order mark"
                 : "contains NUL bytes, e.g. UTF-16 or binary");
        return SKB_EPARSE;
    }
    if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
        snprintf(msg, msglen, "%s: starts with a UTF-8 byte-order mark, which JSON does not allow (remove it)", path);
        return SKB_EPARSE;
    }
    if (first < len && !strchr("{[\"-0123456789tfn", text[first])) {
        snprintf(msg, msglen, "%s: not JSON (the first character is '%c' at byte %zu; expected '{' or '[')", path,
                 isprint(u[first]) ? text[first] : '?', first);
        return SKB_EPARSE;
    }
    return 0;
}

/* JSON that went wrong at byte off: nested too deep, cut short, or
 * malformed at a line */
static int structure_error(const char *path, const char *text, size_t len, size_t off, char *msg, size_t msglen)
{
    int line = 1;
    for (size_t i = 0; i < off && i < len; i++)
        line += text[i] == '\n';
    size_t last = len;
    while (last > 0 && is_ws(text[last - 1]))
        last--;
    if (json_depth(text, off < len ? off + 1 : len) >= CJSON_NESTING_LIMIT)
        snprintf(msg, msglen, "%s: JSON nested deeper than %d levels near line %d (byte %zu)", path,
                 CJSON_NESTING_LIMIT, line, off);
    else if (off >= len || last == 0 || (text[last - 1] != '}' && text[last - 1] != ']'))
        /* a document that stops before its closing brace was cut short */
        snprintf(msg, msglen, "%s: truncated JSON (%zu bytes, ends inside a value; parse stopped near line %d)",
                 path, len, line);
    else
        snprintf(msg, msglen, "%s: malformed JSON near line %d (byte %zu)", path, line, off);
    return SKB_EPARSE;
}

/* say why a parse failed: out of memory, not JSON text, nesting too deep,
 * cut short, or malformed at a line (all used to read "malformed JSON") */
static int parse_error(const char *path, const char *text, size_t len, const char *end, char *msg, size_t msglen)
{
    if (json_oom) {
        snprintf(msg, msglen, "%s: out of memory parsing JSON (%zu bytes)", path, len);
        return SKB_ENOMEM;
    }
    int rc = encoding_error(path, text, len, msg, msglen);
    if (rc < 0)
        return rc;
    size_t off = end && end >= text ? (size_t)(end - text) : 0;
    return structure_error(path, text, len, off, msg, msglen);
}

int skb_json_parse_text(const char *path, const char *text, size_t len, int whole, cJSON **out, char *msg,
                        size_t msglen)
{
    const char *end = NULL;
    pthread_once(&json_hooks_once, json_hooks_install);
    json_oom = 0;
    *out = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root)
        return parse_error(path, text, len, end, msg, msglen);
    if (whole) {
        /* a second document or trailing bytes are an error, not ignored */
        size_t off = (size_t)(end - text);
        while (off < len && is_ws(text[off]))
            off++;
        if (off < len) {
            int line = 1;
            for (size_t i = 0; i < off; i++)
                line += text[i] == '\n';
            snprintf(msg, msglen, "%s: unexpected data after the JSON document at line %d (byte %zu)", path, line,
                     off);
            cJSON_Delete(root);
            return SKB_EPARSE;
        }
    }
    *out = root;
    return 0;
}

int skb_json_read_file(const char *path, cJSON **out, char *msg, size_t msglen)
{
    char *text;
    size_t len;
    int rc = skb_read_file(path, &text, &len, msg, msglen);
    if (rc < 0)
        return rc;
    rc = skb_json_parse_text(path, text, len, 0, out, msg, msglen);
    free(text);
    return rc;
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
