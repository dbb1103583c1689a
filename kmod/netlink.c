// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: generic netlink family "smbsrv".
 *
 * Policies and the ops table are generated from
 * Documentation/netlink/specs/smbsrv.yaml into netlink-gen.[ch]; this file
 * holds the handlers and tracks the daemon's socket.
 */
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "audit.h"
#include "budget.h"
#include "cluster.h"
#include "conn.h"
#include "fold.h"
#include "hosts.h"
#include "knobs.h"
#include "netlink-gen.h"
#include "netlink.h"
#include "session.h"
#include "share.h"
#include "smbsrv.h"
#include "transport.h"
#include "upcall.h"
#include "wire/hosts.h"

/* Names matched without case: the work done (fold.h). */
static int smbsrv_put_fold_stats(struct sk_buff *msg)
{
	struct smbsrv_fold_stats st;

	smbsrv_fold_stats(&st);
	return nla_put_u64_64bit(msg, SMBSRV_A_SERVER_FOLD_SCANS, st.scans, 0) ||
	       nla_put_u64_64bit(msg, SMBSRV_A_SERVER_FOLD_ENTRIES, st.entries,
				 0) ||
	       nla_put_u64_64bit(msg, SMBSRV_A_SERVER_FOLD_CACHED, st.cached, 0);
}

/*
 * Reply with the server's state, and with the NEGOTIATE blob for
 * status-get; called with smbsrv_server.lock held.
 */
static int smbsrv_reply_server(struct genl_info *info, bool status)
{
	struct smbsrv_server *srv = &smbsrv_server;
	struct smbsrv_budget_stats bst;
	struct smbsrv_conn_stats cst;
	struct sk_buff *msg;
	void *hdr;

	lockdep_assert_held(&srv->lock);
	msg = genlmsg_new(NLMSG_GOODSIZE + SMBSRV_NEGOTIATE_BLOB_MAX,
			  GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_iput(msg, info);
	if (!hdr)
		goto nospace;
	if (nla_put_string(msg, SMBSRV_A_SERVER_MODULE_VERSION,
			   SMBSRV_VERSION) ||
	    nla_put_u32(msg, SMBSRV_A_SERVER_DAEMON_STATE,
			srv->daemon_attached ? SMBSRV_DAEMON_STATE_RUNNING :
					       SMBSRV_DAEMON_STATE_ABSENT) ||
	    nla_put_u32(msg, SMBSRV_A_SERVER_DAEMON_PID,
			srv->daemon_attached ? srv->daemon_pid : 0) ||
	    nla_put_u32(msg, SMBSRV_A_SERVER_LISTEN_PORT,
			smbsrv_listener_port(srv->listener)) ||
	    smbsrv_knobs_put(msg, SMBSRV_A_SERVER_KNOBS, &srv->knobs))
		goto nospace;
	smbsrv_conn_stats(&cst);
	smbsrv_budget_stats(&bst);
	if (status &&
	    (nla_put_u32(msg, SMBSRV_A_SERVER_CONNECTIONS, smbsrv_conn_count()) ||
	     nla_put_u32(msg, SMBSRV_A_SERVER_SESSIONS,
			 smbsrv_session_count()) ||
	     smbsrv_negotiate_blob_put(msg, SMBSRV_A_SERVER_NEGOTIATE_BLOB) ||
	     nla_put_u64_64bit(msg, SMBSRV_A_SERVER_CONNS_REFUSED,
			       cst.refused, 0) ||
	     nla_put_u64_64bit(msg, SMBSRV_A_SERVER_CONNS_EVICTED,
			       cst.evicted, 0) ||
	     nla_put_u64_64bit(msg, SMBSRV_A_SERVER_CONNS_LOGON_EXPIRED,
			       cst.logon_expired, 0) ||
	     nla_put_u64_64bit(msg, SMBSRV_A_SERVER_CONNS_IDLE_CLOSED,
			       cst.idle_closed, 0) ||
	     smbsrv_put_fold_stats(msg) ||
	     nla_put_u32(msg, SMBSRV_A_SERVER_OPENS, bst.opens) ||
	     nla_put_u64_64bit(msg, SMBSRV_A_SERVER_OPENS_REFUSED, bst.refused,
			       0) ||
	     nla_put_u64_64bit(msg, SMBSRV_A_SERVER_OPENS_REFUSED_USER,
			       bst.refused_user, 0)))
		goto nospace;
	/* Each share with trees: as many as fit (one per share in use). */
	if (status &&
	    smbsrv_listener_put_addrs(srv->listener, msg,
				      SMBSRV_A_SERVER_LISTEN_ADDR))
		goto nospace;
	if (status)
		smbsrv_share_use_put_all(msg, SMBSRV_A_SERVER_SHARE_USE);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* The startup request's listen-addr attributes into @set. */
static int smbsrv_listen_set_parse(struct genl_info *info,
				   struct smbsrv_listen_set *set)
{
	struct nlattr *a;
	int rem;

	set->nr = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != SMBSRV_A_SERVER_LISTEN_ADDR)
			continue;
		if (set->nr == SMBSRV_LISTEN_ADDRS_MAX) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, a,
						"more than %u listen addresses",
						SMBSRV_LISTEN_ADDRS_MAX);
			return -E2BIG;
		}
		if (smbsrv_listen_addr_parse(nla_data(a), nla_len(a),
					     &set->addr[set->nr])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "a listen address is 4, 16 or 20 bytes");
			return -EINVAL;
		}
		set->nr++;
	}
	return 0;
}

