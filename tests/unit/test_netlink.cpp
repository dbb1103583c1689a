// SPDX-License-Identifier: GPL-2.0-or-later
// GenlChannel against a fake kernel: message building, replies, errors
// with the module's explanation, upcall events arriving at any time.
#include <catch2/catch.hpp>

#include <cstring>
#include <linux/smbsrv.h>

#include "fake_kernel.hpp"
#include "netlink.hpp"

using namespace smbsrv;
using namespace smbsrv::test;

namespace {

struct Rig {
	FakeSocket *sock;
	GenlChannel ch;
	Rig() : Rig(std::make_unique<FakeSocket>()) {}

private:
	explicit Rig(std::unique_ptr<FakeSocket> s) : sock(s.get()), ch(std::move(s), kFamily)
	{
		ch.set_timeout(std::chrono::milliseconds(200));
	}
};

Bytes session_setup_event(uint32_t handle, uint64_t sid, ByteView blob)
{
	KMsg m(SMBSRV_CMD_SESSION_SETUP_REQ);
	m.u32(SMBSRV_A_AUTH_HANDLE, handle)
		.u64(SMBSRV_A_AUTH_SESSION_ID, sid)
		.str(SMBSRV_A_AUTH_CLIENT_ADDR, "10.0.2.2")
		.u32(SMBSRV_A_AUTH_DIALECT, 0x0311)
		.bin(SMBSRV_A_AUTH_BLOB, blob);
	return m.bytes();
}

Bytes tree_event(uint32_t handle, const std::string &share)
{
	KMsg m(SMBSRV_CMD_TREE_CONNECT_REQ);
	m.u32(SMBSRV_A_TREE_HANDLE, handle)
		.u64(SMBSRV_A_TREE_SESSION_ID, 7)
		.str(SMBSRV_A_TREE_USER, "alice")
		.u32(SMBSRV_A_TREE_UID, 1001)
		.u32(SMBSRV_A_TREE_SESSION_FLAGS, 0)
		.str(SMBSRV_A_TREE_CLIENT_ADDR, "::1")
		.str(SMBSRV_A_TREE_SHARE_NAME, share);
	return m.bytes();
}

} // namespace

TEST_CASE("startup sends pid, knobs and the negotiate blob, and reads the reply", "[netlink]")
{
	Rig r;
	r.sock->on_send = [](ByteView msg, FakeSocket &k) {
		KMsg reply(SMBSRV_CMD_STARTUP);
		reply.str(SMBSRV_A_SERVER_MODULE_VERSION, "0.1.0")
			.u32(SMBSRV_A_SERVER_DAEMON_STATE, SMBSRV_DAEMON_STATE_RUNNING)
			.u32(SMBSRV_A_SERVER_DAEMON_PID, 4242)
			.u32(SMBSRV_A_SERVER_LISTEN_PORT, 445);
		k.reply_and_ack(msg, &reply);
	};
	Knobs k;
	k.tcp_port = 1445;
	Bytes blob{0x60, 0x01, 0x02};
	ServerStatus st = r.ch.startup(4242, k, blob);
	CHECK(st.module_version == "0.1.0");
	CHECK(st.daemon_running);
	CHECK(st.daemon_pid == 4242);
	CHECK(st.listen_port == 445);

	REQUIRE(r.sock->sent.size() == 1);
	Sent s(r.sock->sent[0], SMBSRV_A_SERVER_MAX);
	CHECK(s.cmd == SMBSRV_CMD_STARTUP);
	CHECK((s.flags & NLM_F_REQUEST));
	CHECK((s.flags & NLM_F_ACK));
	CHECK(s.u32(SMBSRV_A_SERVER_DAEMON_PID) == 4242);
	REQUIRE(s.has(SMBSRV_A_SERVER_KNOBS));
	CHECK(s.bin(SMBSRV_A_SERVER_NEGOTIATE_BLOB) == blob);
	nlattr *tb[SMBSRV_A_KNOBS_MAX + 1] = {};
	REQUIRE(nla_parse_nested(tb, SMBSRV_A_KNOBS_MAX, s.tb[SMBSRV_A_SERVER_KNOBS], nullptr) == 0);
	CHECK(nla_get_u32(tb[SMBSRV_A_KNOBS_TCP_PORT]) == 1445);
}

