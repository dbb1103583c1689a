// SPDX-License-Identifier: GPL-2.0
/*
 * Oplocks, leases and durable handles: their create contexts, the
 * OPLOCK_BREAK PDUs, and the grant/break/acknowledge rules (oplock.h).
 */
#include "compat.h"
#include "ntstatus.h"
#include "fscc.h"
#include "oplock.h"

/* RqLs (2.2.13.2.8, 2.2.13.2.10), offsets in the data. */
#define LEASE_KEY		0
#define LEASE_STATE		16
#define LEASE_FLAGS		20
#define LEASE_DURATION		24
#define LEASE_PARENT_KEY	32
#define LEASE_EPOCH		48

u32 smb2_lease_ctx_decode(const u8 *data, u32 len, struct smb2_lease_ctx *l)
{
	memset(l, 0, sizeof(*l));
	if (!data || (len != SMB2_LEASE_V1_SIZE && len != SMB2_LEASE_V2_SIZE))
		return STATUS_INVALID_PARAMETER;
	memcpy(l->key, data + LEASE_KEY, 16);
	l->state = get_unaligned_le32(data + LEASE_STATE);
	l->version = 1;
	if (len == SMB2_LEASE_V2_SIZE) {
		l->version = 2;
		l->flags = get_unaligned_le32(data + LEASE_FLAGS) &
			   SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET;
		if (l->flags)
			memcpy(l->parent_key, data + LEASE_PARENT_KEY, 16);
		l->epoch = get_unaligned_le16(data + LEASE_EPOCH);
	}
	return STATUS_SUCCESS;
}

u32 smb2_lease_ctx_encode(u8 *buf, const struct smb2_lease_ctx *l)
{
	u32 len = l->version == 2 ? SMB2_LEASE_V2_SIZE : SMB2_LEASE_V1_SIZE;

	memset(buf, 0, len);
	memcpy(buf + LEASE_KEY, l->key, 16);
	put_unaligned_le32(l->state, buf + LEASE_STATE);
	put_unaligned_le32(l->flags, buf + LEASE_FLAGS);
	if (l->version == 2) {
		if (l->flags & SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET)
			memcpy(buf + LEASE_PARENT_KEY, l->parent_key, 16);
		put_unaligned_le16(l->epoch, buf + LEASE_EPOCH);
	}
	return len;
}

u32 smb2_dhnq_decode(const u8 *data, u32 len)
{
	return data && len == SMB2_DHNQ_SIZE ? STATUS_SUCCESS :
					       STATUS_INVALID_PARAMETER;
}

u32 smb2_dh2q_decode(const u8 *data, u32 len, struct smb2_dh2q *q)
{
	memset(q, 0, sizeof(*q));
	if (!data || len != SMB2_DH2Q_SIZE)
		return STATUS_INVALID_PARAMETER;
	q->timeout = get_unaligned_le32(data);
	q->flags = get_unaligned_le32(data + 4);
	/* 8 reserved bytes */
	memcpy(q->create_guid, data + 16, 16);
	return STATUS_SUCCESS;
}

u32 smb2_dhnc_decode(const u8 *data, u32 len, struct smb2_dh_reconnect *r)
{
	memset(r, 0, sizeof(*r));
	if (!data || len != SMB2_DHNC_SIZE)
		return STATUS_INVALID_PARAMETER;
	r->persistent = get_unaligned_le64(data);
	r->volatile_id = get_unaligned_le64(data + 8);
	return STATUS_SUCCESS;
}

u32 smb2_dh2c_decode(const u8 *data, u32 len, struct smb2_dh_reconnect *r)
{
	memset(r, 0, sizeof(*r));
	if (!data || len != SMB2_DH2C_SIZE)
		return STATUS_INVALID_PARAMETER;
	r->persistent = get_unaligned_le64(data);
	r->volatile_id = get_unaligned_le64(data + 8);
	memcpy(r->create_guid, data + 16, 16);
	r->flags = get_unaligned_le32(data + 32);
	return STATUS_SUCCESS;
}

