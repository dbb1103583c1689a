// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctl_netlink.hpp"

#include <cerrno>
#include <cstring>
#include <iterator>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smbsrv.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "audit.hpp"
#include "knobs_nl.hpp"

namespace smbsrv {

namespace {

// The attributes of one whole message, looked up by type; every getter
// checks the payload length first (the bytes come from the kernel, but a
// newer or older module may send other shapes).
class Attrs {
public:
	Attrs(ByteView msg, int max) : buf_(msg.begin(), msg.end()), tb_(static_cast<size_t>(max) + 1)
	{
		size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
		if (buf_.size() < off)
			return;
		nla_parse(tb_.data(), max, reinterpret_cast<nlattr *>(buf_.data() + off),
			  static_cast<int>(buf_.size() - off), nullptr);
	}
	[[nodiscard]] uint32_t u32(int t) const
	{
		uint32_t v = 0;
		if (tb_[t] && nla_len(tb_[t]) >= 4)
			std::memcpy(&v, nla_data(tb_[t]), 4);
		return v;
	}
	[[nodiscard]] uint64_t u64(int t) const
	{
		uint64_t v = 0;
		if (tb_[t] && nla_len(tb_[t]) >= 8)
			std::memcpy(&v, nla_data(tb_[t]), 8);
		return v;
	}
	// A binary attribute as lowercase hex, empty when absent.
	[[nodiscard]] std::string hex(int t) const
	{
		static const char digits[] = "0123456789abcdef";
		std::string s;
		if (!tb_[t])
			return s;
		const auto *p = static_cast<const uint8_t *>(nla_data(tb_[t]));
		for (int i = 0; i < nla_len(tb_[t]); i++) {
			s += digits[p[i] >> 4];
			s += digits[p[i] & 15];
		}
		return s;
	}
	[[nodiscard]] std::string str(int t) const
	{
		if (!tb_[t] || nla_len(tb_[t]) <= 0)
			return {};
		const char *p = static_cast<const char *>(nla_data(tb_[t]));
		return {p, strnlen(p, static_cast<size_t>(nla_len(tb_[t])))};
	}
	[[nodiscard]] nlattr *raw(int t) const { return tb_[t]; }
	// Every u32 of a multi-attr, in the order sent (tb_ keeps the last).
	[[nodiscard]] std::vector<uint32_t> u32_all(int t)
	{
		std::vector<uint32_t> v;
		size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
		if (buf_.size() < off)
			return v;
		nlattr *a = nullptr;
		int rem = 0;
		nla_for_each_attr(a, reinterpret_cast<nlattr *>(buf_.data() + off),
				  static_cast<int>(buf_.size() - off), rem)
		{
			uint32_t x = 0;
			if (nla_type(a) != t || nla_len(a) < 4)
				continue;
			std::memcpy(&x, nla_data(a), 4);
			v.push_back(x);
		}
		return v;
	}

