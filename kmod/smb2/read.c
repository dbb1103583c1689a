// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: READ (MS-SMB2 3.3.5.12).
 *
 * A READ of a regular file at least `splice threshold` long, alone in its
 * message, answers with the file's page-cache pages (splice.h): the
 * response carries the header and the READ fixed part, req->pages the
 * data, and the dispatcher sends both in one sendmsg(MSG_SPLICE_PAGES).
 * Every other READ is copied into the response buffer through
 * vfs_iter_read(); each copy is counted with its reason (readstats.h).
 * Tried inline by the receiver (req->nowait), a READ that could wait for
 * I/O answers SMBSRV_WOULD_BLOCK having done nothing.  See
 * Documentation/design.md, "The READ path".
 */
#include <linux/fs.h>
#include <linux/uio.h>
#include <uapi/linux/smbsrv.h>

#include "../brl.h"
#include "../conn.h"
#include "../file.h"
#include "../readstats.h"
#include "../session.h"
#include "../smbsrv.h"
#include "../splice.h"
#include "../status.h"
#include "../stream.h"
#include "../vfs.h"
#include "../wire/fscc.h"
#include "../wire/rw.h"
#include "pipe.h"
#include "smb2.h"

/* How this READ's payload goes out: a reason to copy, or -1 to splice. */
static int smbsrv_read_how(struct smbsrv_req *req, struct smbsrv_file *f,
			   u32 length)
{
	u32 threshold = READ_ONCE(smbsrv_server.knobs.splice_threshold);

	if (!threshold)
		return SMBSRV_COPY_OFF;
	if (length < threshold || !length)
		return SMBSRV_COPY_SMALL;
	if (smbsrv_file_is_stream(f))
		return SMBSRV_COPY_STREAM;
	if (!S_ISREG(file_inode(f->filp)->i_mode))
		return SMBSRV_COPY_NONREG;
	if (req->compound)
		return SMBSRV_COPY_COMPOUND;
	if (!smbsrv_pages_can_splice(f->filp))
		return SMBSRV_COPY_NOCACHE;
	return -1;
}

/*
 * Copy up to iov_iter_count(@to) bytes at @pos.  With @nowait, -EAGAIN
 * when that would wait (IOCB_NOWAIT where the file system honours it),
 * and a short read that is not the end of the file is -EAGAIN too: the
 * worker reads it whole.
 */
static ssize_t smbsrv_read_copy(struct smbsrv_file *f, loff_t pos,
				struct iov_iter *to, bool nowait)
{
	size_t want = iov_iter_count(to);
	struct kiocb kiocb;
	ssize_t n;

	if (smbsrv_file_is_stream(f))
		return smbsrv_stream_read(f, pos, to);
	if (!nowait)
		return vfs_iter_read(f->filp, to, &pos, 0);
	init_sync_kiocb(&kiocb, f->filp);
	kiocb.ki_pos = pos;
	if (f->filp->f_mode & FMODE_NOWAIT)
		kiocb.ki_flags |= IOCB_NOWAIT;
	n = vfs_iocb_iter_read(f->filp, &kiocb, to);
	if (n >= 0 && n < want &&
	    pos + n < i_size_read(file_inode(f->filp)))
		return -EAGAIN;
	return n;
}

/*
 * Whether an inline READ may go ahead: the receiver never reads a named
 * stream or a pipe (both may sleep on things the probe cannot see) nor
 * data not in the page cache.
 */
static bool smbsrv_read_may_inline(struct smbsrv_file *f,
				   const struct smb2_read_req *r)
{
	if (smbsrv_file_is_stream(f))
		return false;
	return smbsrv_pages_resident(f->filp, r->offset, r->length);
}

