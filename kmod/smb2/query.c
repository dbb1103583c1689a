// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: QUERY_INFO (MS-SMB2 3.3.5.20) for files and file systems;
 * security descriptors are in security.c.
 *
 * A reply is encoded in full length first (wire/info.c measures it), so
 * that a client's OutputBufferLength below a class's minimum is
 * STATUS_INFO_LENGTH_MISMATCH, one below the whole reply gets its first
 * OutputBufferLength bytes with STATUS_BUFFER_OVERFLOW, and anything else
 * the whole reply: what Windows does (smbtorture's buffercheck tests).
 * EAs are the user.* xattrs (as Samba and ksmbd keep them), minus those
 * smbsrv keeps for itself (ea.c).
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/xattr.h>
#include <uapi/linux/smbsrv.h>

#include "../conn.h"
#include "../ea.h"
#include "../file.h"
#include "../fruit.h"
#include "../session.h"
#include "../status.h"
#include "../stream.h"
#include "../upcall.h"
#include "../vfs.h"
#include "../wire/dir.h"
#include "../wire/fscc.h"
#include "../wire/info.h"
#include "../wire/posix.h"
#include "meta.h"
#include "posix.h"
#include "smb2.h"

/* ---- names and the volume ----------------------------------------------- */

/*
 * The path of @path below @tree's root, '\'-separated, in @buf (PATH_MAX
 * bytes): "" for the root, with a leading '\' when @lead.  NULL when it
 * is not below the root (another mount) or has no name any more.
 */
static char *smbsrv_meta_path(const struct smbsrv_tree *tree,
			      const struct path *path, char *buf, bool lead)
{
	char *p, *r, *rel, *rbuf;
	size_t rlen;

	if (path->mnt != tree->root.mnt || d_unlinked(path->dentry))
		return NULL;
	rbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!rbuf)
		return NULL;
	/* Both from the file system's root; the share's is a prefix. */
	r = dentry_path_raw(tree->root.dentry, rbuf, PATH_MAX);
	p = dentry_path_raw(path->dentry, buf + 1, PATH_MAX - 1);
	rel = NULL;
	if (!IS_ERR(r) && !IS_ERR(p)) {
		rlen = strcmp(r, "/") ? strlen(r) : 0;
		if (!strncmp(p, r, rlen) && (!p[rlen] || p[rlen] == '/'))
			rel = p + rlen;
	}
	kfree(rbuf);
	if (!rel)
		return NULL;
	if (*rel == '/')
		rel++;
	for (p = rel; *p; p++)
		if (*p == '/')
			*p = '\\';
	if (lead) {
		/* There is room: dentry_path_raw() wrote at buf + 1 or later. */
		*--rel = '\\';
	}
	return rel;
}

/* VolumeSerialNumber of the file system @sb (FS volume, FileIdInformation). */
static u32 smbsrv_meta_serial(const struct super_block *sb)
{
	u32 h = 2166136261u, i;

	/* FNV-1a over the file system's UUID and device: stable per volume. */
	for (i = 0; i < sizeof(sb->s_uuid); i++)
		h = (h ^ sb->s_uuid.b[i]) * 16777619u;
	for (i = 0; i < 4; i++)
		h = (h ^ ((sb->s_dev >> (8 * i)) & 0xff)) * 16777619u;
	return h;
}

/* ---- file classes ------------------------------------------------------- */

