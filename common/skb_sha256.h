/* skb_sha256.h — SHA-256 (OpenSSL's libcrypto) as lower-case hex: what a
 * run's manifest records for each results file and for the binary that
 * wrote them, and what the results store checks a run against.
 *
 *   int skb_sha256_hex(const void *data, size_t len, char hex[SKB_SHA256_HEX]);
 *   int skb_sha256_file(const char *path, char hex[SKB_SHA256_HEX], char *msg, size_t msglen); */
#ifndef SKB_SHA256_H
#define SKB_SHA256_H

#include <stddef.h>

#define SKB_SHA256_HEX 65      /* 64 hex digits and the NUL */

/* the digest of data[0..len); 0, or SKB_EIO when libcrypto fails */
int skb_sha256_hex(const void *data, size_t len, char hex[SKB_SHA256_HEX]);
/* the digest of a regular file (links followed: /proc/self/exe is one);
 * 0, or an SKB_E* code with msg naming the file */
int skb_sha256_file(const char *path, char hex[SKB_SHA256_HEX], char *msg, size_t msglen);

#endif
