/* skb_sha256.c — SHA-256 as hex through libcrypto's EVP interface (skb_sha256.h). */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include "skb_json.h"
#include "skb_sha256.h"

int skb_sha256_hex(const void *data, size_t len, char hex[SKB_SHA256_HEX])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    hex[0] = 0;
    if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32)
        return SKB_EIO;
    for (unsigned int i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    return 0;
}

/* a binary is at most this large (skinbench is ~20 MB with debug info) */
#define SHA_FILE_MAX ((size_t)1 << 30)

int skb_sha256_file(const char *path, char hex[SKB_SHA256_HEX], char *msg, size_t msglen)
{
    char *buf;
    size_t n;
    int rc = skb_read_input(path, SHA_FILE_MAX, 0, &buf, &n, msg, msglen);
    if (rc < 0)
        return rc;
    rc = skb_sha256_hex(buf, n, hex);
    free(buf);
    if (rc < 0)
        snprintf(msg, msglen, "%s: SHA-256 failed (libcrypto)", path);
    return rc;
}
