/* cpu_kernels.c — `run cpu`: the timed bodies (one deformation per
 * iteration, the copy roofline's memcpy) and the checks every kernel
 * passes before it is timed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_internal.h"
#include "skb_bench.h"
#include "skb_dqblend.h"

/* ---- timed bodies ---- */

/* one deformation of case c at pose p: prepare, skin every vertex (the
 * kind test is one predictable branch) */
static int deform(struct bcase *c, const struct skb_pose *p)
{
    const struct skb_mesh *mesh = &c->ds->d.mesh;
    int rc = 0;
    if (c->kind == K_DOUBLE) {
        if ((rc = c->m->prepare(mesh, p, &c->prm, c->sk.state)) >= 0)
            rc = c->m->skin(mesh, c->sk.state, 0, mesh->nverts, c->ds->pos, c->positions_only ? NULL : c->ds->nrm);
    } else if (c->kind == K_F32) {
        if ((rc = skb__skin_f32_prepare(&c->fk, p, &c->prm)) >= 0)
            rc = c->threads > 1 ? skb__skin_f32_run_pool(&c->fk, c->pool, c->ds->fpos, c->ds->fnrm)
                                : skb__skin_f32_run(&c->fk, 0, mesh->nverts, c->ds->fpos, c->ds->fnrm);
    } else {
        c->peer->prepare(c->pp, p);
        c->peer->skin(c->pp, c->ds->fpos, c->ds->fnrm);
    }
    return rc;
}

/* skin vertices [v0, v1) of case c into the shared outputs */
static int skin_range(struct bcase *c, int v0, int v1)
{
    const struct skb_mesh *mesh = &c->ds->d.mesh;
    if (c->kind == K_DOUBLE)
        return c->m->skin(mesh, c->sk.state, v0, v1, c->ds->pos, c->positions_only ? NULL : c->ds->nrm);
    return skb__skin_f32_run(&c->fk, v0, v1, c->ds->fpos, c->ds->fnrm);
}

/* the injected share of a deformation at pose p (see above): the extra
 * slice moves on by its length each time, so 1/frac deformations cover the
 * mesh once (cheap and dear vertices alike: measured, a slice always at the
 * start undershot dlb on cloth by 1 point and dib by 1.7 of 5) */
static int inject_extra(struct bcase *c, const struct skb_pose *p)
{
    const struct skb_mesh *mesh = &c->ds->d.mesh;
    int nv = mesh->nverts, rc = 0;
    long left = (long)((double)c->injected / INJECT_UNIT * nv + 0.5);
    while (left > 0 && rc >= 0) {
        int v0 = c->inject_off % nv;
        int v1 = left < nv - v0 ? v0 + (int)left : nv;
        rc = skin_range(c, v0, v1);
        left -= v1 - v0;
        c->inject_off = v1 % nv;
    }
    for (c->inject_acc += c->injected; c->inject_acc >= INJECT_UNIT && rc >= 0; c->inject_acc -= INJECT_UNIT)
        rc = c->kind == K_DOUBLE ? c->m->prepare(mesh, p, &c->prm, c->sk.state)
                                 : skb__skin_f32_prepare(&c->fk, p, &c->prm);
    return rc;
}

/* one deformation per iteration, cycling through the pose sequence (and
 * the injected extra work when SKB_INJECT_SLOWDOWN names the method) */
void skb__cpu_time_deform(void *arg, long iters)
{
    struct bcase *c = (struct bcase *)arg;
    for (long i = 0; i < iters; i++) {
        struct skb_pose p;
        skb_dataset_pose(&c->ds->d, c->next_pose, &p);
        c->next_pose = (c->next_pose + 1) % c->ds->d.nposes;
        int rc = deform(c, &p);
        if (c->injected && rc >= 0)
            rc = inject_extra(c, &p);
        if (rc < 0)
            c->error = rc;
        skb_bench_clobber(c->ds->pos);
        skb_bench_clobber(c->ds->fpos);
    }
}

/* the pool's share `part` of the copy (whole cache lines) */
static void copy_part(void *arg, int part, int nparts)
{
    struct bcase *c = (struct bcase *)arg;
    size_t per = (c->bytes / (size_t)nparts + 63) / 64 * 64, a = per * (size_t)part;
    size_t b = a + per < c->bytes ? a + per : c->bytes;
    if (a < b)
        memcpy(c->dst + a, c->src + a, b - a);
}

void skb__cpu_time_copy(void *arg, long iters)
{
    struct bcase *c = (struct bcase *)arg;
    for (long i = 0; i < iters; i++) {
        if (c->threads > 1)
            skb_pool_run(c->pool, copy_part, c);
        else
            memcpy(c->dst, c->src, c->bytes);
        skb_bench_clobber(c->dst);
    }
}

