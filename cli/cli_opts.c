/* cli_opts.c — the table-driven option parser (skb_cli_opts.h).  The rule of
 * every command: --help/-h wherever it comes first; an option that takes a
 * value consumes the next argument; an unknown option, one missing its
 * value or given an empty one, is a usage error (exit 2) worded the same in
 * every command. */
#include <string.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"

void skb_cli_usage(const struct skb_cli_spec *s, FILE *f)
{
    fputs(s->synopsis, f);
    for (const struct skb_opt *o = s->opts; o->name || o->help; o++)
        fputs(o->help, f);
    if (s->footer)
        s->footer(f);
}

static const struct skb_opt *find_opt(const struct skb_cli_spec *s, const char *a)
{
    for (const struct skb_opt *o = s->opts; o->name || o->help; o++)
        if (o->name && strcmp(o->name, a) == 0)
            return o;
    return NULL;
}

/* one option and its value: 0 stored, -1 usage error printed */
static int apply(const struct skb_opt *o, void *opts, const char *v)
{
    char *base = opts;
    switch (o->kind) {
    case SKB_OPT_FLAG:
        *(int *)(void *)(base + o->off) = o->val;
        return 0;
    case SKB_OPT_STRING:
        *(const char **)(void *)(base + o->off) = v;
        return 0;
    case SKB_OPT_VALUE:
        return o->set(opts, v);
    case SKB_OPT_TEXT:
        break;
    }
    return -1;
}

int skb_cli_parse(const struct skb_cli_spec *s, int argc, char **argv, void *opts)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skb_cli_is_help(a)) {
            skb_cli_usage(s, stdout);
            return 1;
        }
        const struct skb_opt *o = find_opt(s, a);
        int takes = o && o->kind != SKB_OPT_FLAG;
        /* an empty value never means "all" or "here": --methods '' is not
         * every method, --out '' not the current directory */
        if (o && takes && o->kind != SKB_OPT_TEXT && v && !v[0]) {
            skb_cli_error("%s: %s: empty value (see skinbench %s --help)", s->cmd, a, s->cmd);
            return 2;
        }
        if (o && o->kind != SKB_OPT_TEXT && (!takes || v)) {
            if (apply(o, opts, v) < 0)
                return 2;
            i += takes;
        } else if (a[0] == '-' || !s->positional) {
            skb_cli_error("%s: unknown or incomplete option '%s' (see skinbench %s --help)", s->cmd, a, s->cmd);
            return 2;
        } else if (s->positional(opts, a) < 0) {
            return 2;
        }
    }
    return 0;
}
