// SPDX-License-Identifier: GPL-2.0-or-later
#include "netlink.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smbsrv.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <sys/socket.h>

#include "interfaces.hpp"
#include "knobs_nl.hpp"
#include "log.hpp"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace smbsrv {

namespace {

struct MsgDeleter {
	void operator()(nl_msg *m) const { nlmsg_free(m); }
};
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;

// libnl's parsers take non-const headers but do not write through them.
nlmsghdr *hdr(ByteView msg)
{
	return reinterpret_cast<nlmsghdr *>(const_cast<uint8_t *>(msg.data()));
}

// Attribute getters that check the payload length before reading.
bool get_u32(const nlattr *a, uint32_t &out)
{
	if (!a || nla_len(a) < static_cast<int>(sizeof(uint32_t)))
		return false;
	std::memcpy(&out, nla_data(a), sizeof(out));
	return true;
}

bool get_u64(const nlattr *a, uint64_t &out)
{
	if (!a || nla_len(a) < static_cast<int>(sizeof(uint64_t)))
		return false;
	std::memcpy(&out, nla_data(a), sizeof(out));
	return true;
}

std::string get_string(const nlattr *a)
{
	if (!a || nla_len(a) <= 0)
		return {};
	const char *p = static_cast<const char *>(nla_data(a));
	return {p, strnlen(p, static_cast<size_t>(nla_len(a)))};
}

Bytes get_binary(const nlattr *a)
{
	if (!a || nla_len(a) <= 0)
		return {};
	const auto *p = static_cast<const uint8_t *>(nla_data(a));
	return {p, p + nla_len(a)};
}

void parse_server(ByteView msg, ServerStatus &st)
{
	nlattr *tb[SMBSRV_A_SERVER_MAX + 1] = {};
	if (genlmsg_parse(hdr(msg), 0, tb, SMBSRV_A_SERVER_MAX, nullptr) < 0)
		return;
	st.module_version = get_string(tb[SMBSRV_A_SERVER_MODULE_VERSION]);
	uint32_t state = 0;
	get_u32(tb[SMBSRV_A_SERVER_DAEMON_STATE], state);
	st.daemon_running = state == SMBSRV_DAEMON_STATE_RUNNING;
	get_u32(tb[SMBSRV_A_SERVER_DAEMON_PID], st.daemon_pid);
	get_u32(tb[SMBSRV_A_SERVER_LISTEN_PORT], st.listen_port);
	get_u32(tb[SMBSRV_A_SERVER_CONNECTIONS], st.connections);
	get_u32(tb[SMBSRV_A_SERVER_SESSIONS], st.sessions);
	get_u64(tb[SMBSRV_A_SERVER_CONNS_REFUSED], st.conns_refused);
	get_u64(tb[SMBSRV_A_SERVER_CONNS_EVICTED], st.conns_evicted);
	get_u64(tb[SMBSRV_A_SERVER_CONNS_LOGON_EXPIRED], st.conns_logon_expired);
	get_u64(tb[SMBSRV_A_SERVER_CONNS_IDLE_CLOSED], st.conns_idle_closed);
	st.knobs_reported = parse_knobs(tb[SMBSRV_A_SERVER_KNOBS], st.knobs);
	get_u64(tb[SMBSRV_A_SERVER_FOLD_SCANS], st.fold_scans);
	get_u64(tb[SMBSRV_A_SERVER_FOLD_ENTRIES], st.fold_entries);
	get_u64(tb[SMBSRV_A_SERVER_FOLD_CACHED], st.fold_cached);
	get_u32(tb[SMBSRV_A_SERVER_OPENS], st.opens);
	get_u64(tb[SMBSRV_A_SERVER_OPENS_REFUSED], st.opens_refused);
	get_u64(tb[SMBSRV_A_SERVER_OPENS_REFUSED_USER], st.opens_refused_user);
	// share-use is a multi-attr: every one, not tb's last.
	genlmsghdr *g = genlmsg_hdr(hdr(msg));
	nlattr *a = nullptr;
	int rem = 0;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) == SMBSRV_A_SERVER_LISTEN_ADDR) {
			const auto *p = static_cast<const uint8_t *>(nla_data(a));
			std::string t = listen_addr_text(
				ByteView(p, static_cast<size_t>(std::max(nla_len(a), 0))));
			if (!t.empty())
				st.listen_addrs.push_back(t);
			continue;
		}
		if (nla_type(a) != SMBSRV_A_SERVER_SHARE_USE)
			continue;
		nlattr *u[SMBSRV_A_SHARE_USE_MAX + 1] = {};
		if (nla_parse_nested(u, SMBSRV_A_SHARE_USE_MAX, a, nullptr) < 0)
			continue;
		ShareUse su;
		su.name = get_string(u[SMBSRV_A_SHARE_USE_NAME]);
		get_u32(u[SMBSRV_A_SHARE_USE_TREES], su.trees);
		get_u32(u[SMBSRV_A_SHARE_USE_MAX_CONNECTIONS], su.max_connections);
		st.share_uses.push_back(std::move(su));
	}
}

