/* fuzz_inputs.c — libFuzzer target for the JSON skinbench reads: results
 * files (parser, contract checks, the report built and rendered from them)
 * and `skinbench blend` input.  The first byte picks the reader (0..7: a
 * results file kind; 16..31: a results directory, see fuzz_rundir; any
 * other: blend input, second byte picks the method); the rest is the
 * document; 48..63: that results file replaced by a link, a FIFO, an
 * oversized file or a directory, or a link planted in the middle of a path
 * the report reads (images/, images/sad/, a run of a directory of runs)
 * (second byte picks which; fuzz_node, fuzz_midlink).  Built and run by tests/fuzz.sh with clang-14
 * -fsanitize=fuzzer,address,undefined (`make fuzz`: 10 minutes). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_cli.h"
#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_method.h"
#include "skb_report.h"
#include "skb_regress.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cJSON *ref;
static char blend_path[64];
static char rundir[64];          /* a copy of the fixture run, one file replaced per input */
static char basedir[80];         /* the untouched fixture run: the baseline */
static char *fixture[SKB_RF_MAX];
static size_t fixture_len[SKB_RF_MAX];

/* the results files an input's first byte can pick (below 16: one file
 * alone; from 16: a run directory with that file replaced) */
static int nfiles(void)
{
    return skb_rfile_count() < 16 ? skb_rfile_count() : 16;
}

static void cleanup(void)
{
    char path[200];
    unlink(blend_path);
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < nfiles(); i++) {
            snprintf(path, sizeof path, "%s/%s", d ? basedir : rundir, skb_rfile_name(i));
            unlink(path);
        }
    snprintf(path, sizeof path, "%s/compare.json", basedir);
    unlink(path);
    snprintf(path, sizeof path, "%s/compare.json", rundir);
    unlink(path);
    snprintf(path, sizeof path, "%s.json", rundir);
    unlink(path);
    rmdir(basedir);
    rmdir(rundir);
    *strrchr(rundir, '/') = 0;
    rmdir(rundir);
}

/* the fixture run's files, kept in memory to restore the run directory */
static void load_fixture(const char *dir)
{
    char path[512], msg[256];
    for (int i = 0; i < nfiles(); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, skb_rfile_name(i));
        if (skb_read_file(path, &fixture[i], &fixture_len[i], msg, sizeof msg) < 0)
            fixture[i] = NULL;
    }
}

static void put_file(const char *dir, int which, const void *data, size_t len)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, skb_rfile_name(which));
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, len, f);
    fclose(f);
}

static void make_run(const char *dir)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        abort();
    for (int i = 0; i < nfiles(); i++)
        if (fixture[i])
            put_file(dir, i, fixture[i], fixture_len[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char msg[512];
    const char *p = getenv("SKB_REFERENCE");
    if (skb_reference_load(p ? p : "reports/reference.json", NULL, &ref, msg, sizeof msg) < 0) {
        fprintf(stderr, "fuzz: %s\n", msg);
        exit(1);
    }
    snprintf(blend_path, sizeof blend_path, "/tmp/skb-fuzz-blend-XXXXXX");
    int fd = mkstemp(blend_path);
    if (fd < 0)
        exit(1);
    close(fd);
    const char *fx = getenv("SKB_FUZZ_FIXTURE");
    load_fixture(fx ? fx : "tests/fixtures/run-a");
    snprintf(rundir, sizeof rundir, "/tmp/skb-fuzz-run-XXXXXX");
    if (!mkdtemp(rundir))
        exit(1);
    snprintf(basedir, sizeof basedir, "%s/base", rundir);
    strcat(rundir, "/cur");
    make_run(basedir);
    make_run(rundir);
    atexit(cleanup);
    return 0;
}

static void fuzz_results(int which, const char *text, size_t len)
{
    static struct skb_results run;
    char msg[512];
    cJSON *doc;
    if (skb_results_parse(which, "fuzz.json", text, len, &doc, msg, sizeof msg) < 0) {
        /* every rejection is one line naming the file */
        if (strncmp(msg, "fuzz.json: ", 11) != 0 || strchr(msg, '\n'))
            abort();
        return;
    }
    memset(&run, 0, sizeof run);
    snprintf(run.dir, sizeof run.dir, "/nonexistent-fuzz-run");
    snprintf(run.machine_key, sizeof run.machine_key, "fuzz");
    run.doc[which] = doc;
    struct skb_report *rep = calloc(1, sizeof *rep);
    if (rep && skb_report_build(&run, 1, ref, rep, msg, sizeof msg) == 0) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        if (f) {
            skb_report_render_md(rep, f);
            skb_report_render_html(rep, NULL, f);
            fclose(f);
            free(buf);
        }
        skb_report_free(rep);
    }
    free(rep);
    /* compare the file against itself: no regression, unless the run says
     * it is unverified (an unverified current run fails whatever the baseline) */
    struct skb_compare_opts o = { 0.01, 0.05, 0, NULL, NULL };
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        const cJSON *cpu = skb_results_doc(&run, "cpu.json");
        if (skb_compare_run(&run, &run, NULL, &o, devnull, NULL) != 0
            && !(cpu && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cpu, "verified"))))
            abort();
        fclose(devnull);
    }
    skb_results_free(&run);
}

