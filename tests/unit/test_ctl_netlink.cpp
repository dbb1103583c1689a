// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvctl's netlink requests against a fake module: what it sends
// (command, flags, attributes) and how it reads the answers, including
// the module refusing with an extended-ack message.
#include <catch2/catch.hpp>

#include <linux/smbsrv.h>

#include "ctl_netlink.hpp"
#include "fake_kernel.hpp"
#include "knobs_nl.hpp"

using namespace smbsrv;
using namespace smbsrv::test;

using Module = FakeModule;

TEST_CASE("smbsrvctl sessions: a dump request, every attribute read")
{
	Module m;
	KMsg a(SMBSRV_CMD_SESSION_GET), b(SMBSRV_CMD_SESSION_GET);
	a.u64(SMBSRV_A_SESSION_SESSION_ID, 0x4000000000001ULL)
		.u32(SMBSRV_A_SESSION_CONN_ID, 7)
		.str(SMBSRV_A_SESSION_USER, "alice")
		.str(SMBSRV_A_SESSION_DOMAIN, "WORKGROUP")
		.str(SMBSRV_A_SESSION_CLIENT_ADDR, "10.0.2.2")
		.u32(SMBSRV_A_SESSION_DIALECT, 0x0311)
		.u32(SMBSRV_A_SESSION_FLAGS, 0)
		.u32(SMBSRV_A_SESSION_SIGNED, 1)
		.u32(SMBSRV_A_SESSION_ENCRYPTED, 0)
		.u32(SMBSRV_A_SESSION_TREES, 2)
		.u32(SMBSRV_A_SESSION_OPEN_FILES, 5)
		.u32(SMBSRV_A_SESSION_AGE, 61)
		.u32(SMBSRV_A_SESSION_CHANNEL, 7)
		.u32(SMBSRV_A_SESSION_CHANNEL, 12);
	b.u64(SMBSRV_A_SESSION_SESSION_ID, 2).u32(SMBSRV_A_SESSION_FLAGS,
						   SMBSRV_SESSION_FLAGS_GUEST);
	m.sock->on_send = [&](ByteView req, FakeSocket &k) { dump_answer(k, req, {&a, &b}); };
	auto list = list_sessions(*m.nl);

	REQUIRE(m.sock->sent.size() == 1);
	Sent s(m.sock->sent[0], SMBSRV_A_SESSION_MAX);
	CHECK(s.cmd == SMBSRV_CMD_SESSION_GET);
	CHECK((s.flags & NLM_F_DUMP) == NLM_F_DUMP);
	REQUIRE(list.size() == 2);
	CHECK(list[0].id == 0x4000000000001ULL);
	CHECK(list[0].conn_id == 7);
	CHECK(list[0].user == "alice");
	CHECK(list[0].domain == "WORKGROUP");
	CHECK(list[0].client == "10.0.2.2");
	CHECK(dialect_name(list[0].dialect) == "3.1.1");
	CHECK(list[0].signing);
	CHECK_FALSE(list[0].encryption);
	CHECK(list[0].trees == 2);
	CHECK(list[0].open_files == 5);
	CHECK(list[0].age == 61);
	// channel is a multi-attr: every one, in order.
	CHECK(list[0].channels == std::vector<uint32_t>{7, 12});
	// Attributes a module leaves out read as zero, not as garbage.
	CHECK(list[1].id == 2);
	CHECK(list[1].flags == SMBSRV_SESSION_FLAGS_GUEST);
	CHECK(list[1].user.empty());
	CHECK(list[1].dialect == 0);
	CHECK(list[1].channels.empty());
}

TEST_CASE("smbsrvctl connections: a dump request, every attribute read")
{
	Module m;
	KMsg a(SMBSRV_CMD_CONNECTION_GET);
	a.u32(SMBSRV_A_CONNECTION_CONN_ID, 3)
		.str(SMBSRV_A_CONNECTION_CLIENT_ADDR, "::1")
		.u32(SMBSRV_A_CONNECTION_DIALECT, 0x0210)
		.u32(SMBSRV_A_CONNECTION_SESSIONS, 1)
		.u32(SMBSRV_A_CONNECTION_CREDITS, 512)
		.u64(SMBSRV_A_CONNECTION_REQUESTS, 1ULL << 33)
		.u32(SMBSRV_A_CONNECTION_AGE, 5);
	m.sock->on_send = [&](ByteView req, FakeSocket &k) { dump_answer(k, req, {&a}); };
	auto list = list_connections(*m.nl);
	REQUIRE(list.size() == 1);
	CHECK(list[0].id == 3);
	CHECK(list[0].client == "::1");
	CHECK(dialect_name(list[0].dialect) == "2.1");
	CHECK(list[0].sessions == 1);
	CHECK(list[0].credits == 512);
	CHECK(list[0].requests == 1ULL << 33);

	// An empty dump is an empty list.
	Module e;
	e.sock->on_send = [&](ByteView req, FakeSocket &k) { dump_answer(k, req, {}); };
	CHECK(list_connections(*e.nl).empty());
}

