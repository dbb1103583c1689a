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
};

static inline void smb_cluster_agg_init(struct smb_cluster_agg *a)
{
	a->access = 0;
	a->share = FILE_SHARE_ALL;
}

void smb_cluster_agg_add(struct smb_cluster_agg *a, u32 access, u32 share);

static inline bool smb_cluster_agg_eq(const struct smb_cluster_agg *a,
				      const struct smb_cluster_agg *b)
{
	return a->access == b->access && a->share == b->share;
}

/*
 * The value of an `o.NODE.S` key: a version byte (1), three zero bytes,
 * access and share as little-endian 32-bit words.  Longer values (a
 * later version's additions) decode to their first 12 bytes.
 */
#define SMB_CLUSTER_REC_LEN	12
#define SMB_CLUSTER_REC_V1	1

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

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_CLUSTER_H */
