// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: SESSION_SETUP and LOGOFF (MS-SMB2 3.3.5.5, 3.3.5.6).
 *
 * The module never looks inside the security blob: each leg goes to the
 * daemon (upcall.h), which answers with a status, the blob for the client
 * and, when the logon is complete, the session key and who the user is.
 */
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "../audit.h"
#include "../conn.h"
#include "../session.h"
#include "../sign.h"
#include "../smbsrv.h"
#include "../trace.h"
#include "../upcall.h"
#include "../wire/logon.h"
#include "smb2.h"

/* The credentials file access runs with for this user. */
static const struct cred *smbsrv_user_cred(const struct smbsrv_auth_result *res)
{
	struct cred *cred;

	cred = prepare_kernel_cred(&init_task);
	if (!cred)
		return NULL;
	cred->uid = res->uid;
	cred->euid = res->uid;
	cred->suid = res->uid;
	cred->fsuid = res->uid;
	cred->gid = res->gid;
	cred->egid = res->gid;
	cred->sgid = res->gid;
	cred->fsgid = res->gid;
	if (res->groups)
		set_groups(cred, res->groups);
	if (!uid_eq(res->uid, GLOBAL_ROOT_UID)) {
		cap_clear(cred->cap_inheritable);
		cap_clear(cred->cap_permitted);
		cap_clear(cred->cap_effective);
		cap_clear(cred->cap_ambient);
	}
	return cred;
}

/* Whether the client can do SMB3 encryption on this connection. */
static bool smbsrv_conn_can_encrypt(const struct smbsrv_conn *conn)
{
	return conn->dialect >= SMB2_DIALECT_300 &&
	       conn->cipher != SMB2_CIPHER_NONE;
}

/*
 * The logon completed: make the session valid with the daemon's verdict.
 * Returns a status; the session flags of the response in *rsp_flags.
 */
