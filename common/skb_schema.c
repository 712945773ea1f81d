/* skb_schema.c — check a JSON document against a table of fields, and
 * print the table (skb_schema.h) */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "skb_error.h"
#include "skb_schema.h"

/* a time per deformation or a ratio above this is no measurement (1e12 ms
 * is 30 years) */
#define MEASURED_MAX 1e12


const struct skb_schema skb_schema_meta = {
    .file = "metadata (every results file)", .writer = "harness/skb_results.c", .meta = 0,
    .doc = "The metadata every skinbench results file starts with",
    .fields = (const struct skb_schema_field[]){
        { .path = "schema_version", .type = SKB_ST_VERSION, .flags = SKB_SF_REQUIRED,
          .doc = "the layout version of the results files (SKB_SCHEMA_VERSION)" },
        { .path = "experiment", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED, .doc = "the experiment that wrote the file" },
        { .path = "seed", .type = SKB_ST_SEED, .flags = SKB_SF_REQUIRED, .doc = "the run's --seed" },
        { .path = "quick", .type = SKB_ST_BOOL, .doc = "run with --quick" },
        { .path = "user_dataset", .type = SKB_ST_STRING, .doc = "the --dataset model file, when one was given" },
        { .path = "started_utc", .type = SKB_ST_STRING, .doc = "when the experiment started (ISO 8601, UTC)" },
        { .path = "machine", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "the machine that ran it" },
        { .path = "machine/key", .type = SKB_ST_STRING, .flags = SKB_SF_REQUIRED,
          .doc = "the machine's key (host/cores): runs are compared per key" },
        { .path = "injected", .type = SKB_ST_STRING, .doc = "SKB_INJECT_SLOWDOWN of a run timed with a planted slow-down" },
        { .path = "run_id", .type = SKB_ST_STRING,
          .doc = "the `run` invocation that wrote the file (32 hex digits; manifest.json names the same)" },
        { .path = "binary_sha256", .type = SKB_ST_STRING, .doc = "SHA-256 of the skinbench binary that wrote the file" },
        { .path = "compiler", .type = SKB_ST_STRING, .doc = "the compiler that built skinbench" },
        { .path = "libraries", .type = SKB_ST_OBJECT, .doc = "library versions (gsl, cjson, model_importer)" },
        { .path = NULL } },
};

/* "an integer 0..30", "a non-negative number", ... : what a field holds */
static void describe(const struct skb_schema_field *f, char *buf, size_t len)
{
    int lo = (f->flags & SKB_SF_MIN) != 0, hi = (f->flags & SKB_SF_MAX) != 0;
    switch (f->type) {
    case SKB_ST_INTEGER:
        snprintf(buf, len, "an integer %g..%g", f->min, f->max);
        return;
    case SKB_ST_NUMBER:
        if (lo && hi)
            snprintf(buf, len, "a number in [%g, %g]", f->min, f->max);
        else if (lo)
            snprintf(buf, len, f->min == 0 ? "a non-negative number" : "a number >= %g", f->min);
        else
            snprintf(buf, len, "a number");
        return;
    case SKB_ST_MEASURED:
        snprintf(buf, len, "a finite positive number below %g, or \"nan\" (not measured)", MEASURED_MAX);
        return;
    case SKB_ST_ENUM: {
        size_t at = 0;
        buf[0] = 0;
        for (int i = 0; f->values && f->values[i] && at < len; i++)
            at += (size_t)snprintf(buf + at, len - at, "%s\"%s\"", i == 0 ? "" : f->values[i + 1] ? ", " : " or ",
                                   f->values[i]);
        return;
    }
    case SKB_ST_STRING: snprintf(buf, len, "a string"); return;
    case SKB_ST_BOOL: snprintf(buf, len, "true or false"); return;
    case SKB_ST_OBJECT: snprintf(buf, len, "an object"); return;
    case SKB_ST_ARRAY: snprintf(buf, len, "an array"); return;
    case SKB_ST_CONTAINER: snprintf(buf, len, "an array or object"); return;
    case SKB_ST_SEED:
        snprintf(buf, len, "a non-negative integer (a number up to 2^53 or a decimal string)");
        return;
    case SKB_ST_VERSION:
        snprintf(buf, len, "%d (files of %d to %d are read: older method names mapped on read)", SKB_SCHEMA_VERSION,
                 SKB_SCHEMA_VERSION_OLDEST, SKB_SCHEMA_VERSION);
        return;
    }
    snprintf(buf, len, "?");
}