// Every netlink message of a datagram, each checked to fit.
template <typename F> void for_each_msg(ByteView d, F &&f)
{
	size_t off = 0;
	while (d.size() - off >= sizeof(nlmsghdr)) {
		nlmsghdr h{};
		std::memcpy(&h, d.data() + off, sizeof(h));
		if (h.nlmsg_len < sizeof(nlmsghdr) || h.nlmsg_len > d.size() - off)
			return;
		f(h, d.subspan(off, h.nlmsg_len));
		off += std::min<size_t>(NLMSG_ALIGN(h.nlmsg_len), d.size() - off);
	}
}

uint8_t genl_cmd(ByteView msg)
{
	if (msg.size() < NLMSG_HDRLEN + GENL_HDRLEN)
		return 0;
	return msg[NLMSG_HDRLEN];
}

} // namespace

// --- LibnlSocket ----------------------------------------------------------

LibnlSocket::LibnlSocket(bool watch_module)
{
	sk_ = nl_socket_alloc();
	if (!sk_)
		throw NlError(ENOMEM, "cannot allocate a netlink socket");
	auto fail = [this](int err, const std::string &what) {
		nl_socket_free(sk_);
		sk_ = nullptr;
		throw NlError(err, what);
	};
	int err = genl_connect(sk_);
	if (err < 0)
		fail(-err, std::string("cannot open generic netlink: ") + nl_geterror(err));
	int one = 1;
	int fd = nl_socket_get_fd(sk_);
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	// Bursts of upcalls (many clients logging on at once) must not
	// overflow the queue; root may go past rmem_max.
	int rcvbuf = 4 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));

	family_ = genl_ctrl_resolve(sk_, SMBSRV_FAMILY_NAME);
	if (family_ < 0) {
		int e = family_;
		if (e == -NLE_OBJ_NOTFOUND) {
			nl_socket_free(sk_);
			sk_ = nullptr;
			throw ModuleNotLoaded();
		}
		fail(-e, std::string("cannot resolve the smbsrv family: ") + nl_geterror(e));
	}
	if (watch_module) {
		int grp = genl_ctrl_resolve_grp(sk_, "nlctrl", "notify");
		if (grp < 0 || nl_socket_add_membership(sk_, grp) < 0)
			fail(EPROTO, "cannot watch generic netlink families");
	}
}

LibnlSocket::~LibnlSocket()
{
	if (sk_)
		nl_socket_free(sk_);
}

int LibnlSocket::fd() const
{
	return nl_socket_get_fd(sk_);
}

void LibnlSocket::send(ByteView msg)
{
	int err = nl_sendto(sk_, const_cast<uint8_t *>(msg.data()), msg.size());
	if (err < 0)
		throw NlError(-err, std::string("netlink send: ") + nl_geterror(err));
}

