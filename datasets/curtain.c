/* curtain.c — a hanging curtain in wind, simulated: the thesis-like input of
 * Skinning Arbitrary Deformations (thesis Table 7.1's "Curtain": 6409
 * vertices, 200 keyframes, made by a cloth simulator we do not have).
 * A 64 x 100 grid of particles (6400 vertices, 12474 triangles; the DQ
 * paper's cloth sheet of datasets/procedural_cloth.c is 60 x 100), its top
 * row pinned, under gravity and a gusting wind, integrated by Verlet with
 * distance constraints (structural, shear and bend springs, relaxed
 * Gauss-Seidel as in Jakobsen's position-based cloth).  The wind's gust
 * frequencies, phases and directions come from the seed (GSL mt19937):
 * the same seed gives the same animation bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include "skb_vanim.h"

#define CURTAIN_COLS 64
#define CURTAIN_ROWS 100
#define CURTAIN_W 4.0            /* metres: spacing W / (cols - 1) in both directions */
#define CURTAIN_FRAMES 200       /* thesis Table 7.1: the Curtain has 200 keyframes */
#define QUICK_COLS 14
#define QUICK_ROWS 20
#define QUICK_FRAMES 12
#define FPS 30.0
#define SUBSTEPS 10              /* Verlet steps per keyframe */
#define ITERATIONS 3             /* constraint relaxation sweeps per step */
#define SETTLE_FRAMES 30         /* simulated, not recorded: the wind's onset */
#define GRAVITY 9.81
#define DAMPING 0.995            /* velocity kept per step */
#define WIND_MEAN 4.0            /* m/s */
#define WIND_DRAG 1.2            /* 1/s: acceleration per m/s of wind across the cloth */
#define BEND_STIFFNESS 0.25
#define NGUSTS 3

struct spring {
    int a, b;
    double len, stiff;
};

struct wind {
    double mean;                 /* m/s: WIND_MEAN times the caller's scale */
    double wave;                 /* the travelling wave's relative amplitude */
    double freq[NGUSTS], phase[NGUSTS], amp[NGUSTS];
    double kx, wave_phase, side;
};

struct sim {
    int cols, rows, n, nspr;
    double *x, *xp, *nrm;
    struct spring *spr;
    struct wind wind;
};

static void add_spring(struct sim *s, int a, int b, double stiff)
{
    const double *pa = s->x + 3 * a, *pb = s->x + 3 * b;
    double dx = pb[0] - pa[0], dy = pb[1] - pa[1], dz = pb[2] - pa[2];
    struct spring *sp = s->spr + s->nspr++;
    sp->a = a;
    sp->b = b;
    sp->len = sqrt(dx * dx + dy * dy + dz * dz);
    sp->stiff = stiff;
}

static void build_springs(struct sim *s)
{
    int c = s->cols, r = s->rows;
    for (int y = 0; y < r; y++)
        for (int x = 0; x < c; x++) {
            int v = y * c + x;
            if (x + 1 < c)
                add_spring(s, v, v + 1, 1);
            if (y + 1 < r)
                add_spring(s, v, v + c, 1);
            if (x + 1 < c && y + 1 < r) {
                add_spring(s, v, v + c + 1, 1);
                add_spring(s, v + 1, v + c, 1);
            }
            if (x + 2 < c)
                add_spring(s, v, v + 2, BEND_STIFFNESS);
            if (y + 2 < r)
                add_spring(s, v, v + 2 * c, BEND_STIFFNESS);
        }
}

/* wind velocity (along +z, a little sideways) at particle position p, time t:
 * a mean, NGUSTS seeded gusts, and a wave travelling across the curtain */
static void wind_at(const struct wind *w, const double *p, double t, double out[3])
{
    double a = 1;
    for (int i = 0; i < NGUSTS; i++)
        a += w->amp[i] * sin(2 * M_PI * w->freq[i] * t + w->phase[i]);
    a *= 1 + w->wave * sin(w->kx * p[0] - 2.1 * t + w->wave_phase);
    out[0] = w->mean * a * w->side;
    out[1] = 0;
    out[2] = w->mean * a;
}

static void step(struct sim *s, double t, double dt)
{
    for (int k = s->cols; k < s->n; k++) {   /* row 0 is pinned */
        double *x = s->x + 3 * k, *xp = s->xp + 3 * k, *n = s->nrm + 3 * k, w[3], vel[3], acc[3];
        wind_at(&s->wind, x, t, w);
        for (int i = 0; i < 3; i++)
            vel[i] = (x[i] - xp[i]) / dt;
        /* drag of the wind across the cloth: along the normal only */
        double rel = (w[0] - vel[0]) * n[0] + (w[1] - vel[1]) * n[1] + (w[2] - vel[2]) * n[2];
        for (int i = 0; i < 3; i++)
            acc[i] = WIND_DRAG * rel * n[i];
        acc[1] -= GRAVITY;
        for (int i = 0; i < 3; i++) {
            double nx = x[i] + DAMPING * (x[i] - xp[i]) + acc[i] * dt * dt;
            xp[i] = x[i];
            x[i] = nx;
        }
    }
    for (int it = 0; it < ITERATIONS; it++)
        for (int q = 0; q < s->nspr; q++) {
            const struct spring *sp = s->spr + q;
            double *pa = s->x + 3 * sp->a, *pb = s->x + 3 * sp->b, d[3];
            for (int i = 0; i < 3; i++)
                d[i] = pb[i] - pa[i];
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (!(len > 0))
                continue;
            int fa = sp->a >= s->cols, fb = sp->b >= s->cols;   /* free (not pinned) */
            if (!fa && !fb)
                continue;
            double k = sp->stiff * (len - sp->len) / len / (fa + fb);
            for (int i = 0; i < 3; i++) {
                if (fa)
                    pa[i] += k * d[i];
                if (fb)
                    pb[i] -= k * d[i];
            }
        }
}

