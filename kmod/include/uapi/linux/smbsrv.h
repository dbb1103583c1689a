/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/smbsrv.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_SMBSRV_H
#define _UAPI_LINUX_SMBSRV_H

#define SMBSRV_FAMILY_NAME	"smbsrv"
#define SMBSRV_FAMILY_VERSION	1

#define SMBSRV_VERSION_LEN	32

/**
 * enum smbsrv_cluster_op - What a cluster-req asks the daemon (cluster mode).
 * @SMBSRV_CLUSTER_OP_OPEN: A new open changes this node's aggregate of its
 *   opens of a file: check it against the other nodes' and record the new
 *   aggregate.
 * @SMBSRV_CLUSTER_OP_CLOSE: A close changed this node's aggregate: record it
 *   (an empty one removes the node's record of the file).
 * @SMBSRV_CLUSTER_OP_LOCK: This node took byte-range locks of a file: check
 *   its list of locks (locks) against the other nodes' and record it; the
 *   other nodes with the file open get it (cluster-view) before the answer.
 * @SMBSRV_CLUSTER_OP_UNLOCK: This node released byte-range locks of a file:
 *   record its list (empty: none left) and push it to the other nodes with the
 *   file open before the answer.
 * @SMBSRV_CLUSTER_OP_CACHING: This node is about to grant its clients caching
 *   of a file beyond what its record says: record the aggregate with the
 *   caching (caching) that the other nodes' opens allow, and answer what they
 *   allow (caching).
 * @SMBSRV_CLUSTER_OP_OVERWRITE: As open, for an open that overwrites or
 *   supersedes the file: other nodes' caching is broken as for a writer,
 *   whatever the open's access.
 * @SMBSRV_CLUSTER_OP_DELETE_PENDING: The file became pending deletion on this
 *   node (a delete on close, a disposition set): record it (dp.STREAM) and
 *   push it to the other nodes with the file open before the answer.
 * @SMBSRV_CLUSTER_OP_DELETE_CLEARED: A disposition cleared the file's pending
 *   deletion: remove the record's and push that to the other nodes with the
 *   file open.
 * @SMBSRV_CLUSTER_OP_UNLINK: This node's last open of a file pending deletion
 *   closes: as close, and SUCCESS when no other node has the file open (its
 *   pending deletion leaves the record: this node removes the name),
 *   DELETE_PENDING when one has (recorded, pushed: the last close cluster-wide
 *   removes it).
 * @SMBSRV_CLUSTER_OP_OPENED: A rename would replace the file: ACCESS_DENIED
 *   when another node has it open, SUCCESS when none has.
 * @SMBSRV_CLUSTER_OP_HANDLES: The file was renamed: the other nodes whose
 *   holders cache its handle (H) break them out of it, as this node's are.
 * @SMBSRV_CLUSTER_OP_RENAME_CHECK: A directory (ino) is about to be renamed:
 *   ACCESS_DENIED when another node has anything below it open (each node
 *   asked by a cluster-view rename-check), SUCCESS when none has.
 * @SMBSRV_CLUSTER_OP_DIR_LEASE: This node grants its clients a lease on a
 *   directory (caching not 0) or its last lease on it went (caching 0): record
 *   it and tell every node before the answer, so that they mark the directory
 *   (cluster-view dirmark) and report its changes.
 * @SMBSRV_CLUSTER_OP_DIR_CHANGED: An entry of a directory that another node
 *   leases was created, deleted or renamed, or a file in it modified, through
 *   this node: the nodes leasing it break their leases (cluster-view
 *   dirchange). Nobody waits for the answer.
 */
enum smbsrv_cluster_op {
	SMBSRV_CLUSTER_OP_OPEN,
	SMBSRV_CLUSTER_OP_CLOSE,
	SMBSRV_CLUSTER_OP_LOCK,
	SMBSRV_CLUSTER_OP_UNLOCK,
	SMBSRV_CLUSTER_OP_CACHING,
	SMBSRV_CLUSTER_OP_OVERWRITE,
	SMBSRV_CLUSTER_OP_DELETE_PENDING,
	SMBSRV_CLUSTER_OP_DELETE_CLEARED,
	SMBSRV_CLUSTER_OP_UNLINK,
	SMBSRV_CLUSTER_OP_OPENED,
	SMBSRV_CLUSTER_OP_HANDLES,
	SMBSRV_CLUSTER_OP_RENAME_CHECK,
	SMBSRV_CLUSTER_OP_DIR_LEASE,
	SMBSRV_CLUSTER_OP_DIR_CHANGED,
};

