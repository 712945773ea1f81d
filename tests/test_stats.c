/* test_stats.c — common/skb_stats.c, the one median the experiments and
 * compare share: odd and even counts, the empty sample, input order. */
#include "skb_test.h"
#include <math.h>
#include "skb_stats.h"

static void test_sorted_median(void **state)
{
    (void)state;
    double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 10 };
    assert_true(skb_sorted_median(odd, 3) == 3);
    assert_true(odd[0] == 1 && odd[1] == 3 && odd[2] == 5);   /* sorted in place */
    assert_true(skb_sorted_median(even, 4) == 3.5);            /* mean of the middle two */
    assert_true(isnan(skb_sorted_median(even, 0)));
}

static void test_median_keeps_input(void **state)
{
    (void)state;
    double x[] = { 9, -2, 7, 7, 0 };
    assert_true(skb_median(x, 5) == 7);
    assert_true(x[0] == 9 && x[1] == -2 && x[4] == 0);        /* untouched */
    assert_true(skb_median(x, 4) == 7);                         /* 9 -2 7 7 -> (7 + 7) / 2 */
    assert_true(skb_median(x + 1, 2) == 2.5);
    assert_true(isnan(skb_median(x, 0)));
}

/* quartiles by linear interpolation between order statistics (R type 7):
 * 1 2 3 4 -> 1.75, 2.5, 3.25; the median agrees with skb_sorted_median */
static void test_sorted_quantile(void **state)
{
    (void)state;
    double x[] = { 1, 2, 3, 4 }, one[] = { 7 };
    assert_true(fabs(skb_sorted_quantile(x, 4, 0.25) - 1.75) < 1e-15);
    assert_true(fabs(skb_sorted_quantile(x, 4, 0.75) - 3.25) < 1e-15);
    assert_true(skb_sorted_quantile(x, 4, 0.5) == skb_sorted_median(x, 4));
    assert_true(skb_sorted_quantile(x, 4, 0) == 1 && skb_sorted_quantile(x, 4, 1) == 4);
    assert_true(skb_sorted_quantile(one, 1, 0.25) == 7);
    assert_true(isnan(skb_sorted_quantile(x, 0, 0.5)) && isnan(skb_sorted_quantile(x, 4, 1.5)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sorted_median),
        cmocka_unit_test(test_median_keeps_input),
        cmocka_unit_test(test_sorted_quantile),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
