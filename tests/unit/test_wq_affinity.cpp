// SPDX-License-Identifier: GPL-2.0-or-later
//
// smbsrvd sets the unbound request queue's affinity through sysfs: what it
// writes where, what it leaves alone, and what it reports when it cannot.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "wq_affinity.hpp"

using namespace smbsrv;
namespace fs = std::filesystem;

namespace {

struct TmpSysfs {
	fs::path root;
	TmpSysfs()
	{
		std::string t = (fs::temp_directory_path() / "wqsysfs.XXXXXX").string();
		REQUIRE(mkdtemp(t.data()) != nullptr);
		root = t;
	}
	~TmpSysfs() { fs::remove_all(root); }
	TmpSysfs(const TmpSysfs &) = delete;
	TmpSysfs &operator=(const TmpSysfs &) = delete;

	// A workqueue directory as the kernel shows it (the files exist).
	void queue(const std::string &name)
	{
		fs::create_directories(root / name);
		std::ofstream(root / name / "affinity_scope") << "default (cache)\n";
		std::ofstream(root / name / "affinity_strict") << "1\n";
	}
	std::string read(const std::string &rel) const
	{
		std::ifstream f(root / rel);
		std::stringstream ss;
		ss << f.rdbuf();
		return ss.str();
	}
};

QueueInfo q(const std::string &name, bool unbound)
{
	QueueInfo i;
	i.name = name;
	i.unbound = unbound;
	return i;
}

} // namespace

TEST_CASE("unbound queues get scope cpu, not strict; per-CPU ones are left alone")
{
	TmpSysfs s;
	s.queue("smbsrv");
	s.queue("smbsrv-unbound");
	auto problems = tune_unbound_queues({q("smbsrv", false), q("smbsrv-unbound", true)},
					    s.root.string());
	CHECK(problems.empty());
	CHECK(s.read("smbsrv-unbound/affinity_scope") == "cpu\n");
	CHECK(s.read("smbsrv-unbound/affinity_strict") == "0\n");
	CHECK(s.read("smbsrv/affinity_scope") == "default (cache)\n");
	CHECK(s.read("smbsrv/affinity_strict") == "1\n");
}

TEST_CASE("a kernel without the files, or a strange name, is reported")
{
	TmpSysfs s;
	fs::create_directories(s.root / "smbsrv-unbound"); // no attribute files
	auto problems = tune_unbound_queues({q("smbsrv-unbound", true)}, s.root.string());
	REQUIRE(problems.size() == 2);
	CHECK(problems[0].find("affinity_scope") != std::string::npos);
	CHECK(problems[1].find("affinity_strict") != std::string::npos);

	for (const char *bad : {"", "..", ".", "a/b", "../../etc"}) {
		auto p = tune_unbound_queues({q(bad, true)}, s.root.string());
		REQUIRE(p.size() == 1);
		CHECK(p[0].find("unusable name") != std::string::npos);
	}
	CHECK_FALSE(fs::exists(s.root / "affinity_scope"));
}
