// SPDX-License-Identifier: GPL-2.0-or-later
// userd/lib/cluster_rec.cpp: the cluster record's names and what a node
// decides from a file's record, without Ceph.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "cluster_rec.hpp"
#include "ntstatus.hpp"

extern "C" {
#include "oplock.h"
}

using namespace smbsrv;
using namespace smbsrv::cluster;

namespace {

constexpr uint32_t R = FILE_READ_DATA;
constexpr uint32_t W = FILE_WRITE_DATA;
constexpr uint32_t SR = FILE_SHARE_READ;
constexpr uint32_t SW = FILE_SHARE_WRITE;

} // namespace

TEST_CASE("cluster object and key names", "[cluster]")
{
	CHECK(file_object(0x10000000abcULL) == "f.10000000abc");
	CHECK(file_object(0) == "f.0");
	CHECK(node_object("a") == "node.a");
	CHECK(open_key("a", "") == "o.a.");
	CHECK(open_key("n-2", "user.DosStream.s:$DATA") == "o.n-2.user.DosStream.s:$DATA");
	CHECK(valid_node_name("node_1-B"));
	CHECK_FALSE(valid_node_name(""));
	CHECK_FALSE(valid_node_name("a.b"));
	CHECK_FALSE(valid_node_name("a b"));
	CHECK_FALSE(valid_node_name(std::string(65, 'x')));
	CHECK(valid_node_name(std::string(64, 'x')));
}

TEST_CASE("a new open is checked against the other nodes' aggregates", "[cluster]")
{
	std::map<std::string, Bytes> rec;
	// Node b reads and denies writing.
	rec[open_key("b", "")] = open_value({R, SR, 0});
	CHECK(check_open(rec, "a", "", W, SR | SW) == nt::SHARING_VIOLATION);
	CHECK(check_open(rec, "a", "", R, SR | SW) == nt::SUCCESS);
	// A read open that denies writing is fine too (b does not write).
	CHECK(check_open(rec, "a", "", R, SR) == nt::SUCCESS);
	// ... but not one denying reading.
	CHECK(check_open(rec, "a", "", R, SW) == nt::SHARING_VIOLATION);
	// The node's own key is its own business (the module checked it).
	CHECK(check_open(rec, "b", "", W, SR | SW) == nt::SUCCESS);
	// Opens without data access take no part.
	CHECK(check_open(rec, "a", "", FILE_READ_ATTRIBUTES, 0) == nt::SUCCESS);
	// Streams are separate: b's key is for the file.
	CHECK(check_open(rec, "a", "user.DosStream.s:$DATA", W, SR | SW) == nt::SUCCESS);
	// The reverse: b writes, sharing read and write; a denies writing.
	rec.clear();
	rec[open_key("b", "")] = open_value({R | W, SR | SW, 0});
	CHECK(check_open(rec, "a", "", R, SR) == nt::SHARING_VIOLATION);
	CHECK(check_open(rec, "a", "", R | W, SR | SW) == nt::SUCCESS);
}

TEST_CASE("the record's other keys and bad values", "[cluster]")
{
	std::map<std::string, Bytes> rec;
	rec["n"] = Bytes{1, 2, 3};
	rec["dp."] = Bytes{};
	rec["o.bad"] = Bytes{};
	CHECK(check_open(rec, "a", "", W, 0) == nt::SUCCESS);
	// A value that does not decode counts as an open denying everything.
	rec[open_key("c", "")] = Bytes{9, 9};
	CHECK(check_open(rec, "a", "", R, FILE_SHARE_ALL) == nt::SHARING_VIOLATION);
	CHECK(check_open(rec, "a", "", FILE_READ_ATTRIBUTES, 0) == nt::SUCCESS);
	// A node whose aggregate has no data access blocks nothing.
	rec.erase(open_key("c", ""));
	rec[open_key("c", "")] = open_value({0, 0, 0});
	CHECK(check_open(rec, "a", "", R | W, 0) == nt::SUCCESS);
}

