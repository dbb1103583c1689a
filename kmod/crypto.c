// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: SMB2/3 key derivation, signing, encryption and the preauth
 * integrity hash (MS-SMB2 3.1.4), through the kernel crypto API.
 */
#include <crypto/aead.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/kdf_sp800108.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "crypto.h"

#define SMB2_FLAGS_SERVER_TO_REDIR	0x00000001
#define SMB2_CANCEL			0x000c
#define SMB2_HDR_COMMAND		12
#define SMB2_HDR_FLAGS			16
#define SMB2_HDR_MESSAGE_ID		24

#define TH_SIGNATURE			4	/* offsets in the TRANSFORM header */
#define TH_NONCE			20
#define TH_AAD				TH_NONCE
#define TH_AAD_SIZE			(SMBSRV_TRANSFORM_HEADER_SIZE - TH_AAD)

#define GCM_NONCE_SIZE			12
#define CCM_NONCE_SIZE			11
#define AEAD_IV_SIZE			16

/* SHA-512 needs no key, so one transform serves every connection. */
static struct crypto_shash *smbsrv_sha512;

int smbsrv_crypto_init(void)
{
	smbsrv_sha512 = crypto_alloc_shash("sha512", 0, 0);
	if (IS_ERR(smbsrv_sha512)) {
		int err = PTR_ERR(smbsrv_sha512);

		smbsrv_sha512 = NULL;
		return err;
	}
	return 0;
}

void smbsrv_crypto_exit(void)
{
	crypto_free_shash(smbsrv_sha512);
	smbsrv_sha512 = NULL;
}

/* --- scatterlists of a message ------------------------------------------ */

#define SMBSRV_SG_INLINE	8

struct smbsrv_sg {
	struct scatterlist *sg;
	unsigned int nents, max;
	struct scatterlist inline_sg[SMBSRV_SG_INLINE];
};

static unsigned int smbsrv_buf_npages(const void *buf, size_t len)
{
	return len ? DIV_ROUND_UP(offset_in_page(buf) + len, PAGE_SIZE) : 0;
}

/* Entries for @extra buffers, the kvecs (from byte @skip) and the payload. */
static unsigned int smbsrv_msg_npages(const struct kvec *iov,
				      unsigned int nr_iov, size_t skip,
				      const struct iov_iter *payload,
				      unsigned int extra)
{
	unsigned int i, n = extra;

	for (i = 0; i < nr_iov; i++) {
		size_t s = min(skip, iov[i].iov_len);

		n += smbsrv_buf_npages(iov[i].iov_base + s,
				       iov[i].iov_len - s);
		skip -= s;
	}
	if (payload && iov_iter_count(payload))
		n += iov_iter_npages(payload, INT_MAX);
	return n;
}

static int smbsrv_sg_init(struct smbsrv_sg *s, unsigned int max)
{
	s->nents = 0;
	s->max = max;
	s->sg = s->inline_sg;
	if (!max)
		return 0;		/* unused */
	if (max > SMBSRV_SG_INLINE) {
		s->sg = kvmalloc_array(max, sizeof(*s->sg), GFP_KERNEL);
		if (!s->sg)
			return -ENOMEM;
	}
	sg_init_table(s->sg, max);
	return 0;
}

static void smbsrv_sg_free(struct smbsrv_sg *s)
{
	if (s->sg != s->inline_sg)
		kvfree(s->sg);
}

static int smbsrv_sg_add_iter(struct smbsrv_sg *s, struct iov_iter *it)
{
	struct sg_table t = {
		.sgl = s->sg, .nents = s->nents, .orig_nents = s->max,
	};
	size_t len = iov_iter_count(it);
	ssize_t n;

	if (!len)
		return 0;
	n = extract_iter_to_sg(it, len, &t, s->max - s->nents, 0);
	if (n < 0)
		return n;
	s->nents = t.nents;
	return n == len ? 0 : -EIO;
}

static int smbsrv_sg_add_buf(struct smbsrv_sg *s, void *buf, size_t len)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, len);
	return smbsrv_sg_add_iter(s, &it);
}