/**
 * enum smbsrv_cluster_push - What a cluster-view brings (cluster mode).
 * @SMBSRV_CLUSTER_PUSH_LOCKS: Another node's byte-range locks of a file
 *   (locks).
 * @SMBSRV_CLUSTER_PUSH_BREAK: Another node opens the file: break this node's
 *   holders out of the lease bits caching, as a local process's open would.
 * @SMBSRV_CLUSTER_PUSH_WAKE: Another node's caching of the file went down:
 *   CREATEs waiting for it run again.
 * @SMBSRV_CLUSTER_PUSH_DELETE: Another node made the file pending deletion:
 *   new opens here get DELETE_PENDING, holders give up handle caching, and the
 *   last close (this node's, if it is the last cluster-wide) removes it.
 * @SMBSRV_CLUSTER_PUSH_UNDELETE: Another node cleared the file's pending
 *   deletion.
 * @SMBSRV_CLUSTER_PUSH_RENAME_CHECK: Another node is about to rename the
 *   directory ino: the module refuses the request (EBUSY) when it has anything
 *   below it open.
 * @SMBSRV_CLUSTER_PUSH_DIRMARK: Another node leases the directory ino (caching
 *   not 0), or none does any more (caching 0): this node reports its changes
 *   (cluster-req dir-changed) while marked.
 * @SMBSRV_CLUSTER_PUSH_DIRCHANGE: An entry of the directory ino changed
 *   through another node: its leases here break to none, as for a local
 *   change.
 */
enum smbsrv_cluster_push {
	SMBSRV_CLUSTER_PUSH_LOCKS = 1,
	SMBSRV_CLUSTER_PUSH_BREAK,
	SMBSRV_CLUSTER_PUSH_WAKE,
	SMBSRV_CLUSTER_PUSH_DELETE,
	SMBSRV_CLUSTER_PUSH_UNDELETE,
	SMBSRV_CLUSTER_PUSH_RENAME_CHECK,
	SMBSRV_CLUSTER_PUSH_DIRMARK,
	SMBSRV_CLUSTER_PUSH_DIRCHANGE,
};

/**
 * enum smbsrv_daemon_state - Whether a control daemon is attached to the
 *   module.
 * @SMBSRV_DAEMON_STATE_ABSENT: No daemon attached; new sessions cannot be
 *   authenticated.
 * @SMBSRV_DAEMON_STATE_RUNNING: A daemon sent its start-up message and its
 *   socket is open.
 */
enum smbsrv_daemon_state {
	SMBSRV_DAEMON_STATE_ABSENT,
	SMBSRV_DAEMON_STATE_RUNNING,
};

/**
 * enum smbsrv_config_opt - A three-way setting as ksmbd.conf spells it.
 */
enum smbsrv_config_opt {
	SMBSRV_CONFIG_OPT_DISABLED,
	SMBSRV_CONFIG_OPT_AUTO,
	SMBSRV_CONFIG_OPT_MANDATORY,
};

/**
 * enum smbsrv_route_policy - Which workqueue runs eligible requests.
 */
enum smbsrv_route_policy {
	SMBSRV_ROUTE_POLICY_PERCPU,
	SMBSRV_ROUTE_POLICY_UNBOUND,
	SMBSRV_ROUTE_POLICY_ADAPTIVE,
};

/**
 * enum smbsrv_session_flags - What kind of logon a session setup produced.
 * @SMBSRV_SESSION_FLAGS_GUEST: Mapped to the guest account.
 * @SMBSRV_SESSION_FLAGS_ANONYMOUS: Null session.
 * @SMBSRV_SESSION_FLAGS_KERBEROS: Logged on with Kerberos (else NTLMSSP).
 */
enum smbsrv_session_flags {
	SMBSRV_SESSION_FLAGS_GUEST = 1,
	SMBSRV_SESSION_FLAGS_ANONYMOUS = 2,
	SMBSRV_SESSION_FLAGS_KERBEROS = 4,
};

