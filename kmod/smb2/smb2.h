/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the SMB2 command handler API, for smb2/ only (the layers below
 * reach it through the ops of proto.h and cache.h, registered by init.c).
 *
 * A received message (one frame: a single PDU or a compound chain) is
 * processed by one worker.  For each PDU the dispatcher (dispatch.c)
 * decodes the header, charges credits, looks up the session and tree the
 * command needs, verifies the signature, then calls the command's handler
 * with a struct smbsrv_req.  The handler decodes the body with the
 * kmod/wire/ helpers (every offset and length checked there), does the
 * work, builds its response body with smbsrv_rsp_body() and returns an
 * NTSTATUS.  See Documentation/design.md, "How to write an SMB2 command
 * handler".
 */
#ifndef _SMBSRV_SMB2_H
#define _SMBSRV_SMB2_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include "../wire/ntstatus.h"
#include "../wire/pdu.h"
#include "../wire/smb2.h"

struct smb2_ioctl_req;
struct smb2_route_info;
struct smbsrv_conn;
struct smbsrv_dirscan;
struct smbsrv_durable_pending;
struct smbsrv_file;
struct smbsrv_fnode;
struct smbsrv_msg;
struct smbsrv_open;
struct smbsrv_pages;
struct smbsrv_channel;
struct smbsrv_session;
struct smbsrv_tree;
struct smbsrv_req;

/*
 * Handler return value that is not an NTSTATUS: drop the connection
 * without answering (MS-SMB2 "the server MUST disconnect").
 */
#define SMBSRV_DISCONNECT	0xffffffffu
/*
 * Handler return value of a READ tried inline (req->nowait) that would
 * block: nothing was done; a worker calls the handler again.
 */
#define SMBSRV_WOULD_BLOCK	0xfffffffeu

/* Called when CANCEL names a pending async request, or on teardown. */
typedef void (*smbsrv_cancel_fn)(struct smbsrv_req *req);

/* A response up to this size (with its 8 bytes of slack) needs no allocation. */
#define SMBSRV_RSP_SMALL	136

struct smbsrv_req {
	struct smbsrv_conn *conn;	/* always valid (a reference) */
	struct smbsrv_msg *msg;		/* the message; NULL once async */
	struct list_head node;		/* in the message's response list */
	refcount_t ref;			/* > 1 only while CANCEL holds it */
	u32 charge;			/* credits this request consumed */
	u8 queue;			/* enum smbsrv_queue it came through */

	/* The request PDU: header and body, inside the message buffer. */
	struct smb2_hdr hdr;
	const u8 *pdu;
	u32 pdu_len;
	const u8 *body;			/* pdu + SMB2_HDR_SIZE */
	u32 body_len;

	/*
	 * Looked up by the dispatcher when the command's table entry asks
	 * for them (references, dropped after the response is sent); for a
	 * related compound request they come from the previous request.
	 */
	struct smbsrv_session *sess;
	/*
	 * The session's channel on this connection (referenced), whose key
	 * verifies and signs; NULL when the connection is none of its
	 * channels yet (a binding SESSION_SETUP: the session's key).
	 */
	struct smbsrv_channel *chan;
	struct smbsrv_tree *tree;

	/*
	 * FileId of a related compound chain: a handler that creates an open
	 * stores its id here; a related request whose FileId is all 0xFF
	 * uses it (smbsrv_req_file(), fileid.c).
	 */
	u64 fid_persistent;
	u64 fid_volatile;
	/*
	 * ChannelSequence (3.3.5.2.10, fileid.c): the open this request is
	 * counted against until it ends (referenced), and what a handler
	 * answers when its FileId names no open it may use
	 * (smbsrv_req_fid_status()).
	 */
	struct smbsrv_open *csn_open;
	u32 fid_status;
	/*
	 * A durable v2 CREATE waiting for breaks holds its CreateGuid here
	 * until it ends: its replays meanwhile get FILE_NOT_AVAILABLE.
	 */
	struct smbsrv_durable_pending *dur_pending;

