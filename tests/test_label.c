/* test_label.c — common/skb_label.c, the one codec for benchmark labels:
 * every label form the CPU experiment writes comes back byte for byte,
 * a '+' inside a value stays in it, malformed labels are refused, and the
 * writer's way of building a label gives the reader's parse. */
#include "skb_test.h"
#include <string.h>
#include "skb_error.h"
#include "skb_label.h"

static void test_round_trip(void **state)
{
    (void)state;
    static const char *const labels[] = { "linear", "dlb+alg2", "dib@p=0.001", "dlb+alg2@p=1e-05",
                                          "linear+nrm_shader@slot4@2t", "dlb@plan", "memcpy@2t",
                                          "sb+sphavg", "dib@p=1e+06", NULL };
    for (int i = 0; labels[i]; i++) {
        struct skb_label l;
        char back[128];
        assert_int_equal(skb_label_parse(labels[i], &l), 0);
        assert_int_equal(skb_label_format(&l, back, sizeof back), 0);
        assert_string_equal(back, labels[i]);
    }
}

static void test_parts(void **state)
{
    (void)state;
    struct skb_label l;
    assert_int_equal(skb_label_parse("linear+nrm_shader@slot4@2t", &l), 0);
    assert_string_equal(l.method, "linear");
    assert_int_equal(l.nvariants, 1);
    assert_string_equal(l.variant[0], "nrm_shader");
    assert_int_equal(l.nkeys, 2);
    assert_string_equal(skb_label_get(&l, "slot4"), "");
    assert_false(l.key[0].has_value);
    assert_null(skb_label_get(&l, "p"));
    assert_int_equal(skb_label_parse("dib@p=1e+06", &l), 0);
    assert_int_equal(l.nvariants, 0);
    assert_string_equal(skb_label_get(&l, "p"), "1e+06");   /* '+' after '@' is part of the value */
}

static void test_refused(void **state)
{
    (void)state;
    static const char *const bad[] = { "", "+alg2", "dlb+", "dlb@", "dlb@=1", "dlb@p=", "dlb++alg2",
                                       "dlb+a+b+c+d+e+f+g", NULL };
    struct skb_label l;
    char m[16];
    for (int i = 0; bad[i]; i++)
        if (skb_label_parse(bad[i], &l) == 0)
            fail_msg("'%s' parsed as a label", bad[i]);
    /* the method part is still there for a reader that only groups */
    assert_int_equal(skb_label_method("dlb+", m, sizeof m), 3);
    assert_string_equal(m, "dlb");
}

static void test_build(void **state)
{
    (void)state;
    struct skb_label l;
    char buf[64], small[8];
    skb_label_init(&l, "linear");
    assert_int_equal(skb_label_add_variant(&l, "nrm_none"), 0);
    assert_int_equal(skb_label_add_key(&l, "slot4", NULL), 0);
    assert_int_equal(skb_label_add_variant(&l, "late"), SKB_EINVAL);   /* variants come before keys */
    assert_int_equal(skb_label_add_key(&l, "a@b", NULL), SKB_EINVAL);
    assert_int_equal(skb_label_format(&l, buf, sizeof buf), 0);
    assert_string_equal(buf, "linear+nrm_none@slot4");
    assert_int_equal(skb_label_format(&l, small, sizeof small), SKB_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_build),
    };
    return cmocka_run_group_tests_name("label", tests, NULL, NULL);
}
