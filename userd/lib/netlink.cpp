// SPDX-License-Identifier: GPL-2.0-or-later
#include "netlink.hpp"

#include "knobs_nl.hpp"

#include <cerrno>
#include <memory>
#include <cstring>
#include <linux/netlink.h>
#include <linux/smbsrv.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sys/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace smbsrv {

namespace {

struct MsgDeleter {
	void operator()(nl_msg *m) const { nlmsg_free(m); }
};
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;

// Attribute getters that check the payload length before reading.
bool get_u32(const nlattr *a, uint32_t &out)
{
	if (!a || nla_len(a) < static_cast<int>(sizeof(uint32_t)))
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

void parse_server(nlmsghdr *nlh, ServerStatus &st)
{
	nlattr *tb[SMBSRV_A_SERVER_MAX + 1] = {};
	if (genlmsg_parse(nlh, 0, tb, SMBSRV_A_SERVER_MAX, nullptr) < 0)
		return;
	st.module_version = get_string(tb[SMBSRV_A_SERVER_MODULE_VERSION]);
	uint32_t state = 0;
	get_u32(tb[SMBSRV_A_SERVER_DAEMON_STATE], state);
	st.daemon_running = state == SMBSRV_DAEMON_STATE_RUNNING;
	get_u32(tb[SMBSRV_A_SERVER_DAEMON_PID], st.daemon_pid);
	get_u32(tb[SMBSRV_A_SERVER_LISTEN_PORT], st.listen_port);
	get_u32(tb[SMBSRV_A_SERVER_CONNECTIONS], st.connections);
	get_u32(tb[SMBSRV_A_SERVER_SESSIONS], st.sessions);
	st.knobs_reported = parse_knobs(tb[SMBSRV_A_SERVER_KNOBS], st.knobs);
}

} // namespace

struct GenlChannel::Transaction {
	uint32_t seq = 0;
	bool done = false;
	int err = 0;
	std::string ext_msg;
	bool got_reply = false;
	ServerStatus status;
};

namespace {

int on_ack(nl_msg *msg, void *arg)
{
	auto *t = *static_cast<GenlChannel::Transaction **>(arg);
	if (t && nlmsg_hdr(msg)->nlmsg_seq == t->seq)
		t->done = true;
	return NL_STOP;
}

// NLMSG_ERROR: keep the errno and the kernel's extended-ack message.
int on_error(sockaddr_nl *, nlmsgerr *e, void *arg)
{
	auto *t = *static_cast<GenlChannel::Transaction **>(arg);
	auto *nlh = reinterpret_cast<nlmsghdr *>(reinterpret_cast<char *>(e) -
						 NLMSG_HDRLEN);
	if (!t || nlh->nlmsg_seq != t->seq)
		return NL_SKIP;
	t->err = -e->error;
	t->done = true;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		size_t off = NLMSG_HDRLEN + sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		if (off < nlh->nlmsg_len) {
			auto *attrs = reinterpret_cast<nlattr *>(
				reinterpret_cast<char *>(nlh) + off);
			nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
			if (nla_parse(tb, NLMSGERR_ATTR_MAX, attrs,
				      static_cast<int>(nlh->nlmsg_len - off),
				      nullptr) == 0)
				t->ext_msg = get_string(tb[NLMSGERR_ATTR_MSG]);
		}
	}
	return NL_STOP;
}

} // namespace

// Every message read from the socket comes through here: the reply to the
// request in flight, or a notification.
int GenlChannel::dispatch(nl_msg *msg, void *arg)
{
	auto *self = static_cast<GenlChannel *>(arg);
	nlmsghdr *nlh = nlmsg_hdr(msg);
	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		self->handle_ctrl(msg);
		return NL_OK;
	}
	Transaction *t = self->current_;
	if (t && nlh->nlmsg_seq == t->seq &&
	    static_cast<int>(nlh->nlmsg_type) == self->family_) {
		parse_server(nlh, t->status);
		t->got_reply = true;
	}
	return NL_OK;
}

