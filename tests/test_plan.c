/* test_plan.c — the fast kernels' planner (harness/fast_plan.c): a
 * deliberately slow candidate is never chosen, `none` is the fixed choice,
 * every candidate is checked before it is timed, and the wisdom file is
 * read strictly and written safely. */
#include <sys/stat.h>
#include <unistd.h>
#include "skb_test.h"
#include <math.h>
#include "skb_fast_plan.h"
#include "skb_json.h"
#include "skb_test_data.h"

static struct skb_params prm;

static struct skb_plan_env env_for(const struct skb_dataset *d, const char *method, float *pos, float *nrm)
{
    skb_params_default(&prm);
    struct skb_plan_env e = { skb_method_find(method), d, &prm, SKB_F32_NRM_RENORM, pos, nrm, NULL, 0, 20.0,
                              "test build" };
    assert_non_null(e.m);
    return e;
}

static float *outputs(const struct skb_dataset *d)
{
    float *f = calloc(6 * (size_t)d->mesh.nverts + 2, sizeof *f);
    assert_non_null(f);
    return f;
}

/* the fastest candidate planted 4 times slower (it skins 4 times per
 * deformation) beside itself at normal speed and a second candidate: the
 * planted one is never chosen, wherever it stands in the list */
static void test_plan_planted_slow(void **state)
{
    struct skb_dataset d;
    (void)state;
    assert_int_equal(skb_test_load_quick("bcn_human", &d), 0);
    float *out = outputs(&d);
    struct skb_plan_env e = env_for(&d, "linear", out, out + 3 * (size_t)d.mesh.nverts + 1);
    struct skb_plan *p = calloc(1, sizeof *p);
    char msg[512];
    struct skb_plan_cand fixed = skb_plan_fixed(), slow = fixed, other = fixed;
    slow.repeat = 4;
    other.layout = SKB_F32_LAYOUT_SLOT4;
    other.renorm = SKB_F32_RENORM_VERTEX;
    const struct skb_plan_cand orders[3][3] = { { slow, fixed, other }, { fixed, slow, other }, { other, fixed, slow } };
    for (int k = 0; k < 3; k++) {
        assert_int_equal(skb_plan_measure(&e, orders[k], 3, p, msg, sizeof msg), 0);
        assert_true(p->chosen >= 0);
        assert_int_equal(p->r[p->chosen].c.repeat, 1);
        for (int i = 0; i < p->n; i++)
            if (p->r[i].c.repeat > 1)
                assert_true(p->r[i].ms > p->r[p->chosen].ms);
        assert_true(p->cost_ms > 0);
    }
    free(p);
    free(out);
    skb_dataset_free(&d);
}

/* --planner none: split layout, the load-time clone, 8-wide estimate +
 * Newton, one thread (what run cpu timed before the planner) */
