// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: signing, encryption and preauth integrity of SMB2 messages.
 *
 * Glue between the dispatcher and the crypto primitives.  Until the
 * crypto layer (crypto.[ch]) is integrated, only the preauth hash exists:
 * signed requests fail verification, nothing can be signed or encrypted,
 * and sessions that need keys are refused.
 */
#include <crypto/hash.h>
#include <linux/err.h>

#include "../conn.h"
#include "../session.h"
#include "sign.h"

int smbsrv_preauth_update(u8 *hash, const void *data, u32 len)
{
	struct crypto_shash *tfm;
	int err;

	tfm = crypto_alloc_shash("sha512", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	{
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		err = crypto_shash_init(desc) ?:
		      crypto_shash_update(desc, hash, 64) ?:
		      crypto_shash_update(desc, data, len) ?:
		      crypto_shash_final(desc, hash);
		shash_desc_zero(desc);
	}
	crypto_free_shash(tfm);
	return err;
}

int smbsrv_sign_verify(struct smbsrv_session *sess, const u8 *pdu, u32 len)
{
	return -EOPNOTSUPP;
}

int smbsrv_sign_pdu(struct smbsrv_session *sess, u8 *pdu, u32 len)
{
	return -EOPNOTSUPP;
}

int smbsrv_session_derive_keys(struct smbsrv_session *sess)
{
	return -EOPNOTSUPP;
}

int smbsrv_decrypt_msg(struct smbsrv_conn *conn, u8 *buf, u32 len,
		       struct smbsrv_session **sess, u8 **plain, u32 *plain_len)
{
	return -EOPNOTSUPP;
}

int smbsrv_encrypt_send(struct smbsrv_conn *conn, struct smbsrv_session *sess,
			struct kvec *iov, unsigned int n, u32 len)
{
	return -EOPNOTSUPP;
}
