/* model_import.c — rigged models and motion through assimp: the node
 * hierarchy sampled over an animation clip, bones turned into joints with
 * C_j = global_posed_j * inverse_bind_j (rest pose -> posed, thesis 2.2.1),
 * influences limited to 4 and renormalised with counts. */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <assimp/postprocess.h>
#include <assimp/version.h>
#include "skb_dataset.h"
#include "dataset_util.h"

#define DEFAULT_TICKS_PER_S 25.0   /* assimp reports 0 when the file says nothing */
#define BIND_MISMATCH_TOL 1e-3     /* same bone, two meshes: inverse binds must agree */
#define MAX_STATIC_BONES 64        /* bones without a node in the hierarchy */

void skb_dataset_importer_version(char *buf, size_t len)
{
    snprintf(buf, len, "assimp %u.%u.%u", aiGetVersionMajor(), aiGetVersionMinor(), aiGetVersionPatch());
}

static void mat_from_ai(const struct aiMatrix4x4 *a, double m[16])
{
    /* aiMatrix4x4 is row-major with column vectors, like skb_math */
    const ai_real *p = &a->a1;
    for (int k = 0; k < 16; k++)
        m[k] = (double)p[k];
}

/* general 4x4 inverse (bind matrices may carry scale) */
static int mat_inverse(const double m[16], double out[16])
{
    double r[9], inv[9], det;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            r[3 * i + k] = m[4 * i + k];
    inv[0] = r[4] * r[8] - r[5] * r[7];
    inv[1] = r[2] * r[7] - r[1] * r[8];
    inv[2] = r[1] * r[5] - r[2] * r[4];
    inv[3] = r[5] * r[6] - r[3] * r[8];
    inv[4] = r[0] * r[8] - r[2] * r[6];
    inv[5] = r[2] * r[3] - r[0] * r[5];
    inv[6] = r[3] * r[7] - r[4] * r[6];
    inv[7] = r[1] * r[6] - r[0] * r[7];
    inv[8] = r[0] * r[4] - r[1] * r[3];
    det = r[0] * inv[0] + r[1] * inv[3] + r[2] * inv[6];
    if (!(fabs(det) > 1e-300) || !isfinite(det))
        return -1;
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++)
            out[4 * i + k] = inv[3 * i + k] / det;
        out[4 * i + 3] = -(out[4 * i] * m[3] + out[4 * i + 1] * m[7] + out[4 * i + 2] * m[11]);
    }
    out[12] = 0; out[13] = 0; out[14] = 0; out[15] = 1;
    return 0;
}

/* the node tree flattened depth-first (parents first), with each node's
 * animation channel */
struct skel {
    int n;
    const struct aiNode **node;
    int *parent;
    int *channel;
    const struct aiAnimation *anim;
};

static int count_nodes(const struct aiNode *nd)
{
    int n = 1;
    for (unsigned i = 0; i < nd->mNumChildren; i++)
        n += count_nodes(nd->mChildren[i]);
    return n;
}

static void flatten(const struct aiNode *nd, int parent, struct skel *s)
{
    int me = s->n++;
    s->node[me] = nd;
    s->parent[me] = parent;
    for (unsigned i = 0; i < nd->mNumChildren; i++)
        flatten(nd->mChildren[i], me, s);
}

static void skel_free(struct skel *s)
{
    free(s->node);
    free(s->parent);
    free(s->channel);
    memset(s, 0, sizeof *s);
}

static int skel_init(const struct aiScene *sc, const struct aiAnimation *anim, struct skel *s)
{
    int n = count_nodes(sc->mRootNode);
    memset(s, 0, sizeof *s);
    s->node = calloc((size_t)n, sizeof *s->node);
    s->parent = calloc((size_t)n, sizeof *s->parent);
    s->channel = calloc((size_t)n, sizeof *s->channel);
    if (!s->node || !s->parent || !s->channel) {
        skel_free(s);
        return SKB_ENOMEM;
    }
    flatten(sc->mRootNode, -1, s);
    s->anim = anim;
    for (int i = 0; i < n; i++) {
        s->channel[i] = -1;
        for (unsigned c = 0; anim && c < anim->mNumChannels; c++)
            if (strcmp(anim->mChannels[c]->mNodeName.data, s->node[i]->mName.data) == 0)
                s->channel[i] = (int)c;
    }
    return 0;
}

