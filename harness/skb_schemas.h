/* skb_schemas.h — the schema of every results file the built-in experiments
 * write, each declared once, beside its writer (harness/exp_<name>.c): the
 * writer checks its document against it before the atomic write
 * (skb_results_write), the experiment's descriptor names it
 * (reports/exp_<name>.c) and the report checks every file it reads against
 * the same table (reports/results.c).  docs/schemas.md is generated from them. */
#ifndef SKB_SCHEMAS_H
#define SKB_SCHEMAS_H

#include "skb_schema.h"

/* the deepest subdivision level cd.json may hold: each level multiplies the
 * triangles by 4, and the report indexes the paper's series with it */
#define SKB_CD_MAX_LEVEL 30

/* the fields of a sitting timed pair by pair (common/skb_timing.h
 * skb_sitting_init / skb_sitting_row) at path P: its rows and its
 * controls' A/A rows, every number a ratio or a time */
#define SKB_SCHEMA_SITTING(P)                                                                                         \
    { .path = P, .type = SKB_ST_OBJECT, .doc = "ratios timed pair by pair in one sitting (common/skb_timing.h)" },  \
    { .path = P "/pairs_per_row", .type = SKB_ST_INTEGER, .flags = SKB_SF_MIN, .min = 1,                           \
      .doc = "pairs of samples behind each row" },                                                                \
    { .path = P "/sample_ms", .type = SKB_ST_NUMBER, .doc = "each sample lasts at least this (ms)" },              \
    { .path = P "/clock", .type = SKB_ST_STRING, .doc = "the clock the samples were timed on" },                  \
    { .path = P "/rows", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "one row per ratio" },            \
    { .path = P "/rows/[]/kernel", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED, .doc = "what is timed" },     \
    { .path = P "/rows/[]/control", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,                              \
      .doc = "what it is timed against (the ratio's denominator)" },                                             \
    { .path = P "/rows/[]/treatment", .type = SKB_ST_STRING, .doc = "what both sides ran (positions, normals, ...)" }, \
    { .path = P "/rows/[]/ratio", .type = SKB_ST_MEASURED, .flags = SKB_SF_REQUIRED,                              \
      .doc = "Hodges-Lehmann estimate of the pairs' kernel / control time ratio" },                               \
    { .path = P "/rows/[]/ci_low", .type = SKB_ST_MEASURED, .doc = "its exact 95 % interval, low end (nan: too few pairs)" }, \
    { .path = P "/rows/[]/ci_high", .type = SKB_ST_MEASURED, .doc = "its high end" },                              \
    { .path = P "/rows/[]/pairs", .type = SKB_ST_INTEGER, .flags = SKB_SF_MIN, .min = 0, .doc = "pairs timed" }, \
    { .path = P "/rows/[]/aa_floor", .type = SKB_ST_NUMBER,                                                      \
      .doc = "this sitting's A/A floor of the control: exp(max |ln end|) - 1 of its A/A interval" },             \
    { .path = P "/rows/[]/timed_with", .type = SKB_ST_STRING,                                                     \
      .doc = "the kernel timed in the same trios (common/skb_timing.h skb_time_trio; absent: pairs)" },           \
    { .path = P "/rows/[]/over_timed_with", .type = SKB_ST_MEASURED,                                              \
      .doc = "kernel over timed_with, read trio by trio (Hodges-Lehmann; the first row of a trio)" },             \
    { .path = P "/rows/[]/over_timed_with_ci_low", .type = SKB_ST_MEASURED, .doc = "its exact 95 % interval, low end" }, \
    { .path = P "/rows/[]/over_timed_with_ci_high", .type = SKB_ST_MEASURED, .doc = "its high end" },             \
    { .path = P "/rows/[]/pair_ms", .type = SKB_ST_ARRAY,                                                        \
      .doc = "kept rows (timed in rounds): each pair's per-run time of the kernel (ms), every round's" },        \
    { .path = P "/rows/[]/pair_control_ms", .type = SKB_ST_ARRAY, .doc = "the same pairs' per-run time of the control (ms)" }, \
    { .path = P "/rows/[]/quiet", .type = SKB_ST_BOOL,                                                            \
      .doc = "kept rows: ratio and interval read from the quiet pairs alone (false: too few; every pair, the "    \
             "interval widened by contention)" },                                                                 \
    { .path = P "/rows/[]/pairs_timed", .type = SKB_ST_INTEGER, .doc = "kept rows: pairs timed in all rounds" },  \
    { .path = P "/rows/[]/quiet_pairs", .type = SKB_ST_INTEGER,                                                   \
      .doc = "kept rows: pairs whose control ran within quiet_tol of quiet_control_ms" },                         \
    { .path = P "/rows/[]/quiet_control_ms", .type = SKB_ST_NUMBER,                                               \
      .doc = "the control's fastest run anywhere in the sitting (its rows and its A/A): the quiet state" },       \
    { .path = P "/rows/[]/quiet_tol", .type = SKB_ST_NUMBER, .doc = "how far above it a quiet control may run" },   \
    { .path = P "/rows/[]/contention", .type = SKB_ST_NUMBER,                                                     \
      .doc = "the row's median control run over quiet_control_ms, less 1: how slowed its pairs were" },           \
    { .path = P "/rounds", .type = SKB_ST_INTEGER, .doc = "rounds the kept rows were timed in, catch-up rounds included (those time only the rows short of quiet pairs; absent: one sitting)" }, \
    { .path = P "/aa/[]/rounds", .type = SKB_ST_INTEGER, .doc = "kept A/A: the rounds it was timed in" },          \
    { .path = P "/aa", .type = SKB_ST_ARRAY, .doc = "each control against itself (A/A) in the same sitting" },     \
    { .path = P "/aa/[]/control", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED, .doc = "the control" },        \
    { .path = P "/aa/[]/ratio", .type = SKB_ST_MEASURED, .doc = "its estimate (1 but for noise)" },                \
    { .path = P "/aa/[]/aa_floor", .type = SKB_ST_NUMBER, .doc = "the floor the control's rows are widened by" }

extern const struct skb_schema skb_schema_properties, skb_schema_flops, skb_schema_bounds, skb_schema_cpu,
    skb_schema_cpu_gbench, skb_schema_cpu_offsets, skb_schema_gpu, skb_schema_spheres, skb_schema_cd,
    skb_schema_icount, skb_schema_sad;

#endif
