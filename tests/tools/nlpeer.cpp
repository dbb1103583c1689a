// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrv-nlpeer: a stand-in for smbsrvd that tests the module's side of
// the netlink family.  It attaches with the knobs and NEGOTIATE blob given
// on the command line, prints the module's reply, then answers upcalls in
// a fixed, documented way (below) or misbehaves on purpose, printing one
// line per event and per answer the module acknowledged.  The guest
// selftest upcall.sh drives it together with the upcall probe (the test
// module smbsrv_upcall_probe).
//
// Answers, keyed by the request so that one run covers many cases:
//   session-setup, by the first byte of the client's blob:
//     01  STATUS_SUCCESS, blob reversed, 16-byte key (sid + i), uid/gid
//         1001, groups 1100 27 1001, user alice, domain SMBSRV-VM
//     02  STATUS_MORE_PROCESSING_REQUIRED with blob "CHALLENGE"
//     03  success with a 65-byte session key (malformed)
//     04  success without a uid (malformed)
//     05  success with group 4294967295 (malformed)
//     06  first answered from another socket, then as 01
//     07  first answered with another handle, then as 01
//     08  first answered as a tree connect, then as 01
//     09  as 01 with two SIDs, S-1-5-21-1-2-3-513 and -1104 (sorted)
//     0a  as 09 with the two SIDs in the wrong order (malformed)
//     0b  as 01 with 1025 SIDs, RIDs 1000 to 2024 (malformed: too many)
//     0c  as 01 with a SID attribute one byte longer than its SID
//   tree-connect, by share name:
//     missing  STATUS_BAD_NETWORK_NAME
//     IPC$     success, ipc flag, no path
//     relpath  success with a relative path (malformed)
//     nonest   success without a share (malformed)
//     other    success: path /srv/NAME, read-only|browseable, force uid
//              1002, create mask 0600, veto /*.tmp/, max connections 7
//   rpc: status 0, data "reply:" + the request's data (so a small max-out
//        makes it malformed).
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <linux/netlink.h>
#include <linux/smbsrv.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <sys/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace {

// S-1-5-21-1-2-3-RID in the wire form (MS-DTYP 2.4.2.2).
std::vector<uint8_t> domain_sid(uint32_t rid)
{
	std::vector<uint8_t> b{1, 5, 0, 0, 0, 0, 0, 5};
	for (uint32_t sub : {21U, 1U, 2U, 3U, rid})
		for (int i = 0; i < 4; i++)
			b.push_back(static_cast<uint8_t>(sub >> (8 * i)));
	return b;
}

constexpr uint32_t status_success = 0;
constexpr uint32_t status_more_processing = 0xC0000016;
constexpr uint32_t status_bad_network_name = 0xC00000CC;

const std::map<std::string, int> u32_knobs = {
	{"tcp-port", SMBSRV_A_KNOBS_TCP_PORT},
	{"max-connections", SMBSRV_A_KNOBS_MAX_CONNECTIONS},
	{"smb2-max-read", SMBSRV_A_KNOBS_SMB2_MAX_READ},
	{"smb2-max-write", SMBSRV_A_KNOBS_SMB2_MAX_WRITE},
	{"smb2-max-trans", SMBSRV_A_KNOBS_SMB2_MAX_TRANS},
	{"smb2-max-credits", SMBSRV_A_KNOBS_SMB2_MAX_CREDITS},
	{"min-dialect", SMBSRV_A_KNOBS_MIN_DIALECT},
	{"max-dialect", SMBSRV_A_KNOBS_MAX_DIALECT},
	{"signing", SMBSRV_A_KNOBS_SIGNING},
	{"encryption", SMBSRV_A_KNOBS_ENCRYPTION},
	{"max-ip-connections", SMBSRV_A_KNOBS_MAX_IP_CONNECTIONS},
	{"max-sessions", SMBSRV_A_KNOBS_MAX_SESSIONS},
	{"max-open-files", SMBSRV_A_KNOBS_MAX_OPEN_FILES},
	{"deadtime", SMBSRV_A_KNOBS_DEADTIME},
	{"upcall-timeout", SMBSRV_A_KNOBS_UPCALL_TIMEOUT},
	{"frame-timeout", SMBSRV_A_KNOBS_FRAME_TIMEOUT},
	{"route-policy", SMBSRV_A_KNOBS_ROUTE_POLICY},
	{"splice-threshold", SMBSRV_A_KNOBS_SPLICE_THRESHOLD},
	{"response-batch", SMBSRV_A_KNOBS_RESPONSE_BATCH},
	{"inline-reads", SMBSRV_A_KNOBS_INLINE_READS},
	{"logon-timeout", SMBSRV_A_KNOBS_LOGON_TIMEOUT},
	{"smb2-leases", SMBSRV_A_KNOBS_SMB2_LEASES},
	{"durable-handles", SMBSRV_A_KNOBS_DURABLE_HANDLES},
	{"durable-handle-timeout", SMBSRV_A_KNOBS_DURABLE_HANDLE_TIMEOUT},
	{"multichannel", SMBSRV_A_KNOBS_MULTICHANNEL},
	{"smb3-unix-extensions", SMBSRV_A_KNOBS_SMB3_UNIX_EXTENSIONS},
};

