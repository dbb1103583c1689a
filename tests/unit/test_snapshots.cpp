// SPDX-License-Identifier: GPL-2.0-or-later
// vfs objects = shadow_copy2: the shadow: parameters and where a share's
// snapshots are (snapshots.cpp), as tree connects hand them to the module.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <linux/smbsrv.h>
#include <string>
#include <vector>

#include "config.hpp"
#include "fake_accounts.hpp"
#include "ntstatus.hpp"
#include "params.hpp"
#include "snapshots.hpp"
#include "tree.hpp"

using namespace smbsrv;

namespace {

namespace fs = std::filesystem;

struct TempDir {
	std::string path;
	TempDir()
	{
		std::string t = (fs::temp_directory_path() / "smbsrv-snap-XXXXXX").string();
		REQUIRE(mkdtemp(t.data()) != nullptr);
		path = t;
	}
	~TempDir() { fs::remove_all(path); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;
};

Config conf(const std::string &text, Diagnostics &d)
{
	return build_config(parse_conf_text(text, "test.conf", d), d);
}

TreeConnectReq req(const std::string &share)
{
	TreeConnectReq r;
	r.handle = 1;
	r.session_id = 1;
	r.user = "alice";
	r.client_addr = "10.0.2.2";
	r.share_name = share;
	return r;
}

} // namespace

TEST_CASE("shadow: parameters are checked as testparm would", "[snap][config]")
{
	Diagnostics d;
	Config c = conf("[s]\n\tpath = /srv/s\n\tvfs objects = shadow_copy2\n"
			"\tshadow:format = snap-%Y%m%d-%H%M%S\n\tshadow:sort = asc\n",
			d);
	CHECK_FALSE(d.has_errors());
	CHECK(d.all().empty()); // shadow_copy2 is a module smbsrv knows
	REQUIRE(c.share("s"));
	CHECK(c.share("s")->params.str("shadow:format") == "snap-%Y%m%d-%H%M%S");
	CHECK(c.share("s")->params.str("shadow:snapdir") == ".snapshots");

	Diagnostics bad;
	conf("[s]\n\tpath = /srv/s\n\tshadow:format = %Y/%m/%d\n", bad);
	REQUIRE(bad.has_errors());
	CHECK(bad.all().front().str().find("test.conf:3") != std::string::npos);
	CHECK(bad.all().front().str().find("shadow:format") != std::string::npos);

	// Accepted, but not what smbsrv does yet: said so.
	Diagnostics later;
	conf("[s]\n\tpath = /srv/s\n\tshadow:localtime = yes\n"
	     "\tshadow:snapdirseverywhere = yes\n", later);
	CHECK_FALSE(later.has_errors());
	REQUIRE(later.all().size() == 1);
	CHECK(later.all().front().str().find("shadow:snapdirseverywhere") != std::string::npos);
}

TEST_CASE("snapshot directories: relative to the mount point, basedir, sort",
	  "[snap]")
{
	TempDir t;
	fs::create_directories(t.path + "/vol/data/share");
	Diagnostics d;
	const std::string share = t.path + "/vol/data/share";
	Config c = conf("[a]\n\tpath = " + share + "\n\tvfs objects = shadow_copy2\n"
			"\tshadow:mountpoint = " + t.path + "/vol\n" +
			"[b]\n\tpath = " + share + "\n\tvfs objects = shadow_copy2\n" +
			"\tshadow:mountpoint = " + t.path + "/vol/\n" +
			"\tshadow:basedir = " + t.path + "/vol/data\n" +
			"\tshadow:snapdir = /snaps/x/\n\tshadow:sort = asc\n" +
			"[c]\n\tpath = " + share + "\n\tvfs objects = shadow_copy2\n" +
			"\tshadow:basedir = " + share + "\n\tshadow:sort = none\n" +
			"[d]\n\tpath = " + share + "\n\tvfs objects = shadow_copy2\n" +
			"\tshadow:mountpoint = /elsewhere\n" +
			"[e]\n\tpath = " + share + "\n\tvfs objects = shadow_copy2\n" +
			"\tshadow:mountpoint = " + t.path + "/vol\n" +
			"\tshadow:basedir = " + t.path + "/other\n" +
			"[f]\n\tpath = " + t.path + "/missing\n\tvfs objects = shadow_copy2\n" +
			"[plain]\n\tpath = " + share + "\n",
			d);
	REQUIRE_FALSE(d.has_errors());
	std::string why;

	auto a = shadow_copy_config(c.share("a")->params, share, &why);
	REQUIRE(a);
	CHECK(a->dir == t.path + "/vol/.snapshots");
	CHECK(a->subdir == "data/share");
	CHECK(a->format == "@GMT-%Y.%m.%d-%H.%M.%S");
	CHECK(a->sort == SMBSRV_SNAP_SORT_DESC); // Samba's default

	auto b = shadow_copy_config(c.share("b")->params, share, &why);
	REQUIRE(b);
	CHECK(b->dir == "/snaps/x");
	CHECK(b->subdir == "share");
	CHECK(b->sort == SMBSRV_SNAP_SORT_ASC);

	// No mount point given: Samba's, the top of the device (here the
	// temporary directory's file system); basedir makes it the share's.
	auto cc = shadow_copy_config(c.share("c")->params, share, &why);
	REQUIRE(cc);
	auto mp = find_mount_point(share);
	REQUIRE(mp);
	CHECK(share.starts_with(*mp));
	CHECK(cc->dir == (*mp == "/" ? "" : *mp) + "/.snapshots");
	CHECK(cc->subdir.empty());
	CHECK(cc->sort == SMBSRV_SNAP_SORT_UNSORTED);

	CHECK_FALSE(shadow_copy_config(c.share("d")->params, share, &why));
	CHECK(why.find("shadow:mountpoint") != std::string::npos);
	CHECK_FALSE(shadow_copy_config(c.share("e")->params, share, &why));
	CHECK(why.find("shadow:basedir") != std::string::npos);
	CHECK_FALSE(shadow_copy_config(c.share("f")->params, t.path + "/missing", &why));

	// The tree connect carries it to the module, or leaves it off.
	auto acc = test::accounts();
	auto ta = decide_tree_connect(c, req("a"), acc);
	REQUIRE(ta.status == nt::SUCCESS);
	CHECK((ta.share->flags & SMBSRV_SHARE_FLAGS_SHADOW_COPY));
	CHECK(ta.share->snap_dir == t.path + "/vol/.snapshots");
	CHECK(ta.share->snap_subdir == "data/share");
	CHECK(ta.share->snap_format == "@GMT-%Y.%m.%d-%H.%M.%S");
	auto td = decide_tree_connect(c, req("d"), acc);
	REQUIRE(td.status == nt::SUCCESS);
	CHECK_FALSE((td.share->flags & SMBSRV_SHARE_FLAGS_SHADOW_COPY));
	auto tp = decide_tree_connect(c, req("plain"), acc);
	REQUIRE(tp.status == nt::SUCCESS);
	CHECK_FALSE((tp.share->flags & SMBSRV_SHARE_FLAGS_SHADOW_COPY));
	CHECK(tp.share->snap_dir.empty());
}

namespace {

// TZ set for a test and put back after it.
struct WithTZ {
	std::optional<std::string> old;
	explicit WithTZ(const char *tz)
	{
		if (const char *o = std::getenv("TZ"))
			old = o;
		setenv("TZ", tz, 1);
		tzset();
	}
	~WithTZ()
	{
		if (old)
			setenv("TZ", old->c_str(), 1);
		else
			unsetenv("TZ");
		tzset();
	}
	WithTZ(const WithTZ &) = delete;
	WithTZ &operator=(const WithTZ &) = delete;
};

std::string local_name(const std::vector<smb_snap_zone> &z, u64 t)
{
	char buf[SMB_SNAP_NAME_MAX + 1];
	int n = smb_snap_name_in("%Y.%m.%d-%H.%M.%S", z.data(), static_cast<u32>(z.size()), t,
				 buf, sizeof(buf));
	return n < 0 ? "error" : std::string(buf);
}

std::string libc_local_name(u64 t)
{
	auto tt = static_cast<time_t>(t);
	struct tm tm {};
	localtime_r(&tt, &tm);
	char buf[64];
	return {buf, strftime(buf, sizeof(buf), "%Y.%m.%d-%H.%M.%S", &tm)};
}

} // namespace

TEST_CASE("shadow:localtime: the server's zone as the module reads it", "[snap]")
{
	// Zones with summer time both ways, half-hour steps, a change of
	// standard offset, none at all; the module's names are the C
	// library's local times, second for second around each change.
	for (const char *tz : {"Europe/Berlin", "America/New_York", "Australia/Lord_Howe",
			       "Asia/Kolkata", "Pacific/Apia", "UTC"}) {
		INFO(tz);
		WithTZ with(tz);
		auto z = local_zone();
		REQUIRE(smb_snap_zone_check(z.data(), static_cast<u32>(z.size())) == 0);
		for (size_t i = 1; i < z.size(); i++) {
			for (u64 t = z[i].from - 2; t <= z[i].from + 1; t++)
				REQUIRE(local_name(z, t) == libc_local_name(t));
		}
		// (From the second day: local times before 1970 name nothing.)
		for (u64 t = 2ULL * 86400; t < 4102444800ULL; t += 7777777)
			REQUIRE(local_name(z, t) == libc_local_name(t));
		if (std::string(tz) == "UTC")
			CHECK(z.size() == 1);
		if (std::string(tz) == "Europe/Berlin") {
			// Two changes a year since 1980, to 2100.
			CHECK(z.size() > size_t{2} * 115);
			CHECK(z.size() < SMB_SNAP_ZONE_MAX);
		}
	}
	// Another zone, another table: the cache follows TZ.
	std::vector<smb_snap_zone> a, b;
	{
		WithTZ with("Europe/Berlin");
		a = local_zone();
	}
	{
		WithTZ with("America/New_York");
		b = local_zone();
	}
	REQUIRE(!a.empty());
	REQUIRE(!b.empty());
	CHECK(a[0].off == 3600);
	CHECK(b[0].off == -5 * 3600);
}

TEST_CASE("shadow:localtime reaches the module with the tree connect", "[snap]")
{
	TempDir t;
	fs::create_directories(t.path + "/s/.snapshots");
	Diagnostics d;
	Config c = conf("[loc]\n\tpath = " + t.path + "/s\n\tvfs objects = shadow_copy2\n" +
				"\tshadow:localtime = yes\n\tshadow:mountpoint = " + t.path + "/s\n" +
				"[utc]\n\tpath = " + t.path + "/s\n\tvfs objects = shadow_copy2\n" +
				"\tshadow:mountpoint = " + t.path + "/s\n",
			d);
	REQUIRE_FALSE(d.has_errors());
	WithTZ with("Europe/Berlin");
	auto acc = test::accounts();
	auto tl = decide_tree_connect(c, req("loc"), acc);
	REQUIRE(tl.status == nt::SUCCESS);
	REQUIRE(tl.share->snap_zone.size() > 1);
	CHECK(tl.share->snap_zone[0].off == 3600);
	auto tu = decide_tree_connect(c, req("utc"), acc);
	REQUIRE(tu.status == nt::SUCCESS);
	CHECK(tu.share->snap_zone.empty());
}
