// SPDX-License-Identifier: GPL-2.0-or-later
//
// auth-driver: smbsrv's Authenticator on stdin/stdout, so that real
// clients' security code (Samba's gensec, impacket) can be run against it
// without a kernel, and their exchanges recorded for the unit tests.
//
//   auth-driver [--seed HEX16] [--time FILETIME] [--map-to-guest MODE]
//               [--guest-account NAME] [--netbios NAME] [--workgroup NAME]
//               [--user NAME:PASSWORD]... [--account NAME:UID:GID]...
//
// Each input line is "SESSIONID ADDRESS HEXBLOB" ("-" for an empty blob);
// each output line is "STATUS HEXBLOB SESSIONKEY FLAGS UID USER" with "-"
// for empty fields.  With --seed, the server challenge is the seed and the
// CHALLENGE timestamp is --time: the exchange is reproducible.
#include <cstdio>
#include <cstdlib>
#include <getopt.h>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "auth.hpp"
#include "bytes.hpp"
#include "userdb.hpp"

using namespace smbsrv;

namespace {

class TableAccounts final : public Accounts {
public:
	std::map<std::string, Account> users;
	std::optional<Account> user(const std::string &name) override
	{
		auto it = users.find(name);
		if (it == users.end())
			return std::nullopt;
		return it->second;
	}
	std::optional<uint32_t> group(const std::string &) override { return std::nullopt; }
};

[[noreturn]] void usage()
{
	std::cerr << "usage: auth-driver [--seed HEX16] [--time N] [--map-to-guest MODE] "
		     "[--guest-account NAME] [--netbios NAME] [--workgroup NAME] "
		     "[--user NAME:PASSWORD]... [--account NAME:UID:GID]...\n";
	std::exit(2);
}

std::string field(ByteView b)
{
	return b.empty() ? "-" : to_hex(b);
}

} // namespace

int main(int argc, char **argv)
{
	static const option longopts[] = {
		{"seed", required_argument, nullptr, 's'},
		{"time", required_argument, nullptr, 't'},
		{"map-to-guest", required_argument, nullptr, 'm'},
		{"guest-account", required_argument, nullptr, 'g'},
		{"netbios", required_argument, nullptr, 'n'},
		{"workgroup", required_argument, nullptr, 'w'},
		{"user", required_argument, nullptr, 'u'},
		{"account", required_argument, nullptr, 'a'},
		{nullptr, 0, nullptr, 0},
	};
	AuthPolicy policy;
	policy.identity.dns_name = "smbsrv.test";
	policy.identity.dns_domain = "test";
	UserDb db;
	TableAccounts accounts;
	ntlm::Entropy entropy;
	Bytes seed;
	uint64_t when = 0;
	int c;
	while ((c = getopt_long(argc, argv, "", longopts, nullptr)) != -1) {
		std::string a = optarg ? optarg : "";
		switch (c) {
		case 's':
			if (!from_hex(a, seed) || seed.size() != 8)
				usage();
			break;
		case 't':
			when = std::strtoull(a.c_str(), nullptr, 0);
			break;
		case 'm':
			policy.map_to_guest = a == "bad user"     ? MapToGuest::bad_user :
					      a == "bad password" ? MapToGuest::bad_password :
					      a == "bad uid"      ? MapToGuest::bad_uid :
								    MapToGuest::never;
			break;
		case 'g':
			policy.guest_account = a;
			break;
		case 'n':
			policy.identity.netbios_name = a;
			break;
		case 'w':
			policy.identity.netbios_domain = a;
			break;
		case 'u': {
			size_t colon = a.find(':');
			if (colon == std::string::npos)
				usage();
			db.set(a.substr(0, colon), *nt_hash(a.substr(colon + 1)));
			break;
		}
		case 'a': {
			Account acct;
			char name[128] = {};
			unsigned uid = 0, gid = 0;
			if (std::sscanf(a.c_str(), "%127[^:]:%u:%u", name, &uid, &gid) != 3)
				usage();
			acct.name = name;
			acct.uid = uid;
			acct.gid = gid;
			acct.groups = {gid};
			accounts.users[acct.name] = acct;
			break;
		}
		default:
			usage();
		}
	}
	if (!seed.empty()) {
		entropy.random = [seed](std::span<uint8_t> out) {
			for (size_t i = 0; i < out.size(); i++)
				out[i] = seed[i % seed.size()];
		};
		entropy.now = [when] { return when; };
	}
	auto lookup = [&db](const std::string &user) -> std::optional<ntlm::Credential> {
		const UserEntry *e = db.find(user);
		if (!e)
			return std::nullopt;
		return ntlm::Credential{e->name, e->hash};
	};
	Authenticator auth(policy, lookup, accounts, entropy);

	std::string line;
	while (std::getline(std::cin, line)) {
		std::istringstream in(line);
		std::string sid, addr, hex;
		Bytes blob;
		if (!(in >> sid >> addr >> hex) || (hex != "-" && !from_hex(hex, blob))) {
			std::cout << "error: bad input line" << std::endl;
			continue;
		}
		AuthResult r = auth.step(std::strtoull(sid.c_str(), nullptr, 0), addr, blob);
		char status[16];
		std::snprintf(status, sizeof(status), "%08x", r.status);
		std::cout << status << " " << field(r.blob) << " " << field(r.session_key)
			  << " " << r.flags << " " << r.uid << " "
			  << (r.user.empty() ? "-" : r.user) << std::endl;
	}
	return 0;
}