/* Add the message: the kvecs from byte @skip on, then the payload. */
static int smbsrv_sg_add_msg(struct smbsrv_sg *s, const struct kvec *iov,
			     unsigned int nr_iov, size_t skip,
			     const struct iov_iter *payload)
{
	unsigned int i;
	int err;

	for (i = 0; i < nr_iov; i++) {
		size_t k = min(skip, iov[i].iov_len);

		skip -= k;
		err = smbsrv_sg_add_buf(s, iov[i].iov_base + k,
					iov[i].iov_len - k);
		if (err)
			return err;
	}
	if (payload) {
		struct iov_iter it = *payload;

		return smbsrv_sg_add_iter(s, &it);
	}
	return 0;
}

static void smbsrv_sg_done(struct smbsrv_sg *s)
{
	if (s->nents)
		sg_mark_end(&s->sg[s->nents - 1]);
}

/* Feed a payload to a hash, page by page. */
static int smbsrv_shash_payload(struct shash_desc *desc,
				const struct iov_iter *payload)
{
	struct scatterlist *sg;
	struct smbsrv_sg s;
	unsigned int i;
	int err;

	if (!payload || !iov_iter_count(payload))
		return 0;
	err = smbsrv_sg_init(&s, iov_iter_npages(payload, INT_MAX));
	if (err)
		return err;
	err = smbsrv_sg_add_msg(&s, NULL, 0, 0, payload);
	for_each_sg(s.sg, sg, s.nents, i) {
		size_t done = 0;

		while (!err && done < sg->length) {
			size_t off = sg->offset + done;
			size_t poff = offset_in_page(off);
			size_t n = min_t(size_t, sg->length - done,
					 PAGE_SIZE - poff);
			u8 *p = kmap_local_page(nth_page(sg_page(sg),
							 off >> PAGE_SHIFT));

			err = crypto_shash_update(desc, p + poff, n);
			kunmap_local(p);
			done += n;
		}
	}
	smbsrv_sg_free(&s);
	return err;
}

static int smbsrv_shash_msg(struct shash_desc *desc, const struct kvec *iov,
			    unsigned int nr_iov,
			    const struct iov_iter *payload)
{
	unsigned int i;
	int err;

	for (i = 0; i < nr_iov; i++) {
		err = crypto_shash_update(desc, iov[i].iov_base,
					  iov[i].iov_len);
		if (err)
			return err;
	}
	return smbsrv_shash_payload(desc, payload);
}

/* --- key derivation ------------------------------------------------------ */

/*
 * SP800-108 counter-mode KDF with HMAC-SHA256 as MS-SMB2 3.1.4.2 uses it:
 * out = HMAC(key, 1 || label || 0 || context || L) for L = out_len * 8
 * (out_len at most 32).  The label and context include their NULs.
 */
static int smbsrv_kdf(const u8 *key, u32 key_len, const void *label,
		      u32 label_len, const void *context, u32 context_len,
		      u8 *out, u32 out_len)
{
	static const u8 zero;
	__be32 bits = cpu_to_be32(out_len * 8);
	struct kvec info[] = {
		{ .iov_base = (void *)label, .iov_len = label_len },
		{ .iov_base = (void *)&zero, .iov_len = 1 },
		{ .iov_base = (void *)context, .iov_len = context_len },
		{ .iov_base = &bits, .iov_len = sizeof(bits) },
	};
	struct crypto_shash *hmac;
	int err;

	if (out_len > 32)
		return -EINVAL;
	hmac = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(hmac))
		return PTR_ERR(hmac);
	/*
	 * Not crypto_kdf108_setkey(): SP800-108 wants a key at least as
	 * long as the digest, SMB's are 16 bytes.
	 */
	err = crypto_shash_setkey(hmac, key, key_len);
	if (!err)
		err = crypto_kdf108_ctr_generate(hmac, info, ARRAY_SIZE(info),
						 out, out_len);
	crypto_free_shash(hmac);
	return err;
}