namespace {

Bytes locks_of(std::initializer_list<smb_cluster_lock> ls)
{
	Bytes out(ls.size() * SMB_CLUSTER_LOCK_LEN);
	size_t i = 0;
	for (const auto &l : ls)
		smb_cluster_lock_encode(&l, out.data() + i++ * SMB_CLUSTER_LOCK_LEN);
	return out;
}

} // namespace

TEST_CASE("a node's locks are checked against the other nodes' lock keys", "[cluster]")
{
	CHECK(lock_key("a", "") == "b.a.");
	CHECK(lock_key("a", "s.x") == "b.a.s.x");
	std::map<std::string, Bytes> rec;
	rec[open_key("b", "")] = open_value({R | W, SR | SW, 0});
	rec[lock_key("b", "")] = locks_of({{0, 10, true}, {100, 10, false}});
	// Exclusive against exclusive, and shared against exclusive.
	CHECK(check_locks(rec, "a", "", locks_of({{5, 1, true}})) == nt::LOCK_NOT_GRANTED);
	CHECK(check_locks(rec, "a", "", locks_of({{5, 1, false}})) == nt::LOCK_NOT_GRANTED);
	// Shared against shared: granted; exclusive over a shared one: not.
	CHECK(check_locks(rec, "a", "", locks_of({{100, 10, false}})) == nt::SUCCESS);
	CHECK(check_locks(rec, "a", "", locks_of({{105, 1, true}})) == nt::LOCK_NOT_GRANTED);
	// Outside every range; no locks at all (an unlock of everything).
	CHECK(check_locks(rec, "a", "", locks_of({{10, 90, true}})) == nt::SUCCESS);
	CHECK(check_locks(rec, "a", "", Bytes{}) == nt::SUCCESS);
	// Any one of the list conflicting refuses the list.
	CHECK(check_locks(rec, "a", "", locks_of({{10, 1, true}, {0, 1, true}})) ==
	      nt::LOCK_NOT_GRANTED);
	// The node's own key is its own; another stream's locks are not ours.
	CHECK(check_locks(rec, "b", "", locks_of({{5, 1, true}})) == nt::SUCCESS);
	CHECK(check_locks(rec, "a", "s", locks_of({{5, 1, true}})) == nt::SUCCESS);
	// A list that does not decode: a bad request, or another node's value
	// that counts as a lock of everything.
	CHECK(check_locks(rec, "a", "", Bytes{1, 2, 3}) == nt::INVALID_PARAMETER);
	rec[lock_key("c", "")] = Bytes{1, 2, 3};
	CHECK(check_locks(rec, "a", "", locks_of({{5000, 1, false}})) == nt::LOCK_NOT_GRANTED);
	CHECK(check_locks(rec, "a", "", Bytes{}) == nt::SUCCESS);
}

TEST_CASE("the nodes a lock change is pushed to", "[cluster]")
{
	std::map<std::string, Bytes> rec;
	rec[open_key("a", "")] = open_value({R, SR, 0});
	rec[open_key("b", "s")] = open_value({R, SR, 0});
	rec[open_key("c", "")] = open_value({R, SR, 0});
	rec[lock_key("d", "")] = Bytes{};
	rec["o.bad"] = Bytes{};
	CHECK(nodes_with_opens(rec, "a") == std::set<std::string>{"b", "c"});
	CHECK(nodes_with_opens(rec, "z") == std::set<std::string>{"a", "b", "c"});
}

