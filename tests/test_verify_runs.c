/* test_verify_runs.c — the three verification experiments end to end (quick
 * mode, in-process): they write properties.json, flops.json and bounds.json
 * with the contract keys (table-4.1.md is `run`'s, from the report renderer:
 * tests/cli.sh), and the same seed gives the same
 * verdicts, worst errors, counterexamples, FLOP fits and bounds. */
#include <limits.h>
#include <unistd.h>
#include "skb_test.h"
#include "skb_json.h"
#include "skb_run.h"

extern const struct skb_experiment skb_exp_properties, skb_exp_flops, skb_exp_bounds;

static cJSON *run_all(const char *dir, unsigned long seed)
{
    static char exe[2 * PATH_MAX + 32];
    const char *build = getenv("SKB_BUILD");
    char cwd[PATH_MAX], msg[512], path[PATH_MAX + 64];
    struct skb_run_ctx ctx;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(exe, sizeof exe, "%s/%s/skinbench", cwd, build ? build : "build");
    memset(&ctx, 0, sizeof ctx);
    ctx.out_dir = dir;
    ctx.seed = seed;
    ctx.quick = 1;
    ctx.exe_path = exe;
    skb_params_default(&ctx.params);
    const struct skb_experiment *e[3] = { &skb_exp_properties, &skb_exp_flops, &skb_exp_bounds };
    static const char *const files[3] = { "properties.json", "flops.json", "bounds.json" };
    cJSON *all = cJSON_CreateObject();
    for (int i = 0; i < 3; i++) {
        if (e[i]->run(&ctx, msg, sizeof msg) < 0)
            fail_msg("%s: %s", e[i]->name, msg);
        cJSON *j;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (skb_json_read_file(path, &j, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        cJSON_AddItemToObject(all, files[i], j);
    }
    return all;
}

static const cJSON *at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    return b ? cJSON_GetObjectItemCaseSensitive(x, b) : x;
}

static void test_contract_and_determinism(void **state)
{
    char d1[] = "/tmp/skb-verify-XXXXXX", d2[] = "/tmp/skb-verify-XXXXXX";
    assert_non_null(mkdtemp(d1));
    assert_non_null(mkdtemp(d2));
    unsigned long seed = skb_test_seed();
    cJSON *a = run_all(d1, seed), *b = run_all(d2, seed);
    const cJSON *pa = at(a, "properties.json", NULL), *pb = at(b, "properties.json", NULL);
    /* contract keys */
    assert_true(cJSON_IsNumber(at(pa, "seed", NULL)));
    static const char *const t41[] = { "linear", "qlb0", "sb", "logm", "sclerp", "dlb", "dib" };
    static const char *const keys[] = { "rigidity", "bi_invariance", "coordinate_invariance", "multi",
                                        "constant_speed", "shortest_path" };
    for (int i = 0; i < 7; i++)
        for (int k = 0; k < 6; k++) {
            const cJSON *v = at(at(pa, "verdicts", t41[i]), keys[k], NULL);
            assert_true(cJSON_IsString(v));
            assert_true(strcmp(v->valuestring, "+") == 0 || strcmp(v->valuestring, "-") == 0);
        }
    for (int i = 0; i < 7; i++) {
        assert_true(cJSON_IsNumber(at(at(at(a, "flops.json", "fits"), t41[i], NULL), "a", NULL)));
        assert_true(cJSON_IsNumber(at(at(at(a, "flops.json", "fits"), t41[i], NULL), "b", NULL)));
    }
    /* the FLOP breakdown and notes come from each method's own flop_parts
     * (methods/<name>.c), no list in the harness */
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        if (!m->flop_parts || !at(at(a, "flops.json", "fits"), m->name, NULL))
            continue;
        if (m->flop_parts->rest)
            assert_true(cJSON_IsString(at(at(a, "flops.json", "why"), m->name, NULL)));
        if (m->flop_parts->note && !(m->flags & SKB_MF_ITERATIVE))
            assert_string_equal(at(at(at(a, "flops.json", "methods"), m->name, NULL), "note", NULL)->valuestring,
                                m->flop_parts->note);
    }
    const cJSON *bo = at(a, "bounds.json", NULL);
    /* every method has a bound against the exact pair interpolation, or says why not */
    for (int i = 0; skb_methods[i]; i++) {
        const cJSON *vm = at(at(at(bo, "vs_exact", "methods"), skb_methods[i]->name, NULL), "angle", "gap_deg");
        assert_true(cJSON_IsNumber(vm) || cJSON_IsString(at(at(at(bo, "vs_exact", "methods"),
                                                                skb_methods[i]->name, NULL), "not_measured", NULL)));
        if (skb_methods[i]->blend && skb_methods[i] != skb_method_exact_pair())
            assert_true(cJSON_IsNumber(vm));
    }
    assert_true(cJSON_IsNumber(at(bo, "qlb_slerp_max_angle_deg", NULL)));
    assert_true(cJSON_IsNumber(at(bo, "dlb_sclerp_max_angle_deg", NULL)));
    assert_true(cJSON_IsNumber(at(bo, "dlb_sclerp_max_translation_frac", NULL)));
    /* same seed: identical measured content (metadata such as the start time aside) */
    assert_true(cJSON_Compare(at(pa, "verdicts", NULL), at(pb, "verdicts", NULL), 1));
    assert_true(cJSON_Compare(at(pa, "details", NULL), at(pb, "details", NULL), 1));
    assert_true(cJSON_Compare(at(a, "flops.json", "fits"), at(b, "flops.json", "fits"), 1));
    assert_true(cJSON_Compare(at(a, "flops.json", "methods"), at(b, "flops.json", "methods"), 1));
    static const char *const bkeys[] = { "qlb_slerp", "dlb_sclerp", "logm_speed", "se2_centre",
                                         "dib_iterations_histogram", "dib_vs_sclerp_n2" };
    for (int i = 0; i < 6; i++)
        assert_true(cJSON_Compare(at(bo, bkeys[i], NULL), at(b, "bounds.json", bkeys[i]), 1));
    cJSON_Delete(a);
    cJSON_Delete(b);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d1, d2);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract_and_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
