// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: file-system FSCTLs (MS-SMB2 3.3.5.15, MS-FSA 2.1.5.9).
 *
 * Sparse files: the SPARSE_FILE attribute lives in the DOS attribute
 * xattr; FSCTL_QUERY_ALLOCATED_RANGES of a sparse file walks SEEK_DATA
 * and SEEK_HOLE, of any other file reports the queried range up to the
 * end of file as allocated (as Windows does); FSCTL_SET_ZERO_DATA punches
 * a hole in a sparse file and zeroes (keeping the blocks) in any other.
 * Server-side copy and block cloning are copy.c's.  Reparse points are
 * symbolic links: GET reads one opened as itself, SET turns the empty
 * file or directory an open names into a symlink (the way the cifs
 * client makes native symlinks).  Object ids are derived from the inode.
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/net.h>
#include <linux/once.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "../brl.h"
#include "../conn.h"
#include "../file.h"
#include "../session.h"
#include "../smbsrv.h"
#include "../status.h"
#include "../vfs.h"
#include "../wire/dosattr.h"
#include "../wire/fscc.h"
#include "../wire/fsctl.h"
#include "../wire/ioctl.h"
#include "../wire/posix.h"
#include "../wire/utf16.h"
#include "fsctl.h"
#include "posix.h"
#include "smb2.h"
#include "snap.h"

/* Most allocated ranges one answer carries (16 bytes each). */
#define SMBSRV_QAR_MAX			65536

/* ---- sparse files ------------------------------------------------------- */

/* The stored DOS attributes of @x's file, or those it has without. */
static int smbsrv_fsctl_dosattr(struct smbsrv_fsctl *x, struct smb_dosattr *da)
{
	struct smbsrv_fattr fa;
	int err;

	memset(da, 0, sizeof(*da));
	err = smbsrv_vfs_get_dosattr(x->f->filp->f_path.dentry, da);
	if (!err && (da->valid & SMB_DOSINFO_ATTRIB))
		return 0;
	if (err && err != -ENODATA && err != -EINVAL)
		return err;
	err = smbsrv_vfs_getattr(x->req->tree, &x->f->filp->f_path, &fa);
	if (err)
		return err;
	da->valid |= SMB_DOSINFO_ATTRIB;
	da->attrib = fa.attributes & FILE_ATTRIBUTE_KEPT;
	return 0;
}

static bool smbsrv_fsctl_is_sparse(struct smbsrv_fsctl *x)
{
	struct smb_dosattr da;

	if (!(x->req->tree->share_flags &
	      SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES))
		return false;
	return !smbsrv_vfs_get_dosattr(x->f->filp->f_path.dentry, &da) &&
	       (da.valid & SMB_DOSINFO_ATTRIB) &&
	       (da.attrib & FILE_ATTRIBUTE_SPARSE_FILE);
}

/* FSCTL_SET_SPARSE (MS-FSA 2.1.5.9.30). */
static u32 smbsrv_fsctl_set_sparse(struct smbsrv_fsctl *x)
{
	bool sparse = !x->r->in_len || x->r->in[0];
	struct smb_dosattr da;
	const struct cred *old;
	u32 attrib;
	int err;

	if (!smbsrv_fsctl_regular(x))
		return STATUS_INVALID_PARAMETER;
	if (!(x->f->access & (FILE_WRITE_DATA | FILE_APPEND_DATA |
			      FILE_WRITE_ATTRIBUTES)))
		return STATUS_ACCESS_DENIED;
	if (!(x->req->tree->share_flags &
	      SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES))
		return STATUS_SUCCESS;	/* nothing to keep it in: never sparse */
	old = smbsrv_vfs_creds_begin(x->req->tree);
	err = smbsrv_fsctl_dosattr(x, &da);
	if (!err) {
		attrib = sparse ? da.attrib | FILE_ATTRIBUTE_SPARSE_FILE :
				  da.attrib & ~FILE_ATTRIBUTE_SPARSE_FILE;
		if (attrib != da.attrib) {
			da.attrib = attrib;
			err = smbsrv_vfs_set_dosattr(&x->f->filp->f_path, &da);
		}
	}
	smbsrv_vfs_creds_end(old);
	return smbsrv_errno_status(err);
}

