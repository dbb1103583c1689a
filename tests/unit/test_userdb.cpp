// SPDX-License-Identifier: GPL-2.0-or-later
// The ksmbdpwd.db-format user database.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.hpp"
#include "userdb.hpp"

using namespace smbsrv;

namespace {

struct TempDir {
	std::string path;
	TempDir()
	{
		char tmpl[] = "/tmp/smbsrv-test-XXXXXX";
		path = mkdtemp(tmpl);
	}
	~TempDir() { (void)!std::system(("rm -rf '" + path + "'").c_str()); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;
};

std::string slurp(const std::string &p)
{
	std::ifstream in(p);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

void spit(const std::string &p, const std::string &text)
{
	std::ofstream(p) << text;
}

} // namespace

TEST_CASE("the NT hash is MD4 of the UTF-16LE password", "[userdb]")
{
	// MS-NLMP 4.2.2.1.2 NTOWFv1("Password").
	CHECK(to_hex(*nt_hash("Password")) == "a4f49c406510bdcab6824ee7c30fd852");
	CHECK(to_hex(*nt_hash("")) == "31d6cfe0d16ae931b73c59d7e0c089c0");
	CHECK_FALSE(nt_hash("\xff"));
}

TEST_CASE("ksmbd.adduser's format reads back", "[userdb]")
{
	// Written by ksmbd.adduser 3.4.7: "-a jürgen -p pässword€", "-a demo -p demo".
	const std::string text = "jürgen:dojdFfUQ3RTL4RHfLTAh2Q==\n"
				 "demo:UnycgZsobvuOxOu1ta5xzw==\n";
	Diagnostics d;
	UserDb db = UserDb::parse(text, "pwd", d);
	CHECK(d.all().empty());
	REQUIRE(db.users().size() == 2);
	CHECK(db.find("demo")->hash == *nt_hash("demo"));
	CHECK(db.find("jürgen")->hash == *nt_hash("pässword€"));
	CHECK(db.serialize() == text);
}

TEST_CASE("malformed lines are reported with their line and skipped", "[userdb]")
{
	Diagnostics d;
	std::string h = "UnycgZsobvuOxOu1ta5xzw==";
	UserDb db = UserDb::parse("alice:" + h + "\r\n"
				  "\n"
				  "no-colon\n"
				  ":" + h + "\n"
				  "bob:short\n"
				  "alice:" + h + "\n"
				  "carol:" + h,
				  "db", d);
	REQUIRE(db.users().size() == 2);
	CHECK(db.users()[0].name == "alice");
	CHECK(db.users()[1].name == "carol");
	REQUIRE(d.all().size() == 4);
	CHECK(d.all()[0].line == 3);
	CHECK(d.all()[1].line == 4);
	CHECK(d.all()[2].line == 5);
	CHECK(d.all()[2].message.find("not base64 of 16 bytes") != std::string::npos);
	CHECK(d.all()[3].line == 6);
	CHECK(d.all()[3].message.find("repeated") != std::string::npos);
}

TEST_CASE("user names and passwords are checked as ksmbdpwd.db(5) says", "[userdb]")
{
	CHECK(check_user_name("alice").empty());
	CHECK_FALSE(check_user_name("").empty());
	CHECK_FALSE(check_user_name("a:b").empty());
	CHECK_FALSE(check_user_name("a\nb").empty());
	CHECK_FALSE(check_user_name(std::string(48, 'x')).empty());
	CHECK(check_user_name(std::string(47, 'x')).empty());
	CHECK_FALSE(check_user_name("\xc3").empty());
	CHECK(check_password("").empty());
	CHECK(check_password(std::string(128, 'p')).empty());
	CHECK_FALSE(check_password(std::string(129, 'p')).empty());
}

TEST_CASE("lookups: exact first, then unambiguous case-insensitive", "[userdb]")
{
	UserDb db;
	db.set("Alice", *nt_hash("a"));
	db.set("bob", *nt_hash("b"));
	db.set("BOB", *nt_hash("B"));
	CHECK(db.find("alice")->name == "Alice");
	CHECK(db.find("ALICE")->name == "Alice");
	CHECK(db.find("BOB")->hash == *nt_hash("B"));
	CHECK(db.find("Bob") == nullptr); // two candidates: no guess
	CHECK(db.find("carol") == nullptr);
	db.set("bob", *nt_hash("new"));
	CHECK(db.find("bob")->hash == *nt_hash("new"));
	CHECK(db.users().size() == 3);
	CHECK(db.remove("BOB"));
	CHECK_FALSE(db.remove("BOB"));
	CHECK(db.find("Bob")->name == "bob");
}

TEST_CASE("save is atomic, mode 0600, and round-trips", "[userdb]")
{
	TempDir t;
	std::string p = t.path + "/smbsrvpwd.db";
	UserDb db;
	db.set("alice", *nt_hash("secret"));
	db.set("jürgen", *nt_hash("pässword"));
	db.save(p);
	struct stat st {};
	REQUIRE(stat(p.c_str(), &st) == 0);
	CHECK((st.st_mode & 0777) == 0600);
	Diagnostics d;
	UserDb back = UserDb::load(p, d);
	CHECK(d.all().empty());
	CHECK(back.serialize() == db.serialize());
	CHECK(back.find("jürgen")->hash == *nt_hash("pässword"));
	// Only the database is left in the directory: no temporary files.
	CHECK(std::system(("test $(ls -A '" + t.path + "' | wc -l) = 1").c_str()) == 0);

	// Saving into a directory that does not exist fails loudly.
	CHECK_THROWS_AS(db.save(t.path + "/missing/db"), std::system_error);
}

TEST_CASE("a missing file is empty; a world-readable one is warned about", "[userdb]")
{
	TempDir t;
	Diagnostics d;
	UserDb db = UserDb::load(t.path + "/nothing", d);
	CHECK(db.users().empty());
	CHECK(d.all().empty());
	std::string p = t.path + "/db";
	spit(p, "alice:UnycgZsobvuOxOu1ta5xzw==\n");
	chmod(p.c_str(), 0644);
	UserDb::load(p, d);
	REQUIRE(d.all().size() == 1);
	CHECK(d.all()[0].message.find("chmod 600") != std::string::npos);
}

TEST_CASE("the daemon's view follows the file as it changes", "[userdb]")
{
	TempDir t;
	std::string p = t.path + "/db";
	UserDbFile f(p);
	CHECK(f.current().users().empty());

	UserDb db;
	db.set("alice", *nt_hash("one"));
	db.set("bob", *nt_hash("bob"));
	db.save(p);
	CHECK(f.current().find("alice")->hash == *nt_hash("one"));

	// Re-password: same size, new inode.
	db.set("alice", *nt_hash("two"));
	db.save(p);
	CHECK(f.current().find("alice")->hash == *nt_hash("two"));

	// Edited in place (appended to): size and mtime change.
	std::ofstream(p, std::ios::app) << "carol:UnycgZsobvuOxOu1ta5xzw==\n";
	CHECK(f.current().find("carol") != nullptr);

	// Removal of a user.
	db.remove("alice");
	db.save(p);
	CHECK(f.current().find("alice") == nullptr);
	CHECK(f.current().find("bob") != nullptr);

	// The file vanishes: nobody logs on with a password.
	unlink(p.c_str());
	CHECK(f.current().users().empty());
	CHECK(slurp(p).empty());
}
