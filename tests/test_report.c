/* test_report.c — reports/: results contracts and errors, the report model
 * (status of rows, new methods appear everywhere), the Mann-Whitney test
 * against brute-force enumeration, and the nightly comparison gates. */
#include <ctype.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skb_test.h"
#include "skb_json.h"
#include "skb_report.h"
#include "skb_regress.h"
#include "skb_method.h"
#include "report_internal.h"   /* skb__tbl_new: the column cap */

#define FIXTURE "tests/fixtures/run-a"
#define FIXTURE_REGRESSED "tests/fixtures/run-regressed"
#define P_TOL 1e-12

/* ---- Mann-Whitney against enumeration of every relabelling ---- */

/* exact two-sided p by enumerating all C(na+nb, na) splits (no ties) */
static double brute_p(const double *a, int na, const double *b, int nb)
{
    int n = na + nb, total = 0, extreme = 0;
    double all[16];
    for (int i = 0; i < na; i++) all[i] = a[i];
    for (int i = 0; i < nb; i++) all[na + i] = b[i];
    double u0 = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            u0 += a[i] > b[j];
    double d0 = fabs(u0 - na * nb / 2.0);
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        if (__builtin_popcount(mask) != na)
            continue;
        double u = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if ((mask >> i & 1) && !(mask >> j & 1))
                    u += all[i] > all[j];
        total++;
        extreme += fabs(u - na * nb / 2.0) >= d0 - 1e-9;
    }
    return (double)extreme / total;
}

static void test_mann_whitney_exact(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < 40; k++) {
        int na = 2 + (int)gsl_rng_uniform_int(r, 6), nb = 2 + (int)gsl_rng_uniform_int(r, 6);
        double a[8], b[8], u, p;
        double shift = gsl_rng_uniform(r) * 2;
        for (int i = 0; i < na; i++) a[i] = gsl_rng_uniform(r) + shift;
        for (int i = 0; i < nb; i++) b[i] = gsl_rng_uniform(r);
        assert_int_equal(skb_mann_whitney(a, na, b, nb, &u, &p), 0);
        assert_near(p, brute_p(a, na, b, nb), 1e-9);
    }
    gsl_rng_free(r);
    /* textbook case: complete separation of 5 and 5, p = 2/252 */
    double x[5] = { 1, 2, 3, 4, 5 }, y[5] = { 6, 7, 8, 9, 10 }, u, p;
    assert_int_equal(skb_mann_whitney(x, 5, y, 5, &u, &p), 0);
    assert_near(u, 0, 0);
    assert_near(p, 2.0 / 252, P_TOL);
    assert_int_equal(skb_mann_whitney(x, 0, y, 5, &u, &p), -1);
}

static void test_mann_whitney_ties_and_large(void **state)
{
    double a[3] = { 1, 1, 1 }, u, p;
    assert_int_equal(skb_mann_whitney(a, 3, a, 3, &u, &p), 0);
    assert_near(p, 1, P_TOL);
    /* large samples (normal approximation): same distribution gives a
     * large p, a clear shift a tiny one */
    double x[40], y[40], z[40];
    gsl_rng *r = skb_test_rng();
    for (int i = 0; i < 40; i++) {
        x[i] = gsl_rng_uniform(r);
        y[i] = gsl_rng_uniform(r);
        z[i] = gsl_rng_uniform(r) + 0.5;
    }
    assert_int_equal(skb_mann_whitney(z, 40, x, 40, &u, &p), 0);
    assert_true(p < 1e-4);
    assert_int_equal(skb_mann_whitney(x, 40, y, 40, &u, &p), 0);
    assert_true(p > 1e-3 && p <= 1);
    gsl_rng_free(r);
    assert_near(skb_median(x, 1), x[0], 0);
}

/* ---- results contracts ---- */

static char *fixture_text(const char *name, size_t *len)
{
    char path[256], *text, msg[256];
    snprintf(path, sizeof path, "%s/%s", FIXTURE, name);
    if (skb_read_file(path, &text, len, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    return text;
}

/* parse text as file kind `which`; returns rc, msg filled */
static int parse_str(int which, const char *text, char *msg, size_t msglen)
{
    cJSON *doc = NULL;
    int rc = skb_results_parse(which, "x.json", text, strlen(text), &doc, msg, msglen);
    cJSON_Delete(doc);
    return rc;
}

/* the fixture with one substring replaced */
static char *edited(const char *name, const char *from, const char *to)
{
    size_t len;
    char *t = fixture_text(name, &len), *at = strstr(t, from);
    if (!at)
        fail_msg("%s: no '%s' to edit", name, from);
    char *out = malloc(len + strlen(to) + 1);
    size_t pre = (size_t)(at - t);
    memcpy(out, t, pre);
    strcpy(out + pre, to);
    strcat(out, at + strlen(from));
    free(t);
    return out;
}

static void test_results_errors(void **state)
{
    char msg[512];
    size_t len;
    char *good = fixture_text("properties.json", &len);
    assert_int_equal(parse_str(skb_rfile_slot("properties.json"), good, msg, sizeof msg), 0);
    good[len / 2] = 0;
    assert_true(parse_str(skb_rfile_slot("properties.json"), good, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "x.json: truncated JSON"));
    free(good);
    struct { int which; const char *file, *from, *to, *expect; } cases[] = {
        { skb_rfile_slot("properties.json"), "properties.json", "\"schema_version\": 1", "\"schema_version\": 9", "\"schema_version\" is 9" },
        { skb_rfile_slot("properties.json"), "properties.json", "\"verdicts\"", "\"verdictz\"", "missing field \"verdicts\"" },
        { skb_rfile_slot("properties.json"), "properties.json", "\"rigidity\": \"-\"", "\"rigidity\": \"maybe\"", "\"verdicts\".\"linear\".\"rigidity\"" },
        { skb_rfile_slot("properties.json"), "properties.json", "\"key\": \"fixture-host/2-core\"", "\"key\": 3", "\"machine\".\"key\"" },
        { skb_rfile_slot("properties.json"), "properties.json", "\"qlb0\": {", "\"linear\": {", "appears twice" },
        { skb_rfile_slot("flops.json"), "flops.json", "\"a\": 23", "\"a\": \"many\"", "\"fits\".\"linear\"" },
        { skb_rfile_slot("cpu.json"), "cpu.json", "\"qb\": 1.3", "\"qb\": [1]", "\"ms\".\"qb\"" },
        { skb_rfile_slot("cd.json"), "cd.json", "\"scaling\"", "\"scalin\"", "missing field \"scaling\"" },
        { skb_rfile_slot("spheres.json"), "spheres.json", "\"level\": 1", "\"level\": \"one\"", "\"levels\"[0]" },
        { skb_rfile_slot("cpu-gbench.json"), "cpu-gbench.json", "\"benchmarks\"", "\"benchmark\"", "\"benchmarks\"" },
        /* a key holding a newline (found by the fuzzer) stays on one line */
        { skb_rfile_slot("flops.json"), "flops.json", "\"qlb0\": {", "\"q\\nlb0\": {\"x\": 1}, \"qlb1\": {", "\"fits\".\"q?lb0\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = edited(cases[i].file, cases[i].from, cases[i].to);
        int rc = parse_str(cases[i].which, t, msg, sizeof msg);
        free(t);
        if (rc >= 0 || !strstr(msg, cases[i].expect) || strncmp(msg, "x.json: ", 8) != 0 || strchr(msg, '\n'))
            fail_msg("case %zu: rc %d, message '%s' lacks '%s'", i, rc, msg, cases[i].expect);
    }
    assert_true(parse_str(skb_rfile_slot("cd.json"), "[1,2]", msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "top level"));
}

static void test_results_load_missing(void **state)
{
    struct skb_results r;
    char msg[512], dir[] = "/tmp/skb-test-report-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_true(skb_results_load(dir, &r, msg, sizeof msg) < 0);
    assert_non_null(strstr(msg, "no results files"));
    rmdir(dir);
    assert_int_equal(skb_results_load(FIXTURE, &r, msg, sizeof msg), 0);
    for (int i = 0; i < skb_rfile_count(); i++)
        assert_non_null(r.doc[i]);
    assert_string_equal(r.machine_key, "fixture-host/2-core");
    skb_results_free(&r);
}

/* results files are found by name, the experiment list their one
 * declaration: every declared name gives its slot's document; a name no
 * experiment declares aborts (a build mistake), never reads another slot */
static void test_results_by_name(void **state)
{
    (void)state;
    struct skb_results r;
    char msg[512];
    assert_int_equal(skb_results_load(FIXTURE, &r, msg, sizeof msg), 0);
    for (int i = 0; i < skb_rfile_count(); i++) {
        assert_int_equal(skb_rfile_slot(skb_rfile_name(i)), i);
        assert_ptr_equal(skb_results_doc(&r, skb_rfile_name(i)), r.doc[i]);
        assert_string_equal(skb_results_err(&r, skb_rfile_name(i)), "");
    }
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(skb_results_doc(&r, "cd.json"), "experiment")), "cd");
    assert_int_equal(skb_rfile_find("nope.json"), -1);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(STDERR_FILENO);   /* the abort message is expected */
        skb_results_doc(&r, "nope.json");
        _exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    skb_results_free(&r);
}

/* ---- report model ---- */

static cJSON *load_ref(void)
{
    cJSON *ref;
    char msg[512];
    if (skb_reference_load("reports/reference.json", NULL, &ref, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    return ref;
}

/* the report tests' fixture: run-a loaded, the reference, a report to build */
struct rfix {
    struct skb_results r;
    struct skb_report rep;
    cJSON *ref;
    char msg[512];
};

static int rfix_setup(void **state)
{
    struct rfix *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->ref = load_ref();
    /* the run-to-run floors of the timing intervals are measured per machine
     * (reference.json tolerance_rules.timing_interval): the tests fix their own */
    cJSON *ti = cJSON_GetObjectItem(cJSON_GetObjectItem(f->ref, "tolerance_rules"), "timing_interval");
    cJSON_ReplaceItemInObject(ti, "cpu_relative_floor", cJSON_CreateNumber(0.1));
    cJSON_ReplaceItemInObject(ti, "cd_relative_floor", cJSON_CreateNumber(0.25));
    if (skb_results_load(FIXTURE, &f->r, f->msg, sizeof f->msg) < 0) {
        cJSON_Delete(f->ref);
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int rfix_teardown(void **state)
{
    struct rfix *f = *state;
    skb_report_free(&f->rep);
    skb_results_free(&f->r);
    cJSON_Delete(f->ref);
    free(f);
    return 0;
}

/* (re)build the fixture's report from its (possibly edited) results */
static struct skb_report *rfix_build(struct rfix *f)
{
    skb_report_free(&f->rep);
    assert_int_equal(skb_report_build(&f->r, 1, f->ref, &f->rep, f->msg, sizeof f->msg), 0);
    return &f->rep;
}

static void set_num(cJSON *o, const char *k, double v);
static void set_pair(cJSON *o, const char *kernel, const char *control, const char *treatment, double v);

static const struct skb_rrow *find_row(const struct skb_rtable *t, int col, const char *a, int col2, const char *b)
{
    for (int i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].cell[col], a) == 0 && (!b || strcmp(t->rows[i].cell[col2], b) == 0))
            return &t->rows[i];
    return NULL;
}

static void test_report_statuses(void **state)
{
    struct rfix *f = *state;
    struct skb_results *r = &f->r;
    struct skb_report *rep;
    rep = rfix_build(f);
    static const char *const ids[] = { "runs", "table41", "flops", "bounds", "fig18", "fast", "table32", "fig19", "gpu",
                                       "table52", "table61", "spheretree", "table53", "table62", NULL };
    for (int i = 0; ids[i]; i++)
        assert_non_null(skb_report_table(rep, ids[i]));
    const struct skb_rtable *t = skb_report_table(rep, "table41");
    assert_int_equal(find_row(t, 0, "linear", 0, NULL)->status, SKB_ROW_REPRODUCED);
    const struct skb_rrow *q = find_row(t, 0, "qlb0", 0, NULL);
    assert_int_equal(q->status, SKB_ROW_DIFFERS);
    assert_non_null(strstr(q->note, "fixture note"));   /* the "why" from the results */
    assert_int_equal(find_row(skb_report_table(rep, "flops"), 0, "logm", 0, NULL)->status, SKB_ROW_DIFFERS);
    /* the callgrind column shows the count at the largest n that ran (before,
     * sclerp's n = 2 was "—" when n = 8 is beyond its max_n) */
    {
        cJSON *cg = cJSON_CreateObject(), *pm = cJSON_AddObjectToObject(cg, "per_method");
        cJSON *sc = cJSON_AddObjectToObject(pm, "sclerp");
        cJSON_AddNumberToObject(sc, "n2", 1485);
        cJSON_AddNumberToObject(sc, "per_blend", 1485);
        cJSON_AddNumberToObject(sc, "per_blend_n", 2);
        cJSON_AddBoolToObject(cg, "available", 1);
        cJSON_ReplaceItemInObject(r->doc[skb_rfile_slot("flops.json")], "callgrind", cg);
        rep = rfix_build(f);
        const struct skb_rrow *sr = find_row(skb_report_table(rep, "flops"), 0, "sclerp", 0, NULL);
        assert_non_null(sr);
        assert_string_equal(sr->cell[3], "1485 (n = 2)");
    }
    assert_int_equal(find_row(skb_report_table(rep, "fig18"), 0, "cloth", 1, "dlb")->status, SKB_ROW_REPRODUCED);
    /* fast kernels: f32 ratios beside Figure 18, the large mesh against the targets */
    const struct skb_rtable *fk = skb_report_table(rep, "fast");
    /* ... as context: Figure 18 is judged once, in fig18 */
    assert_int_equal(find_row(fk, 0, "cloth", 1, "dlb")->status, SKB_ROW_CONTEXT);       /* 1.35 vs 1.38 */
    assert_non_null(strstr(find_row(fk, 0, "cloth", 1, "dlb")->note, "judged once"));
    assert_int_equal(find_row(fk, 0, "cloth", 1, "qb")->status, SKB_ROW_CONTEXT);        /* 2.5 vs 1.27 */
    assert_non_null(strstr(find_row(fk, 0, "body/sub4", 1, "dlb / linear (f32)")->note, "not met"));
    /* 0.6 of the roofline against the target of 0.85 */
    assert_non_null(strstr(find_row(fk, 0, "body/sub4", 1, "linear (f32) fraction of the copy roofline")->note, ": not met"));
    assert_int_equal(find_row(skb_report_table(rep, "bounds"), 0, "DLB vs DIB: largest vertex gap in skinning", 0, NULL)->status,
                     SKB_ROW_NOT_RUN);
    const struct skb_rtable *s = skb_report_table(rep, "table53");
    assert_int_equal(find_row(s, 0, "colliding", 1, "trend")->status, SKB_ROW_REPRODUCED);
    assert_int_equal(find_row(s, 0, "collision-free", 1, "trend")->status, SKB_ROW_REPRODUCED);
    /* scenarios: per-method objects and flat times both reach the table */
    const struct skb_rtable *sc62 = skb_report_table(rep, "table62");
    assert_int_equal(find_row(sc62, 0, "men_full", 1, "linear")->status, SKB_ROW_REPRODUCED);
    assert_int_equal(find_row(sc62, 0, "men_full", 1, "dlb")->status, SKB_ROW_NEW);
    assert_non_null(strstr(find_row(sc62, 0, "men_full", 1, "sb")->note,
                           "sphere-sphere tests per frame: 900 on demand, 1100 bottom-up (82 %); 150 spheres refitted"));
    assert_non_null(strstr(find_row(sc62, 0, "men_full", 1, "sb")->note,
                           "farthest rotation centre per pose: median 0.5, max 12 x the model's reach"));
    assert_null(strstr(find_row(sc62, 0, "men_full", 1, "sb")->note, "Alg. 6.1"));
    /* the flat shape (no paired timing): shown, not judged */
    assert_int_equal(find_row(sc62, 0, "creatures through each other (yes/no)", 1, "sb")->status, SKB_ROW_NOT_RUN);
    assert_non_null(strstr(find_row(sc62, 0, "creatures through each other (yes/no)", 1, "sb")->note, "pair by pair"));
    assert_int_equal(find_row(sc62, 0, "Crowd of 50 creatures", 1, "linear")->status, SKB_ROW_NOT_RUN);
    /* the rendered pages name every table and carry no NaN */
    char *buf = NULL;
    size_t n = 0;
    FILE *page = open_memstream(&buf, &n);
    assert_int_equal(skb_report_render_html(rep, NULL, page), 0);
    assert_int_equal(skb_report_render_md(rep, page), 0);
    fclose(page);
    assert_non_null(strstr(buf, "id=\"t-table62\""));
    assert_null(strstr(buf, "nan"));
    free(buf);
    /* a trend that does not grow is reported as differing */
    cJSON *sc = cJSON_GetObjectItem(r->doc[skb_rfile_slot("cd.json")], "scaling");
    set_pair(cJSON_GetObjectItem(cJSON_GetArrayItem(sc, 3), "colliding"), "bottom_up", "on_demand", NULL, 1);
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "table53"), 0, "colliding", 1, "trend")->status, SKB_ROW_DIFFERS);
}