	/*
	 * The response: 64-byte header followed by the body; a small one
	 * (a WRITE's, a spliced READ's head, an error) in rsp_small, saving
	 * an allocation per request (out.c).
	 */
	u8 *rsp;
	u32 rsp_len;			/* header + body */
	/*
	 * A spliced READ's payload, sent after rsp (which then ends with the
	 * READ fixed part); freed with the request.  Only for a request
	 * alone in its message (!compound).
	 */
	struct smbsrv_pages *pages;
	/*
	 * A WRITE's data received into pages (rxpages.h), not in pdu: the
	 * message's; only for a request alone in its message.
	 */
	struct smbsrv_rxpages *rx;
	u32 status;			/* NTSTATUS sent */
	u16 credits_granted;
	u64 start_ns;			/* decoded at (cmdstats.c) */

	/* Flags the dispatcher works out. */
	bool last;			/* last PDU of the message */
	bool compound;			/* the message holds more than this PDU */
	bool nowait;			/* run inline: SMBSRV_WOULD_BLOCK, not wait */
	bool nowait_depth;		/* ... at depth: not even a short wait */
	bool related;			/* SMB2_FLAGS_RELATED_OPERATIONS */
	bool signed_in;			/* the request was signed and verified */
	bool encrypted;			/* the message came encrypted */
	bool sign_rsp;			/* sign the response */
	/*
	 * 3.1.1 preauth integrity: a handler points this at the hash its
	 * response must be folded into (NEGOTIATE, SESSION_SETUP legs).
	 */
	u8 *preauth_rsp;

	/* Async state (smbsrv_req_go_async()), under conn->lock. */
	bool async;
	bool interim_out;		/* the interim response was sent */
	bool final_ready;		/* smbsrv_req_complete() was called */
	u64 async_id;
	smbsrv_cancel_fn cancel;
	/* On conn->pending, then conn->cancelled; under conn->lock. */
	struct list_head pending;
	void *priv;			/* the handler's, for async completion */
	/* Frees @priv when the request goes (process context, no locks). */
	void (*priv_free)(struct smbsrv_req *req);
	/* Async in the middle of a chain: the message that goes on after it. */
	struct smbsrv_msg *chain;
	u8 rsp_small[SMBSRV_RSP_SMALL] __aligned(8);
};

struct smbsrv_cmd {
	const char *name;
	u32 (*handler)(struct smbsrv_req *req);
	u16 struct_size;		/* the request's StructureSize; 0: any */
	unsigned int needs;		/* SMBSRV_NEED_* */
};

/* The command table (table.c), indexed by command. */
extern const struct smbsrv_cmd smbsrv_cmds[SMB2_NR_COMMANDS];

/*
 * The dispatcher's checks before a handler runs (check.c), each an
 * NTSTATUS: the session the request names, in the state command @c needs
 * (a signed request naming a session of another connection gets the
 * signed STATUS_USER_SESSION_DELETED Windows sends); its signature; that
 * it came encrypted where its session or tree says so.
 */
u32 smbsrv_req_session(struct smbsrv_req *req, const struct smbsrv_cmd *c);
u32 smbsrv_req_signature(struct smbsrv_req *req);
u32 smbsrv_req_encryption(struct smbsrv_req *req);

/* What the dispatcher must establish before calling a handler. */
#define SMBSRV_NEED_NEGOTIATED	0x1	/* a dialect was negotiated */
#define SMBSRV_NEED_SESSION	0x2	/* a valid session (req->sess) */
#define SMBSRV_NEED_TREE	0x4	/* a tree connect (req->tree) */
#define SMBSRV_NEED_ANY_STATE	0x8	/* ... in progress sessions too */
#define SMBSRV_NEED_SESSION_IF_ID 0x10	/* a session when SessionId != 0 */

/*
 * Response bodies (out.c), the command handlers' one output helper.
 *
 * Allocate the response for @req with a body of @size bytes, zeroed, and
 * return the body (the header is filled in by the dispatcher).  Returns
 * NULL when out of memory (return STATUS_INSUFFICIENT_RESOURCES then).
 * May be called again to replace a smaller response.
 */
void *smbsrv_rsp_body(struct smbsrv_req *req, u32 size);

/*
 * The same for a response carrying @data bytes of payload after a body
 * of @fixed bytes: only the header and @fixed are zeroed (the payload is
 * filled in by the caller, and only what was filled in is sent).
 */
void *smbsrv_rsp_body_data(struct smbsrv_req *req, u32 fixed, u32 data);

