// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: server-side copy and block cloning FSCTLs (MS-SMB2 3.3.5.15.5,
 * 3.3.5.15.6; MS-FSCC 2.3.8).
 *
 * A resume key names an open of the same session (and, keyed-hashed, its
 * file); COPYCHUNK copies each chunk with vfs_copy_file_range() (reflink
 * or in-kernel splice), never through the network (named streams, kept
 * in xattrs, through memory); DUPLICATE_EXTENTS
 * clones blocks where the file system can share them.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/once.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>

#include "../brl.h"
#include "../conn.h"
#include "../file.h"
#include "../fruit.h"
#include "../session.h"
#include "../status.h"
#include "../stream.h"
#include "../vfs.h"
#include "../wire/fscc.h"
#include "../wire/fsctl.h"
#include "../wire/ioctl.h"
#include "fsctl.h"
#include "smb2.h"

/* Server-side copy limits (MS-SMB2 3.3.5.15.6; Windows' values). */
#define SMBSRV_COPYCHUNK_MAX_CHUNKS	256
#define SMBSRV_COPYCHUNK_MAX_CHUNK	(1024 * 1024)
#define SMBSRV_COPYCHUNK_MAX_TOTAL	(16 * 1024 * 1024)

/*
 * The last 8 bytes of a resume key: a keyed hash of the file's identity,
 * so that a key outliving its open (FileIds are reused) never names
 * another file, and a client cannot make up keys.
 */
static siphash_key_t smbsrv_resume_secret;

static u64 smbsrv_fsctl_resume_tag(struct smbsrv_file *f)
{
	struct inode *inode = file_inode(f->filp);

	get_random_once(&smbsrv_resume_secret, sizeof(smbsrv_resume_secret));
	return siphash_2u64(inode->i_ino,
			    (u64)new_encode_dev(inode->i_sb->s_dev) << 32 |
			    inode->i_generation, &smbsrv_resume_secret);
}

/* FSCTL_SRV_REQUEST_RESUME_KEY (3.3.5.15.5): FileId and the file's tag. */
u32 smbsrv_fsctl_resume_key(struct smbsrv_fsctl *x)
{
	struct smb2_resume_key key = {
		.fid_persistent = x->f->open.id_persistent,
		.fid_volatile = x->f->open.id_volatile,
		.tag = smbsrv_fsctl_resume_tag(x->f),
	};
	u8 *out;

	if (x->r->max_out < SMB2_RESUME_KEY_RSP_SIZE)
		return STATUS_INVALID_PARAMETER;
	out = smbsrv_ioctl_out(x->req, x->r, SMB2_RESUME_KEY_RSP_SIZE);
	if (!out)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_resume_key_rsp_encode(out, &key);
	return STATUS_SUCCESS;
}

/* The copy response: counts, or the server's limits. */
static u32 smbsrv_fsctl_copy_rsp(struct smbsrv_fsctl *x, u32 status,
				 u32 chunks, u32 chunk_bytes, u32 total)
{
	u8 *out = smbsrv_ioctl_out(x->req, x->r, SMB2_COPYCHUNK_RSP_SIZE);

	if (!out)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_copychunk_rsp_encode(out, chunks, chunk_bytes, total);
	return status;
}

static u32 smbsrv_fsctl_copy_limits(struct smbsrv_fsctl *x)
{
	return smbsrv_fsctl_copy_rsp(x, STATUS_INVALID_PARAMETER,
				     SMBSRV_COPYCHUNK_MAX_CHUNKS,
				     SMBSRV_COPYCHUNK_MAX_CHUNK,
				     SMBSRV_COPYCHUNK_MAX_TOTAL);
}

/*
 * Copy through memory: the same file with overlapping ranges (which
 * copy_file_range refuses), or where nothing else copies.
 */
static ssize_t smbsrv_fsctl_copy_bounce(struct file *in, loff_t pos_in,
					struct file *out, loff_t pos_out,
					size_t len)
{
	ssize_t n, w;
	void *buf;

	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = kernel_read(in, buf, len, &pos_in);
	if (n > 0) {
		w = kernel_write(out, buf, n, &pos_out);
		if (w != n)
			n = w < 0 ? w : -EIO;
	}
	kvfree(buf);
	return n;
}

/*
 * Copy through memory where a named stream (an xattr's value, stream.h)
 * is the source or the target: streams are at most 64 KiB.
 */
static ssize_t smbsrv_fsctl_copy_stream(struct smbsrv_file *in, loff_t pos_in,
					struct smbsrv_file *out,
					loff_t pos_out, size_t len)
{
	struct iov_iter to;
	struct kvec kv;
	ssize_t n, w;
	void *buf;

	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (smbsrv_file_is_stream(in)) {
		kv.iov_base = buf;
		kv.iov_len = len;
		iov_iter_kvec(&to, ITER_DEST, &kv, 1, len);
		n = smbsrv_stream_read(in, pos_in, &to);
	} else {
		n = kernel_read(in->filp, buf, len, &pos_in);
	}
	if (n > 0) {
		if (smbsrv_file_is_stream(out))
			w = smbsrv_stream_write(out, &pos_out, false, buf, n);
		else
			w = kernel_write(out->filp, buf, n, &pos_out);
		if (w != n)
			n = w < 0 ? w : -EIO;
	}
	kvfree(buf);
	return n;
}

