/* registry.c — the one list of methods, and the validating wrappers that
 * are the only way the rest of skinbench calls a method's hooks. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_method.h"

extern const struct skb_method skb_method_cor;
extern const struct skb_method skb_method_blend_lbs_dqs;
extern const struct skb_method skb_method_linear;
extern const struct skb_method skb_method_qlb0;
extern const struct skb_method skb_method_sb;
extern const struct skb_method skb_method_logm;
extern const struct skb_method skb_method_qb;
extern const struct skb_method skb_method_sclerp;
extern const struct skb_method skb_method_dlb;
extern const struct skb_method skb_method_dib;
extern const struct skb_method skb_method_dlb_scale;
extern const struct skb_method skb_method_ddm;

/* display order follows thesis Table 4.1, then the extras */
const struct skb_method *const skb_methods[] = {
    &skb_method_linear,
    &skb_method_qlb0,
    &skb_method_sb,
    &skb_method_logm,
    &skb_method_sclerp,
    &skb_method_dlb,
    &skb_method_dib,
    &skb_method_qb,
    &skb_method_dlb_scale,
    &skb_method_cor,
    &skb_method_blend_lbs_dqs,
    &skb_method_ddm,
    NULL
};

const struct skb_method *skb_method_find(const char *name)
{
    for (int i = 0; skb_methods[i]; i++)
        if (strcmp(skb_methods[i]->name, name) == 0)
            return skb_methods[i];
    return NULL;
}

int skb_method_count(void)
{
    int n = 0;
    while (skb_methods[n])
        n++;
    return n;
}

const struct skb_method *skb_method_exact_pair(void)
{
    for (int i = 0; skb_methods[i]; i++)
        if ((skb_methods[i]->flags & SKB_MF_EXACT_PAIR) && skb_methods[i]->blend)
            return skb_methods[i];
    return NULL;
}

const struct skb_method *skb_method_with_flag(unsigned flags)
{
    for (int i = 0; skb_methods[i]; i++)
        if ((skb_methods[i]->flags & flags) == flags)
            return skb_methods[i];
    return NULL;
}

const char *skb_method_role_name(unsigned flags)
{
    const struct skb_method *m = skb_method_with_flag(flags);
    return m ? m->name : "";
}

/* old name -> registry name: schema_version 1 results files named LBS's and
 * SB's sphere refits (thesis 5.3, 6.5), SB's eager-centres variant and the
 * LBS GPU shader by the thesis's words; one name since version 2 */
static const char *const method_aliases[][2] = {
    { "lbs", "linear" },
    { "sbs", "sb" },
    { "sbs+all_centres", "sb+all_centres" },
};

const char *skb_method_canonical(const char *name)
{
    for (size_t i = 0; i < sizeof method_aliases / sizeof method_aliases[0]; i++)
        if (strcmp(method_aliases[i][0], name) == 0)
            return method_aliases[i][1];
    return name;
}

/* the names a user may type for a method beside its registry name: the
 * papers' words (the report's titles) */
static const char *const user_aliases[][2] = {
    { "lbs", "linear" }, { "sbs", "sb" }, { "dqs", "dlb" }, { "dq", "dlb" }, { "qlb", "qlb0" },
    { "log", "logm" }, { "two-phase", "dlb_scale" }, { "twophase", "dlb_scale" },
};

static int same_word(const char *a, size_t len, const char *b)
{
    if (strlen(b) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

const struct skb_method *skb_method_lookup(const char *name, size_t len)
{
    for (int i = 0; skb_methods[i]; i++)
        if (same_word(name, len, skb_methods[i]->name))
            return skb_methods[i];
    for (size_t i = 0; i < sizeof user_aliases / sizeof user_aliases[0]; i++)
        if (same_word(name, len, user_aliases[i][0]))
            return skb_method_find(user_aliases[i][1]);
    return NULL;
}

/* Levenshtein distance of a[0..n) and b, any case, capped at 9 */
static int edit_distance(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b);
    int row[33];
    if (n > 32 || m > 32)
        return 9;
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            int best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[m] < 9 ? row[m] : 9;
}

const char *skb_method_suggest(const char *name, size_t len)
{
    const char *best = NULL;
    int bd = 3;   /* at most two edits away: further is a guess */
    for (int i = 0; skb_methods[i]; i++) {
        int d = edit_distance(name, len, skb_methods[i]->name);
        if (d < bd) {
            bd = d;
            best = skb_methods[i]->name;
        }
    }
    for (size_t i = 0; i < sizeof user_aliases / sizeof user_aliases[0]; i++) {
        int d = edit_distance(name, len, user_aliases[i][0]);
        if (d < bd) {
            bd = d;
            best = user_aliases[i][1];
        }
    }
    return best;
}

const char *skb_strerror(int code)
{
#define SKB__MSG(name, val, msg) case val: return msg;
    switch (code) {
    case 0: return "success";
    SKB_ERRORS(SKB__MSG)
    default: return "unknown error";
    }
#undef SKB__MSG
}

void skb_params_default(struct skb_params *prm)
{
    prm->dib_precision = 1e-5;   /* DQ paper App. B timing setting */
    prm->dib_max_iter = 20;
    prm->antipodal = SKB_ANTIPODAL_PIVOT;
    prm->dib_shortcut = 0;       /* thesis Alg. 4.1 as written is the default */
    prm->sb_spherical_average = 0;
    prm->lbs_dqs_weight = 0.5;   /* an even mix, as a painted weight of 0.5 */
    prm->lbs_dqs_painted = NULL;
    /* ddm: libigl's Direct Delta Mush example (tutorial 408) values */
    prm->ddm_p = 20;
    prm->ddm_lambda = 3;
    prm->ddm_kappa = 1;
    prm->ddm_alpha = 0.8;
}

static int fail(int code, char *msg, size_t msglen, const char *text)
{
    if (msg && msglen)
        snprintf(msg, msglen, "%s", text);
    return code;
}

static int all_finite(const skb_real *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite((double)x[i]))
            return 0;
    return 1;
}

