/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What file-system IOCTLs carry (MS-SMB2 2.2.31.x, 2.2.32.x; MS-FSCC 2.3):
 * server-side copy, sparse files and allocated ranges, zeroing, reparse
 * points (symbolic links), object ids, network interfaces, and the
 * symbolic link error response a CREATE sends (MS-SMB2 2.2.2.2.1).
 */
#ifndef _SMBSRV_WIRE_FSCTL_H
#define _SMBSRV_WIRE_FSCTL_H

#include "compat.h"
#include "smb2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Control codes (MS-FSCC 2.3, MS-SMB2 2.2.31). */
#define FSCTL_DFS_GET_REFERRALS		0x00060194
#define FSCTL_DFS_GET_REFERRALS_EX	0x000601b0
#define FSCTL_PIPE_PEEK			0x0011400c
#define FSCTL_PIPE_WAIT			0x00110018
#define FSCTL_PIPE_TRANSCEIVE		0x0011c017
#define FSCTL_SRV_COPYCHUNK		0x001440f2
#define FSCTL_SRV_ENUMERATE_SNAPSHOTS	0x00144064
#define FSCTL_SRV_REQUEST_RESUME_KEY	0x00140078
#define FSCTL_SRV_READ_HASH		0x001441bb
#define FSCTL_SRV_COPYCHUNK_WRITE	0x001480f2
#define FSCTL_LMR_REQUEST_RESILIENCY	0x001401d4
#define FSCTL_QUERY_NETWORK_INTERFACE_INFO 0x001401fc
#define FSCTL_SET_REPARSE_POINT		0x000900a4
#define FSCTL_GET_REPARSE_POINT		0x000900a8
#define FSCTL_DELETE_REPARSE_POINT	0x000900ac
#define FSCTL_GET_OBJECT_ID		0x0009009c
#define FSCTL_SET_OBJECT_ID		0x00090098
#define FSCTL_DELETE_OBJECT_ID		0x000900a0
#define FSCTL_CREATE_OR_GET_OBJECT_ID	0x000900c0
#define FSCTL_SET_SPARSE		0x000900c4
#define FSCTL_SET_ZERO_DATA		0x000980c8
#define FSCTL_QUERY_ALLOCATED_RANGES	0x000940cf
#define FSCTL_GET_COMPRESSION		0x0009003c
#define FSCTL_SET_COMPRESSION		0x0009c040
#define FSCTL_FILE_LEVEL_TRIM		0x00098208
#define FSCTL_DUPLICATE_EXTENTS_TO_FILE	0x00098344
#define FSCTL_GET_INTEGRITY_INFORMATION	0x0009027c
#define FSCTL_SET_INTEGRITY_INFORMATION	0x0009c280
#define FSCTL_IS_PATHNAME_VALID		0x0009002c
#define FSCTL_QUERY_FILE_REGIONS	0x00090284

/* SRV_REQUEST_RESUME_KEY response (2.2.32.3): key, context length 0. */
#define SMB2_RESUME_KEY_SIZE		24
#define SMB2_RESUME_KEY_RSP_SIZE	32

/*
 * The ResumeKey is the server's to define: smbsrv's is the source's
 * FileId (persistent, volatile) and a tag naming its file (16, 8 bytes).
 */
#define SMB2_RESUME_KEY_FILE_ID		0
#define SMB2_RESUME_KEY_TAG		16

struct smb2_resume_key {
	u64 fid_persistent;
	u64 fid_volatile;
	u64 tag;
};

/* The key in the 24 bytes at @key (a copy request's SourceKey). */
void smb2_resume_key_decode(const u8 *key, struct smb2_resume_key *k);
/* A SRV_REQUEST_RESUME_KEY response (32 bytes) at @out: ContextLength 0. */
void smb2_resume_key_rsp_encode(u8 *out, const struct smb2_resume_key *k);

