/* cpu_pages.c — `run cpu`: every timed buffer in one deliberate page state
 * before the first timed repetition (docs/report-and-regression.md "Fast
 * kernels: page state").  The fast kernels' streams (their state), the
 * shared outputs and the copy control's buffers all come from
 * skb_pages_alloc under SKB__CPU_PAGES; here each is checked resident
 * (mincore) and its huge pages counted (smaps), so a kernel never meets a
 * page its control did not, and cpu.json says which state that was. */
#include <string.h>
#include "cpu_internal.h"

#define MAX_VMAS 256

/* the mappings counted so far: the kernel merges neighbouring mappings
 * with the same flags, so several buffers may share one */
struct seen {
    unsigned long long lo[MAX_VMAS];
    int n;
};

static int first_sight(struct seen *s, unsigned long long lo)
{
    for (int i = 0; i < s->n; i++)
        if (s->lo[i] == lo)
            return 0;
    if (s->n < MAX_VMAS)
        s->lo[s->n++] = lo;
    return 1;
}

/* one buffer: resident or the run is refused; its huge pages counted */
static int check_buffer(struct run *r, struct seen *seen, const char *what, const void *p, char *msg, size_t msglen)
{
    size_t n = skb_pages_size(p);
    struct skb_pages_vma v;
    int res = p ? skb_pages_resident(p, n) : 1;
    if (res != 1) {
        snprintf(msg, msglen, "cpu: %s: %s before timing", what, res == 0 ? "a page is not resident"
                 : "mincore failed");
        return res == 0 ? SKB_EINVAL : res;
    }
    if (!p)
        return 0;
    r->pages.buffers++;
    r->pages.bytes += (double)n;
    if (skb_pages_vma(p, &v) == 0) {
        r->pages.huge_kib += first_sight(seen, v.lo) ? v.huge_kib : 0;
        r->pages.advised += strstr(v.flags, SKB__CPU_PAGES == SKB_PAGES_SMALL ? "nh" : "hg") != NULL;
    }
    return 0;
}

int skb__cpu_pages_ready(struct run *r, char *msg, size_t msglen)
{
    int rc = 0;
    struct seen seen = { .n = 0 };
    memset(&r->pages, 0, sizeof r->pages);
    for (int i = 0; i < r->nds && rc == 0; i++)
        rc = check_buffer(r, &seen, r->ds[i].d.name, r->ds[i].out_block, msg, msglen);
    for (int i = 0; i < r->nc && rc == 0; i++) {
        struct bcase *c = r->c + i;
        if (c->error)
            continue;
        if (c->kind == K_F32)
            rc = check_buffer(r, &seen, c->name, c->fk.state, msg, msglen);
        if (c->kind == K_COPY && (rc = check_buffer(r, &seen, c->name, c->src, msg, msglen)) == 0)
            rc = check_buffer(r, &seen, c->name, c->dst, msg, msglen);
    }
    r->pages.checked = rc == 0;
    return rc;
}

void skb__cpu_pages_block(const struct run *r, cJSON *o)
{
    char en[64], df[64];
    skb_pages_system(en, sizeof en, df, sizeof df);
    cJSON_AddStringToObject(o, "policy", skb_pages_thp_name(SKB__CPU_PAGES));
    cJSON_AddStringToObject(o, "system_thp_enabled", en);
    cJSON_AddStringToObject(o, "system_thp_defrag", df);
    cJSON_AddStringToObject(o, "buffers_covered", "the fast kernels' streams (their state), the shared outputs of "
                            "every dataset, the copy control's source and destination; not the double path's or "
                            "the peers' own state");
    cJSON_AddNumberToObject(o, "buffers", r->pages.buffers);
    cJSON_AddNumberToObject(o, "bytes", r->pages.bytes);
    cJSON_AddNumberToObject(o, "buffers_with_advice", r->pages.advised);
    cJSON_AddNumberToObject(o, "huge_page_kib_before_timing", (double)r->pages.huge_kib);
    cJSON_AddBoolToObject(o, "resident_before_timing", r->pages.checked);
}