	// Every top-level attribute of type t, in the order sent.
	[[nodiscard]] std::vector<const nlattr *> all(int t)
	{
		std::vector<const nlattr *> v;
		size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
		if (buf_.size() < off)
			return v;
		nlattr *a = nullptr;
		int rem = 0;
		nla_for_each_attr(a, reinterpret_cast<nlattr *>(buf_.data() + off),
				  static_cast<int>(buf_.size() - off), rem)
		{
			if (nla_type(a) == t)
				v.push_back(a);
		}
		return v;
	}

private:
	Bytes buf_;
	std::vector<nlattr *> tb_;
};

uint64_t nla_u64_or0(const nlattr *a)
{
	uint64_t v = 0;
	if (a && nla_len(a) >= 8)
		std::memcpy(&v, nla_data(a), 8);
	return v;
}

uint32_t nla_u32_or0(const nlattr *a)
{
	uint32_t v = 0;
	if (a && nla_len(a) >= 4)
		std::memcpy(&v, nla_data(a), 4);
	return v;
}

// One command-stats nest.
CommandStats parse_command_stats(const nlattr *nest)
{
	CommandStats c;
	nlattr *tb[SMBSRV_A_COMMAND_STATS_MAX + 1] = {};
	auto *n = const_cast<nlattr *>(nest);
	if (nla_parse_nested(tb, SMBSRV_A_COMMAND_STATS_MAX, n, nullptr) < 0)
		return c;
	c.command = nla_u32_or0(tb[SMBSRV_A_COMMAND_STATS_COMMAND]);
	c.requests = nla_u64_or0(tb[SMBSRV_A_COMMAND_STATS_REQUESTS]);
	c.errors = nla_u64_or0(tb[SMBSRV_A_COMMAND_STATS_ERRORS]);
	c.latency_ns = nla_u64_or0(tb[SMBSRV_A_COMMAND_STATS_LATENCY_NS]);
	nlattr *a = nullptr;
	int rem = 0;
	nla_for_each_nested(a, n, rem)
	{
		if (nla_type(a) == SMBSRV_A_COMMAND_STATS_LATENCY_BUCKET)
			c.buckets.push_back(nla_u64_or0(a));
	}
	return c;
}

} // namespace

SessionInfo parse_session(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_SESSION_MAX);
	SessionInfo s;
	s.id = a.u64(SMBSRV_A_SESSION_SESSION_ID);
	s.conn_id = a.u32(SMBSRV_A_SESSION_CONN_ID);
	s.user = a.str(SMBSRV_A_SESSION_USER);
	s.domain = a.str(SMBSRV_A_SESSION_DOMAIN);
	s.client = a.str(SMBSRV_A_SESSION_CLIENT_ADDR);
	s.dialect = a.u32(SMBSRV_A_SESSION_DIALECT);
	s.flags = a.u32(SMBSRV_A_SESSION_FLAGS);
	s.signing = a.u32(SMBSRV_A_SESSION_SIGNED) != 0;
	s.encryption = a.u32(SMBSRV_A_SESSION_ENCRYPTED) != 0;
	s.trees = a.u32(SMBSRV_A_SESSION_TREES);
	s.open_files = a.u32(SMBSRV_A_SESSION_OPEN_FILES);
	s.age = a.u32(SMBSRV_A_SESSION_AGE);
	s.channels = a.u32_all(SMBSRV_A_SESSION_CHANNEL);
	s.principal = a.str(SMBSRV_A_SESSION_PRINCIPAL);
	return s;
}

ConnectionInfo parse_connection(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_CONNECTION_MAX);
	ConnectionInfo c;
	c.id = a.u32(SMBSRV_A_CONNECTION_CONN_ID);
	c.client = a.str(SMBSRV_A_CONNECTION_CLIENT_ADDR);
	c.dialect = a.u32(SMBSRV_A_CONNECTION_DIALECT);
	c.sessions = a.u32(SMBSRV_A_CONNECTION_SESSIONS);
	c.credits = a.u32(SMBSRV_A_CONNECTION_CREDITS);
	c.requests = a.u64(SMBSRV_A_CONNECTION_REQUESTS);
	c.age = a.u32(SMBSRV_A_CONNECTION_AGE);
	return c;
}

QueueInfo parse_queue(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_QUEUE_MAX);
	QueueInfo q;
	q.index = a.u32(SMBSRV_A_QUEUE_INDEX);
	q.name = a.str(SMBSRV_A_QUEUE_NAME);
	q.unbound = a.u32(SMBSRV_A_QUEUE_UNBOUND) != 0;
	q.queued = a.u64(SMBSRV_A_QUEUE_QUEUED);
	q.completed = a.u64(SMBSRV_A_QUEUE_COMPLETED);
	q.inflight = a.u32(SMBSRV_A_QUEUE_INFLIGHT);
	q.inflight_max = a.u32(SMBSRV_A_QUEUE_INFLIGHT_MAX);
	q.wait_ns = a.u64(SMBSRV_A_QUEUE_WAIT_NS);
	q.sends = a.u64(SMBSRV_A_QUEUE_SENDS);
	q.responses = a.u64(SMBSRV_A_QUEUE_RESPONSES);
	q.batched_sends = a.u64(SMBSRV_A_QUEUE_BATCHED_SENDS);
	q.batch_max = a.u32(SMBSRV_A_QUEUE_BATCH_MAX);
	return q;
}

