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
        { .path = "datasets/*/posture_rule", .type = SKB_ST_OBJECT,
          .doc = "which clip pose the judged tables use (harness/spheres_posture.c): the strongest whose minimal "
                 "spheres stay within the band of the reference spheres at every level" },
        { .path = "datasets/*/posture_rule/rule", .type = SKB_ST_STRING, .doc = "the rule in words" },
        { .path = "datasets/*/posture_rule/band", .type = SKB_ST_NUMBER, .doc = "largest |best / reference - 1| allowed" },
        { .path = "datasets/*/posture_rule/pose", .type = SKB_ST_INTEGER, .doc = "the chosen pose" },
        { .path = "datasets/*/posture_rule/fallback_nearest", .type = SKB_ST_BOOL,
          .doc = "true when no pose is within the band and the nearest was taken" },
        { .path = "datasets/*/posture_rule/best_deviation", .type = SKB_ST_NUMBER,
          .doc = "the chosen pose's largest |best avg / reference avg - 1| over the tree levels" },
        { .path = "datasets/*/posture_rule/strongest_pose", .type = SKB_ST_INTEGER, .doc = "the clip's strongest pose" },
        { .path = "datasets/*/posture_rule/strongest_best_deviation", .type = SKB_ST_NUMBER,
          .doc = "the strongest pose's largest |best avg / reference avg - 1|" },
        { .path = "datasets/*/posture_rule/poses_scanned", .type = SKB_ST_INTEGER, .doc = "poses of the clip scanned" },
        { .path = "datasets/*/posture_rule/poses_within_band", .type = SKB_ST_INTEGER, .doc = "how many are within the band" },
        { .path = "datasets/*/posture_rule/poses/[]/strength_rad", .type = SKB_ST_NUMBER,
          .doc = "a pose's strength: sum of joint angles to the parent (rad)" },
        { .path = "datasets/*/posture_rule/poses/[]/best_deviation", .type = SKB_ST_NUMBER,
          .doc = "a pose's largest |best avg / reference avg - 1| over the tree levels" },
        { .path = "datasets/*/postures/strongest", .type = SKB_ST_OBJECT,
          .doc = "context: the clip's strongest pose (when the rule chose another), its levels as datasets/*/levels" },
        SKB_SCHEMA_SITTING("datasets/*/refit_paired"),
        { .path = NULL } },
};
