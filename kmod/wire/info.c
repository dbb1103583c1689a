// SPDX-License-Identifier: GPL-2.0
/*
 * QUERY_INFO, SET_INFO and their information classes.
 */
#include "compat.h"
#include "info.h"
#include "ntstatus.h"
#include "pdu.h"
#include "utf16.h"

static const u8 *smb2_info_body(const u8 *pdu, u32 pdu_len, u16 size)
{
	if (pdu_len < SMB2_HDR_SIZE ||
	    smb2_body_check(pdu + SMB2_HDR_SIZE, pdu_len - SMB2_HDR_SIZE, size))
		return NULL;
	return pdu + SMB2_HDR_SIZE;
}

u32 smb2_query_info_req_decode(const u8 *pdu, u32 pdu_len,
			       struct smb2_query_info_req *r)
{
	const u8 *body = smb2_info_body(pdu, pdu_len, SMB2_QINFO_REQ_SIZE);
	u32 off;

	if (!body)
		return STATUS_INVALID_PARAMETER;
	r->info_type = body[SMB2_QINFO_REQ_INFO_TYPE];
	r->info_class = body[SMB2_QINFO_REQ_INFO_CLASS];
	r->out_len = get_unaligned_le32(body + SMB2_QINFO_REQ_OUTPUT_LENGTH);
	off = get_unaligned_le16(body + SMB2_QINFO_REQ_INPUT_OFFSET);
	r->in_len = get_unaligned_le32(body + SMB2_QINFO_REQ_INPUT_LENGTH);
	r->additional = get_unaligned_le32(body + SMB2_QINFO_REQ_ADDITIONAL);
	r->flags = get_unaligned_le32(body + SMB2_QINFO_REQ_FLAGS);
	r->file_id = body + SMB2_QINFO_REQ_FILE_ID;
	if (smb2_field(pdu, pdu_len, off, r->in_len,
		       SMB2_HDR_SIZE + SMB2_QINFO_REQ_BUFFER, &r->in))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

u32 smb2_set_info_req_decode(const u8 *pdu, u32 pdu_len,
			     struct smb2_set_info_req *r)
{
	const u8 *body = smb2_info_body(pdu, pdu_len, SMB2_SINFO_REQ_SIZE);
	u32 off;