WriteStats parse_write_stats(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_WRITE_STATS_MAX);
	WriteStats w;
	w.one_copy = a.u64(SMBSRV_A_WRITE_STATS_ONE_COPY);
	w.one_copy_bytes = a.u64(SMBSRV_A_WRITE_STATS_ONE_COPY_BYTES);
	w.one_copy_signed = a.u64(SMBSRV_A_WRITE_STATS_ONE_COPY_SIGNED);
	w.one_copy_sealed = a.u64(SMBSRV_A_WRITE_STATS_ONE_COPY_SEALED);
	w.inline_alone = a.u64(SMBSRV_A_WRITE_STATS_INLINE);
	w.inline_depth = a.u64(SMBSRV_A_WRITE_STATS_INLINE_DEPTH);
	w.inline_deferred = a.u64(SMBSRV_A_WRITE_STATS_INLINE_DEFERRED);
	w.copied = a.u64(SMBSRV_A_WRITE_STATS_COPIED);
	w.copied_bytes = a.u64(SMBSRV_A_WRITE_STATS_COPIED_BYTES);
	w.copy_off = a.u64(SMBSRV_A_WRITE_STATS_COPY_OFF);
	w.copy_small = a.u64(SMBSRV_A_WRITE_STATS_COPY_SMALL);
	w.copy_sealed = a.u64(SMBSRV_A_WRITE_STATS_COPY_SEALED);
	w.copy_compound = a.u64(SMBSRV_A_WRITE_STATS_COPY_COMPOUND);
	w.copy_stream = a.u64(SMBSRV_A_WRITE_STATS_COPY_STREAM);
	w.copy_other = a.u64(SMBSRV_A_WRITE_STATS_COPY_OTHER);
	return w;
}

ReadStats parse_read_stats(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_READ_STATS_MAX);
	ReadStats r;
	r.spliced = a.u64(SMBSRV_A_READ_STATS_SPLICED);
	r.spliced_bytes = a.u64(SMBSRV_A_READ_STATS_SPLICED_BYTES);
	r.copied = a.u64(SMBSRV_A_READ_STATS_COPIED);
	r.copied_bytes = a.u64(SMBSRV_A_READ_STATS_COPIED_BYTES);
	r.copy_off = a.u64(SMBSRV_A_READ_STATS_COPY_OFF);
	r.copy_small = a.u64(SMBSRV_A_READ_STATS_COPY_SMALL);
	r.copy_stream = a.u64(SMBSRV_A_READ_STATS_COPY_STREAM);
	r.copy_nonreg = a.u64(SMBSRV_A_READ_STATS_COPY_NONREG);
	r.copy_compound = a.u64(SMBSRV_A_READ_STATS_COPY_COMPOUND);
	r.copy_nocache = a.u64(SMBSRV_A_READ_STATS_COPY_NOCACHE);
	r.copy_error = a.u64(SMBSRV_A_READ_STATS_COPY_ERROR);
	r.inline_hits = a.u64(SMBSRV_A_READ_STATS_INLINE_HITS);
	r.inline_misses = a.u64(SMBSRV_A_READ_STATS_INLINE_MISSES);
	r.inline_deferred = a.u64(SMBSRV_A_READ_STATS_INLINE_DEFERRED);
	r.pages_inflight = a.u64(SMBSRV_A_READ_STATS_PAGES_INFLIGHT);
	return r;
}

