// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: the netlink commands that look at and act on connections and
 * sessions: session-get, connection-get, open-get and queue-get dumps,
 * kill, knobs-set, read-stats-get, stats-get.
 */
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "audit.h"
#include "cache.h"
#include "cmdstats.h"
#include "conn.h"
#include "durable.h"
#include "file.h"
#include "netlink-gen.h"
#include "readstats.h"
#include "sched.h"
#include "session.h"
#include "smbsrv.h"
#include "writestats.h"

static u32 smbsrv_age(u64 start)
{
	u64 now = ktime_get_boottime_seconds();

	return start && now > start ? (u32)min_t(u64, now - start, U32_MAX) : 0;
}

/* The connection ids of @sess's valid channels on open connections. */
static int smbsrv_session_fill_channels(struct sk_buff *skb,
					struct smbsrv_session *sess)
{
	struct smbsrv_channel *ch;
	int err = 0;

	spin_lock(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, sess_node) {
		if (!ch->valid || smbsrv_conn_closing(ch->conn))
			continue;
		err = nla_put_u32(skb, SMBSRV_A_SESSION_CHANNEL, ch->conn->id);
		if (err)
			break;
	}
	spin_unlock(&sess->chan_lock);
	return err;
}

static int smbsrv_session_fill(struct sk_buff *skb, struct smbsrv_session *sess)
{
	int err;

	mutex_lock(&sess->setup_lock);
	err = nla_put_u64_64bit(skb, SMBSRV_A_SESSION_SESSION_ID, sess->id, 0) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_CONN_ID, sess->conn->id) ||
	      nla_put_string(skb, SMBSRV_A_SESSION_USER,
			     sess->user ? sess->user : "") ||
	      nla_put_string(skb, SMBSRV_A_SESSION_DOMAIN,
			     sess->domain ? sess->domain : "") ||
	      nla_put_string(skb, SMBSRV_A_SESSION_CLIENT_ADDR,
			     sess->conn->addr) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_DIALECT, sess->conn->dialect) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_FLAGS, sess->flags) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_SIGNED,
			  sess->signing_required) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_ENCRYPTED,
			  sess->encrypt_data ||
			  READ_ONCE(sess->client_encrypts)) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_TREES,
			  smbsrv_tree_count(sess)) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_OPEN_FILES,
			  atomic_read(&sess->nr_opens)) ||
	      nla_put_u32(skb, SMBSRV_A_SESSION_AGE, smbsrv_age(sess->start)) ||
	      (sess->principal && sess->principal[0] &&
	       nla_put_string(skb, SMBSRV_A_SESSION_PRINCIPAL,
			      sess->principal)) ||
	      smbsrv_session_fill_channels(skb, sess);
	mutex_unlock(&sess->setup_lock);
	return err ? -EMSGSIZE : 0;
}

/* Established sessions only; cb->args[0] is the last SessionId sent. */
int smbsrv_nl_session_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct smbsrv_session *sess;
	u64 after = cb->args[0];
	void *hdr;

	while ((sess = smbsrv_session_next(after))) {
		if (!smbsrv_session_valid(sess)) {
			after = sess->id;
			smbsrv_session_put(sess);
			continue;
		}
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &smbsrv_nl_family,
				  NLM_F_MULTI, SMBSRV_CMD_SESSION_GET);
		if (!hdr || smbsrv_session_fill(skb, sess)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			smbsrv_session_put(sess);
			break;
		}
		genlmsg_end(skb, hdr);
		after = sess->id;
		smbsrv_session_put(sess);
	}
	cb->args[0] = after;
	return skb->len;
}

static int smbsrv_conn_fill(struct sk_buff *skb, struct smbsrv_conn *conn)
{
	u32 sessions, credits;
	u64 requests;

	spin_lock(&conn->lock);
	sessions = conn->nr_sessions;
	credits = conn->seqwin.avail;
	requests = conn->requests;
	spin_unlock(&conn->lock);
	if (nla_put_u32(skb, SMBSRV_A_CONNECTION_CONN_ID, conn->id) ||
	    nla_put_string(skb, SMBSRV_A_CONNECTION_CLIENT_ADDR, conn->addr) ||
	    nla_put_u32(skb, SMBSRV_A_CONNECTION_DIALECT, conn->dialect) ||
	    nla_put_u32(skb, SMBSRV_A_CONNECTION_SESSIONS, sessions) ||
	    nla_put_u32(skb, SMBSRV_A_CONNECTION_CREDITS, credits) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_CONNECTION_REQUESTS, requests, 0) ||
	    nla_put_u32(skb, SMBSRV_A_CONNECTION_AGE, smbsrv_age(conn->start)))
		return -EMSGSIZE;
	return 0;
}

