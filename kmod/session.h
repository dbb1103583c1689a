/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: sessions, tree connects and open files.
 *
 * Sessions are found by SessionId in one server-wide table (ids are
 * unique across connections) and are reached through their channels
 * (MS-SMB2 3.3.1.8): the connection a session was set up on, and those
 * bound to it later (multichannel).  A lookup from a connection that is
 * not one of its channels fails.  Each session has a table of its tree
 * connects and one of its open files.  Every object is reference counted
 * and freed after an RCU grace period; table entries hold a reference,
 * and so does each request using one.  A tree references its session, an
 * open its tree, a channel its connection; a session references the
 * connection it was set up on (for what was negotiated there, which its
 * other channels share) until it is freed.
 *
 * Ending things (LOGOFF, TREE_DISCONNECT, CLOSE, connection teardown)
 * removes them from their table and marks them gone, so that requests
 * still holding a reference see it and fail cleanly; the memory goes with
 * the last reference.
 */
#ifndef _SMBSRV_SESSION_H
#define _SMBSRV_SESSION_H

#include <linux/cred.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "crypto.h"
#include "upcall.h"
#include "wire/chseq.h"

struct smbsrv_conn;
struct smbsrv_share_info;
struct smbsrv_share_use;

enum smbsrv_session_state {
	SMBSRV_SESSION_IN_PROGRESS,	/* authentication legs under way */
	SMBSRV_SESSION_VALID,
	SMBSRV_SESSION_EXPIRED,		/* logged off or torn down */
};

/* Most channels one session may have, its first one included. */
#define SMBSRV_MAX_CHANNELS	32

/*
 * A connection a session can be used on (Channel, 3.3.1.8).  Listed on
 * the session's list and its connection's while both live; requests hold
 * a reference while they verify and sign with it.
 */
struct smbsrv_channel {
	refcount_t ref;
	struct smbsrv_conn *conn;	/* referenced */
	/* Not referenced: a listed channel's session is alive. */
	struct smbsrv_session *sess;
	struct list_head sess_node;	/* sess->channels, under chan_lock */
	struct list_head conn_node;	/* conn->channels, under conn->lock */
	/*
	 * False while a binding SESSION_SETUP is under way on it: requests
	 * on its connection do not find the session yet.
	 */
	bool valid;
	/* Its signing key's; NULL for the first channel: the session's. */
	struct smbsrv_signer *signer;
	/* 3.1.1 binding: the hash chain its signing key is derived with. */
	u8 preauth_hash[64];
	struct rcu_head rcu;
};

struct smbsrv_session {
	refcount_t ref;
	u64 id;
	/* Where it was set up: referenced until the session is freed. */
	struct smbsrv_conn *conn;
	/*
	 * Its channels; adding and removing one also hold setup_lock, so
	 * under setup_lock the list is stable.
	 */
	spinlock_t chan_lock;
	struct list_head channels;
	u32 nr_channels;		/* listed, valid or being bound */
	/* Serialises SESSION_SETUP legs and LOGOFF of this session. */
	struct mutex setup_lock;
	int state;			/* enum smbsrv_session_state */
	u64 start;			/* boottime seconds at logon */

	/* Who: set once the session is valid, immutable afterwards. */
	const struct cred *cred;
	char *user;
	char *domain;
	char *principal;		/* Kerberos client principal, or "" */
	struct smbsrv_sids *sids;	/* a PAC's SIDs, or NULL */
	u32 flags;			/* enum smbsrv_session_flags (uapi) */

	/* Signing and encryption (MS-SMB2 3.3.1.8). */
	bool signing_required;
	bool encrypt_data;
	bool client_encrypts;		/* it sent an encrypted request */
	bool has_keys;			/* set (release) once keys are ready */
	u8 session_key[SMBSRV_SESSION_KEY_MAX];	/* as the logon produced */
	u32 session_key_len;
	struct smbsrv_session_keys keys;
	struct smbsrv_signer *signer;
	struct smbsrv_cipher *encryptor;	/* server to client */
	struct smbsrv_cipher *decryptor;	/* client to server */
	u8 preauth_hash[64];		/* 3.1.1: Session.PreauthIntegrityHashValue */

	struct xarray trees;		/* TreeId -> struct smbsrv_tree */
	struct xarray opens;		/* volatile FileId -> struct smbsrv_open */
	atomic_t nr_opens;
	atomic_t nr_locks;		/* byte-range locks its opens hold (brl.c) */
	/*
	 * Ending because its last channel went, its client logged off or a
	 * reconnecting client named it PreviousSessionId: durable opens
	 * stay (TREE_DISCONNECT and CLOSE end them).
	 */
	bool disconnecting;
	/*
	 * Durable v2 CREATEs still waiting for breaks after their channel
	 * went (durable.c, under its lock): bounded per session.
	 */
	u32 nr_replay_orphans;
	struct rcu_head rcu;
};

