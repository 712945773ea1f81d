/* skb_math.c — quaternions, dual quaternions, rigid matrices (thesis 2.1).
 * Written on skb_real only, so the FLOP counter can recompile it as C++. */
#include <math.h>
#include <stddef.h>
#include "skb_math.h"

/* small angles: below this, sin(x)/x is replaced by its Taylor series */
#define SMALL_ANGLE 1e-6

/* ---- quaternions ---- */

void skb_quat_mul(const struct skb_quat *a, const struct skb_quat *b, struct skb_quat *out)
{
    /* thesis eq. 2.1 */
    skb_real w = a->w * b->w - a->x * b->x - a->y * b->y - a->z * b->z;
    skb_real x = a->x * b->w + a->w * b->x + a->y * b->z - a->z * b->y;
    skb_real y = a->y * b->w + a->w * b->y + a->z * b->x - a->x * b->z;
    skb_real z = a->z * b->w + a->w * b->z + a->x * b->y - a->y * b->x;
    out->w = w; out->x = x; out->y = y; out->z = z;
}

void skb_quat_conj(const struct skb_quat *q, struct skb_quat *out)
{
    out->w = q->w; out->x = -q->x; out->y = -q->y; out->z = -q->z;
}

void skb_quat_neg(const struct skb_quat *q, struct skb_quat *out)
{
    out->w = -q->w; out->x = -q->x; out->y = -q->y; out->z = -q->z;
}

skb_real skb_quat_dot(const struct skb_quat *a, const struct skb_quat *b)
{
    return a->w * b->w + a->x * b->x + a->y * b->y + a->z * b->z;
}

skb_real skb_quat_norm(const struct skb_quat *q)
{
    return sqrt(skb_quat_dot(q, q));
}

int skb_quat_normalize(const struct skb_quat *q, struct skb_quat *out)
{
    skb_real n = skb_quat_norm(q);
    if (!(n > 0) || !isfinite((double)n))
        return -1;
    skb_quat_scale(q, 1 / n, out);
    return 0;
}

void skb_quat_scale(const struct skb_quat *q, skb_real s, struct skb_quat *out)
{
    out->w = q->w * s; out->x = q->x * s; out->y = q->y * s; out->z = q->z * s;
}

void skb_quat_axpy(skb_real s, const struct skb_quat *q, struct skb_quat *out)
{
    out->w = out->w + s * q->w; out->x = out->x + s * q->x;
    out->y = out->y + s * q->y; out->z = out->z + s * q->z;
}

void skb_quat_exp(const struct skb_quat *v, struct skb_quat *out)
{
    /* eq. 2.2: exp(a*phi) = cos(phi) + a sin(phi) */
    skb_real phi = sqrt(v->x * v->x + v->y * v->y + v->z * v->z);
    skb_real s = phi < SMALL_ANGLE ? 1 - phi * phi / 6 : sin(phi) / phi;
    out->w = cos(phi);
    out->x = v->x * s; out->y = v->y * s; out->z = v->z * s;
}

void skb_quat_log(const struct skb_quat *q, struct skb_quat *out)
{
    skb_real vn = sqrt(q->x * q->x + q->y * q->y + q->z * q->z);
    skb_real phi = atan2(vn, q->w);          /* robust for all phi in [0, pi] */
    skb_real s = vn < SMALL_ANGLE ? (q->w > 0 ? 1 / q->w : 0) : phi / vn;
    out->w = 0;
    out->x = q->x * s; out->y = q->y * s; out->z = q->z * s;
}

void skb_quat_pow(const struct skb_quat *q, skb_real t, struct skb_quat *out)
{
    struct skb_quat l;
    skb_quat_log(q, &l);
    skb_quat_scale(&l, t, &l);
    skb_quat_exp(&l, out);
}

void skb_quat_slerp(const struct skb_quat *a, const struct skb_quat *b, skb_real t, struct skb_quat *out)
{
    /* a (a* b)^t along the shorter arc (Shoemake; thesis 3.2) */
    struct skb_quat bb = *b, ac, d, p;
    if (skb_quat_dot(a, b) < 0)
        skb_quat_neg(b, &bb);
    skb_quat_conj(a, &ac);
    skb_quat_mul(&ac, &bb, &d);
    skb_quat_pow(&d, t, &p);
    skb_quat_mul(a, &p, out);
}

