/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cluster mode's pure rules (Documentation/design-cluster.md): the
 * MS-FSA share access check, a node's aggregate of its opens of a file
 * (what the cluster record keeps of them), the record's value format and
 * its omap key names.  Shared by the module (which computes aggregates)
 * and smbsrvd (which reads other nodes' records from the store: network
 * input, so every length is checked here).
 */
#ifndef _SMBSRV_WIRE_CLUSTER_H
#define _SMBSRV_WIRE_CLUSTER_H

#include "compat.h"
#include "fscc.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * MS-FSA 2.1.5.1.2: whether an open with @access and @share conflicts
 * with one that has @o_access and @o_share.  Only opens with data access
 * (FILE_DATA_ACCESS) take part.
 */
bool smb_share_conflict(u32 access, u32 share, u32 o_access, u32 o_share);

/*
 * A node's aggregate of its opens of one file or stream: the union of
 * the access masks and the intersection of the share modes of the opens
 * that have data access.  Exact for sharing: an open conflicts with some
 * open of the node iff it conflicts with the aggregate (every term of
 * the check is monotone in the other's access and anti-monotone in its
 * share).  @access 0: no open with data access, nothing to record.
 */
struct smb_cluster_agg {
	u32 access;
	u32 share;
	u32 caching;	/* the strongest caching granted: SMB2_LEASE_* bits */
};

static inline void smb_cluster_agg_init(struct smb_cluster_agg *a)
{
	a->access = 0;
	a->share = FILE_SHARE_ALL;
	a->caching = 0;
}

void smb_cluster_agg_add(struct smb_cluster_agg *a, u32 access, u32 share);

static inline bool smb_cluster_agg_eq(const struct smb_cluster_agg *a,
				      const struct smb_cluster_agg *b)
{
	return a->access == b->access && a->share == b->share &&
	       a->caching == b->caching;
}

/*
 * The value of an `o.NODE.S` key: a version byte (1), three zero bytes,
 * access and share as little-endian 32-bit words, then the caching
 * (little-endian 32-bit, lease bits R 1, H 2, W 4; absent in a 12-byte
 * value: none).  Longer values (a later version's additions) decode to
 * their first 16 bytes.
 */
#define SMB_CLUSTER_REC_MIN	12
#define SMB_CLUSTER_REC_LEN	16
#define SMB_CLUSTER_REC_V1	1
#define SMB_CLUSTER_CACHING	7	/* R | H | W */

/*
 * Cluster caching (design-cluster.md): what another node's open takes
 * from a node caching @held, the record standing in for a kernel lease.
 * @access: the opening node's aggregate access (0: none with data
 * access, nothing to break); @violation: the open conflicts with the
 * holder's share modes.  Any data open elsewhere takes W, a writer
 * (write or append data) takes R and everything with it, a sharing
 * violation takes H (so that the holder's client closes what it keeps
 * open).  The bits the holder must give up.
 */
u32 smb_cluster_break_bits(u32 held, u32 access, bool violation);
/*
 * What a node may cache while another node's aggregate is @o_access:
 * everything when it has no data open, R and H when it does not write,
 * nothing when it writes (H is never granted without R).
 */
u32 smb_cluster_cover(u32 o_access);

void smb_cluster_rec_encode(const struct smb_cluster_agg *a,
			    u8 out[SMB_CLUSTER_REC_LEN]);
/*
 * 0, or -EINVAL (too short, unknown version, reserved bytes not zero,
 * share bits beyond ALL).
 */
int smb_cluster_rec_decode(const void *buf, size_t len,
			   struct smb_cluster_agg *a);

/*
 * Split the omap key @key (@len bytes, not NUL-terminated) of the form
 * "o.NODE.S" (S, the stream's xattr name, may be empty and may contain
 * dots; NODE may not, nor be empty): the node name at @key + 2 for
 * *@node_len bytes, the stream at *@stream_off for *@stream_len bytes.
 * 0, or -EINVAL for any other key.
 */
int smb_cluster_okey_split(const char *key, size_t len, size_t *node_len,
			   size_t *stream_off, size_t *stream_len);
/* The same for keys "KIND.NODE.S" of any one-letter @kind ('b': locks). */
int smb_cluster_key_split(const char *key, size_t len, char kind,
			  size_t *node_len, size_t *stream_off,
			  size_t *stream_len);

/*
 * A node's byte-range locks of one file or stream: the value of its
 * `b.NODE.S` key and the locks of a cluster-view.  Entries of
 * SMB_CLUSTER_LOCK_LEN bytes: offset and length (little-endian 64-bit),
 * flags (little-endian 32-bit: SMB_CLUSTER_LOCK_EXCL, other bits zero).
 * At most SMB_CLUSTER_LOCKS_MAX entries per node and file.
 */
