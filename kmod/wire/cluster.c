// SPDX-License-Identifier: GPL-2.0
/*
 * Cluster mode's pure rules (see cluster.h).
 */
#include "cluster.h"

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

void smb_cluster_rec_encode(const struct smb_cluster_agg *a,
			    u8 out[SMB_CLUSTER_REC_LEN])
{
	out[0] = SMB_CLUSTER_REC_V1;
	out[1] = 0;
	out[2] = 0;
	out[3] = 0;
	put_unaligned_le32(a->access, out + 4);
	put_unaligned_le32(a->share, out + 8);
}

int smb_cluster_rec_decode(const void *buf, size_t len,
			   struct smb_cluster_agg *a)
{
	const u8 *b = (const u8 *)buf;
	u32 share;

	if (len < SMB_CLUSTER_REC_LEN || b[0] != SMB_CLUSTER_REC_V1 ||
	    b[1] || b[2] || b[3])
		return -EINVAL;
	share = get_unaligned_le32(b + 8);
	if (share & ~FILE_SHARE_ALL)
		return -EINVAL;
	a->access = get_unaligned_le32(b + 4);
	a->share = share;
	return 0;
}

int smb_cluster_okey_split(const char *key, size_t len, size_t *node_len,
			   size_t *stream_off, size_t *stream_len)
{
	size_t i;

	if (len < 4 || key[0] != 'o' || key[1] != '.')
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
