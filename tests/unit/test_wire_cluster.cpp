// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/cluster.c: share checks, node aggregates, the cluster record's
// values and keys.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "cluster.h"
#include "oplock.h"
}

namespace {

constexpr uint32_t R = FILE_READ_DATA;
constexpr uint32_t W = FILE_WRITE_DATA;
constexpr uint32_t D = DELETE;
constexpr uint32_t SR = FILE_SHARE_READ;
constexpr uint32_t SW = FILE_SHARE_WRITE;
constexpr uint32_t SD = FILE_SHARE_DELETE;

struct Open {
	uint32_t access, share;
};

} // namespace

TEST_CASE("share conflicts follow MS-FSA 2.1.5.1.2", "[wire][cluster]")
{
	CHECK(smb_share_conflict(W, SR | SW, R, SR));	// they deny write
	CHECK(smb_share_conflict(R, SR, W, SR | SW));	// we deny their write
	CHECK_FALSE(smb_share_conflict(R, SR, R, SR));
	CHECK(smb_share_conflict(D, SR | SW, R, SR | SW));
	CHECK_FALSE(smb_share_conflict(D, SR, R, SR | SW | SD));
	// Opens without data access take no part.
	CHECK_FALSE(smb_share_conflict(FILE_READ_ATTRIBUTES, 0, R, 0));
	CHECK_FALSE(smb_share_conflict(R, 0, FILE_READ_ATTRIBUTES, 0));
}

TEST_CASE("an aggregate conflicts exactly when one of its opens does", "[wire][cluster]")
{
	// Every set of up to two opens (from a small alphabet) against every
	// new open: the aggregate's answer is the opens' answer.
	const std::vector<uint32_t> accesses = {0, FILE_READ_ATTRIBUTES, R, W, D, R | W,
						 R | D, W | FILE_APPEND_DATA, FILE_EXECUTE};
	std::vector<Open> alphabet;
	for (uint32_t a : accesses)
		for (uint32_t s = 0; s <= FILE_SHARE_ALL; s++)
			alphabet.push_back({a, s});
	long checked = 0;
	for (const Open &o1 : alphabet) {
		for (const Open &o2 : alphabet) {
			smb_cluster_agg agg;
			smb_cluster_agg_init(&agg);
			smb_cluster_agg_add(&agg, o1.access, o1.share);
			smb_cluster_agg_add(&agg, o2.access, o2.share);
			for (const Open &n : alphabet) {
				bool each = smb_share_conflict(n.access, n.share, o1.access, o1.share) ||
					    smb_share_conflict(n.access, n.share, o2.access, o2.share);
				bool whole = smb_share_conflict(n.access, n.share, agg.access, agg.share);
				if (each != whole)
					FAIL("aggregate disagrees: " << o1.access << "/" << o1.share << " + "
						<< o2.access << "/" << o2.share << " vs " << n.access
						<< "/" << n.share);
				checked++;
			}
		}
	}
	CHECK(checked == long(alphabet.size() * alphabet.size() * alphabet.size()));
}

TEST_CASE("aggregates ignore opens without data access", "[wire][cluster]")
{
	smb_cluster_agg a;
	smb_cluster_agg_init(&a);
	CHECK(a.access == 0);
	CHECK(a.share == FILE_SHARE_ALL);
	smb_cluster_agg_add(&a, FILE_READ_ATTRIBUTES, 0);
	CHECK(a.access == 0);
	CHECK(a.share == FILE_SHARE_ALL);
	smb_cluster_agg_add(&a, R | FILE_READ_ATTRIBUTES, SR | SW);
	smb_cluster_agg_add(&a, W, SR | SD);
	CHECK(a.access == (R | W));
	CHECK(a.share == SR);
	smb_cluster_agg b = a;
	CHECK(smb_cluster_agg_eq(&a, &b));
	b.share = 0;
	CHECK_FALSE(smb_cluster_agg_eq(&a, &b));
}

TEST_CASE("record values round-trip and bad ones are refused", "[wire][cluster]")
{
	smb_cluster_agg a{R | W | D, SR | SD, 0}, b{};
	uint8_t buf[SMB_CLUSTER_REC_LEN + 4] = {};
	smb_cluster_rec_encode(&a, buf);
	CHECK(buf[0] == SMB_CLUSTER_REC_V1);
	REQUIRE(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_LEN, &b) == 0);
	CHECK(smb_cluster_agg_eq(&a, &b));
	// A later version's longer value: its first 16 bytes.
	CHECK(smb_cluster_rec_decode(buf, sizeof(buf), &b) == 0);
	for (size_t len = 0; len < SMB_CLUSTER_REC_MIN; len++)
		CHECK(smb_cluster_rec_decode(buf, len, &b) == -EINVAL);
	CHECK(smb_cluster_rec_decode(nullptr, 0, &b) == -EINVAL);
	buf[0] = 2;
	CHECK(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_LEN, &b) == -EINVAL);
	buf[0] = SMB_CLUSTER_REC_V1;
	buf[2] = 1; // reserved
	CHECK(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_LEN, &b) == -EINVAL);
	buf[2] = 0;
	buf[8] = 0x08; // a share bit that does not exist
	CHECK(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_LEN, &b) == -EINVAL);
}

