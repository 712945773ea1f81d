/* exp_cpu_schema.c — the tables of fields of cpu.json, cpu-gbench.json and
 * cpu-offsets.json, the results files of harness/exp_cpu.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_cpu.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the files. */
#include "skb_schemas.h"

const struct skb_schema skb_schema_cpu = {
    .file = "cpu.json", .writer = "harness/exp_cpu.c", .meta = 1,
    .doc = "CPU skinning times per dataset; rows are benchmark labels (common/skb_label.h)",
    .fields = (const struct skb_schema_field[]){
        { .path = "datasets", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are dataset names" },
        { .path = "datasets/*", .type = SKB_ST_OBJECT, .doc = "one dataset's timings" },
        { .path = "datasets/*/ms", .type = SKB_ST_OBJECT,
          .doc = "ms per deformation, double path: a map whose keys are benchmark labels" },
        { .path = "datasets/*/ms/*", .type = SKB_ST_MEASURED, .doc = "ms per deformation" },
        { .path = "datasets/*/ratio_to_linear", .type = SKB_ST_OBJECT,
          .doc = "time over linear's, positions only (Figure 18's judged treatment), keyed by label: the estimate of its "
                 "row in paired" },
        { .path = "datasets/*/ratio_to_linear/*", .type = SKB_ST_MEASURED, .doc = "ratio, paired" },
        { .path = "datasets/*/ms_f32", .type = SKB_ST_OBJECT, .doc = "ms per deformation, f32 path: keyed by label" },
        { .path = "datasets/*/ms_f32/*", .type = SKB_ST_MEASURED, .doc = "ms per deformation" },
        { .path = "datasets/*/ratio_to_linear_f32", .type = SKB_ST_OBJECT,
          .doc = "f32 time over linear's (the pool's rows in wall time): keyed by label, the estimate of its row in paired" },
        { .path = "datasets/*/ratio_to_linear_f32/*", .type = SKB_ST_MEASURED, .doc = "ratio, paired" },
        { .path = "datasets/*/fast_kernels", .type = SKB_ST_OBJECT,
          .doc = "the fast kernels' target ratios, plans and pool scaling on this dataset" },
        { .path = "datasets/*/fast_kernels/paired", .type = SKB_ST_OBJECT,
          .doc = "the target ratios timed pair by pair (harness/cpu_paired.c): what the report decides the targets on" },
        { .path = "datasets/*/fast_kernels/paired/rows", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED,
          .doc = "DLB over LBS, each split kernel over its 4-slot kernel" },
        { .path = "datasets/*/fast_kernels/paired/rows/[]/kernel", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "the kernel's benchmark label" },
        { .path = "datasets/*/fast_kernels/paired/rows/[]/control", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "the control kernel's benchmark label" },
        { .path = "datasets/*/fast_kernels/paired/rows/[]/ratio", .type = SKB_ST_MEASURED, .flags = SKB_SF_REQUIRED,
          .doc = "Hodges-Lehmann estimate of the per-pair time ratio" },
        { .path = "datasets/*/fast_kernels/paired/rows/[]/ci_low", .type = SKB_ST_MEASURED,
          .doc = "its exact 95 % interval, low end (nan: too few pairs)" },
        { .path = "datasets/*/fast_kernels/paired/rows/[]/ci_high", .type = SKB_ST_MEASURED, .doc = "its high end" },
        { .path = "datasets/*/fast_kernels/paired/rows/[]/runs_per_sample", .type = SKB_ST_INTEGER,
          .flags = SKB_SF_MIN, .min = 1, .doc = "deformations of each kernel per timed sample" },
        { .path = "datasets/*/precompute", .type = SKB_ST_OBJECT,
          .doc = "each method's bind on this dataset, keyed by method (harness/cpu_method_stats.c)" },
        { .path = "datasets/*/precompute/*/bind_ms", .type = SKB_ST_MEASURED,
          .doc = "thread CPU time of one double-path bind (skb_skin_init), ms" },
        { .path = "datasets/*/precompute/*/state_bytes_per_vertex", .type = SKB_ST_MEASURED,
          .doc = "the double path's bound state, bytes per vertex" },
        { .path = "datasets/*/precompute/*/f32_bind_ms", .type = SKB_ST_MEASURED,
          .doc = "thread CPU time of one single-precision bind (skb_skin_f32_init; cor computes its centres again), ms" },
        { .path = "datasets/*/precompute/*/error", .type = SKB_ST_STRING, .doc = "why the double bind refused the mesh" },
        { .path = "datasets/*/precompute/*/f32_error", .type = SKB_ST_STRING,
          .doc = "why the single-precision bind refused the mesh" },
        SKB_SCHEMA_SITTING("datasets/*/paired"),
        { .path = "datasets/*/ratio_to_linear_normals", .type = SKB_ST_OBJECT,
          .doc = "the double path's ratios to LBS with normals (a variant of Figure 18's), keyed by label" },
        { .path = "datasets/*/ratio_to_linear_normals/*", .type = SKB_ST_MEASURED, .doc = "ratio, paired" },
        { .path = "datasets/*/peer_ratio_to_ours_f32", .type = SKB_ST_OBJECT, .doc = "each peer over our f32 kernel" },
        { .path = "datasets/*/peer_ratio_to_ours_f32/*", .type = SKB_ST_MEASURED, .doc = "ratio, paired" },
        { .path = "verified", .type = SKB_ST_BOOL, .doc = "every timed kernel passed its check" },
        { .path = "pages", .type = SKB_ST_OBJECT,
          .doc = "the page state of the timed buffers (harness/cpu_pages.c): written before timing, one huge-page advice" },
        { .path = "pages/policy", .type = SKB_ST_STRING, .doc = "the transparent-huge-page advice every timed buffer got" },
        { .path = "pages/resident_before_timing", .type = SKB_ST_BOOL, .doc = "mincore found every page resident" },
        { .path = "large_mesh", .type = SKB_ST_OBJECT, .doc = "the roofline mesh (body subdivided): fast kernels, copy roofline, scaling" },
        { .path = "large_mesh/paired_control", .type = SKB_ST_OBJECT,
          .doc = "each one-thread fast kernel over an in-process control, timed pair by pair (harness/cpu_paired.c)" },
        { .path = "large_mesh/paired_control/memcpy_bytes_per_vertex", .type = SKB_ST_INTEGER, .flags = SKB_SF_MIN,
          .min = 1, .doc = "bytes a vertex the memcpy control copies (read once, written once)" },
        { .path = "large_mesh/paired_control/rows", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED,
          .doc = "one row per kernel and control" },
        { .path = "large_mesh/paired_control/rows/[]/kernel", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "the kernel's benchmark label" },
        { .path = "large_mesh/paired_control/rows/[]/control", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "memcpy, or the 4-slot kernel's label" },
        { .path = "large_mesh/paired_control/rows/[]/ratio", .type = SKB_ST_MEASURED, .flags = SKB_SF_REQUIRED,
          .doc = "Hodges-Lehmann estimate of the per-pair time ratio" },
        { .path = "large_mesh/paired_control/rows/[]/ci_low", .type = SKB_ST_MEASURED, .doc = "its exact 95 % interval, low end" },
        { .path = "large_mesh/paired_control/rows/[]/ci_high", .type = SKB_ST_MEASURED, .doc = "its high end" },
        { .path = "large_mesh/paired_control/rows/[]/floor_ratio", .type = SKB_ST_MEASURED,
          .doc = "the kernel's fastest run over the control's fastest" },
        { .path = "failures", .type = SKB_ST_OBJECT, .doc = "a map whose keys are benchmark names (double/LABEL/DATASET)" },
        { .path = "failures/*", .type = SKB_ST_STRING, .doc = "why the kernel failed its check" },
        { .path = NULL } },
};

/* Google Benchmark's own file: harness/bench_shim.cpp runs it for run cpu */
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

/* run cpu --offset-sweep (harness/fast_sweep.c) */
const struct skb_schema skb_schema_cpu_offsets = {
    .file = "cpu-offsets.json", .writer = "harness/fast_sweep.c", .meta = 1,
    .doc = "Written by `run cpu --offset-sweep`: not compared, not in the report",
    .fields = (const struct skb_schema_field[]){ { .path = NULL } },
};
