/* skb_pictures.h — what a reader of the papers expects to see:
 * every method of the registry skinned on the CPU and drawn through the
 * headless GL context (methods x scenes grid, error heat map against DIB),
 * and the arm's volume and elbow cross-section over twist angle.  Called by
 * the gpu experiment (harness/exp_gpu.c); results go into gpu.json. */
#ifndef SKB_PICTURES_H
#define SKB_PICTURES_H
#include <stddef.h>
#include <cJSON.h>
#include "skb_gpu.h"
#include "skb_run.h"

/* arm twist angles of the volume curve: 0, 15, ..., 180 degrees */
#define SKB_VOLUME_TWIST_STEP_DEG 15
#define SKB_VOLUME_NTWIST 13

/* closed volume of the arm tube (ring-major, `sectors` vertices per ring, end
 * rings capped by fans to their centroid) and the vector area of ring `ring`,
 * for positions pos (3 per vertex) */
double skb_arm_tube_volume(const double *pos, int rings, int sectors);
double skb_arm_ring_area(const double *pos, int ring, int sectors);

/* adds "arm_volume" to root: per method, volume and elbow cross-section over
 * twist as ratios to the rest pose; CPU only, runs without a GL context */
int skb_arm_volume_curve(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen);

/* the heat maps' colour of t in [0, 1] (clamped): blue 0 -> green ->
 * yellow -> red 1 (harness/gpu_pictures.c; the sad pictures use it too) */
void skb_heat_colour(double t, float rgb[3]);

/* a picture's caption states its pose: the arm's joint angles (radians in,
 * degrees out, the values the pose was made from) or, for a character, the
 * pose number and the largest joint rotation away from the rest pose */
void skb_caption_arm(char *buf, size_t len, double twist, double bend, int scaled);
void skb_caption_character(char *buf, size_t len, const char *name, const struct skb_dataset *d, int pose);

/* adds "method_pictures" to root and writes images/methods/<scene>_<method>.png
 * and the heat maps; g is an open context, shader_dir holds passthrough.* */
int skb_method_pictures(const struct skb_run_ctx *ctx, struct skb_gpu *g, const char *shader_dir,
                        cJSON *root, char *msg, size_t msglen);

#endif
