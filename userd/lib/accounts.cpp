// SPDX-License-Identifier: GPL-2.0-or-later
#include "accounts.hpp"

#include <cerrno>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

namespace smbsrv {

std::optional<Account> SystemAccounts::user(const std::string &name)
{
	passwd pw{};
	passwd *res = nullptr;
	std::vector<char> buf(4096);
	int err;
	while ((err = getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &res)) == ERANGE &&
	       buf.size() < (1U << 20))
		buf.resize(buf.size() * 2);
	if (err || !res)
		return std::nullopt;
	Account a{res->pw_name, res->pw_uid, res->pw_gid, {}};
	int n = 32;
	std::vector<gid_t> gids;
	for (int tries = 0; tries < 8; tries++) {
		gids.resize(static_cast<size_t>(n));
		int want = n;
		if (getgrouplist(a.name.c_str(), a.gid, gids.data(), &want) >= 0) {
			gids.resize(static_cast<size_t>(want));
			break;
		}
		n = want > n ? want : n * 2;
		gids.clear();
	}
	if (gids.empty())
		gids.push_back(a.gid);
	a.groups.assign(gids.begin(), gids.end());
	return a;
}

std::optional<uint32_t> SystemAccounts::group(const std::string &name)
{
	struct group gr {};
	struct group *res = nullptr;
	std::vector<char> buf(4096);
	int err;
	while ((err = getgrnam_r(name.c_str(), &gr, buf.data(), buf.size(), &res)) == ERANGE &&
	       buf.size() < (1U << 22))
		buf.resize(buf.size() * 2);
	if (err || !res)
		return std::nullopt;
	return res->gr_gid;
}

} // namespace smbsrv
