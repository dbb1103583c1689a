/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Apple's SMB2 extensions as macOS clients use them and Samba's vfs_fruit
 * serves them (MS-SMB2 has none of this):
 *
 *  - the "AAPL" create context: a client's server query (command, the
 *    answers it wants, its own capabilities) and the server's answer
 *    (server and volume capabilities, a model string);
 *  - AFP_AfpInfo, the 60-byte stream carrying a file's Finder info, with
 *    the rules macOS servers apply to writes and reads of it;
 *  - AppleDouble (version 2) blobs: netatalk's org.netatalk.Metadata
 *    xattr, and "._" files with the extended attributes macOS packs into
 *    their Finder info entry;
 *  - the Mac fields of a FILE_ID_BOTH_DIRECTORY_INFORMATION entry
 *    (ReadDirAttr): maximal access, resource fork size, compressed Finder
 *    info, UNIX mode;
 *  - the band size of a Time Machine sparse bundle's Info.plist.
 *
 * All multi-byte fields of AfpInfo and AppleDouble are big-endian; those
 * of the AAPL context little-endian.
 */
#ifndef _SMBSRV_WIRE_AAPL_H
#define _SMBSRV_WIRE_AAPL_H

#include "compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the AAPL create context -------------------------------------------- */

#define SMB2_AAPL_SERVER_QUERY		1	/* CommandCode */
#define SMB2_AAPL_RESOLVE_ID		2

/* ReplyBitmap: what the answer carries. */
#define SMB2_AAPL_SERVER_CAPS		0x1
#define SMB2_AAPL_VOLUME_CAPS		0x2
#define SMB2_AAPL_MODEL_INFO		0x4

/* Client and server capabilities. */
#define SMB2_AAPL_SUPPORTS_READ_DIR_ATTR	0x1
#define SMB2_AAPL_SUPPORTS_OSX_COPYFILE		0x2
#define SMB2_AAPL_UNIX_BASED			0x4
#define SMB2_AAPL_SUPPORTS_NFS_ACE		0x8

/* Volume capabilities. */
#define SMB2_AAPL_SUPPORT_RESOLVE_ID	0x1
#define SMB2_AAPL_CASE_SENSITIVE	0x2
#define SMB2_AAPL_FULL_SYNC		0x4

/* A server query: CommandCode (8 bytes), ReplyBitmap, ClientCaps. */
#define SMB2_AAPL_REQ_SIZE		24
/* Longest model string answered, in UTF-8 bytes. */
#define SMB2_AAPL_MODEL_MAX		64
/*
 * The largest answer: 40 bytes and the model in UTF-16LE (never more
 * than 2 bytes per byte of UTF-8).
 */
#define SMB2_AAPL_RSP_MAX		(40 + 2 * SMB2_AAPL_MODEL_MAX)

struct smb2_aapl_req {
	u32 command;
	u64 bitmap;		/* ReplyBitmap */
	u64 client_caps;
};

/*
 * Decode a client's AAPL context.  A server query is exactly 24 bytes
 * whose CommandCode (the low 32 bits of its first 8) is
 * SMB2_AAPL_SERVER_QUERY; anything else is STATUS_INVALID_PARAMETER, as
 * Samba answers it.
 */
u32 smb2_aapl_req_decode(const u8 *data, u32 len, struct smb2_aapl_req *q);

struct smb2_aapl_rsp {
	u64 bitmap;		/* the client's ReplyBitmap */
	u64 server_caps;
	u64 volume_caps;
	const char *model;	/* UTF-8 */
	u32 model_len;
};

/*
 * Encode the answer into @buf (@cap bytes, at least SMB2_AAPL_RSP_MAX):
 * CommandCode and Reserved, ReplyBitmap, then each part the bitmap asks
 * for: ServerCaps, VolumeCaps, and Pad, ModelStringLength, the model in
 * UTF-16LE.  Returns the length, or -EINVAL (a model that is not UTF-8 or
 * longer than SMB2_AAPL_MODEL_MAX bytes).
 */
int smb2_aapl_rsp_encode(u8 *buf, u32 cap, const struct smb2_aapl_rsp *r);

