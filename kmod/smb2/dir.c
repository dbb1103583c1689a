// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: QUERY_DIRECTORY (MS-SMB2 3.3.5.18; MS-FSA 2.1.5.6.3).
 *
 * Each directory open has an enumeration (struct smbsrv_dirscan), made by
 * its first query: the search pattern that query gave (kept until
 * SMB2_REOPEN, as Windows keeps it) and a batch of names read with
 * iterate_dir() but not returned yet.  A query takes names from the
 * batch, refilling it from the directory's position (the struct file's,
 * which only this code moves), and returns those that match the pattern
 * and are not vetoed, each looked up and stat()ed as the tree's user; a
 * name that does not fit the client's buffer stays in the batch for the
 * next query, so a directory is listed across any number of requests
 * without losing or repeating a name (readdir's own guarantee for names
 * that are neither added nor removed meanwhile).  SMB2_RESTART_SCANS
 * rewinds, SMB2_RETURN_SINGLE_ENTRY returns one, SMB2_INDEX_SPECIFIED is
 * taken as a plain continuation (as NTFS does; FileIndex is the entry's
 * directory offset).  Nothing matched: STATUS_NO_SUCH_FILE on the first
 * query of a pattern, STATUS_NO_MORE_FILES afterwards.
 *
 * The batch (a few KiB) lives while names are pending; the pattern is
 * kept as the client sent it and compiled by each query.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <uapi/linux/smbsrv.h>

#include "../acl.h"
#include "../conn.h"
#include "../ea.h"
#include "../file.h"
#include "../fruit.h"
#include "../session.h"
#include "../status.h"
#include "../upcall.h"
#include "../vfs.h"
#include "../wire/dir.h"
#include "../wire/fscc.h"
#include "../wire/info.h"
#include "../wire/name.h"
#include "../wire/posix.h"
#include "meta.h"
#include "posix.h"
#include "smb2.h"

/* Names read ahead per refill. */
#define SMBSRV_DIR_BATCH	8192
/* Largest response built: clients ask again for more. */
#define SMBSRV_DIR_OUT_MAX	(256 * 1024)

struct smbsrv_dirscan {
	struct mutex lock;	/* one query of an open at a time */
	u8 *pattern;		/* UTF-16LE as sent; NULL: none yet */
	u32 pattern_len;
	bool pattern_set;	/* a query gave the pattern */
	bool eof;		/* the directory was read to its end */
	u8 *batch;		/* struct smbsrv_dirrec records */
	u32 batch_len;
	u32 batch_pos;
};

struct smbsrv_dirrec {
	u64 ino;
	u32 index;		/* low 32 bits of the directory offset */
	u16 len;
	u8 type;		/* DT_* */
	char name[];		/* NUL-terminated */
};

static u32 smbsrv_dirrec_size(u32 len)
{
	return ALIGN(sizeof(struct smbsrv_dirrec) + len + 1, 8);
}

void smbsrv_dirscan_free(struct smbsrv_dirscan *scan)
{
	if (!scan)
		return;
	mutex_destroy(&scan->lock);
	kfree(scan->pattern);
	kvfree(scan->batch);
	kfree(scan);
}

static struct smbsrv_dirscan *smbsrv_dirscan_get(struct smbsrv_file *f)
{
	struct smbsrv_dirscan *s = READ_ONCE(f->scan), *old;

	if (s)
		return s;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	mutex_init(&s->lock);
	old = cmpxchg(&f->scan, NULL, s);
	if (old) {
		smbsrv_dirscan_free(s);
		return old;
	}
	return s;
}

/* ---- reading names ------------------------------------------------------ */

struct smbsrv_dirfill {
	struct dir_context ctx;
	struct smbsrv_dirscan *scan;
	bool full;
};

static bool smbsrv_dir_actor(struct dir_context *ctx, const char *name,
			     int len, loff_t off, u64 ino, unsigned int type)
{
	struct smbsrv_dirfill *fill = container_of(ctx, struct smbsrv_dirfill,
						   ctx);
	struct smbsrv_dirscan *s = fill->scan;
	u32 size = smbsrv_dirrec_size(len);
	struct smbsrv_dirrec *rec;

	if (len <= 0 || len > NAME_MAX)
		return true;	/* no such names; skip rather than stop */
	if (s->batch_len + size > SMBSRV_DIR_BATCH) {
		fill->full = true;
		return false;	/* stays unread: the next refill gets it */
	}
	rec = (struct smbsrv_dirrec *)(s->batch + s->batch_len);
	rec->ino = ino;
	rec->index = (u32)off;
	rec->len = len;
	rec->type = type;
	memcpy(rec->name, name, len);
	rec->name[len] = 0;
	s->batch_len += size;
	return true;
}

