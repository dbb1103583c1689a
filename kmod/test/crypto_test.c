// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: known-answer tests of crypto.c, the KUnit suite smbsrv_crypto
 * of the module smbsrv_crypto_test.  It calls the loaded smbsrv.ko (its
 * SMBSRV_TEST exports), so what is tested is the code that runs.
 *
 * Every vector of crypto_vectors.h is one result: the 3.1.1 preauth hash
 * after each message of a logon; the keys of 2.1, 3.0, 3.0.2 and 3.1.1
 * sessions; each signature (AES-CMAC, HMAC-SHA256, AES-GMAC) made,
 * verified, made and verified with the message's tail in a page, and
 * refused once tampered; each encrypted message (AES-128/256-CCM/GCM)
 * encrypted, decrypted, encrypted with its tail in a page, encrypted out
 * of place from a page into another one (an encrypted READ's path, the
 * source left as it was) and refused once tampered; then 64 KiB in 16
 * pages with the nonces smbsrv_encrypt() picks itself.
 */
#include <linux/bvec.h>
#include <linux/err.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "crypto.h"
#include "crypto_vectors.h"
#include "kunit-lite.h"

struct blob {
	const u8 *p;
	size_t n;
};

#define B(a) ((struct blob){ (a), sizeof(a) })
#define NONE ((struct blob){ NULL, 0 })

#define TH		SMBSRV_TRANSFORM_HEADER_SIZE
#define SIG_SIZE	SMBSRV_SIGNATURE_SIZE
#define PAGE_OFF	100	/* an odd offset in a page, to catch slips */

/* --- helpers ------------------------------------------------------------- */

KUNIT_DEFINE_ACTION_WRAPPER(free_page_action, __free_page, struct page *);
KUNIT_DEFINE_ACTION_WRAPPER(signer_free_action, smbsrv_signer_free,
			    struct smbsrv_signer *);
KUNIT_DEFINE_ACTION_WRAPPER(cipher_free_action, smbsrv_cipher_free,
			    struct smbsrv_cipher *);

/* A page freed when the test ends, or NULL. */
static struct page *test_page(struct kunit *test)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (page && kunit_add_action_or_reset(test, free_page_action, page))
		return NULL;
	return page;
}

/*
 * A copy of @b in kmalloc'd memory (crypto.c puts messages in
 * scatterlists: not the module's rodata), freed when the test ends.
 */
static u8 *test_dup(struct kunit *test, struct blob b)
{
	u8 *p = kunit_kmalloc(test, b.n, GFP_KERNEL);

	if (p)
		memcpy(p, b.p, b.n);
	return p;
}

/* @got is the @len bytes the hex string @hex spells. */
static void expect_hex(struct kunit *test, const u8 *got, size_t len,
		       const char *hex)
{
	u8 want[32];

	if (len > sizeof(want) || strlen(hex) != 2 * len ||
	    hex2bin(want, hex, len)) {
		KUNIT_FAIL(test, "%zu bytes are not the %zu of %s", len,
			   strlen(hex) / 2, hex);
		return;
	}
	KUNIT_EXPECT_MEMEQ(test, got, want, len);
}

/*
 * A message as a kvec of its first @head bytes and a page holding the
 * rest at an odd offset, as a READ response is sent.
 */
struct split {
	struct kvec kv;
	struct bio_vec bv;
	struct iov_iter it;
	struct page *page;
};

static int split_msg(struct kunit *test, struct split *s, u8 *buf,
		     size_t len, size_t head)
{
	if (len - head > PAGE_SIZE - PAGE_OFF)
		return -EINVAL;
	s->page = test_page(test);
	if (!s->page)
		return -ENOMEM;
	memcpy_to_page(s->page, PAGE_OFF, buf + head, len - head);
	s->kv.iov_base = buf;
	s->kv.iov_len = head;
	bvec_set_page(&s->bv, s->page, len - head, PAGE_OFF);
	iov_iter_bvec(&s->it, ITER_SOURCE, &s->bv, 1, len - head);
	return 0;
}

/* Copy a split message's page back behind its head. */
static void join_msg(struct split *s, u8 *buf, size_t len)
{
	memcpy_from_page(buf + s->kv.iov_len, s->page, PAGE_OFF,
			 len - s->kv.iov_len);
}

/* --- the preauth integrity hash ------------------------------------------ */

struct preauth_vec {
	const char *desc;
	struct blob msg, hash;	/* the hash after this message */
};

static const struct preauth_vec preauth_vecs[] = {
	{ "NEGOTIATE request", B(v_neg_req), B(h_neg_req) },
	{ "NEGOTIATE response", B(v_neg_resp), B(h_neg_resp) },
	{ "SESSION_SETUP request 1", B(v_ss_req1), B(h_ss_req1) },
	{ "SESSION_SETUP response 1", B(v_ss_resp1), B(h_ss_resp1) },
	{ "SESSION_SETUP request 2", B(v_ss_req2), B(h_ss_req2) },
};

