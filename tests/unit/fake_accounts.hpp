// SPDX-License-Identifier: GPL-2.0-or-later
//
// Accounts for unit tests: users and groups from maps, no /etc/passwd.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "accounts.hpp"

namespace smbsrv::test {

class FakeAccounts final : public Accounts {
public:
	std::map<std::string, Account> users;
	std::map<std::string, uint32_t> groups;
	std::optional<Account> user(const std::string &name) override
	{
		auto it = users.find(name);
		if (it == users.end())
			return std::nullopt;
		return it->second;
	}
	std::optional<uint32_t> group(const std::string &name) override
	{
		auto it = groups.find(name);
		if (it == groups.end())
			return std::nullopt;
		return it->second;
	}
};

// The guest's accounts (tools/vm/mkinitramfs.sh) and a few more.
inline FakeAccounts accounts()
{
	FakeAccounts a;
	a.users["demo"] = {"demo", 1000, 1000, {1000}};
	a.users["alice"] = {"alice", 1001, 1001, {1001, 1100}};
	a.users["bob"] = {"bob", 1002, 1002, {1002, 1100}};
	a.users["carol"] = {"carol", 1004, 1004, {1004}};
	a.users["nobody"] = {"nobody", 65534, 65534, {65534}};
	a.groups["family"] = 1100;
	a.groups["demo"] = 1000;
	return a;
}

} // namespace smbsrv::test
