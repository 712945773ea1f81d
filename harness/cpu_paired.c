/* cpu_paired.c — every ratio `run cpu` judges, timed pair by pair through
 * the one timing engine (common/skb_timing.h), each sitting with its
 * controls' A/A floors:
 *   - Figure 18 / Table 3.2 on every dataset: each double-path row over LBS,
 *     positions only (judged) and with normals (a labelled variant); DIB
 *     over DLB (DQ paper App. B); SBS with Buss and Fillmore's averages over
 *     SBS with QLB (seed 003 section 5);
 *   - the fast-kernel targets on every dataset: DLB over LBS, each split
 *     kernel over its 4-slot kernel, each planned row over both fixed rows;
 *   - the roofline mesh's control: each one-thread fast kernel over memcpy
 *     and each split or planned kernel over its method's 4-slot kernel.
 * Why pairs, not Google Benchmark's medians (which cpu-gbench.json keeps
 * for absolute times and the nightly's A/B): on this shared VM what the
 * machine gives changes within seconds (one process, ten ~50 ms
 * repetitions: split LBS 4.82-5.74 ms, memcpy 7.72-11.42 ms, the slow ones
 * at different moments), and two medians timed apart carry both swings
 * (docs/report-and-regression.md "Timed verdicts: the paired engine"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_internal.h"
#include "skb_timing.h"

#define PAIRS SKB_PAIR_PAIRS
#define QUICK_PAIRS 6               /* the fewest with an exact 95 % interval */
#define SAMPLE_MS SKB_PAIR_SAMPLE_MS
#define QUICK_SAMPLE_MS 0.2
#define CONTROL_PAIRS 41        /* the roofline control: ~0.5 s a row, one deformation a sample */
#define CONTEXT_PAIRS 11        /* a row no paper value judges (a variant, a method beyond Figure 18,
                                   a kernel of the fast table): still paired, a wider interval */
/* Figure 18's double-path rows are timed in ROUNDS rounds over every
 * dataset, each round a quarter of the pairs, and read on the quiet state
 * (common/skb_timing.h skb_sitting_settle).  Why: this VM's core is at
 * times slowed for seconds to tens of seconds (one process, six sittings of
 * arm 5 s apart: QLB'0 / LBS 1.14-1.19 in five, 1.42 in the sixth, LBS's own
 * time 1.5x), so one sitting of every row inside 5 s decided what state a
 * whole dataset was timed in; spread over rounds each row meets the quiet
 * state in some of them (docs/report-and-regression.md "Rounds and the
 * quiet state") */
#define ROUNDS 4
#define ROUND_PAIRS ((PAIRS + ROUNDS - 1) / ROUNDS)
#define ROUND_CONTEXT_PAIRS ((CONTEXT_PAIRS + ROUNDS - 1) / ROUNDS)
/* after the rest of `run cpu`, up to CATCH_UP more rounds of the rows (and
 * A/As) that read fewer than QUIET_WANT quiet pairs (a context row:
 * SKB_QUIET_MIN_PAIRS): a slowed window on this VM lasted 45 s and more,
 * longer than the four rounds (one full run: creature's DLB at 180 us in
 * round 1, 230 us through rounds 2-4) */
#define CATCH_UP 4
#define QUIET_WANT 12
/* a trio (an injected kernel, its twin, their control: SKB_INJECT_TWIN) is
 * read within itself, the move a2 / a trio by trio, in one sitting; it is
 * asked for +-3 %, and 31 trios read +-4.5 to +-6.5 % three times in a row
 * on a CI machine whose neighbours were busy (+-1.4 to +-4.5 % here): four
 * times the trios halve the interval, ~1 s a trio row */
#define TRIO_PAIRS (4 * PAIRS)

/* the methods of DQ paper Fig. 18 and App. B (and QLB'0, whose ratio the
 * SBS row's arithmetic reads): their own rows get the sitting's pairs */
