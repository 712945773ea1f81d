/* skb_sad_run.h — the run half of the `sad` experiment (harness/exp_sad.c,
 * thesis ch. 7); its report half and descriptor are reports/exp_sad.c. */
#ifndef SKB_SAD_RUN_H
#define SKB_SAD_RUN_H
#include "skb_run.h"

extern const struct skb_experiment skb_exp_sad;

/* the MD2 inputs (assimp-testmodels) */
#define SKB_SAD_MD2_DIR "/usr/share/assimp/models/MD2/"

#endif