[[noreturn]] void die(const std::string &what)
{
	std::fprintf(stderr, "smbsrv-nlpeer: %s\n", what.c_str());
	std::exit(2);
}

std::string hex(const void *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const auto *b = static_cast<const uint8_t *>(p);
	std::string s;
	for (size_t i = 0; i < n; i++) {
		s += digits[b[i] >> 4];
		s += digits[b[i] & 15];
	}
	return s.empty() ? "-" : s;
}

std::vector<uint8_t> unhex(const std::string &s)
{
	std::vector<uint8_t> v;
	if (s.size() % 2)
		die("odd-length hex string");
	for (size_t i = 0; i < s.size(); i += 2)
		v.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
	return v;
}

uint32_t get_u32(const nlattr *a)
{
	uint32_t v = 0;
	if (a && nla_len(a) >= 4)
		std::memcpy(&v, nla_data(a), 4);
	return v;
}

uint64_t get_u64(const nlattr *a)
{
	uint64_t v = 0;
	if (a && nla_len(a) >= 8)
		std::memcpy(&v, nla_data(a), 8);
	return v;
}

std::string get_str(const nlattr *a)
{
	if (!a || nla_len(a) <= 0)
		return {};
	const char *p = static_cast<const char *>(nla_data(a));
	return {p, strnlen(p, static_cast<size_t>(nla_len(a)))};
}

std::vector<uint8_t> get_bin(const nlattr *a)
{
	if (!a || nla_len(a) <= 0)
		return {};
	const auto *p = static_cast<const uint8_t *>(nla_data(a));
	return {p, p + nla_len(a)};
}

