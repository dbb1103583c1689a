// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: WRITE and FLUSH (MS-SMB2 3.3.5.13, 3.3.5.11); READ is read.c.
 *
 * Data moves through the VFS's iov_iter interfaces with the tree's
 * credentials: from the request buffer, or, for a WRITE the receiver
 * took in pages (rxpages.h), from those pages, its one copy (counted in
 * writestats.h either way).  A WRITE answered STATUS_SUCCESS is in the page cache; a
 * write-through WRITE (SMB2_WRITEFLAG_WRITE_THROUGH, or an open made with
 * FILE_WRITE_THROUGH) and FLUSH are on stable storage before the answer
 * (vfs_fsync_range(), vfs_fsync()).
 */
#include <linux/backing-dev.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/uio.h>
#include <uapi/linux/smbsrv.h>

#include "../audit.h"
#include "../brl.h"
#include "../cache.h"
#include "../cmdstats.h"
#include "../conn.h"
#include "../file.h"
#include "../rxpages.h"
#include "../session.h"
#include "../smbsrv.h"
#include "../splice.h"
#include "../status.h"
#include "../stream.h"
#include "../vfs.h"
#include "../writestats.h"
#include "../wire/fscc.h"
#include "../wire/logon.h"
#include "../wire/rw.h"
#include "../wtime.h"
#include "pipe.h"
#include "smb2.h"

/*
 * Where a WRITE goes: its offset, or the end of the file for the
 * "write to end of file" offset on an append-only open (MS-FSA 2.1.5.3).
 * Anything past the largest file offset is refused, as Windows does.
 */