static void test_plan_none_is_fixed(void **state)
{
    struct skb_dataset d;
    (void)state;
    assert_int_equal(skb_test_load_quick("body", &d), 0);
    float *out = outputs(&d);
    struct skb_plan_env e = env_for(&d, "linear", out, out + 3 * (size_t)d.mesh.nverts + 1);
    struct skb_plan *p = calloc(1, sizeof *p);
    char msg[512];
    assert_int_equal(skb_plan_kernel(&e, SKB_PLAN_NONE, NULL, p, msg, sizeof msg), 0);
    assert_int_equal(p->n, 1);
    assert_int_equal(p->r[p->chosen].c.layout, SKB_F32_LAYOUT_SPLIT);
    assert_int_equal(p->r[p->chosen].c.isa, SKB_F32_ISA_AUTO);
    assert_int_equal(p->r[p->chosen].c.renorm, SKB_F32_RENORM_BATCH8);
    assert_int_equal(p->threads, 1);
    assert_string_equal(p->source, "fixed");
    /* and it is what a default bind gives */
    struct skb_skinner_f32 s;
    assert_int_equal(skb_skin_f32_init(&s, e.m, &d.mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_f32_layout(&s), SKB_F32_LAYOUT_SPLIT);
    assert_int_equal(skb_skin_f32_isa(&s), SKB_F32_ISA_AUTO);
    assert_int_equal(skb_skin_f32_renorm(&s), SKB_F32_RENORM_BATCH8);
    skb_skin_f32_fini(&s);
    free(p);
    free(out);
    skb_dataset_free(&d);
}

/* measure: every candidate is verified, and the choice is the fastest
 * verified single-thread one */
static void test_plan_measure_all(void **state)
{
    struct skb_dataset d;
    struct skb_plan_cand c[SKB_PLAN_MAX_CANDS];
    (void)state;
    assert_int_equal(skb_test_load_quick("body", &d), 0);
    float *out = outputs(&d);
    struct skb_plan_env e = env_for(&d, "linear", out, out + 3 * (size_t)d.mesh.nverts + 1);
    e.budget_ms = 3;
    int n = skb_plan_candidates(e.m, SKB_F32_NRM_RENORM, 1, c, SKB_PLAN_MAX_CANDS);
    assert_true(n >= 6);    /* split x 4 renormalisations + slot4 x 2, per instruction set */
    struct skb_plan *p = calloc(1, sizeof *p);
    char msg[512];
    assert_int_equal(skb_plan_measure(&e, c, n, p, msg, sizeof msg), 0);
    for (int i = 0; i < p->n; i++) {
        assert_true(p->r[i].verified);
        assert_true(p->r[i].error <= 1);
    }
    /* every candidate timed against the incumbent (the first candidate;
     * its own row: its A/A) pair by pair; the choice is the incumbent, or a
     * challenger faster by its whole interval, and the lowest such */
    assert_int_equal(p->r[0].pairs, 9);   /* itself against itself */
    for (int i = 1; i < p->n; i++)   /* or pruned after one pair at 1.5 x the incumbent */
        if (p->r[i].c.threads == 1)
            assert_true((p->r[i].pairs == 9 && p->r[i].ci_low <= p->r[i].ratio_to_first
                         && p->r[i].ratio_to_first <= p->r[i].ci_high)
                        || (p->r[i].pairs == 1 && p->r[i].ratio_to_first > 1.5 && isnan(p->r[i].ci_high)));
    if (p->chosen != 0) {
        assert_true(p->r[p->chosen].ci_high < 1);
        for (int i = 1; i < p->n; i++)
            if (p->r[i].c.threads == 1 && p->r[i].ci_high < 1)
                assert_true(p->r[i].ratio_to_first >= p->r[p->chosen].ratio_to_first);
    }
    /* DLB: the layouts only */
    assert_int_equal(skb_plan_candidates(skb_method_find("dlb"), SKB_F32_NRM_RENORM, 1, c, SKB_PLAN_MAX_CANDS), 2);
    free(p);
    free(out);
    skb_dataset_free(&d);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* bad JSON, a wrong shape, a FIFO: one line naming the file; absent: empty */
static void test_wisdom_read_hardened(void **state)
{
    char dir[] = "/tmp/skb-wisdom-XXXXXX", path[256], msg[512];
    cJSON *w = NULL;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/w.json", dir);
    assert_int_equal(skb_wisdom_read(path, &w, msg, sizeof msg), 0);       /* absent */
    assert_non_null(cJSON_GetObjectItemCaseSensitive(w, "entries"));
    cJSON_Delete(w);
    const char *bad[] = { "{\"format\": \"skinbench fast-kernel wisdom 1\", \"entries\": {", "[1, 2]",
                          "{\"format\": \"other\", \"entries\": {}}", "{} trailing" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i]);
        assert_true(skb_wisdom_read(path, &w, msg, sizeof msg) < 0);
        assert_null(w);
        assert_non_null(strstr(msg, path));
        assert_null(strchr(msg, '\n'));
    }
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_true(skb_wisdom_read(fifo, &w, msg, sizeof msg) < 0);   /* refused, not opened (would block) */
    assert_non_null(strstr(msg, "not a regular file"));
    unlink(fifo);
    unlink(path);
    rmdir(dir);
}

/* written atomically, a symlink never replaced; wisdom mode reuses an
 * entry (source "wisdom"), and one naming what this CPU lacks is measured */
static void test_wisdom_roundtrip(void **state)
{
    char dir[] = "/tmp/skb-wisdom-XXXXXX", path[256], link[300], msg[512];
    struct skb_dataset d;
    cJSON *w = NULL;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sub/w.json", dir);
    assert_int_equal(skb_test_load_quick("bcn_human", &d), 0);
    float *out = outputs(&d);
    struct skb_plan_env e = env_for(&d, "linear", out, out + 3 * (size_t)d.mesh.nverts + 1);
    e.budget_ms = 2;
    struct skb_plan *p = calloc(1, sizeof *p);
    assert_int_equal(skb_wisdom_read(path, &w, msg, sizeof msg), 0);
    assert_int_equal(skb_plan_kernel(&e, SKB_PLAN_WISDOM, w, p, msg, sizeof msg), 0);
    assert_string_equal(p->source, "measured");
    assert_true(p->n > 1);
    assert_int_equal(skb_wisdom_write(path, w, msg, sizeof msg), 0);
    cJSON_Delete(w);
    assert_int_equal(skb_wisdom_read(path, &w, msg, sizeof msg), 0);
    assert_int_equal(skb_plan_kernel(&e, SKB_PLAN_WISDOM, w, p, msg, sizeof msg), 0);
    assert_string_equal(p->source, "wisdom");
    assert_int_equal(p->n, 1);
    /* an entry this build cannot run: planned afresh */
    cJSON *ent = cJSON_GetObjectItemCaseSensitive(w, "entries");
    cJSON *first = ent->child;
    cJSON_ReplaceItemInObjectCaseSensitive(first, "isa", cJSON_CreateString("x86-64-v9"));
    assert_int_equal(skb_plan_kernel(&e, SKB_PLAN_WISDOM, w, p, msg, sizeof msg), 0);
    assert_string_equal(p->source, "measured");
    /* a symlink at the path is refused, its target untouched */
    snprintf(link, sizeof link, "%s/link.json", dir);
    assert_int_equal(symlink(path, link), 0);
    assert_true(skb_wisdom_write(link, w, msg, sizeof msg) < 0);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    cJSON_Delete(w);
    unlink(link);
    unlink(path);
    snprintf(link, sizeof link, "%s/sub", dir);
    rmdir(link);
    rmdir(dir);
    free(p);
    free(out);
    skb_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_planted_slow),
        cmocka_unit_test(test_plan_none_is_fixed),
        cmocka_unit_test(test_plan_measure_all),
        cmocka_unit_test(test_wisdom_read_hardened),
        cmocka_unit_test(test_wisdom_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