std::optional<AuditRecord> parse_audit_record(ByteView msg)
{
	if (msg.size() < NLMSG_HDRLEN + GENL_HDRLEN || msg[NLMSG_HDRLEN] != SMBSRV_CMD_AUDIT_RECORD)
		return std::nullopt;
	Attrs a(msg, SMBSRV_A_AUDIT_MAX);
	if (!a.raw(SMBSRV_A_AUDIT_OP))
		return std::nullopt;
	AuditRecord r;
	r.op = a.u32(SMBSRV_A_AUDIT_OP);
	r.status = a.u32(SMBSRV_A_AUDIT_STATUS);
	r.session_id = a.u64(SMBSRV_A_AUDIT_SESSION_ID);
	r.user = a.str(SMBSRV_A_AUDIT_USER);
	r.client = a.str(SMBSRV_A_AUDIT_CLIENT_ADDR);
	r.share = a.str(SMBSRV_A_AUDIT_SHARE);
	r.path = a.str(SMBSRV_A_AUDIT_PATH);
	r.path2 = a.str(SMBSRV_A_AUDIT_PATH2);
	r.access = a.u32(SMBSRV_A_AUDIT_ACCESS);
	r.dropped = a.u64(SMBSRV_A_AUDIT_DROPPED);
	return r;
}

ServerCounters parse_server_counters(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_STATS_MAX);
	ServerCounters c;
	c.write_bytes = a.u64(SMBSRV_A_STATS_WRITE_BYTES);
	c.oplock_breaks = a.u64(SMBSRV_A_STATS_OPLOCK_BREAKS);
	c.lease_breaks = a.u64(SMBSRV_A_STATS_LEASE_BREAKS);
	c.open_files = a.u32(SMBSRV_A_STATS_OPEN_FILES);
	c.audit_records = a.u64(SMBSRV_A_STATS_AUDIT_RECORDS);
	c.audit_dropped = a.u64(SMBSRV_A_STATS_AUDIT_DROPPED);
	c.bad_signatures = a.u64(SMBSRV_A_STATS_BAD_SIGNATURES);
	for (const nlattr *b : a.all(SMBSRV_A_STATS_LATENCY_BOUND))
		c.latency_bounds_ns.push_back(nla_u64_or0(b));
	for (const nlattr *n : a.all(SMBSRV_A_STATS_COMMAND)) {
		CommandStats cs = parse_command_stats(n);
		// A histogram with other buckets than the bounds say is
		// dropped rather than shown wrong.
		if (cs.buckets.size() != c.latency_bounds_ns.size() + 1)
			cs.buckets.clear();
		c.commands.push_back(std::move(cs));
	}
	return c;
}

std::vector<SessionInfo> list_sessions(GenlChannel &nl)
{
	std::vector<SessionInfo> out;
	for (const auto &m : nl.request(SMBSRV_CMD_SESSION_GET, nullptr, true))
		out.push_back(parse_session(m));
	return out;
}

OpenInfo parse_open(ByteView msg)
{
	Attrs a(msg, SMBSRV_A_OPEN_MAX);
	OpenInfo o;
	o.session_id = a.u64(SMBSRV_A_OPEN_SESSION_ID);
	o.tree_id = a.u32(SMBSRV_A_OPEN_TREE_ID);
	o.persistent_id = a.u64(SMBSRV_A_OPEN_PERSISTENT_ID);
	o.volatile_id = a.u64(SMBSRV_A_OPEN_VOLATILE_ID);
	o.path = a.str(SMBSRV_A_OPEN_PATH);
	o.share = a.str(SMBSRV_A_OPEN_SHARE);
	o.access = a.u32(SMBSRV_A_OPEN_ACCESS);
	o.oplock = a.u32(SMBSRV_A_OPEN_OPLOCK);
	o.lease_state = a.u32(SMBSRV_A_OPEN_LEASE_STATE);
	o.lease_key = a.hex(SMBSRV_A_OPEN_LEASE_KEY);
	o.lease_epoch = a.u32(SMBSRV_A_OPEN_LEASE_EPOCH);
	o.breaking = a.u32(SMBSRV_A_OPEN_BREAKING) != 0;
	o.durable = a.u32(SMBSRV_A_OPEN_DURABLE);
	o.disconnected_left = a.u32(SMBSRV_A_OPEN_DISCONNECTED_LEFT);
	return o;
}

std::vector<OpenInfo> list_opens(GenlChannel &nl)
{
	std::vector<OpenInfo> out;
	for (const auto &m : nl.request(SMBSRV_CMD_OPEN_GET, nullptr, true))
		out.push_back(parse_open(m));
	return out;
}