TEST_CASE("status reads every share in use, not only the last", "[netlink]")
{
	Rig r;
	r.sock->on_send = [](ByteView msg, FakeSocket &k) {
		KMsg reply(SMBSRV_CMD_STATUS_GET);
		reply.u32(SMBSRV_A_SERVER_CONNECTIONS, 2);
		const std::pair<const char *, uint32_t> uses[] = {{"limited", 3}, {"data", 0}};
		uint32_t trees = 1;
		for (const auto &[name, max] : uses) {
			nlattr *n = nla_nest_start(reply.raw(), SMBSRV_A_SERVER_SHARE_USE);
			nla_put_string(reply.raw(), SMBSRV_A_SHARE_USE_NAME, name);
			nla_put_u32(reply.raw(), SMBSRV_A_SHARE_USE_TREES, trees++);
			nla_put_u32(reply.raw(), SMBSRV_A_SHARE_USE_MAX_CONNECTIONS, max);
			nla_nest_end(reply.raw(), n);
		}
		k.reply_and_ack(msg, &reply);
	};
	ServerStatus st = r.ch.status();
	CHECK(st.connections == 2);
	REQUIRE(st.share_uses.size() == 2);
	CHECK(st.share_uses[0].name == "limited");
	CHECK(st.share_uses[0].trees == 1);
	CHECK(st.share_uses[0].max_connections == 3);
	CHECK(st.share_uses[1].name == "data");
	CHECK(st.share_uses[1].trees == 2);
	CHECK(st.share_uses[1].max_connections == 0);
}

TEST_CASE("a refusal carries the module's explanation", "[netlink]")
{
	Rig r;
	r.sock->on_send = [](ByteView msg, FakeSocket &k) {
		k.inbox.push_back(ack(msg, EBUSY, "another smbsrvd (pid 12) is attached"));
	};
	try {
		r.ch.startup(1, Knobs{}, {});
		FAIL("no error");
	} catch (const NlError &e) {
		CHECK(e.err() == EBUSY);
		CHECK(std::string(e.what()) == "another smbsrvd (pid 12) is attached");
	}
	r.sock->on_send = [](ByteView msg, FakeSocket &k) { k.inbox.push_back(ack(msg, EPERM)); };
	try {
		r.ch.status();
		FAIL("no error");
	} catch (const NlError &e) {
		CHECK(e.err() == EPERM);
		CHECK(std::string(e.what()).find("CAP_NET_ADMIN") != std::string::npos);
	}
}

TEST_CASE("no answer is a timeout, not a hang", "[netlink]")
{
	Rig r;
	try {
		r.ch.status();
		FAIL("no error");
	} catch (const NlError &e) {
		CHECK(e.err() == ETIMEDOUT);
	}
	CHECK(r.sock->recv_calls > 0);
}

TEST_CASE("upcalls that arrive while a request waits are queued in order", "[netlink]")
{
	Rig r;
	// Before answering the daemon's session-setup-done, the module sends
	// two more upcalls, one in the same datagram as the ack, and an
	// answer to some other request (wrong sequence number).
	r.sock->on_send = [](ByteView msg, FakeSocket &k) {
		k.inbox.push_back(tree_event(11, "demo"));
		Bytes both = session_setup_event(12, 0x99, Bytes{1, 2, 3});
		while (both.size() % 4)
			both.push_back(0);
		append(both, ack(msg));
		KMsg stray(SMBSRV_CMD_STATUS_GET, seq_of(msg) + 100);
		k.inbox.push_back(stray.bytes());
		k.inbox.push_back(both);
	};
	SessionSetupDone d;
	d.handle = 10;
	d.status = 0xC000006D;
	r.ch.session_setup_done(d);

	auto u1 = r.ch.next_upcall();
	REQUIRE(u1);
	const auto *t = std::get_if<TreeConnectReq>(&*u1);
	REQUIRE(t);
	CHECK(t->handle == 11);
	CHECK(t->share_name == "demo");
	CHECK(t->user == "alice");
	CHECK(t->uid == 1001);
	CHECK(t->client_addr == "::1");
	CHECK(t->session_id == 7);
	auto u2 = r.ch.next_upcall();
	REQUIRE(u2);
	const auto *s = std::get_if<SessionSetupReq>(&*u2);
	REQUIRE(s);
	CHECK(s->handle == 12);
	CHECK(s->session_id == 0x99);
	CHECK(s->dialect == 0x0311);
	CHECK(s->blob == Bytes{1, 2, 3});
	// The stray message with another sequence number is not an upcall.
	CHECK_FALSE(r.ch.next_upcall());
}