static int skel_find(const struct skel *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->node[i]->mName.data, name) == 0)
            return i;
    return -1;
}

/* key index k with keys[k].time <= t < keys[k+1].time, and the blend factor */
#define FIND_KEY(keys, nkeys, t, k, f) do { \
    k = 0; f = 0; \
    while (k + 1 < (int)(nkeys) && (keys)[k + 1].mTime <= (t)) k++; \
    if (k + 1 < (int)(nkeys) && (keys)[k + 1].mTime > (keys)[k].mTime && (t) > (keys)[k].mTime) \
        f = ((t) - (keys)[k].mTime) / ((keys)[k + 1].mTime - (keys)[k].mTime); \
} while (0)

/* local transform T * R * S of a channel at tick t */
static void channel_local(const struct aiNodeAnim *ch, double t, const double rest[16], double out[16])
{
    double pos[3] = { rest[3], rest[7], rest[11] }, scl[3] = { 1, 1, 1 }, rot[9];
    struct skb_quat q;
    int k;
    double f;
    if (ch->mNumPositionKeys) {
        FIND_KEY(ch->mPositionKeys, ch->mNumPositionKeys, t, k, f);
        const struct aiVector3D *a = &ch->mPositionKeys[k].mValue;
        const struct aiVector3D *b = &ch->mPositionKeys[k + (f > 0)].mValue;
        pos[0] = (1 - f) * a->x + f * b->x;
        pos[1] = (1 - f) * a->y + f * b->y;
        pos[2] = (1 - f) * a->z + f * b->z;
    }
    if (ch->mNumScalingKeys) {
        FIND_KEY(ch->mScalingKeys, ch->mNumScalingKeys, t, k, f);
        const struct aiVector3D *a = &ch->mScalingKeys[k].mValue;
        const struct aiVector3D *b = &ch->mScalingKeys[k + (f > 0)].mValue;
        scl[0] = (1 - f) * a->x + f * b->x;
        scl[1] = (1 - f) * a->y + f * b->y;
        scl[2] = (1 - f) * a->z + f * b->z;
    }
    if (ch->mNumRotationKeys) {
        FIND_KEY(ch->mRotationKeys, ch->mNumRotationKeys, t, k, f);
        const struct aiQuaternion *a = &ch->mRotationKeys[k].mValue;
        const struct aiQuaternion *b = &ch->mRotationKeys[k + (f > 0)].mValue;
        struct skb_quat qa = { a->w, a->x, a->y, a->z }, qb = { b->w, b->x, b->y, b->z }, u;
        skb_quat_slerp(&qa, &qb, f, &q);
        if (skb_quat_normalize(&q, &u) == 0)
            q = u;
        else
            q.w = 1, q.x = q.y = q.z = 0;
        skb_quat_to_mat3(&q, rot);
    } else {
        for (int i = 0; i < 3; i++) {   /* rotation of the rest transform, scale removed */
            double len = sqrt(rest[i] * rest[i] + rest[4 + i] * rest[4 + i] + rest[8 + i] * rest[8 + i]);
            for (int r = 0; r < 3; r++)
                rot[3 * r + i] = len > 0 ? rest[4 * r + i] / len : (r == i);
        }
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++)
            out[4 * r + c] = rot[3 * r + c] * scl[c];
        out[4 * r + 3] = pos[r];
    }
    out[12] = 0; out[13] = 0; out[14] = 0; out[15] = 1;
}

/* global transforms of every node at tick t (t < 0: the rest tree) */
static void skel_globals(const struct skel *s, double t, double *g)
{
    for (int i = 0; i < s->n; i++) {
        double local[16];
        mat_from_ai(&s->node[i]->mTransformation, local);
        if (t >= 0 && s->channel[i] >= 0) {
            double rest[16];
            memcpy(rest, local, sizeof rest);
            channel_local(s->anim->mChannels[s->channel[i]], t, rest, local);
        }
        if (s->parent[i] < 0)
            memcpy(g + 16 * i, local, sizeof local);
        else
            skb_mat4_mul(g + 16 * s->parent[i], local, g + 16 * i);
    }
}

