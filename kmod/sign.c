// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: signing, encryption and preauth integrity of SMB2 messages.
 *
 * Glue between the dispatcher and crypto.h: which key and algorithm a
 * session uses, the TRANSFORM header around an encrypted message.
 */
#include <linux/err.h>
#include <linux/slab.h>

#include "conn.h"
#include "crypto.h"
#include "rxpages.h"
#include "send.h"
#include "session.h"
#include "sign.h"
#include "splice.h"
#include "wire/pdu.h"
#include "wire/route.h"

int smbsrv_preauth_buf(u8 *hash, const void *data, u32 len)
{
	struct kvec iov = { .iov_base = (void *)data, .iov_len = len };

	return smbsrv_preauth_update(hash, &iov, 1, NULL);
}

/* A bound channel's own key, or the session's (3.3.4.1.1, 3.3.5.2.4). */
static struct smbsrv_signer *smbsrv_signer_of(struct smbsrv_session *sess,
					      struct smbsrv_channel *ch)
{
	return ch && ch->signer ? ch->signer : sess->signer;
}

int smbsrv_sign_verify_data(struct smbsrv_session *sess,
			    struct smbsrv_channel *ch, const u8 *pdu, u32 len,
			    const struct iov_iter *data)
{
	struct kvec iov = { .iov_base = (void *)pdu, .iov_len = len };

	return smbsrv_verify(smbsrv_signer_of(sess, ch), &iov, 1, data);
}

int smbsrv_sign_verify(struct smbsrv_session *sess, struct smbsrv_channel *ch,
		       const u8 *pdu, u32 len)
{
	return smbsrv_sign_verify_data(sess, ch, pdu, len, NULL);
}

int smbsrv_sign_pdu_data(struct smbsrv_session *sess,
			 struct smbsrv_channel *ch, u8 *pdu, u32 len,
			 const struct iov_iter *data)
{
	struct kvec iov = { .iov_base = pdu, .iov_len = len };
	u32 flags = get_unaligned_le32(pdu + SMB2_HDR_FLAGS);

	/* The flag is part of what is signed. */
	put_unaligned_le32(flags | SMB2_FLAGS_SIGNED, pdu + SMB2_HDR_FLAGS);
	return smbsrv_sign(smbsrv_signer_of(sess, ch), &iov, 1, data);
}

int smbsrv_sign_pdu(struct smbsrv_session *sess, struct smbsrv_channel *ch,
		    u8 *pdu, u32 len)
{
	return smbsrv_sign_pdu_data(sess, ch, pdu, len, NULL);
}

static enum smbsrv_sign_alg smbsrv_sign_alg(const struct smbsrv_conn *conn)
{
	if (conn->dialect < SMB2_DIALECT_300)
		return SMBSRV_SIGN_HMAC_SHA256;
	if (conn->dialect < SMB2_DIALECT_311)
		return SMBSRV_SIGN_AES_CMAC;
	return conn->signing_alg;
}

int smbsrv_session_derive_keys(struct smbsrv_session *sess)
{
	struct smbsrv_conn *conn = sess->conn;
	u16 cipher = conn->dialect >= SMB2_DIALECT_300 ? conn->cipher :
							 SMB2_CIPHER_NONE;
	struct smbsrv_signer *signer;
	int err;

	err = smbsrv_derive_keys(conn->dialect, cipher, sess->session_key,
				 sess->session_key_len, sess->preauth_hash,
				 &sess->keys);
	if (err)
		return err;
	signer = smbsrv_signer_alloc(smbsrv_sign_alg(conn), sess->keys.signing);
	if (IS_ERR(signer))
		return PTR_ERR(signer);
	sess->signer = signer;
	if (cipher != SMB2_CIPHER_NONE) {
		sess->encryptor = smbsrv_cipher_alloc(cipher,
						      sess->keys.encryption);
		if (IS_ERR(sess->encryptor)) {
			err = PTR_ERR(sess->encryptor);
			sess->encryptor = NULL;
			return err;
		}
		sess->decryptor = smbsrv_cipher_alloc(cipher,
						      sess->keys.decryption);
		if (IS_ERR(sess->decryptor)) {
			err = PTR_ERR(sess->decryptor);
			sess->decryptor = NULL;
			return err;
		}
	}
	/* Readers check has_keys, then use what is above. */
	smp_store_release(&sess->has_keys, true);
	return 0;
}