TEST_CASE("process_input drains events without blocking, survives overflow", "[netlink]")
{
	Rig r;
	KMsg rpc(SMBSRV_CMD_RPC_REQ);
	rpc.u32(SMBSRV_A_RPC_HANDLE, 5)
		.u64(SMBSRV_A_RPC_SESSION_ID, 3)
		.u32(SMBSRV_A_RPC_PIPE_ID, 9)
		.u32(SMBSRV_A_RPC_OP, SMBSRV_RPC_OP_WRITE)
		.str(SMBSRV_A_RPC_PIPE_NAME, "srvsvc")
		.str(SMBSRV_A_RPC_USER, "bob")
		.bin(SMBSRV_A_RPC_DATA, Bytes{5, 5})
		.u32(SMBSRV_A_RPC_MAX_OUT, 1024);
	r.sock->inbox.push_back(rpc.bytes());
	// An event without a handle cannot be answered: dropped.
	KMsg nohandle(SMBSRV_CMD_TREE_CONNECT_REQ);
	nohandle.str(SMBSRV_A_TREE_SHARE_NAME, "x");
	r.sock->inbox.push_back(nohandle.bytes());
	r.sock->overflow_next = true;
	r.sock->inbox.push_back(tree_event(6, "ipc$"));
	CHECK(r.ch.process_input());
	auto u = r.ch.next_upcall();
	REQUIRE(u);
	const auto *p = std::get_if<RpcReq>(&*u);
	REQUIRE(p);
	CHECK(p->handle == 5);
	CHECK(p->pipe_id == 9);
	CHECK(p->op == SMBSRV_RPC_OP_WRITE);
	CHECK(p->pipe_name == "srvsvc");
	CHECK(p->user == "bob");
	CHECK(p->data == Bytes{5, 5});
	CHECK(p->max_out == 1024);
	u = r.ch.next_upcall();
	REQUIRE(u);
	CHECK(std::get<TreeConnectReq>(*u).handle == 6);
	CHECK_FALSE(r.ch.next_upcall());

	r.sock->broken = true;
	CHECK_FALSE(r.ch.process_input());
	CHECK(r.ch.last_error() == "socket broken");
}

