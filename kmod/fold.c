// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: names without case (fold.h).
 *
 * A cached listing is one buffer of records (hash, length, flags, name)
 * and an open-addressed table of their offsets, sized so that it stays
 * at most half full; smbsrv's own creates append to it and its removes
 * mark records deleted, until a rebuild is cheaper than going on (room
 * runs out: the listing is dropped and the next miss reads the
 * directory again, so n creates cost O(n) reads in all).
 */
#include <linux/atomic.h>
#include <linux/ctype.h>
#include <linux/file.h>
#include <linux/unaligned.h>
#include <linux/iversion.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "fold.h"
#include "readdir.h"
#include "wire/dir.h"
#include "wire/unicode.h"

/* A record: u32 hash, u8 length, u8 flags, the name (unterminated). */
#define FOLD_REC_HDR		6
#define FOLD_DELETED		0x01

struct smbsrv_fold_dir {
	struct list_head lru;
	struct super_block *sb;
	unsigned long ino;
	u32 gen;
	u64 version;
	u8 *recs;
	u32 used, cap;		/* bytes of @recs */
	u32 *table;		/* record offset + 1; 0: empty */
	u32 mask;		/* table size - 1 */
	u32 nr;			/* records, deleted ones too */
	size_t bytes;		/* memory charged to SMBSRV_FOLD_BYTES */
};

static LIST_HEAD(smbsrv_fold_dirs);
static DEFINE_MUTEX(smbsrv_fold_lock);
static size_t smbsrv_fold_bytes;
static unsigned int smbsrv_fold_ndirs;
static atomic64_t smbsrv_fold_scans, smbsrv_fold_entries, smbsrv_fold_cached;

static u32 smbsrv_fold_hash(const char *name, u32 len)
{
	u32 pos = 0, h = 2166136261u, c, k;

	while (pos < len) {
		c = smb_upcase(smb_utf8_next(name, len, &pos));
		for (k = 0; k < 4; k++) {
			h ^= (c >> (8 * k)) & 0xff;
			h *= 16777619u;
		}
	}
	return h;
}

/* A name as 8.3 names smbsrv makes look: "BASE~XYZ[.EXT]", ASCII. */
static bool smbsrv_fold_mangled(const char *name, u32 len)
{
	return len <= 12 && memchr(name, '~', len);
}

/* Whether @want is the 8.3 name of entry @name (smb_short_name()). */
static bool smbsrv_fold_short_eq(const char *name, u32 len, const char *want,
				 u32 wlen)
{
	u8 sn[24];
	u32 n, i;

	n = smb_short_name(name, len, sn) / 2;
	if (n != wlen)
		return false;
	for (i = 0; i < n; i++)
		if (toupper(sn[2 * i]) != toupper(want[i]))
			return false;
	return true;
}

u64 smbsrv_fold_version(struct inode *dir)
{
	return IS_I_VERSION(dir) ? inode_query_iversion(dir) : 0;
}

bool smbsrv_fold_still(struct inode *dir, u64 version)
{
	return !version || smbsrv_fold_version(dir) == version;
}

/* ---- the cache (under smbsrv_fold_lock) ---------------------------------- */

static void smbsrv_fold_drop(struct smbsrv_fold_dir *fd)
{
	list_del(&fd->lru);
	smbsrv_fold_bytes -= fd->bytes;
	smbsrv_fold_ndirs--;
	kvfree(fd->recs);
	kvfree(fd->table);
	kfree(fd);
}

static struct smbsrv_fold_dir *smbsrv_fold_lookup_dir(struct inode *dir)
{
	struct smbsrv_fold_dir *fd;

	lockdep_assert_held(&smbsrv_fold_lock);
	list_for_each_entry(fd, &smbsrv_fold_dirs, lru)
		if (fd->sb == dir->i_sb && fd->ino == dir->i_ino &&
		    fd->gen == dir->i_generation)
			return fd;
	return NULL;
}

/* Put record @off in the table; false when it would be over half full. */
static bool smbsrv_fold_index(struct smbsrv_fold_dir *fd, u32 off)
{
	u32 i, h = get_unaligned((u32 *)(fd->recs + off));

	if (2 * (fd->nr + 1) > fd->mask + 1)
		return false;
	for (i = h & fd->mask; fd->table[i]; i = (i + 1) & fd->mask)
		;
	fd->table[i] = off + 1;
	fd->nr++;
	return true;
}

/*
 * The record equal to @name without case (@exact: byte for byte); not
 * found, a name that looks like an 8.3 name is matched against the 8.3
 * names of the records (FileAlternateNameInformation's), one by one.
 */
