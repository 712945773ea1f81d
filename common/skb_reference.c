/* skb_reference.c — the one search order for reports/reference.json. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "skb_error.h"
#include "skb_reference.h"

int skb_reference_find(const char *exe_dir, char *out, size_t outlen)
{
    static const char *const next_to_exe[] = { "reports/reference.json", "../reports/reference.json" };
    const char *env = getenv("SKB_REFERENCE");
    if (env && *env && access(env, R_OK) == 0) {
        snprintf(out, outlen, "%s", env);
        return 0;
    }
    for (int i = 0; exe_dir && *exe_dir && i < 2; i++) {
        if ((size_t)snprintf(out, outlen, "%s/%s", exe_dir, next_to_exe[i]) < outlen
            && access(out, R_OK) == 0)
            return 0;
    }
    snprintf(out, outlen, "reports/reference.json");
    if (access(out, R_OK) == 0)
        return 0;
    if (outlen)
        out[0] = 0;
    return SKB_EIO;
}
