/* skb_schemas.h — the schema of every results file the built-in experiments
 * write, each declared once, beside its writer (harness/exp_<name>.c): the
 * writer checks its document against it before the atomic write
 * (skb_results_write), the experiment's descriptor names it
 * (reports/exp_<name>.c) and the report checks every file it reads against
 * the same table (reports/results.c).  docs/schemas.md is generated from them. */
#ifndef SKB_SCHEMAS_H
#define SKB_SCHEMAS_H

#include "skb_schema.h"

/* the deepest subdivision level cd.json may hold: each level multiplies the
 * triangles by 4, and the report indexes the paper's series with it */
#define SKB_CD_MAX_LEVEL 30

extern const struct skb_schema skb_schema_properties, skb_schema_flops, skb_schema_bounds, skb_schema_cpu,
    skb_schema_cpu_gbench, skb_schema_cpu_offsets, skb_schema_gpu, skb_schema_spheres, skb_schema_cd,
    skb_schema_icount, skb_schema_sad;

#endif