std::optional<Bytes> LibnlSocket::recv(int timeout_ms)
{
	pollfd p{fd(), POLLIN, 0};
	int n = poll(&p, 1, timeout_ms);
	if (n < 0 && errno != EINTR)
		throw NlError(errno, std::string("poll: ") + std::strerror(errno));
	if (n <= 0)
		return std::nullopt;
	for (;;) {
		// Size the buffer to the datagram, then take it.
		ssize_t len = ::recv(fd(), nullptr, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
		if (len >= 0) {
			Bytes buf(static_cast<size_t>(len) + 16);
			len = ::recv(fd(), buf.data(), buf.size(), MSG_DONTWAIT);
			if (len >= 0) {
				buf.resize(static_cast<size_t>(len));
				return buf;
			}
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return std::nullopt;
		if (errno == ENOBUFS)
			throw NlError(ENOBUFS, "netlink receive queue overflowed; "
					       "messages from smbsrv.ko were lost");
		throw NlError(errno, std::string("netlink receive: ") + std::strerror(errno));
	}
}

// --- GenlChannel ----------------------------------------------------------

struct GenlChannel::Pending {
	uint32_t seq = 0;
	bool done = false;
	int err = 0;
	std::string ext_msg;
	std::vector<Bytes> replies;
};

GenlChannel::GenlChannel(bool watch_module)
{
	auto s = std::make_unique<LibnlSocket>(watch_module);
	family_ = s->family();
	sock_ = std::move(s);
}

GenlChannel::GenlChannel(std::unique_ptr<NlSocket> sock, int family)
	: sock_(std::move(sock)), family_(family)
{
}

GenlChannel::~GenlChannel() = default;

int GenlChannel::fd() const
{
	return sock_->fd();
}

void GenlChannel::dispatch(ByteView datagram, Pending *pending)
{
	for_each_msg(datagram, [&](const nlmsghdr &h, ByteView msg) {
		bool mine = pending && h.nlmsg_seq == pending->seq;
		if (h.nlmsg_type == NLMSG_ERROR) {
			if (!mine || msg.size() < NLMSG_HDRLEN + sizeof(nlmsgerr))
				return;
			nlmsgerr e{};
			std::memcpy(&e, msg.data() + NLMSG_HDRLEN, sizeof(e));
			pending->err = -e.error;
			pending->done = true;
			if (!(h.nlmsg_flags & NLM_F_ACK_TLVS))
				return;
			// Extended ack: attributes after the (capped) request.
			size_t off = NLMSG_HDRLEN + sizeof(e);
			if (!(h.nlmsg_flags & NLM_F_CAPPED))
				off += e.msg.nlmsg_len > NLMSG_HDRLEN ? e.msg.nlmsg_len - NLMSG_HDRLEN : 0;
			if (off >= msg.size())
				return;
			nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
			auto *attrs = reinterpret_cast<nlattr *>(hdr(msg.subspan(off)));
			if (nla_parse(tb, NLMSGERR_ATTR_MAX, attrs,
				      static_cast<int>(msg.size() - off), nullptr) == 0)
				pending->ext_msg = get_string(tb[NLMSGERR_ATTR_MSG]);
		} else if (h.nlmsg_type == NLMSG_DONE) {
			if (mine)
				pending->done = true;
		} else if (h.nlmsg_type == GENL_ID_CTRL) {
			handle_ctrl(msg);
		} else if (family_ > 0 && h.nlmsg_type == family_) {
			if (mine && h.nlmsg_seq != 0)
				pending->replies.emplace_back(msg.begin(), msg.end());
			else
				handle_event(msg);
		}
	});
}

void GenlChannel::handle_ctrl(ByteView msg)
{
	uint8_t cmd = genl_cmd(msg);
	if (cmd != CTRL_CMD_NEWFAMILY && cmd != CTRL_CMD_DELFAMILY)
		return;
	nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	if (genlmsg_parse(hdr(msg), 0, tb, CTRL_ATTR_MAX, nullptr) < 0 ||
	    get_string(tb[CTRL_ATTR_FAMILY_NAME]) != SMBSRV_FAMILY_NAME)
		return;
	if (cmd == CTRL_CMD_DELFAMILY) {
		family_ = 0;
		upcalls_.clear(); // their module is gone
		if (event_handler_)
			event_handler_(KernelEvent::module_unloaded);
		return;
	}
	const nlattr *id = tb[CTRL_ATTR_FAMILY_ID];
	if (!id || nla_len(id) < 2)
		return;
	uint16_t fid = 0;
	std::memcpy(&fid, nla_data(id), sizeof(fid));
	family_ = fid;
	if (event_handler_)
		event_handler_(KernelEvent::module_loaded);
}

void GenlChannel::handle_event(ByteView msg)
{
	uint8_t cmd = genl_cmd(msg);
	nlattr *tb[64] = {};
	int max = 0;
	switch (cmd) {
	case SMBSRV_CMD_SESSION_SETUP_REQ:
		max = SMBSRV_A_AUTH_MAX;
		break;
	case SMBSRV_CMD_TREE_CONNECT_REQ:
		max = SMBSRV_A_TREE_MAX;
		break;
	case SMBSRV_CMD_RPC_REQ:
		max = SMBSRV_A_RPC_MAX;
		break;
	case SMBSRV_CMD_CLUSTER_REQ:
		max = SMBSRV_A_CLUSTER_MAX;
		break;
	case SMBSRV_CMD_AUDIT_RECORD:
		// Audit records go to their handler, unqueued: the socket
		// that gets them carries nothing else.
		if (audit_handler_)
			audit_handler_(msg);
		return;
	default:
		log::debug("ignoring smbsrv netlink command " + std::to_string(cmd));
		return;
	}
	static_assert(SMBSRV_A_AUTH_MAX < 64 && SMBSRV_A_TREE_MAX < 64 &&
		      SMBSRV_A_RPC_MAX < 64 && SMBSRV_A_CLUSTER_MAX < 64);
	if (genlmsg_parse(hdr(msg), 0, tb, max, nullptr) < 0) {
		log::warning("malformed upcall from smbsrv.ko dropped");
		return;
	}
	uint32_t handle = 0;
	switch (cmd) {
	case SMBSRV_CMD_SESSION_SETUP_REQ: {
		SessionSetupReq r;
		if (!get_u32(tb[SMBSRV_A_AUTH_HANDLE], r.handle))
			break;
		handle = r.handle;
		get_u64(tb[SMBSRV_A_AUTH_SESSION_ID], r.session_id);
		r.client_addr = get_string(tb[SMBSRV_A_AUTH_CLIENT_ADDR]);
		get_u32(tb[SMBSRV_A_AUTH_DIALECT], r.dialect);
		r.blob = get_binary(tb[SMBSRV_A_AUTH_BLOB]);
		upcalls_.emplace_back(std::move(r));
		break;
	}
	case SMBSRV_CMD_TREE_CONNECT_REQ: {
		TreeConnectReq r;
		if (!get_u32(tb[SMBSRV_A_TREE_HANDLE], r.handle))
			break;
		handle = r.handle;
		get_u64(tb[SMBSRV_A_TREE_SESSION_ID], r.session_id);
		r.user = get_string(tb[SMBSRV_A_TREE_USER]);
		get_u32(tb[SMBSRV_A_TREE_UID], r.uid);
		get_u32(tb[SMBSRV_A_TREE_SESSION_FLAGS], r.session_flags);
		r.client_addr = get_string(tb[SMBSRV_A_TREE_CLIENT_ADDR]);
		r.share_name = get_string(tb[SMBSRV_A_TREE_SHARE_NAME]);
		upcalls_.emplace_back(std::move(r));
		break;
	}
	case SMBSRV_CMD_RPC_REQ: {
		RpcReq r;
		if (!get_u32(tb[SMBSRV_A_RPC_HANDLE], r.handle))
			break;
		handle = r.handle;
		get_u64(tb[SMBSRV_A_RPC_SESSION_ID], r.session_id);
		get_u32(tb[SMBSRV_A_RPC_PIPE_ID], r.pipe_id);
		get_u32(tb[SMBSRV_A_RPC_OP], r.op);
		r.pipe_name = get_string(tb[SMBSRV_A_RPC_PIPE_NAME]);
		r.user = get_string(tb[SMBSRV_A_RPC_USER]);
		r.data = get_binary(tb[SMBSRV_A_RPC_DATA]);
		get_u32(tb[SMBSRV_A_RPC_MAX_OUT], r.max_out);
		upcalls_.emplace_back(std::move(r));
		break;
	}
	case SMBSRV_CMD_CLUSTER_REQ: {
		ClusterReq r;
		if (!get_u32(tb[SMBSRV_A_CLUSTER_HANDLE], r.handle))
			break;
		handle = r.handle;
		get_u32(tb[SMBSRV_A_CLUSTER_OP], r.op);
		get_u64(tb[SMBSRV_A_CLUSTER_INO], r.ino);
		r.stream = get_string(tb[SMBSRV_A_CLUSTER_STREAM]);
		get_u32(tb[SMBSRV_A_CLUSTER_ACCESS], r.access);
		get_u32(tb[SMBSRV_A_CLUSTER_SHARE], r.share);
		get_u32(tb[SMBSRV_A_CLUSTER_NODE_ACCESS], r.node_access);
		get_u32(tb[SMBSRV_A_CLUSTER_NODE_SHARE], r.node_share);
		r.locks = get_binary(tb[SMBSRV_A_CLUSTER_LOCKS]);
		get_u32(tb[SMBSRV_A_CLUSTER_CACHING], r.caching);
		// Without a handler (a daemon without clustering under a
		// module in cluster mode) nobody answers: the module's
		// upcall times out and refuses what it asked about.
		if (cluster_handler_)
			cluster_handler_(std::move(r));
		else
			log::warning("cluster-req from smbsrv.ko, but clustering is off here");
		break;
	}
	}
	if (!handle)
		log::warning("upcall without a handle from smbsrv.ko dropped");
}

std::vector<Bytes> GenlChannel::request(uint8_t cmd,
					const std::function<bool(nl_msg *)> &fill,
					bool dump)
{
	if (family_ <= 0)
		throw ModuleNotLoaded();
	MsgPtr msg(nlmsg_alloc_size(1U << 17));
	if (!msg || !genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, 0,
				 cmd, SMBSRV_FAMILY_VERSION))
		throw NlError(ENOMEM, "cannot allocate a netlink message");
	if (fill && !fill(msg.get()))
		throw NlError(EMSGSIZE, "netlink message too large");
	Pending p;
	if (++seq_ == 0) // 0 is what the module's events carry
		++seq_;
	p.seq = seq_;
	nlmsghdr *h = nlmsg_hdr(msg.get());
	h->nlmsg_seq = p.seq;
	h->nlmsg_pid = 0;
	h->nlmsg_flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK);
	sock_->send({reinterpret_cast<const uint8_t *>(h), h->nlmsg_len});

	auto deadline = std::chrono::steady_clock::now() + timeout_;
	while (!p.done) {
		auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
			deadline - std::chrono::steady_clock::now());
		if (left.count() <= 0)
			throw NlError(ETIMEDOUT, "smbsrv.ko did not answer");
		std::optional<Bytes> d;
		try {
			d = sock_->recv(static_cast<int>(left.count()));
		} catch (const NlError &e) {
			if (e.err() != ENOBUFS)
				throw;
			log::warning(e.what());
			continue;
		}
		if (d)
			dispatch(*d, &p);
		if (!p.done && family_ <= 0)
			throw ModuleNotLoaded();
	}
	if (p.err) {
		std::string what = p.ext_msg.empty() ? std::strerror(p.err) : p.ext_msg;
		if (p.err == EPERM && p.ext_msg.empty())
			what = "permission denied (needs CAP_NET_ADMIN)";
		throw NlError(p.err, what);
	}
	return std::move(p.replies);
}