void smb2_dh2q_rsp_encode(u8 *buf, u32 timeout, u32 flags)
{
	put_unaligned_le32(timeout, buf);
	put_unaligned_le32(flags, buf + 4);
}

/* OPLOCK_BREAK bodies, offsets. */
#define BRK_LEVEL		2
#define BRK_FILE_ID		8
#define LBRK_FLAGS		4
#define LBRK_KEY		8
#define LBRK_STATE		24
#define LBRK_NOTE_EPOCH		2
#define LBRK_NOTE_FROM		24
#define LBRK_NOTE_TO		28

u32 smb2_break_ack_decode(const u8 *body, u32 body_len,
			  struct smb2_break_ack *a)
{
	u16 size;

	memset(a, 0, sizeof(*a));
	if (body_len < 2)
		return STATUS_INVALID_PARAMETER;
	size = get_unaligned_le16(body);
	if (size == SMB2_OPLOCK_BREAK_SIZE && body_len >= size) {
		a->oplock_level = body[BRK_LEVEL];
		a->persistent = get_unaligned_le64(body + BRK_FILE_ID);
		a->volatile_id = get_unaligned_le64(body + BRK_FILE_ID + 8);
		return STATUS_SUCCESS;
	}
	if (size == SMB2_LEASE_BREAK_ACK_SIZE && body_len >= size) {
		a->lease = true;
		a->flags = get_unaligned_le32(body + LBRK_FLAGS);
		memcpy(a->lease_key, body + LBRK_KEY, 16);
		a->lease_state = get_unaligned_le32(body + LBRK_STATE);
		return STATUS_SUCCESS;
	}
	return STATUS_INVALID_PARAMETER;
}

u32 smb2_oplock_break_encode(u8 *body, u8 level, u64 persistent,
			     u64 volatile_id)
{
	memset(body, 0, SMB2_OPLOCK_BREAK_SIZE);
	put_unaligned_le16(SMB2_OPLOCK_BREAK_SIZE, body);
	body[BRK_LEVEL] = level;
	put_unaligned_le64(persistent, body + BRK_FILE_ID);
	put_unaligned_le64(volatile_id, body + BRK_FILE_ID + 8);
	return SMB2_OPLOCK_BREAK_SIZE;
}

u32 smb2_lease_break_notify_encode(u8 *body, u16 epoch, u32 flags,
				   const u8 key[16], u32 from, u32 to)
{
	memset(body, 0, SMB2_LEASE_BREAK_NOTIFY_SIZE);
	put_unaligned_le16(SMB2_LEASE_BREAK_NOTIFY_SIZE, body);
	put_unaligned_le16(epoch, body + LBRK_NOTE_EPOCH);
	put_unaligned_le32(flags, body + LBRK_FLAGS);
	memcpy(body + LBRK_KEY, key, 16);
	put_unaligned_le32(from, body + LBRK_NOTE_FROM);
	put_unaligned_le32(to, body + LBRK_NOTE_TO);
	/* BreakReason, AccessMaskHint, ShareMaskHint: 0. */
	return SMB2_LEASE_BREAK_NOTIFY_SIZE;
}

u32 smb2_lease_break_rsp_encode(u8 *body, const u8 key[16], u32 state)
{
	memset(body, 0, SMB2_LEASE_BREAK_ACK_SIZE);
	put_unaligned_le16(SMB2_LEASE_BREAK_ACK_SIZE, body);
	memcpy(body + LBRK_KEY, key, 16);
	put_unaligned_le32(state, body + LBRK_STATE);
	return SMB2_LEASE_BREAK_ACK_SIZE;
}

void smb2_hdr_encode_notify(u8 *hdr)
{
	memset(hdr, 0, SMB2_HDR_SIZE);
	put_unaligned_le32(SMB2_PROTO_NUMBER, hdr + SMB2_HDR_PROTOCOL);
	put_unaligned_le16(SMB2_HDR_SIZE, hdr + SMB2_HDR_STRUCT_SIZE);
	put_unaligned_le16(SMB2_OPLOCK_BREAK, hdr + SMB2_HDR_COMMAND);
	put_unaligned_le32(SMB2_FLAGS_SERVER_TO_REDIR, hdr + SMB2_HDR_FLAGS);
	put_unaligned_le64(~0ULL, hdr + SMB2_HDR_MESSAGE_ID);
}

