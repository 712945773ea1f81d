/* skb_json.h — JSON and file utilities for every layer: non-finite numbers,
 * atomic writes, reading files, the machine description.  The results
 * metadata (schema version, seed, compiler, libraries) is harness/skb_results.h. */
#ifndef SKB_JSON_H
#define SKB_JSON_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <cJSON.h>
#include "skb_error.h"   /* the codes these functions return */

#define SKB_SCHEMA_VERSION 2          /* 2: every method named by its registry name */
#define SKB_SCHEMA_VERSION_OLDEST 1   /* still read: its old method names mapped
                                       * (skb_method_canonical, docs/outputs.md "Method names") */

/* machine description: hostname, kernel, cpu model, cores, memory, and
 * "key": [SKB_MACHINE_NAME/]CPU model/N-core/M-GiB (no hostname in it) */
cJSON *skb_json_machine(void);
void skb_machine_key(char *key, size_t len);
/* a number, or the string "nan" / "inf" / "-inf" (cJSON would write null) */
cJSON *skb_json_number(double x);
void skb_json_add_number(cJSON *obj, const char *key, double x);
/* array of n numbers */
cJSON *skb_json_array(const double *x, int n);
/* the run's seed, exactly: a number up to 2^53, a decimal string above */
cJSON *skb_json_seed(unsigned long seed);
/* read a seed skb_json_seed wrote; 0 on success, -1 if not an exact seed */
int skb_json_get_seed(const cJSON *item, unsigned long *out);
/* read a number that skb_json_number wrote; 0 on success */
int skb_json_get_number(const cJSON *item, double *out);

/* the one safe-output rule: 0 when path is absent or a regular file; an error
 * naming the path when it is a device, FIFO, socket, symlink or directory,
 * which an output is never allowed to replace */
int skb_output_check(const char *path, char *msg, size_t msglen);
/* write text to path through a temporary file in the same directory, fsync
 * and rename(2): a crash never leaves a half-written file or clobbers the old
 * one; refuses (skb_output_check) to replace anything but a regular file */
int skb_write_atomic(const char *path, const char *text, size_t len, char *msg, size_t msglen);
/* the same for a writer that needs a FILE (libpng): begin checks path and
 * opens a temporary file (tmp receives its name; NULL + msg on error); end
 * with ok = 1 flushes, fsyncs and renames it over path, with ok = 0 (or on
 * any error) removes it.  Needs <stdio.h>. */
FILE *skb_out_begin(const char *path, char *tmp, size_t tmplen, char *msg, size_t msglen);
int skb_out_end(FILE *f, const char *tmp, const char *path, int ok, char *msg, size_t msglen);
int skb_json_write_atomic(const char *path, const cJSON *root, char *msg, size_t msglen);
/* read and parse a JSON file; msg names the file and the position of a parse error */
int skb_json_read_file(const char *path, cJSON **out, char *msg, size_t msglen);
/* the one reader of every input file: stat, open (O_NONBLOCK, and
 * O_NOFOLLOW with SKB_IN_NOFOLLOW), fstat: a regular file only (a FIFO,
 * device, socket or directory is a one-line error, never read or waited
 * on), at most max bytes (0 = SKB_INPUT_MAX_DEFAULT); "-" = stdin.
 * Caller frees *out (NUL-terminated). */
#define SKB_INPUT_MAX_DEFAULT ((size_t)256 << 20)
#define SKB_IN_NOFOLLOW 1
int skb_read_input(const char *path, size_t max, int flags, char **out, size_t *len, char *msg, size_t msglen);
/* read a whole file ("-" = stdin) through skb_read_input; caller frees *out */
int skb_read_file(const char *path, char **out, size_t *len, char *msg, size_t msglen);
/* the same, failing with SKB_EINVAL past max bytes (0 = the default cap) */
int skb_read_file_max(const char *path, size_t max, char **out, size_t *len, char *msg, size_t msglen);
/* parse text[0..len); msg says which failure: out of memory (SKB_ENOMEM),
 * nesting too deep, truncated, malformed at a line; whole = 1 also rejects
 * anything but whitespace after the document */
int skb_json_parse_text(const char *path, const char *text, size_t len, int whole, cJSON **out, char *msg,
                        size_t msglen);
/* mkdir -p */
int skb_mkdirs(const char *path, char *msg, size_t msglen);
/* mkdir -p root (links followed: the user named it), then each directory
 * of sub below it created or entered with O_NOFOLLOW | O_DIRECTORY: a
 * symbolic link or non-directory there is a one-line error naming it */
int skb_mkdirs_below(const char *root, const char *sub, char *msg, size_t msglen);
/* the same for a full path dir that starts with root (root + "/" + sub);
 * any other dir is created with skb_mkdirs */
int skb_mkdirs_in(const char *root, const char *dir, char *msg, size_t msglen);
/* an output directory (run/report --out, the folder of a new skin --out file) that
 * skinbench may write into: not empty, and its nearest existing directory
 * neither on one of the kernel's file systems (proc, sysfs, ...) nor holding
 * device nodes (/dev, a chroot's dev): as root a report written there
 * would land among the devices.  0, or SKB_EINVAL with a one-line msg */
int skb_output_dir_check(const char *dir, char *msg, size_t msglen);
/* The reading half (common/skb_paths.c): root/rel reached without a link in
 * any component of rel.  root is the user's (followed); each directory of rel
 * is entered with openat(O_NOFOLLOW | O_DIRECTORY) and the last component is
 * opened with O_NOFOLLOW | O_NONBLOCK after an fstatat that does not follow
 * it.  rel is relative and has no ".." component.  A link anywhere below
 * root is a one-line error naming that component (SKB_EINVAL), never
 * followed, whatever it points at.
 *   skb_open_below: the descriptor of a regular file (want_dir 0) or a
 *     directory (want_dir 1; fdopendir it to list); anything else refused
 *     before it is opened;
 *   skb_read_below: the whole regular file, at most max bytes (0 = the
 *     default cap), NUL-terminated; caller frees *out;
 *   skb_stat_below: lstat of root/rel, reached the same way: 0 and *st,
 *     or -1 with errno (ELOOP: a directory of rel is a link, ENOTDIR: not a
 *     directory, ENOENT: absent). */
int skb_open_below(const char *root, const char *rel, int want_dir, char *msg, size_t msglen);
int skb_read_below(const char *root, const char *rel, size_t max, char **out, size_t *len, char *msg, size_t msglen);
int skb_stat_below(const char *root, const char *rel, struct stat *st);
/* skb_json_read_file for root/rel, read with skb_read_below */
int skb_json_read_below(const char *root, const char *rel, cJSON **out, char *msg, size_t msglen);
/* text that must stay on its line — a message quoting a file's bytes, a
 * name written into an OBJ comment — with every control byte (below 0x20,
 * 0x7f) replaced by '?', in place: a newline in a model's file name cannot
 * start an OBJ statement of its own */
void skb_text_one_line(char *s);
/* internal to common/ (skb_json.c, skb_paths.c): what a non-regular node
 * is called in messages; read all of fd, which must be a regular file of at
 * most max bytes (0 = the default cap), shown as `shown` in errors */
const char *skb__file_kind(mode_t m);
int skb__read_regular(int fd, const char *shown, size_t max, char **out, size_t *len, char *msg, size_t msglen);

#endif
