// main.comp — the compute entry point: one invocation per vertex loads the
// vertex from storage buffers into the globals of common.glsl, calls the
// method's skin() and stores position and normal.  The loader defines the
// memory layout (gpu_compute.c, the layout table):
//   SKB_POS3      positions, normals, centres and outputs as packed float3
//                 (else float4, the fourth component unused / 1)
//   SKB_W16, SKB_W8    weights as unorm16 / unorm8 (else float)
//   SKB_IDX16, SKB_IDX8  joint indices as u16 / u8 (else u32)
//   SKB_CENTER    the method reads a per-vertex centre (QB)
//   SKB_COR       the method reads CoR's centre (a_cor) from the centre buffer
//   SKB_AUX_PAIR  4 ints per vertex: QB's pair texels (a_pair)
//   SKB_AUX_SET   6 ints per vertex: SB's set block, reference joint, slots
// With float4 outputs the normal's w carries skb_iterations (DIB).
layout(local_size_x = SKB_LOCAL_SIZE) in;
layout(location = 0) uniform uint u_count;   // vertices in the buffers

#ifdef SKB_POS3
layout(std430, binding = 0) readonly buffer BPos { float b_pos[]; };
layout(std430, binding = 1) readonly buffer BNrm { float b_nrm[]; };
layout(std430, binding = 4) readonly buffer BCtr { float b_ctr[]; };
layout(std430, binding = 6) writeonly buffer OPos { float o_pos[]; };
layout(std430, binding = 7) writeonly buffer ONrm { float o_nrm[]; };
#define SKB_LOAD3(b, v) vec3(b[3u * (v)], b[3u * (v) + 1u], b[3u * (v) + 2u])
#else
layout(std430, binding = 0) readonly buffer BPos { vec4 b_pos[]; };
layout(std430, binding = 1) readonly buffer BNrm { vec4 b_nrm[]; };
layout(std430, binding = 4) readonly buffer BCtr { vec4 b_ctr[]; };
layout(std430, binding = 6) writeonly buffer OPos { vec4 o_pos[]; };
layout(std430, binding = 7) writeonly buffer ONrm { vec4 o_nrm[]; };
#define SKB_LOAD3(b, v) b[v].xyz
#endif

#if defined(SKB_IDX8)
layout(std430, binding = 2) readonly buffer BIdx { uint b_idx[]; };
ivec4 load_joint(uint v) { uint x = b_idx[v]; return ivec4(x & 255u, (x >> 8) & 255u, (x >> 16) & 255u, x >> 24); }
#elif defined(SKB_IDX16)
layout(std430, binding = 2) readonly buffer BIdx { uvec2 b_idx[]; };
ivec4 load_joint(uint v) { uvec2 x = b_idx[v]; return ivec4(x.x & 65535u, x.x >> 16, x.y & 65535u, x.y >> 16); }
#else
layout(std430, binding = 2) readonly buffer BIdx { ivec4 b_idx[]; };
ivec4 load_joint(uint v) { return b_idx[v]; }
#endif

#if defined(SKB_W8)
layout(std430, binding = 3) readonly buffer BWgt { uint b_wgt[]; };
vec4 load_weight(uint v) { return unpackUnorm4x8(b_wgt[v]); }
#elif defined(SKB_W16)
layout(std430, binding = 3) readonly buffer BWgt { uvec2 b_wgt[]; };
vec4 load_weight(uint v) { uvec2 x = b_wgt[v]; return vec4(unpackUnorm2x16(x.x), unpackUnorm2x16(x.y)); }
#else
layout(std430, binding = 3) readonly buffer BWgt { vec4 b_wgt[]; };
vec4 load_weight(uint v) { return b_wgt[v]; }
#endif

#if defined(SKB_AUX_PAIR)
layout(std430, binding = 5) readonly buffer BAux { ivec4 b_aux[]; };
#elif defined(SKB_AUX_SET)
layout(std430, binding = 5) readonly buffer BAux { int b_aux[]; };
#endif

void main()
{
    // a 2-D grid: GL guarantees only 65535 groups per dimension
    uint v = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (v >= u_count)
        return;
    a_pos = SKB_LOAD3(b_pos, v);
    a_nrm = SKB_LOAD3(b_nrm, v);
    a_joint = load_joint(v);
    a_weight = load_weight(v);
    a_center = vec3(0.0);
    a_pair = ivec4(0);
    a_set = ivec2(0);
    a_slot = ivec4(0);
    a_cor = vec3(0.0);
#ifdef SKB_CENTER
    a_center = SKB_LOAD3(b_ctr, v);
#endif
#ifdef SKB_COR
    a_cor = SKB_LOAD3(b_ctr, v);
#endif
#if defined(SKB_AUX_PAIR)
    a_pair = b_aux[v];
#elif defined(SKB_AUX_SET)
    a_set = ivec2(b_aux[6u * v], b_aux[6u * v + 1u]);
    a_slot = ivec4(b_aux[6u * v + 2u], b_aux[6u * v + 3u], b_aux[6u * v + 4u], b_aux[6u * v + 5u]);
#endif
    skb_iterations = 0;
    vec3 p, n;
    skin(p, n);
#ifdef SKB_POS3
    o_pos[3u * v] = p.x; o_pos[3u * v + 1u] = p.y; o_pos[3u * v + 2u] = p.z;
    o_nrm[3u * v] = n.x; o_nrm[3u * v + 1u] = n.y; o_nrm[3u * v + 2u] = n.z;
#else
    o_pos[v] = vec4(p, 1.0);
    o_nrm[v] = vec4(n, float(skb_iterations));
#endif
}
