/* gpu_cost.c — shader cost without a GPU: instruction counts from Mesa's
 * compiled NIR (ST_DEBUG=nir, printed at link time) and from SPIR-V
 * (glslangValidator -G, spirv-opt -O, spirv-dis), to set beside DQ paper
 * Fig. 19.  Counting rules:
 *   NIR    one per live ALU instruction of the vertex shader in the NIR Mesa
 *          hands to the driver ("NIR before handing off to driver"): every
 *          SSA definition whose opcode is an ALU op, minus vector assembly
 *          (vec2/vec3/vec4) and moves; load_const, intrinsics (attribute,
 *          uniform-buffer and output loads/stores), derefs and phis are not
 *          counted; values not reachable from a store or branch are dead and
 *          not counted.  NIR here is scalar (one op per component), loops
 *          unrolled, so counts are about 3-4x the vector counts of Fig. 19.
 *   SPIR-V one per arithmetic, logic, conversion, comparison, select or
 *          extended (GLSL.std.450) instruction inside function bodies after
 *          spirv-opt -O; loads, stores, access chains, composite
 *          construct/extract, shuffles, labels, branches and merges are data
 *          movement or control and not counted.  Vector-level ops. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skb_gpu.h"

extern char **environ;

#define NIR_MARK "@@skb-shader "

/* ---- NIR ---------------------------------------------------------------- */

static int ssa_index(const char *s, const char **end)
{
    /* "ssa_12" -> 12 */
    char *e;
    long v = strtol(s + 4, &e, 10);
    *end = e;
    return e > s + 4 && v >= 0 && v < INT_MAX ? (int)v : -1;
}

static int nir_is_counted_op(const char *op, size_t len)
{
    static const char *const skip[] = { "load_const", "intrinsic", "phi", "undefined", "mov",
                                        "vec2", "vec3", "vec4", "vec5", "vec8", "vec16", NULL };
    if (len >= 6 && strncmp(op, "deref_", 6) == 0)
        return 0;
    for (int i = 0; skip[i]; i++)
        if (strlen(skip[i]) == len && strncmp(op, skip[i], len) == 0)
            return 0;
    return 1;
}

