// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: cluster mode's records (kmod/wire/cluster.c), which
 * smbsrvd reads from the state store, written by other nodes.  The input
 * is an omap key, a NUL, then a value.  A key that splits has its parts
 * inside it; a value that decodes encodes back to its first 12 bytes, and
 * an aggregate with it conflicts with a new open exactly when one open
 * with its access and share would.  The whole input is also a lock list
 * (a `b.` value) and a push (a notify's payload): one that decodes
 * encodes back to itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

static void fuzz_locks(const uint8_t *data, size_t size)
{
	struct smb_cluster_push p;
	struct smb_cluster_lock l;
	int n = smb_cluster_locks_check(data, size);
	uint8_t *out;
	int i;

	for (i = 0; i < n; i++) {
		smb_cluster_lock_get(data, (size_t)i, &l);
		/* Every entry conflicts with a write over its first byte. */
		if (l.length && !smb_cluster_locks_conflict(data, (size_t)n,
							    l.offset, 1, true,
							    false))
			abort();
	}
	if (smb_cluster_push_decode(data, size, &p))
		return;
	if (smb_cluster_push_len(&p) != size)
		abort();
	out = malloc(size);
	if (!out)
		return;
	smb_cluster_push_encode(&p, out);
	if (memcmp(out, data, size))
		abort();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t klen = nul ? (size_t)(nul - data) : size;
	const uint8_t *val = nul ? nul + 1 : data + size;
	size_t vlen = size - (size_t)(val - data);
	size_t nl, so, sl;
	struct smb_cluster_agg a, b;
	u8 out[SMB_CLUSTER_REC_LEN];

	if (smb_cluster_okey_split((const char *)data, klen, &nl, &so, &sl) == 0) {
		if (nl == 0 || 2 + nl >= klen || so + sl != klen ||
		    memchr(data + 2, '.', nl))
			abort();
	}
	if (smb_cluster_rec_decode(val, vlen, &a) == 0) {
		smb_cluster_rec_encode(&a, out);
		/* A 12-byte value (no caching) encodes with caching 0. */
		if (memcmp(out, val, vlen < SMB_CLUSTER_REC_LEN ?
			   SMB_CLUSTER_REC_MIN : SMB_CLUSTER_REC_LEN) ||
		    (vlen < SMB_CLUSTER_REC_LEN && a.caching))
			abort();
		if (a.caching & ~SMB_CLUSTER_CACHING)
			abort();
		/* What another node's open takes is what the holder has. */
		if (smb_cluster_break_bits(a.caching, a.access, true) &
		    ~a.caching)
			abort();
		smb_cluster_agg_init(&b);
		smb_cluster_agg_add(&b, a.access, a.share);
		if (vlen >= SMB_CLUSTER_REC_LEN + 8) {
			u32 acc = get_unaligned_le32(val + SMB_CLUSTER_REC_LEN);
			u32 sh = get_unaligned_le32(val + SMB_CLUSTER_REC_LEN + 4);

			if (smb_share_conflict(acc, sh, b.access, b.share) !=
			    smb_share_conflict(acc, sh, a.access, a.share))
				abort();
		}
	}
	fuzz_locks(data, size);
	return 0;
}