static const struct aiAnimation *pick_clip(const struct aiScene *sc, const char *clip)
{
    for (unsigned a = 0; a < sc->mNumAnimations; a++) {
        const struct aiAnimation *an = sc->mAnimations[a];
        if (clip ? strcmp(an->mName.data, clip) == 0 : an->mDuration > 0)
            return an;
    }
    return NULL;
}

/* sample times (ticks) of a clip: fps over its duration, at most max_poses */
static int clip_times(const struct aiAnimation *an, const struct skb__import_opts *io, double **times)
{
    double tps = an && an->mTicksPerSecond > 0 ? an->mTicksPerSecond : DEFAULT_TICKS_PER_S;
    double dur = an ? an->mDuration : 0;
    int n = an ? 1 + (int)floor(dur / tps * (io->fps > 0 ? io->fps : 30)) : 1;
    if (io->max_poses > 0 && n > io->max_poses)
        n = io->max_poses;
    if (n < 1)
        n = 1;
    *times = calloc((size_t)n, sizeof **times);
    if (!*times)
        return SKB_ENOMEM;
    for (int k = 0; k < n; k++)
        (*times)[k] = an ? (n > 1 ? dur * k / (n - 1) : 0) : -1;
    return n;
}

/* ---- the importer's file system: the model's own folder only ----
 * assimp opens a model's external references (glTF buffers and images,
 * OBJ materials, ...) through this hook: a path that leaves the model's
 * folder after resolving links, or is not a regular file, is refused and
 * named (docs/security.md "Security"); data: URIs never reach it */
struct confine {
    char root[PATH_MAX];       /* the model's folder, links resolved */
    char refused[300];         /* the first reference refused, for the message */
};

static struct confine *confine_of(struct aiFileIO *io)
{
    return (struct confine *)(void *)io->UserData;
}

static void refuse(struct confine *c, const char *path, const char *why)
{
    if (!c->refused[0])
        snprintf(c->refused, sizeof c->refused, "'%.200s' (%s)", path, why);
}

static size_t cf_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
    return fread(buf, size, count, (FILE *)(void *)f->UserData);
}

static size_t cf_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
    (void)f; (void)buf; (void)size; (void)count;
    return 0;   /* an import never writes */
}

static size_t cf_tell(struct aiFile *f)
{
    long t = ftell((FILE *)(void *)f->UserData);
    return t < 0 ? 0 : (size_t)t;
}

static size_t cf_size(struct aiFile *f)
{
    struct stat st;
    return fstat(fileno((FILE *)(void *)f->UserData), &st) == 0 ? (size_t)st.st_size : 0;
}

static enum aiReturn cf_seek(struct aiFile *f, size_t off, enum aiOrigin o)
{
    int wh = o == aiOrigin_SET ? SEEK_SET : o == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
    return off <= LONG_MAX && fseek((FILE *)(void *)f->UserData, (long)off, wh) == 0 ? aiReturn_SUCCESS
                                                                                  : aiReturn_FAILURE;
}

static void cf_flush(struct aiFile *f)
{
    (void)f;
}

static struct aiFile *cf_open(struct aiFileIO *io, const char *path, const char *mode)
{
    struct confine *c = confine_of(io);
    char real[PATH_MAX];
    size_t n = strlen(c->root);
    if (!mode || strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')) {
        refuse(c, path, "opened for writing");
        return NULL;
    }
    if (!realpath(path, real))
        return NULL;   /* absent: assimp probes names; its own error names the file */
    if (strncmp(real, c->root, n) != 0 || (real[n] != '/' && !(n == 1 && c->root[0] == '/'))) {
        refuse(c, path, "outside the model's folder");
        return NULL;
    }
    int fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0) {
            close(fd);
            refuse(c, path, "not a regular file");
        }
        return NULL;
    }
    FILE *fp = fdopen(fd, "rb");
    struct aiFile *f = fp ? calloc(1, sizeof *f) : NULL;
    if (!f) {
        if (fp)
            fclose(fp);
        else
            close(fd);
        return NULL;
    }
    f->ReadProc = cf_read;
    f->WriteProc = cf_write;
    f->TellProc = cf_tell;
    f->FileSizeProc = cf_size;
    f->SeekProc = cf_seek;
    f->FlushProc = cf_flush;
    f->UserData = (aiUserData)(void *)fp;
    return f;
}

