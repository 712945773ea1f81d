/* cli_util.c — small helpers shared by the CLI commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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

/* the errno of the first failed flush, for the message at exit */
static int stdout_errno;

int skb_cli_write_stdout(const char *text, size_t len)
{
    if ((fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) && !stdout_errno)
        stdout_errno = errno;
    return stdout_errno || ferror(stdout) ? -1 : 0;
}

int skb_cli_close_stdout(void)
{
    int err = stdout_errno;
    if (fflush(stdout) != 0 && !err)
        err = errno;
    if (ferror(stdout) && !err)
        err = EIO;   /* an earlier write failed; its errno is gone */
    if (fclose(stdout) != 0 && !err)
        err = errno;
    if (!err)
        return 0;
    skb_cli_error("write error on standard output: %s", strerror(err));
    return -1;
}