static u8 *smbsrv_fold_search(struct smbsrv_fold_dir *fd, const char *name,
			      u32 len, u32 h, bool exact)
{
	u32 i, off;
	u8 *r;

	for (i = h & fd->mask; fd->table[i]; i = (i + 1) & fd->mask) {
		r = fd->recs + fd->table[i] - 1;
		if (get_unaligned((u32 *)r) != h || (r[5] & FOLD_DELETED))
			continue;
		if (exact ? r[4] == len && !memcmp(r + FOLD_REC_HDR, name, len) :
			    smb_utf8_ieq((char *)r + FOLD_REC_HDR, r[4], name,
					 len))
			return r;
	}
	if (exact || !smbsrv_fold_mangled(name, len))
		return NULL;
	for (off = 0; off < fd->used; off += FOLD_REC_HDR + r[4]) {
		r = fd->recs + off;
		if (!(r[5] & FOLD_DELETED) &&
		    smbsrv_fold_short_eq((char *)r + FOLD_REC_HDR, r[4], name,
					 len))
			return r;
	}
	return NULL;
}

static bool smbsrv_fold_append(u8 *recs, u32 *used, u32 cap,
			       const char *name, u32 len)
{
	u8 *r = recs + *used;

	if (cap - *used < FOLD_REC_HDR + len)
		return false;
	put_unaligned(smbsrv_fold_hash(name, len), (u32 *)r);
	r[4] = len;
	r[5] = 0;
	memcpy(r + FOLD_REC_HDR, name, len);
	*used += FOLD_REC_HDR + len;
	return true;
}

/*
 * Cache the listing @recs (@used bytes, @n names) of @dir at @version;
 * takes @recs over.
 */
static void smbsrv_fold_insert(struct inode *dir, u64 version, u8 *recs,
			       u32 used, u32 cap, u32 n)
{
	struct smbsrv_fold_dir *fd, *old;
	u32 slots = roundup_pow_of_two(max(64u, 2 * (n + n / 2 + 16)));
	u32 off;

	fd = kzalloc(sizeof(*fd), GFP_KERNEL);
	if (!fd)
		goto fail;
	fd->table = kvcalloc(slots, sizeof(u32), GFP_KERNEL);
	if (!fd->table)
		goto fail;
	fd->sb = dir->i_sb;
	fd->ino = dir->i_ino;
	fd->gen = dir->i_generation;
	fd->version = version;
	fd->recs = recs;
	fd->used = used;
	fd->cap = cap;
	fd->mask = slots - 1;
	fd->bytes = sizeof(*fd) + cap + slots * sizeof(u32);
	for (off = 0; off < used; off += FOLD_REC_HDR + recs[off + 4])
		smbsrv_fold_index(fd, off);

	mutex_lock(&smbsrv_fold_lock);
	old = smbsrv_fold_lookup_dir(dir);
	if (old)
		smbsrv_fold_drop(old);
	while (!list_empty(&smbsrv_fold_dirs) &&
	       (smbsrv_fold_ndirs >= SMBSRV_FOLD_DIRS ||
		smbsrv_fold_bytes + fd->bytes > SMBSRV_FOLD_BYTES))
		smbsrv_fold_drop(list_last_entry(&smbsrv_fold_dirs,
						 struct smbsrv_fold_dir, lru));
	list_add(&fd->lru, &smbsrv_fold_dirs);
	smbsrv_fold_bytes += fd->bytes;
	smbsrv_fold_ndirs++;
	mutex_unlock(&smbsrv_fold_lock);
	return;
fail:
	if (fd)
		kvfree(fd->table);
	kfree(fd);
	kvfree(recs);
}

void smbsrv_fold_changed(struct inode *dir, u64 version, const char *name,
			 u32 len, bool added)
{
	struct smbsrv_fold_dir *fd;
	u32 off, h;
	u8 *r;

	/* Nothing cached (the usual case): no lock on the create path. */
	if (!version || !READ_ONCE(smbsrv_fold_ndirs))
		return;
	mutex_lock(&smbsrv_fold_lock);
	fd = smbsrv_fold_lookup_dir(dir);
	if (!fd)
		goto out;
	if (fd->version != version)
		goto drop;
	h = smbsrv_fold_hash(name, len);
	if (added) {
		off = fd->used;
		if (!smbsrv_fold_append(fd->recs, &fd->used, fd->cap, name,
					len))
			goto drop;
		if (!smbsrv_fold_index(fd, off))
			goto drop;
	} else {
		r = smbsrv_fold_search(fd, name, len, h, true);
		if (r)
			r[5] |= FOLD_DELETED;
	}
	fd->version = smbsrv_fold_version(dir);
	goto out;
drop:
	smbsrv_fold_drop(fd);
out:
	mutex_unlock(&smbsrv_fold_lock);
}

/* ---- reading a directory ------------------------------------------------- */

struct smbsrv_fold_scan {
	struct dir_context ctx;
	const char *want;
	u32 want_len;
	bool mangled;		/* @want may be an 8.3 name */
	char *real;
	bool found;
	bool collect;		/* build a listing to cache */
	u8 *recs;
	u32 used, cap, n;
	u64 seen;
};

static bool smbsrv_fold_grow(struct smbsrv_fold_scan *s, u32 need)
{
	u32 cap = max3(s->cap * 2, s->used + need, 16384u);
	u8 *recs;

	if (cap > SMBSRV_FOLD_BYTES / 2)
		return false;
	recs = kvmalloc(cap, GFP_KERNEL);
	if (!recs)
		return false;
	if (s->used)
		memcpy(recs, s->recs, s->used);
	kvfree(s->recs);
	s->recs = recs;
	s->cap = cap;
	return true;
}