KUNIT_ARRAY_PARAM_DESC(preauth, preauth_vecs, desc);

/*
 * The hash of the messages before this one, then this one hashed in, as
 * one kvec and again with all but its first 100 bytes in a page.
 */
static void preauth_chain(struct kunit *test)
{
	const struct preauth_vec *v = test->param_value;
	u8 hash[SMBSRV_PREAUTH_HASH_SIZE] = {};
	u8 split_hash[SMBSRV_PREAUTH_HASH_SIZE];
	const struct preauth_vec *p;
	struct split sp;
	struct kvec kv;
	u8 *msg;

	for (p = preauth_vecs; p <= v; p++) {
		msg = test_dup(test, p->msg);
		KUNIT_ASSERT_NOT_NULL(test, msg);
		if (p == v)
			memcpy(split_hash, hash, sizeof(hash));
		kv.iov_base = msg;
		kv.iov_len = p->msg.n;
		KUNIT_ASSERT_EQ(test, smbsrv_preauth_update(hash, &kv, 1, NULL),
				0);
	}
	KUNIT_EXPECT_EQ(test, v->hash.n, sizeof(hash));
	KUNIT_EXPECT_MEMEQ(test, hash, v->hash.p, sizeof(hash));

	KUNIT_ASSERT_EQ(test, split_msg(test, &sp, msg, v->msg.n, 100), 0);
	KUNIT_EXPECT_EQ(test, smbsrv_preauth_update(split_hash, &sp.kv, 1,
						    &sp.it), 0);
	KUNIT_EXPECT_MEMEQ(test, split_hash, v->hash.p, sizeof(hash));
}

/* --- key derivation -------------------------------------------------------- */

/*
 * The blogs name keys from the client's side: its EncryptionKey is the
 * server's decryption key and the other way round.  Cipher keys are
 * given as hex or, when 32 bytes long, as arrays.
 */
struct keys_vec {
	const char *desc;
	u16 dialect, cipher;
	const char *session_key;
	struct blob preauth;
	const char *signing, *app;
	const char *enc_hex, *dec_hex;
	struct blob enc, dec;
};

static const struct keys_vec keys_vecs[] = {
	{ "2.1 (the signing key is the session key)", 0x0210, 0,
	  "270e1ba896585eeb7af3472d3b4c75a7", NONE,
	  "270e1ba896585eeb7af3472d3b4c75a7" },
	{ "3.0 (anatomy blog, first channel)", 0x0300, 1,
	  "7cd451825d0450d235424e44ba6e78cc", NONE,
	  "0b7e9c5cac36c0f6ea9ab275298cedce",
	  "bb23a4575aa26c721af525af15a87b4f",
	  "b0f0427f7ceb416d1d9dcc0cd4f99447",
	  "fad27796665b313ebb578f388632b4f7" },
	{ "3.0 (anatomy blog, second channel)", 0x0300, 1,
	  "4e01a2b313bcf660cc250bef021aede6", NONE,
	  "ba1a17dbbfec349bca105563d598952f" },
	{ "3.0.2 (SMB 3.0 encryption blog)", 0x0302, 1,
	  "b4546771b515f766a86735532dd6c4f0", NONE,
	  "f773cd23c18fd1e08ee510cada7cf852",
	  "77432f808ce99156b5bc6a3676d730d1",
	  "8fe2b57ec34d2db5b1a9727f526bbdb5",
	  "261b72350558f2e9dcf613070383edbf" },
	{ "3.1.1 (anatomy blog)", 0x0311, 2,
	  "270e1ba896585eeb7af3472d3b4c75a7", B(h_ss_req2),
	  "73fe7a9a77bef0bde49c650d8ccb5f76",
	  "6d7ad7954e9ec61e907b4d473dc178ff",
	  "e2af0dcefac68da71a0dfbd0d1350d74",
	  "629bcbc54422a0f572b97f45989b6073" },
	{ "3.1.1 AES-128-GCM (encryption blog)", 0x0311, 2,
	  "419fddf34c1e001909d362ae7fb6af79", B(h_gcm_blog),
	  "8765949dfeaee105ce9118b45be988f0",
	  "099d610789fbe82055b313601c3e8cc4",
	  "748c50868c90f302962a5c35f5f9a8bf",
	  "a2f5e80e5d59103034f32e52f698e5ec" },
	{ "3.1.1 AES-128-CCM (encryption blog)", 0x0311, 1,
	  "07b7f69c1e2581662df6987e88f9e891", B(h_ccm_blog),
	  "3dcc82c5795ae27f383242761078c59b",
	  "7a2f0f73ec2d530879b2913bbfce242f",
	  "95c544aef6072680da1ce49a68a97fa6",
	  "dfaaa31aae40a2485d47ac4df09fda1d" },
	{ "3.1.1 AES-256-GCM (256-bit cipher keys)", 0x0311, 4,
	  "270e1ba896585eeb7af3472d3b4c75a7", B(h_ss_req2),
	  "73fe7a9a77bef0bde49c650d8ccb5f76",
	  "6d7ad7954e9ec61e907b4d473dc178ff", NULL, NULL,
	  B(k256_s2c), B(k256_c2s) },
};