static void cf_close(struct aiFileIO *io, struct aiFile *f)
{
    (void)io;
    if (f) {
        fclose((FILE *)(void *)f->UserData);
        free(f);
    }
}

static const struct aiScene *import_scene(const char *path, char *msg, size_t msglen)
{
    struct confine c;
    char real[PATH_MAX];
    memset(&c, 0, sizeof c);
    FILE *f = fopen(path, "rb");
    if (!f || !realpath(path, real)) {
        snprintf(msg, msglen, "%s: cannot open model file", path);
        if (f)
            fclose(f);
        return NULL;
    }
    fclose(f);
    char *slash = strrchr(real, '/');
    if (slash == real)
        snprintf(c.root, sizeof c.root, "/");
    else
        snprintf(c.root, sizeof c.root, "%.*s", (int)(slash ? slash - real : 0), real);
    struct aiFileIO io = { cf_open, cf_close, (aiUserData)(void *)&c };
    /* no stand-in mesh for a skeleton-only file (BVH): assimp would build one
     * of its bones, and skinning that would pass for skinning a model */
    struct aiPropertyStore *props = aiCreatePropertyStore();
    if (props)
        aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_NO_SKELETON_MESHES, 1);
    const struct aiScene *sc = aiImportFileExWithProperties(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices
                                                            | aiProcess_GenNormals | aiProcess_SortByPType, &io, props);
    if (props)
        aiReleasePropertyStore(props);
    if (c.refused[0]) {
        /* refused even where assimp carried on without the file */
        snprintf(msg, msglen, "%s: external reference %s refused: a model reads only regular files in its own "
                 "folder (and data: URIs)", path, c.refused);
        if (sc)
            aiReleaseImport(sc);
        return NULL;
    }
    if (!sc || !sc->mRootNode) {
        const char *e = aiGetErrorString();
        snprintf(msg, msglen, "%s: assimp cannot read it: %.300s", path, e && *e ? e : "unknown error");
        if (sc)
            aiReleaseImport(sc);
        return NULL;
    }
    return sc;
}

struct bone_ref { int node; double inv_bind[16]; int have; };

#define MAX_VERTEX_BONES 64   /* influences one vertex may name before the 4 are chosen */

/* one import in progress: the scene, its node hierarchy and what the
 * passes below derive from it (freed together by imp_free) */
struct imp {
    const char *path;
    char *msg;
    size_t msglen;
    const struct aiScene *sc;
    const struct aiAnimation *an;
    struct skel s;
    struct bone_ref *bones;       /* per node (and per static bone slot) */
    int *node_joint, *joint_node; /* node -> joint (-1: no bone), joint -> node */
    int njoints, nverts, ntris, nstatic;
    char static_name[MAX_STATIC_BONES][64];
    double *times, *g, *mesh_g;   /* pose times; node globals; per mesh its scene transform A_m */
};

/* "PATH: what" into the caller's message; returns rc */
static int imp_fail(struct imp *x, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int imp_fail(struct imp *x, int rc, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(x->msg, x->msglen, "%s: ", x->path);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < x->msglen)
        vsnprintf(x->msg + n, x->msglen - (size_t)n, fmt, ap);
    va_end(ap);
    return rc;
}

static int skinned_mesh(const struct aiMesh *me)
{
    return me->mNumBones && (me->mPrimitiveTypes & aiPrimitiveType_TRIANGLE);
}

/* the node of bone `name`; a bone whose frame the file lacks (anim_test.x
 * has no joint3/4 frames) gets an extra node slot after the hierarchy and
 * stays at its bind pose (create = 1 adds it, failing loudly past
 * MAX_STATIC_BONES); -1 when unknown */
static int bone_node(struct imp *x, const char *name, int create)
{
    int nd = skel_find(&x->s, name);
    for (int q = 0; nd < 0 && q < x->nstatic; q++)
        if (strcmp(x->static_name[q], name) == 0)
            nd = x->s.n + q;
    if (nd >= 0 || !create)
        return nd;
    if (x->nstatic == MAX_STATIC_BONES)
        return imp_fail(x, SKB_EPARSE, "more than %d bones have no node in the hierarchy", MAX_STATIC_BONES);
    snprintf(x->static_name[x->nstatic], sizeof x->static_name[0], "%.63s", name);
    return x->s.n + x->nstatic++;
}

