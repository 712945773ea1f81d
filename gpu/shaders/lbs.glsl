// lbs.glsl — linear blend skinning (thesis eq. 2.6): the weighted sum of the
// joints' 3x4 matrices (three vec4 rows per joint) applied to the vertex; the
// normal goes through the same blended 3x3 and is renormalised (the CPU
// method `linear` does the same).
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 3 * a_joint[i];
        float w = a_weight[i];
        r0 += w * u_joint[j];
        r1 += w * u_joint[j + 1];
        r2 += w * u_joint[j + 2];
    }
    vec4 p = vec4(a_pos, 1.0);
    pos = vec3(dot(r0, p), dot(r1, p), dot(r2, p));
    nrm = normalize(vec3(dot(r0.xyz, a_nrm), dot(r1.xyz, a_nrm), dot(r2.xyz, a_nrm)));
}
