// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: what the dispatcher checks of a request before its handler
 * runs (smb2.h): the session it names (MS-SMB2 3.3.5.2.9), its signature
 * (3.3.5.2.4) and whether it had to come encrypted (3.3.5.2.9).
 */
#include <uapi/linux/smbsrv.h>

#include "../cmdstats.h"
#include "../conn.h"
#include "../rxpages.h"
#include "../session.h"
#include "../sign.h"
#include "smb2.h"

/*
 * Check @req's signature with the key of channel @ch of @sess: over the
 * PDU, and for a WRITE whose data was received into pages (rxpages.h)
 * over that data where it is, before anything is written.
 */
static int smbsrv_req_verify(struct smbsrv_req *req,
			     struct smbsrv_session *sess,
			     struct smbsrv_channel *ch)
{
	struct iov_iter data;

	if (!req->rx)
		return smbsrv_sign_verify(sess, ch, req->pdu, req->pdu_len);
	smbsrv_rxpages_iter(req->rx, &data);
	return smbsrv_sign_verify_data(sess, ch, req->pdu, req->pdu_len,
				       &data);
}

/*
 * A signed request names a session this connection is no channel of
 * (one a client bound elsewhere, or is about to bind here): when that
 * session's key verifies it, the STATUS_USER_SESSION_DELETED answer is
 * signed with the key, as Windows and Samba do (a client that requires
 * signing takes an unsigned answer for a forgery: smbtorture's
 * session.bind2).  The session serves nothing else: no channel, so a
 * related request does not inherit it.
 */
static void smbsrv_req_foreign_session(struct smbsrv_req *req)
{
	struct smbsrv_session *sess;

	if (!(req->hdr.flags & SMB2_FLAGS_SIGNED) || req->encrypted)
		return;
	sess = smbsrv_session_lookup_any(req->hdr.session_id);
	if (!sess)
		return;
	if (smbsrv_session_has_keys(sess) && !sess->encrypt_data &&
	    !smbsrv_req_verify(req, sess, NULL)) {
		req->sess = sess;
		req->signed_in = true;
		return;
	}
	smbsrv_session_put(sess);
}

u32 smbsrv_req_session(struct smbsrv_req *req, const struct smbsrv_cmd *c)
{
	struct smbsrv_session *sess = req->sess;

	if (!sess) {
		if ((c->needs & SMBSRV_NEED_SESSION_IF_ID) &&
		    !req->hdr.session_id)
			return STATUS_SUCCESS;
		sess = smbsrv_session_lookup(req->conn, req->hdr.session_id);
		if (!sess) {
			smbsrv_req_foreign_session(req);
			return STATUS_USER_SESSION_DELETED;
		}
		req->sess = sess;
		req->chan = smbsrv_session_channel(sess, req->conn);
	}
	switch (READ_ONCE(sess->state)) {
	case SMBSRV_SESSION_VALID:
		return STATUS_SUCCESS;
	case SMBSRV_SESSION_IN_PROGRESS:
		return (c->needs & SMBSRV_NEED_ANY_STATE) ?
			STATUS_SUCCESS : STATUS_USER_SESSION_DELETED;
	default:
		return STATUS_NETWORK_SESSION_EXPIRED;
	}
}

u32 smbsrv_req_signature(struct smbsrv_req *req)
{
	struct smbsrv_session *sess = req->sess;
	u16 cmd = req->hdr.command;

	if (req->encrypted)
		return STATUS_SUCCESS;	/* decryption authenticated it */
	if (req->hdr.flags & SMB2_FLAGS_SIGNED) {
		if (cmd == SMB2_NEGOTIATE)
			return STATUS_INVALID_PARAMETER;
		if (!sess) {
			u64 id = req->hdr.session_id;

			/* SESSION_SETUP of a live session, ECHO, CANCEL. */
			sess = smbsrv_session_lookup(req->conn, id);
			/*
			 * A SESSION_SETUP naming a session this connection
			 * is no channel of (a binding request): the session's
			 * key checks the signature and signs the answer
			 * (3.3.5.5.2); nothing else ever sees it.
			 */
			if (!sess && cmd == SMB2_SESSION_SETUP)
				sess = smbsrv_session_lookup_any(id);
			if (!sess)
				return STATUS_USER_SESSION_DELETED;
			req->sess = sess;
			req->chan = smbsrv_session_channel(sess, req->conn);
		}
		/* The channel's key, or the session's for a binding. */
		if (!smbsrv_session_has_keys(sess) ||
		    smbsrv_req_verify(req, sess, req->chan)) {
			/* Not signed as far as binding goes: refused there. */
			if (!req->chan)
				return STATUS_SUCCESS;
			smbsrv_cmdstats_bad_signature();
			return STATUS_ACCESS_DENIED;
		}
		req->signed_in = true;
		return STATUS_SUCCESS;
	}
	if (sess && sess->signing_required && cmd != SMB2_SESSION_SETUP &&
	    smbsrv_session_valid(sess))
		return STATUS_ACCESS_DENIED;
	return STATUS_SUCCESS;
}

/* Data on an encrypting session or tree must come encrypted. */
u32 smbsrv_req_encryption(struct smbsrv_req *req)
{
	if (req->encrypted || !req->sess)
		return STATUS_SUCCESS;
	if (req->sess->encrypt_data && req->hdr.command != SMB2_SESSION_SETUP)
		return STATUS_ACCESS_DENIED;
	if (req->tree && (req->tree->share_flags & SMBSRV_SHARE_FLAGS_ENCRYPT))
		return STATUS_ACCESS_DENIED;
	return STATUS_SUCCESS;
}