/**
 * enum smbsrv_share_flags - Share properties decided by the daemon for one
 *   tree connect.
 * @SMBSRV_SHARE_FLAGS_READ_ONLY: The user may not modify anything on this
 *   tree.
 * @SMBSRV_SHARE_FLAGS_IPC: The IPC$ share (named pipes), not a directory.
 * @SMBSRV_SHARE_FLAGS_ENCRYPT: Data on this tree must be encrypted (smb3
 *   encryption).
 * @SMBSRV_SHARE_FLAGS_STREAMS: Named streams kept in xattrs (vfs objects =
 *   streams_xattr).
 * @SMBSRV_SHARE_FLAGS_ACL_XATTR: NT ACLs kept in an xattr (vfs objects =
 *   acl_xattr).
 * @SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE: Directory listings leave out what the
 *   user may not read (hide unreadable = yes): access-based enumeration.
 * @SMBSRV_SHARE_FLAGS_INHERIT_PERMISSIONS: New files and directories take
 *   their modes from their parent (inherit permissions).
 * @SMBSRV_SHARE_FLAGS_CASE_SENSITIVE: Names are looked up as they are spelt
 *   (case sensitive = yes); without it, a name that misses is matched without
 *   case.
 * @SMBSRV_SHARE_FLAGS_SHADOW_COPY: Previous versions from a snapshot directory
 *   (vfs objects = shadow_copy2); the share's snap-* attributes say where.
 * @SMBSRV_SHARE_FLAGS_POSIX: SMB3.1.1 POSIX extensions on this share (smb3
 *   unix extensions = yes) for clients that negotiated them.
 * @SMBSRV_SHARE_FLAGS_FRUIT: Apple's SMB extensions on this share (vfs objects
 *   = fruit); the share's fruit-* attributes say how.
 */
enum smbsrv_share_flags {
	SMBSRV_SHARE_FLAGS_READ_ONLY = 1,
	SMBSRV_SHARE_FLAGS_IPC = 2,
	SMBSRV_SHARE_FLAGS_ENCRYPT = 4,
	SMBSRV_SHARE_FLAGS_BROWSEABLE = 8,
	SMBSRV_SHARE_FLAGS_GUEST_OK = 16,
	SMBSRV_SHARE_FLAGS_OPLOCKS = 32,
	SMBSRV_SHARE_FLAGS_HIDE_DOT_FILES = 64,
	SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES = 128,
	SMBSRV_SHARE_FLAGS_FOLLOW_SYMLINKS = 256,
	SMBSRV_SHARE_FLAGS_STREAMS = 512,
	SMBSRV_SHARE_FLAGS_ACL_XATTR = 1024,
	SMBSRV_SHARE_FLAGS_INHERIT_OWNER = 2048,
	SMBSRV_SHARE_FLAGS_CROSSMNT = 4096,
	SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE = 8192,
	SMBSRV_SHARE_FLAGS_INHERIT_PERMISSIONS = 16384,
	SMBSRV_SHARE_FLAGS_CASE_SENSITIVE = 32768,
	SMBSRV_SHARE_FLAGS_SHADOW_COPY = 65536,
	SMBSRV_SHARE_FLAGS_POSIX = 131072,
	SMBSRV_SHARE_FLAGS_FRUIT = 262144,
};

/**
 * enum smbsrv_snap_sort - The order FSCTL_SRV_ENUMERATE_SNAPSHOTS lists
 *   snapshots in (shadow:sort).
 */
enum smbsrv_snap_sort {
	SMBSRV_SNAP_SORT_UNSORTED,
	SMBSRV_SNAP_SORT_ASC,
	SMBSRV_SNAP_SORT_DESC,
};

/**
 * enum smbsrv_rpc_op - A named-pipe operation on IPC$.
 */
enum smbsrv_rpc_op {
	SMBSRV_RPC_OP_OPEN,
	SMBSRV_RPC_OP_CLOSE,
	SMBSRV_RPC_OP_WRITE,
	SMBSRV_RPC_OP_READ,
	SMBSRV_RPC_OP_TRANSACT,
};

/**
 * enum smbsrv_audit_op - An audited operation (Samba's full_audit names where
 *   they fit; logon and logoff are smbsrv's own). A share's audit masks have
 *   bit 1 << op for each operation audited.
 */
enum smbsrv_audit_op {
	SMBSRV_AUDIT_OP_LOGON,
	SMBSRV_AUDIT_OP_LOGOFF,
	SMBSRV_AUDIT_OP_CONNECT,
	SMBSRV_AUDIT_OP_DISCONNECT,
	SMBSRV_AUDIT_OP_CREATE_FILE,
	SMBSRV_AUDIT_OP_PWRITE,
	SMBSRV_AUDIT_OP_RENAMEAT,
	SMBSRV_AUDIT_OP_UNLINKAT,
	SMBSRV_AUDIT_OP_FSET_NT_ACL,
};