KUNIT_ARRAY_PARAM_DESC(keys, keys_vecs, desc);

static void derive_keys(struct kunit *test)
{
	const struct keys_vec *v = test->param_value;
	struct smbsrv_session_keys k;
	u8 sk[16];

	KUNIT_ASSERT_EQ(test, hex2bin(sk, v->session_key, sizeof(sk)), 0);
	KUNIT_ASSERT_EQ(test, smbsrv_derive_keys(v->dialect, v->cipher, sk,
						 sizeof(sk), v->preauth.p, &k),
			0);
	expect_hex(test, k.signing, sizeof(k.signing), v->signing);
	if (v->app)
		expect_hex(test, k.application, sizeof(k.application), v->app);
	if (v->enc_hex)
		expect_hex(test, k.encryption, k.cipher_key_len, v->enc_hex);
	if (v->dec_hex)
		expect_hex(test, k.decryption, k.cipher_key_len, v->dec_hex);
	if (v->enc.p) {
		KUNIT_ASSERT_EQ(test, k.cipher_key_len, v->enc.n);
		KUNIT_EXPECT_MEMEQ(test, k.encryption, v->enc.p, v->enc.n);
	}
	if (v->dec.p) {
		KUNIT_ASSERT_EQ(test, k.cipher_key_len, v->dec.n);
		KUNIT_EXPECT_MEMEQ(test, k.decryption, v->dec.p, v->dec.n);
	}
	if (!v->cipher)
		KUNIT_EXPECT_EQ(test, k.cipher_key_len, 0);
}

/* --- signing -------------------------------------------------------------- */

struct sign_vec {
	const char *desc;
	enum smbsrv_sign_alg alg;
	const char *key;
	struct blob msg;
	const char *sig;	/* NULL: the message carries it */
};

static const struct sign_vec sign_vecs[] = {
	{ "AES-CMAC, SESSION_SETUP response (anatomy blog)",
	  SMBSRV_SIGN_AES_CMAC, "73fe7a9a77bef0bde49c650d8ccb5f76",
	  B(v_ss_resp2) },
	{ "AES-CMAC, SESSION_SETUP response (GCM blog)",
	  SMBSRV_SIGN_AES_CMAC, "8765949dfeaee105ce9118b45be988f0", B(v_ssg) },
	{ "AES-CMAC, SESSION_SETUP response (CCM blog)",
	  SMBSRV_SIGN_AES_CMAC, "3dcc82c5795ae27f383242761078c59b", B(v_ssc) },
	{ "HMAC-SHA256, a response",
	  SMBSRV_SIGN_HMAC_SHA256, "270e1ba896585eeb7af3472d3b4c75a7",
	  B(v_ss_resp2), "69f4b33f052c75b5f93906a96746a04e" },
	{ "AES-GMAC, a response (server bit in the nonce)",
	  SMBSRV_SIGN_AES_GMAC, "270e1ba896585eeb7af3472d3b4c75a7",
	  B(v_ss_resp2), "b6cfc9a32f6ef308b94a2abd25efe5ab" },
	{ "AES-GMAC, a CANCEL request (cancel bit in the nonce)",
	  SMBSRV_SIGN_AES_GMAC, "270e1ba896585eeb7af3472d3b4c75a7",
	  B(v_cancel), "193bbcfb2dfae91afcae562a4bb6e170" },
};

KUNIT_ARRAY_PARAM_DESC(sign, sign_vecs, desc);

/* A copy of the vector's message, its signer and the signature it has. */
struct signing {
	struct smbsrv_signer *s;
	u8 *msg, *sig;		/* sig: the message's signature field */
	size_t len;
	struct kvec kv;		/* the whole message */
	u8 want[SIG_SIZE];
};

static int signing_setup(struct kunit *test, struct signing *c)
{
	const struct sign_vec *v = test->param_value;
	u8 key[16];

	c->len = v->msg.n;
	c->msg = test_dup(test, v->msg);
	if (!c->msg)
		return -ENOMEM;
	c->sig = c->msg + SMBSRV_SIGNATURE_OFFSET;
	if (!v->sig)
		memcpy(c->want, c->sig, SIG_SIZE);
	else if (hex2bin(c->want, v->sig, SIG_SIZE))
		return -EINVAL;
	if (hex2bin(key, v->key, sizeof(key)))
		return -EINVAL;
	c->s = smbsrv_signer_alloc(v->alg, key);
	if (IS_ERR(c->s))
		return PTR_ERR(c->s);
	if (kunit_add_action_or_reset(test, signer_free_action, c->s))
		return -ENOMEM;
	c->kv.iov_base = c->msg;
	c->kv.iov_len = c->len;
	return 0;
}

