// SPDX-License-Identifier: GPL-2.0-or-later
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

#include "atomic_file.hpp"
#include "config.hpp"
#include "hosts.hpp"
#include "params.hpp"

using namespace smbsrv;

namespace {

// A file of the ksmbd-tools package, which make deps unpacks under the
// top's .deps (installing it would conflict with Samba's packages).
std::string ksmbd_tools(const std::string &path)
{
	return std::string(SMBSRV_TEST_DATA "/../../../.deps/ksmbd-tools") +
	       path;
}

Config build(const std::string &text, Diagnostics &diags,
	     const std::string &file = "test.conf")
{
	return build_config(parse_conf_text(text, file, diags), diags);
}

std::vector<std::string> messages(const Diagnostics &d)
{
	std::vector<std::string> out;
	for (const auto &x : d.all())
		out.push_back(x.str());
	return out;
}

std::string lower_copy(std::string_view s)
{
	std::string out(s);
	for (auto &c : out)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return out;
}

bool contains(const std::vector<std::string> &v, const std::string &s)
{
	return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

TEST_CASE("empty configuration gives ksmbd's defaults and an IPC$ share")
{
	Diagnostics d;
	Config c = build("", d);
	CHECK(d.all().empty());
	CHECK(c.knobs.tcp_port == 445);
	CHECK(c.knobs.max_connections == auto_max_connections(physical_ram()));
	CHECK(c.knobs.smb2_max_read == 4U << 20);
	CHECK(c.knobs.smb2_max_write == 4U << 20);
	CHECK(c.knobs.smb2_max_trans == 1U << 20);
	CHECK(c.knobs.smb2_max_credits == 8192);
	REQUIRE(c.share("IPC$") != nullptr);
	CHECK(c.share("ipc$")->params.boolean("guest ok"));
}

TEST_CASE("comments, continuation lines, case and blanks in keys")
{
	Diagnostics d;
	Config c = build("; a comment\n"
			 "# another\n"
			 "[GLOBAL]\n"
			 "   TCP   Port = 4445 ; trailing comment\n"
			 "\tsmb2 max read = \\\n"
			 "      1M\n"
			 "SMB2MAXWRITE=2m\n"
			 "[Data]\n"
			 "  path = /srv/data # inline\n"
			 "  Comment = data share\n"
			 "[data]\n"
			 "  read only = no\n",
			 d);
	INFO(d.all().size());
	CHECK_FALSE(d.has_errors());
	CHECK(c.knobs.tcp_port == 4445);
	CHECK(c.knobs.smb2_max_read == 1U << 20);
	CHECK(c.knobs.smb2_max_write == 2U << 20);
	// [Data] and [data] are one share.
	REQUIRE(c.shares.size() == 2);
	const ShareConfig *s = c.share("DATA");
	REQUIRE(s != nullptr);
	CHECK(s->params.str("path") == "/srv/data");
	CHECK(s->params.str("comment") == "data share");
	CHECK_FALSE(s->params.boolean("read only"));
}

TEST_CASE("size suffixes and hex, as ksmbd's memparse reads them")
{
	CHECK(parse_size("4MB") == 4U << 20);
	CHECK(parse_size("64k") == 65536U);
	CHECK(parse_size("64KiB") == 65536U);
	CHECK(parse_size("0x10000") == 65536U);
	CHECK(parse_size("1G") == 1ULL << 30);
	CHECK(parse_size("12") == 12U);
	CHECK_FALSE(parse_size("").has_value());
	CHECK_FALSE(parse_size("-1").has_value());
	CHECK_FALSE(parse_size("4X").has_value());
	CHECK_FALSE(parse_size("4MQ").has_value());
	CHECK_FALSE(parse_size("99999999999999999999").has_value());
}

TEST_CASE("booleans")
{
	for (const char *t : {"yes", "YES", "true", "1", "on", "enable"})
		CHECK(parse_bool(t) == true);
	for (const char *f : {"no", "False", "0", "off", "disable"})
		CHECK(parse_bool(f) == false);
	CHECK_FALSE(parse_bool("maybe").has_value());
	CHECK_FALSE(parse_bool("").has_value());
}

TEST_CASE("synonyms: writeable inverts read only, browsable, public")
{
	Diagnostics d;
	Config c = build("[a]\npath=/a\nwriteable = yes\nbrowsable = no\n"
			 "public = yes\n[b]\npath=/b\nwrite ok = no\n",
			 d);
	CHECK_FALSE(d.has_errors());
	CHECK_FALSE(c.share("a")->params.boolean("read only"));
	CHECK_FALSE(c.share("a")->params.boolean("browseable"));
	CHECK(c.share("a")->params.boolean("guest ok"));
	CHECK(c.share("b")->params.boolean("read only"));
}

TEST_CASE("share parameters in [global] are defaults for every share")
{
	Diagnostics d;
	Config c = build("[global]\nread only = no\ncomment = default\n"
			 "[a]\npath = /a\n[b]\npath = /b\nread only = yes\n",
			 d);
	CHECK_FALSE(d.has_errors());
	CHECK_FALSE(c.share("a")->params.boolean("read only"));
	CHECK(c.share("a")->params.str("comment") == "default");
	CHECK(c.share("b")->params.boolean("read only"));
}

TEST_CASE("malformed input is reported with file and line")
{
	Diagnostics d;
	build("[global]\n"		 // 1
	      "tcp port = 44x\n"	 // 2
	      "garbage line\n"		 // 3
	      "[broken\n"		 // 4
	      "smb2 max credits = lots\n" // 5 (no section: previous broken)
	      "[s]\n"			 // 6
	      "guest ok = perhaps\n"	 // 7
	      "create mask = 0799\n"	 // 8
	      "= value\n"		 // 9
	      "server signing = sometimes\n", // 10
	      d, "bad.conf");
	auto m = messages(d);
	CAPTURE(m);
	CHECK(contains(m, "bad.conf:2: error: tcp port: invalid number '44x'"));
	CHECK(contains(m, "bad.conf:3: error: expected 'parameter = value' or "
			  "'[section]', got 'garbage line'"));
	CHECK(contains(m, "bad.conf:4: error: section header without ']'"));
	CHECK(contains(m, "bad.conf:5: error: parameter 'smb2 max credits' "
			  "outside any section"));
	CHECK(contains(m, "bad.conf:7: error: guest ok: invalid boolean 'perhaps' "
			  "(use yes/no, true/false, 1/0)"));
	CHECK(contains(m, "bad.conf:8: error: create mask: invalid octal mode '0799'"));
	CHECK(contains(m, "bad.conf:9: error: parameter name missing"));
	CHECK(contains(m, "bad.conf:10: warning: global parameter 'server signing' "
			  "in share section [s] ignored"));
	CHECK(d.has_errors());
}

TEST_CASE("a share without a path is an error")
{
	Diagnostics d;
	build("[global]\n\n[nopath]\ncomment = x\n", d, "p.conf");
	CHECK(contains(messages(d), "p.conf:3: error: share [nopath] has no 'path'"));
}

TEST_CASE("unknown keys warn and suggest the nearest known key")
{
	Diagnostics d;
	Config c = build("[global]\ntcp prot = 1445\nfrobnicate = 1\n", d, "u.conf");
	auto m = messages(d);
	CAPTURE(m);
	CHECK(contains(m, "u.conf:2: warning: unknown parameter 'tcp prot'; "
			  "did you mean 'tcp port'?"));
	CHECK(contains(m, "u.conf:3: warning: unknown parameter 'frobnicate'"));
	CHECK_FALSE(d.has_errors());
	CHECK(c.knobs.tcp_port == 445);
}

TEST_CASE("suggestions: the nearest name of any length, nothing for a long key")
{
	CHECK(suggest_param("smb2 max credit") == "smb2 max credits");
	CHECK(suggest_param("kerberos keytab fil") == "kerberos keytab file");
	CHECK(suggest_param("tcpport") == "tcp port");
	CHECK(suggest_param("x").empty());
	// A key far longer than any name is ruled out by its length alone,
	// without an edit distance against every known name (fuzz_config).
	CHECK(suggest_param(std::string(5000, 'k')).empty());
	CHECK(suggest_param(std::string(5000, 'k') + "tcp port").empty());
}

TEST_CASE("limits are clamped the way ksmbd clamps them")
{
	Diagnostics d;
	Config c = build("[global]\nsmb2 max read = 16M\nsmb2 max write = 4K\n"
			 "max connections = 0\n",
			 d, "l.conf");
	CHECK(c.knobs.smb2_max_read == 8U << 20);
	CHECK(c.knobs.smb2_max_write == 64U << 10);
	CHECK(c.knobs.max_connections == 65536);
	CHECK(contains(messages(d), "l.conf:2: warning: smb2 max read = 16M is out "
				    "of range; using 8388608"));

	Diagnostics d2;
	Config c2 = build("[global]\nmax connections = 100000\n", d2);
	CHECK(c2.knobs.max_connections == 65536);
}

TEST_CASE("a repeated key keeps its first value, as ksmbd-tools does")
{
	Diagnostics d;
	Config c = build("[global]\ntcp port = 1000\ntcp port = 2000\n", d, "r.conf");
	CHECK(c.knobs.tcp_port == 1000);
	CHECK(contains(messages(d), "r.conf:3: warning: 'tcp port' repeated; the "
				    "value at line 2 is kept"));
}

TEST_CASE("parameters smbsrv does not apply yet are reported, not ignored")
{
	Diagnostics d;
	build("[global]\nsmbd max io size = 16M\nsmbd max io size = 16M\n", d,
	      "n.conf");
	auto m = messages(d);
	CHECK(contains(m, "n.conf:2: warning: 'smbd max io size' is accepted "
			  "but not supported yet"));
	// Default values change nothing and are not worth a warning.
	Diagnostics d2;
	build("[global]\nsmbd max io size = 8M\n", d2);
	CHECK(d2.all().empty());
}

TEST_CASE("ksmbd-tools' own example configuration loads without errors")
{
	Diagnostics d;
	Config c = load_config_file(
		ksmbd_tools("/etc/ksmbd/ksmbd.conf.example"), d);
	CAPTURE(messages(d));
	CHECK_FALSE(d.has_errors());
	REQUIRE(c.share("example") != nullptr);
	CHECK(c.share("example")->params.str("path") == "/tmp");
	CHECK(c.share("example")->params.str("comment") == "read only /tmp access");
	CHECK(c.share("example")->params.boolean("read only"));
	CHECK(c.knobs.smb2_max_read == 4U << 20);
}

TEST_CASE("the sample configurations load cleanly")
{
	for (const char *name : {"minimal.conf", "demo.conf"}) {
		Diagnostics d;
		std::string path = std::string(SMBSRV_TEST_DATA) + "/" + name;
		Config c = load_config_file(path, d);
		CAPTURE(path, messages(d));
		CHECK_FALSE(d.has_errors());
		CHECK(c.shares.size() >= 2);
	}
}

TEST_CASE("a missing file is an error naming the file")
{
	Diagnostics d;
	load_config_file("/nonexistent/smbsrv.conf", d);
	REQUIRE(d.has_errors());
	CHECK(d.all()[0].str() ==
	      "/nonexistent/smbsrv.conf: error: cannot read: No such file or directory");
}

TEST_CASE("the effective configuration dump round-trips")
{
	Diagnostics d;
	Config c = build("[global]\ntcp port = 1445\n[s]\npath = /s\nread only = no\n", d);
	std::string dump = dump_config(c, false);
	Diagnostics d2;
	Config c2 = build(dump, d2);
	CHECK_FALSE(d2.has_errors());
	CHECK(c2.knobs.tcp_port == 1445);
	CHECK_FALSE(c2.share("s")->params.boolean("read only"));
	CHECK(dump_config(c2, true) == dump_config(c, true));
}

TEST_CASE("the knob defaults are the parameter table's defaults")
{
	Diagnostics d;
	Config c = build("", d);
	CHECK(c.knobs == Knobs{});
	CHECK(c.knobs.min_dialect == 0x0210);
	CHECK(c.knobs.netbios_name == "SMBSRV");
}

TEST_CASE("every default in the parameter table is a valid value")
{
	for (const auto &def : param_table()) {
		if (def.def.empty())
			continue;
		std::string section = def.scope == Scope::global ? "[global]\n"
								 : "[s]\npath = /s\n";
		Diagnostics d;
		build(section + std::string(def.name) + " = " + std::string(def.def) +
			      "\n",
		      d);
		CAPTURE(def.name, messages(d));
		// Only what must be said about any value of it, and that
		// Samba's default fruit:resource = file is not served yet.
		size_t expected = def.effect == Effect::not_yet ||
				  def.name == "fruit:resource";
		CHECK_FALSE(d.has_errors());
		CHECK(d.all().size() == expected);
	}
}

TEST_CASE("every parameter ksmbd.conf(5) documents is known, in its scope")
{
	// The man page of the ksmbd-tools package make deps unpacks.
	const std::string zcat =
		"zcat " + ksmbd_tools("/usr/share/man/man5/ksmbd.conf.5.gz");
	FILE *f = popen(zcat.c_str(), "r");
	REQUIRE(f != nullptr);
	std::string page;
	char buf[4096];
	for (size_t n; (n = fread(buf, 1, sizeof(buf), f)) > 0;)
		page.append(buf, n);
	REQUIRE(pclose(f) == 0);

	int documented = 0;
	size_t pos = 0;
	while ((pos = page.find("\n.TP\n\\fB", pos)) != std::string::npos) {
		pos += 8;
		size_t eol = page.find('\n', pos);
		std::string entry = page.substr(pos, eol - pos);
		size_t end = entry.find_first_of("\\(");
		std::string name = trim(entry.substr(0, end));
		if (name == "Utilities")
			continue;
		documented++;
		bool inv = false;
		const ParamDef *def = find_param(name, &inv);
		CAPTURE(name);
		REQUIRE(def != nullptr);
		if (entry.find("(S)") != std::string::npos)
			CHECK(def->scope != Scope::global);
		if (entry.find("(G)") != std::string::npos)
			CHECK(def->scope != Scope::share);
	}
	CHECK(documented >= 50);
	// Newer ksmbd-tools parse these share parameters too (their man page
	// lists them commented out).
	for (const char *name : {"admin users", "follow symlinks", "hosts allow", "hosts deny",
				 "crossmnt", "durable handles", "max ip connections"}) {
		CAPTURE(name);
		CHECK(find_param(name) != nullptr);
	}
}

TEST_CASE("no parameter smbsrv does not apply is silently ignored")
{
	// Set each parameter to a valid value other than its default: the
	// ones smbsrv does not apply must say so, the others must not.
	// ("hosts allow = x" must not ask a real DNS server.)
	set_host_resolver([](const std::string &) { return std::vector<std::string>{"10.9.9.9"}; });
	for (const auto &def : param_table()) {
		std::string v;
		switch (def.type) {
		case Type::boolean:
			v = parse_bool(def.def).value() ? "no" : "yes";
			break;
		case Type::integer:
		case Type::size:
			v = def.def == "1" ? "2" : "1";
			break;
		case Type::octal:
			v = "0700";
			break;
		case Type::string:
		case Type::list:
			v = "x";
			break;
		case Type::choice: {
			std::string_view c = def.choices;
			while (!c.empty()) {
				std::string first(c.substr(0, c.find('|')));
				if (first != lower_copy(def.def)) {
					v = first;
					break;
				}
				c.remove_prefix(std::min(c.size(), first.size() + 1));
			}
			break;
		}
		}
		std::string section = def.scope == Scope::global ? "[global]\n"
								 : "[s]\npath = /s\n";
		Diagnostics d;
		std::string text = section;
		text += std::string(def.name) + " = " + v + "\n";
		build(text, d, "t.conf");
		CAPTURE(text, messages(d));
		std::string at = "t.conf:" + std::to_string(def.scope == Scope::global ? 2 : 3) +
				 ": warning: '" + std::string(def.name) + "' is accepted but ";
		bool unsupported = contains(messages(d), at + "not supported yet");
		bool not_yet = contains(messages(d), at + "not yet in effect (smbsrv.ko does "
							  "not apply it yet)");
		CHECK(unsupported == (def.effect == Effect::unsupported));
		CHECK(not_yet == (def.effect == Effect::not_yet));

		// A knob the module does not apply yet is reported even at its
		// default: that value is not in effect either.
		if (def.effect == Effect::not_yet) {
			Diagnostics d2;
			build(section + std::string(def.name) + " = " + std::string(def.def) +
				      "\n",
			      d2, "t.conf");
			CHECK(contains(messages(d2), at + "not yet in effect (smbsrv.ko does "
								 "not apply it yet)"));
		}
	}
	set_host_resolver(nullptr);
}

TEST_CASE("protocol names map to dialects, Samba's short names included")
{
	CHECK(protocol_dialect("SMB2_02") == 0x0202);
	CHECK(protocol_dialect("smb2_10") == 0x0210);
	CHECK(protocol_dialect("SMB3_00") == 0x0300);
	CHECK(protocol_dialect("SMB3_02") == 0x0302);
	CHECK(protocol_dialect("SMB3_11") == 0x0311);
	CHECK(protocol_dialect("SMB2") == 0x0210);
	CHECK(protocol_dialect("SMB3") == 0x0311);
	CHECK(protocol_dialect("NT1") == 0);

	Diagnostics d;
	Config c = build("[global]\nmin protocol = SMB3\nmax protocol = smb3_11\n", d);
	CHECK_FALSE(d.has_errors());
	CHECK(c.knobs.min_dialect == 0x0311);
	CHECK(c.knobs.max_dialect == 0x0311);
}

TEST_CASE("signing and encryption spellings as ksmbd and Samba write them")
{
	auto knobs = [](const std::string &sign, const std::string &enc) {
		Diagnostics d;
		Config c = build("[global]\nserver signing = " + sign +
					 "\nsmb3 encryption = " + enc + "\n",
				 d);
		CHECK_FALSE(d.has_errors());
		return std::pair{c.knobs.signing, c.knobs.encryption};
	};
	CHECK(knobs("disabled", "no") == std::pair{0U, 0U});
	CHECK(knobs("auto", "enabled") == std::pair{1U, 1U});
	CHECK(knobs("Mandatory", "required") == std::pair{2U, 2U});
	CHECK(knobs("yes", "auto") == std::pair{1U, 1U});
}

TEST_CASE("an empty value is skipped as ksmbd-tools skips it")
{
	Diagnostics d;
	Config c = build("[global]\ntcp port =\ntcp port = 1445\n"
			 "[s]\npath = /s\ncomment =\n",
			 d, "e.conf");
	// The later line still sets the key; an empty value where the
	// default is empty anyway is not worth a word.
	CHECK(c.knobs.tcp_port == 1445);
	CHECK(messages(d) == std::vector<std::string>{
		"e.conf:2: warning: 'tcp port' has an empty value; ignored as "
		"ksmbd does, '445' stays"});
}

TEST_CASE("ksmbd's saturating limits: 0 or too many means the maximum")
{
	Diagnostics d;
	Config c = build("[global]\nmax active sessions = 0\nmax open files = 1000000\n"
			 "[s]\npath = /s\nmax connections = 0\n",
			 d);
	CHECK(d.all().empty());
	CHECK(c.knobs.max_sessions == 65536);
	CHECK(c.knobs.max_open_files == 65536);
	CHECK(c.share("s")->params.number("max connections") == 65536);
}

TEST_CASE("server max open files = auto: one open per 32 KiB, half per user")
{
	CHECK(auto_server_max_open_files(2ULL << 30) == 65536);
	CHECK(auto_server_max_open_files(0) == 1024);
	CHECK(auto_server_max_open_files(1ULL << 50) == 16U << 20);
	CHECK(auto_max_open_files_per_user(65536) == 32768);
	CHECK(auto_max_open_files_per_user(0) == 0);

	Diagnostics d;
	Config c = build("[global]\nserver max open files = auto\n", d);
	CHECK(d.all().empty());
	CHECK(c.knobs.server_max_open_files ==
	      auto_server_max_open_files(physical_ram()));
	CHECK(c.knobs.max_open_files_per_user ==
	      c.knobs.server_max_open_files / 2);

	Diagnostics d2;
	Config c2 = build("[global]\nserver max open files = 3000\n"
			  "max open files per user = 0\n",
			  d2);
	CHECK(d2.all().empty());
	CHECK(c2.knobs.server_max_open_files == 3000);
	CHECK(c2.knobs.max_open_files_per_user == 0);

	Diagnostics d3;
	Config c3 = build("[global]\nserver max open files = 1000\n", d3);
	CHECK(c3.knobs.max_open_files_per_user == 500);
}

TEST_CASE("max connections = auto: one connection per 256 KiB of memory, 128 to 65536")
{
	CHECK(auto_max_connections(2ULL << 30) == 8192);
	CHECK(auto_max_connections(24ULL << 30) == 65536);
	CHECK(auto_max_connections(16ULL << 20) == 128);
	CHECK(auto_max_connections(0) == 128);
	REQUIRE(physical_ram() > 0);

	Diagnostics d;
	Config c = build("[global]\nmax connections = AUTO\n[s]\npath = /s\n"
			 "max connections = auto\n",
			 d);
	CHECK(d.all().empty());
	CHECK(c.knobs.max_connections == auto_max_connections(physical_ram()));
	// In a share: no limit of its own (Samba's 0), the server's applies.
	CHECK(c.share("s")->params.number("max connections") == 0);

	Diagnostics d2;
	Config c2 = build("[global]\nmax connections = 300\n", d2);
	CHECK(d2.all().empty());
	CHECK(c2.knobs.max_connections == 300);
	CHECK(dump_config(c2, false).find("max connections = 300") != std::string::npos);
}

TEST_CASE("logon timeout and deadtime are knobs the module applies")
{
	Diagnostics d;
	Config c = build("[global]\nlogon timeout = 5\ndeadtime = 15\n", d);
	CHECK(d.all().empty());
	CHECK(c.knobs.logon_timeout == 5);
	CHECK(c.knobs.deadtime == 15);
	CHECK(build("", d).knobs.logon_timeout == 20);

	Diagnostics d2;
	build("[global]\nlogon timeout = 3601\n", d2, "t.conf");
	CHECK(messages(d2) == std::vector<std::string>{
		"t.conf:2: error: logon timeout: 3601 is out of range (0 to 3600)"});
}

TEST_CASE("size suffixes go up to T as ksmbd's memparse reads them")
{
	Diagnostics d;
	Config c = build("[global]\nsplice threshold = 1k\nmax connections = 1K\n", d, "s.conf");
	CHECK(messages(d).empty());
	CHECK(c.knobs.splice_threshold == 1024);
	CHECK(c.knobs.max_connections == 1024);
}

TEST_CASE("smbsrv.conf(5) documents every parameter in the table")
{
	auto page = read_file(std::string(SMBSRV_TEST_DATA) +
			      "/../../../Documentation/man/smbsrv.conf.5");
	REQUIRE(page.has_value());
	for (const auto &def : param_table()) {
		CAPTURE(def.name);
		CHECK(page->find(".BR \"" + std::string(def.name) + "\"") != std::string::npos);
		CHECK(page->find("Default: \\fB" + std::string(def.name) + " = " +
				 std::string(def.def) + "\\fR") != std::string::npos);
	}
}

TEST_CASE("smbsrv.conf(5) lists exactly the parameters smbsrv does not apply")
{
	auto page = read_file(std::string(SMBSRV_TEST_DATA) +
			      "/../../../Documentation/man/smbsrv.conf.5");
	REQUIRE(page.has_value());
	size_t from = page->find(".SH \"NOT APPLIED\"");
	REQUIRE(from != std::string::npos);
	size_t to = page->find(".SH", from + 1);
	std::string text = page->substr(from, to - from);
	size_t split = text.find("Not yet in effect");
	REQUIRE(split != std::string::npos);
	std::string unsupported = text.substr(0, split), not_yet = text.substr(split);
	for (const auto &def : param_table()) {
		CAPTURE(def.name);
		std::string b = "\\fB" + std::string(def.name) + "\\fR";
		CHECK((unsupported.find(b) != std::string::npos) ==
		      (def.effect == Effect::unsupported));
		CHECK((not_yet.find(b) != std::string::npos) == (def.effect == Effect::not_yet));
	}
}