/* The next record, reading more of the directory when needed. */
static int smbsrv_dir_next(struct smbsrv_file *f, struct smbsrv_dirscan *s,
			   struct smbsrv_dirrec **rec)
{
	struct smbsrv_dirfill fill = { .ctx.actor = smbsrv_dir_actor,
				       .scan = s };
	int err;

	if (s->batch_pos >= s->batch_len) {
		s->batch_len = 0;
		s->batch_pos = 0;
		if (s->eof) {
			kvfree(s->batch);
			s->batch = NULL;
			*rec = NULL;
			return 0;
		}
		if (!s->batch) {
			s->batch = kvmalloc(SMBSRV_DIR_BATCH, GFP_KERNEL);
			if (!s->batch)
				return -ENOMEM;
		}
		err = iterate_dir(f->filp, &fill.ctx);
		if (err)
			return err;
		if (!fill.full)
			s->eof = true;
		if (!s->batch_len) {
			*rec = NULL;
			return 0;
		}
	}
	*rec = (struct smbsrv_dirrec *)(s->batch + s->batch_pos);
	return 0;
}

static void smbsrv_dir_rewind(struct smbsrv_file *f, struct smbsrv_dirscan *s)
{
	vfs_llseek(f->filp, 0, SEEK_SET);
	s->batch_len = 0;
	s->batch_pos = 0;
	s->eof = false;
}

/* ---- one entry ---------------------------------------------------------- */

/*
 * hide unreadable (access-based enumeration, as Samba does it): a name is
 * listed only if the user may read it: with NT ACLs, what its descriptor
 * grants (acl.c); otherwise its mode's read permission.
 */
static bool smbsrv_dir_visible(const struct smbsrv_tree *tree,
			       const struct path *p)
{
	if (!(tree->share_flags & SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE))
		return true;
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_ACL_XATTR)
		return smbsrv_acl_may_see(tree, p);
	return !inode_permission(mnt_idmap(p->mnt), d_inode(p->dentry),
				 MAY_READ);
}

/*
 * Fill @e for the record @rec of the directory @dir: the entry itself
 * stat()ed ("." the directory, ".." its parent, or the directory again at
 * the share root).  false: the name is gone or hidden (skip it).
 */
static bool smbsrv_dir_entry(struct smbsrv_req *req, const struct path *dir,
			     struct smbsrv_dirrec *rec, u8 cls,
			     struct smb_dirent *e, u8 *sn,
			     struct smb_aapl_dirent *aapl)
{
	struct smbsrv_tree *tree = req->tree;
	struct path p = { .mnt = dir->mnt };
	struct smbsrv_fattr fa;
	struct dentry *d;
	int err;

