// logm.glsl — log-matrix blending exp(sum_i w_i log C_i) (Alexa; thesis
// 2.2.3, 4.4; DQ paper 2.3 and Fig. 1, where the logs are precomputed per
// joint and the exponential runs per vertex).  Per joint: the closed-form
// rigid log computed on the CPU (skb_mat4_log_rigid, as the CPU method logm's
// prepare): rotation vector omega in the first vec4, translation part v in
// the second (w unused).  The shader blends the logs with the weights and
// applies the closed-form exponential of skb_mat4_exp_rigid (Rodrigues with
// the translation part): R = I + A W + B W^2, t = (I + B W + C W^2) v, W x =
// omega x x, th = |omega|, A = sin th / th, B = (1 - cos th) / th^2,
// C = (th - sin th) / th^3.  Below th = 0.5 the three come from their Taylor
// series (truncation < 1e-8): the quotients cancel badly in float as th -> 0.
void skin(out vec3 pos, out vec3 nrm)
{
    vec3 om = vec3(0.0), v = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 2 * a_joint[i];
        om += a_weight[i] * u_joint[j].xyz;
        v += a_weight[i] * u_joint[j + 1].xyz;
    }
    float th2 = dot(om, om), a, b, c;
    if (th2 < 0.25) {
        a = 1.0 - th2 / 6.0 * (1.0 - th2 / 20.0 * (1.0 - th2 / 42.0 * (1.0 - th2 / 72.0)));
        b = 0.5 * (1.0 - th2 / 12.0 * (1.0 - th2 / 30.0 * (1.0 - th2 / 56.0 * (1.0 - th2 / 90.0))));
        c = (1.0 - th2 / 20.0 * (1.0 - th2 / 42.0 * (1.0 - th2 / 72.0 * (1.0 - th2 / 110.0)))) / 6.0;
    } else {
        float th = sqrt(th2), s = sin(th);
        a = s / th;
        b = (1.0 - cos(th)) / th2;
        c = (th - s) / (th2 * th);
    }
    vec3 wx = cross(om, a_pos), wv = cross(om, v), wn = cross(om, a_nrm);
    pos = a_pos + v + a * wx + b * (cross(om, wx) + wv) + c * cross(om, wv);
    nrm = a_nrm + a * wn + b * cross(om, wn);
}
