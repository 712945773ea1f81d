/* skb_cli.h — CLI commands (one file each: cli/cmd_<name>.c).  Each takes
 * argc/argv starting at its own name, prints its own --help, and returns the
 * process exit code (0 ok, 1 runtime error, 2 usage error). */
#ifndef SKB_CLI_H
#define SKB_CLI_H

#include <stdio.h>

/* the skinbench release; `skinbench --version` adds the git revision */
#define SKB_VERSION "0.1.0"

/* what the binary was built from (cli/build_info.c): git describe (may end
 * in "-dirty"), the full commit id, the compiler; "" outside a checkout */
struct skb_build_info {
    const char *git_describe, *git_rev, *compiler;
};
extern const struct skb_build_info skb_build_info;

struct skb_command {
    const char *name;
    const char *help;
    int (*fn)(int argc, char **argv);
};

int skb_cmd_list(int argc, char **argv);
int skb_cmd_blend(int argc, char **argv);
int skb_cmd_skin(int argc, char **argv);
int skb_cmd_run(int argc, char **argv);
int skb_cmd_report(int argc, char **argv);
int skb_cmd_compare(int argc, char **argv);
int skb_cmd_schema(int argc, char **argv);
int skb_cmd_store(int argc, char **argv);
int skb_cmd_bisect(int argc, char **argv);

/* "skinbench: " + message on stderr, newline added */
void skb_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 if argv[i] is --help/-h */
int skb_cli_is_help(const char *arg);
/* parse a decimal unsigned long; 0 ok */
int skb_cli_parse_ulong(const char *s, unsigned long *out);
/* flush and close stdout at exit: a full disk or a closed pipe must not pass
 * as success (`skinbench list > /dev/full`); prints the error, -1 on failure */
int skb_cli_close_stdout(void);
/* write len bytes to stdout, past its buffer (flushed first); -1 if that or
 * anything written before failed, the error printed once: here, or by
 * skb_cli_close_stdout when an earlier buffered write failed */
int skb_cli_write_stdout(const char *text, size_t len);

#endif
