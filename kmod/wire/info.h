/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QUERY_INFO and SET_INFO (MS-SMB2 2.2.37 - 2.2.40) and the information
 * classes they carry: file classes (MS-FSCC 2.4), file-system classes
 * (MS-FSCC 2.5), extended-attribute lists (MS-FSCC 2.4.15, 2.4.15.1).
 *
 * Replies are encoded through a struct smb_out: an encoder always returns
 * the full length of the reply and writes as much as fits, so the handler
 * can answer STATUS_BUFFER_OVERFLOW with the first OutputBufferLength
 * bytes, as Windows does.  Each class also has a minimum: the size of the
 * structure in C, padding included, below which the answer is
 * STATUS_INFO_LENGTH_MISMATCH (MS-FSA 2.1.5.12); a shorter reply (a short
 * name) is padded up to it.
 */
#ifndef _SMBSRV_WIRE_INFO_H
#define _SMBSRV_WIRE_INFO_H

#include "compat.h"
#include "out.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* QUERY_INFO request (2.2.37), offsets in the body. */
#define SMB2_QINFO_REQ_SIZE		41
#define SMB2_QINFO_REQ_INFO_TYPE	2
#define SMB2_QINFO_REQ_INFO_CLASS	3
#define SMB2_QINFO_REQ_OUTPUT_LENGTH	4
#define SMB2_QINFO_REQ_INPUT_OFFSET	8
#define SMB2_QINFO_REQ_INPUT_LENGTH	12
#define SMB2_QINFO_REQ_ADDITIONAL	16
#define SMB2_QINFO_REQ_FLAGS		20
#define SMB2_QINFO_REQ_FILE_ID		24
#define SMB2_QINFO_REQ_BUFFER		40

/* QUERY_INFO response (2.2.38). */
#define SMB2_QINFO_RSP_SIZE		9
#define SMB2_QINFO_RSP_FIXED		8
/* The output follows the fixed part; its offset from the SMB2 header. */
#define SMB2_QINFO_RSP_DATA_OFF		(SMB2_HDR_SIZE + SMB2_QINFO_RSP_FIXED)

/* SET_INFO request (2.2.39) and response (2.2.40). */
#define SMB2_SINFO_REQ_SIZE		33
#define SMB2_SINFO_REQ_INFO_TYPE	2
#define SMB2_SINFO_REQ_INFO_CLASS	3
#define SMB2_SINFO_REQ_BUFFER_LENGTH	4
#define SMB2_SINFO_REQ_BUFFER_OFFSET	8
#define SMB2_SINFO_REQ_ADDITIONAL	12
#define SMB2_SINFO_REQ_FILE_ID		16
#define SMB2_SINFO_REQ_BUFFER		32
#define SMB2_SINFO_RSP_SIZE		2

/* InfoType. */
#define SMB2_0_INFO_FILE		0x01
#define SMB2_0_INFO_FILESYSTEM		0x02
#define SMB2_0_INFO_SECURITY		0x03
#define SMB2_0_INFO_QUOTA		0x04

/* Flags of a FILE_FULL_EA_INFORMATION query (2.2.37). */
#define SL_RESTART_SCAN			0x00000001
#define SL_RETURN_SINGLE_ENTRY		0x00000002
#define SL_INDEX_SPECIFIED		0x00000004