/* ---- the rules ---------------------------------------------------------- */

u32 smb2_oplock_to_lease(u8 level)
{
	switch (level) {
	case SMB2_OPLOCK_LEVEL_BATCH:
		return SMB2_LEASE_RWH;
	case SMB2_OPLOCK_LEVEL_EXCLUSIVE:
		return SMB2_LEASE_READ | SMB2_LEASE_WRITE;
	case SMB2_OPLOCK_LEVEL_II:
		return SMB2_LEASE_READ;
	default:
		return SMB2_LEASE_NONE;
	}
}

u8 smb2_lease_to_oplock(u32 state)
{
	switch (state & SMB2_LEASE_RWH) {
	case SMB2_LEASE_RWH:
		return SMB2_OPLOCK_LEVEL_BATCH;
	case SMB2_LEASE_READ | SMB2_LEASE_WRITE:
		return SMB2_OPLOCK_LEVEL_EXCLUSIVE;
	case SMB2_LEASE_READ | SMB2_LEASE_HANDLE:
	case SMB2_LEASE_READ:
		return SMB2_OPLOCK_LEVEL_II;
	default:
		return SMB2_OPLOCK_LEVEL_NONE;
	}
}

static bool smb2_only(u32 access, u32 bits)
{
	return (access & bits) && !(access & ~bits);
}

bool smb2_is_oplock_stat_open(u32 access)
{
	return smb2_only(access, SYNCHRONIZE | FILE_READ_ATTRIBUTES |
				 FILE_WRITE_ATTRIBUTES);
}

bool smb2_is_lease_stat_open(u32 access)
{
	return smb2_only(access, SYNCHRONIZE | FILE_READ_ATTRIBUTES |
				 FILE_WRITE_ATTRIBUTES | READ_CONTROL);
}

u32 smb_cache_grant(const struct smb_grant_in *in)
{
	const u32 R = SMB2_LEASE_READ, H = SMB2_LEASE_HANDLE,
		  W = SMB2_LEASE_WRITE;
	u32 g = in->requested & SMB2_LEASE_RWH;
	bool others = !in->stat_open;

	/* Valid lease states hold R (or are R/W); W alone, WH are not. */
	if (in->lease && (!(g & (R | W)) || g == W || g == (W | H)))
		g = 0;
	/* Directories: leases only, and no write caching. */
	if (in->dir)
		g = in->lease ? g & (R | H) : 0;
	if (in->brlocks)
		g &= ~R;
	if (others && in->other_open)
		g &= ~W;
	if ((g & R) && !(g & W) && !in->level2)
		g = 0;
	if (in->lease) {
		if (others && in->other_nonlease)
			g &= ~H;
		/* Without R what is left is no lease state. */
		if (!(g & R))
			g = 0;
	} else {
		if (others && in->other_handle)
			g = 0;
		g = smb2_oplock_to_lease(smb2_lease_to_oplock(g));
	}
	return g;
}

u32 smb_cache_open_break(u32 held, bool lease, bool violation,
			 bool overwrite, bool *wait)
{
	const u32 R = SMB2_LEASE_READ, H = SMB2_LEASE_HANDLE,
		  W = SMB2_LEASE_WRITE;
	u32 delay = violation ? H : W;
	u32 to = held & ~delay;

	*wait = false;
	if (overwrite)
		to &= ~(H | R);
	if (!(held & ~to))
		return held;
	/* Breaking anyway: straight to none of what a truncation spoils. */
	if (overwrite)
		to &= ~(R | W);
	/* Oplocks are broken to level II or none. */
	if (!lease)
		to &= ~(H | W);
	if (held & delay)
		*wait = true;
	return to;
}

