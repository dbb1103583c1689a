// SPDX-License-Identifier: GPL-2.0
/*
 * Routing hints from a received message (see route.h).
 */
#include "pdu.h"
#include "route.h"
#include "rw.h"

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
	if (n < 0 || (u32)n != len || h.next_command)
		return;
	if (h.flags & (SMB2_FLAGS_ASYNC_COMMAND |
		       SMB2_FLAGS_RELATED_OPERATIONS |
		       SMB2_FLAGS_SERVER_TO_REDIR))
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

bool smb2_route_adaptive(const struct smb2_route_info *ri, u32 depth)
{
	return ri->write && depth >= SMB2_ROUTE_DEPTH_MIN &&
	       ri->length >= SMB2_ROUTE_LENGTH_MIN;
}