/* Copy @len bytes; returns what was copied (*@err says why it stopped). */
static u32 smbsrv_fsctl_copy_range(struct smbsrv_file *src, u64 pos_in,
				   struct smbsrv_file *dst, u64 pos_out,
				   u32 len, int *err)
{
	struct file *in = src->filp, *out = dst->filp;
	bool streams = smbsrv_file_is_stream(src) ||
		       smbsrv_file_is_stream(dst);
	u32 done = 0;
	ssize_t n;

	*err = 0;
	while (done < len) {
		if (streams) {
			n = smbsrv_fsctl_copy_stream(src, pos_in + done, dst,
						     pos_out + done,
						     len - done);
			goto copied;
		}
		n = vfs_copy_file_range(in, pos_in + done, out,
					pos_out + done, len - done, 0);
		if (n == -EXDEV || n == -EOPNOTSUPP)
			n = vfs_copy_file_range(in, pos_in + done, out,
						pos_out + done, len - done,
						COPY_FILE_SPLICE);
		if (n == -EINVAL || n == -EXDEV || n == -EOPNOTSUPP)
			n = smbsrv_fsctl_copy_bounce(in, pos_in + done, out,
						     pos_out + done,
						     len - done);
copied:
		if (n <= 0) {
			*err = n ? (int)n : -EIO;
			break;
		}
		done += n;
	}
	return done;
}

/*
 * fruit:copyfile (Samba's): the whole of @src over the target from offset
 * 0, then its named streams; the answer counts the bytes, no chunks.
 */
static u32 smbsrv_fsctl_copyfile(struct smbsrv_fsctl *x,
				 struct smbsrv_file *src)
{
	u64 size = i_size_read(file_inode(src->filp)), done = 0;
	const struct cred *old;
	u32 status = STATUS_SUCCESS, n;
	int err = 0;

	if (size > U32_MAX)
		return STATUS_INVALID_PARAMETER;	/* the answer's field */
	old = smbsrv_vfs_creds_begin(x->req->tree);
	status = smbsrv_brl_check_io(src, 0, size, false);
	if (!status)
		status = smbsrv_brl_check_io(x->f, 0, size, true);
	while (!status && done < size) {
		n = smbsrv_fsctl_copy_range(src, done, x->f, done,
					    min_t(u64, size - done,
						  SMBSRV_COPYCHUNK_MAX_CHUNK),
					    &err);
		done += n;
		if (err)
			status = smbsrv_errno_status(err);
	}
	if (!status) {
		err = smbsrv_fruit_copy_streams(&src->filp->f_path,
						&x->f->filp->f_path);
		status = smbsrv_errno_status(err);
	}
	smbsrv_vfs_creds_end(old);
	return smbsrv_fsctl_copy_rsp(x, status, 0, 0, (u32)done);
}

