// SPDX-License-Identifier: GPL-2.0-or-later
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.hpp"
#include "conf_edit.hpp"
#include "config.hpp"
#include "params.hpp"

using namespace smbsrv;

namespace {

// A file as people write it: comments everywhere, odd spacing, a
// continuation line, a repeated section.
const std::string nas = "; Home NAS\n"
			"[global]\n"
			"    workgroup = HOME   ; the LAN's\n"
			"    server string = NAS\n"
			"\n"
			"# Films and music, read only\n"
			"[Media]\n"
			"    path = /srv/media\n"
			"    comment = Films \\\n"
			"              and music\n"
			"    writeable = no ; nobody writes here\n"
			"\n"
			"# Backups go here\n"
			"[backup]\n"
			"    path = /srv/backup\n"
			"\n"
			"[media]\n"
			"    guest ok = yes\n";

} // namespace

TEST_CASE("an untouched file comes back byte for byte")
{
	for (const std::string &t :
	     {nas, std::string(""), std::string("[a]\npath=/a"), std::string("\n\n"),
	      std::string("[a]\r\n\tpath = /a\r\n")})
		CHECK(ConfEditor(t).text() == t);
}

TEST_CASE("adding a share appends it, indented as the file is")
{
	ConfEditor e(nas);
	REQUIRE(e.add_section("docs", {{"path", "/srv/docs"}, {"comment", "Documents"}}));
	CHECK(e.text() == nas + "\n[docs]\n    path = /srv/docs\n    comment = Documents\n");
	CHECK_FALSE(e.add_section("DOCS", {}));
	CHECK_FALSE(e.add_section("media", {}));

	ConfEditor tight("[a]\npath=/a");
	REQUIRE(tight.add_section("b", {{"path", "/b"}}));
	CHECK(tight.text() == "[a]\npath=/a\n\n[b]\npath=/b\n");

	ConfEditor empty("");
	REQUIRE(empty.add_section("x", {{"path", "/x"}}));
	CHECK(empty.text() == "[x]\n\tpath = /x\n");
}

TEST_CASE("setting a parameter rewrites its line in place, comment kept")
{
	ConfEditor e(nas);
	// "read only" is set through its inverted synonym "writeable".
	REQUIRE(e.set("MEDIA", "read only", "yes"));
	REQUIRE(e.set("global", "workgroup", "LAN"));
	std::string want = nas;
	want.replace(want.find("    writeable = no ; nobody writes here"),
		     std::string("    writeable = no ; nobody writes here").size(),
		     "    read only = yes ; nobody writes here");
	want.replace(want.find("    workgroup = HOME   ; the LAN's"),
		     std::string("    workgroup = HOME   ; the LAN's").size(),
		     "    workgroup = LAN   ; the LAN's");
	CHECK(e.text() == want);
}

TEST_CASE("a continued line is replaced whole")
{
	ConfEditor e(nas);
	REQUIRE(e.set("media", "comment", "Films"));
	std::string want = nas;
	std::string old = "    comment = Films \\\n              and music\n";
	want.replace(want.find(old), old.size(), "    comment = Films\n");
	CHECK(e.text() == want);
}

TEST_CASE("a new parameter goes after the section's last parameter")
{
	ConfEditor e(nas);
	REQUIRE(e.set("backup", "read only", "no"));
	std::string want = nas;
	want.insert(want.find("    path = /srv/backup\n") + 23, "    read only = no\n");
	CHECK(e.text() == want);
	CHECK_FALSE(e.set("nosuch", "path", "/x"));
}

TEST_CASE("removing a share takes its blocks and its own comments only")
{
	ConfEditor e(nas);
	REQUIRE(e.remove_section("Media"));
	CHECK(e.text() == "; Home NAS\n"
			  "[global]\n"
			  "    workgroup = HOME   ; the LAN's\n"
			  "    server string = NAS\n"
			  "\n"
			  "# Backups go here\n"
			  "[backup]\n"
			  "    path = /srv/backup\n");
	REQUIRE(e.remove_section("backup"));
	CHECK(e.text() == "; Home NAS\n"
			  "[global]\n"
			  "    workgroup = HOME   ; the LAN's\n"
			  "    server string = NAS\n");
	CHECK_FALSE(e.remove_section("backup"));

	ConfEditor first("[a]\npath = /a\n\n[b]\npath = /b\n");
	REQUIRE(first.remove_section("a"));
	CHECK(first.text() == "[b]\npath = /b\n");
}