std::string lease_state_name(uint32_t state)
{
	std::string s;
	if (state & 1)
		s += 'R';
	if (state & 4)
		s += 'W';
	if (state & 2)
		s += 'H';
	return s;
}

std::string oplock_name(uint32_t level)
{
	switch (level) {
	case 0x00: return "none";
	case 0x01: return "level2";
	case 0x08: return "exclusive";
	case 0x09: return "batch";
	case 0xff: return "lease";
	default: return std::to_string(level);
	}
}

std::vector<ConnectionInfo> list_connections(GenlChannel &nl)
{
	std::vector<ConnectionInfo> out;
	for (const auto &m : nl.request(SMBSRV_CMD_CONNECTION_GET, nullptr, true))
		out.push_back(parse_connection(m));
	return out;
}

std::vector<QueueInfo> list_queues(GenlChannel &nl)
{
	std::vector<QueueInfo> out;
	for (const auto &m : nl.request(SMBSRV_CMD_QUEUE_GET, nullptr, true))
		out.push_back(parse_queue(m));
	return out;
}

WriteStats write_stats(GenlChannel &nl)
{
	auto replies = nl.request(SMBSRV_CMD_WRITE_STATS_GET, nullptr);
	if (replies.empty())
		throw NlError(EPROTO, "the module sent no write statistics");
	return parse_write_stats(replies.front());
}

ReadStats read_stats(GenlChannel &nl)
{
	auto replies = nl.request(SMBSRV_CMD_READ_STATS_GET, nullptr);
	if (replies.empty())
		throw NlError(EPROTO, "the module sent no read statistics");
	return parse_read_stats(replies.front());
}

ServerCounters server_counters(GenlChannel &nl)
{
	auto replies = nl.request(SMBSRV_CMD_STATS_GET, nullptr);
	if (replies.empty())
		throw NlError(EPROTO, "the module sent no statistics");
	return parse_server_counters(replies.front());
}

std::string smb2_command_name(uint32_t cmd)
{
	static const char *const names[] = {
		"negotiate", "session_setup", "logoff", "tree_connect", "tree_disconnect",
		"create", "close", "flush", "read", "write", "lock", "ioctl", "cancel",
		"echo", "query_directory", "change_notify", "query_info", "set_info",
		"oplock_break",
	};
	if (cmd < std::size(names))
		return names[cmd];
	return "command_" + std::to_string(cmd);
}

void kill_session(GenlChannel &nl, uint64_t id)
{
	nl.request(SMBSRV_CMD_KILL, [id](nl_msg *m) {
		return nla_put_u64(m, SMBSRV_A_KILL_SESSION_ID, id) == 0;
	});
}

void kill_connection(GenlChannel &nl, uint32_t id)
{
	nl.request(SMBSRV_CMD_KILL, [id](nl_msg *m) {
		return nla_put_u32(m, SMBSRV_A_KILL_CONN_ID, id) == 0;
	});
}

Knobs set_knobs(GenlChannel &nl, const Knobs &k, std::span<const int> attrs)
{
	auto replies = nl.request(SMBSRV_CMD_KNOBS_SET, [&](nl_msg *m) {
		return put_knobs(m, SMBSRV_A_SERVER_KNOBS, k, attrs);
	});
	Knobs now = k;
	for (const auto &r : replies) {
		Attrs a(r, SMBSRV_A_SERVER_MAX);
		parse_knobs(a.raw(SMBSRV_A_SERVER_KNOBS), now);
	}
	return now;
}

std::string dialect_name(uint32_t d)
{
	switch (d) {
	case 0x0202: return "2.0.2";
	case 0x0210: return "2.1";
	case 0x0300: return "3.0";
	case 0x0302: return "3.0.2";
	case 0x0311: return "3.1.1";
	case 0: return "-";
	default: {
		char buf[16];
		std::snprintf(buf, sizeof(buf), "0x%04x", d);
		return buf;
	}
	}
}

} // namespace smbsrv