	memset(e, 0, sizeof(*e));
	e->name = rec->name;
	e->name_len = rec->len;
	e->file_index = rec->index;
	e->file_id = rec->ino;
	if (rec->len == 1 && rec->name[0] == '.') {
		d = dget(dir->dentry);
	} else if (rec->len == 2 && rec->name[0] == '.' &&
		   rec->name[1] == '.') {
		d = dir->dentry == tree->root.dentry ? dget(dir->dentry) :
			dget_parent(dir->dentry);
	} else {
		d = lookup_one_unlocked(mnt_idmap(dir->mnt), rec->name,
					dir->dentry, rec->len);
		if (IS_ERR(d)) {
			/* Not searchable by this user: the name and its type. */
			if (tree->share_flags &
			    SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE)
				return false;
			e->attributes = rec->type == DT_DIR ?
					FILE_ATTRIBUTE_DIRECTORY :
					FILE_ATTRIBUTE_NORMAL;
			goto names;
		}
		p.dentry = d;
		if (d_is_negative(d) || !smbsrv_dir_visible(tree, &p)) {
			dput(d);
			return false;
		}
	}
	p.dentry = d;
	err = smbsrv_vfs_getattr(tree, &p, &fa);
	if (err) {
		dput(d);
		return err != -ENOENT;
	}
	e->creation_time = fa.creation_time;
	e->access_time = fa.access_time;
	e->write_time = fa.write_time;
	e->change_time = fa.change_time;
	e->eof = fa.eof;
	e->allocation = fa.allocation;
	e->attributes = fa.attributes;
	e->file_id = fa.ino;
	if (S_ISLNK(fa.mode))
		e->reparse_tag = IO_REPARSE_TAG_SYMLINK;
	if (READ_ONCE(req->conn->aapl) && smbsrv_fruit_tree(tree)) {
		/* A "._" file beside it becomes its streams (Samba's). */
		smbsrv_fruit_convert(tree, &p);
		/* fruit:zero_file_id, and ReadDirAttr when asked for. */
		if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_ZERO_FILE_ID))
			e->file_id = 0;
		if (cls == FILE_ID_BOTH_DIRECTORY_INFORMATION &&
		    READ_ONCE(req->conn->aapl_readdir) && !S_ISLNK(fa.mode)) {
			smbsrv_fruit_dirent(tree, &p, &fa, aapl);
			e->aapl = aapl;
		}
	}
	if (cls == SMB_FIND_FILE_POSIX_INFO)
		smbsrv_posix_dirent(&fa, e);
	else if (cls != FILE_DIRECTORY_INFORMATION &&
		 cls != FILE_NAMES_INFORMATION)
		e->ea_size = smbsrv_ea_size(d);
	dput(d);
names:
	if (cls == FILE_BOTH_DIRECTORY_INFORMATION ||
	    cls == FILE_ID_BOTH_DIRECTORY_INFORMATION ||
	    cls == FILE_ID_64_EXTD_BOTH_DIRECTORY_INFORMATION ||
	    cls == FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION) {
		e->short_len = smb_short_name(rec->name, rec->len, sn);
		e->short_name = sn;
	}
	return true;
}

/* ---- the query ---------------------------------------------------------- */

struct smbsrv_dirq {
	struct smb2_query_dir_req r;
	struct smb_pattern pat;
	u8 sn[24];
	struct smb_aapl_dirent aapl;
};

/*
 * Fill @o with entries; *@used is the length of the answer, *@count the
 * number of entries.  Returns 0, or -errno; with *@cut the first entry
 * did not fit whole (STATUS_BUFFER_OVERFLOW).
 */
static int smbsrv_dir_fill(struct smbsrv_req *req, struct smbsrv_file *f,
			   struct smbsrv_dirscan *s, struct smbsrv_dirq *q,
			   const struct smb_out *o, u32 *used, u32 *count,
			   bool *cut)
{
	const char *veto = req->tree->share->veto_files;
	u8 cls = q->r.info_class;
	struct smbsrv_dirrec *rec;
	struct smb_dirent e;
	u32 off = 0, prev = 0, fixed = smb_dirent_fixed(cls);
	int err, n;

	*used = 0;
	*count = 0;
	*cut = false;
	for (;;) {
		err = smbsrv_dir_next(f, s, &rec);
		if (err || !rec)
			return err;
		if (!smb_pattern_match(&q->pat, rec->name, rec->len) ||
		    (veto && smb_veto_match(veto, rec->name, rec->len)) ||
		    !smbsrv_dir_entry(req, &f->filp->f_path, rec, cls, &e,
				      q->sn, &q->aapl)) {
			s->batch_pos += smbsrv_dirrec_size(rec->len);
			continue;
		}
		off = *count ? ALIGN(*used, 8) : 0;
		n = smb_dirent_encode(cls, &e, o, off);
		if (n < 0) {
			/* A name that is not UTF-8 cannot be sent: skip it. */
			s->batch_pos += smbsrv_dirrec_size(rec->len);
			continue;
		}
		if (off + n > o->cap) {
			if (*count)
				return 0;	/* the next query gets it */
			/* Not even one: what fits of it, and it is gone. */
			*cut = true;
			smb_dirent_set_name_len(cls, o, 0, o->cap - fixed);
			*used = o->cap;
			*count = 1;
			s->batch_pos += smbsrv_dirrec_size(rec->len);
			return 0;
		}
		if (*count)
			smb_dirent_link(o, prev, off - prev);
		prev = off;
		*used = off + n;
		(*count)++;
		s->batch_pos += smbsrv_dirrec_size(rec->len);
		if (q->r.flags & SMB2_RETURN_SINGLE_ENTRY)
			return 0;
	}
}