TEST_CASE("o.NODE.S keys split into node and stream", "[wire][cluster]")
{
	auto split = [](const std::string &k, std::string &node, std::string &stream) {
		size_t nl = 0, so = 0, sl = 0;
		int r = smb_cluster_okey_split(k.data(), k.size(), &nl, &so, &sl);
		if (r == 0) {
			node = k.substr(2, nl);
			stream = k.substr(so, sl);
		}
		return r;
	};
	std::string n, s;
	REQUIRE(split("o.a.", n, s) == 0);
	CHECK(n == "a");
	CHECK(s.empty());
	REQUIRE(split("o.node1.user.DosStream.x:$DATA", n, s) == 0);
	CHECK(n == "node1");
	CHECK(s == "user.DosStream.x:$DATA");
	for (const char *bad : {"", "o", "o.", "o..", "o..x", "o.abc", "x.a.b", "O.a.b", "dp."})
		CHECK(split(bad, n, s) == -EINVAL);
}

namespace {

std::vector<uint8_t> lock_list(std::initializer_list<smb_cluster_lock> ls)
{
	std::vector<uint8_t> out(ls.size() * SMB_CLUSTER_LOCK_LEN);
	size_t i = 0;
	for (const auto &l : ls)
		smb_cluster_lock_encode(&l, out.data() + i++ * SMB_CLUSTER_LOCK_LEN);
	return out;
}

} // namespace

TEST_CASE("lock lists round-trip and bad ones are refused", "[wire][cluster]")
{
	auto b = lock_list({{0, 10, true}, {100, 0, false}, {~0ULL - 5, 5, false}});
	REQUIRE(smb_cluster_locks_check(b.data(), b.size()) == 3);
	smb_cluster_lock l{};
	smb_cluster_lock_get(b.data(), 1, &l);
	CHECK(l.offset == 100);
	CHECK(l.length == 0);
	CHECK_FALSE(l.exclusive);
	smb_cluster_lock_get(b.data(), 0, &l);
	CHECK(l.exclusive);
	CHECK(smb_cluster_locks_check(nullptr, 0) == 0);
	// Not a whole entry.
	CHECK(smb_cluster_locks_check(b.data(), b.size() - 1) == -EINVAL);
	// Unknown flags.
	auto f = b;
	f[16] = 2;
	CHECK(smb_cluster_locks_check(f.data(), f.size()) == -EINVAL);
	// A range past 2^64 - 1.
	auto r = lock_list({{~0ULL - 5, 7, false}});
	CHECK(smb_cluster_locks_check(r.data(), r.size()) == -EINVAL);
	// Too many.
	std::vector<uint8_t> many(size_t{SMB_CLUSTER_LOCKS_MAX + 1} * SMB_CLUSTER_LOCK_LEN);
	CHECK(smb_cluster_locks_check(many.data(), many.size()) == -EINVAL);
	CHECK(smb_cluster_locks_check(many.data(), many.size() - SMB_CLUSTER_LOCK_LEN) ==
	      SMB_CLUSTER_LOCKS_MAX);
}

TEST_CASE("another node's locks conflict as another open's would", "[wire][cluster]")
{
	auto b = lock_list({{100, 10, true}, {200, 10, false}});
	const size_t n = 2;
	// Locks.
	CHECK(smb_cluster_locks_conflict(b.data(), n, 105, 1, false, true));
	CHECK(smb_cluster_locks_conflict(b.data(), n, 95, 10, true, true));
	CHECK_FALSE(smb_cluster_locks_conflict(b.data(), n, 110, 10, true, true));
	CHECK_FALSE(smb_cluster_locks_conflict(b.data(), n, 200, 10, false, true));
	CHECK(smb_cluster_locks_conflict(b.data(), n, 205, 1, true, true));
	// I/O: a read under a shared lock is fine, a write is not.
	CHECK(smb_cluster_locks_conflict(b.data(), n, 100, 1, false, false));
	CHECK_FALSE(smb_cluster_locks_conflict(b.data(), n, 200, 5, false, false));
	CHECK(smb_cluster_locks_conflict(b.data(), n, 200, 5, true, false));
	CHECK_FALSE(smb_cluster_locks_conflict(b.data(), 0, 100, 1, true, true));
}