void skb_quat_from_axis_angle(const skb_real axis[3], skb_real angle, struct skb_quat *out)
{
    skb_real n = skb__v3_norm(axis);
    skb_real s = n > 0 ? sin(angle / 2) / n : 0;
    out->w = cos(angle / 2);
    out->x = axis[0] * s; out->y = axis[1] * s; out->z = axis[2] * s;
}

void skb_quat_to_mat3(const struct skb_quat *q, skb_real m[9])
{
    skb_real x2 = q->x + q->x, y2 = q->y + q->y, z2 = q->z + q->z;
    skb_real xx = q->x * x2, yy = q->y * y2, zz = q->z * z2;
    skb_real xy = q->x * y2, xz = q->x * z2, yz = q->y * z2;
    skb_real wx = q->w * x2, wy = q->w * y2, wz = q->w * z2;
    m[0] = 1 - (yy + zz); m[1] = xy - wz;       m[2] = xz + wy;
    m[3] = xy + wz;       m[4] = 1 - (xx + zz); m[5] = yz - wx;
    m[6] = xz - wy;       m[7] = yz + wx;       m[8] = 1 - (xx + yy);
}

void skb_quat_to_mat3_scaled(const struct skb_quat *q, skb_real m[9])
{
    skb_quat_to_mat3_n2(q, skb_quat_dot(q, q), m);
}

void skb_quat_to_mat3_n2(const struct skb_quat *q, skb_real n2, skb_real m[9])
{
    /* thesis 3.3: the matrix of q v q* for non-unit q, divided by <q,q>; as
     * skb_quat_to_mat3 with the 2 replaced by 2/<q,q> (the diagonal
     * 1 - 2(y^2 + z^2)/<q,q> equals (w^2 + x^2 - y^2 - z^2)/<q,q>): 24 FLOPs
     * and one division given n2 = <q,q> */
    skb_real k = 2 / n2;
    skb_real x2 = q->x * k, y2 = q->y * k, z2 = q->z * k;
    skb_real xx = q->x * x2, yy = q->y * y2, zz = q->z * z2;
    skb_real xy = q->x * y2, xz = q->x * z2, yz = q->y * z2;
    skb_real wx = q->w * x2, wy = q->w * y2, wz = q->w * z2;
    m[0] = 1 - (yy + zz); m[1] = xy - wz;       m[2] = xz + wy;
    m[3] = xy + wz;       m[4] = 1 - (xx + zz); m[5] = yz - wx;
    m[6] = xz - wy;       m[7] = yz + wx;       m[8] = 1 - (xx + yy);
}

void skb_quat_pure_mul_add(const skb_real t[3], const struct skb_quat *q, struct skb_quat *acc)
{
    /* (0, t)(w, v) = (-t.v, w t + t x v): eq. 2.1 without the products by
     * the zero scalar part (20 FLOPs + 4 to accumulate, against 28 + 4) */
    skb_real tv = t[0] * q->x + t[1] * q->y + t[2] * q->z;
    skb_real x = q->w * t[0] + (t[1] * q->z - t[2] * q->y);
    skb_real y = q->w * t[1] + (t[2] * q->x - t[0] * q->z);
    skb_real z = q->w * t[2] + (t[0] * q->y - t[1] * q->x);
    acc->w = acc->w - tv; acc->x = acc->x + x; acc->y = acc->y + y; acc->z = acc->z + z;
}

void skb_quat_pure_mul(const skb_real t[3], const struct skb_quat *q, struct skb_quat *out)
{
    /* (0, t)(w, v) = (-t.v, w t + t x v): 20 FLOPs */
    skb_real w = -(t[0] * q->x + t[1] * q->y + t[2] * q->z);
    skb_real x = q->w * t[0] + (t[1] * q->z - t[2] * q->y);
    skb_real y = q->w * t[1] + (t[2] * q->x - t[0] * q->z);
    skb_real z = q->w * t[2] + (t[0] * q->y - t[1] * q->x);
    out->w = w; out->x = x; out->y = y; out->z = z;
}