/* Drop the response built so far (and a READ's pages). */
void smbsrv_rsp_free(struct smbsrv_req *req);

/*
 * The output of a QUERY_INFO (or QUERY_DIRECTORY) response: @len bytes
 * after the response's fixed part, zeroed.  NULL when out of memory.
 */
u8 *smbsrv_qinfo_out(struct smbsrv_req *req, u32 len);

/*
 * The IOCTL response to @r with @len bytes of output: returns where the
 * output goes (zeroed), or NULL when out of memory.
 */
u8 *smbsrv_ioctl_out(struct smbsrv_req *req, const struct smb2_ioctl_req *r,
		     u32 len);

/*
 * Check the CreditCharge of a request against the payload it moves
 * (MS-SMB2 3.3.5.2.5): READ, WRITE, IOCTL, QUERY_DIRECTORY and the like
 * call this; the payload is the larger of the request's send and response
 * payloads, as smb2_payload_size() reads them from its body (credits.c).
 * Returns STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smbsrv_req_check_charge(struct smbsrv_req *req);

/*
 * The open the FileId at @field (16 bytes) names on the request's session
 * and tree, the related-compound "use the previous one" value (all 0xFF)
 * resolved to the chain's, referenced (smbsrv_open_put()); NULL when there is none: the handler
 * answers STATUS_FILE_CLOSED.  smbsrv_req_file() finds only open files
 * (file.h; drop it with smbsrv_file_put()), smbsrv_req_open() any kind
 * (a named pipe's open is one of its own).
 */
struct smbsrv_open *smbsrv_req_open(struct smbsrv_req *req, const u8 *field);
struct smbsrv_file *smbsrv_req_file(struct smbsrv_req *req, const u8 *field);
/*
 * Why smbsrv_req_open() or smbsrv_req_file() found nothing: on a 3.x
 * connection a WRITE, SET_INFO, IOCTL or LOCK whose ChannelSequence is
 * stale for the open gets STATUS_FILE_NOT_AVAILABLE (3.3.5.2.10), so that
 * its client sends it again on a live channel; else STATUS_FILE_CLOSED.
 */
u32 smbsrv_req_fid_status(const struct smbsrv_req *req);
/* The ChannelSequence of a 3.x request (its header's Status field). */
u16 smbsrv_req_csn(const struct smbsrv_req *req);
/* The request ends: what it counted against an open's sequence goes. */
void smbsrv_req_fid_end(struct smbsrv_req *req);

/*
 * Going async (MS-SMB2 3.3.4.2): a handler that must wait (a lock, a
 * change notification) calls smbsrv_req_go_async() and returns
 * STATUS_PENDING.  The dispatcher sends an interim response carrying an
 * AsyncId and the credits granted; the request then lives on its own
 * (req->msg is NULL: copy what you need from the body first).  Exactly one
 * smbsrv_req_complete() follows, from any process context, once the
 * handler has built its final response (or with an error status and no
 * body).  @priv becomes req->priv, the state the completion and @cancel
 * share; @priv_free (may be NULL) frees it when the request goes, after
 * its final response, in process context.  @cancel runs (once, in
 * process context, with no lock held) when CANCEL names the request, its
 * session or tree goes away or the connection closes; it must make the
 * operation complete soon, typically with STATUS_CANCELLED.  A request
 * in the middle of a compound may go async too (a CREATE waiting for
 * breaks): its interim response ends the compound response, and the rest
 * of the chain runs once its final response is out, related to it
 * (MS-SMB2 3.3.5.2.7).  smbsrv_req_can_async() says whether a request is
 * the last of its chain (and not async yet): CHANGE_NOTIFY and LOCK go
 * async only there, as Windows does (compound.interim2).
 * smbsrv_req_go_async() fails when the connection is closing or a CANCEL
 * named the request while it was still being handled (the handler then
 * frees @priv and answers STATUS_CANCELLED itself), and with -EBUSY when
 * the connection already has as many async requests as its credit
 * maximum (the handler answers STATUS_INSUFFICIENT_RESOURCES).
 */
bool smbsrv_req_can_async(const struct smbsrv_req *req);
int smbsrv_req_go_async(struct smbsrv_req *req, smbsrv_cancel_fn cancel,
			void *priv, void (*priv_free)(struct smbsrv_req *req));