/* Signing writes the signature over whatever the field held. */
static void sign_message(struct kunit *test)
{
	struct signing c;

	KUNIT_ASSERT_EQ(test, signing_setup(test, &c), 0);
	memset(c.sig, 0xa5, SIG_SIZE);
	KUNIT_EXPECT_EQ(test, smbsrv_sign(c.s, &c.kv, 1, NULL), 0);
	KUNIT_EXPECT_MEMEQ(test, c.sig, c.want, SIG_SIZE);
}

/* The signed message verifies, its header left as it came. */
static void verify_message(struct kunit *test)
{
	struct signing c;

	KUNIT_ASSERT_EQ(test, signing_setup(test, &c), 0);
	memcpy(c.sig, c.want, SIG_SIZE);
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &c.kv, 1, NULL), 0);
	KUNIT_EXPECT_MEMEQ(test, c.sig, c.want, SIG_SIZE);
}

/* All but the first 66 bytes in a page: signed and verified the same. */
static void sign_split_message(struct kunit *test)
{
	struct signing c;
	struct split sp;

	KUNIT_ASSERT_EQ(test, signing_setup(test, &c), 0);
	memset(c.sig, 0, SIG_SIZE);
	KUNIT_ASSERT_EQ(test, split_msg(test, &sp, c.msg, c.len, 66), 0);
	KUNIT_EXPECT_EQ(test, smbsrv_sign(c.s, &sp.kv, 1, &sp.it), 0);
	KUNIT_EXPECT_MEMEQ(test, c.sig, c.want, SIG_SIZE);
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &sp.kv, 1, &sp.it), 0);
}

static void free_pair(struct page *page)
{
	__free_pages(page, 1);
}

KUNIT_DEFINE_ACTION_WRAPPER(free_pair_action, free_pair, struct page *);

#define FRAG_HEAD	112	/* a WRITE's header and fixed part */
#define FRAG_DATA	6000	/* its data, across two pages */
#define FRAG_MAX	64

/*
 * A WRITE as the receiver holds it (rxpages.c): its first 112 bytes in a
 * buffer, its data in pieces of a compound page pair, one bio_vec each
 * (page and offset within it), one of them across the pages' boundary.
 * Signed whole in one buffer, it verifies in pieces; a byte changed in
 * a piece or in the head is refused.
 */
static void verify_fragmented_message(struct kunit *test)
{
	static const u16 sizes[] = { 1, 7, 1448, 2896, 13, 1024, 611 };
	struct bio_vec *bv;
	struct signing c;
	struct iov_iter it;
	struct page *pair;
	struct kvec kv;
	u8 *msg, *data;
	u32 off = PAGE_OFF, left = FRAG_DATA, n;
	unsigned int nr = 0;

	KUNIT_ASSERT_EQ(test, signing_setup(test, &c), 0);
	msg = kunit_kmalloc(test, FRAG_HEAD + FRAG_DATA, GFP_KERNEL);
	bv = kunit_kzalloc(test, FRAG_MAX * sizeof(*bv), GFP_KERNEL);
	pair = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, bv);
	KUNIT_ASSERT_NOT_NULL(test, pair);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_pair_action,
							pair), 0);
	get_random_bytes(msg, FRAG_HEAD + FRAG_DATA);
	/* An SMB2 header from the vector: GMAC's nonce comes from it. */
	memcpy(msg, c.msg, min_t(size_t, c.len, SMBSRV_SMB2_HEADER_SIZE));
	kv.iov_base = msg;
	kv.iov_len = FRAG_HEAD + FRAG_DATA;
	KUNIT_ASSERT_EQ(test, smbsrv_sign(c.s, &kv, 1, NULL), 0);

	data = page_address(pair);
	memcpy(data + PAGE_OFF, msg + FRAG_HEAD, FRAG_DATA);
	while (left && nr < FRAG_MAX) {
		n = min_t(u32, left, sizes[nr % ARRAY_SIZE(sizes)]);
		bvec_set_page(&bv[nr++], pair + (off >> PAGE_SHIFT), n,
			      off & ~PAGE_MASK);
		off += n;
		left -= n;
	}
	KUNIT_ASSERT_EQ(test, left, 0);
	/* The 2896-byte piece starts at 1556 and crosses into page 2. */
	KUNIT_ASSERT_TRUE(test, bv[3].bv_offset + bv[3].bv_len > PAGE_SIZE);
	kv.iov_len = FRAG_HEAD;
	iov_iter_bvec(&it, ITER_SOURCE, bv, nr, FRAG_DATA);
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &kv, 1, &it), 0);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it), FRAG_DATA);

	data[PAGE_SIZE + 5] ^= 0x20;		/* in page 2 */
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &kv, 1, &it), -EBADMSG);
	data[PAGE_SIZE + 5] ^= 0x20;
	data[PAGE_OFF + FRAG_DATA - 1] ^= 1;	/* the last byte */
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &kv, 1, &it), -EBADMSG);
	data[PAGE_OFF + FRAG_DATA - 1] ^= 1;
	msg[FRAG_HEAD - 1] ^= 1;		/* the head */
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &kv, 1, &it), -EBADMSG);
	msg[FRAG_HEAD - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &kv, 1, &it), 0);
}

