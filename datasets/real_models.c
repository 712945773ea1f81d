/* real_models.c — rigged models from Debian's assimp-testmodels, each with
 * its own animation clip sampled as a pose sequence (see TOOLCHAIN.md). */
#include <stdio.h>
#include <string.h>
#include "skb_dataset.h"
#include "dataset_util.h"

#define MODEL_DIR "/usr/share/assimp/models/"
#define CLIP_FPS 30.0          /* sampling rate of the clips */
#define MAX_POSES 120
#define QUICK_POSES 8

static int load_file(const char *file, const char *clip, const struct skb_dataset_opts *o,
                     struct skb_dataset *d, char *msg, size_t msglen)
{
    struct skb__import_opts io = { clip, CLIP_FPS, o && o->quick ? QUICK_POSES : MAX_POSES };
    FILE *f = fopen(file, "rb");
    if (!f) {
        snprintf(msg, msglen, "%s: not found (install the Debian package assimp-testmodels)", file);
        return SKB_EIO;
    }
    fclose(f);
    /* catalogue files are known-good: imported in this process */
    return skb__import_model(file, &io, d, msg, msglen);
}

#define REAL_MODEL(id, file, clip, desc) \
    static int load_##id(const struct skb_dataset_opts *o, struct skb_dataset *d, char *msg, size_t msglen) \
    { return load_file(MODEL_DIR file, clip, o, d, msg, msglen); } \
    const struct skb_dataset_source skb_dataset_##id = { \
        .name = #id, .kind = "real", .description = desc, .in_default_set = 1, .load = load_##id };

REAL_MODEL(bcn_human, "X/BCN_Epileptic.X", NULL,
           "BCN_Epileptic.X: 54-bone human in 3 meshes, its 'Epileptisch' clip")
REAL_MODEL(wuson, "X/Testwuson.X", "Wuson_Walk",
           "Testwuson.X: 37-bone creature, its 'Wuson_Walk' clip")
REAL_MODEL(anim_cylinder, "X/anim_test.x", NULL,
           "anim_test.x: 4-joint bending cylinder, its clip (2 bones lack frames: kept at bind)")
REAL_MODEL(fbx_skeleton, "FBX/animation_with_skeleton.fbx", NULL,
           "animation_with_skeleton.fbx: 14 bones, up to 6 raw influences, weight sums off 1")

int skb__load_model_file(const char *path, const struct skb_dataset_opts *o, struct skb_dataset *d,
                         char *msg, size_t msglen)
{
    struct skb__import_opts io = { NULL, CLIP_FPS, o && o->quick ? QUICK_POSES : MAX_POSES };
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "%s: cannot open model file", path);
        return SKB_EIO;
    }
    fclose(f);
    int rc = skb__import_isolated(path, &io, skb__import_model, d, msg, msglen);
    if (rc == 0 && !d->name[0]) {
        const char *base = strrchr(path, '/');
        snprintf(d->name, sizeof d->name, "%s", base ? base + 1 : path);
    }
    return rc;
}
