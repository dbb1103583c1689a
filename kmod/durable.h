/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: durable handles (MS-SMB2 3.3.5.9.6-7, 3.3.5.9.10-12) — opens
 * that outlive their connection for a while, so that a client whose TCP
 * connection dropped reclaims them with their lease, position, byte-range
 * locks and delete-on-close state (Documentation/design.md, "Client
 * caching").
 *
 * A durable open has a persistent FileId unique server-wide.  When its
 * connection goes (not LOGOFF, TREE_DISCONNECT or CLOSE), the session's
 * teardown detaches it: out of the session's table, its tree released,
 * kept with everything else it holds until its client reconnects it
 * (DHnC, DH2C) or its timeout runs out and the scavenger closes it.
 */
#ifndef _SMBSRV_DURABLE_H
#define _SMBSRV_DURABLE_H

#include <linux/list.h>
#include <linux/types.h>

struct smbsrv_file;
struct smbsrv_session;
struct smbsrv_tree;
struct smb2_create_req;

/* Disconnected durable opens kept at most, server-wide. */
#define SMBSRV_DURABLE_MAX	16384
/* A DH2Q may ask for this much at most (Samba's cap too). */
#define SMBSRV_DURABLE_V2_MAX_MS	(300 * 1000)

/* What a CREATE asked for. */
struct smbsrv_durable_req {
	u8 version;			/* 0: none, 1: DHnQ, 2: DH2Q */
	u32 timeout_ms;			/* DH2Q's, 0: the server's */
	u32 flags;			/* DH2Q's */
	u8 create_guid[16];
	bool replay;			/* SMB2_FLAGS_REPLAY_OPERATION */
	u32 action;			/* CreateAction, for its replays */
};

void smbsrv_durable_init(void);
/* Close every disconnected durable open (module exit). */
void smbsrv_durable_exit(void);
/* Close every disconnected durable open now (cluster mode's fence). */
void smbsrv_durable_expire_all(void);

/*
 * Make the new open @f durable as @d asks, if its caching allows it (a
 * batch oplock or a lease caching handles).  Gives it its server-wide
 * persistent FileId.  Returns the timeout granted in milliseconds, or 0
 * when it did not become durable (a DH2Q open is still found by its
 * CreateGuid then, for replays).
 */
u32 smbsrv_durable_grant(struct smbsrv_file *f,
			 const struct smbsrv_durable_req *d);

/* A durable v2 CREATE waiting for breaks (its CreateGuid is taken). */
struct smbsrv_durable_pending {
	struct hlist_node node;
	u8 client_guid[16];
	u8 create_guid[16];
	u64 session_id;
	/* Its connection went; it goes on for its session's other ones. */
	bool orphan;
};

/* Waiting CREATEs of one session that may outlive their connection. */
#define SMBSRV_DURABLE_ORPHANS	32

/* A DH2Q CREATE looks for the open its CreateGuid names (3.3.5.9.10). */
struct smbsrv_durable_replay {
	const u8 *client_guid;		/* the connection's ClientGuid */
	const u8 *guid;			/* the DH2Q's CreateGuid */
	bool replay;			/* SMB2_FLAGS_REPLAY_OPERATION */
	struct smbsrv_session *sess;
	const char *path;		/* the name it opens */
	/* Its own wait for breaks (not counted against it), or NULL. */
	const struct smbsrv_durable_pending *own;
	/*
	 * Out: the open a replay is answered with (referenced), the
	 * CreateAction the original got and its durable timeout (0: it
	 * did not become durable).
	 */
	struct smbsrv_file *f;
	u32 action;
	u32 timeout_ms;
};

/*
 * STATUS_SUCCESS: @r->f is the open to answer the replay with, or NULL
 * when no open answers it (a new CREATE, with that CreateGuid).
 * STATUS_FILE_NOT_AVAILABLE: a replay while the CREATE it repeats still
 * waits for breaks (the client sends it again later);
 * STATUS_DUPLICATE_OBJECTID: no replay, and the GUID is in use;
 * STATUS_ACCESS_DENIED: a replay naming another user's open, or another
 * file than the open's.  Only an open of the same session that no
 * request named yet answers a replay (Open.IsReplayEligible).
 */
u32 smbsrv_durable_replay(struct smbsrv_durable_replay *r);

/*
 * A durable v2 CREATE of @sess goes to wait for breaks: while it waits,
 * replays of it get STATUS_FILE_NOT_AVAILABLE.  NULL when memory is
 * short, ERR_PTR(-EEXIST) when another CREATE with the GUID waits.
 */
struct smbsrv_durable_pending *
smbsrv_durable_pend(const u8 *client_guid, const u8 *guid,
		    struct smbsrv_session *sess);
/*
 * Its connection went while it waits: true when it may go on for the
 * session's other channels (at most SMBSRV_DURABLE_ORPHANS a session).
 */
bool smbsrv_durable_pend_orphan(struct smbsrv_durable_pending *p,
				struct smbsrv_session *sess);
/* The waiting CREATE ended (answered, failed, cancelled). */
void smbsrv_durable_unpend(struct smbsrv_durable_pending *p,
			   struct smbsrv_session *sess);

/* @f is a durable handle (not only a DH2Q open kept for replays). */
bool smbsrv_durable_is(struct smbsrv_file *f);

/*
 * Reconnect (DHnC, DH2C) for a CREATE @r of session @sess on @tree from
 * the client @client_guid: find the disconnected durable open it names
 * and hand it, attached to @tree with a new volatile id, in *out
 * (referenced).  STATUS_OBJECT_NAME_NOT_FOUND when there is none for this
 * client, STATUS_ACCESS_DENIED for another user.
 * @lease_key: the RqLs key asked (NULL: none).
 */
u32 smbsrv_durable_reconnect(struct smbsrv_session *sess,
			     struct smbsrv_tree *tree, const u8 *client_guid,
			     const struct smb2_create_req *r,
			     const u8 *lease_key, const char *path,
			     struct smbsrv_file **out);

/* The open's connection went: keep it (true) or let it close. */
bool smbsrv_durable_detach(struct smbsrv_file *f);

/* @f closes for good (CLOSE, or its durable life ended). */
void smbsrv_durable_forget(struct smbsrv_file *f);

/*
 * A break reached @f while it is disconnected: its client cannot answer,
 * so it is closed now (3.3.4.6) rather than at its timeout.  Any context.
 */
void smbsrv_durable_expire_now(struct smbsrv_file *f);

/* The disconnected durable open after id *@id (referenced), or NULL. */
struct smbsrv_file *smbsrv_durable_next(unsigned long *id);

/* For smbsrvctl: 0 not durable, else its version; *left: seconds. */
u8 smbsrv_durable_state(struct smbsrv_file *f, bool *disconnected,
			u32 *left);

#endif /* _SMBSRV_DURABLE_H */