static void set_num(cJSON *o, const char *k, double v)
{
    assert_non_null(cJSON_GetObjectItem(o, k));
    cJSON_ReplaceItemInObject(o, k, cJSON_CreateNumber(v));
}

/* the ratio kernel / control (treatment NULL: the first) of o's paired
 * rows set to v, its interval +-2 % around it */
static void set_pair(cJSON *o, const char *kernel, const char *control, const char *treatment, double v)
{
    cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(cJSON_GetObjectItem(o, "paired"), "rows")) {
        const char *k = cJSON_GetStringValue(cJSON_GetObjectItem(row, "kernel"));
        const char *c = cJSON_GetStringValue(cJSON_GetObjectItem(row, "control"));
        const char *tr = cJSON_GetStringValue(cJSON_GetObjectItem(row, "treatment"));
        if (k && c && strcmp(k, kernel) == 0 && strcmp(c, control) == 0 && (!treatment || (tr && strcmp(tr, treatment) == 0))) {
            set_num(row, "ratio", v);
            set_num(row, "ci_low", v * 0.98);
            set_num(row, "ci_high", v * 1.02);
            return;
        }
    }
    fail_msg("no paired row %s / %s", kernel, control);
}

/* Table 6.2: the same side of 1 is not enough, a 5x miss of the paper's
 * ratio differs; each speed-up is the pairs' (with their A/A floor, 1 %
 * here, and the declared minimum), and no driver value accounts for a gap
 * (the paper gives no refit or test cost): never "differs (setup)" */
static void test_report_scenario_factor(void **state)
{
    struct rfix *f = *state;
    cJSON *lbs = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                                         f->r.doc[skb_rfile_slot("cd.json")], "scenarios"), "men_full"), "methods"), "linear");
    set_pair(lbs, "bottom_up", "on_demand", NULL, 10);   /* against the paper's 13.6 / 0.27 = 50.4 */
    const struct skb_rrow *r = find_row(skb_report_table(rfix_build(f), "table62"), 0, "men_full", 1, "linear");
    /* the band is [50.4 / 3, 151]: 10 (pairs [9.8, 10.2], widened by 2 %) is outside */
    assert_int_equal(r->status, SKB_ROW_DIFFERS);
    assert_non_null(strstr(r->note, "rule order_factor: measured 10, paired interval [9.8, 10.2] widened by 2 % to "
                                    "[9.608, 10.4], band [16.79, 151.1]"));
    assert_non_null(strstr(r->note, "CPU generation"));
    set_pair(lbs, "bottom_up", "on_demand", NULL, 30);   /* a factor of 1.68: inside */
    r = find_row(skb_report_table(rfix_build(f), "table62"), 0, "men_full", 1, "linear");
    assert_int_equal(r->status, SKB_ROW_REPRODUCED);
    set_pair(lbs, "bottom_up", "on_demand", NULL, 17);   /* inside, but its widened interval crosses 16.8 */
    r = find_row(skb_report_table(rfix_build(f), "table62"), 0, "men_full", 1, "linear");
    assert_int_equal(r->status, SKB_ROW_INCONCLUSIVE);
    /* SBS on demand slower than bottom-up: the note gives cd.json's counts, not a cause it cannot show */
    cJSON *sbs = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                                         f->r.doc[skb_rfile_slot("cd.json")], "scenarios"), "men_full"), "methods"), "sb");
    set_pair(sbs, "bottom_up", "on_demand", NULL, 0.5);
    r = find_row(skb_report_table(rfix_build(f), "table62"), 0, "men_full", 1, "sb");
    assert_int_equal(r->status, SKB_ROW_DIFFERS);
    if (!strstr(r->note, "margin -") ||
        !strstr(r->note, "on-demand was 2 x slower (paired): it still made 82 % of bottom-up's sphere tests") ||
        strstr(r->note, "Alg. 6.1"))
        fail_msg("sbs note: %s", r->note);
}

/* Table 6.2's SBS row says what SBS did for its centres on the scenario's
 * model (spheres.json sbs_centres): trivial sets, SVDs, the bound; the LBS
 * row says nothing of centres, and nothing names Alg. 6.1 as a cause */
static void test_report_sbs_centres_note(void **state)
{
    struct rfix *f = *state;
    cJSON *men = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cd.json")], "scenarios"), "men_full");
    cJSON_AddStringToObject(men, "model", "capsule_human");
    cJSON *c = cJSON_AddObjectToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("spheres.json")], "datasets"),
                                                           "capsule_human"), "sbs_centres");
    static const struct { const char *k; double v; } kv[] = {
        { "poses", 120 }, { "joint_sets", 95 }, { "trivial_min", 43 }, { "trivial_max", 45 }, { "solved_min", 50 },
        { "solved_max", 52 }, { "regularised_max", 3 }, { "centre_bound_extents", 2 }, { "centre_offset_max_reach", 0.64 },
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        cJSON_AddNumberToObject(c, kv[i].k, kv[i].v);
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "table62");
    const char *n = find_row(t, 0, "men_full", 1, "sb")->note;
    if (!strstr(n, "SBS centres on capsule_human over 120 poses (spheres.json): 95 joint sets, 43-45 trivial") ||
        !strstr(n, "at most 52 solved by SVD, at most 3 of those cut by the bound (centre within 2 set extents") ||
        !strstr(n, "farthest centre 0.64 model reaches from its set") || strstr(n, "Alg. 6.1"))
        fail_msg("sbs note: %s", n);
    assert_null(strstr(find_row(t, 0, "men_full", 1, "linear")->note, "SBS centres"));
}

/* the largest time share in a note: a number before " %" that follows
 * "ms (" (a part of a time) or "~" (the old estimated shares) */
static double max_time_share(const char *note)
{
    double mx = -1;
    for (const char *p = strstr(note, " %"); p; p = strstr(p + 1, " %")) {
        const char *q = p;
        while (q > note && (isdigit((unsigned char)q[-1]) || q[-1] == '.'))
            q--;
        if (q == p)
            continue;
        if ((q - note >= 4 && strncmp(q - 4, "ms (", 4) == 0) || (q > note && q[-1] == '~'))
            mx = fmax(mx, strtod(q, NULL));
    }
    return mx;
}

/* a time share over 100 % is never printed (spheres.json's mean
 * pass time against cd.json's best frame gave "~424 %"): the shares come
 * from cd.json's own split, and a part timed apart that exceeds its whole
 * is shown without a share */
static void test_report_no_share_over_100(void **state)
{
    struct rfix *f = *state;
    cJSON *men = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cd.json")], "scenarios"), "men_full");
    cJSON_AddStringToObject(men, "model", "capsule_human");
    cJSON_AddNumberToObject(men, "spheres_per_body", 13346);
    cJSON_AddNumberToObject(men, "bodies", 2);
    /* spheres.json: 0.6 us per sphere bottom-up, 13346 x 2 x 0.6 us = 16 ms > the 11 ms frame */
    cJSON *rt = cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(
                                            f->r.doc[skb_rfile_slot("spheres.json")], "datasets"), "capsule_human"), "refit_time"), "sb");
    cJSON_AddNumberToObject(rt, "on_demand_us_per_sphere", 2.0);
    cJSON_AddNumberToObject(rt, "bottom_up_us_per_sphere", 0.6);
    const char *n = find_row(skb_report_table(rfix_build(f), "table62"), 0, "men_full", 1, "sb")->note;
    if (!(max_time_share(n) <= 100))
        fail_msg("share over 100 %%: %s", n);
    /* cd.json's split: shares of their own frame; a re-timed part larger than its whole gets no share */
    cJSON *sbs = cJSON_GetObjectItem(cJSON_GetObjectItem(men, "methods"), "sb");
    static const struct { const char *k; double v; } kv[] = {
        { "on_demand_prepare_ms", 0.05 }, { "on_demand_query_ms", 0.3 }, { "bottom_up_prepare_skin_refit_ms", 9.0 },
        { "bottom_up_query_ms", 2.0 }, { "on_demand_cpu_ms", 0.3 }, { "bottom_up_cpu_ms", 10.0 },
        { "bottom_up_prepare_skin_refit_cpu_ms", 8.0 }, { "on_demand_refit_cpu_ms_retimed", 0.5 },
        { "on_demand_skin_cpu_ms_retimed", 0.01 },
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        cJSON_AddNumberToObject(sbs, kv[i].k, kv[i].v);
    n = find_row(skb_report_table(rfix_build(f), "table62"), 0, "men_full", 1, "sb")->note;
    if (!(max_time_share(n) <= 100) || !strstr(n, "bottom-up 11 ms = prepare, skin and refit everything 9 ms (82 %) + query 2 ms (18 %)")
        || !strstr(n, "refits re-timed after the query (CPU, warm) 0.5 ms, more than the 0.3 ms it is part of (timed apart): no share")
        || !strstr(n, "CPU time per sphere: 3.33 µs per on-demand refit, 0.3 µs per sphere for bottom-up's prepare, skin and "
                      "refit of everything (x11.1)")
        || !strstr(n, "on demand 0.3 ms (waited for a core 0.05 ms), bottom-up 10 ms (waited 1 ms;")
        || strstr(n, "bottom-up / on-demand in CPU time")   /* one number per ratio: the pairs' */
        || !strstr(n, "bottom-up's query alone is 2 ms of CPU time, so with a query no cheaper than bottom-up's on demand "
                      "could be at most 5 x faster in CPU time"))
        fail_msg("sbs note: %s", n);
}