/* ---- AFP_AfpInfo and AFP_Resource --------------------------------------- */

#define SMB_AFPINFO_SIZE		60
#define SMB_AFPINFO_FINDER_OFF		16
#define SMB_AFP_FINDER_SIZE		32
/* "AFP\0", version 0x100, backup time "never" (AppleDouble's 0x80000000). */
#define SMB_AFP_SIGNATURE		0x41465000u
#define SMB_AFP_VERSION			0x00000100u
#define SMB_AD_DATE_START		0x80000000u
/* AppleDouble dates count seconds from 2000-01-01 UTC. */
#define SMB_AD_DATE_DELTA		946684800

#define SMB_AFPINFO_STREAM		"AFP_AfpInfo"
#define SMB_AFPRESOURCE_STREAM		"AFP_Resource"

enum smb_afp_stream {
	SMB_AFP_NONE,
	SMB_AFP_INFO,		/* AFP_AfpInfo */
	SMB_AFP_RESOURCE,	/* AFP_Resource */
};

/* Which of Apple's streams a stream name (@len bytes) is, without case. */
enum smb_afp_stream smb_afp_stream_kind(const char *name, u32 len);

/* A fresh AfpInfo with @finder (32 bytes, or NULL for zeros). */
void smb_afpinfo_init(u8 out[SMB_AFPINFO_SIZE], const u8 *finder);

/*
 * Whether a stored AfpInfo value (@len bytes) is one: 60 bytes as smbsrv
 * and ksmbd keep stream data, or 61 ending in NUL as Samba's
 * streams_xattr keeps it.  Other sizes are left-overs a Mac never wrote.
 */
bool smb_afpinfo_stored_valid(const u8 *val, u32 len);

/*
 * A WRITE of @len bytes at @off to AFP_AfpInfo, by macOS's rules: fewer
 * than 3 bytes, not starting with "AFP", or short of 60 bytes at a
 * nonzero offset is -EINVAL; up to 16 bytes (no Finder info) changes
 * nothing (0); otherwise the first 60 bytes (zero-padded), taken as
 * written at offset 0, are the new value in @out (1), and *@empty says
 * whether its Finder info is all zeros (a Mac deleting the stream).
 */
int smb_afpinfo_write(const u8 *data, u32 len, u64 off,
		      u8 out[SMB_AFPINFO_SIZE], bool *empty);

/*
 * A READ of @len bytes at @off from AfpInfo: macOS reads it from offset
 * 0 whatever the offset up to 60 (a client off-by-one), nothing beyond.
 * Returns how many bytes of the value, from its start, answer it.
 */
u32 smb_afpinfo_read_len(u64 off, u32 len);

/*
 * SET_INFO end of file of AfpInfo: beyond 60 bytes it is refused
 * (STATUS_ALLOTTED_SPACE_EXCEEDED, macOS's answer), else it succeeds and
 * changes nothing.
 */
static inline bool smb_afpinfo_eof_ok(u64 eof)
{
	return eof <= SMB_AFPINFO_SIZE;
}

/* The 286-byte resource fork macOS writes as a placeholder. */
#define SMB_BLANK_RFORK_SIZE		286
bool smb_rfork_is_blank(const u8 *data, u32 len);

/* ---- AppleDouble -------------------------------------------------------- */

#define SMB_AD_MAGIC			0x00051607u
#define SMB_AD_VERSION2			0x00020000u
#define SMB_AD_HEADER_LEN		26	/* magic, version, filler, count */
#define SMB_AD_ENTRY_LEN		12
#define SMB_AD_FILLER_OSX		"Mac OS X        "

/* Entry IDs. */
#define SMB_ADEID_RFORK			2
#define SMB_ADEID_FILEDATESI		8
#define SMB_ADEID_FINDERI		9

/* netatalk's metadata xattr as Samba writes it: 8 entries, 402 bytes. */
#define SMB_AD_META_SIZE		402
/* A "._" file's header without xattrs: Finder info, resource fork at 82. */
#define SMB_AD_DOT_UND_SIZE		82
/* Largest "._" header read (Samba's and macOS's limit). */
#define SMB_AD_HDR_MAX			65536
/* At most this many packed xattrs are taken from a "._" file. */
#define SMB_AD_XATTR_MAX		1024

