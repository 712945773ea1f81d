/* exp_cpu_control.c — the `cpu` experiment's table of the paired control
 * (cpu.json large_mesh.paired_control, harness/cpu_paired.c): each
 * one-thread fast kernel on the roofline mesh over a control timed beside
 * it, pair by pair.  What separate processes are compared on
 * (scripts/device-cpu.sh); one run shows one process. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_report.h"

static char *interval_text(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) ? skb__fmt("%.4g – %.4g", lo, hi) : strdup("too few pairs");
}

static void control_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *pc)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, skb__jget(pc, "rows")) {
        double v[6] = { NAN, NAN, NAN, NAN, NAN, NAN };
        static const char *const keys[] = { "ratio", "ci_low", "ci_high", "floor_ratio", "kernel_min_ms",
                                            "control_min_ms" };
        for (int i = 0; i < 6; i++)
            skb__jnum(skb__jget(row, keys[i]), &v[i]);
        const char *kn = skb__jstr(skb__jget(row, "kernel")), *cn = skb__jstr(skb__jget(row, "control"));
        skb__row_add(rep, t, k, SKB_ROW_NEW, strdup("no paper value"), strdup(kn ? kn : "?"), strdup(cn ? cn : "?"),
                     skb__fmt("%.4g", v[0]), interval_text(v[1], v[2]), skb__fmt("%.4g", v[3]),
                     skb__fmt("%.4g", v[4]), skb__fmt("%.4g", v[5]), NULL);
    }
}

void skb__cpu_control_table(struct skb_report *rep)
{
    static const char *const cols[] = { "kernel", "control", "time ratio (pairs)", "95 % interval",
                                        "fastest over fastest", "kernel fastest ms", "control fastest ms", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "fast_control", "Fast kernels against an in-process control: roofline mesh",
                                        "skinbench (docs/report-and-regression.md \"Fast kernels: the paired control\")",
                                        strdup("One deformation of the kernel and one run of its control (memcpy of 72 "
                                               "bytes a vertex, or the method's 4-slot kernel) back to back, order "
                                               "alternating, one thread, CPU time; the ratio is the Hodges-Lehmann "
                                               "estimate over the pairs. Separate processes are compared on these "
                                               "ratios (target, not a paper value: spread <= 10 % across five)."),
                                        cols);
    if (!t)
        return;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *lm = skb__jget(skb_results_doc(&rep->runs[k], "cpu.json"), "large_mesh");
        if (skb__jget(lm, "paired_control"))
            control_rows(rep, t, k, skb__jget(lm, "paired_control"));
    }
}