/* FSCTL_SRV_COPYCHUNK and FSCTL_SRV_COPYCHUNK_WRITE (3.3.5.15.6). */
u32 smbsrv_fsctl_copychunk(struct smbsrv_fsctl *x)
{
	struct smb2_copychunk_req cr;
	struct smb2_copychunk c;
	struct smb2_resume_key key;
	struct smbsrv_file *src;
	const struct cred *old;
	u32 i, status = STATUS_SUCCESS, chunks = 0, partial = 0, copied;
	u64 total = 0;
	loff_t size;
	int err;

	if (x->r->max_out < SMB2_COPYCHUNK_RSP_SIZE)
		return STATUS_INVALID_PARAMETER;
	if (smb2_copychunk_decode(x->r->in, x->r->in_len, &cr)) {
		if (x->r->in_len < SMB2_RESUME_KEY_SIZE)
			return smbsrv_fsctl_copy_limits(x);
		cr.key = x->r->in;
		cr.count = SMBSRV_COPYCHUNK_MAX_CHUNKS + 1;	/* refused below */
	}
	smb2_resume_key_decode(cr.key, &key);
	src = smbsrv_file_lookup(x->req->sess, NULL, key.fid_persistent,
				 key.fid_volatile);
	if (!src)
		return STATUS_OBJECT_NAME_NOT_FOUND;
	if (key.tag != smbsrv_fsctl_resume_tag(src)) {
		status = STATUS_OBJECT_NAME_NOT_FOUND;
		goto out;
	}
	if (cr.count > SMBSRV_COPYCHUNK_MAX_CHUNKS) {
		status = smbsrv_fsctl_copy_limits(x);
		goto out;
	}
	for (i = 0; i < cr.count; i++) {
		smb2_copychunk_get(&cr, i, &c);
		total += c.length;
		if (!c.length || c.length > SMBSRV_COPYCHUNK_MAX_CHUNK ||
		    total > SMBSRV_COPYCHUNK_MAX_TOTAL) {
			status = smbsrv_fsctl_copy_limits(x);
			goto out;
		}
	}
	/* COPYCHUNK reads through the target handle too (3.3.5.15.6). */
	if (!(x->f->access & FILE_WRITE_DATA) ||
	    (x->r->ctl_code == FSCTL_SRV_COPYCHUNK &&
	     !(x->f->access & FILE_READ_DATA)) ||
	    !(src->access & (FILE_READ_DATA | FILE_EXECUTE))) {
		status = STATUS_ACCESS_DENIED;
		goto out;
	}
	/* Named streams copy too, as with Samba (OS X copies resource forks). */
	if ((x->f->flags | src->flags) &
	    (SMBSRV_FILE_DIR | SMBSRV_FILE_REPARSE)) {
		status = STATUS_INVALID_PARAMETER;
		goto out;
	}

	/* OS X copyfile: no chunks asks for the whole file and its streams. */
	if (!cr.count && READ_ONCE(x->req->conn->aapl) &&
	    !smbsrv_file_is_stream(src) && !smbsrv_file_is_stream(x->f) &&
	    smbsrv_fruit_has(x->req->tree, SMBSRV_FRUIT_FLAGS_COPYFILE)) {
		status = smbsrv_fsctl_copyfile(x, src);
		goto out;
	}
	total = 0;
	old = smbsrv_vfs_creds_begin(x->req->tree);
	size = smbsrv_file_is_stream(src) ? smbsrv_stream_size(src) :
		i_size_read(file_inode(src->filp));
	for (i = 0; i < cr.count; i++) {
		smb2_copychunk_get(&cr, i, &c);
		if (size < 0) {
			status = smbsrv_errno_status((int)size);
			break;
		}
		if (c.source + c.length < c.source ||
		    c.source + c.length > (u64)size) {
			status = STATUS_INVALID_VIEW_SIZE;
			break;
		}
		if (c.target + c.length > (u64)LLONG_MAX) {
			status = STATUS_INVALID_PARAMETER;
			break;
		}
		status = smbsrv_brl_check_io(src, c.source, c.length, false);
		if (!status)
			status = smbsrv_brl_check_io(x->f, c.target, c.length,
						     true);
		if (status)
			break;
		copied = smbsrv_fsctl_copy_range(src, c.source,
						 x->f, c.target,
						 c.length, &err);
		total += copied;
		if (err) {
			partial = copied;
			status = smbsrv_errno_status(err);
			break;
		}
		chunks++;
	}
	smbsrv_vfs_creds_end(old);
	status = smbsrv_fsctl_copy_rsp(x, status, chunks, partial, (u32)total);
out:
	smbsrv_file_put(src);
	return status;
}

/*
 * FSCTL_DUPLICATE_EXTENTS_TO_FILE (MS-FSCC 2.3.8): a block clone from an
 * open of the same session, where the file system can share blocks
 * (vfs_clone_file_range: XFS with reflink, Btrfs); STATUS_NOT_SUPPORTED
 * where it cannot, never a copy that only looks like a clone.
 */
u32 smbsrv_fsctl_dup_extents(struct smbsrv_fsctl *x)
{
	struct smb_dup_extents d;
	struct smbsrv_file *src;
	const struct cred *old;
	u64 soff, doff, len;
	u32 status = STATUS_SUCCESS;
	loff_t n;

	if (smb_dup_extents_decode(x->r->in, x->r->in_len, &d))
		return STATUS_INVALID_PARAMETER;
	if (!smbsrv_fsctl_regular(x))
		return STATUS_INVALID_PARAMETER;
	if (!(x->f->access & FILE_WRITE_DATA))
		return STATUS_ACCESS_DENIED;
	soff = d.source_offset;
	doff = d.target_offset;
	len = d.length;
	/* Windows answers an unknown source so, not STATUS_FILE_CLOSED. */
	src = smbsrv_file_lookup(x->req->sess, NULL, d.fid_persistent,
				 d.fid_volatile);
	if (!src)
		return STATUS_INVALID_HANDLE;
	if (!(src->access & FILE_READ_DATA))
		status = STATUS_ACCESS_DENIED;
	else if (src->flags & (SMBSRV_FILE_DIR | SMBSRV_FILE_REPARSE |
			       SMBSRV_FILE_STREAM))
		status = STATUS_INVALID_PARAMETER;
	else if (soff > (u64)LLONG_MAX || doff > (u64)LLONG_MAX ||
		 len > (u64)LLONG_MAX - max(soff, doff))
		status = STATUS_INVALID_PARAMETER;
	if (status || !len)
		goto out;
	old = smbsrv_vfs_creds_begin(x->req->tree);
	n = vfs_clone_file_range(src->filp, soff, x->f->filp, doff, len, 0);
	smbsrv_vfs_creds_end(old);
	if (n == -EOPNOTSUPP || n == -EXDEV)
		status = STATUS_NOT_SUPPORTED;
	else if (n < 0)
		status = smbsrv_errno_status(n);
	else if (n != len)
		status = STATUS_IO_DEVICE_ERROR;
out:
	smbsrv_file_put(src);
	return status;
}