/* SRV_COPYCHUNK_COPY (2.2.31.1) and SRV_COPYCHUNK (2.2.31.1.1). */
#define SMB2_COPYCHUNK_HDR		32
#define SMB2_COPYCHUNK_COUNT		24
#define SMB2_COPYCHUNK_CHUNK_SIZE	24
/* SRV_COPYCHUNK_RESPONSE (2.2.32.1). */
#define SMB2_COPYCHUNK_RSP_SIZE		12

struct smb2_copychunk_req {
	const u8 *key;		/* SourceKey, 24 bytes */
	u32 count;		/* ChunkCount */
	const u8 *chunks;	/* @count chunks, when they fit (see below) */
};

struct smb2_copychunk {
	u64 source;
	u64 target;
	u32 length;
};

/*
 * Decode a SRV_COPYCHUNK_COPY of @len bytes.  Returns 0, or -EINVAL when
 * the header does not fit or the chunks run past @len (3.3.5.15.6 answers
 * both with the server's limits).
 */
int smb2_copychunk_decode(const u8 *in, u32 len, struct smb2_copychunk_req *r);
void smb2_copychunk_get(const struct smb2_copychunk_req *r, u32 i,
			struct smb2_copychunk *c);
void smb2_copychunk_rsp_encode(u8 *out, u32 chunks, u32 chunk_bytes,
			       u32 total);

/* FILE_ZERO_DATA_INFORMATION (MS-FSCC 2.3.85) and the allocated range
 * buffer (2.3.46, 2.3.47): two signed 64-bit values each.
 */
#define SMB_RANGE_SIZE			16

/*
 * Decode the first 16 bytes of @in as two 64-bit values (FileOffset and
 * BeyondFinalZero, or FileOffset and Length).  Returns 0, or -EINVAL when
 * @len is short or either value is negative.
 */
int smb_range_decode(const u8 *in, u32 len, u64 *a, u64 *b);
void smb_range_encode(u8 *out, u64 offset, u64 length);

/* Reparse points (MS-FSCC 2.1.2). */
#define IO_REPARSE_TAG_SYMLINK		0xa000000c
#define IO_REPARSE_TAG_MOUNT_POINT	0xa0000003
#define IO_REPARSE_TAG_NFS		0x80000014
#define IO_REPARSE_TAG_LX_SYMLINK	0xa000001d
#define SMB_REPARSE_HDR			8
#define SMB_REPARSE_SYMLINK_HDR		12	/* after the 8-byte header */
#define SYMLINK_FLAG_RELATIVE		0x00000001
/* Most a reparse buffer may hold (MAXIMUM_REPARSE_DATA_BUFFER_SIZE). */
#define SMB_REPARSE_MAX			16384

struct smb_reparse {
	u32 tag;
	const u8 *data;		/* ReparseDataLength bytes */
	u16 data_len;
};

struct smb_symlink_reparse {
	const u8 *subst;	/* SubstituteName, UTF-16LE */
	u16 subst_len;
	const u8 *print;	/* PrintName, UTF-16LE */
	u16 print_len;
	u32 flags;
};

/*
 * A REPARSE_DATA_BUFFER of @len bytes: its header and data must fit
 * exactly (ReparseDataLength + 8 == @len).  Returns 0 or -EINVAL.
 */
int smb_reparse_decode(const u8 *in, u32 len, struct smb_reparse *r);

/*
 * The symbolic link data of a decoded reparse point with the SYMLINK tag:
 * both names must lie in the path buffer and have even lengths; the
 * substitute name must not be empty.  Returns 0 or -EINVAL.
 */
int smb_symlink_reparse_decode(const struct smb_reparse *r,
			       struct smb_symlink_reparse *s);