/* The KDF with a NUL-terminated label; MS-SMB2 counts the NUL in. */
static int smbsrv_kdf_label(const u8 *key, u32 key_len, const char *label,
			    const void *context, u32 context_len, u8 *out,
			    u32 out_len)
{
	return smbsrv_kdf(key, key_len, label, strlen(label) + 1, context,
			  context_len, out, out_len);
}

/* 3.0 and 3.0.2: the context is a NUL-terminated string too. */
static int smbsrv_kdf_30(const u8 *sk, const char *label, const char *context,
			 u8 *out)
{
	return smbsrv_kdf_label(sk, 16, label, context, strlen(context) + 1,
				out, 16);
}

int smbsrv_derive_keys(u16 dialect, u16 cipher, const u8 *session_key,
		       u32 session_key_len, const u8 *preauth_hash,
		       struct smbsrv_session_keys *keys)
{
	const u32 ctx_len = SMBSRV_PREAUTH_HASH_SIZE;
	const u8 *full = session_key;
	u32 full_len = session_key_len;
	u8 sk[16] = {};
	int err;

	memset(keys, 0, sizeof(*keys));
	/* Session.SessionKey: the first 16 bytes, zero-padded. */
	memcpy(sk, session_key, min_t(u32, session_key_len, sizeof(sk)));

	if (dialect < 0x0300) {
		memcpy(keys->signing, sk, sizeof(sk));
		err = 0;
		goto out;
	}

	keys->cipher_key_len = 16;
	if (dialect < 0x0311) {
		err = smbsrv_kdf_30(sk, "SMB2AESCMAC", "SmbSign",
				    keys->signing) ?:
		      smbsrv_kdf_30(sk, "SMB2APP", "SmbRpc",
				    keys->application) ?:
		      smbsrv_kdf_30(sk, "SMB2AESCCM", "ServerOut",
				    keys->encryption) ?:
		      smbsrv_kdf_30(sk, "SMB2AESCCM", "ServerIn ",
				    keys->decryption);
		goto out;
	}

	if (!preauth_hash) {
		err = -EINVAL;
		goto out;
	}
	/* AES-256 ciphers key from the full session key (3.3.5.5.3). */
	if (cipher == SMBSRV_CIPHER_AES256_CCM ||
	    cipher == SMBSRV_CIPHER_AES256_GCM) {
		keys->cipher_key_len = 32;
	} else {
		full = sk;
		full_len = 16;
	}
	err = smbsrv_kdf_label(sk, 16, "SMBSigningKey", preauth_hash, ctx_len,
			       keys->signing, 16) ?:
	      smbsrv_kdf_label(sk, 16, "SMBAppKey", preauth_hash, ctx_len,
			       keys->application, 16) ?:
	      smbsrv_kdf_label(full, full_len, "SMBS2CCipherKey",
			       preauth_hash, ctx_len, keys->encryption,
			       keys->cipher_key_len) ?:
	      smbsrv_kdf_label(full, full_len, "SMBC2SCipherKey",
			       preauth_hash, ctx_len, keys->decryption,
			       keys->cipher_key_len);
out:
	memzero_explicit(sk, sizeof(sk));
	if (err)
		memzero_explicit(keys, sizeof(*keys));
	return err;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_derive_keys, SMBSRV_TEST);

/* --- preauth integrity ---------------------------------------------------- */

int smbsrv_preauth_update(u8 preauth[SMBSRV_PREAUTH_HASH_SIZE],
			  const struct kvec *iov, unsigned int nr_iov,
			  const struct iov_iter *payload)
{
	SHASH_DESC_ON_STACK(desc, smbsrv_sha512);
	int err;

	desc->tfm = smbsrv_sha512;
	err = crypto_shash_init(desc) ?:
	      crypto_shash_update(desc, preauth, SMBSRV_PREAUTH_HASH_SIZE) ?:
	      smbsrv_shash_msg(desc, iov, nr_iov, payload) ?:
	      crypto_shash_final(desc, preauth);
	shash_desc_zero(desc);
	return err;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_preauth_update, SMBSRV_TEST);

/* --- signing ---------------------------------------------------------------- */

