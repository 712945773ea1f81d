/* skb_schema.h — the shape of a JSON results file as a table of fields,
 * and the one engine that checks a document against it.  Each results file
 * declares its table once (harness/exp_<name>_schema.c); the experiment that writes the
 * file checks its document before the atomic write (harness/skb_results.c)
 * and the report checks every file it reads (reports/results.c), so writer
 * and reader cannot drift apart.  docs/schemas.md is printed from the same
 * tables (`skinbench schema --markdown`). */
#ifndef SKB_SCHEMA_H
#define SKB_SCHEMA_H

#include <stdio.h>
#include "skb_json.h"

enum skb_schema_type {
    SKB_ST_NUMBER,         /* a number, or "nan" / "inf" / "-inf" (skb_json_get_number) */
    SKB_ST_INTEGER,        /* a whole number inside [min, max] */
    SKB_ST_MEASURED,       /* a time or ratio: a number in (0, 1e12), or "nan" = not measured */
    SKB_ST_STRING,
    SKB_ST_ENUM,           /* a string among .values */
    SKB_ST_BOOL,
    SKB_ST_OBJECT,
    SKB_ST_ARRAY,
    SKB_ST_CONTAINER,      /* an array or an object */
    SKB_ST_SEED,           /* a seed: a number up to 2^53 or a decimal string */
    SKB_ST_VERSION         /* the schema version this build reads (SKB_SCHEMA_VERSION) */
};

/* flags of a field */
#define SKB_SF_REQUIRED 1u     /* present wherever its parent is */
#define SKB_SF_MIN 2u          /* value >= min */
#define SKB_SF_MAX 4u          /* value <= max */

/* one field.  path: keys separated by '/'; "*" stands for every member of
 * an object (a map: its keys are data, e.g. registry method names) and "[]"
 * for every element of an array.  A field is checked wherever its parent
 * exists with the parent's type: the table lists parents before children. */
struct skb_schema_field {
    const char *path;
    enum skb_schema_type type;
    unsigned flags;
    double min, max;
    const char *const *values;     /* SKB_ST_ENUM: NULL-terminated */
    /* a top-level boolean: the field is required only when it is true */
    const char *when;
    const char *doc;               /* one line for docs/schemas.md */
};

struct skb_schema {
    const char *file;              /* "cpu.json" */
    const char *writer;            /* the source file that writes it */
    int meta;                      /* 1: starts with the metadata (skb_schema_meta) */
    const char *doc;
    const struct skb_schema_field *fields;   /* ends with { NULL } */
};

/* the metadata every skinbench results file starts with (skb_results.h) */
extern const struct skb_schema skb_schema_meta;

/* check doc against s (and the metadata when s->meta); path names the file
 * in the message.  0, or SKB_EPARSE and one line "PATH: field "a"."b"[2]:
 * expected ..." naming the first field that breaks the table. */
int skb_schema_check(const struct skb_schema *s, const cJSON *doc, const char *path, char *msg, size_t msglen);
/* s's table as text, or as a Markdown section (docs/schemas.md) */
void skb_schema_print(const struct skb_schema *s, FILE *out, int markdown);

#endif
