// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: one received message through every kmod/wire/ decoder
 * the module runs on it, the way the module runs them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "credits.h"
#include "ioctl.h"
#include "logon.h"
#include "negotiate.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"
#include "route.h"
#include "utf16.h"

static void one_pdu(const u8 *pdu, u32 len, const struct smb2_hdr *h)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	u32 body_len = len - SMB2_HDR_SIZE;
	struct smb2_negotiate_req nr;
	struct smb2_neg_ctxs c;
	struct smb2_sess_req sr;
	struct smb2_tcon_req tr;
	struct smb2_ioctl_req ir;
	struct smb2_vneg_req v;
	char name[257];

	smb2_body_check(body, body_len, 4);
	smb2_payload_size(h->command, body, body_len);
	switch (h->command) {
	case SMB2_NEGOTIATE:
		if (smb2_negotiate_req_decode(pdu, len, &nr))
			break;
		smb2_dialect_select(nr.dialects, nr.dialect_count, 0x0202,
				    0x0311);
		if (!smb2_neg_ctxs_decode(pdu, len, &nr, &c)) {
			smb2_cipher_select(&c, 0x1e);
			smb2_signing_select(&c);
			if (c.posix)
				smb2_posix_neg_ctx_decode(c.posix_data,
							  c.posix_len);
		}
		break;
	case SMB2_SESSION_SETUP:
		if (!smb2_sess_req_decode(pdu, len, &sr) && sr.blob_len)
			/* Touch every byte the blob claims. */
			(void)memchr(sr.blob, 0x42, sr.blob_len);
		break;
	case SMB2_TREE_CONNECT:
		if (!smb2_tcon_req_decode(pdu, len, &tr))
			smb2_tcon_share_name(tr.path, tr.path_len, name,
					     sizeof(name));
		break;
	case SMB2_IOCTL:
		if (!smb2_ioctl_req_decode(pdu, len, &ir) &&
		    !smb2_vneg_decode(ir.in, ir.in_len, &v))
			smb2_dialect_select(v.dialects, v.dialect_count,
					    0x0202, 0x0311);
		break;
	default:
		break;
	}
}

/* Encode a NEGOTIATE response from fuzzed parameters into an exact fit. */
static void negotiate_rsp(const u8 *data, size_t size)
{
	static const u8 guid[16], salt[SMB2_PREAUTH_SALT_SIZE];
	struct smb2_negotiate_rsp a = {
		.dialect = size > 1 && (data[0] & 1) ? SMB2_DIALECT_311 :
						       SMB2_DIALECT_300,
		.server_guid = guid,
		.salt = salt,
		.secbuf = data,
		.secbuf_len = size > 4096 ? 4096 : (u32)size,
		.encryption = size > 2 && (data[1] & 1),
		.signing = size > 2 && (data[1] & 2),
	};
	u32 n = smb2_negotiate_rsp_size(&a);
	u8 *buf = malloc(SMB2_HDR_SIZE + n);

	if (!buf)
		return;
	if (smb2_negotiate_rsp_encode(buf + SMB2_HDR_SIZE, &a) != n)
		abort();
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_transform t;
	struct smb2_route_info ri;
	struct smb2_hdr h;
	bool s2002, sany;
	u32 off = 0, len = (u32)size, flen;
	u8 *msg;
	int n;

	if (size > SMB2_FRAME_MAX)
		return 0;
	/* A private copy: reads past the end are caught exactly. */
	msg = malloc(size ? size : 1);
	if (!msg)
		return 0;
	memcpy(msg, data, size);

	if (size >= 4)
		smb2_frame_decode(msg, &flen);
	smb1_negotiate_scan(msg, len, &s2002, &sany);
	smb2_transform_decode(msg, len, &t);
	smb2_route_peek(msg, len, &ri);
	smb2_route_adaptive(&ri, len);
	/* The receiver's look at a frame's head (its first bytes only). */
	if (len >= SMB2_WRITE_HEAD_SIZE) {
		u8 head[SMB2_WRITE_HEAD_SIZE];

		memcpy(head, msg, sizeof(head));
		if (smb2_route_write_head(head, len, &ri) &&
		    ri.length != len - SMB2_WRITE_HEAD_SIZE)
			__builtin_trap();
	}
	while (off < len) {
		n = smb2_hdr_decode(msg + off, len - off, &h);
		if (n < 0)
			break;
		if ((u32)n < SMB2_HDR_SIZE || (u32)n > len - off)
			abort();
		one_pdu(msg + off, (u32)n, &h);
		off += (u32)n;
	}
	negotiate_rsp(msg, size);
	free(msg);
	return 0;
}
