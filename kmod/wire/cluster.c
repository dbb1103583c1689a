// SPDX-License-Identifier: GPL-2.0
/*
 * Cluster mode's pure rules (see cluster.h).
 */
#include "cluster.h"
#include "lock.h"
#include "oplock.h"

bool smb_share_conflict(u32 access, u32 share, u32 o_access, u32 o_share)
{
	if (!(access & FILE_DATA_ACCESS) || !(o_access & FILE_DATA_ACCESS))
		return false;
	if ((o_access & (FILE_READ_DATA | FILE_EXECUTE)) &&
	    !(share & FILE_SHARE_READ))
		return true;
	if ((o_access & (FILE_WRITE_DATA | FILE_APPEND_DATA)) &&
	    !(share & FILE_SHARE_WRITE))
		return true;
	if ((o_access & DELETE) && !(share & FILE_SHARE_DELETE))
		return true;
	if ((access & (FILE_READ_DATA | FILE_EXECUTE)) &&
	    !(o_share & FILE_SHARE_READ))
		return true;
	if ((access & (FILE_WRITE_DATA | FILE_APPEND_DATA)) &&
	    !(o_share & FILE_SHARE_WRITE))
		return true;
	if ((access & DELETE) && !(o_share & FILE_SHARE_DELETE))
		return true;
	return false;
}

void smb_cluster_agg_add(struct smb_cluster_agg *a, u32 access, u32 share)
{
	if (!(access & FILE_DATA_ACCESS))
		return;
	a->access |= access & FILE_DATA_ACCESS;
	a->share &= share & FILE_SHARE_ALL;
}

u32 smb_cluster_break_bits(u32 held, u32 access, bool violation)
{
	u32 drop = 0;

	if (!(access & FILE_DATA_ACCESS))
		return 0;
	drop |= SMB2_LEASE_WRITE;
	if (access & (FILE_WRITE_DATA | FILE_APPEND_DATA))
		drop |= SMB_CLUSTER_CACHING;
	if (violation)
		drop |= SMB2_LEASE_HANDLE;
	return held & drop;
}

u32 smb_cluster_cover(u32 o_access)
{
	if (!(o_access & FILE_DATA_ACCESS))
		return SMB_CLUSTER_CACHING;
	if (o_access & (FILE_WRITE_DATA | FILE_APPEND_DATA))
		return 0;
	return SMB2_LEASE_READ | SMB2_LEASE_HANDLE;
}

void smb_cluster_rec_encode(const struct smb_cluster_agg *a,
			    u8 out[SMB_CLUSTER_REC_LEN])
{
	out[0] = SMB_CLUSTER_REC_V1;
	out[1] = 0;
	out[2] = 0;
	out[3] = 0;
	put_unaligned_le32(a->access, out + 4);
	put_unaligned_le32(a->share, out + 8);
	put_unaligned_le32(a->caching, out + 12);
}

int smb_cluster_rec_decode(const void *buf, size_t len,
			   struct smb_cluster_agg *a)
{
	const u8 *b = (const u8 *)buf;
	u32 share, caching = 0;

	if (len < SMB_CLUSTER_REC_MIN || b[0] != SMB_CLUSTER_REC_V1 ||
	    b[1] || b[2] || b[3])
		return -EINVAL;
	share = get_unaligned_le32(b + 8);
	if (share & ~FILE_SHARE_ALL)
		return -EINVAL;
	if (len >= SMB_CLUSTER_REC_LEN)
		caching = get_unaligned_le32(b + 12);
	if (caching & ~SMB_CLUSTER_CACHING)
		return -EINVAL;
	a->access = get_unaligned_le32(b + 4);
	a->share = share;
	a->caching = caching;
	return 0;
}

int smb_cluster_okey_split(const char *key, size_t len, size_t *node_len,
			   size_t *stream_off, size_t *stream_len)
{
	return smb_cluster_key_split(key, len, 'o', node_len, stream_off,
				     stream_len);
}

int smb_cluster_key_split(const char *key, size_t len, char kind,
			  size_t *node_len, size_t *stream_off,
			  size_t *stream_len)
{
	size_t i;

	if (len < 4 || key[0] != kind || key[1] != '.')
		return -EINVAL;
	for (i = 2; i < len; i++)
		if (key[i] == '.')
			break;
	if (i == len || i == 2)
		return -EINVAL;
	*node_len = i - 2;
	*stream_off = i + 1;
	*stream_len = len - i - 1;
	return 0;
}

void smb_cluster_lock_encode(const struct smb_cluster_lock *l,
			     u8 out[SMB_CLUSTER_LOCK_LEN])
{
	put_unaligned_le64(l->offset, out);
	put_unaligned_le64(l->length, out + 8);
	put_unaligned_le32(l->exclusive ? SMB_CLUSTER_LOCK_EXCL : 0, out + 16);
}

