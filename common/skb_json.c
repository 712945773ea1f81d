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

int skb_write_atomic(const char *path, const char *text, size_t len, char *msg, size_t msglen)
{
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
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            snprintf(msg, msglen, "%s: write failed: %s", path, strerror(errno));
            close(fd);
            unlink(tmp);
            free(tmp);
            return SKB_EIO;
        }
        done += (size_t)w;
    }
    fchmod(fd, 0644);
    if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
        snprintf(msg, msglen, "%s: cannot complete write: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return SKB_EIO;
    }
    free(tmp);
    return 0;
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
