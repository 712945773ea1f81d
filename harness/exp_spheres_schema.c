/* exp_spheres_schema.c — the table of fields of spheres.json, the results
 * file of harness/exp_spheres.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_spheres.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

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
          .doc = "average radius of a refit (keyed by refit: registry method names, bottom_up (leaves by thesis Alg. "
                 "5.1, judged), bottom_up_exact (minimal leaf spheres, a variant), best, ...)" },
        { .path = "datasets/*/refit_time", .type = SKB_ST_OBJECT, .doc = "a map whose keys are registry method names" },
        { .path = "datasets/*/rig_study", .type = SKB_ST_OBJECT,
          .doc = "Table 5.2's posture with every vertex on its largest weight alone (harness/spheres_rig.c): what "
                 "is left of LBS's refit looseness without the blend weights" },
        { .path = "datasets/*/rig_study/influences", .type = SKB_ST_INTEGER, .doc = "influences per vertex kept" },
        { .path = "datasets/*/rig_study/levels", .type = SKB_ST_ARRAY, .doc = "one entry per tree level" },
        { .path = "datasets/*/rig_study/levels/[]/level", .type = SKB_ST_NUMBER, .doc = "the tree level" },
        { .path = "datasets/*/rig_study/levels/[]/linear_over_reference", .type = SKB_ST_MEASURED,
          .doc = "LBS on-demand refit's average radius over the reference's, one influence per vertex" },
        { .path = "datasets/*/rig_study/levels/[]/joint_sets_per_sphere", .type = SKB_ST_MEASURED,
          .doc = "joint sets per sphere of the one-influence tree" },
        { .path = "datasets/*/rig_study/levels/[]/joint_sets_per_sphere_rig", .type = SKB_ST_MEASURED,
          .doc = "joint sets per sphere of the tree with the rig's weights" },
        SKB_SCHEMA_SITTING("datasets/*/refit_paired"),
        { .path = NULL } },
};
