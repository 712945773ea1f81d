/* skb_scratch.h — private scratch directories under $TMPDIR and the reaper of
 * those a killed process left (docs/security.md "Security", scratch).
 *
 *   skb_scratch_make(kind, dir, len, msg, msglen)  $TMPDIR/skb-KIND-PID-XXXXXX
 *       made by mkdtemp (mode 0700, this user), holding the marker file
 *       SKB_SCRATCH_MARKER; dir receives its path.  0 or a negative SKB_E*.
 *   skb_scratch_remove(dir)  that directory and everything in it, removed
 *       with unlinkat on directory descriptors: a link inside is removed as
 *       a link, never followed.
 *   skb_scratch_reap(kind)  removes the skb-KIND-PID-* directories of dead
 *       PIDs that this process can prove a skinbench of this user made:
 *       a real directory (not a link) owned by this uid, mode 0700, holding
 *       a marker file of this uid that names the directory.  Anything else
 *       by that name (a planted link, another user's directory, one without
 *       its marker) is left alone.  Returns how many were removed.
 *   skb_scratch_base()  $TMPDIR when it is an absolute path, else /tmp.
 *
 * KIND is a short word of letters ("icount", "callgrind"). */
#ifndef SKB_SCRATCH_H
#define SKB_SCRATCH_H

#include <stddef.h>

#define SKB_SCRATCH_MARKER ".skb-scratch"

const char *skb_scratch_base(void);
int skb_scratch_make(const char *kind, char *dir, size_t len, char *msg, size_t msglen);
int skb_scratch_remove(const char *dir);
int skb_scratch_reap(const char *kind);

#endif