u32 smbsrv_smb2_read(struct smbsrv_req *req)
{
	struct smbsrv_pages *pages = NULL;
	const struct cred *old;
	struct smb2_read_req r;
	struct smbsrv_file *f;
	struct iov_iter to;
	struct kvec kv;
	u32 status;
	ssize_t n;
	u8 *body;
	int how;

	status = smb2_read_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	if (r.channel != SMB2_CHANNEL_NONE || r.length > req->conn->max_read)
		return STATUS_INVALID_PARAMETER;
	status = smbsrv_req_check_charge(req);
	if (status)
		return status;
	if (req->tree->share_flags & SMBSRV_SHARE_FLAGS_IPC) {
		if (req->nowait)
			return SMBSRV_WOULD_BLOCK;	/* an upcall */
		return smbsrv_pipe_read(req, &r);
	}
	f = smbsrv_req_file(req, r.file_id);
	if (!f)
		return STATUS_FILE_CLOSED;
	if (smbsrv_file_is_dir(f) || (f->flags & SMBSRV_FILE_REPARSE)) {
		status = STATUS_INVALID_DEVICE_REQUEST;
		goto out;
	}
	if (!(f->access & (FILE_READ_DATA | FILE_EXECUTE))) {
		status = STATUS_ACCESS_DENIED;
		goto out;
	}
	if (r.offset > SMB2_RW_OFFSET_MAX ||
	    r.length > SMB2_RW_OFFSET_MAX - r.offset) {
		status = STATUS_INVALID_PARAMETER;
		goto out;
	}
	/* Byte-range locks of other opens (brl.c). */
	status = smbsrv_brl_check_io(f, r.offset, r.length, false);
	if (status)
		goto out;
	if (req->nowait && !smbsrv_read_may_inline(f, &r)) {
		status = SMBSRV_WOULD_BLOCK;
		goto out;
	}

	how = smbsrv_read_how(req, f, r.length);
	n = -1;
	if (how < 0) {
		old = smbsrv_vfs_creds_begin(req->tree);
		n = smbsrv_pages_read(f->filp, r.offset, r.length, &pages);
		smbsrv_vfs_creds_end(old);
		/* The copy path answers with the file system's own error. */
		if (n < 0)
			how = SMBSRV_COPY_ERROR;
		else if (!smbsrv_rsp_body(req, SMB2_READ_RSP_FIXED))
			n = -ENOMEM;
	}
	if (how < 0) {
		if (n < 0) {
			status = smbsrv_errno_status((int)n);
			goto out;
		}
	} else {
		body = smbsrv_rsp_body_data(req, SMB2_READ_RSP_FIXED,
					    max(r.length, 1u));
		if (!body) {
			status = STATUS_INSUFFICIENT_RESOURCES;
			goto out;
		}
		n = 0;
		if (r.length) {
			kv.iov_base = body + SMB2_READ_RSP_FIXED;
			kv.iov_len = r.length;
			iov_iter_kvec(&to, ITER_DEST, &kv, 1, r.length);
			old = smbsrv_vfs_creds_begin(req->tree);
			n = smbsrv_read_copy(f, r.offset, &to, req->nowait);
			smbsrv_vfs_creds_end(old);
			if (n == -EAGAIN && req->nowait) {
				status = SMBSRV_WOULD_BLOCK;
				goto out;
			}
			if (n < 0) {
				status = smbsrv_errno_status((int)n);
				goto out;
			}
		}
	}
	/* Nothing where something was asked for, or less than the minimum. */
	if ((r.length && !n) || n < r.minimum) {
		status = STATUS_END_OF_FILE;
		goto out;
	}
	f->position = r.offset + n;
	body = req->rsp + SMB2_HDR_SIZE;
	if (how < 0) {
		/* The header and fixed part here, the data in the pages. */
		smb2_read_rsp_encode(body, n, 0);
		req->rsp_len = SMB2_HDR_SIZE + SMB2_READ_RSP_FIXED;
		req->pages = pages;
		pages = NULL;
		smbsrv_readstats_spliced(n);
	} else {
		req->rsp_len = SMB2_HDR_SIZE + smb2_read_rsp_encode(body, n, 0);
		smbsrv_readstats_copied(how, n);
	}
out:
	smbsrv_pages_free(pages);
	if (status)
		smbsrv_rsp_free(req);	/* the error body, not this one */
	smbsrv_file_put(f);
	return status;
}