void skb_quat_from_mat3(const skb_real m[9], struct skb_quat *out)
{
    /* the branch is chosen by comparisons only (M. Day, "Converting a rotation
     * matrix to a quaternion", 2015), so no trace is formed that a branch
     * would not use: every branch costs 3 + 1 + 3 = 7 FLOPs (Shoemake's
     * trace-first choice costs 9 outside the w branch).  The chosen
     * t = 4 c^2 (c the component computed from it) is >= 1 in every branch
     * (a sum of 1 and two non-negative terms), so the sqrt argument stays
     * large as in Shoemake's largest-diagonal rule. */
    struct skb_quat q;
    if (m[8] < 0) {
        if (m[0] > m[4]) {
            skb_real s = sqrt(1 + m[0] - m[4] - m[8]) * 2;
            q.w = (m[7] - m[5]) / s; q.x = s / 4; q.y = (m[1] + m[3]) / s; q.z = (m[2] + m[6]) / s;
        } else {
            skb_real s = sqrt(1 + m[4] - m[0] - m[8]) * 2;
            q.w = (m[2] - m[6]) / s; q.x = (m[1] + m[3]) / s; q.y = s / 4; q.z = (m[5] + m[7]) / s;
        }
    } else if (m[0] < -m[4]) {
        skb_real s = sqrt(1 + m[8] - m[0] - m[4]) * 2;
        q.w = (m[3] - m[1]) / s; q.x = (m[2] + m[6]) / s; q.y = (m[5] + m[7]) / s; q.z = s / 4;
    } else {
        skb_real s = sqrt(1 + m[0] + m[4] + m[8]) * 2;
        q.w = s / 4; q.x = (m[7] - m[5]) / s; q.y = (m[2] - m[6]) / s; q.z = (m[3] - m[1]) / s;
    }
    if (q.w < 0)
        skb_quat_neg(&q, &q);                /* a sign flip, not a x(-1): free */
    *out = q;
}

void skb_quat_rotate(const struct skb_quat *q, const skb_real v[3], skb_real out[3])
{
    /* DQ paper eq. 15 */
    skb_real r[3], c1[3], c2[3];
    r[0] = q->x; r[1] = q->y; r[2] = q->z;
    skb__v3_cross(r, v, c1);
    c1[0] = c1[0] + q->w * v[0]; c1[1] = c1[1] + q->w * v[1]; c1[2] = c1[2] + q->w * v[2];
    skb__v3_cross(r, c1, c2);
    out[0] = v[0] + 2 * c2[0]; out[1] = v[1] + 2 * c2[1]; out[2] = v[2] + 2 * c2[2];
}

/* ---- quaternion linear blending (thesis 3.2-3.3) ---- */

void skb_quat_blend(int n, const skb_real *w, const int *idx, const struct skb_quat *q,
                    int pivot, struct skb_quat *out)
{
    const struct skb_quat *p = NULL;
    struct skb_quat s;
    s.w = 0; s.x = 0; s.y = 0; s.z = 0;
    for (int i = 0; i < n; i++) {
        const struct skb_quat *qi = q + (idx ? idx[i] : i);
        skb_real wi = w[i];
        if (wi == 0)
            continue;
        if (!p)
            p = qi;
        else if (pivot && skb_quat_dot(p, qi) < 0)
            wi = -wi;                        /* DQ paper Algorithm 2 */
        skb_quat_axpy(wi, qi, &s);
    }
    *out = s;
}

int skb_mat4_qlb(int n, const skb_real *w, const skb_real *mats, const skb_real *c,
                 int pivot, skb_real out[16])
{
    /* the same sign rule as skb_quat_blend, streamed so that n is unbounded */
    struct skb_quat s, p, q;
    skb_real t[3], rot[9], ci[3], qc[3];
    int have = 0;
    s.w = 0; s.x = 0; s.y = 0; s.z = 0;
    p = s;
    t[0] = 0; t[1] = 0; t[2] = 0;
    for (int i = 0; i < n; i++) {
        const skb_real *m = mats + 16 * i;
        skb_real wi = w[i];
        if (wi == 0)
            continue;
        skb_mat4_to_rt(m, rot, ci);
        skb_quat_from_mat3(rot, &q);
        if (!have) {
            p = q;
            have = 1;
        } else if (pivot && skb_quat_dot(&p, &q) < 0) {
            wi = -wi;
        }
        skb_quat_axpy(wi, &q, &s);
        if (c)
            skb_mat4_apply(m, c, ci);        /* C_i c (thesis eq. 3.7) */
        for (int k = 0; k < 3; k++)
            t[k] = t[k] + w[i] * ci[k];
    }
    skb_real n2 = skb_quat_dot(&s, &s);
    if (!(n2 > SKB_QLB_MIN_NORM2))
        return -1;
    skb_quat_to_mat3_n2(&s, n2, rot);        /* no sqrt: thesis 3.3 after Lemma 3.4 */
    if (c) {
        qc[0] = rot[0] * c[0] + rot[1] * c[1] + rot[2] * c[2];
        qc[1] = rot[3] * c[0] + rot[4] * c[1] + rot[5] * c[2];
        qc[2] = rot[6] * c[0] + rot[7] * c[1] + rot[8] * c[2];
        for (int k = 0; k < 3; k++)
            t[k] = t[k] - qc[k];
    }
    skb_mat4_from_rt(rot, t, out);
    return 0;
}