	if (!body)
		return STATUS_INVALID_PARAMETER;
	r->info_type = body[SMB2_SINFO_REQ_INFO_TYPE];
	r->info_class = body[SMB2_SINFO_REQ_INFO_CLASS];
	r->len = get_unaligned_le32(body + SMB2_SINFO_REQ_BUFFER_LENGTH);
	off = get_unaligned_le16(body + SMB2_SINFO_REQ_BUFFER_OFFSET);
	r->additional = get_unaligned_le32(body + SMB2_SINFO_REQ_ADDITIONAL);
	r->file_id = body + SMB2_SINFO_REQ_FILE_ID;
	if (smb2_field(pdu, pdu_len, off, r->len,
		       SMB2_HDR_SIZE + SMB2_SINFO_REQ_BUFFER, &r->buf))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

u32 smb2_query_info_rsp_encode(u8 *body, u32 len)
{
	put_unaligned_le16(SMB2_QINFO_RSP_SIZE, body);
	/* An empty answer says offset 0 and keeps the one byte of buffer. */
	put_unaligned_le16(len ? SMB2_QINFO_RSP_DATA_OFF : 0, body + 2);
	put_unaligned_le32(len, body + 4);
	if (!len) {
		body[SMB2_QINFO_RSP_FIXED] = 0;
		return SMB2_QINFO_RSP_FIXED + 1;
	}
	return SMB2_QINFO_RSP_FIXED + len;
}

u32 smb2_set_info_rsp_encode(u8 *body)
{
	put_unaligned_le16(SMB2_SINFO_RSP_SIZE, body);
	return SMB2_SINFO_RSP_SIZE;
}

/* ERROR: StructureSize, ErrorContextCount, Reserved, ByteCount, data. */
#define SMB2_ERR_CTX_HDR		8	/* ErrorDataLength, ErrorId */

u32 smb2_error_data_size(u32 len)
{
	/* Room for either layout: the larger is the 3.1.1 one. */
	return 8 + SMB2_ERR_CTX_HDR + (len ? len : 1);
}

u32 smb2_error_data_encode(u8 *body, bool dialect_311, const u8 *data,
			   u32 len)
{
	memset(body, 0, smb2_error_data_size(len));
	put_unaligned_le16(SMB2_ERR_RSP_SIZE, body);
	if (!len)
		return SMB2_ERR_RSP_BODY;
	if (dialect_311) {
		body[2] = 1;
		put_unaligned_le32(SMB2_ERR_CTX_HDR + len, body + 4);
		put_unaligned_le32(len, body + 8);
		put_unaligned_le32(0, body + 12);
		memcpy(body + 16, data, len);
		return 16 + len;
	}
	put_unaligned_le32(len, body + 4);
	memcpy(body + 8, data, len);
	return 8 + len;
}

/* ---- what each class is for --------------------------------------------- */

u32 smb_file_class_uses(u8 cls)
{
	switch (cls) {
	case FILE_DIRECTORY_INFORMATION:
	case FILE_FULL_DIRECTORY_INFORMATION:
	case FILE_BOTH_DIRECTORY_INFORMATION:
	case FILE_STANDARD_INFORMATION:
	case FILE_INTERNAL_INFORMATION:
	case FILE_EA_INFORMATION:
	case FILE_ACCESS_INFORMATION:
	case FILE_NAMES_INFORMATION:
	case FILE_ALIGNMENT_INFORMATION:
	case FILE_ALL_INFORMATION:
	case FILE_ALTERNATE_NAME_INFORMATION:
	case FILE_STREAM_INFORMATION:
	case FILE_PIPE_LOCAL_INFORMATION:
	case FILE_PIPE_REMOTE_INFORMATION:
	case FILE_COMPRESSION_INFORMATION:
	case FILE_NETWORK_OPEN_INFORMATION:
	case FILE_ATTRIBUTE_TAG_INFORMATION:
	case FILE_ID_BOTH_DIRECTORY_INFORMATION:
	case FILE_ID_FULL_DIRECTORY_INFORMATION:
	case FILE_NORMALIZED_NAME_INFORMATION:
	case FILE_ID_INFORMATION:
	case FILE_ID_EXTD_DIRECTORY_INFORMATION:
	case FILE_ID_64_EXTD_DIRECTORY_INFORMATION:
	case FILE_ID_64_EXTD_BOTH_DIRECTORY_INFORMATION:
	case FILE_ID_ALL_EXTD_DIRECTORY_INFORMATION:
	case FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION:
		return SMB_INFO_QUERY;
	case FILE_BASIC_INFORMATION:
	case FILE_POSITION_INFORMATION:
	case FILE_FULL_EA_INFORMATION:
	case FILE_MODE_INFORMATION:
	case FILE_PIPE_INFORMATION:
	case FILE_QUOTA_INFORMATION:
		return SMB_INFO_QUERY | SMB_INFO_SET;
	case FILE_RENAME_INFORMATION:
	case FILE_LINK_INFORMATION:
	case FILE_DISPOSITION_INFORMATION:
	case FILE_ALLOCATION_INFORMATION:
	case FILE_END_OF_FILE_INFORMATION:
	case FILE_VALID_DATA_LENGTH_INFORMATION:
	case FILE_SHORT_NAME_INFORMATION:
	case FILE_DISPOSITION_INFORMATION_EX:
	case FILE_RENAME_INFORMATION_EX:
		return SMB_INFO_SET;
	case FILE_NAME_INFORMATION:
	case FILE_MAILSLOT_QUERY_INFORMATION:
	case FILE_MAILSLOT_SET_INFORMATION:
	case FILE_OBJECT_ID_INFORMATION:
	case FILE_MOVE_CLUSTER_INFORMATION:
	case FILE_REPARSE_POINT_INFORMATION:
	case FILE_TRACKING_INFORMATION:
	case FILE_SFIO_RESERVE_INFORMATION:
	case FILE_SFIO_VOLUME_INFORMATION:
	case FILE_HARD_LINK_INFORMATION:
	case FILE_ID_GLOBAL_TX_DIRECTORY_INFORMATION:
	case FILE_STANDARD_LINK_INFORMATION:
		return SMB_INFO_LOCAL;
	default:
		return 0;
	}
}

u32 smb_fs_class_uses(u8 cls)
{
	switch (cls) {
	case FILE_FS_VOLUME_INFORMATION:
	case FILE_FS_SIZE_INFORMATION:
	case FILE_FS_DEVICE_INFORMATION:
	case FILE_FS_ATTRIBUTE_INFORMATION:
	case FILE_FS_FULL_SIZE_INFORMATION:
	case FILE_FS_SECTOR_SIZE_INFORMATION:
		return SMB_INFO_QUERY;
	case FILE_FS_CONTROL_INFORMATION:
	case FILE_FS_OBJECT_ID_INFORMATION:
		return SMB_INFO_QUERY | SMB_INFO_SET;
	case FILE_FS_LABEL_INFORMATION:
	case FILE_FS_VOLUME_FLAGS_INFORMATION:
		return SMB_INFO_SET;
	case FILE_FS_DRIVER_PATH_INFORMATION:
		return SMB_INFO_LOCAL;
	default:
		return 0;
	}
}

/* ---- file classes ------------------------------------------------------- */

/*
 * A UTF-8 name as UTF-16LE at @off, after its 4-byte length at @len_off.
 * Returns the name's length in bytes, or -EINVAL.
 */
static int smb_out_name(const struct smb_out *o, u32 len_off, u32 off,
			const char *name, u32 name_len)
{
	int n;

	n = smb_utf8_to_utf16le(name, name_len, off < o->cap ? o->buf + off :
				NULL, off < o->cap ? o->cap - off : 0,
				SMB_UTF16_PARTIAL);
	if (n < 0)
		return n;
	smb_out_le32(o, len_off, (u32)n);
	return n;
}

static void smb_out_basic(const struct smb_out *o, u32 off,
			  const struct smb_finfo *fi)
{
	smb_out_le64(o, off, fi->creation_time);
	smb_out_le64(o, off + 8, fi->access_time);
	smb_out_le64(o, off + 16, fi->write_time);
	smb_out_le64(o, off + 24, fi->change_time);
	smb_out_le32(o, off + 32, fi->attributes);
}

static void smb_out_standard(const struct smb_out *o, u32 off,
			     const struct smb_finfo *fi)
{
	smb_out_le64(o, off, fi->allocation);
	smb_out_le64(o, off + 8, fi->eof);
	smb_out_le32(o, off + 16, fi->nlink);
	smb_out_u8(o, off + 20, fi->delete_pending);
	smb_out_u8(o, off + 21, fi->directory);
}

/* FILE_ALL_INFORMATION: the fixed classes one after the other, then a name. */
#define SMB_ALL_STANDARD	40
#define SMB_ALL_INTERNAL	64
#define SMB_ALL_EA		72
#define SMB_ALL_ACCESS		76
#define SMB_ALL_POSITION	80
#define SMB_ALL_MODE		88
#define SMB_ALL_ALIGNMENT	92
#define SMB_ALL_NAME_LEN	96
#define SMB_ALL_NAME		100

u32 smb_file_info_min(u8 cls)
{
	switch (cls) {
	case FILE_BASIC_INFORMATION:
		return 40;
	case FILE_STANDARD_INFORMATION:
		return 24;
	case FILE_INTERNAL_INFORMATION:
	case FILE_POSITION_INFORMATION:
	case FILE_ATTRIBUTE_TAG_INFORMATION:
		return 8;
	case FILE_EA_INFORMATION:
	case FILE_ACCESS_INFORMATION:
	case FILE_MODE_INFORMATION:
	case FILE_ALIGNMENT_INFORMATION:
		return 4;
	case FILE_ALL_INFORMATION:
		return 104;
	case FILE_ALTERNATE_NAME_INFORMATION:
	case FILE_NORMALIZED_NAME_INFORMATION:
		return 8;
	case FILE_COMPRESSION_INFORMATION:
		return 16;
	case FILE_NETWORK_OPEN_INFORMATION:
		return 56;
	case FILE_ID_INFORMATION:
		return 24;
	default:
		return 0;
	}
}

int smb_file_info_encode(u8 cls, const struct smb_finfo *fi,
			 const struct smb_out *o)
{
	u32 len = smb_file_info_min(cls);
	int n;

	switch (cls) {
	case FILE_BASIC_INFORMATION:
		smb_out_basic(o, 0, fi);
		break;
	case FILE_STANDARD_INFORMATION:
		smb_out_standard(o, 0, fi);
		break;
	case FILE_INTERNAL_INFORMATION:
		smb_out_le64(o, 0, fi->index);
		break;
	case FILE_EA_INFORMATION:
		smb_out_le32(o, 0, fi->ea_size);
		break;
	case FILE_ACCESS_INFORMATION:
		smb_out_le32(o, 0, fi->access);
		break;
	case FILE_POSITION_INFORMATION:
		smb_out_le64(o, 0, fi->position);
		break;
	case FILE_MODE_INFORMATION:
		smb_out_le32(o, 0, fi->mode);
		break;
	case FILE_ALIGNMENT_INFORMATION:
		smb_out_le32(o, 0, 0);	/* FILE_BYTE_ALIGNMENT */
		break;
	case FILE_ALL_INFORMATION:
		smb_out_basic(o, 0, fi);
		smb_out_standard(o, SMB_ALL_STANDARD, fi);
		smb_out_le64(o, SMB_ALL_INTERNAL, fi->index);
		smb_out_le32(o, SMB_ALL_EA, fi->ea_size);
		smb_out_le32(o, SMB_ALL_ACCESS, fi->access);
		smb_out_le64(o, SMB_ALL_POSITION, fi->position);
		smb_out_le32(o, SMB_ALL_MODE, fi->mode);
		smb_out_le32(o, SMB_ALL_ALIGNMENT, 0);
		n = smb_out_name(o, SMB_ALL_NAME_LEN, SMB_ALL_NAME, fi->name,
				 fi->name_len);
		if (n < 0)
			return n;
		if (SMB_ALL_NAME + (u32)n > len)
			len = SMB_ALL_NAME + (u32)n;
		break;
	case FILE_ALTERNATE_NAME_INFORMATION:
	case FILE_NORMALIZED_NAME_INFORMATION:
		n = smb_out_name(o, 0, 4, fi->name, fi->name_len);
		if (n < 0)
			return n;
		if (4 + (u32)n > len)
			len = 4 + (u32)n;
		break;
	case FILE_COMPRESSION_INFORMATION:
		/* Not compressed: CompressedFileSize is the size. */
		smb_out_le64(o, 0, fi->eof);
		break;
	case FILE_NETWORK_OPEN_INFORMATION:
		smb_out_le64(o, 0, fi->creation_time);
		smb_out_le64(o, 8, fi->access_time);
		smb_out_le64(o, 16, fi->write_time);
		smb_out_le64(o, 24, fi->change_time);
		smb_out_le64(o, 32, fi->allocation);
		smb_out_le64(o, 40, fi->eof);
		smb_out_le32(o, 48, fi->attributes);
		break;
	case FILE_ATTRIBUTE_TAG_INFORMATION:
		smb_out_le32(o, 0, fi->attributes);
		smb_out_le32(o, 4, fi->reparse_tag);
		break;
	case FILE_ID_INFORMATION:
		smb_out_le64(o, 0, fi->volume);
		smb_out_le64(o, 8, fi->index);
		smb_out_le64(o, 16, 0);
		break;
	default:
		return -EINVAL;
	}
	return (int)len;
}

/* FILE_STREAM_INFORMATION: NextEntryOffset, NameLength, Size, Alloc. */
#define SMB_STREAM_NAME		24

int smb_stream_info_encode(const struct smb_stream_ent *ents, u32 n,
			   const struct smb_out *o, u32 *fit)
{
	static const char data[] = ":$DATA";
	u32 i, off = 0, prev = 0, nlen, elen;
	int a, b;

	*fit = 0;
	for (i = 0; i < n; i++) {
		a = smb_utf8_to_utf16le(ents[i].name, ents[i].name_len, NULL, 0,
					SMB_UTF16_PARTIAL);
		if (a < 0)
			return a;
		b = smb_utf8_to_utf16le(data, sizeof(data) - 1, NULL, 0,
					SMB_UTF16_PARTIAL);
		nlen = 2 + (u32)a + (u32)b;	/* ':' name ':$DATA' */
		elen = SMB_STREAM_NAME + nlen;
		if (i) {
			off = (off + 7) & ~7u;
			if (off + elen <= o->cap)
				smb_out_le32(o, prev, off - prev);
		}
		if (off + elen <= o->cap) {
			smb_out_le32(o, off, 0);
			smb_out_le32(o, off + 4, nlen);
			smb_out_le64(o, off + 8, ents[i].size);
			smb_out_le64(o, off + 16, ents[i].allocation);
			smb_out_le16(o, off + SMB_STREAM_NAME, ':');
			smb_utf8_to_utf16le(ents[i].name, ents[i].name_len,
					    o->buf + off + SMB_STREAM_NAME + 2,
					    (u32)a, 0);
			smb_utf8_to_utf16le(data, sizeof(data) - 1,
					    o->buf + off + SMB_STREAM_NAME + 2 +
					    a, (u32)b, 0);
			*fit = off + elen;
		}
		prev = off;
		off += elen;
	}
	return (int)off;
}

/* ---- file-system classes ------------------------------------------------ */

u32 smb_fs_info_min(u8 cls)
{
	switch (cls) {
	case FILE_FS_VOLUME_INFORMATION:
	case FILE_FS_SIZE_INFORMATION:
		return 24;
	case FILE_FS_DEVICE_INFORMATION:
		return 8;
	case FILE_FS_ATTRIBUTE_INFORMATION:
		return 16;
	case FILE_FS_CONTROL_INFORMATION:
		return 48;
	case FILE_FS_FULL_SIZE_INFORMATION:
		return 32;
	case FILE_FS_OBJECT_ID_INFORMATION:
		return 64;
	case FILE_FS_SECTOR_SIZE_INFORMATION:
		return 28;
	default:
		return 0;
	}
}

int smb_fs_info_encode(u8 cls, const struct smb_fsinfo *fs,
		       const struct smb_out *o)
{
	u32 len = smb_fs_info_min(cls);
	int n;

	switch (cls) {
	case FILE_FS_VOLUME_INFORMATION:
		smb_out_le64(o, 0, fs->volume_created);
		smb_out_le32(o, 8, fs->serial);
		/* SupportsObjects: FALSE. */
		n = smb_out_name(o, 12, 18, fs->label, fs->label_len);
		if (n < 0)
			return n;
		if (18 + (u32)n > len)
			len = 18 + (u32)n;
		break;
	case FILE_FS_SIZE_INFORMATION:
		smb_out_le64(o, 0, fs->total_units);
		smb_out_le64(o, 8, fs->caller_avail_units);
		smb_out_le32(o, 16, fs->sectors_per_unit);
		smb_out_le32(o, 20, fs->bytes_per_sector);
		break;
	case FILE_FS_DEVICE_INFORMATION:
		smb_out_le32(o, 0, FILE_DEVICE_DISK);
		smb_out_le32(o, 4, fs->device_characteristics);
		break;
	case FILE_FS_ATTRIBUTE_INFORMATION:
		smb_out_le32(o, 0, fs->attributes);
		smb_out_le32(o, 4, fs->max_name_len);
		n = smb_out_name(o, 8, 12, fs->fs_name, fs->fs_name_len);
		if (n < 0)
			return n;
		if (12 + (u32)n > len)
			len = 12 + (u32)n;
		break;
	case FILE_FS_CONTROL_INFORMATION:
		/* No quotas: no thresholds, no limits. */
		smb_out_le64(o, 24, ~0ULL);
		smb_out_le64(o, 32, ~0ULL);
		break;
	case FILE_FS_FULL_SIZE_INFORMATION:
		smb_out_le64(o, 0, fs->total_units);
		smb_out_le64(o, 8, fs->caller_avail_units);
		smb_out_le64(o, 16, fs->actual_avail_units);
		smb_out_le32(o, 24, fs->sectors_per_unit);
		smb_out_le32(o, 28, fs->bytes_per_sector);
		break;
	case FILE_FS_OBJECT_ID_INFORMATION:
		smb_out_bytes(o, 0, fs->object_id, 16);
		break;
	case FILE_FS_SECTOR_SIZE_INFORMATION:
		smb_out_le32(o, 0, fs->bytes_per_sector);
		smb_out_le32(o, 4, fs->bytes_per_sector);
		smb_out_le32(o, 8, fs->bytes_per_sector);
		smb_out_le32(o, 12, fs->bytes_per_sector);
		smb_out_le32(o, 16, SSINFO_FLAGS_ALIGNED_DEVICE |
			     SSINFO_FLAGS_PARTITION_ALIGNED_ON_DEVICE);
		break;
	default:
		return -EINVAL;
	}
	return (int)len;
}

/* ---- SET_INFO buffers --------------------------------------------------- */

/* 100 ns units from 1601-01-01 to 1970-01-01. */
#define SMB_NTTIME_UNIX_EPOCH	116444736000000000ULL

void smb_nttime_to_unix(u64 nt, long long *sec, u32 *nsec)
{
	u64 t;

	if (nt >= SMB_NTTIME_UNIX_EPOCH) {
		t = nt - SMB_NTTIME_UNIX_EPOCH;
		*sec = (long long)(t / 10000000);
		*nsec = (u32)(t % 10000000) * 100;
	} else {
		t = SMB_NTTIME_UNIX_EPOCH - nt;
		*sec = -(long long)((t + 9999999) / 10000000);
		*nsec = (u32)((10000000 - t % 10000000) % 10000000) * 100;
	}
}

u32 smb_set_basic_decode(const u8 *buf, u32 len, struct smb_set_basic *b)
{
	if (len < SMB_SET_BASIC_SIZE)
		return STATUS_INFO_LENGTH_MISMATCH;
	b->creation_time = get_unaligned_le64(buf);
	b->access_time = get_unaligned_le64(buf + 8);
	b->write_time = get_unaligned_le64(buf + 16);
	b->change_time = get_unaligned_le64(buf + 24);
	b->attributes = get_unaligned_le32(buf + 32);
	return STATUS_SUCCESS;
}

u32 smb_set_rename_decode(u8 cls, const u8 *buf, u32 len,
			  struct smb_set_rename *r)
{
	u32 name_len;