/* a differing sphere row gives what was measured beside it at the same
 * level and posture: LBS's ratio and the exact minimal spheres',
 * each against the paper's; a paper ratio below our best is said to be
 * out of reach of any sphere of our deformation */
static void test_report_sphere_evidence(void **state)
{
    struct rfix *f = *state;
    /* fixture level 1: reference 15, lbs 18, sbs 18.75, best 14.7; paper sbs 2.30 */
    const struct skb_rrow *r = find_row(skb_report_table(rfix_build(f), "table61"), 1, "1", 2, "sb");
    /* the posture measured by best / reference (0.98 here, 0.996 in the paper) does not account for
     * 1.25 against 2.30: carried to the paper's posture the ratio is 1.27, still outside: differs */
    assert_int_equal(r->status, SKB_ROW_DIFFERS);
    if (!strstr(r->cause, "posture: best / reference 0.98 here against the paper's 0.996")
        || !strstr(r->cause, "1.25 x 0.996 / 0.98 = 1.27, still outside the rule: the posture does not account"))
        fail_msg("sbs cause: %s", r->cause);
    if (!strstr(r->note, "same level and posture:") || !strstr(r->note, "reference radius avg 15 (paper 34.5)")
        || !strstr(r->note, "LBS / reference 1.2 (paper 2.09), so sb / LBS 1.04 (paper 1.1)")
        || !strstr(r->note, "best (exact minimal spheres of the same deformation) / reference 0.98 (paper 0.996); sb / best 1.28")
        || strstr(r->note, "no bounding sphere"))
        fail_msg("sbs note: %s", r->note);
    /* a reproduced row carries no evidence note */
    assert_int_equal(find_row(skb_report_table(rfix_build(f), "table61"), 1, "3", 2, "sb")->status, SKB_ROW_REPRODUCED);
    assert_null(strstr(find_row(skb_report_table(rfix_build(f), "table61"), 1, "3", 2, "sb")->note, "same level"));
    cJSON *l1 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                                       f->r.doc[skb_rfile_slot("spheres.json")], "datasets"), "capsule_human"), "levels"), 0);
    set_num(cJSON_GetObjectItem(l1, "best"), "avg", 37.5);   /* 2.5 x the reference: above the paper's 2.30 */
    set_num(cJSON_GetObjectItem(l1, "sb"), "avg", 60);
    r = find_row(skb_report_table(rfix_build(f), "table61"), 1, "1", 2, "sb");
    assert_int_equal(r->status, SKB_ROW_DIFFERS);   /* 4 x 0.996 / 2.5 = 1.59: not the posture's */
    if (!strstr(r->note, "the paper's ratio is below our best: no bounding sphere of this deformation reaches it"))
        fail_msg("sbs note: %s", r->note);
    /* a posture that accounts for the gap: best / reference 0.54 where the paper's is 0.996, the
     * ratio 1.25 carried to the paper's posture 1.25 x 0.996 / 0.54 = 2.31 against 2.30: differs (setup) */
    set_num(cJSON_GetObjectItem(l1, "best"), "avg", 8.1);
    set_num(cJSON_GetObjectItem(l1, "sb"), "avg", 18.75);
    r = find_row(skb_report_table(rfix_build(f), "table61"), 1, "1", 2, "sb");
    assert_int_equal(r->status, SKB_ROW_DIFFERS_SETUP);
    if (!strstr(r->cause, "1.25 x 0.996 / 0.54 = 2.31, within the rule: the posture accounts for the gap"))
        fail_msg("sbs cause: %s", r->cause);
}

/* Table 5.3: a series that grows but misses one level's paper speed-up 5x differs */
static void test_report_scaling_factor(void **state)
{
    struct rfix *f = *state;
    cJSON *sc = cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cd.json")], "scaling");
    set_pair(cJSON_GetObjectItem(cJSON_GetArrayItem(sc, 0), "colliding"), "bottom_up", "on_demand", NULL, 3.9 / 5);
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "table53");
    const struct skb_rrow *tr = find_row(t, 0, "colliding", 1, "trend");
    /* the trend is its own rule: the series still grows */
    assert_int_equal(tr->status, SKB_ROW_REPRODUCED);
    assert_non_null(strstr(tr->note, "speed-up grows with the subdivision level"));
    /* the level is judged by order_factor: 0.78 is on the wrong side of 1;
     * the sphere-test proportion (0.5 here, 0.511 in the paper) does not
     * account for it, so it differs, with the arithmetic */
    const struct skb_rrow *l0 = find_row(t, 0, "colliding", 1, "0");
    assert_int_equal(l0->status, SKB_ROW_DIFFERS);
    if (!strstr(l0->note, "rule order_factor: measured 0.78")
        || !strstr(l0->cause, "sphere tests on demand / bottom-up 3000 / 6000 = 0.5 here")
        || !strstr(l0->cause, "does not account for the gap"))
        fail_msg("level 0 note: %s", l0->note);
    assert_int_equal(find_row(t, 0, "collision-free", 1, "trend")->status, SKB_ROW_REPRODUCED);
    /* the trend names the model and its skinning (rigid: the thesis's dwarf);
     * the skinned series is context beside it, never judged */
    cJSON *setup = cJSON_AddObjectToObject(f->r.doc[skb_rfile_slot("cd.json")], "scaling_setup");
    cJSON_AddStringToObject(setup, "model", "creature_rigid");
    cJSON_AddStringToObject(setup, "skinning", "rigid (one joint per vertex)");
    cJSON *sk = cJSON_AddArrayToObject(f->r.doc[skb_rfile_slot("cd.json")], "scaling_skinned");
    cJSON_AddItemToArray(sk, cJSON_Duplicate(cJSON_GetArrayItem(sc, 0), 1));
    t = skb_report_table(rfix_build(f), "table53");
    assert_non_null(strstr(find_row(t, 0, "colliding", 1, "trend")->note, "creature_rigid, rigid (one joint per vertex)"));
    const struct skb_rrow *ctx = find_row(t, 0, "colliding, skinned", 1, "0");
    assert_int_equal(ctx->status, SKB_ROW_CONTEXT);
    assert_non_null(strstr(ctx->note, "not judged"));
}

/* sphere rows where nothing grew are "reproduced (trivial)" and not counted as reproduced */
static void test_report_sphere_trivial(void **state)
{
    struct rfix *f = *state;
    struct skb_report *rep = rfix_build(f);
    /* "best" (the minimal spheres of the posture) describes the posture: context */
    const struct skb_rrow *r = find_row(skb_report_table(rep, "table52"), 1, "5", 2, "best");
    assert_int_equal(r->status, SKB_ROW_CONTEXT);
    /* the fixture's last level is 5, where the paper's LBS is 1.77 / 1.69 = 1.047: both ~1 */
    cJSON *l5 = NULL, *lv;
    cJSON_ArrayForEach(lv, cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                               f->r.doc[skb_rfile_slot("spheres.json")], "datasets"), "capsule_human"), "levels"))
        l5 = lv;
    double ref = cJSON_GetObjectItem(cJSON_GetObjectItem(l5, "reference"), "avg")->valuedouble;
    set_num(cJSON_GetObjectItem(l5, "linear"), "avg", ref * 1.02);
    rep = rfix_build(f);
    r = find_row(skb_report_table(rep, "table52"), 1, "5", 2, "linear");
    assert_non_null(r);
    assert_int_equal(r->status, SKB_ROW_TRIVIAL);
    assert_string_equal(skb_row_status_name(r->status), "reproduced (trivial)");
    assert_non_null(strstr(r->note, "agrees trivially"));
    assert_true(rep->count[SKB_ROW_TRIVIAL] > 0);
    /* without the band the row is judged by its excess: 0.02 against the paper's 0.047 is outside x2 */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(f->ref, "spheres"), "trivial_band", cJSON_CreateNumber(0));
    rep = rfix_build(f);
    assert_int_equal(rep->count[SKB_ROW_TRIVIAL], 0);
    assert_int_equal(find_row(skb_report_table(rep, "table52"), 1, "5", 2, "linear")->status, SKB_ROW_DIFFERS_SETUP);
}

/* one posture per table: Table 6.1 reads spheres.json's
 * "postures"."table_6_1" levels and its rows name that posture; Table 5.2
 * keeps the dataset's levels and names its own posture */
static void test_report_sphere_postures(void **state)
{
    struct rfix *f = *state;
    cJSON *ds = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("spheres.json")], "datasets"), "capsule_human");
    cJSON *levels = cJSON_Duplicate(cJSON_GetObjectItem(ds, "levels"), 1);
    cJSON *l1 = cJSON_GetArrayItem(levels, 0);
    set_num(cJSON_GetObjectItem(l1, "sb"), "avg", 34.5);   /* 2.3 x the reference 15 */
    cJSON *posts = cJSON_AddObjectToObject(ds, "postures");
    cJSON *p61 = cJSON_AddObjectToObject(posts, "table_6_1");
    cJSON_AddStringToObject(p61, "posture", "walk pose 3 with the neck twisted 90 deg");
    cJSON_AddItemToObject(p61, "levels", levels);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(posts, "table_5_2"), "posture", "walk pose 3");
    struct skb_report *rep = rfix_build(f);
    const struct skb_rrow *r = find_row(skb_report_table(rep, "table61"), 1, "1", 2, "sb");
    assert_string_equal(r->cell[6], "2.3");
    assert_non_null(strstr(r->note, "posture: walk pose 3 with the neck twisted 90 deg"));
    r = find_row(skb_report_table(rep, "table52"), 1, "1", 2, "linear");
    assert_non_null(strstr(r->note, "posture: walk pose 3"));
    assert_null(strstr(r->note, "neck"));
    assert_null(find_row(skb_report_table(rep, "table52"), 1, "1", 2, "sb"));   /* SBS judged once: Table 6.1 */
}

/* Table 3.2: each row names the paper range(s) its SBS/LBS ratio falls in, or neither */
/* the fast table shows what each kernel's time covers (layout,
 * normals, threads, influence histogram, bytes/vertex, roofline fraction),
 * the peers with what they do, and the targets met or not, with the
 * bandwidth and load beside the pool's scaling */