/* rest globals: where each skinned mesh sits in the scene */
static void imp_mesh_globals(struct imp *x)
{
    skel_globals(&x->s, -1, x->g);
    for (unsigned m = 0; m < x->sc->mNumMeshes; m++)
        skb_mat4_identity(x->mesh_g + 16 * m);
    for (int i = 0; i < x->s.n; i++)
        for (unsigned k = 0; k < x->s.node[i]->mNumMeshes; k++)
            memcpy(x->mesh_g + 16 * x->s.node[i]->mMeshes[k], x->g + 16 * i, 16 * sizeof *x->g);
}

/* mesh me's bones: the inverse bind in scene space K_j = offset_j * A_m^-1,
 * the same for a bone in every mesh */
static int imp_mesh_bones(struct imp *x, const struct aiMesh *me, const double ainv[16])
{
    for (unsigned b = 0; b < me->mNumBones; b++) {
        const struct aiBone *bo = me->mBones[b];
        int nd = bone_node(x, bo->mName.data, 1);
        double off[16], k[16];
        if (nd < 0)
            return nd;
        mat_from_ai(&bo->mOffsetMatrix, off);
        skb_mat4_mul(off, ainv, k);
        if (!x->bones[nd].have) {
            x->bones[nd].have = 1;
            memcpy(x->bones[nd].inv_bind, k, sizeof k);
            continue;
        }
        for (int e = 0; e < 16; e++)
            if (fabs(k[e] - x->bones[nd].inv_bind[e]) > BIND_MISMATCH_TOL * (1 + fabs(k[e])))
                return imp_fail(x, SKB_EPARSE, "bone '%s' has different bind matrices in two meshes",
                                bo->mName.data);
    }
    return 0;
}

/* bones -> joints in depth-first order (parents precede children) */
static int imp_bones(struct imp *x)
{
    int rc;
    for (unsigned m = 0; m < x->sc->mNumMeshes; m++) {
        const struct aiMesh *me = x->sc->mMeshes[m];
        double ainv[16];
        if (!skinned_mesh(me))
            continue;
        if (mat_inverse(x->mesh_g + 16 * m, ainv) < 0)
            return imp_fail(x, SKB_EPARSE, "mesh '%s': singular node transform", me->mName.data);
        x->nverts += (int)me->mNumVertices;
        x->ntris += (int)me->mNumFaces;
        if ((rc = imp_mesh_bones(x, me, ainv)) < 0)
            return rc;
    }
    if (x->nverts == 0 && x->sc->mNumMeshes == 0 && x->sc->mNumAnimations > 0)
        return imp_fail(x, SKB_EINVAL, "a skeleton and its motion, no mesh (a motion-capture file such as BVH): "
                        "nothing to skin; give a rigged model, or use it as the motion of a catalogue dataset");
    if (x->nverts == 0)
        return imp_fail(x, SKB_EINVAL, "no skinned mesh (no bones with weights on any triangle mesh)");
    for (int i = 0; i < x->s.n + x->nstatic; i++) {
        x->node_joint[i] = -1;
        if (x->bones[i].have) {
            x->node_joint[i] = x->njoints;
            x->joint_node[x->njoints++] = i;
        }
    }
    return 0;
}

/* joints: parent = nearest bone ancestor; rest position = bone origin */
static int imp_joints(struct imp *x, struct skb_mesh *mesh)
{
    for (int j = 0; j < x->njoints; j++) {
        int p = x->joint_node[j] < x->s.n ? x->s.parent[x->joint_node[j]] : -1;
        while (p >= 0 && x->node_joint[p] < 0)
            p = x->s.parent[p];
        mesh->parent[j] = p >= 0 ? x->node_joint[p] : -1;
        double bind[16];
        if (mat_inverse(x->bones[x->joint_node[j]].inv_bind, bind) < 0)
            return imp_fail(x, SKB_EPARSE, "joint %d: singular bind matrix", j);
        mesh->joint_rest[3 * j] = bind[3];
        mesh->joint_rest[3 * j + 1] = bind[7];
        mesh->joint_rest[3 * j + 2] = bind[11];
    }
    return 0;
}

