/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NEGOTIATE: the SMB1 multi-protocol negotiate, the SMB2 request and its
 * 3.1.1 negotiate contexts, the response, FSCTL_VALIDATE_NEGOTIATE_INFO.
 */
#ifndef _SMBSRV_WIRE_NEGOTIATE_H
#define _SMBSRV_WIRE_NEGOTIATE_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Scan an SMB1 SMB_COM_NEGOTIATE request (the whole message, from the
 * 0xFF 'SMB' protocol id) for the "SMB 2.002" and "SMB 2.???" dialect
 * strings.  Returns 0, or -EPROTO when it is not a well-formed negotiate.
 */
int smb1_negotiate_scan(const u8 *msg, u32 len, bool *smb2_002, bool *smb2_any);

struct smb2_negotiate_req {
	u16 dialect_count;
	const u8 *dialects;	/* dialect_count little-endian u16s */
	u16 security_mode;
	u32 capabilities;
	const u8 *client_guid;	/* 16 bytes */
	u32 ctx_offset;		/* from the SMB2 header; 3.1.1 only */
	u16 ctx_count;
};

/*
 * Decode a NEGOTIATE request PDU (header included, @pdu_len bytes).
 * Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smb2_negotiate_req_decode(const u8 *pdu, u32 pdu_len,
			      struct smb2_negotiate_req *r);

/*
 * The greatest dialect both offer within [min, max], or 0 when there is
 * none.  Unknown dialect values (and the 0x02FF wildcard) are ignored.
 */
u16 smb2_dialect_select(const u8 *dialects, u16 count, u16 min, u16 max);

/* What a 3.1.1 negotiate context list asked for. */
struct smb2_neg_ctxs {
	bool preauth;		/* a PREAUTH_INTEGRITY context was present */
	bool encryption;	/* an ENCRYPTION context was present */
	bool signing;		/* a SIGNING context was present */
	bool compression;
	bool rdma;
	/* A POSIX context (posix.h): its data, for the server to judge. */
	bool posix;
	const u8 *posix_data;
	u16 posix_len;
	u16 cipher_count;
	const u8 *ciphers;
	u16 signing_count;
	const u8 *signing_algs;
};

/*
 * Decode and validate the negotiate contexts of a 3.1.1 request per
 * MS-SMB2 3.3.5.4: a missing or repeated preauth context, a repeated
 * context of another known type or an empty algorithm list is
 * STATUS_INVALID_PARAMETER; a preauth context without SHA-512 is
 * STATUS_SMB_NO_PREAUTH_INTEGRITY_HASH_OVERLAP.  Unknown types are ignored.
 */
u32 smb2_neg_ctxs_decode(const u8 *pdu, u32 pdu_len,
			 const struct smb2_negotiate_req *r,
			 struct smb2_neg_ctxs *c);

/*
 * The cipher to use among the client's list, in the server's order of
 * preference restricted to the ciphers in @allowed (a bit per cipher id),
 * or SMB2_CIPHER_NONE.
 */
u16 smb2_cipher_select(const struct smb2_neg_ctxs *c, u32 allowed);

/*
 * The signing algorithm: AES-GMAC, then AES-CMAC, then HMAC-SHA256 among
 * those the client lists; AES-CMAC when it lists none we know.
 */
u16 smb2_signing_select(const struct smb2_neg_ctxs *c);

struct smb2_negotiate_rsp {
	u16 security_mode;
	u16 dialect;
	const u8 *server_guid;	/* 16 bytes */
	u32 capabilities;
	u32 max_transact;
	u32 max_read;
	u32 max_write;
	u64 system_time;	/* FILETIME */
	const u8 *secbuf;
	u32 secbuf_len;
	/* 3.1.1 negotiate contexts of the response */
	const u8 *salt;		/* SMB2_PREAUTH_SALT_SIZE bytes */
	bool encryption;	/* answer an ENCRYPTION context with cipher */
	u16 cipher;
	bool signing;		/* answer a SIGNING context with signing_alg */
	u16 signing_alg;
	bool posix;		/* answer the POSIX context (posix.h) */
};

/* Size of the response body (after the 64-byte header). */
u32 smb2_negotiate_rsp_size(const struct smb2_negotiate_rsp *a);

/* Encode the response body; returns its size. */
u32 smb2_negotiate_rsp_encode(u8 *body, const struct smb2_negotiate_rsp *a);

/* VALIDATE_NEGOTIATE_INFO request (2.2.31.4). */
struct smb2_vneg_req {
	u32 capabilities;
	const u8 *guid;
	u16 security_mode;
	u16 dialect_count;
	const u8 *dialects;
};

/* Decode the IOCTL input; returns 0 or -EINVAL when it is malformed. */
int smb2_vneg_decode(const u8 *in, u32 len, struct smb2_vneg_req *v);

/* Encode the 24-byte VALIDATE_NEGOTIATE_INFO response. */
void smb2_vneg_rsp_encode(u8 *out, u32 capabilities, const u8 *guid,
			  u16 security_mode, u16 dialect);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_NEGOTIATE_H */