static void test_report_fast_targets(void **state)
{
    struct rfix *f = *state;
    cJSON *doc = f->r.doc[skb_rfile_slot("cpu.json")];
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "datasets"), "cloth");
    cJSON *arm = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "datasets"), "arm");
    cJSON *lm = cJSON_GetObjectItem(doc, "large_mesh");
    cJSON_AddItemToObject(cloth, "checks", cJSON_Parse(
        "{\"f32\": {\"linear\": {\"layout\": \"split\", \"normals\": \"renormalise\", \"threads\": 1,"
        " \"influence_histogram\": [2700, 1948, 324, 1028], \"bytes_per_vertex\": 55.68}}}"));
    cJSON_AddItemToObject(cloth, "fast_kernels", cJSON_Parse(
        "{\"split_speedup_over_slot4\": {\"linear\": 1.62, \"linear+nrm_shader\": 1.41}, \"dlb_over_linear\": 1.04}"));
    cJSON_AddItemToObject(arm, "fast_kernels", cJSON_Parse("{\"dlb_over_linear\": 1.17}"));
    cJSON_AddItemToObject(lm, "fast_kernels", cJSON_Parse(
        "{\"pool_scaling\": {\"linear+nrm_shader\": {\"speedup\": 1.2}}}"));
    cJSON *rf = cJSON_GetObjectItem(lm, "roofline");
    cJSON_AddNumberToObject(rf, "linear_nrm_shader_f32_fraction_of_roofline", 0.95);
    cJSON_AddNumberToObject(rf, "copy_bandwidth_scaling", 1.1);
    cJSON_AddItemToObject(lm, "peers_ms", cJSON_Parse("{\"textbook_lbs\": 6}"));
    cJSON_AddItemToObject(doc, "peers", cJSON_Parse(
        "{\"textbook_lbs\": {\"description\": \"textbook LBS\", \"reference\": \"linear\", \"layout\": \"AoS\","
        " \"normals\": \"renormalised by sqrt\", \"threads\": 1}}"));
    cJSON_AddItemToObject(doc, "cpus", cJSON_Parse("{\"available\": 2, \"load_average_1min_after\": 9.5}"));
    /* the reference's dataset for the split target, here cloth */
    cJSON *tg = cJSON_GetObjectItem(f->ref, "fast_kernel_targets");
    cJSON_ReplaceItemInObject(tg, "split_speedup_dataset", cJSON_CreateString("cloth"));
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "fast");
    const struct skb_rrow *r = find_row(t, 0, "cloth", 1, "linear");
    assert_string_equal(r->cell[2], "split · normals: renormalise · 1 thread");
    assert_string_equal(r->cell[3], "2700 / 1948 / 324 / 1028");
    assert_non_null(strstr(find_row(t, 0, "cloth", 1, "LBS split / 4-slot speed-up, renormalised")->note, ": met"));
    assert_non_null(strstr(find_row(t, 0, "cloth", 1, "LBS split / 4-slot speed-up, normals to the shader")->note,
                           "not met"));
    r = find_row(t, 0, "arm", 1, "dlb / linear (f32), worst dataset");   /* the worst of 1.04 and 1.17 */
    assert_non_null(r);
    assert_non_null(strstr(r->note, "not met"));
    assert_non_null(strstr(find_row(t, 0, "body/sub4", 1, "LBS (f32, normals to the shader) fraction of the copy "
                                    "roofline")->note, ": met"));
    r = find_row(t, 0, "body/sub4", 1, "pool / one thread throughput, LBS normals to the shader (wall time)");
    assert_non_null(strstr(r->note, "not met"));
    assert_non_null(strstr(r->note, "1.1 x one thread's bytes per second"));
    assert_non_null(strstr(r->note, "load average 9.5 on 2 CPUs"));
    r = find_row(t, 0, "body/sub4", 1, "peer textbook_lbs");
    assert_non_null(r);
    assert_non_null(strstr(r->cell[2], "renormalised by sqrt · 1 thread"));
    assert_non_null(strstr(r->note, "layout: AoS"));
}

/* a paired ratio (cpu.json fast_kernels.paired) decides a target by its
 * interval widened by this run's A/A floor (aa_floor) or the declared
 * minimum, the larger: met only when the whole interval is on the target's
 * side, not met when it is wholly beyond, undecided when it crosses */
static cJSON *paired_rows(const char *kernel, const char *control, double r, double lo, double hi, double aa)
{
    char buf[400];
    snprintf(buf, sizeof buf, "{\"paired\": {\"rows\": [{\"kernel\": \"%s\", \"control\": \"%s\", \"ratio\": %g, "
             "\"ci_low\": %g, \"ci_high\": %g}]}}", kernel, control, r, lo, hi);
    cJSON *o = cJSON_Parse(buf);
    if (!isnan(aa))   /* NAN: no A/A beside the pairs */
        cJSON_AddNumberToObject(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "paired"), "rows"), 0),
                                "aa_floor", aa);
    return o;
}

/* the declared minimum floor of the fixture's reference set to m */
static void set_min_floor(struct rfix *f, double m)
{
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cJSON_GetObjectItem(f->ref, "tolerance_rules"), "timing_interval"),
                              "paired_min_floor", cJSON_CreateNumber(m));
}

static const char *dlb_worst_note(struct rfix *f, double arm, double lo, double hi, double floor, const char **where)
{
    cJSON *doc = f->r.doc[skb_rfile_slot("cpu.json")], *ds = cJSON_GetObjectItem(doc, "datasets");
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(ds, "cloth"), "fast_kernels");
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(ds, "arm"), "fast_kernels");
    cJSON_AddItemToObject(cJSON_GetObjectItem(ds, "cloth"), "fast_kernels", paired_rows("dlb", "linear", 1.0, 0.99, 1.01, 0));
    cJSON_AddItemToObject(cJSON_GetObjectItem(ds, "arm"), "fast_kernels", paired_rows("dlb", "linear", arm, lo, hi, floor));
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "fast");
    for (int i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].cell[1], "dlb / linear (f32), worst dataset") == 0) {
            *where = t->rows[i].cell[0];
            return t->rows[i].note;
        }
    return "";
}

static void test_report_fast_targets_paired(void **state)
{
    struct rfix *f = *state;
    const char *where = NULL;
    set_min_floor(f, 0);
    /* target <= 1.1 on every dataset; cloth 1.0 [0.99, 1.01] beside arm */
    assert_non_null(strstr(dlb_worst_note(f, 1.05, 1.03, 1.07, 0, &where), ": met: interval [1.03, 1.07]"));
    assert_string_equal(where, "arm");
    assert_non_null(strstr(dlb_worst_note(f, 1.12, 1.08, 1.16, 0, &where), "undecided: interval [1.08, 1.16] crosses"));
    assert_non_null(strstr(dlb_worst_note(f, 1.14, 1.11, 1.16, 0, &where), "not met: interval [1.11, 1.16]"));
    /* this run's A/A floor widens a narrow interval: 1.07 * 1.1 > 1.1 */
    assert_non_null(strstr(dlb_worst_note(f, 1.05, 1.03, 1.07, 0.1, &where), "undecided"));
    /* and so does the declared minimum, when it is the larger */
    set_min_floor(f, 0.1);
    assert_non_null(strstr(dlb_worst_note(f, 1.05, 1.03, 1.07, 0, &where), "undecided"));
    set_min_floor(f, 0);
    /* no A/A beside the pairs: nothing is decided on them */
    assert_non_null(strstr(dlb_worst_note(f, 1.05, 1.03, 1.07, NAN, &where), "undecided"));
    /* the split speed-up is the paired ratio turned over: 1 / 0.6 [1 / 0.62, 1 / 0.58] (no floor) */
    set_min_floor(f, 0);
    cJSON *doc = f->r.doc[skb_rfile_slot("cpu.json")];
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "datasets"), "cloth");
    cJSON_DeleteItemFromObject(cloth, "fast_kernels");
    cJSON_AddItemToObject(cloth, "fast_kernels", paired_rows("linear", "linear@slot4", 0.6, 0.58, 0.62, 0));
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(f->ref, "fast_kernel_targets"), "split_speedup_dataset",
                              cJSON_CreateString("cloth"));
    /* the roofline fraction from the pairs with memcpy: 58 / 144 / 0.7 (no floor) */
    cJSON *lm = cJSON_GetObjectItem(doc, "large_mesh");
    cJSON_AddItemToObject(lm, "paired_control", cJSON_Parse(
        "{\"memcpy_bytes_per_vertex\": 72, \"rows\": [{\"kernel\": \"linear\", \"control\": \"memcpy\", \"ratio\": 0.7,"
        " \"ci_low\": 0.68, \"ci_high\": 0.72, \"aa_floor\": 0}]}"));
    cJSON_AddItemToObject(lm, "checks", cJSON_Parse("{\"f32\": {\"linear\": {\"bytes_per_vertex\": 58}}}"));
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "fast");
    const struct skb_rrow *r = find_row(t, 0, "cloth", 1, "LBS split / 4-slot speed-up, renormalised");
    assert_string_equal(r->cell[6], "1.667");
    assert_non_null(strstr(r->note, ": met: interval [1.613, 1.724]"));
    r = find_row(t, 0, "body/sub4", 1, "linear (f32) fraction of the copy roofline");
    assert_string_equal(r->cell[6], "0.5754");
    assert_non_null(strstr(r->note, ": not met: interval [0.5594, 0.5923]"));   /* target 0.85 */
}

/* the planned row against its method's two fixed rows, pair by pair in the
 * same run, by this run's interval alone (the target is about one run):
 * at most 1.05 x the faster fixed row */
static const char *plan_note(struct rfix *f, double r, double lo, double hi)
{
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cpu.json")], "datasets"), "cloth");
    char buf[700];
    snprintf(buf, sizeof buf, "{\"plans\": {\"linear@plan\": {\"choice\": \"split/auto/vertex\", \"source\": \"measured\"}},"
             " \"paired\": {\"rows\": [{\"kernel\": \"linear@plan\", \"control\": \"linear\", \"ratio\": %g, \"ci_low\": %g,"
             " \"ci_high\": %g}, {\"kernel\": \"linear@plan\", \"control\": \"linear@slot4\", \"ratio\": 0.6,"
             " \"ci_low\": 0.58, \"ci_high\": 0.62}]}}", r, lo, hi);
    cJSON_DeleteItemFromObject(cloth, "fast_kernels");
    cJSON_AddItemToObject(cloth, "fast_kernels", cJSON_Parse(buf));
    const struct skb_rrow *row = find_row(skb_report_table(rfix_build(f), "fast_plan"), 0, "cloth", 1, "linear@plan");
    return row ? row->note : "";
}

static void test_report_plan_paired(void **state)
{
    struct rfix *f = *state;
    assert_non_null(strstr(plan_note(f, 1.02, 1.0, 1.04), "this run (project target, not a paper value): met;"));
    assert_non_null(strstr(plan_note(f, 1.04, 1.02, 1.07), ": undecided;"));
    assert_non_null(strstr(plan_note(f, 1.08, 1.06, 1.1), ": not met;"));
    assert_non_null(strstr(plan_note(f, 1.08, 1.06, 1.1), "paired with linear 1.08 (95 % interval 1.06 – 1.1)"));
}

/* a pooled kernel's row and the pool target say what fraction of
 * the pool's copy bandwidth it reaches and whether that is what stops it */
static void test_report_fast_pool_limit(void **state)
{
    struct rfix *f = *state;
    cJSON *lm = cJSON_GetObjectItem(skb_results_doc(&f->r, "cpu.json"), "large_mesh");
    static const char *lim = "linear+nrm_shader@2t runs 1.20x one thread's throughput and reaches 0.55 of the 2-thread "
                             "copy bandwidth, which itself scales 1.10x over one thread: below the copy limit, so it is not the bandwidth that stops it";
    cJSON *fk = cJSON_Parse("{\"pool_scaling\": {\"linear+nrm_shader\": {\"speedup\": 1.2}}}");
    cJSON_AddStringToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(fk, "pool_scaling"), "linear+nrm_shader"),
                            "limit", lim);
    cJSON_AddItemToObject(lm, "fast_kernels", fk);
    cJSON_ReplaceItemInObject(lm, "ms_f32", cJSON_Parse("{\"linear\": 5, \"linear+nrm_shader@2t\": 2}"));
    cJSON_AddItemToObject(lm, "checks", cJSON_Parse("{\"f32\": {\"linear+nrm_shader@2t\": {\"threads\": 2}}}"));
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "fast");
    assert_non_null(strstr(find_row(t, 0, "body/sub4", 1, "linear+nrm_shader@2t")->note, lim));
    assert_non_null(strstr(find_row(t, 0, "body/sub4", 1, "pool / one thread throughput, LBS normals to the shader "
                                    "(wall time)")->note, lim));
}

static void test_report_table32_ranges(void **state)
{
    struct rfix *f = *state;
    cJSON *arm = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cpu.json")], "datasets"), "arm");
    /* one paper's range per row: the thesis's 1.93-2.16 (1.925-2.165 printed) widened 25 % ([1.444, 2.706]) is
     * judged; 003's range (the same models on an Athlon) is a context row, never joined to it.  SBS / LBS
     * is Figure 18's paired ratio, its +-2 % interval widened by the declared 2 %; no QLB'0 pair in the
     * fixture, so no SVD arithmetic: a row outside the band differs */
    static const struct { double sb; int st; } c[] = {
        { 1.3, SKB_ROW_DIFFERS }, { 2.0, SKB_ROW_REPRODUCED }, { 1.45, SKB_ROW_INCONCLUSIVE },
        { 2.65, SKB_ROW_INCONCLUSIVE }, { 3.5, SKB_ROW_DIFFERS }, { 0.9, SKB_ROW_DIFFERS },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        set_pair(arm, "sb", "linear", "positions", c[i].sb);
        const struct skb_rtable *t = skb_report_table(rfix_build(f), "table32");
        const struct skb_rrow *r = find_row(t, 0, "arm", 5, "1.93–2.16 (000)"), *x = find_row(t, 0, "arm", 5, "1.26–1.35 (003)");
        assert_non_null(r);
        assert_non_null(x);
        if (r->status != c[i].st)
            fail_msg("sb %g: %s (%s)", c[i].sb, skb_row_status_name(r->status), r->note);
        assert_non_null(strstr(r->note, "rule range"));
        assert_int_equal(x->status, SKB_ROW_CONTEXT);
    }
}

