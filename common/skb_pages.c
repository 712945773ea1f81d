/* skb_pages.c — buffers in a deliberate page state (skb_pages.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "skb_error.h"
#include "skb_pages.h"

#define PAGE 4096u
#define HUGE (2u << 20)

/* the page before a buffer: its mapping, to unmap it */
struct head {
    char *map;
    size_t maplen, bytes;
};

const char *skb_pages_thp_name(enum skb_pages_thp thp)
{
    return thp == SKB_PAGES_SMALL ? "small (MADV_NOHUGEPAGE)" : thp == SKB_PAGES_HUGE ? "huge (MADV_HUGEPAGE)"
                                                                                      : "system default";
}

/* one advice for the whole mapping, given before any page is touched: a
 * huge page is chosen at fault time, and advice given later leaves pages
 * already faulted as they are (khugepaged may collapse them later) */
static void advise(char *map, size_t len, enum skb_pages_thp thp)
{
#ifdef MADV_HUGEPAGE
    if (thp != SKB_PAGES_SYSTEM)
        madvise(map, len, thp == SKB_PAGES_HUGE ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
    (void)map, (void)len, (void)thp;
#endif
}

/* write every page: read faults would map the shared zero page, and a
 * later write would fault again inside whatever is being timed */
static void prefault(char *p, size_t len)
{
    for (size_t i = 0; i < len; i += PAGE)
        ((volatile char *)p)[i] = 0;
}

void *skb_pages_alloc(size_t bytes, enum skb_pages_thp thp)
{
    size_t body = (bytes + PAGE - 1) / PAGE * PAGE, maplen = body + PAGE + HUGE;
    if (bytes == 0 || body < bytes || maplen < body)
        return NULL;
    char *map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return NULL;
    advise(map, maplen, thp);
    /* the head page on a 2 MiB boundary: huge pages, where advised, back
     * the buffer from its start */
    char *base = (char *)(((uintptr_t)map + HUGE - 1) / HUGE * HUGE);
    prefault(base, PAGE + body);
    *(struct head *)base = (struct head){ map, maplen, bytes };
    return base + PAGE;
}

static const struct head *head_of(const void *p)
{
    return (const struct head *)((const char *)p - PAGE);
}

void skb_pages_free(void *p)
{
    if (p)
        munmap(head_of(p)->map, head_of(p)->maplen);
}

size_t skb_pages_size(const void *p)
{
    return p ? head_of(p)->bytes : 0;
}

int skb_pages_resident(const void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p / PAGE * PAGE, b = ((uintptr_t)p + bytes + PAGE - 1) / PAGE * PAGE;
    unsigned char vec[256];
    for (uintptr_t at = a; at < b;) {
        size_t n = (b - at) / PAGE < sizeof vec ? (b - at) / PAGE : sizeof vec;
        if (mincore((void *)at, n * PAGE, vec) != 0)
            return SKB_EIO;
        for (size_t i = 0; i < n; i++)
            if (!(vec[i] & 1))
                return 0;
        at += n * PAGE;
    }
    return 1;
}

int skb_pages_forget(void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p / PAGE * PAGE, b = ((uintptr_t)p + bytes + PAGE - 1) / PAGE * PAGE;
    return madvise((void *)a, b - a, MADV_DONTNEED) == 0 ? 0 : SKB_EIO;
}

/* "7f..-7f.. rw-p ...": the mapping's range, 0 when the line is no header */
static int vma_header(const char *line, uintptr_t *lo, uintptr_t *hi)
{
    unsigned long long a, b;
    char dash;
    if (sscanf(line, "%llx%c%llx", &a, &dash, &b) != 3 || dash != '-')
        return 0;
    *lo = (uintptr_t)a;
    *hi = (uintptr_t)b;
    return 1;
}

/* one field line of the mapping that holds p */
static void vma_field(const char *line, struct skb_pages_vma *out)
{
    long kib;
    if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
        out->huge_kib = kib;
    else if (sscanf(line, "Rss: %ld kB", &kib) == 1)
        out->rss_kib = kib;
    else if (strncmp(line, "VmFlags:", 8) == 0) {
        snprintf(out->flags, sizeof out->flags, "%s", line + 8 + strspn(line + 8, " "));
        out->flags[strcspn(out->flags, "\n")] = 0;
    }
}

int skb_pages_vma(const void *p, struct skb_pages_vma *out)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, found = 0;
    memset(out, 0, sizeof *out);
    if (!f)
        return SKB_EIO;
    while (fgets(line, sizeof line, f)) {
        uintptr_t lo, hi;
        if (vma_header(line, &lo, &hi)) {
            if (found)
                break;
            in = found = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            out->lo = lo;
            out->hi = hi;
        } else if (in)
            vma_field(line, out);
    }
    fclose(f);
    return found ? 0 : SKB_EIO;
}

/* the [bracketed] word of a sysfs choice file */
static void bracketed(const char *path, char *buf, size_t len)
{
    char line[256] = "";
    FILE *f = fopen(path, "r");
    snprintf(buf, len, "?");
    if (!f)
        return;
    if (fgets(line, sizeof line, f)) {
        char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
        if (a && b)
            snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
    }
    fclose(f);
}

void skb_pages_system(char *enabled, size_t elen, char *defrag, size_t dlen)
{
    bracketed("/sys/kernel/mm/transparent_hugepage/enabled", enabled, elen);
    bracketed("/sys/kernel/mm/transparent_hugepage/defrag", defrag, dlen);
}
