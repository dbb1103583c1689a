// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: named pipes on IPC$ (MS-SMB2 3.3.5.9 - 3.3.5.15 for pipes).
 *
 * A pipe open is a struct smbsrv_open of its own kind in the session's
 * table, so that CLOSE, tree disconnect, logoff and teardown end it like
 * any other.  Every operation is one rpc-req upcall to the daemon, keyed
 * by (SessionId, volatile FileId), which keeps the pipe's state (the RPC
 * binding, the answer not yet read).  The daemon answers an NTSTATUS:
 * STATUS_BUFFER_OVERFLOW with data means "more to read" (message-mode
 * pipes), which the client fetches with READ.  When the daemon is absent
 * an open fails as for a pipe nobody serves and I/O on an open pipe with
 * STATUS_PIPE_BROKEN.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <uapi/linux/smbsrv.h>

#include "../conn.h"
#include "../session.h"
#include "../trace.h"
#include "../upcall.h"
#include "../wire/create.h"
#include "../wire/fscc.h"
#include "../wire/ioctl.h"
#include "../wire/rw.h"
#include "../wire/utf16.h"
#include "fsctl.h"
#include "pipe.h"
#include "smb2.h"

#define SMBSRV_PIPE_NAME_MAX	256

struct smbsrv_pipe {
	struct smbsrv_open open;	/* FileId and table entry: first */
	bool opened;			/* the daemon accepted the open */
	char name[SMBSRV_PIPE_NAME_MAX];
};

static const struct smbsrv_open_ops smbsrv_pipe_ops;

static struct smbsrv_pipe *smbsrv_pipe_of(struct smbsrv_open *op)
{
	return container_of(op, struct smbsrv_pipe, open);
}

/*
 * One upcall for the pipe of @op; returns the NTSTATUS for the client.
 * *out (kvfree() it) holds what the daemon answered, at most @max_out.
 */
static u32 smbsrv_pipe_call(struct smbsrv_req *req, struct smbsrv_open *op,
			    u32 rpc_op, const void *data, u32 len,
			    u32 max_out, void **out, u32 *out_len)
{
	struct smbsrv_pipe *p = smbsrv_pipe_of(op);
	struct smbsrv_session *sess = op->tree->sess;
	/* Closing a pipe with its tree or session has no request. */
	u64 mid = req ? req->hdr.message_id : 0;
	u32 status;
	int err;

	trace_smbsrv_upcall_sent(sess->conn->id, mid, "rpc", 0);
	err = smbsrv_upcall_rpc(sess->id, sess->user ? sess->user : "",
				(u32)op->id_volatile, rpc_op, p->name, data,
				len, max_out, &status, out, out_len);
	trace_smbsrv_upcall_answered(sess->conn->id, mid, "rpc", err);
	if (err == -EMSGSIZE)
		return STATUS_INVALID_PARAMETER;
	if (err == -ENOMEM)
		return STATUS_INSUFFICIENT_RESOURCES;
	if (err)
		return rpc_op == SMBSRV_RPC_OP_OPEN ?
		       STATUS_OBJECT_NAME_NOT_FOUND : STATUS_PIPE_BROKEN;
	return status;
}

static void smbsrv_pipe_close_op(struct smbsrv_open *op)
{
	void *out;
	u32 n;

	if (!smbsrv_pipe_of(op)->opened)
		return;
	smbsrv_pipe_call(NULL, op, SMBSRV_RPC_OP_CLOSE, NULL, 0, 0, &out, &n);
	kvfree(out);
}

static void smbsrv_pipe_free(struct smbsrv_open *op)
{
	kfree(smbsrv_pipe_of(op));
}

static const struct smbsrv_open_ops smbsrv_pipe_ops = {
	.close = smbsrv_pipe_close_op,
	.free = smbsrv_pipe_free,
};

/* The pipe open the FileId at @file_id names, referenced; NULL: none. */
static struct smbsrv_open *smbsrv_pipe_lookup(struct smbsrv_req *req,
					      const u8 *file_id)
{
	struct smbsrv_open *op = smbsrv_req_open(req, file_id);

	if (op && op->ops != &smbsrv_pipe_ops) {
		smbsrv_open_put(op);
		op = NULL;
	}
	return op;
}

