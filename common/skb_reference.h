/* skb_reference.h — where reports/reference.json (the paper values) is: the
 * one search order for `run` (Table 4.1's paper column) and `report`. */
#ifndef SKB_REFERENCE_H
#define SKB_REFERENCE_H

#include <stddef.h>

/* The first readable of: $SKB_REFERENCE; EXE_DIR/reports/reference.json and
 * EXE_DIR/../reports/reference.json (the executable at <repo>/skinbench or
 * <repo>/build*\/skinbench: the file that belongs to this build); then
 * ./reports/reference.json.  exe_dir may be NULL or "".  The path goes to
 * out; 0 when found, SKB_EIO (out = "") when none is readable. */
int skb_reference_find(const char *exe_dir, char *out, size_t outlen);

#endif