/* Everything the file classes report about @f; *@buf holds the name. */
static u32 smbsrv_query_finfo(struct smbsrv_req *req, struct smbsrv_file *f,
			      u8 cls, struct smb_finfo *fi, char **buf)
{
	const struct path *path = &f->filp->f_path;
	struct smbsrv_tree *tree = req->tree;
	struct smbsrv_fattr fa;
	ssize_t ssize;
	u8 sn[24];
	char *name;
	u32 i, n;
	int err;

	err = smbsrv_vfs_getattr(tree, path, &fa);
	if (err)
		return smbsrv_errno_status(err);
	memset(fi, 0, sizeof(*fi));
	fi->creation_time = fa.creation_time;
	fi->access_time = fa.access_time;
	fi->write_time = fa.write_time;
	fi->change_time = fa.change_time;
	fi->allocation = fa.allocation;
	fi->eof = fa.eof;
	/* fruit:zero_file_id: a Mac is given no file ID it could keep. */
	fi->index = READ_ONCE(req->conn->aapl) &&
		    smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_ZERO_FILE_ID) ?
		    0 : fa.ino;
	fi->volume = smbsrv_meta_serial(path->dentry->d_sb);
	fi->position = READ_ONCE(f->position);
	fi->attributes = fa.attributes;
	if (smbsrv_file_is_stream(f)) {
		/* The base's times and attributes, the stream's sizes. */
		ssize = smbsrv_stream_size(f);
		if (ssize < 0)
			return smbsrv_errno_status(ssize);
		fi->eof = ssize;
		fi->allocation = smbsrv_stream_allocation(ssize);
		fi->attributes &= ~FILE_ATTRIBUTE_DIRECTORY;
		if (!fi->attributes)
			fi->attributes = FILE_ATTRIBUTE_NORMAL;
	}
	fi->directory = smbsrv_file_is_dir(f);
	fi->delete_pending = smbsrv_file_delete_pending(f);
	/* Directories have one link, as on NTFS; a pending delete takes one. */
	fi->nlink = fi->directory ? 1 : fa.nlink;
	if (fi->delete_pending && fi->nlink)
		fi->nlink--;
	fi->access = f->access;
	fi->mode = READ_ONCE(f->options) & FILE_MODE_VALID;
	if (f->flags & SMBSRV_FILE_DELETE_ON_CLOSE)
		fi->mode |= FILE_DELETE_ON_CLOSE;
	if (S_ISLNK(fa.mode))
		fi->reparse_tag = IO_REPARSE_TAG_SYMLINK;
	if (cls == FILE_EA_INFORMATION || cls == FILE_ALL_INFORMATION)
		fi->ea_size = smbsrv_ea_size(path->dentry);

	fi->name = "";
	if (cls != FILE_ALL_INFORMATION && cls != FILE_NORMALIZED_NAME_INFORMATION &&
	    cls != FILE_ALTERNATE_NAME_INFORMATION)
		return STATUS_SUCCESS;
	*buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!*buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	/* A previous version has no path below the share's root. */
	name = f->flags & SMBSRV_FILE_SNAPSHOT ? NULL :
	       smbsrv_meta_path(tree, path, *buf, cls == FILE_ALL_INFORMATION);
	if (!name) {
		/* Unlinked, a snapshot, on another mount: the name opened. */
		name = *buf;
		snprintf(name, PATH_MAX, "%s%s",
			 cls == FILE_ALL_INFORMATION ? "\\" : "", f->name);
		for (i = 0; name[i]; i++)
			if (name[i] == '/')
				name[i] = '\\';
	}
	if (cls == FILE_ALTERNATE_NAME_INFORMATION) {
		/* The 8.3 name of the last component; the root has none. */
		if (!*name)
			return STATUS_OBJECT_NAME_NOT_FOUND;
		fi->name = strrchr(name, '\\') ? strrchr(name, '\\') + 1 : name;
		n = smb_short_name(fi->name, strlen(fi->name), sn);
		for (i = 0; i < n / 2; i++)
			(*buf)[i] = (char)sn[2 * i];
		(*buf)[n / 2] = 0;
		name = *buf;
	}
	fi->name = name;
	fi->name_len = strlen(name);
	return STATUS_SUCCESS;
}

