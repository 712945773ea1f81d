/* experiment_list.c — the one list of experiments, and its look-up by name.
 * Each experiment is one unit named alike: its run half in
 * harness/exp_<name>.c (struct skb_experiment), its results files' tables
 * beside it (harness/exp_<name>_schema.c), and its report half in
 * reports/exp_<name>.c: the descriptor `skb_desc_<name>` tying the run half
 * to its results files and their schema checks, its report sections, its
 * plots and its nightly gate (cpu's and icount's: regress/gate_exact.c).
 * `run`, `list`, `report` and `compare` all read this list.  Adding an
 * experiment: one file defining a `const struct skb_experiment_desc
 * skb_desc_<name>` (and its run half), and one line below (ARCHITECTURE.md
 * "Adding an experiment").  The list holds data only: it calls none of
 * the experiments' files. */
#include <string.h>
#include "report_internal.h"
#include "skb_run.h"

extern const struct skb_experiment_desc skb_desc_properties;   /* reports/exp_properties.c */
extern const struct skb_experiment_desc skb_desc_flops;        /* reports/exp_flops.c */
extern const struct skb_experiment_desc skb_desc_bounds;       /* reports/exp_bounds.c */
extern const struct skb_experiment_desc skb_desc_cpu;          /* reports/exp_cpu.c */
extern const struct skb_experiment_desc skb_desc_gpu;          /* reports/exp_gpu.c */
extern const struct skb_experiment_desc skb_desc_spheres;      /* reports/exp_spheres.c */
extern const struct skb_experiment_desc skb_desc_cd;           /* reports/exp_cd.c */
extern const struct skb_experiment_desc skb_desc_icount;       /* reports/exp_icount.c */
extern const struct skb_experiment_desc skb_desc_sad;          /* reports/exp_sad.c */
extern const struct skb_experiment_desc skb_desc_artifacts;    /* reports/exp_artifacts.c */

/* the list: one line per experiment, in the order `run all` executes them
 * and the report shows them.  It is the only declaration of the results
 * files: report code looks them up by name (skb_results_doc). */
const struct skb_experiment_desc *const skb_experiment_list[] = {
    &skb_desc_properties,
    &skb_desc_flops,
    &skb_desc_bounds,
    &skb_desc_cpu,
    &skb_desc_gpu,
    &skb_desc_spheres,
    &skb_desc_cd,
    &skb_desc_icount,
    &skb_desc_sad,
    &skb_desc_artifacts,
    NULL
};

const char *skb_experiment_desc_name(const struct skb_experiment_desc *d)
{
    return d->run->name;
}

const struct skb_experiment_desc *skb_experiment_desc_find(const char *name)
{
    for (int i = 0; skb_experiment_list[i]; i++)
        if (strcmp(skb_experiment_desc_name(skb_experiment_list[i]), name) == 0)
            return skb_experiment_list[i];
    return NULL;
}