void GenlChannel::handle_ctrl(nl_msg *msg)
{
	nlmsghdr *nlh = nlmsg_hdr(msg);
	auto *gh = static_cast<genlmsghdr *>(nlmsg_data(nlh));
	if (gh->cmd != CTRL_CMD_NEWFAMILY && gh->cmd != CTRL_CMD_DELFAMILY)
		return;
	nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, nullptr) < 0 ||
	    get_string(tb[CTRL_ATTR_FAMILY_NAME]) != SMBSRV_FAMILY_NAME)
		return;
	if (gh->cmd == CTRL_CMD_DELFAMILY) {
		family_ = 0;
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

GenlChannel::GenlChannel(bool watch_module)
{
	sk_ = nl_socket_alloc();
	if (!sk_)
		throw NlError(ENOMEM, "cannot allocate a netlink socket");
	int err = genl_connect(sk_);
	if (err < 0) {
		nl_socket_free(sk_);
		throw NlError(-err, std::string("cannot open generic netlink: ") +
					    nl_geterror(err));
	}
	int one = 1;
	setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));

	family_ = genl_ctrl_resolve(sk_, SMBSRV_FAMILY_NAME);
	if (family_ < 0) {
		int e = family_;
		nl_socket_free(sk_);
		sk_ = nullptr;
		if (e == -NLE_OBJ_NOTFOUND)
			throw ModuleNotLoaded();
		throw NlError(-e, std::string("cannot resolve the smbsrv family: ") +
					  nl_geterror(e));
	}
	if (watch_module) {
		int grp = genl_ctrl_resolve_grp(sk_, "nlctrl", "notify");
		if (grp < 0 || nl_socket_add_membership(sk_, grp) < 0) {
			nl_socket_free(sk_);
			sk_ = nullptr;
			throw NlError(EPROTO, "cannot watch generic netlink families");
		}
	}
	cb_ = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb_) {
		nl_socket_free(sk_);
		sk_ = nullptr;
		throw NlError(ENOMEM, "cannot allocate netlink callbacks");
	}
	// Notifications carry no sequence number: match replies ourselves.
	nl_cb_set(cb_, NL_CB_SEQ_CHECK, NL_CB_CUSTOM,
		  [](nl_msg *, void *) { return static_cast<int>(NL_OK); }, nullptr);
	nl_cb_set(cb_, NL_CB_VALID, NL_CB_CUSTOM, dispatch, this);
	nl_cb_set(cb_, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &current_);
	nl_cb_err(cb_, NL_CB_CUSTOM, on_error, &current_);
}

GenlChannel::~GenlChannel()
{
	if (cb_)
		nl_cb_put(cb_);
	if (sk_)
		nl_socket_free(sk_);
}

int GenlChannel::fd() const
{
	return nl_socket_get_fd(sk_);
}

nl_msg *GenlChannel::new_msg(uint8_t cmd) const
{
	nl_msg *msg = nlmsg_alloc();
	if (!msg)
		throw NlError(ENOMEM, "cannot allocate a netlink message");
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, 0, cmd,
			 SMBSRV_FAMILY_VERSION)) {
		nlmsg_free(msg);
		throw NlError(ENOMEM, "cannot build a netlink message");
	}
	return msg;
}

ServerStatus GenlChannel::transact_server(nl_msg *raw)
{
	MsgPtr msg(raw);
	if (family_ <= 0)
		throw ModuleNotLoaded();
	int err = nl_send_auto(sk_, msg.get());
	if (err < 0)
		throw NlError(-err, std::string("netlink send: ") + nl_geterror(err));

	Transaction t;
	t.seq = nlmsg_hdr(msg.get())->nlmsg_seq;
	current_ = &t;
	while (!t.done) {
		err = nl_recvmsgs(sk_, cb_);
		if (err < 0 && !t.done) {
			current_ = nullptr;
			throw NlError(-err, std::string("netlink receive: ") +
						    nl_geterror(err));
		}
	}
	current_ = nullptr;
	if (t.err) {
		std::string what = t.ext_msg.empty() ? std::strerror(t.err)
						     : t.ext_msg;
		if (t.err == EPERM)
			what = "permission denied (needs CAP_NET_ADMIN)";
		throw NlError(t.err, what);
	}
	if (!t.got_reply)
		throw NlError(EPROTO, "the module sent no reply");
	return t.status;
}

ServerStatus GenlChannel::startup(uint32_t pid, const Knobs &k)
{
	nl_msg *msg = new_msg(SMBSRV_CMD_STARTUP);
	if (nla_put_u32(msg, SMBSRV_A_SERVER_DAEMON_PID, pid) < 0 ||
	    !put_knobs(msg, SMBSRV_A_SERVER_KNOBS, k)) {
		nlmsg_free(msg);
		throw NlError(EMSGSIZE, "startup message too large");
	}
	return transact_server(msg);
}

ServerStatus GenlChannel::status()
{
	return transact_server(new_msg(SMBSRV_CMD_STATUS_GET));
}

bool GenlChannel::process_input()
{
	int err = nl_recvmsgs(sk_, cb_);
	last_error_ = err < 0 ? nl_geterror(err) : "";
	return err >= 0 || err == -NLE_AGAIN;
}

} // namespace smbsrv