static const unsigned figure_roles = SKB_MF_RATIO_REF | SKB_MF_JOINT_CENTERS | SKB_MF_HEADLINE | SKB_MF_ROT_CENTERS
                                     | SKB_MF_LOG_BLEND | SKB_MF_ITERATIVE | SKB_MF_QUAT_LINEAR;

/* ---- a sitting of `run cpu`: the timing engine's (skb_sitting) on one
 * dataset, its works the cases' timed bodies ---- */

struct sitting {
    struct run *r;
    struct ds *ds;
    struct skb_sitting st;
    int context_pairs;          /* pairs of a row no paper value judges (0: the sitting's) */
    int trio_pairs;             /* pairs of a trio (the planted slow-down's): all in one round */
    int rounds;                 /* the rounds a kept row is timed in */
    int catch_up;               /* a catch-up round: only the rows short of quiet pairs */
    struct case_work { struct bcase *c; int positions_only; } w[3];
};

/* a deformation of the case (positions only or with its normals: the
 * treatment is set on every run, as the kernel and its control share the
 * case's flag with the A/A) */
static int deform_work(void *arg, long iters)
{
    struct case_work *w = arg;
    w->c->positions_only = w->positions_only;
    skb__cpu_time_deform(w->c, iters);
    w->c->positions_only = 0;
    return w->c->error < 0 ? w->c->error : 0;
}

static int copy_work(void *arg, long iters)
{
    skb__cpu_time_copy(((struct case_work *)arg)->c, iters);
    return 0;
}

/* a sitting's settings on ds: pairs per row, samples of sample_ms, thread CPU time */
static struct skb_pair_opts sitting_base(struct sitting *s, struct run *r, struct ds *ds, int pairs, double sample_ms)
{
    s->r = r;
    s->ds = ds;
    s->context_pairs = 0;
    s->trio_pairs = pairs;
    s->rounds = 1;
    s->catch_up = 0;
    return (struct skb_pair_opts){ .pairs = pairs, .min_sample_ms = sample_ms, .clock = SKB_CLOCK_THREAD,
                                   .alpha = SKB_PAIR_ALPHA };
}

static void sitting_init(struct sitting *s, struct run *r, struct ds *ds, int pairs, double sample_ms, cJSON *o)
{
    struct skb_pair_opts po = sitting_base(s, r, ds, pairs, sample_ms);
    skb_sitting_init(&s->st, &po, o);
}

/* round `round` (> 0) of the sitting sitting_init began under o */
static int sitting_resume(struct sitting *s, struct run *r, struct ds *ds, int pairs, double sample_ms, cJSON *o,
                          int round)
{
    struct skb_pair_opts po = sitting_base(s, r, ds, pairs, sample_ms);
    return skb_sitting_resume(&s->st, &po, o, round);
}

/* before pair i: both sides start at the same pose, the starts spread
 * evenly over the clip (pair i at pose i * poses / pairs).  Why: a
 * deformation's cost depends on its pose for some methods (SBS's SVDs, DIB's
 * iterations), and a start left where the last timing stopped made the
 * ratio depend on what ran before: two processes gave SBS / DLB on the
 * random poses 1.84 [1.83, 1.86] and 2.44 [2.41, 2.48] */
struct pose_starts {
    struct bcase *k, *k2, *c;   /* k2: a trio's second kernel (NULL in a pair) */
    int pairs;
    int round, rounds;          /* a row timed in rounds: its pairs interleave with the other rounds' over the
                                   clip (round r's pair i at slot i * rounds + r), not the same starts each round */
};

static void start_poses(void *arg, int pair)
{
    struct pose_starts *ps = arg;
    int n = ps->k->ds->d.nposes > 0 ? ps->k->ds->d.nposes : 1;
    int rounds = ps->rounds > 0 ? ps->rounds : 1;
    long slot = (long)pair * rounds + ps->round, slots = (long)(ps->pairs > 0 ? ps->pairs : 1) * rounds;
    int p = (int)((slot * n) / slots) % n;
    ps->k->next_pose = p;
    ps->c->next_pose = p;
    if (ps->k2)
        ps->k2->next_pose = p;
}