/**
 * enum smbsrv_fruit_flags - How a fruit share serves Macs (Samba's fruit:*
 *   parameters).
 * @SMBSRV_FRUIT_FLAGS_AAPL: The AAPL create context is answered (fruit:aapl,
 *   global).
 * @SMBSRV_FRUIT_FLAGS_METADATA_NETATALK: AFP_AfpInfo is read from and written
 *   to netatalk's org.netatalk.Metadata xattr (fruit:metadata = netatalk);
 *   else it is a stream of its own (fruit:metadata = stream).
 * @SMBSRV_FRUIT_FLAGS_TIME_MACHINE: The volume capabilities offer full sync
 *   (fruit:time machine).
 * @SMBSRV_FRUIT_FLAGS_POSIX_RENAME: A directory with open files below it may
 *   be renamed by a Mac (fruit:posix_rename).
 * @SMBSRV_FRUIT_FLAGS_ZERO_FILE_ID: File IDs read as 0 to a Mac
 *   (fruit:zero_file_id).
 * @SMBSRV_FRUIT_FLAGS_NFS_ACES: UNIX modes as NFS ACEs, and in listings
 *   (fruit:nfs_aces).
 * @SMBSRV_FRUIT_FLAGS_COPYFILE: The copy-chunk request without chunks copies a
 *   whole file with its streams (fruit:copyfile, global).
 * @SMBSRV_FRUIT_FLAGS_RSIZE: Listings carry the resource fork's size
 *   (readdir_attr:aapl_rsize).
 * @SMBSRV_FRUIT_FLAGS_FINDER_INFO: Listings carry Finder info
 *   (readdir_attr:aapl_finder_info).
 * @SMBSRV_FRUIT_FLAGS_MAX_ACCESS: Listings carry the user's maximal access
 *   (readdir_attr:aapl_max_access).
 * @SMBSRV_FRUIT_FLAGS_CONVERT_ADOUBLE: A file's AppleDouble "._" file is
 *   converted to its streams when a Mac lists the directory or opens an Apple
 *   stream of it (fruit:convert_adouble).
 * @SMBSRV_FRUIT_FLAGS_WIPE_BLANK_RFORK: That conversion drops a resource fork
 *   that only says it was left blank
 *   (fruit:wipe_intentionally_left_blank_rfork).
 * @SMBSRV_FRUIT_FLAGS_DELETE_EMPTY_ADFILES: That conversion removes the "._"
 *   file once nothing is left in it (fruit:delete_empty_adfiles).
 */
enum smbsrv_fruit_flags {
	SMBSRV_FRUIT_FLAGS_AAPL = 1,
	SMBSRV_FRUIT_FLAGS_METADATA_NETATALK = 2,
	SMBSRV_FRUIT_FLAGS_TIME_MACHINE = 4,
	SMBSRV_FRUIT_FLAGS_POSIX_RENAME = 8,
	SMBSRV_FRUIT_FLAGS_ZERO_FILE_ID = 16,
	SMBSRV_FRUIT_FLAGS_NFS_ACES = 32,
	SMBSRV_FRUIT_FLAGS_COPYFILE = 64,
	SMBSRV_FRUIT_FLAGS_RSIZE = 128,
	SMBSRV_FRUIT_FLAGS_FINDER_INFO = 256,
	SMBSRV_FRUIT_FLAGS_MAX_ACCESS = 512,
	SMBSRV_FRUIT_FLAGS_CONVERT_ADOUBLE = 1024,
	SMBSRV_FRUIT_FLAGS_WIPE_BLANK_RFORK = 2048,
	SMBSRV_FRUIT_FLAGS_DELETE_EMPTY_ADFILES = 4096,
};

enum {
	SMBSRV_A_KNOBS_TCP_PORT = 1,
	SMBSRV_A_KNOBS_MAX_CONNECTIONS,
	SMBSRV_A_KNOBS_SMB2_MAX_READ,
	SMBSRV_A_KNOBS_SMB2_MAX_WRITE,
	SMBSRV_A_KNOBS_SMB2_MAX_TRANS,
	SMBSRV_A_KNOBS_SMB2_MAX_CREDITS,
	SMBSRV_A_KNOBS_MIN_DIALECT,
	SMBSRV_A_KNOBS_MAX_DIALECT,
	SMBSRV_A_KNOBS_SIGNING,
	SMBSRV_A_KNOBS_ENCRYPTION,
	SMBSRV_A_KNOBS_MAX_IP_CONNECTIONS,
	SMBSRV_A_KNOBS_MAX_SESSIONS,
	SMBSRV_A_KNOBS_MAX_OPEN_FILES,
	SMBSRV_A_KNOBS_DEADTIME,
	SMBSRV_A_KNOBS_UPCALL_TIMEOUT,
	SMBSRV_A_KNOBS_FRAME_TIMEOUT,
	SMBSRV_A_KNOBS_ROUTE_POLICY,
	SMBSRV_A_KNOBS_SPLICE_THRESHOLD,
	SMBSRV_A_KNOBS_RESPONSE_BATCH,
	SMBSRV_A_KNOBS_INLINE_READS,
	SMBSRV_A_KNOBS_NETBIOS_NAME,
	SMBSRV_A_KNOBS_LOGON_TIMEOUT,
	SMBSRV_A_KNOBS_SMB2_LEASES,
	SMBSRV_A_KNOBS_DURABLE_HANDLES,
	SMBSRV_A_KNOBS_DURABLE_HANDLE_TIMEOUT,
	SMBSRV_A_KNOBS_MULTICHANNEL,
	SMBSRV_A_KNOBS_SMB3_UNIX_EXTENSIONS,
	SMBSRV_A_KNOBS_SERVER_MAX_OPEN_FILES,
	SMBSRV_A_KNOBS_MAX_OPEN_FILES_PER_USER,
	SMBSRV_A_KNOBS_MIN_RECEIVEFILE_SIZE,