/* the neck by its bone's name (thesis Table 6.1's posture twists it) */
static void imp_neck(struct imp *x, struct skb_dataset *d)
{
    const char **names = calloc((size_t)x->njoints, sizeof *names);
    if (!names)
        return;   /* no neck known: Table 6.1 says so */
    for (int j = 0; j < x->njoints; j++) {
        int nd = x->joint_node[j];
        names[j] = nd < x->s.n ? x->s.node[nd]->mName.data : x->static_name[nd - x->s.n];
    }
    d->neck = skb__find_neck(x->njoints, names);
    d->has_neck = d->neck >= 0;
    if (d->has_neck)
        snprintf(d->neck_name, sizeof d->neck_name, "%.63s", names[d->neck]);
    else
        d->neck = 0;
    free(names);
}

/* vertices and normals in scene space: r = A_m v */
static void imp_vertices(const struct aiMesh *me, const double *a, struct skb_mesh *mesh, int v0)
{
    for (int v = 0; v < (int)me->mNumVertices; v++) {
        double p[3] = { me->mVertices[v].x, me->mVertices[v].y, me->mVertices[v].z };
        skb_mat4_apply(a, p, mesh->pos + 3 * (v0 + v));
        if (me->mNormals) {
            double n[3] = { me->mNormals[v].x, me->mNormals[v].y, me->mNormals[v].z }, o[3];
            skb_mat4_apply_dir(a, n, o);
            double len = skb_v3_norm(o);
            for (int r = 0; r < 3; r++)
                mesh->nrm[3 * (v0 + v) + r] = len > 0 ? o[r] / len : (r == 2);
        }
    }
}

/* one more influence of a vertex whose cnt slots are full: it takes the
 * place of the smallest when larger (the 4 kept in the end are among the
 * largest MAX_VERTEX_BONES either way) */
static void keep_largest(int *jj, double *ww, int j, double w)
{
    int k = 0;
    for (int i = 1; i < MAX_VERTEX_BONES; i++)
        if (ww[i] < ww[k])
            k = i;
    if (w > ww[k]) {
        jj[k] = j;
        ww[k] = w;
    }
}

/* each vertex's influences, limited to 4 and renormalised (counted in d).
 * A weight of 0 names a bone but moves nothing: not an influence.  Past
 * MAX_VERTEX_BONES influences of one vertex (a rig of many bones weighting
 * almost nothing) the largest are kept; the vertex counts as truncated. */
static int imp_weights(struct imp *x, const struct aiMesh *me, struct skb_dataset *d, int v0)
{
    int nv = (int)me->mNumVertices, rc = 0;
    int *cnt = calloc((size_t)nv, sizeof *cnt);
    int *jj = calloc((size_t)nv * MAX_VERTEX_BONES, sizeof *jj);
    double *ww = calloc((size_t)nv * MAX_VERTEX_BONES, sizeof *ww);
    if (!cnt || !jj || !ww)
        rc = imp_fail(x, SKB_ENOMEM, "out of memory while importing");
    for (unsigned b = 0; rc == 0 && b < me->mNumBones; b++) {
        const struct aiBone *bo = me->mBones[b];
        int j = x->node_joint[bone_node(x, bo->mName.data, 0)];
        for (unsigned w = 0; rc == 0 && w < bo->mNumWeights; w++) {
            unsigned v = bo->mWeights[w].mVertexId;
            float wt = bo->mWeights[w].mWeight;
            if (!isfinite(wt))
                /* named as read: renormalising would turn it into nan first */
                rc = imp_fail(x, SKB_EWEIGHTS, "mesh '%s': vertex %u: bone '%s' has weight %g (not a finite number)",
                              me->mName.data, v, bo->mName.data, (double)wt);
            else if (v >= (unsigned)nv || wt == 0)
                continue;
            else if (cnt[v] == MAX_VERTEX_BONES)
                keep_largest(jj + MAX_VERTEX_BONES * v, ww + MAX_VERTEX_BONES * v, j, wt);
            else {
                jj[MAX_VERTEX_BONES * v + cnt[v]] = j;
                ww[MAX_VERTEX_BONES * v + cnt[v]++] = bo->mWeights[w].mWeight;
            }
        }
    }
    for (int v = 0; rc == 0 && v < nv; v++) {
        int f = skb__limit_influences(cnt[v], jj + MAX_VERTEX_BONES * v, ww + MAX_VERTEX_BONES * v,
                                      d->mesh.joint + 4 * (v0 + v), d->mesh.weight + 4 * (v0 + v));
        d->truncated += (f & 1) != 0;
        d->renormalized += (f & 2) != 0;
        d->unweighted += (f & 4) != 0;
    }
    free(cnt);
    free(jj);
    free(ww);
    return rc;
}

