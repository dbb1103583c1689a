/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMB3.1.1 POSIX extensions (the SMB3 Unix extensions of Samba, ksmbd
 * and the Linux cifs client; no MS-SMB2 section describes them):
 *
 * - the negotiate context SMB2_POSIX_EXTENSIONS_AVAILABLE (0x100), whose
 *   data is a list of 16-byte variant ids, one of them SMB2_CREATE_TAG_POSIX;
 * - the create context named by those 16 bytes: a 4-byte mode in a
 *   request; in a response the object's link count, reparse tag, mode
 *   (type and permission bits) and owner and group as the SIDs
 *   S-1-22-1-<uid> and S-1-22-2-<gid>;
 * - FILE_POSIX_INFORMATION (QUERY_INFO file class 100), the directory
 *   class SMB_FIND_FILE_POSIX_INFO (100) and FS_POSIX_INFORMATION
 *   (QUERY_INFO file-system class 100);
 * - the NFS-style reparse points (MS-FSCC 2.1.2.6) through which the
 *   cifs client makes and reads FIFOs, sockets and device nodes.
 *
 * Modes on the wire: the permission bits as POSIX has them (07777) and the
 * file type in bits 12-15 (0 regular, 1 directory, 2 symlink, 3 character
 * device, 4 block device, 5 FIFO, 6 socket), as Samba sends them.
 */
#ifndef _SMBSRV_WIRE_POSIX_H
#define _SMBSRV_WIRE_POSIX_H

#include "compat.h"
#include "out.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMB2_POSIX_EXTENSIONS_AVAILABLE	0x0100
#define SMB2_POSIX_TAG_SIZE		16
/* SMB2_CREATE_TAG_POSIX: 93AD2550-9CB4-11E7-B423-83DE968BCD7C. */
extern const u8 smb2_posix_tag[SMB2_POSIX_TAG_SIZE];

/* The information classes (QUERY_INFO and QUERY_DIRECTORY). */
#define FILE_POSIX_INFORMATION		100
#define SMB_FIND_FILE_POSIX_INFO	100
#define FS_POSIX_INFORMATION		100

/* File types in the wire mode. */
#define SMB_POSIX_TYPE_FILE		0
#define SMB_POSIX_TYPE_DIR		1
#define SMB_POSIX_TYPE_SYMLINK		2
#define SMB_POSIX_TYPE_CHARDEV		3
#define SMB_POSIX_TYPE_BLKDEV		4
#define SMB_POSIX_TYPE_FIFO		5
#define SMB_POSIX_TYPE_SOCKET		6
#define SMB_POSIX_TYPE_SHIFT		12
#define SMB_POSIX_PERM_MASK		07777

/* POSIX file type bits (S_IFMT), the same in the kernel and userspace. */
#define SMB_S_IFMT	0170000
#define SMB_S_IFSOCK	0140000
#define SMB_S_IFLNK	0120000
#define SMB_S_IFREG	0100000
#define SMB_S_IFBLK	0060000
#define SMB_S_IFDIR	0040000
#define SMB_S_IFCHR	0020000
#define SMB_S_IFIFO	0010000

/*
 * The data of a client's POSIX negotiate context: 1 when it lists
 * SMB2_CREATE_TAG_POSIX, 0 when it lists only variants we do not know,
 * -EINVAL when its length is not a whole number of 16-byte ids (Samba
 * answers STATUS_INVALID_PARAMETER).
 */
int smb2_posix_neg_ctx_decode(const u8 *data, u32 len);

/*
 * The data of a POSIX create context of a request: exactly 4 bytes, the
 * mode for a new object.  *@perms: its permission bits (07777); 1 when
 * it gives one, 0 when it says "no mode" (the cifs client's ACL_NO_MODE,
 * 0xffff, for the empty file it turns into a special file), -EINVAL
 * (Samba: STATUS_INVALID_PARAMETER).
 */
#define SMB_POSIX_NO_MODE		0xffff
int smb2_posix_cc_decode(const u8 *data, u32 len, u32 *perms);

/* A POSIX st_mode (type and permissions) as a wire mode, and back. */
u32 smb_posix_mode_to_wire(u32 st_mode);
/* The st_mode of a wire mode; 0 for a type that does not exist. */
u32 smb_posix_wire_to_mode(u32 wire);

