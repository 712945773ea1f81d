/* skb_cli_opts.h — the one option parser of every command: a table per
 * command (option name, argument kind, destination, help lines); --help is
 * printed from the same table, so the help and the parsing cannot disagree. */
#ifndef SKB_CLI_OPTS_H
#define SKB_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

enum skb_opt_kind {
    SKB_OPT_TEXT,    /* no option: a help-only row (prose between option lines) */
    SKB_OPT_FLAG,    /* --name: the int at off becomes val */
    SKB_OPT_STRING,  /* --name V: the const char * at off becomes V */
    SKB_OPT_VALUE    /* --name V: set(opts, V) checks and stores V */
};

struct skb_opt {
    const char *name;
    enum skb_opt_kind kind;
    size_t off;
    int val;
    /* SKB_OPT_VALUE: 0, or -1 after printing the usage error */
    int (*set)(void *opts, const char *v);
    /* printed as it is under --help ("" for an option the synopsis covers) */
    const char *help;
};

struct skb_cli_spec {
    const char *cmd;                 /* "run": names the command in errors */
    const char *synopsis;            /* printed before the table's rows */
    const struct skb_opt *opts;      /* ends with a row of name NULL and help NULL */
    /* printed after the rows (may be NULL): a list the binary knows */
    void (*footer)(FILE *f);
    /* an argument that is not an option (may be NULL: every argument must be
     * one); 0, or -1 after printing the usage error */
    int (*positional)(void *opts, const char *arg);
};

/* the command's --help from its table */
void skb_cli_usage(const struct skb_cli_spec *s, FILE *f);
/* parse argv[1..argc-1] into opts: 0 parsed, 1 --help printed (exit 0),
 * 2 usage error printed (exit 2) */
int skb_cli_parse(const struct skb_cli_spec *s, int argc, char **argv, void *opts);

#endif