static u32 smbsrv_session_establish(struct smbsrv_req *req,
				    struct smbsrv_session *sess,
				    struct smbsrv_auth_result *res,
				    u16 *rsp_flags)
{
	struct smbsrv_conn *conn = req->conn;
	u32 enc = READ_ONCE(smbsrv_server.knobs.encryption);
	bool anon = res->flags & (SMBSRV_SESSION_FLAGS_GUEST |
				  SMBSRV_SESSION_FLAGS_ANONYMOUS);
	bool reauth = sess->state == SMBSRV_SESSION_VALID;
	const struct cred *cred;
	char *user, *domain, *principal;

	if (!anon && !res->session_key_len)
		return STATUS_LOGON_FAILURE;
	cred = smbsrv_user_cred(res);
	user = kstrdup(res->user ? res->user : "", GFP_KERNEL);
	domain = kstrdup(res->domain ? res->domain : "", GFP_KERNEL);
	principal = kstrdup(res->principal ? res->principal : "", GFP_KERNEL);
	if (!cred || !user || !domain || !principal) {
		if (cred)
			put_cred(cred);
		kfree(user);
		kfree(domain);
		kfree(principal);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	if (sess->cred)
		put_cred(sess->cred);
	kfree(sess->user);
	kfree(sess->domain);
	kfree(sess->principal);
	sess->cred = cred;
	sess->user = user;
	sess->domain = domain;
	sess->principal = principal;
	smbsrv_sids_put(sess->sids);
	sess->sids = res->sids;
	res->sids = NULL;
	sess->flags = res->flags;

	*rsp_flags = 0;
	if (res->flags & SMBSRV_SESSION_FLAGS_ANONYMOUS)
		*rsp_flags |= SMB2_SESSION_FLAG_IS_NULL;
	else if (res->flags & SMBSRV_SESSION_FLAGS_GUEST)
		*rsp_flags |= SMB2_SESSION_FLAG_IS_GUEST;

	/* A re-authentication keeps the keys of the session (3.3.5.5.3). */
	if (reauth || anon)
		return STATUS_SUCCESS;

	sess->session_key_len = min_t(u32, res->session_key_len,
				      sizeof(sess->session_key));
	memcpy(sess->session_key, res->session_key, sess->session_key_len);
	if (smbsrv_session_derive_keys(sess))
		return STATUS_INSUFFICIENT_RESOURCES;

	if (enc == SMBSRV_CONFIG_OPT_MANDATORY) {
		if (!smbsrv_conn_can_encrypt(conn))
			return STATUS_ACCESS_DENIED;
		sess->encrypt_data = true;
		*rsp_flags |= SMB2_SESSION_FLAG_ENCRYPT_DATA;
	}
	sess->signing_required = !sess->encrypt_data &&
		(conn->signing_required || conn->client_requires_signing);
	/* 3.1.1 signs the final response; so does required signing. */
	if (conn->dialect == SMB2_DIALECT_311 || sess->signing_required)
		req->sign_rsp = true;
	return STATUS_SUCCESS;
}

/*
 * PreviousSessionId: the same user's older session goes (3.3.5.5.3).
 * Called once the new session is established, with no setup lock held:
 * @uid and @user are its identity, copied under its lock; the old
 * session's is read under the old one's (a re-authentication replaces
 * it), and ending it takes that lock, which two sessions naming each
 * other must not take nested.
 */
static void smbsrv_session_drop_previous(struct smbsrv_session *sess,
					 u64 prev_id, kuid_t uid,
					 const char *user)
{
	struct smbsrv_session *old;

	if (!prev_id || prev_id == sess->id)
		return;
	old = smbsrv_session_lookup_any(prev_id);
	if (!old)
		return;
	mutex_lock(&old->setup_lock);
	if (smbsrv_session_valid(old) && old->cred &&
	    uid_eq(old->cred->fsuid, uid) && !strcmp(old->user, user)) {
		/* Its client reconnects: its durable opens stay for that. */
		WRITE_ONCE(old->disconnecting, true);
		smbsrv_session_end_unlock(old);
	} else {
		mutex_unlock(&old->setup_lock);
	}
	smbsrv_session_put(old);
}

static u32 smbsrv_upcall_status(int err)
{
	pr_info_ratelimited("smbsrv: session setup: the daemon did not answer (%d)\n",
			    err);
	return err == -ENOMEM ? STATUS_INSUFFICIENT_RESOURCES :
				STATUS_NO_LOGON_SERVERS;
}

/*
 * The response to a leg that succeeded or wants more: the flags and the
 * daemon's blob.  Returns @status, or the error building it gave.
 */
static u32 smbsrv_session_rsp(struct smbsrv_req *req, u32 status,
			      u16 rsp_flags,
			      const struct smbsrv_auth_result *res)
{
	u8 *body;

	if (status != STATUS_SUCCESS &&
	    status != STATUS_MORE_PROCESSING_REQUIRED)
		return status;
	if (res->blob_len > U16_MAX)
		return STATUS_INTERNAL_ERROR;
	body = smbsrv_rsp_body(req, SMB2_SESS_RSP_FIXED +
			       max_t(u32, res->blob_len, 1));
	if (!body)
		return STATUS_INSUFFICIENT_RESOURCES;
	req->rsp_len = SMB2_HDR_SIZE +
		smb2_sess_rsp_encode(body, rsp_flags, res->blob_len);
	if (res->blob_len)
		memcpy(body + SMB2_SESS_RSP_FIXED, res->blob, res->blob_len);
	return status;
}

/* One leg; called with the session's setup lock held. */
static u32 smbsrv_session_leg(struct smbsrv_req *req,
			      struct smbsrv_session *sess,
			      const struct smb2_sess_req *r)
{
	struct smbsrv_conn *conn = req->conn;
	struct smbsrv_auth_result res = {};
	u16 rsp_flags = 0;
	u32 status;
	int err;

	if (conn->dialect == SMB2_DIALECT_311 &&
	    smbsrv_preauth_buf(sess->preauth_hash, req->pdu, req->pdu_len))
		return STATUS_INSUFFICIENT_RESOURCES;

	trace_smbsrv_upcall_sent(conn->id, req->hdr.message_id,
				 "session-setup", 0);
	err = smbsrv_upcall_session_setup(sess->id, conn->addr, conn->dialect,
					  r->blob, r->blob_len, &res);
	trace_smbsrv_upcall_answered(conn->id, req->hdr.message_id,
				     "session-setup", err);
	if (err)
		return smbsrv_upcall_status(err);

	status = res.status;
	if (status == STATUS_SUCCESS) {
		status = smbsrv_session_establish(req, sess, &res, &rsp_flags);
		if (status == STATUS_SUCCESS) {
			WRITE_ONCE(sess->state, SMBSRV_SESSION_VALID);
			if (!sess->start)
				sess->start = ktime_get_boottime_seconds();
			smbsrv_conn_authenticated(conn);
			smbsrv_sessions_idle_watch();
		}
	} else if (status == STATUS_MORE_PROCESSING_REQUIRED) {
		if (conn->dialect == SMB2_DIALECT_311)
			req->preauth_rsp = sess->preauth_hash;
	}
	status = smbsrv_session_rsp(req, status, rsp_flags, &res);
	smbsrv_auth_result_free(&res);
	return status;
}

/*
 * A request to bind this connection to session @sess (3.3.5.5.2), of
 * any connection.  A bind that is wrong is refused with the status
 * Windows gives for what is wrong with it, in the order it checks
 * (smbtorture's smb2.session.bind_negative_* and Windows' protocol test
 * suite look for them); the session itself is left alone.  Without
 * multichannel on this connection (server multi channel support = no, or
 * a 2.x dialect) a bind that would be valid gets
 * STATUS_REQUEST_NOT_ACCEPTED; with it, STATUS_SUCCESS: go on binding.
 * The ClientGuid check, which 3.3.5.5.2 leaves to the server (MAY), is
 * made: a channel must come from the client that set the session up.
 */
static u32 smbsrv_session_bind_check(struct smbsrv_req *req,
				     struct smbsrv_session *sess)
{
	struct smbsrv_conn *conn = req->conn;
	struct smbsrv_conn *first = sess->conn;
	bool multi = conn->server_caps & SMB2_GLOBAL_CAP_MULTI_CHANNEL;

	/* 3.1.1 signing algorithms: GMAC binds only to GMAC. */
	if (first->signing_alg >= SMB2_SIGNING_AES_GMAC &&
	    conn->signing_alg != first->signing_alg)
		return STATUS_REQUEST_OUT_OF_SEQUENCE;
	if (conn->signing_alg >= SMB2_SIGNING_AES_GMAC &&
	    first->signing_alg != conn->signing_alg)
		return STATUS_NOT_SUPPORTED;
	if (conn->dialect < SMB2_DIALECT_300)
		return STATUS_REQUEST_NOT_ACCEPTED;
	if (!req->signed_in || first->dialect != conn->dialect ||
	    first->cipher != conn->cipher)
		return STATUS_INVALID_PARAMETER;
	if (multi && memcmp(first->client_guid, conn->client_guid, 16))
		return STATUS_USER_SESSION_DELETED;
	switch (READ_ONCE(sess->state)) {
	case SMBSRV_SESSION_VALID:
		break;
	case SMBSRV_SESSION_IN_PROGRESS:
		return STATUS_REQUEST_NOT_ACCEPTED;
	default:
		return STATUS_USER_SESSION_DELETED;
	}
	if (req->chan)
		return STATUS_REQUEST_NOT_ACCEPTED;	/* already a channel */
	if (sess->flags & (SMBSRV_SESSION_FLAGS_GUEST |
			   SMBSRV_SESSION_FLAGS_ANONYMOUS))
		return STATUS_NOT_SUPPORTED;
	return multi ? STATUS_SUCCESS : STATUS_REQUEST_NOT_ACCEPTED;
}

/*
 * The binding logon completed: it must be the session's user (3.3.5.5.3;
 * Windows and Samba answer STATUS_ACCESS_DENIED to another user, guest
 * included), and the channel gets its signing key.
 */
static u32 smbsrv_bind_establish(struct smbsrv_session *sess,
				 struct smbsrv_channel *ch,
				 const struct smbsrv_auth_result *res)
{
	if ((res->flags & (SMBSRV_SESSION_FLAGS_GUEST |
			   SMBSRV_SESSION_FLAGS_ANONYMOUS)) ||
	    !res->session_key_len || !sess->cred ||
	    !uid_eq(res->uid, sess->cred->fsuid) ||
	    strcasecmp(res->user ? res->user : "", sess->user))
		return STATUS_ACCESS_DENIED;
	if (smbsrv_channel_derive_key(ch, res->session_key,
				      min_t(u32, res->session_key_len,
					    SMBSRV_SESSION_KEY_MAX)))
		return STATUS_INSUFFICIENT_RESOURCES;
	return STATUS_SUCCESS;
}

static u32 smbsrv_bind_begin_status(long err)
{
	switch (err) {
	case -EBUSY:
		return STATUS_REQUEST_NOT_ACCEPTED;
	case -ENOTCONN:
		return STATUS_USER_SESSION_DELETED;
	default:	/* -EUSERS: SMBSRV_MAX_CHANNELS; -ENOMEM */
		return STATUS_INSUFFICIENT_RESOURCES;
	}
}

/*
 * One leg of a valid binding (3.3.5.5.2, 3.3.5.5.3): the logon runs again
 * through the daemon, its exchange keyed apart from the session's own
 * (the connection's id in the upper half: binds on two connections may
 * interleave), and on success the channel is bound and signs the final
 * response with its new key.  A failed bind drops the channel being
 * bound and leaves the session alone.
 */
static u32 smbsrv_session_bind_leg(struct smbsrv_req *req,
				   struct smbsrv_session *sess,
				   const struct smb2_sess_req *r)
{
	struct smbsrv_conn *conn = req->conn;
	struct smbsrv_auth_result res = {};
	struct smbsrv_channel *ch;
	bool fresh;
	u32 status;
	int err;

	mutex_lock(&sess->setup_lock);
	if (sess->state != SMBSRV_SESSION_VALID) {
		mutex_unlock(&sess->setup_lock);
		return STATUS_USER_SESSION_DELETED;
	}
	ch = smbsrv_channel_begin(sess, conn, &fresh);
	if (IS_ERR(ch)) {
		mutex_unlock(&sess->setup_lock);
		return smbsrv_bind_begin_status(PTR_ERR(ch));
	}
	/* Its key signs the final response; until then the session's. */
	req->chan = ch;
	if (fresh)
		memcpy(ch->preauth_hash, conn->preauth_hash,
		       sizeof(ch->preauth_hash));
	if (conn->dialect == SMB2_DIALECT_311 &&
	    smbsrv_preauth_buf(ch->preauth_hash, req->pdu, req->pdu_len)) {
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto fail;
	}
	trace_smbsrv_upcall_sent(conn->id, req->hdr.message_id,
				 "session-bind", 0);
	err = smbsrv_upcall_session_setup(sess->id | (u64)conn->id << 32,
					  conn->addr, conn->dialect, r->blob,
					  r->blob_len, &res);
	trace_smbsrv_upcall_answered(conn->id, req->hdr.message_id,
				     "session-bind", err);
	if (err) {
		status = smbsrv_upcall_status(err);
		goto fail;
	}
	status = res.status;
	if (status == STATUS_SUCCESS)
		status = smbsrv_bind_establish(sess, ch, &res);
	if (status == STATUS_MORE_PROCESSING_REQUIRED &&
	    conn->dialect == SMB2_DIALECT_311)
		req->preauth_rsp = ch->preauth_hash;
	status = smbsrv_session_rsp(req, status, 0, &res);
	smbsrv_auth_result_free(&res);
	if (status == STATUS_SUCCESS) {
		smbsrv_channel_bound(ch);
		smbsrv_conn_authenticated(conn);
		req->sign_rsp = true;
	} else if (status != STATUS_MORE_PROCESSING_REQUIRED) {
		goto fail;
	}
	mutex_unlock(&sess->setup_lock);
	return status;

fail:
	/* Other channels are left (it is valid): the lock stays held. */
	if (!smbsrv_channel_remove(ch))
		mutex_unlock(&sess->setup_lock);
	return status;
}

static u32 smbsrv_session_bind(struct smbsrv_req *req,
			       const struct smb2_sess_req *r)
{
	struct smbsrv_session *sess;
	u32 status;

	if (!req->hdr.session_id)
		return STATUS_INVALID_PARAMETER;
	if (req->sess) {
		status = smbsrv_session_bind_check(req, req->sess);
		if (status == STATUS_SUCCESS)
			status = smbsrv_session_bind_leg(req, req->sess, r);
		return status;
	}
	/* Unsigned: any connection's session, to answer as Windows does. */
	sess = smbsrv_session_lookup_any(req->hdr.session_id);
	if (!sess)
		return STATUS_USER_SESSION_DELETED;
	status = smbsrv_session_bind_check(req, sess);
	smbsrv_session_put(sess);
	/* Not signed, so never valid: the check said why. */
	return status == STATUS_SUCCESS ? STATUS_INVALID_PARAMETER : status;
}

u32 smbsrv_smb2_session_setup(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	struct smbsrv_session *sess;
	struct smb2_sess_req r;
	kuid_t uid = INVALID_UID;
	char *user = NULL;
	u32 status;
	bool fresh = !req->hdr.session_id;

	status = smb2_sess_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	if (r.flags & SMB2_SESSION_REQ_FLAG_BINDING)
		return smbsrv_session_bind(req, &r);
	/* A session this connection is no channel of. */
	if (req->sess && !req->chan)
		return STATUS_USER_SESSION_DELETED;

	if (fresh) {
		sess = smbsrv_session_new(conn);
		if (IS_ERR(sess))
			return PTR_ERR(sess) == -EUSERS ?
				STATUS_REQUEST_NOT_ACCEPTED :
				STATUS_INSUFFICIENT_RESOURCES;
		memcpy(sess->preauth_hash, conn->preauth_hash,
		       sizeof(sess->preauth_hash));
	} else if (req->sess) {
		/* The dispatcher found it checking the signature. */
		sess = req->sess;
		smbsrv_session_get(sess);
	} else {
		sess = smbsrv_session_lookup(conn, req->hdr.session_id);
		if (!sess)
			return STATUS_USER_SESSION_DELETED;
	}
	if (!req->sess) {
		smbsrv_session_get(sess);
		req->sess = sess;
		/* Its key signs the response (a re-authentication). */
		req->chan = smbsrv_session_channel(sess, conn);
	}
	req->hdr.session_id = sess->id;

	mutex_lock(&sess->setup_lock);
	if (sess->state == SMBSRV_SESSION_EXPIRED) {
		status = STATUS_USER_SESSION_DELETED;
	} else {
		if (sess->state == SMBSRV_SESSION_VALID &&
		    conn->dialect == SMB2_DIALECT_311)
			/* Re-authentication restarts the hash chain. */
			memcpy(sess->preauth_hash, conn->preauth_hash,
			       sizeof(sess->preauth_hash));
		status = smbsrv_session_leg(req, sess, &r);
		if (status == STATUS_SUCCESS && r.prev_session_id) {
			uid = sess->cred->fsuid;
			user = kstrdup(sess->user, GFP_KERNEL);
		}
	}
	mutex_unlock(&sess->setup_lock);

	/* Without memory for the copy the old session waits out its time. */
	if (user)
		smbsrv_session_drop_previous(sess, r.prev_session_id, uid,
					     user);
	kfree(user);

	/* A failed logon ends the session (3.3.5.5.3). */
	if (status != STATUS_SUCCESS &&
	    status != STATUS_MORE_PROCESSING_REQUIRED)
		smbsrv_session_end(sess);
	smbsrv_session_put(sess);
	return status;
}

u32 smbsrv_smb2_logoff(struct smbsrv_req *req)
{
	if (!smbsrv_rsp_body(req, SMB2_SIMPLE_SIZE))
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_simple_rsp_encode(req->rsp + SMB2_HDR_SIZE);
	/*
	 * Durable handles outlive a LOGOFF, for a new session of the same
	 * user to reclaim (as on Windows and Samba: smbtorture's reopen4).
	 */
	WRITE_ONCE(req->sess->disconnecting, true);
	smbsrv_audit_session(req->sess, SMBSRV_AUDIT_OP_LOGOFF, 0);
	smbsrv_session_end(req->sess);
	return STATUS_SUCCESS;
}