int skb_blend_check(const struct skb_method *m, const struct skb_blend_in *in,
                    char *msg, size_t msglen)
{
    char buf[256];
    if (in->n < 1 || !in->weights || !in->mats)
        return fail(SKB_EINVAL, msg, msglen, "\"transforms\": need at least one transform and its weight");
    if (m->max_n && in->n > m->max_n) {
        snprintf(buf, sizeof buf, "\"transforms\": %s blends at most %d transforms, got %d",
                 m->name, m->max_n, in->n);
        return fail(SKB_ETOOMANY, msg, msglen, buf);
    }
    if ((m->flags & SKB_MF_NEEDS_CENTER) && !in->center) {
        snprintf(buf, sizeof buf, "\"center\": method %s needs a rotation centre [x,y,z]", m->name);
        return fail(SKB_ENOCENTER, msg, msglen, buf);
    }
    if (in->center && !all_finite(in->center, 3))
        return fail(SKB_ENONFINITE, msg, msglen, "\"center\": non-finite value");
    skb_real sum = 0;
    for (int i = 0; i < in->n; i++) {
        if (!isfinite((double)in->weights[i])) {
            snprintf(buf, sizeof buf, "\"weights\"[%d]: non-finite value", i);
            return fail(SKB_ENONFINITE, msg, msglen, buf);
        }
        if (in->weights[i] < 0) {
            snprintf(buf, sizeof buf, "\"weights\"[%d]: negative weight %g", i, (double)in->weights[i]);
            return fail(SKB_EWEIGHTS, msg, msglen, buf);
        }
        sum = sum + in->weights[i];
    }
    if (fabs((double)sum - 1) > SKB_TOL_WEIGHT_SUM) {
        snprintf(buf, sizeof buf, "\"weights\": sum is %.17g, not 1 (tolerance %g); "
                 "fix the weights or pass --renormalize", (double)sum, SKB_TOL_WEIGHT_SUM);
        return fail(SKB_EWEIGHTS, msg, msglen, buf);
    }
    for (int i = 0; i < in->n; i++) {
        const skb_real *c = in->mats + 16 * i;
        if (!all_finite(c, 16)) {
            snprintf(buf, sizeof buf, "\"transforms\"[%d]: non-finite value", i);
            return fail(SKB_ENONFINITE, msg, msglen, buf);
        }
        if (!(m->flags & SKB_MF_NONRIGID_IN)) {
            double e = (double)skb_mat4_rigid_error(c);
            if (e > SKB_TOL_RIGID) {
                snprintf(buf, sizeof buf, "\"transforms\"[%d]: not a rigid transform "
                         "(orthonormality/det/last-row error %.3g > %g)", i, e, SKB_TOL_RIGID);
                return fail(SKB_ENOTRIGID, msg, msglen, buf);
            }
        }
    }
    return 0;
}

int skb_blend(const struct skb_method *m, const struct skb_blend_in *in,
              const struct skb_params *prm, skb_real out[16],
              struct skb_blend_stats *st, char *msg, size_t msglen)
{
    struct skb_params defaults;
    struct skb_blend_stats local;
    char buf[256];
    int rc;
    if (!m->blend) {
        snprintf(buf, sizeof buf, "method %s has no blend form (skin only)", m->name);
        return fail(SKB_ENOTSUP, msg, msglen, buf);
    }
    if ((rc = skb_blend_check(m, in, msg, msglen)) < 0)
        return rc;
    if (!prm) {
        skb_params_default(&defaults);
        prm = &defaults;
    }
    if (!st)
        st = &local;
    st->iterations = 0;
    st->logs = 0;
    st->exps = 0;
    rc = m->blend(in, prm, out, st);
    if (rc < 0) {
        snprintf(buf, sizeof buf, "%s: %s", m->name, skb_strerror(rc));
        return fail(rc, msg, msglen, buf);
    }
    if (!all_finite(out, 16)) {
        snprintf(buf, sizeof buf, "%s: produced a non-finite matrix", m->name);
        return fail(SKB_ENUMERIC, msg, msglen, buf);
    }
    return 0;
}