/* a row a paper value judges: a figure method's own double-path row,
 * positions only (its variants, the normals, f32 and peers: context) */
static int judged_row(const struct bcase *k, int positions)
{
    return positions && k->kind == K_DOUBLE && k->m && (k->m->flags & figure_roles)
           && (strcmp(k->label, k->m->name) == 0 || k->no_inject);   /* the injection's twin: its reference */
}

static struct skb_work case_work(struct case_work *w, struct bcase *c, int positions)
{
    *w = (struct case_work){ c, positions };
    return (struct skb_work){ .run = c->kind == K_COPY ? copy_work : deform_work, .arg = w };
}

/* kernel k over control c in the sitting, appended to its rows; with k2,
 * k2 over c from the same trios (the injected kernel and its twin); the
 * estimates into est[0], est[1] (NAN when they could not be timed) */
/* in a catch-up round: whether row k over c is to be timed again (its
 * control's A/A timed again here when it is short of quiet pairs) */
static int catch_up_row(struct sitting *s, struct bcase *k, struct bcase *k2, struct bcase *c, const char *treatment,
                        int pos)
{
    if (skb_sitting_settled(&s->st, NULL, c->label, treatment, QUIET_WANT) == 0) {
        struct case_work w;
        struct skb_work wc = case_work(&w, c, pos);
        skb_sitting_floor(&s->st, c->label, &wc, treatment);
    }
    int want = judged_row(k, pos) ? QUIET_WANT : SKB_QUIET_MIN_PAIRS;
    return !k2 && skb_sitting_settled(&s->st, k->label, c->label, treatment, want) == 0;
}

static int sit_rows(struct sitting *s, struct bcase *k, struct bcase *k2, struct bcase *c, const char *treatment,
                    double est[2])
{
    int pos = strcmp(treatment, "positions") == 0, pairs = s->st.opts.pairs, keep = s->st.keep;
    est[0] = est[1] = NAN;
    if (s->catch_up && !catch_up_row(s, k, k2, c, treatment, pos))
        return 1;   /* settled (or a trio, read whole in round 1): nothing to time */
    if (!judged_row(k, pos) && !s->r->ctx->quick && s->context_pairs)
        s->st.opts.pairs = s->context_pairs;
    struct skb_work wk = case_work(&s->w[0], k, pos), wc = case_work(&s->w[1], c, pos);
    struct skb_work wk2 = k2 ? case_work(&s->w[2], k2, pos) : (struct skb_work){ 0 };
    if (k2) {   /* a trio is read within itself (a2 / a at the same moments): one sitting, all its pairs;
                   its control's A/A kept in this round as every round's */
        skb_sitting_floor(&s->st, c->label, &wc, treatment);
        s->st.opts.pairs = s->trio_pairs;
        s->st.keep = 0;
    }
    struct skb_pair_result pr, pr2 = { .ratio = NAN };
    struct pose_starts ps = { k, k2, c, s->st.opts.pairs, s->st.keep ? s->st.round : 0, s->st.keep ? s->rounds : 1 };
    s->st.opts.before_pair = start_poses;
    s->st.opts.pair_ctx = &ps;
    int rc = k2 ? skb_sitting_trio(&s->st, k->label, &wk, k2->label, &wk2, c->label, &wc, treatment, &pr, &pr2)
                : skb_sitting_row(&s->st, k->label, &wk, c->label, &wc, treatment, &pr);
    s->st.opts.before_pair = NULL;
    s->st.opts.pair_ctx = NULL;
    s->st.opts.pairs = pairs;
    s->st.keep = keep;
    est[0] = rc < 0 ? NAN : pr.ratio;
    est[1] = rc < 0 ? NAN : pr2.ratio;
    return rc;
}

static int sit_row(struct sitting *s, struct bcase *k, struct bcase *c, const char *treatment, double *est)
{
    double e[2];
    int rc = sit_rows(s, k, NULL, c, treatment, e);
    *est = e[0];
    return rc;
}