static void smb_lease_note_set(struct smb_lease_note *n, u32 flags,
			       u32 from, u32 to, u16 epoch)
{
	n->send = true;
	n->flags = flags;
	n->from = from;
	n->to = to;
	n->epoch = epoch;
}

void smb_lease_sm_break(struct smb_lease_sm *l, u32 to,
			struct smb_lease_note *n)
{
	u32 from = l->state;

	n->send = false;
	to &= l->state;
	if (l->breaking) {
		/* Asked for less than before: required lowers, no notice. */
		l->to_required &= to;
		return;
	}
	if (l->state == to)
		return;
	l->epoch++;
	if (l->state == SMB2_LEASE_READ) {
		/* R to none needs no acknowledgment. */
		l->state = SMB2_LEASE_NONE;
		smb_lease_note_set(n, 0, from, SMB2_LEASE_NONE, l->epoch);
		return;
	}
	l->breaking = true;
	l->to_requested = to;
	l->to_required = to;
	smb_lease_note_set(n, SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED, from,
			   to, l->epoch);
}

u32 smb_lease_sm_ack(struct smb_lease_sm *l, u32 acked,
		     struct smb_lease_note *n)
{
	const u32 R = SMB2_LEASE_READ;
	const u32 WH = SMB2_LEASE_WRITE | SMB2_LEASE_HANDLE;

	n->send = false;
	if (!l->breaking)
		return STATUS_UNSUCCESSFUL;
	if ((acked & l->to_requested) != acked)
		return STATUS_REQUEST_NOT_ACCEPTED;
	l->state = acked;
	if (!(acked & ~l->to_required)) {
		l->breaking = false;
		l->to_requested = 0;
		l->to_required = 0;
		return STATUS_SUCCESS;
	}
	/* Still more than the waiters need: the next step at once. */
	l->to_requested = l->to_required;
	if (acked & WH) {
		l->to_requested |= R;
		smb_lease_note_set(n, SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED,
				   acked, l->to_requested, l->epoch);
		return STATUS_SUCCESS;
	}
	/* From R alone: to none without an acknowledgment. */
	smb_lease_note_set(n, 0, acked, l->to_requested, l->epoch);
	l->state = SMB2_LEASE_NONE;
	l->breaking = false;
	l->to_requested = 0;
	l->to_required = 0;
	return STATUS_SUCCESS;
}

bool smb_lease_sm_upgrade(struct smb_lease_sm *l, u32 requested, u32 granted)
{
	u32 existing = l->state;

	if ((existing & requested) != existing || granted == existing ||
	    granted != requested || l->breaking)
		return false;
	l->state = granted;
	l->epoch++;
	return true;
}

bool smb_oplock_sm_break(struct smb_oplock_sm *o, u32 to, u8 *level_out)
{
	u32 from = smb2_oplock_to_lease(o->level);
	u8 level = (to & SMB2_LEASE_READ) ? SMB2_OPLOCK_LEVEL_II :
					    SMB2_OPLOCK_LEVEL_NONE;

	if (o->breaking || !from || from == smb2_oplock_to_lease(level))
		return false;
	*level_out = level;
	if (from == SMB2_LEASE_READ) {
		/* Level II to none: no acknowledgment. */
		o->level = SMB2_OPLOCK_LEVEL_NONE;
		return true;
	}
	o->breaking = true;
	o->break_to = level;
	return true;
}

u32 smb_oplock_sm_ack(struct smb_oplock_sm *o, u8 acked)
{
	if (!o->breaking)
		return STATUS_INVALID_OPLOCK_PROTOCOL;
	if (acked != SMB2_OPLOCK_LEVEL_NONE && acked != SMB2_OPLOCK_LEVEL_II)
		return STATUS_INVALID_PARAMETER;
	o->level = o->break_to == SMB2_OPLOCK_LEVEL_NONE ||
		   acked == SMB2_OPLOCK_LEVEL_NONE ? SMB2_OPLOCK_LEVEL_NONE :
						     SMB2_OPLOCK_LEVEL_II;
	o->breaking = false;
	return STATUS_SUCCESS;
}
