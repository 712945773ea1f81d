/* test_paths.c — common/skb_paths.c's reading half and common/skb_scratch.c:
 * a link in any component below the given directory is refused (first,
 * middle or last), a regular file below it reads; a scratch directory of a
 * dead process is reaped only when it carries its maker's proof, and a link
 * or a foreign directory by that name is left alone with what it points at. */
#include "skb_test.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_scratch.h"

static char root[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void mk(const char *rel)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    assert_int_equal(mkdir(p, 0755), 0);
}

static void ln(const char *target, const char *rel)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    assert_int_equal(symlink(target, p), 0);
}

static void rm_tree(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/skb-test-paths-XXXXXX");
    assert_non_null(mkdtemp(root));
    /* run/images/a.png (real), run/images/sad -> ../../outside (a link in
     * the middle), run/images/b.png -> ../../outside/secret.png (a link last),
     * run/linked -> images (a link first) */
    mk("outside");
    put("outside/secret.png", "SECRET");
    mk("run");
    mk("run/images");
    put("run/images/a.png", "PNG-A");
    ln("../../outside", "run/images/sad");
    ln("../../outside/secret.png", "run/images/b.png");
    ln("images", "run/linked");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rm_tree(root);
    return 0;
}

static void test_read_below(void **state)
{
    (void)state;
    char run[128], msg[512], *buf = NULL;
    size_t n;
    snprintf(run, sizeof run, "%s/run", root);
    assert_int_equal(skb_read_below(run, "images/a.png", 0, &buf, &n, msg, sizeof msg), 0);
    assert_string_equal(buf, "PNG-A");
    free(buf);
    static const char *const refused[] = { "images/sad/secret.png", "images/b.png", "linked/a.png", NULL };
    for (int i = 0; refused[i]; i++) {
        buf = NULL;
        assert_true(skb_read_below(run, refused[i], 0, &buf, &n, msg, sizeof msg) < 0);
        assert_null(buf);
        assert_non_null(strstr(msg, "is a symbolic link"));
        assert_null(strchr(msg, '\n'));
    }
    assert_true(skb_read_below(run, "../outside/secret.png", 0, &buf, &n, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "'..'"));
    assert_true(skb_read_below(run, "/etc/passwd", 0, &buf, &n, msg, sizeof msg) < 0);
    assert_true(skb_read_below(run, "images", 0, &buf, &n, msg, sizeof msg) < 0);   /* a directory */
    assert_non_null(strstr(msg, "not a regular file"));
}

static void test_open_stat_below(void **state)
{
    (void)state;
    char run[128], msg[512];
    struct stat st;
    snprintf(run, sizeof run, "%s/run", root);
    int fd = skb_open_below(run, "images", 1, msg, sizeof msg);
    assert_true(fd >= 0);
    close(fd);
    assert_true(skb_open_below(run, "images/sad", 1, msg, sizeof msg) < 0);
    assert_true(skb_open_below(run, "linked", 1, msg, sizeof msg) < 0);
    assert_int_equal(skb_stat_below(run, "images/a.png", &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(skb_stat_below(run, "images/b.png", &st), 0);   /* the link itself, not followed */
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(skb_stat_below(run, "images/sad/secret.png", &st), -1);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(skb_stat_below(run, "images/none.png", &st), -1);
    assert_int_equal(errno, ENOENT);
}

/* a scratch directory whose process died: made by a child that exits
 * without removing it */
static void dead_scratch(char *dir, size_t len)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char d[512], msg[256];
        int ok = skb_scratch_make("testreap", d, sizeof d, msg, sizeof msg) == 0;
        ssize_t w = write(p[1], ok ? d : "", ok ? strlen(d) + 1 : 1);
        _exit(w > 0 && ok ? 0 : 1);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ssize_t n = read(p[0], dir, len - 1);
    assert_true(n > 1);
    dir[n] = 0;
    close(p[0]);
    close(p[1]);
}

static void test_scratch_reap(void **state)
{
    (void)state;
    char tmpdir[128], dead[512], path[1024], msg[256], mine[512];
    struct stat st;
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", root);
    mk("tmp");
    mk("victim");
    put("victim/keep", "precious");
    assert_int_equal(setenv("TMPDIR", tmpdir, 1), 0);
    dead_scratch(dead, sizeof dead);
    /* what a killed run leaves inside: files, a subdirectory, a link out */
    snprintf(path, sizeof path, "%s/run", dead);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/run/cg.out", dead);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/out", dead);
    assert_int_equal(symlink("../../victim", path), 0);
    /* planted by that name pattern: a link to the victim, a directory
     * without the marker, one with a marker naming another directory */
    ln("../victim", "tmp/skb-testreap-999999-abcdef");
    mk("tmp/skb-testreap-999998-abcdef");
    assert_int_equal(chmod(strcat(strcpy(path, tmpdir), "/skb-testreap-999998-abcdef"), 0700), 0);
    mk("tmp/skb-testreap-999997-abcdef");
    snprintf(path, sizeof path, "%s/skb-testreap-999997-abcdef", tmpdir);
    assert_int_equal(chmod(path, 0700), 0);
    put("tmp/skb-testreap-999997-abcdef/" SKB_SCRATCH_MARKER, "skinbench scratch skb-testreap-999996-abcdef uid 0\n");
    /* another user's directory with a marker naming it: kept (root can
     * make one; otherwise the uid check is exercised by the cases above) */
    char foreign[300] = "";
    if (geteuid() == 0) {
        snprintf(foreign, sizeof foreign, "%s/skb-testreap-999995-abcdef", tmpdir);
        assert_int_equal(mkdir(foreign, 0700), 0);
        put("tmp/skb-testreap-999995-abcdef/" SKB_SCRATCH_MARKER, "skinbench scratch skb-testreap-999995-abcdef uid 0\n");
        snprintf(path, sizeof path, "%s/" SKB_SCRATCH_MARKER, foreign);
        assert_int_equal(chown(path, 12345, 12345), 0);
        assert_int_equal(chown(foreign, 12345, 12345), 0);
    }
    /* this process's own, alive: kept */
    assert_int_equal(skb_scratch_make("testreap", mine, sizeof mine, msg, sizeof msg), 0);
    assert_int_equal(stat(mine, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(skb_scratch_reap("testreap"), 1);
    assert_int_equal(lstat(dead, &st), -1);                      /* the dead one's, gone */
    snprintf(path, sizeof path, "%s/victim/keep", root);
    assert_int_equal(stat(path, &st), 0);                        /* nothing through a link */
    snprintf(path, sizeof path, "%s/skb-testreap-999999-abcdef", tmpdir);
    assert_int_equal(lstat(path, &st), 0);
    snprintf(path, sizeof path, "%s/skb-testreap-999998-abcdef", tmpdir);
    assert_int_equal(lstat(path, &st), 0);
    snprintf(path, sizeof path, "%s/skb-testreap-999997-abcdef", tmpdir);
    assert_int_equal(lstat(path, &st), 0);
    if (foreign[0])
        assert_int_equal(lstat(foreign, &st), 0);
    assert_int_equal(lstat(mine, &st), 0);
    assert_int_equal(skb_scratch_remove(mine), 0);
    assert_int_equal(lstat(mine, &st), -1);
    unsetenv("TMPDIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_below),
        cmocka_unit_test(test_open_stat_below),
        cmocka_unit_test(test_scratch_reap),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