struct smb_adouble {
	bool osx;		/* filler "Mac OS X": written by macOS */
	u32 finder_off, finder_len;	/* 0/0: no Finder info */
	u32 rfork_off, rfork_len;	/* 0/0: no resource fork */
	u32 dates_off, dates_len;
	/* Packed xattrs in the Finder info entry of a "._" file. */
	u32 xattr_count;
	u32 xattr_pos;		/* the first entry, for smb_adouble_xattr() */
};

/*
 * Parse an AppleDouble blob: @len bytes read from the start of a file of
 * @size bytes (the resource fork of a "._" file may lie beyond what was
 * read, and is cut to the file's size).  Every entry lies within @size
 * and every entry but the resource fork within the bytes read; the
 * Finder info is at least 32 bytes; with @xattrs, packed xattrs after
 * the Finder info are checked ("ATTR" header, entries and their data
 * within the Finder info entry).  Returns 0 or -EINVAL.
 */
int smb_adouble_parse(const u8 *buf, u32 len, u64 size, bool xattrs,
		      struct smb_adouble *ad);

struct smb_ad_xattr {
	const char *name;	/* UTF-8, name_len bytes, no NUL */
	u32 name_len;
	u32 off, len;		/* the value, in the blob */
};

/*
 * The packed xattrs of a parsed "._" blob: @pos starts at ad->xattr_pos;
 * returns 1 with *@x filled, 0 after the last one.
 */
int smb_adouble_xattr(const u8 *buf, u32 len, const struct smb_adouble *ad,
		      u32 *index, u32 *pos, struct smb_ad_xattr *x);

/*
 * The stream name a packed xattr of a "._" file becomes (@name, @len
 * bytes, UTF-8): the characters NTFS does not allow in names (0x01-0x1f
 * " * : < > ? \\ |) as the private-use characters U+F001-U+F01F and
 * U+F020-U+F027 Macs use for them (fruit:encoding = private), into @out
 * (@cap bytes, no NUL).  Returns the length, or -EINVAL (empty, a NUL or
 * '/', or longer than @cap).
 */
int smb_adouble_stream_name(const char *name, u32 len, char *out, u32 cap);

/*
 * Samba's netatalk metadata blob (SMB_AD_META_SIZE bytes into @out) with
 * @finder (32 bytes) and the dates set to @now (UNIX seconds).
 */
void smb_adouble_meta_init(u8 out[SMB_AD_META_SIZE], const u8 *finder,
			   s64 now);

/*
 * A "._" header without xattrs (SMB_AD_DOT_UND_SIZE bytes into @out):
 * netatalk's filler, @finder (32 bytes, or NULL for zeros), a resource
 * fork of @rfork_len bytes at offset 82.
 */
void smb_adouble_dot_und_init(u8 out[SMB_AD_DOT_UND_SIZE], const u8 *finder,
			      u32 rfork_len);

/* ---- ReadDirAttr -------------------------------------------------------- */

struct smb_aapl_dirent {
	u32 max_access;		/* in EaSize */
	u64 rfork_size;		/* ShortName[0..8], little-endian */
	u8 finder[16];		/* ShortName[8..24]: compressed Finder info */
	u16 mode;		/* Reserved2: st_mode's low 16 bits */
};

/*
 * The compressed Finder info of a listing entry from an AfpInfo (NULL:
 * none, the date "never"): type and creator (regular files), Finder
 * flags, extended flags and the date added (@btime, UNIX seconds).
 */
void smb_aapl_finder_compress(u8 out[16], const u8 *afpinfo, bool regular,
			      s64 btime);

/* ---- Time Machine ------------------------------------------------------- */

/*
 * The band size a sparse bundle's Info.plist (@len bytes) gives: the
 * line after "<key>band-size</key>" must be "<integer>N</integer>"
 * (blanks before each).  Returns 0 with *@size, or -EINVAL.
 */
int smb_tm_band_size(const char *plist, u32 len, u64 *size);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_AAPL_H */