/* the injection's twin of case c (SKB_INJECT_TWIN: the same kernel without
 * the injected work), timed with it in one trio; NULL when none */
static struct bcase *twin_of(struct run *r, const struct bcase *c)
{
    if (!c->injected || c->kind != K_DOUBLE || !c->m || strcmp(c->label, c->m->name) != 0)
        return NULL;
    for (int i = 0; i < r->nc; i++)
        if (r->c[i].no_inject && r->c[i].m == c->m && r->c[i].ds == c->ds && !r->c[i].error)
            return r->c + i;
    return NULL;
}

/* ---- every ratio to LBS the page shows: Figure 18, Table 3.2, App. B,
 * Buss-Fillmore, the single-precision kernels and the peers ---- */

/* the estimate of a row into map[label] (the ratio maps beside ms) */
static void add_estimate(cJSON *map, const char *label, double est)
{
    if (map && isfinite(est))
        skb_json_add_number(map, label, est);
}

/* every row of kind k on ds over ctl, in one treatment, estimates into
 * map; the progress line lists the paper's methods (no variant) */
static void kind_rows(struct sitting *s, enum kind k, struct bcase *ctl, const char *treatment, cJSON *map, char *line,
                      size_t n)
{
    struct run *r = s->r;
    size_t len = line ? strlen(line) : 0;
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        double est[2];
        if (c->kind != k || c->ds != s->ds || c->error || c == ctl || (k == K_F32 && c->threads > 1) || c->no_inject)
            continue;
        /* the normals variant of Figure 18: its methods' own rows */
        if (strcmp(treatment, "normals") == 0 && !(c->m && (c->m->flags & figure_roles) && strcmp(c->label, c->m->name) == 0))
            continue;
        /* an injected kernel and its twin in one trio: the planted work read
         * at the same moments as both ratios (tests/paired_injection.sh) */
        struct bcase *twin = strcmp(treatment, "positions") == 0 ? twin_of(r, c) : NULL;
        if (twin && s->st.round > 0) {   /* the trio was timed whole in round 0; its control's A/A goes on */
            struct case_work w;
            struct skb_work wc = case_work(&w, ctl, strcmp(treatment, "positions") == 0);
            skb_sitting_floor(&s->st, ctl->label, &wc, treatment);
            continue;
        }
        if (sit_rows(s, c, twin, ctl, treatment, est) < 0)
            continue;
        add_estimate(map, c->label, est[0]);
        if (twin)
            add_estimate(map, twin->label, est[1]);
        if (line && len < n && !strchr(c->label, '+') && !strchr(c->label, '@'))
            len += (size_t)snprintf(line + len, n - len, " %s=%.3f", c->label, est[0]);
    }
}

/* the pool's rows over the one-thread LBS kernel, both in wall time (what
 * the pool saves is waiting, which CPU time does not see) */
static void pool_rows(struct sitting *s, struct bcase *ctl, cJSON *map)
{
    struct run *r = s->r;
    s->st.opts.clock = SKB_CLOCK_WALL;
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        double est;
        if (c->kind == K_F32 && c->ds == s->ds && !c->error && c->threads > 1
            && sit_row(s, c, ctl, "wall time", &est) == 0)
            add_estimate(map, c->label, est);
    }
    s->st.opts.clock = SKB_CLOCK_THREAD;
}

/* a ratio over another row than LBS (DIB over DLB, SBS averaged over SBS) */
static void other_row(struct sitting *s, const char *kernel, const char *control)
{
    struct bcase *k = skb__cpu_find_case(s->r, K_DOUBLE, s->ds, kernel);
    struct bcase *c = skb__cpu_find_case(s->r, K_DOUBLE, s->ds, control);
    double est;
    if (k && c)
        sit_row(s, k, c, "positions", &est);
}

