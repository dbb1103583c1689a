// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: knobs pushed by the daemon and the NEGOTIATE security blob.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "knobs.h"
#include "netlink-gen.h"

void smbsrv_knobs_init(struct smbsrv_knobs *k)
{
	*k = (struct smbsrv_knobs) {
		.tcp_port = SMBSRV_DEFAULT_PORT,
		.max_connections = SMBSRV_DEFAULT_MAX_CONNECTIONS,
		.max_read = SMBSRV_DEFAULT_MAX_READ,
		.max_write = SMBSRV_DEFAULT_MAX_WRITE,
		.max_trans = SMBSRV_DEFAULT_MAX_TRANS,
		.max_credits = SMBSRV_DEFAULT_MAX_CREDITS,
		.min_dialect = SMBSRV_DEFAULT_MIN_DIALECT,
		.max_dialect = SMBSRV_DEFAULT_MAX_DIALECT,
		.signing = SMBSRV_DEFAULT_SIGNING,
		.encryption = SMBSRV_DEFAULT_ENCRYPTION,
		.max_ip_connections = SMBSRV_DEFAULT_MAX_IP_CONNECTIONS,
		.max_sessions = SMBSRV_DEFAULT_MAX_SESSIONS,
		.max_open_files = SMBSRV_DEFAULT_MAX_OPEN_FILES,
		.deadtime = SMBSRV_DEFAULT_DEADTIME,
		.upcall_timeout = SMBSRV_DEFAULT_UPCALL_TIMEOUT,
		.frame_timeout = SMBSRV_DEFAULT_FRAME_TIMEOUT,
		.route_policy = SMBSRV_DEFAULT_ROUTE_POLICY,
		.splice_threshold = SMBSRV_DEFAULT_SPLICE_THRESHOLD,
		.min_receivefile_size = SMBSRV_DEFAULT_MIN_RECEIVEFILE_SIZE,
		.response_batch = SMBSRV_DEFAULT_RESPONSE_BATCH,
		.inline_reads = SMBSRV_DEFAULT_INLINE_READS,
		.logon_timeout = SMBSRV_DEFAULT_LOGON_TIMEOUT,
		.smb2_leases = SMBSRV_DEFAULT_SMB2_LEASES,
		.durable_handles = SMBSRV_DEFAULT_DURABLE_HANDLES,
		.durable_timeout = SMBSRV_DEFAULT_DURABLE_TIMEOUT,
		.multichannel = SMBSRV_DEFAULT_MULTICHANNEL,
		.smb3_unix_extensions = SMBSRV_DEFAULT_SMB3_UNIX_EXT,
		.netbios_name = SMBSRV_DEFAULT_NETBIOS_NAME,
	};
}

static bool smbsrv_dialect_valid(u32 d)
{
	switch (d) {
	case 0x0202:
	case 0x0210:
	case 0x0300:
	case 0x0302:
	case 0x0311:
		return true;
	}
	return false;
}

/* The u32 knobs, in one table for parsing and reporting. */
#define KNOB(attr, field) { SMBSRV_A_KNOBS_##attr, \
			    offsetof(struct smbsrv_knobs, field) }
static const struct {
	int attr;
	size_t offset;
} smbsrv_u32_knobs[] = {
	KNOB(TCP_PORT, tcp_port),
	KNOB(MAX_CONNECTIONS, max_connections),
	KNOB(SMB2_MAX_READ, max_read),
	KNOB(SMB2_MAX_WRITE, max_write),
	KNOB(SMB2_MAX_TRANS, max_trans),
	KNOB(SMB2_MAX_CREDITS, max_credits),
	KNOB(MIN_DIALECT, min_dialect),
	KNOB(MAX_DIALECT, max_dialect),
	KNOB(SIGNING, signing),
	KNOB(ENCRYPTION, encryption),
	KNOB(MAX_IP_CONNECTIONS, max_ip_connections),
	KNOB(MAX_SESSIONS, max_sessions),
	KNOB(MAX_OPEN_FILES, max_open_files),
	KNOB(DEADTIME, deadtime),
	KNOB(UPCALL_TIMEOUT, upcall_timeout),
	KNOB(FRAME_TIMEOUT, frame_timeout),
	KNOB(ROUTE_POLICY, route_policy),
	KNOB(SPLICE_THRESHOLD, splice_threshold),
	KNOB(RESPONSE_BATCH, response_batch),
	KNOB(INLINE_READS, inline_reads),
	KNOB(LOGON_TIMEOUT, logon_timeout),
	KNOB(SMB2_LEASES, smb2_leases),
	KNOB(DURABLE_HANDLES, durable_handles),
	KNOB(DURABLE_HANDLE_TIMEOUT, durable_timeout),
	KNOB(MULTICHANNEL, multichannel),
	KNOB(SMB3_UNIX_EXTENSIONS, smb3_unix_extensions),
	KNOB(SERVER_MAX_OPEN_FILES, server_max_open_files),
	KNOB(MAX_OPEN_FILES_PER_USER, max_open_files_per_user),
	KNOB(MIN_RECEIVEFILE_SIZE, min_receivefile_size),
};