void smb_cluster_lock_get(const void *buf, size_t i,
			  struct smb_cluster_lock *l)
{
	const u8 *b = (const u8 *)buf + i * SMB_CLUSTER_LOCK_LEN;

	l->offset = get_unaligned_le64(b);
	l->length = get_unaligned_le64(b + 8);
	l->exclusive = get_unaligned_le32(b + 16) & SMB_CLUSTER_LOCK_EXCL;
}

int smb_cluster_locks_check(const void *buf, size_t len)
{
	const u8 *b = (const u8 *)buf;
	size_t n = len / SMB_CLUSTER_LOCK_LEN, i;

	if (len % SMB_CLUSTER_LOCK_LEN || n > SMB_CLUSTER_LOCKS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++, b += SMB_CLUSTER_LOCK_LEN)
		if ((get_unaligned_le32(b + 16) & ~SMB_CLUSTER_LOCK_EXCL) ||
		    !smb2_lock_range_valid(get_unaligned_le64(b),
					   get_unaligned_le64(b + 8)))
			return -EINVAL;
	return (int)n;
}

bool smb_cluster_locks_conflict(const void *buf, size_t n, u64 offset,
				u64 length, bool exclusive, bool lock_intent)
{
	struct smb_cluster_lock l;
	size_t i;

	for (i = 0; i < n; i++) {
		smb_cluster_lock_get(buf, i, &l);
		if (smb2_lock_conflicts(l.offset, l.length, l.exclusive, false,
					offset, length, exclusive,
					lock_intent))
			return true;
	}
	return false;
}

static bool smb_cluster_node_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

void smb_cluster_push_encode(const struct smb_cluster_push *p, u8 *out)
{
	out[0] = p->kind;
	out[1] = (u8)p->node_len;
	out[2] = (u8)p->stream_len;
	out[3] = (u8)(p->stream_len >> 8);
	put_unaligned_le64(p->ino, out + 4);
	put_unaligned_le64(p->version, out + 12);
	out += SMB_CLUSTER_PUSH_HDR;
	memcpy(out, p->node, p->node_len);
	out += p->node_len;
	memcpy(out, p->stream, p->stream_len);
	out += p->stream_len;
	if (p->kind == SMB_CLUSTER_PUSH_LOCKS && p->nr_locks)
		memcpy(out, p->locks, p->nr_locks * SMB_CLUSTER_LOCK_LEN);
	else if (smb_cluster_push_has_caching(p->kind))
		put_unaligned_le32(p->caching, out);
}

int smb_cluster_push_decode(const void *buf, size_t len,
			    struct smb_cluster_push *p)
{
	const u8 *b = (const u8 *)buf;
	size_t nl, sl, i, rest;
	int n;

	if (len < SMB_CLUSTER_PUSH_HDR || b[0] < SMB_CLUSTER_PUSH_LOCKS ||
	    b[0] > SMB_CLUSTER_PUSH_DIRCHANGE)
		return -EINVAL;
	p->kind = b[0];
	nl = b[1];
	sl = b[2] | ((size_t)b[3] << 8);
	if (!nl || nl > SMB_CLUSTER_NODE_MAX || sl > 255 ||
	    len - SMB_CLUSTER_PUSH_HDR < nl + sl)
		return -EINVAL;
	p->ino = get_unaligned_le64(b + 4);
	p->version = get_unaligned_le64(b + 12);
	p->node = (const char *)b + SMB_CLUSTER_PUSH_HDR;
	p->node_len = nl;
	p->stream = p->node + nl;
	p->stream_len = sl;
	for (i = 0; i < nl; i++)
		if (!smb_cluster_node_char(p->node[i]))
			return -EINVAL;
	if (memchr(p->stream, 0, sl))
		return -EINVAL;
	p->locks = NULL;
	p->nr_locks = 0;
	p->caching = 0;
	rest = len - SMB_CLUSTER_PUSH_HDR - nl - sl;
	switch (p->kind) {
	case SMB_CLUSTER_PUSH_LOCKS:
		p->locks = b + SMB_CLUSTER_PUSH_HDR + nl + sl;
		n = smb_cluster_locks_check(p->locks, rest);
		if (n < 0)
			return -EINVAL;
		p->nr_locks = (size_t)n;
		return 0;
	case SMB_CLUSTER_PUSH_BREAK:
	case SMB_CLUSTER_PUSH_DIRMARK:
		if (rest != 4)
			return -EINVAL;
		p->caching = get_unaligned_le32(b + len - 4);
		return p->caching & ~SMB_CLUSTER_CACHING ? -EINVAL : 0;
	default:
		return rest ? -EINVAL : 0;
	}
}