static u32 smbsrv_dir_query(struct smbsrv_req *req, struct smbsrv_file *f,
			    struct smbsrv_dirq *q)
{
	struct smbsrv_dirscan *s;
	struct smb_out o;
	u32 status, used, count, cap;
	bool first = false, cut;
	u8 *out;
	int err;

	s = smbsrv_dirscan_get(f);
	if (!s)
		return STATUS_INSUFFICIENT_RESOURCES;
	mutex_lock(&s->lock);
	if ((q->r.flags & SMB2_REOPEN) || !s->pattern_set) {
		/* A new pattern: the search starts over. */
		kfree(s->pattern);
		s->pattern = NULL;
		s->pattern_len = 0;
		if (q->r.name_len) {
			s->pattern = kmemdup(q->r.name, q->r.name_len,
					     GFP_KERNEL);
			if (!s->pattern) {
				status = STATUS_INSUFFICIENT_RESOURCES;
				goto out;
			}
			s->pattern_len = q->r.name_len;
		}
		s->pattern_set = true;
		smbsrv_dir_rewind(f, s);
		first = true;
	} else if (q->r.flags & SMB2_RESTART_SCANS) {
		smbsrv_dir_rewind(f, s);
	}
	status = smb_pattern_compile(s->pattern, s->pattern_len, &q->pat);
	if (status) {
		/* A pattern that cannot be one is no pattern kept. */
		s->pattern_set = false;
		goto out;
	}
	cap = min_t(u32, q->r.out_len, SMBSRV_DIR_OUT_MAX);
	out = smbsrv_qinfo_out(req, cap);
	if (!out) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	o.buf = out;
	o.cap = cap;
	err = smbsrv_dir_fill(req, f, s, q, &o, &used, &count, &cut);
	if (err && !count) {
		status = smbsrv_errno_status(err);
		goto out;
	}
	if (!count) {
		status = first ? STATUS_NO_SUCH_FILE : STATUS_NO_MORE_FILES;
		goto out;
	}
	req->rsp_len = SMB2_HDR_SIZE +
		       smb2_query_info_rsp_encode(req->rsp + SMB2_HDR_SIZE,
						  used);
	status = cut ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
out:
	mutex_unlock(&s->lock);
	return status;
}

u32 smbsrv_smb2_query_directory(struct smbsrv_req *req)
{
	struct smbsrv_file *f;
	const struct cred *old;
	struct smbsrv_dirq *q;
	u32 status;

	q = kmalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return STATUS_INSUFFICIENT_RESOURCES;
	status = smb2_query_dir_req_decode(req->pdu, req->pdu_len, &q->r);
	if (status)
		goto free;
	f = smbsrv_req_file(req, q->r.file_id);
	if (!f) {
		status = STATUS_FILE_CLOSED;
		goto free;
	}
	status = STATUS_INVALID_PARAMETER;
	if (!smbsrv_file_is_dir(f) || q->r.out_len > req->conn->max_trans)
		goto put;
	status = smbsrv_req_check_charge(req);
	if (status)
		goto put;
	status = STATUS_ACCESS_DENIED;
	if (!(f->access & FILE_READ_DATA))	/* FILE_LIST_DIRECTORY */
		goto put;
	status = STATUS_INVALID_INFO_CLASS;
	if (!smb_dirent_fixed(q->r.info_class))
		goto put;
	/* The POSIX class on POSIX opens only (Samba: INVALID_LEVEL). */
	status = STATUS_INVALID_LEVEL;
	if (q->r.info_class == SMB_FIND_FILE_POSIX_INFO &&
	    !(f->flags & SMBSRV_FILE_POSIX))
		goto put;
	status = STATUS_INFO_LENGTH_MISMATCH;
	if (q->r.out_len < smb_dirent_fixed(q->r.info_class))
		goto put;
	old = smbsrv_vfs_creds_begin(req->tree);
	status = smbsrv_dir_query(req, f, q);
	smbsrv_vfs_creds_end(old);
put:
	smbsrv_file_put(f);
free:
	kfree(q);
	if (status && status != STATUS_BUFFER_OVERFLOW)
		smbsrv_rsp_free(req);
	return status;
}