static int in_range(const struct skb_schema_field *f, double v)
{
    return (!(f->flags & SKB_SF_MIN) || v >= f->min) && (!(f->flags & SKB_SF_MAX) || v <= f->max);
}

static int is_enum(const struct skb_schema_field *f, const cJSON *x)
{
    if (!cJSON_IsString(x))
        return 0;
    for (int i = 0; f->values && f->values[i]; i++)
        if (strcmp(x->valuestring, f->values[i]) == 0)
            return 1;
    return 0;
}

/* 1 when x has f's type (and range) */
static int type_ok(const struct skb_schema_field *f, const cJSON *x)
{
    double v;
    unsigned long seed;
    switch (f->type) {
    case SKB_ST_NUMBER: return skb_json_get_number(x, &v) == 0 && (!(f->flags & (SKB_SF_MIN | SKB_SF_MAX)) || in_range(f, v));
    case SKB_ST_INTEGER: return skb_json_get_number(x, &v) == 0 && in_range(f, v) && v == floor(v);
    case SKB_ST_MEASURED: return skb_json_get_number(x, &v) == 0;
    case SKB_ST_STRING: return cJSON_IsString(x);
    case SKB_ST_ENUM: return is_enum(f, x);
    case SKB_ST_BOOL: return cJSON_IsBool(x);
    case SKB_ST_OBJECT: return cJSON_IsObject(x);
    case SKB_ST_ARRAY: return cJSON_IsArray(x);
    case SKB_ST_CONTAINER: return cJSON_IsArray(x) || cJSON_IsObject(x);
    case SKB_ST_SEED: return skb_json_get_seed(x, &seed) == 0;
    case SKB_ST_VERSION: return cJSON_IsNumber(x);
    }
    return 0;
}

/* why present value x at `where` breaks f, into why; 0 when it does not */
static int value_error(const struct skb_schema_field *f, const cJSON *x, const char *where, char *why, size_t len)
{
    char d[200];
    describe(f, d, sizeof d);
    if (!type_ok(f, x)) {
        snprintf(why, len, "field %s: expected %s", where, d);
        return 1;
    }
    /* a measured time or ratio is finite and positive: -0 or 1e308 would
     * otherwise be judged as a result ("nan" = not measured) */
    if (f->type == SKB_ST_MEASURED && cJSON_IsNumber(x) && !(x->valuedouble > 0 && x->valuedouble < MEASURED_MAX)) {
        snprintf(why, len, "field %s: %g is not a measured value (expected a finite positive number below %g)", where,
                 x->valuedouble, MEASURED_MAX);
        return 1;
    }
    /* an older version is still read: its method names are mapped after
     * the check (docs/outputs.md "Method names") */
    if (f->type == SKB_ST_VERSION && x->valuedouble != SKB_SCHEMA_VERSION && x->valuedouble != SKB_SCHEMA_VERSION_OLDEST) {
        snprintf(why, len, "field %s is %g, this skinbench reads version %d (re-run the experiment with this build)",
                 where, x->valuedouble, SKB_SCHEMA_VERSION);
        return 1;
    }
    return 0;
}

/* "missing field ... (an object)": what the reader lacks */
static void missing(const struct skb_schema_field *f, const char *where, char *why, size_t len)
{
    char d[200];
    if (f->type == SKB_ST_VERSION) {
        snprintf(why, len, "missing field %s (not a skinbench results file?)", where);
        return;
    }
    describe(f, d, sizeof d);
    snprintf(why, len, "missing field %s (%s)", where, d);
}

struct walk {
    const struct skb_schema_field *f;
    const cJSON *root;
    char *why;
    size_t len;
};

/* where + one step: "\"key\"" (a '.' before it unless first) or "[i]" */
static void step(char *out, size_t len, const char *where, const char *key, int index)
{
    if (key)
        snprintf(out, len, "%s%s\"%.60s\"", where, where[0] ? "." : "", key);
    else
        snprintf(out, len, "%s[%d]", where, index);
}

static int required_here(const struct walk *w)
{
    if (!(w->f->flags & SKB_SF_REQUIRED))
        return 0;
    return !w->f->when || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w->root, w->f->when));
}

