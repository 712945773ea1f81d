/* exp_cd_schema.c — the table of fields of cd.json, the results
 * file of harness/exp_cd.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_cd.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

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
        { .path = "scenarios/*/methods/*/deepest_frame", .type = SKB_ST_OBJECT,
          .doc = "the frame with the most colliding triangle pairs on demand (002 Fig. 6 shows one frame in contact)" },
        { .path = "scenarios/*/methods/*/deepest_frame/frame", .type = SKB_ST_INTEGER, .doc = "its index in the scenario" },
        { .path = "scenarios/*/methods/*/deepest_frame/colliding_pairs", .type = SKB_ST_INTEGER,
          .doc = "colliding triangle pairs found in it" },
        { .path = "scenarios/*/methods/*/deepest_frame/half_distance_root_radii", .type = SKB_ST_NUMBER,
          .doc = "half the distance between the two bodies, in root-sphere radii (two-body scenes)" },
        { .path = "scenarios/*/methods/*/deepest_frame/refitted_share_by_level_on_demand", .type = SKB_ST_ARRAY,
          .doc = "per tree level from the root, the share of its spheres refitted on demand in that frame" },
        SKB_SCHEMA_SITTING("scaling/[]/colliding/paired"),
        SKB_SCHEMA_SITTING("scaling/[]/collision_free/paired"),
        SKB_SCHEMA_SITTING("scaling/[]/rigid_rebuilt_tree/paired"),
        SKB_SCHEMA_SITTING("scenarios/*/methods/*/paired"),
        SKB_SCHEMA_SITTING("scenarios/*/methods/*/paired_refit_share"),
        SKB_SCHEMA_SITTING("scenarios/*/sbs_over_lbs"),
        { .path = NULL } },
};