TEST_CASE("answers are encoded as the spec says", "[netlink]")
{
	Rig r;
	r.sock->on_send = [](ByteView msg, FakeSocket &k) { k.reply_and_ack(msg); };

	SessionSetupDone d;
	d.handle = 77;
	d.status = 0;
	d.blob = Bytes{0xa1, 0x00};
	d.session_key = Bytes(16, 0x5a);
	d.uid = 1001;
	d.gid = 1100;
	d.groups = {1100, 27, 1001};
	d.flags = 0;
	d.user = "alice";
	d.domain = "WORKGROUP";
	r.ch.session_setup_done(d);
	{
		Sent s(r.sock->sent.back(), SMBSRV_A_AUTH_MAX);
		CHECK(s.cmd == SMBSRV_CMD_SESSION_SETUP_DONE);
		CHECK(s.u32(SMBSRV_A_AUTH_HANDLE) == 77);
		CHECK(s.u32(SMBSRV_A_AUTH_STATUS) == 0);
		CHECK(s.bin(SMBSRV_A_AUTH_BLOB) == d.blob);
		CHECK(s.bin(SMBSRV_A_AUTH_SESSION_KEY) == d.session_key);
		CHECK(s.u32(SMBSRV_A_AUTH_UID) == 1001);
		CHECK(s.u32(SMBSRV_A_AUTH_GID) == 1100);
		CHECK(s.all_u32(SMBSRV_A_AUTH_GROUPS) == d.groups);
		CHECK(s.str(SMBSRV_A_AUTH_USER) == "alice");
		CHECK(s.str(SMBSRV_A_AUTH_DOMAIN) == "WORKGROUP");
	}
	// A failed leg carries no identity and no empty attributes.
	SessionSetupDone f;
	f.handle = 78;
	f.status = 0xC000006D;
	r.ch.session_setup_done(f);
	{
		Sent s(r.sock->sent.back(), SMBSRV_A_AUTH_MAX);
		CHECK(s.u32(SMBSRV_A_AUTH_STATUS) == 0xC000006D);
		CHECK_FALSE(s.has(SMBSRV_A_AUTH_UID));
		CHECK_FALSE(s.has(SMBSRV_A_AUTH_BLOB));
		CHECK_FALSE(s.has(SMBSRV_A_AUTH_SESSION_KEY));
		CHECK_FALSE(s.has(SMBSRV_A_AUTH_USER));
	}

	TreeConnectDone t;
	t.handle = 79;
	t.status = 0;
	ShareInfo sh;
	sh.name = "demo";
	sh.path = "/srv/demo";
	sh.flags = SMBSRV_SHARE_FLAGS_READ_ONLY | SMBSRV_SHARE_FLAGS_STREAMS;
	sh.force_uid = 1000;
	sh.create_mask = 0700;
	sh.veto_files = "/*.tmp/";
	t.share = sh;
	r.ch.tree_connect_done(t);
	{
		Sent s(r.sock->sent.back(), SMBSRV_A_TREE_MAX);
		CHECK(s.cmd == SMBSRV_CMD_TREE_CONNECT_DONE);
		CHECK(s.u32(SMBSRV_A_TREE_HANDLE) == 79);
		nlattr *tb[SMBSRV_A_SHARE_MAX + 1] = {};
		REQUIRE(nla_parse_nested(tb, SMBSRV_A_SHARE_MAX, s.tb[SMBSRV_A_TREE_SHARE], nullptr) == 0);
		CHECK(std::string(nla_get_string(tb[SMBSRV_A_SHARE_NAME])) == "demo");
		CHECK(std::string(nla_get_string(tb[SMBSRV_A_SHARE_PATH])) == "/srv/demo");
		CHECK(nla_get_u32(tb[SMBSRV_A_SHARE_FLAGS]) == sh.flags);
		CHECK(nla_get_u32(tb[SMBSRV_A_SHARE_FORCE_UID]) == 1000);
		CHECK(tb[SMBSRV_A_SHARE_FORCE_GID] == nullptr);
		CHECK(nla_get_u32(tb[SMBSRV_A_SHARE_CREATE_MASK]) == 0700);
		CHECK(nla_get_u32(tb[SMBSRV_A_SHARE_DIRECTORY_MASK]) == 0755);
		CHECK(std::string(nla_get_string(tb[SMBSRV_A_SHARE_VETO_FILES])) == "/*.tmp/");
	}
	TreeConnectDone no;
	no.handle = 80;
	no.status = 0xC00000CC;
	r.ch.tree_connect_done(no);
	CHECK_FALSE(Sent(r.sock->sent.back(), SMBSRV_A_TREE_MAX).has(SMBSRV_A_TREE_SHARE));

	RpcDone rd;
	rd.handle = 81;
	rd.status = 0x80000005;
	rd.data = Bytes(70000 / 2, 7);
	r.ch.rpc_done(rd);
	{
		Sent s(r.sock->sent.back(), SMBSRV_A_RPC_MAX);
		CHECK(s.u32(SMBSRV_A_RPC_STATUS) == 0x80000005);
		CHECK(s.bin(SMBSRV_A_RPC_DATA) == rd.data);
	}
	// Sequence numbers differ from one request to the next.
	CHECK(seq_of(r.sock->sent[0]) != seq_of(r.sock->sent[1]));
}

TEST_CASE("a late answer is refused with ENOENT; the module going away ends a wait", "[netlink]")
{
	Rig r;
	r.sock->on_send = [](ByteView msg, FakeSocket &k) {
		k.inbox.push_back(ack(msg, ENOENT, "no upcall 3 of this kind is pending"));
	};
	try {
		r.ch.rpc_done(RpcDone{3, 0, {}});
		FAIL("no error");
	} catch (const NlError &e) {
		CHECK(e.err() == ENOENT);
	}

	// nlctrl announces the family is gone while we wait.
	bool unloaded = false;
	r.ch.on_event([&](KernelEvent e) { unloaded = e == KernelEvent::module_unloaded; });
	r.sock->on_send = [](ByteView, FakeSocket &k) {
		KMsg del(CTRL_CMD_DELFAMILY, 0, GENL_ID_CTRL);
		del.str(CTRL_ATTR_FAMILY_NAME, SMBSRV_FAMILY_NAME);
		k.inbox.push_back(del.bytes());
	};
	CHECK_THROWS_AS(r.ch.status(), ModuleNotLoaded);
	CHECK(unloaded);
	CHECK_FALSE(r.ch.module_present());
	CHECK_THROWS_AS(r.ch.status(), ModuleNotLoaded);

	// ...and back, with another family id.
	KMsg add(CTRL_CMD_NEWFAMILY, 0, GENL_ID_CTRL);
	add.str(CTRL_ATTR_FAMILY_NAME, SMBSRV_FAMILY_NAME).u32(CTRL_ATTR_FAMILY_ID, kFamily);
	r.sock->inbox.push_back(add.bytes());
	CHECK(r.ch.process_input());
	CHECK(r.ch.module_present());
}