/* each peer over our single-precision kernel of the method it implements */
static void peer_rows(struct sitting *s, cJSON *map)
{
    for (int k = 0; skb_peers[k]; k++) {
        struct bcase *p = skb__cpu_find_case(s->r, K_PEER, s->ds, skb_peers[k]->name);
        struct bcase *o = skb__cpu_find_case(s->r, K_F32, s->ds, skb_method_role_name(skb_peers[k]->reference));
        double est;
        if (p && o && sit_row(s, p, o, "as timed", &est) == 0)
            add_estimate(map, skb_peers[k]->name, est);
    }
}

/* every double-path row of Figure 18, Table 3.2, App. B, Buss-Fillmore and
 * the DQS orders on the sitting's dataset (one round of them) */
static void double_rows(struct sitting *s)
{
    struct bcase *lin = skb__cpu_find_case(s->r, K_DOUBLE, s->ds, lin_name());
    if (!lin)
        return;
    kind_rows(s, K_DOUBLE, lin, "positions", NULL, NULL, 0);
    kind_rows(s, K_DOUBLE, lin, "normals", NULL, NULL, 0);
    const struct skb_method *dib = skb_method_with_flag(SKB_MF_ITERATIVE), *sb = skb_method_with_flag(SKB_MF_ROT_CENTERS);
    const struct skb_method *lg = skb_method_with_flag(SKB_MF_LOG_BLEND), *ql = skb_method_with_flag(SKB_MF_QUAT_LINEAR);
    if (dib) {   /* App. B: DIB as written over DLB, and its shortcut variants beside it */
        static const char *const variants[] = { NULL, "one", "shortcut" };
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
            char dl[64];
            skb__cpu_double_label(dl, sizeof dl, dib->name, variants[i], 0);
            other_row(s, dl, head_name());
        }
    }
    if (sb) {
        char sa[64];
        skb__cpu_double_label(sa, sizeof sa, sb->name, "sphavg", 0);
        other_row(s, sa, sb->name);
        other_row(s, sb->name, head_name());   /* DQ paper 5: DQS more than twice as fast as SBS ... */
    }
    if (lg)
        other_row(s, lg->name, head_name());   /* ... and as log-matrix blending */
    if (ql)
        other_row(s, head_name(), ql->name);   /* thesis 4.4: DQS slightly slower than QLB'0 */
}

/* the settled rows over LBS in one treatment as the map
 * {label: ratio} (LBS itself 1); the paper's methods into line */
static void ratio_map(const cJSON *rows, const char *lin, const char *treatment, cJSON *map, char *line, size_t n)
{
    size_t len = line ? strlen(line) : 0;
    const cJSON *e;
    add_estimate(map, lin, 1);
    cJSON_ArrayForEach(e, rows) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kernel"), *c = cJSON_GetObjectItemCaseSensitive(e, "control");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "treatment"), *x = cJSON_GetObjectItemCaseSensitive(e, "ratio");
        if (!cJSON_IsString(k) || !cJSON_IsString(c) || !cJSON_IsString(t) || !cJSON_IsNumber(x)
            || strcmp(c->valuestring, lin) != 0 || strcmp(t->valuestring, treatment) != 0)
            continue;
        add_estimate(map, k->valuestring, x->valuedouble);
        if (line && len < n && !strchr(k->valuestring, '+') && !strchr(k->valuestring, '@'))
            len += (size_t)snprintf(line + len, n - len, " %s=%.3f", k->valuestring, x->valuedouble);
    }
}

/* the figure's notes of a dataset o: the treatments */
static void figure_notes(cJSON *o)
{
    cJSON_AddStringToObject(o, "judged_treatment", "positions");
    cJSON_AddStringToObject(o, "treatments", "double path: positions: every method deforms the positions alone "
                            "(normals NULL), the one workload every method shares (DQ paper Fig. 18's 'skin "
                            "deformation' does not say whether it deforms normals); normals: positions and normals, "
                            "each method's own normal path (LBS renormalises its blended normal, the rigid methods "
                            "rotate it); single precision and peers: as timed (their normal option in the label)");
}

