/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: SMB2/3 key derivation, signing, encryption and the 3.1.1
 * preauth integrity hash, all through the kernel crypto API.
 *
 * A message is given as kvecs (the first one starts with the SMB2 header,
 * or is the TRANSFORM header for encryption) plus an optional iov_iter of
 * payload that follows them (e.g. a READ's page-backed data).  The iter is
 * not advanced.  Memory behind the kvecs and the iter may be kmalloc'd,
 * vmalloc'd or page-backed; it must not be on the stack (it goes into a
 * scatterlist).
 *
 * Signers and ciphers are bound to one key when allocated and may then be
 * used from any number of threads at once.
 *
 * All but init/exit are exported in the SMBSRV_TEST namespace for the
 * known-answer tests (kmod/test/crypto_test.c), and for nothing else.
 */
#ifndef _SMBSRV_CRYPTO_H
#define _SMBSRV_CRYPTO_H

#include <linux/types.h>
#include <linux/uio.h>

#define SMBSRV_SIGNATURE_SIZE		16
#define SMBSRV_PREAUTH_HASH_SIZE	64	/* SHA-512 */
#define SMBSRV_SMB2_HEADER_SIZE		64
#define SMBSRV_TRANSFORM_HEADER_SIZE	52
#define SMBSRV_SIGNATURE_OFFSET		48	/* in the SMB2 header */

/* SigningAlgorithmId values of MS-SMB2 2.2.3.1.7. */
enum smbsrv_sign_alg {
	SMBSRV_SIGN_HMAC_SHA256 = 0,
	SMBSRV_SIGN_AES_CMAC = 1,
	SMBSRV_SIGN_AES_GMAC = 2,
};

/* Cipher ids of MS-SMB2 2.2.3.1.2; 0 is "none". */
enum smbsrv_cipher_id {
	SMBSRV_CIPHER_NONE = 0,
	SMBSRV_CIPHER_AES128_CCM = 1,
	SMBSRV_CIPHER_AES128_GCM = 2,
	SMBSRV_CIPHER_AES256_CCM = 3,
	SMBSRV_CIPHER_AES256_GCM = 4,
};

/* A session's keys, from the server's point of view. */
struct smbsrv_session_keys {
	u8 signing[16];
	u8 application[16];
	u8 encryption[32];	/* server to client */
	u8 decryption[32];	/* client to server */
	u32 cipher_key_len;	/* 16 or 32; 0 when there is no cipher */
};

int smbsrv_crypto_init(void);
void smbsrv_crypto_exit(void);

/*
 * Derive a session's keys (MS-SMB2 3.3.5.5.3) for @dialect (0x0202 ...
 * 0x0311) and @cipher (enum smbsrv_cipher_id, NONE for 2.x or when no
 * encryption was negotiated) from the session key the authentication
 * produced.  @preauth_hash is the session's preauth integrity hash, used
 * for 3.1.1 only (may be NULL otherwise).
 */
int smbsrv_derive_keys(u16 dialect, u16 cipher, const u8 *session_key,
		       u32 session_key_len, const u8 *preauth_hash,
		       struct smbsrv_session_keys *keys);

/* preauth = SHA-512(preauth || message), MS-SMB2 3.3.5.4 / 3.3.5.5. */
int smbsrv_preauth_update(u8 preauth[SMBSRV_PREAUTH_HASH_SIZE],
			  const struct kvec *iov, unsigned int nr_iov,
			  const struct iov_iter *payload);

struct smbsrv_signer;

/* A signer for one 16-byte signing key; ERR_PTR on failure. */
struct smbsrv_signer *smbsrv_signer_alloc(enum smbsrv_sign_alg alg,
					  const u8 *key);
void smbsrv_signer_free(struct smbsrv_signer *s);

/*
 * Sign one PDU (for a compound, each PDU on its own, padding included):
 * zero the signature field and write the signature there.  For AES-GMAC
 * the nonce comes from the header's MessageId, its SERVER_TO_REDIR flag
 * and whether it is a CANCEL request (MS-SMB2 3.1.4.1).
 */
int smbsrv_sign(struct smbsrv_signer *s, struct kvec *iov,
		unsigned int nr_iov, const struct iov_iter *payload);
/*
 * Check one received PDU's signature (MS-SMB2 3.1.5.1): 0 or -EBADMSG.
 * The header is left as it came.
 */
int smbsrv_verify(struct smbsrv_signer *s, struct kvec *iov,
		  unsigned int nr_iov, const struct iov_iter *payload);

struct smbsrv_cipher;

/* A cipher for one key of the cipher's length; ERR_PTR on failure. */
struct smbsrv_cipher *smbsrv_cipher_alloc(enum smbsrv_cipher_id id,
					  const u8 *key);
void smbsrv_cipher_free(struct smbsrv_cipher *c);

/*
 * Encrypt a message in place.  iov[0] is the 52-byte TRANSFORM header with
 * ProtocolId, OriginalMessageSize, Flags and SessionId filled in; the
 * rest of iov and @payload are the SMB2 message(s), OriginalMessageSize
 * bytes in all.  A fresh nonce (unique per cipher: a random prefix and a
 * counter) and the signature are written into the header.  Page-cache
 * pages must not be passed as @payload here: they would be overwritten;
 * use smbsrv_encrypt_to().
 */
int smbsrv_encrypt(struct smbsrv_cipher *c, struct kvec *iov,
		   unsigned int nr_iov, const struct iov_iter *payload);
/*
 * The same out of place, in one pass: the message (the kvecs after the
 * header and @payload, e.g. page-cache pages) is only read, and its
 * ciphertext is written to @dst, which must hold exactly
 * OriginalMessageSize bytes (e.g. freshly allocated pages).  The header
 * gets the nonce and the signature as above.
 */
int smbsrv_encrypt_to(struct smbsrv_cipher *c, struct kvec *iov,
		      unsigned int nr_iov, const struct iov_iter *payload,
		      const struct iov_iter *dst);
/*
 * Decrypt a message in place, laid out as for smbsrv_encrypt(): 0, or
 * -EBADMSG when the signature does not match (the data is then garbage).
 * The caller has checked the header's ProtocolId, Flags, SessionId and
 * that OriginalMessageSize equals the bytes that follow it.
 */
int smbsrv_decrypt(struct smbsrv_cipher *c, struct kvec *iov,
		   unsigned int nr_iov, const struct iov_iter *payload);
/*
 * The same out of place, in one pass: the ciphertext (the kvecs after the
 * header and @payload, e.g. the pages a WRITE was received in) is only
 * read, and the plaintext goes to @dhead's buffer (its first bytes; may
 * be NULL) and then @dst, which together hold exactly OriginalMessageSize
 * bytes.  On -EBADMSG what they hold is garbage: nothing may use it.
 */
int smbsrv_decrypt_to(struct smbsrv_cipher *c, struct kvec *iov,
		      unsigned int nr_iov, const struct iov_iter *payload,
		      const struct kvec *dhead, const struct iov_iter *dst);
/*
 * smbsrv_encrypt() (@dst NULL) or smbsrv_encrypt_to() with the nonce
 * already in the header: the known-answer tests' way to the published
 * ciphertexts.  Never for a message sent (a nonce must not repeat).
 */
int smbsrv_encrypt_with_nonce(struct smbsrv_cipher *c, struct kvec *iov,
			      unsigned int nr_iov,
			      const struct iov_iter *payload,
			      const struct iov_iter *dst);

#endif /* _SMBSRV_CRYPTO_H */