TEST_CASE("smbsrvctl opens: a dump request, every attribute read")
{
	Module m;
	KMsg a(SMBSRV_CMD_OPEN_GET), b(SMBSRV_CMD_OPEN_GET);
	Bytes key(16);
	for (size_t i = 0; i < key.size(); i++)
		key[i] = uint8_t(0xa0 + i);
	a.u64(SMBSRV_A_OPEN_SESSION_ID, 9)
		.u32(SMBSRV_A_OPEN_TREE_ID, 1)
		.u64(SMBSRV_A_OPEN_PERSISTENT_ID, 0x100000003ULL)
		.u64(SMBSRV_A_OPEN_VOLATILE_ID, 4)
		.str(SMBSRV_A_OPEN_PATH, "dir/f.txt")
		.str(SMBSRV_A_OPEN_SHARE, "data")
		.u32(SMBSRV_A_OPEN_ACCESS, 0x12019f)
		.u32(SMBSRV_A_OPEN_OPLOCK, 0xff)
		.u32(SMBSRV_A_OPEN_LEASE_STATE, 7)
		.bin(SMBSRV_A_OPEN_LEASE_KEY, key)
		.u32(SMBSRV_A_OPEN_LEASE_EPOCH, 3)
		.u32(SMBSRV_A_OPEN_BREAKING, 1)
		.u32(SMBSRV_A_OPEN_DURABLE, 2);
	b.u64(SMBSRV_A_OPEN_SESSION_ID, 0)
		.u32(SMBSRV_A_OPEN_OPLOCK, 0x09)
		.u32(SMBSRV_A_OPEN_DURABLE, 1)
		.u32(SMBSRV_A_OPEN_DISCONNECTED_LEFT, 42);
	m.sock->on_send = [&](ByteView req, FakeSocket &k) { dump_answer(k, req, {&a, &b}); };
	auto list = list_opens(*m.nl);

	REQUIRE(m.sock->sent.size() == 1);
	Sent s(m.sock->sent[0], SMBSRV_A_OPEN_MAX);
	CHECK(s.cmd == SMBSRV_CMD_OPEN_GET);
	CHECK((s.flags & NLM_F_DUMP) == NLM_F_DUMP);
	REQUIRE(list.size() == 2);
	CHECK(list[0].session_id == 9);
	CHECK(list[0].tree_id == 1);
	CHECK(list[0].persistent_id == 0x100000003ULL);
	CHECK(list[0].volatile_id == 4);
	CHECK(list[0].path == "dir/f.txt");
	CHECK(list[0].share == "data");
	CHECK(list[0].access == 0x12019f);
	CHECK(oplock_name(list[0].oplock) == "lease");
	CHECK(lease_state_name(list[0].lease_state) == "RWH");
	CHECK(list[0].lease_key == "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
	CHECK(list[0].lease_epoch == 3);
	CHECK(list[0].breaking);
	CHECK(list[0].durable == 2);
	CHECK(list[1].session_id == 0);
	CHECK(oplock_name(list[1].oplock) == "batch");
	CHECK(list[1].lease_key.empty());
	CHECK(list[1].disconnected_left == 42);
	CHECK(lease_state_name(3) == "RH");
	CHECK(lease_state_name(0).empty());
	CHECK(oplock_name(1) == "level2");
}

TEST_CASE("smbsrvctl kill: the id in the right attribute; refusals reported")
{
	Module m;
	m.sock->on_send = [](ByteView req, FakeSocket &k) { k.reply_and_ack(req); };
	kill_session(*m.nl, 0x4000000000001ULL);
	kill_connection(*m.nl, 9);
	REQUIRE(m.sock->sent.size() == 2);
	Sent s(m.sock->sent[0], SMBSRV_A_KILL_MAX);
	CHECK(s.cmd == SMBSRV_CMD_KILL);
	REQUIRE(s.has(SMBSRV_A_KILL_SESSION_ID));
	CHECK(nla_get_u64(s.tb[SMBSRV_A_KILL_SESSION_ID]) == 0x4000000000001ULL);
	CHECK_FALSE(s.has(SMBSRV_A_KILL_CONN_ID));
	Sent c(m.sock->sent[1], SMBSRV_A_KILL_MAX);
	CHECK(c.u32(SMBSRV_A_KILL_CONN_ID) == 9);
	CHECK_FALSE(c.has(SMBSRV_A_KILL_SESSION_ID));

	Module r;
	r.sock->on_send = [](ByteView req, FakeSocket &k) {
		k.inbox.push_back(ack(req, ENOENT, "no session 0x7"));
	};
	try {
		kill_session(*r.nl, 7);
		FAIL("a refusal must throw");
	} catch (const NlError &e) {
		CHECK(e.err() == ENOENT);
		CHECK(std::string(e.what()) == "no session 0x7");
	}
}

TEST_CASE("smbsrvctl set: only the knob asked for is sent")
{
	Module m;
	m.sock->on_send = [](ByteView req, FakeSocket &k) {
		KMsg reply(SMBSRV_CMD_KNOBS_SET);
		nlattr *nest = nla_nest_start(reply.raw(), SMBSRV_A_SERVER_KNOBS);
		nla_put_u32(reply.raw(), SMBSRV_A_KNOBS_ROUTE_POLICY, SMBSRV_ROUTE_POLICY_UNBOUND);
		nla_nest_end(reply.raw(), nest);
		k.reply_and_ack(req, &reply);
	};
	Knobs want;
	want.route_policy = SMBSRV_ROUTE_POLICY_UNBOUND;
	int attr = SMBSRV_A_KNOBS_ROUTE_POLICY;
	Knobs now = set_knobs(*m.nl, want, std::span<const int>(&attr, 1));
	CHECK(now.route_policy == SMBSRV_ROUTE_POLICY_UNBOUND);

	REQUIRE(m.sock->sent.size() == 1);
	Sent s(m.sock->sent[0], SMBSRV_A_SERVER_MAX);
	CHECK(s.cmd == SMBSRV_CMD_KNOBS_SET);
	REQUIRE(s.has(SMBSRV_A_SERVER_KNOBS));
	Knobs got;
	got.route_policy = 99;
	auto found = parse_knobs(s.tb[SMBSRV_A_SERVER_KNOBS], got);
	CHECK(found == std::vector<int>{SMBSRV_A_KNOBS_ROUTE_POLICY});
	CHECK(got.route_policy == SMBSRV_ROUTE_POLICY_UNBOUND);

	CHECK(find_knob("route-policy") == find_knob("Route Policy"));
	CHECK(find_knob("smb2_max_read")->attr == SMBSRV_A_KNOBS_SMB2_MAX_READ);
	CHECK(find_knob("nonsense") == nullptr);
}

TEST_CASE("smbsrvctl stats: the queue dump, every attribute read")
{
	Module m;
	KMsg a(SMBSRV_CMD_QUEUE_GET), b(SMBSRV_CMD_QUEUE_GET);
	a.u32(SMBSRV_A_QUEUE_INDEX, 0)
		.str(SMBSRV_A_QUEUE_NAME, "smbsrv")
		.u32(SMBSRV_A_QUEUE_UNBOUND, 0)
		.u64(SMBSRV_A_QUEUE_QUEUED, 1ULL << 40)
		.u64(SMBSRV_A_QUEUE_COMPLETED, (1ULL << 40) - 3)
		.u32(SMBSRV_A_QUEUE_INFLIGHT, 3)
		.u32(SMBSRV_A_QUEUE_INFLIGHT_MAX, 17)
		.u64(SMBSRV_A_QUEUE_WAIT_NS, 123456789)
		.u64(SMBSRV_A_QUEUE_SENDS, 900)
		.u64(SMBSRV_A_QUEUE_RESPONSES, 1000)
		.u64(SMBSRV_A_QUEUE_BATCHED_SENDS, 40)
		.u32(SMBSRV_A_QUEUE_BATCH_MAX, 6);
	b.u32(SMBSRV_A_QUEUE_INDEX, 1)
		.str(SMBSRV_A_QUEUE_NAME, "smbsrv-unbound")
		.u32(SMBSRV_A_QUEUE_UNBOUND, 1);
	m.sock->on_send = [&](ByteView req, FakeSocket &k) { dump_answer(k, req, {&a, &b}); };
	auto list = list_queues(*m.nl);

	REQUIRE(m.sock->sent.size() == 1);
	Sent s(m.sock->sent[0], SMBSRV_A_QUEUE_MAX);
	CHECK(s.cmd == SMBSRV_CMD_QUEUE_GET);
	CHECK((s.flags & NLM_F_DUMP) == NLM_F_DUMP);
	REQUIRE(list.size() == 2);
	CHECK(list[0].index == 0);
	CHECK(list[0].name == "smbsrv");
	CHECK_FALSE(list[0].unbound);
	CHECK(list[0].queued == 1ULL << 40);
	CHECK(list[0].completed == (1ULL << 40) - 3);
	CHECK(list[0].inflight == 3);
	CHECK(list[0].inflight_max == 17);
	CHECK(list[0].wait_ns == 123456789);
	CHECK(list[0].sends == 900);
	CHECK(list[0].responses == 1000);
	CHECK(list[0].batched_sends == 40);
	CHECK(list[0].batch_max == 6);
	CHECK(list[1].index == 1);
	CHECK(list[1].name == "smbsrv-unbound");
	CHECK(list[1].unbound);
	CHECK(list[1].queued == 0);
}

TEST_CASE("smbsrvctl stats: the READ counters, every attribute read")
{
	Module m;
	KMsg r(SMBSRV_CMD_READ_STATS_GET);
	r.u64(SMBSRV_A_READ_STATS_SPLICED, 1ULL << 33)
		.u64(SMBSRV_A_READ_STATS_SPLICED_BYTES, 1ULL << 53)
		.u64(SMBSRV_A_READ_STATS_COPIED, 11)
		.u64(SMBSRV_A_READ_STATS_COPIED_BYTES, 4097)
		.u64(SMBSRV_A_READ_STATS_COPY_OFF, 1)
		.u64(SMBSRV_A_READ_STATS_COPY_SMALL, 2)
		.u64(SMBSRV_A_READ_STATS_COPY_STREAM, 3)
		.u64(SMBSRV_A_READ_STATS_COPY_NONREG, 4)
		.u64(SMBSRV_A_READ_STATS_COPY_COMPOUND, 5)
		.u64(SMBSRV_A_READ_STATS_COPY_NOCACHE, 6)
		.u64(SMBSRV_A_READ_STATS_COPY_ERROR, 7)
		.u64(SMBSRV_A_READ_STATS_INLINE_HITS, 100)
		.u64(SMBSRV_A_READ_STATS_INLINE_MISSES, 9)
		.u64(SMBSRV_A_READ_STATS_INLINE_DEFERRED, 8)
		.u64(SMBSRV_A_READ_STATS_PAGES_INFLIGHT, 257);
	m.sock->on_send = [&](ByteView req, FakeSocket &k) { k.reply_and_ack(req, &r); };
	ReadStats st = read_stats(*m.nl);

	REQUIRE(m.sock->sent.size() == 1);
	Sent s(m.sock->sent[0], SMBSRV_A_READ_STATS_MAX);
	CHECK(s.cmd == SMBSRV_CMD_READ_STATS_GET);
	CHECK((s.flags & NLM_F_DUMP) == 0);
	CHECK(st.spliced == 1ULL << 33);
	CHECK(st.spliced_bytes == 1ULL << 53);
	CHECK(st.copied == 11);
	CHECK(st.copied_bytes == 4097);
	CHECK(st.copy_off == 1);
	CHECK(st.copy_small == 2);
	CHECK(st.copy_stream == 3);
	CHECK(st.copy_nonreg == 4);
	CHECK(st.copy_compound == 5);
	CHECK(st.copy_nocache == 6);
	CHECK(st.copy_error == 7);
	CHECK(st.inline_hits == 100);
	CHECK(st.inline_misses == 9);
	CHECK(st.inline_deferred == 8);
	CHECK(st.pages_inflight == 257);

	SECTION("a module that acks without an answer is an error, not zeros")
	{
		Module e;
		e.sock->on_send = [](ByteView req, FakeSocket &k) { k.reply_and_ack(req); };
		CHECK_THROWS_AS(read_stats(*e.nl), NlError);
	}
}