class Sock {
public:
	Sock()
	{
		sk_ = nl_socket_alloc();
		if (!sk_ || genl_connect(sk_) < 0)
			die("cannot open generic netlink");
		int one = 1;
		setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_EXT_ACK,
			   &one, sizeof(one));
		setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_CAP_ACK,
			   &one, sizeof(one));
		nl_socket_set_buffer_size(sk_, 1 << 20, 1 << 20);
		nl_socket_enable_msg_peek(sk_);
		family_ = genl_ctrl_resolve(sk_, SMBSRV_FAMILY_NAME);
		if (family_ < 0)
			die("the smbsrv family is not registered");
	}
	~Sock() { nl_socket_free(sk_); }
	Sock(const Sock &) = delete;
	Sock &operator=(const Sock &) = delete;

	[[nodiscard]] nl_msg *msg(uint8_t cmd) const
	{
		nl_msg *m = nlmsg_alloc_size(1 << 17);
		if (!m || !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0,
				       0, cmd, SMBSRV_FAMILY_VERSION))
			die("cannot build a message");
		return m;
	}

	// Send and return the sequence number; frees the message.
	uint32_t send(nl_msg *m)
	{
		int err = nl_send_auto(sk_, m);
		uint32_t seq = nlmsg_hdr(m)->nlmsg_seq;
		nlmsg_free(m);
		if (err < 0)
			die(std::string("send: ") + nl_geterror(err));
		return seq;
	}

	// One datagram from the kernel, split into messages.
	std::vector<std::vector<uint8_t>> recv()
	{
		sockaddr_nl addr{};
		unsigned char *buf = nullptr;
		int n = nl_recv(sk_, &addr, &buf, nullptr);
		if (n < 0)
			die(std::string("receive: ") + nl_geterror(n));
		std::vector<std::vector<uint8_t>> out;
		auto *nlh = reinterpret_cast<nlmsghdr *>(buf);
		for (; nlmsg_ok(nlh, n); nlh = nlmsg_next(nlh, &n)) {
			const auto *p = reinterpret_cast<const uint8_t *>(nlh);
			out.emplace_back(p, p + nlh->nlmsg_len);
		}
		free(buf); // NOLINT(cppcoreguidelines-no-malloc): libnl's buffer
		return out;
	}

	[[nodiscard]] int fd() const { return nl_socket_get_fd(sk_); }
	[[nodiscard]] int family() const { return family_; }

private:
	nl_sock *sk_ = nullptr;
	int family_ = 0;
};

// An NLMSG_ERROR: errno (0 for an ack) and the extended-ack message.
struct Ack {
	uint32_t seq = 0;
	int err = 0;
	std::string msg;
};

bool parse_ack(const nlmsghdr *nlh, Ack &ack)
{
	if (nlh->nlmsg_type != NLMSG_ERROR)
		return false;
	const auto *e = static_cast<const nlmsgerr *>(nlmsg_data(nlh));
	ack.seq = nlh->nlmsg_seq;
	ack.err = -e->error;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		size_t off = NLMSG_HDRLEN + sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		if (off < nlh->nlmsg_len) {
			const auto *base = reinterpret_cast<const char *>(nlh);
			nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
			if (nla_parse(tb, NLMSGERR_ATTR_MAX,
				      reinterpret_cast<nlattr *>(const_cast<char *>(base + off)),
				      static_cast<int>(nlh->nlmsg_len - off), nullptr) == 0)
				ack.msg = get_str(tb[NLMSGERR_ATTR_MSG]);
		}
	}
	return true;
}

void print_server(const nlmsghdr *nlh)
{
	nlattr *tb[SMBSRV_A_SERVER_MAX + 1] = {};
	if (genlmsg_parse(const_cast<nlmsghdr *>(nlh), 0, tb, SMBSRV_A_SERVER_MAX,
			  nullptr) < 0)
		die("cannot parse the server reply");
	std::printf("version %s\n", get_str(tb[SMBSRV_A_SERVER_MODULE_VERSION]).c_str());
	std::printf("daemon-state %u\n", get_u32(tb[SMBSRV_A_SERVER_DAEMON_STATE]));
	std::printf("daemon-pid %u\n", get_u32(tb[SMBSRV_A_SERVER_DAEMON_PID]));
	std::printf("listen-port %u\n", get_u32(tb[SMBSRV_A_SERVER_LISTEN_PORT]));
	nlattr *kb[SMBSRV_A_KNOBS_MAX + 1] = {};
	if (tb[SMBSRV_A_SERVER_KNOBS] &&
	    nla_parse_nested(kb, SMBSRV_A_KNOBS_MAX, tb[SMBSRV_A_SERVER_KNOBS],
			     nullptr) == 0) {
		for (const auto &[name, attr] : u32_knobs) {
			if (kb[attr])
				std::printf("knob %s %u\n", name.c_str(), get_u32(kb[attr]));
		}
		if (kb[SMBSRV_A_KNOBS_NETBIOS_NAME])
			std::printf("knob netbios-name %s\n",
				    get_str(kb[SMBSRV_A_KNOBS_NETBIOS_NAME]).c_str());
	}
	if (tb[SMBSRV_A_SERVER_NEGOTIATE_BLOB]) {
		auto b = get_bin(tb[SMBSRV_A_SERVER_NEGOTIATE_BLOB]);
		std::printf("negotiate-blob %s\n", hex(b.data(), b.size()).c_str());
	}
}