TEST_CASE("a push round-trips through its notify payload", "[cluster]")
{
	Push p{SMB_CLUSTER_PUSH_LOCKS, 0xabc, "s", "node-b", 7, locks_of({{1, 2, true}})};
	Bytes b = encode_push(p);
	auto q = decode_push(b.data(), b.size());
	REQUIRE(q);
	CHECK(q->ino == p.ino);
	CHECK(q->stream == p.stream);
	CHECK(q->node == p.node);
	CHECK(q->version == p.version);
	CHECK(q->locks == p.locks);
	CHECK_FALSE(decode_push(b.data(), b.size() - 1));
	CHECK_FALSE(decode_push(b.data(), 3));

	// A break: the bits to give up, no locks.
	Push k;
	k.kind = SMB_CLUSTER_PUSH_BREAK;
	k.ino = 0xabc;
	k.node = "node-a";
	k.caching = SMB2_LEASE_WRITE;
	b = encode_push(k);
	q = decode_push(b.data(), b.size());
	REQUIRE(q);
	CHECK(q->kind == SMB_CLUSTER_PUSH_BREAK);
	CHECK(q->caching == SMB2_LEASE_WRITE);
	CHECK(q->stream.empty());
	CHECK(q->locks.empty());
	// A wake: the file only.
	k.kind = SMB_CLUSTER_PUSH_WAKE;
	k.caching = 0;
	b = encode_push(k);
	q = decode_push(b.data(), b.size());
	REQUIRE(q);
	CHECK(q->kind == SMB_CLUSTER_PUSH_WAKE);
	CHECK(q->node == "node-a");
	// A pending deletion set and cleared: the file only.
	for (uint8_t kind : {SMB_CLUSTER_PUSH_DELETE, SMB_CLUSTER_PUSH_UNDELETE,
			     SMB_CLUSTER_PUSH_RENAME_CHECK}) {
		k.kind = kind;
		b = encode_push(k);
		q = decode_push(b.data(), b.size());
		REQUIRE(q);
		CHECK(q->kind == kind);
		b.push_back(0);
		CHECK_FALSE(decode_push(b.data(), b.size()));
	}
	b[0] = SMB_CLUSTER_PUSH_DIRCHANGE + 1;
	b.pop_back();
	CHECK_FALSE(decode_push(b.data(), b.size()));
}

TEST_CASE("caching is allowed by, and broken for, the other nodes' opens", "[cluster]")
{
	constexpr uint32_t LR = SMB2_LEASE_READ, LH = SMB2_LEASE_HANDLE, LW = SMB2_LEASE_WRITE;
	std::map<std::string, Bytes> rec;
	// Alone: anything.
	CHECK(caching_cover(rec, "a", "") == (LR | LH | LW));
	// Node b reads: a may cache reads and handles, not writes.
	rec[open_key("b", "")] = open_value({R, SR | SW, 0});
	CHECK(caching_cover(rec, "a", "") == (LR | LH));
	// Its own key and another stream's do not count.
	CHECK(caching_cover(rec, "b", "") == (LR | LH | LW));
	CHECK(caching_cover(rec, "a", "s") == (LR | LH | LW));
	// Node c writes: nothing (H is never granted without R).
	rec[open_key("c", "")] = open_value({R | W, SR | SW, 0});
	CHECK(caching_cover(rec, "a", "") == 0);
	// A value that does not decode: as a writer.
	rec.erase(open_key("c", ""));
	rec[open_key("d", "")] = Bytes{9, 9};
	CHECK(caching_cover(rec, "a", "") == 0);
	rec.erase(open_key("d", ""));

	// b caches RWH (batch oplock or RWH lease) with a read open.
	rec[open_key("b", "")] = open_value({R, SR | SW, LR | LH | LW});
	// a's reader takes W; a's writer takes everything; a sharing
	// violation takes H too.
	CHECK(caching_breaks(rec, "a", "", R, false) == std::map<std::string, uint32_t>{{"b", LW}});
	CHECK(caching_breaks(rec, "a", "", R | W, false) ==
	      std::map<std::string, uint32_t>{{"b", LR | LH | LW}});
	CHECK(caching_breaks(rec, "a", "", R, true) ==
	      std::map<std::string, uint32_t>{{"b", LW | LH}});
	// b's own open breaks nothing of b; a stat open nothing of anyone.
	CHECK(caching_breaks(rec, "b", "", R | W, true).empty());
	CHECK(caching_breaks(rec, "a", "", FILE_READ_ATTRIBUTES, true).empty());
	// b caching RH: a reader takes nothing, a writer R and H.
	rec[open_key("b", "")] = open_value({R, SR | SW, LR | LH});
	CHECK(caching_breaks(rec, "a", "", R, false).empty());
	CHECK(caching_breaks(rec, "a", "", W, false) ==
	      std::map<std::string, uint32_t>{{"b", LR | LH}});
	// A value without caching (12 bytes, an older node): nothing to break.
	Bytes old = open_value({R, SR | SW, LR});
	old.resize(SMB_CLUSTER_REC_MIN);
	rec[open_key("b", "")] = old;
	CHECK(caching_breaks(rec, "a", "", R | W, true).empty());
}

