// common.glsl — the inputs every skin() reads, shared by both entry points.
// The loader puts "#version 450 core" and the defines SKB_MAX_JOINTS and
// SKB_JOINT_VEC4 (vec4s per joint) in front, then this file, skin_util.glsl,
// the method part (which defines skin()), then the entry point: main.vert
// (vertex shader + transform feedback) or, with SKB_COMPUTE defined,
// main.comp (compute shader over storage buffers).  For the SPIR-V cost
// count the loader also defines SKB_SPIRV: loops over the 4 influences are
// then marked for unrolling, as the GL driver unrolls them itself.
#ifdef SKB_SPIRV
#extension GL_EXT_control_flow_attributes : require
#define SKB_UNROLL [[unroll]]
#else
#define SKB_UNROLL
#endif

#ifdef SKB_COMPUTE
// main.comp loads these from its storage buffers before it calls skin(), so
// one skin() serves both entry points
vec3 a_pos;
vec3 a_nrm;
ivec4 a_joint;
vec4 a_weight;
vec3 a_center;
ivec4 a_pair;
ivec2 a_set;
ivec4 a_slot;
vec3 a_cor;
#else
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_nrm;
layout(location = 2) in ivec4 a_joint;   // joint indices (glVertexAttribIPointer)
layout(location = 3) in vec4 a_weight;   // convex weights, influences with w > 0 first
layout(location = 4) in vec3 a_center;   // per-vertex rotation centre (QB only)
layout(location = 5) in ivec2 a_set;     // SB: texel of the joint set's block, reference joint
layout(location = 6) in ivec4 a_slot;    // SB: texel of (F q_ref* q_i F*, e_i) per influence
layout(location = 7) in ivec4 a_pair;    // QB: texel of C_i c per influence
layout(location = 8) in vec3 a_cor;      // CoR: the bind's centre of rotation
#endif

// per-joint data, SKB_JOINT_VEC4 vec4s per joint (std140: 16 bytes each)
layout(std140, binding = 0) uniform Joints {
    vec4 u_joint[SKB_MAX_JOINTS * SKB_JOINT_VEC4];
};

// iterations an iterative skin() took for this vertex (DIB); main.comp
// reports it, the others leave it 0
int skb_iterations;
