/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMB2 framing and headers: decoding what a client sent, encoding the
 * headers of what the server answers.
 */
#ifndef _SMBSRV_WIRE_PDU_H
#define _SMBSRV_WIRE_PDU_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the 4-byte transport header of a frame says. */
enum smb2_frame_kind {
	SMB2_FRAME_MESSAGE,	/* a message of *len bytes follows */
	SMB2_FRAME_KEEPALIVE,	/* NetBIOS keep-alive, nothing follows */
	SMB2_FRAME_BAD,		/* not a transport header: drop the stream */
};

enum smb2_frame_kind smb2_frame_decode(const u8 hdr[SMB2_FRAME_HDR_SIZE],
				       u32 *len);
void smb2_frame_encode(u8 hdr[SMB2_FRAME_HDR_SIZE], u32 len);

/* A decoded SMB2 header (2.2.1). */
struct smb2_hdr {
	u16 credit_charge;
	u32 status;
	u16 command;
	u16 credits;
	u32 flags;
	u32 next_command;
	u64 message_id;
	u64 async_id;		/* when SMB2_FLAGS_ASYNC_COMMAND */
	u32 process_id;		/* sync only */
	u32 tree_id;		/* sync only */
	u64 session_id;
};

/*
 * Decode the header of the PDU at @buf, with @avail bytes left in the
 * message.  Returns the PDU's length (up to the next PDU of a compound, or
 * the rest of the message), or -EPROTO when the bytes are not an SMB2
 * header with a usable NextCommand: the stream cannot be trusted then.
 */
int smb2_hdr_decode(const u8 *buf, u32 avail, struct smb2_hdr *h);

/*
 * Write a response header for request @req into @buf (64 bytes):
 * @status, @credits granted, @flags (SERVER_TO_REDIR is added), the
 * signature zeroed.  @async_id is used when @flags has ASYNC_COMMAND.
 */
void smb2_hdr_encode_rsp(u8 *buf, const struct smb2_hdr *req, u32 status,
			 u16 credits, u32 flags, u64 async_id);

/* Patch NextCommand of an encoded header. */
void smb2_hdr_set_next(u8 *buf, u32 next);

/*
 * The body of a request must be at least the fixed part its StructureSize
 * announces (StructureSize with the low bit cleared: odd sizes count one
 * byte of the variable part) and carry exactly that StructureSize.
 * Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smb2_body_check(const u8 *body, u32 body_len, u16 struct_size);

/*
 * Resolve a variable-length field given by an offset from the start of the
 * SMB2 header and a length.  The field must lie inside the PDU
 * (@pdu_len bytes) and not overlap the fixed part (@min_off bytes from the
 * header start).  A zero length is always valid and yields NULL.
 * Returns 0 or -EINVAL.
 */
int smb2_field(const u8 *pdu, u32 pdu_len, u32 off, u32 len, u32 min_off,
	       const u8 **field);

/*
 * For tracing: the MessageId and Command of the first PDU of the message
 * (or response) of @len bytes at @msg, which may be shorter than the
 * message (a partly received frame).  Returns false, with *mid and *cmd
 * zeroed, when the bytes are not a plain SMB2 header (too short, SMB1,
 * encrypted, compressed).  Trusts nothing, never fails; what it returns
 * is only ever printed.
 */
bool smb2_msg_peek_id(const u8 *msg, u32 len, u64 *mid, u16 *cmd);

/* Encode an ERROR response body (2.2.2); returns its length (9). */
u32 smb2_error_encode(u8 *body);

/* TRANSFORM header (2.2.41) of an encrypted message. */
struct smb2_transform {
	const u8 *signature;	/* 16 bytes */
	const u8 *nonce;	/* 16 bytes */
	u32 orig_size;
	u16 flags;
	u64 session_id;
};

/*
 * Decode a TRANSFORM header at the start of a message of @len bytes.
 * The encrypted payload follows the 52-byte header and must be exactly
 * OriginalMessageSize bytes.  Returns 0 or -EPROTO.
 */
int smb2_transform_decode(const u8 *buf, u32 len, struct smb2_transform *t);

/*
 * Payload size a request moves, for the CreditCharge check of 3.3.5.2.5:
 * max(send payload, largest response payload) for READ, WRITE, IOCTL,
 * QUERY_DIRECTORY, CHANGE_NOTIFY, QUERY_INFO and SET_INFO; 0 for others
 * or when the body is too short to say (the handler rejects it then).
 */
u32 smb2_payload_size(u16 command, const u8 *body, u32 body_len);

/* CreditCharge a payload needs (3.1.5.2); at least 1. */
static inline u32 smb2_credits_for(u32 payload)
{
	return payload ? (payload - 1) / 65536 + 1 : 1;
}

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_PDU_H */
