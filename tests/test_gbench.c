/* test_gbench.c — common/skb_gbench.c, the one reader of Google Benchmark's
 * JSON that `run cpu` and `compare` share: units (absent = ns), aggregates
 * skipped, run_name before name, cpu_time before real_time, an unknown unit
 * is an error naming the row, and repetitions beyond any fixed cap are kept. */
#include "skb_test.h"
#include <math.h>
#include <stdio.h>
#include "skb_gbench.h"

static cJSON *doc_of(const char *text)
{
    cJSON *d = cJSON_Parse(text);
    assert_non_null(d);
    return d;
}

static void test_units_and_rows(void **state)
{
    (void)state;
    cJSON *d = doc_of("{\"benchmarks\": ["
        "{\"name\": \"a/rep\", \"run_name\": \"a\", \"run_type\": \"iteration\", \"time_unit\": \"ms\","
        " \"cpu_time\": 2, \"real_time\": 3, \"items_per_second\": 10},"
        "{\"name\": \"a_median\", \"run_name\": \"a\", \"run_type\": \"aggregate\", \"time_unit\": \"ms\","
        " \"cpu_time\": 99, \"real_time\": 99},"
        "{\"name\": \"b\", \"cpu_time\": 5, \"real_time\": 6},"
        "{\"name\": \"c\", \"time_unit\": \"us\", \"real_time\": 7},"
        "{\"name\": \"d\", \"time_unit\": \"s\", \"cpu_time\": 1},"
        "{\"name\": \"e\", \"time_unit\": \"ns\"}"
        "]}");
    struct skb_gbench_set g;
    char msg[256] = "";
    assert_int_equal(skb_gbench_parse(d, &g, msg, sizeof msg), 0);
    assert_int_equal(g.n, 4);                       /* the aggregate and the timeless row are not repetitions */
    const struct skb_gbench_bench *a = skb_gbench_find(&g, "a");
    assert_non_null(a);
    assert_int_equal(a->nrep, 1);
    assert_true(a->cpu_ns[0] == 2e6 && a->real_ns[0] == 3e6 && a->items_per_s[0] == 10);
    const struct skb_gbench_bench *b = skb_gbench_find(&g, "b");
    assert_true(b->cpu_ns[0] == 5);                 /* no time_unit: Google Benchmark's default, ns */
    assert_true(isnan(b->items_per_s[0]));
    const struct skb_gbench_bench *c = skb_gbench_find(&g, "c");
    assert_true(isnan(c->cpu_ns[0]) && skb_gbench_time_ns(c, 0) == 7e3);   /* real time where no CPU time */
    assert_true(skb_gbench_time_ns(b, 0) == 5);     /* CPU time first */
    assert_true(c->time_ns[0] == 7e3 && b->time_ns[0] == 5);   /* the same, as the array compare reads */
    assert_true(skb_gbench_find(&g, "d")->cpu_ns[0] == 1e9);
    assert_null(skb_gbench_find(&g, "e"));
    skb_gbench_set_free(&g);
    cJSON_Delete(d);
}

static void test_unknown_unit_is_an_error(void **state)
{
    (void)state;
    cJSON *d = doc_of("{\"benchmarks\": [{\"name\": \"ok\", \"cpu_time\": 1},"
                      "{\"name\": \"x/y\", \"time_unit\": \"fortnights\", \"cpu_time\": 1}]}");
    struct skb_gbench_set g;
    char msg[256] = "";
    assert_true(skb_gbench_parse(d, &g, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "\"benchmarks\"[1]"));
    assert_non_null(strstr(msg, "x/y"));
    assert_non_null(strstr(msg, "fortnights"));
    /* the row "ok" read before the error is freed with the set: empty */
    assert_int_equal(g.n, 0);
    assert_null(g.b);
    skb_gbench_set_free(&g);
    cJSON_Delete(d);
    d = doc_of("{\"benchmarks\": [{\"name\": \"n\", \"time_unit\": 3, \"cpu_time\": 1}]}");
    assert_true(skb_gbench_parse(d, &g, msg, sizeof msg) < 0);
    skb_gbench_set_free(&g);
    cJSON_Delete(d);
}

/* 200 repetitions of one benchmark and 100 benchmarks: memory grows, no row is dropped */
static void test_no_cap(void **state)
{
    (void)state;
    cJSON *d = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(d, "benchmarks");
    for (int i = 0; i < 300; i++) {
        char name[32];
        cJSON *row = cJSON_CreateObject();
        snprintf(name, sizeof name, "k%d", i < 200 ? 0 : i);
        cJSON_AddStringToObject(row, "run_name", name);
        cJSON_AddStringToObject(row, "run_type", "iteration");
        cJSON_AddNumberToObject(row, "cpu_time", i);
        cJSON_AddItemToArray(arr, row);
    }
    struct skb_gbench_set g;
    char msg[256];
    assert_int_equal(skb_gbench_parse(d, &g, msg, sizeof msg), 0);
    assert_int_equal(g.n, 101);
    const struct skb_gbench_bench *k = skb_gbench_find(&g, "k0");
    assert_int_equal(k->nrep, 200);
    assert_true(k->cpu_ns[199] == 199);
    skb_gbench_set_free(&g);
    cJSON_Delete(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_and_rows),
        cmocka_unit_test(test_unknown_unit_is_an_error),
        cmocka_unit_test(test_no_cap),
    };
    return cmocka_run_group_tests_name("gbench", tests, NULL, NULL);
}
