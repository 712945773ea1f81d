/* skb_strmap.h — a string -> int index (open addressing, FNV-1a), for the
 * readers and gates that look names up by the thousand: Google Benchmark
 * rows (skb_gbench.c), instruction counts and method groups (regress/).
 * A linear search per name made compare quadratic (20,000 benchmark names:
 * 85 s); this keeps every look-up O(1) on average.
 *
 *   int  skb_strmap_init(struct skb_strmap *m, size_t expect);
 *   int  skb_strmap_put(struct skb_strmap *m, const char *key, int val);
 *   int  skb_strmap_get(const struct skb_strmap *m, const char *key);
 *   void skb_strmap_free(struct skb_strmap *m);
 *
 * Keys are borrowed, not copied: each must outlive the map. */
#ifndef SKB_STRMAP_H
#define SKB_STRMAP_H

#include <stddef.h>

struct skb_strmap {
    size_t cap, n;             /* slots (a power of two), keys held */
    const char **key;          /* NULL: an empty slot */
    int *val;
};

/* an empty map with room for about `expect` keys; 0 or SKB_ENOMEM */
int skb_strmap_init(struct skb_strmap *m, size_t expect);
/* key -> val, replacing an earlier value; 0 or SKB_ENOMEM (the map unchanged) */
int skb_strmap_put(struct skb_strmap *m, const char *key, int val);
/* the value of key, or -1 when absent (also for a map never initialised) */
int skb_strmap_get(const struct skb_strmap *m, const char *key);
/* frees the table (not the keys); a zeroed or freed map may be freed again */
void skb_strmap_free(struct skb_strmap *m);

#endif