void skb_qlb_prepare(int njoints, const skb_real *mats, struct skb_quat *q, skb_real *rows)
{
    skb_real rot[9], t[3];
    for (int j = 0; j < njoints; j++) {
        skb_mat4_to_rt(mats + 16 * j, rot, t);
        skb_quat_from_mat3(rot, q + j);
        for (int k = 0; k < 12; k++)
            rows[12 * j + k] = mats[16 * j + k];
    }
}

int skb_qlb_vertex(int n, const int *joint, const skb_real *w, const struct skb_quat *q,
                   const skb_real *rows, const skb_real *c, int pivot, const skb_real x[3],
                   const skb_real *nx, skb_real out[3], skb_real *nout)
{
    struct skb_quat s;
    skb_real rot[9], t[3], y[3];
    skb_quat_blend(n, w, joint, q, pivot, &s);
    skb_real n2 = skb_quat_dot(&s, &s);
    if (!(n2 > SKB_QLB_MIN_NORM2))
        return -1;
    skb_quat_to_mat3_n2(&s, n2, rot);        /* thesis 3.3: saves the sqrt */
    t[0] = 0; t[1] = 0; t[2] = 0;
    for (int i = 0; i < n; i++) {
        const skb_real *cj = rows + 12 * joint[i];
        if (w[i] == 0)
            continue;
        for (int k = 0; k < 3; k++)
            t[k] = t[k] + w[i] * (c ? cj[4 * k] * c[0] + cj[4 * k + 1] * c[1]
                                      + cj[4 * k + 2] * c[2] + cj[4 * k + 3]
                                    : cj[4 * k + 3]);
    }
    for (int k = 0; k < 3; k++)
        y[k] = c ? x[k] - c[k] : x[k];
    for (int k = 0; k < 3; k++)
        out[k] = rot[3 * k] * y[0] + rot[3 * k + 1] * y[1] + rot[3 * k + 2] * y[2] + t[k];
    if (nx && nout)
        for (int k = 0; k < 3; k++)
            nout[k] = rot[3 * k] * nx[0] + rot[3 * k + 1] * nx[1] + rot[3 * k + 2] * nx[2];
    return 0;
}

/* ---- dual quaternions ---- */

void skb_dq_mul(const struct skb_dq *a, const struct skb_dq *b, struct skb_dq *out)
{
    /* (a0 + e ae)(b0 + e be) = a0 b0 + e (a0 be + ae b0) */
    struct skb_quat r, d1, d2;
    skb_quat_mul(&a->r, &b->r, &r);
    skb_quat_mul(&a->r, &b->d, &d1);
    skb_quat_mul(&a->d, &b->r, &d2);
    out->r = r;
    out->d.w = d1.w + d2.w; out->d.x = d1.x + d2.x; out->d.y = d1.y + d2.y; out->d.z = d1.z + d2.z;
}

void skb_dq_conj(const struct skb_dq *q, struct skb_dq *out)
{
    skb_quat_conj(&q->r, &out->r);
    skb_quat_conj(&q->d, &out->d);
}

void skb_dq_dconj(const struct skb_dq *q, struct skb_dq *out)
{
    out->r = q->r;
    skb_quat_neg(&q->d, &out->d);
}

void skb_dq_cconj(const struct skb_dq *q, struct skb_dq *out)
{
    struct skb_quat d;
    skb_quat_conj(&q->d, &d);
    skb_quat_conj(&q->r, &out->r);
    skb_quat_neg(&d, &out->d);
}

void skb_dq_norm(const struct skb_dq *q, skb_real *n0, skb_real *neps)
{
    skb_real n = skb_quat_norm(&q->r);
    *n0 = n;
    *neps = skb_quat_dot(&q->r, &q->d) / n;
}