	__SMBSRV_A_KNOBS_MAX,
	SMBSRV_A_KNOBS_MAX = (__SMBSRV_A_KNOBS_MAX - 1)
};

enum {
	SMBSRV_A_SERVER_MODULE_VERSION = 1,
	SMBSRV_A_SERVER_DAEMON_STATE,
	SMBSRV_A_SERVER_DAEMON_PID,
	SMBSRV_A_SERVER_LISTEN_PORT,
	SMBSRV_A_SERVER_KNOBS,
	SMBSRV_A_SERVER_NEGOTIATE_BLOB,
	SMBSRV_A_SERVER_CONNECTIONS,
	SMBSRV_A_SERVER_SESSIONS,
	SMBSRV_A_SERVER_HOST_RULES,
	SMBSRV_A_SERVER_CONNS_REFUSED,
	SMBSRV_A_SERVER_CONNS_EVICTED,
	SMBSRV_A_SERVER_CONNS_LOGON_EXPIRED,
	SMBSRV_A_SERVER_CONNS_IDLE_CLOSED,
	SMBSRV_A_SERVER_FOLD_SCANS,
	SMBSRV_A_SERVER_FOLD_ENTRIES,
	SMBSRV_A_SERVER_FOLD_CACHED,
	SMBSRV_A_SERVER_SHARE_USE,
	SMBSRV_A_SERVER_LISTEN_ADDR,
	SMBSRV_A_SERVER_OPENS,
	SMBSRV_A_SERVER_OPENS_REFUSED,
	SMBSRV_A_SERVER_OPENS_REFUSED_USER,
	SMBSRV_A_SERVER_CLUSTERING,

	__SMBSRV_A_SERVER_MAX,
	SMBSRV_A_SERVER_MAX = (__SMBSRV_A_SERVER_MAX - 1)
};

enum {
	SMBSRV_A_AUTH_HANDLE = 1,
	SMBSRV_A_AUTH_SESSION_ID,
	SMBSRV_A_AUTH_CLIENT_ADDR,
	SMBSRV_A_AUTH_DIALECT,
	SMBSRV_A_AUTH_BLOB,
	SMBSRV_A_AUTH_STATUS,
	SMBSRV_A_AUTH_SESSION_KEY,
	SMBSRV_A_AUTH_UID,
	SMBSRV_A_AUTH_GID,
	SMBSRV_A_AUTH_GROUPS,
	SMBSRV_A_AUTH_FLAGS,
	SMBSRV_A_AUTH_USER,
	SMBSRV_A_AUTH_DOMAIN,
	SMBSRV_A_AUTH_PRINCIPAL,
	SMBSRV_A_AUTH_SID,

	__SMBSRV_A_AUTH_MAX,
	SMBSRV_A_AUTH_MAX = (__SMBSRV_A_AUTH_MAX - 1)
};

enum {
	SMBSRV_A_SHARE_NAME = 1,
	SMBSRV_A_SHARE_PATH,
	SMBSRV_A_SHARE_FLAGS,
	SMBSRV_A_SHARE_FORCE_UID,
	SMBSRV_A_SHARE_FORCE_GID,
	SMBSRV_A_SHARE_CREATE_MASK,
	SMBSRV_A_SHARE_DIRECTORY_MASK,
	SMBSRV_A_SHARE_FORCE_CREATE_MODE,
	SMBSRV_A_SHARE_FORCE_DIRECTORY_MODE,
	SMBSRV_A_SHARE_VETO_FILES,
	SMBSRV_A_SHARE_MAX_CONNECTIONS,
	SMBSRV_A_SHARE_HIDE_FILES,
	SMBSRV_A_SHARE_SNAP_DIR,
	SMBSRV_A_SHARE_SNAP_SUBDIR,
	SMBSRV_A_SHARE_SNAP_FORMAT,
	SMBSRV_A_SHARE_SNAP_SORT,
	SMBSRV_A_SHARE_SNAP_ZONE,
	SMBSRV_A_SHARE_AUDIT_SUCCESS,
	SMBSRV_A_SHARE_AUDIT_FAILURE,
	SMBSRV_A_SHARE_FRUIT_FLAGS,
	SMBSRV_A_SHARE_FRUIT_MODEL,
	SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE,

