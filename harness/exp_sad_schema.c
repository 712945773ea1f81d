/* exp_sad_schema.c — the table of fields of sad.json, the results
 * file of harness/exp_sad.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_sad.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

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
        { .path = "animations/curtain/wind_study", .type = SKB_ST_ARRAY,
          .doc = "the curtain again in calmer wind (harness/exp_sad.c): what its rigid-fit error grows with" },
        { .path = "animations/curtain/wind_study/[]/wind_scale", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED,
          .doc = "the wind's mean speed over the curtain's own (1: the curtain fitted above)" },
        { .path = "animations/curtain/wind_study/[]/wave", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED,
          .doc = "the relative amplitude of the wind's travelling wave across the sheet (0: none)" },
        { .path = "animations/curtain/wind_study/[]/sheet_travel", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED,
          .doc = "the largest distance of a vertex from its rest position over every keyframe, over the rest size" },
        { .path = "animations/curtain/wind_study/[]/distortion", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED | SKB_SF_MIN,
          .doc = "distortion (%) of the rigid fit of the positions at the main p" },
        { .path = "animations/curtain/wind_study/[]/max_joint_angle_deg", .type = SKB_ST_NUMBER,
          .doc = "the largest rotation angle of a fitted proxy-joint over every keyframe (deg)" },
        { .path = "animations/*/picture", .type = SKB_ST_OBJECT,
          .doc = "the worst keyframe's picture, where GL drew one (its file name rule: reports/exp_sad.c)" },
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