/* the dataset's sitting settled on the quiet state, its ratio maps (made
 * anew) from the settled rows, one progress line; the rows still short of
 * quiet pairs counted into *short_rows */
static void settle_dataset(struct run *r, struct ds *ds, cJSON *o, int rounds, int say, int *short_rows)
{
    cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "paired");
    struct bcase *lin = skb__cpu_find_case(r, K_DOUBLE, ds, lin_name());
    struct sitting s;
    int quick = r->ctx->quick, pairs = quick ? QUICK_PAIRS : ROUND_PAIRS;
    if (!p || !lin || sitting_resume(&s, r, ds, pairs, quick ? QUICK_SAMPLE_MS : SAMPLE_MS, p, rounds) < 0)
        return;
    skb_sitting_settle(&s.st, SKB_QUIET_TOL);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(p, "rows"), *e;
    cJSON_ArrayForEach(e, rows) {
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "quiet_pairs"), *n = cJSON_GetObjectItemCaseSensitive(e, "pairs_timed");
        if (cJSON_IsNumber(q) && cJSON_IsNumber(n))
            *short_rows += q->valuedouble < (n->valuedouble >= 2 * QUIET_WANT ? QUIET_WANT : SKB_QUIET_MIN_PAIRS);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(p, "rounds");
    cJSON_AddNumberToObject(p, "rounds", rounds);
    cJSON_DeleteItemFromObjectCaseSensitive(o, "ratio_to_linear");
    cJSON_DeleteItemFromObjectCaseSensitive(o, "ratio_to_linear_normals");
    char line[1200];
    snprintf(line, sizeof line, "paired ratios to LBS on %s (%d rounds of %d pairs, context rows %d; read on the quiet "
             "state), double path:", ds->d.name, rounds, pairs, quick ? QUICK_PAIRS : ROUND_CONTEXT_PAIRS);
    ratio_map(rows, lin->label, "positions", cJSON_AddObjectToObject(o, "ratio_to_linear"), line, sizeof line);
    ratio_map(rows, lin->label, "normals", cJSON_AddObjectToObject(o, "ratio_to_linear_normals"), NULL, 0);
    if (say)
        skb_run_progress(r->ctx, "cpu", "%s", line);
}

/* one round of every default dataset's double-path rows (round 0 begins
 * each sitting); catch_up: only the rows short of quiet pairs */
static void figure_round(struct run *r, cJSON *datasets, int round, int catch_up)
{
    int quick = r->ctx->quick, pairs = quick ? QUICK_PAIRS : ROUND_PAIRS;
    double sample_ms = quick ? QUICK_SAMPLE_MS : SAMPLE_MS;
    for (int i = 0; i < r->nds; i++) {
        struct ds *ds = r->ds + i;
        cJSON *o = cJSON_GetObjectItemCaseSensitive(datasets, ds->d.name);
        struct sitting s;
        if (ds->large || !o)   /* Figure 18 is every default dataset's; the roofline mesh is the fast kernels' */
            continue;
        if (round == 0) {
            sitting_init(&s, r, ds, pairs, sample_ms, cJSON_AddObjectToObject(o, "paired"));
            s.st.keep = 1;
            figure_notes(o);
        } else if (sitting_resume(&s, r, ds, pairs, sample_ms, cJSON_GetObjectItemCaseSensitive(o, "paired"), round) < 0)
            continue;
        s.context_pairs = quick ? 0 : ROUND_CONTEXT_PAIRS;
        s.trio_pairs = quick ? QUICK_PAIRS : TRIO_PAIRS;
        s.rounds = quick ? 1 : ROUNDS;
        s.catch_up = catch_up;
        double_rows(&s);
    }
}