int smbsrv_nl_startup_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct smbsrv_server *srv = &smbsrv_server;
	struct nlattr *blob = info->attrs[SMBSRV_A_SERVER_NEGOTIATE_BLOB];
	struct nlattr *hosts = info->attrs[SMBSRV_A_SERVER_HOST_RULES];
	struct smbsrv_listen_set *set;
	struct smbsrv_knobs knobs;
	int err;

	if (genl_info_net(info) != &init_net) {
		NL_SET_ERR_MSG(info->extack,
			       "smbsrv serves the initial network namespace only");
		return -EOPNOTSUPP;
	}
	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_SERVER_KNOBS) ||
	    GENL_REQ_ATTR_CHECK(info, SMBSRV_A_SERVER_DAEMON_PID))
		return -EINVAL;
	if (blob && nla_len(blob) > SMBSRV_NEGOTIATE_BLOB_MAX) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, blob,
					"negotiate blob longer than %u bytes",
					SMBSRV_NEGOTIATE_BLOB_MAX);
		return -EINVAL;
	}
	if (hosts && smb_host_rules_check(nla_data(hosts), nla_len(hosts))) {
		NL_SET_ERR_MSG_ATTR(info->extack, hosts, "malformed host rules");
		return -EINVAL;
	}

	/* 16 sockaddr_storage: 2 KiB, too much for the stack. */
	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	err = smbsrv_listen_set_parse(info, set);
	if (err) {
		kfree(set);
		return err;
	}

	mutex_lock(&srv->lock);
	if (srv->daemon_attached && srv->daemon_portid != info->snd_portid) {
		NL_SET_ERR_MSG_FMT(info->extack,
				   "another smbsrvd (pid %u) is attached",
				   srv->daemon_pid);
		err = -EBUSY;
		goto out;
	}

	knobs = srv->knobs;
	err = smbsrv_knobs_apply(&knobs, info->attrs[SMBSRV_A_SERVER_KNOBS],
				 info->extack);
	if (err)
		goto out;
	/* Only fails for lack of memory: the length was checked above. */
	err = smbsrv_negotiate_blob_set(blob ? nla_data(blob) : NULL,
					blob ? nla_len(blob) : 0);
	if (err)
		goto out;
	/* Checked above: only fails for lack of memory. */
	if (hosts) {
		err = smbsrv_hosts_set(nla_data(hosts), nla_len(hosts));
		if (err)
			goto out;
	}

	if (!smbsrv_listener_same(srv->listener, knobs.tcp_port, set)) {
		err = smbsrv_listener_replace(&srv->listener, knobs.tcp_port,
					      set);
		if (err) {
			NL_SET_ERR_MSG_FMT(info->extack,
					   "cannot listen on TCP port %u%s (%d)",
					   knobs.tcp_port,
					   set->nr ? " at those addresses" : "",
					   err);
			goto out;
		}
	}

	/* Cluster mode: once on, on for the module's life (cluster.h). */
	if (info->attrs[SMBSRV_A_SERVER_CLUSTERING] &&
	    nla_get_u32(info->attrs[SMBSRV_A_SERVER_CLUSTERING]))
		smbsrv_cluster_enable();
	srv->knobs = knobs;
	srv->daemon_attached = true;
	srv->daemon_portid = info->snd_portid;
	srv->daemon_pid = nla_get_u32(info->attrs[SMBSRV_A_SERVER_DAEMON_PID]);
	pr_info("smbsrv: daemon attached (pid %u)\n", srv->daemon_pid);
	err = smbsrv_reply_server(info, false);
out:
	mutex_unlock(&srv->lock);
	kfree(set);
	return err;
}

int smbsrv_nl_status_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	int err;

	mutex_lock(&smbsrv_server.lock);
	err = smbsrv_reply_server(info, true);
	mutex_unlock(&smbsrv_server.lock);
	return err;
}