/* Figure 18: exactly one judged row per paper method and
 * dataset; other variants of the method ("dlb+alg2") are context rows that
 * say which variant they are; DIB / DLB carries the iteration histogram */
static void test_report_fig18_one_verdict(void **state)
{
    struct rfix *f = *state;
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cpu.json")], "datasets"), "cloth");
    cJSON *ms = cJSON_GetObjectItem(cloth, "ms");
    cJSON_AddNumberToObject(ms, "dlb+alg2", 9.9);
    cJSON_DeleteItemFromObject(cloth, "checks");
    cJSON *chk = cJSON_AddObjectToObject(cJSON_AddObjectToObject(cloth, "checks"), "double");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(chk, "dlb"), "variant", "double, pre-computed (fixture)");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(chk, "dlb+alg2"), "variant", "double, Algorithm 2 (fixture)");
    cJSON *w = cJSON_AddObjectToObject(cloth, "dib_work");
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(w, "iterations_histogram"), "0", 77);
    cJSON_AddNumberToObject(w, "logs_per_vertex", 1.5);
    const struct skb_rtable *t = skb_report_table(rfix_build(f), "fig18");
    int judged = 0;
    for (int i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].cell[0], "cloth") == 0 && strncmp(t->rows[i].cell[1], "dlb", 3) == 0
            && t->rows[i].status != SKB_ROW_CONTEXT && t->rows[i].status != SKB_ROW_NEW)
            judged++;
    assert_int_equal(judged, 1);
    const struct skb_rrow *j = find_row(t, 0, "cloth", 1, "dlb"), *c = find_row(t, 0, "cloth", 1, "dlb+alg2");
    assert_int_equal(j->status, SKB_ROW_REPRODUCED);
    assert_string_equal(j->cell[2], "double, pre-computed (fixture)");
    assert_int_equal(c->status, SKB_ROW_CONTEXT);
    assert_string_equal(c->cell[2], "double, Algorithm 2 (fixture)");
    assert_non_null(strstr(c->cell[6], "1.38"));   /* the paper ratio stays beside it */
    assert_non_null(strstr(find_row(t, 0, "cloth", 1, "dib / dlb")->note, "iterations per vertex {0: 77}"));
    /* DIB / DLB: no driver value accounts for a gap, judged as measured */
    const struct skb_rrow *dd = find_row(t, 0, "cloth", 1, "dib / dlb");
    assert_null(dd->cause);
    assert_int_equal(dd->status, SKB_ROW_REPRODUCED);   /* fixture 4 / 1.35 = 2.96 */
    /* SBS's driver, its SVDs: SBS - QLB'0 here against the paper's SBS - QB (2.95 - 1.27); with QLB'0 at
     * 1.1 and SBS at 1.2, 1.1 + 1.68 = 2.78 lands in the band: the SVD count accounts for the gap */
    set_pair(cloth, "sb", "linear", "positions", 1.2);
    cJSON_AddItemToArray(cJSON_GetObjectItem(cJSON_GetObjectItem(cloth, "paired"), "rows"),
                         cJSON_Parse("{\"kernel\": \"qlb0\", \"control\": \"linear\", \"treatment\": \"positions\", "
                                     "\"ratio\": 1.1, \"ci_low\": 1.08, \"ci_high\": 1.12, \"aa_floor\": 0.01}"));
    const struct skb_rrow *sb = find_row(skb_report_table(rfix_build(f), "fig18"), 0, "cloth", 1, "sb");
    assert_int_equal(sb->status, SKB_ROW_DIFFERS_SETUP);
    assert_non_null(strstr(sb->cause, "1.1 + 1.68 = 2.78, inside the band"));
    /* ... and with QLB'0 at 3.5 it would not: the row differs */
    set_pair(cloth, "qlb0", "linear", "positions", 3.5);
    sb = find_row(skb_report_table(rfix_build(f), "fig18"), 0, "cloth", 1, "sb");
    assert_int_equal(sb->status, SKB_ROW_DIFFERS);
    assert_non_null(strstr(sb->cause, "does not account for the gap"));
    /* the interval: the pairs' own, widened by the A/A floor (1 %) or the declared 2 % */
    set_pair(cloth, "dlb", "linear", "positions", 1.35);
    cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(cJSON_GetObjectItem(cloth, "paired"), "rows"))
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "kernel")), "dlb") == 0
            && strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "control")), "linear") == 0) {
            set_num(row, "ci_low", 1.0);
            set_num(row, "ci_high", 1.9);
        }
    j = find_row(skb_report_table(rfix_build(f), "fig18"), 0, "cloth", 1, "dlb");
    assert_true(j->judged && fabs(j->v.lo - 1.0 / 1.02) < 1e-12 && fabs(j->v.hi - 1.9 * 1.02) < 1e-12);
    assert_int_equal(j->status, SKB_ROW_INCONCLUSIVE);   /* 1.35 in [1.19, 1.77], its interval is not */
    assert_non_null(strstr(j->note, "paired interval [1, 1.9] widened by 2 %"));
}

/* Table 5.2: the paper's order (bottom-up looser than on-demand LBS) is a
 * row of its own, judged by "ordering" */
static void test_report_sphere_ordering(void **state)
{
    struct rfix *f = *state;
    const struct skb_rrow *r = find_row(skb_report_table(rfix_build(f), "table52"), 1, "1", 2, "bottom_up / lbs");
    assert_non_null(r);
    assert_int_equal(r->status, SKB_ROW_REPRODUCED);   /* fixture 21 / 18 = 1.17 */
    cJSON *l1 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                                       f->r.doc[skb_rfile_slot("spheres.json")], "datasets"), "capsule_human"), "levels"), 0);
    set_num(cJSON_GetObjectItem(l1, "bottom_up"), "avg", 18);   /* as tight as on demand: the order is lost */
    r = find_row(skb_report_table(rfix_build(f), "table52"), 1, "1", 2, "bottom_up / lbs");
    assert_int_equal(r->status, SKB_ROW_DIFFERS);
    assert_non_null(strstr(r->note, "rule ordering: measured 1, band ["));
}

/* a method added only in the results shows up in every table that lists methods */
static void test_report_new_method_everywhere(void **state)
{
    struct rfix *f = *state;
    struct skb_results *r = &f->r;
    struct skb_report *rep;
    cJSON *v = cJSON_Duplicate(cJSON_GetObjectItem(cJSON_GetObjectItem(r->doc[skb_rfile_slot("properties.json")], "verdicts"), "dlb"), 1);
    cJSON_AddItemToObject(cJSON_GetObjectItem(r->doc[skb_rfile_slot("properties.json")], "verdicts"), "newblend", v);
    cJSON *fit = cJSON_CreateObject();
    cJSON_AddNumberToObject(fit, "a", 10);
    cJSON_AddNumberToObject(fit, "b", 5);
    cJSON_AddItemToObject(cJSON_GetObjectItem(r->doc[skb_rfile_slot("flops.json")], "fits"), "newblend", fit);
    cJSON *ds = cJSON_GetObjectItem(cJSON_GetObjectItem(r->doc[skb_rfile_slot("cpu.json")], "datasets"), "arm");
    cJSON_AddNumberToObject(cJSON_GetObjectItem(ds, "ms"), "newblend", 1.1);
    cJSON_AddNumberToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(r->doc[skb_rfile_slot("gpu.json")], "ms"), "arm"), "newblend", 0.7);
    cJSON_AddNumberToObject(cJSON_GetObjectItem(r->doc[skb_rfile_slot("gpu.json")], "instructions"), "newblend", 44);
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "table41"), 0, "newblend", 0, NULL)->status, SKB_ROW_NEW);
    assert_int_equal(find_row(skb_report_table(rep, "flops"), 0, "newblend", 0, NULL)->status, SKB_ROW_NEW);
    assert_non_null(find_row(skb_report_table(rep, "fig18"), 0, "arm", 1, "newblend"));
    assert_non_null(find_row(skb_report_table(rep, "gpu"), 0, "arm", 1, "newblend"));
    assert_non_null(find_row(skb_report_table(rep, "fig19"), 0, "newblend", 0, NULL));
    /* and its sphere refit (spheres.json "dlb" is not a paper column) */
    assert_non_null(find_row(skb_report_table(rep, "table61"), 0, "capsule_human", 2, "dlb"));
}

/* FLOP rows: a count at or below the thesis's at every n = 1..8 is "fewer
 * than paper" (linear's 24n - 12 against 23n), one above it at some n
 * "differs"; the counter's rules from flops.json are in the table intro */
static void test_report_flops_fewer(void **state)
{
    struct rfix *f = *state;
    cJSON *flops = f->r.doc[skb_rfile_slot("flops.json")], *fits = cJSON_GetObjectItem(flops, "fits");
    cJSON *lin = cJSON_GetObjectItem(fits, "linear"), *logm = cJSON_GetObjectItem(fits, "logm");
    cJSON_SetNumberValue(cJSON_GetObjectItem(lin, "a"), 24);
    cJSON_SetNumberValue(cJSON_GetObjectItem(lin, "b"), -12);
    cJSON_SetNumberValue(cJSON_GetObjectItem(logm, "a"), 66);
    cJSON_SetNumberValue(cJSON_GetObjectItem(logm, "b"), 137);
    cJSON *rules = cJSON_AddObjectToObject(flops, "counting_rules");
    cJSON *free_ops = cJSON_AddObjectToObject(rules, "free");
    cJSON_AddStringToObject(free_ops, "operations", "negation -a");
    cJSON_AddStringToObject(free_ops, "counted", "not a FLOP");
    struct skb_report *rep = rfix_build(f);
    const struct skb_rtable *t = skb_report_table(rep, "flops");
    const struct skb_rrow *l = find_row(t, 0, "linear", 0, NULL);
    assert_int_equal(l->status, SKB_ROW_FEWER);
    assert_non_null(strstr(l->note, "fewer FLOPs than the thesis"));
    assert_int_equal(find_row(t, 0, "logm", 0, NULL)->status, SKB_ROW_FEWER);
    assert_non_null(strstr(t->intro, "free: negation -a — not a FLOP"));
    /* one coefficient up: above 23n at n = 8 (25*8 - 12 = 188 > 184) */
    cJSON_SetNumberValue(cJSON_GetObjectItem(lin, "a"), 25);
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "flops"), 0, "linear", 0, NULL)->status, SKB_ROW_DIFFERS);
}

/* DQ paper Fig. 1: logm / dlb and sb / dlb are judged once gpu.json has
 * both times; sb's per-pose CPU centres are named in the note, with the
 * ratio they would give, and whether sb's ms includes them */