// Send a request and wait for its reply and ack; print both.  False when
// the module refused it.
bool transact(Sock &s, nl_msg *m)
{
	uint32_t seq = s.send(m);
	for (;;) {
		for (const auto &raw : s.recv()) {
			const auto *nlh = reinterpret_cast<const nlmsghdr *>(raw.data());
			Ack ack;
			if (nlh->nlmsg_seq != seq)
				continue;
			if (parse_ack(nlh, ack)) {
				if (ack.err) {
					std::printf("error %d %s\n", ack.err, ack.msg.c_str());
					return false;
				}
				return true;
			}
			if (nlh->nlmsg_type == s.family())
				print_server(nlh);
		}
	}
}

struct Options {
	std::vector<std::pair<std::string, std::string>> knobs;
	std::string blob;
	bool have_blob = false;
	std::string mode = "answer";
	int delay = 0;
	bool status_only = false;
};

nl_msg *startup_msg(const Sock &s, const Options &o)
{
	nl_msg *m = s.msg(SMBSRV_CMD_STARTUP);
	nla_put_u32(m, SMBSRV_A_SERVER_DAEMON_PID, static_cast<uint32_t>(getpid()));
	nlattr *nest = nla_nest_start(m, SMBSRV_A_SERVER_KNOBS);
	for (const auto &[name, value] : o.knobs) {
		if (name == "netbios-name") {
			nla_put_string(m, SMBSRV_A_KNOBS_NETBIOS_NAME, value.c_str());
			continue;
		}
		auto it = u32_knobs.find(name);
		if (it == u32_knobs.end())
			die("unknown knob " + name);
		nla_put_u32(m, it->second,
			    static_cast<uint32_t>(std::stoul(value, nullptr, 0)));
	}
	nla_nest_end(m, nest);
	if (o.have_blob) {
		auto b = unhex(o.blob);
		nla_put(m, SMBSRV_A_SERVER_NEGOTIATE_BLOB, static_cast<int>(b.size()),
			b.data());
	}
	return m;
}

// One answer to send, possibly later.
struct Answer {
	std::chrono::steady_clock::time_point due;
	std::string what;
	nl_msg *msg;
	bool foreign;
};

class Peer {
public:
	Peer(Sock &s, const Options &o) : s_(s), o_(o) {}

	void run()
	{
		for (;;) {
			int timeout = -1;
			if (!queue_.empty()) {
				auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
					queue_.front().due - std::chrono::steady_clock::now());
				timeout = static_cast<int>(std::max<int64_t>(0, left.count()));
			}
			pollfd pfd{s_.fd(), POLLIN, 0};
			int n = poll(&pfd, 1, timeout);
			if (n < 0 && errno != EINTR)
				die("poll");
			if (n > 0)
				input();
			flush_due();
		}
	}

