// test_fcl.cpp — FCL as an independent oracle for the collision query
// (methods/skb_geom.h): on posed skinned meshes the set of colliding triangle
// pairs of skb_cd_query (on-demand refits) and of brute force must equal the
// set FCL's BVH collision reports.  Skips with the reason when libfcl-dev is
// not installed (the Makefile defines SKB_HAVE_FCL and links FCL only then).
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>
#include <vector>
extern "C" {
#include "skb_geom.h"
#include "skb_dataset.h"
#include "skb_sphere_cd.h"
}

#ifdef SKB_HAVE_FCL
#include <fcl/fcl.h>     /* before cmocka: its fail() macro breaks the C++ headers */
#endif
extern "C" {
#include <cmocka.h>
}

#ifdef SKB_HAVE_FCL

#define FRAMES 4

typedef std::set<std::pair<int, int>> pairset;

static std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fcl_model(const skb_mesh *m, const double *pos)
{
    std::vector<fcl::Vector3d> v;
    std::vector<fcl::Triangle> t;
    for (int i = 0; i < m->nverts; i++)
        v.push_back(fcl::Vector3d(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]));
    for (int i = 0; i < m->ntris; i++)
        t.push_back(fcl::Triangle(m->tris[3 * i], m->tris[3 * i + 1], m->tris[3 * i + 2]));
    auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
    model->beginModel();
    model->addSubModel(v, t);
    model->endModel();
    return model;
}

static void test_pairs_match_fcl(void **state)
{
    (void)state;
    const char *names[] = { "arm", "anim_cylinder", "creature" };
    long frames = 0, total = 0;
    for (const char *name : names) {
        skb_dataset d;
        skb_sphere_tree t;
        skb_dataset_opts o = { 12345UL, 1, 0 };
        char msg[256];
        if (skb_dataset_load(name, &o, &d, msg, sizeof msg) < 0) {
            print_message("%s not available: %s\n", name, msg);
            continue;
        }
        assert_int_equal(skb_sphere_tree_build(&d.mesh, SKB_TREE_COLLAPSE_C, &t, msg, sizeof msg), 0);
        const skb_method *lbs = skb_method_find("linear");
        skb_sbody a, b;
        assert_int_equal(skb_sbody_init(&a, &d.mesh, lbs, &t, msg, sizeof msg), 0);
        assert_int_equal(skb_sbody_init(&b, &d.mesh, lbs, &t, msg, sizeof msg), 0);
        std::vector<double> ma(16 * d.mesh.njoints), mb(16 * d.mesh.njoints);
        std::vector<int> buf(2 * 4000000);
        for (int f = 0; f < FRAMES; f++) {
            skb_pose pa, pb;
            skb_dataset_pose(&d, f % d.nposes, &pa);
            skb_dataset_pose(&d, (f * 7 + 3) % d.nposes, &pb);
            double world[16];
            skb_mat4_identity(world);
            world[3] = t.node[0].s[3] * (0.3 + 0.2 * f);   // partly overlapping copies
            world[7] = t.node[0].s[3] * 0.1;
            skb_pose_place(&pb, world, mb.data());
            skb_pose pb2 = { d.mesh.njoints, mb.data(), NULL };
            assert_int_equal(skb_sbody_pose(&a, &pa, NULL, SKB_REFIT_BOTTOM_UP, msg, sizeof msg), 0);
            assert_int_equal(skb_sbody_pose(&b, &pb2, NULL, SKB_REFIT_BOTTOM_UP, msg, sizeof msg), 0);
            long nbf = skb_cd_brute_force(d.mesh.tris, d.mesh.ntris, a.pos, d.mesh.tris, d.mesh.ntris, b.pos,
                                          buf.data(), 2000000);
            pairset bf;
            for (long k = 0; k < nbf; k++)
                bf.insert(std::make_pair(buf[2 * k], buf[2 * k + 1]));
            // on-demand query
            assert_int_equal(skb_sbody_pose(&a, &pa, NULL, SKB_REFIT_ON_DEMAND, msg, sizeof msg), 0);
            assert_int_equal(skb_sbody_pose(&b, &pb2, NULL, SKB_REFIT_ON_DEMAND, msg, sizeof msg), 0);
            skb_cd_stats st;
            long nq = skb_cd_query(&a.body, &b.body, SKB_CD_FULL, buf.data(), 2000000, &st);
            pairset q;
            for (long k = 0; k < nq; k++)
                q.insert(std::make_pair(buf[2 * k], buf[2 * k + 1]));
            skb_sbody_skin_all(&a);
            skb_sbody_skin_all(&b);
            // FCL on the same posed vertices
            fcl::CollisionObjectd oa(fcl_model(&d.mesh, a.pos), fcl::Transform3d::Identity());
            fcl::CollisionObjectd ob(fcl_model(&d.mesh, b.pos), fcl::Transform3d::Identity());
            fcl::CollisionRequestd req(1000000, false);
            fcl::CollisionResultd res;
            fcl::collide(&oa, &ob, req, res);
            std::vector<fcl::Contactd> c;
            res.getContacts(c);
            pairset fc;
            for (const auto &x : c)
                fc.insert(std::make_pair((int)x.b1, (int)x.b2));
            print_message("%s frame %d: brute force %zu, query %zu, FCL %zu pairs\n", name, f, bf.size(), q.size(),
                          fc.size());
            if (q != bf)
                fail_msg("%s frame %d: query and brute force differ", name, f);
            if (fc != bf) {
                long only_fcl = 0, only_bf = 0;
                for (const auto &x : fc)
                    only_fcl += !bf.count(x);
                for (const auto &x : bf)
                    only_bf += !fc.count(x);
                fail_msg("%s frame %d: FCL and brute force differ (%ld only in FCL, %ld only in brute force)", name,
                         f, only_fcl, only_bf);
            }
            frames++;
            total += (long)bf.size();
        }
        skb_sbody_fini(&a);
        skb_sbody_fini(&b);
        skb_sphere_tree_free(&t);
        skb_dataset_free(&d);
    }
    print_message("FCL agrees on %ld frames (%ld colliding pairs)\n", frames, total);
    assert_true(frames > 0 && total > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_match_fcl),
    };
    return cmocka_run_group_tests_name("fcl", tests, NULL, NULL);
}

#else

static void test_fcl_missing(void **state)
{
    (void)state;
    print_message("skipped: libfcl-dev is not installed (scripts/install-deps.sh installs it)\n");
    skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fcl_missing),
    };
    return cmocka_run_group_tests_name("fcl", tests, NULL, NULL);
}

#endif
