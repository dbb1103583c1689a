// SPDX-License-Identifier: GPL-2.0
/*
 * CREATE requests, their create contexts and EA lists; CREATE responses.
 */
#include "compat.h"
#include "create.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"

static const char smb2_ctx_tags[SMB2_CTX_NR][4] = {
	[SMB2_CTX_EA_BUFFER] = "ExtA",
	[SMB2_CTX_SD_BUFFER] = "SecD",
	[SMB2_CTX_DURABLE_REQ] = "DHnQ",
	[SMB2_CTX_DURABLE_RECONNECT] = "DHnC",
	[SMB2_CTX_DURABLE_REQ_V2] = "DH2Q",
	[SMB2_CTX_DURABLE_RECONNECT_V2] = "DH2C",
	[SMB2_CTX_ALLOCATION_SIZE] = "AlSi",
	[SMB2_CTX_QUERY_MAXIMAL_ACCESS] = "MxAc",
	[SMB2_CTX_TIMEWARP_TOKEN] = "TWrp",
	[SMB2_CTX_QUERY_ON_DISK_ID] = "QFid",
	[SMB2_CTX_REQUEST_LEASE] = "RqLs",
	[SMB2_CTX_AAPL] = "AAPL",
};

static int smb2_ctx_id(const u8 *name, u32 len)
{
	unsigned int i;

	if (len == SMB2_POSIX_TAG_SIZE &&
	    !memcmp(name, smb2_posix_tag, SMB2_POSIX_TAG_SIZE))
		return SMB2_CTX_POSIX;
	if (len != 4)
		return -1;
	for (i = 0; i < SMB2_CTX_NR; i++)
		if (smb2_ctx_tags[i][0] && !memcmp(name, smb2_ctx_tags[i], 4))
			return (int)i;
	return -1;
}

/*
 * One context at @c with @room bytes up to the end of the list (or to
 * the next context).  Name and data must lie inside it, after its header.
 */
static int smb2_ctx_decode(const u8 *c, u32 room, struct smb2_create_ctx *x)
{
	u32 noff, nlen, doff, dlen;

	if (room < SMB2_CREATE_CTX_HDR)
		return -EINVAL;
	noff = get_unaligned_le16(c + SMB2_CREATE_CTX_NAME_OFFSET);
	nlen = get_unaligned_le16(c + SMB2_CREATE_CTX_NAME_LENGTH);
	doff = get_unaligned_le16(c + SMB2_CREATE_CTX_DATA_OFFSET);
	dlen = get_unaligned_le32(c + SMB2_CREATE_CTX_DATA_LENGTH);
	/* Windows refuses tags shorter than four bytes. */
	if (nlen < 4 || noff < SMB2_CREATE_CTX_HDR || noff > room ||
	    nlen > room - noff)
		return -EINVAL;
	x->name = c + noff;
	x->name_len = nlen;
	x->data = NULL;
	x->data_len = dlen;
	if (!dlen)
		return 0;
	if (doff < SMB2_CREATE_CTX_HDR || doff > room || dlen > room - doff)
		return -EINVAL;
	x->data = c + doff;
	return 0;
}

static u32 smb2_create_ctxs_decode(const u8 *buf, u32 len,
				   struct smb2_create_req *r)
{
	struct smb2_create_ctx x;
	u32 pos = 0, next, room;
	int id;

	while (pos < len) {
		if (len - pos < SMB2_CREATE_CTX_HDR)
			return STATUS_INVALID_PARAMETER;
		next = get_unaligned_le32(buf + pos + SMB2_CREATE_CTX_NEXT);
		if (next) {
			if (next % 8 || next < SMB2_CREATE_CTX_HDR ||
			    next > len - pos)
				return STATUS_INVALID_PARAMETER;
			room = next;
		} else {
			room = len - pos;
		}
		if (smb2_ctx_decode(buf + pos, room, &x))
			return STATUS_INVALID_PARAMETER;
		r->ctx_count++;
		id = smb2_ctx_id(x.name, x.name_len);
		if (id >= 0) {
			if (r->ctx_present & (1u << id))
				return STATUS_INVALID_PARAMETER;
			r->ctx_present |= 1u << id;
			r->ctx[id] = x;
		}
		if (!next)
			break;
		pos += next;
	}
	return STATUS_SUCCESS;
}

u32 smb2_create_req_decode(const u8 *pdu, u32 pdu_len,
			   struct smb2_create_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	const u8 *ctxs;
	u32 off, len;

	memset(r, 0, sizeof(*r));
	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(body, pdu_len - SMB2_HDR_SIZE, SMB2_CREATE_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->oplock = body[SMB2_CREATE_REQ_OPLOCK];
	r->impersonation = get_unaligned_le32(body + SMB2_CREATE_REQ_IMPERSONATION);
	r->access = get_unaligned_le32(body + SMB2_CREATE_REQ_ACCESS);
	r->attributes = get_unaligned_le32(body + SMB2_CREATE_REQ_ATTRIBUTES);
	r->share = get_unaligned_le32(body + SMB2_CREATE_REQ_SHARE);
	r->disposition = get_unaligned_le32(body + SMB2_CREATE_REQ_DISPOSITION);
	r->options = get_unaligned_le32(body + SMB2_CREATE_REQ_OPTIONS);

	/* 3.3.5.9: the name lies in the buffer and has whole characters. */
	off = get_unaligned_le16(body + SMB2_CREATE_REQ_NAME_OFFSET);
	len = get_unaligned_le16(body + SMB2_CREATE_REQ_NAME_LENGTH);
	if (len % 2 ||
	    smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_CREATE_REQ_BUFFER, &r->name))
		return STATUS_INVALID_PARAMETER;
	r->name_len = len;

	off = get_unaligned_le32(body + SMB2_CREATE_REQ_CTX_OFFSET);
	len = get_unaligned_le32(body + SMB2_CREATE_REQ_CTX_LENGTH);
	if (smb2_field(pdu, pdu_len, off, len,
		       SMB2_HDR_SIZE + SMB2_CREATE_REQ_BUFFER, &ctxs))
		return STATUS_INVALID_PARAMETER;
	if (len)
		return smb2_create_ctxs_decode(ctxs, len, r);
	return STATUS_SUCCESS;
}