ServerStatus GenlChannel::transact_server(uint8_t cmd,
					  const std::function<bool(nl_msg *)> &fill)
{
	auto replies = request(cmd, fill);
	if (replies.empty())
		throw NlError(EPROTO, "the module sent no reply");
	ServerStatus st;
	parse_server(replies.front(), st);
	return st;
}

ServerStatus GenlChannel::startup(uint32_t pid, const Knobs &k, ByteView negotiate_blob)
{
	return transact_server(SMBSRV_CMD_STARTUP, [&](nl_msg *m) {
		return nla_put_u32(m, SMBSRV_A_SERVER_DAEMON_PID, pid) == 0 &&
		       put_knobs(m, SMBSRV_A_SERVER_KNOBS, k) &&
		       (!k.clustering ||
			nla_put_u32(m, SMBSRV_A_SERVER_CLUSTERING, 1) == 0) &&
		       (negotiate_blob.empty() ||
			nla_put(m, SMBSRV_A_SERVER_NEGOTIATE_BLOB,
				static_cast<int>(negotiate_blob.size()),
				negotiate_blob.data()) == 0) &&
		       // Always sent: an empty array lifts the rules.
		       nla_put(m, SMBSRV_A_SERVER_HOST_RULES,
			       static_cast<int>(k.host_rules.size()),
			       k.host_rules.data()) == 0 &&
		       // None: every address.
		       std::all_of(k.listen_addrs.begin(), k.listen_addrs.end(),
				   [m](const std::vector<uint8_t> &a) {
					   return nla_put(m, SMBSRV_A_SERVER_LISTEN_ADDR,
							  static_cast<int>(a.size()),
							  a.data()) == 0;
				   });
	});
}