#define SMB_CLUSTER_NODE_MAX	64	/* a node name's bytes */
#define SMB_CLUSTER_LOCK_LEN	20
#define SMB_CLUSTER_LOCK_EXCL	1
#define SMB_CLUSTER_LOCKS_MAX	512

struct smb_cluster_lock {
	u64 offset;
	u64 length;
	bool exclusive;
};

void smb_cluster_lock_encode(const struct smb_cluster_lock *l,
			     u8 out[SMB_CLUSTER_LOCK_LEN]);
/*
 * The number of entries of the list @buf (@len bytes), or -EINVAL (a
 * length not a multiple of the entry, more than SMB_CLUSTER_LOCKS_MAX,
 * unknown flags, a range beyond 2^64 - 1).
 */
int smb_cluster_locks_check(const void *buf, size_t len);
/* Entry @i of a list that passed smb_cluster_locks_check(). */
void smb_cluster_lock_get(const void *buf, size_t i,
			  struct smb_cluster_lock *l);
/*
 * Whether an access or lock request over [@offset, @offset + @length)
 * conflicts with one of the @n locks of the checked list @buf, all held
 * by another node's opens (never the requester's own).
 */
bool smb_cluster_locks_conflict(const void *buf, size_t n, u64 offset,
				u64 length, bool exclusive, bool lock_intent);

/*
 * What a node's notify carries to another node (and the daemon hands its
 * module as a cluster-view), by its kind (the first byte):
 *
 * - SMB_CLUSTER_PUSH_LOCKS (1): @node's locks of file @ino, stream
 *   @stream, as of the record's @version; the rest is the lock list;
 * - SMB_CLUSTER_PUSH_BREAK (2): @node opens the file: the receiver's
 *   holders give up the lease bits @caching (le32, the rest);
 * - SMB_CLUSTER_PUSH_WAKE (3): @node's caching of the file went down:
 *   the receiver's CREATEs waiting for it look again (nothing after);
 * - SMB_CLUSTER_PUSH_DELETE (4): @node made the file pending deletion
 *   (nothing after);
 * - SMB_CLUSTER_PUSH_UNDELETE (5): @node cleared its pending deletion
 *   (nothing after);
 * - SMB_CLUSTER_PUSH_RENAME_CHECK (6): @node is about to rename the
 *   directory @ino: the receiver acknowledges whether it has anything
 *   below it open (nothing after);
 * - SMB_CLUSTER_PUSH_DIRMARK (7): @node leases directory @ino (@caching,
 *   le32, not 0) or no longer does (0); @ino 0 with 0: none of @node's
 *   directories any more (it is gone);
 * - SMB_CLUSTER_PUSH_DIRCHANGE (8): directory @ino changed through
 *   @node: the receiver's leases of it break (nothing after).
 *
 * Then the node name's length (1 to SMB_CLUSTER_NODE_MAX), the stream's
 * (le16, up to 255), ino and version (le64), the node name (letters,
 * digits, '_', '-'), the stream (no NUL), then the kind's payload.
 */
#define SMB_CLUSTER_PUSH_LOCKS	1
#define SMB_CLUSTER_PUSH_BREAK	2
#define SMB_CLUSTER_PUSH_WAKE	3
#define SMB_CLUSTER_PUSH_DELETE	4
#define SMB_CLUSTER_PUSH_UNDELETE	5
#define SMB_CLUSTER_PUSH_RENAME_CHECK	6
#define SMB_CLUSTER_PUSH_DIRMARK	7
#define SMB_CLUSTER_PUSH_DIRCHANGE	8
#define SMB_CLUSTER_PUSH_HDR	20

struct smb_cluster_push {
	u8 kind;
	u64 ino;
	u64 version;
	const char *node;
	size_t node_len;
	const char *stream;
	size_t stream_len;
	const u8 *locks;	/* LOCKS */
	size_t nr_locks;
	u32 caching;		/* BREAK, DIRMARK */
};

/* The kinds whose payload is @caching (le32). */
static inline bool smb_cluster_push_has_caching(u8 kind)
{
	return kind == SMB_CLUSTER_PUSH_BREAK ||
	       kind == SMB_CLUSTER_PUSH_DIRMARK;
}

static inline size_t smb_cluster_push_len(const struct smb_cluster_push *p)
{
	size_t n = SMB_CLUSTER_PUSH_HDR + p->node_len + p->stream_len;

	if (p->kind == SMB_CLUSTER_PUSH_LOCKS)
		return n + p->nr_locks * SMB_CLUSTER_LOCK_LEN;
	return smb_cluster_push_has_caching(p->kind) ? n + 4 : n;
}

/* Into @out, smb_cluster_push_len() bytes; @p as decode would accept. */
void smb_cluster_push_encode(const struct smb_cluster_push *p, u8 *out);
/* 0 with @p pointing into @buf, or -EINVAL. */
int smb_cluster_push_decode(const void *buf, size_t len,
			    struct smb_cluster_push *p);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_CLUSTER_H */