/* cb->args[0] is the last connection id sent. */
int smbsrv_nl_connection_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	struct smbsrv_conn *conn;
	u32 after = cb->args[0];
	void *hdr;

	while ((conn = smbsrv_conn_next(after))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &smbsrv_nl_family,
				  NLM_F_MULTI, SMBSRV_CMD_CONNECTION_GET);
		if (!hdr || smbsrv_conn_fill(skb, conn)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			smbsrv_conn_put(conn);
			break;
		}
		genlmsg_end(skb, hdr);
		after = conn->id;
		smbsrv_conn_put(conn);
	}
	cb->args[0] = after;
	return skb->len;
}

int smbsrv_nl_kill_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *sid = info->attrs[SMBSRV_A_KILL_SESSION_ID];
	struct nlattr *cid = info->attrs[SMBSRV_A_KILL_CONN_ID];
	struct smbsrv_session *sess;
	struct smbsrv_conn *conn;

	if (!sid == !cid) {
		NL_SET_ERR_MSG(info->extack,
			       "name either a session-id or a conn-id");
		return -EINVAL;
	}
	if (sid) {
		sess = smbsrv_session_lookup_any(nla_get_u64(sid));
		if (!sess || !smbsrv_session_valid(sess)) {
			if (sess)
				smbsrv_session_put(sess);
			NL_SET_ERR_MSG_ATTR(info->extack, sid, "no such session");
			return -ENOENT;
		}
		pr_info("smbsrv: session %llu of %s killed by the administrator\n",
			sess->id, sess->conn->addr);
		smbsrv_session_end(sess);
		smbsrv_session_put(sess);
		return 0;
	}
	conn = smbsrv_conn_find(nla_get_u32(cid));
	if (!conn) {
		NL_SET_ERR_MSG_ATTR(info->extack, cid, "no such connection");
		return -ENOENT;
	}
	pr_info("smbsrv: connection %u (%s) killed by the administrator\n",
		conn->id, conn->addr);
	smbsrv_conn_close(conn);
	smbsrv_conn_put(conn);
	return 0;
}

static int smbsrv_queue_fill(struct sk_buff *skb, enum smbsrv_queue q)
{
	struct smbsrv_queue_stats st;

	smbsrv_sched_stats(q, &st);
	if (nla_put_u32(skb, SMBSRV_A_QUEUE_INDEX, q) ||
	    nla_put_string(skb, SMBSRV_A_QUEUE_NAME, st.name) ||
	    nla_put_u32(skb, SMBSRV_A_QUEUE_UNBOUND, st.unbound) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_QUEUE_QUEUED, st.queued, 0) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_QUEUE_COMPLETED, st.completed, 0) ||
	    nla_put_u32(skb, SMBSRV_A_QUEUE_INFLIGHT, st.inflight) ||
	    nla_put_u32(skb, SMBSRV_A_QUEUE_INFLIGHT_MAX, st.inflight_max) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_QUEUE_WAIT_NS, st.wait_ns, 0) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_QUEUE_SENDS, st.sends, 0) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_QUEUE_RESPONSES, st.responses, 0) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_QUEUE_BATCHED_SENDS,
			      st.batched_sends, 0) ||
	    nla_put_u32(skb, SMBSRV_A_QUEUE_BATCH_MAX, st.batch_max))
		return -EMSGSIZE;
	return 0;
}

/* cb->args[0] is the next queue to send. */
int smbsrv_nl_queue_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long q;
	void *hdr;

	for (q = cb->args[0]; q < SMBSRV_NR_QUEUES; q++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &smbsrv_nl_family,
				  NLM_F_MULTI, SMBSRV_CMD_QUEUE_GET);
		if (!hdr || smbsrv_queue_fill(skb, q)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = q;
	return skb->len;
}

