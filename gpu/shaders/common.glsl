// common.glsl — inputs and outputs shared by every skinning vertex shader.
// The loader puts "#version 450 core" and the defines SKB_MAX_JOINTS and
// SKB_JOINT_VEC4 (vec4s per joint) in front, then this file, skin_util.glsl,
// the method part (which defines skin()), then main.vert.  For the SPIR-V
// cost count the loader also defines SKB_SPIRV: loops over the 4 influences
// are then marked for unrolling, as the GL driver unrolls them itself.
#ifdef SKB_SPIRV
#extension GL_EXT_control_flow_attributes : require
#define SKB_UNROLL [[unroll]]
#else
#define SKB_UNROLL
#endif

layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_nrm;
layout(location = 2) in ivec4 a_joint;   // joint indices (glVertexAttribIPointer)
layout(location = 3) in vec4 a_weight;   // convex weights, influences with w > 0 first
layout(location = 4) in vec3 a_center;   // per-vertex rotation centre (QB only)

layout(location = 0) uniform mat4 u_mvp;

// per-joint data, SKB_JOINT_VEC4 vec4s per joint (std140: 16 bytes each)
layout(std140, binding = 0) uniform Joints {
    vec4 u_joint[SKB_MAX_JOINTS * SKB_JOINT_VEC4];
};

layout(location = 0) out vec3 o_pos;     // captured by transform feedback
layout(location = 1) out vec3 o_nrm;