/* The daemon's socket closed: it exited, crashed or was killed. */
static int smbsrv_netlink_notify(struct notifier_block *nb,
				 unsigned long state, void *ptr)
{
	struct smbsrv_server *srv = &smbsrv_server;
	struct netlink_notify *n = ptr;

	if (state != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    n->net != &init_net)
		return NOTIFY_DONE;

	smbsrv_audit_release(n->portid);
	mutex_lock(&srv->lock);
	if (srv->daemon_attached && srv->daemon_portid == n->portid) {
		srv->daemon_attached = false;
		srv->daemon_portid = 0;
		pr_info("smbsrv: daemon detached (pid %u)\n", srv->daemon_pid);
		/* New upcalls see no daemon; pending ones fail now. */
		smbsrv_upcall_cancel(n->portid);
	}
	mutex_unlock(&srv->lock);
	return NOTIFY_DONE;
}

static struct notifier_block smbsrv_netlink_notifier = {
	.notifier_call = smbsrv_netlink_notify,
};

int smbsrv_netlink_init(void)
{
	int err;

	err = netlink_register_notifier(&smbsrv_netlink_notifier);
	if (err)
		return err;
	err = genl_register_family(&smbsrv_nl_family);
	if (err)
		netlink_unregister_notifier(&smbsrv_netlink_notifier);
	return err;
}

void smbsrv_netlink_exit(void)
{
	genl_unregister_family(&smbsrv_nl_family);
	netlink_unregister_notifier(&smbsrv_netlink_notifier);

	/* No answer can come any more: fail upcalls now and from now on. */
	mutex_lock(&smbsrv_server.lock);
	smbsrv_server.daemon_attached = false;
	mutex_unlock(&smbsrv_server.lock);
	smbsrv_upcall_cancel_all();
}

/*
 * knobs-set: change knobs at run time.  The data path reads them as it
 * goes (limits at accept, dialects, sizes and credits at NEGOTIATE,
 * signing and encryption at logon, timeouts per frame), so a change
 * applies to what happens next; the TCP port moves with a daemon start-up
 * (reload) only.  The session and connection dumps and kill are in admin.c.
 */
int smbsrv_nl_knobs_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct smbsrv_server *srv = &smbsrv_server;
	struct smbsrv_knobs knobs;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_SERVER_KNOBS))
		return -EINVAL;
	mutex_lock(&srv->lock);
	knobs = srv->knobs;
	err = smbsrv_knobs_apply(&knobs, info->attrs[SMBSRV_A_SERVER_KNOBS],
				 info->extack);
	if (!err && knobs.tcp_port != srv->knobs.tcp_port) {
		NL_SET_ERR_MSG(info->extack,
			       "the tcp port changes with a daemon reload, not knobs-set");
		err = -EINVAL;
	}
	if (!err) {
		srv->knobs = knobs;
		err = smbsrv_reply_server(info, false);
	}
	mutex_unlock(&srv->lock);
	return err;
}

int smbsrv_nl_audit_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *rate = info->attrs[SMBSRV_A_AUDIT_RATE];
	struct nlattr *sess = info->attrs[SMBSRV_A_AUDIT_SESSION_SUCCESS];

	if (genl_info_net(info) != &init_net) {
		NL_SET_ERR_MSG(info->extack,
			       "smbsrv serves the initial network namespace only");
		return -EOPNOTSUPP;
	}
	smbsrv_audit_subscribe(info->snd_portid, rate ? nla_get_u32(rate) : 0,
			       sess ? nla_get_u32(sess) : 0);
	return 0;
}

/* Cluster mode's liveness (cluster.h): the daemon's renewals. */
int smbsrv_nl_cluster_alive_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct smbsrv_server *srv = &smbsrv_server;
	struct nlattr **a = info->attrs;
	u64 deadline, inc;
	struct sk_buff *msg;
	void *hdr;

	if (a[SMBSRV_A_CLUSTER_DEADLINE]) {
		if (!smbsrv_cluster_on()) {
			NL_SET_ERR_MSG(info->extack, "cluster mode is off");
			return -EOPNOTSUPP;
		}
		mutex_lock(&srv->lock);
		if (!srv->daemon_attached ||
		    srv->daemon_portid != info->snd_portid) {
			mutex_unlock(&srv->lock);
			NL_SET_ERR_MSG(info->extack, "only the attached daemon renews");
			return -EPERM;
		}
		smbsrv_cluster_alive(nla_get_u64(a[SMBSRV_A_CLUSTER_DEADLINE]),
				     a[SMBSRV_A_CLUSTER_INCARNATION] ?
				     nla_get_u64(a[SMBSRV_A_CLUSTER_INCARNATION]) : 0);
		mutex_unlock(&srv->lock);
	}
	smbsrv_cluster_alive_get(&deadline, &inc);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_iput(msg, info);
	if (!hdr ||
	    nla_put_u64_64bit(msg, SMBSRV_A_CLUSTER_DEADLINE, deadline, 0) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_CLUSTER_INCARNATION, inc, 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}