u32 smbsrv_pipe_create(struct smbsrv_req *req)
{
	struct smb2_create_rsp rsp = {
		.action = FILE_OPENED,
		.attributes = FILE_ATTRIBUTE_NORMAL,
	};
	struct smb2_create_req *r;
	struct smbsrv_pipe *p;
	void *out = NULL;
	u32 status, n;
	u8 *body;
	int len, err;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!r || !p) {
		kfree(r);
		kfree(p);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	status = smb2_create_req_decode(req->pdu, req->pdu_len, r);
	if (status)
		goto free;
	len = r->name_len ? smb_utf16le_to_utf8(r->name, r->name_len, p->name,
						sizeof(p->name)) : 0;
	if (len < 0) {
		status = STATUS_OBJECT_NAME_INVALID;
		goto free;
	}
	if (!len) {
		status = STATUS_OBJECT_NAME_NOT_FOUND;
		goto free;
	}
	err = smbsrv_open_insert(req->tree, &p->open, &smbsrv_pipe_ops);
	if (err) {
		status = err == -EMFILE ? STATUS_TOO_MANY_OPENED_FILES :
			 err == -ENOENT ? STATUS_NETWORK_NAME_DELETED :
					  STATUS_INSUFFICIENT_RESOURCES;
		goto free;
	}
	kfree(r);
	/* From here on the open is in the table: end it on failure. */
	status = smbsrv_pipe_call(req, &p->open, SMBSRV_RPC_OP_OPEN, NULL, 0, 0,
				  &out, &n);
	kvfree(out);
	if (status)
		goto end;
	p->opened = true;
	body = smbsrv_rsp_body(req, SMB2_CREATE_RSP_FIXED + 1);
	if (!body) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto end;
	}
	rsp.fid_persistent = p->open.id_persistent;
	rsp.fid_volatile = p->open.id_volatile;
	req->rsp_len = SMB2_HDR_SIZE + smb2_create_rsp_encode(body, &rsp);
	req->fid_persistent = p->open.id_persistent;
	req->fid_volatile = p->open.id_volatile;
	smbsrv_open_put(&p->open);
	return STATUS_SUCCESS;
end:
	/* Only an error status from the daemon fails the open as such. */
	if ((status >> 30) != 3)
		status = STATUS_INVALID_PIPE_STATE;
	smbsrv_open_end(&p->open);
	smbsrv_open_put(&p->open);
	return status;
free:
	kfree(r);
	kfree(p);
	return status;
}

/* Where the daemon's status lets data go back to the client. */
static bool smbsrv_pipe_has_data(u32 status)
{
	return status == STATUS_SUCCESS || status == STATUS_BUFFER_OVERFLOW;
}

u32 smbsrv_pipe_read(struct smbsrv_req *req, const struct smb2_read_req *r)
{
	struct smbsrv_open *op;
	void *out = NULL;
	u32 status, n = 0;
	u8 *body;

	op = smbsrv_pipe_lookup(req, r->file_id);
	if (!op)
		return STATUS_FILE_CLOSED;
	status = smbsrv_pipe_call(req, op, SMBSRV_RPC_OP_READ, NULL, 0,
				  min_t(u32, r->length, SMBSRV_UPCALL_DATA_MAX),
				  &out, &n);
	if (smbsrv_pipe_has_data(status)) {
		body = smbsrv_rsp_body(req, SMB2_READ_RSP_FIXED + max(n, 1u));
		if (body) {
			if (n)
				memcpy(body + SMB2_READ_RSP_FIXED, out, n);
			req->rsp_len = SMB2_HDR_SIZE +
				       smb2_read_rsp_encode(body, n, 0);
		} else {
			status = STATUS_INSUFFICIENT_RESOURCES;
		}
	}
	kvfree(out);
	smbsrv_open_put(op);
	return status;
}

u32 smbsrv_pipe_write(struct smbsrv_req *req, const struct smb2_write_req *r)
{
	struct smbsrv_open *op;
	void *out = NULL;
	u32 status, n;
	u8 *body;

	op = smbsrv_pipe_lookup(req, r->file_id);
	if (!op)
		return STATUS_FILE_CLOSED;
	status = smbsrv_pipe_call(req, op, SMBSRV_RPC_OP_WRITE, r->data,
				  r->length, 0, &out, &n);
	kvfree(out);
	if (status == STATUS_SUCCESS) {
		body = smbsrv_rsp_body(req, SMB2_WRITE_RSP_FIXED);
		if (body)
			smb2_write_rsp_encode(body, r->length);
		else
			status = STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_open_put(op);
	return status;
}

u32 smbsrv_pipe_close(struct smbsrv_req *req, const u8 *file_id)
{
	struct smb2_close_rsp rsp = {};
	struct smbsrv_open *op;
	u8 *body;

	op = smbsrv_pipe_lookup(req, file_id);
	if (!op)
		return STATUS_FILE_CLOSED;
	body = smbsrv_rsp_body(req, SMB2_CLOSE_RSP_SIZE);
	if (!body) {
		smbsrv_open_put(op);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	smbsrv_open_end(op);
	smbsrv_open_put(op);
	smb2_close_rsp_encode(body, &rsp);
	return STATUS_SUCCESS;
}

u32 smbsrv_pipe_transceive(struct smbsrv_req *req,
			   const struct smb2_ioctl_req *r)
{
	struct smbsrv_open *op;
	void *out = NULL;
	u32 status, n = 0;
	u8 *body;

	op = smbsrv_pipe_lookup(req, r->file_id);
	if (!op)
		return STATUS_FILE_CLOSED;
	status = smbsrv_pipe_call(req, op, SMBSRV_RPC_OP_TRANSACT, r->in,
				  r->in_len,
				  min_t(u32, r->max_out, SMBSRV_UPCALL_DATA_MAX),
				  &out, &n);
	if (smbsrv_pipe_has_data(status)) {
		body = smbsrv_ioctl_out(req, r, n);
		if (body) {
			if (n)
				memcpy(body, out, n);
		} else {
			status = STATUS_INSUFFICIENT_RESOURCES;
		}
	}
	kvfree(out);
	smbsrv_open_put(op);
	return status;
}
