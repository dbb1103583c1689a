// SPDX-License-Identifier: GPL-2.0
/*
 * NEGOTIATE decoding, dialect and algorithm selection, response encoding.
 */
#include "compat.h"
#include "negotiate.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"

#define ALIGN8(x)	(((x) + 7u) & ~7u)

int smb1_negotiate_scan(const u8 *msg, u32 len, bool *smb2_002, bool *smb2_any)
{
	static const char s2002[] = "SMB 2.002";
	static const char s2any[] = "SMB 2.???";
	const u8 *p, *end;
	u32 count;

	*smb2_002 = false;
	*smb2_any = false;
	/* Header, WordCount (0 for a negotiate request), ByteCount. */
	if (len < SMB1_HDR_SIZE + 3 ||
	    get_unaligned_le32(msg) != SMB1_PROTO_NUMBER ||
	    msg[SMB1_HDR_COMMAND] != SMB1_COM_NEGOTIATE ||
	    msg[SMB1_HDR_SIZE] != 0)
		return -EPROTO;
	count = get_unaligned_le16(msg + SMB1_HDR_SIZE + 1);
	p = msg + SMB1_HDR_SIZE + 3;
	if (count > len - (SMB1_HDR_SIZE + 3))
		return -EPROTO;
	end = p + count;

	/* Each dialect: BufferFormat 0x02, then a NUL-terminated string. */
	while (p < end) {
		const u8 *s, *nul;

		if (*p != 0x02)
			return -EPROTO;
		s = p + 1;
		nul = memchr(s, 0, (size_t)(end - s));
		if (!nul)
			return -EPROTO;
		if ((size_t)(nul - s) == sizeof(s2002) - 1 &&
		    !memcmp(s, s2002, sizeof(s2002) - 1))
			*smb2_002 = true;
		if ((size_t)(nul - s) == sizeof(s2any) - 1 &&
		    !memcmp(s, s2any, sizeof(s2any) - 1))
			*smb2_any = true;
		p = nul + 1;
	}
	return 0;
}

u32 smb2_negotiate_req_decode(const u8 *pdu, u32 pdu_len,
			      struct smb2_negotiate_req *r)
{
	const u8 *body = pdu + SMB2_HDR_SIZE;
	u32 body_len;

	if (pdu_len < SMB2_HDR_SIZE)
		return STATUS_INVALID_PARAMETER;
	body_len = pdu_len - SMB2_HDR_SIZE;
	if (smb2_body_check(body, body_len, SMB2_NEG_REQ_SIZE))
		return STATUS_INVALID_PARAMETER;
	r->dialect_count = get_unaligned_le16(body + SMB2_NEG_REQ_DIALECT_COUNT);
	r->security_mode = get_unaligned_le16(body + SMB2_NEG_REQ_SECURITY_MODE);
	r->capabilities = get_unaligned_le32(body + SMB2_NEG_REQ_CAPABILITIES);
	r->client_guid = body + SMB2_NEG_REQ_CLIENT_GUID;
	r->ctx_offset = get_unaligned_le32(body + SMB2_NEG_REQ_CTX_OFFSET);
	r->ctx_count = get_unaligned_le16(body + SMB2_NEG_REQ_CTX_COUNT);
	r->dialects = body + SMB2_NEG_REQ_DIALECTS;
	if (!r->dialect_count ||
	    (u32)r->dialect_count * 2 > body_len - SMB2_NEG_REQ_DIALECTS)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

static bool dialect_known(u16 d)
{
	return d == SMB2_DIALECT_202 || d == SMB2_DIALECT_210 ||
	       d == SMB2_DIALECT_300 || d == SMB2_DIALECT_302 ||
	       d == SMB2_DIALECT_311;
}

u16 smb2_dialect_select(const u8 *dialects, u16 count, u16 min, u16 max)
{
	u16 best = 0, d, i;

	for (i = 0; i < count; i++) {
		d = get_unaligned_le16(dialects + 2 * i);
		if (dialect_known(d) && d >= min && d <= max && d > best)
			best = d;
	}
	return best;
}

/* Check one context's data; returns a status. */
static u32 neg_ctx_one(u16 type, const u8 *data, u16 len,
		       struct smb2_neg_ctxs *c)
{
	u16 n, i;

