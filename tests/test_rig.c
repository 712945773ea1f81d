/* test_rig.c — procedural rigs look like an artist's (datasets/capsules.c):
 * influences below SKB__PRUNE_WEIGHT are pruned and the rest renormalised,
 * so vertices have one or two neighbouring joints away from the branch
 * points, and SB (methods/sb.c) finds trivial joint sets (seed 003
 * section 4) that need no SVD. */
#include "skb_test.h"
#include "skb_dataset.h"
#include "dataset_util.h"
#include "skb_sb_internal.h"

static const char *const procedural[] = { "body", "creature", "cloth", NULL };

/* every kept weight is at least the threshold, the weights sum to 1, the
 * largest sits in slot 0, and the dataset says it was pruned */
static void test_weights_pruned(void **state)
{
    for (int i = 0; procedural[i]; i++) {
        struct skb_dataset_opts o = { 1, 0, 0 };
        struct skb_dataset d;
        char msg[512];
        int hist[SKB_MAX_INFLUENCES + 1] = { 0 };
        if (skb_dataset_load(procedural[i], &o, &d, msg, sizeof msg) < 0)
            fail_msg("%s: %s", procedural[i], msg);
        assert_true(d.pruned_below == SKB__PRUNE_WEIGHT);
        for (int v = 0; v < d.mesh.nverts; v++) {
            const skb_real *w = d.mesh.weight + SKB_MAX_INFLUENCES * v;
            double sum = 0;
            int k = 0;
            for (int c = 0; c < SKB_MAX_INFLUENCES; c++) {
                if (w[c] != 0 && w[c] < SKB__PRUNE_WEIGHT)
                    fail_msg("%s: vertex %d keeps weight %g < %g", procedural[i], v, w[c], SKB__PRUNE_WEIGHT);
                assert_true(w[c] <= w[0]);
                k += w[c] > 0;
                sum += w[c];
            }
            assert_true(fabs(sum - 1) < 1e-12);
            hist[k]++;
        }
        print_message("%s: vertices with 1/2/3/4 influences %d/%d/%d/%d\n", procedural[i], hist[1], hist[2],
                      hist[3], hist[4]);
        /* a rig of capsules: most vertices away from the joints are rigid */
        assert_true(hist[1] > 0);
        assert_true(hist[1] + hist[2] > d.mesh.nverts / 3);
        skb_dataset_free(&d);
    }
}

/* on the pruned body SB's joint sets include trivial ones (one joint or a
 * parent and its child) in every pose of its clip, and none of its
 * parent-child sets needs the SVD fallback (the clip is built along the
 * hierarchy) */
static void test_body_has_trivial_sets(void **state)
{
    struct skb_dataset_opts o = { 1, 0, 0 };
    struct skb_dataset d;
    struct skb_skinner s;
    char msg[512];
    const struct skb_method *sb = skb_method_find("sb");
    assert_non_null(sb);
    assert_int_equal(skb_dataset_load("body", &o, &d, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_init(&s, sb, &d.mesh, msg, sizeof msg), 0);
    struct skb_params prm;
    skb_params_default(&prm);
    for (int k = 0; k < d.nposes; k++) {
        struct skb_pose p;
        struct skb_sb_counts c;
        skb_dataset_pose(&d, k, &p);
        assert_int_equal(sb->prepare(&d.mesh, &p, &prm, s.state), 0);
        skb_sb_counts(&d.mesh, s.state, &c);
        if (k == 0)
            print_message("body: %d joint sets, %d trivial, %d solved, %d regularised\n", c.sets, c.trivial,
                          c.solved, c.regularised);
        assert_true(c.trivial > c.sets / 4);
        assert_int_equal(c.trivial + c.solved, c.sets);
        assert_int_equal(c.fallback, 0);
    }
    skb_skin_fini(&s);
    skb_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_pruned),
        cmocka_unit_test(test_body_has_trivial_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