	__SMBSRV_A_SHARE_MAX,
	SMBSRV_A_SHARE_MAX = (__SMBSRV_A_SHARE_MAX - 1)
};

enum {
	SMBSRV_A_SHARE_USE_NAME = 1,
	SMBSRV_A_SHARE_USE_TREES,
	SMBSRV_A_SHARE_USE_MAX_CONNECTIONS,

	__SMBSRV_A_SHARE_USE_MAX,
	SMBSRV_A_SHARE_USE_MAX = (__SMBSRV_A_SHARE_USE_MAX - 1)
};

enum {
	SMBSRV_A_TREE_HANDLE = 1,
	SMBSRV_A_TREE_SESSION_ID,
	SMBSRV_A_TREE_USER,
	SMBSRV_A_TREE_UID,
	SMBSRV_A_TREE_SESSION_FLAGS,
	SMBSRV_A_TREE_CLIENT_ADDR,
	SMBSRV_A_TREE_SHARE_NAME,
	SMBSRV_A_TREE_STATUS,
	SMBSRV_A_TREE_SHARE,

	__SMBSRV_A_TREE_MAX,
	SMBSRV_A_TREE_MAX = (__SMBSRV_A_TREE_MAX - 1)
};

enum {
	SMBSRV_A_RPC_HANDLE = 1,
	SMBSRV_A_RPC_SESSION_ID,
	SMBSRV_A_RPC_PIPE_ID,
	SMBSRV_A_RPC_OP,
	SMBSRV_A_RPC_PIPE_NAME,
	SMBSRV_A_RPC_USER,
	SMBSRV_A_RPC_DATA,
	SMBSRV_A_RPC_MAX_OUT,
	SMBSRV_A_RPC_STATUS,

	__SMBSRV_A_RPC_MAX,
	SMBSRV_A_RPC_MAX = (__SMBSRV_A_RPC_MAX - 1)
};

enum {
	SMBSRV_A_SESSION_SESSION_ID = 1,
	SMBSRV_A_SESSION_CONN_ID,
	SMBSRV_A_SESSION_USER,
	SMBSRV_A_SESSION_DOMAIN,
	SMBSRV_A_SESSION_CLIENT_ADDR,
	SMBSRV_A_SESSION_DIALECT,
	SMBSRV_A_SESSION_FLAGS,
	SMBSRV_A_SESSION_SIGNED,
	SMBSRV_A_SESSION_ENCRYPTED,
	SMBSRV_A_SESSION_TREES,
	SMBSRV_A_SESSION_OPEN_FILES,
	SMBSRV_A_SESSION_AGE,
	SMBSRV_A_SESSION_CHANNEL,
	SMBSRV_A_SESSION_PRINCIPAL,

	__SMBSRV_A_SESSION_MAX,
	SMBSRV_A_SESSION_MAX = (__SMBSRV_A_SESSION_MAX - 1)
};

enum {
	SMBSRV_A_CONNECTION_CONN_ID = 1,
	SMBSRV_A_CONNECTION_CLIENT_ADDR,
	SMBSRV_A_CONNECTION_DIALECT,
	SMBSRV_A_CONNECTION_SESSIONS,
	SMBSRV_A_CONNECTION_CREDITS,
	SMBSRV_A_CONNECTION_REQUESTS,
	SMBSRV_A_CONNECTION_AGE,

	__SMBSRV_A_CONNECTION_MAX,
	SMBSRV_A_CONNECTION_MAX = (__SMBSRV_A_CONNECTION_MAX - 1)
};

enum {
	SMBSRV_A_KILL_SESSION_ID = 1,
	SMBSRV_A_KILL_CONN_ID,

	__SMBSRV_A_KILL_MAX,
	SMBSRV_A_KILL_MAX = (__SMBSRV_A_KILL_MAX - 1)
};

