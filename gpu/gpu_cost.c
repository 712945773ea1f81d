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

/* the per-SSA-value tables of one NIR section */
struct nir_ssa {
    const char **def;      /* line start of its definition */
    char *counted, *live;  /* an ALU op that counts; used by a store or branch */
    int *work, nwork;      /* values found live, their operands not yet visited */
};

/* [*start, *stop): the first vertex shader section, up to the next
 * "shader:" header; 0, or -1 when there is none */
static int nir_section(const char *text, const char **start, const char **stop)
{
    *start = strstr(text, "shader: MESA_SHADER_VERTEX");
    if (!*start)
        return -1;
    *stop = strstr(*start + 1, "\nshader: ");
    const char *stop2 = strstr(*start + 1, "NIR before handing off");
    if (!*stop || (stop2 && stop2 < *stop))
        *stop = stop2;
    if (!*stop)
        *stop = text + strlen(text);
    return 0;
}

/* every ssa_K in [p, eol) becomes live (and is queued) */
static void nir_mark_live(struct nir_ssa *x, const char *p, const char *eol)
{
    for (; p && (p = strstr(p, "ssa_")) && p < eol; p += 4) {
        const char *e;
        int id = ssa_index(p, &e);
        if (id >= 0 && !x->live[id]) {
            x->live[id] = 1;
            x->work[x->nwork++] = id;
        }
    }
}

/* one pass over the lines: definitions ("vecN B ssa_K = op args") are
 * recorded, every value a store or branch uses is live */
static void nir_scan(struct nir_ssa *x, const char *start, const char *stop)
{
    for (const char *line = start; line < stop;) {
        const char *eol = memchr(line, '\n', (size_t)(stop - line));
        if (!eol)
            eol = stop;
        const char *eq = memchr(line, '=', (size_t)(eol - line));
        const char *d = strstr(line, "ssa_");
        if (eq && d && d < eq && (line[strspn(line, " \t")] == 'v')) {
            const char *e;
            int id = ssa_index(d, &e);
            const char *op = eq + 1 + strspn(eq + 1, " ");
            size_t oplen = strcspn(op, " \n");
            if (id >= 0) {
                x->def[id] = line;
                x->counted[id] = (char)nir_is_counted_op(op, oplen);
            }
        } else {
            nir_mark_live(x, line, eol);
        }
        line = eol + 1;
    }
}

/* the operands of live values are live, transitively */
static void nir_propagate(struct nir_ssa *x)
{
    while (x->nwork > 0) {
        const char *line = x->def[x->work[--x->nwork]];
        if (!line)
            continue;
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        nir_mark_live(x, strchr(line, '='), eol);
    }
}

int skb_gpu_nir_count_text(const char *text)
{
    const char *start, *stop;
    if (nir_section(text, &start, &stop) < 0)
        return -1;
    int maxid = 0;
    for (const char *p = start; p < stop && (p = strstr(p, "ssa_")) && p < stop; p += 4) {
        const char *e;
        int id = ssa_index(p, &e);
        if (id > maxid)
            maxid = id;
    }
    size_t n = (size_t)maxid + 1;
    struct nir_ssa x;
    int total = 0;
    x.def = (const char **)calloc(n, sizeof *x.def);
    x.counted = (char *)calloc(n, 1);
    x.live = (char *)calloc(n, 1);
    x.work = (int *)malloc(sizeof(int) * n);
    x.nwork = 0;
    if (!x.def || !x.counted || !x.live || !x.work) {
        total = -1;
    } else {
        nir_scan(&x, start, stop);
        nir_propagate(&x);
        for (size_t i = 0; i < n; i++)
            total += x.def[i] && x.live[i] && x.counted[i];
    }
    free(x.def);
    free(x.counted);
    free(x.live);
    free(x.work);
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

/* the child: Mesa reads ST_DEBUG once, when its first context is made, and
 * prints the NIR of each linked stage on stderr (fd), each after a mark */
static void nir_child(int fd, const char *dir, int n, const struct skb_gpu_shader *const *shaders)
{
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

/* counts[i] from the child's output: the section after mark i */
static int nir_parse_counts(char *text, int n, int *counts, char *msg, size_t msglen)
{
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
        return SKB_ENOTSUP;
    }
    return 0;
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
    if (pid == 0)
        nir_child(fd, dir, n, shaders);
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
        rc = nir_parse_counts(text, n, counts, msg, msglen);
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