static void fuzz_blend(uint8_t pick, const uint8_t *data, size_t size)
{
    FILE *f = fopen(blend_path, "wb");
    if (!f)
        return;
    fwrite(data, 1, size, f);
    fclose(f);
    const struct skb_method *m = skb_methods[pick % skb_method_count()];
    char *argv[] = { (char *)"blend", (char *)"--method", (char *)m->name, (char *)"--input", blend_path, NULL };
    skb_cmd_blend(5, argv);
    fflush(stdout);
}

/* a results directory with one file replaced by the input, read the way
 * `skinbench report` and `skinbench compare` read it: the loader, the
 * report built and rendered from it, and compare in both directions
 * against the fixture run (the CLI, for its exit codes) */
static void fuzz_rundir(int which, int as_baseline, const char *text, size_t len)
{
    static struct skb_results run;
    char msg[512];
    put_file(rundir, which, text, len);
    if (skb_results_load(rundir, &run, msg, sizeof msg) == 0) {
        for (int i = 0; i < nfiles(); i++)
            if (run.err[i][0] && (strchr(run.err[i], '\n') || !strstr(run.err[i], skb_rfile_name(i))))
                abort();          /* one line naming the file */
        struct skb_report *rep = calloc(1, sizeof *rep);
        if (rep && skb_report_build(&run, 1, ref, rep, msg, sizeof msg) == 0) {
            FILE *f = fopen("/dev/null", "w");
            if (f) {
                skb_report_render_md(rep, f);
                skb_report_render_html(rep, NULL, f);
                fclose(f);
            }
            skb_report_free(rep);
        }
        free(rep);
        int broken = skb_compare_inputs_ok(NULL, &run, msg, sizeof msg) < 0;
        skb_results_free(&run);
        char summary[128];
        snprintf(summary, sizeof summary, "%s.json", rundir);
        char *argv[] = { (char *)"compare", as_baseline ? rundir : basedir, as_baseline ? basedir : rundir,
                         (char *)"--summary", summary, NULL };
        int rc = skb_cmd_compare(5, argv);
        fflush(stdout);
        /* a broken file is unreadable input: exit 2, never pass or regression;
         * 3 = inconclusive (what the gate could not judge) */
        if (rc < 0 || rc > 3 || (broken && rc != 2))
            abort();
    }
    if (fixture[which])
        put_file(rundir, which, fixture[which], fixture_len[which]);
}

/* a 2x2 PNG by the report's checks (signature, IHDR): a page embedding
 * it read it through the link */
static const unsigned char secret_png[] = {
    0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0,
    0x72, 0xb6, 0x0d, 0x24, 0, 0, 0, 6, 't', 'E', 'X', 't', 'S', 'E', 'C', 'R', 'E', 'T', 0, 0, 0, 0
};

/* the report's pages of the run directory dir, rendered into memory; abort
 * when report.html embeds a picture or, with no_images, report.md lists an
 * images/ (the run has none of its own).  Both patterns hold a quote or
 * start a line, which no escaped text from a results file can */
static void render_no_picture(const char *dir, int no_images)
{
    static struct skb_results run;
    char msg[512], *buf = NULL;
    size_t n = 0;
    if (skb_results_load(dir, &run, msg, sizeof msg) < 0)
        return;
    struct skb_report *rep = calloc(1, sizeof *rep);
    FILE *f = open_memstream(&buf, &n);
    if (rep && f && skb_report_build(&run, 1, ref, rep, msg, sizeof msg) == 0) {
        skb_report_render_html(rep, NULL, f);
        skb_report_render_md(rep, f);
        skb_report_free(rep);
    }
    if (f)
        fclose(f);
    if (buf && (strstr(buf, "src=\"data:image/png;base64,") || (no_images && strstr(buf, "\n## GPU deformation images ("))))
        abort();          /* a picture or a listing read through the link */
    free(buf);
    free(rep);
    skb_results_free(&run);
}

/* a link in the middle of a path below the run (kind 6: images/ itself, 7:
 * images/sad/, 8: a run of a directory of runs), the input as results
 * file `which`: nothing is read through the link */