static int smbsrv_open_fill(struct sk_buff *skb, struct smbsrv_file *f,
			    u64 session_id)
{
	struct smbsrv_tree *tree = READ_ONCE(f->open.tree);
	u32 lease, left;
	bool breaking, disconnected;
	u8 oplock, key[16] = {};
	u16 epoch;
	u8 durable;

	smbsrv_cache_describe(f, &oplock, &lease, key, &epoch, &breaking);
	durable = smbsrv_durable_state(f, &disconnected, &left);
	if (nla_put_u64_64bit(skb, SMBSRV_A_OPEN_SESSION_ID, session_id, 0) ||
	    nla_put_u32(skb, SMBSRV_A_OPEN_TREE_ID,
			disconnected || !tree ? 0 : tree->id) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_OPEN_PERSISTENT_ID,
			      READ_ONCE(f->open.id_persistent), 0) ||
	    nla_put_u64_64bit(skb, SMBSRV_A_OPEN_VOLATILE_ID,
			      disconnected ? 0 : f->open.id_volatile, 0) ||
	    nla_put_string(skb, SMBSRV_A_OPEN_PATH, f->name) ||
	    nla_put_string(skb, SMBSRV_A_OPEN_SHARE,
			   tree ? tree->share->name : "") ||
	    nla_put_u32(skb, SMBSRV_A_OPEN_ACCESS, f->access) ||
	    nla_put_u32(skb, SMBSRV_A_OPEN_OPLOCK, oplock) ||
	    nla_put_u32(skb, SMBSRV_A_OPEN_BREAKING, breaking) ||
	    nla_put_u32(skb, SMBSRV_A_OPEN_DURABLE, durable))
		return -EMSGSIZE;
	if (oplock == SMB2_OPLOCK_LEVEL_LEASE &&
	    (nla_put_u32(skb, SMBSRV_A_OPEN_LEASE_STATE, lease) ||
	     nla_put(skb, SMBSRV_A_OPEN_LEASE_KEY, sizeof(key), key) ||
	     nla_put_u32(skb, SMBSRV_A_OPEN_LEASE_EPOCH, epoch)))
		return -EMSGSIZE;
	if (disconnected &&
	    nla_put_u32(skb, SMBSRV_A_OPEN_DISCONNECTED_LEFT, left))
		return -EMSGSIZE;
	return 0;
}

static bool smbsrv_open_msg(struct sk_buff *skb, struct netlink_callback *cb,
			    struct smbsrv_file *f, u64 session_id)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &smbsrv_nl_family, NLM_F_MULTI, SMBSRV_CMD_OPEN_GET);
	if (!hdr)
		return false;
	if (smbsrv_open_fill(skb, f, session_id)) {
		genlmsg_cancel(skb, hdr);
		return false;
	}
	genlmsg_end(skb, hdr);
	return true;
}

/*
 * The open files of every session, then the disconnected durable ones.
 * cb->args: [0] the session, [1] the last volatile id sent in it, [2] 1
 * once on the durable ones, [3] the last durable id sent.
 */
int smbsrv_nl_open_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smbsrv_session *sess;
	struct smbsrv_file *f;
	unsigned long id;

	while (!cb->args[2]) {
		sess = smbsrv_session_lookup_any(cb->args[0]);
		if (!sess || !smbsrv_session_valid(sess)) {
			if (sess)
				smbsrv_session_put(sess);
			sess = smbsrv_session_next(cb->args[0]);
			if (!sess) {
				cb->args[2] = 1;
				break;
			}
			cb->args[0] = sess->id;
			cb->args[1] = 0;
			if (!smbsrv_session_valid(sess)) {
				smbsrv_session_put(sess);
				continue;
			}
		}
		id = cb->args[1];
		while ((f = smbsrv_file_next(sess, &id))) {
			if (!smbsrv_open_msg(skb, cb, f, sess->id)) {
				smbsrv_file_put(f);
				smbsrv_session_put(sess);
				return skb->len;
			}
			cb->args[1] = id;
			smbsrv_file_put(f);
		}
		/* On to the next session. */
		smbsrv_session_put(sess);
		sess = smbsrv_session_next(cb->args[0]);
		if (!sess) {
			cb->args[2] = 1;
			break;
		}
		cb->args[0] = sess->id;
		cb->args[1] = 0;
		smbsrv_session_put(sess);
	}
	id = cb->args[3];
	while ((f = smbsrv_durable_next(&id))) {
		if (!smbsrv_open_msg(skb, cb, f, 0)) {
			smbsrv_file_put(f);
			return skb->len;
		}
		cb->args[3] = id;
		smbsrv_file_put(f);
	}
	return skb->len;
}

