// test_flop_counter.cpp — the FLOP counter (harness/flop_real.hpp) sees every
// operation: a kernel compiled for double and for skb::flop gives the same
// value, one added multiply changes the count by exactly one, every operator
// and math function lands in its own counter; and the real counting build
// (build/skinbench-flops) counts linear blending exactly by hand (12n
// multiplies, 12(n-1) additions).
#define SKB_FLOP_NO_PRELUDE
#include "flop_real.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <csetjmp>
#include <string>
extern "C" {
#include <cmocka.h>
}
#include <cJSON.h>

using skb::flop;

// the same source for both types: a*b + c, and with one more multiply
template <class R> static R kernel(R a, R b, R c) { return a * b + c; }
template <class R> static R kernel_plus_mul(R a, R b, R c) { return a * b * c + c; }

static skb::flop_counts counts() { return skb::flop_counter(); }

static void test_one_multiply_is_one_count(void **)
{
    skb::flop_reset();
    flop r0 = kernel<flop>(1.5, 2.25, -0.5);
    skb::flop_counts c0 = counts();
    skb::flop_reset();
    flop r1 = kernel_plus_mul<flop>(1.5, 2.25, -0.5);
    skb::flop_counts c1 = counts();
    assert_true(c1.mul == c0.mul + 1);
    assert_true(c1.add == c0.add);
    assert_true(c1.div == c0.div && c1.sqrt == c0.sqrt && c1.cmp == c0.cmp);
    assert_true(c0.mul == 1 && c0.add == 1);
    // the counting type computes exactly what double computes
    assert_true((double)r0 == kernel<double>(1.5, 2.25, -0.5));
    assert_true((double)r1 == kernel_plus_mul<double>(1.5, 2.25, -0.5));
}

static void test_every_operator_counted(void **)
{
    flop a = 0.75, b = -2.0, x;
    skb::flop_reset();
    x = a + b; x = a - b; x = 2 * a; x = a * 3.0; x = a / b; x = 1 - a;
    x += a; x -= b; x *= a; x /= b;
    x = -a;
    skb::flop_counts c = counts();
    assert_true(c.add == 5);      // +, -, 1 - a, +=, -=
    assert_true(c.mul == 3);      // 2 * a, a * 3.0, *=
    assert_true(c.div == 2);      // /, /=
    assert_true(c.neg == 1);
    skb::flop_reset();
    int k = 0;
    k += a < b; k += a > b; k += a <= b; k += a >= b; k += a == b; k += a != b;
    assert_true(counts().cmp == 6);
    assert_int_equal(k, 3);
    skb::flop_reset();
    x = sqrt(a); x = sin(a); x = cos(a); x = tan(a); x = asin(a); x = acos(a); x = atan(a);
    x = atan2(a, b); x = exp(a); x = log(a); x = pow(a, b); x = fabs(b); x = fmax(a, b); x = fmin(a, b);
    c = counts();
    assert_true(c.sqrt == 1);
    for (int i = 0; i < skb::FN_COUNT; i++)
        assert_true(c.fn[i] == 1);
    assert_true(skb::flop_transcendental(c) == (unsigned long long)skb::FN_COUNT);
    assert_true(c.abs == 1 && c.cmp == 2);
    assert_true(c.add == 0 && c.mul == 0 && c.div == 0);
    // conversions are free and explicit
    skb::flop_reset();
    double d = (double)a;
    int i = (int)b;
    flop from_int = 3;
    assert_true(d == 0.75 && i == -2 && (double)from_int == 3.0);
    c = counts();
    assert_true(c.add == 0 && c.mul == 0 && c.cmp == 0);
}

// the counting build of methods/: linear blending is 12n multiplies and
// 12(n-1) additions (its code: out = w0 M0, then out += wi Mi on the 3x4)
static void test_counting_build_counts_linear_exactly(void **)
{
    const char *build = std::getenv("SKB_BUILD");
    std::string cmd = std::string(build ? build : "build") + "/skinbench-flops --samples 2 --nmax 4 --seed 3";
    FILE *p = popen(cmd.c_str(), "r");
    assert_non_null(p);
    std::string text;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, p)) > 0)
        text.append(buf, k);
    assert_int_equal(pclose(p), 0);
    cJSON *root = cJSON_Parse(text.c_str());
    assert_non_null(root);
    const cJSON *lin = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "methods"), "linear");
    const cJSON *pern = cJSON_GetObjectItemCaseSensitive(lin, "per_n"), *nj;
    int seen = 0;
    cJSON_ArrayForEach(nj, pern) {
        int n = cJSON_GetObjectItemCaseSensitive(nj, "n")->valueint;
        const cJSON *rec;
        cJSON_ArrayForEach(rec, cJSON_GetObjectItemCaseSensitive(nj, "records")) {
            assert_int_equal(cJSON_GetArrayItem(rec, 0)->valueint, 12 * (n - 1));   // add
            assert_int_equal(cJSON_GetArrayItem(rec, 1)->valueint, 12 * n);         // mul
            assert_int_equal(cJSON_GetArrayItem(rec, 2)->valueint, 0);              // div
            seen++;
        }
    }
    assert_int_equal(seen, 8);
    // every Table 4.1 method with a blend was counted, and did some arithmetic
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(root, "methods")) {
        const cJSON *rec = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "per_n"), 0), "records"), 0);
        assert_non_null(rec);
        assert_true(cJSON_GetArrayItem(rec, 1)->valueint > 0);
    }
    cJSON_Delete(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_multiply_is_one_count),
        cmocka_unit_test(test_every_operator_counted),
        cmocka_unit_test(test_counting_build_counts_linear_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