TEST_CASE("pushes round-trip and bad ones are refused", "[wire][cluster]")
{
	auto locks = lock_list({{1, 2, true}});
	const std::string node = "node-a_1", stream = "user.DosStream.x:$DATA";
	smb_cluster_push p{SMB_CLUSTER_PUSH_LOCKS, 0x1234567890, 42, node.data(), node.size(),
			   stream.data(), stream.size(), locks.data(), 1, 0};
	std::vector<uint8_t> buf(smb_cluster_push_len(&p));
	smb_cluster_push_encode(&p, buf.data());
	smb_cluster_push q{};
	REQUIRE(smb_cluster_push_decode(buf.data(), buf.size(), &q) == 0);
	CHECK(q.ino == 0x1234567890);
	CHECK(q.version == 42);
	CHECK(std::string(q.node, q.node_len) == node);
	CHECK(std::string(q.stream, q.stream_len) == stream);
	CHECK(q.nr_locks == 1);
	// No locks: the node holds none now.
	p.nr_locks = 0;
	std::vector<uint8_t> empty(smb_cluster_push_len(&p));
	smb_cluster_push_encode(&p, empty.data());
	REQUIRE(smb_cluster_push_decode(empty.data(), empty.size(), &q) == 0);
	CHECK(q.nr_locks == 0);
	// Truncated anywhere but after the stream (then it has no locks).
	const size_t fixed = SMB_CLUSTER_PUSH_HDR + node.size() + stream.size();
	for (size_t len = 0; len < buf.size(); len++)
		CHECK(smb_cluster_push_decode(buf.data(), len, &q) ==
		      (len == fixed ? 0 : -EINVAL));
	auto bad = buf;
	bad[0] = 6; // no such kind
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);
	bad[0] = 0;
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);
	bad = buf;
	bad[1] = 0; // no node
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);
	bad = buf;
	bad[SMB_CLUSTER_PUSH_HDR] = '.'; // not a node name
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);
	bad = buf;
	bad[SMB_CLUSTER_PUSH_HDR + node.size()] = 0; // NUL in the stream
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);
}

TEST_CASE("b.NODE.S keys split like o. keys", "[wire][cluster]")
{
	size_t nl = 0, so = 0, sl = 0;
	const std::string k = "b.nodeA.s.x";
	REQUIRE(smb_cluster_key_split(k.data(), k.size(), 'b', &nl, &so, &sl) == 0);
	CHECK(k.substr(2, nl) == "nodeA");
	CHECK(k.substr(so, sl) == "s.x");
	CHECK(smb_cluster_okey_split(k.data(), k.size(), &nl, &so, &sl) == -EINVAL);
}

TEST_CASE("record values carry the node's caching", "[wire][cluster]")
{
	smb_cluster_agg a{R | W, SR, SMB2_LEASE_READ | SMB2_LEASE_HANDLE}, b{};
	uint8_t buf[SMB_CLUSTER_REC_LEN] = {};
	smb_cluster_rec_encode(&a, buf);
	REQUIRE(smb_cluster_rec_decode(buf, sizeof(buf), &b) == 0);
	CHECK(smb_cluster_agg_eq(&a, &b));
	CHECK(b.caching == (SMB2_LEASE_READ | SMB2_LEASE_HANDLE));
	// A 12-byte value (written before caching was recorded): none.
	REQUIRE(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_MIN, &b) == 0);
	CHECK(b.caching == 0);
	CHECK(b.access == (R | W));
	// Between the two: the caching word is cut, the value is not refused.
	CHECK(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_MIN + 2, &b) == 0);
	CHECK(b.caching == 0);
	// Bits beyond R, H, W are refused.
	buf[12] = 0x08;
	CHECK(smb_cluster_rec_decode(buf, sizeof(buf), &b) == -EINVAL);
	// Caching makes two aggregates differ (the fast path looks at it).
	smb_cluster_agg c = a;
	c.caching = 0;
	CHECK_FALSE(smb_cluster_agg_eq(&a, &c));
}