/*
 * Encode a symbolic link reparse point for @target (@len bytes of UTF-8,
 * '/'-separated) at @out (@cap bytes): the substitute and print names are
 * the same UTF-16LE path with backslashes (with @verbatim, for POSIX
 * clients, as the target is: '/' stays '/' and '\\' stays '\\');
 * @relative sets SYMLINK_FLAG_RELATIVE.  With @out NULL only the size is
 * computed.  Returns the size, -EINVAL (not UTF-8) or -ENOSPC.
 */
int smb_symlink_reparse_encode(u8 *out, u32 cap, const char *target, u32 len,
			       bool relative, bool verbatim);

/*
 * The symbolic link error response a CREATE that stopped on a symbolic
 * link sends (MS-SMB2 2.2.2.2.1), without the ERROR response around it:
 * SymLinkLength .. PathBuffer for @target (UTF-8, '/'-separated),
 * @unparsed bytes of the request's name after the link.  Returns the
 * size, or -EINVAL / -ENOSPC as above.
 */
int smb_symlink_error_encode(u8 *out, u32 cap, const char *target, u32 len,
			     bool relative, bool verbatim, u16 unparsed);

/* FILE_OBJECTID_BUFFER (MS-FSCC 2.1.3): four 16-byte ids. */
#define SMB_OBJECT_ID_SIZE		64
#define SMB_OBJECT_ID_BIRTH_VOLUME	16
#define SMB_OBJECT_ID_BIRTH_OBJECT	32
#define SMB_OBJECT_ID_DOMAIN		48

/*
 * A FILE_OBJECTID_BUFFER at @out whose ObjectId (and BirthObjectId) is
 * made of @ino, @generation and @dev, BirthVolumeId the 16 bytes at
 * @volume, DomainId zero.
 */
void smb_object_id_encode(u8 *out, u64 ino, u32 generation, u32 dev,
			  const u8 *volume);

/* DUPLICATE_EXTENTS_DATA (MS-FSCC 2.3.8). */
#define SMB_DUP_EXTENTS_SIZE		40
#define SMB_DUP_EXTENTS_FILE_ID		0
#define SMB_DUP_EXTENTS_SOURCE		16
#define SMB_DUP_EXTENTS_TARGET		24
#define SMB_DUP_EXTENTS_COUNT		32

struct smb_dup_extents {
	u64 fid_persistent;	/* the source's FileId */
	u64 fid_volatile;
	u64 source_offset;
	u64 target_offset;
	u64 length;
};

/* Decode @len bytes at @in.  Returns 0, or -EINVAL when they are short. */
int smb_dup_extents_decode(const u8 *in, u32 len, struct smb_dup_extents *d);

/* COMPRESSION_STATE (MS-FSCC 2.3.12, 2.3.67): a 16-bit format. */
#define SMB_COMPRESSION_SIZE		2
#define COMPRESSION_FORMAT_NONE		0x0000

/* Decode @len bytes at @in.  Returns 0, or -EINVAL when they are short. */
int smb_compression_decode(const u8 *in, u32 len, u16 *format);
void smb_compression_encode(u8 *out, u16 format);

/* NETWORK_INTERFACE_INFO (2.2.32.5), with its SOCKADDR_STORAGE. */
#define SMB2_NETIF_INFO_SIZE		152
#define SMB2_NETIF_CAP_RSS		0x00000001
#define SMB2_NETIF_CAP_RDMA		0x00000002
#define SMB2_NETIF_AF_INET		0x0002
#define SMB2_NETIF_AF_INET6		0x0017

/*
 * Encode one NETWORK_INTERFACE_INFO at @out (152 bytes) for an IPv4
 * (@addr_len 4) or IPv6 (16) address; Next is left 0 (the last entry).
 */
/*
 * Chain @n entries smb2_netif_encode() wrote one after the other at @out:
 * each but the last gets Next, the offset of the one after it.
 */
void smb2_netif_chain(u8 *out, u32 n);
void smb2_netif_encode(u8 *out, u32 ifindex, u32 caps, u64 speed,
		       const u8 *addr, u32 addr_len, u32 scope_id);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_FSCTL_H */