void skb__cpu_paired_figure(struct run *r, cJSON *datasets)
{
    int rounds = r->ctx->quick ? 1 : ROUNDS, short_rows = 0;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    for (int round = 0; round < rounds; round++) {
        figure_round(r, datasets, round, 0);
        skb_run_progress(r->ctx, "cpu", "paired ratios, double path: round %d of %d done (%.1f s)", round + 1, rounds,
                         1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0));
    }
    for (int i = 0; i < r->nds; i++)
        if (!r->ds[i].large)
            settle_dataset(r, r->ds + i, cJSON_GetObjectItemCaseSensitive(datasets, r->ds[i].d.name), rounds, 1,
                           &short_rows);
    if (short_rows)
        skb_run_progress(r->ctx, "cpu", "%d double-path row(s) short of quiet pairs: timed again at the end of the "
                         "experiment", short_rows);
}

void skb__cpu_paired_catch_up(struct run *r, cJSON *datasets)
{
    if (r->ctx->quick)
        return;
    for (int extra = 0; extra < CATCH_UP; extra++) {
        int short_rows = 0;
        for (int i = 0; i < r->nds; i++)
            if (!r->ds[i].large) {
                int n = 0;
                settle_dataset(r, r->ds + i, cJSON_GetObjectItemCaseSensitive(datasets, r->ds[i].d.name),
                               ROUNDS + extra, extra > 0, &n);
                short_rows += n;
            }
        if (!short_rows)
            return;
        skb_run_progress(r->ctx, "cpu", "catch-up round %d of at most %d: %d double-path row(s) short of quiet pairs",
                         extra + 1, CATCH_UP, short_rows);
        figure_round(r, datasets, ROUNDS + extra, 1);
    }
    int left = 0;
    for (int i = 0; i < r->nds; i++)
        if (!r->ds[i].large)
            settle_dataset(r, r->ds + i, cJSON_GetObjectItemCaseSensitive(datasets, r->ds[i].d.name),
                           ROUNDS + CATCH_UP, 1, &left);
    if (left)
        skb_run_progress(r->ctx, "cpu", "%d double-path row(s) still short of quiet pairs after %d catch-up rounds: "
                         "their intervals are widened by the slow-down they met (\"quiet\": false)", left, CATCH_UP);
}

/* the single-precision rows, the pool's and the peers' on ds: one sitting,
 * in the "paired" object the figure's rounds began (or a new one) */
void skb__cpu_paired_ratios(struct run *r, struct ds *ds, cJSON *o)
{
    struct sitting s;
    cJSON *p = o ? cJSON_GetObjectItemCaseSensitive(o, "paired") : NULL;
    int quick = r->ctx->quick, pairs = quick ? QUICK_PAIRS : PAIRS;
    double sample_ms = quick ? QUICK_SAMPLE_MS : SAMPLE_MS;
    if (!o)
        return;
    if (!p)
        sitting_init(&s, r, ds, pairs, sample_ms, cJSON_AddObjectToObject(o, "paired"));
    else if (sitting_resume(&s, r, ds, pairs, sample_ms, p, 0) < 0)
        return;
    s.st.keep = 0;   /* context rows, one sitting: nothing to settle */
    s.context_pairs = CONTEXT_PAIRS;
    struct bcase *lin32 = skb__cpu_find_case(r, K_F32, ds, lin_name());
    if (lin32) {
        cJSON *m = cJSON_AddObjectToObject(o, "ratio_to_linear_f32");
        add_estimate(m, lin32->label, 1);
        kind_rows(&s, K_F32, lin32, "as timed", m, NULL, 0);
        pool_rows(&s, lin32, m);
        peer_rows(&s, cJSON_AddObjectToObject(o, "peer_ratio_to_ours_f32"));
    }
}

/* ---- the fast kernels ---- */

/* a pair: the kernel and its control, each LBS's (0) or DLB's (1) label
 * with a suffix; control NULL: the memcpy control */
struct pair_spec { int khead, chead; const char *kernel, *control; };

/* the roofline mesh's pairs: every one-thread kernel of control_ratios
 * (cpu_roofline.c) over the copy, and each split kernel over its method's
 * 4-slot kernel with the same normals (the control the 2x slow mode was
 * seen against: on this VM the copy's speed follows the neighbours' memory
 * traffic, a kernel's does not) */