/* ---- verification ---- */

static double extent(const double *x, int n)
{
    double e = 0;
    for (int i = 0; i < n; i++)
        e = fmax(e, fabs(x[i]));
    return e + 1;
}

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

static int pose_index(const struct skb_dataset *d, int i)
{
    return VERIFY_POSES > 1 ? (int)((long)i * (d->nposes - 1) / (VERIFY_POSES - 1)) : 0;
}

/* the blend form of c->m on vertex v's influences (in slot order, or sorted
 * by joint index) applied to its rest position, against the skin output */
static int blend_error(const struct bcase *c, const struct skb_mesh *mesh, const struct skb_pose *p, int v,
                       int sorted, double scale, double *err, char *msg, size_t msglen)
{
    double w[SKB_MAX_INFLUENCES], mats[16 * SKB_MAX_INFLUENCES], out[16], x[3];
    int idx[SKB_MAX_INFLUENCES], n = 0;
    char bmsg[256];
    for (int s = 0; s < SKB_MAX_INFLUENCES; s++)
        if (mesh->weight[4 * v + s] > 0)
            idx[n++] = s;
    for (int a = 0; sorted && a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (mesh->joint[4 * v + idx[b]] < mesh->joint[4 * v + idx[a]]) {
                int t = idx[a];
                idx[a] = idx[b];
                idx[b] = t;
            }
    for (int k = 0; k < n; k++) {
        w[k] = mesh->weight[4 * v + idx[k]];
        memcpy(mats + 16 * k, p->mats + 16 * mesh->joint[4 * v + idx[k]], 16 * sizeof(double));
    }
    double rc[3];
    const double *center = mesh->center ? mesh->center + 3 * v : NULL;
    if (c->m->skin_center && c->m->skin_center(mesh, c->sk.state, v, rc))
        center = rc;
    struct skb_blend_in in = { n, w, mats, center };
    /* a blend has no joint tree: signs precomputed along the hierarchy are
     * checked by equality with Algorithm 2's on the sampled vertices */
    struct skb_params bp = c->prm;
    if (bp.antipodal == SKB_ANTIPODAL_HIERARCHY)
        bp.antipodal = SKB_ANTIPODAL_PIVOT;
    if (skb_blend(c->m, &in, &bp, out, NULL, bmsg, sizeof bmsg) < 0) {
        snprintf(msg, msglen, "vertex %d: blend form failed: %s", v, bmsg);
        return SKB_ENUMERIC;
    }
    skb_mat4_apply(out, mesh->pos + 3 * v, x);
    *err = 0;
    for (int r = 0; r < 3; r++)
        *err = fmax(*err, fabs(x[r] - c->ds->pos[3 * v + r]) / (TOL_SKIN_VS_BLEND * scale));
    return 0;
}

/* double path: finite output, and on sampled vertices equal to the blend
 * form of the same method applied to the rest position */
int skb__cpu_check_double(struct bcase *c, char *msg, size_t msglen)
{
    const struct skb_dataset *d = &c->ds->d;
    const struct skb_mesh *mesh = &d->mesh;
    double worst = 0;
    for (int i = 0; i < VERIFY_POSES; i++) {
        struct skb_pose p;
        int k = pose_index(d, i);
        skb_dataset_pose(d, k, &p);
        if (skb_skin_pose(&c->sk, &p, &c->prm, c->ds->pos, c->ds->nrm, msg, msglen) < 0)
            return SKB_ENUMERIC;
        if (!all_finite(c->ds->pos, 3 * (size_t)mesh->nverts)) {
            snprintf(msg, msglen, "pose %d: non-finite output", k);
            return SKB_ENUMERIC;
        }
        double scale = extent(c->ds->pos, 3 * mesh->nverts);
        int step = mesh->nverts > BLEND_SAMPLES ? mesh->nverts / BLEND_SAMPLES : 1;
        for (int v = 0; c->m->blend && !p.scale && v < mesh->nverts; v += step) {
            double e;
            int rc = blend_error(c, mesh, &p, v, 0, scale, &e, msg, msglen);
            /* set-based methods (SB: one centre per joint set, thesis 3.1)
             * solve with the set in joint order; an ill-conditioned SVD then
             * depends on that order, so compare in the skin path's order too */
            if (rc == 0 && e > 1)
                rc = blend_error(c, mesh, &p, v, 1, scale, &e, msg, msglen);
            if (rc < 0)
                return rc;
            worst = fmax(worst, e);
        }
        if (!(worst <= 1)) {
            snprintf(msg, msglen, "pose %d: skin differs from the blend form by %.3g x tolerance %g", k,
                     worst, TOL_SKIN_VS_BLEND);
            return SKB_ENUMERIC;
        }
        c->checked_poses++;
    }
    c->check_error = worst;
    return 0;
}

/* what a shader does with SKB_F32_NRM_SHADER's normals, before they are
 * compared with the double path's unit normals */
static void normalise3(int nverts, float *v)
{
    for (size_t i = 0; i < 3 * (size_t)nverts; i += 3) {
        float len = sqrtf(v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2]);
        if (len > 0)
            for (int k = 0; k < 3; k++)
                v[i + k] /= len;
    }
}

