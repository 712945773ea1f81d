/* skb_pages.h — buffers in a deliberate page state, for anything timed.
 * Why: a kernel that meets pages never written (first-touch faults inside
 * the timing, the shared zero page behind reads), or pages whose size
 * depends on the run (transparent huge pages handed out at fault time while
 * memory is unfragmented, or collapsed by khugepaged in the middle of the
 * timing), is timed in a state the control beside it may not share
 * (docs/report-and-regression.md "Fast kernels: page state").  Every buffer
 * from skb_pages_alloc has its own mapping, starts 2 MiB-aligned plus one
 * page, carries one explicit transparent-huge-page advice and has every page
 * written before it is returned.
 *   skb_pages_alloc     bytes (page-aligned start), advice, pre-faulted
 *   skb_pages_free      NULL is fine
 *   skb_pages_size      the usable bytes of a buffer from skb_pages_alloc
 *   skb_pages_resident  1 when mincore reports every page resident
 *   skb_pages_forget    MADV_DONTNEED: the next touch faults a fresh page
 *                       (the forcing experiment of the offset sweep)
 *   skb_pages_vma       the kernel's view of the mapping holding an address:
 *                       its VmFlags and AnonHugePages (/proc/self/smaps)
 *   skb_pages_system    the system's THP settings (/sys/kernel/mm/...) */
#ifndef SKB_PAGES_H
#define SKB_PAGES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SMALL: MADV_NOHUGEPAGE (4 KiB pages whatever the system's THP setting;
 * khugepaged leaves the mapping alone); HUGE: MADV_HUGEPAGE (huge pages
 * where the system can find them: not guaranteed); SYSTEM: no advice */
enum skb_pages_thp { SKB_PAGES_SMALL, SKB_PAGES_HUGE, SKB_PAGES_SYSTEM };
/* "small (MADV_NOHUGEPAGE)", "huge (MADV_HUGEPAGE)", "system default" */
const char *skb_pages_thp_name(enum skb_pages_thp thp);

void *skb_pages_alloc(size_t bytes, enum skb_pages_thp thp);
void skb_pages_free(void *p);
size_t skb_pages_size(const void *p);
/* 1: every page of [p, p + bytes) resident; 0: some not; SKB_EIO: mincore failed */
int skb_pages_resident(const void *p, size_t bytes);
/* 0, or SKB_EIO */
int skb_pages_forget(void *p, size_t bytes);

struct skb_pages_vma {
    unsigned long long lo, hi;  /* the mapping's range: neighbouring mappings with the
                                   same flags are merged into one by the kernel */
    char flags[256];        /* VmFlags: "nh" = MADV_NOHUGEPAGE, "hg" = MADV_HUGEPAGE */
    long huge_kib;          /* AnonHugePages of the mapping */
    long rss_kib;           /* Rss of the mapping */
};
/* 0, or SKB_EIO (no smaps, or no mapping holds p) */
int skb_pages_vma(const void *p, struct skb_pages_vma *out);
/* the bracketed choice of .../transparent_hugepage/enabled and defrag
 * ("always", "madvise", "never", ...; "?" when unreadable) */
void skb_pages_system(char *enabled, size_t elen, char *defrag, size_t dlen);

#ifdef __cplusplus
}
#endif
#endif
