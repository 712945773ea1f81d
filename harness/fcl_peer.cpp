// fcl_peer.cpp — FCL's BVH with bottom-up refitting as the peer of
// `skinbench run cd` (see skb_fcl_peer.h); stubs without FCL.
#ifdef SKB_HAVE_FCL
#include <fcl/fcl.h>
#endif
#include <new>
#include <vector>
#include "skb_fcl_peer.h"

#ifdef SKB_HAVE_FCL

struct skb_fcl_peer {
    std::shared_ptr<fcl::BVHModel<fcl::AABBd>> model;
    fcl::CollisionObjectd *obj;
    int nverts;
};

int skb_fcl_peer_available(void)
{
    return 1;
}

int skb_fcl_peer_new(const int *tris, int ntris, const skb_real *pos, int nverts, struct skb_fcl_peer **out)
{
    try {
        std::vector<fcl::Vector3d> v((size_t)nverts);
        std::vector<fcl::Triangle> t((size_t)ntris);
        for (int i = 0; i < nverts; i++)
            v[(size_t)i] = fcl::Vector3d(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        for (int i = 0; i < ntris; i++)
            t[(size_t)i] = fcl::Triangle(tris[3 * i], tris[3 * i + 1], tris[3 * i + 2]);
        skb_fcl_peer *p = new skb_fcl_peer;
        p->model = std::make_shared<fcl::BVHModel<fcl::AABBd>>();
        p->model->beginModel();
        p->model->addSubModel(v, t);
        p->model->endModel();
        p->obj = new fcl::CollisionObjectd(p->model, fcl::Transform3d::Identity());
        p->nverts = nverts;
        *out = p;
        return 0;
    } catch (...) {
        return SKB_ENOMEM;
    }
}

int skb_fcl_peer_refit(struct skb_fcl_peer *p, const skb_real *pos)
{
    /* the replace path: FCL's update path (updateVertex) keeps the previous
     * positions and refits volumes around both (its continuous-CD use),
     * which is not the per-frame query compared here */
    if (p->model->beginReplaceModel() != fcl::BVH_OK)
        return SKB_ENUMERIC;
    for (int i = 0; i < p->nverts; i++)
        p->model->replaceVertex(fcl::Vector3d(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]));
    if (p->model->endReplaceModel(true, true) != fcl::BVH_OK)   /* refit, bottom-up */
        return SKB_ENUMERIC;
    p->obj->computeAABB();
    return 0;
}

long skb_fcl_peer_collide(struct skb_fcl_peer *a, struct skb_fcl_peer *b, int yesno)
{
    fcl::CollisionRequestd req(yesno ? 1 : 100000000, false);
    fcl::CollisionResultd res;
    fcl::collide(a->obj, b->obj, req, res);
    return (long)res.numContacts();
}

void skb_fcl_peer_free(struct skb_fcl_peer *p)
{
    if (!p)
        return;
    delete p->obj;
    delete p;
}

#else

int skb_fcl_peer_available(void)
{
    return 0;
}

int skb_fcl_peer_new(const int *, int, const skb_real *, int, struct skb_fcl_peer **out)
{
    *out = nullptr;
    return SKB_ENOTSUP;
}

int skb_fcl_peer_refit(struct skb_fcl_peer *, const skb_real *)
{
    return SKB_ENOTSUP;
}

long skb_fcl_peer_collide(struct skb_fcl_peer *, struct skb_fcl_peer *, int)
{
    return SKB_ENOTSUP;
}

void skb_fcl_peer_free(struct skb_fcl_peer *)
{
}

#endif