/* triangles of mesh me (other faces skipped); returns how many */
static int imp_tris(const struct aiMesh *me, struct skb_mesh *mesh, int v0, int t0)
{
    int tri = 0;
    for (unsigned f = 0; f < me->mNumFaces; f++) {
        if (me->mFaces[f].mNumIndices != 3)
            continue;
        for (int k = 0; k < 3; k++)
            mesh->tris[3 * (t0 + tri) + k] = v0 + (int)me->mFaces[f].mIndices[k];
        tri++;
    }
    return tri;
}

/* every skinned mesh into the one dataset mesh */
static int imp_meshes(struct imp *x, struct skb_dataset *d)
{
    int v0 = 0, t0 = 0, rc;
    for (unsigned m = 0; m < x->sc->mNumMeshes; m++) {
        const struct aiMesh *me = x->sc->mMeshes[m];
        if (!skinned_mesh(me))
            continue;
        imp_vertices(me, x->mesh_g + 16 * m, &d->mesh, v0);
        if ((rc = imp_weights(x, me, d, v0)) < 0)
            return rc;
        t0 += imp_tris(me, &d->mesh, v0, t0);
        v0 += (int)me->mNumVertices;
    }
    d->mesh.ntris = t0;
    if (!x->sc->mMeshes[0]->mNormals)
        skb_dataset_compute_normals(&d->mesh);
    return 0;
}

/* poses: C_j = G_j(t) K_j, made rigid where the file is not */
static void imp_poses(struct imp *x, struct skb_dataset *d, int nposes)
{
    for (int k = 0; k < nposes; k++) {
        skel_globals(&x->s, x->times[k], x->g);
        for (int j = 0; j < x->njoints; j++) {
            skb_real *c = d->poses + (size_t)16 * (x->njoints * k + j);
            int nd = x->joint_node[j];
            if (nd >= x->s.n) {   /* bone without a node: stays at bind */
                skb_mat4_identity(c);
                continue;
            }
            skb_mat4_mul(x->g + 16 * nd, x->bones[nd].inv_bind, c);
            double e = skb__orthonormalize(c);
            if (e > SKB__DS_TOL_RIGID) {
                d->orthonormalized++;
                d->max_rigid_error = fmax(d->max_rigid_error, e);
            }
        }
    }
}

static int imp_alloc(struct imp *x)
{
    size_t n = (size_t)x->s.n + MAX_STATIC_BONES;
    x->bones = calloc(n, sizeof *x->bones);
    x->node_joint = calloc(n, sizeof *x->node_joint);
    x->joint_node = calloc(n, sizeof *x->joint_node);
    x->g = calloc((size_t)16 * x->s.n, sizeof *x->g);
    x->mesh_g = calloc((size_t)16 * (x->sc->mNumMeshes + 1), sizeof *x->mesh_g);
    if (!x->bones || !x->node_joint || !x->joint_node || !x->g || !x->mesh_g)
        return imp_fail(x, SKB_ENOMEM, "out of memory while importing");
    return 0;
}

static void imp_free(struct imp *x)
{
    free(x->times);
    free(x->g);
    free(x->mesh_g);
    free(x->bones);
    free(x->node_joint);
    free(x->joint_node);
    skel_free(&x->s);
    aiReleaseImport(x->sc);
}