static void test_report_figure_1(void **state)
{
    struct rfix *f = *state;
    struct skb_results *r = &f->r;
    struct skb_report *rep;
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "gpu"), 0, "arm", 1, "sb / dlb")->status, SKB_ROW_NOT_RUN);
    cJSON *gpu = r->doc[skb_rfile_slot("gpu.json")], *arm = cJSON_GetObjectItem(cJSON_GetObjectItem(gpu, "ms"), "arm");
    cJSON_AddNumberToObject(arm, "logm", 1.38);   /* dlb 0.6: 2.3, within 25 % of 2.325 */
    cJSON_AddNumberToObject(arm, "sb", 0.6);      /* 1.0: differs from 2.214 */
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(gpu, "sb_cpu_center_ms"), "arm", 0.72);
    cJSON_AddFalseToObject(gpu, "sb_ms_includes_cpu_center");
    /* the fixture's renderer is llvmpipe: its ratios are context, not judged
     *, by the flag and by the renderer string alone */
    rep = rfix_build(f);
    const struct skb_rrow *sw = find_row(skb_report_table(rep, "gpu"), 0, "arm", 1, "sb / dlb");
    assert_int_equal(sw->status, SKB_ROW_CONTEXT);
    assert_non_null(strstr(sw->note, "until a hardware renderer runs it"));
    cJSON_ReplaceItemInObject(gpu, "software_renderer", cJSON_CreateFalse());
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "gpu"), 0, "arm", 1, "logm / dlb")->status, SKB_ROW_CONTEXT);
    cJSON_ReplaceItemInObject(gpu, "renderer", cJSON_CreateString("softpipe"));
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "gpu"), 0, "arm", 1, "logm / dlb")->status, SKB_ROW_CONTEXT);
    /* on a hardware renderer the vertex path's medians are still context:
     * Figure 1 is judged on the compute path's dispatch pairs */
    cJSON_ReplaceItemInObject(gpu, "renderer", cJSON_CreateString("NVIDIA GeForce (fixture)"));
    rep = rfix_build(f);
    const struct skb_rtable *t = skb_report_table(rep, "gpu");
    assert_int_equal(find_row(t, 0, "arm", 1, "logm / dlb")->status, SKB_ROW_CONTEXT);
    assert_non_null(strstr(find_row(t, 0, "arm", 1, "logm / dlb")->note, "compute path's dispatch pairs"));
    const struct skb_rrow *sb = find_row(t, 0, "arm", 1, "sb / dlb");
    assert_non_null(strstr(sb->note, "GPU draw only"));
    assert_non_null(strstr(sb->note, "with them 2.2"));   /* (0.6 + 0.72) / 0.6 */
    assert_int_equal(find_row(t, 0, "cloth", 1, "sb / dlb")->status, SKB_ROW_NOT_RUN);
    cJSON_ReplaceItemInObject(gpu, "sb_ms_includes_cpu_center", cJSON_CreateTrue());
    rep = rfix_build(f);
    assert_non_null(strstr(find_row(skb_report_table(rep, "gpu"), 0, "arm", 1, "sb / dlb")->note,
                           "includes its per-pose CPU centres"));
    /* the compute path's pairs: logm / dlb 2.3 within 25 % of 2.325, sb / dlb 1.0 differs from 2.214 */
    cJSON *fp = cJSON_AddObjectToObject(cJSON_AddObjectToObject(gpu, "compute"), "fig1_paired");
    cJSON_AddNumberToObject(fp, "vertices", 1000);
    cJSON *rows = cJSON_AddArrayToObject(fp, "rows");
    static const struct { const char *k; double v; } pr[] = { { "logm", 2.3 }, { "sb", 1.0 } };
    for (int i = 0; i < 2; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "kernel", pr[i].k);
        cJSON_AddStringToObject(row, "control", "dlb");
        cJSON_AddNumberToObject(row, "ratio", pr[i].v);
        cJSON_AddNumberToObject(row, "ci_low", pr[i].v * 0.99);
        cJSON_AddNumberToObject(row, "ci_high", pr[i].v * 1.01);
        cJSON_AddNumberToObject(row, "aa_floor", 0.01);
        cJSON_AddItemToArray(rows, row);
    }
    rep = rfix_build(f);
    t = skb_report_table(rep, "gpu");
    assert_int_equal(find_row(t, 0, "compute, 1000 vertices", 1, "logm / dlb")->status, SKB_ROW_REPRODUCED);
    assert_int_equal(find_row(t, 0, "compute, 1000 vertices", 1, "sb / dlb")->status, SKB_ROW_DIFFERS);
    /* and on a software renderer they are context */
    cJSON_ReplaceItemInObject(gpu, "renderer", cJSON_CreateString("llvmpipe (fixture)"));
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "gpu"), 0, "compute, 1000 vertices", 1, "sb / dlb")->status,
                     SKB_ROW_CONTEXT);
}

/* where each paper number comes from, as the seeds say it */
static void test_report_attributions(void **state)
{
    struct rfix *f = *state;
    cJSON_AddNumberToObject(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("gpu.json")], "instructions"), "dlb_scale", 90);
    struct skb_report *rep = rfix_build(f);
    const struct skb_rtable *b = skb_report_table(rep, "bounds");
    for (int i = 0; i < b->nrows; i++)
        if (strstr(b->rows[i].cell[0], "DIB iterations on")) {
            assert_non_null(strstr(b->rows[i].cell[4], "seed 000, thesis 4.3"));
            assert_null(strstr(b->rows[i].cell[4], "seed 001"));
        }
    assert_non_null(strstr(skb_report_table(rep, "fig18")->source, "pre-computed antipodality"));
    assert_non_null(strstr(find_row(skb_report_table(rep, "fig19"), 0, "dlb_scale", 0, NULL)->note, "43 for DLB"));
    assert_non_null(strstr(skb_report_table(rep, "table62")->source, "bottom-up times and the crowd from thesis 5.4"));
    const struct skb_rtable *st = skb_report_table(rep, "spheretree");
    for (int c = 0; c < st->ncols; c++)
        assert_null(strstr(st->col[c], "creature"));
}

static const struct skb_headline *find_headline(const struct skb_report *rep, const char *claim)
{
    for (int i = 0; i < rep->nheadline; i++)
        if (strstr(rep->headline[i].claim, claim))
            return &rep->headline[i];
    fail_msg("no headline claim \"%s\"", claim);
    return NULL;
}

static char *render_page(const struct skb_report *rep, int html)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *page = open_memstream(&buf, &n);
    assert_int_equal(html ? skb_report_render_html(rep, NULL, page) : skb_report_render_md(rep, page), 0);
    fclose(page);
    return buf;
}

/* the first screen sums up the rows the tables judged, one row per
 * reference.json claim, linked to its section; it follows a changed row
 * rather than judging on its own; --quick runs carry a warning */
static void test_report_headline(void **state)
{
    struct rfix *f = *state;
    struct skb_report *rep = rfix_build(f);
    assert_int_equal(rep->nheadline, cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(f->ref, "headline"), "claims")));
    const struct skb_headline *h = find_headline(rep, "DLB costs 1.38× LBS on the CPU");
    assert_string_equal(h->table, "fig18");
    assert_int_equal(h->status, SKB_ROW_REPRODUCED);
    assert_string_equal(h->measured, "1.35");
    assert_string_equal(h->paper, "1.38");
    assert_non_null(strstr(h->rows, "2 rows: 2 reproduced"));
    h = find_headline(rep, "Properties of 7 blending methods");
    assert_int_equal(h->status, SKB_HEAD_MIXED);
    assert_non_null(strstr(h->rows, "differs: qlb0"));
    /* one dataset's DLB now 2x LBS: its fig18 row differs, and so the claim is mixed */
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cpu.json")], "datasets"), "cloth");
    set_num(cJSON_GetObjectItem(cloth, "ms"), "dlb", 6.0);
    set_pair(cloth, "dlb", "linear", "positions", 2.0);
    rep = rfix_build(f);
    assert_int_equal(find_row(skb_report_table(rep, "fig18"), 0, "cloth", 1, "dlb")->status, SKB_ROW_DIFFERS);
    h = find_headline(rep, "DLB costs 1.38× LBS on the CPU");
    assert_int_equal(h->status, SKB_HEAD_MIXED);
    assert_non_null(strstr(h->rows, "1 reproduced, 1 differs; differs: cloth"));
    assert_non_null(strstr(h->measured, "1.35–2 (median"));
    /* the pages: headline first, linked, every section with an id, a TOC, the quick warning */
    char *html = render_page(rep, 1), *md = render_page(rep, 0);
    char *head = strstr(html, "id=\"t-headline\""), *first = strstr(html, "id=\"t-runs\"");
    assert_non_null(head);
    assert_true(head < first);
    assert_non_null(strstr(html, "<a href=\"#s-fig18\">DLB costs 1.38× LBS on the CPU</a>"));
    assert_non_null(strstr(html, "<h2 id=\"s-fig18\">"));
    assert_non_null(strstr(html, "<nav id=\"toc\">"));
    assert_non_null(strstr(html, "id=\"quick-warning\""));
    assert_true(strstr(html, "id=\"quick-warning\"") < head);
    assert_non_null(strstr(md, "[DLB costs 1.38× LBS on the CPU](#s-fig18)"));
    assert_non_null(strstr(md, "> **Warning: 1 of 1**"));
    assert_true(strstr(md, "## Headline claims") < strstr(md, "## Runs"));
    free(html);
    free(md);
    /* not from --quick: no warning */
    for (int i = 0; i < skb_rfile_count(); i++)
        if (f->r.doc[i] && cJSON_GetObjectItem(f->r.doc[i], "quick"))
            cJSON_ReplaceItemInObject(f->r.doc[i], "quick", cJSON_CreateFalse());
    rep = rfix_build(f);
    assert_int_equal(rep->quick, 0);
    html = render_page(rep, 1);
    assert_null(strstr(html, "quick-warning"));
    free(html);
}

/* a list cell holds no empty item and no stray separator */
static void assert_clean_list(const char *s)
{
    size_t n = strlen(s);
    assert_null(strstr(s, ", ,"));
    assert_null(strstr(s, " ,"));
    assert_false(n >= 1 && (s[n - 1] == ',' || s[n - 1] == ' ' || s[0] == ','));
}

/* the headline's cells never contradict its status: a claim that is not
 * reproduced shows in its measured cell the rule, value and band that
 * decided it; a count is worded by status; lists have no empty items; a
 * one-line verdict over the claims' statuses heads the table */
static void test_report_headline_cells(void **state)
{
    struct rfix *f = *state;
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cpu.json")], "datasets"), "cloth");
    set_num(cJSON_GetObjectItem(cloth, "ms"), "dlb", 6.0);
    set_pair(cloth, "dlb", "linear", "positions", 2.0);
    struct skb_report *rep = rfix_build(f);
    const struct skb_headline *h = find_headline(rep, "DLB costs 1.38× LBS on the CPU");
    assert_int_equal(h->status, SKB_HEAD_MIXED);
    assert_non_null(strstr(h->measured, "decided by cloth: 2 outside band [1.19, 1.77] (rule excess)"));
    h = find_headline(rep, "Properties of 7 blending methods");
    assert_non_null(strstr(h->rows, "1 differs"));
    assert_non_null(strstr(h->measured, "judged rows reproduced, 1 differs"));
    assert_non_null(strstr(h->measured, "decided by qlb0:"));
    /* the judged total is the sum of the judged statuses, not of every row */
    int rr = -1, nj = -1;
    assert_int_equal(sscanf(h->measured, "%d of %d judged", &rr, &nj), 2);
    assert_int_equal(nj, rr + 1);
    h = find_headline(rep, "Vertex-shader instructions relative to LBS");
    assert_clean_list(h->measured);
    assert_clean_list(h->paper);
    for (int i = 0; i < rep->nheadline; i++)
        if (rep->headline[i].status == SKB_ROW_REPRODUCED)
            assert_null(strstr(rep->headline[i].measured, "decided by"));
    /* the overall line counts the same statuses as the table */
    int count[SKB_HEAD_NONE + 1] = { 0 };
    for (int i = 0; i < rep->nheadline; i++)
        count[rep->headline[i].status]++;
    char want[200], line[600];
    skb_headline_overall(rep, line, sizeof line);
    int judged = rep->nheadline - count[SKB_HEAD_NONE] - count[SKB_ROW_CONTEXT];
    snprintf(want, sizeof want, "Of %d judged claims: %d reproduced", judged, count[SKB_ROW_REPRODUCED]);
    assert_non_null(strstr(line, want));
    snprintf(want, sizeof want, "%d mixed", count[SKB_HEAD_MIXED]);
    assert_true(!count[SKB_HEAD_MIXED] || strstr(line, want));
    char *md = render_page(rep, 0), *html = render_page(rep, 1);
    assert_non_null(strstr(md, line));
    assert_true(strstr(md, line) < strstr(md, "| claim | source |"));
    assert_non_null(strstr(html, "id=\"headline-overall\""));
    free(md);
    free(html);
}

/* the CPU table as a dataset x method grid — each cell the row's
 * measured ratio with the row's status; the rows (and notes) are still there */
static void test_report_grid(void **state)
{
    struct rfix *f = *state;
    cJSON *cloth = cJSON_GetObjectItem(cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("cpu.json")], "datasets"), "cloth");
    set_pair(cloth, "dlb", "linear", "positions", 2.0);
    struct skb_report *rep = rfix_build(f);
    char *html = render_page(rep, 1), *md = render_page(rep, 0);
    char *grid = strstr(html, "<table class=\"grid\" id=\"g-fig18\">"), *rows = strstr(html, "<table id=\"t-fig18\">");
    assert_non_null(grid);
    assert_non_null(rows);
    assert_true(grid < rows);
    /* more methods than datasets: one line per method, its paper value beside it */
    assert_non_null(strstr(grid, "<tr><th>dlb</th><td class=\"src\">1.38</td>"));
    char *grid_end = strstr(grid, "</table>");
    assert_non_null(grid_end);
    *grid_end = '\0';   /* no line for rows without a dataset: they are listed under the grid */
    assert_null(strstr(grid, "<th>—</th>"));
    *grid_end = '<';
    char *cell = strstr(grid, "<td class=\"differs\" title=\"differs: rule excess: measured 2");
    assert_non_null(cell);
    assert_true(cell < rows);
    assert_non_null(strstr(cell, ">2</td>"));
    /* a long note shows one line on the page, the rest one click away; report.md keeps it whole */
    const char *fold = strstr(rows, "<details class=\"fold\"><summary>more …</summary>");
    assert_non_null(fold);
    assert_non_null(strstr(md, "rule excess: measured 2"));
    assert_non_null(strstr(md, "| cloth | 1 |"));
    assert_non_null(strstr(md, " 2 ✗ |"));
    free(html);
    free(md);
}

