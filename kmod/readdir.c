// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: reading a whole directory inside the kernel (readdir.h).
 */
#include <linux/container_of.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>

#include "readdir.h"

/* One pass: the caller's actor, and whether it got an entry or stopped. */
struct smbsrv_readdir_pass {
	struct dir_context ctx;
	struct dir_context *inner;
	bool seen;
	bool stopped;
};

static bool smbsrv_readdir_actor(struct dir_context *ctx, const char *name,
				 int len, loff_t off, u64 ino,
				 unsigned int type)
{
	struct smbsrv_readdir_pass *p =
		container_of(ctx, struct smbsrv_readdir_pass, ctx);

	p->seen = true;
	p->inner->pos = ctx->pos;
	if (p->inner->actor(p->inner, name, len, off, ino, type))
		return true;
	p->stopped = true;
	return false;
}

int smbsrv_readdir_all(const struct path *dir, struct dir_context *ctx)
{
	struct smbsrv_readdir_pass p = {
		.ctx.actor = smbsrv_readdir_actor,
		.inner = ctx,
	};
	struct file *filp;
	int err;

	filp = dentry_open(dir, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(filp))
		return PTR_ERR(filp);
	do {
		p.seen = false;
		err = iterate_dir(filp, &p.ctx);
	} while (!err && p.seen && !p.stopped);
	fput(filp);
	return err;
}