TEST_CASE("a pending deletion counts while the file is open somewhere", "[cluster]")
{
	constexpr uint32_t LR = SMB2_LEASE_READ, LH = SMB2_LEASE_HANDLE;
	std::map<std::string, Bytes> rec;
	CHECK(delete_key("") == "dp.");
	CHECK(delete_key("s") == "dp.s");
	rec[delete_key("")] = Bytes{'a'};
	// No open left anywhere (its node was reaped): nothing pending.
	CHECK_FALSE(delete_pending(rec, ""));
	rec[open_key("b", "")] = open_value({R | DELETE, SR | SW | FILE_SHARE_DELETE, LR | LH});
	CHECK(delete_pending(rec, ""));
	// The file's deletion holds its streams; a stream's not the file.
	CHECK(delete_pending(rec, "s"));
	rec.erase(delete_key(""));
	rec[delete_key("s")] = Bytes{'a'};
	CHECK_FALSE(delete_pending(rec, ""));
	CHECK_FALSE(delete_pending(rec, "s"));
	rec[open_key("c", "s")] = open_value({R, SR, 0});
	CHECK(delete_pending(rec, "s"));
	// Who else has it open, who caches its handle.
	CHECK(other_openers(rec, "a", "") == std::set<std::string>{"b"});
	CHECK(other_openers(rec, "b", "").empty());
	CHECK(other_openers(rec, "a", "s") == std::set<std::string>{"c"});
	CHECK(handle_holders(rec, "a", "") == std::set<std::string>{"b"});
	CHECK(handle_holders(rec, "b", "").empty());
	CHECK(handle_holders(rec, "a", "s").empty());
}

TEST_CASE("a rename check's answers in a notify reply", "[cluster]")
{
	auto le32 = [](Bytes &b, uint32_t v) {
		for (int i = 0; i < 4; i++)
			b.push_back(uint8_t(v >> (8 * i)));
	};
	auto ack = [&](Bytes &b, const Bytes &payload) {
		b.insert(b.end(), 16, 7); // notifier id, cookie
		le32(b, uint32_t(payload.size()));
		b.insert(b.end(), payload.begin(), payload.end());
	};
	Bytes b;
	le32(b, 2);
	ack(b, {});
	ack(b, {0});
	le32(b, 1);
	b.insert(b.end(), 16, 0); // one timed out
	CHECK(acks_busy(b.data(), b.size()) == std::optional<bool>(false));
	for (size_t len = 0; len < b.size(); len++)
		CHECK_FALSE(acks_busy(b.data(), len));
	Bytes c;
	le32(c, 1);
	ack(c, {1});
	le32(c, 0);
	CHECK(acks_busy(c.data(), c.size()) == std::optional<bool>(true));
	c[20] = 0xff; // a payload length beyond the reply
	CHECK_FALSE(acks_busy(c.data(), c.size()));
}