/* Reply with class @cls: whole, cut short, or too small for its minimum. */
static u32 smbsrv_query_reply(struct smbsrv_req *req, u32 out_len, u8 cls,
			      const struct smb_finfo *fi)
{
	struct smb_out o = { NULL, 0 };
	int full = smb_file_info_encode(cls, fi, &o);
	u32 n;

	if (full < 0)
		return STATUS_OBJECT_NAME_INVALID;
	if (out_len < smb_file_info_min(cls))
		return STATUS_INFO_LENGTH_MISMATCH;
	n = min_t(u32, full, out_len);
	o.buf = smbsrv_qinfo_out(req, n);
	if (!o.buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	o.cap = n;
	smb_file_info_encode(cls, fi, &o);
	return n < (u32)full ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

/* The most named streams FileStreamInformation lists. */
#define SMBSRV_STREAMS_MAX	2048

/*
 * FileStreamInformation: the data stream of a file (a directory has
 * none), then, where the share keeps them, its named streams (the same
 * list through any open of the file or of one of its streams).
 */
static u32 smbsrv_query_streams(struct smbsrv_req *req, struct smbsrv_file *f,
				u32 out_len)
{
	struct inode *inode = file_inode(f->filp);
	struct smb_out o = { NULL, 0 };
	struct smb_stream_ent *ents;
	struct smbsrv_fattr fa;
	char *list = NULL;
	u32 n = 0, fit, status;
	int full, err;

	err = smbsrv_vfs_getattr(req->tree, &f->filp->f_path, &fa);
	if (err)
		return smbsrv_errno_status(err);
	if (out_len < SMB_STREAM_INFO_MIN)
		return STATUS_INFO_LENGTH_MISMATCH;
	ents = kvmalloc_array(SMBSRV_STREAMS_MAX + 2, sizeof(*ents),
			      GFP_KERNEL);
	if (!ents)
		return STATUS_INSUFFICIENT_RESOURCES;
	if (S_ISREG(inode->i_mode)) {
		ents[0].name = "";
		ents[0].name_len = 0;
		ents[0].size = fa.eof;
		ents[0].allocation = fa.allocation;
		n = 1;
	}
	if ((req->tree->share_flags & SMBSRV_SHARE_FLAGS_STREAMS) &&
	    !(f->flags & SMBSRV_FILE_REPARSE)) {
		err = smbsrv_stream_list(f->filp->f_path.dentry, ents + n,
					 SMBSRV_STREAMS_MAX, &list);
		if (err < 0) {
			status = smbsrv_errno_status(err);
			goto out;
		}
		n += err;
		/* What a Mac sees (fruit.h): AfpInfo, no empty streams. */
		if (smbsrv_fruit_tree(req->tree))
			n = smbsrv_fruit_streams(req->tree,
						 READ_ONCE(req->conn->aapl),
						 &f->filp->f_path, ents, n,
						 SMBSRV_STREAMS_MAX + 2);
	}
	full = smb_stream_info_encode(ents, n, &o, &fit);
	if (full < 0) {
		status = STATUS_OBJECT_NAME_INVALID;
		goto out;
	}
	o.cap = min_t(u32, full, out_len);
	o.buf = smbsrv_qinfo_out(req, o.cap);
	if (!o.buf) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	smb_stream_info_encode(ents, n, &o, &fit);
	status = STATUS_SUCCESS;
	if (fit == (u32)full)
		goto out;
	/* Whole entries only; too small for even one: its start. */
	if (fit)
		req->rsp_len = SMB2_HDR_SIZE +
			       smb2_query_info_rsp_encode(req->rsp + SMB2_HDR_SIZE,
							  fit);
	status = STATUS_BUFFER_OVERFLOW;
out:
	kvfree(list);
	kvfree(ents);
	return status;
}

/* FILE_FULL_EA_INFORMATION entries being chained into one buffer. */
struct smbsrv_ea_out {
	u8 *buf;
	u32 cap;	/* bytes the client allows */
	u32 off;	/* end of the last entry */
	u32 prev;	/* start of the last entry */
	u32 count;
};

/*
 * Append one entry, 4-byte aligned after the previous one whose
 * NextEntryOffset it sets.  False when it does not fit.
 */
static bool smbsrv_ea_append(struct smbsrv_ea_out *o, const char *name,
			     u32 nlen, const u8 *val, u32 vlen)
{
	u32 elen = smb_ea_entry_size(nlen, vlen);
	u32 off = o->count ? ALIGN(o->off, 4) : 0;

	if (off + elen > o->cap)
		return false;
	if (o->count)
		put_unaligned_le32(off - o->prev, o->buf + o->prev);
	smb_ea_entry_encode(o->buf + off, 0, name, nlen, val, vlen);
	o->prev = off;
	o->off = off + elen;
	o->count++;
	return true;
}

/*
 * FileFullEaInformation (MS-FSA 2.1.5.12.12): the EAs named in the
 * input's FILE_GET_EA_INFORMATION list (empty values for missing ones),
 * or all of them from the open's position (SL_RESTART_SCAN, SL_INDEX_SPECIFIED
 * with an index), as many whole entries as fit, one with
 * SL_RETURN_SINGLE_ENTRY.
 */
static u32 smbsrv_query_eas(struct smbsrv_req *req, struct smbsrv_file *f,
			    const struct smb2_query_info_req *r)
{
	struct dentry *dentry = f->filp->f_path.dentry;
	struct smbsrv_ea_out o = { .cap = r->out_len };
	u32 idx = 0, start, pos = 0, nlen;
	char *list = NULL, *p, xname[XATTR_NAME_MAX + 1];
	const char *name;
	ssize_t len, v;
	u8 *out, *val;
	bool more = false;
	int k;

	if (!(f->access & FILE_READ_EA))
		return STATUS_ACCESS_DENIED;
	val = kvmalloc(XATTR_SIZE_MAX, GFP_KERNEL);
	out = kvzalloc(r->out_len ? r->out_len : 1, GFP_KERNEL);
	if (!val || !out) {
		kvfree(val);
		kvfree(out);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	o.buf = out;
	if (r->in_len) {
		/* The EAs asked for by name, from the start. */
		while ((k = smb_get_ea_next(r->in, r->in_len, &pos, &name,
					    &nlen)) > 0) {
			snprintf(xname, sizeof(xname), XATTR_USER_PREFIX "%.*s",
				 (int)nlen, name);
			v = vfs_getxattr(&nop_mnt_idmap, dentry, xname, val,
					 XATTR_SIZE_MAX);
			if (v < 0 || v > 0xffff ||
			    smbsrv_vfs_private_ea(xname + XATTR_USER_PREFIX_LEN))
				v = 0;
			if (!smbsrv_ea_append(&o, name, nlen, val, v)) {
				more = true;
				break;
			}
		}
		if (k < 0) {
			kvfree(val);
			kvfree(out);
			return STATUS_EA_LIST_INCONSISTENT;
		}
		goto reply;
	}

	if (r->flags & SL_RESTART_SCAN)
		f->ea_next = 0;
	else if (r->flags & SL_INDEX_SPECIFIED)
		f->ea_next = r->additional ? r->additional - 1 : 0;
	start = f->ea_next;
	len = smbsrv_ea_names(dentry, &list);
	if (len < 0) {
		kvfree(val);
		kvfree(out);
		return smbsrv_errno_status(len);
	}
	for (p = list; list && p < list + len; p += strlen(p) + 1) {
		if (!smbsrv_ea_is_ea(p, &name))
			continue;
		if (idx++ < start)
			continue;
		v = vfs_getxattr(&nop_mnt_idmap, dentry, p, val, XATTR_SIZE_MAX);
		if (v < 0 || v > 0xffff)
			continue;
		if (o.count && (r->flags & SL_RETURN_SINGLE_ENTRY)) {
			more = true;
			break;
		}
		if (!smbsrv_ea_append(&o, name, strlen(name), val, v)) {
			more = true;
			break;
		}
		f->ea_next = idx;
	}
	kvfree(list);
	if (!o.count && !more) {
		kvfree(val);
		kvfree(out);
		return idx ? STATUS_NO_MORE_EAS : STATUS_NO_EAS_ON_FILE;
	}
reply:
	kvfree(val);
	if (!o.count && more) {
		kvfree(out);
		return STATUS_BUFFER_TOO_SMALL;
	}
	p = smbsrv_qinfo_out(req, o.off);
	if (p)
		memcpy(p, out, o.off);
	kvfree(out);
	if (!p)
		return STATUS_INSUFFICIENT_RESOURCES;
	return more && !(r->flags & SL_RETURN_SINGLE_ENTRY) ?
	       STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

static u32 smbsrv_query_file(struct smbsrv_req *req, struct smbsrv_file *f,
			     const struct smb2_query_info_req *r)
{
	u8 cls = r->info_class;
	struct smb_finfo fi;
	char *buf = NULL;
	u32 status;

	switch (cls) {
	case FILE_BASIC_INFORMATION:
	case FILE_ALL_INFORMATION:
	case FILE_NETWORK_OPEN_INFORMATION:
	case FILE_ATTRIBUTE_TAG_INFORMATION:
		if (!(f->access & FILE_READ_ATTRIBUTES))
			return STATUS_ACCESS_DENIED;
		break;
	case FILE_STREAM_INFORMATION:
		return smbsrv_query_streams(req, f, r->out_len);
	case FILE_FULL_EA_INFORMATION:
		return smbsrv_query_eas(req, f, r);
	case FILE_POSIX_INFORMATION:
		return smbsrv_posix_query_file(req, f, r->out_len);
	case FILE_NORMALIZED_NAME_INFORMATION:
		if (req->conn->dialect < SMB2_DIALECT_311)
			return STATUS_NOT_SUPPORTED;
		break;
	case FILE_ID_INFORMATION:
		if (req->conn->dialect < SMB2_DIALECT_300)
			return STATUS_NOT_SUPPORTED;
		break;
	default:
		break;
	}
	if (!smb_file_info_min(cls)) {
		/* Documented but not served here, or not a query class. */
		if (smb_file_class_uses(cls) & (SMB_INFO_QUERY | SMB_INFO_LOCAL))
			return STATUS_NOT_SUPPORTED;
		return STATUS_INVALID_INFO_CLASS;
	}
	status = smbsrv_query_finfo(req, f, cls, &fi, &buf);
	if (!status)
		status = smbsrv_query_reply(req, r->out_len, cls, &fi);
	kfree(buf);
	return status;
}

/* ---- file-system classes ------------------------------------------------ */

/*
 * fruit:time machine max size: Time Machine is told the share has that
 * much, less what its sparse bundles take (as Samba counts it), in units
 * of two 512-byte sectors.
 */
static void smbsrv_query_fs_tm(const struct smbsrv_tree *tree,
			       struct smb_fsinfo *fs)
{
	u64 max = tree->share->fruit_tm_max_size, used;

	if (!smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_TIME_MACHINE) || !max ||
	    smbsrv_fruit_tm_used(tree, &used))
		return;
	fs->bytes_per_sector = 512;
	fs->sectors_per_unit = 2;
	fs->total_units = max / 1024;
	fs->caller_avail_units = used < max ? (max - used) / 1024 : 0;
	fs->actual_avail_units = fs->caller_avail_units;
}

static u32 smbsrv_query_fs(struct smbsrv_req *req, struct smbsrv_file *f,
			   const struct smb2_query_info_req *r)
{
	const struct path *path = &f->filp->f_path;
	struct smbsrv_tree *tree = req->tree;
	struct super_block *sb = path->dentry->d_sb;
	u8 cls = r->info_class;
	struct smb_out o = { NULL, 0 };
	struct smbsrv_fattr fa;
	struct smb_fsinfo fs;
	struct kstatfs st;
	u32 serial, i;
	int full, err;

	if (cls == FS_POSIX_INFORMATION)
		return smbsrv_posix_query_fs(req, f, r->out_len);
	if (!smb_fs_info_min(cls)) {
		if (smb_fs_class_uses(cls) & (SMB_INFO_QUERY | SMB_INFO_LOCAL))
			return STATUS_NOT_SUPPORTED;
		return STATUS_INVALID_INFO_CLASS;
	}
	memset(&fs, 0, sizeof(fs));
	err = vfs_statfs(path, &st);
	if (err)
		return smbsrv_errno_status(err);
	fs.bytes_per_sector = 512;
	fs.sectors_per_unit = max_t(u32, st.f_bsize / 512, 1);
	fs.total_units = st.f_blocks * (st.f_bsize ? st.f_bsize : 512) /
			 ((u64)fs.sectors_per_unit * 512);
	fs.caller_avail_units = st.f_bavail * (st.f_bsize ? st.f_bsize : 512) /
				((u64)fs.sectors_per_unit * 512);
	fs.actual_avail_units = st.f_bfree * (st.f_bsize ? st.f_bsize : 512) /
				((u64)fs.sectors_per_unit * 512);
	if (cls == FILE_FS_SIZE_INFORMATION ||
	    cls == FILE_FS_FULL_SIZE_INFORMATION)
		smbsrv_query_fs_tm(tree, &fs);
	fs.max_name_len = st.f_namelen ? st.f_namelen : 255;
	serial = smbsrv_meta_serial(sb);
	fs.serial = serial;
	if (!smbsrv_vfs_getattr(tree, &tree->root, &fa))
		fs.volume_created = fa.creation_time;
	fs.attributes = FILE_CASE_SENSITIVE_SEARCH | FILE_CASE_PRESERVED_NAMES |
			FILE_UNICODE_ON_DISK | FILE_PERSISTENT_ACLS |
			FILE_SUPPORTS_SPARSE_FILES | FILE_SUPPORTS_OBJECT_IDS |
			FILE_SUPPORTS_HARD_LINKS |
			FILE_SUPPORTS_EXTENDED_ATTRIBUTES;
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_STREAMS)
		fs.attributes |= FILE_NAMED_STREAMS;
	fs.device_characteristics = FILE_DEVICE_IS_MOUNTED;
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY) {
		fs.attributes |= FILE_READ_ONLY_VOLUME;
		fs.device_characteristics |= FILE_READ_ONLY_DEVICE;
	}
	/* The volume's object id: its UUID, or one made from its serial. */
	memcpy(fs.object_id, &sb->s_uuid, 16);
	if (uuid_is_null(&sb->s_uuid))
		for (i = 0; i < 16; i++)
			fs.object_id[i] = (u8)(serial >> (8 * (i % 4))) ^
					  smbsrv_server_guid[i];
	fs.label = tree->share->name;
	fs.label_len = strlen(fs.label);
	fs.fs_name = "NTFS";
	fs.fs_name_len = 4;

	full = smb_fs_info_encode(cls, &fs, &o);
	if (full < 0)
		return STATUS_OBJECT_NAME_INVALID;
	if (r->out_len < smb_fs_info_min(cls))
		return STATUS_INFO_LENGTH_MISMATCH;
	o.cap = min_t(u32, full, r->out_len);
	o.buf = smbsrv_qinfo_out(req, o.cap);
	if (!o.buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb_fs_info_encode(cls, &fs, &o);
	return o.cap < (u32)full ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

u32 smbsrv_smb2_query_info(struct smbsrv_req *req)
{
	struct smb2_query_info_req r;
	struct smbsrv_file *f;
	const struct cred *old;
	u32 status;

	status = smb2_query_info_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	if (r.out_len > req->conn->max_trans || r.in_len > req->conn->max_trans)
		return STATUS_INVALID_PARAMETER;
	status = smbsrv_req_check_charge(req);
	if (status)
		return status;
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return STATUS_FILE_CLOSED;
	old = smbsrv_vfs_creds_begin(req->tree);
	switch (r.info_type) {
	case SMB2_0_INFO_FILE:
		status = smbsrv_query_file(req, f, &r);
		break;
	case SMB2_0_INFO_FILESYSTEM:
		status = smbsrv_query_fs(req, f, &r);
		break;
	case SMB2_0_INFO_SECURITY:
		status = smbsrv_query_security(req, f, &r);
		break;
	case SMB2_0_INFO_QUOTA:
		/* No quotas are kept. */
		status = STATUS_NOT_SUPPORTED;
		break;
	default:
		status = STATUS_INVALID_PARAMETER;
		break;
	}
	smbsrv_vfs_creds_end(old);
	smbsrv_file_put(f);
	/* Errors go out with the ERROR body; BUFFER_OVERFLOW with ours. */
	if (status && status != STATUS_BUFFER_OVERFLOW &&
	    status != STATUS_BUFFER_TOO_SMALL)
		smbsrv_rsp_free(req);
	return status;
}