static const struct pair_spec control_pairs[] = {
    { 0, 0, "", NULL }, { 0, 0, "@slot4", NULL }, { 0, 0, "+nrm_shader", NULL }, { 0, 0, "@plan", NULL },
    { 1, 1, "", NULL }, { 1, 1, "@slot4", NULL }, { 1, 1, "@plan", NULL },
    { 0, 0, "", "@slot4" }, { 0, 0, "+nrm_shader", "+nrm_shader@slot4" }, { 0, 0, "@plan", "@slot4" },
    { 1, 1, "", "@slot4" }, { 1, 1, "@plan", "@slot4" },
};

/* the ratios the project's fast-kernel targets are stated on
 * (reports/reference.json fast_kernel_targets), on every dataset: DLB over
 * LBS, each split kernel over its 4-slot kernel at the same normal option,
 * and each planned row over both fixed rows of its method */
static const struct pair_spec target_pairs[] = {
    { 1, 0, "", "" }, { 0, 0, "", "@slot4" }, { 0, 0, "+nrm_shader", "+nrm_shader@slot4" }, { 1, 1, "", "@slot4" },
    { 0, 0, "@plan", "" }, { 0, 0, "@plan", "@slot4" }, { 1, 1, "@plan", "" }, { 1, 1, "@plan", "@slot4" },
};

static struct bcase *pair_case(struct run *r, struct ds *ds, int head, const char *suffix, char *l, size_t n)
{
    if (!suffix) {
        snprintf(l, n, "memcpy");
        return skb__cpu_find_case(r, K_COPY, ds, "memcpy");
    }
    struct bcase *c = skb__cpu_find_case(r, K_F32, ds, label(l, n, head ? head_name() : lin_name(), suffix));
    return c && c->error >= 0 ? c : NULL;
}

/* each of spec[0..count) in the sitting, one progress line with the
 * estimates */
static void time_rows(struct sitting *s, const struct pair_spec *spec, size_t count, const char *what)
{
    char line[1200];
    int len = snprintf(line, sizeof line, "%s on %s (%d pairs):", what, s->ds->d.name, s->st.opts.pairs);
    for (size_t i = 0; i < count; i++) {
        char lk[64], lc[64];
        struct bcase *k = pair_case(s->r, s->ds, spec[i].khead, spec[i].kernel, lk, sizeof lk);
        struct bcase *c = pair_case(s->r, s->ds, spec[i].chead, spec[i].control, lc, sizeof lc);
        double est;
        if (!k || !c || sit_row(s, k, c, "as timed", &est) < 0)
            continue;
        if (len > 0 && (size_t)len < sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s/%s=%.4f", lk, lc, est);
    }
    skb_run_progress(s->r->ctx, "cpu", "%s", line);
}

void skb__cpu_paired_control(struct run *r, struct ds *ds, cJSON *o)
{
    struct sitting s;
    /* one deformation a sample: the roofline mesh takes milliseconds */
    sitting_init(&s, r, ds, r->ctx->quick ? QUICK_PAIRS : CONTROL_PAIRS, 0, o);
    cJSON_AddNumberToObject(o, "memcpy_bytes_per_vertex", LBS_F32_BYTES_PER_VERTEX);
    time_rows(&s, control_pairs, sizeof control_pairs / sizeof control_pairs[0], "paired control");
}

void skb__cpu_paired_targets(struct run *r, struct ds *ds, cJSON *fast)
{
    struct sitting s;
    cJSON *o = fast ? cJSON_AddObjectToObject(fast, "paired") : NULL;
    if (!o)
        return;
    sitting_init(&s, r, ds, r->ctx->quick ? QUICK_PAIRS : PAIRS, r->ctx->quick ? QUICK_SAMPLE_MS : SAMPLE_MS, o);
    time_rows(&s, target_pairs, sizeof target_pairs / sizeof target_pairs[0], "paired targets");
}