static bool smbsrv_fold_actor(struct dir_context *ctx, const char *name,
			      int len, loff_t pos, u64 ino, unsigned int type)
{
	struct smbsrv_fold_scan *s = container_of(ctx, struct smbsrv_fold_scan,
						  ctx);

	s->seen++;
	if (len <= 0 || len > NAME_MAX ||
	    (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'))))
		return true;
	if (!s->found && (smb_utf8_ieq(name, len, s->want, s->want_len) ||
			  (s->mangled && smbsrv_fold_short_eq(name, len, s->want,
							      s->want_len)))) {
		memcpy(s->real, name, len);
		s->real[len] = 0;
		s->found = true;
	}
	if (s->collect &&
	    !smbsrv_fold_append(s->recs, &s->used, s->cap, name, len) &&
	    (!smbsrv_fold_grow(s, FOLD_REC_HDR + len) ||
	     !smbsrv_fold_append(s->recs, &s->used, s->cap, name, len))) {
		/* Too large to cache: only the search goes on. */
		s->collect = false;
		kvfree(s->recs);
		s->recs = NULL;
		s->cap = 0;
	}
	if (s->collect)
		s->n++;
	/* Found, and nothing to collect: stop reading. */
	return !s->found || s->collect;
}

/* Reads of a directory that keeps changing before it is answered as is. */
#define SMBSRV_FOLD_TRIES	3

/* One read of @dir for struct smbsrv_fold_scan @s. */
static int smbsrv_fold_read(const struct path *dir, struct smbsrv_fold_scan *s)
{
	int err;

	err = smbsrv_readdir_all(dir, &s->ctx);
	atomic64_inc(&smbsrv_fold_scans);
	atomic64_add(s->seen, &smbsrv_fold_entries);
	return err;
}

int smbsrv_fold_find(const struct path *dir, const char *name, u32 len,
		     char *real, u64 *version)
{
	struct inode *inode = d_inode(dir->dentry);
	struct smbsrv_fold_scan s = {
		.ctx.actor = smbsrv_fold_actor,
		.want = name,
		.want_len = len,
		.mangled = smbsrv_fold_mangled(name, len),
		.real = real,
	};
	struct smbsrv_fold_dir *fd;
	bool steady = false;
	u64 start, now;
	int err, i;
	u8 *r;

	*version = 0;
	/* The file system folds this directory itself: nothing else. */
	if (IS_CASEFOLDED(inode))
		return 0;
	/* Only a user who may list the directory learns its names. */
	if (inode_permission(mnt_idmap(dir->mnt), inode, MAY_READ))
		return 0;

	now = smbsrv_fold_version(inode);
	if (now) {
		mutex_lock(&smbsrv_fold_lock);
		fd = smbsrv_fold_lookup_dir(inode);
		if (fd && fd->version == now) {
			list_move(&fd->lru, &smbsrv_fold_dirs);
			r = smbsrv_fold_search(fd, name, len,
					       smbsrv_fold_hash(name, len),
					       false);
			if (r) {
				memcpy(real, r + FOLD_REC_HDR, r[4]);
				real[r[4]] = 0;
			}
			mutex_unlock(&smbsrv_fold_lock);
			atomic64_inc(&smbsrv_fold_cached);
			*version = now;
			return !!r;
		}
		mutex_unlock(&smbsrv_fold_lock);
	}

	for (i = 0; i < SMBSRV_FOLD_TRIES && !steady; i++) {
		start = now;
		s.ctx.pos = 0;
		s.found = false;
		/* Only a listing that can be checked later is worth keeping. */
		s.collect = start && (!i || s.recs);
		s.used = 0;
		s.n = 0;
		s.seen = 0;
		err = smbsrv_fold_read(dir, &s);
		if (err) {
			kvfree(s.recs);
			return err;
		}
		now = smbsrv_fold_version(inode);
		steady = now == start;
	}
	/* Unsteady: an answer for a version gone by, which callers refuse. */
	*version = start;
	if (steady && s.collect) {
		smbsrv_fold_insert(inode, start, s.recs, s.used, s.cap, s.n);
		s.recs = NULL;
	}
	kvfree(s.recs);
	return s.found;
}

void smbsrv_fold_stats(struct smbsrv_fold_stats *st)
{
	st->scans = atomic64_read(&smbsrv_fold_scans);
	st->entries = atomic64_read(&smbsrv_fold_entries);
	st->cached = atomic64_read(&smbsrv_fold_cached);
}

void smbsrv_fold_exit(void)
{
	mutex_lock(&smbsrv_fold_lock);
	while (!list_empty(&smbsrv_fold_dirs))
		smbsrv_fold_drop(list_first_entry(&smbsrv_fold_dirs,
						  struct smbsrv_fold_dir, lru));
	mutex_unlock(&smbsrv_fold_lock);
}
