// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: NEGOTIATE (MS-SMB2 3.3.5.3, 3.3.5.4).
 */
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "../conn.h"
#include "../sched.h"
#include "../send.h"
#include "../sign.h"
#include "../smbsrv.h"
#include "../wire/negotiate.h"
#include "credits.h"
#include "posix.h"
#include "smb2.h"

u8 smbsrv_server_guid[16];

/* FILETIME: 100 ns units since 1601-01-01. */
u64 smbsrv_filetime_now(void)
{
	return div_u64(ktime_get_real_ns(), 100) + 116444736000000000ULL;
}

static bool smbsrv_encryption_off(void)
{
	return READ_ONCE(smbsrv_server.knobs.encryption) ==
	       SMBSRV_CONFIG_OPT_DISABLED;
}

/* Ciphers the server offers, a bit per cipher id. */
static u32 smbsrv_ciphers_allowed(void)
{
	if (smbsrv_encryption_off())
		return 0;
	return BIT(SMB2_CIPHER_AES128_CCM) | BIT(SMB2_CIPHER_AES128_GCM) |
	       BIT(SMB2_CIPHER_AES256_CCM) | BIT(SMB2_CIPHER_AES256_GCM);
}

/* Record the negotiated state of @conn for @dialect. */
static void smbsrv_conn_set_dialect(struct smbsrv_conn *conn, u16 dialect)
{
	u32 signing = READ_ONCE(smbsrv_server.knobs.signing);

	conn->dialect = dialect;
	conn->multi_credit = dialect >= SMB2_DIALECT_210;
	conn->signing_required = signing == SMBSRV_CONFIG_OPT_MANDATORY;
	conn->server_security_mode = SMB2_NEGOTIATE_SIGNING_ENABLED |
		(conn->signing_required ? SMB2_NEGOTIATE_SIGNING_REQUIRED : 0);
	conn->client_requires_signing =
		conn->client_security_mode & SMB2_NEGOTIATE_SIGNING_REQUIRED;
	conn->server_caps = 0;
	if (dialect >= SMB2_DIALECT_210)
		conn->server_caps |= SMB2_GLOBAL_CAP_LARGE_MTU;
	/* Leases from 2.1, with smb2 leases = yes (cache.c). */
	if (dialect >= SMB2_DIALECT_210 &&
	    READ_ONCE(smbsrv_server.knobs.smb2_leases))
		conn->server_caps |= SMB2_GLOBAL_CAP_LEASING;
	/* Directory leases from 3.0 (cache.c, klease.c: directory leases). */
	if (dialect >= SMB2_DIALECT_300 &&
	    READ_ONCE(smbsrv_server.knobs.smb2_leases))
		conn->server_caps |= SMB2_GLOBAL_CAP_DIRECTORY_LEASING;
	/* Multichannel from 3.0, when configured (session.h, binding). */
	if (dialect >= SMB2_DIALECT_300 &&
	    READ_ONCE(smbsrv_server.knobs.multichannel))
		conn->server_caps |= SMB2_GLOBAL_CAP_MULTI_CHANNEL;
	if ((dialect == SMB2_DIALECT_300 || dialect == SMB2_DIALECT_302) &&
	    !smbsrv_encryption_off() &&
	    (conn->client_caps & SMB2_GLOBAL_CAP_ENCRYPTION)) {
		conn->server_caps |= SMB2_GLOBAL_CAP_ENCRYPTION;
		conn->cipher = SMB2_CIPHER_AES128_CCM;
	}
	if (dialect == SMB2_DIALECT_202) {
		conn->max_read = 65536;
		conn->max_write = 65536;
		conn->max_trans = 65536;
	} else {
		conn->max_read = READ_ONCE(smbsrv_server.knobs.max_read);
		conn->max_write = READ_ONCE(smbsrv_server.knobs.max_write);
		conn->max_trans = READ_ONCE(smbsrv_server.knobs.max_trans);
	}
	if (dialect >= SMB2_DIALECT_300)
		conn->signing_alg = SMB2_SIGNING_AES_CMAC;
	else
		conn->signing_alg = SMB2_SIGNING_HMAC_SHA256;
}

