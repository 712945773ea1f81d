/* cpu_roofline.c — `run cpu` on the roofline mesh: the copy bandwidth,
 * each fast kernel's fraction of it, the in-process control ratios and the
 * thread scaling curve. */
#include <math.h>
#include <string.h>
#include "cpu_internal.h"

static double f32_bpv(struct run *r, const struct ds *ds, const char *label)
{
    struct bcase *c = skb__cpu_find_case(r, K_F32, ds, label);
    return c ? skb_skin_f32_bytes_per_vertex(&c->fk) : NAN;
}

/* how the fractions are counted, in the file beside them (the
 * same statistic and the same bytes convention for kernel and copy) */
static void roofline_convention(cJSON *rf)
{
    cJSON *c = cJSON_AddObjectToObject(rf, "convention");
    cJSON_AddStringToObject(c, "statistic", "one thread: the median CPU time of the kernel and of memcpy alike; the "
                            "pool: the median wall time of the kernel and of memcpy split over the same pool alike");
    cJSON_AddStringToObject(c, "bytes", "memcpy: its buffer read once and written once (2 x its size); a kernel: "
                            "its vertex streams read and its outputs written, from its layout (bytes_per_vertex; "
                            "per-joint data, which stays in cache, excluded)");
    cJSON_AddStringToObject(c, "write_allocate", "counted on neither side in fraction_of_roofline: the kernels "
                            "store through the cache, and so does glibc's memcpy below its non-temporal threshold "
                            "(docs/report-and-regression.md), so each written line is also read once on both sides; "
                            "fraction_of_roofline_write_allocate counts it on both (memcpy 3 x its size, a kernel "
                            "bytes_per_vertex + write_bytes_per_vertex)");
}

/* each one-thread fast kernel's CPU time over the copy's in this process
 * (the in-process control: absolute times on shared VMs drift 5-40 %
 * between runs, this ratio is what separate processes are compared on;
 * scripts/device-cpu.sh reads the progress line) */
static void control_ratios(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    static const char *const sfx[] = { "", "@slot4", "+nrm_shader", "@plan", "", "@slot4", "@plan" };
    char ks[sizeof sfx / sizeof sfx[0]][64];
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        label(ks[i], sizeof ks[i], i < 4 ? lin_name() : head_name(), sfx[i]);
    double cp = skb__cpu_case_ms(r, gb, K_COPY, ds, "memcpy");
    char line[600];
    int len = snprintf(line, sizeof line, "control on %s:", ds->d.name);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double x = skb__cpu_case_ms(r, gb, K_F32, ds, ks[i]) / cp;
        skb_json_add_number(o, ks[i], x);
        if (len > 0 && (size_t)len < sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s/memcpy=%.4f", ks[i], x);
    }
    cJSON_AddStringToObject(o, "statistic", "median CPU time of the kernel over the median CPU time of memcpy "
                            "(72 bytes a vertex), one thread, both from this process");
    skb_run_progress(r->ctx, "cpu", "%s", line);
}

/* the scaling curve on the roofline mesh: LBS and DLB (split, renormalised)
 * and the copy at 1, 2, 4, ... threads and at every CPU, all in wall time;
 * on 2 CPUs or fewer it says so (the curve needs more) */