ServerStatus GenlChannel::status()
{
	return transact_server(SMBSRV_CMD_STATUS_GET, nullptr);
}

namespace {

bool put_binary(nl_msg *m, int type, ByteView b)
{
	return b.empty() ||
	       nla_put(m, type, static_cast<int>(b.size()), b.data()) == 0;
}

} // namespace

void GenlChannel::cluster_done(uint32_t handle, uint32_t status, uint32_t caching)
{
	request(SMBSRV_CMD_CLUSTER_DONE, [&](nl_msg *m) {
		return nla_put_u32(m, SMBSRV_A_CLUSTER_HANDLE, handle) == 0 &&
		       nla_put_u32(m, SMBSRV_A_CLUSTER_STATUS, status) == 0 &&
		       nla_put_u32(m, SMBSRV_A_CLUSTER_CACHING, caching) == 0;
	});
}

void GenlChannel::cluster_view(const cluster::Push &v)
{
	request(SMBSRV_CMD_CLUSTER_VIEW, [&](nl_msg *m) {
		return nla_put_u64(m, SMBSRV_A_CLUSTER_INO, v.ino) == 0 &&
		       (v.stream.empty() ||
			nla_put_string(m, SMBSRV_A_CLUSTER_STREAM, v.stream.c_str()) == 0) &&
		       nla_put_string(m, SMBSRV_A_CLUSTER_NODE, v.node.c_str()) == 0 &&
		       nla_put_u64(m, SMBSRV_A_CLUSTER_VERSION, v.version) == 0 &&
		       nla_put_u32(m, SMBSRV_A_CLUSTER_PUSH, v.kind) == 0 &&
		       (!smb_cluster_push_has_caching(v.kind) ||
			nla_put_u32(m, SMBSRV_A_CLUSTER_CACHING, v.caching) == 0) &&
		       (v.kind != SMB_CLUSTER_PUSH_LOCKS ||
			put_binary(m, SMBSRV_A_CLUSTER_LOCKS, v.locks));
	});
}

