/* fuzz_inputs.c — libFuzzer target for the JSON skinbench reads: results
 * files (parser, contract checks, the report built and rendered from them)
 * and `skinbench blend` input.  The first byte picks the reader (0..7: a
 * results file kind, 8+: blend input, second byte picks the method); the
 * rest is the document.  Built and run by tests/fuzz.sh with clang-14
 * -fsanitize=fuzzer,address. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_cli.h"
#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_method.h"
#include "skb_report.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cJSON *ref;
static char blend_path[64];

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
    /* compare the file against itself: must pass */
    struct skb_compare_opts o = { 0.01, 0.05, 0 };
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        if (skb_compare_run(&run, &run, NULL, &o, devnull, NULL) != 0)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    if (data[0] < SKB_RF_COUNT)
        fuzz_results(data[0], (const char *)data + 1, size - 1);
    else
        fuzz_blend(data[1], data + 2, size - 2);
    return 0;
}
