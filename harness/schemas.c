/* schemas.c — the table of fields of each results file (skb_schemas.h).
 * Each table is the file's contract: what the report, compare and the
 * tests may rely on (docs/outputs.md "Outputs").  A key path's "*" is a map whose
 * keys are data — registry method names, dataset names, shader names — never
 * spelled here, so a renamed or added method needs no edit. */
#include <string.h>
#include "skb_schemas.h"

static const char *const plus_minus[] = { "+", "-", NULL };

const struct skb_schema skb_schema_properties = {
    .file = "properties.json", .writer = "harness/exp_properties.c", .meta = 1,
    .doc = "Table 4.1: each method's verdict on each blend property",
    .fields = (const struct skb_schema_field[]){
        { .path = "verdicts", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED,
          .doc = "a map whose keys are registry method names (the paper's methods)" },
        { .path = "verdicts/*", .type = SKB_ST_OBJECT, .doc = "a map whose keys are property names" },
        { .path = "verdicts/*/*", .type = SKB_ST_ENUM, .values = plus_minus, .doc = "the measured verdict" },
        { .path = "verdicts_other_methods", .type = SKB_ST_OBJECT,
          .doc = "the same for registry methods the paper does not judge" },
        { .path = "verdicts_other_methods/*", .type = SKB_ST_OBJECT, .doc = "a map whose keys are property names" },
        { .path = "verdicts_other_methods/*/*", .type = SKB_ST_ENUM, .values = plus_minus, .doc = "the measured verdict" },
        { .path = "config", .type = SKB_ST_OBJECT, .doc = "samples, tolerances and seeds of the checks" },
        { .path = "details", .type = SKB_ST_OBJECT, .doc = "per method: worst errors and counterexamples" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_flops = {
    .file = "flops.json", .writer = "harness/exp_flops.c", .meta = 1,
    .doc = "FLOPs per vertex of each blend, counted, and the fit a + b * joints",
    .fields = (const struct skb_schema_field[]){
        { .path = "fits", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are registry method names" },
        { .path = "fits/*", .type = SKB_ST_OBJECT, .doc = "the method's fit" },
        { .path = "fits/*/a", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "FLOPs per vertex, constant part" },
        { .path = "fits/*/b", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "FLOPs per vertex per joint" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_bounds = {
    .file = "bounds.json", .writer = "harness/exp_bounds.c", .meta = 1,
    .doc = "Worst-case gaps of QLB against SLERP and DLB against ScLERP, and the worked examples",
    .fields = (const struct skb_schema_field[]){
        { .path = "qlb_slerp_max_angle_deg", .type = SKB_ST_NUMBER, .doc = "largest angle gap QLB vs SLERP (degrees)" },
        { .path = "dlb_sclerp_max_angle_deg", .type = SKB_ST_NUMBER, .doc = "largest angle gap DLB vs ScLERP (degrees)" },
        { .path = "dlb_sclerp_max_translation_frac", .type = SKB_ST_NUMBER,
          .doc = "largest translation gap DLB vs ScLERP, as a fraction" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_cpu = {
    .file = "cpu.json", .writer = "harness/exp_cpu.c", .meta = 1,
    .doc = "CPU skinning times per dataset; rows are benchmark labels (common/skb_label.h)",
    .fields = (const struct skb_schema_field[]){
        { .path = "datasets", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are dataset names" },
        { .path = "datasets/*", .type = SKB_ST_OBJECT, .doc = "one dataset's timings" },
        { .path = "datasets/*/ms", .type = SKB_ST_OBJECT,
          .doc = "ms per deformation, double path: a map whose keys are benchmark labels" },
        { .path = "datasets/*/ms/*", .type = SKB_ST_MEASURED, .doc = "ms per deformation" },
        { .path = "datasets/*/ratio_to_linear", .type = SKB_ST_OBJECT, .doc = "time over linear's: keyed by label" },
        { .path = "datasets/*/ratio_to_linear/*", .type = SKB_ST_MEASURED, .doc = "ratio" },
        { .path = "datasets/*/ms_f32", .type = SKB_ST_OBJECT, .doc = "ms per deformation, f32 path: keyed by label" },
        { .path = "datasets/*/ms_f32/*", .type = SKB_ST_MEASURED, .doc = "ms per deformation" },
        { .path = "datasets/*/ratio_to_linear_f32", .type = SKB_ST_OBJECT, .doc = "f32 time over linear's: keyed by label" },
        { .path = "datasets/*/ratio_to_linear_f32/*", .type = SKB_ST_MEASURED, .doc = "ratio" },
        { .path = "verified", .type = SKB_ST_BOOL, .doc = "every timed kernel passed its check" },
        { .path = "pages", .type = SKB_ST_OBJECT,
          .doc = "the page state of the timed buffers (harness/cpu_pages.c): written before timing, one huge-page advice" },
        { .path = "pages/policy", .type = SKB_ST_STRING, .doc = "the transparent-huge-page advice every timed buffer got" },
        { .path = "pages/resident_before_timing", .type = SKB_ST_BOOL, .doc = "mincore found every page resident" },
        { .path = "failures", .type = SKB_ST_OBJECT, .doc = "a map whose keys are benchmark names (double/LABEL/DATASET)" },
        { .path = "failures/*", .type = SKB_ST_STRING, .doc = "why the kernel failed its check" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_cpu_gbench = {
    .file = "cpu-gbench.json", .writer = "harness/bench_shim.cpp (Google Benchmark)", .meta = 0,
    .doc = "Google Benchmark's own JSON of the CPU timings (common/skb_gbench.h reads it)",
    .fields = (const struct skb_schema_field[]){
        { .path = "benchmarks", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "one row per repetition" },
        { .path = "benchmarks/[]", .type = SKB_ST_OBJECT, .doc = "a row" },
        { .path = "benchmarks/[]/name", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "PATH/LABEL/DATASET (LABEL: common/skb_label.h)" },
        { .path = "benchmarks/[]/real_time", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "wall time" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_cpu_offsets = {
    .file = "cpu-offsets.json", .writer = "harness/fast_sweep.c", .meta = 1,
    .doc = "Written by `run cpu --offset-sweep`: not compared, not in the report",
    .fields = (const struct skb_schema_field[]){ { .path = NULL } },
};

const struct skb_schema skb_schema_gpu = {
    .file = "gpu.json", .writer = "harness/exp_gpu.c", .meta = 1,
    .doc = "GPU shader times, instruction counts and errors against the CPU",
    .fields = (const struct skb_schema_field[]){
        { .path = "max_abs_error", .type = SKB_ST_OBJECT, .doc = "a map whose keys are shader names" },
        { .path = "max_abs_error/*", .type = SKB_ST_NUMBER, .doc = "largest position error against the CPU" },
        { .path = "instructions", .type = SKB_ST_OBJECT, .doc = "a map whose keys are shader names" },
        { .path = "instructions/*", .type = SKB_ST_NUMBER, .doc = "instructions per vertex" },
        { .path = "ms", .type = SKB_ST_OBJECT, .doc = "a map whose keys are dataset names" },
        { .path = "ms/*", .type = SKB_ST_OBJECT, .doc = "a map whose keys are shader names" },
        { .path = "ms/*/*", .type = SKB_ST_NUMBER, .doc = "ms per frame" },
        { .path = "shaders", .type = SKB_ST_CONTAINER, .doc = "the shaders timed (cpu_method: their registry method)" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_spheres = {
    .file = "spheres.json", .writer = "harness/exp_spheres.c", .meta = 1,
    .doc = "Tables 5.2 and 6.1: bounding-sphere radii per tree level, per refit",
    .fields = (const struct skb_schema_field[]){
        { .path = "datasets", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are dataset names" },
        { .path = "datasets/*", .type = SKB_ST_OBJECT, .doc = "one dataset" },
        { .path = "datasets/*/levels", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "one entry per tree level" },
        { .path = "datasets/*/levels/[]", .type = SKB_ST_OBJECT, .doc = "a level" },
        { .path = "datasets/*/levels/[]/level", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "the tree level" },
        { .path = "datasets/*/levels/[]/*/avg", .type = SKB_ST_NUMBER,
          .doc = "average radius of a refit (keyed by refit: registry method names, bottom_up, best, ...)" },
        { .path = "datasets/*/refit_time", .type = SKB_ST_OBJECT, .doc = "a map whose keys are registry method names" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_cd = {
    .file = "cd.json", .writer = "harness/exp_cd.c", .meta = 1,
    .doc = "Tables 5.3 and 6.2: collision detection on demand against bottom-up",
    .fields = (const struct skb_schema_field[]){
        { .path = "scaling", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "one row per subdivision level" },
        { .path = "scaling/[]", .type = SKB_ST_OBJECT, .doc = "a row" },
        { .path = "scaling/[]/level", .type = SKB_ST_INTEGER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN | SKB_SF_MAX,
          .min = 0, .max = SKB_CD_MAX_LEVEL, .doc = "subdivision level" },
        { .path = "scaling/[]/on_demand_ms", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "on-demand time" },
        { .path = "scaling/[]/bottom_up_ms", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "bottom-up time" },
        { .path = "scaling_collision_free", .type = SKB_ST_ARRAY, .doc = "the same scene with no collision" },
        { .path = "scaling_collision_free/[]/level", .type = SKB_ST_INTEGER, .flags = SKB_SF_MIN | SKB_SF_MAX,
          .min = 0, .max = SKB_CD_MAX_LEVEL, .doc = "subdivision level" },
        { .path = "scenarios", .type = SKB_ST_CONTAINER, .doc = "the Table 6.2 scenes (methods: keyed by registry method name)" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_icount = {
    .file = "icount.json", .writer = "harness/exp_icount.c", .meta = 1,
    .doc = "Instruction counts of every CPU kernel: the nightly's exact, timing-free gate",
    .fields = (const struct skb_schema_field[]){
        { .path = "available", .type = SKB_ST_BOOL, .flags = SKB_SF_REQUIRED, .doc = "false where counting is impossible" },
        { .path = "kernels", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .when = "available",
          .doc = "a map whose keys are kernel names" },
        { .path = "kernels/*", .type = SKB_ST_NUMBER, .doc = "instructions" },
        { .path = NULL } },
};

const struct skb_schema skb_schema_sad = {
    .file = "sad.json", .writer = "harness/exp_sad.c", .meta = 1,
    .doc = "thesis ch. 7, Skinning Arbitrary Deformations: fitted skinning of mesh animations (Table 7.1)",
    .fields = (const struct skb_schema_field[]){
        { .path = "animations", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are animation names" },
        { .path = "animations/*", .type = SKB_ST_OBJECT, .doc = "one animation" },
        { .path = "animations/*/vertices", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "vertices" },
        { .path = "animations/*/triangles", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "triangles" },
        { .path = "animations/*/keyframes", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "keyframes" },
        { .path = "animations/*/p", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "proxy bones" },
        { .path = "animations/*/preprocess_s", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "decomposition time (s)" },
        { .path = "animations/*/compression", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "compression ratio" },
        { .path = "animations/*/affine", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "affine proxies" },
        { .path = "animations/*/rigid", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "rigid proxies" },
        { .path = "animations/*/affine/distortion", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "distortion with affine proxies" },
        { .path = "animations/*/rigid/distortion", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "distortion with rigid proxies" },
        { .path = "animations/*/error_vs_p", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "error per proxy count" },
        { .path = "animations/*/picture", .type = SKB_ST_OBJECT,
          .doc = "the worst keyframe's picture, where GL drew one (its file name rule: reports/report_sad.c)" },
        { .path = "animations/*/picture/file", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "images/sad/NAME.png, relative to the run directory" },
        { .path = "animations/*/picture/keyframe", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "the keyframe drawn (0-based, the worst)" },
        { .path = "animations/*/picture/p", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN, .doc = "proxy bones" },
        { .path = "animations/*/picture/max_error_pct", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "largest error, % of the model's size" },
        { .path = "animations/*/picture/rms_error_pct", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "RMS error, % of the model's size" },
        { .path = "animations/*/picture/scale_max_pct", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "the colour scale's maximum, %" },
        { .path = NULL } },
};

const struct skb_schema *const skb_schemas[] = {
    &skb_schema_properties, &skb_schema_flops, &skb_schema_bounds, &skb_schema_cpu, &skb_schema_cpu_gbench,
    &skb_schema_cpu_offsets, &skb_schema_gpu, &skb_schema_spheres, &skb_schema_cd, &skb_schema_icount,
    &skb_schema_sad, NULL
};

const struct skb_schema *skb_schema_find(const char *file)
{
    for (int i = 0; skb_schemas[i]; i++)
        if (strcmp(skb_schemas[i]->file, file) == 0)
            return skb_schemas[i];
    return NULL;
}