TEST_CASE("Ceph client addresses for fencing", "[cluster]")
{
	CHECK(valid_client_addr("10.0.2.15:0/3725689"));
	CHECK(valid_client_addr("[fe80::1]:6800/12"));
	CHECK(valid_client_addr("255.255.255.255:65535/4294967295"));
	CHECK_FALSE(valid_client_addr(""));
	CHECK_FALSE(valid_client_addr("10.0.2.15:0"));
	CHECK_FALSE(valid_client_addr("10.0.2.15/3"));
	CHECK_FALSE(valid_client_addr("10.0.2.256:0/3"));
	CHECK_FALSE(valid_client_addr("10.0.2:0/3"));
	CHECK_FALSE(valid_client_addr("10.0.2.1.5:0/3"));
	CHECK_FALSE(valid_client_addr("10.0.2.15:65536/3"));
	CHECK_FALSE(valid_client_addr("10.0.2.15:0/"));
	CHECK_FALSE(valid_client_addr("10.0.2.15:0/12345678901"));
	CHECK_FALSE(valid_client_addr("v2:10.0.2.15:0/3"));
	CHECK_FALSE(valid_client_addr("10.0.2.15:0/3\", \"x\": \"y"));
	CHECK_FALSE(valid_client_addr("[fe80::1\"]:0/3"));
	CHECK_FALSE(valid_client_addr("[]:0/3"));

	CHECK(rados_addrs("[v2:10.0.2.100:0/2716,v1:10.0.2.100:0/2716]") ==
	      std::vector<std::string>{"10.0.2.100:0/2716", "10.0.2.100:0/2716"});
	CHECK(rados_addrs("v2:10.0.2.100:0/1") == std::vector<std::string>{"10.0.2.100:0/1"});
	CHECK(rados_addrs("10.0.2.100:0/1") == std::vector<std::string>{"10.0.2.100:0/1"});
	CHECK(rados_addrs("[v2:10.0.2.100:0/1,bad]").empty());
	CHECK(rados_addrs("").empty());

	CHECK(cephfs_status_addr("instance: client.4161 10.0.2.15:0/3725689\nblocklisted: false\n") ==
	      "10.0.2.15:0/3725689");
	CHECK(cephfs_status_addr("instance: client.4161 10.0.2.15:0/3725689") ==
	      "10.0.2.15:0/3725689");
	CHECK(cephfs_status_addr("instance: client.4138 (2)10.0.2.15:0/3725689\nblocklisted: false\n") ==
	      "10.0.2.15:0/3725689");
	CHECK(cephfs_status_addr("instance: client.1 (2)[fe80::1]:0/9\n") == "[fe80::1]:0/9");
	CHECK(cephfs_status_addr("instance: client.1 (2\n").empty());
	CHECK(cephfs_status_addr("instance: client.1 (x)10.0.2.15:0/1\n").empty());
	CHECK(cephfs_status_addr("instance: client.1 ()10.0.2.15:0/1\n").empty());
	CHECK(cephfs_status_addr("instance: client.4161\n").empty());
	CHECK(cephfs_status_addr("blocklisted: false\n").empty());
	CHECK(cephfs_status_addr("instance: client.1 10.0.2.15:0\n").empty());

	std::vector<std::string> a{"10.0.2.100:0/2716", "10.0.2.15:0/3725689"};
	CHECK(addrs_value(a) == "10.0.2.100:0/2716 10.0.2.15:0/3725689");
	CHECK(addrs_of(addrs_value(a)) == a);
	CHECK(addrs_of("").empty());
	CHECK(addrs_of("x 10.0.2.15:0/1  ;rm") == std::vector<std::string>{"10.0.2.15:0/1"});
	std::string many;
	for (int i = 0; i < 40; i++)
		many += "10.0.0.1:0/" + std::to_string(i) + " ";
	CHECK(addrs_of(many).size() == max_client_addrs);
}

TEST_CASE("the cluster's file system in meta", "[cluster]")
{
	FsIdent f{0xdeadbeef, 7};
	CHECK(fs_value(f) == "1 deadbeef 7");
	CHECK(fs_of("1 deadbeef 7") == f);
	CHECK(fs_of(fs_value({0, 0})) == FsIdent{0, 0});
	CHECK(fs_of(fs_value({0xffffffff, 4294967295U})) == FsIdent{0xffffffff, 4294967295U});
	CHECK_FALSE(fs_of(""));
	CHECK_FALSE(fs_of("1 deadbeef"));
	CHECK_FALSE(fs_of("1 deadbeef "));
	CHECK_FALSE(fs_of("2 deadbeef 7"));
	CHECK_FALSE(fs_of("1 DEADBEEF 7"));
	CHECK_FALSE(fs_of("1 deadbee 7"));
	CHECK_FALSE(fs_of("1 deadbeef 07"));
	CHECK_FALSE(fs_of("1 deadbeef 4294967296"));
	CHECK_FALSE(fs_of("1 deadbeef 7 "));
	CHECK_FALSE(fs_of("1 deadbeef -7"));
}
