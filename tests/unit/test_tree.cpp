// SPDX-License-Identifier: GPL-2.0-or-later
// Tree connect decisions and hosts allow/deny.
#include <catch2/catch.hpp>

#include <linux/smbsrv.h>
#include <map>

#include "config.hpp"
#include "fake_accounts.hpp"
#include "hosts.hpp"
#include "ntstatus.hpp"
#include "params.hpp"
#include "tree.hpp"

using namespace smbsrv;

namespace {

using test::FakeAccounts;
using test::accounts;

Config conf(const std::string &text)
{
	Diagnostics d;
	Config c = build_config(parse_conf_text(text, "test.conf", d), d);
	INFO(text);
	for (const auto &x : d.all())
		UNSCOPED_INFO(x.str());
	REQUIRE_FALSE(d.has_errors());
	return c;
}

TreeConnectReq req(const std::string &share, const std::string &user = "alice",
		   uint32_t flags = 0, const std::string &addr = "10.0.2.2")
{
	TreeConnectReq r;
	r.handle = 42;
	r.session_id = 1;
	r.user = user;
	r.session_flags = flags;
	r.client_addr = addr;
	r.share_name = share;
	return r;
}

const char *kConf = R"(
[global]
	workgroup = WORKGROUP
	hosts deny = 192.168.66.0/24
[demo]
	path = /srv/demo
	read only = no
[public]
	path = /srv/public/
	guest ok = yes
[family]
	path = /srv/family
	valid users = @family, demo
	invalid users = bob
	read only = no
	read list = demo
[docs]
	path = /srv/docs
	write list = alice
	vfs objects = streams_xattr acl_xattr
	force user = demo
	force group = family
	create mask = 0640
	veto files = /*.exe/.DS_Store/
	hide dot files = no
	hide unreadable = yes
	oplocks = no
	follow symlinks = yes
[office]
	path = /srv/office
	hosts allow = 10.0.0.0/8 EXCEPT 10.0.9.0/24
	hosts deny = ALL
[lab]
	path = /srv/lab
	hosts allow = 10.0.0.0/8
[ghost]
	path = /srv/ghost
	force user = nosuchuser
[homes-like]
	path = /srv/h
	valid users = %U
	write list = %S
[guestbook]
	path = /srv/guestbook
	guest ok = yes
	guest account = demo
)";

} // namespace

TEST_CASE("unknown shares are BAD_NETWORK_NAME; names are case-insensitive", "[tree]")
{
	Config c = conf(kConf);
	FakeAccounts a = accounts();
	auto d = decide_tree_connect(c, req("nosuch"), a);
	CHECK(d.handle == 42);
	CHECK(d.status == nt::BAD_NETWORK_NAME);
	CHECK_FALSE(d.share);
	CHECK(decide_tree_connect(c, req(""), a).status == nt::BAD_NETWORK_NAME);
	d = decide_tree_connect(c, req("DEMO"), a);
	REQUIRE(d.status == nt::SUCCESS);
	CHECK(d.share->name == "demo");
	CHECK(d.share->path == "/srv/demo");
	// A whole UNC path is reduced to its share.
	CHECK(decide_tree_connect(c, req("\\\\server\\demo"), a).status == nt::SUCCESS);
}

TEST_CASE("share flags, masks and paths come from the configuration", "[tree]")
{
	Config c = conf(kConf);
	FakeAccounts a = accounts();
	auto demo = decide_tree_connect(c, req("demo"), a).share;
	REQUIRE(demo);
	uint32_t f = demo->flags;
	CHECK_FALSE((f & SMBSRV_SHARE_FLAGS_READ_ONLY));
	CHECK((f & SMBSRV_SHARE_FLAGS_BROWSEABLE));
	CHECK((f & SMBSRV_SHARE_FLAGS_OPLOCKS));
	CHECK((f & SMBSRV_SHARE_FLAGS_HIDE_DOT_FILES));
	CHECK((f & SMBSRV_SHARE_FLAGS_STORE_DOS_ATTRIBUTES));
	CHECK((f & SMBSRV_SHARE_FLAGS_CROSSMNT));
	CHECK_FALSE((f & SMBSRV_SHARE_FLAGS_FOLLOW_SYMLINKS)); // ksmbd's default
	CHECK_FALSE((f & (SMBSRV_SHARE_FLAGS_IPC | SMBSRV_SHARE_FLAGS_STREAMS |
			  SMBSRV_SHARE_FLAGS_ACL_XATTR | SMBSRV_SHARE_FLAGS_GUEST_OK |
			  SMBSRV_SHARE_FLAGS_ENCRYPT |
			  SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE))); // Samba's default
	CHECK(demo->create_mask == 0744);
	CHECK(demo->directory_mask == 0755);
	CHECK_FALSE(demo->force_uid);

	auto pub = decide_tree_connect(c, req("public"), a).share;
	REQUIRE(pub);
	CHECK(pub->path == "/srv/public"); // trailing slash dropped
	CHECK((pub->flags & SMBSRV_SHARE_FLAGS_READ_ONLY)); // the default
	CHECK((pub->flags & SMBSRV_SHARE_FLAGS_GUEST_OK));

	auto docs = decide_tree_connect(c, req("docs", "carol"), a).share;
	REQUIRE(docs);
	CHECK((docs->flags & SMBSRV_SHARE_FLAGS_STREAMS));
	CHECK((docs->flags & SMBSRV_SHARE_FLAGS_ACL_XATTR));
	CHECK_FALSE((docs->flags & SMBSRV_SHARE_FLAGS_HIDE_DOT_FILES));
	CHECK((docs->flags & SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE));
	CHECK_FALSE((docs->flags & SMBSRV_SHARE_FLAGS_OPLOCKS));
	CHECK((docs->flags & SMBSRV_SHARE_FLAGS_FOLLOW_SYMLINKS));
	CHECK(docs->force_uid == 1000u);
	CHECK(docs->force_gid == 1100u); // force group wins over demo's group
	CHECK(docs->create_mask == 0640);
	CHECK(docs->veto_files == "/*.exe/.DS_Store/");

	auto ipc = decide_tree_connect(c, req("IPC$"), a);
	REQUIRE(ipc.status == nt::SUCCESS);
	CHECK((ipc.share->flags & SMBSRV_SHARE_FLAGS_IPC));
	CHECK(ipc.share->path.empty());

	// A force user that does not exist refuses rather than guesses.
	CHECK(decide_tree_connect(c, req("ghost"), a).status == nt::ACCESS_DENIED);
}

TEST_CASE("a share's max connections: its own, never [global]'s", "[tree]")
{
	Config c = conf("[global]\n\tmax connections = 50\n"
			"[limited]\n\tpath = /srv/l\n\tmax connections = 3\n"
			"[open]\n\tpath = /srv/o\n"
			"[zero]\n\tpath = /srv/z\n\tmax connections = 0\n");
	FakeAccounts a = accounts();
	CHECK(c.knobs.max_connections == 50);
	auto limited = decide_tree_connect(c, req("limited"), a).share;
	REQUIRE(limited);
	CHECK(limited->max_connections == 3);
	// No limit unless the share sets one (Samba's and ksmbd's default).
	auto open = decide_tree_connect(c, req("open"), a).share;
	REQUIRE(open);
	CHECK(open->max_connections == 0);
	CHECK_FALSE(c.share("open")->params.has("max connections"));
	CHECK(dump_share(*c.share("open"), true).find("max connections") == std::string::npos);
	// 0, as above 65536, is 65536: no limit in effect either.
	auto zero = decide_tree_connect(c, req("zero"), a).share;
	REQUIRE(zero);
	CHECK(zero->max_connections == 65536);
}

TEST_CASE("read only, read list and write list", "[tree]")
{
	Config c = conf(kConf);
	FakeAccounts a = accounts();
	auto ro = [&](const std::string &share, const std::string &user) {
		auto d = decide_tree_connect(c, req(share, user), a);
		REQUIRE(d.status == nt::SUCCESS);
		return (d.share->flags & SMBSRV_SHARE_FLAGS_READ_ONLY) != 0;
	};
	CHECK_FALSE(ro("family", "alice"));
	CHECK(ro("family", "demo")); // read list beats read only = no
	CHECK_FALSE(ro("docs", "alice")); // write list beats read only = yes
	CHECK(ro("docs", "carol"));
}

TEST_CASE("valid users, invalid users and @groups", "[tree]")
{
	Config c = conf(kConf);
	FakeAccounts a = accounts();
	auto st = [&](const std::string &user) {
		return decide_tree_connect(c, req("family", user), a).status;
	};
	CHECK(st("alice") == nt::SUCCESS);   // @family
	CHECK(st("demo") == nt::SUCCESS);    // by name
	CHECK(st("DEMO") == nt::SUCCESS);    // names without case
	CHECK(st("bob") == nt::ACCESS_DENIED);   // in @family but invalid
	CHECK(st("carol") == nt::ACCESS_DENIED); // not valid
	CHECK(st("stranger") == nt::ACCESS_DENIED);
}

TEST_CASE("domain users without a Unix account are DOMAIN\\user in user lists", "[tree]")
{
	Config c = conf("[eng]\n\tpath = /srv/eng\n\tvalid users = ADSMB\\pat alice\n");
	FakeAccounts a = accounts();
	auto st = [&](const std::string &user) {
		return decide_tree_connect(c, req("eng", user), a).status;
	};
	CHECK(st("ADSMB\\pat") == nt::SUCCESS);
	CHECK(st("adsmb\\PAT") == nt::SUCCESS);
	CHECK(st("ADSMB\\nick") == nt::ACCESS_DENIED);
	CHECK(st("pat") == nt::ACCESS_DENIED);
}

TEST_CASE("%U and %S in user lists; a share's own guest account", "[tree]")
{
	Config c = conf(kConf);
	FakeAccounts a = accounts();
	CHECK(decide_tree_connect(c, req("homes-like", "carol"), a).status == nt::SUCCESS);
	auto g = decide_tree_connect(c, req("guestbook", "nobody", SMBSRV_SESSION_FLAGS_GUEST), a);
	REQUIRE(g.status == nt::SUCCESS);
	CHECK(g.share->force_uid == 1000u);
	CHECK(g.share->force_gid == 1000u);
	// Users with a password keep their own identity there.
	auto u = decide_tree_connect(c, req("guestbook", "alice"), a);
	REQUIRE(u.status == nt::SUCCESS);
	CHECK_FALSE(u.share->force_uid);
}

TEST_CASE("guests, null sessions and restrict anonymous", "[tree]")
{
	FakeAccounts a = accounts();
	for (uint32_t flag : {SMBSRV_SESSION_FLAGS_GUEST, SMBSRV_SESSION_FLAGS_ANONYMOUS}) {
		Config c = conf(kConf);
		CHECK(decide_tree_connect(c, req("public", "nobody", flag), a).status == nt::SUCCESS);
		CHECK(decide_tree_connect(c, req("demo", "nobody", flag), a).status ==
		      nt::ACCESS_DENIED);
		CHECK(decide_tree_connect(c, req("IPC$", "nobody", flag), a).status == nt::SUCCESS);
		Config r = conf(std::string(kConf) + "[global]\n restrict anonymous = 2\n");
		CHECK(decide_tree_connect(r, req("IPC$", "nobody", flag), a).status ==
		      nt::ACCESS_DENIED);
		CHECK(decide_tree_connect(r, req("public", "nobody", flag), a).status ==
		      nt::SUCCESS);
		// Users with a password are not affected.
		CHECK(decide_tree_connect(r, req("IPC$", "alice"), a).status == nt::SUCCESS);
	}
}

TEST_CASE("hosts allow / hosts deny in tree connects", "[tree]")
{
	Config c = conf(kConf);
	FakeAccounts a = accounts();
	auto st = [&](const std::string &share, const std::string &addr) {
		return decide_tree_connect(c, req(share, "alice", 0, addr), a).status;
	};
	// [global]'s hosts deny is every share's default.
	CHECK(st("demo", "192.168.66.7") == nt::ACCESS_DENIED);
	CHECK(st("demo", "::ffff:192.168.66.7") == nt::ACCESS_DENIED);
	CHECK(st("demo", "192.168.67.7") == nt::SUCCESS);
	CHECK(st("office", "10.1.2.3") == nt::SUCCESS);
	CHECK(st("office", "10.0.9.3") == nt::ACCESS_DENIED);
	CHECK(st("office", "172.16.0.1") == nt::ACCESS_DENIED);
	// Both lists (the deny list from [global]): the allow list wins and
	// a host in neither is allowed, as in Samba.
	CHECK(st("lab", "10.1.1.1") == nt::SUCCESS);
	CHECK(st("lab", "172.16.0.1") == nt::SUCCESS);
	CHECK(st("lab", "192.168.66.1") == nt::ACCESS_DENIED);
}

TEST_CASE("smb3 encryption = mandatory marks the share", "[tree]")
{
	FakeAccounts a = accounts();
	Config g = conf("[global]\nsmb3 encryption = mandatory\n[s]\npath = /s\n");
	auto d = decide_tree_connect(g, req("s"), a);
	REQUIRE(d.share);
	CHECK((d.share->flags & SMBSRV_SHARE_FLAGS_ENCRYPT));
	Config s = conf("[s]\npath = /s\nsmb3 encryption = mandatory\n[t]\npath = /t\n");
	CHECK((decide_tree_connect(s, req("s"), a).share->flags & SMBSRV_SHARE_FLAGS_ENCRYPT));
	CHECK_FALSE((decide_tree_connect(s, req("t"), a).share->flags & SMBSRV_SHARE_FLAGS_ENCRYPT));
}

TEST_CASE("host lists: addresses, prefixes, masks, ALL, EXCEPT", "[hosts]")
{
	using V = std::vector<std::string>;
	CHECK(host_list_matches(V{"ALL"}, "1.2.3.4"));
	CHECK(host_list_matches(V{"all"}, "2001:db8::1"));
	CHECK(host_list_matches(V{"10.0.2.2"}, "10.0.2.2"));
	CHECK_FALSE(host_list_matches(V{"10.0.2.2"}, "10.0.2.3"));
	CHECK(host_list_matches(V{"10.0.0.0/8"}, "10.200.1.1"));
	CHECK_FALSE(host_list_matches(V{"10.0.0.0/8"}, "11.0.0.1"));
	CHECK(host_list_matches(V{"192.168.1.0/255.255.255.0"}, "192.168.1.77"));
	CHECK_FALSE(host_list_matches(V{"192.168.1.0/255.255.255.0"}, "192.168.2.77"));
	CHECK(host_list_matches(V{"192.168."}, "192.168.9.9"));
	CHECK_FALSE(host_list_matches(V{"192.168."}, "192.169.9.9"));
	CHECK(host_list_matches(V{"fd00::/8"}, "fd12::1"));
	CHECK_FALSE(host_list_matches(V{"fd00::/8"}, "fe80::1"));
	CHECK(host_list_matches(V{"::1"}, "::1"));
	CHECK(host_list_matches(V{"localhost"}, "127.0.0.1"));
	CHECK(host_list_matches(V{"localhost"}, "::1"));
	CHECK(host_list_matches(V{"10.0.0.0/8"}, "::ffff:10.1.1.1"));
	CHECK(host_list_matches(V{"fe80::/10"}, "fe80::1%eth0"));
	CHECK(host_list_matches(V{"10.", "EXCEPT", "10.0.9."}, "10.1.1.1"));
	CHECK_FALSE(host_list_matches(V{"10.", "EXCEPT", "10.0.9."}, "10.0.9.1"));
	CHECK_FALSE(host_list_matches(V{"10.", "EXCEPT", "10.0.9."}, "11.0.9.1"));
	// An unusable entry never matches; neither does a bad address.
	CHECK_FALSE(host_list_matches(V{"fileserver.example.org"}, "10.0.0.1"));
	CHECK_FALSE(host_list_matches(V{"10.0.0.0/33"}, "10.0.0.1"));
	CHECK_FALSE(host_list_matches(V{"10.0.0.0/255.0.255.0"}, "10.0.0.1"));
	CHECK_FALSE(host_list_matches(V{"ALL"}, "not-an-address"));
	CHECK(check_host_entry("10.0.0.0/8").empty());
	CHECK(check_host_entry("EXCEPT").empty());
	CHECK_FALSE(check_host_entry("fileserver").empty());
	CHECK_FALSE(check_host_entry("1.2.3.4/").empty());
}

TEST_CASE("allow and deny combine as Samba combines them", "[hosts]")
{
	using V = std::vector<std::string>;
	CHECK(host_allowed({}, {}, "1.2.3.4"));
	CHECK(host_allowed(V{"10.0.0.0/8"}, {}, "10.1.1.1"));
	CHECK_FALSE(host_allowed(V{"10.0.0.0/8"}, {}, "11.1.1.1"));
	CHECK_FALSE(host_allowed({}, V{"10.0.0.0/8"}, "10.1.1.1"));
	CHECK(host_allowed({}, V{"10.0.0.0/8"}, "11.1.1.1"));
	// Both: allow wins; in neither is allowed.
	CHECK(host_allowed(V{"10.1.0.0/16"}, V{"10.0.0.0/8"}, "10.1.1.1"));
	CHECK_FALSE(host_allowed(V{"10.1.0.0/16"}, V{"10.0.0.0/8"}, "10.2.1.1"));
	CHECK(host_allowed(V{"10.1.0.0/16"}, V{"10.0.0.0/8"}, "12.2.1.1"));
	CHECK_FALSE(host_allowed(V{"10.1.0.0/16"}, V{"ALL"}, "12.2.1.1"));
}

TEST_CASE("admin users, by name or @group, work as root on the share", "[tree]")
{
	Config c = conf(R"(
[global]
	admin users = carol
[team]
	path = /srv/team
	admin users = @family demo
	force user = nobody
[plain]
	path = /srv/plain
)");
	FakeAccounts a = accounts();
	for (const char *u : {"alice", "bob", "demo"}) {
		CAPTURE(u);
		auto d = decide_tree_connect(c, req("team", u), a);
		REQUIRE(d.status == nt::SUCCESS);
		CHECK(d.share->force_uid == 0u);
		CHECK(d.share->force_gid == 0u);
	}
	// Not an admin there: force user applies as before.
	auto d = decide_tree_connect(c, req("team", "carol"), a);
	REQUIRE(d.status == nt::SUCCESS);
	CHECK(d.share->force_uid == 65534u);
	// [global] sets the default for shares that do not set it.
	d = decide_tree_connect(c, req("plain", "carol"), a);
	REQUIRE(d.status == nt::SUCCESS);
	CHECK(d.share->force_uid == 0u);
	d = decide_tree_connect(c, req("plain", "alice"), a);
	REQUIRE(d.status == nt::SUCCESS);
	CHECK_FALSE(d.share->force_uid.has_value());
	CHECK_FALSE(d.share->force_gid.has_value());
}