u32 smb2_create_rsp_encode(u8 *body, const struct smb2_create_rsp *r)
{
	memset(body, 0, SMB2_CREATE_RSP_FIXED);
	put_unaligned_le16(SMB2_CREATE_RSP_SIZE, body);
	body[SMB2_CREATE_RSP_OPLOCK] = r->oplock;
	body[SMB2_CREATE_RSP_FLAGS] = r->flags;
	put_unaligned_le32(r->action, body + SMB2_CREATE_RSP_ACTION);
	put_unaligned_le64(r->creation_time, body + SMB2_CREATE_RSP_CREATION_TIME);
	put_unaligned_le64(r->access_time, body + SMB2_CREATE_RSP_ACCESS_TIME);
	put_unaligned_le64(r->write_time, body + SMB2_CREATE_RSP_WRITE_TIME);
	put_unaligned_le64(r->change_time, body + SMB2_CREATE_RSP_CHANGE_TIME);
	put_unaligned_le64(r->allocation, body + SMB2_CREATE_RSP_ALLOCATION);
	put_unaligned_le64(r->eof, body + SMB2_CREATE_RSP_EOF);
	put_unaligned_le32(r->attributes, body + SMB2_CREATE_RSP_ATTRIBUTES);
	put_unaligned_le64(r->fid_persistent, body + SMB2_CREATE_RSP_FILE_ID);
	put_unaligned_le64(r->fid_volatile, body + SMB2_CREATE_RSP_FILE_ID + 8);
	if (r->ctx_len) {
		put_unaligned_le32(SMB2_CREATE_RSP_CTX_OFF,
				   body + SMB2_CREATE_RSP_CTX_OFFSET);
		put_unaligned_le32(r->ctx_len, body + SMB2_CREATE_RSP_CTX_LENGTH);
		return SMB2_CREATE_RSP_FIXED + r->ctx_len;
	}
	/* StructureSize 89: one byte of buffer even without contexts. */
	body[SMB2_CREATE_RSP_FIXED] = 0;
	return SMB2_CREATE_RSP_FIXED + 1;
}

u32 smb2_create_ctx_encode_named(u8 *buf, const u8 *name, u32 name_len,
				 const u8 *data, u32 data_len)
{
	u32 doff = SMB2_CREATE_CTX_HDR + ((name_len + 7) & ~7u);

	put_unaligned_le32(0, buf + SMB2_CREATE_CTX_NEXT);
	put_unaligned_le16(SMB2_CREATE_CTX_HDR, buf + SMB2_CREATE_CTX_NAME_OFFSET);
	put_unaligned_le16((u16)name_len, buf + SMB2_CREATE_CTX_NAME_LENGTH);
	put_unaligned_le16(data_len ? (u16)doff : 0,
			   buf + SMB2_CREATE_CTX_DATA_OFFSET);
	put_unaligned_le32(data_len, buf + SMB2_CREATE_CTX_DATA_LENGTH);
	memcpy(buf + SMB2_CREATE_CTX_HDR, name, name_len);
	if (data_len)
		memcpy(buf + doff, data, data_len);
	return doff + data_len;
}

u32 smb2_create_ctx_encode(u8 *buf, const char *tag, const u8 *data,
			   u32 data_len)
{
	return smb2_create_ctx_encode_named(buf, (const u8 *)tag, 4, data,
					    data_len);
}

void smb2_create_ctx_link(u8 *ctx, u32 next)
{
	put_unaligned_le32(next, ctx + SMB2_CREATE_CTX_NEXT);
}

/* MS-FSCC 2.4.15: characters an EA name may not contain. */
static bool smb_ea_name_valid(const char *name, u32 len)
{
	static const char bad[] = "\"*/:<>?\\|,+;=[]";
	u32 i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if ((unsigned char)name[i] < 0x20 ||
		    memchr(bad, name[i], sizeof(bad) - 1))
			return false;
	}
	return true;
}

/* FILE_FULL_EA_INFORMATION: NextEntryOffset, Flags, name and value lengths. */
#define SMB_EA_HDR	8

int smb_ea_next(const u8 *buf, u32 len, u32 *pos, struct smb_ea *ea)
{
	u32 p = *pos, next, room;

	if (p >= len)
		return 0;
	if (len - p < SMB_EA_HDR)
		return -EINVAL;
	next = get_unaligned_le32(buf + p);
	if (next) {
		if (next % 4 || next < SMB_EA_HDR || next > len - p)
			return -EINVAL;
		room = next;
	} else {
		room = len - p;
	}
	ea->flags = buf[p + 4];
	ea->name_len = buf[p + 5];
	ea->value_len = get_unaligned_le16(buf + p + 6);
	/* Name, its NUL, then the value. */
	if (SMB_EA_HDR + ea->name_len + 1 + ea->value_len > room)
		return -EINVAL;
	ea->name = (const char *)buf + p + SMB_EA_HDR;
	if (ea->name[ea->name_len] != '\0')
		return -EINVAL;
	ea->value = buf + p + SMB_EA_HDR + ea->name_len + 1;
	*pos = next ? p + next : len;
	if (!smb_ea_name_valid(ea->name, ea->name_len))
		return -EILSEQ;
	return 1;
}
