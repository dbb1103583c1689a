/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: named streams in extended attributes (vfs objects =
 * streams_xattr).
 *
 * The stream "NAME" of a file or directory is its xattr
 * "user.DosStream.NAME:$DATA" (wire/stream.h); the value is the stream's
 * data.  A stream open is a struct smbsrv_file with SMBSRV_FILE_STREAM:
 * its filp is the base object opened O_PATH (never read or written as
 * data), and its fnode is the stream's own (keyed by inode and xattr
 * name), so sharing, delete-pending and byte-range locks are per stream.
 * Reads and writes go through the whole value, serialised per stream by
 * fnode->stream_mutex; a stream is as long as the file system lets an
 * xattr value be (at most XATTR_SIZE_MAX, 64 KiB); beyond that a WRITE
 * gets STATUS_DISK_FULL.
 *
 * All of this runs with the tree's credentials in force: user.* xattrs
 * obey the base file's permissions (the kernel checks write permission
 * to set one, read permission to read one).
 */
#ifndef _SMBSRV_STREAM_H
#define _SMBSRV_STREAM_H

#include <linux/fs.h>
#include <linux/path.h>
#include <linux/types.h>
#include <linux/uio.h>

struct smbsrv_file;
struct smb_stream_ent;

/*
 * The xattr of stream @name (@len bytes) on @dentry: an existing one
 * whose name matches without case, else the name it would be created
 * with.  Returns a kmalloc()ed xattr name (*@exists says which), or an
 * ERR_PTR (-EINVAL: not a usable stream name).
 */
char *smbsrv_stream_resolve(struct dentry *dentry, const char *name, u32 len,
			    bool *exists);

/* Create (empty) or empty the stream xattr @xname of @path. */
int smbsrv_stream_set_empty(const struct path *path, const char *xname);

/*
 * Remove every named stream of @path (an overwrite of the file's data
 * takes them along, MS-FSA 2.1.5.1.2.1).
 */
int smbsrv_stream_remove_all(const struct path *path);

/* Remove the stream xattr @xname of @path. */
int smbsrv_stream_remove(const struct path *path, const char *xname);

/*
 * The same for AFP_Resource on a fruit share: kept while it has data, as
 * macOS keeps it.
 */
int smbsrv_stream_remove_rsrc(const struct path *path, const char *xname);

/* Remove the stream of the open @f now (POSIX-semantics delete). */
int smbsrv_stream_delete(struct smbsrv_file *f);

/* The stream's size in bytes, or -errno. */
ssize_t smbsrv_stream_size(struct smbsrv_file *f);

/* Read up to iov_iter_count(@to) bytes at @pos: bytes read, or -errno. */
ssize_t smbsrv_stream_read(struct smbsrv_file *f, u64 pos,
			   struct iov_iter *to);

/*
 * Write @len bytes at *@pos, or at the end with @append; *@pos is where
 * the write ended.  -ENOSPC beyond the largest value the file system
 * keeps.
 */
ssize_t smbsrv_stream_write(struct smbsrv_file *f, loff_t *pos, bool append,
			    const void *buf, u32 len);

/* Set the stream's end of file (zeros when it grows). */
int smbsrv_stream_truncate(struct smbsrv_file *f, u64 size);

/*
 * Rename the stream of @f to @name (@len bytes) on the same file; an
 * existing stream of that name is replaced when @replace, else -EEXIST;
 * -EBUSY while it is open.
 */
int smbsrv_stream_rename(struct smbsrv_file *f, const char *name, u32 len,
			 bool replace);

/*
 * The named streams of @dentry, for FileStreamInformation: up to @max of
 * them into @ents, their names pointing into *@list (kvfree() it, also
 * on error).  Returns how many, or -errno.
 */
int smbsrv_stream_list(struct dentry *dentry, struct smb_stream_ent *ents,
		       u32 max, char **list);

/* Allocation size reported for a stream of @size bytes. */
static inline u64 smbsrv_stream_allocation(u64 size)
{
	return round_up(size, 4096);
}

#endif /* _SMBSRV_STREAM_H */