/* check the rest of the path (seg) below node, which `where` names */
static int visit(const struct walk *w, const cJSON *node, const char *seg, const char *where)
{
    char here[400], key[128];
    size_t n = strcspn(seg, "/");
    const char *next = seg[n] ? seg + n + 1 : NULL;
    snprintf(key, sizeof key, "%.*s", (int)n, seg);
    if (strcmp(key, "*") == 0 || strcmp(key, "[]") == 0) {
        int arr = key[0] == '[', i = 0;
        const cJSON *x;
        if (arr ? !cJSON_IsArray(node) : !cJSON_IsObject(node))
            return 0;   /* the parent's own field reports its type */
        cJSON_ArrayForEach(x, node) {
            step(here, sizeof here, where, arr ? NULL : (x->string ? x->string : "?"), i++);
            if (next ? visit(w, x, next, here) : value_error(w->f, x, here, w->why, w->len))
                return 1;
        }
        return 0;
    }
    const cJSON *x = cJSON_IsObject(node) ? cJSON_GetObjectItemCaseSensitive(node, key) : NULL;
    step(here, sizeof here, where, key, 0);
    if (next)   /* a named parent, absent or of another type: its own field reports it */
        return x ? visit(w, x, next, here) : 0;
    if (!cJSON_IsObject(node))
        return 0;
    if (!x) {
        if (!required_here(w))
            return 0;
        missing(w->f, here, w->why, w->len);
        return 1;
    }
    return value_error(w->f, x, here, w->why, w->len);
}

static int check_fields(const struct skb_schema *s, const cJSON *doc, char *why, size_t len)
{
    for (const struct skb_schema_field *f = s->fields; f && f->path; f++) {
        struct walk w = { f, doc, why, len };
        if (visit(&w, doc, f->path, ""))
            return 1;
    }
    return 0;
}

int skb_schema_check(const struct skb_schema *s, const cJSON *doc, const char *path, char *msg, size_t msglen)
{
    char why[600];
    if (!cJSON_IsObject(doc)) {
        snprintf(msg, msglen, "%s: expected a JSON object at the top level", path);
        return SKB_EPARSE;
    }
    if ((s->meta && check_fields(&skb_schema_meta, doc, why, sizeof why)) || check_fields(s, doc, why, sizeof why)) {
        snprintf(msg, msglen, "%s: %s", path, why);
        return SKB_EPARSE;
    }
    return 0;
}

/* ---- the table as text ---- */

static const char *type_name(enum skb_schema_type t)
{
    static const char *const names[] = { "number", "integer", "measured", "string", "enum", "bool", "object",
                                         "array", "array|object", "seed", "version" };
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static void print_field(const struct skb_schema_field *f, FILE *out, int markdown)
{
    char d[200], req[96];
    describe(f, d, sizeof d);
    if (!(f->flags & SKB_SF_REQUIRED))
        snprintf(req, sizeof req, "no");
    else if (f->when)
        snprintf(req, sizeof req, "when %s is true", f->when);
    else
        snprintf(req, sizeof req, "yes");
    if (markdown)
        fprintf(out, "| `%s` | %s | %s | %s | %s |\n", f->path, type_name(f->type), req, d, f->doc ? f->doc : "");
    else
        fprintf(out, "  %-44s %-9s required: %-3s %s%s%s\n", f->path, type_name(f->type), req, d,
                f->doc ? " -- " : "", f->doc ? f->doc : "");
}

void skb_schema_print(const struct skb_schema *s, FILE *out, int markdown)
{
    if (markdown)
        fprintf(out, "## %s\n\nWritten by `%s`%s. %s.\n\n| field | type | required | holds | meaning |\n"
                "|---|---|---|---|---|\n", s->file, s->writer, s->meta ? "; starts with the metadata" : "",
                s->doc);
    else
        fprintf(out, "%s (%s%s): %s\n", s->file, s->writer, s->meta ? ", with the metadata" : "", s->doc);
    int n = 0;
    for (const struct skb_schema_field *f = s->fields; f && f->path; f++, n++)
        print_field(f, out, markdown);
    if (!n)
        fprintf(out, markdown ? "| (no fields beyond the metadata) | | | | |\n" : "  (no fields beyond the metadata)\n");
    fprintf(out, "\n");
}