/* fast kernels and peers: against the double skin of the reference method
 * (normals as the kernel's normal option leaves them for the shader) */
int skb__cpu_check_float(struct bcase *c, const struct skb_method *ref, char *msg, size_t msglen)
{
    const struct skb_dataset *d = &c->ds->d;
    struct skb_skinner rs;
    double worst = 0;
    int rc = skb_skin_init(&rs, ref, &d->mesh, msg, msglen);
    if (rc < 0)
        return rc;
    for (int i = 0; i < VERIFY_POSES; i++) {
        struct skb_pose p;
        double ep, en;
        int k = pose_index(d, i), wv;
        skb_dataset_pose(d, k, &p);
        if ((rc = skb_skin_pose(&rs, &p, &c->prm, c->ds->pos, c->ds->nrm, msg, msglen)) < 0)
            break;
        if (c->kind == K_F32) {
            if ((rc = skb_skin_f32_pose(&c->fk, &p, &c->prm, c->ds->fpos, c->ds->fnrm, msg, msglen)) < 0)
                break;
            if (skb_skin_f32_normals(&c->fk) == SKB_F32_NRM_SHADER)
                normalise3(d->mesh.nverts, c->ds->fnrm);
        } else {
            c->peer->prepare(c->pp, &p);
            c->peer->skin(c->pp, c->ds->fpos, c->ds->fnrm);
        }
        int nrm = d->mesh.nrm && !(c->kind == K_F32 && skb_skin_f32_normals(&c->fk) == SKB_F32_NRM_NONE);
        skb_f32_compare(d->mesh.nverts, c->ds->pos, nrm ? c->ds->nrm : NULL, c->ds->fpos,
                        nrm ? c->ds->fnrm : NULL, &ep, &en, &wv);
        worst = fmax(worst, fmax(ep, en));
        if (!(ep <= 1 && en <= 1)) {
            snprintf(msg, msglen, "pose %d: differs from %s (double) by %.3g x tolerance in positions "
                     "(vertex %d), %.3g x in normals", k, ref->name, ep, wv, en);
            rc = SKB_ENUMERIC;
            break;
        }
        c->checked_poses++;
    }
    skb_skin_fini(&rs);
    c->check_error = worst;
    return rc;
}

/* a fast kernel on the pool: after skb__cpu_check_float (pose prepared), its
 * output bit for bit the one-call output, in the layout's order */
int skb__cpu_check_pool(struct bcase *c, char *msg, size_t msglen)
{
    int n = c->ds->d.mesh.nverts, rc;
    size_t n3 = 3 * (size_t)n + 1;
    float *one = malloc(sizeof(float) * 2 * n3), *pool = malloc(sizeof(float) * 2 * n3);
    if (!one || !pool) {
        free(one);
        free(pool);
        snprintf(msg, msglen, "out of memory");
        return SKB_ENOMEM;
    }
    memset(one, 0, sizeof(float) * 2 * n3);
    memset(pool, 0xff, sizeof(float) * 2 * n3);   /* NaN where the pool wrote nothing */
    if ((rc = skb__skin_f32_run(&c->fk, 0, n, one, one + n3)) < 0
        || (rc = skb__skin_f32_run_pool(&c->fk, c->pool, pool, pool + n3)) < 0)
        snprintf(msg, msglen, "%s", skb_strerror(rc));
    else if (memcmp(one, pool, sizeof(float) * 3 * (size_t)n) != 0
             || (c->ds->d.mesh.nrm && skb_skin_f32_normals(&c->fk) != SKB_F32_NRM_NONE
                 && memcmp(one + n3, pool + n3, sizeof(float) * 3 * (size_t)n) != 0)) {
        snprintf(msg, msglen, "the %d-thread pool's output differs from one call", c->threads);
        rc = SKB_ENUMERIC;
    }
    free(one);
    free(pool);
    return rc;
}
