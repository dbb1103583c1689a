// SPDX-License-Identifier: GPL-2.0-or-later
//
// A fake smbsrv.ko behind GenlChannel's NlSocket: records what the daemon
// sends, answers it through a script, and injects upcall events.  Kernel
// messages are built with libnl exactly as the module builds them.
#pragma once

#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smbsrv.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <string>
#include <vector>

#include "netlink.hpp"

namespace smbsrv::test {

constexpr int kFamily = 0x1234;

// A message under construction, as the kernel would send it.
class KMsg {
public:
	KMsg(uint8_t cmd, uint32_t seq = 0, int type = kFamily)
		: m_(nlmsg_alloc_size(1U << 17))
	{
		genlmsg_put(m_, 0, seq, type, 0, 0, cmd, 1);
	}
	~KMsg() { nlmsg_free(m_); }
	KMsg(const KMsg &) = delete;
	KMsg &operator=(const KMsg &) = delete;
	KMsg &u32(int type, uint32_t v)
	{
		nla_put_u32(m_, type, v);
		return *this;
	}
	KMsg &u64(int type, uint64_t v)
	{
		nla_put_u64(m_, type, v);
		return *this;
	}
	KMsg &str(int type, const std::string &v)
	{
		nla_put_string(m_, type, v.c_str());
		return *this;
	}
	KMsg &bin(int type, ByteView v)
	{
		nla_put(m_, type, static_cast<int>(v.size()), v.data());
		return *this;
	}
	[[nodiscard]] nl_msg *raw() const { return m_; }
	[[nodiscard]] Bytes bytes() const
	{
		nlmsghdr *h = nlmsg_hdr(m_);
		const auto *p = reinterpret_cast<const uint8_t *>(h);
		return {p, p + h->nlmsg_len};
	}

private:
	nl_msg *m_;
};

// NLMSG_ERROR acknowledging (error 0) or refusing a request, with an
// extended-ack message when given, capped as with NETLINK_CAP_ACK.
inline Bytes ack(ByteView request, int error = 0, const std::string &ext = "")
{
	nlmsghdr req{};
	std::memcpy(&req, request.data(), sizeof(req));
	nl_msg *m = nlmsg_alloc_size(4096);
	nlmsghdr *h = nlmsg_put(m, 0, req.nlmsg_seq, NLMSG_ERROR, sizeof(nlmsgerr),
				NLM_F_CAPPED | (ext.empty() ? 0 : NLM_F_ACK_TLVS));
	auto *e = static_cast<nlmsgerr *>(nlmsg_data(h));
	e->error = -error;
	e->msg = req;
	if (!ext.empty())
		nla_put_string(m, NLMSGERR_ATTR_MSG, ext.c_str());
	const auto *p = reinterpret_cast<const uint8_t *>(nlmsg_hdr(m));
	Bytes out(p, p + nlmsg_hdr(m)->nlmsg_len);
	nlmsg_free(m);
	return out;
}

inline uint32_t seq_of(ByteView msg)
{
	nlmsghdr h{};
	std::memcpy(&h, msg.data(), sizeof(h));
	return h.nlmsg_seq;
}

inline uint8_t cmd_of(ByteView msg)
{
	return msg[NLMSG_HDRLEN];
}

// Parse the attributes of a message the daemon sent.
struct Sent {
	Bytes raw;
	uint8_t cmd = 0;
	uint16_t flags = 0;
	std::vector<nlattr *> tb;
	explicit Sent(ByteView msg, int max) : raw(msg.begin(), msg.end()), tb(static_cast<size_t>(max) + 1)
	{
		auto *h = reinterpret_cast<nlmsghdr *>(raw.data());
		flags = h->nlmsg_flags;
		cmd = raw[NLMSG_HDRLEN];
		genlmsg_parse(h, 0, tb.data(), max, nullptr);
	}
	[[nodiscard]] uint32_t u32(int type) const { return nla_get_u32(tb[type]); }
	[[nodiscard]] std::string str(int type) const { return nla_get_string(tb[type]); }
	[[nodiscard]] Bytes bin(int type) const
	{
		const auto *p = static_cast<const uint8_t *>(nla_data(tb[type]));
		return {p, p + nla_len(tb[type])};
	}
	[[nodiscard]] bool has(int type) const { return tb[type] != nullptr; }
	// Every value of a multi-attr u32.
	[[nodiscard]] std::vector<uint32_t> all_u32(int type) const
	{
		std::vector<uint32_t> out;
		auto *h = reinterpret_cast<nlmsghdr *>(const_cast<uint8_t *>(raw.data()));
		nlattr *a;
		int rem;
		nla_for_each_attr(a, genlmsg_attrdata(static_cast<genlmsghdr *>(nlmsg_data(h)), 0),
				  genlmsg_attrlen(static_cast<genlmsghdr *>(nlmsg_data(h)), 0), rem)
			if (nla_type(a) == type)
				out.push_back(nla_get_u32(a));
		return out;
	}
};

class FakeSocket final : public NlSocket {
public:
	// What the "module" does with each message the daemon sends:
	// typically push a reply and an ack onto inbox.
	std::function<void(ByteView msg, FakeSocket &k)> on_send;
	std::deque<Bytes> inbox; // datagrams the daemon will receive
	std::vector<Bytes> sent;
	int recv_calls = 0;
	bool overflow_next = false; // next recv reports ENOBUFS
	bool broken = false;	    // recv fails for good

