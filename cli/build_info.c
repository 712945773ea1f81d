/* build_info.c — what this binary was built from: the git revision (the
 * Makefile passes it here, and rebuilds this one file when it changes) and
 * the compiler.  `skinbench --version` prints them; `run` writes them into
 * the run's manifest, where the results store and bisect read the revision. */
#include "skb_cli.h"

/* a build outside a git checkout has neither */
#ifndef SKB_GIT_DESCRIBE
#define SKB_GIT_DESCRIBE ""
#endif
#ifndef SKB_GIT_REV
#define SKB_GIT_REV ""
#endif
#if defined(__clang__)
#define SKB_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define SKB_COMPILER "gcc " __VERSION__
#else
#define SKB_COMPILER "unknown compiler"
#endif

const struct skb_build_info skb_build_info = { SKB_GIT_DESCRIBE, SKB_GIT_REV, SKB_COMPILER };