TEST_CASE("unsetting a parameter removes every line setting it")
{
	ConfEditor e("[a]\npath = /a\nwriteable = yes\nread only = no\ncomment = c\n");
	REQUIRE(e.unset("a", "read only"));
	CHECK(e.text() == "[a]\npath = /a\ncomment = c\n");
	CHECK_FALSE(e.unset("a", "read only"));
}

TEST_CASE("CRLF files stay CRLF")
{
	ConfEditor e("[a]\r\n\tpath = /a\r\n");
	REQUIRE(e.set("a", "comment", "x"));
	REQUIRE(e.set("a", "path", "/b"));
	REQUIRE(e.add_section("c", {{"path", "/c"}}));
	CHECK(e.text() == "[a]\r\n\tpath = /b\r\n\tcomment = x\r\n\r\n[c]\r\n\tpath = /c\r\n");
}

TEST_CASE("values a ksmbd.conf line cannot hold are refused")
{
	ConfEditor e(nas);
	CHECK_THROWS_AS(e.set("media", "comment", "Bob's #1"), std::invalid_argument);
	CHECK_THROWS_AS(e.set("media", "comment", "a\nb"), std::invalid_argument);
	CHECK_THROWS_AS(e.add_section("x;y", {}), std::invalid_argument);
	CHECK(e.text() == nas);
}

TEST_CASE("what the editor writes parses to what was asked")
{
	ConfEditor e(nas);
	REQUIRE(e.add_section("docs", {{"path", "/srv/docs"}, {"read only", "no"}}));
	REQUIRE(e.set("media", "comment", "Films"));
	REQUIRE(e.set("backup", "valid users", "alice @family"));
	Diagnostics d;
	Config c = build_config(parse_conf_text(e.text(), "e.conf", d), d);
	CHECK_FALSE(d.has_errors());
	CHECK(c.share("docs")->params.str("path") == "/srv/docs");
	CHECK_FALSE(c.share("docs")->params.boolean("read only"));
	CHECK(c.share("media")->params.str("comment") == "Films");
	CHECK(c.share("media")->params.boolean("guest ok"));
	CHECK(c.share("backup")->params.list("valid users") ==
	      std::vector<std::string>{"alice", "@family"});
}

TEST_CASE("atomic file replacement keeps mode and content")
{
	char dir[] = "/tmp/smbsrv-test-XXXXXX";
	REQUIRE(mkdtemp(dir) != nullptr);
	std::string path = std::string(dir) + "/smbsrv.conf";
	CHECK_FALSE(read_file(path).has_value());

	write_file_atomic(path, "[a]\n", 0600);
	struct stat st {};
	REQUIRE(stat(path.c_str(), &st) == 0);
	CHECK((st.st_mode & 07777) == 0600);
	CHECK(read_file(path) == std::optional<std::string>("[a]\n"));

	REQUIRE(chmod(path.c_str(), 0640) == 0);
	{
		DirLock lock(path);
		write_file_atomic(path, "[b]\n");
	}
	REQUIRE(stat(path.c_str(), &st) == 0);
	CHECK((st.st_mode & 07777) == 0640);
	CHECK(read_file(path) == std::optional<std::string>("[b]\n"));
	// No temporary file is left behind.
	int entries = 0;
	for ([[maybe_unused]] const auto &ent : std::filesystem::directory_iterator(dir))
		entries++;
	CHECK(entries == 1);
	std::filesystem::remove_all(dir);

	CHECK_THROWS_AS(write_file_atomic("/nonexistent/dir/x", "x"), FileError);
}