GenlChannel::ClusterAlive GenlChannel::cluster_alive(std::optional<uint64_t> deadline_ns,
						     uint64_t incarnation)
{
	auto replies = request(SMBSRV_CMD_CLUSTER_ALIVE, [&](nl_msg *m) {
		return !deadline_ns ||
		       (nla_put_u64(m, SMBSRV_A_CLUSTER_DEADLINE, *deadline_ns) == 0 &&
			nla_put_u64(m, SMBSRV_A_CLUSTER_INCARNATION, incarnation) == 0);
	});
	ClusterAlive a;
	if (replies.empty())
		throw NlError(EPROTO, "the module sent no reply");
	nlattr *tb[SMBSRV_A_CLUSTER_MAX + 1] = {};
	if (genlmsg_parse(hdr(replies.front()), 0, tb, SMBSRV_A_CLUSTER_MAX, nullptr) < 0)
		throw NlError(EPROTO, "a malformed cluster-alive reply");
	get_u64(tb[SMBSRV_A_CLUSTER_DEADLINE], a.deadline_ns);
	get_u64(tb[SMBSRV_A_CLUSTER_INCARNATION], a.incarnation);
	return a;
}

void GenlChannel::session_setup_done(const SessionSetupDone &d)
{
	request(SMBSRV_CMD_SESSION_SETUP_DONE, [&](nl_msg *m) {
		bool ok = nla_put_u32(m, SMBSRV_A_AUTH_HANDLE, d.handle) == 0 &&
			  nla_put_u32(m, SMBSRV_A_AUTH_STATUS, d.status) == 0 &&
			  put_binary(m, SMBSRV_A_AUTH_BLOB, d.blob) &&
			  put_binary(m, SMBSRV_A_AUTH_SESSION_KEY, d.session_key);
		if (!ok || d.status != 0)
			return ok;
		ok = nla_put_u32(m, SMBSRV_A_AUTH_UID, d.uid) == 0 &&
		     nla_put_u32(m, SMBSRV_A_AUTH_GID, d.gid) == 0 &&
		     nla_put_u32(m, SMBSRV_A_AUTH_FLAGS, d.flags) == 0 &&
		     nla_put_string(m, SMBSRV_A_AUTH_USER, d.user.c_str()) == 0 &&
		     nla_put_string(m, SMBSRV_A_AUTH_DOMAIN, d.domain.c_str()) == 0 &&
		     (d.principal.empty() ||
		      nla_put_string(m, SMBSRV_A_AUTH_PRINCIPAL, d.principal.c_str()) == 0);
		for (uint32_t g : d.groups)
			ok = ok && nla_put_u32(m, SMBSRV_A_AUTH_GROUPS, g) == 0;
		for (const Bytes &s : d.sids)
			ok = ok && put_binary(m, SMBSRV_A_AUTH_SID, s);
		return ok;
	});
}

