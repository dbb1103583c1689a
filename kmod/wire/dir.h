/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QUERY_DIRECTORY (MS-SMB2 2.2.33, 2.2.34): the request, the directory
 * entries of every information class clients ask for (MS-FSCC 2.4), the
 * search pattern with Windows wildcard semantics (MS-FSA 2.1.4.4: '*',
 * '?', and the DOS_STAR '<', DOS_QM '>' and DOS_DOT '"' that clients
 * send for "*.*"-style patterns), and 8.3 short names.
 */
#ifndef _SMBSRV_WIRE_DIR_H
#define _SMBSRV_WIRE_DIR_H

#include "aapl.h"
#include "compat.h"
#include "out.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* QUERY_DIRECTORY request (2.2.33), offsets in the body. */
#define SMB2_QDIR_REQ_SIZE		33
#define SMB2_QDIR_REQ_INFO_CLASS	2
#define SMB2_QDIR_REQ_FLAGS		3
#define SMB2_QDIR_REQ_FILE_INDEX	4
#define SMB2_QDIR_REQ_FILE_ID		8
#define SMB2_QDIR_REQ_NAME_OFFSET	24
#define SMB2_QDIR_REQ_NAME_LENGTH	26
#define SMB2_QDIR_REQ_OUTPUT_LENGTH	28
#define SMB2_QDIR_REQ_BUFFER		32

/* Flags. */
#define SMB2_RESTART_SCANS		0x01
#define SMB2_RETURN_SINGLE_ENTRY	0x02
#define SMB2_INDEX_SPECIFIED		0x04
#define SMB2_REOPEN			0x10

/* The response is laid out as QUERY_INFO's (wire/info.h). */

struct smb2_query_dir_req {
	u8 info_class;
	u8 flags;
	u32 file_index;
	const u8 *file_id;	/* 16 bytes in the PDU */
	const u8 *name;		/* UTF-16LE search pattern, NULL when empty */
	u32 name_len;
	u32 out_len;		/* OutputBufferLength */
};

/*
 * Decode a QUERY_DIRECTORY request: the pattern must lie in the PDU past
 * the fixed part.  STATUS_SUCCESS or STATUS_INVALID_PARAMETER.
 */
u32 smb2_query_dir_req_decode(const u8 *pdu, u32 pdu_len,
			      struct smb2_query_dir_req *r);

/* One directory entry as the classes report it. */
struct smb_dirent {
	const char *name;	/* UTF-8 */
	u32 name_len;
	u32 file_index;
	u64 creation_time;	/* NT times */
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u64 eof;
	u64 allocation;
	u32 attributes;
	u32 ea_size;
	u32 reparse_tag;	/* with FILE_ATTRIBUTE_REPARSE_POINT */
	u64 file_id;		/* the inode number */
	const u8 *short_name;	/* UTF-16LE 8.3 name, up to 24 bytes */
	u32 short_len;
	/* SMB_FIND_FILE_POSIX_INFO (posix.h) only. */
	u32 nlink;
	u32 mode;		/* st_mode */
	u32 uid;
	u32 gid;
	u32 dev;
	/* FILE_ID_BOTH_DIRECTORY_INFORMATION to a Mac (ReadDirAttr). */
	const struct smb_aapl_dirent *aapl;
};

/*
 * Size of an entry of class @cls before its name (the least room one
 * entry needs: below it the answer is STATUS_INFO_LENGTH_MISMATCH), or 0
 * when the class is not one a directory can be queried with.
 */
u32 smb_dirent_fixed(u8 cls);

/*
 * Encode the entry @e of class @cls into @o at @off (NextEntryOffset 0;
 * with @e->aapl, FILE_ID_BOTH_DIRECTORY_INFORMATION carries the Mac
 * fields instead of EaSize, ShortName and Reserved2, as Samba sends them;
 * link entries with smb_dirent_link()).  Writes what fits in @o; returns
 * the entry's full length (unpadded), or -EINVAL for a name that is not
 * UTF-8.
 */
int smb_dirent_encode(u8 cls, const struct smb_dirent *e,
		      const struct smb_out *o, u32 off);
/* Set NextEntryOffset of the entry at @off. */
void smb_dirent_link(const struct smb_out *o, u32 off, u32 next);
/*
 * Set FileNameLength of the entry of class @cls at @off to @len (rounded
 * down to whole UTF-16 units): for an entry whose name was cut short.
 */
void smb_dirent_set_name_len(u8 cls, const struct smb_out *o, u32 off,
			     u32 len);

/* Longest search pattern, in characters (a name is at most 255). */
#define SMB_PATTERN_MAX		512

struct smb_pattern {
	u32 len;
	bool any;		/* "*": matches everything */
	bool wild;		/* has a wildcard */
	u32 cp[SMB_PATTERN_MAX];	/* code points */
};

/*
 * Compile a search pattern (@bytes of UTF-16LE; empty means "*").
 * STATUS_SUCCESS, STATUS_INVALID_PARAMETER for an odd length, or
 * STATUS_OBJECT_NAME_INVALID for an unpaired surrogate, a NUL, a path
 * separator or a pattern longer than SMB_PATTERN_MAX.
 */
u32 smb_pattern_compile(const u8 *name, u32 bytes, struct smb_pattern *p);

/* Whether the name (@len bytes of UTF-8) matches, without case. */
bool smb_pattern_match(const struct smb_pattern *p, const char *name,
		       u32 len);

/*
 * The 8.3 name of a long name, as UTF-16LE into @out (24 bytes): the name
 * itself in upper case when it is a valid 8.3 name already, else up to
 * four characters of the base, '~', three characters of a hash of the
 * whole name and up to three of the extension ("TORT~K3Z.TXT").  Returns
 * the length in bytes; 0 for "." and "..".
 */
u32 smb_short_name(const char *name, u32 len, u8 out[24]);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_DIR_H */
