/* experiment_list.c — the one list of experiments: each descriptor ties an
 * experiment's run half (harness/exp_<name>.c, struct skb_experiment) to its
 * results files and their schema checks, its report sections, its plots and
 * its nightly gate (the built-in ones: regress/gate_exact.c).  `run`, `list`,
 * `report` and `compare` all read this list.  Adding an experiment: one file defining a
 * `const struct skb_experiment_desc skb_desc_<name>` (and its run half), and
 * one line below (ARCHITECTURE.md "Adding an experiment"). */
#include <stdio.h>
#include <string.h>
#include "report_internal.h"
#include "skb_method.h"   /* the methods' roles (skb_method_role_name) */
#include "skb_run.h"

/* ---- sections that take arguments ---- */

static void table52(struct skb_report *rep)
{
    const char *const t52[] = { skb_method_role_name(SKB_MF_RATIO_REF), "bottom_up", "best", NULL };
    skb__report_sphere_table(rep, "table52", "Thesis Table 5.2: average sphere radius per level, LBS refits",
                             "table_5_2", t52, 0);
}

static void table61(struct skb_report *rep)
{
    const char *const t61[] = { skb_method_role_name(SKB_MF_RATIO_REF), skb_method_role_name(SKB_MF_ROT_CENTERS),
                                "best", NULL };
    skb__report_sphere_table(rep, "table61", "Thesis Table 6.1 / 002 Table 1: sphere radius per level, SBS and new refits",
                             "table_6_1", t61, 1);
}

/* ---- the built-in experiments (harness/exp_<name>.c run them) ---- */

static const struct skb_experiment_desc desc_properties = {
    .run = &skb_exp_properties,
    .files = (const struct skb_result_file[]){
        { "properties.json", 1, NULL, "verdicts/* verdicts_other_methods/*", &skb_schema_properties }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table41", SKB_NEED_BLEND, skb__report_table41, NULL }, { NULL, 0, NULL, NULL } },
};

static const struct skb_experiment_desc desc_flops = {
    .run = &skb_exp_flops,
    .files = (const struct skb_result_file[]){
        { "flops.json", 1, NULL, "fits/*", &skb_schema_flops }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "flops", SKB_NEED_BLEND, skb__report_flops, NULL }, { NULL, 0, NULL, NULL } },
};

static const struct skb_experiment_desc desc_bounds = {
    .run = &skb_exp_bounds,
    .files = (const struct skb_result_file[]){ { "bounds.json", 1, NULL, NULL, &skb_schema_bounds }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "bounds", SKB_NEED_NONE, skb__report_bounds, NULL }, { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){
        { "bounds", SKB_NEED_NONE, skb__plot_bounds }, { "dib-iterations", SKB_NEED_NONE, skb__plot_dib },
        { NULL, 0, NULL } },
};

static const struct skb_experiment_desc desc_cpu = {
    .run = &skb_exp_cpu,
    .files = (const struct skb_result_file[]){
        { "cpu.json", 1, NULL, "datasets/*/ms/*", &skb_schema_cpu }, { "cpu-gbench.json", 0, NULL, NULL, &skb_schema_cpu_gbench },
        /* run cpu --offset-sweep (harness/fast_sweep.c): not compared, not in the report */
        { "cpu-offsets.json", 1, NULL, NULL, &skb_schema_cpu_offsets },
        { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "fig18", SKB_NEED_SKIN, skb__report_fig18, NULL }, { "fast", SKB_NEED_F32, skb__report_fast, NULL },
        { "table32", SKB_NEED_NONE, skb__report_table32, NULL }, { NULL, 0, NULL, NULL } },
    /* stem "cpu": skb__plot_cpu writes cpu-times and cpu-ratio */
    .plots = (const struct skb_report_plot[]){ { "cpu", SKB_NEED_SKIN, skb__plot_cpu }, { NULL, 0, NULL } },
};

static const struct skb_experiment_desc desc_gpu = {
    .run = &skb_exp_gpu,
    .files = (const struct skb_result_file[]){ { "gpu.json", 1, NULL, "shaders/*/cpu_method", &skb_schema_gpu }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "fig19", SKB_NEED_SHADER, skb__report_fig19, NULL }, { "gpu", SKB_NEED_SHADER, skb__report_gpu_times, NULL },
        { "arm_volume", SKB_NEED_SKIN, skb__report_arm_volume, NULL }, { "heat_map", SKB_NEED_SKIN, skb__report_heat_map, NULL },
        { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){
        /* stem "gpu": skb__plot_gpu writes gpu-times and gpu-ratio */
        { "gpu", SKB_NEED_SHADER, skb__plot_gpu }, { "arm-volume", SKB_NEED_SKIN, skb__plot_arm_volume },
        { "arm-section", SKB_NEED_SKIN, skb__plot_arm_section }, { NULL, 0, NULL } },
};

static const struct skb_experiment_desc desc_spheres = {
    .run = &skb_exp_spheres,
    .files = (const struct skb_result_file[]){
        { "spheres.json", 1, NULL, "datasets/*/refit_time/*", &skb_schema_spheres }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table52", SKB_NEED_REFIT, table52, "refits other than LBS are in the Table 6.1 section" },
        { "table61", SKB_NEED_REFIT, table61, "the LBS refit is in the Table 5.2 section" },
        { "spheretree", SKB_NEED_REFIT, skb__report_sphere_tree, NULL }, { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){
        { "sphere-radii", SKB_NEED_REFIT, skb__plot_spheres }, { NULL, 0, NULL } },
};

static const struct skb_experiment_desc desc_cd = {
    .run = &skb_exp_cd,
    .files = (const struct skb_result_file[]){ { "cd.json", 1, NULL, "scenarios/*/methods/*", &skb_schema_cd }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table53", SKB_NEED_NONE, skb__report_table53, NULL }, { "table62", SKB_NEED_REFIT, skb__report_table62, NULL },
        { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){ { "cd-scaling", SKB_NEED_NONE, skb__plot_cd }, { NULL, 0, NULL } },
};

/* instruction counts of every CPU kernel, the nightly's exact
 * timing-free gate (no report section: compare reads it) */
static const struct skb_experiment_desc desc_icount = {
    .run = &skb_exp_icount,
    .files = (const struct skb_result_file[]){ { "icount.json", 1, NULL, NULL, &skb_schema_icount }, { NULL, 0, NULL, NULL, NULL } },
};

/* the list: one line per experiment, in the order `run all` executes them
 * and the report shows them.  It is the only declaration of the results
 * files: report code looks them up by name (skb_results_doc). */
extern const struct skb_experiment_desc skb_desc_sad;   /* reports/report_sad.c */
const struct skb_experiment_desc *const skb_experiment_list[] = {
    &desc_properties,
    &desc_flops,
    &desc_bounds,
    &desc_cpu,
    &desc_gpu,
    &desc_spheres,
    &desc_cd,
    &desc_icount,
    &skb_desc_sad,
    NULL
};

int skb_experiment_file_index(const struct skb_experiment_desc *d, int nth)
{
    return d->files && d->files[nth].file ? skb_rfile_find(d->files[nth].file) : -1;
}