enum {
	SMBSRV_A_QUEUE_INDEX = 1,
	SMBSRV_A_QUEUE_NAME,
	SMBSRV_A_QUEUE_UNBOUND,
	SMBSRV_A_QUEUE_QUEUED,
	SMBSRV_A_QUEUE_COMPLETED,
	SMBSRV_A_QUEUE_INFLIGHT,
	SMBSRV_A_QUEUE_INFLIGHT_MAX,
	SMBSRV_A_QUEUE_WAIT_NS,
	SMBSRV_A_QUEUE_SENDS,
	SMBSRV_A_QUEUE_RESPONSES,
	SMBSRV_A_QUEUE_BATCHED_SENDS,
	SMBSRV_A_QUEUE_BATCH_MAX,

	__SMBSRV_A_QUEUE_MAX,
	SMBSRV_A_QUEUE_MAX = (__SMBSRV_A_QUEUE_MAX - 1)
};

enum {
	SMBSRV_A_READ_STATS_SPLICED = 1,
	SMBSRV_A_READ_STATS_SPLICED_BYTES,
	SMBSRV_A_READ_STATS_COPIED,
	SMBSRV_A_READ_STATS_COPIED_BYTES,
	SMBSRV_A_READ_STATS_COPY_OFF,
	SMBSRV_A_READ_STATS_COPY_SMALL,
	SMBSRV_A_READ_STATS_COPY_STREAM,
	SMBSRV_A_READ_STATS_COPY_NONREG,
	SMBSRV_A_READ_STATS_COPY_COMPOUND,
	SMBSRV_A_READ_STATS_COPY_NOCACHE,
	SMBSRV_A_READ_STATS_COPY_ERROR,
	SMBSRV_A_READ_STATS_INLINE_HITS,
	SMBSRV_A_READ_STATS_INLINE_MISSES,
	SMBSRV_A_READ_STATS_INLINE_DEFERRED,
	SMBSRV_A_READ_STATS_PAGES_INFLIGHT,

	__SMBSRV_A_READ_STATS_MAX,
	SMBSRV_A_READ_STATS_MAX = (__SMBSRV_A_READ_STATS_MAX - 1)
};

enum {
	SMBSRV_A_WRITE_STATS_ONE_COPY = 1,
	SMBSRV_A_WRITE_STATS_ONE_COPY_BYTES,
	SMBSRV_A_WRITE_STATS_COPIED,
	SMBSRV_A_WRITE_STATS_COPIED_BYTES,
	SMBSRV_A_WRITE_STATS_COPY_OFF,
	SMBSRV_A_WRITE_STATS_COPY_SMALL,
	SMBSRV_A_WRITE_STATS_ONE_COPY_SIGNED,
	SMBSRV_A_WRITE_STATS_COPY_SEALED,
	SMBSRV_A_WRITE_STATS_COPY_COMPOUND,
	SMBSRV_A_WRITE_STATS_COPY_STREAM,
	SMBSRV_A_WRITE_STATS_COPY_OTHER,
	SMBSRV_A_WRITE_STATS_ONE_COPY_SEALED,
	SMBSRV_A_WRITE_STATS_INLINE,
	SMBSRV_A_WRITE_STATS_INLINE_DEPTH,
	SMBSRV_A_WRITE_STATS_INLINE_DEFERRED,

	__SMBSRV_A_WRITE_STATS_MAX,
	SMBSRV_A_WRITE_STATS_MAX = (__SMBSRV_A_WRITE_STATS_MAX - 1)
};

enum {
	SMBSRV_A_OPEN_SESSION_ID = 1,
	SMBSRV_A_OPEN_TREE_ID,
	SMBSRV_A_OPEN_PERSISTENT_ID,
	SMBSRV_A_OPEN_VOLATILE_ID,
	SMBSRV_A_OPEN_PATH,
	SMBSRV_A_OPEN_SHARE,
	SMBSRV_A_OPEN_ACCESS,
	SMBSRV_A_OPEN_OPLOCK,
	SMBSRV_A_OPEN_LEASE_STATE,
	SMBSRV_A_OPEN_LEASE_KEY,
	SMBSRV_A_OPEN_LEASE_EPOCH,
	SMBSRV_A_OPEN_BREAKING,
	SMBSRV_A_OPEN_DURABLE,
	SMBSRV_A_OPEN_DISCONNECTED_LEFT,

	__SMBSRV_A_OPEN_MAX,
	SMBSRV_A_OPEN_MAX = (__SMBSRV_A_OPEN_MAX - 1)
};

enum {
	SMBSRV_A_COMMAND_STATS_COMMAND = 1,
	SMBSRV_A_COMMAND_STATS_REQUESTS,
	SMBSRV_A_COMMAND_STATS_ERRORS,
	SMBSRV_A_COMMAND_STATS_LATENCY_NS,
	SMBSRV_A_COMMAND_STATS_LATENCY_BUCKET,