int skb_gpu_nir_count_text(const char *text)
{
    /* the first vertex shader section, up to the next "shader:" header */
    const char *start = strstr(text, "shader: MESA_SHADER_VERTEX");
    if (!start)
        return -1;
    const char *stop = strstr(start + 1, "\nshader: ");
    const char *stop2 = strstr(start + 1, "NIR before handing off");
    if (!stop || (stop2 && stop2 < stop))
        stop = stop2;
    if (!stop)
        stop = text + strlen(text);
    int maxid = 0;
    for (const char *p = start; p < stop && (p = strstr(p, "ssa_")) && p < stop; p += 4) {
        const char *e;
        int id = ssa_index(p, &e);
        if (id > maxid)
            maxid = id;
    }
    size_t n = (size_t)maxid + 1;
    /* per SSA value: line start of its definition, counted flag, live flag */
    const char **def = (const char **)calloc(n, sizeof *def);
    char *counted = (char *)calloc(n, 1), *live = (char *)calloc(n, 1);
    int *work = (int *)malloc(sizeof(int) * n), nwork = 0, total = 0;
    if (!def || !counted || !live || !work) {
        total = -1;
        goto done;
    }
    for (const char *line = start; line < stop;) {
        const char *eol = memchr(line, '\n', (size_t)(stop - line));
        if (!eol)
            eol = stop;
        const char *eq = memchr(line, '=', (size_t)(eol - line));
        const char *d = strstr(line, "ssa_");
        if (eq && d && d < eq && (line[strspn(line, " \t")] == 'v')) {
            /* "vecN B ssa_K = op args": a definition */
            const char *e;
            int id = ssa_index(d, &e);
            const char *op = eq + 1 + strspn(eq + 1, " ");
            size_t oplen = strcspn(op, " \n");
            if (id >= 0) {
                def[id] = line;
                counted[id] = (char)nir_is_counted_op(op, oplen);
            }
        } else {
            /* stores, branches: every value they use is live */
            for (const char *p = line; (p = strstr(p, "ssa_")) && p < eol; p += 4) {
                const char *e;
                int id = ssa_index(p, &e);
                if (id >= 0 && !live[id]) {
                    live[id] = 1;
                    work[nwork++] = id;
                }
            }
        }
        line = eol + 1;
    }
    while (nwork > 0) {
        int id = work[--nwork];
        const char *line = def[id];
        if (!line)
            continue;
        const char *eol = strchr(line, '\n');
        const char *p = strchr(line, '=');
        if (!eol)
            eol = line + strlen(line);
        for (; p && (p = strstr(p, "ssa_")) && p < eol; p += 4) {
            const char *e;
            int u = ssa_index(p, &e);
            if (u >= 0 && !live[u]) {
                live[u] = 1;
                work[nwork++] = u;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        total += def[i] && live[i] && counted[i];
done:
    free(def);
    free(counted);
    free(live);
    free(work);
    return total;
}

/* a whole file (absolute path, as mkstemp gives) */
static int read_text(const char *path, char **out)
{
    char msg[256];
    *out = NULL;
    return path[0] == '/' ? skb_gpu_read_shader_file("", path + 1, out, msg, sizeof msg)
                          : skb_gpu_read_shader_file(".", path, out, msg, sizeof msg);
}

int skb_gpu_count_nir(const char *dir, int n, const struct skb_gpu_shader *const *shaders,
                      int *counts, char *msg, size_t msglen)
{
    char tmp[] = "/tmp/skb-nir-XXXXXX";
    int fd = mkstemp(tmp);
    for (int i = 0; i < n; i++)
        counts[i] = -1;
    if (fd < 0) {
        snprintf(msg, msglen, "NIR count: cannot create a temporary file: %s", strerror(errno));
        return SKB_EIO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        unlink(tmp);
        snprintf(msg, msglen, "NIR count: fork failed: %s", strerror(errno));
        return SKB_EIO;
    }
    if (pid == 0) {
        /* child: Mesa reads ST_DEBUG once, when its first context is made,
         * and prints the NIR of each linked stage on stderr */
        struct skb_gpu g;
        char cmsg[512];
        dup2(fd, 2);
        setenv("ST_DEBUG", "nir", 1);
        if (skb_gpu_open(&g, cmsg, sizeof cmsg) < 0) {
            dprintf(2, "\n@@skb-error %s\n", cmsg);
            _exit(3);
        }
        for (int i = 0; i < n; i++) {
            struct skb_gpu_program p;
            dprintf(2, "\n" NIR_MARK "%d\n", i);
            if (skb_gpu_program_build(dir, shaders[i], NULL, &p, cmsg, sizeof cmsg) == 0)
                skb_gpu_program_free(&p);
            else
                dprintf(2, "\n@@skb-error %s\n", cmsg);
        }
        dprintf(2, "\n" NIR_MARK "end\n");
        skb_gpu_close(&g);
        _exit(0);
    }
    close(fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    char *text = NULL;
    read_text(tmp, &text);
    unlink(tmp);
    if (!text) {
        snprintf(msg, msglen, "NIR count: no output from the child process");
        return SKB_EIO;
    }
    int rc = 0;
    const char *err = strstr(text, "@@skb-error ");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(msg, msglen, "NIR count: child %s: %.200s", WIFEXITED(status) ? "failed" : "crashed",
                 err ? err + 12 : "no message");
        msg[strcspn(msg, "\n")] = 0;
        rc = err ? SKB_ENOTSUP : SKB_EIO;
    } else {
        for (int i = 0; i < n; i++) {
            char mark[64];
            snprintf(mark, sizeof mark, NIR_MARK "%d\n", i);
            char *sec = strstr(text, mark);
            char *next = sec ? strstr(sec + strlen(mark), NIR_MARK) : NULL;
            if (!sec)
                continue;
            if (next)
                *next = 0;
            counts[i] = skb_gpu_nir_count_text(sec);
            if (next)
                *next = '@';
        }
        if (counts[0] < 0) {
            snprintf(msg, msglen, "NIR count: no vertex-shader NIR on stderr (this Mesa ignores ST_DEBUG=nir?)");
            rc = SKB_ENOTSUP;
        }
    }
    free(text);
    return rc;
}

/* ---- SPIR-V ------------------------------------------------------------- */

static int spirv_is_counted(const char *op)
{
    static const char *const skip[] = {
        "OpFunction", "OpFunctionParameter", "OpFunctionEnd", "OpFunctionCall", "OpLabel",
        "OpReturn", "OpReturnValue", "OpVariable", "OpLoad", "OpStore", "OpAccessChain",
        "OpInBoundsAccessChain", "OpCompositeExtract", "OpCompositeConstruct",
        "OpCompositeInsert", "OpVectorShuffle", "OpCopyObject", "OpSelectionMerge",
        "OpLoopMerge", "OpBranch", "OpBranchConditional", "OpPhi", "OpLine", "OpNoLine",
        "OpUndef", "OpUnreachable", "OpKill", NULL };
    for (int i = 0; skip[i]; i++)
        if (strcmp(op, skip[i]) == 0)
            return 0;
    return 1;
}

int skb_gpu_spirv_count_text(const char *text)
{
    int in_fn = 0, total = 0, seen = 0;
    for (const char *line = text; line && *line;) {
        const char *eol = strchr(line, '\n');
        char op[64] = "";
        const char *p = strstr(line, "Op");
        if (p && (!eol || p < eol)) {
            size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
            if (len < sizeof op) {
                memcpy(op, p, len);
                op[len] = 0;
            }
        }
        if (strcmp(op, "OpFunction") == 0) {
            in_fn = 1;
            seen = 1;
        } else if (strcmp(op, "OpFunctionEnd") == 0) {
            in_fn = 0;
        } else if (in_fn && op[0] && spirv_is_counted(op)) {
            total++;
        }
        line = eol ? eol + 1 : NULL;
    }
    return seen ? total : -1;
}

/* the directory of PATH that holds an executable `tool`, or 0 */
static int find_tool(const char *tool, char *out, size_t outlen)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        int n = snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, tool);
        if (n > 0 && (size_t)n < sizeof buf && access(buf, X_OK) == 0) {
            snprintf(out, outlen, "%s", buf);
            return 1;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return 0;
}

/* run argv with stdout/stderr to /dev/null; exit status or -1 */
static int run_quiet(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status = 0;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int spirv_one(const char *dir, const struct skb_gpu_shader *s, const char *tools[3],
                     const char *tmpdir, char *msg, size_t msglen)
{
    char vert[PATH_MAX], spv[PATH_MAX], opt[PATH_MAX], dis[PATH_MAX];
    char *src = NULL, *text = NULL;
    int count = -1;
    snprintf(vert, sizeof vert, "%s/%s.vert", tmpdir, s->name);
    snprintf(spv, sizeof spv, "%s/%s.spv", tmpdir, s->name);
    snprintf(opt, sizeof opt, "%s/%s.opt.spv", tmpdir, s->name);
    snprintf(dis, sizeof dis, "%s/%s.spvasm", tmpdir, s->name);
    if (skb_gpu_vertex_source(dir, s, NULL, &src, msg, msglen) < 0)
        return -1;
    /* SKB_SPIRV marks the influence loops for unrolling (common.glsl) */
    const char *nl = strchr(src, '\n');
    FILE *f = fopen(vert, "w");
    if (!f || !nl) {
        if (f)
            fclose(f);
        free(src);
        snprintf(msg, msglen, "SPIR-V count: cannot write %s", vert);
        return -1;
    }
    fprintf(f, "%.*s\n#define SKB_SPIRV 1\n%s", (int)(nl - src), src, nl + 1);
    fclose(f);
    free(src);
    char *a1[] = { (char *)tools[0], (char *)"-G", (char *)"-o", spv, vert, NULL };
    char *a2[] = { (char *)tools[1], (char *)"-O", spv, (char *)"-o", opt, NULL };
    char *a3[] = { (char *)tools[2], opt, (char *)"-o", dis, NULL };
    if (run_quiet(a1) != 0)
        snprintf(msg, msglen, "SPIR-V count: glslangValidator -G rejected %s", s->file);
    else if (run_quiet(a2) != 0)
        snprintf(msg, msglen, "SPIR-V count: spirv-opt -O failed on %s", s->file);
    else if (run_quiet(a3) != 0 || read_text(dis, &text) < 0 || !text)
        snprintf(msg, msglen, "SPIR-V count: spirv-dis failed on %s", s->file);
    else
        count = skb_gpu_spirv_count_text(text);
    free(text);
    unlink(vert);
    unlink(spv);
    unlink(opt);
    unlink(dis);
    return count;
}

int skb_gpu_count_spirv(const char *dir, int n, const struct skb_gpu_shader *const *shaders,
                        int *counts, char *msg, size_t msglen)
{
    static const char *const names[3] = { "glslangValidator", "spirv-opt", "spirv-dis" };
    static const char *const pkgs[3] = { "glslang-tools", "spirv-tools", "spirv-tools" };
    char paths[3][PATH_MAX], tmpdir[] = "/tmp/skb-spirv-XXXXXX";
    const char *tools[3];
    int rc = 0;
    for (int i = 0; i < n; i++)
        counts[i] = -1;
    for (int t = 0; t < 3; t++) {
        if (!find_tool(names[t], paths[t], sizeof paths[t])) {
            snprintf(msg, msglen, "SPIR-V count skipped: %s not found (install %s)", names[t], pkgs[t]);
            return SKB_ENOTSUP;
        }
        tools[t] = paths[t];
    }
    if (!mkdtemp(tmpdir)) {
        snprintf(msg, msglen, "SPIR-V count: cannot create a temporary directory: %s", strerror(errno));
        return SKB_EIO;
    }
    for (int i = 0; i < n; i++) {
        counts[i] = spirv_one(dir, shaders[i], tools, tmpdir, msg, msglen);
        if (counts[i] < 0)
            rc = SKB_EIO;
    }
    rmdir(tmpdir);
    return rc;
}