	switch (type) {
	case SMB2_PREAUTH_INTEGRITY_CAPABILITIES:
		/* HashAlgorithmCount, SaltLength, HashAlgorithms, Salt */
		if (c->preauth || len < 4)
			return STATUS_INVALID_PARAMETER;
		c->preauth = true;
		n = get_unaligned_le16(data);
		if (!n || 4u + 2u * n + get_unaligned_le16(data + 2) > len)
			return STATUS_INVALID_PARAMETER;
		for (i = 0; i < n; i++)
			if (get_unaligned_le16(data + 4 + 2 * i) ==
			    SMB2_PREAUTH_HASH_SHA512)
				return STATUS_SUCCESS;
		return STATUS_SMB_NO_PREAUTH_INTEGRITY_HASH_OVERLAP;
	case SMB2_ENCRYPTION_CAPABILITIES:
		if (c->encryption || len < 2)
			return STATUS_INVALID_PARAMETER;
		n = get_unaligned_le16(data);
		if (!n || 2u + 2u * n > len)
			return STATUS_INVALID_PARAMETER;
		c->encryption = true;
		c->cipher_count = n;
		c->ciphers = data + 2;
		return STATUS_SUCCESS;
	case SMB2_SIGNING_CAPABILITIES:
		if (c->signing || len < 2)
			return STATUS_INVALID_PARAMETER;
		n = get_unaligned_le16(data);
		if (!n || 2u + 2u * n > len)
			return STATUS_INVALID_PARAMETER;
		c->signing = true;
		c->signing_count = n;
		c->signing_algs = data + 2;
		return STATUS_SUCCESS;
	case SMB2_COMPRESSION_CAPABILITIES:
		/* CompressionAlgorithmCount, Padding, Flags, algorithms */
		if (c->compression || len < 8)
			return STATUS_INVALID_PARAMETER;
		n = get_unaligned_le16(data);
		if (!n || 8u + 2u * n > len)
			return STATUS_INVALID_PARAMETER;
		c->compression = true;
		return STATUS_SUCCESS;
	case SMB2_RDMA_TRANSFORM_CAPABILITIES:
		/* TransformCount, Reserved1, Reserved2, ids */
		if (c->rdma || len < 8)
			return STATUS_INVALID_PARAMETER;
		n = get_unaligned_le16(data);
		if (!n || 8u + 2u * n > len)
			return STATUS_INVALID_PARAMETER;
		c->rdma = true;
		return STATUS_SUCCESS;
	case SMB2_POSIX_EXTENSIONS_AVAILABLE:
		/* Judged by the server if it offers them (posix.h); first one. */
		if (!c->posix) {
			c->posix = true;
			c->posix_data = data;
			c->posix_len = len;
		}
		return STATUS_SUCCESS;
	default:
		/* NETNAME, TRANSPORT and unknown contexts are ignored. */
		return STATUS_SUCCESS;
	}
}

u32 smb2_neg_ctxs_decode(const u8 *pdu, u32 pdu_len,
			 const struct smb2_negotiate_req *r,
			 struct smb2_neg_ctxs *c)
{
	u32 off = r->ctx_offset, min_off, status;
	u16 i, type, len;

	memset(c, 0, sizeof(*c));
	min_off = SMB2_HDR_SIZE + SMB2_NEG_REQ_DIALECTS + 2u * r->dialect_count;
	if (!r->ctx_count || off % 8 || off < min_off || off > pdu_len)
		return STATUS_INVALID_PARAMETER;

