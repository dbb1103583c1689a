// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the upcall probe, the test module smbsrv_upcall_probe.
 *
 * Its debugfs file smbsrv/upcall lets a test drive the loaded smbsrv.ko's
 * upcall path (its SMBSRV_TEST exports) against a real (or deliberately
 * misbehaving) daemon without an SMB client: write one command line, then
 * read one result line.
 *
 *   session SESSION_ID DIALECT CLIENT_ADDR BLOB_HEX
 *   tree SESSION_ID UID SESSION_FLAGS CLIENT_ADDR USER SHARE
 *   rpc SESSION_ID PIPE_ID OP MAX_OUT USER PIPE DATA_HEX
 *
 * Numbers take a 0x prefix for hex; "-" is an empty hex string.  Writes
 * are collected until a newline (a shell writes a long line in pieces);
 * the write that completes the line blocks until the upcall returns.  The
 * result starts with "ret=ERRNO" and lists what the daemon's answer was
 * parsed into.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "upcall.h"
#include "wire/secdesc.h"

static struct dentry *probe_debugfs;

/* Two hex digits a byte, plus room for the other fields. */
#define PROBE_OUT_MAX	(2 * SMBSRV_UPCALL_DATA_MAX + 4096)
#define PROBE_IN_MAX	(2 * SMBSRV_UPCALL_DATA_MAX + 1024)

struct smbsrv_probe {
	struct mutex lock;	/* one command at a time per open file */
	char *in;		/* the command line being collected */
	size_t in_len;
	char *out;		/* the last result */
	size_t len;
};

static __printf(2, 3) void probe_printf(struct smbsrv_probe *p,
					const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	p->len += vscnprintf(p->out + p->len, PROBE_OUT_MAX - p->len, fmt,
			     args);
	va_end(args);
}

static void probe_hex(struct smbsrv_probe *p, const char *key, const void *d,
		      u32 len)
{
	probe_printf(p, " %s=", key);
	if (!len || p->len + 2 * len + 1 > PROBE_OUT_MAX) {
		probe_printf(p, "-");
		return;
	}
	bin2hex(p->out + p->len, d, len);
	p->len += 2 * len;
	p->out[p->len] = '\0';
}

/* The next space-separated word, or NULL. */
static char *probe_word(char **s)
{
	char *w;

	do {
		w = strsep(s, " ");
	} while (w && !*w);
	return w;
}

static int probe_u64(char **s, u64 *v)
{
	char *w = probe_word(s);

	return w ? kstrtou64(w, 0, v) : -EINVAL;
}

static int probe_u32(char **s, u32 *v)
{
	char *w = probe_word(s);

	return w ? kstrtou32(w, 0, v) : -EINVAL;
}

/* Decode a hex word in place; "-" is empty. */
static int probe_bin(char **s, u8 **data, u32 *len)
{
	char *w = probe_word(s);
	size_t n;

	if (!w)
		return -EINVAL;
	*data = (u8 *)w;
	*len = 0;
	if (!strcmp(w, "-"))
		return 0;
	n = strlen(w);
	if (n % 2 || hex2bin(*data, w, n / 2))
		return -EINVAL;
	*len = n / 2;
	return 0;
}

static int probe_session(struct smbsrv_probe *p, char *s)
{
	struct smbsrv_auth_result res;
	const struct smb_sid *sids;
	char *addr;
	u32 dialect, len, nsids, j;
	u64 sid;
	u8 *blob;
	int i, ret;

	if (probe_u64(&s, &sid) || probe_u32(&s, &dialect))
		return -EINVAL;
	addr = probe_word(&s);
	if (!addr || probe_bin(&s, &blob, &len))
		return -EINVAL;

	ret = smbsrv_upcall_session_setup(sid, addr, dialect, blob, len, &res);
	probe_printf(p, "ret=%d", ret);
	if (ret)
		return 0;
	probe_printf(p, " status=0x%08x", res.status);
	probe_hex(p, "blob", res.blob, res.blob_len);
	probe_hex(p, "key", res.session_key, res.session_key_len);
	probe_printf(p, " uid=%d gid=%d groups=",
		     uid_valid(res.uid) ? (int)from_kuid(&init_user_ns, res.uid) : -1,
		     gid_valid(res.gid) ? (int)from_kgid(&init_user_ns, res.gid) : -1);
	if (!res.groups || !res.groups->ngroups)
		probe_printf(p, "-");
	for (i = 0; res.groups && i < res.groups->ngroups; i++)
		probe_printf(p, "%s%u", i ? "," : "",
			     from_kgid(&init_user_ns, res.groups->gid[i]));
	probe_printf(p, " flags=0x%x user=%s domain=%s", res.flags,
		     res.user ?: "(null)", res.domain ?: "(null)");
	/* A PAC's SIDs, by their last sub-authority; only when there are. */
	sids = smbsrv_sids_list(res.sids, &nsids);
	for (j = 0; j < nsids; j++)
		probe_printf(p, "%s%u", j ? "," : " sids=",
			     sids[j].count ? sids[j].sub[sids[j].count - 1] : 0);
	smbsrv_auth_result_free(&res);
	return 0;
}