int skb_dq_normalize(const struct skb_dq *q, struct skb_dq *out)
{
    /* q/|q| = q (1/|q0| - e <q0,qe>/|q0|^3) (thesis 2.1.2, dual inverse) */
    skb_real n2 = skb_quat_dot(&q->r, &q->r);
    if (!(n2 > 0) || !isfinite((double)n2))
        return -1;
    skb_real inv = 1 / sqrt(n2);
    skb_real de = skb_quat_dot(&q->r, &q->d) / n2;
    struct skb_quat r, d;
    skb_quat_scale(&q->r, inv, &r);
    skb_quat_scale(&q->d, inv, &d);
    skb_quat_axpy(-de, &r, &d);
    out->r = r;
    out->d = d;
    return 0;
}

void skb_dq_neg(const struct skb_dq *q, struct skb_dq *out)
{
    skb_quat_neg(&q->r, &out->r);
    skb_quat_neg(&q->d, &out->d);
}

void skb_dq_scale(const struct skb_dq *q, skb_real s, struct skb_dq *out)
{
    skb_quat_scale(&q->r, s, &out->r);
    skb_quat_scale(&q->d, s, &out->d);
}

void skb_dq_axpy(skb_real s, const struct skb_dq *q, struct skb_dq *out)
{
    skb_quat_axpy(s, &q->r, &out->r);
    skb_quat_axpy(s, &q->d, &out->d);
}

void skb_dq_exp(const struct skb_dq *v, struct skb_dq *out)
{
    /* exp(s^ theta^/2) = cos(theta^/2) + s^ sin(theta^/2) with dual angle
     * phi = |v0| + e <v0,ve>/|v0| (eq. 2.5); f(a + e b) = f(a) + e b f'(a) */
    skb_real v0[3], ve[3];
    v0[0] = v->r.x; v0[1] = v->r.y; v0[2] = v->r.z;
    ve[0] = v->d.x; ve[1] = v->d.y; ve[2] = v->d.z;
    skb_real phi = skb__v3_norm(v0);
    if (phi < SMALL_ANGLE) {
        /* pure translation limit: exp(e ve) = 1 + e ve (to first order in phi) */
        skb_real s = 1 - phi * phi / 6;
        out->r.w = cos(phi); out->r.x = v0[0] * s; out->r.y = v0[1] * s; out->r.z = v0[2] * s;
        skb_real dv = skb__v3_dot(v0, ve);
        out->d.w = -dv * s;
        out->d.x = ve[0] * s - v0[0] * dv / 3;
        out->d.y = ve[1] * s - v0[1] * dv / 3;
        out->d.z = ve[2] * s - v0[2] * dv / 3;
        return;
    }
    skb_real phie = skb__v3_dot(v0, ve) / phi;
    skb_real c = cos(phi), s = sin(phi);
    skb_real sinc = s / phi;                                /* sin(phi)/phi */
    skb_real dsinc = (c - sinc) / phi;                      /* d/dphi of sinc */
    out->r.w = c;
    out->r.x = v0[0] * sinc; out->r.y = v0[1] * sinc; out->r.z = v0[2] * sinc;
    out->d.w = -s * phie;
    out->d.x = ve[0] * sinc + v0[0] * dsinc * phie;
    out->d.y = ve[1] * sinc + v0[1] * dsinc * phie;
    out->d.z = ve[2] * sinc + v0[2] * dsinc * phie;
}