/*
 * Encode the NEGOTIATE response body for @conn into a new buffer at
 * *rsp (header room included); returns the body size or a negative errno.
 */
static int smbsrv_negotiate_rsp(struct smbsrv_conn *conn, u16 dialect,
				const struct smb2_neg_ctxs *ctxs, u8 **rsp)
{
	struct smb2_negotiate_rsp a = {
		.security_mode = conn->server_security_mode,
		.dialect = dialect,
		.server_guid = smbsrv_server_guid,
		.capabilities = conn->server_caps,
		.max_transact = conn->max_trans,
		.max_read = conn->max_read,
		.max_write = conn->max_write,
		.system_time = smbsrv_filetime_now(),
	};
	u8 salt[SMB2_PREAUTH_SALT_SIZE];
	u8 *blob;
	u32 size;
	int len;

	if (dialect == SMB2_DIALECT_WILDCARD) {
		a.max_transact = 65536;
		a.max_read = 65536;
		a.max_write = 65536;
	}
	blob = kmalloc(SMBSRV_NEGOTIATE_BLOB_MAX, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;
	len = smbsrv_negotiate_blob_copy(blob, SMBSRV_NEGOTIATE_BLOB_MAX);
	if (len < 0)
		len = 0;
	a.secbuf = blob;
	a.secbuf_len = len;
	if (dialect == SMB2_DIALECT_311) {
		get_random_bytes(salt, sizeof(salt));
		a.salt = salt;
		a.encryption = ctxs->encryption;
		a.cipher = conn->cipher;
		a.signing = ctxs->signing;
		a.signing_alg = conn->signing_alg;
		a.posix = conn->posix;
	}
	size = smb2_negotiate_rsp_size(&a);
	*rsp = kvzalloc(SMB2_HDR_SIZE + size + 8, GFP_KERNEL);
	if (*rsp)
		smb2_negotiate_rsp_encode(*rsp + SMB2_HDR_SIZE, &a);
	kfree(blob);
	return *rsp ? size : -ENOMEM;
}

static void smbsrv_set_negotiated(struct smbsrv_conn *conn)
{
	/* Everything above is visible before the flag is. */
	smp_mb__before_atomic();
	set_bit(SMBSRV_CONN_NEGOTIATED, &conn->flags);
}

u32 smbsrv_smb2_negotiate(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	struct smb2_negotiate_req r;
	struct smb2_neg_ctxs ctxs = {};
	u16 dialect, min, max, i;
	u32 status;
	int size;

	/* A second NEGOTIATE on a connection: disconnect (3.3.5.4). */
	if (smbsrv_conn_negotiated(conn))
		return SMBSRV_DISCONNECT;
	if (!req->last || req->related)
		return SMBSRV_DISCONNECT;
	status = smb2_negotiate_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;

	conn->client_caps = r.capabilities;
	conn->client_security_mode = r.security_mode;
	memcpy(conn->client_guid, r.client_guid, sizeof(conn->client_guid));
	conn->client_dialect_count = r.dialect_count;
	for (i = 0; i < min_t(u16, r.dialect_count, SMBSRV_MAX_DIALECTS); i++)
		conn->client_dialects[i] = get_unaligned_le16(r.dialects + 2 * i);

	min = READ_ONCE(smbsrv_server.knobs.min_dialect);
	max = READ_ONCE(smbsrv_server.knobs.max_dialect);
	dialect = smb2_dialect_select(r.dialects, r.dialect_count, min, max);
	if (!dialect)
		return STATUS_NOT_SUPPORTED;
	if (dialect == SMB2_DIALECT_311) {
		status = smb2_neg_ctxs_decode(req->pdu, req->pdu_len, &r, &ctxs);
		if (status)
			return status;
		conn->cipher = smb2_cipher_select(&ctxs,
						  smbsrv_ciphers_allowed());
		status = smbsrv_posix_negotiate(conn, &ctxs);
		if (status)
			return status;
	}
	smbsrv_conn_set_dialect(conn, dialect);
	if (dialect == SMB2_DIALECT_311) {
		conn->signing_alg = smb2_signing_select(&ctxs);
		/* Connection.PreauthIntegrityHashValue (3.3.5.4). */
		memset(conn->preauth_hash, 0, sizeof(conn->preauth_hash));
		if (smbsrv_preauth_buf(conn->preauth_hash, req->pdu,
				       req->pdu_len))
			return STATUS_INSUFFICIENT_RESOURCES;
		req->preauth_rsp = conn->preauth_hash;
	}
	if (smbsrv_credits_setup(conn))
		return SMBSRV_DISCONNECT;

	size = smbsrv_negotiate_rsp(conn, dialect, &ctxs, &req->rsp);
	if (size < 0)
		return STATUS_INSUFFICIENT_RESOURCES;
	req->rsp_len = SMB2_HDR_SIZE + size;
	smbsrv_set_negotiated(conn);
	return STATUS_SUCCESS;
}

/*
 * An SMB1 SMB_COM_NEGOTIATE (3.3.5.3): clients that may speak SMB1 start
 * this way.  "SMB 2.???" gets the 0x02FF wildcard response, after which
 * the client sends an SMB2 NEGOTIATE with MessageId 1; "SMB 2.002" alone
 * gets dialect 2.0.2; anything else is disconnected without a response.
 */
void smbsrv_smb1_negotiate(struct smbsrv_conn *conn, const u8 *buf, u32 len)
{
	struct smb2_hdr hdr = { .command = SMB2_NEGOTIATE, .credits = 1 };
	u16 min = READ_ONCE(smbsrv_server.knobs.min_dialect);
	u16 max = READ_ONCE(smbsrv_server.knobs.max_dialect);
	bool smb2_002, smb2_any;
	struct kvec iov[2];
	u16 dialect;
	u8 *rsp = NULL;
	int size, err;

	if (conn->dialect || smb1_negotiate_scan(buf, len, &smb2_002, &smb2_any))
		goto drop;
	if (smb2_any && max >= SMB2_DIALECT_210)
		dialect = SMB2_DIALECT_WILDCARD;
	else if (smb2_002 && min <= SMB2_DIALECT_202)
		dialect = SMB2_DIALECT_202;
	else
		goto drop;

	/* The SMB1 request was MessageId 0; the response grants id 1. */
	if (smbsrv_credits_smb1_charge(conn))
		goto drop;

	smbsrv_conn_set_dialect(conn, dialect);
	if (dialect == SMB2_DIALECT_WILDCARD)
		conn->multi_credit = true;
	else if (smbsrv_credits_setup(conn))
		goto drop;
	smbsrv_credits_smb1_grant(conn);

	size = smbsrv_negotiate_rsp(conn, dialect, NULL, &rsp);
	if (size < 0)
		goto drop;
	smb2_hdr_encode_rsp(rsp, &hdr, STATUS_SUCCESS, 1, 0, 0);
	iov[1].iov_base = rsp;
	iov[1].iov_len = SMB2_HDR_SIZE + size;
	err = smbsrv_send_frame(conn, SMBSRV_QUEUE_PERCPU, iov, 2,
				iov[1].iov_len);
	kvfree(rsp);
	if (err)
		return;
	if (dialect == SMB2_DIALECT_202)
		smbsrv_set_negotiated(conn);
	return;
drop:
	pr_info_ratelimited("smbsrv: %s: SMB1 negotiate without an SMB2 dialect we offer, disconnecting\n",
			    conn->addr);
	smbsrv_conn_close(conn);
}