/* One bit of the last byte flipped: refused. */
static void verify_tampered_message(struct kunit *test)
{
	struct signing c;

	KUNIT_ASSERT_EQ(test, signing_setup(test, &c), 0);
	memcpy(c.sig, c.want, SIG_SIZE);
	c.msg[c.len - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, smbsrv_verify(c.s, &c.kv, 1, NULL), -EBADMSG);
}

/* --- encryption ------------------------------------------------------------ */

struct enc_vec {
	const char *desc;
	enum smbsrv_cipher_id cipher;
	struct blob key, tm, pt;	/* transformed message, plaintext */
};

static const struct enc_vec enc_vecs[] = {
	{ "AES-128-GCM WRITE request", SMBSRV_CIPHER_AES128_GCM,
	  B(k_gcm_c2s), B(v_gcm_write_req_th), B(v_gcm_write_req_pt) },
	{ "AES-128-GCM WRITE response", SMBSRV_CIPHER_AES128_GCM,
	  B(k_gcm_s2c), B(v_gcm_write_resp_th), B(v_gcm_write_resp_pt) },
	{ "AES-128-GCM READ request", SMBSRV_CIPHER_AES128_GCM,
	  B(k_gcm_c2s), B(v_gcm_read_req_th), B(v_gcm_read_req_pt) },
	{ "AES-128-GCM READ response", SMBSRV_CIPHER_AES128_GCM,
	  B(k_gcm_s2c), B(v_gcm_read_resp_th), B(v_gcm_read_resp_pt) },
	{ "AES-128-CCM 3.1.1 WRITE request", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm311_c2s), B(v_ccm311_write_req_th),
	  B(v_ccm311_write_req_pt) },
	{ "AES-128-CCM 3.1.1 WRITE response", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm311_s2c), B(v_ccm311_write_resp_th),
	  B(v_ccm311_write_resp_pt) },
	{ "AES-128-CCM 3.1.1 READ request", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm311_c2s), B(v_ccm311_read_req_th),
	  B(v_ccm311_read_req_pt) },
	{ "AES-128-CCM 3.1.1 READ response", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm311_s2c), B(v_ccm311_read_resp_th),
	  B(v_ccm311_read_resp_pt) },
	{ "AES-128-CCM 3.0 WRITE request", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm30_c2s), B(v_ccm30_write_req_th), B(v_ccm30_write_req_pt) },
	{ "AES-128-CCM 3.0 WRITE response", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm30_s2c), B(v_ccm30_write_resp_th),
	  B(v_ccm30_write_resp_pt) },
	{ "AES-128-CCM 3.0 READ request", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm30_c2s), B(v_ccm30_read_req_th), B(v_ccm30_read_req_pt) },
	{ "AES-128-CCM 3.0 READ response", SMBSRV_CIPHER_AES128_CCM,
	  B(k_ccm30_s2c), B(v_ccm30_read_resp_th), B(v_ccm30_read_resp_pt) },
	{ "AES-256-GCM WRITE request", SMBSRV_CIPHER_AES256_GCM,
	  B(k_aes256), B(v_aes256_gcm_th), B(v_gcm_write_req_pt) },
	{ "AES-256-CCM WRITE request", SMBSRV_CIPHER_AES256_CCM,
	  B(k_aes256), B(v_aes256_ccm_th), B(v_gcm_write_req_pt) },
};

KUNIT_ARRAY_PARAM_DESC(enc, enc_vecs, desc);

/* The vector's cipher and a buffer the size of its transformed message. */
struct encryption {
	const struct enc_vec *v;
	struct smbsrv_cipher *c;
	u8 *buf;
	size_t tlen, plen;
	struct kvec kv[2];
};

static int encryption_setup(struct kunit *test, struct encryption *e)
{
	e->v = test->param_value;
	e->tlen = e->v->tm.n;
	e->plen = e->v->pt.n;
	if (e->tlen != e->plen + TH)
		return -EINVAL;
	e->buf = kunit_kmalloc(test, e->tlen, GFP_KERNEL);
	if (!e->buf)
		return -ENOMEM;
	e->c = smbsrv_cipher_alloc(e->v->cipher, e->v->key.p);
	if (IS_ERR(e->c))
		return PTR_ERR(e->c);
	return kunit_add_action_or_reset(test, cipher_free_action, e->c);
}

