/* cli_util.c — small helpers shared by the CLI commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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

/* written with write(2) so that a failure leaves nothing in stdout's buffer
 * or error flag: the message is printed here, once, and the flush at exit
 * (skb_cli_close_stdout) has nothing left to fail on (no state kept between
 * the two, so no mutable static) */
int skb_cli_write_stdout(const char *text, size_t len)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return -1;   /* reported by skb_cli_close_stdout */
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            stdout_error(n < 0 ? errno : EIO);
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