void skb_dq_log(const struct skb_dq *q, struct skb_dq *out)
{
    /* inverse of skb_dq_exp for a unit dual quaternion */
    skb_real r[3], d[3];
    r[0] = q->r.x; r[1] = q->r.y; r[2] = q->r.z;
    d[0] = q->d.x; d[1] = q->d.y; d[2] = q->d.z;
    skb_real sn = skb__v3_norm(r);
    skb_real phi = atan2(sn, q->r.w);
    out->r.w = 0;
    out->d.w = 0;
    if (sn < SMALL_ANGLE) {
        /* rotation ~ identity (or ~2pi): theta0 ~ 0, log ~ (r + e d) / w */
        skb_real k = q->r.w > 0 ? 1 / q->r.w : 0;
        if (!(q->r.w > 0)) {
            /* angle ~ 2pi (q0 ~ -1): fall back to the generic formula on -q */
            struct skb_dq nq;
            skb_dq_neg(q, &nq);
            skb_dq_log(&nq, out);
            return;
        }
        out->r.x = r[0] * k; out->r.y = r[1] * k; out->r.z = r[2] * k;
        out->d.x = d[0] * k; out->d.y = d[1] * k; out->d.z = d[2] * k;
        return;
    }
    /* q0 = cos(phi) + a sin(phi), qe = -phie sin(phi) + (m sin(phi) + a phie cos(phi)) */
    skb_real a[3] = { r[0] / sn, r[1] / sn, r[2] / sn };
    skb_real phie = -q->d.w / sn;
    skb_real da = skb__v3_dot(a, d);
    skb_real m[3];
    m[0] = (d[0] - a[0] * da) / sn;
    m[1] = (d[1] - a[1] * da) / sn;
    m[2] = (d[2] - a[2] * da) / sn;
    out->r.x = a[0] * phi; out->r.y = a[1] * phi; out->r.z = a[2] * phi;
    out->d.x = a[0] * phie + m[0] * phi;
    out->d.y = a[1] * phie + m[1] * phi;
    out->d.z = a[2] * phie + m[2] * phi;
}

void skb_dq_pow(const struct skb_dq *q, skb_real t, struct skb_dq *out)
{
    struct skb_dq l;
    skb_dq_log(q, &l);
    skb_dq_scale(&l, t, &l);
    skb_dq_exp(&l, out);
}

void skb_dq_from_qt(const struct skb_quat *q, const skb_real t[3], struct skb_dq *out)
{
    /* eq. 2.3: q + e/2 t q, as (t/2) q with the zero scalar part of t/2
     * skipped (23 FLOPs, against 32 for a full product and a x0.5) */
    skb_real h[3] = { t[0] * 0.5, t[1] * 0.5, t[2] * 0.5 };
    struct skb_quat d;
    skb_quat_pure_mul(h, q, &d);
    out->r = *q;
    out->d = d;
}

void skb_dq_to_qt(const struct skb_dq *q, struct skb_quat *rot, skb_real t[3])
{
    /* t = 2 qe q0* */
    struct skb_quat c, tt;
    skb_quat_conj(&q->r, &c);
    skb_quat_mul(&q->d, &c, &tt);
    *rot = q->r;
    t[0] = 2 * tt.x; t[1] = 2 * tt.y; t[2] = 2 * tt.z;
}

void skb_dq_from_mat4(const skb_real m[16], struct skb_dq *out)
{
    skb_real r[9], t[3];
    struct skb_quat q;
    skb_mat4_to_rt(m, r, t);
    skb_quat_from_mat3(r, &q);
    skb_dq_from_qt(&q, t, out);
}

void skb_dq_to_mat4(const struct skb_dq *q, skb_real m[16])
{
    /* unit q: t = 2 vec(qe q0*) (its scalar part is 0), only the vector
     * part formed */
    skb_real r[9], t[3];
    skb_quat_to_mat3(&q->r, r);
    skb_dq_translation(&q->r, &q->d, 2, t);
    skb_mat4_from_rt(r, t, m);
}

void skb_dq_translation(const struct skb_quat *r, const struct skb_quat *d, skb_real s, skb_real t[3])
{
    /* vec(d r*) = r_w d_v - d_w r_v + r_v x d_v: 21 FLOPs, then the 3 of s */
    skb_real x = r->w * d->x - d->w * r->x + (r->y * d->z - r->z * d->y);
    skb_real y = r->w * d->y - d->w * r->y + (r->z * d->x - r->x * d->z);
    skb_real z = r->w * d->z - d->w * r->z + (r->x * d->y - r->y * d->x);
    t[0] = x * s; t[1] = y * s; t[2] = z * s;
}

