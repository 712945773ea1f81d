/* exp_artifacts_schema.c — artifacts.json's table of fields, beside its writer
 * harness/exp_artifacts.c, which checks its document against it before
 * writing (skb_results_write); the report and compare check the file against
 * it, `skinbench schema` prints it (docs/schemas.md).  A file of its own so
 * that readers linked without the measuring code (tests/fuzz) have it. */
#include <stddef.h>
#include "skb_artifacts.h"

#define NUM(p, d) { .path = p, .type = SKB_ST_NUMBER, .doc = d }
#define NUMS(p, d) { .path = p, .type = SKB_ST_ARRAY, .doc = d }, { .path = p "/[]", .type = SKB_ST_NUMBER, .doc = "one value" }
/* a scene's map of methods (required where fl says), each with its title or why it did not run */
#define METHOD(sc, fl) { .path = sc "/methods", .type = SKB_ST_OBJECT, .flags = fl, .doc = "a map whose keys are registry method names" }, \
    { .path = sc "/methods/*", .type = SKB_ST_OBJECT, .doc = "one method" }, \
    { .path = sc "/methods/*/title", .type = SKB_ST_STRING, .doc = "the method's display name" }, \
    { .path = sc "/methods/*/not_run", .type = SKB_ST_STRING, .doc = "why the method has no numbers here" }
const struct skb_schema skb_schema_artifacts = {
    .file = "artifacts.json", .writer = "harness/exp_artifacts.c", .meta = 1,
    .doc = "skinning artifacts per method: candy wrapper, joint bulge, volume, flipping, self-intersections, "
           "distance to DIB (arm, body hip, bcn_human clip) and f32 error far from the origin",
    .fields = (const struct skb_schema_field[]){
        { .path = "arm", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "the procedural arm, elbow twisted then bent" },
        { .path = "arm/source", .type = SKB_ST_STRING, .doc = "where the arm came from" },
        NUM("arm/model_size", "largest side of the rest box: the unit of distances"),
        NUM("arm/limb_radius", "median distance of the elbow's blended vertices from the bone axis"),
        { .path = "arm/twist_deg", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "elbow twists of the twist poses" },
        { .path = "arm/twist_deg/[]", .type = SKB_ST_NUMBER, .doc = "degrees" },
        { .path = "arm/bend_deg", .type = SKB_ST_ARRAY, .flags = SKB_SF_REQUIRED, .doc = "elbow bends of the bend poses" },
        { .path = "arm/bend_deg/[]", .type = SKB_ST_NUMBER, .doc = "degrees" },
        NUM("arm/intersection_bend_deg", "the bend of the self-intersection count"),
        NUM("arm/rest_self_intersections", "intersecting triangle pairs of the rest mesh"),
        NUM("arm/flip_threshold", "a 179 -> 181 degree jump above this (half a limb radius, model sizes) is a flip"),
        { .path = "arm/paint_radius_limb_radii", .type = SKB_ST_NUMBER,
          .doc = "the painted mix (key METHOD+painted): DLB's share 1 at the elbow, 0 at this many limb radii" },
        METHOD("arm", SKB_SF_REQUIRED),
        NUMS("arm/methods/*/section_area_ratio", "elbow cross-section area / rest, per twist"),
        NUMS("arm/methods/*/volume_ratio_twist", "closed tube volume / rest, per twist"),
        NUMS("arm/methods/*/bulge", "largest outward growth of the distance to the bone rays, in limb radii, per bend"),
        NUMS("arm/methods/*/volume_ratio_bend", "closed tube volume / rest, per bend"),
        NUM("arm/methods/*/flip_jump", "largest vertex jump between the 179 and 181 degree twists, model sizes"),
        { .path = "arm/methods/*/flipped", .type = SKB_ST_BOOL, .doc = "flip_jump above flip_threshold" },
        NUM("arm/methods/*/self_intersections", "intersecting triangle pairs at intersection_bend_deg"),
        NUMS("arm/methods/*/dib_rms", "RMS distance to DIB per pose (twists then bends), model sizes"),
        NUMS("arm/methods/*/dib_max", "largest distance to DIB per pose, model sizes"),
        { .path = "body", .type = SKB_ST_OBJECT, .doc = "a hip of the body rig bent (full runs only)" },
        { .path = "body/not_run", .type = SKB_ST_STRING, .doc = "why the body scene did not run" },
        { .path = "body/source", .type = SKB_ST_STRING, .doc = "where the body came from" },
        NUM("body/joint", "the bent joint"), NUM("body/vertices", "vertices"),
        NUM("body/model_size", "model size"), NUM("body/limb_radius", "limb radius at the joint"),
        { .path = "body/closed", .type = SKB_ST_BOOL, .doc = "closed surface: volume defined" },
        NUMS("body/bend_deg", "bends of the poses"),
        NUM("body/rest_self_intersections", "intersecting triangle pairs of the rest mesh"),
        METHOD("body", 0),
        NUMS("body/methods/*/bulge", "bulge per bend, limb radii"),
        NUMS("body/methods/*/bulge_joint_and_parent",
             "bulge per bend over the vertices weighted on the hip and its parent alone, limb radii"),
        NUMS("body/methods/*/bulge_other_joints",
             "bulge per bend over the vertices with weight on a third joint too, limb radii"),
        NUM("body/vertices_joint_and_parent", "vertices of the bulge weighted on the hip and its parent alone"),
        NUM("body/vertices_other_joints", "vertices of the bulge with weight on a third joint too"),
        NUMS("body/methods/*/volume_ratio", "enclosed volume / rest per bend (closed meshes)"),
        NUMS("body/methods/*/self_intersections", "intersecting triangle pairs per bend"),
        NUMS("body/methods/*/dib_rms", "RMS distance to DIB per bend, model sizes"),
        NUMS("body/methods/*/dib_max", "largest distance to DIB per bend, model sizes"),
        { .path = "clip", .type = SKB_ST_OBJECT, .doc = "a real model's clip: bcn_human in full runs, the --dataset model (also under --quick)" },
        { .path = "clip/dataset", .type = SKB_ST_STRING, .doc = "the dataset" },
        { .path = "clip/not_run", .type = SKB_ST_STRING, .doc = "why the clip did not run" },
        { .path = "clip/source", .type = SKB_ST_STRING, .doc = "where the model came from" },
        NUM("clip/frames", "frames measured (the first of the clip)"), NUM("clip/clip_frames", "frames of the clip"),
        NUM("clip/vertices", "vertices"), NUM("clip/model_size", "model size"),
        METHOD("clip", 0),
        NUM("clip/methods/*/max_jump", "largest vertex jump between neighbouring frames, model sizes"),
        NUM("clip/methods/*/max_excess_jump", "largest jump beyond DIB's of the same vertex and frames, model sizes"),
        NUM("clip/methods/*/dib_rms_worst_frame", "RMS distance to DIB of the worst frame, model sizes"),
        NUM("clip/methods/*/dib_max", "largest distance to DIB over the frames, model sizes"),
        { .path = "precision", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "f32 kernels far from the origin" },
        NUMS("precision/offset_model_sizes", "offsets of the posed arm, model sizes"),
        { .path = "precision/pose", .type = SKB_ST_STRING, .doc = "the pose and offset direction" },
        METHOD("precision", SKB_SF_REQUIRED),
        NUMS("precision/methods/*/f32_error", "largest |f32 - double| per offset, model sizes"),
        NUMS("precision/methods/*/f32_rounding_floor", "half an f32 ulp of the largest coordinate per offset, model sizes"),
        { .path = NULL } },
};
#undef NUM
#undef NUMS
#undef METHOD