static void scaling_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    int th[18], n = 0, cpus = skb_pool_cpus();
    th[n++] = 1;
    for (int i = 0; i < r->npools; i++)
        th[n++] = skb_pool_threads(r->pools[i]);
    if (r->pool)
        th[n++] = skb_pool_threads(r->pool);
    cJSON_AddNumberToObject(o, "cpus", cpus);
    if (cpus <= 2)
        cJSON_AddStringToObject(o, "note", "2 cores only: no scaling curve beyond the 2-thread pool");
    double bytes = 2.0 * LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts;
    double lin1 = skb__cpu_case_real_ms(r, gb, ds, lin_name()), dlb1 = skb__cpu_case_real_ms(r, gb, ds, head_name());
    cJSON *pts = cJSON_AddArrayToObject(o, "points");
    for (int i = 0; i < n; i++) {
        char ll[64], ld[64], lc[64];
        thread_label(ll, sizeof ll, lin_name(), th[i]);
        thread_label(ld, sizeof ld, head_name(), th[i]);
        thread_label(lc, sizeof lc, "memcpy", th[i]);
        struct bcase *cc = skb__cpu_find_case(r, K_COPY, ds, lc);
        double cms = cc ? skb__cpu_gbench_timing(gb, cc->name).real_ms : NAN;
        double lms = skb__cpu_case_real_ms(r, gb, ds, ll), dms = skb__cpu_case_real_ms(r, gb, ds, ld);
        double bl = f32_bpv(r, ds, ll) * ds->d.mesh.nverts, bd = f32_bpv(r, ds, ld) * ds->d.mesh.nverts;
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "threads", th[i]);
        skb_json_add_number(p, "linear_ms", lms);
        skb_json_add_number(p, "dlb_ms", dms);
        skb_json_add_number(p, "memcpy_ms", cms);
        skb_json_add_number(p, "copy_bandwidth_GBps", bytes / (cms * 1e-3) / 1e9);
        skb_json_add_number(p, "linear_speedup", lin1 / lms);
        skb_json_add_number(p, "dlb_speedup", dlb1 / dms);
        skb_json_add_number(p, "linear_vertices_per_s", ds->d.mesh.nverts / (lms * 1e-3));
        skb_json_add_number(p, "linear_fraction_of_copy", bl / (bytes / (cms * 1e-3)) / (lms * 1e-3));
        skb_json_add_number(p, "dlb_fraction_of_copy", bd / (bytes / (cms * 1e-3)) / (dms * 1e-3));
        cJSON_AddItemToArray(pts, p);
        skb_run_progress(r->ctx, "cpu", "scaling %d threads: linear %.4g ms (x%.2f, %.3g vertices/s, %.2f of the copy), "
                         "dlb %.4g ms (x%.2f, %.2f of the copy), copy %.1f GB/s", th[i], lms, lin1 / lms,
                         ds->d.mesh.nverts / (lms * 1e-3), bl / (bytes / (cms * 1e-3)) / (lms * 1e-3), dms, dlb1 / dms,
                         bd / (bytes / (cms * 1e-3)) / (dms * 1e-3), bytes / (cms * 1e-3) / 1e9);
    }
    cJSON_AddStringToObject(o, "statistic", "median wall time per deformation at each thread count (one thread "
                            "too), the copy split over a pool of as many threads");
}

/* the roofline mesh: copy bandwidth on one thread (CPU time) and on the
 * pool (wall time), each kernel's fraction of it (in its checks entry),
 * and the headline fractions and ratios */
