// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the audit trail (see audit.h).
 */
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "audit.h"
#include "conn.h"
#include "netlink-gen.h"
#include "session.h"
#include "upcall.h"

static DEFINE_SPINLOCK(smbsrv_audit_lock);
static u32 smbsrv_audit_portid;		/* 0: no daemon listening */
static u32 smbsrv_audit_rate;		/* records a second, 0: no limit */
static u32 smbsrv_audit_session_mask;
static unsigned long smbsrv_audit_window;	/* jiffies the second began */
static u32 smbsrv_audit_used;		/* records in that second */

static atomic64_t smbsrv_audit_records = ATOMIC64_INIT(0);
static atomic64_t smbsrv_audit_dropped = ATOMIC64_INIT(0);
/* Dropped since the last record delivered: sent with the next. */
static atomic64_t smbsrv_audit_unsaid = ATOMIC64_INIT(0);

static bool smbsrv_audit_failed(u32 status)
{
	return (status >> 30) == 3;
}

bool smbsrv_audit_wants(const struct smbsrv_tree *tree,
			enum smbsrv_audit_op op, u32 status)
{
	const struct smbsrv_share_info *s = tree ? tree->share : NULL;
	u32 mask;

	if (!s)
		return false;
	mask = smbsrv_audit_failed(status) ? s->audit_failure :
					     s->audit_success;
	return mask & BIT(op);
}

static void smbsrv_audit_drop(void)
{
	atomic64_inc(&smbsrv_audit_dropped);
	atomic64_inc(&smbsrv_audit_unsaid);
	pr_info_ratelimited("smbsrv: audit records dropped (%lld so far): over the rate, or smbsrvd's audit socket full or gone\n",
			    atomic64_read(&smbsrv_audit_dropped));
}

/* The socket to send to, or 0 when over the rate or nobody listens. */
static u32 smbsrv_audit_admit(void)
{
	u32 portid;

	spin_lock(&smbsrv_audit_lock);
	portid = smbsrv_audit_portid;
	if (portid && smbsrv_audit_rate) {
		if (time_after_eq(jiffies, smbsrv_audit_window + HZ)) {
			smbsrv_audit_window = jiffies;
			smbsrv_audit_used = 0;
		}
		if (smbsrv_audit_used >= smbsrv_audit_rate)
			portid = 0;
		else
			smbsrv_audit_used++;
	}
	spin_unlock(&smbsrv_audit_lock);
	return portid;
}

static int smbsrv_audit_put_str(struct sk_buff *msg, int type, const char *s)
{
	return s ? nla_put_string(msg, type, s) : 0;
}

static size_t smbsrv_audit_str_size(const char *s)
{
	return s ? nla_total_size(strlen(s) + 1) : 0;
}

/* The record's attributes: paths may be PATH_MAX long each. */
static size_t smbsrv_audit_size(const struct smbsrv_session *sess,
				const char *share, const char *path,
				const char *path2)
{
	return 4 * nla_total_size(sizeof(u32)) +
	       2 * nla_total_size_64bit(sizeof(u64)) +
	       smbsrv_audit_str_size(sess->user) +
	       smbsrv_audit_str_size(sess->conn->addr) +
	       smbsrv_audit_str_size(share) + smbsrv_audit_str_size(path) +
	       smbsrv_audit_str_size(path2);
}

static void smbsrv_audit_send(enum smbsrv_audit_op op, u32 status,
			      struct smbsrv_session *sess, const char *share,
			      const char *path, const char *path2, u32 access)
{
	struct sk_buff *msg;
	u64 unsaid;
	u32 portid;
	void *hdr;

	portid = smbsrv_audit_admit();
	if (!portid) {
		smbsrv_audit_drop();
		return;
	}
	/* Never waits for memory: the data path goes on without it. */
	msg = genlmsg_new(smbsrv_audit_size(sess, share, path, path2),
			  GFP_NOWAIT | __GFP_NOWARN);
	if (!msg) {
		smbsrv_audit_drop();
		return;
	}
	hdr = genlmsg_put(msg, 0, 0, &smbsrv_nl_family, 0,
			  SMBSRV_CMD_AUDIT_RECORD);
	unsaid = atomic64_xchg(&smbsrv_audit_unsaid, 0);
	if (!hdr ||
	    nla_put_u32(msg, SMBSRV_A_AUDIT_OP, op) ||
	    nla_put_u32(msg, SMBSRV_A_AUDIT_STATUS, status) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_AUDIT_SESSION_ID, sess->id, 0) ||
	    smbsrv_audit_put_str(msg, SMBSRV_A_AUDIT_USER, sess->user) ||
	    nla_put_string(msg, SMBSRV_A_AUDIT_CLIENT_ADDR, sess->conn->addr) ||
	    smbsrv_audit_put_str(msg, SMBSRV_A_AUDIT_SHARE, share) ||
	    smbsrv_audit_put_str(msg, SMBSRV_A_AUDIT_PATH, path) ||
	    smbsrv_audit_put_str(msg, SMBSRV_A_AUDIT_PATH2, path2) ||
	    nla_put_u32(msg, SMBSRV_A_AUDIT_ACCESS, access) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_AUDIT_DROPPED, unsaid, 0)) {
		nlmsg_free(msg);
		atomic64_add(unsaid, &smbsrv_audit_unsaid);
		smbsrv_audit_drop();
		return;
	}
	genlmsg_end(msg, hdr);
	/* MSG_DONTWAIT underneath: a full socket drops, never blocks. */
	if (genlmsg_unicast(&init_net, msg, portid)) {
		atomic64_add(unsaid, &smbsrv_audit_unsaid);
		smbsrv_audit_drop();
		return;
	}
	atomic64_inc(&smbsrv_audit_records);
}

void smbsrv_audit_tree(const struct smbsrv_tree *tree,
		       enum smbsrv_audit_op op, u32 status, const char *path,
		       const char *path2, u32 access)
{
	smbsrv_audit_send(op, status, tree->sess, tree->share->name, path,
			  path2, access);
}

void smbsrv_audit_session(struct smbsrv_session *sess,
			  enum smbsrv_audit_op op, u32 status)
{
	if (smbsrv_audit_failed(status) ||
	    !(READ_ONCE(smbsrv_audit_session_mask) & BIT(op)))
		return;
	smbsrv_audit_send(op, status, sess, NULL, NULL, NULL, 0);
}

void smbsrv_audit_subscribe(u32 portid, u32 rate, u32 session_success)
{
	spin_lock(&smbsrv_audit_lock);
	smbsrv_audit_portid = portid;
	smbsrv_audit_rate = rate;
	smbsrv_audit_used = 0;
	smbsrv_audit_window = jiffies;
	WRITE_ONCE(smbsrv_audit_session_mask, session_success);
	spin_unlock(&smbsrv_audit_lock);
}

void smbsrv_audit_release(u32 portid)
{
	spin_lock(&smbsrv_audit_lock);
	if (smbsrv_audit_portid == portid)
		smbsrv_audit_portid = 0;
	spin_unlock(&smbsrv_audit_lock);
}

void smbsrv_audit_counts(u64 *records, u64 *dropped)
{
	*records = atomic64_read(&smbsrv_audit_records);
	*dropped = atomic64_read(&smbsrv_audit_dropped);
}
