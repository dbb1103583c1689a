// SPDX-License-Identifier: GPL-2.0-or-later
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <unistd.h>

#include "atomic_file.hpp"
#include "daemon_ctl.hpp"
#include "share_admin.hpp"

using namespace smbsrv;

namespace {

const std::string conf = "[global]\n"
			 "\tworkgroup = HOME ; ours\n"
			 "\n"
			 "[media]\n"
			 "\tpath = /srv/media\n"
			 "\tcomment = Films\n";

ShareEdit edit(ShareOp op, const std::string &name,
	       const std::vector<ShareOption> &opts, const std::string &text = conf)
{
	return edit_share(text, "s.conf", op, name, opts);
}

} // namespace

TEST_CASE("-o options are 'parameter = value'")
{
	ShareOption o = parse_share_option("  read only =  no ");
	CHECK(o.key == "read only");
	CHECK(o.value == "no");
	CHECK(parse_share_option("comment=").value.empty());
	CHECK(parse_share_option("comment = a = b").value == "a = b");
	CHECK_THROWS_AS(parse_share_option("read only"), std::invalid_argument);
	CHECK_THROWS_AS(parse_share_option(" = x"), std::invalid_argument);
}

TEST_CASE("share add appends a validated share")
{
	ShareEdit r = edit(ShareOp::add, "docs",
			   {{"path", "/srv/docs"}, {"writeable", "yes"}});
	CHECK(r.errors.empty());
	CHECK(r.text == conf + "\n[docs]\n\tpath = /srv/docs\n\twriteable = yes\n");
	CHECK(r.warnings.empty());
}

TEST_CASE("share add refuses what the configuration would refuse")
{
	auto errors = [](const ShareEdit &r) {
		CHECK(r.text.empty());
		return r.errors;
	};
	using V = std::vector<std::string>;
	CHECK(errors(edit(ShareOp::add, "Media", {{"path", "/x"}})) ==
	      V{"share 'Media' exists in s.conf; use 'share update' to change it"});
	CHECK(errors(edit(ShareOp::add, "docs", {{"comment", "no path"}})) ==
	      V{"a share needs a path: -o \"path = /srv/docs\""});
	CHECK(errors(edit(ShareOp::add, "a/b", {{"path", "/x"}})) ==
	      V{"invalid character in section name [a/b]"});
	CHECK(errors(edit(ShareOp::add, "global", {{"path", "/x"}})) ==
	      V{"[global] is not a share"});
	CHECK(errors(edit(ShareOp::add, "docs", {{"path", "/x"}, {"pth", "/y"}})) ==
	      V{"unknown parameter 'pth'; did you mean 'path'?"});
	CHECK(errors(edit(ShareOp::add, "docs", {{"path", "/x"}, {"tcp port", "1"}})) ==
	      V{"'tcp port' is a global parameter, not a share's"});
	CHECK(errors(edit(ShareOp::add, "docs", {{"path", "/x"}, {"guest ok", "perhaps"}})) ==
	      V{"s.conf:10: error: guest ok: invalid boolean 'perhaps' (use yes/no, "
		"true/false, 1/0)"});
	CHECK(errors(edit(ShareOp::add, "docs", {{"path", "/x"}, {"comment", "#1"}})) ==
	      V{"value '#1' contains a line break, ';' or '#', which ksmbd.conf "
		"cannot hold"});
}

TEST_CASE("share update changes lines in place and unsets empty values")
{
	ShareEdit r = edit(ShareOp::update, "MEDIA",
			   {{"comment", "Films and music"}, {"read only", "yes"}});
	CHECK(r.errors.empty());
	CHECK(r.text == "[global]\n\tworkgroup = HOME ; ours\n\n[media]\n"
			"\tpath = /srv/media\n\tcomment = Films and music\n"
			"\tread only = yes\n");
	r = edit(ShareOp::update, "media", {{"comment", ""}});
	CHECK(r.text == "[global]\n\tworkgroup = HOME ; ours\n\n[media]\n"
			"\tpath = /srv/media\n");
	r = edit(ShareOp::update, "nosuch", {{"comment", "x"}});
	CHECK(r.errors == std::vector<std::string>{"no share 'nosuch' in s.conf"});
	// Removing the path would leave a share without one: refused.
	r = edit(ShareOp::update, "media", {{"path", ""}});
	CHECK(r.errors == std::vector<std::string>{
		"s.conf:4: error: share [media] has no 'path'"});
}

TEST_CASE("share del removes the share and nothing else")
{
	ShareEdit r = edit(ShareOp::del, "Media", {});
	CHECK(r.errors.empty());
	CHECK(r.text == "[global]\n\tworkgroup = HOME ; ours\n");
	CHECK(edit(ShareOp::del, "media", {}, r.text).errors ==
	      std::vector<std::string>{"no share 'media' in s.conf"});
}

TEST_CASE("errors already in the file do not block an unrelated edit")
{
	std::string broken = conf + "[old]\n\tcomment = no path\n";
	ShareEdit r = edit(ShareOp::add, "docs", {{"path", "/srv/docs"}}, broken);
	CHECK(r.errors.empty());
	CHECK(r.text == broken + "\n[docs]\n\tpath = /srv/docs\n");
}

TEST_CASE("a pid file only names smbsrvd if that process is smbsrvd")
{
	char path[] = "/tmp/smbsrv-pid-XXXXXX";
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	close(fd);
	// This test process is alive but is not smbsrvd.
	write_file_atomic(path, std::to_string(getpid()) + "\n");
	CHECK_FALSE(daemon_pid(path).has_value());
	std::string comm = read_file("/proc/self/comm").value();
	comm.pop_back();
	CHECK(daemon_pid(path, comm) == getpid());
	write_file_atomic(path, "garbage\n");
	CHECK_FALSE(daemon_pid(path, comm).has_value());
	std::remove(path);
	CHECK_FALSE(daemon_pid(path, comm).has_value());
}