int smbsrv_nl_read_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	static const int copy_attr[SMBSRV_NR_COPY_REASONS] = {
		[SMBSRV_COPY_OFF] = SMBSRV_A_READ_STATS_COPY_OFF,
		[SMBSRV_COPY_SMALL] = SMBSRV_A_READ_STATS_COPY_SMALL,
		[SMBSRV_COPY_STREAM] = SMBSRV_A_READ_STATS_COPY_STREAM,
		[SMBSRV_COPY_NONREG] = SMBSRV_A_READ_STATS_COPY_NONREG,
		[SMBSRV_COPY_COMPOUND] = SMBSRV_A_READ_STATS_COPY_COMPOUND,
		[SMBSRV_COPY_NOCACHE] = SMBSRV_A_READ_STATS_COPY_NOCACHE,
		[SMBSRV_COPY_ERROR] = SMBSRV_A_READ_STATS_COPY_ERROR,
	};
	static const int inline_attr[SMBSRV_NR_INLINE_EVENTS] = {
		[SMBSRV_INLINE_HIT] = SMBSRV_A_READ_STATS_INLINE_HITS,
		[SMBSRV_INLINE_MISS] = SMBSRV_A_READ_STATS_INLINE_MISSES,
		[SMBSRV_INLINE_DEFERRED] = SMBSRV_A_READ_STATS_INLINE_DEFERRED,
	};
	struct smbsrv_read_stats st;
	struct sk_buff *msg;
	void *hdr;
	int i;

	smbsrv_readstats_get(&st);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_iput(msg, info);
	if (!hdr)
		goto too_big;
	if (nla_put_u64_64bit(msg, SMBSRV_A_READ_STATS_SPLICED, st.spliced, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_READ_STATS_SPLICED_BYTES,
			      st.spliced_bytes, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_READ_STATS_COPIED, st.copied, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_READ_STATS_COPIED_BYTES,
			      st.copied_bytes, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_READ_STATS_PAGES_INFLIGHT,
			      st.pages_inflight, 0))
		goto too_big;
	for (i = 0; i < SMBSRV_NR_COPY_REASONS; i++)
		if (nla_put_u64_64bit(msg, copy_attr[i], st.copy[i], 0))
			goto too_big;
	for (i = 0; i < SMBSRV_NR_INLINE_EVENTS; i++)
		if (nla_put_u64_64bit(msg, inline_attr[i], st.inl[i], 0))
			goto too_big;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int smbsrv_nl_write_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	static const int copy_attr[SMBSRV_NR_WCOPY_REASONS] = {
		[SMBSRV_WCOPY_OFF] = SMBSRV_A_WRITE_STATS_COPY_OFF,
		[SMBSRV_WCOPY_SMALL] = SMBSRV_A_WRITE_STATS_COPY_SMALL,
		[SMBSRV_WCOPY_SEALED] = SMBSRV_A_WRITE_STATS_COPY_SEALED,
		[SMBSRV_WCOPY_COMPOUND] = SMBSRV_A_WRITE_STATS_COPY_COMPOUND,
		[SMBSRV_WCOPY_STREAM] = SMBSRV_A_WRITE_STATS_COPY_STREAM,
		[SMBSRV_WCOPY_OTHER] = SMBSRV_A_WRITE_STATS_COPY_OTHER,
	};
	static const int inline_attr[SMBSRV_NR_WINLINE_EVENTS] = {
		[SMBSRV_WINLINE_ALONE] = SMBSRV_A_WRITE_STATS_INLINE,
		[SMBSRV_WINLINE_DEPTH] = SMBSRV_A_WRITE_STATS_INLINE_DEPTH,
		[SMBSRV_WINLINE_DEFERRED] = SMBSRV_A_WRITE_STATS_INLINE_DEFERRED,
	};
	struct smbsrv_write_stats st;
	struct sk_buff *msg;
	void *hdr;
	int i;

	smbsrv_writestats_get(&st);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_iput(msg, info);
	if (!hdr)
		goto too_big;
	if (nla_put_u64_64bit(msg, SMBSRV_A_WRITE_STATS_ONE_COPY, st.one_copy,
			      0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_WRITE_STATS_ONE_COPY_BYTES,
			      st.one_copy_bytes, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_WRITE_STATS_ONE_COPY_SIGNED,
			      st.one_copy_signed, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_WRITE_STATS_ONE_COPY_SEALED,
			      st.one_copy_sealed, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_WRITE_STATS_COPIED, st.copied, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_WRITE_STATS_COPIED_BYTES,
			      st.copied_bytes, 0))
		goto too_big;
	for (i = 0; i < SMBSRV_NR_WCOPY_REASONS; i++)
		if (nla_put_u64_64bit(msg, copy_attr[i], st.copy[i], 0))
			goto too_big;
	for (i = 0; i < SMBSRV_NR_WINLINE_EVENTS; i++)
		if (nla_put_u64_64bit(msg, inline_attr[i], st.inl[i], 0))
			goto too_big;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* Open files of established sessions, then disconnected durable handles. */
