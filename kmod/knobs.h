/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the knobs the daemon pushes (spec attribute set "knobs") and the
 * NEGOTIATE security blob it hands over at start-up.
 *
 * Writers (startup, knobs-set) hold smbsrv_server.lock and replace the
 * whole struct; readers on the data path may read single u32 fields with
 * READ_ONCE() without the lock (a reader sees either value of a field).
 */
#ifndef _SMBSRV_KNOBS_H
#define _SMBSRV_KNOBS_H

#include <linux/sizes.h>
#include <linux/types.h>
#include <uapi/linux/smbsrv.h>

struct netlink_ext_ack;
struct nlattr;
struct sk_buff;

/* Defaults are ksmbd's (ksmbd.conf(5), fs/smb/server) where ksmbd has one. */
#define SMBSRV_DEFAULT_PORT		445
#define SMBSRV_DEFAULT_MAX_CONNECTIONS	128
#define SMBSRV_DEFAULT_MAX_READ		SZ_4M
#define SMBSRV_DEFAULT_MAX_WRITE	SZ_4M
#define SMBSRV_DEFAULT_MAX_TRANS	SZ_1M
#define SMBSRV_DEFAULT_MAX_CREDITS	8192
#define SMBSRV_DEFAULT_MIN_DIALECT	0x0210	/* ksmbd: SMB2_10 */
#define SMBSRV_DEFAULT_MAX_DIALECT	0x0311
#define SMBSRV_DEFAULT_SIGNING		SMBSRV_CONFIG_OPT_DISABLED
#define SMBSRV_DEFAULT_ENCRYPTION	SMBSRV_CONFIG_OPT_AUTO
#define SMBSRV_DEFAULT_MAX_IP_CONNECTIONS 0	/* no limit */
#define SMBSRV_DEFAULT_MAX_SESSIONS	1024
#define SMBSRV_DEFAULT_MAX_OPEN_FILES	10000
#define SMBSRV_DEFAULT_DEADTIME		0	/* minutes; never */
/* smbsrv's own: a connection must log on this soon (0: no deadline). */
#define SMBSRV_DEFAULT_LOGON_TIMEOUT	20	/* seconds */
/* smbsrv's own: ksmbd waits 2 s for its daemon, which TCG cannot meet. */
#define SMBSRV_DEFAULT_UPCALL_TIMEOUT	10	/* seconds */
/* ksmbd reads a frame with a 7 s receive timeout and two retries. */
#define SMBSRV_DEFAULT_FRAME_TIMEOUT	20	/* seconds */
#define SMBSRV_DEFAULT_ROUTE_POLICY	SMBSRV_ROUTE_POLICY_PERCPU
#define SMBSRV_DEFAULT_SPLICE_THRESHOLD	SZ_4K
/* WRITE data received into pages from this size on (rxpages.h). */
#define SMBSRV_DEFAULT_MIN_RECEIVEFILE_SIZE	SZ_64K
#define SMBSRV_DEFAULT_RESPONSE_BATCH	16
#define SMBSRV_DEFAULT_INLINE_READS	1
#define SMBSRV_DEFAULT_NETBIOS_NAME	"SMBSRV"
#define SMBSRV_DEFAULT_SMB2_LEASES	0	/* ksmbd: smb2 leases = no */
#define SMBSRV_DEFAULT_DURABLE_HANDLES	0	/* ksmbd: durable handles = no */
#define SMBSRV_DEFAULT_DURABLE_TIMEOUT	60	/* seconds */
/* ksmbd: server multi channel support = no */
#define SMBSRV_DEFAULT_MULTICHANNEL	0
/* Samba 4.23 offers them; smbsrv not until asked (smb3 unix extensions). */
#define SMBSRV_DEFAULT_SMB3_UNIX_EXT	0

#define SMBSRV_NETBIOS_NAME_MAX		64
/* The NEGOTIATE response's SecurityBufferLength is a 16-bit field. */
#define SMBSRV_NEGOTIATE_BLOB_MAX	4096

struct smbsrv_knobs {
	u32 tcp_port;
	u32 max_connections;		/* 0: no limit */
	u32 max_read;
	u32 max_write;
	u32 max_trans;
	u32 max_credits;
	u32 min_dialect;		/* 0x0202 ... 0x0311 */
	u32 max_dialect;
	u32 signing;			/* enum smbsrv_config_opt */
	u32 encryption;			/* enum smbsrv_config_opt */
	u32 max_ip_connections;		/* 0: no limit */
	u32 max_sessions;
	u32 max_open_files;		/* per session */
	u32 server_max_open_files;	/* 0: no limit (budget.h) */
	u32 max_open_files_per_user;	/* 0: no limit of its own */
	u32 deadtime;			/* minutes, 0: never */
	u32 upcall_timeout;		/* seconds */
	u32 frame_timeout;		/* seconds */
	u32 route_policy;		/* enum smbsrv_route_policy */
	u32 splice_threshold;		/* bytes */
	u32 min_receivefile_size;	/* bytes of WRITE data; 0 off */
	u32 response_batch;
	u32 inline_reads;		/* boolean */
	u32 logon_timeout;		/* seconds, 0: none */
	u32 smb2_leases;		/* boolean */
	u32 durable_handles;		/* boolean */
	u32 durable_timeout;		/* seconds */
	u32 multichannel;		/* boolean */
	u32 smb3_unix_extensions;	/* boolean: POSIX negotiate context */
	char netbios_name[SMBSRV_NETBIOS_NAME_MAX + 1];
};

void smbsrv_knobs_init(struct smbsrv_knobs *k);

/*
 * Apply the attributes of a "knobs" nest (already checked against
 * smbsrv_knobs_nl_policy) on top of *k.  Fails with -EINVAL and an
 * extended-ack message, leaving *k untouched, if the result is
 * inconsistent (a dialect that does not exist, min above max).
 */
int smbsrv_knobs_apply(struct smbsrv_knobs *k, const struct nlattr *nest,
		       struct netlink_ext_ack *extack);

/* Put every knob as a nest of type @attrtype. */
int smbsrv_knobs_put(struct sk_buff *skb, int attrtype,
		     const struct smbsrv_knobs *k);

/*
 * The NEGOTIATE response's security buffer, as the daemon built it.
 * smbsrv_negotiate_blob_set() replaces it (NULL/0 clears it; -EINVAL above
 * SMBSRV_NEGOTIATE_BLOB_MAX).  smbsrv_negotiate_blob_copy() copies the
 * current one into @buf and returns its length (0 when there is none), or
 * -ENOSPC when it does not fit in @size; size SMBSRV_NEGOTIATE_BLOB_MAX
 * always fits.  Both may be called from any process context.
 */
int smbsrv_negotiate_blob_set(const void *data, u32 len);
int smbsrv_negotiate_blob_copy(void *buf, u32 size);
/* Put the blob as attribute @attrtype, nothing when there is none. */
int smbsrv_negotiate_blob_put(struct sk_buff *skb, int attrtype);
void smbsrv_negotiate_blob_exit(void);

#endif /* _SMBSRV_KNOBS_H */
