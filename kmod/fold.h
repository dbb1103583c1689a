/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: names without case (`case sensitive = no`, the default).
 *
 * When a name is not found as spelt, the directory is searched for an
 * entry equal to it without case (wire/unicode.h: the upcase table
 * Windows file systems compare with).  A directory's folded listing is
 * cached, keyed by the directory's inode and valid for as long as its
 * i_version does not move, so a miss costs a hash lookup rather than a
 * scan; smbsrv's own creates and removes (made under the directory's
 * lock, at a version the cache was valid for) update it in place.  The
 * cache is bounded (SMBSRV_FOLD_DIRS directories, SMBSRV_FOLD_BYTES in
 * all, least recently used evicted); a directory too large for it, or on
 * a file system without i_version, is scanned on each miss.  A directory
 * the file system folds itself (ext4/tmpfs casefold) is never scanned:
 * the exact lookup already ignored case.
 *
 * Nothing here resolves a path: callers look up the real name it returns
 * with the same beneath-root machinery as any other (vfs.c).
 */
#ifndef _SMBSRV_FOLD_H
#define _SMBSRV_FOLD_H

#include <linux/fs.h>
#include <linux/path.h>
#include <linux/types.h>

#define SMBSRV_FOLD_DIRS	8
#define SMBSRV_FOLD_BYTES	(16 << 20)

/* Work done, for tests and statistics (smbsrv_fold_stats()). */
struct smbsrv_fold_stats {
	u64 scans;	/* directory listings read */
	u64 entries;	/* entries read by those scans */
	u64 cached;	/* misses answered from a cached listing */
};

/*
 * Find in directory @dir (not locked by the caller) the entry equal to
 * @name (@len bytes of UTF-8) without case, as the current credentials
 * may list it.  Returns 1 with its real name in @real (NAME_MAX + 1
 * bytes), 0 when there is none, or -errno.  *@version is the
 * directory's i_version the answer holds for, 0 when the file system
 * cannot tell (see smbsrv_fold_still()).
 */
int smbsrv_fold_find(const struct path *dir, const char *name, u32 len,
		     char *real, u64 *version);

/*
 * Under @dir's lock: whether nothing changed in it since an answer given
 * for @version (always true for version 0).
 */
bool smbsrv_fold_still(struct inode *dir, u64 version);

/*
 * Under @dir's lock, after smbsrv added (@added) or removed @name in it
 * while it was at @version: the cached listing, if it was valid then,
 * stays valid.
 */
void smbsrv_fold_changed(struct inode *dir, u64 version, const char *name,
			 u32 len, bool added);

/* The i_version of @dir now (locked by the caller), 0 if none. */
u64 smbsrv_fold_version(struct inode *dir);

void smbsrv_fold_stats(struct smbsrv_fold_stats *st);
void smbsrv_fold_exit(void);

#endif /* _SMBSRV_FOLD_H */
