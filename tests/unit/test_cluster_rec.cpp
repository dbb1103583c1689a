// SPDX-License-Identifier: GPL-2.0-or-later
// userd/lib/cluster_rec.cpp: the cluster record's names and what a node
// decides from a file's record, without Ceph.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cluster_rec.hpp"
#include "ntstatus.hpp"

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
	rec[open_key("b", "")] = open_value({R, SR});
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
	rec[open_key("b", "")] = open_value({R | W, SR | SW});
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
	rec[open_key("c", "")] = open_value({0, 0});
	CHECK(check_open(rec, "a", "", R | W, 0) == nt::SUCCESS);
}
