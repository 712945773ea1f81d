// dlb.glsl — DLB in its direct form (DQ paper 3.2, the earlier shader of
// Kavan et al. 2007): blend the dual quaternions (signs fixed on the CPU along
// the hierarchy), normalise the dual quaternion b/|b| with the dual-number
// norm (DQ paper eq. 22), convert it to a rotation matrix and a translation
// t = 2 ce c0*, and apply that to the vertex and the normal.
// Quaternions are stored (x, y, z, w).
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 b0, be;
    dq_blend(b0, be);
    // b/|b| = b0/|b0| + eps (be/|b0| - b0 <b0,be>/|b0|^3)
    float inv = inversesqrt(dot(b0, b0));
    vec4 c0 = b0 * inv;
    vec4 ce = be * inv - c0 * (dot(c0, be) * inv);
    // t = vector part of 2 ce c0* (eq. 14 with c0* = (-c0.xyz, c0.w))
    vec3 t = 2.0 * (c0.w * ce.xyz - ce.w * c0.xyz + cross(c0.xyz, ce.xyz));
    float x = c0.x, y = c0.y, z = c0.z, w = c0.w;
    mat3 r = mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
                  2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
                  2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
    pos = r * a_pos + t;
    nrm = r * a_nrm;
}