/*
 * The buffer as a sender fills it: the published header (its nonce) with
 * a zero signature, then the plaintext; kv[0] the header, kv[1] the
 * first @len bytes of the plaintext.
 */
static void encryption_plain(struct encryption *e, size_t len)
{
	memcpy(e->buf, e->v->tm.p, TH);
	memset(e->buf + 4, 0, SIG_SIZE);
	memcpy(e->buf + TH, e->v->pt.p, e->plen);
	e->kv[0].iov_base = e->buf;
	e->kv[0].iov_len = TH;
	e->kv[1].iov_base = e->buf + TH;
	e->kv[1].iov_len = len;
}

/* Under the published nonce: the published transformed message. */
static void encrypt_message(struct kunit *test)
{
	struct encryption e;

	KUNIT_ASSERT_EQ(test, encryption_setup(test, &e), 0);
	encryption_plain(&e, e.plen);
	KUNIT_EXPECT_EQ(test, smbsrv_encrypt_with_nonce(e.c, e.kv, 2, NULL,
							NULL), 0);
	KUNIT_EXPECT_MEMEQ(test, e.buf, e.v->tm.p, e.tlen);
}

/* The published message, as one received buffer, decrypts. */
static void decrypt_message(struct kunit *test)
{
	struct encryption e;

	KUNIT_ASSERT_EQ(test, encryption_setup(test, &e), 0);
	memcpy(e.buf, e.v->tm.p, e.tlen);
	e.kv[0].iov_base = e.buf;
	e.kv[0].iov_len = e.tlen;
	KUNIT_EXPECT_EQ(test, smbsrv_decrypt(e.c, e.kv, 1, NULL), 0);
	KUNIT_EXPECT_MEMEQ(test, e.buf + TH, e.v->pt.p, e.plen);
}

/* The header and 64 bytes in kvecs, the rest in a page: the same. */
static void encrypt_split_message(struct kunit *test)
{
	struct encryption e;
	struct split sp;

	KUNIT_ASSERT_EQ(test, encryption_setup(test, &e), 0);
	encryption_plain(&e, 64);
	KUNIT_ASSERT_EQ(test, split_msg(test, &sp, e.buf, e.tlen, TH + 64), 0);
	KUNIT_EXPECT_EQ(test, smbsrv_encrypt_with_nonce(e.c, e.kv, 2, &sp.it,
							NULL), 0);
	join_msg(&sp, e.buf, e.tlen);
	KUNIT_EXPECT_MEMEQ(test, e.buf, e.v->tm.p, e.tlen);
}

/*
 * An encrypted READ: the header and 64 bytes in kvecs, the rest in a
 * page (the page cache), the ciphertext written into another page.  The
 * header and ciphertext are the published ones, the plaintext is left
 * alone.
 */
static void encrypt_out_of_place(struct kunit *test)
{
	struct encryption e;
	struct iov_iter dit;
	struct bio_vec dbv;
	struct page *dpage;
	struct split sp;
	u8 *p;

	KUNIT_ASSERT_EQ(test, encryption_setup(test, &e), 0);
	KUNIT_ASSERT_TRUE(test, e.plen <= PAGE_SIZE - PAGE_OFF);
	dpage = test_page(test);
	KUNIT_ASSERT_NOT_NULL(test, dpage);
	encryption_plain(&e, 64);
	KUNIT_ASSERT_EQ(test, split_msg(test, &sp, e.buf, e.tlen, TH + 64), 0);
	bvec_set_page(&dbv, dpage, e.plen, PAGE_OFF);
	iov_iter_bvec(&dit, ITER_DEST, &dbv, 1, e.plen);
	KUNIT_EXPECT_EQ(test, smbsrv_encrypt_with_nonce(e.c, e.kv, 2, &sp.it,
							&dit), 0);
	KUNIT_EXPECT_MEMEQ(test, e.buf, e.v->tm.p, TH);
	p = kmap_local_page(dpage);
	KUNIT_EXPECT_MEMEQ(test, p + PAGE_OFF, e.v->tm.p + TH, e.plen);
	kunmap_local(p);
	join_msg(&sp, e.buf, e.tlen);
	KUNIT_EXPECT_MEMEQ(test, e.buf + TH, e.v->pt.p, e.plen);
}

/* One bit of the last byte flipped: refused. */
static void decrypt_tampered_message(struct kunit *test)
{
	struct encryption e;

	KUNIT_ASSERT_EQ(test, encryption_setup(test, &e), 0);
	memcpy(e.buf, e.v->tm.p, e.tlen);
	e.buf[e.tlen - 1] ^= 0x80;
	e.kv[0].iov_base = e.buf;
	e.kv[0].iov_len = e.tlen;
	KUNIT_EXPECT_EQ(test, smbsrv_decrypt(e.c, e.kv, 1, NULL), -EBADMSG);
}

