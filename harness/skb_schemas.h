/* skb_schemas.h — the schema of every results file `skinbench run` writes,
 * each declared once (harness/schemas.c, beside the experiments that write
 * them): the writer checks its document against it before the atomic write
 * (skb_results_write) and the report checks every file it reads against the
 * same table (reports/results.c).  docs/schemas.md is generated from it. */
#ifndef SKB_SCHEMAS_H
#define SKB_SCHEMAS_H

#include "skb_schema.h"

/* the deepest subdivision level cd.json may hold: each level multiplies the
 * triangles by 4, and the report indexes the paper's series with it */
#define SKB_CD_MAX_LEVEL 30

extern const struct skb_schema skb_schema_properties, skb_schema_flops, skb_schema_bounds, skb_schema_cpu,
    skb_schema_cpu_gbench, skb_schema_cpu_offsets, skb_schema_gpu, skb_schema_spheres, skb_schema_cd,
    skb_schema_icount, skb_schema_sad;

/* every schema above, in `run all` order; NULL-terminated */
extern const struct skb_schema *const skb_schemas[];
/* the schema of results file `file` ("cpu.json"), or NULL */
const struct skb_schema *skb_schema_find(const char *file);

#endif
