/* skb_test_data.h — a catalogue dataset for a test: the quick version at the
 * test seed (SKB_TEST_SEED), or a printed reason to skip it. */
#ifndef SKB_TEST_DATA_H
#define SKB_TEST_DATA_H

#include "skb_test.h"
#include "skb_dataset.h"

/* 0 with *d loaded (the caller frees it), or -1 after printing why not */
static inline int skb_test_load_quick(const char *name, struct skb_dataset *d)
{
    struct skb_dataset_opts o = { skb_test_seed(), 1, 0 };
    char msg[512];
    if (skb_dataset_load(name, &o, d, msg, sizeof msg) < 0) {
        print_message("skip %s: %s\n", name, msg);
        return -1;
    }
    return 0;
}

#endif