/* The status a handler answers when smbsrv_req_go_async() failed with @err. */
u32 smbsrv_req_async_status(int err);
void smbsrv_req_complete(struct smbsrv_req *req, u32 status);

/* Handlers of the protocol core. */
u32 smbsrv_smb2_negotiate(struct smbsrv_req *req);
u32 smbsrv_smb2_session_setup(struct smbsrv_req *req);
u32 smbsrv_smb2_logoff(struct smbsrv_req *req);
u32 smbsrv_smb2_tree_connect(struct smbsrv_req *req);
u32 smbsrv_smb2_tree_disconnect(struct smbsrv_req *req);
u32 smbsrv_smb2_echo(struct smbsrv_req *req);
u32 smbsrv_smb2_cancel(struct smbsrv_req *req);
u32 smbsrv_smb2_ioctl(struct smbsrv_req *req);

/* File service III: lock.c. */
u32 smbsrv_smb2_lock(struct smbsrv_req *req);

/* Client caching: oplock.c (acknowledgements of breaks). */
u32 smbsrv_smb2_oplock_break(struct smbsrv_req *req);
/*
 * Park @req (which ran into SMBSRV_CACHE_WAIT on @fn, consumed, at @gen)
 * until the caching of @fn changes, then run @run(req) again on a copy of
 * the PDU and complete it with the result.  Returns STATUS_PENDING
 * (parked: the handler returns it) or a final status (it could not go
 * async: STATUS_INSUFFICIENT_RESOURCES, STATUS_CANCELLED).
 */
u32 smbsrv_cache_park(struct smbsrv_req *req, struct smbsrv_fnode *fn,
		      u32 gen, u32 (*run)(struct smbsrv_req *req));

/* File service I: create.c, close.c, rw.c. */
u32 smbsrv_smb2_create(struct smbsrv_req *req);
u32 smbsrv_smb2_close(struct smbsrv_req *req);
u32 smbsrv_smb2_flush(struct smbsrv_req *req);
u32 smbsrv_smb2_read(struct smbsrv_req *req);
u32 smbsrv_smb2_write(struct smbsrv_req *req);

/* File service II: query.c, setinfo.c, dir.c (security.c behind them). */
u32 smbsrv_smb2_query_info(struct smbsrv_req *req);
u32 smbsrv_smb2_set_info(struct smbsrv_req *req);
u32 smbsrv_smb2_query_directory(struct smbsrv_req *req);

/* Answer an SMB1 negotiate carrying the SMB2 dialect strings. */
void smbsrv_smb1_negotiate(struct smbsrv_conn *conn, const u8 *buf, u32 len);

/* Server identity (negotiate.c). */
extern u8 smbsrv_server_guid[16];
u64 smbsrv_filetime_now(void);

/* Cancel the pending request a CANCEL names; false when none matches. */
bool smbsrv_cancel_one(struct smbsrv_conn *conn, const struct smb2_hdr *hdr);

/* The proto.h ops (init.c registers them): credits.c, dispatch.c, dir.c. */
int smbsrv_smb2_conn_init(struct smbsrv_conn *conn);
void smbsrv_smb2_conn_free(struct smbsrv_conn *conn);
void smbsrv_smb2_conn_teardown(struct smbsrv_conn *conn);
int smbsrv_msg_queue(struct smbsrv_conn *conn, u8 *buf, u32 len,
		     struct smbsrv_rxpages *rx,
		     const struct smb2_route_info *ri);
void smbsrv_dirscan_free(struct smbsrv_dirscan *scan);

/*
 * A connection's lane (lane.c): @run(@it) runs in a worker, after the
 * items added before it, one lane item at a time; the lane holds the
 * connection meanwhile.  @run owns @it.
 */
struct smbsrv_lane_item {
	struct list_head node;
	void (*run)(struct smbsrv_lane_item *it);
};

void smbsrv_lane_init(struct smbsrv_conn *conn);
void smbsrv_lane_add(struct smbsrv_conn *conn, struct smbsrv_lane_item *it);

/* Break notifications for cache.c (break.c): registered at init. */
void smbsrv_break_init(void);
void smbsrv_break_exit(void);

#endif /* _SMBSRV_SMB2_H */