int smbsrv_channel_derive_key(struct smbsrv_channel *ch, const u8 *key,
			      u32 key_len)
{
	struct smbsrv_conn *conn = ch->conn;
	struct smbsrv_session_keys keys;
	struct smbsrv_signer *signer;
	int err;

	/* Only the signing key is the channel's; no cipher wanted here. */
	err = smbsrv_derive_keys(conn->dialect, SMB2_CIPHER_NONE, key, key_len,
				 ch->preauth_hash, &keys);
	if (!err) {
		signer = smbsrv_signer_alloc(smbsrv_sign_alg(conn),
					     keys.signing);
		if (IS_ERR(signer))
			err = PTR_ERR(signer);
		else
			ch->signer = signer;
	}
	memzero_explicit(&keys, sizeof(keys));
	return err;
}

/*
 * The session a TRANSFORM header names, referenced, if it can decrypt:
 * -ENOENT when there is none, -EACCES when it has no keys yet.
 */
static int smbsrv_decrypt_session(struct smbsrv_conn *conn,
				  const struct smb2_transform *t,
				  struct smbsrv_session **sessp)
{
	struct smbsrv_session *sess;

	sess = smbsrv_session_lookup(conn, t->session_id);
	if (!sess)
		return -ENOENT;
	if (!smbsrv_session_has_keys(sess) || !sess->decryptor) {
		smbsrv_session_put(sess);
		return -EACCES;
	}
	*sessp = sess;
	return 0;
}

int smbsrv_decrypt_msg(struct smbsrv_conn *conn, u8 *buf, u32 len,
		       struct smbsrv_session **sessp, u8 **plain,
		       u32 *plain_len)
{
	struct smbsrv_session *sess;
	struct smb2_transform t;
	struct kvec iov[2];
	int err;

	if (smb2_transform_decode(buf, len, &t))
		return -EPROTO;
	err = smbsrv_decrypt_session(conn, &t, &sess);
	if (err)
		return err;
	iov[0].iov_base = buf;
	iov[0].iov_len = SMB2_TRANSFORM_HDR_SIZE;
	iov[1].iov_base = buf + SMB2_TRANSFORM_HDR_SIZE;
	iov[1].iov_len = t.orig_size;
	err = smbsrv_decrypt(sess->decryptor, iov, 2, NULL);
	if (err) {
		smbsrv_session_put(sess);
		return err;
	}
	*sessp = sess;
	*plain = buf + SMB2_TRANSFORM_HDR_SIZE;
	*plain_len = t.orig_size;
	return 0;
}

int smbsrv_decrypt_msg_pages(struct smbsrv_conn *conn, u8 *head,
			     struct smbsrv_rxpages *rx,
			     struct smbsrv_session **sessp, u8 *plain_head,
			     struct smbsrv_rxpages **plain)
{
	struct smbsrv_session *sess;
	struct smbsrv_rxpages *out;
	struct iov_iter data, dst;
	struct smb2_transform t;
	struct kvec iov, dhead;
	int err;

	if (rx->got != rx->len ||
	    smb2_transform_decode(head, SMB2_SEALED_HEAD_SIZE + rx->len, &t))
		return -EPROTO;
	err = smbsrv_decrypt_session(conn, &t, &sess);
	if (err)
		return err;
	out = smbsrv_rxpages_alloc(rx->len);
	if (!out) {
		smbsrv_session_put(sess);
		return -ENOMEM;
	}
	iov.iov_base = head;
	iov.iov_len = SMB2_SEALED_HEAD_SIZE;
	dhead.iov_base = plain_head;
	dhead.iov_len = SMB2_WRITE_HEAD_SIZE;
	smbsrv_rxpages_iter(rx, &data);
	smbsrv_rxpages_dest(out, &dst);
	err = smbsrv_decrypt_to(sess->decryptor, &iov, 1, &data, &dhead, &dst);
	if (err) {
		smbsrv_rxpages_free(out);
		smbsrv_session_put(sess);
		return err;
	}
	*sessp = sess;
	*plain = out;
	return 0;
}

