// SPDX-License-Identifier: GPL-2.0
/*
 * Routing hints from a received message (see route.h).
 */
#include "pdu.h"
#include "route.h"
#include "rw.h"

/* One PDU (no NextCommand), synchronous, unrelated, a request. */
static bool smb2_route_plain(const struct smb2_hdr *h)
{
	return !h->next_command &&
	       !(h->flags & (SMB2_FLAGS_ASYNC_COMMAND |
			     SMB2_FLAGS_RELATED_OPERATIONS |
			     SMB2_FLAGS_SERVER_TO_REDIR));
}

void smb2_route_peek(const u8 *msg, u32 len, struct smb2_route_info *ri)
{
	struct smb2_transform t;
	struct smb2_hdr h;
	int n;

	memset(ri, 0, sizeof(*ri));
	if (len >= 4 &&
	    get_unaligned_le32(msg) == SMB2_TRANSFORM_PROTO_NUMBER) {
		ri->sealed = !smb2_transform_decode(msg, len, &t) &&
			     t.orig_size <= SMB2_ROUTE_SEALED_MAX;
		return;
	}
	/* The header and a fixed part, up to and with Length. */
	if (len < SMB2_HDR_SIZE + SMB2_WRITE_REQ_BUFFER)
		return;
	n = smb2_hdr_decode(msg, len, &h);
	/* One PDU: no NextCommand, nothing after it. */
	if (n < 0 || (u32)n != len || !smb2_route_plain(&h))
		return;
	if (h.command == SMB2_WRITE) {
		ri->write = true;
		ri->length = get_unaligned_le32(msg + SMB2_HDR_SIZE +
						SMB2_WRITE_REQ_LENGTH);
	} else if (h.command == SMB2_READ) {
		ri->read = true;
		ri->read_length = get_unaligned_le32(msg + SMB2_HDR_SIZE +
						     SMB2_READ_REQ_LENGTH);
	}
}

bool smb2_route_write_head(const u8 *head, u32 frame_len,
			   struct smb2_route_info *ri)
{
	const u8 *body = head + SMB2_HDR_SIZE;
	struct smb2_hdr h;

	memset(ri, 0, sizeof(*ri));
	if (frame_len <= SMB2_WRITE_HEAD_SIZE)
		return false;
	if (smb2_hdr_decode(head, SMB2_WRITE_HEAD_SIZE, &h) < 0 ||
	    !smb2_route_plain(&h) || h.command != SMB2_WRITE)
		return false;
	if (get_unaligned_le16(body) != SMB2_WRITE_REQ_SIZE ||
	    get_unaligned_le16(body + SMB2_WRITE_REQ_DATA_OFFSET) !=
	    SMB2_WRITE_HEAD_SIZE ||
	    get_unaligned_le32(body + SMB2_WRITE_REQ_LENGTH) !=
	    frame_len - SMB2_WRITE_HEAD_SIZE ||
	    get_unaligned_le32(body + SMB2_WRITE_REQ_CHANNEL) ||
	    get_unaligned_le16(body + SMB2_WRITE_REQ_CHINFO_OFFSET) ||
	    get_unaligned_le16(body + SMB2_WRITE_REQ_CHINFO_LENGTH))
		return false;
	ri->write = true;
	ri->length = frame_len - SMB2_WRITE_HEAD_SIZE;
	return true;
}

bool smb2_route_sealed_head(const u8 *head, u32 frame_len)
{
	struct smb2_transform t;

	return frame_len > SMB2_SEALED_HEAD_SIZE &&
	       !smb2_transform_decode(head, frame_len, &t);
}

void smb2_recv_place(const struct smb2_recv_facts *f,
		     struct smb2_recv_placement *p)
{
	bool alone;

	bool small = f->write && f->frame_len < SMB2_RECV_WAIT_MIN;

	if (f->inflight == 1 && !f->behind) {
		p->unbound = f->unbound;
		p->inline_write = f->write && f->unbound && f->run_unbound;
		p->inline_depth = small && !p->inline_write && !f->run_unbound;
		return;
	}
	alone = !f->inflight && !f->behind && f->write;
	p->unbound = alone && f->frame_len >= SMB2_RECV_WAIT_MIN;
	p->inline_write = alone && (small || f->run_unbound);
	p->inline_depth = small && !alone && !f->run_unbound;
}

bool smb2_route_adaptive(const struct smb2_route_info *ri, u32 depth)
{
	return ri->write && depth >= SMB2_ROUTE_DEPTH_MIN &&
	       ri->length >= SMB2_ROUTE_LENGTH_MIN;
}