/* the bibliography names every seed id; the coverage table lists
 * the seeds' tables and figures, each section it names linked */
static void test_report_coverage(void **state)
{
    struct rfix *f = *state;
    struct skb_report *rep = rfix_build(f);
    const struct skb_rtable *b = skb_report_table(rep, "bibliography"), *c = skb_report_table(rep, "coverage");
    assert_non_null(b);
    assert_non_null(c);
    assert_true(b->unjudged && c->unjudged);
    static const char *const seeds[] = { "000", "001", "002", "003", "004" };
    for (int i = 0; i < 5; i++)
        assert_non_null(find_row(b, 0, seeds[i], 0, NULL));
    assert_string_equal(find_row(b, 0, "001", 0, NULL)->cell[1], "Geometric Skinning with Approximate Dual Quaternion Blending");
    const struct skb_rrow *t71 = find_row(c, 0, "000", 1, "Table 7.1");
    assert_non_null(t71);
    assert_string_equal(t71->cell[3], "context");
    assert_string_equal(find_row(c, 0, "000", 1, "Table 5.3")->cell[3], "partly judged");
    /* every section a coverage row names exists in the report */
    for (int r = 0; r < c->nrows; r++) {
        const char *sec = c->rows[r].cell[4];
        if (*sec && strcmp(sec, "images") != 0 && strcmp(sec, "pictures") != 0)
            assert_non_null(skb_report_table(rep, sec));
    }
    char *html = render_page(rep, 1);
    assert_non_null(strstr(html, "<td><a href=\"#s-table53\">table53</a></td>"));
    free(html);
}

static void test_report_not_run(void **state)
{
    struct rfix *f = *state;
    struct skb_results *r = &f->r;
    struct skb_report *rep;
    cJSON_Delete(r->doc[skb_rfile_slot("gpu.json")]);
    r->doc[skb_rfile_slot("gpu.json")] = NULL;
    snprintf(r->err[skb_rfile_slot("cd.json")], sizeof r->err[skb_rfile_slot("cd.json")], "cd.json: truncated JSON");
    cJSON_Delete(r->doc[skb_rfile_slot("cd.json")]);
    r->doc[skb_rfile_slot("cd.json")] = NULL;
    rep = rfix_build(f);
    const struct skb_rtable *g = skb_report_table(rep, "fig19");
    /* the "all" row, then one row per registry method saying the same */
    assert_int_equal(g->nrows, 1 + skb_method_count());
    for (int i = 0; i < g->nrows; i++) {
        assert_int_equal(g->rows[i].status, SKB_ROW_NOT_RUN);
        assert_non_null(strstr(g->rows[i].note, "gpu.json not found"));
    }
    const struct skb_rtable *c = skb_report_table(rep, "table62");
    assert_int_equal(c->rows[0].status, SKB_ROW_NOT_RUN);
    assert_non_null(strstr(c->rows[0].note, "unreadable: cd.json: truncated JSON"));
}

/* the row of table t whose cells include `name`, NULL if none */
static const struct skb_rrow *row_naming(const struct skb_rtable *t, const char *name)
{
    for (int i = 0; i < t->nrows; i++)
        for (int c = 0; c < t->ncols; c++)
            if (strcmp(t->rows[i].cell[c], name) == 0)
                return &t->rows[i];
    return NULL;
}

/* every registry method has a row in every per-method table: a number, or
 * "not applicable" with the reason its hooks give */
static void test_report_every_method(void **state)
{
    struct rfix *f = *state;
    struct skb_report *rep = rfix_build(f);
    static const struct { const char *table, *method, *why; } want[] = {
        { "fast", "sb", "no f32 kernel" },
        { "fig19", "qlb0", "no shader" },
        { "gpu", "dib", "no shader" },
        { "table62", "qb", "no refit hook: bottom-up only" },
        { "table41", "dlb_scale", "no blend form: skin only" },
        { "fig18", "sclerp", "no skin path: blend only" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct skb_rtable *t = skb_report_table(rep, want[i].table);
        assert_non_null(t);
        const struct skb_rrow *r = row_naming(t, want[i].method);
        if (!r)
            fail_msg("table %s has no row for %s", want[i].table, want[i].method);
        assert_int_equal(r->status, SKB_ROW_NA);
        assert_non_null(strstr(r->note, want[i].why));
    }
    /* and every method in every per-method section of every experiment */
    for (int e = 0; skb_experiment_list[e]; e++)
        for (int s = 0; skb_experiment_list[e]->sections && skb_experiment_list[e]->sections[s].build; s++) {
            const struct skb_report_section *sec = &skb_experiment_list[e]->sections[s];
            if (sec->need == SKB_NEED_NONE)
                continue;
            const struct skb_rtable *t = skb_report_table(rep, sec->id);
            assert_non_null(t);
            for (int m = 0; skb_methods[m]; m++) {
                int seen = 0;
                for (int i = 0; i < t->nrows && !seen; i++)
                    for (int c = 0; c < t->ncols && !seen; c++)
                        seen = strstr(t->rows[i].cell[c], skb_methods[m]->name) != NULL
                               || strstr(t->rows[i].note, skb_methods[m]->name) != NULL;
                if (!seen && strcmp(skb_methods[m]->name, "linear") && strcmp(skb_methods[m]->name, "sb"))
                    fail_msg("section %s has no row for method %s", sec->id, skb_methods[m]->name);
            }
        }
}

/* a results file no experiment declares is counted and named, never
 * ignored; compare's own summaries are not results */
static void test_results_unknown_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/skb-unknown-XXXXXX", path[256], msg[512];
    assert_non_null(mkdtemp(dir));
    static const char *const names[] = { "x.json", "compare.json", "notes.txt", NULL };
    for (int i = 0; names[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *fp = fopen(path, "w");
        assert_non_null(fp);
        fputs("{}", fp);
        fclose(fp);
    }
    struct skb_results r;
    /* only unknown files: still "no results files" */
    assert_true(skb_results_load(dir, &r, msg, sizeof msg) < 0);
    snprintf(path, sizeof path, "cp %s/properties.json %s/", FIXTURE, dir);
    assert_int_equal(system(path), 0);
    assert_int_equal(skb_results_load(dir, &r, msg, sizeof msg), 0);
    assert_int_equal(r.nunknown, 1);
    assert_string_equal(r.unknown[0], "x.json");
    cJSON *ref = load_ref();
    struct skb_report *rep = calloc(1, sizeof *rep);
    assert_int_equal(skb_report_build(&r, 1, ref, rep, msg, sizeof msg), 0);
    const struct skb_rrow *row = row_naming(skb_report_table(rep, "runs"), "unknown results files");
    assert_non_null(row);
    assert_string_equal(row->cell[1], "x.json");
    skb_report_free(rep);
    free(rep);
    cJSON_Delete(ref);
    skb_results_free(&r);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
}

/* a table wider than SKB_RMAXCOLS fails the report loudly (never a dropped column) */
static void test_report_column_cap(void **state)
{
    (void)state;
    static struct skb_results r;
    struct skb_report rep;
    const char *cols[SKB_RMAXCOLS + 2];
    for (int i = 0; i <= SKB_RMAXCOLS; i++)
        cols[i] = "c";
    cols[SKB_RMAXCOLS + 1] = NULL;
    memset(&rep, 0, sizeof rep);
    rep.nruns = 1;
    rep.runs = &r;
    assert_null(skb__tbl_new(&rep, "wide", "too wide", "", NULL, cols));
    assert_non_null(strstr(rep.overflow, "table wide has 15 columns, more than SKB_RMAXCOLS = 14"));
    cols[SKB_RMAXCOLS] = NULL;
    rep.overflow[0] = 0;
    assert_non_null(skb__tbl_new(&rep, "fits", "14 columns", "", NULL, cols));
    assert_int_equal(rep.overflow[0], 0);
    /* and tables grow past any fixed count */
    for (int i = 0; i < 40; i++)
        assert_non_null(skb__tbl_new(&rep, "more", "more", "", NULL, cols));
    assert_int_equal(rep.ntables, 41);
    skb_report_free(&rep);
}

/* more methods than a table can list fails the report naming the limit */
static void test_report_method_cap(void **state)
{
    struct rfix *f = *state;
    cJSON *other = cJSON_GetObjectItem(f->r.doc[skb_rfile_slot("properties.json")], "verdicts");
    assert_non_null(other);
    for (int i = 0; i < 300; i++) {
        char name[32];
        snprintf(name, sizeof name, "extra%d", i);
        cJSON *m = cJSON_AddObjectToObject(other, name);
        cJSON_AddStringToObject(m, "rigidity", "+");
    }
    skb_report_free(&f->rep);
    assert_true(skb_report_build(&f->r, 1, f->ref, &f->rep, f->msg, sizeof f->msg) < 0);
    assert_non_null(strstr(f->msg, "properties.json lists more than 256 methods"));
}

/* two machines merge into one report: every table gains a machine column */
static void test_report_two_machines(void **state)
{
    static struct skb_results r[2];
    struct skb_report *rep = calloc(1, sizeof *rep);
    char msg[512];
    cJSON *ref = load_ref();
    assert_int_equal(skb_results_load(FIXTURE, &r[0], msg, sizeof msg), 0);
    assert_int_equal(skb_results_load(FIXTURE, &r[1], msg, sizeof msg), 0);
    strcpy(r[1].machine_key, "other/8-core");
    assert_int_equal(skb_report_build(r, 2, ref, rep, msg, sizeof msg), 0);
    const struct skb_rtable *t = skb_report_table(rep, "table41");
    assert_string_equal(t->col[0], "machine");
    assert_non_null(find_row(t, 0, "other/8-core", 1, "dlb"));
    assert_non_null(find_row(t, 0, "fixture-host/2-core", 1, "dlb"));
    skb_report_free(rep);
    free(rep);
    skb_results_free(&r[0]);
    skb_results_free(&r[1]);
    cJSON_Delete(ref);
}

/* ---- compare ---- */

/* compare run a against run b (b edited first by edit, when given; rerun
 * may be NULL): the summary in *sum, the regression count returned */
static int compare_edited(const char *a, const char *b, const char *rerun, void (*edit)(struct skb_results *),
                          cJSON **sum)
{
    static struct skb_results ra, rb, rr;
    char msg[512];
    struct skb_compare_opts o = { 0.01, 0.05, 0, NULL, NULL };
    assert_int_equal(skb_results_load(a, &ra, msg, sizeof msg), 0);
    assert_int_equal(skb_results_load(b, &rb, msg, sizeof msg), 0);
    if (rerun)
        assert_int_equal(skb_results_load(rerun, &rr, msg, sizeof msg), 0);
    if (edit)
        edit(&rb);
    FILE *devnull = fopen("/dev/null", "w");
    int n = skb_compare_run(&ra, &rb, rerun ? &rr : NULL, &o, devnull, sum);
    fclose(devnull);
    skb_results_free(&ra);
    skb_results_free(&rb);
    if (rerun)
        skb_results_free(&rr);
    return n;
}

static int compare_dirs(const char *a, const char *b, const char *rerun, cJSON **sum)
{
    return compare_edited(a, b, rerun, NULL, sum);
}

/* the fixture run against a copy of it changed by edit */
static int compare_fixture_with(void (*edit)(struct skb_results *), cJSON **sum)
{
    return compare_edited(FIXTURE, FIXTURE, NULL, edit, sum);
}

/* one of sum's lists ("regressions", "notes") has an entry containing needle */
static int summary_in(const cJSON *sum, const char *list, const char *needle)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(sum, list))
        if (strstr(x->valuestring, needle))
            return 1;
    return 0;
}

static int summary_has(const cJSON *sum, const char *needle)
{
    return summary_in(sum, "regressions", needle);
}

