// dib.glsl — DIB, dual quaternion iterative blending (thesis Alg. 4.1; DQ
// paper App. B, Alg. 3; CPU method dib): start from the normalised DLB sum
// (DQ paper Algorithm 2 against slot 0, the first influence of weight > 0,
// as dib's default sign rule), then repeat
//   x = sum_i w_i log(b* q_i),  b = b exp(x)
// until |x| < SKB_DIB_PRECISION (the Euclidean norm of x's six components),
// at most SKB_DIB_MAX_ITER iterations: the loader defines both from the CPU's
// defaults (skb_params_default), and the iteration is counted as the CPU
// counts it (a pass whose |x| was still >= the precision).  Finally
// Algorithm 1 (dq_apply).  Quaternions (x, y, z, w); per joint the dual
// quaternion as converted (signs by Algorithm 2 here).

vec4 qmul(vec4 a, vec4 b)
{
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

// log of a unit dual quaternion r + eps e: the rotation part om = phi a
// (phi = atan(|r.xyz|, r.w), half the angle) and the dual part
// nu = h - om x h + c3 om x (om x h), h = vec(e r*) the half translation,
// c3 = (1 - phi cot phi) / phi^2: the inverse of exp's dual part (derived
// from skb_dq_exp: h = nu_par + (cos sin / phi) nu_perp + (sin^2 / phi) a x nu);
// the same log as the CPU's skb_dq_log, written without divisions by |r.xyz|,
// which vanishes as the iteration converges
void dq_log(vec4 r, vec4 e, out vec3 om, out vec3 nu)
{
    float s2 = dot(r.xyz, r.xyz), s = sqrt(s2);
    float k, c3;   // phi / s and (1 - phi cot phi) / phi^2
    if (s < 1e-3 && r.w > 0.0) {
        float w2 = r.w * r.w;   // r.w ~ 1 here: atan(s, w) / s = (1 - s^2 / (3 w^2)) / w + O(s^4)
        k = (1.0 - s2 / (3.0 * w2)) / r.w;
        c3 = 1.0 / 3.0 + k * k * s2 / 45.0;
    } else {
        float phi = atan(s, r.w);
        k = phi / s;
        c3 = phi < 0.05 ? 1.0 / 3.0 + phi * phi / 45.0 : (1.0 - k * r.w) / (phi * phi);
    }
    om = k * r.xyz;
    vec3 h = r.w * e.xyz - e.w * r.xyz + cross(r.xyz, e.xyz);
    vec3 oh = cross(om, h);
    nu = h - oh + c3 * cross(om, oh);
}

// exp of the pure dual quaternion om + eps nu (skb_dq_exp): rotation part
// (sinc om, cos phi), dual part (sinc nu + g om (om . nu), -sinc (om . nu)),
// g = (cos phi - sinc) / phi^2, series below phi = 0.05
void dq_exp(vec3 om, vec3 nu, out vec4 r, out vec4 e)
{
    float p2 = dot(om, om), phi = sqrt(p2), sinc, g;
    if (phi < 0.05) {
        sinc = 1.0 - p2 / 6.0 * (1.0 - p2 / 20.0);
        g = -1.0 / 3.0 + p2 / 30.0 * (1.0 - p2 / 28.0);
    } else {
        sinc = sin(phi) / phi;
        g = (cos(phi) - sinc) / p2;
    }
    float on = dot(om, nu);
    r = vec4(sinc * om, cos(phi));
    e = vec4(sinc * nu + g * on * om, -sinc * on);
}

void skin(out vec3 pos, out vec3 nrm)
{
    vec4 q0[4], qe[4];
    vec4 s0 = vec4(0.0), se = vec4(0.0);
    vec4 pivot = u_joint[2 * a_joint[0]];
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 2 * a_joint[i];
        float sg = dot(pivot, u_joint[j]) < 0.0 ? -1.0 : 1.0;   // Algorithm 2
        q0[i] = sg * u_joint[j];
        qe[i] = sg * u_joint[j + 1];
        s0 += a_weight[i] * q0[i];
        se += a_weight[i] * qe[i];
    }
    // the unit start (dual normalisation, as skb_dq_normalize)
    float inv = inversesqrt(dot(s0, s0));
    vec4 b0 = s0 * inv;
    vec4 be = se * inv - b0 * (dot(s0, se) * inv * inv);
    int it = 0;
    for (;;) {
        vec4 c0 = vec4(-b0.xyz, b0.w), ce = vec4(-be.xyz, be.w);
        vec3 om = vec3(0.0), nu = vec3(0.0);
        SKB_UNROLL for (int i = 0; i < 4; i++) {
            if (a_weight[i] > 0.0) {
                vec3 o, n;
                dq_log(qmul(c0, q0[i]), qmul(c0, qe[i]) + qmul(ce, q0[i]), o, n);
                om += a_weight[i] * o;
                nu += a_weight[i] * n;
            }
        }
        bool converged = sqrt(dot(om, om) + dot(nu, nu)) < SKB_DIB_PRECISION;
        if (!converged && it >= SKB_DIB_MAX_ITER)
            break;
        vec4 x0, xe;
        dq_exp(om, nu, x0, xe);
        vec4 n0 = qmul(b0, x0);
        be = qmul(b0, xe) + qmul(be, x0);
        b0 = n0;
        if (converged)
            break;
        it++;
    }
    skb_iterations = it;
    dq_apply(b0, be, a_pos, a_nrm, pos, nrm);
}
