/* method_names.c — one name per method in what the reports read: results
 * files older than this schema named two methods by the thesis's words
 * (lbs for linear, sbs for sb; docs/outputs.md "Method names"), and each such
 * name is rewritten here, once, as the file is read, to its registry name
 * (skb_method_canonical), so no reader needs to know the old names. */
#include <string.h>
#include "skb_json.h"
#include "skb_method.h"
#include "report_internal.h"

/* the object keys and string values naming a method by an old name, in the
 * whole tree */
static void canonical_tree(cJSON *x)
{
    for (cJSON *c = x ? x->child : NULL; c; c = c->next) {
        if (c->string && !(c->type & cJSON_StringIsConst)) {
            const char *to = skb_method_canonical(c->string);
            size_t n = strlen(to) + 1;
            char *k = to != c->string ? (char *)cJSON_malloc(n) : NULL;
            if (k) {
                memcpy(k, to, n);
                cJSON_free(c->string);
                c->string = k;
            }
        }
        if (cJSON_IsString(c) && c->valuestring && skb_method_canonical(c->valuestring) != c->valuestring)
            cJSON_SetValuestring(c, skb_method_canonical(c->valuestring));
        canonical_tree(c);
    }
}

void skb__results_canonical_names(cJSON *doc)
{
    const cJSON *sv = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
    if (cJSON_IsNumber(sv) && sv->valuedouble < SKB_SCHEMA_VERSION)
        canonical_tree(doc);
}