/* FSCTL_QUERY_ALLOCATED_RANGES (MS-FSA 2.1.5.9.23). */
static u32 smbsrv_fsctl_qar(struct smbsrv_fsctl *x)
{
	struct file *filp = x->f->filp;
	u64 off, len, end, size, *ranges;
	u32 n = 0, cap, i, status = STATUS_SUCCESS;
	loff_t d, h;
	u8 *out;

	if (!smbsrv_fsctl_regular(x))
		return STATUS_INVALID_PARAMETER;
	if (!(x->f->access & FILE_READ_DATA))
		return STATUS_ACCESS_DENIED;
	if (smb_range_decode(x->r->in, x->r->in_len, &off, &len) ||
	    off + len > (u64)LLONG_MAX)
		return STATUS_INVALID_PARAMETER;
	/* No room for a range is an error only when there is one. */
	cap = min_t(u32, x->r->max_out / SMB_RANGE_SIZE, SMBSRV_QAR_MAX);
	ranges = kvmalloc_array(max(cap, 1u), 2 * sizeof(u64), GFP_KERNEL);
	if (!ranges)
		return STATUS_INSUFFICIENT_RESOURCES;
	size = i_size_read(file_inode(filp));
	end = min(off + len, size);
	if (off < end && !smbsrv_fsctl_is_sparse(x)) {
		if (!cap)
			status = STATUS_BUFFER_TOO_SMALL;
		ranges[0] = off;
		ranges[1] = end - off;
		n = 1;
	} else {
		while (off < end) {
			d = vfs_llseek(filp, off, SEEK_DATA);
			if (d < 0 || d >= end)
				break;	/* -ENXIO: no data after @off */
			h = vfs_llseek(filp, d, SEEK_HOLE);
			if (h < 0 || h > end)
				h = end;
			if (n == cap) {
				status = cap ? STATUS_BUFFER_OVERFLOW :
					       STATUS_BUFFER_TOO_SMALL;
				break;
			}
			ranges[2 * n] = d;
			ranges[2 * n + 1] = h - d;
			n++;
			off = h;
		}
	}
	if (status == STATUS_BUFFER_TOO_SMALL) {
		kvfree(ranges);
		return status;
	}
	out = smbsrv_ioctl_out(x->req, x->r, n * SMB_RANGE_SIZE);
	if (!out) {
		status = STATUS_INSUFFICIENT_RESOURCES;
	} else {
		for (i = 0; i < n; i++)
			smb_range_encode(out + i * SMB_RANGE_SIZE,
					 ranges[2 * i], ranges[2 * i + 1]);
	}
	kvfree(ranges);
	return status;
}

