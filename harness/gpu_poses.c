/* gpu_poses.c — the poses both halves of `run gpu` verify on (the vertex
 * path, harness/exp_gpu.c, and the compute path, harness/exp_gpu_compute.c):
 * in a file of its own so that neither half calls the other back. */
#include "skb_gpu_run.h"

/* poses to verify: all, or an even sample of `want` */
int skb__gpu_pick_poses(const struct skb_dataset *d, int want, int *idx)
{
    if (d->nposes <= want) {
        for (int k = 0; k < d->nposes; k++)
            idx[k] = k;
        return d->nposes;
    }
    for (int k = 0; k < want; k++)
        idx[k] = (int)((long)k * (d->nposes - 1) / (want - 1));
    return want;
}