int skb_mesh_check(const struct skb_mesh *mesh, char *msg, size_t msglen)
{
    char buf[256];
    if (mesh->nverts < 0 || mesh->ntris < 0 || mesh->njoints < 1 || !mesh->pos
        || !mesh->joint || !mesh->weight)
        return fail(SKB_EINVAL, msg, msglen, "mesh: missing vertices, joints or weights");
    for (int v = 0; v < mesh->nverts; v++) {
        skb_real sum = 0;
        if (!all_finite(mesh->pos + 3 * v, 3) || (mesh->nrm && !all_finite(mesh->nrm + 3 * v, 3))) {
            snprintf(buf, sizeof buf, "mesh: vertex %d: non-finite position or normal", v);
            return fail(SKB_ENONFINITE, msg, msglen, buf);
        }
        for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
            int j = mesh->joint[SKB_MAX_INFLUENCES * v + k];
            skb_real w = mesh->weight[SKB_MAX_INFLUENCES * v + k];
            if (j < 0 || j >= mesh->njoints || !isfinite((double)w) || w < 0) {
                snprintf(buf, sizeof buf, "mesh: vertex %d influence %d: joint %d / weight %g invalid",
                         v, k, j, (double)w);
                return fail(SKB_EWEIGHTS, msg, msglen, buf);
            }
            sum = sum + w;
        }
        if (fabs((double)sum - 1) > SKB_TOL_WEIGHT_SUM) {
            snprintf(buf, sizeof buf, "mesh: vertex %d: weights sum to %.9g, not 1", v, (double)sum);
            return fail(SKB_EWEIGHTS, msg, msglen, buf);
        }
    }
    for (int t = 0; t < 3 * mesh->ntris; t++)
        if (mesh->tris[t] < 0 || mesh->tris[t] >= mesh->nverts) {
            snprintf(buf, sizeof buf, "mesh: triangle %d: vertex index %d out of range", t / 3, mesh->tris[t]);
            return fail(SKB_EINVAL, msg, msglen, buf);
        }
    return 0;
}

int skb_skin_init(struct skb_skinner *s, const struct skb_method *m,
                  const struct skb_mesh *mesh, char *msg, size_t msglen)
{
    char buf[256];
    int rc;
    s->m = m;
    s->mesh = mesh;
    s->state = NULL;
    if (!m->skin || !m->prepare) {
        snprintf(buf, sizeof buf, "method %s has no skin form", m->name);
        return fail(SKB_ENOTSUP, msg, msglen, buf);
    }
    if ((rc = skb_mesh_check(mesh, msg, msglen)) < 0)
        return rc;
    size_t size = m->state_size ? m->state_size(mesh) : 0;
    size = (size + 63) / 64 * 64;
    if (size) {
        s->state = aligned_alloc(64, size);
        if (!s->state)
            return fail(SKB_ENOMEM, msg, msglen, "out of memory for method state");
        memset(s->state, 0, size);
    }
    if (m->bind && (rc = m->bind(mesh, s->state)) < 0) {
        snprintf(buf, sizeof buf, "%s: bind: %s", m->name, skb_strerror(rc));
        skb_skin_fini(s);
        return fail(rc, msg, msglen, buf);
    }
    return 0;
}

int skb_skin_pose(struct skb_skinner *s, const struct skb_pose *p,
                  const struct skb_params *prm, skb_real *pos_out, skb_real *nrm_out,
                  char *msg, size_t msglen)
{
    struct skb_params defaults;
    char buf[256];
    int rc;
    if (p->njoints != s->mesh->njoints) {
        snprintf(buf, sizeof buf, "pose has %d joints, mesh has %d", p->njoints, s->mesh->njoints);
        return fail(SKB_EINVAL, msg, msglen, buf);
    }
    if (!all_finite(p->mats, 16 * p->njoints) || (p->scale && !all_finite(p->scale, 16 * p->njoints)))
        return fail(SKB_ENONFINITE, msg, msglen, "pose: non-finite joint matrix");
    if (!prm) {
        skb_params_default(&defaults);
        prm = &defaults;
    }
    if ((rc = s->m->prepare(s->mesh, p, prm, s->state)) < 0) {
        snprintf(buf, sizeof buf, "%s: prepare: %s", s->m->name, skb_strerror(rc));
        return fail(rc, msg, msglen, buf);
    }
    if ((rc = s->m->skin(s->mesh, s->state, 0, s->mesh->nverts, pos_out, nrm_out)) < 0) {
        snprintf(buf, sizeof buf, "%s: skin: %s", s->m->name, skb_strerror(rc));
        return fail(rc, msg, msglen, buf);
    }
    return 0;
}

void skb_skin_fini(struct skb_skinner *s)
{
    if (!s)
        return;
    free(s->state);
    s->state = NULL;
}