	for (i = 0; i < r->ctx_count; i++) {
		if (i)
			off = ALIGN8(off);
		if (off > pdu_len || pdu_len - off < SMB2_NEG_CTX_HDR_SIZE)
			return STATUS_INVALID_PARAMETER;
		type = get_unaligned_le16(pdu + off);
		len = get_unaligned_le16(pdu + off + 2);
		off += SMB2_NEG_CTX_HDR_SIZE;
		if (len > pdu_len - off)
			return STATUS_INVALID_PARAMETER;
		status = neg_ctx_one(type, pdu + off, len, c);
		if (status)
			return status;
		off += len;
	}
	if (!c->preauth)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

static bool list_has(const u8 *list, u16 count, u16 v)
{
	u16 i;

	for (i = 0; i < count; i++)
		if (get_unaligned_le16(list + 2 * i) == v)
			return true;
	return false;
}

u16 smb2_cipher_select(const struct smb2_neg_ctxs *c, u32 allowed)
{
	static const u16 pref[] = {
		SMB2_CIPHER_AES128_GCM, SMB2_CIPHER_AES256_GCM,
		SMB2_CIPHER_AES128_CCM, SMB2_CIPHER_AES256_CCM,
	};
	unsigned int i;

	if (!c->encryption)
		return SMB2_CIPHER_NONE;
	for (i = 0; i < ARRAY_SIZE(pref); i++)
		if ((allowed & (1u << pref[i])) &&
		    list_has(c->ciphers, c->cipher_count, pref[i]))
			return pref[i];
	return SMB2_CIPHER_NONE;
}

u16 smb2_signing_select(const struct smb2_neg_ctxs *c)
{
	static const u16 pref[] = {
		SMB2_SIGNING_AES_GMAC, SMB2_SIGNING_AES_CMAC,
		SMB2_SIGNING_HMAC_SHA256,
	};
	unsigned int i;

	if (!c->signing)
		return SMB2_SIGNING_AES_CMAC;
	for (i = 0; i < ARRAY_SIZE(pref); i++)
		if (list_has(c->signing_algs, c->signing_count, pref[i]))
			return pref[i];
	return SMB2_SIGNING_AES_CMAC;
}

/* Offsets of the response's parts, from the start of the SMB2 header. */
#define NEG_RSP_SECBUF_OFF	(SMB2_HDR_SIZE + SMB2_NEG_RSP_FIXED)
#define PREAUTH_CTX_LEN		(6 + SMB2_PREAUTH_SALT_SIZE)
#define ONE_ALG_CTX_LEN		4

static u32 neg_ctx_off(const struct smb2_negotiate_rsp *a)
{
	return ALIGN8(NEG_RSP_SECBUF_OFF + a->secbuf_len);
}

u32 smb2_negotiate_rsp_size(const struct smb2_negotiate_rsp *a)
{
	u32 end = NEG_RSP_SECBUF_OFF + a->secbuf_len;

	if (a->dialect == SMB2_DIALECT_311) {
		end = neg_ctx_off(a) + SMB2_NEG_CTX_HDR_SIZE + PREAUTH_CTX_LEN;
		if (a->encryption)
			end = ALIGN8(end) + SMB2_NEG_CTX_HDR_SIZE +
			      ONE_ALG_CTX_LEN;
		if (a->signing)
			end = ALIGN8(end) + SMB2_NEG_CTX_HDR_SIZE +
			      ONE_ALG_CTX_LEN;
		if (a->posix)
			end = ALIGN8(end) + SMB2_NEG_CTX_HDR_SIZE +
			      SMB2_POSIX_TAG_SIZE;
	}
	/* StructureSize 65 promises at least one byte of buffer. */
	if (end == NEG_RSP_SECBUF_OFF)
		end++;
	return end - SMB2_HDR_SIZE;
}

/* Write a negotiate context at @off (from the header); returns its end. */
static u32 put_ctx(u8 *hdr, u32 off, u16 type, u16 len)
{
	put_unaligned_le16(type, hdr + off);
	put_unaligned_le16(len, hdr + off + 2);
	put_unaligned_le32(0, hdr + off + 4);
	return off + SMB2_NEG_CTX_HDR_SIZE;
}

u32 smb2_negotiate_rsp_encode(u8 *body, const struct smb2_negotiate_rsp *a)
{
	u32 size = smb2_negotiate_rsp_size(a);
	u8 *hdr = body - SMB2_HDR_SIZE;	/* offsets count from the header */
	u32 off;
	u16 nctx = 0;

	memset(body, 0, size);
	put_unaligned_le16(SMB2_NEG_RSP_SIZE, body);
	put_unaligned_le16(a->security_mode, body + SMB2_NEG_RSP_SECURITY_MODE);
	put_unaligned_le16(a->dialect, body + SMB2_NEG_RSP_DIALECT);
	memcpy(body + SMB2_NEG_RSP_SERVER_GUID, a->server_guid, 16);
	put_unaligned_le32(a->capabilities, body + SMB2_NEG_RSP_CAPABILITIES);
	put_unaligned_le32(a->max_transact, body + SMB2_NEG_RSP_MAX_TRANSACT);
	put_unaligned_le32(a->max_read, body + SMB2_NEG_RSP_MAX_READ);
	put_unaligned_le32(a->max_write, body + SMB2_NEG_RSP_MAX_WRITE);
	put_unaligned_le64(a->system_time, body + SMB2_NEG_RSP_SYSTEM_TIME);
	put_unaligned_le16(NEG_RSP_SECBUF_OFF, body + SMB2_NEG_RSP_SECBUF_OFFSET);
	put_unaligned_le16((u16)a->secbuf_len,
			   body + SMB2_NEG_RSP_SECBUF_LENGTH);
	if (a->secbuf_len)
		memcpy(hdr + NEG_RSP_SECBUF_OFF, a->secbuf, a->secbuf_len);
	if (a->dialect != SMB2_DIALECT_311)
		return size;

	off = neg_ctx_off(a);
	put_unaligned_le32(off, body + SMB2_NEG_RSP_CTX_OFFSET);
	off = put_ctx(hdr, off, SMB2_PREAUTH_INTEGRITY_CAPABILITIES,
		      PREAUTH_CTX_LEN);
	put_unaligned_le16(1, hdr + off);
	put_unaligned_le16(SMB2_PREAUTH_SALT_SIZE, hdr + off + 2);
	put_unaligned_le16(SMB2_PREAUTH_HASH_SHA512, hdr + off + 4);
	memcpy(hdr + off + 6, a->salt, SMB2_PREAUTH_SALT_SIZE);
	off += PREAUTH_CTX_LEN;
	nctx++;
	if (a->encryption) {
		off = put_ctx(hdr, ALIGN8(off), SMB2_ENCRYPTION_CAPABILITIES,
			      ONE_ALG_CTX_LEN);
		put_unaligned_le16(1, hdr + off);
		put_unaligned_le16(a->cipher, hdr + off + 2);
		off += ONE_ALG_CTX_LEN;
		nctx++;
	}
	if (a->signing) {
		off = put_ctx(hdr, ALIGN8(off), SMB2_SIGNING_CAPABILITIES,
			      ONE_ALG_CTX_LEN);
		put_unaligned_le16(1, hdr + off);
		put_unaligned_le16(a->signing_alg, hdr + off + 2);
		off += ONE_ALG_CTX_LEN;
		nctx++;
	}
	if (a->posix) {
		off = put_ctx(hdr, ALIGN8(off), SMB2_POSIX_EXTENSIONS_AVAILABLE,
			      SMB2_POSIX_TAG_SIZE);
		memcpy(hdr + off, smb2_posix_tag, SMB2_POSIX_TAG_SIZE);
		nctx++;
	}
	put_unaligned_le16(nctx, body + SMB2_NEG_RSP_CTX_COUNT);
	return size;
}

int smb2_vneg_decode(const u8 *in, u32 len, struct smb2_vneg_req *v)
{
	if (!in || len < SMB2_VNEG_REQ_MIN)
		return -EINVAL;
	v->capabilities = get_unaligned_le32(in);
	v->guid = in + 4;
	v->security_mode = get_unaligned_le16(in + 20);
	v->dialect_count = get_unaligned_le16(in + 22);
	v->dialects = in + SMB2_VNEG_REQ_MIN;
	if ((u32)v->dialect_count * 2 > len - SMB2_VNEG_REQ_MIN)
		return -EINVAL;
	return 0;
}

void smb2_vneg_rsp_encode(u8 *out, u32 capabilities, const u8 *guid,
			  u16 security_mode, u16 dialect)
{
	put_unaligned_le32(capabilities, out);
	memcpy(out + 4, guid, 16);
	put_unaligned_le16(security_mode, out + 20);
	put_unaligned_le16(dialect, out + 22);
}
