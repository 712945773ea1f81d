/* cpu_inject.c — SKB_INJECT_SLOWDOWN for `run cpu` and `run icount`: read
 * once per run, marked on the kernels it names (the extra work itself is
 * done in cpu_kernels.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_internal.h"
#include "skb_icount.h"

/* ---- slow-down injection (validating the compare gates, docs/report-and-regression.md "Nightly regression") ----
 * SKB_INJECT_SLOWDOWN=method:percent gives that method's kernels (double,
 * f32; not peers) percent % more real work in every deformation: the skin
 * pass runs again over percent % of the vertices (a slice that moves on
 * round the mesh, whole extra passes above 100 %), and prepare runs again once per 100/percent
 * deformations (an accumulator: prepare is per joint, a small share).
 * Extra work, not a clock: the instruction-count gate (exp_icount.c) sees
 * it as well as the timing gate, at the same cost on a loaded machine as
 * on an idle one.  Every deformation carries its share, so a repetition of
 * a few deformations is slowed as much as a long one (a whole extra
 * deformation every 100/percent, tried first, left most short repetitions
 * untouched: the A/B gate's fastest repetition did not see it).  The one
 * extra skin call costs its fixed overhead too: on the smallest f32 kernel
 * (arm, ~7 instructions per vertex) that is a few per cent more than asked
 * (measured with callgrind, docs/report-and-regression.md).  A clock-based spin, the first
 * version, overshot small meshes and was invisible to instruction counts.
 * Off by default; read here only, and recorded in cpu.json and icount.json
 * "injected_slowdown" (null when off) so that compare refuses such a run as
 * a baseline.  SKB_INJECT_TWIN=1 beside it also times the method's double
 * path without the injected work ("METHOD+uninjected"), in the same run:
 * tests/paired_injection.sh sees the slow-down pair by pair in one sitting. */

int skb__cpu_read_injection(struct inject *inject, char *msg, size_t msglen)
{
    const char *v = getenv("SKB_INJECT_SLOWDOWN");
    memset(inject, 0, sizeof *inject);
    if (!v || !*v)
        return 0;
    const char *colon = strchr(v, ':');
    char *end = NULL;
    double pct = colon ? strtod(colon + 1, &end) : NAN;
    size_t n = colon ? (size_t)(colon - v) : 0;
    if (!colon || n == 0 || n >= sizeof inject->method || end == colon + 1 || *end || !(pct > 0 && pct <= 1000)) {
        snprintf(msg, msglen, "cpu: SKB_INJECT_SLOWDOWN '%s': expected METHOD:PERCENT with 0 < PERCENT <= 1000", v);
        return SKB_EINVAL;
    }
    memcpy(inject->method, v, n);
    inject->frac = pct / 100;
    inject->per_deform = lround(pct * (INJECT_UNIT / 100));
    const char *tw = getenv("SKB_INJECT_TWIN");
    inject->twin = tw && strcmp(tw, "1") == 0;
    return 0;
}

int skb__cpu_injection_json(cJSON *root, char *msg, size_t msglen)
{
    struct inject inject;
    int rc = skb__cpu_read_injection(&inject, msg, msglen);
    if (rc < 0)
        return rc;
    if (inject.frac > 0) {
        cJSON *inj = cJSON_AddObjectToObject(root, "injected_slowdown");
        cJSON_AddStringToObject(inj, "method", inject.method);
        cJSON_AddNumberToObject(inj, "percent", 100 * inject.frac);
        cJSON_AddBoolToObject(inj, "twin", inject.twin);
    } else {
        cJSON_AddNullToObject(root, "injected_slowdown");
    }
    return 0;
}

/* set c->injected on the kernels SKB_INJECT_SLOWDOWN names (once, not
 * per deformation: the test would add work to every kernel) */
void skb__cpu_mark_injected(struct bcase *c, int n, const struct inject *inject)
{
    for (int i = 0; i < n; i++)
        c[i].injected = inject->per_deform > 0 && c[i].m && c[i].kind != K_PEER && !c[i].no_inject
                        && strcmp(c[i].m->name, inject->method) == 0 ? inject->per_deform : 0;
}