	void send(ByteView msg) override
	{
		sent.emplace_back(msg.begin(), msg.end());
		if (on_send)
			on_send(msg, *this);
	}
	std::optional<Bytes> recv(int /*timeout_ms*/) override
	{
		recv_calls++;
		if (broken)
			throw NlError(EBADF, "socket broken");
		if (overflow_next) {
			overflow_next = false;
			throw NlError(ENOBUFS, "netlink receive queue overflowed");
		}
		if (inbox.empty())
			return std::nullopt;
		Bytes d = std::move(inbox.front());
		inbox.pop_front();
		return d;
	}
	[[nodiscard]] int fd() const override { return -1; }

	// The usual answer to a do-request: optional reply, then the ack.
	void reply_and_ack(ByteView request, const KMsg *reply = nullptr)
	{
		if (reply) {
			nlmsg_hdr(reply->raw())->nlmsg_seq = seq_of(request);
			inbox.push_back(reply->bytes());
		}
		inbox.push_back(ack(request));
	}
};

// A GenlChannel talking to a FakeSocket, as smbsrvctl talks to the module.
struct FakeModule {
	FakeSocket *sock = nullptr;
	std::unique_ptr<GenlChannel> nl;
	FakeModule()
	{
		auto s = std::make_unique<FakeSocket>();
		sock = s.get();
		nl = std::make_unique<GenlChannel>(std::move(s), kFamily);
	}
};

// A dump's answer: each message flagged multi, then NLMSG_DONE.
inline void dump_answer(FakeSocket &k, ByteView req, const std::vector<const KMsg *> &msgs)
{
	for (const auto *m : msgs) {
		nlmsghdr *h = nlmsg_hdr(m->raw());
		h->nlmsg_seq = seq_of(req);
		h->nlmsg_flags |= NLM_F_MULTI;
		k.inbox.push_back(m->bytes());
	}
	nl_msg *done = nlmsg_alloc();
	nlmsg_put(done, 0, seq_of(req), NLMSG_DONE, 4, NLM_F_MULTI);
	const auto *p = reinterpret_cast<const uint8_t *>(nlmsg_hdr(done));
	k.inbox.emplace_back(p, p + nlmsg_hdr(done)->nlmsg_len);
	nlmsg_free(done);
}

} // namespace smbsrv::test