void skb_dq_transform_point(const struct skb_dq *b, const skb_real v[3], skb_real out[3])
{
    /* DQ paper Algorithm 1 */
    skb_real inv = 1 / skb_quat_norm(&b->r);
    skb_real a0 = b->r.w * inv, ae = b->d.w * inv;
    skb_real d0[3], de[3], c1[3], c2[3], c3[3];
    d0[0] = b->r.x * inv; d0[1] = b->r.y * inv; d0[2] = b->r.z * inv;
    de[0] = b->d.x * inv; de[1] = b->d.y * inv; de[2] = b->d.z * inv;
    skb__v3_cross(d0, v, c1);
    c1[0] = c1[0] + a0 * v[0]; c1[1] = c1[1] + a0 * v[1]; c1[2] = c1[2] + a0 * v[2];
    skb__v3_cross(d0, c1, c2);
    skb__v3_cross(d0, de, c3);
    for (int i = 0; i < 3; i++)
        out[i] = v[i] + 2 * c2[i] + 2 * (a0 * de[i] - ae * d0[i] + c3[i]);
}

void skb_dq_transform_normal(const struct skb_dq *b, const skb_real n[3], skb_real out[3])
{
    skb_real inv = 1 / skb_quat_norm(&b->r);
    struct skb_quat c0;
    skb_quat_scale(&b->r, inv, &c0);
    skb_quat_rotate(&c0, n, out);
}

void skb_dq_screw(const struct skb_dq *q, struct skb_screw *out)
{
    skb_real r[3], t[3];
    struct skb_quat rot;
    r[0] = q->r.x; r[1] = q->r.y; r[2] = q->r.z;
    skb_dq_to_qt(q, &rot, t);
    skb_real sn = skb__v3_norm(r);
    out->angle = 2 * atan2(sn, q->r.w);
    if (sn < SMALL_ANGLE) {
        skb_real tn = skb__v3_norm(t);
        out->pure_translation = 1;
        out->translation = tn;
        for (int i = 0; i < 3; i++) {
            out->axis[i] = tn > 0 ? t[i] / tn : (i == 0 ? 1 : 0);
            out->moment[i] = 0;
        }
        return;
    }
    out->pure_translation = 0;
    for (int i = 0; i < 3; i++)
        out->axis[i] = r[i] / sn;
    out->translation = skb__v3_dot(t, out->axis);
    /* moment m = p x s with p the axis point closest to the origin:
     * p = (t_perp + cot(theta/2) s x t) / 2 (Chasles) */
    skb_real tp[3], sxt[3], p[3];
    for (int i = 0; i < 3; i++)
        tp[i] = t[i] - out->translation * out->axis[i];
    skb__v3_cross(out->axis, t, sxt);
    skb_real cot = cos(out->angle / 2) / sin(out->angle / 2);
    for (int i = 0; i < 3; i++)
        p[i] = (tp[i] + cot * sxt[i]) / 2;
    skb__v3_cross(p, out->axis, out->moment);
}

/* ---- rigid matrices ---- */

void skb_mat4_identity(skb_real m[16])
{
    for (int i = 0; i < 16; i++)
        m[i] = (i % 5 == 0) ? 1 : 0;
}

void skb_mat4_mul(const skb_real a[16], const skb_real b[16], skb_real out[16])
{
    skb_real r[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            r[4 * i + j] = a[4 * i] * b[j] + a[4 * i + 1] * b[4 + j]
                         + a[4 * i + 2] * b[8 + j] + a[4 * i + 3] * b[12 + j];
    for (int i = 0; i < 16; i++)
        out[i] = r[i];
}

void skb_mat4_inv_rigid(const skb_real m[16], skb_real out[16])
{
    skb_real r[9], t[3], rt[9], nt[3];
    skb_mat4_to_rt(m, r, t);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rt[3 * i + j] = r[3 * j + i];
    for (int i = 0; i < 3; i++)
        nt[i] = -(rt[3 * i] * t[0] + rt[3 * i + 1] * t[1] + rt[3 * i + 2] * t[2]);
    skb_mat4_from_rt(rt, nt, out);
}

void skb_mat4_apply(const skb_real m[16], const skb_real v[3], skb_real out[3])
{
    skb_real x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2] + m[3];
    skb_real y = m[4] * v[0] + m[5] * v[1] + m[6] * v[2] + m[7];
    skb_real z = m[8] * v[0] + m[9] * v[1] + m[10] * v[2] + m[11];
    out[0] = x; out[1] = y; out[2] = z;
}

void skb_mat4_apply_dir(const skb_real m[16], const skb_real v[3], skb_real out[3])
{
    skb_real x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
    skb_real y = m[4] * v[0] + m[5] * v[1] + m[6] * v[2];
    skb_real z = m[8] * v[0] + m[9] * v[1] + m[10] * v[2];
    out[0] = x; out[1] = y; out[2] = z;
}

