// test_flop_counter.cpp — the FLOP counter (flops/flop_real.hpp) sees every
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
static cJSON *run_counting_build(const char *args)
{
    const char *build = std::getenv("SKB_BUILD");
    std::string cmd = std::string(build ? build : "build") + "/skinbench-flops " + args;
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
    return root;
}

static void test_counting_build_counts_linear_exactly(void **)
{
    cJSON *root = run_counting_build("--samples 2 --nmax 4 --seed 3");
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


static double num(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
    assert_true(cJSON_IsNumber(x));
    return x->valuedouble;
}

// a negation is free: the counter itself charges -a to neg, and every sign
// flip in the counted methods (quat_from_mat3's q.w < 0 fix, the antipodal
// flips of the blends) costs no add or mul: the same code path with and
// without a flip counts the same add and mul, and the flip shows as neg.
// Writing a flip as q * -1 (skb_quat_scale(q, -1)) makes this fail.
static void test_negation_is_not_a_multiplication(void **)
{
    flop a = 0.75;
    skb::flop_reset();
    flop x = -a;
    assert_true(counts().neg == 1 && counts().mul == 0 && counts().add == 0);
    assert_true((double)x == -0.75);
    cJSON *root = run_counting_build("--samples 1 --nmax 2 --seed 5");
    const cJSON *nc = cJSON_GetObjectItemCaseSensitive(root, "negation_checks"), *m;
    int seen = 0, dlb = 0, qlb0 = 0, q3 = 0;
    cJSON_ArrayForEach(m, nc) {
        const cJSON *plain = cJSON_GetObjectItemCaseSensitive(m, "plain");
        const cJSON *flipped = cJSON_GetObjectItemCaseSensitive(m, "flipped");
        assert_non_null(plain);
        assert_non_null(flipped);
        if (num(m, "plain", "mul") != num(m, "flipped", "mul") || num(m, "plain", "add") != num(m, "flipped", "add"))
            fail_msg("%s: a sign flip is charged as arithmetic (mul %g -> %g, add %g -> %g)", m->string,
                     num(m, "plain", "mul"), num(m, "flipped", "mul"), num(m, "plain", "add"), num(m, "flipped", "add"));
        assert_true(num(m, "flipped", "neg") > num(m, "plain", "neg"));   // the flip did happen
        dlb += std::strcmp(m->string, "dlb") == 0;
        qlb0 += std::strcmp(m->string, "qlb0") == 0;
        q3 += std::strcmp(m->string, "quat_from_mat3") == 0;
        seen++;
    }
    assert_true(dlb == 1 && qlb0 == 1 && q3 == 1 && seen >= 4);
    // the rules are stated in the output, with negation among the free operations
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "counting_rules");
    const cJSON *freeops = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rules, "free"), "operations");
    assert_true(cJSON_IsString(freeops) && std::strstr(freeops->valuestring, "negation"));
    cJSON_Delete(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_multiply_is_one_count),
        cmocka_unit_test(test_every_operator_counted),
        cmocka_unit_test(test_counting_build_counts_linear_exactly),
        cmocka_unit_test(test_negation_is_not_a_multiplication),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
