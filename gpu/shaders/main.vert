// main.vert — skin the vertex, hand position and normal to transform feedback
// and to the shading fragment shader.
void main()
{
    vec3 p, n;
    skin(p, n);
    o_pos = p;
    o_nrm = n;
    gl_Position = u_mvp * vec4(p, 1.0);
}
