/* model_import.c — rigged models and motion through assimp: the node
 * hierarchy sampled over an animation clip, bones turned into joints with
 * C_j = global_posed_j * inverse_bind_j (rest pose -> posed, thesis 2.2.1),
 * influences limited to 4 and renormalised with counts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static const struct aiScene *import_scene(const char *path, char *msg, size_t msglen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "%s: cannot open model file", path);
        return NULL;
    }
    fclose(f);
    const struct aiScene *sc = aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices
                                            | aiProcess_GenNormals | aiProcess_SortByPType);
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

int skb__import_model(const char *path, const struct skb__import_opts *io, struct skb_dataset *d,
                      char *msg, size_t msglen)
{
    const struct aiScene *sc = import_scene(path, msg, msglen);
    struct skel s = { 0 };
    struct bone_ref *bones = NULL;
    int *node_joint = NULL, *joint_node = NULL, njoints = 0, nverts = 0, ntris = 0, rc = SKB_ENOMEM;
    int nstatic = 0;
    char static_name[MAX_STATIC_BONES][64];
    double *times = NULL, *g = NULL, *mesh_g = NULL;
    memset(d, 0, sizeof *d);
    if (!sc)
        return SKB_EIO;
    const struct aiAnimation *an = pick_clip(sc, io->clip);
    if (io->clip && !an) {
        snprintf(msg, msglen, "%s: no animation clip named '%s'", path, io->clip);
        rc = SKB_EINVAL;
        goto out;
    }
    if (skel_init(sc, an, &s) < 0)
        goto oom;
    bones = calloc((size_t)s.n + MAX_STATIC_BONES, sizeof *bones);
    node_joint = calloc((size_t)s.n + MAX_STATIC_BONES, sizeof *node_joint);
    joint_node = calloc((size_t)s.n + MAX_STATIC_BONES, sizeof *joint_node);
    g = calloc((size_t)16 * s.n, sizeof *g);
    mesh_g = calloc((size_t)16 * (sc->mNumMeshes + 1), sizeof *mesh_g);
    if (!bones || !node_joint || !joint_node || !g || !mesh_g)
        goto oom;
    /* rest globals: where each skinned mesh sits in the scene */
    skel_globals(&s, -1, g);
    for (unsigned m = 0; m < sc->mNumMeshes; m++)
        skb_mat4_identity(mesh_g + 16 * m);
    for (int i = 0; i < s.n; i++)
        for (unsigned k = 0; k < s.node[i]->mNumMeshes; k++)
            memcpy(mesh_g + 16 * s.node[i]->mMeshes[k], g + 16 * i, 16 * sizeof *g);
    /* bones -> joints; the inverse bind in scene space K_j = offset_j * A_m^-1 */
    for (unsigned m = 0; m < sc->mNumMeshes; m++) {
        const struct aiMesh *me = sc->mMeshes[m];
        if (!me->mNumBones || !(me->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        double ainv[16];
        if (mat_inverse(mesh_g + 16 * m, ainv) < 0) {
            snprintf(msg, msglen, "%s: mesh '%s': singular node transform", path, me->mName.data);
            rc = SKB_EPARSE;
            goto out;
        }
        nverts += (int)me->mNumVertices;
        ntris += (int)me->mNumFaces;
        for (unsigned b = 0; b < me->mNumBones; b++) {
            const struct aiBone *bo = me->mBones[b];
            int nd = skel_find(&s, bo->mName.data);
            double off[16], k[16];
            if (nd < 0) {
                /* a bone whose frame the file lacks (anim_test.x has no joint3/4
                 * frames): it gets an extra node slot and stays at its bind pose */
                for (int q = 0; q < nstatic && nd < 0; q++)
                    if (strcmp(static_name[q], bo->mName.data) == 0)
                        nd = s.n + q;
                if (nd < 0 && nstatic == MAX_STATIC_BONES) {
                    snprintf(msg, msglen, "%s: more than %d bones have no node in the hierarchy", path,
                             MAX_STATIC_BONES);
                    rc = SKB_EPARSE;
                    goto out;
                }
                if (nd < 0)
                    nd = s.n + nstatic;
                if (nd == s.n + nstatic)
                    snprintf(static_name[nstatic++], sizeof static_name[0], "%.63s", bo->mName.data);
            }
            mat_from_ai(&bo->mOffsetMatrix, off);
            skb_mat4_mul(off, ainv, k);
            if (!bones[nd].have) {
                bones[nd].have = 1;
                memcpy(bones[nd].inv_bind, k, sizeof k);
            } else {
                for (int e = 0; e < 16; e++)
                    if (fabs(k[e] - bones[nd].inv_bind[e]) > BIND_MISMATCH_TOL * (1 + fabs(k[e]))) {
                        snprintf(msg, msglen, "%s: bone '%s' has different bind matrices in two meshes",
                                 path, bo->mName.data);
                        rc = SKB_EPARSE;
                        goto out;
                    }
            }
        }
    }
    if (nverts == 0) {
        snprintf(msg, msglen, "%s: no skinned mesh (no bones with weights on any triangle mesh)", path);
        rc = SKB_EINVAL;
        goto out;
    }
    for (int i = 0; i < s.n + nstatic; i++) {   /* depth-first order: parents precede children */
        node_joint[i] = -1;
        if (bones[i].have) {
            node_joint[i] = njoints;
            joint_node[njoints++] = i;
        }
    }
    free(times);
    int nposes = clip_times(an, io, &times);
    if (nposes < 0)
        goto oom;
    if (skb_dataset_alloc(d, nverts, ntris, njoints, nposes) < 0)
        goto oom;
    struct skb_mesh *mesh = &d->mesh;
    /* joints: parent = nearest bone ancestor; rest position = bone origin */
    for (int j = 0; j < njoints; j++) {
        int p = joint_node[j] < s.n ? s.parent[joint_node[j]] : -1;
        while (p >= 0 && node_joint[p] < 0)
            p = s.parent[p];
        mesh->parent[j] = p >= 0 ? node_joint[p] : -1;
        double bind[16];
        if (mat_inverse(bones[joint_node[j]].inv_bind, bind) < 0) {
            snprintf(msg, msglen, "%s: joint %d: singular bind matrix", path, j);
            rc = SKB_EPARSE;
            goto out;
        }
        mesh->joint_rest[3 * j] = bind[3];
        mesh->joint_rest[3 * j + 1] = bind[7];
        mesh->joint_rest[3 * j + 2] = bind[11];
    }
    /* vertices in scene space: r = A_m v */
    int v0 = 0, t0 = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++) {
        const struct aiMesh *me = sc->mMeshes[m];
        if (!me->mNumBones || !(me->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        const double *a = mesh_g + 16 * m;
        int nv = (int)me->mNumVertices;
        int *cnt = calloc((size_t)nv, sizeof *cnt);
        int *jj = calloc((size_t)nv * 64, sizeof *jj);
        double *ww = calloc((size_t)nv * 64, sizeof *ww);
        if (!cnt || !jj || !ww) {
            free(cnt); free(jj); free(ww);
            goto oom;
        }
        for (int v = 0; v < nv; v++) {
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
        for (unsigned b = 0; b < me->mNumBones; b++) {
            const struct aiBone *bo = me->mBones[b];
            int nd = skel_find(&s, bo->mName.data);
            for (int q = 0; nd < 0 && q < nstatic; q++)
                if (strcmp(static_name[q], bo->mName.data) == 0)
                    nd = s.n + q;
            int j = node_joint[nd];
            for (unsigned w = 0; w < bo->mNumWeights; w++) {
                unsigned v = bo->mWeights[w].mVertexId;
                if (v < (unsigned)nv && cnt[v] < 64) {
                    jj[64 * v + cnt[v]] = j;
                    ww[64 * v + cnt[v]++] = bo->mWeights[w].mWeight;
                }
            }
        }
        for (int v = 0; v < nv; v++) {
            int f = skb__limit_influences(cnt[v], jj + 64 * v, ww + 64 * v,
                                          mesh->joint + 4 * (v0 + v), mesh->weight + 4 * (v0 + v));
            d->truncated += (f & 1) != 0;
            d->renormalized += (f & 2) != 0;
            d->unweighted += (f & 4) != 0;
        }
        free(cnt); free(jj); free(ww);
        int tri = 0;
        for (unsigned f = 0; f < me->mNumFaces; f++) {
            if (me->mFaces[f].mNumIndices != 3)
                continue;
            for (int k = 0; k < 3; k++)
                mesh->tris[3 * (t0 + tri) + k] = v0 + (int)me->mFaces[f].mIndices[k];
            tri++;
        }
        v0 += nv;
        t0 += tri;
    }
    mesh->ntris = t0;
    if (!sc->mMeshes[0]->mNormals)
        skb_dataset_compute_normals(mesh);
    /* poses: C_j = G_j(t) K_j, made rigid where the file is not */
    for (int k = 0; k < nposes; k++) {
        skel_globals(&s, times[k], g);
        for (int j = 0; j < njoints; j++) {
            skb_real *c = d->poses + (size_t)16 * (njoints * k + j);
            if (joint_node[j] >= s.n) {   /* bone without a node: stays at bind */
                skb_mat4_identity(c);
                continue;
            }
            skb_mat4_mul(g + 16 * joint_node[j], bones[joint_node[j]].inv_bind, c);
            double e = skb__orthonormalize(c);
            if (e > SKB__DS_TOL_RIGID) {
                d->orthonormalized++;
                d->max_rigid_error = fmax(d->max_rigid_error, e);
            }
        }
    }
    if (nstatic)
        snprintf(d->source, sizeof d->source, "%.400s (%d bones without a node kept at bind pose)", path, nstatic);
    else
        snprintf(d->source, sizeof d->source, "%s", path);
    /* non-empty exactly when a clip drives the poses (run --dataset asks) */
    snprintf(d->clip, sizeof d->clip, "%.63s", !an ? "" : an->mName.data[0] ? an->mName.data : "(unnamed clip)");
    rc = 0;
    goto out;
oom:
    snprintf(msg, msglen, "%s: out of memory while importing", path);
    rc = SKB_ENOMEM;
out:
    if (rc < 0)
        skb_dataset_free(d);
    free(times);
    free(g);
    free(mesh_g);
    free(bones);
    free(node_joint);
    free(joint_node);
    skel_free(&s);
    aiReleaseImport(sc);
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