	if (len < SMB_SET_RENAME_MIN)
		return STATUS_INFO_LENGTH_MISMATCH;
	if (cls == FILE_RENAME_INFORMATION_EX)
		r->flags = get_unaligned_le32(buf);
	else
		r->flags = buf[0] ? FILE_RENAME_REPLACE_IF_EXISTS : 0;
	/* RootDirectory must be 0 over SMB2 (2.2.39). */
	if (get_unaligned_le64(buf + 8))
		return STATUS_INVALID_PARAMETER;
	name_len = get_unaligned_le32(buf + 16);
	if (!name_len || name_len % 2 || name_len > len - SMB_SET_RENAME_FIXED)
		return STATUS_INVALID_PARAMETER;
	r->name = buf + SMB_SET_RENAME_FIXED;
	r->name_len = name_len;
	return STATUS_SUCCESS;
}

u32 smb_set_u8_decode(const u8 *buf, u32 len, u8 *v)
{
	if (len < 1)
		return STATUS_INFO_LENGTH_MISMATCH;
	*v = buf[0];
	return STATUS_SUCCESS;
}

u32 smb_set_u32_decode(const u8 *buf, u32 len, u32 *v)
{
	if (len < 4)
		return STATUS_INFO_LENGTH_MISMATCH;
	*v = get_unaligned_le32(buf);
	return STATUS_SUCCESS;
}

u32 smb_set_u64_decode(const u8 *buf, u32 len, u64 *v)
{
	if (len < 8)
		return STATUS_INFO_LENGTH_MISMATCH;
	*v = get_unaligned_le64(buf);
	return STATUS_SUCCESS;
}

/* ---- EA lists ----------------------------------------------------------- */

void smb_ea_entry_encode(u8 *buf, u8 flags, const char *name, u32 name_len,
			 const u8 *value, u32 value_len)
{
	put_unaligned_le32(0, buf);
	buf[4] = flags;
	buf[5] = (u8)name_len;
	put_unaligned_le16((u16)value_len, buf + 6);
	memcpy(buf + 8, name, name_len);
	buf[8 + name_len] = 0;
	if (value_len)
		memcpy(buf + 9 + name_len, value, value_len);
}

/* FILE_GET_EA_INFORMATION: NextEntryOffset, EaNameLength, EaName. */
int smb_get_ea_next(const u8 *buf, u32 len, u32 *pos, const char **name,
		    u32 *name_len)
{
	u32 p = *pos, next, nlen;

	if (p >= len)
		return 0;
	if (len - p < 5)
		return -EINVAL;
	next = get_unaligned_le32(buf + p);
	nlen = buf[p + 4];
	if (!nlen || nlen > len - p - 5)
		return -EINVAL;
	if (next) {
		if (next % 4 || next < 5 + nlen || next > len - p)
			return -EINVAL;
		*pos = p + next;
	} else {
		*pos = len;
	}
	*name = (const char *)buf + p + 5;
	*name_len = nlen;
	return 1;
}
