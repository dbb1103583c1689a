/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: signing, encryption and preauth integrity of SMB2 messages,
 * as the dispatcher, the handlers and the break notifications
 * (smb2/break.c) need them: a session's keys over crypto.h, which does
 * the cryptography.
 */
#ifndef _SMBSRV_SIGN_H
#define _SMBSRV_SIGN_H

#include <linux/types.h>
#include <linux/uio.h>

struct smbsrv_channel;
struct smbsrv_conn;
struct smbsrv_pages;
struct smbsrv_rxpages;
struct smbsrv_session;

/*
 * Verify the signature of a request PDU with the signing key of channel
 * @ch of @sess (the session's own when @ch is NULL or its first channel):
 * 0, or -EBADMSG.
 */
int smbsrv_sign_verify(struct smbsrv_session *sess, struct smbsrv_channel *ch,
		       const u8 *pdu, u32 len);
/*
 * The same for a PDU whose last bytes are not behind @pdu (@len bytes:
 * header and fixed part) but in @data, e.g. a WRITE's data received into
 * pages: the signature is checked over them where they are.
 */
int smbsrv_sign_verify_data(struct smbsrv_session *sess,
			    struct smbsrv_channel *ch, const u8 *pdu, u32 len,
			    const struct iov_iter *data);
/* Sign a response PDU in place (sets SMB2_FLAGS_SIGNED): 0 or -errno. */
int smbsrv_sign_pdu(struct smbsrv_session *sess, struct smbsrv_channel *ch,
		    u8 *pdu, u32 len);
/*
 * The same for a PDU whose last @data bytes are not behind @pdu (@len
 * bytes: header and fixed part) but in @data, e.g. a spliced READ's
 * pages: the signature covers exactly those pages.
 */
int smbsrv_sign_pdu_data(struct smbsrv_session *sess,
			 struct smbsrv_channel *ch, u8 *pdu, u32 len,
			 const struct iov_iter *data);
/* hash = SHA-512(hash || data): the 3.1.1 preauth integrity chain. */
int smbsrv_preauth_buf(u8 *hash, const void *data, u32 len);
/*
 * Derive the session's keys (3.3.5.5.3) and key its signer and ciphers.
 * Called once per session, before it becomes valid; what it set up is
 * freed with the session (session.c), also after a failure.
 */
int smbsrv_session_derive_keys(struct smbsrv_session *sess);
/*
 * A channel being bound (3.3.5.5.3): its signing key from the session key
 * @key the binding logon produced (and, for 3.1.1, ch->preauth_hash, the
 * binding connection's chain), keyed into ch->signer.
 */
int smbsrv_channel_derive_key(struct smbsrv_channel *ch, const u8 *key,
			      u32 key_len);

/*
 * Decrypt a TRANSFORM message in place.  On success *sess holds a
 * reference to the session whose keys were used and the plaintext
 * message is at *plain (inside @buf) for *plain_len bytes.
 */
int smbsrv_decrypt_msg(struct smbsrv_conn *conn, u8 *buf, u32 len,
		       struct smbsrv_session **sess, u8 **plain,
		       u32 *plain_len);
/*
 * Decrypt a TRANSFORM message the receiver holds as @head (its first
 * SMB2_SEALED_HEAD_SIZE bytes, wire/route.h) and @rx (the rest, in the
 * pages it was received in), in one pass and out of place: the
 * ciphertext is only read, the plaintext's first SMB2_WRITE_HEAD_SIZE
 * bytes go to @plain_head and the rest into pages of our own, *plain.
 * On success *sess holds a reference to the session whose keys were
 * used.  On failure nothing of the plaintext is kept.
 */
int smbsrv_decrypt_msg_pages(struct smbsrv_conn *conn, u8 *head,
			     struct smbsrv_rxpages *rx,
			     struct smbsrv_session **sess, u8 *plain_head,
			     struct smbsrv_rxpages **plain);
/*
 * Encrypt the message in iov[1..n-1] (@len bytes) for @sess and send it
 * as one TRANSFORM frame (@queue: see smbsrv_send_frame()).
 */
int smbsrv_encrypt_send(struct smbsrv_conn *conn, u8 queue,
			struct smbsrv_session *sess, struct kvec *iov,
			unsigned int n, u32 len);
/*
 * The same for a spliced READ response: the header and fixed part
 * (@rsp_len bytes) at p->head + SMBSRV_HEAD_RSP, the data in @p's pages.
 * Encrypted in one pass from those pages into freshly allocated ones,
 * which are spliced behind the TRANSFORM header (splice.h's layout);
 * the plaintext pages are only read.
 */
int smbsrv_encrypt_send_pages(struct smbsrv_conn *conn, u8 queue,
			      struct smbsrv_session *sess,
			      struct smbsrv_pages *p, u32 rsp_len);

#endif /* _SMBSRV_SIGN_H */