struct smbsrv_signer {
	enum smbsrv_sign_alg alg;
	struct crypto_shash *shash;	/* HMAC-SHA256, AES-CMAC */
	struct crypto_aead *aead;	/* AES-GMAC: GCM without plaintext */
};

struct smbsrv_signer *smbsrv_signer_alloc(enum smbsrv_sign_alg alg,
					  const u8 *key)
{
	struct smbsrv_signer *s;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->alg = alg;
	switch (alg) {
	case SMBSRV_SIGN_HMAC_SHA256:
	case SMBSRV_SIGN_AES_CMAC:
		s->shash = crypto_alloc_shash(alg == SMBSRV_SIGN_AES_CMAC ?
					      "cmac(aes)" : "hmac(sha256)",
					      0, 0);
		if (IS_ERR(s->shash)) {
			err = PTR_ERR(s->shash);
			s->shash = NULL;
			goto fail;
		}
		err = crypto_shash_setkey(s->shash, key, 16);
		break;
	case SMBSRV_SIGN_AES_GMAC:
		s->aead = crypto_alloc_aead("gcm(aes)", 0, 0);
		if (IS_ERR(s->aead)) {
			err = PTR_ERR(s->aead);
			s->aead = NULL;
			goto fail;
		}
		err = crypto_aead_setkey(s->aead, key, 16) ?:
		      crypto_aead_setauthsize(s->aead, SMBSRV_SIGNATURE_SIZE);
		break;
	default:
		err = -EINVAL;
	}
	if (!err)
		return s;
fail:
	smbsrv_signer_free(s);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_signer_alloc, SMBSRV_TEST);

void smbsrv_signer_free(struct smbsrv_signer *s)
{
	if (!s)
		return;
	crypto_free_shash(s->shash);
	crypto_free_aead(s->aead);
	kfree(s);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_signer_free, SMBSRV_TEST);

/*
 * One AEAD operation's memory: never on the stack, one allocation.  The
 * transform may be asynchronous (the AES-NI ones are, through cryptd when
 * the FPU is not usable): the request is waited for.
 */
struct smbsrv_aead_op {
	u8 iv[AEAD_IV_SIZE];
	u8 tag[SMBSRV_SIGNATURE_SIZE];
	u8 aad[TH_AAD_SIZE];		/* the destination's copy, out of place */
	struct crypto_wait wait;
	struct smbsrv_sg sg;
	struct smbsrv_sg dsg;		/* out of place: the destination */
	struct aead_request req;	/* followed by its context */
};

/* @dnents: entries of a separate destination list, 0 for in place. */
static struct smbsrv_aead_op *smbsrv_aead_op_alloc(struct crypto_aead *tfm,
						   unsigned int nents,
						   unsigned int dnents)
{
	struct smbsrv_aead_op *op;

	op = kzalloc(sizeof(*op) + crypto_aead_reqsize(tfm), GFP_KERNEL);
	if (!op)
		return NULL;
	if (smbsrv_sg_init(&op->sg, nents)) {
		kfree(op);
		return NULL;
	}
	if (smbsrv_sg_init(&op->dsg, dnents)) {
		smbsrv_sg_free(&op->sg);
		kfree(op);
		return NULL;
	}
	crypto_init_wait(&op->wait);
	aead_request_set_tfm(&op->req, tfm);
	aead_request_set_callback(&op->req, CRYPTO_TFM_REQ_MAY_BACKLOG |
				  CRYPTO_TFM_REQ_MAY_SLEEP,
				  crypto_req_done, &op->wait);
	return op;
}

static void smbsrv_aead_op_free(struct smbsrv_aead_op *op)
{
	smbsrv_sg_free(&op->sg);
	smbsrv_sg_free(&op->dsg);
	kfree_sensitive(op);
}

