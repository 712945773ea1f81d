/* skb_strmap.c — string -> int index (skb_strmap.h). */
#include <stdlib.h>
#include <string.h>
#include "skb_error.h"
#include "skb_strmap.h"

static size_t hash(const char *k)
{
    size_t h = (size_t)1469598103934665603ULL;   /* FNV-1a */
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * (size_t)1099511628211ULL;
    return h;
}

/* the slot of key: its own, or the empty one where it would go */
static size_t slot(const struct skb_strmap *m, const char *key)
{
    size_t i = hash(key) & (m->cap - 1);
    while (m->key[i] && strcmp(m->key[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int alloc_table(struct skb_strmap *m, size_t cap)
{
    m->key = calloc(cap, sizeof *m->key);
    m->val = malloc(cap * sizeof *m->val);
    if (!m->key || !m->val) {
        free(m->key);
        free(m->val);
        m->key = NULL;
        m->val = NULL;
        return SKB_ENOMEM;
    }
    m->cap = cap;
    m->n = 0;
    return 0;
}

int skb_strmap_init(struct skb_strmap *m, size_t expect)
{
    size_t cap = 16;
    while (cap < 2 * expect)
        cap *= 2;
    return alloc_table(m, cap);
}

/* twice the slots, every key moved (the load stays under one half) */
static int grow(struct skb_strmap *m)
{
    struct skb_strmap old = *m;
    if (alloc_table(m, old.cap * 2) < 0) {
        *m = old;
        return SKB_ENOMEM;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.key[i]) {
            size_t j = slot(m, old.key[i]);
            m->key[j] = old.key[i];
            m->val[j] = old.val[i];
            m->n++;
        }
    free(old.key);
    free(old.val);
    return 0;
}

int skb_strmap_put(struct skb_strmap *m, const char *key, int val)
{
    if (!m->key && skb_strmap_init(m, 8) < 0)
        return SKB_ENOMEM;
    if (2 * (m->n + 1) > m->cap && grow(m) < 0)
        return SKB_ENOMEM;
    size_t i = slot(m, key);
    if (!m->key[i]) {
        m->key[i] = key;
        m->n++;
    }
    m->val[i] = val;
    return 0;
}

int skb_strmap_get(const struct skb_strmap *m, const char *key)
{
    if (!m->key)
        return -1;
    size_t i = slot(m, key);
    return m->key[i] ? m->val[i] : -1;
}

void skb_strmap_free(struct skb_strmap *m)
{
    if (!m)
        return;
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}