private:
	void input()
	{
		for (const auto &raw : s_.recv()) {
			const auto *nlh = reinterpret_cast<const nlmsghdr *>(raw.data());
			Ack ack;
			if (parse_ack(nlh, ack)) {
				auto it = sent_.find(ack.seq);
				std::string what = it == sent_.end() ? "?" : it->second;
				std::printf("ack %s err=%d%s%s\n", what.c_str(), ack.err,
					    ack.msg.empty() ? "" : " msg=", ack.msg.c_str());
				if (it != sent_.end())
					sent_.erase(it);
				continue;
			}
			if (nlh->nlmsg_type == s_.family())
				event(nlh);
		}
	}

	void event(const nlmsghdr *nlh)
	{
		const auto *gh = static_cast<const genlmsghdr *>(nlmsg_data(nlh));
		nlattr *tb[64] = {};
		if (genlmsg_parse(const_cast<nlmsghdr *>(nlh), 0, tb, 63, nullptr) < 0)
			die("cannot parse an event");
		switch (gh->cmd) {
		case SMBSRV_CMD_SESSION_SETUP_REQ:
			session(tb);
			break;
		case SMBSRV_CMD_TREE_CONNECT_REQ:
			tree(tb);
			break;
		case SMBSRV_CMD_RPC_REQ:
			rpc(tb);
			break;
		default:
			std::printf("event unknown cmd=%u\n", gh->cmd);
		}
	}

	// Queue an answer according to the mode.
	void answer(nl_msg *m, const std::string &what, bool foreign = false)
	{
		if (o_.mode == "silent") {
			nlmsg_free(m);
			return;
		}
		auto due = std::chrono::steady_clock::now();
		if (o_.mode == "late")
			due += std::chrono::seconds(o_.delay);
		queue_.push_back({due, what, m, foreign});
		flush_due();
	}

	void flush_due()
	{
		auto now = std::chrono::steady_clock::now();
		while (!queue_.empty() && queue_.front().due <= now) {
			Answer a = queue_.front();
			queue_.pop_front();
			if (a.foreign) {
				// From a socket the module did not send the upcall to.
				Sock other;
				uint32_t seq = other.send(a.msg);
				for (const auto &raw : other.recv()) {
					const auto *nlh = reinterpret_cast<const nlmsghdr *>(raw.data());
					Ack ack;
					if (nlh->nlmsg_seq == seq && parse_ack(nlh, ack))
						std::printf("ack %s err=%d msg=%s\n", a.what.c_str(),
							    ack.err, ack.msg.c_str());
				}
				continue;
			}
			sent_[s_.send(a.msg)] = a.what;
		}
	}

	void maybe_exit(const char *what)
	{
		if (o_.mode == "exit") {
			std::printf("exit on %s\n", what);
			std::fflush(stdout);
			std::_Exit(0);
		}
	}

	void session(nlattr **tb)
	{
		uint32_t handle = get_u32(tb[SMBSRV_A_AUTH_HANDLE]);
		uint64_t sid = get_u64(tb[SMBSRV_A_AUTH_SESSION_ID]);
		auto blob = get_bin(tb[SMBSRV_A_AUTH_BLOB]);
		std::printf("event session-setup handle=%u sid=%llu addr=%s dialect=0x%04x blob=%s\n",
			    handle, static_cast<unsigned long long>(sid),
			    get_str(tb[SMBSRV_A_AUTH_CLIENT_ADDR]).c_str(),
			    get_u32(tb[SMBSRV_A_AUTH_DIALECT]),
			    hex(blob.data(), blob.size()).c_str());
		maybe_exit("session-setup");
		uint8_t kind = blob.empty() ? 1 : blob[0];
		std::string what = "session-setup " + std::to_string(handle);

		auto full = [&](uint32_t h) {
			nl_msg *m = s_.msg(SMBSRV_CMD_SESSION_SETUP_DONE);
			nla_put_u32(m, SMBSRV_A_AUTH_HANDLE, h);
			nla_put_u32(m, SMBSRV_A_AUTH_STATUS, status_success);
			std::vector<uint8_t> rev(blob.rbegin(), blob.rend());
			nla_put(m, SMBSRV_A_AUTH_BLOB, static_cast<int>(rev.size()), rev.data());
			std::vector<uint8_t> key(kind == 3 ? 65 : 16);
			for (size_t i = 0; i < key.size(); i++)
				key[i] = static_cast<uint8_t>(sid + i);
			nla_put(m, SMBSRV_A_AUTH_SESSION_KEY, static_cast<int>(key.size()),
				key.data());
			if (kind != 4)
				nla_put_u32(m, SMBSRV_A_AUTH_UID, 1001);
			nla_put_u32(m, SMBSRV_A_AUTH_GID, 1001);
			for (uint32_t g : {1100U, 27U, 1001U})
				nla_put_u32(m, SMBSRV_A_AUTH_GROUPS, g);
			if (kind == 5)
				nla_put_u32(m, SMBSRV_A_AUTH_GROUPS, 0xFFFFFFFFU);
			nla_put_u32(m, SMBSRV_A_AUTH_FLAGS, 0);
			nla_put_string(m, SMBSRV_A_AUTH_USER, "alice");
			nla_put_string(m, SMBSRV_A_AUTH_DOMAIN, "SMBSRV-VM");
			std::vector<uint32_t> rids;
			if (kind == 9 || kind == 12)
				rids = {513, 1104};
			else if (kind == 10)
				rids = {1104, 513};
			else if (kind == 11)
				for (uint32_t r = 1000; r <= 2024; r++)
					rids.push_back(r);
			for (uint32_t r : rids) {
				auto b = domain_sid(r);
				if (kind == 12 && r == 1104)
					b.push_back(0);
				nla_put(m, SMBSRV_A_AUTH_SID, static_cast<int>(b.size()), b.data());
			}
			return m;
		};

		switch (kind) {
		case 2: {
			nl_msg *m = s_.msg(SMBSRV_CMD_SESSION_SETUP_DONE);
			nla_put_u32(m, SMBSRV_A_AUTH_HANDLE, handle);
			nla_put_u32(m, SMBSRV_A_AUTH_STATUS, status_more_processing);
			nla_put(m, SMBSRV_A_AUTH_BLOB, 9, "CHALLENGE");
			answer(m, what);
			return;
		}
		case 6:
			answer(full(handle), what + " foreign", true);
			break;
		case 7:
			answer(full(handle + 100000), what + " wrong-handle");
			break;
		case 8: {
			nl_msg *m = s_.msg(SMBSRV_CMD_TREE_CONNECT_DONE);
			nla_put_u32(m, SMBSRV_A_TREE_HANDLE, handle);
			nla_put_u32(m, SMBSRV_A_TREE_STATUS, status_bad_network_name);
			answer(m, what + " wrong-kind");
			break;
		}
		default:
			break;
		}
		answer(full(handle), what);
	}

	void tree(nlattr **tb)
	{
		uint32_t handle = get_u32(tb[SMBSRV_A_TREE_HANDLE]);
		std::string share = get_str(tb[SMBSRV_A_TREE_SHARE_NAME]);
		std::printf("event tree-connect handle=%u sid=%llu user=%s uid=%u flags=0x%x addr=%s share=%s\n",
			    handle,
			    static_cast<unsigned long long>(get_u64(tb[SMBSRV_A_TREE_SESSION_ID])),
			    get_str(tb[SMBSRV_A_TREE_USER]).c_str(),
			    get_u32(tb[SMBSRV_A_TREE_UID]),
			    get_u32(tb[SMBSRV_A_TREE_SESSION_FLAGS]),
			    get_str(tb[SMBSRV_A_TREE_CLIENT_ADDR]).c_str(), share.c_str());
		maybe_exit("tree-connect");
		nl_msg *m = s_.msg(SMBSRV_CMD_TREE_CONNECT_DONE);
		nla_put_u32(m, SMBSRV_A_TREE_HANDLE, handle);
		if (share == "missing") {
			nla_put_u32(m, SMBSRV_A_TREE_STATUS, status_bad_network_name);
			answer(m, "tree-connect " + std::to_string(handle));
			return;
		}
		nla_put_u32(m, SMBSRV_A_TREE_STATUS, status_success);
		if (share != "nonest") {
			nlattr *nest = nla_nest_start(m, SMBSRV_A_TREE_SHARE);
			nla_put_string(m, SMBSRV_A_SHARE_NAME, share.c_str());
			if (share == "IPC$") {
				nla_put_u32(m, SMBSRV_A_SHARE_FLAGS, SMBSRV_SHARE_FLAGS_IPC);
			} else {
				nla_put_string(m, SMBSRV_A_SHARE_PATH,
					       share == "relpath" ? "srv" : ("/srv/" + share).c_str());
				nla_put_u32(m, SMBSRV_A_SHARE_FLAGS,
					    SMBSRV_SHARE_FLAGS_READ_ONLY |
						    SMBSRV_SHARE_FLAGS_BROWSEABLE);
				nla_put_u32(m, SMBSRV_A_SHARE_FORCE_UID, 1002);
				nla_put_u32(m, SMBSRV_A_SHARE_CREATE_MASK, 0600);
				nla_put_string(m, SMBSRV_A_SHARE_VETO_FILES, "/*.tmp/");
				nla_put_u32(m, SMBSRV_A_SHARE_MAX_CONNECTIONS, 7);
			}
			nla_nest_end(m, nest);
		}
		answer(m, "tree-connect " + std::to_string(handle));
	}

	void rpc(nlattr **tb)
	{
		uint32_t handle = get_u32(tb[SMBSRV_A_RPC_HANDLE]);
		auto data = get_bin(tb[SMBSRV_A_RPC_DATA]);
		std::printf("event rpc handle=%u sid=%llu pipe-id=%u op=%u pipe=%s user=%s max-out=%u data=%s\n",
			    handle,
			    static_cast<unsigned long long>(get_u64(tb[SMBSRV_A_RPC_SESSION_ID])),
			    get_u32(tb[SMBSRV_A_RPC_PIPE_ID]), get_u32(tb[SMBSRV_A_RPC_OP]),
			    get_str(tb[SMBSRV_A_RPC_PIPE_NAME]).c_str(),
			    get_str(tb[SMBSRV_A_RPC_USER]).c_str(),
			    get_u32(tb[SMBSRV_A_RPC_MAX_OUT]),
			    hex(data.data(), data.size()).c_str());
		maybe_exit("rpc");
		std::vector<uint8_t> out{'r', 'e', 'p', 'l', 'y', ':'};
		out.insert(out.end(), data.begin(), data.end());
		nl_msg *m = s_.msg(SMBSRV_CMD_RPC_DONE);
		nla_put_u32(m, SMBSRV_A_RPC_HANDLE, handle);
		nla_put_u32(m, SMBSRV_A_RPC_STATUS, status_success);
		nla_put(m, SMBSRV_A_RPC_DATA, static_cast<int>(out.size()), out.data());
		answer(m, "rpc " + std::to_string(handle));
	}

	Sock &s_;
	const Options &o_;
	std::deque<Answer> queue_;
	std::map<uint32_t, std::string> sent_;
};