/*
 * A sealed WRITE as the receiver holds it: the header and 64 bytes of
 * ciphertext in a buffer, the rest in a page (a socket buffer's), the
 * plaintext decrypted into another buffer (the head) and another page.
 * The ciphertext is left alone; with @flip, one bit of the ciphertext
 * in the page changed, it is refused.
 */
static void decrypt_to_case(struct kunit *test, bool flip)
{
	struct encryption e;
	struct iov_iter dit;
	struct bio_vec dbv;
	struct page *dpage;
	struct kvec dhead;
	struct split sp;
	u8 *p;

	KUNIT_ASSERT_EQ(test, encryption_setup(test, &e), 0);
	KUNIT_ASSERT_TRUE(test, e.plen > 64 &&
			  e.plen - 64 <= PAGE_SIZE - PAGE_OFF);
	dpage = test_page(test);
	KUNIT_ASSERT_NOT_NULL(test, dpage);
	dhead.iov_base = kunit_kzalloc(test, 64, GFP_KERNEL);
	dhead.iov_len = 64;
	KUNIT_ASSERT_NOT_NULL(test, dhead.iov_base);
	memcpy(e.buf, e.v->tm.p, e.tlen);
	if (flip)
		e.buf[e.tlen - 1] ^= 0x01;
	KUNIT_ASSERT_EQ(test, split_msg(test, &sp, e.buf, e.tlen, TH + 64), 0);
	bvec_set_page(&dbv, dpage, e.plen - 64, PAGE_OFF);
	iov_iter_bvec(&dit, ITER_DEST, &dbv, 1, e.plen - 64);
	KUNIT_EXPECT_EQ(test, smbsrv_decrypt_to(e.c, &sp.kv, 1, &sp.it,
						&dhead, &dit),
			flip ? -EBADMSG : 0);
	join_msg(&sp, e.buf, e.tlen);
	if (flip)
		e.buf[e.tlen - 1] ^= 0x01;
	KUNIT_EXPECT_MEMEQ(test, e.buf, e.v->tm.p, e.tlen);
	if (flip)
		return;
	KUNIT_EXPECT_MEMEQ(test, dhead.iov_base, e.v->pt.p, 64);
	p = kmap_local_page(dpage);
	KUNIT_EXPECT_MEMEQ(test, p + PAGE_OFF, e.v->pt.p + 64, e.plen - 64);
	kunmap_local(p);
}

static void decrypt_out_of_place(struct kunit *test)
{
	decrypt_to_case(test, false);
}

static void decrypt_out_of_place_tampered(struct kunit *test)
{
	decrypt_to_case(test, true);
}

/* --- the nonces smbsrv_encrypt() picks ------------------------------------ */

#define RT_PAGES	16

/* AES-256-GCM under a random key; a header; 64 KiB in 16 pages. */
struct roundtrip {
	struct smbsrv_cipher *c;
	struct kvec kv;			/* the TRANSFORM header */
	struct page *pages[RT_PAGES];	/* page i filled with i + 1 */
	struct bio_vec bv[RT_PAGES];
	struct iov_iter it;
};

static int roundtrip_setup(struct kunit *test, struct roundtrip *r)
{
	unsigned int i;
	u8 key[32];

	get_random_bytes(key, sizeof(key));
	r->c = smbsrv_cipher_alloc(SMBSRV_CIPHER_AES256_GCM, key);
	if (IS_ERR(r->c))
		return PTR_ERR(r->c);
	if (kunit_add_action_or_reset(test, cipher_free_action, r->c))
		return -ENOMEM;
	r->kv.iov_base = kunit_kzalloc(test, TH, GFP_KERNEL);
	r->kv.iov_len = TH;
	if (!r->kv.iov_base)
		return -ENOMEM;
	for (i = 0; i < RT_PAGES; i++) {
		r->pages[i] = test_page(test);
		if (!r->pages[i])
			return -ENOMEM;
		memset_page(r->pages[i], 0, i + 1, PAGE_SIZE);
		bvec_set_page(&r->bv[i], r->pages[i], PAGE_SIZE, 0);
	}
	iov_iter_bvec(&r->it, ITER_SOURCE, r->bv, RT_PAGES,
		      RT_PAGES * PAGE_SIZE);
	return 0;
}

/* Page i of @pages is filled with the byte i + 1. */
static bool pages_are(struct page **pages)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < RT_PAGES; i++) {
		u8 *p = kmap_local_page(pages[i]);

		ok = ok && !memchr_inv(p, i + 1, PAGE_SIZE);
		kunmap_local(p);
	}
	return ok;
}

static u8 *nonce_of(struct roundtrip *r)
{
	return (u8 *)r->kv.iov_base + 20;
}

