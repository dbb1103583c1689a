// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/cluster.c: share checks, node aggregates, the cluster record's
// values and keys.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "cluster.h"
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
	smb_cluster_agg a{R | W | D, SR | SD}, b{};
	uint8_t buf[SMB_CLUSTER_REC_LEN + 4] = {};
	smb_cluster_rec_encode(&a, buf);
	CHECK(buf[0] == SMB_CLUSTER_REC_V1);
	REQUIRE(smb_cluster_rec_decode(buf, SMB_CLUSTER_REC_LEN, &b) == 0);
	CHECK(smb_cluster_agg_eq(&a, &b));
	// A later version's longer value: its first 12 bytes.
	CHECK(smb_cluster_rec_decode(buf, sizeof(buf), &b) == 0);
	for (size_t len = 0; len < SMB_CLUSTER_REC_LEN; len++)
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
