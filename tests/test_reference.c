/* test_reference.c — common/skb_reference.c, the one search order for
 * reports/reference.json ($SKB_REFERENCE, next to the executable, ./reports),
 * in a private temporary tree. */
#include "skb_test.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_error.h"
#include "skb_reference.h"

static char root[PATH_MAX];

static void touch(const char *rel)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("{}\n", f);
    fclose(f);
}

static void sub(const char *rel, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", root, rel);
}

static void test_search_order(void **state)
{
    (void)state;
    char found[2 * PATH_MAX], want[2 * PATH_MAX], exe[PATH_MAX + 64], old[PATH_MAX];
    snprintf(root, sizeof root, "/tmp/skb-ref-XXXXXX");
    assert_non_null(mkdtemp(root));
    assert_non_null(getcwd(old, sizeof old));
    char d[PATH_MAX + 64];
    const char *dirs[] = { "reports", "build", "cwd", "cwd/reports" };
    for (int i = 0; i < 4; i++) {
        sub(dirs[i], d, sizeof d);
        assert_int_equal(mkdir(d, 0755), 0);
    }
    sub("cwd", d, sizeof d);
    assert_int_equal(chdir(d), 0);
    unsetenv("SKB_REFERENCE");
    sub("build", exe, sizeof exe);

    /* nothing anywhere: an error, empty path */
    assert_int_equal(skb_reference_find(exe, found, sizeof found), SKB_EIO);
    assert_string_equal(found, "");
    /* ./reports only */
    touch("cwd/reports/reference.json");
    assert_int_equal(skb_reference_find(exe, found, sizeof found), 0);
    assert_string_equal(found, "reports/reference.json");
    /* next to <repo>/build/skinbench: EXE_DIR/../reports beats ./reports */
    touch("reports/reference.json");
    assert_int_equal(skb_reference_find(exe, found, sizeof found), 0);
    snprintf(want, sizeof want, "%s/../reports/reference.json", exe);
    assert_string_equal(found, want);
    /* no executable directory: ./reports */
    assert_int_equal(skb_reference_find(NULL, found, sizeof found), 0);
    assert_string_equal(found, "reports/reference.json");
    /* $SKB_REFERENCE first, when readable */
    touch("mine.json");
    sub("mine.json", want, sizeof want);
    setenv("SKB_REFERENCE", want, 1);
    assert_int_equal(skb_reference_find(exe, found, sizeof found), 0);
    assert_string_equal(found, want);
    setenv("SKB_REFERENCE", "/nonexistent/ref.json", 1);
    assert_int_equal(skb_reference_find(exe, found, sizeof found), 0);
    assert_true(strstr(found, "/../reports/reference.json") != NULL);
    unsetenv("SKB_REFERENCE");

    assert_int_equal(chdir(old), 0);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_order),
    };
    return cmocka_run_group_tests_name("reference", tests, NULL, NULL);
}