struct smbsrv_tree {
	refcount_t ref;
	u32 id;
	bool gone;			/* disconnected; set under sess lock */
	struct smbsrv_session *sess;	/* referenced */
	struct smbsrv_share_info *share;	/* referenced */
	struct smbsrv_share_use *use;	/* counts it for max connections */
	u32 share_flags;		/* enum smbsrv_share_flags (uapi) */
	u32 maximal_access;
	/*
	 * Disk shares: whose rights file access runs with (the session's,
	 * with force user/group applied: smbsrv_vfs_tree_cred()), and the
	 * share root, resolved with them.
	 */
	const struct cred *cred;
	/* The session's PAC SIDs unless force user names someone else. */
	struct smbsrv_sids *sids;
	struct path root;
	/*
	 * A snapshot's view of a tree (snap.h): read-only, never in the
	 * session's table, used by the CREATE that asked for it.
	 */
	bool snapshot;
	struct rcu_head rcu;
};

struct smbsrv_open;
struct smbsrv_budget_user;

struct smbsrv_open_ops {
	/* End the open (CLOSE semantics); called once, may sleep. */
	void (*close)(struct smbsrv_open *op);
	/*
	 * Release what the open holds (the file), at the last reference,
	 * in process context: requests still holding a reference after the
	 * close keep using it safely until then.  May sleep; may be NULL.
	 */
	void (*release)(struct smbsrv_open *op);
	/*
	 * Free the containing object, at the last reference, after an RCU
	 * grace period: runs in softirq context, must not sleep.
	 */
	void (*free)(struct smbsrv_open *op);
	/*
	 * Its session ends with its connection: true when the open stays
	 * (a durable handle), taking over the table's reference; it is
	 * then neither closed nor put here.  May be NULL.
	 */
	bool (*detach)(struct smbsrv_open *op);
};

/*
 * An open file: embedded by the file-service code in its own object and
 * registered with smbsrv_open_insert(), which assigns the FileId.
 */
struct smbsrv_open {
	refcount_t ref;
	u64 id_persistent;
	u64 id_volatile;
	bool gone;
	struct smbsrv_tree *tree;	/* referenced */
	const struct smbsrv_open_ops *ops;
	/* Its charge to the server's budget, from insert to the last put. */
	struct smbsrv_budget_user *budget;
	/*
	 * Under @lock: its ChannelSequence and the requests outstanding
	 * under it (3.3.5.2.10, wire/chseq.h), and whether a replay of the
	 * CREATE that made it answers with it (Open.IsReplayEligible: until
	 * the first request names it).
	 */
	spinlock_t lock;
	struct smb2_chseq chseq;
	bool replayable;
	struct rcu_head rcu;
};

/*
 * A session was established: make sure idle connections are looked for
 * (the deadtime knob) while there are connections.
 */
void smbsrv_sessions_idle_watch(void);
void smbsrv_sessions_exit(void);

/*
 * A new in-progress session on @conn (its first channel), in the tables;
 * referenced.
 */
struct smbsrv_session *smbsrv_session_new(struct smbsrv_conn *conn);
/*
 * The session @id, referenced, in any state, when @conn is one of its
 * channels; NULL otherwise.
 */
struct smbsrv_session *smbsrv_session_lookup(struct smbsrv_conn *conn, u64 id);
/* Any connection's session @id (PreviousSessionId, binding), or NULL. */
struct smbsrv_session *smbsrv_session_lookup_any(u64 id);
void smbsrv_session_put(struct smbsrv_session *sess);

/* @sess's bound channel on @conn, referenced, or NULL. */
struct smbsrv_channel *smbsrv_session_channel(struct smbsrv_session *sess,
					      struct smbsrv_conn *conn);
void smbsrv_channel_put(struct smbsrv_channel *ch);
/*
 * A connection of @sess's to send a notification on, referenced: a bound
 * channel's that is not closing, or NULL.  Does not sleep.
 */
struct smbsrv_conn *smbsrv_session_live_conn(struct smbsrv_session *sess);
/* Whether @sess has such a connection.  Does not sleep. */
bool smbsrv_session_connected(struct smbsrv_session *sess);
/*
 * Binding (3.3.5.5.2), under @sess's setup lock: the channel being bound
 * on @conn, new or left by an earlier leg; referenced.  -EBUSY when @conn
 * is already a bound channel, -EUSERS past SMBSRV_MAX_CHANNELS, -ENOTCONN
 * when @conn is closing, -ENOMEM.
 */
