/* skb_gpu_run.h — the two halves of `skinbench run gpu`: the vertex path
 * (harness/exp_gpu.c) and the compute path (harness/exp_gpu_compute.c). */
#ifndef SKB_GPU_RUN_H
#define SKB_GPU_RUN_H

#include "cJSON.h"
#include "skb_dataset.h"
#include "skb_gpu.h"
#include "skb_run.h"

/* idx gets the poses of d to verify on: all, or an even sample of `want`;
 * returns their count */
int skb__gpu_pick_poses(const struct skb_dataset *d, int want, int *idx);

/* gpu.json "compute" under root (docs/experiments.md "GPU experiment"): every shader
 * method's compute kernel verified on the default datasets, the
 * vertex-count sweep, the copy roofline, the layouts; *bad counts kernels
 * that failed verification (added to) */
int skb__gpu_compute(const struct skb_run_ctx *ctx, const struct skb_gpu *g, const char *dir, cJSON *root,
                     int *bad, char *msg, size_t msglen);

/* spread of the vertex path's times within which the methods count as
 * indistinguishable (gpu.json "vertex_path.pipeline_bound") */
#define SKB_GPU_PIPELINE_BOUND_REL 0.03

#endif