/* File information classes (MS-FSCC 2.4). */
enum smb_file_info_class {
	FILE_DIRECTORY_INFORMATION		= 1,
	FILE_FULL_DIRECTORY_INFORMATION		= 2,
	FILE_BOTH_DIRECTORY_INFORMATION		= 3,
	FILE_BASIC_INFORMATION			= 4,
	FILE_STANDARD_INFORMATION			= 5,
	FILE_INTERNAL_INFORMATION			= 6,
	FILE_EA_INFORMATION			= 7,
	FILE_ACCESS_INFORMATION			= 8,
	FILE_NAME_INFORMATION			= 9,
	FILE_RENAME_INFORMATION			= 10,
	FILE_LINK_INFORMATION			= 11,
	FILE_NAMES_INFORMATION			= 12,
	FILE_DISPOSITION_INFORMATION		= 13,
	FILE_POSITION_INFORMATION			= 14,
	FILE_FULL_EA_INFORMATION			= 15,
	FILE_MODE_INFORMATION			= 16,
	FILE_ALIGNMENT_INFORMATION		= 17,
	FILE_ALL_INFORMATION			= 18,
	FILE_ALLOCATION_INFORMATION		= 19,
	FILE_END_OF_FILE_INFORMATION		= 20,
	FILE_ALTERNATE_NAME_INFORMATION		= 21,
	FILE_STREAM_INFORMATION			= 22,
	FILE_PIPE_INFORMATION			= 23,
	FILE_PIPE_LOCAL_INFORMATION		= 24,
	FILE_PIPE_REMOTE_INFORMATION		= 25,
	FILE_MAILSLOT_QUERY_INFORMATION		= 26,
	FILE_MAILSLOT_SET_INFORMATION		= 27,
	FILE_COMPRESSION_INFORMATION		= 28,
	FILE_OBJECT_ID_INFORMATION			= 29,
	FILE_MOVE_CLUSTER_INFORMATION		= 31,
	FILE_QUOTA_INFORMATION			= 32,
	FILE_REPARSE_POINT_INFORMATION		= 33,
	FILE_NETWORK_OPEN_INFORMATION		= 34,
	FILE_ATTRIBUTE_TAG_INFORMATION		= 35,
	FILE_TRACKING_INFORMATION			= 36,
	FILE_ID_BOTH_DIRECTORY_INFORMATION		= 37,
	FILE_ID_FULL_DIRECTORY_INFORMATION		= 38,
	FILE_VALID_DATA_LENGTH_INFORMATION		= 39,
	FILE_SHORT_NAME_INFORMATION		= 40,
	FILE_SFIO_RESERVE_INFORMATION		= 44,
	FILE_SFIO_VOLUME_INFORMATION		= 45,
	FILE_HARD_LINK_INFORMATION			= 46,
	FILE_NORMALIZED_NAME_INFORMATION		= 48,
	FILE_ID_GLOBAL_TX_DIRECTORY_INFORMATION	= 50,
	FILE_STANDARD_LINK_INFORMATION		= 54,
	FILE_ID_INFORMATION			= 59,
	FILE_ID_EXTD_DIRECTORY_INFORMATION		= 60,
	FILE_DISPOSITION_INFORMATION_EX		= 64,
	FILE_RENAME_INFORMATION_EX			= 65,
	FILE_ID_64_EXTD_DIRECTORY_INFORMATION	= 78,
	FILE_ID_64_EXTD_BOTH_DIRECTORY_INFORMATION	= 79,
	FILE_ID_ALL_EXTD_DIRECTORY_INFORMATION	= 80,
	FILE_ID_ALL_EXTD_BOTH_DIRECTORY_INFORMATION	= 81,
};

/* File-system information classes (MS-FSCC 2.5). */
enum smb_fs_info_class {
	FILE_FS_VOLUME_INFORMATION			= 1,
	FILE_FS_LABEL_INFORMATION			= 2,
	FILE_FS_SIZE_INFORMATION			= 3,
	FILE_FS_DEVICE_INFORMATION			= 4,
	FILE_FS_ATTRIBUTE_INFORMATION		= 5,
	FILE_FS_CONTROL_INFORMATION		= 6,
	FILE_FS_FULL_SIZE_INFORMATION		= 7,
	FILE_FS_OBJECT_ID_INFORMATION		= 8,
	FILE_FS_DRIVER_PATH_INFORMATION		= 9,
	FILE_FS_VOLUME_FLAGS_INFORMATION		= 10,
	FILE_FS_SECTOR_SIZE_INFORMATION		= 11,
};

/* What MS-FSCC says a class is for (its table in 2.4 / 2.5). */
#define SMB_INFO_QUERY			0x1
#define SMB_INFO_SET			0x2
#define SMB_INFO_LOCAL			0x4	/* documented, not remotable */
u32 smb_file_class_uses(u8 cls);
u32 smb_fs_class_uses(u8 cls);

/* FILE_MODE_INFORMATION bits (MS-FSCC 2.4.26). */
#define FILE_MODE_VALID			0x0000003e	/* the options below */

/* FILE_FS_ATTRIBUTE_INFORMATION flags (MS-FSCC 2.5.1). */
#define FILE_CASE_SENSITIVE_SEARCH	0x00000001
#define FILE_CASE_PRESERVED_NAMES	0x00000002
#define FILE_UNICODE_ON_DISK		0x00000004
#define FILE_PERSISTENT_ACLS		0x00000008
#define FILE_SUPPORTS_SPARSE_FILES	0x00000040
#define FILE_SUPPORTS_REPARSE_POINTS	0x00000080
#define FILE_SUPPORTS_OBJECT_IDS	0x00010000
#define FILE_NAMED_STREAMS		0x00040000
#define FILE_READ_ONLY_VOLUME		0x00080000
#define FILE_SUPPORTS_HARD_LINKS	0x00400000
#define FILE_SUPPORTS_EXTENDED_ATTRIBUTES 0x00800000

/* FILE_FS_DEVICE_INFORMATION (MS-FSCC 2.5.10). */
#define FILE_DEVICE_DISK		0x00000007
#define FILE_READ_ONLY_DEVICE		0x00000002
#define FILE_DEVICE_IS_MOUNTED		0x00000020

