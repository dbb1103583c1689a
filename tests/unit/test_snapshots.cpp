// SPDX-License-Identifier: GPL-2.0-or-later
// vfs objects = shadow_copy2: the shadow: parameters and where a share's
// snapshots are (snapshots.cpp), as tree connects hand them to the module.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <linux/smbsrv.h>
#include <string>

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
	CHECK(later.all().size() == 2);
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
