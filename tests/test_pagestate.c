/* test_pagestate.c — the page state of what `run cpu` times
 * (common/skb_pages.h, harness/cpu_pages.c): buffers come resident, with
 * their huge-page advice, and stay so; the fast kernels' streams are such
 * buffers and keep their numbers when moved; the fresh state the offset
 * sweep forces still exists; `run cpu` checks every timed buffer resident
 * before the first timed repetition and says so in cpu.json. */
#include <limits.h>
#include <unistd.h>
#include "skb_test.h"
#include "skb_fast.h"
#include "skb_json.h"
#include "skb_pages.h"
#include "skb_run.h"
#include "skb_test_data.h"

#define MIB (1u << 20)

static struct skb_pages_vma vma_of(const void *p)
{
    struct skb_pages_vma v;
    assert_int_equal(skb_pages_vma(p, &v), 0);
    return v;
}

/* resident from the start, page-aligned, advised; forgotten pages are not
 * resident until written again */
static void test_pages_alloc_resident(void **state)
{
    (void)state;
    size_t n = 5 * MIB + 123;
    char *p = skb_pages_alloc(n, SKB_PAGES_SMALL);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 4096, 0);
    assert_int_equal(skb_pages_size(p), n);
    assert_int_equal(skb_pages_resident(p, n), 1);
    struct skb_pages_vma v = vma_of(p);
    assert_non_null(strstr(v.flags, "nh"));
    assert_int_equal(v.huge_kib, 0);
    assert_true(v.rss_kib >= (long)(n / 1024));
    assert_int_equal(skb_pages_forget(p + 8192, 3 * MIB), 0);
    assert_int_equal(skb_pages_resident(p, n), 0);
    assert_int_equal(skb_pages_resident(p, 8192), 1);
    memset(p, 7, n);
    assert_int_equal(skb_pages_resident(p, n), 1);
    skb_pages_free(p);
    skb_pages_free(NULL);
    assert_null(skb_pages_alloc(0, SKB_PAGES_SMALL));
}

/* the huge advice is given (whether the system finds huge pages is its
 * own affair: not asserted) */
static void test_pages_huge_advice(void **state)
{
    (void)state;
    char *p = skb_pages_alloc(4 * MIB, SKB_PAGES_HUGE);
    assert_non_null(p);
    assert_int_equal(skb_pages_resident(p, 4 * MIB), 1);
    assert_non_null(strstr(vma_of(p).flags, "hg"));
    skb_pages_free(p);
    char en[64], df[64];
    skb_pages_system(en, sizeof en, df, sizeof df);
    assert_true(en[0] && df[0]);
}

/* a bound fast kernel's streams: resident, 4 KiB pages advised; moved under
 * another advice (the sweep's experiment) they skin bit for bit the same */
static void test_f32_state_pages(void **state)
{
    struct skb_dataset d;
    struct skb_skinner_f32 s;
    struct skb_params prm;
    struct skb_pose p;
    char msg[256];
    (void)state;
    skb_params_default(&prm);
    assert_int_equal(skb_test_load_quick("bcn_human", &d), 0);
    assert_int_equal(skb_skin_f32_init(&s, skb_method_find("linear"), &d.mesh, msg, sizeof msg), 0);
    size_t n = skb_pages_size(s.state), n3 = 3 * (size_t)d.mesh.nverts;
    assert_true(n > 0);
    assert_int_equal(skb_pages_resident(s.state, n), 1);
    assert_non_null(strstr(vma_of(s.state).flags, "nh"));
    float *a = calloc(2 * n3, sizeof *a), *b = calloc(2 * n3, sizeof *b);
    skb_dataset_pose(&d, d.nposes / 2, &p);
    assert_int_equal(skb__skin_f32_prepare(&s, &p, &prm), 0);
    assert_int_equal(skb__skin_f32_run(&s, 0, d.mesh.nverts, a, a + n3), 0);
    assert_int_equal(skb_skin_f32_repage(&s, SKB_PAGES_HUGE), 0);
    assert_int_equal(skb_pages_size(s.state), n);
    assert_int_equal(skb_pages_resident(s.state, n), 1);
    assert_non_null(strstr(vma_of(s.state).flags, "hg"));
    assert_int_equal(skb__skin_f32_prepare(&s, &p, &prm), 0);
    assert_int_equal(skb__skin_f32_run(&s, 0, d.mesh.nverts, b, b + n3), 0);
    assert_memory_equal(a, b, sizeof(float) * 2 * n3);
    free(a);
    free(b);
    skb_skin_f32_fini(&s);
    skb_dataset_free(&d);
}

/* `run cpu` on the roofline mesh: every timed buffer checked resident
 * before the first timed repetition, all of them with the one advice, no
 * huge page among them, and cpu.json saying so */
static void test_run_cpu_pages(void **state)
{
    static char exe[2 * PATH_MAX + 32];
    char cwd[PATH_MAX], dir[] = "/tmp/skb-pagestate-XXXXXX", path[PATH_MAX], msg[512];
    const char *build = getenv("SKB_BUILD");
    struct skb_run_ctx ctx;
    cJSON *j;
    (void)state;
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_non_null(mkdtemp(dir));
    snprintf(exe, sizeof exe, "%s/%s/skinbench", cwd, build ? build : "build");
    memset(&ctx, 0, sizeof ctx);
    ctx.out_dir = dir;
    ctx.seed = 1;
    ctx.quick = 1;
    ctx.exe_path = exe;
    ctx.methods_filter = "linear";
    ctx.datasets_filter = "roofline";
    ctx.repetitions = 1;
    ctx.planner = 2;     /* none: no planning time */
    skb_params_default(&ctx.params);
    if (skb_exp_cpu.run(&ctx, msg, sizeof msg) < 0)
        fail_msg("run cpu: %s", msg);
    snprintf(path, sizeof path, "%s/cpu.json", dir);
    assert_int_equal(skb_json_read_file(path, &j, msg, sizeof msg), 0);
    const cJSON *pg = cJSON_GetObjectItemCaseSensitive(j, "pages");
    assert_non_null(pg);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pg, "resident_before_timing")));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pg, "policy")),
                        skb_pages_thp_name(SKB_PAGES_SMALL));
    double nb = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pg, "buffers"));
    assert_true(nb >= 4);   /* outputs, a kernel's streams, the copy's two */
    assert_true(nb == cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pg, "buffers_with_advice")));
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pg, "huge_page_kib_before_timing")) == 0);
    cJSON_Delete(j);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages_alloc_resident),
        cmocka_unit_test(test_pages_huge_advice),
        cmocka_unit_test(test_f32_state_pages),
        cmocka_unit_test(test_run_cpu_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