/* The 16-byte signature of a message whose signature field is zero. */
static int smbsrv_mac(struct smbsrv_signer *s, const struct kvec *iov,
		      unsigned int nr_iov, const struct iov_iter *payload,
		      u8 *mac)
{
	const u8 *hdr = iov[0].iov_base;
	struct smbsrv_aead_op *op;
	unsigned int i;
	size_t len;
	u32 role;
	int err;

	if (s->shash) {
		SHASH_DESC_ON_STACK(desc, s->shash);
		u8 out[HASH_MAX_DIGESTSIZE];

		desc->tfm = s->shash;
		err = crypto_shash_init(desc) ?:
		      smbsrv_shash_msg(desc, iov, nr_iov, payload) ?:
		      crypto_shash_final(desc, out);
		shash_desc_zero(desc);
		memcpy(mac, out, SMBSRV_SIGNATURE_SIZE);
		memzero_explicit(out, sizeof(out));
		return err;
	}

	/* AES-GMAC: the whole message is associated data. */
	op = smbsrv_aead_op_alloc(s->aead,
				  smbsrv_msg_npages(iov, nr_iov, 0, payload, 1),
				  0);
	if (!op)
		return -ENOMEM;
	memcpy(op->iv, hdr + SMB2_HDR_MESSAGE_ID, 8);
	role = get_unaligned_le32(hdr + SMB2_HDR_FLAGS) &
	       SMB2_FLAGS_SERVER_TO_REDIR ? 1 : 0;
	if (!role && get_unaligned_le16(hdr + SMB2_HDR_COMMAND) == SMB2_CANCEL)
		role |= 2;
	put_unaligned_le32(role, op->iv + 8);

	len = payload ? iov_iter_count(payload) : 0;
	for (i = 0; i < nr_iov; i++)
		len += iov[i].iov_len;
	err = smbsrv_sg_add_msg(&op->sg, iov, nr_iov, 0, payload) ?:
	      smbsrv_sg_add_buf(&op->sg, op->tag, sizeof(op->tag));
	if (!err) {
		smbsrv_sg_done(&op->sg);
		aead_request_set_ad(&op->req, len);
		aead_request_set_crypt(&op->req, op->sg.sg, op->sg.sg, 0,
				       op->iv);
		err = crypto_wait_req(crypto_aead_encrypt(&op->req),
				      &op->wait);
		memcpy(mac, op->tag, SMBSRV_SIGNATURE_SIZE);
	}
	smbsrv_aead_op_free(op);
	return err;
}

static bool smbsrv_has_header(const struct kvec *iov, unsigned int nr_iov)
{
	return nr_iov && iov[0].iov_len >= SMBSRV_SMB2_HEADER_SIZE;
}

int smbsrv_sign(struct smbsrv_signer *s, struct kvec *iov,
		unsigned int nr_iov, const struct iov_iter *payload)
{
	u8 *sig;
	u8 mac[SMBSRV_SIGNATURE_SIZE];
	int err;

	if (!smbsrv_has_header(iov, nr_iov))
		return -EINVAL;
	sig = iov[0].iov_base + SMBSRV_SIGNATURE_OFFSET;
	memset(sig, 0, SMBSRV_SIGNATURE_SIZE);
	err = smbsrv_mac(s, iov, nr_iov, payload, mac);
	if (!err)
		memcpy(sig, mac, SMBSRV_SIGNATURE_SIZE);
	return err;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_sign, SMBSRV_TEST);

int smbsrv_verify(struct smbsrv_signer *s, struct kvec *iov,
		  unsigned int nr_iov, const struct iov_iter *payload)
{
	u8 got[SMBSRV_SIGNATURE_SIZE], mac[SMBSRV_SIGNATURE_SIZE];
	u8 *sig;
	int err;

	if (!smbsrv_has_header(iov, nr_iov))
		return -EINVAL;
	sig = iov[0].iov_base + SMBSRV_SIGNATURE_OFFSET;
	memcpy(got, sig, sizeof(got));
	memset(sig, 0, SMBSRV_SIGNATURE_SIZE);
	err = smbsrv_mac(s, iov, nr_iov, payload, mac);
	memcpy(sig, got, sizeof(got));
	if (err)
		return err;
	return crypto_memneq(got, mac, sizeof(mac)) ? -EBADMSG : 0;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_verify, SMBSRV_TEST);

/* --- encryption --------------------------------------------------------------- */