TEST_CASE("another node's open breaks caching as a kernel lease would", "[wire][cluster]")
{
	const uint32_t RL = SMB2_LEASE_READ, HL = SMB2_LEASE_HANDLE, WL = SMB2_LEASE_WRITE;
	const uint32_t RWH = RL | WL | HL;
	// A reader takes W only; a writer (or appender) takes everything.
	CHECK(smb_cluster_break_bits(RWH, R, false) == WL);
	CHECK(smb_cluster_break_bits(RWH, R | W, false) == RWH);
	CHECK(smb_cluster_break_bits(RL | HL, FILE_APPEND_DATA, false) == (RL | HL));
	CHECK(smb_cluster_break_bits(RL | HL, R, false) == 0);
	// A sharing violation takes H, so the holder's client closes.
	CHECK(smb_cluster_break_bits(RL | HL, R, true) == HL);
	// An open without data access (a stat open) breaks nothing.
	CHECK(smb_cluster_break_bits(RWH, FILE_READ_ATTRIBUTES, true) == 0);
	// Only what is held is given up.
	CHECK(smb_cluster_break_bits(RL, R | W, true) == RL);
	CHECK(smb_cluster_break_bits(0, R | W, true) == 0);
	// What a node may cache beside another node's opens.
	CHECK(smb_cluster_cover(0) == RWH);
	CHECK(smb_cluster_cover(FILE_READ_ATTRIBUTES) == RWH);
	CHECK(smb_cluster_cover(R) == (RL | HL));
	CHECK(smb_cluster_cover(R | W) == 0);
	CHECK(smb_cluster_cover(FILE_APPEND_DATA) == 0);
	// The two agree: what the cover allows, that node's open does not take.
	for (uint32_t acc : {0u, R, R | W, uint32_t(FILE_APPEND_DATA), uint32_t(D)})
		CHECK((smb_cluster_break_bits(RWH, acc, false) & smb_cluster_cover(acc)) == 0);
}

TEST_CASE("break and wake pushes round-trip and bad ones are refused", "[wire][cluster]")
{
	const std::string node = "nodeB", stream;
	smb_cluster_push p{SMB_CLUSTER_PUSH_BREAK, 77, 0, node.data(), node.size(),
			   stream.data(), 0, nullptr, 0, SMB2_LEASE_WRITE | SMB2_LEASE_HANDLE};
	std::vector<uint8_t> buf(smb_cluster_push_len(&p));
	CHECK(buf.size() == SMB_CLUSTER_PUSH_HDR + node.size() + 4);
	smb_cluster_push_encode(&p, buf.data());
	smb_cluster_push q{};
	REQUIRE(smb_cluster_push_decode(buf.data(), buf.size(), &q) == 0);
	CHECK(q.kind == SMB_CLUSTER_PUSH_BREAK);
	CHECK(q.ino == 77);
	CHECK(q.caching == (SMB2_LEASE_WRITE | SMB2_LEASE_HANDLE));
	CHECK(q.nr_locks == 0);
	for (size_t len = 0; len < buf.size(); len++)
		CHECK(smb_cluster_push_decode(buf.data(), len, &q) == -EINVAL);
	auto bad = buf;
	bad.push_back(0); // a break carries exactly its four bytes
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);
	bad = buf;
	bad.back() = 0x10; // not a lease bit
	CHECK(smb_cluster_push_decode(bad.data(), bad.size(), &q) == -EINVAL);

	p.kind = SMB_CLUSTER_PUSH_WAKE;
	buf.assign(smb_cluster_push_len(&p), 0);
	CHECK(buf.size() == SMB_CLUSTER_PUSH_HDR + node.size());
	smb_cluster_push_encode(&p, buf.data());
	REQUIRE(smb_cluster_push_decode(buf.data(), buf.size(), &q) == 0);
	CHECK(q.kind == SMB_CLUSTER_PUSH_WAKE);
	CHECK(q.caching == 0);
	buf.push_back(1); // a wake carries nothing
	CHECK(smb_cluster_push_decode(buf.data(), buf.size(), &q) == -EINVAL);

	// Directory marks carry their bits as a break does, changes nothing.
	p.kind = SMB_CLUSTER_PUSH_DIRMARK;
	p.caching = SMB2_LEASE_READ | SMB2_LEASE_HANDLE;
	buf.assign(smb_cluster_push_len(&p), 0);
	CHECK(buf.size() == SMB_CLUSTER_PUSH_HDR + node.size() + 4);
	smb_cluster_push_encode(&p, buf.data());
	REQUIRE(smb_cluster_push_decode(buf.data(), buf.size(), &q) == 0);
	CHECK(q.kind == SMB_CLUSTER_PUSH_DIRMARK);
	CHECK(q.caching == (SMB2_LEASE_READ | SMB2_LEASE_HANDLE));
	buf.pop_back();
	CHECK(smb_cluster_push_decode(buf.data(), buf.size(), &q) == -EINVAL);
	p.kind = SMB_CLUSTER_PUSH_DIRCHANGE;
	buf.assign(smb_cluster_push_len(&p), 0);
	CHECK(buf.size() == SMB_CLUSTER_PUSH_HDR + node.size());
	smb_cluster_push_encode(&p, buf.data());
	REQUIRE(smb_cluster_push_decode(buf.data(), buf.size(), &q) == 0);
	CHECK(q.kind == SMB_CLUSTER_PUSH_DIRCHANGE);
	buf.push_back(1);
	CHECK(smb_cluster_push_decode(buf.data(), buf.size(), &q) == -EINVAL);
}
