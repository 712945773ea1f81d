/* shader_table.c — the one list of GPU skinning shaders (4 influences).  Each
 * names the CPU registry method and antipodal mode it is verified against
 * (a method's own shader takes its registry name: gpu.json names it so);
 * gpu.json, the tests and the pictures iterate this table.
 * QB with precomputed signs is checked against `qb`, whose skin path always
 * resolves signs per vertex (Algorithm 2): the two agree wherever the
 * hierarchy signs are a valid sequence for the vertex (DQ paper 4.1).
 * logm and sb are the two methods DQ paper Fig. 1 times against DLB.
 * dib and qlb0 run on the compute path only (`compute_only`): the vertex
 * path keeps the shaders of the paper's set-up; their skin() compiles for
 * both entry points all the same (tests/test_gpu.c builds and checks both). */
#include <string.h>
#include "skb_gpu.h"

/* the registry methods the shaders skin with (methods/registry.c lists them) */
extern const struct skb_method skb_method_linear, skb_method_qb, skb_method_dlb, skb_method_dlb_scale,
    skb_method_logm, skb_method_sb, skb_method_dib, skb_method_qlb0, skb_method_cor;

const struct skb_gpu_shader skb_gpu_shaders[] = {
    { .name = "linear", .title = "LBS", .file = "lbs.glsl",
      .method = &skb_method_linear, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_MAT34, .vec4_per_joint = 3, .needs_scale = 0,
      .seed_ref = "thesis 2.2.1, eq. 2.6; DQ paper Fig. 19" },
    { .name = "qb", .title = "QB", .file = "qb.glsl",
      .method = &skb_method_qb, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_HIERARCHY,
      .layout = SKB_GPU_LAYOUT_QT_QB, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper 2.3 (Hejl: centres at joints, C_i c per joint pair on the CPU), 4.1 precomputed signs; Fig. 19" },
    { .name = "dlb", .title = "DLB", .file = "dlb.glsl",
      .method = &skb_method_dlb, .cpu_antipodal = SKB_ANTIPODAL_HIERARCHY, .signs = SKB_ANTIPODAL_HIERARCHY,
      .layout = SKB_GPU_LAYOUT_DQ, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper 3.2 (b/|b| to a matrix), 4.1 precomputed signs; Fig. 19" },
    { .name = "qb_pivot", .title = "QB'", .file = "qb_pivot.glsl",
      .method = &skb_method_qb, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_QT_QB, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper 2.3, Alg. 2 in the shader; Fig. 19" },
    { .name = "dlb_pivot", .title = "DLB'", .file = "dlb_pivot.glsl",
      .method = &skb_method_dlb, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_DQ, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper Alg. 1 + Alg. 2 in the shader; Fig. 19" },
    { .name = "dlb_scale", .title = "DLB two-phase", .file = "dlb_scale.glsl",
      .method = &skb_method_dlb_scale, .cpu_antipodal = SKB_ANTIPODAL_HIERARCHY, .signs = SKB_ANTIPODAL_HIERARCHY,
      .layout = SKB_GPU_LAYOUT_DQ_SCALE, .vec4_per_joint = 5, .needs_scale = 1,
      .seed_ref = "DQ paper 4.2 (LBS of S_j, then DLB); 5 (+29 instructions)",
      .extends = "dlb_fast" },   /* runs dlb_fast's code after the LBS of S_j */
    { .name = "dlb_fast", .title = "DLB (Alg. 1)", .file = "dlb_fast.glsl",
      .method = &skb_method_dlb, .cpu_antipodal = SKB_ANTIPODAL_HIERARCHY, .signs = SKB_ANTIPODAL_HIERARCHY,
      .layout = SKB_GPU_LAYOUT_DQ, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper 4, Alg. 1 (eq. 15), 4.1 precomputed signs" },
    { .name = "logm", .title = "Log", .file = "logm.glsl",
      .method = &skb_method_logm, .cpu_antipodal = SKB_ANTIPODAL_NONE, .signs = SKB_ANTIPODAL_NONE,
      .layout = SKB_GPU_LAYOUT_LOG, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper Fig. 1, 2.3 (logs per joint on the CPU, exp per vertex); thesis 2.2.3, 4.4" },
    { .name = "sb", .title = "SB", .file = "sb.glsl",
      .method = &skb_method_sb, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_QT_SB, .vec4_per_joint = 2, .needs_scale = 0,
      .seed_ref = "DQ paper Fig. 1 (centres on the CPU); thesis 3.1-3.3, Alg. 3.1, eq. 3.7" },
    { .name = "dib", .title = "DIB", .file = "dib.glsl",
      .method = &skb_method_dib, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_DQ, .vec4_per_joint = 2, .needs_scale = 0, .compute_only = 1,
      .seed_ref = "thesis Alg. 4.1, Lemma 4.7; DQ paper App. B (Alg. 3), Alg. 2 in the shader" },
    { .name = "qlb0", .title = "QLB'0", .file = "qlb0.glsl",
      .method = &skb_method_qlb0, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_QT, .vec4_per_joint = 2, .needs_scale = 0, .compute_only = 1,
      .seed_ref = "thesis 3.3, eq. 3.5; DQ paper 2.2, Alg. 2 in the shader" },
    { .name = "cor", .title = "CoR", .file = "cor.glsl",
      .method = &skb_method_cor, .cpu_antipodal = SKB_ANTIPODAL_PIVOT, .signs = SKB_ANTIPODAL_PIVOT,
      .layout = SKB_GPU_LAYOUT_QT_COR, .vec4_per_joint = 4, .needs_scale = 0,
      .seed_ref = "Le & Hodgins 2016 eq. 3-4 (centres from cor's bind), DQ paper Alg. 2 in the shader" },
    { .name = NULL }
};

const struct skb_gpu_shader *skb_gpu_shader_find(const char *name)
{
    for (int i = 0; skb_gpu_shaders[i].name; i++)
        if (strcmp(skb_gpu_shaders[i].name, name) == 0)
            return &skb_gpu_shaders[i];
    return NULL;
}

int skb_gpu_shader_count(void)
{
    int n = 0;
    while (skb_gpu_shaders[n].name)
        n++;
    return n;
}
