/* real_models.c — rigged models from Debian's assimp-testmodels, each with
 * its own animation clip sampled as a pose sequence (see ../shared/TOOLCHAIN.md). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_dataset.h"
#include "dataset_util.h"

#define MODEL_DIR "/usr/share/assimp/models/"
#define CLIP_FPS 30.0          /* sampling rate of the clips */
#define MAX_POSES 120
#define QUICK_POSES 8

/* a model must be a regular file, and that is settled before any open that
 * can block: fopen of a FIFO waits for a writer forever, before the
 * importer's time limit applies */
static int check_model_file(const char *path, const char *hint, char *msg, size_t msglen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(msg, msglen, "%s: cannot open model file: %s%s", path, strerror(errno), hint);
        return SKB_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a regular file (%s); a model must be a file", path,
                 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : "special");
        return SKB_EINVAL;
    }
    /* readable? O_NONBLOCK: should it have become a FIFO since, open does not wait */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, msglen, "%s: cannot open model file: %s", path, strerror(errno));
        return SKB_EIO;
    }
    int reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    close(fd);
    if (!reg) {
        snprintf(msg, msglen, "%s: not a regular file; a model must be a file", path);
        return SKB_EINVAL;
    }
    return 0;
}

static int load_file(const char *file, const char *clip, const struct skb_dataset_opts *o,
                     struct skb_dataset *d, char *msg, size_t msglen)
{
    struct skb__import_opts io = { clip, CLIP_FPS, o && o->quick ? QUICK_POSES : MAX_POSES };
    int rc = check_model_file(file, " (install the Debian package assimp-testmodels)", msg, msglen);
    if (rc < 0)
        return rc;
    /* catalogue files get the same child-process isolation as files given by
     * path: the file under /usr/share can be replaced, and assimp's crashers
     * do not care where a file came from */
    return skb__import_isolated(file, &io, skb__import_model, d, msg, msglen);
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
    int rc = check_model_file(path, "", msg, msglen);
    if (rc < 0)
        return rc;
    rc = skb__import_isolated(path, &io, skb__import_model, d, msg, msglen);
    if (rc == 0 && !d->name[0]) {
        const char *base = strrchr(path, '/');
        snprintf(d->name, sizeof d->name, "%s", base ? base + 1 : path);
    }
    return rc;
}