struct smbsrv_cipher {
	struct crypto_aead *aead;
	bool ccm;
	u8 nonce_prefix[4];
	atomic64_t nonce_counter;
};

struct smbsrv_cipher *smbsrv_cipher_alloc(enum smbsrv_cipher_id id,
					  const u8 *key)
{
	struct smbsrv_cipher *c;
	unsigned int key_len;
	int err;

	switch (id) {
	case SMBSRV_CIPHER_AES128_CCM:
	case SMBSRV_CIPHER_AES128_GCM:
		key_len = 16;
		break;
	case SMBSRV_CIPHER_AES256_CCM:
	case SMBSRV_CIPHER_AES256_GCM:
		key_len = 32;
		break;
	default:
		return ERR_PTR(-EINVAL);
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->ccm = id == SMBSRV_CIPHER_AES128_CCM ||
		 id == SMBSRV_CIPHER_AES256_CCM;
	c->aead = crypto_alloc_aead(c->ccm ? "ccm(aes)" : "gcm(aes)", 0, 0);
	if (IS_ERR(c->aead)) {
		err = PTR_ERR(c->aead);
		kfree(c);
		return ERR_PTR(err);
	}
	err = crypto_aead_setkey(c->aead, key, key_len) ?:
	      crypto_aead_setauthsize(c->aead, SMBSRV_SIGNATURE_SIZE);
	if (err) {
		smbsrv_cipher_free(c);
		return ERR_PTR(err);
	}
	get_random_bytes(c->nonce_prefix, sizeof(c->nonce_prefix));
	atomic64_set(&c->nonce_counter, 0);
	return c;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_cipher_alloc, SMBSRV_TEST);

void smbsrv_cipher_free(struct smbsrv_cipher *c)
{
	if (!c)
		return;
	crypto_free_aead(c->aead);
	kfree(c);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_cipher_free, SMBSRV_TEST);

/*
 * AEAD over [AAD = header from Nonce on][message][signature], the
 * signature living in the header itself.  In place, or (@dst) from the
 * message into @dhead (if not NULL) and then @dst, which together have
 * room for exactly the message: the source is only read.
 */
static int smbsrv_crypt(struct smbsrv_cipher *c, struct kvec *iov,
			unsigned int nr_iov, const struct iov_iter *payload,
			const struct kvec *dhead, const struct iov_iter *dst,
			bool enc)
{
	unsigned int nonce_len = c->ccm ? CCM_NONCE_SIZE : GCM_NONCE_SIZE;
	struct smbsrv_aead_op *op;
	struct scatterlist *out;
	size_t len = 0;
	unsigned int i;
	u8 *th;
	int err;

	if (!nr_iov || iov[0].iov_len < SMBSRV_TRANSFORM_HEADER_SIZE)
		return -EINVAL;
	th = iov[0].iov_base;
	for (i = 0; i < nr_iov; i++)
		len += iov[i].iov_len;
	len += (payload ? iov_iter_count(payload) : 0) -
	       SMBSRV_TRANSFORM_HEADER_SIZE;
	if (!len || (dst && iov_iter_count(dst) +
			    (dhead ? dhead->iov_len : 0) != len))
		return -EINVAL;

	op = smbsrv_aead_op_alloc(c->aead,
				  smbsrv_msg_npages(iov, nr_iov,
						    SMBSRV_TRANSFORM_HEADER_SIZE,
						    payload, 4),
				  dst ? smbsrv_msg_npages(dhead, dhead ? 1 : 0,
							  0, dst, 3) : 0);
	if (!op)
		return -ENOMEM;
	if (c->ccm) {
		/* RFC 3610 flags: L - 1 with L = 15 - nonce length. */
		op->iv[0] = 15 - CCM_NONCE_SIZE - 1;
		memcpy(op->iv + 1, th + TH_NONCE, nonce_len);
	} else {
		memcpy(op->iv, th + TH_NONCE, nonce_len);
	}

	err = smbsrv_sg_add_buf(&op->sg, th + TH_AAD, TH_AAD_SIZE) ?:
	      smbsrv_sg_add_msg(&op->sg, iov, nr_iov,
				SMBSRV_TRANSFORM_HEADER_SIZE, payload);
	/* In place, or decrypting: the signature follows the message. */
	if (!err && (!dst || !enc))
		err = smbsrv_sg_add_buf(&op->sg, th + TH_SIGNATURE,
					SMBSRV_SIGNATURE_SIZE);
	out = op->sg.sg;
	if (!err && dst) {
		/*
		 * The destination starts with room for the AAD, which some
		 * implementations copy there: give them their own copy.
		 */
		memcpy(op->aad, th + TH_AAD, TH_AAD_SIZE);
		err = smbsrv_sg_add_buf(&op->dsg, op->aad, TH_AAD_SIZE) ?:
		      smbsrv_sg_add_msg(&op->dsg, dhead, dhead ? 1 : 0, 0,
					dst);
		/*
		 * Encryption writes the signature into the header; decryption
		 * reads it from the source and writes nothing there.
		 */
		if (!err && enc)
			err = smbsrv_sg_add_buf(&op->dsg, th + TH_SIGNATURE,
						SMBSRV_SIGNATURE_SIZE);
		smbsrv_sg_done(&op->dsg);
		out = op->dsg.sg;
	}
	if (!err) {
		smbsrv_sg_done(&op->sg);
		aead_request_set_ad(&op->req, TH_AAD_SIZE);
		aead_request_set_crypt(&op->req, op->sg.sg, out,
				       enc ? len : len + SMBSRV_SIGNATURE_SIZE,
				       op->iv);
		err = crypto_wait_req(enc ? crypto_aead_encrypt(&op->req) :
					    crypto_aead_decrypt(&op->req),
				      &op->wait);
	}
	smbsrv_aead_op_free(op);
	return err;
}

int smbsrv_encrypt_with_nonce(struct smbsrv_cipher *c, struct kvec *iov,
			      unsigned int nr_iov,
			      const struct iov_iter *payload,
			      const struct iov_iter *dst)
{
	return smbsrv_crypt(c, iov, nr_iov, payload, NULL, dst, true);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_encrypt_with_nonce, SMBSRV_TEST);

int smbsrv_encrypt_to(struct smbsrv_cipher *c, struct kvec *iov,
		      unsigned int nr_iov, const struct iov_iter *payload,
		      const struct iov_iter *dst)
{
	unsigned int prefix = c->ccm ? CCM_NONCE_SIZE - 8 : GCM_NONCE_SIZE - 8;
	u8 *nonce;

	if (!nr_iov || iov[0].iov_len < SMBSRV_TRANSFORM_HEADER_SIZE)
		return -EINVAL;
	/* Unique per key: a random prefix and a 64-bit counter. */
	nonce = (u8 *)iov[0].iov_base + TH_NONCE;
	memset(nonce, 0, 16);
	memcpy(nonce, c->nonce_prefix, prefix);
	put_unaligned_le64(atomic64_inc_return(&c->nonce_counter),
			   nonce + prefix);
	return smbsrv_crypt(c, iov, nr_iov, payload, NULL, dst, true);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_encrypt_to, SMBSRV_TEST);

int smbsrv_encrypt(struct smbsrv_cipher *c, struct kvec *iov,
		   unsigned int nr_iov, const struct iov_iter *payload)
{
	return smbsrv_encrypt_to(c, iov, nr_iov, payload, NULL);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_encrypt, SMBSRV_TEST);

int smbsrv_decrypt(struct smbsrv_cipher *c, struct kvec *iov,
		   unsigned int nr_iov, const struct iov_iter *payload)
{
	return smbsrv_crypt(c, iov, nr_iov, payload, NULL, NULL, false);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_decrypt, SMBSRV_TEST);

int smbsrv_decrypt_to(struct smbsrv_cipher *c, struct kvec *iov,
		      unsigned int nr_iov, const struct iov_iter *payload,
		      const struct kvec *dhead, const struct iov_iter *dst)
{
	return smbsrv_crypt(c, iov, nr_iov, payload, dhead, dst, false);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_decrypt_to, SMBSRV_TEST);