void GenlChannel::tree_connect_done(const TreeConnectDone &d)
{
	request(SMBSRV_CMD_TREE_CONNECT_DONE, [&](nl_msg *m) {
		if (nla_put_u32(m, SMBSRV_A_TREE_HANDLE, d.handle) < 0 ||
		    nla_put_u32(m, SMBSRV_A_TREE_STATUS, d.status) < 0)
			return false;
		if (!d.share)
			return true;
		const ShareInfo &s = *d.share;
		nlattr *nest = nla_nest_start(m, SMBSRV_A_TREE_SHARE);
		bool ok = nest && nla_put_string(m, SMBSRV_A_SHARE_NAME, s.name.c_str()) == 0 &&
			  (s.path.empty() ||
			   nla_put_string(m, SMBSRV_A_SHARE_PATH, s.path.c_str()) == 0) &&
			  nla_put_u32(m, SMBSRV_A_SHARE_FLAGS, s.flags) == 0 &&
			  (!s.force_uid ||
			   nla_put_u32(m, SMBSRV_A_SHARE_FORCE_UID, *s.force_uid) == 0) &&
			  (!s.force_gid ||
			   nla_put_u32(m, SMBSRV_A_SHARE_FORCE_GID, *s.force_gid) == 0) &&
			  nla_put_u32(m, SMBSRV_A_SHARE_CREATE_MASK, s.create_mask) == 0 &&
			  nla_put_u32(m, SMBSRV_A_SHARE_DIRECTORY_MASK, s.directory_mask) == 0 &&
			  nla_put_u32(m, SMBSRV_A_SHARE_FORCE_CREATE_MODE, s.force_create_mode) == 0 &&
			  nla_put_u32(m, SMBSRV_A_SHARE_FORCE_DIRECTORY_MODE,
				      s.force_directory_mode) == 0 &&
			  (s.veto_files.empty() ||
			   nla_put_string(m, SMBSRV_A_SHARE_VETO_FILES, s.veto_files.c_str()) == 0) &&
			  (s.hide_files.empty() ||
			   nla_put_string(m, SMBSRV_A_SHARE_HIDE_FILES, s.hide_files.c_str()) == 0) &&
			  nla_put_u32(m, SMBSRV_A_SHARE_MAX_CONNECTIONS, s.max_connections) == 0 &&
			  (!s.audit_success ||
			   nla_put_u32(m, SMBSRV_A_SHARE_AUDIT_SUCCESS, s.audit_success) == 0) &&
			  (!s.audit_failure ||
			   nla_put_u32(m, SMBSRV_A_SHARE_AUDIT_FAILURE, s.audit_failure) == 0);
		if (ok && (s.flags & SMBSRV_SHARE_FLAGS_SHADOW_COPY))
			ok = nla_put_string(m, SMBSRV_A_SHARE_SNAP_DIR, s.snap_dir.c_str()) == 0 &&
			     nla_put_string(m, SMBSRV_A_SHARE_SNAP_SUBDIR, s.snap_subdir.c_str()) == 0 &&
			     nla_put_string(m, SMBSRV_A_SHARE_SNAP_FORMAT, s.snap_format.c_str()) == 0 &&
			     nla_put_u32(m, SMBSRV_A_SHARE_SNAP_SORT, s.snap_sort) == 0 &&
			     (s.snap_zone.empty() ||
			      nla_put(m, SMBSRV_A_SHARE_SNAP_ZONE,
				      static_cast<int>(s.snap_zone.size() * sizeof(smb_snap_zone)),
				      s.snap_zone.data()) == 0);
		if (ok && (s.flags & SMBSRV_SHARE_FLAGS_FRUIT))
			ok = nla_put_u32(m, SMBSRV_A_SHARE_FRUIT_FLAGS, s.fruit_flags) == 0 &&
			     nla_put_string(m, SMBSRV_A_SHARE_FRUIT_MODEL, s.fruit_model.c_str()) == 0 &&
			     nla_put_u64(m, SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE,
					       s.fruit_tm_max_size) == 0;
		if (ok)
			nla_nest_end(m, nest);
		return ok;
	});
}

void GenlChannel::rpc_done(const RpcDone &d)
{
	request(SMBSRV_CMD_RPC_DONE, [&](nl_msg *m) {
		return nla_put_u32(m, SMBSRV_A_RPC_HANDLE, d.handle) == 0 &&
		       nla_put_u32(m, SMBSRV_A_RPC_STATUS, d.status) == 0 &&
		       put_binary(m, SMBSRV_A_RPC_DATA, d.data);
	});
}

bool GenlChannel::process_input()
{
	for (;;) {
		std::optional<Bytes> d;
		try {
			d = sock_->recv(0);
		} catch (const NlError &e) {
			if (e.err() == ENOBUFS) {
				log::warning(e.what());
				continue;
			}
			last_error_ = e.what();
			return false;
		}
		if (!d)
			return true;
		dispatch(*d, nullptr);
	}
}

std::optional<Upcall> GenlChannel::next_upcall()
{
	if (upcalls_.empty())
		return std::nullopt;
	Upcall u = std::move(upcalls_.front());
	upcalls_.pop_front();
	return u;
}

} // namespace smbsrv