void skb_mat4_from_rt(const skb_real r[9], const skb_real t[3], skb_real out[16])
{
    for (int i = 0; i < 3; i++) {
        out[4 * i] = r[3 * i]; out[4 * i + 1] = r[3 * i + 1]; out[4 * i + 2] = r[3 * i + 2];
        out[4 * i + 3] = t[i];
    }
    out[12] = 0; out[13] = 0; out[14] = 0; out[15] = 1;
}

void skb_mat4_to_rt(const skb_real m[16], skb_real r[9], skb_real t[3])
{
    for (int i = 0; i < 3; i++) {
        r[3 * i] = m[4 * i]; r[3 * i + 1] = m[4 * i + 1]; r[3 * i + 2] = m[4 * i + 2];
        t[i] = m[4 * i + 3];
    }
}

static skb_real maxabs(skb_real a, skb_real b)
{
    skb_real fa = fabs(a), fb = fabs(b);
    return fa > fb ? fa : fb;
}

skb_real skb_mat4_rigid_error(const skb_real m[16])
{
    skb_real e = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            skb_real d = m[i] * m[j] + m[4 + i] * m[4 + j] + m[8 + i] * m[8 + j];
            e = maxabs(e, d - (i == j ? 1 : 0));
        }
    skb_real det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8])
                 + m[2] * (m[4] * m[9] - m[5] * m[8]);
    e = maxabs(e, det - 1);
    e = maxabs(e, m[12]); e = maxabs(e, m[13]); e = maxabs(e, m[14]); e = maxabs(e, m[15] - 1);
    return e;
}

void skb_mat4_log_rigid(const skb_real m[16], skb_real omega[3], skb_real v[3])
{
    /* rotation vector through the quaternion (robust up to pi), then
     * v = V^-1 t with V = I + (1-cos)/th^2 W + (th - sin)/th^3 W^2 */
    skb_real r[9], t[3];
    struct skb_quat q, lq;
    skb_mat4_to_rt(m, r, t);
    skb_quat_from_mat3(r, &q);
    skb_quat_log(&q, &lq);
    omega[0] = 2 * lq.x; omega[1] = 2 * lq.y; omega[2] = 2 * lq.z;
    skb_real th = skb__v3_norm(omega);
    /* V^-1 = I - W/2 + (1/th^2)(1 - (th/2) cot(th/2)) W^2 */
    skb_real k = th < 1e-4 ? 1.0 / 12 + th * th / 720
                           : (1 - (th / 2) * cos(th / 2) / sin(th / 2)) / (th * th);
    skb_real wt[3], wwt[3];
    skb__v3_cross(omega, t, wt);
    skb__v3_cross(omega, wt, wwt);
    for (int i = 0; i < 3; i++)
        v[i] = t[i] - wt[i] / 2 + k * wwt[i];
}

void skb_mat4_exp_rigid(const skb_real omega[3], const skb_real v[3], skb_real out[16])
{
    /* Rodrigues: R = I + A W + B W^2, t = (I + B W + C W^2) v */
    skb_real th = skb__v3_norm(omega);
    skb_real a, b, c;
    if (th < 1e-4) {
        skb_real th2 = th * th;
        a = 1 - th2 / 6; b = 0.5 - th2 / 24; c = 1.0 / 6 - th2 / 120;
    } else {
        a = sin(th) / th; b = (1 - cos(th)) / (th * th); c = (th - sin(th)) / (th * th * th);
    }
    skb_real W[9], W2[9], R[9], t[3];
    W[0] = 0;         W[1] = -omega[2]; W[2] = omega[1];
    W[3] = omega[2];  W[4] = 0;         W[5] = -omega[0];
    W[6] = -omega[1]; W[7] = omega[0];  W[8] = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            W2[3 * i + j] = W[3 * i] * W[j] + W[3 * i + 1] * W[3 + j] + W[3 * i + 2] * W[6 + j];
    for (int i = 0; i < 9; i++)
        R[i] = (i % 4 == 0 ? 1 : 0) + a * W[i] + b * W2[i];
    for (int i = 0; i < 3; i++) {
        t[i] = v[i];
        for (int j = 0; j < 3; j++)
            t[i] = t[i] + (b * W[3 * i + j] + c * W2[3 * i + j]) * v[j];
    }
    skb_mat4_from_rt(R, t, out);
}
