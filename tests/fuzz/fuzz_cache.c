// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: client caching on the wire (kmod/wire/oplock.c) the
 * way the module runs it: a CREATE's lease and durable handle contexts,
 * an OPLOCK_BREAK acknowledgment of either kind, and the grant, break
 * and acknowledge rules driven by the bytes (a lease and an oplock taken
 * through a sequence of breaks, acks and upgrades, checking that a
 * lease never caches more than it was granted).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "create.h"
#include "ntstatus.h"
#include "oplock.h"
#include "pdu.h"

static void create(const u8 *pdu, u32 len)
{
	struct smb2_create_req r;
	struct smb2_lease_ctx l;
	struct smb2_dh2q q;
	struct smb2_dh_reconnect rc;
	u8 out[SMB2_LEASE_V2_SIZE];
	const struct smb2_create_ctx *x;

	if (smb2_create_req_decode(pdu, len, &r))
		return;
	x = &r.ctx[SMB2_CTX_REQUEST_LEASE];
	if (smb2_create_has(&r, SMB2_CTX_REQUEST_LEASE) &&
	    !smb2_lease_ctx_decode(x->data, x->data_len, &l))
		smb2_lease_ctx_encode(out, &l);
	x = &r.ctx[SMB2_CTX_DURABLE_REQ];
	if (smb2_create_has(&r, SMB2_CTX_DURABLE_REQ))
		smb2_dhnq_decode(x->data, x->data_len);
	x = &r.ctx[SMB2_CTX_DURABLE_REQ_V2];
	if (smb2_create_has(&r, SMB2_CTX_DURABLE_REQ_V2))
		smb2_dh2q_decode(x->data, x->data_len, &q);
	x = &r.ctx[SMB2_CTX_DURABLE_RECONNECT];
	if (smb2_create_has(&r, SMB2_CTX_DURABLE_RECONNECT))
		smb2_dhnc_decode(x->data, x->data_len, &rc);
	x = &r.ctx[SMB2_CTX_DURABLE_RECONNECT_V2];
	if (smb2_create_has(&r, SMB2_CTX_DURABLE_RECONNECT_V2))
		smb2_dh2c_decode(x->data, x->data_len, &rc);
}

/* The rules, driven by the bytes: two bytes a step. */
static void rules(const u8 *data, u32 size)
{
	struct smb_lease_sm l = { .state = SMB2_LEASE_RWH };
	struct smb_oplock_sm o = { .level = SMB2_OPLOCK_LEVEL_BATCH };
	struct smb_lease_note n;
	struct smb_grant_in g;
	u32 i, granted = SMB2_LEASE_RWH, held;
	bool wait;
	u8 level;

	for (i = 0; i + 1 < size && i < 512; i += 2) {
		u32 v = data[i + 1] & SMB2_LEASE_RWH;

		switch (data[i] & 7) {
		case 0:
			smb_lease_sm_break(&l, v, &n);
			break;
		case 1:
			smb_lease_sm_ack(&l, v, &n);
			break;
		case 2:
			if (smb_lease_sm_upgrade(&l, v, v))
				granted = v;
			break;
		case 3:
			smb_oplock_sm_break(&o, v, &level);
			break;
		case 4:
			smb_oplock_sm_ack(&o, data[i + 1]);
			break;
		case 5:
			memset(&g, 0, sizeof(g));
			g.requested = v;
			g.lease = data[i + 1] & 8;
			g.dir = data[i + 1] & 16;
			g.other_open = data[i + 1] & 32;
			g.other_nonlease = data[i + 1] & 64;
			g.other_handle = data[i + 1] & 128;
			g.level2 = data[i] & 8;
			g.brlocks = data[i] & 16;
			if (smb_cache_grant(&g) & ~v)
				abort();	/* never more than asked */
			break;
		default:
			held = v;
			if (smb_cache_open_break(held, data[i] & 8, data[i] & 16,
						 data[i] & 32, &wait) & ~held)
				abort();	/* a break never adds */
			break;
		}
		/* A lease caches at most what it was granted. */
		if (l.state & ~granted)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_break_ack a;
	struct smb2_hdr h;
	u8 *buf;
	int n;

	/* A copy of exactly the input, so overreads are caught. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	rules(buf, (u32)size);
	n = smb2_hdr_decode(buf, (u32)size, &h);
	if (n > 0) {
		switch (h.command) {
		case SMB2_CREATE:
			create(buf, (u32)n);
			break;
		case SMB2_OPLOCK_BREAK:
			if ((u32)n >= SMB2_HDR_SIZE)
				smb2_break_ack_decode(buf + SMB2_HDR_SIZE,
						      (u32)n - SMB2_HDR_SIZE, &a);
			break;
		default:
			break;
		}
	}
	free(buf);
	return 0;
}
