// SPDX-License-Identifier: GPL-2.0-or-later
//
// A corpus of ksmbd.conf files as people write them, and malformed ones:
// each data/corpus/NAME.conf comes with NAME.expect, the exact problems
// (file:line: severity: message) the configuration layer must report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "config.hpp"
#include "params.hpp"

using namespace smbsrv;
namespace fs = std::filesystem;

namespace {

const std::string not_supported = "is accepted but not supported yet";
// Knobs smbsrv.ko does not apply yet: this list shrinks as the module grows.
const std::string not_in_effect = "is accepted but not yet in effect";

std::vector<std::string> read_expect(const fs::path &p)
{
	std::vector<std::string> out;
	std::ifstream in(p);
	for (std::string line; std::getline(in, line);)
		if (!line.empty() && line[0] != '#')
			out.push_back(line);
	return out;
}

} // namespace

TEST_CASE("every corpus file reports exactly the expected problems")
{
	fs::path dir = fs::path(SMBSRV_TEST_DATA) / "corpus";
	int files = 0;
	for (const auto &ent : fs::directory_iterator(dir)) {
		if (ent.path().extension() != ".conf")
			continue;
		files++;
		fs::path expect = ent.path();
		expect.replace_extension(".expect");
		REQUIRE(fs::exists(expect));

		Diagnostics d;
		load_config_file(ent.path().string(), d);
		std::vector<std::string> got;
		std::string prefix = dir.string() + "/";
		for (const auto &x : d.all()) {
			std::string m = x.str();
			if (m.find(not_supported) != std::string::npos ||
			    m.find(not_in_effect) != std::string::npos)
				continue;
			if (m.starts_with(prefix))
				m.erase(0, prefix.size());
			got.push_back(m);
		}
		std::vector<std::string> want = read_expect(expect);
		// The order problems are found in is not part of the contract.
		std::sort(got.begin(), got.end());
		std::sort(want.begin(), want.end());
		std::vector<std::string> missing, unexpected;
		std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
				    std::back_inserter(missing));
		std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
				    std::back_inserter(unexpected));
		CAPTURE(ent.path().filename().string(), missing, unexpected);
		CHECK(got == want);
	}
	CHECK(files >= 6);
}

TEST_CASE("corpus: the NAS configuration means what it says")
{
	Diagnostics d;
	Config c = load_config_file(std::string(SMBSRV_TEST_DATA) + "/corpus/nas.conf", d);
	const Knobs &k = c.knobs;
	CHECK(k.min_dialect == 0x0300);
	CHECK(k.max_dialect == 0x0311);
	CHECK(k.signing == 2);	  // mandatory
	CHECK(k.encryption == 1); // auto
	CHECK(k.max_connections == 512);
	CHECK(k.max_ip_connections == 16);
	CHECK(k.max_sessions == 65536); // 0 means as many as allowed
	CHECK(k.max_open_files == 20000);
	CHECK(k.deadtime == 15);
	CHECK(k.smb2_max_credits == 2048);

	const ShareConfig *fin = c.share("finance");
	REQUIRE(fin != nullptr);
	CHECK(fin->params.str("smb3 encryption") == "mandatory");
	CHECK(fin->params.number("max connections") == 20);
	CHECK(fin->params.list("valid users") ==
	      std::vector<std::string>{"@finance", "carol"});
	CHECK(fin->params.list("vfs objects") ==
	      std::vector<std::string>{"acl_xattr", "streams_xattr"});
	// A share parameter in [global] is every share's default ...
	CHECK_FALSE(fin->params.boolean("read only"));
	// A continued line joins with one blank.
	CHECK(fin->params.str("hosts allow") == "10.0.0.0/8 192.168.1. 127.0.0.1");
	CHECK(fin->params.list("hosts allow") ==
	      std::vector<std::string>{"10.0.0.0/8", "192.168.1.", "127.0.0.1"});
	// ... but the server-wide "max connections" is not a share's.
	const ShareConfig *scratch = c.share("scratch");
	REQUIRE(scratch != nullptr);
	CHECK_FALSE(scratch->params.has("max connections"));
	CHECK(scratch->params.str("smb3 encryption") == "auto");
	CHECK(scratch->params.number("force directory mode") == 02770);
	CHECK_FALSE(scratch->params.boolean("crossmnt"));
}

TEST_CASE("corpus: smbsrv's own knobs reach the module's knob set")
{
	Diagnostics d;
	Config c = load_config_file(
		std::string(SMBSRV_TEST_DATA) + "/corpus/smbsrv-tuned.conf", d);
	const Knobs &k = c.knobs;
	CHECK(k.route_policy == 2); // adaptive
	CHECK(k.splice_threshold == 256U << 10);
	CHECK(k.response_batch == 32);
	CHECK(k.inline_reads == 0);
	CHECK(k.upcall_timeout == 5);
	CHECK(k.frame_timeout == 60);
	CHECK(k.smb2_max_read == 8U << 20);
	CHECK(k.smb2_max_write == 8U << 20);
	CHECK(k.smb2_max_trans == 1U << 20);
}