static void fuzz_midlink(int which, int kind, const char *text, size_t len)
{
    char aside[200], img[240], sad[260], multi[220], link[240], pic[260], msg[512];
    snprintf(aside, sizeof aside, "%s.aside", rundir);
    snprintf(img, sizeof img, "%s/images", rundir);
    snprintf(sad, sizeof sad, "%s/images/sad", rundir);
    snprintf(multi, sizeof multi, "%s.multi", rundir);
    snprintf(link, sizeof link, "%s/m2", multi);
    snprintf(pic, sizeof pic, "%s/secret.png", aside);
    put_file(rundir, which, text, len);
    FILE *pf = (mkdir(aside, 0755) == 0 || errno == EEXIST) ? fopen(pic, "wb") : NULL;
    if (!pf || fwrite(secret_png, 1, sizeof secret_png, pf) != sizeof secret_png || fclose(pf) != 0)
        abort();
    if (kind == 6 && symlink(aside, img) != 0)
        abort();
    if (kind == 7 && (mkdir(img, 0755) != 0 || symlink(aside, sad) != 0))
        abort();
    if (kind == 8 && (mkdir(multi, 0755) != 0 || symlink(rundir, link) != 0))
        abort();
    if (kind == 8) {
        static struct skb_results runs[2];
        int n;
        /* the only run of multi/ is a link: refused in one line naming it */
        if (skb_results_load_many(multi, runs, 2, &n, msg, sizeof msg) == 0 || !strstr(msg, "/m2: is a symbolic link")
            || strchr(msg, '\n'))
            abort();
        unlink(link);
        rmdir(multi);
    } else {
        render_no_picture(rundir, kind == 6);
        if (kind == 7)
            unlink(sad);
        (kind == 6 ? unlink : rmdir)(img);
    }
    unlink(pic);
    rmdir(aside);
    if (fixture[which])
        put_file(rundir, which, fixture[which], fixture_len[which]);
}

/* a results file replaced by something that is not a plain file of JSON:
 * the one reader (skb_read_input) must refuse it in one line naming the
 * file, never block on a FIFO or read past the size cap, and compare must
 * exit 2 (docs/security.md "Security") */
static void fuzz_node(int which, uint8_t kind, const char *text, size_t len)
{
    char path[200], aside[220];
    snprintf(path, sizeof path, "%s/%s", rundir, skb_rfile_name(which));
    snprintf(aside, sizeof aside, "%s.target", rundir);
    unlink(path);
    unlink(aside);
    kind %= 9;
    if (kind >= 6) {
        fuzz_midlink(which, kind, text, len);
        return;
    }
    int fd;
    switch (kind) {
    case 0:   /* a link to a regular file holding the input: refused, not followed (below the run) */
        if ((fd = open(aside, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 || write(fd, text, len) != (ssize_t)len)
            abort();
        close(fd);
        if (symlink(aside, path) != 0)
            abort();
        break;
    case 1:   /* a FIFO: open would block for a writer */
        if (mkfifo(path, 0644) != 0)
            abort();
        break;
    case 2:   /* one byte past the cap (sparse: no disk used) */
        if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 || ftruncate(fd, (off_t)SKB_RESULTS_FILE_MAX + 1) != 0)
            abort();
        close(fd);
        break;
    case 3:
        if (mkdir(path, 0755) != 0)
            abort();
        break;
    case 4:   /* a link to a FIFO */
        if (mkfifo(aside, 0644) != 0 || symlink(aside, path) != 0)
            abort();
        break;
    default:  /* a dangling link */
        if (symlink("/nonexistent-skb-fuzz-target", path) != 0)
            abort();
    }
    static struct skb_results run;
    char msg[512];
    if (skb_results_load(rundir, &run, msg, sizeof msg) == 0) {
        if (!run.err[which][0] || strchr(run.err[which], '\n') || !strstr(run.err[which], skb_rfile_name(which)))
            abort();          /* refused, in one line naming the file; a link too */
        skb_results_free(&run);
        char summary[128];
        snprintf(summary, sizeof summary, "%s.json", rundir);
        char *argv[] = { (char *)"compare", basedir, rundir, (char *)"--summary", summary, NULL };
        int rc = skb_cmd_compare(5, argv);
        fflush(stdout);
        if (rc != 2)
            abort();
    }
    if (kind == 3)
        rmdir(path);
    else
        unlink(path);
    unlink(aside);
    if (fixture[which])
        put_file(rundir, which, fixture[which], fixture_len[which]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    if (data[0] < nfiles())
        fuzz_results(data[0], (const char *)data + 1, size - 1);
    else if (data[0] >= 16 && data[0] < 16 + 2 * nfiles())
        fuzz_rundir((data[0] - 16) % nfiles(), data[0] >= 16 + nfiles(), (const char *)data + 1, size - 1);
    else if (data[0] >= 48 && data[0] < 48 + nfiles())
        fuzz_node(data[0] - 48, data[1], (const char *)data + 2, size - 2);
    else
        fuzz_blend(data[1], data + 2, size - 2);
    return 0;
}