static void test_compare_gates(void **state)
{
    cJSON *sum;
    assert_int_equal(compare_dirs(FIXTURE, FIXTURE, NULL, &sum), 0);
    /* 8 repetitions split odd/even are 4 against 4: the U test can never
     * reach p < 0.01 (min p 2/70), so the rate is not measurable, not 0 */
    double fp;
    assert_int_equal(skb_json_get_number(cJSON_GetObjectItem(sum, "false_positive_rate"), &fp), 0);
    assert_true(isnan(fp));
    assert_int_equal(cJSON_GetObjectItem(sum, "self_powerless")->valueint, 20);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "false_positive_rate_note")),
                           "powerless: 4 vs 4"));
    assert_int_equal(cJSON_GetObjectItem(sum, "inconclusive_count")->valueint, 0);
    cJSON_Delete(sum);
    assert_int_equal(compare_dirs(FIXTURE, FIXTURE_REGRESSED, FIXTURE_REGRESSED "/rerun", &sum), 3);
    assert_true(summary_has(sum, "verdict dlb.bi_invariance changed + -> -"));
    assert_true(summary_has(sum, "FLOP count of dlb changed"));
    assert_true(summary_has(sum, "skin/cloth/dlb slower"));
    cJSON_Delete(sum);
    /* one run only: the slow-down is reported unconfirmed, not a failure */
    assert_int_equal(compare_dirs(FIXTURE, FIXTURE_REGRESSED, NULL, &sum), 2);
    assert_false(summary_has(sum, "slower"));
    assert_int_equal(cJSON_GetObjectItem(sum, "timing_unconfirmed")->valueint, 1);
    cJSON_Delete(sum);
    /* a re-run that does not confirm clears the candidate */
    assert_int_equal(compare_dirs(FIXTURE, FIXTURE_REGRESSED, FIXTURE, &sum), 2);
    assert_false(summary_has(sum, "slower"));
    cJSON_Delete(sum);
}

/* a method the baseline lacks, added where each per-method file keeps its
 * names (the key paths of the descriptors' files, reports/exp_<name>.c) */
static void add_new_method(struct skb_results *r)
{
    cJSON *fit = cJSON_AddObjectToObject(cJSON_GetObjectItem(skb_results_doc(r, "flops.json"), "fits"), "nlerp_test");
    cJSON_AddNumberToObject(fit, "a", 10);
    cJSON_AddNumberToObject(fit, "b", 1);
    cJSON *other = cJSON_AddObjectToObject(skb_results_doc(r, "properties.json"), "verdicts_other_methods");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(other, "other_test"), "rigidity", "+");
    cJSON *arm = cJSON_GetObjectItem(cJSON_GetObjectItem(skb_results_doc(r, "cpu.json"), "datasets"), "arm");
    cJSON_AddNumberToObject(cJSON_GetObjectItem(arm, "ms"), "nlerp_test", 1.5);
    /* the fixture's gpu.json predates "shaders": one shader of a new CPU method */
    cJSON *gpu = skb_results_doc(r, "gpu.json");
    cJSON_DeleteItemFromObject(gpu, "shaders");
    cJSON *sh = cJSON_CreateObject();
    cJSON_AddStringToObject(sh, "cpu_method", "shader_test");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(gpu, "shaders"), sh);
    cJSON *ds = cJSON_GetObjectItem(skb_results_doc(r, "spheres.json"), "datasets")->child;
    if (!cJSON_GetObjectItem(ds, "refit_time"))   /* nor has its spheres.json "refit_time" */
        cJSON_AddObjectToObject(ds, "refit_time");
    cJSON_AddNumberToObject(cJSON_GetObjectItem(ds, "refit_time"), "refit_test", 0.1);
    cJSON *sc = cJSON_GetObjectItem(skb_results_doc(r, "cd.json"), "scenarios")->child;
    cJSON_AddObjectToObject(cJSON_GetObjectItem(sc, "methods"), "cd_test");
}

/* one of sum's "inconclusive" rows names needle */
static int undecided_in(const cJSON *sum, const char *needle)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(sum, "inconclusive")) {
        const char *b = cJSON_GetStringValue(cJSON_GetObjectItem(x, "benchmark"));
        if (b && strstr(b, needle))
            return 1;
    }
    return 0;
}

/* compare names a method the baseline did not have as new, in every file:
 * nothing to hold it to, so undecided (exit 3), never a note and a pass */
static void test_compare_new_method(void **state)
{
    (void)state;
    static const char *const want[] = {
        "NEW method nlerp_test in flops.json", "NEW method other_test in properties.json",
        "NEW method nlerp_test in cpu.json", "NEW method shader_test in gpu.json",
        "NEW method refit_test in spheres.json", "NEW method cd_test in cd.json", NULL
    };
    cJSON *sum = NULL;
    compare_fixture_with(add_new_method, &sum);
    for (int i = 0; want[i]; i++)
        if (!undecided_in(sum, want[i]))
            fail_msg("compare's undecided rows lack \"%s\"", want[i]);
    assert_false(undecided_in(sum, "NEW method lbs"));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "verdict")), "INCONCLUSIVE");
    cJSON_Delete(sum);
}

/* cpu.json's "verified" turned false, one kernel named in "failures" */
static void fail_kernel(struct skb_results *r)
{
    cJSON *cpu = skb_results_doc(r, "cpu.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cpu, "verified")));
    cJSON_ReplaceItemInObject(cpu, "verified", cJSON_CreateFalse());
    cJSON_DeleteItemFromObject(cpu, "failures");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(cpu, "failures"), "double/dlb/arm", "max error 1e-3 > 1e-9");
}

/* compare names the kernels whose check failed when "verified" turns false */
static void test_compare_names_failed_kernel(void **state)
{
    (void)state;
    cJSON *sum = NULL;
    assert_true(compare_fixture_with(fail_kernel, &sum) >= 1);
    assert_true(summary_has(sum, "\"verified\" is no longer true"));
    assert_true(summary_has(sum, "kernel double/dlb/arm failed its check"));
    cJSON_Delete(sum);
}

/* spheres.json gone, one callgrind count changed by one */
static void drop_spheres(struct skb_results *r)
{
    int sp = skb_rfile_slot("spheres.json");
    cJSON_Delete(r->doc[sp]);
    r->doc[sp] = NULL;
    /* a changed callgrind count is an exact gate */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(skb_results_doc(r, "flops.json"), "callgrind"), "dlb",
                              cJSON_CreateNumber(421));
}

static void test_compare_missing_experiment(void **state)
{
    (void)state;
    cJSON *sum;
    assert_int_equal(compare_fixture_with(drop_spheres, &sum), 2);
    assert_true(summary_has(sum, "spheres.json: missing in the current run"));
    assert_true(summary_has(sum, "callgrind instruction count callgrind.dlb changed 420 -> 421"));
    cJSON_Delete(sum);
}

/* a Google Benchmark document: one benchmark, n repetitions around t ns */
static cJSON *gbench_doc(double t, int n, double spread)
{
    cJSON *d = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(d, "benchmarks");
    for (int i = 0; i < n; i++) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "name", "skin/x/dlb");
        cJSON_AddStringToObject(b, "run_type", "iteration");
        cJSON_AddNumberToObject(b, "real_time", t * (1 + spread * (i - n / 2.0) / n));
        cJSON_AddStringToObject(b, "time_unit", "ns");
        cJSON_AddItemToArray(a, b);
    }
    return d;
}

/* significant but small changes are not candidates: the effect size gate */
static void test_compare_effect_threshold(void **state)
{
    static struct skb_results a, b;
    struct skb_compare_opts o = { 0.01, 0.05, 0, NULL, NULL };
    double shift[3] = { 1.02, 1.10, 0.90 };
    int expect[3] = { 0, 1, 0 };
    for (int k = 0; k < 3; k++) {
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        strcpy(a.machine_key, "m");
        strcpy(b.machine_key, "m");
        a.doc[skb_rfile_slot("cpu-gbench.json")] = gbench_doc(1000, 10, 0.001);
        b.doc[skb_rfile_slot("cpu-gbench.json")] = gbench_doc(1000 * shift[k], 10, 0.001);
        cJSON *sum;
        FILE *devnull = fopen("/dev/null", "w");
        assert_int_equal(skb_compare_run(&a, &b, NULL, &o, devnull, &sum), 0);
        fclose(devnull);
        if (cJSON_GetObjectItem(sum, "timing_candidates")->valueint != expect[k])
            fail_msg("shift %g: %d candidates, expected %d", shift[k],
                     cJSON_GetObjectItem(sum, "timing_candidates")->valueint, expect[k]);
        cJSON_Delete(sum);
        skb_results_free(&a);
        skb_results_free(&b);
    }
    /* 3 against 3 repetitions: p >= 0.1 always, so the gate says it is powerless */
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.doc[skb_rfile_slot("cpu-gbench.json")] = gbench_doc(1000, 3, 0.001);
    b.doc[skb_rfile_slot("cpu-gbench.json")] = gbench_doc(2000, 3, 0.001);
    cJSON *sum;
    FILE *devnull = fopen("/dev/null", "w");
    assert_int_equal(skb_compare_run(&a, &b, NULL, &o, devnull, &sum), 0);
    fclose(devnull);
    assert_int_equal(cJSON_GetObjectItem(sum, "timing_candidates")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(sum, "timing_powerless")->valueint, 1);
    cJSON_Delete(sum);
    skb_results_free(&a);
    skb_results_free(&b);
}

/* Holm-Bonferroni across the family: one benchmark 10 % slower with 5
 * against 5 repetitions reaches raw p = 2/252 < 0.01 alone, but beside a
 * second, unchanged benchmark its adjusted p is 2 x 2/252 >= 0.01: no
 * candidate, and the gate says it is powerless (inconclusive), not a pass */
static void test_compare_holm(void **state)
{
    static struct skb_results a, b;
    struct skb_compare_opts o = { 0.01, 0.05, 0, NULL, NULL };
    for (int fam = 1; fam <= 2; fam++) {
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        strcpy(a.machine_key, "m");
        strcpy(b.machine_key, "m");
        a.doc[skb_rfile_slot("cpu-gbench.json")] = gbench_doc(1000, 5, 0.001);
        b.doc[skb_rfile_slot("cpu-gbench.json")] = gbench_doc(1100, 5, 0.001);
        if (fam == 2)
            for (int k = 0; k < 2; k++) {
                cJSON *extra = gbench_doc(500, 5, 0.001), *x;
                cJSON_ArrayForEach(x, cJSON_GetObjectItem(extra, "benchmarks"))
                    cJSON_ReplaceItemInObject(x, "name", cJSON_CreateString("skin/y/qb"));
                cJSON *dst = cJSON_GetObjectItem((k ? b : a).doc[skb_rfile_slot("cpu-gbench.json")], "benchmarks");
                while (cJSON_GetArraySize(cJSON_GetObjectItem(extra, "benchmarks")))
                    cJSON_AddItemToArray(dst, cJSON_DetachItemFromArray(cJSON_GetObjectItem(extra, "benchmarks"), 0));
                cJSON_Delete(extra);
            }
        cJSON *sum;
        FILE *devnull = fopen("/dev/null", "w");
        assert_int_equal(skb_compare_run(&a, &b, NULL, &o, devnull, &sum), 0);
        fclose(devnull);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "timing"), 0);
        assert_int_equal(cJSON_GetObjectItem(sum, "holm_family")->valueint, fam);
        assert_true(cJSON_GetObjectItem(row, "p_raw")->valuedouble < 0.01);
        assert_int_equal(cJSON_GetObjectItem(sum, "timing_candidates")->valueint, fam == 1);
        assert_int_equal(cJSON_GetObjectItem(sum, "timing_powerless")->valueint, fam == 1 ? 0 : 2);
        if (fam == 2)
            assert_true(cJSON_GetObjectItem(row, "p")->valuedouble >= 0.01);
        cJSON_Delete(sum);
        skb_results_free(&a);
        skb_results_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mann_whitney_exact),
        cmocka_unit_test(test_mann_whitney_ties_and_large),
        cmocka_unit_test(test_results_errors),
        cmocka_unit_test(test_results_load_missing),
        cmocka_unit_test(test_results_by_name),
        cmocka_unit_test_setup_teardown(test_report_statuses, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_fast_targets, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_fast_pool_limit, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_new_method_everywhere, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_figure_1, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_flops_fewer, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_attributions, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_headline, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_headline_cells, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_coverage, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_grid, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_not_run, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_scenario_factor, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_scaling_factor, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_sbs_centres_note, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_no_share_over_100, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_sphere_evidence, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_sphere_postures, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_sphere_trivial, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_table32_ranges, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_fast_targets_paired, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_plan_paired, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_every_method, rfix_setup, rfix_teardown),
        cmocka_unit_test(test_results_unknown_file),
        cmocka_unit_test(test_compare_new_method),
        cmocka_unit_test(test_compare_names_failed_kernel),
        cmocka_unit_test(test_report_column_cap),
        cmocka_unit_test_setup_teardown(test_report_method_cap, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_fig18_one_verdict, rfix_setup, rfix_teardown),
        cmocka_unit_test_setup_teardown(test_report_sphere_ordering, rfix_setup, rfix_teardown),
        cmocka_unit_test(test_report_two_machines),
        cmocka_unit_test(test_compare_gates),
        cmocka_unit_test(test_compare_missing_experiment),
        cmocka_unit_test(test_compare_effect_threshold),
        cmocka_unit_test(test_compare_holm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
