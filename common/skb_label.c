/* skb_label.c — benchmark labels: method[+variant...][@key[=value]...]
 * (skb_label.h) */
#include <stdio.h>
#include <string.h>
#include "skb_error.h"
#include "skb_label.h"

void skb_label_init(struct skb_label *l, const char *method)
{
    memset(l, 0, sizeof *l);
    snprintf(l->method, sizeof l->method, "%s", method);
}

/* a part is non-empty, fits its field and holds none of the separators
 * that would end it early */
static int part_ok(const char *s, size_t n, size_t cap, const char *stops)
{
    return n > 0 && n < cap && strcspn(s, stops) >= n;
}

int skb_label_add_variant(struct skb_label *l, const char *variant)
{
    size_t n = strlen(variant);
    if (l->nvariants == SKB_LABEL_PARTS || l->nkeys || !part_ok(variant, n, sizeof l->variant[0], "+@"))
        return SKB_EINVAL;
    memcpy(l->variant[l->nvariants++], variant, n + 1);
    return 0;
}

int skb_label_add_key(struct skb_label *l, const char *key, const char *value)
{
    size_t n = strlen(key), v = value ? strlen(value) : 0;
    if (l->nkeys == SKB_LABEL_PARTS || !part_ok(key, n, sizeof l->key[0].key, "@=")
        || (value && !part_ok(value, v, sizeof l->key[0].value, "@")))
        return SKB_EINVAL;
    struct skb_label_key *k = &l->key[l->nkeys++];
    memcpy(k->key, key, n + 1);
    snprintf(k->value, sizeof k->value, "%s", value ? value : "");
    k->has_value = value != NULL;
    return 0;
}

/* one "@key[=value]" part of length n at s */
static int parse_key(struct skb_label *l, const char *s, size_t n)
{
    char part[96], *eq;
    if (n >= sizeof part)
        return SKB_EINVAL;
    snprintf(part, sizeof part, "%.*s", (int)n, s);
    if ((eq = strchr(part, '=')))
        *eq++ = 0;
    return skb_label_add_key(l, part, eq);
}

static int parse_parts(const char *text, struct skb_label *l)
{
    size_t n = strcspn(text, "+@");
    if (n == 0 || n >= sizeof l->method)
        return SKB_EINVAL;
    snprintf(l->method, sizeof l->method, "%.*s", (int)n, text);
    const char *p = text + n;
    while (*p == '+') {
        char v[sizeof l->variant[0]];
        n = strcspn(p + 1, "+@");
        if (n >= sizeof v)
            return SKB_EINVAL;
        snprintf(v, sizeof v, "%.*s", (int)n, p + 1);
        if (skb_label_add_variant(l, v) < 0)
            return SKB_EINVAL;
        p += 1 + n;
    }
    while (*p == '@') {
        n = strcspn(p + 1, "@");
        if (parse_key(l, p + 1, n) < 0)
            return SKB_EINVAL;
        p += 1 + n;
    }
    return *p ? SKB_EINVAL : 0;
}

int skb_label_parse(const char *text, struct skb_label *l)
{
    char back[256];
    memset(l, 0, sizeof *l);
    /* the round trip is the contract: a label that would not come back
     * byte for byte is no label */
    if (!text || parse_parts(text, l) < 0 || skb_label_format(l, back, sizeof back) < 0 || strcmp(back, text) != 0) {
        memset(l, 0, sizeof *l);
        return SKB_EINVAL;
    }
    return 0;
}

/* append s at *at, counting what does not fit */
static void put(char *buf, size_t len, size_t *at, const char *s)
{
    if (*at < len)
        snprintf(buf + *at, len - *at, "%s", s);
    *at += strlen(s);
}

int skb_label_format(const struct skb_label *l, char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = 0;
    put(buf, len, &at, l->method);
    for (int i = 0; i < l->nvariants; i++) {
        put(buf, len, &at, "+");
        put(buf, len, &at, l->variant[i]);
    }
    for (int i = 0; i < l->nkeys; i++) {
        put(buf, len, &at, "@");
        put(buf, len, &at, l->key[i].key);
        if (l->key[i].has_value) {
            put(buf, len, &at, "=");
            put(buf, len, &at, l->key[i].value);
        }
    }
    return at < len ? 0 : SKB_EINVAL;
}

const char *skb_label_get(const struct skb_label *l, const char *key)
{
    for (int i = 0; i < l->nkeys; i++)
        if (strcmp(l->key[i].key, key) == 0)
            return l->key[i].value;
    return NULL;
}

size_t skb_label_method(const char *text, char *buf, size_t len)
{
    size_t n = strcspn(text, "+@");
    snprintf(buf, len, "%.*s", (int)n, text);
    return n;
}
