/* skb_label.h — the one codec for benchmark labels: a registry method name,
 * then "+variant" parts, then "@key" or "@key=value" parts, as cpu.json and
 * cpu-gbench.json name their rows ("dlb+alg2", "dib@p=0.001",
 * "linear+nrm_shader@slot4@2t"; docs/outputs.md "Outputs").  The writer
 * (harness/exp_cpu.c) formats its labels with it and every reader parses
 * them with it, so a label means the same thing everywhere. */
#ifndef SKB_LABEL_H
#define SKB_LABEL_H

#include <stddef.h>

#define SKB_LABEL_PARTS 6      /* variants, and keys, a label may hold */

struct skb_label_key {
    char key[32];
    char value[48];            /* "" with has_value 0 for a bare "@slot4" */
    int has_value;
};

struct skb_label {
    char method[64];
    int nvariants, nkeys;
    char variant[SKB_LABEL_PARTS][32];
    struct skb_label_key key[SKB_LABEL_PARTS];
};

/* a label holding only its method */
void skb_label_init(struct skb_label *l, const char *method);
/* append "+variant" / "@key" (value NULL) or "@key=value"; SKB_EINVAL when
 * the part is empty, holds a separator, is too long, or there is no room */
int skb_label_add_variant(struct skb_label *l, const char *variant);
int skb_label_add_key(struct skb_label *l, const char *key, const char *value);
/* parse text; SKB_EINVAL (l zeroed) unless skb_label_format gives text back
 * byte for byte: no empty part, nothing too long.  After the first '@'
 * only '@' separates parts, so a value may hold '+' ("p=1e+06"). */
int skb_label_parse(const char *text, struct skb_label *l);
/* the label's text into buf; SKB_EINVAL when it does not fit */
int skb_label_format(const struct skb_label *l, char *buf, size_t len);
/* the value of "@key=value" ("" for a bare "@key"), or NULL when absent */
const char *skb_label_get(const struct skb_label *l, const char *key);
/* the method part of text (up to its first '+' or '@') into buf, even when
 * the rest is no well-formed label; the length of that part */
size_t skb_label_method(const char *text, char *buf, size_t len);

#endif
