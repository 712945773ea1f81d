/* main.c — the skinbench command line: one table of commands, each with its
 * own --help.  Errors from libraries come back as codes + one-line messages;
 * only this file prints them. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_cli.h"

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct skb_command commands[] = {
    { "list",  "list methods, datasets and experiments", skb_cmd_list },
    { "blend", "blend rigid transforms with one method (JSON in, JSON out)", skb_cmd_blend },
    { "skin",  "deform a model with one method and write OBJ", skb_cmd_skin },
    { "run",   "run experiments and write results JSON", skb_cmd_run },
    { "report", "write report.md/.html and plots from results JSON", skb_cmd_report },
    { "compare", "compare a run against a baseline (nightly regression gates)", skb_cmd_compare },
    { "schema", "print the table of fields of each results file, or check a run", skb_cmd_schema },
    { "store", "the results store: add runs, baselines per machine, export, list", skb_cmd_store },
    { "bisect", "build the revisions between GOOD and BAD; name the first that moved a kernel", skb_cmd_bisect },
    { "version", "print the version, git revision and compiler", cmd_version },
    { "help",  "show this help, or help CMD: the help of one command", cmd_help },
    { NULL, NULL, NULL }
};

static void usage(FILE *f)
{
    fprintf(f, "usage: skinbench COMMAND [options]   (skinbench COMMAND --help for details)\n\n"
               "skinbench: benchmark and verification harness for skeletal skinning and\n"
               "rigid-transformation blending.\n\ncommands:\n");
    for (int i = 0; commands[i].name; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
}

static int cmd_version(int argc, char **argv)
{
    if (argc > 1 && skb_cli_is_help(argv[1])) {
        printf("usage: skinbench version   (or skinbench --version)\n"
               "  prints the skinbench version, the git revision it was built from, and the compiler\n");
        return 0;
    }
    if (argc > 1) {
        skb_cli_error("version: unexpected argument '%s' (see skinbench version --help)", argv[1]);
        return 2;
    }
    printf("skinbench %s", SKB_VERSION);
    if (skb_build_info.git_describe[0])
        printf(" (git %s)", skb_build_info.git_describe);
    printf("\ncompiler: %s\n", skb_build_info.compiler);
    return 0;
}

/* `skinbench help CMD` is `skinbench CMD --help`: each command owns its help */
static int cmd_help(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (int i = 0; commands[i].name; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            char *sub[] = { argv[1], "--help", NULL };
            return commands[i].fn(2, sub);
        }
    fprintf(stderr, "skinbench: help: unknown command '%s' (try skinbench --help)\n", argv[1]);
    return 2;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(argc - 1, argv + 1);
    for (int i = 0; commands[i].name; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "skinbench: unknown command '%s' (try skinbench --help)\n", argv[1]);
    return 2;
}

int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    /* output that never reached its destination is a failure (exit 1) */
    if (skb_cli_close_stdout() < 0 && rc == 0)
        rc = 1;
    return rc;
}