/* Encrypted in place and decrypted: the pages as they were. */
static void roundtrip_64k_in_pages(struct kunit *test)
{
	struct roundtrip r;

	KUNIT_ASSERT_EQ(test, roundtrip_setup(test, &r), 0);
	KUNIT_ASSERT_EQ(test, smbsrv_encrypt(r.c, &r.kv, 1, &r.it), 0);
	KUNIT_EXPECT_TRUE(test, !pages_are(r.pages));
	KUNIT_ASSERT_EQ(test, smbsrv_decrypt(r.c, &r.kv, 1, &r.it), 0);
	KUNIT_EXPECT_TRUE(test, pages_are(r.pages));
}

/* The next message under the same key gets another nonce. */
static void fresh_nonce_per_message(struct kunit *test)
{
	u8 nonce[16], zero[16] = {};
	struct roundtrip r;

	KUNIT_ASSERT_EQ(test, roundtrip_setup(test, &r), 0);
	KUNIT_ASSERT_EQ(test, smbsrv_encrypt(r.c, &r.kv, 1, &r.it), 0);
	memcpy(nonce, nonce_of(&r), sizeof(nonce));
	KUNIT_EXPECT_TRUE(test, memcmp(nonce, zero, sizeof(nonce)));
	KUNIT_ASSERT_EQ(test, smbsrv_decrypt(r.c, &r.kv, 1, &r.it), 0);
	KUNIT_ASSERT_EQ(test, smbsrv_encrypt(r.c, &r.kv, 1, &r.it), 0);
	KUNIT_EXPECT_TRUE(test, memcmp(nonce, nonce_of(&r), sizeof(nonce)));
	KUNIT_EXPECT_EQ(test, smbsrv_decrypt(r.c, &r.kv, 1, &r.it), 0);
	KUNIT_EXPECT_TRUE(test, pages_are(r.pages));
}

/* Out of place into other pages: the source stays, the copy decrypts. */
static void out_of_place_64k_source_untouched(struct kunit *test)
{
	struct page *cpages[RT_PAGES];
	struct bio_vec cbv[RT_PAGES];
	struct iov_iter cit;
	struct roundtrip r;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, roundtrip_setup(test, &r), 0);
	for (i = 0; i < RT_PAGES; i++) {
		cpages[i] = test_page(test);
		KUNIT_ASSERT_NOT_NULL(test, cpages[i]);
		bvec_set_page(&cbv[i], cpages[i], PAGE_SIZE, 0);
	}
	iov_iter_bvec(&cit, ITER_DEST, cbv, RT_PAGES, RT_PAGES * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, smbsrv_encrypt_to(r.c, &r.kv, 1, &r.it, &cit),
			0);
	KUNIT_EXPECT_TRUE(test, pages_are(r.pages));
	iov_iter_bvec(&cit, ITER_SOURCE, cbv, RT_PAGES, RT_PAGES * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, smbsrv_decrypt(r.c, &r.kv, 1, &cit), 0);
	KUNIT_EXPECT_TRUE(test, pages_are(cpages));
}

static struct kunit_case smbsrv_crypto_cases[] = {
	KUNIT_CASE_PARAM(preauth_chain, preauth_gen_params),
	KUNIT_CASE_PARAM(derive_keys, keys_gen_params),
	KUNIT_CASE_PARAM(sign_message, sign_gen_params),
	KUNIT_CASE_PARAM(verify_message, sign_gen_params),
	KUNIT_CASE_PARAM(sign_split_message, sign_gen_params),
	KUNIT_CASE_PARAM(verify_tampered_message, sign_gen_params),
	KUNIT_CASE_PARAM(verify_fragmented_message, sign_gen_params),
	KUNIT_CASE_PARAM(encrypt_message, enc_gen_params),
	KUNIT_CASE_PARAM(decrypt_message, enc_gen_params),
	KUNIT_CASE_PARAM(encrypt_split_message, enc_gen_params),
	KUNIT_CASE_PARAM(encrypt_out_of_place, enc_gen_params),
	KUNIT_CASE_PARAM(decrypt_tampered_message, enc_gen_params),
	KUNIT_CASE_PARAM(decrypt_out_of_place, enc_gen_params),
	KUNIT_CASE_PARAM(decrypt_out_of_place_tampered, enc_gen_params),
	KUNIT_CASE(roundtrip_64k_in_pages),
	KUNIT_CASE(fresh_nonce_per_message),
	KUNIT_CASE(out_of_place_64k_source_untouched),
	{}
};

static struct kunit_suite smbsrv_crypto_suite = {
	.name = "smbsrv_crypto",
	.test_cases = smbsrv_crypto_cases,
};

kunit_test_suite(smbsrv_crypto_suite);

MODULE_IMPORT_NS(SMBSRV_TEST);
MODULE_DESCRIPTION("smbsrv: known-answer tests of its crypto");
MODULE_LICENSE("GPL");
