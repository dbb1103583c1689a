/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Client caching on the wire and its rules: oplock levels and lease
 * states (MS-SMB2 2.2.13, 2.2.13.2.8, 2.2.13.2.10), the durable handle
 * create contexts (2.2.13.2.3-4, 2.2.13.2.11-12, 2.2.14.2.3-4, 2.2.14.2.12),
 * OPLOCK_BREAK notifications, acknowledgments and responses (2.2.23-25);
 * and, as plain functions over integers, what is granted to an open and
 * how a holder's caching is broken and acknowledged (Documentation/
 * design.md, "Client caching"), so the state machine is unit-tested.
 */
#ifndef _SMBSRV_WIRE_OPLOCK_H
#define _SMBSRV_WIRE_OPLOCK_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RequestedOplockLevel / OplockLevel. */
#define SMB2_OPLOCK_LEVEL_NONE		0x00
#define SMB2_OPLOCK_LEVEL_II		0x01
#define SMB2_OPLOCK_LEVEL_EXCLUSIVE	0x08
#define SMB2_OPLOCK_LEVEL_BATCH		0x09
#define SMB2_OPLOCK_LEVEL_LEASE		0xff

/* Lease states. */
#define SMB2_LEASE_NONE			0x00
#define SMB2_LEASE_READ			0x01
#define SMB2_LEASE_HANDLE		0x02
#define SMB2_LEASE_WRITE		0x04
#define SMB2_LEASE_RWH			0x07

/* Lease flags (RqLs), and the lease break notification's. */
#define SMB2_LEASE_FLAG_BREAK_IN_PROGRESS	0x02
#define SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET	0x04
#define SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED 0x01

/* Create context data sizes. */
#define SMB2_LEASE_V1_SIZE		32
#define SMB2_LEASE_V2_SIZE		52
#define SMB2_DHNQ_SIZE			16	/* DurableRequest: reserved */
#define SMB2_DHNC_SIZE			16	/* the FileId */
#define SMB2_DH2Q_SIZE			32
#define SMB2_DH2C_SIZE			36
#define SMB2_DHNQ_RSP_SIZE		8
#define SMB2_DH2Q_RSP_SIZE		8

/* DH2Q/DH2C Flags. */
#define SMB2_DHANDLE_FLAG_PERSISTENT	0x00000002

/* OPLOCK_BREAK bodies: StructureSize tells oplock from lease. */
#define SMB2_OPLOCK_BREAK_SIZE		24	/* notify, ack, response */
#define SMB2_LEASE_BREAK_ACK_SIZE	36	/* ack and response */
#define SMB2_LEASE_BREAK_NOTIFY_SIZE	44

/* The RqLs context, either version. */
struct smb2_lease_ctx {
	u8 key[16];
	u32 state;
	u32 flags;
	u8 parent_key[16];	/* v2, with PARENT_LEASE_KEY_SET */
	u16 epoch;		/* v2 */
	u8 version;		/* 1 or 2 */
};

/*
 * Decode RqLs data: 32 bytes are a v1 lease, 52 a v2 one (its flags
 * keep only PARENT_LEASE_KEY_SET, as a server must read them); anything
 * else is STATUS_INVALID_PARAMETER.  Returns STATUS_SUCCESS.
 */
u32 smb2_lease_ctx_decode(const u8 *data, u32 len, struct smb2_lease_ctx *l);

/* Encode a response RqLs of @l's version at @buf; returns its size. */
u32 smb2_lease_ctx_encode(u8 *buf, const struct smb2_lease_ctx *l);

/* DH2Q (durable v2 request). */
struct smb2_dh2q {
	u32 timeout;		/* milliseconds, 0: the server's choice */
	u32 flags;
	u8 create_guid[16];
};

/* DHnC and DH2C (reconnects). */
struct smb2_dh_reconnect {
	u64 persistent;
	u64 volatile_id;
	u8 create_guid[16];	/* v2 */
	u32 flags;		/* v2 */
};

/* Each STATUS_SUCCESS, or STATUS_INVALID_PARAMETER on a wrong size. */
u32 smb2_dhnq_decode(const u8 *data, u32 len);
u32 smb2_dh2q_decode(const u8 *data, u32 len, struct smb2_dh2q *q);
u32 smb2_dhnc_decode(const u8 *data, u32 len, struct smb2_dh_reconnect *r);
u32 smb2_dh2c_decode(const u8 *data, u32 len, struct smb2_dh_reconnect *r);

/* DH2Q response data (8 bytes) at @buf. */
void smb2_dh2q_rsp_encode(u8 *buf, u32 timeout, u32 flags);

/* An OPLOCK_BREAK acknowledgment from a client. */
struct smb2_break_ack {
	bool lease;
	u8 oplock_level;	/* oplock */
	u64 persistent;		/* oplock */
	u64 volatile_id;
	u8 lease_key[16];	/* lease */
	u32 lease_state;
	u32 flags;
};

/*
 * Decode the body of an OPLOCK_BREAK request (@body_len bytes): an
 * oplock acknowledgment (StructureSize 24) or a lease one (36).
 * Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smb2_break_ack_decode(const u8 *body, u32 body_len,
			  struct smb2_break_ack *a);

/*
 * Bodies the server sends, each returning its size: the oplock break
 * notification and response (same layout), the lease break notification
 * and the lease break response.  @body has room for them.
 */