struct smbsrv_channel *smbsrv_channel_begin(struct smbsrv_session *sess,
					    struct smbsrv_conn *conn,
					    bool *fresh);
/* The bind succeeded: requests on its connection now find the session. */
void smbsrv_channel_bound(struct smbsrv_channel *ch);
/*
 * The bind failed, or the channel's connection went (setup lock held):
 * off the lists.  Ends the session when it was the last channel, which
 * drops the setup lock (true); false: the lock is still held.
 */
bool smbsrv_channel_remove(struct smbsrv_channel *ch);

static inline void smbsrv_session_get(struct smbsrv_session *sess)
{
	refcount_inc(&sess->ref);
}

static inline bool smbsrv_session_valid(const struct smbsrv_session *sess)
{
	return READ_ONCE(sess->state) == SMBSRV_SESSION_VALID;
}

/* Whether the session's signer and ciphers may be used. */
static inline bool smbsrv_session_has_keys(struct smbsrv_session *sess)
{
	/* Pairs with the release in smbsrv_session_derive_keys(). */
	return smp_load_acquire(&sess->has_keys);
}

/*
 * End a session: out of the tables, trees disconnected, opens closed,
 * state EXPIRED.  Idempotent.  Takes the session's setup lock.
 */
void smbsrv_session_end(struct smbsrv_session *sess);
void smbsrv_session_end_unlock(struct smbsrv_session *sess);
/*
 * A connection is being torn down: its channels go, and each session
 * whose last channel that was ends.
 */
void smbsrv_sessions_close(struct smbsrv_conn *conn);
/* Number of sessions, and the next one after @after for dumps. */
u32 smbsrv_session_count(void);
struct smbsrv_session *smbsrv_session_next(u64 after);

/* Tree connects. */
struct smbsrv_tree *smbsrv_tree_new(struct smbsrv_session *sess,
				    struct smbsrv_share_info *share);
struct smbsrv_tree *smbsrv_tree_lookup(struct smbsrv_session *sess, u32 id);
void smbsrv_tree_put(struct smbsrv_tree *tree);
/* Remove from the session, close its opens.  Idempotent. */
void smbsrv_tree_end(struct smbsrv_tree *tree);
u32 smbsrv_tree_count(struct smbsrv_session *sess);

/*
 * Register an open on @tree and give it its FileId.  On success the open
 * holds a reference to the tree and has two references (the table's and
 * the caller's); on failure (-EMFILE: max open files, -ENFILE: the
 * server's budget of opens or its user's share (budget.h), -ENOENT: the
 * tree is gone, -ENOMEM) nothing was registered and no op is ever called.
 */
int smbsrv_open_insert(struct smbsrv_tree *tree, struct smbsrv_open *op,
		       const struct smbsrv_open_ops *ops);
/*
 * The open of @sess with FileId {@persistent, @volatile_id}, referenced:
 * one of @tree's, or of any tree of the session when @tree is NULL (a
 * server-side copy's source).  NULL when there is none, or it is ending.
 */
struct smbsrv_open *smbsrv_open_lookup(struct smbsrv_session *sess,
				       struct smbsrv_tree *tree,
				       u64 persistent, u64 volatile_id);
/* Drop a reference; the last one releases the open (may sleep). */
void smbsrv_open_put(struct smbsrv_open *op);
/*
 * Put a detached open (ops->detach kept it) back into the table of
 * @tree's session with a new volatile FileId; its persistent one stays.
 * The reference the detach kept becomes the table's.  -EMFILE, -ENOENT.
 */
int smbsrv_open_attach(struct smbsrv_tree *tree, struct smbsrv_open *op);
/* Remove from the table and close.  Idempotent. */
void smbsrv_open_end(struct smbsrv_open *op);

/*
 * The CREATE (or reconnect) with ChannelSequence @seq made @op: it starts
 * there, nothing outstanding; @replayable: a replay of that CREATE may
 * answer with it (a durable v2 open).
 */
void smbsrv_open_chseq_init(struct smbsrv_open *op, u16 seq, bool replayable);
/*
 * A request with ChannelSequence @csn (@replay: the replay flag) names
 * @op: its verdict (wire/chseq.h); the open is no longer one a replayed
 * CREATE answers with.  smbsrv_open_chseq_done() when a counted one ends.
 */
enum smb2_chseq_verdict smbsrv_open_chseq_admit(struct smbsrv_open *op,
						u16 csn, bool replay);
void smbsrv_open_chseq_done(struct smbsrv_open *op, u16 csn);

#endif /* _SMBSRV_SESSION_H */
