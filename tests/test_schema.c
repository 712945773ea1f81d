/* test_schema.c — common/skb_schema.c against the results files' tables
 * (harness/exp_*_schema.c): a minimal document of each shape passes; a wrong
 * type, a missing required field and an out-of-range value each fail with
 * one line naming file and field; a conditional field (icount "kernels")
 * is required only when its flag is true; and the writer refuses to write
 * a document that breaks its own table. */
#include "skb_test.h"
#include <unistd.h>
#include "skb_error.h"
#include "skb_results.h"
#include "skb_schemas.h"

#define META "\"schema_version\": 1, \"experiment\": \"x\", \"seed\": 7, \"machine\": {\"key\": \"h/2\"}"

/* 0, or the message of checking text against s */
static int check(const struct skb_schema *s, const char *text, char *msg, size_t len)
{
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    msg[0] = 0;
    int rc = skb_schema_check(s, doc, s->file, msg, len);
    cJSON_Delete(doc);
    return rc;
}

static void expect_error(const struct skb_schema *s, const char *text, const char *want)
{
    char msg[700];
    if (check(s, text, msg, sizeof msg) == 0 || !strstr(msg, want) || strncmp(msg, s->file, strlen(s->file)) != 0
        || strchr(msg, '\n'))
        fail_msg("%s: message '%s' lacks '%s'", s->file, msg, want);
}

static void test_good(void **state)
{
    (void)state;
    char msg[700];
    assert_int_equal(check(&skb_schema_cpu, "{" META ", \"datasets\": {\"arm\": {\"ms\": {\"dlb+alg2\": 1.5, "
                           "\"dib@p=0.001\": \"nan\"}}}, \"verified\": true}", msg, sizeof msg), 0);
    assert_int_equal(check(&skb_schema_cd, "{" META ", \"scaling\": [{\"level\": 3, \"on_demand_ms\": 1, "
                           "\"bottom_up_ms\": 2}]}", msg, sizeof msg), 0);
    assert_int_equal(check(&skb_schema_icount, "{" META ", \"available\": false}", msg, sizeof msg), 0);
    assert_int_equal(check(&skb_schema_cpu_gbench, "{\"benchmarks\": []}", msg, sizeof msg), 0);
}

static void test_bad(void **state)
{
    (void)state;
    static const struct { const struct skb_schema *s; const char *text, *want; } cases[] = {
        { &skb_schema_cpu, "{" META ", \"datasets\": {\"arm\": {\"ms\": {\"dlb\": \"fast\"}}}}",
          "cpu.json: field \"datasets\".\"arm\".\"ms\".\"dlb\": expected" },
        { &skb_schema_cpu, "{" META ", \"datasets\": {\"arm\": {\"ms\": {\"dlb\": -1}}}}",
          "cpu.json: field \"datasets\".\"arm\".\"ms\".\"dlb\": -1 is not a measured value" },
        { &skb_schema_cpu, "{" META "}", "cpu.json: missing field \"datasets\" (an object)" },
        { &skb_schema_cd, "{" META ", \"scaling\": [{\"level\": 31, \"on_demand_ms\": 1, \"bottom_up_ms\": 2}]}",
          "cd.json: field \"scaling\"[0].\"level\": expected an integer 0..30" },
        { &skb_schema_cd, "{" META ", \"scaling\": [{\"level\": 1, \"on_demand_ms\": 1}]}",
          "cd.json: missing field \"scaling\"[0].\"bottom_up_ms\"" },
        { &skb_schema_properties, "{" META ", \"verdicts\": {\"m\": {\"rigidity\": \"maybe\"}}}",
          "field \"verdicts\".\"m\".\"rigidity\": expected \"+\" or \"-\"" },
        { &skb_schema_icount, "{" META ", \"available\": true}", "missing field \"kernels\"" },
        { &skb_schema_sad, "{" META ", \"animations\": {\"c\": {\"vertices\": -2}}}",
          "field \"animations\".\"c\".\"vertices\": expected a non-negative number" },
        { &skb_schema_flops, "{\"schema_version\": 9, \"fits\": {}}", "field \"schema_version\" is 9" },
        { &skb_schema_flops, "{\"fits\": {}}", "missing field \"schema_version\"" },
        { &skb_schema_flops, "{" META ", \"fits\": {\"m\": {\"a\": 1}}}", "missing field \"fits\".\"m\".\"b\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(cases[i].s, cases[i].text, cases[i].want);
}

/* the writer checks before writing: nothing appears on disk */
static void test_writer_refuses(void **state)
{
    (void)state;
    char dir[] = "/tmp/skb-schema-XXXXXX", path[64], msg[900];
    assert_non_null(mkdtemp(dir));
    struct skb_run_ctx ctx = { 0 };
    ctx.out_dir = dir;
    cJSON *doc = cJSON_Parse("{" META ", \"fits\": {\"m\": {\"a\": 1, \"b\": \"two\"}}}");
    assert_int_equal(skb_results_write(&ctx, &skb_schema_flops, doc, msg, sizeof msg), SKB_EPARSE);
    assert_non_null(strstr(msg, "flops.json: field \"fits\".\"m\".\"b\": expected a number"));
    snprintf(path, sizeof path, "%s/flops.json", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "fits"), "m"), "b", cJSON_CreateNumber(2));
    assert_int_equal(skb_results_write(&ctx, &skb_schema_flops, doc, msg, sizeof msg), 0);
    assert_int_equal(access(path, F_OK), 0);
    cJSON_Delete(doc);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_writer_refuses),
    };
    return cmocka_run_group_tests_name("schema", tests, NULL, NULL);
}