/* Write zeros over [@off, @off + @len) where fallocate() cannot. */
static int smbsrv_fsctl_write_zeros(struct file *filp, loff_t off, u64 len)
{
	size_t chunk = min_t(u64, len, 64 * 1024);
	ssize_t n;
	void *buf;

	buf = kvzalloc(chunk, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while (len) {
		n = kernel_write(filp, buf, min_t(u64, len, chunk), &off);
		if (n <= 0) {
			kvfree(buf);
			return n ? (int)n : -EIO;
		}
		len -= n;
	}
	kvfree(buf);
	return 0;
}

/* FSCTL_SET_ZERO_DATA (MS-FSA 2.1.5.9.37). */
static u32 smbsrv_fsctl_zero_data(struct smbsrv_fsctl *x)
{
	struct file *filp = x->f->filp;
	const struct cred *old;
	u64 off, beyond, end;
	u32 status;
	int err;

	if (!smbsrv_fsctl_regular(x))
		return STATUS_INVALID_PARAMETER;
	if (!(x->f->access & FILE_WRITE_DATA))
		return STATUS_ACCESS_DENIED;
	if (smb_range_decode(x->r->in, x->r->in_len, &off, &beyond) ||
	    off > beyond)
		return STATUS_INVALID_PARAMETER;
	if (off == beyond)
		return STATUS_SUCCESS;
	status = smbsrv_brl_check_io(x->f, off, beyond - off, true);
	if (status)
		return status;
	/* Zeroing never extends the file. */
	end = min_t(u64, beyond, i_size_read(file_inode(filp)));
	if (off >= end)
		return STATUS_SUCCESS;
	old = smbsrv_vfs_creds_begin(x->req->tree);
	if (smbsrv_fsctl_is_sparse(x)) {
		err = vfs_fallocate(filp, FALLOC_FL_PUNCH_HOLE |
				    FALLOC_FL_KEEP_SIZE, off, end - off);
	} else {
		err = vfs_fallocate(filp, FALLOC_FL_ZERO_RANGE |
				    FALLOC_FL_KEEP_SIZE, off, end - off);
		if (err == -EOPNOTSUPP) {
			/* tmpfs: punch, then allocate the blocks again. */
			err = vfs_fallocate(filp, FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE, off,
					    end - off);
			if (!err) {
				err = vfs_fallocate(filp, FALLOC_FL_KEEP_SIZE,
						    off, end - off);
				if (err == -EOPNOTSUPP)
					err = 0;
			}
		}
	}
	if (err == -EOPNOTSUPP)
		err = smbsrv_fsctl_write_zeros(filp, off, end - off);
	smbsrv_vfs_creds_end(old);
	return smbsrv_errno_status(err);
}

/* ---- reparse points: symbolic links ------------------------------------- */

/*
 * A FIFO, socket or device node a POSIX open names, as the NFS-style
 * reparse point the cifs client reads (smb2/posix.h).
 */
static u32 smbsrv_fsctl_get_special(struct smbsrv_fsctl *x,
				    const struct path *path)
{
	struct inode *inode = d_inode(path->dentry);
	struct smb_nfs_special s = {
		.type = inode->i_mode & S_IFMT,
		.major = MAJOR(inode->i_rdev),
		.minor = MINOR(inode->i_rdev),
	};
	int size = smb_nfs_reparse_encode(NULL, 0, &s);
	u8 *out;

	if (size < 0)
		return STATUS_NOT_A_REPARSE_POINT;
	if (x->r->max_out < (u32)size)
		return STATUS_BUFFER_TOO_SMALL;
	out = smbsrv_ioctl_out(x->req, x->r, size);
	if (!out)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb_nfs_reparse_encode(out, size, &s);
	return STATUS_SUCCESS;
}

/* FSCTL_GET_REPARSE_POINT (MS-FSA 2.1.5.9.20) of a symlink. */
static u32 smbsrv_fsctl_get_reparse(struct smbsrv_fsctl *x)
{
	const struct path *path = smbsrv_posix_path(x->f);
	bool posix = x->f->flags & SMBSRV_FILE_POSIX;
	struct dentry *dentry = path->dentry;
	DEFINE_DELAYED_CALL(done);
	const char *target;
	u32 status;
	int size;
	u8 *out;

	if (posix && smbsrv_posix_special(d_inode(dentry)->i_mode))
		return smbsrv_fsctl_get_special(x, path);
	if (!(x->f->flags & (SMBSRV_FILE_REPARSE | SMBSRV_FILE_REPLACED)) ||
	    !d_is_symlink(dentry))
		return STATUS_NOT_A_REPARSE_POINT;
	target = vfs_get_link(dentry, &done);
	if (IS_ERR(target))
		return smbsrv_errno_status(PTR_ERR(target));
	size = smb_symlink_reparse_encode(NULL, 0, target, strlen(target),
					  target[0] != '/', posix);
	if (size < 0) {
		status = STATUS_IO_REPARSE_DATA_INVALID;
	} else if (x->r->max_out < (u32)size) {
		status = STATUS_BUFFER_TOO_SMALL;
	} else {
		out = smbsrv_ioctl_out(x->req, x->r, size);
		status = out ? STATUS_SUCCESS : STATUS_INSUFFICIENT_RESOURCES;
		if (out)
			smb_symlink_reparse_encode(out, size, target,
						   strlen(target),
						   target[0] != '/', posix);
	}
	do_delayed_call(&done);
	return status;
}

/*
 * Replace what @x's open names (an empty file or directory, or a symlink)
 * by a symlink to @target, or with @s by that special file (mknod, with
 * the user's rights: a device node needs CAP_MKNOD), under the parent's
 * lock.  A POSIX open then describes the new object (posix.h).
 */
static int smbsrv_fsctl_make_symlink(struct smbsrv_fsctl *x,
				     const char *target,
				     const struct smb_nfs_special *s)
{
	struct inode *inode = smbsrv_fsctl_inode(x);
	struct name_snapshot last;
	struct smbsrv_lookup lk;
	struct mnt_idmap *idmap;
	struct inode *dir;
	struct dentry *d;
	int err;

	err = smbsrv_vfs_lookup(x->req->tree, x->f->name, true, &lk);
	if (err)
		return err;
	if (lk.root || d_really_is_negative(lk.dentry) ||
	    d_inode(lk.dentry) != inode) {
		/* Renamed or removed since it was opened. */
		smbsrv_vfs_lookup_end(&lk);
		return -ENOENT;
	}
	if (!lk.write) {
		err = lk.write_err;
		smbsrv_vfs_lookup_end(&lk);
		return err;
	}
	idmap = mnt_idmap(lk.parent.mnt);
	dir = d_inode(lk.parent.dentry);
	take_dentry_name_snapshot(&last, lk.dentry);
	if (S_ISDIR(inode->i_mode))
		err = vfs_rmdir(idmap, dir, lk.dentry);
	else
		err = vfs_unlink(idmap, dir, lk.dentry, NULL);
	if (!err) {
		d = lookup_one(idmap, last.name.name, lk.parent.dentry,
			       last.name.len);
		if (IS_ERR(d)) {
			err = PTR_ERR(d);
		} else {
			if (d_really_is_positive(d))
				err = -EEXIST;
			else if (s)
				err = vfs_mknod(idmap, dir, d,
						s->type | (inode->i_mode & 07777),
						MKDEV(s->major, s->minor));
			else
				err = vfs_symlink(idmap, dir, d, target);
			if (!err && d_really_is_positive(d) &&
			    !(x->f->flags & SMBSRV_FILE_REPLACED)) {
				x->f->replaced.mnt = mntget(lk.parent.mnt);
				x->f->replaced.dentry = dget(d);
				/* Pairs with smbsrv_posix_path(). */
				smp_store_release(&x->f->flags, x->f->flags |
						  SMBSRV_FILE_REPLACED);
			}
			dput(d);
		}
	}
	release_dentry_name_snapshot(&last);
	smbsrv_vfs_lookup_end(&lk);
	return err;
}

/*
 * An NFS-style reparse point set on an empty file by a POSIX client (the
 * cifs client's mknod and mkfifo): the special file itself, made in its
 * place with the user's rights.  An NFS symlink is refused: the cifs
 * client makes symlinks with the SYMLINK tag.
 */
static u32 smbsrv_fsctl_set_special(struct smbsrv_fsctl *x,
				    const struct smb_reparse *rp)
{
	struct inode *inode = smbsrv_fsctl_inode(x);
	struct smb_nfs_special s;
	const struct cred *old;
	int err;

	err = smb_nfs_reparse_decode(rp->data, rp->data_len, &s);
	if (err == -EOPNOTSUPP)
		return STATUS_IO_REPARSE_TAG_NOT_HANDLED;
	if (err)
		return STATUS_IO_REPARSE_DATA_INVALID;
	if (!S_ISREG(inode->i_mode) || i_size_read(inode) ||
	    x->f->name[0] == '\0')
		return STATUS_NOT_SUPPORTED;
	if (smbsrv_file_open_count(x->f) > 1)
		return STATUS_SHARING_VIOLATION;
	old = smbsrv_vfs_creds_begin(x->req->tree);
	err = smbsrv_fsctl_make_symlink(x, NULL, &s);
	smbsrv_vfs_creds_end(old);
	return smbsrv_errno_status(err);
}

/* FSCTL_SET_REPARSE_POINT (MS-FSA 2.1.5.9.36): symbolic links only. */
static u32 smbsrv_fsctl_set_reparse(struct smbsrv_fsctl *x)
{
	struct inode *inode = smbsrv_fsctl_inode(x);
	struct smb_symlink_reparse s;
	struct smb_reparse rp;
	const struct cred *old;
	char *buf, *target, *p;
	int len, err;

	if (!(x->f->access & (FILE_WRITE_DATA | FILE_WRITE_ATTRIBUTES)))
		return STATUS_ACCESS_DENIED;
	if (smb_reparse_decode(x->r->in, x->r->in_len, &rp))
		return STATUS_IO_REPARSE_DATA_INVALID;
	if (rp.tag == IO_REPARSE_TAG_NFS && (x->f->flags & SMBSRV_FILE_POSIX))
		return smbsrv_fsctl_set_special(x, &rp);
	if (rp.tag != IO_REPARSE_TAG_SYMLINK)
		return STATUS_IO_REPARSE_TAG_NOT_HANDLED;
	if (smb_symlink_reparse_decode(&rp, &s))
		return STATUS_IO_REPARSE_DATA_INVALID;
	/* Only what holds nothing can become a symlink here. */
	if ((S_ISREG(inode->i_mode) && i_size_read(inode)) ||
	    (S_ISDIR(inode->i_mode) && x->f->name[0] == '\0'))
		return STATUS_NOT_SUPPORTED;
	if (smbsrv_file_open_count(x->f) > 1)
		return STATUS_SHARING_VIOLATION;
	/* One byte in front for the '/' an absolute name may lack. */
	buf = kmalloc(PATH_MAX + 1, GFP_KERNEL);
	if (!buf)
		return STATUS_INSUFFICIENT_RESOURCES;
	target = buf + 1;
	len = smb_utf16le_to_utf8(s.subst, s.subst_len, target, PATH_MAX);
	if (len <= 0) {
		kfree(buf);
		return STATUS_IO_REPARSE_DATA_INVALID;
	}
	/*
	 * The cifs client drops the leading separator of an absolute target
	 * ("/a/b" arrives as "a\b" without SYMLINK_FLAG_RELATIVE): an
	 * absolute name starts at the root.
	 */
	if (!(s.flags & SYMLINK_FLAG_RELATIVE) && target[0] != '\\' &&
	    target[0] != '/')
		*--target = '/';
	/* A POSIX client's target is kept as it is, backslashes too. */
	for (p = target; *p && !(x->f->flags & SMBSRV_FILE_POSIX); p++)
		if (*p == '\\')
			*p = '/';
	old = smbsrv_vfs_creds_begin(x->req->tree);
	err = smbsrv_fsctl_make_symlink(x, target, NULL);
	smbsrv_vfs_creds_end(old);
	kfree(buf);
	if (err == -ENOTEMPTY)
		return STATUS_NOT_SUPPORTED;
	return smbsrv_errno_status(err);
}

/* ---- compression -------------------------------------------------------- */

/*
 * No compression here: FSCTL_GET_COMPRESSION says COMPRESSION_FORMAT_NONE
 * and FSCTL_SET_COMPRESSION takes NONE only, as ReFS (and Samba on file
 * systems without compression) answer.
 */
static u32 smbsrv_fsctl_get_compression(struct smbsrv_fsctl *x)
{
	u8 *out;

	if (x->r->max_out < SMB_COMPRESSION_SIZE)
		return STATUS_INVALID_USER_BUFFER;
	out = smbsrv_ioctl_out(x->req, x->r, SMB_COMPRESSION_SIZE);
	if (!out)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb_compression_encode(out, COMPRESSION_FORMAT_NONE);
	return STATUS_SUCCESS;
}

static u32 smbsrv_fsctl_set_compression(struct smbsrv_fsctl *x)
{
	u16 format;

	if (!(x->f->access & FILE_WRITE_DATA))
		return STATUS_ACCESS_DENIED;
	if (smb_compression_decode(x->r->in, x->r->in_len, &format))
		return STATUS_INVALID_PARAMETER;
	return format != COMPRESSION_FORMAT_NONE ? STATUS_NOT_SUPPORTED :
						   STATUS_SUCCESS;
}

/* ---- object ids, network interfaces ------------------------------------- */

/*
 * FSCTL_GET_OBJECT_ID / FSCTL_CREATE_OR_GET_OBJECT_ID: an id made of the
 * inode number, its generation and the device, stable for the file's
 * life; the birth volume is the server's GUID.
 */
static u32 smbsrv_fsctl_object_id(struct smbsrv_fsctl *x)
{
	struct inode *inode = smbsrv_fsctl_inode(x);
	u8 *out;

	if (x->r->max_out < SMB_OBJECT_ID_SIZE)
		return STATUS_BUFFER_TOO_SMALL;
	out = smbsrv_ioctl_out(x->req, x->r, SMB_OBJECT_ID_SIZE);
	if (!out)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb_object_id_encode(out, inode->i_ino, inode->i_generation,
			     new_encode_dev(inode->i_sb->s_dev),
			     smbsrv_server_guid);
	return STATUS_SUCCESS;
}

/* The most interface addresses FSCTL_QUERY_NETWORK_INTERFACE_INFO lists. */
#define SMBSRV_NETIF_MAX	32
/* LinkSpeed reported: smbsrv does not ask the drivers (rtnl). */
#define SMBSRV_NETIF_SPEED	1000000000ULL

/*
 * Encode in @out (room for @max entries) the addresses of @net's
 * interfaces that are up, loopback aside: IPv4, and IPv6 but link-local
 * ones; RSS-capable when the device has more than one receive queue.
 * Returns how many.
 */
static u32 smbsrv_netif_list(struct net *net, u8 *out, u32 max)
{
	struct net_device *dev;
	const struct in_ifaddr *ifa;
	struct in_device *in4;
	struct inet6_dev *in6;
	struct inet6_ifaddr *ifp;
	u32 n = 0, caps;

	rcu_read_lock();
	for_each_netdev_rcu(net, dev) {
		if ((dev->flags & IFF_LOOPBACK) || !(dev->flags & IFF_UP) ||
		    !netif_running(dev))
			continue;
		caps = dev->real_num_rx_queues > 1 ? SMB2_NETIF_CAP_RSS : 0;
		in4 = __in_dev_get_rcu(dev);
		if (in4) {
			in_dev_for_each_ifa_rcu(ifa, in4) {
				if (n == max)
					goto out;
				smb2_netif_encode(out + n++ * SMB2_NETIF_INFO_SIZE,
						  dev->ifindex, caps,
						  SMBSRV_NETIF_SPEED,
						  (const u8 *)&ifa->ifa_local,
						  4, 0);
			}
		}
		in6 = IS_ENABLED(CONFIG_IPV6) ? __in6_dev_get(dev) : NULL;
		if (!in6)
			continue;
		read_lock_bh(&in6->lock);
		list_for_each_entry(ifp, &in6->addr_list, if_list) {
			if (n == max)
				break;
			if (ipv6_addr_type(&ifp->addr) & IPV6_ADDR_LINKLOCAL)
				continue;
			smb2_netif_encode(out + n++ * SMB2_NETIF_INFO_SIZE,
					  dev->ifindex, caps, SMBSRV_NETIF_SPEED,
					  ifp->addr.s6_addr, 16, 0);
		}
		read_unlock_bh(&in6->lock);
	}
out:
	rcu_read_unlock();
	return n;
}

/*
 * FSCTL_QUERY_NETWORK_INTERFACE_INFO (3.3.5.15.11).  Where multichannel
 * is offered, the server's interfaces (smbsrv_netif_list(), as many as
 * fit); otherwise, or when it has none but loopback, the one address the
 * client reached.
 */
static u32 smbsrv_fsctl_netif(struct smbsrv_req *req, struct smb2_ioctl_req *r)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	u32 ifindex, max, n;
	u8 *body, *list;
	int err;

	if (r->max_out < SMB2_NETIF_INFO_SIZE)
		return STATUS_BUFFER_TOO_SMALL;
	if (req->conn->server_caps & SMB2_GLOBAL_CAP_MULTI_CHANNEL) {
		max = min_t(u32, r->max_out / SMB2_NETIF_INFO_SIZE,
			    SMBSRV_NETIF_MAX);
		list = kcalloc(max, SMB2_NETIF_INFO_SIZE, GFP_KERNEL);
		if (!list)
			return STATUS_INSUFFICIENT_RESOURCES;
		n = smbsrv_netif_list(sock_net(req->conn->sock->sk), list, max);
		body = n ? smbsrv_rsp_body(req, SMB2_IOCTL_RSP_FIXED +
					   n * SMB2_NETIF_INFO_SIZE) : NULL;
		if (body) {
			smb2_netif_chain(list, n);
			smb2_ioctl_rsp_encode(body, r, n * SMB2_NETIF_INFO_SIZE);
			memcpy(body + SMB2_IOCTL_RSP_FIXED, list,
			       n * SMB2_NETIF_INFO_SIZE);
		}
		kfree(list);
		if (body)
			return STATUS_SUCCESS;
		if (n)
			return STATUS_INSUFFICIENT_RESOURCES;
	}
	memset(&ss, 0, sizeof(ss));
	err = kernel_getsockname(req->conn->sock, (struct sockaddr *)&ss);
	if (err < 0)
		return STATUS_INVALID_DEVICE_REQUEST;
	ifindex = READ_ONCE(req->conn->sock->sk->sk_rx_dst_ifindex);
	body = smbsrv_rsp_body(req, SMB2_IOCTL_RSP_FIXED + SMB2_NETIF_INFO_SIZE);
	if (!body)
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_ioctl_rsp_encode(body, r, SMB2_NETIF_INFO_SIZE);
	body += SMB2_IOCTL_RSP_FIXED;
	if (ss.ss_family == AF_INET6 && !ipv6_addr_v4mapped(&s6->sin6_addr))
		smb2_netif_encode(body, ifindex ? ifindex : 1, 0, 1000000000ULL,
				  s6->sin6_addr.s6_addr, 16,
				  s6->sin6_scope_id);
	else if (ss.ss_family == AF_INET6)
		smb2_netif_encode(body, ifindex ? ifindex : 1, 0, 1000000000ULL,
				  &s6->sin6_addr.s6_addr[12], 4, 0);
	else
		smb2_netif_encode(body, ifindex ? ifindex : 1, 0, 1000000000ULL,
				  (const u8 *)&s4->sin_addr.s_addr, 4, 0);
	return STATUS_SUCCESS;
}

