/* gpu_poses.c — the poses a GPU verification checks, shared by the vertex
 * shader (exp_gpu.c) and compute (exp_gpu_compute.c) runs, below both. */
#include "skb_dataset.h"
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