	__SMBSRV_A_COMMAND_STATS_MAX,
	SMBSRV_A_COMMAND_STATS_MAX = (__SMBSRV_A_COMMAND_STATS_MAX - 1)
};

enum {
	SMBSRV_A_STATS_WRITE_BYTES = 1,
	SMBSRV_A_STATS_OPLOCK_BREAKS,
	SMBSRV_A_STATS_LEASE_BREAKS,
	SMBSRV_A_STATS_OPEN_FILES,
	SMBSRV_A_STATS_LATENCY_BOUND,
	SMBSRV_A_STATS_COMMAND,
	SMBSRV_A_STATS_AUDIT_RECORDS,
	SMBSRV_A_STATS_AUDIT_DROPPED,
	SMBSRV_A_STATS_BAD_SIGNATURES,

	__SMBSRV_A_STATS_MAX,
	SMBSRV_A_STATS_MAX = (__SMBSRV_A_STATS_MAX - 1)
};

enum {
	SMBSRV_A_AUDIT_OP = 1,
	SMBSRV_A_AUDIT_STATUS,
	SMBSRV_A_AUDIT_SESSION_ID,
	SMBSRV_A_AUDIT_USER,
	SMBSRV_A_AUDIT_CLIENT_ADDR,
	SMBSRV_A_AUDIT_SHARE,
	SMBSRV_A_AUDIT_PATH,
	SMBSRV_A_AUDIT_PATH2,
	SMBSRV_A_AUDIT_ACCESS,
	SMBSRV_A_AUDIT_DROPPED,
	SMBSRV_A_AUDIT_RATE,
	SMBSRV_A_AUDIT_SESSION_SUCCESS,

	__SMBSRV_A_AUDIT_MAX,
	SMBSRV_A_AUDIT_MAX = (__SMBSRV_A_AUDIT_MAX - 1)
};

enum {
	SMBSRV_A_CLUSTER_HANDLE = 1,
	SMBSRV_A_CLUSTER_OP,
	SMBSRV_A_CLUSTER_INO,
	SMBSRV_A_CLUSTER_STREAM,
	SMBSRV_A_CLUSTER_ACCESS,
	SMBSRV_A_CLUSTER_SHARE,
	SMBSRV_A_CLUSTER_NODE_ACCESS,
	SMBSRV_A_CLUSTER_NODE_SHARE,
	SMBSRV_A_CLUSTER_STATUS,
	SMBSRV_A_CLUSTER_LOCKS,
	SMBSRV_A_CLUSTER_NODE,
	SMBSRV_A_CLUSTER_VERSION,
	SMBSRV_A_CLUSTER_DEADLINE,
	SMBSRV_A_CLUSTER_INCARNATION,
	SMBSRV_A_CLUSTER_CACHING,
	SMBSRV_A_CLUSTER_PUSH,

	__SMBSRV_A_CLUSTER_MAX,
	SMBSRV_A_CLUSTER_MAX = (__SMBSRV_A_CLUSTER_MAX - 1)
};

enum {
	SMBSRV_CMD_STARTUP = 1,
	SMBSRV_CMD_STATUS_GET,
	SMBSRV_CMD_KNOBS_SET,
	SMBSRV_CMD_SESSION_SETUP_REQ,
	SMBSRV_CMD_SESSION_SETUP_DONE,
	SMBSRV_CMD_TREE_CONNECT_REQ,
	SMBSRV_CMD_TREE_CONNECT_DONE,
	SMBSRV_CMD_RPC_REQ,
	SMBSRV_CMD_RPC_DONE,
	SMBSRV_CMD_SESSION_GET,
	SMBSRV_CMD_CONNECTION_GET,
	SMBSRV_CMD_KILL,
	SMBSRV_CMD_QUEUE_GET,
	SMBSRV_CMD_READ_STATS_GET,
	SMBSRV_CMD_OPEN_GET,
	SMBSRV_CMD_STATS_GET,
	SMBSRV_CMD_AUDIT_SUBSCRIBE,
	SMBSRV_CMD_AUDIT_RECORD,
	SMBSRV_CMD_WRITE_STATS_GET,
	SMBSRV_CMD_CLUSTER_REQ,
	SMBSRV_CMD_CLUSTER_DONE,
	SMBSRV_CMD_CLUSTER_VIEW,
	SMBSRV_CMD_CLUSTER_ALIVE,

	__SMBSRV_CMD_MAX,
	SMBSRV_CMD_MAX = (__SMBSRV_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_SMBSRV_H */