/* The TRANSFORM header of a message of @len bytes for @sess, nonce aside. */
static void smbsrv_transform_hdr(u8 *tf, struct smbsrv_session *sess, u32 len)
{
	memset(tf, 0, SMB2_TRANSFORM_HDR_SIZE);
	put_unaligned_le32(SMB2_TRANSFORM_PROTO_NUMBER, tf);
	put_unaligned_le32(len, tf + SMB2_TF_ORIG_SIZE);
	put_unaligned_le16(SMB2_TRANSFORM_FLAG_ENCRYPTED, tf + SMB2_TF_FLAGS);
	put_unaligned_le64(sess->id, tf + SMB2_TF_SESSION_ID);
}

int smbsrv_encrypt_send(struct smbsrv_conn *conn, u8 queue,
			struct smbsrv_session *sess, struct kvec *iov,
			unsigned int n, u32 len)
{
	struct kvec *tiov;
	u8 *tf;
	int err;

	if (!smbsrv_session_has_keys(sess) || !sess->encryptor)
		return -EACCES;
	/* Heap, not stack: the header goes into a scatterlist. */
	tf = kzalloc(SMB2_TRANSFORM_HDR_SIZE, GFP_KERNEL);
	tiov = kmalloc_array(n + 1, sizeof(*tiov), GFP_KERNEL);
	if (!tf || !tiov) {
		err = -ENOMEM;
		goto out;
	}
	smbsrv_transform_hdr(tf, sess, len);
	tiov[1].iov_base = tf;
	tiov[1].iov_len = SMB2_TRANSFORM_HDR_SIZE;
	memcpy(tiov + 2, iov + 1, (n - 1) * sizeof(*tiov));

	err = smbsrv_encrypt(sess->encryptor, tiov + 1, n, NULL);
	if (!err)
		err = smbsrv_send_frame(conn, queue, tiov, n + 1,
					len + SMB2_TRANSFORM_HDR_SIZE);
out:
	kfree(tiov);
	kfree(tf);
	return err;
}

int smbsrv_encrypt_send_pages(struct smbsrv_conn *conn, u8 queue,
			      struct smbsrv_session *sess,
			      struct smbsrv_pages *p, u32 rsp_len)
{
	u32 len = rsp_len + p->len;	/* OriginalMessageSize */
	u8 *tf = p->head + SMBSRV_HEAD_TF;
	struct iov_iter data, out;
	struct smbsrv_pages *c;
	struct kvec iov[2];
	unsigned int last;
	int err;

	if (!smbsrv_session_has_keys(sess) || !sess->encryptor)
		return -EACCES;
	c = smbsrv_pages_alloc(DIV_ROUND_UP(len, PAGE_SIZE));
	if (!c)
		return -ENOMEM;
	/* The last ciphertext page holds what is left. */
	last = len - (c->nr - 2) * PAGE_SIZE;
	c->bv[c->nr - 1].bv_len = last;
	c->len = len;

	smbsrv_transform_hdr(tf, sess, len);
	iov[0].iov_base = tf;
	iov[0].iov_len = SMB2_TRANSFORM_HDR_SIZE;
	iov[1].iov_base = p->head + SMBSRV_HEAD_RSP;
	iov[1].iov_len = rsp_len;
	iov_iter_bvec(&data, ITER_SOURCE, p->bv + 1, p->nr - 1, p->len);
	iov_iter_bvec(&out, ITER_DEST, c->bv + 1, c->nr - 1, len);
	err = smbsrv_encrypt_to(sess->encryptor, iov, 2, &data, &out);
	if (!err) {
		bvec_set_virt(&c->bv[0], p->head,
			      SMB2_FRAME_HDR_SIZE + SMB2_TRANSFORM_HDR_SIZE);
		err = smbsrv_send_pages(conn, queue, c->bv, c->nr,
					SMB2_TRANSFORM_HDR_SIZE + len);
	}
	smbsrv_pages_free(c);
	return err;
}