static void seed_wind(struct wind *w, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    for (int i = 0; i < NGUSTS; i++) {
        w->freq[i] = 0.15 + 0.6 * gsl_rng_uniform(r);     /* Hz */
        w->phase[i] = 2 * M_PI * gsl_rng_uniform(r);
        w->amp[i] = 0.15 + 0.25 * gsl_rng_uniform(r);
    }
    w->kx = 1.0 + 1.5 * gsl_rng_uniform(r);                /* 1/m */
    w->wave_phase = 2 * M_PI * gsl_rng_uniform(r);
    w->side = 0.4 * (2 * gsl_rng_uniform(r) - 1);
    gsl_rng_free(r);
}

int skb_vanim_curtain(unsigned long seed, int quick, struct skb_vanim *v, char *msg, size_t msglen)
{
    return skb_vanim_curtain_wind(seed, quick, 1.0, SKB_CURTAIN_WAVE, v, msg, msglen);
}

int skb_vanim_curtain_wind(unsigned long seed, int quick, double wind_scale, double wave, struct skb_vanim *v,
                           char *msg, size_t msglen)
{
    struct sim s;
    memset(&s, 0, sizeof s);
    s.cols = quick ? QUICK_COLS : CURTAIN_COLS;
    s.rows = quick ? QUICK_ROWS : CURTAIN_ROWS;
    s.n = s.cols * s.rows;
    int nframes = quick ? QUICK_FRAMES : CURTAIN_FRAMES, settle = quick ? SETTLE_FRAMES / 3 : SETTLE_FRAMES;
    int rc = skb_vanim_alloc(v, s.n, 2 * (s.cols - 1) * (s.rows - 1), nframes);
    s.x = (double *)malloc(sizeof(double) * 3 * (size_t)s.n);
    s.xp = (double *)malloc(sizeof(double) * 3 * (size_t)s.n);
    s.spr = (struct spring *)malloc(sizeof(struct spring) * 6 * (size_t)s.n);
    if (rc < 0 || !s.x || !s.xp || !s.spr) {
        snprintf(msg, msglen, "curtain: out of memory");
        skb_vanim_free(v);
        free(s.x);
        free(s.xp);
        free(s.spr);
        return SKB_ENOMEM;
    }
    double h = CURTAIN_W / (s.cols - 1);
    for (int y = 0; y < s.rows; y++)
        for (int x = 0; x < s.cols; x++) {
            double *p = v->rest + 3 * (y * s.cols + x);
            p[0] = h * x;
            p[1] = -h * y;
            p[2] = 0;
        }
    int t = 0;
    for (int y = 0; y + 1 < s.rows; y++)
        for (int x = 0; x + 1 < s.cols; x++) {
            int a = y * s.cols + x, b = a + 1, c = a + s.cols, d = c + 1;
            int *tr = v->tris + 3 * t;
            tr[0] = a; tr[1] = c; tr[2] = b;
            tr[3] = b; tr[4] = c; tr[5] = d;
            t += 2;
        }
    memcpy(s.x, v->rest, sizeof(double) * 3 * (size_t)s.n);
    memcpy(s.xp, v->rest, sizeof(double) * 3 * (size_t)s.n);
    build_springs(&s);
    seed_wind(&s.wind, seed);
    s.wind.mean = WIND_MEAN * wind_scale;
    s.wind.wave = wave;
    skb_vanim_normals(v, v->rest, v->rest_nrm);
    double dt = 1 / (FPS * SUBSTEPS), time = 0;
    for (int f = -settle; f < nframes; f++) {
        /* normals once per keyframe: the wind's direction of push */
        s.nrm = f < 0 ? v->nrm : v->nrm + 3 * (size_t)s.n * (size_t)f;
        skb_vanim_normals(v, s.x, s.nrm);
        for (int k = 0; k < SUBSTEPS; k++, time += dt)
            step(&s, time, dt);
        if (f >= 0) {
            double *out = v->pos + 3 * (size_t)s.n * (size_t)f;
            memcpy(out, s.x, sizeof(double) * 3 * (size_t)s.n);
            skb_vanim_normals(v, out, v->nrm + 3 * (size_t)s.n * (size_t)f);
        }
    }
    free(s.x);
    free(s.xp);
    free(s.spr);
    snprintf(v->name, sizeof v->name, "curtain");
    snprintf(v->source, sizeof v->source,
             "simulated: %d x %d mass-spring sheet, top row pinned, gusting wind (mean %g m/s, travelling wave %g) "
             "from seed %lu, %d keyframes at %g fps", s.cols, s.rows, s.wind.mean, wave, seed, nframes, FPS);
    return 0;
}