static u32 smbsrv_open_files(void)
{
	struct smbsrv_session *sess;
	struct smbsrv_file *f;
	unsigned long id = 0;
	u64 after = 0;
	u32 n = 0;

	while ((sess = smbsrv_session_next(after))) {
		if (smbsrv_session_valid(sess))
			n += atomic_read(&sess->nr_opens);
		after = sess->id;
		smbsrv_session_put(sess);
	}
	while ((f = smbsrv_durable_next(&id))) {
		n++;
		smbsrv_file_put(f);
	}
	return n;
}

static int smbsrv_command_stats_fill(struct sk_buff *msg, u16 cmd)
{
	struct smbsrv_cmd_stats st;
	struct nlattr *nest;
	int i;

	smbsrv_cmdstats_get(cmd, &st);
	nest = nla_nest_start(msg, SMBSRV_A_STATS_COMMAND);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, SMBSRV_A_COMMAND_STATS_COMMAND, cmd) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_COMMAND_STATS_REQUESTS,
			      st.requests, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_COMMAND_STATS_ERRORS, st.errors, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_COMMAND_STATS_LATENCY_NS,
			      st.latency_ns, 0))
		goto too_big;
	for (i = 0; i < SMBSRV_LAT_BUCKETS; i++)
		if (nla_put_u64_64bit(msg, SMBSRV_A_COMMAND_STATS_LATENCY_BUCKET,
				      st.bucket[i], 0))
			goto too_big;
	nla_nest_end(msg, nest);
	return 0;
too_big:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

int smbsrv_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	u64 records, dropped;
	struct sk_buff *msg;
	void *hdr;
	int i;

	/* 19 commands of 20 buckets: about 7 KiB. */
	msg = genlmsg_new(16384, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_iput(msg, info);
	if (!hdr)
		goto too_big;
	if (nla_put_u64_64bit(msg, SMBSRV_A_STATS_WRITE_BYTES,
			      smbsrv_cmdstats_written_total(), 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_STATS_OPLOCK_BREAKS,
			      smbsrv_cmdstats_breaks(SMBSRV_BREAK_OPLOCK), 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_STATS_LEASE_BREAKS,
			      smbsrv_cmdstats_breaks(SMBSRV_BREAK_LEASE), 0) ||
	    nla_put_u32(msg, SMBSRV_A_STATS_OPEN_FILES, smbsrv_open_files()))
		goto too_big;
	smbsrv_audit_counts(&records, &dropped);
	if (nla_put_u64_64bit(msg, SMBSRV_A_STATS_AUDIT_RECORDS, records, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_STATS_AUDIT_DROPPED, dropped, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_STATS_BAD_SIGNATURES,
			      smbsrv_cmdstats_bad_signatures(), 0))
		goto too_big;
	for (i = 0; i < SMBSRV_LAT_BOUNDS; i++)
		if (nla_put_u64_64bit(msg, SMBSRV_A_STATS_LATENCY_BOUND,
				      smbsrv_lat_bounds_ns[i], 0))
			goto too_big;
	for (i = 0; i < SMB2_NR_COMMANDS; i++)
		if (smbsrv_command_stats_fill(msg, i))
			goto too_big;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}