static u32 smbsrv_write_pos(const struct smb2_write_req *r,
			    const struct smbsrv_file *f, bool *append)
{
	*append = false;
	if (r->offset == SMB2_WRITE_APPEND &&
	    (f->access & (FILE_WRITE_DATA | FILE_APPEND_DATA)) ==
	    FILE_APPEND_DATA) {
		*append = true;
		return STATUS_SUCCESS;
	}
	if (r->offset > SMB2_RW_OFFSET_MAX ||
	    r->length > SMB2_RW_OFFSET_MAX - r->offset)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

/* Why a WRITE of @len bytes came with its data in the message buffer. */
static enum smbsrv_wcopy_reason smbsrv_write_copy_why(struct smbsrv_req *req,
						      u32 len)
{
	u32 min = READ_ONCE(smbsrv_server.knobs.min_receivefile_size);

	if (req->compound)
		return SMBSRV_WCOPY_COMPOUND;
	if (!min)
		return SMBSRV_WCOPY_OFF;
	if (len < min)
		return SMBSRV_WCOPY_SMALL;
	if (req->encrypted)
		return SMBSRV_WCOPY_SEALED;
	return SMBSRV_WCOPY_OTHER;
}

/*
 * A named stream is an xattr, written whole from a buffer: data received
 * into pages is copied into one first.
 */
static ssize_t smbsrv_write_stream(struct smbsrv_file *f, loff_t *pos,
				   bool append, const struct smb2_write_req *r,
				   struct iov_iter *from)
{
	ssize_t n;
	void *buf;

	if (r->data)
		return smbsrv_stream_write(f, pos, append, r->data, r->length);
	buf = kvmalloc(r->length, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_iter(buf, r->length, from) != r->length)
		n = -EFAULT;
	else
		n = smbsrv_stream_write(f, pos, append, buf, r->length);
	kvfree(buf);
	return n;
}

/*
 * Whether a WRITE the receiver runs at depth (req->nowait_depth) may go
 * ahead: only if nothing in it can wait.  A regular file, not a named
 * stream, the bytes within the file as it is (no growth, no block to
 * allocate), every page of them in memory and up to date (smbsrv_pages_
 * resident(); a look, not a hold: a page reclaimed after it makes the
 * write wait, as a READ's does), on a file system that does not write
 * back (no dirty throttling, no journal to wait for: tmpfs).
 */
static bool smbsrv_write_may_inline(struct smbsrv_file *f,
				    const struct smb2_write_req *r)
{
	struct inode *inode = file_inode(f->filp);
	loff_t size = i_size_read(inode);

	if (smbsrv_file_is_stream(f) || !S_ISREG(inode->i_mode) ||
	    mapping_can_writeback(f->filp->f_mapping) ||
	    r->offset > size || r->length > size - r->offset)
		return false;
	return smbsrv_pages_resident(f->filp, r->offset, r->length);
}

u32 smbsrv_smb2_write(struct smbsrv_req *req)
{
	struct smb2_write_req r;
	struct smbsrv_file *f;
	const struct cred *old;
	struct timespec64 before;
	struct iov_iter from;
	struct kvec kv;
	bool append, sync;
	loff_t pos, start;
	u32 status;
	ssize_t n;
	u8 *body;
	int err;

	if (req->rx)
		status = smb2_write_req_decode_ext(req->pdu, req->pdu_len,
						   req->rx->len, &r);
	else
		status = smb2_write_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	if (r.channel != SMB2_CHANNEL_NONE || r.length > req->conn->max_write)
		return STATUS_INVALID_PARAMETER;
	status = smbsrv_req_check_charge(req);
	if (status)
		return status;
	if (req->tree->share_flags & SMBSRV_SHARE_FLAGS_IPC) {
		if (req->nowait)
			return SMBSRV_WOULD_BLOCK;	/* an upcall */
		return smbsrv_pipe_write(req, &r);
	}
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return smbsrv_req_fid_status(req);
	/*
	 * Run by the receiver (an inline WRITE, sched.c): a write-through WRITE,
	 * which waits for the disk, goes to a worker, having done nothing.
	 */
	if (req->nowait && ((r.flags & SMB2_WRITEFLAG_WRITE_THROUGH) ||
			    (f->options & FILE_WRITE_THROUGH) ||
			    (req->nowait_depth &&
			     !smbsrv_write_may_inline(f, &r)))) {
		status = SMBSRV_WOULD_BLOCK;
		goto out;
	}
	if (smbsrv_file_is_dir(f) || (f->flags & SMBSRV_FILE_REPARSE)) {
		status = STATUS_INVALID_DEVICE_REQUEST;
		goto out;
	}
	if (!(f->access & (FILE_WRITE_DATA | FILE_APPEND_DATA))) {
		status = STATUS_ACCESS_DENIED;
		goto out;
	}
	/* A previous version is read-only, whatever was granted (snap.h). */
	if (f->flags & SMBSRV_FILE_SNAPSHOT) {
		status = STATUS_MEDIA_WRITE_PROTECTED;
		goto out;
	}
	status = smbsrv_write_pos(&r, f, &append);
	if (!status && !append)
		status = smbsrv_brl_check_io(f, r.offset, r.length, true);
	if (status)
		goto out;
	/* Other clients caching reads lose it (cache.c). */
	smbsrv_cache_break_write(f);
	body = smbsrv_rsp_body(req, SMB2_WRITE_RSP_FIXED);
	if (!body) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	n = 0;
	if (r.length) {
		sync = (r.flags & SMB2_WRITEFLAG_WRITE_THROUGH) ||
		       (f->options & FILE_WRITE_THROUGH);
		/* From the request buffer itself, or the pages. */
		if (req->rx) {
			smbsrv_rxpages_iter(req->rx, &from);
		} else {
			kv.iov_base = (void *)r.data;
			kv.iov_len = r.length;
			iov_iter_kvec(&from, ITER_SOURCE, &kv, 1, r.length);
		}
		pos = append ? 0 : r.offset;
		before = inode_get_mtime(file_inode(f->filp));
		old = smbsrv_vfs_creds_begin(req->tree);
		if (smbsrv_file_is_stream(f))
			n = smbsrv_write_stream(f, &pos, append, &r, &from);
		else
			n = vfs_iter_write(f->filp, &from, &pos,
					   append ? RWF_APPEND : 0);
		if (n > 0 && sync && !smbsrv_file_is_stream(f)) {
			start = pos - n;
			err = vfs_fsync_range(f->filp, start, pos - 1, 1);
			if (err)
				n = err;
		}
		smbsrv_vfs_creds_end(old);
		if (n < 0) {
			status = smbsrv_errno_status((int)n);
			goto out;
		}
		if (n > 0) {
			smbsrv_wtime_write(f, before);
			smbsrv_cmdstats_written(n);
		}
		if (req->rx && !smbsrv_file_is_stream(f))
			smbsrv_writestats_one_copy(n, req->signed_in,
						   req->encrypted);
		else
			smbsrv_writestats_copied(smbsrv_file_is_stream(f) ?
						 SMBSRV_WCOPY_STREAM :
						 smbsrv_write_copy_why(req, r.length),
						 n);
		/* The first WRITE of an open that wrote, audited. */
		if (n > 0 &&
		    smbsrv_audit_wants(req->tree, SMBSRV_AUDIT_OP_PWRITE, 0) &&
		    !test_and_set_bit(SMBSRV_FILE_AUDITED_WRITE,
				      &f->audit_bits))
			smbsrv_audit_tree(req->tree, SMBSRV_AUDIT_OP_PWRITE, 0,
					  f->name, NULL, 0);
		f->position = pos;
	}
	smb2_write_rsp_encode(body, n);
	if (req->nowait)
		smbsrv_writestats_inline(req->nowait_depth ?
					 SMBSRV_WINLINE_DEPTH :
					 SMBSRV_WINLINE_ALONE);
out:
	if (status)
		smbsrv_rsp_free(req);
	smbsrv_file_put(f);
	return status;
}

u32 smbsrv_smb2_flush(struct smbsrv_req *req)
{
	struct smbsrv_file *f;
	const struct cred *old;
	const u8 *file_id;
	u32 status;
	int err;

	status = smb2_flush_req_decode(req->pdu, req->pdu_len, &file_id);
	if (status)
		return status;
	f = smbsrv_req_file(req, file_id);
	if (!f)
		return STATUS_FILE_CLOSED;
	if (!(f->access & (FILE_WRITE_DATA | FILE_APPEND_DATA))) {
		status = STATUS_ACCESS_DENIED;
		goto out;
	}
	if (!smbsrv_rsp_body(req, SMB2_SIMPLE_SIZE)) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	smb2_simple_rsp_encode(req->rsp + SMB2_HDR_SIZE);
	/* A pending LastWriteTime update happens now (wtime.h). */
	smbsrv_wtime_flush(f);
	/* A stream's xattr is written by the file system as it is set. */
	if (!(f->flags & (SMBSRV_FILE_REPARSE | SMBSRV_FILE_STREAM))) {
		old = smbsrv_vfs_creds_begin(req->tree);
		err = vfs_fsync(f->filp, 0);
		smbsrv_vfs_creds_end(old);
		status = smbsrv_errno_status(err);
	}
out:
	if (status)
		smbsrv_rsp_free(req);
	smbsrv_file_put(f);
	return status;
}