/* the dataset from the prepared import: mesh, joints, poses, source */
static int imp_dataset(struct imp *x, const struct skb__import_opts *io, struct skb_dataset *d)
{
    int rc, nposes = clip_times(x->an, io, &x->times);
    if (nposes < 0 || skb_dataset_alloc(d, x->nverts, x->ntris, x->njoints, nposes) < 0)
        return imp_fail(x, SKB_ENOMEM, "out of memory while importing");
    if ((rc = imp_joints(x, &d->mesh)) < 0 || (rc = imp_meshes(x, d)) < 0)
        return rc;
    imp_neck(x, d);
    imp_poses(x, d, nposes);
    if (x->nstatic)
        snprintf(d->source, sizeof d->source, "%.400s (%d bones without a node kept at bind pose)", x->path,
                 x->nstatic);
    else
        snprintf(d->source, sizeof d->source, "%s", x->path);
    /* non-empty exactly when a clip drives the poses (run --dataset asks) */
    snprintf(d->clip, sizeof d->clip, "%.63s", !x->an ? "" : x->an->mName.data[0] ? x->an->mName.data : "(unnamed clip)");
    return 0;
}

int skb__import_model(const char *path, const struct skb__import_opts *io, struct skb_dataset *d,
                      char *msg, size_t msglen)
{
    struct imp x;
    int rc;
    memset(&x, 0, sizeof x);
    memset(d, 0, sizeof *d);
    x.path = path;
    x.msg = msg;
    x.msglen = msglen;
    if (!(x.sc = import_scene(path, msg, msglen)))
        return SKB_EIO;
    x.an = pick_clip(x.sc, io->clip);
    if (io->clip && !x.an)
        rc = imp_fail(&x, SKB_EINVAL, "no animation clip named '%s'", io->clip);
    else if (skel_init(x.sc, x.an, &x.s) < 0)
        rc = imp_fail(&x, SKB_ENOMEM, "out of memory while importing");
    else if ((rc = imp_alloc(&x)) == 0) {
        imp_mesh_globals(&x);
        if ((rc = imp_bones(&x)) == 0)
            rc = imp_dataset(&x, io, d);
    }
    if (rc < 0)
        skb_dataset_free(d);
    imp_free(&x);
    return rc;
}

int skb__motion_load(const char *path, const struct skb__import_opts *io, struct skb__motion *mo,
                     char *msg, size_t msglen)
{
    const struct aiScene *sc = import_scene(path, msg, msglen);
    struct skel s = { 0 };
    double *times = NULL;
    memset(mo, 0, sizeof *mo);
    if (!sc)
        return SKB_EIO;
    const struct aiAnimation *an = pick_clip(sc, io->clip);
    int nposes;
    if (!an) {
        snprintf(msg, msglen, "%s: no animation clip", path);
        aiReleaseImport(sc);
        return SKB_EINVAL;
    }
    if (skel_init(sc, an, &s) < 0 || (nposes = clip_times(an, io, &times)) < 0)
        goto oom;
    mo->nnodes = s.n;
    mo->nposes = nposes;
    mo->names = calloc((size_t)s.n, sizeof *mo->names);
    mo->parent = calloc((size_t)s.n, sizeof *mo->parent);
    mo->rest = calloc((size_t)16 * s.n, sizeof *mo->rest);
    mo->global = calloc((size_t)16 * s.n * nposes, sizeof *mo->global);
    if (!mo->names || !mo->parent || !mo->rest || !mo->global)
        goto oom;
    for (int i = 0; i < s.n; i++) {
        snprintf(mo->names[i], sizeof mo->names[i], "%.63s", s.node[i]->mName.data);
        mo->parent[i] = s.parent[i];
    }
    skel_globals(&s, -1, mo->rest);
    for (int k = 0; k < nposes; k++)
        skel_globals(&s, times[k], mo->global + (size_t)16 * s.n * k);
    free(times);
    skel_free(&s);
    aiReleaseImport(sc);
    return 0;
oom:
    snprintf(msg, msglen, "%s: out of memory while importing", path);
    free(times);
    skel_free(&s);
    skb__motion_free(mo);
    aiReleaseImport(sc);
    return SKB_ENOMEM;
}

void skb__motion_free(struct skb__motion *mo)
{
    free(mo->names);
    free(mo->parent);
    free(mo->rest);
    free(mo->global);
    memset(mo, 0, sizeof *mo);
}