void usage()
{
	std::fprintf(stderr,
		     "usage: smbsrv-nlpeer [-k KNOB=VALUE]... [-b HEX] [-m MODE] [-d SECONDS]\n"
		     "       smbsrv-nlpeer -s\n"
		     "  -k  knob sent at start-up (spec names: tcp-port, netbios-name...)\n"
		     "  -b  NEGOTIATE blob sent at start-up\n"
		     "  -m  answer (default), silent, late (after -d seconds), exit\n"
		     "  -s  print status-get and exit\n");
	std::exit(2);
}

} // namespace

int main(int argc, char **argv)
{
	Options o;
	int c;
	while ((c = getopt(argc, argv, "k:b:m:d:s")) != -1) {
		switch (c) {
		case 'k': {
			std::string kv = optarg;
			auto eq = kv.find('=');
			if (eq == std::string::npos)
				usage();
			o.knobs.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
			break;
		}
		case 'b':
			o.blob = optarg;
			o.have_blob = true;
			break;
		case 'm':
			o.mode = optarg;
			break;
		case 'd':
			o.delay = std::stoi(optarg);
			break;
		case 's':
			o.status_only = true;
			break;
		default:
			usage();
		}
	}
	setvbuf(stdout, nullptr, _IOLBF, 0);

	Sock s;
	if (o.status_only)
		return transact(s, s.msg(SMBSRV_CMD_STATUS_GET)) ? 0 : 1;
	if (!transact(s, startup_msg(s, o)))
		return 1;
	std::printf("attached\n");
	Peer peer(s, o);
	peer.run();
}