/* What the POSIX classes and the create context report of an object. */
struct smb_posix_info {
	u64 creation_time;	/* NT times */
	u64 access_time;
	u64 write_time;
	u64 change_time;
	u64 eof;
	u64 allocation;
	u32 attributes;		/* FILE_ATTRIBUTE_* */
	u64 ino;
	u32 dev;
	u32 nlink;
	u32 reparse_tag;
	u32 mode;		/* st_mode: type and permission bits */
	u32 uid;
	u32 gid;
};

/* The create context's response data: nlink, tag, mode, two SIDs. */
#define SMB_POSIX_CC_SIZE		44
u32 smb_posix_cc_encode(u8 *buf, const struct smb_posix_info *pi);

/* FILE_POSIX_INFORMATION: 68 bytes, then the create context's data. */
#define SMB_POSIX_INFO_FIXED		68
#define SMB_POSIX_INFO_SIZE		(SMB_POSIX_INFO_FIXED + SMB_POSIX_CC_SIZE)
/* Encode it at @off of @o (what fits); returns SMB_POSIX_INFO_SIZE. */
u32 smb_posix_info_encode(const struct smb_posix_info *pi,
			  const struct smb_out *o, u32 off);

/*
 * SMB_FIND_FILE_POSIX_INFO: NextEntryOffset, FileIndex (ignored by
 * clients), FILE_POSIX_INFORMATION, the name's length in bytes and the
 * name in UTF-16LE.
 */
#define SMB_POSIX_DIRENT_NAME_LEN	(8 + SMB_POSIX_INFO_SIZE)
#define SMB_POSIX_DIRENT_FIXED		(SMB_POSIX_DIRENT_NAME_LEN + 4)

/* FS_POSIX_INFORMATION (the cifs client's statfs). */
struct smb_posix_fsinfo {
	u32 optimal_transfer;
	u32 block_size;
	u64 total_blocks;
	u64 free_blocks;
	u64 avail_blocks;	/* to the caller */
	u64 total_files;	/* ~0ULL: unknown */
	u64 free_files;
	u64 fsid;
};

#define SMB_POSIX_FSINFO_SIZE		56
u32 smb_posix_fsinfo_encode(const struct smb_posix_fsinfo *fs,
			    const struct smb_out *o);

/* NFS-style reparse points (MS-FSCC 2.1.2.6): NFS_SPECFILE_* types. */
#define NFS_SPECFILE_LNK		0x00000000014B4E4CULL
#define NFS_SPECFILE_CHR		0x0000000000524843ULL
#define NFS_SPECFILE_BLK		0x00000000004B4C42ULL
#define NFS_SPECFILE_FIFO		0x000000004F464946ULL
#define NFS_SPECFILE_SOCK		0x000000004B434F53ULL

/* A special file an NFS reparse point describes. */
struct smb_nfs_special {
	u32 type;		/* SMB_S_IFIFO, SMB_S_IFSOCK, SMB_S_IFCHR, SMB_S_IFBLK */
	u32 major;
	u32 minor;
};

/*
 * The data (after the 8-byte REPARSE_DATA_BUFFER header) of an
 * IO_REPARSE_TAG_NFS point for a FIFO, socket or device: an 8-byte type,
 * and for devices two 32-bit numbers, major then minor.  Returns 0,
 * -EOPNOTSUPP for an NFS symlink (kept as real symlinks through the
 * SYMLINK tag) or a type we do not know, -EINVAL when the lengths are
 * wrong.
 */
int smb_nfs_reparse_decode(const u8 *data, u32 len, struct smb_nfs_special *s);

/*
 * A whole REPARSE_DATA_BUFFER (tag IO_REPARSE_TAG_NFS) for @s at @out
 * (@cap bytes; NULL to measure).  Returns its size, -EINVAL for a type
 * that is no special file, or -ENOSPC.
 */
int smb_nfs_reparse_encode(u8 *out, u32 cap, const struct smb_nfs_special *s);

#ifdef __cplusplus
}
#endif

#endif /* _SMBSRV_WIRE_POSIX_H */