/* ---- dispatch ----------------------------------------------------------- */

u32 smbsrv_fsctl_fs(struct smbsrv_req *req, struct smb2_ioctl_req *r)
{
	struct smbsrv_fsctl x = { .req = req, .r = r };
	u32 status;

	/* Those that name no file: FileId all ones (3.3.5.15). */
	switch (r->ctl_code) {
	case FSCTL_QUERY_NETWORK_INTERFACE_INFO:
	case FSCTL_DFS_GET_REFERRALS:
	case FSCTL_DFS_GET_REFERRALS_EX:
		if (memchr_inv(r->file_id, 0xff, 16))
			return STATUS_INVALID_PARAMETER;
		if (r->ctl_code == FSCTL_QUERY_NETWORK_INTERFACE_INFO)
			return smbsrv_fsctl_netif(req, r);
		/* No DFS here, as a Windows server without the role says. */
		return STATUS_FS_DRIVER_REQUIRED;
	}

	x.f = smbsrv_req_file(req, r->file_id);
	if (!x.f)
		return smbsrv_req_fid_status(req);
	r->fid_persistent = x.f->open.id_persistent;
	r->fid_volatile = x.f->open.id_volatile;
	status = smbsrv_snap_fsctl_check(x.f, r->ctl_code);
	if (status) {
		smbsrv_file_put(x.f);
		return status;
	}
	switch (r->ctl_code) {
	case FSCTL_SRV_ENUMERATE_SNAPSHOTS:
		status = smbsrv_snap_fsctl_enumerate(req, r);
		break;
	case FSCTL_SET_SPARSE:
		status = smbsrv_fsctl_set_sparse(&x);
		break;
	case FSCTL_QUERY_ALLOCATED_RANGES:
		status = smbsrv_fsctl_qar(&x);
		break;
	case FSCTL_SET_ZERO_DATA:
		status = smbsrv_fsctl_zero_data(&x);
		break;
	case FSCTL_SRV_REQUEST_RESUME_KEY:
		status = smbsrv_fsctl_resume_key(&x);
		break;
	case FSCTL_SRV_COPYCHUNK:
	case FSCTL_SRV_COPYCHUNK_WRITE:
		status = smbsrv_fsctl_copychunk(&x);
		break;
	case FSCTL_GET_REPARSE_POINT:
		status = smbsrv_fsctl_get_reparse(&x);
		break;
	case FSCTL_SET_REPARSE_POINT:
		/* Not on a stream: it would make its base a symlink. */
		status = smbsrv_file_is_stream(x.f) ?
			 STATUS_INVALID_DEVICE_REQUEST :
			 smbsrv_fsctl_set_reparse(&x);
		break;
	case FSCTL_GET_OBJECT_ID:
	case FSCTL_CREATE_OR_GET_OBJECT_ID:
		status = smbsrv_fsctl_object_id(&x);
		break;
	case FSCTL_DUPLICATE_EXTENTS_TO_FILE:
		status = smbsrv_fsctl_dup_extents(&x);
		break;
	case FSCTL_GET_COMPRESSION:
		status = smbsrv_fsctl_get_compression(&x);
		break;
	case FSCTL_SET_COMPRESSION:
		status = smbsrv_fsctl_set_compression(&x);
		break;
	default:
		/* What the file system does not know (as NTFS answers). */
		status = STATUS_INVALID_DEVICE_REQUEST;
		break;
	}
	/*
	 * Success with no output (SET_SPARSE, SET_ZERO_DATA, ...) is still an
	 * IOCTL response (3.3.5.15), not the error body: the cifs client
	 * refuses the latter and fails fallocate(PUNCH_HOLE) with EIO.
	 */
	if (status == STATUS_SUCCESS && !req->rsp && !smbsrv_ioctl_out(req, r, 0))
		status = STATUS_INSUFFICIENT_RESOURCES;
	smbsrv_file_put(x.f);
	return status;
}
