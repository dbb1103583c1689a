/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: one CREATE as its two files see it: create.c opens (names, the
 * VFS, access checks, client caching), create_ctx.c reads the contexts a
 * CREATE carries and writes those its answer carries, and reconnects and
 * replays durable handles.
 */
#ifndef _SMBSRV_SMB2_CREATE_H
#define _SMBSRV_SMB2_CREATE_H

#include <linux/path.h>
#include <linux/types.h>

#include "../cache.h"
#include "../durable.h"
#include "../vfs.h"
#include "../wire/aapl.h"
#include "../wire/create.h"

struct smbsrv_file;
struct smbsrv_fnode;
struct smbsrv_req;
struct smbsrv_tree;

/* Longest share-relative path a CREATE may name, stream part included. */
#define SMBSRV_PATH_MAX		PATH_MAX

struct smbsrv_create {
	struct smb2_create_req r;
	struct smbsrv_tree *tree;	/* req->tree, or a snapshot's view */
	char *path;		/* share-relative, UTF-8 */
	const char *stream;	/* named stream, or NULL */
	bool data_stream;	/* the name said "::$DATA" */
	u32 access;		/* DesiredAccess, generic rights mapped */
	bool max_allowed;	/* MAXIMUM_ALLOWED asked for */
	u32 granted;
	u32 action;		/* FILE_CREATED, ... */
	u32 flags;		/* SMBSRV_FILE_* */
	bool created;
	bool overwrite;		/* SUPERSEDE, OVERWRITE(_IF) of an existing file */
	struct path obj;	/* what is opened (referenced) */
	u32 maximal;		/* what an open of it may be granted */
	/*
	 * An existing object's MxAc answer: what its security descriptor (or
	 * mode) grants the user, before a read-only attribute takes the
	 * right to write data away from opens (MS-SMB2 3.3.5.9.5).
	 */
	u32 mxac;
	bool mxac_set;
	struct smbsrv_file *f;
	struct smbsrv_fattr fa;
	/* Client caching (cache.c): asked, answered, waited for. */
	struct smbsrv_cache_req cr;
	struct smbsrv_cache_answer ca;
	bool retry;			/* ran before, waited for breaks */
	struct smbsrv_fnode *wait_fn;
	u32 wait_gen;
	/* Durable handles (durable.c): asked, granted (timeout, ms). */
	struct smbsrv_durable_req dur;
	u32 dur_granted;
	/* A POSIX open (posix.h): the mode a new object gets, if any. */
	bool posix;
	bool posix_mode;
	u32 posix_perms;
	/* A Mac's AAPL server query (smb2/fruit.c), answered. */
	bool aapl;
	struct smb2_aapl_req aapl_req;
};

/*
 * The contexts of the request (create_ctx.c): what it asks of client
 * caching (an RqLs where leases were offered) and of durable handles
 * (which combinations Samba and Windows refuse).  NTSTATUS.
 */
u32 smbsrv_create_cache_ctx(struct smbsrv_req *req, struct smbsrv_create *c);
u32 smbsrv_create_durable_ctx(struct smbsrv_req *req, struct smbsrv_create *c);

/* DHnC or DH2C: reconnect the durable handle a lost connection left. */
u32 smbsrv_create_reconnect(struct smbsrv_req *req, struct smbsrv_create *c);

/*
 * DH2Q with a CreateGuid in use by this client: a replay of the CREATE
 * that made it (answered with that open, *answered) or a conflict.
 * STATUS_SUCCESS when the GUID is new.
 */
u32 smbsrv_create_replay(struct smbsrv_req *req, struct smbsrv_create *c,
			 bool *answered);

/*
 * The AAPL context of a CREATE on a fruit share (smb2/fruit.c): decoded,
 * and the connection marked a Mac's; then its answer into @buf (@cap
 * bytes, at least SMB2_AAPL_RSP_MAX): its length, or -errno.
 */
u32 smbsrv_fruit_create_ctx(struct smbsrv_req *req, struct smbsrv_create *c);
int smbsrv_fruit_answer(struct smbsrv_req *req, struct smbsrv_create *c,
			u8 *buf, u32 cap);

/*
 * The response, with MxAc and QFid answers when asked, and the lease and
 * durable handle the CREATE got.
 */
u32 smbsrv_create_reply(struct smbsrv_req *req, struct smbsrv_create *c);

#endif /* _SMBSRV_SMB2_CREATE_H */