/* FILE_FS_SECTOR_SIZE_INFORMATION flags (MS-FSCC 2.5.8). */
#define SSINFO_FLAGS_ALIGNED_DEVICE	0x00000001
#define SSINFO_FLAGS_PARTITION_ALIGNED_ON_DEVICE 0x00000002
#define SSINFO_FLAGS_NO_SEEK_PENALTY	0x00000004

/* FILE_DISPOSITION_INFORMATION_EX flags (MS-FSCC 2.4.12). */
#define FILE_DISPOSITION_DELETE		0x00000001
#define FILE_DISPOSITION_POSIX_SEMANTICS 0x00000002
#define FILE_DISPOSITION_FORCE_IMAGE_SECTION_CHECK 0x00000004
#define FILE_DISPOSITION_ON_CLOSE	0x00000008
#define FILE_DISPOSITION_IGNORE_READONLY_ATTRIBUTE 0x00000010

/* FILE_RENAME_INFORMATION_EX flags (MS-FSCC 2.4.42.1). */
#define FILE_RENAME_REPLACE_IF_EXISTS	0x00000001
#define FILE_RENAME_POSIX_SEMANTICS	0x00000002
#define FILE_RENAME_IGNORE_READONLY_ATTRIBUTE 0x00000040

/* Reparse tags (MS-FSCC 2.1.2.1). */
#define IO_REPARSE_TAG_SYMLINK		0xa000000c

struct smb2_query_info_req {
	u8 info_type;
	u8 info_class;
	u32 out_len;		/* OutputBufferLength */
	const u8 *in;		/* InputBuffer, NULL when empty */
	u32 in_len;
	u32 additional;		/* AdditionalInformation */
	u32 flags;
	const u8 *file_id;	/* 16 bytes in the PDU */
};

struct smb2_set_info_req {
	u8 info_type;
	u8 info_class;
	const u8 *buf;		/* NULL when empty */
	u32 len;
	u32 additional;
	const u8 *file_id;
};

/*
 * Decode the requests: the fixed part and the buffer, which must lie in
 * the PDU past the fixed part.  STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smb2_query_info_req_decode(const u8 *pdu, u32 pdu_len,
			       struct smb2_query_info_req *r);
u32 smb2_set_info_req_decode(const u8 *pdu, u32 pdu_len,
			     struct smb2_set_info_req *r);

/*
 * The fixed part of a QUERY_INFO (or QUERY_DIRECTORY: the same layout)
 * response with @len bytes of output at body + SMB2_QINFO_RSP_FIXED;
 * returns the body size.
 */
u32 smb2_query_info_rsp_encode(u8 *body, u32 len);
u32 smb2_set_info_rsp_encode(u8 *body);

/*
 * An ERROR response body (2.2.2) carrying @len bytes of error data
 * (STATUS_BUFFER_TOO_SMALL carries the size needed): as an error context
 * on 3.1.1 (2.2.2.1), plain before.  @body has room for
 * smb2_error_data_size(@len) bytes; returns that size.
 */
u32 smb2_error_data_size(u32 len);
u32 smb2_error_data_encode(u8 *body, bool dialect_311, const u8 *data,
			   u32 len);

/* Everything the file information classes report about an open. */
struct smb_finfo {
	u64 creation_time;		/* NT times */
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u64 allocation;
	u64 eof;
	u64 index;			/* IndexNumber: the inode number */
	u64 volume;			/* VolumeSerialNumber for FILE_ID_INFORMATION */
	u64 position;			/* CurrentByteOffset */
	u32 attributes;
	u32 nlink;
	u32 ea_size;
	u32 access;			/* the open's granted access */
	u32 mode;			/* FILE_MODE_VALID bits of the open */
	u32 reparse_tag;
	bool delete_pending;
	bool directory;
	/*
	 * UTF-8: FILE_ALL_INFORMATION's name (the path from the share root,
	 * "\\dir\\file"), FILE_NORMALIZED_NAME_INFORMATION's ("dir\\file"),
	 * FILE_ALTERNATE_NAME_INFORMATION's (the 8.3 name).
	 */
	const char *name;
	u32 name_len;
};

/*
 * Minimum OutputBufferLength of a file class this encoder handles, 0 for
 * others (the streams and EA lists have their own encoders below).
 */
u32 smb_file_info_min(u8 cls);
/*
 * Encode class @cls (one smb_file_info_min() knows) into @o; returns the
 * reply's length (at least the minimum), or -EINVAL when the name is not
 * UTF-8.
 */
int smb_file_info_encode(u8 cls, const struct smb_finfo *fi,
			 const struct smb_out *o);