#undef KNOB

static u32 *smbsrv_knob(struct smbsrv_knobs *k, size_t offset)
{
	return (u32 *)((char *)k + offset);
}

int smbsrv_knobs_apply(struct smbsrv_knobs *k, const struct nlattr *nest,
		       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SMBSRV_A_KNOBS_MAX + 1];
	struct smbsrv_knobs n = *k;
	struct nlattr *a;
	unsigned int i;
	int err;

	err = nla_parse_nested(tb, SMBSRV_A_KNOBS_MAX, nest,
			       smbsrv_knobs_nl_policy, extack);
	if (err)
		return err;

	for (i = 0; i < ARRAY_SIZE(smbsrv_u32_knobs); i++) {
		a = tb[smbsrv_u32_knobs[i].attr];
		if (a)
			*smbsrv_knob(&n, smbsrv_u32_knobs[i].offset) =
				nla_get_u32(a);
	}
	if (tb[SMBSRV_A_KNOBS_NETBIOS_NAME])
		nla_strscpy(n.netbios_name, tb[SMBSRV_A_KNOBS_NETBIOS_NAME],
			    sizeof(n.netbios_name));

	for (i = SMBSRV_A_KNOBS_MIN_DIALECT; i <= SMBSRV_A_KNOBS_MAX_DIALECT;
	     i++) {
		if (tb[i] && !smbsrv_dialect_valid(nla_get_u32(tb[i]))) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, tb[i],
						"no SMB2 dialect 0x%04x",
						nla_get_u32(tb[i]));
			return -EINVAL;
		}
	}
	if (n.min_dialect > n.max_dialect) {
		NL_SET_ERR_MSG_FMT(extack,
				   "min dialect 0x%04x is above max dialect 0x%04x",
				   n.min_dialect, n.max_dialect);
		return -EINVAL;
	}
	if (!n.netbios_name[0]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SMBSRV_A_KNOBS_NETBIOS_NAME],
				    "empty netbios name");
		return -EINVAL;
	}

	*k = n;
	return 0;
}

int smbsrv_knobs_put(struct sk_buff *skb, int attrtype,
		     const struct smbsrv_knobs *k)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, attrtype);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(smbsrv_u32_knobs); i++) {
		if (nla_put_u32(skb, smbsrv_u32_knobs[i].attr,
				*smbsrv_knob((struct smbsrv_knobs *)k,
					     smbsrv_u32_knobs[i].offset)))
			goto nospace;
	}
	if (nla_put_string(skb, SMBSRV_A_KNOBS_NETBIOS_NAME, k->netbios_name))
		goto nospace;
	nla_nest_end(skb, nest);
	return 0;

nospace:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

struct smbsrv_blob {
	struct rcu_head rcu;
	u32 len;
	u8 data[] __counted_by(len);
};

static struct smbsrv_blob __rcu *smbsrv_negotiate_blob;
static DEFINE_SPINLOCK(smbsrv_negotiate_blob_lock);

int smbsrv_negotiate_blob_set(const void *data, u32 len)
{
	struct smbsrv_blob *b = NULL, *old;

	if (len > SMBSRV_NEGOTIATE_BLOB_MAX)
		return -EINVAL;
	if (len) {
		b = kmalloc(struct_size(b, data, len), GFP_KERNEL);
		if (!b)
			return -ENOMEM;
		b->len = len;
		memcpy(b->data, data, len);
	}
	spin_lock(&smbsrv_negotiate_blob_lock);
	old = rcu_replace_pointer(smbsrv_negotiate_blob, b,
				  lockdep_is_held(&smbsrv_negotiate_blob_lock));
	spin_unlock(&smbsrv_negotiate_blob_lock);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

int smbsrv_negotiate_blob_copy(void *buf, u32 size)
{
	struct smbsrv_blob *b;
	int ret = 0;

	rcu_read_lock();
	b = rcu_dereference(smbsrv_negotiate_blob);
	if (b) {
		if (b->len > size) {
			ret = -ENOSPC;
		} else {
			memcpy(buf, b->data, b->len);
			ret = b->len;
		}
	}
	rcu_read_unlock();
	return ret;
}

int smbsrv_negotiate_blob_put(struct sk_buff *skb, int attrtype)
{
	struct smbsrv_blob *b;
	int err = 0;

	rcu_read_lock();
	b = rcu_dereference(smbsrv_negotiate_blob);
	if (b)
		err = nla_put(skb, attrtype, b->len, b->data);
	rcu_read_unlock();
	return err;
}

/* Module exit: no reader is left. */
void smbsrv_negotiate_blob_exit(void)
{
	kfree(rcu_dereference_protected(smbsrv_negotiate_blob, true));
	RCU_INIT_POINTER(smbsrv_negotiate_blob, NULL);
}