void skb__cpu_large_mesh_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    int nt = r->pool ? skb_pool_threads(r->pool) : 1;
    char lt[32];
    snprintf(lt, sizeof lt, "memcpy@%dt", nt);
    double bytes = (double)LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts, n = ds->d.mesh.nverts;
    double cp = skb__cpu_case_ms(r, gb, K_COPY, ds, "memcpy"), cpn = NAN, cpw = NAN;
    struct bcase *cn = skb__cpu_find_case(r, K_COPY, ds, lt), *c1 = skb__cpu_find_case(r, K_COPY, ds, "memcpy");
    if (cn)
        cpn = skb__cpu_gbench_timing(gb, cn->name).real_ms;
    if (c1)
        cpw = skb__cpu_gbench_timing(gb, c1->name).real_ms;
    r->copy_bps[0] = 2 * bytes / (cp * 1e-3);   /* memcpy reads and writes every byte */
    r->copy_bps[1] = 2 * bytes / (cpn * 1e-3);
    r->copy_scaling = cpw / cpn;
    cJSON_AddStringToObject(o, "dataset", ds->d.name);
    cJSON_AddNumberToObject(o, "vertices", ds->d.mesh.nverts);
    cJSON_AddNumberToObject(o, "joints", ds->d.mesh.njoints);
    cJSON_AddNumberToObject(o, "poses_cycled", ds->d.nposes);
    skb__cpu_add_timings(r, gb, ds, o);
    skb__cpu_paired_ratios(r, ds, o);
    skb__cpu_paired_targets(r, ds, cJSON_GetObjectItemCaseSensitive(o, "fast_kernels"));
    char lsh[64];
    label(lsh, sizeof lsh, lin_name(), "+nrm_shader");
    double lin = skb__cpu_case_ms(r, gb, K_F32, ds, lin_name()), dlb = skb__cpu_case_ms(r, gb, K_F32, ds, head_name());
    double sh = skb__cpu_case_ms(r, gb, K_F32, ds, lsh);
    double bl = f32_bpv(r, ds, lin_name()), bs = f32_bpv(r, ds, lsh), bd = f32_bpv(r, ds, head_name());
    skb_json_add_number(o, "dlb_over_linear_f32", dlb / lin);
    cJSON *rf = cJSON_AddObjectToObject(o, "roofline");
    cJSON_AddStringToObject(rf, "bytes", "per vertex, counted from each kernel's layout (checks.f32.*.bytes_per_vertex); "
                            "fraction = those bytes at the copy bandwidth over the measured time");
    skb_json_add_number(rf, "linear_f32_bytes_per_vertex", bl);
    skb_json_add_number(rf, "memcpy_ms", cp);
    skb_json_add_number(rf, "copy_bandwidth_GBps", r->copy_bps[0] / 1e9);
    cJSON_AddNumberToObject(rf, "copy_threads", nt);
    skb_json_add_number(rf, "memcpy_threads_real_ms", cpn);
    skb_json_add_number(rf, "copy_bandwidth_threads_GBps", r->copy_bps[1] / 1e9);
    /* scaling wall time against wall time: on a shared machine one thread's
     * wall time exceeds its CPU time by the time others held the CPU */
    skb_json_add_number(rf, "memcpy_real_ms", cpw);
    skb_json_add_number(rf, "copy_bandwidth_wall_GBps", 2 * bytes / (cpw * 1e-3) / 1e9);
    skb_json_add_number(rf, "copy_bandwidth_scaling", cpw / cpn);
    skb_json_add_number(rf, "linear_f32_roofline_ms", bl * n / r->copy_bps[0] * 1e3);
    skb_json_add_number(rf, "linear_f32_ms", lin);
    skb_json_add_number(rf, "linear_f32_fraction_of_roofline", bl * n / r->copy_bps[0] * 1e3 / lin);
    skb_json_add_number(rf, "linear_nrm_shader_f32_fraction_of_roofline", bs * n / r->copy_bps[0] * 1e3 / sh);
    skb_json_add_number(rf, "dlb_f32_fraction_of_roofline", bd * n / r->copy_bps[0] * 1e3 / dlb);
    roofline_convention(rf);
    control_ratios(r, gb, ds, cJSON_AddObjectToObject(o, "ratio_to_copy"));
    skb__cpu_paired_control(r, ds, cJSON_AddObjectToObject(o, "paired_control"));
    scaling_block(r, gb, ds, cJSON_AddObjectToObject(o, "scaling"));
    skb_run_progress(r->ctx, "cpu", "%s: linear f32 %.3g ms, dlb f32 %.3g ms (x%.2f), copy %.1f GB/s (%d threads: "
                     "%.1f GB/s): LBS at %.2f of the roofline, LBS with normals left to the shader at %.2f",
                     ds->d.name, lin, dlb, dlb / lin, r->copy_bps[0] / 1e9, nt, r->copy_bps[1] / 1e9,
                     bl * n / r->copy_bps[0] * 1e3 / lin, bs * n / r->copy_bps[0] * 1e3 / sh);
}
