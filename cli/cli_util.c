/* cli_util.c — small helpers shared by the CLI commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "skb_cli.h"

void skb_cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("skinbench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int skb_cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int skb_cli_parse_ulong(const char *s, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

static void stdout_error(int err)
{
    skb_cli_error("write error on standard output: %s", strerror(err));
}

/* a failed stdout, its error printed: descriptor 1 becomes /dev/null, so
 * the flush and close at exit (skb_cli_close_stdout) succeed and the error
 * is reported once, with its own errno, without a static to remember it */
static void retire_stdout(int err)
{
    stdout_error(err);
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd >= 0 && fd != STDOUT_FILENO) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
}

/* written with write(2), past stdout's buffer (flushed first), so that a
 * failure leaves nothing buffered to fail again at exit */
int skb_cli_write_stdout(const char *text, size_t len)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return -1;   /* reported by skb_cli_close_stdout */
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            retire_stdout(n < 0 ? errno : EIO);
            return -1;
        }
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

int skb_cli_close_stdout(void)
{
    int err = 0;
    if (fflush(stdout) != 0 && !err)
        err = errno;
    if (ferror(stdout) && !err)
        err = EIO;   /* an earlier write failed; its errno is gone */
    if (fclose(stdout) != 0 && !err)
        err = errno;
    if (!err)
        return 0;
    stdout_error(err);
    return -1;
}