/* One entry of FILE_STREAM_INFORMATION (MS-FSCC 2.4.43). */
struct smb_stream_ent {
	const char *name;	/* UTF-8 stream name: "" is the data stream */
	u32 name_len;
	u64 size;
	u64 allocation;
};

#define SMB_STREAM_INFO_MIN		32
/*
 * Encode the entries (":name:$DATA", "::$DATA" for the data stream) that
 * wholly fit in @o.  Returns the length of all of them; *@fit is the
 * length of the whole entries written (the answer's OutputBufferLength
 * when it is short: STATUS_BUFFER_OVERFLOW).  -EINVAL: a bad name.
 */
int smb_stream_info_encode(const struct smb_stream_ent *ents, u32 n,
			   const struct smb_out *o, u32 *fit);

/* What the file-system classes report (sizes in allocation units). */
struct smb_fsinfo {
	u64 total_units;
	u64 caller_avail_units;
	u64 actual_avail_units;
	u32 sectors_per_unit;
	u32 bytes_per_sector;
	u64 volume_created;		/* NT time */
	u32 serial;
	u32 attributes;			/* FILE_CASE_... */
	u32 max_name_len;
	u32 device_characteristics;
	u8 object_id[16];
	const char *label;		/* UTF-8, the share name */
	u32 label_len;
	const char *fs_name;		/* UTF-8, "NTFS" */
	u32 fs_name_len;
};

/* As for the file classes: minimum, 0 for a class not handled. */
u32 smb_fs_info_min(u8 cls);
int smb_fs_info_encode(u8 cls, const struct smb_fsinfo *fs,
		       const struct smb_out *o);

/* The Unix time of an NT time (100 ns since 1601), for setting times. */
void smb_nttime_to_unix(u64 nt, long long *sec, u32 *nsec);

/* SET_INFO buffers of the file classes. */
#define SMB_SET_BASIC_SIZE		40
#define SMB_SET_RENAME_FIXED		20	/* before FileName */
#define SMB_SET_RENAME_MIN		24	/* sizeof, as Windows checks */

struct smb_set_basic {
	u64 creation_time;	/* 0: unchanged; -1, -2: see MS-FSA 2.1.5.14.2 */
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u32 attributes;		/* 0: unchanged */
};

struct smb_set_rename {
	u32 flags;		/* FILE_RENAME_REPLACE_IF_EXISTS, ... */
	const u8 *name;		/* UTF-16LE, from the share root */
	u32 name_len;		/* bytes */
};

/*
 * Decoders of SET_INFO buffers: STATUS_SUCCESS, STATUS_INFO_LENGTH_MISMATCH
 * (shorter than the structure) or STATUS_INVALID_PARAMETER (a field that
 * does not fit or is not allowed: an odd or empty name, a RootDirectory).
 */
u32 smb_set_basic_decode(const u8 *buf, u32 len, struct smb_set_basic *b);
/* FILE_RENAME_INFORMATION, FILE_LINK_INFORMATION and FILE_RENAME_INFORMATION_EX. */
u32 smb_set_rename_decode(u8 cls, const u8 *buf, u32 len,
			  struct smb_set_rename *r);
/* Fixed-size classes: a u8, u32 or u64 at the start of the buffer. */
u32 smb_set_u8_decode(const u8 *buf, u32 len, u8 *v);
u32 smb_set_u32_decode(const u8 *buf, u32 len, u32 *v);
u32 smb_set_u64_decode(const u8 *buf, u32 len, u64 *v);

/*
 * EA lists.  FILE_FULL_EA_INFORMATION entries (the query's answer) are
 * 4-byte aligned: NextEntryOffset, Flags, EaNameLength, EaValueLength,
 * the name with its NUL, the value.
 */
static inline u32 smb_ea_entry_size(u32 name_len, u32 value_len)
{
	return 8 + name_len + 1 + value_len;
}

/* Padded to the next entry. */
static inline u32 smb_ea_entry_padded(u32 name_len, u32 value_len)
{
	return (smb_ea_entry_size(name_len, value_len) + 3) & ~3u;
}

/*
 * Write one entry at @buf (smb_ea_entry_size() bytes); NextEntryOffset is
 * left 0 for the caller to link.
 */
void smb_ea_entry_encode(u8 *buf, u8 flags, const char *name, u32 name_len,
			 const u8 *value, u32 value_len);

/*
 * Walk a FILE_GET_EA_INFORMATION list (a QUERY_INFO input buffer): @pos
 * starts at 0; returns 1 with the name, 0 at the end, -EINVAL when
 * malformed (an entry or name past the buffer, a bad NextEntryOffset, an
 * empty name).
 */
int smb_get_ea_next(const u8 *buf, u32 len, u32 *pos, const char **name,
		    u32 *name_len);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_INFO_H */