static int probe_tree(struct smbsrv_probe *p, char *s)
{
	struct smbsrv_share_info *sh;
	char *addr, *user, *share;
	u32 uid, flags, status;
	u64 sid;
	int ret;

	if (probe_u64(&s, &sid) || probe_u32(&s, &uid) ||
	    probe_u32(&s, &flags))
		return -EINVAL;
	addr = probe_word(&s);
	user = probe_word(&s);
	share = probe_word(&s);
	if (!share)
		return -EINVAL;

	ret = smbsrv_upcall_tree_connect(sid, user,
					 make_kuid(&init_user_ns, uid), flags,
					 addr, share, &status, &sh);
	probe_printf(p, "ret=%d", ret);
	if (ret)
		return 0;
	probe_printf(p, " status=0x%08x", status);
	if (!sh)
		return 0;
	probe_printf(p, " name=%s path=%s flags=0x%x force_uid=%d force_gid=%d",
		     sh->name, sh->path ?: "(null)", sh->flags,
		     uid_valid(sh->force_uid) ?
			(int)from_kuid(&init_user_ns, sh->force_uid) : -1,
		     gid_valid(sh->force_gid) ?
			(int)from_kgid(&init_user_ns, sh->force_gid) : -1);
	probe_printf(p, " create_mask=%04o directory_mask=%04o",
		     sh->create_mask, sh->directory_mask);
	probe_printf(p, " force_create_mode=%04o force_directory_mode=%04o",
		     sh->force_create_mode, sh->force_directory_mode);
	probe_printf(p, " veto=%s max_connections=%u",
		     sh->veto_files ?: "(null)", sh->max_connections);
	smbsrv_share_info_put(sh);
	return 0;
}

static int probe_rpc(struct smbsrv_probe *p, char *s)
{
	u32 pipe_id, op, max_out, len, status, out_len;
	char *user, *pipe;
	void *out;
	u64 sid;
	u8 *data;
	int ret;

	if (probe_u64(&s, &sid) || probe_u32(&s, &pipe_id) ||
	    probe_u32(&s, &op) || probe_u32(&s, &max_out))
		return -EINVAL;
	user = probe_word(&s);
	pipe = probe_word(&s);
	if (!pipe || probe_bin(&s, &data, &len))
		return -EINVAL;

	ret = smbsrv_upcall_rpc(sid, user, pipe_id, op, pipe, data, len,
				max_out, &status, &out, &out_len);
	probe_printf(p, "ret=%d", ret);
	if (ret)
		return 0;
	probe_printf(p, " status=0x%08x", status);
	probe_hex(p, "data", out, out_len);
	kvfree(out);
	return 0;
}

/* Run one complete command line; called with p->lock held. */
static int probe_run(struct smbsrv_probe *p, char *line)
{
	char *s = strim(line);
	char *cmd = probe_word(&s);
	int err;

	p->len = 0;
	p->out[0] = '\0';
	if (!cmd)
		err = -EINVAL;
	else if (!strcmp(cmd, "session"))
		err = probe_session(p, s);
	else if (!strcmp(cmd, "tree"))
		err = probe_tree(p, s);
	else if (!strcmp(cmd, "rpc"))
		err = probe_rpc(p, s);
	else
		err = -EINVAL;
	if (!err)
		probe_printf(p, "\n");
	return err;
}

static ssize_t probe_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct smbsrv_probe *p = file->private_data;
	char *nl;
	int err = 0;

	mutex_lock(&p->lock);
	if (!count || count >= PROBE_IN_MAX - p->in_len) {
		err = -EINVAL;
		goto reset;
	}
	if (copy_from_user(p->in + p->in_len, ubuf, count)) {
		err = -EFAULT;
		goto reset;
	}
	p->in_len += count;
	p->in[p->in_len] = '\0';
	nl = strchr(p->in + p->in_len - count, '\n');
	if (!nl) {
		mutex_unlock(&p->lock);
		return count;
	}
	*nl = '\0';
	err = probe_run(p, p->in);
reset:
	p->in_len = 0;
	mutex_unlock(&p->lock);
	return err ?: count;
}

static ssize_t probe_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct smbsrv_probe *p = file->private_data;
	ssize_t ret;

	mutex_lock(&p->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, p->out, p->len);
	mutex_unlock(&p->lock);
	return ret;
}

static int probe_open(struct inode *inode, struct file *file)
{
	struct smbsrv_probe *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->in = kvmalloc(PROBE_IN_MAX, GFP_KERNEL);
	p->out = kvmalloc(PROBE_OUT_MAX, GFP_KERNEL);
	if (!p->in || !p->out) {
		kvfree(p->in);
		kvfree(p->out);
		kfree(p);
		return -ENOMEM;
	}
	p->out[0] = '\0';
	mutex_init(&p->lock);
	file->private_data = p;
	return nonseekable_open(inode, file);
}

static int probe_release(struct inode *inode, struct file *file)
{
	struct smbsrv_probe *p = file->private_data;

	kvfree(p->in);
	kvfree(p->out);
	kfree(p);
	return 0;
}

static const struct file_operations probe_fops = {
	.owner = THIS_MODULE,
	.open = probe_open,
	.release = probe_release,
	.read = probe_read,
	.write = probe_write,
};

static int __init probe_init(void)
{
	probe_debugfs = debugfs_create_dir("smbsrv", NULL);
	debugfs_create_file("upcall", 0600, probe_debugfs, NULL, &probe_fops);
	return 0;
}

static void __exit probe_exit(void)
{
	debugfs_remove_recursive(probe_debugfs);
}

module_init(probe_init);
module_exit(probe_exit);

MODULE_IMPORT_NS(SMBSRV_TEST);
MODULE_DESCRIPTION("smbsrv: the upcall probe (debugfs smbsrv/upcall) of its tests");
MODULE_LICENSE("GPL");
