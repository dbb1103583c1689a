/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: upcalls to the daemon (session setup, tree connect, IPC$ pipes).
 *
 * Each upcall sends a *-req event carrying a fresh handle to the daemon's
 * netlink socket and sleeps until the daemon answers with the matching
 * *-done command (same handle, same socket), until the upcall-timeout knob
 * expires, or until the daemon's socket closes.  The functions return:
 *
 *   0           the daemon answered; the result is filled in (the NTSTATUS
 *               in it is the daemon's verdict, which may be a failure)
 *   -ENOTCONN   no daemon attached, or its socket closed while waiting
 *   -ETIMEDOUT  no answer within the upcall-timeout knob
 *   -EPROTO     the daemon's answer was malformed (it is told why)
 *   -EINTR      the waiting task was killed
 *   -ENOMEM, -ENOBUFS (the daemon's socket queue is full), -EMSGSIZE
 *
 * An answer that arrives after the upcall gave up is refused with ENOENT
 * and otherwise ignored.  They sleep: call them from process context
 * without spinlocks held.  The strings passed in must be NUL-terminated
 * UTF-8 and fit the spec's max-len for them (longer ones: -EINVAL).
 *
 * The three upcalls and the two functions that free their results are
 * exported in the SMBSRV_TEST namespace for the test module
 * smbsrv_upcall_probe (kmod/test/), and for nothing else.
 */
#ifndef _SMBSRV_UPCALL_H
#define _SMBSRV_UPCALL_H

#include <linux/cred.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct genl_info;

/* Longest binary attribute netlink can carry (nla_len is 16 bits). */
#define SMBSRV_UPCALL_DATA_MAX	(U16_MAX - 4)
#define SMBSRV_SESSION_KEY_MAX	64

/*
 * The SIDs a PAC adds to a session's token (wire/ntacl.h: sorted by
 * smb_sid_cmp(), distinct, at most SMB_TOKEN_SIDS_MAX): immutable once
 * made, refcounted, shared by the session and its trees.  NULL for none.
 */
struct smbsrv_sids;
struct smb_sid;

struct smbsrv_sids *smbsrv_sids_get(struct smbsrv_sids *s);
void smbsrv_sids_put(struct smbsrv_sids *s);
/* The list and its length (NULL and 0 for @s NULL). */
const struct smb_sid *smbsrv_sids_list(const struct smbsrv_sids *s, u32 *count);

struct smbsrv_auth_result {
	u32 status;			/* NTSTATUS of this leg */
	void *blob;			/* security blob for the client, or NULL */
	u32 blob_len;
	u8 session_key[SMBSRV_SESSION_KEY_MAX];
	u32 session_key_len;		/* 0: none (anonymous, guest) */
	/*
	 * Set when status is STATUS_SUCCESS (the daemon must send uid and
	 * gid then): valid uid/gid, groups never NULL (possibly empty,
	 * sorted), user and domain never NULL (possibly "").  On other
	 * statuses uid/gid are invalid and groups/user/domain may be NULL.
	 */
	kuid_t uid;
	kgid_t gid;
	struct group_info *groups;
	u32 flags;			/* enum smbsrv_session_flags */
	char *user;
	char *domain;
	char *principal;		/* Kerberos client; NULL or "" for none */
	struct smbsrv_sids *sids;	/* a PAC's SIDs; NULL for none */
};

/*
 * One session setup leg: hand the client's security blob to the daemon.
 * @session_id keys the daemon's logon exchange: the SessionId (at most
 * 32 bits), with the binding connection's id in the upper 32 bits for a
 * channel being bound (smb2/session.c).
 */
int smbsrv_upcall_session_setup(u64 session_id, const char *client_addr,
				u32 dialect, const void *blob, u32 blob_len,
				struct smbsrv_auth_result *res);
/* Free what a successful smbsrv_upcall_session_setup() allocated. */
void smbsrv_auth_result_free(struct smbsrv_auth_result *res);

/* What a tree connect resolved to; immutable once published, refcounted. */
struct smb_snap_zone;

struct smbsrv_share_info {
	refcount_t ref;
	char *name;			/* never NULL */
	char *path;			/* absolute; NULL only for IPC */
	u32 flags;			/* enum smbsrv_share_flags */
	kuid_t force_uid;		/* INVALID_UID when not forced */
	kgid_t force_gid;		/* INVALID_GID when not forced */
	umode_t create_mask;		/* ksmbd's defaults when not sent: */
	umode_t directory_mask;		/* 0744, 0755, 0, 0 */
	umode_t force_create_mode;
	umode_t force_directory_mode;
	char *veto_files;		/* "/pattern/pattern/", or NULL */
	char *hide_files;		/* the same, reported hidden */
	u32 max_connections;		/* 0: no limit */
	/* With SMBSRV_SHARE_FLAGS_SHADOW_COPY (snap.h); else NULL. */
	char *snap_dir;			/* absolute */
	char *snap_subdir;		/* relative, "" for the snapshot */
	char *snap_format;		/* shadow:format, checked */
	u32 snap_sort;			/* enum smbsrv_snap_sort */
	struct smb_snap_zone *snap_zone; /* shadow:localtime, checked; */
	u32 snap_zone_n;		/* NULL and 0 for UTC */
	u32 audit_success;		/* audited ops (audit.h): bits */
	u32 audit_failure;
	/* With SMBSRV_SHARE_FLAGS_FRUIT (fruit.h); else 0 and NULL. */
	u32 fruit_flags;		/* enum smbsrv_fruit_flags */
	char *fruit_model;		/* fruit:model */
	u64 fruit_tm_max_size;		/* bytes, 0: none */
};

/*
 * Ask the daemon whether this session may connect to @share_name.  On 0,
 * *status is the daemon's NTSTATUS and, when it is STATUS_SUCCESS, *share
 * holds a reference the caller drops with smbsrv_share_info_put();
 * otherwise *share is NULL.
 */
int smbsrv_upcall_tree_connect(u64 session_id, const char *user, kuid_t uid,
			       u32 session_flags, const char *client_addr,
			       const char *share_name, u32 *status,
			       struct smbsrv_share_info **share);
void smbsrv_share_info_put(struct smbsrv_share_info *share);

static inline struct smbsrv_share_info *
smbsrv_share_info_get(struct smbsrv_share_info *share)
{
	refcount_inc(&share->ref);
	return share;
}

/*
 * Named-pipe I/O on IPC$ (@op: enum smbsrv_rpc_op).  On 0, *status is the
 * daemon's NTSTATUS and *out (kvfree() it; NULL when *out_len is 0) holds
 * at most @max_out bytes of its answer.  @len and @max_out are at most
 * SMBSRV_UPCALL_DATA_MAX.
 */
int smbsrv_upcall_rpc(u64 session_id, const char *user, u32 pipe_id, u32 op,
		      const char *pipe_name, const void *data, u32 len,
		      u32 max_out, u32 *status, void **out, u32 *out_len);

/* Fail every upcall waiting on the daemon at @portid with -ENOTCONN. */
void smbsrv_upcall_cancel(u32 portid);
/* Fail every pending upcall (module exit). */
void smbsrv_upcall_cancel_all(void);

/*
 * Cluster mode: ask the daemon to check and record this node's aggregate
 * of its opens of a file (cluster.c), or its byte-range locks of it
 * (brl.c), in the cluster state store.  On 0,
 * *@status is the daemon's verdict (STATUS_SUCCESS: recorded).
 */
struct smbsrv_cluster_q {
	u32 op;				/* enum smbsrv_cluster_op */
	u64 ino;
	const char *stream;		/* NULL: the file itself */
	u32 access, share;		/* the new open's (op open) */
	u32 node_access, node_share;	/* the node's aggregate after it */
	const void *locks;		/* ops lock, unlock: the node's */
	size_t locks_len;		/* byte-range locks (wire/cluster.h) */
	u32 caching;			/* the node's caching after it */
	u32 *allowed;			/* op caching: the answer's caching */
};

int smbsrv_upcall_cluster(const struct smbsrv_cluster_q *q, u32 *status);

#endif /* _SMBSRV_UPCALL_H */