u32 smb2_oplock_break_encode(u8 *body, u8 level, u64 persistent,
			     u64 volatile_id);
u32 smb2_lease_break_notify_encode(u8 *body, u16 epoch, u32 flags,
				   const u8 key[16], u32 from, u32 to);
u32 smb2_lease_break_rsp_encode(u8 *body, const u8 key[16], u32 state);

/*
 * The header of an unsolicited notification (3.3.4.6-7): OPLOCK_BREAK,
 * MessageId all ones, no session, tree or credits, SERVER_TO_REDIR.
 */
void smb2_hdr_encode_notify(u8 *hdr);

/* ---- the rules ---------------------------------------------------------- */

/* An oplock level as lease bits (BATCH = RWH, EXCLUSIVE = RW, II = R). */
u32 smb2_oplock_to_lease(u8 level);
/* The oplock a lease-bits grant is (RWH batch, RW exclusive, R(H) II). */
u8 smb2_lease_to_oplock(u32 state);

/*
 * Opens with no access but these do not break oplocks (READ_CONTROL
 * added: nor leases), as Windows and Samba treat "stat" opens.
 */
bool smb2_is_oplock_stat_open(u32 access);
bool smb2_is_lease_stat_open(u32 access);

/* What the other opens of a file say about a grant. */
struct smb_grant_in {
	u32 requested;		/* lease bits asked for (oplock mapped) */
	bool lease;		/* asked as a lease */
	bool dir;		/* a directory */
	bool stat_open;		/* smb2_is_oplock_stat_open(access) */
	bool other_open;	/* an open not sharing the lease */
	bool other_nonlease;	/* ... holding no lease (oplock or none) */
	bool other_handle;	/* ... caching handles */
	bool brlocks;		/* the file has byte-range locks */
	bool level2;		/* shared read caching allowed */
};

/* The lease bits granted (0: none); an oplock maps them back. */
u32 smb_cache_grant(const struct smb_grant_in *in);

/*
 * A holder caching @held (lease bits; @lease: a lease, else an oplock)
 * meets a new open: the bits it is broken to (== @held: no break), and
 * in *wait whether the opener must wait for the holder first.
 * @violation: the open is a sharing violation (handle caching goes);
 * @overwrite: it overwrites (read caching goes too).
 */
u32 smb_cache_open_break(u32 held, bool lease, bool violation,
			 bool overwrite, bool *wait);

/* A lease's break state (per lease, under its file's lock). */
struct smb_lease_sm {
	u32 state;		/* what the client caches now */
	bool breaking;		/* a notification awaits its ack */
	u32 to_requested;	/* what that notification offered */
	u32 to_required;	/* what the waiting opens need */
	u16 epoch;
};

/* A notification to send after a state change. */
struct smb_lease_note {
	bool send;
	u32 flags;		/* ACK_REQUIRED or 0 */
	u32 from, to;
	u16 epoch;
};

/*
 * Break @l to at most @to (3.3.4.7): a lease already breaking only
 * lowers what is required (no new notification); from R alone it goes to
 * none at once (notified, no ack); otherwise it starts breaking.
 */
void smb_lease_sm_break(struct smb_lease_sm *l, u32 to,
			struct smb_lease_note *n);

/*
 * The client acknowledged @acked (3.3.5.22.2).  STATUS_UNSUCCESSFUL when
 * not breaking, STATUS_REQUEST_NOT_ACCEPTED when @acked is not within
 * what was offered; otherwise STATUS_SUCCESS, the state taken, and in *n
 * the next step when that is still more than required (as Windows does:
 * to what is required, keeping R while W or H remains).  A timeout is an
 * acknowledgment of none.
 */
u32 smb_lease_sm_ack(struct smb_lease_sm *l, u32 acked,
		     struct smb_lease_note *n);

/*
 * An open asks @requested for a lease it already holds and @granted is
 * what the rules allow: upgraded (epoch + 1) only to a strict superset,
 * all of it allowed, not while breaking.  Returns whether it changed.
 */
bool smb_lease_sm_upgrade(struct smb_lease_sm *l, u32 requested, u32 granted);

/* An oplock's break state (per open). */
struct smb_oplock_sm {
	u8 level;		/* SMB2_OPLOCK_LEVEL_* */
	bool breaking;
	u8 break_to;		/* II or NONE: what the notification allows */
};

/*
 * Break to at most lease bits @to: *level_out is the notification's
 * level when one is sent (returns true).  From level II the oplock ends
 * at once (no acknowledgment); an oplock already breaking is left.
 */
bool smb_oplock_sm_break(struct smb_oplock_sm *o, u32 to, u8 *level_out);

/*
 * The client acknowledged @acked: STATUS_INVALID_OPLOCK_PROTOCOL when no
 * break is in progress, STATUS_INVALID_PARAMETER for a level other than
 * II or none; otherwise the new level (none when the break was to none).
 */
u32 smb_oplock_sm_ack(struct smb_oplock_sm *o, u8 acked);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_OPLOCK_H */
