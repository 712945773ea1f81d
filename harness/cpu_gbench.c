/* cpu_gbench.c — `run cpu` around Google Benchmark: the file it writes
 * (proven writable, locked, renamed into place) and a progress line while
 * it times. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cpu_internal.h"
#include "skb_results.h"
#include "skb_timing.h"

/* ---- cpu-gbench.json: Google Benchmark writes its
 * JSON itself and calls exit(1) when it cannot open the file, so the
 * directory is proven writable first; it writes into a temporary file that is
 * renamed only after it parsed; a lock in --out serialises concurrent runs ---- */

/* temporaries of runs that were killed (we hold the lock: none is live) */
static void reap_gb_temps(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "cpu-gbench.json.tmp", 19) == 0 && strlen(e->d_name) == 25) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

static int gb_lock(const struct skb_run_ctx *ctx, struct gb_out *g, char *msg, size_t msglen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/.skb-cpu.lock", ctx->out_dir);
    g->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (g->lock_fd < 0) {
        snprintf(msg, msglen, "cpu: results directory %s is not writable (%s); nothing was timed", ctx->out_dir,
                 strerror(errno));
        return SKB_EIO;
    }
    if (flock(g->lock_fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    /* the second run waits: timing two runs at once would skew both */
    skb_run_progress(ctx, "cpu", "waiting for another run cpu writing to %s (lock %s)", ctx->out_dir, path);
    while (flock(g->lock_fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            snprintf(msg, msglen, "cpu: cannot lock %s: %s", path, strerror(errno));
            return SKB_EIO;
        }
    return 0;
}

int skb__cpu_gb_out_open(const struct skb_run_ctx *ctx, struct gb_out *g, char *msg, size_t msglen)
{
    g->tmp[0] = 0;
    int rc = gb_lock(ctx, g, msg, msglen);
    if (rc < 0)
        return rc;
    snprintf(g->final, sizeof g->final, "%s/cpu-gbench.json", ctx->out_dir);
    if ((rc = skb_output_check(g->final, msg, msglen)) < 0)
        return rc;
    reap_gb_temps(ctx->out_dir);
    snprintf(g->tmp, sizeof g->tmp, "%s.tmpXXXXXX", g->final);
    int fd = mkstemp(g->tmp);
    if (fd < 0) {
        snprintf(msg, msglen, "cpu: results directory %s is not writable (%s); nothing was timed", ctx->out_dir,
                 strerror(errno));
        g->tmp[0] = 0;
        return SKB_EIO;
    }
    fchmod(fd, 0644);
    close(fd);
    return 0;
}

/* fsync Google Benchmark's file and rename it into place */
int skb__cpu_gb_out_commit(struct gb_out *g, char *msg, size_t msglen)
{
    int fd = open(g->tmp, O_RDONLY);
    int synced = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    int rc = synced ? skb_output_check(g->final, msg, msglen) : SKB_EIO;
    if (!synced)
        snprintf(msg, msglen, "%s: cannot flush to disk: %s", g->final, strerror(errno));
    if (rc == 0 && rename(g->tmp, g->final) != 0) {
        snprintf(msg, msglen, "%s: cannot rename into place: %s", g->final, strerror(errno));
        rc = SKB_EIO;
    }
    if (rc == 0)
        g->tmp[0] = 0;
    return rc;
}

void skb__cpu_gb_out_close(struct gb_out *g)
{
    if (g->tmp[0])
        unlink(g->tmp);
    if (g->lock_fd >= 0)
        close(g->lock_fd);   /* releases the lock */
}

/* ---- progress while Google Benchmark times: it prints nothing for the
 * ~45 s of a full run.  A ticker (common/skb_ticker.h) prints the elapsed
 * time every 5 s ($SKB_PROGRESS_INTERVAL seconds: tests use a short one);
 * --quiet starts none. */

/* one progress report: on a terminal the same line rewritten in place, with
 * the share done of the lower bound (the total is only known to be at least
 * floor_s, so no finishing time is promised); otherwise a plain line */
static void tick_line(void *arg, double elapsed)
{
    struct ticker *t = arg;
    if (!t->tty) {
        skb_run_progress(t->ctx, "cpu", "timing: %.1f s elapsed (at least %.1f s in all)", elapsed, t->floor_s);
        return;
    }
    if (elapsed < t->floor_s)
        fprintf(stderr, "\r[cpu] timing: %.0f s of at least %.1f s (%.0f %%, at least %.0f s left)\033[K", elapsed,
                t->floor_s, 100 * elapsed / t->floor_s, t->floor_s - elapsed);
    else
        fprintf(stderr, "\r[cpu] timing: %.0f s (past the %.1f s lower bound; Google Benchmark repeats until "
                "each timing is stable)\033[K", elapsed, t->floor_s);
    t->printed = 1;
}

void skb__cpu_ticker_start(struct ticker *t, const struct skb_run_ctx *ctx, double floor_s)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->floor_s = floor_s;
    t->tty = isatty(STDERR_FILENO);
    /* no thread, no lines: progress is optional, the timing is not */
    t->on = ctx->verbose;
    if (t->on)
        skb_ticker_start(&t->tick, skb_ticker_interval("SKB_PROGRESS_INTERVAL", 5), tick_line, t);
}

void skb__cpu_ticker_stop(struct ticker *t)
{
    if (t->on)
        skb_ticker_stop(&t->tick);
    if (t->printed)   /* the line updated in place ends before the next one */
        fputc('\n', stderr);
}
