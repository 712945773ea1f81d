// peer_glm.cpp — glm's dual quaternion skinning as engines write it: convert
// each joint matrix with dualquat_cast, per vertex blend the four dual
// quaternions with a sign flip against the first (DQ paper Alg. 2), normalise
// with glm::normalize and transform with glm's dualquat * vec3 (floats).
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>
#include "skb_peers.h"

#if __has_include(<glm/gtx/dual_quaternion.hpp>)
#define GLM_FORCE_CTOR_INIT
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/norm.hpp>
#include <glm/gtx/dual_quaternion.hpp>

struct skb_peer {
    int nverts = 0;
    bool normals = false;
    std::vector<glm::vec3> pos, nrm;
    std::vector<glm::ivec4> joint;
    std::vector<glm::vec4> weight;
    std::vector<glm::dualquat> dq;
};

static skb_peer *glm_create(const skb_mesh *m)
{
    skb_peer *p = new (std::nothrow) skb_peer;
    if (!p)
        return nullptr;
    p->nverts = m->nverts;
    p->normals = m->nrm != nullptr;
    p->pos.resize(m->nverts);
    p->nrm.resize(m->nverts);
    p->joint.resize(m->nverts);
    p->weight.resize(m->nverts);
    p->dq.resize(m->njoints);
    for (int v = 0; v < m->nverts; v++) {
        p->pos[v] = glm::vec3(m->pos[3 * v], m->pos[3 * v + 1], m->pos[3 * v + 2]);
        if (m->nrm)
            p->nrm[v] = glm::vec3(m->nrm[3 * v], m->nrm[3 * v + 1], m->nrm[3 * v + 2]);
        p->joint[v] = glm::ivec4(m->joint[4 * v], m->joint[4 * v + 1], m->joint[4 * v + 2], m->joint[4 * v + 3]);
        p->weight[v] = glm::vec4(m->weight[4 * v], m->weight[4 * v + 1], m->weight[4 * v + 2], m->weight[4 * v + 3]);
    }
    return p;
}

static void glm_prepare(skb_peer *p, const skb_pose *pose)
{
    for (size_t j = 0; j < p->dq.size(); j++) {
        glm::mat3x4 gm;   // glm: gm[i] is row i of the 3x4
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 4; k++)
                gm[i][k] = (float)pose->mats[16 * j + 4 * i + k];
        p->dq[j] = glm::dualquat_cast(gm);
    }
}

static void glm_skin(skb_peer *p, float *pos_out, float *nrm_out)
{
    for (int v = 0; v < p->nverts; v++) {
        const glm::ivec4 &j = p->joint[v];
        const glm::vec4 &w = p->weight[v];
        const glm::dualquat &d0 = p->dq[j.x];
        glm::dualquat b = d0 * w.x;
        for (int k = 1; k < 4; k++) {
            const glm::dualquat &dk = p->dq[j[k]];
            float wk = glm::dot(d0.real, dk.real) < 0 ? -w[k] : w[k];
            b = b + dk * wk;
        }
        b = glm::normalize(b);
        glm::vec3 out = b * p->pos[v];
        std::memcpy(pos_out + 3 * v, &out[0], sizeof(float) * 3);
        if (p->normals) {
            glm::vec3 n = b.real * p->nrm[v];
            std::memcpy(nrm_out + 3 * v, &n[0], sizeof(float) * 3);
        }
    }
}

static void glm_destroy(skb_peer *p)
{
    delete p;
}

extern "C" const skb_peer_ops skb_peer_glm_dq = {
    "glm_dq", "glm 0.9.9 dualquat: dualquat_cast, blend with sign flip, normalize, dq * v (float)", SKB_MF_HEADLINE,
    glm_create, glm_prepare, glm_skin, glm_destroy,
    "structure of arrays of glm types: vec3 positions and normals, ivec4 joints, vec4 weights (zero weights "
    "blended); a float dualquat per joint",
    "rotated by the normalised blend's real part (unit: no renormalisation)", 1,
};
#else
extern "C" const skb_peer_ops skb_peer_glm_dq = {
    "glm_dq", "glm dual quaternions (not built: libglm-dev headers missing)", SKB_MF_HEADLINE,
    nullptr, nullptr, nullptr, nullptr, "—", "—", 0,
};
#endif
